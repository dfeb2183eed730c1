r"""Rameshwar & Tandon's mechanisms, replicated: average-case and worst-case errors."""

from __future__ import annotations

import math
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .. import mechanisms
from .. import rameshwar as rameshwar_theory
from ..estimators import rameshwar
from ..mechanisms import SeedLike
from ..numerics import check_choice, check_integer
from ._engine import MAX_REPS, map_blocks

__all__ = ["rameshwar_errors", "akmv_worst_case"]


@dataclass(frozen=True)
class _RTPlan:
    setting: rameshwar.Setting
    kind: str


def _rt_block(plan: _RTPlan, seed_seq, size):
    """One block of §IV-D's three mechanisms, vectorised over the block's replications."""
    rng = np.random.default_rng(seed_seq)
    s = plan.setting
    m, U = s.m, s.U
    if plan.kind == "worst":
        x = np.full((size, int(m.sum())), float(U))
    else:
        x = rameshwar_theory.samples(m, U=U, kind=plan.kind, rng=rng, size=size)
    starts = np.concatenate([[0], np.cumsum(m)[:-1]])
    sums = np.add.reduceat(x, starts, axis=1)  # each user's sum; pre-processing: average = sum / m
    f = sums.sum(axis=1) / float(m.sum())  # rameshwar.sample_mean, on the setting's checked m
    return {"laplace": np.abs(rameshwar.laplace_mechanism(sums, s, rng=rng) - f),
            "opt_wc": np.abs(rameshwar.opt_wc(sums, s, rng=rng) - f),
            "akmv": np.abs(rameshwar.akmv(sums, s, rng=rng) - f)}


def rameshwar_errors(m: ArrayLike, *, U: float, eps: float, samples: str = "uniform", reps: int, seed: SeedLike,
                     rule: str = "section-IV-A", executor: Executor | None = None, progress: bool = False) -> dict:
    r"""Average-case errors :math:`E|M(\mathcal D) - f(\mathcal D)|` of §IV-D's three mechanisms.

    * ``"laplace"`` — :func:`bounds.estimators.rameshwar.laplace_mechanism` (14);
    * ``"opt_wc"`` — :func:`bounds.estimators.rameshwar.opt_wc` (Theorem III.1's clipping);
    * ``"akmv"`` — :func:`bounds.estimators.rameshwar.akmv` (threshold at :math:`\varepsilon/2`,
      rank by ``rule``, release at :math:`\varepsilon/2`, (15)).

    ``samples``: ``"uniform"``, ``"gaussian"`` (§IV-B) or ``"worst"`` (every sample ``U``).
    Returns ``{mechanism: (mean error, stderr)}``.

    .. math:: \bar E = \frac1R\sum_r |M(\mathcal D_r) - f(\mathcal D_r)|

    Source: Rameshwar and Tandon (2025), §IV-A, §IV-D, eqs. (14)–(15).

    Examples
    --------
    >>> from bounds import rameshwar
    >>> out = rameshwar_errors(rameshwar.geometric(3), U=65, eps=1.0, reps=64, seed=0)
    >>> sorted(out)
    ['akmv', 'laplace', 'opt_wc']
    """
    samples = check_choice("samples", samples, ("uniform", "gaussian", "worst"))
    plan = _RTPlan(rameshwar.setting(m, U=U, eps=eps, rule=rule), samples)
    if float(plan.setting.m.sum(dtype=np.float64)) > mechanisms.MAX_DRAWS:  # float: an int64 sum wraps around
        raise ValueError(f"m: the users hold {plan.setting.m.sum(dtype=np.float64):.4g} samples in all, more than "
                         f"{mechanisms.MAX_DRAWS:.0e}; a replication draws every one")
    parts = map_blocks(_rt_block, plan, reps, seed, executor, progress)
    out = {}
    for key in ("laplace", "opt_wc", "akmv"):
        e = np.concatenate([p[key] for p in parts])
        out[key] = (float(e.mean()), float(e.std(ddof=1) / math.sqrt(e.size)) if e.size > 1 else math.inf)
    return out


def akmv_worst_case(m: ArrayLike, *, U: float, eps: float, reps: int, seed: SeedLike,
                    rule: str = "section-IV-A") -> tuple[float, float]:
    r""":math:`E_{AKMV}` on the worst-case dataset (every sample ``U``), Monte Carlo over the private ``T``.

    .. math:: E_{AKMV} = \frac{1}{\sum m}\sum_\ell E[\max\{0, U m_\ell - T\}] + \frac{2E[T]}{\varepsilon \sum m}

    Returns ``(mean, stderr)``.

    Source: Rameshwar and Tandon (2025), §IV-C (Figure 1).

    Examples
    --------
    >>> from bounds import rameshwar
    >>> mean, se = akmv_worst_case(rameshwar.geometric(6), U=65, eps=0.5, reps=200, seed=0)
    >>> mean > rameshwar.optimal_error(rameshwar.geometric(6), U=65, eps=0.5)
    True
    """
    s = rameshwar.setting(m, U=U, eps=eps, rule=rule)
    reps = check_integer("reps", reps, minimum=1, maximum=MAX_REPS)
    rng = np.random.default_rng(mechanisms.seed_sequence(seed))
    sums = np.broadcast_to(s.U * s.m.astype(float), (reps, s.m.size))
    T = rameshwar.akmv_threshold(sums, s, rng=rng)
    e = np.asarray(rameshwar_theory.akmv_worst_case_error(s.m, U=s.U, eps=s.eps, T=T))
    return float(e.mean()), float(e.std(ddof=1) / math.sqrt(reps)) if reps > 1 else math.inf
