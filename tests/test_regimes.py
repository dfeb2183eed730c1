"""Tests of the regime maps: dame.grid, kent.rate_grid and rameshwar.threshold_grid agree point by point
with the single-point functions (themselves tested against brute force and closed forms)."""

import math

import numpy as np
import pytest

from bounds import dame, kent, rameshwar, sizes


def _binomial_1000(p):
    return sizes.binomial(1000, p)


@pytest.mark.filterwarnings("ignore:ln\\(c4:bounds.numerics.PaperAssumptionWarning")
@pytest.mark.parametrize(
    "family, params, constants",
    [
        ("poisson", [0.3, 5.0, 800.0], "paper"),
        ("zipf", [2.001, 2.5, 4.0], "paper"),
        ("geometric", [1e-6, 0.01, 0.7], "unit"),
        (sizes.point, [1, 50, 10**6], "unit"),
        (_binomial_1000, [1e-3, 0.05, 0.9], "paper"),  # m~ = 1 cells beside m~ > 1 ones in one row
        ("poisson", [0.3, 5.0, 800.0], "unit"),
    ],
)
def test_dame_grid_matches_single_points_bit_for_bit(family, params, constants):
    # the docstrings of grid and curve say every cell is the single-point functions' bit for bit: values, logs,
    # argmax (Python ints) and m~; cells with m~ = 1 among others of a row took E[sqrt(m ∧ 1)] from the law's sums
    # (3e-14 relative off) and the lower values np.exp where lower_bound takes math.exp (an ulp in 1 of 20)
    xs = np.geomspace(0.5, 1e12, 12)
    g = dame.grid(family, params, xs, constants=constants)
    assert g.lower.shape == (len(params), len(xs)) and g.argmax.dtype == object
    make = family if callable(family) else getattr(sizes, family)
    ones = 0
    for i, p in enumerate(params):
        law = make(p)
        cv = dame.curve(law, n_alpha2=xs, constants=constants)
        for j, x in enumerate(xs):
            lb = dame.lower_bound(law, n_alpha2=x, constants=constants)
            ub = dame.upper_bound(law, n_alpha2=x, constants=constants)
            for got in ((g.log_lower[i, j], g.lower[i, j], g.argmax[i, j], g.log_upper[i, j], g.upper[i, j],
                         g.m_tilde[i, j]),
                        (cv.log_lower[j], cv.lower[j], cv.argmax[j], cv.log_upper[j], cv.upper[j], cv.m_tilde[j])):
                assert got == (lb.log_value, lb.value, lb.argmax, ub.log_value, ub.value, ub.m_tilde), (p, x)
                assert type(got[2]) is type(lb.argmax)  # an int stays an int (inf: a float)
            ones += ub.m_tilde == 1 and not ub.capped
            want = "capped" if ub.capped else ("m_tilde=1" if ub.m_tilde == 1 else "m_tilde>1")
            assert dame.REGIMES[g.regime[i, j]] == want
    assert np.array_equal(g.log_gap, g.log_upper - g.log_lower)
    if family is _binomial_1000:
        assert ones > 0  # the case the test is for


def test_dame_grid_and_curve_argmax_exact_past_2_to_53():
    # argmax was a float64 array: 2**60 + 1 came out 2**60; now Python ints, equal to lower_bound's
    laws = [sizes.point(2**53 + 1), sizes.finite({2**55 + 3: 0.5, 2**60 + 1: 0.5}), sizes.point(2**62)]
    xs = [1e3, 1e30]
    g = dame.grid(lambda i: laws[int(i)], [0, 1, 2], xs, constants="paper")
    cv = dame.curve(laws, n_alpha2=1e30)
    for i, law in enumerate(laws):
        for j, x in enumerate(xs):
            lb = dame.lower_bound(law, n_alpha2=x)
            assert g.argmax[i, j] == lb.argmax and type(g.argmax[i, j]) is int
        assert cv.argmax[i] == dame.lower_bound(law, n_alpha2=1e30).argmax
    assert g.argmax[0, 1] == 2**53 + 1 and g.argmax[2, 1] == 2**62 and cv.argmax[1] in (2**55 + 3, 2**60 + 1)
    assert {int(a) for a in g.argmax[:, 1]} >= {2**53 + 1, 2**62}


def test_dame_grid_regimes_move_as_the_paper_says():
    # more privacy budget: m̃ grows (Theorem 2), the cap disappears, the gap in nα² stays bounded
    g = dame.grid("poisson", [50.0], np.geomspace(1, 1e12, 25))
    assert np.all(np.diff(g.m_tilde[0]) >= 0)
    assert dame.REGIMES[g.regime[0, 0]] == "capped" and dame.REGIMES[g.regime[0, -1]] == "m_tilde>1"
    assert np.all(np.diff(g.log_lower[0]) <= 1e-12)  # the lower bound decreases in nα²


def test_kent_rate_grid_matches_rate():
    Ts, alphas = [1, 10, 10**4, 10**9], [0.05, 0.5, 1.0]
    for problem, kw in (("mean", {}), ("density", {"beta": 1.0}), ("sparse", {"d": 100, "s": 3})):
        g = kent.rate_grid(problem, n=500, T=Ts, alpha=alphas, **kw)
        for i, T in enumerate(Ts):
            for j, a in enumerate(alphas):
                r = kent.rate(problem, n=500, T=T, alpha=a, **kw)
                assert g.lower[i, j] == pytest.approx(r.lower, rel=1e-13)
                assert g.upper[i, j] == pytest.approx(r.upper, rel=1e-13)
                assert g.item_level[i, j] == pytest.approx(r.item_level, rel=1e-13)
                assert ("small-T", "large-T")[g.regime[i, j]] == r.regime


def test_rameshwar_threshold_grid_matches_threshold():
    rng = np.random.default_rng(5)
    cols = [rng.integers(1, 1000, size=k) for k in (1, 7, 50)]
    eps = [0.01, 0.3, 2 / 7, 1.0, 2.0, 5.0]
    g = rameshwar.threshold_grid(cols, U=3.5, eps=eps)
    for i, m in enumerate(cols):
        for j, e in enumerate(eps):
            assert g[i, j] == rameshwar.threshold(m, U=3.5, eps=e)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: kent.rate_grid("mean", n=10, T=[], alpha=[1.0]), "non-empty"),
        (lambda: kent.rate_grid("mean", n=10, T=[0], alpha=[1.0]), "T must be an integer"),
        (lambda: kent.rate_grid("mean", n=10, T=[1], alpha=[math.nan]), "alpha must be a positive"),
        (lambda: rameshwar.threshold_grid([], U=1, eps=[1.0]), "collections"),
        (lambda: rameshwar.threshold_grid([[1, 2]], U=1, eps=[0.0]), "eps must be a positive"),
        (lambda: dame.grid("poisson", [-1.0], [1.0]), "lam must be a positive"),
        (lambda: dame.grid("poisson", [1.0], [0.0]), "n_alpha2 must be a positive"),
    ],
)
def test_grids_refuse_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_dame_grid_names_the_law_whose_search_refuses():
    # the laws are searched together; a law that cannot be tabulated is still named by its index
    from scipy import stats

    def uniform_scipy(k):
        return sizes.from_scipy(stats.randint(1, int(k)))

    with pytest.raises(ValueError, match=r"params\[1\] = .*too heavy to tabulate"):
        dame.grid(uniform_scipy, [10, 10**7 + 1], [1e2, 1e6])


def _mixed(p):
    # laws of three classes in one map: stacked and table-read laws searched together
    return sizes.geometric(p) if p < 0.01 else sizes.zipf(2 + p) if p < 0.1 else sizes.poisson(1e4 * p)


@pytest.mark.filterwarnings("ignore:ln\\(c4:bounds.numerics.PaperAssumptionWarning")
@pytest.mark.parametrize("constants", ["paper", "unit"])
@pytest.mark.parametrize(
    "family, params",
    [
        ("poisson", np.geomspace(0.05, 1e6, 25)),  # scans, tables read by index, walks below the tables
        ("geometric", np.concatenate([np.geomspace(1e-9, 0.99, 23), [0.6321, 0.6322]])),  # beta on both sides of 1
        ("zipf", 2 + np.geomspace(1e-12, 5, 25)),
        (_mixed, np.geomspace(1e-4, 1.0, 25)),
    ],
)
def test_dame_grid_is_each_laws_own_search_bit_for_bit(family, params, constants):
    # the map searches every law at once; each law's rows must see only that law's values, asked as its own
    # search asks them: the map equals the per-law searches exactly (the reference is one law at a time)
    from bounds.dame._lower import _lower_many
    from bounds.dame._condition import _budgets_of
    from bounds.dame._upper import _m_tilde_many

    xs = np.geomspace(0.3, 1e12, 30)
    g = dame.grid(family, params, xs, constants=constants)
    make = family if callable(family) else getattr(sizes, family)
    c = dame.Constants.resolve(constants)
    for i, p in enumerate(params):
        law = make(float(p))
        ll, arg = _lower_many(law, xs, c)
        assert np.array_equal(g.log_lower[i], ll), p
        assert g.argmax[i].tolist() == [float(a) for a in arg], p
        assert np.array_equal(g.m_tilde[i], _m_tilde_many(law, xs, _budgets_of(xs), c)), p


@pytest.mark.filterwarnings("ignore:ln\\(c4:bounds.numerics.PaperAssumptionWarning")
@pytest.mark.parametrize("max_rows", [15, 50])
def test_dame_grid_in_groups_of_laws_is_each_laws_own_search(monkeypatch, max_rows):
    # a map of more rows than one search holds runs in groups of whole laws (here forced small: 15 rows, fewer
    # than one law's 20, and 50, two laws a group); each law's values stay those of its own searches
    from bounds.dame import _lower, _rows, _upper
    from bounds.dame._lower import _lower_many
    from bounds.dame._condition import _budgets_of
    from bounds.dame._upper import _m_tilde_many

    for module in (_rows, _lower, _upper):
        monkeypatch.setattr(module, "MAX_ROWS", max_rows)
    params, xs = np.geomspace(1e-4, 1.0, 7), np.geomspace(0.3, 1e12, 20)
    g = dame.grid(_mixed, params, xs, constants="unit")
    c = dame.Constants.resolve("unit")
    for i, p in enumerate(params):
        law = _mixed(float(p))
        ll, arg = _lower_many(law, xs, c)
        assert np.array_equal(g.log_lower[i], ll) and g.argmax[i].tolist() == [float(a) for a in arg], p
        assert np.array_equal(g.m_tilde[i], _m_tilde_many(law, xs, _budgets_of(xs), c)), p


@pytest.mark.parametrize("constants", ["paper", "unit"])
def test_dame_grid_m_tilde_and_upper_bound_exact_past_2_to_53(constants):
    # a map's m~ is an int64 (a float64 array rounded 2**60 + 1 to 2**60, and the upper bound used it): each
    # cell equals the single-point functions (themselves checked at 50 digits past 2**53 in test_dame.py)
    laws = [sizes.point(2**60 + 1), sizes.finite({2**55 + 3: 0.5, 2**60 + 1: 0.5})]
    xs = [1e3, 1e9]
    g = dame.grid(lambda i: laws[int(i)], [0, 1], xs, constants=constants)
    for i, law in enumerate(laws):
        for j, x in enumerate(xs):
            ub = dame.upper_bound(law, n_alpha2=x, constants=constants)
            assert int(g.m_tilde[i, j]) == ub.m_tilde and ub.m_tilde > 2**53
            assert g.log_upper[i, j] == ub.log_value
