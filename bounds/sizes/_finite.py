r"""Finite laws: :func:`finite`, :func:`point`, :func:`uniform`, :func:`empirical`.

**Tabulated, whole support** (no cut, so no truncation error): every query of a law with at most
a few million support points comes from the cumulative sums of ``_tables`` (float64 rounding
about ``n`` ulp relative for ``n`` points; exact rational masses in mpmath).

**Closed forms** (:class:`UniformLaw`, more than 10^6 points): :math:`M(k) = 1/n`,
:math:`P(m > a) = (hi - a)/n`, :math:`P(m \le a)`, :math:`E[m] = (lo+hi)/2` - exact up to
rounding.  **Series**: :math:`E[\sqrt m\,\mathbb 1\{m\le a\}] = \frac1n\sum_{k=lo}^a \sqrt k`
by the Euler-Maclaurin kernel (relative error below :math:`10^{-16}` in float64,
:math:`10^{-(d+5)}` at ``d`` digits).
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from functools import cached_property, reduce
from typing import TYPE_CHECKING, Any, Mapping, Sequence, cast

import numpy as np
from numpy.typing import ArrayLike

from ..numerics import backend, check_counts, check_real, format_value, sorted_unique, workdps
from ._common import _check_size, _mp_log, _plain, FLOAT_SAFE_TOTAL, MAX_LISTED, MAX_SIZE, WIDE
from ._base import _rebuild, SizeLaw
from ._tables import Table
from ._kernels import _sqrt_sum
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it


# =========================================================================== finite laws


class FiniteLaw(SizeLaw):
    """A law with finite support, masses proportional to exact weights."""

    def __init__(self, name: str, params: tuple, points: ArrayLike, weights: Sequence[float] | np.ndarray) -> None:
        pts = np.asarray(points, dtype=np.int64)
        order = np.argsort(pts)
        self.points = pts[order]
        weights = weights.tolist() if isinstance(weights, np.ndarray) else list(weights)
        self.weights = tuple(weights[i] for i in order)  # Python ints or floats, exact
        self.name, self.params = name, params
        self.support_min = int(self.points[0])
        self.support_max = int(self.points[-1])
        if all(isinstance(w, int) for w in self.weights):  # exact rationals w / total
            total = sum(self.weights)
            if total < FLOAT_SAFE_TOTAL:
                self._float_masses = np.asarray(self.weights, dtype=float) / float(total)
            else:
                self._float_masses = np.array([float(Fraction(w, total)) for w in self.weights])
        else:
            fw = np.asarray(self.weights, dtype=float)
            self._float_masses = fw / math.fsum(fw)

    def _points(self, end: int) -> np.ndarray:
        return self.points

    def _table_end(self, tol: float) -> int:  # the table is the support itself, however wide
        return int(self.support_max)

    def _sample(self, size: int, rng: np.random.Generator) -> np.ndarray:  # inverse CDF over the support
        idx = np.searchsorted(self._float_cdf, rng.random(size), side="right")
        return self.points[np.minimum(idx, self.points.size - 1)]

    @cached_property
    def _float_cdf(self) -> np.ndarray:
        return np.cumsum(self._float_masses)

    def _logpmf(self, k: np.ndarray) -> np.ndarray:
        idx = np.searchsorted(self.points, k)
        idx_c = np.minimum(idx, len(self.points) - 1)
        hit = self.points[idx_c] == k
        with np.errstate(divide="ignore"):
            return np.where(hit, np.log(self._float_masses[idx_c]), -np.inf)

    @cached_property
    def _log_tail_from(self) -> np.ndarray:
        """log P(m >= points[i]), summed from the top (no cancellation)."""
        return np.logaddexp.accumulate(np.log(self._float_masses)[::-1])[::-1]

    def _logsf(self, a: np.ndarray) -> np.ndarray:
        idx = np.searchsorted(self.points, a, side="right")
        tail = np.append(self._log_tail_from, -np.inf)
        return tail[idx]

    def _mp_masses(self) -> list[Any]:
        cache = self.__dict__.setdefault("_mp_mass_cache", {})
        if mpmath.mp.dps not in cache:
            total = mpmath.fsum(mpmath.mpf(w) for w in self.weights)
            cache[mpmath.mp.dps] = [mpmath.mpf(w) / total for w in self.weights]
        return cache[mpmath.mp.dps]

    def _mp_masses_on(self, pts: np.ndarray) -> list[Any]:
        if pts is self.points:  # the table's points (every support point): the masses themselves, no log and exp
            return list(self._mp_masses())
        return super()._mp_masses_on(pts)

    def _mp_logpmf(self, k: int) -> Any:
        idx = int(np.searchsorted(self.points, k))
        if idx < len(self.points) and self.points[idx] == k:
            return mpmath.log(self._mp_masses()[idx])
        return mpmath.ninf

    def _mp_sf(self, a: int) -> Any:
        idx = int(np.searchsorted(self.points, a, side="right"))
        return mpmath.fsum(self._mp_masses()[idx:])

    def _mean(self, precision: int | None) -> Any:
        if precision is None:
            return math.fsum(self.points * self._float_masses)
        return mpmath.fsum(int(m) * p for m, p in zip(self.points, self._mp_masses()))




class UniformLaw(SizeLaw):
    r"""The uniform law on :math:`\{lo, \dots, hi\}` by closed forms (any width; no table).

    :math:`P(m > a) = (hi - a)/n` and :math:`E[\sqrt m\,\mathbb 1\{m \le a\}] = \frac1n\sum_{k=lo}^{a}\sqrt k`
    (:func:`_sqrt_sum`), :math:`n = hi - lo + 1`.
    """

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi, self.n = lo, hi, hi - lo + 1
        self.tabulated = False
        self.name, self.params = "uniform", (("lo", lo), ("hi", hi))
        self.support_min, self.support_max = lo, hi

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, ("uniform", {"lo": self.lo, "hi": self.hi}))

    def _sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return rng.integers(self.lo, self.hi, size=size, endpoint=True)

    def _logpmf(self, k: np.ndarray) -> np.ndarray:
        k = np.asarray(k)
        return np.where((k >= self.lo) & (k <= self.hi), -math.log(self.n), -np.inf)

    def _logsf(self, a: np.ndarray) -> np.ndarray:
        above = self.hi - np.clip(np.asarray(a, dtype=np.int64), self.lo - 1, self.hi)
        with np.errstate(divide="ignore"):
            return np.log(above.astype(float)) - math.log(self.n)

    def _mp_logpmf(self, k: int) -> Any:
        return -mpmath.log(self.n) if self.lo <= k <= self.hi else mpmath.ninf

    def _mp_sf(self, a: int) -> Any:
        return mpmath.mpf(self.hi - min(max(a, self.lo - 1), self.hi)) / self.n

    def _mean(self, precision: int | None) -> Any:
        return (self.lo + self.hi) / 2 if precision is None else mpmath.mpf(self.lo + self.hi) / 2

    def _log_cdf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        below = np.clip(a, self.lo - 1, self.hi) - self.lo + 1
        if precision is None:
            with np.errstate(divide="ignore"):
                return np.log(below.astype(float)) - math.log(self.n)
        return np.asarray([_mp_log(mpmath.mpf(int(b)) / self.n) for b in np.ravel(below)], dtype=object).reshape(
            np.shape(a))

    def _log_partial_sqrt(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        top = np.minimum(a, self.hi)
        if precision is None:
            with np.errstate(divide="ignore"):
                return np.log(_sqrt_sum(self.lo, top, None)) - math.log(self.n)
        vals = [_mp_log(_sqrt_sum(self.lo, int(t), precision) / self.n) for t in np.ravel(top)]
        return np.asarray(vals, dtype=object).reshape(np.shape(a))

    def sqrt_mean(self, *, precision: int | None = None) -> Any:
        r""":math:`E[\sqrt m] = \frac1n \sum_{k=lo}^{hi} \sqrt k` (exact, Euler–Maclaurin).

        Examples
        --------
        >>> round(float(uniform(1, 4 * 10**6).sqrt_mean()), 6)  # (2/3)·2000 + 1/4000 + O(n^-1)
        1333.333583
        """
        precision = self._precision(precision)
        with workdps(precision):
            return backend(precision).exp(self._log_partial_sqrt(np.array(self.hi), precision))[()]

    def support_points(self, *, precision: int | None = None) -> np.ndarray:
        """The support ``lo..hi`` (refused beyond 10^7 points: use the queries instead)."""
        if self.n > MAX_LISTED:
            raise ValueError(f"{self!r}: the support has {self.n} points, too many to list")
        return np.arange(self.lo, self.hi + 1, dtype=np.int64)

    def _table(self, precision: int | None) -> Table:  # pragma: no cover - guarded: never tabulated
        raise AssertionError("wide uniform laws use closed forms, not tables")

    def _search_end(self) -> int:
        return self.hi

    def _floor_support(self, a: np.ndarray) -> np.ndarray:
        return np.where(np.asarray(a) >= self.lo, np.minimum(a, self.hi), 0)





def _is_whole(v: numbers.Real) -> bool:
    """Whether a real number is an integer, decided exactly (``Fraction(1, 10**400)`` is not, though it rounds to 0.0)."""
    if isinstance(v, numbers.Integral):
        return True
    try:
        return math.isfinite(float(v)) and v == math.floor(v)
    except (OverflowError, TypeError, ValueError):
        return False


def _validated_weights(masses: Mapping) -> tuple[list[int], list]:
    if not isinstance(masses, Mapping):
        raise ValueError(f"masses must be a mapping {{size: mass}}, got {masses!r}")
    if len(masses) == 0:
        raise ValueError("a size law needs at least one support point; got no masses")
    points, weights = [], []
    for m, w in masses.items():
        if isinstance(m, bool) or not isinstance(m, numbers.Real) or not _is_whole(m):
            raise ValueError(f"masses: support points must be positive integers, got {m!r}")
        m = cast(int, m)  # an integer-valued real (checked above): compared and converted as one
        if m <= 0:
            raise ValueError(
                f"masses: support contains {m!r}: dataset sizes live on N* = {{1, 2, ...}} (no 0 or negatives)"
            )
        if isinstance(w, bool) or not isinstance(w, numbers.Real):
            raise ValueError(f"masses: mass at {m!r} must be a real number, got {w!r}")
        w = cast(float, w)  # a real number (checked above)
        if math.isnan(float(w)) or w < 0 or math.isinf(float(w)):
            raise ValueError(f"mass at {m!r} is {w!r}: masses must be finite and non-negative")
        if m > MAX_SIZE:
            raise ValueError(f"support point {m!r} exceeds 2**62 (exact int64 arithmetic)")
        if w > 0:
            points.append(int(m))
            weights.append(w)
    if not points:
        raise ValueError("all masses are zero")
    if len(set(points)) != len(points):
        raise ValueError("support points are repeated")
    return points, weights


def finite(masses: Mapping[int, float], *, atol: float = 1e-12) -> SizeLaw:
    r"""A law with finite support, :math:`M(m) = \text{masses}[m]`.

    Masses must be finite, non-negative and sum to 1 within ``atol``; they are
    then normalised by their exact sum.  ``fractions.Fraction`` masses are kept
    exact (the mpmath path sees the exact rationals).

    .. math:: M = \sum_m \text{masses}[m]\,\delta_m, \qquad m \in \mathbb{N}^*

    Source: the setting of Pla et al. (2024), §2 (``M`` on :math:`\mathbb{N}^*`).

    Examples
    --------
    >>> law = finite({1: 0.5, 100: 0.5})
    >>> float(law.mean())
    50.5
    >>> finite({0: 1.0})
    Traceback (most recent call last):
    ...
    ValueError: masses: support contains 0: dataset sizes live on N* = {1, 2, ...} (no 0 or negatives)
    """
    atol = check_real("atol", atol, low=0, high=1)
    points, weights = _validated_weights(masses)
    if all(isinstance(w, (int, Fraction)) for w in weights):
        total = sum(Fraction(w) for w in weights)
        exact = [Fraction(w) for w in weights]
        denom = reduce(math.lcm, (f.denominator for f in exact), 1)
        weights = [int(f * denom) for f in exact]
        s = float(total)
    else:
        try:
            s = math.fsum(float(w) for w in weights)
        except OverflowError:  # masses near 1e308 sum past float64: they cannot sum to 1
            s = math.inf
    if not abs(s - 1.0) <= atol:
        raise ValueError(f"masses must sum to 1 (within {atol:g}); they sum to {s!r}")
    params = (("masses", {p: _plain(w) for p, w in zip(points, weights)}),)
    if all(isinstance(w, int) for w in weights):
        params = (("masses", {p: str(Fraction(w, sum(weights))) for p, w in zip(points, weights)}),)
    return FiniteLaw("finite", params, points, weights)


def point(m: int) -> SizeLaw:
    r"""The point mass :math:`M = \delta_m` (the homogeneous user-level setting).

    .. math:: P(m_u = m) = 1

    Source: Pla et al. (2024), §4.2 ("homogeneous user-level setting", :math:`M(m) = 1`).

    Examples
    --------
    >>> float(point(25).sqrt_mean())
    5.0
    """
    m = _check_size("m", m)
    return FiniteLaw("point", (("m", m),), [m], [1])


def uniform(lo: int, hi: int) -> SizeLaw:
    r"""The uniform law on the integers :math:`\{lo, \dots, hi\}` (both inclusive).

    .. math:: M(m) = \frac{1}{hi - lo + 1}, \qquad lo \le m \le hi

    Source: Pla et al. (2024), §4.2, Figure 1a (:math:`\mathcal{U}(1, 2\lambda_2 - 1)`).

    Examples
    --------
    >>> float(uniform(1, 9).mean())
    5.0
    """
    lo = _check_size("lo", lo)
    hi = _check_size("hi", hi, minimum=lo)
    n = hi - lo + 1
    if n > WIDE:
        return UniformLaw(lo, hi)
    return FiniteLaw("uniform", (("lo", lo), ("hi", hi)), np.arange(lo, hi + 1), np.ones(n, dtype=np.int64))


MAX_USERS = 10**8
"""Most users of :func:`empirical` (800 MB of int64 in the caller's array already; sorting them takes seconds)."""


def empirical(sizes: Sequence[int]) -> SizeLaw:
    r"""The empirical law of observed dataset sizes (one entry per user).

    .. math:: M(m) = \frac{1}{n}\sum_{u=1}^{n} \mathbb{1}\{m_u = m\}

    The masses are exact rationals (counts over ``n``).

    Source: Pla et al. (2024), §2 (H1: ``M`` known; here, estimated by its empirical law).

    Examples
    --------
    >>> law = empirical([1, 1, 3, 5])
    >>> law.pmf([1, 3, 5]).tolist()
    [0.5, 0.25, 0.25]
    """
    given: object = sizes
    if isinstance(given, np.ndarray) and given.size > MAX_USERS:  # before any copy (a broadcast view is free)
        raise ValueError(f"sizes must hold at most {MAX_USERS:,} users (the limit of an empirical law), got {given.size:,}")
    try:
        arr = np.asarray(sizes)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"sizes must be a non-empty 1-D sequence of positive integers, got {format_value(sizes)}") from None
    if arr.dtype == object and arr.ndim == 1 and any(isinstance(v, int) and v > MAX_SIZE for v in arr.tolist()):
        raise ValueError(f"dataset sizes must be integers <= 2**62 (exact int64 arithmetic), got {sizes!r}")
    if arr.ndim == 1 and arr.size and np.issubdtype(arr.dtype, np.number) and np.any(arr <= 0):
        raise ValueError(
            f"sizes: support contains {arr[arr <= 0][0].item()!r}: dataset sizes live on N* = {{1, 2, ...}} (no 0 or negatives)"
        )
    arr = check_counts("dataset sizes", sizes)
    values, counts = sorted_unique(arr, return_counts=True)
    return FiniteLaw("empirical", (("n_users", int(arr.size)),), values, [int(c) for c in counts])


