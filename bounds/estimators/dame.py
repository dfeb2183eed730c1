r"""DAME, Algorithm 1 of Pla et al. (2024): localisation by vote, then a debiased, clipped, noisy mean.

Pure functions on sufficient statistics: users' dataset sizes ``m`` and local means
``xbar`` (arrays of replications × users), a ``numpy.random.Generator``.  The first half
of the users (those with :math:`m \ge \tilde m`) vote for the bin of half-width
:math:`\tau` (eq. (4)) holding their local mean; the second half shrink their local mean
towards the elected bin's centre with weight :math:`\sqrt{m \wedge \tilde m}/\sqrt{\tilde m}`
(eq. (8)), clip it to the enlarged interval and add Laplace noise; the server debiases
(eq. (9)).

Examples
--------
>>> import numpy as np
>>> from bounds import sizes
>>> from bounds.estimators import dame
>>> d = dame.debiasing(sizes.point(100), 100)
>>> m = np.full((1, 400), 100)
>>> est = dame.estimate(m, np.full((1, 400), 0.5), m_tilde=100, alpha=2.0, debias=d, rng=np.random.default_rng(0))
>>> est.shape
(1,)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from .. import dame as theory
from .. import mechanisms
from ..numerics import check_choice, check_integer, check_positive, check_rng
from ..sizes import SizeLaw
from ._inputs import extremes, of_type, reals, same_shape, split, whole
from . import localisation
from ..mechanisms import RNGLike

__all__ = [
    "SCALES",
    "tau",
    "interval",
    "laplace_scale",
    "weights",
    "Debiasing",
    "debiasing",
    "localise",
    "refine",
    "estimate",
    "clip_widths",
]

SCALES = ("paper", "width")
"""The Laplace calibrations of :func:`estimate`: ``"paper"`` (:math:`14\\tau/\\alpha`, Pla et al. (2024), eq.
(8)) and ``"width"`` (the clip interval's width over α)."""
MAX_SIZE = 2**53  # sizes and user counts a float64 holds exactly


def tau(m_tilde: int, *, n: int, alpha: float) -> float:
    r"""The bins' half-width at ``n`` users (the voting half and the releasing half together), eq. (4).

    .. math:: \tau = \sqrt{\frac{2\log\!\big(8(\sqrt{\tilde m\, n\alpha^2} \vee 1)\big)}{\tilde m}}

    Source: Pla et al. (2024), eq. (4) (:func:`bounds.dame.tau`).

    Examples
    --------
    >>> round(tau(1, n=2, alpha=0.5), 6)  # sqrt(2 ln 8)
    2.039334
    """
    m_tilde = check_integer("m_tilde", m_tilde, minimum=1, maximum=MAX_SIZE)
    n, alpha = check_integer("n", n, minimum=2, maximum=MAX_SIZE), check_positive("alpha", alpha)
    x = n * alpha * alpha
    if not 0 < x < math.inf:
        raise ValueError(f"n α² must be positive and finite, got n = {n}, alpha = {alpha!r}")
    return theory.tau(m_tilde, n_alpha2=x)


def interval(j: ArrayLike, tau: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The clip interval :math:`[L_{\hat j}, U_{\hat j}]`: the elected bin enlarged by :math:`6\tau`, within :math:`[-1, 1]`.

    .. math:: L_j = (l_j - 6\tau) \vee (-1),\qquad U_j = (u_j + 6\tau) \wedge 1

    Source: Pla et al. (2024), eq. (8) (:func:`~bounds.estimators.localisation.enlarged_interval`).

    Examples
    --------
    >>> [float(v) for v in interval(0, 0.05)]
    [-1.0, -0.6]
    """
    return localisation.enlarged_interval(j, tau)


def laplace_scale(tau: float, alpha: float, *, scale: str = "paper", L: ArrayLike | None = None,
                  U: ArrayLike | None = None) -> float:
    r"""The Laplace scale of the release: the paper's :math:`14\tau/\alpha`, or the clip width :math:`(U - L)/\alpha`.

    ``scale="paper"`` (the default) is eq. (8): the enlarged interval before intersecting
    with :math:`[-1, 1]` has width :math:`14\tau`.  ``scale="width"`` calibrates to the
    interval actually used, :math:`U_{\hat j} - L_{\hat j} \le 14\tau \wedge 2` (``L``, ``U``
    required): still :math:`\alpha`-LDP since the elected bin is fixed before the second half
    releases, and smaller whenever the interval is cut by :math:`\pm 1` — always when
    :math:`14\tau > 2` (the official DAME code caps the scale at :math:`2/\alpha`).

    .. math:: b_{paper} = \frac{14\tau}{\alpha},\qquad b_{width} = \frac{U_{\hat j} - L_{\hat j}}{\alpha}

    The gain is the Laplace part of the risk, shrunk by :math:`((U - L)/14\tau)^2`.  Simulated
    risks at θ = 0.3 (640 replications, ``simulate.risk("dame", ..., scale=...)``):
    :math:`M = \delta_3`, n = 1000, α = 0.5 (:math:`14\tau = 26.5`): 11.4 ± 0.6 vs 0.065 ± 0.004;
    :math:`M = \delta_{50}`, n = 10⁴, α = 22/35 (:math:`14\tau = 8.0`): 0.061 ± 0.003 vs
    0.0038 ± 0.0002; :math:`M = \delta_{10^5}` (:math:`14\tau = 0.22`): identical.

    Source: Pla et al. (2024), eq. (8).

    Examples
    --------
    >>> laplace_scale(0.5, 1.0), float(laplace_scale(0.5, 1.0, scale="width", L=-1.0, U=1.0))
    (7.0, 2.0)
    """
    scale = check_choice("scale", scale, SCALES)
    # L and U are checked whenever given, also where scale="paper" does not use them
    L = None if L is None else reals("L", L, low=-1, high=1)
    U = None if U is None else reals("U", U, low=-1, high=1)
    if scale == "paper":
        return localisation.refinement_scale(tau, alpha)
    if L is None or U is None:
        raise ValueError("scale='width' needs the clip interval's ends L and U")
    check_positive("tau", tau)
    return (U - L) / check_positive("alpha", alpha)


def weights(m: ArrayLike, m_tilde: int) -> np.ndarray:
    r"""Each releasing user's weight on its local mean (the rest goes to the bin's centre).

    .. math:: w(m) = \frac{\sqrt{m \wedge \tilde m}}{\sqrt{\tilde m}}

    Source: Pla et al. (2024), eq. (8).

    Examples
    --------
    >>> weights(np.array([1, 25, 100, 400]), 100).tolist()
    [0.1, 0.5, 1.0, 1.0]
    """
    m_tilde = check_integer("m_tilde", m_tilde, minimum=1, maximum=MAX_SIZE)
    return _weights(whole("m", m, low=1), m_tilde)


def _weights(m: np.ndarray, m_tilde: int) -> np.ndarray:
    """:func:`weights` of checked sizes."""
    return np.sqrt(np.minimum(m, m_tilde) / m_tilde)


def weights_checked(m: np.ndarray, m_tilde: int) -> np.ndarray:
    """:func:`weights` of checked sizes (the simulation engine's name for it: the same arithmetic, so its bits)."""
    return _weights(m, m_tilde)


@dataclass(frozen=True)
class Debiasing:
    r"""The two constants of eq. (9), from the law :math:`M`: ``correction`` and ``denominator``.

    ``correction`` :math:`= \sum_{i \le \tilde m}(\sqrt{\tilde m} - \sqrt i) M(i)`,
    ``denominator`` :math:`= E[\sqrt{m \wedge \tilde m}]`; ``official`` swaps the denominator
    for the official code's ``mean(min(M, sqrt(m̃)))`` over the releasing users.
    """

    correction: float
    denominator: float
    official: bool = False


def debiasing(sizes: SizeLaw, m_tilde: int, *, denominator: str = "canonical") -> Debiasing:
    r"""Eq. (9)'s constants from the size law, exactly.

    .. math:: \sum_{i \le \tilde m}(\sqrt{\tilde m} - \sqrt i) M(i) = \sqrt{\tilde m}\,P(m \le \tilde m) - E[\sqrt m\,\mathbb 1\{m \le \tilde m\}],\qquad E[\sqrt{m \wedge \tilde m}]

    Source: Pla et al. (2024), eq. (9).

    Examples
    --------
    >>> from bounds import sizes
    >>> d = debiasing(sizes.finite({1: 0.5, 4: 0.5}), 4)  # (2 - 1)/2 and (1 + 2)/2
    >>> d.correction, d.denominator
    (0.5, 1.5)
    """
    of_type("sizes", sizes, SizeLaw)
    mt = check_integer("m_tilde", m_tilde, minimum=1, maximum=MAX_SIZE)
    denominator = check_choice("denominator", denominator, ("canonical", "official"))
    corr = math.sqrt(mt) * (1 - float(sizes.prob_gt(mt))) - float(sizes.partial_sqrt_mean(mt))
    return Debiasing(corr, float(sizes.sqrt_min_mean(mt)), denominator == "official")


def localise(m: ArrayLike, xbar: ArrayLike, *, m_tilde: int, tau: float, alpha: float, rng: RNGLike) -> np.ndarray:
    r"""Phase 1: the elected bin of each replication; only users with :math:`m \ge \tilde m` put ones in their vote.

    ``m``, ``xbar``: the voting half's sizes and local means (replications × users).

    .. math:: \hat j = \arg\max_j \sum_{u \le n/2} \tilde V_{uj},\qquad V_{uj} = \mathbb 1\{m_u \ge \tilde m,\ \bar X_u \in I_{j-1} \cup I_j \cup I_{j+1}\}

    Source: Pla et al. (2024), eqs. (5)–(7).

    Examples
    --------
    >>> x = np.full((1, 40), 0.3)
    >>> int(localise(np.full((1, 40), 9), x, m_tilde=10, tau=0.25, alpha=1e3, rng=np.random.default_rng(0))[0]) in range(4)
    True
    """
    xbar = reals("xbar", xbar, ndim=2, low=-1, high=1)
    m = same_shape("m", whole("m", m, ndim=2, low=1), xbar.shape)
    m_tilde = check_integer("m_tilde", m_tilde, minimum=1, maximum=MAX_SIZE)
    # the voters are the users with m >= m̃ (a long row's mask is made block by block)
    return localisation.localise_checked(xbar, (m, m_tilde), tau, alpha, max(m.shape[1], 1), rng)


def refine(m: ArrayLike, xbar: ArrayLike, j: ArrayLike, *, m_tilde: int, tau: float, alpha: float, debias: Debiasing,
           rng: RNGLike, scale: str = "paper") -> np.ndarray:
    r"""Phase 2: the releasing half's shrunk, clipped, noisy local means, debiased by the server (eqs. (8)–(9)).

    .. math:: \hat x_u = w(m_u)\bar X_u + (1 - w(m_u)) s_{\hat j},\qquad
              \theta_u = [\hat x_u]_{L_{\hat j}}^{U_{\hat j}} + \mathrm{Lap}(b),

    .. math:: \hat\theta = \frac{\sqrt{\tilde m}\,\frac{2}{n}\sum_u \theta_u - \sum_{i \le \tilde m}(\sqrt{\tilde m} - \sqrt i)M(i)\, s_{\hat j}}{E[\sqrt{m \wedge \tilde m}]}

    with :math:`s_{\hat j}` the elected bin's centre and :math:`b` from :func:`laplace_scale`.
    The users' Laplace noises enter only through their sum, drawn exactly by
    :func:`~bounds.mechanisms.laplace_sum` (same law as one draw per user).

    Source: Pla et al. (2024), eqs. (8)–(9).

    Examples
    --------
    >>> d = Debiasing(0.0, 1.0)
    >>> refine(np.full((1, 4), 4), np.full((1, 4), 0.5), np.array([0]), m_tilde=4, tau=5.0, alpha=1e9, debias=d,
    ...        rng=np.random.default_rng(0)).round(6).tolist()
    [1.0]
    """
    of_type("debias", debias, Debiasing)
    xbar = reals("xbar", xbar, ndim=2, low=-1, high=1)
    m = same_shape("m", whole("m", m, ndim=2, low=1), xbar.shape)
    j = same_shape("j", whole("j", j, ndim=1), xbar.shape[:1])
    if xbar.shape[1] == 0:
        raise ValueError("xbar must hold at least one releasing user")
    m_tilde = check_integer("m_tilde", m_tilde, minimum=1, maximum=MAX_SIZE)
    localisation.bin_ends(j, tau)  # j within the bins of tau
    scale = check_choice("scale", scale, SCALES)
    tau, alpha = check_positive("tau", tau), check_positive("alpha", alpha)
    return refine_checked(m, xbar, j, m_tilde, tau, alpha, debias, check_rng("rng", rng), scale)


def _release(j: np.ndarray, tau: float, alpha: float, rng: np.random.Generator, scale: str,
             shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The elected bins' centres ``s``, the intervals ``(L, U)`` and each row's sum of the ``h`` users' Laplace noises,
    ``shape = (B, h)``: :func:`refine`'s release before its clipped means."""
    lo, hi = localisation.bin_ends_checked(j, tau)
    s = (lo + hi) / 2
    L, U = localisation.enlarged_checked(lo, hi, tau)  # interval(j, tau)
    B, h = shape
    # laplace_scale(tau, alpha, scale=scale, L=L, U=U) of checked inputs
    b = localisation.refinement_scale_checked(tau, alpha) if scale == "paper" else (U - L) / alpha
    # the users' noises enter only through their sum: drawn exactly in one go (mechanisms.laplace_sum)
    return s, L, U, mechanisms.laplace_sum_checked(b, h, rng, B)


def release_checked(j: np.ndarray, m_tilde: int, tau: float, alpha: float, debias: Debiasing, rng: np.random.Generator,
                    scale: str, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, Callable[[np.ndarray], np.ndarray]]:
    """:func:`refine_checked` with eq. (9)'s denominator: the interval ``(L, U)``, the noise drawn here as there, and
    the map from each row's mean of clipped (shrunk, where a size is below ``m_tilde``) means to the estimate (its
    arithmetic, so its bits)."""
    s, L, U, noise = _release(j, tau, alpha, rng, scale, shape)
    h = shape[1]

    def finish(mean: np.ndarray) -> np.ndarray:
        theta_bar = mean + noise / h
        return (math.sqrt(m_tilde) * theta_bar - debias.correction * s) / debias.denominator
    return L, U, finish


def refine_checked(m: np.ndarray, xbar: np.ndarray, j: np.ndarray, m_tilde: int, tau: float, alpha: float,
                   debias: Debiasing, rng: np.random.Generator, scale: str, every: bool | None = None) -> np.ndarray:
    """:func:`refine` of checked inputs (``every``: whether every size is at least ``m_tilde``, found from ``m`` if
    ``None``; ``m`` is read only where it is not, or for the official denominator)."""
    if every is None:
        every = bool(extremes(m)[0] >= m_tilde)  # every weight is 1: the shrunk mean is the local mean itself
    B, h = xbar.shape
    s, L, U, noise = _release(j, tau, alpha, rng, scale, (B, h))
    if h > localisation.BLOCK_USERS:  # a long row block by block: the same values, summed in numpy's order

        buf = localisation.block_buffers()[0]  # each block clipped into it, then summed

        def clipped(r: int, a: int, e: int) -> np.ndarray:
            x = xbar[r, a:e]
            if not every:
                w = _weights(m[r, a:e], m_tilde)
                x = w * x + (1 - w) * s[r]
            return np.clip(x, L[r], U[r], out=buf[:e - a])

        theta_bar = localisation.row_sums(clipped, B, h) / h + noise / h
        denom = (localisation.row_sums(lambda r, a, e: np.minimum(m[r, a:e], math.sqrt(m_tilde)), B, h) / h
                 if debias.official else debias.denominator)
    else:
        if every:
            xhat = xbar
        else:
            w = _weights(m, m_tilde)
            xhat = w * xbar + (1 - w) * s[:, None]
        theta_bar = localisation.clipped_row_means(xhat, L, U) + noise / h
        denom = np.minimum(m, math.sqrt(m_tilde)).mean(axis=1) if debias.official else debias.denominator
    return (math.sqrt(m_tilde) * theta_bar - debias.correction * s) / denom


def estimate(m: ArrayLike, xbar: ArrayLike, *, m_tilde: int, alpha: float, debias: Debiasing, rng: RNGLike,
             scale: str = "paper") -> np.ndarray:
    r"""DAME's estimate in each replication (rows): the first half of the users vote, the second half release.

    ``m``, ``xbar``: (replications × n) sizes and local means, ``n`` even.

    .. math:: \hat\theta_{DAME} = \frac{\sqrt{\tilde m}\,\bar\theta - \sum_{i \le \tilde m}(\sqrt{\tilde m} - \sqrt i) M(i)\, s_{\hat j}}{E[\sqrt{m \wedge \tilde m}]}

    Source: Pla et al. (2024), Algorithm 1, eqs. (4)–(9).

    Examples
    --------
    >>> d = Debiasing(0.0, np.sqrt(50))  # every user holds m̃ samples: no correction, E√(m ∧ m̃) = √50
    >>> m, x = np.full((2, 200), 50), np.full((2, 200), -0.2)
    >>> estimate(m, x, m_tilde=50, alpha=1e3, debias=d, rng=np.random.default_rng(1)).round(4).tolist()
    [-0.2, -0.2]
    """
    rng = check_rng("rng", rng)
    xbar = split("xbar", xbar, ndim=2, low=-1, high=1)  # each half is checked by the step that receives it
    m = same_shape("m", split("m", m, ndim=2, integer=True, low=1), xbar.shape)
    n = m.shape[1]
    if n < 2:
        raise ValueError(f"xbar must hold at least two users (a voting and a releasing half), got {n}")
    h = n // 2
    t = tau(m_tilde, n=n, alpha=alpha)
    j = localise(m[:, :h], xbar[:, :h], m_tilde=m_tilde, tau=t, alpha=alpha, rng=rng)
    return refine(m[:, h:], xbar[:, h:], j, m_tilde=m_tilde, tau=t, alpha=alpha, debias=debias, rng=rng, scale=scale)


def estimate_checked(m: np.ndarray, xbar: np.ndarray, m_tilde: int, alpha: float, debias: Debiasing,
                     rng: np.random.Generator, scale: str) -> np.ndarray:
    """:func:`estimate` of inputs valid by construction (the simulation's: sizes >= 1, means in [-1, 1], at least two
    users, checked options): the same steps without reading the inputs to check them."""
    h = m.shape[1] // 2
    t = tau(m_tilde, n=m.shape[1], alpha=alpha)
    j = localisation.localise_checked(xbar[:, :h], (m[:, :h], m_tilde), t, alpha, max(h, 1), rng)
    return refine_checked(m[:, h:], xbar[:, h:], j, m_tilde, t, alpha, debias, rng, scale)


def clip_widths(m_tilde: int, *, n_alpha2: float, alpha: float, scale: str = "paper") -> tuple[np.ndarray, np.ndarray]:
    r"""For every bin :math:`j`: the clip width :math:`U_j - L_j` and the Laplace scale × α it is released with.

    The release is :math:`\alpha`-LDP iff the width is at most scale × α (the sensitivity the
    noise is calibrated to).  Both come from :func:`interval` and :func:`laplace_scale`,
    the functions :func:`refine` runs.

    .. math:: U_j - L_j = (u_j + 6\tau) \wedge 1 - (l_j - 6\tau) \vee (-1) \le \alpha\, b_j

    Source: Pla et al. (2024), Algorithm 1, eq. (8).

    Examples
    --------
    >>> widths, sens = clip_widths(100, n_alpha2=1e4, alpha=0.5)
    >>> bool(np.all(widths <= sens + 1e-12))
    True
    """
    t = theory.tau(check_integer("m_tilde", m_tilde, minimum=1, maximum=MAX_SIZE), n_alpha2=n_alpha2)
    alpha = check_positive("alpha", alpha)
    if 1 / t > localisation.MAX_BINS:
        raise ValueError(f"m_tilde = {m_tilde} and n_alpha2 = {n_alpha2!r} give τ = {t:g}: more than "
                         f"{localisation.MAX_BINS} bins")
    L, U = interval(np.arange(localisation.n_bins(t)), t)
    return U - L, np.broadcast_to(laplace_scale(t, alpha, scale=scale, L=L, U=U) * alpha, L.shape)
