r"""The abstract size law and its log-space queries.

:class:`SizeLaw` turns a concrete law's primitives (log-pmf, log-survival function, mean,
sampler, tail bound) into the public queries of Pla et al. (2024), Theorems 1-2:
:math:`P(m \ge a)`, :math:`P(m > a)`, :math:`E[\sqrt{m}\,\mathbb 1\{m \le a\}]`,
:math:`E[\sqrt{m \wedge a}]`, :math:`M(k)`, :math:`E[m]`, :math:`E[\sqrt m]`, each vectorised
over ``a``, in log space, in float64 or mpmath.

**Closed form** here: :math:`E[\sqrt{m\wedge a}] = E[\sqrt m\,\mathbb 1\{m\le a\}] + \sqrt a\,P(m>a)`
(one ``logaddexp``: 1 ulp over its inputs) and :math:`P(m \ge a)` from whichever of the two
tails is below 1/2 (no cancellation).  **Tabulated** (by default, see ``_tables``): the cdf,
the partial moment and the survival function inside the table; beyond it the law's own
closed-form survival function.  A subclass with closed forms (uniform, geometric, zipf)
overrides the tabulated queries; each family's module states its own error bounds.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, cast

import numpy as np
from numpy.typing import ArrayLike

from ..numerics import backend, check_integer, check_precision, check_rng, workdps
from ._common import _as_int_array, _log1mexp, _mp_log, FLOAT_TOL, LOG_HALF, MAX_DRAWS
from . import _tables
from ._tables import Table
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it


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

    _table_sf_closed = True  # a table's P(m > a) from the closed form where not deep (else summed from the top)
    max_precision: int | None = None  # a law whose mpmath sums are accurate only so far sets a cap

    _stack_class: Any = None  # a class answering for many laws of this class at once (geometric, zipf)

    @classmethod
    def _stack_of(cls, laws: Any) -> Any:
        """Several laws of this class as one stack with ``query(name, g, a)`` (their float64 functionals at
        ``(laws[g[k]], a[k])`` in one pass, bit for bit each law's own), or ``None``: asked law by law."""
        return None if cls._stack_class is None else cls._stack_class(laws)

    @cached_property
    def _stack(self) -> Any:
        """This law as a stack of one (a law with a stack computes its float64 functionals as the stack does)."""
        return self._stack_of((self,))

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
        return _tables.table_end(self, tol)

    def _points(self, end: int) -> np.ndarray:
        return np.arange(self._window_start(), end + 1, dtype=np.int64)

    @cached_property
    def _float_end(self) -> int:
        """The float64 table's last point (its search end), found without building the table."""
        return int(self._table_end(FLOAT_TOL))

    @cached_property
    def _float_table(self) -> Table:
        return _tables.float_table(self)

    def _mp_table(self, precision: int) -> Table:
        cache = self.__dict__.setdefault("_mp_tables", {})
        if precision not in cache:
            cache[precision] = _tables.mp_table(self, precision)
        return cache[precision]

    def _rational_ratio(self) -> Callable[[int], tuple[int, int]] | None:
        """``k -> (n, d)`` with ``M(k+1)/M(k) = n/d`` exactly (integers), where the law has one: its
        mpmath tables and walks are then exact integer sums (``_fixed``)."""
        return None

    def _mp_masses_on(self, pts: np.ndarray) -> list:
        """``M(k)`` in mpmath at consecutive or listed points (the working precision)."""
        return [mpmath.exp(self._mp_logpmf(int(k))) for k in pts]

    def _table(self, precision: int | None) -> Table:
        return self._float_table if precision is None else self._mp_table(precision)

    # ---- log-space primitives (a: int64 array) -------------------------------------------------
    def _lookup(self, values: np.ndarray, table: Table, a: np.ndarray, precision: int | None) -> np.ndarray:
        pts = table.points
        if len(pts) and int(pts[-1]) - int(pts[0]) + 1 == len(pts):  # every integer of [first, last]: by index
            idx = np.clip(a - pts[0], -1, len(pts) - 1)
        else:
            idx = np.searchsorted(pts, a, side="right") - 1
        out = np.where(idx >= 0, table.column(values, np.maximum(idx, 0)), -np.inf)
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
        need = ~np.asarray(ls < LOG_HALF, dtype=bool)
        if precision is None and np.any(~need):  # the cdf only where it is read (past a table it is 1 - sf: a walk)
            out = np.array(ls, dtype=float)
            if np.any(need):
                out[need] = _log1mexp(self._log_cdf((a - 1)[need], None), None)
            return out
        lc = self._log_cdf(a - 1, precision)
        return np.where(ls < LOG_HALF, ls, _log1mexp(lc, precision))

    def _log_partial_sqrt(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        """log E[sqrt(m) 1{m <= a}] (for ``a`` beyond an infinite table: within ``tol``)."""
        table = self._table(precision)
        return self._below_window(self._lookup(table.log_cum_sqrt, table, a, precision), table, a, precision, 1)

    def _below_window(
        self, out: np.ndarray, table: Table, a: np.ndarray, precision: int | None, which: int
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
        >>> from bounds import sizes
        >>> sizes.point(3).prob_ge([2, 3, 4])
        array([1., 1., 0.])
        """
        return self._query(self._log_ge, a, precision, log=False)

    def log_prob_ge(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`\log P(m \ge a)`, from whichever of the two tails is smaller (no cancellation).

        .. math:: \log P(m \ge a) = \log\big(1 - P(m < a)\big) = \log P(m > a - 1)

        Source: Pla et al. (2024), Theorem 2 and eq. (12).

        Examples
        --------
        >>> from bounds import sizes
        >>> float(sizes.geometric(0.5).log_prob_ge(3))  # log(1/4)
        -1.386294361119890...
        """
        return self._query(self._log_ge, a, precision, log=True)

    def prob_gt(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`P(m > a)`, the probability in Theorem 1's exponent.

        .. math:: P(m > a) = \sum_{k > a} M(k)

        Source: Pla et al. (2024), Theorem 1, eq. (10).

        Examples
        --------
        >>> from bounds import sizes
        >>> sizes.uniform(1, 4).prob_gt([0, 1, 4])
        array([1.  , 0.75, 0.  ])
        """
        return self._query(self._log_sf, a, precision, log=False)

    def log_prob_gt(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`\log P(m > a)`; exact past float64's range for the log-concave families.

        .. math:: \log P(m > a) = \log \sum_{k > a} M(k)

        Source: Pla et al. (2024), Theorem 1, eq. (10).

        Examples
        --------
        >>> from bounds import sizes
        >>> float(sizes.geometric(0.5).log_prob_gt(2))  # log(1/4)
        -1.386294361119890...
        """
        return self._query(self._log_sf, a, precision, log=True)

    def partial_sqrt_mean(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`E[\sqrt{m}\,\mathbb{1}\{m \le a\}]`, the moment in Theorem 1's denominator.

        .. math:: E[\sqrt{m}\,\mathbb{1}\{m \le a\}] = \sum_{k \le a} \sqrt{k}\,M(k)

        Source: Pla et al. (2024), Theorem 1, eq. (10).

        Examples
        --------
        >>> from bounds import sizes
        >>> sizes.finite({1: 0.5, 4: 0.5}).partial_sqrt_mean([0, 1, 3, 4])
        array([0. , 0.5, 0.5, 1.5])
        """
        return self._query(self._log_partial_sqrt, a, precision, log=False)

    def log_partial_sqrt_mean(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`\log E[\sqrt{m}\,\mathbb{1}\{m \le a\}]`.

        .. math:: \log \sum_{k \le a} \sqrt{k}\,M(k)

        Source: Pla et al. (2024), Theorem 1, eq. (10).

        Examples
        --------
        >>> from bounds import sizes
        >>> float(sizes.point(4).log_partial_sqrt_mean(4))  # log 2
        0.693147180559945...
        """
        return self._query(self._log_partial_sqrt, a, precision, log=True)

    def sqrt_min_mean(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`E[\sqrt{m \wedge a}]`, Theorem 2's (canonical) denominator.

        Source: Pla et al. (2024), eq. (9) and (S34).

        .. math:: E[\sqrt{m \wedge a}] = E[\sqrt{m}\,\mathbb{1}\{m \le a\}] + \sqrt{a}\,P(m > a)

        Examples
        --------
        >>> from bounds import sizes
        >>> sizes.finite({1: 0.5, 4: 0.5}).sqrt_min_mean([1, 2, 4])
        array([1.        , 1.20710678, 1.5       ])
        """
        return self._query(self._log_sqrt_min, a, precision, log=False)

    def log_sqrt_min_mean(self, a: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`\log E[\sqrt{m \wedge a}]`.

        .. math:: \log\big(E[\sqrt{m}\,\mathbb{1}\{m \le a\}] + \sqrt{a}\,P(m > a)\big)

        Source: Pla et al. (2024), eq. (9) and (S34).

        Examples
        --------
        >>> from bounds import sizes
        >>> float(sizes.point(9).log_sqrt_min_mean(4))  # log 2
        0.693147180559945...
        """
        return self._query(self._log_sqrt_min, a, precision, log=True)

    def pmf(self, k: ArrayLike, *, precision: int | None = None) -> np.ndarray:
        r""":math:`M(k) = P(m = k)`.

        .. math:: M(k) = P_{m \sim M}(m = k), \qquad k \in \mathbb{N}^*

        Source: Pla et al. (2024), eq. (9) (:math:`M(i)` in the debiasing sum).

        Examples
        --------
        >>> from bounds import sizes
        >>> sizes.uniform(1, 4).pmf([0, 1, 4, 5])
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
        >>> from bounds import sizes
        >>> float(sizes.geometric(0.25).mean())
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
        at most the table's tolerance (``1e-20`` in float64).  In float64 it is the mean of
        :math:`\sqrt k` under the table's masses normalised by their own total,
        :math:`\sum_k \sqrt k\,M(k) / \sum_k M(k)`, summed in linear space (``math.fsum``): a weighted
        mean of :math:`\sqrt k` with positive weights, so within 3 ulps of one that obeys Jensen's
        :math:`E[\sqrt m] \le \sqrt{E[m]}` and :math:`\le \sqrt{\max \mathrm{supp}}`, whatever the masses'
        own error (Loader's log-masses are off by about 1e-15 at :math:`N = 2^{62}`, and the exponential of
        a log-sum near 21 loses 2e-15: ``binomial(2**62, 1 - 1e-16)`` came out 4 ulps above :math:`\sqrt N`).

        Examples
        --------
        >>> from bounds import sizes
        >>> float(sizes.point(16).sqrt_mean())
        4.0
        """
        precision = self._precision(precision)
        if precision is None:
            return self._float_sqrt_mean
        table = self._table(precision)
        with workdps(precision):
            return backend(precision).exp(table.column(table.log_cum_sqrt, np.array(-1)))[()]

    @cached_property
    def _float_sqrt_mean(self) -> float:
        return _tables.float_sqrt_mean(self, self._float_table)

    def sample(self, size: int, rng: int | np.random.Generator | np.random.SeedSequence | None) -> np.ndarray:
        r"""Draw ``size`` dataset sizes :math:`m_u \overset{iid}{\sim} M` (exact samplers).

        .. math:: m_u \sim M, \qquad u = 1, \dots, \text{size}

        Finite laws: a categorical draw; Poisson, binomial, geometric: numpy's samplers, zero-
        truncation by rejection (exact); Zipf: numpy's; :func:`from_scipy`: the distribution's own.
        ``rng`` is a seed or a ``numpy.random.Generator``.

        Source: Pla et al. (2024), §2 (:math:`m_u \sim M` i.i.d.).

        Examples
        --------
        >>> from bounds import sizes
        >>> sizes.point(7).sample(3, rng=0).tolist()
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
        >>> from bounds import sizes
        >>> sizes.finite({2: 0.25, 7: 0.75}).support_points()
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
        >>> from bounds import sizes
        >>> sizes.finite({2: 0.25, 7: 0.75}).search_end()
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
        >>> from bounds import sizes
        >>> sizes.finite({2: 0.25, 7: 0.75}).floor_support([1, 2, 6, 9]).tolist()
        [0, 2, 2, 7]
        """
        return np.asarray(self._floor_support(_as_int_array(a)))

    def _search_end(self) -> int:
        return self._float_end  # the table's end, without the table (a light law's prefix needs no table)

    def _floor_support(self, a: np.ndarray) -> np.ndarray:
        pts = self._float_table.points
        idx = np.searchsorted(pts, a, side="right") - 1
        return np.where(idx >= 0, pts[np.maximum(idx, 0)], 0)



def _rebuild(constructor: str, kwargs: dict) -> SizeLaw:
    """Unpickle a law by calling its public constructor again (families hold closures)."""
    from .. import sizes

    return cast(SizeLaw, getattr(sizes, constructor)(**kwargs))


