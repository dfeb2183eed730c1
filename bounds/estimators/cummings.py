r"""Cummings et al. (2022)'s private estimators for heterogeneous users (central user-level ε-DP).

Pure functions on sufficient statistics: each user's empirical frequency
:math:`\hat p_i = \mathrm{Bin}(k_i, p_i)/k_i` (replications × users), the counts :math:`k_i`,
and a ``numpy.random.Generator``.  The deterministic pieces (weights, :math:`T^*`,
intervals, Algorithm 2's groups and plug-ins) are :mod:`bounds.cummings`.

Examples
--------
>>> import numpy as np
>>> from bounds.estimators import cummings
>>> plan = cummings.ideal_plan([50, 20, 10, 5, 5], p=0.5, sigma_p2=0.01, eps=1.0)
>>> cummings.ideal(np.full((2, 5), 0.5), plan, rng=np.random.default_rng(0)).shape
(2,)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .. import cummings as theory
from .. import mechanisms
from ..numerics import check_integer, check_positive, check_real, check_rng
from ._inputs import MAX_EXACT, of_type, reals, same_shape
from ..mechanisms import RNGLike

__all__ = [
    "laplace_scale",
    "IdealPlan",
    "ideal_plan",
    "ideal",
    "initial_mean",
    "initial_variance",
    "initial_error",
    "realisable",
    "final_release",
]

P_FLOOR = 1e-3  # the initial mean is kept in [P_FLOOR, 1 - P_FLOOR] so that p(1 - p) > 0


def laplace_scale(weights: ArrayLike, a: ArrayLike, b: ArrayLike, *, eps: float) -> float:
    r"""The Laplace scale of the weighted clipped mean: its sensitivity over ε.

    Changing user :math:`i`'s data moves :math:`w_i[\hat p_i]_{a_i}^{b_i}` by at most
    :math:`w_i|b_i - a_i|`:

    .. math:: b = \frac{\max_i w_i|b_i - a_i|}{\epsilon}

    Source: Cummings et al. (2022), eq. (3) and Algorithm 2 (step 14, :math:`\Lambda/\epsilon`).

    Examples
    --------
    >>> laplace_scale(np.array([0.5, 0.25]), np.array([0.2, 0.0]), np.array([0.4, 1.0]), eps=0.5)
    0.5
    """
    w = reals("weights", weights, ndim=1, low=0)
    lo = same_shape("a", reals("a", a, ndim=1), w.shape)
    hi = same_shape("b", reals("b", b, ndim=1), w.shape)
    if np.any(hi < lo):
        i = int(np.argmax(hi < lo))
        raise ValueError(f"b must be >= a for every user (intervals [a_i, b_i]), got a[{i}] = {lo[i]!r} > b[{i}] = {hi[i]!r}")
    eps = check_positive("eps", eps)
    with np.errstate(over="ignore"):
        return float(np.max(w * np.abs(hi - lo), initial=0.0)) / eps


@dataclass(frozen=True)
class IdealPlan:
    """The ideal estimator's weights (4) at the exact :math:`T^*` (6), clip ends ``a``, ``b`` and Laplace ``scale``."""

    weights: np.ndarray
    a: np.ndarray
    b: np.ndarray
    scale: float
    T: float


def ideal_plan(k: ArrayLike, *, p: float, sigma_p2: float, eps: float, beta: float = 0.05) -> IdealPlan:
    r"""The ideal estimator's deterministic pieces, knowing :math:`p` and :math:`\sigma_p^2`.

    Intervals :math:`[a_i, b_i] = p \mp f_i` (:func:`~bounds.cummings.concentration`),
    weights :math:`w_i^*` at the optimal truncation :math:`T^*` of eq. (6), and
    :func:`laplace_scale`.

    .. math:: w_i^* = \frac{\min(1/\sigma_i^2, T^*)}{\sum_j \min(1/\sigma_j^2, T^*)},\qquad b = \frac{\max_i w_i^*|b_i - a_i|}{\epsilon}

    Source: Cummings et al. (2022), eqs. (3)–(6).

    Examples
    --------
    >>> plan = ideal_plan([10, 10], p=0.5, sigma_p2=0.0, eps=1.0)
    >>> plan.weights.tolist()
    [0.5, 0.5]
    """
    eps = check_positive("eps", eps)
    p, sigma_p2 = check_real("p", p, low=0, high=1, low_open=True, high_open=True), check_real("sigma_p2", sigma_p2, low=0)
    s2 = theory.user_variance(k, p=p, sigma_p2=sigma_p2)
    f = theory.concentration(k, p=p, sigma_p2=sigma_p2, beta=beta)
    trunc = theory.optimal_truncation(s2, 2 * f, eps=eps)
    a, b = p - f, p + f
    return IdealPlan(trunc.weights, a, b, laplace_scale(trunc.weights, a, b, eps=eps), trunc.T)


def ideal(phat: ArrayLike, plan: IdealPlan, *, rng: RNGLike) -> np.ndarray:
    r"""The ideal estimator in each replication (rows of ``phat``).

    .. math:: \hat p^{ideal}_\epsilon = \sum_i w_i^* [\hat p_i]_{a_i}^{b_i} + \mathrm{Lap}(b)

    Source: Cummings et al. (2022), eq. (3).

    Examples
    --------
    >>> plan = IdealPlan(np.array([0.5, 0.5]), np.zeros(2), np.full(2, 0.6), 0.0, 1.0)
    >>> ideal(np.array([[0.2, 0.9]]), plan, rng=np.random.default_rng(0)).round(6).tolist()
    [0.4]
    """
    of_type("plan", plan, IdealPlan)
    phat = reals("phat", phat, ndim=2, low=0, high=1)
    same_shape("phat", phat, (phat.shape[0], plan.weights.size))
    est = (plan.weights * np.clip(phat, plan.a, plan.b)).sum(axis=1)
    return est + mechanisms.laplace(plan.scale, rng, size=est.shape)


def initial_mean(first: ArrayLike, *, eps: float, rng: RNGLike) -> float:
    r"""Algorithm 2's private initial mean: the mean of one sample of each of the least-data users, plus Laplace.

    One user changes the mean of ``m`` bits by at most :math:`1/m`:

    .. math:: \hat p = \Big[\frac1m\sum_{i} x_i^1 + \mathrm{Lap}\Big(\frac{1}{m\epsilon}\Big)\Big]_{10^{-3}}^{1 - 10^{-3}}

    Source: Cummings et al. (2022), Algorithm 2 (the initial mean estimate, ε-DP).

    Examples
    --------
    >>> initial_mean(np.array([1, 0, 1, 0]), eps=1e12, rng=np.random.default_rng(0))
    0.5
    """
    first = reals("first", first, ndim=1, low=0, high=1)
    scale = 1 / (first.size * check_positive("eps", eps))
    return float(np.clip(first.mean() + mechanisms.laplace(scale, rng), P_FLOOR, 1 - P_FLOOR))


def initial_variance(means: ArrayLike, *, eps: float, p_initial: float, rng: RNGLike) -> float:
    r"""Algorithm 2's private initial :math:`\sigma_p^2`: the most-data users' sample variance, plus Laplace.

    The sample variance of ``m`` values in :math:`[0, 1]` moves by at most :math:`1/m` when
    one changes; the result is clipped to :math:`[0, \hat p(1 - \hat p)]`.

    .. math:: \hat\sigma_p^2 = \Big[s^2(\hat p_{(1)}, \dots, \hat p_{(m)}) + \mathrm{Lap}\Big(\frac{1}{m\epsilon}\Big)\Big]_0^{\hat p(1-\hat p)}

    Source: Cummings et al. (2022), Algorithm 2 (the initial variance estimate, ε-DP).

    Examples
    --------
    >>> initial_variance(np.array([0.25, 0.75]), eps=1e12, p_initial=0.5, rng=np.random.default_rng(0))
    0.125
    """
    means = reals("means", means, ndim=1, low=0, high=1)
    p_initial = check_real("p_initial", p_initial, low=0, high=1)
    var = float(means.var(ddof=1)) if means.size > 1 else 0.0
    scale = 1 / (means.size * check_positive("eps", eps))
    return float(np.clip(var + mechanisms.laplace(scale, rng), 0.0, p_initial * (1 - p_initial)))


def initial_error(m_mean: int, *, eps: float, beta: float) -> float:
    r"""The accuracy :math:`\alpha` of the initial mean at level :math:`\beta`: a Laplace tail plus Hoeffding.

    .. math:: \alpha = \frac{\log(2/\beta)}{m\epsilon} + \sqrt{\frac{\log(4/\beta)}{2m}}

    Source: Cummings et al. (2022), Algorithm 2 (the α of the intervals :math:`\hat p \mp (\alpha + f_i)`).

    Examples
    --------
    >>> round(initial_error(100, eps=1.0, beta=0.05), 6)
    0.18491
    """
    m_mean = check_integer("m_mean", m_mean, minimum=1, maximum=MAX_EXACT)
    eps, beta = check_positive("eps", eps), check_real("beta", beta, low=0, high=1, low_open=True, high_open=True)
    return math.log(2 / beta) / (m_mean * eps) + math.sqrt(math.log(4 / beta) / (2 * m_mean))


def realisable(phat: ArrayLike, first: ArrayLike, k: ArrayLike, *, eps: float, beta: float, rng: RNGLike) -> float:
    r"""Algorithm 2 on one dataset: private initial estimates, then the final group's weighted clipped mean.

    ``phat``: all users' frequencies; ``first``: one sample of each user of the mean group
    (the :math:`n/10` with least data).  Each step is ε-DP on its own disjoint group of users.

    .. math:: \hat p_\epsilon = \sum_{i \in \text{final}} \hat w_i [\hat p_i]_{\hat a_i}^{\hat b_i} + \mathrm{Lap}\Big(\frac{\max_i \hat w_i|\hat b_i - \hat a_i|}{\epsilon}\Big)

    Source: Cummings et al. (2022), Algorithm 2.

    Examples
    --------
    >>> k = np.array([2**j for j in range(10, 0, -1)] * 3)
    >>> p = realisable(np.full(k.size, 0.5), np.array([1, 0, 1]), k, eps=1e9, beta=0.05, rng=np.random.default_rng(0))
    >>> round(p, 6)
    0.5
    """
    rng = check_rng("rng", rng)
    var_g, _, mean_g = theory.groups(k)
    phat = same_shape("phat", reals("phat", phat, ndim=1, low=0, high=1), (np.size(k),))
    p0 = initial_mean(first, eps=eps, rng=rng)
    var = initial_variance(phat[var_g], eps=eps, p_initial=p0, rng=rng)
    err = initial_error(mean_g.size, eps=eps, beta=beta)
    pl = theory.realisable_plan(k, p_initial=p0, sigma_p2_hat=var, tolerance=err, eps=eps, beta=beta)
    return float(final_release(phat, pl, eps=eps, rng=rng)[0])


def final_release(phat: ArrayLike, plan: theory.RealisablePlan, *, eps: float, rng: RNGLike) -> np.ndarray:
    r"""Algorithm 2's last step: the final group's weighted clipped mean plus Laplace noise, given the plan.

    ``phat``: all users' frequencies (one row per replication, or one row); ``plan`` a
    :class:`~bounds.cummings.RealisablePlan`.

    .. math:: \hat p_\epsilon = \sum_{i \in \text{final}} \hat w_i [\hat p_i]_{\hat a_i}^{\hat b_i} + \mathrm{Lap}\Big(\frac{\max_i \hat w_i|\hat b_i - \hat a_i|}{\epsilon}\Big)

    Source: Cummings et al. (2022), Algorithm 2 (steps 13–14).

    Examples
    --------
    >>> k = np.array([2**j for j in range(10, 0, -1)] * 3)
    >>> pl = theory.realisable_plan(k, p_initial=0.5, sigma_p2_hat=0.01, tolerance=0.1, eps=1.0)
    >>> final_release(np.full(k.size, 0.5), pl, eps=1e12, rng=np.random.default_rng(0)).round(6).tolist()
    [0.5]
    """
    of_type("plan", plan, theory.RealisablePlan)
    phat = reals("phat", np.atleast_2d(phat) if isinstance(phat, (list, np.ndarray)) else phat, ndim=2, low=0, high=1)
    if phat.shape[1] <= int(np.max(plan.final_group, initial=-1)):
        raise ValueError(f"phat must hold every user's frequency, got {phat.shape[1]} columns")
    clipped = np.clip(phat[:, plan.final_group], plan.a_hat, plan.b_hat)
    scale = laplace_scale(plan.weights, plan.a_hat, plan.b_hat, eps=eps)
    return clipped @ plan.weights + mechanisms.laplace(scale, rng, size=phat.shape[0])
