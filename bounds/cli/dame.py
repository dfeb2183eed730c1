"""``bounds dame``: DAME's upper and lower bounds (Pla et al. 2024, Theorems 1-2) for a size law."""

from __future__ import annotations

import argparse
import math
import warnings
from typing import Any

from ._common import add_parser, OptionError, add_json, fmt, integer, law, positive, print_json

MAX_PRECISION = 1000  # numerics.MAX_PRECISION, repeated so that --help imports no numerics (a test checks they agree)


def register(subparsers: Any) -> None:
    """Add ``dame`` to ``subparsers``."""
    p = add_parser(subparsers, "dame", "DAME's upper and lower bounds (Theorems 1-2) for a size law")
    p.add_argument("--sizes", required=True, help="size law, e.g. poisson:5, uniform:1,9, finite:1=0.5,100=0.5")
    p.add_argument("--n", type=integer(2), help="number of users")
    p.add_argument("--alpha", type=positive, help="LDP level alpha")
    p.add_argument("--n-alpha2", type=positive, help="n * alpha^2 (instead of --n and --alpha)")
    p.add_argument("--constants", default="paper", choices=["paper", "unit"])
    p.add_argument("--precision", type=integer(1), default=None,
                   help=f"mpmath digits, at most {MAX_PRECISION} (default: float64)")
    add_json(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Compute and print the bounds; return the exit status."""
    from .. import dame
    from ..numerics import PaperAssumptionWarning
    from ..references import DAME

    m = law(args.sizes)
    kw: dict[str, Any]
    if args.n_alpha2 is not None:
        if args.n is not None or args.alpha is not None:
            raise OptionError("--n-alpha2", "give either --n and --alpha, or --n-alpha2, not both")
        kw = {"n_alpha2": args.n_alpha2}
    elif args.n is None or args.alpha is None:
        raise OptionError("--n/--alpha", "give both --n and --alpha, or --n-alpha2")
    else:
        kw = {"n": args.n, "alpha": args.alpha}
    c = dame.Constants.paper() if args.constants == "paper" else dame.Constants.unit()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        ub = dame.upper_bound(m, constants=c, precision=args.precision, **kw)
        lb = dame.lower_bound(m, constants=c, precision=args.precision, **kw)
    notes = list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, PaperAssumptionWarning)))
    if args.json:
        return print_json("dame", {"sizes": args.sizes, **kw, "constants": args.constants, "precision": args.precision},
                          upper_bound=ub, lower_bound=lb, warnings=notes)
    p = args.precision
    budget = f"{ub.n_alpha2:.10g}" + (f"   (n = {ub.n}, alpha = {ub.alpha:g})" if ub.n is not None else "")
    consts = ", ".join(f"{k}={v}" for k, v in c.describe().items() if k != "name")
    print(f"DAME bounds — {DAME.cite()}, Theorems 1-2, eqs. (10)-(12)")
    print(f"  size law M    {m!r}   E[m] = {float(m.mean()):.6g}")
    print(f"  n alpha^2     {budget}")
    print(f"  constants     {c.name}: {consts}")
    print(f"  precision     {'float64' if p is None else f'{p} digits (mpmath)'}")
    print(f"  m_tilde       {ub.m_tilde}")
    cap = "   (capped at 4)" if ub.capped else ""
    print(f"  upper bound   {fmt(ub.value, p)}{cap}   (log {fmt(ub.log_value, p)})")
    arg = "inf" if math.isinf(lb.argmax) else str(int(lb.argmax))
    print(f"  lower bound   {fmt(lb.value, p)}   at a = {arg}   (log {fmt(lb.log_value, p)})")
    for w in notes:
        print(f"  warning: {w}")
    return 0
