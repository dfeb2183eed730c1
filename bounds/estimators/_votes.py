r"""A vote's noisy totals drawn exactly and cheaply: the largest of the totals no voter reaches in one draw, and small
votes' binomials by inversion of tabulated cdfs (what :func:`~bounds.estimators.localisation.noise_only_maximum` and
:func:`~bounds.estimators.localisation.elect_window` draw).

Sources: Pla et al. (2024), eqs. (6)–(7); Kent et al. (2024), eqs. (27)–(28) (the noisy totals of a vote).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..numerics import binomial_sf, guide_table

TAIL_SIGMAS = 15  # the survival table of a noise-only total spans its mean ± 15 sd + 40 (beyond: bisection)
MAX_TABLE = 2**16  # entries of that table at most (a wider one: every draw by bisection)


def _survival(n_voters: int, flip: float) -> tuple[int, np.ndarray]:
    """``(y0, -S)``: minus the survival function ``S[i] = P(T > y0 - 1 + i)`` of a noise-only total
    ``T ~ Bin(n_voters, flip)`` over its mean +- TAIL_SIGMAS sd (+ 40), ascending for ``searchsorted``;
    empty where that span exceeds :data:`MAX_TABLE` entries."""
    mean, sd = n_voters * flip, math.sqrt(n_voters * flip * (1 - flip))
    lo = max(-1, math.floor(mean - TAIL_SIGMAS * sd) - 40)
    hi = min(n_voters, math.ceil(mean + TAIL_SIGMAS * sd) + 40)
    S = binomial_sf(np.arange(lo, hi + 1, dtype=float), n_voters, flip) if hi - lo < MAX_TABLE else np.empty(0)
    minus = -S
    minus.flags.writeable = False
    return lo + 1, minus


_survival_table = functools.lru_cache(maxsize=32)(_survival)


def _bisect(s: np.ndarray, n_voters: int, flip: float) -> np.ndarray:
    """The smallest integer :math:`y \\in [0, n_v]` with :math:`P(T > y) \\le s`, by bisection (any level)."""
    lo = np.full(s.shape, -1.0)  # P(T > lo) > s
    hi = np.full(s.shape, float(n_voters))  # P(T > hi) = 0 <= s
    while np.any(hi - lo > 1):
        mid = np.floor((lo + hi) / 2)
        below = binomial_sf(mid, n_voters, flip) <= s
        hi, lo = np.where(below, mid, hi), np.where(below, lo, mid)
    return hi.astype(np.int64)


def noise_only_maximum_checked(n_voters: int, flip: float, n_empty: int, rng: np.random.Generator, size: int) -> np.ndarray:
    """:func:`noise_only_maximum` of checked inputs, ``flip`` the probability that a vote's bit flips."""
    s = -np.expm1(np.log1p(-rng.random(size)) / n_empty)  # 1 - V^(1/K), V = 1 - U in (0, 1]
    y0, minus_S = _survival_table(n_voters, flip)
    i = np.searchsorted(minus_S, -s, side="left")  # the first table entry with S <= s
    y = y0 - 1 + i
    outside = (i == 0) | (i == minus_S.size)  # beyond the table (probability below 1e-40), or no table: bisection
    if np.any(outside):
        y[outside] = _bisect(s[outside], n_voters, flip)
    inside = ~outside
    above = np.empty(s.shape)  # S(y - 1)
    here = np.empty(s.shape)  # S(y)
    above[inside], here[inside] = -minus_S[i[inside] - 1], -minus_S[i[inside]]
    if np.any(outside):
        yo = y[outside].astype(float)
        above[outside] = binomial_sf(yo - 1, n_voters, flip)
        here[outside] = binomial_sf(yo, n_voters, flip)
    return y + 0.5 * (above - s) / (above - here)


VOTE_TABLE_VOTERS = 511  # voters up to which a vote's noisy totals are drawn by inversion of tabulated cdfs


@functools.lru_cache(maxsize=4)
def _flip_tables(K: int, flip: float) -> tuple[np.ndarray, np.ndarray]:
    r"""``(F, guide)``: ``F[k, j]`` :math:`= P(\mathrm{Bin}(k, p) \le j)` for :math:`j < k` (``inf`` from :math:`k`),
    :math:`k \le K`, :math:`p` = ``flip``; ``guide[k, g]`` the first :math:`j` with ``F[k, j] > g/G`` (``G = K + 1``,
    a power of 2), or :math:`-1-j` where ``F[k, j] < (g + 1)/G`` (a cell whose draws step up from :math:`j`).

    The pmf by Pascal's recurrence (a convex combination of the row before: relative error at most about
    :math:`2k` ulps), summed from the bottom below :math:`\lfloor kp \rfloor` and as one minus the sum from the top
    from there on (each tail from its small terms).  A row's entries do not depend on :math:`K`.

    .. math:: p_{k+1}(j) = (1 - p)\,p_k(j) + p\,p_k(j - 1),\qquad F_k(j) = \sum_{i \le j} p_k(i)
    """
    P, tmp = np.zeros((K + 1, K + 1)), np.empty(K + 1)
    P[0, 0] = 1.0
    for r in range(K):
        np.multiply(P[r, :r + 1], 1 - flip, out=P[r + 1, :r + 1])
        np.multiply(P[r, :r + 1], flip, out=tmp[:r + 1])
        P[r + 1, 1:r + 2] += tmp[:r + 1]
    j = np.arange(K + 1)
    k = j[:, None]
    above = np.cumsum(P[:, ::-1], axis=1)[:, ::-1]  # above[k, j] = P(Bin(k, p) >= j)
    F = np.cumsum(P, axis=1)
    upper = j[:-1] >= np.floor(k * flip)
    F[:, :-1] = np.where(upper, 1 - above[:, 1:], F[:, :-1])
    np.maximum.accumulate(F, axis=1, out=F)
    F[j >= k] = np.inf  # the top entry of a row takes the rest of [0, 1)
    guide = guide_table(F, K + 1).astype(np.int32)
    F.flags.writeable = guide.flags.writeable = False
    return F, guide


def flip_draws(k: np.ndarray, flip: float, u: np.ndarray, n: int) -> np.ndarray:
    r""":math:`\mathrm{Bin}(k, p)` for each entry of ``k`` (:math:`0 \le k \le` :data:`VOTE_TABLE_VOTERS`) by
    inversion of :func:`_flip_tables`' cdfs at the uniforms ``u`` (same shape): the first :math:`j` with
    :math:`F_k(j) > u`; ``n`` at least every ``k`` (the table's rows depend on no other argument: the same draws)."""
    K = (1 << max(n, 63).bit_length()) - 1  # rows 0 .. K, K + 1 a power of 2 above n
    F, guide = _flip_tables(K, flip)
    G = guide.shape[1]
    j = guide.ravel()[k * G + (u * G).astype(np.intp)].astype(np.int64)  # u G exact: its truncation is its floor
    late = np.flatnonzero(j < 0)
    if late.size:
        flat, row = F.ravel(), k.ravel()[late] * (K + 1)
        v, at = u.ravel()[late], row - 1 - j.ravel()[late]
        at += flat[at] <= v
        at += flat[at] <= v
        far = np.flatnonzero(flat[at] <= v)  # a tail's cell spans many entries: bisection in (at, its row's inf]
        if far.size:
            lo, hi, w = at[far], row[far] + k.ravel()[late][far], v[far]  # F <= u at lo, F > u at hi
            while np.any(hi - lo > 1):
                mid = (lo + hi) // 2
                up = flat[mid] <= w
                lo, hi = np.where(up, mid, lo), np.where(up, hi, mid)
            at[far] = hi
        j.ravel()[late] = at - row
    return j
