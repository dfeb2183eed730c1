r"""The Monte Carlo engine: populations, seeding, blocks of replications, executors, risks.

The estimators themselves are pure functions in :mod:`bounds.estimators` (one module per
paper); the simulated quantities beside their bounds are in :mod:`bounds.checks`.

Exactness.  Users' data enter every estimator through sufficient statistics drawn
from their exact laws: under the two-point :math:`\mu` on :math:`\{-1, 1\}` (mean
``theta``) a user's sum of ``m`` samples is one binomial (where many users share a size,
drawn by inversion of its tabulated cdf, :func:`binomial_inversion`); a prefix of ``T``
samples and the rest are two (:math:`S_m = S_T + \mathrm{Bin}(m - T, q)`); a bin's noisy vote
total is :func:`~bounds.mechanisms.noisy_vote_totals`; Duchi's :math:`+B` count is one
binomial.  An explicit per-user, per-sample path (:class:`Sampler`, any :math:`\mu`)
has the same law (tested).

Reproducibility.  ``seed`` is an int (or a sequence of ints), a ``SeedSequence`` or a
``Generator`` (:func:`~bounds.mechanisms.seed_sequence`).  Replications run in fixed blocks
of :data:`BLOCK`; block ``b`` draws from the ``b``-th child of the seed's ``SeedSequence``,
so the estimates for a seed are identical whatever the executor (none, a thread or process
pool, a ``dask.distributed`` client's executor) and however blocks are spread over workers.

Examples
--------
>>> from bounds import simulate, sizes
>>> r = simulate.risk("duchi", theta=0.3, sizes=sizes.point(10), n=1000, alpha=0.5, reps=200, seed=1)
>>> r.estimates.shape, r.mse < 0.2
((200,), True)
"""

from __future__ import annotations

from concurrent.futures import Executor

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats
from tqdm.auto import tqdm

from . import cummings as cummings_theory
from . import dame as dame_theory
from . import mechanisms
from . import rameshwar as rameshwar_theory
from .estimators import cummings, dame, duchi, kent, rameshwar
from .numerics import (
    check_choice,
    check_counts,
    check_integer,
    check_positive,
    check_real,
    check_rng,
    format_value,
    warn_once_per_call,
)
from .sizes import SizeLaw
from .mechanisms import RNGLike, SeedLike

__all__ = [
    "BLOCK",
    "TwoPoint",
    "binomial_table",
    "binomial_inversion",
    "Sampler",
    "RiskResult",
    "risk",
    "compare",
    "cummings_risk",
    "rameshwar_errors",
    "akmv_worst_case",
    "map_blocks",
]

BLOCK = 64  # replications per random stream: part of the seed contract
"""Replications per random stream: block ``b`` of a run draws from child ``b`` of the seed's ``SeedSequence``, so
results do not depend on the number of workers (part of the seed contract: changing it changes every simulated
number)."""
MAX_USERS = 10**8  # users per replication (arrays of chunk rows × n)
MAX_REPS = 10**9
CHUNK_USERS = 2**16  # users of Kent and DAME processed at a time within a block: n // CHUNK_USERS rows (clipped to
# 1 .. BLOCK), a function of n only, so also part of the seed contract
MAX_CUMMINGS_USERS = 10**5  # users of cummings_risk: a block holds BLOCK × len(k) frequencies (about 50 MB)
_MAX_BETA_CONCENTRATION = 1e300  # cap on a + b of the Beta meta-law (its draws equal p in float64 long before it)
MEAN_TOLERANCE = 1e-15  # theta and a population's own mean agree to float64 rounding of a sum
ESTIMATORS = ("duchi", "kent", "dame")
RUN_USERS = 64  # users per run (a half's users of one size) above which a finite law's sizes draw run by run


# =========================================================================== populations


@dataclass(frozen=True)
class TwoPoint:
    r"""The two-point law :math:`\mu(1) = (1+\theta)/2`, :math:`\mu(-1) = (1-\theta)/2` (mean :math:`\theta`).

    Sums of ``m`` samples are :math:`2\,\mathrm{Bin}(m, (1+\theta)/2) - m`, drawn exactly.

    .. math:: \bar X_m = \frac{2 S_m - m}{m},\quad S_m = S_T + \mathrm{Bin}(m - T, q),\quad q = \frac{1+\theta}{2}

    Source: Pla et al. (2024), §4.2, Fig. 1b (:math:`\mu(1) = \mu(-1) = 1/2`) and the lower-bound
    construction of (S22) (two-point laws with mean :math:`\pm\delta`).

    Examples
    --------
    >>> TwoPoint(1.0).nested_means(np.array([4]), np.array([2]), np.random.default_rng(0))
    (array([1.]), array([1.]))
    """

    theta: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "theta", check_real("theta", self.theta, low=-1, high=1))

    @property
    def mean(self) -> float:
        return self.theta

    def sums(self, size: int, count: int, rng: np.random.Generator) -> np.ndarray:
        """The sums of ``size`` samples of ``count`` users: one binomial per user (as exact floats).

        Many users of one size (at least the entries of its table) draw by :func:`binomial_inversion`'s method.
        """
        q = (1 + self.theta) / 2
        table = _binomial_table(size, q) if count >= TABLE_MIN_DRAWS else None
        if table is not None and count >= table[1].size:
            return _signed_sum(_invert(table, count, rng), size)
        return _signed_sum(rng.binomial(size, q, size=count), size)

    def local_means(self, m: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Each user's local mean over its ``m`` samples: one binomial per user."""
        out = _signed_sum(rng.binomial(m, (1 + self.theta) / 2), m)
        out /= m
        return out

    def nested_means(self, m: np.ndarray, T: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Local means over each user's first ``T`` samples and over all ``m`` (``T <= m``)."""
        q = (1 + self.theta) / 2
        s_T = rng.binomial(T, q)
        s_m = _signed_sum(rng.binomial(m - T, q), m - T)  # Bin(0, q) = 0 draws nothing
        mean_T = _signed_sum(s_T, T)
        s_m += mean_T
        mean_T /= T
        s_m /= m
        return mean_T, s_m


TABLE_SIGMAS = 15  # a binomial's pmf is evaluated over its mean ± 15 sd + 40 (clipped to 0 .. N), then trimmed
TABLE_ENTRIES = 2**16  # entries of that window at most (a wider binomial: numpy's sampler)
TABLE_TAIL = 2.0**-64  # the mass outside the table on each side at most (checked; else numpy's sampler)
TABLE_MIN_DRAWS = 64  # draws of one call below which no table is looked up (numpy's sampler)


def binomial_table(N: int, q: float) -> tuple[int, np.ndarray, np.ndarray] | None:
    r"""The table :func:`binomial_inversion` draws :math:`\mathrm{Bin}(N, q)` from: ``(lo, F, guide)``, or ``None``.

    ``F[i]`` is :math:`P(\mathrm{Bin}(N, q) \le lo + i)`, summed from boost's pmf
    (``scipy.stats.binom.pmf``): below the mode from the bottom, from the mode on as one minus
    the sum from the top (each tail summed from its small terms), its last entry ``inf``; ``guide[g]`` is the first ``i`` with
    ``F[i] > g / G`` (``G`` = ``guide.size``, a power of 2 at least 2 × ``F.size``).  The pmf is
    evaluated over the mean ± ``TABLE_SIGMAS`` (15) sd + 40, whose exterior is checked by the
    incomplete beta, then each end drops the entries whose summed mass stays within
    ``TABLE_TAIL / 2``: the mass outside the table is at most ``TABLE_TAIL`` (:math:`2^{-64}`) on
    each side.  ``None`` (numpy's sampler is used) where that window holds more than
    ``TABLE_ENTRIES`` (:math:`2^{16}`) points, its exterior exceeds ``TABLE_TAIL / 2`` on a side, or
    boost's pmf overflows (``q`` a subnormal distance from 0 or 1).
    Tables are cached (the last 8); the choice depends on ``(N, q)`` only, so on no cache.

    .. math:: F_i = \sum_{k \le lo + i} \binom{N}{k} q^k (1 - q)^{N - k},\qquad
              P(\mathrm{Bin}(N, q) < lo) \le 2^{-64},\quad P(\mathrm{Bin}(N, q) > lo + |F| - 1) \le 2^{-64}

    Source: the binomial pmf; the guide table of Chen and Asau (1974) for inversion.

    Examples
    --------
    >>> lo, F, guide = binomial_table(10, 0.5)
    >>> lo, F.size, guide.size, abs(float(F[4]) - 386 / 1024) < 1e-15  # P(Bin(10, 1/2) <= 4) = 386/1024
    (0, 11, 32, True)
    >>> binomial_table(10**12, 0.5) is None  # 15 sd = 7.5·10^6 points: numpy's sampler
    True
    """
    return _binomial_table(check_integer("N", N, minimum=0, maximum=mechanisms.MAX_EXACT_INT),
                           check_real("q", q, low=0, high=1))


@functools.lru_cache(maxsize=8)
def _binomial_table(N: int, q: float) -> tuple[int, np.ndarray, np.ndarray] | None:
    """:func:`binomial_table` of checked inputs."""
    sd = math.sqrt(N * q * (1 - q))
    lo = max(0, math.floor(N * q - TABLE_SIGMAS * sd) - 40)
    hi = min(N, math.ceil(N * q + TABLE_SIGMAS * sd) + 40)
    if hi - lo + 1 > TABLE_ENTRIES:
        return None
    try:  # boost raises OverflowError for some q within a few ulps of 0 or 1 (e.g. 1e-308): numpy's sampler there
        if stats.binom.cdf(lo - 1, N, q) > TABLE_TAIL / 2 or stats.binom.sf(hi, N, q) > TABLE_TAIL / 2:
            return None
        p = stats.binom.pmf(np.arange(lo, hi + 1), N, q)
    except OverflowError:
        return None
    below = int(np.searchsorted(np.cumsum(p), TABLE_TAIL / 2, side="right"))  # leading entries of mass <= tail/2
    above = int(np.searchsorted(np.cumsum(p[::-1]), TABLE_TAIL / 2, side="right"))
    p = p[below:p.size - above]
    # below the mode, sums from the bottom; from it on, 1 minus the sums from the top: each tail is summed from its
    # small terms, and the mode's atom takes what the pmf's rounding leaves
    mode = int(np.argmax(p))
    F = np.cumsum(p)
    top = np.cumsum(p[::-1])[::-1]  # top[i] = sum of p[i:]
    F[mode:-1] = 1 - top[mode + 1:]
    np.maximum.accumulate(F, out=F)
    F[-1] = np.inf  # the top entry takes the rest of [0, 1): the mass above the table
    G = 1 << (2 * F.size - 1).bit_length()
    guide = np.searchsorted(F, np.arange(G) / G, side="right").astype(np.int32)  # int32: the table stays in cache
    F.flags.writeable = guide.flags.writeable = False
    return lo + below, F, guide


def binomial_inversion(N: int, q: float, count: int, rng: RNGLike) -> np.ndarray:
    r"""``count`` draws of :math:`\mathrm{Bin}(N, q)` by inversion of its tabulated cdf (a guide table finds the entry).

    The table is :func:`binomial_table`'s: the cdf :math:`F` over a window :math:`[lo, hi]`
    outside which the mass is below :math:`2^{-64}` on each side (a ``ValueError`` where the
    binomial has no table).  For :math:`U` uniform on :math:`[0, 1)` (a float64, a multiple of
    :math:`2^{-53}`) the draw is :math:`lo + i` with :math:`i` the first index where
    :math:`F_i > U`: :math:`P(\text{draw} = lo + i) = F_i - F_{i-1}` up to the resolution of
    :math:`U`, i.e. each atom's probability is its pmf (boost's, to about 1e-15 relative) within
    :math:`2^{-52}` (the spacing of :math:`U` and the rounding of the running sums), but the
    mode's, which also takes the pmf's summed rounding (about 1e-15), and the window's exterior
    goes to its ends.  The guide table only shortens the search:
    ``guide[g]`` (:math:`g = \lfloor U G\rfloor`, exact since :math:`G` is a power of 2) is the
    first index with :math:`F_i > g/G`, and :math:`g/G \le U`, so a lower bound of the answer,
    from which one step is taken; the rare draws still short of it are found by bisection.  The
    result equals ``lo + np.searchsorted(F, U, side="right")`` draw by draw (tested), at
    0.24–0.53x the CPU of ``rng.binomial`` per draw for N from 10 to 10⁷ (two runs of the second
    table of ``python benchmarks/bench_simulate.py``).

    .. math:: Y = lo + \min\{i : F_i > U\},\qquad F_i = \sum_{k \le lo + i} \binom{N}{k} q^k (1 - q)^{N - k}

    Source: inversion of a discrete cdf with a guide table (Chen and Asau, 1974); the users' sums
    under the two-point law of Pla et al. (2024), §4.2.

    Examples
    --------
    >>> x = binomial_inversion(10, 0.5, 10**5, np.random.default_rng(0))
    >>> int(x.min()) >= 0 and int(x.max()) <= 10, abs(float(x.mean()) - 5) < 0.05
    (True, True)
    """
    table = binomial_table(N, q)
    count = check_integer("count", count, minimum=0, maximum=mechanisms.MAX_DRAWS)
    rng = check_rng("rng", rng)
    if table is None:
        raise ValueError(f"N = {format_value(N)}, q = {format_value(q)}: Bin(N, q) has no inversion table (its "
                         f"window exceeds {TABLE_ENTRIES} points); draw it with rng.binomial")
    return _invert(table, count, rng)


def _invert(table: tuple[int, np.ndarray, np.ndarray], count: int, rng: np.random.Generator) -> np.ndarray:
    """:func:`binomial_inversion` from a table of :func:`binomial_table`."""
    lo, F, guide = table
    u = rng.random(count)
    i = guide[(u * guide.size).astype(np.intp)]
    i += F[i] <= u
    late = np.flatnonzero(F[i] <= u)
    if late.size:
        i[late] = np.searchsorted(F, u[late], side="right")
    return np.add(i, lo, dtype=np.int64)


def _signed_sum(ones: np.ndarray, size: int | np.ndarray) -> np.ndarray:
    """The sum :math:`2k - m` of ``size`` values in {-1, 1} with ``ones`` ones, as a float array (exact below 2**53)."""
    out = np.multiply(ones, 2.0, dtype=np.float64)
    out -= size
    return out


@dataclass(frozen=True)
class Sampler:
    r"""Any :math:`\mu` on :math:`[-1, 1]`, through a user-supplied sampler ``draw(rng, size)``.

    Every sample of every user is drawn (the explicit path); ``mean`` is :math:`E_\mu X`.

    .. math:: \bar X_m = \frac1m\sum_{t \le m} X_t,\qquad X_t \overset{iid}{\sim} \mu \text{ on } [-1, 1]

    Source: Pla et al. (2024), §2 (H2: :math:`\mu` supported on [−1, 1]).

    Examples
    --------
    >>> s = Sampler(lambda g, k: np.zeros(k), 0.0)
    >>> s.nested_means(np.array([3, 5]), np.array([2, 2]), np.random.default_rng(0))
    (array([0., 0.]), array([0., 0.]))
    """

    draw: Callable
    mean: float

    def sums(self, size: int, count: int, rng: np.random.Generator) -> np.ndarray:
        """The sums of ``size`` samples of ``count`` users, every sample drawn."""
        x = np.asarray(self.draw(rng, size * count), dtype=float)
        if np.any(np.abs(x) > 1):
            raise ValueError("the sampler must return values in [-1, 1]")
        return x.reshape(count, size).sum(axis=1)

    def local_means(self, m: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Each user's local mean over its ``m`` samples, every sample drawn."""
        return self.nested_means(m, m, rng)[1]

    def nested_means(self, m: np.ndarray, T: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        shape = m.shape
        m, T = m.ravel(), T.ravel()
        x = np.asarray(self.draw(rng, int(m.sum())), dtype=float)
        if np.any(np.abs(x) > 1):
            raise ValueError("the sampler must return values in [-1, 1]")
        starts = np.concatenate([[0], np.cumsum(m)[:-1]])
        csum = np.concatenate([[0.0], np.cumsum(x)])
        mean_T = (csum[starts + T] - csum[starts]) / T
        mean_m = (csum[starts + m] - csum[starts]) / m
        return mean_T.reshape(shape), mean_m.reshape(shape)


def _population(theta, population):
    if theta is not None:
        theta = check_real("theta", theta, low=-1, high=1)
    if population is not None:
        if not isinstance(population, (TwoPoint, Sampler)):
            raise ValueError(f"population must be a TwoPoint or a Sampler, got {population!r}")
        if theta is not None and not math.isclose(theta, population.mean, abs_tol=MEAN_TOLERANCE):
            raise ValueError("theta differs from the population's mean")
        return population
    if theta is None:
        raise ValueError("give theta (the two-point law's mean) or a population")
    return TwoPoint(float(theta))


# =========================================================================== results


@dataclass(frozen=True)
class RiskResult:
    """Replicated estimates of one estimator: ``mse`` with its ``stderr``, ``bias`` with ``bias_stderr``."""

    estimator: str
    theta: float
    estimates: np.ndarray = field(repr=False)
    mse: float
    stderr: float
    bias: float
    bias_stderr: float
    settings: dict = field(repr=False)

    def ci(self, level: float = 0.95) -> tuple[float, float]:
        """Normal-approximation confidence interval for the risk (MSE).

        Examples
        --------
        >>> r = RiskResult("x", 0.0, np.zeros(3), 1.0, 0.1, 0.0, 0.0, {})
        >>> tuple(round(v, 4) for v in r.ci(0.95))
        (0.804, 1.196)
        """
        if not 0 < level < 1:
            raise ValueError(f"level must be in (0, 1), got {level!r}")
        z = float(stats.norm.ppf(0.5 + level / 2))
        return (self.mse - z * self.stderr, self.mse + z * self.stderr)


def _result(name, theta, est, settings) -> RiskResult:
    err = est - theta
    sq = err * err
    R = est.size
    return RiskResult(
        name, float(theta), est, float(sq.mean()), float(sq.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf,
        float(err.mean()), float(err.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf, settings,
    )


# =========================================================================== DAME, Kent and Duchi on shared data


@dataclass(frozen=True)
class _Plan:
    """Everything a block needs, picklable: the law, the budget, and per-estimator settings."""

    sizes: SizeLaw
    n: int
    alpha: float
    population: TwoPoint | Sampler
    estimators: tuple
    size_table: tuple | None  # (support points, masses) of a finite law: sizes drawn as counts per half
    m_tilde: int
    dame_debiasing: dame.Debiasing | None
    dame_scale: str
    kent_T: int
    kent_tau: float


def _block(plan: _Plan, seed_seq, size: int) -> dict:
    """One block of replications of every requested estimator, on shared data.

    Kent and DAME run on chunks of about :data:`CHUNK_USERS` users (whole replications, 1 to
    :data:`BLOCK` of them, a function of ``n`` only), so that a chunk's arrays stay in cache and
    the fixed cost of a chunk is shared by many replications when ``n`` is small; the block's
    stream is consumed chunk after chunk.
    """
    rng = np.random.default_rng(seed_seq)
    n, alpha = plan.n, plan.alpha
    out = {}
    if "duchi" in plan.estimators:  # exact: each output is +B w.p. 1/2 + θ/(2B), independently
        out["duchi"] = duchi.estimate(n, plan.population.mean, alpha=alpha, rng=rng, size=size)
    kent_on, dame_on = "kent" in plan.estimators, "dame" in plan.estimators
    if not (kent_on or dame_on):
        return out
    parts: dict[str, list[np.ndarray]] = {"kent": [], "dame": []}
    debias = plan.dame_debiasing if dame_on else None  # set whenever DAME is requested
    chunk = max(1, min(BLOCK, CHUNK_USERS // n))
    for start in range(0, size, chunk):
        m, xbar_T, xbar_m = _draw_users(plan, min(chunk, size - start), rng)
        if kent_on:  # Kent et al. §6: every user uses T* samples
            parts["kent"].append(kent.univariate(xbar_T, tau=plan.kent_tau, alpha=alpha, rng=rng))
        if debias is not None:  # DAME, Algorithm 1
            parts["dame"].append(dame.estimate(m, xbar_m, m_tilde=plan.m_tilde, alpha=alpha,
                                               debias=debias, rng=rng, scale=plan.dame_scale))
    out.update({k: np.concatenate(v) for k, v in parts.items() if v})
    return out


def _plan(estimators, sizes, n, alpha, population, m_tilde, constants, denominator, scale, T, K) -> _Plan:
    if not isinstance(sizes, SizeLaw):
        raise ValueError(f"sizes must be a law from bounds.sizes, got {sizes!r}")
    n = check_integer("n", n, minimum=2, maximum=MAX_USERS, why="users per replication")
    alpha = check_positive("alpha", alpha)
    if not 0 < n * alpha * alpha < math.inf:
        raise ValueError(f"alpha = {alpha!r}: n α² = {n * alpha * alpha!r} is not a positive finite number")
    priv = dame_theory.privacy_budget(n, alpha, h3="dame" in estimators)  # H3 is DAME's assumption only
    n, alpha = priv.n, priv.alpha
    n -= n % 2  # n even: drop one user if odd (Algorithm 1)
    for e in estimators:
        if e not in ESTIMATORS:
            raise ValueError(f"estimator must be one of {', '.join(ESTIMATORS)}, got {e!r}")
    scale = check_choice("scale", scale, dame.SCALES)
    mt, debias = 1, None
    if "dame" in estimators:
        mt = m_tilde if m_tilde is not None else dame_theory.m_tilde(sizes, n=n, alpha=alpha, constants=constants)
        mt = check_integer("m_tilde", mt, minimum=1)
        debias = dame.debiasing(sizes, mt, denominator=denominator)
    elif denominator not in ("canonical", "official"):
        raise ValueError(f"denominator must be 'canonical' or 'official', got {denominator!r}")
    kT, ktau = 1, 1.0
    if "kent" in estimators:
        base = check_integer("T", T, minimum=1) if T is not None else sizes.support_min
        kT, ktau = kent.cap(n=n, T=base, alpha=alpha, K=K)
    return _Plan(sizes, n, alpha, population, tuple(estimators), _size_table(sizes), mt, debias, scale, kT, ktau)


def _size_table(sizes: SizeLaw, max_points: int = 4096):
    """A finite law's support and masses, for drawing each half's sizes as multinomial counts."""
    if not sizes.is_finite:
        return None
    try:
        pts = sizes.support_points()
        if pts.size > max_points:
            return None
        p = np.asarray(sizes.pmf(pts), dtype=float)
    except NotImplementedError:  # laws whose queries are not available: draw user by user
        return None
    return pts, p / math.fsum(p)


def _draw_users(plan: _Plan, size: int, rng) -> tuple:
    r"""Sizes ``m`` (``size`` × ``n``) and the local means Kent (over :math:`T^* \wedge m`) and DAME (over ``m``) use.

    Only what the requested estimators read is drawn.  For a finite law, each half's sizes are
    multinomial counts (every estimator is a symmetric function of the users within a half,
    so the multiset of sizes in a half is what matters: :math:`\mathrm{Mult}(n/2, M)`), laid out
    sorted within each half.  With few support points the users of each size draw their sums
    in one call, :math:`S_m = S_T + \mathrm{Bin}(m - T, q)` (independent parts, the second only
    where :math:`m > T`), and the runs of each half are put together (no per-user gather);
    otherwise every user draws in place.  Sizes of other laws are drawn user by user.
    """
    pop, n, kT = plan.population, plan.n, plan.kent_T
    kent_on, dame_on = "kent" in plan.estimators, "dame" in plan.estimators
    if plan.size_table is None:
        m = plan.sizes.sample(size * n, rng).reshape(size, n)
    else:
        pts, p = plan.size_table
        counts = rng.multinomial(n // 2, p, size=2 * size)
        m = np.repeat(np.tile(pts, 2 * size), counts.ravel()).reshape(size, n)
        if counts.size * RUN_USERS <= m.size:  # few runs: draw size by size, then join the runs
            return (m, *_draw_by_size(pop, pts, counts, kT if kent_on else None, dame_on, rng))
    if kent_on and dame_on:  # the prefix of T* samples and the whole: S_m = S_T + Bin(m - T, q)
        return (m, *pop.nested_means(m, np.minimum(m, kT), rng))
    if kent_on:
        return m, pop.local_means(np.minimum(m, kT), rng), None
    return m, None, pop.local_means(m, rng)


def _draw_by_size(pop: TwoPoint | Sampler, pts: np.ndarray, counts: np.ndarray, kT: int | None, whole: bool,
                  rng: np.random.Generator) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Local means over ``min(m, kT)`` (if ``kT``) and over ``m`` (if ``whole``) in the layout of ``counts``.

    ``counts[r, k]``: users of size ``pts[k]`` in segment ``r`` (a half).  Each size's users draw
    together; segment ``r``'s run of size ``k`` is the slice after the runs of earlier segments.
    """
    shape = (counts.shape[0] // 2, counts.sum() * 2 // counts.shape[0])
    by_T: list[np.ndarray] = []
    by_m: list[np.ndarray] = []
    for a, c in zip(pts.tolist(), counts.sum(axis=0).tolist()):
        t = a if kT is None else min(a, kT)
        s = pop.sums(t, c, rng)
        if whole and a > t:
            s_m = s + pop.sums(a - t, c, rng)
            s_m /= a
        s /= t  # in place: the sums are this call's own array
        if kT is not None:
            by_T.append(s)
        if whole:  # where a = t the same array serves both (the estimators never write to their inputs)
            by_m.append(s_m if a > t else s)
    before = (np.cumsum(counts, axis=0) - counts).tolist()  # users of size k in earlier segments
    runs = [(k, lo, lo + c) for row, starts in zip(counts.tolist(), before)
            for k, (c, lo) in enumerate(zip(row, starts)) if c]
    join = lambda parts: (parts[0] if len(parts) == 1 else  # noqa: E731  one size: the draws are the layout
                          np.concatenate([parts[k][lo:hi] for k, lo, hi in runs])).reshape(shape)
    return (join(by_T) if kT is not None else None), (join(by_m) if whole else None)


def map_blocks(block: Callable[[Any, np.random.SeedSequence, int], Any], plan: Any, reps: int, seed: SeedLike,
               executor: Executor | None, progress: bool) -> list:
    r"""Run ``block(plan, seed_seq, size)`` over fixed blocks of :data:`BLOCK` replications.

    Block ``b`` draws from the ``b``-th child of ``SeedSequence(seed).spawn``: the results do
    not depend on the executor (``None``: in process) nor on how it spreads the blocks.

    .. math:: R = \sum_{b < \lceil R/B\rceil} \text{size}_b,\qquad
              \text{size}_b = \min(B, R - bB),\qquad \text{block } b \leftarrow \text{child}_b(\text{seed})

    Source: Scientific Python SPEC 7 (seeding), ``numpy.random.SeedSequence.spawn``.

    Examples
    --------
    >>> map_blocks(lambda plan, seq, size: size, None, reps=100, seed=0, executor=None, progress=False)
    [64, 36]
    """
    if not callable(block):
        raise ValueError(f"block must be callable, got {format_value(block)}")
    reps = check_integer("reps", reps, minimum=1, maximum=MAX_REPS)
    n_blocks = -(-reps // BLOCK)
    children = mechanisms.seed_sequence(seed).spawn(n_blocks)
    sizes_ = [min(BLOCK, reps - b * BLOCK) for b in range(n_blocks)]
    if executor is not None and not callable(getattr(executor, "map", None)):
        raise ValueError(f"executor must be None or a concurrent.futures.Executor, got {executor!r}")
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be a bool, got {format_value(progress)}")
    mapper = map if executor is None else executor.map
    parts = mapper(block, [plan] * n_blocks, children, sizes_)
    return list(tqdm(parts, total=n_blocks, disable=None if progress else True, desc="replications"))


@warn_once_per_call
def compare(*, theta: float | None = None, sizes: SizeLaw, n: int, alpha: float, reps: int, seed: SeedLike,
            estimators: Sequence[str] = ESTIMATORS, population: TwoPoint | Sampler | None = None,
            m_tilde: int | None = None, constants: Any = "paper", denominator: str = "canonical", scale: str = "paper",
            T: int | None = None, K: float = 1.0, executor: Executor | None = None, progress: bool = False) -> dict:
    r"""Several user-level LDP estimators on the **same** simulated data, replication by replication.

    Users :math:`u = 1..n` draw :math:`m_u \sim M` and their samples from :math:`\mu`
    (two-point with mean ``theta``, or ``population``).  Estimators:

    * ``"duchi"`` — each user privatises its local mean with Duchi et al.'s ±B mechanism;
      the server averages (Pla et al. (2024), §4.2);
    * ``"kent"`` — Kent et al.'s univariate two-phase procedure with ``T`` samples per user
      (default: the smallest dataset size, every user truncating to it) and the cap
      :math:`T^* = \min(T, e^{n\alpha^2/K})` (Kent et al. (2024), eqs. (25)–(30));
    * ``"dame"`` — DAME, Algorithm 1 (eqs. (4)–(9)), with ``m_tilde`` from Theorem 2 under
      ``constants`` unless given; ``denominator="official"`` swaps eq. (9)'s
      :math:`E[\sqrt{m \wedge \tilde m}]` for the official code's ``mean(min(M, sqrt(m̃)))``;
      ``scale="width"`` calibrates the Laplace noise to the clip interval's width
      :math:`(U - L)/\alpha` instead of eq. (8)'s :math:`14\tau/\alpha`
      (:func:`bounds.estimators.dame.laplace_scale`).

    .. math:: \hat\theta_{DAME} = \frac{\sqrt{\tilde m}\,\bar\theta - \sum_{i \le \tilde m}(\sqrt{\tilde m} - \sqrt i) M(i)\, s_{\hat j}}
              {E[\sqrt{m \wedge \tilde m}]}

    Returns ``{name: RiskResult}``.

    Source: Pla et al. (2024), Algorithm 1 and Figure 1b; Kent et al. (2024), eqs. (25)–(30).

    Examples
    --------
    >>> from bounds import sizes
    >>> res = compare(theta=0.0, sizes=sizes.point(50), n=200, alpha=0.5, reps=64, seed=0)
    >>> sorted(res)
    ['dame', 'duchi', 'kent']
    """
    pop = _population(theta, population)
    if not isinstance(estimators, (list, tuple)) or not all(isinstance(e, str) for e in estimators):
        raise ValueError(f"estimators must be a sequence of names from {ESTIMATORS}, got {format_value(estimators)}")
    plan = _plan(tuple(estimators), sizes, n, alpha, pop, m_tilde, constants, denominator, scale, T, K)
    parts = map_blocks(_block, plan, reps, seed, executor, progress)
    est = {e: np.concatenate([p[e] for p in parts]) for e in plan.estimators}
    settings = {"n": plan.n, "alpha": plan.alpha, "sizes": repr(sizes), "m_tilde": plan.m_tilde,
                "kent_T": plan.kent_T, "reps": reps, "seed": seed, "block": BLOCK}
    return {e: _result(e, pop.mean, est[e], settings) for e in plan.estimators}


@warn_once_per_call
def risk(estimator: str, *, theta: float, sizes: SizeLaw, n: int, alpha: float, reps: int, seed: SeedLike,
         executor: Executor | None = None, progress: bool = False, **options: Any) -> RiskResult:
    r"""Simulated risk :math:`E(\hat\theta - \theta)^2` of one user-level LDP estimator.

    ``estimator`` is ``"dame"``, ``"duchi"`` or ``"kent"``; ``theta`` is the mean of the
    two-point :math:`\mu` on :math:`\{-1, 1\}`.  ``options``: ``m_tilde``, ``constants``,
    ``denominator``, ``scale`` (DAME); ``T``, ``K`` (Kent); ``population`` (a :class:`Sampler`, then
    ``theta`` must equal its mean).  See :func:`compare`.

    .. math:: \widehat{R} = \frac1R \sum_{r=1}^R (\hat\theta_r - \theta)^2 \pm \frac{\mathrm{sd}}{\sqrt R}

    Source: Pla et al. (2024), eq. (3) (the risk) and Algorithm 1.

    Examples
    --------
    >>> from bounds import sizes
    >>> r = risk("dame", theta=0.4, sizes=sizes.point(1000), n=4000, alpha=0.6, reps=128, seed=3)
    >>> abs(r.bias) < 4 * r.bias_stderr
    True
    """
    estimator = check_choice("estimator", estimator, ESTIMATORS)
    return compare(theta=theta, sizes=sizes, n=n, alpha=alpha, reps=reps, seed=seed, estimators=(estimator,),
                   executor=executor, progress=progress, **options)[estimator]


# =========================================================================== Cummings et al.


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


# =========================================================================== Rameshwar & Tandon


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
    f = rameshwar.sample_mean(sums, m)
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
