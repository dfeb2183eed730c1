r"""Laws :math:`M` of the dataset size on :math:`\mathbb{N}^* = \{1, 2, \dots\}`.

Every quantity the DAME bounds need is a functional of the law :math:`M` of a
user's dataset size :math:`m` (Pla et al. (2024),
Theorems 1 and 2, eqs. (10)–(12)):

.. math::

    P(m \ge a),\quad P(m > a),\quad E[\sqrt{m \wedge a}],\quad
    E[\sqrt{m}\,\mathbb{1}\{m \le a\}],\quad E[m].

Each law answers these exactly, vectorised over ``a``, in float64 (computed in
log space, so masses near ``1e-300`` keep their relative accuracy) and in
mpmath at a requested number of digits (``precision=``).

**Tables and tails.**  Sums over the support are tabulated on ``1..K``.  A law
with infinite support is cut at the smallest ``K`` for which a *proven* upper
bound on the neglected functional,

.. math:: E[\sqrt{m}\,\mathbb{1}\{m > K\}] \le \frac{E[m\,\mathbb{1}\{m > K\}]}{\sqrt{K+1}},

is below ``tol`` (``1e-20`` in float64, ``10^{-(d+5)}`` at ``d`` digits);
:math:`E[m\,\mathbb{1}\{m>K\}]` is in closed form for every family (Poisson:
:math:`\lambda P(X \ge K)`; binomial: :math:`Np\,P(\mathrm{Bin}(N-1,p) \ge K)`;
geometric: :math:`q^K(K + 1/p)`) and a moment bound for :func:`from_scipy`.
Since :math:`E[\sqrt m] \ge 1`, ``tol`` is also a relative error.  Tail
probabilities :math:`P(m > a)` never use the cut: they come from each family's
closed-form survival function.  No table at all for :func:`zipf` (Hurwitz zeta closed
forms), :func:`geometric` (Euler–Maclaurin with exact incomplete-gamma integrals, any
``p``) and uniform laws on more than 10^6 points; finite and empirical laws tabulate
their support points however widely they spread.  A log-concave family whose bulk lies
far from 1 (``binomial(10**9, 0.999)``, ``poisson(1e6)``) tabulates only a window on its
bulk; the masses below it are summed locally with a proven geometric remainder.

Examples
--------
>>> from bounds import sizes
>>> law = sizes.poisson(5)
>>> float(law.prob_ge(1)), round(float(law.mean()), 6)
(1.0, 5.033918)
>>> law.sqrt_min_mean([1, 4, 10**6]).round(6)
array([1.      , 1.878541, 2.185883])
"""

from __future__ import annotations

import math
import numbers
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, reduce
from typing import Any, Callable, Mapping, Sequence, cast

import mpmath
import numpy as np
from numpy.typing import ArrayLike
from scipy import special, stats

from .numerics import (
    MPMATH,
    backend,
    check_counts,
    check_integer,
    check_positive,
    check_precision,
    check_real,
    check_rng,
    format_value,
    last_true,
    log1mexp,
    workdps,
)

__all__ = [
    "SizeLaw",
    "poisson",
    "binomial",
    "uniform",
    "finite",
    "point",
    "geometric",
    "zipf",
    "empirical",
    "from_scipy",
    "parse",
]

FLOAT_TOL = 1e-20
MAX_TABLE = 5_000_000  # points in one table (five float64 columns: 200 MB)
WIDE = 1_000_000  # uniform laws on more points than this use closed forms, not a table
LOG_HALF = math.log(0.5)
DEEP_LOG = math.log(1e-280)  # below this, float64 closed-form survival functions may underflow
MAX_SIZE = 2**62  # dataset sizes and support points: exact int64 arithmetic up to here
# searches over an infinite support (closed-form tails) stop here: half of MAX_SIZE, so that the
# searches' int64 arithmetic on a bracket (midpoints, a + 1, a - 1) cannot wrap
SEARCH_CAP = 2**61
MAX_LISTED = 10**7  # support_points lists at most this many points (80 MB of int64)
MAX_DRAWS = 10**9  # dataset sizes drawn by one call of sample (8 GB of int64)
WHOLE_TABLE = 10_000  # a finite support at most this wide is tabulated whole (no tolerance cut)
# integer weights summing below this convert to float64 without overflow (the largest float64 is
# about 2**1024); larger totals divide exactly with Fraction first
FLOAT_SAFE_TOTAL = 2**1000
MAX_WALK = 10**6  # steps of a term-by-term walk past a table or down a tail before giving up


def _mp_tol(precision: int) -> float:
    return max(10.0 ** (-(precision + 5)), 1e-300)


@dataclass(frozen=True)
class _Table:
    """Support points ``1..K`` (or a finite support) with cumulative log-sums."""

    points: np.ndarray  # int64, increasing
    log_pmf: np.ndarray  # float64 or object (mpf)
    log_cum_pmf: np.ndarray  # log P(m <= points[i])
    log_cum_sqrt: np.ndarray  # log E[sqrt(m) 1{m <= points[i]}]
    end: int  # K: the table covers every support point <= K
    log_sf: np.ndarray  # log P(m > points[i])


class SizeLaw(ABC):
    r"""A law :math:`M` on :math:`\mathbb{N}^*` (abstract base; use the constructors).

    Public queries take ``a`` (integer or integer array, any sign) and an optional
    ``precision`` (mpmath digits; ``None`` for float64) and return an array of
    the shape of ``a`` (float64, or ``object`` holding ``mpf``); a scalar ``a``
    gives a 0-d result.  The ``log_*`` variants return natural logarithms
    (``-inf`` for zero).
    """

    name: str
    params: tuple
    tabulated = True  # sums over the support come from a table (zipf: closed forms)

    max_precision: int | None = None  # a law whose mpmath sums are accurate only so far sets a cap

    def _precision(self, precision: object) -> int | None:
        """``precision`` validated, within the law's own cap where it has one (ValueError naming it)."""
        checked = check_precision(precision)
        if checked is not None and self.max_precision is not None and checked > self.max_precision:
            raise ValueError(f"precision must be at most {self.max_precision} digits for {self!r}, got {checked}")
        return checked

    # ---- what a concrete law provides --------------------------------------------------
    support_min: int
    support_max: float  # int, or math.inf

    @abstractmethod
    def _logpmf(self, k: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def _logsf(self, a: np.ndarray) -> np.ndarray:
        """log P(m > a), float64, for integer arrays ``a >= 0``."""

    @abstractmethod
    def _mp_logpmf(self, k: int) -> Any: ...

    @abstractmethod
    def _mp_sf(self, a: int) -> Any:
        """P(m > a) in mpmath, ``a >= 0``."""

    @abstractmethod
    def _mean(self, precision: int | None) -> Any: ...

    @abstractmethod
    def _sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` exact draws of the law (behind :meth:`sample`, which validates its arguments)."""

    def _tail_sqrt_bound(self, K: int) -> float:
        """Upper bound on ``E[sqrt(m) 1{m > K}]`` (infinite supports only)."""
        raise NotImplementedError

    # ---- representation ------------------------------------------------------------------
    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params)
        return f"{self.name}({args})"

    # ---- tables ----------------------------------------------------------------------------
    def _window_start(self) -> int:
        """First point of the table: the support's minimum (log-concave families: their bulk)."""
        return self.support_min

    def _left_log_sums(self, a: np.ndarray, precision: int | None) -> tuple[np.ndarray, np.ndarray]:
        """``(log P(m <= a), log E[sqrt(m) 1{m <= a}])`` below the table's first point."""
        raise AssertionError(f"{self!r}: its table starts at the support's minimum")

    def _table_end(self, tol: float) -> int:
        start = self._window_start()
        if math.isfinite(self.support_max) and self.support_max - start <= WHOLE_TABLE:
            return int(self.support_max)
        lo = max(start, 1)
        hi = lo + 16
        while hi < self.support_max and self._tail_sqrt_bound(hi) > tol:
            lo, hi = hi, start + 2 * (hi - start)
            if hi - start > MAX_TABLE:
                raise ValueError(
                    f"{self!r}: the tail is too heavy to tabulate to tolerance {tol:g} "
                    f"within {MAX_TABLE} points"
                )
        # smallest K in (lo, hi] with the bound below tol (monotone in K)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._tail_sqrt_bound(mid) <= tol:
                hi = mid
            else:
                lo = mid + 1
        return int(min(hi, self.support_max))

    def _points(self, end: int) -> np.ndarray:
        return np.arange(self._window_start(), end + 1, dtype=np.int64)

    @cached_property
    def _float_table(self) -> _Table:
        end = self._table_end(FLOAT_TOL)
        pts = self._points(end)
        lp = np.asarray(self._logpmf(pts), dtype=float)
        with np.errstate(divide="ignore"):
            lsq = 0.5 * np.log(pts) + lp
        # log P(m > points[i]): summed from the top (exact in deep tails) plus the closed-form
        # tail beyond the table; the closed form itself wherever it is not deep
        tail = float(self._logsf(np.array([end]))[0]) if not self.is_finite else -np.inf
        above = np.logaddexp.accumulate(lp[::-1])[::-1]
        lsf = np.logaddexp(np.append(above[1:], -np.inf), tail)
        shallow = lsf > DEEP_LOG + 10
        lsf[shallow] = np.asarray(self._logsf(pts[shallow]), dtype=float)
        lsf[pts < self.support_min] = 0.0
        left_cdf, left_sqrt = -np.inf, -np.inf
        if pts[0] > self.support_min:  # a window on the bulk: the mass below it by local sums
            left_cdf, left_sqrt = (float(v[0]) for v in self._left_log_sums(pts[:1] - 1, None))
        return _Table(pts, lp, np.logaddexp(left_cdf, np.logaddexp.accumulate(lp)),
                      np.logaddexp(left_sqrt, np.logaddexp.accumulate(lsq)), end, lsf)

    def _mp_table(self, precision: int) -> _Table:
        cache = self.__dict__.setdefault("_mp_tables", {})
        if precision not in cache:
            with mpmath.workdps(precision):
                end = self._table_end(_mp_tol(precision))
                pts = self._points(end)
                pmf = self._mp_masses_on(pts)
                cum, cum_sqrt, above = [], [], []
                s = t = mpmath.mpf(0)
                if pts[0] > self.support_min:
                    s, t = (mpmath.exp(v[0]) for v in self._left_log_sums(pts[:1] - 1, precision))
                for k, p in zip(pts, pmf):
                    s += p
                    t += mpmath.sqrt(int(k)) * p
                    cum.append(s)
                    cum_sqrt.append(t)
                r = self._mp_sf(end) if not self.is_finite else mpmath.mpf(0)
                for p in reversed(pmf):  # P(m > points[i]), summed from the top
                    above.append(r)
                    r += p
                log = MPMATH.log
                cache[precision] = _Table(
                    pts, log(pmf), log(cum), log(cum_sqrt), end, log(above[::-1])
                )
        return cache[precision]

    def _mp_masses_on(self, pts: np.ndarray) -> list:
        """``M(k)`` in mpmath at consecutive or listed points (the working precision)."""
        return [mpmath.exp(self._mp_logpmf(int(k))) for k in pts]

    def _table(self, precision: int | None) -> _Table:
        return self._float_table if precision is None else self._mp_table(precision)

    # ---- log-space primitives (a: int64 array) -------------------------------------------------
    def _lookup(self, values: np.ndarray, table: _Table, a: np.ndarray, precision: int | None) -> np.ndarray:
        idx = np.searchsorted(table.points, a, side="right") - 1
        out = np.where(idx >= 0, values[np.maximum(idx, 0)], -np.inf)
        return out if precision is None else out.astype(object)

    def _log_sf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        """log P(m > a): from the table where it reaches, else the closed form."""
        a = np.asarray(a, dtype=np.int64)
        if not self.tabulated:
            return self._closed_log_sf(a, precision)
        table = self._table(precision)
        out = self._lookup(table.log_sf, table, a, precision)
        out = np.where(a < self.support_min, 0.0 if precision is None else mpmath.mpf(0), out)
        below = (a >= self.support_min) & (a < table.points[0])
        if np.any(below):  # below a windowed table: 1 - P(m <= a), the latter summed locally
            out[below] = _log1mexp(self._left_log_sums(a[below], precision)[0], precision)
        beyond = a > table.end
        if np.any(beyond):
            out[beyond] = self._closed_log_sf(a[beyond], precision)
        return out

    def _closed_log_sf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        """log P(m > a) from the law's closed forms."""
        if precision is None:
            out = np.asarray(self._logsf(np.maximum(a, 0)), dtype=float)
            return np.where(a < self.support_min, 0.0, out)
        with mpmath.workdps(precision):
            vals = [
                mpmath.mpf(0) if ai < self.support_min else _mp_log(self._mp_sf(int(ai)))
                for ai in a.ravel()
            ]
        return np.asarray(vals, dtype=object).reshape(a.shape)

    def _log_cdf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        """log P(m <= a): the table below its end, ``log(1 - sf)`` beyond."""
        table = self._table(precision)
        out = self._below_window(self._lookup(table.log_cum_pmf, table, a, precision), table, a, precision, 0)
        beyond = a > table.end
        if np.any(beyond):
            out = out.copy()
            ls = self._log_sf(a[beyond], precision)
            out[beyond] = _log1mexp(ls, precision)
        return out

    def _log_ge(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        """log P(m >= a), from whichever of sf and cdf is smaller (no cancellation)."""
        ls = self._log_sf(a - 1, precision)
        lc = self._log_cdf(a - 1, precision)
        return np.where(ls < LOG_HALF, ls, _log1mexp(lc, precision))

    def _log_partial_sqrt(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        """log E[sqrt(m) 1{m <= a}] (for ``a`` beyond an infinite table: within ``tol``)."""
        table = self._table(precision)
        return self._below_window(self._lookup(table.log_cum_sqrt, table, a, precision), table, a, precision, 1)

    def _below_window(
        self, out: np.ndarray, table: _Table, a: np.ndarray, precision: int | None, which: int
    ) -> np.ndarray:
        """Fill the points below a windowed table (``which``: 0 for the cdf, 1 for the moment)."""
        below = (a >= self.support_min) & (a < table.points[0])
        if np.any(below):
            out = np.array(out, dtype=out.dtype)
            out[below] = self._left_log_sums(a[below], precision)[which]
        return out

    def _log_sqrt_min(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        """log E[sqrt(m ∧ a)] = log(E[sqrt(m) 1{m<=a}] + sqrt(a) P(m > a))."""
        be = backend(precision)
        pos = a >= 1
        safe = np.maximum(a, 1)
        with workdps(precision):
            tail = 0.5 * be.log(safe) + self._log_sf(safe, precision)
            out = be.logaddexp(self._log_partial_sqrt(safe, precision), tail)
        return np.where(pos, out, -np.inf)

    # ---- public queries -----------------------------------------------------------------------
    def _query(self, method: Callable, a: ArrayLike, precision: int | None, log: bool, name: str = "a") -> np.ndarray:
        precision = self._precision(precision)
        arr = _as_int_array(a, name)
        with workdps(precision):
            out = method(arr, precision)
            if not log:
                out = backend(precision).exp(out)
        if precision is None:
            return np.asarray(out, dtype=float)
        return np.asarray(out, dtype=object)

    def prob_ge(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`P(m \ge a)`, the probability in Theorem 2's condition.

        .. math:: P(m \ge a) = \sum_{k \ge a} M(k)

        Source: Pla et al. (2024), Theorem 2 and eq. (12).

        Examples
        --------
        >>> point(3).prob_ge([2, 3, 4])
        array([1., 1., 0.])
        """
        return self._query(self._log_ge, a, precision, log=False)

    def log_prob_ge(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`\log P(m \ge a)`, from whichever of the two tails is smaller (no cancellation).

        .. math:: \log P(m \ge a) = \log\big(1 - P(m < a)\big) = \log P(m > a - 1)

        Source: Pla et al. (2024), Theorem 2 and eq. (12).

        Examples
        --------
        >>> float(geometric(0.5).log_prob_ge(3))  # log(1/4)
        -1.386294361119890...
        """
        return self._query(self._log_ge, a, precision, log=True)

    def prob_gt(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`P(m > a)`, the probability in Theorem 1's exponent.

        .. math:: P(m > a) = \sum_{k > a} M(k)

        Source: Pla et al. (2024), Theorem 1, eq. (10).

        Examples
        --------
        >>> uniform(1, 4).prob_gt([0, 1, 4])
        array([1.  , 0.75, 0.  ])
        """
        return self._query(self._log_sf, a, precision, log=False)

    def log_prob_gt(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`\log P(m > a)`; exact past float64's range for the log-concave families.

        .. math:: \log P(m > a) = \log \sum_{k > a} M(k)

        Source: Pla et al. (2024), Theorem 1, eq. (10).

        Examples
        --------
        >>> float(geometric(0.5).log_prob_gt(2))  # log(1/4)
        -1.386294361119890...
        """
        return self._query(self._log_sf, a, precision, log=True)

    def partial_sqrt_mean(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`E[\sqrt{m}\,\mathbb{1}\{m \le a\}]`, the moment in Theorem 1's denominator.

        .. math:: E[\sqrt{m}\,\mathbb{1}\{m \le a\}] = \sum_{k \le a} \sqrt{k}\,M(k)

        Source: Pla et al. (2024), Theorem 1, eq. (10).

        Examples
        --------
        >>> finite({1: 0.5, 4: 0.5}).partial_sqrt_mean([0, 1, 3, 4])
        array([0. , 0.5, 0.5, 1.5])
        """
        return self._query(self._log_partial_sqrt, a, precision, log=False)

    def log_partial_sqrt_mean(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`\log E[\sqrt{m}\,\mathbb{1}\{m \le a\}]`.

        .. math:: \log \sum_{k \le a} \sqrt{k}\,M(k)

        Source: Pla et al. (2024), Theorem 1, eq. (10).

        Examples
        --------
        >>> float(point(4).log_partial_sqrt_mean(4))  # log 2
        0.693147180559945...
        """
        return self._query(self._log_partial_sqrt, a, precision, log=True)

    def sqrt_min_mean(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`E[\sqrt{m \wedge a}]`, Theorem 2's (canonical) denominator.

        Source: Pla et al. (2024), eq. (9) and (S34).

        .. math:: E[\sqrt{m \wedge a}] = E[\sqrt{m}\,\mathbb{1}\{m \le a\}] + \sqrt{a}\,P(m > a)

        Examples
        --------
        >>> finite({1: 0.5, 4: 0.5}).sqrt_min_mean([1, 2, 4])
        array([1.        , 1.20710678, 1.5       ])
        """
        return self._query(self._log_sqrt_min, a, precision, log=False)

    def log_sqrt_min_mean(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`\log E[\sqrt{m \wedge a}]`.

        .. math:: \log\big(E[\sqrt{m}\,\mathbb{1}\{m \le a\}] + \sqrt{a}\,P(m > a)\big)

        Source: Pla et al. (2024), eq. (9) and (S34).

        Examples
        --------
        >>> float(point(9).log_sqrt_min_mean(4))  # log 2
        0.693147180559945...
        """
        return self._query(self._log_sqrt_min, a, precision, log=True)

    def pmf(self, k: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`M(k) = P(m = k)`.

        .. math:: M(k) = P_{m \sim M}(m = k), \qquad k \in \mathbb{N}^*

        Source: Pla et al. (2024), eq. (9) (:math:`M(i)` in the debiasing sum).

        Examples
        --------
        >>> uniform(1, 4).pmf([0, 1, 4, 5])
        array([0.  , 0.25, 0.25, 0.  ])
        """

        def method(arr: np.ndarray, prec: int | None) -> np.ndarray:
            inside = (arr >= self.support_min) & (arr <= self.support_max)
            safe = np.where(inside, arr, self.support_min)
            if prec is None:
                vals = np.asarray(self._logpmf(safe), dtype=float)
            else:
                vals = np.asarray([self._mp_logpmf(int(k)) for k in safe.ravel()], dtype=object)
                vals = vals.reshape(safe.shape)
            return np.where(inside, vals, -np.inf)

        return self._query(method, k, precision, log=False, name="k")

    def mean(self, *, precision: int | None = None) -> Any:
        r""":math:`E[m]`, finite by hypothesis H1.

        .. math:: E[m] = \sum_{k \ge 1} k\,M(k) < \infty

        Source: Pla et al. (2024), §4.1, H1.

        Examples
        --------
        >>> float(geometric(0.25).mean())
        4.0
        """
        precision = self._precision(precision)
        if precision is None:
            return self._float_mean
        with workdps(precision):
            return self._mean(precision)

    @cached_property
    def _float_mean(self) -> float:
        return float(self._mean(None))

    def sqrt_mean(self, *, precision: int | None = None) -> Any:
        r""":math:`E[\sqrt{m}]`, the quantity of the asymptotic rates (13)–(14).

        .. math:: E[\sqrt{m}] = \sum_{k \ge 1} \sqrt{k}\,M(k)

        Source: Pla et al. (2024), eqs. (13)–(14).

        For an infinite support this is the table's total, below the true value by
        at most the table's tolerance (``1e-20`` in float64).

        Examples
        --------
        >>> float(point(16).sqrt_mean())
        4.0
        """
        precision = self._precision(precision)
        table = self._table(precision)
        with workdps(precision):
            return backend(precision).exp(table.log_cum_sqrt[-1])[()]

    def sample(self, size: int, rng: int | np.random.Generator | np.random.SeedSequence | None) -> np.ndarray:
        r"""Draw ``size`` dataset sizes :math:`m_u \overset{iid}{\sim} M` (exact samplers).

        .. math:: m_u \sim M, \qquad u = 1, \dots, \text{size}

        Finite laws: a categorical draw; Poisson, binomial, geometric: numpy's samplers, zero-
        truncation by rejection (exact); Zipf: numpy's; :func:`from_scipy`: the distribution's own.
        ``rng`` is a seed or a ``numpy.random.Generator``.

        Source: Pla et al. (2024), §2 (:math:`m_u \sim M` i.i.d.).

        Examples
        --------
        >>> point(7).sample(3, rng=0).tolist()
        [7, 7, 7]
        """
        size = check_integer("size", size, minimum=0, maximum=MAX_DRAWS)
        rng = check_rng("rng", rng)
        return np.asarray(self._sample(size, rng), dtype=np.int64)

    def support_points(self, *, precision: int | None = None) -> np.ndarray:
        r"""The support points of the law, up to the table's end for an infinite support.

        .. math:: \mathrm{supp}(M) = \{k \in \mathbb{N}^* : M(k) > 0\}

        Source: Pla et al. (2024), Theorem 1 (the max over :math:`a` runs over :math:`\{0\} \cup \mathrm{supp}(M)`).

        Examples
        --------
        >>> finite({2: 0.25, 7: 0.75}).support_points()
        array([2, 7])
        """
        return self._table(self._precision(precision)).points.copy()

    @property
    def is_finite(self) -> bool:
        """Whether the support is finite."""
        return math.isfinite(self.support_max)

    def search_end(self) -> int:
        r"""The largest ``a`` an integer search over the support needs to look at.

        For a finite support it is :math:`\max \operatorname{supp} M`; for a tabulated infinite law
        the table's end :math:`K` (past it :math:`E[\sqrt m\,1\{m > K\}]` is below the tolerance);
        for laws with closed-form tails a cap of the exact int64 range.  The searches of Theorems 1
        and 2 bracket their answers below it.

        .. math:: K = \min\{k : E[\sqrt m\,1\{m > k\}] \le \text{tol}\} \ \text{(tabulated laws)}

        Source: Pla et al. (2024), Theorems 1–2 (the searches over ``a``); the tail bound of
        :class:`SizeLaw`'s tabulation.

        Examples
        --------
        >>> finite({2: 0.25, 7: 0.75}).search_end()
        7
        """
        return self._search_end()

    def floor_support(self, a: ArrayLike) -> np.ndarray:
        r"""The largest support point :math:`\le a` (``0`` below the support), elementwise.

        Eq. (10)'s objective is constant between support points, so a maximiser found at any
        ``a`` is reported at the support point where its plateau starts.

        .. math:: \lfloor a \rfloor_M = \max\{k \in \operatorname{supp} M : k \le a\} \ (0 \text{ if none})

        Source: Pla et al. (2024), Theorem 1 (the maximum over ``a`` in eq. (10)).

        Examples
        --------
        >>> finite({2: 0.25, 7: 0.75}).floor_support([1, 2, 6, 9]).tolist()
        [0, 2, 2, 7]
        """
        return np.asarray(self._floor_support(_as_int_array(a)))

    def _search_end(self) -> int:
        return int(self._float_table.end)

    def _floor_support(self, a: np.ndarray) -> np.ndarray:
        pts = self._float_table.points
        idx = np.searchsorted(pts, a, side="right") - 1
        return np.where(idx >= 0, pts[np.maximum(idx, 0)], 0)


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


# ---- sums of sqrt(k) by the Euler-Maclaurin formula (wide uniform laws) ------------------------

EM_START = 64  # below, sums are direct; from here the Euler-Maclaurin series converges fast


def _sqrt_power_derivative(i: int) -> float:
    """``d^i/dt^i t^(1/2) = D_i t^(1/2 - i)``: the coefficient ``D_i = (1/2)(−1/2)…(3/2 − i)``."""
    return math.prod(0.5 - j for j in range(i))


def _em_sqrt_diff(hi: np.ndarray | int, lo: np.ndarray | int, precision: int | None) -> Any:
    r""":math:`\sum_{lo < k \le hi} \sqrt k` for integers ``EM_START - 1 <= lo <= hi`` (Euler–Maclaurin).

    .. math:: \sum_{k=1}^{t}\sqrt k = \zeta(-\tfrac12) + \tfrac23 t^{3/2} + \tfrac12 t^{1/2}
              + \sum_{j \ge 1} \frac{B_{2j}}{(2j)!} D_{2j-1}\, t^{3/2-2j}

    The difference of two such expansions cancels :math:`\zeta(-1/2)`; its leading part
    :math:`\tfrac23(h^{3/2} - l^{3/2}) = \tfrac23 (h-l)(h+\sqrt{hl}+l)/(\sqrt h+\sqrt l)` is
    computed without cancellation.  At :math:`t \ge 63` the terms fall by a factor
    :math:`\approx (2\pi t)^{-2}` each: 5 terms reach 1e-16 in float64; the mpmath path adds
    terms until they are below its precision.
    """
    if precision is None:
        h, l = np.asarray(hi, dtype=float), np.asarray(lo, dtype=float)
        sh, sl = np.sqrt(h), np.sqrt(l)
        diff = np.asarray(hi - lo, dtype=float)
        out = (2.0 / 3.0) * diff * (h + sh * sl + l) / (sh + sl) + 0.5 * diff / (sh + sl)
        for j in range(1, 5):
            c = float(mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j)) * _sqrt_power_derivative(2 * j - 1)
            out = out + c * (h ** (1.5 - 2 * j) - l ** (1.5 - 2 * j))
        return out
    h, l = mpmath.mpf(int(hi)), mpmath.mpf(int(lo))
    out = mpmath.mpf(2) / 3 * (h**1.5 - l**1.5) + (mpmath.sqrt(h) - mpmath.sqrt(l)) / 2
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5)) * abs(out)
    for j in range(1, 200):
        c = mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j) * mpmath.mpf(_sqrt_power_derivative(2 * j - 1))
        term = c * (h ** (mpmath.mpf(3) / 2 - 2 * j) - l ** (mpmath.mpf(3) / 2 - 2 * j))
        out += term
        if abs(term) <= tol:
            break
    return out


def _sqrt_sum(lo: int, a: Any, precision: int | None) -> Any:
    r""":math:`\sum_{k=lo}^{a}\sqrt k` (0 for ``a < lo``), direct below ``EM_START``, Euler–Maclaurin above."""
    if precision is None:
        a = np.asarray(a, dtype=np.int64)
        small = np.cumsum(np.sqrt(np.arange(EM_START, dtype=float)))  # small[t] = sum_{k<=t} sqrt k
        top = np.clip(a, lo - 1, None)
        # direct part over [lo, min(top, EM_START - 1)]
        d_hi = np.minimum(top, EM_START - 1)
        direct = np.where(d_hi >= lo, small[np.clip(d_hi, 0, EM_START - 1)] - (small[lo - 1] if lo >= 1 else 0.0), 0.0) \
            if lo < EM_START else np.zeros(a.shape)
        base = max(lo - 1, EM_START - 1)
        tail = np.where(top > base, _em_sqrt_diff(np.maximum(top, base), base, None), 0.0)
        return direct + tail
    a = int(a)
    if a < lo:
        return mpmath.mpf(0)
    direct = mpmath.fsum(mpmath.sqrt(k) for k in range(lo, min(a, EM_START - 1) + 1))
    base = max(lo - 1, EM_START - 1)
    return direct + (_em_sqrt_diff(a, base, precision) if a > base else 0)


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

    def _table(self, precision: int | None) -> _Table:  # pragma: no cover - guarded: never tabulated
        raise AssertionError("wide uniform laws use closed forms, not tables")

    def _search_end(self) -> int:
        return self.hi

    def _floor_support(self, a: np.ndarray) -> np.ndarray:
        return np.where(np.asarray(a) >= self.lo, np.minimum(a, self.hi), 0)




def _check_size(name: str, value: object, minimum: int = 1) -> int:
    """An integer dataset size (or law parameter) in ``[minimum, MAX_SIZE]``, else ValueError naming it."""
    v = check_integer(name, value, minimum=minimum)
    if v > MAX_SIZE:
        raise ValueError(f"{name} must be an integer <= 2**62 (exact int64 arithmetic), got {value!r}")
    return v


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
        s = math.fsum(float(w) for w in weights)
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
    values, counts = np.unique(arr, return_counts=True)
    return FiniteLaw("empirical", (("n_users", int(arr.size)),), values, [int(c) for c in counts])


# =========================================================================== parametric families


@dataclass(frozen=True)
class _Family:
    """A base variable X on the integers, by its float (vectorised) and mpmath closed forms."""

    logpmf: Callable  # k -> log P(X = k), float64 arrays
    logsf: Callable  # a -> log P(X > a), float64 arrays
    support: tuple  # (lo, hi) of X; hi may be math.inf
    mean: float
    tail_first_moment: Callable  # K -> E[X 1{X > K}] (an upper bound is enough)
    mp_logpmf: Callable | None = None  # k -> log P(X = k) in mpmath
    mp_sf: Callable | None = None  # a -> P(X > a) in mpmath
    mp_mean: Callable | None = None
    mp_ratio: Callable | None = None  # k -> P(X = k+1) / P(X = k) in mpmath (tables by recurrence)
    log_concave: bool = False  # pmf log-concave: deep tails can be summed with a proven remainder
    sampler: Callable = field(kw_only=True)  # (size, rng) -> draws of X; every constructor gives one


def _deep_logsf(logpmf: Callable, a: int) -> float:
    r"""log P(X > a) for a log-concave pmf, past float64's range of ``logsf``.

    Log-concavity makes :math:`r_k = p(k+1)/p(k)` non-increasing, so beyond
    :math:`a+J` the terms are below a geometric series of ratio :math:`r_{a+J}`:
    :math:`P(X > a) = \sum_{j=1}^{J} p(a+j) + R`, :math:`0 \le R \le p(a+J)\,r/(1-r)`.
    ``J`` is grown until that bound is below ``1e-17`` of the partial sum.
    """
    J = 64
    while True:
        lp = np.asarray(logpmf(np.arange(a + 1, a + J + 2)), dtype=float)
        head = float(np.logaddexp.reduce(lp[:-1]))
        if not math.isfinite(head):
            return -math.inf
        if lp[-1] == -math.inf:  # the support (an interval) has ended: nothing remains
            return head
        log_r = lp[-1] - lp[-2]
        if log_r < 0:
            rem = lp[-2] + log_r - math.log(-math.expm1(log_r))
            if rem - head < math.log(1e-17):
                return head + math.log1p(math.exp(rem - head))
        if J > MAX_WALK:  # pragma: no cover - a ratio this close to 1 is not a deep tail
            return head
        J *= 4


def _left_log_sum(logf: Callable, a: int, lo: int) -> float:
    r"""log of :math:`\sum_{k=lo}^{a} e^{f(k)}` for log-concave ``f`` increasing on ``[lo, a]``.

    Leftwards the ratios :math:`r = e^{f(k-1) - f(k)} \le 1` decrease (log-concavity), so the
    terms beyond the first ``J`` are below a geometric series:
    :math:`R \le e^{f(a-J)}/(1 - r_{a-J})`; ``J`` grows until that is below ``1e-17`` of the sum.
    """
    J = 64
    while True:
        k = np.arange(max(lo, a - J), a + 1)
        lp = np.asarray(logf(k), dtype=float)
        head = float(np.logaddexp.reduce(lp))
        if k[0] == lo:
            return head
        nxt = float(logf(np.array(k[0] - 1)))
        log_r = nxt - lp[0]
        if log_r < 0:
            rem = nxt - math.log(-math.expm1(log_r))
            if rem - head < math.log(1e-17):
                return head + math.log1p(math.exp(rem - head))
        J *= 4


def _rebuild(constructor: str, kwargs: dict) -> SizeLaw:
    """Unpickle a law by calling its public constructor again (families hold closures)."""
    return globals()[constructor](**kwargs)


class FamilyLaw(SizeLaw):
    """A law built from a base variable ``X`` on the integers, with ``0`` handled by ``zero``.

    ``zero="truncate"``: ``m = X | X >= 1``; ``"shift"``: ``m = X + 1``;
    ``"error"``: ``X`` must already live on ``N*``.
    """

    def __init__(self, name: str, params: tuple, family: _Family, zero: str) -> None:
        if not isinstance(zero, str) or zero not in ("truncate", "shift", "error"):
            raise ValueError(f"zero must be 'truncate', 'shift' or 'error', got {zero!r}")
        self.name, self.params, self.family, self.zero = name, params, family, zero
        lo, hi = family.support
        with np.errstate(divide="ignore"):
            self._log_p_ge1 = float(family.logsf(0))  # log P(X >= 1)
            p_le0 = -math.expm1(self._log_p_ge1)
            p_neg = -math.expm1(float(family.logsf(-1)))
        if not math.isfinite(self._log_p_ge1):
            raise ValueError(f"{name}: the law puts all its mass on 0 (P(X >= 1) = 0)")
        if zero == "error" and p_le0 > 0:
            raise ValueError(
                f"support contains values <= 0 (P(X <= 0) = {p_le0:.3g}): dataset sizes "
                "live on N* = {1, 2, ...}; pass zero='truncate' or zero='shift'"
            )
        if zero == "shift" and p_neg > 0:
            raise ValueError(f"support contains negative values (P(X < 0) = {p_neg:.3g}); zero='shift' needs X >= 0")
        shift = 1 if zero == "shift" else 0
        self.support_min = int(max(lo, 0 if zero == "shift" else 1)) + shift
        self.support_max = hi + shift if math.isinf(hi) else int(hi) + shift
        if not math.isfinite(family.mean):
            raise ValueError(f"{self!r} has an infinite mean: hypothesis H1 (E[m] < inf) fails")
        # (constructor name, kwargs), set by the public constructors
        self._recipe: tuple[str, dict[str, Any]] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        if self._recipe is None:
            raise TypeError(f"{self!r} cannot be pickled (it was not built by a public constructor)")
        return (_rebuild, self._recipe)

    @property
    def _truncated(self) -> bool:
        return self.zero == "truncate" and self._log_p_ge1 < 0

    def _sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        draw = self.family.sampler
        if self.zero == "shift":
            return draw(size, rng) + 1
        if self._truncated and self._log_p_ge1 < LOG_HALF:  # rejection would be slow: inversion
            return self._sample_by_inversion(size, rng)
        out = draw(size, rng)
        if self._truncated:  # condition on X >= 1 by rejection: exact, acceptance >= 1/2
            bad = out < 1
            while np.any(bad):
                out[bad] = draw(int(bad.sum()), rng)
                bad = out < 1
        return out

    def _sample_by_inversion(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """Inverse-CDF draws of the truncated law: the table's cdf, then (probability below the
        table's tolerance) a walk up the tail, mass by mass, so every draw is exact and terminates."""
        table = self._float_table
        cdf = np.exp(table.log_cum_pmf)
        u = rng.random(size)
        idx = np.searchsorted(cdf, u, side="right")
        out = table.points[np.minimum(idx, len(cdf) - 1)].copy()
        for i in np.flatnonzero(idx >= len(cdf)):  # u beyond the table: P(m > end) < 1e-20
            k, acc = int(table.end), float(cdf[-1])
            while acc <= u[i] and k < self.support_max:
                k += 1
                acc += math.exp(float(self._logpmf(np.array(k))))
                if not math.isfinite(acc) or k - table.end > MAX_WALK:
                    break
            out[i] = k
        return out

    def _logpmf(self, k: np.ndarray) -> np.ndarray:
        f = self.family
        with np.errstate(divide="ignore"):  # log(0) = -inf is exact for a zero probability
            out = f.logpmf(np.asarray(k) - 1) if self.zero == "shift" else f.logpmf(k)
        return out - self._log_p_ge1 if self._truncated else out

    def _x_logsf(self, a: np.ndarray) -> np.ndarray:
        """log P(X > a), exact in deep tails for log-concave families."""
        with np.errstate(divide="ignore"):
            out = np.array(self.family.logsf(a), dtype=float)
        deep = out < DEEP_LOG
        if self.family.log_concave and np.any(deep):
            flat, a_flat = out.reshape(-1), np.broadcast_to(a, out.shape).reshape(-1)
            for i in np.flatnonzero(deep.reshape(-1)):
                flat[i] = _deep_logsf(self.family.logpmf, int(a_flat[i]))
        return out

    def _logsf(self, a: np.ndarray) -> np.ndarray:
        if self.zero == "shift":
            return self._x_logsf(np.asarray(a) - 1)
        out = self._x_logsf(a)
        return out - self._log_p_ge1 if self._truncated else out

    def _mp_x_logpmf(self, k: int) -> Any:
        if self.family.mp_logpmf is None:  # float64 masses, carried exactly
            with np.errstate(divide="ignore"):
                return mpmath.mpf(float(self.family.logpmf(k)))
        return self.family.mp_logpmf(k)

    def _mp_x_sf(self, a: int) -> Any:
        if a < 0:
            return mpmath.mpf(1)
        if self.family.mp_sf is None:
            return mpmath.exp(mpmath.mpf(float(self._x_logsf(np.asarray(a)))))
        return self.family.mp_sf(a)

    def _mp_logpmf(self, k: int) -> Any:
        if self.zero == "shift":
            return self._mp_x_logpmf(k - 1)
        out = self._mp_x_logpmf(k)
        return out - mpmath.log(self._mp_x_sf(0)) if self._truncated else out

    def _mp_sf(self, a: int) -> Any:
        if self.family.log_concave and self.family.mp_logpmf is not None and a >= self._mode:
            # past the mode the masses fall: sum them locally (closed forms may not converge)
            if a >= self.support_max:
                return mpmath.mpf(0)
            return mpmath.exp(self._mp_walk(a + 1, +1)[0])
        if self.zero == "shift":
            return self._mp_x_sf(a - 1)
        out = self._mp_x_sf(a)
        return out / self._mp_x_sf(0) if self._truncated else out

    def _mean(self, precision: int | None) -> Any:
        f = self.family
        if precision is None:
            base = f.mean
            if self.zero == "shift":
                return base + 1.0
            return base / math.exp(self._log_p_ge1) if self._truncated else base
        base = f.mp_mean() if f.mp_mean else mpmath.mpf(f.mean)
        if self.zero == "shift":
            return base + 1
        return base / self._mp_x_sf(0) if self._truncated else base

    @cached_property
    def _start(self) -> int:
        """The table's first point: for a log-concave pmf whose mode lies past 1000, the first
        point within e^-60 of the mode (the masses below are summed locally, see
        :meth:`_left_log_sums`); else the support's minimum."""
        lo = self.support_min
        if not self.family.log_concave:
            return lo
        mode = self._mode
        if mode - lo <= 1000:
            return lo
        peak = float(self._logpmf(np.array(mode)))
        below = last_true(lambda a: np.asarray(self._logpmf(a) < peak - 60), lo, mode)
        return int(below) + 1

    @cached_property
    def _mode(self) -> int:
        """The smallest mode of a log-concave pmf (bisection on the sign of its increments)."""
        lo = self.support_min
        top = min(self.support_max, MAX_SIZE) - 1

        def rising(a: np.ndarray) -> np.ndarray:
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.asarray(self._logpmf(a + 1) > self._logpmf(a))

        return int(last_true(rising, lo, max(top, lo))) + 1

    def _window_start(self) -> int:
        return self._start

    def _mp_walk(self, a: int, step: int) -> Any:
        r"""``(log sum M(k), log sum sqrt(k) M(k))`` over ``k`` from ``a`` in direction ``step`` (±1),
        where the masses fall (below or past the mode), to the working precision.

        Consecutive masses come from the exact ratio ``mp_ratio`` (else the closed form); by
        log-concavity the ratio :math:`r` of the last two terms bounds every later one, so the
        rest is below ``term r/(1-r)`` (times :math:`\sqrt{k}` growth, checked, rightwards).
        """
        ratio = self.family.mp_ratio if self.zero != "shift" else None
        end = self.support_min if step < 0 else self.support_max
        tol = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5))
        with mpmath.workdps(mpmath.mp.dps + 10):
            term = mpmath.exp(self._mp_logpmf(a))
            tot, tot_s, k = mpmath.mpf(0), mpmath.mpf(0), a
            while True:
                tot += term
                tot_s += mpmath.sqrt(k) * term
                if k == end:
                    break
                nxt_k = k + step
                if ratio is None:
                    nxt = mpmath.exp(self._mp_logpmf(nxt_k))
                else:
                    nxt = term * ratio(k) if step > 0 else term / ratio(nxt_k)
                r = nxt / term if term > 0 else mpmath.mpf(0)
                if r < 1 and nxt * r / (1 - r) * (1 + mpmath.mpf(1) / (nxt_k + 1)) <= tol * tot and step < 0:
                    break
                if step > 0 and r < 1 and nxt / (1 - r) <= tol * tot:  # sf only: no sqrt needed
                    tot += nxt
                    break
                term, k = nxt, nxt_k
        return _mp_log(+tot), _mp_log(+tot_s)

    def _mp_masses_on(self, pts: np.ndarray) -> list[Any]:
        ratio = self.family.mp_ratio
        if ratio is None or self.zero == "shift" or len(pts) < 2:
            return super()._mp_masses_on(pts)
        # one closed form, then the exact ratio of consecutive masses (10 guard digits)
        with mpmath.workdps(mpmath.mp.dps + 10):
            out = [mpmath.exp(self._mp_logpmf(int(pts[0])))]
            for k in pts[:-1].tolist():
                out.append(out[-1] * ratio(k))
        return [+v for v in out]

    def _left_log_sums(self, a: np.ndarray, precision: int | None) -> tuple[np.ndarray, np.ndarray]:
        a = np.asarray(a, dtype=np.int64)
        lo = self.support_min
        if precision is None and a.size > 1 and int(a.max()) - lo <= WIDE:  # one cumulative pass
            k = np.arange(lo, int(a.max()) + 1)
            lp = np.asarray(self._logpmf(k), dtype=float)
            idx = a - lo
            return (np.logaddexp.accumulate(lp)[idx],
                    np.logaddexp.accumulate(0.5 * np.log(k) + lp)[idx])
        out_c, out_s = [], []
        for ai in np.ravel(a).tolist():
            if precision is None:
                out_c.append(_left_log_sum(self._logpmf, ai, self.support_min))
                out_s.append(_left_log_sum(lambda k: 0.5 * np.log(k) + self._logpmf(k), ai, self.support_min))
            else:
                c_, s_ = self._mp_walk(ai, -1)
                out_c.append(c_)
                out_s.append(s_)
        dtype = float if precision is None else object
        return (np.asarray(out_c, dtype=dtype).reshape(np.shape(a)), np.asarray(out_s, dtype=dtype).reshape(np.shape(a)))

    def _tail_sqrt_bound(self, K: int) -> float:
        f = self.family
        if self.zero == "shift":  # E[(X+1) 1{X >= K}] = E[X 1{X > K-1}] + P(X > K-1)
            first = f.tail_first_moment(K - 1) + math.exp(float(f.logsf(K - 1)))
        else:
            first = f.tail_first_moment(K)
            if self._truncated:
                first /= math.exp(self._log_p_ge1)
        return first / math.sqrt(K + 1)


_STIRLING = (1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188)


def _stirlerr(n: ArrayLike) -> np.ndarray:
    r"""Stirling's error :math:`\log n! - \log(\sqrt{2\pi n}(n/e)^n)` for ``n >= 1`` (Loader 2000).

    Series in :math:`1/n` beyond 15 (5 terms: 1e-17); the definition through ``gammaln`` below,
    where every term is O(1) and keeps its digits.
    """
    n = np.asarray(n, dtype=float)
    small = n <= 15
    safe_small = np.where(small, n, 1.0)
    direct = special.gammaln(safe_small + 1) - (safe_small + 0.5) * np.log(safe_small) + safe_small \
        - 0.5 * math.log(2 * math.pi)
    big = np.where(small, 16.0, n)
    inv2 = 1 / (big * big)
    s0, s1, s2, s3, s4 = _STIRLING
    series = (s0 - (s1 - (s2 - (s3 - s4 * inv2) * inv2) * inv2) * inv2) / big
    return np.where(small, direct, series)


def _bd0(x: ArrayLike, mu: float) -> np.ndarray:
    r"""Deviance term :math:`x\log(x/\mu) + \mu - x \ge 0` without cancellation (Loader 2000).

    For :math:`|x - \mu| < 0.1(x + \mu)`, with :math:`v = (x-\mu)/(x+\mu)`:
    :math:`(x-\mu)v + 2x\sum_{j \ge 1} v^{2j+1}/(2j+1)` (24 terms: :math:`v^{48} < 10^{-48}`).
    """
    x = np.asarray(x, dtype=float)
    near = np.abs(x - mu) < 0.1 * (x + mu)
    v = np.where(near, (x - mu) / (x + mu), 0.0)
    out = (x - mu) * v
    ej = 2 * x * v
    for j in range(1, 25):
        ej = ej * v * v
        out = out + ej / (2 * j + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        far = special.xlogy(x, x) - special.xlogy(x, mu) + mu - x  # x log(x/mu), no overflow in x/mu
    return np.where(near, out, far)


def _neg_inf_below(lo: int) -> Callable[[Callable[[np.ndarray], np.ndarray]], Callable[[ArrayLike], np.ndarray]]:
    """Wrap a log-pmf so that it is ``-inf`` outside ``k >= lo`` (no scipy domain warnings)."""

    def wrap(f: Callable[[np.ndarray], np.ndarray]) -> Callable[[ArrayLike], np.ndarray]:
        def g(k: ArrayLike) -> np.ndarray:
            k = np.asarray(k)
            safe = np.maximum(k, lo)
            return np.where(k >= lo, f(safe), -np.inf)

        return g

    return wrap


def poisson(lam: float, *, zero: str = "truncate") -> SizeLaw:
    r"""Poisson law of the dataset size, **zero-truncated by default**.

    ``M`` lives on :math:`\mathbb{N}^*`, while :math:`\mathcal{P}(\lambda)` puts
    mass :math:`e^{-\lambda}` on 0: by default ``m = X | X ≥ 1``
    (``zero="truncate"``); ``zero="shift"`` gives ``m = 1 + X``.

    .. math:: M(k) = \frac{e^{-\lambda}\lambda^k / k!}{1 - e^{-\lambda}}, \qquad k \ge 1

    Source: Pla et al. (2024), §4.2, Figure 1a (:math:`\mathcal{P}(\lambda_1)`);
    the truncation is the canonical choice of ``docs/choices.md`` §1.5.

    Examples
    --------
    >>> law = poisson(5)
    >>> round(float(law.pmf(1)), 10)  # 5 e^-5 / (1 - e^-5)
    0.0339182...
    >>> float(poisson(5, zero="shift").mean())
    6.0
    """
    lam = check_positive("lam", lam)

    @_neg_inf_below(0)
    def logpmf(k: ArrayLike) -> np.ndarray:
        k = np.asarray(k, dtype=float)
        safe = np.maximum(k, 1.0)
        body = -_stirlerr(safe) - _bd0(safe, lam) - 0.5 * np.log(2 * math.pi * safe)
        return np.where(k == 0, -lam, body)

    def logsf(a: ArrayLike) -> np.ndarray:
        a = np.asarray(a)
        with np.errstate(divide="ignore"):
            out = np.where(a < 0, 0.0, np.log(special.pdtrc(np.maximum(a, 0), lam)))
        return np.where(a == 0, log1mexp(-lam), out)  # log P(X >= 1) = log(1 - e^-lam), exactly

    def mp_logpmf(k: int) -> Any:
        return k * mpmath.log(lam) - lam - mpmath.loggamma(k + 1) if k >= 0 else mpmath.ninf

    fam = _Family(
        logpmf, logsf, (0, math.inf), lam,
        lambda K: lam * float(special.pdtrc(K - 1, lam)) if K >= 1 else lam,
        mp_logpmf,
        lambda a: -mpmath.expm1(-mpmath.mpf(lam)) if a == 0 else mpmath.gammainc(a + 1, 0, lam, regularized=True),
        lambda: mpmath.mpf(lam),
        log_concave=True,
        mp_ratio=lambda k: mpmath.mpf(lam) / (k + 1),
        sampler=lambda size, rng: rng.poisson(lam, size=size),
    )
    law = FamilyLaw("poisson", (("lam", lam), ("zero", zero)), fam, zero)
    law._recipe = ("poisson", {"lam": lam, "zero": zero})
    return law


def binomial(N: int, p: float, *, zero: str = "truncate") -> SizeLaw:
    r"""Binomial law :math:`\mathcal{B}(N, p)` of the dataset size, **zero-truncated by default**.

    .. math:: M(k) = \frac{\binom{N}{k}p^k(1-p)^{N-k}}{1 - (1-p)^N}, \qquad 1 \le k \le N

    Source: Pla et al. (2024), §4.2, Figure 1a (:math:`\mathcal{B}(1000, \lambda_3/1000)`).

    Examples
    --------
    >>> law = binomial(10, 0.5)
    >>> round(float(law.mean()), 9)  # 5 / (1 - 2^-10)
    5.004887586
    """
    N = _check_size("N", N)
    p = check_positive("p", p)
    if p > 1:
        raise ValueError(f"p must be in (0, 1], got {p!r}")

    def logpmf(k: ArrayLike) -> np.ndarray:
        k = np.asarray(k)
        kf = np.clip(k, 0, N).astype(float)
        inner = np.clip(kf, 1.0, max(N - 1.0, 1.0))
        rest = np.maximum(N - inner, 1.0)  # interior points only (N = 1 has none: masked below)
        with np.errstate(divide="ignore"):  # log 0 = -inf is exact at p = 1
            body = (_stirlerr(float(N)) - _stirlerr(inner) - _stirlerr(rest) - _bd0(inner, N * p)
                    - _bd0(rest, N * (1 - p)) + 0.5 * np.log(N / (2 * math.pi * inner * rest)))
            ends = np.where(kf == 0, N * math.log1p(-p) if p < 1 else -np.inf, N * math.log(p))
        out = np.where((kf == 0) | (kf == N), ends, body)
        return np.where((k >= 0) & (k <= N), out, -np.inf)

    def logsf(a: ArrayLike) -> np.ndarray:
        a = np.asarray(a)
        with np.errstate(divide="ignore"):
            # scipy.stats' binomial survival function keeps 1e-14 at N = 1e9 (special.bdtrc loses 1e-3)
            inside = np.log(stats.binom.sf(np.clip(a, 0, N - 1), N, p))
            zero = log1mexp(N * math.log1p(-p)) if p < 1 else 0.0  # log P(X >= 1), exactly
        return np.where(a < 0, 0.0, np.where(a >= N, -np.inf, np.where(a == 0, zero, inside)))

    def tail_first_moment(K: int) -> float:  # N p P(Bin(N-1, p) >= K)
        if K >= N:
            return 0.0
        if K <= 0:
            return N * p
        return N * p * float(special.bdtrc(K - 1, N - 1, p))

    def mp_logpmf(k: int) -> Any:
        if k < 0 or k > N:
            return mpmath.ninf
        if p == 1:
            return mpmath.mpf(0) if k == N else mpmath.ninf
        return (
            mpmath.loggamma(N + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(N - k + 1)
            + k * mpmath.log(p) + (N - k) * mpmath.log1p(-mpmath.mpf(p))
        )

    def mp_sf(a: int) -> Any:
        if a >= N:
            return mpmath.mpf(0)
        if p == 1:
            return mpmath.mpf(1)
        if a == 0:  # P(X >= 1) = 1 - (1-p)^N
            return -mpmath.expm1(N * mpmath.log1p(-mpmath.mpf(p)))
        return mpmath.betainc(a + 1, N - a, 0, p, regularized=True)

    fam = _Family(
        logpmf, logsf, (0, N), N * p, tail_first_moment, mp_logpmf, mp_sf,
        lambda: N * mpmath.mpf(p), log_concave=True, sampler=lambda size, rng: rng.binomial(N, p, size=size),
        mp_ratio=(lambda k: mpmath.mpf(N - k) / (k + 1) * mpmath.mpf(p) / (1 - mpmath.mpf(p))) if p < 1 else None,
    )
    law = FamilyLaw("binomial", (("N", N), ("p", p), ("zero", zero)), fam, zero)
    law._recipe = ("binomial", {"N": N, "p": p, "zero": zero})
    return law


class GeometricLaw(SizeLaw):
    r"""Geometric law :math:`M(k) = p q^{k-1}` by closed forms (no table, any :math:`p`).

    With :math:`g(t) = \sqrt t\,e^{-\beta t}`, :math:`\beta = -\log q`:
    :math:`E[\sqrt m\,\mathbb 1\{m \le a\}] = p\,e^{\beta} W(a)`, :math:`W(a) = \sum_{k=1}^{a} g(k)`.
    :math:`W` is summed directly for :math:`k < 64`; beyond, for :math:`\beta < 1`, by the
    Euler–Maclaurin formula with the exact integral
    :math:`\int_A^B g = \beta^{-3/2}\big(\gamma(\tfrac32, \beta B) - \gamma(\tfrac32, \beta A)\big)`
    and :math:`B_{2j}` corrections whose size falls like :math:`((\beta + 1/64)/2\pi)^{2j}`
    (the derivatives :math:`g^{(n)}` are exact finite sums).  Past :math:`\beta a \ge 1` the
    sum is taken as :math:`W(\infty) - U(a+1)` with the upper tail
    :math:`U(x) = \sum_{k \ge x} g(k)` in log space (:math:`e^{z}\Gamma(\tfrac32, z) = \sqrt z +
    \tfrac{\sqrt\pi}{2}\mathrm{erfcx}(\sqrt z)`), so deep tails keep their digits.  For
    :math:`\beta \ge 1` the terms beyond 64 are below :math:`e^{-63}` of the first and are summed
    directly to the working precision.
    """

    max_precision = 120  # the mpmath Euler–Maclaurin sums from EM_START = 64 reach about 130 digits

    def __init__(self, p: float) -> None:
        self.p = p
        self.tabulated = False
        self.name, self.params = "geometric", (("p", p),)
        self.support_min, self.support_max = 1, math.inf
        self.log_q = math.log1p(-p)
        self.beta = -self.log_q

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, ("geometric", {"p": self.p}))

    def _sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return rng.geometric(self.p, size=size)

    def _logpmf(self, k: np.ndarray) -> np.ndarray:
        k = np.asarray(k)
        safe = np.maximum(k, 1).astype(float)
        return np.where(k >= 1, math.log(self.p) + (safe - 1) * self.log_q, -np.inf)

    def _logsf(self, a: np.ndarray) -> np.ndarray:
        return np.maximum(np.asarray(a), 0).astype(float) * self.log_q

    def _mp_logpmf(self, k: int) -> Any:
        if k < 1:
            return mpmath.ninf
        return mpmath.log(self.p) + (k - 1) * mpmath.log1p(-mpmath.mpf(self.p))

    def _mp_sf(self, a: int) -> Any:
        return mpmath.exp(max(a, 0) * mpmath.log1p(-mpmath.mpf(self.p)))

    def _mean(self, precision: int | None) -> Any:
        return 1 / self.p if precision is None else 1 / mpmath.mpf(self.p)

    def _log_cdf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        ls = self._log_sf(np.maximum(a, 0), precision)
        return np.where(a < 1, -np.inf, _log1mexp(ls, precision))

    # ---- W(a) = sum_{k<=a} sqrt(k) e^{-beta k} ----------------------------------------------
    def _mp_h(self, n: int, x: Any) -> Any:
        """``e^{beta x} g^{(n)}(x)`` in mpmath: the n-th derivative of g without its exponential."""
        beta = -mpmath.log1p(-mpmath.mpf(self.p))
        return sum(math.comb(n, i) * (-beta) ** (n - i) * _sqrt_power_derivative(i) * x ** (0.5 - i)
                   for i in range(n + 1))

    @cached_property
    def _em_weights(self) -> np.ndarray:
        """``w_i`` with ``sum_j B_2j/(2j)! h_{2j-1}(x) = sum_i w_i x^(1/2 - i)`` (10 Bernoulli terms)."""
        w = np.zeros(20)
        for j in range(1, 11):
            n = 2 * j - 1
            for i in range(n + 1):
                w[i] += _BERN[j] * math.comb(n, i) * (-self.beta) ** (n - i) * _sqrt_power_derivative(i)
        return w

    def _em_correction(self, x: ArrayLike) -> np.ndarray:
        """``e^{beta x} sum_j B_2j/(2j)! g^(2j-1)(x)`` in float64, vectorised."""
        x = np.asarray(x, dtype=float)
        powers = x[..., None] ** (0.5 - np.arange(20))
        return powers @ self._em_weights

    @cached_property
    def _small_log_w(self) -> np.ndarray:
        k = np.arange(1, EM_START, dtype=float)
        return np.logaddexp.accumulate(0.5 * np.log(k) - self.beta * k)  # log W(1..63)

    def _float_log_u(self, x: np.ndarray) -> np.ndarray:
        """log U(x) = log sum_{k>=x} g(k), x >= EM_START, beta < 1 (Euler–Maclaurin, scaled by e^{beta x})."""
        beta = self.beta
        z = beta * x
        body = beta**-1.5 * (np.sqrt(z) + 0.5 * math.sqrt(math.pi) * special.erfcx(np.sqrt(z))) + 0.5 * np.sqrt(x)
        return -z + np.log(body - self._em_correction(x))

    def _float_log_w(self, a: np.ndarray) -> np.ndarray:
        a = np.asarray(a, dtype=np.int64)
        out = np.full(a.shape, -np.inf)
        small = (a >= 1) & (a < EM_START)
        out[small] = self._small_log_w[a[small] - 1]
        big = a >= EM_START
        if not np.any(big):
            return out
        w63 = self._small_log_w[-1]
        if self.beta >= 1:  # terms past 63 are below e^{-63} of the first: summed directly, 64 more
            k = np.arange(EM_START, 2 * EM_START, dtype=float)
            tail = np.logaddexp.accumulate(0.5 * np.log(k) - self.beta * k)
            out[big] = np.logaddexp(w63, tail[np.minimum(a[big], 2 * EM_START - 1) - EM_START])
            return out
        ab = a[big].astype(float)
        beta = self.beta
        total = np.logaddexp(w63, self._float_log_u(np.array(float(EM_START))))
        lower = beta * ab < 1
        res = np.empty(ab.shape)
        if np.any(lower):  # W(63) + sum_{64}^{a} g by Euler-Maclaurin with the lower incomplete gamma
            B, A = ab[lower], float(EM_START)
            integral = beta**-1.5 * math.gamma(1.5) * (special.gammainc(1.5, beta * B) - special.gammainc(1.5, beta * A))
            part = integral + 0.5 * (np.sqrt(A) * math.exp(-beta * A) + np.sqrt(B) * np.exp(-beta * B))
            part = part + np.exp(-beta * B) * self._em_correction(B) - math.exp(-beta * A) * self._em_correction(A)
            res[lower] = np.logaddexp(w63, np.log(part))
        if np.any(~lower):  # W(inf) - U(a+1)
            lu = self._float_log_u(ab[~lower] + 1)
            res[~lower] = total + log1mexp(lu - total)
        out[big] = res
        return out

    def _mp_w(self, a: int) -> Any:
        p = mpmath.mpf(self.p)
        beta = -mpmath.log1p(-p)

        def g(k: Any) -> Any:
            return mpmath.sqrt(k) * mpmath.exp(-beta * k)

        if a < EM_START or self.beta >= 1:
            top = a if a < EM_START else min(a, EM_START - 1 + int((mpmath.mp.dps + 10) * 2.31 / self.beta) + 1)
            return mpmath.fsum(g(k) for k in range(1, top + 1))
        A, B = mpmath.mpf(EM_START), mpmath.mpf(a)
        out = mpmath.fsum(g(k) for k in range(1, EM_START))
        out += beta**-1.5 * mpmath.gammainc(1.5, beta * A, beta * B) + (g(A) + g(B)) / 2
        tol = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5)) * out
        for j in range(1, 200):
            c = mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j)
            term = c * (mpmath.exp(-beta * B) * self._mp_h(2 * j - 1, B)
                        - mpmath.exp(-beta * A) * self._mp_h(2 * j - 1, A))
            out += term
            if abs(term) <= tol:
                break
        return out

    def _mp_w_total(self) -> Any:
        cache = self.__dict__.setdefault("_mp_total", {})
        if mpmath.mp.dps not in cache:
            if self.beta >= 1:
                cache[mpmath.mp.dps] = self._mp_w(MAX_SIZE)
            else:  # W(63) + U(64): the Euler-Maclaurin tail with the upper incomplete gamma
                p = mpmath.mpf(self.p)
                beta = -mpmath.log1p(-p)
                A = mpmath.mpf(EM_START)
                out = self._mp_w(EM_START - 1) + beta**-1.5 * mpmath.gammainc(1.5, beta * A) \
                    + mpmath.sqrt(A) * mpmath.exp(-beta * A) / 2
                tol = mpmath.mpf(10) ** (-(mpmath.mp.dps + 5)) * out
                for j in range(1, 200):
                    term = mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j) * mpmath.exp(-beta * A) \
                        * self._mp_h(2 * j - 1, A)
                    out -= term
                    if abs(term) <= tol:
                        break
                cache[mpmath.mp.dps] = out
        return cache[mpmath.mp.dps]

    def _log_scale(self, precision: int | None) -> Any:
        """log(p e^beta) = log(p/q)."""
        if precision is None:
            return math.log(self.p) - self.log_q
        p = mpmath.mpf(self.p)
        return mpmath.log(p) - mpmath.log1p(-p)

    def _log_partial_sqrt(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        if precision is None:
            return np.where(a >= 1, self._log_scale(None) + self._float_log_w(np.maximum(a, 1)), -np.inf)
        vals = [_mp_log(self._mp_w(int(ai))) + self._log_scale(precision) if ai >= 1 else mpmath.ninf
                for ai in np.ravel(a)]
        return np.asarray(vals, dtype=object).reshape(np.shape(a))

    def sqrt_mean(self, *, precision: int | None = None) -> Any:
        r""":math:`E[\sqrt m] = \frac{p}{q}\sum_{k \ge 1}\sqrt k\,q^{k}` (exact, Euler–Maclaurin).

        Examples
        --------
        >>> round(float(geometric(1e-6).sqrt_mean() / 1e3), 6)  # ≈ Γ(3/2)/√p = √π/2 · 10^3
        0.886227
        """
        precision = self._precision(precision)
        if precision is None:
            if self.beta >= 1:
                w = float(self._float_log_w(np.array([2 * EM_START - 1]))[0])
            else:
                w = np.logaddexp(self._small_log_w[-1], self._float_log_u(np.array(float(EM_START))))
            return float(np.exp(self._log_scale(None) + w))
        with mpmath.workdps(precision):
            return mpmath.exp(self._log_scale(precision)) * self._mp_w_total()

    def support_points(self, *, precision: int | None = None, upto: int = 1000) -> np.ndarray:
        """The support ``1..upto`` (the support is all of N*; ``upto`` at most 10^7)."""
        self._precision(precision)
        return np.arange(1, check_integer("upto", upto, minimum=1, maximum=MAX_LISTED) + 1, dtype=np.int64)

    def _table(self, precision: int | None) -> _Table:  # pragma: no cover - guarded: never tabulated
        raise AssertionError("geometric laws use closed forms, not tables")

    def _search_end(self) -> int:
        return SEARCH_CAP

    def _floor_support(self, a: np.ndarray) -> np.ndarray:
        return np.maximum(np.asarray(a, dtype=np.int64), 0)


_BERN = [0.0] + [float(mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j)) for j in range(1, 11)]


def geometric(p: float) -> SizeLaw:
    r"""Geometric law on :math:`\mathbb{N}^*`: number of trials to the first success.

    .. math:: M(k) = p(1-p)^{k-1}, \quad P(m > a) = (1-p)^a, \quad E[m] = 1/p

    Every functional is a closed form (a private law class), so ``p`` may be tiny
    (``geometric(1e-7)`` spreads its mass over ~10^9 points).

    Source: a light-tailed law for exploring Pla et al. (2024), Theorems 1–2.

    Examples
    --------
    >>> float(geometric(0.5).prob_gt(3))
    0.125
    """
    p = check_positive("p", p)
    if p > 1:
        raise ValueError(f"p must be in (0, 1], got {p!r}")
    if p == 1:
        return FiniteLaw("geometric", (("p", p),), [1], [1])
    return GeometricLaw(p)


def from_scipy(dist: Any, *, zero: str = "error", name: str | None = None) -> SizeLaw:
    r"""Wrap a frozen scipy discrete distribution (e.g. ``scipy.stats.nbinom(5, 0.3)``).

    Float queries call the distribution's ``logpmf``/``logsf``.  The mpmath path
    carries those float64 masses exactly (scipy has no arbitrary-precision form),
    so it verifies the arithmetic, not the masses.  A distribution charging 0
    raises unless ``zero="truncate"`` or ``"shift"``.  An infinite support is cut
    with the moment bound :math:`E[X\mathbb{1}\{X>K\}] \le E[X^r]/K^{r-1}`, the
    best over ``r = 2..6`` among the finite moments; if none is finite the tail
    cannot be bounded and a ``ValueError`` suggests a dedicated constructor.

    .. math:: M(k) = P(X = k), \qquad k \ge 1

    Source: the setting of Pla et al. (2024), §2 (any known ``M`` with H1).

    Examples
    --------
    >>> from scipy import stats
    >>> law = from_scipy(stats.nbinom(5, 0.5), zero="shift")
    >>> float(law.mean())
    6.0
    """
    if not hasattr(dist, "logpmf") or not hasattr(dist, "support"):
        raise ValueError(f"dist must be a frozen scipy discrete distribution, got {dist!r}")
    lo, hi = dist.support()
    mean = _scipy_mean(dist)
    if not math.isfinite(mean):
        raise ValueError(f"{dist.dist.name}{dist.args} has an infinite mean: hypothesis H1 (E[m] < inf) fails")
    moments = {}
    if math.isinf(hi):
        for r in range(2, 7):
            with np.errstate(all="ignore"):
                mr = float(dist.moment(r))
            if math.isfinite(mr):
                moments[r] = mr
        if not moments:
            raise ValueError(
                f"{dist.dist.name}: no finite moment of order >= 2, so the tail cannot be cut with a "
                "proven bound; use bounds.sizes.zipf for power laws"
            )

    def tail_first_moment(K: int) -> float:
        return min(mr / K ** (r - 1) for r, mr in moments.items()) if K >= 1 else mean

    support = (int(lo) if math.isfinite(lo) else -math.inf, int(hi) if math.isfinite(hi) else math.inf)
    fam = _Family(dist.logpmf, dist.logsf, support, mean, tail_first_moment,
                  sampler=lambda size, rng: np.asarray(dist.rvs(size=size, random_state=rng), dtype=np.int64))
    label = name or f"scipy.{getattr(dist.dist, 'name', 'dist')}"
    params = (("args", tuple(_plain(v) for v in dist.args)), ("zero", zero))
    law = FamilyLaw(label, params, fam, zero)
    law._recipe = ("from_scipy", {"dist": dist, "zero": zero, "name": name})
    return law


# =========================================================================== zipf (closed forms)


class ZipfLaw(SizeLaw):
    r"""Zipf law :math:`M(k) = k^{-s}/\zeta(s)`, every functional a Hurwitz zeta."""

    def __init__(self, s: float) -> None:
        self.s = s
        self.tabulated = False
        self.name, self.params = "zipf", (("s", s),)
        self.support_min, self.support_max = 1, math.inf

    def _log_hurwitz(self, x: float, q: np.ndarray) -> np.ndarray:
        """log ζ(x, q), with an mpmath fallback where float64 underflows."""
        q = np.asarray(q, dtype=float)
        val = special.zeta(x, q)
        with np.errstate(divide="ignore"):
            out = np.log(val)
        bad = ~(val > 1e-290)
        if np.any(bad):
            out = np.array(out, dtype=float)
            out[bad] = [float(mpmath.log(mpmath.zeta(x, qq))) for qq in q[bad]]
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, ("zipf", {"s": self.s}))

    def _sample(self, size: int, rng: np.random.Generator) -> np.ndarray:
        return rng.zipf(self.s, size=size)

    def _logpmf(self, k: np.ndarray) -> np.ndarray:
        return -self.s * np.log(np.asarray(k, dtype=float)) - math.log(special.zeta(self.s))

    def _logsf(self, a: np.ndarray) -> np.ndarray:
        return self._log_hurwitz(self.s, np.asarray(a) + 1.0) - math.log(special.zeta(self.s))

    def _mp_logpmf(self, k: int) -> Any:
        return -self.s * mpmath.log(k) - mpmath.log(mpmath.zeta(self.s))

    def _mp_sf(self, a: int) -> Any:
        return mpmath.zeta(self.s, a + 1) / mpmath.zeta(self.s)

    def _mean(self, precision: int | None) -> Any:
        if precision is None:
            return float(special.zeta(self.s - 1) / special.zeta(self.s))
        return mpmath.zeta(self.s - 1) / mpmath.zeta(self.s)

    # E[sqrt(m) 1{m <= a}] = (ζ(s-1/2) - ζ(s-1/2, a+1)) / ζ(s): no table needed
    def _log_partial_sqrt(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        h = self.s - 0.5
        pos = a >= 1
        safe = np.maximum(a, 1)
        if precision is None:
            zs, zh = special.zeta(self.s), special.zeta(h)
            # direct sum for small a (no cancellation), closed form beyond
            small = safe <= 64
            out = np.empty(safe.shape, dtype=float)
            if np.any(small):
                ks = np.arange(1, 65, dtype=float)
                cums = np.cumsum(ks ** (-h))
                out[small] = np.log(cums[safe[small] - 1]) - math.log(zs)
            if np.any(~small):
                rest = zh - special.zeta(h, safe[~small] + 1.0)
                out[~small] = np.log(rest) - math.log(zs)
            return np.where(pos, out, -np.inf)
        with mpmath.workdps(precision):
            zs, zh = mpmath.zeta(self.s), mpmath.zeta(h)
            vals = [mpmath.log((zh - mpmath.zeta(h, int(ai) + 1)) / zs) for ai in safe.ravel()]
        out = np.asarray(vals, dtype=object).reshape(safe.shape)
        return np.where(pos, out, -np.inf)

    def sqrt_mean(self, *, precision: int | None = None) -> Any:
        r""":math:`E[\sqrt{m}] = \zeta(s - 1/2)/\zeta(s)` (exact).

        Examples
        --------
        >>> round(float(zipf(3).sqrt_mean()), 12)  # ζ(2.5)/ζ(3)
        1.11599313953
        """
        precision = self._precision(precision)
        if precision is None:
            return float(special.zeta(self.s - 0.5) / special.zeta(self.s))
        with mpmath.workdps(precision):
            return mpmath.zeta(self.s - 0.5) / mpmath.zeta(self.s)

    def support_points(self, *, precision: int | None = None, upto: int = 1000) -> np.ndarray:
        """The support ``1..upto`` (the support is all of N*; ``upto`` at most 10^7)."""
        self._precision(precision)
        return np.arange(1, check_integer("upto", upto, minimum=1, maximum=MAX_LISTED) + 1, dtype=np.int64)

    def _table(self, precision: int | None) -> _Table:  # pragma: no cover - guarded: zipf never tabulates
        raise AssertionError("zipf laws use closed forms, not tables")

    def _search_end(self) -> int:
        return SEARCH_CAP

    def _floor_support(self, a: np.ndarray) -> np.ndarray:
        return np.maximum(np.asarray(a, dtype=np.int64), 0)

    def _log_cdf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        ls = self._log_sf(a, precision)
        return np.where(a < 1, -np.inf, _log1mexp(ls, precision))


def zipf(s: float) -> SizeLaw:
    r"""Zipf (zeta) law, heavy-tailed: :math:`M(k) = k^{-s}/\zeta(s)`, :math:`k \ge 1`.

    Its mean :math:`\zeta(s-1)/\zeta(s)` is finite only for :math:`s > 2`; hypothesis
    H1 of the DAME paper requires it, so ``s <= 2`` raises.  All functionals are
    Hurwitz zeta values, e.g. :math:`P(m > a) = \zeta(s, a+1)/\zeta(s)` and

    .. math:: E[\sqrt{m}\,\mathbb{1}\{m \le a\}] = \frac{\zeta(s-\tfrac12) - \zeta(s-\tfrac12, a+1)}{\zeta(s)}

    Source: Pla et al. (2024), H1 (§4.1) (finite expectation of ``M``).

    Examples
    --------
    >>> round(float(zipf(3).prob_gt(1)), 12)  # 1 - 1/ζ(3)
    0.168092627...
    >>> zipf(1.5)
    Traceback (most recent call last):
    ...
    ValueError: zipf(s=1.5) has an infinite mean (s <= 2): hypothesis H1 (E[m] < inf) fails
    """
    s = check_positive("s", s)
    if s <= 2:
        raise ValueError(f"zipf(s={s!r}) has an infinite mean (s <= 2): hypothesis H1 (E[m] < inf) fails")
    return ZipfLaw(s)


# =========================================================================== helpers


def _scipy_mean(dist: Any) -> float:
    """A scipy distribution's mean (scipy computes other moments alongside and may warn)."""
    with np.errstate(all="ignore"):
        return float(dist.mean())


def _plain(v: object) -> object:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    if isinstance(v, Fraction):
        return str(v)
    return v


def _mp_log(v: Any) -> Any:
    return mpmath.log(v) if v > 0 else mpmath.ninf


def _log1mexp(x: ArrayLike, precision: int | None) -> np.ndarray:
    if precision is None:
        return log1mexp(np.asarray(x, dtype=float))
    return np.asarray(_MP_LOG1MEXP(np.asarray(x, dtype=object)), dtype=object)


def _mp_log1mexp_scalar(v: Any) -> Any:
    if v >= 0:
        return mpmath.ninf
    if v > -mpmath.log(2):
        return mpmath.log(-mpmath.expm1(v))
    return mpmath.log1p(-mpmath.exp(v))


_MP_LOG1MEXP = np.frompyfunc(_mp_log1mexp_scalar, 1, 1)


def _as_int_array(a: ArrayLike, name: str = "a") -> np.ndarray:
    """``a`` as an int64 array: integers (no booleans) of absolute value at most 2**62, else ValueError."""
    bad = f"{name} must be an integer or an array of integers of absolute value <= 2**62, got {format_value(a)}"
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(bad) from None
    if arr.dtype == object:
        flat = arr.ravel().tolist()
        if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in flat):
            raise ValueError(bad)
        if any(isinstance(v, numbers.Integral) and abs(int(v)) > MAX_SIZE for v in flat):
            raise ValueError(bad)
        try:
            arr = arr.astype(float)
        except OverflowError:
            raise ValueError(bad) from None
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.complexfloating):
        raise ValueError(bad)
    if np.issubdtype(arr.dtype, np.floating):
        if np.any(~np.isfinite(arr)) or np.any(arr != np.round(arr)) or np.any(np.abs(arr) > MAX_SIZE):
            raise ValueError(bad)
    elif np.issubdtype(arr.dtype, np.unsignedinteger) and np.any(arr > MAX_SIZE):
        raise ValueError(bad)
    return arr.astype(np.int64)


_PARSERS: dict[str, Callable] = {
    "poisson": lambda xs: poisson(float(xs[0])),
    "binomial": lambda xs: binomial(int(xs[0]), float(xs[1])),
    "uniform": lambda xs: uniform(int(xs[0]), int(xs[1])),
    "point": lambda xs: point(int(xs[0])),
    "geometric": lambda xs: geometric(float(xs[0])),
    "zipf": lambda xs: zipf(float(xs[0])),
    "empirical": lambda xs: empirical([int(x) for x in xs]),
    "finite": lambda xs: finite({int(k): float(v) for k, v in (x.split("=") for x in xs)}),
}


def parse(spec: str) -> SizeLaw:
    """Build a law from a short text spec, as the command line takes it.

    ``poisson:5``, ``binomial:1000,0.005``, ``uniform:1,9``, ``point:10``,
    ``geometric:0.2``, ``zipf:2.5``, ``finite:1=0.5,100=0.5``, ``empirical:1,1,3,5``.

    Examples
    --------
    >>> parse("uniform:1,9")
    uniform(lo=1, hi=9)
    >>> parse("cauchy:1")
    Traceback (most recent call last):
    ...
    ValueError: spec 'cauchy:1': unknown size law 'cauchy'; choose one of binomial, empirical, finite, geometric, point, poisson, uniform, zipf
    """
    if not isinstance(spec, str):
        raise ValueError(f"spec must be a string such as 'poisson:5', got {spec!r}")
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    if kind not in _PARSERS:
        raise ValueError(f"spec {spec!r}: unknown size law {kind!r}; choose one of {', '.join(sorted(_PARSERS))}")
    args = [x.strip() for x in rest.split(",") if x.strip()]
    try:
        return _PARSERS[kind](args)
    except (IndexError, TypeError) as exc:
        raise ValueError(f"spec {spec!r} cannot be read: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"spec {spec!r}: {exc}") from None
