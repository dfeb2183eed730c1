"""The steps of DAME's proofs: each discrepancy pinned by an independent computation of its counterexample."""

import math
from fractions import Fraction

import pytest
from scipy import stats

from bounds import audit, dame, sizes
from bounds.audit import boxes, dame_proofs


def run(cid, **kw):
    return audit.CHECKS[cid].fn(**kw)


def test_boxes_prove_and_refute():
    assert boxes.prove(lambda d: 3 - ((1 + d) / (1 - d)).log() / d, [(Fraction(1, 10), Fraction(1, 2))]).proved
    r = boxes.prove(lambda x: x - 1, [(0, 2)])
    assert r.status == "fails" and r.counterexample == (Fraction(1),)
    assert boxes.prove(lambda x: x * x - 2, [(0, 2)], max_boxes=3).status in ("fails", "inconclusive")
    with pytest.raises(ValueError, match="box"):
        boxes.prove(lambda x: x, [(2, 1)])


def test_lemma_s1_printed_form_fails_at_one_sample():
    r = run("dame.lemma_s1")
    assert r.status == "discrepancy" and r.evidence["s19_form_holds"]
    # searched in the order (m, delta = k/64): the first case, m = 1, delta = 1/64, already fails
    found = r.evidence["smallest_counterexample"]
    assert (found["m"], found["delta"]) == (1, "1/64")
    d = 1 / 64
    assert abs(found["printed_rhs"] - math.sqrt(0.5) * d * math.log((1 + d) / (1 - d))) < 1e-12
    assert run("dame.lemma_s1", reading="s19").status == "holds"
    assert run("dame.lemma_s1", pinsker=Fraction(1, 4)).status == "fails"
    # one user with one sample: TV(nu0, nu1) = TV(Bernoulli) = delta (S2); printed (S1): sqrt(1/2) * KL
    delta = 0.25
    assert math.sqrt(0.5) * delta * math.log((1 + delta) / (1 - delta)) < delta
    assert math.sqrt(0.5 * delta * math.log((1 + delta) / (1 - delta))) >= delta  # (S19) form: Pinsker


def test_s22_constant_and_its_range():
    r = run("dame.s22_privacy_constant")
    assert r.status == "holds"
    lo, hi = r.evidence["constant_12_holds_up_to"]
    assert 3 * lo**2 > math.expm1(lo) ** 2 and 3 * hi**2 < math.expm1(hi) ** 2  # a bracket of the root
    assert run("dame.s22_privacy_constant", alpha_max=Fraction(11, 10)).status == "fails"


def test_theorem1_chain_holds_and_sees_its_constants():
    r = run("dame.theorem1_chain")
    assert r.status == "holds" and r.evidence["cases"] > 100
    # an independent instance of the first fault: one user of size 1 at delta = 1/2, TV = delta = 1/2 (S2), while
    # (S24) with D_KL <= (3/2) delta^2 would give sqrt(1/2 * 3/2 * 1/4) = 0.433 < 1/2
    assert math.sqrt(0.5 * 1.5 * 0.25) < 0.5
    assert run("dame.theorem1_chain", kl_constant=Fraction(3, 2)).evidence["failed_steps"]["S17<=S24"] > 0
    assert run("dame.theorem1_chain", s28_factor=1).evidence["failed_steps"]["S27<=S28"] > 0


def test_lemma_s5_loses_a_quarter():
    r = run("dame.lemma_s5_exponent")
    assert r.status == "discrepancy" and r.evidence["divisor_2316"] == "holds"
    a = r.evidence["counterexample"][0]
    pi = math.exp(a / 6) / (1 + math.exp(a / 6))
    assert (pi - 0.5) ** 2 / 4 < a * a / 579  # Hoeffding's exponent (n/4)(p_l - p_k)^2 is below n a^2/579
    assert run("dame.lemma_s5_exponent", divisor=2316).status == "holds"


def test_lemma_s6_derivative_misses_a_factor_2():
    r = run("dame.lemma_s6_derivative")
    assert r.status == "discrepancy" and r.evidence["true_second_term_factor"] == "2"
    assert r.evidence["s86_with_the_factor_2"] < 0
    # the true g'(x) = 2/x - 1/(3 sinh(x/6)) by a central difference of g = ln(x^2/(1/2 - pi)^2)
    g = lambda x: math.log(x * x / (0.5 - math.exp(x / 6) / (1 + math.exp(x / 6))) ** 2)
    for x in (0.3, 0.9):
        num = (g(x + 1e-5) - g(x - 1e-5)) / 2e-5
        assert abs(num - (2 / x - 1 / (3 * math.sinh(x / 6)))) < 1e-6 and num > 0
    assert run("dame.lemma_s6_derivative", factor=2).status == "holds"


def test_lemma_s7_s8_s9():
    r = run("dame.lemma_s7")
    assert r.status == "discrepancy" and r.evidence["holds_with_constant_2"]
    # at m~ n alpha^2 = 1: tau^2 = 2 ln 8 / m~, 4 exp(-m~ tau^2 / 2) = 4/8 > 1/(4 * 1)
    assert 4 * math.exp(-math.log(8)) > 1 / 4
    assert run("dame.lemma_s7", constant=2).status == "holds"
    assert run("dame.lemma_s8").status == "holds" and run("dame.lemma_s8", constant=3).status == "fails"
    assert run("dame.lemma_s9").status == "holds" and run("dame.lemma_s9", bound=5).status == "fails"


def test_s135_and_lemma_s11():
    assert run("dame.s135_algebra").status == "discrepancy"
    # sqrt(m) / E / sqrt(m x) at m = 4, E = 9/4, x = 2: 1/(E sqrt x), not 1/sqrt(E x)
    assert abs(2 / 2.25 / math.sqrt(8) - 1 / (2.25 * math.sqrt(2))) < 1e-12 and 1 / math.sqrt(4.5) > 0.4
    assert run("dame.s135_algebra", e_power=1).status == "holds"
    r = run("dame.lemma_s11")
    assert r.status == "discrepancy" and r.evidence["corrected_c3"] == 1766
    assert stats.laplace.var() == 2  # the standard Laplace law of Algorithm 1
    assert run("dame.lemma_s11", laplace_variance=1).status == "holds"


def test_s146_steps():
    r = run("dame.s146_exp_step")
    found = r.evidence["smallest_counterexample"]
    assert r.status == "discrepancy" and found["step_fails"]
    # searched: the first case of the order, point(2) at n alpha^2 = 1/64 with m~ = 2 (P(m >= 2) = 1, y = 8)
    assert (found["law"], found["n_alpha2"], found["m_tilde"]) == ("point(m=2)", "1/64", 2)
    assert math.exp(-1 / (64 * 579)) > (math.log(8) / 8) ** 1.5
    assert abs(found["rhs"] - (math.log(8) / 8) ** 1.5) < 1e-12
    assert run("dame.s146_exp_step", reading="proof").status == "holds"
    r = run("dame.s146_constant")
    assert r.status == "discrepancy" and r.evidence["corrected_chain"] == "holds"
    # searched on the grid y = k/64: ln(8y) <= ln(8 sqrt y) fails exactly for y > 1, so the first is 65/64
    assert r.evidence["smallest_counterexample"]["m_tilde_n_alpha2"] == "65/64"
    assert math.log(8 * 65 / 64) > math.log(8 * math.sqrt(65 / 64)) and math.log(8) <= math.log(8)
    lo, hi = r.evidence["slack"]["tightest_constant_in"]
    ref = math.log(8e18) / math.log(8e9)  # the supremum of ln(8y)/ln(8 sqrt y), at y = 1e18
    assert lo <= ref <= hi and hi - lo < 2e-3
    assert run("dame.s146_constant", factor=2).status == "holds"


def test_corrected_theorem2_never_below_theorem1():
    r = run("dame.theorem2_corrected")
    assert r.status == "holds" and r.evidence["violations"] == 0
    rows = {(row["law"], row["n_alpha2"], row["variant"]): row for row in r.evidence["rows"]}
    key = ("point(m=1000000000000)", 0.01)
    assert rows[key + ("printed",)]["upper"] < rows[key + ("printed",)]["lower"]
    assert rows[key + ("corrected",)]["upper"] == 4.0
    assert dame_proofs.corrected_constants().floats[2:] == (1766.0, 8.0, 3474.0)
    assert dame.m_tilde(sizes.point(10**12), n_alpha2=0.01, reading="proof") == 1
    assert run("dame.theorem2_corrected", reading="printed").status == "fails"


@pytest.mark.slow
def test_thorough_runs():
    for cid in ("dame.ub_ge_lb", "dame.s22_privacy_constant", "dame.lemma_s5_exponent", "dame.s146_constant"):
        r = audit.run([cid], thorough=True)[0]
        assert r.status in ("holds", "discrepancy")


def test_quoted_inequalities_on_the_proofs_laws():
    assert run("dame.quoted_inequalities").status == "holds"
    # one +-1 sample with q = 1/2: P(|X - 0| >= 1/8) = 1 > exp(-1/128) / 10
    assert run("dame.quoted_inequalities", max_i=2, factor=Fraction(1, 10)).status == "fails"


def test_s49_five_tau_on_the_implemented_bins():
    r = run("dame.s49_event_a")
    assert r.status == "holds" and r.evidence["bins_misread"] == 0
    # tau = 1/4: theta = -1 (bin 0), j = 2 has centre -1 + 4 tau + tau = 1/4, at distance 5 tau = 5/4
    assert -1 + 4 * 0.25 + 0.25 - (-1) == 5 * 0.25
    assert abs(r.evidence["slack"]["tightest_constant"] - 5) < 1e-9
    assert run("dame.s49_event_a", bound=4).status == "fails"
    assert run("dame.s49_event_a", reach=3).status == "fails"


def _brute_not_ahead(voters, alpha, P, m_tilde, x):
    """P(Z_l <= Z_k) by enumerating every voter's (V_l, V_k) and both flips (an independent transcription)."""
    import itertools

    e = 1 / (8 * max(math.sqrt(m_tilde * x), 1))
    q = math.exp(alpha / 6) / (1 + math.exp(alpha / 6))
    votes = {(1, 0): P * (1 - 2 * e), (0, 1): 2 * e * P, (0, 0): 1 - P}
    one = {}
    for (vl, vk), pv in votes.items():
        for fl, fk in itertools.product((0, 1), repeat=2):
            pr = pv * (q if fl == 0 else 1 - q) * (q if fk == 0 else 1 - q)
            d = (vl ^ fl) - (vk ^ fk)
            one[d] = one.get(d, 0.0) + pr
    total = 0.0
    for ds in itertools.product(one, repeat=voters):
        if sum(ds) <= 0:
            total += math.prod(one[d] for d in ds)
    return total


def test_lemma_s5_statement_and_s70_against_a_brute_force_vote_law():
    r70 = run("dame.s70_hoeffding")
    r5 = run("dame.lemma_s5_statement")
    assert r70.status == "holds" and r5.status == "holds"
    # the case m~ = 1e4, n alpha^2 = 10, alpha = 1, P = 1/4: n = 10 users, 5 voters
    row = r70.evidence["rows"][4]
    assert (row["m_tilde"], row["n_alpha2"], row["alpha"], row["P"]) == (10**4, 10, "1", "1/4")
    ref = _brute_not_ahead(5, 1.0, 0.25, 10**4, 10)
    assert abs(row["p_not_ahead"] - ref) < 1e-12 * ref
    q = math.exp(1 / 6) / (1 + math.exp(1 / 6))
    e = 1 / (8 * math.sqrt(1e5))
    assert ref <= math.exp(-10 * ((2 * q - 1) * 0.25 * (1 - 4 * e)) ** 2 / 4)  # (S70) at this case
    tau = math.sqrt(2 * math.log(8 * math.sqrt(1e5)) / 10**4)
    bins = math.ceil(1 / tau)
    assert bins == 26 and r5.evidence["rows"][4]["bins"] == bins
    assert abs(r5.evidence["rows"][4]["union_bound"] - (bins - 3) * ref) < 1e-12 * (bins - 3) * ref
    assert (bins - 3) * ref <= math.exp(-10 / 16 / 579) / tau
    assert 0 < r5.evidence["slack"]["tightest_constant"] < 1
    assert run("dame.lemma_s5_statement", divisor=1).status == "fails"
    assert run("dame.s70_hoeffding", divisor=1).status == "fails"


def test_votes_one_bin_and_tv_decomposition():
    assert run("dame.s61_s67_votes").status == "holds"
    assert run("dame.s61_s67_votes", log_factor=2).status == "fails"  # 1 - 4/2 = -1 < 1/2
    r = run("dame.s147_one_bin")
    assert r.status == "holds" and abs(r.evidence["min_tau"] - math.sqrt(2 * math.log(8))) < 1e-12
    assert run("dame.s147_one_bin", log_factor=Fraction(3, 2)).status == "fails"  # sqrt(2 ln 1.5) = 0.90 < 1
    r = run("dame.s10_s17_tv")
    ce = r.evidence["smallest_counterexample"]
    # one sample: TV(Bern(7/16), Bern(9/16)) = 1/8 = sup_A |nu0(A) - nu1(A)|, while (S10) reads 2 sup = 1/4
    assert r.status == "discrepancy" and r.evidence["s17_exact"]
    assert (ce["law"], ce["delta"], ce["tv"], ce["sup_factor_times_sup"]) == ({1: "1"}, "1/8", "1/8", "1/4")
    assert run("dame.s10_s17_tv", sup_factor=1).status == "holds"


def test_s51_the_bias_under_not_a_is_at_most_2():
    r = run("dame.s51_bias_bound")
    assert r.status == "holds" and r.evidence["max_rel_dev_from_eq9"] < 1e-12
    # M = (1/2, 1/2) on {1, 4}, m~ = 4: E[sqrt(m ^ 4)] = 3/2 and correction (2 - 1)/2 = 1/2 sum to sqrt(4) = 2;
    # every release at 1 and s = -1: (2 * (1/2 * 1) + 1/2 * (2 * (-1) + 1 * (1 + 1)) + 1/2) / (3/2) = 1
    assert (2 * 0.5 + 0.5 * (2 * -1 + 1 * 2) + 0.5) / 1.5 == 1
    assert abs(r.evidence["slack"]["tightest_constant"] - 4) < 1e-9
    assert run("dame.s51_bias_bound", correction_scale=Fraction(101, 100)).status == "fails"


def test_s136_holds_through_the_correct_square_and_s145_is_an_identity():
    assert run("dame.s136_bias_sum").status == "holds"
    # E = 3/2 (M = 1/2 on {1, 4}, m~ = 4), x = 2: 1/(E^2 x) = 2/9 <= 1/(E x) = 1/3
    assert Fraction(1) / (Fraction(9, 4) * 2) <= Fraction(1) / (Fraction(3, 2) * 2)
    assert run("dame.s136_bias_sum", e_min=Fraction(1, 2)).status == "fails"
    assert run("dame.s145_identity").status == "holds"
    L, m = 2.5, 16  # 4 / sqrt(2 L / m) = 4 sqrt(m / (2 L))
    assert abs(4 / math.sqrt(2 * L / m) - 4 * math.sqrt(m / (2 * L))) < 1e-12
    assert run("dame.s145_identity", tau_factor=1).status == "fails"


def test_s69_equality_of_events_fails_at_a_tie():
    r = run("dame.s69_event_a")
    ce = r.evidence["smallest_counterexample"]
    # four bins with no votes: the first maximum is bin 0 = l (A holds), yet Z_0 > Z_3 is false
    assert r.status == "discrepancy" and (ce["bins"], ce["votes"], ce["true_bin"]) == (4, [0, 0, 0, 0], 0)
    assert not (0 > 0)
    assert run("dame.s69_event_a", relation="superset").status == "holds"


def test_lemma_s5_exponent_fails_from_the_left_end_of_its_domain():
    # independent (mpmath): (pi_{a/6} - 1/2)^2/(4 a^2) at a = 1/1000 is below 1/579, and so is its limit 1/2304 at 0
    import mpmath
    ce = run("dame.lemma_s5_exponent").evidence["smallest_counterexample"]
    a = mpmath.mpf(1) / 1000
    ratio = (mpmath.exp(a / 6) / (1 + mpmath.exp(a / 6)) - mpmath.mpf(1) / 2) ** 2 / (4 * a * a)
    assert ratio < mpmath.mpf(1) / 579 and mpmath.mpf(1) / 2304 < mpmath.mpf(1) / 579
    assert ce["value"] == "1/1000" and ce["lhs_minus_rhs"] == pytest.approx(float(ratio - mpmath.mpf(1) / 579), rel=1e-9)
    assert "failing on the whole domain: holds" in ce["certified"]
    assert run("dame.lemma_s5_exponent", divisor=2316).evidence["smallest_counterexample"] == {}


def test_everywhere_discrepancies_and_identity_slacks():
    for cid in ("dame.lemma_s6_derivative", "dame.s135_algebra", "dame.lemma_s11"):
        assert run(cid).evidence["smallest_counterexample"]["value"].startswith("every point of the domain")
    assert run("dame.lemma_s6_derivative", factor=2).evidence["smallest_counterexample"] == {}
    assert run("dame.s135_algebra", e_power=1).evidence["smallest_counterexample"] == {}
    assert run("dame.lemma_s11", laplace_variance=1).status == "holds"
    # s135: the two sides 1/(E sqrt x) and 1/sqrt(E x) agree at E = 1 only
    assert 1 / (1 * math.sqrt(3)) == 1 / math.sqrt(1 * 3) and 1 / (4 * math.sqrt(3)) != 1 / math.sqrt(4 * 3)
    for cid in ("dame.s135_algebra", "dame.s146_exp_step"):
        assert "no constant to tighten" in run(cid).evidence["slack"]["note"]
    # lemma S6's true derivative (1/u - 1/sinh u)/3 tends to 0 as u -> 0 while staying positive: tightest constant 0
    s = run("dame.lemma_s6_derivative").evidence["slack"]
    assert s["tightest_constant"] == "0"
    assert all(0 < (1 / u - 1 / math.sinh(u)) / 3 < u for u in (1e-1, 1e-2, 1e-3))
