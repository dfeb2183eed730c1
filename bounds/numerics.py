"""Shared numerics: input validation, log-space helpers and the float/mpmath backends.

Every theory module evaluates its formulas through a :class:`Backend`, so that
one expression serves both the fast float64 path (``precision=None``) and the
arbitrary-precision mpmath path (``precision=d`` digits), which is the oracle
the float path is tested against.
"""

from __future__ import annotations

import math
import numbers
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import mpmath
import numpy as np

__all__ = [
    "PaperAssumptionWarning",
    "Backend",
    "FLOAT",
    "backend",
    "last_true",
    "check_counts",
    "check_integer",
    "check_positive",
    "check_precision",
    "log1mexp",
    "warn_assumption",
    "workdps",
]


class PaperAssumptionWarning(UserWarning):
    """A paper's hypothesis is violated; the formula is evaluated anyway."""


# --------------------------------------------------------------------------- validation


def check_positive(name: str, value, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float after checking it is a positive real number.

    Raises
    ------
    ValueError
        If ``value`` is NaN, not real, ``<= 0`` or (unless ``allow_inf``) infinite.

    Examples
    --------
    >>> check_positive("alpha", 0.5)
    0.5
    >>> check_positive("alpha", -1)
    Traceback (most recent call last):
    ...
    ValueError: alpha must be a positive real number, got -1
    """
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, mpmath.mpf)):
        raise ValueError(f"{name} must be a positive real number, got {value!r}")
    v = float(value)
    if math.isnan(v) or v <= 0 or (math.isinf(v) and not allow_inf):
        raise ValueError(f"{name} must be a positive real number, got {value!r}")
    return v


def check_integer(name: str, value, *, minimum: int) -> int:
    """Return ``value`` as an ``int`` after checking it is an integer ``>= minimum``.

    Integral floats such as ``1e4`` are accepted.

    Examples
    --------
    >>> check_integer("n", 1e4, minimum=2)
    10000
    >>> check_integer("n", 1, minimum=2)
    Traceback (most recent call last):
    ...
    ValueError: n must be an integer >= 2, got 1
    """
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if isinstance(value, numbers.Integral):
        iv = int(value)
    elif isinstance(value, numbers.Real) and math.isfinite(value) and float(value).is_integer():
        iv = int(value)
    else:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if iv < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return iv


def check_counts(name: str, values) -> np.ndarray:
    """Return ``values`` as an int64 array after checking it is a non-empty 1-D array of positive integers.

    Examples
    --------
    >>> check_counts("k", [3, 1.0]).tolist()
    [3, 1]
    >>> check_counts("k", [2, 0])
    Traceback (most recent call last):
    ...
    ValueError: k must hold positive integers, got 0
    """
    arr = np.asarray(values)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of positive integers, got {values!r}")
    if not np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.complexfloating):
        raise ValueError(f"{name} must hold positive integers, got {values!r}")
    if np.any(~np.isfinite(arr)) or np.any(arr != np.round(arr)):
        raise ValueError(f"{name} must hold positive integers, got {values!r}")
    if np.any(arr <= 0):
        raise ValueError(f"{name} must hold positive integers, got {arr[arr <= 0][0].item()!r}")
    return arr.astype(np.int64)


def check_precision(precision) -> int | None:
    """Validate a ``precision`` argument: ``None`` (float64) or a number of mpmath digits.

    Examples
    --------
    >>> check_precision(None) is None
    True
    >>> check_precision(30)
    30
    """
    if precision is None:
        return None
    return check_integer("precision", precision, minimum=1)


# --------------------------------------------------------------------------- log space


def log1mexp(x):
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
    x = np.minimum(np.asarray(x, dtype=float), 0.0)
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
    asarray: Callable
    log: Callable
    exp: Callable
    sqrt: Callable
    log1p: Callable
    expm1: Callable

    @property
    def is_mp(self) -> bool:
        return self.name == "mpmath"

    def logaddexp(self, a, b):
        """``log(e^a + e^b)``, exact at ``-inf`` arguments."""
        a, b = self.asarray(a), self.asarray(b)
        hi = np.maximum(a, b)
        lo = np.minimum(a, b)
        neg_inf = hi == -np.inf
        safe_hi = np.where(neg_inf, 0, hi)
        out = safe_hi + self.log1p(self.exp(lo - safe_hi))
        return np.where(neg_inf, -np.inf, out)


def _float_asarray(x):
    return np.asarray(x, dtype=float)


def _log_float(x):
    with np.errstate(divide="ignore"):
        return np.log(x)


FLOAT = Backend("float64", _float_asarray, _log_float, np.exp, np.sqrt, np.log1p, np.expm1)


def _mp_ufunc(f):
    u = np.frompyfunc(f, 1, 1)

    def apply(x):
        out = u(_mp_asarray(x))
        return out if isinstance(out, np.ndarray) else np.asarray(out, dtype=object)

    return apply


def _to_mpf(v):
    if isinstance(v, mpmath.mpf):
        return v
    if isinstance(v, (np.integer, np.bool_)):
        return mpmath.mpf(int(v))
    if isinstance(v, np.floating):
        return mpmath.mpf(float(v))
    return mpmath.mpf(v)


_TO_MPF = np.frompyfunc(_to_mpf, 1, 1)


def _mp_asarray(x):
    arr = np.asarray(x, dtype=object)
    return np.asarray(_TO_MPF(arr), dtype=object) if arr.size else arr


MPMATH = Backend(
    "mpmath",
    _mp_asarray,
    _mp_ufunc(lambda v: mpmath.log(v) if v != 0 else mpmath.ninf),
    _mp_ufunc(mpmath.exp),
    _mp_ufunc(mpmath.sqrt),
    _mp_ufunc(mpmath.log1p),
    _mp_ufunc(mpmath.expm1),
)


def backend(precision: int | None) -> Backend:
    """The backend for a ``precision`` argument (``None`` → float64).

    Examples
    --------
    >>> backend(None).name, backend(30).name
    ('float64', 'mpmath')
    """
    return FLOAT if precision is None else MPMATH


@contextmanager
def workdps(precision: int | None):
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


# --------------------------------------------------------------------------- integer search


def last_true(pred: Callable[[np.ndarray], np.ndarray], lo, hi) -> np.ndarray:
    """Largest ``a`` in ``[lo, hi]`` with ``pred`` true on all of ``[lo, a]``, elementwise.

    ``pred`` must be monotone on ``[lo, hi]`` (true, then false); the result is
    ``lo - 1`` where ``pred(lo)`` is false.  ``lo`` and ``hi`` are integer arrays
    (or scalars) of one shape; ``pred`` receives an integer array of that shape.
    About ``log2(hi - lo)`` calls of ``pred``.

    Examples
    --------
    >>> last_true(lambda a: a * a <= 50, 0, 100)
    array(7)
    >>> last_true(lambda a: a < 0, 0, 100)
    array(-1)
    """
    lo = np.asarray(lo, dtype=np.int64)
    hi = np.asarray(hi, dtype=np.int64)
    if np.any(hi < lo):
        raise AssertionError("last_true: empty bracket")
    good = lo - 1  # invariant: pred true on [lo, good]; answer in [good, hi]
    top = hi.copy()
    while np.any(good < top):
        mid = good + (top - good + 1) // 2
        active = good < top
        ok = pred(np.where(active, mid, lo))
        good = np.where(active & ok, mid, good)
        top = np.where(active & ~ok, mid - 1, top)
    return good


def warn_assumption(message: str) -> None:
    """Issue a :class:`PaperAssumptionWarning` pointing at the caller's caller.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_assumption("H3 fails")
    >>> w[0].category.__name__, str(w[0].message)
    ('PaperAssumptionWarning', 'H3 fails')
    """
    warnings.warn(message, PaperAssumptionWarning, stacklevel=3)
