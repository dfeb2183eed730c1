r"""Limits and log-space helpers shared by every size law.

The constants bound the work of every query (table sizes, listed points, draws, walks);
the helpers convert user input to int64 exactly and take logarithms without warnings.
Nothing here computes a law's functional.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ..numerics import check_integer, format_value, log1mexp
from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float path never needs it


FLOAT_TOL = 1e-20
MAX_TABLE = 5_000_000  # points in one table (five float64 columns: 200 MB)
WIDE = 1_000_000  # uniform laws on more points than this use closed forms, not a table
LOG_HALF = math.log(0.5)
_LOG2 = math.log(2.0)
DEEP_LOG = math.log(1e-280)  # below this, float64 closed-form survival functions may underflow
MAX_SIZE = 2**62  # dataset sizes and support points: exact int64 arithmetic up to here
# searches over an infinite support (closed-form tails) stop here: half of MAX_SIZE, so that the
# searches' int64 arithmetic on a bracket (midpoints, a + 1, a - 1) cannot wrap
SEARCH_CAP = 2**61
MAX_LISTED = 10**7  # support_points lists at most this many points (80 MB of int64)
MAX_DRAWS = 10**8  # dataset sizes drawn by one call of sample: 800 MB of int64 (its temporaries: a few times that)
WHOLE_TABLE = 10_000  # a finite support at most this wide is tabulated whole (no tolerance cut)
# integer weights summing below this convert to float64 without overflow (the largest float64 is
# about 2**1024); larger totals divide exactly with Fraction first
FLOAT_SAFE_TOTAL = 2**1000
MAX_WALK = 10**6  # steps of a term-by-term walk past a table or down a tail before giving up
MAX_MP_WORK = 2 * 10**8  # points x digits of one mpmath table (about a CPU minute at most)
MAX_TERMS = 2**27  # terms of one vectorised local sum of masses (chunks of 2**20: bounded memory)


def _mp_tol(precision: int) -> float:
    return max(10.0 ** (-(precision + 5)), 1e-300)



# =========================================================================== helpers


def _scipy_mean(dist: Any) -> float:
    """A scipy distribution's mean (scipy computes other moments alongside and may warn)."""
    with np.errstate(all="ignore"):
        return float(dist.mean())


def _plain(v: object) -> object:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    if isinstance(v, Fraction):
        return str(v)
    return v


_LOG2_NEG = -math.log(2.0)


def _log1mexp_float(x: float) -> float:
    r""":func:`bounds.numerics.log1mexp` of one float ``x`` (not NaN), without its checks and arrays: the same switch and
    operations on a numpy scalar, so the same double (a constructor's :math:`\log P(X \ge 1)`).

    .. math:: \log(1 - e^{x}) = \log(-\mathrm{expm1}(x)) \ (x > -\log 2), \quad \mathrm{log1p}(-e^{x}) \ \text{else}
    """
    v = np.float64(min(x, 0.0))
    if v == 0.0:
        return -math.inf  # log(1 - e^0) = log 0
    if v > _LOG2_NEG:
        return float(np.log(-np.expm1(v)))
    return float(np.log1p(-np.exp(v)))


def _mp_log(v: Any) -> Any:
    return mpmath.log(v) if v > 0 else mpmath.ninf


def _log1mexp(x: ArrayLike, precision: int | None) -> np.ndarray:
    if precision is None:
        arr = np.asarray(x, dtype=float)
        if arr.ndim == 0 or np.isnan(arr).any():  # the public function's scalar and its message
            return log1mexp(arr)
        arr = np.minimum(arr, 0.0)  # its switch, without its input checks (a hot path of the searches)
        with np.errstate(divide="ignore"):
            return np.where(arr > -_LOG2, np.log(-np.expm1(arr)), np.log1p(-np.exp(arr)))
    return np.asarray(_MP_LOG1MEXP(np.asarray(x, dtype=object)), dtype=object)


class ClosedFormStack:
    r"""Several laws of one closed-form family on :math:`\mathbb N^*` (one row each): their float64 functionals at
    pairs ``(law g[k], a[k])`` in one pass of array operations.  A subclass gives :math:`\log P(m > a)`
    (``_log_gt``) and :math:`\log E[\sqrt m\,\mathbb 1\{m \le a\}]` (``_log_s``) with the operations, point
    by point, of one law's own float path (a law's float path is its stack of one: the values are the same
    bit for bit); :math:`\log P(m \ge a)` follows as one law computes it, from the smaller of the sf and the
    cdf at :math:`a - 1`.

    .. math:: \log P(m \ge a) = \log P(m > a - 1) \ \text{or}\ \log(1 - P(m \le a - 1))
    """

    names = ("log_prob_gt", "log_prob_ge", "log_partial_sqrt_mean", "floor_support")

    def query(self, name: str, g: np.ndarray, a: np.ndarray) -> np.ndarray:
        """``laws[g[k]].<name>(a[k])`` in float64, ``name`` in :attr:`names`."""
        a = np.asarray(a, dtype=np.int64)
        if name == "floor_support":  # the support is every positive integer
            return np.maximum(a, 0)
        if name == "log_prob_gt":
            return self._log_gt(g, a)
        if name == "log_partial_sqrt_mean":
            return self._log_s(g, a)
        b = a - 1  # log P(m >= a)
        ls = self._log_gt(g, b)  # where b >= 1 also the cdf's complement, log P(m <= b) = log(1 - P(m > b))
        lc = np.where(b < 1, -np.inf, _log1mexp(ls, None))
        return np.where(ls < LOG_HALF, ls, _log1mexp(lc, None))

    def _log_gt(self, g: np.ndarray, a: np.ndarray) -> np.ndarray:  # pragma: no cover - every stack defines it
        raise NotImplementedError

    def _log_s(self, g: np.ndarray, a: np.ndarray) -> np.ndarray:  # pragma: no cover - every stack defines it
        raise NotImplementedError


def _mp_log1mexp_scalar(v: Any) -> Any:
    if v >= 0:
        return mpmath.ninf
    if v > -mpmath.log(2):
        return mpmath.log(-mpmath.expm1(v))
    return mpmath.log1p(-mpmath.exp(v))


_MP_LOG1MEXP = np.frompyfunc(_mp_log1mexp_scalar, 1, 1)


MAX_QUERY = 10**7
"""Most entries of one query's array (``a`` or ``k``), checked before any copy: 80 MB of int64 and seconds of
work at most (a broadcast view of 10**10 entries costs nothing to pass and 75 GB to materialise)."""


def _as_int_array(a: ArrayLike, name: str = "a") -> np.ndarray:
    """``a`` as an int64 array: integers (no booleans) of absolute value at most 2**62, at most
    :data:`MAX_QUERY` of them, else ValueError."""
    size = np.size(a) if isinstance(a, np.ndarray) else None
    if size is not None and size > MAX_QUERY:
        raise ValueError(f"{name} must hold at most {MAX_QUERY:,} entries (the limit of one query, checked before any copy), "
                         f"got {size:,}")
    if isinstance(a, np.ndarray) and a.dtype == np.int64 and (a.size == 0 or np.abs(a).max() <= MAX_SIZE):
        return a  # the searches' own arrays: no message to build
    bad = f"{name} must be an integer or an array of integers of absolute value <= 2**62, got {format_value(a)}"
    try:
        arr = np.asarray(a)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(bad) from None
    if arr.size > MAX_QUERY:
        raise ValueError(f"{name} must hold at most {MAX_QUERY:,} entries (the limit of one query), got {arr.size:,}")
    if arr.dtype == object:
        flat = arr.ravel().tolist()
        if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in flat):
            raise ValueError(bad)
        if any(isinstance(v, numbers.Integral) and abs(int(v)) > MAX_SIZE for v in flat):
            raise ValueError(bad)
        try:
            arr = arr.astype(float)
        except OverflowError:
            raise ValueError(bad) from None
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.complexfloating):
        raise ValueError(bad)
    if np.issubdtype(arr.dtype, np.floating):
        if np.any(~np.isfinite(arr)) or np.any(arr != np.round(arr)) or np.any(np.abs(arr) > MAX_SIZE):
            raise ValueError(bad)
    elif np.issubdtype(arr.dtype, np.unsignedinteger) and np.any(arr > MAX_SIZE):
        raise ValueError(bad)
    elif np.issubdtype(arr.dtype, np.signedinteger) and np.any((arr > MAX_SIZE) | (arr < -MAX_SIZE)):
        raise ValueError(bad)
    return arr.astype(np.int64)


def _check_size(name: str, value: object, minimum: int = 1) -> int:
    """An integer dataset size (or law parameter) in ``[minimum, MAX_SIZE]``, else ValueError naming it."""
    v = check_integer(name, value, minimum=minimum)
    if v > MAX_SIZE:
        raise ValueError(f"{name} must be an integer <= 2**62 (exact int64 arithmetic), got {value!r}")
    return v


