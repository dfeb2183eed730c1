"""Tests of bounds.rameshwar: Theorem III.1 against an LP solver, Lemma III.1 against datasets."""

import math
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bounds import rameshwar as rt

counts = st.lists(st.integers(1, 40), min_size=1, max_size=25)
# levels: generic floats, 2/eps integral (exact rationals), below 2/L, large
levels = st.one_of(
    st.floats(0.01, 10.0),
    st.integers(1, 60).map(lambda k: Fraction(2, k)),
    st.just(Fraction(1, 1000)),
)


# --------------------------------------------------------------------------- Theorem III.1 vs LP


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=counts, eps=levels, U=st.sampled_from([1.0, 65.0, 0.37]))
def test_optimal_error_equals_lp_optimum(m, eps, U):
    canonical = rt.optimal_error(m, U=U, eps=eps)
    for program in ("lemma", "8"):
        lp = rt.lp_optimum(m, U=U, eps=eps, program=program).value
        assert lp == pytest.approx(canonical, rel=1e-9, abs=1e-12), (
            f"Theorem III.1 refuted? m={m}, U={U}, eps={eps}: LP ({program}) {lp!r} vs T_eps rule {canonical!r}"
        )


def test_lp_with_ties_and_eps_below_2_over_L():
    m = [3, 3, 3, 1, 1]  # ties in U m
    for eps in (Fraction(2, 3), Fraction(1, 3), Fraction(2, 5), Fraction(1, 10)):
        assert rt.lp_optimum(m, U=2.0, eps=eps).value == pytest.approx(rt.optimal_error(m, U=2.0, eps=eps), rel=1e-9)
    # ε < 2/L: no clipping at all is optimal... for the sensitivity term, T = 0: every sample clipped to U/2
    assert rt.threshold(m, U=2.0, eps=Fraction(1, 10)) == 0.0
    assert rt.optimal_error(m, U=2.0, eps=Fraction(1, 10)) == pytest.approx(sum(m) * 1.0 / sum(m))


@settings(max_examples=100, deadline=None)
@given(m=counts, eps=st.lists(levels, min_size=2, max_size=6, unique=True))
def test_optimal_error_non_increasing_in_eps(m, eps):
    ordered = sorted(eps, key=float)
    values = [rt.optimal_error(m, U=65, eps=e, exact=True) for e in ordered]
    assert all(v1 >= v2 for v1, v2 in zip(values, values[1:])), (m, ordered, values)


@settings(max_examples=100, deadline=None)
@given(m=counts, eps=levels, seed=st.integers(0, 2**32 - 1))
def test_no_random_clipping_beats_theorem_iii_1(m, eps, seed):
    rng = np.random.default_rng(seed)
    best = rt.optimal_error(m, U=1.0, eps=eps)
    for _ in range(20):
        a = rng.uniform(0, 1, size=len(m))
        b = a + rng.uniform(0, 1, size=len(m)) * (1 - a)
        assert rt.worst_case_error(m, U=1.0, eps=eps, a=a, b=b) >= best - 1e-12


# --------------------------------------------------------------------------- thresholds


@given(m=counts, eps=levels)
def test_threshold_is_the_rank_th_largest(m, eps):
    k = math.ceil(2 / Fraction(eps))  # the rank, exactly
    expected = 0.0 if k > len(m) else 65.0 * sorted(m, reverse=True)[k - 1]
    assert rt.threshold(m, U=65, eps=eps) == expected


def test_threshold_integral_two_over_eps_is_not_perturbed():
    m = [5, 4, 3, 2, 1]
    assert rt.threshold(m, U=1, eps=Fraction(2, 3)) == 3.0  # rank exactly 3
    assert rt.threshold(m, U=1, eps=0.5) == 2.0  # 2/0.5 = 4 exactly in binary
    assert rt.threshold(m, U=1, eps=Fraction(2, 5)) == 1.0  # ε = 2/L: the smallest, not 0
    assert rt.threshold(m, U=1, eps=Fraction(2, 6)) == 0.0  # ε < 2/L


# --------------------------------------------------------------------------- Lemma III.1


def _clippings(rng, m, U, symmetric):
    total = sum(m)
    a = rng.uniform(0, U / 2 if symmetric else U, size=total)
    b = U - a if symmetric else a + rng.uniform(0, 1, size=total) * (U - a)
    return a, b


@settings(max_examples=60, deadline=None)
@given(m=counts, seed=st.integers(0, 2**32 - 1), symmetric=st.booleans())
def test_exact_bias_is_the_max_over_datasets(m, seed, symmetric):
    rng = np.random.default_rng(seed)
    U, total = 65.0, sum(m)
    a, b = _clippings(rng, m, U, symmetric)
    def gap(x):  # |f(D) - f̄(D)| for a dataset x, computed directly
        return abs(np.sum(x - np.clip(x, a, b))) / total

    exact = rt.worst_case_error(m, U=U, eps=1e300, a=a, b=b, bias="exact")  # ε huge: bias only
    lemma = rt.worst_case_error(m, U=U, eps=1e300, a=a, b=b)
    # the supremum is reached at the all-U dataset or approached as every sample tends to 0
    assert exact == pytest.approx(max(gap(np.full(total, U)), gap(np.full(total, 1e-300))), rel=1e-12)
    for _ in range(20):
        assert gap(rng.uniform(0, U, size=total)) <= exact * (1 + 1e-12)
    assert lemma >= exact * (1 - 1e-12)
    if symmetric:
        assert lemma == pytest.approx(exact, rel=1e-12)


def test_lemma_iii_1_overstates_the_bias_of_an_asymmetric_clipping():
    # one user per side: Σ max(a, U - b) = 1, but no dataset in (0, 1] reaches more than 1/2
    kw = dict(U=1.0, eps=1e300, a=[0.5, 0.0], b=[1.0, 0.5])
    assert rt.worst_case_error([1, 1], **kw) == 0.5  # (0.5 + 0.5) / 2
    assert rt.worst_case_error([1, 1], bias="exact", **kw) == 0.25  # max(0.5, 0.5) / 2
    x_hi, x_lo = np.array([1.0, 1.0]), np.array([1e-300, 1e-300])
    a, b = np.array(kw["a"]), np.array(kw["b"])
    assert abs(np.sum(x_hi - np.clip(x_hi, a, b))) / 2 == 0.25
    assert abs(np.sum(x_lo - np.clip(x_lo, a, b))) / 2 == pytest.approx(0.25)


@settings(max_examples=60, deadline=None)
@given(m=counts, eps=levels, seed=st.integers(0, 2**32 - 1))
def test_theorem_iii_1_also_minimises_the_exact_worst_case_error(m, eps, seed):
    rng = np.random.default_rng(seed)
    best = rt.optimal_error(m, U=1.0, eps=eps)
    assert rt.worst_case_error(m, U=1.0, eps=eps, bias="exact") == pytest.approx(best, rel=1e-12)
    for _ in range(20):
        a, b = _clippings(rng, m, 1.0, symmetric=False)
        assert rt.worst_case_error(m, U=1.0, eps=eps, a=a, b=b, bias="exact") >= best * (1 - 1e-12)


def test_per_sample_and_per_user_clipping_agree():
    m = [3, 1, 2]
    a, b = np.array([1.0, 0.5, 2.0]), np.array([9.0, 9.5, 8.0])
    per_user = rt.worst_case_error(m, U=10, eps=0.7, a=a, b=b)
    per_sample = rt.worst_case_error(m, U=10, eps=0.7, a=np.repeat(a, m), b=np.repeat(b, m))
    assert per_user == per_sample
    assert rt.worst_case_error(m, U=10, eps=0.7) == pytest.approx(rt.optimal_error(m, U=10, eps=0.7), rel=1e-12)


# --------------------------------------------------------------------------- eq. (12), sensitivities, collections


def test_eq12_as_printed_differs_from_the_canonical_value_on_the_geometric_collection():
    m = rt.geometric(6)
    for eps in (0.05, 0.5, 2.0):
        canonical, printed = rt.optimal_error(m, U=65, eps=eps), rt.eq12_as_printed(m, U=65, eps=eps)
        lp = rt.lp_optimum(m, U=65, eps=eps).value
        assert canonical == pytest.approx(lp, rel=1e-9)
        assert printed < 0.5 * canonical  # the printed formula is not the optimum
    # ε = 0.5: T = 65·16; canonical (1560 + 2·520 + 1040/0.5)/448; printed uses 2m_l and min_l
    assert rt.optimal_error(m, U=65, eps=0.5, exact=True) == Fraction(4680, 448)
    printed = (Fraction(3120, 128) + 2 * Fraction(1040, 64) + Fraction(65, 1) / Fraction(1, 2)) / 448
    assert rt.eq12_as_printed(m, U=65, eps=0.5, exact=True) == printed


def test_sensitivities_and_akmv_formulas():
    m = rt.geometric(6)
    s = rt.sensitivities(m, U=65, eps=0.5, T=1000.0)
    assert s["vanilla"] == pytest.approx(65 * 64 / 448)
    assert s["opt_wc"] == pytest.approx(1040 / 448)
    assert s["akmv"] == pytest.approx(1000 / 448)
    T = np.array([0.0, 1040.0, 4160.0])
    e = rt.akmv_worst_case_error(m, U=65, eps=0.5, T=T)
    manual = [(np.maximum(0, 65 * m - t).sum() + 2 * t / 0.5) / 448 for t in T]
    np.testing.assert_allclose(e, manual, rtol=1e-12)
    assert rt.akmv_rank(Fraction(1, 4)) == 4 and rt.akmv_rank(Fraction(1, 4), rule="after-fig1") == 8


def test_collections():
    m = rt.geometric(6)
    assert (len(m), int(m.sum()), int(m.max())) == (127, 448, 64)
    e = rt.extreme(101, 10)
    assert (len(e), int(e.sum()), int(e.max())) == (101, 110, 10)


def test_sample_generators_have_the_stated_laws():
    rng = np.random.default_rng(20261121)
    x = rt.samples(rt.geometric(6), U=65, kind="uniform", rng=rng, size=200).ravel()
    assert x.min() > 0 and x.max() <= 65
    se = 65 / math.sqrt(12) / math.sqrt(x.size)
    assert abs(x.mean() - 32.5) < 4 * se
    g = rt.samples(rt.extreme(101, 10), U=65, kind="gaussian", rng=rng, size=2000).ravel()
    # N(32.5, variance 65/4) barely feels the truncation at 0 and 65 (8 sd away)
    assert abs(g.mean() - 32.5) < 4 * math.sqrt(65 / 4 / g.size)
    assert abs(g.var() - 65 / 4) < 4 * (65 / 4) * math.sqrt(2 / g.size)
    assert g.min() > 0 and g.max() <= 65


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: rt.threshold([], U=1, eps=1), "non-empty"),
        (lambda: rt.threshold([1, 0], U=1, eps=1), "positive integers"),
        (lambda: rt.threshold([1, 2.5], U=1, eps=1), "positive integers"),
        (lambda: rt.threshold([1, 2], U=1, eps=0), "eps must be a positive"),
        (lambda: rt.threshold([1, 2], U=-1, eps=1), "U must be a positive"),
        (lambda: rt.threshold([1, 2], U=1, eps=float("nan")), "eps must be a positive"),
        (lambda: rt.worst_case_error([1, 2], U=1, eps=1, a=[0.5, 0.5], b=[0.2, 1]), "a <= b"),
        (lambda: rt.worst_case_error([1, 2], U=1, eps=1, a=[0, 0, 0, 0], b=[1, 1, 1, 1]), "one per user"),
        (lambda: rt.worst_case_error([1, 2], U=1, eps=1, a=[0, 0]), "both a and b"),
        (lambda: rt.lp_optimum([1, 2], U=1, eps=1, program="7"), "program"),
        (lambda: rt.worst_case_error([1, 2], U=1, eps=1, bias="average"), "bias"),
        (lambda: rt.samples([1], U=1, kind="cauchy", rng=0), "kind"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --------------------------------------------------------------------------- hostile input (issue: validation layer)


def test_sensitivities_do_not_wrap_at_int64():
    out = rt.sensitivities([2**62, 2**62], U=1, eps=1, T=2**62)
    assert out == {"vanilla": 0.5, "opt_wc": 0.5, "akmv": 0.5}  # U m* / Σm, each user's spread / Σm, T / Σm
    assert rt.worst_case_error([2**62], U=1, eps=1) == 0.5  # ε < 2/L: T_ε = 0, every sample clipped to U/2
    assert rt.optimal_error([2**62, 2**62, 2**62], U=1, eps=1) == pytest.approx(1 / 3)  # T = U·2**62: noise U/(3ε)


def test_worst_case_error_per_user_equals_per_sample():
    m = [3, 1, 2]
    a, b = [0.5, 0.0, 1.0], [4.0, 2.0, 3.0]
    for bias in ("lemma", "exact"):
        per_user = rt.worst_case_error(m, U=5, eps=0.7, a=a, b=b, bias=bias)
        per_sample = rt.worst_case_error(m, U=5, eps=0.7, a=np.repeat(a, m), b=np.repeat(b, m), bias=bias)
        assert per_user == pytest.approx(per_sample, rel=1e-14)


@pytest.mark.parametrize("U", [1e-250, 1e-6, 1e6, 1e250])
def test_lp_optimum_keeps_its_relative_accuracy_at_extreme_ranges(U):
    m = rt.geometric(4)
    expect = rt.optimal_error(m, U=U, eps=0.5)  # exact rationals, Theorem III.1
    assert rt.lp_optimum(m, U=U, eps=0.5).value == pytest.approx(expect, rel=1e-8)
    assert rt.lp_optimum(m, U=U, eps=0.5, program="8").value == pytest.approx(expect, rel=1e-8)


def test_solver_failures_and_sizes_are_clear_errors(monkeypatch):
    assert rt.lp_optimum([1, 4], U=1, eps=1e-300).value == pytest.approx(0.5)  # T_ε = 0: all clipped to U/2
    failed = lambda *a, **k: SimpleNamespace(status=4, x=np.array([np.nan]), fun=np.nan, message="numerical difficulties")
    monkeypatch.setattr("scipy.optimize.linprog", failed)
    with pytest.raises(ValueError, match="^the linear programme could not be solved at U = 1, eps = 0.5 .*numerical"):
        rt.lp_optimum([1, 4], U=1, eps=0.5)
    monkeypatch.undo()
    for f in (rt.lp_optimum, lambda m, **kw: rt.akmv_worst_case_error(m, T=[1.0, 2.0], **kw)):
        with pytest.raises(ValueError, match="^eps = 2e-310 is too small for the float64 path"):
            f([1, 4], U=1, eps=2e-310)
    with pytest.raises(ValueError, match="^the linear programme is limited to 20000 users"):
        rt.lp_optimum(np.ones(20_001, dtype=int), U=1, eps=1)
    with pytest.raises(ValueError, match=r"^U = 1e\+300 times the 5 samples exceeds the float64 range"):
        rt.threshold([1, 4], U=1e300, eps=1)
    with pytest.raises(ValueError, match=r"^M must be an integer in \[0, 22\]"):
        rt.geometric(40)
    with pytest.raises(ValueError, match="^size times the 1099511627776 samples of m exceeds"):
        rt.samples([2**40], U=1, kind="uniform", rng=0)


@pytest.mark.parametrize("name, kwargs", [
    ("U", {"U": True}), ("U", {"U": "65"}), ("eps", {"eps": np.bool_(True)}), ("eps", {"eps": math.nan}),
    ("eps", {"eps": "0.5"}), ("U", {"U": 10**400}),
])
def test_booleans_strings_and_huge_values_are_refused_naming_the_parameter(name, kwargs):
    args = {"U": 65, "eps": 0.5, **kwargs}
    for f in (rt.threshold, rt.clipping, rt.optimal_error, rt.worst_case_error, rt.lp_optimum, rt.sensitivities):
        with pytest.raises(ValueError, match=f"^{name} "):
            f([1, 4, 2], **args)


def test_exact_levels_accept_fractions_and_numpy_scalars():
    assert rt.threshold([1, 5, 3, 2], U=np.int64(10), eps=Fraction(2, 3), exact=True) == 20  # ⌈3⌉ = 3rd largest
    assert rt.akmv_rank(np.float64(0.25)) == 4 and rt.akmv_rank(Fraction(1, 3), rule="after-fig1") == 6
    assert rt.optimal_error([1, 4], U=10, eps=np.int64(1), exact=True) == 5


def test_akmv_error_beyond_float64_is_inf():
    assert rt.akmv_worst_case_error([1, 4, 2], U=10, eps=3.7e-308, T=10) == math.inf
    assert rt.akmv_worst_case_error([1, 4, 2], U=10, eps=3.7e-308, T=0) == 10.0  # T = 0: all clipped, bias U, no noise


def test_choices_and_generators_are_checked():
    with pytest.raises(ValueError, match="^program must be one of 'lemma', '8'"):
        rt.lp_optimum([1, 4], U=10, eps=1, program=8)
    with pytest.raises(ValueError, match="^bias must be one of"):
        rt.worst_case_error([1, 4], U=10, eps=1, bias="Lemma")
    with pytest.raises(ValueError, match="^rule must be one of"):
        rt.akmv_rank(0.5, rule=None)
    with pytest.raises(ValueError, match="^kind must be one of 'uniform', 'gaussian'"):
        rt.samples([1], U=1, kind="normal", rng=0)
    with pytest.raises(ValueError, match="^rng must be None, a non-negative integer"):
        rt.samples([1], U=1, kind="uniform", rng=3.0)
    with pytest.raises(ValueError, match="^T must be"):
        rt.akmv_worst_case_error([1, 4], U=10, eps=1, T=["1"])
    with pytest.raises(ValueError, match="^a must be"):
        rt.worst_case_error([1, 4], U=10, eps=1, a=["0", "0"], b=[10, 10])


def test_threshold_grid_at_eps_exactly_two_over_L():
    # Theorem III.1: T_eps = U m_(ceil(2/eps)), 0 if eps < 2/L. At eps = 2/L the rank is L: the smallest count,
    # by hand U * 1 = 10 here; just below 2/L, 0. The same at eps = 2/L for a one-user collection (eps = 2).
    grid = rt.threshold_grid([[1, 5, 3, 2], [4]], U=10, eps=[Fraction(1, 2), Fraction(2, 5), Fraction(2)])
    assert grid.tolist() == [[10.0, 0.0, 50.0], [0.0, 0.0, 40.0]]


def test_optimal_error_equals_lemma_iii_1_summed_user_by_user():
    """Lemma III.1 at T_eps, summed over the users one exact term each (the definition, written here), equals
    the closed sums of ``optimal_error`` exactly, ties at U m_l = T_eps included."""
    rng = np.random.default_rng(5)
    for _ in range(40):
        m = rng.integers(1, 30, size=rng.integers(1, 25))
        U, eps = Fraction(int(rng.integers(1, 9)), int(rng.integers(1, 4))), Fraction(int(rng.integers(1, 40)), 20)
        T = rt.threshold(m, U=U, eps=eps, exact=True)
        terms = [max((U * int(k) - T) / 2, Fraction(0)) for k in m]
        want = (sum(terms, Fraction(0)) + max(min(T, U * int(k)) for k in m) / eps) / int(m.sum())
        assert rt.optimal_error(m, U=U, eps=eps, exact=True) == want


def test_optimal_error_of_a_million_distinct_counts_is_cheap():
    import time

    t = time.process_time()
    v = rt.optimal_error(np.arange(1, 10**6 + 1), U=1.0, eps=1.0, exact=True)
    assert time.process_time() - t < 5.0  # the per-count Fraction sum took 12-19 s
    assert v > 0
