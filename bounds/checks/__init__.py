r"""Simulated quantities beside their theory: each paper's bound or closed form next to its estimator's risk.

Every :class:`Check` carries the simulated value with its standard error, the theoretical
values it is compared with, and whether the comparison holds within 4 standard errors.

Examples
--------
>>> from bounds import checks
>>> checks.check_duchi(theta=0.3, n=500, alpha=0.5, reps=2000, seed=0).holds
True
"""

from __future__ import annotations

# each paper's closed forms beside simulations, and Kent et al.'s multivariate problems: the package and its private
# modules are one unit (the tests read the variance estimate with its standard error)
from ._kent import KentRisk, RateCheck, TrigDensity, check_kent, kent_risk, local_vote_probability, loglog_slope
from ._papers import (Check, _variance_with_se, check_cummings, check_dame, check_duchi, check_rameshwar,
                      empirical_constant)

__all__ = [
    "Check", "check_dame", "check_duchi", "empirical_constant", "check_cummings", "check_rameshwar",
    "local_vote_probability", "TrigDensity", "KentRisk", "kent_risk", "RateCheck", "check_kent", "loglog_slope",
]
