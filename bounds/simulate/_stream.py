r"""The entries path's releases read as drawn: the elections first, then each releasing user's clipped local mean
summed per row while in cache (no array of the users); where a row's releasing users of a size are many against
its table's entries (:data:`HISTOGRAM_USERS` an entry), they are not drawn but counted per entry, one multinomial a
row (a row's clipped sum depends on them through those counts alone), in :math:`O(K)` work a row for :math:`K`
entries.  A row's (or a run's) least and greatest mean and its sum
are read first: where it lies inside an interval (or wholly outside it) the clip changes no value (or makes a
constant row), so only rows reaching into an interval's ends are clipped, with the same bits.

.. math:: \hat\theta_r = \frac{1}{h}\sum_{u \le h} \Pi_{[L_r, U_r]}(\bar X_{r,u}) + \frac{\text{noise}_r}{h}

Source: Pla et al. (2024), eqs. (8)–(9); Kent et al. (2024), eqs. (29)–(30).
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from ..estimators import dame, kent, localisation
from ._cells import _cells, _joint_cells, _later_cells, _two_part_votes, _vote_cells
from ._populations import INVERTER_DRAWS
from ._tables import BINOMIAL, _buffer, _entry_means, _mean_draws, _row_groups, _sampler, _scratch

__all__: list[str] = []

TABLE_CLIP_USERS = 2**14  # a row's releasing users from which a table is clipped per row (then read at the entries)
FEW_MEANS = 4  # a table's means at most a row's users over this: rows read their own clipped copy of the table
EXTENTS_FIRST = True  # rows' least and greatest means read first (only rows reaching an interval's ends clipped)
HISTOGRAM_RELEASE = True  # a row's releasing users of a size counted per table entry where they are many (below)
HISTOGRAM_USERS = 8  # a row's releasing users per table entry from which they are counted (one multinomial a row)
HISTOGRAM_CELLS = 2**16  # rows x entries of the counts drawn at a time


def _run_streaming(plan, counts: np.ndarray, how, t: int, cells: tuple, votes: dict, size: int,
                   rng: np.random.Generator) -> dict[str, np.ndarray]:
    """:func:`run` for one size and no further DAME runs: the voters per cell, the elections and the release's
    noise, then the releasing users drawn a block at a time and read at once (their local means clipped to every
    interval and summed while in cache: no array of them), with the bits of the clipped means of :func:`run`'s;
    or, where they number :data:`HISTOGRAM_USERS` a table entry, counted per entry (:func:`_histogram_means`)."""
    n, alpha = plan.n, plan.alpha
    h = n // 2
    _vote_cells(votes, how, t, cells, rng.multinomial(counts[0::2, 0], cells[1]), slice(None))
    pending: list[tuple[str, tuple[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]]] = []
    if "kent" in votes:
        j = votes["kent"].elect(alpha, max(h, 1), rng)
        L, U, noise = kent.release_checked(j, plan.kent_tau, alpha, (size, h), rng)
        pending.append(("kent", (L, U), functools.partial(_plus_noise, noise=noise, h=h)))
    if "dame" in votes:
        v = votes["dame"]
        j = v.elect(alpha, max(h, 1), rng)
        L, U, finish = dame.release_checked(j, plan.m_tilde, v.tau, alpha, plan.dame_debiasing, rng, plan.dame_scale,
                                            (size, h))
        pending.append(("dame", (L, U), finish))
    table = None if how is BINOMIAL else _entry_means(how[0], how[1].size, t)
    if table is not None and HISTOGRAM_RELEASE and HISTOGRAM_USERS * table.size <= h:
        means = _histogram_means(how[1], table, size, h, [p[1] for p in pending], rng)
    else:
        draw, write, _ = _sampler(how, t, (1 + plan.population.theta) / 2, rng)
        means = _streamed_means(draw, write, size, h, [p[1] for p in pending], table, _mean_draws(how, t, rng))
    return {key: finish(mean) for (key, _, finish), mean in zip(pending, means)}


def _entry_masses(F: np.ndarray) -> np.ndarray:
    r"""The probability of each entry of an inversion table whose cdf is ``F`` (its last entry ``inf``: the top
    entry takes the rest of :math:`[0, 1)`), the law the inversion draws an entry from.

    .. math:: p_i = F_i - F_{i-1},\quad F_{-1} = 0,\quad p_{K-1} = 1 - F_{K-2}
    """
    p = np.empty(F.size)
    p[0] = F[0] if F.size > 1 else 1.0
    p[1:-1] = np.diff(F[:-1])
    if F.size > 1:
        p[-1] = 1.0 - F[-2]
    return p


def _entry_counts(users: np.ndarray, F: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    r"""Each row's number of users at each entry of an inversion table whose cdf is ``F`` (rows × entries), row
    ``r`` holding ``users[r]`` users: one multinomial a row over :func:`_entry_masses`, the law each user's
    inversion draws from (its users' entries are i.i.d.: their counts are this multinomial, exactly).

    .. math:: (N_{r,0}, \dots, N_{r,K-1}) \sim \mathrm{Mult}(n_r;\ p_0, \dots, p_{K-1})
    """
    return rng.multinomial(users, _entry_masses(F))


def _counted_sums(counts: np.ndarray, table: np.ndarray, L: np.ndarray, U: np.ndarray,
                  shrink: tuple[int, int, np.ndarray] | None = None) -> np.ndarray:
    r"""Each row's sum of its users' local means clipped to :math:`[L_r, U_r]`, from its number of users at each
    entry (``counts``, rows × entries; ``table``, each entry's local mean): a row's clipped sum depends on its
    users through these counts alone.  ``shrink = (m, m~, centre)``: the means first shrunk towards each row's
    bin centre, eq. (8) (:func:`_shrink`'s arithmetic, so its values).  Summed entry by entry, not user by user:
    the same value up to rounding, not the same bits (within 1e-13 relative of the estimator's clipped mean of the
    users the counts describe, in ``tests/test_simulate_blocks.py``).

    .. math:: \sum_{u} \Pi_{[L_r, U_r]}(\bar X_{r,u}) = \sum_{i < K} N_{r,i}\, \Pi_{[L_r, U_r]}(\bar x_i)
    """
    if shrink is None:
        clipped = np.maximum(table, L[:, None])  # np.clip's values (L <= U), a row of the table each row
    else:
        m, m_tilde, centre = shrink
        w = dame.weights_checked(np.array([m]), m_tilde)[0]
        clipped = np.multiply(w, table) + ((1 - w) * centre)[:, None]
        np.maximum(clipped, L[:, None], out=clipped)
    np.minimum(clipped, U[:, None], out=clipped)
    clipped *= counts
    return np.add.reduce(clipped, axis=1)


def _histogram_means(F: np.ndarray, table: np.ndarray, rows: int, h: int,
                     intervals: list[tuple[np.ndarray, np.ndarray]], rng: np.random.Generator) -> list[np.ndarray]:
    r"""Each row's mean of ``h`` releasing users' local means clipped to each interval, from their numbers at each
    entry of the table (:func:`_entry_counts`, :func:`_counted_sums`), groups of rows of at most
    :data:`HISTOGRAM_CELLS` counts at a time: :math:`O(K)` work a row for :math:`K` entries instead of
    :math:`O(h)`, the law of :func:`_streamed_means`' values (tested).

    .. math:: \frac1h \sum_{u \le h} \Pi_{[L_r, U_r]}(\bar X_{r,u}) = \frac1h \sum_{i < K} N_{r,i}\,
              \Pi_{[L_r, U_r]}(\bar x_i)

    Source: Pla et al. (2024), eqs. (8)–(9); Kent et al. (2024), eq. (29) (the clipped means they release).
    """
    sums = np.empty((len(intervals), rows))
    g = max(1, HISTOGRAM_CELLS // table.size)
    for a in range(0, rows, g):
        e = min(rows, a + g)
        counts = _entry_counts(np.full(e - a, h), F, rng)
        for i, (L, U) in enumerate(intervals):
            sums[i, a:e] = _counted_sums(counts, table, L[a:e], U[a:e])
    sums /= h
    return list(sums)


def _all_cells(main_votes: dict, more_votes: dict, tabs: list, parts: list, pts: list, q: float,
               mts: dict[str, int] | None = None) -> list | None:
    r"""Each size's cells of the first runs and of every run, among those its voters enter (:func:`_cells`, or
    :func:`_joint_cells` for two parts), and those first and further runs' votes: ``(first, every, main, more)`` a
    size, ``None`` for a size no user holds; ``None`` if a size has none.  A DAME run of :math:`\tilde m` (``mts``:
    each DAME run's key to its :math:`\tilde m`) counts the voters of sizes :math:`m \ge \tilde m` only."""
    out: list = []
    for hows, part, m in zip(tabs, parts, pts):
        if hows is None:
            out.append(None)
            continue
        main, mine = ({k: v for k, v in d.items() if mts is None or k not in mts or mts[k] <= m}
                      for d in (main_votes, more_votes))
        votes = {**main, **mine}
        if len(hows) == 1:
            first = _cells(main, hows[0], part[0], q)
            pair = (first, _cells(votes, hows[0], part[0], q) if mine else first)
        elif hows[0] is BINOMIAL:
            return None
        else:  # the second part by a table or by numpy's sampler
            dame_main = {k: v for k, v in main.items() if k != "kent"}
            dame_all = {k: v for k, v in votes.items() if k != "kent"}
            first = _joint_cells(main_votes["kent"], dame_main, hows, part, m, q)
            pair = (first, _joint_cells(main_votes["kent"], dame_all, hows, part, m, q) if mine else first)
        if pair[0] is None or pair[1] is None:
            return None
        out.append((*pair, main, mine))
    return out


def _run_streaming_sizes(plan, counts: np.ndarray, tabs: list, parts: list, every: list, main_votes: dict,
                         more_votes: dict, size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """:func:`run` for several sizes on counts per cell: every size's voters per cell (one multinomial a row and
    size), the first runs' elections and noise, then each size's releasing users drawn a block at a time in row
    order, their clipped local means summed per row's run (``np.add.reduceat``, pairwise like a row's sum) and the
    runs added size after size (the row's sum in that order); DAME's further runs last (their cells split from the
    first runs', their elections, noise and sums, from the releasing users' means kept for them), so the first
    runs draw what they draw alone.  A one-part size whose rows hold :data:`HISTOGRAM_USERS` releasing users a table
    entry on average is counted per entry instead (:func:`_entry_counts`, :func:`_counted_sums`; the counts kept
    for the further runs)."""
    n, alpha = plan.n, plan.alpha
    h = n // 2
    q = (1 + plan.population.theta) / 2
    pts = plan.size_table[0].tolist()
    later: list = []
    for k, (hows, pair) in enumerate(zip(tabs, every)):
        if hows is None:
            continue
        first, fine, main, mine = pair  # the first and further runs whose votes this size's voters enter
        if len(hows) == 1:
            per_cell = rng.multinomial(counts[0::2, k], first[1])
            _vote_cells(main, hows[0], parts[k][0], first, per_cell, slice(None))
            if mine:
                later.append(functools.partial(_later_cells, mine, hows[0], parts[k][0], first, fine, per_cell))
        else:
            dame_main = {key: v for key, v in main.items() if key != "kent"}
            _two_part_votes({**main, **mine}, dame_main, mine, first, fine, counts[0::2, k], pts[k], later, rng)
    intervals: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    finish: dict[str, Callable[[np.ndarray], np.ndarray]] = {}
    if "kent" in main_votes:
        j = main_votes["kent"].elect(alpha, max(h, 1), rng)
        L, U, noise = kent.release_checked(j, plan.kent_tau, alpha, (size, h), rng)
        intervals["kent"], finish["kent"] = (L, U), functools.partial(_plus_noise, noise=noise, h=h)
    if "dame" in main_votes:
        v = main_votes["dame"]
        j = v.elect(alpha, max(h, 1), rng)
        L, U, finish["dame"] = dame.release_checked(j, plan.m_tilde, v.tau, alpha, plan.dame_debiasing, rng,
                                                    plan.dame_scale, (size, h))
        intervals["dame"] = (L, U)
        lo_j, hi_j = localisation.bin_ends_checked(j, v.tau)
        centre = (lo_j + hi_j) / 2  # where users below m̃ shrink towards it
    sums = {key: np.zeros(size) for key in intervals}
    kept: list[tuple[int, _Runs, np.ndarray]] = []  # DAME's releasing means for the further runs
    store = _buffer("stream_kept", size * h if more_votes else 0, np.float64)
    at = 0
    gate = _Unclipped()
    vals = _scratch("stream_vals", INVERTER_DRAWS, np.float64)
    vals2 = _scratch("stream_vals2", INVERTER_DRAWS, np.float64)
    clip = _scratch("stream_clip", INVERTER_DRAWS, np.float64)
    both = _scratch("both", INVERTER_DRAWS, np.intp)
    counted: list[tuple[int, np.ndarray, np.ndarray]] = []  # the sizes counted per entry: (m, counts, means)
    for k, hows in enumerate(tabs):
        if hows is None:
            continue
        if (HISTOGRAM_RELEASE and len(hows) == 1 and hows[0] is not BINOMIAL
                and HISTOGRAM_USERS * hows[0][1].size * size <= int(counts[1::2, k].sum())):
            # a size whose rows hold many releasing users a table entry: their counts per entry (no user drawn)
            table = _entry_means(hows[0][0], hows[0][1].size, parts[k][0])
            per_entry = _entry_counts(counts[1::2, k], hows[0][1], rng)
            for key, (L, U) in intervals.items():
                low = key == "dame" and pts[k] < plan.m_tilde
                sums[key] += _counted_sums(per_entry, table, L, U, (pts[k], plan.m_tilde, centre) if low else None)
            if more_votes:
                counted.append((pts[k], per_entry, table))
            continue
        draw, write, lo = _sampler(hows[0], parts[k][0], q, rng)
        second = _sampler(hows[1], parts[k][1], q, rng) if len(hows) == 2 else None
        fused = _mean_draws(hows[0], parts[k][0], rng) if second is None else None  # the means drawn as read
        if second is not None and hows[1] is not BINOMIAL:
            sum_means = _entry_means(lo + second[2], hows[0][1].size + hows[1][1].size - 1, pts[k])
        rel = counts[1::2, k].tolist()
        for group, total in _row_groups(rel, [0] * len(rel), INVERTER_DRAWS):
            rows = np.array([g[0] for g in group], dtype=np.intp)
            lengths = np.array([g[2] for g in group], dtype=np.intp)
            starts = np.array([g[1] for g in group], dtype=np.intp)
            keep = store[at:at + total] if more_votes else None  # DAME's means kept for the further runs: written
            v1 = vals[:total] if keep is None or len(hows) == 2 else keep  # there, in a buffer of the block's users
            if fused is not None:
                fused(total, v1)
            else:
                e = draw(total)
                write(e, v1)
            v2 = v1  # DAME's local means: the same, or those of the two parts' sum
            if second is not None:
                if hows[1] is hows[0]:  # one table, one inverter: its next draws overwrite these entries
                    np.copyto(both[:total], e)
                    np.add(both[:total], second[0](total), out=both[:total])
                else:
                    np.add(e, second[0](total), out=both[:total])
                v2 = vals2[:total] if keep is None else keep
                if hows[1] is BINOMIAL:  # entries plus numbers of ones: the mean of the sum, TwoPoint's arithmetic
                    np.add(both[:total], lo, out=v2)  # exact: integers below 2^53
                    v2 *= 2.0
                    v2 -= pts[k]
                    v2 /= pts[k]
                else:
                    np.take(sum_means, both[:total], out=v2, mode="clip")
            runs = _Runs(rows, starts, lengths)
            for key, (L, U) in intervals.items():
                src = v1 if key == "kent" else v2
                if key == "dame" and pts[k] < plan.m_tilde:
                    src = _shrink(v2, pts[k], plan.m_tilde, centre, rows, starts, lengths)
                sums[key][rows] += runs.clipped_sums(src, L, U, clip, gate)
            if keep is not None:  # the buffer is reused from block to block; its extents are read already
                kept.append((pts[k], runs, keep))
                at += total
    out = {key: finish[key](sums[key] / h) for key in intervals}
    if more_votes:
        for step in later:
            step(rng)
        for key, mt, d in ((f"dame@{mt}", mt, d) for mt, d in plan.more_dame):
            v = more_votes[key]
            j = v.elect(alpha, max(h, 1), rng)
            L, U, fin = dame.release_checked(j, mt, v.tau, alpha, d, rng, plan.dame_scale, (size, h))
            if any(m < mt for m, *_ in (*kept, *counted)):  # each bin's centre, where users below m̃ shrink to it
                lo_j, hi_j = localisation.bin_ends_checked(j, v.tau)
                centre = (lo_j + hi_j) / 2
            total_sums = np.zeros(size)
            for m, per_entry, table in counted:
                total_sums += _counted_sums(per_entry, table, L, U, (m, mt, centre) if m < mt else None)
            for m, runs, values in kept:  # a kept group's extents are read once for every further run
                if m < mt:
                    base = values
                    values = _shrink(values, m, mt, centre, runs.rows, runs.starts, runs.lengths)
                    runs.shrunk(values, base, m, mt, centre)
                total_sums[runs.rows] += runs.clipped_sums(values, L, U, clip, gate)
            out[key] = fin(total_sums / h)
    return out


class _Unclipped:
    """Whether to read rows' extents first (:func:`_clipped_row_sums`): while at most a quarter of the rows seen
    reached into an interval's ends (where most do, the extents are read for nothing and the rows are clipped at
    once)."""

    def __init__(self) -> None:
        self.rows, self.clipped = 0, 0

    @property
    def on(self) -> bool:
        return EXTENTS_FIRST and 4 * self.clipped <= self.rows

    def seen(self, rows: int, clipped: int) -> None:
        self.rows += rows
        self.clipped += clipped


class _Runs:
    """A group's runs of one size (row ``rows[i]``: users ``starts[i]`` to ``starts[i] + lengths[i] - 1`` of an array
    of their means, every run non-empty) and their sums clipped to each row's interval.

    Each array's least and greatest mean and its sum are read once a run (``reduceat``); where every run lies
    strictly inside its row's interval the clip changes no value and the sums are the plain sums, the same bits
    (each run is reduced alone: tested); otherwise every run is clipped (:func:`_clip_runs`) and summed alike.
    """

    def __init__(self, rows: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> None:
        self.rows, self.starts, self.lengths = rows, starts, lengths
        self._extents: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]] = {}

    def shrunk(self, src: np.ndarray, base: np.ndarray, m: int, m_tilde: int, centre: np.ndarray) -> None:
        r"""Make ``src`` (:func:`_shrink` of ``base``) known to have ``base``'s extents shrunk alike, where those were
        read: :math:`x \mapsto w x + (1 - w) s_r` rounded step by step is non-decreasing (:math:`w > 0`), so it maps
        each run's least and greatest mean to the least and greatest shrunk mean (the same operations, the same
        bits: tested); only their sums are read then."""
        ext = self._extents.get(id(base))
        if ext is None or ext[0] is not base:
            return
        w = dame.weights_checked(np.array([m]), m_tilde)[0]
        shift = (1 - w) * centre[self.rows]
        lo, hi = np.multiply(w, ext[1]), np.multiply(w, ext[2])
        lo += shift
        hi += shift
        self._extents[id(src)] = (src, lo, hi, None)

    def clipped_sums(self, src: np.ndarray, L: np.ndarray, U: np.ndarray, clip: np.ndarray,
                     gate: _Unclipped) -> np.ndarray:
        """Each run's sum of ``src`` clipped to its row's ``[L, U]`` (``clip``: a buffer of at least ``src.size``)."""
        if gate.on:
            ext = self._extents.get(id(src))
            if ext is None or ext[0] is not src:  # the array itself held: its id is not reused while cached
                lo, hi = np.minimum.reduceat(src, self.starts), np.maximum.reduceat(src, self.starts)
                ext = self._extents[id(src)] = (src, lo, hi, np.add.reduceat(src, self.starts))
            elif ext[3] is None:  # extents known, sums not read yet
                ext = self._extents[id(src)] = (*ext[:3], np.add.reduceat(src, self.starts))
            _, lo, hi, whole = ext
            inside = int(np.count_nonzero((lo > L[self.rows]) & (hi < U[self.rows])))
            gate.seen(self.rows.size, self.rows.size - inside)
            if inside == self.rows.size and whole is not None:
                return whole
        c = clip[:src.size]
        _clip_runs(src, L, U, self.rows, self.starts, self.lengths, c)
        return np.add.reduceat(c, self.starts)


FEW_RUNS = 32  # a group's runs up to which each run is clipped to its row's bounds (else through repeated bounds)


def _clip_runs(src: np.ndarray, L: np.ndarray, U: np.ndarray, rows: np.ndarray, starts: np.ndarray,
               lengths: np.ndarray, out: np.ndarray) -> None:
    """``out``: each run of ``src`` (row ``rows[i]``'s users ``starts[i] ..``, ``lengths[i]`` of them) clipped to its
    row's interval, np.clip's values (L <= U): run by run where runs are few, else against repeated bounds."""
    if rows.size <= FEW_RUNS:
        for r, a, n in zip(rows.tolist(), starts.tolist(), lengths.tolist()):
            np.maximum(src[a:a + n], L[r], out=out[a:a + n])
            np.minimum(out[a:a + n], U[r], out=out[a:a + n])
        return
    np.maximum(src, np.repeat(L[rows], lengths), out=out)
    np.minimum(out, np.repeat(U[rows], lengths), out=out)


def _shrink(values: np.ndarray, m: int, m_tilde: int, centre: np.ndarray, rows: np.ndarray, starts: np.ndarray,
            lengths: np.ndarray) -> np.ndarray:
    r"""Eq. (8)'s shrunk means of users of size ``m`` below ``m_tilde``, each run towards its row's bin centre:
    :math:`w \bar X + (1 - w) s_r`, :math:`w = \sqrt{m / \tilde m}` (refine's arithmetic, so its bits a user), in this
    thread's buffer of a group (overwritten by the next call; a fresh array where ``values`` is longer)."""
    w = dame.weights_checked(np.array([m]), m_tilde)[0]
    buf = _scratch("stream_shrunk", INVERTER_DRAWS, np.float64)
    out = np.multiply(w, values, out=buf[:values.size] if values.size <= buf.size else None)
    if rows.size <= FEW_RUNS:
        for r, a, n in zip(rows.tolist(), starts.tolist(), lengths.tolist()):
            out[a:a + n] += (1 - w) * centre[r]
        return out
    out += (1 - w) * np.repeat(centre[rows], lengths)
    return out


def _streamed_means(draw: Callable[[int], np.ndarray], write: Callable[[np.ndarray, np.ndarray], None], rows: int,
                    h: int, intervals: list[tuple[np.ndarray, np.ndarray]], table: np.ndarray | None = None,
                    means: Callable[[int, np.ndarray], np.ndarray] | None = None) -> list[np.ndarray]:
    """Each row's mean of ``h`` local means drawn in order (``draw``, then ``write``: row after row), clipped to
    each interval: :func:`~bounds.estimators.localisation.clipped_means_checked`'s bits on the array they would
    make (rows of at most a block summed along the row; longer rows by the same blocked pairwise sums, each leaf
    drawn when reached).  Where ``draw`` gives entries of ``table`` (their local means) and rows hold at least
    :data:`TABLE_CLIP_USERS` users, each row's table is clipped once and read at the entries (the same values:
    one gather a user and interval instead of a gather, two comparisons and a write).  ``means``: ``draw`` then
    ``write`` in one step (:func:`~bounds.simulate._tables._mean_draws`: the same uniforms, the same values), used
    where rows of at most a block are read as written."""
    vals = _scratch("stream_vals", INVERTER_DRAWS, np.float64)
    clip = _scratch("stream_clip", INVERTER_DRAWS, np.float64)
    sums = np.empty((len(intervals), rows))
    by_table = table is not None and h >= TABLE_CLIP_USERS and 2 * table.size <= h  # a table cheaper than the reads
    gate = _Unclipped()
    clipped = np.empty(0 if table is None else table.size)
    if h <= localisation.BLOCK_USERS and h <= INVERTER_DRAWS:
        g = max(1, INVERTER_DRAWS // h)
        few = None  # where a table has at most h / 4 means, a group's clipped copies cost less than the reads saved
        if table is not None and not by_table and FEW_MEANS * table.size <= h:
            few = _scratch("stream_at", INVERTER_DRAWS, np.intp)
            offsets = np.arange(g, dtype=np.intp) * table.size
        for a in range(0, rows, g):
            e = min(rows, a + g)
            c = clip[:(e - a) * h].reshape(e - a, h)
            if means is not None and not by_table and (few is None or gate.on):  # the means drawn as they are read
                v = means((e - a) * h, vals).reshape(e - a, h)
                _clipped_row_sums(v, [(L[a:e], U[a:e]) for L, U in intervals], sums[:, a:e], c, gate)
                continue
            d = draw((e - a) * h).reshape(e - a, h)
            if by_table:
                assert table is not None
                for r in range(a, e):
                    for i, (L, U) in enumerate(intervals):
                        np.clip(table, L[r], U[r], out=clipped)
                        np.take(clipped, d[r - a], out=c[r - a], mode="clip")
                        sums[i, r] = np.add.reduce(c[r - a])
                continue
            if few is not None and not gate.on:  # rows reaching the ends of a table of few means: each row's copy
                # of the table clipped, read at the row's entries (no means written, no clip of every user)
                assert table is not None
                at = few[:(e - a) * h].reshape(e - a, h)
                np.add(d, offsets[:e - a, None], out=at)  # row r's entries in row r's copy of the table
                for i, (L, U) in enumerate(intervals):
                    tabs = np.maximum(table, L[a:e, None])  # np.clip's values (L <= U), on rows × entries
                    np.minimum(tabs, U[a:e, None], out=tabs)
                    np.take(tabs.reshape(-1), at, out=c, mode="clip")  # in range: no check
                    np.add.reduce(c, axis=1, out=sums[i, a:e])
                continue
            v = vals[:(e - a) * h].reshape(e - a, h)
            write(d, v)
            _clipped_row_sums(v, [(L[a:e], U[a:e]) for L, U in intervals], sums[:, a:e], c, gate)
    else:
        row_tables: dict[int, list[np.ndarray]] = {}

        def leaf(r: int, a: int, e: int) -> list[float]:
            k = e - a
            v = vals[:k] if k <= vals.size else np.empty(k)
            c = clip[:k] if k <= clip.size else np.empty(k)
            if by_table and k <= INVERTER_DRAWS:
                assert table is not None
                if r not in row_tables:
                    row_tables.clear()
                    row_tables[r] = [np.clip(table, L[r], U[r]) for L, U in intervals]
                d = draw(k)
                out = []
                for t in row_tables[r]:
                    np.take(t, d, out=c, mode="clip")
                    out.append(float(np.add.reduce(c)))
                return out
            for s in range(0, k, INVERTER_DRAWS):
                piece = draw(min(INVERTER_DRAWS, k - s))
                write(piece, v[s:s + piece.size])
            leaf_sums = np.empty((len(intervals), 1))
            _clipped_row_sums(v.reshape(1, k), [(L[r:r + 1], U[r:r + 1]) for L, U in intervals], leaf_sums,
                              c.reshape(1, k), gate)
            return leaf_sums[:, 0].tolist()

        for r in range(rows):
            sums[:, r] = localisation.pairwise_sums_checked(leaf, r, 0, h)
    sums /= h
    return list(sums)


FEW_ROWS = 8  # rows of a group reaching into an interval up to which they are clipped one by one (else gathered)


def _clipped_row_sums(v: np.ndarray, bounds: list[tuple[np.ndarray, np.ndarray]], out: np.ndarray, clip: np.ndarray,
                      gate: _Unclipped) -> None:
    r"""``out[i]``: each row's sum of ``v`` (rows × users) clipped to ``bounds[i]`` (each row's ``L <= U``), with the
    bits of ``np.add.reduce(np.minimum(np.maximum(v, L), U), axis=1)``.

    Each row's least and greatest value and its sum are read once (three reductions, no write).  A row strictly
    inside an interval is the same array clipped or not: its clipped sum is its sum, the same bits.  A row
    strictly below (above) it is clipped to a row of :math:`L_r` (:math:`U_r`): its sum is that of the constant
    row, summed as numpy sums any row (pairwise, the same bits: tested).  Only rows reaching into an interval's
    ends are clipped (one by one where few, else gathered), instead of two passes writing every user and a sum
    per interval.  ``gate`` turns the first reads off where most rows reach into the ends anyway (a few possible
    means, as at :math:`m = 10`).

    .. math:: \Pi_{[L_r, U_r]}(x_{r,u}) = x_{r,u}\ \forall u \text{ if } L_r < \min_u x_{r,u},\ \max_u x_{r,u} < U_r;
              \quad = L_r\ \forall u \text{ if } \max_u x_{r,u} < L_r;
              \quad = U_r\ \forall u \text{ if } \min_u x_{r,u} > U_r
    """
    rows, h = v.shape
    if not gate.on:
        for (L, U), o in zip(bounds, out):
            np.maximum(v, L[:, None], out=clip)  # np.clip's values (L <= U)
            np.minimum(clip, U[:, None], out=clip)
            np.add.reduce(clip, axis=1, out=o)
        return
    lo, hi = np.minimum.reduce(v, axis=1), np.maximum.reduce(v, axis=1)
    whole = np.add.reduce(v, axis=1)  # a contiguous row's sum: the bits of the same row clipped to no effect
    for (L, U), o in zip(bounds, out):
        below, above = hi < L, lo > U
        reach = np.flatnonzero(~((lo > L) & (hi < U)) & ~below & ~above)
        gate.seen(rows, reach.size)
        o[...] = whole
        for side, ends in ((below, L), (above, U)):
            at = np.flatnonzero(side)
            if at.size:
                o[at] = np.add.reduce(np.broadcast_to(ends[at][:, None], (at.size, h)), axis=1)
        if reach.size > FEW_ROWS:  # the rows reaching into the ends, gathered and clipped (each row summed alone)
            part = v[reach]
            np.maximum(part, L[reach][:, None], out=part)
            np.minimum(part, U[reach][:, None], out=part)
            o[reach] = np.add.reduce(part, axis=1)
            continue
        for r in reach.tolist():  # a row alone is summed as it is within its group (contiguous, along the row)
            np.maximum(v[r], L[r], out=clip[r])
            np.minimum(clip[r], U[r], out=clip[r])
            o[r] = np.add.reduce(clip[r])


def _plus_noise(mean: np.ndarray, noise: np.ndarray, h: int) -> np.ndarray:
    """Kent's estimate from each row's clipped mean (:func:`~bounds.estimators.kent.refine_checked`'s arithmetic)."""
    return mean + noise / h
