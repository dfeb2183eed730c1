"""Tests of bounds.advise.searches: exact inverse searches against brute force, and safe rounding."""

import math
from fractions import Fraction

import numpy as np
import pytest

from bounds import dame, kent, rameshwar, sizes
from bounds.advise import searches


def test_level_grid_is_increasing_with_three_digits():
    g = [searches.level_grid(j) for j in range(0, 6300)]
    assert all(a < b for a, b in zip(g, g[1:]))
    assert g[0] == Fraction(1, 10**4) and g[-1] == 999
    assert all(len(str((v * 10**6).numerator).rstrip("0")) <= 3 for v in g[::97])


def test_smallest_integer_against_a_scan():
    rng = np.random.default_rng(0)
    for _ in range(200):
        hi = int(rng.integers(0, 300))
        cut = int(rng.integers(0, 320))
        pred = lambda j, c=cut: j >= c  # noqa: E731
        scan = next((j for j in range(0, hi + 1) if pred(j)), None)
        assert searches.smallest_integer(pred, 0, hi) == scan
        assert searches.smallest_integer(pred, 0, hi, gallop=False) == scan


def test_law_optimal_error_is_rameshwar_optimal_error():
    rng = np.random.default_rng(1)
    for _ in range(150):
        m = rng.integers(1, 15, size=int(rng.integers(1, 20)))
        eps = Fraction(int(rng.integers(1, 60)), int(rng.integers(1, 30)))
        U = Fraction(int(rng.integers(1, 9)), int(rng.integers(1, 4)))
        assert searches.law_optimal_error(m, U=U, eps=eps, exact=True) == rameshwar.optimal_error(m, U=U, eps=eps,
                                                                                                    exact=True)
        r = int(rng.integers(2, 4))
        assert searches.law_optimal_error(m, U=U, eps=eps, n=r * m.size, exact=True) == rameshwar.optimal_error(
            np.repeat(m, r), U=U, eps=eps, exact=True)


def test_rameshwar_smallest_is_exact():
    rng = np.random.default_rng(2)
    for _ in range(150):
        m = rng.integers(1, 30, size=int(rng.integers(2, 25)))
        U = 4
        t = Fraction(int(rng.integers(1, 199)), 100)  # below U/2
        s = searches.rameshwar_smallest(m, U=U, target=t)
        eps = s / m.size
        assert rameshwar.optimal_error(m, U=U, eps=eps, exact=True) <= t  # reached at ε* ...
        assert rameshwar.optimal_error(m, U=U, eps=eps * Fraction(999_999, 10**6), exact=True) > t  # ... not below
    assert searches.rameshwar_smallest([1, 2], U=2, target=1) == 0  # U/2 needs no privacy budget


def test_round_up_and_down_bracket_the_value():
    rng = np.random.default_rng(3)
    for _ in range(500):
        x = Fraction(int(rng.integers(1, 10**9)), int(rng.integers(1, 10**9)))
        d = int(rng.integers(1, 7))
        up, down = searches.round_up(x, d), searches.round_down(x, d)
        e = 0  # 10**e <= x < 10**(e+1), exactly
        while Fraction(10) ** e > x:
            e -= 1
        while Fraction(10) ** (e + 1) <= x:
            e += 1
        scale = Fraction(10) ** (d - 1 - e)  # a second method: integer ceil/floor at the d-th digit
        assert up == Fraction(math.ceil(x * scale)) / scale and down == Fraction(math.floor(x * scale)) / scale
        assert down <= x <= up
    assert float(searches.round_up(Fraction(207048, 10**7))) == 0.02071  # the example, 0.0207 misses
    assert searches.round_up(Fraction(1, 4), 4) == Fraction(1, 4)


def test_dame_smallest_walks_past_a_rise():
    """At x = 161 511 684, m̃ jumps 1 → 2 and the bound rises: a target between the two values is met
    just before the jump, missed after it, and met again later."""
    law = sizes.finite({1: 0.99, 1000: 0.01})
    x0 = 161_511_683
    before, after = dame.upper_bound(law, n_alpha2=x0), dame.upper_bound(law, n_alpha2=x0 + 1)
    assert (before.m_tilde, after.m_tilde) == (1, 2) and after.value > before.value
    t = (before.value + after.value) / 2
    n = searches.dame_smallest(law, target_mse=t, alpha=1.0)
    closed = lambda x: 1570 * math.log(8 * math.sqrt(x)) / x  # noqa: E731  UB at m̃ = 1 (E√(m∧1) = 1)
    assert n <= x0 and dame.upper_bound(law, n_alpha2=n).m_tilde == 1
    assert closed(n) <= t < closed(n - 1)  # decreasing on the m̃ = 1 run: nothing smaller qualifies
    assert dame.upper_bound(law, n_alpha2=n).value == pytest.approx(closed(n), rel=1e-12)
    with pytest.raises(ValueError, match="exactly one"):
        searches.dame_smallest(law, target_mse=t)


def test_kent_rate_is_monotone_where_searched():
    vals = []
    for n in np.unique(np.geomspace(2, 1e7, 400).astype(int)):
        cap = kent.estimator_cap(n=int(n), T=1, alpha=0.5)[0] if n * 0.25 > 1 else None
        if cap is not None:
            vals.append(kent.rate("mean", n=int(n), T=cap, alpha=0.5).upper)
    assert all(b <= a for a, b in zip(vals, vals[1:]))


def test_rameshwar_smallest_at_a_kink_that_meets_the_target_only_in_the_limit():
    # counts (1, 3), U = 2: E m = 2, B = (0, 1) for d = (3, 1); E^OPT(s) = min(1, 3/s, (1 + 2/s)/2) by hand
    # (Lemma III.1 at T = 0, U d_j). At target 1/2 the kink d = 1 has B = t E m: (1 + 2/s)/2 > 1/2 for
    # every s, so it never qualifies; the kink d = 3 reaches 1/2 at s = 6 exactly.
    assert searches.rameshwar_smallest([1, 3], U=2, target=Fraction(1, 2)) == 6
    assert rameshwar.optimal_error([1, 3], U=2, eps=Fraction(6, 2), exact=True) == Fraction(1, 2)
