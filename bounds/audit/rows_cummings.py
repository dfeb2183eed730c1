"""The atlas rows of Cummings, Feldman, McMillan and Talwar (2022) (see :mod:`bounds.audit.registry`)."""

from __future__ import annotations

from ._statement import Statement, entry

ENTRIES: tuple[Statement, ...] = (
    # ------------------------------------------------------------------ Cummings, Feldman, McMillan, Talwar
    entry("cummings", "Lemma 2.1", "checkable", "Var(D(k)) = p(1−p)/k + (1 − 1/k)σ_p², σ_p² ≤ p(1−p)",
       ("cummings.lemma_2_1",), implements="bounds.cummings.user_variance"),
    entry("cummings", "Definition 2.2", "structural", "user-level (ε, δ)-differential privacy", (), "a definition"),
    entry("cummings", "Theorem 4.1", "order", "the two-stage estimator's error is near the ideal one under mild conditions",
       (), implements="bounds.cummings.realisable_plan", related=("cummings.example1_scalings",),
       what="Example 1's four scalings (a consequence on one family of counts)",
       not_checked="the theorem's error bound for general counts under its conditions"),
    entry("cummings", "Lemma 4.2", "checkable", "under Theorem 4.1's conditions σ̂_i² ∈ [σ_i²/2, 9.5σ_i²] for i > log n", (),
       "no check yet: Theorem 4.1 prints the conditions, and the 9.5 follows from them in three lines",
       "bounds.cummings.concentration"),
    entry("cummings", "eq. (5)", "checkable", "Var(p̂_ideal) = Σ w_i²σ_i² + max_i w_i²|b_i − a_i|²/ε² (Laplace)",
       ("cummings.eq5_laplace_variance",), implements="bounds.cummings.ideal_variance"),
    entry("cummings", "eq. (7)", "checkable", "condition σ²_{k_med} ≤ (n/2 − log n)/log n · σ²_{k_max} of Theorem 4.1", (),
       "no check yet: the condition is computable for given counts", "bounds.cummings.realisable_plan"),
    entry("cummings", "Example 1", "order", "four claimed scalings of the errors in n", ("cummings.example1_scalings",),
       implements="bounds.cummings.example1"),
    entry("cummings", "Theorem 5.1", "order", "the paper's lower bound: no estimator of the class beats the ideal one's "
       "variance by more than a constant", (), "no check yet (the paper's own theorem, not quoted)"),
    entry("cummings", "eq. (1)", "checkable", "without noise, inverse-variance weights w_i* = σ_i⁻²/Σσ_j⁻² minimise the variance",
       ("cummings.lemma_5_2_weights",), implements="bounds.cummings.nonprivate_weights"),
    entry("cummings", "Lemma 5.2", "checkable", "with the Laplace term max_i w_iσ_i/ε, the weights min{1/σ_i², T/σ_i} "
       "(normalised) minimise the variance for some T", ("cummings.lemma_5_2_truncated",),
       implements="bounds.cummings.private_weights", related=("cummings.lemma_5_2_weights",)),
    entry("cummings", "Lemma 5.3", "structural", "a lower bound for parameterised families with bounded Fisher information",
       (), "an existence statement over families of distributions"),
    entry("cummings", "Lemma 5.4", "structural", "a reduction for distributions whose k-sample means concentrate", (),
       "a statement over all distributions and concentration functions"),
    entry("cummings", "Corollary 5.5", "checkable", "the minimax error is min{k*-term, σ_p²/n} up to constants",
       ("cummings.cor_5_5_min",), implements="bounds.cummings.lower_bound"),
)
