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

__all__ = ["AuditResult", "CHECKS", "STATUSES", "run", "report"]

STATUSES = ("holds", "fails", "discrepancy", "inconclusive")


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


CHECKS: dict[str, _Check] = {}
"""Every audit check by ID (``"paper.claim"``), filled by the ``register`` decorator: its source, claim, method and
function; :func:`run` executes them."""


def register(id: str, source: str, claim: str, method: str, thorough: bool = False) -> Callable:
    def deco(fn: Callable) -> Callable:
        CHECKS[id] = _Check(id, source, claim, method, fn, thorough)
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
    return [CHECKS[i].fn(thorough=True) if thorough and CHECKS[i].thorough else CHECKS[i].fn() for i in ids]


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items()) + "}"
    return str(v)


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|")


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
        lines += ["", f"## `{r.id}` — {r.status}", "", f"*Source:* {r.source}  ", f"*Claim:* {r.claim}  ",
                  f"*Method:* {r.method}", ""]
        for k, v in r.evidence.items():
            if isinstance(v, list) and v and isinstance(v[0], dict):
                keys = list(v[0])
                lines += [f"**{k}**", "", "| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
                lines += ["| " + " | ".join(_cell(_fmt(row[c])) for c in keys) + " |" for row in v]
                lines.append("")
            else:
                lines.append(f"- **{k}**: {_fmt(v)}")
    return "\n".join(lines) + "\n"
