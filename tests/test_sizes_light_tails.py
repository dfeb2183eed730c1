"""scipy laws with geometric tails at a precision (``bounds.sizes.from_scipy``): cut by Chernoff's bound from
their moment generating function, so a high precision does not ask for a heavy-tail table.

References: direct mpmath sums of the masses from their closed forms (exact rational parameters,
consecutive ratios) until the geometric remainder is below 1e-40; the laws' masses are scipy's
float64 values, so the precision path agrees with them to about 1e-15 (the float64 masses), not to
its digits.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from bounds import sizes
from bounds.sizes import _scipy


def _logser_sqrt_mean(p: float):
    with mpmath.workdps(50):
        q = mpmath.mpf(p)
        norm = -mpmath.log1p(-q)
        term, tot, k = q / norm, mpmath.mpf(0), 1  # P(X = k) = p^k / (k norm)
        while True:
            tot += mpmath.sqrt(k) * term
            nxt = term * q * k / (k + 1)
            if nxt * mpmath.sqrt(k + 1) / (1 - q) < mpmath.mpf(10) ** -40 * tot:
                return tot
            term, k = nxt, k + 1


def _nbinom_shift_sqrt_mean(n: int, p: float):
    with mpmath.workdps(50):
        q = 1 - mpmath.mpf(p)
        term, tot, k = mpmath.mpf(p) ** n, mpmath.mpf(0), 0  # P(X = k) = C(k+n-1, k) p^n q^k
        while True:
            tot += mpmath.sqrt(k + 1) * term
            nxt = term * q * (k + n) / (k + 1)
            r = q * (k + 1 + n) / (k + 2)
            if k > n / p and r < 1 and nxt * mpmath.sqrt(k + 2) / (1 - r) ** 2 < mpmath.mpf(10) ** -40 * tot:
                return tot
            term, k = nxt, k + 1


@pytest.mark.parametrize("precision", [50, pytest.param(60, marks=pytest.mark.slow)])
def test_nbinom_shifted_at_high_precision(precision):
    """Refused at 50 digits before ("the tail is too heavy to tabulate")."""
    law = sizes.from_scipy(stats.nbinom(50, 0.05), zero="shift")
    got = law.sqrt_mean(precision=precision)
    want = _nbinom_shift_sqrt_mean(50, 0.05)
    with mpmath.workdps(50):
        assert abs(got / want - 1) < 1e-13
    assert abs(law.sqrt_mean() / float(want) - 1) < 1e-13


@pytest.mark.slow
def test_logser_at_high_precision():
    law = sizes.from_scipy(stats.logser(0.99))
    got = law.sqrt_mean(precision=50)
    want = _logser_sqrt_mean(0.99)
    with mpmath.workdps(50):
        assert abs(got / want - 1) < 1e-13


@pytest.mark.parametrize("dist", [stats.logser(0.99), stats.nbinom(50, 0.05), stats.nbinom(0.3, 0.2, loc=2),
                                  stats.geom(0.3), stats.poisson(7.0), stats.planck(0.2)],
                         ids=lambda d: f"{d.dist.name}{d.args}{d.kwds}")
def test_mgf_tail_bounds_the_tail_first_moment(dist):
    """E[X 1{X > K}] summed here (float64 masses as scipy gives them, 40,000 terms past K, fsum) is below the
    bound, and the bound is not vacuous: within a factor 1e4 K of it."""
    bound = _scipy._mgf_tail(dist)
    for K in (10, 100, 1000, 4000):
        k = np.arange(K + 1, K + 40_001)
        true = math.fsum((k * dist.pmf(k)).tolist())
        assert true <= bound(K) * (1 + 1e-12), K
        if true > 1e-290:
            assert bound(K) <= 1e4 * K * true, K


def test_mgf_tail_declines_what_it_cannot_bound():
    assert _scipy._mgf_tail(stats.zipf(3.0)) is None  # a power law: no moment generating function
    assert _scipy._mgf_tail(stats.nbinom(5, 0.5, loc=-3)) is None  # negative values: the bound needs X >= 0
