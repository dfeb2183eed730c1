r"""DAME's bounds along a budget (:func:`curve`), over a family of laws (:func:`grid`, the regime
maps) and Corollary 3's closed form.

Source: Pla et al. (2024), Theorems 1–2 and Corollary 3.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._lazy import lazy
from ..numerics import (
    check_array,
    check_integer,
    check_real,
    format_value,
    warn_assumption,
    warn_once_per_call,
)
from ..sizes import MAX_SIZE, SizeLaw, finite, point
from ._constants import Constants
from ._inputs import _LOG_UNDERFLOW, MAX_POINTS, _law, _n_alpha2_array, privacy_budget
from ._lower import _lower_many, _lower_rows
from ._condition import _budgets_of
from ._upper import _log_upper, _m_tilde_many, _m_tilde_rows, _upper_value, m_tilde

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # the float path never imports it


MAX_CELLS = 10**6
"""Largest ``len(params) * len(n_alpha2)`` of one :func:`grid`."""


@dataclass(frozen=True)
class Curve:
    """Both bounds along a grid (of ``nα²``, or of laws): arrays of equal length."""

    n_alpha2: np.ndarray
    lower: np.ndarray
    log_lower: np.ndarray
    argmax: np.ndarray  # object: Python ints (exact past 2**53), or math.inf
    upper: np.ndarray
    log_upper: np.ndarray
    m_tilde: np.ndarray
    laws: tuple
    constants: Constants


@warn_once_per_call
def curve(sizes: SizeLaw | Sequence[SizeLaw], *, n_alpha2: ArrayLike, constants: Constants | str = "paper") -> Curve:
    r"""Theorems 1 and 2 along a grid, vectorised over :math:`n\alpha^2`.

    ``sizes`` is one law (then ``n_alpha2`` may be an array: the Figure 1a bottom
    panel) or a sequence of at most ``MAX_POINTS`` (10**5) laws (then ``n_alpha2`` is a scalar or an
    array of the same length: the Figure 1a top panels); more raises ``ValueError`` before any law is read.  Values are those of
    :func:`lower_bound` and :func:`upper_bound` (float64 path) bit for bit: values, logs, :math:`\tilde m` and
    ``argmax`` (an object array of Python ints, exact past :math:`2^{53}`, and ``math.inf``).

    .. math:: \big(LB(M_i, x_i),\ UB(M_i, x_i)\big)_{i}, \quad \text{eqs. (10) and (11)}

    Source: Pla et al. (2024), §4.2, Figure 1a.

    Examples
    --------
    >>> from bounds import sizes
    >>> cv = curve(sizes.poisson(5), n_alpha2=[1e2, 1e4, 1e6], constants="unit")
    >>> cv.m_tilde.tolist()
    [7, 10, 12]
    >>> bool(np.all(np.diff(cv.upper) < 0))
    True
    """
    c = Constants.resolve(constants)
    laws: tuple[SizeLaw, ...]
    if isinstance(sizes, SizeLaw):
        laws = (sizes,)
    elif isinstance(sizes, (list, tuple)) and len(sizes) > MAX_POINTS:  # before any law is read
        raise ValueError(f"sizes must hold at most {MAX_POINTS} laws (dame.MAX_POINTS, the work limit of one call: "
                         f"10**5 laws take about 20 s), got {len(sizes)}")
    elif isinstance(sizes, (list, tuple)) and len(sizes) > 0:
        laws = tuple(sizes)
    else:
        raise ValueError(f"sizes must be a law from bounds.sizes or a non-empty list of them, got {sizes!r}")
    for law in laws:
        _law(law)
    xs = _n_alpha2_array(n_alpha2)
    if len(laws) == 1:
        pairs = [(laws[0], xs)]
    elif xs.size == 1:
        pairs = [(law, xs) for law in laws]
    elif xs.size == len(laws):
        pairs = [(law, xs[i : i + 1]) for i, law in enumerate(laws)]
    else:
        raise ValueError(f"{len(laws)} laws and {xs.size} values of n_alpha2 do not pair up")
    x_all = np.concatenate([x for _, x in pairs])
    lid = np.repeat(np.arange(len(pairs)), [len(x) for _, x in pairs])
    laws_all = [law for law, _ in pairs]
    log_lower, arg = _lower_rows(laws_all, lid, x_all, c)  # every law's searches at once
    mt = _m_tilde_rows(laws_all, lid, x_all, _budgets_of(x_all), c)
    cv = c.floats
    log_upper = np.empty(len(x_all))
    for i, (xi, mi) in enumerate(zip(x_all, mt)):
        core, lfac, ld = _log_upper(laws_all[lid[i]], int(mi), xi, cv, None)
        log_upper[i] = _upper_value(float(core), float(lfac), float(ld), xi, cv, None)[1]
    with np.errstate(under="ignore"):
        return Curve(
            x_all, _lower_values(log_lower), log_lower, _argmax_array(arg),
            np.exp(log_upper), log_upper, mt, tuple(laws_all[j] for j in lid), c,
        )



def _lower_values(log_lower: np.ndarray) -> np.ndarray:
    """Theorem 1's values from their logs as :func:`lower_bound` takes them (``math.exp``, 0 below the float
    range), so that a map's cell equals the point's bit for bit (``np.exp`` differs from ``math.exp`` in the
    last bit of about one value in twenty)."""
    flat = [math.exp(v) if v > _LOG_UNDERFLOW else 0.0 for v in log_lower.ravel().tolist()]
    return np.asarray(flat, dtype=float).reshape(log_lower.shape)


def _argmax_array(args: Sequence[int | float]) -> np.ndarray:
    """Theorem 1's maximisers as an object array of Python ints and ``math.inf`` (exact: a float64 array would
    round an atom past 2**53, an int64 one cannot hold the supremum's ``inf``)."""
    out = np.empty(len(args), dtype=object)
    out[:] = [a if a == math.inf else int(a) for a in args]
    return out


REGIMES = ("capped", "m_tilde=1", "m_tilde>1")
"""The regimes of a :func:`grid` cell, in the order of its integer codes (see :class:`Grid`)."""


@dataclass(frozen=True)
class Grid:
    r"""Theorems 1 and 2 over a 2-D grid: a family's parameter (rows) × :math:`n\alpha^2` (columns).

    ``regime`` indexes :data:`REGIMES`: ``"capped"`` — the upper bound is the trivial 4 (the ``∧ 4``
    of eq. (11) is active); ``"m_tilde=1"`` — not capped and :math:`\tilde m = 1` (DAME clips every
    user at one sample, Corollary 3's first regime); ``"m_tilde>1"`` — not capped, :math:`\tilde m > 1`.
    ``argmax`` holds the lower bound's maximisers as an object array of Python ints, exact past :math:`2^{53}`
    (``math.inf``: the supremum :math:`a \to \infty`).  Every cell equals :func:`lower_bound`, :func:`upper_bound`
    and :func:`m_tilde` at its law and budget bit for bit (values, logs, ``argmax``, :math:`\tilde m`).
    """

    family: str
    params: np.ndarray
    n_alpha2: np.ndarray
    lower: np.ndarray
    log_lower: np.ndarray
    argmax: np.ndarray
    upper: np.ndarray
    log_upper: np.ndarray
    m_tilde: np.ndarray
    regime: np.ndarray
    constants: Constants

    @property
    def log_gap(self) -> np.ndarray:
        r""":math:`\log(UB/LB)`, the width of the minimax gap in nats."""
        return self.log_upper - self.log_lower


def _family(family: str | Callable[..., SizeLaw]) -> tuple[Callable[..., SizeLaw], str]:
    from .. import sizes as _sizes  # the constructors by name ("poisson", "zipf", …)

    if callable(family):
        return family, getattr(family, "__name__", "custom")
    if isinstance(family, str) and family in _sizes.__all__ and family not in ("SizeLaw", "parse", "finite",
                                                                               "empirical", "from_scipy"):
        return getattr(_sizes, family), family
    raise ValueError(f"family must be a one-parameter size-law constructor or its name "
                     f"(poisson, geometric, zipf, point, …), got {family!r}")


def _upper_many(law: SizeLaw, m: np.ndarray, x: np.ndarray, c: Constants) -> tuple[np.ndarray, np.ndarray]:
    """Float64 eq. (11) for arrays of ``m̃`` and ``x``: (log values, capped)."""
    cv = c.floats
    with np.errstate(over="ignore", under="ignore"):
        core, lfac, ld = _log_upper(law, m, x, cv, None)
    core, lfac = np.asarray(core, dtype=float), np.asarray(lfac, dtype=float)
    if np.any(lfac <= 0):
        warn_assumption("ln(c4·(√(m̃nα²) ∨ 1)) <= 0: the upper bound (11) is not positive for these constants")
    capped = (core >= math.log(4)) & (lfac > 0)
    return np.where(lfac > 0, np.where(capped, math.log(4), core), -np.inf), capped


_INTEGER_PARAMS = {"point": (True,), "uniform": (True, True), "binomial": (True, False)}


def _arity(make: Callable[..., SizeLaw]) -> int:
    """The number of required positional parameters of a size-law constructor (1 when it cannot be read)."""
    try:
        sig = inspect.signature(make)
    except (TypeError, ValueError):
        return 1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return max(1, sum(1 for q in sig.parameters.values() if q.kind in kinds and q.default is q.empty))


def _grid_params(params: ArrayLike, name: str, arity: int) -> tuple[np.ndarray, list[tuple[Any, ...]]]:
    """``(params as checked, one argument tuple per law)`` for :func:`grid`: a 1-D array for a one-parameter
    family, ``(laws, arity)`` for more; integer parameters exact from integer input."""
    if isinstance(params, np.ndarray) and params.size > MAX_POINTS * max(arity, 1):  # before any copy
        raise ValueError(f"params must hold at most {MAX_POINTS} laws (dame.MAX_POINTS), got {params.size} values")
    raw = np.atleast_1d(params) if np.ndim(params) == 0 and not isinstance(params, str) else params
    ints = _INTEGER_PARAMS.get(name, (False,) * arity)
    if arity == 1:
        ps = check_array("params", raw, max_size=MAX_POINTS)
        exact = np.asarray(raw, dtype=object).ravel().tolist()
        return ps, [(_exact_int(v, f) if ints[0] else float(f),) for v, f in zip(exact, ps.tolist())]
    try:
        ps = check_array("params", raw, ndim=2, max_size=MAX_POINTS * arity)
    except ValueError:
        raise ValueError(f"family {name!r} takes {arity} parameters: params must be an array of shape (laws, {arity}), "
                         f"one row per law, got {format_value(params)}") from None
    if ps.shape[1] != arity or ps.shape[0] == 0:
        raise ValueError(f"family {name!r} takes {arity} parameters: params must be an array of shape (laws, {arity}), "
                         f"got shape {ps.shape}")
    exact2 = np.asarray(raw, dtype=object).tolist()
    rows = [tuple(_exact_int(v, f) if ints[j] else float(f) for j, (v, f) in enumerate(zip(row, frow)))
            for row, frow in zip(exact2, ps.tolist())]
    return ps, rows


def _exact_int(value: Any, as_float: float) -> Any:
    """An integer parameter: the exact integer given (past 2**53 a float would round it), else the float (the
    constructor names it if it is not an integer)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    return int(as_float) if float(as_float).is_integer() else as_float


def _named(i: int, p: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``, its ``ValueError`` naming ``params[i]``."""
    try:
        return compute()
    except ValueError as exc:
        raise ValueError(f"params[{i}] = {p!r}: {exc}") from None


@warn_once_per_call
def grid(
    family: str | Callable[..., SizeLaw], params: ArrayLike, n_alpha2: ArrayLike, *,
    constants: Constants | str = "paper"
) -> Grid:
    r"""Regime map: both bounds, :math:`\tilde m`, the maximiser and the regime over params × :math:`n\alpha^2`.

    .. math:: \big(LB(M_{\theta_i}, x_j),\ UB(M_{\theta_i}, x_j),\ \tilde m(M_{\theta_i}, x_j)\big)_{i,j},
              \quad \text{eqs. (10)–(12)}

    ``family`` is a constructor of :mod:`bounds.sizes` (or its name).  For a one-parameter family
    ``params`` are its argument (e.g. Poisson :math:`\lambda`, Zipf :math:`s`), a 1-D array; for a family of
    ``k`` parameters (``binomial``: ``N, p``; ``uniform``: ``lo, hi``) an array of shape ``(laws, k)``, one row
    per law (rows are the grid's rows).  Integer parameters (``N``, ``lo``, ``hi``, ``m``) are read exactly
    from Python or numpy integers, past 2**53 too.  For each law the
    searches of :func:`lower_bound` and :func:`m_tilde` run vectorised over the whole
    :math:`n\alpha^2` axis (branch and bound and w-ary searches over the integers: exact, no
    enumeration); the cost per law does not grow with its scale (tails below and above a
    window are summed by vectorised geometric walks).  Measured times of 100 × 100 maps:
    ``python benchmarks/bench_regimes.py``.

    Source: Pla et al. (2024), Theorems 1 and 2, Corollary 3 (the regimes).

    Examples
    --------
    >>> g = grid("poisson", [1.0, 10.0], [1e2, 1e6], constants="unit")
    >>> g.m_tilde.tolist()
    [[2, 5], [12, 19]]
    >>> [REGIMES[r] for r in g.regime[0]]
    ['m_tilde>1', 'm_tilde>1']
    """
    make, name = _family(family)
    c = Constants.resolve(constants)
    ps, rows = _grid_params(params, name, _arity(make))
    xs = _n_alpha2_array(n_alpha2)
    if len(rows) * xs.size > MAX_CELLS:
        raise ValueError(f"params and n_alpha2 give {len(rows)} × {xs.size} cells: at most {MAX_CELLS} (dame.MAX_CELLS)")
    shape = (len(rows), xs.size)
    lu, cap = np.empty(shape), np.empty(shape, dtype=bool)
    mt = np.empty(shape, dtype=np.int64)  # exact past 2**53
    exact = _budgets_of(xs)
    laws = []
    for i, row in enumerate(rows):
        p = ps[i]
        try:
            law = make(*row)
        except (ValueError, OverflowError) as exc:
            raise ValueError(f"params[{i}] = {p!r} gives no size law: {exc}") from None
        if not isinstance(law, SizeLaw):
            raise ValueError(f"family must return a size law from bounds.sizes, got {format_value(law)} for params[{i}]")
        laws.append(law)
    try:  # Theorem 1's searches of every law at once (each law's values are those of its own search)
        ll, args = _lower_rows(laws, np.repeat(np.arange(len(laws)), xs.size), np.tile(xs, len(laws)), c)
    except ValueError:  # e.g. a law whose tail cannot be tabulated: name it
        for i, law in enumerate(laws):
            _named(i, ps[i], lambda: _lower_many(law, xs, c))
        raise
    try:  # Theorem 2's m~ likewise
        mt[:] = _m_tilde_rows(laws, np.repeat(np.arange(len(laws)), xs.size), np.tile(xs, len(laws)),
                              exact.take(np.tile(np.arange(xs.size), len(laws))), c).reshape(shape)
    except ValueError:
        for i, law in enumerate(laws):
            _named(i, ps[i], lambda: _m_tilde_many(law, xs, exact, c))
        raise
    for i, law in enumerate(laws):
        lu[i], cap[i] = _upper_many(law, mt[i].astype(np.int64), xs, c)
    ll, arg = ll.reshape(shape), _argmax_array(args).reshape(shape)
    regime = np.where(cap.astype(bool), 0, np.where(mt == 1, 1, 2))
    with np.errstate(under="ignore"):
        return Grid(name, ps, xs, _lower_values(ll), ll, arg, np.exp(lu), lu, mt.astype(np.int64), regime, c)




@dataclass(frozen=True)
class Corollary3:
    r"""Regime of Corollary 3 / Table 2 for :math:`M(1) = 1-\rho,\ M(m) = \rho`.

    ``regime`` is ``"m_tilde=1"``, ``"m_tilde=a"`` (``2 <= m_tilde < m``) or
    ``"m_tilde=m"``; ``rate`` is the order inside Corollary 3's :math:`O(\cdot)`
    (logarithms kept, constants dropped); ``table2_rate`` is Table 2's entry
    :math:`((\rho\sqrt{\tilde m} + 1 - \rho)^2 n\alpha^2)^{-1}` (logarithms dropped).
    """

    regime: str
    m_tilde: int
    rate: float
    table2_rate: float
    rho: float
    m: int
    n_alpha2: float


@warn_once_per_call
def corollary3(
    m: int, rho: float, *, n: int | None = None, alpha: float | None = None,
    n_alpha2: float | None = None, constants: Constants | str = "paper"
) -> Corollary3:
    r"""Corollary 3: DAME's rate for the two-point law :math:`M(1) = 1-\rho,\ M(m) = \rho`.

    .. math::

        R = O\!\left(\frac{\log(\tilde m\, n\alpha^2)}{n\alpha^2\,((1-\rho) + \rho\sqrt{\tilde m})^2}\right),
        \quad \tilde m = \begin{cases} m & \rho^2 \ge \varphi(m)\\
        a & \rho^2 \in [\varphi(a), \varphi(a+1)),\ 2 \le a < m \\ 1 & \text{otherwise}\end{cases}

    with, in the middle regime, the extra :math:`\wedge\, e^{-\rho^2 n\alpha^2/c_5}/\rho^2`.
    Source: Pla et al. (2024), Corollary 3 and Table 2.  The corollary assumes
    :math:`n\alpha^2 \ge 1` (warned otherwise); :math:`\tilde m` is computed exactly by
    :func:`m_tilde` on the two-point law.  Both orders are evaluated in log space: past the
    float range (e.g. :math:`n\alpha^2 = 5\times10^{-324}`) they are ``inf``.

    Examples
    --------
    >>> r = corollary3(100, 1.0, n_alpha2=1e6, constants="unit")
    >>> r.regime, r.m_tilde
    ('m_tilde=m', 100)
    """
    m = check_integer("m", m, minimum=2, maximum=MAX_SIZE)
    rho = check_real("rho", rho, low=0, high=1)
    priv = privacy_budget(n, alpha, n_alpha2)
    x = priv.n_alpha2
    if x < 1:
        warn_assumption(f"n_alpha2 = {x:g} < 1: Corollary 3 assumes nα² >= 1")
    c = Constants.resolve(constants)
    law = point(1) if rho == 0 else point(m) if rho == 1 else finite({1: 1 - rho, m: rho})
    mt = m_tilde(law, n_alpha2=x, constants=c)
    shape = ((1 - rho) + rho * math.sqrt(mt)) ** 2
    log_mx = math.log(mt) + math.log(x)  # log(m~ x): m~ x itself may overflow
    rate = _exp(math.log(max(log_mx, 1.0)) - math.log(x) - math.log(shape))  # 0 or inf beyond the float range
    if mt == 1:
        regime = "m_tilde=1"
    elif mt == m:
        regime = "m_tilde=m"
    else:
        regime = "m_tilde=a"
        rate = min(rate, math.exp(-rho * rho * x / c.floats[4]) / (rho * rho))
    return Corollary3(regime, mt, rate, _exp(-math.log(x) - math.log(shape)), rho, m, x)


def _exp(log_value: float) -> float:
    """``exp(log_value)``, ``inf`` past the float range (where ``math.exp`` raises)."""
    return math.exp(log_value) if log_value < 709.0 else math.inf
