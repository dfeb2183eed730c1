"""``bounds cummings``: Cummings et al.'s k*, the optimal truncation T* and Corollary 5.5.

The per-user sample counts come inline (``--k 100,50,20``) or from a file (``--counts FILE``,
one or more counts a line, or a CSV column with ``--column``); long inputs are summarised.
One level ``--eps``, a sweep (``--sweep eps=0.01:10:20``) or a search for the smallest level
meeting a target (``--solve eps --target variance<1e-3``).  The minimal variance at T* does not
increase with ``eps`` (it is a minimum over T of terms that do not); Corollary 5.5's rate has no
such guarantee (its k* moves with ``eps``), and a search reports where a target fails again.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from ..quantities import BY_NAME
from . import _solve
from ._common import (OptionError, add_counts, add_output, add_parser, check_save, counts_file, describe_read, emit,
                      exact_integer, number, positive, summary, table)


QUANTITIES = ("variance", "variance_exact", "lower")
EPS_RANGE = "1e-4:1e4"

_LOWER = BY_NAME["cummings_lower"]  # Corollary 5.5: a lower rate of the variance (= MSE), one name everywhere


def register(subparsers: Any) -> None:
    """Add ``cummings`` to ``subparsers``."""
    p = add_parser(subparsers, "cummings", "Cummings et al.: k*, the optimal truncation T* and Corollary 5.5 "
                                           "(central model, heterogeneous users; variances = MSE)")
    add_counts(p, "--k", "samples per user, comma-separated, e.g. 100,50,20,5,1", "samples per user")
    p.add_argument("--eps", type=positive, help="central privacy level epsilon (required unless swept or solved for)")
    p.add_argument("--p", type=number, default=0.5, help="mean of the meta-distribution")
    p.add_argument("--sigma-p2", type=number, default=0.01, help="its variance sigma_p^2")
    p.add_argument("--beta", type=positive, default=0.05, help="failure probability of the widths")
    _solve.add_options(p, "K log-spaced values of eps from LO to HI (eps=LO:HI:K): T*, the variances and the "
                          "lower rate at each", ["eps"], "find the smallest eps meeting --target",
                       "the condition of --solve: variance<V (MSE at T*, eq. (5) as printed), variance_exact<V "
                       "(with Var(Lap(b)) = 2b^2) or lower<V (Corollary 5.5's rate)", solve_range=EPS_RANGE)
    add_output(p)
    p.set_defaults(func=run)


def _inline(text: str) -> list[int]:
    try:
        k = [exact_integer(v) for v in text.split(",")]
    except ValueError:
        raise OptionError("--k", f"must be comma-separated positive integers, got {text!r}") from None
    return k


def run(args: argparse.Namespace) -> int:
    """Compute and print the truncation and bound (one eps, a sweep or a search); return the exit status."""
    _solve.check_modes(args)
    _solve.check_varied(args, {"eps": float})
    check_save(args)
    k = counts_file(args) or _inline(args.k)
    import numpy as np

    from .. import cummings

    s2 = cummings.user_variance(k, p=args.p, sigma_p2=args.sigma_p2)
    if not np.all(s2 > 0):
        raise OptionError("--p/--sigma-p2", f"p = {args.p:g} and sigma_p2 = {args.sigma_p2:g} give users of zero "
                          "variance: the weights (4) and T* (6) need p(1-p) > 0 or sigma_p2 > 0")
    widths = 2 * cummings.concentration(k, p=args.p, sigma_p2=args.sigma_p2, beta=args.beta)
    if args.sweep is not None:
        return _sweep(args, k, s2, widths)
    if args.solve is not None:
        return _search(args, k, s2, widths)
    return _point(args, k, s2, widths)


def _at(k: list[int], s2: Any, widths: Any, eps: float, sigma_p2: float) -> tuple[Any, float, Any]:
    """T* and Var(ideal) at T* (eq. (6), as printed), Var(ideal) there with Var(Lap(b)) = 2b^2, Corollary 5.5."""
    from .. import cummings

    trunc = cummings.optimal_truncation(s2, widths, eps=eps)
    exact = cummings.ideal_variance(s2, widths, eps=eps, T=trunc.T, laplace="exact")
    return trunc, exact, cummings.lower_bound(k, eps=eps, sigma_p2=sigma_p2)


def _header(args: argparse.Namespace, k: list[int]) -> list[str]:
    from ..references import CUMMINGS

    users = f"{', '.join(map(str, k))}   (n = {len(k)})" if len(k) <= 20 else summary(k)
    return [f"Cummings, Feldman, McMillan & Talwar — heterogeneous users ({CUMMINGS.cite()})",
            f"  k             {users}" if args.k is not None else f"  counts        {args.counts}: {users}",
            *([f"                read: {describe_read(args.counts, args.counts_read)}"] if args.k is None else []),
            f"  p, s_p^2      {args.p:g}, {args.sigma_p2:g}   (widths: sub-Gaussian, beta = {args.beta:g})",
            "  metric        variance of the unbiased weighted estimate = its MSE"]


def _inputs(args: argparse.Namespace, k: list[int], **mode: Any) -> dict[str, Any]:
    return {"k": k, **mode, "p": args.p, "sigma_p2": args.sigma_p2, "beta": args.beta, "counts_file": args.counts,
            "counts_read": getattr(args, "counts_read", None)}


def _point(args: argparse.Namespace, k: list[int], s2: Any, widths: Any) -> int:
    import numpy as np

    trunc, exact, lb = _at(k, s2, widths, args.eps, args.sigma_p2)
    first = {ki: i for i, ki in reversed(list(enumerate(k)))}  # users with equal k share sigma^2 and weight
    per = {ki: k.count(ki) for ki in first} if len(k) <= 1000 else dict(zip(*np.unique(k, return_counts=True)))
    rows = [f"  {ki:8d} {int(per[ki]):7d} {s2[first[ki]]:12.6g} {trunc.weights[first[ki]]:10.6f}"
            for ki in sorted(first, reverse=True)]
    lines = [*_header(args, k),
             f"  eps           {args.eps:g}",
             f"  k*            {lb.k_star}   (Corollary 5.5)",
             f"  T*            {trunc.T:.10g}   (the optimal truncation of the weights, eq. (6), exact)",
             f"  Var(ideal)    {trunc.variance:.10g}   MSE of the estimator at T*, eq. (5) as printed (Var(Lap(b)) "
             f"read as b^2); with the exact Var(Lap(b)) = 2b^2: {exact:.10g}",
             f"  lower rate    {lb.value:.10g} = min(privacy term {lb.privacy_term:.6g}, statistical term "
             f"{lb.statistical_term:.6g})",
             f"                {_LOWER.label} (= the MSE of unbiased estimators): Corollary 5.5 without its constants and "
             "polylog factors",
             *table(f"  {'k_i':>8s} {'users':>7s} {'sigma_i^2':>12s} {'weight':>10s}   (weight of each such user)", rows)]
    return emit(args, "cummings", _inputs(args, k, eps=args.eps),
                {"user_variance": s2, "widths": widths, "truncation": trunc, "variance_exact_laplace": exact,
                 "lower_bound": lb}, lines)


def _sweep(args: argparse.Namespace, k: list[int], s2: Any, widths: Any) -> int:
    _, values = _solve.sweep_values(args.sweep, {"eps": float})
    rows = []
    for eps in _solve.progress(values, "eps"):
        try:
            trunc, exact, lb = _at(k, s2, widths, eps, args.sigma_p2)
        except ValueError as exc:  # eq. (6) overflows float64 at a tiny eps
            raise OptionError("--sweep", f"at eps = {eps:g}: {exc}") from None
        rows.append({"eps": eps, "T_star": trunc.T, "variance_mse": trunc.variance, "variance_exact_mse": exact,
                     _LOWER.column: lb.value, "k_star": lb.k_star})
    lines = [*_header(args, k),
             "  T*: optimal truncation, eq. (6); Var(ideal): MSE at T*, eq. (5) as printed (Var(Lap(b)) read as b^2) "
             "and with the exact 2b^2;",
             f"  lower: Corollary 5.5, a {_LOWER.label} (no constants, no polylog factors); k*: its integer k*",
             f"  {'eps':>12s} {'T*':>12s} {'Var (MSE)':>12s} {'Var 2b^2':>12s} {'lower rate':>12s} {'k*':>8s}"]
    lines += [f"  {r['eps']:12.6g} {r['T_star']:12.6g} {r['variance_mse']:12.6g} {r['variance_exact_mse']:12.6g} "
              f"{r[_LOWER.column]:12.6g} {r['k_star']:8d}" for r in rows]
    return emit(args, "cummings", _inputs(args, k, sweep=args.sweep), {"rows": rows}, lines, _solve.csv_table(rows))


def _search(args: argparse.Namespace, k: list[int], s2: Any, widths: Any) -> int:
    quantity, goal = _solve.parse_target(args.target, QUANTITIES)
    lo, hi = _solve.parse_range(args.range, False)
    statistical = args.sigma_p2 / len(k)  # Corollary 5.5's second term: the same at every eps
    if quantity == "lower" and statistical < goal:
        raise OptionError("--target", f"lower<{goal:g} holds at every eps: Corollary 5.5's statistical term "
                          f"sigma_p^2/n = {statistical:g} is below it"
                          + (" (the bound is 0, vacuous as stated, when sigma_p2 = 0)" if statistical == 0 else "")
                          + ": no eps threshold is meaningful")

    def value(eps: float) -> float:
        trunc, exact, lb = _at(k, s2, widths, eps, args.sigma_p2)
        return float(trunc.variance if quantity == "variance" else exact if quantity == "variance_exact" else lb.value)

    def holds(eps: float) -> bool:
        try:
            return value(eps) < goal
        except ValueError:  # eq. (6) overflows float64 at a tiny eps: no answer there
            return False

    ans = _solve.solve(holds, lo, hi, False)
    shown = {"variance": "MSE at T* (eq. (5) as printed)", "variance_exact": "MSE at T* with Var(Lap(b)) = 2b^2",
             "lower": f"{_LOWER.label} (Corollary 5.5)"}[quantity]
    there: list[str] = []
    found: dict[str, Any] = {}
    if ans.value is not None:
        trunc, exact, lb = _at(k, s2, widths, ans.value, args.sigma_p2)
        there = [f"  there         T* {trunc.T:.6g}; MSE at T* {trunc.variance:.6g} (eq. (5) as printed), "
                 f"{exact:.6g} (2b^2); lower rate {lb.value:.6g}, k* {lb.k_star}"]
        found = {"truncation": trunc, "variance_exact_laplace": exact, "lower_bound": lb}
    report, result = _solve.answer_lines(ans, "eps", False, there)
    lines = [*_header(args, k),
             f"  target        {shown} < {goal:g}"
             + (" (a rate: orders of magnitude, not a numeric bound)" if quantity == "lower" else ""),
             f"  searched      eps in [{lo:g}, {hi:g}]; a level where eq. (6) overflows float64 does not count",
             *report]
    floor = 1 / math.fsum(1 / s2)  # the non-private weights (1): no eps does better
    if ans.value is None and quantity != "lower" and floor >= goal:
        lines.append(f"  note: the MSE at T* exceeds the non-private variance 1/sum(1/sigma_i^2) = {floor:.6g} at "
                     "every eps: a target below it is never met")
    return emit(args, "cummings", _inputs(args, k, solve=args.solve, target=args.target, range=[lo, hi]),
                {**result, **found}, lines)
