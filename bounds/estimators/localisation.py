r"""What DAME and Kent et al.'s univariate procedure share: bins, the vote, the enlarged interval.

Both split :math:`[-1, 1]` into bins of width :math:`2\tau`, let half of the users vote for
their bin and its two neighbours with randomised response (at most three ones, ``k = 3``),
elect the bin with the largest noisy total, and let the other half release their local
mean clipped to the elected bin enlarged by :math:`6\tau` on each side, plus Laplace
noise calibrated to the enlarged interval's width :math:`14\tau`.  Each of these
constants is written once, here.

Sources: Pla et al. (2024), eqs. (4)–(8) (Algorithm 1); Kent et al. (2024), eqs. (25)–(30).

Examples
--------
>>> from bounds.estimators import localisation
>>> localisation.n_bins(0.3), [float(v) for v in localisation.bin_ends(1, 0.3)]
(4, [-0.4, 0.19999999999999996])
"""

from __future__ import annotations

import math
import threading
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from .. import mechanisms
from ..numerics import check_integer, check_positive, check_rng
from ._inputs import MAX_INT64_COUNT, extremes, reals, same_shape, whole
from ._votes import VOTE_TABLE_VOTERS, flip_draws, noise_only_maximum_checked
from ..mechanisms import RNGLike

__all__ = [
    "VOTE_ONES",
    "n_bins",
    "bin_index",
    "bin_ends",
    "enlarged_interval",
    "refinement_scale",
    "vote_counts",
    "elect",
    "noise_only_maximum",
    "localise",
]

VOTE_ONES = 3  # a vote has ones on the voter's bin and its two neighbours: k = 3 in Lemma 16
"""The number of ones in a localisation vote (the voter's bin and its two neighbours): :math:`k = 3` in the keep
probability :math:`e^{\\alpha/(2k)}/(1 + e^{\\alpha/(2k)})` (Kent et al. (2024), Lemma 16; Pla et al. (2024),
eq. (6))."""
MAX_BINS = 10**7  # one array entry per bin and replication
MAX_VOTERS = 2**53  # voters of a noise-only total: integers exact in float64, the binomial's argument
BLOCK_USERS = 2**16  # users read at a time in a row longer than this (temporaries of a block, same results)
DIRECT_BINS = 4096  # bins up to which a block's votes are counted over every bin (no range of its own)


def n_bins(tau: float) -> int:
    r"""The number of bins :math:`N = \lceil 1/\tau \rceil` of half-width :math:`\tau` covering :math:`[-1, 1]`.

    .. math:: N = \lceil 1/\tau \rceil

    Source: Pla et al. (2024), Algorithm 1; Kent et al. (2024), the partition before eq. (26).

    Examples
    --------
    >>> n_bins(0.25), n_bins(0.3), n_bins(5.0)
    (4, 4, 1)
    """
    n = 1 / check_positive("tau", tau)
    if n > MAX_BINS:
        raise ValueError(f"tau = {tau!r} gives more than {MAX_BINS} bins")
    return math.ceil(n)


def bin_index(x: ArrayLike, tau: float) -> np.ndarray:
    r"""The bin :math:`j` (0-based) holding each value :math:`x \in [-1, 1]`; the last bin is closed at 1.

    .. math:: j(x) = \min\Big(\Big\lfloor \frac{x + 1}{2\tau} \Big\rfloor,\ N - 1\Big),\qquad I_j = [-1 + 2\tau j,\ -1 + 2\tau(j+1))

    Source: Pla et al. (2024), eq. (5); Kent et al. (2024), the partition before eq. (26).

    Examples
    --------
    >>> bin_index(np.array([-1.0, -0.5, 0.0, 1.0]), 0.5).tolist()
    [0, 0, 1, 1]
    """
    N = n_bins(tau)
    return _bin_index(reals("x", x, low=-1, high=1, allow_empty=True), tau, N)


def _bin_index(x: np.ndarray, tau: float, N: int) -> np.ndarray:
    """:func:`bin_index` of a checked float array (``x >= -1``: only the top needs a clip)."""
    t = np.add(x, 1.0, out=np.empty(np.shape(x)))  # a new array, also for a 0-d input (in-place steps below)
    t /= 2 * float(tau)
    b = t.astype(np.int64)  # t >= 0: truncation is the floor
    np.minimum(b, N - 1, out=b)
    return b


def bin_ends(j: ArrayLike, tau: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The ends :math:`(l_j, u_j)` of bin :math:`j` (0-based), the last one cut at 1.

    .. math:: l_j = -1 + 2\tau j,\qquad u_j = (l_j + 2\tau) \wedge 1

    Source: Pla et al. (2024), Algorithm 1; Kent et al. (2024), eq. (29).

    Examples
    --------
    >>> bin_ends(np.array([0, 1]), 0.75)
    (array([-1. ,  0.5]), array([0.5, 1. ]))
    """
    N = n_bins(tau)
    j = whole("j", j, low=0)
    if np.any(j >= N):
        raise ValueError(f"j must be a bin index below N = {N}, got {j.max()}")
    return bin_ends_checked(j, tau)


def bin_ends_checked(j: np.ndarray, tau: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`bin_ends` of checked bins (bin 0 starts at −1 exactly, also where 2τ overflows: one bin)."""
    step = 2 * tau
    lo = -1 + np.multiply(step, j, out=np.zeros(np.shape(j)), where=np.asarray(j) != 0)
    return lo, np.minimum(lo + step, 1.0)


def enlarged_interval(j: ArrayLike, tau: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The elected bin enlarged by :math:`6\tau` on each side, intersected with :math:`[-1, 1]`.

    .. math:: [L_j, U_j] = [(l_j - 6\tau) \vee (-1),\ (u_j + 6\tau) \wedge 1]

    Local means lie in :math:`[-1, 1]`, so clipping to this interval or to the unintersected
    :math:`[l_j - 6\tau, u_j + 6\tau]` (Kent et al.'s eq. (29)) gives the same values.

    Source: Pla et al. (2024), eq. (8); Kent et al. (2024), eq. (29).

    Examples
    --------
    >>> [float(v) for v in enlarged_interval(0, 0.05)]  # [-1, -0.9] enlarged
    [-1.0, -0.6]
    """
    return enlarged_checked(*bin_ends(j, tau), tau)


def enlarged_checked(lo: np.ndarray, hi: np.ndarray, tau: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`enlarged_interval` from the bins' ends."""
    return np.maximum(lo - 6 * tau, -1.0), np.minimum(hi + 6 * tau, 1.0)


def refinement_scale(tau: float, alpha: float) -> float:
    r"""The Laplace scale of the refinement step: the enlarged interval's width :math:`14\tau` over :math:`\alpha`.

    .. math:: b = \frac{14\tau}{\alpha}

    (a full bin :math:`2\tau` plus :math:`6\tau` on each side; clipped values move by at most
    that much between two users, so the release is :math:`\alpha`-LDP).

    Source: Pla et al. (2024), eq. (8); Kent et al. (2024), eq. (30).

    Examples
    --------
    >>> refinement_scale(0.1, 0.7)
    2.0000000000000004
    """
    return refinement_scale_checked(check_positive("tau", tau), check_positive("alpha", alpha))


def refinement_scale_checked(tau: float, alpha: float) -> float:
    """:func:`refinement_scale` of checked (float) inputs."""
    return 14 * tau / alpha


def _means_and_mask(xbar: ArrayLike, voting: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Local means (replications × users, in [-1, 1]) and a boolean voting mask of the same shape."""
    xbar = reals("xbar", xbar, ndim=2, low=-1, high=1)
    voting = np.asarray(voting)
    if voting.dtype != bool:
        raise ValueError(f"voting must be a boolean mask, got dtype {voting.dtype}")
    return xbar, same_shape("voting", voting, xbar.shape)


def vote_counts(xbar: ArrayLike, voting: ArrayLike, tau: float) -> np.ndarray:
    r"""Each bin's number of true ones among the voters: votes for the voter's bin and its two neighbours.

    ``xbar`` is (replications × users), ``voting`` a mask of the same shape; returns
    (replications × bins) counts :math:`c_j = \#\{u : j(\bar X_u) \in \{j-1, j, j+1\}\}`.

    .. math:: V_{uj} = \mathbb 1\{\bar X_u \in I_{j-1} \cup I_j \cup I_{j+1}\},\qquad c_j = \sum_{u \text{ votes}} V_{uj}

    Source: Pla et al. (2024), eq. (5); Kent et al. (2024), eq. (26).

    Examples
    --------
    >>> vote_counts(np.array([[-0.9, 0.1, 0.2]]), np.ones((1, 3), bool), 0.25).tolist()
    [[1, 3, 2, 2]]
    """
    N = n_bins(tau)
    xbar, voting = _means_and_mask(xbar, voting)
    B = xbar.shape[0]
    if B * N > MAX_BINS:
        raise ValueError(f"tau = {tau!r}: {B} replications × {N} bins exceed {MAX_BINS} counts")
    b = bin_index(xbar, tau)
    rows = np.broadcast_to(np.arange(B)[:, None], b.shape)
    h = np.bincount((rows * N + b)[voting], minlength=B * N).reshape(B, N)
    c = h.copy()
    c[:, 1:] += h[:, :-1]
    c[:, :-1] += h[:, 1:]
    return c


def elect(totals: ArrayLike, rng: RNGLike) -> np.ndarray:
    r"""The bin with the largest noisy vote total in each row, ties broken uniformly at random.

    .. math:: \hat j = \arg\max_j \sum_u \tilde V_{uj}

    (integer totals plus independent :math:`U[0, 1/2)` jitter: the largest total always
    wins, and each of several tied bins wins with equal probability).

    Source: Pla et al. (2024), eq. (7); Kent et al. (2024), eq. (28).

    Examples
    --------
    >>> elect(np.array([[3, 5, 1]]), np.random.default_rng(0)).tolist()
    [1]
    """
    rng = check_rng("rng", rng)
    totals = whole("totals", totals, ndim=2)
    if totals.shape[1] == 0:
        raise ValueError("totals must have at least one bin")
    return np.argmax(totals + 0.5 * rng.random(totals.shape), axis=1)


def noise_only_maximum(n_voters: int, alpha: float, n_empty: int, rng: RNGLike, size: int) -> np.ndarray:
    r"""The largest jittered total among ``n_empty`` bins that hold no true one, drawn in one step.

    A bin that no voter's bin (or neighbour) reaches has :math:`c_j = 0`: its noisy total is
    :math:`T_j \sim \mathrm{Bin}(n_v, 1 - \pi_\alpha)`, the same law for every such bin, independently
    (:func:`~bounds.mechanisms.noisy_vote_totals`).  :func:`elect` compares the jittered totals
    :math:`Z_j = T_j + U_j/2`, :math:`U_j \sim U[0, 1)`; ``size`` independent draws of their
    maximum over :math:`K` = ``n_empty`` bins are returned.

    *Proof of the law.*  The :math:`Z_j` are i.i.d. with a continuous, strictly increasing
    distribution function on their support, :math:`G(y + f/2) = F(y - 1) + p(y)\,f`
    (:math:`y` an integer, :math:`f \in [0, 1]`, :math:`F` and :math:`p` the binomial's cdf
    and pmf), so :math:`P(\max_j Z_j \le z) = G(z)^K` and, for :math:`V \sim U(0, 1]`,
    :math:`G^{-1}(V^{1/K})` has that law (inversion).  In survival form, with
    :math:`S(y) = P(T > y)` and :math:`s = 1 - V^{1/K} = -\operatorname{expm1}(\log V / K)`
    (exact for small :math:`s`), the maximum is :math:`y + f/2` where

    .. math:: S(y) \le s < S(y - 1),\qquad f = \frac{S(y - 1) - s}{S(y - 1) - S(y)} \in (0, 1],
              \qquad P\Big(\max_{j \le K} Z_j \le z\Big) = G(z)^K

    (:math:`S(-1) = 1`), since :math:`P(Z > y + f/2) = S(y) + p(y)(1 - f)`.  Because the
    :math:`Z_j` are i.i.d. and continuous, the bin attaining the maximum is uniform over the
    :math:`K` bins and independent of its value, and ties between integer totals are broken
    uniformly, exactly as :func:`elect` does bin by bin.  The cost is one table look-up per
    draw, whatever :math:`K`.

    Source: Pla et al. (2024), eqs. (6)–(7) and Kent et al. (2024), eqs. (27)–(28) (the vote and
    its argmax); order statistics of i.i.d. variables (the maximum's cdf :math:`G^K`).

    Examples
    --------
    >>> z = noise_only_maximum(20, 1.0, 10**6, np.random.default_rng(0), 3)
    >>> z.shape, bool(np.all((z > 0) & (z < 20.5)))
    ((3,), True)
    """
    n_voters = check_integer("n_voters", n_voters, minimum=0, maximum=MAX_VOTERS)
    n_empty = check_integer("n_empty", n_empty, minimum=1, maximum=MAX_INT64_COUNT)
    size = check_integer("size", size, minimum=0, maximum=MAX_BINS)
    flip = 1 - mechanisms.rr_keep_probability(alpha, k=VOTE_ONES)
    return noise_only_maximum_checked(n_voters, flip, n_empty, check_rng("rng", rng), size)


def row_sums(part: Callable[[int, int, int], np.ndarray], rows: int, n: int) -> np.ndarray:
    """Each row's sum of ``part(r, a, e)`` (its entries ``a .. e - 1``), block by block, with the bits of ``.sum(axis=1)``.

    numpy sums a row of float64 pairwise: a run of more than 128 entries is cut at half its length
    rounded down to a multiple of 8, each side summed alike and the two added; the same cuts down
    to runs of at most :data:`BLOCK_USERS`, each summed by numpy, give the same result bit for bit
    (tested against ``mean(axis=1)``).
    """
    return np.array([_pairwise(part, r, 0, n) for r in range(rows)], dtype=np.float64)


def _pairwise(part: Callable[[int, int, int], np.ndarray], r: int, a: int, k: int) -> float:
    """The sum of entries ``a .. a + k - 1`` of row ``r`` in numpy's pairwise order (a module function: a nested,
    self-calling one would be a reference cycle holding ``part``, and the arrays it reads, until the next collection)."""
    if k <= BLOCK_USERS:
        return float(np.add.reduce(part(r, a, a + k)))
    k2 = k // 2
    k2 -= k2 % 8
    return _pairwise(part, r, a, k2) + _pairwise(part, r, a + k2, k - k2)


def _window(first: np.ndarray, last: np.ndarray, N: int, tau: float) -> tuple[np.ndarray, int]:
    """Each row's window of bins: from one below its lowest voter's bin to one above its highest, at a common width."""
    lo = np.maximum(first - 1, 0)  # rows without a voter: lo = N - 1 > hi, an empty window
    hi = np.minimum(last + 1, N - 1)
    w = int(max(1, (hi - lo).max(initial=0) + 1))
    if w * first.size > MAX_BINS:
        raise ValueError(f"tau = {tau!r}: {first.size} replications × {w} bins reached by votes exceed {MAX_BINS} counts")
    return np.minimum(lo, N - w), w  # every row's window: bins lo .. lo + w - 1, within 0 .. N - 1


def _window_counts(xbar: np.ndarray, voting: np.ndarray, tau: float, N: int) -> tuple[np.ndarray, int, np.ndarray]:
    """``(lo, w, h)``: each row's window and its voters per bin of the window, ``h`` (rows × ``w``)."""
    B = xbar.shape[0]
    b = _bin_index(xbar, tau, N)
    everyone = bool(voting.all())
    first = b.min(axis=1, initial=N) if everyone else np.min(b, axis=1, where=voting, initial=N)
    last = b.max(axis=1, initial=-1) if everyone else np.max(b, axis=1, where=voting, initial=-1)
    lo, w = _window(first, last, N, tau)
    cells = b + (np.arange(B) * w - lo)[:, None]  # row-major cell of each user's bin in the (B, w) window
    if not everyone:
        cells = np.where(voting, cells, B * w)  # non-voters land in a spare cell
    h = np.bincount(cells.ravel(), minlength=B * w + 1)[:B * w].reshape(B, w)
    return lo, w, h


_buffers = threading.local()
CLIP_BUFFER = 2**16  # entries of the buffer rows are clipped into before being summed (clipped_row_means)


def block_buffers() -> tuple[np.ndarray, np.ndarray]:
    """This thread's float64 and int64 arrays of :data:`BLOCK_USERS` entries (made once: no page faults per call)."""
    bufs = getattr(_buffers, "arrays", None)
    if bufs is None or bufs[0].size != BLOCK_USERS:
        bufs = _buffers.arrays = (np.empty(BLOCK_USERS), np.empty(BLOCK_USERS, dtype=np.int64))
    return bufs


def clipped_row_means(x: np.ndarray, L: np.ndarray, U: np.ndarray) -> np.ndarray:
    """Each row's mean of ``x`` clipped to ``[L[r], U[r]]`` (rows of at most :data:`BLOCK_USERS` entries), with the
    bits of ``np.clip(x, L[:, None], U[:, None]).mean(axis=1)``: rows are clipped a group at a time into a buffer of a
    block (no array of the whole) and each row is summed along its contiguous entries, as numpy sums it there."""
    if x.shape[1] > CLIP_BUFFER:
        return np.clip(x, L[:, None], U[:, None]).mean(axis=1)
    return _clipped_in_buffer(x, [(L, U)])[0]


def _clipped_in_buffer(x: np.ndarray, intervals: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """:func:`clipped_row_means` of rows of at most ``CLIP_BUFFER`` entries for each interval, each group of rows
    clipped to every interval in turn while in cache."""
    B, h = x.shape
    buf = getattr(_buffers, "clip", None)
    if buf is None:
        buf = _buffers.clip = np.empty(CLIP_BUFFER)
    outs = [np.empty(B) for _ in intervals]
    step = CLIP_BUFFER // max(h, 1)
    for a in range(0, B, step):
        e = min(B, a + step)
        c = buf[:(e - a) * h].reshape(e - a, h)
        for (L, U), out in zip(intervals, outs):
            np.maximum(x[a:e], L[a:e, None], out=c)  # np.clip's values (L <= U), in two plain passes
            np.minimum(c, U[a:e, None], out=c)
            np.add.reduce(c, axis=1, out=out[a:e])
    for out in outs:
        out /= h
    return outs


def clipped_means_checked(x: np.ndarray, intervals: list[tuple[np.ndarray, np.ndarray]]) -> list[np.ndarray]:
    """Each row's mean of ``x`` clipped to each interval ``(L, U)`` (per-row bounds), reading ``x`` once: a block of
    rows (or of a long row) is clipped to every interval while in cache.  Each result has the bits of
    :func:`clipped_row_means` (rows of at most :data:`BLOCK_USERS`) or of :func:`row_sums` of the clipped row over
    ``h`` (longer rows), as one interval alone gives them."""
    B, h = x.shape
    if h > BLOCK_USERS:
        buf = block_buffers()[0]

        def leaf(r: int, a: int, e: int) -> list[float]:  # each interval's sum of a block, clipped in turn
            return [float(np.add.reduce(np.clip(x[r, a:e], L[r], U[r], out=buf[:e - a]))) for L, U in intervals]

        sums = np.array([_pairwise_many(leaf, r, 0, h) for r in range(B)], dtype=np.float64)
        return [sums[:, i] / h for i in range(len(intervals))]
    if h > CLIP_BUFFER:
        return [clipped_row_means(x, L, U) for L, U in intervals]
    return _clipped_in_buffer(x, intervals)


def _pairwise_many(leaf: Callable[[int, int, int], list[float]], r: int, a: int, k: int) -> list[float]:
    """:func:`_pairwise` of several parts at once (the same cuts; ``leaf`` gives each part's sum of a leaf)."""
    if k <= BLOCK_USERS:
        return leaf(r, a, a + k)
    k2 = k // 2
    k2 -= k2 % 8
    left, right = _pairwise_many(leaf, r, a, k2), _pairwise_many(leaf, r, a + k2, k - k2)
    return [u + v for u, v in zip(left, right)]


def _window_counts_blocked(xbar: np.ndarray, voting: np.ndarray | tuple[np.ndarray, int], tau: float,
                           N: int) -> tuple[np.ndarray, int, np.ndarray]:
    """:func:`_window_counts` read :data:`BLOCK_USERS` users at a time (each row's counts over the bins its voters reach).

    With at most :data:`DIRECT_BINS` bins a block's bins are counted over all of them at once;
    otherwise over the block's own range of bins, then added into the row's.
    """
    B, n = xbar.shape
    everyone = bool(extremes(voting[0])[0] >= voting[1]) if isinstance(voting, tuple) else bool(voting.all())
    rows: list[tuple[int, np.ndarray]] = []
    t, bins = block_buffers()
    for r in range(B):
        acc = np.zeros(N if N <= DIRECT_BINS else 0, dtype=np.int64)  # voters per bin, from bin `base` on
        base = 0 if N <= DIRECT_BINS else N
        for s in range(0, n, BLOCK_USERS):
            x = xbar[r, s:s + BLOCK_USERS]
            b = bins[:x.size]
            np.add(x, 1.0, out=t[:x.size])  # _bin_index's steps, in buffers of a block
            t[:x.size] /= 2 * float(tau)
            np.copyto(b, t[:x.size], casting="unsafe")
            np.minimum(b, N - 1, out=b)
            if not everyone:
                b = b[voting[0][r, s:s + BLOCK_USERS] >= voting[1] if isinstance(voting, tuple)
                      else voting[r, s:s + BLOCK_USERS]]
            if N <= DIRECT_BINS:
                acc += np.bincount(b, minlength=N)
                continue
            if not b.size:
                continue
            bmin, bmax = int(b.min()), int(b.max())
            top = base + acc.size - 1
            if bmin < base or bmax > top:  # widen the row's counts to the bins seen so far
                new_base, new_top = min(base, bmin), max(top, bmax)
                grown = np.zeros(new_top - new_base + 1, dtype=np.int64)
                grown[base - new_base:base - new_base + acc.size] = acc
                acc, base = grown, new_base
            b -= bmin
            acc[bmin - base:bmax - base + 1] += np.bincount(b, minlength=bmax - bmin + 1)
        rows.append((base, acc))
    return _window_from_rows(rows, N, tau)


def _window_from_rows(rows: list[tuple[int, np.ndarray]], N: int, tau: float) -> tuple[np.ndarray, int, np.ndarray]:
    """:func:`_window_counts`' ``(lo, w, h)`` from each row's voters per bin, ``(base, acc)``: ``acc[i]`` voters in
    bin ``base + i`` (bins outside ``acc`` hold none)."""
    B = len(rows)
    first, last = np.full(B, N, dtype=np.int64), np.full(B, -1, dtype=np.int64)
    trimmed: list[np.ndarray] = []
    for r, (base, acc) in enumerate(rows):
        seen = np.flatnonzero(acc)
        if seen.size:  # the row's lowest and highest voters' bins
            first[r], last[r] = base + seen[0], base + seen[-1]
            acc = acc[seen[0]:seen[-1] + 1]
        trimmed.append(acc)
    lo, w = _window(first, last, N, tau)
    h = np.zeros((B, w), dtype=np.int64)
    for r, acc in enumerate(trimmed):
        if first[r] < N:
            h[r, first[r] - lo[r]:first[r] - lo[r] + acc.size] = acc
    return lo, w, h


def localise(xbar: ArrayLike, voting: ArrayLike, tau: float, alpha: float, n_voters: int, rng: RNGLike) -> np.ndarray:
    r"""The elected bin :math:`\hat j` of each replication (rows), from local means and a voting mask.

    Voters put ones on the bins :math:`j-1, j, j+1` around theirs; every one of the
    ``n_voters`` users' bits is randomised with :math:`k = 3`; the largest noisy total wins,
    ties broken uniformly (:func:`elect`):

    .. math:: \hat j = \arg\max_j \Big[\mathrm{Bin}(c_j, \pi_\alpha) + \mathrm{Bin}(n_v - c_j, 1 - \pi_\alpha)\Big],\qquad \pi_\alpha = \frac{e^{\alpha/6}}{1 + e^{\alpha/6}}

    The cost does not grow with the number of bins :math:`N`.  In each row, the bins from
    one below the lowest voter's bin to one above the highest (widened to a common width
    :math:`w` for all rows) are drawn bin by bin (:func:`~bounds.mechanisms.noisy_vote_totals`);
    the :math:`K = N - w` others hold no true one, so their totals are i.i.d.
    :math:`\mathrm{Bin}(n_v, 1 - \pi_\alpha)` and only their jittered maximum matters, drawn in one
    step by :func:`noise_only_maximum`; if it beats the window's, the winner is uniform over
    those :math:`K` bins (i.i.d. continuous variables: the argmax is uniform and independent of
    the maximum).  The law of :math:`\hat j` is the bin-by-bin one exactly (tested against
    enumeration and against :func:`vote_counts` + :func:`elect`).

    Source: Pla et al. (2024), eqs. (5)–(7); Kent et al. (2024), eqs. (26)–(28).

    Examples
    --------
    >>> x = np.full((2, 50), 0.3)
    >>> j = localise(x, np.ones(x.shape, bool), 0.25, 50.0, 50, np.random.default_rng(0))
    >>> set(j.tolist()) <= {1, 2, 3}  # bins 1, 2, 3 each hold all 50 votes: a tie, broken at random
    True
    """
    rng = check_rng("rng", rng)
    n_bins(tau)
    xbar, voting = _means_and_mask(xbar, voting)
    return localise_checked(xbar, voting, tau, alpha, n_voters, rng)


def localise_checked(xbar: np.ndarray, voting: np.ndarray | tuple[np.ndarray, int], tau: float, alpha: float, n_voters: int,
              rng: RNGLike) -> np.ndarray:
    """:func:`localise` of checked local means; ``voting`` a mask or ``(m, m_tilde)``: users with ``m >= m_tilde`` vote.

    Rows longer than :data:`BLOCK_USERS` are read block by block (temporaries of a block's size);
    the vote counts, hence the draws and the result, are the same either way.
    """
    rng = check_rng("rng", rng)
    N = n_bins(tau)
    alpha = check_positive("alpha", alpha)
    if xbar.shape[1] > BLOCK_USERS:
        lo, w, h = _window_counts_blocked(xbar, voting, tau, N)
    else:
        if isinstance(voting, tuple):
            voting = voting[0] >= voting[1]
        lo, w, h = _window_counts(xbar, voting, tau, N)
    return elect_window(lo, w, h, N, alpha, n_voters, rng)


def elect_window(lo: np.ndarray, w: int, h: np.ndarray, N: int, alpha: float, n_voters: int,
                 rng: np.random.Generator, keep: float | None = None) -> np.ndarray:
    r""":func:`localise`'s draws and election from each row's window of bins (``lo``, ``w``) and its voters per bin
    ``h`` (rows × ``w``), as :func:`_window_counts` makes them; ``alpha`` checked (``keep``: its keep probability,
    :func:`~bounds.mechanisms.rr_keep_probability` with ``k = 3``, if already known).  A window bin's noisy total
    :math:`\mathrm{Bin}(c, \pi) + \mathrm{Bin}(n_v - c, 1 - \pi)` is drawn as :math:`c - \mathrm{Bin}(c, 1 - \pi) +
    \mathrm{Bin}(n_v - c, 1 - \pi)` (the same law), each binomial by inversion of ``_votes._flip_tables``' cdfs (one
    uniform each) where :math:`n_v \le` :data:`VOTE_TABLE_VOTERS`, else by numpy's sampler.  With one bin
    (:math:`N = 1`) the election is certain and nothing is drawn."""
    B = h.shape[0]
    counts = h.copy()
    counts[:, 1:] += h[:, :-1]
    counts[:, :-1] += h[:, 1:]
    if type(n_voters) is not int or not 1 <= n_voters <= MAX_VOTERS or counts.max(initial=0) > n_voters:
        n_voters = check_integer("n_voters", n_voters, minimum=max(1, int(counts.max(initial=0))), maximum=MAX_VOTERS)
    if N == 1:  # the one bin wins whatever its noisy total
        return np.zeros(B, dtype=np.intp)
    if keep is None:
        keep = mechanisms.rr_keep_probability(alpha, k=VOTE_ONES)  # the law of mechanisms.noisy_vote_totals:
    if n_voters <= VOTE_TABLE_VOTERS:  # Bin(c, keep) + Bin(n - c, 1 - keep) = c - Bin(c, flip) + Bin(n - c, flip)
        flips = flip_draws(np.stack((counts, n_voters - counts)), 1 - keep, rng.random((2, *counts.shape)),
                            n_voters)
        jittered = (counts - flips[0] + flips[1]) + 0.5 * rng.random(counts.shape)
    else:
        jittered = rng.binomial(counts, keep) + rng.binomial(n_voters - counts, 1 - keep) + 0.5 * rng.random(counts.shape)
    j = np.argmax(jittered, axis=1)
    if w == N:
        return j
    best = jittered[np.arange(B), j]
    outside = noise_only_maximum_checked(n_voters, 1 - keep, N - w, rng, B) > best
    pick = rng.integers(0, N - w, size=B)  # uniform over the K bins outside the window
    return np.where(outside, np.where(pick < lo, pick, pick + w), j + lo)


bin_index_checked = _bin_index
"""The engine's name for :func:`_bin_index` (a checked float array's bins)."""
window_checked = _window
"""The engine's name for :func:`_window` (each row's window of bins, from its lowest and highest voters' bins)."""
pairwise_sums_checked = _pairwise_many
"""The engine's name for :func:`_pairwise_many` (a long row's sums of several parts in numpy's pairwise order)."""
