"""Checks of the estimators' inputs: each raises ``ValueError`` naming the parameter."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..numerics import check_array, format_value

__all__ = ["reals", "whole", "same_shape", "of_type", "split", "extremes"]

MAX_EXACT = 2**53  # integers a float64 holds exactly
MAX_INT64_COUNT = 2**62  # users or samples numpy draws binomially (int64), with room for sums of two halves


def extremes(values: np.ndarray) -> tuple[Any, Any]:
    """``(values.min(), values.max())`` of a non-empty array; one entry read where every stride is 0 (a broadcast)."""
    if not any(values.strides):
        v = values.flat[0]
        return v, v
    return values.min(), values.max()


def reals(name: str, values: ArrayLike, *, ndim: int | None = None, low: float | None = None, high: float | None = None,
          allow_empty: bool = False) -> np.ndarray:
    """``values`` as a finite float64 array (of ``ndim`` dimensions if given) within ``[low, high]``."""
    if isinstance(values, np.ndarray) and values.dtype in (np.float64, np.int64) and values.size \
            and (ndim is None or values.ndim == ndim):  # the engine's arrays: two reductions
        lo, hi = extremes(values)
        if np.isfinite(lo) and np.isfinite(hi) and (low is None or lo >= low) and (high is None or hi <= high):
            return values if values.dtype == np.float64 else values.astype(np.float64)
    try:
        d = np.ndim(values) if ndim is None else ndim
    except (ValueError, TypeError):
        raise ValueError(f"{name} must be an array of real numbers, got {format_value(values)}") from None
    arr = check_array(name, values, ndim=d, low=low, allow_empty=allow_empty)
    if high is not None and np.any(arr > high):
        raise ValueError(f"{name} must hold numbers <= {high:g}, got {format_value(values)}")
    return arr


def whole(name: str, values: ArrayLike, *, ndim: int | None = None, low: int = 0) -> np.ndarray:
    """``values`` as an int64 array of whole numbers in ``[low, 2**53]``."""
    if isinstance(values, np.ndarray) and values.dtype == np.int64 and values.size \
            and (ndim is None or values.ndim == ndim):
        lo, hi = extremes(values)
        if lo >= low and hi <= MAX_EXACT:
            return values
    arr = reals(name, values, ndim=ndim, low=low, high=MAX_EXACT, allow_empty=True)
    if np.any(arr != np.floor(arr)):
        raise ValueError(f"{name} must hold whole numbers, got {format_value(values)}")
    return arr.astype(np.int64)


def same_shape(name: str, arr: np.ndarray, shape: tuple) -> np.ndarray:
    """``arr`` if its shape is ``shape``."""
    if arr.shape != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}, got {arr.shape}")
    return arr


def of_type(name: str, value: Any, cls: type) -> Any:
    """``value`` if it is a ``cls``."""
    if not isinstance(value, cls):
        raise ValueError(f"{name} must be a {cls.__name__}, got {format_value(value)}")
    return value


def split(name: str, values: ArrayLike, *, ndim: int, integer: bool = False, **bounds: Any) -> np.ndarray:
    """``values`` for a function that only splits it between steps which check their own part.

    A non-empty float64 (or int64) ndarray of ``ndim`` dimensions passes unread: each part is
    checked by the step that receives it (the parts together cover it), so its entries are read
    once, not twice.  Anything else is checked and converted here (:func:`whole` if ``integer``,
    else :func:`reals`, with ``bounds``).
    """
    if isinstance(values, np.ndarray) and values.ndim == ndim and values.size \
            and values.dtype == (np.int64 if integer else np.float64):
        return values
    return whole(name, values, ndim=ndim, **bounds) if integer else reals(name, values, ndim=ndim, **bounds)
