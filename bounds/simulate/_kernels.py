r"""Kent et al. and DAME on a binomial's table (or numpy's sampler): votes counted per cell, releases from entries.

A user's bin in every vote is a non-decreasing function of its number of ones (of the entry
its inversion draws), constant between a few cuts.  The votes read nothing else from the
voting half, so a row's voters of one size are counted per cell between the votes' cuts by
one multinomial draw over the cells' probabilities (the table's cdf at the cuts, or the
binomial's): the voters themselves are not drawn.  This is their exact law, as the inversion
draws it (an entry is below a cut :math:`c` iff its uniform is below :math:`F_{c-1}`), tested
against exact rational sums of the pmf and, estimate by estimate, against the general path
(same law).  Only the releasing half's local means are drawn and written (read from the
table of means at the entries, the general path's bits), and where a row's releasing users of a
size are many against its table's entries (eight an entry) they are counted per entry in the
same way, their clipped means read from the counts (:func:`counted`: then a block is one pass).
DAME's further runs split the first runs' cells after the first runs' draws.  The elections come first and the releasing
users are read as they are drawn (their clipped means summed per row while in cache: no
array of them); with several sizes a row's sum is gathered size after size, and the further
runs, last, read the releasing users' means kept for them, so the first runs draw what they
draw alone (with one size, a further run keeps every releasing user's mean instead).
Where every voter is drawn (a size above Kent's :math:`T^*` with a part drawn by numpy's sampler, too many cells, or
:data:`MULTINOMIAL_VOTES` off), the counts come from the entries drawn, and the results are
the general path's bit for bit (tested).

.. math:: (N_{r,1}, \dots, N_{r,J}) \sim \mathrm{Mult}\big(n_{r,k};\ F_{c_1 - 1},\ F_{c_2 - 1} - F_{c_1 - 1},\ \dots,\ 1 - F_{c_{J-1} - 1}\big),\qquad
          c_j = \#\{u \le n/2 : j(\bar X_u) \in \{j - 1, j, j + 1\}\}

Source: Pla et al. (2024), eqs. (5)–(9); Kent et al. (2024), eqs. (26)–(30).
"""


from __future__ import annotations

import functools
from typing import Callable

import numpy as np

from ..estimators import dame, kent, localisation
from ._cells import _cells, _joint_cells, _later_cells, _two_part_votes, _vote_cells  # noqa: F401
from ._populations import INVERTER_DRAWS, TABLE_MIN_DRAWS, TwoPoint, _binomial_table
from . import _stream
from ._stream import _all_cells, _plus_noise, _run_streaming, _run_streaming_sizes, _streamed_means  # noqa: F401
from ._tables import (BINOMIAL, SCRATCH_USERS, _SCRATCH, _buffer, _dame_tau, _entry_means, _ones_bins,  # noqa: F401
                      _ones_cut, _release, _row_groups, _sampler, _scratch, _table_bins, _Vote)

__all__: list[str] = []
BLOCK_USERS = 2**16  # users drawn at a time in a replication of more users (the engine's BLOCK_USERS)
RUN_USERS = 64  # users per run above which a finite law's sizes draw run by run (the engine's RUN_USERS)
STREAM_RELEASE = True  # one size, no further runs: elections first, then the releasing users read as drawn
MULTINOMIAL_VOTES = True  # a one-part size's voters counted per cell by a multinomial (else drawn one by one)
MAX_CUTS = 3  # cuts between bins up to which a vote is counted by comparisons (else each user's bin is counted)


def usable(plan) -> bool:
    """Whether the plan's users can run on table entries: the two-point law, a finite law's table of sizes and eq.
    (9)'s denominator (users of a size below a DAME run's m̃ do not vote in it and release their means shrunk
    towards the elected bin's centre, eq. (8)).  A user draws one
    binomial, or two where DAME and Kent both run and its size exceeds Kent's :math:`T^*` (its first :math:`T^*`
    samples for Kent, the rest added for DAME)."""
    if not isinstance(plan.population, TwoPoint) or plan.size_table is None:
        return False
    kent_on, dame_on = "kent" in plan.estimators, "dame" in plan.estimators
    if not (kent_on or dame_on):
        return False
    if dame_on:  # an m̃ may exceed sizes: their users do not vote and shrink their means (eq. (8)), as in refine
        runs = ((plan.m_tilde, plan.dame_debiasing), *plan.more_dame)
        if any(d.official for _, d in runs):
            return False
    return True


def counted(plan) -> bool:
    r"""Whether every pass of ``plan`` takes :func:`run`'s one-size path with its releasing users counted per
    table entry (:func:`~bounds.simulate._stream._histogram_means`): one size and one part, no further DAME run,
    DAME's :math:`\tilde m` at most the size, the votes' cells within :data:`~bounds.simulate._cells.MAX_CELLS`,
    and at least :data:`~bounds.simulate._stream.HISTOGRAM_USERS` releasing users a table entry.  No array of the
    users is made on that path, so a pass may hold a whole block of replications (their fixed costs shared).
    """
    if not (MULTINOMIAL_VOTES and STREAM_RELEASE and _stream.HISTOGRAM_RELEASE) or plan.more_dame \
            or plan.size_table is None or plan.size_table[0].size != 1 or not usable(plan):
        return False
    parts = _parts(plan)[0]
    size = int(plan.size_table[0][0])
    if len(parts) != 1 or ("dame" in plan.estimators and plan.m_tilde > size):
        return False
    q = (1 + plan.population.theta) / 2
    table = _binomial_table(parts[0], q)
    if table is None or _stream.HISTOGRAM_USERS * table[1].size > plan.n // 2:
        return False
    taus = ([plan.kent_tau] if "kent" in plan.estimators else []) + \
        ([_dame_tau(plan.m_tilde, plan.n, plan.alpha)] if "dame" in plan.estimators else [])
    return _cells({i: _Vote(tau, 1) for i, tau in enumerate(taus)}, table, parts[0], q) is not None


def _parts(plan) -> list[tuple[int, ...]]:
    r"""The samples each support point's users draw, one binomial a part: ``(t,)``, or ``(T*, m - T*)`` where DAME
    and Kent both run and the size ``m`` exceeds Kent's :math:`T^*` (the general path's
    :math:`S_m = S_T + \mathrm{Bin}(m - T, q)`)."""
    pts = plan.size_table[0].tolist()
    if "dame" not in plan.estimators:
        return [(min(a, plan.kent_T),) for a in pts]
    if "kent" not in plan.estimators:
        return [(a,) for a in pts]
    return [(a,) if a <= plan.kent_T else (plan.kent_T, a - plan.kent_T) for a in pts]


def tables(plan, counts: np.ndarray) -> list:
    """How each support point's users draw each part (:func:`_parts`): its table where inverted, :data:`BINOMIAL`
    where by numpy's sampler; ``None`` where no user holds the point.

    The rule of :meth:`TwoPoint.sums` and :meth:`TwoPoint.means_into` for ``count`` users of one size: a table where
    ``count`` reaches :data:`TABLE_MIN_DRAWS` and the table's entries.
    """
    q = (1 + plan.population.theta) / 2
    out: list = []
    for parts, c in zip(_parts(plan), counts.sum(axis=0).tolist()):
        if c == 0:
            out.append(None)
            continue
        hows = []
        for t in parts:
            table = _binomial_table(t, q) if c >= TABLE_MIN_DRAWS else None
            hows.append(BINOMIAL if table is None or c < table[1].size else table)
        out.append(hows)
    return out


def _count(votes: dict, draw, t: int, values: np.ndarray, row: int, buf: np.ndarray) -> None:
    """Every vote's voters of one size, from what they drew (``draw``: the size's table, or :data:`BINOMIAL`): table
    entries or numbers of ones, ``values``, of row ``row`` (1-d) or of rows ``row, row + 1, ...`` (rows × users)."""
    rows = row if values.ndim == 1 else slice(row, row + values.shape[0])
    below: dict[int, object] = {}  # users below a cut, shared by the votes
    for v in votes.values():
        cuts, bins = _cuts(v, draw, t, values)
        if cuts is None:  # each user's bin, counted
            for r, vals in ([(row, values)] if values.ndim == 1 else enumerate(values, row)):
                v.add_bins(r, *_user_bins(v, draw, t, vals, bins, buf))
            continue
        for c in cuts:
            if c not in below:
                below[c] = _below(values, c)
        v.add_ranges(rows, bins, [0, *(below[c] for c in cuts), values.shape[-1]])


def _below(values: np.ndarray, c: int) -> int | np.ndarray:
    """The number of ``values`` below ``c`` (of each row, rows × users); ``count_nonzero`` without an axis, row by
    row where rows are few (with an axis it takes a slower path: 3.5x at a row of 5·10⁴)."""
    if values.ndim == 2 and (values.shape[0] > 16 or values.size > SCRATCH_USERS):
        return (values < c).sum(axis=-1)
    if values.size > SCRATCH_USERS:
        return sum(_below(values[s:s + SCRATCH_USERS], c) for s in range(0, values.size, SCRATCH_USERS))
    bools = _scratch("bools", SCRATCH_USERS, np.bool_)[:values.size].reshape(values.shape)
    np.less(values, c, out=bools)
    return int(np.count_nonzero(bools)) if values.ndim == 1 else np.array([np.count_nonzero(r) for r in bools])


def _ones_base(draw) -> int | None:
    """``None`` for a table's entries; for numbers of ones, what is added to the values to give them
    (:data:`BINOMIAL`: 0; ``(BINOMIAL, base)``: ``base``)."""
    if draw is BINOMIAL:
        return 0
    if len(draw) == 2 and draw[0] is BINOMIAL:
        return int(draw[1])
    return None


def _cuts(v: "_Vote", draw, t: int, values: np.ndarray) -> tuple:
    """``(cuts, bins)``: the bins the values reach and the cuts between them (:data:`MAX_CUTS` at most); ``(None,
    first)`` where there are more cuts (each user's bin is then counted from bin ``first``)."""
    base = _ones_base(draw)
    if base is None:
        cuts, bins, _ = _table_bins(draw[0], draw[1].size, t, v.tau, v.N)
        return (cuts, bins) if len(cuts) <= MAX_CUTS else (None, bins[0])
    b_lo, b_hi = _ones_bins(np.array([int(values.min()) + base, int(values.max()) + base]), t, v.tau, v.N).tolist()
    if b_hi - b_lo > MAX_CUTS:
        return None, b_lo
    return [_ones_cut(t, v.tau, v.N, b) - base for b in range(b_lo + 1, b_hi + 1)], list(range(b_lo, b_hi + 1))


def _user_bins(v: "_Vote", draw, t: int, vals: np.ndarray, first: int, buf: np.ndarray) -> tuple[np.ndarray, int]:
    """Each user's bin, from bin ``first`` (as :meth:`_Vote.add_bins` takes them)."""
    base = _ones_base(draw)
    if base is None:
        rel = _table_bins(draw[0], draw[1].size, t, v.tau, v.N)[2]
        return np.take(rel, vals, out=buf[:vals.size] if vals.size <= buf.size else None, mode="clip"), first
    return _ones_bins(vals.astype(np.int64) + base, t, v.tau, v.N) - first, first


def _count_segments(votes: dict, draw, t: int, values: np.ndarray, a: np.ndarray, b: np.ndarray,
                    buf: np.ndarray) -> None:
    """:func:`_count` of every row at once, row ``r``'s voters being ``values[a[r]:b[r]]`` (the numbers below each
    cut counted segment by segment: one pass over the voters, none over the releasing halves)."""
    segments = [(r, lo, hi) for r, (lo, hi) in enumerate(zip(a.tolist(), b.tolist())) if hi > lo]
    below: dict[int, np.ndarray] = {}
    for v in votes.values():
        cuts, bins = _cuts(v, draw, t, values)
        if cuts is None:
            for r, lo, hi in segments:
                v.add_bins(r, *_user_bins(v, draw, t, values[lo:hi], bins, buf))
            continue
        for c in cuts:
            if c not in below:
                below[c] = np.zeros(a.size, dtype=np.int64)
                for r, lo, hi in segments:  # a row's voters of this size: at most n/2 (2^15 here, or one half)
                    below[c][r] = np.count_nonzero(values[lo:hi] < c)
        v.add_ranges(slice(None), bins, [0, *(below[c] for c in cuts), b - a])


def run(plan, counts: np.ndarray, tabs: list, size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Kent's and DAME's estimates of ``size`` replications whose sizes are ``counts`` ((2 size) × support).
    A DAME run's votes count the sizes at least its m̃ only, and its releasing users of smaller sizes
    shrink their means towards the elected bin's centre (:func:`_shrunk`, eq. (8)).

    The draws of the engine's general path (:func:`_draw_by_size`, or :func:`_draw_runs` past
    :data:`BLOCK_USERS` users), in its order; then Kent's vote and release, DAME's, and those of
    DAME's further runs, each from the same counts and local means as there.  Users are drawn
    a group of rows (at most :data:`INVERTER_DRAWS` users) or a block of a row's half at a time,
    and nothing is kept of the voting halves but their counts per bin.  A size above Kent's
    :math:`T^*` (DAME and Kent together) draws its users' first :math:`T^*` samples, then the rest,
    as the general path does: Kent votes from the first part, DAME from the sum of ones
    :math:`k_1 + k_2` (its local mean :math:`(2(k_1 + k_2) - m)/m`, the general path's bits).
    """
    n, alpha = plan.n, plan.alpha
    h = n // 2
    q = (1 + plan.population.theta) / 2
    kent_on, dame_on = "kent" in plan.estimators, "dame" in plan.estimators
    parts = _parts(plan)
    pts = plan.size_table[0].tolist()
    votes: dict[str, _Vote] = {}
    if kent_on:
        votes["kent"] = _Vote(plan.kent_tau, size)
    dame_runs = (("dame", plan.m_tilde, plan.dame_debiasing), *((f"dame@{mt}", mt, d) for mt, d in plan.more_dame))
    if dame_on:
        for key, mt, _ in dame_runs:
            votes[key] = _Vote(_dame_tau(mt, n, alpha), size)
    main_votes = {k: v for k, v in votes.items() if k in ("kent", "dame")}  # the first runs
    more_votes = {k: v for k, v in votes.items() if k not in main_votes}  # DAME's further runs
    later: list = []  # sizes whose voters per cell the further runs split (after the first runs' noise)
    first_votes = {k: v for k, v in votes.items() if k == "kent"}  # a two-part size's votes: Kent's from its
    sum_votes = {k: v for k, v in votes.items() if k != "kent"}  # first part, DAME's from the sum
    mts = {key: mt for key, mt, _ in dame_runs} if dame_on else {}  # each DAME run's m̃
    if MULTINOMIAL_VOTES and STREAM_RELEASE and counts.shape[1] == 1 and not more_votes and tabs[0] is not None \
            and len(tabs[0]) == 1 and (not dame_on or plan.m_tilde <= pts[0]):  # one size: the elections first, then the releasing users read as drawn
        cells = _cells(votes, tabs[0][0], parts[0][0], q)
        if cells is not None:
            return _run_streaming(plan, counts, tabs[0][0], parts[0][0], cells, votes, size, rng)
    if MULTINOMIAL_VOTES and STREAM_RELEASE and counts.shape[1] > 1:
        every = _all_cells(main_votes, more_votes, tabs, parts, pts, q, mts)
        if every is not None:  # several sizes: the same, each row's sums gathered size after size
            return _run_streaming_sizes(plan, counts, tabs, parts, every, main_votes, more_votes, size, rng)
    x = _buffer("x_rel", size * h, np.float64).reshape(size, h)
    split = any(len(p) == 2 and c for p, c in zip(parts, counts.sum(axis=0).tolist()))
    x_m = _buffer("x_m", size * h, np.float64).reshape(size, h) if split else x  # DAME's releasing means
    xf, xmf = x.reshape(-1), x_m.reshape(-1)
    buf = _scratch("bins", SCRATCH_USERS, np.intp)
    K = counts.shape[1]
    ends_all = np.cumsum(counts, axis=0)  # segment s's users of size k: drawn[ends[s, k] - counts[s, k]:ends[s, k]]
    offs_all = np.cumsum(counts, axis=1) - counts  # each segment's first user of size k within its half
    for k, hows in enumerate(tabs):
        if hows is None:
            continue
        t = parts[k][0]
        votes_k = _voting(votes, mts, pts[k])  # the votes this size's voters enter (DAME's where m >= m̃)
        main_k, more_k, sum_k = (_voting(d, mts, pts[k]) for d in (main_votes, more_votes, sum_votes))
        draw, write, lo = _sampler(hows[0], t, q, rng)

        def emit(values: np.ndarray, where: tuple, _write=write) -> None:  # a one-part size: Kent's means are DAME's
            _write(values, x[where])
            if split:
                x_m[where] = x[where]

        def emit_flat(values: np.ndarray, at: int, _write=write) -> None:  # the same, from flat position ``at``
            _write(values, xf[at:at + values.size])
            if split:
                xmf[at:at + values.size] = xf[at:at + values.size]
        if len(hows) == 2 and MULTINOMIAL_VOTES and hows[0] is not BINOMIAL and hows[1] is not BINOMIAL:
            main_dame = {key: v for key, v in main_k.items() if key != "kent"}
            joint = _joint_cells(votes["kent"], main_dame, hows, parts[k], pts[k])
            fine = _joint_cells(votes["kent"], sum_k, hows, parts[k], pts[k]) if more_k else joint
            if joint is not None and fine is not None:  # voters per joint cell, then the releasing users' two parts
                _two_part_votes(votes_k, main_dame, more_k, joint, fine, counts[0::2, k], pts[k], later, rng)
                _two_part_release(draw, write, _sampler(hows[1], parts[k][1], q, rng), lo, hows, pts[k],
                                  counts[1::2, k], offs_all[1::2, k], x, x_m)
                continue
        if len(hows) == 2:  # every user's two parts, then the votes and means in the segments' layout
            total = int(counts[:, k].sum())
            draw2, _, lo2 = _sampler(hows[1], parts[k][1], q, rng)
            tables2 = hows[0] is not BINOMIAL and hows[1] is not BINOMIAL
            dtype = np.intp if tables2 else np.int64  # table entries, or numbers of ones
            first = _buffer("first", total, dtype)  # Kent's values: the first part's entries (or numbers of ones)
            for s in range(0, total, INVERTER_DRAWS):
                piece = draw(min(INVERTER_DRAWS, total - s))
                first[s:s + piece.size] = piece
            both = _buffer("both", total, dtype)  # DAME's: the two parts' values added (ones: both + lo + lo2)
            for s in range(0, total, INVERTER_DRAWS):
                piece = draw2(min(INVERTER_DRAWS, total - s))
                np.add(piece, first[s:s + piece.size], out=both[s:s + piece.size])
            ends = ends_all[:, k]
            firsts = ends - counts[:, k]
            a_size, base = pts[k], lo + lo2
            _count_segments(first_votes, hows[0], t, first, firsts[0::2], ends[0::2], buf)
            _count_segments(sum_k, (BINOMIAL, base), a_size, both, firsts[0::2], ends[0::2], buf)
            if tables2:
                sum_means = _entry_means(base, hows[0][1].size + hows[1][1].size - 1, a_size)
            for r, (a, b, off) in enumerate(zip(firsts[1::2].tolist(), ends[1::2].tolist(), offs_all[1::2, k].tolist())):
                if b > a:
                    write(first[a:b], x[r, off:off + b - a])
                    dst = x_m[r, off:off + b - a]
                    if tables2:  # the mean of each sum of entries, tabulated with the general path's bits
                        np.take(sum_means, both[a:b], out=dst, mode="clip")
                        continue
                    np.add(both[a:b], base, out=dst)  # exact: integers below 2^53
                    dst *= 2.0
                    dst -= a_size
                    dst /= a_size
            continue
        tab = hows[0]
        cells = _cells(votes_k, tab, t, q) if MULTINOMIAL_VOTES else None
        if cells is not None:  # the voters counted per cell, one multinomial a row: only the releasing halves drawn
            first_cells = _cells(main_k, tab, t, q) if more_k else cells
            assert first_cells is not None  # its cuts are some of the cells' cuts
            per_cell = rng.multinomial(counts[0::2, k], first_cells[1])
            _vote_cells(main_k, tab, t, first_cells, per_cell, slice(None))
            if more_k:  # DAME's further runs: the cells split later (the first runs' draws as without them)
                later.append(functools.partial(_later_cells, more_k, tab, t, first_cells, cells, per_cell))
            rel = counts[1::2, k].tolist()
            if K == 1:  # every releasing half is a whole row of x: drawn straight through it
                for s in range(0, xf.size, INVERTER_DRAWS):
                    emit_flat(draw(min(INVERTER_DRAWS, xf.size - s)), s)
                continue
            if n > BLOCK_USERS:  # each row's run drawn into its place, a block at a time
                for r, c in enumerate(rel):
                    at = r * h + int(offs_all[2 * r + 1, k])
                    for s in range(0, c, BLOCK_USERS):
                        emit_flat(draw(min(BLOCK_USERS, c - s)), at + s)
                continue
            for group, size in _row_groups(rel, offs_all[1::2, k].tolist(), INVERTER_DRAWS):  # rows' runs, together
                e = draw(size)
                for r, a, c, off in group:
                    emit(e[a:a + c], (r, slice(off, off + c)))
            continue
        if n > BLOCK_USERS:  # _draw_runs' pieces: each row's halves' runs of this size, a block at a time
            for seg, c in enumerate(counts[:, k].tolist()):
                r = seg // 2
                for s in range(0, c, BLOCK_USERS):
                    e = draw(min(BLOCK_USERS, c - s))
                    if seg % 2 == 0:
                        _count(votes_k, tab, t, e, r, buf)
                    else:
                        emit(e, (r, slice(offs_all[seg, k] + s, offs_all[seg, k] + s + e.size)))
            continue
        if K == 1:  # every segment is a half: rows × (voting half, releasing half), a group of rows a call
            step = max(1, INVERTER_DRAWS // n)
            for a in range(0, size, step):
                e = min(size, a + step)
                d3 = draw((e - a) * n).reshape(e - a, 2, h)
                _count(votes_k, tab, t, d3[:, 0], a, buf)
                if e - a > 16:
                    emit(d3[:, 1], (slice(a, e),))
                    continue
                for r in range(a, e):  # each row's contiguous half: no copy of strided indices
                    emit(d3[r - a, 1], (r,))
            continue
        total = int(counts[:, k].sum())
        drawn = _buffer("drawn", total, np.int64 if tab is BINOMIAL else np.intp)
        for s in range(0, total, INVERTER_DRAWS):
            piece = draw(min(INVERTER_DRAWS, total - s))
            drawn[s:s + piece.size] = piece
        ends = ends_all[:, k]
        firsts = ends - counts[:, k]
        _count_segments(votes_k, tab, t, drawn, firsts[0::2], ends[0::2], buf)
        for r, (a, b, off) in enumerate(zip(firsts[1::2].tolist(), ends[1::2].tolist(), offs_all[1::2, k].tolist())):
            if b > a:
                emit(drawn[a:b], (r, slice(off, off + b - a)))
    # the elections and noises in the estimators' order; then every clipped mean of an array in one pass over it
    pending: list[tuple[str, np.ndarray, tuple[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]]] = []
    if kent_on:
        j = votes["kent"].elect(alpha, max(h, 1), rng)
        L, U, noise = kent.release_checked(j, plan.kent_tau, alpha, x.shape, rng)
        pending.append(("kent", x, (L, U), functools.partial(_plus_noise, noise=noise, h=h)))
    if dame_on:
        for key, mt, d in dame_runs:
            v = votes[key]
            if key in more_votes:
                for step in later:  # once, before the first further run's election
                    step(rng)
                later = []
            j = v.elect(alpha, max(h, 1), rng)
            L, U, finish = dame.release_checked(j, mt, v.tau, alpha, d, rng, plan.dame_scale, x_m.shape)
            pending.append((key, _shrunk(x_m, j, v.tau, mt, pts, counts, offs_all), (L, U), finish))
    out = {}
    arrays: list[np.ndarray] = []
    for p in pending:
        if not any(p[1] is a for a in arrays):
            arrays.append(p[1])
    for arr in arrays:
        mine = [p for p in pending if p[1] is arr]
        if mine:
            for (key, _, _, finish), mean in zip(mine, localisation.clipped_means_checked(arr, [p[2] for p in mine])):
                out[key] = finish(mean)
    return out


def _voting(votes: dict, mts: dict, m: int) -> dict:
    """The votes users of size ``m`` enter: Kent's, and each DAME run's whose m̃ (``mts``, by key) is at most
    ``m`` (Pla et al. (2024), Algorithm 1: users with :math:`m < \tilde m` do not vote)."""
    return {k: v for k, v in votes.items() if k not in mts or mts[k] <= m}


def _shrunk(x_m: np.ndarray, j: np.ndarray, tau: float, m_tilde: int, pts: list, counts: np.ndarray,
            offs: np.ndarray) -> np.ndarray:
    r"""DAME's releasing means (rows × users, sizes in the segments' layout: size ``k``'s users of row ``r`` from
    ``offs[2r + 1, k]``) shrunk towards the elected bin's centre :math:`s_r` where a size is below ``m_tilde``
    (eq. (8), :func:`~bounds.estimators.dame.refine`'s arithmetic); ``x_m`` itself where none is.

    .. math:: \hat x_u = w_u \bar X_u + (1 - w_u) s_r,\qquad w_u = \sqrt{(m_u \wedge \tilde m)/\tilde m}
    """
    below = [k for k, m in enumerate(pts) if m < m_tilde and counts[1::2, k].any()]
    if not below:
        return x_m
    lo, hi = localisation.bin_ends_checked(j, tau)
    centre = (lo + hi) / 2
    out = x_m.copy()
    for k in below:
        w = float(dame.weights_checked(np.array([pts[k]]), m_tilde)[0])
        for r, (off, c) in enumerate(zip(offs[1::2, k].tolist(), counts[1::2, k].tolist())):
            seg = out[r, off:off + c]
            seg *= w
            seg += (1 - w) * centre[r]
    return out


def _two_part_release(draw, write, second: tuple, lo: int, hows: list, m: int, releasing: np.ndarray,
                      offsets: np.ndarray, x: np.ndarray, x_m: np.ndarray) -> None:
    """The releasing users of a two-part size, a group of rows at a time: their first parts (Kent's means, into
    ``x``), then their second parts (DAME's means of the sums, into ``x_m``, read from a table of the sums' means:
    the general path's bits)."""
    draw2, _, lo2 = second
    sum_means = _entry_means(lo + lo2, hows[0][1].size + hows[1][1].size - 1, m)
    both = _scratch("both", INVERTER_DRAWS, np.intp)
    for group, size in _row_groups(releasing.tolist(), offsets.tolist(), INVERTER_DRAWS):
        e = draw(size)
        for r, a, c, off in group:
            write(e[a:a + c], x[r, off:off + c])
        np.copyto(both[:size], e)
        np.add(both[:size], draw2(size), out=both[:size])
        for r, a, c, off in group:
            np.take(sum_means, both[a:a + c], out=x_m[r, off:off + c], mode="clip")
