"""``bounds cummings``: Cummings et al.'s k*, the optimal truncation T* and Corollary 5.5."""

from __future__ import annotations

import argparse
from typing import Any

from ._common import add_parser, OptionError, add_json, number, positive, print_json


def register(subparsers: Any) -> None:
    """Add ``cummings`` to ``subparsers``."""
    p = add_parser(subparsers, "cummings", "Cummings et al.: k*, the optimal truncation T* and Corollary 5.5")
    p.add_argument("--k", required=True, help="samples per user, e.g. 100,50,20,5,1")
    p.add_argument("--eps", type=positive, required=True, help="privacy level epsilon")
    p.add_argument("--p", type=number, default=0.5, help="mean of the meta-distribution (default 0.5)")
    p.add_argument("--sigma-p2", type=number, default=0.01, help="its variance sigma_p^2 (default 0.01)")
    p.add_argument("--beta", type=positive, default=0.05, help="failure probability of the widths (default 0.05)")
    add_json(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Compute and print the truncation and bound; return the exit status."""
    import numpy as np

    from .. import cummings
    from ..references import CUMMINGS

    try:
        k = [int(v) for v in args.k.split(",")]
    except ValueError:
        raise OptionError("--k", f"must be comma-separated positive integers, got {args.k!r}") from None
    s2 = cummings.user_variance(k, p=args.p, sigma_p2=args.sigma_p2)
    if not np.all(s2 > 0):
        raise OptionError("--p/--sigma-p2", f"p = {args.p:g} and sigma_p2 = {args.sigma_p2:g} give users of zero "
                          "variance: the weights (4) and T* (6) need p(1-p) > 0 or sigma_p2 > 0")
    widths = 2 * cummings.concentration(k, p=args.p, sigma_p2=args.sigma_p2, beta=args.beta)
    trunc = cummings.optimal_truncation(s2, widths, eps=args.eps)
    lb = cummings.lower_bound(k, eps=args.eps, sigma_p2=args.sigma_p2)
    exact = cummings.ideal_variance(s2, widths, eps=args.eps, T=trunc.T, laplace="exact")
    if args.json:
        return print_json("cummings", {"k": k, "eps": args.eps, "p": args.p, "sigma_p2": args.sigma_p2, "beta": args.beta},
                          user_variance=s2, widths=widths, truncation=trunc, variance_exact_laplace=exact,
                          lower_bound=lb)
    print(f"Cummings, Feldman, McMillan & Talwar — heterogeneous users ({CUMMINGS.cite()})")
    print(f"  k             {', '.join(map(str, k))}   (n = {len(k)})")
    print(f"  eps, p, s_p^2 {args.eps:g}, {args.p:g}, {args.sigma_p2:g}   (widths: sub-Gaussian, beta = {args.beta:g})")
    print(f"  k*            {lb.k_star}   (Corollary 5.5)")
    print(f"  T*            {trunc.T:.10g}   (eq. (6), exact)")
    print(f"  Var(ideal)    {trunc.variance:.10g}   (eq. (5) as printed; with Var(Lap(b)) = 2b^2: {exact:.10g})")
    print(f"  lower bound   {lb.value:.10g} = min({lb.privacy_term:.6g}, {lb.statistical_term:.6g})   (Corollary 5.5, no polylog)")
    print(f"  {'k_i':>8s} {'sigma_i^2':>12s} {'weight':>10s}")
    for ki, si, wi in zip(k, s2, trunc.weights):
        print(f"  {ki:8d} {si:12.6g} {wi:10.6f}")
    return 0
