r"""The statement atlas: every numbered statement of the four papers, with the checks that cover it.

The registry is data (:data:`ENTRIES`): one :class:`Statement` per numbered statement (theorem, lemma,
corollary, proposition, assumption, example with a quantitative claim, numbered equation carrying a
claim, and the steps of the proofs' chains of inequalities), with its kind —

* ``checkable``: an identity or inequality between computable quantities;
* ``order``: an O/Θ statement or one with unspecified constants (checkable as a trend, or with the
  constants its proof gives);
* ``structural``: not numerically checkable (the reason is given);
* ``quoted``: restated from other work (the source is given)

— and the audit check IDs covering it.  :func:`atlas` runs the checks and returns one :class:`Row`
per statement with its computed status: ``holds``, ``fails``, ``discrepancy``, ``inconclusive`` (the
worst over its checks, in that order of severity: fails, discrepancy, inconclusive, holds) or
``unchecked`` (no check).  Kent et al.'s text lost its formulas: their rows carry the confidence tag
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
from .core import CHECKS, AuditResult, run

__all__ = ["Statement", "Row", "ENTRIES", "KINDS", "ROW_STATUSES", "PAPERS", "atlas", "find", "page"]

KINDS = ("checkable", "order", "structural", "quoted")
ROW_STATUSES = ("holds", "fails", "discrepancy", "inconclusive", "unchecked")
PAPERS = {"dame": "Pla, Richard and Vono (2024)", "kent": "Kent, Berrett and Yu (2024)",
          "cummings": "Cummings, Feldman, McMillan and Talwar (2022)", "rameshwar": "Rameshwar and Tandon (2025)"}
_SEVERITY = ("fails", "discrepancy", "inconclusive", "holds")


@dataclass(frozen=True)
class Statement:
    """One numbered statement: ``paper``, ``label`` as printed, ``statement`` (one line), ``kind``, the
    covering ``checks``, ``reason`` (why structural, where quoted from), the implementing function
    (``implements``) and, for Kent et al., the reconstruction's ``confidence`` tag."""

    paper: str
    label: str
    statement: str
    kind: str
    checks: tuple[str, ...] = ()
    reason: str = ""
    implements: str = ""
    confidence: str = ""

    def __post_init__(self) -> None:
        check_choice("paper", self.paper, tuple(PAPERS))
        check_choice("kind", self.kind, KINDS)
        for name in ("label", "statement", "reason", "implements", "confidence"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be a string, got {format_value(getattr(self, name))}")
        if not (isinstance(self.checks, tuple) and all(isinstance(c, str) and c in CHECKS for c in self.checks)):
            raise ValueError(f"checks must be a tuple of check IDs of bounds.audit, got {format_value(self.checks)}")
        if self.kind in ("structural", "quoted") and not self.reason:
            raise ValueError(f"{self.paper}:{self.label} is {self.kind}: give the reason")


@dataclass(frozen=True)
class Row:
    """A statement with its computed ``status`` and ``evidence`` (check ID → status and evidence)."""

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

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of ``bounds check --atlas --json``."""
        return {"paper": self.paper, "label": self.label, "statement": self.statement, "kind": self.kind,
                "status": self.status, "checks": list(self.checks), "evidence": self.evidence,
                "reason": self.reason, "implements": self.implements, "confidence": self.confidence}


def _s(paper: str, label: str, kind: str, statement: str, checks: tuple[str, ...] = (), reason: str = "",
       implements: str = "", confidence: str = "") -> Statement:
    return Statement(paper, label, statement, kind, checks, reason, implements, confidence)


_D = "dame"
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
       ("dame.enlarged_interval",), implements="bounds.estimators.dame.clip_widths"),
    _s(_D, "eq. (9)", "checkable", "the debiased estimator is unbiased given the bin (denominator E[√(m ∧ m̃)])",
       ("dame.lemma_s3", "dame.unbiased"), implements="bounds.estimators.dame"),
    _s(_D, "Theorem 1", "checkable", "R ≥ max_a c1 e^{−c2 nα² P(m>a)²}/(nα² E[√m 1{m≤a}]² ∨ 1), c1 = e⁻⁹/16, c2 = 24",
       ("dame.theorem1_chain", "dame.constants", "dame.s22_privacy_constant"), implements=f"{_DM}.lower_bound"),
    _s(_D, "Theorem 2", "checkable", "R ≤ c3 ln(c4(√(m̃nα²) ∨ 1))/(nα² E[√(m ∧ m̃)]²) ∧ 4 with m̃ of eq. (12)",
       ("dame.ub_ge_lb", "dame.eq11_denominator", "dame.mtilde_definition", "dame.theorem2_corrected"),
       implements=f"{_DM}.upper_bound"),
    _s(_D, "eq. (12)", "checkable", "m̃ = argmax{a : P(m ≥ a)² ≥ φ(a) ∧ 1}, φ(a) = c5/(nα²) ln(y/ln y)",
       ("dame.mtilde_definition", "dame.s146_exp_step"), implements=f"{_DM}.m_tilde"),
    _s(_D, "eq. (13)", "order", "as n → ∞ the lower bound behaves as c/(nα² E[√m]²)",
       ("dame.asymptotics",), implements=f"{_DM}.asymptotic_rates"),
    _s(_D, "eq. (14)", "order", "as n → ∞ the upper bound matches (13) up to a log factor",
       ("dame.asymptotics",), implements=f"{_DM}.asymptotic_rates"),
    _s(_D, "Table 1", "order", "the bounds recover the item-level and constant-size rates of previous work",
       ("dame.asymptotics",), implements=f"{_DM}.asymptotic_rates"),
    _s(_D, "§4.2 (Kent's bound)", "checkable", "quotes Kent et al.'s Theorem 6 lower bound as Ω(e^{−cnα²} ∧ (mnα²)⁻¹)",
       ("kent.lower_bound_quote",), implements="bounds.kent.dame_quote_lower"),
    _s(_D, "Corollary 3", "order", "two-point law M(m) = ρ, M(1) = 1 − ρ: explicit upper bound for nα² ≥ 1",
       ("dame.asymptotics",), implements=f"{_DM}.corollary3"),
    _s(_D, "Figure 1a", "checkable", "the bounds for Poisson laws at nα² = 500 are parallel lines",
       ("dame.figure_constants",), implements=f"{_DM}.curve"),
    _s(_D, "Figure 1b", "checkable", "DAME beats the other approaches because m̃ adapts to the law",
       ("dame.fig1b_adaptation",), implements="bounds.simulate.compare"),
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
    _s(_D, "(S49)–(S52)", "structural", "the squared bias splits on A; under Ā it is at most 4", (),
       "a case split of a conditional expectation with no numeric content of its own"),
    _s(_D, "Lemma S4", "quoted", "Hoeffding: P(|X̄_i − θ| ≥ τ) ≤ 2e^{−iτ²/2}", ("dame.quoted_inequalities",),
       "Hoeffding (1963); checked on ±1 samples by exact binomial laws"),
    _s(_D, "Lemma S5", "checkable", "P(Ā) ≤ (1/τ) exp(−nα² P(m ≥ m̃)²/579)", ("dame.lemma_s5_exponent", "dame.tau_condition")),
    _s(_D, "(S66)–(S67)", "checkable", "p_l − p_k ≥ (π_{α/6} − 1/2) P(m ≥ m̃) since 1 − 4e^{−m̃τ²/2} ≥ 1/2",
       ("dame.tau_condition",)),
    _s(_D, "(S70)–(S71)", "checkable", "Hoeffding over n/2 votes: P(Z_l ≤ Z_k) ≤ exp(−n/4 (p_l − p_k)²) ≤ exp(−nα²P²/579)",
       ("dame.lemma_s5_exponent",)),
    _s(_D, "Lemma S6", "checkable", "(π_{α/6} − 1/2)² ≥ α²/579 on [0, 1]", ("dame.lemma_s6",)),
    _s(_D, "(S80)–(S87)", "checkable", "g' ≥ 0 for g = ln f by the printed derivative", ("dame.lemma_s6_derivative",)),
    _s(_D, "Lemma S7", "checkable", "(I) ≤ 4 exp(−m̃τ²/2) ≤ 1/(4√(m̃nα²))", ("dame.lemma_s7",)),
    _s(_D, "Lemma S8", "checkable", "(III) ≤ 1/(2√(m̃nα²))", ("dame.lemma_s8",)),
    _s(_D, "Lemma S9", "checkable", "for a ≤ m̃, under A ∩ B_a the shrunk estimate is within 6τ of s_ĵ",
       ("dame.lemma_s9",), implements="bounds.estimators.dame"),
    _s(_D, "Lemma S10", "checkable", "(II) = 0: no clipping of the shrunk estimates under A ∩ B_a",
       ("dame.lemma_s9",)),
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
    _s(_D, "(S147)", "checkable", "for m̃ = 1, τ ≥ 1 so P(A) = 1 and the bias is ≤ 1/(E nα²)", ("dame.tau_condition",)),
    # ------------------------------------------------------------------ Kent, Berrett and Yu
    _s("kent", "Assumption 1", "structural", "the user-level laws factor through measurable functions (Acharya et al.)",
       (), "a condition on families of distributions", confidence="S"),
    _s("kent", "Assumption 2", "structural", "a separation/sub-Gaussian condition on the family", (),
       "a condition on families of distributions", confidence="S"),
    _s("kent", "Remark 1", "structural", "user-level privacy extends item-level privacy to one point per user", (),
       "a definition-level remark"),
    _s("kent", "Theorem 1", "order", "general infinite-T rates through the covering number (eq. (8))",
       ("kent.rates_consistent",), implements="bounds.kent.theorem1", confidence="S"),
    _s("kent", "Corollary 2", "order", "the left side of (8) lower-bounds the risk for all T (eq. (9))",
       ("kent.rates_consistent",), implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Remark 2", "structural", "(9) is independent of T", (), "a remark on the form of (9)"),
    _s("kent", "Example 1", "order", "item-level lower bounds with nT samples are not the user-level rates",
       ("kent.rates_consistent",), implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Proposition 3", "order", "infinite-T rates of the univariate/ℓ∞ mean (eq. (13))",
       ("kent.rates_consistent",), implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Proposition 4", "order", "infinite-T rates of the ℓ2-ball and sparse means (eq. (14))",
       ("kent.rates_consistent",), implements="bounds.kent.rate", confidence="R"),
    _s("kent", "Proposition 5", "order", "infinite-T rates of Sobolev densities (eq. (17))",
       ("kent.rates_consistent",), implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Theorem 6", "order", "mean estimation: c{1/(nTα²) ∨ e^{−cnα²}} ≲ R ≲ upper with a log factor (eq. (24))",
       ("kent.rates_consistent",), implements="bounds.kent.rate", confidence="S"),
    _s("kent", "Lemma 7", "quoted", "concentration of the users' means (Levy et al., 2021, Lemma 2)", (),
       "Levy et al. (2021), Lemma 2"),
    _s("kent", "Theorem 8", "order", "s-sparse mean: max of a polynomial term and e^{−cnα²/s} (eq. (38))",
       ("kent.rates_consistent",), implements="bounds.kent.rate", confidence="R"),
    _s("kent", "Remark 3", "structural", "the procedures hold for every T; the assumption is for the lower bound", (),
       "a remark on the scope of the assumptions"),
    _s("kent", "Theorem 9", "order", "Sobolev density: rates with phase transition T† ≈ (nα²)^{2β+1} (eqs. (49)–(50))",
       ("kent.rates_consistent",), implements="bounds.kent.phase_transition", confidence="S"),
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
       ("kent.rates_consistent",), implements="bounds.kent.covering", confidence="S"),
    _s("kent", "Lemma 18", "order", "covering numbers of sparse vectors: log N(δ) ≍ s log(ed/s) + s log(√s/δ)",
       ("kent.rates_consistent",), implements="bounds.kent.covering", confidence="R"),
    _s("kent", "eq. (25)", "checkable", "the procedure's τ = √(2 log(nT*α²)/T*) and the vote flip probability 1/(1+e^{α/6})",
       ("kent.procedure_vote",), implements="bounds.kent.estimator_cap", confidence="V"),
    # ------------------------------------------------------------------ Cummings, Feldman, McMillan, Talwar
    _s("cummings", "Lemma 2.1", "checkable", "Var(D(k)) = p(1−p)/k + (1 − 1/k)σ_p², σ_p² ≤ p(1−p)",
       ("cummings.lemma_2_1",), implements="bounds.cummings.user_variance"),
    _s("cummings", "Definition 2.2", "structural", "user-level (ε, δ)-differential privacy", (), "a definition"),
    _s("cummings", "Theorem 4.1", "order", "the two-stage estimator's error is near the ideal one under mild conditions",
       ("cummings.example1_scalings",), implements="bounds.cummings.realisable_plan"),
    _s("cummings", "Lemma 4.2", "structural", "under Theorem 4.1's conditions σ̂_i² ∈ [σ_i²/2, 9.5σ_i²] for i > log n", (),
       "holds under Theorem 4.1's accuracy conditions, which the paper states only as 'mild'",
       "bounds.cummings.concentration"),
    _s("cummings", "eq. (5)", "checkable", "Var(p̂_ideal) = Σ w_i²σ_i² + max_i w_i²|b_i − a_i|²/ε² (Laplace)",
       ("cummings.eq5_laplace_variance",), implements="bounds.cummings.ideal_variance"),
    _s("cummings", "eq. (7)", "structural", "condition σ²_{k_med} ≤ (n/2 − log n)/log n · σ²_{k_max} of Theorem 4.1", (),
       "an assumption on the input sizes, not a claim", "bounds.cummings.realisable_plan"),
    _s("cummings", "Example 1", "order", "four claimed scalings of the errors in n", ("cummings.example1_scalings",),
       implements="bounds.cummings.example1"),
    _s("cummings", "Theorem 5.1", "quoted", "a Fisher-information lower bound for private estimation",
       (), "restated from prior work on private Cramér–Rao bounds"),
    _s("cummings", "Lemma 5.2", "checkable", "inverse-variance weights are variance-minimising",
       ("cummings.lemma_5_2_weights",), implements="bounds.cummings.nonprivate_weights"),
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
       ("rameshwar.lemma_iii_1_bias", "rameshwar.theorem_iii_1"), implements="bounds.rameshwar.worst_case_error"),
    _s("rameshwar", "LP (8)", "checkable", "the optimal clipping solves a linear program", ("rameshwar.theorem_iii_1",),
       implements="bounds.rameshwar.lp_optimum"),
    _s("rameshwar", "eq. (9)-(11)", "checkable", "KKT conditions of (8) characterise the optimum",
       ("rameshwar.theorem_iii_1",), implements="bounds.rameshwar.clipping"),
    _s("rameshwar", "Theorem III.1", "checkable", "clipping at T_ε minimises the worst-case error",
       ("rameshwar.theorem_iii_1",), implements="bounds.rameshwar.threshold"),
    _s("rameshwar", "Lemma III.2", "checkable", "an optimal estimator with symmetric clipping exists",
       ("rameshwar.theorem_iii_1",), implements="bounds.rameshwar.clipping"),
    _s("rameshwar", "eq. (12)", "checkable", "E_OPT in closed form", ("rameshwar.eq12",),
       implements="bounds.rameshwar.optimal_error"),
    _s("rameshwar", "after eq. (12)", "checkable", "E_OPT(ε) is non-increasing in ε", ("rameshwar.monotone_eopt",),
       implements="bounds.rameshwar.optimal_error"),
    _s("rameshwar", "§IV-A", "checkable", "AKMV estimates the ⌈1/ε''⌉-th largest user sum",
       ("rameshwar.akmv_rank",), implements="bounds.rameshwar.akmv_rank"),
)


def find(key: str) -> Statement:
    """The statement ``"paper:label"`` (e.g. ``"dame:Lemma S9"``); ValueError names the key if unknown."""
    if not isinstance(key, str):
        raise ValueError(f"key must be 'paper:label' of the atlas (e.g. 'dame:Lemma S9'), got {format_value(key)}")
    paper, _, label = key.partition(":")
    for e in ENTRIES:
        if e.paper == paper and e.label == label:
            return e
    raise ValueError(f"key must be 'paper:label' of the atlas (e.g. 'dame:Lemma S9'), got {key!r}")


def _evidence(r: AuditResult) -> dict[str, Any]:
    return {"status": r.status, "method": r.method, **r.evidence}


def atlas(paper: str | None = None, label: str | None = None, *, thorough: bool = False,
          results: dict[str, AuditResult] | None = None) -> list[Row]:
    r"""Every numbered statement of the four papers with its status computed by running its checks.

    ``paper`` / ``label`` select rows; each check runs once (``results``, check ID → result, reuses
    results already computed, e.g. by ``bounds.audit.run``).  The status of a row is the most
    severe of its checks' statuses (fails, discrepancy, inconclusive, holds), ``unchecked`` without checks.

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
    ids = [c for c in dict.fromkeys(c for e in entries for c in e.checks) if c not in (results or {})]
    results = {**(results or {}), **(dict(zip(ids, run(ids, thorough=thorough))) if ids else {})}
    rows = []
    for e in entries:
        statuses = [results[c].status for c in e.checks]
        status = next((s for s in _SEVERITY if s in statuses), "unchecked")
        rows.append(Row(e.paper, e.label, e.statement, e.kind, status, e.checks,
                        {c: _evidence(results[c]) for c in e.checks}, e.reason, e.implements, e.confidence))
    return rows


def _anchor(check_id: str) -> str:
    return "check-" + check_id.replace(".", "-").replace("_", "-")


def _md(text: str) -> str:
    return str(text).replace("|", "\\|")


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
             "reconstruction they rest on, see {doc}`../kent`).  Discrepancies are explained in "
             "{doc}`../choices`.", ""]
    counts: dict[tuple[str, str], int] = {}
    for r in rows:
        counts[r.kind, r.status] = counts.get((r.kind, r.status), 0) + 1
    lines += ["| kind | " + " | ".join(ROW_STATUSES) + " |", "|---|" + "---|" * len(ROW_STATUSES)]
    lines += [f"| {k} | " + " | ".join(str(counts.get((k, s), 0)) for s in ROW_STATUSES) + " |" for k in KINDS]
    for paper, name in PAPERS.items():
        sel = [r for r in rows if r.paper == paper]
        if not sel:
            continue
        lines += ["", f"## {name}", "", "| label | statement | kind | status | checks | implemented by |",
                  "|---|---|---|---|---|---|"]
        for r in sel:
            checks = ", ".join(f"{{ref}}`{c} <{_anchor(c)}>`" for c in r.checks) or _md(r.reason)
            tag = f" [{r.confidence}]" if r.confidence else ""
            impl = _xref(r.implements) if r.implements else ""
            lines.append(f"| {_md(r.label)}{tag} | {_md(r.statement)} | {r.kind} | **{r.status}** | {checks} | {impl} |")
    seen: dict[str, dict] = {}
    for r in rows:
        for c, ev in r.evidence.items():
            seen.setdefault(c, ev)
    lines += ["", "## The checks", ""]
    for c, ev in seen.items():
        lines += [f"({_anchor(c)})=", f"### `{c}` — {ev['status']}", "", f"*Method:* {_md(ev['method'])}  ",
                  f"*Claim:* {_md(CHECKS[c].claim)}  ", f"*Source:* {_md(CHECKS[c].source)}  ",
                  f"*Domain:* {_md(ev.get('domain', 'the cases listed in the audit report'))}  ",
                  f"*Implemented in:* {_xref(CHECKS[c].fn.__module__ + '.' + CHECKS[c].fn.__name__)}", ""]
    return "\n".join(lines) + "\n"

