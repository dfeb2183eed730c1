r"""The statement atlas: every numbered statement of the four papers, with the checks that cover it.

The registry is data (:data:`ENTRIES`): one ``Statement`` per numbered statement (theorem, lemma,
corollary, proposition, assumption, example with a quantitative claim, numbered equation carrying a
claim, and the steps of the proofs' chains of inequalities), with its kind —

* ``checkable``: an identity or inequality between computable quantities;
* ``order``: an O/Θ statement or one with unspecified constants (checkable as a trend, or with the
  constants its proof gives);
* ``structural``: not numerically checkable (the reason is given);
* ``quoted``: restated from other work (the source is given)

— and the audit check IDs whose claim *is* that statement (``checks``), beside checks of a neighbour or a
consequence (``related``: shown as evidence, never deciding the status).  :func:`atlas` runs the checks
and returns one :class:`Row` per statement with its status by one rule (:func:`row_status`): the most
severe of its own checks' statuses (fails, discrepancy, inconclusive, holds); ``partial`` when only
related checks exist ("what is checked: …; what is not: …"); ``unchecked`` without checks.  Every row
says its ``method``, ``domain``, ``checks_what`` and ``not_checked`` in one line each.  Kent et al.'s text lost its formulas: their rows carry the confidence tag
of the reconstruction they are built on (``docs/kent.md``: V, S, R).  Kent et al. number theorems,
corollaries, propositions and lemmas with one counter (Theorem 1, Corollary 2, Propositions 3–5,
Theorem 6, Lemma 7, ...); the labels are as printed.

Examples
--------
>>> rows = atlas(paper="dame", label="Lemma S9")
>>> rows[0].status, rows[0].checks
('holds', ('dame.lemma_s9',))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..numerics import check_bool, check_choice, format_value
from .core import CHECKS, AuditResult, cached
from .markup import md as _md
from ._statement import KINDS, PAPERS, Statement
from . import rows_cummings as _rows_cummings, rows_dame as _rows_dame, rows_dame_appendix as _rows_dame_appendix
from . import rows_kent as _rows_kent, rows_rameshwar as _rows_rameshwar

__all__ = ["Statement", "Row", "ENTRIES", "KINDS", "ROW_STATUSES", "PAPERS", "atlas", "find", "lookup", "page", "row_status"]

ROW_STATUSES = ("holds", "fails", "discrepancy", "inconclusive", "partial", "unchecked")
_SEVERITY = ("fails", "discrepancy", "inconclusive", "holds")


@dataclass(frozen=True)
class Row:
    """A statement with its computed ``status`` and ``evidence`` (check ID → status and evidence, its own
    checks then the ``related`` ones), the ``method`` classes and ``domain`` of its own checks (of the related
    ones, marked so, for a ``partial`` row), and what is checked and what is not (one line each)."""

    paper: str
    label: str
    statement: str
    kind: str
    status: str
    checks: tuple[str, ...]
    evidence: dict = field(default_factory=dict)
    reason: str = ""
    implements: str = ""
    confidence: str = ""
    related: tuple[str, ...] = ()
    method: str = ""
    domain: str = ""
    checks_what: str = ""
    not_checked: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of ``bounds check --atlas --json``."""
        return {"paper": self.paper, "label": self.label, "statement": self.statement, "kind": self.kind,
                "status": self.status, "checks": list(self.checks), "related": list(self.related),
                "method": self.method, "domain": self.domain, "checks_what": self.checks_what,
                "not_checked": self.not_checked, "evidence": self.evidence,
                "reason": self.reason, "implements": self.implements, "confidence": self.confidence}


def row_status(own: tuple[str, ...] | list[str], related: tuple[str, ...] | list[str] = ()) -> str:
    """A row's status from its checks' statuses: the most severe of its own checks' (fails, discrepancy,
    inconclusive, holds); ``partial`` when it has related checks only; ``unchecked`` with none.  A
    related check never decides the status, and a discrepancy or a failure is never shown as holds.

    Examples
    --------
    >>> row_status(["holds", "discrepancy"]), row_status([], ["holds"]), row_status([])
    ('discrepancy', 'partial', 'unchecked')
    """
    for name, v in (("own", own), ("related", related)):
        if not isinstance(v, (list, tuple)):
            raise ValueError(f"{name} must be a list of check statuses {_SEVERITY}, got {format_value(v)}")
    bad = [s for s in list(own) + list(related) if s not in _SEVERITY]
    if bad:
        raise ValueError(f"own and related must hold check statuses {_SEVERITY}, got {bad[0]!r}")
    if own:
        return next(s for s in _SEVERITY if s in own)
    return "partial" if related else "unchecked"


ENTRIES: tuple[Statement, ...] = (_rows_dame.ENTRIES + _rows_dame_appendix.ENTRIES + _rows_kent.ENTRIES + _rows_cummings.ENTRIES
                                   + _rows_rameshwar.ENTRIES)
"""Every statement of the four papers, in the papers' order (one module per paper: ``rows_dame``, …)."""


def _norm(text: str) -> str:
    """A label as typed or printed, compared loosely: any case, en/em dashes as hyphens, single spaces."""
    t = str(text).lower().replace("\u2013", "-").replace("\u2014", "-").replace("\u2212", "-")
    return " ".join(t.replace(" - ", "-").split())


def _aliases(label: str) -> set[str]:
    """The forms a reader may type for ``label``: itself, without its word (``S9`` for ``Lemma S9``), without
    parentheses, and each step of a range (``(S71)``, ``S71`` for ``(S70)–(S71)``; ``eq. (10)`` for ``eq. (9)-(11)``)."""
    import re

    n = _norm(label)
    out = {n, n.replace("(", "").replace(")", "")}
    words = n.split(" ", 1)
    if len(words) == 2 and words[0] in ("lemma", "theorem", "corollary", "proposition", "example", "assumption",
                                        "remark", "definition"):
        out.add(words[1])
    m = re.fullmatch(r"(eq\. )?\((s?)(\d+)\)-\(?(s?)(\d+)\)", n)
    if m:
        eq, s1, a, _, b = m.groups()
        for k in range(int(a), int(b) + 1):
            out |= {f"({s1}{k})", f"{s1}{k}"} if s1 else {f"eq. ({k})", f"({k})", f"eq ({k})"}
    elif n.startswith("eq. ("):
        out |= {n[4:], "eq " + n[4:]}
    return out


def lookup(key: str) -> list[Statement]:
    """The statements a typed key names: ``"paper:label"`` or a bare label, matched in any case, with hyphens or en
    dashes, without the word (``S9``), or as one step of a printed range (``(S71)`` finds ``(S70)–(S71)``).
    An exact label wins over an alias.  ValueError naming the key and the nearest labels if nothing matches.

    Examples
    --------
    >>> [e.label for e in lookup("dame:s9")], [e.label for e in lookup("(S71)")]
    (['Lemma S9'], ['(S70)–(S71)'])
    """
    import difflib

    if not isinstance(key, str) or not key.strip():
        raise ValueError(f"key must be 'paper:label' of the atlas (e.g. 'dame:Lemma S9'), got {format_value(key)}")
    head, sep, label = key.partition(":")
    paper = _norm(head) if sep else None
    if not sep:
        label = key
    pool = [e for e in ENTRIES if paper is None or e.paper == paper]
    want = _norm(label)
    exact = [e for e in pool if _norm(e.label) == want]
    if exact:
        return exact
    found = [e for e in pool if want in _aliases(e.label) or want.replace("(", "").replace(")", "") in _aliases(e.label)]
    if found:
        return found
    names = [f"{e.paper}:{e.label}" for e in ENTRIES]
    near = difflib.get_close_matches(_norm(key), [_norm(n) for n in names], n=4, cutoff=0.5)
    near_names = [n for n in names if _norm(n) in near]
    hint = f"; nearest: {', '.join(near_names)}" if near_names else ""
    raise ValueError(f"key must be 'paper:label' of the atlas (e.g. 'dame:Lemma S9'), got {key!r}{hint}")


def find(key: str) -> Statement:
    """The statement ``"paper:label"`` (e.g. ``"dame:Lemma S9"``), matched as :func:`lookup` does; ValueError
    names the key (and the nearest labels) if none or several match.

    Examples
    --------
    >>> find("dame:lemma s9").label
    'Lemma S9'
    """
    found = lookup(key)
    if len(found) > 1:
        raise ValueError(f"key {key!r} matches several statements: "
                         + ", ".join(f"{e.paper}:{e.label}" for e in found) + "; give 'paper:label'")
    return found[0]


def _evidence(r: AuditResult) -> dict[str, Any]:
    return {"status": r.status, "method": r.method, **r.evidence}


def atlas(paper: str | None = None, label: str | None = None, *, thorough: bool = False,
          results: dict[str, AuditResult] | None = None) -> list[Row]:
    r"""Every numbered statement of the four papers with its status computed by running its checks.

    ``paper`` / ``label`` select rows; only the selected rows' checks run, each at most once per process
    (``bounds.audit.cached``; ``results``, check ID → result, supplies results already computed).
    A row's status is :func:`row_status` of its own checks' statuses (related checks make it ``partial``
    when it has no own check, and never decide it otherwise).

    Source: the registry :data:`ENTRIES` (Pla et al., 2024; Kent et al., 2024; Cummings et al., 2022;
    Rameshwar and Tandon, 2025).

    Examples
    --------
    >>> [r.status for r in atlas(paper="rameshwar", label="eq. (12)")]
    ['discrepancy']
    """
    if paper is not None:
        check_choice("paper", paper, tuple(PAPERS))
    if label is not None and not isinstance(label, str):
        raise ValueError(f"label must be a statement's label (a string) or None, got {format_value(label)}")
    thorough = check_bool("thorough", thorough)
    if results is not None and not (isinstance(results, dict) and all(
            isinstance(k, str) and isinstance(v, AuditResult) and v.id == k for k, v in results.items())):
        raise ValueError(f"results must map check IDs to their AuditResult, got {format_value(results)}")
    entries = [e for e in ENTRIES if (paper is None or e.paper == paper) and (label is None or e.label == label)]
    if label is not None and not entries:
        raise ValueError(f"label {label!r} is not in the atlas")
    ids = list(dict.fromkeys(c for e in entries for c in e.checks + e.related))
    got = dict(results or {})
    missing = [c for c in ids if c not in got]
    if missing:
        got.update(cached(missing, thorough=thorough))
    return [_row(e, got) for e in entries]


def _join(items: Any) -> str:
    return "; ".join(dict.fromkeys(i for i in items if i))


def _row(e: Statement, got: dict[str, AuditResult]) -> Row:
    """One row: its status by :func:`row_status`, its method, domain and what is (not) checked."""
    status = row_status([got[c].status for c in e.checks], [got[c].status for c in e.related])
    if e.checks:
        method = _join(m for c in e.checks for m in CHECKS[c].methods)
        domain = _join(CHECKS[c].domain for c in e.checks)
        what = e.checks_what or _join(CHECKS[c].claim for c in e.checks)
        missing = e.not_checked or "the statement outside the domain above"
    elif e.related:
        method = "related only: " + _join(m for c in e.related for m in CHECKS[c].methods)
        domain = "none of its own; the related checks': " + _join(CHECKS[c].domain for c in e.related)
        what = e.checks_what + " (" + ", ".join(f"{c}: {got[c].status}" for c in e.related) + ")"
        missing = e.not_checked
    else:
        method, domain = "none", "none"
        what = f"nothing ({e.kind}: {e.reason})" if e.reason else "nothing"
        missing = e.not_checked or "the whole statement"
    evidence = {c: _evidence(got[c]) for c in e.checks}
    evidence.update({c: {"related": True, **_evidence(got[c])} for c in e.related})
    return Row(e.paper, e.label, e.statement, e.kind, status, e.checks, evidence, e.reason, e.implements,
               e.confidence, e.related, method, domain, what, missing)


def _short(value: Any, limit: int = 240) -> str:
    """An evidence value as one line of JSON, cut at ``limit`` characters (the full value: ``--json``)."""
    import json

    text = json.dumps(value, ensure_ascii=False, allow_nan=True, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "… (full: bounds check --statement … --json)"


def _anchor(check_id: str) -> str:
    return "check-" + check_id.replace(".", "-").replace("_", "-")


def _xref(path: str) -> str:
    """A cross-reference to the implementing module or public name (plain code if it is not public)."""
    import importlib

    try:
        return f"{{py:mod}}`{path}`" if importlib.import_module(path) else path
    except ImportError:
        mod_name, _, name = path.rpartition(".")
    try:
        mod = importlib.import_module(mod_name)
    except ImportError:
        return f"`{path}`"
    public = name in getattr(mod, "__all__", ()) if hasattr(mod, "__all__") else not name.startswith("_")
    return f"{{py:obj}}`{path}`" if public and hasattr(mod, name) else f"`{path}`"


def page(rows: list[Row]) -> str:
    """The atlas as a MyST Markdown page (the docs' atlas): a table of every statement, then each check.

    Each row links its checks (to their section below: method, domain, status) and names the function
    implementing the statement; formatting only, the rows come from :func:`atlas`.

    Examples
    --------
    >>> print(page(atlas(paper="rameshwar", label="eq. (12)")).splitlines()[0])
    # The statement atlas
    """
    if not (isinstance(rows, (list, tuple)) and all(isinstance(r, Row) for r in rows)):
        raise ValueError(f"rows must be a list of atlas rows (bounds.audit.atlas), got {format_value(rows)}")
    lines = ["# The statement atlas", "",
             "Every numbered statement of the four papers, with its kind and the status computed by running "
             "its checks (`bounds check --atlas`; Kent et al.'s rows carry the confidence tag of the "
             "reconstruction they rest on, see {doc}`../kent`).  A row's status comes from its own checks only; "
             "a row whose only evidence is a neighbour or a consequence (its *related* checks) is **partial**, and "
             "says what is checked and what is not.  Discrepancies are explained in {doc}`../choices`.", ""]
    counts: dict[tuple[str, str], int] = {}
    for r in rows:
        counts[r.kind, r.status] = counts.get((r.kind, r.status), 0) + 1
    lines += ["| kind | " + " | ".join(ROW_STATUSES) + " |", "|---|" + "---|" * len(ROW_STATUSES)]
    lines += [f"| {k} | " + " | ".join(str(counts.get((k, s), 0)) for s in ROW_STATUSES) + " |" for k in KINDS]
    for paper, name in PAPERS.items():
        sel = [r for r in rows if r.paper == paper]
        if not sel:
            continue
        lines += ["", f"## {name}", "",
                  "| label | statement | kind | status | method | domain | checked / not checked | checks | implemented by |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for r in sel:
            checks = ", ".join(f"{{ref}}`{c} <{_anchor(c)}>`" for c in r.checks) or _md(r.reason)
            if r.related:
                checks += " (related: " + ", ".join(f"{{ref}}`{c} <{_anchor(c)}>`" for c in r.related) + ")"
            tag = f" [{r.confidence}]" if r.confidence else ""
            impl = _xref(r.implements) if r.implements else ""
            lines.append(f"| {_md(r.label)}{tag} | {_md(r.statement)} | {r.kind} | **{r.status}** | {_md(r.method)} | "
                         f"{_md(r.domain)} | {_md(r.checks_what)} / not: {_md(r.not_checked)} | {checks} | {impl} |")
    seen: dict[str, dict] = {}
    for r in rows:
        for c, ev in r.evidence.items():
            seen.setdefault(c, ev)
    lines += ["", "## The checks", ""]
    for c, ev in seen.items():
        lines += [f"({_anchor(c)})=", f"### `{c}` — {ev['status']}", "", f"*Method:* {_md(ev['method'])}  ",
                  f"*Claim:* {_md(CHECKS[c].claim)}  ", f"*Source:* {_md(CHECKS[c].source)}  ",
                  f"*Domain:* {_md(CHECKS[c].domain or ev.get('domain', ''))}  ",
                  f"*Planted faults:* {_md('; '.join(f'{w} (must not hold)' for w, _ in CHECKS[c].faults) or 'none')}  ",
                  f"*Repairs:* {_md('; '.join(f'{w} (must hold)' for w, _ in CHECKS[c].repairs) or 'none')}  ",
                  f"*Implemented in:* {_xref(CHECKS[c].fn.__module__ + '.' + CHECKS[c].fn.__name__)}", ""]
        shown = {k: v for k, v in ev.items() if k not in ("status", "method", "related", "domain")}
        for key in ("smallest_counterexample", "slack"):
            if key in shown:
                lines += [f"*{key.replace('_', ' ').capitalize()}:* {_md(_short(shown.pop(key)))}  "]
        if shown:
            lines += ["*Evidence:*", ""] + [f"- `{k}`: {_md(_short(v))}" for k, v in shown.items()] + [""]
    return "\n".join(lines) + "\n"

