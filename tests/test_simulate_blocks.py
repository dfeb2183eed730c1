"""Replications of many users, drawn and read block by block: the same draws, the same bits, memory of a block.

The reference for every comparison is the unblocked computation (the blocks switched off by
raising the block size past the row), which the rest of the suite tests against the papers.
"""

import math
import tracemalloc
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from bounds import simulate, sizes
from bounds.estimators import dame, kent, localisation
from bounds.numerics import PaperAssumptionWarning
from bounds.simulate import _engine, _kernels, _populations, _stream, _tables

ALPHA = 22 / 35
N_BLOCKED = 2**16 + 2 * 3001  # above one block of users, not a multiple of it

SETTINGS = {  # (law, compare's options): one size, two sizes around Kent's T*, sizes below m~ (weights), many bins
    "point": (sizes.point(10), {}),
    "point-numpy": (sizes.point(10**12), {}),
    "fig1b-script": (sizes.finite({10**5: 0.5, 10**8: 0.5}), {"more_m_tildes": [10**4]}),
    "fig1b-as-plotted": (sizes.finite({10**5: 0.5, 10**6: 0.5}), {"m_tilde": 10**5, "more_m_tildes": [3 * 10**5, 10**6]}),
    "weights-official": (sizes.finite({10: 0.3, 1000: 0.3, 10**6: 0.4}),
                         {"m_tilde": 5000, "denominator": "official", "scale": "width"}),
    "many-bins": (sizes.finite({10**9: 0.5, 10**12: 0.5}), {"m_tilde": 5 * 10**11, "T": 10**8}),
    "dame-alone": (sizes.finite({3: 0.5, 50: 0.5}), {"estimators": ("dame",)}),
    "kent-alone": (sizes.finite({3: 0.5, 50: 0.5}), {"estimators": ("kent",), "T": 20}),
}


def _run(law, options, theta=0.3, reps=2):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        res = simulate.compare(theta=theta, sizes=law, n=N_BLOCKED, alpha=ALPHA, reps=reps, seed=[5, 11], **options)
    return {k: v.estimates for k, v in res.items()}


@pytest.mark.parametrize("path", ["entries", "general"])
@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_blocked_replications_equal_unblocked_bit_for_bit(name, path, monkeypatch):
    law, options = SETTINGS[name]
    if path == "general":
        monkeypatch.setattr(_kernels, "usable", lambda plan: False)  # every user's local mean, the estimators' votes
    blocked = _run(law, options)
    monkeypatch.setattr(_engine, "BLOCK_USERS", 10**9)  # the users drawn in one call per size, as before blocks
    monkeypatch.setattr(localisation, "BLOCK_USERS", 10**9)  # the estimators read whole rows
    monkeypatch.setattr(_kernels, "BLOCK_USERS", 10**9)  # the entries path reads a row's halves in one go
    whole = _run(law, options)
    assert blocked.keys() == whole.keys()
    for k in whole:
        np.testing.assert_array_equal(blocked[k], whole[k], err_msg=k)


def test_the_blocked_path_is_taken(monkeypatch):
    calls = []
    draw = _engine._draw_runs
    monkeypatch.setattr(_engine, "_draw_runs", lambda *a: calls.append(1) or draw(*a))
    monkeypatch.setattr(_kernels, "usable", lambda plan: False)  # the general path
    monkeypatch.setattr(_engine, "CHUNK_USERS", N_BLOCKED)  # one replication a pass
    _run(sizes.point(10), {}, reps=3)
    assert len(calls) == 3  # one replication per call above 2**16 users


def test_figure_1b_call_takes_the_entries_path(monkeypatch):
    """Figure 1b's call (paper m̃ above the smallest size, further runs at a support point and above it): no user's
    local mean drawn by the general path."""
    monkeypatch.setattr(_engine, "_draw_users", lambda *a: pytest.fail("general path"))
    law = sizes.finite({10**5: 0.2, 10**8: 0.8})
    res = _run(law, {"m_tilde": 87647421, "more_m_tildes": [10**8, 10**5]}, theta=0.0)
    assert set(res) == {"duchi", "kent", "dame", "dame@100000000", "dame@100000"}
    res = _run(sizes.finite({10**5: 0.5, 10**6: 0.5}), {"m_tilde": 10**5, "more_m_tildes": [10**6]}, theta=0.0)
    assert set(res) == {"duchi", "kent", "dame", "dame@1000000"}


def test_the_entries_path_is_taken(monkeypatch):
    calls = []
    run = _kernels.run
    monkeypatch.setattr(_kernels, "run", lambda *a: calls.append(1) or run(*a))
    monkeypatch.setattr(_stream, "HISTOGRAM_RELEASE", False)  # every releasing user drawn: passes by users
    _run(sizes.point(10), {}, reps=3)
    assert len(calls) == 1  # the three replications in one pass (at most ENTRY_CHUNK_USERS users)
    monkeypatch.setattr(_engine, "ENTRY_CHUNK_USERS", N_BLOCKED)
    _run(sizes.point(10), {}, reps=3)
    assert len(calls) == 4  # then one a pass


@pytest.mark.parametrize("n", [7, 129, 2**16, 2**16 + 1, 3 * 2**16 + 17, 2**18 + 8])
def test_row_sums_are_numpys_pairwise_sums(n):
    x = np.random.default_rng(n).standard_normal((2, n)) * np.array([[1e-3], [1e6]])
    got = localisation.row_sums(lambda r, a, e: x[r, a:e], 2, n) / n
    np.testing.assert_array_equal(got, x.mean(axis=1))


@pytest.mark.parametrize("size", [10, 10**6, 10**12])  # a small table, a wide table, numpy's sampler
def test_ones_pieces_are_one_calls_draws(size):
    pop = simulate.TwoPoint(0.3)
    count = 3 * 2**16 + 5
    whole = pop.sums(size, count, np.random.default_rng(4))
    rng = np.random.default_rng(4)
    lengths = [2**16, 17, 2**16 - 17, 2**16, 5]
    pieces = [2.0 * p.copy() - size for p in pop.ones_pieces(size, count, rng, lengths)]
    np.testing.assert_array_equal(np.concatenate(pieces), whole)


def test_inverter_equals_invert():
    table = simulate.binomial_table(1000, 0.4)
    inverter = _populations._Inverter(table, 5000)
    a = _populations._invert(table, 5000, np.random.default_rng(1))
    b = inverter(5000, np.random.default_rng(1)).copy()
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("tau", [0.3, 1e-4])  # 4 bins; 10**4 bins, counted over each block's range
def test_blocked_vote_counts_equal_whole_rows(tau):
    rng = np.random.default_rng(8)
    B, n = 3, 2**17 + 9
    x = np.clip(rng.normal(0.2, 0.05, size=(B, n)), -1, 1)
    voting = rng.random((B, n)) < 0.7
    voting[2] = False  # a row without a voter
    voting[1, :2**16] = False  # a first block without a voter
    N = localisation.n_bins(tau)
    got = localisation._window_counts_blocked(x, voting, tau, N)
    want = localisation._window_counts(x, voting, tau, N)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_long_rows_of_the_estimators_equal_their_unblocked_values(monkeypatch):
    rng = np.random.default_rng(3)
    n = 2**17 + 6
    m = rng.choice([5, 500, 20_000], size=(2, n))  # some below m~ (shrunk), some at full weight
    x = np.clip(rng.normal(0.1, 0.2, size=(2, n)), -1, 1)
    x[:, ::1000] = 1.0  # outliers beyond the interval's ends (about [-0.21, 0.48] at m~ = 10**4): the clip
    # is active in every block
    x[:, 500::1000] = -1.0
    d = dame.Debiasing(0.3, 7.0, official=True)
    run = lambda: (dame.estimate(m, x, m_tilde=10**4, alpha=1.0, debias=d, rng=np.random.default_rng(9)),  # noqa: E731
                   kent.univariate(x, tau=0.05, alpha=1.0, rng=np.random.default_rng(9)))
    blocked = run()
    monkeypatch.setattr(localisation, "BLOCK_USERS", 10**9)
    for a, b in zip(blocked, run()):
        np.testing.assert_array_equal(a, b)


def test_memory_of_a_replication_is_a_few_blocks():
    """At 2**20 users of one size, the voters are counted per cell and the releasing users read as they are drawn:
    no per-user array, a few blocks of 2**16 users (the unblocked engine held about 10 arrays of n; the last one
    an array of the releasing half's local means, 4 bytes a user)."""
    n = 2**20
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        simulate.compare(theta=0.3, sizes=sizes.point(1000), n=n, alpha=ALPHA, reps=1, seed=0)  # tables, imports
        tracemalloc.start()
        try:
            simulate.compare(theta=0.3, sizes=sizes.point(1000), n=n, alpha=ALPHA, reps=2, seed=0)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    block = 8 * 2**16
    assert peak < 6 * block, (peak, block)
    held = [a.size for arrays in _engine._SCRATCH.values() for a in arrays.values()]
    assert max(held, default=0) <= 2**16  # per-user arrays released when compare returns; a block's buffers kept


def test_cached_inverters_draw_as_invert():
    """TwoPoint.sums through a thread's cached inverters equals the allocating inversion, table after table."""
    pop = simulate.TwoPoint(-0.2)
    for size in [10, 1000, 10, 10**5, 7, 11, 13, 17, 10]:  # more tables than are cached: entries evicted, rebuilt
        table = _populations._binomial_table(size, 0.4)
        want = 2.0 * _populations._invert(table, 3000, np.random.default_rng(size)) - size
        np.testing.assert_array_equal(pop.sums(size, 3000, np.random.default_rng(size)), want)
    assert len(_populations._inverters.cache) == _populations.INVERTERS


def test_a_run_leaves_no_per_user_array_behind():
    """After compare returns, its per-user arrays are freed at once (no reference cycle holds them to a collection)."""
    n = 2**19
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        simulate.compare(theta=0.3, sizes=sizes.point(10), n=1000, alpha=ALPHA, reps=1, seed=0)  # caches, imports
        tracemalloc.start()
        try:
            for est in [("dame",), ("duchi", "kent", "dame"), ("kent",)]:
                simulate.compare(theta=0.3, sizes=sizes.point(10), n=n, alpha=ALPHA, reps=2, seed=1, estimators=est)
            current, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert current < 2 * n, current  # was 3 x 8 bytes a user: one array per call


ENTRIES = {  # (law, compare's options) the entries path takes: one size, two sizes, DAME's further runs, Kent's T*
    "point-10": (sizes.point(10), {}),
    "point-1000-theta0": (sizes.point(1000), {"theta": 0.0}),
    "two-sizes-dame": (sizes.finite({10**5: 0.5, 10**6: 0.5}), {"estimators": ("dame",)}),
    "two-sizes-kent": (sizes.finite({20: 0.3, 50: 0.7}), {"estimators": ("kent",), "T": 30}),
    "more-m-tildes": (sizes.finite({20: 0.3, 50: 0.7}), {"more_m_tildes": [5, 12], "m_tilde": 20, "T": 50}),
    "width": (sizes.point(400), {"scale": "width", "estimators": ("kent", "dame")}),
    "numpy-sampler": (sizes.point(10**12), {}),  # no table: the numbers of ones drawn, cut between bins
    "table-and-sampler": (sizes.finite({10**5: 0.95, 10**6: 0.05}), {"estimators": ("dame",)}),  # few large users
    "many-cuts-table": (sizes.point(100), {"T": 10**6}),  # Kent's bins narrow: more than MAX_CUTS cuts
    "many-cuts-sampler": (sizes.point(10**9), {"T": 10**12}),
    "two-parts": (sizes.finite({10**5: 0.5, 10**6: 0.5}), {}),  # DAME and Kent, sizes above T*: two draws a user
    "two-parts-sampler": (sizes.finite({10**9: 0.4, 10**12: 0.6}), {"m_tilde": 10**8, "T": 10**7}),
    # m̃ above a size (its users neither vote nor keep their whole mean, eq. (8)), m̃ equal to a support point
    "weights-further": (sizes.finite({20: 0.3, 50: 0.7}), {"more_m_tildes": [35, 50], "m_tilde": 20, "T": 50}),
    "weights-first": (sizes.finite({20: 0.3, 50: 0.7}), {"m_tilde": 35, "more_m_tildes": [20, 50], "T": 10}),
    "weights-one-size": (sizes.point(40), {"estimators": ("dame",), "m_tilde": 40, "more_m_tildes": [60]}),
    "fig1b-two-parts": (sizes.finite({10**5: 0.5, 10**6: 0.5}), {"m_tilde": 10**5, "more_m_tildes": [3 * 10**5, 10**6]}),
    "fig1b-two-parts-sampler": (sizes.finite({10**5: 0.5, 10**8: 0.5}), {"m_tilde": 10**5, "more_m_tildes": [10**8]}),
    "fig1b-first-above": (sizes.finite({10**5: 0.2, 10**8: 0.8}), {"m_tilde": 87647421, "more_m_tildes": [10**8, 10**5]}),
}


@pytest.mark.parametrize("n", [10, 1000, 4002, N_BLOCKED])
@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_entries_path_equals_the_general_path_bit_for_bit(name, n, monkeypatch):
    """With every voter drawn (no counts per cell), votes counted from what the users drew (table entries or numbers
    of ones, by cuts between bins or bin by bin), and the releasing half's means alone, give the general path's
    estimates exactly (rows of one and of many replications, one and several sizes, blocks of users)."""
    law, options = ENTRIES[name]
    options = dict(options)
    theta = options.pop("theta", 0.3)
    reps = 2 if n > 2**16 else 70
    calls = []
    run = _kernels.run
    monkeypatch.setattr(_kernels, "run", lambda *a: calls.append(1) or run(*a))
    monkeypatch.setattr(_kernels, "MULTINOMIAL_VOTES", False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        got = simulate.compare(theta=theta, sizes=law, n=n, alpha=ALPHA, reps=reps, seed=[3, n], **options)
        monkeypatch.setattr(_kernels, "usable", lambda plan: False)
        want = simulate.compare(theta=theta, sizes=law, n=n, alpha=ALPHA, reps=reps, seed=[3, n], **options)
    assert calls or n == 10  # the entries path was taken (at n = 10, runs of a size are short: users draw one by one)
    assert got.keys() == want.keys()
    for k in want:
        np.testing.assert_array_equal(got[k].estimates, want[k].estimates, err_msg=k)


def test_a_vote_cut_is_the_fewest_ones_reaching_its_bin_by_exhaustive_scan():
    """``_kernels._ones_cut`` (a start guess and two stepping loops) against a scan of every number of ones:
    the cut of bin b is the smallest k of 0..t whose local mean's bin is b or above (t where none is: the search's end)."""
    for t in (1, 2, 3, 7, 10, 64, 101):
        for tau in (0.05, 0.11, 0.25, 0.4):
            N = localisation.n_bins(tau)
            bins = _kernels._ones_bins(np.arange(t + 1), t, tau, N)
            for b in range(1, N):
                reach = np.flatnonzero(bins >= b)
                want = int(reach[0]) if reach.size else t
                assert _kernels._ones_cut(t, tau, N, b) == want, (t, tau, b)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_voters_counted_per_cell_give_the_general_paths_law(name):
    """Voters counted per cell by one multinomial (no voter drawn) against every voter drawn and binned (the general
    path): the estimates of each estimator have the same law (two-sample Kolmogorov–Smirnov, rejected beyond 4σ,
    p < 6.3e-5), 640 replications each at n = 1000."""
    law, options = ENTRIES[name]
    options = dict(options)
    theta = options.pop("theta", 0.3)
    kw = dict(theta=theta, sizes=law, n=1000, alpha=ALPHA, reps=640, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        cells = simulate.compare(seed=[7, 1], **kw)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(_kernels, "usable", lambda plan: False)
            drawn = simulate.compare(seed=[7, 2], **kw)
    for k in drawn:
        assert stats.ks_2samp(cells[k].estimates, drawn[k].estimates).pvalue > 6.3e-5, k


def _exact_pmf(t, q):
    """Bin(t, q)'s pmf in exact rationals."""
    return [Fraction(math.comb(t, k)) * q**k * (1 - q) ** (t - k) for k in range(t + 1)]


@pytest.mark.parametrize("t", [1, 7, 60])
@pytest.mark.parametrize("sampler", ["table", "numpy"])
def test_cell_probabilities_are_the_binomials_mass_between_cuts(t, sampler):
    """Each cell's probability (a table's cdf at the cuts, or boost's cdf and survival function) against exact
    rational sums of the binomial pmf over the numbers of ones in the cell; every vote's bin is constant on a cell."""
    q = Fraction(13, 20)
    pmf = _exact_pmf(t, q)
    votes = {f"v{i}": _kernels._Vote(tau, 1) for i, tau in enumerate((0.05, 0.11, 0.3))}
    how = _kernels.BINOMIAL if sampler == "numpy" else _populations._binomial_table(t, float(q))
    cuts, p, first = _kernels._cells(votes, how, t, float(q))
    lo = 0 if sampler == "numpy" else how[0]  # the numbers of ones of value 0 (a table's first entry)
    edges = [0, *(c + lo for c in cuts), t + 1]  # cell i: ones edges[i] .. edges[i + 1] - 1
    want = [float(sum(pmf[a:b], Fraction(0))) for a, b in zip(edges[:-1], edges[1:])]
    np.testing.assert_allclose(p, want, rtol=0, atol=1e-13)
    top = t if sampler == "numpy" else lo + how[1].size - 1  # the values drawn: a table's entries (the mass outside
    bottom = first if sampler == "numpy" else lo  # it goes to its ends), numpy's over the cuts' window
    for v in votes.values():
        bins = _kernels._ones_bins(np.arange(t + 1), t, v.tau, v.N)
        for a, b in zip(edges[:-1], edges[1:]):
            assert np.unique(bins[max(a, bottom):min(b, top + 1)]).size <= 1, (v.tau, a, b)


@pytest.mark.parametrize("sampler", ["table", "numpy"])
def test_votes_from_cells_equal_votes_from_each_users_bin(sampler):
    """Voters per bin from the voters per cell equal the counts of every user's bin (users drawn, cells counted)."""
    t, q = 40, 0.65
    rng = np.random.default_rng(3)
    ones = rng.binomial(t, q, size=(5, 300))
    how = _kernels.BINOMIAL if sampler == "numpy" else _populations._binomial_table(t, q)
    lo = 0 if sampler == "numpy" else how[0]
    votes = {f"v{i}": _kernels._Vote(tau, 5) for i, tau in enumerate((0.05, 0.11, 0.3))}
    cells = _kernels._cells(votes, how, t, q)
    per_cell = np.stack([np.bincount(np.searchsorted(np.array(cells[0]) + lo, row, side="right"),
                                     minlength=len(cells[0]) + 1) for row in ones])
    _kernels._vote_cells(votes, how, t, cells, per_cell, slice(None))
    for v in votes.values():
        N = v.N
        want = np.stack([np.bincount(_kernels._ones_bins(row, t, v.tau, N), minlength=N) for row in ones])
        got = np.zeros((5, N), dtype=np.int64)
        got[:, v.base:v.base + v.width] = v.counts
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("second", ["table", "sampler"])
def test_joint_cells_of_two_parts_are_the_exact_joint_masses(second):
    """A user above Kent's T* (first part t1 samples, then t2 more, by a table or by numpy's sampler): each joint
    cell's probability (Kent's cell of the first part's entry × DAME's cell of the number of ones of both) against
    exact rational sums of the two pmfs."""
    t1, t2, q = 12, 30, Fraction(13, 20)
    p1, p2 = _exact_pmf(t1, q), _exact_pmf(t2, q)
    hows = [_populations._binomial_table(t1, float(q)),
            _populations._binomial_table(t2, float(q)) if second == "table" else _kernels.BINOMIAL]
    kent_vote = _kernels._Vote(0.11, 1)
    dame_votes = {"dame": _kernels._Vote(0.05, 1), "dame@x": _kernels._Vote(0.3, 1)}
    kcuts, kbins, dcuts, smin, P = _kernels._joint_cells(kent_vote, dame_votes, hows, (t1, t2), t1 + t2, float(q))
    lo1 = hows[0][0]
    k_edges = [0, *(c + lo1 for c in kcuts), t1 + 1]  # Kent's cell i: first-part ones k_edges[i] .. k_edges[i+1]-1
    d_edges = [0, *dcuts, t1 + t2 + 1]  # DAME's cell j: ones of both d_edges[j] .. d_edges[j+1]-1
    want = np.zeros(P.shape)
    for i, (a, b) in enumerate(zip(k_edges[:-1], k_edges[1:])):
        for j, (c, d) in enumerate(zip(d_edges[:-1], d_edges[1:])):
            want[i, j] = float(sum((p1[k1] * p2[k2] for k1 in range(a, b) for k2 in range(t2 + 1) if c <= k1 + k2 < d),
                                   Fraction(0)))
    np.testing.assert_allclose(P, want, rtol=0, atol=1e-13)
    assert smin == lo1 + (hows[1][0] if second == "table" else 0)


def _entries_source(table, entries):
    """``(entries, draw, write, at)``: ``draw(count)`` hands out the next ``count`` of ``entries`` in order (``at[0]``:
    how many so far), ``write(values, out)`` writes their means ``table[values]`` into ``out``."""
    at = [0]

    def draw(count):
        out = entries[at[0]:at[0] + count]
        at[0] += count
        return out

    def write(values, out):
        np.take(table, values, out=out)

    return entries, draw, write, at


@pytest.mark.parametrize("by_table", [False, True])
@pytest.mark.parametrize("h", [7, 5000, 20000, 2**16 + 3, 3 * 2**16 + 11])
def test_streamed_release_has_the_bits_of_the_whole_array(h, by_table):
    """The releasing users read as they are drawn (a block of rows, or a leaf of a long row's pairwise sums, at a
    time) give each interval's clipped means with the bits of the array of every user's local mean."""
    rows = 3
    rng = np.random.default_rng(h)
    table = np.sort(rng.uniform(-1, 1, 101))
    entries, draw, write, at = _entries_source(table, rng.integers(0, table.size, rows * h))
    intervals = [(np.full(rows, -0.3) + 0.1 * r, np.full(rows, 0.4) - 0.05 * r) for r in range(2)]
    got = _kernels._streamed_means(draw, write, rows, h, intervals, table if by_table else None)
    assert at[0] == rows * h  # every user drawn once, in order
    want = localisation.clipped_means_checked(table[entries].reshape(rows, h), intervals)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("h", [1, 7, 128, 500, 5001])
def test_rows_read_by_their_extents_have_the_bits_of_every_row_clipped(h):
    """Rows inside an interval (summed unclipped), wholly below or above it (the sum of a constant row) and reaching
    into its ends (clipped: one by one, or gathered when many), against every row clipped then summed along it."""
    rng = np.random.default_rng(h)
    rows = 40
    v = rng.uniform(-0.1, 0.1, (rows, h)) + rng.uniform(-0.5, 0.5, (rows, 1))
    i = np.arange(rows)
    centre = np.select([i % 4 == 0, i % 4 == 2], [0.8, -0.8], v.mean(axis=1))  # half the rows' intervals miss them
    widths = [np.full(rows, 0.3), np.where(i % 2 == 1, 0.05, 0.3), np.where(i == 5, 0.05, 0.3)]  # rows reaching
    # the ends: one (the zero-width interval), many, two
    for width in widths:
        L, U = centre - width / 2, centre + width / 2
        L[1] = U[1] = float(v[1, 0])  # a zero-width interval
        want = np.add.reduce(np.minimum(np.maximum(v, L[:, None]), U[:, None]), axis=1)
        got = np.empty((1, rows))
        gate = _stream._Unclipped()
        _stream._clipped_row_sums(v, [(L, U)], got, np.empty((rows, h)), gate)
        np.testing.assert_array_equal(got[0], want)
        off = np.empty((1, rows))
        gate.rows, gate.clipped = 1, 1  # turned off: every row clipped
        _stream._clipped_row_sums(v, [(L, U)], off, np.empty((rows, h)), gate)
        np.testing.assert_array_equal(off[0], want)


def test_runs_read_by_their_extents_have_the_bits_of_every_run_clipped():
    """A group's runs summed unclipped where all lie inside their rows' intervals, else clipped: each run's sum equals
    ``np.add.reduceat`` of the clipped runs (the estimators' arithmetic), the extents read once for several reads."""
    rng = np.random.default_rng(4)
    lengths = rng.integers(1, 3000, 50)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    rows = rng.permutation(60)[:50]
    src = rng.uniform(-0.01, 0.01, lengths.sum()) + 0.2
    runs = _stream._Runs(rows, starts, lengths)
    gate = _stream._Unclipped()
    clip = np.empty(src.size)
    for half in (0.5, 0.0105, 0.005):  # every run inside, a few reaching the ends, most
        L, U = np.full(60, 0.2 - half), np.full(60, 0.2 + half)
        want = np.add.reduceat(np.clip(src, np.repeat(L[rows], lengths), np.repeat(U[rows], lengths)), starts)
        np.testing.assert_array_equal(runs.clipped_sums(src, L, U, clip, gate), want)


@pytest.mark.parametrize("inside", [False, True])
def test_streamed_release_of_a_table_of_few_means_has_the_bits_of_the_whole_array(inside):
    """A table of few means (at most a quarter of a row's users): rows reaching the interval's ends read their own
    clipped copy of the table at their entries once the first group showed most rows do (and rows inside read
    their extents first): each interval's clipped means have the bits of the array of every user's mean."""
    rows, h = 40, 5000  # 13 rows a group: four groups
    rng = np.random.default_rng(9)
    table = np.sort(rng.uniform(-1, 1, 11))
    entries, draw, write, _ = _entries_source(table, rng.integers(0, table.size, rows * h))
    ends = (-2.0, 2.0) if inside else (-0.3, 0.4)
    intervals = [(np.full(rows, ends[0]) + 0.01 * r, np.full(rows, ends[1]) - 0.02 * r) for r in range(2)]
    calls = []
    with pytest.MonkeyPatch.context() as mp:
        reads = _stream._clipped_row_sums
        mp.setattr(_stream, "_clipped_row_sums", lambda *a: calls.append(1) or reads(*a))
        got = _kernels._streamed_means(draw, write, rows, h, intervals, table)
    assert len(calls) == (4 if inside else 1)  # outside: the extents of the first group alone
    want = localisation.clipped_means_checked(table[entries].reshape(rows, h), intervals)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_shrunk_runs_extents_are_the_shrunk_arrays_extents():
    """Eq. (8)'s shrink (w x + (1 - w) s_r, rounded step by step) is non-decreasing, so the extents of a group's
    shrunk runs, derived from the unshrunk extents, are the least and greatest shrunk means themselves (bit for
    bit), and the clipped sums read through them equal every run clipped then summed."""
    rng = np.random.default_rng(12)
    for count in (20, 40):  # few runs (shrunk run by run) and many (through repeated centres)
        lengths = rng.integers(1, 2000, count)
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        rows = rng.permutation(50)[:count]
        base = rng.uniform(-0.02, 0.02, lengths.sum()) + 0.1
        centre = rng.uniform(-0.2, 0.2, 50)
        runs, gate, clip = _stream._Runs(rows, starts, lengths), _stream._Unclipped(), np.empty(base.size)
        wide = (np.full(50, -1.0), np.full(50, 1.0))
        runs.clipped_sums(base, *wide, clip, gate)  # the base's extents read
        shrunk = _stream._shrink(base, 10**5, 10**6, centre, rows, starts, lengths)
        runs.shrunk(shrunk, base, 10**5, 10**6, centre)
        _, lo, hi, _ = runs._extents[id(shrunk)]
        np.testing.assert_array_equal(lo, np.minimum.reduceat(shrunk, starts))
        np.testing.assert_array_equal(hi, np.maximum.reduceat(shrunk, starts))
        for L, U in (wide, (np.full(50, 0.0), np.full(50, 0.05))):
            want = np.add.reduceat(np.clip(shrunk, np.repeat(L[rows], lengths), np.repeat(U[rows], lengths)), starts)
            np.testing.assert_array_equal(runs.clipped_sums(shrunk, L, U, clip, gate), want)


class _Uniforms:
    """A stand-in generator whose ``random(out=...)`` writes given values (cycled)."""

    def __init__(self, values):
        self.values = np.asarray(values, dtype=float)

    def random(self, out):
        out[...] = np.resize(self.values, out.shape)
        return out


@pytest.mark.parametrize("N, q", [(10, 0.5), (1000, 0.4), (10**6, 0.65), (10**7, 0.5), (50, 1e-3)])
def test_fine_inverter_draws_the_first_entry_above_each_uniform(N, q):
    table = simulate.binomial_table(N, q)
    fine = _tables._FineInverter(table, 2**16)
    F = table[1]
    for G in (table[2].size, 2 * table[2].size, 8 * table[2].size):  # the table's guide, then finer ones
        fine._guide(G)
        # every cell's ends (g / G, the largest double below (g + 1) / G), the table's own steps and their neighbours
        g = np.random.default_rng(0).integers(0, G, size=4000)
        steps = F[np.isfinite(F)]
        u = np.concatenate([g / G, np.nextafter((g + 1) / G, 0), steps, np.nextafter(steps, 0),
                            np.nextafter(steps, 1), [0.0, np.nextafter(1.0, 0)]])
        u = u[(u >= 0) & (u < 1)][:2**16]
        got = fine.indices(u.size, _Uniforms(u)).copy()
        np.testing.assert_array_equal(got, np.searchsorted(F, u, side="right"))  # the inverse by definition
    fine = _tables._FineInverter(table, 2**16)
    G = table[2].size
    assert fine.fine.size == min(2 * G, max(_tables.FINE_GUIDE_MAX, G))
    finer = min(8 * G, max(_tables.FINE_GUIDE_MAX, G))
    for _ in range(-(-_tables.FINE_DRAWS * finer // 2**16)):  # enough draws: a guide 8 times finer (at most 2^18)
        fine.indices(2**16, np.random.default_rng(5))
    assert fine.fine.size == finer
    a = _populations._Inverter(table, 2**16, index=np.intp).indices(2**16, np.random.default_rng(3)).copy()
    b = fine.indices(2**16, np.random.default_rng(3))
    np.testing.assert_array_equal(a, b)  # the same draws as the inverter it replaces


@pytest.mark.parametrize("N", [10, 10**6])
def test_fine_inverter_values_are_the_table_at_its_entries(N):
    table = simulate.binomial_table(N, 0.4)
    means = np.random.default_rng(1).normal(size=table[1].size)
    inv = _tables._FineInverter(table, 2**16)
    entries = inv.indices(50_000, np.random.default_rng(2)).copy()
    out = np.empty(2**16)
    got = inv.values(50_000, np.random.default_rng(2), means, out)
    np.testing.assert_array_equal(got, means[entries])


@pytest.mark.parametrize("law, n", [(sizes.point(10**6), 1000), (sizes.finite({10**5: 0.5, 10**6: 0.5}), 10**4)])
def test_means_drawn_as_read_equal_entries_then_means(monkeypatch, law, n):
    # the streamed releases' fused draws (one gather a user) against entries drawn, then their means written
    def run():
        return simulate.compare(theta=0.0, sizes=law, n=n, alpha=22 / 35, reps=70, seed=9)

    fused = run()
    monkeypatch.setattr(_stream, "_mean_draws", lambda *args: None)
    apart = run()
    for key in fused:
        np.testing.assert_array_equal(fused[key].estimates, apart[key].estimates)


def test_a_block_of_counted_releases_is_one_pass(monkeypatch):
    """Where the releasing users are counted per table entry (no array of users), a block's replications run in
    one pass whatever ENTRY_CHUNK_USERS, and not where they are drawn one by one."""
    calls = []
    run = _kernels.run
    monkeypatch.setattr(_kernels, "run", lambda *a: calls.append(1) or run(*a))
    monkeypatch.setattr(_engine, "ENTRY_CHUNK_USERS", N_BLOCKED)
    _run(sizes.point(10), {}, reps=3)
    assert len(calls) == 1
    _run(sizes.point(10**6), {}, reps=3)  # 9,157 entries against 35,769 releasing users a row: drawn one by one
    assert len(calls) == 4


def test_entry_masses_are_the_law_the_inversion_draws():
    """Each entry's probability is the share of the 2^53 uniforms u (multiples of 2^-53 in [0, 1)) whose inversion
    min{i : F_i > u} is that entry: (ceil(2^53 F_i) - ceil(2^53 F_{i-1})) / 2^53, exact integers, within 2^-52."""
    for N, q in [(1, 0.5), (10, 0.65), (1000, 0.5), (10**6, 0.35)]:
        _, F, _ = _populations.binomial_table(N, q)
        got = _stream._entry_masses(F)
        ends = [0] + [math.ceil(float(f) * 2**53) if math.isfinite(f) else 2**53 for f in F]
        exact = np.array([(b - a) / 2**53 for a, b in zip(ends[:-1], ends[1:])])
        # a proven bound, not a rounding tolerance: each ceil moves an end by less than 2^-53, so the exact shares
        # differ from F_i - F_{i-1} by less than 2^-53, and its subtraction in floats rounds by at most 2^-54
        assert np.max(np.abs(got - exact)) <= 2.0**-52, (N, q)
        assert math.isclose(math.fsum(got), 1.0, abs_tol=2.0**-40)


@pytest.mark.parametrize("rows, h", [(3, 100), (300, 5000)])  # 300 rows: a group of 238 rows, then 62
def test_counted_releases_are_the_clipped_means_of_their_users(rows, h):
    """A row's counted release is the estimator's clipped mean (``clipped_means_checked``) of the users the counts
    describe (each entry's mean repeated its count times), to 1e-13 relative: the counts replayed from the same
    stream, groups of rows as the function draws them."""
    N, q = 1000, 0.65
    lo, F, _ = _populations.binomial_table(N, q)
    table = _tables._entry_means(lo, F.size, N)
    rng = np.random.default_rng(rows)
    intervals = [(rng.uniform(0.2, 0.3, rows), rng.uniform(0.3, 0.35, rows)), (np.full(rows, -1.0), np.full(rows, 1.0))]
    got = _stream._histogram_means(F, table, rows, h, intervals, np.random.default_rng(1))
    replay, g = np.random.default_rng(1), max(1, _stream.HISTOGRAM_CELLS // F.size)
    counts = np.concatenate([replay.multinomial(h, _stream._entry_masses(F), size=min(g, rows - a))
                             for a in range(0, rows, g)])
    users = np.stack([np.repeat(table, c) for c in counts])
    want = localisation.clipped_means_checked(users, intervals)
    for gi, wi in zip(got, want):
        np.testing.assert_allclose(gi, wi, rtol=1e-13, atol=0)


def test_counted_releases_have_the_law_of_users_drawn_one_by_one():
    """The counted releases against every releasing user drawn by the inversion and clipped (``_streamed_means``),
    no noise added: each interval's clipped means have the same law (two-sample Kolmogorov–Smirnov, rejected
    beyond 4σ, p < 6.3e-5), 4,000 rows of 50 users from Bin(10, 0.65)'s table, both intervals clipping."""
    N, q, rows, h = 10, 0.65, 4000, 50
    how = _populations.binomial_table(N, q)
    table = _tables._entry_means(how[0], how[1].size, N)
    intervals = [(np.full(rows, 0.1), np.full(rows, 0.5)), (np.full(rows, -0.2), np.full(rows, 0.7))]
    counted = _stream._histogram_means(how[1], table, rows, h, intervals, np.random.default_rng(3))
    rng = np.random.default_rng(4)
    draw, write, _ = _tables._sampler(how, N, q, rng)
    drawn = _stream._streamed_means(draw, write, rows, h, intervals, table)
    for c, d in zip(counted, drawn):
        assert stats.ks_2samp(c, d).pvalue > 6.3e-5
        assert abs(c.mean() - d.mean()) < 4 * math.sqrt(c.var() / rows + d.var() / rows)


def test_sizes_counted_per_entry_give_the_law_of_users_drawn_one_by_one(monkeypatch):
    """Several sizes, each row's releasing users of every size counted per table entry (no user drawn) against every
    releasing user drawn: DAME at m̃ = 40 (size 5 below it, shrunk towards its bin, eq. (8)), a further run at
    m̃ = 20 (shrunk with its own weight), Kent at T = 40; alpha = 8 so that the releases, not their noise, make
    the estimates' law.  Each estimator's estimates have the same law (two-sample Kolmogorov–Smirnov, rejected
    beyond 4σ, p < 6.3e-5), 640 replications each at n = 4000."""
    calls = []
    counts = _stream._entry_counts
    monkeypatch.setattr(_stream, "_entry_counts", lambda *a: calls.append(1) or counts(*a))
    kw = dict(theta=0.3, sizes=sizes.finite({5: 0.5, 40: 0.5}), n=4000, alpha=8.0, reps=640, m_tilde=40,
              more_m_tildes=[20], T=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        counted = simulate.compare(seed=[7, 1], **kw)
        assert len(calls) == 2  # both sizes, in one pass
        monkeypatch.setattr(_stream, "HISTOGRAM_RELEASE", False)
        drawn = simulate.compare(seed=[7, 2], **kw)
    assert len(calls) == 2
    assert set(counted) == {"duchi", "kent", "dame", "dame@20"}
    for k in counted:
        assert stats.ks_2samp(counted[k].estimates, drawn[k].estimates).pvalue > 6.3e-5, k


@pytest.mark.parametrize("m, n, options", [
    (10, 1000, {}), (10, 100, {}), (1000, 4000, {}), (1000, 6000, {}), (10**6, 10**6, {}), (10**12, 10**6, {}),
    (10, 1000, {"estimators": ("kent",)}), (10, 1000, {"m_tilde": 20}), (40, 4000, {"T": 20}),
    (10, 1000, {"more_m_tildes": [1]}), (10, 1000, {"denominator": "official"}), (10, 1000, {"theta": 1.0}),
])
def test_counted_says_which_runs_count_their_releasing_users(m, n, options, monkeypatch):
    """``_kernels.counted(plan)`` (which sets a block's passes) holds exactly where ``run`` counts the releasing
    users per entry: it restates ``run``'s choice of path from the plan alone, and a plan it passes must never reach
    the path holding every user's mean (a block of 4,096 replications in one pass)."""
    calls = []
    hist = _stream._histogram_means
    monkeypatch.setattr(_stream, "_histogram_means", lambda *a: calls.append(1) or hist(*a))
    options = dict(options)
    theta = options.pop("theta", 0.3)
    est = tuple(options.pop("estimators", _engine.ESTIMATORS))
    law = sizes.point(m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        plan = _engine._plan(est, law, n, ALPHA, _populations.TwoPoint(theta), options.get("m_tilde"), "paper",
                             options.get("denominator", "canonical"), "paper", options.get("T"), 1.0,
                             options.get("more_m_tildes", ()))
        simulate.compare(theta=theta, sizes=law, n=n, alpha=ALPHA, reps=3, seed=1, estimators=est, **options)
    assert _kernels.counted(plan) == bool(calls)
