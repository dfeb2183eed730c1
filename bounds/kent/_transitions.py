r"""Kent et al. (2024): the phase transitions :math:`T^\dagger`, the estimator's cap and DAME's quote of the lower bound."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..numerics import check_integer, check_positive
from ._rates import _LOG_FLOAT_MAX, _MAX_INT, RateConstants, _budget, _call, _constants, _inputs, _numeric

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
