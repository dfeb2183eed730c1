"""Size laws with atoms and bulks past 2**53 (``bounds.sizes``): integers kept exact on the float path.

References are independent of the code under test:

* the binomial near p = 1, :math:`m = N - F` with :math:`F \\sim \\mathrm{Bin}(N, q)`: Jensen's
  :math:`E\\sqrt m \\le \\sqrt{E m}` and Taylor's bound below it,
  :math:`E\\sqrt m \\ge \\sqrt\\mu - \\mathrm{Var}(m)/\\mu^{3/2} - \\sqrt{\\mu}\\,P(m < \\mu/4)` (Chebyshev for the last)
  (:math:`\\mu = E m`, the second-order remainder :math:`(m-\\mu)^2/(8\\xi^{3/2})` with :math:`\\xi \\ge \\mu/4`),
  evaluated in mpmath from the exact rational :math:`q = 1 - p`: the point-mass limit within 1e-22 relative;
* the survival function against ``scipy.special.betainc`` called here on exact integer arguments,
  and the float path against the 40-digit path.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from bounds import dame, sizes
from bounds.numerics import binomial_sf

NS = [2**55, 2**60, 2**62]
QS = [1e-13, 1e-15, 1e-16]


def _jensen_bracket(N: int, p: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    """[lower, upper] for E sqrt(m), m = N - Bin(N, 1 - p) (P(m = 0) = (1-p)^N is below 1e-300 here)."""
    q = 1 - Fraction(p)  # exact
    with mpmath.workdps(50):
        qm = mpmath.mpf(q.numerator) / q.denominator
        mu = N * (1 - qm)
        var = N * qm * (1 - qm)
        # P(m < mu/4) <= Var / (3 mu / 4)^2 (Chebyshev), times sqrt(mu) (the expansion's size)
        far = var / (3 * mu / 4) ** 2 * mpmath.sqrt(mu)
        return mpmath.sqrt(mu) - var / mu**1.5 - far, mpmath.sqrt(mu)


@pytest.mark.parametrize("N", NS)
@pytest.mark.parametrize("q", QS)
def test_binomial_near_one_sqrt_mean_against_the_point_mass_limit(N, q):
    law = sizes.binomial(N, 1 - q)
    lo, hi = _jensen_bracket(N, 1 - q)
    with mpmath.workdps(50):
        assert hi - lo < 1e-20 * hi  # the bracket is sharp: both terms are about q / sqrt(N)
        mp = law.sqrt_mean(precision=40)
        assert lo * (1 - mpmath.mpf(10) ** -38) <= mp <= hi * (1 + mpmath.mpf(10) ** -38)
        fl = law.sqrt_mean()
        # was 0.8-9x off, then 4-7 ulps above sqrt(N) (the exponential of a log-sum near 21.5): now a weighted
        # mean of sqrt(k) in linear space, within 2 ulps of the 40 digits and at most 1 ulp above sqrt(E m)
        assert abs(mpmath.mpf(fl) / mp - 1) <= 2 * 2.0**-52, (fl, mp)
        assert fl <= math.nextafter(float(hi), math.inf) and fl <= math.sqrt(N), (fl, hi)


@pytest.mark.parametrize("N", NS)
@pytest.mark.parametrize("q", QS)
def test_binomial_near_one_tail_and_masses_float_against_40_digits(N, q):
    """P(m > a), P(m >= a), E[sqrt m 1{m <= a}] on the bulk N - E F +- 5 sd, float vs 40 digits."""
    law = sizes.binomial(N, 1 - q)
    ef = N * float(1 - Fraction(1 - q))
    sd = math.sqrt(ef)
    a = np.array(sorted({N - max(int(ef + z * sd), 0) for z in (-5, -1, 0, 1, 5)}), dtype=np.int64)
    for query in ("log_prob_gt", "log_prob_ge", "log_partial_sqrt_mean", "log_sqrt_min_mean"):
        fl, mp = getattr(law, query)(a), getattr(law, query)(a, precision=40)
        for f, m in zip(fl, mp):
            if mpmath.isinf(m):
                assert f == float(m), query
            else:
                assert abs(f - float(m)) <= 1e-12 * max(1.0, abs(float(m))), (query, f, m)


def test_binomial_sf_keeps_integer_arguments_past_2_53():
    """binomial_sf(y, n, p) = I_p(y + 1, n - y) with n - y formed from the integers (scipy called here)."""
    from scipy import special

    N, p = 2**62, 1 - 1e-13
    y = np.array([N - 462_000, N - 461_000, N - 460_031], dtype=np.int64)
    want = [special.betainc(float(int(v) + 1), float(N - int(v)), p) for v in y]
    got = binomial_sf(y, N, p)
    assert np.allclose(got, want, rtol=1e-13, atol=0)
    assert len(set(got.tolist())) == 3  # three distinct points, three values (float(y) would merge them)


@pytest.mark.parametrize("q, x", [(1e-13, 1e8), (1e-13, 1e4)])
def test_dame_bounds_at_2_62_near_p_one_float_against_precision_and_point_mass(q, x):
    """Both bounds at N = 2**62: the float path equals the 40-digit path, and the lower bound is the point
    mass's to 1e-4 (the law is within Var/N^2 ~ 1e-32 of it)."""
    N = 2**62
    law = sizes.binomial(N, 1 - q)
    for name in ("lower_bound", "upper_bound"):
        f = getattr(dame, name)
        fl, mp = f(law, n_alpha2=x), f(law, n_alpha2=x, precision=40)
        assert abs(fl.log_value - float(mp.log_value)) <= 1e-9, name
    lb, lb_point = dame.lower_bound(law, n_alpha2=x), dame.lower_bound(sizes.point(N), n_alpha2=x)
    assert abs(lb.log_value - lb_point.log_value) <= 1e-4


# ---------------------------------------------------------------------------- extremes: answered or refused by name
@pytest.mark.parametrize("lam", [1e-17, 1e-200, 1e-300, 1e-310, 5e-324])
def test_poisson_with_a_vanishing_rate_tends_to_a_point_at_one(lam):
    """m = X | X >= 1 with lam -> 0: E m = lam / (1 - e^-lam) >= 1 (was 0.99999999999997 at 1e-300, and a
    math domain error at 5e-324); P(m >= 2) = (1 - e^-lam - lam e^-lam) / (1 - e^-lam), both in mpmath."""
    law = sizes.poisson(lam)
    with mpmath.workdps(60):
        L = mpmath.mpf(lam)
        mean = L / -mpmath.expm1(-L)
        ge2 = (-mpmath.expm1(-L) - L * mpmath.exp(-L)) / -mpmath.expm1(-L)
    assert law.mean() >= 1.0 and abs(law.mean() - float(mean)) <= 1e-12
    assert float(law.prob_ge(2)) == pytest.approx(float(ge2), rel=1e-12)
    assert 1.0 <= law.sqrt_mean() <= 1.0 + 1e-15
    assert np.all(law.sample(100, rng=np.random.default_rng(0)) == 1)
    assert law.mean(precision=30) >= 1


@pytest.mark.parametrize("lam", [2.0**61 * (1 + 1e-15), 1e19, 1e300])
def test_poisson_past_2_61_is_refused_by_name(lam):
    """poisson(1e300).prob_ge ran 55 s into an ArithmeticError; poisson(1e19) blamed a heavy tail."""
    with pytest.raises(ValueError, match=r"^lam must be at most 2\*\*61"):
        sizes.poisson(lam)
    assert sizes.poisson(2.0**61).sqrt_mean() == pytest.approx(2.0**30.5, rel=1e-12)


@pytest.mark.parametrize("query", ["prob_gt", "prob_ge", "log_prob_gt", "partial_sqrt_mean", "sqrt_min_mean", "pmf",
                                   "floor_support"])
@pytest.mark.parametrize("law", [sizes.poisson(5.0), sizes.finite({1: 0.5, 2: 0.5}), sizes.uniform(1, 10**12)],
                         ids=["poisson", "finite", "uniform"])
def test_huge_broadcast_queries_are_refused_before_allocation(query, law):
    """A broadcast view of 10**10 entries costs nothing to pass: refused by its size (it used to raise
    MemoryError asking for 75 GB)."""
    big = np.broadcast_to(np.int64(5), (10**5, 10**5))
    with pytest.raises(ValueError, match=r"must hold at most 10,000,000 entries"):
        getattr(law, query)(big)
    assert np.size(getattr(law, query)(np.broadcast_to(np.int64(5), (1000,)))) == 1000


def test_huge_empirical_is_refused_before_allocation():
    with pytest.raises(ValueError, match=r"^sizes must hold at most 100,000,000 users"):
        sizes.empirical(np.broadcast_to(np.int64(5), (10**10,)))
