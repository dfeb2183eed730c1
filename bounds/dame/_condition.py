r"""DAME's Theorem 2 at one budget: the condition of eq. (12) and :math:`\tilde m` where a law is read once.

:func:`_condition` decides :math:`P(m \ge a)^2 \ge \varphi(a) \wedge 1` on arrays (float64 or mpmath);
:func:`_m_tilde_one` and :func:`_m_tilde_few` find :math:`\tilde m` at one float64 budget by bisection on what a
light law's scan prefix or a finite law's few support points give, with the decisions of the searches
(:func:`_holds_one`: 60 digits near a tie).

Source: Pla et al. (2024), Theorem 2, eq. (12), constants (S146).
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from .._lazy import lazy
from ..numerics import backend
from ..sizes import MAX_SIZE, SizeLaw
from . import _scan
from ._constants import Constants
from ._inputs import _TIE, _TIE_DPS

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # the float path never imports it


def _log_phi(a: Any, logx: Any, c_vals: tuple[Any, ...], precision: int | None) -> np.ndarray:
    r"""log φ(a) of Theorem 2 (``+inf`` where :math:`\log y \le 0`)."""
    be = backend(precision)
    c4, c5 = c_vals[3], c_vals[4]
    ly = be.log(c4) + np.maximum(be.log(a) + logx, 0)
    safe = np.where(ly > 0, ly, 1)
    out = be.log(c5) - logx + be.log(safe - be.log(safe))
    return np.where(ly > 0, out, np.inf)


def _condition(
    law: SizeLaw | None, a: Any, logx: Any, c_vals: tuple[Any, ...], precision: int | None, capped: bool = True,
    lp: Any = None, support_min: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Theorem 2's condition :math:`P(m \ge a)^2 \ge \varphi(a) \wedge 1` and its margin.

    Where :math:`\varphi(a) \ge 1` the condition is :math:`P(m \ge a) = 1`, decided exactly as ``a <= min supp(M)``;
    ``capped=False`` drops the ``∧ 1`` (the proof's reading, ``docs/choices.md`` §1.2): there it holds only at
    :math:`\varphi(a) = 1`.  Returns ``(holds, margin)``; ``margin`` is the log-space distance to the decision
    boundary (small ⇒ re-decide at higher precision).  ``lp``: :math:`\log P(m \ge a)` when the caller has it (a
    scan's prefix), else read from the law; ``support_min`` likewise (both given: ``law`` is not read).
    """
    lphi = _log_phi(a, logx, c_vals, precision)
    big = lphi >= 0
    if lp is None or support_min is None:
        assert law is not None, "the law is read where its values are not given"
        lp = law.log_prob_ge(a, precision=precision) if lp is None else lp
        support_min = law.support_min if support_min is None else support_min
    safe_phi = np.where(big, 0, lphi)
    d = 2 * lp - safe_phi
    holds = np.where(big, (a <= support_min) & (capped | (lphi <= 0)), d >= 0)
    margin = np.where(big, np.abs(lphi), np.minimum(np.abs(d), np.abs(lphi)))
    return holds.astype(bool), margin


class _Budgets:
    """The budgets :math:`x` in mpmath, each made at ``_TIE_DPS`` digits when a tie needs it (the float
    path never builds one otherwise, nor imports mpmath for it): ``make(i)`` gives the ``i``-th."""

    def __init__(self, make: Callable[[int], Any]) -> None:
        self._make = make

    def __getitem__(self, i: int) -> Any:
        with mpmath.workdps(_TIE_DPS):
            return self._make(int(i))

    def take(self, idx: np.ndarray) -> "_Budgets":
        """The budgets ``idx`` as a sequence of their own (its ``k``-th is this one's ``idx[k]``-th)."""
        return _Budgets(lambda k: self._make(int(idx[k])))


def _budgets_of(x: np.ndarray) -> _Budgets:
    """The float budgets ``x`` (exact in mpmath), made when a tie needs them."""
    return _Budgets(lambda i: mpmath.mpf(x[i]))


def _m_tilde_one(law: SizeLaw, x: float, x_exact: _Budgets, c: Constants, capped: bool) -> int | None:
    r""":func:`_m_tilde_rows` for one budget of a law with a :func:`~bounds.dame._scan.prefix` whose bracket
    :math:`[1, h]` it holds (``None`` otherwise): the same bracket (Markov's bound, the cut past a table), the same
    decisions (:func:`_condition_float` on the prefix's :math:`\log P(m \ge a)`), the largest ``a`` where the
    condition holds (``c4 >= e``: region B is all of :math:`a \ge 1`, where ψ is non-increasing).

    .. math:: \tilde m = \max\{a \in [1, h] : P(m \ge a)^2 \ge \varphi(a) \wedge 1\} \quad (1 \text{ if none})
    """
    one = _one_of(law)
    if one is None:
        return None
    pre, mean, top, end, log_gt_end = one
    c5 = c.floats[4]
    markov = mean * math.sqrt(max(x / c5, 1.0)) * (1 + 1e-9)
    hi = math.floor(markov) + 2 if markov < 2.0**62 else MAX_SIZE  # inf where x is near the float range
    if top is not None:
        hi = min(hi, top)
    if end >= 0 and 2 * log_gt_end < min(math.log(c5) - math.log(x), 0.0):
        hi = min(hi, end + 1)
    hi = max(hi, 1)
    if hi > pre.K + 1 or hi > _scan.PAIR_CELLS:
        return None
    return _last_holding(_holds_one(law, pre.log_ge.item, x, x_exact, c, capped), hi)


_ONE: "weakref.WeakKeyDictionary[SizeLaw, tuple[_scan.Prefix, float, int | None, int, float] | None]"
_ONE = weakref.WeakKeyDictionary()


def _one_of(law: SizeLaw) -> tuple[_scan.Prefix, float, int | None, int, float] | None:
    """What :func:`_m_tilde_one` reads of a law, once per law: its prefix, ``E[m]`` (float64), its largest support
    point (``None``: infinite) and :func:`_table_end`; ``None`` without a prefix."""
    try:
        return _ONE[law]
    except KeyError:
        pre = _scan.prefix(law)
        out = _ONE[law] = None if pre is None else (
            pre, float(law.mean()), int(law.support_max) if law.is_finite else None, *_table_end(law))
        return out


FEW_POINTS = 64
"""Most support points of a finite law whose :math:`\tilde m` at one budget is bisected on its steps
(:func:`_m_tilde_few`)."""


def _m_tilde_few(law: SizeLaw, x: float, x_exact: _Budgets, c: Constants, capped: bool) -> int | None:
    r""":func:`_m_tilde_rows` for one budget of a finite law on at most ``FEW_POINTS`` support points (``None``
    otherwise), ``c4 >= e``: :math:`P(m \ge a)` is a step function, constant on each :math:`(s_{i-1}, s_i]` between
    consecutive support points (:math:`s_0 = 0`), so the law is asked once, at its support points, and the
    condition is bisected on :math:`[1, h]` (the searches' bracket: Markov's bound, capped at the largest support
    point) with the same decisions (:func:`_holds_one`, re-decided at 60 digits near a tie).

    .. math:: \tilde m = \max\{a \in [1, h] : P(m \ge s_{i(a)})^2 \ge \varphi(a) \wedge 1\},\quad
              s_{i(a)} = \min\{s \in \mathrm{supp}\,M : s \ge a\}

    Source: Pla et al. (2024), Theorem 2, eq. (12).
    """
    if not law.is_finite or int(law.support_max) > MAX_SIZE:
        return None
    points = law.support_points()  # a table's points: a wide law's (binomial(10**9, 1e-9)) end with its cut
    if len(points) > FEW_POINTS or int(points[0]) != law.support_min or int(points[-1]) != int(law.support_max):
        return None
    steps = np.asarray(points, dtype=np.int64)
    log_ge = np.asarray(law.log_prob_ge(steps), dtype=float)  # the law's own values, one per step
    c5 = c.floats[4]
    markov = float(law.mean()) * math.sqrt(max(x / c5, 1.0)) * (1 + 1e-9)
    hi = math.floor(markov) + 2 if markov < 2.0**62 else MAX_SIZE
    hi = max(min(hi, int(law.support_max)), 1)

    def log_ge_at(a: int) -> float:  # a <= hi <= the largest support point: its step is s_i >= a
        return float(log_ge[int(np.searchsorted(steps, a, side="left"))])

    return _last_holding(_holds_one(law, log_ge_at, x, x_exact, c, capped), hi)


def _last_holding(holds: Callable[[int], bool], hi: int) -> int:
    """The last ``a`` in ``[1, hi]`` where ``holds`` (true, then false: ψ non-increasing in region B), ``1`` where
    it fails at ``1`` (no ``a`` qualifies); a bisection, as :func:`bounds.dame._search.last_true`."""
    if not holds(1):
        return 1  # none holds: m~ = 1
    lo = 1  # the condition holds at lo; the answer lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if holds(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _holds_one(law: SizeLaw, log_ge_at: Callable[[int], float], x: float, x_exact: _Budgets, c: Constants,
               capped: bool) -> Callable[[int], bool]:
    r"""Theorem 2's condition :math:`P(m \ge a)^2 \ge \varphi(a) \wedge 1` at one ``a`` and one budget, in Python
    floats on :math:`\log P(m \ge a)` read by ``log_ge_at`` (:func:`_condition`'s expressions, ``c4 >= e``),
    re-decided at 60 digits within ``_TIE`` of a tie as :func:`_condition_float` does: each decision is the exact
    one, so a bisection finds the :math:`\tilde m` of a whole scan.

    .. math:: \varphi(a) = \frac{c_5}{x}\log\frac{y}{\log y},\quad y = c_4\,(a x \vee 1)
    """
    _, _, _, c4, c5 = c.floats
    lx = math.log(x)
    log_c4, close = math.log(c4), _TIE * (1 + abs(lx))
    base = math.log(c5) - lx  # log c5 - log x, the first addition of log φ (the same double at every a)
    smin = law.support_min

    def holds(a: int) -> bool:
        t = math.log(a) + lx
        ly = log_c4 + (0.0 if t < 0.0 else t)  # max(t, 0.0); > 0: c4 >= e
        lphi = base + math.log(ly - math.log(ly))
        if lphi >= 0:
            if not abs(lphi) < close:  # the margin: away from a tie
                return bool(a <= smin and (capped or lphi <= 0))
        else:
            d = 2 * log_ge_at(a) - lphi
            if not min(abs(d), abs(lphi)) < close:
                return bool(d >= 0)
        with mpmath.workdps(_TIE_DPS):  # within rounding of a tie: 60 digits decide
            h, _ = _condition(law, np.array([a], dtype=np.int64), mpmath.log(x_exact[0]), c.values(_TIE_DPS),
                              _TIE_DPS, capped)
        return bool(h[0])

    return holds


def _table_end(law: SizeLaw) -> tuple[int, float]:
    """A tabulated law with an infinite support: its search end and log P(m > end); a law with a cut prefix
    (:func:`bounds.dame._scan.prefix`): the cut and log P(m > cut); else ``(-1, 0)``."""
    if law.is_finite:
        return -1, 0.0
    if not law.tabulated:
        pre = _scan.prefix(law)
        return (pre.K, float(pre.log_gt[pre.K])) if pre is not None and pre.cut else (-1, 0.0)
    end = law.search_end()
    pre = _scan.prefix(law)
    return end, float(pre.log_gt[pre.K]) if pre is not None else float(law.log_prob_gt(end))
