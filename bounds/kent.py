r"""Kent, Berrett & Yu: minimax rates and phase transitions under user-level LDP.

Source: Kent et al. (2024), with the formulas as reconstructed in the notes
``docs/kent.md``, each with a confidence tag —
**[V]** confirmed externally, **[S]** strongly supported, **[R]** reconstructed.

``n`` users hold ``T`` samples each; :math:`x = n\alpha^2`.  Every rate is a rate:
its unknown absolute constants are parameters (:class:`RateConstants`, all 1 by
default) and every result carries them — a value here is "the rate with these
constants", never a numeric bound.  Conventions: logarithmic factors are
:math:`\log(e \vee \cdot)` (so that they are at least 1), and upper rates are capped
at the trivial risk of :math:`\hat\theta = 0` (``1`` for the univariate and ℓ2 means,
``d`` for the ℓ∞ ball, ``s`` for the sparse mean) — both stated in each formula.
The estimators these rates are attained by are in :mod:`bounds.estimators.kent`.

Examples
--------
>>> from bounds import kent
>>> r = kent.rate("mean", n=1000, T=100, alpha=0.5)
>>> r.regime, r.confidence
('small-T', 'S')
>>> r.lower  # max(min(1, 1/(nTα²)), e^{-nα²}) with c = c1 = 1
4e-05
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
from numpy.typing import ArrayLike

from .numerics import check_choice, check_integer, check_positive, check_real, format_value

__all__ = [
    "RateConstants",
    "Rate",
    "rate",
    "PhaseTransition",
    "phase_transition",
    "estimator_cap",
    "dame_quote_lower",
    "symbolic",
    "covering",
    "Theorem1",
    "theorem1",
    "comparison_table",
]

PROBLEMS = ("mean", "sparse", "density")
BALLS = ("linf", "l2")

CONFIDENCE = {"mean": "S", "sparse": "R", "density": "S"}  # each problem's tag in docs/kent.md

if TYPE_CHECKING:
    import sympy as sp


@lru_cache(maxsize=None)
def _symbols() -> tuple[Any, ...]:
    """The sympy symbols ``n, T, alpha, d, s, beta, c, C, c1, c2`` and ``x = n alpha²`` (sympy imported here:
    the numeric rates of :func:`rate` do not need it)."""
    import sympy as sp

    n, T, a, d, s, b = sp.symbols("n T alpha d s beta", positive=True)
    c, C, c1, c2 = sp.symbols("c C c1 c2", positive=True)
    return n, T, a, d, s, b, c, C, c1, c2, n * a**2


def _L(u: sp.Expr) -> sp.Expr:
    """log(e ∨ u): a logarithmic factor that is at least 1."""
    import sympy as sp

    return sp.log(sp.Max(u, sp.E))


def _sparse_factor(u: sp.Expr) -> sp.Expr:
    """min{u, 1 + log(1 ∨ u)}: u for u <= 1, 1 + log u above — the [R] sparse factor, same order as log(1 + u)."""
    import sympy as sp

    return sp.Min(u, 1 + sp.log(sp.Max(u, 1)))


# =========================================================================== constants, results


@dataclass(frozen=True)
class RateConstants:
    r"""Unknown absolute constants: ``c`` (lower), ``C`` (upper), ``c1``, ``c2`` (exponents).

    .. math:: \text{lower} = c \cdot (\dots \vee e^{-c_1 n\alpha^2/\cdot}),\qquad
              \text{upper} = C \cdot (\dots + e^{-c_2 n\alpha^2/\cdot})

    Source: ``docs/kent.md`` §2, §5 (the constants are not given explicitly; §2 suggests
    :math:`c_1 \approx 4(e-1)^2`, §3 :math:`c_2 \approx 1/34` — reconstructed).

    Examples
    --------
    >>> RateConstants()
    RateConstants(c=1.0, C=1.0, c1=1.0, c2=1.0)
    """

    c: float = 1.0
    C: float = 1.0
    c1: float = 1.0
    c2: float = 1.0

    def __post_init__(self) -> None:
        for name in ("c", "C", "c1", "c2"):
            object.__setattr__(self, name, check_positive(name, getattr(self, name)))

    def subs(self) -> dict[sp.Symbol, float]:
        """The constants as a sympy substitution for the forms of :func:`symbolic`."""
        c_, C_, c1_, c2_ = _symbols()[6:10]
        return {c_: self.c, C_: self.C, c1_: self.c1, c2_: self.c2}


@dataclass(frozen=True)
class Rate:
    """A problem's lower and upper rates at one point, with the regime and the item-level rate.

    ``item_level`` is the item-level rate with ``nT`` users; ``confidence`` is the
    formula's tag in ``docs/kent.md`` and ``reconstructed`` is true for [R] forms.
    """

    problem: str
    lower: float
    upper: float
    item_level: float
    regime: str
    confidence: str
    reconstructed: bool
    lower_terms: tuple  # (polynomial, exponential) inside c·max(·, ·)
    n: int
    T: int
    alpha: float
    d: int
    s: int | None
    beta: float | None
    ball: str
    constants: RateConstants = field(repr=False)


# =========================================================================== symbolic forms


def symbolic(problem: str, ball: str = "linf") -> dict:
    r"""The rates of one problem as sympy expressions in ``n, T, alpha, d, s, beta, c, C, c1, c2``.

    Keys: ``poly`` and ``exp`` (the two terms of the lower rate), ``lower``, ``upper``,
    ``item_level`` (with ``nT`` users), ``log_T_dagger`` (log of the lower rate's
    phase-transition boundary), ``confidence``.

    .. math::

        \text{mean, } \ell_\infty:\ c\Big\{\min\Big(d, \frac{d^2}{nT\alpha^2}\Big) \vee e^{-c_1 n\alpha^2/d}\Big\}
        \lesssim \mathfrak M \lesssim d \wedge C\Big\{\frac{d^2\log(nT\alpha^2)}{nT\alpha^2} + e^{-c_2 n\alpha^2/d}\Big\}

        \text{mean, } \ell_2:\ c\Big\{\min\Big(1, \frac{d}{nT\alpha^2}\Big) \vee e^{-c_1 n\alpha^2/d}\Big\}
        \lesssim \mathfrak M \lesssim 1 \wedge C\Big\{\frac{d\log(nT\alpha^2)}{nT\alpha^2} + e^{-c_2 n\alpha^2/d}\Big\}

        \text{sparse [R]:}\ c\Big\{\min\Big(s, \frac sT\,\psi\big(\tfrac{d}{n\alpha^2}\big)\Big) \vee e^{-c_1 n\alpha^2/s}\Big\},
        \qquad \psi(u) = \min\{u,\ 1 + \log(1 \vee u)\}

        \text{density:}\ c\{(nT\alpha^2)^{-\frac{\beta}{\beta+1}} \vee (n\alpha^2)^{-2\beta}\}
        \lesssim \mathfrak M \lesssim C\Big\{\log(nT\alpha^2)(nT\alpha^2)^{-\frac{\beta}{\beta+1}}
        + \Big(\frac{n\alpha^2}{\log n\alpha^2}\Big)^{-2\beta}\Big\}

    With ``d = 1`` the mean rates are Theorem 6's univariate ones (eq. (24)).  The
    sparse upper rate is the minimum of ``s`` and Procedures 1–2 (§8 of ``docs/kent.md``).

    The sparse polynomial term is reconstructed [R].  ``docs/kent.md`` §8 writes it
    :math:`\min\{s, \frac sT\log(1 + d/(n\alpha^2))\}`; here :math:`\log(1 + u)` is replaced by
    :math:`\psi(u) = \min\{u, 1 + \log(1 \vee u)\}`, of the same order in both regimes
    (:math:`u` for :math:`u \le 1`, :math:`\log u` for :math:`u \gg 1`, and
    :math:`1/(e-1) \le \log(1+u)/\psi(u) \le 1`), so that at ``T = 1`` the lower rate *equals* the
    item-level rate :math:`\min\{s, sd/(n\alpha^2)\}` — user- and item-level are then the same
    problem, whereas :math:`\log(1+u) < u` made user-level look better there.

    Source: Kent et al. (2024), Theorems 6, 8, 9 (eqs. (24), (38), (49)–(50));
    ``docs/kent.md`` §5, §8, §9.

    Examples
    --------
    >>> symbolic("mean")["poly"]
    Min(d, d**2/(T*alpha**2*n))
    """
    return dict(_symbolic(check_choice("problem", problem, PROBLEMS), check_choice("ball", ball, BALLS)))


@lru_cache(maxsize=None)
def _symbolic(problem: str, ball: str) -> dict:
    """:func:`symbolic` for validated arguments, built once."""
    import sympy as sp

    n_, T_, a_, d_, s_, b_, c_, C_, c1_, c2_, x_ = _symbols()
    xT = x_ * T_
    if problem == "mean":
        if ball == "linf":
            poly, expo = sp.Min(d_, d_**2 / xT), sp.exp(-c1_ * x_ / d_)
            upper = sp.Min(d_, C_ * (d_**2 * _L(xT) / xT + sp.exp(-c2_ * x_ / d_)))
            item = sp.Min(d_, d_**2 / xT)
            log_td = c1_ * x_ / d_ + sp.log(d_**2 / x_)
        else:
            poly, expo = sp.Min(1, d_ / xT), sp.exp(-c1_ * x_ / d_)
            upper = sp.Min(1, C_ * (d_ * _L(xT) / xT + sp.exp(-c2_ * x_ / d_)))
            item = sp.Min(1, d_ / xT)
            log_td = c1_ * x_ / d_ + sp.log(d_ / x_)
    elif problem == "sparse":
        poly, expo = sp.Min(s_, s_ / T_ * _sparse_factor(d_ / x_)), sp.exp(-c1_ * x_ / s_)
        proc1 = s_ * _L(d_) / T_ + s_**2 * _L(xT) / xT + sp.exp(-c2_ * x_ / (s_ * _L(d_)))
        proc2 = s_ * d_ * _L(xT) / xT + sp.exp(-c2_ * x_ / d_)
        upper = sp.Min(s_, C_ * sp.Min(proc1, proc2))
        item = sp.Min(s_, s_ * d_ / xT)
        log_td = c1_ * x_ / s_ + sp.log(s_ * _sparse_factor(d_ / x_))
    else:
        poly, expo = xT ** (-b_ / (b_ + 1)), x_ ** (-2 * b_)
        upper = C_ * (_L(xT) * xT ** (-b_ / (b_ + 1)) + (x_ / _L(x_)) ** (-2 * b_))
        item = xT ** (-b_ / (b_ + 1))
        log_td = (2 * b_ + 1) * sp.log(x_)  # (nTα²)^{-β/(β+1)} = (nα²)^{-2β}  ⇔  T = (nα²)^{2β+1}
    return {
        "poly": poly, "exp": expo, "lower": c_ * sp.Max(poly, expo), "upper": upper,
        "item_level": item, "log_T_dagger": log_td, "confidence": CONFIDENCE[problem],
    }


def _lambdified(problem: str, ball: str) -> dict:
    """The symbolic forms lambdified (numpy): the oracle of :func:`_numeric` in the tests."""
    import sympy as sp

    return {k: sp.lambdify(_symbols()[:10], v, "numpy") for k, v in _symbolic(problem, ball).items()
            if k != "confidence"}


def _Ln(u: Any) -> Any:
    return np.log(np.maximum(u, math.e))


def _psi(u: Any) -> Any:
    return np.minimum(u, 1 + np.log(np.maximum(u, 1)))


@lru_cache(maxsize=None)
def _numeric(problem: str, ball: str) -> dict:
    """The forms of :func:`symbolic` in numpy (no sympy: ``bounds kent`` starts fast), keyed as there.

    Each takes ``(n, T, alpha, d, s, beta, c, C, c1, c2)``; the tests check them against the
    lambdified symbolic forms.
    """
    forms: dict[str, Callable[..., Any]] = {}
    if problem == "mean":
        def trivial(d: Any) -> Any:
            return d if ball == "linf" else 1

        def size(d: Any) -> Any:
            return d**2 if ball == "linf" else d

        forms["poly"] = lambda n, T, a, d, s, b, c, C, c1, c2: np.minimum(trivial(d), size(d) / (n * a**2 * T))
        forms["exp"] = lambda n, T, a, d, s, b, c, C, c1, c2: np.exp(-c1 * n * a**2 / d)
        forms["upper"] = lambda n, T, a, d, s, b, c, C, c1, c2: np.minimum(
            trivial(d), C * (size(d) * _Ln(n * a**2 * T) / (n * a**2 * T) + np.exp(-c2 * n * a**2 / d)))
        forms["item_level"] = forms["poly"]
        forms["log_T_dagger"] = lambda n, T, a, d, s, b, c, C, c1, c2: (
            c1 * n * a**2 / d + np.log(size(d) / (n * a**2)))
    elif problem == "sparse":
        forms["poly"] = lambda n, T, a, d, s, b, c, C, c1, c2: np.minimum(s, s / T * _psi(d / (n * a**2)))
        forms["exp"] = lambda n, T, a, d, s, b, c, C, c1, c2: np.exp(-c1 * n * a**2 / s)

        def upper(n: Any, T: Any, a: Any, d: Any, s: Any, b: Any, c: Any, C: Any, c1: Any, c2: Any) -> Any:
            x, xT = n * a**2, n * a**2 * T
            proc1 = s * _Ln(d) / T + s**2 * _Ln(xT) / xT + np.exp(-c2 * x / (s * _Ln(d)))
            proc2 = s * d * _Ln(xT) / xT + np.exp(-c2 * x / d)
            return np.minimum(s, C * np.minimum(proc1, proc2))

        forms["upper"] = upper
        forms["item_level"] = lambda n, T, a, d, s, b, c, C, c1, c2: np.minimum(s, s * d / (n * a**2 * T))
        forms["log_T_dagger"] = lambda n, T, a, d, s, b, c, C, c1, c2: (
            c1 * n * a**2 / s + np.log(s * _psi(d / (n * a**2))))
    else:
        forms["poly"] = lambda n, T, a, d, s, b, c, C, c1, c2: (n * a**2 * T) ** (-b / (b + 1))
        forms["exp"] = lambda n, T, a, d, s, b, c, C, c1, c2: (n * a**2) ** (-2 * b)
        forms["upper"] = lambda n, T, a, d, s, b, c, C, c1, c2: C * (
            _Ln(n * a**2 * T) * (n * a**2 * T) ** (-b / (b + 1)) + (n * a**2 / _Ln(n * a**2)) ** (-2 * b))
        forms["item_level"] = forms["poly"]
        forms["log_T_dagger"] = lambda n, T, a, d, s, b, c, C, c1, c2: (2 * b + 1) * np.log(n * a**2)
    poly, expo = forms["poly"], forms["exp"]
    forms["lower"] = lambda *args: args[6] * np.maximum(poly(*args), expo(*args))
    return forms


_MAX_INT = 10**300  # integer parameters enter the rates as float64
_LOG_RANGE = 690.0  # nα² and nTα² must lie in [e^-690, e^690] ≈ [1e-300, 1e300]
_MAX_BETA = 1e6  # Sobolev smoothness: δ^(-1/β) and the exponents 2β/(2β+2) are flat to float64 beyond
_LOG_FLOAT_MAX = math.log(sys.float_info.max)  # ≈ 709.78: exp of more overflows float64
_DIAMETER_RANGE = (1e-300, 1e300)  # Theorem 1's δ grid spans e^-690 D..D: it stays normal in float64
MAX_GRID_AXIS = 10**5
"""Largest number of ``T`` (and of ``alpha``) values of :func:`rate_grid`; the grid has at most 10**8 cells."""
_DELTA_GRID = 4001  # points of the log δ grid of Theorem 1 before the bounded Brent refinement


def _budget(n: int, T: int, alpha: float) -> float:
    """``x = nα²`` after checking that it and ``nTα²`` stay inside the float64 range of the rates."""
    lx = math.log(n) + 2 * math.log(alpha)
    for name, v in (("n·alpha²", lx), ("n·T·alpha²", lx + math.log(T))):
        if abs(v) > _LOG_RANGE:
            raise ValueError(f"{name} = e^{v:.6g} is outside [1e-300, 1e300], the float64 range of the rates "
                             f"(n = {format_value(n)}, T = {format_value(T)}, alpha = {alpha!r})")
    return n * alpha * alpha


def _constants(constants: RateConstants | None) -> RateConstants:
    if constants is None:
        return RateConstants()
    if not isinstance(constants, RateConstants):
        raise ValueError(f"constants must be a RateConstants, got {constants!r}")
    return constants


def _inputs(problem: str, n: int, T: int, alpha: float, d: int, s: int | None, beta: float | None,
            ball: str) -> tuple[int, int, float, int, int | None, float | None]:
    problem = check_choice("problem", problem, PROBLEMS)
    ball = check_choice("ball", ball, BALLS)
    n = check_integer("n", n, minimum=1, maximum=_MAX_INT)
    T = check_integer("T", T, minimum=1, maximum=_MAX_INT)
    alpha = check_positive("alpha", alpha)
    d = check_integer("d", d, minimum=1, maximum=_MAX_INT)
    _budget(n, T, alpha)
    if problem == "sparse" and s is None:
        raise ValueError("the sparse problem needs s (the number of non-zero coordinates)")
    if s is not None:
        s = check_integer("s", s, minimum=1, maximum=_MAX_INT)
        if s > d:
            raise ValueError(f"s = {s} exceeds d = {d}")
    if problem == "density" and beta is None:
        raise ValueError("the density problem needs beta (the Sobolev smoothness)")
    if beta is not None:
        beta = check_real("beta", beta, low=0, low_open=True, high=_MAX_BETA)
    # s and beta enter only their own problem's forms
    return n, T, alpha, d, s if problem == "sparse" else None, beta if problem == "density" else None


def _call(f: Callable[..., Any], n: int, T: int, alpha: float, d: int, s: int | None, beta: float | None,
          consts: RateConstants) -> float:
    args = (n, T, alpha, d, s if s is not None else 1, beta if beta is not None else 1.0,
            consts.c, consts.C, consts.c1, consts.c2)
    with np.errstate(under="ignore", over="ignore", divide="ignore"):
        out = float(f(*(np.float64(v) for v in args)))
    if math.isnan(out):  # pragma: no cover - the range checks keep every form defined
        raise ValueError(f"the rate is not defined in float64 at n = {n}, T = {T}, alpha = {alpha!r}")
    return out


def rate(problem: str, *, n: int, T: int, alpha: float, d: int = 1, s: int | None = None, beta: float | None = None,
         ball: str = "linf", constants: RateConstants | None = None) -> Rate:
    r"""The minimax rates of Kent, Berrett & Yu at one point ``(n, T, α)``.

    ``problem``: ``"mean"`` (univariate for ``d = 1``; ℓ∞- or ℓ2-ball for ``d > 1``,
    chosen by ``ball``), ``"sparse"`` (needs ``s``; the reconstructed [R] form) or
    ``"density"`` (Sobolev, needs ``beta``).  ``regime`` is ``"small-T"`` where the
    polynomial term of the lower rate dominates (:math:`T \le T^\dagger`) and
    ``"large-T"`` where the exponential (infinite-T) term does.

    .. math:: \text{lower} = c\,\{\text{poly}(nT\alpha^2) \vee e^{-c_1 n\alpha^2/\cdot}\},\qquad
              \text{upper} = \text{trivial} \wedge C\{\dots\}

    (the forms are those of :func:`symbolic`, lambdified once).

    Source: Kent et al. (2024), eqs. (6), (7), (24), (38), (49)–(50); ``docs/kent.md`` §2, §5, §8, §9.

    Examples
    --------
    >>> r = rate("density", n=100, T=10**9, alpha=1.0, beta=1.0)
    >>> r.regime, r.lower == 100.0**-2
    ('large-T', True)
    """
    n, T, alpha, d, s, beta = _inputs(problem, n, T, alpha, d, s, beta, ball)
    consts = _constants(constants)
    f = _numeric(problem, ball)
    poly, expo = (_call(f[key], n, T, alpha, d, s, beta, consts) for key in ("poly", "exp"))
    return Rate(
        problem,
        _call(f["lower"], n, T, alpha, d, s, beta, consts),
        _call(f["upper"], n, T, alpha, d, s, beta, consts),
        _call(f["item_level"], n, T, alpha, d, s, beta, consts),
        "small-T" if poly >= expo else "large-T",
        CONFIDENCE[problem],
        problem == "sparse",
        (poly, expo),
        n, T, alpha, d, s, beta, ball, consts,
    )


# =========================================================================== phase transitions


@dataclass(frozen=True)
class PhaseTransition:
    r"""The boundaries :math:`T^\dagger` where the two terms of each rate are equal.

    ``lower`` / ``log_lower``: the lower rate's polynomial and exponential terms;
    ``upper`` / ``log_upper``: the upper rate's two terms (``None`` for the sparse
    problem, whose upper rate is a minimum of procedures).  Values overflow to
    ``inf``; the logs do not.
    """

    lower: float
    log_lower: float
    upper: float | None
    log_upper: float | None
    problem: str


_NEWTON_STEPS = 200  # Newton steps of _log_solve (it needs fewer than 60 on 1 < Y <= 1e300)


def _log_solve(Y: float) -> float:
    r"""The root :math:`L > 1` of :math:`L - \log L = Y` (:math:`Y \ge 1`), bracketed."""
    if Y <= 1:
        return 1.0
    # g(L) = L - log L - Y is increasing and convex on L > 1, and g(Y + log Y + 1) >= 0: Newton's
    # iterates from there decrease monotonically to the root; stop when a step no longer decreases L.
    L = Y + math.log(Y) + 1.0
    for _ in range(_NEWTON_STEPS):
        step = (L - math.log(L) - Y) / (1 - 1 / L)
        if not step > 0 or L - step >= L:
            break
        L -= step
    return L


def phase_transition(problem: str, *, n: int, alpha: float, d: int = 1, s: int | None = None, beta: float | None = None,
                     ball: str = "linf", constants: RateConstants | None = None) -> PhaseTransition:
    r"""The phase-transition boundaries :math:`T^\dagger`, solved exactly.

    Lower rate (poly term = exponential term), in closed form:

    .. math:: \text{mean } \ell_\infty: T^\dagger = \frac{d^2}{n\alpha^2}e^{c_1 n\alpha^2/d},\quad
              \ell_2: \frac{d}{n\alpha^2}e^{c_1 n\alpha^2/d},\quad
              \text{sparse: } s\,\psi\Big(\frac{d}{n\alpha^2}\Big)e^{c_1 n\alpha^2/s},\quad
              \text{density: } (n\alpha^2)^{2\beta+1}

    (on the side where the polynomial term is below its cap).  Upper rate: with
    :math:`u = nT\alpha^2`, :math:`a\log u/u = e^{-c_2 n\alpha^2/\cdot}` (:math:`a = d^2` or :math:`d`)
    — and, for the density, :math:`\log u\, u^{-\beta/(\beta+1)} = (n\alpha^2/\log n\alpha^2)^{-2\beta}`
    — reduce to :math:`L - \log L = Y` for :math:`L = \log u` (or its power), whose root
    above 1 is bracketed in :math:`[Y, Y + \log Y + 1]` and found by Newton's method from the right
    end (monotone: the function is increasing and convex there); no grid.

    Source: ``docs/kent.md`` §5 ("Phase-transition boundaries (e)"), §8, §9.

    Examples
    --------
    >>> pt = phase_transition("mean", n=100, alpha=0.2)  # x = 4: e^4 / 4
    >>> round(pt.lower, 10)
    13.6495375083
    """
    n, _, alpha, d, s, beta = _inputs(problem, n, 1, alpha, d, s, beta, ball)
    consts = _constants(constants)
    x = n * alpha * alpha
    log_lower = _call(_numeric(problem, ball)["log_T_dagger"], n, 1, alpha, d, s, beta, consts)
    log_upper = None
    if problem == "mean":
        a = d * d if ball == "linf" else d
        dim = d
        # a log(u)/u = e^{-c2 x/dim}  ⇔  log u - log log u = c2 x/dim + log a
        L = _log_solve(consts.c2 * x / dim + math.log(a))
        log_upper = L - math.log(x)
    elif problem == "density":
        assert beta is not None  # _inputs requires it for the density problem
        r = beta / (beta + 1)
        # log(u) u^{-r} = y with y = (x / L(x))^{-2β}; v = u^r: log v / v = r y  ⇔  Lv - log Lv = -log(r y)
        Lx = math.log(max(x, math.e))
        log_y = -2 * beta * (math.log(x) - math.log(Lx))
        Lv = _log_solve(-(math.log(r) + log_y))
        log_upper = Lv / r - math.log(x)
    return PhaseTransition(
        _exp(log_lower), log_lower,
        None if log_upper is None else _exp(log_upper), log_upper, problem,
    )


def _exp(v: float) -> float:
    """``e^v``, ``inf`` where it overflows float64 (and 0 where it underflows, as ``math.exp`` does)."""
    return math.exp(v) if v <= _LOG_FLOAT_MAX else math.inf


def _floor_exp(n: int, alpha: float, K: float, d: int) -> int:
    """``max(1, ⌊e^{nα²/(Kd)}⌋)`` exactly: within rounding of an integer the floor is re-decided in mpmath."""
    e = math.exp(n * alpha * alpha / K / d)
    cap = math.floor(e)
    if abs(e - round(e)) <= 1e-9 * e:  # e.g. nα²/(Kd) = log 2 up to an ulp: 1.9999… or 2.0000…
        digits = 40 + int(math.log10(e))
        import mpmath  # only near an integer (the float path's start-up never imports it)

        with mpmath.workdps(digits):
            cap = int(mpmath.floor(mpmath.exp(mpmath.mpf(n) * mpmath.mpf(alpha) ** 2 / mpmath.mpf(K) / d)))
    return max(1, cap)


def estimator_cap(*, n: int, T: int, alpha: float, K: float = 1.0, d: int = 1) -> tuple[int, float]:
    r"""The univariate procedure's cap :math:`T^*` and bin half-width :math:`\tau` (eq. (25)).

    .. math:: T^* = \min\{T, e^{n\alpha^2/(Kd)}\},\qquad \tau = \sqrt{\frac{2\log(nT^*\alpha^2)}{T^*}}

    (per coordinate, ``d`` coordinates sharing the users, for the ℓ∞ procedure (31)–(32);
    :math:`T^*` is an integer: the exponential cap is rounded down, at least 1).

    Source: Kent et al. (2024), eq. (25); ``docs/kent.md`` §6 ([V-code] for τ).

    Examples
    --------
    >>> estimator_cap(n=100, T=10**6, alpha=0.2)  # e^4 ≈ 54.6; τ = √(2 log 216 / 54)
    (54, 0.4461887330...)
    """
    n = check_integer("n", n, minimum=1, maximum=_MAX_INT)
    T = check_integer("T", T, minimum=1, maximum=_MAX_INT)
    alpha, K = check_positive("alpha", alpha), check_positive("K", K)
    d = check_integer("d", d, minimum=1, maximum=_MAX_INT)
    _budget(n, T, alpha)
    expo = n * alpha * alpha / K / d
    cap = _floor_exp(n, alpha, K, d) if expo < 700 else T
    t_star = min(T, cap)
    inner = math.log(n * t_star * alpha * alpha)
    if inner <= 0:
        raise ValueError(f"nT*α² = {n * t_star * alpha * alpha:g} <= 1: τ of eq. (25) is not defined "
                         f"(n = {n}, T = {T}, alpha = {alpha!r})")
    return t_star, math.sqrt(2 * inner / t_star)


def dame_quote_lower(*, n: int, T: int, alpha: float, constants: RateConstants | None = None) -> float:
    r"""Kent's univariate lower rate as the DAME paper quotes it: with ``∧`` where Kent has ``∨``.

    .. math:: c\,\{e^{-c_1 n\alpha^2} \wedge (nT\alpha^2)^{-1}\}\quad\text{vs. Kent's}\quad
              c\,\{(1 \wedge (nT\alpha^2)^{-1}) \vee e^{-c_1 n\alpha^2}\}

    Source: Pla et al. (2024), §4.2 (the quote of Kent et al., Theorem 6);
    ``docs/kent.md`` §5 ("Check of the DAME quote").

    Examples
    --------
    >>> dame_quote_lower(n=1000, T=10**6, alpha=0.1)  # min(e^-10, 1e-7)
    1e-07
    """
    n = check_integer("n", n, minimum=1, maximum=_MAX_INT)
    T = check_integer("T", T, minimum=1, maximum=_MAX_INT)
    alpha = check_positive("alpha", alpha)
    x = _budget(n, T, alpha)
    consts = _constants(constants)
    return consts.c * min(math.exp(-consts.c1 * x), 1 / x / T)


# =========================================================================== Theorem 1 (eq. 8)


def covering(problem: str, *, d: int = 1, s: int | None = None, beta: float | None = None, ball: str = "linf",
             constant: float | None = 1.0) -> Callable[[Any], np.ndarray]:
    r"""A log covering number :math:`\log N(\delta)` of Propositions 3–5 (``docs/kent.md`` §4).

    .. math::

        \ell_\infty\text{-cube in } \ell_2: d\log(c\sqrt d/\delta),\quad
        \ell_2\text{-ball}: d\log(c/\delta)\ (\text{lower}),\ d\log(1 + 2/\delta)\ (\text{upper}),

        \text{sparse: } s\log(ed/s) + s\log(c\sqrt s/\delta),\quad
        \text{Sobolev: } c\,\delta^{-1/\beta}

    ``constant`` is the ``c`` (or ``C``) of the two-sided estimate; each is floored at 0.
    For the ℓ2 ball, ``constant=None`` selects the upper form :math:`d\log(1 + 2/\delta)`.

    Source: Kent et al. (2024), eqs. (55)–(57), (60), (63)–(64), (67).

    Examples
    --------
    >>> round(float(covering("mean", d=2, ball="l2")(0.5)), 12)  # 2 log 2
    1.38629436112
    """
    problem = check_choice("problem", problem, PROBLEMS)
    ball = check_choice("ball", ball, BALLS)
    d = check_integer("d", d, minimum=1, maximum=_MAX_INT)
    if s is not None:  # checked whenever given, also where the problem does not use it
        s = check_integer("s", s, minimum=1, maximum=d)
    if beta is not None:
        beta = check_real("beta", beta, low=0, low_open=True, high=_MAX_BETA)
    if problem == "mean" and ball == "l2" and constant is None:
        return lambda delta: d * np.log1p(2.0 / delta)
    c = check_positive("constant", constant)
    if problem == "mean":
        if ball == "linf":
            return lambda delta: d * np.log(np.maximum(c * math.sqrt(d) / delta, 1.0))
        return lambda delta: d * np.log(np.maximum(c / delta, 1.0))
    if problem == "sparse":
        if s is None:
            raise ValueError("the sparse covering needs s")
        s = check_integer("s", s, minimum=1, maximum=d)
        return lambda delta: s * math.log(math.e * d / s) + s * np.log(np.maximum(c * math.sqrt(s) / delta, 1.0))
    if beta is None:
        raise ValueError("the Sobolev covering needs beta")
    beta = check_real("beta", beta, low=0, low_open=True, high=_MAX_BETA)
    return lambda delta: c * np.asarray(delta, dtype=float) ** (-1.0 / beta)


@dataclass(frozen=True)
class Theorem1:
    """Eq. (8) optimised over δ: ``lower`` at ``delta_lower``, ``upper`` at ``delta_upper`` (with their logs)."""

    lower: float
    log_lower: float
    delta_lower: float
    upper: float
    log_upper: float
    delta_upper: float
    n_alpha2: float


def theorem1(log_covering: Callable[[np.ndarray], ArrayLike], *, n: int, alpha: float, diameter: float,
             loss_power: float = 2.0, c0: float = 1.0, c1: float = 1.0,
             log_covering_upper: Callable[[np.ndarray], ArrayLike] | None = None) -> Theorem1:
    r"""Theorem 1 (eq. (8)): infinite-T bounds from a covering number, optimal δ found numerically.

    .. math::

        \Phi(\delta/2)\Big(1 - \frac{c_0 n\alpha^2 + \log 2}{\log N(\delta)}\Big)
        \le \mathfrak M_{n,\infty} \le \Phi(\delta) + \Phi(D)\,N(\delta)\,e^{-c_1 n\alpha^2},
        \qquad \Phi(t) = t^q

    Both sides are evaluated in log space over :math:`\log\delta \in [\log D - 690, \log D]`
    (so neither :math:`\Phi(\delta)` nor :math:`N(\delta)` under- or overflows): a 4001-point grid,
    refined by bounded Brent around the best grid point.  ``log_covering`` maps δ to
    :math:`\log N(\delta)`; ``log_covering_upper`` (default: the same) is used on the upper side,
    for two-sided covering estimates.  By Corollary 2 the lower side bounds
    :math:`\mathfrak M_{n,T}` for every ``T``.  Where no δ in range makes the lower side positive
    it is 0 (``log_lower = -inf``).

    Source: Kent et al. (2024), Theorem 1, eq. (8), Corollary 2 (eq. (9)); ``docs/kent.md`` §3.

    Examples
    --------
    >>> th = theorem1(covering("mean", d=1), n=50, alpha=0.1, diameter=2.0)  # nα² = 0.5
    >>> 0 < th.lower <= th.upper
    True
    """
    from scipy import optimize

    if not callable(log_covering):
        raise ValueError(f"log_covering must be a function of delta, got {log_covering!r}")
    if log_covering_upper is not None and not callable(log_covering_upper):
        raise ValueError(f"log_covering_upper must be a function of delta or None, got {log_covering_upper!r}")
    n = check_integer("n", n, minimum=1, maximum=_MAX_INT)
    alpha = check_positive("alpha", alpha)
    D = check_real("diameter", diameter, low=0, low_open=True, high=_DIAMETER_RANGE[1])
    if D < _DIAMETER_RANGE[0]:
        raise ValueError(f"diameter must be at least {_DIAMETER_RANGE[0]:g} (float64 range of the δ grid), got {diameter!r}")
    q = check_real("loss_power", loss_power, low=0, low_open=True, high=100)
    c0, c1 = check_positive("c0", c0), check_positive("c1", c1)
    x = _budget(n, 1, alpha)
    low_cov, up_cov = _checked_covering(log_covering), _checked_covering(log_covering_upper or log_covering)
    A = c0 * x + math.log(2)

    def log_low(t: np.ndarray) -> np.ndarray:
        lN = low_cov(t)
        ok = lN > A
        frac = np.where(ok, 1 - A / np.where(ok, lN, 1.0), 1.0)
        return np.where(ok, q * (t - math.log(2)) + np.log(frac), -np.inf)

    def log_up(t: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return np.logaddexp(q * t, q * math.log(D) + up_cov(t) - c1 * x)

    grid = np.linspace(math.log(D) - _LOG_RANGE, math.log(D), _DELTA_GRID)
    lo_v, up_v = log_low(grid), log_up(grid)
    i, j = int(np.argmax(lo_v)), int(np.argmin(up_v))
    best_lo, arg_lo = float(lo_v[i]), float(grid[i])
    if math.isfinite(best_lo):
        res = optimize.minimize_scalar(lambda t: -float(log_low(t)), bounds=_around(grid, i), method="bounded",
                                       options={"xatol": 1e-12})
        if -res.fun > best_lo:
            best_lo, arg_lo = float(-res.fun), float(res.x)
    res = optimize.minimize_scalar(lambda t: float(log_up(t)), bounds=_around(grid, j), method="bounded",
                                   options={"xatol": 1e-12})
    best_up, arg_up = (float(up_v[j]), float(grid[j])) if res.fun >= up_v[j] else (float(res.fun), float(res.x))
    return Theorem1(_exp(best_lo), best_lo, math.exp(arg_lo), _exp(best_up), best_up, math.exp(arg_up), x)


def _checked_covering(log_covering: Callable[[np.ndarray], ArrayLike]) -> Callable[[np.ndarray], np.ndarray]:
    """``t ↦ log N(e^t)`` as a float array, refusing a NaN or negative log covering number."""

    def at(t: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore", divide="ignore"):
            lN = np.asarray(log_covering(np.exp(t)), dtype=float)
        if np.any(np.isnan(lN)) or np.any(lN < 0):
            raise ValueError(f"log_covering must return log covering numbers >= 0, got {lN!r}")
        return lN

    return at


def _around(grid: np.ndarray, i: int) -> tuple[float, float]:
    return (float(grid[max(i - 1, 0)]), float(grid[min(i + 1, len(grid) - 1)]))


# =========================================================================== comparison tables


def comparison_table(problem: str, ball: str = "linf") -> dict:
    r"""The paper's comparison table of rates for one problem, as sympy expressions.

    Keys are settings (non-private, local item-level, local user-level small/large T,
    central item-level, central user-level small T where known); values are
    ``(expression, confidence)``, in ``n, T, alpha, d, s, beta`` (lambdify them to plot).
    The tables are reconstructed [R], except the "small T ≈ item-level with nT
    users" entries [S].

    .. math:: \text{e.g. } \ell_\infty:\ \frac{d}{nT},\ \frac{d^2}{nT\alpha^2},\ \frac{d^2}{nT\alpha^2},\
              e^{-cn\alpha^2/d},\ \frac{d}{nT} + \frac{d^2}{n^2T^2\alpha^2},\ \frac{d}{nT} + \frac{d^2}{n^2T\alpha^2}

    Source: Kent et al. (2024), Tables 2–4; ``docs/kent.md`` §10.

    Examples
    --------
    >>> comparison_table("density")["local item-level"][0]
    (T*alpha**2*n)**(-beta/(beta + 1))
    """
    import sympy as sp

    problem = check_choice("problem", problem, PROBLEMS)
    ball = check_choice("ball", ball, BALLS)
    n_, T_, a_, d_, s_, b_, c_, C_, c1_, c2_, x_ = _symbols()
    xT = x_ * T_
    if problem == "mean":
        dim = d_ if ball == "linf" else 1
        sq = d_**2 if ball == "linf" else d_
        return {
            "non-private": (dim / (n_ * T_), "R"),
            "local item-level": (sq / xT, "R"),
            "local user-level, small T": (sq / xT, "S"),
            "local user-level, large T": (sp.exp(-c1_ * x_ / d_), "S"),
            "central item-level": (dim / (n_ * T_) + sq / (n_**2 * T_**2 * a_**2), "R"),
            "central user-level, small T": (dim / (n_ * T_) + sq / (n_**2 * T_ * a_**2), "R"),
        }
    if problem == "sparse":
        return {
            "non-private": (s_ * sp.log(sp.E * d_ / s_) / (n_ * T_), "R"),
            "local item-level": (sp.Min(s_, s_ * d_ / xT), "R"),
            "local user-level, small T": (sp.Min(s_, s_ / T_ * _sparse_factor(d_ / x_)), "R"),
            "local user-level, large T": (sp.exp(-c1_ * x_ / s_), "S"),
            "central item-level": (s_ * sp.log(d_) / (n_ * T_) + s_**2 * sp.log(d_) ** 2 / (n_**2 * T_**2 * a_**2), "R"),
        }
    return {  # density
        "non-private": ((n_ * T_) ** (-2 * b_ / (2 * b_ + 1)), "R"),
        "local item-level": (xT ** (-b_ / (b_ + 1)), "R"),
        "local user-level, small T": (xT ** (-b_ / (b_ + 1)), "S"),
        "local user-level, large T": (x_ ** (-2 * b_), "S"),
        "central item-level": ((n_ * T_) ** (-2 * b_ / (2 * b_ + 1)) + (n_ * T_ * a_) ** (-2 * b_ / (b_ + 1)), "R"),
    }


# =========================================================================== regime maps


@dataclass(frozen=True)
class RateGrid:
    r"""The rates of :func:`rate` over a 2-D grid :math:`T \times \alpha` at fixed ``n``.

    Arrays have shape ``(len(T), len(alpha))``; ``regime`` is 0 for ``"small-T"`` (the
    polynomial term of the lower rate dominates) and 1 for ``"large-T"``.
    """

    problem: str
    n: int
    T: np.ndarray
    alpha: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    item_level: np.ndarray
    regime: np.ndarray
    constants: RateConstants = field(repr=False)


def rate_grid(problem: str, *, n: int, T: ArrayLike, alpha: ArrayLike, d: int = 1, s: int | None = None,
              beta: float | None = None, ball: str = "linf", constants: RateConstants | None = None) -> RateGrid:
    r"""Kent, Berrett & Yu's rates over :math:`T \times \alpha` in one vectorised evaluation.

    .. math:: \big(\text{lower}, \text{upper}, \text{item-level}\big)(n, T_i, \alpha_j),
              \quad \text{regime}_{ij} = \mathbb 1\{e^{-c_1 n\alpha_j^2/\cdot} > \text{poly}(nT_i\alpha_j^2)\}

    The same lambdified forms as :func:`rate` (values agree with it point by point), called
    once on broadcast arrays.

    Source: Kent et al. (2024), eqs. (6), (7), (24), (38), (49)–(50); ``docs/kent.md`` §2, §5, §8, §9.

    Examples
    --------
    >>> g = rate_grid("mean", n=1000, T=[1, 10**3, 10**9], alpha=[0.1, 1.0])
    >>> g.regime.tolist()  # 1: large-T (the exponential term dominates)
    [[0, 0], [0, 0], [1, 0]]
    """
    Ts = np.atleast_1d(np.asarray(T, dtype=object)).ravel()
    As = np.atleast_1d(np.asarray(alpha, dtype=object)).ravel()
    if Ts.size == 0 or As.size == 0 or np.ndim(T) > 1 or np.ndim(alpha) > 1:
        raise ValueError(f"T and alpha must be non-empty 1-D arrays, got T={T!r}, alpha={alpha!r}")
    for name, arr in (("T", Ts), ("alpha", As)):
        if arr.size > MAX_GRID_AXIS:
            raise ValueError(f"{name} must hold at most {MAX_GRID_AXIS} values (kent.MAX_GRID_AXIS: each is validated "
                             f"one by one), got {arr.size}")
    if Ts.size * As.size > MAX_GRID_AXIS**2 // 100:
        raise ValueError(f"T and alpha give {Ts.size} × {As.size} cells: at most {MAX_GRID_AXIS**2 // 100}")
    Ti = [_inputs(problem, n, t, As[0], d, s, beta, ball)[1] for t in Ts]
    Ai = [_inputs(problem, n, Ts[0], a, d, s, beta, ball)[2] for a in As]
    n, _, _, d, s, beta = _inputs(problem, n, Ts[0], As[0], d, s, beta, ball)
    consts = _constants(constants)
    f = _numeric(problem, ball)
    tt = np.asarray(Ti, dtype=float)[:, None]
    aa = np.asarray(Ai, dtype=float)[None, :]

    def ev(key: str) -> np.ndarray:
        with np.errstate(under="ignore", over="ignore"):
            out = f[key](n, tt, aa, d, s if s is not None else 1, beta if beta is not None else 1.0,
                         consts.c, consts.C, consts.c1, consts.c2)
        return np.broadcast_to(np.asarray(out, dtype=float), (tt.size, aa.size)).copy()

    poly, expo = ev("poly"), ev("exp")
    return RateGrid(problem, n, np.asarray(Ti), np.asarray(Ai, dtype=float), ev("lower"), ev("upper"),
                    ev("item_level"), np.where(poly >= expo, 0, 1), consts)


__all__ += ["RateGrid", "rate_grid"]
