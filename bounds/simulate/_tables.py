r"""The entries path's tables and buffers: a binomial's table of means and bins, the inversion's buffers, a vote.

A user's local mean and its bin in a vote are functions of the entry of its size's table it
draws (or of its number of ones): tabulated once, read at the entries.

.. math:: \bar X = \frac{2(lo + i) - t}{t},\qquad j(\bar X) = \min\Big(\Big\lfloor\frac{\bar X + 1}{2\tau}\Big\rfloor, N - 1\Big)

Source: Pla et al. (2024), eq. (5); Kent et al. (2024), the partition before eq. (26).
"""

from __future__ import annotations

import functools
import math
import threading
from typing import Callable

import numpy as np

from .. import mechanisms
from ..numerics import guide_table
from ..estimators import dame, localisation
from ._populations import INVERTER_DRAWS, _Inverter, _signed_sum

__all__: list[str] = []

SCRATCH_USERS = 2**16  # entries of the per-thread buffers of a block's bins and comparisons
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
    """Free the per-user arrays of every thread of this process (the end of a run); the buffers of a block (at most
    :data:`SCRATCH_USERS` entries each, a few MiB a thread) are kept for the next run: made again, their pages
    were faulted in again at every call (about 0.25 ms a call)."""
    with _SCRATCH_LOCK:
        for tid in list(_SCRATCH):
            kept = {name: a for name, a in _SCRATCH[tid].items() if a.size <= SCRATCH_USERS}
            if kept:
                _SCRATCH[tid] = kept
            else:
                del _SCRATCH[tid]


def _buffer(name: str, n: int, dtype: type) -> np.ndarray:
    """The first ``n`` entries of this thread's array ``name``, grown (doubling) only when too short."""
    with _SCRATCH_LOCK:
        arrays = _SCRATCH.setdefault(threading.get_ident(), {})
    a = arrays.get(name)
    if a is None or a.size < n or a.dtype != dtype:
        arrays[name] = a = np.empty(max(n, 2 * (0 if a is None else a.size)), dtype)
    return a[:n]


BINOMIAL = "binomial"  # a size whose users draw by numpy's sampler (no table, or too few users for one)


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


FINE_GUIDE_MAX = 2**18  # a fine guide's cells at most (8 times the table's guide once the draws pay for it)
FINE_DRAWS = 64  # draws per cell of the guide after which a guide 8 times finer is built (about its cost)


class _FineInverter(_Inverter):
    r"""The inverter of a table drawing entries (``np.intp``) by a guide table that also says where no check is
    needed: the same entries for the same uniforms (the same bits), fewer passes over the draws.

    Cell :math:`g` of :math:`G` (a power of 2) holds the uniforms :math:`u` with :math:`\lfloor uG\rfloor = g`
    (exact: :math:`u` is a multiple of :math:`2^{-53}`), :math:`g/G \le u < (g+1)/G`.  Its guide entry
    :math:`i_g` is the first with :math:`F_{i_g} > g/G`, so the inverse :math:`\min\{i : F_i > u\}` is at least
    :math:`i_g`; where moreover :math:`F_{i_g} \ge (g+1)/G`, it is :math:`i_g` for every :math:`u` of the cell
    (stored as is), otherwise the cell is stored as :math:`-1 - i_g` and its draws step up from :math:`i_g`.
    :math:`G` starts at twice the table's guide (about 5% of the draws step at :math:`m = 10^6`, 9% at the table's
    guide: a call of 1024 replications at :math:`n = 10^3` costs 7.2 ms against 9.2, its guide 1-3 ms once) and
    becomes 8 times the table's (up to :data:`FINE_GUIDE_MAX`; 1-2% step) once :data:`FINE_DRAWS` draws a cell
    have been made: the finer guide's cost, about a pass over its cells, is then small against the draws.  Any
    :math:`G` gives the same entries.

    .. math:: F^{-1}(u) = \min\{i : F_i > u\} = i_g \quad\text{if}\quad F_{i_g} \ge (g + 1)/G

    Source: the guide table of Chen and Asau (1974).
    """

    def __init__(self, table: tuple[int, np.ndarray, np.ndarray], size: int) -> None:
        super().__init__(table, size, index=np.intp)
        self.drawn = 0
        self._guide(min(2 * self.guide.size, max(FINE_GUIDE_MAX, self.guide.size)))

    def _guide(self, G: int) -> None:
        """Make the guide of ``G`` cells: the first entry above each cell's start, ``-1 - i`` where not sure."""
        self.fine = guide_table(self.F, G)
        self._values: tuple[np.ndarray, np.ndarray] | None = None

    def _count(self, count: int) -> None:
        """Count the draws; a guide 8 times the table's (at most :data:`FINE_GUIDE_MAX` cells) once they pay for it."""
        self.drawn += count
        finer = min(8 * self.guide.size, max(FINE_GUIDE_MAX, self.guide.size))
        if self.fine.size < finer and self.drawn >= FINE_DRAWS * finer:
            self._guide(finer)

    def indices(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """The drawn entries of the table, in a buffer overwritten by the next call (:meth:`_Inverter.indices`'s)."""
        u, f, g, i, b = self.u[:count], self.f[:count], self.g[:count], self.i[:count], self.b[:count]
        self._count(count)
        rng.random(out=u)
        np.multiply(u, self.fine.size, out=f)
        np.copyto(g, f, casting="unsafe")  # truncation of u G >= 0: its floor
        np.take(self.fine, g, out=i, mode="clip")  # cells in range: mode="raise" would buffer
        np.less(i, 0, out=b)
        late = np.flatnonzero(b)
        if late.size:  # cells holding a step of F: from the cell's first entry up
            i[late] = self._stepped(-1 - i[late], u[late])
        return i

    def _stepped(self, k: np.ndarray, v: np.ndarray) -> np.ndarray:
        """``min{i : F_i > v}`` from entries ``k`` at most it (a cell's first): two steps up, then a search of ``F``
        for the few still short (a cell spanning many entries); ``k`` is updated in place."""
        k += self.F[k] <= v
        k += self.F[k] <= v
        still = np.flatnonzero(self.F[k] <= v)
        if still.size:
            k[still] = np.searchsorted(self.F, v[still], side="right")
        return k

    def values(self, count: int, rng: np.random.Generator, table: np.ndarray, out: np.ndarray) -> np.ndarray:
        """``table`` (a value per entry, never NaN) at ``count`` drawn entries, written into ``out``: the values of
        :meth:`indices`' entries from the same uniforms (the same bits), read through the fine guide's cells (each
        sure cell's value, NaN elsewhere; the last ``table`` kept), one gather a draw instead of two."""
        self._count(count)
        cached = self._values
        if cached is None or cached[0] is not table:
            v = np.where(self.fine >= 0, table[np.maximum(self.fine, 0)], np.nan)
            cached = self._values = (table, v)
        u, f, g, o = self.u[:count], self.f[:count], self.g[:count], out[:count]
        rng.random(out=u)
        np.multiply(u, self.fine.size, out=f)
        np.copyto(g, f, casting="unsafe")  # truncation of u G >= 0: its floor
        np.take(cached[1], g, out=o, mode="clip")
        np.isnan(o, out=self.b[:count])
        late = np.flatnonzero(self.b[:count])
        if late.size:  # cells holding a step of F: from the cell's first entry up
            o[late] = table[self._stepped(-1 - self.fine[g[late]], u[late])]
        return o


_entry_cache = threading.local()


def _entry_draws(table: tuple[int, np.ndarray, np.ndarray]) -> _FineInverter:
    """This thread's inverter of ``table`` drawing entries as index-sized integers into buffers of
    :data:`INVERTER_DRAWS` reused from call to call (reading the table's means or bins at them needs no conversion),
    the last four tables kept."""
    cache: dict = getattr(_entry_cache, "cache", None) or {}
    _entry_cache.cache = cache
    hit = cache.pop(id(table), None)  # each entry holds its table: its id is not reused while cached
    draws = hit[1] if hit is not None else _FineInverter(table, INVERTER_DRAWS)
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
        return inv.indices(count, rng)

    def write_entries(values: np.ndarray, out: np.ndarray) -> None:
        np.take(means, values, out=out, mode="clip")  # entries in range: no check
    return draw_entries, write_entries, how[0]


def _mean_draws(how, t: int, rng: np.random.Generator) -> Callable[[int, np.ndarray], np.ndarray] | None:
    """``draw(count, out)``: ``count`` users' local means of a part of ``t`` samples drawn from a table straight
    into ``out`` (:class:`_FineInverter`'s values: the bits and the uniforms of :func:`_sampler`'s ``draw`` then
    ``write``), or ``None`` for numpy's sampler."""
    if how is BINOMIAL:
        return None
    inv, means = _entry_draws(how), _entry_means(how[0], how[1].size, t)

    def draw(count: int, out: np.ndarray) -> np.ndarray:
        return inv.values(count, rng, means, out)
    return draw


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
