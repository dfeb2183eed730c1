"""Tests of Kent et al.'s multivariate procedures (bounds.estimators.kent) and their checks (bounds.checks).

Reference values are recomputed here from the paper's formulas (eqs. (25), (33)–(34), (43)–(49)),
from dense matrices (scipy's Hadamard) and from quadrature — never taken from the code under test.
"""

import math

import numpy as np
import pytest
from scipy import integrate, linalg, special, stats

from bounds import checks, kent
from bounds.estimators import kent as est
from bounds.numerics import PaperAssumptionWarning

SEED = 20240521


def _tau25(n, T, alpha, K, d):
    """Eq. (25)/(31): T* = min{T, ⌊e^{nα²/(Kd)}⌋}, τ = √(2 log(nT*α²)/T*)."""
    t = min(T, math.floor(math.exp(n * alpha**2 / (K * d))))
    return t, math.sqrt(2 * math.log(n * t * alpha**2) / t)


# --------------------------------------------------------------------------- the rotation


@pytest.mark.parametrize("d", [1, 2, 8, 64])
def test_fwht_equals_the_dense_sylvester_matrix(d):
    x = np.random.default_rng(d).normal(size=(3, d))
    np.testing.assert_allclose(est.fwht(x), x @ linalg.hadamard(d).T, atol=1e-12)
    np.testing.assert_allclose(est.fwht(x.T, axis=0), (x @ linalg.hadamard(d).T).T, atol=1e-12)


def test_rotation_is_orthogonal_and_matches_eq33():
    rng = np.random.default_rng(0)
    d, d0 = 8, 6
    D = rng.choice([-1.0, 1.0], size=d)
    U = linalg.hadamard(d) @ np.diag(D) / math.sqrt(d)
    x = rng.normal(size=(5, d0))
    xp = np.concatenate([x, np.zeros((5, d - d0))], axis=1)
    np.testing.assert_allclose(est.rotate(x, D), xp @ U.T, atol=1e-12)
    np.testing.assert_allclose(est.rotate_back(est.rotate(x, D), D)[:, :d0], x, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(est.rotate(x, D), axis=1), np.linalg.norm(x, axis=1), rtol=1e-12)
    assert [est.padded_dimension(v) for v in (1, 2, 3, 5, 8, 9)] == [1, 2, 4, 8, 8, 16]
    with pytest.raises(ValueError, match="power-of-2"):
        est.fwht(np.ones(6))


# --------------------------------------------------------------------------- ℓ∞: the univariate procedure per coordinate


def test_coordinatewise_with_one_coordinate_is_the_univariate_procedure():
    x = 2 * np.random.default_rng(1).binomial(20, 0.7, size=(6, 400)) / 20 - 1
    _, tau = _tau25(400, 20, 0.8, 1.0, 1)
    a = est.coordinatewise(x[:, None, :], tau=tau, alpha=0.8, rng=np.random.default_rng(3)).estimate[:, 0]
    b = est.univariate(x, tau=tau, alpha=0.8, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a, b)


def test_linf_privacy_calibration():
    n, T, alpha, K, d = 8000, 300, 0.9, 200.0, 4
    t_star, tau = _tau25(n, T, alpha, K, d)
    assert kent.estimator_cap(n=n, T=T, alpha=alpha, K=K, d=d) == (t_star, pytest.approx(tau, rel=1e-14))
    g = n // (2 * d)
    x = np.ones((400, d, 2 * g))  # every sample +1: no clipping, the error is the Laplace noise alone
    r = est.coordinatewise(x, tau=tau, alpha=alpha, rng=SEED)
    b = 14 * tau / alpha  # eq. (30): the enlarged interval's width 14τ over α
    assert r.laplace_scale == pytest.approx(b, rel=1e-14)
    assert np.all(r.clip_upper - r.clip_lower <= r.laplace_scale * alpha * (1 + 1e-12))  # sensitivity <= 14τ
    assert r.rr_keep == pytest.approx(math.exp(alpha / 6) / (1 + math.exp(alpha / 6)), rel=1e-14)  # Lemma 16, k = 3
    e = (r.estimate - 1).ravel()
    var, se = np.mean(e**2), np.std(e**2, ddof=1) / math.sqrt(e.size)
    assert abs(var - 2 * b * b / g) < 4 * se  # Var(mean of g Laplace(b)) = 2b²/g


def test_linf_clip_ends_are_the_elected_bin_enlarged_by_6_tau():
    tau, g = 0.05, 200
    x = np.empty((50, 1, 2 * g))
    x[..., :g] = 0.31  # bin ⌊1.31/0.1⌋ = 13; its neighbours tie
    x[..., g:] = -1.0  # refinement users far below: they sit on the lower clip end
    r = est.coordinatewise(x, tau=tau, alpha=1e4, rng=SEED)
    ends = {round(max(-1 + 2 * tau * j - 6 * tau, -1.0), 9) for j in (12, 13, 14)}
    assert set(np.round(r.clip_lower.ravel(), 9)) <= ends
    np.testing.assert_allclose(r.estimate, r.clip_lower, atol=1e-3)
    np.testing.assert_allclose(r.clip_upper - r.clip_lower, 14 * tau, rtol=1e-12)


# --------------------------------------------------------------------------- ℓ2


def test_l2_tau_is_eq34_in_the_stated_form():
    for n, T, alpha, K, d in [(8000, 100, 1.0, 200.0, 8), (500, 10**9, 0.5, 1.0, 4), (100, 54, 0.2, 1.0, 1)]:
        t, tau = _tau25(n, T, alpha, K, d)
        assert est.l2_tau(n=n, T=T, alpha=alpha, d=d, K=K) == (t, pytest.approx(
            tau * math.sqrt(math.log(max(math.e, 2 * d)) / d), rel=1e-14))


def test_l2_privacy_calibration_and_the_rotated_noise():
    n, T, alpha, K, d = 8000, 100, 1.0, 100.0, 4
    _, tau = est.l2_tau(n=n, T=T, alpha=alpha, d=d, K=K)
    g = n // (2 * d)
    v = np.array([0.2, -0.4, 0.1, 0.3])
    B = 300
    signs = np.random.default_rng(1).choice([-1.0, 1.0], size=(B, d))
    r = est.l2_mean(np.broadcast_to(v, (B, 2 * d * g, d)), tau=tau, alpha=alpha, signs=signs, rng=SEED)
    b = 14 * tau / alpha
    assert r.laplace_scale == pytest.approx(b, rel=1e-14) and r.group_size == g
    assert np.all(r.clip_upper - r.clip_lower <= r.laplace_scale * alpha * (1 + 1e-12))
    assert r.rr_keep == pytest.approx(special.expit(alpha / 6), rel=1e-14)
    loss = ((r.estimate - v) ** 2).sum(axis=1)  # U orthogonal: E‖U^T noise‖² = d · 2b²/g
    assert abs(loss.mean() - d * 2 * b * b / g) < 4 * loss.std(ddof=1) / math.sqrt(B)


# --------------------------------------------------------------------------- sparse


def test_procedure2_threshold_and_top_s():
    r = est.Release(np.array([[0.9, -0.05, 0.4, -0.7, 0.3]]), None, None, 2.0, 0.5, 0.1, 8)
    lam = est.sparse_lambda(r, d=5, C_lambda=0.25)
    assert lam == pytest.approx(0.25 * math.sqrt(2) * 2.0 / math.sqrt(8) * math.sqrt(2 * math.log(10)), rel=1e-14)
    np.testing.assert_array_equal(est.sparse_threshold(r, s=3, lam=0.35), [[0.9, 0.0, 0.4, -0.7, 0.0]])
    np.testing.assert_array_equal(est.sparse_threshold(r, s=2, lam=0.1), [[0.9, 0.0, 0.0, -0.7, 0.0]])
    np.testing.assert_array_equal(est.sparse_threshold(r, s=5, lam=0.5), [[0.9, 0.0, 0.0, -0.7, 0.0]])


def test_procedure1_privacy_calibration():
    B, h, d, t, alpha = 40, 2000, 30, 3.0, 0.8
    rng = np.random.default_rng(2)
    R = rng.choice(np.array([-1, 1], dtype=np.int8), size=(B, h, d))
    sel = est.hashed_selection(np.zeros((B, h, d), np.int8), R, s=2, alpha=alpha, truncation=t, rng=SEED)
    b = 2 * t / alpha  # Z ∈ [-t, t]: sensitivity 2t
    assert sel.laplace_scale == pytest.approx(b, rel=1e-14) and sel.truncation == t
    stat = sel.statistic.ravel()  # no votes: (1/h)Σ R_ij ℓ_i, variance 2b²/h
    var, se = np.mean(stat**2), np.std(stat**2, ddof=1) / math.sqrt(stat.size)
    assert abs(var - 2 * b * b / h) < 4 * se
    # every user votes for every coordinate with all signs +1: the hashed vote d is truncated to t
    ones = np.ones((B, h, d), np.int8)
    sel = est.hashed_selection(ones, ones, s=2, alpha=alpha, truncation=t, rng=SEED)
    assert abs(sel.statistic.mean() - t) < 4 * math.sqrt(2 * b * b / h / B)


def test_procedure1_settings_recomputed():
    n, alpha, K, s, d = 8000, 1.0, 200.0, 3, 50
    th = np.zeros(d)
    th[4] = 0.5
    x = n * alpha**2
    for T in (100, 10**9):
        r = checks.kent_risk("sparse", n=n, T=T, alpha=alpha, theta=th, s=s, K=K, procedure=1, reps=1, seed=0)
        t_star = min(T, math.floor(math.exp(x / (K * s))))  # the s-dimensional procedure's cap
        assert r.settings["T_star"] == t_star
        assert r.settings["selection_tau"] == pytest.approx(math.sqrt(2 * math.log(d * x * t_star) / t_star), rel=1e-14)
        assert r.settings["truncation"] == pytest.approx(min(s, math.sqrt(2 * s * math.log(x))), rel=1e-14)
    with pytest.raises(ValueError, match="exceeds d"):
        checks.kent_risk("sparse", n=n, T=5, alpha=alpha, theta=th[:2], s=3, procedure=1, reps=1, seed=0)


def test_procedure1_selects_the_voted_coordinates():
    B, h, d = 5, 3000, 40
    rng = np.random.default_rng(4)
    V = np.zeros((B, h, d), np.int8)
    V[..., [3, 17]] = (rng.random((B, h, 2)) < 0.9)
    R = rng.choice(np.array([-1, 1], dtype=np.int8), size=(B, h, d))
    sel = est.hashed_selection(V, R, s=3, alpha=1.0, truncation=2.0, rng=SEED)
    assert all(set(row[row >= 0]) == {3, 17} for row in sel.selected)


def test_local_vote_probability_is_the_exact_binomial_tail():
    for theta, T, thr in [(0.3, 50, 0.2), (0.0, 7, 0.5), (-0.6, 1000, 0.55)]:
        S = np.arange(T + 1)
        pmf = stats.binom.pmf(S, T, (1 + theta) / 2)
        exact = pmf[np.abs(2 * S - T) / T > thr].sum()
        assert checks.local_vote_probability(np.array([theta]), T_star=T, threshold=thr)[0] == pytest.approx(exact, rel=1e-10)


# --------------------------------------------------------------------------- the density


def test_trigonometric_basis_orthonormal_and_on_the_sphere():
    k = 7
    G = integrate.quad_vec(lambda x: np.outer(est.trig_basis(x, k), est.trig_basis(x, k)), 0, 1, epsabs=1e-12)[0]
    np.testing.assert_allclose(G, np.eye(k), atol=1e-10)
    x = np.random.default_rng(0).random(20)
    np.testing.assert_allclose((est.trig_basis(x, k) ** 2).sum(axis=1), k, rtol=1e-12)


def test_density_cutoff_eq49():
    for n, T, alpha, beta, C in [(1000, 10**6, 1.0, 1.0, 1.0), (8000, 100, 1.0, 1.0, 200.0), (50, 3, 0.5, 2.0, 1.0),
                                 (100, 10, 1.0, 1.0, 1.0), (10**4, 10**8, 0.5, 0.5, 1.0)]:
        x = n * alpha**2
        k = min((x * T) ** (1 / (2 * beta + 2)), x / (C * math.log(max(math.e, x))))
        k = max(1, math.floor(k))
        k -= 1 - k % 2
        assert est.density_cutoff(n=n, T=T, alpha=alpha, beta=beta, C=C) == max(k, 1)


def test_grid_law_has_the_density_coefficients_and_second_moments():
    f = checks.TrigDensity({2: 0.3, 3: -0.2, 6: 0.2})
    k = 5
    xg, pg = f.grid_law(k)
    dens = lambda x: 1 + 0.3 * est.trig_basis(x, 6)[1] - 0.2 * est.trig_basis(x, 6)[2] + 0.2 * est.trig_basis(x, 6)[5]  # noqa: E731
    Phi = est.trig_basis(xg, k)
    np.testing.assert_allclose(pg @ Phi, f.theta(k), atol=1e-13)
    second = integrate.quad_vec(lambda x: dens(x) * np.outer(est.trig_basis(x, k), est.trig_basis(x, k)), 0, 1,
                                epsabs=1e-12)[0]
    np.testing.assert_allclose(Phi.T @ (pg[:, None] * Phi), second, atol=1e-10)
    assert f.tail(5) == pytest.approx(0.2**2)
    with pytest.raises(ValueError, match="f >= 0"):
        checks.TrigDensity({2: 0.8})


# --------------------------------------------------------------------------- risks beside the rates
# the constants c, C found for each problem (reported): c·lower <= risk <= C·upper across the sweep

RATE_CASES = {
    "linf": dict(n=8000, alpha=1.0, Ts=[100, 10**4], theta=[0.3, -0.5, 0.1, 0.7], K=200.0, reps=256),
    "l2": dict(n=8000, alpha=1.0, Ts=[100, 1000], theta=[0.3, -0.2, 0.1, 0.25, 0.0, -0.3], K=100.0, reps=192),
    "sparse": dict(n=8000, alpha=1.0, Ts=[1000, 10**5], theta=np.eye(200)[3] * 0.6 - np.eye(200)[50] * 0.5
                   + np.eye(200)[120] * 0.4, s=3, K=200.0, procedure=1, reps=128),
    "density": dict(n=8000, alpha=1.0, Ts=[100, 10**4], density=checks.TrigDensity({2: 0.4, 3: 0.3}), beta=1.0,
                    K=200.0, C_k=200.0, reps=96),
}
CONSTANTS = {"linf": (1.2e4, 2.5e3), "l2": (3.5e4, 7e3), "sparse": (3.5e2, 90.0), "density": (25.0, 60.0)}


# l2 and sparse (8 s) in the slow run: their estimators' steps are checked in the default run by the tests above
@pytest.mark.parametrize("problem", [p if p in ("linf", "density") else pytest.param(p, marks=pytest.mark.slow)
                                     for p in RATE_CASES])
def test_simulated_risk_between_the_rates_times_constants(problem):
    kw = dict(RATE_CASES[problem])
    c = checks.check_kent(problem, seed=SEED, **kw)
    lo, hi = CONSTANTS[problem]
    for r in c.rows:
        assert r["regime"] == "small-T"
        assert lo * r["lower"] <= r["risk"] - 4 * r["stderr"], (problem, r)
        assert r["risk"] + 4 * r["stderr"] <= hi * r["upper"], (problem, r)
    assert c.lower_constant == min(r["risk_over_lower"] for r in c.rows)


def test_sparse_procedure2_between_the_rates():
    th = np.zeros(16)
    th[[2, 9]] = [0.6, -0.4]
    c = checks.check_kent("sparse", n=32000, alpha=1.0, Ts=[10**4], reps=128, seed=SEED, theta=th, s=2, K=200.0,
                          procedure=2)
    r = c.rows[0]
    assert 1e4 * r["lower"] <= r["risk"] - 4 * r["stderr"] and r["risk"] + 4 * r["stderr"] <= 3e3 * r["upper"]


def test_density_risk_is_the_coefficient_error_plus_the_tail():
    f = checks.TrigDensity({2: 0.35, 3: 0.25, 7: 0.1})
    r = checks.kent_risk("density", n=8000, T=10**4, alpha=1.0, density=f, beta=1.0, K=200.0, C_k=200.0, reps=64,
                         seed=SEED)
    assert r.settings["k"] == 3 and r.settings["grid"] == 16
    assert np.all(r.losses >= 0.01 - 1e-15)  # θ_7² = 0.01 is beyond the cut-off


def test_same_seed_same_risk_whatever_the_executor():
    from concurrent.futures import ThreadPoolExecutor

    kw = dict(n=800, T=50, alpha=1.0, theta=[0.2, -0.1], K=50.0, reps=150, seed=7)
    base = checks.kent_risk("linf", **kw).losses
    with ThreadPoolExecutor(3) as ex:
        np.testing.assert_array_equal(checks.kent_risk("linf", executor=ex, **kw).losses, base)
    np.testing.assert_array_equal(checks.kent_risk("linf", **{**kw, "seed": np.random.SeedSequence(7)}).losses, base)


def test_validation():
    with pytest.raises(ValueError, match="problem must be"):
        checks.kent_risk("median", n=100, T=1, alpha=1.0, theta=[0.0], reps=1, seed=0)
    with pytest.raises(ValueError, match="1/sqrt"):
        checks.kent_risk("l2", n=100, T=1, alpha=1.0, theta=[0.9, 0.0], reps=1, seed=0)
    with pytest.raises(ValueError, match="cannot fill"):
        checks.kent_risk("linf", n=10, T=1, alpha=1.0, theta=np.zeros(8), reps=1, seed=0)
    with pytest.raises(ValueError, match="alpha"):
        checks.kent_risk("linf", n=100, T=1, alpha=True, theta=[0.0], reps=1, seed=0)
    with pytest.raises(ValueError, match="exceeds 2"):
        checks.kent_risk("linf", n=100, T=2**70, alpha=1.0, theta=[0.0], reps=1, seed=0)
    with pytest.raises(ValueError, match="T must be"):
        checks.kent_risk("linf", n=100, T=2.5, alpha=1.0, theta=[0.0], reps=1, seed=0)
    with pytest.raises(ValueError, match="theta"):
        checks.kent_risk("linf", n=100, T=1, alpha=1.0, theta=[], reps=1, seed=0)
    with pytest.raises(ValueError, match="needs a TrigDensity"):
        checks.kent_risk("density", n=100, T=1, alpha=1.0, beta=1.0, reps=1, seed=0)
    with pytest.raises(ValueError, match="procedure"):
        checks.kent_risk("sparse", n=100, T=1, alpha=1.0, theta=[0.0, 0.5], s=1, procedure=3, reps=1, seed=0)
    with pytest.warns(PaperAssumptionWarning, match="alpha"):
        checks.kent_risk("linf", n=100, T=5, alpha=2.0, theta=[0.0], reps=1, seed=0, K=10.0)


def test_estimators_refuse_hostile_inputs():
    with pytest.raises(ValueError, match="^rng must be"):
        est.coordinatewise(np.zeros((1, 1, 4)), tau=0.5, alpha=1.0, rng=True)
    with pytest.raises(ValueError, match="shape"):
        est.coordinatewise(np.zeros((1, 1, 3)), tau=0.5, alpha=1.0, rng=0)
    with pytest.raises(ValueError, match="tau"):
        est.coordinatewise(np.zeros((1, 1, 4)), tau=float("nan"), alpha=1.0, rng=0)
    with pytest.raises(ValueError, match="multiple of 2d"):
        est.l2_mean(np.zeros((1, 6, 2)), tau=0.5, alpha=1.0, signs=np.ones((1, 2)), rng=0)
    with pytest.raises(ValueError, match="d must be"):
        est.padded_dimension(True)


def test_loglog_slope_against_numpy_polyfit():
    x = np.array([1.0, 3.0, 10.0, 40.0])
    y = 2.0 * x**-0.7
    b, se = checks.loglog_slope(x, y, 0.01 * y)
    assert b == pytest.approx(np.polyfit(np.log(x), np.log(y), 1)[0], rel=1e-12) and se > 0


# --------------------------------------------------------------------------- the phase transition, simulated


def test_simulated_phase_transition_slopes():
    from bounds import figures

    data = figures.REGISTRY["kent-phase-transition-simulated"].compute(True, None, SEED, None)
    assert len(data.meta["curves"]) == 4
    for label, m in data.meta["curves"].items():
        # well below T†: the rate log(nTα²)/(nTα²) has local slope −1 + 1/log(nTα²) ≈ −0.9
        assert -1.05 <= m["slope_below"] <= -0.85, (label, m)
        assert abs(m["slope_below"] - m["rate_slope_below"]) <= 4 * m["slope_below_stderr"], (label, m)
        # well above T†: flat (T* is capped), within 4 standard errors
        assert abs(m["slope_above"]) <= 4 * m["slope_above_stderr"], (label, m)
        T, Ts = data.column("T", curve=label), data.column("T_star", curve=label)
        assert np.all(Ts == np.minimum(T, math.floor(m["T_dagger"])))
