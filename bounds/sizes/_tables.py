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


@dataclass(frozen=True)
class Table:
    """Support points ``1..K`` (or a finite support) with cumulative log-sums."""

    points: np.ndarray  # int64, increasing
    log_pmf: np.ndarray  # float64 or object (mpf)
    log_cum_pmf: np.ndarray  # log P(m <= points[i])
    log_cum_sqrt: np.ndarray  # log E[sqrt(m) 1{m <= points[i]}]
    end: int  # K: the table covers every support point <= K
    log_sf: np.ndarray  # log P(m > points[i])


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
