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
quantities
    The reported quantities, each with one kind (bound, rate, oracle, simulated, exact) and one CSV column.
"""

import importlib
from typing import Any

__all__ = ["audit", "checks", "cummings", "dame", "estimators", "kent", "mechanisms", "numerics", "quantities", "rameshwar", "simulate", "sizes", "__version__"]


def __getattr__(name: str) -> Any:
    """The submodules and ``__version__``, imported on first use (``bounds --help`` imports no numpy)."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: object = version("bounds")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            value = "0.0.0+unknown"
    elif name in __all__:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
