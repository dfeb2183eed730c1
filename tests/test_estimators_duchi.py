"""Tests of bounds.estimators.duchi: the closed-form risk (B² − θ²)/n, and both paths in law."""

import math

import numpy as np
import pytest

from bounds.estimators import duchi

SEED = 20261125


def test_closed_form_risk_includes_minus_theta_squared():
    # each output is ±B with mean θ: E Z² = B², Var Z = B² − θ², B = (e^α + 1)/(e^α − 1)
    for theta, n, alpha in [(0.0, 10, 0.5), (0.8, 7, 2.0), (-0.6, 100, 1.0)]:
        B = (math.exp(alpha) + 1) / (math.exp(alpha) - 1)
        assert duchi.variance(theta, n, alpha=alpha) == pytest.approx((B * B - theta * theta) / n, rel=1e-13)


@pytest.mark.parametrize("theta", [0.0, 0.8])
def test_simulated_risk_matches_the_closed_form(theta):
    n, alpha, R = 50, 2.0, 200000  # at α = 2, θ² = 0.64 is 37% of B² = 1.72
    est = duchi.estimate(n, theta, alpha=alpha, rng=np.random.default_rng(SEED), size=R)
    B = (math.exp(alpha) + 1) / (math.exp(alpha) - 1)
    sq = (est - theta) ** 2
    assert abs(sq.mean() - (B * B - theta**2) / n) < 4 * sq.std(ddof=1) / math.sqrt(R)
    assert abs(est.mean() - theta) < 4 * est.std(ddof=1) / math.sqrt(R)


def test_explicit_path_has_the_same_mean_and_variance():
    n, alpha, R, theta = 20, 1.0, 20000, 0.4
    rng = np.random.default_rng(SEED)
    xbar = np.where(rng.random((R, n)) < (1 + theta) / 2, 1.0, -1.0)
    est = duchi.from_local_means(xbar, alpha=alpha, rng=rng)
    var = duchi.variance(theta, n, alpha=alpha)
    assert abs(est.mean() - theta) < 4 * math.sqrt(var / R)
    assert abs(est.var(ddof=1) - var) < 4 * var * math.sqrt(2 / R) * 1.2


def test_count_to_estimate():
    # k of n outputs at +B: (kB − (n − k)B)/n; B = 2 at α = log 3
    assert duchi.from_count(np.array([0, 1, 4]), 4, alpha=math.log(3)) == pytest.approx([-2.0, -1.0, 2.0])


def test_rng_may_be_an_int_a_seed_sequence_or_a_generator():
    runs = [duchi.estimate(30, 0.2, alpha=1.0, rng=r, size=4) for r in (5, np.random.SeedSequence(5), np.random.default_rng(5))]
    assert np.array_equal(runs[0], runs[1]) and np.array_equal(runs[0], runs[2])


def test_estimate_refuses_counts_beyond_float64_exactness():
    with pytest.raises(ValueError, match=r"^n must be an integer in \[1, 2\*\*53\]"):
        duchi.estimate(np.int64(2**62), 0.3, alpha=0.5, rng=0)
