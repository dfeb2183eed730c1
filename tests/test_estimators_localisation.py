"""Tests of bounds.estimators.localisation: bins, votes, the elected bin's law, the enlarged interval, the noise scale.

Reference values are written from the papers' definitions (Pla et al. (2024), eqs. (4)–(8);
Kent et al. (2024), eqs. (25)–(30), Lemma 16), never read from the module.
"""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from bounds.estimators import _votes
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


# --------------------------------------------------------------------------- bins no vote reaches: one draw of their maximum

FOUR_SIGMA = 2 * stats.norm.sf(4)  # the two-sided tail beyond 4 standard deviations


def _flip(alpha):
    return 1 / (1 + math.exp(alpha / 6))  # 1 - π_α, Lemma 16 with k = 3 ones


@pytest.mark.parametrize("n_voters, K, alpha", [(5, 7, 1.0), (300, 10**5, 0.5), (40, 1, 3.0)])
def test_noise_only_maximum_has_the_law_of_the_largest_of_K_jittered_totals(n_voters, K, alpha):
    # the maximum of K i.i.d. T + U/2, T ~ Bin(n_v, 1 - π): P(max < y) = F(y - 1)^K and
    # P(max < y + 1/4) = (F(y - 1) + p(y)/2)^K, with F, p the binomial's cdf and pmf (scipy.stats)
    R = 40000
    z = loc.noise_only_maximum(n_voters, alpha, K, np.random.default_rng(SEED), R)
    law = stats.binom(n_voters, _flip(alpha))
    ys = np.arange(n_voters + 1)
    cuts = np.sort(np.concatenate([ys, ys + 0.25]))
    F = np.where(cuts % 1 == 0, law.cdf(cuts - 1), law.cdf(cuts - 1.25) + law.pmf(cuts - 0.25) / 2) ** K
    p = np.diff(np.concatenate([F, [1.0]]))  # cells [cut_i, cut_i+1)
    observed = np.bincount(np.searchsorted(cuts, z, side="right") - 1, minlength=cuts.size)
    keep = R * p > 5  # pool the cells with few expected draws
    observed = np.append(observed[keep], observed[~keep].sum())
    expected = np.append(R * p[keep], R * p[~keep].sum())
    assert stats.chisquare(observed, expected).pvalue > FOUR_SIGMA


def test_noise_only_maximum_beyond_its_table_is_found_by_bisection(monkeypatch):
    # a table of the mean ± 40 only: the maximum of 10^6 totals (sd ≈ 50) lies beyond it
    monkeypatch.setattr(_votes, "TAIL_SIGMAS", 0)
    _votes._survival_table.cache_clear()
    try:
        n_voters, K, alpha, R = 10**4, 10**6, 1.0, 4000
        z = loc.noise_only_maximum(n_voters, alpha, K, np.random.default_rng(SEED), R)
        law = stats.binom(n_voters, _flip(alpha))
        assert np.all(z > law.mean() + 40)
        y = np.floor(z)
        cdf_at = lambda v: law.cdf(v) ** K  # noqa: E731  P(max < v + 1) = P(integer part <= v)
        lo, hi = np.percentile(y, [10, 90])
        for v in (lo, np.median(y), hi):
            frac = np.mean(y <= v)
            assert abs(frac - cdf_at(v)) < 4 * math.sqrt(cdf_at(v) * (1 - cdf_at(v)) / R)
    finally:
        _votes._survival_table.cache_clear()


@pytest.mark.parametrize("n_voters, K, R", [(2**31 + 11, 1, 2000), (2**40 + 7, 10**6, 1000), (2**53, 3, 250)])
def test_noise_only_maximum_past_two_to_the_31_voters_has_its_law(n_voters, K, R):
    # no table (its span exceeds MAX_TABLE) and scipy.special.bdtrc is NaN past 2**31: G(Z)^K must be
    # uniform, with G(y + f/2) = F(y - 1) + p(y) f from scipy.stats (an independent implementation);
    # few draws at 2**53, where one incomplete beta costs about 9 ms
    alpha = 1.0
    z = loc.noise_only_maximum(n_voters, alpha, K, np.random.default_rng(SEED), R)
    y = np.floor(z)
    f = 2 * (z - y)
    law = stats.binom(n_voters, _flip(alpha))
    upper = law.sf(y) + law.pmf(y) * (1 - f)  # P(Z > z)
    u = np.exp(K * np.log1p(-upper))  # G(z)^K
    assert np.all(np.isfinite(z)) and np.all(f >= 0) and np.all(f <= 1)
    assert abs(u.mean() - 0.5) < 4 * math.sqrt(1 / 12 / R)
    assert stats.kstest(u, "uniform").pvalue > FOUR_SIGMA


def _exact_law_by_totals(counts, n_voters, alpha):
    """P(ĵ = j) by enumerating every bin's total, Bin(c_j, π) + Bin(n_v − c_j, 1 − π), ties split evenly."""
    pi = 1 - _flip(alpha)
    pmfs = [np.convolve(stats.binom.pmf(np.arange(c + 1), c, pi),
                        stats.binom.pmf(np.arange(n_voters - c + 1), n_voters - c, 1 - pi)) for c in counts]
    N = len(counts)
    totals = np.array(list(itertools.product(range(n_voters + 1), repeat=N)))
    prob = np.prod([pmfs[j][totals[:, j]] for j in range(N)], axis=0)
    top = totals == totals.max(axis=1, keepdims=True)
    return (prob[:, None] * top / top.sum(axis=1, keepdims=True)).sum(axis=0)


@pytest.mark.parametrize("x, voting", [
    ([-0.95, -0.9, 0.99], [True, True, False]),  # votes in bin 0: a window at the bottom, 6 empty bins above
    ([0.99, 0.9, -0.99], [True, True, False]),  # votes in the top bin: the window shifted down
    ([0.1, 0.2, 0.05], [True, True, True]),  # votes in the middle: empty bins on both sides
    ([0.1, 0.2, 0.05], [False, False, False]),  # nobody votes: every bin holds noise only
])
@pytest.mark.parametrize("alpha", [0.8, 4.0])
def test_law_of_the_elected_bin_with_empty_bins_against_exact_enumeration(x, voting, alpha):
    tau, n_voters, R = 0.125, 3, 60000  # 8 bins
    home = np.minimum(np.floor((np.array(x) + 1) / (2 * tau)), 7).astype(int)
    counts = [sum(v and abs(j - h) <= 1 for h, v in zip(home, voting)) for j in range(8)]
    law = _exact_law_by_totals(counts, n_voters, alpha)
    j = loc.localise(np.tile(x, (R, 1)), np.tile(voting, (R, 1)), tau, alpha, n_voters, np.random.default_rng(SEED))
    observed = np.bincount(j, minlength=8)
    assert stats.chisquare(observed, R * law).pvalue > FOUR_SIGMA, (observed / R, law)


def _binwise(x, voting, tau, alpha, n_voters, rng, rows=2000):
    """The elected bins drawn bin by bin: vote_counts, noisy_vote_totals, elect (a chunk of rows at a time)."""
    from bounds import mechanisms
    out = []
    for start in range(0, x.shape[0], rows):
        c = loc.vote_counts(x[start:start + rows], voting[start:start + rows], tau)
        totals = mechanisms.noisy_vote_totals(c, n_voters, alpha=alpha, k=loc.VOTE_ONES, rng=rng)
        out.append(loc.elect(totals, rng))
    return np.concatenate(out)


@pytest.mark.slow
@pytest.mark.parametrize("alpha", [0.3, 1.0])
def test_law_of_the_elected_bin_against_the_bin_by_bin_sampler(alpha):
    # 500 bins, 400 voters around 0.3 (bins 648-652 / 2) and 100 non-voters anywhere: a two-sample
    # test of the elected bin (the bins near the votes one by one, the others pooled in ten groups)
    tau, R = 1e-3, 20000
    N = loc.n_bins(tau)
    rng = np.random.default_rng(SEED)
    x = np.concatenate([rng.normal(0.3, 1e-3, size=(R, 400)).clip(-1, 1), rng.uniform(-1, 1, size=(R, 100))], axis=1)
    voting = np.zeros(x.shape, bool)
    voting[:, :400] = True
    fast = loc.localise(x, voting, tau, alpha, 500, np.random.default_rng(1))
    slow = _binwise(x, voting, tau, alpha, 500, np.random.default_rng(2))
    bins = np.arange(N)
    near = (bins >= 315) & (bins <= 335)
    cell = np.where(near, bins, N + bins // 50)
    _, idx = np.unique(cell, return_inverse=True)
    table = np.array([np.bincount(idx[fast], minlength=idx.max() + 1), np.bincount(idx[slow], minlength=idx.max() + 1)])
    table = table[:, table.sum(axis=0) > 0]
    assert (~near[fast]).mean() > 0.05  # the empty bins do win: the order-statistics path is exercised
    assert stats.chi2_contingency(table).pvalue > FOUR_SIGMA


@pytest.mark.parametrize("h", [7, 5000, 2**16 + 3, 3 * 2**16 + 11])
def test_clipped_means_of_several_intervals_equal_each_interval_alone(h):
    """One pass over the local means for several intervals gives, interval by interval, the bits of the mean of the
    clipped rows computed alone (numpy's clip and mean; rows longer than a block by the blocked pairwise sums)."""
    rng = np.random.default_rng(h)
    x = rng.uniform(-1, 1, size=(5, h))
    intervals = [(np.full(5, -0.2) + 0.01 * r, np.full(5, 0.3) - 0.02 * r) for r in range(3)]
    got = loc.clipped_means_checked(x, intervals)
    for (L, U), g in zip(intervals, got):
        if h > loc.BLOCK_USERS:
            want = loc.row_sums(lambda r, a, e: np.clip(x[r, a:e], L[r], U[r]), 5, h) / h
        else:
            want = np.clip(x, L[:, None], U[:, None]).mean(axis=1)
        np.testing.assert_array_equal(g, want)


# Small votes' noisy totals by inversion of tabulated cdfs (n_voters <= VOTE_TABLE_VOTERS)

FLIP = 1 - 1 / (1 + math.exp(-(22 / 35) / 6))  # 1 - e^{a/6}/(1 + e^{a/6}) at alpha = 22/35, Pla et al. eq. (6)


def _exact_cdfs(k, p):
    """P(Bin(k, p) <= j), j = 0 .. k - 1, in 60 digits (mpmath), as floats."""
    import mpmath

    with mpmath.workdps(60):
        p, out, term, acc = mpmath.mpf(p), [], (1 - mpmath.mpf(p)) ** k, mpmath.mpf(0)
        for j in range(k):
            acc += term
            out.append(float(acc))
            term = term * (k - j) / (j + 1) * p / (1 - p)
        return np.array(out)


@pytest.mark.parametrize("K, rows", [(63, range(1, 64)), (511, (1, 2, 100, 237, 500, 511))])
def test_flip_tables_are_the_binomial_cdfs(K, rows):
    F, guide = _votes._flip_tables(K, FLIP)
    assert np.all(np.isinf(F[0]))  # Bin(0, p) = 0
    for k in rows:
        # each pmf entry a convex combination of the row before, summed over at most K + 1 terms: within 8 K ulps of 1
        assert np.max(np.abs(F[k, :k] - _exact_cdfs(k, FLIP))) <= 8 * K * 2.0**-53
        assert np.all(np.isinf(F[k, k:]))  # the top entry takes the rest of [0, 1)


def test_flip_draws_are_the_first_entry_above_each_uniform():
    F, guide = _votes._flip_tables(511, FLIP)
    rng = np.random.default_rng(SEED)
    G = guide.shape[1]
    k = rng.integers(0, 501, size=30000)
    g = rng.integers(0, G, size=k.size)
    steps = F[k, np.minimum(rng.integers(0, 501, size=k.size), k)]
    steps[~np.isfinite(steps)] = 0.5
    u = np.concatenate([g / G, np.nextafter((g + 1) / G, 0), steps, np.nextafter(steps, 0), rng.random(k.size),
                        rng.random(k.size) * 1e-9, 1 - rng.random(k.size) * 1e-12])
    kk = np.tile(k, 7)
    want = np.array([np.searchsorted(F[a], x, side="right") for a, x in zip(kk.tolist(), u.tolist())])
    np.testing.assert_array_equal(_votes.flip_draws(kk, FLIP, u, 500), want)


def test_flip_draws_law_chi_square():
    rng = np.random.default_rng(SEED + 1)
    for k in (0, 1, 7, 64, 300, 500):
        x = _votes.flip_draws(np.full(200_000, k), FLIP, rng.random(200_000), 500)
        pmf = stats.binom.pmf(np.arange(k + 1), k, FLIP)
        cells = pmf * x.size >= 5  # pooled tails
        obs = np.bincount(x, minlength=k + 1)
        o = np.append(obs[cells], obs[~cells].sum())
        e = np.append(pmf[cells], pmf[~cells].sum()) * x.size
        keep = e > 0
        chi2 = float(np.sum((o[keep] - e[keep]) ** 2 / e[keep]))
        df = int(keep.sum()) - 1
        assert chi2 <= df + 4 * math.sqrt(2 * max(df, 1)), (k, chi2, df)


def test_small_vote_elects_with_the_exact_probabilities():
    # 3 bins, every bin in the window (no noise-only maximum): voters per bin h = (10, 0, 20) of n_v = 40, so
    # true totals c = (10, 30, 20) (each bin and its neighbours); T_j = Bin(c_j, pi) + Bin(n_v - c_j, 1 - pi) independent,
    # Z_j = T_j + U_j/2 (Pla et al. eq. (6)); P(j elected) = sum_t p_j(t) int_0^1 prod_{i != j} (F_i(t-1) + p_i(t) x) dx
    alpha, nv = 22 / 35, 40
    pi = 1 / (1 + math.exp(-alpha / 6))
    c = [10, 30, 20]
    pmfs = [np.convolve(stats.binom.pmf(np.arange(cj + 1), cj, pi), stats.binom.pmf(np.arange(nv - cj + 1), nv - cj,
                                                                                      1 - pi)) for cj in c]
    cdfs = [np.cumsum(p) for p in pmfs]
    exact = []
    for j in range(3):
        total = 0.0
        for t in range(nv + 1):
            poly = np.polynomial.Polynomial([1.0])
            for i in range(3):
                if i != j:
                    poly *= np.polynomial.Polynomial([cdfs[i][t - 1] if t > 0 else 0.0, pmfs[i][t]])
            total += pmfs[j][t] * (poly.integ()(1.0) - poly.integ()(0.0))
        exact.append(total)
    assert sum(exact) == pytest.approx(1.0, abs=1e-12)
    B = 200_000
    h = np.tile(np.array([10, 0, 20]), (B, 1))
    j = loc.elect_window(np.zeros(B, dtype=np.int64), 3, h, 3, alpha, nv, np.random.default_rng(SEED + 2))
    freq = np.bincount(j, minlength=3) / B
    for f, p in zip(freq, exact):
        assert abs(f - p) <= 4 * math.sqrt(p * (1 - p) / B) + 1e-12


def test_an_election_of_one_bin_draws_nothing():
    """With one bin the election is certain: bin 0 for every row, and the stream is left as it was (its next draw
    is the one a fresh generator of the same seed makes)."""
    rng, fresh = np.random.default_rng(SEED), np.random.default_rng(SEED)
    h = np.array([[5], [0], [7]])
    j = loc.elect_window(np.zeros(3, dtype=np.int64), 1, h, 1, 0.5, 10, rng)
    assert j.tolist() == [0, 0, 0]
    assert rng.random() == fresh.random()
    with pytest.raises(ValueError, match="n_voters"):  # its counts are still checked
        loc.elect_window(np.zeros(3, dtype=np.int64), 1, h, 1, 0.5, 6, rng)
