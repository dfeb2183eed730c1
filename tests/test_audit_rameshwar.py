"""The Rameshwar–Tandon checks of the atlas: their searched counterexamples pinned against values computed here,
their rows, and the implementation each reads (a formula of ``bounds.rameshwar`` changed here moves its row)."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from bounds import audit, rameshwar
from bounds.audit import rameshwar as rt
from bounds.audit import rameshwar_sec4 as rt_sec4


def status(cid, **kw):
    return audit.CHECKS[cid].fn(**kw).status


def test_eq12_smallest_counterexample_is_one_user_with_two_samples():
    r = audit.CHECKS["rameshwar.eq12"].fn()
    assert r.status == "discrepancy"
    ce = r.evidence["smallest_counterexample"]
    assert ce["m"] == [2] and ce["eps"] == "1/2"
    # one user, two samples in (0, 1], eps = 1/2: the best symmetric clipping by brute force over a grid of a = 1 - b
    grid = [Fraction(k, 64) for k in range(33)]
    best = min((2 * a + 2 * (1 - 2 * a) / Fraction(1, 2)) / 2 for a in grid)
    assert best == Fraction(1, 2) and Fraction(ce["E_OPT"]) == best
    # eq. (12) as printed there: T = 0 (rank 4 > L = 1), bias (2 - 0)/(2·2), min{0, 2}/eps = 0, over 2 samples
    assert Fraction(ce["eq12"]) == Fraction(1, 4)
    # every smaller collection agrees (one user with one sample, at each level of the search)
    for e in (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3)):
        assert rt._eq12_printed([1], Fraction(1), e) == rameshwar.optimal_error([1], U=1, eps=e, exact=True)


def test_akmv_rank_readings_first_disagree_just_below_eps_4():
    r = audit.CHECKS["rameshwar.akmv_rank"].fn(reps=200)
    ce = r.evidence["smallest_counterexample"]
    assert r.status == "discrepancy" and ce["eps"] == "399/100"
    assert (math.ceil(Fraction(200, 399)), math.ceil(Fraction(400, 399))) == (ce["rank_step2"], ce["rank_after_fig1"]) == (1, 2)
    assert math.ceil(1 / Fraction(2)) == math.ceil(2 / Fraction(2)) == 1  # eps = 4: both readings give rank 1


def test_lemma_iii_1_bias_smallest_counterexample_has_two_samples():
    r = audit.CHECKS["rameshwar.lemma_iii_1_bias"].fn()
    ce = r.evidence["smallest_counterexample"]
    assert r.status == "discrepancy" and ce["samples"] == 2
    a, b = [Fraction(x) for x in ce["a"]], [Fraction(y) for y in ce["b"]]
    assert a == [Fraction(0), Fraction(1, 4)] and b == [Fraction(0), Fraction(1)]
    # (5): (max(0, 1 - 0) + max(1/4, 1 - 1)) / 2 = 5/8; datasets on a fine grid approach 1/2 from below
    assert Fraction(ce["bias_formula"]) == Fraction(5, 8)
    xs = np.linspace(1e-9, 1, 401)
    X, Y = np.meshgrid(xs, xs)
    gap = np.abs((X - np.clip(X, 0, 0)) + (Y - np.clip(Y, 0.25, 1))) / 2
    assert 0.5 - 1e-6 < gap.max() <= 0.5 and Fraction(ce["sup_over_datasets"]) == Fraction(1, 2)
    # with one sample the lemma's term is exact for every clipping of the grid
    for lo, hi in itertools.combinations_with_replacement([Fraction(k, 4) for k in range(5)], 2):
        assert rt._bias_lemma([lo], [hi], Fraction(1)) == rt._bias_brute([lo], [hi], Fraction(1))


def test_kkt_printed_multiplier_fails_where_the_issue_says():
    rows = audit.CHECKS["rameshwar.kkt_multipliers"].fn().evidence["rows"]
    got = {r["eps"]: r["lambda_S_times_S"] for r in rows if r["collection"] == "geometric M = 6"}
    # lambda_S = 1/eps - (users with alpha > 0)/2, S = T_eps = 65 * (the ceil(2/eps)-th largest count)
    counts = sorted(rameshwar.geometric(6).tolist(), reverse=True)
    for eps in (Fraction(1, 2), Fraction(1, 5), Fraction(2, 3), Fraction(1, 10)):
        T = 65 * counts[math.ceil(2 / eps) - 1]
        above = sum(65 * c > T for c in counts)
        assert Fraction(got[str(eps)]) == (1 / eps - Fraction(above, 2)) * T
    assert [Fraction(got[e]) for e in ("1/2", "1/5", "2/3", "1/10")] == [520, 780, 2080, 650]


def test_new_rows_have_their_own_checks():
    rows = {r.label: r for r in audit.atlas(paper="rameshwar")}
    for label, cid in (("eq. (7)", "rameshwar.eq7"), ("eq. (14)-(15)", "rameshwar.eq14_15"),
                       ("§IV-B", "rameshwar.collections"), ("§IV-C (E_AKMV)", "rameshwar.e_akmv"),
                       ("Figure 1", "rameshwar.fig1"), ("Figure 2", "rameshwar.fig2"), ("Figure 3", "rameshwar.fig3")):
        assert rows[label].checks == (cid,) and rows[label].status == "holds", label
    assert rows["eq. (12)"].status == rows["Lemma III.1"].status == rows["§IV-A"].status == "discrepancy"


def test_e_akmv_noise_term_is_the_mean_absolute_laplace():
    # E|Lap(b)| = b: at T = U m* on the all-U dataset the bias vanishes and E_AKMV = 2T/(eps Σm)
    m = rameshwar.extreme(11, 5)
    T = 65.0 * 5
    assert rameshwar.akmv_worst_case_error(m, U=65, eps=0.5, T=T) == pytest.approx(2 * T / (0.5 * 15), rel=1e-12)


@pytest.mark.parametrize("cid", ["rameshwar.theorem_iii_1", "rameshwar.eq7", "rameshwar.eq14_15", "rameshwar.kkt_multipliers"])
def test_a_shifted_threshold_rank_in_the_package_moves_the_rows(monkeypatch, cid):
    before = status(cid)
    monkeypatch.setattr(rameshwar, "_rank", lambda eps: math.ceil(2 / eps) + 1)
    assert status(cid) == "fails" and before != "fails"


def test_a_wrong_optimal_error_in_the_package_moves_its_rows(monkeypatch):
    real = rameshwar.optimal_error
    monkeypatch.setattr(rameshwar, "optimal_error", lambda m, **kw: real(m, **kw) * (1 + 1e-4))
    assert status("rameshwar.theorem_iii_1") == "fails"
    assert status("rameshwar.eq7") == "fails"


def test_wrong_collections_or_sensitivities_in_the_package_move_their_rows(monkeypatch):
    real_g = rameshwar.geometric
    monkeypatch.setattr(rameshwar, "geometric", lambda M: real_g(M)[1:] if M > 2 else real_g(M))
    assert status("rameshwar.collections") == "fails"
    monkeypatch.setattr(rameshwar, "geometric", real_g)
    real_s = rameshwar.sensitivities
    monkeypatch.setattr(rameshwar, "sensitivities", lambda m, **kw: {**real_s(m, **kw), "opt_wc": 2 * real_s(m, **kw)["opt_wc"]})
    assert status("rameshwar.eq14_15") == "fails"


def test_kkt_smallest_counterexample_is_one_user_at_eps_2():
    r = audit.CHECKS["rameshwar.kkt_multipliers"].fn()
    ce = r.evidence["smallest_counterexample"]
    assert r.status == "discrepancy" and ce["m"] == [1] and ce["eps"] == "2"
    # one user, one sample, U = 1, eps = 2: rank ceil(2/2) = 1, T = S = 1, alpha = 0, so lambda_1 = 0 and (9) gives
    # lambda_S = 1/2: lambda_S S = 1/2 != 0; the dual lambda_1 = 1/2, lambda_S = 0 has value 1/2 = S/eps (zero gap)
    assert Fraction(ce["lambda_S_printed"]) == Fraction(1, 2) and Fraction(ce["lambda_S_times_S"]) == Fraction(1, 2)
    assert ce["valid_dual_certifies"] is True
    # the smaller levels of the search satisfy the printed conditions (T = 0 there: lambda_S S = 0)
    for e in (Fraction(1, 2), Fraction(1)):
        assert rt.kkt_quantities([Fraction(1)], e)["printed"]["holds"]


def test_lp8_row_has_its_own_check_and_lemma_iii_2_stays_partial():
    rows = {r.label: r for r in audit.atlas(paper="rameshwar")}
    assert rows["LP (8)"].checks == ("rameshwar.lp8",) and rows["LP (8)"].status == "holds"
    assert rows["Lemma III.2"].status == "partial" and "rameshwar.lp8" in rows["Lemma III.2"].related


def test_the_checks_transcriptions_against_values_computed_by_hand():
    m = [3, 2, 1]  # U = 65: U m = 195, 130, 65
    assert rt.t_eps(m, Fraction(65), Fraction(1)) == ([195, 130, 65], 130)  # the ceil(2/1) = 2nd largest
    assert rt.t_eps(m, Fraction(65), Fraction(2, 3))[1] == 65  # 3rd
    assert rt.t_eps(m, Fraction(65), Fraction(1, 2))[1] == 0  # rank 4 > L = 3
    # T = 130: alpha = (195 - 130)/2 = 65/2, 0, 0; (7) = (65/2 + max(130, 130, 65)/1)/6
    assert rt._transcribed_e_opt(m, Fraction(65), Fraction(1)) == (Fraction(65, 2) + 130) / 6
    # clipping: user 1 [65/6, 325/6] (spread 3 x 260/6 = 130), user 2 [0, 65] (130), user 3 [0, 65] (65)
    s = rt_sec4._sens_paper(m, Fraction(65), Fraction(1), Fraction(13))
    assert s == {"vanilla": Fraction(195, 6), "opt_wc": Fraction(130, 6), "akmv": Fraction(13, 6)}
    # Lemma III.1 at that clipping is E_OPT again: bias 3 x 65/6 = 65/2, spread 130
    a, b = [Fraction(65, 6), Fraction(0), Fraction(0)], [Fraction(325, 6), Fraction(65), Fraction(65)]
    assert rt._lemma_iii_1_error(m, Fraction(65), Fraction(1), a, b) == (Fraction(65, 2) + 130) / 6


def test_a_wrong_clipping_in_the_package_moves_theorem_iii_1(monkeypatch):
    real = rameshwar.clipping

    def capped(m, **kw):  # the upper end capped at 2U instead of U
        c = real(m, **kw)
        U = float(kw["U"])
        mm = np.asarray(m, float)
        b = np.minimum((U * mm + c.threshold) / (2 * mm), 2 * U)
        return type(c)(c.a, b, c.threshold)

    before = status("rameshwar.theorem_iii_1")
    monkeypatch.setattr(rameshwar, "clipping", capped)
    assert before == "holds" and status("rameshwar.theorem_iii_1") == "fails"


def test_the_collections_the_checks_read_against_hand_counts():
    # §IV-B: geometric M = 2 is 1 user of 4, 2 of 2, 4 of 1 (L = 7, Σm = 12 = 3·2²); extreme L = 4, m* = 3 is 1, 1, 1, 3
    assert sorted(rameshwar.geometric(2).tolist()) == [1, 1, 1, 1, 2, 2, 4]
    assert sorted(rameshwar.extreme(4, 3).tolist()) == [1, 1, 1, 3]
