"""The atlas rows of Pla, Richard and Vono (2024): the appendix's proofs of Theorems 1 and 2 (see :mod:`bounds.audit.registry`)."""

from __future__ import annotations

from ._statement import Statement, entry

_D = "dame"
ENTRIES: tuple[Statement, ...] = (
    # ------------------------------------------------------------------ DAME, appendix S1 (Theorem 1)
    entry(_D, "Lemma S1", "checkable", "D_TV(ν0, ν1) ≤ Σ M(m) min(√(m/2)·D_KL(μ0, μ1), 1) (S1)", ("dame.lemma_s1",)),
    entry(_D, "(S10)–(S17)", "checkable", "D_TV(ν0, ν1) = 2 sup_A |ν0(A) − ν1(A)| (S10) … = Σ M(m) D_TV(μ0^m, μ1^m) (S17)",
       ("dame.s10_s17_tv",), what="(S10)'s 2 sup against (S4)'s convention, and (S17)'s equality, in exact rationals",
       not_checked="laws with infinite support (the sizes split the sample space, so (S17) is exact for any law)"),
    entry(_D, "Lemma S2", "checkable", "D_TV(μ0, μ1) = δ and D_KL(μ0, μ1) = δ ln((1+δ)/(1−δ)) ≤ 3δ² on [0, 1/2]",
       ("dame.lemma_s2",)),
    entry(_D, "(S20)", "quoted", "Le Cam: R ≥ δ²/2 (1 − D_TV(M0ⁿ, M1ⁿ))", (), "Le Cam's two-point bound (Tsybakov, 2009)"),
    entry(_D, "(S21)", "quoted", "Bretagnolle–Huber: 1 − D_TV ≥ e^{−KL}/2", ("dame.quoted_inequalities",),
       "Bretagnolle and Huber (1979); checked on the proof's product laws"),
    entry(_D, "(S22)", "checkable", "KL(M0ⁿ, M1ⁿ) ≤ 12 nα² D_TV(ν0, ν1)² (Duchi et al.'s 4(e^α−1)² ≤ 12α² under H3)",
       ("dame.s22_privacy_constant",)),
    entry(_D, "(S23)", "checkable", "D_TV(ν0, ν1)² ≤ (Σ M(m) min(√(m/2)·KL, 1))² by Lemma S1",
       ("dame.lemma_s1", "dame.theorem1_chain")),
    entry(_D, "(S24)", "checkable", "… ≤ (Σ M(m) min(√(m/2)·3δ², 1))² by Lemma S2", ("dame.lemma_s1", "dame.theorem1_chain")),
    entry(_D, "(S25)", "checkable", "the sum split at a", ("dame.theorem1_chain",)),
    entry(_D, "(S26)", "checkable", "min(·, 1) ≤ 1 on the sizes above a", ("dame.theorem1_chain",)),
    entry(_D, "(S27)", "checkable", "… ≤ (√(3δ²/2) E[√m 1{m≤a}] + P(m > a))²", ("dame.theorem1_chain",)),
    entry(_D, "(S28)", "checkable", "… ≤ 3δ² E[√m 1{m≤a}]² + 2 P(m > a)²", ("dame.theorem1_chain",)),
    entry(_D, "(S30)–(S31)", "checkable", "δ² = 1/(4 max(nα²E², 1)) gives c1 = e⁻⁹/16, c2 = 24", ("dame.constants",)),
    # ------------------------------------------------------------------ DAME, appendix S2 (Theorem 2)
    entry(_D, "(S32)–(S33)", "structural", "bias–variance decomposition given ĵ", (), "an identity of conditional expectations"),
    entry(_D, "(S34)", "checkable", "θ̂ written with the denominator E(√m ∧ m̃) (eq. (11)'s form)", ("dame.eq11_denominator",)),
    entry(_D, "Lemma S3", "checkable", "θ = √m̃/E[√(m∧m̃)]·E[X̄ 1{m ≥ m̃}] + Σ_{i<m̃} √i E[X̄ 1{m=i}]/E[√(m∧m̃)]",
       ("dame.lemma_s3",)),
    entry(_D, "(S49)–(S52)", "checkable", "the squared bias splits on A; under A, |s_ĵ − θ| ≤ 5τ; under Ā it is at most 4",
       ("dame.s49_event_a", "dame.s51_bias_bound"), implements="bounds.estimators.localisation.bin_ends",
       what="under A = {|ĵ − l| ≤ 2}, |s_ĵ − θ| ≤ 5τ for the implemented bins (exact supremum over θ ∈ I_l); under Ā, "
            "(E[θ̂|ĵ] − θ)² ≤ 4 with the implemented eq. (9) constants (E[θ̂|ĵ] an average of values in [−1, 1])",
       not_checked="(S50)'s split itself (an identity of expectations)"),
    entry(_D, "Lemma S4", "quoted", "Hoeffding: P(|X̄_i − θ| ≥ τ) ≤ 2e^{−iτ²/2}", ("dame.quoted_inequalities",),
       "Hoeffding (1963); checked on ±1 samples by exact binomial laws"),
    entry(_D, "Lemma S5", "checkable", "P(Ā) ≤ (1/τ) exp(−nα² P(m ≥ m̃)²/579)", ("dame.lemma_s5_statement",),
       related=("dame.lemma_s5_exponent",), implements="bounds.estimators.localisation.n_bins",
       what="the statement (not its proof): the exact union bound over the sub-optimal bins, with the vote law at the "
            "extremes (S58)/(S60) allow, below (1/τ) e^{−nα²P²/579} on 48 instances; the proof's step after (S71), "
            "which fails, is the row 'after (S71)'",
       not_checked="vote laws other than the extremes (S58)/(S60) allow; parameters outside the instances"),
    entry(_D, "(S61)–(S67)", "checkable", "p_j = (2π_{α/6} − 1)P(V_j = 1) + 1 − π_{α/6}; p_l − p_k ≥ (π_{α/6} − 1/2) "
       "P(m ≥ m̃) since 1 − 4e^{−m̃τ²/2} ≥ 1/2", ("dame.s61_s67_votes",), related=("dame.tau_condition",),
       not_checked="(S55)–(S60): the vote probabilities' bounds from Hoeffding (their extremes are inputs here)"),
    entry(_D, "(S70)–(S71)", "checkable", "Hoeffding over n/2 votes: P(Z_l ≤ Z_k) ≤ exp(−n/4 (p_l − p_k)²) ≤ "
       "exp(−n/4 (π_{α/6} − 1/2)² P²)", ("dame.s70_hoeffding",), related=("dame.quoted_inequalities",),
       what="both inequalities against the exact law of Z_l − Z_k (correct as printed, with the 1/4)",
       not_checked="vote laws other than the extremes (S58)/(S60) allow; parameters outside the instances"),
    entry(_D, "after (S71)", "checkable", "the unnumbered line: P(Z_l ≤ Z_j) ≤ exp(−nα² P(m ≥ m̃)²/579) by Lemma S6",
       ("dame.lemma_s5_exponent",)),
    entry(_D, "(S89)", "checkable", "union bound: P(Ā) ≤ Σ_{|j−l|>2} P(Z_l ≤ Z_j) ≤ (1/τ) exp(−nα²P²/579)",
       ("dame.lemma_s5_statement",), implements="bounds.estimators.localisation.n_bins",
       what="the union bound over the implemented bins (at most N − 3 ≤ 1/τ sub-optimal ones) with exact vote laws",
       not_checked="the second inequality through the proof's (faulty) exponent: see the row 'after (S71)'"),
    entry(_D, "Lemma S6", "checkable", "(π_{α/6} − 1/2)² ≥ α²/579 on [0, 1]", ("dame.lemma_s6",)),
    entry(_D, "(S80)–(S87)", "checkable", "g' ≥ 0 for g = ln f by the printed derivative", ("dame.lemma_s6_derivative",)),
    entry(_D, "Lemma S7", "checkable", "(I) ≤ 4 exp(−m̃τ²/2) ≤ 1/(4√(m̃nα²))", ("dame.lemma_s7",)),
    entry(_D, "Lemma S8", "checkable", "(III) ≤ 1/(2√(m̃nα²))", ("dame.lemma_s8",)),
    entry(_D, "Lemma S9", "checkable", "for a ≤ m̃, under A ∩ B_a the shrunk estimate is within 6τ of s_ĵ",
       ("dame.lemma_s9",), implements="bounds.estimators.dame"),
    entry(_D, "Lemma S10", "checkable", "(II) = 0: no clipping of the shrunk estimates under A ∩ B_a",
       ("dame.lemma_s10_window",), related=("dame.lemma_s9",), implements="bounds.estimators.dame.interval",
       not_checked="the event A ∩ B_a itself (Lemma S9's bound under it is the related check)"),
    entry(_D, "(S135)", "checkable", "|E[θ̂|ĵ] − θ| 1{A} = √m̃/E · 1/√(m̃nα²) = 1/√(E nα²)", ("dame.s135_algebra",)),
    entry(_D, "(S136)", "checkable", "squared bias ≤ 1/(E nα²) + (4/τ) exp(−nα² P²/579)",
       ("dame.s135_algebra", "dame.lemma_s5_exponent")),
    entry(_D, "Lemma S11", "checkable", "Var(θ̂⁽ⁿ⁾ | ĵ) ≤ 2(14τ)²/α²", ("dame.lemma_s11",)),
    entry(_D, "(S138)–(S141)", "checkable", "Var = Var(Π(X̄)) + Var(14τℓ/α) ≤ 14²τ² + 14²τ²/α²", ("dame.lemma_s11",)),
    entry(_D, "(S142)–(S143)", "checkable", "bias² + variance with Var(θ̂|ĵ) = 2m̃ Var(θ̂⁽ⁿ⁾)/(nE²)",
       ("dame.lemma_s11", "dame.s135_algebra")),
    entry(_D, "(S144)", "checkable", "… ≤ 1569 ln(8(√(m̃nα²) ∨ 1))/(nα²E²) with τ² = 2L/m̃", ("dame.constants", "dame.lemma_s11")),
    entry(_D, "(S145)", "checkable", "exp-term 4√(m̃/(2L)) exp(−nα²P²/579)", ("dame.lemma_s5_exponent",)),
    entry(_D, "(S146)", "checkable", "for m̃ > 1 the exp-term ≤ ln y/(m̃nα²), giving c3 = 1570",
       ("dame.s146_exp_step", "dame.s146_constant", "dame.ub_ge_lb")),
    entry(_D, "(S147)", "checkable", "for m̃ = 1, τ ≥ 1 so P(A) = 1 and the bias is ≤ 1/(E nα²)", ("dame.s147_one_bin",),
       implements="bounds.estimators.dame.tau",
       what="τ ≥ 1 and one implemented bin at m̃ = 1 (so ĵ = l), and (S135)'s square equals (S147)'s term at E = 1",
       not_checked="the bias bound's own chain (Lemmas S7, S8 and (S135), their rows)"),
)
