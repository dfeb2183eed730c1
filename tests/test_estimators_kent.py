"""Tests of bounds.estimators.kent's univariate procedure against closed forms (Kent et al. (2024), eqs. (25)–(30))."""

import math

import numpy as np
import pytest

from bounds.estimators import kent

SEED = 20261125


def test_cap_and_half_width_from_eq_25():
    # T* = min(T, ⌊e^{nα²/K}⌋), τ = √(2 log(nT*α²)/T*)
    T, tau = kent.cap(n=100, T=10**6, alpha=0.2)
    assert T == math.floor(math.exp(4)) == 54
    assert tau == pytest.approx(math.sqrt(2 * math.log(100 * 54 * 0.04) / 54), rel=1e-14)
    T, tau = kent.cap(n=1000, T=30, alpha=0.5, K=2.0)
    assert T == 30 and tau == pytest.approx(math.sqrt(2 * math.log(1000 * 30 * 0.25) / 30), rel=1e-14)


@pytest.mark.parametrize("tau, alpha", [(0.02, 0.3), (0.05, 22 / 35), (0.1, 2.0)])
def test_laplace_scale_is_the_enlarged_width_over_alpha(tau, alpha):
    j = np.arange(math.ceil(1 / tau))
    lo = -1 + 2 * tau * j
    hi = np.minimum(lo + 2 * tau, 1.0)
    width = (hi + 6 * tau) - (lo - 6 * tau)  # eq. (29), before any intersection with [-1, 1]
    b = kent.laplace_scale(tau, alpha)
    assert np.all(width <= b * alpha * (1 + 1e-12)) and b * alpha == pytest.approx(width.max(), rel=1e-12)
    L, U = kent.interval(j, tau)
    assert L == pytest.approx(np.maximum(lo - 6 * tau, -1), abs=1e-12)
    assert U == pytest.approx(np.minimum(hi + 6 * tau, 1), abs=1e-12)


def test_conditional_mean_and_variance_when_clipping_binds():
    # T* = 1 two-point data (X̄ = ±1); τ = 0.05, ĵ = 10: Ĩ = [-0.3, 0.4] and both ends bind
    tau, alpha, h, R, q = 0.05, 0.8, 60, 20000, 0.35
    rng = np.random.default_rng(SEED)
    xbar = np.where(rng.random((R, h)) < q, 1.0, -1.0)
    est = kent.refine(xbar, np.full(R, 10), tau=tau, alpha=alpha, rng=rng)
    b = 14 * tau / alpha
    mean = q * 0.4 - (1 - q) * 0.3
    var = (q * (1 - q) * 0.7**2 + 2 * b * b) / h
    assert abs(est.mean() - mean) < 4 * math.sqrt(var / R)
    dev2 = (est - est.mean()) ** 2
    assert abs(est.var(ddof=1) - var) < 4 * dev2.std(ddof=1) / math.sqrt(R)


def test_risk_at_a_point_mass_is_the_laplace_noise():
    # μ = δ_θ: every X̄ = θ; the vote finds θ's bin up to ±1 with overwhelming probability and θ lies in
    # the enlarged interval of any bin within 3 of its own, so θ̂ = θ + mean of n/2 Lap(14τ/α)
    n, alpha, R, theta = 2000, 0.6, 4000, 0.37
    T, tau = kent.cap(n=n, T=40, alpha=alpha)
    est = kent.univariate(np.full((R, n), theta), tau=tau, alpha=alpha, rng=np.random.default_rng(SEED))
    risk = 2 * (14 * tau / alpha) ** 2 / (n / 2)
    sq = (est - theta) ** 2
    assert abs(sq.mean() - risk) < 4 * sq.std(ddof=1) / math.sqrt(R), (sq.mean(), risk)
    assert abs(est.mean() - theta) < 4 * est.std(ddof=1) / math.sqrt(R)


def test_everybody_in_the_first_half_votes():
    x = np.array([[0.9] * 5 + [-0.9] * 5])  # first half in bin 3 of 4 (τ = 0.25): ones on bins 2, 3
    j = kent.localise(np.repeat(x[:, :5], 300, axis=0), tau=0.25, alpha=1e4, rng=np.random.default_rng(SEED))
    assert set(j.tolist()) == {2, 3}
    j = kent.localise(np.repeat(-x[:, :5], 300, axis=0), tau=0.25, alpha=1e4, rng=np.random.default_rng(SEED))
    assert set(j.tolist()) == {0, 1}  # negative local means vote too
    est = kent.univariate(np.repeat(x, 300, axis=0), tau=0.25, alpha=1e12, rng=np.random.default_rng(SEED))
    assert np.allclose(est, -0.9)  # the second half is inside Ĩ = [-1, 1]: no clipping


def test_rng_may_be_an_int_a_seed_sequence_or_a_generator():
    x = np.full((3, 100), 0.1)
    runs = [kent.univariate(x, tau=0.1, alpha=0.5, rng=r) for r in (5, np.random.SeedSequence(5), np.random.default_rng(5))]
    assert np.array_equal(runs[0], runs[1]) and np.array_equal(runs[0], runs[2])


def test_cap_names_the_inputs_when_tau_is_undefined():
    # n T α² = 4 * 10 * 0.25 = 10 but T* = min(10, e^{nα²/K}) = min(10, e^{0.25}) = 1: n T* α² = 1
    with pytest.raises(ValueError, match=r"^alpha = 0\.5, n = 4, T = 10, K = 4: nT\*α² = 1 <= 1"):
        kent.cap(n=4, T=10, alpha=0.5, K=4)


@pytest.mark.parametrize("x", [1e308, -1e308, 2.0**60])
def test_trig_basis_of_huge_integers_is_the_basis_at_zero(x):
    # every float beyond 2**53 is an integer and the basis has period 1: φ(x) = φ(0) = (1, √2, 0, √2, 0)
    r2 = math.sqrt(2)
    assert kent.trig_basis(np.array([x]), 5)[0].tolist() == [1.0, r2, 0.0, r2, 0.0]


def test_density_cutoff_beyond_float_range_of_T():
    # n α² = 25: the second term 25 / log 25 ≈ 7.77 is the minimum for any huge T; rounded down to odd, 7
    assert kent.density_cutoff(n=100, T=10**300, alpha=0.5, beta=0.05) == 7
    assert kent.density_cutoff(n=100, T=10**400, alpha=0.5, beta=0.05) == 7


@pytest.mark.parametrize("column", [0, 49, 50, 99])
def test_univariate_checks_every_users_entries(column):
    # each half is checked by the phase that receives it: a bad entry anywhere is refused, naming xbar
    for bad in (1.5, np.nan, -1.01):
        x = np.full((2, 100), 0.1)
        x[1, column] = bad
        with pytest.raises(ValueError, match="^xbar must"):
            kent.univariate(x, tau=0.2, alpha=1.0, rng=0)


def test_univariate_never_writes_to_its_input():
    x = np.full((2, 100), 0.1)
    x.flags.writeable = False
    assert kent.univariate(x, tau=0.2, alpha=1.0, rng=0).shape == (2,)
