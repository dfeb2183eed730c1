"""The whole scans of light laws and the windows of wide tables (``bounds.dame._scan``) against the
searches on the law itself and the mpmath path.

The scans replace the branch and bound of eq. (10) and the bisection of eq. (12) for laws whose
search ends at ``a <= SCAN_POINTS``; they must return what the searches return (the same
functionals, the same tie rule), and the float argmax must be the mpmath path's (which never
scans) where eq. (10) is flat.  The exhaustive references of ``tests/test_searches.py`` run on both
paths as well.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

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
    "geometric(0.5)": lambda: sizes.geometric(0.5),  # closed forms: a cut prefix (its searches run to 2**61)
    "geometric(0.05)": lambda: sizes.geometric(0.05),
}
XS = np.geomspace(1e-3, 1e14, 40)


def _both(make, fn):
    """``fn(law)`` with the scans and windows (default) and with the searches on the law itself."""
    scanned = fn(make())
    saved = _scan.SCAN_POINTS, _scan.WINDOW_POINTS
    _scan.SCAN_POINTS = _scan.WINDOW_POINTS = 0
    try:
        searched = fn(make())
    finally:
        _scan.SCAN_POINTS, _scan.WINDOW_POINTS = saved
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


def _assert_prefix_matches_40_digits(law, pre):
    """The prefix's three columns against the law's own functionals at 40 digits (mpmath, the oracle): the same
    infinities, and each finite log within 1e-13 of the larger of 1 and its size (a relative 1e-13 of the value
    where the log is below 1 in size; about 450 ulps, far above the few ulps of a correct sum)."""
    a = np.arange(pre.K + 2)
    for col, query, pts in ((pre.log_gt, law.log_prob_gt, a[:-1]), (pre.log_s, law.log_partial_sqrt_mean, a[:-1]),
                            (pre.log_ge, law.log_prob_ge, a)):
        exact = np.array([float(v) for v in query(pts, precision=40)])
        assert col.shape == exact.shape
        fin = np.isfinite(exact)
        np.testing.assert_array_equal(col[~fin], exact[~fin])
        assert np.all(np.abs(col[fin] - exact[fin]) <= 1e-13 * np.maximum(1.0, np.abs(exact[fin])))


def test_prefix_holds_the_laws_functionals():
    law = sizes.binomial(20, 0.4)
    pre = _scan.prefix(law)
    _assert_prefix_matches_40_digits(law, pre)
    assert pre.log_gt[0] == 0.0 and pre.log_ge[0] == pre.log_ge[1] == 0.0 and pre.log_s[0] == -np.inf  # exact
    assert _scan.prefix(law) is pre  # computed once per law
    assert _scan.prefix(sizes.geometric(1e-6)) is None  # a closed-form tail past SCAN_POINTS: the searches, to 2**61
    assert _scan.prefix(sizes.zipf(3.0)) is None


@pytest.mark.parametrize("p", [0.9, 0.2, 0.03])
def test_cut_prefix_of_a_closed_form_tail(p):
    """geometric(p): its prefix stops at the first K with (1 - p)^K <= CUT_TAIL (closed form, not the search end
    2**61), holding the law's functionals (its closed-form tails exactly)."""
    law = sizes.geometric(p)
    pre = _scan.prefix(law)
    K = math.ceil(math.log(_scan.CUT_TAIL) / math.log1p(-p))
    assert pre.cut and abs(pre.K - K) <= 1 and pre.K <= _scan.SCAN_POINTS < law.search_end()
    assert (1 - p) ** pre.K <= _scan.CUT_TAIL * (1 + 1e-12) and (1 - p) ** (pre.K - 1) > _scan.CUT_TAIL * (1 - 1e-12)
    _assert_prefix_matches_40_digits(law, pre)
    np.testing.assert_array_equal(pre.log_gt, law.log_prob_gt(np.arange(pre.K + 1)))  # the closed form a log q


def test_cut_prefix_leaves_huge_budgets_to_the_search():
    """Past a cut the terms of eq. (10) may exceed the term at K by c2 x P(m > K)^2: where that is not below half
    an ulp of the maximum (nα² = 1e90 for geometric(0.5), P(m > K) ~ 1e-40) the row is searched, and both paths
    agree with the 40-digit bound."""
    law = sizes.geometric(0.5)
    pre = _scan.prefix(law)
    x = np.array([1e3, 1e90])
    _, _, decided = _scan.lower(law, pre, x, dame.Constants.paper().floats, dame.LB_TIE_RTOL)
    assert decided.tolist() == [True, False]
    for xv in x:
        fl = dame.lower_bound(law, n_alpha2=xv)
        mp = dame.lower_bound(law, n_alpha2=xv, precision=40)
        assert fl.argmax == mp.argmax
        assert fl.log_value == pytest.approx(float(mp.log_value), rel=1e-13)


WIDE = {
    "poisson(1e4)": lambda: sizes.poisson(1e4),
    "poisson(2.5e5 + 0.5)": lambda: sizes.poisson(2.5e5 + 0.5),
    "poisson(3000, shift)": lambda: sizes.poisson(3000, zero="shift"),
    "binomial(1e6, 0.3)": pytest.param(lambda: sizes.binomial(10**6, 0.3), marks=pytest.mark.slow),  # 15 s
    "binomial(20000, 0.5)": pytest.param(lambda: sizes.binomial(20000, 0.5), marks=pytest.mark.slow),  # 4 s
    "poisson(1000)": lambda: sizes.poisson(1000),  # a prefix; many budgets: the searches on its arrays
}
# budgets around the jump of m~ from 1 into the bulk (phi(a) crossing 1: the rows decided below a window),
# and budgets so large that the mass below a window (about e^-60) matters: x S(a)^2 >= 1 below it, and
# eq. (10) at a < w within 1e-9 of its value at 0
XW = np.concatenate([np.geomspace(1e-3, 1e14, 30), np.geomspace(2e3, 3e4, 40), np.geomspace(1e20, 1e300, 25)])


def _wide_case(label, constants):
    """``(make, constants)`` with the id ``constants-label``; the widest window (6-8 s a case) and one set of
    constants of the shifted and the prefix laws in the slow run only (they fail on the mutations of the window's
    reads that poisson(1e4)'s cases fail on)."""
    entry = WIDE[label]
    make, marks = (entry.values[0], [*entry.marks]) if hasattr(entry, "marks") else (entry, [])
    if label == "poisson(2.5e5 + 0.5)" or (label, constants) in {("poisson(3000, shift)", "unit"),
                                                                 ("poisson(1000)", "paper")}:
        marks.append(pytest.mark.slow)
    return pytest.param(make, constants, marks=marks, id=f"{constants}-{label}")


@pytest.mark.parametrize("make, constants", [_wide_case(label, constants) for constants in ("paper", "unit")
                                             for label in WIDE])
def test_window_searches_equal_the_searches_on_the_law(make, constants):
    """The searches read a wide table's functionals from arrays (and decide m~ below the window from
    φ alone, confirmed at two points): the same maxima, argmaxes and m~ as on the law itself."""
    law = make()
    assert _scan.window(law) is not law  # served by a window (or a prefix's arrays)

    def run(law):
        g = dame.curve(law, n_alpha2=XW, constants=constants)
        return g.argmax, g.log_lower, g.m_tilde, g.log_upper

    (arg_w, lv_w, mt_w, ub_w), (arg_l, lv_l, mt_l, ub_l) = _both(make, run)
    np.testing.assert_array_equal(arg_w, arg_l)
    np.testing.assert_array_equal(mt_w, mt_l)
    # a light law's prefix is summed apart from its table (each within 2.8e-14 of the exact sums): at nα² >= 1e20 the
    # log of eq. (10) is -c2 x P(m > a)^2, whose relative error is twice P's; a window reads the table itself
    rtol = 1e-13 if _scan.prefix(make()) is not None else 1e-14
    np.testing.assert_allclose(lv_w, lv_l, rtol=rtol, atol=1e-14)
    np.testing.assert_allclose(ub_w, ub_l, rtol=rtol, atol=1e-14)
    assert len(set(mt_w.tolist())) > 10  # m~ = 1, the jump and the bulk all occur


def test_window_holds_the_laws_own_functionals():
    law = sizes.poisson(1e5)
    view = _scan.window(law)
    win = _scan.window_of(view)
    assert win.lo == law.support_points()[0] - 1 and win.K == law.search_end()
    inside = np.array([win.lo, win.lo + 1, 100_000, win.K])
    a = np.array([0, 1, 500, win.lo - 7, win.K + 1, win.K + 50])  # outside: the law's own answer
    for name in ("log_prob_gt", "log_partial_sqrt_mean", "log_prob_ge"):
        np.testing.assert_array_equal(getattr(view, name)(inside), getattr(law, name)(inside), err_msg=name)
        np.testing.assert_array_equal(getattr(view, name)(a), getattr(law, name)(a), err_msg=name)
        np.testing.assert_array_equal(getattr(view, name)(a, precision=20), getattr(law, name)(a, precision=20))
    assert _scan.window_of(law) is None
    finite = sizes.finite({3: 0.5, 10**8: 0.5})
    assert _scan.window(finite) is finite  # no contiguous table: the law itself


_ON_LAW: dict = {}  # (law, constants) -> the searches on the law itself, shared by the window depths


def _slow_unless(*kept):
    """The parametrisations ``kept`` in the default run, the others marked slow (all run in CI)."""
    return lambda *values: pytest.param(*values, marks=() if values in kept else pytest.mark.slow)


_bulk_case = _slow_unless(("poisson(1e4)", -300, "paper"), ("poisson(1e4)", 200, "unit"))


@pytest.mark.parametrize("make_id, depth, constants", [
    _bulk_case(make_id, depth, constants) for make_id in ("poisson(1e4)", "binomial(20000, 0.5)")
    for depth in (-300, -60, 0, 40, 200) for constants in ("paper", "unit")])
def test_searches_on_a_window_inside_the_bulk(monkeypatch, make_id, depth, constants):
    """A window starting inside the bulk (a large mass below it): the steps that skip the points below a
    window (the start of the first-reaching bisection, the tie search's bound on [0, w], m~'s φ-only
    bisection and its confirmation) must still give the law's own answers."""
    law = {"poisson(1e4)": lambda: sizes.poisson(1e4), "binomial(20000, 0.5)": lambda: sizes.binomial(20000, 0.5)}[make_id]()
    K = law.search_end()
    lo = int(law.mean()) + depth
    a = np.arange(lo, K + 2, dtype=np.int64)
    win = _scan.Prefix(K, law.log_prob_gt(a[:-1]), law.log_partial_sqrt_mean(a[:-1]), law.log_prob_ge(a), lo)
    # tiny budgets too: eq. (10) flat to 1e-9 from deep in the bulk (the tie rule's smallest a below the window)
    xs = np.concatenate([XW, np.geomspace(1e-2, 1e2, 30), np.geomspace(1e-10, 1e-4, 30)])

    def run(view):
        monkeypatch.setattr(_scan, "window", view)
        g = dame.curve(law, n_alpha2=xs, constants=constants)
        return g.argmax, g.log_lower, g.m_tilde, g.log_upper

    on_window = run(lambda law: _scan._WindowView(law, win))
    if (make_id, constants) not in _ON_LAW:  # the reference does not depend on the window
        _ON_LAW[make_id, constants] = run(lambda law: law)
    on_law = _ON_LAW[make_id, constants]
    np.testing.assert_array_equal(on_window[0], on_law[0])
    np.testing.assert_array_equal(on_window[2], on_law[2])
    np.testing.assert_allclose(on_window[1], on_law[1], rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(on_window[3], on_law[3], rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("make", [lambda: sizes.point(2**62), lambda: sizes.finite({2**62 - 1: 0.5, 2**62: 0.5}),
                                  lambda: sizes.uniform(2**62 - 5000, 2**62)])
def test_laws_at_the_top_of_the_size_range(make):
    """A table ending at the largest size (2**62): no window reads past it, and both bounds agree with
    the searches on the law itself."""
    def run(law):
        return [(dame.lower_bound(law, n_alpha2=x).log_value, dame.m_tilde(law, n_alpha2=x)) for x in (1.0, 1e6, 1e30)]

    with_windows, on_law = _both(make, run)
    assert with_windows == on_law


def test_tie_search_below_a_window_at_tiny_budgets(monkeypatch):
    """A finite law at tiny nα²: eq. (10) is flat to 1e-9 from deep in the bulk, and the tie rule's
    smallest a lies below a window placed at the mean; the bound that skips [1, w) must not hide it."""
    law = sizes.binomial(20000, 0.5)
    K = law.search_end()
    lo = int(law.mean())
    a = np.arange(lo, K + 2, dtype=np.int64)
    win = _scan.Prefix(K, law.log_prob_gt(a[:-1]), law.log_partial_sqrt_mean(a[:-1]), law.log_prob_ge(a), lo)
    xs = np.geomspace(1e-10, 1e-4, 30)

    def run(view):
        monkeypatch.setattr(_scan, "window", view)
        lbs = [dame.lower_bound(law, n_alpha2=x, constants="unit") for x in xs]
        return [b.argmax for b in lbs], [b.log_value for b in lbs]

    on_window, on_law = run(lambda law: _scan._WindowView(law, win)), run(lambda law: law)
    assert on_window[0] == on_law[0]
    np.testing.assert_allclose(on_window[1], on_law[1], rtol=1e-14)
    assert len(set(on_law[0])) > 5  # the argmax moves through the bulk


FUSED = {  # laws whose prefix is summed in one pass over their masses (``_scan.fused``): the first point's path
    "poisson(5)": lambda: sizes.poisson(5),
    "poisson(20)": lambda: sizes.poisson(20),
    "poisson(0.01)": lambda: sizes.poisson(0.01),
    "poisson(300)": lambda: sizes.poisson(300),
    "poisson(5, shift)": lambda: sizes.poisson(5, zero="shift"),
    "binomial(50, 0.3)": lambda: sizes.binomial(50, 0.3),
    "binomial(100, 0.05)": lambda: sizes.binomial(100, 0.05),
    "binomial(20, 0.97)": lambda: sizes.binomial(20, 0.97),
    "geometric(0.5)": lambda: sizes.geometric(0.5),
    "geometric(0.05)": lambda: sizes.geometric(0.05),
    "poisson(1e-300)": lambda: sizes.poisson(1e-300),  # almost a point mass at 1
    "binomial(2, 1)": lambda: sizes.binomial(2, 1.0),  # a point mass at N
    "binomial(7, 1e-9)": lambda: sizes.binomial(7, 1e-9),
    "geometric(0.999999)": lambda: sizes.geometric(0.999999),
    # a scipy law: its tail beyond K by its own survival function
    "scipy nbinom(5, 0.5), shift": lambda: sizes.from_scipy(stats.nbinom(5, 0.5), zero="shift"),
}


def _first_points_against_40_digits(make, xs, constants):
    """A NEW law's first point (LB then UB, float64) at each budget against the 40-digit path (mpmath, the oracle,
    which never reads a prefix): argmax and m~ exactly; values within a relative 1e-12 (the largest seen on the
    sweep below is 7.4e-15), logs within 1e-13 of the larger of 1 and their size (``-inf`` exactly)."""
    for x in xs:
        law = make()
        assert getattr(law, "_light_prefix")(_scan.SCAN_POINTS, _scan.CUT_TAIL) is not None  # the fused path
        lb = dame.lower_bound(law, n_alpha2=x, constants=constants)
        ub = dame.upper_bound(law, n_alpha2=x, constants=constants)
        lbm = dame.lower_bound(make(), n_alpha2=x, constants=constants, precision=40)
        ubm = dame.upper_bound(make(), n_alpha2=x, constants=constants, precision=40)
        assert (lb.argmax, ub.m_tilde, ub.capped) == (lbm.argmax, ubm.m_tilde, ubm.capped), x
        for got, exact in ((lb.value, lbm.value), (ub.value, ubm.value)):
            assert got == pytest.approx(float(exact), rel=1e-12, abs=0.0), x
        for got, exact in ((lb.log_value, lbm.log_value), (ub.log_value, ubm.log_value)):
            if not math.isfinite(float(exact)):  # eq. (11) not positive (unit constants, small x): -inf on both
                assert got == float(exact), x
            else:
                assert abs(got - float(exact)) <= 1e-13 * max(1.0, abs(float(exact))), x


@pytest.mark.parametrize("label", ["poisson(5)", "binomial(50, 0.3)", "geometric(0.5)", "poisson(5, shift)",
                                   "binomial(20, 0.97)"])
@pytest.mark.parametrize("constants", ["paper", "unit"])
def test_fused_first_point_matches_40_digits(label, constants):
    _first_points_against_40_digits(FUSED[label], [1e-3, 0.7, 30.0, 1e3, 1e6, 1e9, 1e12, 1e16, 1e30], constants)


@pytest.mark.slow
@pytest.mark.parametrize("label", list(FUSED))
@pytest.mark.parametrize("constants", ["paper", "unit"])
def test_fused_first_point_matches_40_digits_broad(label, constants):
    _first_points_against_40_digits(FUSED[label], np.geomspace(1e-3, 1e16, 25), constants)


@pytest.mark.parametrize("label", [pytest.param(k, marks=pytest.mark.slow) if k == "geometric(0.05)" else k
                                   for k in FUSED])  # 40-digit geometric sums on 900 points: seconds
def test_fused_prefix_matches_40_digits(label):
    law = FUSED[label]()
    _assert_prefix_matches_40_digits(law, _scan.prefix(law))


def test_fused_prefix_deep_tails_stay_in_log_space():
    """Masses far below the float range (poisson(700)'s first ones, e^-690 and less; binomial(100, 0.05)'s last,
    e^-300) are summed as logs: finite where the law's are, and the 40-digit values."""
    for law in (sizes.poisson(700), sizes.binomial(100, 0.05)):
        pre = _scan.prefix(law)
        assert np.min(pre.log_s[1:]) < -650 or np.min(pre.log_gt[:-1]) < -290
        _assert_prefix_matches_40_digits(law, pre)
