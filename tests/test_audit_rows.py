"""A row's status comes from its own checks only (``row_status``); rows resting on a neighbour are ``partial``;
Rameshwar and Tandon's printed KKT multipliers and DAME's "m̃ = 1 is Duchi" are discrepancies."""

import itertools
import math
from fractions import Fraction

import pytest

from bounds import audit
from bounds.audit import dame_impl

CHECK_STATUSES = ("holds", "fails", "discrepancy", "inconclusive")


@pytest.mark.parametrize("n", [1, 2, 3])
def test_row_status_is_the_worst_own_status_and_never_holds_beside_a_discrepancy(n):
    for own in itertools.product(CHECK_STATUSES, repeat=n):
        for related in ((), ("holds",), ("fails",)):
            got = audit.row_status(list(own), list(related))
            if "fails" in own:
                assert got == "fails"
            elif "discrepancy" in own:
                assert got == "discrepancy"
            elif "inconclusive" in own:
                assert got == "inconclusive"
            else:
                assert got == "holds"
    assert audit.row_status([], ["holds"]) == "partial" and audit.row_status([], ["discrepancy"]) == "partial"
    assert audit.row_status([]) == "unchecked"
    with pytest.raises(ValueError, match="own"):
        audit.row_status(["maybe"])


def test_rows_resting_on_a_neighbour_are_partial_and_say_what_is_not_checked():
    partial = {(e.paper, e.label) for e in audit.ENTRIES if e.related and not e.checks}
    assert {("kent", "Corollary 2"), ("kent", "eq. (72)"),
            ("kent", "eq. (73)"), ("cummings", "Theorem 4.1"), ("rameshwar", "Lemma III.2")} <= partial
    for e in audit.ENTRIES:
        if e.related and not e.checks:
            assert e.checks_what and e.not_checked
    kinds = {(e.paper, e.label): e.kind for e in audit.ENTRIES}
    assert kinds["cummings", "Theorem 5.1"] != "quoted"
    assert kinds["cummings", "Lemma 4.2"] == kinds["cummings", "eq. (7)"] == kinds["dame", "(S49)–(S52)"] == "checkable"


def test_atlas_rows_carry_method_domain_and_what_is_checked():
    rows = audit.atlas(paper="rameshwar")
    by = {r.label: r for r in rows}
    assert by["Lemma III.2"].status == "partial" and by["Lemma III.2"].method.startswith("related only")
    assert by["eq. (9)-(11)"].status == "discrepancy"
    assert by["eq. (9)-(11)"].evidence["rameshwar.theorem_iii_1"]["related"] is True
    for r in rows:
        d = r.as_dict()
        assert all(isinstance(d[k], str) and d[k] for k in ("method", "domain", "checks_what", "not_checked"))


def test_atlas_runs_each_check_once_per_process(monkeypatch):
    audit.atlas(paper="rameshwar", label="eq. (12)")
    import dataclasses

    broken = dataclasses.replace(audit.CHECKS["rameshwar.eq12"], fn=None)  # a second run would call None
    monkeypatch.setitem(audit.CHECKS, "rameshwar.eq12", broken)
    assert audit.atlas(paper="rameshwar", label="eq. (12)")[0].status == "discrepancy"


def _geometric(M):
    """§IV-B's geometric collection, written here: 2^i users with 2^(M - i) samples, i = 0..M."""
    return [2 ** (M - i) for i in range(M + 1) for _ in range(2**i)]


@pytest.mark.parametrize("eps, product", [(Fraction(1, 2), 520), (Fraction(1, 5), 780), (Fraction(2, 3), 2080),
                                          (Fraction(1, 10), 650)])
def test_printed_multipliers_break_complementary_slackness(eps, product):
    # by hand: T is the ceil(2/eps)-th largest 65 m; k users lie above it; (9) forces lambda_S = 1/eps - k/2
    um = sorted((65 * m for m in _geometric(6)), reverse=True)
    T = um[math.ceil(2 / eps) - 1]
    k = sum(u > T for u in um)
    assert (1 / eps - Fraction(k, 2)) * T == product
    r = audit.CHECKS["rameshwar.kkt_multipliers"].fn()
    row = next(x for x in r.evidence["rows"] if x["collection"].startswith("geometric") and x["eps"] == str(eps))
    assert row["lambda_S_times_S"] == str(product) and row["gap"] == "0" and row["valid_dual_certifies"]
    assert r.status == "discrepancy"


def test_kkt_check_holds_when_fed_multipliers_that_satisfy_the_conditions():
    from bounds.audit import rameshwar as rt

    def valid(um, eps):
        k = rt.kkt_quantities(um, eps)
        k["printed"] = {**k["printed"], "holds": True}
        return k

    assert audit.CHECKS["rameshwar.kkt_multipliers"].fn(multiplier_rule=valid).status == "holds"


def test_duchi_ratio_closed_form_against_a_hand_evaluation():
    # alpha = 22/35, n alpha^2 = 10: 2(1 + 392 tau^2/alpha^2) tanh^2(alpha/2), tau^2 = 2 ln(8 sqrt(10))
    a = 22 / 35
    want = 2 * (1 + 392 * 2 * math.log(8 * math.sqrt(10)) / a**2) * math.tanh(a / 2) ** 2
    assert math.isclose(dame_impl.duchi_ratio_closed_form(10.0, a), want, rel_tol=1e-12)
    assert 1180 < want < 1200  # ≈ 367.6 ln(8 sqrt(10)) + small


def test_m_tilde_one_is_not_duchi():
    r = audit.CHECKS["dame.duchi_equivalence"].fn(reps=2000)
    assert r.status == "discrepancy"
    assert all(row["ratio"] > 500 for row in r.evidence["rows"])


def test_eq8_and_lemma_s10_read_the_implemented_window():
    assert audit.CHECKS["dame.eq8_window"].fn().status == "holds"
    assert audit.CHECKS["dame.lemma_s10_window"].fn().status == "holds"
    assert audit.find("dame:Lemma S10").checks == ("dame.lemma_s10_window",)


def test_checks_that_read_the_implementation_hold_and_see_their_faults():
    for cid in ("kent.theorem6_mean", "cummings.lemma_5_2_truncated", "dame.asymptotics"):
        c = audit.CHECKS[cid]
        assert c.fn().status == "holds"
        assert all(c.fn(**kw).status == "fails" for _, kw in c.faults)
    rows = {r.label: r for r in audit.atlas(paper="kent", label="Theorem 6")}
    assert rows["Theorem 6"].status == "holds" and rows["Theorem 6"].checks == ("kent.theorem6_mean",)


def test_searched_counterexamples_are_the_smallest_in_their_order():
    # Lemma S1 at m = 1: TV(Bern((1 - d)/2), Bern((1 + d)/2)) = d, printed right side sqrt(1/2) d ln((1 + d)/(1 - d))
    # < d for every d <= 1/2, so the smallest grid point (m = 1, d = 1/64) already fails
    r = audit.CHECKS["dame.lemma_s1"].fn(max_m=2)
    ce = r.evidence["smallest_counterexample"]
    assert (ce["m"], ce["delta"], ce["tv"]) == (1, "1/64", 1 / 64)
    assert math.isclose(ce["printed_rhs"], math.sqrt(0.5) / 64 * math.log(65 / 63), rel_tol=1e-12)
    # Lemma S7: 4 exp(-L) = 1/(2 (sqrt(y) v 1)) > 1/(4 sqrt(y)) iff y > 1/4; at 16/64 equality: first failure 17/64
    assert audit.CHECKS["dame.lemma_s7"].fn().evidence["smallest_counterexample"]["m_tilde_n_alpha2"] == "17/64"
    # (S146): ln(8y) > ln(8 sqrt(y)) iff y > 1: first failure on the grid k/64 is 65/64
    r = audit.CHECKS["dame.s146_constant"].fn()
    assert r.evidence["smallest_counterexample"]["m_tilde_n_alpha2"] == "65/64"
    assert r.evidence["failure_set"] == "Interval.open(1, oo)"


def test_inequality_rows_report_their_tightest_constant():
    # suprema by closed form: 2 ln 3 (Lemma S2), 4/tanh(1/12)^2 (Lemma S6), 4(e^a - 1)^2/a^2 at a = 22/35 ((S22))
    a = 22 / 35
    for cid, star in (("dame.lemma_s2", 2 * math.log(3)), ("dame.lemma_s6", 4 / math.tanh(1 / 12) ** 2),
                      ("dame.s22_privacy_constant", 4 * math.expm1(a) ** 2 / a**2)):
        lo, hi = audit.CHECKS[cid].fn().evidence["slack"]["tightest_constant_in"]
        assert lo <= star <= hi and hi - lo < 0.6
