r"""Kent et al. and DAME on the drawn entries of a binomial's table: the votes counted without local means.

Where every user of a size draws its sum by inversion of that size's table
(:func:`~bounds.simulate.binomial_inversion`), a user's local mean is a function of the
entry drawn, so is its bin.  The voting half's counts per bin are then the counts of the
entries drawn, mapped through a table of bins (one gather and one ``bincount`` a user),
and only the releasing half's local means are written (read from the table of means at the
entries, as the engine writes them).  The same uniforms are drawn in the same order, each
entry gives the bits its local mean has on the general path, and the election and the
release run the estimators' own functions on the same counts and means: the results are
the general path's bit for bit (tested).

.. math:: c_j = \#\{u \le n/2 : j(\bar X_u) \in \{j - 1, j, j + 1\}\},\qquad
          j(\bar X_u) = \mathrm{bin}[i_u],\quad \bar X_u = \mathrm{mean}[i_u]

Source: Pla et al. (2024), eqs. (5)–(9); Kent et al. (2024), eqs. (26)–(30).
"""

from __future__ import annotations

import functools
import threading

import numpy as np

from .. import mechanisms
from ..estimators import dame, kent, localisation
from ._populations import (INVERTER_DRAWS, TABLE_MIN_DRAWS, TwoPoint, _binomial_table, _inverter,
                           _signed_sum)

__all__: list[str] = []

BLOCK_USERS = 2**16  # users drawn at a time in a replication of more users (the engine's BLOCK_USERS)
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
    """Whether the plan's users can run on table entries: the two-point law, a finite law's table of sizes, one draw
    a user (DAME and Kent together only where no size exceeds Kent's :math:`T^*`), every DAME weight 1 (every size at
    least each m̃, so every user votes) and eq. (9)'s denominator."""
    if not isinstance(plan.population, TwoPoint) or plan.size_table is None:
        return False
    kent_on, dame_on = "kent" in plan.estimators, "dame" in plan.estimators
    if not (kent_on or dame_on):
        return False
    low, high = int(plan.size_table[0].min()), int(plan.size_table[0].max())
    if kent_on and dame_on and high > plan.kent_T:
        return False
    if dame_on:
        runs = ((plan.m_tilde, plan.dame_debiasing), *plan.more_dame)
        if any(low < mt or d.official for mt, d in runs):
            return False
    return True


def _draw_sizes(plan) -> list[int]:
    """The number of samples each support point's users draw (one binomial a user)."""
    pts = plan.size_table[0].tolist()
    return [min(a, plan.kent_T) for a in pts] if "dame" not in plan.estimators else pts


def tables(plan, counts: np.ndarray) -> list | None:
    """Each support point's table (``None`` where no user holds it), if every drawing size is inverted, else ``None``.

    The rule of :meth:`TwoPoint.sums` and :meth:`TwoPoint.means_into` for ``count`` users of one size: a table where
    ``count`` reaches :data:`TABLE_MIN_DRAWS` and the table's entries.
    """
    q = (1 + plan.population.theta) / 2
    out: list = []
    for t, c in zip(_draw_sizes(plan), counts.sum(axis=0).tolist()):
        if c == 0:
            out.append(None)
            continue
        table = _binomial_table(t, q) if c >= TABLE_MIN_DRAWS else None
        if table is None or c < table[1].size:
            return None
        out.append(table)
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
    b = localisation._bin_index(_entry_means(lo, entries, t), tau, N)
    b.flags.writeable = False
    return b


@functools.lru_cache(maxsize=32)
def _vote_bins(key: tuple, tau: float) -> tuple:
    """A vote's bins over the tables ``key`` (each ``(lo, entries, samples)`` or ``None``): ``N``, the lowest bin
    reached ``base``, the ``width`` of the bins reached, each entry's bin from ``base``, each table's cuts and the bin
    of each range between them."""
    N = localisation.n_bins(tau)
    maps = {k: _entry_bins(*spec, tau, N) for k, spec in enumerate(key) if spec is not None}
    base = min(int(b[0]) for b in maps.values())
    width = max(int(b[-1]) for b in maps.values()) - base + 1
    rel = {k: (b - base).astype(np.intp) for k, b in maps.items()}
    cuts = {k: (np.flatnonzero(np.diff(r)) + 1).tolist() for k, r in rel.items()}
    return N, base, width, rel, cuts, {k: r[[0, *cuts[k]]].tolist() for k, r in rel.items()}


MAX_CUTS = 3  # entries where a size's bin changes up to which a vote is counted by comparisons (else a histogram)


class _Vote:
    """One estimator's vote: its bins, and the voting half's users per bin, rows × bins from ``base``.

    A table's entries are sorted by local mean, so by bin: the entries of one bin are a range
    ``cuts[t] .. cuts[t + 1] - 1``.  Where a size has at most :data:`MAX_CUTS` cuts, its users per bin
    are differences of the numbers of entries drawn below each cut (:meth:`add_cuts`); otherwise each
    entry is mapped to its bin and the bins counted (:meth:`add`, :meth:`add_rows`).
    """

    def __init__(self, tau: float, tabs: list, sizes: list[int], rows: int) -> None:
        self.tau = tau
        key = tuple(None if tab is None else (tab[0], tab[1].size, t) for tab, t in zip(tabs, sizes))
        self.N, self.base, self.width, self.rel, self.cuts, self.segment_bins = _vote_bins(key, tau)
        self.counts = np.zeros((rows, self.width), dtype=np.int64)

    def by_cuts(self, k: int) -> bool:
        return len(self.cuts[k]) <= MAX_CUTS

    def add_cuts(self, k: int, below: dict, total, row) -> None:
        """Count voters of size ``k`` from ``below[c]``, the entries drawn below each cut ``c``, of ``total``."""
        lows = [0, *(below[c] for c in self.cuts[k]), total]
        for t, b in enumerate(self.segment_bins[k]):
            self.counts[row, b] += lows[t + 1] - lows[t]

    def add(self, k: int, entries: np.ndarray, row: int, buf: np.ndarray) -> None:
        """Count one row's voters of size ``k`` (their drawn entries)."""
        b = np.take(self.rel[k], entries, out=buf[:entries.size], mode="clip")  # entries in range: no check
        self.counts[row] += np.bincount(b, minlength=self.width)

    def add_rows(self, k: int, entries: np.ndarray) -> None:
        """Count every row's voters of size ``k``: ``entries`` rows × voters."""
        B = entries.shape[0]
        b = np.take(self.rel[k], entries, mode="clip")
        b += (np.arange(B) * self.width)[:, None]
        self.counts += np.bincount(b.ravel(), minlength=B * self.width).reshape(B, self.width)

    def elect(self, alpha: float, n_voters: int, rng: np.random.Generator) -> np.ndarray:
        """The elected bins: :func:`~bounds.estimators.localisation.localise` from these counts."""
        cnt, N = self.counts, self.N
        nz = cnt > 0
        any_ = nz.any(axis=1)
        first = np.where(any_, self.base + nz.argmax(axis=1), N)
        last = np.where(any_, self.base + self.width - 1 - nz[:, ::-1].argmax(axis=1), -1)
        lo, w = localisation._window(first, last, N, self.tau)
        cols = lo[:, None] + np.arange(w) - self.base  # window bin c of row r is counts[r, lo_r + c - base]
        inside = (cols >= 0) & (cols < self.width)
        h = np.where(inside, np.take_along_axis(cnt, np.clip(cols, 0, self.width - 1), axis=1), 0)
        return localisation._elect_window(lo, w, h, N, alpha, n_voters, rng, _keep(alpha))


def _count(votes: dict, k: int, entries: np.ndarray, row, buf: np.ndarray) -> None:
    """Every vote's voters of size ``k``: ``entries`` of one row (``row`` its index) or of every row (rows × users,
    ``row`` = ``slice(None)``)."""
    cuts = sorted({c for v in votes.values() if v.by_cuts(k) for c in v.cuts[k]})
    below = {c: np.count_nonzero(entries < c, axis=-1) for c in cuts}  # entries are below 2**16: c compares exactly
    for v in votes.values():
        if v.by_cuts(k):
            v.add_cuts(k, below, entries.shape[-1], row)
        elif entries.ndim == 2:
            v.add_rows(k, entries)
        else:
            v.add(k, entries, row, buf)


def run(plan, counts: np.ndarray, tabs: list, size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Kent's and DAME's estimates of ``size`` replications whose sizes are ``counts`` ((2 size) × support).

    The draws of the engine's general path (:func:`_draw_by_size`, or :func:`_draw_runs` past
    :data:`BLOCK_USERS` users), in its order; then Kent's vote and release, DAME's, and those of
    DAME's further runs, each from the same counts and local means as there.
    """
    n, alpha = plan.n, plan.alpha
    h = n // 2
    kent_on, dame_on = "kent" in plan.estimators, "dame" in plan.estimators
    sizes = _draw_sizes(plan)
    votes: dict[str, _Vote] = {}
    if kent_on:
        votes["kent"] = _Vote(plan.kent_tau, tabs, sizes, size)
    dame_runs = (("dame", plan.m_tilde, plan.dame_debiasing), *((f"dame@{mt}", mt, d) for mt, d in plan.more_dame))
    if dame_on:
        for key, mt, _ in dame_runs:
            votes[key] = _Vote(_dame_tau(mt, n, alpha), tabs, sizes, size)
    x = (_scratch("x_rel", h, np.float64) if size == 1 else np.empty(size * h)).reshape(size, h)
    buf = _scratch("bins", BLOCK_USERS, np.intp)
    K = counts.shape[1]
    for k, tab in enumerate(tabs):
        if tab is None:
            continue
        inv, means = _inverter(tab), _entry_means(tab[0], tab[1].size, sizes[k])
        if size == 1 and n > BLOCK_USERS:  # _draw_runs' pieces: each half's run, a block at a time
            for half in range(2):
                start = int(counts[half, :k].sum())
                c = int(counts[half, k])
                for s in range(0, c, BLOCK_USERS):
                    e = inv.indices(min(BLOCK_USERS, c - s), rng)
                    if half == 0:
                        _count(votes, k, e, 0, buf)
                    else:
                        np.take(means, e, out=x[0, start + s:start + s + e.size], mode="clip")
            continue
        total = int(counts[:, k].sum())
        entries = np.concatenate([inv.indices(min(INVERTER_DRAWS, total - s), rng)
                                  for s in range(0, total, INVERTER_DRAWS)]) if total > INVERTER_DRAWS \
            else inv.indices(total, rng)
        if K == 1:  # every segment is a half: rows × (voting half, releasing half)
            e3 = entries.reshape(size, 2, h)
            _count(votes, k, e3[:, 0], slice(None), buf)
            np.take(means, e3[:, 1], out=x, mode="clip")
            continue
        ends = np.cumsum(counts[:, k])  # segment s's users of size k: entries[ends[s] - counts[s, k]:ends[s]]
        for r in range(size):
            a, b = int(ends[2 * r] - counts[2 * r, k]), int(ends[2 * r])
            _count(votes, k, entries[a:b], r, buf)
            off = int(counts[2 * r + 1, :k].sum())
            a, b = b, int(ends[2 * r + 1])
            np.take(means, entries[a:b], out=x[r, off:off + b - a], mode="clip")
    out = {}
    if kent_on:
        j = votes["kent"].elect(alpha, max(h, 1), rng)
        out["kent"] = kent._refine_checked(x, j, plan.kent_tau, alpha, rng)
    if dame_on:
        m = np.broadcast_to(plan.size_table[0][:1].astype(np.int64), x.shape)  # not read: every weight is 1
        for key, mt, d in dame_runs:
            v = votes[key]
            j = v.elect(alpha, max(h, 1), rng)
            out[key] = dame._refine_checked(m, x, j, mt, v.tau, alpha, d, rng, plan.dame_scale, every=True)
    return out
