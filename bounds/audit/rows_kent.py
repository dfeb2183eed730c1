"""The atlas rows of Kent, Berrett and Yu (2024), each with its reconstruction's confidence tag (see :mod:`bounds.audit.registry`)."""

from __future__ import annotations

from ._statement import Statement, entry

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
ENTRIES: tuple[Statement, ...] = (
    # ------------------------------------------------------------------ Kent, Berrett and Yu
    entry("kent", "Assumption 1", "structural", "the user-level laws factor through measurable functions (Acharya et al.)",
       (), "a condition on families of distributions", confidence="S"),
    entry("kent", "Assumption 2", "structural", "a separation/sub-Gaussian condition on the family", (),
       "a condition on families of distributions", confidence="S"),
    entry("kent", "Remark 1", "structural", "user-level privacy extends item-level privacy to one point per user", (),
       "a definition-level remark"),
    entry("kent", "Theorem 1", "order", "general infinite-T rates through the covering number (eq. (8))",
       ("kent.theorem1_eq8",), implements="bounds.kent.theorem1", confidence="S",
       not_checked="that (8) bounds the minimax risk (Fano and the vote: proofs, not computations); c0, c1 are [R]"),
    entry("kent", "Corollary 2", "order", "the left side of (8) lower-bounds the risk for all T (eq. (9))",
       (), related=("kent.theorem1_eq8",), what="the left side of (8) as bounds.kent.theorem1 evaluates it",
       not_checked=_KENT_NOT['Corollary 2'], implements="bounds.kent.theorem1", confidence="S"),
    entry("kent", "Remark 2", "structural", "(9) is independent of T", (), "a remark on the form of (9)"),
    entry("kent", "Example 1", "order", "univariate mean: M ≳ min{1, 1/(nTα²)} (eq. (6)) and M ≳ e^{−c nα²} for every T (eq. (7))",
       (), related=("kent.theorem6_mean",), what="the two terms as parts of Theorem 6's univariate lower rate",
       not_checked="the two-point and point-mass proofs (Le Cam, Bretagnolle–Huber); the constant c ≈ 4(e − 1)² [R]",
       implements="bounds.kent.rate", confidence="S"),
    entry("kent", "Proposition 3", "order", "infinite-T rates of the ℓ∞-ball (eq. (13)) and ℓ2-ball (eq. (14)) means: "
       "e^{−c1 nα²/d} ≲ M_{n,∞} ≲ e^{−c2 nα²/d}",
       ("kent.proposition3",), implements="bounds.kent.rate", confidence="S",
       not_checked="the constants in the exponents (reconstructed [R]); d outside {1, 3, 4}"),
    entry("kent", "Proposition 4", "order", "infinite-T rate of the s-sparse mean: e^{−c1 nα²/s} ≲ M_{n,∞} ≲ e^{−c2 nα²/s} "
       "under nα² ≳ s log(ed/s) (eq. (17))",
       ("kent.proposition4",), implements="bounds.kent.rate", confidence="S",
       not_checked="the assumption's constant and the exponents' constants ([R]); the package's own T = ∞ upper rate "
                   "(Theorem 8's, with log d in the exponent)"),
    entry("kent", "Proposition 5", "order", "infinite-T rate of Sobolev densities: M_{n,∞} ≍ (nα²)^{−2β} (eq. (23))",
       ("kent.proposition5",), implements="bounds.kent.rate", confidence="S",
       not_checked="the constants depending on β and L; the package's own T = ∞ upper rate (Theorem 9's, with a log)"),
    entry("kent", "Theorem 6", "order", "mean estimation: c{1/(nTα²) ∨ e^{−cnα²}} ≲ R ≲ upper with a log factor (eq. (24))",
       ("kent.theorem6_mean",), related=("kent.rates_consistent",), implements="bounds.kent.rate", confidence="S",
       not_checked="the constants ([R]) and the ℓ2 ball's log factors ([R]); the proofs (Appendices B, C)"),
    entry("kent", "Lemma 7", "quoted", "concentration of the users' means (Levy et al., 2021, Lemma 2)", (),
       "Levy et al. (2021), Lemma 2"),
    entry("kent", "Theorem 8", "order", "s-sparse mean: max of a polynomial term and e^{−cnα²/s} (eq. (38))",
       ("kent.theorem8_sparse",), implements="bounds.kent.rate", confidence="R",
       not_checked="the polynomial term's exact form (reconstructed [R]: the package's ψ is within [1, e − 1] of the "
                   "printed log(1 + d/(nα²))); the procedures' analysis"),
    entry("kent", "Remark 3", "structural", "the procedures hold for every T; the assumption is for the lower bound", (),
       "a remark on the scope of the assumptions"),
    entry("kent", "Theorem 9", "order", "Sobolev density: rates with phase transition T† ≈ (nα²)^{2β+1}",
       ("kent.theorem9_density",), implements="bounds.kent.phase_transition", confidence="S",
       not_checked="the log factors ([R]) and the constants depending on β, L; the estimator's analysis"),
    entry("kent", "Lemma 10", "quoted", "Assouad's method under privacy", (), "Assouad's lemma (Yu, 1997; Duchi et al., 2018)"),
    entry("kent", "Lemma 11", "quoted", "private Assouad bound (Acharya et al., 2023a)", (), "Acharya et al. (2023a)"),
    entry("kent", "Lemma 12", "structural", "a hypercube family satisfying the separation condition (122)", (),
       "an existence statement about a packing"),
    entry("kent", "Corollary 13", "structural", "the sparse-mean hypercube lower bound", (),
       "its formulas were lost with the text; no reconstruction is firm enough", confidence="R"),
    entry("kent", "Lemma 14", "structural", "a monotonicity step of the sparse upper bound (with (99)–(101))", (),
       "its formulas were lost with the text", confidence="R"),
    entry("kent", "Lemma 15", "quoted", "norm-sub-Gaussian concentration (Jin et al., 2019, Cor. 7)", (),
       "Jin et al. (2019), Corollary 7"),
    entry("kent", "Lemma 16", "checkable", "randomised response on ≤k-sparse binary vectors with keep e^{α/(2k)}/(1+e^{α/(2k)}) is α-LDP",
       ("kent.lemma16", "kent.procedure_vote"), implements="bounds.mechanisms.randomized_response", confidence="S"),
    entry("kent", "Lemma 17", "order", "covering numbers of the Sobolev class: log N(δ) ≍ δ^{−1/β}",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Lemma 17'], implements="bounds.kent.covering", confidence="S"),
    entry("kent", "Lemma 18", "order", "covering numbers of sparse vectors: log N(δ) ≍ s log(ed/s) + s log(√s/δ)",
       (), related=("kent.rates_consistent",), what=_KENT_WHAT, not_checked=_KENT_NOT['Lemma 18'], implements="bounds.kent.covering", confidence="R"),
    entry("kent", "eq. (25)", "checkable", "the procedure's τ = √(2 log(nT*α²)/T*) and the vote flip probability 1/(1+e^{α/6})",
       ("kent.procedure_vote",), implements="bounds.kent.estimator_cap", confidence="V"),
)
