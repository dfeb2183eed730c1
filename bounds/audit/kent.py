"""Audit checks of Kent, Berrett and Yu (2024): one function per registered check ID."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Callable

import mpmath
import numpy as np
import sympy as sp

from .. import kent, mechanisms
from .core import AuditResult, _check, _result


# =========================================================================== Kent


@_check("kent.lower_bound_quote", "Pla et al. (2024), §4.2 quoting Kent et al. (2024), Theorem 6; docs/kent.md §5",
        "DAME's quote Ω(e^{−c nα²} ∧ (mnα²)^{−1}) is Kent's lower bound", "exact")
def lower_bound_quote() -> AuditResult:
    rows = []
    for n, T, a in [(1000, 10**6, 0.1), (10**4, 10, 0.05), (100, 100, 0.3)]:
        rows.append({"n": n, "T": T, "alpha": a, "kent_vee": kent.rate("mean", n=n, T=T, alpha=a).lower,
                     "dame_quote_wedge": kent.dame_quote_lower(n=n, T=T, alpha=a)})
    differ = any(not math.isclose(r["kent_vee"], r["dame_quote_wedge"]) for r in rows)
    return _result("kent.lower_bound_quote", "discrepancy" if differ else "holds", rows=rows,
                   note="the ∧ form is a weaker (valid) statement; Kent's own bound has ∨")


@_check("kent.lemma16", "Kent et al. (2024), Lemma 16 (docs/kent.md §7)",
        "randomised response with keep probability e^{α/(2k)}/(1+e^{α/(2k)}) on ≤k-sparse vectors is α-LDP",
        "exhaustive")
def lemma16(keep: Callable | None = None) -> AuditResult:
    rows, ok = [], True
    for k, N in [(1, 4), (2, 5), (3, 6), (3, 8)]:
        for alpha in (0.2, 22 / 35, 1.0):
            if keep is None:
                loss = mechanisms.rr_privacy_loss(N, alpha=alpha, k=k)
            else:
                pi = keep(alpha, k)
                loss = min(2 * k, N) * math.log(pi / (1 - pi))
            rows.append({"k": k, "bins": N, "alpha": alpha, "worst_log_ratio": loss})
            ok &= loss <= alpha * (1 + 1e-12) and math.isclose(loss, alpha, rel_tol=1e-9)
    return _result("kent.lemma16", "holds" if ok else "fails", rows=rows)


