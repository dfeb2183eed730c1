"""The atlas rows of Cummings, Feldman, McMillan and Talwar (2022) (see :mod:`bounds.audit.registry`)."""

from __future__ import annotations

from ._statement import Statement, entry

ENTRIES: tuple[Statement, ...] = (
    # ------------------------------------------------------------------ Cummings, Feldman, McMillan, Talwar
    entry("cummings", "Lemma 2.1", "checkable", "Var(D(k)) = p(1−p)/k + (1 − 1/k)σ_p², σ_p² ≤ p(1−p)",
       ("cummings.lemma_2_1",), implements="bounds.cummings.user_variance"),
    entry("cummings", "Definition 2.2", "structural", "user-level (ε, δ)-differential privacy", (), "a definition"),
    entry("cummings", "eq. (1)", "checkable", "without noise, inverse-variance weights w_i* = σ_i⁻²/Σσ_j⁻² minimise the variance",
       ("cummings.lemma_5_2_weights",), implements="bounds.cummings.nonprivate_weights",
       what="the package's weights equal the transcription and their variance 1/Σσ_i⁻² is below 50 competitors each",
       not_checked="irrational variances (the identity is exact on rationals)"),
    entry("cummings", "§4.1 (sensitivity)", "checkable", "the worst-case sensitivity of p̂_ideal is 1; truncating to "
       "[a_i, b_i] makes it max_i w_i|b_i − a_i| (the Laplace scale of (3))", ("cummings.sec41_sensitivity",),
       implements="bounds.cummings.realisable_plan",
       what="the supremum 1 approached by the package's weights; step 14's Λ against one user's estimate moved",
       not_checked="intervals sticking out of [0, 1] (there Λ is an upper bound, not attained)"),
    entry("cummings", "eq. (5)", "checkable", "Var(p̂_ideal) = Σ w_i²σ_i² + max_i w_i²|b_i − a_i|²/ε² (Laplace)",
       ("cummings.eq5_laplace_variance",), implements="bounds.cummings.ideal_variance"),
    entry("cummings", "eq. (6)", "checkable", "T* minimises (Σ min{1/σ_i², T²} + max_i min{1/σ_i⁴, T²/σ_i²}|b_i − a_i|²/ε²)"
       " / (Σ_j min{1/σ_j², T/σ_j})², the second line equal to the first", ("cummings.eq6",),
       implements="bounds.cummings.optimal_truncation",
       what="both lines equal in exact rationals; the package's T* not beaten at any tried T, its weights (4) at T*",
       not_checked="T between the tried points (the package's piecewise minimisation covers them)"),
    entry("cummings", "Example 1", "order", "four claimed scalings of the errors in n", ("cummings.example1_scalings",),
       implements="bounds.cummings.example1"),
    entry("cummings", "Theorem 4.1", "order", "Algorithm 2 is (ε, δ)-DP and, under its three conditions, Var(p̂_realistic) "
       "≤ C · Var(p̂_ideal) with probability 1 − 2β",
       (), implements="bounds.cummings.realisable_plan",
       related=("cummings.lemma_4_2", "cummings.eq7", "cummings.sec42_sum", "cummings.example1_scalings"),
       what="the proof's steps: Lemma 4.2's 9.5 and 1/2, (7), the Σ min ≤ 4 Σ step; Example 1's scalings",
       not_checked="the theorem's variance bound itself (no constant C is given), its privacy, the widths' factor 4"),
    entry("cummings", "Lemma 4.2", "checkable", "under Theorem 4.1's conditions σ̂_i² ∈ [σ_i²/2, 9.5σ_i²] for i > log n "
       "(and |b̂_i − â_i| ≤ 4|b_i − a_i|)", ("cummings.lemma_4_2",), implements="bounds.cummings.realisable_plan",
       what="the variance bounds, with a sympy certificate on the whole domain and both constants tight; the package's plug-in σ̂_i² and intervals p̂ ∓ (α + f) against their transcription",
       not_checked="the widths' factor 4: it depends on f, which the paper leaves open (1 + √9.5 = 4.08 with f ∝ σ)"),
    entry("cummings", "eq. (7)", "checkable", "if k_max/k_med ≤ (n/2 − log n)/log n then "
       "σ²_{k_med} ≤ (n/2 − log n)/log n · σ²_{k_max}", ("cummings.eq7",), implements="bounds.cummings.user_variance"),
    entry("cummings", "§4.2 (Σ min ≤ 4 Σ)", "checkable", "under (7), for every T: Σ over i ≤ n of min{1/σ_i², T/σ_i} ≤ "
       "4 Σ over log n < i ≤ 9n/10 of min{1/σ_i², T/σ_i}", ("cummings.sec42_sum",), implements="bounds.cummings.groups",
       what="the supremum of the ratio over every admissible sequence (exact, LP), about 2; the package's groups (⌈log n⌉, n − ⌊n/10⌋] against their transcription",
       not_checked="n outside the six values (the supremum stays near 2)"),
    entry("cummings", "Theorem 5.1", "order", "the ideal (and, under Theorem 4.1, the realisable) estimator's worst-case "
       "variance is within polylog factors of the best unbiased private estimator's", (),
       implements="bounds.cummings.private_weights",
       related=("cummings.lemma_5_2_truncated", "cummings.thm51_chain"),
       what="Lemma 5.2 (the truncated weights are optimal in NLE) and the proof chain's computable steps",
       not_checked="Lemma 5.3's Cramér–Rao step and the Õ factors of Lemma 5.4 (statements over all estimators)"),
    entry("cummings", "Lemma 5.2", "checkable", "with the Laplace term max_i w_iσ_i/ε, the weights min{1/σ_i², T/σ_i} "
       "(normalised) minimise the variance for some T", ("cummings.lemma_5_2_truncated",),
       implements="bounds.cummings.private_weights"),
    entry("cummings", "Theorem 5.1 (proof chain)", "order", "after Lemma 5.4: min_NLE = Ω(Var p̂^NLE) and Var(p̂^NLE) = "
       "Ω̃(Var p̂_ideal) (NLE with the ideal estimator's weights; M_TNL against M_NL)", ("cummings.thm51_chain",),
       implements="bounds.cummings.optimal_truncation",
       what="the two middle steps with the factors the proof gives (max(1, κγ²/2) and γ² = 8 log(2n/β))",
       not_checked="the first step (Lemma 5.3, over all unbiased estimators) and the last (Theorem 4.1)"),
    entry("cummings", "Lemma 5.3", "structural", "a lower bound for parameterised families with bounded Fisher information",
       (), "an existence statement over families of distributions"),
    entry("cummings", "Lemma 5.4", "structural", "a reduction for distributions whose k-sample means concentrate", (),
       "a statement over all distributions and concentration functions"),
    entry("cummings", "Corollary 5.5", "checkable", "the minimax error is min{k*-term, σ_p²/n} up to constants",
       ("cummings.cor_5_5_min",), implements="bounds.cummings.lower_bound"),
)
