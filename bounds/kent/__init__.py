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

# the rates (symbolic, float64 and mpmath forms), the phase transitions, Theorem 1, the tables and maps; the
# package and its private modules are one unit (the tests read the float and mpmath forms and the Newton solve)
from ._grid import RateGrid, comparison_table, rate_grid
from ._rates import (BALLS, CONFIDENCE, MAX_GRID_AXIS, PROBLEMS, Rate, RateConstants, _lambdified, _numeric, rate,
                     symbolic)
from ._theorem1 import Theorem1, covering, theorem1
from ._transitions import PhaseTransition, _log_solve, dame_quote_lower, estimator_cap, phase_transition

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
    "RateGrid",
    "rate_grid",
]
