"""Tests of bounds.estimators.dame against closed forms given the elected bin (Pla et al. (2024), eqs. (4)–(9)).

Given the elected bin ĵ, DAME is an average of independent clipped values plus Laplace
noise, so its conditional mean and variance are closed forms: the tests write them from
the paper's definitions and compare the module's output with ≥ 4σ margins.
"""

import math

import numpy as np
import pytest

from bounds import sizes
from bounds.estimators import dame

SEED = 20261125


def _mean_var_check(est, mean, var):
    """|sample mean − mean| and |sample variance − var| within 4 standard errors (the latter from the 4th moment)."""
    R = est.size
    assert abs(est.mean() - mean) < 4 * math.sqrt(var / R), (est.mean(), mean)
    dev2 = (est - est.mean()) ** 2
    se_var = dev2.std(ddof=1) / math.sqrt(R)
    assert abs(est.var(ddof=1) - var) < 4 * se_var, (est.var(ddof=1), var, se_var)


def test_weights_are_sqrt_of_min_over_m_tilde():
    assert dame.weights(np.array([1, 25, 100, 400]), 100) == pytest.approx([0.1, 0.5, 1.0, 1.0])


def test_debiasing_constants_by_direct_summation():
    law = {1: 0.2, 3: 0.3, 9: 0.4, 20: 0.1}
    mt = 9
    d = dame.debiasing(sizes.finite(law), mt)
    corr = sum((math.sqrt(mt) - math.sqrt(i)) * p for i, p in law.items() if i <= mt)
    denom = sum(math.sqrt(min(i, mt)) * p for i, p in law.items())
    assert d.correction == pytest.approx(corr, rel=1e-13) and d.denominator == pytest.approx(denom, rel=1e-13)
    with pytest.raises(ValueError, match="denominator"):
        dame.debiasing(sizes.finite(law), mt, denominator="median")


def test_conditional_mean_and_variance_when_clipping_binds():
    # m = 1 two-point data (X̄ = ±1), m̃ = 4: x̂ = X̄/2 + s/2; τ = 0.05, ĵ = 10: bin [0, 0.1), s = 0.05,
    # clip interval [-0.3, 0.4]; x̂ ∈ {0.525, -0.475} is clipped to {0.4, -0.3} — both ends bind
    tau, alpha, mt, h, R, q = 0.05, 1.0, 4, 50, 20000, 0.7
    d = dame.Debiasing(0.3, 1.7)  # arbitrary constants: eq. (9) is affine in them
    rng = np.random.default_rng(SEED)
    xbar = np.where(rng.random((R, h)) < q, 1.0, -1.0)
    est = dame.refine(np.ones((R, h), dtype=int), xbar, np.full(R, 10), m_tilde=mt, tau=tau, alpha=alpha, debias=d,
                      rng=rng)
    b = 14 * tau / alpha
    clip_mean = q * 0.4 + (1 - q) * (-0.3)
    clip_var = q * (1 - q) * 0.7**2
    s = 0.05
    mean = (math.sqrt(mt) * clip_mean - 0.3 * s) / 1.7
    var = mt * (clip_var + 2 * b * b) / h / 1.7**2
    _mean_var_check(est, mean, var)


@pytest.mark.parametrize("scale", ["paper", "width"])
def test_debiasing_identity_far_from_the_bin_centre(scale):
    # τ = 0.3: every enlarged interval is [-1, 1] (no clipping); ĵ = 0 has centre s = -0.7, θ = 0.6.
    # M(1) = M(9) = 1/2, m̃ = 9: w = 1/3 or 1, and E[θ̂ | ĵ] = θ whatever s (eq. (9)).
    tau, alpha, mt, h, R, theta = 0.3, 2.0, 9, 40, 20000, 0.6
    law = sizes.finite({1: 0.5, 9: 0.5})
    d = dame.debiasing(law, mt)
    rng = np.random.default_rng(SEED)
    m = np.where(rng.random((R, h)) < 0.5, 1, 9)
    q = (1 + theta) / 2
    xbar = (2 * rng.binomial(m, q) - m) / m
    est = dame.refine(m, xbar, np.zeros(R, dtype=int), m_tilde=mt, tau=tau, alpha=alpha, debias=d, rng=rng,
                      scale=scale)
    s = -0.7
    # Var(x̂) over a random user: E[w² Var(X̄ | m)] + Var(w θ + (1 - w) s); w = 1/3 (m = 1) or 1 (m = 9)
    w = np.array([1 / 3, 1.0])
    vx = np.array([1 - theta**2, (1 - theta**2) / 9])
    cond_mean = w * theta + (1 - w) * s
    var_xhat = 0.5 * np.sum(w**2 * vx) + 0.5 * np.sum(cond_mean**2) - (0.5 * np.sum(cond_mean)) ** 2
    width = 2.0  # [-1, 1]
    b = (14 * tau if scale == "paper" else width) / alpha
    denom = 0.5 * (1 + 3)  # E[√(m ∧ 9)]
    var = mt * (var_xhat + 2 * b * b) / h / denom**2
    _mean_var_check(est, theta, var)


def test_official_denominator_is_the_sample_mean_of_min_m_sqrt_m_tilde():
    m = np.array([[1, 4, 16, 25], [9, 9, 9, 9]])
    x = np.full(m.shape, 0.5)
    d = dame.Debiasing(0.0, 1.0, official=True)
    est = dame.refine(m, x, np.array([3, 3]), m_tilde=16, tau=0.25, alpha=1e15, debias=d, rng=np.random.default_rng(0))
    # τ = 0.25: bin 3 is [0.5, 1], s = 0.75, clip interval [-1, 1]; w = 1/4, 1/2, 1, 1 and 3/4 for m = 9
    xhat = np.array([[0.25 * 0.5 + 0.75 * 0.75, 0.5 * 0.5 + 0.5 * 0.75, 0.5, 0.5], [0.75 * 0.5 + 0.25 * 0.75] * 4])
    denom = np.array([(1 + 4 + 4 + 4) / 4, 4.0])  # mean(min(m, √16)), not E[√(m ∧ m̃)] = (1 + 2 + 4 + 4)/4
    assert est == pytest.approx(4 * xhat.mean(axis=1) / denom, rel=1e-9)


def test_risk_at_a_point_mass():
    # μ = δ_θ: X̄ = θ for every user; with τ ≥ 1/7 every enlarged interval is [-1, 1], so
    # E θ̂ = θ and the risk is the noise alone: m̃ 2b² / (n/2 · E[√(m ∧ m̃)]²)
    law = sizes.finite({2: 0.5, 8: 0.5})
    n, alpha, mt, R, theta = 400, 0.5, 8, 4000, -0.35
    t = dame.tau(mt, n=n, alpha=alpha)
    assert 14 * t > 2
    d = dame.debiasing(law, mt)
    rng = np.random.default_rng(SEED)
    m = law.sample(R * n, rng).reshape(R, n)
    for scale, b in (("paper", 14 * t / alpha), ("width", 2 / alpha)):
        est = dame.estimate(m, np.full((R, n), theta), m_tilde=mt, alpha=alpha, debias=d, rng=rng, scale=scale)
        denom = (math.sqrt(2) + math.sqrt(8)) / 2
        risk = mt * 2 * b * b / (n / 2) / denom**2
        sq = (est - theta) ** 2
        assert abs(sq.mean() - risk) < 4 * sq.std(ddof=1) / math.sqrt(R), (scale, sq.mean(), risk)


def test_width_scale_gains_where_fourteen_tau_exceeds_two():
    # the MSE gain of b = (U - L)/α over 14τ/α: the Laplace part shrinks by (2 / 14τ)²
    law = sizes.point(3)
    n, alpha, R, theta = 1000, 0.5, 2000, 0.3
    d = dame.debiasing(law, 3)
    t = dame.tau(3, n=n, alpha=alpha)
    m = np.full((R, n), 3)
    rng = np.random.default_rng(SEED)
    xbar = (2 * rng.binomial(3, (1 + theta) / 2, size=(R, n)) - 3) / 3
    paper = ((dame.estimate(m, xbar, m_tilde=3, alpha=alpha, debias=d, rng=rng) - theta) ** 2).mean()
    width = ((dame.estimate(m, xbar, m_tilde=3, alpha=alpha, debias=d, rng=rng, scale="width") - theta) ** 2).mean()
    assert 14 * t > 2 and width < paper / 10


def test_laplace_scale_privacy_from_the_clip_ends():
    # for every bin: the clip width U - L, recomputed from l_j = -1 + 2τj, u_j = min(l_j + 2τ, 1), is at most
    # α × scale (α-LDP); the "width" option is equality, the paper's 14τ is equality on interior bins
    for mt, x, alpha in [(1, 10.0, 0.5), (100, 1e4, 0.5), (5000, 1e6, 22 / 35), (10**4, 1e6, 0.1)]:
        tau = math.sqrt(2 * math.log(8 * max(math.sqrt(mt * x), 1)) / mt)  # eq. (4)
        assert dame.tau(mt, n=2, alpha=math.sqrt(x / 2)) == pytest.approx(tau, rel=1e-12)
        j = np.arange(math.ceil(1 / tau))
        lo = -1 + 2 * tau * j
        hi = np.minimum(lo + 2 * tau, 1.0)
        width = np.minimum(hi + 6 * tau, 1.0) - np.maximum(lo - 6 * tau, -1.0)
        L, U = dame.interval(j, tau)
        assert U - L == pytest.approx(width, abs=1e-12)
        for scale in dame.SCALES:
            widths, sens = dame.clip_widths(mt, n_alpha2=x, alpha=alpha, scale=scale)
            assert widths == pytest.approx(width, abs=1e-12)
            assert np.all(width <= sens * (1 + 1e-12))
            b = dame.laplace_scale(tau, alpha, scale=scale, L=L, U=U)
            assert np.all(width <= alpha * np.asarray(b) * (1 + 1e-12))
        assert sens == pytest.approx(width, rel=1e-12)  # "width": exactly the sensitivity
        assert dame.laplace_scale(tau, alpha) == pytest.approx(14 * tau / alpha, rel=1e-14)


def test_width_scale_release_is_alpha_ldp():
    # worst-case log-likelihood ratio of [x]_L^U + Lap(b) between the two ends, on a grid of outputs
    tau, alpha = 0.05, 0.7
    L, U = dame.interval(np.array([0, 7, 19]), tau)
    b = dame.laplace_scale(tau, alpha, scale="width", L=L, U=U)
    z = np.linspace(-5, 5, 20001)[:, None]
    loss = np.max(np.abs(np.abs(z - L) - np.abs(z - U)) / b, axis=0)
    assert np.all(loss <= alpha * (1 + 1e-9)) and loss == pytest.approx(alpha, rel=1e-9)


def test_validation():
    with pytest.raises(ValueError, match="scale"):
        dame.laplace_scale(0.1, 1.0, scale="tight")
    with pytest.raises(ValueError, match="L and U"):
        dame.laplace_scale(0.1, 1.0, scale="width")
    with pytest.raises(ValueError, match="alpha"):
        dame.laplace_scale(0.1, 0.0)


def test_only_users_with_at_least_m_tilde_samples_vote():
    # voters hold exactly m̃ = 5 samples in bin 3 (ones on bins 2, 3); more non-voters (m = 4) sit in bin 0
    m = np.array([[5] * 6 + [4] * 10])
    x = np.array([[0.9] * 6 + [-0.9] * 10])
    j = dame.localise(np.repeat(m, 200, axis=0), np.repeat(x, 200, axis=0), m_tilde=5, tau=0.25, alpha=1e4,
                      rng=np.random.default_rng(SEED))
    assert set(j.tolist()) == {2, 3}


def test_rng_may_be_an_int_a_seed_sequence_or_a_generator():
    d = dame.Debiasing(0.0, math.sqrt(20))
    m, x = np.full((3, 100), 20), np.full((3, 100), 0.1)
    runs = [dame.estimate(m, x, m_tilde=20, alpha=0.5, debias=d, rng=r)
            for r in (5, np.random.SeedSequence(5), np.random.default_rng(5))]
    assert np.array_equal(runs[0], runs[1]) and np.array_equal(runs[0], runs[2])


@pytest.mark.parametrize("column", [0, 49, 50, 99])
def test_estimate_checks_every_users_entries(column):
    # each half is checked by the phase that receives it: a bad entry anywhere is refused, naming its parameter
    d = dame.Debiasing(0.0, math.sqrt(20))
    m, x = np.full((2, 100), 20), np.full((2, 100), 0.1)
    for bad, name in ((1.5, "xbar"), (np.nan, "xbar"), (-1.01, "xbar")):
        xb = x.copy()
        xb[1, column] = bad
        with pytest.raises(ValueError, match=f"^{name} must"):
            dame.estimate(m, xb, m_tilde=20, alpha=0.5, debias=d, rng=0)
    mb = m.copy()
    mb[1, column] = 0
    with pytest.raises(ValueError, match="^m must"):
        dame.estimate(mb, x, m_tilde=20, alpha=0.5, debias=d, rng=0)


@pytest.mark.parametrize("sizes_", [20, 7])
def test_estimate_never_writes_to_its_inputs(sizes_):
    # the engine hands one array to several estimators: read-only inputs must go through (weights of 1 and below 1)
    d = dame.Debiasing(0.0, math.sqrt(20))
    m, x = np.full((2, 100), sizes_), np.full((2, 100), 0.1)
    m.flags.writeable = x.flags.writeable = False
    assert dame.estimate(m, x, m_tilde=20, alpha=0.5, debias=d, rng=0).shape == (2,)
