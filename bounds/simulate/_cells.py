r"""Votes without voters: a row's voters of one size counted per cell between the votes' cuts by one multinomial.

.. math:: (N_{r,1}, \dots, N_{r,J}) \sim \mathrm{Mult}\big(n_{r,k};\ F_{c_1 - 1},\ F_{c_2 - 1} - F_{c_1 - 1},\ \dots,\ 1 - F_{c_{J-1} - 1}\big)

Source: Pla et al. (2024), eqs. (5)–(7); Kent et al. (2024), eqs. (26)–(28).
"""

from __future__ import annotations

import math
import threading

import numpy as np

from ._populations import _binom_functions
from ._tables import BINOMIAL, _ones_bins, _ones_cut, _table_bins, _Vote  # noqa: F401  (_Vote: annotations)

__all__: list[str] = []

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


def _joint_cells(kent_vote: "_Vote", dame_votes: dict, hows: list, parts: tuple, m: int,
                 q: float | None = None) -> tuple | None:
    r"""Cells for users of size ``m`` above Kent's :math:`T^*` drawing two parts (both by tables): Kent's cells of the
    first part's entries × the DAME votes' cells of the number of ones of both, and their probabilities
    ``P[i, j]`` (``None`` beyond :data:`MAX_CELLS`): ``(kent_cuts, kent_bins, dame_cuts, first_sum, P)``.

    .. math:: P_{ij} = \sum_{e \in I_i} p_1(e)\, \big[G(d_j - lo_1 - e) - G(d_{j-1} - lo_1 - e)\big],\qquad
              G(x) = P(lo_2 + E_2 < x)

    with :math:`p_1` the first table's masses and :math:`G` the second's cdf (the law both inversions draw).
    """
    key = (parts, m, q, id(hows[0]), id(hows[1]), kent_vote.tau, kent_vote.N, tuple((v.tau, v.N) for v in dame_votes.values()))
    with _JOINT_LOCK:
        hit = _joint_cache.get(key)
    if hit is not None and hit[0] is hows[0] and hit[1] is hows[1]:  # the same tables (held: their ids not reused)
        return hit[2]
    out = _joint_cells_of(kent_vote, dame_votes, hows, parts, m, q)
    with _JOINT_LOCK:  # threads share the cache
        if len(_joint_cache) >= 16:
            _joint_cache.pop(next(iter(_joint_cache)))
        _joint_cache[key] = (hows[0], hows[1], out)
    return out


_joint_cache: dict = {}  # the last few joint cells, with the tables they were summed from
_JOINT_LOCK = threading.Lock()


def _joint_cells_of(kent_vote: "_Vote", dame_votes: dict, hows: list, parts: tuple, m: int,
                    q: float | None = None) -> tuple | None:
    """:func:`_joint_cells`, computed (the second part by a table, or by numpy's sampler: its binomial's cdf below
    the mode and survival function above, boost's, the sums' cuts sought over its mean ± 15 sd + 40, as
    :func:`_cells`)."""
    lo1, F1, _ = hows[0]
    t1 = parts[0]
    kcuts, kbins, _ = _table_bins(lo1, F1.size, t1, kent_vote.tau, kent_vote.N)
    if hows[1] is BINOMIAL:
        if q is None:
            return None  # the second part's law unknown
        t2 = parts[1]
        sd = math.sqrt(t2 * q * (1 - q))
        w_lo = max(0, math.floor(t2 * q - WINDOW_SIGMAS * sd) - 40)
        w_hi = min(t2, math.ceil(t2 * q + WINDOW_SIGMAS * sd) + 40)
        smin, smax = lo1 + w_lo, lo1 + F1.size - 1 + w_hi
        _, cdf, sf = _binom_functions()
        mode = math.floor((t2 + 1) * q)

        def below_ones(x: np.ndarray) -> np.ndarray:  # P(K2 < x), K2 ~ Bin(t2, q)
            return np.array([cdf(k, t2, q) if k <= mode else 1.0 - sf(k, t2, q) for k in (x - 1).tolist()])
    else:
        lo2, F2, _ = hows[1]
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

    def below(x: np.ndarray) -> np.ndarray:  # P(lo2 + e2 < x)
        if hows[1] is BINOMIAL:
            return below_ones(x)
        y = x - lo2
        return np.where(y <= 0, 0.0, np.where(y >= F2.size, 1.0, F2[np.clip(y - 1, 0, F2.size - 1)]))

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
