r"""Audit checks of the localisation steps of DAME's proof of Theorem 2 (Pla, Richard and Vono, 2024, appendix S2):
the event A (S49)–(S52), the vote probabilities (S61)–(S67), Hoeffding's step (S70)–(S71), Lemma S5's statement
with its union bound (S89), and the case m̃ = 1 (S147).

The checks of statements about the implemented bins read :mod:`bounds.estimators.localisation` and
:mod:`bounds.estimators.dame` and compare them with a transcription of the paper's bins written here; the
probability of a wrong vote is computed from its exact law (a binomial mixture), not bounded.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from scipy import special, stats

from ..estimators import dame as dame_estimator
from ..estimators import localisation
from ..sizes import finite as sizes_finite
from .core import AuditResult, register, result

_TAU_CASES = ((1, 1.0), (4, 100.0), (100, 10.0), (100, 1e4), (10**4, 1e6), (10**6, 1e9))


def _tau_paper(m_tilde: int, x: float) -> Fraction:
    """eq. (4) transcribed at 40 digits and rounded to a rational: τ = √(2 ln(8(√(m̃ nα²) ∨ 1))/m̃)."""
    with mpmath.workdps(40):
        t = mpmath.sqrt(2 * mpmath.log(8 * max(mpmath.sqrt(m_tilde * mpmath.mpf(x)), 1)) / m_tilde)
        return Fraction(int(mpmath.floor(t * 10**30)), 10**30)


@register("dame.s49_event_a", "Pla et al. (2024), (S49)–(S52) and the line after (S49); Algorithm 1's bins",
          "under A = {|ĵ − l| ≤ 2}, |s_ĵ − θ| ≤ 5τ, s_ĵ the centre of the implemented bin ĵ and θ ∈ I_l",
          "exact (rationals of the implemented bin ends)",
          domain="instances: (m~, n alpha^2) in " + ", ".join(f"({m}, {x:g})" for m, x in _TAU_CASES)
          + "; every bin l and every j with |j - l| <= 2; theta over the whole bin I_l (exact supremum)",
          methods=("exact", "exhaustive"),
          faults=(("the bound 5 tau shifted to 4 tau", {"bound": 4}),
                  ("A widened to |j - l| <= 3 (a shifted index)", {"reach": 3})))
def s49_event_a(bound: int | Fraction = 5, reach: int = 2) -> AuditResult:
    r"""For each case, τ from the package (:func:`bounds.estimators.dame.tau`), the number of bins
    (:func:`bounds.estimators.localisation.n_bins`), the implemented bin ends and centres
    (:func:`bounds.estimators.localisation.bin_ends`, :math:`s_j = (l_j + u_j)/2` as the release uses) and the
    bin holding each end of :math:`I_l` (:func:`bounds.estimators.localisation.bin_index`), against the paper's
    bins :math:`I_l = [-1 + 2\tau l, -1 + 2\tau(l + 1)) \cap [-1, 1]` transcribed here.  The supremum over
    θ ∈ :math:`I_l` of :math:`|s_j - \theta|` is the larger distance to an end of :math:`I_l` (exact, in the
    rationals of the floats):

    .. math:: \sup_{|j - l| \le 2,\ \theta \in I_l} |s_j - \theta| = 5\tau
              \quad(\theta \to \text{the far end of } I_l,\ j = l \pm 2)

    ``bound`` is the 5 of 5τ, ``reach`` the 2 of A."""
    rows, worst, bad = [], Fraction(0), 0
    for m, x in _TAU_CASES:
        n = max(2, math.ceil(x / 0.25))  # users and alpha = 1/2 give n alpha^2 = x up to rounding: tau reads x only
        t = dame_estimator.tau(m, n=n, alpha=math.sqrt(x / n))
        tq = Fraction(t)
        N = localisation.n_bins(t)
        lo, hi = localisation.bin_ends(np.arange(N), t)
        centre = [(Fraction(float(a)) + Fraction(float(b))) / 2 for a, b in zip(lo, hi)]
        ratio = Fraction(0)
        paper_N = math.ceil(1 / tq)  # the fewest bins of width 2 tau covering [-1, 1]
        bad += abs(N - paper_N)
        for ell in range(N):
            a, b = -1 + 2 * tq * ell, min(-1 + 2 * tq * (ell + 1), Fraction(1))  # I_l as the paper writes it
            if a >= 1:
                continue
            if abs(Fraction(float(lo[ell])) - a) + abs(Fraction(float(hi[ell])) - b) > tq / 10**9:
                bad += 1  # the implemented ends are not the paper's (beyond float rounding)
            inside = [float(a + (b - a) / 100), float(a + (b - a) * 99 / 100)]  # inside I_l, off float ties
            if [int(v) for v in localisation.bin_index(np.array(inside), t)] != [ell, ell]:
                bad += 1  # the implementation puts theta of I_l in another bin
            for j in range(max(0, ell - reach), min(N, ell + reach + 1)):
                ratio = max(ratio, max(abs(centre[j] - a), abs(centre[j] - b)) / tq)
        worst = max(worst, ratio)
        rows.append({"m_tilde": m, "n_alpha2": x, "tau": float(tq), "bins": N, "sup_distance_over_tau": float(ratio)})
    # the centres are the implementation's float64 bin ends: a relative 1e-12 covers their rounding (a bin moved by a
    # fraction of tau, or the bound 5 lowered, is many orders above it)
    ok = bad == 0 and worst <= Fraction(bound) * (1 + Fraction(1, 10**12))
    return result("dame.s49_event_a", "holds" if ok else "fails", bound=str(bound), reach=reach, rows=rows,
                  bins_misread=bad,  # bins whose count, ends or membership differ from the paper's
                  slack={"tightest_constant": float(worst), "method": "exact supremum over theta in I_l (no bisection)",
                         "note": "attained as theta tends to the far end of I_l with j = l +- 2, away from the last "
                                 "bin (cut at 1): 5 is tight (up to the float64 rounding of the implemented bin ends)"})


def _vote_law(P: Any, e: Any, q: Any) -> tuple[Any, Any, Any]:
    """(P(D = 1), P(D = −1), P(D = 0)) for D = Ṽ_l − Ṽ_k of one voter: V_l = 1 with probability P(1 − 2e), V_k = 1
    with 2eP (the extremes (S58) and (S60) allow, one vote per user), each bit kept with probability q = π_{α/6}."""
    a, b = P * (1 - 2 * e), 2 * e * P
    c = 1 - a - b
    plus = a * q * q + b * (1 - q) ** 2 + c * q * (1 - q)
    minus = a * (1 - q) ** 2 + b * q * q + c * q * (1 - q)
    return plus, minus, 1 - plus - minus


def _p_not_ahead(voters: int, plus: float, minus: float) -> float:
    r"""P(Σ D ≤ 0) over ``voters`` i.i.d. votes D ∈ {−1, 0, 1}: the number T of non-zero votes is binomial, and
    given T = t the number of +1 is binomial(t, plus/(plus + minus)); :math:`\sum_t P(T = t)\,P(\mathrm{Bin}(t, \rho) \le
    \lfloor t/2\rfloor)` in logarithms (scipy's binomial law, relative error far below the margins reported)."""
    r = plus + minus
    sd = math.sqrt(voters * r * (1 - r))
    # T outside its mean +- 40 sd (and +- 60) carries less than e^-800 of the mass: left out
    t = np.arange(max(0, int(voters * r - 40 * sd - 60)), min(voters, int(voters * r + 40 * sd + 60)) + 1)
    logs = stats.binom.logpmf(t, voters, r) + stats.binom.logcdf(t // 2, t, plus / r)
    return float(np.exp(special.logsumexp(logs)))


_S5_CASES = tuple((m, x, a, P) for m in (10**4, 10**6) for x in (10, 100, 1000, 10**4)
                  for a in (Fraction(1, 10), Fraction(1, 2), Fraction(1)) for P in (Fraction(1, 4), Fraction(1)))


@functools.lru_cache(maxsize=1)
def _s5_cases() -> tuple[dict, ...]:
    """The exact probability that a sub-optimal bin is not behind, per case of :data:`_S5_CASES`."""
    out = []
    for m, x, a, P in _S5_CASES:
        n = int(x / a**2)
        t = float(_tau_paper(m, x))
        e = 1 / (8 * max(math.sqrt(m * x), 1.0))  # exp(-m tau^2 / 2) with eq. (4)'s tau
        q = math.exp(float(a) / 6) / (1 + math.exp(float(a) / 6))
        plus, minus, _ = _vote_law(float(P), e, q)
        out.append({"m_tilde": m, "n_alpha2": x, "alpha": str(a), "P": str(P), "n": n, "tau": t,
                    "bins": math.ceil(1 / t), "gap": plus - minus, "q": q, "p_not_ahead": _p_not_ahead(n // 2, plus, minus)})
    return tuple(out)


@register("dame.s70_hoeffding", "Pla et al. (2024), (S70)–(S71) (Hoeffding over the n/2 voters, then (S67))",
          "P(Z_l ≤ Z_k) ≤ exp(−n/4 (p_l − p_k)²) ≤ exp(−n/4 (π_{α/6} − 1/2)² P(m ≥ m̃)²)",
          "exact law of the vote difference (binomial mixture)",
          domain="instances: m~ in {1e4, 1e6} (22 to 223 bins) x n alpha^2 in {10, 1e2, 1e3, 1e4} x alpha in {1/10, 1/2, 1} x "
                 "P(m >= m~) in {1/4, 1}, the extreme vote law (S58)/(S60) allow",
          methods=("exact", "exhaustive"),
          faults=(("Hoeffding's n/4 taken as n (its 1/4 dropped)", {"divisor": 1}),))
def s70_hoeffding(divisor: int | Fraction = 4) -> AuditResult:
    r"""With the vote law at the extremes (S58) and (S60) allow (:math:`P(V_l = 1) = P(1 - 2e)`,
    :math:`P(V_k = 1) = 2eP`, :math:`e = e^{-\tilde m\tau^2/2}`, one vote per user, each bit kept with probability
    :math:`\pi_{\alpha/6}`), the exact :math:`P(Z_l \le Z_k)` over n/2 voters is compared with (S70)'s
    :math:`\exp(-n(p_l - p_k)^2/4)` and that with (S71)'s :math:`\exp(-n(\pi_{\alpha/6} - 1/2)^2P^2/4)`.
    ``divisor`` is the 4 of n/4.  The slack is the largest ratio exact/(S70) over the cases."""
    worst_70, worst_71, rows = -math.inf, -math.inf, []
    for c in _s5_cases():
        log70 = -c["n"] * c["gap"] ** 2 / float(divisor)
        log71 = -c["n"] * (c["q"] - 0.5) ** 2 * float(Fraction(c["P"])) ** 2 / float(divisor)
        s70, s71 = math.exp(log70), math.exp(log71)
        ratio = math.log(c["p_not_ahead"]) - log70  # in logarithms: the bounds may underflow
        if ratio > worst_70:
            worst_70, at = ratio, {k: c[k] for k in ("m_tilde", "n_alpha2", "alpha", "P")}
        worst_71 = max(worst_71, log70 - log71)
        rows.append({k: c[k] for k in ("m_tilde", "n_alpha2", "alpha", "P", "p_not_ahead")} | {"s70": s70, "s71": s71})
    ok = worst_70 <= 0 and worst_71 <= 0
    worst_70, worst_71 = (math.exp(v) if v < 700 else math.inf for v in (worst_70, worst_71))
    return result("dame.s70_hoeffding", "holds" if ok else "fails", divisor=str(divisor), cases=len(rows),
                  max_exact_over_s70=worst_70, max_s70_over_s71=worst_71, rows=rows[:8],
                  slack={"tightest_constant": worst_70, "method": "largest ratio exact / (S70) over the instances",
                         "at": at, "note": "Hoeffding is tightest where n (p_l - p_k)^2 is smallest"})


@register("dame.lemma_s5_statement", "Pla et al. (2024), Lemma S5 (S54) with its union bound (S89)",
          "P(Ā) ≤ Σ_{|k−l|>2} P(Z_l ≤ Z_k) ≤ (1/τ) exp(−nα² P(m ≥ m̃)²/579)",
          "exact law of the vote difference (binomial mixture) + the implemented number of bins",
          domain="instances: m~ in {1e4, 1e6} (22 to 223 bins) x n alpha^2 in {10, 1e2, 1e3, 1e4} x alpha in {1/10, 1/2, 1} x "
                 "P(m >= m~) in {1/4, 1}, the extreme vote law (S58)/(S60) allow",
          methods=("exact", "exhaustive"),
          faults=(("the divisor 579 dropped: (1/tau) exp(-n alpha^2 P^2)", {"divisor": 1}),
                  ("the prefactor 1/tau dropped", {"prefactor": False})))
def lemma_s5_statement(divisor: int | Fraction = 579, prefactor: bool = True) -> AuditResult:
    r"""The statement of Lemma S5 (not its proof's step after (S71), ``dame.lemma_s5_exponent``): the union
    bound :math:`\#\{k : |k - l| > 2\}\cdot P(Z_l \le Z_k)` with the number of bins of the implementation
    (:func:`bounds.estimators.localisation.n_bins`, at most N − 3 sub-optimal bins) and the exact
    :math:`P(Z_l \le Z_k)` of ``dame.s70_hoeffding``'s vote law, against
    :math:`\tfrac1\tau\exp(-n\alpha^2P^2/579)`.  The lemma holds on every case even though the proof's
    last step loses Hoeffding's 1/4: the exact probability is far below both bounds.  ``divisor`` is the 579,
    ``prefactor`` the 1/τ."""
    worst, rows = -math.inf, []
    for c in _s5_cases():
        N = localisation.n_bins(c["tau"])
        union = max(N - 3, 0) * c["p_not_ahead"]
        log_bound = (-math.log(c["tau"]) if prefactor else 0.0) - c["n_alpha2"] * float(Fraction(c["P"])) ** 2 / float(divisor)
        if union > 0 and math.log(union) - log_bound > worst:  # in logarithms: the faulted bound underflows
            worst, at = math.log(union) - log_bound, {k: c[k] for k in ("m_tilde", "n_alpha2", "alpha", "P")}
        rows.append({k: c[k] for k in ("m_tilde", "n_alpha2", "alpha", "P")} | {"bins": N, "union_bound": union,
                                                                               "lemma_s5": math.exp(log_bound)})
    worst = math.exp(worst) if worst < 700 else math.inf
    return result("dame.lemma_s5_statement", "holds" if worst <= 1 else "fails", divisor=str(divisor),
                  cases=len(rows), max_union_over_lemma=worst, rows=rows[:8],
                  slack={"tightest_constant": worst, "method": "largest ratio union bound / Lemma S5 over the instances",
                         "at": at, "note": "the smallest multiple of Lemma S5's bound that still holds on the instances; "
                                           "largest where the votes carry almost no signal (small n alpha^2 P^2), where "
                                           "the union bound is (N - 3) P(Z_l <= Z_k) with P(Z_l <= Z_k) near 1/2"})


@register("dame.s61_s67_votes", "Pla et al. (2024), (S61)–(S67)",
          "p_j = (2π_{α/6} − 1)P(V_j = 1) + 1 − π_{α/6}; p_l − p_k ≥ (2π − 1)P(1 − 4e^{−m̃τ²/2}) ≥ (π − 1/2)P",
          "sympy",
          domain="proved on P(m >= m~) in [0, 1], pi in (1/2, 1), m~ >= 1, n alpha^2 > 0 (symbolic, eq. (4)'s tau)",
          methods=("sympy",),
          faults=(("eq. (4)'s ln 8 replaced by ln 2 in tau", {"log_factor": 2}),
                  ("(S67)'s (pi - 1/2) P replaced by (2 pi - 1) P (the 1/2 dropped)", {"coefficient": 1})))
def s61_s67_votes(log_factor: int = 8, coefficient: int | Fraction = Fraction(1, 2)) -> AuditResult:
    r"""(S62)–(S63): a vote kept with probability π and flipped otherwise gives
    :math:`p_j = \pi v + (1 - \pi)(1 - v) = (2\pi - 1)v + 1 - \pi` (sympy identity); (S64)–(S66): with
    :math:`v_l \ge P(1 - 2e)` and :math:`v_k \le 2eP` the gap is at least :math:`(2\pi - 1)P(1 - 4e)`
    (sympy: an identity at the extremes, :math:`p` increasing in :math:`v` for π > 1/2); (S67): with
    :math:`e = 1/(8(\sqrt{\tilde mn\alpha^2} \vee 1)) \le 1/8`, :math:`1 - 4e \ge 1/2`, so the gap is
    :math:`\ge \tfrac12(2\pi - 1)P = (\pi - 1/2)P`.  ``log_factor`` is the 8 of eq. (4), ``coefficient`` the
    1/2 of :math:`\tfrac12(2\pi - 1)`."""
    pi, v, P, e, K = sp.symbols("pi v P e K", positive=True)
    p = pi * v + (1 - pi) * (1 - v)
    s63 = sp.simplify(p - ((2 * pi - 1) * v + 1 - pi)) == 0
    gap = sp.simplify(p.subs(v, P * (1 - 2 * e)) - p.subs(v, 2 * e * P))
    s66 = sp.simplify(gap - (2 * pi - 1) * P * (1 - 4 * e)) == 0
    monotone = sp.simplify(sp.diff(p, v) - (2 * pi - 1)) == 0  # p increases in v for pi > 1/2
    factor = sp.simplify(1 - 4 / (log_factor * K))  # 1 - 4 exp(-m~ tau^2/2), K = sqrt(m~ n alpha^2) v 1 >= 1
    increasing = sp.simplify(sp.diff(factor, K)).is_positive
    c = sp.Rational(Fraction(coefficient).numerator, Fraction(coefficient).denominator)
    s67 = bool(factor.subs(K, 1) >= c)  # the gap (2 pi - 1) P (1 - 4e) >= c (2 pi - 1) P
    ok = s63 and s66 and monotone and bool(increasing) and s67
    return result("dame.s61_s67_votes", "holds" if ok else "fails", s63_identity=s63, s66_identity=s66,
                  p_increases_in_v=monotone, min_of_1_minus_4e=str(factor.subs(K, 1)), s67=s67,
                  slack={"tightest_constant": str(factor.subs(K, 1)), "method": "sympy (1 - 4/(log_factor K) increases "
                         "in K >= 1)", "note": "the factor 1/2 of (S67) is exact: 1 - 4e reaches 1/2 at K = 1 (m~ n "
                         "alpha^2 <= 1); (S63) and (S66) are identities"},
                  log_factor=log_factor, coefficient=str(coefficient))


@register("dame.s147_one_bin", "Pla et al. (2024), (S147) and the sentence before it; eq. (4), Algorithm 1",
          "for m̃ = 1, τ ≥ 1, so there is one bin and P(A) = 1; then (S135)'s bias is 1/(E nα²) with E = 1",
          "exact (the implemented τ and bins) + sympy",
          domain="instances: m~ = 1, n alpha^2 = 10^k, k = -3..12; proved: E[sqrt(m ^ 1)] = 1 and the (S135) "
                 "algebra at m~ = 1 (symbolic)",
          methods=("exact", "sympy"),
          faults=(("tau of eq. (4) with ln 8 replaced by ln 1.5 (tau < 1 at small n alpha^2)",
                   {"log_factor": Fraction(3, 2)}),))
def s147_one_bin(log_factor: int | Fraction = 8) -> AuditResult:
    r"""The package's τ at m̃ = 1 (:func:`bounds.estimators.dame.tau`) is checked ≥ 1 against eq. (4)
    transcribed here (:math:`\tau = \sqrt{2\ln(8(\sqrt{n\alpha^2} \vee 1))} \ge \sqrt{2\ln 8} = 2.04`), and the
    implemented number of bins (:func:`bounds.estimators.localisation.n_bins`) is 1, so ĵ = l and P(A) = 1.
    With m̃ = 1, :math:`E[\sqrt{m \wedge 1}] = 1`, so (S135)'s :math:`1/(E^2n\alpha^2)` and (S147)'s
    :math:`1/(En\alpha^2)` coincide (sympy): the error of (S135) does not reach (S147).  ``log_factor`` is the 8."""
    rows, ok = [], True
    for k in range(-3, 13):
        x = 10.0**k
        t_impl = dame_estimator.tau(1, n=4, alpha=math.sqrt(x / 4))
        with mpmath.workdps(30):
            t_paper = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(Fraction(log_factor).numerator) / Fraction(log_factor).denominator
                                                 * max(mpmath.sqrt(x), 1)))
        bins = localisation.n_bins(t_impl)
        agree = abs(t_impl - float(t_paper)) <= 1e-12 * float(t_paper)
        ok &= bool(t_paper >= 1) and bins == 1 and agree
        rows.append({"n_alpha2": x, "tau": t_impl, "tau_eq4": float(t_paper), "bins": bins})
    E, x = sp.symbols("E x", positive=True)
    m = sp.Symbol("m", integer=True, positive=True)
    e_one = sp.Min(sp.sqrt(m), 1).subs(m, 1) == 1 and sp.sqrt(sp.Min(m, 1)).subs(m, 5) == 1
    same = sp.simplify((1 / (E**2 * x) - 1 / (E * x)).subs(E, 1)) == 0
    ok &= bool(e_one) and bool(same)
    return result("dame.s147_one_bin", "holds" if ok else "fails", log_factor=str(log_factor), rows=rows[:4],
                  cases=len(rows), min_tau=min(r["tau_eq4"] for r in rows), expectation_at_m_tilde_1=bool(e_one),
                  s135_equals_s147_at_E_1=bool(same))


def _binomial_law(m: int, p: Fraction) -> list[Fraction]:
    """The law of the number of +1 among m i.i.d. ±1 samples with P(+1) = p (the sufficient statistic of μ^m)."""
    return [math.comb(m, k) * p**k * (1 - p) ** (m - k) for k in range(m + 1)]


_TV_LAWS = ({1: Fraction(1)}, {3: Fraction(1)}, {1: Fraction(1, 2), 4: Fraction(1, 2)},
            {2: Fraction(1, 3), 5: Fraction(1, 3), 9: Fraction(1, 3)}, {1: Fraction(9, 10), 12: Fraction(1, 10)})


@register("dame.s10_s17_tv", "Pla et al. (2024), (S4) and (S10)–(S17) (Lemma S1's decomposition)",
          "with (S4)'s D_TV = ½ Σ|ν0 − ν1|: (S10) D_TV(ν0, ν1) = 2 sup_A |ν0(A) − ν1(A)| and (S17) "
          "D_TV(ν0, ν1) = Σ M(m) D_TV(μ0^m, μ1^m)",
          "exact rationals (the laws of the users' whole samples)",
          domain="instances: 5 finite size laws (sizes 1..12, rational masses) x delta = k/8, k = 1..7",
          methods=("exact", "exhaustive"),
          repairs=(("(S10) as D_TV = sup_A |nu0(A) - nu1(A)| (the convention of (S4))", {"sup_factor": 1}),),
          faults=(("(S17) with one sample's D_TV(mu0, mu1) in place of the m-fold products", {"products": False}),))
def s10_s17_tv(sup_factor: int = 2, products: bool = True) -> AuditResult:
    r"""A user's data is its size m and its ±1 samples; the number of +1 is sufficient, so the laws
    :math:`\nu_0, \nu_1` are taken on the pairs (m, k) (exact rationals, :math:`P(+1) = (1 \mp \delta)/2`).  Computed:
    (S4)'s :math:`D_{TV} = \tfrac12\sum|\nu_0 - \nu_1|`, the supremum over events
    :math:`\sup_A|\nu_0(A) - \nu_1(A)|` (attained at :math:`A = \{\nu_0 > \nu_1\}`) and the right side of (S17).
    (S17) holds exactly (the sizes split the space into disjoint parts); (S10)'s factor 2 contradicts (S4): the
    supremum *is* :math:`D_{TV}` (smallest counterexample in the order (law, δ): one sample, δ = 1/8:
    :math:`D_{TV} = 1/8`, 2 sup = 1/4).  (S14)–(S15) carry the same factor (:math:`2\sup \le D_{TV}` fails), so
    (S17) survives.  ``sup_factor`` is the 2 of (S10); ``products=False`` plants a fault in (S17)."""
    s17_ok, s10_fail, count = True, 0, 0
    first: dict = {}
    for i, law in enumerate(_TV_LAWS):
        for k in range(1, 8):
            d = Fraction(k, 8)
            count += 1
            p0, p1 = (1 - d) / 2, (1 + d) / 2
            diffs = [q * (a - b) for m, q in law.items() for a, b in zip(_binomial_law(m, p0), _binomial_law(m, p1))]
            tv = sum((abs(v) for v in diffs), Fraction(0)) / 2
            sup = sum((v for v in diffs if v > 0), Fraction(0))
            comp = sum((q * (sum((abs(a - b) for a, b in zip(_binomial_law(m if products else 1, p0),
                                                              _binomial_law(m if products else 1, p1))), Fraction(0)) / 2)
                        for m, q in law.items()), Fraction(0))
            s17_ok &= tv == comp
            if tv != sup_factor * sup:
                s10_fail += 1
                if not first:
                    first = {"order": "law (as listed), then delta = k/8", "law": {m: str(q) for m, q in law.items()},
                             "delta": str(d), "tv": str(tv), "sup_factor_times_sup": str(sup_factor * sup)}
    status = "fails" if not s17_ok else "discrepancy" if s10_fail else "holds"
    return result("dame.s10_s17_tv", status, sup_factor=sup_factor, cases=count, s17_exact=s17_ok,
                  s10_failures=s10_fail, smallest_counterexample=first)


_S51_LAWS = ({1: Fraction(1, 2), 4: Fraction(1, 2)}, {9: Fraction(1)}, {1: Fraction(9, 10), 100: Fraction(1, 10)},
             {2: Fraction(1, 4), 7: Fraction(1, 4), 30: Fraction(1, 2)}, {1: Fraction(1, 100), 10**6: Fraction(99, 100)})


@register("dame.s51_bias_bound", "Pla et al. (2024), (S50)–(S52) (the bias under Ā) with eq. (9)'s constants",
          "(E[θ̂ | ĵ] − θ)² ≤ 4: E[θ̂ | ĵ] is an average of values in [−1, 1] because eq. (9)'s constants satisfy "
          "√m̃ − Σ_{i≤m̃}(√m̃ − √i)M(i) = E[√(m ∧ m̃)]",
          "exact (sympy, 30 digits) against the implemented debiasing",
          domain="instances: 5 finite size laws (sizes 1..1e6, rational masses) x m~ in {1, 4, 50, 2000}; every "
                 "vertex of the per-size expected releases and of s in [-1, 1]",
          methods=("exact", "exhaustive"),
          faults=(("eq. (9)'s correction one per cent larger", {"correction_scale": Fraction(101, 100)}),))
def s51_bias_bound(correction_scale: int | Fraction = 1) -> AuditResult:
    r"""The implemented constants of eq. (9) (:func:`bounds.estimators.dame.debiasing`: ``correction``,
    ``denominator``) against their transcription here, :math:`\sum_{i \le \tilde m}(\sqrt{\tilde m} - \sqrt i)M(i)`
    and :math:`E[\sqrt{m \wedge \tilde m}]` (sympy at 30 digits).  Given ĵ, a user of size m ≥ m̃ releases on
    average :math:`v_m \in [-1, 1]` and one of size m < m̃ releases :math:`s + \sqrt{m/\tilde m}\,(u_m - s)`,
    :math:`u_m \in [-1, 1]` (its shrunk mean, clipped towards s), so with the implemented constants

    .. math:: E[\hat\theta \mid \hat j] = \frac{\sqrt{\tilde m}\sum_m M(m) r_m - \mathrm{correction}\cdot s}{\mathrm{denominator}}

    is linear in each of :math:`v_m, u_m, s`: its extremes are at the vertices ±1, evaluated here.  With eq. (9)'s
    constants they are ±1 exactly, so :math:`|E[\hat\theta \mid \hat j] - \theta| \le 2` (tight at θ = ∓1).
    ``correction_scale`` multiplies the implemented correction (a planted fault)."""
    worst, dev, rows = 0.0, 0.0, []
    for law_q in _S51_LAWS:
        law = sizes_finite({m: float(q) for m, q in law_q.items()})
        for mt in (1, 4, 50, 2000):
            d = dame_estimator.debiasing(law, mt)
            corr, den = d.correction * float(correction_scale), d.denominator
            E = sum((sp.Rational(q.numerator, q.denominator) * sp.sqrt(min(m, mt)) for m, q in law_q.items()), sp.S(0))
            C = sum((sp.Rational(q.numerator, q.denominator) * (sp.sqrt(mt) - sp.sqrt(m)) for m, q in law_q.items()
                     if m <= mt), sp.S(0))
            dev = max(dev, abs(den - float(E.evalf(30))) / float(E), abs(d.correction - float(C.evalf(30))) / math.sqrt(mt))
            weights_sum_to_one = sp.simplify(sp.sqrt(mt) - C - E) == 0
            extremes = []
            for sign in (1, -1):  # every v_m = u_m = sign; s = +-1
                for s_ in (1, -1):
                    num = sum((float(q) * (math.sqrt(mt) * sign if m >= mt else math.sqrt(mt) * s_ + math.sqrt(m) * (sign - s_))
                               for m, q in law_q.items()), 0.0)
                    extremes.append((num - corr * s_) / den)
            sup = max(max(extremes) + 1, 1 - min(extremes))
            worst = max(worst, sup)
            rows.append({"law": {m: str(q) for m, q in law_q.items()}, "m_tilde": mt, "sup_abs_bias": sup,
                         "weights_sum_to_one": bool(weights_sum_to_one)})
    # the implementation's floats: a relative 1e-12 covers their rounding (a planted 1% fault is ten orders above)
    ok = worst <= 2 * (1 + 1e-12) and dev <= 1e-12 and all(r["weights_sum_to_one"] for r in rows)
    return result("dame.s51_bias_bound", "holds" if ok else "fails", correction_scale=str(correction_scale),
                  max_rel_dev_from_eq9=dev, rows=rows[:6], cases=len(rows),
                  slack={"tightest_constant": worst ** 2,
                         "method": "maximum over the vertices (float64 of the implemented constants)",
                         "note": "(E[theta_hat | j] - theta)^2 reaches 4 (theta = -1 with every release at 1): tight"})


@register("dame.s136_bias_sum", "Pla et al. (2024), (S136) from (S135), (S50)–(S52) and Lemma S5",
          "E[(E[θ̂|ĵ] − θ)²] ≤ 1/(E nα²) + (4/τ) exp(−nα²P²/579), E = E[√(m ∧ m̃)]: the bias under A squared "
          "(1/(E² nα²), the correct square of (S135)) plus 4 P(Ā)",
          "sympy",
          domain="proved on E >= 1 (m, m~ >= 1), n alpha^2 > 0 (symbolic), given Lemma S5's statement and (S51)",
          methods=("sympy",),
          faults=(("the sizes allowed below 1 (E >= 1/2): 1/(E^2 x) <= 1/(E x) needs E >= 1", {"e_min": Fraction(1, 2)}),))
def s136_bias_sum(e_min: int | Fraction = 1) -> AuditResult:
    r"""(S135)'s bias under A is :math:`\sqrt{\tilde m}/E\cdot 1/\sqrt{\tilde mn\alpha^2} = 1/(E\sqrt{n\alpha^2})`
    (``dame.s135_algebra``: not the printed :math:`1/\sqrt{En\alpha^2}`), whose square :math:`1/(E^2n\alpha^2)` is at
    most (S136)'s :math:`1/(En\alpha^2)` because :math:`E = E[\sqrt{m \wedge \tilde m}] \ge 1` (every size is at
    least 1); the second term is 4 times Lemma S5's bound ((S51): the squared bias under Ā is at most 4).  So
    (S136) holds although the line before it is wrong.  sympy: :math:`1/(Ex) - 1/(E^2x) \ge 0` on
    :math:`E \ge` ``e_min``, and :math:`\sqrt{\min(m, \tilde m)} \ge 1` for integers m, m̃ ≥ 1."""
    E, x = sp.symbols("E x", positive=True)
    lo = sp.Rational(Fraction(e_min).numerator, Fraction(e_min).denominator)
    gap = sp.simplify(1 / (E * x) - 1 / (E**2 * x))
    negative = sp.solveset(sp.numer(sp.together(gap)) < 0, E, sp.Interval(lo, sp.oo))
    m, mt = sp.symbols("m m_tilde", integer=True, positive=True)
    e_ge_1 = bool((m - 1).is_nonnegative and (mt - 1).is_nonnegative)  # min(m, m~) >= 1, so its root too
    ok = negative == sp.S.EmptySet and e_ge_1
    return result("dame.s136_bias_sum", "holds" if ok else "fails", e_min=str(e_min), gap=str(gap),
                  where_negative=str(negative), sqrt_min_at_least_1=e_ge_1,
                  slack={"tightest_constant": "1", "method": "sympy",
                         "note": "1/(E^2 x) <= 1/(E x) with equality at E = 1 (m~ = 1, or every size 1)"})


@register("dame.s145_identity", "Pla et al. (2024), (S145) with eq. (4)'s τ",
          "(4/τ) exp(−nα²P²/579) = 4√(m̃/(2L)) exp(−nα²P²/579), L = ln(8(√(m̃nα²) ∨ 1))", "sympy",
          domain="proved on m~ >= 1, L > 0 (symbolic)", methods=("sympy",),
          faults=(("tau^2 taken as L/m~ (the 2 of eq. (4) dropped)", {"tau_factor": 1}),))
def s145_identity(tau_factor: int = 2) -> AuditResult:
    r"""With eq. (4)'s :math:`\tau = \sqrt{2L/\tilde m}`, :math:`4/\tau = 4\sqrt{\tilde m/(2L)}` (sympy).  ``tau_factor``
    is the 2 of :math:`\tau^2 = 2L/\tilde m`."""
    m, L = sp.symbols("m L", positive=True)
    tau = sp.sqrt(tau_factor * L / m)
    same = sp.simplify(4 / tau - 4 * sp.sqrt(m / (2 * L))) == 0
    return result("dame.s145_identity", "holds" if same else "fails", tau_factor=tau_factor,
                  slack={"note": "an identity (4/tau = 4 sqrt(m~/(2L)) for every m~, L): no constant to tighten"},
                  four_over_tau=str(sp.simplify(4 / tau)))


@register("dame.s69_event_a", "Pla et al. (2024), (S68)–(S69) (the event A through the vote totals)",
          "A = {|ĵ − l| ≤ 2} = ∩_{k : |l − k| > 2} {Z_l > Z_k}, ĵ = argmax_j Z_j",
          "exhaustive (every vote-total vector)",
          domain="instances: every vote-total vector Z in {0, 1, 2}^N, N = 4..6 bins, every true bin l, "
                 "argmax taken at the first maximum",
          methods=("exhaustive",),
          repairs=(("(S69) as an inclusion, A ⊇ ∩ {Z_l > Z_k} (all the union bound (S89) needs)",
                    {"relation": "superset"}),),
          faults=(("(S69) as the opposite inclusion, A ⊆ ∩ {Z_l > Z_k}", {"relation": "subset"}),))
def s69_event_a(relation: str = "equal") -> AuditResult:
    r"""Every vector of vote totals :math:`Z \in \{0, 1, 2\}^N` (N = 4, 5, 6) and every true bin l: ĵ is the first
    index of the maximum, A is :math:`|\hat j - l| \le 2`, and the right side of (S69) is
    :math:`\bigcap_{|k - l| > 2}\{Z_l > Z_k\}`.  The inclusion ⊇ always holds (a maximum at distance > 2 would be
    a k with :math:`Z_k \ge Z_l`), which is what (S89)'s union bound uses; the equality printed in (S69) does not:
    ĵ can be near l while a far bin has as many votes as l.  The smallest counterexample in the order (N, then Z
    lexicographically, then l) is searched.  ``relation``: ``"equal"`` as printed, ``"superset"`` the repair."""
    import itertools

    if relation not in ("equal", "superset", "subset"):
        raise ValueError(f"relation must be 'equal', 'superset' or 'subset', got {relation!r}")
    bad, count = 0, 0
    first: dict = {}
    for N in range(4, 7):
        for Z in itertools.product(range(3), repeat=N):
            j = Z.index(max(Z))
            for ell in range(N):
                count += 1
                a = abs(j - ell) <= 2
                inter = all(Z[ell] > Z[k] for k in range(N) if abs(k - ell) > 2)
                ok = a == inter if relation == "equal" else (a or not inter) if relation == "superset" else (inter or not a)
                if not ok:
                    bad += 1
                    if not first:
                        first = {"order": "N, then Z lexicographically, then l", "bins": N, "votes": list(Z),
                                 "true_bin": ell, "elected": j, "in_A": a, "in_intersection": inter}
    return result("dame.s69_event_a", "holds" if not bad else "discrepancy", relation=relation, cases=count,
                  violations=bad, smallest_counterexample=first)
