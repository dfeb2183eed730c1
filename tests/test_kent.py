"""Tests of bounds.kent: rates against their sympy forms, phase transitions, T = 1 reductions."""

import functools
import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import kent

SYM = dict(zip("n T alpha d s beta".split(), sp.symbols("n T alpha d s beta", positive=True)))
CON = dict(zip("c C c1 c2".split(), sp.symbols("c C c1 c2", positive=True)))

cases = st.sampled_from([
    ("mean", "linf"), ("mean", "l2"), ("sparse", "linf"), ("density", "linf"),
])


def _kw(problem, d, s, beta):
    kw = {"d": d}
    if problem == "sparse":
        kw["s"] = min(s, d)
    if problem == "density":
        kw["beta"] = beta
    return kw


@settings(max_examples=30, deadline=None)
@given(case=cases, n=st.integers(1, 10**6), T=st.integers(1, 10**9), alpha=st.floats(0.01, 1.0),
       d=st.integers(1, 500), s=st.integers(1, 50), beta=st.floats(0.3, 4.0),
       k=st.tuples(*[st.floats(0.1, 5.0)] * 4))
def test_rates_equal_their_sympy_forms(case, n, T, alpha, d, s, beta, k):
    problem, ball = case
    kw = _kw(problem, d, s, beta)
    consts = kent.RateConstants(*k)
    r = kent.rate(problem, n=n, T=T, alpha=alpha, ball=ball, constants=consts, **kw)
    subs = {SYM["n"]: n, SYM["T"]: T, SYM["alpha"]: alpha, SYM["d"]: d,
            SYM["s"]: kw.get("s", 1), SYM["beta"]: kw.get("beta", 1.0), **consts.subs()}
    args = [subs[v] for v in _ARGS]
    for key, got in (("lower", r.lower), ("upper", r.upper), ("item_level", r.item_level)):
        with mpmath.workdps(30):
            expect = float(_mp_form(problem, ball, key)(*args))
        assert got == pytest.approx(expect, rel=1e-12, abs=1e-300), (key, problem, ball)


_ARGS = [*SYM.values(), *CON.values()]


@functools.cache
def _mp_form(problem, ball, key):
    """The sympy form ``kent.symbolic(problem, ball)[key]`` as an mpmath function of ``_ARGS`` (evaluated
    at the working precision; built once per form instead of a sympy substitution per example)."""
    return sp.lambdify(_ARGS, kent.symbolic(problem, ball)[key], modules="mpmath")


@settings(max_examples=150, deadline=None)
@given(case=cases, n=st.integers(1, 10**6), T=st.integers(1, 10**9), alpha=st.floats(0.01, 1.0),
       d=st.integers(1, 500), s=st.integers(1, 50), beta=st.floats(0.3, 4.0), k=st.floats(0.05, 1.0))
def test_lower_never_exceeds_upper_with_equal_constants(case, n, T, alpha, d, s, beta, k):
    problem, ball = case
    kw = _kw(problem, d, s, beta)
    r = kent.rate(problem, n=n, T=T, alpha=alpha, ball=ball, constants=kent.RateConstants(k, k, k, k), **kw)
    assert r.lower <= r.upper * (1 + 1e-12), (problem, ball, n, T, alpha, kw, r)


# --------------------------------------------------------------------------- phase transitions


@pytest.mark.parametrize("problem, ball, kw", [
    ("mean", "linf", {"d": 1}), ("mean", "linf", {"d": 8}), ("mean", "l2", {"d": 8}),
    ("sparse", "linf", {"d": 1000, "s": 4}), ("density", "linf", {"beta": 1.5}),
])
@pytest.mark.parametrize("n, alpha", [(200, 0.3), (1000, 0.2), (50, 0.9)])
def test_t_dagger_equalises_the_two_terms(problem, ball, kw, n, alpha):
    consts = kent.RateConstants(0.7, 1.3, 0.9, 0.4)
    pt = kent.phase_transition(problem, n=n, alpha=alpha, ball=ball, constants=consts, **kw)
    f = kent.symbolic(problem, ball)
    base = {SYM["n"]: n, SYM["alpha"]: alpha, SYM["d"]: kw.get("d", 1), SYM["s"]: kw.get("s", 1),
            SYM["beta"]: kw.get("beta", 1.0), **consts.subs()}
    with mpmath.workdps(40):
        t_low = sp.exp(sp.Float(pt.log_lower, 40))
        poly = sp.N(f["poly"].subs({**base, SYM["T"]: t_low}), 40)
        expo = sp.N(f["exp"].subs({**base, SYM["T"]: t_low}), 40)
        assert float(abs(poly / expo - 1)) < 1e-12
        if pt.log_upper is not None:
            t_up = sp.exp(sp.Float(pt.log_upper, 40))
            up = f["upper"].args  # Min(trivial, C*(term1 + term2)) or C*(term1 + term2)
            expr = f["upper"] if problem == "density" else [a for a in up if a.has(CON["C"])][0]
            terms = (expr / CON["C"]).expand().args if problem != "density" else (expr / CON["C"]).args
            vals = [sp.N(t.subs({**base, SYM["T"]: t_up}), 40) for t in terms]
            assert len(vals) == 2 and float(abs(vals[0] / vals[1] - 1)) < 1e-12


def test_t_dagger_in_log_space_does_not_overflow():
    pt = kent.phase_transition("mean", n=10**6, alpha=0.5)
    assert pt.lower == math.inf and pt.log_lower == pytest.approx(250000 - math.log(250000))
    r_small = kent.rate("mean", n=1000, T=1, alpha=0.2)
    pt2 = kent.phase_transition("mean", n=1000, alpha=0.2)
    assert r_small.regime == "small-T"
    assert kent.rate("mean", n=1000, T=int(pt2.lower * 2), alpha=0.2).regime == "large-T"
    assert kent.rate("mean", n=1000, T=int(pt2.lower / 2), alpha=0.2).regime == "small-T"


def test_estimator_cap():
    t, tau = kent.estimator_cap(n=100, T=10**6, alpha=0.2, K=2)  # e^{4/2} = 7.39
    assert t == 7 and tau == pytest.approx(math.sqrt(2 * math.log(100 * 7 * 0.04) / 7))
    assert kent.estimator_cap(n=100, T=5, alpha=0.2)[0] == 5
    assert kent.estimator_cap(n=10**5, T=10**9, alpha=1.0)[0] == 10**9  # e^{1e5} never caps
    with pytest.raises(ValueError, match="not defined"):
        kent.estimator_cap(n=1, T=1, alpha=0.5)


# --------------------------------------------------------------------------- T = 1


@pytest.mark.parametrize("n, alpha", [(10, 0.1), (100, 0.5), (10**4, 0.3), (10**6, 1.0)])
@pytest.mark.parametrize("d", [1, 3, 50])
def test_at_T_1_mean_rates_reduce_to_item_level(n, alpha, d):
    # e^{-y} <= min(1, 1/(e y)) <= min(1, 1/y): with c = c1 = 1 the exponential term never wins
    for ball in ("linf", "l2"):
        r = kent.rate("mean", n=n, T=1, alpha=alpha, d=d, ball=ball)
        assert r.lower == r.item_level


@pytest.mark.parametrize("n, alpha", [(10, 0.5), (100, 0.5), (10**4, 0.3)])
def test_at_T_1_density_and_sparse_rates_reduce_to_item_level(n, alpha):
    # density: (nα²)^{-2β} <= (nα²)^{-β/(β+1)} once nα² >= 1 -- equality
    r = kent.rate("density", n=n, T=1, alpha=alpha, beta=2.0)
    assert r.lower == r.item_level
    # sparse [R]: min(s, s ψ(d/x)) with ψ(u) = min(u, 1 + log(1 ∨ u)) is min(s, sd/x) at T = 1, by construction
    for d in (5, 100, 10**5):
        r = kent.rate("sparse", n=n, T=1, alpha=alpha, d=d, s=5)
        assert r.lower == pytest.approx(r.item_level, rel=1e-14)


@pytest.mark.parametrize("x", [0.01, 0.7, 1.0, 3.0, 40.0, 1e4])
@pytest.mark.parametrize("d, s", [(1, 1), (5, 2), (1000, 5), (10**6, 50)])
def test_sparse_factor_same_order_as_the_reconstructed_log_and_exact_at_T_1(x, d, s):
    # ψ(u) = min(u, 1 + log(1 ∨ u)) against kent.md §8's log(1 + u): 1/(e - 1) <= log(1 + u)/ψ(u) <= 1
    u = d / x
    psi = min(u, 1 + math.log(max(u, 1.0)))
    assert 1 / (math.e - 1) - 1e-12 <= math.log1p(u) / psi <= 1 + 1e-12
    n, alpha = 100, math.sqrt(x / 100)
    for T in (1, 7, 10**6):
        r = kent.rate("sparse", n=n, T=T, alpha=alpha, d=d, s=s)
        assert r.lower_terms[0] == pytest.approx(min(s, s / T * psi), rel=1e-13)
    r = kent.rate("sparse", n=n, T=1, alpha=alpha, d=d, s=s)
    assert r.lower == pytest.approx(r.item_level, rel=1e-13)  # T = 1: user-level is item-level


# --------------------------------------------------------------------------- the DAME quote


def test_dame_quote_of_kent_lower_bound_disagrees():
    # DAME §4.2 quotes Kent's Theorem 6 lower bound with ∧; Kent's own has ∨
    for n, T, alpha in [(1000, 10**6, 0.1), (10**4, 10, 0.05)]:
        kent_own = kent.rate("mean", n=n, T=T, alpha=alpha).lower
        quoted = kent.dame_quote_lower(n=n, T=T, alpha=alpha)
        x = n * alpha**2
        assert kent_own == pytest.approx(max(min(1, 1 / (x * T)), math.exp(-x)), rel=1e-14)
        assert quoted == pytest.approx(min(math.exp(-x), 1 / (x * T)), rel=1e-14)
        assert quoted < kent_own
    # e.g. nα² = 10, T = 10^6: Kent 4.54e-5 (the exponential term), the quote 1e-7
    assert kent.rate("mean", n=1000, T=10**6, alpha=0.1).lower == pytest.approx(math.exp(-10))
    assert kent.dame_quote_lower(n=1000, T=10**6, alpha=0.1) == pytest.approx(1e-7)


# --------------------------------------------------------------------------- Theorem 1


@pytest.mark.parametrize("x", [0.5, 5.0, 60.0])
@pytest.mark.parametrize("d", [1, 4])
def test_theorem1_optimum_against_a_dense_grid(x, d):
    log_n_low = kent.covering("mean", d=d, ball="l2")
    log_n_up = kent.covering("mean", d=d, ball="l2", constant=None)
    th = kent.theorem1(log_n_low, log_covering_upper=log_n_up, n=100, alpha=math.sqrt(x / 100), diameter=2.0)
    t = np.linspace(math.log(2) - 690, math.log(2), 2 * 10**6)
    A = x + math.log(2)
    lN = log_n_low(np.exp(t))
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.where(lN > A, 2 * (t - math.log(2)) + np.log1p(-A / lN), -np.inf)
    up = np.logaddexp(2 * t, 2 * math.log(2) + log_n_up(np.exp(t)) - x)
    assert th.log_lower >= low.max() - 1e-9
    assert th.log_upper <= up.min() + 1e-9
    assert th.log_lower <= th.log_upper


def test_validation():
    with pytest.raises(ValueError, match="problem must be"):
        kent.rate("median", n=10, T=1, alpha=0.5)
    with pytest.raises(ValueError, match="needs s"):
        kent.rate("sparse", n=10, T=1, alpha=0.5, d=10)
    with pytest.raises(ValueError, match="exceeds d"):
        kent.rate("sparse", n=10, T=1, alpha=0.5, d=3, s=4)
    with pytest.raises(ValueError, match="needs beta"):
        kent.rate("density", n=10, T=1, alpha=0.5)
    with pytest.raises(ValueError, match="alpha"):
        kent.rate("mean", n=10, T=1, alpha=0.0)
    with pytest.raises(ValueError, match="ball"):
        kent.rate("mean", n=10, T=1, alpha=0.5, ball="l1")
    with pytest.raises(ValueError, match="T must be"):
        kent.rate("mean", n=10, T=0, alpha=0.5)


def test_comparison_tables_at_T_1():
    for problem in ("mean", "sparse", "density"):
        tab = kent.comparison_table(problem)
        assert {"non-private", "local item-level", "local user-level, small T", "local user-level, large T"} <= set(tab)
    tab = kent.comparison_table("mean", "l2")
    T = sp.Symbol("T", positive=True)
    assert sp.simplify(tab["central user-level, small T"][0].subs(T, 1) - tab["central item-level"][0].subs(T, 1)) == 0


# --------------------------------------------------------------------------- hostile input (issue: validation layer)


def test_covering_checks_ball_and_problem_exactly():
    with pytest.raises(ValueError, match="^ball must be one of 'linf', 'l2', got 'xyz'"):
        kent.covering("mean", ball="xyz")
    with pytest.raises(ValueError, match="^problem must be one of"):
        kent.covering("Mean")
    with pytest.raises(ValueError, match=r"^s must be an integer in \[1, 3\]"):
        kent.covering("sparse", d=3, s=5)
    with pytest.raises(ValueError, match="^constant must be a positive real number"):
        kent.covering("mean", ball="linf", constant=None)
    assert float(kent.covering("mean", d=2, ball="l2", constant=None)(2.0)) == pytest.approx(2 * math.log(2))


@pytest.mark.parametrize("name", ["c0", "c1"])
@pytest.mark.parametrize("bad", [math.nan, -1.0, 0.0, True, "1"])
def test_theorem1_refuses_bad_constants(name, bad):
    with pytest.raises(ValueError, match=f"^{name} must be a positive real number"):
        kent.theorem1(kent.covering("mean"), n=50, alpha=0.1, diameter=2.0, **{name: bad})


def test_theorem1_refuses_bad_coverings():
    with pytest.raises(ValueError, match="^log_covering must be a function"):
        kent.theorem1(3.0, n=50, alpha=0.1, diameter=2.0)
    with pytest.raises(ValueError, match="^log_covering must return log covering numbers >= 0"):
        kent.theorem1(lambda delta: np.full(np.shape(delta), np.nan), n=50, alpha=0.1, diameter=2.0)


@pytest.mark.parametrize("alpha", [1e-308, 1e-200, 1e200, 1e308])
def test_rates_outside_float64_are_refused_not_divided_by_zero(alpha):
    for f in (lambda: kent.rate("mean", n=100, T=10, alpha=alpha), lambda: kent.phase_transition("mean", n=100, alpha=alpha),
              lambda: kent.dame_quote_lower(n=100, T=10, alpha=alpha), lambda: kent.estimator_cap(n=100, T=10, alpha=alpha)):
        with pytest.raises(ValueError, match=r"float64 range of the rates"):
            f()


def test_rates_at_the_edge_of_the_range_are_finite():
    r = kent.rate("mean", n=1, T=10**290, alpha=1e-5)  # nα² = 1e-10, nTα² = 1e280
    assert 0 < r.lower < math.inf and 0 < r.upper < math.inf and r.regime == "large-T"
    assert r.lower == pytest.approx(math.exp(-1e-10))  # the exponential term, with c = c1 = 1


@pytest.mark.parametrize("kwargs, match", [
    ({"n": True}, "^n must be an integer"), ({"T": "10"}, "^T must be an integer"), ({"alpha": True}, "^alpha must be"),
    ({"d": 2.5}, "^d must be an integer"), ({"n": 10**400}, r"^n must be an integer in \[1, 10\*\*300\]"),
    ({"ball": "L2"}, "^ball must be one of"), ({"s": 10**400}, r"^s must be an integer in \[1, 10\*\*300\]"),
    ({"beta": math.nan}, "^beta must be"), ({"constants": 5}, "^constants must be a RateConstants"),
])
def test_rate_refuses_booleans_strings_and_huge_values(kwargs, match):
    with pytest.raises(ValueError, match=match):
        kent.rate(**{"problem": "mean", "n": 100, "T": 10, "alpha": 0.5, **kwargs})


def test_symbolic_forms_validate_before_the_cache():
    with pytest.raises(ValueError, match="^problem must be one of"):
        kent.symbolic(["mean"])  # unhashable: refused, not a TypeError from the cache
    with pytest.raises(ValueError, match="^ball must be one of"):
        kent.comparison_table("mean", ball="xyz")
    kent.symbolic("mean")["poly"] = None  # a caller's edit does not reach the cached forms
    assert kent.symbolic("mean")["poly"] is not None


# --------------------------------------------------------------------------- kent-fig1 (b)


def test_fig1_panels_consistent_at_T_1_and_assumptions_marked():
    from bounds import figures

    data = figures.REGISTRY["kent-fig1"].compute(True, None, 0, None)
    for panel, spec in data.meta["panels"].items():
        at_1 = data.column("log10_ratio", panel=panel, T=1)
        assert at_1.size and np.all(np.abs(at_1) < 1e-12), panel  # T = 1: user-level is item-level
        x, ok = data.column("n_alpha2", panel=panel), data.column("within_assumptions", panel=panel)
        d, s = spec["d"], spec.get("s")
        need = d * math.log(d) if spec["problem"] == "mean" else s * math.log(math.e * d / s)
        assert np.array_equal(ok, x >= need), panel
    sparse = [p for p in data.meta["panels"] if p.startswith("sparse")][0]
    z, ok = data.column("log10_ratio", panel=sparse), data.column("within_assumptions", panel=sparse)
    assert z[ok].min() < -0.5  # the region where user-level wins, inside the assumptions
    assert all(data.column("reconstructed", panel=sparse)) and "[R]" in data.meta["sparse_form"]


def test_phase_transition_is_finite_up_to_the_float64_limit():
    # T† = e^x / x (x = nα² = 711.57): its log, 705.0025, is computed independently here;
    # e^705 is finite in float64 and must not be reported as inf.
    x = 71157 * 0.1 * 0.1
    pt = kent.phase_transition("mean", n=71157, alpha=0.1)
    assert pt.log_lower == pytest.approx(x - math.log(x), rel=1e-12)
    assert math.isfinite(pt.lower) and math.log(pt.lower) == pytest.approx(x - math.log(x), rel=1e-12)


@pytest.mark.parametrize("problem, ball", [("mean", "linf"), ("mean", "l2"), ("sparse", "linf"), ("density", "linf")])
def test_numeric_forms_equal_the_lambdified_symbolic_forms(problem, ball):
    """The sympy-free forms that rate() evaluates agree with symbolic()'s, lambdified, over a wide grid."""
    rng = np.random.default_rng(7)
    fast, oracle = kent._numeric(problem, ball), kent._lambdified(problem, ball)
    for _ in range(300):
        d = float(rng.integers(1, 10**6))
        args = (float(10 ** rng.uniform(0, 12)), float(10 ** rng.uniform(0, 12)), float(10 ** rng.uniform(-3, 1)), d,
                float(rng.integers(1, d + 1)), float(10 ** rng.uniform(-1, 2)), *(10 ** rng.uniform(-1, 1, 4)))
        args = tuple(np.float64(v) for v in args)  # as rate() passes them
        for key in oracle:
            with np.errstate(all="ignore"):
                want, got = float(oracle[key](*args)), float(fast[key](*args))
            assert got == pytest.approx(want, rel=1e-12, abs=1e-300), (key, args)


def test_log_solve_against_lambert_w():
    """The root L > 1 of L - log L = Y is -W_{-1}(-e^{-Y}) (Lambert W, lower branch), in mpmath at 50 digits."""
    with mpmath.workdps(50):
        for Y in [1 + 1e-12, 1.000001, 1.5, 2.0, 10.0, 1e3, 1e8, 1e100, 1e300]:
            want = -mpmath.lambertw(-mpmath.exp(-mpmath.mpf(Y)), -1).real
            tol = 1e-14 if Y > 1.001 else 1e-7  # near Y = 1 the root is ill-conditioned: L - 1 ~ sqrt(2(Y - 1))
            assert kent._log_solve(Y) == pytest.approx(float(want), rel=tol), Y


def test_regime_at_the_transition_itself_is_small_T():
    # density, beta = 1: poly = (n T alpha^2)^(-1/2) and exp-term (n alpha^2)^(-2) meet at T-dagger = (n alpha^2)^3.
    # n alpha^2 = 4 and T = 64 make both exactly 1/16 in binary: "small-T" holds for T <= T-dagger (the docstring).
    r = kent.rate("density", n=16, T=64, alpha=0.5, beta=1.0)
    assert r.lower_terms == (0.0625, 0.0625) and r.regime == "small-T"
    assert kent.rate("density", n=16, T=65, alpha=0.5, beta=1.0).regime == "large-T"
