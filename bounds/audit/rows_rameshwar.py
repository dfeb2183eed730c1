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
    entry("rameshwar", "eq. (7)", "checkable", "with symmetric clippings a = α_ℓ/m_ℓ = U − b, E_f* = (Σα_ℓ + "
       "max_ℓ(Um_ℓ − 2α_ℓ)/ε)/Σm for suitable α", ("rameshwar.eq7",), implements="bounds.rameshwar.worst_case_error",
       what="(7) equals Lemma III.1's error of every symmetric clipping tried, and E_OPT at Theorem III.1's α",
       not_checked="(7) for non-rational α or collections outside the instances"),
    entry("rameshwar", "LP (8)", "checkable", "the optimal clipping solves a linear program", ("rameshwar.lp8",),
       implements="bounds.rameshwar.lp_optimum",
       what="(8)'s LP value equals Theorem III.1's optimum (exact) and the LP over all per-user clippings",
       not_checked="per-sample clippings (reduced to per-user ones by convexity, not computed)"),
    entry("rameshwar", "eq. (9)-(11)", "checkable", "KKT conditions of (8) hold at S = T_ε with the printed "
       "multipliers (λ_ℓ = 1/2, μ_ℓ = 0 where α_ℓ > 0; λ_ℓ = 0, μ_ℓ = 1 else; λ_S by (9))",
       ("rameshwar.kkt_multipliers",), implements="bounds.rameshwar.clipping", related=("rameshwar.theorem_iii_1",)),
    entry("rameshwar", "Theorem III.1", "checkable", "clipping at T_ε minimises the worst-case error",
       ("rameshwar.theorem_iii_1",), implements="bounds.rameshwar.threshold"),
    entry("rameshwar", "Lemma III.2", "checkable", "an optimal estimator with symmetric clipping exists",
       (), implements="bounds.rameshwar.clipping", related=("rameshwar.theorem_iii_1", "rameshwar.lp8"),
       what="the LP over symmetric clippings reaches the LP over all per-user clippings (instances)",
       not_checked="the lemma's argument itself and per-sample clippings (reduced to per-user ones by convexity)"),
    entry("rameshwar", "eq. (12)", "checkable", "E_OPT in closed form", ("rameshwar.eq12",),
       implements="bounds.rameshwar.optimal_error"),
    entry("rameshwar", "after eq. (12)", "checkable", "E_OPT(ε) is non-increasing in ε", ("rameshwar.monotone_eopt",),
       implements="bounds.rameshwar.optimal_error"),
    entry("rameshwar", "§IV-B", "checkable", "geometric collection: L = 2^(M+1) − 1, Σm = (M+1)2^M, m* = 2^M; "
       "extreme-valued: Σm = L − 1 + m*", ("rameshwar.collections",), implements="bounds.rameshwar.geometric",
       what="the package's collections built as printed and their printed counts, M = 0..12",
       not_checked="M > 12 (the counts are identities in M)"),
    entry("rameshwar", "§IV-C (E_AKMV)", "checkable", "E_AKMV = Σ_ℓ E max{0, Um_ℓ − T}/Σm + 2T/(εΣm) on the "
       "worst-case dataset", ("rameshwar.e_akmv",), implements="bounds.rameshwar.akmv_worst_case_error",
       what="the formula and the package against (3) evaluated from AKMV's definition at fixed T",
       not_checked="the expectation over the private T (the package's Monte Carlo)"),
    entry("rameshwar", "eq. (14)-(15)", "checkable", "Δ_f = Um*/Σm, Δ_f* = max_ℓ Σ_j(b − a)/Σm, Δ_ĝT = T/Σm",
       ("rameshwar.eq14_15",), implements="bounds.rameshwar.sensitivities",
       what="the three sensitivities by moving one user's samples between their extremes, exact",
       not_checked="T above U m* (AKMV's quantile stays in [0, U m*])"),
    entry("rameshwar", "Figure 1", "checkable", "on the worst-case dataset E_OPT is much lower than E_AKMV, and both "
       "decrease with ε", ("rameshwar.fig1",), implements="bounds.simulate.akmv_worst_case",
       what="E_OPT below E_AKMV by 4 standard errors and both decreasing, at three levels",
       not_checked="the figure's whole range of ε"),
    entry("rameshwar", "Figure 2", "checkable", "geometric collection, uniform samples: E_OPT (worst case) below "
       "AKMV's average-case error; AKMV similar to and a little worse than Laplace", ("rameshwar.fig2",),
       implements="bounds.simulate.rameshwar_errors",
       what="the three comparisons at three levels, 4 standard errors ('similar': within a factor 2)",
       not_checked="the figure's whole range of ε; 'a little worse' beyond 'not better, within 2x'"),
    entry("rameshwar", "Figure 3", "checkable", "extreme-valued collection (L = 101, m* = 10), projected Gaussian "
       "samples: the trend of Figure 2", ("rameshwar.fig3",), implements="bounds.simulate.rameshwar_errors",
       what="Figure 2's comparisons at ε in {0.1, 0.5, 1}",
       not_checked="ε = 2 and above, where E_OPT (2.95) and AKMV's error (about 3.7) need more replications"),
    entry("rameshwar", "§IV-A", "checkable", "AKMV estimates the ⌈1/ε''⌉-th largest user sum",
       ("rameshwar.akmv_rank",), implements="bounds.rameshwar.akmv_rank"),
)
