"""``bounds kent``: Kent, Berrett & Yu's minimax rates, regime and phase transition T_dagger.

Rates, not numeric bounds: the papers' unknown absolute constants are set to 1.  The risk is the
squared l2 error of the mean (squared L2 for densities).  One point, a sweep (``--sweep T=1:1e6:20``)
or a search (``--solve n --target upper<0.01``).
"""

from __future__ import annotations

import argparse
from typing import Any

from . import _solve
from ._common import add_output, add_parser, check_save, emit, integer, positive

TAGS = "[V] verified, [S] supported (the paper's prose fixes the form), [R] reconstructed (form or log factors uncertain)"
METRIC = {"mean": "squared l2 error of the mean", "sparse": "squared l2 error of the sparse mean",
          "density": "squared L2 error of the density"}
QUANTITIES = ("upper", "lower")


def register(subparsers: Any) -> None:
    """Add ``kent`` to ``subparsers``."""
    p = add_parser(subparsers, "kent", "Kent, Berrett & Yu: minimax rates, regime and phase transition T_dagger")
    p.add_argument("--problem", default="mean", choices=["mean", "sparse", "density"], help="the estimation problem")
    p.add_argument("--n", type=integer(1), help="number of users (required unless swept or solved for)")
    p.add_argument("--T", type=integer(1), help="samples per user (required unless swept or solved for)")
    p.add_argument("--alpha", type=positive, required=True, help="local privacy level alpha")
    p.add_argument("--d", type=integer(1), default=1, help="dimension (mean, sparse)")
    p.add_argument("--s", type=integer(1), default=None, help="sparsity (sparse; required there)")
    p.add_argument("--beta", type=positive, default=None, help="Sobolev smoothness (density; required there)")
    p.add_argument("--ball", default="linf", choices=["linf", "l2"], help="the mean's ball for d > 1")
    _solve.add_options(p, "K log-spaced integer values of T or n from LO to HI", ["n", "T"],
                       "find the smallest integer n (or T) meeting --target",
                       "the condition of --solve: upper<V or lower<V (a rate)")
    add_output(p)
    p.set_defaults(func=run)


def _kw(args: argparse.Namespace) -> dict[str, Any]:
    return {"d": args.d, "s": args.s, "beta": args.beta, "ball": args.ball}


def run(args: argparse.Namespace) -> int:
    """Compute and print the rates (a point, a sweep or a search); return the exit status."""
    _solve.check_modes(args)
    _solve.check_varied(args, {"n": int, "T": int})
    check_save(args)
    if args.sweep is not None:
        return _sweep(args)
    if args.solve is not None:
        return _search(args)
    return _point(args)


def _point(args: argparse.Namespace) -> int:
    from .. import kent
    from ..references import KENT

    kw = _kw(args)
    r = kent.rate(args.problem, n=args.n, T=args.T, alpha=args.alpha, **kw)
    pt = kent.phase_transition(args.problem, n=args.n, alpha=args.alpha, **kw)
    lines = [f"Kent, Berrett & Yu — user-level LDP minimax rates ({KENT.cite()}, Theorems 6, 8, 9)",
             f"  problem       {args.problem}" + (f", d = {args.d}, ball = {args.ball}" if args.d > 1 else "")
             + (f", s = {args.s}" if args.s else "") + (f", beta = {args.beta:g}" if args.beta else ""),
             f"  n, T, alpha   {args.n}, {args.T}, {args.alpha:g}   (n alpha^2 = {r.n * r.alpha * r.alpha:g})",
             f"  metric        minimax risk in {METRIC[args.problem]}",
             "  kind          rates with the unknown constants c = C = c1 = c2 = 1: orders of magnitude, not numeric bounds",
             f"  confidence    [{r.confidence}]" + ("  (reconstructed form)" if r.reconstructed else "")
             + f"   tags: {TAGS}",
             f"  lower rate    {r.lower:.6g}   = c * max(polynomial term {r.lower_terms[0]:.4g}, "
             f"exponential term {r.lower_terms[1]:.4g})",
             f"  upper rate    {r.upper:.6g}",
             f"  item-level    {r.item_level:.6g}   rate with nT = {args.n * args.T} users of one sample each",
             f"  regime        {r.regime}   ("
             + ("the polynomial term dominates: T <= T_dagger" if r.regime == "small-T"
                else "the exponential term dominates: T > T_dagger, more samples per user no longer help") + ")",
             f"  T_dagger      {pt.lower:.6g}   (ln {pt.log_lower:.6g}): the T where the LOWER rate's two terms are equal"]
    if pt.upper is not None and pt.log_upper is not None:
        lines.append(f"                {pt.upper:.6g}   (ln {pt.log_upper:.6g}): the T where the UPPER rate's two terms "
                     "are equal")
    return emit(args, "kent", {"problem": args.problem, "n": args.n, "T": args.T, "alpha": args.alpha, **kw},
                {"rate": r, "phase_transition": pt}, lines)


def _sweep(args: argparse.Namespace) -> int:
    from .. import kent
    from ..references import KENT

    name, values = _solve.sweep_values(args.sweep, {"T": int, "n": int})
    fixed = {"n": args.n, "T": args.T}
    rows = []
    for v in values:
        at = {**fixed, name: int(v)}
        r = kent.rate(args.problem, n=at["n"], T=at["T"], alpha=args.alpha, **_kw(args))
        rows.append({name: int(v), "lower_rate": r.lower, "upper_rate": r.upper, "item_level_rate": r.item_level,
                     "regime": r.regime})
    csv_text = _solve.csv_table(rows)
    other = "T" if name == "n" else "n"
    lines = [f"Kent, Berrett & Yu rates along {name} — {KENT.cite()} ({args.problem}, {other} = {fixed[other]}, "
             f"alpha = {args.alpha:g})",
             f"  rates of the minimax risk in {METRIC[args.problem]}, constants 1 (orders, not numeric bounds)",
             f"  {name:>12s} {'lower rate':>12s} {'upper rate':>12s} {'item-level':>12s}  regime"]
    lines += [f"  {r[name]:12d} {r['lower_rate']:12.6g} {r['upper_rate']:12.6g} {r['item_level_rate']:12.6g}  {r['regime']}"
              for r in rows]
    inputs = {"problem": args.problem, "sweep": args.sweep, other: fixed[other], "alpha": args.alpha, **_kw(args)}
    return emit(args, "kent", inputs, {"rows": rows}, lines, csv_text)


def _search(args: argparse.Namespace) -> int:
    from .. import kent
    from ..references import KENT

    quantity, goal = _solve.parse_target(args.target, QUANTITIES)
    lo, hi = _solve.parse_range(args.range, True)
    fixed = {"n": args.n, "T": args.T}

    def rate_at(v: float) -> Any:
        at = {**fixed, args.solve: int(v)}
        return kent.rate(args.problem, n=at["n"], T=at["T"], alpha=args.alpha, **_kw(args))

    def holds(v: float) -> bool:
        return bool(getattr(rate_at(v), quantity) < goal)

    rate_at(lo)  # the fixed inputs are checked before the search
    ans = _solve.solve(holds, lo, hi, True)
    what = "number of users n" if args.solve == "n" else "samples per user T"
    other = "T" if args.solve == "n" else "n"
    lines = [f"Kent, Berrett & Yu: the smallest {what} with the {quantity} rate < {goal:g} — {KENT.cite()}",
             f"  problem       {args.problem}, {other} = {fixed[other]}, alpha = {args.alpha:g}; rates of the minimax "
             f"risk in {METRIC[args.problem]}, constants 1 (orders, not numeric bounds)",
             f"  searched      {what} in [{lo:g}, {hi:g}]"]
    result: dict[str, Any] = {"answer": ans.value, "holds_at_low_end": ans.holds_at_low_end,
                              "fails_again_at": ans.fails_again_at}
    if ans.value is None:
        lines.append("  answer        none: the target is not met anywhere in the range"
                     + (" (beyond T_dagger more samples per user do not help)" if args.solve == "T" else ""))
    else:
        r = rate_at(ans.value)
        lines += [f"  answer        {args.solve} = {int(ans.value)}   (exact integer; checked: it meets the target)",
                  f"  there         lower rate {r.lower:.6g}, upper rate {r.upper:.6g}, regime {r.regime}"]
        if ans.holds_at_low_end:
            lines.append("  note: the target already holds at the low end of the range")
        if ans.fails_again_at is not None:
            lines.append(f"  note: the target fails again at {args.solve} = {ans.fails_again_at:.6g} (not monotone)")
        result["rate"] = r
    inputs = {"problem": args.problem, "solve": args.solve, "target": args.target, other: fixed[other],
              "alpha": args.alpha, "range": [lo, hi], **_kw(args)}
    return emit(args, "kent", inputs, result, lines)
