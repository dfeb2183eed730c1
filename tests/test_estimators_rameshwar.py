"""Tests of bounds.estimators.rameshwar: §IV's noise scales read from their definitions (Rameshwar and Tandon (2025))."""

import math

import numpy as np
import pytest
from scipy import stats

from bounds import rameshwar as theory
from bounds.estimators import rameshwar

SEED = 20261125
M = theory.geometric(3)  # 1 user with 8 samples, 2 with 4, 4 with 2, 8 with 1


def test_scales_and_rank_from_their_definitions():
    U, eps = 65.0, 0.8
    s = rameshwar.setting(M, U=U, eps=eps)
    total = M.sum()
    assert s.laplace_scale == pytest.approx(U * M.max() / (eps * total), rel=1e-13)  # eq. (14): U m*/Σm over ε
    c = theory.clipping(M, U=U, eps=eps)
    assert s.opt_wc_scale == pytest.approx(np.max(M * (c.b - c.a)) / (eps * total), rel=1e-13)
    assert s.rank == math.ceil(1 / (eps / 2)) == 3  # ε'' = ε/2, rank ⌈1/ε''⌉ (§IV-A step 2)
    assert rameshwar.setting(M, U=U, eps=eps, rule="after-fig1").rank == math.ceil(2 / (eps / 2)) == 5
    assert rameshwar.akmv_scale(np.array([10.0]), s) == pytest.approx([2 * 10.0 / (eps * total)])  # (15) at ε/2


@pytest.mark.parametrize("kind", ["uniform", "worst"])
@pytest.mark.parametrize("mechanism", ["laplace_mechanism", "opt_wc"])
def test_release_given_the_data_is_the_statistic_plus_its_laplace_noise(mechanism, kind):
    U, eps, R = 65.0, 0.5, 40000
    s = rameshwar.setting(M, U=U, eps=eps)
    rng = np.random.default_rng(SEED)
    x = theory.samples(M, U=U, kind="uniform", rng=rng) if kind == "uniform" else np.full(M.sum(), U)
    sums = np.add.reduceat(x, np.concatenate([[0], np.cumsum(M)[:-1]]))
    out = getattr(rameshwar, mechanism)(np.tile(sums, (R, 1)), s, rng=rng)
    if mechanism == "laplace_mechanism":
        centre, b = sums.sum() / M.sum(), U * M.max() / (eps * M.sum())
    else:
        c = theory.clipping(M, U=U, eps=eps)
        centre = np.sum(M * np.clip(sums / M, c.a, c.b)) / M.sum()
        b = np.max(M * (c.b - c.a)) / (eps * M.sum())
    assert abs(np.median(out) - centre) < 0.05 * b
    assert abs(np.mean(np.abs(out - centre)) - b) < 4 * b / math.sqrt(R)  # E|Lap(b)| = b, sd b


def test_akmv_threshold_law_is_the_exponential_mechanism_at_half_the_budget():
    U, eps, R = 10.0, 2.0, 40000
    m = np.ones(4, dtype=np.int64)
    s = rameshwar.setting(m, U=U, eps=eps)
    sums = np.array([1.0, 2.0, 4.0, 8.0])
    T = rameshwar.akmv_threshold(np.tile(sums, (R, 1)), s, rng=np.random.default_rng(SEED))
    edges = np.array([0.0, 1.0, 2.0, 4.0, 8.0, 10.0])  # [0, U m*] cut at the sums
    target = 4 - s.rank + 1  # ascending index of the rank-th largest
    weights = np.diff(edges) * np.exp(-(eps / 2) / 2 * np.abs(np.arange(5) - target))
    observed = np.histogram(T, bins=edges)[0]
    assert stats.chisquare(observed, R * weights / weights.sum()).pvalue > 1e-4


def test_akmv_threshold_of_one_dataset_repeated_is_the_same_draws_as_its_copies():
    """A broadcast view (one dataset repeated, sorted and weighed once) and its materialised copies give the same
    thresholds bit for bit from the same stream."""
    s = rameshwar.setting(M, U=65.0, eps=0.3)
    one = 65.0 * M.astype(float) * np.linspace(0.2, 1.0, M.size)
    view = np.broadcast_to(one, (5000, M.size))
    a = rameshwar.akmv_threshold(view, s, rng=np.random.default_rng(SEED))
    b = rameshwar.akmv_threshold(np.array(view), s, rng=np.random.default_rng(SEED))
    assert view.strides[0] == 0 and np.array_equal(a, b)


def test_akmv_threshold_picks_only_intervals_of_positive_weight_at_the_ends_of_the_uniforms():
    """Inversion at u = 0 and at the largest uniform below 1 lands on the first and the last interval of positive
    width (here [0, 2] and [2, 10]: the sums 10, 10 leave two empty intervals at the top)."""
    s = rameshwar.setting(np.ones(3, dtype=np.int64), U=10.0, eps=1.0)
    sums = np.array([[2.0, 10.0, 10.0]] * 3)
    u = np.array([0.0, 1 - 2.0**-53, 0.5])
    T = rameshwar.akmv_threshold_checked(sums, s, u, np.array([0.0, 1 - 2.0**-53, 0.0]))
    assert T[0] == 0.0 and 2.0 <= T[1] <= 10.0 and T[2] in (0.0, 2.0)


def test_akmv_threshold_weighs_in_log_space_where_the_weights_underflow():
    """Two intervals of width 1/2 at 202 and 201 steps from the target, at ε'/2 = 5: weights e^-1010 and e^-1005
    (0 in float64), in the ratio e^5, so that T < 1/2 has probability 1 / (1 + e^5) (closed form)."""
    L, R = 202, 40000
    s = rameshwar.setting(np.ones(L, dtype=np.int64), U=1.0, eps=20.0)
    assert s.rank == 1  # the target is the top interval [1, 1], of width 0
    sums = np.full(L, 1.0)
    sums[0] = 0.5
    T = rameshwar.akmv_threshold(np.tile(sums, (R, 1)), s, rng=np.random.default_rng(SEED))
    p = 1 / (1 + math.exp(5.0))
    assert np.all((T >= 0) & (T <= 1))
    assert abs(np.mean(T < 0.5) - p) < 4 * math.sqrt(p * (1 - p) / R)


def test_akmv_release_is_the_clipped_mean_plus_noise_at_2T_over_eps_total():
    U, eps = 65.0, 0.7
    s = rameshwar.setting(M, U=U, eps=eps)
    rng = np.random.default_rng(SEED)
    sums = np.add.reduceat(theory.samples(M, U=U, kind="uniform", rng=rng, size=50),
                           np.concatenate([[0], np.cumsum(M)[:-1]]), axis=1)
    out = rameshwar.akmv(sums, s, rng=np.random.default_rng(7))
    # the same draws, replayed: the noise first, then the threshold
    g = np.random.default_rng(7)
    z = g.laplace(0.0, 1.0, size=50)
    T = rameshwar.akmv_threshold(sums, s, rng=g)
    total = M.sum()
    assert out == pytest.approx(np.minimum(sums, T[:, None]).sum(axis=1) / total + z * 2 * T / (eps * total),
                                rel=1e-12)


def test_sample_mean():
    assert rameshwar.sample_mean(np.array([[3.0, 5.0], [1.0, 1.0]]), np.array([1, 3])).tolist() == [2.0, 0.5]


def test_rng_may_be_an_int_a_seed_sequence_or_a_generator():
    s = rameshwar.setting(M, U=65.0, eps=1.0)
    sums = np.tile(65.0 * M, (3, 1))
    runs = [rameshwar.akmv(sums, s, rng=r) for r in (5, np.random.SeedSequence(5), np.random.default_rng(5))]
    assert np.array_equal(runs[0], runs[1]) and np.array_equal(runs[0], runs[2])


# --------------------------------------------------------------------------- the figures' replications


@pytest.mark.parametrize("kind", ["uniform", "gaussian", "worst"])
@pytest.mark.parametrize("m", [theory.geometric(4), theory.extreme(21, 10), [3]])
@pytest.mark.parametrize("chunk", [2**7, 2**17])
def test_chunked_replications_are_the_block_by_block_releases_bit_for_bit(kind, m, chunk, monkeypatch):
    """simulate.rameshwar_errors' chunks (many blocks' rows at once) give, row by row, the errors of the three
    releases made block by block through this module's public functions (each block on its own stream)."""
    from bounds import mechanisms
    from bounds.simulate import _rameshwar

    monkeypatch.setattr(_rameshwar, "CHUNK_VALUES", chunk)  # 2**7: one block a chunk
    for eps, reps in ((0.05, 1), (0.7, 130), (4.0, 700)):
        plan = _rameshwar._RTPlan(rameshwar.setting(m, U=65.0, eps=eps), kind)
        chunks = _rameshwar._chunks(plan, reps, SEED)
        assert chunk > 2**7 or len(chunks) == -(-reps // 64)
        chunked = [_rameshwar._rt_chunk(plan, seeds, sizes) for seeds, sizes in chunks]
        children = mechanisms.seed_sequence(SEED).spawn(-(-reps // 64))
        blocks = [_rameshwar._rt_reference(plan, c, min(64, reps - 64 * b)) for b, c in enumerate(children)]
        for key in ("laplace", "opt_wc", "akmv"):
            got, want = (np.concatenate([p[key] for p in parts]) for parts in (chunked, blocks))
            assert got.shape == (reps,) and np.array_equal(got, want), (key, eps, reps)


def test_chunks_follow_the_blocks_and_stay_small():
    from bounds.simulate import _rameshwar

    plan = _rameshwar._RTPlan(rameshwar.setting(theory.geometric(6), U=65.0, eps=1.0), "uniform")
    chunks = _rameshwar._chunks(plan, 10**4, SEED)
    sizes = [k for _, ks in chunks for k in ks]
    assert sizes == [64] * 156 + [16]  # 10**4 = 156 * 64 + 16, in block order
    assert max(sum(ks) * 448 for _, ks in chunks) <= _rameshwar.CHUNK_VALUES  # 448 samples a dataset
    seeds = [s for ss, _ in chunks for s in ss]
    assert [s.spawn_key for s in seeds] == [(b,) for b in range(157)]
