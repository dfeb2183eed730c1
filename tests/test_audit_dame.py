"""The DAME main-text checks (bounds.audit.dame_text, and the reworked ones of bounds.audit.dame): their
statuses, their searched counterexamples pinned against references computed here independently."""

import math

import mpmath
import numpy as np
import pytest

from bounds import audit, dame, sizes
from bounds.audit import dame_text

C1, C2, C3, C4, C5 = mpmath.exp(-9) / 16, 24, 1570, 8, mpmath.mpf(1737) / 2


def run(cid, **kw):
    return audit.CHECKS[cid].fn(**kw)


def theorem1_brute(atoms, x):
    """Theorem 1's bound, the maximum over every a of its term, summed over the atoms (mpmath)."""
    best = mpmath.mpf(0)
    for a in range(0, max(atoms) + 2):
        p = sum(w for k, w in atoms.items() if k > a)
        e = sum(mpmath.sqrt(k) * w for k, w in atoms.items() if k <= a)
        best = max(best, C1 * mpmath.exp(-C2 * x * p**2) / max(x * e**2, 1))
    return best


def test_eq15_equals_theorem1_maximised_by_brute_force():
    r = run("dame.eq15_lower")
    assert r.status == "holds"
    with mpmath.workdps(30):
        for row in r.evidence["rows"][::7]:
            rho = mpmath.mpf(row["rho"])
            want = theorem1_brute({1: 1 - rho, row["m"]: rho}, mpmath.mpf(row["n_alpha2"]))
            assert abs(row["eq15"] / float(want) - 1) < 1e-12
    assert not r.evidence["a0_term_ever_above_a1_term"]


def test_corollary3_regimes_at_the_thresholds():
    r = run("dame.corollary3_regimes")
    assert r.status == "holds" and r.evidence["disagreements"] == 0
    # unit constants, n alpha^2 = 1000, m = 6: phi(a) = ln(1000 a/ln(1000 a))/1000, so rho^2 between phi(3)
    # and phi(4) gives m~ = 3
    phi = [math.log(1000 * a / math.log(1000 * a)) / 1000 for a in (3, 4)]
    rho = math.sqrt(sum(phi) / 2)
    got = dame.corollary3(6, rho, n_alpha2=1e3, constants="unit")
    assert got.m_tilde == 3 and got.regime == "m_tilde=a"
    assert got.table2_rate == pytest.approx(1 / ((rho * math.sqrt(3) + 1 - rho) ** 2 * 1e3), rel=1e-12)


def test_corollary3_bounds_with_the_proofs_constants():
    r = run("dame.corollary3_bounds")
    assert r.status == "holds"
    assert 0 < r.evidence["max_ratio_log_form"] < 1 and 0 < r.evidence["max_ratio_exp_form"] < 1
    assert r.evidence["step_equality_dev"] < 1e-20


def test_corollary3_first_step_counterexample_is_the_root_of_the_closed_form():
    r = run("dame.corollary3_first_step")
    assert r.status == "discrepancy"
    ce = r.evidence["smallest_counterexample"]
    assert ce["certified_above"] and ce["certified_below"] and ce["m_tilde"] == 2

    def gap(logx):  # ln(c4 sqrt(2x))/ln(c4 sqrt(x)) against (1 + rho(sqrt 2 - 1))^2, rho^2 = phi(2)(1 + 1e-6)
        x = mpmath.exp(logx)
        y = 2 * C4 * x
        rho = mpmath.sqrt(C5 / x * mpmath.log(y / mpmath.log(y)) * (1 + mpmath.mpf(10) ** -6))
        return mpmath.log(mpmath.log(C4 * mpmath.sqrt(2 * x)) / mpmath.log(C4 * mpmath.sqrt(x))) \
            - 2 * mpmath.log(1 + rho * (mpmath.sqrt(2) - 1))

    with mpmath.workdps(30):
        root = float(mpmath.exp(mpmath.findroot(gap, (mpmath.log(1e6), mpmath.log(1e7)), solver="bisect")))
    assert ce["n_alpha2_below"] <= root <= ce["n_alpha2"]
    assert ce["n_alpha2"] / ce["n_alpha2_below"] - 1 <= 1e-4
    assert 1.02 < r.evidence["max_ratio"] < 1.03
    assert run("dame.corollary3_first_step", factor=2).status == "holds"


def test_eq12_search_counterexample_is_the_smallest_atom():
    r = run("dame.eq12_search")
    assert r.status == "discrepancy" and r.evidence["scan_disagreements"] == 0
    ce = r.evidence["smallest_counterexample"]
    # at n alpha^2 = 1: a point law's printed m~ is its atom; the atom 2 stays within e and ceil(log2 2) = 1 < 2,
    # the atom 3 exceeds e and needs ceil(log2 3) = 2 = 2 ceil(1) iterations
    assert (ce["m"], ce["m_tilde"], ce["iterations"], ce["limit"]) == (3, 3, 2, 2)
    assert 2 < math.e < 3
    assert run("dame.eq12_search", reading="proof").status == "holds"


def test_table1_reduces_to_the_previous_works():
    r = run("dame.table1_rates")
    assert r.status == "holds"
    kent = [row for row in r.evidence["rows"] if row.get("source") == "Kent"]
    assert kent and all(row["previous_work"] == pytest.approx(1 / (row["m"] * row["n_alpha2"]), rel=1e-12)
                        for row in kent)
    duchi = [row for row in r.evidence["rows"] if row.get("source") == "Duchi"]
    assert duchi and all(row["eq13"] == pytest.approx(1 / row["n_alpha2"], rel=1e-12) for row in duchi)


def test_vote_privacy_ratio_is_alpha():
    r = run("dame.eq5_7_vote")
    assert r.status == "holds"
    for p in r.evidence["privacy"]:  # six coordinates differ at most, each with log-odds alpha/6
        assert p["max_log_ratio"] == pytest.approx(p["alpha"], rel=1e-12)
        assert p["keep"] == pytest.approx(math.exp(p["alpha"] / 6) / (1 + math.exp(p["alpha"] / 6)), rel=1e-12)


def test_unbiased_on_an_exact_population_and_the_official_denominator():
    r = run("dame.unbiased")
    assert r.status == "holds" and r.evidence["max_abs_error"] < 1e-8
    off = run("dame.unbiased", denominator="official")
    assert off.status == "fails"
    # M(1e3) = M(1e4) = 1/2, m~ = 1e4, theta = 0.4: the official denominator mean(min(m, 100)) = 100 against
    # E[sqrt(m ∧ m~)] = (sqrt(1000) + 100)/2, so the estimate is theta (sqrt(1000) + 100)/200 + s (the shrinkage
    # towards the bin's centre s, undone by the correction over the canonical denominator only)
    row = off.evidence["exact_population"][0]
    t = dame.tau(10**4, n_alpha2=1e4)
    s = -1 + 2 * t * row["bin"] + t
    den = (math.sqrt(1000) + 100) / 2
    corr = (100 - math.sqrt(1000)) / 2
    want = (100 * (den * 0.4 + (100 - den) * s) / 100 - corr * s) / 100
    assert row["estimate"] == pytest.approx(want, rel=1e-9)


def test_duchi_equivalence_repaired_by_the_closed_form():
    r = run("dame.duchi_equivalence")
    assert r.status == "discrepancy" and r.evidence["smallest_counterexample"]["value"].startswith("every point")
    # the closed-form ratio is above 1 at every n alpha^2: 2(1 + 392 tau^2/alpha^2)/coth^2(alpha/2) with tau >= sqrt(2 ln 8)
    assert 2 * (1 + 392 * 2 * math.log(8) / 0.25) / (1 / math.tanh(0.25)) ** 2 > 1
    assert run("dame.duchi_equivalence", **audit.CHECKS["dame.duchi_equivalence"].repairs[0][1]).status == "holds"


def test_new_rows_have_their_own_checks():
    for label, check in (("eq. (15)", "dame.eq15_lower"), ("Table 2", "dame.corollary3_regimes"),
                         ("Table 1", "dame.table1_rates"), ("Corollary 3 (proof, first step)", "dame.corollary3_first_step"),
                         ("eq. (12) (search)", "dame.eq12_search"), ("eq. (5)–(7)", "dame.eq5_7_vote")):
        assert check in audit.find(f"dame:{label}").checks
    rows = {r.label: r for r in audit.atlas(paper="dame", label="Corollary 3")}
    assert rows["Corollary 3"].status == "holds" and rows["Corollary 3"].domain.startswith("instances")


def test_minimal_counterexample_helper_bisects_the_closed_form():
    ce = dame_text.first_step_counterexample()
    assert ce["exists"] and 7.9e6 < ce["n_alpha2"] < 8.1e6
    assert np.isfinite(ce["log_ratio_at_counterexample"])


def test_mtilde_limit_stops_at_a_bounded_support():
    r = run("dame.mtilde_limit")
    assert r.status == "discrepancy" and r.evidence["m_tilde_over_n_alpha2_at_most_1"]
    # point(1): P(m >= 2) = 0 < phi(2) ∧ 1 at every n alpha^2, so m~ = 1: the first point law in the search
    assert r.evidence["smallest_counterexample"] == {"law": "point(1)", "m_tilde": [1] * 6}
    assert run("dame.mtilde_limit", limit="support").status == "holds"


def test_theorem2_value_scan_is_the_linear_scan():
    """The bisection inside each gap between atoms agrees with a plain scan of eq. (12) over every a."""
    atoms = {1: mpmath.mpf("0.2"), 3: mpmath.mpf("0.3"), 50: mpmath.mpf("0.5")}
    for x in (mpmath.mpf(10), mpmath.mpf(10) ** 3, mpmath.mpf(10) ** 5):
        linear = max(a for a in range(1, 52)
                     if sum(w for k, w in atoms.items() if k >= a) ** 2 >= min(dame_text._phi(a, x), 1))
        assert dame_text._m_tilde_scan(atoms, x, C5) == linear
    r = run("dame.theorem2_value")
    assert r.status == "holds" and r.evidence["m_tilde_mismatches"] == 0


def test_homogeneous_case_sign_slip_and_its_repair():
    r = run("dame.homogeneous_case")
    assert r.status == "discrepancy" and r.evidence["lower_over_exp_c2_spread_decades"] > 1e3
    assert 0 < r.evidence["max_upper_over_8c3_exp"] < 1
    row = next(w for w in r.evidence["rows"] if w["m"] == 1000 and w["n_alpha2"] == 1e6)
    # phi(1000) at n alpha^2 = 1e6 is about 0.017: m~ = 1000, UB = c3 ln(8 sqrt(1e9))/1e9, LB = c1/1e9
    assert row["phi_m"] < 1
    assert row["upper"] / row["lower"] == pytest.approx(1570 / float(C1) * math.log(8 * math.sqrt(1e9)), rel=1e-9)
    assert r.evidence["smallest_counterexample"]["value"].startswith("not parametrised")
    assert run("dame.homogeneous_case", lower="a in {0, m}").evidence["smallest_counterexample"] == {}


def test_appendix_vote_and_s145_slacks():
    # (S67): 1 - 4e with e = 1/(8K), K >= 1, is smallest at K = 1: exactly 1/2, the printed factor
    from fractions import Fraction
    r = run("dame.s61_s67_votes")
    assert Fraction(r.evidence["slack"]["tightest_constant"]) == 1 - Fraction(4, 8)
    assert "no constant to tighten" in run("dame.s145_identity").evidence["slack"]["note"]
