r"""The decision per model: the method with the smallest error on the one comparison metric.

The comparison metric is RMSE / width of the value range, on each method's own estimand: the exact
error where one exists (``MethodResult.error``: every central release on the data's values or the named
synthetic law, Duchi at θ), else the simulated value when a simulation ran, else an exact or proven
worst-case RMSE (kinds ``"bound"``, ``"exact"``); rates and oracle formulas are never compared as numbers.  A method whose compared RMSE exceeds the midpoint's on the same estimand and
law (``MethodResult.trivial_rel``; when unset, its worst case
:data:`~bounds.advise.results.TRIVIAL_RMSE_REL`) is unusable at this ``n`` and level; when every method
is, the recommendation is the midpoint itself.  Oracle estimators (``realisable`` false) are
compared but never recommended.
"""

from __future__ import annotations

import math

from .results import TRIVIAL_RMSE_REL, MethodResult, Recommendation


MIDPOINT = "midpoint (trivial)"


def recommend(model: str, results: list[MethodResult], *, level_name: str, level: float, beta: float,
              n_users: int) -> Recommendation:
    r"""The recommended method of one model (smallest compared RMSE / width; the first in report order on ties).

    .. math:: \arg\min_{\text{method}} \mathrm{RMSE}/\mathrm{width},\qquad
              \text{unusable} \iff \mathrm{RMSE}/\mathrm{width} > \mathrm{RMSE}_{\text{midpoint}}/\mathrm{width}

    Source: the comparison defined here; the midpoint's error is taken on the method's own estimand and law
    (``MethodResult.trivial_rel``); without a method to read it from, half the range (its worst case).

    Examples
    --------
    >>> recommend("local", [], level_name="alpha", level=0.5, beta=0.1, n_users=10).method
    'midpoint (trivial)'
    """
    mine = [r for r in results if r.model == model]
    scored = [(r, *r.comparison) for r in mine]
    usable = [(r, v, b) for r, v, b in scored if v is not None and math.isfinite(v) and not r.unusable and r.realisable]
    unusable = tuple(r.method for r in mine if r.unusable)
    others = tuple((r.method, v, b if r.realisable or v is None else f"{b}; an oracle (needs what a release cannot know: the per-user variances), never recommended")
                   for r, v, b in scored)
    if not usable:
        ref = next((r.trivial_rel for r in mine if r.realisable and r.trivial_rel is not None), None)
        if ref is None:
            return Recommendation(model, level_name, level, MIDPOINT, "none", None,
                                  "answer the midpoint of the value range: every method errs more in the worst case",
                                  TRIVIAL_RMSE_REL, TRIVIAL_RMSE_REL, beta, "worst case", others, unusable, n_users)
        return Recommendation(model, level_name, level, MIDPOINT, "none", None,
                              "answer the midpoint of the value range: every method errs more on this estimand and law",
                              ref, None, beta, "exact", others, unusable, n_users)
    best, value, basis = min(usable, key=lambda t: t[1])
    q = best.simulation.quantile_rel if best.simulation is not None else None
    return Recommendation(model, level_name, level, best.method, best.parameter, best.parameter_value, best.action,
                          value, q, beta, basis, tuple(o for o in others if o[0] != best.method), unusable, n_users)
