r"""Duchi et al.'s one-dimensional LDP mean estimator, the baseline of Pla et al. (2024), Fig. 1b.

Each user privatises its local mean :math:`\bar X_u \in [-1, 1]` with
:func:`~bounds.mechanisms.duchi` (output :math:`\pm B`, mean :math:`\bar X_u`); the server
averages.  With i.i.d. users of mean :math:`\theta` the number of :math:`+B` outputs is one
binomial, the sufficient statistic the Monte Carlo layer draws.

Examples
--------
>>> import numpy as np
>>> from bounds.estimators import duchi
>>> duchi.from_count(np.array([0, 5, 10]), 10, alpha=np.log(3)).tolist()  # B = 2
[-2.0, 0.0, 2.0]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .. import mechanisms
from ..numerics import check_integer, check_real
from ._inputs import MAX_EXACT, MAX_INT64_COUNT, reals, whole
from ..mechanisms import RNGLike

__all__ = ["from_count", "estimate", "from_local_means", "variance"]


def from_count(k: ArrayLike, n: int, *, alpha: float) -> np.ndarray:
    r"""The server's average of ``n`` outputs :math:`\pm B` of which ``k`` are :math:`+B`.

    .. math:: \hat\theta = \frac{B k - B(n - k)}{n} = B\Big(\frac{2k}{n} - 1\Big),\qquad B = \frac{e^\alpha + 1}{e^\alpha - 1}

    Source: Duchi et al. (2018), as the baseline of Pla et al. (2024), §4.2.

    Examples
    --------
    >>> from_count(np.array([3]), 4, alpha=np.log(3)).tolist()
    [1.0]
    """
    n = check_integer("n", n, minimum=1, maximum=MAX_INT64_COUNT)
    k = whole("k", k)
    if np.any(k > n):
        raise ValueError(f"k must be at most n = {n}, got {k.max()}")
    return mechanisms.duchi_bound(alpha) * (2 * k / n - 1)


def estimate(n: int, theta: ArrayLike, *, alpha: float, rng: RNGLike,
             size: int | tuple[int, ...] | None = None) -> np.ndarray:
    r"""Sufficient-statistic path: ``size`` replications of the estimate at ``n`` i.i.d. users of mean ``theta``.

    .. math:: \hat\theta = B\Big(\frac{2K}{n} - 1\Big),\qquad K \sim \mathrm{Bin}\Big(n, \frac12 + \frac{\theta}{2B}\Big)

    Source: Duchi et al. (2018); Pla et al. (2024), §4.2 (Fig. 1b's baseline).

    Examples
    --------
    >>> estimate(10, 0.0, alpha=1.0, rng=0, size=3).shape
    (3,)
    """
    n = check_integer("n", n, minimum=1, maximum=MAX_EXACT, why="the count of +B outputs must be exact in float64")
    theta = check_real("theta", theta, low=-1, high=1)
    if size is not None:
        size = check_integer("size", size, minimum=0, maximum=mechanisms.MAX_DRAWS)
    k = mechanisms.duchi_plus_count(n, theta, alpha=alpha, rng=rng, size=size)
    return from_count(k, n, alpha=alpha)


def estimate_checked(n: int, theta: float, B: float, rng: np.random.Generator, size: int) -> np.ndarray:
    """:func:`estimate` of checked inputs, ``B`` = :func:`~bounds.mechanisms.duchi_bound` at α: the same draw and
    arithmetic without the checks."""
    return B * (2 * rng.binomial(n, 0.5 + theta / (2 * B), size=size) / n - 1)


def from_local_means(xbar: ArrayLike, *, alpha: float, rng: RNGLike) -> np.ndarray:
    r"""Explicit path: each row's users privatise their local means with :math:`\pm B`; the server averages.

    .. math:: \hat\theta = \frac1n\sum_u Z_u,\qquad P(Z_u = +B \mid \bar X_u) = \frac12 + \frac{\bar X_u}{2B}

    Source: Duchi et al. (2018); Pla et al. (2024), §4.2.

    Examples
    --------
    >>> bool(abs(from_local_means(np.zeros((1, 4)), alpha=1.0, rng=0)[0]) <= 1 / np.tanh(0.5))
    True
    """
    xbar = np.atleast_2d(reals("xbar", xbar, low=-1, high=1))
    if xbar.ndim != 2 or xbar.shape[1] == 0:
        raise ValueError(f"xbar must be replications × users with at least one user, got shape {xbar.shape}")
    return mechanisms.duchi(xbar, alpha=alpha, rng=rng).mean(axis=1)


def variance(theta: ArrayLike, n: int, *, alpha: float) -> float:
    r"""The estimator's exact variance (= its risk, it is unbiased) at ``n`` i.i.d. users of mean ``theta``.

    Each output is :math:`\pm B` with mean :math:`\theta`, so :math:`E Z^2 = B^2`:

    .. math:: E(\hat\theta - \theta)^2 = \frac{B^2 - \theta^2}{n}

    Source: Duchi et al. (2018); Pla et al. (2024), §4.2.

    Examples
    --------
    >>> variance(0.0, 4, alpha=np.log(3))  # B² / n
    1.0
    """
    n = check_integer("n", n, minimum=1, maximum=MAX_INT64_COUNT)
    theta = check_real("theta", theta, low=-1, high=1)
    B = mechanisms.duchi_bound(alpha)
    return (B * B - theta**2) / n
