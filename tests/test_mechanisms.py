"""Tests of bounds.mechanisms: exact privacy, and explicit vs sufficient-statistic paths in law."""

import math

import numpy as np
import pytest
from scipy import stats

from bounds import mechanisms as mech

SEED = 20261121


def _chi2_pvalue(observed, expected, min_cell=10):
    """Chi-square goodness of fit with cells pooled (left to right) to an expected count >= min_cell."""
    cells_o, cells_e, acc_o, acc_e = [], [], 0.0, 0.0
    for o, e in zip(observed, expected):
        acc_o, acc_e = acc_o + o, acc_e + e
        if acc_e >= min_cell:
            cells_o.append(acc_o), cells_e.append(acc_e)
            acc_o = acc_e = 0.0
    cells_o[-1] += acc_o
    cells_e[-1] += acc_e
    o, e = np.array(cells_o), np.array(cells_e)
    return stats.chi2.sf(float(np.sum((o - e) ** 2 / e)), len(o) - 1)


def test_keep_probability_formula():
    for alpha, k in [(0.3, 1), (0.6, 3), (2.0, 5)]:
        assert mech.rr_keep_probability(alpha, k=k) == pytest.approx(
            math.exp(alpha / (2 * k)) / (1 + math.exp(alpha / (2 * k))), rel=1e-12
        )


@pytest.mark.parametrize("k, n_bins", [(1, 2), (1, 5), (2, 4), (3, 6), (3, 9), (2, 3)])
@pytest.mark.parametrize("alpha", [0.1, 22 / 35, 2.0])
def test_randomised_response_privacy_loss_is_exactly_alpha(k, n_bins, alpha):
    # Lemma 16: exhaustive over inputs with <= k ones and all outputs
    loss = mech.rr_privacy_loss(n_bins, alpha=alpha, k=k)
    expected = alpha if n_bins >= 2 * k else n_bins * alpha / (2 * k)  # d_H is at most min(2k, N)
    assert loss == pytest.approx(expected, rel=1e-12)
    assert loss <= alpha * (1 + 1e-12)


def test_noisy_vote_totals_have_the_law_of_explicit_randomised_response():
    rng = np.random.default_rng(SEED)
    n_users, n_bins, alpha, reps = 12, 5, 0.8, 4000
    # votes: 7 users with 3 neighbouring ones, 5 users all zero (non-voters)
    votes = np.zeros((n_users, n_bins), dtype=int)
    for u, centre in enumerate([1, 2, 2, 3, 1, 3, 2]):
        votes[u, centre - 1 : centre + 2] = 1
    counts = votes.sum(axis=0)
    explicit = np.array([mech.randomized_response(votes, alpha=alpha, k=3, rng=rng).sum(axis=0) for _ in range(reps)])
    fast = mech.noisy_vote_totals(np.tile(counts, (reps, 1)), n_users, alpha=alpha, k=3, rng=rng)
    pi = mech.rr_keep_probability(alpha, k=3)
    support = np.arange(n_users + 1)
    for j in range(n_bins):  # the exact pmf of Bin(c, π) + Bin(n - c, 1 - π), by convolution
        pmf = np.convolve(stats.binom(counts[j], pi).pmf(np.arange(counts[j] + 1)),
                          stats.binom(n_users - counts[j], 1 - pi).pmf(np.arange(n_users - counts[j] + 1)))
        for sample in (explicit[:, j], fast[:, j]):
            observed = np.bincount(sample, minlength=n_users + 1)
            assert _chi2_pvalue(observed, reps * pmf[support]) > 1e-4


def test_randomised_response_input_checks():
    with pytest.raises(ValueError, match="more than k"):
        mech.randomized_response([[1, 1, 0]], alpha=1.0, k=1, rng=0)
    with pytest.raises(ValueError, match="0/1"):
        mech.randomized_response([[2, 0]], alpha=1.0, k=1, rng=0)
    with pytest.raises(ValueError, match="alpha"):
        mech.rr_keep_probability(0.0, k=1)


def test_duchi_mechanism_is_unbiased_and_its_count_has_the_law():
    alpha, n, reps = 0.7, 30, 3000
    B = mech.duchi_bound(alpha)
    assert B == pytest.approx((math.exp(alpha) + 1) / (math.exp(alpha) - 1), rel=1e-14)
    rng = np.random.default_rng(SEED)
    # inputs: local means of 3 samples of the two-point law with mean θ = 0.4
    theta = 0.4
    xs = (2 * rng.binomial(3, (1 + theta) / 2, size=(reps, n)) - 3) / 3
    explicit = (mech.duchi(xs, alpha=alpha, rng=rng) > 0).sum(axis=1)
    fast = mech.duchi_plus_count(n, theta, alpha=alpha, rng=rng, size=reps)
    pmf = stats.binom(n, 0.5 + theta / (2 * B)).pmf(np.arange(n + 1))
    for sample in (explicit, fast):
        assert _chi2_pvalue(np.bincount(sample, minlength=n + 1), reps * pmf) > 1e-4
    z = mech.duchi(np.full(200000, -0.3), alpha=alpha, rng=rng)
    assert abs(z.mean() + 0.3) < 4 * B / math.sqrt(z.size)


def test_laplace_variance_is_two_b_squared():
    z = mech.laplace(1.7, np.random.default_rng(SEED), size=400000)
    var, se = z.var(), (2 * 1.7**2) * math.sqrt(5 / z.size)  # Var(Z²) = 20b⁴ for Laplace
    assert abs(var - 2 * 1.7**2) < 4 * se
    with pytest.raises(ValueError, match="scale"):
        mech.laplace(-1.0, 0)


def test_private_quantile_interval_probabilities():
    data = np.array([1.0, 2.0, 4.0, 8.0])
    lower, upper, eps, r = 0.0, 10.0, 1.5, 2  # 2nd largest: ascending target index 3 (value 4 -> 8 interval)
    rng = np.random.default_rng(SEED)
    draws = np.array([mech.private_quantile(data, r, lower=lower, upper=upper, eps=eps, rng=rng) for _ in range(20000)])
    edges = np.array([0.0, 1.0, 2.0, 4.0, 8.0, 10.0])
    weights = np.diff(edges) * np.exp(-eps / 2 * np.abs(np.arange(5) - 3))
    expected = 20000 * weights / weights.sum()
    observed = np.histogram(draws, bins=edges)[0]
    assert _chi2_pvalue(observed, expected) > 1e-4
    sharp = mech.private_quantile(np.arange(1, 101), 10, lower=0, upper=100, eps=80.0, rng=rng)
    assert 91 <= sharp <= 92  # the 10th largest of 1..100 is 91: its interval is [91, 92]


def test_laplace_sum_has_the_law_of_a_sum_of_laplace_variables():
    rng = np.random.default_rng(SEED)
    k, b, R = 7, 0.6, 40000
    explicit = mech.laplace(b, rng, size=(R, k)).sum(axis=1)
    fast = mech.laplace_sum(b, k, rng, size=R)
    assert stats.ks_2samp(explicit, fast).pvalue > 1e-4
    var, se = fast.var(), 2 * k * b * b * math.sqrt((3 / k + 2) / R)  # kurtosis of a sum of k Laplace: 3 + 3/k
    assert abs(var - 2 * k * b * b) < 4 * se
    per_row = mech.laplace_sum(np.array([0.0, 1.0]), 5, rng, size=2)
    assert per_row[0] == 0.0 and per_row[1] != 0.0
    with pytest.raises(ValueError, match="count"):
        mech.laplace_sum(1.0, 0, rng)
    with pytest.raises(ValueError, match="scale"):
        mech.laplace_sum(-1.0, 3, rng)


@pytest.mark.parametrize("bad", [True, "1", 1.5, -3, [0, -1], [2.5], object()])
def test_hostile_seeds_are_refused(bad):
    with pytest.raises(ValueError, match="rng"):
        mech.laplace(1.0, bad)
    with pytest.raises(ValueError, match="seed"):
        mech.seed_sequence(bad)


def test_every_seed_kind_spec_7():
    a = mech.laplace(1.0, 4, size=3)
    assert np.array_equal(mech.laplace(1.0, np.random.SeedSequence(4), size=3), a)
    assert np.array_equal(mech.laplace(1.0, np.random.default_rng(4), size=3), a)
    ss = np.random.SeedSequence(9)
    assert mech.seed_sequence(ss).generate_state(2).tolist() == mech.seed_sequence(9).generate_state(2).tolist()
    assert mech.seed_sequence(ss) is not ss  # a copy: passing the same SeedSequence twice repeats the streams
    g = np.random.default_rng(9)
    first, second = mech.seed_sequence(g), mech.seed_sequence(g)  # a Generator's next children: new streams
    assert first.generate_state(2).tolist() != second.generate_state(2).tolist()


def test_issue_examples_are_refused_naming_the_parameter():
    """Fractional vote counts were truncated, NaN inputs to Duchi's mechanism returned ±B."""
    with pytest.raises(ValueError, match="counts"):
        mech.noisy_vote_totals([1.5, 0], 5, alpha=1.0, k=3, rng=0)
    with pytest.raises(ValueError, match="x"):
        mech.duchi([math.nan, 0.5], alpha=1.0, rng=0)
    with pytest.raises(ValueError, match="n_bins"):
        mech.rr_privacy_loss(10**400, alpha=1.0, k=1)
    with pytest.raises(ValueError, match="scale"):
        mech.laplace("abc", 0)


def test_rr_extremes_in_log_space():
    """k beyond 2**53 and a keep probability rounding to 1 still give the exact α/(2k) and Lemma 16's loss."""
    assert mech.rr_keep_probability(3.0, k=10**400) == 0.5
    assert mech.rr_privacy_loss(4, alpha=1e250, k=1) == pytest.approx(1e250, rel=1e-12)  # min(2k, N) α/(2k) = α


def test_private_quantile_of_one_dataset_repeated_is_that_of_its_copies():
    """A broadcast view (one dataset in every row) is sorted once: the same draws and the same values as the rows
    written out."""
    one = np.array([3.0, 65.0, 7.0, 7.0, 130.0, 0.5])
    for lower, upper, rank in ((0.0, 130.0, 2), (5.0, 60.0, 1), (0.0, 1000.0, 9)):
        view = np.broadcast_to(one, (257, one.size))
        got = mech.private_quantile(view, rank, lower=lower, upper=upper, eps=0.8, rng=np.random.default_rng(7))
        want = mech.private_quantile(view.copy(), rank, lower=lower, upper=upper, eps=0.8,
                                           rng=np.random.default_rng(7))
        assert got.shape == (257,) and np.array_equal(got, want)
    with pytest.raises(ValueError, match="data must hold finite real numbers"):
        mech.private_quantile(np.broadcast_to(np.array([1.0, np.nan]), (3, 2)), 1, lower=0, upper=1, eps=1,
                                    rng=0)
