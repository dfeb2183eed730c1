"""The atlas rows of Rameshwar and Tandon (2025) (see :mod:`bounds.audit.registry`)."""

from __future__ import annotations

from ._statement import Statement, entry

ENTRIES: tuple[Statement, ...] = (
    # ------------------------------------------------------------------ Rameshwar and Tandon
    entry("rameshwar", "Definition II.1", "structural", "user-level ε-DP", (), "a definition"),
    entry("rameshwar", "Definition II.2", "structural", "user-level sensitivity Δ_g", (), "a definition",
       "bounds.rameshwar.sensitivities"),
    entry("rameshwar", "Theorem II.1", "checkable", "g(D) + Lap(Δ_g/ε) is user-level ε-DP", ("rameshwar.theorem_ii_1",),
       implements="bounds.rameshwar.sensitivities"),
    entry("rameshwar", "Lemma III.1", "checkable", "the worst-case error of a clipping is Σ max(a_j, U − b_j) + noise term (eq. (5))",
       ("rameshwar.lemma_iii_1_bias",), implements="bounds.rameshwar.worst_case_error",
       related=("rameshwar.theorem_iii_1",)),
    entry("rameshwar", "LP (8)", "checkable", "the optimal clipping solves a linear program", ("rameshwar.theorem_iii_1",),
       implements="bounds.rameshwar.lp_optimum"),
    entry("rameshwar", "eq. (9)-(11)", "checkable", "KKT conditions of (8) hold at S = T_ε with the printed "
       "multipliers (λ_ℓ = 1/2, μ_ℓ = 0 where α_ℓ > 0; λ_ℓ = 0, μ_ℓ = 1 else; λ_S by (9))",
       ("rameshwar.kkt_multipliers",), implements="bounds.rameshwar.clipping", related=("rameshwar.theorem_iii_1",)),
    entry("rameshwar", "Theorem III.1", "checkable", "clipping at T_ε minimises the worst-case error",
       ("rameshwar.theorem_iii_1",), implements="bounds.rameshwar.threshold"),
    entry("rameshwar", "Lemma III.2", "checkable", "an optimal estimator with symmetric clipping exists",
       (), implements="bounds.rameshwar.clipping", related=("rameshwar.theorem_iii_1",),
       what="the LP over symmetric clippings reaches Theorem III.1's value",
       not_checked="that no asymmetric clipping does better (the LP over all clippings is not solved)"),
    entry("rameshwar", "eq. (12)", "checkable", "E_OPT in closed form", ("rameshwar.eq12",),
       implements="bounds.rameshwar.optimal_error"),
    entry("rameshwar", "after eq. (12)", "checkable", "E_OPT(ε) is non-increasing in ε", ("rameshwar.monotone_eopt",),
       implements="bounds.rameshwar.optimal_error"),
    entry("rameshwar", "§IV-A", "checkable", "AKMV estimates the ⌈1/ε''⌉-th largest user sum",
       ("rameshwar.akmv_rank",), implements="bounds.rameshwar.akmv_rank"),
)
