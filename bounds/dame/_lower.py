r"""DAME's Theorem 1: the lower bound (eq. (10)), maximised exactly over :math:`a`.

Source: Pla et al. (2024), Theorem 1, eq. (10), constants (S31).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from .._lazy import lazy
from ..numerics import (
    backend,
    check_precision,
    warn_once_per_call,
)
from ..sizes import MAX_SIZE, SizeLaw
from . import _scan, _search
from ._rows import MAX_ROWS, Rows, batches
from ._constants import Constants, _log_floats
from ._inputs import _LOG_UNDERFLOW, Bound, PrivacyBudget, _law, _result, privacy_budget

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # the float path never imports it


_MAX_TASKS = 10**6  # open intervals in the lower bound's branch and bound: more means no convergence
# the lower bound's tie rule: its argmax is the smallest a whose value is within this relative
# distance of the maximum (10^3 above the float path's error on eq. (10), so both paths agree)
LB_TIE_RTOL = 1e-9
"""The lower bound's tie rule: its argmax is the smallest ``a`` whose term is within this relative distance
of the maximum (10^3 above the float path's error on eq. (10), so the float and mpmath paths agree)."""


@dataclass(frozen=True)
class LowerBound(Bound):
    r"""Theorem 1's bound, with its maximiser ``argmax``.

    ``argmax`` is an ``int``: the smallest :math:`a \in \{0\} \cup \mathrm{supp}(M)` whose term is within a
    relative ``LB_TIE_RTOL`` of the maximum (the tie rule), also where the maximum is the supremum
    :math:`a \to \infty` (eq. (13)), not attained: the terms tend to it, so some :math:`a` is within the rule.
    It is ``math.inf`` only where no :math:`a` up to the largest size :math:`2^{62}` is (a heavy tail at a
    huge budget).
    """

    argmax: int | float


_BRANCH = 16  # children per split interval in the float search (2 in mpmath: fewer evaluations)
_FLAT_RTOL = 2.0**-46  # 64 ulps: the float search settles an interval whose bound exceeds its larger end by less
_LOG_CUT_BITS = 4  # a log-even cut of _split keeps this many leading binary digits (a grid shared by intervals)


def _log_lb_terms(law: SizeLaw, a: np.ndarray, x: Any, c_vals: tuple[Any, ...], precision: int | None) -> np.ndarray:
    """log of eq. (10)'s term at each ``a`` (broadcast against ``x``)."""
    be = backend(precision)
    lsf = law.log_prob_gt(a, precision=precision)
    lps = law.log_partial_sqrt_mean(a, precision=precision)
    return _lb_from_parts(lsf, lps, be.log(x), c_vals, precision)


def _lb_from_parts(lsf: Any, lps: Any, logx: Any, c_vals: tuple[Any, ...], precision: int | None,
                   quiet: bool = False) -> np.ndarray:
    """``log c1 - c2 x P^2 - max(log x + 2 log S, 0)`` from ``log P`` and ``log S``.

    ``quiet``: float64 arrays whose caller ignores over- and underflow already (``np.errstate``): no error state is set
    here (the same doubles; every operation then runs under the caller's state).
    """
    if (precision is None and type(lsf) is np.ndarray and type(lps) is np.ndarray and lsf.dtype == _F64
            and lps.dtype == _F64):  # float64 arrays: 2 v as v + v (the same double), the constants' logs kept
        lc1, lc2 = _log_floats(c_vals)[:2]
        if quiet:
            return lc1 - np.exp(lc2 + logx + (lsf + lsf)) - np.maximum(logx + (lps + lps), 0)
        with np.errstate(over="ignore", under="ignore"):
            expo = np.exp(lc2 + logx + (lsf + lsf))
        return lc1 - expo - np.maximum(logx + (lps + lps), 0)
    be = backend(precision)
    with np.errstate(over="ignore", under="ignore"):
        expo = be.exp(be.log(c_vals[1]) + logx + 2 * lsf)
    return be.log(c_vals[0]) - expo - np.maximum(logx + 2 * lps, 0)


_F64 = np.dtype(np.float64)


def _end(law: SizeLaw) -> int:
    """The end of a law's searches: its largest support point, or its search end."""
    return int(law.support_max) if law.is_finite else law.search_end()


def _window_lo(law: SizeLaw, above: int) -> int:
    """The first point of the law's window (:func:`bounds.dame._scan.window`) if it exceeds ``above``, else -1."""
    win = _scan.window_of(law)
    return win.lo if win is not None and win.lo > above else -1


def _first_reaching(rows: Rows, logx: Any, precision: int | None) -> np.ndarray:
    r""":math:`a_0 = \min\{a : x S(a)^2 \ge 1\}` per ``x`` (``-1``: never, up to the search end), ``x[i]`` of the law
    of row ``i``.

    At a precision, the float64 answer is tried first and kept where two evaluations at the
    precision confirm it; elsewhere (and in float64) galloping from the start, then narrowing
    (:func:`bounds.dame._search.last_true`: 16 ways in float64, 2 at a precision).
    """
    for law in rows.laws:
        if _end(law) > MAX_SIZE:
            raise ValueError(f"{law!r}: its search end is past the largest size 2**62 (the searches are exact over int64)")
    n = len(logx)

    def below_rows(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
        lps = rows.call("log_partial_sqrt_mean", idx, a, precision=precision)
        return np.asarray(logx[idx] + 2 * lps < 0, dtype=bool)

    def below(a: np.ndarray) -> np.ndarray:
        return below_rows(a, np.arange(n))

    start = rows.of(lambda law: law.support_min).astype(np.int64)
    if precision is None:  # S is non-decreasing: below a window's first point, where the predicate holds there
        lo = rows.of(lambda law: _window_lo(law, law.support_min))
        at = np.flatnonzero(lo >= 0)
        if at.size:
            hold = below_rows(lo[at].astype(np.int64), at)
            start[at[hold]] = lo[at[hold]]
    out = np.full(n, -1, dtype=np.int64)
    top = rows.of(_end).astype(np.int64)
    reach = np.flatnonzero(~below(top))  # the others never reach x S^2 >= 1 up to the end
    if precision is not None and reach.size:  # the float64 answer, confirmed at two points (the predicate is
        # monotone: a0 = h exactly when it fails at h and holds at h - 1, or h is the start), else searched
        law = rows.laws[0]
        h = _first_reaching(Rows((_scan.window(law),), np.zeros(reach.size)),
                            np.asarray([float(v) for v in logx[reach]]), None)
        h = np.where(h < start[reach], start[reach], h)
        inner = np.flatnonzero(h > start[reach])
        sure = ~below_rows(h, reach)
        if inner.size:
            sure[inner] &= below_rows(h[inner] - 1, reach[inner])
        out[reach[sure]] = h[sure]
        reach = reach[~sure]
    ok = below_rows(start[reach], reach)
    out[reach[~ok]] = start[reach[~ok]]
    idx = reach[ok]
    if idx.size:  # galloping from the start, then narrowing: about log_w(a0) + 1 calls (w = 16 in float64)
        out[idx] = _search.last_true(lambda a, k: below_rows(a, idx[k]), start[idx], top[idx],
                                     _search.WAYS if precision is None else 2) + 1
    return out


class _TieSeeds:
    r"""What Theorem 1's float branch and bound leaves for the tie rule (:func:`_smallest_near_max`): the evaluated
    points and the dropped intervals that may still reach the final threshold :math:`\ell^* + \log(1 - \rho)`.

    The best value only grows during the search, so whatever is below the current best plus
    :math:`\log(1 - \rho)` when it is recorded stays below the final threshold: only the rest is kept.
    """

    def __init__(self) -> None:
        self.points: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (task, support point, value)
        self.intervals: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []  # (task, L, H, max bound)

    def add_points(self, task: np.ndarray, labels: np.ndarray, vals: np.ndarray, floor: np.ndarray) -> None:
        near = vals >= floor
        self.points.append((task[near], labels[near], vals[near]))

    def add_intervals(self, task: np.ndarray, L: np.ndarray, H: np.ndarray, top: np.ndarray, floor: np.ndarray) -> None:
        near = top >= floor
        self.intervals.append((task[near], L[near], H[near], top[near]))

    def start(self, thr: np.ndarray, found: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Lower ``found`` (per task) to the smallest recorded point reaching ``thr``; return the recorded
        intervals of the ``live`` tasks that may hold a smaller one: ``(task, L, H)``."""
        if self.points:
            task, lab, val = (np.concatenate(c) for c in zip(*self.points))
            ok = live[task] & (val >= thr[task])
            np.minimum.at(found, task[ok], lab[ok])
        if not self.intervals:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        task, L, H, top = (np.concatenate(c) for c in zip(*self.intervals))
        ok = live[task] & (top >= thr[task]) & (L < found[task])
        task, L, H = task[ok], L[ok], H[ok]
        return task, L, np.minimum(H, found[task])


def _lb_search(rows: Rows, x: Any, c_vals: tuple[Any, ...], precision: int | None) -> tuple[np.ndarray, list[float]]:
    r"""Exact maximiser of eq. (10) over :math:`a \in \{0\} \cup \mathrm{supp}(M)`, per ``x`` (``x[i]`` with the law
    of row ``i`` of ``rows``: every decision below is per row, so each law's rows go as they would alone).

    Returns ``(log values, argmaxes)``.  Write :math:`P(a) = P(m > a)`,
    :math:`S(a) = E[\sqrt m\,\mathbb 1\{m \le a\}]`, :math:`p = M(a+1)` and
    :math:`\ell(a) = \log c_1 - c_2 x P(a)^2 - \log(x S(a)^2 \vee 1)`: the sum of a
    non-decreasing and a non-increasing step function of ``a``.

    **Proof of the search.**  Let :math:`a_0 = \min\{a : x S(a)^2 \ge 1\}`.

    1. On :math:`[0, a_0 - 1]` the second term is 0, so :math:`\ell` is non-decreasing: its
       maximum there is :math:`\ell(a_0 - 1)`.  If :math:`a_0` does not exist (up to the search's end
       :math:`K`), the maximum up to :math:`K` is :math:`\ell(K)`; a finite support ends there, an infinite one
       offers the limit :math:`a \to \infty` too (below).
    2. For :math:`a \ge a_0`, :math:`P(a) - P(a+1) = p`, :math:`S(a+1) - S(a) = \sqrt{a+1}\,p`, and
       :math:`v/(1+v) \le \log(1+v) \le v` give

       .. math:: \ell(a+1) - \ell(a) = p\,\big(c_2 x (P(a) + P(a+1)) - t\big), \qquad
                 \frac{2\sqrt{a+1}}{S(a+1)} \le t \le \frac{2\sqrt{a+1}}{S(a)}.

       Hence on an interval :math:`[l, h] \subset [a_0, \infty)`, by monotonicity of
       :math:`P` and :math:`S`: if :math:`c_2 x P(l) < \sqrt{l+1}/S(h)` every step is
       :math:`\le 0` and the maximum over :math:`[l, h]` is :math:`\ell(l)`; if
       :math:`c_2 x P(h) > \sqrt{h}/S(l)` every step is :math:`\ge 0` and it is :math:`\ell(h)`.
       In any case :math:`\ell \le \log c_1 - c_2 x P(h)^2 - \log(x S(l)^2)` on :math:`[l, h]`.
    3. Markov's inequality :math:`P(a) \le E m/(a+1)` and Jensen's :math:`S \le \sqrt{E m}`
       make every step from :math:`a + 1 \ge (c_2 x)^{2/3} E m` on non-positive (2.), so the
       maximum over :math:`[a_0, \infty)` lies in :math:`[a_0, \max(a_0, \lceil (c_2x)^{2/3}E m\rceil)]`.

    Branch and bound on that interval: evaluate both ends of every interval (candidates),
    drop an interval when 2. decides it (with a margin of ``1e-9`` in float64, ``10^{-(d-10)}``
    at ``d`` digits, against rounding) or its bound is below the best value found, or, in float64,
    when its bound exceeds its larger end by less than 64 ulps (``_FLAT_RTOL``, relative: no point
    inside beats that end by more than the float path's own error, and a plateau flat to its last
    bits is not split without end), split the rest into at most 16 (float) or 2 (mpmath) children
    (evenly in :math:`\log(a+1)` while an interval spans decades; in float64 on grids shared by all
    budgets, see ``_split``).  When the two criteria of 2. separate at a single crossing of
    :math:`c_2 x P - \sqrt{a}/S` — the generic case — only the O(1) intervals around the crossing
    survive each level: :math:`O(\log N)` evaluations of
    :math:`P` and :math:`S`, memory :math:`O(1)` per ``x``, and no table.  ``ℓ`` is constant
    between support points, so a candidate ``a`` is reported as the largest support point
    ``<= a``.  **Tie rule**: the reported argmax is the smallest :math:`a` with
    :math:`\ell(a) \ge \ell^* + \log(1 - \rho)`, :math:`\rho` = ``LB_TIE_RTOL`` = 1e-9 (see
    :func:`_smallest_near_max`; in float64 it searches only what this branch and bound left open),
    so the float and mpmath paths agree where eq. (10) is flat to within the float path's error
    (about 1e-12); where the limit :math:`a \to \infty` wins, :func:`_tie_past_end` finds that :math:`a` past
    :math:`K`.
    """
    mp = precision is not None
    be = backend(precision)
    n = len(x)
    logx = be.log(be.asarray(x))
    lc1, lc2 = be.log(c_vals[0]), be.log(c_vals[1])
    margin = mpmath.mpf(10) ** (-(precision - 10)) if precision is not None else 1e-9
    # float64: the tie rule searches only what the branch and bound leaves open (at a precision, all of [0, argmax])
    seeds = None if mp else _TieSeeds()
    shift = math.log1p(-LB_TIE_RTOL)

    with np.errstate(over="ignore"):  # c2 x beyond the float range: the a = 0 term is -inf
        best = np.asarray([lc1 - c_vals[1] * xi for xi in x], dtype=object if mp else float)  # a = 0
    arg = np.zeros(n, dtype=np.int64)  # the labels: exact up to 2**62 (a float64 would round past 2**53)
    limit = np.zeros(n, dtype=bool)  # the supremum a -> infinity (eq. (13)), not attained
    a0 = _first_reaching(rows, logx, precision)
    never = a0 < 0
    finite = rows.of(lambda law: law.is_finite).astype(bool)
    # 1.: non-decreasing up to the search's end (an infinite law's limit a -> infinity is offered below), its largest
    # term there at the end: the tie rule's threshold, and its smallest qualifying a, come from it
    idx = np.flatnonzero(never)
    if idx.size:
        top = rows.of(_end, idx).astype(np.int64)
        val = _lb_from_parts(*rows.parts(idx, top), logx[idx], c_vals, precision)
        for j, i in enumerate(idx):
            if val[j] > best[i]:
                best[i], arg[i] = val[j], top[j]
        if seeds is not None:  # non-decreasing on [0, top]: its largest term is at the top
            seeds.add_intervals(idx, np.zeros(len(idx), dtype=np.int64), top, np.asarray(val, dtype=float),
                                np.full(len(idx), -math.inf))
    t = np.flatnonzero(~never)
    mean = rows.each(lambda law: float(law.mean()))
    mean = mean[t] if np.ndim(mean) else mean
    with np.errstate(over="ignore"):
        top = np.ceil(np.exp((2.0 / 3.0) * (math.log(c_vals[1]) + np.log(np.asarray(x, dtype=float)[t]))) * mean) + 2
    cap = rows.each(_end)
    cap = cap[t] if np.ndim(cap) else cap
    lo = a0[t].astype(np.int64)
    hi = np.maximum(lo, _search.int_min(top, cap))  # exact: cap may pass 2**53

    # candidates: keep the largest value, then the smallest a
    def offer(task: np.ndarray, a_end: np.ndarray, vals: Any) -> None:
        labs = np.asarray(rows.call("floor_support", task, a_end), dtype=np.int64)
        if seeds is not None:  # before the best moves: below best + log(1 - rho) now is below the final threshold
            seeds.add_points(task, labs, vals, best[task] + shift)
        if mp:
            for i, v, lab in zip(task, vals, labs):
                if v > best[i] or (v == best[i] and lab < arg[i]):
                    best[i], arg[i] = v, lab
            return
        rival = vals >= best[task]  # only these can change a task's best
        task, vals, labs = task[rival], vals[rival], labs[rival]
        top = np.full(n, -np.inf)  # per task: the largest value offered, then the smallest a reaching it
        np.maximum.at(top, task, vals)
        at = vals == top[task]
        low = np.full(n, np.iinfo(np.int64).max)
        np.minimum.at(low, task[at], labs[at])
        i = np.unique(task)
        v, lab = top[i], low[i]
        better = (v > best[i]) | ((v == best[i]) & (lab < arg[i]))
        best[i[better]], arg[i[better]] = v[better], lab[better]

    branch = 2 if mp else _BRANCH
    v0 = _lb_from_parts(*rows.parts(t, lo - 1), logx[t], c_vals, precision)
    offer(t, lo - 1, v0)  # 1.
    if seeds is not None:  # [0, a0 - 1] is non-decreasing: its largest term is at a0 - 1
        seeds.add_intervals(t, np.zeros(len(t), dtype=np.int64), lo - 1, v0, best[t] + shift)
    # intervals [lo, hi] per task
    task, L, H = t.copy(), lo.copy(), hi.copy()
    while len(task):
        m = len(task)  # children share their ends: each point once per law, one call
        pp, ss = rows.parts_distinct(np.concatenate([task, task]), np.concatenate([L, H]))
        pl, sl, ph, sh = pp[:m], ss[:m], pp[m:], ss[m:]
        lx = logx[task]
        vl = _lb_from_parts(pl, sl, lx, c_vals, precision)
        vh = _lb_from_parts(ph, sh, lx, c_vals, precision)
        offer(np.concatenate([task, task]), np.concatenate([L, H]), np.concatenate([vl, vh]))
        lhs = lc2 + lx
        with np.errstate(divide="ignore"):
            dec = lhs + pl < 0.5 * be.log(be.asarray(L + 1)) - sh - margin
            inc = lhs + ph > 0.5 * be.log(be.asarray(H)) - sl + margin
        with np.errstate(over="ignore", under="ignore"):
            bound = lc1 - be.exp(lc2 + lx + 2 * ph) - np.maximum(lx + 2 * sl, 0)
        keep = ~np.asarray(dec | inc, dtype=bool) & (H - L > 1) & np.asarray(bound >= best[task] - margin, dtype=bool)
        if not mp:  # flat to the float path's error on eq. (10): no point inside beats the larger end by more
            keep &= bound > np.maximum(vl, vh) + _FLAT_RTOL * np.maximum(np.abs(bound), 1.0)
        if seeds is not None:  # dropped, and may hold a near-maximum point other than an evaluated end: a rising
            # interval (its largest term is vh) or one dropped by its bound (a falling one's largest term is L)
            gone = ~keep & (H - L > 1) & ~dec
            seeds.add_intervals(task[gone], L[gone], H[gone], np.where(inc, vh, bound)[gone], best[task[gone]] + shift)
        task, L, H = task[keep], L[keep], H[keep]
        if len(task) > _MAX_TASKS:  # pragma: no cover - the bounds of 2. failed to separate
            raise AssertionError("the lower bound's search did not converge")
        if not len(task):
            break
        task, L, H = _split(task, L, H, branch, by_log=True)
    # 3.'s bracket (and 1.'s range) is cut at an infinite law's search end K, past which S(a) is E[sqrt m] to the
    # tables' tolerance: there the terms rise to the limit a -> infinity (eq. (13)).  Where it beats the best term
    # beyond the tie rule (c2 x P(m > K)^2 is not negligible: budgets near 1e30 and past), it is the maximum and the
    # rule's a lies past K; where it beats it within the rule, it is the maximum the rule's threshold comes from.
    far = np.flatnonzero(~finite)
    if far.size:
        tie = mpmath.log1p(-mpmath.mpf(LB_TIE_RTOL)) if mp else shift
        ls = rows.of(lambda law: be.log(law.sqrt_mean(precision=precision)), far)
        val = lc1 - np.maximum(logx[far] + 2 * ls, 0)
        for j, i in enumerate(far):
            if val[j] + tie > best[i]:
                best[i], limit[i] = val[j], True
            elif val[j] > best[i]:  # the best term still qualifies: best + tie >= val + tie
                best[i] = val[j]
    _smallest_near_max(rows, logx, c_vals, precision, best, arg, limit, branch, seeds)
    _tie_past_end(rows, logx, c_vals, precision, best, arg, limit, branch)
    return best, [math.inf if at_limit else int(a) for a, at_limit in zip(arg, limit)]


def _tie_past_end(rows: Rows, logx: Any, c_vals: tuple[Any, ...], precision: int | None, best: Any,
                  arg: np.ndarray, limit: np.ndarray, branch: int) -> None:
    r"""The tie rule where the limit :math:`a \to \infty` is the maximum (``limit[i]``, ``best[i]`` its value): the
    smallest :math:`a` with :math:`\ell(a) \ge \ell^* + \log(1 - \rho)` lies past the search's end :math:`K` (no
    term up to it qualifies).  Since :math:`\ell(a) \to \ell^*`, such an :math:`a` exists: galloping
    :math:`a = K + 1, K + 2, K + 4, \dots` up to the largest size :math:`2^{62}` finds one that qualifies, and
    :func:`_smallest_near_max`'s branch and bound on :math:`[0, a]` (exact: it proves every other point below the
    threshold) moves it to the smallest (``arg[i]``, ``limit[i]`` cleared).  Where none qualifies up to
    :math:`2^{62}` (a heavy tail at a huge budget) ``argmax`` stays ``inf``.

    .. math:: \min\{a : \ell(a) \ge \ell^* + \log(1 - \rho)\}, \qquad \ell^* = \lim_{a\to\infty} \ell(a)
    """
    idx = np.flatnonzero(limit)
    if not idx.size:
        return
    shift = mpmath.log1p(-mpmath.mpf(LB_TIE_RTOL)) if precision is not None else math.log1p(-LB_TIE_RTOL)
    end = rows.of(_end, idx).astype(np.int64)
    hi = np.full(len(idx), -1, dtype=np.int64)
    step, pending = 1, np.arange(len(idx))
    while pending.size:
        a = np.minimum(end[pending] + step, MAX_SIZE)
        lp, ls = rows.parts_distinct(idx[pending], a)
        vals = _lb_from_parts(lp, ls, logx[idx[pending]], c_vals, precision)
        hit = np.asarray([vals[j] >= best[i] + shift for j, i in enumerate(idx[pending])], dtype=bool)
        hi[pending[hit]] = a[hit]
        pending = pending[~hit & (a < MAX_SIZE)]
        step *= 2
    found = idx[hi >= 0]
    if found.size:
        arg[found] = hi[hi >= 0]
        others = np.ones(len(limit), dtype=bool)
        others[found] = False  # the rows searched: _smallest_near_max skips the others
        _smallest_near_max(rows, logx, c_vals, precision, best, arg, others, branch)
        limit[found] = False


def _smallest_near_max(rows: Rows, logx: Any, c_vals: tuple[Any, ...], precision: int | None, best: Any,
                       arg: np.ndarray, limit: np.ndarray, branch: int, seeds: _TieSeeds | None = None) -> None:
    r"""The tie rule: move each ``arg[i]`` (int64; not where ``limit[i]``, the supremum) to the smallest :math:`a \ge 0` with
    :math:`\ell(a) \ge \ell^* + \log(1 - \rho)`, :math:`\rho` = ``LB_TIE_RTOL`` (in place).

    Branch and bound on :math:`[0, \text{arg}]`: an interval :math:`[l, h]` is dropped when its
    bound :math:`\log c_1 - c_2 x P(h)^2 - \log(x S(l)^2 \vee 1) \ge \ell` (see ``_lb_search``, 2.)
    is below the threshold, when it starts past the smallest qualifying point found, or when
    ``_lb_search``'s 1.–2. prove :math:`\ell` monotone on it (with the same margin) and its
    largest term, at an end, leaves no qualifying point other than that end: non-increasing, or
    non-decreasing with :math:`\ell(h)` below the threshold.  Both ends of every interval are
    evaluated, so every point is either evaluated or proven below the threshold.

    At a precision the search starts from :math:`[0, \text{arg}]`.  In float64 (``seeds``) it starts from
    what ``_lb_search``'s branch and bound left open, which holds every qualifying point it did not evaluate:
    a point of :math:`[0, a_0 - 1]` qualifies only if :math:`a_0 - 1` does (:math:`\ell` is non-decreasing
    there; likewise on :math:`[0, \max\mathrm{supp}]` when :math:`a_0` does not exist); in an interval the
    search dropped as non-increasing, only if its evaluated first point does; as non-decreasing, only if its
    evaluated last term reaches the threshold; by its bound (below the best, or flat to 64 ulps of its larger
    end), only if that bound does; one of width 1 has
    both ends evaluated; and past the search's upper end :math:`\ell` is non-increasing from an evaluated
    point.  The smallest evaluated point that qualifies seeds ``arg``, and the intervals that may hold a
    smaller one are searched as above.
    """
    mp = precision is not None
    be = backend(precision)
    lc1, lc2 = be.log(c_vals[0]), be.log(c_vals[1])
    finite_arg = ~limit
    task = np.flatnonzero(finite_arg)
    if not len(task):
        return
    shift = mpmath.log1p(-mpmath.mpf(LB_TIE_RTOL)) if mp else math.log1p(-LB_TIE_RTOL)
    margin = mpmath.mpf(10) ** (-(precision - 10)) if precision is not None else 1e-9  # as in _lb_search
    thr = np.asarray([best[i] + shift for i in range(len(best))], dtype=object if mp else float)
    found = arg.copy()
    if seeds is None:
        L = np.zeros(len(task), dtype=np.int64)
        H = arg[task].copy()
    else:
        task, L, H = seeds.start(thr, found, finite_arg)
    if not mp:  # below a window's first point w, P(m > a) >= P(m > w) and S >= 0 bound every term of [0, w] by
        # log c1 - c2 x P(m > w)^2; where that is below the threshold only a = 0 can qualify there
        w_lo = rows.of(lambda law: _window_lo(law, 1), task).astype(np.int64)
        w_gt = rows.of(lambda law: float(win.log_gt[0]) if (win := _scan.window_of(law)) is not None else 0.0, task)
        with np.errstate(over="ignore"):  # c2 x P^2 past the float range: the cap is -inf
            cap = lc1 - np.exp(lc2 + logx[task] + 2 * w_gt)
        skip = (w_lo >= 0) & (cap < thr[task]) & (H > w_lo) & (L < w_lo)
        if np.any(skip):
            idx = np.flatnonzero(skip)
            zero = _lb_from_parts(*rows.parts_distinct(task[idx], np.zeros(len(idx), dtype=np.int64)),
                                  logx[task[idx]], c_vals, None)
            at_zero = idx[zero >= thr[task[idx]]]  # a = 0 qualifies: the smallest a of all
            found[task[at_zero]] = 0
            L[idx] = w_lo[idx]
            keep = np.ones(len(task), dtype=bool)
            keep[at_zero] = False
            task, L, H = task[keep], L[keep], H[keep]
    while len(task):
        m = len(task)  # children share their ends: each point once per law
        pp, ss = rows.parts_distinct(np.concatenate([task, task]), np.concatenate([L, H]))
        pl, sl, ph, sh = pp[:m], ss[:m], pp[m:], ss[m:]
        lx = logx[task]
        hits = []
        for ends, p_, s_ in ((L, pl, sl), (H, ph, sh)):
            ok = np.asarray(_lb_from_parts(p_, s_, lx, c_vals, precision) >= thr[task], dtype=bool)
            hits.append(ok)
            if np.any(ok):
                np.minimum.at(found, task[ok], np.asarray(rows.call("floor_support", task[ok], ends[ok]), dtype=np.int64))
        with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):  # NaN: not monotone
            bound = lc1 - be.exp(lc2 + lx + 2 * ph) - np.maximum(lx + 2 * sl, 0)
            # monotone intervals (_lb_search's 1. and 2.): non-decreasing below a0 (x S(h)^2 < 1) or where
            # the steps are all >= 0, non-increasing where they are all <= 0: their largest term is an
            # end, just evaluated, so an interval whose qualifying end is not the smaller one holds none
            reached = np.asarray(lx + 2 * sl >= 0, dtype=bool)
            rising = np.asarray(lx + 2 * sh < 0, dtype=bool) | (reached & np.asarray(
                lc2 + lx + ph > 0.5 * be.log(be.asarray(H)) - sl + margin, dtype=bool))
            falling = reached & np.asarray(lc2 + lx + pl < 0.5 * be.log(be.asarray(L + 1)) - sh - margin, dtype=bool)
        settled = (rising & ~hits[1]) | falling
        keep = np.asarray(bound >= thr[task], dtype=bool) & (H - L > 1) & (L < found[task]) & ~settled
        task, L, H = task[keep], L[keep], np.minimum(H[keep], found[task[keep]])
        if len(task) > _MAX_TASKS:  # pragma: no cover - a plateau this wide is refused, not scanned
            raise AssertionError("the lower bound's tie search did not converge")
        if not len(task):
            break
        task, L, H = _split(task, L, H, branch)
    arg[finite_arg] = found[finite_arg]


def _split(task: np.ndarray, L: np.ndarray, H: np.ndarray, branch: int,
           by_log: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Every interval ``[L, H]`` of ``task`` split into at most ``branch`` children sharing their ends, each
    strictly narrower than its parent.  Any cuts are valid (every point stays in a child); they are chosen on
    grids common to all intervals, so that the searches of neighbouring budgets and the next level share
    their points (each distinct point is evaluated once per level):

    * evenly, with ``branch > 2`` (float64): at the multiples of the smallest power of two
      :math:`p \ge (H - L)/(\text{branch} - 1)` inside the interval (at least ``branch / 2`` children where
      :math:`H - L \ge \text{branch}`); with ``branch = 2`` (a precision, one search): at the midpoint;
    * with ``by_log``, where :math:`H + 1 \ge 2\,\text{branch}\,(L + 1)` (an interval over decades: a point
      near its low end is reached in fewer levels): evenly in :math:`\log(a + 1)`, each cut rounded down to
      its ``_LOG_CUT_BITS`` leading binary digits.  Progress: with 4 digits a cut loses at most 1/8 of its
      value, so the middle cut, :math:`\lfloor (L + 1)\sqrt{(H + 1)/(L + 1)}\rfloor - 1 \ge
      \lfloor 5.6 (L + 1)\rfloor - 1`, stays above :math:`L` (and below :math:`H`); with 1 digit it may not.
    """
    W = H - L
    if branch > 2:
        # p = 2^e, the smallest with W <= (branch - 1) p: at most branch - 1 multiples of p inside (L, H);
        # p <= W / 2 where W >= branch, so at least one (progress)
        e = np.zeros(len(W), dtype=np.int64)
        big = W > branch - 1
        e[big] = np.ceil(np.log2(W[big] / (branch - 1.0))).astype(np.int64)
        e[big & (W > (branch - 1.0) * np.exp2(e))] += 1  # log2 rounded down
        p = np.left_shift(np.int64(1), e)
        first = (L // p + 1) * p  # no int64 overflow: first + (branch - 2) p < L + 2 W <= 3 * 2**62
        inner = first[:, None] + p[:, None] * np.arange(branch - 1)[None, :]
        cuts = np.concatenate([L[:, None], np.minimum(inner, H[:, None]), H[:, None]], axis=1)
    else:
        cuts = np.stack([L, L + W // 2, H], axis=1)
    # in floats: 2 branch (L + 1) overflows int64 near 2**62; a ratio >= 2 branch leaves cuts inside the interval
    wide = np.flatnonzero(H + 1.0 >= 2.0 * branch * (L + 1.0)) if by_log else np.zeros(0, dtype=np.int64)
    if wide.size:
        lo, hi = L[wide].astype(float) + 1, H[wide].astype(float) + 1
        k = np.minimum(np.arange(cuts.shape[1]), branch)[None, :]
        geo = np.floor(lo[:, None] * np.exp(np.log(hi / lo)[:, None] * (k / branch))) - 1
        geo = np.clip(geo, 0.0, float(2**62)).astype(np.int64)
        drop = np.maximum(np.floor(np.log2(geo + 1.0)).astype(np.int64) + 1 - _LOG_CUT_BITS, 0)
        geo = np.left_shift(np.right_shift(geo, drop), drop)  # its leading _LOG_CUT_BITS binary digits
        cuts[wide] = np.maximum.accumulate(np.clip(geo, L[wide, None], H[wide, None]), axis=1)
        cuts[wide, 0], cuts[wide, -1] = L[wide], H[wide]
    cl, ch = cuts[:, :-1].ravel(), cuts[:, 1:].ravel()
    ct = np.repeat(task, cuts.shape[1] - 1)
    ok = ch > cl
    return ct[ok], cl[ok], ch[ok]


def _lower_many(law: SizeLaw, x: np.ndarray, c: Constants) -> tuple[np.ndarray, list[float]]:
    """Float64 eq. (10) for an array of ``x``: (log values, argmax); a whole scan for light laws."""
    return _lower_rows((law,), np.zeros(len(x), dtype=np.intp), x, c)


def _lower_rows(laws: Sequence[SizeLaw], lid: np.ndarray, x: np.ndarray, c: Constants) -> tuple[np.ndarray, list[float]]:
    """Float64 eq. (10) at ``x[i]`` for the law ``laws[lid[i]]``: (log values, argmax).

    A light law's budgets are scanned (:func:`bounds.dame._scan.lower`); the rest of every law are searched
    together (:class:`bounds.dame._rows.Rows`: each law's values are those of its own search)."""
    x = np.asarray(x, dtype=float)
    lid = np.asarray(lid, dtype=np.intp)
    best = np.empty(len(x))
    args = np.zeros(len(x), dtype=object)  # ints (exact past 2**53) or inf
    if len(laws) > 1 and len(x) > MAX_ROWS:  # bounded work and memory: groups of whole laws
        for group in batches(lid, len(laws)):
            rows = np.flatnonzero((lid >= group[0]) & (lid <= group[-1]))
            best[rows], found = _lower_rows([laws[j] for j in group], lid[rows] - group[0], x[rows], c)
            for k, v in zip(rows, found):  # one by one: an array of ints and inf would be float64
                args[k] = v
        return best, [math.inf if a == math.inf else int(a) for a in args]
    searched = []
    for j, law in enumerate(laws):
        rows = np.flatnonzero(lid == j) if len(laws) > 1 else np.arange(len(x))
        pre = _scan.prefix(law)
        if pre is None or (len(rows) * (pre.K + 1) > _scan.SCAN_CELLS and not pre.cut):  # many budgets: a search
            searched.append(rows)  # on the arrays
            continue
        # a cut prefix is scanned in batches at any number of budgets: a map's cells as the law's points
        step = max(1, _scan.SCAN_CELLS // (pre.K + 1))
        for at in range(0, len(rows), step):
            part = rows[at : at + step]
            best[part], scanned, decided = _scan.lower(law, pre, x[part], c.floats, LB_TIE_RTOL)
            args[part] = [int(v) for v in scanned]  # a <= K <= SCAN_POINTS: exact in float64
            searched.append(part[~decided])
    rest = np.concatenate(searched) if searched else np.zeros(0, dtype=np.intp)
    if rest.size:
        used, local = np.unique(lid[rest], return_inverse=True)
        views = tuple(_scan.window(laws[j]) for j in used)
        b_rest, a_rest = _lb_search(Rows(views, local), x[rest], c.floats, None)
        best[rest] = np.asarray(b_rest, dtype=float)
        for k, v in zip(rest, a_rest):
            args[k] = v
    return best, [math.inf if a == math.inf else int(a) for a in args]


def _lower_mp(law: SizeLaw, priv: PrivacyBudget, c: Constants, precision: int) -> tuple[Any, Any]:
    with mpmath.workdps(precision):
        best, arg = _lb_search(Rows((law,), np.zeros(1), precision), [priv.exact()], c.values(precision), precision)
        return best[0], arg[0]


@warn_once_per_call
def lower_bound(
    sizes: SizeLaw, *, n: int | None = None, alpha: float | None = None,
    n_alpha2: float | None = None, constants: Constants | str = "paper",
    precision: int | None = None
) -> LowerBound:
    r"""Theorem 1: lower bound on the worst-case risk :math:`R_{\alpha,n,M}`.

    .. math::

        R_{\alpha,n,M} \ge \max_{a \in \mathbb{N}}
        \frac{c_1 \exp\!\big(-c_2\, n\alpha^2\, P(m > a)^2\big)}
             {\big(n\alpha^2\, E[\sqrt m\,\mathbb 1\{m \le a\}]^2\big) \vee 1}

    Source: Pla et al. (2024), eq. (10); paper constants from (S31):
    :math:`c_1 = e^{-9}/16`, :math:`c_2 = 24`.  Both :math:`P(m>a)` and the
    truncated moment are step functions of ``a`` changing only at support points,
    so the maximum is taken exactly over :math:`\{0\} \cup \mathrm{supp}(M)`, found
    by a proven branch and bound on its two monotone factors (see ``_lb_search``: O(log N)
    evaluations, no enumeration); for an
    infinite support the limit :math:`a \to \infty` is a candidate too (past the search's end the terms rise to
    it): it is the maximum where :math:`n\alpha^2 S(a)^2 < 1` at every :math:`a`, and at budgets where
    :math:`c_2 n\alpha^2 P(m > a)^2` still counts past that end (about :math:`10^{30}` and beyond for
    ``poisson(5)``).
    **Tie rule**: ``argmax`` is the smallest :math:`a` whose term is within a relative
    ``1e-9`` (``LB_TIE_RTOL``) of the maximum, in float64 and at any precision alike, so both
    paths report the same ``argmax`` where eq. (10) is flat to within rounding.  Where the maximum is the limit,
    not attained, the terms tend to it and the rule still names a finite ``a`` (searched past the search's end
    where need be); ``argmax = inf`` only where none is found up to :math:`2^{62}`.  ``value`` is the maximum, the
    limit included.

    Parameters
    ----------
    sizes : SizeLaw
        The law :math:`M` of the dataset size (``bounds.sizes``).
    n, alpha : int, float, optional
        Number of users and the LDP level; or give ``n_alpha2`` instead.
    n_alpha2 : float, optional
        :math:`n\alpha^2`.
    constants : {"paper", "unit"} or Constants
    precision : int, optional
        mpmath digits; ``None`` for float64.

    Returns
    -------
    LowerBound

    Examples
    --------
    >>> from bounds import sizes
    >>> lb = lower_bound(sizes.point(100), n_alpha2=10.0, constants="unit")
    >>> lb.argmax, round(lb.value, 12)  # max(e^-10, 1/(10·100)) at a = 100
    (100, 0.001)
    """
    law = _law(sizes)
    priv = privacy_budget(n, alpha, n_alpha2)
    c = Constants.resolve(constants)
    precision = check_precision(precision)
    one: tuple[float, int] | None = None
    logv: Any
    arg: Any
    if precision is None and (pre := _scan.prefix(law)) is not None:  # a light law: its scan at this budget alone
        one = _scan.lower_one(law, pre, priv.n_alpha2, c.floats, LB_TIE_RTOL)
    if one is not None:
        logv, arg = one
        value = math.exp(logv) if logv > _LOG_UNDERFLOW else 0.0
    elif precision is None:
        logs, args = _lower_many(law, np.array([priv.n_alpha2]), c)
        logv, arg = float(logs[0]), args[0]
        value = math.exp(logv) if logv > _LOG_UNDERFLOW else 0.0
    else:
        logv, arg = _lower_mp(law, priv, c, precision)
        with mpmath.workdps(precision):
            value = mpmath.exp(logv)
    return _result(LowerBound, value=value, log_value=logv, sizes=law, n_alpha2=priv.n_alpha2, n=priv.n,
                   alpha=priv.alpha, constants=c, precision=precision, argmax=arg)
