"""A statement of the atlas (:class:`Statement`): its paper, label, kind, own and related checks."""

from __future__ import annotations

from dataclasses import dataclass

from ..numerics import check_choice, format_value
from .core import CHECKS

__all__ = ["KINDS", "PAPERS", "Statement", "entry"]

KINDS = ("checkable", "order", "structural", "quoted")
PAPERS = {"dame": "Pla, Richard and Vono (2024)", "kent": "Kent, Berrett and Yu (2024)",
          "cummings": "Cummings, Feldman, McMillan and Talwar (2022)", "rameshwar": "Rameshwar and Tandon (2025)"}



@dataclass(frozen=True)
class Statement:
    """One numbered statement: ``paper``, ``label`` as printed, ``statement`` (one line), ``kind``, the
    ``checks`` whose claim is this statement, ``reason`` (why structural, where quoted from), the
    implementing function (``implements``), for Kent et al. the reconstruction's ``confidence`` tag,
    ``related`` checks (of a neighbour or a consequence: evidence, not status), and what the checks
    establish (``checks_what``) and leave open (``not_checked``), one line each."""

    paper: str
    label: str
    statement: str
    kind: str
    checks: tuple[str, ...] = ()
    reason: str = ""
    implements: str = ""
    confidence: str = ""
    related: tuple[str, ...] = ()
    checks_what: str = ""
    not_checked: str = ""

    def __post_init__(self) -> None:
        check_choice("paper", self.paper, tuple(PAPERS))
        check_choice("kind", self.kind, KINDS)
        for name in ("label", "statement", "reason", "implements", "confidence", "checks_what", "not_checked"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be a string, got {format_value(getattr(self, name))}")
        for name in ("checks", "related"):
            v = getattr(self, name)
            if not (isinstance(v, tuple) and all(isinstance(c, str) and c in CHECKS for c in v)):
                raise ValueError(f"{name} must be a tuple of check IDs of bounds.audit, got {format_value(v)}")
        if self.related and not self.checks and not (self.checks_what and self.not_checked):
            raise ValueError(f"{self.paper}:{self.label} rests on related checks only: give checks_what and not_checked")
        if self.kind in ("structural", "quoted") and not self.reason:
            raise ValueError(f"{self.paper}:{self.label} is {self.kind}: give the reason")



def entry(paper: str, label: str, kind: str, statement: str, checks: tuple[str, ...] = (), reason: str = "",
       implements: str = "", confidence: str = "", related: tuple[str, ...] = (), what: str = "",
       not_checked: str = "") -> Statement:
    """One atlas row's statement, positional as the per-paper tables write it (``what`` is ``checks_what``)."""
    return Statement(paper, label, statement, kind, checks, reason, implements, confidence, related, what, not_checked)

