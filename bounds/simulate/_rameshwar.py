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
from .._progress import tqdm
from ._engine import BLOCK, MAX_REPS

__all__ = ["rameshwar_errors", "akmv_worst_case"]


@dataclass(frozen=True)
class _RTPlan:
    setting: rameshwar.Setting
    kind: str


CHUNK_VALUES = 2**17  # samples (or threshold weights) held at a time by one chunk of blocks: 1 MiB per array, which
# stays in cache and is reused by the allocator (arrays of 16 MiB were mapped and page-faulted anew at every chunk)


def _rt_chunk(plan: _RTPlan, seeds: list, sizes: list) -> dict:
    """Blocks of §IV-D's three mechanisms, each block drawing from its own stream exactly what
    :func:`_rt_reference` draws (same calls, same order: samples; Laplace, OPT-wc's and AKMV's noise; the private
    threshold's two uniforms), the arithmetic done once over the chunk's rows: each row's values are
    computed by the same operations as in a block of its own (row by row reductions), so the errors are the same
    bits (tested), without a block's checks and calls repeated per 64 replications."""
    s = plan.setting
    m, U = s.m, s.U
    n_samples = float(m.sum())
    rows = sum(sizes)
    draws = []
    x = np.full((rows, int(m.sum())), float(U)) if plan.kind == "worst" else \
        np.empty((rows, int(m.sum()))) if plan.kind == "uniform" else np.empty((0, int(m.sum())))  # gaussian: below
    sd = lo = 0.0
    if plan.kind == "gaussian":
        from scipy import special

        sd = math.sqrt(U / 4)
        lo = float(special.ndtr(-(U / 2) / sd))
    noise = np.empty((3, rows))
    unif = np.empty((2, rows))  # the threshold's interval, and its point inside
    r = 0
    for seed_seq, size in zip(seeds, sizes):  # each block's stream, in rameshwar_theory.samples' and the
        rng = np.random.default_rng(seed_seq)  # mechanisms' order
        if plan.kind == "uniform":  # U - rng.uniform(0, U): the same draws and bits, without temporaries
            block = x[r:r + size]
            rng.random(out=block)
            np.multiply(block, U, out=block)
            np.subtract(U, block, out=block)
        elif plan.kind == "gaussian":
            draws.append(rng.random((size, x.shape[1])))
        for k in range(3):
            noise[k, r:r + size] = rng.laplace(0.0, 1.0, size=size)
        for k in range(2):
            unif[k, r:r + size] = rng.random(size)
        r += size
    if plan.kind == "gaussian":
        from scipy import special

        z = special.ndtri(lo + np.concatenate(draws) * (1 - 2 * lo))
        x = np.clip(U / 2 + sd * z, np.nextafter(0.0, 1.0), U)
    starts = np.concatenate([[0], np.cumsum(m)[:-1]])
    sums = np.add.reduceat(x, starts, axis=1)  # each user's sum; pre-processing: average = sum / m
    f = sums.sum(axis=1) / n_samples  # rameshwar.sample_mean, on the setting's checked m
    laplace = np.abs(f + noise[0] * s.laplace_scale - f)
    clipped = np.clip(sums / m, s.a, s.b)
    fstar = np.concatenate([clipped[i:i + k] @ m for i, k in zip(np.cumsum([0] + sizes[:-1]), sizes)])
    opt = np.abs(fstar / n_samples + noise[1] * s.opt_wc_scale - f)
    # AKMV: rameshwar.akmv_threshold's private quantile at eps / 2, rank s.rank, on [0, U m*]
    T = rameshwar.akmv_threshold_checked(sums, s, unif[0], unif[1])
    g = np.minimum(sums, T[:, None]).sum(axis=1) / n_samples
    akmv = np.abs(g + noise[2] * (T / ((s.eps / 2) * n_samples)) - f)
    return {"laplace": laplace, "opt_wc": opt, "akmv": akmv}


def _rt_reference(plan: _RTPlan, seed_seq, size):
    """One block of §IV-D's three mechanisms through the public functions (the definition :func:`_rt_chunk`
    reproduces bit for bit; kept for the tests)."""
    rng = np.random.default_rng(seed_seq)
    s = plan.setting
    m, U = s.m, s.U
    if plan.kind == "worst":
        x = np.full((size, int(m.sum())), float(U))
    else:
        x = rameshwar_theory.samples(m, U=U, kind=plan.kind, rng=rng, size=size)
    starts = np.concatenate([[0], np.cumsum(m)[:-1]])
    sums = np.add.reduceat(x, starts, axis=1)
    f = sums.sum(axis=1) / float(m.sum())
    return {"laplace": np.abs(rameshwar.laplace_mechanism(sums, s, rng=rng) - f),
            "opt_wc": np.abs(rameshwar.opt_wc(sums, s, rng=rng) - f),
            "akmv": np.abs(rameshwar.akmv(sums, s, rng=rng) - f)}


def _chunks(plan: _RTPlan, reps: int, seed: SeedLike) -> list[tuple[list, list]]:
    """:func:`bounds.simulate.map_blocks`' blocks (child ``b`` of the seed's ``SeedSequence`` draws block ``b`` of
    ``BLOCK`` replications) grouped in order into chunks of at most :data:`CHUNK_VALUES` samples."""
    n_blocks = -(-reps // BLOCK)
    children = mechanisms.seed_sequence(seed).spawn(n_blocks)
    sizes = [min(BLOCK, reps - b * BLOCK) for b in range(n_blocks)]
    per_row = max(int(plan.setting.m.sum()), plan.setting.m.size + 1)
    per_chunk = max(1, CHUNK_VALUES // (per_row * BLOCK))
    return [(children[b:b + per_chunk], sizes[b:b + per_chunk]) for b in range(0, n_blocks, per_chunk)]


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
    reps = check_integer("reps", reps, minimum=1, maximum=MAX_REPS)
    if executor is not None and not callable(getattr(executor, "map", None)):
        raise ValueError(f"executor must be None or a concurrent.futures.Executor, got {executor!r}")
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be a bool, got {progress!r}")
    chunks = _chunks(plan, reps, seed)
    mapped = (executor.map if executor is not None else map)(_rt_chunk, [plan] * len(chunks), *zip(*chunks))
    parts = list(tqdm(mapped, total=len(chunks), disable=None if progress else True, desc="replications"))
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
