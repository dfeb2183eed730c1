r"""Cummings, Feldman, McMillan & Talwar: heterogeneous users in the central model.

Source: Cummings et al. (2022) — *Mean Estimation with User-level Privacy
under Data Heterogeneity*: Lemma 2.1, the weights (1) and (4), the ideal
estimator's variance (5), the optimal truncation :math:`T^*` (6), Algorithm 2,
Corollary 5.5 and Example 1.  The canonical choices are listed in
``docs/choices.md`` §3.

Setting: a meta-distribution :math:`\mathcal D` on :math:`[0, 1]` with mean ``p`` and
variance :math:`\sigma_p^2`; user ``i`` draws :math:`p_i \sim \mathcal D`, then
:math:`k_i` Bernoulli(:math:`p_i`) samples, and reports their mean :math:`\hat p_i`.

Two printed slips, and what the code does with them: eq. (6) and Algorithm 2
(steps 12, 14) write :math:`T/\sigma_i` inside a sum over ``j``; the code uses
:math:`T/\sigma_j`, as the weights (4) do.  Eq. (5) gives the Laplace term as
:math:`b^2` although :math:`\mathrm{Var}(\mathrm{Lap}(b)) = 2b^2`: both are available
(``laplace="printed"``, the default as in eq. (6), and ``"exact"``).

Examples
--------
>>> from bounds import cummings
>>> cummings.k_star([100, 50, 20, 5, 1], eps=1.0)  # g(k) = 0.24, 0.059, 0.020, 0.011, 0.0089
100
"""

from __future__ import annotations

# Lemma 2.1 and the weights, Corollary 5.5, Example 1, Algorithm 2: the package and its private modules are one unit
# (the tests read Example 1's uniform-weight optimum)
from ._bounds import LowerBound, k_star, lower_bound
from ._example1 import EXAMPLE1_MAX_N, Example1, _best_uniform_sd, example1, example1_counts, example1_groups
from ._plan import RealisablePlan, groups, realisable_plan
from ._weights import (Truncation, concentration, ideal_variance, nonprivate_weights, optimal_truncation,
                       private_weights, user_variance, user_variance_symbolic)

__all__ = [
    "user_variance",
    "user_variance_symbolic",
    "nonprivate_weights",
    "private_weights",
    "concentration",
    "ideal_variance",
    "Truncation",
    "optimal_truncation",
    "k_star",
    "LowerBound",
    "lower_bound",
    "Example1",
    "example1",
    "example1_counts",
    "example1_groups",
    "EXAMPLE1_MAX_N",
    "RealisablePlan",
    "groups",
    "realisable_plan",
]
