"""The Kent, Berrett and Yu (2024) checks of the atlas: they read the package's objects, hold on the paper's
statements, see a change of the implementation, and their slacks and counterexamples are pinned by values computed
here independently."""

import math
from fractions import Fraction

import mpmath as mp
import pytest

from bounds import audit, kent
from bounds.audit import kent as kent_checks
from bounds.audit import kent_equations

KENT = sorted(c for c in audit.CHECKS if c.startswith("kent."))
REFUTING = {"kent.lower_bound_quote"}


@pytest.mark.parametrize("cid", [c for c in KENT if c not in REFUTING])
def test_every_kent_check_holds_on_the_papers_statement(cid):
    assert audit.CHECKS[cid].fn().status == "holds"


def test_every_kent_check_declares_a_fault_or_a_repair_and_a_domain():
    for cid in KENT:
        c = audit.CHECKS[cid]
        assert c.faults or c.repairs, cid
        assert c.domain.startswith(("proved", "instances")), cid


def test_dame_quote_smallest_counterexample_is_n_1_T_1():
    # by hand at n = T = 1, alpha = 1/2: n alpha^2 = 1/4; Kent: max(min(1, 1/(1/4)), e^{-1/4}) = 1;
    # the quote: min(e^{-1/4}, 1/(1/4)) = e^{-1/4}
    r = audit.CHECKS["kent.lower_bound_quote"].fn()
    ce = r.evidence["smallest_counterexample"]
    assert r.status == "discrepancy" and (ce["n"], ce["T"]) == (1, 1)
    assert ce["kent_vee"] == 1.0 and math.isclose(ce["dame_quote"], math.exp(-0.25), rel_tol=1e-12)
    assert audit.CHECKS["kent.lower_bound_quote"].fn(combine="max").status == "holds"


def test_theorem1_check_against_the_closed_form_optimum_for_the_interval():
    # [-1, 1] (d = 1): log N = t (t = -log delta), A = c0 n alpha^2 + log 2 (c0 = 3/2 in the check);
    # (delta/2)^2 (1 - A/t) is maximal where
    # 2t^2 - 2At - A = 0, i.e. t* = (A + sqrt(A^2 + 2A))/2 (the stationarity of e^{-2t}(1 - A/t)/4)
    r = audit.CHECKS["kent.theorem1_eq8"].fn()
    for row in r.evidence["rows"]:
        if row["covering"] == "cube" and row["d"] == 1:
            A = 1.5 * row["n_alpha2"] + math.log(2)
            t = (A + math.sqrt(A * A + 2 * A)) / 2
            want = math.exp(-2 * t) / 4 * (1 - A / t)
            assert math.isclose(row["paper_lower"], want, rel_tol=1e-10)
            assert math.isclose(row["package_lower"], want, rel_tol=1e-7)


def test_theorem1_check_sees_a_broken_covering_number(monkeypatch):
    real = kent.covering

    def wrong(problem, **kw):  # the cube's covering without its sqrt(d)
        f = real(problem, **kw)
        if problem == "mean" and kw.get("ball", "linf") == "linf" and kw.get("d", 1) > 1:
            return lambda delta: f(delta * math.sqrt(kw["d"]))
        return f

    monkeypatch.setattr(kent, "covering", wrong)
    assert audit.CHECKS["kent.theorem1_eq8"].fn().status == "fails"


def test_rate_checks_see_min_for_max_and_a_dropped_log(monkeypatch):
    from bounds.kent import _rates

    real = _rates._numeric

    def min_lower(problem, ball):
        f = dict(real(problem, ball))
        poly, expo = f["poly"], f["exp"]
        f["lower"] = lambda *a: a[6] * min(poly(*a), expo(*a))
        return f

    monkeypatch.setattr(_rates, "_numeric", min_lower)
    for cid in ("kent.theorem6_mean", "kent.theorem8_sparse", "kent.theorem9_density"):
        assert audit.CHECKS[cid].fn().status == "fails", cid
    monkeypatch.setattr(_rates, "_Ln", lambda u: 1.0 + 0 * u)  # log(e v .) dropped
    monkeypatch.setattr(_rates, "_numeric", real)
    real.cache_clear()
    try:
        for cid in ("kent.theorem6_mean", "kent.theorem8_sparse", "kent.theorem9_density"):
            assert audit.CHECKS[cid].fn().status == "fails", cid
    finally:
        monkeypatch.undo()
        real.cache_clear()
    assert audit.CHECKS["kent.theorem6_mean"].fn().status == "holds"


def test_covering_cube_slack_is_the_stirling_limit():
    # r_d = (2^d Gamma(d/2 + 1) / pi^{d/2})^{1/d} / sqrt(d) decreases to 2 / sqrt(2 pi e)
    r = audit.CHECKS["kent.covering_cube"].fn()
    limit = 2 / math.sqrt(2 * math.pi * math.e)
    r200 = math.exp((200 * math.log(2) + math.lgamma(101) - 100 * math.log(math.pi)) / 200) / math.sqrt(200)
    assert math.isclose(r.evidence["slack"]["limit"], limit, rel_tol=1e-12)
    assert math.isclose(r.evidence["slack"]["tightest_constant_on_d_le_200"], r200, rel_tol=1e-10)
    assert r.evidence["slack"]["at_d"] == 200


def test_binomial_slacks_and_the_first_failures_of_the_planted_faults():
    up = audit.CHECKS["kent.covering_sparse_upper"].fn()
    assert math.isclose(up.evidence["slack"]["max_binomial_over_bound"], math.exp(-1), rel_tol=1e-12)  # s = 1: d/(ed)
    # C(d, s) <= (d/s)^s first fails at d = 3, s = 2: 3 > 9/4 (d = 1, 2 hold: 1, 2 <= 2, 1 <= 1)
    assert audit.CHECKS["kent.covering_sparse_upper"].fn(e_factor=False).evidence["first_failure_d_s"] == (3, 2)
    # C(d, s) >= (e d/s)^s fails already at d = s = 1: 1 < e
    assert audit.CHECKS["kent.lemma18"].fn(e_factor=True).evidence["first_failure_d_s"] == (1, 1)


def test_proof_step_slacks_enclose_their_suprema():
    s52 = audit.CHECKS["kent.eq52_mutual_information"].fn().evidence["slack"]["tightest_constant_in"]
    assert s52[0] <= 4 * (math.e - 1) ** 2 <= s52[1] and s52[1] - s52[0] < 2e-3
    s54 = audit.CHECKS["kent.eq54_vote_margin"].fn().evidence["slack"]["tightest_constant_in"]
    assert s54[0] <= math.tanh(0.25) <= s54[1] and s54[1] - s54[0] < 1e-3
    h = lambda u: (mp.log(u) + u) * mp.exp(-u / 2) / u  # noqa: E731
    u_star = mp.findroot(lambda u: mp.diff(h, u), 1.2)
    s80 = audit.CHECKS["kent.eq80_cases"].fn().evidence["slack"]["tightest_constant_in"]
    assert s80[0] <= float(h(u_star)) <= s80[1]
    assert 1.19 < float(u_star) < 1.2


def test_eq54_margin_is_the_vote_probability():
    # 2 pi - 1 with pi = e^{a/2}/(1 + e^{a/2}) is tanh(a/4): at a = 1 by hand
    p = math.exp(0.5) / (1 + math.exp(0.5))
    assert math.isclose(2 * p - 1, math.tanh(0.25), rel_tol=1e-12)
    assert audit.CHECKS["kent.eq54_vote_margin"].fn(constant=Fraction(1, 4)).status == "fails"


def test_hoeffding_check_reads_the_estimators_tau(monkeypatch):
    real = kent.estimator_cap
    monkeypatch.setattr(kent, "estimator_cap", lambda **kw: (real(**kw)[0], real(**kw)[1] * 1.01))
    assert audit.CHECKS["kent.eq70_hoeffding"].fn().status == "fails"


def test_tables_read_the_package(monkeypatch):
    real = kent.comparison_table

    def swapped(problem, ball="linf"):
        t = dict(real(problem, ball))
        if problem == "density":
            t["non-private"] = t["local item-level"]
        return t

    monkeypatch.setattr(kent, "comparison_table", swapped)
    assert audit.CHECKS["kent.table4"].fn().status == "fails"


def test_kent_rows_rest_on_their_own_checks():
    rows = audit.atlas(paper="kent")
    assert not any("kent.rates_consistent" in r.checks for r in rows)
    by = {r.label: r for r in rows}
    for label, cid in (("Theorem 1", "kent.theorem1_eq8"), ("Lemma 17", "kent.lemma17"), ("Lemma 18", "kent.lemma18"),
                       ("Proposition 3", "kent.proposition3"), ("Proposition 4", "kent.proposition4"),
                       ("Proposition 5", "kent.proposition5"), ("Theorem 8", "kent.theorem8_sparse"),
                       ("Theorem 9", "kent.theorem9_density"), ("Table 2", "kent.table2"),
                       ("Example 1", "kent.example1"), ("Lemma 7", "kent.lemma7_rotation")):
        assert by[label].checks == (cid,) and by[label].status == "holds", label
    for label in ("eq. (52)", "eq. (57)", "eq. (60)", "eq. (63)", "eq. (64)", "eq. (70)", "eq. (75)", "eq. (80)", "eq. (129)",
                  "Table 3", "Table 4"):
        assert label in by
    for r in rows:
        if r.kind in ("checkable", "order"):
            assert r.confidence in ("V", "S", "R") and r.method and r.domain, r.label
            assert r.status in ("holds", "partial"), r.label
        if r.kind == "structural":
            assert r.reason, r.label
    eqs = [r for r in rows if r.label.startswith("eq. (")]
    assert len(eqs) >= 68


def test_kent_checks_stay_within_their_cpu_budget():
    import time

    audit.CHECKS["kent.theorem1_eq8"].fn()  # imports (scipy, mpmath, sympy) outside the measure
    start = time.process_time()
    for cid in KENT:
        audit.CHECKS[cid].fn()
    assert time.process_time() - start < 4.0  # 2 s on an idle machine; room for a shared one


def test_transcriptions_are_written_in_the_audit_modules():
    # the independent forms live in the audit modules, not in bounds.kent
    assert kent_checks._eq8_paper.__module__ == "bounds.audit.kent"
    assert kent_checks._theorem8_paper.__module__ == "bounds.audit.kent"
    assert kent_equations._binomial_ratio_scan.__module__ == "bounds.audit.kent_equations"


def test_cutoff_check_reads_the_estimator(monkeypatch):
    from bounds.estimators import kent as kent_estimators

    # by hand: n = 1000, T = 10^6, alpha = 1, beta = 1, C = 1: min(10^{9/4} = 177.8, 1000/log 1000 = 144.76) -> 143
    assert kent_estimators.density_cutoff(n=1000, T=10**6, alpha=1.0, beta=1.0) == 143
    real = kent_estimators.density_cutoff
    monkeypatch.setattr(kent_estimators, "density_cutoff", lambda **kw: real(**kw) + 2)
    assert audit.CHECKS["kent.theorem9_cutoff"].fn().status == "fails"


def test_refinement_check_reads_the_window_and_the_laplace_scale(monkeypatch):
    from bounds.estimators import kent as kent_estimators

    monkeypatch.setattr(kent_estimators, "laplace_scale", lambda tau, alpha: 12 * tau / alpha)
    assert audit.CHECKS["kent.eq75_refinement"].fn().status == "fails"
    monkeypatch.undo()
    real = kent_estimators.interval
    monkeypatch.setattr(kent_estimators, "interval", lambda j, tau: (real(j, tau)[0] - tau, real(j, tau)[1]))
    assert audit.CHECKS["kent.eq75_refinement"].fn().status == "fails"


def test_lemma7_check_reads_the_rotation_and_counts_exactly(monkeypatch):
    from bounds.estimators import kent as kent_estimators

    # d = 4, v = (1, 1, 1, 1)/2: U v = H D v / 2 has sup-norm 1 for D = +-(1, 1, 1, 1) and for the 6 sign vectors
    # with two minus signs (H's rows are the 4 Walsh vectors); by hand, P(||Uv|| >= 1) = (2 + 6)/16 = 1/2
    import numpy as np

    signs = np.array([[1.0 if (i >> k) & 1 else -1.0 for k in range(4)] for i in range(16)])
    top = np.abs(kent_estimators.rotate(np.full((16, 4), 0.5), signs)).max(axis=1)
    assert np.isclose(top, 1.0).sum() == 8 and np.isclose(top, 0.5).sum() == 8
    rows = audit.CHECKS["kent.lemma7_rotation"].fn().evidence["rows"]
    assert all(Fraction(r["probability"]) <= Fraction(r["beta"]) for r in rows)
    real = kent_estimators.rotate
    monkeypatch.setattr(kent_estimators, "rotate", lambda x, s: real(x, s) * 1.001)
    assert audit.CHECKS["kent.lemma7_rotation"].fn().status == "fails"


def test_covering_and_bumps_are_identities_without_slack():
    for cid in ("kent.covering_ball", "kent.eq126_bumps"):
        r = audit.CHECKS[cid].fn()
        assert r.status == "holds" and "no constant to tighten" in r.evidence["slack"]["note"]
