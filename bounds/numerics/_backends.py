"""Log-space helpers and the float64 / mpmath backends through which every formula is evaluated."""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from .._lazy import lazy
from ._checks import (MAX_ARRAY, _as_float, _numeric_array, _short, check_array, check_integer, check_precision,
                      check_real, format_value)

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float64 path and the command line's start-up never need it

# --------------------------------------------------------------------------- log space


MAX_BINOMIAL_N = 2**62
"""Largest ``n`` of :func:`binomial_sf` (the size laws' range); past 2**53 ``y + 1`` is rounded to float64, a
relative change below 1e-16 of the beta function's first argument (``n - y`` is formed from the integers)."""


def binomial_sf(y: Any, n: int, p: float) -> np.ndarray:
    r""":math:`P(T > y)` for :math:`T \sim \mathrm{Bin}(n, p)` at integer points ``y`` (any sign).

    .. math:: P(T > y) = I_p(y + 1,\, n - y) \quad (0 \le y < n),\qquad 1 \ (y < 0),\qquad 0 \ (y \ge n)

    with :math:`I_p` the regularised incomplete beta (boost's ``ibeta`` through ``scipy.special.betainc``,
    the code behind ``scipy.stats.binom.sf``: 1e-14 relative at :math:`n = 10^9`).  ``scipy.special.bdtrc``
    is not used: it loses 1e-3 at :math:`n = 10^9` and returns NaN from :math:`n = 2^{31}` (a C ``int``).
    ``n`` is at most :data:`MAX_BINOMIAL_N`.

    Source: the binomial–beta identity :math:`P(\mathrm{Bin}(n, p) > y) = I_p(y + 1, n - y)`
    (Abramowitz and Stegun, 1964, eq. 26.5.24); the localisation vote of Pla et al. (2024), eqs. (6)–(7),
    and the binomial size law.

    Examples
    --------
    >>> binomial_sf([-1, 0, 1, 2], 2, 0.5).tolist()
    [1.0, 0.75, 0.25, 0.0]
    """
    from scipy import special  # here, not at import: the command line's start-up never needs scipy

    arr = check_array("y", y, ndim=np.ndim(y), allow_empty=True, max_size=MAX_ARRAY)
    if np.any(arr != np.round(arr)):
        raise ValueError(f"y must hold integers, got {format_value(y)}")
    n = check_integer("n", n, minimum=0, maximum=MAX_BINOMIAL_N)
    p = check_real("p", p, low=0.0, high=1.0)
    raw = np.asarray(y)
    if np.issubdtype(raw.dtype, np.integer):  # the checked copy is float64: past 2**53 it rounds y (by 512 at 2**62)
        arr = raw.astype(np.int64)
    inside = (arr >= 0) & (arr < n)
    if np.issubdtype(arr.dtype, np.integer):  # n - y from the integers: n - float(y) is off by hundreds past 2**53
        zi = np.where(inside, arr, 0).astype(np.int64)
        a_arg, b_arg = (zi + 1).astype(float), (n - zi).astype(float)
    else:
        z = np.where(inside, arr, 0.0)
        a_arg, b_arg = z + 1, n - z
    with np.errstate(invalid="ignore"):
        body = special.betainc(a_arg, b_arg, p)
    return np.where(inside, body, np.where(arr < 0, 1.0, 0.0))


def log1mexp(x: Any) -> Any:
    r"""Return :math:`\log(1 - e^{x})` for ``x <= 0``, accurately (Mächler's switch).

    .. math:: \log(1-e^{x}) = \begin{cases}\log(-\mathrm{expm1}(x)) & x > -\log 2\\
              \mathrm{log1p}(-e^{x}) & x \le -\log 2\end{cases}

    ``x >= 0`` gives ``-inf`` (a log-probability that rounded above 0 is a
    probability of 1); ``x = -inf`` gives ``0``.

    Examples
    --------
    >>> float(log1mexp(-1e-20))  # log(1e-20)
    -46.0517018598809...
    >>> float(log1mexp(-np.inf))
    0.0
    """
    arr = _numeric_array("x", x, "a real number or an array of real numbers <= 0")
    x = np.asarray([_as_float(v) for v in arr.flat] if arr.dtype == object else arr, dtype=float).reshape(arr.shape)
    if np.any(np.isnan(x)):
        raise ValueError(f"x must be a real number or an array of real numbers <= 0, got {_short(x)}")
    x = np.minimum(x, 0.0)
    out = np.empty_like(x)
    near = x > -math.log(2.0)
    with np.errstate(divide="ignore"):
        out[near] = np.log(-np.expm1(x[near]))
    out[~near] = np.log1p(-np.exp(x[~near]))
    return out[()] if out.ndim == 0 else out


# --------------------------------------------------------------------------- backends


@dataclass(frozen=True)
class Backend:
    """Elementwise operations of one numeric path (float64 arrays or mpmath object arrays)."""

    name: str
    asarray: Callable[[Any], np.ndarray]
    log: Callable[[Any], Any]
    exp: Callable[[Any], Any]
    sqrt: Callable[[Any], Any]
    log1p: Callable[[Any], Any]
    expm1: Callable[[Any], Any]

    def logaddexp(self, a: Any, b: Any) -> np.ndarray:
        """``log(e^a + e^b)``, exact at ``-inf`` arguments."""
        a, b = self.asarray(a), self.asarray(b)
        hi = np.maximum(a, b)
        lo = np.minimum(a, b)
        neg_inf = hi == -np.inf
        safe_hi = np.where(neg_inf, 0, hi)
        out = safe_hi + self.log1p(self.exp(lo - safe_hi))
        return np.where(neg_inf, -np.inf, out)


def _float_asarray(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=float)


def _log_float(x: Any) -> Any:
    if type(x) in (float, int) and x > 0:  # a positive scalar cannot divide by zero: no error state to set (a hot path)
        return np.log(x)
    with np.errstate(divide="ignore"):
        return np.log(x)


FLOAT = Backend("float64", _float_asarray, _log_float, np.exp, np.sqrt, np.log1p, np.expm1)


def _mp_ufunc(f: Callable[[Any], Any]) -> Callable[[Any], np.ndarray]:
    u = np.frompyfunc(f, 1, 1)

    def apply(x: Any) -> np.ndarray:
        out = u(_mp_asarray(x))
        return out if isinstance(out, np.ndarray) else np.asarray(out, dtype=object)

    return apply


def _to_mpf(v: Any) -> mpmath.mpf:
    if isinstance(v, mpmath.mpf):
        return v
    if isinstance(v, (np.integer, np.bool_)):
        return mpmath.mpf(int(v))
    if isinstance(v, np.floating):
        return mpmath.mpf(float(v))
    return mpmath.mpf(v)


_TO_MPF = np.frompyfunc(_to_mpf, 1, 1)


def _mp_asarray(x: Any) -> np.ndarray:
    arr = np.asarray(x, dtype=object)
    return np.asarray(_TO_MPF(arr), dtype=object) if arr.size else arr


MPMATH = Backend(
    "mpmath",
    _mp_asarray,
    _mp_ufunc(lambda v: mpmath.log(v) if v != 0 else mpmath.ninf),
    _mp_ufunc(lambda v: mpmath.exp(v)),
    _mp_ufunc(lambda v: mpmath.sqrt(v)),
    _mp_ufunc(lambda v: mpmath.log1p(v)),
    _mp_ufunc(lambda v: mpmath.expm1(v)),
)


def backend(precision: int | None) -> Backend:
    """The backend for a ``precision`` argument (``None`` → float64).

    Examples
    --------
    >>> backend(None).name, backend(30).name
    ('float64', 'mpmath')
    """
    return FLOAT if check_precision(precision) is None else MPMATH


@contextmanager
def workdps(precision: int | None) -> Iterator[None]:
    """Set mpmath's working precision to ``precision`` digits (no-op for ``None``).

    Examples
    --------
    >>> with workdps(40):
    ...     mpmath.mp.dps
    40
    """
    if precision is None:
        yield
    else:
        with mpmath.workdps(precision):
            yield
