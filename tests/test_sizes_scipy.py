"""The scipy-backed families (bounds/sizes/_scipy.py) at wide supports and large parameters.

Every reference is an independent mpmath computation written here: a direct sum of the
masses at 60 digits (each mass from the previous one by the law's exact ratio), a Hurwitz
zeta closed form, or mpmath's incomplete gamma function.
"""

import math
import tracemalloc

import mpmath
import numpy as np
import pytest
from flint import arb, ctx
from scipy import stats

from bounds import dame, sizes


def direct_sums(log_first, ratio, k0, lo, hi, a=None, dps=60):
    r"""``(sum M(k), sum sqrt(k) M(k), sum_{k <= a} sqrt(k) M(k), sum_{k > a} M(k))`` over
    ``lo..hi``, masses from ``M(k0) = exp(log_first)`` by ``M(k+1) = M(k) ratio(k)``, walked
    both ways from ``k0`` until a term is below 10^-80 of the total."""
    with mpmath.workdps(dps):
        first = mpmath.exp(log_first)
        terms = {k0: first}
        t, k = first, k0
        while k < hi:
            t = t * ratio(k)
            k += 1
            terms[k] = t
            if t < mpmath.mpf(10) ** -80 * first and k > k0 + 10:
                break
        t, k = first, k0
        while k > lo:
            t = t / ratio(k - 1)
            k -= 1
            terms[k] = t
            if t < mpmath.mpf(10) ** -80 * first and k < k0 - 10:
                break
        tot = mpmath.fsum(terms.values())
        sq = mpmath.fsum(mpmath.sqrt(k) * v for k, v in terms.items())
        part = mpmath.fsum(mpmath.sqrt(k) * v for k, v in terms.items() if a is not None and k <= a)
        above = mpmath.fsum(v for k, v in terms.items() if a is not None and k > a)
        return tot, sq, part, above


def binomial_sums(N, p, a=None):
    k0 = max(int(N * p), 1)
    with mpmath.workdps(60):
        q = 1 - mpmath.mpf(p)
        log_first = (mpmath.loggamma(N + 1) - mpmath.loggamma(k0 + 1) - mpmath.loggamma(N - k0 + 1)
                     + k0 * mpmath.log(mpmath.mpf(p)) + (N - k0) * mpmath.log(q))
        return direct_sums(log_first, lambda k: mpmath.mpf(N - k) / (k + 1) * mpmath.mpf(p) / q, k0, 1, N, a)


def rel(x, y):
    x = x[()] if isinstance(x, np.ndarray) else x
    with mpmath.workdps(60):
        return abs(float(mpmath.mpf(x) / mpmath.mpf(y) - 1))


# --------------------------------------------------------------------------- binomial beyond 2**31


def test_binomial_past_two_to_the_31_has_the_right_sqrt_moment():
    """N = 2**31 + 1 once gave 0.029 (true 5.454): scipy.special.bdtrc is NaN from N = 2**31 and the
    NaN tail bound cut the table at 17 points."""
    N = 2**31 + 1
    law = sizes.binomial(N, 30 / N)
    tot, sq, _, _ = binomial_sums(N, 30 / N)
    assert rel(law.sqrt_mean(), sq / tot) < 1e-12
    assert law.search_end() > 60


def test_binomial_precision_path_past_two_to_the_31():
    law = sizes.binomial(5 * 10**9, 6e-9)
    tot, sq, _, _ = binomial_sums(5 * 10**9, 6e-9)
    with mpmath.workdps(30):
        assert abs(law.sqrt_mean(precision=30) / (sq / tot) - 1) < mpmath.mpf(10) ** -25
    assert rel(law.sqrt_mean(), sq / tot) < 1e-12


def test_binomial_past_two_to_the_31_lower_bound_by_exhaustive_scan():
    """Eq. (10), unit constants, every a in 0..400 from masses summed here (LB <= UB again:
    once LB 0.1186 > UB 0.0222)."""
    N, x = 2**31 + 1, 1e4
    law = sizes.binomial(N, 30 / N)
    with mpmath.workdps(60):
        p = mpmath.mpf(30 / N)
        masses = [mpmath.exp(N * mpmath.log1p(-p))]
        for k in range(600):
            masses.append(masses[-1] * (N - k) / (k + 1) * p / (1 - p))
        z = 1 - masses[0]  # zero-truncation
        vals = []
        for a in range(0, 401):
            P = mpmath.fsum(masses[a + 1:]) / z
            S = mpmath.fsum(mpmath.sqrt(k) * masses[k] for k in range(1, a + 1)) / z
            vals.append(mpmath.exp(-x * P**2) / max(x * S**2, 1))
        best = max(vals)
        argmax = vals.index(best)
    lb = dame.lower_bound(law, n_alpha2=x, constants="unit")
    assert rel(lb.value, best) < 1e-10
    assert lb.argmax == argmax
    assert lb.value <= dame.upper_bound(law, n_alpha2=x, constants="unit").value


def test_nan_tail_bound_never_cuts_a_table():
    """A NaN tail bound proves nothing: table_end keeps growing instead of stopping."""
    from bounds.sizes import _tables

    assert not _tables._below(float("nan"), 1e-20)
    assert _tables._below(1e-21, 1e-20)


# --------------------------------------------------------------------------- from_scipy, wide finite supports


# tol: scipy's own masses (betabinom's pmf through betaln keeps about 1e-11; hypergeom's sum to 1 + 8e-12)
@pytest.mark.parametrize("dist, zero, sums, tol", [
    (stats.binom(10**6, 0.3), "truncate", lambda: binomial_sums(10**6, 0.3), 1e-12),
    (stats.betabinom(20000, 2, 3), "truncate", lambda: direct_sums(
        mpmath.log(mpmath.beta(2 + 1, 20000 - 1 + 3) / mpmath.beta(2, 3) * 20000),
        lambda k: mpmath.mpf(20000 - k) / (k + 1) * (k + 2) / (20000 - k - 1 + 3), 1, 1, 20000), 1e-10),
    (stats.hypergeom(10**6, 10**5, 10**5), "truncate", lambda: direct_sums(
        mpmath.log(mpmath.binomial(10**5, 10**4)) + mpmath.log(mpmath.binomial(9 * 10**5, 9 * 10**4))
        - mpmath.log(mpmath.binomial(10**6, 10**5)),
        lambda k: mpmath.mpf(10**5 - k) * (10**5 - k) / ((k + 1) * mpmath.mpf(10**6 - 2 * 10**5 + k + 1)),
        10**4, 1, 10**5), 1e-11),
])
def test_from_scipy_wide_finite_support(dist, zero, sums, tol):
    """These once raised 'min() arg is an empty sequence' (no moment for a finite support)."""
    law = sizes.from_scipy(dist, zero=zero)
    with mpmath.workdps(60):
        tot, sq, _, _ = sums()
    assert rel(law.sqrt_mean(), sq / tot) < tol
    assert law.search_end() <= dist.support()[1]  # cut where the mass ends, by the sf bound


def test_from_scipy_randint_against_hurwitz_zeta():
    law = sizes.from_scipy(stats.randint(1, 10**6))
    n = 10**6 - 1
    # sum_{k<=n} sqrt(k) = zeta(-1/2) - zeta(-1/2, n + 1): arb's Hurwitz zeta (rigorous, 60 digits; mpmath's
    # zeta(s, a) takes seconds at so large an a)
    before, ctx.dps = ctx.dps, 60
    try:
        half = -arb(1) / 2
        ball = (half.zeta() - half.zeta(arb(n + 1))) / n  # sum_{k<=n} sqrt(k) / n
        assert ball.rad() < 1e-40 * abs(ball.mid())
        exact = float(ball.mid())
    finally:
        ctx.dps = before
    assert rel(law.sqrt_mean(), exact) < 1e-12


def test_from_scipy_randint_too_wide_is_refused_by_name():
    with pytest.raises(ValueError, match="too heavy to tabulate.*bounds.sizes.uniform"):
        sizes.from_scipy(stats.randint(1, 10**7)).sqrt_mean()


@pytest.mark.parametrize("dist, advice", [(stats.zipf(3.5), "bounds.sizes.zipf"),
                                          (stats.betabinom(10**7, 2, 3), "bounds.sizes.uniform")])
def test_a_summed_survival_function_is_read_near_the_start_only(dist, advice):
    """scipy's zipf and betabinom have no survival function of their own: scipy sums the masses from 1 up to the
    point asked.  Reading it at 2**62 (or 10**7) asked for gigabytes; the tail bound reads it up to
    SUMMED_SF_MAX only, and these tails, too heavy for a table, are refused by a ValueError saying what to use."""
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=f"too heavy to tabulate.*{advice}"):
            sizes.from_scipy(dist, zero="truncate").prob_ge(1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20


def test_betabinom_precision_path():
    # reference: the beta-binomial masses C(n, k) B(k + a, n - k + b) / B(a, b) at 40 digits, zero-truncated.
    # scipy's float64 masses sum to 1 - 1.9e-12; the precision path carries them exactly (so it is off by that
    # much), the float path normalises them by their own total (a weighted mean of sqrt k: 3e-16 off here)
    law = sizes.from_scipy(stats.betabinom(2000, 2, 3), zero="truncate")
    n, a, b = 2000, 2, 3
    with mpmath.workdps(40):
        p = [mpmath.binomial(n, k) * mpmath.beta(k + a, n - k + b) / mpmath.beta(a, b) for k in range(n + 1)]
        exact = mpmath.fsum(mpmath.sqrt(k) * p[k] for k in range(1, n + 1)) / mpmath.fsum(p[1:])
    f = law.sqrt_mean()
    with mpmath.workdps(30):
        m = law.sqrt_mean(precision=30)
    assert rel(f, exact) < 1e-14
    assert rel(m, exact) < 1e-11


# --------------------------------------------------------------------------- from_scipy, infinite light tails


def test_nbinom_light_tail_accepted_in_float_and_at_precision():
    """Refused once as 'too heavy to tabulate' (moment bounds only); the sf bound cuts it near 1500."""
    n, law = 1000, sizes.from_scipy(stats.nbinom(1000, 0.5), zero="shift")
    assert dame.m_tilde(law, n_alpha2=10.0) >= 1
    with mpmath.workdps(60):  # m = X + 1, P(X = k) = C(k + n - 1, k) 2^-(n + k)
        half = mpmath.mpf(1) / 2
        first = mpmath.exp(mpmath.loggamma(2 * n) - mpmath.loggamma(n) - mpmath.loggamma(n + 1) + 2 * n * mpmath.log(half))
        tot, sq = direct_sums(mpmath.log(first), lambda k: mpmath.mpf(k + n) / (k + 1) * half, n, 0, 10**9)[:2]
        # E[sqrt(X + 1)]: the same walk on sqrt(k + 1) M(k)
        s, t, k = mpmath.mpf(0), first, n
        while t > mpmath.mpf(10) ** -80:
            s, t, k = s + mpmath.sqrt(k + 1) * t, t * mpmath.mpf(k + n) / (k + 1) * half, k + 1
        t, k = first, n
        while k > 0:
            t, k = t / (mpmath.mpf(k - 1 + n) / k * half), k - 1
            s += mpmath.sqrt(k + 1) * t
        exact = s / tot
    assert rel(law.sqrt_mean(), exact) < 1e-12
    assert rel(law.sqrt_mean(precision=30), exact) < 1e-12  # scipy's float masses, carried exactly


def test_logser_at_precision():
    law = sizes.from_scipy(stats.logser(0.9))
    with mpmath.workdps(60):
        p = mpmath.mpf(0.9)
        c = -1 / mpmath.log1p(-p)
        exact = c * mpmath.nsum(lambda k: p**k / mpmath.sqrt(k), [1, mpmath.inf])  # sum sqrt(k) p^k / k
    assert rel(law.sqrt_mean(), exact) < 1e-12
    assert rel(law.sqrt_mean(precision=30), exact) < 1e-13


def test_heavy_scipy_tail_still_refused():
    with pytest.raises(ValueError, match="no finite moment"):
        sizes.from_scipy(stats.zipf(2.5))


# --------------------------------------------------------------------------- large-lambda Poisson


@pytest.mark.parametrize("lam, z", [(1e6, 5.5), (9.5e6, 5.53), (9.5e6, -2.0), (1e8, 3.0)])
def test_large_poisson_survival_against_incomplete_gamma(lam, z):
    """scipy's pdtrc lost up to 2e-2 at lam = 9.5e6 (5.5 sd up); the local sums keep 1e-12."""
    a = int(lam + z * math.sqrt(lam))
    law = sizes.poisson(lam)
    with mpmath.workdps(60):
        sf = 1 - mpmath.gammainc(a + 1, lam, mpmath.inf, regularized=True)  # P(X > a) = 1 - Q(a + 1, lam)
        exact = sf / (1 - mpmath.exp(-lam))
    assert rel(law.prob_gt(a), exact) < 1e-12


@pytest.mark.parametrize("N", [1, 5, 1000])
def test_binomial_with_p_one_is_the_point_law(N):
    """B(N, 1) puts all its mass on N (Loader's deviance at mu = N q = 0: 0 log 0 = 0, x log 0 = -inf)."""
    law, point = sizes.binomial(N, 1.0), sizes.point(N)
    a = np.arange(0, N + 3)
    assert float(law.pmf(N)) == 1.0 and float(law.sqrt_mean()) == pytest.approx(math.sqrt(N), rel=1e-12)
    np.testing.assert_array_equal(law.log_prob_ge(a), point.log_prob_ge(a))
    np.testing.assert_allclose(law.log_partial_sqrt_mean(a), point.log_partial_sqrt_mean(a), rtol=1e-12)


# --------------------------------------------------------------------------- from_scipy, negative values truncated


def test_truncating_a_law_with_negative_values_takes_the_mean_given_x_at_least_one():
    # randint(-3, 10) given X >= 1 is uniform on 1..9: mean 5 (was E[X] / P(X >= 1) = 4.33, counting -3..0)
    law = sizes.from_scipy(stats.randint(-3, 10), zero="truncate")
    assert float(law.mean()) == 5.0
    want = math.fsum(math.sqrt(k) for k in range(1, 10)) / 9
    assert float(law.sqrt_mean()) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("dist", [stats.skellam(3, 2), stats.dlaplace(0.8)])
def test_infinite_laws_with_negative_values_refused_by_name(dist):
    # dlaplace(0.8) given X >= 1 answered E[sqrt m] = 1.0 (table cut at 1: its odd moments, 0, taken as tail
    # bounds) and E[m] = 0; now refused, naming the limit and the way out
    with pytest.raises(ValueError, match=r"charges negative integers on an infinite support.*geometric"):
        sizes.from_scipy(dist, zero="truncate")


@pytest.mark.parametrize("law", [sizes.poisson(lam) for lam in (1e-300, 0.5, 5.0, 7.5, 20.0, 1e3, 3e7)]
                         + [sizes.binomial(N, p) for N, p in ((1, 0.5), (2, 0.3), (10, 1.0), (50, 0.3), (1000, 0.005),
                                                               (65535, 0.4), (65536, 0.4), (10**9, 1e-9), (10**9, 0.999))],
                         ids=repr)
def test_a_range_of_masses_is_each_point_s_own_mass(law):
    # a remembered range is computed by the range evaluator, a lone query by the pointwise log-pmf: both must give
    # the same double at every point (ranges from below the support, across the mean and past a finite support)
    memo = law.family.logpmf
    centre = int(law.mean())
    for lo, hi in [(-1, 0), (-1, 200), (3, 40), (max(centre - 300, -1), centre + 300), (max(centre - 5, -1), centre + 5)]:
        hi = int(min(hi, memo.top + 1))
        pointwise = np.asarray(memo.f(np.arange(lo, hi + 1, dtype=np.int64)), dtype=float)
        np.testing.assert_array_equal(memo.run(lo, hi), pointwise, err_msg=f"{lo}..{hi}")
    fresh = type(law.family.logpmf)(memo.f, memo.top, memo.run)  # an empty memo: its first slice computes its range
    k = np.arange(max(centre - 20, 0), centre + 21, dtype=np.int64)
    np.testing.assert_array_equal(fresh.span(int(k[0]), int(k[-1])), memo.f(k))
    np.testing.assert_array_equal(fresh(k), memo.f(k))


@pytest.mark.parametrize("N, p", [(10**6, 1e-18), (10**9, 1e-12), (10**6, 1e-9)])
def test_a_finite_law_cut_before_its_support_ends_keeps_its_tail(N, p):
    # the float table of a wide binomial ends after a few points; P(m > a) at its last point is the tail beyond
    # it, not 0.  Reference: 1 - P(X <= a), summed from the exact binomial masses at 50 digits, over P(X >= 1)
    law = sizes.binomial(N, p)
    end = law.search_end()
    assert end < N
    with mpmath.workdps(50):
        q = mpmath.mpf(p)
        mass = [mpmath.binomial(N, k) * q**k * (1 - q) ** (N - k) for k in range(end + 1)]
        expect = (1 - sum(mass)) / (1 - mass[0])
    got = law.prob_gt(np.arange(1, end + 1))
    assert got[-1] == pytest.approx(float(expect), rel=1e-9, abs=0.0)
    assert np.all(np.diff(got) <= 0)  # a survival function does not rise


@pytest.mark.parametrize("dist", [stats.poisson, stats.rv_discrete(values=([1, 5, 1000], [0.5, 0.3, 0.2])), 3.0])
def test_from_scipy_refuses_a_distribution_not_frozen_by_name(dist):
    """The distribution itself (not frozen: no parameters bound) or another object: a ValueError naming ``dist``,
    not an AttributeError or TypeError from inside scipy."""
    with pytest.raises(ValueError, match="dist must be a frozen scipy discrete distribution"):
        sizes.from_scipy(dist)
