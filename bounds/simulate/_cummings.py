r"""Cummings, Feldman, McMillan & Talwar's estimators, replicated (central user-level ε-DP)."""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .. import cummings as cummings_theory
from ..estimators import cummings
from ..mechanisms import SeedLike
from ..numerics import check_choice, check_counts, check_positive
from ._engine import BLOCK, RiskResult, _result, map_blocks

__all__ = ["cummings_risk"]

MAX_CUMMINGS_USERS = 10**5  # users of cummings_risk: a block holds BLOCK × len(k) frequencies (about 50 MB)
_MAX_BETA_CONCENTRATION = 1e300  # cap on a + b of the Beta meta-law (its draws equal p in float64 long before it)


def _beta_meta(p: float, sigma_p2: float, rng, size) -> np.ndarray:
    """p_i ~ D: the Beta law with mean p and variance σ_p² (a point mass if σ_p² = 0)."""
    if sigma_p2 == 0:
        return np.full(size, p)
    nu = min(p * (1 - p) / sigma_p2 - 1, _MAX_BETA_CONCENTRATION)  # σ_p² of 5e-324 would give ν = inf
    if nu <= 0:
        raise ValueError("sigma_p2 must be below p(1-p) for a Beta meta-distribution")
    return rng.beta(p * nu, (1 - p) * nu, size=size)


@dataclass(frozen=True)
class _CummingsPlan:
    k: np.ndarray
    p: float
    sigma_p2: float
    eps: float
    beta: float
    estimator: str
    ideal: cummings.IdealPlan


def _cummings_block(plan: _CummingsPlan, seed_seq, size: int) -> np.ndarray:
    rng = np.random.default_rng(seed_seq)
    k = plan.k
    p_i = _beta_meta(plan.p, plan.sigma_p2, rng, (size, k.size))
    phat = rng.binomial(k, p_i) / k
    if plan.estimator == "ideal":
        return cummings.ideal(phat, plan.ideal, rng=rng)
    mean_g = cummings_theory.groups(k)[2]
    out = np.empty(size)
    for r in range(size):  # Algorithm 2 with the default private initial estimators
        first = rng.binomial(1, p_i[r, mean_g])  # x_i^1 of the n/10 fewest-data users
        out[r] = cummings.realisable(phat[r], first, k, eps=plan.eps, beta=plan.beta, rng=rng)
    return out


def cummings_risk(k: ArrayLike, *, p: float, sigma_p2: float, eps: float, reps: int, seed: SeedLike,
                  estimator: str = "ideal", beta: float = 0.05, executor: Executor | None = None,
                  progress: bool = False) -> RiskResult:
    r"""Simulated risk of Cummings et al.'s private estimators (central user-level ε-DP).

    User ``i`` draws :math:`p_i \sim \mathcal D` (Beta with mean ``p``, variance
    :math:`\sigma_p^2`), then :math:`\hat p_i = \mathrm{Bin}(k_i, p_i)/k_i` (exact).  ``k`` holds at
    most ``MAX_CUMMINGS_USERS`` users (a block of replications holds ``BLOCK × len(k)`` values).

    * ``"ideal"`` — :func:`bounds.estimators.cummings.ideal`: eq. (3) with weights (4) at the
      exact :math:`T^*` of eq. (6), intervals :math:`p \mp f_i`, noise
      :math:`\mathrm{Lap}(\max_i w_i|b_i - a_i|/\epsilon)`;
    * ``"realisable"`` — :func:`bounds.estimators.cummings.realisable`: Algorithm 2 with the
      default private initial estimators.

    .. math:: \hat p^{ideal}_\epsilon = \sum_i w_i^* [\hat p_i]_{a_i}^{b_i} + \mathrm{Lap}\Big(\frac{\max_i w_i^*|b_i - a_i|}{\epsilon}\Big)

    Source: Cummings et al. (2022), eqs. (3)–(6), Algorithm 2.

    Examples
    --------
    >>> r = cummings_risk([50, 20, 10, 5, 5], p=0.5, sigma_p2=0.01, eps=1.0, reps=64, seed=0)
    >>> r.estimator
    'cummings-ideal'
    """
    eps = check_positive("eps", eps)
    estimator = check_choice("estimator", estimator, ("ideal", "realisable"))
    kk = check_counts("k", k, max_size=MAX_CUMMINGS_USERS)
    ideal = cummings.ideal_plan(kk, p=p, sigma_p2=sigma_p2, eps=eps, beta=beta)
    plan = _CummingsPlan(kk, float(p), float(sigma_p2), eps, float(beta), estimator, ideal)
    parts = map_blocks(_cummings_block, plan, reps, seed, executor, progress)
    settings = {"k": kk.tolist(), "eps": eps, "T_star": ideal.T, "reps": int(reps), "seed": seed, "block": BLOCK}
    return _result(f"cummings-{estimator}", float(p), np.concatenate(parts), settings)
