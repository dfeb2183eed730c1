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
        for eps in (0.01, 0.1, 0.3, 0.5, 2.0, Fraction(2, 3), Fraction(3, 7)):  # 2/ε integer and not (ties of ranks)
            canonical = rameshwar.optimal_error(m, U=U, eps=eps) if rule is None else rule(m, U, eps)
            lp = rameshwar.lp_optimum(m, U=U, eps=eps).value
            worst = max(worst, abs(canonical - lp) / max(lp, 1e-300))
            count += 1
    tol = 1e-9  # relative: far above the LP solver's rounding, far below any error of the clipping
    return result("rameshwar.theorem_iii_1", "holds" if worst < tol else "fails", cases=count, max_relative_gap=worst,
                  tolerance=tol)


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
def theorem_ii_1(noise_factor: int | Fraction = 1) -> AuditResult:
    r"""The log ratio of Laplace densities centred at ``a`` and ``b`` with :math:`|a - b| \le \Delta` is
    :math:`\varepsilon(|y - b| - |y - a|)/\Delta`; its maximum over ``y`` is :math:`\varepsilon|a - b|/\Delta`
    (sympy on the three pieces), so ε at :math:`|a - b| = \Delta` and never more; and the user-level
    sensitivity of the clipped sum is :math:`\max_\ell (b_\ell - a_\ell)`-type (:func:`bounds.rameshwar.sensitivities`
    is positive and finite on the paper's collections)."""
    y = sp.Symbol("y", real=True)
    e = sp.Symbol("epsilon", positive=True)
    ratio = sp.nsimplify(noise_factor) * e * (sp.Abs(y - 1) - sp.Abs(y))  # a = 0, b = Δ = 1; scale Δ/(factor·ε) (the ratio scales with |a - b|/Δ)
    below = sp.simplify(ratio.subs({sp.Abs(y - 1): 1 - y, sp.Abs(y): -y}))  # y <= 0
    inside = sp.simplify(ratio.subs({sp.Abs(y - 1): 1 - y, sp.Abs(y): y}))  # 0 < y < 1: decreasing, sup at y -> 0
    above = sp.simplify(ratio.subs({sp.Abs(y - 1): y - 1, sp.Abs(y): y}))  # y >= 1
    top = sp.Max(below, inside.subs(y, 0), above)
    sens = rameshwar.sensitivities(rameshwar.geometric(6), U=65, eps=1.0)
    ok = sp.simplify(top - e) == 0 and all(0 < v < math.inf for v in sens.values())
    return result("rameshwar.theorem_ii_1", "holds" if ok else "fails",
                   domain="symbolic in y; pieces y <= a, a < y < b, y >= b", max_log_ratio=str(top),
                   sensitivities={k: float(v) for k, v in sens.items()})


def kkt_quantities(um: list[Fraction], eps: Fraction, shift: int = 0) -> dict:
    r"""(8)'s KKT quantities at the paper's primal point with the paper's multipliers, and a valid dual.

    Transcribed from the paper: :math:`T_\varepsilon` the :math:`\lceil 2/\varepsilon\rceil`-th largest
    :math:`Um_\ell` (0 if :math:`\varepsilon < 2/L`), :math:`S = T_\varepsilon`,
    :math:`\alpha_\ell = \max\{(Um_\ell - T_\varepsilon)/2, 0\}`; printed multipliers
    :math:`\lambda_\ell = 1/2, \mu_\ell = 0` where :math:`\alpha_\ell > 0`, else :math:`\lambda_\ell = 0,
    \mu_\ell = 1`, and :math:`\lambda_S` from (9).  The valid dual of (8) (max :math:`\sum_\ell\lambda_\ell Um_\ell`
    s.t. :math:`\sum\lambda_\ell \le 1/\varepsilon`, :math:`0 \le \lambda_\ell \le 1/2`) by the greedy
    assignment in decreasing :math:`Um_\ell`."""
    L = len(um)
    order = sorted(range(L), key=lambda i: -um[i])
    rank = math.ceil(2 / eps) + shift
    T = um[order[rank - 1]] if rank <= L else Fraction(0)
    alpha = [max((u - T) / 2, Fraction(0)) for u in um]
    S = T
    lam = [Fraction(1, 2) if a > 0 else Fraction(0) for a in alpha]
    mu = [Fraction(0) if a > 0 else Fraction(1) for a in alpha]
    lam_s = 1 / eps - sum(lam, Fraction(0))
    primal = sum(alpha, Fraction(0)) + S / eps
    feasible = S >= 0 and all(a >= 0 and u - 2 * a <= S for a, u in zip(alpha, um))
    printed = {"lambda_S": lam_s, "lambda_S_times_S": lam_s * S,
               "stationarity_10": all(l_ == (1 - m_) / 2 for l_, m_ in zip(lam, mu)),
               "slack_lambda_l": max((abs(l_ * (u - 2 * a - S)) for l_, u, a in zip(lam, um, alpha)), default=Fraction(0)),
               "slack_mu_l": max((abs(m_ * a) for m_, a in zip(mu, alpha)), default=Fraction(0)),
               "nonnegative": lam_s >= 0 and all(v >= 0 for v in lam + mu)}
    printed["holds"] = (printed["stationarity_10"] and printed["nonnegative"] and lam_s * S == 0
                        and printed["slack_lambda_l"] == 0 and printed["slack_mu_l"] == 0)
    left, dual = 1 / eps, [Fraction(0)] * L
    for i in order:
        dual[i] = min(Fraction(1, 2), left)
        left -= dual[i]
    dual_value = sum((d * u for d, u in zip(dual, um)), Fraction(0))
    d_s = 1 / eps - sum(dual, Fraction(0))
    d_mu = [1 - 2 * d for d in dual]
    valid = (all(0 <= d <= Fraction(1, 2) for d in dual) and d_s >= 0 and d_s * S == 0
             and all(d * (u - 2 * a - S) == 0 for d, u, a in zip(dual, um, alpha))
             and all(m_ * a == 0 for m_, a in zip(d_mu, alpha)))
    return {"T": T, "primal": primal, "feasible": feasible, "printed": printed, "dual_value": dual_value,
            "dual_lambda_S": d_s, "dual_valid_kkt": valid, "gap": primal - dual_value,
            "dual_lambda_at_T": [str(dual[i]) for i in order[:rank + 1]]}


_KKT_EPS = (Fraction(1, 2), Fraction(1, 5), Fraction(2, 3), Fraction(1, 10), Fraction(1, 100), Fraction(2))


@register("rameshwar.kkt_multipliers", "Rameshwar and Tandon (2025), proof of Theorem III.1, eqs. (8)–(11)",
          "the printed multipliers satisfy (9)–(11) at S = T_ε, α_ℓ = max{(Um_ℓ − T_ε)/2, 0}", "exact rationals",
          domain="instances: geometric collection M = 6 and extreme collection (L = 101, m* = 10), U = 65, "
                 "eps in {1/2, 1/5, 2/3, 1/10, 1/100, 2}",
          methods=("exact", "LP certificate"))
def kkt_multipliers(multiplier_rule: Callable | None = None) -> AuditResult:
    r"""Evaluates (9)–(11) in exact rationals with the printed multipliers (:math:`\lambda_S` from (9)), and
    beside them the greedy dual (``kkt_quantities``): primal feasible, dual feasible, complementary slackness and
    zero duality gap certify the primal point optimal, so Theorem III.1 stands whatever the printed
    multipliers do.  Discrepancy if some printed :math:`\lambda_S S \ne 0` (or :math:`\lambda_S < 0`) while
    the valid dual certifies the point; fails if no certificate; holds if the printed ones satisfy (9)–(11).
    ``multiplier_rule(um, eps)`` replaces the whole evaluation (a test feeds the valid dual)."""
    rows, printed_ok, certified = [], True, True
    for name, m in (("geometric M = 6", rameshwar.geometric(6)), ("extreme L = 101, m* = 10", rameshwar.extreme(101, 10))):
        um = [Fraction(65) * int(v) for v in m]
        for eps in _KKT_EPS:
            k = (multiplier_rule or kkt_quantities)(um, eps)
            p = k["printed"]
            printed_ok &= p["holds"]
            certified &= k["feasible"] and k["dual_valid_kkt"] and k["gap"] == 0
            rows.append({"collection": name, "eps": str(eps), "T_eps": str(k["T"]), "lambda_S_printed": str(p["lambda_S"]),
                         "lambda_S_times_S": str(p["lambda_S_times_S"]), "printed_kkt_holds": p["holds"],
                         "primal_value": str(k["primal"]), "dual_value": str(k["dual_value"]), "gap": str(k["gap"]),
                         "valid_dual_lambda_S": str(k["dual_lambda_S"]), "valid_dual_certifies": k["dual_valid_kkt"]})
    failing = [r for r in rows if not r["printed_kkt_holds"]]
    status = "holds" if printed_ok and certified else "discrepancy" if certified else "fails"
    return result("rameshwar.kkt_multipliers", status, rows=rows,
                  failing_multiplier=[{k: r[k] for k in ("collection", "eps", "lambda_S_printed", "lambda_S_times_S")}
                                      for r in failing[:6]],
                  valid_dual="λ_ℓ = 1/2 on the ⌈2/ε⌉ − 1 largest Um_ℓ, the rest of 1/ε on the ⌈2/ε⌉-th, λ_S = 0 "
                             "(λ_S = 1/ε − L/2 and S = 0 when ε < 2/L); μ_ℓ = 1 − 2λ_ℓ")
