r"""Duchi et al.'s one-report-per-user baseline in the local model (values in :math:`[-1, 1]`).

Each user privatises its local mean with the :math:`\pm B` mechanism; nothing is clipped or dropped.
Simulated exactly from one binomial per replication: a user's report is :math:`+B` with probability
:math:`\tfrac12 + \bar X_u/(2B)`, whose mean over the user's records is :math:`\tfrac12 + \theta/(2B)`
whatever its count, so the number of :math:`+B` reports is :math:`\mathrm{Bin}(n, \tfrac12 + \theta/(2B))`.
"""

from __future__ import annotations

import math

import numpy as np

from ... import mechanisms
from ...estimators import duchi as duchi_estimator
from ..inputs import Histogram
from ..results import Curve, Inverse, MethodResult, Quantity, Settings
from ..searches import MAX_USERS, smallest_integer, smallest_level
from ..simulation import GROUPED, levels_around, summarise, timed
from ...quantities import BY_NAME

MODEL, NAME = "local", "Duchi"
WIDTH = 2.0  # values in [-1, 1]
ESTIMAND = "population mean θ (synthetic law)"


def evaluate(h: Histogram, s: Settings, seed: int) -> MethodResult:
    r"""Duchi et al.'s exact worst-case MSE, its simulation and inverses, for the histogram's users.

    .. math:: \mathrm{MSE} = \frac{B^2 - \theta^2}{n} \le \frac{B^2}{n},\qquad B = \frac{e^\alpha + 1}{e^\alpha - 1}

    Source: Duchi, Jordan & Wainwright (2018); Pla et al. (2024), §4.2.

    Examples
    --------
    >>> from bounds.advise.inputs import Histogram
    >>> r = evaluate(Histogram.of_counts([1, 2, 3, 4]), Settings(reps=0, inverse=False), 0)
    >>> round(r.bound.value, 6)  # coth(0.25)^2 / 4
    4.167698
    """
    n = h.n_users - h.n_users % 2
    B = mechanisms.duchi_bound(s.alpha)
    t_mse = (WIDTH * s.target) ** 2
    bound = Quantity("worst case over μ", BY_NAME["duchi_worst_case"].kind, "MSE", B * B / n, B / math.sqrt(n) / WIDTH,
                     f"exact worst case over μ on [-1, 1]: (B² − θ²)/n at θ = 0, B = {B:.4g}; noise and sampling")
    sim = None
    if s.reps > 0:
        rng = np.random.default_rng(seed)
        est, cpu = timed(lambda: duchi_estimator.estimate(n, s.theta, alpha=s.alpha, rng=rng, size=s.reps))
        sim = summarise(est - s.theta, width=WIDTH, beta=s.beta, engine=GROUPED + " (one binomial)", cpu=cpu,
                        covers=f"given μ: two-point on {{-1, 1}} with mean θ = {s.theta:g}")
    th2 = s.theta * s.theta
    mse = (B * B - th2) / n
    error = Quantity("exact RMSE at θ", "exact", "RMSE", math.sqrt(mse), math.sqrt(mse) / WIDTH,
                     f"(B² − θ²)/n for any law of mean θ = {s.theta:g} (a report is ±B with mean θ)")
    inverses: tuple = ()
    if s.inverse:
        level = smallest_level(lambda a: (mechanisms.duchi_bound(a) ** 2 - th2) / n <= t_mse)
        users = smallest_integer(lambda k: (B * B - th2) / k <= t_mse, 2, MAX_USERS)
        crit = f"(B² − θ²)/n ≤ (2·target)² (the compared exact RMSE, target {s.target:g} of the range)"
        inverses = (Inverse("alpha", level, level, s.target, crit, "3-significant-digit grid, exact"),
                    Inverse("n", users, users, s.target, crit, "closed form, exact"))
    return MethodResult(MODEL, NAME, "Duchi, Jordan & Wainwright (2018), ±B mechanism on each local mean",
                        "none", None, "one privatised report per user: nothing clipped or dropped", 0.0, bound,
                        simulation=sim, inverses=inverses, details={"B": B, "n": n},
                        estimand=ESTIMAND, trivial_rel=abs(s.theta) / WIDTH, error=error)


def curves(h: Histogram, s: Settings, result: MethodResult) -> tuple:
    """The exact worst-case RMSE / width against α (no contribution bound to tune).

    Examples
    --------
    >>> from bounds.advise.inputs import Histogram
    >>> h = Histogram.of_counts([1, 2, 3, 4])
    >>> c = curves(h, Settings(), evaluate(h, Settings(reps=0, inverse=False), 0))
    >>> c[0].x_name, c[0].kind
    ('alpha', 'exact')
    """
    n = result.details["n"]
    a = levels_around(s.alpha)
    rm = tuple(mechanisms.duchi_bound(float(x)) / math.sqrt(n) / WIDTH for x in a)
    return (Curve(NAME, "alpha", tuple(a.tolist()), (("total RMSE (noise and sampling)", rm),), "RMSE / width", "exact", s.alpha,
                  "no contribution bound: every record enters through its user's mean"),)
