"""Audit checks of Rameshwar and Tandon (2025): one function per registered check ID."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

import numpy as np
import sympy as sp

from .. import rameshwar, simulate
from .core import AuditResult, register, result


# =========================================================================== Rameshwar & Tandon


def _rt_cases():
    rng = np.random.default_rng(11)
    cases = [(rameshwar.geometric(6), 65.0), (rameshwar.extreme(101, 10), 65.0)]
    cases += [(rng.integers(1, 30, size=int(rng.integers(2, 25))), float(rng.uniform(0.5, 100))) for _ in range(20)]
    return cases


@register("rameshwar.theorem_iii_1", "Rameshwar and Tandon (2025), Theorem III.1, LP (8), Lemma III.1",
        "the T_ε clipping minimises the worst-case error (LP optimum = Lemma III.1 at Theorem III.1)", "LP")
def theorem_iii_1(rule: Callable | None = None) -> AuditResult:
    worst, count = 0.0, 0
    for m, U in _rt_cases():
        for eps in (0.01, 0.1, 0.5, 2.0, Fraction(2, 3)):
            canonical = rameshwar.optimal_error(m, U=U, eps=eps) if rule is None else rule(m, U, eps)
            lp = rameshwar.lp_optimum(m, U=U, eps=eps).value
            worst = max(worst, abs(canonical - lp) / max(lp, 1e-300))
            count += 1
    return result("rameshwar.theorem_iii_1", "holds" if worst < 1e-9 else "fails", cases=count, max_relative_gap=worst)


@register("rameshwar.eq12", "Rameshwar and Tandon (2025), eq. (12)",
        "eq. (12) as printed equals E_OPT (Lemma III.1 at Theorem III.1)", "exact rationals")
def eq12() -> AuditResult:
    m = rameshwar.geometric(6)
    rows = [{"eps": e, "canonical": rameshwar.optimal_error(m, U=65, eps=e),
             "printed": rameshwar.eq12_as_printed(m, U=65, eps=e)} for e in (0.05, 0.5, 2.0)]
    differ = any(not math.isclose(r["canonical"], r["printed"]) for r in rows)
    return result("rameshwar.eq12", "discrepancy" if differ else "holds", collection="geometric, M = 6", rows=rows)


@register("rameshwar.monotone_eopt", "Rameshwar and Tandon (2025), after eq. (12)",
        "E_OPT(ε) is non-increasing in ε", "exact rationals")
def monotone_eopt(error: Callable | None = None) -> AuditResult:
    f = error or (lambda m, U, e: rameshwar.optimal_error(m, U=U, eps=e, exact=True))
    bad = []
    grid = [Fraction(1, 200) * k for k in range(1, 400)]
    for m, U in _rt_cases()[:8]:
        vals = [f(m, Fraction(U), e) for e in grid]
        bad += [(float(grid[i]), float(grid[i + 1])) for i in range(len(vals) - 1) if vals[i + 1] > vals[i]]
    return result("rameshwar.monotone_eopt", "holds" if not bad else "fails", levels=len(grid), increases=bad[:5])


@register("rameshwar.akmv_rank", "Rameshwar and Tandon (2025), §IV-A step 2 vs the paragraph after it",
        "AKMV estimates the ⌈1/ε''⌉-th largest user sum (both statements)", "exact + Monte Carlo")
def akmv_rank(reps: int = 2000, seed: int = 3) -> AuditResult:
    m = rameshwar.geometric(6)
    rows = []
    for eps in (0.2, 1.0):
        r1, r2 = rameshwar.akmv_rank(eps / 2), rameshwar.akmv_rank(eps / 2, rule="after-fig1")
        e1 = simulate.akmv_worst_case(m, U=65, eps=eps, reps=reps, seed=seed)
        e2 = simulate.akmv_worst_case(m, U=65, eps=eps, reps=reps, seed=seed, rule="after-fig1")
        rows.append({"eps": eps, "rank_step2": r1, "rank_after_fig1": r2, "E_AKMV_step2": e1, "E_AKMV_after_fig1": e2})
    differ = any(r["rank_step2"] != r["rank_after_fig1"] for r in rows)
    return result("rameshwar.akmv_rank", "discrepancy" if differ else "holds", rows=rows)


@register("rameshwar.lemma_iii_1_bias", "Rameshwar and Tandon (2025), Lemma III.1, eq. (5)",
        "the bias term Σ max(a_j, U − b_j) is max_D |f − f̄| for every clipping", "exact + exhaustive datasets")
def lemma_iii_1_bias() -> AuditResult:
    """One counterexample: two users, U = 1, a = (1/2, 0), b = (1, 1/2): (5) gives 1/2, every dataset in
    (0, 1]² gives at most 1/4 (max(Σa, Σ(U − b)) / 2)."""
    a, b = [0.5, 0.0], [1.0, 0.5]
    lemma = rameshwar.worst_case_error([1, 1], U=1.0, eps=1e300, a=a, b=b)
    exact = rameshwar.worst_case_error([1, 1], U=1.0, eps=1e300, a=a, b=b, bias="exact")
    grid = np.linspace(1e-9, 1, 201)
    X, Y = np.meshgrid(grid, grid)
    gaps = np.abs((X - np.clip(X, 0.5, 1.0)) + (Y - np.clip(Y, 0.0, 0.5))) / 2
    return result("rameshwar.lemma_iii_1_bias", "discrepancy" if lemma > gaps.max() + 1e-12 else "holds",
                   lemma_bias=lemma, exact_bias=exact, max_over_dataset_grid=float(gaps.max()),
                   note="Theorem III.1 stands: symmetric clippings make the two equal, and some symmetric clipping is optimal")




@register("rameshwar.theorem_ii_1", "Rameshwar and Tandon (2025), Theorem II.1, Definitions II.1–II.2",
        "g(D) + Lap(Δ_g/ε) is user-level ε-DP: the log density ratio at neighbours is ≤ ε", "sympy + exact")
def theorem_ii_1() -> AuditResult:
    r"""The log ratio of Laplace densities centred at ``a`` and ``b`` with :math:`|a - b| \le \Delta` is
    :math:`\varepsilon(|y - b| - |y - a|)/\Delta`; its maximum over ``y`` is :math:`\varepsilon|a - b|/\Delta`
    (sympy on the three pieces), so ε at :math:`|a - b| = \Delta` and never more; and the user-level
    sensitivity of the clipped sum is :math:`\max_\ell (b_\ell - a_\ell)`-type (:func:`bounds.rameshwar.sensitivities`
    is positive and finite on the paper's collections)."""
    y = sp.Symbol("y", real=True)
    e = sp.Symbol("epsilon", positive=True)
    ratio = e * (sp.Abs(y - 1) - sp.Abs(y))  # a = 0, b = Δ = 1 (the ratio scales with |a - b|/Δ)
    below = sp.simplify(ratio.subs({sp.Abs(y - 1): 1 - y, sp.Abs(y): -y}))  # y <= 0
    inside = sp.simplify(ratio.subs({sp.Abs(y - 1): 1 - y, sp.Abs(y): y}))  # 0 < y < 1: decreasing, sup at y -> 0
    above = sp.simplify(ratio.subs({sp.Abs(y - 1): y - 1, sp.Abs(y): y}))  # y >= 1
    top = sp.Max(below, inside.subs(y, 0), above)
    sens = rameshwar.sensitivities(rameshwar.geometric(6), U=65, eps=1.0)
    ok = sp.simplify(top - e) == 0 and all(0 < v < math.inf for v in sens.values())
    return result("rameshwar.theorem_ii_1", "holds" if ok else "fails",
                   domain="symbolic in y; pieces y <= a, a < y < b, y >= b", max_log_ratio=str(top),
                   sensitivities={k: float(v) for k, v in sens.items()})
