"""Tests of bounds.audit: every status is computed, so a wrong formula changes it."""

import math

import numpy as np
import pytest
import sympy as sp
from scipy import special

from bounds import audit, cli, dame, rameshwar, sizes


def status(cid, **kw):
    return audit.CHECKS[cid].fn(**kw).status


def test_registry_has_the_required_checks():
    required = {
        "dame.lemma_s2", "dame.lemma_s6", "dame.tau_condition", "dame.constants", "dame.lemma_s3", "dame.ub_ge_lb",
        "dame.eq11_denominator", "dame.mtilde_definition", "dame.enlarged_interval", "dame.figure_constants",
        "dame.unbiased", "dame.fig1b_adaptation", "kent.lower_bound_quote", "kent.lemma16", "cummings.lemma_2_1",
        "cummings.eq5_laplace_variance", "cummings.cor_5_5_min", "cummings.example1_scalings",
        "rameshwar.theorem_iii_1", "rameshwar.eq12", "rameshwar.monotone_eopt", "rameshwar.akmv_rank",
    }
    assert required <= set(audit.CHECKS)


def test_lemma_s2_proof_and_a_false_constant():
    r = audit.CHECKS["dame.lemma_s2"].fn()
    assert r.status == "holds" and r.evidence["failing_box"] is None
    assert status("dame.lemma_s2", constant=2) == "fails"  # ln(3)/0.5 = 2.197 > 2
    # a constant between the ratio's values at the ends (2.007 near 0.1, 2.197 at 1/2): the whole interval's
    # enclosure straddles 0, so only a proof that reads each box's lower end refuses it
    assert 2 + (2 / 3) * 0.01 / 0.99 < 2.1 < math.log(3) / 0.5
    assert status("dame.lemma_s2", constant=2.1) == "fails"


def test_lemma_s6_enclosure_and_a_false_constant():
    r = audit.CHECKS["dame.lemma_s6"].fn()
    lo, hi = r.evidence["supremum_at_1"]
    assert r.status == "holds" and lo <= 4 / math.tanh(1 / 12) ** 2 <= hi < 579 and r.evidence["limit_at_0"] == 576
    assert status("dame.lemma_s6", constant=578) == "fails"


def test_tau_condition_and_a_wrong_tau():
    assert status("dame.tau_condition") == "holds"
    assert status("dame.tau_condition", log_factor=sp.log(2)) == "fails"  # τ with 2 instead of 8


def test_constants_from_the_proofs():
    assert status("dame.constants") == "holds"
    assert status("dame.constants", preset=dame.Constants(sp.exp(-9) / 16, 24, 1569, 8, 868.5)) == "fails"


def test_debiasing_identity_and_a_dropped_correction():
    assert status("dame.lemma_s3") == "holds"
    assert status("dame.lemma_s3", correction=lambda pts, masses, mt: 0) == "fails"


@pytest.mark.slow
def test_ub_ge_lb_finds_the_theorem_1_2_contradiction_and_the_proof_reading_repairs_it():
    r = audit.CHECKS["dame.ub_ge_lb"].fn()
    assert r.status == "discrepancy" and all(v["phi_above_1"] for v in r.evidence["counterexamples"])
    # the point: sizes.point(10**12) at n alpha^2 = 0.01, UB 2.13e-6 < LB 6.07e-6 (Theorem 2 vs Theorem 1)
    hit = [v for v in r.evidence["counterexamples"] if v["law"] == "point(m=1000000000000)" and math.isclose(v["n_alpha2"], 0.01)]
    assert hit and hit[0]["upper"] < 2.2e-6 < 6e-6 < hit[0]["lower"]
    assert status("dame.ub_ge_lb", reading="proof") == "holds"


def test_minimal_point_counterexample_is_pinned():
    # independent recomputation: for point(m) with m~ = m, UB = c3 ln(c4 sqrt(m x)) / (x m), LB >= c1 exp(-c2 x)
    from bounds.audit.dame import minimal_point_counterexample
    ce = minimal_point_counterexample()
    m, x = ce["m"], ce["n_alpha2"]
    ub = 1570 * math.log(8 * math.sqrt(m * x)) / (x * m)
    assert ub < math.exp(-9) / 16 * math.exp(-24 * x)
    assert 1.7e11 < m < 1.9e11 and ce["confirmed"] and ce["smaller_atom_never_below"] == "holds"
    assert dame.m_tilde(sizes.point(m), n_alpha2=x) == m and dame.m_tilde(sizes.point(m), n_alpha2=x, reading="proof") == 1


def test_ub_ge_lb_and_constants_that_break_it():
    tiny_ub = dame.Constants(sp.exp(-9) / 16, 24, sp.Rational(1, 10**9), 8, 868.5)
    r = audit.CHECKS["dame.ub_ge_lb"].fn(constants=tiny_ub)
    assert r.status == "fails" and r.evidence["counterexamples"]


@pytest.mark.slow
def test_dame_discrepancies_are_computed():
    assert status("dame.eq11_denominator") == "discrepancy"
    assert status("dame.eq11_denominator", m_tilde=1) == "holds"  # at m̃ = 1 both denominators are 1
    r = audit.CHECKS["dame.mtilde_definition"].fn()
    assert r.status == "discrepancy"
    assert any(row["m_tilde_theorem2"] != row["m_tilde_appendix"] for row in r.evidence["rows"])
    assert status("dame.enlarged_interval") == "discrepancy"
    assert status("dame.enlarged_interval", proof_halfwidth=7) == "holds"
    assert status("dame.figure_constants") == "discrepancy"
    assert status("dame.figure_constants", constants="unit") == "holds"


def test_dame_unbiasedness_by_monte_carlo():
    r = audit.CHECKS["dame.unbiased"].fn(reps=192, thorough=True)
    bias, se = r.evidence["official_bias"]
    assert abs(bias) > 4 * se
    assert r.status in ("holds", "inconclusive")


def test_kent_checks():
    assert status("kent.lower_bound_quote") == "discrepancy"
    assert status("kent.lemma16") == "holds"
    assert status("kent.lemma16", keep=lambda a, k: float(special.expit(a / k))) == "fails"  # e^{α/k}: 2α


def test_cummings_checks():
    assert status("cummings.lemma_2_1") == "holds"
    p, s2, k = sp.symbols("p sigma_p2 k", positive=True)
    assert status("cummings.lemma_2_1", formula=(p - p**2) / k + s2) == "fails"
    r = audit.CHECKS["cummings.eq5_laplace_variance"].fn(reps=4000)
    assert r.status == "discrepancy"
    assert status("cummings.cor_5_5_min") == "discrepancy"
    r = audit.CHECKS["cummings.example1_scalings"].fn(thorough=True)
    assert r.status == "discrepancy" and r.evidence["n"] == [2**10, 2**40]
    verdicts = {row["quantity"]: row["verdict"] for row in r.evidence["rows"]}
    assert verdicts == {"nonprivate_sd": "consistent", "naive_privacy_error": "consistent",
                        "truncation_privacy_error": "log-factor drift", "uniform_sd": "consistent"}
    trunc = next(row for row in r.evidence["rows"] if row["quantity"] == "truncation_privacy_error")
    assert -0.7 < trunc["log_exponent"] < -0.45 and trunc["ratio_at_2^40"] < 0.5 * trunc["ratio_at_2^10"]
    # the fitted rate, 1/(ε √n log n), as the claim: the ratio converges
    fitted = {"truncation_privacy_error": (lambda n: 1 / (np.sqrt(n) * np.log(n)), "theta")}
    assert status("cummings.example1_scalings", claims=fitted) == "holds"
    wrong = {"nonprivate_sd": (lambda n: 1 / n, "theta")}
    assert status("cummings.example1_scalings", claims=wrong) == "fails"


@pytest.mark.slow
def test_fig1b_adaptation_holds_only_at_the_official_script_setting():
    r = audit.CHECKS["dame.fig1b_adaptation"].fn(thorough=True)
    assert r.status == "discrepancy"
    assert r.evidence["smallest_counterexample"]["value"].startswith("not parametrised")
    verdicts = {(s["setting"], s["preset"]): s["verdict"] for s in r.evidence["summary"]}
    assert verdicts == {("text", "paper"): "fails", ("text", "unit"): "fails",
                        ("script", "paper"): "holds", ("script", "unit"): "fails"}
    adaptive = {(s["setting"], s["preset"]): s["adaptive_rhos"] for s in r.evidence["summary"]}
    assert adaptive["text", "paper"] == [] and adaptive["script", "paper"] == pytest.approx([7 / 9, 8 / 9])
    # with unit constants at the text's setting localisation collapses at ρ = 1/9 .. 1/3
    small = [row for row in r.evidence["rows"] if row["setting"] == "text" and row["rho"] < 0.4]
    assert small and all(row["mse_dame"] > 100 * row["mse_dame_min_m"] and row["z_gain"] < -4 for row in small)
    # at ρ = 0 DAME's lead over Kent's procedure is the ratio of their τ², not adaptation
    for lead in r.evidence["lead_at_rho_0"]:
        assert 1.6 < lead["tau2_ratio"] < 1.7 and abs(lead["lead"] - lead["tau2_ratio"]) < 4 * lead["lead_stderr"]


def test_fig1b_adaptation_fails_when_m_tilde_never_adapts():
    never = lambda law, n, alpha, constants: law.support_min  # noqa: E731
    r = audit.CHECKS["dame.fig1b_adaptation"].fn(m_tilde=never)
    assert r.status == "fails" and r.evidence["rows"] == [] and r.evidence["smallest_counterexample"] == {}


def test_rameshwar_checks():
    assert status("rameshwar.theorem_iii_1") == "holds"
    printed = lambda m, U, e: rameshwar.eq12_as_printed(m, U=U, eps=e)  # noqa: E731
    assert status("rameshwar.theorem_iii_1", rule=printed) == "fails"
    assert status("rameshwar.eq12") == "discrepancy"
    assert status("rameshwar.monotone_eopt") == "holds"
    assert status("rameshwar.monotone_eopt", error=lambda m, U, e: e) == "fails"
    assert status("rameshwar.akmv_rank") == "discrepancy"
    assert status("rameshwar.lemma_iii_1_bias") == "discrepancy"


def test_report_and_command(tmp_path, capsys):
    results = audit.run(["dame.constants", "rameshwar.eq12"])
    text = audit.report(results)
    assert "## `rameshwar.eq12` — discrepancy" in text and "| eps |" in text
    path = tmp_path / "audit.md"
    assert cli.main(["check", "--only", "dame.constants", "kent.lemma16", "--report", str(path)]) == 0
    assert "2 holds" in capsys.readouterr().out and path.read_text().startswith("# Audit")
    assert cli.main(["check", "--only", "no.such"]) == 2
    with pytest.raises(ValueError, match="unknown check"):
        audit.run(["no.such"])


def test_ub_ge_lb_reports_its_smallest_counterexample_by_atom():
    # independent: for point(m), log UB - log LB(a = 0) = log(c3 ln(c4 sqrt(m x))/(x m)) - log c1 + c2 x, minimised
    # over x where its x-derivative vanishes; the threshold atom m has a negative minimum and m - 1 a positive one
    ce = audit.CHECKS["dame.ub_ge_lb"].fn().evidence["smallest_counterexample"]
    assert ce["order"].startswith("smallest atom m of a point law")
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workdps(40):
        c1, c2, c3, c4 = mpmath.exp(-9) / 16, 24, 1570, 8

        def gap_min(m):
            f = lambda x: mpmath.log(c3 * mpmath.log(c4 * mpmath.sqrt(m * x)) / (x * m)) - mpmath.log(c1) + c2 * x  # noqa: E731
            x = mpmath.findroot(lambda x: mpmath.diff(f, x), 0.04)
            return f(x)

        assert gap_min(ce["value"]) < 0 < gap_min(ce["value"] - 1)


def test_eq11_and_mtilde_definition_smallest_counterexamples():
    # eq. (11): Poisson(2) truncated at 0, exact sums of the two denominators; at m~ = 1 both are 1
    from scipy import stats
    ks = np.arange(1, 200)
    pmf = stats.poisson.pmf(ks, 2.0) / (1 - math.exp(-2.0))
    ce = audit.CHECKS["dame.eq11_denominator"].fn().evidence["smallest_counterexample"]
    assert ce["value"] == 2
    assert ce["E[sqrt(m ∧ m̃)]"] == pytest.approx(float(np.sum(pmf * np.sqrt(np.minimum(ks, 2)))), rel=1e-9)
    assert ce["E(sqrt(m) ∧ m̃)"] == pytest.approx(float(np.sum(pmf * np.minimum(np.sqrt(ks), 2))), rel=1e-9)
    assert audit.CHECKS["dame.eq11_denominator"].fn(printed=lambda law, mt: float(law.sqrt_min_mean(mt))).evidence[
        "smallest_counterexample"] == {}

    # m~ by both conditions (Theorem 2: P^2 >= phi ∧ 1; the appendix: P >= phi ∧ 1), phi transcribed from eq. (12)
    def m_tilde(surv, x, power):
        best = 0
        for a in range(1, 3000):
            y = 8 * max(a * x, 1)
            phi = 868.5 / x * (math.log(y) - math.log(math.log(y)))
            if surv(a) ** power >= min(phi, 1.0):
                best = a
        return best

    laws = [("two-point", lambda a: 1.0 if a <= 1 else 0.5 if a <= 10**4 else 0.0),
            ("geometric", lambda a: 0.99 ** (a - 1))]
    first = next((name, x, m_tilde(s, x, 2), m_tilde(s, x, 1)) for name, s in laws for x in (1e4, 1e6)
                 if m_tilde(s, x, 2) != m_tilde(s, x, 1))
    got = audit.CHECKS["dame.mtilde_definition"].fn().evidence["smallest_counterexample"]["value"]
    assert first == ("geometric", 1e4, got["m_tilde_theorem2"], got["m_tilde_appendix"])
    assert got["law"].startswith("geometric") and got["n_alpha2"] == 1e4


def test_unparametrised_discrepancies_say_so():
    for cid, start in (("dame.enlarged_interval", "every point"), ("dame.figure_constants", "not parametrised")):
        assert audit.CHECKS[cid].fn().evidence["smallest_counterexample"]["value"].startswith(start)
    assert audit.CHECKS["dame.enlarged_interval"].fn(proof_halfwidth=7).evidence["smallest_counterexample"] == {}
    assert audit.CHECKS["dame.figure_constants"].fn(constants="unit").evidence["smallest_counterexample"] == {}


def test_constants_and_lemma_s3_are_identities_without_slack():
    for cid in ("dame.constants", "dame.lemma_s3"):
        assert "no constant to tighten" in audit.CHECKS[cid].fn().evidence["slack"]["note"]


def test_report_tabulates_evidence_rows_with_different_keys():
    r = audit.AuditResult("x.y", "a source", "a claim", "exact", "holds",
                          {"rows": [{"a": 1, "b": 2}, {"a": 3, "c": 4}]})
    text = audit.report([r])
    assert "| a | b | c |" in text and "| 1 | 2 |  |" in text and "| 3 |  | 4 |" in text
