r"""Cummings et al. (2022), Corollary 5.5: the lower bound and its :math:`k^*`."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..numerics import check_positive, check_real
from ._weights import _k, _over_eps2

# =========================================================================== Corollary 5.5


def _k_objective(kk: np.ndarray, cand: np.ndarray, eps: float) -> np.ndarray:
    """(k/ε² + Σ min(k_i, k)) / (Σ min(k_i, k))² at each candidate ``k``, times ε² when ε < 1.

    Prefix sums are exact Python integers (no int64 wrap-around); the scaling by a
    positive constant keeps the argmin and keeps ``k/ε²`` finite.
    """
    ks = np.sort(kk)
    pre = np.concatenate([[0], np.cumsum(ks.astype(object))])
    below = np.searchsorted(ks, cand, side="right")  # users with k_i <= k
    used = (pre[below] + (ks.size - below).astype(object) * cand.astype(object)).astype(float)
    c = cand.astype(float)
    head = c / eps / eps + used if eps >= 1 else c + eps * eps * used
    return head / used**2


def k_star(k: ArrayLike, *, eps: float) -> int:
    r"""The exact integer :math:`k^*` of Corollary 5.5.

    .. math:: k^* = \arg\min_{k \in \mathbb N^*} \frac{k/\epsilon^2 + \sum_i \min\{k_i, k\}}{(\sum_i \min\{k_i, k\})^2}

    On a piece where :math:`\sum_i \min\{k_i, k\} = A + Bk`, the objective as a function of
    :math:`z = A + Bk` is :math:`(c_1 z - c_0)/z^2` with :math:`c_0, c_1 \ge 0`: it rises,
    then falls, so its minimum over the piece is at an end.  Below :math:`\min_i k_i` it
    decreases, above :math:`\max_i k_i` it increases: the argmin is one of the distinct
    :math:`k_i` (the smallest on ties).

    Source: Cummings et al. (2022), §5.2 (definition of :math:`k^*`) and Corollary 5.5.

    Examples
    --------
    >>> k_star([10, 10, 10], eps=100.0)
    10
    """
    kk = _k(k)
    eps = check_positive("eps", eps)
    cand = np.unique(kk)
    vals = _k_objective(kk, cand, eps)
    return int(cand[int(np.argmin(vals))])


@dataclass(frozen=True)
class LowerBound:
    r"""Corollary 5.5's bound ``value`` = ``min(privacy_term, statistical_term)`` (up to polylog factors)."""

    value: float
    privacy_term: float
    statistical_term: float
    k_star: int


def lower_bound(k: ArrayLike, *, eps: float, sigma_p2: float) -> LowerBound:
    r"""Corollary 5.5, as stated: the minimax variance of unbiased private estimators is at least

    .. math:: \tilde\Omega\Big(\min\Big\{\frac{k^*/\epsilon^2 + \sum_i \min\{k_i, k^*\}}
              {\big(\sum_i \min\{k_i, \sqrt{k_i k^*}\}\big)^2},\ \frac{\sigma_p^2}{n}\Big\}\Big)

    returned without the polylogarithmic factors.  With :math:`\sigma_p = 0` the minimum
    is 0 — the bound as stated is vacuous there, although the text motivates
    :math:`k^*` by that very case (``docs/choices.md`` §3); ``privacy_term`` keeps the
    first term.

    Source: Cummings et al. (2022), Corollary 5.5.

    Examples
    --------
    >>> lb = lower_bound([4, 1], eps=1.0, sigma_p2=0.0)
    >>> lb.value, lb.k_star
    (0.0, 4)
    """
    kk = _k(k)
    eps = check_positive("eps", eps)
    sigma_p2 = check_real("sigma_p2", sigma_p2, low=0)
    ks = k_star(kk, eps=eps)
    used = float(sum(np.minimum(kk, ks).tolist()))
    root = math.fsum(np.minimum(kk, np.sqrt(kk.astype(float)) * math.sqrt(ks)))
    privacy = (_over_eps2(ks, eps) + used) / root / root
    statistical = sigma_p2 / kk.size
    return LowerBound(min(privacy, statistical), privacy, statistical, ks)
