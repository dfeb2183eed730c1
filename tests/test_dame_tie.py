"""The tie rule of Theorem 1's argmax (bounds/dame.py, ``_lb_search`` / ``_smallest_near_max``).

The argmax is the smallest ``a`` whose term of eq. (10) is within a relative ``LB_TIE_RTOL``
of the maximum; the float and mpmath paths must report the same one.  References are
exhaustive scans of eq. (10) evaluated here at 50 digits from the law's masses.
"""


import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import dame, sizes

from . import reference as ref


def test_reference_scans_state_the_same_rule():
    assert dame.LB_TIE_RTOL == ref.TIE_RTOL


def scan(masses: dict, x: float):
    """(max, argmax by the tie rule) of eq. (10), unit constants, over {0} and the support."""
    with mpmath.workdps(50):
        pts = sorted(masses)
        total = mpmath.fsum(mpmath.mpf(masses[k]) for k in pts)
        vals = {}
        for a in [0] + pts:
            P = mpmath.fsum(mpmath.mpf(masses[k]) for k in pts if k > a) / total
            S = mpmath.fsum(mpmath.sqrt(k) * mpmath.mpf(masses[k]) for k in pts if k <= a) / total
            vals[a] = -x * P**2 - mpmath.log(max(x * S**2, 1))
        best = max(vals.values())
        thr = best + mpmath.log1p(-mpmath.mpf(dame.LB_TIE_RTOL))
        return best, min(a for a, v in vals.items() if v >= thr), vals, thr


def both(law, x, constants="unit"):
    f = dame.lower_bound(law, n_alpha2=x, constants=constants)
    m = dame.lower_bound(law, n_alpha2=x, constants=constants, precision=30)
    return f, m


def two_point_near_tie(gap: float):
    """{1: q, 100: 1 - q} with l(1) - l(100) = gap (relative to |l|) at x = 10, unit constants."""
    x, K = 10, 100

    def diff(q):
        l1 = -x * (1 - q) ** 2 - mpmath.log(max(x * q**2, 1))
        lK = -mpmath.log(max(x * (q + mpmath.sqrt(K) * (1 - q)) ** 2, 1))
        return l1 - lK - gap * abs(lK)

    with mpmath.workdps(50):
        q = float(mpmath.findroot(diff, (0.1, 0.3), solver="illinois"))
    return {1: q, K: 1 - q}, x


@pytest.mark.parametrize("gap, expected", [(-1e-12, 1), (1e-12, 1), (-1e-7, 100), (1e-7, 1)])
def test_constructed_near_tie_follows_the_rule_in_both_paths(gap, expected):
    masses, x = two_point_near_tie(gap)
    _, argmax, _, _ = scan(masses, x)
    assert argmax == expected
    f, m = both(sizes.finite(masses), x)
    assert f.argmax == m.argmax == argmax


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.integers(1, 400), st.integers(1, 50), min_size=1, max_size=6),
       st.sampled_from([0.5, 3.0, 10.0, 1e2, 1e3, 1e5]))
def test_argmax_equals_exhaustive_scan(weights, x):
    total = sum(weights.values())
    masses = {k: w / total for k, w in weights.items()}
    best, argmax, vals, thr = scan(masses, x)
    if any(v != thr and abs(v - thr) < 1e-11 * abs(thr) for v in vals.values()):
        return  # a value within float error of the band's edge: the rule is ill-conditioned there
    law = sizes.finite({k: w for k, w in masses.items()}, atol=1e-9)
    f, m = both(law, x)
    assert f.argmax == m.argmax == argmax
    assert abs(f.log_value - float(best)) <= 1e-12 * max(1.0, abs(float(best)))


@pytest.mark.parametrize("p", [0.3, 0.01, 1e-4])
@pytest.mark.parametrize("x", [1e2, 1e4, 1e6])
def test_geometric_float_and_precise_argmax_agree(p, x):
    f, m = both(sizes.geometric(p), x, constants="paper")
    assert f.argmax == m.argmax


@pytest.mark.parametrize("s", [3.0, 4.0])
def test_zipf_float_and_precise_argmax_agree_at_1e12(s):
    f, m = both(sizes.zipf(s), 1e12, constants="paper")
    assert f.argmax == m.argmax


@pytest.mark.slow
@pytest.mark.parametrize("law, x", [(sizes.poisson(1e6), 1e4), (sizes.poisson(1e6), 1e8),
                                    (sizes.binomial(10**9, 0.999), 1e6), (sizes.poisson(9.5e6), 6.51e7)])
def test_large_laws_float_and_precise_argmax_agree(law, x):
    f, m = both(law, x, constants="unit")
    assert f.argmax == m.argmax
    assert abs(f.value / float(m.value) - 1) <= 1e-12


@pytest.mark.filterwarnings("ignore::bounds.numerics.PaperAssumptionWarning")
@pytest.mark.parametrize("masses, x, expected", [
    # below a0 = 10^7, l is -x P(m > a)^2: -0.75 on [5e6, 1e7) and 4e-11 lower on [1, 5e6), within the tie band
    ({1: 0.5 - 1e-11, 5 * 10**6: 1e-11, 10**7: 0.5}, 3.0, 1),
    # x S(m)^2 < 1 everywhere: l rises to 0 at the top, and is within 1e-9 of it from 5e6 on (x P^2 = 1e-11)
    ({1: 0.5, 5 * 10**6: 0.49, 10**7: 0.01}, 1e-7, 5 * 10**6),
])
def test_near_ties_the_branch_and_bound_leaves_behind(masses, x, expected):
    """Supports too wide for the scan: the float path's branch and bound ends at a0 - 1 or at the top of a law
    that never reaches x S^2 >= 1, and the tie rule must still reach the smallest point of the band below it,
    as the 50-digit exhaustive scan and the mpmath path (which searches all of [0, argmax]) do."""
    _, argmax, _, _ = scan(masses, x)
    assert argmax == expected
    f, m = both(sizes.finite(masses), x)
    assert f.argmax == m.argmax == argmax


def test_a_plateau_flat_to_the_last_float_bits_is_searched_to_an_end():
    """geometric(2^-58) at nα² = 100: eq. (10) rises to within a few ulps of its maximum over ~10^18 points, where
    neither the monotonicity tests nor the bound can drop an interval; the float search settles intervals whose
    bound exceeds their larger end by less than 64 ulps (before, it gave up with 10^6 open intervals) and agrees
    with the 25-digit search: the value to 1e-14, the argmax within the tie rule's band (1e-9 relative)."""
    law = sizes.geometric(2.0**-58)
    f = dame.lower_bound(law, n_alpha2=100.0, constants="unit")
    m = dame.lower_bound(law, n_alpha2=100.0, constants="unit", precision=25)
    assert abs(f.log_value - float(m.log_value)) <= 1e-14 * abs(float(m.log_value))
    assert abs(f.argmax - m.argmax) <= 1e-9 * m.argmax


@pytest.mark.parametrize("law, masses, x", [
    # x S(a)^2 < 1 at every a: l rises to the limit a -> inf; a finite a is within the tie rule of it
    (sizes.geometric(0.5), ref.masses_geometric(0.5, 300), 1e-3),
    (sizes.poisson(5), ref.masses_poisson_truncated(5, 150), 1e-3),
    # x S(a)^2 >= 1: l rises to the limit; the smallest term within the rule of it lies past the search end (38)
    (sizes.poisson(5), ref.masses_poisson_truncated(5, 150), 1e35),
    (sizes.geometric(0.5), ref.masses_geometric(0.5, 300), 1e35),
], ids=["geometric-never", "poisson-never", "poisson-past-end", "geometric-past-end"])
def test_the_rule_holds_where_the_supremum_is_the_limit(law, masses, x):
    """Eq. (10)'s supremum is the limit a -> inf, not attained; the argmax is still the smallest a whose term is
    within the tie rule of it (there is one: the terms tend to it), in both paths, as the 50-digit scan of the
    law's masses says (the masses past the scan's end are below 1e-90 of the terms' gaps)."""
    with mpmath.workdps(ref.DPS):
        c1, c2 = dame.Constants.paper().values(ref.DPS)[:2]
    _, argmax = ref.lower_bound(ref.Law(masses), x, c1, c2, max(masses))
    f, m = both(law, x, constants="paper")
    assert f.argmax == m.argmax == argmax


def test_the_rule_is_relative_to_the_supremum_past_every_term_found():
    """zipf(3) at nα² = 1.19e60: eq. (10)'s terms rise towards the limit a -> inf over ~10^17 points, and the largest
    one the search finds is 1.7e-13 below it; the rule's threshold is the limit's (the maximum: a term past 2^62
    beats it by about 1e-36 only), not that term's (which gave a point 1.2e13 lower).  Checked at the argmax and
    the point before it, at 50 digits from Hurwitz zeta values: P(m > a) = zeta(3, a + 1)/zeta(3),
    E[sqrt m 1{m <= a}] = (zeta(2.5) - zeta(2.5, a + 1))/zeta(3).  (At nα² = 3.2e25 a term near a = 4e10 beats the
    limit by 7e-17: there the maximum is that term.)"""
    x = 1.1890766210558965e60
    m = dame.lower_bound(sizes.zipf(3.0), n_alpha2=x, precision=30)
    with mpmath.workdps(50):
        c1, c2 = dame.Constants.paper().values(50)[:2]
        X, z3, z25 = mpmath.mpf(x), mpmath.zeta(3), mpmath.zeta(2.5)

        def term(a):
            gt, s = mpmath.zeta(3, a + 1) / z3, (z25 - mpmath.zeta(2.5, a + 1)) / z3
            return mpmath.log(c1) - c2 * X * gt**2 - max(mpmath.log(X * s**2), 0)

        limit = mpmath.log(c1) - max(mpmath.log(X * (z25 / z3) ** 2), 0)
        thr = limit + mpmath.log1p(-mpmath.mpf(dame.LB_TIE_RTOL))
        assert term(m.argmax) >= thr > term(m.argmax - 1)
        assert abs(m.log_value / limit - 1) < mpmath.mpf(10) ** -28
