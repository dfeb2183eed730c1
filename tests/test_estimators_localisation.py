"""Tests of bounds.estimators.localisation: bins, votes, the elected bin's law, the enlarged interval, the noise scale.

Reference values are written from the papers' definitions (Pla et al. (2024), eqs. (4)–(8);
Kent et al. (2024), eqs. (25)–(30), Lemma 16), never read from the module.
"""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from bounds.estimators import localisation as loc

SEED = 20261125


def test_partition_of_minus_one_one():
    # τ = 0.3: N = ⌈1/0.3⌉ = 4 bins [-1, -0.4), [-0.4, 0.2), [0.2, 0.8), [0.8, 1]
    assert loc.n_bins(0.3) == 4 and loc.n_bins(0.25) == 4 and loc.n_bins(0.2499) == 5 and loc.n_bins(3.0) == 1
    x = np.array([-1.0, -0.41, -0.39, 0.19, 0.21, 0.79, 0.81, 1.0])
    assert loc.bin_index(x, 0.3).tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    # τ = 0.25: (1 + 1)/(2τ) = 4 = N, and 1 belongs to the last bin, closed at 1
    assert loc.bin_index(np.array([-1.0, 0.0, 0.999, 1.0]), 0.25).tolist() == [0, 2, 3, 3]
    lo, hi = loc.bin_ends(np.arange(4), 0.3)
    assert lo == pytest.approx([-1.0, -0.4, 0.2, 0.8]) and hi == pytest.approx([-0.4, 0.2, 0.8, 1.0])


def test_enlarged_interval_is_the_bin_plus_six_tau_each_side():
    tau = 0.05  # bin 10 is [0, 0.1): enlarged [-0.3, 0.4]
    L, U = loc.enlarged_interval(10, tau)
    assert (L, U) == pytest.approx((-0.3, 0.4), abs=1e-15)
    L, U = loc.enlarged_interval(np.array([0, 19]), tau)  # cut by -1 and by 1
    assert L == pytest.approx([-1.0, 0.6]) and U == pytest.approx([-0.6, 1.0])


@pytest.mark.parametrize("tau", [0.01, 0.05, 0.1])
@pytest.mark.parametrize("alpha", [0.1, 22 / 35, 3.0])
def test_refinement_noise_is_calibrated_to_the_clip_width(tau, alpha):
    # sensitivity of a clipped value = the interval's width, recomputed from its ends;
    # α-LDP iff scale ≥ width/α, and the paper's choice is equality on an interior bin (14τ)
    j = np.arange(loc.n_bins(tau))
    L, U = loc.enlarged_interval(j, tau)
    width = U - L
    b = loc.refinement_scale(tau, alpha)
    assert np.all(width <= b * alpha * (1 + 1e-12))
    interior = (L > -1) & (U < 1)
    assert interior.any()
    assert width[interior] == pytest.approx(b * alpha, rel=1e-12)


def test_votes_have_ones_on_the_bin_and_both_neighbours():
    rng = np.random.default_rng(SEED)
    tau, B, n = 0.15, 5, 40
    N = loc.n_bins(tau)
    x = rng.uniform(-1, 1, size=(B, n))
    voting = rng.random((B, n)) < 0.7
    c = loc.vote_counts(x, voting, tau)
    expected = np.zeros((B, N), dtype=int)
    for r in range(B):
        for u in range(n):
            if voting[r, u]:
                home = min(int((x[r, u] + 1) // (2 * tau)), N - 1)
                for j in range(N):
                    expected[r, j] += abs(j - home) <= 1
    assert np.array_equal(c, expected)


def test_election_breaks_ties_uniformly_and_never_beats_the_largest_total():
    rng = np.random.default_rng(SEED)
    R = 40000
    won = loc.elect(np.tile([[5, 2, 5, 5, 4]], (R, 1)), rng)
    counts = np.bincount(won, minlength=5)
    assert counts[1] == 0 and counts[4] == 0
    assert stats.chisquare(counts[[0, 2, 3]]).pvalue > 1e-4
    assert np.all(loc.elect(np.tile([[3, 4, 3]], (1000, 1)), rng) == 1)


def _exact_argmax_law(home, n_bins, pi):
    """P(ĵ = j) by enumerating every user's every bit flip (Lemma 16's randomised response)."""
    users = len(home)
    V = np.array([[int(abs(j - h) <= 1) for j in range(n_bins)] for h in home])
    law = np.zeros(n_bins)
    for keep in itertools.product((0, 1), repeat=users * n_bins):
        K = np.array(keep).reshape(users, n_bins)
        p = np.prod(np.where(K == 1, pi, 1 - pi))
        noisy = np.where(K == 1, V, 1 - V).sum(axis=0)
        winners = np.flatnonzero(noisy == noisy.max())
        law[winners] += p / winners.size
    return law


@pytest.mark.parametrize("alpha", [0.8, 3.0])
def test_law_of_the_elected_bin_against_exact_enumeration(alpha):
    tau = 0.25  # 4 bins; 3 voters in bins 0, 2, 2
    x = np.array([-0.9, 0.1, 0.3])
    home = [0, 2, 2]
    pi = math.exp(alpha / 6) / (1 + math.exp(alpha / 6))  # Lemma 16 with k = 3 ones
    law = _exact_argmax_law(home, 4, pi)
    R = 60000
    j = loc.localise(np.tile(x, (R, 1)), np.ones((R, 3), bool), tau, alpha, 3, np.random.default_rng(SEED))
    observed = np.bincount(j, minlength=4)
    assert stats.chisquare(observed, R * law).pvalue > 1e-4, (observed / R, law)


def test_non_voters_send_noise_only():
    # a voting mask off: the user's row is all zeros before randomisation, yet counted among n_voters
    tau, alpha, R = 0.25, 2.0, 60000
    x = np.array([-0.9, 0.1, 0.3])
    voting = np.array([True, False, True])
    pi = math.exp(alpha / 6) / (1 + math.exp(alpha / 6))
    V = [[1, 1, 0, 0], [0, 0, 0, 0], [0, 1, 1, 1]]
    law = np.zeros(4)
    for keep in itertools.product((0, 1), repeat=12):
        K = np.array(keep).reshape(3, 4)
        noisy = np.where(K == 1, V, 1 - np.array(V)).sum(axis=0)
        winners = np.flatnonzero(noisy == noisy.max())
        law[winners] += np.prod(np.where(K == 1, pi, 1 - pi)) / winners.size
    j = loc.localise(np.tile(x, (R, 1)), np.tile(voting, (R, 1)), tau, alpha, 3, np.random.default_rng(SEED))
    assert stats.chisquare(np.bincount(j, minlength=4), R * law).pvalue > 1e-4


def test_rng_may_be_an_int_a_seed_sequence_or_a_generator():
    x = np.tile([-0.9, 0.1, 0.3], (50, 1))
    runs = [loc.localise(x, np.ones(x.shape, bool), 0.25, 1.0, 3, r) for r in (5, np.random.SeedSequence(5), np.random.default_rng(5))]
    assert np.array_equal(runs[0], runs[1]) and np.array_equal(runs[0], runs[2])


def test_bin_index_with_a_huge_int64_tau_is_one_bin():
    # τ = 2**62 >= 1: a single bin; 2τ must not wrap around in int64
    assert loc.bin_index([0.5, -0.5], np.int64(2**62)).tolist() == [0, 0]
