"""``bounds rameshwar``: Rameshwar & Tandon's T_eps, the optimal clipping, E_OPT and the LP.

The users' contribution counts come from ``--collection`` (``geometric:M``, ``extreme:L,m_star``,
``counts:m1,m2,...``) or a file (``--counts FILE``); long inputs are summarised.  Errors are
worst-case absolute errors (bias + E|Laplace noise|), not MSEs.  One level ``--eps``, a sweep
(``--sweep eps=0.01:10:20``) or a search for the smallest level whose E_OPT meets a target
(``--solve eps --target error<5``).  E_OPT does not increase with ``eps``: it is the minimum over
clippings of Lemma III.1's error, each non-increasing in ``eps`` (the paper says so after eq. (12)).
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from fractions import Fraction
from typing import Any

from . import _solve
from ._common import (OptionError, add_counts, add_output, add_parser, check_save, counts_file, describe_read, emit,
                      exact_integer, positive, summary, table)

_COLLECTIONS = {"geometric": 1, "extreme": 2}
MAX_LP_SWEEP = 200  # users of a collection whose sweep (with --lp) also solves the linear programme at each eps
LP_NOTE = ("the worst-case error minimised over all per-user clippings by linear programming (HiGHS), an "
           "independent check of E_OPT")
EPS_RANGE = "1e-4:1e4"


def register(subparsers: Any) -> None:
    """Add ``rameshwar`` to ``subparsers``."""
    p = add_parser(subparsers, "rameshwar", "Rameshwar-Tandon: T_eps, the optimal clipping, E_OPT and the LP "
                                            "(worst-case absolute errors)")
    add_counts(p, "--collection", "geometric:M, extreme:L,m_star or counts:m1,m2,...",
               "the users' contribution counts m_l")
    p.add_argument("--U", type=positive, default=65.0, help="samples lie in (0, U]")
    p.add_argument("--eps", type=positive, help="central privacy level epsilon (required unless swept or solved for)")
    p.add_argument("--lp", action="store_true",
                   help=f"also solve the linear programme: {LP_NOTE} (imports scipy.optimize: about 0.7 s of CPU more)")
    _solve.add_options(p, f"K log-spaced values of eps from LO to HI (eps=LO:HI:K): T_eps, E_OPT and eq. (12) as "
                          f"printed at each, and with --lp the LP optimum for at most {MAX_LP_SWEEP} users", ["eps"],
                       "find the smallest eps meeting --target",
                       "the condition of --solve: error<V, E_OPT (the worst-case absolute error) below V",
                       solve_range=EPS_RANGE)
    add_output(p)
    p.set_defaults(func=run)


def collection(spec: str) -> Any:
    """``--collection``: ``geometric:M``, ``extreme:L,m_star`` or ``counts:m1,m2,...``, with exact arity."""
    kind, _, rest = spec.partition(":")
    params = [a.strip() for a in rest.split(",")] if rest.strip() else []
    usage = "use geometric:M, extreme:L,m_star or counts:m1,m2,..."
    if kind not in (*_COLLECTIONS, "counts"):
        raise OptionError("--collection", f"cannot read collection {spec!r}: {usage}")
    want = _COLLECTIONS.get(kind)
    if (want is not None and len(params) != want) or not params:
        raise OptionError("--collection", f"{kind} takes {want or 'at least 1'} parameter(s), got {len(params)} in {spec!r}")
    try:
        ints = [exact_integer(a) for a in params]
    except ValueError:
        raise OptionError("--collection", f"cannot read collection {spec!r}: parameters must be integers") from None
    import numpy as np

    from .. import rameshwar

    try:
        if kind == "geometric":
            return rameshwar.geometric(ints[0])
        if kind == "extreme":
            return rameshwar.extreme(*ints)
        return np.asarray(ints, dtype=object)
    except ValueError as exc:
        raise OptionError("--collection", str(exc)) from None


def run(args: argparse.Namespace) -> int:
    """Compute and print the clipping and errors (one eps, a sweep or a search); return the exit status."""
    _solve.check_modes(args)
    _solve.check_varied(args, {"eps": float})
    check_save(args)
    from_file = counts_file(args)
    if from_file is not None:
        import numpy as np

        m = np.asarray(from_file, dtype=object)
    else:
        m = collection(args.collection)
    counts = [int(v) for v in m]
    if args.sweep is None and args.solve is None:
        return _point(args, m, counts)
    import numpy as np

    from .. import rameshwar

    rameshwar.threshold(m, U=args.U, eps=1)  # the counts and U checked once (within int64), whatever the level
    m = np.asarray(counts, dtype=np.int64)  # each of the many calls below then checks an int64 array, not objects
    return _sweep(args, m, counts) if args.sweep is not None else _search(args, m, counts)


def _header(args: argparse.Namespace, counts: list[int]) -> list[str]:
    from ..references import RAMESHWAR

    source = args.collection if args.counts is None else f"{args.counts}"
    return [f"Rameshwar & Tandon — worst-case-optimal clipping ({RAMESHWAR.cite()}, Theorem III.1, Lemma III.1)",
            f"  collection    {source}   L = {len(counts)}, sum m = {sum(counts)}, m* = {max(counts)}",
            *([f"                {summary(counts)}"] if len(counts) > 20 else []),
            *([f"                read: {describe_read(args.counts, args.counts_read)}"] if args.counts is not None else []),
            f"  U             {args.U:g}",
            "  metric        worst-case error over datasets = max bias + E|Laplace noise| (absolute error, not MSE)"]


def _inputs(args: argparse.Namespace, **mode: Any) -> dict[str, Any]:
    return {"collection": args.collection, "counts_file": args.counts, "counts_read": getattr(args, "counts_read", None),
            "U": args.U, **mode}


def _point(args: argparse.Namespace, m: Any, counts: list[int]) -> int:
    from .. import rameshwar

    lp = rameshwar.lp_optimum(m, U=args.U, eps=args.eps) if args.lp else None  # first: it refuses too many users
    c = rameshwar.clipping(m, U=args.U, eps=args.eps)
    e_opt = rameshwar.optimal_error(m, U=args.U, eps=args.eps)
    eq12 = rameshwar.eq12_as_printed(m, U=args.U, eps=args.eps)
    rank = math.ceil(2 / Fraction(args.eps))
    users = Counter(counts)
    first = {m_l: i for i, m_l in reversed(list(enumerate(counts)))}
    rows = [f"  {m_l:6d} {users[m_l]:6d} {c.a[first[m_l]]:12.6g} {c.b[first[m_l]]:12.6g}"
            for m_l in sorted(users, reverse=True)]
    lines = [*_header(args, counts),
             f"  eps           {args.eps:g}   rank ceil(2/eps) = {rank}",
             f"  T_eps         {c.threshold:.10g}   (Theorem III.1's threshold: user l's samples are clipped to "
             "[a_l, b_l] = (U m_l -/+ T_eps) / (2 m_l), within [0, U])",
             *table(f"  {'m_l':>6s} {'users':>6s} {'a_l':>12s} {'b_l':>12s}", rows),
             f"  E_OPT         {e_opt:.12g}   worst-case error (Lemma III.1 at Theorem III.1's clipping; canonical)",
             (f"  LP optimum    {lp.value:.12g}   worst-case error minimised over all per-user clippings (HiGHS); "
              "equal to E_OPT when the theorem holds" if lp is not None else
              f"  LP optimum    not solved: add --lp for {LP_NOTE}"),
             f"  eq. (12)      {eq12:.12g}   eq. (12) as printed (2 m_l denominator, minimum over users): not "
             "E_OPT, shown so that the discrepancy is visible"]
    return emit(args, "rameshwar", _inputs(args, eps=args.eps),
                {"counts": counts, "rank": rank, "clipping": c, "optimal_error": e_opt, "lp_optimum": lp,
                 "eq12_as_printed": eq12}, lines)


def _sweep(args: argparse.Namespace, m: Any, counts: list[int]) -> int:
    from .. import rameshwar

    _, values = _solve.sweep_values(args.sweep, {"eps": float})
    with_lp = args.lp and len(counts) <= MAX_LP_SWEEP
    rows = []
    for eps in _solve.progress(values, "eps"):
        row: dict[str, Any] = {"eps": eps, "rank": math.ceil(2 / Fraction(eps)),
                               "T_eps": rameshwar.threshold(m, U=args.U, eps=eps),
                               "E_OPT_worst_abs_error": rameshwar.optimal_error(m, U=args.U, eps=eps),
                               "eq12_as_printed": rameshwar.eq12_as_printed(m, U=args.U, eps=eps)}
        if with_lp:
            try:
                row["LP_worst_abs_error"] = rameshwar.lp_optimum(m, U=args.U, eps=eps).value
            except ValueError as exc:  # outside the solver's numeric range
                raise OptionError("--sweep", f"at eps = {eps:g}: {exc}") from None
        rows.append(row)
    lines = [*_header(args, counts),
             "  T_eps: Theorem III.1's threshold (the ceil(2/eps)-th largest U m_l); E_OPT: the worst-case absolute "
             "error (Lemma III.1 at Theorem III.1's clipping; canonical);",
             "  eq. (12): as printed (not E_OPT, shown so that the discrepancy is visible); "
             + ("LP: the worst-case error minimised over all per-user clippings (HiGHS)" if with_lp else
                "the LP optimum is left out: add --lp" if not args.lp else
                f"the LP optimum is left out: L = {len(counts)} users > {MAX_LP_SWEEP} (run one --eps --lp for it)"),
             f"  {'eps':>12s} {'rank':>6s} {'T_eps':>12s} {'E_OPT':>14s} {'eq. (12)':>14s}"
             + (f" {'LP optimum':>14s}" if with_lp else "")]
    lines += [f"  {r['eps']:12.6g} {r['rank']:6d} {r['T_eps']:12.6g} {r['E_OPT_worst_abs_error']:14.8g} "
              f"{r['eq12_as_printed']:14.8g}" + (f" {r['LP_worst_abs_error']:14.8g}" if with_lp else "")
              for r in rows]
    return emit(args, "rameshwar", _inputs(args, sweep=args.sweep), {"counts": counts, "lp_included": with_lp,
                                                                     "rows": rows}, lines, _solve.csv_table(rows))


def _search(args: argparse.Namespace, m: Any, counts: list[int]) -> int:
    from .. import rameshwar

    _, goal = _solve.parse_target(args.target, ("error",))
    lo, hi = _solve.parse_range(args.range, False)
    if goal > args.U / 2:  # E_OPT = U/2 for eps < 2/L (the constant release U/2) and does not increase
        raise OptionError("--target", f"error<{goal:g} holds at every eps: E_OPT <= U/2 = {args.U / 2:g}, the error "
                          "of releasing U/2 whatever the data: no eps threshold is meaningful")
    ans = _solve.solve(lambda eps: rameshwar.optimal_error(m, U=args.U, eps=eps, exact=True) < goal, lo, hi, False)
    there: list[str] = []
    found: dict[str, Any] = {}
    if ans.value is not None:
        T = rameshwar.threshold(m, U=args.U, eps=ans.value)
        e_opt = rameshwar.optimal_error(m, U=args.U, eps=ans.value)
        there = [f"  there         E_OPT {e_opt:.8g} (worst-case absolute error), T_eps {T:.8g}, "
                 f"rank ceil(2/eps) = {math.ceil(2 / Fraction(ans.value))}"]
        found = {"optimal_error": e_opt, "threshold": T}
    report, result = _solve.answer_lines(ans, "eps", False, there)
    lines = [*_header(args, counts),
             f"  target        E_OPT (worst-case absolute error, exact rational) < {goal:g}",
             f"  searched      eps in [{lo:g}, {hi:g}]", *report]
    if ans.value is None:
        lines.append("  note: E_OPT tends to 0 as eps grows (U m* / (eps sum m) once eps >= 2): raise the top of --range")
    return emit(args, "rameshwar", _inputs(args, solve=args.solve, target=args.target, range=[lo, hi]),
                {"counts": counts, **result, **found}, lines)
