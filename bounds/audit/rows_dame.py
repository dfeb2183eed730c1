"""The atlas rows of Pla, Richard and Vono (2024): main text (see :mod:`bounds.audit.registry`)."""

from __future__ import annotations

from ._statement import Statement, entry

_D = "dame"
_DM = "bounds.dame"
ENTRIES: tuple[Statement, ...] = (
    # ------------------------------------------------------------------ DAME, main text
    entry(_D, "H1", "structural", "the size law M is known and has a finite mean", (),
       "an assumption on the input; bounds.sizes refuses laws without a finite mean", "bounds.sizes"),
    entry(_D, "H2", "structural", "the data law μ is supported on [-1, 1]", (), "an assumption on the data",
       "bounds.estimators.dame"),
    entry(_D, "H3", "checkable", "α ≤ 22/35 (high privacy); the proofs' constants need it",
       ("dame.s22_privacy_constant",), implements=f"{_DM}.check_h3"),
    entry(_D, "eq. (4)", "checkable", "τ = √(2 ln(8(√(m̃nα²) ∨ 1))/m̃) makes 1 − 4e^{−m̃τ²/2} ≥ 1/2",
       ("dame.tau_condition",), implements=f"{_DM}.tau"),
    entry(_D, "eq. (8)", "checkable", "each user's release adds Laplace noise of scale 14τ/α (width 14τ interval)",
       ("dame.eq8_window",), implements="bounds.estimators.dame.clip_widths"),
    entry(_D, "Algorithm 1 vs Lemma S9", "checkable",
       "the algorithm projects on [l − 6τ, u + 6τ] (width 14τ); Lemma S9's proof on [s_ĵ ± 6τ] (width 12τ)",
       ("dame.enlarged_interval",), implements="bounds.estimators.dame.interval"),
    entry(_D, "eq. (9)", "checkable", "the debiased estimator is unbiased given the bin (denominator E[√(m ∧ m̃)])",
       ("dame.lemma_s3", "dame.unbiased"), implements="bounds.estimators.dame"),
    entry(_D, "Theorem 1", "checkable", "R ≥ max_a c1 e^{−c2 nα² P(m>a)²}/(nα² E[√m 1{m≤a}]² ∨ 1), c1 = e⁻⁹/16, c2 = 24",
       ("dame.theorem1_chain", "dame.constants", "dame.s22_privacy_constant"), implements=f"{_DM}.lower_bound"),
    entry(_D, "Theorem 2", "checkable", "R ≤ c3 ln(c4(√(m̃nα²) ∨ 1))/(nα² E[√(m ∧ m̃)]²) ∧ 4 with m̃ of eq. (12)",
       ("dame.ub_ge_lb", "dame.eq11_denominator", "dame.mtilde_definition"), implements=f"{_DM}.upper_bound",
       related=("dame.theorem2_corrected",)),
    entry(_D, "eq. (12)", "checkable", "m̃ = argmax{a : P(m ≥ a)² ≥ φ(a) ∧ 1}, φ(a) = c5/(nα²) ln(y/ln y)",
       ("dame.mtilde_definition", "dame.s146_exp_step"), implements=f"{_DM}.m_tilde"),
    entry(_D, "eq. (13)", "order", "as n → ∞ the lower bound behaves as c/(nα² E[√m]²)",
       ("dame.asymptotics",), implements=f"{_DM}.asymptotic_rates"),
    entry(_D, "eq. (14)", "order", "as n → ∞ the upper bound matches (13) up to a log factor",
       ("dame.asymptotics",), implements=f"{_DM}.asymptotic_rates"),
    entry(_D, "Table 1", "order", "the bounds recover the item-level and constant-size rates of previous work",
       (), implements=f"{_DM}.asymptotic_rates", related=("dame.asymptotics",),
       what="the asymptotics (13)–(14) on four laws", not_checked="the previous works' rates the table lists"),
    entry(_D, "§4.2 (Kent's bound)", "checkable", "quotes Kent et al.'s Theorem 6 lower bound as Ω(e^{−cnα²} ∧ (mnα²)⁻¹)",
       ("kent.lower_bound_quote",), implements="bounds.kent.dame_quote_lower"),
    entry(_D, "Corollary 3", "order", "two-point law M(m) = ρ, M(1) = 1 − ρ: explicit upper bound for nα² ≥ 1",
       (), implements=f"{_DM}.corollary3", related=("dame.asymptotics",),
       what="its m̃ equals Theorem 2's on 12 (m, ρ, nα²) points",
       not_checked="the explicit upper bound's formula and its proof"),
    entry(_D, "Figure 1a", "checkable", "the bounds for Poisson laws at nα² = 500 are parallel lines",
       ("dame.figure_constants",), implements=f"{_DM}.curve"),
    entry(_D, "Figure 1b", "checkable", "DAME beats the other approaches because m̃ adapts to the law",
       ("dame.fig1b_adaptation",), implements="bounds.simulate.compare"),
    entry(_D, "§4.2 (m̃ = 1)", "checkable", "with m̃ = 1 there is one bin [−1, 1] and DAME is Duchi et al.'s procedure",
       ("dame.duchi_equivalence",), implements="bounds.estimators.dame"),
)
