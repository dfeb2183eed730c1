r"""Kent et al. (2024), Theorem 1 (eq. (8)): the rate from a covering number."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from numpy.typing import ArrayLike

from ..numerics import check_choice, check_integer, check_positive, check_real
from ._rates import _DELTA_GRID, _DIAMETER_RANGE, _LOG_RANGE, _MAX_BETA, _MAX_INT, BALLS, PROBLEMS, _budget
from ._transitions import _exp

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
