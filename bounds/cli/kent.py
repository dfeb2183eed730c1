"""``bounds kent``: Kent, Berrett & Yu's rates, regime and phase transition T_dagger."""

from __future__ import annotations

import argparse
from typing import Any

from ._common import add_parser, add_json, integer, positive, print_json


def register(subparsers: Any) -> None:
    """Add ``kent`` to ``subparsers``."""
    p = add_parser(subparsers, "kent", "Kent, Berrett & Yu: rates, regime and phase transition T_dagger")
    p.add_argument("--problem", default="mean", choices=["mean", "sparse", "density"])
    p.add_argument("--n", type=integer(1), required=True, help="number of users")
    p.add_argument("--T", type=integer(1), required=True, help="samples per user")
    p.add_argument("--alpha", type=positive, required=True, help="LDP level alpha")
    p.add_argument("--d", type=integer(1), default=1, help="dimension (mean, sparse)")
    p.add_argument("--s", type=integer(1), default=None, help="sparsity (sparse)")
    p.add_argument("--beta", type=positive, default=None, help="Sobolev smoothness (density)")
    p.add_argument("--ball", default="linf", choices=["linf", "l2"], help="the mean's ball for d > 1")
    add_json(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Compute and print the rates; return the exit status."""
    from .. import kent
    from ..references import KENT

    kw = {"d": args.d, "s": args.s, "beta": args.beta, "ball": args.ball}
    r = kent.rate(args.problem, n=args.n, T=args.T, alpha=args.alpha, **kw)
    pt = kent.phase_transition(args.problem, n=args.n, alpha=args.alpha, **kw)
    if args.json:
        return print_json("kent", {"problem": args.problem, "n": args.n, "T": args.T, "alpha": args.alpha, **kw},
                          rate=r, phase_transition=pt)
    print(f"Kent, Berrett & Yu — user-level LDP rates ({KENT.cite()}, Theorems 6, 8, 9)")
    print(f"  problem       {args.problem}" + (f", d = {args.d}, ball = {args.ball}" if args.d > 1 else "")
          + (f", s = {args.s}" if args.s else "") + (f", beta = {args.beta:g}" if args.beta else ""))
    print(f"  n, T, alpha   {args.n}, {args.T}, {args.alpha:g}   (n alpha^2 = {r.n * r.alpha * r.alpha:g})")
    print(f"  confidence    [{r.confidence}]" + ("  (reconstructed form)" if r.reconstructed else ""))
    print("  rates with constants c = C = c1 = c2 = 1 (rates, not numeric bounds):")
    print(f"  lower         {r.lower:.6g}   = c * max({r.lower_terms[0]:.4g}, {r.lower_terms[1]:.4g})")
    print(f"  upper         {r.upper:.6g}")
    print(f"  item-level    {r.item_level:.6g}   (nT = {args.n * args.T} users, one sample each)")
    print(f"  regime        {r.regime}")
    print(f"  T_dagger      {pt.lower:.6g}   (log {pt.log_lower:.6g}; lower rate's two terms equal)")
    if pt.upper is not None:
        print(f"                {pt.upper:.6g}   (log {pt.log_upper:.6g}; upper rate's two terms equal)")
    return 0
