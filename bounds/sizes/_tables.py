r"""Tables and windows: the sums over a support that no closed form gives.

**Tabulated** (one cumulative pass in log space, float64 or mpmath): :math:`P(m \le a)`,
:math:`E[\sqrt m\,\mathbb 1\{m \le a\}]` and :math:`P(m > a)` (summed from the top, so deep
tails keep their relative digits) on ``support_min..K``.

**Error bounds.**  An infinite support is cut at the smallest ``K`` with the proven bound
:math:`E[\sqrt m\,\mathbb 1\{m > K\}] \le E[m\,\mathbb 1\{m > K\}]/\sqrt{K+1} \le` ``tol``
(``1e-20`` in float64, :math:`10^{-(d+5)}` at ``d`` digits); since :math:`E[\sqrt m] \ge 1`
this is also a relative error.  A finite support up to 10^4 points wide is tabulated whole
(no cut).  Rounding: a float64 cumulative log-sum of ``n`` terms is within about
:math:`n \cdot 2^{-53}` relative (``logaddexp`` accumulation).

**Windows** (series with a proven remainder): a log-concave pmf whose bulk lies far from 1
tabulates only ``[start, K]``; the mass below ``start`` and deep upper tails are summed term by
term, the remainder bounded by a geometric series of the last ratio (log-concavity makes the
ratios monotone), to ``1e-17`` relative in float64 and :math:`10^{-(d+5)}` at ``d`` digits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import mpmath
import numpy as np

from ..numerics import MPMATH
from ._common import _mp_tol, DEEP_LOG, FLOAT_TOL, MAX_TABLE, MAX_WALK, WHOLE_TABLE

if TYPE_CHECKING:  # the base class calls these functions; they never construct one
    from ._base import SizeLaw

LEFT_PASS = 4096  # below a window, masses within this many points of the minimum are summed in one pass


@dataclass(frozen=True)
class Table:
    """Support points ``1..K`` (or a finite support) with cumulative log-sums."""

    points: np.ndarray  # int64, increasing
    log_pmf: np.ndarray  # float64 or object (mpf)
    log_cum_pmf: np.ndarray  # log P(m <= points[i])
    log_cum_sqrt: np.ndarray  # log E[sqrt(m) 1{m <= points[i]}]
    end: int  # K: the table covers every support point <= K
    log_sf: np.ndarray  # log P(m > points[i])


def _deep_logsf(logpmf: Callable, a: np.ndarray) -> np.ndarray:
    r"""log P(X > a) at every ``a`` for a log-concave pmf, past float64's range of ``logsf``.

    Log-concavity makes :math:`r_k = p(k+1)/p(k)` non-increasing, so beyond
    :math:`a+J` the terms are below a geometric series of ratio :math:`r_{a+J}`:
    :math:`P(X > a) = \sum_{j=1}^{J} p(a+j) + R`, :math:`0 \le R \le p(a+J)\,r/(1-r)`.
    ``J`` is grown (×4, from 64) for the ``a`` whose bound is not yet below ``1e-17`` of
    their partial sum; all ``a`` walk at once.
    """
    a = np.asarray(a, dtype=np.int64)
    flat = a.ravel()
    out = np.empty(flat.size)
    todo = np.arange(flat.size)
    J = 64
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        while todo.size:
            lp = np.asarray(logpmf(flat[todo, None] + np.arange(1, J + 2)[None, :]), dtype=float)
            head = np.logaddexp.reduce(lp[:, :-1], axis=1)
            log_r = lp[:, -1] - lp[:, -2]
            rem = lp[:, -2] + log_r - np.log(-np.expm1(log_r))
            ended = ~np.isfinite(head) | (lp[:, -1] == -np.inf)  # nothing, or the support has ended
            small = ~ended & (log_r < 0) & (rem - head < math.log(1e-17))
            done = ended | small | (J > MAX_WALK)
            value = np.where(small, head + np.log1p(np.exp(rem - head)), np.where(np.isnan(head), -np.inf, head))
            out[todo[done]] = value[done]
            todo = todo[~done]
            J *= 4
    return out.reshape(a.shape)


def _left_log_sums_many(logpmf: Callable, a: np.ndarray, lo: int) -> tuple[np.ndarray, np.ndarray]:
    r"""log of :math:`\sum_{k=lo}^{a} M(k)` and of :math:`\sum_{k=lo}^{a}\sqrt k\,M(k)` at every ``a``, for a
    log-concave pmf increasing on ``[lo, a]``, all ``a`` at once.

    Leftwards the ratios :math:`r = M(k-1)/M(k) \le 1` decrease (log-concavity; with the factor
    :math:`\sqrt{(k-1)/k} < 1` for the second sum), so the terms beyond the first ``J`` are below a
    geometric series: :math:`R \le M(a-J-1)/(1 - r_{a-J})`; ``J`` grows (×4, from 64) for the
    ``a`` whose bound is not yet below ``1e-17`` of their sum.  Cost: ``J`` terms per ``a``,
    whatever ``a - lo``.
    """
    a = np.asarray(a, dtype=np.int64)
    flat = a.ravel()
    out = np.empty((2, flat.size))
    todo = np.arange(flat.size)
    J = 64
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        while todo.size:
            k = flat[todo, None] - np.arange(J + 2)[None, :]  # J + 1 terms, then the next one
            safe = np.maximum(k, max(lo, 1))
            lp = np.where(k >= lo, np.asarray(logpmf(safe), dtype=float), -np.inf)
            both = np.stack([lp, np.where(k >= lo, 0.5 * np.log(safe) + lp, -np.inf)])
            head = np.logaddexp.reduce(both[:, :, :J + 1], axis=2)
            log_r = both[:, :, J + 1] - both[:, :, J]
            rem = both[:, :, J + 1] - np.log(-np.expm1(log_r))
            small = (log_r < 0) & (rem - head < math.log(1e-17))
            whole = k[:, J] <= lo  # every term down to lo is in the head
            done = whole | np.all(small, axis=0) | (J > MAX_WALK)
            value = np.where(whole | ~small, head, head + np.log1p(np.exp(rem - head)))
            out[:, todo[done]] = value[:, done]
            todo = todo[~done]
            J *= 4
    return out[0].reshape(a.shape), out[1].reshape(a.shape)


def table_end(law: SizeLaw, tol: float) -> int:
    """The table's last point ``K``: the smallest with the proven tail bound below ``tol``."""
    start = law._window_start()
    if math.isfinite(law.support_max) and law.support_max - start <= WHOLE_TABLE:
        return int(law.support_max)
    lo = max(start, 1)
    hi = lo + 16
    while hi < law.support_max and law._tail_sqrt_bound(hi) > tol:
        lo, hi = hi, start + 2 * (hi - start)
        if hi - start > MAX_TABLE:
            raise ValueError(
                f"{law!r}: the tail is too heavy to tabulate to tolerance {tol:g} "
                f"within {MAX_TABLE} points"
            )
    # smallest K in (lo, hi] with the bound below tol (monotone in K)
    while lo < hi:
        mid = (lo + hi) // 2
        if law._tail_sqrt_bound(mid) <= tol:
            hi = mid
        else:
            lo = mid + 1
    return int(min(hi, law.support_max))


def float_table(law: SizeLaw) -> Table:
    """The float64 table of ``law`` (log-space cumulative sums, survival from the top)."""
    end = law._table_end(FLOAT_TOL)
    pts = law._points(end)
    lp = np.asarray(law._logpmf(pts), dtype=float)
    with np.errstate(divide="ignore"):
        lsq = 0.5 * np.log(pts) + lp
    # log P(m > points[i]): summed from the top (exact in deep tails) plus the closed-form
    # tail beyond the table; the closed form itself wherever it is not deep
    tail = float(law._logsf(np.array([end]))[0]) if not law.is_finite else -np.inf
    above = np.logaddexp.accumulate(lp[::-1])[::-1]
    lsf = np.logaddexp(np.append(above[1:], -np.inf), tail)
    shallow = lsf > DEEP_LOG + 10
    lsf[shallow] = np.asarray(law._logsf(pts[shallow]), dtype=float)
    lsf[pts < law.support_min] = 0.0
    left_cdf, left_sqrt = -np.inf, -np.inf
    if pts[0] > law.support_min:  # a window on the bulk: the mass below it by local sums
        left_cdf, left_sqrt = (float(v[0]) for v in law._left_log_sums(pts[:1] - 1, None))
    return Table(pts, lp, np.logaddexp(left_cdf, np.logaddexp.accumulate(lp)),
                  np.logaddexp(left_sqrt, np.logaddexp.accumulate(lsq)), end, lsf)


def mp_table(law: SizeLaw, precision: int) -> Table:
    """The mpmath table of ``law`` at ``precision`` digits (sums in order, survival from the top)."""
    with mpmath.workdps(precision):
        end = law._table_end(_mp_tol(precision))
        pts = law._points(end)
        pmf = law._mp_masses_on(pts)
        cum, cum_sqrt, above = [], [], []
        s = t = mpmath.mpf(0)
        if pts[0] > law.support_min:
            s, t = (mpmath.exp(v[0]) for v in law._left_log_sums(pts[:1] - 1, precision))
        for k, p in zip(pts, pmf):
            s += p
            t += mpmath.sqrt(int(k)) * p
            cum.append(s)
            cum_sqrt.append(t)
        r = law._mp_sf(end) if not law.is_finite else mpmath.mpf(0)
        for p in reversed(pmf):  # P(m > points[i]), summed from the top
            above.append(r)
            r += p
        log = MPMATH.log
        return Table(
            pts, log(pmf), log(cum), log(cum_sqrt), end, log(above[::-1])
        )
