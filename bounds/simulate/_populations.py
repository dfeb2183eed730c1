r"""Populations: the users' samples, through their sufficient statistics or sample by sample.

:class:`TwoPoint` draws a user's sum of ``m`` samples as one binomial: by numpy's sampler,
or, where many users share a size, by inversion of the binomial's tabulated cdf
(:func:`binomial_table`, :func:`binomial_inversion`).  :class:`Sampler` draws every sample of
any law on [-1, 1] (the explicit path, same law: tested).
"""

from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

import numpy as np

from .._lazy import lazy
from .. import mechanisms
from ..mechanisms import RNGLike
from ..numerics import check_integer, check_real, check_rng, format_value

if TYPE_CHECKING:
    from scipy import stats
else:
    stats = lazy("scipy.stats")  # imported at first use: not at the command line's start-up

__all__ = ["TwoPoint", "Sampler", "binomial_table", "binomial_inversion"]

MEAN_TOLERANCE = 1e-15  # theta and a population's own mean agree to float64 rounding of a sum


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
            ones = _inverter(table)(count, rng) if count <= INVERTER_DRAWS else _invert(table, count, rng)
            return _signed_sum(ones, size)
        return _signed_sum(rng.binomial(size, q, size=count), size)

    def ones_pieces(self, size: int, count: int, rng: np.random.Generator,
                    lengths: Iterable[int]) -> Iterator[np.ndarray]:
        """:meth:`sums`' draws for ``count`` users as counts of ones (sum = 2 ones - size), cut into ``lengths``.

        The sampler is chosen as :meth:`sums` chooses it for ``count`` users, and both samplers draw
        user after user from the stream: the pieces, put end to end, are the draws of one call (tested).
        """
        q = (1 + self.theta) / 2
        table = _binomial_table(size, q) if count >= TABLE_MIN_DRAWS else None
        inverted = table is not None and count >= table[1].size
        for k in lengths:
            if table is not None and inverted:
                yield _inverter(table)(k, rng) if k <= INVERTER_DRAWS else _invert(table, k, rng)
            else:
                yield rng.binomial(size, q, size=k)

    def means_into(self, size: int, count: int, rng: np.random.Generator, outs: Iterable[np.ndarray]) -> None:
        """The local means :meth:`sums` ``/ size`` of ``count`` users, written into ``outs`` one after the other.

        The same draws and bits as :meth:`sums` divided by ``size``; where the table is inverted, each
        user's mean is read from the table's means at its entry (no arithmetic per user).
        """
        q = (1 + self.theta) / 2
        table = _binomial_table(size, q) if count >= TABLE_MIN_DRAWS else None
        inverted = table is not None and count >= table[1].size
        for out in outs:
            k = out.size
            if table is not None and inverted and k <= INVERTER_DRAWS:
                inv = _inverter(table)
                np.take(inv.means(size), inv.indices(k, rng), out=out, mode="clip")  # in range: no check
                continue
            ones = _invert(table, k, rng) if table is not None and inverted else rng.binomial(size, q, size=k)
            np.multiply(ones, 2.0, out=out)
            out -= size
            out /= size

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
    pmf, cdf, sf = _binom_functions()
    try:  # boost raises OverflowError for some q within a few ulps of 0 or 1 (e.g. 1e-308): numpy's sampler there
        if cdf(lo - 1, N, q) > TABLE_TAIL / 2 or sf(hi, N, q) > TABLE_TAIL / 2:
            return None
        p = pmf(np.arange(lo, hi + 1), N, q)
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


@functools.lru_cache(maxsize=1)
def _binom_functions() -> tuple[Callable, Callable, Callable]:
    """The binomial's pmf, cdf and sf as :func:`_binomial_table` evaluates them: boost's, the functions behind
    ``scipy.stats.binom`` (same bits), called directly on arguments inside the support (cdf 0 below it, sf 0
    from ``N`` on, as scipy.stats gives), without importing scipy.stats (a second of a quick ``bounds figures``);
    scipy.stats' own where scipy.special has no such functions."""
    try:
        from scipy.special import _ufuncs

        pmf_, cdf_, sf_ = _ufuncs._binom_pmf, _ufuncs._binom_cdf, _ufuncs._binom_sf
    except (ImportError, AttributeError):  # pragma: no cover - another scipy: its public distribution
        return stats.binom.pmf, stats.binom.cdf, stats.binom.sf

    def pmf(k: np.ndarray, N: int, q: float) -> np.ndarray:
        return np.clip(pmf_(k, N, q), 0, 1)

    def cdf(k: int, N: int, q: float) -> float:
        return 0.0 if k < 0 else 1.0 if k >= N else float(np.clip(cdf_(float(k), N, q), 0, 1))

    def sf(k: int, N: int, q: float) -> float:
        return 1.0 if k < 0 else 0.0 if k >= N else float(np.clip(sf_(float(k), N, q), 0, 1))

    return pmf, cdf, sf


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


class _Inverter:
    """:func:`_invert` for many calls of at most ``size`` draws, with its temporaries allocated once (same draws);
    ``index``: the dtype of the drawn entries (default the guide table's; ``np.intp`` to read arrays at them
    without a conversion)."""

    def __init__(self, table: tuple[int, np.ndarray, np.ndarray], size: int, index: type | None = None) -> None:
        self.lo, self.F, guide = table
        self.guide = guide if index is None else guide.astype(index)
        self.u, self.f = np.empty(size), np.empty(size)
        self.g = np.empty(size, dtype=np.intp)
        self.i = np.empty(size, dtype=self.guide.dtype)
        self.b = np.empty(size, dtype=bool)
        self.out: np.ndarray | None = None  # the draws' buffer, made at the first call (entries alone need none)

    def __call__(self, count: int, rng: np.random.Generator) -> np.ndarray:
        if self.out is None:
            self.out = np.empty(self.u.size, dtype=np.int64)
        return np.add(self.indices(count, rng), self.lo, out=self.out[:count], dtype=np.int64)

    def means(self, size: int) -> np.ndarray:
        """The local mean :math:`(2k - size)/size` of each entry :math:`k` of the table (the bits of :func:`_signed_sum`
        over ``size``), to be read at the drawn entries."""
        cached = getattr(self, "_means", None)
        if cached is None or cached[0] != size:
            v = _signed_sum(np.arange(self.lo, self.lo + self.F.size, dtype=np.int64), size)
            v /= size
            cached = self._means = (size, v)
        return cached[1]

    def indices(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """The drawn entries of the table (the draws minus ``lo``), in a buffer overwritten by the next call."""
        u, f, g, i, b = self.u[:count], self.f[:count], self.g[:count], self.i[:count], self.b[:count]
        rng.random(out=u)
        np.multiply(u, self.guide.size, out=f)
        np.copyto(g, f, casting="unsafe")  # truncation of u G >= 0: its floor, as astype(intp)
        np.take(self.guide, g, out=i, mode="clip")  # indices in range: mode="raise" would buffer
        np.take(self.F, i, out=f, mode="clip")
        np.less_equal(f, u, out=b)
        i += b
        np.take(self.F, i, out=f, mode="clip")
        np.less_equal(f, u, out=b)
        if b.any():
            late = np.flatnonzero(b)
            i[late] = np.searchsorted(self.F, u[late], side="right")
        return i


INVERTER_DRAWS = 2**16  # draws of a cached inverter's buffers (a chunk of the engine's users at most)
INVERTERS = 4  # inverters kept per thread (the last tables used)
_inverters = threading.local()


def _inverter(table: tuple[int, np.ndarray, np.ndarray]) -> _Inverter:
    """This thread's :class:`_Inverter` of ``table`` for up to :data:`INVERTER_DRAWS` draws (the last few kept)."""
    cache: dict = getattr(_inverters, "cache", None) or {}
    _inverters.cache = cache
    hit = cache.pop(id(table), None)  # each entry holds its table: its id is not reused while cached
    inv = hit[1] if hit is not None else _Inverter(table, INVERTER_DRAWS)
    cache[id(table)] = (table, inv)  # most recent last
    while len(cache) > INVERTERS:
        del cache[next(iter(cache))]
    return inv


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
