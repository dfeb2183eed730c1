r"""Laws built from a variable :math:`X` on the integers: zero-truncated or shifted families.

:class:`FamilyLaw` holds :math:`X`'s closed forms (:class:`_Family`) and handles ``0``
(``zero="truncate"``: :math:`m = X \mid X \ge 1`; ``"shift"``: :math:`m = X + 1`).

**Closed forms**: :math:`M(k)`, :math:`P(m > a)` and :math:`E[m]` from :math:`X`'s own (scipy's
float64 accuracy for :func:`from_scipy`; Loader's series for Poisson and binomial).
**Tabulated**: :math:`P(m \le a)` and :math:`E[\sqrt m\,\mathbb 1\{m\le a\}]` on a table cut
at the proven tail bound of ``_tables`` (``1e-20`` float64, :math:`10^{-(d+5)}` mpmath).
**Series**: for a log-concave pmf, deep tails past float64's range and the mass below a
window on the bulk, each with a proven geometric remainder (``1e-17`` relative float64,
:math:`10^{-(d+5)}` at ``d`` digits); at a precision, Poisson and binomial masses by their exact
rational ratios in integer arithmetic (``_fixed``: no mpmath operation per term).
**Bulk engine** (Poisson and binomial laws whose bulk is wider than ``MP_BULK_WIDTH`` points,
or ``FLOAT_BULK_WIDTH`` for a Poisson law in float64): no table; :math:`P(m \le a)`,
:math:`P(m > a)`, :math:`E[\sqrt m\,\mathbb 1\{m \le a\}]` and :math:`E[\sqrt m]` point by point
from ``_bulk`` (incomplete gamma/beta integrals; a Taylor expansion of :math:`\sqrt{\cdot}` over
exact truncated central moments with a proven remainder, :math:`10^{-(d+7)}` relative; float64
answers: the cdf by a float64 quadrature of the same integral, within 1e-14, the rest at 22 digits),
the masses below :math:`\tfrac34 E[X]` summed locally.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, cast

import numpy as np

from ..numerics import last_true
from ._common import _mp_log, DEEP_LOG, FLOAT_TOL, LOG_HALF, MAX_LISTED, MAX_SIZE, MAX_TABLE, MAX_WALK, WHOLE_TABLE
from ._tables import _deep_logsfs, _left_log_sums, tail_past, table_prefix as _tables_prefix
from ._base import _rebuild, SizeLaw
from ._bulk import BulkFamily
from . import _bulk, _fixed
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it


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
    sf_in_table: bool = True  # the table takes logsf where it is not deep (False: masses summed from the top)
    bulk: BulkFamily | None = None  # Poisson/binomial: the table-free engine of ``_bulk`` for wide bulks
    mode: int | None = None  # X's smallest mode in closed form (log-concave families; else found by bisection)
    sf_walked: bool = False  # logsf past the mode is already the walk of _tables._deep_logsfs (no second walk)
    log_p0: float | None = None  # log P(X = 0) in closed form, the value logpmf(0) returns (else read from it)
    # log P(X > 0) in closed form, the value logsf(0) returns, for a family on X >= 0 (logsf(-1) = 0): neither is asked
    log_sf0: float | None = None
    sampler: Callable = field(kw_only=True)  # (size, rng) -> draws of X; every constructor gives one




LEFT_GAP = 4096  # points of a cumulative pass that cost about one walk: farther queries get their own walk
# an mpmath table costs seconds already below this width (poisson(1e7), a 69,000-point bulk: 9.5 s of CPU at
# 30 digits for three queries, the engine 0.14 s at the same accuracy; benchmarks/bench_sizes.py --bulk); wider
# laws use the engine at a precision, narrower ones keep their tables (and their values)
MP_BULK_WIDTH = 100_000
# a float64 table of a Poisson bulk this wide takes seconds to build (poisson(1e10): 5.0 s of CPU for three
# queries, the engine 0.01 s): wider bulks use the engine in float64 too.  A binomial's float64 table is wrong
# by 1.6e-12 in E[sqrt m 1{m <= a}] at binomial(10**12, 1e-3) (the engine: 1.1e-15) and refused past 10**6
# points: binomial laws use the engine in float64 from MP_BULK_WIDTH on.
FLOAT_BULK_WIDTH = 800_000
START_PASS = 2**17  # widest bracket of the bulk's start evaluated in one vectorised pass (else a bisection)
MAX_BULK_POINTS = 10_000  # distinct points of one query answered by the bulk engine (minutes of CPU at most)


class FamilyLaw(SizeLaw):
    """A law built from a base variable ``X`` on the integers, with ``0`` handled by ``zero``.

    ``zero="truncate"``: ``m = X | X >= 1``; ``"shift"``: ``m = X + 1``;
    ``"error"``: ``X`` must already live on ``N*``.
    """

    def __init__(self, name: str, params: tuple, family: _Family, zero: str) -> None:
        if not isinstance(zero, str) or zero not in ("truncate", "shift", "error"):
            raise ValueError(f"zero must be 'truncate', 'shift' or 'error', got {zero!r}")
        self.name, self.params, self.family, self.zero = name, params, family, zero
        self._table_sf_closed = family.sf_in_table
        lo, hi = family.support
        if family.log_sf0 is not None and lo >= 0:  # the closed forms: P(X < 0) = 0
            self._log_p_ge1, p_neg = family.log_sf0, 0.0
            p_le0 = -math.expm1(self._log_p_ge1)
        else:
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

    def _logpmf_span(self, lo: int, hi: int) -> np.ndarray:
        """:meth:`_logpmf` on the integers ``lo..hi``, a new array (the same values; a family that remembers its
        masses on a range reads them as one slice)."""
        span = getattr(self.family.logpmf, "span", None)
        if span is None:
            return np.array(self._logpmf(np.arange(lo, hi + 1, dtype=np.int64)), dtype=float)
        s = 1 if self.zero == "shift" else 0
        out = span(lo - s, hi - s)
        if self._truncated:
            out -= self._log_p_ge1
        return out

    def _x_logsf(self, a: np.ndarray) -> np.ndarray:
        """log P(X > a), exact in deep tails for log-concave families."""
        with np.errstate(divide="ignore"):
            out = np.array(self.family.logsf(a), dtype=float)
        if not self.family.log_concave or self.family.sf_walked:  # no walk to add (a walked logsf is one already)
            return out
        deep = (out < DEEP_LOG) & (np.asarray(a) < self.family.support[1])  # past X's top P(X > a) = 0 exactly
        if np.any(deep):
            flat, a_flat = out.reshape(-1), np.broadcast_to(a, out.shape).reshape(-1)
            at = np.flatnonzero(deep.reshape(-1))
            flat[at] = _deep_logsfs(self.family.logpmf, a_flat[at])  # all deep points in one pass of walks
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
        """log M(k) at the working precision; a Poisson or binomial log-mass is a difference of terms
        as large as ``k log k`` or ``log N!``: evaluated with their digits more, then rounded."""
        fam = self.family.bulk
        extra = 0 if fam is None else 2 + int(math.log10(max(10.0, abs(k), fam.lam, fam.N or 0)))
        with mpmath.workdps(mpmath.mp.dps + extra):
            if self.zero == "shift":
                out = self._mp_x_logpmf(k - 1)
            else:
                out = self._mp_x_logpmf(k)
                if self._truncated:
                    out = out - mpmath.log(self._mp_x_sf(0))
        return +out

    def _mp_sf(self, a: int) -> Any:
        if self.family.log_concave and self.family.mp_logpmf is not None and a >= self._mode:
            # past the mode the masses fall: sum them locally (closed forms may not converge)
            if a >= self.support_max:
                return mpmath.mpf(0)
            return mpmath.exp(self._mp_walk(a + 1, +1, moment=False)[0])
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
            return base / self._p_ge1 if self._truncated else base
        base = f.mp_mean() if f.mp_mean else mpmath.mpf(f.mean)
        if self.zero == "shift":
            return base + 1
        return base / self._mp_x_sf(0) if self._truncated else base

    @cached_property
    def _p_ge1(self) -> float:
        r""":math:`P(X \ge 1)` in float64 with its relative digits: :math:`1 - P(X = 0)` by ``expm1`` on a
        support from 0 (``exp`` of :math:`\log P(X \ge 1) \approx \log\lambda = -690` would keep 1e-13 of
        poisson(1e-300)'s, and put its mean below 1), else :math:`e^{\log P(X \ge 1)}`."""
        if self.family.support[0] == 0:
            if self.family.log_p0 is not None:
                return -math.expm1(self.family.log_p0)
            with np.errstate(divide="ignore"):
                return -math.expm1(float(self.family.logpmf(np.array(0))))
        return math.exp(self._log_p_ge1)

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
        # the masses rise up to the mode: a bracket [mode - B, mode] whose first point is already below the
        # threshold (B doubled from 64 by single evaluations until it is), then one vectorised pass over it,
        # or a bisection where it is wider than START_PASS points (huge laws, answered by the bulk engine)
        peak = float(self._logpmf(np.array(mode)))
        B = 64  # the first of B = 64, 128, … with mode - B <= lo or M(mode - B) < e^-60 M(mode): one call for all
        Bs = []
        while mode - B > lo:
            Bs.append(B)
            B *= 2
        if Bs:
            below = np.flatnonzero(np.asarray(self._logpmf(mode - np.asarray(Bs, dtype=np.int64))) < peak - 60)
            B = Bs[below[0]] if below.size else B
        first = max(lo, mode - B)
        if mode - first > START_PASS:
            return int(last_true(lambda a: np.asarray(self._logpmf(a) < peak - 60), first, mode)) + 1
        lp = np.asarray(self._logpmf(np.arange(first, mode + 1)), dtype=float)
        return first + int(np.argmax(lp >= peak - 60))

    @cached_property
    def _mode(self) -> int:
        """The smallest mode of a log-concave pmf: ``X``'s closed form where the family gives it (on
        ``k >= 1`` a zero-truncated pmf is ``X``'s rescaled, a shifted one ``X``'s moved by one), else a
        bisection on the sign of its increments."""
        lo = self.support_min
        top = min(self.support_max, MAX_SIZE) - 1
        if self.family.mode is not None:  # within the range the bisection searches
            return min(max(lo, self.family.mode + (1 if self.zero == "shift" else 0)), int(top) + 1)

        def rising(a: np.ndarray) -> np.ndarray:
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.asarray(self._logpmf(a + 1) > self._logpmf(a))

        return int(last_true(rising, lo, max(top, lo))) + 1

    def _window_start(self) -> int:
        return self._start

    def _table_end(self, tol: float) -> int:
        if self.family.log_concave and 2 * (self._mode - self._start) > MAX_TABLE:  # the bulk alone is too wide
            raise ValueError(f"{self!r}: the bulk spans {2 * (self._mode - self._start)} points, more than a table "
                             f"holds ({MAX_TABLE})")
        start = self._start
        # a family whose survival function is itself a sum of masses (Poisson): one pass instead of a search
        if (self.family.log_concave and not self.family.sf_in_table
                and not (self.is_finite and self.support_max - start <= WHOLE_TABLE)):
            end = self._table_end_by_sums(tol)
            if end is not None:
                return end
        return super()._table_end(tol)

    def _table_end_by_sums(self, tol: float) -> int | None:
        r"""``_tables.table_end``'s cut for a log-concave pmf from one vectorised pass: the smallest
        :math:`K > \max(\text{start}, 1)` with :math:`B(K) = E[m\,1\{m > K\}]/\sqrt{K+1} \le` ``tol``
        (the bound the tables prove; ``None``: past ``MAX_TABLE`` points, left to the generic search).

        On ``k = lo+1, …, e`` the first moments above each point are summed from the top; beyond ``e``
        (past the mode, where :math:`r = M(e+1)/M(e) < 1` bounds every later ratio by log-concavity)
        :math:`\sum_{i \ge 1} (e+i) M(e) r^i = M(e)\,\big(e r/(1-r) + r/(1-r)^2\big)` is added;
        ``e`` grows 4-fold until that remainder alone meets the bound at ``e``.
        """
        lo = max(self._start, 1)
        log_tol = math.log(tol)
        mode = self._mode
        if mode > lo:  # B is non-increasing: when B(mode) > tol the cut lies past the mode, and the pass starts there
            # B(mode) >= (mode+1) M(mode+1) / sqrt(mode+1): the mass just past the mode alone
            if 0.5 * math.log(mode + 1.0) + float(self._logpmf_span(mode + 1, mode + 1)[0]) > log_tol:
                lo = mode
        e = lo + 16 * math.isqrt(lo) + 64
        while e - self._start <= MAX_TABLE:
            top = int(min(e + 1, self.support_max))
            k = np.arange(lo + 1, top + 1, dtype=np.int64)
            lp = self._logpmf_span(lo + 1, top)
            with np.errstate(divide="ignore", invalid="ignore"):
                lt = np.log(k) + lp  # log k M(k)
                if top <= e:  # the support ends within the pass: nothing remains beyond it
                    rem = -math.inf
                else:
                    log_r = float(lp[-1] - lp[-2])
                    if not log_r < 0:
                        e = lo + 4 * (e - lo)
                        continue
                    r = math.exp(log_r)  # may underflow to 0 (poisson(5e-324)): the sum's log taken in parts
                    rem = float(lp[-2]) + log_r + math.log(e / (1 - r) + 1 / (1 - r) ** 2)
                    k, lp, lt = k[:-1], lp[:-1], lt[:-1]
                # log E[m 1{m > k}]: the terms scaled by the largest and summed from the top (the remainder first); a
                # sum whose terms all underflow there is below e^-700 of the largest, far below tol: -inf decides alike
                big = max(float(lt.max()), rem)
                w = np.zeros(len(lt))
                if big > -math.inf:
                    w[0] = math.exp(rem - big)
                    np.exp(lt[:0:-1] - big, out=w[1:])
                above = np.log(np.cumsum(w)[::-1]) + big
                bound = above - 0.5 * np.log(k + 1.0)
            ok = np.flatnonzero(bound <= log_tol)
            if ok.size:
                return int(min(k[ok[0]], self.support_max))
            if top <= e:
                return int(self.support_max)
            e = lo + 4 * (e - lo)
        return None

    # ---- the table-free bulk engine (Poisson and binomial laws wider than a table) --------------
    def _bulk_mode(self, precision: int | None) -> bool:
        """Whether queries at ``precision`` go to the bulk engine: the bulk is wider than
        ``MP_BULK_WIDTH`` points (for a Poisson law in float64, ``FLOAT_BULK_WIDTH``)."""
        fam = self.family.bulk
        if fam is None:
            return False
        width = 2 * (self._mode - self._start)
        return width > (FLOAT_BULK_WIDTH if precision is None and fam.N is None else MP_BULK_WIDTH)

    def _light_prefix(self, cap: int, cut_tail: float) -> tuple[int, bool, np.ndarray, float, None] | None:
        r"""``(K, False, log M(k) for k = 0..K, log P(m > K), None)``, ``K`` the search end, where the table would
        hold every integer of ``[support_min, K]`` and ``K <= cap`` (else ``None``): the table's masses without the
        table (``bounds.dame._scan.prefix`` sums them); a log-concave law's tail from the same evaluation
        (:func:`~bounds.sizes._tables.tail_past`), else its own.  ``cut_tail`` is unused (``K`` bounds the tail).

        .. math:: \log M(k),\ k = 0, \dots, K, \qquad \log P(m > K)
        """
        lo = self.support_min
        if lo < 0 or self._bulk_mode(None) or self._start != lo:
            return None
        K = self.search_end()
        if K > cap:
            return None
        finite = K >= self.support_max
        walk = not finite and self.family.log_concave and K >= self._mode
        lp = self._logpmf_span(0, K + 64 if walk else K)
        lp[:lo] = -np.inf
        tail = -math.inf if finite else (tail_past(lp, K) if walk else None)
        if tail is None:
            tail = float(self._logsf(np.array([K], dtype=np.int64))[0])
        return K, False, lp[: K + 1], tail, None

    def _table_prefix(self, K: int) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The three float64 functionals on ``0..K(+1)`` read from the table (``_tables.table_prefix``), or ``None``."""
        return None if self._bulk_mode(None) else _tables_prefix(self, K)

    def _bulk_point(self, a: int, precision: int | None) -> tuple[Any, Any, Any]:
        """``(log P(m <= a), log P(m > a), log E[sqrt(m) 1{m <= a}])`` in mpmath at the working precision."""
        cache = self.__dict__.setdefault("_bulk_cache", {})
        key = (a, precision)
        if key in cache:
            return cast(tuple[Any, Any, Any], cache[key])
        fam = self.family.bulk
        assert fam is not None
        s = 1 if self.zero == "shift" else 0
        b = a - s
        if a < self.support_min:
            out = (mpmath.ninf, mpmath.mpf(0), mpmath.ninf)
        elif a >= self.support_max:
            out = (mpmath.mpf(0), mpmath.ninf, self._bulk_log_sqrt_total())
        elif 4 * b < 3 * fam.mean():  # masses fall by a quarter or more per step leftwards: summed directly
            lc, lg = (v.ravel()[0] for v in self._left_log_sums(np.array([a]), precision))
            lc, lg = mpmath.mpf(lc), mpmath.mpf(lg)
            out = (lc, _bulk._mp_log1mexp(lc), lg)
        else:
            fast = _bulk.log_cdf_pair_float(fam, b) if precision is None else None
            if fast is None:
                lc, ls = _bulk.log_cdf_pair(fam, b)
                lg = _bulk.log_sqrt_moment(fam, b, s, lc)
            else:  # float64: the cdf's own error bound is the moment's cdf term
                lc, ls = fast
                lg = _bulk.log_sqrt_moment(fam, b, s, lc, cdf_err=mpmath.mpf(_bulk.FLOAT_CDF_ERR))
            if self._truncated:  # m = X | X >= 1: remove P(X = 0) from the cdf, then condition
                lp1 = mpmath.log(self._mp_x_sf(0))
                lc = lc + _bulk._mp_log1mexp(fam.logpmf(0) - lc) - lp1
                ls, lg = ls - lp1, lg - lp1
            out = (lc, ls, lg)
        if len(cache) > 100_000:  # bounded memory
            cache.clear()
        cache[key] = out
        return out

    def _bulk_log_sqrt_total(self) -> Any:
        """log E[sqrt m] by the bulk engine, at the working precision."""
        fam = self.family.bulk
        assert fam is not None
        out = _bulk.log_sqrt_moment(fam, None, 1 if self.zero == "shift" else 0, mpmath.mpf(0))
        return out - mpmath.log(self._mp_x_sf(0)) if self._truncated else out

    def _bulk_query(self, a: np.ndarray, precision: int | None, which: int) -> np.ndarray:
        """One column (0: log cdf, 1: log sf, 2: log partial sqrt moment) of :meth:`_bulk_point`."""
        a = np.asarray(a, dtype=np.int64)
        pts, inverse = np.unique(a, return_inverse=True)
        if pts.size > MAX_BULK_POINTS:
            raise ValueError(f"a holds {pts.size} distinct points; {self!r} is answered point by point (about "
                             f"0.03-0.3 s each), at most {MAX_BULK_POINTS} per call")
        with mpmath.workdps(_bulk.FLOAT_DPS if precision is None else precision):
            vals = [self._bulk_point(int(ai), precision)[which] for ai in pts.tolist()]
            if precision is None:
                return np.asarray([float(v) for v in vals], dtype=float)[inverse.ravel()].reshape(a.shape)
            return np.asarray([+v for v in vals], dtype=object)[inverse.ravel()].reshape(a.shape)

    def _log_sf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        if self._bulk_mode(precision):
            return self._bulk_query(a, precision, 1)
        return super()._log_sf(a, precision)

    def _log_cdf(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        if self._bulk_mode(precision):
            return self._bulk_query(a, precision, 0)
        return super()._log_cdf(a, precision)

    def _log_partial_sqrt(self, a: np.ndarray, precision: int | None) -> np.ndarray:
        if self._bulk_mode(precision):
            return self._bulk_query(a, precision, 2)
        return super()._log_partial_sqrt(a, precision)

    def sqrt_mean(self, *, precision: int | None = None) -> Any:
        precision = self._precision(precision)
        if not self._bulk_mode(precision):
            return super().sqrt_mean(precision=precision)
        with mpmath.workdps(_bulk.FLOAT_DPS if precision is None else precision):
            out = mpmath.exp(self._bulk_log_sqrt_total())
            return float(out) if precision is None else +out

    sqrt_mean.__doc__ = SizeLaw.sqrt_mean.__doc__

    def _search_end(self) -> int:
        if not self._bulk_mode(None):
            return super()._search_end()
        fam = self.family.bulk
        assert fam is not None
        if fam.mean() > MAX_SIZE:
            raise ValueError(f"{self!r}: its bulk lies past the largest size 2**62")
        return _bulk.search_end(fam, 1 if self.zero == "shift" else 0, FLOAT_TOL * math.exp(self._log_p_ge1))

    def _floor_support(self, a: np.ndarray) -> np.ndarray:
        # past a table's last point (a cut table, or the search end of an infinite law) the law goes on, each integer
        # of its support interval taken as a support point (Poisson and binomial: every one has a positive mass; a
        # scipy law with gaps has them within its table, whose points are every integer of [support_min, end] too)
        top = self.support_max if self.is_finite else MAX_SIZE
        a = np.asarray(a, dtype=np.int64)
        if not self._bulk_mode(None):
            return np.where(a > self._float_table.points[-1], np.minimum(a, top), super()._floor_support(a))
        return np.where(a >= self.support_min, np.minimum(a, top), 0)

    def support_points(self, *, precision: int | None = None) -> np.ndarray:
        if not self._bulk_mode(self._precision(precision)):
            return super().support_points(precision=precision)
        end = self._search_end()
        if end - self._start + 1 > MAX_LISTED:
            raise ValueError(f"{self!r}: its bulk spans {end - self._start + 1} points, more than support_points "
                             f"lists ({MAX_LISTED}); every query is answered without them")
        return np.arange(self._start, end + 1, dtype=np.int64)

    support_points.__doc__ = SizeLaw.support_points.__doc__

    def _rational_ratio(self) -> Callable[[int], tuple[int, int]] | None:
        fam = self.family.bulk
        if fam is None:
            return None
        shift = 1 if self.zero == "shift" else 0
        return _fixed.poisson_ratio(fam.lam, shift) if fam.N is None else _fixed.binomial_ratio(fam.N, fam.p, shift)

    def _mp_walk(self, a: int, step: int, moment: bool = True) -> Any:
        r"""``(log sum M(k), log sum sqrt(k) M(k))`` over ``k`` from ``a`` in direction ``step`` (±1),
        where the masses fall (below or past the mode), to the working precision (``moment=False``:
        the second is not needed; Poisson and binomial laws then skip it).

        Poisson and binomial laws: exact integer sums (``_fixed.walk``, a proven remainder).
        Others: consecutive masses come from the exact ratio ``mp_ratio`` (else the closed form); by
        log-concavity the ratio :math:`r` of the last two terms bounds every later one, so the
        rest is below ``term r/(1-r)`` (times :math:`\sqrt{k}` growth, checked, rightwards).
        """
        end = self.support_min if step < 0 else self.support_max
        exact = self._rational_ratio()
        if exact is not None:
            dps = mpmath.mp.dps
            with mpmath.workdps(dps + 10):
                lc, ls = _fixed.walk(exact, self._mp_logpmf(a), a, step, end, dps, MAX_WALK, moment)
            return +lc, +ls
        ratio = self.family.mp_ratio if self.zero != "shift" else None
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
        if precision is None:
            return self._left_log_sums_float(a)
        # the cdf and the moment at a point come from one walk: remembered (a search asks for both)
        cache = self.__dict__.setdefault("_mp_left", {})
        walks = []
        for ai in np.ravel(a).tolist():
            key = (ai, mpmath.mp.dps)
            if key not in cache:
                if len(cache) > 10_000:  # bounded memory
                    cache.clear()
                cache[key] = self._mp_walk(ai, -1)
            walks.append(cache[key])
        return (np.asarray([w[0] for w in walks], dtype=object).reshape(a.shape),
                np.asarray([w[1] for w in walks], dtype=object).reshape(a.shape))

    def _left_log_sums_float(self, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_left_log_sums` in float64 for many points at once: the distinct points are cut into
        clusters (gaps above :data:`LEFT_GAP`); in each, the smallest point's sums come from a walk with a
        proven remainder (the masses fall leftwards below the mode, see ``_tables._walk_log_sum``) and
        the others from one cumulative pass over the cluster: no pass from the support's minimum."""
        lo = self.support_min
        pts, inverse = np.unique(a, return_inverse=True)
        out_c, out_s = np.empty(pts.size), np.empty(pts.size)
        if not pts.size:
            return out_c.reshape(a.shape), out_s.reshape(a.shape)
        cuts = np.flatnonzero(np.diff(pts) > LEFT_GAP) + 1
        walks = self.__dict__.setdefault("_left_walks", {})  # a cluster's first point: its two walks, once
        if len(walks) > 10_000:  # bounded memory
            walks.clear()
        for sel in np.split(np.arange(pts.size), cuts):
            first = int(pts[sel[0]])
            if first not in walks:
                walks[first] = _left_log_sums(self._logpmf, first, lo)
            base_c, base_s = walks[first]
            k = np.arange(first + 1, int(pts[sel[-1]]) + 1)
            lp = np.asarray(self._logpmf(k), dtype=float)
            idx = pts[sel] - first
            out_c[sel] = np.logaddexp.accumulate(np.concatenate([[base_c], lp]))[idx]
            out_s[sel] = np.logaddexp.accumulate(np.concatenate([[base_s], 0.5 * np.log(k) + lp]))[idx]
        return out_c[inverse].reshape(a.shape), out_s[inverse].reshape(a.shape)

    def _tail_sqrt_bound(self, K: int) -> float:
        f = self.family
        if self.zero == "shift":  # E[(X+1) 1{X >= K}] = E[X 1{X > K-1}] + P(X > K-1)
            first = f.tail_first_moment(K - 1) + math.exp(float(f.logsf(K - 1)))
        else:
            first = f.tail_first_moment(K)
            if self._truncated:
                first /= math.exp(self._log_p_ge1)
        return first / math.sqrt(K + 1)


