r"""Summaries of simulated errors on the one comparison metric, and the grouped draws the methods share.

Users with the same count are exchangeable: where a method's output depends on a group of users only
through a sum, the sum is drawn exactly (a binomial, a multinomial over the group's law, a Gamma
difference for Laplace noise) instead of one draw per user.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

import numpy as np

from .results import Simulation


GROUPED = "grouped exact"
PER_USER = "per-user draws, frequent sizes counted"


def summarise(errors: np.ndarray, *, width: float, beta: float, engine: str, cpu: float, covers: str) -> Simulation:
    r"""RMSE / width (with its delta-method s.e.) and the :math:`1-\beta` quantile of ``|error|`` / width.

    .. math:: \widehat{\mathrm{RMSE}} = \sqrt{\tfrac1R \textstyle\sum_r e_r^2},\qquad
              \mathrm{se} = \frac{\mathrm{sd}(e^2)}{2\sqrt R\,\widehat{\mathrm{RMSE}}}

    Source: the Monte Carlo estimate of the risk, Pla et al. (2024), eq. (3), on the root scale.

    Examples
    --------
    >>> s = summarise(np.array([1.0, -1.0, 1.0, -1.0]), width=2.0, beta=0.1, engine=GROUPED, cpu=0.0, covers="")
    >>> s.rmse_rel, s.rmse_rel_se, s.quantile_rel
    (0.5, 0.0, 0.5)
    """
    e = np.asarray(errors, dtype=float)
    R = e.size
    sq = e * e
    mse = float(sq.mean())
    mse_se = float(sq.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf
    rmse = math.sqrt(mse)
    rmse_se = mse_se / (2 * rmse) if rmse > 0 else 0.0
    q = float(np.quantile(np.abs(e), 1 - beta))
    return Simulation(rmse / width, rmse_se / width, q / width, float(beta), int(R), engine, cpu / max(R, 1),
                      covers, mse, mse_se)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """``fn()`` and the CPU seconds this process spent in it."""
    start = time.process_time()
    out = fn()
    return out, time.process_time() - start


def levels_around(level: float, *, points: int = 25, span: float = 8.0) -> np.ndarray:
    r"""Privacy levels for a curve: ``points`` geometric steps from ``level/span`` to ``level·span``.

    .. math:: \ell_k = \ell\,\mathrm{span}^{2k/(P-1) - 1},\quad k = 0, \dots, P-1

    Source: a plotting grid defined here.

    Examples
    --------
    >>> levels_around(1.0, points=3, span=4.0).tolist()
    [0.25, 1.0, 4.0]
    """
    return level * np.geomspace(1 / span, span, points)


MAX_CURVE_WORK = 4 * 10**6
"""Points × size (distinct counts, or candidate bounds) a curve against the privacy level evaluates at most:
past it the curve has fewer points (never fewer than :data:`MIN_CURVE_POINTS`), each still exact."""

MIN_CURVE_POINTS = 5


def curve_points(size: int, points: int = 25) -> int:
    r"""How many levels a curve over ``size`` distinct counts (or candidate bounds) gets: bounded work.

    .. math:: P = \min\big(\text{points}, \max(P_{min}, \lfloor W / \text{size} \rfloor)\big)

    Source: the work limit ``MAX_CURVE_WORK`` (defined here).

    Examples
    --------
    >>> curve_points(100), curve_points(10**6)
    (25, 5)
    """
    return int(min(points, max(MIN_CURVE_POINTS, MAX_CURVE_WORK // max(int(size), 1))))


MAX_STEPS = 12
"""The most doublings (or halvings) :func:`smallest_n_simulated` takes."""


def smallest_n_simulated(rmse_at: Callable[[int], Simulation], n0: int, n_max: int,
                         target: float) -> tuple[int | None, str]:
    r"""The smallest ``n`` of the doubling grid :math:`n_0 2^j` at which the simulated RMSE / width, plus two
    standard errors, meets ``target`` (halving below :math:`n_0` while it does); ``None`` above ``n_max``.

    .. math:: n^* = \min\{n_0 2^j \le n_{max} : \widehat{\mathrm{RMSE}}(n) + 2\,\mathrm{se}(n) \le t\}

    The two standard errors put the answer on the safe side of the Monte Carlo noise; the grid on the
    safe side of the true smallest ``n`` when the error falls with ``n``.

    Source: the compared metric of :mod:`bounds.advise` (a simulated RMSE), searched on a grid defined here.

    Examples
    --------
    >>> fake = lambda n: Simulation(1 / n, 0.0, 0.0, 0.1, 2, "", 0.0, "", 0.0, 0.0)
    >>> smallest_n_simulated(fake, 10, 10**6, 0.01)[0]  # 1/n <= 0.01 first at 10·2^4
    160
    """
    def ok(n: int) -> bool:
        sim = rmse_at(n)
        return sim.rmse_rel + 2 * sim.rmse_rel_se <= target

    n, steps = n0, 0
    if ok(n):
        while n // 2 >= 2 and steps < MAX_STEPS and ok(n // 2):
            n, steps = n // 2, steps + 1
        return n, "met at the data's n" if steps == 0 else f"halved {steps} time(s) from the data's n"
    while steps < MAX_STEPS:
        n, steps = 2 * n, steps + 1
        if n > n_max:
            return None, f"not reached up to max_per_user = {n_max:,} (per-user draws)"
        if ok(n):
            return n, f"doubled {steps} time(s) from the data's n"
    return None, f"not reached within {MAX_STEPS} doublings"
