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


def rt_cases() -> list[tuple[np.ndarray, float]]:
    """The Rameshwar–Tandon checks' collections: geometric (M = 6) and extreme (L = 101, m* = 10) at U = 65, then
    20 random collections (2..24 users, counts 1..29) with random U (fixed seed); checks take a prefix.

    Examples
    --------
    >>> [(len(m), U) for m, U in rt_cases()[:2]]
    [(127, 65.0), (101, 65.0)]
    """
    rng = np.random.default_rng(11)
    cases = [(rameshwar.geometric(6), 65.0), (rameshwar.extreme(101, 10), 65.0)]
    cases += [(rng.integers(1, 30, size=int(rng.integers(2, 25))), float(rng.uniform(0.5, 100))) for _ in range(20)]
    return cases


def t_eps(m, U, eps) -> tuple[list[Fraction], Fraction]:
    r"""The values :math:`Um_\ell` sorted decreasingly and :math:`T_\varepsilon`, their :math:`\lceil 2/\varepsilon\rceil`-th
    largest (0 past the end), transcribed from Rameshwar and Tandon (2025), §III-B (independently of :mod:`bounds.rameshwar`).

    .. math:: T_\varepsilon = (Um)_{(\lceil 2/\varepsilon \rceil)}, \qquad T_\varepsilon = 0 \text{ if } \lceil 2/\varepsilon\rceil > L

    Examples
    --------
    >>> t_eps([3, 2, 1], 65, 1)[1], t_eps([3, 2, 1], 65, Fraction(1, 2))[1]
    (Fraction(130, 1), Fraction(0, 1))
    """
    um = sorted((Fraction(U) * int(v) for v in m), reverse=True)
    rank = math.ceil(2 / Fraction(eps))
    return um, um[rank - 1] if rank <= len(um) else Fraction(0)


def _transcribed_e_opt(m, U, eps) -> Fraction:
    r"""Theorem III.1's optimum transcribed here from the paper, independently of :mod:`bounds.rameshwar`: (7) at
    :math:`\alpha_\ell = \max\{(Um_\ell - T_\varepsilon)/2, 0\}`, :math:`T_\varepsilon` the :math:`\lceil 2/\varepsilon\rceil`-th
    largest :math:`Um_\ell` (0 past the end)."""
    e = Fraction(eps)
    um, T = t_eps(m, U, eps)
    alpha = [max((u - T) / 2, Fraction(0)) for u in um]
    return (sum(alpha, Fraction(0)) + max(u - 2 * a for u, a in zip(um, alpha)) / e) / sum(int(v) for v in m)


def _lemma_iii_1_error(m, U: Fraction, eps: Fraction, a: list[Fraction], b: list[Fraction]) -> Fraction:
    r"""Lemma III.1 transcribed for per-user ends: :math:`(\sum_\ell m_\ell\max\{a_\ell, U - b_\ell\}
    + \max_\ell m_\ell(b_\ell - a_\ell)/\varepsilon)/\sum_\ell m_\ell`; ends outside :math:`[0, U]` are no clipping."""
    if any(x < 0 or y > U or x > y for x, y in zip(a, b)):
        return Fraction(10**30)
    bias = sum((int(v) * max(x, U - y) for v, x, y in zip(m, a, b)), Fraction(0))
    return (bias + max(int(v) * (y - x) for v, x, y in zip(m, a, b)) / eps) / sum(int(v) for v in m)


_RT_EPS = (0.01, 0.1, 0.3, 0.5, 2.0, Fraction(2, 3), Fraction(3, 7))  # 2/ε integer and not (ties of ranks)


@register("rameshwar.theorem_iii_1", "Rameshwar and Tandon (2025), Theorem III.1, LP (8), Lemma III.1",
          "the T_ε clipping minimises the worst-case error (LP optimum = Lemma III.1 at Theorem III.1)", "LP", True,
          domain="instances: 6 collections (geometric M = 6, extreme L = 101 m* = 10, 4 random) x 7 values of eps "
                 "(2/eps integer and not); thorough: 22 collections",
          methods=("LP certificate", "exact"))
def theorem_iii_1(rule: Callable | None = None, thorough: bool = False) -> AuditResult:
    r"""The package's :math:`E^{OPT}` (:func:`bounds.rameshwar.optimal_error`, or ``rule(m, U, eps)``) against
    the minimum of Lemma III.1 over *all* per-user clippings found by HiGHS (:func:`bounds.rameshwar.lp_optimum`,
    which uses neither Theorem III.1 nor Lemma III.2), relative tolerance 1e-9; and the package's value against the
    transcription ``_transcribed_e_opt`` (exact rationals); and the package's clipping
    (:func:`bounds.rameshwar.clipping`) through Lemma III.1 transcribed (``_lemma_iii_1_error``) against it."""
    worst, count, impl_vs_paper, clip_vs_paper = 0.0, 0, 0.0, 0.0
    for m, U in rt_cases()[: None if thorough else 6]:
        for eps in _RT_EPS:
            canonical = rameshwar.optimal_error(m, U=U, eps=eps) if rule is None else rule(m, U, eps)
            lp = rameshwar.lp_optimum(m, U=U, eps=eps).value
            worst = max(worst, abs(canonical - lp) / max(lp, 1e-300))
            ref = float(_transcribed_e_opt(m, Fraction(U), Fraction(eps)))
            impl_vs_paper = max(impl_vs_paper, abs(canonical - ref) / ref)
            c = rameshwar.clipping(m, U=U, eps=eps)  # the package's clipping through Lemma III.1 transcribed
            at_clip = _lemma_iii_1_error(m, Fraction(U), Fraction(eps), [Fraction(x) for x in c.a],
                                         [Fraction(x) for x in c.b])
            clip_vs_paper = max(clip_vs_paper, abs(float(at_clip) - ref) / ref)
            count += 1
    tol = 1e-9  # relative: far above the LP solver's rounding, far below any error of the clipping
    ok = worst < tol and impl_vs_paper < tol and clip_vs_paper < tol
    return result("rameshwar.theorem_iii_1", "holds" if ok else "fails", cases=count, max_relative_gap=worst,
                  package_vs_transcription=impl_vs_paper, package_clipping_vs_transcription=clip_vs_paper,
                  tolerance=tol)


@register("rameshwar.lp8", "Rameshwar and Tandon (2025), LP (8) (with Lemma III.2 and (7))",
          "the minimal worst-case error is the value of the linear programme (8) over symmetric clippings",
          "LP", domain="instances: geometric M = 6, extreme (L = 101, m* = 10) and 2 random collections, U = 65, "
                       "eps in {3/10, 3/7, 3/2}; the LP over all per-user clippings on the geometric collection",
          methods=("LP certificate", "exact"),
          faults=(("(8)'s value compared with eq. (12) as printed", {"reference": lambda m, U, e: _eq12_printed(m, U, e)}),))
def lp8(reference: Callable | None = None) -> AuditResult:
    r"""HiGHS on (8) (:func:`bounds.rameshwar.lp_optimum` with ``program="8"``) against Theorem III.1's optimum
    transcribed here (``_transcribed_e_opt``, exact), and on the geometric collection against the LP over all
    per-user clippings (``program="lemma"``, no symmetry assumed); relative 1e-9."""
    ref = reference or _transcribed_e_opt
    worst, sym_gap = 0.0, 0.0
    for i, (m, U) in enumerate([(mm, Fraction(65)) for mm, _ in rt_cases()[:4]]):
        for eps in (Fraction(3, 10), Fraction(3, 7), Fraction(3, 2)):
            v8 = rameshwar.lp_optimum(m, U=U, eps=eps, program="8").value
            worst = max(worst, abs(v8 - float(ref(m, U, eps))) / v8)
            if i == 0:
                sym_gap = max(sym_gap, abs(v8 - rameshwar.lp_optimum(m, U=U, eps=eps).value) / v8)
    ok = worst <= 1e-9 and sym_gap <= 1e-9
    return result("rameshwar.lp8", "holds" if ok else "fails", max_relative_gap_to_theorem=worst,
                  symmetric_vs_all_clippings=sym_gap)


def _eq12_printed(m, U: Fraction, eps: Fraction) -> Fraction:
    r"""Eq. (12) exactly as printed, transcribed here: the bias term over :math:`2m_\ell` and :math:`\min_\ell`."""
    um, T = t_eps(m, U, eps)
    bias = sum((max((U * int(v) - T) / (2 * int(v)), Fraction(0)) for v in m), Fraction(0))
    return (bias + min(min(T, u) for u in um) / eps) / sum(int(v) for v in m)


def _eq12_corrected(m, U: Fraction, eps: Fraction) -> Fraction:
    r"""Eq. (12) corrected: the bias term over 2 (not :math:`2m_\ell`) and :math:`\max_\ell` (not :math:`\min_\ell`)."""
    um, T = t_eps(m, U, eps)
    bias = sum((max((u - T) / 2, Fraction(0)) for u in um), Fraction(0))
    return (bias + max(min(T, u) for u in um) / eps) / sum(int(v) for v in m)


def _small_collections(max_users: int = 3, max_count: int = 3):
    """Collections in the order of the search: fewer users first, then smaller counts (non-increasing tuples)."""
    import itertools

    for L in range(1, max_users + 1):
        for m in itertools.combinations_with_replacement(range(1, max_count + 1), L):
            yield sorted(m, reverse=True)


@register("rameshwar.eq12", "Rameshwar and Tandon (2025), eq. (12)",
          "eq. (12) as printed equals E_OPT (Lemma III.1 at Theorem III.1)", "exact rationals",
          domain="instances: geometric M = 6, U = 65, eps in {0.05, 0.5, 2}; search over collections of <= 3 users "
                 "with counts <= 3, U = 1, eps in {1/2, 1, 2, 3}",
          methods=("exact", "exhaustive"),
          repairs=(("bias over 2 (not 2 m_l) and max_l (not min_l)", {"formula": _eq12_corrected}),))
def eq12(formula: Callable = _eq12_printed) -> AuditResult:
    r"""``formula(m, U, eps)`` (eq. (12) as printed, transcribed here) against the package's
    :func:`bounds.rameshwar.optimal_error` (exact), which ``rameshwar.theorem_iii_1`` ties to the LP optimum; the
    package's :func:`bounds.rameshwar.eq12_as_printed` against the transcription.  The smallest counterexample is
    searched over collections in order (users, then counts), ``U = 1``, ``eps`` in {1/2, 1, 2, 3}."""
    m = rameshwar.geometric(6)
    rows = []
    for e in (Fraction(1, 20), Fraction(1, 2), Fraction(2)):
        canonical = rameshwar.optimal_error(m, U=65, eps=e, exact=True)
        rows.append({"eps": float(e), "E_OPT": float(canonical), "formula": float(formula(m, Fraction(65), e)),
                     "equal": formula(m, Fraction(65), e) == canonical})
    package_printed = all(rameshwar.eq12_as_printed(m, U=65, eps=e, exact=True) == _eq12_printed(m, Fraction(65), e)
                          for e in (Fraction(1, 20), Fraction(1, 2), Fraction(2)))
    smallest = None
    for mm in _small_collections():
        for e in (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3)):
            got, want = formula(mm, Fraction(1), e), rameshwar.optimal_error(mm, U=1, eps=e, exact=True)
            if got != want:
                smallest = {"m": mm, "U": 1, "eps": str(e), "eq12": str(got), "E_OPT": str(want)}
                break
        if smallest:
            break
    differ = smallest is not None or not all(r["equal"] for r in rows)
    status = "fails" if not package_printed else "discrepancy" if differ else "holds"
    return result("rameshwar.eq12", status, collection="geometric, M = 6", rows=rows,
                  package_eq12_matches_transcription=package_printed, smallest_counterexample=smallest,
                  search_order="users L = 1, 2, 3, then counts (non-increasing, <= 3), eps in 1/2, 1, 2, 3; U = 1",
                  note="with m_l = 1 the two bias terms agree and with one user min = max: the first counterexample "
                       "is one user with two samples")


def _breakpoints(m, U) -> list[Fraction]:
    """The levels where T_ε changes value (⌈2/ε⌉ crosses a run of equal U·m_l), each with its two sides."""
    counts = sorted((int(v) for v in m), reverse=True)
    ranks = {i + 1 for i in range(len(counts)) if i + 1 == len(counts) or counts[i + 1] != counts[i]}
    out: set[Fraction] = set()
    for r in ranks:
        for q in (r, r + 1):
            b = Fraction(2, q)
            out |= {b, b * (1 - Fraction(1, 10**6)), b * (1 + Fraction(1, 10**6))}
    return sorted(out)


@register("rameshwar.monotone_eopt", "Rameshwar and Tandon (2025), after eq. (12)",
          "E_OPT(ε) is non-increasing in ε", "exact rationals",
          domain="instances: 8 collections x (eps = k/50, k = 1..99, and both sides of every level where T_eps "
                 "changes value; exact rationals)",
          methods=("exact",))
def monotone_eopt(error: Callable | None = None) -> AuditResult:
    r"""Between two levels where :math:`T_\varepsilon` changes value, :math:`E^{OPT} = A + B/\varepsilon` with
    :math:`B \ge 0`, so an increase can only happen across such a level: the grid holds both sides of each, beside
    a regular grid ``k/100``."""
    f = error or (lambda m, U, e: rameshwar.optimal_error(m, U=U, eps=e, exact=True))
    bad = []
    levels = 0
    for m, U in rt_cases()[:8]:
        grid = sorted(set([Fraction(k, 50) for k in range(1, 100)] + _breakpoints(m, U)))
        levels += len(grid)
        vals = [f(m, Fraction(U), e) for e in grid]
        bad += [(float(grid[i]), float(grid[i + 1])) for i in range(len(vals) - 1) if vals[i + 1] > vals[i]]
    return result("rameshwar.monotone_eopt", "holds" if not bad else "fails", levels=levels, increases=bad[:5])


@register("rameshwar.akmv_rank", "Rameshwar and Tandon (2025), §IV-A step 2 vs the paragraph after it",
          "AKMV estimates the ⌈1/ε''⌉-th largest user sum (both statements)", "exact + Monte Carlo",
          domain="instances: geometric collection M = 6, U = 65, eps in {0.2, 1}; search of eps = 4 - k/100 (eps'' = eps/2)",
          methods=("exact", "Monte Carlo"),
          repairs=(("the paragraph after Fig. 1 read as ceil(1/eps'') (as step 2)", {"rule_after": "section-IV-A"}),))
def akmv_rank(reps: int = 2000, seed: int = 3, rule_after: str = "after-fig1") -> AuditResult:
    r"""The package's :func:`bounds.rameshwar.akmv_rank` under the two readings against the transcriptions
    :math:`\lceil 1/\varepsilon''\rceil` (step 2) and :math:`\lceil 2/\varepsilon''\rceil` (the paragraph after
    Fig. 1), with :math:`E_{AKMV}` under each (Monte Carlo); the largest ``eps`` where the readings disagree is searched
    downwards from 4 in steps of 1/100 (they agree for :math:`\varepsilon'' \ge 2`)."""
    m = rameshwar.geometric(6)
    factor = {"section-IV-A": 1, "after-fig1": 2}[rule_after]
    rows, package_ok = [], True
    for eps in (0.2, 1.0):
        r1, r2 = rameshwar.akmv_rank(eps / 2), rameshwar.akmv_rank(eps / 2, rule=rule_after)
        package_ok &= r1 == math.ceil(1 / Fraction(eps / 2)) and r2 == math.ceil(factor / Fraction(eps / 2))
        e1 = simulate.akmv_worst_case(m, U=65, eps=eps, reps=reps, seed=seed)
        e2 = simulate.akmv_worst_case(m, U=65, eps=eps, reps=reps, seed=seed, rule=rule_after)
        rows.append({"eps": eps, "rank_step2": r1, "rank_after_fig1": r2, "E_AKMV_step2": e1, "E_AKMV_after_fig1": e2})
    first = None
    for k in range(0, 400):
        half = (4 - Fraction(k, 100)) / 2
        if math.ceil(1 / half) != math.ceil(factor / half):
            first = {"eps": str(4 - Fraction(k, 100)), "eps''": str(half), "rank_step2": math.ceil(1 / half),
                     "rank_after_fig1": math.ceil(factor / half)}
            break
    differ = any(r["rank_step2"] != r["rank_after_fig1"] for r in rows) or first is not None
    status = "fails" if not package_ok else "discrepancy" if differ else "holds"
    return result("rameshwar.akmv_rank", status, rows=rows, smallest_counterexample=first,
                  search_order="eps = 4 - k/100, k = 0, 1, ... (the largest eps first)",
                  note="the readings agree for eps'' >= 2 and disagree for every eps'' < 2")


def _bias_lemma(a: list[Fraction], b: list[Fraction], U: Fraction) -> Fraction:
    """Lemma III.1's bias term (5), transcribed: Σ_j max{a_j, U − b_j} (over Σm)."""
    return sum((max(x, U - y) for x, y in zip(a, b)), Fraction(0)) / len(a)


def _bias_exact(a: list[Fraction], b: list[Fraction], U: Fraction) -> Fraction:
    """The corrected bias: max{Σ a_j, Σ (U − b_j)} (over Σm)."""
    return max(sum(a, Fraction(0)), sum((U - y for y in b), Fraction(0))) / len(a)


def _bias_brute(a: list[Fraction], b: list[Fraction], U: Fraction) -> Fraction:
    """sup over datasets of |f − f̄| by enumeration: each sample at 0 (the supremum's limit), a_j, b_j or U."""
    import itertools

    best = Fraction(0)
    for xs in itertools.product(*[(Fraction(0), x, y, U) for x, y in zip(a, b)]):
        gap = sum((x - min(max(x, lo), hi) for x, lo, hi in zip(xs, a, b)), Fraction(0))
        best = max(best, abs(gap))
    return best / len(a)


@register("rameshwar.lemma_iii_1_bias", "Rameshwar and Tandon (2025), Lemma III.1, eq. (5)",
          "the bias term Σ max(a_j, U − b_j) is max_D |f − f̄| for every clipping", "exact + exhaustive datasets",
          domain="instances: U = 1, one user with 1 or 2 samples, per-sample clipping ends on the grid {0, 1/4, .., 1} "
                 "(a <= b); every dataset with samples at 0+, a_j, b_j, U",
          methods=("exact", "exhaustive"),
          repairs=(("bias max{Σ a_j, Σ (U − b_j)} (the larger side, not the sum of the larger sides)",
                    {"bias": _bias_exact}),))
def lemma_iii_1_bias(bias: Callable = _bias_lemma) -> AuditResult:
    r"""``bias(a, b, U)`` (Lemma III.1's term (5), transcribed) against the supremum of :math:`|f - \bar f|` by
    enumeration over datasets (each sample at :math:`0^+`, :math:`a_j`, :math:`b_j` or :math:`U`, where the
    piecewise-linear gap takes its extremes), and the package's :func:`bounds.rameshwar.worst_case_error` at
    :math:`\varepsilon \to \infty` against the transcription.  The smallest counterexample is searched in the
    order: samples, then the clipping ends lexicographically."""
    import itertools

    U = Fraction(1)
    grid = [Fraction(k, 4) for k in range(5)]
    ends = [(x, y) for x in grid for y in grid if x <= y]
    smallest, checked, package_ok = None, 0, True
    for n in (1, 2):
        for combo in itertools.product(ends, repeat=n):
            a, b = [c[0] for c in combo], [c[1] for c in combo]
            checked += 1
            if n == 2 and checked % 7 == 0:
                pkg = rameshwar.worst_case_error([n], U=1.0, eps=1e300, a=[float(x) for x in a], b=[float(y) for y in b])
                package_ok &= abs(pkg - float(_bias_lemma(a, b, U))) <= 1e-12
            if smallest is None and bias(a, b, U) != _bias_brute(a, b, U):
                smallest = {"samples": n, "a": [str(x) for x in a], "b": [str(y) for y in b],
                            "bias_formula": str(bias(a, b, U)), "sup_over_datasets": str(_bias_brute(a, b, U))}
    status = "fails" if not package_ok else "discrepancy" if smallest else "holds"
    return result("rameshwar.lemma_iii_1_bias", status, clippings=checked, smallest_counterexample=smallest,
                  package_matches_transcription=package_ok,
                  search_order="samples 1 then 2; ends (a_j, b_j) lexicographic on the quarter grid",
                  note="one sample never fails; Theorem III.1 stands: symmetric clippings make the two equal, and some "
                       "symmetric clipping is optimal")


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
                   slack={"tightest_constant": "epsilon", "note": "the log ratio's maximum is exactly epsilon, "
                                                                 "attained for y <= a at |a - b| = Delta: no room"},
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


def _kkt_with_valid_dual(um: list[Fraction], eps: Fraction) -> dict:
    """(8)'s KKT quantities with the valid dual in place of the printed multipliers (the repair of (9)–(11))."""
    k = kkt_quantities(um, eps)
    ok = k["dual_valid_kkt"] and k["gap"] == 0
    return {**k, "printed": {"holds": ok, "lambda_S": k["dual_lambda_S"], "lambda_S_times_S": k["dual_lambda_S"] * k["T"]}}


_KKT_EPS = (Fraction(1, 2), Fraction(1, 5), Fraction(2, 3), Fraction(1, 10), Fraction(1, 100), Fraction(2))


@register("rameshwar.kkt_multipliers", "Rameshwar and Tandon (2025), proof of Theorem III.1, eqs. (8)–(11)",
          "the printed multipliers satisfy (9)–(11) at S = T_ε, α_ℓ = max{(Um_ℓ − T_ε)/2, 0}", "exact rationals",
          domain="instances: geometric collection M = 6 and extreme collection (L = 101, m* = 10), U = 65, "
                 "eps in {1/2, 1/5, 2/3, 1/10, 1/100, 2}; search over collections of <= 3 users with counts <= 3",
          methods=("exact", "LP certificate"),
          repairs=(("the valid dual (lambda_l = 1/2 on the largest, the rest of 1/eps on the ceil(2/eps)-th, "
                    "lambda_S = 0 unless eps < 2/L) in place of the printed multipliers",
                    {"multiplier_rule": _kkt_with_valid_dual}),))
def kkt_multipliers(multiplier_rule: Callable | None = None) -> AuditResult:
    r"""Evaluates (9)–(11) in exact rationals with the printed multipliers (:math:`\lambda_S` from (9)), and
    beside them the greedy dual (``kkt_quantities``): primal feasible, dual feasible, complementary slackness and
    zero duality gap certify the primal point optimal, so Theorem III.1 stands whatever the printed
    multipliers do.  Discrepancy if some printed :math:`\lambda_S S \ne 0` (or :math:`\lambda_S < 0`) while
    the valid dual certifies the point; fails if no certificate; holds if the printed ones satisfy (9)–(11).
    ``multiplier_rule(um, eps)`` replaces the whole evaluation (a test feeds the valid dual)."""
    rows, printed_ok, certified, package_ok = [], True, True, True
    for name, m in (("geometric M = 6", rameshwar.geometric(6)), ("extreme L = 101, m* = 10", rameshwar.extreme(101, 10))):
        um = [Fraction(65) * int(v) for v in m]
        for eps in _KKT_EPS:
            k = (multiplier_rule or kkt_quantities)(um, eps)
            clip = rameshwar.clipping(m, U=65, eps=eps)  # the package's clipping: m_l a_l must be the primal alpha_l
            alpha = [max((u - k["T"]) / 2, Fraction(0)) for u in um]
            package_ok &= bool(np.allclose(clip.a * m, [float(x) for x in alpha], rtol=1e-12, atol=1e-12))
            p = k["printed"]
            printed_ok &= p["holds"]
            certified &= k["feasible"] and k["dual_valid_kkt"] and k["gap"] == 0
            rows.append({"collection": name, "eps": str(eps), "T_eps": str(k["T"]), "lambda_S_printed": str(p["lambda_S"]),
                         "lambda_S_times_S": str(p["lambda_S_times_S"]), "printed_kkt_holds": p["holds"],
                         "primal_value": str(k["primal"]), "dual_value": str(k["dual_value"]), "gap": str(k["gap"]),
                         "valid_dual_lambda_S": str(k["dual_lambda_S"]), "valid_dual_certifies": k["dual_valid_kkt"]})
    failing = [r for r in rows if not r["printed_kkt_holds"]]
    smallest = None  # searched: users L = 1, 2, 3 with counts <= 3, U = 1, eps = 1/2, 1, 2, 3
    for mm in _small_collections():
        for e in (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3)):
            k = (multiplier_rule or kkt_quantities)([Fraction(v) for v in mm], e)
            if not k["printed"]["holds"]:
                smallest = {"m": mm, "U": 1, "eps": str(e), "T_eps": str(k["T"]),
                            "lambda_S_printed": str(k["printed"]["lambda_S"]),
                            "lambda_S_times_S": str(k["printed"]["lambda_S_times_S"]),
                            "valid_dual_certifies": k["dual_valid_kkt"] and k["gap"] == 0}
                break
        if smallest:
            break
    printed_ok &= smallest is None
    status = ("fails" if not package_ok else "holds" if printed_ok and certified else "discrepancy" if certified
              else "fails")
    return result("rameshwar.kkt_multipliers", status, rows=rows, package_clipping_matches=package_ok,
                  smallest_counterexample=smallest,
                  failing_multiplier=[{k: r[k] for k in ("collection", "eps", "lambda_S_printed", "lambda_S_times_S")}
                                      for r in failing[:6]],
                  valid_dual="λ_ℓ = 1/2 on the ⌈2/ε⌉ − 1 largest Um_ℓ, the rest of 1/ε on the ⌈2/ε⌉-th, λ_S = 0 "
                             "(λ_S = 1/ε − L/2 and S = 0 when ε < 2/L); μ_ℓ = 1 − 2λ_ℓ")
