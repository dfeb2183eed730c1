"""Tests of bounds.checks: simulated risks beside their closed forms and bounds."""

import numpy as np
import pytest

from bounds import checks, rameshwar, sizes

SEED = 20261121


def test_duchi_variance_matches_closed_form():
    for theta in (0.0, 0.6):
        c = checks.check_duchi(theta=theta, n=800, alpha=0.5, reps=4000, seed=SEED)
        assert c.holds, c


def test_cummings_ideal_variance_matches_eq5_with_the_laplace_variance():
    c = checks.check_cummings([60, 30, 20, 10, 6, 3, 2, 1], p=0.4, sigma_p2=0.02, eps=0.7, reps=6000, seed=SEED)
    assert c.holds, c
    # eq. (5) as printed (b² for Lap(b)) is off by more than 4 standard errors here
    assert abs(c.simulated - c.theory["eq5_printed"]) > 4 * c.stderr, c


def test_rameshwar_worst_case_error_is_within_lemma_iii_1():
    c = checks.check_rameshwar(rameshwar.geometric(4), U=65, eps=0.5, reps=512, seed=SEED)
    assert c.holds, c


def test_empirical_constants_are_reported_with_stderr():
    c = checks.empirical_constant("dame", theta=0.3, sizes=sizes.point(200), n=4000, alpha=0.5, reps=128, seed=SEED)
    assert c.simulated > 0 and c.stderr > 0 and c.theory["rate"] > 0
    with pytest.raises(ValueError, match="empirical constants"):
        checks.empirical_constant("duchi", theta=0.3, sizes=sizes.point(2), n=40, alpha=0.5, reps=2, seed=0)


def test_check_dame_puts_the_bounds_beside_the_risk():
    c = checks.check_dame(sizes.point(400), n=4000, alpha=0.6, thetas=(0.0, 0.7), reps=128, seed=SEED)
    assert c.holds and c.theory["lower_bound"] <= c.simulated + 4 * c.stderr


def test_kent_risk_problem_must_be_one_of_the_strings():
    with pytest.raises(ValueError, match="^problem must be one of"):
        checks.kent_risk(np.array([]), n=800, T=100, alpha=1.0, reps=4, seed=0)


def test_check_rameshwar_refuses_sample_totals_that_wrap_int64():
    # 2 * 2**62 samples: their int64 sum wraps to a negative number
    with pytest.raises(ValueError, match="^m: the users hold 9.223e\\+18 samples"):
        checks.check_rameshwar([2**62, 2**62], U=10.0, eps=1.0, reps=4, seed=0)
