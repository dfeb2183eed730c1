r"""A verified branch-and-bound: an inequality proved over a parameter box by ball arithmetic.

A check states an inequality as :math:`g(p) > 0` (or :math:`\ge 0`) for every
point :math:`p` of a box :math:`B = \prod_i [l_i, u_i]`, with :math:`g` = lhs − rhs
written over ``python-flint`` arb balls.  :func:`prove` encloses :math:`g(B')` for
boxes :math:`B'` of a subdivision of :math:`B` (each coordinate a ball covering
:math:`[l_i, u_i]`): a box whose enclosure has the required sign is *proved*;
otherwise its centre is evaluated as an exact point (a ball of radius 0 at the
rational centre) and, when that enclosure has the wrong sign, the centre is a
rigorous *counterexample*; otherwise the box is bisected along its widest
coordinate (relative to the original box).  Boxes left when the budget runs out
are *undecided*.  Ball arithmetic rounds outwards, so "proved" is a proof for the
box and a counterexample is certain.

Examples
--------
>>> from flint import arb
>>> r = prove(lambda d: 3 - ((1 + d) / (1 - d)).log() / d, [(Fraction(1, 10), Fraction(1, 2))])
>>> r.proved, r.counterexample is None
(True, True)
>>> r = prove(lambda d: 2 - ((1 + d) / (1 - d)).log() / d, [(Fraction(1, 10), Fraction(1, 2))])
>>> r.proved, float(r.counterexample[0]) > 0.1
(False, True)
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

from flint import arb, ctx, fmpq

from ..numerics import check_bool, check_callable, check_integer, format_value

__all__ = ["BoxProof", "Tightest", "prove", "tightest", "ball", "point", "constant"]


@dataclass(frozen=True)
class BoxProof:
    """Outcome of :func:`prove`: ``proved`` (every box has the sign), the number of ``boxes`` proved,
    ``counterexample`` (an exact point where the sign fails, certified) or ``undecided`` (a box left
    when the budget ran out), ``worst`` (the smallest lower end of an enclosure seen on a proved box)."""

    proved: bool
    boxes: int
    counterexample: tuple[Fraction, ...] | None
    undecided: tuple[tuple[Fraction, Fraction], ...] | None
    worst: float

    @property
    def status(self) -> str:
        """``holds``, ``fails`` (a certified counterexample) or ``inconclusive``."""
        return "holds" if self.proved else "fails" if self.counterexample is not None else "inconclusive"

    def evidence(self, domain: str) -> dict:
        """The evidence a check reports: the domain covered and what was proved or found."""
        out: dict = {"domain": domain, "boxes_proved": self.boxes, "min_lower_enclosure": self.worst}
        if self.counterexample is not None:
            out["counterexample"] = [_float(v) for v in self.counterexample]
        if self.undecided is not None:
            out["undecided_box"] = [[_float(a), _float(b)] for a, b in self.undecided]
        return out


def _float(q: Fraction) -> float:
    """``q`` as a float, ±inf past the float range (a box may hold a rational of thousands of digits)."""
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def _rational(name: str, v: object) -> Fraction:
    """``v`` as an exact Fraction: an int, a rational (Fraction, numpy integer) or a finite float (its exact
    binary value); ValueError naming ``name`` otherwise."""
    if not isinstance(v, bool):
        if isinstance(v, numbers.Rational):
            return Fraction(int(v.numerator), int(v.denominator))
        if isinstance(v, float) and math.isfinite(v):
            return Fraction(v)
    raise ValueError(f"{name} must be an int, a Fraction or a finite float, got {format_value(v)}")


def _show(q: Fraction) -> str:
    try:
        return f"{float(q):.17g}"
    except OverflowError:
        return "a rational beyond the float range"


def _q(v: Fraction) -> fmpq:
    return fmpq(v.numerator, v.denominator)


def ball(lo: Fraction, hi: Fraction) -> arb:
    r"""An arb ball containing the interval ``[lo, hi]`` (exact rationals, ``lo <= hi``).

    .. math:: [\mathrm{lo}, \mathrm{hi}] \subseteq \{x : |x - c| \le r\}

    Source: arb ball arithmetic (Johansson, 2017).

    Examples
    --------
    >>> b = ball(Fraction(1, 3), 1)
    >>> bool(b.contains(point(Fraction(1, 3)))), bool(b.contains(1)), bool(b.contains(2))
    (True, True, False)
    """
    lo, hi = _rational("lo", lo), _rational("hi", hi)
    if lo > hi:
        raise ValueError(f"lo must be at most hi, got lo = {_show(lo)} > hi = {_show(hi)}")
    return arb(_q(lo)).union(arb(_q(hi)))


def point(v: Fraction) -> arb:
    r"""The tightest arb ball around the rational ``v`` (exact when ``v`` is dyadic).

    .. math:: v \in \{x : |x - c| \le r\},\qquad r = 0 \text{ for dyadic } v

    Source: arb ball arithmetic (Johansson, 2017).

    Examples
    --------
    >>> point(Fraction(1, 4)).rad() == 0, point(Fraction(1, 3)).rad() > 0
    (True, True)
    """
    return arb(_q(_rational("v", v)))


_MAX_BITS = 14000  # an integer of a sympy number: at most ~4200 digits (str conversions stay within Python's limit)
_MAX_LN = 23026  # every subexpression's magnitude within e^{±23026} ≈ 10^{±10000}


def _bounded(v: Any) -> bool:
    r"""Whether sympy can evaluate ``v`` in bounded time: every integer in it has at most ``_MAX_BITS`` bits and
    every subexpression (its value checked before an ``exp`` or a power is evaluated) lies within
    :math:`e^{\pm 23026}`."""
    import mpmath
    import sympy as sp

    vals: dict = {}

    def ln_abs(x: Any) -> float:
        return -math.inf if x == 0 else float(mpmath.log(abs(mpmath.mpmathify(x))))

    for node in sp.postorder_traversal(v):
        if node.is_Rational:
            if max(abs(int(node.p)).bit_length(), int(node.q).bit_length()) > _MAX_BITS:
                return False
            continue
        if not node.args or node in vals:
            continue
        if isinstance(node, sp.exp):
            a = vals.get(node.args[0], node.args[0])
            if not a.is_real or abs(float(a)) > _MAX_LN:
                return False
        elif node.is_Pow:
            b, e = (vals.get(x, x) for x in node.args)
            if b.is_real and e.is_real and b != 0 and abs(float(e)) * abs(ln_abs(b)) > _MAX_LN:
                return False
        try:
            val = sp.N(node, 15)
        except (ValueError, TypeError, ArithmeticError):
            return False
        if val.is_real and val.is_Number and abs(ln_abs(val)) > _MAX_LN:
            return False
        vals[node] = val
    return True


def constant(value: object) -> arb:
    r"""An arb ball around a number: exact for ints, Fractions and sympy rationals; otherwise (a sympy
    number such as :math:`\log(e^{-9}/16)`) sympy's 60-digit evaluation, whose error control guarantees
    the digits, widened by a relative radius of 1e-50.  Strings are refused (never parsed); so are numbers
    sympy could not evaluate in bounded time (an integer of more than 14,000 bits, or a subexpression
    beyond :math:`10^{\pm 10000}`, checked before it is evaluated).

    .. math:: \mathrm{value} \in [c - r, c + r],\qquad r = 10^{-50}|c| + 10^{-300}

    Source: arb ball arithmetic (Johansson, 2017); sympy's ``evalf`` (Meurer et al., 2017).

    Examples
    --------
    >>> import sympy as sp
    >>> bool(constant(sp.log(2)).contains(constant(sp.log(2))))
    True
    >>> constant(Fraction(1, 4)).rad() == 0
    True
    """
    import sympy as sp

    if isinstance(value, (numbers.Rational, float)) and not isinstance(value, bool):
        return point(_rational("value", value))
    v = value if isinstance(value, sp.Expr) else None
    if v is None or not v.is_number or not v.is_finite or not v.is_real:
        raise ValueError(f"value must be a rational or a finite real sympy number, got {format_value(value)}")
    if not _bounded(v):
        raise ValueError("value must be a number sympy evaluates in bounded time (integers of at most "
                         f"{_MAX_BITS} bits, every part within 10^±10000), got one beyond that")
    if v.is_Rational:
        return point(Fraction(int(v.p), int(v.q)))
    digits = sp.N(v, 60)
    with ctx.workprec(256):  # parse the 60 digits at 256 bits (77 digits), not at the context's precision
        mid = arb(str(digits))
        radius = abs(mid) * arb(10) ** -50 + arb(10) ** -300  # in arb: no float overflow for large values
        return mid + arb(0, 1) * radius


def _sign_ok(enc: arb, strict: bool) -> bool:
    return bool(enc > 0) if strict else bool(enc >= 0)


def _sign_fails(enc: arb, strict: bool) -> bool:
    return bool(enc <= 0) if strict else bool(enc < 0)


def prove(
    g: Callable[..., arb], box: Sequence[tuple[Fraction | int, Fraction | int]], *, strict: bool = True,
    max_boxes: int = 20000, precision: int = 128,
) -> BoxProof:
    r"""Prove :math:`g(p) > 0` (``strict``) or :math:`g(p) \ge 0` for every ``p`` in ``box``.

    ``g`` takes one arb ball per coordinate and returns an arb enclosure of lhs − rhs;
    ``box`` lists ``(lo, hi)`` per coordinate (rationals or ints).  Depth-first
    bisection, at most ``max_boxes`` enclosures, ``precision`` bits.

    .. math:: \forall p \in B:\ g(p) > 0 \iff \text{every box of a subdivision of } B \text{ has } \inf g(B') > 0

    Source: the standard interval branch-and-bound (Moore, Kearfott and Cloud, 2009, ch. 5),
    with arb balls (Johansson, 2017) as the enclosure.

    Examples
    --------
    >>> prove(lambda x, y: (x - y) ** 2 + x, [(1, 2), (0, 1)]).status
    'holds'
    >>> prove(lambda x: x - 1, [(0, 2)]).counterexample
    (Fraction(1, 1),)
    """
    g = check_callable("g", g)
    strict = check_bool("strict", strict)
    max_boxes = check_integer("max_boxes", max_boxes, minimum=1, maximum=10**7)
    precision = check_integer("precision", precision, minimum=53, maximum=100_000)
    def bad() -> ValueError:  # formatted only when raised (a valid box may hold a number too long to print)
        try:
            shown = format_value(box)
        except ValueError:
            shown = "a box with a number too long to print"
        return ValueError(f"box must be a non-empty list of (lo, hi) rational pairs with lo <= hi, got {shown}")

    if not isinstance(box, (list, tuple)) or not box or len(box) > 64:
        raise bad()
    try:
        root = tuple((_rational("box", lo), _rational("box", hi)) for lo, hi in box)
    except (TypeError, ValueError):
        raise bad() from None
    if any(lo > hi for lo, hi in root):
        raise bad()
    widths = [max(hi - lo, Fraction(1, 10**30)) for lo, hi in root]
    old = ctx.prec
    ctx.prec = precision
    try:
        stack, proved, count, worst = [root], 0, 0, float("inf")
        while stack:
            b = stack.pop()
            count += 1
            enc = g(*(ball(lo, hi) for lo, hi in b))
            if not isinstance(enc, arb):
                raise ValueError(f"g must return an arb ball (an enclosure of lhs - rhs), got {format_value(enc)}")
            if _sign_ok(enc, strict):
                proved += 1
                worst = min(worst, float(enc.lower()))
                continue
            centre = tuple((lo + hi) / 2 for lo, hi in b)
            at = g(*(point(v) for v in centre))
            if _sign_fails(at, strict):
                return BoxProof(False, proved, centre, None, worst)
            if count >= max_boxes:
                return BoxProof(False, proved, None, b, worst)
            k = max(range(len(b)), key=lambda i: (b[i][1] - b[i][0]) / widths[i])
            lo, hi = b[k]
            mid = (lo + hi) / 2
            stack += [b[:k] + ((lo, mid),) + b[k + 1:], b[:k] + ((mid, hi),) + b[k + 1:]]
        return BoxProof(True, proved, None, None, worst)
    finally:
        ctx.prec = old


@dataclass(frozen=True)
class Tightest:
    """Outcome of :func:`tightest`: the constant lies in ``[refuted, proved]`` — the inequality is proved on the box
    at ``proved`` and refuted (a certified counterexample) at ``refuted`` — after ``steps`` bisections."""

    proved: Fraction
    refuted: Fraction
    steps: int

    def as_dict(self) -> dict:
        """The evidence a check reports: the enclosure of the tightest constant, its relative width and the
        number of bisections."""
        width = float((self.proved - self.refuted) / abs(self.proved)) if self.proved else float(self.proved - self.refuted)
        return {"tightest_constant_in": [float(self.refuted), float(self.proved)], "relative_width": width,
                "bisections": self.steps}


def tightest(g: Callable[..., arb], box: Sequence[tuple[Fraction | int, Fraction | int]], lo: Fraction | int,
             hi: Fraction | int, *, steps: int = 20, strict: bool = False, max_boxes: int = 4000) -> Tightest:
    r"""The tightest constant ``c`` for which ``g(c, *p) >= 0`` (``strict``: ``> 0``) on ``box``, by bisection on
    ``c`` between ``lo`` (refuted) and ``hi`` (proved), each midpoint proved or refuted by :func:`prove`
    (``g`` must increase in ``c``).  A midpoint left undecided is retried with 4, 16 and 64 times ``max_boxes``
    (near :math:`c^*` the boxes must be finer; later midpoints keep the raised budget); one still undecided then
    ends the search.

    .. math:: c^* = \inf\{c : \forall p \in B,\ g(c, p) \ge 0\} \in [\mathrm{refuted}, \mathrm{proved}]

    Source: bisection over the verified branch-and-bound (Moore, Kearfott and Cloud, 2009, ch. 5).

    Examples
    --------
    >>> t = tightest(lambda c, x: c - x * x, [(0, 1)], 0, 3, steps=10)
    >>> float(t.refuted) <= 1 <= float(t.proved), float(t.proved - t.refuted) <= 3 / 2**10
    (True, True)
    """
    lo_q, hi_q = _rational("lo", lo), _rational("hi", hi)
    steps = check_integer("steps", steps, minimum=0, maximum=200)
    if not lo_q < hi_q:
        raise ValueError(f"lo must be below hi, got lo = {_show(lo_q)}, hi = {_show(hi_q)}")
    g = check_callable("g", g)
    try:
        probe = g(point(hi_q), *(point(_rational("box", b[0])) for b in box))
    except (TypeError, ValueError, ArithmeticError, IndexError, AttributeError):
        probe = None
    if not isinstance(probe, arb):
        raise ValueError("g must take the constant and one arb ball per coordinate of box and return an arb ball, "
                         "got one that does not")
    done, budget = 0, max_boxes
    for _ in range(steps):
        mid = (lo_q + hi_q) / 2
        c = point(mid)
        # a midpoint close to c* needs finer boxes: retry with 4x the budget, up to 64x; the midpoints that follow
        # are closer still, so they start at the budget that was needed (no repeated wasted attempts)
        while True:
            res = prove(lambda *p: g(c, *p), box, strict=strict, max_boxes=budget)
            if res.status != "inconclusive" or budget >= 64 * max_boxes:
                break
            budget *= 4
        if res.status == "holds":
            hi_q = mid
        elif res.status == "fails":
            lo_q = mid
        else:
            break
        done += 1
    return Tightest(hi_q, lo_q, done)
