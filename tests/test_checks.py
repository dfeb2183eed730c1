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


def test_sample_variance_and_its_stderr_against_statistics():
    import math
    import statistics
    from fractions import Fraction

    e = np.array([1.0, 2.0, 4.0, 8.0, -3.0])
    var, se = checks._variance_with_se(e)
    mean = Fraction(sum(Fraction(x) for x in e.tolist()), e.size)
    dev = [(Fraction(x) - mean) ** 2 for x in e.tolist()]
    assert var == pytest.approx(float(sum(dev) / (e.size - 1)), rel=1e-14)  # Bessel's n - 1, exactly
    assert var == pytest.approx(statistics.variance(e.tolist()), rel=1e-14)
    assert se == pytest.approx(statistics.stdev([float(d) for d in dev]) / math.sqrt(e.size), rel=1e-14)


@pytest.mark.parametrize("theta, T, tau", [(0.5, 8, 0.25), (-0.25, 12, 0.5), (0.0, 16, 0.125), (0.75, 4, 0.5)])
def test_local_vote_probability_against_an_exact_enumeration(theta, T, tau):
    # the thresholds T(1 +- tau)/2 are integers here (dyadic tau): the strict inequalities of eq. (40) decide
    # whether S = T(1 +- tau)/2 counts. Reference: the binomial law enumerated in exact rationals.
    from fractions import Fraction
    from math import comb

    q = (1 + Fraction(theta)) / 2
    want = sum(comb(T, s) * q**s * (1 - q) ** (T - s) for s in range(T + 1) if abs(Fraction(2 * s - T, T)) > Fraction(tau))
    got = checks.local_vote_probability(np.array([theta]), T_star=T, threshold=tau)
    assert float(got[0]) == pytest.approx(float(want), rel=1e-13)


def test_trig_density_coefficients_and_tail_at_the_cut():
    f = checks.TrigDensity({2: 0.4, 5: 0.2, 7: -0.1})
    assert f.theta(5).tolist() == [1.0, 0.4, 0.0, 0.0, 0.2]  # theta_5 is kept at k = 5
    assert f.theta(7).tolist() == [1.0, 0.4, 0.0, 0.0, 0.2, 0.0, -0.1]
    assert f.tail(5) == pytest.approx(0.01, rel=1e-12)  # sum_{j > 5} theta_j^2 = 0.1^2: theta_5 is not in it
    assert f.tail(4) == pytest.approx(0.05, rel=1e-12)
    assert f.tail(7) == 0.0


def test_l2_risk_at_a_vertex_of_the_hypercube_is_small():
    # theta = (1/2, 1/2, 1/2, 1/2) is a vertex of {+-1/sqrt(4)}^4: coordinates are +-1/2 with P(+) = (1 + 2 theta_j)/2 = 1.
    # A plan that draws with mean theta_j / sqrt(d) instead would be biased by |theta - theta/2|^2 = 1/4.
    r = checks.kent_risk("l2", n=20_000, T=1000, alpha=1.0, theta=[0.5, 0.5, 0.5, 0.5], reps=40, seed=SEED)
    assert r.risk + 4 * r.stderr < 0.125
