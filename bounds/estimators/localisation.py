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

import numpy as np
from numpy.typing import ArrayLike

from .. import mechanisms
from ..numerics import check_integer, check_positive, check_rng
from ._inputs import MAX_INT64_COUNT, reals, same_shape, whole
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
    "localise",
]

VOTE_ONES = 3  # a vote has ones on the voter's bin and its two neighbours: k = 3 in Lemma 16
"""The number of ones in a localisation vote (the voter's bin and its two neighbours): :math:`k = 3` in the keep
probability :math:`e^{\\alpha/(2k)}/(1 + e^{\\alpha/(2k)})` (Kent et al. (2024), Lemma 16; Pla et al. (2024),
eq. (6))."""
MAX_BINS = 10**7  # one array entry per bin and replication


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
    x = reals("x", x, low=-1, high=1, allow_empty=True)
    return np.clip(np.floor((x + 1) / (2 * float(tau))).astype(np.int64), 0, N - 1)


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
    lo = -1 + 2 * tau * j
    return lo, np.minimum(lo + 2 * tau, 1.0)


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
    lo, hi = bin_ends(j, tau)
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
    return 14 * check_positive("tau", tau) / check_positive("alpha", alpha)


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
    xbar = reals("xbar", xbar, ndim=2, low=-1, high=1)
    voting = np.asarray(voting)
    if voting.dtype != bool:
        raise ValueError(f"voting must be a boolean mask, got dtype {voting.dtype}")
    same_shape("voting", voting, xbar.shape)
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


def localise(xbar: ArrayLike, voting: ArrayLike, tau: float, alpha: float, n_voters: int, rng: RNGLike) -> np.ndarray:
    r"""The elected bin :math:`\hat j` of each replication (rows), from local means and a voting mask.

    Voters put ones on the bins :math:`j-1, j, j+1` around theirs (:func:`vote_counts`);
    every one of the ``n_voters`` users' bits is randomised with :math:`k = 3`
    (:func:`~bounds.mechanisms.noisy_vote_totals`); :func:`elect` picks the winner.

    .. math:: \hat j = \arg\max_j \Big[\mathrm{Bin}(c_j, \pi_\alpha) + \mathrm{Bin}(n_v - c_j, 1 - \pi_\alpha)\Big],\qquad \pi_\alpha = \frac{e^{\alpha/6}}{1 + e^{\alpha/6}}

    Source: Pla et al. (2024), eqs. (5)–(7); Kent et al. (2024), eqs. (26)–(28).

    Examples
    --------
    >>> x = np.full((2, 50), 0.3)
    >>> j = localise(x, np.ones(x.shape, bool), 0.25, 50.0, 50, np.random.default_rng(0))
    >>> set(j.tolist()) <= {1, 2, 3}  # bins 1, 2, 3 each hold all 50 votes: a tie, broken at random
    True
    """
    rng = check_rng("rng", rng)
    counts = vote_counts(xbar, voting, tau)
    n_voters = check_integer("n_voters", n_voters, minimum=max(1, int(counts.max(initial=0))), maximum=MAX_INT64_COUNT)
    alpha = check_positive("alpha", alpha)
    totals = mechanisms.noisy_vote_totals(counts, n_voters, alpha=alpha, k=VOTE_ONES, rng=rng)
    return elect(totals, rng)
