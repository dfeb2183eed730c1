r"""Kent et al. (2024): the rates — their constants, symbolic forms, fast numeric forms and :func:`rate`."""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..numerics import check_choice, check_integer, check_positive, check_real, format_value

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
