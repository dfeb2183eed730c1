r"""DAME (Pla, Richard, Vono): exact lower and upper bounds on the worst-case risk.

Source: Pla et al. (2024) — *Distribution-Aware Mean Estimation under
User-level Local Differential Privacy*, Theorem 1 (eq. (10), constants (S31)),
Theorem 2 (eqs. (11)–(12), constants (S146)), eq. (4), Corollary 3 and the
asymptotic rates (13)–(14).  Canonical choices: ``docs/choices.md`` §1.

The bounds depend on ``n`` and ``α`` only through :math:`x = n\alpha^2`; give
either ``n`` and ``alpha`` (then H3, :math:`\alpha \le 22/35`, is checked and a
:class:`~bounds.numerics.PaperAssumptionWarning` issued when it fails) or
``n_alpha2``.  ``precision=None`` evaluates in float64 (log space throughout);
an integer evaluates in mpmath with that many digits — the oracle the float
path is tested against.

Examples
--------
>>> from bounds import sizes, dame
>>> law = sizes.poisson(5)
>>> lb = dame.lower_bound(law, n_alpha2=500)
>>> ub = dame.upper_bound(law, n_alpha2=500, constants="unit")
>>> lb.argmax, ub.m_tilde
(15, 8)
>>> lb.value < ub.value
True
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, Callable, Sequence

import mpmath
import numpy as np
from numpy.typing import ArrayLike
import sympy as sp

from .numerics import (
    backend,
    last_true,
    check_array,
    check_bool,
    check_choice,
    check_callable,
    check_integer,
    check_positive,
    check_precision,
    check_real,
    format_value,
    warn_assumption,
    warn_once_per_call,
    workdps,
)
from .sizes import MAX_SIZE, SizeLaw, finite, point

__all__ = [
    "Constants",
    "Bound",
    "LowerBound",
    "UpperBound",
    "Curve",
    "Grid",
    "REGIMES",
    "Corollary3",
    "lower_bound",
    "upper_bound",
    "m_tilde",
    "tau",
    "curve",
    "grid",
    "corollary3",
    "asymptotic_rates",
    "symbolic",
    "check_h3",
    "PrivacyBudget",
    "privacy_budget",
    "log_phi",
]

H3_ALPHA_MAX = sp.Rational(22, 35)
_TIE = 1e-9  # float comparisons closer than this are re-decided in mpmath
_TIE_DPS = 60
# math.exp of a log below this is 0.0 in float64 (log of the smallest subnormal, 5e-324, is -744.4)
_LOG_UNDERFLOW = -745.2
_MAX_SCAN = 10**7  # longest window of a where φ is not monotone that is scanned point by point
_MAX_TASKS = 10**6  # open intervals in the lower bound's branch and bound: more means no convergence
# the lower bound's tie rule: its argmax is the smallest a whose value is within this relative
# distance of the maximum (10^3 above the float path's error on eq. (10), so both paths agree)
LB_TIE_RTOL = 1e-9
MAX_POINTS = 10**5
"""Largest number of ``n_alpha2`` values (and of :func:`grid`'s ``params``) in one call: each costs a few
searches (O(log) evaluations of the law each), so the limit keeps a call to about a minute."""
MAX_CELLS = 10**6
"""Largest ``len(params) * len(n_alpha2)`` of one :func:`grid`."""


# =========================================================================== constants


@dataclass(frozen=True)
class Constants:
    r"""The universal constants :math:`c_1, \dots, c_5` of Theorems 1 and 2.

    Values are kept exact (sympy numbers), so the mpmath path evaluates e.g.
    :math:`c_1 = e^{-9}/16` to any precision.  Presets: ``Constants.paper()``
    — :math:`(e^{-9}/16, 24, 1570, 8, 868.5)` from (S31) and (S146) — and
    ``Constants.unit()`` (all 1, what the paper's Figure 1a appears to use).

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

    c1: sp.Expr
    c2: sp.Expr
    c3: sp.Expr
    c4: sp.Expr
    c5: sp.Expr
    name: str = "custom"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ValueError(f"name must be a string (a label of the constants), got {format_value(self.name)}")
        for key in ("c1", "c2", "c3", "c4", "c5"):
            raw = getattr(self, key)
            # numbers only (int, float, Fraction, numpy or sympy numbers): a string would be
            # evaluated as code by sympy, so it is refused like any other non-number
            numeric = isinstance(raw, (numbers.Real, np.integer, np.floating)) or (
                isinstance(raw, sp.Expr) and raw.is_number and not raw.free_symbols)
            if isinstance(raw, (bool, np.bool_)) or not numeric:
                raise ValueError(f"{key} must be a positive finite number, got {raw!r}")
            try:
                val = sp.Rational(raw.numerator, raw.denominator) if isinstance(raw, Fraction) else sp.sympify(raw)
                num = float(val)
            except (TypeError, ValueError, OverflowError):
                raise ValueError(f"{key} must be a positive finite number, got {raw!r}") from None
            if not (math.isfinite(num) and num > 0):
                raise ValueError(f"{key} must be a positive finite number, got {raw!r}")
            object.__setattr__(self, key, val)
        if float(self.c4) < 1:
            warn_assumption(f"c4 = {float(self.c4):g} < 1: ln(c4·(√(m̃nα²) ∨ 1)) may be negative")

    @classmethod
    def paper(cls) -> "Constants":
        """Explicit constants of the proofs: (S31) for c1, c2; (S146) for c3, c4, c5."""
        return cls(sp.exp(-9) / 16, 24, 1570, 8, sp.Rational(1737, 2), name="paper")

    @classmethod
    def unit(cls) -> "Constants":
        """All constants equal to 1."""
        return cls(1, 1, 1, 1, 1, name="unit")

    @cached_property
    def floats(self) -> tuple[float, ...]:
        """``(c1, …, c5)`` as float64."""
        return tuple(float(c) for c in (self.c1, self.c2, self.c3, self.c4, self.c5))

    def values(self, precision: int | None) -> tuple:
        """``(c1, …, c5)`` on the requested path (float64, or mpf at the current precision)."""
        if precision is None:
            return self.floats
        return tuple(mpmath.mpf(str(sp.N(c, precision + 10))) for c in (self.c1, self.c2, self.c3, self.c4, self.c5))

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
        if isinstance(constants, Constants):
            return constants
        if isinstance(constants, str) and constants in ("paper", "unit"):
            return cls.paper() if constants == "paper" else cls.unit()
        raise ValueError(f"constants must be 'paper', 'unit' or a Constants instance, got {constants!r}")

    def describe(self) -> dict:
        """The constants as plain data (exact forms as strings), for metadata files."""
        return {"name": self.name, **{k: str(getattr(self, k)) for k in ("c1", "c2", "c3", "c4", "c5")}}


_CONSTANT_FORM = re.compile(r"^(?:exp\((-?\d{1,4})\)(?:\*|/(?=\d)|$))?(\d+(?:\.\d+)?(?:/\d+)?)?$")


def _parse_constant(name: str, text: Any) -> sp.Expr:
    """``"24"``, ``"1737/2"``, ``"exp(-9)/16"``, ``"exp(1)"`` → a sympy number; no evaluation of code."""
    m = _CONSTANT_FORM.match(text.replace(" ", "")) if isinstance(text, str) and len(text) <= 60 else None
    if m is None or (m.group(1) is None and m.group(2) is None):
        raise ValueError(f"{name} must be a rational or a rational times exp(integer), got {text!r}")
    exp_part = sp.exp(int(m.group(1))) if m.group(1) is not None else sp.Integer(1)
    if m.group(2) is None:
        return exp_part
    try:
        q = sp.Rational(Fraction(m.group(2)).numerator, Fraction(m.group(2)).denominator)
    except ZeroDivisionError:
        raise ValueError(f"{name} must be a rational or a rational times exp(integer), got {text!r}") from None
    if q == 0:
        raise ValueError(f"{name} must be positive, got {text!r}")
    divided = m.group(1) is not None and text.replace(" ", "")[text.replace(" ", "").index(")") + 1:].startswith("/")
    return exp_part / q if divided else exp_part * q


# =========================================================================== inputs


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
    h3 = check_bool("h3", h3)
    if n_alpha2 is not None:
        if n is not None or alpha is not None:
            raise ValueError("give either (n, alpha) or n_alpha2, not both")
        return PrivacyBudget(None, None, check_positive("n_alpha2", n_alpha2))
    if n is None or alpha is None:
        raise ValueError("give both n and alpha, or n_alpha2")
    n = check_integer("n", n, minimum=2)
    alpha = check_positive("alpha", alpha)
    x = n * alpha * alpha
    if not (math.isfinite(x) and x > 0):
        raise ValueError(f"n * alpha**2 must be a positive finite number; n = {n!r}, alpha = {alpha!r} give {x!r}")
    if h3:
        check_h3(alpha)
    return PrivacyBudget(n, alpha, x)


def _n_alpha2_array(n_alpha2: ArrayLike) -> np.ndarray:
    """``n_alpha2`` as a non-empty 1-D float array of positive finite numbers (ValueError otherwise)."""
    bad = f"n_alpha2 must be a positive number or a non-empty 1-D array of them, got {n_alpha2!r}"
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
    if not isinstance(sizes, SizeLaw):
        raise ValueError(f"sizes must be a law from bounds.sizes, got {sizes!r}")
    return sizes


# =========================================================================== results


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


@dataclass(frozen=True)
class LowerBound(Bound):
    r"""Theorem 1's bound, with its maximiser ``argmax``.

    ``argmax`` is an ``int`` (the smallest maximiser over :math:`\{0\} \cup \mathrm{supp}(M)`),
    or ``math.inf`` when the supremum is the limit :math:`a \to \infty` (eq. (13)) and is
    not attained.  Candidates whose values agree to the working precision (float64, or
    ``precision`` digits) are ties, resolved towards the smallest ``a``.
    """

    argmax: int | float


@dataclass(frozen=True)
class UpperBound(Bound):
    r"""Theorem 2's bound, with the effective size ``m_tilde`` and ``capped`` (the ``∧ 4`` is active)."""

    m_tilde: int
    capped: bool


# =========================================================================== Theorem 1


_BRANCH = 16  # children per split interval in the float search (2 in mpmath: fewer evaluations)


def _log_lb_terms(law: SizeLaw, a: np.ndarray, x: Any, c_vals: tuple[Any, ...], precision: int | None) -> np.ndarray:
    """log of eq. (10)'s term at each ``a`` (broadcast against ``x``)."""
    be = backend(precision)
    lsf = law.log_prob_gt(a, precision=precision)
    lps = law.log_partial_sqrt_mean(a, precision=precision)
    return _lb_from_parts(lsf, lps, be.log(x), c_vals, precision)


def _lb_from_parts(lsf: Any, lps: Any, logx: Any, c_vals: tuple[Any, ...], precision: int | None) -> np.ndarray:
    """``log c1 - c2 x P^2 - max(log x + 2 log S, 0)`` from ``log P`` and ``log S``."""
    be = backend(precision)
    with np.errstate(over="ignore", under="ignore"):
        expo = be.exp(be.log(c_vals[1]) + logx + 2 * lsf)
    return be.log(c_vals[0]) - expo - np.maximum(logx + 2 * lps, 0)


def _first_reaching(law: SizeLaw, logx: Any, precision: int | None) -> np.ndarray:
    r""":math:`a_0 = \min\{a : x S(a)^2 \ge 1\}` per ``x`` (``-1``: never, up to the search end)."""
    end = int(law.support_max) if law.is_finite else law.search_end()
    n = len(logx)

    def below(a: np.ndarray) -> np.ndarray:
        return np.asarray(logx + 2 * law.log_partial_sqrt_mean(a, precision=precision) < 0, dtype=bool)

    last = last_true(below, np.full(n, law.support_min, dtype=np.int64), np.full(n, end, dtype=np.int64))
    return np.where(last < end, last + 1, -1)


def _lb_search(law: SizeLaw, x: Any, c_vals: tuple[Any, ...], precision: int | None) -> tuple[np.ndarray, list[float]]:
    r"""Exact maximiser of eq. (10) over :math:`a \in \{0\} \cup \mathrm{supp}(M)`, per ``x``.

    Returns ``(log values, argmaxes)``.  Write :math:`P(a) = P(m > a)`,
    :math:`S(a) = E[\sqrt m\,\mathbb 1\{m \le a\}]`, :math:`p = M(a+1)` and
    :math:`\ell(a) = \log c_1 - c_2 x P(a)^2 - \log(x S(a)^2 \vee 1)`: the sum of a
    non-decreasing and a non-increasing step function of ``a``.

    **Proof of the search.**  Let :math:`a_0 = \min\{a : x S(a)^2 \ge 1\}`.

    1. On :math:`[0, a_0 - 1]` the second term is 0, so :math:`\ell` is non-decreasing: its
       maximum there is :math:`\ell(a_0 - 1)`.  If :math:`a_0` does not exist, the maximum is
       the supremum :math:`a \to \infty` (infinite support, ``argmax = inf``) or the largest
       support point (where :math:`P = 0`).
    2. For :math:`a \ge a_0`, :math:`P(a) - P(a+1) = p`, :math:`S(a+1) - S(a) = \sqrt{a+1}\,p`, and
       :math:`v/(1+v) \le \log(1+v) \le v` give

       .. math:: \ell(a+1) - \ell(a) = p\,\big(c_2 x (P(a) + P(a+1)) - t\big), \qquad
                 \frac{2\sqrt{a+1}}{S(a+1)} \le t \le \frac{2\sqrt{a+1}}{S(a)}.

       Hence on an interval :math:`[l, h] \subset [a_0, \infty)`, by monotonicity of
       :math:`P` and :math:`S`: if :math:`c_2 x P(l) < \sqrt{l+1}/S(h)` every step is
       :math:`\le 0` and the maximum over :math:`[l, h]` is :math:`\ell(l)`; if
       :math:`c_2 x P(h) > \sqrt{h}/S(l)` every step is :math:`\ge 0` and it is :math:`\ell(h)`.
       In any case :math:`\ell \le \log c_1 - c_2 x P(h)^2 - \log(x S(l)^2)` on :math:`[l, h]`.
    3. Markov's inequality :math:`P(a) \le E m/(a+1)` and Jensen's :math:`S \le \sqrt{E m}`
       make every step from :math:`a + 1 \ge (c_2 x)^{2/3} E m` on non-positive (2.), so the
       maximum over :math:`[a_0, \infty)` lies in :math:`[a_0, \max(a_0, \lceil (c_2x)^{2/3}E m\rceil)]`.

    Branch and bound on that interval: evaluate both ends of every interval (candidates),
    drop an interval when 2. decides it (with a margin of ``1e-9`` in float64, ``10^{-(d-10)}``
    at ``d`` digits, against rounding) or its bound is below the best value found, split the
    rest into 16 (float) or 2 (mpmath) children.  When the two criteria of 2. separate at a
    single crossing of :math:`c_2 x P - \sqrt{a}/S` — the generic case — only the O(1)
    intervals around the crossing survive each level: :math:`O(\log N)` evaluations of
    :math:`P` and :math:`S`, memory :math:`O(1)` per ``x``, and no table.  ``ℓ`` is constant
    between support points, so a candidate ``a`` is reported as the largest support point
    ``<= a``.  **Tie rule**: the reported argmax is the smallest :math:`a` with
    :math:`\ell(a) \ge \ell^* + \log(1 - \rho)`, :math:`\rho` = ``LB_TIE_RTOL`` = 1e-9 (see
    :func:`_smallest_near_max`), so the float and mpmath paths agree where eq. (10) is flat
    to within the float path's error (about 1e-12).
    """
    mp = precision is not None
    be = backend(precision)
    n = len(x)
    logx = be.log(be.asarray(x))
    lc1, lc2 = be.log(c_vals[0]), be.log(c_vals[1])
    margin = mpmath.mpf(10) ** (-(precision - 10)) if precision is not None else 1e-9
    cache: dict = {}

    def parts(a: Any) -> tuple[Any, Any]:  # log P(m > a), log S(a), memoised on the mpmath path
        if not mp:
            return law.log_prob_gt(a, precision=None), law.log_partial_sqrt_mean(a, precision=None)
        new = sorted({int(v) for v in a} - cache.keys())
        if new:
            arr = np.asarray(new, dtype=np.int64)
            for k, u, v in zip(new, law.log_prob_gt(arr, precision=precision), law.log_partial_sqrt_mean(arr, precision=precision)):
                cache[k] = (u, v)
        return (np.asarray([cache[int(v)][0] for v in a], dtype=object),
                np.asarray([cache[int(v)][1] for v in a], dtype=object))

    with np.errstate(over="ignore"):  # c2 x beyond the float range: the a = 0 term is -inf
        best = np.asarray([lc1 - c_vals[1] * xi for xi in x], dtype=object if mp else float)  # a = 0
    arg = np.zeros(n)
    a0 = _first_reaching(law, logx, precision)
    never = a0 < 0
    if np.any(never):  # 1.: non-decreasing everywhere
        idx = np.flatnonzero(never)
        if law.is_finite:
            top = np.full(len(idx), int(law.support_max), dtype=np.int64)
            val = _lb_from_parts(law.log_prob_gt(top, precision=precision), law.log_partial_sqrt_mean(top, precision=precision),
                                 logx[idx], c_vals, precision)
            lab: list[float] = [int(law.support_max)] * len(idx)
        else:
            ls = be.log(law.sqrt_mean(precision=precision))
            val = lc1 - np.maximum(logx[idx] + 2 * ls, 0)
            lab = [math.inf] * len(idx)
        for j, i in enumerate(idx):
            if val[j] > best[i]:
                best[i], arg[i] = val[j], lab[j]
    t = np.flatnonzero(~never)
    mean = float(law.mean())
    with np.errstate(over="ignore"):
        top = np.ceil(np.exp((2.0 / 3.0) * (math.log(c_vals[1]) + np.log(np.asarray(x, dtype=float)[t]))) * mean) + 2
    cap = int(law.support_max) if law.is_finite else law.search_end()
    lo = a0[t].astype(np.int64)
    hi = np.maximum(lo, np.minimum(top, cap).astype(np.int64))

    # candidates: keep the largest value, then the smallest a
    def offer(task: np.ndarray, a_end: np.ndarray, lp_: Any, ls_: Any) -> None:
        vals = _lb_from_parts(lp_, ls_, logx[task], c_vals, precision)
        labs = np.asarray(law.floor_support(a_end), dtype=float)
        if mp:
            for i, v, lab in zip(task, vals, labs):
                if v > best[i] or (v == best[i] and lab < arg[i]):
                    best[i], arg[i] = v, lab
            return
        order = np.lexsort((labs, -vals, task))  # per task: largest value first, then smallest a
        task, vals, labs = task[order], vals[order], labs[order]
        head = np.ones(len(task), dtype=bool)
        head[1:] = task[1:] != task[:-1]
        i, v, lab = task[head], vals[head], labs[head]
        better = (v > best[i]) | ((v == best[i]) & (lab < arg[i]))
        best[i[better]], arg[i[better]] = v[better], lab[better]

    branch = 2 if mp else _BRANCH
    offer(t, lo - 1, *parts(lo - 1))  # 1.
    # intervals [lo, hi] per task
    task, L, H = t.copy(), lo.copy(), hi.copy()
    while len(task):
        pl, sl = parts(L)
        ph, sh = parts(H)
        lx = logx[task]
        offer(task, L, pl, sl)
        offer(task, H, ph, sh)
        lhs = lc2 + lx
        with np.errstate(divide="ignore"):
            dec = lhs + pl < 0.5 * be.log(be.asarray(L + 1)) - sh - margin
            inc = lhs + ph > 0.5 * be.log(be.asarray(H)) - sl + margin
        with np.errstate(over="ignore", under="ignore"):
            bound = lc1 - be.exp(lc2 + lx + 2 * ph) - np.maximum(lx + 2 * sl, 0)
        keep = ~np.asarray(dec | inc, dtype=bool) & (H - L > 1) & np.asarray(bound >= best[task] - margin, dtype=bool)
        task, L, H = task[keep], L[keep], H[keep]
        if len(task) > _MAX_TASKS:  # pragma: no cover - the bounds of 2. failed to separate
            raise AssertionError("the lower bound's search did not converge")
        if not len(task):
            break
        task, L, H = _split(task, L, H, branch)
    _smallest_near_max(law, logx, c_vals, precision, best, arg, parts, 2)
    return best, [math.inf if a == math.inf else int(a) for a in arg]


def _smallest_near_max(law: SizeLaw, logx: Any, c_vals: tuple[Any, ...], precision: int | None, best: Any,
                       arg: np.ndarray, parts: Callable[[Any], tuple[Any, Any]], branch: int) -> None:
    r"""The tie rule: move each finite ``arg[i]`` to the smallest :math:`a \ge 0` with
    :math:`\ell(a) \ge \ell^* + \log(1 - \rho)`, :math:`\rho` = ``LB_TIE_RTOL`` (in place).

    Branch and bound on :math:`[0, \text{arg}]`: an interval :math:`[l, h]` is dropped when its
    bound :math:`\log c_1 - c_2 x P(h)^2 - \log(x S(l)^2 \vee 1) \ge \ell` (see ``_lb_search``, 2.)
    is below the threshold or when it starts past the smallest qualifying point found; both
    ends of every other interval are evaluated, so every point is either evaluated or proven
    below the threshold.
    """
    mp = precision is not None
    be = backend(precision)
    lc1, lc2 = be.log(c_vals[0]), be.log(c_vals[1])
    finite_arg = np.asarray([a != math.inf for a in arg], dtype=bool)
    task = np.flatnonzero(finite_arg)
    if not len(task):
        return
    shift = mpmath.log1p(-mpmath.mpf(LB_TIE_RTOL)) if mp else math.log1p(-LB_TIE_RTOL)
    thr = np.asarray([best[i] + shift for i in range(len(best))], dtype=object if mp else float)
    found = np.asarray(arg, dtype=float).copy()
    L = np.zeros(len(task), dtype=np.int64)
    H = np.asarray(arg[task], dtype=np.int64)
    while len(task):
        pts = np.unique(np.concatenate([L, H]))  # children share their ends: each point once
        pp, ss = parts(pts)
        il, ih = np.searchsorted(pts, L), np.searchsorted(pts, H)
        pl, sl, ph, sh = pp[il], ss[il], pp[ih], ss[ih]
        lx = logx[task]
        for ends, p_, s_ in ((L, pl, sl), (H, ph, sh)):
            ok = np.asarray(_lb_from_parts(p_, s_, lx, c_vals, precision) >= thr[task], dtype=bool)
            if np.any(ok):
                np.minimum.at(found, task[ok], np.asarray(law.floor_support(ends[ok]), dtype=float))
        with np.errstate(over="ignore", under="ignore"):
            bound = lc1 - be.exp(lc2 + lx + 2 * ph) - np.maximum(lx + 2 * sl, 0)
        keep = np.asarray(bound >= thr[task], dtype=bool) & (H - L > 1) & (L < found[task])
        task, L, H = task[keep], L[keep], np.minimum(H[keep], found[task[keep]].astype(np.int64))
        if len(task) > _MAX_TASKS:  # pragma: no cover - a plateau this wide is refused, not scanned
            raise AssertionError("the lower bound's tie search did not converge")
        if not len(task):
            break
        task, L, H = _split(task, L, H, branch)
    arg[finite_arg] = found[finite_arg]


def _split(task: np.ndarray, L: np.ndarray, H: np.ndarray, branch: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every interval ``[L, H]`` of ``task`` split into ``branch`` children sharing their ends."""
    step = np.maximum((H - L) // branch, 1)  # no int64 overflow: step * k <= H - L
    cuts = np.minimum(L[:, None] + step[:, None] * np.arange(branch + 1)[None, :], H[:, None])
    cuts[:, -1] = H
    cl, ch = cuts[:, :-1].ravel(), cuts[:, 1:].ravel()
    ct = np.repeat(task, branch)
    ok = ch > cl
    return ct[ok], cl[ok], ch[ok]


def _lower_many(law: SizeLaw, x: np.ndarray, c: Constants) -> tuple[np.ndarray, list[float]]:
    """Float64 eq. (10) for an array of ``x``: (log values, argmax)."""
    best, arg = _lb_search(law, np.asarray(x, dtype=float), c.floats, None)
    return np.asarray(best, dtype=float), arg


def _lower_mp(law: SizeLaw, priv: PrivacyBudget, c: Constants, precision: int) -> tuple[Any, Any]:
    with mpmath.workdps(precision):
        best, arg = _lb_search(law, [priv.exact()], c.values(precision), precision)
        return best[0], arg[0]


@warn_once_per_call
def lower_bound(
    sizes: SizeLaw, *, n: int | None = None, alpha: float | None = None,
    n_alpha2: float | None = None, constants: Constants | str = "paper",
    precision: int | None = None
) -> LowerBound:
    r"""Theorem 1: lower bound on the worst-case risk :math:`R_{\alpha,n,M}`.

    .. math::

        R_{\alpha,n,M} \ge \max_{a \in \mathbb{N}}
        \frac{c_1 \exp\!\big(-c_2\, n\alpha^2\, P(m > a)^2\big)}
             {\big(n\alpha^2\, E[\sqrt m\,\mathbb 1\{m \le a\}]^2\big) \vee 1}

    Source: Pla et al. (2024), eq. (10); paper constants from (S31):
    :math:`c_1 = e^{-9}/16`, :math:`c_2 = 24`.  Both :math:`P(m>a)` and the
    truncated moment are step functions of ``a`` changing only at support points,
    so the maximum is taken exactly over :math:`\{0\} \cup \mathrm{supp}(M)`, found
    by a proven branch and bound on its two monotone factors (see ``_lb_search``: O(log N)
    evaluations, no enumeration); for an
    infinite support the limit :math:`a \to \infty` is a candidate too (``argmax = inf``).
    **Tie rule**: ``argmax`` is the smallest :math:`a` whose term is within a relative
    ``1e-9`` (``LB_TIE_RTOL``) of the maximum, in float64 and at any precision alike, so both
    paths report the same ``argmax`` where eq. (10) is flat to within rounding; ``value`` is
    the maximum itself.

    Parameters
    ----------
    sizes : SizeLaw
        The law :math:`M` of the dataset size (``bounds.sizes``).
    n, alpha : int, float, optional
        Number of users and the LDP level; or give ``n_alpha2`` instead.
    n_alpha2 : float, optional
        :math:`n\alpha^2`.
    constants : {"paper", "unit"} or Constants
    precision : int, optional
        mpmath digits; ``None`` for float64.

    Returns
    -------
    LowerBound

    Examples
    --------
    >>> from bounds import sizes
    >>> lb = lower_bound(sizes.point(100), n_alpha2=10.0, constants="unit")
    >>> lb.argmax, round(lb.value, 12)  # max(e^-10, 1/(10·100)) at a = 100
    (100, 0.001)
    """
    law = _law(sizes)
    priv = privacy_budget(n, alpha, n_alpha2)
    c = Constants.resolve(constants)
    precision = check_precision(precision)
    if precision is None:
        logs, args = _lower_many(law, np.array([priv.n_alpha2]), c)
        logv, arg = float(logs[0]), args[0]
        value = math.exp(logv) if logv > _LOG_UNDERFLOW else 0.0
    else:
        logv, arg = _lower_mp(law, priv, c, precision)
        with mpmath.workdps(precision):
            value = mpmath.exp(logv)
    return LowerBound(value, logv, law, priv.n_alpha2, priv.n, priv.alpha, c, precision, argmax=arg)


# =========================================================================== Theorem 2


def log_phi(
    a: ArrayLike, *, n_alpha2: float, constants: "Constants | str" = "paper",
    precision: int | None = None
) -> np.ndarray:
    r"""The logarithm of Theorem 2's threshold :math:`\varphi(a)` (``+inf`` where :math:`\log y \le 0`).

    :math:`\tilde m` is the largest ``a`` with :math:`P(m \ge a)^2 \ge \varphi(a) \wedge 1`, where

    .. math:: \varphi(a) = \frac{c_5}{x}\big(\log y - \log\log y\big),\qquad y = c_4\,(a x \vee 1),\quad x = n\alpha^2.

    Source: Pla et al. (2024), Theorem 2, eq. (12), constants (S146).

    Examples
    --------
    >>> import math
    >>> y = 8 * 100 * 1e4
    >>> bool(np.isclose(log_phi(100, n_alpha2=1e4), math.log(868.5 / 1e4 * (math.log(y) - math.log(math.log(y))))))
    True
    """
    arr = np.asarray(a)
    if (arr.size == 0 or arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer) or np.any(arr < 1)
            or np.any(arr > MAX_SIZE)):
        raise ValueError(f"a must be a positive integer <= 2**62 or a non-empty array of them, got {a!r}")
    precision = check_precision(precision)
    x = privacy_budget(n_alpha2=n_alpha2).n_alpha2
    c = Constants.resolve(constants)
    with workdps(precision):
        lx = mpmath.log(mpmath.mpf(x)) if precision is not None else math.log(x)
        return _log_phi(arr.astype(np.int64), lx, c.floats if precision is None else c.values(precision), precision)


def _log_phi(a: Any, logx: Any, c_vals: tuple[Any, ...], precision: int | None) -> np.ndarray:
    r"""log φ(a) of Theorem 2 (``+inf`` where :math:`\log y \le 0`)."""
    be = backend(precision)
    c4, c5 = c_vals[3], c_vals[4]
    ly = be.log(c4) + np.maximum(be.log(a) + logx, 0)
    safe = np.where(ly > 0, ly, 1)
    out = be.log(c5) - logx + be.log(safe - be.log(safe))
    return np.where(ly > 0, out, np.inf)


def _condition(
    law: SizeLaw, a: Any, logx: Any, c_vals: tuple[Any, ...], precision: int | None, capped: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    r"""Theorem 2's condition :math:`P(m \ge a)^2 \ge \varphi(a) \wedge 1` and its margin.

    Where :math:`\varphi(a) \ge 1` the condition is :math:`P(m \ge a) = 1`, decided
    exactly as ``a <= min supp(M)``; ``capped=False`` drops the ``∧ 1`` (the proof's
    reading, ``docs/choices.md`` §1.2): there it holds only at :math:`\varphi(a) = 1`.  Returns ``(holds, margin)``; ``margin`` is the
    log-space distance to the decision boundary (small ⇒ re-decide at higher precision).
    """
    lphi = _log_phi(a, logx, c_vals, precision)
    big = lphi >= 0
    lp = law.log_prob_ge(a, precision=precision)
    safe_phi = np.where(big, 0, lphi)
    d = 2 * lp - safe_phi
    holds = np.where(big, (a <= law.support_min) & (capped | (lphi <= 0)), d >= 0)
    margin = np.where(big, np.abs(lphi), np.minimum(np.abs(d), np.abs(lphi)))
    return holds.astype(bool), margin


def _condition_float(law: SizeLaw, a: ArrayLike, x_float: np.ndarray, x_exact: list[Any], c: Constants,
                     capped: bool = True) -> np.ndarray:
    """Float64 decision with an mpmath re-decision where it is within rounding of a tie."""
    a = np.asarray(a, dtype=np.int64)
    with np.errstate(over="ignore"):
        holds, margin = _condition(law, a, np.log(x_float), c.floats, None, capped)
    holds = np.array(holds, dtype=bool)
    close = np.asarray(margin, dtype=float) < _TIE * (1 + np.abs(np.log(x_float)))
    for i in np.flatnonzero(close):
        with mpmath.workdps(_TIE_DPS):
            h, _ = _condition(law, a[i : i + 1], mpmath.log(x_exact[i]), c.values(_TIE_DPS), _TIE_DPS, capped)
        holds[i] = bool(h[0])
    return holds


def _m_tilde_many(law: SizeLaw, x: np.ndarray, x_exact: list, c: Constants, reading: str = "printed") -> np.ndarray:
    r"""Exact :math:`\tilde m` for each ``x`` (see :func:`m_tilde`); ``1`` where no ``a`` qualifies."""
    capped = reading == "printed"
    c1, c2, c3, c4, c5 = c.floats
    e = math.e
    idx_all = np.arange(len(x))

    def cond(a: np.ndarray, idx: np.ndarray = idx_all) -> np.ndarray:
        return _condition_float(law, a, x[idx], [x_exact[i] for i in idx], c, capped)

    # region B: y = c4 (a x ∨ 1) >= e, where φ is increasing and ψ non-increasing
    if c4 >= e:
        a_b = np.ones(len(x), dtype=np.int64)
    else:
        with np.errstate(over="ignore"):
            a_b = np.maximum(1, np.ceil(e / (c4 * x))).astype(float)
        if np.any(a_b > MAX_SIZE):
            raise ValueError("n_alpha2 is too small for the constants: the search range overflows")
        a_b = a_b.astype(np.int64)
    # in B, φ >= c5/x, and Markov gives P(m >= a) <= E[m]/a: the condition fails beyond hi
    mean = float(law.mean())
    hi = np.floor(mean * np.sqrt(np.maximum(x / c5, 1.0))) + 1
    hi = np.minimum(hi, law.support_max if law.is_finite else MAX_SIZE).astype(np.int64)
    if law.tabulated and not law.is_finite:
        # past the table, P(m >= a) <= P(m > end); in B the condition needs P(m >= a)^2 >= c5/x ∧ 1
        end = law.search_end()
        beyond_fails = 2 * float(law.log_prob_gt(end)) < np.minimum(math.log(c5) - np.log(x), 0.0)
        hi = np.where(beyond_fails, np.minimum(hi, end + 1), hi)
    hi = np.maximum(hi, a_b)
    in_b = cond(a_b)
    out = np.empty(len(x), dtype=np.int64)
    inside = np.flatnonzero(in_b)
    if inside.size:  # doubling from a_b, then bisection over the integers: about 2 log2(m~) evaluations, no table
        known, bracket_top = _gallop(lambda a, idx: cond(a, inside[idx]), a_b[inside], hi[inside])
        out[inside] = last_true(lambda a: cond(a, inside), known, bracket_top)
    # region A = [1, a_b - 1] (only when c4 < e): φ >= c5/x there
    for i in np.flatnonzero(~in_b):
        top = int(a_b[i]) - 1
        if math.log(c5) >= math.log(x[i]) or top < 1:  # φ >= 1 on A: the condition is P(m >= a) = 1
            out[i] = max(1, min(law.support_min, top)) if capped else 1
            continue
        if top > _MAX_SCAN:
            raise ValueError("the constants' non-monotone window for φ is too long to scan")
        a = np.arange(1, top + 1, dtype=np.int64)
        ok = cond(a, np.full(top, i))
        out[i] = int(a[ok].max()) if ok.any() else 1
    return out


def _gallop(pred: Callable[[np.ndarray, np.ndarray], np.ndarray], good: np.ndarray,
            top: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Shrink brackets ``[good, top]`` of a monotone ``pred`` (true at ``good``) by doubling ``good``.

    Returns ``(good', top')`` with ``pred`` true at ``good'`` and the last true point in
    ``[good', top']``: ``pred`` is evaluated at ``2 good, 4 good, …`` only (``pred(a, idx)`` on
    the entries ``idx``), so the work grows with the answer, not with the Markov bracket.
    """
    good, top = good.astype(np.int64), top.astype(np.int64)
    active = np.flatnonzero(good < top)
    while active.size:
        g = good[active]
        probe = g + np.minimum(g, top[active] - g)  # min(2g, top) without int64 overflow
        ok = np.asarray(pred(probe, active), dtype=bool)
        good[active[ok]] = probe[ok]
        top[active[~ok]] = probe[~ok] - 1
        active = active[ok & (probe < top[active])]
    return good, top


@warn_once_per_call
def m_tilde(
    sizes: SizeLaw, *, n: int | None = None, alpha: float | None = None,
    n_alpha2: float | None = None, constants: Constants | str = "paper", reading: str = "printed"
) -> int:
    r"""Theorem 2's effective dataset size :math:`\tilde m`, exactly.

    .. math::

        \varphi(a) = \frac{c_5}{n\alpha^2}\log\frac{y}{\log y},\quad y = c_4\,(a\,n\alpha^2 \vee 1),
        \qquad \tilde m = \max\{a \in \mathbb N^* : P(m \ge a)^2 \ge \varphi(a) \wedge 1\}

    Source: Pla et al. (2024), Theorem 2 and eq. (12); paper constants
    :math:`c_4 = 8`, :math:`c_5 = 868.5 = 579 \cdot 3/2` (S146).

    Search.  Where :math:`y \ge e`, :math:`y/\log y` increases, so
    :math:`\psi(a) = P(m \ge a)^2 - \varphi(a) \wedge 1` is non-increasing and a
    bisection over the integers is exact; it is bracketed by Markov's inequality
    (:math:`\varphi \ge c_5/(n\alpha^2)` there, so :math:`a \le E[m]\sqrt{(n\alpha^2/c_5) \vee 1}`).
    With :math:`c_4 < e` (e.g. ``"unit"``) the window :math:`y < e` is handled
    explicitly: :math:`\varphi = +\infty` where :math:`\log y \le 0`, :math:`\varphi > c_5/(n\alpha^2)`
    where :math:`1 < y < e` (non-monotone); it is scanned.  Where
    :math:`\varphi \ge 1` the condition is :math:`P(m \ge a) = 1`, decided exactly
    (``a <= min supp M``); float comparisons within ``1e-9`` of a tie are re-decided
    in mpmath at 60 digits.  :math:`a = 1` always qualifies, so :math:`\tilde m \ge 1`.

    ``reading="proof"`` drops the ``∧ 1``: :math:`\tilde m = \max(\{1\} \cup \{a : P(m \ge a)^2 \ge \varphi(a)\})`,
    the condition the proof's step before (S146) uses; with the printed ``∧ 1`` Theorem 2's bound
    can fall below Theorem 1's (``docs/choices.md`` §1.2, audit check ``dame.ub_ge_lb``).

    Examples
    --------
    >>> from bounds import sizes
    >>> m_tilde(sizes.point(50), n_alpha2=1e6)
    50
    >>> m_tilde(sizes.poisson(5), n_alpha2=500)  # paper constants: φ(a) > 1
    1
    >>> m_tilde(sizes.point(10**12), n_alpha2=0.01), m_tilde(sizes.point(10**12), n_alpha2=0.01, reading="proof")
    (1000000000000, 1)
    """
    return _m_tilde_point(_law(sizes), privacy_budget(n, alpha, n_alpha2), Constants.resolve(constants),
                          _reading(reading))


_READINGS = ("printed", "proof")


def _reading(reading: str) -> str:
    return check_choice("reading", reading, _READINGS)


def _m_tilde_point(law: SizeLaw, priv: PrivacyBudget, c: Constants, reading: str = "printed") -> int:
    with mpmath.workdps(_TIE_DPS):
        exact = [priv.exact()]
    return int(_m_tilde_many(law, np.array([priv.n_alpha2]), exact, c, reading)[0])


def _log_upper(
    law: SizeLaw, m: int | np.ndarray, x: Any, c_vals: tuple[Any, ...], precision: int | None
) -> tuple[Any, Any, Any]:
    """log of eq. (11) before the cap, and the log-factor L = ln(c4 (√(m x) ∨ 1))."""
    be = backend(precision)
    c3, c4 = c_vals[2], c_vals[3]
    logx = be.log(x)
    lfac = be.log(c4) + np.maximum(0.5 * (be.log(m) + logx), 0)
    if np.all(np.asarray(m) == 1):  # E[sqrt(m ∧ 1)] = 1 exactly: no sum over the law
        ld = np.zeros(np.shape(m)) if precision is None else np.full(np.shape(m), mpmath.mpf(0), dtype=object)
    else:
        ld = law.log_sqrt_min_mean(np.asarray(m, dtype=np.int64), precision=precision)
    safe = np.where(lfac > 0, lfac, 1)
    core = be.log(c3) + be.log(safe) - logx - 2 * ld
    return core, lfac, ld


def _upper_value(
    core: Any, lfac: Any, ld: Any, x: Any, c_vals: tuple[Any, ...], precision: int | None
) -> tuple[Any, Any, bool]:
    """(value, log_value, capped) of eq. (11) from its parts; handles ``L <= 0``."""
    be = backend(precision)
    log4 = be.log(4)
    if lfac > 0:
        capped = bool(core >= log4)
        logv = log4 if capped else core
        value = be.exp(logv)
        return (float(value) if precision is None else _scalar(value)), (float(logv) if precision is None else _scalar(logv)), capped
    warn_assumption("ln(c4·(√(m̃nα²) ∨ 1)) <= 0: the upper bound (11) is not positive for these constants")
    value = c_vals[2] * lfac / (x * be.exp(2 * ld))
    value = np.minimum(value, 4)
    return (float(value) if precision is None else _scalar(value)), -math.inf if precision is None else mpmath.ninf, False


def _scalar(v: Any) -> Any:
    return v[()] if isinstance(v, np.ndarray) else v


@warn_once_per_call
def upper_bound(
    sizes: SizeLaw, *, n: int | None = None, alpha: float | None = None,
    n_alpha2: float | None = None, constants: Constants | str = "paper",
    precision: int | None = None, reading: str = "printed"
) -> UpperBound:
    r"""Theorem 2: DAME's upper bound on the worst-case risk.

    .. math::

        R_{\alpha,n,M} \le \frac{c_3 \ln\!\big(c_4(\sqrt{\tilde m\, n\alpha^2} \vee 1)\big)}
                               {n\alpha^2\; E\big[\sqrt{m \wedge \tilde m}\big]^2} \wedge 4

    Source: Pla et al. (2024), eq. (11), :math:`\tilde m` from Theorem 2 /
    eq. (12) (see :func:`m_tilde`); paper constants :math:`c_3 = 1570 = 14^2\cdot 4\cdot 2 + 2`,
    :math:`c_4 = 8`, :math:`c_5 = 868.5` (S146).  **Canonical choice**: the denominator
    is :math:`E[\sqrt{m \wedge \tilde m}]` as in eq. (9) and (S34)/(S146); eq. (11) as
    printed reads :math:`E(\sqrt m \wedge \tilde m)` (``docs/choices.md`` §1.2).

    If :math:`\ln(c_4(\sqrt{\tilde m n\alpha^2} \vee 1)) \le 0` (possible only for
    :math:`c_4 \le 1`, e.g. ``"unit"`` with :math:`\tilde m n\alpha^2 \le 1`), the
    formula is not positive: its value is returned, ``log_value = -inf``, and a
    :class:`~bounds.numerics.PaperAssumptionWarning` is issued.  ``reading`` selects
    :math:`\tilde m` (see :func:`m_tilde`): ``"printed"`` (Theorem 2 as printed) or ``"proof"``.

    Examples
    --------
    >>> from bounds import sizes
    >>> ub = upper_bound(sizes.point(100), n_alpha2=1e4, constants="unit")
    >>> ub.m_tilde, round(ub.value * 1e6, 12)  # ln(1000) / (1e4 · 100) · 1e6
    (100, 6.907755278982)
    """
    law = _law(sizes)
    priv = privacy_budget(n, alpha, n_alpha2)
    c = Constants.resolve(constants)
    precision = check_precision(precision)
    m = _m_tilde_point(law, priv, c, _reading(reading))
    if precision is None:
        x, cv = priv.n_alpha2, c.floats
        core, lfac, ld = _log_upper(law, m, x, cv, None)
        value, logv, capped = _upper_value(float(core), float(lfac), float(ld), x, cv, None)
    else:
        with mpmath.workdps(precision):
            x, cv = priv.exact(), c.values(precision)
            core, lfac, ld = _log_upper(law, m, x, cv, precision)
            value, logv, capped = _upper_value(_scalar(core), _scalar(lfac), _scalar(ld), x, cv, precision)
    return UpperBound(value, logv, law, priv.n_alpha2, priv.n, priv.alpha, c, precision, m_tilde=m, capped=capped)


def tau(m_tilde: int, *, n: int | None = None, alpha: float | None = None, n_alpha2: float | None = None) -> float:
    r"""Half-width :math:`\tau` of DAME's localisation bins, eq. (4).

    .. math:: \tau = \sqrt{\frac{2\log\!\big(8(\sqrt{\tilde m\, n\alpha^2} \vee 1)\big)}{\tilde m}}

    Source: Pla et al. (2024), eq. (4) (Algorithm 1).

    Examples
    --------
    >>> round(tau(1, n_alpha2=0.5), 6)  # sqrt(2 ln 8)
    2.039334
    """
    m = check_integer("m_tilde", m_tilde, minimum=1, maximum=MAX_SIZE)
    x = privacy_budget(n, alpha, n_alpha2).n_alpha2
    return math.sqrt(2 * (math.log(8) + max(0.5 * (math.log(m) + math.log(x)), 0.0)) / m)


# =========================================================================== curves


@dataclass(frozen=True)
class Curve:
    """Both bounds along a grid (of ``nα²``, or of laws): arrays of equal length."""

    n_alpha2: np.ndarray
    lower: np.ndarray
    log_lower: np.ndarray
    argmax: np.ndarray  # float: integers, or inf
    upper: np.ndarray
    log_upper: np.ndarray
    m_tilde: np.ndarray
    laws: tuple
    constants: Constants


@warn_once_per_call
def curve(sizes: SizeLaw | Sequence[SizeLaw], *, n_alpha2: ArrayLike, constants: Constants | str = "paper") -> Curve:
    r"""Theorems 1 and 2 along a grid, vectorised over :math:`n\alpha^2`.

    ``sizes`` is one law (then ``n_alpha2`` may be an array: the Figure 1a bottom
    panel) or a sequence of laws (then ``n_alpha2`` is a scalar or an array of the
    same length: the Figure 1a top panels).  Values are those of
    :func:`lower_bound` and :func:`upper_bound` (float64 path).

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
    cols: dict[str, list[Any]] = {k: [] for k in ("x", "ll", "arg", "lu", "mt", "law")}
    cv = c.floats
    for law, x in pairs:
        ll, arg = _lower_many(law, x, c)
        with mpmath.workdps(_TIE_DPS):
            exact = [mpmath.mpf(v) for v in x]
        mt = _m_tilde_many(law, x, exact, c)
        lu = []
        for xi, mi in zip(x, mt):
            core, lfac, ld = _log_upper(law, int(mi), xi, cv, None)
            lu.append(_upper_value(float(core), float(lfac), float(ld), xi, cv, None)[1])
        cols["x"].append(x)
        cols["ll"].append(ll)
        cols["arg"].append(np.asarray(arg, dtype=float))
        cols["lu"].append(np.asarray(lu))
        cols["mt"].append(mt)
        cols["law"].extend([law] * len(x))
    log_lower = np.concatenate(cols["ll"])
    log_upper = np.concatenate(cols["lu"])
    with np.errstate(under="ignore"):
        return Curve(
            np.concatenate(cols["x"]), np.exp(log_lower), log_lower, np.concatenate(cols["arg"]),
            np.exp(log_upper), log_upper, np.concatenate(cols["mt"]), tuple(cols["law"]), c,
        )


# =========================================================================== regime maps

REGIMES = ("capped", "m_tilde=1", "m_tilde>1")


@dataclass(frozen=True)
class Grid:
    r"""Theorems 1 and 2 over a 2-D grid: a family's parameter (rows) × :math:`n\alpha^2` (columns).

    ``regime`` indexes :data:`REGIMES`: ``"capped"`` — the upper bound is the trivial 4 (the ``∧ 4``
    of eq. (11) is active); ``"m_tilde=1"`` — not capped and :math:`\tilde m = 1` (DAME clips every
    user at one sample, Corollary 3's first regime); ``"m_tilde>1"`` — not capped, :math:`\tilde m > 1`.
    ``argmax`` holds the lower bound's maximisers (``inf``: the supremum :math:`a \to \infty`).
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
    from . import sizes as _sizes  # the constructors by name ("poisson", "zipf", …)

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


@warn_once_per_call
def grid(
    family: str | Callable[..., SizeLaw], params: ArrayLike, n_alpha2: ArrayLike, *,
    constants: Constants | str = "paper"
) -> Grid:
    r"""Regime map: both bounds, :math:`\tilde m`, the maximiser and the regime over params × :math:`n\alpha^2`.

    .. math:: \big(LB(M_{\theta_i}, x_j),\ UB(M_{\theta_i}, x_j),\ \tilde m(M_{\theta_i}, x_j)\big)_{i,j},
              \quad \text{eqs. (10)–(12)}

    ``family`` is a one-parameter constructor of :mod:`bounds.sizes` (or its name): ``params``
    are its first argument (e.g. Poisson :math:`\lambda`, Zipf :math:`s`).  For each law the
    searches of :func:`lower_bound` and :func:`m_tilde` run vectorised over the whole
    :math:`n\alpha^2` axis (branch and bound and bisection over the integers: exact, no
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
    ps = check_array("params", np.atleast_1d(params) if np.ndim(params) == 0 and not isinstance(params, str) else params,
                     max_size=MAX_POINTS)
    xs = _n_alpha2_array(n_alpha2)
    if ps.size * xs.size > MAX_CELLS:
        raise ValueError(f"params and n_alpha2 give {ps.size} × {xs.size} cells: at most {MAX_CELLS} (dame.MAX_CELLS)")
    shape = (ps.size, xs.size)
    ll, lu, arg, mt, cap = (np.empty(shape) for _ in range(5))
    with mpmath.workdps(_TIE_DPS):
        exact = [mpmath.mpf(v) for v in xs]
    for i, p in enumerate(ps):
        try:
            law = make(int(p) if name in ("point", "uniform") else float(p))
        except (ValueError, OverflowError) as exc:
            raise ValueError(f"params[{i}] = {p!r} gives no size law: {exc}") from None
        if not isinstance(law, SizeLaw):
            raise ValueError(f"family must return a size law from bounds.sizes, got {format_value(law)} for params[{i}]")
        try:
            ll[i], arg_i = _lower_many(law, xs, c)
            mt[i] = _m_tilde_many(law, xs, exact, c)
        except ValueError as exc:  # e.g. a law whose tail cannot be tabulated
            raise ValueError(f"params[{i}] = {p!r}: {exc}") from None
        arg[i] = np.asarray(arg_i, dtype=float)
        lu[i], cap[i] = _upper_many(law, mt[i].astype(np.int64), xs, c)
    regime = np.where(cap.astype(bool), 0, np.where(mt == 1, 1, 2))
    with np.errstate(under="ignore"):
        return Grid(name, ps, xs, np.exp(ll), ll, arg, np.exp(lu), lu, mt.astype(np.int64), regime, c)


# =========================================================================== Corollary 3


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


# =========================================================================== symbolic forms


@lru_cache(maxsize=None)
def symbolic() -> dict:
    r"""The paper's formulas as sympy expressions, keyed by name.

    Symbols: ``x`` (:math:`n\alpha^2`), ``a``, ``m_t`` (:math:`\tilde m`), ``P`` (a
    probability), ``S`` (a truncated moment), ``E`` (:math:`E\sqrt m`), ``c1..c5``.

    .. math::

        \text{lower\_term} = \frac{c_1 e^{-c_2 x P^2}}{\max(x S^2, 1)},\quad
        \varphi = \frac{c_5}{x}\log\frac{y}{\log y},\quad
        \text{upper} = \min\!\Big(\frac{c_3\ln(c_4\max(\sqrt{\tilde m x}, 1))}{x S^2}, 4\Big),

        \tau = \sqrt{2\log(8\max(\sqrt{\tilde m x},1))/\tilde m},\quad
        \text{rate\_13} = \frac{1}{x E^2},\quad \text{rate\_14} = \frac{\log x}{x E^2}

    Source: Pla et al. (2024), eqs. (4), (10), (11), (12), (13), (14).

    Examples
    --------
    >>> symbolic()["rate_14"]
    log(x)/(E**2*x)
    """
    x, a, m_t, P, S, E = sp.symbols("x a m_t P S E", positive=True)
    c1, c2, c3, c4, c5 = sp.symbols("c1:6", positive=True)
    y = c4 * sp.Max(a * x, 1)
    return {
        "lower_term": c1 * sp.exp(-c2 * x * P**2) / sp.Max(x * S**2, 1),
        "phi": c5 / x * sp.log(y / sp.log(y)),
        "upper": sp.Min(c3 * sp.log(c4 * sp.Max(sp.sqrt(m_t * x), 1)) / (x * S**2), 4),
        "tau": sp.sqrt(2 * sp.log(8 * sp.Max(sp.sqrt(m_t * x), 1)) / m_t),
        "rate_13": 1 / (x * E**2),
        "rate_14": sp.log(x) / (x * E**2),
    }


@lru_cache(maxsize=None)
def _rates_numeric() -> Callable[..., list[Any]]:
    x, E = sp.symbols("x E", positive=True)
    f = symbolic()
    return sp.lambdify((x, E), [f["rate_13"], f["rate_14"]], "numpy")


def asymptotic_rates(sizes: SizeLaw, *, n_alpha2: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    r"""The asymptotic rates (13) and (14) (without constants) along ``n_alpha2``.

    .. math:: \text{(13)}\ \frac{1}{n\alpha^2 E[\sqrt m]^2}, \qquad
              \text{(14)}\ \frac{\log(n\alpha^2)}{n\alpha^2 E[\sqrt m]^2}

    Beyond the float range the rates are ``inf`` (``n_alpha2`` near 5e-324) or ``0`` (from about
    1e308 on, where :math:`n\alpha^2 E[\sqrt m]^2` overflows), without warnings.

    Source: Pla et al. (2024), eqs. (13)–(14) (lambdified once from :func:`symbolic`).

    Examples
    --------
    >>> from bounds import sizes
    >>> lo, up = asymptotic_rates(sizes.point(4), n_alpha2=[1.0, 100.0])
    >>> lo.tolist()
    [0.25, 0.0025]
    """
    law = _law(sizes)
    xs = _n_alpha2_array(n_alpha2)
    with np.errstate(over="ignore", divide="ignore"):  # beyond the float range: +inf or 0, as the rates are
        r13, r14 = _rates_numeric()(xs, float(law.sqrt_mean()))
    return np.asarray(r13, dtype=float), np.asarray(r14, dtype=float)
