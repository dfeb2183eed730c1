r"""Tables and windows: the sums over a support that no closed form gives.

**Tabulated** (one cumulative pass in log space, float64 or mpmath): :math:`P(m \le a)`,
:math:`E[\sqrt m\,\mathbb 1\{m \le a\}]` and :math:`P(m > a)` (summed from the top, so deep
tails keep their relative digits) on ``support_min..K``.  An mpmath table takes a logarithm only
where a query reads it; for laws whose consecutive masses have rational ratios (Poisson, binomial)
its sums are exact integer sums (``_fixed``), computed only as far as the queries reach.

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
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from . import _fixed
from ._common import _log1mexp, _mp_tol, DEEP_LOG, LOG_HALF, MAX_MP_WORK, MAX_TABLE, MAX_TERMS, WHOLE_TABLE
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath

    from ._base import SizeLaw  # the base class calls these functions; they never construct one
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it


@dataclass(frozen=True)
class Table:
    """Support points ``1..K`` (or a finite support) with cumulative log-sums."""

    points: np.ndarray  # int64, increasing
    log_pmf: np.ndarray  # float64 or object (mpf)
    log_cum_pmf: np.ndarray  # log P(m <= points[i])
    log_cum_sqrt: np.ndarray  # log E[sqrt(m) 1{m <= points[i]}]
    end: int  # K: the table covers every support point <= K
    log_sf: np.ndarray  # log P(m > points[i])
    # where set, the log columns hold None until asked for: ``fill(column, idx)`` computes those entries
    fill: Callable[[np.ndarray, np.ndarray], None] | None = None

    def column(self, values: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """``values[idx]`` (``idx`` valid indices), computed first where the table is lazy."""
        if self.fill is not None:
            self.fill(values, idx)
        return values[idx]


def _walk_log_sum(logf: Callable, first: int, step: int, stop: int | None) -> float:
    r"""log of :math:`\sum_{j \ge 0} e^{f(first + j\,step)}` (up to ``stop``) for log-concave ``f``
    falling in the direction ``step`` (±1) from ``first`` (:func:`_walk_log_sums` for one series)."""
    return float(_walk_log_sums(lambda k: np.asarray(logf(k), dtype=float)[None], first, step, stop)[0])


def _walk_log_sums(logf: Callable, first: int, step: int, stop: int | None) -> np.ndarray:
    r""":func:`_walk_log_sum` for several series at once: ``logf(k)`` gives one row per series (each
    log-concave and falling in the direction ``step``), each row's sum as if walked alone.

    Log-concavity makes the ratios :math:`r` of consecutive terms non-increasing in that
    direction, so past the terms summed so far the rest is below a geometric series,
    :math:`R \le e^{f(k)}/(1 - r)` with :math:`k` the next point; chunks (64 terms, growing
    4-fold to 2**20) are summed until that bound is below ``1e-17`` of the sum, at most
    ``MAX_TERMS`` terms in all (time bounded; memory 2**20 floats per series).  A series is settled
    at the chunk where its own bound holds (the chunks do not depend on the other rows), so each
    result is the one walk of its series alone would give, with one evaluation of ``logf`` per chunk.
    """
    f_first = np.asarray(logf(np.array([first])), dtype=float)[:, 0]
    heads = np.full(f_first.shape, -math.inf)
    out = np.full(f_first.shape, math.nan)  # the settled sums
    pos, n, done = first, 64, 0
    while True:
        last = pos + step * (n - 1)
        if stop is not None:
            last = min(last, stop) if step > 0 else max(last, stop)
        k = np.arange(pos, last + step, step)
        ends = stop is not None and last == stop
        lp = np.asarray(logf(k if ends else np.append(k, last + step)), dtype=float)  # and the next point's term
        lp, nxt = (lp, None) if ends else (lp[:, :-1], lp[:, -1])
        heads = np.logaddexp(heads, np.logaddexp.reduce(lp, axis=1))
        done += len(k)
        if nxt is None:
            return np.where(np.isnan(out), heads, out)
        span = abs(int(k[-1]) - first)
        for i in np.flatnonzero(np.isnan(out)):
            head, tail = float(heads[i]), float(lp[i, -1])
            if not math.isfinite(head) or nxt[i] == -math.inf:  # nothing summed, or the support has ended
                out[i] = head
                continue
            log_r = float(nxt[i]) - tail
            if span > 0 and math.isfinite(f_first[i]):  # the chord bounds every later ratio, and resolves where
                # consecutive log-masses round to the same float (|log p| beyond 2**53): a few ulps of error each
                err = 64 * float(np.spacing(max(abs(float(f_first[i])), abs(tail), float(abs(int(k[-1]))))))
                log_r = min(log_r, (tail - float(f_first[i]) + 2 * err) / span)
            if log_r < 0:
                rem = float(nxt[i]) - math.log(-math.expm1(log_r))
                if rem - head < math.log(1e-17) or rem - head < math.log(np.spacing(abs(head))) - 1:
                    out[i] = head + math.log1p(math.exp(min(rem - head, 0.0)))
        if not np.isnan(out).any():
            return out
        if done >= MAX_TERMS:  # pragma: no cover - 2**27 terms: a ratio this close to 1 is no log-concave tail
            raise ArithmeticError(f"a sum of masses did not converge within {MAX_TERMS} terms")
        pos, n = int(k[-1]) + step, min(4 * n, 2**20)


def _deep_logsf(logpmf: Callable, a: int) -> float:
    r"""log P(X > a) for a log-concave pmf, past the mode: :math:`\sum_{k > a} p(k)` by
    :func:`_walk_log_sum` (remainder below ``1e-17`` relative)."""
    return _walk_log_sum(logpmf, a + 1, +1, None)


def _deep_logsfs(logpmf: Callable, a: np.ndarray) -> np.ndarray:
    r""":func:`_deep_logsf` at many points at once: one evaluation of ``logpmf`` per chunk for every walk.

    .. math:: \log P(X > a_i) = \log \sum_{k > a_i} p(k), \qquad i = 1, \dots, n

    Each walk takes the chunks, terms, order of summation and stopping rule of :func:`_walk_log_sum` from
    :math:`a_i + 1` (chunks of 64 terms growing 4-fold, settled where the geometric remainder is below
    ``1e-17`` of the sum), so each value is that walk's; the masses of all walks are asked in one array
    (their union, each mass once, where the chunks overlap: a table's shallow points), and a family whose
    log-mass picks its series length from the whole array (Loader's deviance near the mean) may move a value
    by the series' own truncation, below ``1e-20`` relative of a log-mass.  A sweep of
    :math:`\tilde m` at :math:`n\alpha^2 = 10^{200}` asks 15 such points a call: one pass instead of 15.
    """
    a = np.asarray(a, dtype=np.int64).reshape(-1)
    m = a.size
    if m == 1:  # one walk (a table's tail beyond its end): the same operations without the bookkeeping of many
        return _one_deep_logsf(logpmf, int(a[0]))
    out = np.full(m, math.nan)
    if not m:
        return out
    first = a + 1
    heads = np.full(m, -math.inf)
    pos = first.copy()
    n, done = 64, 0
    live = np.arange(m)
    f_first = None
    while True:
        k = pos[live, None] + np.arange(n + 1, dtype=np.int64)[None, :]  # each chunk and the next point's term
        lo, hi = int(k[:, 0].min()), int(k[:, -1].max())
        if hi - lo + 1 < k.size:  # overlapping chunks (neighbouring points): each mass once, on their union
            union = np.asarray(logpmf(np.arange(lo, hi + 1, dtype=np.int64)), dtype=float)
            lp_all = union[k - lo]
            if f_first is None:
                f_first = union[first - lo]
        else:
            lp_all = np.asarray(logpmf(k.reshape(-1)), dtype=float).reshape(k.shape)
        if f_first is None:
            f_first = np.asarray(logpmf(first), dtype=float).reshape(-1)
        lp, nxt = lp_all[:, :-1], lp_all[:, -1]
        heads[live] = np.logaddexp(heads[live], np.logaddexp.reduce(lp, axis=1))
        done += n
        # each walk's stopping rule (_walk_log_sums'), on every live walk at once
        head, tail = heads[live], lp[:, -1]
        ended = ~np.isfinite(head) | (nxt == -math.inf)  # nothing summed, or the support has ended
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            log_r = nxt - tail
            span = (k[:, -2] - first[live]).astype(float)
            f0 = f_first[live]
            chord = (span > 0) & np.isfinite(f0)  # the chord bounds every later ratio (see _walk_log_sums)
            if np.any(chord):
                err = 64 * np.spacing(np.maximum(np.maximum(np.abs(f0), np.abs(tail)), np.abs(k[:, -2].astype(float))))
                log_r = np.where(chord, np.minimum(log_r, (tail - f0 + 2 * err) / np.where(chord, span, 1.0)), log_r)
            falls = ~ended & (log_r < 0)
            rem = nxt - np.log(-np.expm1(np.where(falls, log_r, -1.0)))
            gap = rem - head
            small = falls & ((gap < math.log(1e-17)) | (gap < np.log(np.spacing(np.abs(head))) - 1))
        out[live[ended]] = head[ended]
        out[live[small]] = head[small] + np.log1p(np.exp(np.minimum(gap[small], 0.0)))
        settled = ended | small
        pos[live] = k[:, -1]
        live = live[~settled]
        if not live.size:
            return out
        if live.size > 1 and 4 * n > 2**16:  # long walks (rare): each alone, memory as one walk's
            for i in live.tolist():
                out[i] = _deep_logsf(logpmf, int(a[i]))
            return out
        if done >= MAX_TERMS:  # pragma: no cover - as _walk_log_sums
            raise ArithmeticError(f"a sum of masses did not converge within {MAX_TERMS} terms")
        n = min(4 * n, 2**20)


def _one_deep_logsf(logpmf: Callable, a: int) -> np.ndarray:
    r""":func:`_deep_logsfs` for one point ``a``: the same chunks, operations (on arrays of one walk) and stopping
    rule, so the same value; for a log-mass whose value at a point does not depend on the other points asked.

    .. math:: \log P(X > a) = \log \sum_{k > a} p(k)
    """
    pos, n, done = a + 1, 64, 0
    head = np.array([-math.inf])
    f0 = None
    while True:
        lp_all = np.asarray(logpmf(np.arange(pos, pos + n + 1, dtype=np.int64)), dtype=float)[None, :]
        if f0 is None:
            f0 = lp_all[:, 0]
        lp, nxt = lp_all[:, :-1], lp_all[:, -1]
        head = np.logaddexp(head, np.logaddexp.reduce(lp, axis=1))
        done += n
        tail = lp[:, -1]
        if not np.isfinite(head[0]) or nxt[0] == -math.inf:  # nothing summed, or the support has ended
            return head
        last = pos + n - 1
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            log_r = nxt - tail
            span = float(last - (a + 1))
            if span > 0 and np.isfinite(f0[0]):  # the chord bounds every later ratio (see _walk_log_sums)
                err = 64 * np.spacing(np.maximum(np.maximum(np.abs(f0), np.abs(tail)), np.abs(np.array([float(last)]))))
                log_r = np.minimum(log_r, (tail - f0 + 2 * err) / span)
            if log_r[0] < 0:
                rem = nxt - np.log(-np.expm1(log_r))
                gap = rem - head
                if gap[0] < math.log(1e-17) or gap[0] < (np.log(np.spacing(np.abs(head))) - 1)[0]:
                    return head + np.log1p(np.exp(np.minimum(gap, 0.0)))
        pos += n
        if done >= MAX_TERMS:  # pragma: no cover - as _walk_log_sums
            raise ArithmeticError(f"a sum of masses did not converge within {MAX_TERMS} terms")
        n = min(4 * n, 2**20)


def _left_log_sum(logf: Callable, a: int, lo: int) -> float:
    r"""log of :math:`\sum_{k=lo}^{a} e^{f(k)}` for log-concave ``f`` increasing on ``[lo, a]``
    (:func:`_walk_log_sum` leftwards: remainder below ``1e-17`` relative)."""
    return _walk_log_sum(logf, a, -1, lo)


def _left_log_sum_many(logf: Callable, a: np.ndarray, lo: int) -> np.ndarray:
    r""":func:`_left_log_sum` at many points ``a`` (each ``>= lo``): a walk of at most 64 terms (its first chunk
    reaches ``lo``) is the log-sum of its terms in its order, all such walks from one evaluation of ``logf``; longer
    walks go one by one.

    .. math:: \log \sum_{k=lo}^{a_i} e^{f(k)}, \qquad i = 1, \dots, n
    """
    a = np.asarray(a, dtype=np.int64).reshape(-1)
    out = np.empty(a.size)
    short = np.flatnonzero(a - lo < 64)
    if short.size:
        lens = a[short] - lo + 1
        starts = np.cumsum(lens) - lens
        k = np.repeat(a[short], lens) - (np.arange(int(lens.sum())) - np.repeat(starts, lens))  # a_i down to lo
        lp = np.asarray(logf(k), dtype=float)
        for j, (s0, n) in enumerate(zip(starts.tolist(), lens.tolist())):
            out[short[j]] = float(np.logaddexp(-math.inf, np.logaddexp.reduce(lp[s0 : s0 + n][None, :], axis=1))[0])
    for i in np.flatnonzero(a - lo >= 64).tolist():
        out[i] = _left_log_sum(logf, int(a[i]), lo)
    return out


def _left_log_sums(logpmf: Callable, a: int, lo: int) -> tuple[float, float]:
    r"""log of :math:`\sum_{k=lo}^{a} p(k)` and of :math:`\sum_{k=lo}^{a} \sqrt k\,p(k)` for a log-concave
    pmf increasing on ``[lo, a]``, ``lo >= 1``: one leftward walk of both (``k`` is log-concave, so is
    :math:`\sqrt k\,p(k)`), each sum as :func:`_left_log_sum` gives it."""
    def both(k: np.ndarray) -> np.ndarray:
        lp = np.asarray(logpmf(k), dtype=float)
        return np.stack([lp, 0.5 * np.log(k) + lp])

    c, s = _walk_log_sums(both, a, -1, lo)
    return float(c), float(s)


def _log_cumsum(lp: np.ndarray) -> np.ndarray:
    r"""``log sum(exp(lp[:i+1]))`` for every ``i``, the terms scaled by the largest.

    Where every term is within :math:`e^{-700}` of the largest (a bulk's table: no partial sum is
    subnormal), float64 terms are summed in blocks of :math:`B = \lceil\sqrt n\,\rceil`: each block's
    running sums, then the running sum of the block totals, so a partial sum of positive terms carries a
    relative error below :math:`(2B + n/B + 2)\,2^{-53}` (4.7e-14 at :math:`2\times10^4` terms, 7.5e-13 at
    :math:`5\times10^6`), where a ``logaddexp`` chain loses an ulp of the log per term (3e-10 over 3e5
    terms).  Elsewhere they are summed in extended precision where the platform has it (64-bit mantissa),
    and by ``logaddexp`` where that sum underflows."""
    top = float(np.max(lp)) if len(lp) else -math.inf
    if not math.isfinite(top):
        return np.logaddexp.accumulate(lp)
    if top - float(np.min(lp)) <= 700.0:
        n = len(lp)
        B = math.isqrt(n - 1) + 1
        w = np.zeros(B * -(-n // B))
        np.exp(lp - top, out=w[:n])
        run = np.cumsum(w.reshape(-1, B), axis=1)
        run[1:] += np.cumsum(run[:-1, -1])[:, None]
        return np.log(run.ravel()[:n]) + top
    with np.errstate(divide="ignore", under="ignore"):
        w = np.exp((lp - top).astype(np.longdouble))
        ext = (np.log(np.cumsum(w)) + top).astype(float)
    finite = np.isfinite(ext)
    return ext if finite.all() else np.where(finite, ext, np.logaddexp.accumulate(lp))


def _log_cumsums(rows: list[np.ndarray]) -> list[np.ndarray]:
    r""":func:`_log_cumsum` of several arrays of one length at once: each row's values are its own call's (the
    same scaling by its largest term, the same blocks and running sums, element by element), from one pass of
    array operations where every row is within :math:`e^{-700}` of its largest term, else row by row.

    .. math:: \log \sum_{j \le i} e^{\ell_{r,j}} \quad \text{for every row } r \text{ and every } i
    """
    L = np.array(rows, dtype=float)
    r, n = L.shape
    if not n:
        return [_log_cumsum(row) for row in rows]
    top = L.max(axis=1)
    if not (np.isfinite(top).all() and (top - L.min(axis=1) <= 700.0).all()):
        return [_log_cumsum(row) for row in rows]
    B = math.isqrt(n - 1) + 1
    w = np.zeros((r, B * -(-n // B)))
    np.exp(L - top[:, None], out=w[:, :n])
    run = np.cumsum(w.reshape(r, -1, B), axis=2)
    run[:, 1:] += np.cumsum(run[:, :-1, -1], axis=1)[:, :, None]
    return list(np.log(run.reshape(r, -1)[:, :n]) + top[:, None])


def _below(bound: float, tol: float) -> bool:
    """Whether a tail bound proves the neglected part below ``tol`` (a NaN bound proves nothing)."""
    return bool(bound <= tol)


def table_end(law: SizeLaw, tol: float) -> int:
    """The table's last point ``K``: the smallest with the proven tail bound below ``tol``."""
    start = law._window_start()
    if math.isfinite(law.support_max) and law.support_max - start <= WHOLE_TABLE:
        return int(law.support_max)
    lo = max(start, 1)
    hi = lo + 16
    while hi < law.support_max and not _below(law._tail_sqrt_bound(hi), tol):
        lo, hi = hi, start + 2 * (hi - start)
        if hi - start > MAX_TABLE:
            raise ValueError(
                f"{law!r}: the tail is too heavy to tabulate to tolerance {tol:g} "
                f"within {MAX_TABLE} points ("
                + ("a uniform law on many points: use bounds.sizes.uniform" if law.is_finite
                   else "a power-law tail: use bounds.sizes.zipf") + ")"
            )
    # smallest K in (lo, hi] with the bound below tol (monotone in K)
    while lo < hi:
        mid = (lo + hi) // 2
        if _below(law._tail_sqrt_bound(mid), tol):
            hi = mid
        else:
            lo = mid + 1
    return int(min(hi, law.support_max))


def float_table(law: SizeLaw) -> Table:
    """The float64 table of ``law`` (log-space cumulative sums, survival from the top)."""
    end = law._float_end
    pts = law._points(end)
    lp = np.asarray(law._logpmf(pts), dtype=float)
    with np.errstate(divide="ignore"):
        lsq = 0.5 * np.log(pts) + lp
    # log P(m > points[i]): summed from the top (exact in deep tails) plus the closed-form
    # tail beyond the table; the closed form itself wherever it is not deep
    # (a finite law whose table stops before its support does, binomial(10**6, 1e-18), has a tail beyond it too)
    tail = float(law._logsf(np.array([end]))[0]) if end < law.support_max else -np.inf
    above, cum_pmf, cum_sqrt = _log_cumsums([lp[::-1], lp, lsq])  # the three running sums in one pass
    above = above[::-1]  # summed from the top
    lsf = np.logaddexp(np.append(above[1:], -np.inf), tail)
    if law._table_sf_closed:
        shallow = lsf > DEEP_LOG + 10
        lsf[shallow] = np.asarray(law._logsf(pts[shallow]), dtype=float)
    lsf[pts < law.support_min] = 0.0
    left_cdf, left_sqrt = -np.inf, -np.inf
    if pts[0] > law.support_min:  # a window on the bulk: the mass below it by local sums
        left_cdf, left_sqrt = (float(v[0]) for v in law._left_log_sums(pts[:1] - 1, None))
    return Table(pts, lp, np.logaddexp(left_cdf, cum_pmf), np.logaddexp(left_sqrt, cum_sqrt), end, lsf)


def tail_past(lp: np.ndarray, K: int) -> float | None:
    r""":math:`\log P(m > K)` from log-masses ``lp`` on :math:`0..E` of a log-concave law past its mode: the masses on
    :math:`K < k \le E` summed, and beyond :math:`E` the geometric series of :math:`r = M(E)/M(E-1)`, which bounds
    every later ratio (log-concavity); ``None`` unless that remainder is below ``1e-17`` of the sum.

    .. math:: P(m > K) = \sum_{K < k \le E} M(k) + \theta\, M(E)\,\frac{r}{1 - r}, \qquad 0 \le \theta \le 1
    """
    E = len(lp) - 1
    log_r = float(lp[E] - lp[E - 1])
    if not (E > K and log_r < 0):
        return None
    with np.errstate(divide="ignore"):
        head = float(np.logaddexp.reduce(lp[K + 1 :]))
    rem = float(lp[E]) + log_r - math.log(-math.expm1(log_r))  # M(E) r / (1 - r)
    if not (math.isfinite(head) and rem - head < math.log(1e-17)):
        return None
    return float(np.logaddexp(head, rem))


def table_prefix(law: SizeLaw, K: int) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    r"""``(log P(m > a), log E[sqrt(m) 1{m <= a}])`` for ``a = 0..K`` and ``log P(m >= a)`` for ``a = 0..K+1``, read
    from the float64 table by index, where it holds every integer of ``[support_min, K]`` (``None`` otherwise).

    .. math:: \log P(m \ge a) = \log P(m > a - 1) \ \text{or}\ \log(1 - P(m \le a - 1))

    The values are the queries' (:meth:`SizeLaw.log_prob_gt`, ``log_partial_sqrt_mean``, ``log_prob_ge``): the same
    table entries, ``0`` and ``-inf`` below the support, and ``log P(m >= a)`` by the same elementwise switch on the
    same arrays, without a query's checks and lookups (a small law's first point reads these once).
    """
    table = law._float_table
    pts = table.points
    first = law.support_min
    if (table.fill is not None or not len(pts) or int(pts[0]) != first or int(pts[-1]) != K or table.end != K
            or len(pts) != K - first + 1 or first < 0):
        return None
    log_gt = np.concatenate([np.zeros(first), np.asarray(table.log_sf, dtype=float)])
    log_s = np.concatenate([np.full(first, -np.inf), np.asarray(table.log_cum_sqrt, dtype=float)])
    ls = np.concatenate([[0.0], log_gt])  # at a - 1 = -1..K
    lc = np.concatenate([np.full(first + 1, -np.inf), np.asarray(table.log_cum_pmf, dtype=float)])
    return log_gt, log_s, np.where(ls < LOG_HALF, ls, _log1mexp(lc, None))


def float_sqrt_mean(law: SizeLaw, table: Table) -> float:
    r""":math:`E[\sqrt m]` in float64 from a table: the masses' weighted mean of :math:`\sqrt k`, in linear space.

    .. math:: E[\sqrt m] \approx \frac{\sum_{k \le K} \sqrt k\,M(k)}{\sum_{k \le K} M(k)}
              \qquad (\text{the masses below a window included})

    The weights :math:`e^{\log M(k) - \max}` and the products are each within an ulp, the sums exactly rounded
    (``math.fsum``): the ratio is within 3 ulps of a weighted mean of :math:`\sqrt k`, so it keeps Jensen's
    :math:`E[\sqrt m] \le \sqrt{E[m]}` to that rounding, whatever the common error of the masses (which the
    normalisation cancels).  Dividing by the table's mass :math:`1 - P(m > K)` moves the value by
    :math:`E[\sqrt m]\,P(m > K) \le E[\sqrt m]\cdot` ``tol`` (the cut's own bound; ``1e-20``).

    Source: the definition :math:`E[\sqrt m] = \sum_k \sqrt k\,M(k)` (Pla et al. (2024), eqs. (13)-(14)).
    """
    pts, lp = table.points, np.asarray(table.log_pmf, dtype=float)
    top = float(np.max(lp))
    parts_w, parts_s = [], []
    if int(pts[0]) > law.support_min:  # a window on the bulk: the masses below it, summed locally
        left_c, left_s = (float(v[0]) for v in law._left_log_sums(pts[:1] - 1, None))
        top = max(top, left_c)
        parts_w.append(math.exp(left_c - top))
        parts_s.append(math.exp(left_s - top))
    with np.errstate(under="ignore"):
        w = np.exp(lp - top)
    parts_w.extend(w.tolist())
    parts_s.extend((np.sqrt(pts.astype(float)) * w).tolist())
    return math.fsum(parts_s) / math.fsum(parts_w)


def mp_table(law: SizeLaw, precision: int) -> Table:
    """The mpmath table of ``law`` at ``precision`` digits (sums in order, survival from the top;
    exact integer sums where the masses have rational ratios, see :func:`fixed_table`)."""
    ratio = law._rational_ratio()
    if ratio is not None:
        return fixed_table(law, precision, ratio)
    with mpmath.workdps(precision):
        end = law._table_end(_mp_tol(precision))
        pts = law._points(end)
        _check_work(law, pts, precision)
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
    return _lazy_log_table(pts, [pmf, cum, cum_sqrt, above[::-1]], end, precision)


def _check_work(law: SizeLaw, pts: np.ndarray, precision: int) -> None:
    """Bounded work: an mpmath table holds at most ``MAX_MP_WORK`` points x digits (ValueError)."""
    if len(pts) * precision > MAX_MP_WORK:
        raise ValueError(
            f"precision={precision}: the table of {law!r} has {len(pts)} points, and points x digits "
            f"is limited to {MAX_MP_WORK:.0e} (minutes of mpmath work); lower the precision or use "
            "precision=None")


def _lazy_log_table(pts: np.ndarray, sums: list[list], end: int, precision: int) -> Table:
    """A table whose log columns are the logs of ``sums`` (pmf, cdf, partial moment, survival), each
    taken when a query first reads it (``Table.fill``)."""
    fill = _LogsOf(sums, [np.full(len(pts), None, dtype=object) for _ in sums], precision)
    cols = fill.cols
    return Table(pts, cols[0], cols[1], cols[2], end, cols[3], fill=fill)


class _LogsOf:
    """``fill`` of a lazy table: ``cols[j][i] = log(sums[j][i])`` at ``precision`` (a class, not a
    closure: a law holding its tables pickles)."""

    def __init__(self, sums: list[list], cols: list[np.ndarray], precision: int) -> None:
        self.sums, self.cols, self.precision = sums, cols, precision

    def __call__(self, values: np.ndarray, idx: np.ndarray) -> None:
        src = self.sums[next(j for j, c in enumerate(self.cols) if c is values)]
        with mpmath.workdps(self.precision):
            for i in np.unique(idx).tolist():
                if values[i] is None:
                    values[i] = mpmath.log(src[i]) if src[i] > 0 else mpmath.ninf


def fixed_table(law: SizeLaw, precision: int, ratio: _fixed.Ratio) -> Table:
    r"""The mpmath table of a law whose consecutive masses have rational ratios (``_fixed``): the
    masses relative to the first point as integers, every cumulative sum an exact integer sum,
    computed only as far as the queries read (extended on demand) and a logarithm taken only for
    the entries a query reads (``Table.fill``).

    .. math:: P(m \le k) = P(m < k_0) + M(k_0)\,2^{-F} \sum_{k_0 \le j \le k} T_j, \qquad
              P(m > k) = P(m > L) + M(k_0)\,2^{-F} \sum_{k < j \le L} T_j

    (``L``: the last point computed so far).  Error: each sum within :math:`10^{-(d+10)}` relative
    (``_fixed``); the anchor :math:`M(k_0)`, the mass below the window and the tail beyond ``L``
    at ``d + 10`` digits; the end ``K`` of the table as for every table (its proven tail bound).
    """
    dps = precision + 10
    with mpmath.workdps(dps):
        end = law._table_end(_mp_tol(precision))
        pts = law._points(end)
        _check_work(law, pts, precision)
        first, last = int(pts[0]), int(pts[-1])
        lp = np.asarray(law._logpmf(np.array([first, last])), dtype=float)  # unimodal: the smallest term is an end
        drop = (max(lp[0] - lp[1], 0.0) if np.isfinite(lp[1]) else 0.0) / math.log(2) + 8
        run = _fixed.Run(ratio, first, precision, drop, last - first + 1)
        log_p0 = law._mp_logpmf(first)
        p0 = mpmath.exp(log_p0)
        left_c = left_s = mpmath.mpf(0)
        if first > law.support_min:
            left_c, left_s = (mpmath.exp(v[0]) for v in law._left_log_sums(np.array([first - 1]), precision))
    tails: dict[int, Any] = {}

    def tail(L: int) -> Any:  # P(m > L): 1 - P(m <= L) while that keeps d + 5 digits (it is >= 1e-5), else the law's
        if L not in tails:
            below = left_c + p0 * mpmath.ldexp(run.cum[L - first], -run.F)
            if law.is_finite and L >= law.support_max:
                tails[L] = mpmath.mpf(0)
            else:
                tails[L] = 1 - below if below <= 1 - mpmath.mpf(10) ** -5 else law._mp_sf(L)
        return tails[L]

    def value(col: int, i: int) -> Any:
        F = run.F
        if col == 0:
            return log_p0 + _fixed.scaled_log(run.T[i], F)
        if col == 1:
            return mpmath.log(left_c + p0 * mpmath.ldexp(run.cum[i], -F))
        if col == 2:
            return mpmath.log(left_s + p0 * mpmath.ldexp(run.cum_w[i], -F))
        rest = run.cum[-1] - run.cum[i]
        t = tail(run.last)
        return mpmath.log(t + p0 * mpmath.ldexp(rest, -F)) if (t or rest) else mpmath.ninf

    n = len(pts)
    cols = [np.full(n, None, dtype=object) for _ in range(4)]

    def fill(values: np.ndarray, idx: np.ndarray) -> None:
        col = next(j for j, c in enumerate(cols) if c is values)
        todo = [i for i in np.unique(np.where(idx < 0, idx + n, idx)).tolist() if values[i] is None]
        if not todo:
            return
        built = run.last - first
        if todo[-1] > built:  # grow by a quarter at least: a search's next points lie near its last ones
            run.extend(first + min(n - 1, max(todo[-1] + 256, built + built // 4)))
        with mpmath.workdps(dps):
            vals = [value(col, i) for i in todo]
        with mpmath.workdps(precision):
            for i, v in zip(todo, vals):
                values[i] = +v

    return Table(pts, cols[0], cols[1], cols[2], end, cols[3], fill=fill)
