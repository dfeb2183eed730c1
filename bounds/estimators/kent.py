r"""Kent, Berrett & Yu's estimators under user-level LDP (the theory is :mod:`bounds.kent`).

Pure functions on sufficient statistics: each user's local mean over its first
:math:`T^*` samples (arrays of replications × users) and a ``numpy.random.Generator``.

Examples
--------
>>> import numpy as np
>>> from bounds.estimators import kent
>>> T, tau = kent.cap(n=400, T=50, alpha=1.0)
>>> x = np.full((1, 400), 0.25)
>>> kent.univariate(x, tau=tau, alpha=1.0, rng=np.random.default_rng(0)).shape
(1,)
"""

from __future__ import annotations

import numpy as np

from .. import kent as theory
from .. import mechanisms
from . import localisation

__all__ = ["cap", "interval", "laplace_scale", "localise", "refine", "univariate"]


# =========================================================================== univariate procedure, eqs. (25)-(30)


def cap(*, n: int, T: int, alpha: float, K: float = 1.0) -> tuple[int, float]:
    r"""Step 1: the cap :math:`T^*` on the samples each user keeps, and the bins' half-width :math:`\tau`.

    .. math:: T^* = \min\{T, e^{n\alpha^2/K}\},\qquad \tau = \sqrt{\frac{2\log(nT^*\alpha^2)}{T^*}}

    Source: Kent et al. (2024), eq. (25) (:func:`bounds.kent.estimator_cap`).

    Examples
    --------
    >>> cap(n=100, T=10**6, alpha=0.2)
    (54, 0.4461887330...)
    """
    return theory.estimator_cap(n=n, T=T, alpha=alpha, K=K)


def interval(j, tau: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The enlarged interval :math:`\tilde I = [\hat L - 6\tau, \hat U + 6\tau]` (within :math:`[-1, 1]`, same clip).

    .. math:: \tilde I = [\hat L - 6\tau,\ \hat U + 6\tau]

    Source: Kent et al. (2024), eq. (29) (:func:`~bounds.estimators.localisation.enlarged_interval`).

    Examples
    --------
    >>> [round(float(v), 12) for v in interval(3, 0.1)]  # bin 3 is [-0.4, -0.2)
    [-1.0, 0.4]
    """
    return localisation.enlarged_interval(j, tau)


def laplace_scale(tau: float, alpha: float) -> float:
    r"""The refinement's Laplace scale: the enlarged interval's width :math:`14\tau` over :math:`\alpha`.

    .. math:: b = \frac{14\tau}{\alpha}

    Source: Kent et al. (2024), eq. (30).

    Examples
    --------
    >>> laplace_scale(0.5, 7.0)
    1.0
    """
    return localisation.refinement_scale(tau, alpha)


def localise(xbar, *, tau: float, alpha: float, rng) -> np.ndarray:
    r"""Step 2: every user of the first half votes; the elected bin of each replication.

    .. math:: \hat j = \arg\max_j \sum_{i \le n/2}\tilde V_{ij},\qquad V_{ij} = \mathbb 1\{\bar X_i \in I_{j-1} \cup I_j \cup I_{j+1}\}

    Source: Kent et al. (2024), eqs. (26)–(28).

    Examples
    --------
    >>> localise(np.full((1, 30), -0.95), tau=0.2, alpha=1e3, rng=np.random.default_rng(0)).tolist()  # bin 0 or 1
    [0]
    """
    voting = np.ones(xbar.shape, dtype=bool)
    return localisation.localise(xbar, voting, tau, alpha, xbar.shape[1], rng)


def refine(xbar, j, *, tau: float, alpha: float, rng) -> np.ndarray:
    r"""Step 3: the second half's clipped local means plus Laplace noise, averaged.

    .. math:: \hat\theta = \frac2n\sum_{i > n/2}\Big(\Pi_{\tilde I}(\bar X_i) + \frac{14\tau}{\alpha}\ell_i\Big),\qquad \ell_i \sim \mathrm{Lap}(1)

    Source: Kent et al. (2024), eq. (30).

    Examples
    --------
    >>> refine(np.full((1, 8), 0.9), np.array([0]), tau=0.1, alpha=1e12, rng=np.random.default_rng(0)).round(6).tolist()
    [-0.2]
    """
    L, U = interval(j, tau)
    z = np.clip(xbar, L[:, None], U[:, None])
    z = z + mechanisms.laplace(laplace_scale(tau, alpha), rng, size=z.shape)
    return z.mean(axis=1)


def univariate(xbar, *, tau: float, alpha: float, rng) -> np.ndarray:
    r"""The univariate two-phase procedure on local means over :math:`T^*` samples (replications × n, n even).

    .. math:: \hat\theta = \frac2n\sum_{i > n/2}\Big(\Pi_{\tilde I}(\bar X_i) + \frac{14\tau}{\alpha}\ell_i\Big)

    Source: Kent et al. (2024), eqs. (25)–(30).

    Examples
    --------
    >>> univariate(np.full((1, 200), 0.5), tau=0.2, alpha=1e9, rng=np.random.default_rng(0)).round(6).tolist()
    [0.5]
    """
    h = xbar.shape[1] // 2
    j = localise(xbar[:, :h], tau=tau, alpha=alpha, rng=rng)
    return refine(xbar[:, h:], j, tau=tau, alpha=alpha, rng=rng)
