r"""Inverse searches of ``bounds advise``: the smallest privacy level and number of users reaching a target.

All searches are exact: integer searches over the true law of the counts, the level grid of three
significant digits, or closed forms in rationals.  Values printed from them are rounded towards the
side that still meets the target (:func:`round_up`).  They run in :math:`O(J)` per evaluation for ``J``
distinct counts.
"""

from __future__ import annotations

import math
import numbers
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from numpy.typing import ArrayLike

from .. import dame
from ..numerics import check_integer, check_positive, format_value
from ..sizes import SizeLaw
from .inputs import Histogram

__all__ = ["level_grid", "smallest_integer", "smallest_level", "dame_smallest", "law_optimal_error",
           "rameshwar_smallest", "round_up", "round_down", "MAX_USERS", "LEVEL_DIGITS"]

LEVEL_DIGITS = 3  # the level grid: three significant digits
LEVEL_RANGE = (-4, 3)  # from 1.00e-4 up to 9.99e2
MAX_USERS = 10**12
"""The largest number of users the searches consider (and :func:`dame_smallest` accepts)."""
MAX_SEARCH = 2**1000  # range ends of smallest_integer: a gallop reaches them in at most 1000 steps


# =========================================================================== exact searches


def level_grid(j: int) -> Fraction:
    r"""The ``j``-th privacy level of the search grid: three significant digits, increasing in ``j``.

    .. math:: g_j = \frac{100 + (j \bmod 900)}{100}\,10^{\lfloor j/900 \rfloor - 4},\qquad
              g_0 = 10^{-4},\ g_{6299} = 999

    Source: a grid defined here (the levels a practitioner writes), for the searches of
    :func:`smallest_level`.

    Examples
    --------
    >>> level_grid(0), level_grid(1), level_grid(900), level_grid(6299)
    (Fraction(1, 10000), Fraction(101, 1000000), Fraction(1, 1000), Fraction(999, 1))
    """
    j = check_integer("j", j, minimum=0, maximum=MAX_LEVEL_INDEX, why="levels up to 10**100")
    d, e = 100 + j % 900, j // 900 + LEVEL_RANGE[0] - 2
    return Fraction(d) * Fraction(10) ** e


_GRID_SIZE = 900 * (LEVEL_RANGE[1] - LEVEL_RANGE[0])
MAX_LEVEL_INDEX = 900 * (100 - LEVEL_RANGE[0])  # level_grid(j) for larger j exceeds 10**100: no privacy level


def smallest_integer(pred: Callable[[int], bool], lo: int, hi: int, *, gallop: bool = True) -> int | None:
    r"""The smallest integer ``j`` in ``[lo, hi]`` with ``pred(j)``, for ``pred`` monotone (False, then True).

    ``gallop=True``: steps of 1, 2, 4, … from ``lo``, then bisection — :math:`O(\log(j^* - lo))`
    evaluations, for huge ranges; ``gallop=False``: bisection of ``[lo, hi]`` —
    :math:`O(\log(hi - lo))`.  Exact on the integers; ``None`` when ``pred(hi)`` is false.

    .. math:: j^* = \min\{j \in [lo, hi] \cap \mathbb Z : \text{pred}(j)\}

    Source: a standard exact search (no float bisection).

    Examples
    --------
    >>> smallest_integer(lambda j: j * j >= 1000, 0, 10**6)
    32
    >>> smallest_integer(lambda j: j * j >= 1000, 0, 10**6, gallop=False)
    32
    >>> smallest_integer(lambda j: False, 0, 10) is None
    True
    """
    if not callable(pred):
        raise ValueError(f"pred must be callable, got {format_value(pred)}")
    lo = check_integer("lo", lo, minimum=-MAX_SEARCH, maximum=MAX_SEARCH)
    hi = check_integer("hi", hi, minimum=lo, maximum=MAX_SEARCH)
    if pred(lo):
        return lo
    last_false = lo
    if gallop:
        step = 1
        while True:
            j = min(lo + step, hi)
            if pred(j):
                break
            if j == hi:
                return None
            last_false, step = j, step * 2
    else:
        if lo == hi or not pred(hi):
            return None
        j = hi
    a, b = last_false, j
    while b - a > 1:
        mid = (a + b) // 2
        if pred(mid):
            b = mid
        else:
            a = mid
    return b


def smallest_level(pred: Callable[[float], bool]) -> float | None:
    r"""The smallest level of :func:`level_grid` at which a monotone ``pred`` holds (``None`` if none ≤ 999).

    .. math:: \min\{g_j : \text{pred}(g_j)\}

    Source: :func:`smallest_integer` (bisection) on the grid's index.

    Examples
    --------
    >>> smallest_level(lambda eps: 1 / eps <= 3)  # 1/3 → 0.334
    0.334
    """
    if not callable(pred):
        raise ValueError(f"pred must be callable, got {format_value(pred)}")
    j = smallest_integer(lambda i: pred(float(level_grid(i))), 0, _GRID_SIZE - 1, gallop=False)
    return None if j is None else float(level_grid(j))


def _piecewise_smallest(value: Callable[[int], tuple[int, bool]], lo: int, hi: int) -> int | None:
    """Smallest ``j`` with ``value(j)[1]`` when ``value(j)[0]`` (a key) is non-decreasing and the
    predicate is monotone on each run of a constant key: walk the runs in order."""
    cache: dict = {}

    def val(j: int) -> tuple[int, bool]:
        if j not in cache:
            cache[j] = value(j)
        return cache[j]

    j = lo
    while j <= hi:
        key = val(j)[0]

        def past_run(i: int, k: int = key) -> bool:
            return val(i)[0] > k

        nxt = smallest_integer(past_run, j, hi)
        end = hi if nxt is None else nxt - 1
        if val(end)[1]:
            return smallest_integer(lambda i: val(i)[1], j, end)
        j = end + 1
    return None


def dame_smallest(law: SizeLaw, *, target_mse: float, n: int | None = None,
                  alpha: float | None = None) -> float | int | None:
    r"""Smallest ``α`` (grid of :func:`level_grid`, at ``n`` users) or smallest ``n`` (at ``alpha``)
    with DAME's paper-constant upper bound :math:`UB(M, n\alpha^2) \le` ``target_mse``.

    Give exactly one of ``n`` and ``alpha``.  The bound is **not** monotone in :math:`x = n\alpha^2`
    in general: when :math:`\tilde m` jumps, :math:`\log(c_4\sqrt{\tilde m x})` grows and
    :math:`E[\sqrt{m \wedge \tilde m}]` may grow less.  Two facts make an exact search possible.
    (i) :math:`\tilde m(x)` is non-decreasing: with :math:`y = c_4(ax \vee 1) \ge c_4 = 8 > e`,
    :math:`\varphi_x(a) = \frac{c_5}{x}(\log y - \log\log y)` has
    :math:`x\,\partial_x\varphi \propto 1 - 1/\ell - \ell + \log \ell < 0` (:math:`\ell = \log y \ge 1`;
    its maximum, at :math:`\ell = (1+\sqrt5)/2`, is :math:`-0.755`), so the feasible set of
    :math:`a` grows with :math:`x`.  (ii) On a run of constant :math:`\tilde m`,
    :math:`UB = c_3\log(c_4\sqrt{\tilde m x})/(x E[\sqrt{m \wedge \tilde m}]^2) \wedge 4` decreases
    (:math:`\partial_x (\log(c\sqrt x)/x) < 0` iff :math:`\log(c\sqrt x) > 1/2`, true as
    :math:`c_4 = 8`).  The search walks the runs of :math:`\tilde m` in order (each run's end by
    an exact integer search on :math:`\tilde m`) and bisects inside the first run whose end meets
    the target.

    .. math:: \min\{j : UB(M, x_j) \le t\},\qquad x_j = n\,g_j^2 \ \text{or}\ x_j = j\,\alpha^2

    Source: Pla, Richard & Vono, Theorem 2 (eqs. (11)–(12)), constants (S146).

    Examples
    --------
    >>> from bounds import sizes
    >>> n = dame_smallest(sizes.point(50), target_mse=0.01, alpha=0.5); n
    115168
    >>> [dame.upper_bound(sizes.point(50), n_alpha2=k * 0.25).value <= 0.01 for k in (n - 1, n)]
    [False, True]
    """
    if (n is None) == (alpha is None):
        raise ValueError("give exactly one of n and alpha")
    t = check_positive("target_mse", target_mse)

    def at(x: float) -> tuple[int, bool]:
        ub = dame.upper_bound(law, n_alpha2=x, constants="paper")
        return ub.m_tilde, ub.value <= t

    if alpha is not None:
        a2 = check_positive("alpha", alpha) ** 2
        return _piecewise_smallest(lambda j: at(j * a2), 2, MAX_USERS)
    n = check_integer("n", n, minimum=2, maximum=MAX_USERS)
    j = _piecewise_smallest(lambda i: at(n * float(level_grid(i)) ** 2), 0, _GRID_SIZE - 1)
    return None if j is None else float(level_grid(j))


def _law_terms(counts: Histogram | ArrayLike, U: float | Fraction) -> tuple:
    """Distinct counts d_j (largest first), K_j = Σ_ℓ (m_ℓ − d_j)_+ (so B_j = U K_j / (2N)), Σm, U, N — exact ints, O(J)."""
    h = counts if isinstance(counts, Histogram) else Histogram.of_counts(counts)
    Ue = U if isinstance(U, Fraction) else Fraction(check_positive("U", U))
    d, c = h.counts[::-1].tolist(), h.users[::-1].tolist()
    N = sum(c)
    if int(h.counts[-1]) * N < 2**62:  # every partial sum is at most max(d)·N: checked int64, the same integers
        dd, cc = h.counts[::-1].astype(np.int64), h.users[::-1].astype(np.int64)
        above = np.concatenate([[0], np.cumsum(cc)]).astype(np.int64)
        above_sum = np.concatenate([[0], np.cumsum(cc * dd)]).astype(np.int64)
        return d, (above_sum[:-1] - above[:-1] * dd).tolist(), int(above_sum[-1]), Ue, N
    K, above_n, above_total = [], 0, 0  # users above d_j and their total count
    for dj, cj in zip(d, c):
        K.append(above_total - above_n * dj)
        above_n, above_total = above_n + cj, above_total + cj * dj
    return d, K, above_total, Ue, N


def law_optimal_error(counts: Histogram | ArrayLike, *, U: float | Fraction, eps: float | Fraction, n: int | None = None,
                      exact: bool = False) -> float | Fraction:
    r""":math:`E^{OPT}` for ``n`` users whose counts follow the empirical law of ``counts`` (default ``n = len(counts)``).

    Lemma III.1 at a symmetric clipping with threshold :math:`T` costs
    :math:`\big(\sum_\ell \tfrac12 (U m_\ell - T)_+ + T/\varepsilon\big)/\sum_\ell m_\ell` for
    :math:`T \le U m^*`; Theorem III.1's :math:`T_\varepsilon` minimises it.  Per user, with the law's
    expectations, it depends on ``n`` and ε only through :math:`s = n\varepsilon`; it is convex and
    piecewise linear in ``T`` with kinks at 0 and the :math:`U d_j`, so, exactly in rationals,

    .. math:: E^{OPT}(s) = \min\Big\{\frac U2,\ \min_j \frac{B_j + U d_j / s}{E m}\Big\},\qquad
              B_j = \tfrac12 E(U m - U d_j)_+ .

    At ``n = len(counts)`` this is :func:`bounds.rameshwar.optimal_error` (tested), in :math:`O(J)`
    for ``J`` distinct counts; at ``n = r·len(counts)`` it is ``optimal_error`` of the counts
    repeated ``r`` times.

    Source: Rameshwar and Tandon (2025), Lemma III.1 and Theorem III.1.

    Examples
    --------
    >>> law_optimal_error([1, 4], U=10, eps=1, exact=True)  # rameshwar.optimal_error: (0 + 15 + 10) / 5
    Fraction(5, 1)
    """
    d, K, S, Ue, N = _law_terms(counts, U)
    e = eps if isinstance(eps, Fraction) else Fraction(check_positive("eps", eps))
    s = e * (N if n is None else check_integer("n", n, minimum=1))
    # (B_j + U d_j / s) / E m = U (K_j s_p + 2N d_j s_q) / (2 s_p Σm) with s = s_p / s_q: the argmin in integers
    sp, sq = s.numerator, s.denominator
    pick: Any = range(len(d))
    sf = float(s) if s < 1e300 else math.inf
    if 0 < sf < math.inf and S < 2**62:  # float screen (no cancellation: both terms ≥ 0), decided exactly below
        with np.errstate(over="ignore"):
            v = np.asarray(K, dtype=float) * sf + 2.0 * N * np.asarray(d, dtype=float)
        if np.all(np.isfinite(v)):
            pick = np.flatnonzero(v <= float(np.min(v)) * (1 + 1e-9)).tolist()
    value = min(Ue / 2, Ue * Fraction(min(K[j] * sp + 2 * N * sq * d[j] for j in pick), 2 * sp * S))
    return value if exact else float(value)


def rameshwar_smallest(counts: Histogram | ArrayLike, *, U: float | Fraction, target: float | Fraction) -> Fraction:
    r"""The exact smallest :math:`s = n\varepsilon` at which :math:`E^{OPT} \le` ``target`` for the counts' law.

    For ``n`` users whose counts follow the empirical law :math:`\hat M` of ``counts`` (``n`` may be
    any multiple of its size, or read as the law's limit), Lemma III.1 at the symmetric clipping
    with threshold ``T`` (Theorem III.1) gives the per-record error

    .. math:: E(T; s) = \frac{\tfrac12 E_{\hat M}(U m - T)_+ + T/s}{E_{\hat M}\, m},\qquad
              E^{OPT}(s) = \min_{T \ge 0} E(T; s),\qquad s = n\varepsilon,

    which at ``n = len(counts)`` is :func:`~bounds.rameshwar.optimal_error` (the minimiser is
    :math:`T_\varepsilon`).  **Monotone**: each :math:`E(T; s)` is non-increasing in ``s``, so
    their minimum is; it is continuous, :math:`U/2` for small ``s`` and tends to 0.  As
    :math:`E(T; s)` is convex and piecewise linear in ``T`` with kinks at :math:`T = 0` and the
    :math:`v_j = U d_j` (the distinct counts :math:`d_j`),
    :math:`E^{OPT}(s) \le t \iff \exists j: B_j + v_j/s \le t\,E m`, with
    :math:`B_j = \tfrac12 E(Um - v_j)_+`, hence, exactly in rationals,

    .. math:: s^* = \min_{j:\ B_j < t E m} \frac{v_j}{t\,E m - B_j}\quad(0 \text{ if } t \ge U/2).

    The smallest ε at ``n`` users is :math:`s^*/n`; the smallest number of users at ε is
    :math:`\lceil s^*/\varepsilon \rceil`.

    Source: Rameshwar and Tandon (2025), Lemma III.1, Theorem III.1, the claim after eq. (12)
    that :math:`E^{OPT}(\varepsilon)` is non-increasing.

    Examples
    --------
    >>> from bounds import rameshwar
    >>> s = rameshwar_smallest([1, 4], U=10, target=4)  # ε = s/2 = 2: T = 40, no bias, noise 40/2, over Σm = 5
    >>> s, rameshwar.optimal_error([1, 4], U=10, eps=s / 2, exact=True)
    (Fraction(4, 1), Fraction(4, 1))
    """
    d, K, S, Ue, N = _law_terms(counts, U)
    t = Fraction(target) if isinstance(target, (Fraction, numbers.Integral)) else Fraction(check_positive("target", target))
    if t <= 0:
        raise ValueError(f"target must be positive, got {target!r}")
    if t >= Ue / 2:
        return Fraction(0)
    # t E m − B_j = D_j / (2N t_q U_q), D_j = 2 t_p Σm U_q − U_p K_j t_q; the value is 2N t_q U_p d_j / D_j
    tp, tq, up, uq = t.numerator, t.denominator, Ue.numerator, Ue.denominator
    best_d, best_D = 0, 0
    for dj, k in zip(d, K):
        D = 2 * tp * S * uq - up * k * tq
        if D > 0 and (best_D == 0 or dj * best_D < best_d * D):
            best_d, best_D = dj, D
    return Fraction(2 * N * tq * up * best_d, best_D)


def _decimal(x: Fraction | float, digits: int, rounding: str) -> Fraction:
    if isinstance(x, bool) or not isinstance(x, (numbers.Rational, float)) or (
            isinstance(x, float) and not math.isfinite(x)):
        raise ValueError(f"x must be a finite real number (float, int or Fraction), got {format_value(x)}")
    q = Fraction(x)
    if q == 0:
        return q
    with localcontext() as ctx:
        ctx.prec = digits
        ctx.rounding = rounding
        # exact: Decimal division of the numerator by the denominator, rounded once in the chosen direction
        return Fraction(Decimal(int(q.numerator)) / Decimal(int(q.denominator)))  # numpy integers as ints


def round_up(x: Fraction | float, digits: int = 4) -> Fraction:
    r"""The smallest number with ``digits`` significant digits that is at least ``x`` (exact).

    Printed smallest levels and numbers of users meet their target when rounded up: the
    quantities they bound are non-increasing in them.

    .. math:: \lceil x \rceil_{d} = \min\{y \ge x : y = k\,10^e,\ k \in \mathbb Z,\ |k| < 10^d\}

    Source: safe rounding of the printed inverse answers (defined here).

    Examples
    --------
    >>> float(round_up(Fraction(207048, 10**7)))  # 0.0207048 → 0.02071, never 0.0207
    0.02071
    >>> round_up(0.5, 3)
    Fraction(1, 2)
    """
    digits = check_integer("digits", digits, minimum=1, maximum=50)
    return _decimal(x, digits, ROUND_CEILING)


def round_down(x: Fraction | float, digits: int = 4) -> Fraction:
    r"""The largest number with ``digits`` significant digits that is at most ``x`` (exact).

    .. math:: \lfloor x \rfloor_{d} = \max\{y \le x : y = k\,10^e,\ |k| < 10^d\}

    Source: safe rounding of printed thresholds whose error grows with them (defined here).

    Examples
    --------
    >>> float(round_down(Fraction(2, 3)))
    0.6666
    """
    digits = check_integer("digits", digits, minimum=1, maximum=50)
    return _decimal(x, digits, ROUND_FLOOR)
