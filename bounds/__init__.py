"""bounds — a reference calculator for user-level differentially private mean estimation.

Modules
-------
audit
    ``bounds check``: the papers' lemmas, constants and claims, audited numerically.
sizes
    Laws ``M`` of the dataset size on N* (Poisson, binomial, uniform, Zipf, …).
cummings
    Cummings, Feldman, McMillan & Talwar: weights, the optimal truncation T*, k*, Corollary 5.5.
dame
    Pla, Richard & Vono (DAME): Theorems 1–2, the effective size m̃, Corollary 3.
rameshwar
    Rameshwar & Tandon: the worst-case-optimal clipping threshold T_ε and error.
kent
    Kent, Berrett & Yu: minimax rates, phase transitions T†, Theorem 1 from covering numbers.
mechanisms
    Laplace, randomised response on sparse vectors, Duchi's ±B, the private quantile.
estimators
    One module per paper: DAME, Kent, Duchi, Cummings, Rameshwar–Tandon, on sufficient statistics.
simulate
    The Monte Carlo engine: seeding, blocks, executors, simulated risks.
checks
    Simulated risks beside their bounds and closed forms.
numerics
    Validation, log-space helpers and the float64/mpmath backends.
"""

from importlib.metadata import PackageNotFoundError, version

from . import audit, checks, cummings, dame, estimators, kent, mechanisms, numerics, rameshwar, simulate, sizes

try:
    __version__ = version("bounds")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

__all__ = ["audit", "checks", "cummings", "dame", "estimators", "kent", "mechanisms", "numerics", "rameshwar", "simulate", "sizes", "__version__"]
