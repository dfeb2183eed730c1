"""Exact integer searches on arrays: distinct values and the last point of a monotone predicate."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike

from ._checks import MAX_BRACKET, _as_float, _numeric_array, _short, check_bool, check_integer, format_value

# --------------------------------------------------------------------------- integer search


def _bracket_end(name: str, v: Any) -> np.ndarray:
    """An integer bracket end of :func:`last_true` as int64, within ±:data:`MAX_BRACKET` so that midpoints cannot wrap."""
    if np.ndim(v) == 0:
        return np.asarray(check_integer(name, v, minimum=-MAX_BRACKET, maximum=MAX_BRACKET), dtype=np.int64)
    arr = _numeric_array(name, v, "an integer or an array of integers")
    items = arr.ravel().tolist()
    if not all(math.isfinite(_as_float(x)) and x == int(x) and abs(int(x)) <= MAX_BRACKET for x in items):
        raise ValueError(f"{name} must hold integers in [-2**62, 2**62], got {format_value(v)}")
    return np.array([int(x) for x in items], dtype=np.int64).reshape(arr.shape)


def sorted_unique(a: ArrayLike, *, return_counts: bool = False) -> Any:
    r"""The distinct values of a 1-d numeric array in increasing order (and how often each occurs).

    What ``np.unique`` returns, by one sort and a comparison of neighbours: for integer arrays
    numpy's hashing ``unique`` costs 4-30x more CPU at 10^3-10^6 entries (numpy 2.4, measured
    by ``python benchmarks/bench_unique.py``).

    .. math:: u = \{a_i\}\ \text{sorted},\qquad c_j = \#\{i : a_i = u_j\}

    Source: a sort followed by run-length encoding (Knuth, TAOCP vol. 3, §5.2).

    Examples
    --------
    >>> sorted_unique(np.array([5, 1, 5, 3])).tolist()
    [1, 3, 5]
    >>> [v.tolist() for v in sorted_unique(np.array([5, 1, 5, 3]), return_counts=True)]
    [[1, 3, 5], [1, 1, 2]]
    """
    return_counts = check_bool("return_counts", return_counts)
    arr = np.asarray(a) if not isinstance(a, (str, bytes, dict, set)) else np.asarray(None)
    ints = arr.dtype.kind in "iu" or (arr.dtype == object and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in arr.flat))
    finite = arr.dtype.kind == "f" and bool(np.all(np.isfinite(arr)))
    if arr.ndim != 1 or not (ints or finite):
        raise ValueError(f"a must be a 1-D array of integers or finite floats, got {_short(a)}")
    arr = np.sort(arr)
    head = np.empty(arr.size, dtype=bool)
    head[:1] = True
    np.not_equal(arr[1:], arr[:-1], out=head[1:])
    values = arr[head]
    if not return_counts:
        return values
    return values, np.diff(np.append(np.flatnonzero(head), arr.size))


def last_true(pred: Callable[[np.ndarray], np.ndarray], lo: Any, hi: Any) -> np.ndarray:
    r"""Largest ``a`` in ``[lo, hi]`` with ``pred`` true on all of ``[lo, a]``, elementwise.

    .. math:: a^* = \max\{a \in \{lo - 1, \dots, hi\} : \mathrm{pred}(b) \text{ for all } lo \le b \le a\}

    The exact integer search behind the integer optima of Pla et al. (2024), Theorems 1–2
    (e.g. :math:`\tilde m`): a bisection over integers, never over floats.

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
    if not callable(pred):
        raise ValueError(f"pred must be a function of an integer array, got {format_value(pred)}")
    lo, hi = (_bracket_end(name, v) for name, v in (("lo", lo), ("hi", hi)))
    if lo.shape != hi.shape:
        raise ValueError(f"lo and hi must have one shape, got {lo.shape} and {hi.shape}")
    if np.any(hi < lo):
        raise ValueError(f"hi must be >= lo everywhere (an empty bracket), got lo = {format_value(lo)}, hi = {format_value(hi)}")
    good = lo - 1  # invariant: pred true on [lo, good]; answer in [good, hi]
    top = hi.copy()
    while np.any(good < top):
        mid = good + (top - good + 1) // 2
        active = good < top
        ok = pred(np.where(active, mid, lo))
        good = np.where(active & ok, mid, good)
        top = np.where(active & ~ok, mid - 1, top)
    return good


# --------------------------------------------------------------------------- inversion by a guide table


GUIDE_MAX = 2**26
"""Largest number of cells :func:`guide_table` builds in one call (its rows times ``G``): 512 MB of entries."""


def guide_table(F: ArrayLike, G: int) -> np.ndarray:
    r"""A guide table of ``G`` cells for inverting each row of cdf values ``F``, marking the cells that need no check.

    ``F`` holds non-decreasing rows (1-D: one row) that reach ``inf``; cell :math:`g` covers the uniforms
    :math:`g/G \le u < (g+1)/G` (``G`` a power of 2, so :math:`\lfloor uG \rfloor` is exact).  Its entry is
    :math:`i_g`, the first :math:`i` with :math:`F_i > g/G`, where :math:`F_{i_g} \ge (g+1)/G` (every
    :math:`u` of the cell inverts to :math:`i_g`), else :math:`-1 - i_g` (its draws step up from :math:`i_g`).

    .. math:: F^{-1}(u) = \min\{i : F_i > u\}, \qquad i_g = \min\{i : F_i > g/G\}

    At most :data:`GUIDE_MAX` cells are built in one call (rows times ``G``).

    Source: Chen and Asau (1974), the guide table of inversion by a table.

    Examples
    --------
    >>> guide_table([0.25, 0.5, np.inf], 4).tolist()  # cells [0, 1/4), [1/4, 1/2), [1/2, 3/4), [3/4, 1)
    [0, 1, 2, 2]
    >>> guide_table([0.3, np.inf], 2).tolist()  # cell 0 holds F's step at 0.3: draws there step up from entry 0
    [-1, 1]
    """
    G = check_integer("G", G, minimum=1, maximum=GUIDE_MAX, why="the cells of one table (memory)")
    if G & (G - 1):
        raise ValueError(f"G must be a power of 2 (the cells' ends exact), got {G}")
    try:
        arr = np.asarray(F, dtype=float)
    except (TypeError, ValueError, OverflowError) as err:
        raise ValueError(f"F must be an array of real cdf values ({err})") from None
    if arr.ndim not in (1, 2) or not arr.size or not np.all(arr[..., -1] == np.inf):
        raise ValueError("F must be a 1-d or 2-d array of cdf rows, each ending with inf")
    rows = np.atleast_2d(arr)
    R = rows.shape[0]
    if R * G > GUIDE_MAX:
        raise ValueError(f"F must have at most {GUIDE_MAX} cells in all, its rows times G (memory), "
                         f"got {R} rows of {G}")
    cell = np.minimum(np.ceil(rows * G), G).astype(np.intp)  # the first cell g with g / G >= F_i (exact), G for inf
    counts = np.bincount((np.arange(R)[:, None] * (G + 1) + cell).ravel(), minlength=R * (G + 1))
    start = np.cumsum(counts.reshape(R, G + 1), axis=1)[:, :G]  # entries with F_i <= g / G: the first above it
    sure = np.take_along_axis(rows, start, axis=1) >= np.arange(1, G + 1) / G
    out = np.where(sure, start, -1 - start)
    return out[0] if arr.ndim == 1 else out
