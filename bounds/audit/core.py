r"""The audit's core: ``AuditResult``, the registry of checks (``CHECKS``), ``run`` and ``report``.

Examples
--------
>>> [r.status for r in run(["dame.constants", "kent.lemma16"])]
['holds', 'holds']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any, Callable


from ..numerics import format_value
from .markup import md

__all__ = ["AuditResult", "CHECKS", "STATUSES", "METHODS", "run", "cached", "report"]

STATUSES = ("holds", "fails", "discrepancy", "inconclusive")
METHODS = ("exact", "ball-proof", "sympy", "exhaustive", "LP certificate", "Monte Carlo")
"""The method classes a check declares (``_Check.methods``): exact arithmetic (rationals, exact law
functionals), a ball-arithmetic proof over boxes, symbolic computation, exhaustive enumeration of instances,
a linear-programming certificate, Monte Carlo with standard errors."""


@dataclass(frozen=True)
class AuditResult:
    """One audited claim: ``id``, ``source``, ``claim``, ``method``, computed ``status`` and ``evidence``."""

    id: str
    source: str
    claim: str
    method: str
    status: str
    evidence: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("id", "source", "claim", "method"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be a string, got {format_value(getattr(self, name))}")
        if not isinstance(self.status, str) or self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {format_value(self.status)}")
        if not isinstance(self.evidence, dict):
            raise ValueError(f"evidence must be a dict, got {format_value(self.evidence)}")


@dataclass(frozen=True)
class _Check:
    id: str
    source: str
    claim: str
    method: str
    fn: Callable
    thorough: bool = False  # fn accepts ``thorough=True`` (a heavier rigorous run)
    domain: str = ""  # where the claim is established, in the paper's variables ("proved on" or "instances:")
    methods: tuple[str, ...] = ()  # method classes of METHODS
    faults: tuple[tuple[str, dict], ...] = ()  # planted faults of the paper's statement: (what, keywords of fn)
    repairs: tuple[tuple[str, dict], ...] = ()  # for a refuted statement: its correction, under which fn holds


CHECKS: dict[str, _Check] = {}
"""Every audit check by ID (``"paper.claim"``), filled by the ``register`` decorator: its source, claim, method and
function; :func:`run` executes them."""


def register(id: str, source: str, claim: str, method: str, thorough: bool = False, *, domain: str = "",
             methods: tuple[str, ...] = (), faults: tuple[tuple[str, dict], ...] = (),
             repairs: tuple[tuple[str, dict], ...] = ()) -> Callable:
    """Register a check: ``domain`` says where its claim is established ("proved on …" for a proof over a
    domain, "instances: …" for a finite set of cases), ``methods`` its method classes (:data:`METHODS`),
    ``faults`` the planted faults of the paper's statement, each (what it changes, keywords of the check
    that plant it); under each the check must not report ``holds`` (tests/test_audit_faults.py).  A check that
    refutes a statement of a paper declares ``repairs`` instead or beside: the corrected statement (what it
    changes, keywords that plant it), under which the check must report ``holds`` — the control that shows the
    refutation comes from the paper's statement and not from the check."""
    bad = [m for m in methods if m not in METHODS]
    if bad:
        raise ValueError(f"methods must be among {METHODS}, got {bad[0]!r}")

    def deco(fn: Callable) -> Callable:
        CHECKS[id] = _Check(id, source, claim, method, fn, thorough, domain, tuple(methods), tuple(faults), tuple(repairs))
        return fn

    return deco


def result(id: str, status: str, **evidence: Any) -> AuditResult:
    c = CHECKS[id]
    return AuditResult(id, c.source, c.claim, c.method, status, evidence)


# =========================================================================== running and reporting


def run(ids: Sequence[str] | None = None, *, thorough: bool = False) -> list[AuditResult]:
    """Run the registered checks (all, or ``ids``) and return their results, in order.

    ``thorough=True`` gives the checks that have one their heavier rigorous run (more boxes,
    wider domains; what ``bounds check --thorough`` and the slow tests run).

    Source: the papers' lemmas and claims listed in :data:`CHECKS` (each with its source).

    Examples
    --------
    >>> run(["dame.tau_condition"])[0].status
    'holds'
    """
    ids = list(CHECKS) if not ids else list(ids)
    for i in ids:
        if i not in CHECKS:
            raise ValueError(f"unknown check {i!r}; choose from {', '.join(CHECKS)}")
    out = [CHECKS[i].fn(thorough=True) if thorough and CHECKS[i].thorough else CHECKS[i].fn() for i in ids]
    for r in out:
        _CACHE[r.id, bool(thorough)] = r
    return out


_CACHE: dict[tuple[str, bool], AuditResult] = {}
"""Results of this process's runs, by (check ID, thorough): :func:`cached` reads them (the checks are
deterministic: exact, proved, or Monte Carlo with fixed seeds)."""


def cached(ids: Sequence[str], *, thorough: bool = False) -> dict[str, AuditResult]:
    """The results of ``ids``, each check run at most once per process (see :func:`run`).

    Examples
    --------
    >>> cached(["kent.lemma16"])["kent.lemma16"].status
    'holds'
    """
    if not isinstance(ids, (list, tuple)) or not all(isinstance(i, str) for i in ids):
        raise ValueError(f"ids must be a list of check IDs, got {format_value(ids)}")
    if not isinstance(thorough, bool):
        raise ValueError(f"thorough must be True or False, got {format_value(thorough)}")
    unknown = [i for i in ids if i not in CHECKS]
    if unknown:
        raise ValueError(f"ids must be check IDs of bounds.audit, got {unknown[0]!r}")
    missing = [i for i in dict.fromkeys(ids) if (i, bool(thorough)) not in _CACHE]
    if missing:
        run(missing, thorough=thorough)
    return {i: _CACHE[i, bool(thorough)] for i in ids}


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items()) + "}"
    return str(v)


def _cell(text: str) -> str:
    return md(text)


def report(results: list[AuditResult]) -> str:
    """A Markdown report of audit results, with every check's evidence (for a referee).

    Examples
    --------
    >>> print(report(run(["kent.lemma16"])).splitlines()[0])
    # Audit of the papers' lemmas, constants and claims
    """
    if not isinstance(results, (list, tuple)) or not all(isinstance(r, AuditResult) for r in results):
        raise ValueError(f"results must be a list of AuditResult, got {format_value(results)}")
    lines = ["# Audit of the papers' lemmas, constants and claims", "",
             "| check | status | method | claim |", "|---|---|---|---|"]
    lines += [f"| `{r.id}` | **{r.status}** | {_cell(r.method)} | {_cell(r.claim)} |" for r in results]
    for r in results:
        lines += ["", f"## `{r.id}` — {r.status}", "", f"*Source:* {_cell(r.source)}  ",
                  f"*Claim:* {_cell(r.claim)}  ", f"*Method:* {_cell(r.method)}", ""]
        for k, v in r.evidence.items():
            if isinstance(v, list) and v and all(isinstance(row, dict) for row in v):
                keys = list(dict.fromkeys(c for row in v for c in row))  # rows may differ: every key, first seen first
                lines += [f"**{_cell(k)}**", "", "| " + " | ".join(_cell(c) for c in keys) + " |", "|" + "---|" * len(keys)]
                lines += ["| " + " | ".join(_cell(_fmt(row[c])) if c in row else "" for c in keys) + " |" for row in v]
                lines.append("")
            else:
                lines.append(f"- **{_cell(k)}**: {_cell(_fmt(v))}")
    return "\n".join(lines) + "\n"
