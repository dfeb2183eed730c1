r"""The universal constants :math:`c_1, \dots, c_5` of DAME's Theorems 1 and 2, kept exact.

The presets and every constant written by :meth:`Constants.describe` have the form
:math:`q\,e^{k}` with :math:`q` rational and :math:`k` an integer; :class:`ExactConstant` holds that
form without sympy, so evaluating a bound never imports it.  Any other exact number (a sympy
expression such as :math:`\pi`) is kept as given and evaluated by sympy.
"""

from __future__ import annotations

import decimal
import math
import numbers
import re
import sys
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy
from ..numerics import backend, format_value, warn_assumption

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # a constant's mpmath value only: the float path never imports it

__all__ = ["Constants", "ExactConstant"]

_MAX_EXPONENT = 9999  # |k| of a constant q e^k: e^9999 is far past float64 and every preset


@dataclass(frozen=True, eq=False)
class ExactConstant:
    r"""An exact positive constant :math:`q\,e^{k}`: ``q`` a positive rational, ``k`` an integer.

    .. math:: c = q\,e^{k},\qquad q \in \mathbb{Q}_{>0},\ k \in \mathbb{Z}

    Source: Pla et al. (2024), (S31): :math:`c_1 = e^{-9}/16` is of this form, as are the other
    constants of (S31) and (S146) (with :math:`k = 0`).

    Printed as sympy prints it for the presets (``exp(-9)/16``, ``1737/2``) and always in a form
    :meth:`Constants.from_description` reads back; converted to sympy by ``sympy.sympify``.

    Examples
    --------
    >>> c = ExactConstant(Fraction(1, 16), -9)
    >>> c
    exp(-9)/16
    >>> float(c) == math.exp(-9) / 16
    True
    >>> ExactConstant(Fraction(3), 0) == 3
    True
    """

    q: Fraction
    k: int

    def __post_init__(self) -> None:
        if not isinstance(self.q, Fraction) or self.q <= 0:
            raise ValueError(f"q must be a positive Fraction, got {format_value(self.q)}")
        if not isinstance(self.k, int) or isinstance(self.k, bool) or abs(self.k) > _MAX_EXPONENT:
            raise ValueError(f"k must be an integer of at most {_MAX_EXPONENT} in absolute value, got "
                             f"{format_value(self.k)}")

    def __float__(self) -> float:
        """The nearest float64 (``inf`` past its range): rounded once, from 40 correct digits."""
        return self._float

    @cached_property
    def _float(self) -> float:
        if self.k == 0:
            try:
                return float(self.q)
            except OverflowError:
                return math.inf
        ctx = decimal.Context(prec=40)  # e^k correctly rounded to 40 digits (the decimal standard), no mpmath
        value = ctx.multiply(ctx.exp(decimal.Decimal(self.k)), ctx.divide(self.q.numerator, self.q.denominator))
        return float(value)

    def mpf(self, precision: int) -> Any:
        """The value in mpmath: evaluated at ``precision`` + 10 digits, then rounded to the context's precision."""
        with mpmath.workdps(precision + 10):
            value = mpmath.mpf(self.q.numerator) / self.q.denominator * mpmath.exp(self.k)
        return +value

    def _sympy_(self) -> Any:
        import sympy as sp

        return sp.Rational(self.q.numerator, self.q.denominator) * sp.exp(self.k)

    def __str__(self) -> str:
        q = str(self.q)
        if self.k == 0:
            return q
        e = f"exp({self.k})"
        if self.q == 1:
            return e
        if self.q.numerator == 1:
            return f"{e}/{self.q.denominator}"
        return f"{e}*{q}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ExactConstant):
            return (self.q, self.k) == (other.q, other.k)
        if self.k == 0 and isinstance(other, numbers.Rational):
            return self.q == other
        sp = sys.modules.get("sympy")
        if sp is not None and isinstance(other, sp.Expr):
            return bool(self._sympy_() == other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.q) if self.k == 0 else hash((self.q, self.k))


def _exact(key: str, raw: Any) -> Any:
    """A constant as given (number of any kind) → :class:`ExactConstant`, or a sympy number it cannot hold."""
    bad = ValueError(f"{key} must be a positive finite number, got {raw!r}")
    if isinstance(raw, ExactConstant):
        return raw
    if isinstance(raw, (bool, np.bool_)):
        raise bad
    sp = sys.modules.get("sympy")  # a sympy number can only come from a caller who imported sympy
    if sp is not None and isinstance(raw, sp.Basic):
        if not (isinstance(raw, sp.Expr) and raw.is_number and not raw.free_symbols):
            raise bad
        coeff, rest = raw.as_coeff_Mul()
        if coeff.is_Rational and (rest == 1 or (rest.func == sp.exp and rest.args[0].is_Integer)):
            k = 0 if rest == 1 else int(rest.args[0])
            if coeff > 0 and abs(k) <= _MAX_EXPONENT:
                return ExactConstant(Fraction(int(coeff.p), int(coeff.q)), k)
        try:
            num = float(raw)
        except (TypeError, ValueError, OverflowError):
            raise bad from None
        if not (math.isfinite(num) and num > 0):
            raise bad
        return raw
    if isinstance(raw, (numbers.Rational, np.integer)):
        q = Fraction(int(raw)) if isinstance(raw, np.integer) else Fraction(int(raw.numerator), int(raw.denominator))
    elif isinstance(raw, (numbers.Real, np.floating)):
        num = float(raw)
        if not math.isfinite(num):
            raise bad
        q = Fraction(num)  # the float's exact binary value
    else:
        raise bad
    if q <= 0:
        raise bad
    return ExactConstant(q, 0)


@dataclass(frozen=True)
class Constants:
    r"""The universal constants :math:`c_1, \dots, c_5` of Theorems 1 and 2.

    Values are kept exact (:class:`ExactConstant`, :math:`q\,e^k`; any other exact sympy number as
    given), so the mpmath path evaluates e.g. :math:`c_1 = e^{-9}/16` to any precision.  Presets:
    ``Constants.paper()`` — :math:`(e^{-9}/16, 24, 1570, 8, 868.5)` from (S31) and (S146) — and
    ``Constants.unit()`` (all 1, what the paper's Figure 1a appears to use).

    .. math:: (c_1, c_2, c_3, c_4, c_5)_{\text{paper}} = (e^{-9}/16,\ 24,\ 1570,\ 8,\ 1737/2)

    Source: Pla et al. (2024), Theorem 1 with (S31) and Theorem 2 with (S146).

    Examples
    --------
    >>> Constants.paper().floats[1:]
    (24.0, 1570.0, 8.0, 868.5)
    >>> Constants.paper().c1
    exp(-9)/16
    >>> Constants(1, 1, 1, 0, 1)
    Traceback (most recent call last):
    ...
    ValueError: c4 must be a positive finite number, got 0
    """

    c1: Any
    c2: Any
    c3: Any
    c4: Any
    c5: Any
    name: str = "custom"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ValueError(f"name must be a string (a label of the constants), got {format_value(self.name)}")
        for key in ("c1", "c2", "c3", "c4", "c5"):
            # numbers only (int, float, Fraction, numpy or sympy numbers): a string is refused
            value = _exact(key, getattr(self, key))
            if not (math.isfinite(float(value)) and float(value) > 0):
                raise ValueError(f"{key} must be a positive finite number, got {getattr(self, key)!r}")
            object.__setattr__(self, key, value)
        if float(self.c4) < 1:
            warn_assumption(f"c4 = {float(self.c4):g} < 1: ln(c4·(√(m̃nα²) ∨ 1)) may be negative")

    @classmethod
    def paper(cls) -> "Constants":
        """Explicit constants of the proofs: (S31) for c1, c2; (S146) for c3, c4, c5."""
        return _preset("paper")

    @classmethod
    def unit(cls) -> "Constants":
        """All constants equal to 1."""
        return _preset("unit")

    @cached_property
    def floats(self) -> tuple[float, ...]:
        """``(c1, …, c5)`` as float64."""
        return tuple(float(c) for c in (self.c1, self.c2, self.c3, self.c4, self.c5))

    def values(self, precision: int | None) -> tuple:
        """``(c1, …, c5)`` on the requested path (float64, or mpf at the current precision)."""
        if precision is None:
            return self.floats
        return tuple(_mpf(c, precision) for c in (self.c1, self.c2, self.c3, self.c4, self.c5))

    @classmethod
    def from_description(cls, description: dict) -> "Constants":
        r"""The constants back from :meth:`describe`'s plain data, parsed without evaluating code.

        Each value is a rational (``"24"``, ``"1737/2"``, ``"0.5"``) or a rational times
        :math:`e^{k}` for an integer :math:`k` (``"exp(-9)/16"``, the form of :math:`c_1`);
        anything else is refused.

        .. math:: c_i \in \mathbb{Q} \cup \mathbb{Q}\,e^{\mathbb{Z}}

        Source: Pla et al. (2024), (S31) and (S146) (the forms the presets take).

        Examples
        --------
        >>> Constants.from_description(Constants.paper().describe()) == Constants.paper()
        True
        """
        if not isinstance(description, dict):
            raise ValueError(f"description must be a dict as written by Constants.describe, got {description!r}")
        vals = [_parse_constant(f"c{i}", description.get(f"c{i}")) for i in range(1, 6)]
        c1, c2, c3, c4, c5 = vals
        return cls(c1, c2, c3, c4, c5, name=str(description.get("name", "custom")))

    @classmethod
    def resolve(cls, constants: "Constants | str") -> "Constants":
        r"""A preset by name (``"paper"``, ``"unit"``) or a :class:`Constants` as given.

        .. math:: \text{"paper"} \mapsto (e^{-9}/16, 24, 1570, 8, 868.5),\qquad \text{"unit"} \mapsto (1, 1, 1, 1, 1)

        Source: Pla et al. (2024), (S31) and (S146) (the paper preset).

        Examples
        --------
        >>> Constants.resolve("unit") == Constants.unit()
        True
        """
        if type(constants) is str:  # a preset's name: one dictionary lookup (the presets are built once)
            preset = _PRESETS.get(constants)
            if preset is not None:
                return preset
        if isinstance(constants, Constants):
            return constants
        if isinstance(constants, str) and constants in ("paper", "unit"):
            return cls.paper() if constants == "paper" else cls.unit()
        raise ValueError(f"constants must be 'paper', 'unit' or a Constants instance, got {constants!r}")

    def describe(self) -> dict:
        """The constants as plain data (exact forms as strings), for metadata files."""
        return {"name": self.name, **{k: str(getattr(self, k)) for k in ("c1", "c2", "c3", "c4", "c5")}}


@lru_cache(maxsize=None)
def _preset(name: str) -> Constants:
    """The presets, built once (frozen: one instance serves every call)."""
    if name == "paper":
        preset = Constants(ExactConstant(Fraction(1, 16), -9), 24, 1570, 8, Fraction(1737, 2), name="paper")
    else:
        preset = Constants(1, 1, 1, 1, 1, name="unit")
    _PRESETS[name] = preset
    return preset


_PRESETS: dict[str, Constants] = {}  # the presets built so far, by name (:meth:`Constants.resolve` reads them)


_LOG_FLOATS: dict[int, tuple[tuple[float, ...], tuple[Any, ...], tuple[float, ...]]] = {}


def _log_floats(c_vals: tuple[float, ...], plain: bool = False) -> tuple[Any, ...]:
    """``log c_i`` of float64 constants (``Constants.floats``): ``np.log`` of each double, as the float backend
    computes it (numpy scalars; ``plain``: the same doubles as Python floats), kept per tuple.

    ``Constants.floats`` is one tuple per instance: looked up by identity, the tuple held so that its identity is not
    reused.
    """
    hit = _LOG_FLOATS.get(id(c_vals))
    if hit is None or hit[0] is not c_vals:
        log = backend(None).log
        logs = tuple(log(v) for v in c_vals)
        hit = (c_vals, logs, tuple(float(v) for v in logs))
        if type(c_vals) is tuple:  # immutable: its logs kept
            if len(_LOG_FLOATS) >= 64:  # many custom constants: forget the old ones
                _LOG_FLOATS.clear()
            _LOG_FLOATS[id(c_vals)] = hit
    return hit[2] if plain else hit[1]


def _mpf(c: Any, precision: int) -> Any:
    """One constant in mpmath at ``precision`` digits."""
    if isinstance(c, ExactConstant):
        return c.mpf(precision)
    import sympy as sp  # only for a sympy constant the caller passed (sympy is imported already)

    return mpmath.mpf(str(sp.N(c, precision + 10)))


_CONSTANT_FORM = re.compile(r"^(?:exp\((-?\d{1,4})\)(?:\*|/(?=\d)|$))?(\d+(?:\.\d+)?(?:/\d+)?)?$")


def _parse_constant(name: str, text: Any) -> ExactConstant:
    """``"24"``, ``"1737/2"``, ``"exp(-9)/16"``, ``"exp(1)"`` → an :class:`ExactConstant`; no evaluation of code."""
    m = _CONSTANT_FORM.match(text.replace(" ", "")) if isinstance(text, str) and len(text) <= 60 else None
    if m is None or (m.group(1) is None and m.group(2) is None):
        raise ValueError(f"{name} must be a rational or a rational times exp(integer), got {text!r}")
    k = int(m.group(1)) if m.group(1) is not None else 0
    if m.group(2) is None:
        return ExactConstant(Fraction(1), k)
    try:
        q = Fraction(m.group(2))
    except ZeroDivisionError:
        raise ValueError(f"{name} must be a rational or a rational times exp(integer), got {text!r}") from None
    if q == 0:
        raise ValueError(f"{name} must be positive, got {text!r}")
    divided = m.group(1) is not None and text.replace(" ", "")[text.replace(" ", "").index(")") + 1:].startswith("/")
    return ExactConstant(1 / q if divided else q, k)
