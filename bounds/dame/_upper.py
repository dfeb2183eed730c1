r"""DAME's Theorem 2: the effective size :math:`\tilde m` (eq. (12)), the upper bound (eq. (11)) and
the clipping threshold :math:`\tau` (eq. (4)).

Source: Pla et al. (2024), Theorem 2, eqs. (11)–(12), constants (S146), eq. (4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence, cast

import numpy as np
from numpy.typing import ArrayLike

from .._lazy import lazy
from ..numerics import (
    backend,
    last_true,
    check_choice,
    check_integer,
    check_precision,
    warn_assumption,
    warn_once_per_call,
    workdps,
)
from ..sizes import MAX_SIZE, SizeLaw
from . import _scan, _search
from ._constants import Constants, _log_floats
from ._rows import MAX_ROWS, Rows, batches
from ._inputs import _TIE, _TIE_DPS, MAX_POINTS, Bound, PrivacyBudget, _law, _result, privacy_budget
from ._condition import _Budgets, _condition, _log_phi, _m_tilde_few, _m_tilde_one, _table_end

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # the float path never imports it


_MAX_SCAN = 10**7  # longest window of a where φ is not monotone that is scanned point by point
_LOG4 = float(backend(None).log(4))  # log 4, the cap of eq. (11), as the float backend computes it


@dataclass(frozen=True)
class UpperBound(Bound):
    r"""Theorem 2's bound, with the effective size ``m_tilde`` and ``capped`` (the ``∧ 4`` is active)."""

    m_tilde: int
    capped: bool


def log_phi(
    a: ArrayLike, *, n_alpha2: float, constants: "Constants | str" = "paper",
    precision: int | None = None
) -> np.ndarray:
    r"""The logarithm of Theorem 2's threshold :math:`\varphi(a)` (``+inf`` where :math:`\log y \le 0`).

    :math:`\tilde m` is the largest ``a`` with :math:`P(m \ge a)^2 \ge \varphi(a) \wedge 1`, where

    .. math:: \varphi(a) = \frac{c_5}{x}\big(\log y - \log\log y\big),\qquad y = c_4\,(a x \vee 1),\quad x = n\alpha^2.

    Source: Pla et al. (2024), Theorem 2, eq. (12), constants (S146).

    Examples
    --------
    >>> import math
    >>> y = 8 * 100 * 1e4
    >>> bool(np.isclose(log_phi(100, n_alpha2=1e4), math.log(868.5 / 1e4 * (math.log(y) - math.log(math.log(y))))))
    True
    """
    if np.size(a) > MAX_POINTS:  # before any copy or comparison (a broadcast view is free to pass)
        raise ValueError(f"a must hold at most {MAX_POINTS} values (dame.MAX_POINTS, the work limit of one call), "
                         f"got {np.size(a)}")
    arr = np.asarray(a)
    if (arr.size == 0 or arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer) or np.any(arr < 1)
            or np.any(arr > MAX_SIZE)):
        raise ValueError(f"a must be a positive integer <= 2**62 or a non-empty array of them, got {a!r}")
    precision = check_precision(precision)
    x = privacy_budget(n_alpha2=n_alpha2).n_alpha2
    c = Constants.resolve(constants)
    with workdps(precision):
        lx = mpmath.log(mpmath.mpf(x)) if precision is not None else math.log(x)
        return _log_phi(arr.astype(np.int64), lx, c.floats if precision is None else c.values(precision), precision)


def _condition_float(rows: Rows, idx: np.ndarray, a: ArrayLike, x_float: np.ndarray, x_exact: _Budgets,
                     c: Constants, capped: bool = True, lp: Any = None) -> np.ndarray:
    """Float64 decision with an mpmath re-decision where it is within rounding of a tie: ``a[j]`` is decided for
    the law of row ``idx[j]`` at its budget ``x_float[j]`` (exactly: ``x_exact[idx[j]]``)."""
    a = np.asarray(a, dtype=np.int64)
    if lp is None:
        lp = rows.call("log_prob_ge", idx, a, precision=None)
    smin = rows.laws[0].support_min if len(rows.laws) == 1 else rows.of(lambda law: law.support_min, idx)
    with np.errstate(over="ignore"):
        holds, margin = _condition(None, a, np.log(x_float), c.floats, None, capped, lp, smin)
    holds = np.array(holds, dtype=bool)
    close = np.asarray(margin, dtype=float) < _TIE * (1 + np.abs(np.log(x_float)))
    for i in np.flatnonzero(close):
        law = rows.laws[rows.lid[idx[i]]]
        with mpmath.workdps(_TIE_DPS):
            h, _ = _condition(law, a[i : i + 1], mpmath.log(x_exact[idx[i]]), c.values(_TIE_DPS), _TIE_DPS, capped)
        holds[i] = bool(h[0])
    return holds


def _m_tilde_many(law: SizeLaw, x: np.ndarray, x_exact: _Budgets, c: Constants, reading: str = "printed") -> np.ndarray:
    r"""Exact :math:`\tilde m` for each ``x`` (see :func:`m_tilde`); ``1`` where no ``a`` qualifies."""
    return _m_tilde_rows((law,), np.zeros(len(x), dtype=np.intp), x, x_exact, c, reading)


def _m_tilde_rows(laws: Sequence[SizeLaw], lid: np.ndarray, x: np.ndarray, x_exact: _Budgets, c: Constants,
                  reading: str = "printed") -> np.ndarray:
    r"""Exact :math:`\tilde m` at ``x[i]`` for the law ``laws[lid[i]]`` (see :func:`m_tilde`); ``1`` where no
    ``a`` qualifies.  A light law's brackets are scanned; the other laws are searched together
    (:class:`bounds.dame._rows.Rows`: each law asked for the points of its own search)."""
    capped = reading == "printed"
    c1, c2, c3, c4, c5 = c.floats
    e = math.e
    x = np.asarray(x, dtype=float)
    lid = np.asarray(lid, dtype=np.intp)
    if len(laws) > 1 and len(x) > MAX_ROWS:  # bounded work and memory: groups of whole laws
        out = np.empty(len(x), dtype=np.int64)
        for group in batches(lid, len(laws)):
            rows = np.flatnonzero((lid >= group[0]) & (lid <= group[-1]))
            out[rows] = _m_tilde_rows([laws[j] for j in group], lid[rows] - group[0], x[rows], x_exact.take(rows),
                                      c, reading)
        return out
    if len(x) == 1 and len(laws) == 1 and c4 >= e:  # one budget of a light law: its bracket scanned directly
        direct = _m_tilde_one(laws[0], float(x[0]), x_exact, c, capped)
        if direct is None:
            direct = _m_tilde_few(laws[0], float(x[0]), x_exact, c, capped)
        if direct is not None:
            return np.array([direct], dtype=np.int64)
    every = Rows(laws, lid)
    # region B: y = c4 (a x ∨ 1) >= e, where φ is increasing and ψ non-increasing
    if c4 >= e:
        a_b = np.ones(len(x), dtype=np.int64)
    else:
        with np.errstate(over="ignore"):
            a_b = np.maximum(1, np.ceil(e / (c4 * x))).astype(float)
        if np.any(a_b > MAX_SIZE):
            raise ValueError("n_alpha2 is too small for the constants: the search range overflows")
        a_b = a_b.astype(np.int64)
    # in B, φ >= c5/x, and Markov gives P(m >= a) <= E[m]/a: the condition fails beyond hi
    mean = every.each(lambda law: float(law.mean()))
    # rounded upwards: E[m] in float64 may sit below the true mean (point(2**53 + 1) has the float mean 2**53),
    # and floor(.) + 1 rounds to even past 2**53; 1e-9 covers both (a larger bracket costs a probe, not a value)
    with np.errstate(over="ignore"):  # past the float range the bracket is +inf, capped below at the sizes' range
        hi = np.floor(mean * np.sqrt(np.maximum(x / c5, 1.0)) * (1 + 1e-9)) + 2
    hi = _search.int_min(hi, every.each(lambda law: int(law.support_max) if law.is_finite else MAX_SIZE))  # exact
    # past a table, P(m >= a) <= P(m > end); in B the condition needs P(m >= a)^2 >= c5/x ∧ 1
    ends = [_table_end(law) for law in laws]
    if any(t[0] >= 0 for t in ends):
        end = np.array([t[0] for t in ends], dtype=np.int64)[lid]
        log_gt_end = np.array([t[1] for t in ends])[lid]
        beyond_fails = (end >= 0) & (2 * log_gt_end < np.minimum(math.log(c5) - np.log(x), 0.0))
        hi = np.where(beyond_fails, np.minimum(hi, end + 1), hi)
    hi = np.maximum(hi, a_b)
    out = np.empty(len(x), dtype=np.int64)
    in_b = np.zeros(len(x), dtype=bool)
    searched, asked = [], list(laws)  # asked[j]: the law itself (scanned) or its window (searched)
    for j, law in enumerate(laws):
        r = np.flatnonzero(lid == j) if len(laws) > 1 else np.arange(len(x))
        pre = _scan.prefix(law)
        pairs = _scan.condition_scan(pre, a_b[r], hi[r]) if pre is not None else None
        if pairs is None:
            searched.append(r)
            asked[j] = _scan.window(law)  # the searches read the functionals of a prefix or a window by index
            continue
        # short brackets of a light law: every a of them at once (the prefix's P(m >= a))
        rows, a, lp = pairs
        one = every if len(laws) == 1 else Rows((law,), np.zeros(len(r)))
        ok = _condition_float(one, rows, a, x[r][rows], x_exact.take(r), c, capped, lp)
        in_b[r] = ok[np.searchsorted(rows, np.arange(len(r)))]  # each row's first pair is a = a_b
        found = a_b[r].copy()  # ψ non-increasing in B: the largest a where the condition holds is the last
        np.maximum.at(found, rows[ok], a[ok])
        out[r[in_b[r]]] = found[in_b[r]]
    rest = np.concatenate(searched) if searched else np.zeros(0, dtype=np.intp)
    if rest.size:
        used, local = np.unique(lid[rest], return_inverse=True)
        sub, xs, xe = Rows(tuple(asked[j] for j in used), local), x[rest], x_exact.take(rest)

        def cond(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
            return _condition_float(sub, idx, a, xs[idx], xe, c, capped)

        b_sub = cond(a_b[rest], np.arange(rest.size))
        in_b[rest] = b_sub
        inside = np.flatnonzero(b_sub)
        known = a_b[rest][inside]
        top = hi[rest][inside].copy()
        _m_tilde_below_window(sub, xs, xe, c, capped, inside, known, top)
        if inside.size:  # galloping from a_b, then 16-ary narrowing: about log16(m~) + 1 calls of the law
            out[rest[inside]] = _search.last_true(lambda a, k: cond(a, inside[k]), known, top)
    # region A = [1, a_b - 1] (only when c4 < e): φ >= c5/x there
    for i in np.flatnonzero(~in_b):
        law = asked[lid[i]]
        last = int(a_b[i]) - 1
        if math.log(c5) >= math.log(x[i]) or last < 1:  # φ >= 1 on A: the condition is P(m >= a) = 1
            out[i] = max(1, min(law.support_min, last)) if capped else 1
            continue
        if last > _MAX_SCAN:
            raise ValueError("the constants' non-monotone window for φ is too long to scan")
        a = np.arange(1, last + 1, dtype=np.int64)
        ok = _condition_float(Rows((law,), np.zeros(1)), np.zeros(last, dtype=np.intp), a, np.full(last, x[i]),
                              x_exact.take(np.array([i])), c, capped)
        out[i] = int(a[ok].max()) if ok.any() else 1
    return out


def _m_tilde_below_window(rows: Rows, x: np.ndarray, x_exact: _Budgets, c: Constants,
                          capped: bool, inside: np.ndarray, known: np.ndarray, top: np.ndarray) -> None:
    r"""Narrow the brackets ``[known, top]`` of :math:`\tilde m` in region B (ψ non-increasing: the condition
    holds on a prefix of each bracket; it holds at ``known``) around a window's first point
    :math:`w` = ``win.lo``, in place, without reading the law below the window (a walk per point).

    Where the condition holds at :math:`w`, the bracket starts there.  Where it fails,
    :math:`\tilde m < w`, and below the window :math:`P(m \ge w) \le P(m \ge a) \le 1`: the condition
    with the lower end :math:`P(m \ge w)` in place of :math:`P(m \ge a)` implies it (and is monotone
    too), so its last ``a`` (by bisection, at least ``known``) is a point where the condition holds;
    if the condition with :math:`P = 1` fails at the next point, the exact one does too and that
    ``a`` is :math:`\tilde m`.  Otherwise (a band of width :math:`P(m < w)`, about :math:`e^{-60}`)
    the row keeps its bracket below :math:`w` for the exact search.  Near a tie either decision is
    re-decided at 60 digits on the law itself (:func:`_condition_float`).
    """
    first = rows.of(lambda law: w.lo if (w := _scan.window_of(law)) is not None else -1, inside)
    sel = np.flatnonzero((first >= 0) & (known < first) & (top >= first))
    if not sel.size:
        return

    def holds(a: np.ndarray, at: np.ndarray, lp: Any = None) -> np.ndarray:
        idx = inside[at]
        return _condition_float(rows, idx, a, x[idx], x_exact, c, capped,
                                None if lp is None else np.broadcast_to(lp, np.shape(a)))

    ok = holds(first[sel], sel)
    known[sel[ok]] = first[sel[ok]]
    fail = sel[~ok]
    if not fail.size:
        return
    top[fail] = first[fail] - 1
    lo_fail = known[fail].copy()
    log_ge_w = rows.of(lambda law: float(cast(_scan.Prefix, _scan.window_of(law)).log_ge[0]), inside[fail])  # P(m >= w)
    guess = np.maximum(last_true(lambda a: holds(a, fail, log_ge_w), lo_fail, top[fail]), lo_fail)
    done = ~holds(guess + 1, fail, 0.0)
    known[fail[done]] = top[fail[done]] = guess[done]


@warn_once_per_call
def m_tilde(
    sizes: SizeLaw, *, n: int | None = None, alpha: float | None = None,
    n_alpha2: float | None = None, constants: Constants | str = "paper", reading: str = "printed"
) -> int:
    r"""Theorem 2's effective dataset size :math:`\tilde m`, exactly.

    .. math::

        \varphi(a) = \frac{c_5}{n\alpha^2}\log\frac{y}{\log y},\quad y = c_4\,(a\,n\alpha^2 \vee 1),
        \qquad \tilde m = \max\{a \in \mathbb N^* : P(m \ge a)^2 \ge \varphi(a) \wedge 1\}

    Source: Pla et al. (2024), Theorem 2 and eq. (12); paper constants
    :math:`c_4 = 8`, :math:`c_5 = 868.5 = 579 \cdot 3/2` (S146).

    Search.  Where :math:`y \ge e`, :math:`y/\log y` increases, so
    :math:`\psi(a) = P(m \ge a)^2 - \varphi(a) \wedge 1` is non-increasing and a search over
    the integers is exact (galloping, then narrowing: 15 probes a call of the law); it is
    bracketed by Markov's inequality
    (:math:`\varphi \ge c_5/(n\alpha^2)` there, so :math:`a \le E[m]\sqrt{(n\alpha^2/c_5) \vee 1}`).
    With :math:`c_4 < e` (e.g. ``"unit"``) the window :math:`y < e` is handled
    explicitly: :math:`\varphi = +\infty` where :math:`\log y \le 0`, :math:`\varphi > c_5/(n\alpha^2)`
    where :math:`1 < y < e` (non-monotone); it is scanned.  Where
    :math:`\varphi \ge 1` the condition is :math:`P(m \ge a) = 1`, decided exactly
    (``a <= min supp M``); float comparisons within ``1e-9`` of a tie are re-decided
    in mpmath at 60 digits.  :math:`a = 1` always qualifies, so :math:`\tilde m \ge 1`.  **Limit**: sizes live
    in :math:`1..2^{62}` (``bounds.sizes.MAX_SIZE``), and so does the search: where the condition still holds at
    :math:`2^{62}` (a heavy or very wide tail at a budget near the float range, such as ``zipf(3.0)`` at
    :math:`n\alpha^2 = 10^{100}`, whose :math:`\tilde m` is about :math:`2.9\cdot 10^{23}`), the value returned is
    :math:`2^{62}`, below the true :math:`\tilde m`, and :func:`upper_bound` is eq. (11) at it.

    ``reading="proof"`` drops the ``∧ 1``: :math:`\tilde m = \max(\{1\} \cup \{a : P(m \ge a)^2 \ge \varphi(a)\})`,
    the condition the proof's step before (S146) uses; with the printed ``∧ 1`` Theorem 2's bound
    can fall below Theorem 1's (``docs/choices.md`` §1.2, audit check ``dame.ub_ge_lb``).

    Examples
    --------
    >>> from bounds import sizes
    >>> m_tilde(sizes.point(50), n_alpha2=1e6)
    50
    >>> m_tilde(sizes.poisson(5), n_alpha2=500)  # paper constants: φ(a) > 1
    1
    >>> m_tilde(sizes.point(10**12), n_alpha2=0.01), m_tilde(sizes.point(10**12), n_alpha2=0.01, reading="proof")
    (1000000000000, 1)
    """
    return _m_tilde_point(_law(sizes), privacy_budget(n, alpha, n_alpha2), Constants.resolve(constants),
                          _reading(reading))


_READINGS = ("printed", "proof")


def _reading(reading: str) -> str:
    return check_choice("reading", reading, _READINGS)


def _m_tilde_point(law: SizeLaw, priv: PrivacyBudget, c: Constants, reading: str = "printed") -> int:
    return int(_m_tilde_many(law, np.array([priv.n_alpha2]), _Budgets(lambda i: priv.exact()), c, reading)[0])


def _log_upper(
    law: SizeLaw, m: int | np.ndarray, x: Any, c_vals: tuple[Any, ...], precision: int | None
) -> tuple[Any, Any, Any]:
    """log of eq. (11) before the cap, and the log-factor L = ln(c4 (√(m x) ∨ 1))."""
    c3, c4 = c_vals[2], c_vals[3]
    if (precision is None and isinstance(m, (int, np.integer)) and (pre := _scan.prefix(law)) is not None
            and 1 <= m <= pre.K and x > 0):  # one m~ of a light law: the array path's operations on scalars
        # np.log's doubles as Python floats (the same arithmetic); m <= K <= 4096: float(m) is m (np.log's float loop)
        _, _, lc3, lc4, _ = _log_floats(c_vals, plain=True)
        lx = float(np.log(x))
        lf = lc4 + max(0.5 * (float(np.log(float(m))) + lx), 0.0)
        d = 0.0 if m == 1 else _scan.log_sqrt_min(pre, int(m))
        return lc3 + float(np.log(lf if lf > 0 else 1)) - lx - 2 * d, lf, d
    be = backend(precision)
    logx = be.log(x)
    lfac = be.log(c4) + np.maximum(0.5 * (be.log(m) + logx), 0)
    one = np.asarray(m) == 1  # E[sqrt(m ∧ 1)] = 1 exactly: log 0, no sum over the law (a map's cells as a point's)
    if np.all(one):
        ld = np.zeros(np.shape(m)) if precision is None else np.full(np.shape(m), mpmath.mpf(0), dtype=object)
    elif precision is None and np.ndim(m) == 0 and (pre := _scan.prefix(law)) is not None and 1 <= m <= pre.K:
        ld = np.asarray(_scan.log_sqrt_min(pre, int(m)))  # the law's own formula on its prefix
    elif (precision is None and (pre := _scan.prefix(law)) is not None
          and bool(np.all((np.asarray(m) >= 1) & (np.asarray(m) <= pre.K)))):
        # a curve's m~ on the prefix: each the point's double (the scalar formula, element by element)
        each = [0.0 if int(v) == 1 else _scan.log_sqrt_min(pre, int(v)) for v in np.ravel(m)]
        ld = np.array(each).reshape(np.shape(m))
    else:
        ld = law.log_sqrt_min_mean(np.asarray(m, dtype=np.int64), precision=precision)
        if np.any(one):
            ld = np.where(one, 0.0, ld)
    safe = np.where(lfac > 0, lfac, 1)
    core = be.log(c3) + be.log(safe) - logx - 2 * ld
    return core, lfac, ld


def _upper_value(
    core: Any, lfac: Any, ld: Any, x: Any, c_vals: tuple[Any, ...], precision: int | None
) -> tuple[Any, Any, bool]:
    """(value, log_value, capped) of eq. (11) from its parts; handles ``L <= 0``."""
    if precision is None and lfac > 0:  # float64, positive: the path below without the backend's lookups
        capped = bool(core >= _LOG4)
        logv = _LOG4 if capped else core
        return float(np.exp(logv)), float(logv), capped
    be = backend(precision)
    log4 = be.log(4)
    if lfac > 0:
        capped = bool(core >= log4)
        logv = log4 if capped else core
        value = be.exp(logv)
        return (float(value) if precision is None else _scalar(value)), (float(logv) if precision is None else _scalar(logv)), capped
    warn_assumption("ln(c4·(√(m̃nα²) ∨ 1)) <= 0: the upper bound (11) is not positive for these constants")
    value = c_vals[2] * lfac / (x * be.exp(2 * ld))
    value = np.minimum(value, 4)
    return (float(value) if precision is None else _scalar(value)), -math.inf if precision is None else mpmath.ninf, False


def _scalar(v: Any) -> Any:
    return v[()] if isinstance(v, np.ndarray) else v


@warn_once_per_call
def upper_bound(
    sizes: SizeLaw, *, n: int | None = None, alpha: float | None = None,
    n_alpha2: float | None = None, constants: Constants | str = "paper",
    precision: int | None = None, reading: str = "printed"
) -> UpperBound:
    r"""Theorem 2: DAME's upper bound on the worst-case risk.

    .. math::

        R_{\alpha,n,M} \le \frac{c_3 \ln\!\big(c_4(\sqrt{\tilde m\, n\alpha^2} \vee 1)\big)}
                               {n\alpha^2\; E\big[\sqrt{m \wedge \tilde m}\big]^2} \wedge 4

    Source: Pla et al. (2024), eq. (11), :math:`\tilde m` from Theorem 2 /
    eq. (12) (see :func:`m_tilde`); paper constants :math:`c_3 = 1570 = 14^2\cdot 4\cdot 2 + 2`,
    :math:`c_4 = 8`, :math:`c_5 = 868.5` (S146).  **Canonical choice**: the denominator
    is :math:`E[\sqrt{m \wedge \tilde m}]` as in eq. (9) and (S34)/(S146); eq. (11) as
    printed reads :math:`E(\sqrt m \wedge \tilde m)` (``docs/choices.md`` §1.2).

    If :math:`\ln(c_4(\sqrt{\tilde m n\alpha^2} \vee 1)) \le 0` (possible only for
    :math:`c_4 \le 1`, e.g. ``"unit"`` with :math:`\tilde m n\alpha^2 \le 1`), the
    formula is not positive: its value is returned, ``log_value = -inf``, and a
    :class:`~bounds.numerics.PaperAssumptionWarning` is issued.  ``reading`` selects
    :math:`\tilde m` (see :func:`m_tilde`): ``"printed"`` (Theorem 2 as printed) or ``"proof"``.

    Examples
    --------
    >>> from bounds import sizes
    >>> ub = upper_bound(sizes.point(100), n_alpha2=1e4, constants="unit")
    >>> ub.m_tilde, round(ub.value * 1e6, 12)  # ln(1000) / (1e4 · 100) · 1e6
    (100, 6.907755278982)
    """
    law = _law(sizes)
    priv = privacy_budget(n, alpha, n_alpha2)
    c = Constants.resolve(constants)
    precision = check_precision(precision)
    capped = _reading(reading) == "printed"
    m = None
    if c.floats[3] >= math.e:  # one budget of a light law: its bracket bisected on the prefix (the same m~)
        m = _m_tilde_one(law, priv.n_alpha2, _Budgets(lambda i: priv.exact()), c, capped)
    if m is None:
        m = _m_tilde_point(law, priv, c, _reading(reading))
    if precision is None:
        x, cv = priv.n_alpha2, c.floats
        core, lfac, ld = _log_upper(law, m, x, cv, None)
        value, logv, capped = _upper_value(float(core), float(lfac), float(ld), x, cv, None)
    else:
        with mpmath.workdps(precision):
            x, cv = priv.exact(), c.values(precision)
            core, lfac, ld = _log_upper(law, m, x, cv, precision)
            value, logv, capped = _upper_value(_scalar(core), _scalar(lfac), _scalar(ld), x, cv, precision)
    return _result(UpperBound, value=value, log_value=logv, sizes=law, n_alpha2=priv.n_alpha2, n=priv.n,
                   alpha=priv.alpha, constants=c, precision=precision, m_tilde=m, capped=capped)


def tau(m_tilde: int, *, n: int | None = None, alpha: float | None = None, n_alpha2: float | None = None) -> float:
    r"""Half-width :math:`\tau` of DAME's localisation bins, eq. (4).

    .. math:: \tau = \sqrt{\frac{2\log\!\big(8(\sqrt{\tilde m\, n\alpha^2} \vee 1)\big)}{\tilde m}}

    Source: Pla et al. (2024), eq. (4) (Algorithm 1).

    Examples
    --------
    >>> round(tau(1, n_alpha2=0.5), 6)  # sqrt(2 ln 8)
    2.039334
    """
    m = check_integer("m_tilde", m_tilde, minimum=1, maximum=MAX_SIZE)
    x = privacy_budget(n, alpha, n_alpha2).n_alpha2
    return math.sqrt(2 * (math.log(8) + max(0.5 * (math.log(m) + math.log(x)), 0.0)) / m)
