"""``bounds cummings``: Cummings et al.'s k*, the optimal truncation T* and Corollary 5.5.

The per-user sample counts come inline (``--k 100,50,20``) or from a file (``--counts FILE``,
one or more counts a line, or a CSV column with ``--column``); long inputs are summarised.
"""

from __future__ import annotations

import argparse
from typing import Any

from ._common import (OptionError, add_output, add_parser, check_save, emit, exact_integer, number, positive,
                      read_counts, summary, table)


def register(subparsers: Any) -> None:
    """Add ``cummings`` to ``subparsers``."""
    p = add_parser(subparsers, "cummings", "Cummings et al.: k*, the optimal truncation T* and Corollary 5.5 "
                                           "(central model, heterogeneous users; variances = MSE)")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--k", help="samples per user, comma-separated, e.g. 100,50,20,5,1")
    source.add_argument("--counts", metavar="FILE",
                        help="samples per user from a file (- for stdin): counts separated by commas, blanks or "
                             "lines, or a CSV column with --column")
    p.add_argument("--column", default=None, help="the CSV column of --counts holding the counts")
    p.add_argument("--eps", type=positive, required=True, help="central privacy level epsilon")
    p.add_argument("--p", type=number, default=0.5, help="mean of the meta-distribution")
    p.add_argument("--sigma-p2", type=number, default=0.01, help="its variance sigma_p^2")
    p.add_argument("--beta", type=positive, default=0.05, help="failure probability of the widths")
    add_output(p)
    p.set_defaults(func=run)


def _inline(text: str) -> list[int]:
    try:
        k = [exact_integer(v) for v in text.split(",")]
    except ValueError:
        raise OptionError("--k", f"must be comma-separated positive integers, got {text!r}") from None
    return k


def run(args: argparse.Namespace) -> int:
    """Compute and print the truncation and bound; return the exit status."""
    if args.column is not None and args.counts is None:
        raise OptionError("--column", "names a column of --counts FILE")
    check_save(args)
    k = _inline(args.k) if args.k is not None else read_counts(args.counts, "--counts", args.column)
    import numpy as np

    from .. import cummings
    from ..references import CUMMINGS

    s2 = cummings.user_variance(k, p=args.p, sigma_p2=args.sigma_p2)
    if not np.all(s2 > 0):
        raise OptionError("--p/--sigma-p2", f"p = {args.p:g} and sigma_p2 = {args.sigma_p2:g} give users of zero "
                          "variance: the weights (4) and T* (6) need p(1-p) > 0 or sigma_p2 > 0")
    widths = 2 * cummings.concentration(k, p=args.p, sigma_p2=args.sigma_p2, beta=args.beta)
    trunc = cummings.optimal_truncation(s2, widths, eps=args.eps)
    lb = cummings.lower_bound(k, eps=args.eps, sigma_p2=args.sigma_p2)
    exact = cummings.ideal_variance(s2, widths, eps=args.eps, T=trunc.T, laplace="exact")
    users = f"{', '.join(map(str, k))}   (n = {len(k)})" if len(k) <= 20 else summary(k)
    first = {ki: i for i, ki in reversed(list(enumerate(k)))}  # users with equal k share sigma^2 and weight
    per = {ki: k.count(ki) for ki in first} if len(k) <= 1000 else dict(zip(*np.unique(k, return_counts=True)))
    rows = [f"  {ki:8d} {int(per[ki]):7d} {s2[first[ki]]:12.6g} {trunc.weights[first[ki]]:10.6f}"
            for ki in sorted(first, reverse=True)]
    lines = [f"Cummings, Feldman, McMillan & Talwar — heterogeneous users ({CUMMINGS.cite()})",
             f"  k             {users}" if args.k is not None else f"  counts        {args.counts}: {users}",
             f"  eps, p, s_p^2 {args.eps:g}, {args.p:g}, {args.sigma_p2:g}   (widths: sub-Gaussian, beta = {args.beta:g})",
             "  metric        variance of the unbiased weighted estimate = its MSE",
             f"  k*            {lb.k_star}   (Corollary 5.5)",
             f"  T*            {trunc.T:.10g}   (the optimal truncation of the weights, eq. (6), exact)",
             f"  Var(ideal)    {trunc.variance:.10g}   MSE of the estimator at T*, eq. (5) as printed (Var(Lap(b)) "
             f"read as b^2); with the exact Var(Lap(b)) = 2b^2: {exact:.10g}",
             f"  lower bound   {lb.value:.10g} = min(privacy term {lb.privacy_term:.6g}, statistical term "
             f"{lb.statistical_term:.6g})",
             "                a rate of the MSE: Corollary 5.5 without its constants and polylog factors",
             *table(f"  {'k_i':>8s} {'users':>7s} {'sigma_i^2':>12s} {'weight':>10s}   (weight of each such user)", rows)]
    inputs = {"k": k, "eps": args.eps, "p": args.p, "sigma_p2": args.sigma_p2, "beta": args.beta,
              "counts_file": args.counts}
    return emit(args, "cummings", inputs, {"user_variance": s2, "widths": widths, "truncation": trunc,
                                           "variance_exact_laplace": exact, "lower_bound": lb}, lines)
