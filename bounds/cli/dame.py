"""``bounds dame``: DAME's upper and lower bounds (Pla et al. 2024, Theorems 1-2) for a size law.

Both bounds are on the worst-case mean squared error (MSE) of the estimate of the mean.  One point
(``--n --alpha`` or ``--n-alpha2``), a sweep (``--sweep n_alpha2=LO:HI:K``, ``--csv``) or a search
(``--solve n_alpha2 --target ratio<10``, ``--solve n --alpha 0.5 --target upper<0.01``).
"""

from __future__ import annotations

import argparse
import math
import warnings
from typing import Any

from . import _solve
from ._common import OptionError, add_output, add_parser, check_save, emit, fmt, integer, law, positive

MAX_PRECISION = 1000  # numerics.MAX_PRECISION, repeated so that --help imports no numerics (a test checks they agree)

QUANTITIES = ("upper", "ratio")
CONSTANTS_NOTE = ("paper: the constants of the paper's proofs (c1 = e^-9/16, ...); unit: all five equal to 1. "
                  "`bounds figures` draws Figure 1a with unit constants by default")


def register(subparsers: Any) -> None:
    """Add ``dame`` to ``subparsers``."""
    p = add_parser(subparsers, "dame", "DAME's upper and lower bounds (Theorems 1-2) on the worst-case MSE, "
                                       "for a size law")
    p.add_argument("--sizes", required=True, help="size law M, e.g. poisson:5, uniform:1,9, finite:1=0.5,100=0.5")
    p.add_argument("--n", type=integer(2), help="number of users")
    p.add_argument("--alpha", type=positive, help="local privacy level alpha")
    p.add_argument("--n-alpha2", type=positive, help="the budget n * alpha^2 (instead of --n and --alpha)")
    p.add_argument("--constants", default="paper", choices=["paper", "unit"], help=CONSTANTS_NOTE)
    p.add_argument("--precision", type=integer(1), default=None,
                   help=f"mpmath digits, at most {MAX_PRECISION} (default: float64)")
    _solve.add_options(p, "K log-spaced values of n_alpha2 (or of n, with --alpha) from LO to HI: a table, or CSV "
                          "with --csv", ["n_alpha2", "n"],
                       "find the smallest n_alpha2 (or number of users n, with --alpha) meeting --target",
                       "the condition of --solve: upper<V (the upper bound on the MSE) or ratio<V (upper/lower)")
    add_output(p)
    p.set_defaults(func=run)


def _budget(args: argparse.Namespace) -> dict[str, Any]:
    if args.n_alpha2 is not None:
        if args.n is not None or args.alpha is not None:
            raise OptionError("--n-alpha2", "give either --n and --alpha, or --n-alpha2, not both")
        return {"n_alpha2": args.n_alpha2}
    if args.n is None or args.alpha is None:
        raise OptionError("--n/--alpha", "give both --n and --alpha, or --n-alpha2")
    return {"n": args.n, "alpha": args.alpha}


def run(args: argparse.Namespace) -> int:
    """Compute and print the bounds (a point, a sweep or a search); return the exit status."""
    _solve.check_modes(args)
    check_save(args)
    m = law(args.sizes)
    if args.sweep is not None:
        return _sweep(args, m)
    if args.solve is not None:
        return _search(args, m)
    return _point(args, m)


def _constants(args: argparse.Namespace) -> Any:
    from .. import dame

    return dame.Constants.paper() if args.constants == "paper" else dame.Constants.unit()


def _constants_lines(c: Any) -> list[str]:
    consts = ", ".join(f"{k}={v}" for k, v in c.describe().items() if k != "name")
    other = "unit" if c.name == "paper" else "paper"
    return [f"  constants     {c.name}: {consts}",
            f"                (--constants {other} for the other preset; `bounds figures` defaults to unit constants)"]


def _point(args: argparse.Namespace, m: Any) -> int:
    from .. import dame
    from ..numerics import PaperAssumptionWarning
    from ..references import DAME

    kw = _budget(args)
    c = _constants(args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        ub = dame.upper_bound(m, constants=c, precision=args.precision, **kw)
        lb = dame.lower_bound(m, constants=c, precision=args.precision, **kw)
    notes = list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, PaperAssumptionWarning)))
    p = args.precision
    budget = f"{ub.n_alpha2:.10g}" + (f"   (n = {ub.n}, alpha = {ub.alpha:g})" if ub.n is not None else "")
    cap = ", capped at 4" if ub.capped else ""
    arg = "inf" if math.isinf(lb.argmax) else str(int(lb.argmax))
    lines = [f"DAME bounds — {DAME.cite()}, Theorems 1-2, eqs. (10)-(12)",
             "  metric        worst-case mean squared error (MSE) of the estimated mean; logs are natural (ln)",
             f"  size law M    {m!r}   E[m] = {float(m.mean()):.6g}",
             f"  n alpha^2     {budget}",
             *_constants_lines(c),
             f"  precision     {'float64' if p is None else f'{p} digits (mpmath)'}",
             f"  m_tilde       {ub.m_tilde}   (effective size, eq. (12))",
             f"  upper bound   {fmt(ub.value, p)}   MSE bound, Theorem 2, eq. (11){cap}   (ln {fmt(ub.log_value, p)})",
             f"  lower bound   {fmt(lb.value, p)}   MSE bound, Theorem 1, eq. (10), at a = {arg}   (ln {fmt(lb.log_value, p)})"]
    if ub.value < lb.value:
        lines.append("  note: the upper bound is below the lower bound at this budget: the bound (11) is not "
                     "meaningful here for these constants")
    lines += [f"  warning: {w}" for w in notes]
    return emit(args, "dame", {"sizes": args.sizes, **kw, "constants": args.constants, "precision": args.precision},
                {"upper_bound": ub, "lower_bound": lb, "warnings": notes}, lines)


def _sweep(args: argparse.Namespace, m: Any) -> int:
    import numpy as np

    from .. import dame
    from ..numerics import PaperAssumptionWarning
    from ..references import DAME

    if args.n_alpha2 is not None or args.n is not None or args.precision is not None:
        raise OptionError("--sweep", "sweeps n_alpha2 or n itself (float64): drop --n-alpha2, --n and --precision")
    name, values = _solve.sweep_values(args.sweep, {"n_alpha2": float, "n": int})
    if name == "n" and args.alpha is None:
        raise OptionError("--alpha", "a sweep of n needs --alpha")
    if name == "n_alpha2" and args.alpha is not None:
        raise OptionError("--alpha", "a sweep of n_alpha2 takes no --alpha (sweep n=LO:HI:K with --alpha instead)")
    if name == "n" and values[0] < 2:
        raise OptionError("--sweep", "n must be >= 2")
    c = _constants(args)
    xs = np.asarray(values) * (args.alpha**2 if name == "n" else 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)  # the `meaningful` column says where UB < LB
        cv = dame.curve(m, n_alpha2=xs, constants=c)
    rows = [{**({"n": int(v)} if name == "n" else {}), "n_alpha2": float(x), "m_tilde": int(mt),
             "upper_mse": float(u), "lower_mse": float(lo), "ratio": float(u / lo) if lo > 0 else math.inf,
             "meaningful": bool(u >= lo)}
            for v, x, mt, u, lo in zip(values, cv.n_alpha2, cv.m_tilde, cv.upper, cv.lower)]
    csv_text = _solve.csv_table(rows)
    head = f"  {'n':>10s} " if name == "n" else "  "
    lines = [f"DAME bounds along n alpha^2 — {DAME.cite()}, Theorems 1-2 (float64)",
             "  upper and lower: bounds on the worst-case MSE; ratio = upper / lower; "
             "* marks upper < lower (not meaningful)",
             f"  size law M    {m!r}", *_constants_lines(c),
             f"{head}{'n_alpha2':>12s} {'m_tilde':>8s} {'upper (MSE)':>13s} {'lower (MSE)':>13s} {'ratio':>10s}"]
    for r in rows:
        lead = f"  {r['n']:>10d} " if name == "n" else "  "
        lines.append(f"{lead}{r['n_alpha2']:12.6g} {r['m_tilde']:8d} {r['upper_mse']:13.6g} {r['lower_mse']:13.6g} "
                     f"{r['ratio']:10.4g}{'' if r['meaningful'] else ' *'}")
    inputs = {"sizes": args.sizes, "sweep": args.sweep, "alpha": args.alpha, "constants": args.constants}
    return emit(args, "dame", inputs, {"rows": rows}, lines, csv_text)


def _search(args: argparse.Namespace, m: Any) -> int:
    from .. import dame
    from ..numerics import PaperAssumptionWarning
    from ..references import DAME

    quantity, goal = _solve.parse_target(args.target, QUANTITIES)
    if args.n_alpha2 is not None or args.n is not None or args.precision is not None:
        raise OptionError("--solve", "searches n_alpha2 or n itself (float64): drop --n-alpha2, --n and --precision")
    integer_ = args.solve == "n"
    if integer_ and args.alpha is None:
        raise OptionError("--alpha", "--solve n needs --alpha")
    if not integer_ and args.alpha is not None:
        raise OptionError("--alpha", "--solve n_alpha2 takes no --alpha (--solve n with --alpha finds a number of users)")
    lo, hi = _solve.parse_range(args.range, integer_)
    if integer_:
        lo = max(lo, 2)
    if hi <= lo:
        raise OptionError("--range", f"HI must exceed 2 for a number of users, got {args.range!r}")
    c = _constants(args)

    def bounds_at(v: float) -> tuple[Any, Any]:
        kw = {"n": int(v), "alpha": args.alpha} if integer_ else {"n_alpha2": v}
        return dame.upper_bound(m, constants=c, **kw), dame.lower_bound(m, constants=c, **kw)

    def holds(v: float) -> bool:
        ub, lb = bounds_at(v)
        if not ub.value >= lb.value:  # UB below LB (0 with unit constants): no answer there
            return False
        return bool(ub.value < goal if quantity == "upper" else lb.value > 0 and ub.value / lb.value < goal)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        ans = _solve.solve(holds, lo, hi, integer_)
        found = None if ans.value is None else bounds_at(ans.value)
    what = "number of users n" if integer_ else "n alpha^2"
    shown = "upper bound on the MSE" if quantity == "upper" else "ratio upper / lower of the MSE bounds"
    lines = [f"DAME: the smallest {what} with {shown} < {goal:g} — {DAME.cite()}, Theorems 1-2",
             f"  size law M    {m!r}", *_constants_lines(c),
             f"  searched      {what} in [{lo:g}, {hi:g}]" + (f", alpha = {args.alpha:g}" if integer_ else "")
             + "; points where upper < lower (not meaningful) do not count"]
    there: list[str] = []
    if found is not None:
        ub, lb = found
        there = [f"  there         upper {ub.value:.6g} (MSE bound), lower {lb.value:.6g} (MSE bound), "
                 f"ratio {ub.value / lb.value:.6g}, m_tilde {ub.m_tilde}"]
    report, result = _solve.answer_lines(ans, what, integer_, there)
    lines += report
    if found is not None:
        result.update(upper_bound=found[0], lower_bound=found[1])
    inputs = {"sizes": args.sizes, "solve": args.solve, "target": args.target, "alpha": args.alpha,
              "range": [lo, hi], "constants": args.constants}
    return emit(args, "dame", inputs, result, lines)
