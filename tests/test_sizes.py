"""Tests of bounds.sizes: exact functionals of dataset-size laws."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from bounds import sizes

from . import reference as ref

# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: sizes.finite({1: 0.5, 2: -0.1, 3: 0.6}), "mass at 2 is -0.1"),
        (lambda: sizes.finite({1: float("nan"), 2: 1.0}), "mass at 1 is nan"),
        (lambda: sizes.finite({1: 0.5, 2: 0.4}), "sum to 0.9"),
        (lambda: sizes.finite({0: 0.5, 2: 0.5}), "support contains 0"),
        (lambda: sizes.finite({-3: 0.5, 2: 0.5}), "support contains -3"),
        (lambda: sizes.finite({1.5: 1.0}), "positive integers"),
        (lambda: sizes.finite({}), "at least one"),
        (lambda: sizes.zipf(1.5), "infinite mean"),
        (lambda: sizes.zipf(2.0), "infinite mean"),
        (lambda: sizes.poisson(0), "lam must be a positive"),
        (lambda: sizes.poisson(float("nan")), "lam must be a positive"),
        (lambda: sizes.binomial(10, 1.5), "p must be in"),
        (lambda: sizes.binomial(0, 0.5), "N must be an integer"),
        (lambda: sizes.geometric(0), "p must be a positive"),
        (lambda: sizes.uniform(5, 2), "hi must be an integer >= 5"),
        (lambda: sizes.uniform(0, 2), "lo must be an integer >= 1"),
        (lambda: sizes.point(0), "m must be an integer >= 1"),
        (lambda: sizes.empirical([1, 0, 3]), "support contains 0"),
        (lambda: sizes.empirical([1, 2.5]), "positive integers"),
        (lambda: sizes.empirical([]), "non-empty"),
        (lambda: sizes.from_scipy(stats.poisson(3)), "support contains values <= 0"),
        (lambda: sizes.from_scipy(stats.zipf(2.5)), "no finite moment"),
        (lambda: sizes.from_scipy(stats.zipf(1.5)), "infinite mean"),
        (lambda: sizes.poisson(3, zero="drop"), "zero must be"),
        (lambda: sizes.parse("cauchy:1"), "unknown size law"),
    ],
)
def test_bad_input_raises_value_error_naming_the_problem(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_query_rejects_non_integer_a():
    with pytest.raises(ValueError, match="integer"):
        sizes.point(3).prob_ge(1.5)
    with pytest.raises(ValueError, match="integer"):
        sizes.point(3).prob_ge(float("nan"))
    with pytest.raises(ValueError, match="precision"):
        sizes.point(3).prob_ge(1, precision=0)


# --------------------------------------------------------------------------- closed forms


@pytest.mark.parametrize("m", [1, 7, 100])
def test_point_mass_closed_forms(m):
    law = sizes.point(m)
    a = np.arange(0, 2 * m + 2)
    np.testing.assert_array_equal(law.prob_ge(a), (a <= m).astype(float))
    np.testing.assert_array_equal(law.prob_gt(a), (a < m).astype(float))
    np.testing.assert_allclose(law.sqrt_min_mean(a), np.sqrt(np.minimum(a, m)), rtol=1e-12)
    np.testing.assert_allclose(law.partial_sqrt_mean(a), np.where(a >= m, math.sqrt(m), 0.0), rtol=1e-12)
    assert float(law.mean()) == m


def test_geometric_closed_forms_including_1e_minus_300_tails():
    p = 0.5
    law = sizes.geometric(p)
    a = np.array([0, 1, 10, 500, 990, 1020])
    # P(m > a) = (1 - p)^a  (990: 2^-990 ≈ 1e-298)
    np.testing.assert_allclose(law.log_prob_gt(a), a * math.log(1 - p), rtol=1e-13)
    np.testing.assert_allclose(law.log_prob_ge(a + 1), a * math.log(1 - p), rtol=1e-13)
    # E[sqrt(m ∧ a)] = Σ_{k=1}^{a} (√k − √(k−1)) P(m >= k): a second formula
    for aa in [1, 2, 5, 40]:
        k = np.arange(1, aa + 1)
        expect = math.fsum((np.sqrt(k) - np.sqrt(k - 1)) * (1 - p) ** (k - 1))
        assert float(law.sqrt_min_mean(aa)) == pytest.approx(expect, rel=1e-14)


def test_two_point_law_functionals():
    law = sizes.finite({1: Fraction(3, 4), 16: Fraction(1, 4)})
    assert float(law.sqrt_mean()) == pytest.approx(0.75 + 0.25 * 4, rel=1e-12)
    assert law.sqrt_min_mean(4).tolist() == pytest.approx(0.75 + 0.25 * 2, rel=1e-12)
    assert law.partial_sqrt_mean([0, 1, 15, 16]).tolist() == pytest.approx([0, 0.75, 0.75, 1.75])
    assert float(law.mean()) == pytest.approx(0.75 + 4, rel=1e-12)


def test_zero_truncated_poisson_against_direct_sums():
    lam = 7.5
    law = sizes.poisson(lam)
    masses = ref.masses_poisson_truncated(lam, 200)
    r = ref.Law(masses)
    for a in [0, 1, 3, 7, 15, 30]:
        assert float(law.prob_gt(a)) == pytest.approx(float(r.gt(a)), rel=1e-13)
        assert float(law.sqrt_min_mean(a)) == pytest.approx(float(r.sqrt_min(a)), rel=1e-13)
        assert float(law.partial_sqrt_mean(a)) == pytest.approx(float(r.partial_sqrt(a)), rel=1e-12)
    assert float(law.mean()) == pytest.approx(lam / (1 - math.exp(-lam)), rel=1e-14)


def test_poisson_shift_and_from_scipy_agree_with_poisson():
    law = sizes.poisson(3.0)
    wrapped = sizes.from_scipy(stats.poisson(3.0), zero="truncate")
    a = np.arange(0, 30)
    np.testing.assert_allclose(wrapped.prob_gt(a), law.prob_gt(a), rtol=1e-13)
    np.testing.assert_allclose(wrapped.sqrt_min_mean(a), law.sqrt_min_mean(a), rtol=1e-13)
    shifted = sizes.poisson(3.0, zero="shift")
    np.testing.assert_allclose(shifted.pmf(a + 1), stats.poisson(3.0).pmf(a), rtol=1e-13)


def test_binomial_truncated_against_direct_sums():
    law = sizes.binomial(40, 0.1)
    r = ref.Law(ref.masses_binomial_truncated(40, 0.1))
    for a in [0, 1, 2, 4, 10, 40]:
        assert float(law.prob_ge(a)) == pytest.approx(float(r.ge(a)), rel=1e-13)
        assert float(law.sqrt_min_mean(a)) == pytest.approx(float(r.sqrt_min(a)), rel=1e-13)


def test_zipf_closed_forms_against_direct_sums():
    s = 3.5
    law = sizes.zipf(s)
    with mpmath.workdps(40):
        z = mpmath.zeta(s)
        for a in [1, 2, 10, 100, 5000]:
            gt = 1 - mpmath.fsum(mpmath.mpf(k) ** -s for k in range(1, a + 1)) / z
            ps = mpmath.fsum(mpmath.mpf(k) ** (0.5 - s) for k in range(1, a + 1)) / z
            assert float(law.prob_gt(a)) == pytest.approx(float(gt), rel=1e-12)
            assert float(law.partial_sqrt_mean(a)) == pytest.approx(float(ps), rel=1e-12)
        assert float(law.mean()) == pytest.approx(float(mpmath.zeta(s - 1) / z), rel=1e-14)


def test_deep_cdf_has_no_cancellation():
    # truncated Poisson(1000): P(m = 1) = 1000 e^-1000 / (1 - e^-1000) ≈ 5e-432
    law = sizes.poisson(1000)
    with mpmath.workdps(30):
        p1 = 1000 * mpmath.exp(-1000)
        expected = mpmath.log1p(-p1)
    got = law.log_prob_ge(2, precision=30)[()]
    assert abs(got - expected) < abs(expected) * mpmath.mpf("1e-25")
    assert float(law.log_prob_ge(2)) <= 0.0
    with mpmath.workdps(30):  # e^-1000 1000^1000 / 1000! (the truncation factor is 1 to 1e-434)
        mode = mpmath.exp(1000 * mpmath.log(1000) - 1000 - mpmath.loggamma(1001))
    assert float(law.pmf(1)) == 0.0 and float(law.pmf(1000)) == pytest.approx(float(mode), rel=1e-13)


def test_shapes_and_vectorisation():
    law = sizes.uniform(1, 9)
    assert law.prob_ge(3).shape == ()
    assert law.prob_ge([[1, 2], [3, 4]]).shape == (2, 2)
    assert law.prob_ge([1, 2], precision=20).dtype == object
    assert law.support_points().tolist() == list(range(1, 10))


def test_empirical_masses_are_exact_frequencies():
    law = sizes.empirical([3, 1, 3, 3])
    assert law.pmf([1, 3], precision=30).tolist() == [mpmath.mpf(1) / 4, mpmath.mpf(3) / 4]


def test_parse_specs():
    assert repr(sizes.parse("poisson:5")) == "poisson(lam=5.0, zero='truncate')"
    assert float(sizes.parse("finite:1=0.5,100=0.5").mean()) == 50.5
    assert float(sizes.parse("binomial:1000,0.005").mean()) == pytest.approx(5 / (1 - 0.995**1000))
    assert sizes.parse("empirical:1,1,2").pmf(1).tolist() == pytest.approx(2 / 3)


def test_infinite_table_tail_is_below_its_tolerance():
    # the neglected functional is bounded by a closed form: check the cut actually honours it
    law = sizes.poisson(3)
    K = law._float_table.end
    z = 1 - math.exp(-3)
    tail = sum(math.sqrt(k) * math.exp(k * math.log(3) - 3 - math.lgamma(k + 1)) / z for k in range(K + 1, K + 200))
    assert tail <= sizes.FLOAT_TOL
    assert K < 100


# --------------------------------------------------------------------------- float vs mpmath


def law_strategy(max_support=400):
    finite_laws = st.dictionaries(
        st.integers(1, max_support), st.integers(1, 10**6), min_size=1, max_size=12
    ).map(lambda d: sizes.finite({k: Fraction(v, sum(d.values())) for k, v in d.items()}))
    tiny_tail = st.tuples(st.integers(2, max_support), st.integers(250, 300)).map(
        lambda t: sizes.finite({1: 1 - Fraction(1, 10 ** t[1]), t[0]: Fraction(1, 10 ** t[1])})
    )
    return st.one_of(
        finite_laws,
        tiny_tail,
        st.floats(0.01, 800).map(sizes.poisson),
        st.floats(0.02, 1.0).map(sizes.geometric),
        st.tuples(st.integers(1, 300), st.floats(0.001, 1.0)).map(lambda t: sizes.binomial(*t)),
        st.tuples(st.integers(1, 50), st.integers(0, 300)).map(lambda t: sizes.uniform(t[0], t[0] + t[1])),
        st.floats(4.0, 8.0).map(sizes.zipf),
    )


def _close(f, m, rtol):
    m = float(m)
    if math.isinf(m) or math.isinf(f):
        return f == m
    return abs(f - m) <= rtol * max(abs(m), 1e-300) or abs(f - m) < 1e-300


@settings(max_examples=40, deadline=None)
@given(law=law_strategy(), a=st.lists(st.integers(-2, 2000), min_size=1, max_size=6))
def test_float_and_mpmath_paths_agree(law, a):
    for q in ("log_prob_ge", "log_prob_gt", "log_partial_sqrt_mean", "log_sqrt_min_mean"):
        f = getattr(law, q)(a)
        m = getattr(law, q)(a, precision=30)
        for fi, mi in zip(np.atleast_1d(f), np.atleast_1d(m)):
            # log-values: compare in absolute terms scaled by magnitude (1e-10 relative in the value)
            assert _close(float(fi), mi, 1e-10) or abs(float(fi) - float(mi)) < 1e-10, (law, q, a)
    assert float(law.mean()) == pytest.approx(float(law.mean(precision=30)), rel=1e-12)


@pytest.mark.parametrize(
    "law",
    [sizes.poisson(2.0), sizes.poisson(0.3), sizes.binomial(20, 0.1), sizes.geometric(0.3), sizes.zipf(3.5),
     sizes.finite({1: 0.2, 5: 0.5, 9: 0.3}), sizes.poisson(3.0, zero="shift"),
     sizes.from_scipy(__import__("scipy").stats.nbinom(3, 0.5), zero="truncate")],
)
def test_samplers_have_the_law(law):
    # chi-square goodness of fit against the exact pmf, fixed seed, cells pooled to expected >= 20
    rng = np.random.default_rng(12345)
    n = 20000
    draws = law.sample(n, rng)
    assert draws.min() >= 1
    top = int(np.quantile(draws, 0.999))
    k = np.arange(1, top + 1)
    expected = n * law.pmf(k)
    observed = np.array([np.sum(draws == v) for v in k], dtype=float)
    tail_e, tail_o = n - expected.sum(), n - observed.sum()
    cells_e, cells_o, acc_e, acc_o = [], [], 0.0, 0.0
    for e, o in zip(expected, observed):
        acc_e, acc_o = acc_e + e, acc_o + o
        if acc_e >= 20:
            cells_e.append(acc_e), cells_o.append(acc_o)
            acc_e = acc_o = 0.0
    cells_e.append(acc_e + tail_e), cells_o.append(acc_o + tail_o)
    from scipy import stats

    chi2 = float(np.sum((np.array(cells_o) - np.array(cells_e)) ** 2 / np.maximum(cells_e, 1e-12)))
    assert stats.chi2.sf(chi2, len(cells_e) - 1) > 1e-4, (law, chi2, len(cells_e))


# --------------------------------------------------------------------------- wide laws


def _brute_functionals(points, masses, a):
    """P(m > a), P(m >= a), E[sqrt(m) 1{m <= a}] by mpmath sums over an explicit support."""
    with mpmath.workdps(40):
        gt = mpmath.fsum(w for p, w in zip(points, masses) if p > a)
        ge = mpmath.fsum(w for p, w in zip(points, masses) if p >= a)
        ps = mpmath.fsum(mpmath.sqrt(p) * w for p, w in zip(points, masses) if p <= a)
    return gt, ge, ps


@pytest.mark.parametrize(
    "law, points, masses",
    [
        (sizes.finite({10**5: 0.5, 10**8: 0.5}), [10**5, 10**8], [Fraction(1, 2)] * 2),
        (sizes.empirical([1] * 999 + [10**9]), [1, 10**9], [Fraction(999, 1000), Fraction(1, 1000)]),
        (sizes.finite({3: Fraction(1, 3), 2 * 10**6: Fraction(1, 3), 10**12: Fraction(1, 3)}),
         [3, 2 * 10**6, 10**12], [Fraction(1, 3)] * 3),
    ],
)
def test_wide_finite_laws_are_exact_in_every_query(law, points, masses):
    probe = [0, 1, 2, 3, 10**5 - 1, 10**5, 10**5 + 1, 2 * 10**6, 10**8, 10**9, 10**12, 10**12 + 5]
    for prec in (None, 30):
        gt, ge, ps = (law.prob_gt(probe, precision=prec), law.prob_ge(probe, precision=prec),
                      law.partial_sqrt_mean(probe, precision=prec))
        for i, a in enumerate(probe):
            r = _brute_functionals(points, [mpmath.mpf(m.numerator) / m.denominator for m in masses], a)
            for got, want in zip((gt[i], ge[i], ps[i]), r):
                assert float(got) == pytest.approx(float(want), rel=1e-14, abs=0), (law, a, prec)
    with mpmath.workdps(40):
        mean = mpmath.fsum(p * mpmath.mpf(m.numerator) / m.denominator for p, m in zip(points, masses))
        root = mpmath.fsum(mpmath.sqrt(p) * mpmath.mpf(m.numerator) / m.denominator for p, m in zip(points, masses))
    assert float(law.mean()) == pytest.approx(float(mean), rel=1e-14)
    assert float(law.sqrt_mean()) == pytest.approx(float(root), rel=1e-14)
    assert float(law.sqrt_mean(precision=30)) == pytest.approx(float(root), rel=1e-25)


def test_wide_finite_law_samples_its_masses():
    rho = 0.01
    law = sizes.finite({10**5: 1 - rho, 10**8: rho})
    draws = law.sample(200_000, np.random.default_rng(7))
    assert set(np.unique(draws).tolist()) == {10**5, 10**8}
    share = np.mean(draws == 10**8)
    se = math.sqrt(rho * (1 - rho) / draws.size)
    assert abs(share - rho) < 4 * se


def test_wide_uniform_law_against_direct_sums():
    lo, hi = 3, 2_000_005
    law = sizes.uniform(lo, hi)
    assert isinstance(law, sizes.UniformLaw)
    k = np.arange(lo, hi + 1, dtype=float)
    roots = np.sqrt(k)
    probe = np.array([1, 2, 3, 10, 63, 64, 65, 100, 123_456, hi - 1, hi, hi + 10])
    want_ps = np.array([math.fsum(roots[: max(min(a, hi) - lo + 1, 0)]) for a in probe]) / law.n
    assert np.allclose(law.partial_sqrt_mean(probe), want_ps, rtol=1e-14, atol=0)
    want_gt = np.array([(hi - min(max(a, lo - 1), hi)) / law.n for a in probe])
    assert np.allclose(law.prob_gt(probe), want_gt, rtol=1e-12, atol=0)
    assert float(law.sqrt_mean()) == pytest.approx(math.fsum(roots) / law.n, rel=1e-14)
    assert float(law.mean()) == (lo + hi) / 2
    mp = law.partial_sqrt_mean(probe, precision=30)
    for got, want in zip(mp, want_ps):
        assert float(got) == pytest.approx(want, rel=1e-14, abs=0)
    draws = law.sample(100_000, np.random.default_rng(3))
    assert draws.min() >= lo and draws.max() <= hi
    assert abs(draws.mean() - (lo + hi) / 2) < 4 * (law.n / math.sqrt(12)) / math.sqrt(draws.size)


@pytest.mark.slow  # 7 s of mpmath's zeta; the default run checks this path against arb (test_sizes_precise.py)
def test_wide_uniform_mpmath_path_against_hurwitz_zeta():
    # sum_{k=lo}^{a} sqrt k = zeta(-1/2, lo) - zeta(-1/2, a + 1), at a size where mpmath's zeta answers fast
    law = sizes.uniform(10, 1_000_010)
    a = 500_000
    with mpmath.workdps(40):
        want = (mpmath.zeta(-0.5, 10) - mpmath.zeta(-0.5, a + 1)) / law.n
        got = law.partial_sqrt_mean(a, precision=35)[()]
        assert abs(got / want - 1) < mpmath.mpf(10) ** -30


# --------------------------------------------------------------------------- closed forms without tables


@pytest.mark.parametrize("p", [0.9, 0.5, 0.05, 1e-3])
def test_geometric_partial_moment_against_direct_sums(p):
    law = sizes.geometric(p)
    k = np.arange(1, 200_001, dtype=float)
    with np.errstate(under="ignore"):
        terms = np.sqrt(k) * p * np.exp((k - 1) * math.log1p(-p))
    probe = [1, 5, 63, 64, 65, 100, 999, 1000, 5000, 20000, 100_000]
    want = np.array([math.fsum(terms[:a]) for a in probe])
    assert np.allclose(law.partial_sqrt_mean(probe), want, rtol=5e-15, atol=0)
    assert float(law.sqrt_mean()) == pytest.approx(math.fsum(terms), rel=5e-15)


def test_geometric_tiny_p_float_mpmath_and_integral_limit():
    # geometric(1e-7): mass spread over ~1e9 points, no table; E[sqrt m] -> Γ(3/2)/sqrt(p) as p -> 0
    law = sizes.geometric(1e-7)
    a = np.array([1, 100, 10**4, 10**6, 10**7, 10**8, 10**9, 10**10, 10**11])
    f = law.log_partial_sqrt_mean(a)
    m = law.log_partial_sqrt_mean(a, precision=40)
    assert max(abs(float(x - y)) for x, y in zip(m, f)) < 1e-13
    assert float(law.sqrt_mean()) == pytest.approx(float(law.sqrt_mean(precision=40)), rel=1e-13)
    assert float(law.sqrt_mean()) * math.sqrt(1e-7) == pytest.approx(math.sqrt(math.pi) / 2, rel=1e-6)
    # P(m > a) = (1-p)^a exactly, also where it underflows float64
    assert float(law.log_prob_gt(10**11)) == pytest.approx(10**11 * math.log1p(-1e-7), rel=1e-12)


@pytest.mark.parametrize(
    "law, probe",
    [
        (sizes.binomial(10**9, 1e-9), [1, 2, 3, 10, 30]),
        (sizes.binomial(10**6, 0.5), [1, 10, 490_000, 500_000, 510_000, 999_999, 10**6]),
        (sizes.poisson(1e6), [1, 10, 990_000, 10**6, 1_010_000, 3 * 10**6]),
        (sizes.binomial(10**9, 0.999), [10**9 - 10**6, 998_990_000, 999_000_000, 10**9 - 1, 10**9]),
    ],
)
def test_large_parameter_families_agree_with_mpmath_to_1e_10(law, probe):
    for q in ("log_prob_gt", "log_prob_ge", "log_partial_sqrt_mean", "pmf"):
        f = getattr(law, q)(probe)
        m = getattr(law, q)(probe, precision=40)
        for fi, mi in zip(f, m):
            if q == "pmf":
                assert _close(float(fi), mi, 1e-10), (law, q)
            elif not (math.isinf(float(fi)) and float(fi) == float(mi)):
                # log-values: 1e-10 relative in the value is 1e-10 absolute in the log
                assert abs(float(fi) - float(mi)) <= 1e-10 * max(1.0, abs(float(mi))), (law, q, fi, mi)


def test_zero_truncated_binomial_pmf_closed_form():
    # M(2) = C(N,2) p^2 q^(N-2) / (1 - q^N), N = 1e9, p = 1e-9, in exact rationals then rounded
    N = 10**9
    with mpmath.workdps(50):
        pm = mpmath.mpf(1) / 10**9
        q = 1 - pm
        want = mpmath.binomial(N, 2) * pm**2 * q ** (N - 2) / (1 - q**N)
    assert float(sizes.binomial(N, 1e-9).pmf(2)) == pytest.approx(float(want), rel=1e-13)


def test_light_tail_on_a_huge_support_tabulates_only_its_bulk():
    law = sizes.binomial(10**9, 0.999)
    table = law._float_table
    assert table.points[0] > 9.9e8 and table.points.size < 10**5
    assert float(law.prob_ge(1)) == 1.0


# --------------------------------------------------------------------------- hostile inputs


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: sizes.point(2**70), "m must be an integer <= 2\\*\\*62"),
        (lambda: sizes.uniform(1, 2**70), "hi must be an integer <= 2\\*\\*62"),
        (lambda: sizes.binomial(2**70, 0.5), "N must be an integer <= 2\\*\\*62"),
        (lambda: sizes.finite({2**70: 1.0}), "support point 1180591620717411303424 exceeds"),
        (lambda: sizes.empirical([2**70]), "dataset sizes must be integers <= 2\\*\\*62"),
        (lambda: sizes.finite([1, 2]), "masses must be a mapping"),
        (lambda: sizes.finite("1=1"), "masses must be a mapping"),
    ],
)
def test_huge_and_malformed_inputs_raise_value_error_naming_them(make, match):
    with pytest.raises(ValueError, match=match):
        make()


@pytest.mark.parametrize("lam", [1e-10, 1e-3])
def test_zero_truncated_tiny_lambda_samples_by_inversion(lam):
    # P(X >= 1) ~ lam: rejection would need ~1/lam draws per sample; inversion terminates at once
    law = sizes.poisson(lam)
    draws = law.sample(200_000, np.random.default_rng(11))
    p2 = float(law.pmf(2))  # = lam/2 / (1 + lam/2 + ...)
    share = np.mean(draws == 2)
    assert draws.min() == 1
    assert abs(share - p2) < 4 * math.sqrt(p2 * (1 - p2) / draws.size) + 1e-12


def test_support_points_are_integers_decided_exactly():
    from fractions import Fraction

    with pytest.raises(ValueError, match="support points must be positive integers"):
        sizes.finite({Fraction(1, 10**400): 1})  # rounds to 0.0 in float64, but is not an integer
    assert sizes.finite({Fraction(6, 2): 1}).support_points().tolist() == [3]


def test_tails_below_a_windowed_table_against_mpmath():
    # poisson(1e6)'s table starts near 989,066 (e^-60 below the mode); below it P(m <= a) is summed by
    # walks and cumulative passes. log P(m > a) = log1p(-P(1 <= X <= a) / P(X >= 1)) is about -1e-51
    # there: representable, so a lost mass shows. Reference: the regularised upper gamma at 40 digits.
    law = sizes.poisson(1e6)
    a = np.array([985_000, 985_001, 988_000, 989_000, 960_000])
    got = law.log_prob_gt(a)
    with mpmath.workdps(40):
        lam = mpmath.mpf(10**6)
        p0 = mpmath.exp(-lam)
        for ai, g in zip(a.tolist(), got):
            cdf = mpmath.gammainc(ai + 1, lam, mpmath.inf, regularized=True)  # P(X <= a)
            ref = mpmath.log1p(-(cdf - p0) / (1 - p0))
            assert g == pytest.approx(float(ref), rel=1e-12, abs=0)  # the values are about 1e-51


# --------------------------------------------------------------------------- floor_support, exhaustively


@pytest.mark.parametrize("law, support", [
    (sizes.finite({2: Fraction(1, 4), 7: Fraction(1, 2), 11: Fraction(1, 4)}), [2, 7, 11]),
    (sizes.point(5), [5]),
    (sizes.uniform(3, 9), list(range(3, 10))),
    (sizes.uniform(10**7, 10**7 + 2_000_000), None),  # wide: closed forms, support lo..hi
])
def test_floor_support_is_the_largest_support_point_at_most_a(law, support):
    # the definition max{k in supp M : k <= a} (0 if none), scanned over every a near the support's points
    if support is None:
        lo, hi = 10**7, 10**7 + 2_000_000
        a = np.array([0, 1, lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, hi + 10**6])
        want = [0 if x < lo else min(x, hi) for x in a.tolist()]
    else:
        a = np.arange(0, max(support) + 3)
        want = [max((k for k in support if k <= x), default=0) for x in a.tolist()]
    assert law.floor_support(a).tolist() == want


@pytest.mark.parametrize("law, lo, hi", [
    (sizes.binomial(10**6, 1e-18), 1, 10**6),  # its table is cut at 2: every k of 1..10^6 has a positive mass
    (sizes.poisson(5), 1, None),  # its table ends at the search end (38): the support goes on
    (sizes.from_scipy(stats.nbinom(3, 0.5), zero="shift"), 1, None),
])
def test_floor_support_past_a_tables_end_is_the_point_itself(law, lo, hi):
    # the support is an interval of integers: max{k in supp M : k <= a} = min(a, max supp M) from its first point on
    a = np.array([0, lo, 2, 3, 37, 38, 39, 40, 10**6 - 1, 10**6, 10**6 + 1, 10**15])
    want = [0 if x < lo else x if hi is None else min(x, hi) for x in a.tolist()]
    assert law.floor_support(a).tolist() == want


def test_wide_uniform_prob_ge_near_its_lower_end_in_both_paths():
    # P(m >= a) = (hi - a + 1)/n exactly (rationals); near lo it is close to 1, so it is computed as
    # 1 - P(m <= a - 1): an off-by-one in the cdf's count shows as 1/n.
    lo, hi = 10**7, 10**7 + 2_000_000
    law = sizes.uniform(lo, hi)
    n = hi - lo + 1
    probe = [1, lo - 1, lo, lo + 1, lo + 2, lo + 1000, (lo + hi) // 2, hi - 1, hi, hi + 1]
    want = [Fraction(max(0, min(n, hi - a + 1)), n) for a in probe]
    got = law.prob_ge(probe)
    for a, g, w in zip(probe, got, want):
        assert g == pytest.approx(float(w), rel=1e-13, abs=0), a
    got_mp = law.prob_ge(probe, precision=30)
    with mpmath.workdps(40):
        for a, g, w in zip(probe, got_mp, want):
            assert abs(g - mpmath.mpf(w.numerator) / w.denominator) <= mpmath.mpf(10) ** -25, a


def test_zipf_tails_at_a_precision_against_a_direct_sum():
    # P(m > a) = 1 - sum_{k <= a} k^-s / zeta(s): a finite sum, independent of the Hurwitz zeta the law uses
    law = sizes.zipf(3.5)
    for a in (1, 2, 5, 40):
        got = law.prob_gt(a, precision=30)[()]
        with mpmath.workdps(40):
            want = 1 - mpmath.fsum(mpmath.mpf(k) ** -3.5 for k in range(1, a + 1)) / mpmath.zeta(3.5)
        assert abs(got / want - 1) < mpmath.mpf(10) ** -25, a


def _smallest_argmax_exact(ratio, k_lo, k_hi):
    """Smallest maximiser of a pmf over [k_lo, k_hi] from its exact consecutive ratios p(k+1)/p(k) (Fractions)."""
    best, rel, arg = Fraction(1), Fraction(1), k_lo
    for k in range(k_lo, k_hi):
        rel *= ratio(k)
        if rel > best:
            best, arg = rel, k + 1
    return arg


@pytest.mark.parametrize("lam", [0.1, 0.999, 1.0, 1.5, 5.0, 5.5, 7.0, 123.0, 1e6 + 0.5, 1e6])
@pytest.mark.parametrize("zero", ["truncate", "shift"])
def test_poisson_mode_against_exact_ratios(lam, zero):
    """The smallest mode (the table window's anchor) equals the smallest maximiser of the exact
    pmf, found from rational ratios lam/(k+1) over a window around lam; integer lam gives a tie
    p(lam-1) = p(lam), resolved to the smaller point."""
    lf = Fraction(lam)
    lo = max(0, int(lam) - 60)
    k = _smallest_argmax_exact(lambda j: lf / (j + 1), lo, int(lam) + 60)
    law = sizes.poisson(lam, zero=zero)
    assert law._mode == (k + 1 if zero == "shift" else max(k, 1))


@pytest.mark.parametrize("N, p", [(1, 0.5), (10, 0.5), (9, 0.5), (1000, 0.005), (1000, 0.999), (50, 0.3),
                                  (4, 0.2), (99, 0.01), (10**9, 1e-9), (10**9, 0.999), (7, 1.0)])
def test_binomial_mode_against_exact_ratios(N, p):
    """As for Poisson: ratios (N-k) p / ((k+1)(1-p)) in exact rationals ((N+1) p integer gives a tie)."""
    pf = Fraction(p)
    centre = int(N * p)
    lo, hi = max(0, centre - 60), min(N, centre + 60)
    if p == 1:
        k = N
    else:
        k = _smallest_argmax_exact(lambda j: (N - j) * pf / ((j + 1) * (1 - pf)), lo, hi)
    assert sizes.binomial(N, p)._mode == max(k, 1)


@pytest.mark.parametrize("lam", [1e-6, 0.1, 5.0, 37.5, 1000.0, 1e4, 1e5 + 0.3, 3e5])
@pytest.mark.parametrize("zero", ["truncate", "shift"])
@pytest.mark.parametrize("tol", [1e-20, pytest.param(1e-45, marks=pytest.mark.slow)])
def test_poisson_table_end_by_sums_matches_the_search(lam, zero, tol):
    """The one-pass cut (first moments summed from the top, geometric remainder) is the generic
    search's cut, which bisects on the closed-form tail E[X 1{X > K}] = lam P(X >= K)."""
    from bounds.sizes import _tables

    law = sizes.poisson(lam, zero=zero)
    by_sums = law._table_end_by_sums(tol)
    assert by_sums == _tables.table_end(law, tol)
    # and it is the smallest proven cut: B(K) <= tol < B(K - 1), B from a direct mpmath sum of the
    # masses (past K the ratio lam/(j+1) is below 0.983 for every lam here: 3000 terms leave < 1e-22 of it)
    K = by_sums
    with mpmath.workdps(40):
        def B(k):
            tail = mpmath.fsum(j * mpmath.exp(law._mp_logpmf(j)) for j in range(k + 1, k + 3001))
            return tail / mpmath.sqrt(k + 1)
        assert B(K) <= tol
        if K - 1 > max(law._start, 1):
            assert B(K - 1) > tol


@pytest.mark.parametrize("lam", [1e15, 1e18])
def test_poisson_bulk_start_of_huge_laws_by_bisection(lam):
    """A bulk wider than one vectorised pass: its start is found by bisection (no giant array), and it is
    the first point within e^-60 of the mode's mass (checked at the point and its left neighbour)."""
    law = sizes.poisson(lam)
    start, mode = law._start, law._mode
    assert mode - start > 2**17
    peak = float(law._logpmf(np.array(mode)))
    assert float(law._logpmf(np.array(start))) >= peak - 60 > float(law._logpmf(np.array(start - 1)))


@pytest.mark.parametrize("make", [lambda: sizes.poisson(1200.5), lambda: sizes.poisson(1e5 + 0.3),
                                  lambda: sizes.poisson(4e6), lambda: sizes.binomial(10**7, 0.3),
                                  lambda: sizes.binomial(10**9, 0.999), lambda: sizes.poisson(3e4, zero="shift")])
def test_bulk_start_is_the_first_point_within_e60_of_the_mode_by_a_scan(make):
    """The bulk's start (its doubling points read in one call) against a scan of every point between the
    support's minimum (or 40 standard deviations below the mode) and the mode."""
    law = make()
    start, mode = law._start, law._mode
    peak = float(law._logpmf(np.array(mode)))
    lo = max(law.support_min, mode - 40 * math.isqrt(mode) - 64)
    k = np.arange(lo, mode + 1)
    lp = np.asarray(law._logpmf(k), dtype=float)
    assert lp[0] < peak - 60  # the scan starts below the threshold: its first qualifying point is the start
    assert start == int(k[np.argmax(lp >= peak - 60)])


def test_walks_of_two_series_at_once_equal_each_walk_alone():
    """One leftward walk of the cdf and the sqrt-moment gives each sum exactly as its own walk does: the
    support's minimum reached, the remainder bound met, and a mass that ends (log -inf) inside a chunk."""
    from bounds.sizes import _tables

    def poisson(lam):
        return lambda j: j * mpmath.log(lam) - lam - mpmath.loggamma(j + 1)

    def binomial(n, p):
        return lambda j: (mpmath.loggamma(n + 1) - mpmath.loggamma(j + 1) - mpmath.loggamma(n - j + 1)
                          + j * mpmath.log(p) + (n - j) * mpmath.log1p(-p))

    # (law, a, its log-pmf in mpmath from the closed form, terms summed below a: further down every mass is
    # below e^-150 of the one at a, and the zero-truncation moves the logs by less than e^-150)
    cases = ((sizes.poisson(3e4), 29_000, poisson(mpmath.mpf(30_000)), 4000),
             (sizes.poisson(3e4), 400, poisson(mpmath.mpf(30_000)), 400),
             (sizes.binomial(10**6, 0.5), 499_000, binomial(10**6, mpmath.mpf(0.5)), 8000),
             (sizes.poisson(150.0), 90, poisson(mpmath.mpf(150)), 90))
    for law, a, logpmf, width in cases:
        pair = _tables._left_log_sums(law._logpmf, a, law.support_min)
        alone = (_tables._left_log_sum(law._logpmf, a, law.support_min),
                 _tables._left_log_sum(lambda k: 0.5 * np.log(k) + law._logpmf(k), a, law.support_min))
        assert pair == alone
        with mpmath.workdps(30):  # a direct sum of the masses (scipy's Poisson logpmf is off by 1e-11 here)
            ks = range(max(law.support_min, a - width), a + 1)
            terms = [mpmath.exp(logpmf(j)) for j in ks]
            direct = (mpmath.log(mpmath.fsum(terms)), mpmath.log(mpmath.fsum(mpmath.sqrt(j) * t for j, t in zip(ks, terms))))
        for got, want in zip(pair, direct):
            assert abs(got - float(want)) <= 1e-13 * abs(float(want))
    # two series falling leftwards: one ends at k = 10 (its terms -inf below), one geometric (ratio e^-1/2)
    ends = _tables._walk_log_sums(lambda k: np.stack([np.where(k >= 10, 0.1 * k, -np.inf), 0.5 * k]), 30, -1, None)
    assert ends[0] == pytest.approx(math.log(sum(math.exp(0.1 * k) for k in range(10, 31))), rel=1e-14)
    assert ends[1] == pytest.approx(15 - math.log(-math.expm1(-0.5)), rel=1e-14)


def test_contiguous_tables_are_read_by_index_as_by_search():
    """A table holding every integer of its window is read by index: the same entries a binary search
    picks, below the window, at both ends, inside and past the end."""
    law = sizes.poisson(2e5)
    table = law._float_table
    pts = table.points
    assert int(pts[-1]) - int(pts[0]) + 1 == len(pts)
    a = np.array([-5, 0, 1, int(pts[0]) - 1, int(pts[0]), int(pts[0]) + 1, 200_000, int(pts[-1]) - 1, int(pts[-1]),
                  int(pts[-1]) + 1, 2**62], dtype=np.int64)
    idx = np.searchsorted(pts, a, side="right") - 1
    want = np.where(idx >= 0, table.log_cum_pmf[np.maximum(idx, 0)], -np.inf)
    assert np.array_equal(law._lookup(table.log_cum_pmf, table, a, None), want)


@pytest.mark.parametrize("lam", [1e308, 1.7976931348623157e308])
def test_poisson_beyond_the_size_range_is_refused(lam):
    with pytest.raises(ValueError, match="largest size"):
        sizes.poisson(lam).search_end()


def test_loader_deviance_against_50_digits():
    """Loader's bd0 (x log(x/mu) + mu - x) near mu, where its series is truncated by the largest |v|:
    against a 50-digit direct evaluation, to 1e-13 relative, at |v| up to the series' edge 0.1."""
    from bounds.sizes._kernels import _bd0

    for mu in (3.0, 100.0, 1e4, 1e6, 1e10):
        x = np.round(mu * np.array([0.8185, 0.85, 0.9, 0.97, 0.999, 1.001, 1.05, 1.2, 1.2215]))
        x = x[(x > 0) & (np.abs(x - mu) < 0.1 * (x + mu))]
        got = _bd0(x, mu)
        with mpmath.workdps(50):
            ref = [mpmath.mpf(v) * mpmath.log(mpmath.mpf(v) / mu) + mu - v for v in x.tolist()]
        for g, r in zip(got, ref):
            assert abs(g - float(r)) <= 1e-13 * float(r), (mu, g, r)


@pytest.mark.parametrize("mu", [5.0, 1000.0, 3e5, 3.7e9])
def test_loader_deviance_away_from_the_mean_against_40_digits(mu):
    """bd0 past the series' edge (|x - mu| >= 0.1 (x + mu)), deep tails of both sides: against a 40-digit
    evaluation to 2e-14 relative (its log-mass inherits that error times bd0).  Computed as
    x log x - x log mu it cancels: 2.1e-14 at mu = 1000, 6.5e-14 at 3e5, 1.6e-13 at 3.7e9."""
    from bounds.sizes._kernels import _bd0

    x = np.unique(np.round(mu * np.geomspace(0.02, 50.0, 400)) + 1.0)
    x = x[np.abs(x - mu) >= 0.1 * (x + mu)]
    got = _bd0(x, mu)
    with mpmath.workdps(40):
        ref = [mpmath.mpf(v) * mpmath.log(mpmath.mpf(v) / mu) + mu - v for v in x.tolist()]
    err = max(abs(g - float(r)) / float(r) for g, r in zip(got, ref))
    assert err <= 2e-14, (mu, err)


@pytest.mark.parametrize(("n", "spread"), [(n, s) for n in (1, 2, 3, 15, 16, 17, 1000) for s in (30.0, 699.0, 2000.0)]
                         + [(20925, 699.0)])
def test_table_running_sums_against_30_digit_sums(n, spread):
    """A table's running log-sums (blocked float64 sums within e^-700 of the largest term, extended precision
    beyond) agree with running sums at 30 digits to 4e-14 in the log, at every block edge."""
    import mpmath

    from bounds.sizes import _tables

    rng = np.random.default_rng(n)
    lp = rng.uniform(-spread, 0.0, n) + 40.0
    got = _tables._log_cumsum(lp)
    B = math.isqrt(max(n - 1, 0)) + 1
    edges = {0, n - 1} | {i for k in range(0, n, B) for i in (k - 1, k, k + 1) if 0 <= i < n}
    with mpmath.workdps(30):
        run, ref = mpmath.mpf(0), {}
        for i, v in enumerate(lp.tolist()):
            run += mpmath.exp(v)
            if i in edges:
                ref[i] = float(mpmath.log(run))
    for i, r in ref.items():
        assert abs(got[i] - r) <= 4e-14 * max(1.0, abs(r)), (i, got[i], r)


@pytest.mark.parametrize(
    "make, params",
    [
        # every branch of the geometric W: beta >= 1 (direct sums), beta < 1 below and past beta a = 1
        (sizes.geometric, [1e-199, 1e-12, 1e-6, 0.01, 0.5, 0.6321, 0.6322, 0.9, 0.999]),
        # zipf near s = 2 (heavy), moderate and light, with the mpmath fallback of underflowing tails
        (sizes.zipf, [2 + 1e-15, 2.001, 2.5, 3.0, 7.0, 40.0]),
    ],
)
def test_a_stack_of_laws_answers_as_each_law_bit_for_bit(make, params):
    # dame.grid asks a stack of a family's laws for every (law, a) pair at once: its values must be each
    # law's own, so that a map equals the points (the per-law queries are the reference)
    laws = [make(p) for p in params]
    stack = type(laws[0])._stack_of(laws)
    rng = np.random.default_rng(5)
    a = np.concatenate([np.arange(-2, 200), np.geomspace(1, 2**62, 400).astype(np.int64),
                        rng.integers(0, 2**62, 200)])
    g = rng.integers(0, len(laws), a.size)
    for name in stack.names:
        got = stack.query(name, g, a)
        for j, law in enumerate(laws):
            at = g == j
            want = law.floor_support(a[at]) if name == "floor_support" else getattr(law, name)(a[at])
            assert np.array_equal(got[at], want), (name, params[j])


@pytest.mark.parametrize("law", [sizes.poisson(0.7), sizes.poisson(5.0), sizes.poisson(300.0), sizes.poisson(1e4),
                                 sizes.binomial(50, 0.3), sizes.binomial(10**6, 0.5)],
                         ids=lambda law: repr(law))
def test_batched_tail_walks_equal_the_walks_point_by_point(law):
    # a table's shallow points and a search's probes walk their tails together (one evaluation of the masses per
    # chunk, on the union of overlapping chunks): each value must be the walk of its point alone
    from bounds.sizes._tables import _deep_logsf, _deep_logsfs, _left_log_sum, _left_log_sum_many

    lp, mode = law.family.logpmf, law._mode
    top = law.family.support[1]
    for a in (np.arange(mode + 3, mode + 40), np.array([mode + 7]), np.array([mode + 3, 4 * mode + 50, 10**9])):
        a = a[a < top]
        want = [_deep_logsf(lp, int(v)) for v in a]
        assert _deep_logsfs(lp, a).tolist() == want
    b = np.arange(1, min(mode, 70))
    assert _left_log_sum_many(lp, b, 0).tolist() == [_left_log_sum(lp, int(v), 0) for v in b]


def test_tail_walks_of_a_search_cost_one_evaluation_per_chunk():
    # m~'s search at n alpha^2 = 1e200 probes 15 points of the deep tail a call; each walked alone cost two
    # evaluations of the masses (16 ms a point of `dame --sweep`): together, one per chunk for all of them
    from bounds.sizes._tables import _deep_logsf, _deep_logsfs

    law = sizes.poisson(5.0)
    calls = []

    def counted(k):
        calls.append(np.size(k))
        return law.family.logpmf(k)

    a = np.array([2**j for j in range(6, 36, 2)], dtype=np.int64)  # 15 probes from 64 to 2**34
    out = _deep_logsfs(counted, a)
    assert len(calls) == 2 and np.all(np.isfinite(out)) and np.all(np.diff(out) < 0)  # the first masses, one chunk
    assert out.tolist() == [_deep_logsf(law.family.logpmf, int(v)) for v in a]


@pytest.mark.parametrize("mu", [1e-3, 0.5, 5.0, 15.0, 35.0, 349.9, 1e4])
def test_deviance_on_a_range_of_integers_is_the_array_s(mu):
    from bounds.sizes._kernels import _bd0

    for a, b in [(1, 60), (60, 1), (1, 500), (400, 1), (1, 20_000)]:
        x = np.arange(a, b + (1 if b >= a else -1), 1 if b >= a else -1, dtype=float)
        np.testing.assert_array_equal(_bd0(x, mu, span=(a, b)), _bd0(x, mu), err_msg=f"{a}..{b}")


def test_a_sample_of_more_than_max_draws_is_refused_by_name():
    """One call of ``sample`` draws at most ``sizes.MAX_DRAWS`` sizes (10⁸: 800 MB of int64 and its temporaries),
    refused before any allocation with a ValueError naming ``size``."""
    assert sizes.MAX_DRAWS <= 10**8
    for law in (sizes.poisson(5), sizes.finite({1: 0.5, 9: 0.5}), sizes.geometric(0.3)):
        with pytest.raises(ValueError, match="size"):
            law.sample(sizes.MAX_DRAWS + 1, rng=np.random.default_rng(0))
