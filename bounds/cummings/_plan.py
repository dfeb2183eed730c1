r"""Cummings et al. (2022), Algorithm 2: its deterministic parts (the groups and the realisable plan)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..numerics import check_real
from ._weights import _MAX_TOLERANCE, _SIGMA2_RANGE, _k, _p, _sigma_p2, concentration, optimal_truncation, user_variance

# =========================================================================== Algorithm 2 (deterministic parts)


@dataclass(frozen=True)
class RealisablePlan:
    """Algorithm 2's deterministic pieces: the three groups (index arrays into users sorted
    by decreasing ``k``), the plug-in ``sigma2_hat``, ``a_hat``, ``b_hat`` of the final group,
    ``T_hat``, its ``weights`` and the Laplace sensitivity ``Lambda`` (step 14)."""

    mean_group: np.ndarray
    variance_group: np.ndarray
    final_group: np.ndarray
    sigma2_hat: np.ndarray
    a_hat: np.ndarray
    b_hat: np.ndarray
    T_hat: float
    weights: np.ndarray
    Lambda: float


def groups(k: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Algorithm 2's three groups, as indices into ``k``: ``(variance, final, mean)``.

    Users sorted by decreasing :math:`k_i`: the :math:`\lceil \log n \rceil` with most data
    estimate the variance, the :math:`\lfloor n/10 \rfloor` with least data the mean (from their
    first samples), the rest form the final estimate.

    .. math:: [1, \lceil\log n\rceil],\quad (\lceil\log n\rceil, n - \lfloor n/10\rfloor],\quad (n - \lfloor n/10 \rfloor, n]

    Source: Cummings et al. (2022), Algorithm 2 (steps 2–5).

    Examples
    --------
    >>> [g.tolist() for g in groups([1, 9, 5, 7, 3, 8, 2, 6, 4, 10, 11])]
    [[10, 9, 1], [5, 3, 7, 2, 8, 4, 6], [0]]
    """
    kk = _k(k)
    n = kk.size
    order = np.argsort(-kk, kind="stable")
    n_var = max(1, math.ceil(math.log(n)))
    n_mean = max(1, n // 10)
    if n_var + n_mean >= n:
        raise ValueError(f"k holds {n} users: no final group is left after the ceil(log n) + n/10 = {n_var + n_mean} "
                         "of the variance and mean groups")
    return order[:n_var], order[n_var : n - n_mean], order[n - n_mean :]


def realisable_plan(k: ArrayLike, *, p_initial: float, sigma_p2_hat: float, tolerance: float, eps: float,
                    beta: float = 0.05, laplace: str = "printed") -> RealisablePlan:
    r"""Algorithm 2 given the private initial estimates: groups, plug-ins, :math:`\hat T^*`, weights.

    Users are sorted by decreasing :math:`k_i`.  Groups: the :math:`\lceil\log n\rceil` users
    with most data (initial variance), the :math:`n/10` with least (initial mean, from their
    first samples), the rest (final estimate).  For the final group (steps 5–12):

    .. math:: \hat\sigma_i^2 = \frac{\hat p(1-\hat p)}{k_i} + \Big(1 - \frac1{k_i}\Big)\hat\sigma_p^2,\quad
              [\hat a_i, \hat b_i] = \hat p \mp \big(\alpha + f^{k_i}_{\mathcal D}(n, \hat\sigma_p^2, \beta)\big),

    :math:`\hat T^*` from :func:`optimal_truncation`, and step 14's
    :math:`\Lambda = \max_i \hat w_i |\hat b_i - \hat a_i|`.  The private initial estimators
    and the simulation belong to the Monte Carlo layer.

    ``tolerance`` is the paper's :math:`\alpha`, the error of the initial estimates (not an
    LDP level), and ``beta`` the failure probability :math:`\beta` of the widths.

    Source: Cummings et al. (2022), Algorithm 2 and Lemma 4.2.

    Examples
    --------
    >>> plan = realisable_plan([2**j for j in range(20, 0, -1)], p_initial=0.5, sigma_p2_hat=0.01, tolerance=0.01, eps=1.0)
    >>> len(plan.variance_group), len(plan.mean_group), len(plan.final_group)
    (3, 2, 15)
    """
    kk = _k(k)
    n = kk.size
    if n < 3:
        raise ValueError(f"k must hold at least 3 users (Algorithm 2's three groups), got {n}")
    p_hat = _p(p_initial, "p_initial")
    s2_hat = _sigma_p2(sigma_p2_hat, p_hat, "sigma_p2_hat (with p_initial)")
    tolerance = check_real("tolerance", tolerance, low=0, high=_MAX_TOLERANCE)
    var_g, final_g, mean_g = groups(kk)
    kf = kk[final_g]
    s2 = user_variance(kf, p=p_hat, sigma_p2=s2_hat)
    if np.any(s2 < _SIGMA2_RANGE[0]):
        raise ValueError(f"p_initial = {p_initial!r} and sigma_p2_hat = {sigma_p2_hat!r} give user variances below "
                         f"{_SIGMA2_RANGE[0]:g}: the truncation of eq. (6) needs positive variances")
    half = tolerance + concentration(kf, p=p_hat, sigma_p2=s2_hat, n=n, beta=beta)
    a_hat, b_hat = p_hat - half, p_hat + half
    trunc = optimal_truncation(s2, b_hat - a_hat, eps=eps, laplace=laplace)
    Lam = float(np.max(trunc.weights * (b_hat - a_hat)))
    return RealisablePlan(mean_g, var_g, final_g, s2, a_hat, b_hat, trunc.T, trunc.weights, Lam)
