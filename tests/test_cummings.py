"""Tests of bounds.cummings: exact searches against brute force, Lemma 2.1 symbolically and exactly."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bounds import cummings as cm

# --------------------------------------------------------------------------- Lemma 2.1


def test_lemma_2_1_symbolic_derivation_matches_eq_2():
    p, s2, k = sp.symbols("p sigma_p2 k", positive=True)
    eq2 = (p - p**2) / k + (1 - 1 / k) * s2
    assert sp.simplify(cm.user_variance_symbolic() - eq2) == 0


@pytest.mark.parametrize("k", [1, 2, 7])
def test_lemma_2_1_exact_for_a_discrete_meta_distribution(k):
    # D on {1/5, 1/2, 9/10} with masses {1/4, 1/2, 1/4}; p̂ = Bin(k, p_i)/k, all in exact rationals
    support = [Fraction(1, 5), Fraction(1, 2), Fraction(9, 10)]
    mass = [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)]
    p = sum(m * q for m, q in zip(mass, support))
    s2 = sum(m * q * q for m, q in zip(mass, support)) - p * p
    first = second = Fraction(0)
    for m, q in zip(mass, support):
        for j in range(k + 1):
            pr = m * math.comb(k, j) * q**j * (1 - q) ** (k - j)
            first += pr * Fraction(j, k)
            second += pr * Fraction(j, k) ** 2
    exact_var = second - first * first
    assert first == p
    assert exact_var == p * (1 - p) / k + (1 - Fraction(1, k)) * s2  # Lemma 2.1, exactly
    assert cm.user_variance([k], p=float(p), sigma_p2=float(s2))[0] == pytest.approx(float(exact_var), rel=1e-14)
    assert s2 <= p * (1 - p)


def test_user_variance_validation():
    with pytest.raises(ValueError, match="p\\(1-p\\)"):
        cm.user_variance([3], p=0.5, sigma_p2=0.3)
    with pytest.raises(ValueError, match="p must be in"):
        cm.user_variance([3], p=1.5, sigma_p2=0.0)
    with pytest.raises(ValueError, match="positive integers"):
        cm.user_variance([0, 3], p=0.5, sigma_p2=0.0)
    with pytest.raises(ValueError, match="non-empty"):
        cm.user_variance([], p=0.5, sigma_p2=0.0)


# --------------------------------------------------------------------------- weights, variance


def test_weights_limits():
    s2 = np.array([0.01, 0.04, 0.25])
    np.testing.assert_allclose(cm.private_weights(s2, math.inf), cm.nonprivate_weights(s2), rtol=1e-12)
    u = 1 / np.sqrt(s2)
    np.testing.assert_allclose(cm.private_weights(s2, 1e-9), u / u.sum(), rtol=1e-12)


def test_ideal_variance_printed_and_exact_laplace_terms():
    s2, c = np.array([0.01, 0.04, 0.25]), np.array([0.2, 0.4, 1.0])
    w = cm.private_weights(s2, 6.0)
    stat, priv = float(np.sum(w * w * s2)), float(np.max(w * w * c * c)) / 0.5**2
    assert cm.ideal_variance(s2, c, eps=0.5, T=6.0) == pytest.approx(stat + priv, rel=1e-14)
    assert cm.ideal_variance(s2, c, eps=0.5, T=6.0, laplace="exact") == pytest.approx(stat + 2 * priv, rel=1e-14)
    with pytest.raises(ValueError, match="laplace"):
        cm.ideal_variance(s2, c, eps=0.5, T=6.0, laplace="gauss")


# --------------------------------------------------------------------------- T*


def _objective(s2, c, eps, T, kappa=1.0):
    """Eq. (6) evaluated directly on an array of T (with T/σ_j in the denominator)."""
    u = 1 / np.sqrt(s2)
    W = u[None, :] * np.minimum(u[None, :], np.asarray(T)[:, None])
    return ((W**2 * s2).sum(1) + kappa * (W**2 * c**2).max(1) / eps**2) / W.sum(1) ** 2


variances = st.lists(st.floats(1e-4, 0.25), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s2=variances, scale=st.floats(0.1, 10.0), eps=st.floats(0.05, 20.0), laplace=st.sampled_from(["printed", "exact"]))
def test_optimal_truncation_never_worse_than_a_grid_and_matches_it_locally(s2, scale, eps, laplace):
    s2 = np.asarray(s2)
    c = scale * np.sqrt(s2) * np.random.default_rng(len(s2)).uniform(0.5, 2.0, size=s2.size)
    kappa = 2.0 if laplace == "exact" else 1.0
    t = cm.optimal_truncation(s2, c, eps=eps, laplace=laplace)
    u = 1 / np.sqrt(s2)
    grid = np.concatenate([np.geomspace(u.min() / 100, u.max() * 100, 10**5), u])
    assert _objective(s2, c, eps, grid, kappa).min() >= t.variance * (1 - 1e-12)
    local = t.T * (1 + np.linspace(-1e-5, 1e-5, 10**5 + 1))
    assert _objective(s2, c, eps, local, kappa).min() == pytest.approx(t.variance, rel=1e-9)
    assert t.variance == pytest.approx(cm.ideal_variance(s2, c, eps=eps, T=t.T, laplace=laplace), rel=1e-12)


def test_optimal_truncation_near_the_float_range_warns_nothing():
    # at eps = 1e-152 a stationary point of eq. (6) lies past the float64 range: dropped silently, no warning
    k = [100, 50, 20, 5, 1]
    s2 = cm.user_variance(k, p=0.5, sigma_p2=0.01)
    widths = 2 * cm.concentration(k, p=0.5, sigma_p2=0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = cm.optimal_truncation(s2, widths, eps=1e-152)
    grid = np.geomspace(1 / math.sqrt(s2.max()), 1 / math.sqrt(s2.min()), 2001)
    with np.errstate(over="ignore"):
        best = min(cm.ideal_variance(s2, widths, eps=1e-152, T=T) for T in grid)
    assert math.isfinite(t.variance) and t.variance <= best * (1 + 1e-12)


@settings(max_examples=40, deadline=None)
@given(s2=st.lists(st.floats(1e-4, 0.25), min_size=1, max_size=12), counts=st.lists(st.integers(1, 6), min_size=12,
       max_size=12), eps=st.floats(0.05, 20.0))
def test_optimal_truncation_with_counts_equals_the_repeated_users(s2, counts, eps):
    s2 = np.asarray(s2)
    counts = np.asarray(counts[: s2.size])
    c = 3 * np.sqrt(s2) * np.random.default_rng(s2.size).uniform(0.5, 2.0, size=s2.size)
    grouped = cm.optimal_truncation(s2, c, eps=eps, counts=counts)
    full = cm.optimal_truncation(np.repeat(s2, counts), np.repeat(c, counts), eps=eps)
    assert grouped.T == pytest.approx(full.T, rel=1e-9) and grouped.variance == pytest.approx(full.variance, rel=1e-12)
    np.testing.assert_allclose(np.repeat(grouped.weights, counts), full.weights, rtol=1e-9)
    assert math.fsum(grouped.weights * counts) == pytest.approx(1.0, rel=1e-14)


def test_optimal_truncation_input_validation():
    with pytest.raises(ValueError, match="sigma2"):
        cm.optimal_truncation([0.0, 0.1], [1, 1], eps=1)
    with pytest.raises(ValueError, match="widths"):
        cm.optimal_truncation([0.1, 0.1], [1], eps=1)
    with pytest.raises(ValueError, match="eps"):
        cm.optimal_truncation([0.1], [1], eps=0)
    with pytest.raises(ValueError, match="counts"):
        cm.optimal_truncation([0.1, 0.2], [1, 1], eps=1, counts=[1])
    with pytest.raises(ValueError, match="counts"):
        cm.optimal_truncation([0.1, 0.2], [1, 1], eps=1, counts=[1, 0])


# --------------------------------------------------------------------------- k*, Corollary 5.5


def _g(k, kk, eps):
    used = np.minimum(kk, k).sum()
    return (k / eps**2 + used) / used**2


@settings(max_examples=150, deadline=None)
@given(k=st.lists(st.integers(1, 300), min_size=1, max_size=40), eps=st.floats(0.01, 50.0))
def test_k_star_equals_brute_force_scan(k, eps):
    kk = np.asarray(k)
    values = np.array([_g(v, kk, eps) for v in range(1, kk.max() + 1)])
    best = values.min()
    got = cm.k_star(k, eps=eps)
    assert values[got - 1] <= best * (1 + 1e-12)
    # the smallest scan minimiser, up to float ties
    assert got == int(np.flatnonzero(values <= best * (1 + 1e-12))[0]) + 1


def test_corollary_5_5_as_stated():
    k = [40, 10, 10, 3, 1]
    lb = cm.lower_bound(k, eps=0.5, sigma_p2=0.02)
    ks = lb.k_star
    first = (ks / 0.25 + sum(min(v, ks) for v in k)) / sum(min(v, math.sqrt(v * ks)) for v in k) ** 2
    assert lb.privacy_term == pytest.approx(first, rel=1e-14)
    assert lb.statistical_term == pytest.approx(0.02 / 5)
    assert lb.value == min(first, 0.02 / 5)
    # σ_p = 0: the bound as stated collapses to 0 (the audit item)
    zero = cm.lower_bound(k, eps=0.5, sigma_p2=0.0)
    assert zero.value == 0.0 and zero.privacy_term == pytest.approx(first)
    with pytest.raises(ValueError, match="eps"):
        cm.k_star(k, eps=0)
    with pytest.raises(ValueError, match="sigma_p2"):
        cm.lower_bound(k, eps=1, sigma_p2=-1)


# --------------------------------------------------------------------------- Example 1, Algorithm 2


def test_example1_quantities_against_direct_computation():
    n, eps = 64, 1.0
    ex = cm.example1(n, eps=eps)
    k = np.array([math.ceil(n / i) for i in range(1, n + 1)])
    s2 = 0.25 / k + (1 - 1 / k) / n
    assert ex.nonprivate_sd == pytest.approx(1 / math.sqrt(np.sum(1 / s2)), rel=1e-14)
    assert ex.naive_privacy_error == pytest.approx(k.max() / k.sum() / eps, rel=1e-14)
    best_uniform = min(math.sqrt(s2[:m].sum()) / m for m in range(1, n + 1))
    assert ex.uniform_sd == pytest.approx(best_uniform, rel=1e-12)
    widths = 2 * np.sqrt(s2 * 2 * math.log(2 * n / 0.05))
    grid = np.geomspace(0.1, 1e3, 200001)
    T = grid[_objective(s2, widths, eps, grid).argmin()]
    w = cm.private_weights(s2, T)
    assert ex.truncation_privacy_error == pytest.approx(float(np.max(w * widths)) / eps, rel=1e-3)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 17, 99, 100, 101, 9999, 10**4, 10**4 + 1, 2**16 + 3])
def test_example1_groups_are_the_distinct_counts(n):
    values, mult = cm.example1_groups(n)
    u, c = np.unique(cm.example1_counts(n), return_counts=True)
    assert values.tolist() == u[::-1].tolist() and mult.tolist() == c[::-1].tolist()


def _divisor_sum(m: int) -> int:
    """Σ_{i <= m} ⌊m/i⌋ by the hyperbola method: 2 Σ_{i <= √m} ⌊m/i⌋ − ⌊√m⌋²."""
    r = math.isqrt(m)
    return 2 * sum(m // i for i in range(1, r + 1)) - r * r


def test_example1_grouped_against_per_user_sums():
    n = 2**20 + 7
    ex = cm.example1(n)
    k = cm.example1_counts(n).astype(float)
    s2 = 0.25 / k + (1 - 1 / k) / n
    assert ex.nonprivate_sd == pytest.approx(1 / math.sqrt(math.fsum(1 / s2)), rel=1e-13)
    assert ex.uniform_sd == pytest.approx(float(np.min(np.sqrt(np.cumsum(s2)) / np.arange(1, n + 1))), rel=1e-10)
    widths = 2 * np.sqrt(s2 * 2 * math.log(2 * n / 0.05))
    t = cm.optimal_truncation(s2, widths, eps=1.0)  # one entry per user
    assert ex.T_star == pytest.approx(t.T, rel=1e-12)
    assert ex.truncation_privacy_error == pytest.approx(float(np.max(t.weights * widths)), rel=1e-12)
    # Σ_i ⌈n/i⌉ = n + Σ_i ⌊(n−1)/i⌋, at n = 2^40 as well (integers, no float)
    for m in (n, 2**40):
        assert cm.example1(m).naive_privacy_error == pytest.approx(m / (m + _divisor_sum(m - 1)), rel=1e-12)


@settings(max_examples=80, deadline=None)
@given(groups=st.lists(st.tuples(st.floats(1e-6, 1.0), st.integers(1, 8)), min_size=1, max_size=15))
def test_best_uniform_sd_over_groups_equals_the_scan_over_users(groups):
    s2, mult = (np.array(v) for v in zip(*groups))
    per_user = np.repeat(s2, mult)
    scan = float(np.min(np.sqrt(np.cumsum(per_user)) / np.arange(1, per_user.size + 1)))
    assert cm._best_uniform_sd(s2, mult) == pytest.approx(scan, rel=1e-12)


def test_example1_input_validation():
    for bad in (True, 1, 2**70, 2.5, "8", float("nan")):
        with pytest.raises(ValueError, match="^n "):
            cm.example1(bad)
    with pytest.raises(ValueError, match="sigma_p2"):  # σ_p² = 1/n must not exceed p(1 − p)
        cm.example1(3)
    assert cm.example1(2**40).groups == 2 * 2**20 - 1


def test_example1_orders_of_magnitude():
    small, large = cm.example1(2**8), cm.example1(2**14)
    for ex in (small, large):
        assert ex.uniform_sd > ex.nonprivate_sd
    # Θ(1/√(n log n)) and Ω(1/√n): the normalised quantities stay within a factor 2 over 2^8..2^14
    for f in (lambda e: e.nonprivate_sd * math.sqrt(e.n * math.log(e.n)), lambda e: e.uniform_sd * math.sqrt(e.n)):
        assert 0.5 < f(large) / f(small) < 2


def test_realisable_plan_pieces():
    k = np.array([2**j for j in range(12, 0, -1)] * 3)
    plan = cm.realisable_plan(k, p_initial=0.4, sigma_p2_hat=0.01, tolerance=0.02, eps=1.0)
    groups = np.concatenate([plan.variance_group, plan.final_group, plan.mean_group])
    assert sorted(groups.tolist()) == list(range(k.size))
    assert len(plan.variance_group) == math.ceil(math.log(k.size)) and len(plan.mean_group) == k.size // 10
    assert k[plan.variance_group].min() >= k[plan.final_group].max() >= k[plan.mean_group].max()
    kf = k[plan.final_group]
    np.testing.assert_allclose(plan.sigma2_hat, 0.24 / kf + (1 - 1 / kf) * 0.01, rtol=1e-14)
    np.testing.assert_allclose(plan.b_hat - plan.a_hat, 2 * (0.02 + cm.concentration(kf, p=0.4, sigma_p2=0.01, n=k.size)))
    assert plan.weights.sum() == pytest.approx(1.0)
    assert plan.Lambda == pytest.approx(float(np.max(plan.weights * (plan.b_hat - plan.a_hat))))
    with pytest.raises(ValueError, match="at least 3"):
        cm.realisable_plan([3, 2], p_initial=0.4, sigma_p2_hat=0.01, tolerance=0.0, eps=1.0)


# --------------------------------------------------------------------------- hostile input (issue: validation layer)


def _k_star_exact(k, eps):
    """k* by exact rational arithmetic over every integer candidate in [1, max k] (small cases) or the distinct k_i."""
    e2 = Fraction(eps) ** 2
    best = None
    for c in sorted(set(k)):
        used = sum(min(ki, c) for ki in k)
        val = (Fraction(c) / e2 + used) / Fraction(used) ** 2
        if best is None or val < best[0]:
            best = (val, c)
    return best[1]


def test_k_star_refuses_counts_beyond_int64_instead_of_wrapping():
    with pytest.raises(ValueError, match=r"sample counts k must hold positive integers up to 2\*\*63 - 1.*1e\+308"):
        cm.k_star([1e308, 5, 1], eps=1.0)


@pytest.mark.parametrize("k", [[2**62, 2**62, 3], [2**62, 2**61, 2**40, 1], [2**63 - 1, 2**63 - 1, 2**63 - 1, 5],
                               [2**63 - 1, 2**62 + 5, 100, 2, 2**63 - 1]])
@pytest.mark.parametrize("eps", [1e-3, 1.0, 1e3])
def test_k_star_is_exact_where_int64_sums_wrap(k, eps):
    assert cm.k_star(k, eps=eps) == _k_star_exact(k, eps)
    lb = cm.lower_bound(k, eps=eps, sigma_p2=0.01)
    assert math.isfinite(lb.privacy_term) and lb.privacy_term > 0


def test_real_parameters_accept_fractions_and_numpy_scalars():
    ref = cm.user_variance([1, 4], p=0.5, sigma_p2=0.05)
    assert cm.user_variance([1, 4], p=Fraction(1, 2), sigma_p2=Fraction(1, 20)).tolist() == ref.tolist()
    assert cm.user_variance(np.array([1, 4]), p=np.float64(0.5), sigma_p2=np.float32(0.05)).tolist() == pytest.approx(ref)
    assert cm.user_variance([1, 4], p=np.int64(0), sigma_p2=np.int64(0)).tolist() == [0.0, 0.0]
    assert cm.k_star(np.array([10, 10, 10], dtype=np.int32), eps=np.int64(100)) == 10
    assert cm.example1_counts(np.int64(5)).tolist() == [5, 3, 2, 2, 1]


@pytest.mark.parametrize("bad", [True, "0.5", None, math.nan, [0.5], complex(0.5, 0)])
def test_booleans_strings_and_nan_are_refused_naming_the_parameter(bad):
    with pytest.raises(ValueError, match=r"^p must be in \[0, 1\]"):
        cm.user_variance([3], p=bad, sigma_p2=0.0)
    with pytest.raises(ValueError, match=r"^sigma_p2 must be"):
        cm.lower_bound([3, 2], eps=1.0, sigma_p2=bad)
    with pytest.raises(ValueError, match=r"^eps must be"):
        cm.k_star([3, 2], eps=bad)


@pytest.mark.parametrize("k", [[True, 2], ["3", "2"], [], [[3, 2]], [1.5, 2], [0, 2], "32"])
def test_counts_are_refused_naming_k(k):
    with pytest.raises(ValueError, match="^sample counts k must"):
        cm.k_star(k, eps=1.0)


def test_arrays_and_choices_are_checked():
    with pytest.raises(ValueError, match="^sigma2 must hold finite real numbers"):
        cm.nonprivate_weights([1.0, math.inf])
    with pytest.raises(ValueError, match=r"^sigma2 must hold variances in \[1e-60, 1e\+60\]"):
        cm.optimal_truncation([1e-308, 1.0], [1.0, 1.0], eps=1.0)
    with pytest.raises(ValueError, match="^widths must hold one width per user"):
        cm.ideal_variance([1.0, 1.0], [1.0], eps=1.0, T=1.0)
    with pytest.raises(ValueError, match="^laplace must be one of 'printed', 'exact'"):
        cm.ideal_variance([1.0], [1.0], eps=1.0, T=1.0, laplace="Printed")
    with pytest.raises(ValueError, match=r"^beta must be in \(0, 1\)"):
        cm.concentration([3], p=0.5, sigma_p2=0.0, beta=1)
    with pytest.raises(ValueError, match=r"^n must be an integer in \[2, 2\*\*44\]"):
        cm.example1(10**400)
    with pytest.raises(ValueError, match="^eps = 1e-200 is too small"):
        cm.optimal_truncation([1.0, 0.25], [1.0, 1.0], eps=1e-200)
    with pytest.raises(ValueError, match="^k holds 2 users"):
        cm.groups([3, 2])
    with pytest.raises(ValueError, match="^p_initial = 0.0 and sigma_p2_hat = 0.0 give user variances below"):
        cm.realisable_plan(list(range(1, 40)), p_initial=0.0, sigma_p2_hat=0.0, tolerance=0.5, eps=1.0)
    with pytest.raises(ValueError, match=r"^tolerance must be in \[0, 1e\+06\]"):
        cm.realisable_plan(list(range(1, 40)), p_initial=0.5, sigma_p2_hat=0.01, tolerance=1e202, eps=1.0)


def test_extreme_levels_give_finite_or_documented_infinite_values():
    assert cm.lower_bound([4, 1], eps=1e-300, sigma_p2=0.01).privacy_term == math.inf  # 1/ε² beyond float64
    assert cm.lower_bound([4, 1], eps=1e300, sigma_p2=0.0).privacy_term == pytest.approx(1 / 5)  # k* = 4: 5 / (4 + 1)²
    assert cm.k_star([4, 1], eps=1e-300) == cm.k_star([4, 1], eps=1e-100)  # the ε → 0 argmin
    assert math.log(cm.concentration([4], p=0.5, sigma_p2=0.0, n=10**400)[0] ** 2 / (2 * 0.0625)) == pytest.approx(
        math.log(math.log(2) + 400 * math.log(10) - math.log(0.05)), rel=1e-12)  # n beyond float64 inside log(2n/β)


@pytest.mark.parametrize("eps, kk", [
    (0.5, [1, 1, 1, 3]), (0.5, [1] * 18 + [6, 6]), (0.5, [2] * 10 + [5, 5]), (0.5, [7, 7, 10]), (0.5, [5] * 33 + [11] * 3),
])
def test_k_star_on_exact_ties_is_the_smallest_minimiser(eps, kk):
    # exact rational objectives (k/eps^2 + S(k)) / S(k)^2 over k = 1..max: two minimisers tie exactly here
    # (found by an exact search), and the docstring's rule takes the smallest
    def f(k):
        s = sum(min(ki, k) for ki in kk)
        return (Fraction(k) / Fraction(eps) ** 2 + s) / Fraction(s) ** 2

    vals = {k: f(k) for k in range(1, max(kk) + 1)}
    best = min(vals.values())
    minimisers = [k for k, v in vals.items() if v == best]
    assert len(minimisers) == 2  # a genuine tie
    assert cm.k_star(kk, eps=eps) == minimisers[0]


def test_optimal_truncation_of_identical_users_is_the_smallest_candidate():
    # every T gives equal weights 1/3 (min(1/s^2, T/s) is the same for all three users), so eq. (6) is flat in T:
    # the stated rule takes the smallest candidate, min_i 1/s_i = 5. Variance by hand: 3 (1/3)^2 0.04 + (0.8/3)^2.
    s2 = np.full(3, 0.04)
    t = cm.optimal_truncation(s2, 4 * np.sqrt(s2), eps=1.0)
    assert t.T == 5.0
    assert t.variance == pytest.approx(0.04 / 3 + 0.64 / 9, rel=1e-14)


def test_optimal_truncation_near_tie_takes_the_smaller_candidate():
    # u = (1, 2), widths (1e-9, 1e-4), lambda = 1: on [split, u2] eq. (6) is (1 + (1 + a) T^2)/(1 + 2T)^2 with
    # a = u2^2 c2^2 = 4e-8; its derivative vanishes at T0 = u2/(1 + a) (by hand), just below the breakpoint u2 = 2.
    # The values at T0 and at 2 differ by about 1e-16 relative: within the stated 1e-13 the smaller T0 is taken.
    t = cm.optimal_truncation(np.array([1.0, 0.25]), np.array([1e-9, 1e-4]), eps=1.0)
    assert t.T == pytest.approx(2 / (1 + 4e-8), rel=1e-12) and t.T < 2
