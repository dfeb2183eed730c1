r"""``bounds check``: the papers' numbered statements, audited numerically.

Every check computes its status — ``holds``, ``fails``, ``discrepancy`` (two
statements of the papers disagree, or a step does not follow) or ``inconclusive``
— and returns its evidence (the numbers, and the domain covered).  Methods: ball
arithmetic with box subdivision (:mod:`bounds.audit.boxes`), exact rationals,
symbolic (sympy), exhaustive enumeration, linear programming, Monte Carlo (with
standard errors).  Each check takes the formula it tests as a keyword with the
paper's as default, so a test can feed it a wrong one and watch the status change.

Layout: :mod:`bounds.audit.core` (results, the check registry, ``run``,
``report``), the checks by paper (:mod:`bounds.audit.dame`, :mod:`bounds.audit.dame_text`,
:mod:`bounds.audit.dame_impl`, :mod:`bounds.audit.dame_proofs`, :mod:`bounds.audit.dame_appendix`;
:mod:`bounds.audit.kent`, :mod:`bounds.audit.kent_equations`; :mod:`bounds.audit.cummings`,
:mod:`bounds.audit.cummings_sec4`; :mod:`bounds.audit.rameshwar`, :mod:`bounds.audit.rameshwar_sec4`),
the rows by paper (``rows_dame``, ``rows_dame_appendix``, ``rows_kent``, ``rows_cummings``,
``rows_rameshwar``), :mod:`bounds.audit.boxes` (the verified
branch-and-bound) and :mod:`bounds.audit.registry` (every numbered statement of
the four papers, ``atlas``).

Examples
--------
>>> [r.status for r in run(["dame.constants", "kent.lemma16"])]
['holds', 'holds']
"""

from __future__ import annotations

from . import dame, dame_proofs, dame_appendix, dame_impl, dame_text, kent, kent_equations  # noqa: F401,I001  (registers the checks,
from . import cummings, cummings_sec4, rameshwar, rameshwar_sec4  # noqa: F401,I001  in this order)
from .core import CHECKS, METHODS, STATUSES, AuditResult, cached, report, run
from .declared import declare as _declare
from .registry import ENTRIES, KINDS, ROW_STATUSES, Row, Statement, atlas, find, page, row_status

_declare()

__all__ = ["AuditResult", "CHECKS", "STATUSES", "METHODS", "run", "cached", "report", "atlas", "find", "page", "Row",
           "Statement", "ENTRIES", "KINDS", "ROW_STATUSES", "row_status"]
