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

Modules: ``_constants`` (:class:`Constants`, exact without sympy), ``_inputs`` (the budget, H3, the
law), ``_lower`` (Theorem 1), ``_upper`` (Theorem 2, :math:`\tilde m`, :math:`\tau`), ``_maps``
(:func:`curve`, :func:`grid`, Corollary 3) and ``_symbolic`` (the formulas in sympy, imported only
when they are asked for).
"""

from __future__ import annotations

from ._constants import Constants, ExactConstant
from ._inputs import H3_ALPHA_MAX, MAX_POINTS, Bound, PrivacyBudget, check_h3, privacy_budget
from ._lower import LB_TIE_RTOL, LowerBound, lower_bound
from ._maps import MAX_CELLS, REGIMES, Corollary3, Curve, Grid, corollary3, curve, grid
from ._symbolic import asymptotic_rates, symbolic
from ._upper import UpperBound, log_phi, m_tilde, tau, upper_bound

__all__ = [
    "Constants",
    "ExactConstant",
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
    "H3_ALPHA_MAX",
    "LB_TIE_RTOL",
    "MAX_POINTS",
    "MAX_CELLS",
]
