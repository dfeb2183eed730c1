"""The Cummings et al. checks of the atlas: searched counterexamples and slacks pinned against values computed here,
their rows, and the implementation each reads (a formula of ``bounds.cummings`` changed here moves its row)."""

import math
from fractions import Fraction

import numpy as np
import pytest

from bounds import audit, cummings
from bounds.audit import cummings as ac
from bounds.audit import cummings_sec4


def status(cid, **kw):
    return audit.CHECKS[cid].fn(**kw).status


def test_eq5_counterexample_is_one_user_and_the_laplace_variance_is_2b2():
    r = audit.CHECKS["cummings.eq5_laplace_variance"].fn(reps=3000)
    assert r.status == "discrepancy" and r.evidence["smallest_counterexample"]["users"] == 1
    assert r.evidence["var_lap_1"] == pytest.approx(math.gamma(3), rel=1e-12)  # ∫ z² e^{-|z|}/2 = Γ(3) = 2
    assert status("cummings.eq5_laplace_variance", reps=3000, kappa=2) == "holds"


def test_cor_5_5_counterexample_is_one_user_with_one_sample():
    ce = audit.CHECKS["cummings.cor_5_5_min"].fn().evidence["smallest_counterexample"]
    # k = (1), eps = 1: k* = 1, the k*-term (1/1 + 1)/min(1, sqrt(1·1))² = 2, the bound min(2, 0/1) = 0
    assert ce["users"] == 1 and Fraction(ce["k_star_term"]) == 2 and ce["bound"] == "0"


def test_lemma_4_2_constants_are_tight():
    r = audit.CHECKS["cummings.lemma_4_2"].fn()
    assert r.status == "holds"
    assert r.evidence["slack"]["tightest_upper"] == "19/2" and r.evidence["slack"]["tightest_lower"] == "1/2"
    # sigma_p = 0, k = k_i = K, p(1 - p) at the ends of the conditions: 3/2 + 8(1 - 1/K) -> 9.5; z -> 0 gives 1/2
    K = 10**6
    assert 9.5 - 1e-5 < float(Fraction(3, 2) + 8 * (1 - Fraction(1, K))) < 9.5
    x, z = Fraction(1, 10), Fraction(1, K)  # ratio (x/2 + (1 - x) x z)/x at sigma_p = 0
    assert 0.5 < float((x / 2 + (1 - x) * x * z) / x) < 0.5 + 1e-5


def test_eq7_tightest_constant_is_1_at_sigma_p_0():
    r = audit.CHECKS["cummings.eq7"].fn()
    assert r.status == "holds" and r.evidence["slack"]["tightest_constant"] == 1
    # sigma_p = 0: sigma_k^2 = p(1-p)/k, so sigma_med^2 = (k_max/k_med) sigma_max^2 exactly
    A, kmax, kmed = Fraction(6, 25), 40, 8
    assert (A / kmed) == Fraction(kmax, kmed) * (A / kmax)


def test_sec42_supremum_is_attained_by_the_extreme_sequence_and_near_2():
    r = audit.CHECKS["cummings.sec42_sum"].fn()
    row = next(x for x in r.evidence["rows"] if x["n"] == 100)
    n, L, M, R = 100, row["L"], row["M"], row["R"]
    t = np.zeros(n)
    t[: n // 2] = 1.0
    t[:L] = R  # the top terms at R t_{n/2}, the terms down to n/2 equal, the rest 0
    ratio = t.sum() / t[L:M].sum()
    assert ratio == pytest.approx(row["supremum"], rel=1e-12)
    rng = np.random.default_rng(0)
    for _ in range(200):  # random admissible sequences stay below it
        u = np.sort(rng.uniform(0, 1, n))[::-1]
        u[0] = min(u[0], R * u[n // 2 - 1])
        u = np.minimum.accumulate(u)
        assert u.sum() / u[L:M].sum() <= row["supremum"] + 1e-12
    assert 2 < r.evidence["slack"]["tightest_constant"] < 2.2 and r.status == "holds"


def test_new_rows_have_their_own_checks_and_theorems_stay_partial():
    rows = {r.label: r for r in audit.atlas(paper="cummings")}
    for label, cid in (("eq. (6)", "cummings.eq6"), ("eq. (7)", "cummings.eq7"), ("Lemma 4.2", "cummings.lemma_4_2"),
                       ("§4.1 (sensitivity)", "cummings.sec41_sensitivity"), ("§4.2 (Σ min ≤ 4 Σ)", "cummings.sec42_sum"),
                       ("Theorem 5.1 (proof chain)", "cummings.thm51_chain"), ("eq. (1)", "cummings.lemma_5_2_weights"),
                       ("Lemma 5.2", "cummings.lemma_5_2_truncated")):
        assert rows[label].checks == (cid,) and rows[label].status == "holds", label
    assert rows["Theorem 4.1"].status == rows["Theorem 5.1"].status == "partial"
    assert "cummings.example1_scalings" not in rows["Theorem 4.1"].checks
    assert rows["Theorem 5.1"].kind == "order" and rows["Lemma 4.2"].kind == rows["eq. (7)"].kind == "checkable"


def test_broken_truncated_weights_in_the_package_move_lemma_5_2(monkeypatch):
    monkeypatch.setattr(cummings, "private_weights", lambda s2, T: np.minimum(1 / np.asarray(s2), T)
                        / np.minimum(1 / np.asarray(s2), T).sum())
    assert status("cummings.lemma_5_2_truncated") == "fails"


def test_broken_inverse_variance_weights_in_the_package_move_eq1(monkeypatch):
    monkeypatch.setattr(cummings, "nonprivate_weights", lambda s2: np.full(len(s2), 1 / len(s2)))
    assert status("cummings.lemma_5_2_weights") == "fails"


def test_a_wrong_user_variance_in_the_package_moves_lemma_4_2_and_eq7(monkeypatch):
    from bounds.cummings import _plan

    real = cummings.user_variance
    # the plan's plug-in variance with sigma_p^2's weight (1 - 1/k) replaced by 1/k
    monkeypatch.setattr(_plan, "user_variance", lambda k, p, sigma_p2: (p * (1 - p) + sigma_p2) / np.asarray(k, float))
    assert status("cummings.lemma_4_2") == "fails"
    # Lemma 2.1 decaying as 1/k^2: (7) no longer follows from the condition on the counts
    monkeypatch.setattr(cummings, "user_variance", lambda k, p, sigma_p2: real(k, p=p, sigma_p2=sigma_p2) / np.asarray(k, float))
    assert status("cummings.eq7") == "fails"


def test_a_wrong_k_star_in_the_package_moves_corollary_5_5(monkeypatch):
    real = cummings.lower_bound
    monkeypatch.setattr(cummings, "lower_bound", lambda k, eps, sigma_p2: real(k[:-1], eps=eps, sigma_p2=sigma_p2))
    assert status("cummings.cor_5_5_min") == "fails"


def test_a_wrong_t_star_in_the_package_moves_eq6(monkeypatch):
    real = cummings.optimal_truncation

    def off(s2, widths, **kw):
        t = real(s2, widths, **kw)
        return type(t)(t.T * 1.5, t.variance, t.weights, t.laplace)

    monkeypatch.setattr(cummings, "optimal_truncation", off)
    assert status("cummings.eq6") == "fails"


def test_example1_log_factor_resolution():
    # a claim off by (log n)^0.2 is flagged, one off by (log n)^0.1 is not (the stated resolution 0.15)
    base = {"nonprivate_sd": (lambda n: 1 / np.sqrt(n * np.log(n)), "theta")}
    off = {"nonprivate_sd": (lambda n: np.log(n) ** 0.2 / np.sqrt(n * np.log(n)), "theta")}
    near = {"nonprivate_sd": (lambda n: np.log(n) ** 0.1 / np.sqrt(n * np.log(n)), "theta")}
    assert status("cummings.example1_scalings", claims=base) == "holds"
    assert status("cummings.example1_scalings", claims=off) != "holds"
    assert status("cummings.example1_scalings", claims=near) == "holds"


def test_the_checks_transcriptions_against_values_computed_by_hand():
    # Lemma 5.2's weights min{1/s2, T/sigma} at s2 = (1/4, 1, 4), T = 1: raw (min(4, 2), min(1, 1), min(1/4, 1/2))
    w = ac._truncated_paper(np.array([0.25, 1.0, 4.0]), 1.0)
    assert w.tolist() == pytest.approx([2 / 3.25, 1 / 3.25, 0.25 / 3.25], rel=1e-12)
    # Corollary 5.5 at k = (4, 1), eps = 1/2: g(k) = (4k + Σmin)/(Σmin)² is 3/2, 11/9, 1, 21/25 at k = 1..4, so
    # k* = 4; the root sum is min(4, 4) + min(1, 2) = 5 and the k*-term (16 + 5)/25
    assert ac._cor55_terms([4, 1], Fraction(1, 2), Fraction(0)) == (Fraction(21, 25), Fraction(0), 4)
    # at k = (3, 1, 1, 1), eps = 1/2: g = 8/16, 13/25, 18/36 at k = 1, 2, 3: a tie, k* the smallest (1), the root sum
    # min(3, sqrt 3) + 3 and the k*-term 8/(3 + sqrt 3)^2 (with k/eps in place of k/eps^2, k* would be 3)
    priv, _, kst = ac._cor55_terms([3, 1, 1, 1], Fraction(1, 2), Fraction(0))
    assert kst == 1 and float(priv) == pytest.approx(8 / (3 + math.sqrt(3)) ** 2, rel=1e-14)
    # eq. (6) at one user: weight 1, both lines sigma^2 + c^2/eps^2 whatever T
    first, second = cummings_sec4._eq6_lines([Fraction(1, 2)], [Fraction(3)], Fraction(2), Fraction(7))
    assert first == second == Fraction(1, 4) + Fraction(9, 4)


def test_wrong_weights_groups_or_widths_in_the_package_move_their_rows(monkeypatch):
    import dataclasses

    real_t = cummings.optimal_truncation

    def weights_off(s2, widths, **kw):  # T* and its variance right, the weights taken at 1.1 T*
        t = real_t(s2, widths, **kw)
        return dataclasses.replace(t, weights=cummings.private_weights(s2, 1.1 * t.T))

    monkeypatch.setattr(cummings, "optimal_truncation", weights_off)
    assert status("cummings.eq6") == "fails"
    monkeypatch.setattr(cummings, "optimal_truncation", real_t)
    real_g = cummings.groups
    monkeypatch.setattr(cummings, "groups", lambda k: real_g(np.asarray(k)[:-1]))  # one user left out
    assert status("cummings.sec42_sum") == "fails"
    monkeypatch.setattr(cummings, "groups", real_g)
    real_p = cummings.realisable_plan

    def wide(k, **kw):  # the intervals p̂ ∓ 2(alpha + f)
        pl = real_p(k, **kw)
        mid = (pl.a_hat + pl.b_hat) / 2
        return dataclasses.replace(pl, a_hat=mid - (pl.b_hat - pl.a_hat), b_hat=mid + (pl.b_hat - pl.a_hat))

    monkeypatch.setattr(cummings, "realisable_plan", wide)
    assert status("cummings.lemma_4_2") == "fails"


def test_k_star_with_the_wrong_power_of_eps_moves_corollary_5_5(monkeypatch):
    from bounds.cummings import _bounds

    real = _bounds._k_objective
    monkeypatch.setattr(_bounds, "_k_objective", lambda kk, cand, eps: real(kk, cand, math.sqrt(eps)))  # k/eps
    assert status("cummings.cor_5_5_min") == "fails"


def test_the_package_values_the_checks_read_against_hand_computations():
    # Corollary 5.5 as printed at one user with one sample: min{k*-term = 2, sigma_p^2/n = 0} = 0
    assert cummings.lower_bound([1], eps=1.0, sigma_p2=0.0).value == 0.0
    # the plan's interval p̂ ∓ (alpha + f), f = sqrt(2 σ̂² log(2n/β)): at p̂ = 1/2, σ̂_p = 0, alpha = 0, beta = 0.05 and
    # n = 12 users, the final group's user with k = 4 has σ̂² = 1/16 and f = sqrt(log(480)/8)
    plan = cummings.realisable_plan([4] * 12, p_initial=0.5, sigma_p2_hat=0.0, tolerance=0.0, eps=1.0)
    assert plan.sigma2_hat[0] == 1 / 16
    assert (plan.b_hat[0] - plan.a_hat[0]) / 2 == pytest.approx(math.sqrt(math.log(480) / 8), rel=1e-14)


def test_example1_scalings_is_not_parametrised():
    r = audit.CHECKS["cummings.example1_scalings"].fn()
    assert r.status == "discrepancy" and r.evidence["smallest_counterexample"]["value"].startswith("not parametrised")
    base = {"nonprivate_sd": (lambda n: 1 / np.sqrt(n * np.log(n)), "theta")}
    assert audit.CHECKS["cummings.example1_scalings"].fn(claims=base).evidence["smallest_counterexample"] == {}
