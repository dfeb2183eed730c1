r"""Whole scans of eq. (10) and eq. (12) for laws whose searches end early (float64 path).

For a law whose integer searches need only :math:`a \le K` (:meth:`~bounds.sizes.SizeLaw.search_end`,
:math:`K \le` ``SCAN_POINTS``: light-tailed laws such as ``poisson(5)`` or ``binomial(50, 0.3)``),
the three functionals the bounds read — :math:`\log P(m > a)`, :math:`\log S(a) = \log E[\sqrt m\,
\mathbb 1\{m \le a\}]` and :math:`\log P(m \ge a)` for :math:`a = 0, \dots, K + 1` — are computed once
and kept (:func:`prefix`): for a law that gives its masses on :math:`0..K` and its tail beyond (``poisson``,
``binomial``, ``geometric``) by one pass of running sums over them (:func:`fused`, no table built), else read
from the law's queries; Theorem 1's maximum and Theorem 2's :math:`\tilde m` are then
an exhaustive scan of those arrays, vectorised over :math:`n\alpha^2`, instead of the branch and
bound and the integer searches (which make tens of calls into the law).  Every float64 path of a law
(points, curves, maps, the searches on its window) reads the same prefix, so they agree bit for bit; its logs
agree with the law's 40-digit functionals within 1e-13 of the larger of 1 and their size (``tests/test_dame_scan.py``;
a few 1e-15 are seen).  The searches remain for
every law with a longer range, for the mpmath path, and for the cases a scan cannot decide.

Source: Pla et al. (2024), Theorem 1 (eq. (10)) and Theorem 2 (eq. (12)).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..sizes import MAX_SIZE, SizeLaw

SCAN_POINTS = 4096
"""Longest range :math:`0..K` of ``a`` a law's functionals are tabulated for a scan (larger: the searches)."""
SCAN_CELLS = 2**17
"""Most (budget, a) cells of one exhaustive scan of eq. (10); past it the search runs on the prefix's arrays."""
PAIR_CELLS = 2**14
"""Most (budget, a) pairs of one exhaustive scan of eq. (12)'s condition (past it: the search, on the arrays)."""
CUT_TAIL = 1e-40
r"""A law whose searches run to :math:`2^{61}` (closed forms: ``geometric``) but whose tail :math:`P(m > K)` falls
below this within ``SCAN_POINTS`` points is scanned on :math:`0..K` (a *cut* prefix, :func:`prefix`)."""
_LOG_HALF = math.log(0.5)
WINDOW_POINTS = 2**18
"""Longest contiguous table whose functionals the searches read from arrays (:func:`window`)."""

_PREFIXES: "weakref.WeakKeyDictionary[SizeLaw, Prefix | None]" = weakref.WeakKeyDictionary()
_WINDOWS: "weakref.WeakKeyDictionary[SizeLaw, Prefix | None]" = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Prefix:
    r"""A law's functionals at :math:`a = lo, \dots, K + 1`, :math:`K` its search end (``lo = 0``: a prefix).

    ``log_gt[a - lo]`` :math:`= \log P(m > a)` and ``log_s[a - lo]`` :math:`= \log E[\sqrt m\,\mathbb 1\{m \le a\}]`
    for :math:`a \le K`; ``log_ge[a - lo]`` :math:`= \log P(m \ge a)` for :math:`a \le K + 1`.  ``cut``: ``K`` is
    not the law's search end but a point past which :math:`P(m > K) \le` ``CUT_TAIL`` (see :func:`prefix`).
    """

    K: int
    log_gt: np.ndarray
    log_s: np.ndarray
    log_ge: np.ndarray
    lo: int = 0
    cut: bool = False  # K is a cut below the law's search end (:func:`prefix`: a light tail with closed forms)


def prefix(law: SizeLaw) -> Prefix | None:
    r"""The law's :class:`Prefix` (computed once per law), or ``None`` when its search end exceeds ``SCAN_POINTS``.

    .. math:: \big(\log P(m > a),\ \log E[\sqrt m\,\mathbb 1\{m \le a\}],\ \log P(m \ge a)\big)_{a = 0, \dots, K(+1)}

    A law with ``_light_prefix(cap, tail)`` (its search end or its cut :math:`K \le` ``cap``, its log-masses on
    :math:`0..K` and :math:`\log P(m > K)`) has its prefix summed by :func:`fused`.  Otherwise, a law whose search
    end is past ``SCAN_POINTS`` but which gives ``_tail_below(t)``, the first :math:`K` with
    :math:`P(m > K) \le t` (a closed-form light tail: ``geometric(0.5)`` has :math:`K = 133` for ``CUT_TAIL``),
    has a *cut* prefix on :math:`0..K` when :math:`K \le` ``SCAN_POINTS``, read by the law's own queries.  Past
    :math:`K` eq. (10)'s terms exceed the term at :math:`K` by at most :math:`c_2 x P(m > K)^2` (:func:`lower`
    decides only where that is below the search's own resolution) and Theorem 2's condition fails wherever
    :math:`P(m > K)^2 < \varphi(a) \wedge 1` (``_upper``'s bracket).

    Source: Pla et al. (2024), Theorems 1–2 (the functionals of eqs. (10) and (12)).

    Examples
    --------
    >>> from bounds import sizes
    >>> p = prefix(sizes.point(3))
    >>> p.K, p.log_gt.tolist(), p.log_ge.tolist()
    (3, [0.0, 0.0, 0.0, -inf], [0.0, 0.0, 0.0, 0.0, -inf])
    """
    try:
        return _PREFIXES[law]
    except KeyError:
        pass
    light = getattr(law, "_light_prefix", None)  # a light law's masses on 0..K: one pass (:func:`fused`)
    got = light(SCAN_POINTS, CUT_TAIL) if light is not None else None
    if got is not None:
        K, is_cut, lp, log_tail, log_gt = got
        out: Prefix | None = Prefix(K, *fused(lp, log_tail, log_gt, law.support_min), cut=is_cut)
        _PREFIXES[law] = out
        return out
    K = law.search_end()
    out = None
    cut = getattr(law, "_tail_below", None)
    if K > SCAN_POINTS and cut is not None:  # a light tail in closed form: its cut, if near enough
        end = int(cut(CUT_TAIL))
        if end <= SCAN_POINTS:
            a = np.arange(end + 2, dtype=np.int64)
            out = Prefix(end, np.asarray(law.log_prob_gt(a[:-1]), dtype=float),
                         np.asarray(law.log_partial_sqrt_mean(a[:-1]), dtype=float),
                         np.asarray(law.log_prob_ge(a), dtype=float), cut=True)
    elif K <= SCAN_POINTS:
        direct = getattr(law, "_table_prefix", None)
        cols = direct(K) if direct is not None else None  # the queries' values, read from the table by index
        if cols is not None:
            out = Prefix(K, *cols)
        else:
            a = np.arange(K + 2, dtype=np.int64)
            out = Prefix(K, np.asarray(law.log_prob_gt(a[:-1]), dtype=float),
                         np.asarray(law.log_partial_sqrt_mean(a[:-1]), dtype=float),
                         np.asarray(law.log_prob_ge(a), dtype=float))
    _PREFIXES[law] = out
    return out


def _log_runs(t: np.ndarray) -> np.ndarray:
    r""":math:`\log \sum_{j \le i} e^{t_j}` for every ``i``: the terms scaled by the largest and summed left to right
    (up to 256 terms: a partial sum of :math:`i` positive terms within :math:`i\,2^{-53}`, 2.8e-14, of its value) or in
    blocks of :math:`B = \lceil \sqrt n\,\rceil` (each block's running sums, then the running sum of the block totals:
    within :math:`(2B + n/B + 2)\,2^{-53}`, 1.6e-14 at :math:`n = 4096`).  The partial sums below :math:`10^{-290}` of
    the largest term (a deep tail, where scaled terms underflow; the first ones, since the sums grow) are a
    ``logaddexp`` accumulation of those terms instead.

    .. math:: \log \sum_{j \le i} e^{t_j} = t^* + \log \sum_{j \le i} e^{t_j - t^*}, \qquad t^* = \max_j t_j
    """
    n = len(t)
    top = t.max() if n else -math.inf
    if not top > -math.inf:
        return np.logaddexp.accumulate(t)
    if n <= 256:
        s = np.cumsum(np.exp(t - top))
    else:
        B = math.isqrt(n - 1) + 1
        w = np.zeros(B * -(-n // B))
        np.exp(t - top, out=w[:n])
        run = np.cumsum(w.reshape(-1, B), axis=1)
        run[1:] += np.cumsum(run[:-1, -1])[:, None]
        s = run.ravel()[:n]
    if s[0] >= 1e-290:  # s is non-decreasing: no deep sum
        return np.log(s) + top
    deep = int(np.searchsorted(s, 1e-290))  # its first `deep` sums are deep
    out = np.empty(n)
    out[:deep] = np.logaddexp.accumulate(t[:deep])
    out[deep:] = np.log(s[deep:]) + top
    return out


def fused(lp: np.ndarray, log_tail: float, log_gt: np.ndarray | None,
          support_min: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""A :class:`Prefix`'s three columns from the log-masses ``lp`` on :math:`0..K` and :math:`\log P(m > K)`, in
    one pass of running sums (:func:`_log_runs`: scaled, relative error below 2.8e-14 for :math:`K \le 4096`;
    log-space where a deep tail would underflow).

    .. math::

        \log P(m > a) = \log\Big(P(m > K) + \sum_{k = a + 1}^{K} M(k)\Big), \qquad
        \log S(a) = \log \sum_{k \le a} \sqrt k\, M(k), \qquad P(m \ge a) = P(m > a - 1)

    Where :math:`P(m > a) > 1/2` it is :math:`1 - P(m \le a)`, the masses summed from the bottom (``log1p``: the
    small side carries the digits).  ``log_gt`` given (a closed form): used as :math:`\log P(m > a)` instead of the
    sums.  Below the support the values are exact: :math:`P(m > a) = 1` for :math:`a <` ``support_min``, :math:`P(m \ge a) = 1` for
    :math:`a \le` ``support_min``, :math:`S(a) = 0` (``tests/test_dame_scan.py`` checks them against mpmath).

    Source: Pla et al. (2024), Theorems 1–2 (the functionals of eqs. (10) and (12)).

    Examples
    --------
    >>> import math
    >>> lp = np.array([-math.inf, math.log(0.5), math.log(0.5)])  # m uniform on {1, 2}
    >>> gt, s, ge = fused(lp, -math.inf, None, 1)
    >>> np.exp(gt).round(12).tolist(), np.exp(ge).round(12).tolist()
    ([1.0, 0.5, 0.0], [1.0, 1.0, 0.5, 0.0])
    >>> round(float(np.exp(s[2])), 12) == round(0.5 + 0.5 * math.sqrt(2), 12)
    True
    """
    K = len(lp) - 1
    lo = min(max(support_min, 0), K)  # below it P(m > a) = 1 and S(a) = 0: no sums
    if log_gt is None:
        top = np.empty(K + 1 - lo)
        top[0] = log_tail
        top[1:] = lp[K:lo:-1]  # P(m > K), then M(K), ..., M(lo + 1): P(m > a) summed from the top
        log_gt = np.zeros(K + 1)
        log_gt[lo:] = _log_runs(top)[::-1]
        # P(m > a) > 1/2 on a = lo..lo+h-1 (sums from the top do not decrease: log_gt does not increase in a):
        # there 1 - P(m <= a), the small side summed
        h = int(np.count_nonzero(log_gt[lo:] > _LOG_HALF))
        if h:
            log_gt[lo : lo + h] = np.log1p(-np.exp(_log_runs(lp[lo : lo + h])))
    else:
        log_gt = np.array(log_gt, dtype=float)
        log_gt[:lo] = 0.0
    first = max(lo, 1)  # sqrt(0) M(0) = 0
    log_s = np.full(K + 1, -np.inf)
    if first <= K:
        log_s[first:] = _log_runs(lp[first:] + 0.5 * np.log(np.arange(first, K + 1, dtype=float)))
    log_ge = np.empty(K + 2)
    log_ge[1:] = log_gt
    log_ge[: lo + 1] = 0.0
    return log_gt, log_s, log_ge


def lower(law: SizeLaw, pre: Prefix, x: np.ndarray, c_vals: tuple[float, ...],
          rtol: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Eq. (10) maximised by scanning :math:`a = 0, \dots, K`, for the ``x`` a scan decides.

    Returns ``(log values, argmaxes, decided)``; ``decided[i]`` is false where :math:`x S(a)^2 < 1` for every
    :math:`a \le K` (the search's "never reaching" case: its maximum may be the limit :math:`a \to \infty`), left to
    the search; on a cut prefix, or one that stops before the support does, also where :math:`c_2 x P(m > K)^2`, the
    most a term past :math:`K` can exceed the term at :math:`K` by (:math:`P` falls, :math:`S` grows), is not below
    half an ulp of the maximum.  Elsewhere the search's own argument shows the scan
    is exact: the maximum over :math:`[0, \infty)` lies in :math:`[0, K]` (beyond the search end the
    search looks no further either), and the argmax is the smallest :math:`a` with
    :math:`\ell(a) \ge \ell^* + \log(1 - \rho)` (the tie rule), reported at its support point.
    :math:`a = 0` is valued :math:`\log c_1 - c_2 x` as in the search.

    .. math:: \ell(a) = \log c_1 - c_2 x P(m > a)^2 - \log\big(x S(a)^2 \vee 1\big)

    Source: Pla et al. (2024), Theorem 1, eq. (10).
    """
    from ._lower import _lb_from_parts  # the expression the search evaluates

    logx = np.log(x)
    decided = logx + 2 * pre.log_s[-1] >= 0
    n = len(x)
    best, arg = np.full(n, -math.inf), np.zeros(n)
    idx = np.flatnonzero(decided)
    if idx.size:
        with np.errstate(over="ignore", under="ignore"):
            vals = _lb_from_parts(pre.log_gt[None, :], pre.log_s[None, :], logx[idx, None], c_vals, None)
            # a < min supp M share a = 0's term; every other plateau (between support points) holds one value
            vals[:, : min(law.support_min, pre.K + 1)] = (math.log(c_vals[0]) - c_vals[1] * x[idx])[:, None]
        top = vals.max(axis=1)
        best[idx] = top
        arg[idx] = np.argmax(vals >= (top + math.log1p(-rtol))[:, None], axis=1)  # a plateau's first a: 0 or in supp M
        if pre.cut or pre.K < law.support_max:  # past K (a cut, or the search end of a law whose support goes on) the
            # terms exceed the term at K by at most c2 x P(m > K)^2: below half an ulp, or searched
            with np.errstate(over="ignore", under="ignore"):
                slack = np.exp(math.log(c_vals[1]) + logx[idx] + 2 * pre.log_gt[-1])
            decided[idx[~(slack <= 2.0**-53 * np.abs(top))]] = False
    return best, arg, decided


def lower_one(law: SizeLaw, pre: Prefix, x: float, c_vals: tuple[float, ...], rtol: float) -> tuple[float, int] | None:
    r""":func:`lower` at one budget ``x``: ``(log value, argmax)``, or ``None`` where :func:`lower` leaves it to the
    search.  The same elementwise operations on the same doubles (one row of :func:`lower`'s array, contiguous as
    there), without the bookkeeping of many rows: the values are :func:`lower`'s (a map's cell equals its point).

    .. math:: \max_{0 \le a \le K}\ \log c_1 - c_2 x P(m > a)^2 - \log\big(x S(a)^2 \vee 1\big)

    Source: Pla et al. (2024), Theorem 1, eq. (10).
    """
    terms = _LB_FROM_PARTS or _bind_lb()
    logx = np.log(np.array([x]))[0]  # :func:`lower`'s np.log on an array of budgets, here of one
    if not logx + 2 * pre.log_s[-1] >= 0:  # "never reaching": the search's case
        return None
    with np.errstate(over="ignore", under="ignore"):
        vals = terms(pre.log_gt, pre.log_s, logx, c_vals, None, quiet=True)  # under this error state
        vals[: min(law.support_min, pre.K + 1)] = math.log(c_vals[0]) - c_vals[1] * x
        # as :func:`lower`: past the cut, decided only below half an ulp of the maximum
        slack = np.exp(math.log(c_vals[1]) + logx + 2 * pre.log_gt[-1]) if pre.cut or pre.K < law.support_max else None
    top = np.maximum.reduce(vals)
    arg = int((vals >= top + math.log1p(-rtol)).argmax())
    if slack is not None and not slack <= 2.0**-53 * abs(top):
        return None
    return float(top), arg


_LB_FROM_PARTS: Any = None  # eq. (10)'s expression, bound at the first call (``_lower`` imports this module)


def _bind_lb() -> Any:
    global _LB_FROM_PARTS
    from ._lower import _lb_from_parts  # the expression the search evaluates

    _LB_FROM_PARTS = _lb_from_parts
    return _lb_from_parts


def log_sqrt_min(pre: Prefix, m: int) -> float:
    r""":math:`\log E[\sqrt{m \wedge \tilde m}]` from the prefix (:math:`1 \le \tilde m \le K`), by the law's formula.

    .. math:: E[\sqrt{m \wedge a}] = E[\sqrt m\,\mathbb 1\{m \le a\}] + \sqrt a\,P(m > a)

    Every float64 path (a point, a curve's and a map's cells) calls this one function: the same double for the
    same :math:`\tilde m`.  In Python floats: ``logaddexp`` as :math:`h + \log(1 + e^{l - h})`, :math:`h \ge l`.

    Source: Pla et al. (2024), eq. (11) (the denominator, canonical form of ``docs/choices.md`` §1.2).
    """
    a, b = pre.log_s.item(m), 0.5 * math.log(m) + pre.log_gt.item(m)
    hi, lo = (a, b) if a >= b else (b, a)
    return hi + math.log1p(math.exp(lo - hi)) if hi > -math.inf else -math.inf


def condition_scan(pre: Prefix, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray, Any] | None:
    r"""The pairs :math:`(i, a)`, :math:`lo_i \le a \le hi_i`, and :math:`\log P(m \ge a)` there, for a scan
    of eq. (12)'s condition; ``None`` when a range passes :math:`K + 1` or the pairs exceed ``PAIR_CELLS`` (a search on the prefix is cheaper).

    .. math:: P(m \ge a)^2 \ge \varphi(a) \wedge 1

    Source: Pla et al. (2024), Theorem 2, eq. (12).
    """
    span = hi - lo + 1
    if np.any(hi > pre.K + 1) or int(span.sum()) > PAIR_CELLS:
        return None
    rows = np.repeat(np.arange(len(lo)), span)
    a = np.arange(int(span.sum()), dtype=np.int64) - np.repeat(np.cumsum(span) - span, span) + np.repeat(lo, span)
    return rows, a, pre.log_ge[a]


def window(law: SizeLaw) -> SizeLaw:
    r"""The law itself, or a view of it whose float64 functionals on its table's window are read from arrays.

    A law with a :func:`prefix` (``lo = 0``), or whose table covers every integer of a window
    :math:`[lo, K]`, ``K`` its search end (at most ``WINDOW_POINTS`` points: a Poisson or binomial bulk,
    say ``poisson(1e6)``; not a bulk the law answers point by point, such as ``binomial(10**11, 3e-4)``,
    whose window would cost a quadrature per point),
    has :math:`\log P(m > a)`, :math:`\log E[\sqrt m\,\mathbb 1\{m \le a\}]` and :math:`\log P(m \ge a)`
    read once over the window, by the law's own methods (the table's values); the searches then read
    them by index instead of calling the law tens of times.  Outside the window, and at any precision,
    the view asks the law.  The values are the law's, so every search's answer is unchanged.

    .. math:: \big(\log P(m > a),\ \log E[\sqrt m\,\mathbb 1\{m \le a\}],\ \log P(m \ge a)\big)_{a = lo, \dots, K(+1)}

    Source: Pla et al. (2024), Theorems 1–2 (the functionals of eqs. (10) and (12)).

    Examples
    --------
    >>> from bounds import sizes
    >>> law = sizes.poisson(1e5)
    >>> view = window(law)
    >>> a = np.array([99_000, 100_000, 103_000])
    >>> bool(np.array_equal(view.log_prob_gt(a), law.log_prob_gt(a)))
    True
    >>> finite = sizes.finite({10: 0.5, 10**8: 0.5})
    >>> window(finite) is finite  # no contiguous table: read directly
    True
    """
    try:
        win = _WINDOWS[law]
    except KeyError:
        win = prefix(law)
        K = law.search_end()
        point_by_point = getattr(law, "_bulk_mode", None)  # a bulk law answers each a by quadrature: no window
        if win is None and law.tabulated and not (point_by_point is not None and point_by_point(None)):
            try:
                pts = law.support_points()
            except ValueError:  # a bulk too wide to list: the law answers point by point
                pts = None
            if (pts is not None and 0 < len(pts) <= WINDOW_POINTS and int(pts[-1]) == K < MAX_SIZE
                    and int(pts[-1]) - int(pts[0]) + 1 == len(pts)):  # K + 1 is queried: within the sizes' range
                lo = max(int(pts[0]) - 1, 0)  # the point below the table too: the searches start there
                a = np.arange(lo, K + 2, dtype=np.int64)
                win = Prefix(K, np.asarray(law.log_prob_gt(a[:-1]), dtype=float),
                             np.asarray(law.log_partial_sqrt_mean(a[:-1]), dtype=float),
                             np.asarray(law.log_prob_ge(a), dtype=float), lo)
        _WINDOWS[law] = win
    return law if win is None else cast(SizeLaw, _WindowView(law, win))


class _WindowView:
    """``law`` with its three float64 functionals read from a :class:`Prefix` on ``[lo, K]`` (see :func:`window`)."""

    def __init__(self, law: SizeLaw, win: Prefix) -> None:
        self._law, self._win = law, win

    def __getattr__(self, name: str) -> Any:
        return getattr(self._law, name)

    def _read(self, values: np.ndarray, last: int, method: Any, a: Any, precision: int | None) -> np.ndarray:
        if precision is not None:
            return np.asarray(method(a, precision=precision))
        a = np.asarray(a, dtype=np.int64)
        first = self._win.lo
        inside = (a >= first) & (a <= last)
        if np.all(inside):
            return values[a - first]
        flat, ins = a.reshape(-1), inside.reshape(-1)
        out = np.empty(flat.shape)
        out[ins] = values[flat[ins] - first]
        out[~ins] = np.asarray(method(flat[~ins]), dtype=float)
        return out.reshape(a.shape)

    def log_prob_gt(self, a: Any, *, precision: int | None = None) -> np.ndarray:
        return self._read(self._win.log_gt, self._win.K, self._law.log_prob_gt, a, precision)

    def log_partial_sqrt_mean(self, a: Any, *, precision: int | None = None) -> np.ndarray:
        return self._read(self._win.log_s, self._win.K, self._law.log_partial_sqrt_mean, a, precision)

    def log_prob_ge(self, a: Any, *, precision: int | None = None) -> np.ndarray:
        return self._read(self._win.log_ge, self._win.K + 1, self._law.log_prob_ge, a, precision)


def window_of(law: SizeLaw) -> Prefix | None:
    """The arrays of a :func:`window` view (``None`` for a law read directly)."""
    return law._win if isinstance(law, _WindowView) else None
