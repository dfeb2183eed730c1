r"""The statement atlas: every numbered statement of the four papers, with the checks that cover it.

The registry is data (:data:`ENTRIES`): one :class:`Statement` per numbered statement (theorem, lemma,
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

__all__ = ["Statement", "Row", "ENTRIES", "KINDS", "ROW_STATUSES", "PAPERS", "atlas", "find", "lookup", "page", "row_status"]

KINDS = ("checkable", "order", "structural", "quoted")
ROW_STATUSES = ("holds", "fails", "discrepancy", "inconclusive", "partial", "unchecked")
PAPERS = {"dame": "Pla, Richard and Vono (2024)", "kent": "Kent, Berrett and Yu (2024)",
          "cummings": "Cummings, Feldman, McMillan and Talwar (2022)", "rameshwar": "Rameshwar and Tandon (2025)"}
_SEVERITY = ("fails", "discrepancy", "inconclusive", "holds")


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


def _s(paper: str, label: str, kind: str, statement: str, checks: tuple[str, ...] = (), reason: str = "",
       implements: str = "", confidence: str = "", related: tuple[str, ...] = (), what: str = "",
       not_checked: str = "") -> Statement:
    return Statement(paper, label, statement, kind, checks, reason, implements, confidence, related, what, not_checked)


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


_D = "dame"
_KENT_WHAT = ("a consequence: the package's reconstructed lower rate ≤ its upper rate, both non-increasing in n "
              "and T, on a grid")
_KENT_NOT = {
    "Theorem 1": "eq. (8) itself: bounds.kent.theorem1 is not called and no covering number is evaluated",
    "Corollary 2": "that the left side of (8) bounds the risk for every T",
    "Example 1": "the item-level rates with nT samples against the user-level ones",
    "Proposition 3": "the rates' form (eq. (13)) against an independent transcription",
    "Proposition 4": "the rates' form (eq. (14)) against an independent transcription",
    "Proposition 5": "the rates' form (eq. (17)) against an independent transcription",
    "Theorem 8": "the rates' form (eq. (38)) against an independent transcription",
    "Theorem 9": "the rates and the phase transition T† (eqs. (49)–(50))",
    "Lemma 17": "the Sobolev covering numbers (bounds.kent.covering is not evaluated)",
    "Lemma 18": "the sparse covering numbers (bounds.kent.covering is not evaluated)",
}
_DM = "bounds.dame"
ENTRIES: tuple[Statement, ...] = (
    # ------------------------------------------------------------------ DAME, main text
    _s(_D, "H1", "structural", "the size law M is known and has a finite mean", (),
       "an assumption on the input; bounds.sizes refuses laws without a finite mean", "bounds.sizes"),
    _s(_D, "H2", "structural", "the data law μ is supported on [-1, 1]", (), "an assumption on the data",
       "bounds.estimators.dame"),
    _s(_D, "H3", "checkable", "α ≤ 22/35 (high privacy); the proofs' constants need it",
       ("dame.s22_privacy_constant",), implements=f"{_DM}.check_h3"),
    _s(_D, "eq. (4)", "checkable", "τ = √(2 ln(8(√(m̃nα²) ∨ 1))/m̃) makes 1 − 4e^{−m̃τ²/2} ≥ 1/2",
       ("dame.tau_condition",), implements=f"{_DM}.tau"),
    _s(_D, "eq. (8)", "checkable", "each user's release adds Laplace noise of scale 14τ/α (width 14τ interval)",
       ("dame.eq8_window",), implements="bounds.estimators.dame.clip_widths"),
    _s(_D, "Algorithm 1 vs Lemma S9", "checkable",
       "the algorithm projects on [l − 6τ, u + 6τ] (width 14τ); Lemma S9's proof on [s_ĵ ± 6τ] (width 12τ)",
       ("dame.enlarged_interval",), implements="bounds.estimators.dame.interval"),
    _s(_D, "eq. (9)", "checkable", "the debiased estimator is unbiased given the bin (denominator E[√(m ∧ m̃)])",
       ("dame.lemma_s3", "dame.unbiased"), implements="bounds.estimators.dame"),
    _s(_D, "Theorem 1", "checkable", "R ≥ max_a c1 e^{−c2 nα² P(m>a)²}/(nα² E[√m 1{m≤a}]² ∨ 1), c1 = e⁻⁹/16, c2 = 24",
       ("dame.theorem1_chain", "dame.constants", "dame.s22_privacy_constant"), implements=f"{_DM}.lower_bound"),
    _s(_D, "Theorem 2", "checkable", "R ≤ c3 ln(c4(√(m̃nα²) ∨ 1))/(nα² E[√(m ∧ m̃)]²) ∧ 4 with m̃ of eq. (12)",
       ("dame.ub_ge_lb", "dame.eq11_denominator", "dame.mtilde_definition"), implements=f"{_DM}.upper_bound",
       related=("dame.theorem2_corrected",)),
    _s(_D, "eq. (12)", "checkable", "m̃ = argmax{a : P(m ≥ a)² ≥ φ(a) ∧ 1}, φ(a) = c5/(nα²) ln(y/ln y)",
       ("dame.mtilde_definition", "dame.s146_exp_step"), implements=f"{_DM}.m_tilde"),
    _s(_D, "eq. (13)", "order", "as n → ∞ the lower bound behaves as c/(nα² E[√m]²)",
       ("dame.asymptotics",), implements=f"{_DM}.asymptotic_rates"),
    _s(_D, "eq. (14)", "order", "as n → ∞ the upper bound matches (13) up to a log factor",
       ("dame.asymptotics",), implements=f"{_DM}.asymptotic_rates"),
    _s(_D, "Table 1", "order", "the bounds recover the item-level and constant-size rates of previous work",
       (), implements=f"{_DM}.asymptotic_rates", related=("dame.asymptotics",),
       what="the asymptotics (13)–(14) on four laws", not_checked="the previous works' rates the table lists"),
    _s(_D, "§4.2 (Kent's bound)", "checkable", "quotes Kent et al.'s Theorem 6 lower bound as Ω(e^{−cnα²} ∧ (mnα²)⁻¹)",
       ("kent.lower_bound_quote",), implements="bounds.kent.dame_quote_lower"),
    _s(_D, "Corollary 3", "order", "two-point law M(m) = ρ, M(1) = 1 − ρ: explicit upper bound for nα² ≥ 1",
       (), implements=f"{_DM}.corollary3", related=("dame.asymptotics",),
       what="its m̃ equals Theorem 2's on 12 (m, ρ, nα²) points",
       not_checked="the explicit upper bound's formula and its proof"),
    _s(_D, "Figure 1a", "checkable", "the bounds for Poisson laws at nα² = 500 are parallel lines",
       ("dame.figure_constants",), implements=f"{_DM}.curve"),
    _s(_D, "Figure 1b", "checkable", "DAME beats the other approaches because m̃ adapts to the law",
       ("dame.fig1b_adaptation",), implements="bounds.simulate.compare"),
    _s(_D, "§4.2 (m̃ = 1)", "checkable", "with m̃ = 1 there is one bin [−1, 1] and DAME is Duchi et al.'s procedure",
       ("dame.duchi_equivalence",), implements="bounds.estimators.dame"),
    # ------------------------------------------------------------------ DAME, appendix S1 (Theorem 1)
    _s(_D, "Lemma S1", "checkable", "D_TV(ν0, ν1) ≤ Σ M(m) min(√(m/2)·D_KL(μ0, μ1), 1) (S1)", ("dame.lemma_s1",)),
    _s(_D, "Lemma S2", "checkable", "D_TV(μ0, μ1) = δ and D_KL(μ0, μ1) = δ ln((1+δ)/(1−δ)) ≤ 3δ² on [0, 1/2]",
       ("dame.lemma_s2",)),
    _s(_D, "(S20)", "quoted", "Le Cam: R ≥ δ²/2 (1 − D_TV(M0ⁿ, M1ⁿ))", (), "Le Cam's two-point bound (Tsybakov, 2009)"),
    _s(_D, "(S21)", "quoted", "Bretagnolle–Huber: 1 − D_TV ≥ e^{−KL}/2", ("dame.quoted_inequalities",),
       "Bretagnolle and Huber (1979); checked on the proof's product laws"),
    _s(_D, "(S22)", "checkable", "KL(M0ⁿ, M1ⁿ) ≤ 12 nα² D_TV(ν0, ν1)² (Duchi et al.'s 4(e^α−1)² ≤ 12α² under H3)",
       ("dame.s22_privacy_constant",)),
    _s(_D, "(S23)", "checkable", "D_TV(ν0, ν1)² ≤ (Σ M(m) min(√(m/2)·KL, 1))² by Lemma S1",
       ("dame.lemma_s1", "dame.theorem1_chain")),
    _s(_D, "(S24)", "checkable", "… ≤ (Σ M(m) min(√(m/2)·3δ², 1))² by Lemma S2", ("dame.lemma_s1", "dame.theorem1_chain")),
    _s(_D, "(S25)", "checkable", "the sum split at a", ("dame.theorem1_chain",)),
    _s(_D, "(S26)", "checkable", "min(·, 1) ≤ 1 on the sizes above a", ("dame.theorem1_chain",)),
    _s(_D, "(S27)", "checkable", "… ≤ (√(3δ²/2) E[√m 1{m≤a}] + P(m > a))²", ("dame.theorem1_chain",)),
    _s(_D, "(S28)", "checkable", "… ≤ 3δ² E[√m 1{m≤a}]² + 2 P(m > a)²", ("dame.theorem1_chain",)),
    _s(_D, "(S30)–(S31)", "checkable", "δ² = 1/(4 max(nα²E², 1)) gives c1 = e⁻⁹/16, c2 = 24", ("dame.constants",)),
    # ------------------------------------------------------------------ DAME, appendix S2 (Theorem 2)
    _s(_D, "(S32)–(S33)", "structural", "bias–variance decomposition given ĵ", (), "an identity of conditional expectations"),
    _s(_D, "(S34)", "checkable", "θ̂ written with the denominator E(√m ∧ m̃) (eq. (11)'s form)", ("dame.eq11_denominator",)),
    _s(_D, "Lemma S3", "checkable", "θ = √m̃/E[√(m∧m̃)]·E[X̄ 1{m ≥ m̃}] + Σ_{i<m̃} √i E[X̄ 1{m=i}]/E[√(m∧m̃)]",
       ("dame.lemma_s3",)),
    _s(_D, "(S49)–(S52)", "checkable", "the squared bias splits on A; under A, |s_ĵ − θ| ≤ 5τ; under Ā it is at most 4",
       (), "no check yet: the 5τ bound under A is computable (bins of width 2τ, the elected bin within 2 of "
       "the true one)"),
    _s(_D, "Lemma S4", "quoted", "Hoeffding: P(|X̄_i − θ| ≥ τ) ≤ 2e^{−iτ²/2}", ("dame.quoted_inequalities",),
       "Hoeffding (1963); checked on ±1 samples by exact binomial laws"),
    _s(_D, "Lemma S5", "checkable", "P(Ā) ≤ (1/τ) exp(−nα² P(m ≥ m̃)²/579)", (),
       related=("dame.lemma_s5_exponent", "dame.tau_condition"),
       what="the proof's step after (S71) (it fails: the 1/4 is dropped) and eq. (4)'s τ condition",
       not_checked="the lemma's probability P(Ā) itself (an exact union bound over the votes is not computed)"),
    _s(_D, "(S66)–(S67)", "checkable", "p_l − p_k ≥ (π_{α/6} − 1/2) P(m ≥ m̃) since 1 − 4e^{−m̃τ²/2} ≥ 1/2",
       (), related=("dame.tau_condition",), what="the premise 1 − 4e^{−m̃τ²/2} ≥ 1/2 (eq. (4)'s τ)",
       not_checked="the gap p_l − p_k between the vote probabilities"),
    _s(_D, "(S70)–(S71)", "checkable", "Hoeffding over n/2 votes: P(Z_l ≤ Z_k) ≤ exp(−n/4 (p_l − p_k)²) ≤ "
       "exp(−n/4 (π_{α/6} − 1/2)² P²)", (), related=("dame.quoted_inequalities",),
       what="Hoeffding's inequality on ±1 samples (Lemma S4, exact binomial laws)",
       not_checked="the vote differences' Hoeffding bound with their n/2 terms, and (S67)'s substitution"),
    _s(_D, "after (S71)", "checkable", "the unnumbered line: P(Z_l ≤ Z_j) ≤ exp(−nα² P(m ≥ m̃)²/579) by Lemma S6",
       ("dame.lemma_s5_exponent",)),
    _s(_D, "Lemma S6", "checkable", "(π_{α/6} − 1/2)² ≥ α²/579 on [0, 1]", ("dame.lemma_s6",)),
    _s(_D, "(S80)–(S87)", "checkable", "g' ≥ 0 for g = ln f by the printed derivative", ("dame.lemma_s6_derivative",)),
    _s(_D, "Lemma S7", "checkable", "(I) ≤ 4 exp(−m̃τ²/2) ≤ 1/(4√(m̃nα²))", ("dame.lemma_s7",)),
    _s(_D, "Lemma S8", "checkable", "(III) ≤ 1/(2√(m̃nα²))", ("dame.lemma_s8",)),
    _s(_D, "Lemma S9", "checkable", "for a ≤ m̃, under A ∩ B_a the shrunk estimate is within 6τ of s_ĵ",
       ("dame.lemma_s9",), implements="bounds.estimators.dame"),
    _s(_D, "Lemma S10", "checkable", "(II) = 0: no clipping of the shrunk estimates under A ∩ B_a",
       ("dame.lemma_s10_window",), related=("dame.lemma_s9",), implements="bounds.estimators.dame.interval",
       not_checked="the event A ∩ B_a itself (Lemma S9's bound under it is the related check)"),
    _s(_D, "(S135)", "checkable", "|E[θ̂|ĵ] − θ| 1{A} = √m̃/E · 1/√(m̃nα²) = 1/√(E nα²)", ("dame.s135_algebra",)),
    _s(_D, "(S136)", "checkable", "squared bias ≤ 1/(E nα²) + (4/τ) exp(−nα² P²/579)",
       ("dame.s135_algebra", "dame.lemma_s5_exponent")),
    _s(_D, "Lemma S11", "checkable", "Var(θ̂⁽ⁿ⁾ | ĵ) ≤ 2(14τ)²/α²", ("dame.lemma_s11",)),
    _s(_D, "(S138)–(S141)", "checkable", "Var = Var(Π(X̄)) + Var(14τℓ/α) ≤ 14²τ² + 14²τ²/α²", ("dame.lemma_s11",)),
    _s(_D, "(S142)–(S143)", "checkable", "bias² + variance with Var(θ̂|ĵ) = 2m̃ Var(θ̂⁽ⁿ⁾)/(nE²)",
       ("dame.lemma_s11", "dame.s135_algebra")),
    _s(_D, "(S144)", "checkable", "… ≤ 1569 ln(8(√(m̃nα²) ∨ 1))/(nα²E²) with τ² = 2L/m̃", ("dame.constants", "dame.lemma_s11")),
    _s(_D, "(S145)", "checkable", "exp-term 4√(m̃/(2L)) exp(−nα²P²/579)", ("dame.lemma_s5_exponent",)),
    _s(_D, "(S146)", "checkable", "for m̃ > 1 the exp-term ≤ ln y/(m̃nα²), giving c3 = 1570",
       ("dame.s146_exp_step", "dame.s146_constant", "dame.ub_ge_lb")),
    _s(_D, "(S147)", "checkable", "for m̃ = 1, τ ≥ 1 so P(A) = 1 and the bias is ≤ 1/(E nα²)", (),
       related=("dame.tau_condition",), what="eq. (4)'s τ condition 1 − 4e^{−m̃τ²/2} ≥ 1/2",
       not_checked="that m̃ = 1 gives τ ≥ 1, P(A) = 1 and the bias bound 1/(E nα²)"),
    # ------------------------------------------------------------------ Kent, Berrett and Yu
    _s("kent", "Assumption 1", "structural", "the user-level laws factor through measurable functions (Acharya et al.)",
       (), "a condition on families of distributions", confidence="S"),
    _s("kent", "Assumption 2", "structural", "a separation/sub-Gaussian condition on the family", (),
       "a condition on families of distributions", confidence="S"),
    _s("kent", "Remark 1", "structural", "user-level privacy extends item-level privacy to one point per user", (),
       "a definition-level remark"),
    _s("kent", "Theorem 1", "order", "general infinite-T rates through the covering number (eq. (8))",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Theorem 1'], implements="bounds.kent.theorem1", confidence="S"),
    _s("kent", "Corollary 2", "order", "the left side of (8) lower-bounds the risk for all T (eq. (9))",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Corollary 2'], implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Remark 2", "structural", "(9) is independent of T", (), "a remark on the form of (9)"),
    _s("kent", "Example 1", "order", "item-level lower bounds with nT samples are not the user-level rates",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Example 1'], implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Proposition 3", "order", "infinite-T rates of the univariate/ℓ∞ mean (eq. (13))",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Proposition 3'], implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Proposition 4", "order", "infinite-T rates of the ℓ2-ball and sparse means (eq. (14))",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Proposition 4'], implements="bounds.kent.rate", confidence="R"),
    _s("kent", "Proposition 5", "order", "infinite-T rates of Sobolev densities (eq. (17))",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Proposition 5'], implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Theorem 6", "order", "mean estimation: c{1/(nTα²) ∨ e^{−cnα²}} ≲ R ≲ upper with a log factor (eq. (24))",
       ("kent.theorem6_mean",), related=("kent.rates_consistent",), implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Lemma 7", "quoted", "concentration of the users' means (Levy et al., 2021, Lemma 2)", (),
       "Levy et al. (2021), Lemma 2"),
    _s("kent", "Theorem 8", "order", "s-sparse mean: max of a polynomial term and e^{−cnα²/s} (eq. (38))",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Theorem 8'], implements="bounds.kent.rate", confidence="R"),
    _s("kent", "Remark 3", "structural", "the procedures hold for every T; the assumption is for the lower bound", (),
       "a remark on the scope of the assumptions"),
    _s("kent", "Theorem 9", "order", "Sobolev density: rates with phase transition T† ≈ (nα²)^{2β+1} (eqs. (49)–(50))",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Theorem 9'], implements="bounds.kent.phase_transition", confidence="S"),
    _s("kent", "Lemma 10", "quoted", "Assouad's method under privacy", (), "Assouad's lemma (Yu, 1997; Duchi et al., 2018)"),
    _s("kent", "Lemma 11", "quoted", "private Assouad bound (Acharya et al., 2023a)", (), "Acharya et al. (2023a)"),
    _s("kent", "Lemma 12", "structural", "a hypercube family satisfying the separation condition (122)", (),
       "an existence statement about a packing"),
    _s("kent", "Corollary 13", "structural", "the sparse-mean hypercube lower bound", (),
       "its formulas were lost with the text; no reconstruction is firm enough", confidence="R"),
    _s("kent", "Lemma 14", "structural", "a monotonicity step of the sparse upper bound (with (99)–(101))", (),
       "its formulas were lost with the text", confidence="R"),
    _s("kent", "Lemma 15", "quoted", "norm-sub-Gaussian concentration (Jin et al., 2019, Cor. 7)", (),
       "Jin et al. (2019), Corollary 7"),
    _s("kent", "Lemma 16", "checkable", "randomised response on ≤k-sparse binary vectors with keep e^{α/(2k)}/(1+e^{α/(2k)}) is α-LDP",
       ("kent.lemma16", "kent.procedure_vote"), implements="bounds.mechanisms.randomized_response", confidence="S"),
    _s("kent", "Lemma 17", "order", "covering numbers of the Sobolev class: log N(δ) ≍ δ^{−1/β}",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Lemma 17'], implements="bounds.kent.covering", confidence="S"),
    _s("kent", "Lemma 18", "order", "covering numbers of sparse vectors: log N(δ) ≍ s log(ed/s) + s log(√s/δ)",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Lemma 18'], implements="bounds.kent.covering", confidence="R"),
    _s("kent", "eq. (25)", "checkable", "the procedure's τ = √(2 log(nT*α²)/T*) and the vote flip probability 1/(1+e^{α/6})",
       ("kent.procedure_vote",), implements="bounds.kent.estimator_cap", confidence="V"),
    # ------------------------------------------------------------------ Cummings, Feldman, McMillan, Talwar
    _s("cummings", "Lemma 2.1", "checkable", "Var(D(k)) = p(1−p)/k + (1 − 1/k)σ_p², σ_p² ≤ p(1−p)",
       ("cummings.lemma_2_1",), implements="bounds.cummings.user_variance"),
    _s("cummings", "Definition 2.2", "structural", "user-level (ε, δ)-differential privacy", (), "a definition"),
    _s("cummings", "Theorem 4.1", "order", "the two-stage estimator's error is near the ideal one under mild conditions",
       (), implements="bounds.cummings.realisable_plan", related=("cummings.example1_scalings",),
       what="Example 1's four scalings (a consequence on one family of counts)",
       not_checked="the theorem's error bound for general counts under its conditions"),
    _s("cummings", "Lemma 4.2", "checkable", "under Theorem 4.1's conditions σ̂_i² ∈ [σ_i²/2, 9.5σ_i²] for i > log n", (),
       "no check yet: Theorem 4.1 prints the conditions, and the 9.5 follows from them in three lines",
       "bounds.cummings.concentration"),
    _s("cummings", "eq. (5)", "checkable", "Var(p̂_ideal) = Σ w_i²σ_i² + max_i w_i²|b_i − a_i|²/ε² (Laplace)",
       ("cummings.eq5_laplace_variance",), implements="bounds.cummings.ideal_variance"),
    _s("cummings", "eq. (7)", "checkable", "condition σ²_{k_med} ≤ (n/2 − log n)/log n · σ²_{k_max} of Theorem 4.1", (),
       "no check yet: the condition is computable for given counts", "bounds.cummings.realisable_plan"),
    _s("cummings", "Example 1", "order", "four claimed scalings of the errors in n", ("cummings.example1_scalings",),
       implements="bounds.cummings.example1"),
    _s("cummings", "Theorem 5.1", "order", "the paper's lower bound: no estimator of the class beats the ideal one's "
       "variance by more than a constant", (), "no check yet (the paper's own theorem, not quoted)"),
    _s("cummings", "eq. (1)", "checkable", "without noise, inverse-variance weights w_i* = σ_i⁻²/Σσ_j⁻² minimise the variance",
       ("cummings.lemma_5_2_weights",), implements="bounds.cummings.nonprivate_weights"),
    _s("cummings", "Lemma 5.2", "checkable", "with the Laplace term max_i w_iσ_i/ε, the weights min{1/σ_i², T/σ_i} "
       "(normalised) minimise the variance for some T", ("cummings.lemma_5_2_truncated",),
       implements="bounds.cummings.private_weights", related=("cummings.lemma_5_2_weights",)),
    _s("cummings", "Lemma 5.3", "structural", "a lower bound for parameterised families with bounded Fisher information",
       (), "an existence statement over families of distributions"),
    _s("cummings", "Lemma 5.4", "structural", "a reduction for distributions whose k-sample means concentrate", (),
       "a statement over all distributions and concentration functions"),
    _s("cummings", "Corollary 5.5", "checkable", "the minimax error is min{k*-term, σ_p²/n} up to constants",
       ("cummings.cor_5_5_min",), implements="bounds.cummings.lower_bound"),
    # ------------------------------------------------------------------ Rameshwar and Tandon
    _s("rameshwar", "Definition II.1", "structural", "user-level ε-DP", (), "a definition"),
    _s("rameshwar", "Definition II.2", "structural", "user-level sensitivity Δ_g", (), "a definition",
       "bounds.rameshwar.sensitivities"),
    _s("rameshwar", "Theorem II.1", "checkable", "g(D) + Lap(Δ_g/ε) is user-level ε-DP", ("rameshwar.theorem_ii_1",),
       implements="bounds.rameshwar.sensitivities"),
    _s("rameshwar", "Lemma III.1", "checkable", "the worst-case error of a clipping is Σ max(a_j, U − b_j) + noise term (eq. (5))",
       ("rameshwar.lemma_iii_1_bias",), implements="bounds.rameshwar.worst_case_error",
       related=("rameshwar.theorem_iii_1",)),
    _s("rameshwar", "LP (8)", "checkable", "the optimal clipping solves a linear program", ("rameshwar.theorem_iii_1",),
       implements="bounds.rameshwar.lp_optimum"),
    _s("rameshwar", "eq. (9)-(11)", "checkable", "KKT conditions of (8) hold at S = T_ε with the printed "
       "multipliers (λ_ℓ = 1/2, μ_ℓ = 0 where α_ℓ > 0; λ_ℓ = 0, μ_ℓ = 1 else; λ_S by (9))",
       ("rameshwar.kkt_multipliers",), implements="bounds.rameshwar.clipping", related=("rameshwar.theorem_iii_1",)),
    _s("rameshwar", "Theorem III.1", "checkable", "clipping at T_ε minimises the worst-case error",
       ("rameshwar.theorem_iii_1",), implements="bounds.rameshwar.threshold"),
    _s("rameshwar", "Lemma III.2", "checkable", "an optimal estimator with symmetric clipping exists",
       (), implements="bounds.rameshwar.clipping", related=("rameshwar.theorem_iii_1",),
       what="the LP over symmetric clippings reaches Theorem III.1's value",
       not_checked="that no asymmetric clipping does better (the LP over all clippings is not solved)"),
    _s("rameshwar", "eq. (12)", "checkable", "E_OPT in closed form", ("rameshwar.eq12",),
       implements="bounds.rameshwar.optimal_error"),
    _s("rameshwar", "after eq. (12)", "checkable", "E_OPT(ε) is non-increasing in ε", ("rameshwar.monotone_eopt",),
       implements="bounds.rameshwar.optimal_error"),
    _s("rameshwar", "§IV-A", "checkable", "AKMV estimates the ⌈1/ε''⌉-th largest user sum",
       ("rameshwar.akmv_rank",), implements="bounds.rameshwar.akmv_rank"),
)


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
                  f"*Implemented in:* {_xref(CHECKS[c].fn.__module__ + '.' + CHECKS[c].fn.__name__)}", ""]
    return "\n".join(lines) + "\n"

