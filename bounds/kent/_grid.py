r"""Kent et al. (2024): the comparison tables and vectorised rate maps."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from ..numerics import check_choice
from ._rates import (BALLS, MAX_GRID_AXIS, PROBLEMS, RateConstants, _constants, _inputs, _numeric, _sparse_factor,
                     _symbols)

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
            out = f[key](n, tt, aa, np.float64(d), s if s is not None else 1, beta if beta is not None else 1.0,
                         consts.c, consts.C, consts.c1, consts.c2)
        return np.broadcast_to(np.asarray(out, dtype=float), (tt.size, aa.size)).copy()

    poly, expo = ev("poly"), ev("exp")
    return RateGrid(problem, n, np.asarray(Ti), np.asarray(Ai, dtype=float), ev("lower"), ev("upper"),
                    ev("item_level"), np.where(poly >= expo, 0, 1), consts)
