r"""Kent et al. and DAME on a binomial's table (or numpy's sampler): votes counted per cell, releases from entries.

A user's bin in every vote is a non-decreasing function of its number of ones (of the entry
its inversion draws), constant between a few cuts.  The votes read nothing else from the
voting half, so a row's voters of one size are counted per cell between the votes' cuts by
one multinomial draw over the cells' probabilities (the table's cdf at the cuts, or the
binomial's): the voters themselves are not drawn.  This is their exact law, as the inversion
draws it (an entry is below a cut :math:`c` iff its uniform is below :math:`F_{c-1}`), tested
against exact rational sums of the pmf and, estimate by estimate, against the general path
(same law).  Only the releasing half's local means are drawn and written (read from the
table of means at the entries, the general path's bits).  DAME's further runs split the
first runs' cells after the first runs' draws.  The elections come first and the releasing
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
import math
import threading
from typing import Callable

import numpy as np

from .. import mechanisms
from ..estimators import dame, kent, localisation
from ._populations import (INVERTER_DRAWS, TABLE_MIN_DRAWS, TwoPoint, _binom_functions, _binomial_table,
                           _signed_sum)

__all__: list[str] = []

BLOCK_USERS = 2**16  # users drawn at a time in a replication of more users (the engine's BLOCK_USERS)
SCRATCH_USERS = 2**16  # entries of the per-thread buffers of a block's bins and comparisons
RUN_USERS = 64  # users per run above which a finite law's sizes draw run by run (the engine's RUN_USERS)

_SCRATCH: dict[int, dict[str, np.ndarray]] = {}  # per thread: per-user arrays reused across replications
_SCRATCH_LOCK = threading.Lock()


def _scratch(name: str, n: int, dtype: type) -> np.ndarray:
    """This thread's array ``name`` of ``n`` entries, reused from the last call (freed by :func:`_release`).

    Fresh arrays of 10⁷ entries per replication cost more in page faults (system time) than the
    draws written into them; reusing them costs nothing after the first replication.
    """
    with _SCRATCH_LOCK:
        arrays = _SCRATCH.setdefault(threading.get_ident(), {})
    a = arrays.get(name)
    if a is None or a.shape != (n,) or a.dtype != dtype:
        arrays[name] = a = np.empty(n, dtype)
    return a


def _release() -> None:
    """Free the per-user arrays of every thread of this process (the end of a run)."""
    with _SCRATCH_LOCK:
        _SCRATCH.clear()


def usable(plan) -> bool:
    """Whether the plan's users can run on table entries: the two-point law, a finite law's table of sizes, every
    DAME weight 1 (every size at least each m̃, so every user votes) and eq. (9)'s denominator.  A user draws one
    binomial, or two where DAME and Kent both run and its size exceeds Kent's :math:`T^*` (its first :math:`T^*`
    samples for Kent, the rest added for DAME)."""
    if not isinstance(plan.population, TwoPoint) or plan.size_table is None:
        return False
    kent_on, dame_on = "kent" in plan.estimators, "dame" in plan.estimators
    if not (kent_on or dame_on):
        return False
    low = int(plan.size_table[0].min())
    if dame_on:
        runs = ((plan.m_tilde, plan.dame_debiasing), *plan.more_dame)
        if any(low < mt or d.official for mt, d in runs):
            return False
    return True


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


BINOMIAL = "binomial"  # a size whose users draw by numpy's sampler (no table, or too few users for one)


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


@functools.lru_cache(maxsize=32)
def _dame_tau(m_tilde: int, n: int, alpha: float) -> float:
    """DAME's bins' half-width (:func:`bounds.estimators.dame.tau`), once a run."""
    return dame.tau(m_tilde, n=n, alpha=alpha)


@functools.lru_cache(maxsize=32)
def _keep(alpha: float) -> float:
    """The vote's keep probability at ``alpha`` (:func:`~bounds.mechanisms.rr_keep_probability`, ``k = 3``)."""
    return mechanisms.rr_keep_probability(alpha, k=localisation.VOTE_ONES)


@functools.lru_cache(maxsize=32)
def _entry_means(lo: int, entries: int, t: int) -> np.ndarray:
    """The local mean of each entry of a table of ``t`` samples (the bits of :meth:`TwoPoint.means_into`)."""
    v = _signed_sum(np.arange(lo, lo + entries, dtype=np.int64), t)
    v /= t
    v.flags.writeable = False
    return v


@functools.lru_cache(maxsize=32)
def _entry_bins(lo: int, entries: int, t: int, tau: float, N: int) -> np.ndarray:
    """The bin of each entry's local mean (the bits of the vote's bin index)."""
    b = localisation.bin_index_checked(_entry_means(lo, entries, t), tau, N)
    b.flags.writeable = False
    return b


@functools.lru_cache(maxsize=32)
def _table_bins(lo: int, entries: int, t: int, tau: float, N: int) -> tuple:
    """A table's bins: its entries' cuts between bins, the bin of each range between cuts, and each entry's bin
    from the first (the entries are sorted by local mean, so by bin)."""
    b = _entry_bins(lo, entries, t, tau, N)
    cuts = (np.flatnonzero(np.diff(b)) + 1).tolist()
    return cuts, b[[0, *cuts]].tolist(), (b - b[0]).astype(np.intp)


def _ones_bins(ones: np.ndarray, t: int, tau: float, N: int) -> np.ndarray:
    """The bin of the local mean of ``ones`` ones in ``t`` samples (the engine's arithmetic, so its bits)."""
    x = _signed_sum(ones, t)
    x /= t
    return localisation.bin_index_checked(x, tau, N)


@functools.lru_cache(maxsize=4096)
def _ones_cut(t: int, tau: float, N: int, b: int) -> int:
    r"""The fewest ones (of ``t`` samples) whose local mean is in bin ``b`` or above (``1 <= b <= N - 1``).

    The bin of :math:`k` ones is non-decreasing in :math:`k` (each step of the local mean and of
    the bin index rounds monotonically), so a user's bin is the number of cuts at or below its
    ones.  The search starts from :math:`\lceil b\,t\,\tau\rceil` and steps to where the
    engine's own arithmetic changes bin.
    """
    k = min(max(math.ceil(b * (t * tau)), 0), t)
    while k < t and int(_ones_bins(np.array([k]), t, tau, N)[0]) < b:
        k += 1
    while k > 0 and int(_ones_bins(np.array([k - 1]), t, tau, N)[0]) >= b:
        k -= 1
    return k


MAX_CUTS = 3  # cuts between bins up to which a vote is counted by comparisons (else each user's bin is counted)


class _Vote:
    """One estimator's vote: the voting half's users per bin, rows × bins from ``base`` (grown as bins are reached).

    A size's users are sorted into bins by what they drew: a table's entries are sorted by local
    mean, so by bin (the entries of one bin are a range between two cuts); so are the numbers of
    ones numpy's sampler draws (:func:`_ones_cut`).  Where at most :data:`MAX_CUTS` cuts lie
    among the values drawn, the users per bin are differences of the numbers of users below each
    cut; otherwise each user's bin is counted.
    """

    def __init__(self, tau: float, rows: int) -> None:
        self.tau, self.N = tau, localisation.n_bins(tau)
        self.base, self.width = 0, 0
        self.counts = np.zeros((rows, 0), dtype=np.int64)

    def reach(self, lo: int, hi: int) -> None:
        """Make room for bins ``lo .. hi``."""
        if self.width and lo >= self.base and hi < self.base + self.width:
            return
        base = lo if not self.width else min(lo, self.base)
        top = hi if not self.width else max(hi, self.base + self.width - 1)
        grown = np.zeros((self.counts.shape[0], top - base + 1), dtype=np.int64)
        grown[:, self.base - base:self.base - base + self.width] = self.counts
        self.counts, self.base, self.width = grown, base, top - base + 1

    def add_ranges(self, row, bins: list[int], lows: list) -> None:
        """Bin ``bins[t]`` gets ``lows[t + 1] - lows[t]`` users (``lows``: users below each cut, then all)."""
        self.reach(bins[0], bins[-1])
        for t, b in enumerate(bins):
            self.counts[row, b - self.base] += lows[t + 1] - lows[t]

    def add_bins(self, row: int, bins: np.ndarray, first: int) -> None:
        """Count one row's users of bins ``first + bins`` (``bins`` >= 0)."""
        c = np.bincount(bins)
        self.reach(first, first + c.size - 1)
        self.counts[row, first - self.base:first - self.base + c.size] += c

    def elect(self, alpha: float, n_voters: int, rng: np.random.Generator) -> np.ndarray:
        """The elected bins: :func:`~bounds.estimators.localisation.localise` from these counts."""
        cnt, N = self.counts, self.N
        if not self.width:
            self.reach(0, 0)
            cnt = self.counts
        nz = cnt > 0
        any_ = nz.any(axis=1)
        first = np.where(any_, self.base + nz.argmax(axis=1), N)
        last = np.where(any_, self.base + self.width - 1 - nz[:, ::-1].argmax(axis=1), -1)
        lo, w = localisation.window_checked(first, last, N, self.tau)
        cols = lo[:, None] + np.arange(w) - self.base  # window bin c of row r is counts[r, lo_r + c - base]
        inside = (cols >= 0) & (cols < self.width)
        h = np.where(inside, np.take_along_axis(cnt, np.clip(cols, 0, self.width - 1), axis=1), 0)
        return localisation.elect_window(lo, w, h, N, alpha, n_voters, rng, _keep(alpha))


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


def _buffer(name: str, n: int, dtype: type) -> np.ndarray:
    """The first ``n`` entries of this thread's array ``name``, grown (doubling) only when too short."""
    with _SCRATCH_LOCK:
        arrays = _SCRATCH.setdefault(threading.get_ident(), {})
    a = arrays.get(name)
    if a is None or a.size < n or a.dtype != dtype:
        arrays[name] = a = np.empty(max(n, 2 * (0 if a is None else a.size)), dtype)
    return a[:n]


STREAM_RELEASE = True  # one size, no further runs: elections first, then the releasing users read as drawn
MULTINOMIAL_VOTES = True  # a one-part size's voters counted per cell by a multinomial (else drawn one by one)
MAX_CELLS = 4096  # cells between the votes' cuts up to which a size's voters are drawn as counts per cell
WINDOW_SIGMAS = 15  # numpy's sampler's values: cuts sought over the mean ± 15 sd + 40 (the tables' window)


def _cells(votes: dict, how, t: int, q: float) -> tuple[list[int], np.ndarray, int] | None:
    r"""The cuts between every vote's bins for users drawing one part of ``t`` samples (their union, in the space of
    the values drawn: table entries, or numbers of ones), each cell's probability, and a value of the first cell
    whose bins are that cell's (the window's first value for numpy's sampler); ``None`` where the cells exceed
    :data:`MAX_CELLS`.

    A voter's bins (one per vote) are a function of the cell holding its value, so a row's voters of one size
    are counted per cell by one multinomial draw over the cells' probabilities: for a table, the differences of
    its cdf at the cuts, :math:`P(\text{entry} < c) = F_{c-1}` (exactly the law its inversion draws: an entry is
    below :math:`c` iff its uniform is below :math:`F_{c-1}`); for numpy's sampler, the binomial's cdf below the
    mode and its survival function above (boost's, as the tables), the cuts sought over the mean ± 15 sd + 40
    (beyond, a probability below :math:`10^{-45}`, the edge cells' bins).
    """
    if how is not BINOMIAL:
        cuts = sorted(set().union(*(_table_bins(how[0], how[1].size, t, v.tau, v.N)[0] for v in votes.values())))
        if len(cuts) + 1 > MAX_CELLS:
            return None
        F = how[1]
        below = np.array([0.0, *F[np.array(cuts, dtype=np.intp) - 1].tolist(), 1.0]) if cuts else np.array([0.0, 1.0])
        return cuts, np.diff(below), 0
    sd = math.sqrt(t * q * (1 - q))
    lo = max(0, math.floor(t * q - WINDOW_SIGMAS * sd) - 40)
    hi = min(t, math.ceil(t * q + WINDOW_SIGMAS * sd) + 40)
    found: set[int] = set()
    for v in votes.values():
        b_lo, b_hi = _ones_bins(np.array([lo, hi]), t, v.tau, v.N).tolist()
        if len(found) + b_hi - b_lo + 1 > MAX_CELLS:
            return None
        found.update(_ones_cut(t, v.tau, v.N, b) for b in range(b_lo + 1, b_hi + 1))
    cuts = sorted(found)
    _, cdf, sf = _binom_functions()
    mode = math.floor((t + 1) * q)
    edges = [-1, *(c - 1 for c in cuts), t]  # cell i: values edges[i] + 1 .. edges[i + 1]
    p = np.array([cdf(b, t, q) - cdf(a, t, q) if b <= mode else sf(a, t, q) - sf(b, t, q)
                  for a, b in zip(edges[:-1], edges[1:])])
    return cuts, p, lo


def _vote_cells(votes: dict, how, t: int, cells: tuple, drawn: np.ndarray, rows) -> None:
    """Every vote's voters per bin from the voters per cell ``drawn`` (rows × the cells of :func:`_cells`)."""
    cuts, _, first = cells
    below = np.cumsum(drawn, axis=1)  # voters below each cut: below[:, i] for cuts[i]
    at = {c: i for i, c in enumerate(cuts)}
    total = below[:, -1]
    for v in votes.values():
        if how is not BINOMIAL:
            own, bins, _ = _table_bins(how[0], how[1].size, t, v.tau, v.N)
        else:  # the bins met over the cells, from the bin of each cell's first value
            firsts = np.array([first, *cuts], dtype=np.int64)
            cell_bins = _ones_bins(firsts, t, v.tau, v.N).tolist()
            own = [c for c, a, b in zip(cuts, cell_bins[:-1], cell_bins[1:]) if b != a]
            bins = [cell_bins[0], *(cell_bins[at[c] + 1] for c in own)]
        v.add_ranges(rows, bins, [0, *(below[:, at[c]] for c in own), total])


def _joint_cells(kent_vote: "_Vote", dame_votes: dict, hows: list, parts: tuple, m: int) -> tuple | None:
    r"""Cells for users of size ``m`` above Kent's :math:`T^*` drawing two parts (both by tables): Kent's cells of the
    first part's entries × the DAME votes' cells of the number of ones of both, and their probabilities
    ``P[i, j]`` (``None`` beyond :data:`MAX_CELLS`): ``(kent_cuts, kent_bins, dame_cuts, first_sum, P)``.

    .. math:: P_{ij} = \sum_{e \in I_i} p_1(e)\, \big[G(d_j - lo_1 - e) - G(d_{j-1} - lo_1 - e)\big],\qquad
              G(x) = P(lo_2 + E_2 < x)

    with :math:`p_1` the first table's masses and :math:`G` the second's cdf (the law both inversions draw).
    """
    key = (parts, m, id(hows[0]), id(hows[1]), kent_vote.tau, kent_vote.N, tuple((v.tau, v.N) for v in dame_votes.values()))
    hit = _joint_cache.get(key)
    if hit is not None and hit[0] is hows[0] and hit[1] is hows[1]:  # the same tables (held: their ids not reused)
        return hit[2]
    out = _joint_cells_of(kent_vote, dame_votes, hows, parts, m)
    if len(_joint_cache) >= 16:
        _joint_cache.pop(next(iter(_joint_cache)))
    _joint_cache[key] = (hows[0], hows[1], out)
    return out


_joint_cache: dict = {}  # the last few joint cells, with the tables they were summed from


def _joint_cells_of(kent_vote: "_Vote", dame_votes: dict, hows: list, parts: tuple, m: int) -> tuple | None:
    """:func:`_joint_cells`, computed."""
    (lo1, F1, _), (lo2, F2, _) = hows
    t1 = parts[0]
    kcuts, kbins, _ = _table_bins(lo1, F1.size, t1, kent_vote.tau, kent_vote.N)
    smin, smax = lo1 + lo2, lo1 + lo2 + F1.size + F2.size - 2
    found: set[int] = set()
    for v in dame_votes.values():
        b_lo, b_hi = _ones_bins(np.array([smin, smax]), m, v.tau, v.N).tolist()
        if b_hi - b_lo > MAX_CELLS:
            return None
        found.update(_ones_cut(m, v.tau, v.N, b) for b in range(b_lo + 1, b_hi + 1))
    dcuts = sorted(found)
    if (len(kcuts) + 1) * (len(dcuts) + 1) > MAX_CELLS:
        return None
    p1 = np.diff(np.concatenate(([0.0], F1[:-1], [1.0])))
    e1 = np.arange(F1.size)
    E2 = F2.size

    def below(x: np.ndarray) -> np.ndarray:  # P(lo2 + e2 < x)
        y = x - lo2
        return np.where(y <= 0, 0.0, np.where(y >= E2, 1.0, F2[np.clip(y - 1, 0, E2 - 1)]))

    Q = np.column_stack([np.zeros(F1.size), *(below(c - lo1 - e1) for c in dcuts), np.ones(F1.size)])
    P = np.add.reduceat(np.diff(Q, axis=1) * p1[:, None], np.array([0, *kcuts], dtype=np.intp), axis=0)
    return kcuts, kbins, dcuts, smin, P


def _add_cells(v: "_Vote", cell_bins: list[int], per_cell: np.ndarray) -> None:
    """Add voters per cell (rows × cells, in order) to vote ``v``, cell ``i`` being in bin ``cell_bins[i]``."""
    change = [i for i in range(1, len(cell_bins)) if cell_bins[i] != cell_bins[i - 1]]
    below = np.cumsum(per_cell, axis=1)
    v.add_ranges(slice(None), [cell_bins[0], *(cell_bins[i] for i in change)],
                 [0, *(below[:, i - 1] for i in change), below[:, -1]])


def _split(per_cell: np.ndarray, owner: np.ndarray, fine_p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Voters per fine cell (rows × fine cells) from those per coarse cell: fine cell ``f`` lies in coarse cell
    ``owner[f]``; each coarse cell's voters spread over its fine cells by a multinomial of their conditional
    probabilities (drawn together, they have the law of one multinomial over the fine cells)."""
    out = np.zeros((per_cell.shape[0], owner.size), dtype=np.int64)
    for i in range(per_cell.shape[1]):
        inside = np.flatnonzero(owner == i)
        mass = float(fine_p[inside].sum())
        if inside.size == 1 or mass <= 0:
            out[:, inside[0]] = per_cell[:, i]
            continue
        out[:, inside] = rng.multinomial(per_cell[:, i], fine_p[inside] / mass)
    return out


class _EntryDraws:
    """The drawn entries of one table, as :meth:`~bounds.simulate._populations._Inverter.indices` draws them (the
    same uniforms, the same search: the same entries), into index-sized buffers of :data:`INVERTER_DRAWS` reused
    from call to call: reading the table's means or bins at them needs no conversion of the indices."""

    def __init__(self, table: tuple[int, np.ndarray, np.ndarray]) -> None:
        _, self.F, guide = table
        self.guide = guide.astype(np.intp)
        self.G = self.guide.size
        self.u, self.f = np.empty(INVERTER_DRAWS), np.empty(INVERTER_DRAWS)
        self.g, self.i = np.empty(INVERTER_DRAWS, dtype=np.intp), np.empty(INVERTER_DRAWS, dtype=np.intp)
        self.b = np.empty(INVERTER_DRAWS, dtype=bool)

    def __call__(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """``count`` (at most :data:`INVERTER_DRAWS`) entries, in a buffer overwritten by the next call."""
        u, f, g, i, b = self.u[:count], self.f[:count], self.g[:count], self.i[:count], self.b[:count]
        rng.random(out=u)
        np.multiply(u, self.G, out=f)
        np.copyto(g, f, casting="unsafe")  # truncation of u G >= 0: its floor
        np.take(self.guide, g, out=i, mode="clip")  # indices in range: mode="raise" would buffer
        np.take(self.F, i, out=f, mode="clip")
        np.less_equal(f, u, out=b)
        i += b
        np.take(self.F, i, out=f, mode="clip")
        np.less_equal(f, u, out=b)
        if b.any():
            late = np.flatnonzero(b)
            i[late] = np.searchsorted(self.F, u[late], side="right")
        return i


_entry_cache = threading.local()


def _entry_draws(table: tuple[int, np.ndarray, np.ndarray]) -> _EntryDraws:
    """This thread's :class:`_EntryDraws` of ``table`` (the last four tables kept)."""
    cache: dict = getattr(_entry_cache, "cache", None) or {}
    _entry_cache.cache = cache
    hit = cache.pop(id(table), None)  # each entry holds its table: its id is not reused while cached
    draws = hit[1] if hit is not None else _EntryDraws(table)
    cache[id(table)] = (table, draws)
    while len(cache) > 4:
        del cache[next(iter(cache))]
    return draws


def _sampler(how, t: int, q: float, rng: np.random.Generator) -> tuple:
    """``(draw, write, lo)`` of one part of ``t`` samples: ``draw(count)`` the users' values (table entries, or
    numbers of ones), ``write(values, out)`` their local means with :class:`TwoPoint`'s bits, ``lo`` the number of
    ones of value 0."""
    if how is BINOMIAL:  # numbers of ones, as TwoPoint.sums and means_into draw them
        def draw(count: int) -> np.ndarray:
            return rng.binomial(t, q, size=count)

        def write(values: np.ndarray, out: np.ndarray) -> None:  # the local means, TwoPoint's arithmetic
            np.multiply(values, 2.0, out=out)
            out -= t
            out /= t
        return draw, write, 0
    inv, means = _entry_draws(how), _entry_means(how[0], how[1].size, t)

    def draw_entries(count: int) -> np.ndarray:  # a view of the buffer, overwritten by the next call
        return inv(count, rng)

    def write_entries(values: np.ndarray, out: np.ndarray) -> None:
        np.take(means, values, out=out, mode="clip")  # entries in range: no check
    return draw_entries, write_entries, how[0]


def run(plan, counts: np.ndarray, tabs: list, size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Kent's and DAME's estimates of ``size`` replications whose sizes are ``counts`` ((2 size) × support).

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
    if MULTINOMIAL_VOTES and STREAM_RELEASE and counts.shape[1] == 1 and not more_votes and tabs[0] is not None \
            and len(tabs[0]) == 1:  # one size: the elections first, then the releasing users read as drawn
        cells = _cells(votes, tabs[0][0], parts[0][0], q)
        if cells is not None:
            return _run_streaming(plan, counts, tabs[0][0], parts[0][0], cells, votes, size, rng)
    if MULTINOMIAL_VOTES and STREAM_RELEASE and counts.shape[1] > 1:
        every = _all_cells(main_votes, more_votes, tabs, parts, pts, q)
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
            main_dame = {key: v for key, v in main_votes.items() if key != "kent"}
            joint = _joint_cells(votes["kent"], main_dame, hows, parts[k], pts[k])
            fine = _joint_cells(votes["kent"], sum_votes, hows, parts[k], pts[k]) if more_votes else joint
            if joint is not None and fine is not None:  # voters per joint cell, then the releasing users' two parts
                _two_part_votes(votes, main_dame, more_votes, joint, fine, counts[0::2, k], pts[k], later, rng)
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
            _count_segments(sum_votes, (BINOMIAL, base), a_size, both, firsts[0::2], ends[0::2], buf)
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
        cells = _cells(votes, tab, t, q) if MULTINOMIAL_VOTES else None
        if cells is not None:  # the voters counted per cell, one multinomial a row: only the releasing halves drawn
            first_cells = _cells(main_votes, tab, t, q) if more_votes else cells
            assert first_cells is not None  # its cuts are some of the cells' cuts
            per_cell = rng.multinomial(counts[0::2, k], first_cells[1])
            _vote_cells(main_votes, tab, t, first_cells, per_cell, slice(None))
            if more_votes:  # DAME's further runs: the cells split later (the first runs' draws as without them)
                later.append(functools.partial(_later_cells, more_votes, tab, t, first_cells, cells, per_cell))
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
                        _count(votes, tab, t, e, r, buf)
                    else:
                        emit(e, (r, slice(offs_all[seg, k] + s, offs_all[seg, k] + s + e.size)))
            continue
        if K == 1:  # every segment is a half: rows × (voting half, releasing half), a group of rows a call
            step = max(1, INVERTER_DRAWS // n)
            for a in range(0, size, step):
                e = min(size, a + step)
                d3 = draw((e - a) * n).reshape(e - a, 2, h)
                _count(votes, tab, t, d3[:, 0], a, buf)
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
        _count_segments(votes, tab, t, drawn, firsts[0::2], ends[0::2], buf)
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
            pending.append((key, x_m, (L, U), finish))
    out = {}
    for arr in (x, x_m) if x_m is not x else (x,):
        mine = [p for p in pending if p[1] is arr]
        if mine:
            for (key, _, _, finish), mean in zip(mine, localisation.clipped_means_checked(arr, [p[2] for p in mine])):
                out[key] = finish(mean)
    return out


def _later_cells(more_votes: dict, how, t: int, coarse: tuple, fine: tuple, per_cell: np.ndarray,
                 rng: np.random.Generator) -> None:
    """DAME's further runs' voters of a one-part size: the first runs' cells split into theirs."""
    _vote_cells(more_votes, how, t, fine, _split_cells(coarse, fine, per_cell, rng), slice(None))


def _two_part_votes(votes: dict, main_dame: dict, more_votes: dict, joint: tuple, fine: tuple, voters: np.ndarray,
                    m: int, later: list, rng: np.random.Generator) -> None:
    """Kent's and DAME's voters of a two-part size, per joint cell (:func:`_joint_cells`): one multinomial a row;
    DAME's further runs split the cells later (``later``)."""
    kcuts, kbins, dcuts, smin, P = joint
    I, J = P.shape
    per = rng.multinomial(voters, P.ravel()).reshape(-1, I, J)
    _add_cells(votes["kent"], kbins, per.sum(axis=2))
    starts = np.array([smin, *dcuts], dtype=np.int64)
    for v in main_dame.values():
        _add_cells(v, _ones_bins(starts, m, v.tau, v.N).tolist(), per.sum(axis=1))
    if not more_votes:
        return
    fstarts = np.array([smin, *fine[2]], dtype=np.int64)
    owner_j = np.searchsorted(np.array(dcuts, dtype=np.int64), fstarts, side="right")  # each fine column's coarse one
    Jf = fstarts.size
    owner = (np.arange(I)[:, None] * J + owner_j[None, :]).ravel()  # fine cell (i, j') in coarse (i, owner_j[j'])

    def split(rng: np.random.Generator) -> None:
        fine_per = _split(per.reshape(-1, I * J), owner, fine[4].ravel(), rng).reshape(-1, I, Jf).sum(axis=1)
        for v in more_votes.values():
            _add_cells(v, _ones_bins(fstarts, m, v.tau, v.N).tolist(), fine_per)
    later.append(split)


def _row_groups(lengths: list[int], offsets: list[int], cap: int):
    """Rows' runs (row ``r``: ``lengths[r]`` users from column ``offsets[r]``) in groups of at most ``cap`` users drawn
    together, row after row (a longer run cut into pieces): each group a list of ``(row, first in the group's draws,
    length, column)``."""
    group: list[tuple[int, int, int, int]] = []
    size = 0
    for r, (c, off) in enumerate(zip(lengths, offsets)):
        s = 0
        while s < c:
            take = min(c - s, cap - size)
            group.append((r, size, take, off + s))
            size += take
            s += take
            if size == cap:
                yield group, size
                group, size = [], 0
    if group:
        yield group, size


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


def _run_streaming(plan, counts: np.ndarray, how, t: int, cells: tuple, votes: dict, size: int,
                   rng: np.random.Generator) -> dict[str, np.ndarray]:
    """:func:`run` for one size and no further DAME runs: the voters per cell, the elections and the release's
    noise, then the releasing users drawn a block at a time and read at once (their local means clipped to every
    interval and summed while in cache: no array of them), with the bits of the clipped means of :func:`run`'s."""
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
    draw, write, _ = _sampler(how, t, (1 + plan.population.theta) / 2, rng)
    table = None if how is BINOMIAL else _entry_means(how[0], how[1].size, t)
    means = _streamed_means(draw, write, size, h, [p[1] for p in pending], table)
    return {key: finish(mean) for (key, _, finish), mean in zip(pending, means)}


def _all_cells(main_votes: dict, more_votes: dict, tabs: list, parts: list, pts: list, q: float) -> list | None:
    """Each size's cells of the first runs and of every run (:func:`_cells`, or :func:`_joint_cells` for two
    parts): ``(first, every)`` a size, ``None`` for a size no user holds; ``None`` if a size has none."""
    out: list = []
    votes = {**main_votes, **more_votes}
    for hows, part, m in zip(tabs, parts, pts):
        if hows is None:
            out.append(None)
            continue
        if len(hows) == 1:
            pair = (_cells(main_votes, hows[0], part[0], q), _cells(votes, hows[0], part[0], q))
        elif hows[0] is BINOMIAL or hows[1] is BINOMIAL:
            return None
        else:
            dame_main = {k: v for k, v in main_votes.items() if k != "kent"}
            dame_all = {k: v for k, v in votes.items() if k != "kent"}
            pair = (_joint_cells(main_votes["kent"], dame_main, hows, part, m),
                    _joint_cells(main_votes["kent"], dame_all, hows, part, m))
        if pair[0] is None or pair[1] is None:
            return None
        out.append(pair)
    return out


def _run_streaming_sizes(plan, counts: np.ndarray, tabs: list, parts: list, every: list, main_votes: dict,
                         more_votes: dict, size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """:func:`run` for several sizes on counts per cell: every size's voters per cell (one multinomial a row and
    size), the first runs' elections and noise, then each size's releasing users drawn a block at a time in row
    order, their clipped local means summed per row's run (``np.add.reduceat``, pairwise like a row's sum) and the
    runs added size after size (the row's sum in that order); DAME's further runs last (their cells split from the
    first runs', their elections, noise and sums, from the releasing users' means kept for them), so the first
    runs draw what they draw alone."""
    n, alpha = plan.n, plan.alpha
    h = n // 2
    q = (1 + plan.population.theta) / 2
    pts = plan.size_table[0].tolist()
    later: list = []
    for k, (hows, pair) in enumerate(zip(tabs, every)):
        if hows is None:
            continue
        first, fine = pair
        if len(hows) == 1:
            per_cell = rng.multinomial(counts[0::2, k], first[1])
            _vote_cells(main_votes, hows[0], parts[k][0], first, per_cell, slice(None))
            if more_votes:
                later.append(functools.partial(_later_cells, more_votes, hows[0], parts[k][0], first, fine, per_cell))
        else:
            dame_main = {key: v for key, v in main_votes.items() if key != "kent"}
            _two_part_votes({**main_votes, **more_votes}, dame_main, more_votes, first, fine, counts[0::2, k], pts[k],
                            later, rng)
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
    sums = {key: np.zeros(size) for key in intervals}
    kept: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # DAME's releasing means for the further runs
    vals = _scratch("stream_vals", INVERTER_DRAWS, np.float64)
    vals2 = _scratch("stream_vals2", INVERTER_DRAWS, np.float64)
    clip = _scratch("stream_clip", INVERTER_DRAWS, np.float64)
    both = _scratch("both", INVERTER_DRAWS, np.intp)
    for k, hows in enumerate(tabs):
        if hows is None:
            continue
        draw, write, lo = _sampler(hows[0], parts[k][0], q, rng)
        second = _sampler(hows[1], parts[k][1], q, rng) if len(hows) == 2 else None
        if second is not None:
            sum_means = _entry_means(lo + second[2], hows[0][1].size + hows[1][1].size - 1, pts[k])
        rel = counts[1::2, k].tolist()
        for group, total in _row_groups(rel, [0] * len(rel), INVERTER_DRAWS):
            rows = np.array([g[0] for g in group], dtype=np.intp)
            lengths = np.array([g[2] for g in group], dtype=np.intp)
            starts = np.array([g[1] for g in group], dtype=np.intp)
            e = draw(total)
            v1 = vals[:total]
            write(e, v1)
            v2 = v1  # DAME's local means: the same, or those of the two parts' sum
            if second is not None:
                np.copyto(both[:total], e)
                np.add(both[:total], second[0](total), out=both[:total])
                v2 = vals2[:total]
                np.take(sum_means, both[:total], out=v2, mode="clip")
            for key, (L, U) in intervals.items():
                c = clip[:total]
                np.maximum(v1 if key == "kent" else v2, np.repeat(L[rows], lengths), out=c)
                np.minimum(c, np.repeat(U[rows], lengths), out=c)
                sums[key][rows] += np.add.reduceat(c, starts)
            if more_votes:
                kept.append((rows, lengths, v2.copy()))
    out = {key: finish[key](sums[key] / h) for key in intervals}
    if more_votes:
        for step in later:
            step(rng)
        for key, mt, d in ((f"dame@{mt}", mt, d) for mt, d in plan.more_dame):
            v = more_votes[key]
            j = v.elect(alpha, max(h, 1), rng)
            L, U, fin = dame.release_checked(j, mt, v.tau, alpha, d, rng, plan.dame_scale, (size, h))
            total_sums = np.zeros(size)
            for rows, lengths, values in kept:
                c = np.maximum(values, np.repeat(L[rows], lengths))
                np.minimum(c, np.repeat(U[rows], lengths), out=c)
                total_sums[rows] += np.add.reduceat(c, np.concatenate(([0], np.cumsum(lengths)[:-1])))
            out[key] = fin(total_sums / h)
    return out


TABLE_CLIP_USERS = 2**14  # a row's releasing users from which a table is clipped per row (then read at the entries)


def _streamed_means(draw: Callable[[int], np.ndarray], write: Callable[[np.ndarray, np.ndarray], None], rows: int,
                    h: int, intervals: list[tuple[np.ndarray, np.ndarray]],
                    table: np.ndarray | None = None) -> list[np.ndarray]:
    """Each row's mean of ``h`` local means drawn in order (``draw``, then ``write``: row after row), clipped to
    each interval: :func:`~bounds.estimators.localisation.clipped_means_checked`'s bits on the array they would
    make (rows of at most a block summed along the row; longer rows by the same blocked pairwise sums, each leaf
    drawn when reached).  Where ``draw`` gives entries of ``table`` (their local means) and rows hold at least
    :data:`TABLE_CLIP_USERS` users, each row's table is clipped once and read at the entries (the same values:
    one gather a user and interval instead of a gather, two comparisons and a write)."""
    vals = _scratch("stream_vals", INVERTER_DRAWS, np.float64)
    clip = _scratch("stream_clip", INVERTER_DRAWS, np.float64)
    sums = np.empty((len(intervals), rows))
    by_table = table is not None and h >= TABLE_CLIP_USERS and 2 * table.size <= h  # a table cheaper than the reads
    clipped = np.empty(0 if table is None else table.size)
    if h <= localisation.BLOCK_USERS and h <= INVERTER_DRAWS:
        g = max(1, INVERTER_DRAWS // h)
        for a in range(0, rows, g):
            e = min(rows, a + g)
            d = draw((e - a) * h).reshape(e - a, h)
            c = clip[:(e - a) * h].reshape(e - a, h)
            if by_table:
                assert table is not None
                for r in range(a, e):
                    for i, (L, U) in enumerate(intervals):
                        np.clip(table, L[r], U[r], out=clipped)
                        np.take(clipped, d[r - a], out=c[r - a], mode="clip")
                        sums[i, r] = np.add.reduce(c[r - a])
                continue
            v = vals[:(e - a) * h].reshape(e - a, h)
            write(d, v)
            for i, (L, U) in enumerate(intervals):
                np.maximum(v, L[a:e, None], out=c)  # np.clip's values (L <= U)
                np.minimum(c, U[a:e, None], out=c)
                np.add.reduce(c, axis=1, out=sums[i, a:e])
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
            out = []
            for L, U in intervals:
                np.maximum(v, L[r], out=c)
                np.minimum(c, U[r], out=c)
                out.append(float(np.add.reduce(c)))
            return out

        for r in range(rows):
            sums[:, r] = localisation._pairwise_many(leaf, r, 0, h)
    sums /= h
    return list(sums)


def _plus_noise(mean: np.ndarray, noise: np.ndarray, h: int) -> np.ndarray:
    """Kent's estimate from each row's clipped mean (:func:`~bounds.estimators.kent.refine_checked`'s arithmetic)."""
    return mean + noise / h


def _split_cells(coarse: tuple, fine: tuple, per_cell: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Voters per cell of ``fine`` (cells of :func:`_cells` whose cuts include ``coarse``'s) from those per cell of
    ``coarse``: each coarse cell's voters spread over its fine cells by a multinomial of their conditional
    probabilities (drawn together, they have the law of one multinomial over the fine cells)."""
    starts = np.array([fine[2], *fine[0]], dtype=np.int64)  # each fine cell's first value
    owner = np.searchsorted(np.array(coarse[0], dtype=np.int64), starts, side="right")  # its coarse cell
    out = np.zeros((per_cell.shape[0], owner.size), dtype=np.int64)
    for i in range(per_cell.shape[1]):
        inside = np.flatnonzero(owner == i)
        mass = float(fine[1][inside].sum())
        if inside.size == 1 or mass <= 0:
            out[:, inside[0]] = per_cell[:, i]
            continue
        out[:, inside] = rng.multinomial(per_cell[:, i], fine[1][inside] / mass)
    return out

