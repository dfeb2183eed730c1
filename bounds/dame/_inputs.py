r"""DAME's inputs: the privacy budget :math:`x = n\alpha^2`, hypothesis H3, the size law, and the
result type every bound shares.

Source: Pla et al. (2024), Theorems 1–2 (the bounds depend on ``n`` and ``alpha`` through
:math:`n\alpha^2` only) and hypothesis H3 (:math:`\alpha \le 22/35`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike

from .._lazy import lazy
from ..numerics import (
    check_bool,
    check_integer,
    check_positive,
    format_value,
    warn_assumption,
)
from ..sizes import SizeLaw
from ._constants import Constants

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # the float path never imports it


H3_ALPHA_MAX = Fraction(22, 35)
"""Hypothesis H3 of Pla et al. (2024): the level ``alpha`` is at most 22/35 (exact)."""
_TIE = 1e-9  # float comparisons closer than this are re-decided in mpmath
_TIE_DPS = 60
# math.exp of a log below this is 0.0 in float64 (log of the smallest subnormal, 5e-324, is -744.4)
_LOG_UNDERFLOW = -745.2
_FLOAT_MAX = float(np.finfo(float).max)
MAX_POINTS = 10**5
"""Largest number of ``n_alpha2`` values (and of :func:`~bounds.dame.grid`'s ``params``) in one call: each costs
a few searches (O(log) evaluations of the law each), so the limit keeps a call to about a minute."""


@dataclass(frozen=True)
class PrivacyBudget:
    r"""The privacy budget of the bounds: ``n`` users at level ``alpha``, or only :math:`x = n\alpha^2`.

    Source: Pla et al. (2024), Theorems 1–2 (the bounds depend on ``n`` and ``alpha`` through
    :math:`n\alpha^2` only).
    """

    n: int | None
    alpha: float | None
    n_alpha2: float

    def exact(self) -> Any:
        """``x`` in mpmath at the current precision (exact in the given floats)."""
        if self.n is None:
            return mpmath.mpf(self.n_alpha2)
        return self.n * mpmath.mpf(self.alpha) ** 2


def check_h3(alpha: float) -> float:
    r"""Warn (once, at the caller) when hypothesis H3, :math:`\alpha \le 22/35`, fails; return ``alpha``.

    H3 is the assumption of DAME's Theorem 2 and Algorithm 1 (the localisation step); the
    other estimators do not use it.

    .. math:: \alpha \le \frac{22}{35}

    Source: Pla et al. (2024), §4.1, hypothesis H3.

    Examples
    --------
    >>> check_h3(0.5)
    0.5
    """
    alpha = check_positive("alpha", alpha)
    if alpha > float(H3_ALPHA_MAX):
        warn_assumption(f"alpha = {alpha:g} > 22/35: hypothesis H3 of the DAME paper fails")
    return alpha


def privacy_budget(n: int | None = None, alpha: float | None = None, n_alpha2: float | None = None, *,
                   h3: bool = True) -> PrivacyBudget:
    r"""The validated budget: ``n`` users (``n >= 2``) at level ``alpha > 0``, or ``n_alpha2`` alone.

    Gives exactly one of ``(n, alpha)`` and ``n_alpha2``.  With ``h3`` (DAME's localisation uses
    it), warns once at the caller when hypothesis H3, :math:`\alpha \le 22/35`, fails.

    .. math:: x = n\alpha^2 \in (0, \infty)

    Source: Pla et al. (2024), Theorems 1–2 and hypothesis H3 (§4.1).

    Examples
    --------
    >>> privacy_budget(100, 0.5).n_alpha2
    25.0
    >>> privacy_budget(n_alpha2=1e4).n is None
    True
    """
    if n is None and alpha is None and type(n_alpha2) is float and 0.0 < n_alpha2 <= _FLOAT_MAX:
        if h3 is True or h3 is False:  # a positive finite float alone: what the checks below return
            return _result(PrivacyBudget, n=None, alpha=None, n_alpha2=n_alpha2)
    h3 = check_bool("h3", h3)
    if n_alpha2 is not None:
        if n is not None or alpha is not None:
            raise ValueError("give either (n, alpha) or n_alpha2, not both")
        return _result(PrivacyBudget, n=None, alpha=None, n_alpha2=check_positive("n_alpha2", n_alpha2))
    if n is None or alpha is None:
        raise ValueError("give both n and alpha, or n_alpha2")
    n = check_integer("n", n, minimum=2)
    alpha = check_positive("alpha", alpha)
    try:
        x = n * alpha * alpha
    except OverflowError:  # n past the float range (10**400): the product exactly, if it is a float at all
        try:
            x = float(Fraction(n) * Fraction(alpha) ** 2)
        except OverflowError:
            x = math.inf
    if not (math.isfinite(x) and x > 0):
        raise ValueError(f"n * alpha**2 must be a positive number below the float range (1.8e308); "
                         f"n = {format_value(n)}, alpha = {alpha!r} give {x!r}")
    if h3:
        check_h3(alpha)
    return _result(PrivacyBudget, n=n, alpha=alpha, n_alpha2=x)


def _n_alpha2_array(n_alpha2: ArrayLike) -> np.ndarray:
    """``n_alpha2`` as a non-empty 1-D float array of positive finite numbers (ValueError otherwise)."""
    if isinstance(n_alpha2, np.ndarray) and n_alpha2.size > MAX_POINTS:  # before any copy (a broadcast view is free)
        raise ValueError(f"n_alpha2 must hold at most {MAX_POINTS} values (dame.MAX_POINTS, the work limit of one call), "
                         f"got {n_alpha2.size}")
    bad = f"n_alpha2 must be a positive number or a non-empty 1-D array of them, got {format_value(n_alpha2)}"
    try:
        shaped = np.asarray(n_alpha2, dtype=object)
    except (TypeError, ValueError):
        raise ValueError(bad) from None
    raw = shaped.ravel()
    if shaped.ndim > 1 or raw.size == 0 or isinstance(n_alpha2, (str, bytes)):
        raise ValueError(bad)
    if raw.size > MAX_POINTS:
        raise ValueError(f"n_alpha2 must hold at most {MAX_POINTS} values (dame.MAX_POINTS, the work limit of one call), "
                         f"got {raw.size}")
    try:
        return np.array([check_positive("n_alpha2", v) for v in raw], dtype=float)
    except OverflowError:
        raise ValueError(bad) from None


def _law(sizes: object) -> SizeLaw:
    if SizeLaw in type(sizes).__mro__:  # a law of the package's classes: no abstract-class check needed
        return cast(SizeLaw, sizes)
    if not isinstance(sizes, SizeLaw):
        raise ValueError(f"sizes must be a law from bounds.sizes, got {sizes!r}")
    return sizes


_B = TypeVar("_B")


def _result(cls: type[_B], **fields: Any) -> _B:
    """``cls(**fields)`` for a frozen dataclass without ``__post_init__``, given every field in their order: the fields
    set in one step (the dataclass's ``__init__`` sets each through ``object.__setattr__``); the same object."""
    out = object.__new__(cls)
    out.__dict__.update(fields)
    return out


@dataclass(frozen=True)
class Bound:
    """A bound's ``value`` (float, or mpf when ``precision`` is set) and ``log_value``, with its inputs."""

    value: float
    log_value: float
    sizes: SizeLaw
    n_alpha2: float
    n: int | None
    alpha: float | None
    constants: Constants
    precision: int | None
