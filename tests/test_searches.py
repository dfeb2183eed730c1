"""Every integer or argmin search against an exhaustive scan written here, where the decisions are tight.

The scans evaluate the papers' definitions directly (exact rationals or mpmath at 50
digits, the law's masses summed here), never through the searched code: m~ (Pla et al.
(2024), Theorem 2), the lower bound's maximiser (eq. (10)), T_eps (Rameshwar and Tandon
(2025), Theorem III.1, as the minimiser of Lemma III.1's error), T* (Cummings et al.
(2022), eq. (6); Kent et al. (2024), eq. (25)) and k* (Cummings et al. (2022), §5.2).
Laws are built at the places where the searches can go wrong: near-ties constructed at
a chosen a, atoms far apart, heavy tails, n alpha^2 below and above c5.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bounds import cummings, dame, kent, rameshwar, sizes
from bounds.dame import _scan

SETTINGS = dict(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck),
                phases=(Phase.explicit, Phase.generate))  # no shrinking: the first counterexample is reported
PAPER = (mpmath.exp(-9) / 16, 24, 1570, 8, mpmath.mpf(1737) / 2)
UNIT = (1, 1, 1, 1, 1)


# =========================================================================== m~ (Theorem 2)


def _tail(masses: dict, a: int) -> mpmath.mpf:
    """P(m >= a), summed here from the masses."""
    return mpmath.fsum(mpmath.mpf(p) for k, p in masses.items() if k >= a) / mpmath.fsum(
        mpmath.mpf(p) for p in masses.values())


def _phi(a: int, x, c) -> mpmath.mpf:
    """φ(a) = (c5/x) log(y/log y), y = c4 (a x ∨ 1); +inf where log y <= 0 or y/log y <= 0 (eq. (12))."""
    y = c[3] * max(a * x, 1)
    ly = mpmath.log(y)
    if ly <= 0:
        return mpmath.inf
    return c[4] / x * mpmath.log(y / ly)


def m_tilde_scan(masses: dict, x: float, c) -> int:
    """max{a >= 1 : P(m >= a)^2 >= φ(a) ∧ 1}, every a up to the largest atom (P = 0 beyond)."""
    with mpmath.workdps(50):
        xm = mpmath.mpf(x)
        best = 1
        for a in range(1, max(masses) + 1):
            p = _tail(masses, a)
            if p * p >= min(_phi(a, xm, c), 1):
                best = a
        return best


def _constants(name):
    return PAPER if name == "paper" else UNIT


@pytest.fixture(params=["scan", "search"])
def dame_path(request, monkeypatch):
    """Both exact float paths of Theorems 1-2: the whole scan of a law's prefix (every law of these
    tests, atoms up to 10**6) and the branch and bound / bisection (no law scanned)."""
    monkeypatch.setattr(_scan, "SCAN_POINTS", 10**6 + 1 if request.param == "scan" else 0)
    return request.param


@settings(**SETTINGS)
@given(a_star=st.integers(2, 300), extra=st.integers(0, 40), logx=st.floats(1.0, 12.0),
       side=st.sampled_from([-1e-9, -1e-13, 1e-13, 1e-9]), constants=st.sampled_from(["paper", "unit"]))
def test_m_tilde_at_constructed_near_ties(dame_path, a_star, extra, logx, side, constants):
    """Two-point law {1: 1 - ρ, M: ρ} with ρ² = φ(a*)(1 ± δ): m~ is decided at a* by a hair."""
    x = 10.0**logx
    c = _constants(constants)
    with mpmath.workdps(50):
        phi = _phi(a_star, mpmath.mpf(x), c)
        if not 0 < phi < 1:
            return
        rho = float(mpmath.sqrt(phi * (1 + side)))
    if not 0 < rho < 1:
        return
    M = a_star + extra
    masses = {1: 1 - rho, M: rho}
    law = sizes.finite(masses)
    assert dame.m_tilde(law, n_alpha2=x, constants=constants) == m_tilde_scan(masses, x, c)


@pytest.mark.parametrize("a_star,logx", [(2, 4.0), (7, 6.5), (50, 9.0), (300, 11.0)])
@pytest.mark.parametrize("ulps", [-1, 0, 1])
@pytest.mark.parametrize("constants", ["paper", "unit"])
def test_m_tilde_at_ties_below_float_resolution(dame_path, a_star, logx, ulps, constants):
    """ρ the float nearest √φ(a*) (and its neighbours): P(m ≥ a*)² - φ(a*) is below float64's resolution,
    so only the 60-digit re-decision of the search (or scan) gets m~ right."""
    x = 10.0**logx
    c = _constants(constants)
    with mpmath.workdps(50):
        phi = _phi(a_star, mpmath.mpf(x), c)
        if not 0 < phi < 1:
            pytest.skip("φ(a*) outside (0, 1) for these constants")
        rho = float(mpmath.sqrt(phi))
    rho = float(np.nextafter(rho, 2.0 if ulps > 0 else 0.0)) if ulps else rho
    masses = {1: 1 - rho, a_star + 3: rho}
    assert dame.m_tilde(sizes.finite(masses), n_alpha2=x, constants=constants) == m_tilde_scan(masses, x, c)


@settings(**SETTINGS)
@given(atoms=st.lists(st.integers(1, 400), min_size=1, max_size=5, unique=True),
       weights=st.lists(st.floats(1e-6, 1.0), min_size=5, max_size=5), logx=st.floats(-0.5, 9.0),
       constants=st.sampled_from(["paper", "unit"]))
def test_m_tilde_on_separated_atoms(dame_path, atoms, weights, logx, constants):
    """Atoms far apart (and point laws), n α² below and above c5 = 868.5: the bracket's ends are reached."""
    w = weights[: len(atoms)]
    masses = {a: wi / sum(w) for a, wi in zip(atoms, w)}
    x = 10.0**logx
    law = sizes.finite(masses)
    assert dame.m_tilde(law, n_alpha2=x, constants=constants) == m_tilde_scan(masses, x, _constants(constants))


@pytest.mark.parametrize("M", [1, 2, 7, 50, 400])
@pytest.mark.parametrize("x", [1.0, 30.0, 868.0, 869.0, 1e4, 1e8])
def test_m_tilde_of_a_point_law_is_its_atom_where_phi_allows(dame_path, M, x):
    """P(m >= a) = 1 up to M: m~ = max{a <= M : φ(a) ∧ 1 <= 1} = M (the Markov bracket is tight here)."""
    for constants in ("paper", "unit"):
        assert dame.m_tilde(sizes.point(M), n_alpha2=x, constants=constants) == m_tilde_scan({M: 1.0}, x,
                                                                                               _constants(constants))


# =========================================================================== the lower bound's maximiser (eq. (10))


def lower_bound_scan(masses: dict, x: float, c) -> tuple[mpmath.mpf, list[int]]:
    """max over a in {0} ∪ supp M of log c1 - c2 x P(m > a)^2 - log(x S(a)^2 ∨ 1), and every maximiser."""
    with mpmath.workdps(50):
        xm = mpmath.mpf(x)
        tot = mpmath.fsum(mpmath.mpf(p) for p in masses.values())
        vals = {}
        for a in [0] + sorted(masses):
            P = mpmath.fsum(mpmath.mpf(p) for k, p in masses.items() if k > a) / tot
            S = mpmath.fsum(mpmath.sqrt(k) * mpmath.mpf(p) for k, p in masses.items() if k <= a) / tot
            vals[a] = mpmath.log(c[0]) - c[1] * xm * P * P - mpmath.log(max(xm * S * S, 1))
        best = max(vals.values())
        return best, [a for a, v in vals.items() if v == best], vals


def _check_lower(masses, x, constants):
    c = _constants(constants)
    lb = dame.lower_bound(sizes.finite(masses), n_alpha2=x, constants=constants)
    best, maximisers, vals = lower_bound_scan(masses, x, c)
    assert lb.log_value == pytest.approx(float(best), rel=1e-9, abs=1e-9)
    runner_up = max((v for a, v in vals.items() if a not in maximisers), default=-mpmath.inf)
    if best - runner_up > 1e-7 * (1 + abs(best)):  # an unambiguous maximiser: the argmax must be it
        assert lb.argmax == maximisers[0]


@settings(**SETTINGS)
@given(atoms=st.lists(st.integers(1, 10**6), min_size=1, max_size=6, unique=True),
       weights=st.lists(st.floats(1e-9, 1.0), min_size=6, max_size=6), logx=st.floats(-1.0, 14.0),
       constants=st.sampled_from(["paper", "unit"]))
def test_lower_bound_on_separated_atoms(dame_path, atoms, weights, logx, constants):
    w = weights[: len(atoms)]
    _check_lower({a: wi / sum(w) for a, wi in zip(atoms, w)}, 10.0**logx, constants)


@pytest.mark.slow
@settings(**SETTINGS)
@given(n_atoms=st.integers(20, 200), tail=st.floats(1.05, 3.0), logx=st.floats(0.0, 12.0),
       constants=st.sampled_from(["paper", "unit"]))
def test_lower_bound_on_heavy_tails(dame_path, n_atoms, tail, logx, constants):
    """Zipf-like masses on 1..N (every point an atom): many crossings of the branch and bound's tests."""
    raw = {a: a ** (-tail) for a in range(1, n_atoms + 1)}
    total = math.fsum(raw.values())
    masses = {a: p / total for a, p in raw.items()}
    _check_lower(masses, 10.0**logx, constants)


@settings(**SETTINGS)
@given(logx=st.floats(0.0, 10.0), gap=st.integers(1, 5), M=st.integers(2, 2000))
def test_lower_bound_where_its_first_reaching_point_decides(dame_path, logx, gap, M):
    """Masses put x S(a)² just past 1 at one atom: the maximum sits at a0 - 1 or a0 (step 1 of the search)."""
    x = 10.0**logx
    # S(a) = √a p at the first atom a: x a p² = 1 exactly at p = 1/√(x a), moved by a few ulps
    p = min(0.9, 1 / math.sqrt(x * M)) * (1 + gap * 1e-15)
    masses = {M: p, M + gap: 1 - p} if p < 1 else {M: 1.0}
    for constants in ("paper", "unit"):
        _check_lower(masses, x, constants)


# =========================================================================== T_eps (Theorem III.1)


def lemma_error(m, U, eps, T) -> Fraction:
    """Lemma III.1's worst-case error at the clipping with spread min(T, U m_l), exactly."""
    bias = sum(max((U * k - T) / 2, Fraction(0)) for k in m)
    return (bias + max(min(T, U * k) for k in m) / eps) / sum(m)


@settings(**SETTINGS)
@given(m=st.lists(st.integers(1, 30), min_size=1, max_size=12), r=st.integers(1, 15),
       nudge=st.sampled_from([Fraction(0), Fraction(1, 10**12), Fraction(-1, 10**12)]), U=st.integers(1, 9))
def test_threshold_is_the_rank_statistic_and_minimises_lemma_iii1(m, r, nudge, U):
    """ε = 2/r exactly or a hair off: T_eps is the ⌈2/ε⌉-th largest U m_l (0 beyond L) and minimises the error."""
    eps = Fraction(2, r) * (1 + nudge)
    rank = math.ceil(Fraction(2) / eps)
    ordered = sorted((U * k for k in m), reverse=True)
    expected = Fraction(0) if rank > len(m) else Fraction(ordered[rank - 1])
    T = rameshwar.threshold(m, U=U, eps=eps, exact=True)
    assert T == expected
    candidates = [Fraction(0)] + [Fraction(U * k) for k in m]
    assert lemma_error(m, U, eps, T) == min(lemma_error(m, U, eps, t) for t in candidates)
    assert rameshwar.optimal_error(m, U=U, eps=eps, exact=True) == lemma_error(m, U, eps, T)


# =========================================================================== T* (Cummings eq. (6), Kent eq. (25))


def eq6(T, s2, widths, eps, kappa=1.0):
    """Eq. (6)'s objective at T, in mpmath (denominator with T/σ_j)."""
    with mpmath.workdps(40):
        u = [1 / mpmath.sqrt(v) for v in s2]
        num = mpmath.fsum(min(ui * ui, T * T) for ui in u)
        num += kappa * max(min(ui**4, T * T * ui * ui) * w * w for ui, w in zip(u, widths)) / (eps * eps)
        den = mpmath.fsum(min(ui * ui, T * ui) for ui in u) ** 2
        return num / den


@pytest.mark.slow
@settings(**SETTINGS)
@given(s2=st.lists(st.floats(1e-4, 0.25), min_size=1, max_size=8), c=st.floats(0.5, 8.0), eps=st.floats(0.05, 20.0))
def test_optimal_truncation_beats_a_dense_scan(s2, c, eps):
    s2 = np.array(s2)
    widths = c * np.sqrt(s2)
    t = cummings.optimal_truncation(s2, widths, eps=eps)
    u = 1 / np.sqrt(s2)
    grid = np.unique(np.concatenate([u, np.geomspace(u.min() / 2, u.max() * 2, 400)]))
    scan = min(eq6(mpmath.mpf(float(g)), s2, widths, eps) for g in grid)
    at_t = eq6(mpmath.mpf(t.T), s2, widths, eps)
    assert float(at_t) == pytest.approx(t.variance, rel=1e-9)
    assert at_t <= scan * (1 + 1e-9)


@settings(**SETTINGS)
@given(n=st.integers(1, 10**6), T=st.integers(1, 10**9), k=st.integers(1, 10**6), side=st.sampled_from([-1e-12, 0.0, 1e-12]),
       d=st.integers(1, 5))
def test_kent_cap_against_the_largest_integer_below_exp(n, T, k, side, d):
    """T* = min(T, ⌊e^{nα²/(Kd)}⌋) with nα²/(Kd) set to log k (± a hair): x just above and below a threshold."""
    K = 1.0
    alpha = math.sqrt(math.log(k) * (1 + side) * K * d / n) if k > 1 else 1e-3
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(n) * mpmath.mpf(alpha) ** 2 / (K * d))
        expected = min(T, max(1, int(mpmath.floor(e))))
        if n * expected * alpha * alpha <= 1:
            return
    assert kent.estimator_cap(n=n, T=T, alpha=alpha, K=K, d=d)[0] == expected


# =========================================================================== k* (Cummings §5.2)


def k_star_scan(k, eps: Fraction) -> int:
    """argmin over every integer 1..max k + 2 of (k/ε² + Σ min(k_i, k)) / (Σ min(k_i, k))², exactly; smallest on ties."""
    best, arg = None, None
    for c in range(1, max(k) + 3):
        used = sum(min(ki, c) for ki in k)
        v = (Fraction(c) / (eps * eps) + used) / Fraction(used) ** 2
        if best is None or v < best:
            best, arg = v, c
    return arg


@settings(**SETTINGS)
@given(k=st.lists(st.integers(1, 60), min_size=1, max_size=10), eps=st.sampled_from(
    [Fraction(1, 10), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3), Fraction(10)]))
def test_k_star_against_every_integer(k, eps):
    assert cummings.k_star(k, eps=float(eps)) == k_star_scan(k, eps)


@pytest.mark.parametrize("k,eps", [([1, 3], 1.0), ([2, 2, 8], 0.5), ([1, 1, 1, 9], 1.0), ([4, 1], 2.0)])
def test_k_star_at_exact_ties_takes_the_smallest(k, eps):
    assert cummings.k_star(k, eps=eps) == k_star_scan(k, Fraction(eps))


# =========================================================================== values against their equations


@pytest.mark.parametrize("n,alpha", [(1000, 0.5), (50, 0.1), (10**6, 0.01)])
def test_kent_theorem1_against_its_equations_by_hand(n, alpha):
    """Eq. (8) with q = 2, c0 = c1 = 1, D = 2 and log N(δ) = log(2/δ), optimised over δ by hand.

    Lower: with L = log(2/δ), Φ(δ/2)(1 - A/L) = e^{-2L}(1 - A/L), A = nα² + log 2, is largest at
    2L² - 2AL - A = 0, L = (A + √(A² + 2A))/2.  Upper: δ² + 4 (2/δ) e^{-nα²} is smallest at
    δ³ = 4 e^{-nα²}.
    """
    r = kent.theorem1(lambda d: np.log(np.maximum(2.0 / d, 1.0)), n=n, alpha=alpha, diameter=2.0)
    with mpmath.workdps(40):
        x = mpmath.mpf(n) * mpmath.mpf(alpha) ** 2
        A = x + mpmath.log(2)
        L = (A + mpmath.sqrt(A * A + 2 * A)) / 2
        log_lower = -2 * L + mpmath.log(1 - A / L)
        d = mpmath.cbrt(4 * mpmath.exp(-x))
        log_upper = mpmath.log(d * d + 8 * mpmath.exp(-x) / d)
    assert r.log_lower == pytest.approx(float(log_lower), rel=1e-9)
    assert r.delta_lower == pytest.approx(float(2 * mpmath.exp(-L)), rel=1e-5)
    assert r.log_upper == pytest.approx(float(log_upper), rel=1e-9)
    assert r.delta_upper == pytest.approx(float(d), rel=1e-5)


def test_uniform_with_lo_above_one_against_its_definition(dame_path):
    """A rarely taken branch: uniform{lo..hi} with lo > 1, both bounds against the scans."""
    masses = {a: 1 / 9 for a in range(5, 14)}
    for x in (3.0, 50.0, 1e4, 1e9):
        for constants in ("paper", "unit"):
            law = sizes.uniform(5, 13)
            assert dame.m_tilde(law, n_alpha2=x, constants=constants) == m_tilde_scan(masses, x, _constants(constants))
            best, maximisers, _ = lower_bound_scan(masses, x, _constants(constants))
            lb = dame.lower_bound(law, n_alpha2=x, constants=constants)
            assert lb.log_value == pytest.approx(float(best), rel=1e-10, abs=1e-10)
