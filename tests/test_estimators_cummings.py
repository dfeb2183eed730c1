"""Tests of bounds.estimators.cummings against Cummings et al. (2022), eqs. (3)–(5) and Algorithm 2's noise scales."""

import math

import numpy as np
import pytest

from bounds import cummings as theory
from bounds.estimators import cummings

SEED = 20261125
K = [60, 30, 20, 10, 6, 3, 2, 1]


def test_ideal_laplace_scale_from_the_clip_ends():
    plan = cummings.ideal_plan(K, p=0.4, sigma_p2=0.02, eps=0.7)
    width = plan.b - plan.a  # one user moves w_i [p̂_i]_{a_i}^{b_i} by at most w_i (b_i - a_i)
    assert plan.scale == pytest.approx(np.max(plan.weights * width) / 0.7, rel=1e-13)
    f = theory.concentration(K, p=0.4, sigma_p2=0.02, beta=0.05)
    assert plan.a == pytest.approx(0.4 - f) and plan.b == pytest.approx(0.4 + f)
    assert plan.weights.sum() == pytest.approx(1.0)
    # the weights are eq. (4) at eq. (6)'s T* for these variances and widths 2 f_i (at ε = 5, T* is
    # interior and moves with the widths)
    plan = cummings.ideal_plan(K, p=0.4, sigma_p2=0.02, eps=5.0)
    s2 = 0.4 * 0.6 / np.array(K) + (1 - 1 / np.array(K)) * 0.02  # Lemma 2.1
    trunc = theory.optimal_truncation(s2, 2 * f, eps=5.0)
    assert plan.T == trunc.T != theory.optimal_truncation(s2, f, eps=5.0).T
    w = np.minimum(1 / s2, trunc.T / np.sqrt(s2))  # eq. (4): min(1/σ_i², T/σ_i), normalised
    assert plan.weights == pytest.approx(w / w.sum(), rel=1e-12)


@pytest.mark.parametrize("eps", [0.7, 200.0])
def test_ideal_estimator_given_the_frequencies_is_the_clipped_mean_plus_lap_b(eps):
    plan = cummings.ideal_plan(K, p=0.4, sigma_p2=0.02, eps=eps)
    rng = np.random.default_rng(SEED)
    R = 40000
    phat = np.ones((R, len(K)))  # every frequency at 1: clipped where b_i < 1
    assert np.any(plan.b < 1)
    est = cummings.ideal(phat, plan, rng=rng)
    centre = float(np.sum(plan.weights * np.clip(phat[0], plan.a, plan.b)))
    var = 2 * plan.scale**2  # Var Lap(b) = 2b² (eq. (5) prints b²)
    assert abs(est.mean() - centre) < 4 * math.sqrt(var / R)
    dev2 = (est - est.mean()) ** 2
    assert abs(est.var(ddof=1) - var) < 4 * dev2.std(ddof=1) / math.sqrt(R)


def test_eq5_with_two_b_squared_on_simulated_frequencies():
    # small β: clipping rare, Var(p̂_ideal) = Σ w_i² σ_i² + 2 max_i w_i²|b_i − a_i|²/ε² (eq. (5) with 2b²)
    p, s2p, eps, beta, R = 0.4, 0.02, 0.7, 1e-6, 20000
    plan = cummings.ideal_plan(K, p=p, sigma_p2=s2p, eps=eps, beta=beta)
    rng = np.random.default_rng(SEED)
    nu = p * (1 - p) / s2p - 1
    k = np.array(K)
    p_i = rng.beta(p * nu, (1 - p) * nu, size=(R, k.size))
    est = cummings.ideal(rng.binomial(k, p_i) / k, plan, rng=rng)
    sigma2 = p * (1 - p) / k + (1 - 1 / k) * s2p  # Lemma 2.1
    var = float(np.sum(plan.weights**2 * sigma2)) + 2 * float(np.max(plan.weights * (plan.b - plan.a))) ** 2 / eps**2
    dev2 = (est - est.mean()) ** 2
    assert abs(est.var(ddof=1) - var) < 4 * dev2.std(ddof=1) / math.sqrt(R)


def test_initial_mean_noise_is_one_over_m_eps():
    first = np.array([1, 0] * 10)  # m = 20 users, mean 1/2
    eps, R = 0.5, 20000
    rng = np.random.default_rng(SEED)
    est = np.array([cummings.initial_mean(first, eps=eps, rng=rng) for _ in range(R)])
    b = 1 / (20 * eps)  # one user's bit moves the mean by 1/m
    assert abs(est.var(ddof=1) - 2 * b * b) < 4 * 2 * b * b * math.sqrt(5 / R)
    assert cummings.initial_mean(np.zeros(5), eps=1e12, rng=rng) == pytest.approx(1e-3)


def test_initial_variance_noise_is_one_over_m_eps():
    means = np.array([0.2, 0.4, 0.6, 0.8])
    eps, R = 8.0, 20000
    rng = np.random.default_rng(SEED)
    est = np.array([cummings.initial_variance(means, eps=eps, p_initial=0.5, rng=rng) for _ in range(R)])
    s2 = np.var(means, ddof=1)
    b = 1 / (4 * eps)  # one of m = 4 values in [0, 1] moves s² by at most 1/m
    assert 0 < s2 - b and s2 + b < 0.25  # the clip to [0, p̂(1 - p̂)] leaves these quantiles alone
    prob = math.exp(-1) / 2  # P(Lap(b) <= -b) = P(Lap(b) >= b)
    for hits in (np.sum(est <= s2 - b), np.sum(est >= s2 + b)):
        assert abs(hits - R * prob) < 4 * math.sqrt(R * prob * (1 - prob))


def test_initial_error_from_its_two_tails():
    assert cummings.initial_error(100, eps=1.0, beta=0.05) == pytest.approx(
        math.log(40) / 100 + math.sqrt(math.log(80) / 200), rel=1e-14)


def test_final_release_noise_is_lambda_over_eps():
    k = np.array([2**j for j in range(10, 0, -1)] * 3)
    pl = theory.realisable_plan(k, p_initial=0.45, sigma_p2_hat=0.01, tolerance=0.05, eps=0.8)
    rng = np.random.default_rng(SEED)
    R = 40000
    phat = np.ones((R, k.size))  # every frequency at 1: clipped where b̂_i < 1
    assert np.any(pl.b_hat < 1)
    est = cummings.final_release(phat, pl, eps=0.8, rng=rng)
    centre = float(np.clip(phat[0, pl.final_group], pl.a_hat, pl.b_hat) @ pl.weights)
    var = 2 * (pl.Lambda / 0.8) ** 2
    assert abs(est.mean() - centre) < 4 * math.sqrt(var / R)
    dev2 = (est - est.mean()) ** 2
    assert abs(est.var(ddof=1) - var) < 4 * dev2.std(ddof=1) / math.sqrt(R)


def test_realisable_plans_from_the_groups_initial_estimates():
    # ε huge: no noise; p̂ from the mean group's first samples, σ̂_p² from the ⌈log n⌉ most-data users
    k = np.array([2**j for j in range(12, 0, -1)] * 4)
    rng = np.random.default_rng(SEED)
    phat = rng.binomial(k, rng.beta(4, 6, size=k.size)) / k
    order = np.argsort(-k, kind="stable")
    n_var, n_mean = math.ceil(math.log(k.size)), k.size // 10
    first = rng.binomial(1, 0.4, size=n_mean)
    p0 = float(np.clip(first.mean(), 1e-3, 1 - 1e-3))
    var = float(np.clip(np.var(phat[order[:n_var]], ddof=1), 0, p0 * (1 - p0)))
    err = math.log(2 / 0.05) / (n_mean * 1e12) + math.sqrt(math.log(4 / 0.05) / (2 * n_mean))
    pl = theory.realisable_plan(k, p_initial=p0, sigma_p2_hat=var, tolerance=err, eps=1e12)
    final = order[n_var : k.size - n_mean]
    expected = float(np.clip(phat[final], pl.a_hat, pl.b_hat) @ pl.weights)
    got = cummings.realisable(phat, first, k, eps=1e12, beta=0.05, rng=rng)
    assert got == pytest.approx(expected, abs=1e-9)


def test_realisable_is_close_to_p_at_a_large_budget():
    k = np.array([2**j for j in range(12, 0, -1)] * 4)
    rng = np.random.default_rng(SEED)
    phat = rng.binomial(k, 0.3) / k
    mean_g = theory.groups(k)[2]
    first = rng.binomial(1, 0.3, size=mean_g.size)
    p = cummings.realisable(phat, first, k, eps=1e9, beta=0.05, rng=rng)
    assert abs(p - 0.3) < 0.02


def test_rng_may_be_an_int_a_seed_sequence_or_a_generator():
    k = np.array([2**j for j in range(10, 0, -1)] * 3)
    phat, first = np.full(k.size, 0.4), np.array([1, 0, 0])
    runs = [cummings.realisable(phat, first, k, eps=1.0, beta=0.05, rng=r)
            for r in (5, np.random.SeedSequence(5), np.random.default_rng(5))]
    assert runs[0] == runs[1] == runs[2]
