"""The whole scans of light laws (``bounds.dame._scan``) against the searches and the mpmath path.

The scans replace the branch and bound of eq. (10) and the bisection of eq. (12) for laws whose
search ends at ``a <= SCAN_POINTS``; they must return what the searches return (the same
functionals, the same tie rule), and the float argmax must be the mpmath path's (which never
scans) where eq. (10) is flat.  The exhaustive references of ``tests/test_searches.py`` run on both
paths as well.
"""

from __future__ import annotations

import numpy as np
import pytest

from bounds import dame, sizes
from bounds.dame import _scan

pytestmark = pytest.mark.filterwarnings("ignore::bounds.numerics.PaperAssumptionWarning")  # unit constants, small x

LIGHT = {
    "poisson(5)": lambda: sizes.poisson(5),
    "poisson(0.3)": lambda: sizes.poisson(0.3),
    "poisson(40, shift)": lambda: sizes.poisson(40, zero="shift"),
    "binomial(50, 0.3)": lambda: sizes.binomial(50, 0.3),
    "binomial(10, 0.999)": lambda: sizes.binomial(10, 0.999),
    "finite{1, 100}": lambda: sizes.finite({1: 0.5, 100: 0.5}),
    "finite{7, 9, 3000}": lambda: sizes.finite({7: 0.2, 9: 0.7, 3000: 0.1}),
    "uniform(3, 9)": lambda: sizes.uniform(3, 9),
    "empirical": lambda: sizes.empirical([1, 1, 3, 5, 40]),
    "point(7)": lambda: sizes.point(7),
}
XS = np.geomspace(1e-3, 1e14, 40)


def _both(make, fn):
    """``fn(law)`` with the scan (default) and with the searches (no law scanned)."""
    scanned = fn(make())
    saved = _scan.SCAN_POINTS
    _scan.SCAN_POINTS = 0
    try:
        searched = fn(make())
    finally:
        _scan.SCAN_POINTS = saved
    return scanned, searched


@pytest.mark.parametrize("label", list(LIGHT))
@pytest.mark.parametrize("constants", ["paper", "unit"])
def test_scan_equals_the_searches(label, constants):
    make = LIGHT[label]
    assert _scan.prefix(make()) is not None  # every law here is scanned by default

    def run(law):
        lbs = [dame.lower_bound(law, n_alpha2=x, constants=constants) for x in XS]
        mts = [dame.m_tilde(law, n_alpha2=x, constants=constants) for x in XS]
        ubs = [dame.upper_bound(law, n_alpha2=x, constants=constants).log_value for x in XS]
        return [b.argmax for b in lbs], np.array([b.log_value for b in lbs]), mts, np.array(ubs)

    (arg_s, lv_s, mt_s, ub_s), (arg_b, lv_b, mt_b, ub_b) = _both(make, run)
    assert arg_s == arg_b
    assert mt_s == mt_b
    np.testing.assert_allclose(lv_s, lv_b, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(ub_s, ub_b, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("family,params", [("poisson", np.geomspace(0.05, 60, 12)),
                                           ("point", np.array([1, 2, 5, 17, 400, 4000]))])
def test_scanned_map_equals_the_searched_map(family, params):
    scanned, searched = _both(lambda: None, lambda _: dame.grid(family, params, XS, constants="unit"))
    np.testing.assert_array_equal(scanned.m_tilde, searched.m_tilde)
    np.testing.assert_allclose(scanned.log_lower, searched.log_lower, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(scanned.log_upper, searched.log_upper, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("make", [lambda: sizes.poisson(5), lambda: sizes.binomial(50, 0.3),
                                  lambda: sizes.finite({2: 0.5, 6: 0.25, 9: 0.25})])
@pytest.mark.parametrize("x", [1e6, 1e9, 1e11, 1e13])
def test_scanned_argmax_is_the_mpmath_argmax_where_eq10_is_flat(make, x):
    """At large nα² eq. (10) is flat to 1e-12 over the upper tail: the tie rule (smallest a within
    1e-9 of the maximum) decides, and the scanned float argmax must be the 40-digit one."""
    law = make()
    fl = dame.lower_bound(law, n_alpha2=x)
    mp = dame.lower_bound(law, n_alpha2=x, precision=40)
    assert fl.argmax == mp.argmax
    assert fl.log_value == pytest.approx(float(mp.log_value), rel=1e-13)


def test_prefix_holds_the_laws_own_functionals():
    law = sizes.binomial(20, 0.4)
    pre = _scan.prefix(law)
    a = np.arange(pre.K + 2)
    np.testing.assert_array_equal(pre.log_gt, law.log_prob_gt(a[:-1]))
    np.testing.assert_array_equal(pre.log_s, law.log_partial_sqrt_mean(a[:-1]))
    np.testing.assert_array_equal(pre.log_ge, law.log_prob_ge(a))
    assert _scan.prefix(law) is pre  # computed once per law
    assert _scan.prefix(sizes.geometric(0.2)) is None  # a closed-form law searches to 2**61
