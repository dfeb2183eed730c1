"""Shared numerics: input validation, log-space helpers and the float/mpmath backends.

Every theory module evaluates its formulas through a :class:`Backend`, so that
one expression serves both the fast float64 path (``precision=None``) and the
arbitrary-precision mpmath path (``precision=d`` digits), which is the oracle
the float path is tested against.
"""

from __future__ import annotations

# validation, log space and backends, integer searches, warnings: the package and its private modules are one unit
from ._backends import FLOAT, MAX_BINOMIAL_N, Backend, backend, binomial_sf, log1mexp, workdps
from ._checks import (MAX_ARRAY, MAX_BRACKET, MAX_COUNT, MAX_PRECISION, check_array, check_bool, check_callable,
                      check_choice, check_counts, check_integer, check_positive, check_precision, check_real, check_rng,
                      format_value, total)
from ._search import GUIDE_MAX, guide_table, last_true, sorted_unique
from ._warnings import PaperAssumptionWarning, warn_assumption, warn_once_per_call

__all__ = [
    "PaperAssumptionWarning",
    "Backend",
    "FLOAT",
    "backend",
    "guide_table",
    "GUIDE_MAX",
    "last_true",
    "sorted_unique",
    "MAX_BRACKET",
    "MAX_BINOMIAL_N",
    "MAX_ARRAY",
    "MAX_COUNT",
    "MAX_PRECISION",
    "check_array",
    "check_bool",
    "check_callable",
    "check_choice",
    "check_counts",
    "check_integer",
    "check_positive",
    "check_precision",
    "check_real",
    "check_rng",
    "format_value",
    "total",
    "warn_once_per_call",
    "log1mexp",
    "binomial_sf",
    "warn_assumption",
    "workdps",
]
