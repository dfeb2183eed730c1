"""Sweeps and searches of eps in the central-model calculators (``bounds cummings``, ``bounds rameshwar``).

Reference values come from direct calls of the library (``bounds.cummings``, ``bounds.rameshwar``),
not through the command line; the LP column is checked against the closed form E_OPT.
"""

import csv
import io
import json
import math
from fractions import Fraction

import numpy as np
import pytest

from bounds import cli, cummings, rameshwar

K = [100, 50, 20, 5, 1]
K_ARG = ["--k", ",".join(map(str, K))]


def _json(capsys, argv):
    assert cli.main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _csv(capsys, argv):
    assert cli.main([*argv, "--csv"]) == 0
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))


def _cummings(eps, sigma_p2=0.01):
    """T*, Var(ideal) at T* (printed and exact Laplace) and Corollary 5.5 at ``eps``, from the library."""
    s2 = cummings.user_variance(K, p=0.5, sigma_p2=sigma_p2)
    widths = 2 * cummings.concentration(K, p=0.5, sigma_p2=sigma_p2, beta=0.05)
    t = cummings.optimal_truncation(s2, widths, eps=eps)
    exact = cummings.ideal_variance(s2, widths, eps=eps, T=t.T, laplace="exact")
    return {"T_star": t.T, "variance": t.variance, "variance_exact": exact,
            "lower": cummings.lower_bound(K, eps=eps, sigma_p2=sigma_p2)}


# =========================================================================== cummings


def test_cummings_sweep_csv_equals_the_library(capsys):
    rows = _csv(capsys, ["cummings", *K_ARG, "--sigma-p2", "0.1", "--sweep", "eps=1e-3:1e3:13"])
    assert [float(r["eps"]) for r in rows] == pytest.approx(np.geomspace(1e-3, 1e3, 13), rel=1e-9)
    for r in rows:
        ref = _cummings(float(r["eps"]), sigma_p2=0.1)
        assert float(r["T_star"]) == pytest.approx(ref["T_star"], rel=1e-9)
        assert float(r["variance_mse"]) == pytest.approx(ref["variance"], rel=1e-9)
        assert float(r["variance_exact_mse"]) == pytest.approx(ref["variance_exact"], rel=1e-9)
        assert float(r["cummings_lower_rate_variance"]) == pytest.approx(ref["lower"].value, rel=1e-9)
        assert int(r["k_star"]) == ref["lower"].k_star
    assert {int(r["k_star"]) for r in rows} == {50, 100}  # k* moves with eps on this grid


def test_cummings_sweep_text_says_what_each_number_is(capsys):
    assert cli.main(["cummings", *K_ARG, "--sweep", "eps=0.1:10:3"]) == 0
    out = capsys.readouterr().out
    assert "MSE at T*, eq. (5) as printed" in out and "exact 2b^2" in out and "a lower rate of the variance" in out


@pytest.mark.parametrize("target, sigma_p2", [("variance<1e-2", 0.01), ("variance_exact<2e-2", 0.01),
                                              ("lower<1e-2", 0.1)])
def test_cummings_solved_eps_meets_the_target_and_just_below_does_not(capsys, target, sigma_p2):
    quantity, goal = target.split("<")[0], float(target.split("<")[1])
    out = _json(capsys, ["cummings", *K_ARG, "--sigma-p2", str(sigma_p2), "--solve", "eps", "--target", target,
                         "--json"])
    eps = out["answer"]
    assert eps is not None and not out["holds_at_low_end"] and out["fails_again_at"] is None
    assert float(f"{eps:.4g}") == eps  # printed with 4 significant digits

    def value(e):
        ref = _cummings(e, sigma_p2=sigma_p2)
        return ref["lower"].value if quantity == "lower" else ref[quantity]

    assert value(eps) < goal
    assert value(eps * (1 - 2e-3)) >= goal  # one step of the 4th digit below: not met


def test_cummings_search_skips_levels_where_eq6_overflows(capsys):
    argv = ["cummings", *K_ARG, "--solve", "eps", "--target", "variance<1e-2", "--json"]
    default = _json(capsys, argv)["answer"]
    assert _json(capsys, [*argv, "--range", "1e-200:10"])["answer"] == default == pytest.approx(3.169)


def test_cummings_unreachable_variance_names_the_non_private_floor(capsys):
    assert cli.main(["cummings", *K_ARG, "--solve", "eps", "--target", "variance<1e-3"]) == 0
    out = capsys.readouterr().out
    s2 = cummings.user_variance(K, p=0.5, sigma_p2=0.01)
    assert "answer        none" in out and f"{1 / np.sum(1 / s2):.6g}" in out


# =========================================================================== rameshwar


def test_rameshwar_sweep_csv_equals_the_library(capsys):
    rows = _csv(capsys, ["rameshwar", "--collection", "geometric:6", "--sweep", "eps=0.01:100:5", "--lp"])
    assert [float(r["eps"]) for r in rows] == [0.01, 0.1, 1.0, 10.0, 100.0]  # exact: eps = 1 has rank 2, not 3
    assert [int(r["rank"]) for r in rows] == [200, 20, 2, 1, 1]
    m = rameshwar.geometric(6)
    for r in rows:
        eps = float(r["eps"])
        assert float(r["T_eps"]) == rameshwar.threshold(m, U=65, eps=eps)
        e_opt = rameshwar.optimal_error(m, U=65, eps=eps)
        assert float(r["E_OPT_worst_abs_error"]) == pytest.approx(e_opt, rel=1e-9)
        assert float(r["eq12_as_printed"]) == pytest.approx(rameshwar.eq12_as_printed(m, U=65, eps=eps), rel=1e-9)
        assert float(r["LP_worst_abs_error"]) == pytest.approx(rameshwar.lp_optimum(m, U=65, eps=eps).value, rel=1e-9)
        assert float(r["LP_worst_abs_error"]) == pytest.approx(e_opt, rel=1e-8)  # Theorem III.1 against the LP


def test_rameshwar_sweep_leaves_the_lp_out_for_large_collections(capsys):
    out = _json(capsys, ["rameshwar", "--collection", "geometric:8", "--sweep", "eps=0.1:1:2", "--lp", "--json"])
    assert out["lp_included"] is False and "LP_worst_abs_error" not in out["rows"][0]
    assert cli.main(["rameshwar", "--collection", "geometric:8", "--sweep", "eps=0.1:1:2", "--lp"]) == 0
    assert "the LP optimum is left out: L = 511 users > 200" in capsys.readouterr().out
    out = _json(capsys, ["rameshwar", "--collection", "geometric:6", "--sweep", "eps=0.1:1:2", "--json"])
    assert out["lp_included"] is False and "LP_worst_abs_error" not in out["rows"][0]  # no --lp: no programme


@pytest.mark.parametrize("collection, goal", [("geometric:6", 5.0), ("extreme:50,20", 2.0), ("counts:3,1,2,7", 1.0)])
def test_rameshwar_solved_eps_meets_the_target_and_is_the_first_crossing(capsys, collection, goal):
    out = _json(capsys, ["rameshwar", "--collection", collection, "--solve", "eps", "--target", f"error<{goal}",
                         "--json"])
    eps = out["answer"]
    m = np.asarray(out["counts"], dtype=object)
    assert eps is not None and out["fails_again_at"] is None and not out["holds_at_low_end"]
    assert rameshwar.optimal_error(m, U=65, eps=eps, exact=True) < goal
    assert rameshwar.optimal_error(m, U=65, eps=eps * (1 - 2e-3), exact=True) >= goal
    low = _first_eps_below(out["counts"], 65, goal)
    assert low <= eps <= low * (1 + 1e-3)  # the exact threshold, rounded up to 4 significant digits


def _first_eps_below(counts, U, goal):
    """The infimum of the eps with E_OPT(eps) < goal, piece by piece in the rank r = ceil(2/eps).

    On the piece 2/r <= eps < 2/(r - 1), T = U·(r-th largest m) (0 for r > L), and
    E_OPT = (B + S/eps)/N with B = sum max((U m - T)/2, 0), S = max min(T, U m), N = sum m
    (Lemma III.1 at Theorem III.1's clipping), so E_OPT < goal from eps > S/(N goal - B) on.
    """
    ordered, N, goal = sorted(counts, reverse=True), sum(counts), Fraction(goal)
    best = None
    for r in range(1, len(counts) + 2):
        T = U * ordered[r - 1] if r <= len(counts) else 0
        B = sum(max(Fraction(U * k - T, 2), 0) for k in counts)
        S = max(min(T, U * k) for k in counts)
        lo, hi = (Fraction(2, r) if r <= len(counts) else Fraction(0)), (Fraction(2, r - 1) if r > 1 else None)
        if N * goal - B <= 0:
            continue
        start = max(lo, Fraction(S) / (N * goal - B))
        if hi is None or start < hi:
            best = start if best is None else min(best, start)
    return float(best)


def test_rameshwar_search_text_says_what_it_found(capsys):
    assert cli.main(["rameshwar", "--collection", "geometric:6", "--solve", "eps", "--target", "error<5"]) == 0
    out = capsys.readouterr().out
    assert "eps = 1.734" in out and "worst-case absolute error" in out and "not MSE" in out
    assert math.ceil(2 / Fraction(1.734)) == 2 and "rank ceil(2/eps) = 2" in out


def test_sweeps_and_searches_save_their_files(tmp_path, capsys):
    stem = str(tmp_path / "r")
    assert cli.main(["rameshwar", "--collection", "counts:3,1,2", "--sweep", "eps=0.5:2:3", "--save", stem]) == 0
    assert "written" in capsys.readouterr().out
    assert len(list(csv.DictReader(open(stem + ".csv")))) == 3
    assert json.loads(open(stem + ".json").read())["rows"][2]["eps"] == 2.0
    stem = str(tmp_path / "c")
    assert cli.main(["cummings", *K_ARG, "--solve", "eps", "--target", "variance<1e-2", "--save", stem,
                     "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(open(stem + ".json").read())
    assert "answer        eps = 3.169" in open(stem + ".txt").read()


# =========================================================================== bad input


@pytest.mark.parametrize("command, argv, needle", [
    ("cummings", [*K_ARG, "--sweep", "eps=0.1:1:3", "--eps", "1"], "--eps: is swept: drop --eps"),
    ("cummings", [*K_ARG, "--solve", "eps", "--target", "variance<1", "--eps", "1"], "--eps: is solved for"),
    ("cummings", K_ARG, "--eps: is required"),
    ("cummings", [*K_ARG, "--sweep", "n=1:10:3"], "--sweep: use NAME=LO:HI:K with NAME in eps"),
    ("cummings", [*K_ARG, "--sweep", "eps=1e-200:1:3"], "--sweep: at eps = 1e-200"),
    ("cummings", [*K_ARG, "--solve", "eps", "--target", "upper<1"], "--target: use QUANTITY<VALUE"),
    ("cummings", [*K_ARG, "--solve", "eps", "--target", "lower<3e-3"], "--target: lower<0.003 holds at every eps"),
    ("cummings", [*K_ARG, "--sigma-p2", "0", "--solve", "eps", "--target", "lower<1"], "vacuous"),
    ("cummings", [*K_ARG, "--eps", "1", "--range", "1:2"], "--range: is the interval of --solve"),
    ("cummings", [*K_ARG, "--eps", "1", "--csv"], "--csv: prints a sweep"),
    ("rameshwar", ["--collection", "geometric:6", "--solve", "eps", "--target", "error<40"],
     "--target: error<40 holds at every eps"),
    ("rameshwar", ["--collection", "geometric:6", "--solve", "eps", "--target", "error<1", "--range", "0:1"],
     "--range: LO must be a positive"),
    ("rameshwar", ["--collection", "geometric:6", "--solve", "eps"], "--target: --solve needs a target"),
    ("rameshwar", ["--collection", "geometric:6", "--sweep", "eps=1:0.1:3"], "--sweep: HI must be >= LO"),
    ("rameshwar", ["--collection", "geometric:6"], "--eps: is required"),
])
def test_sweep_and_solve_of_eps_refuse_bad_input_by_name(capsys, command, argv, needle):
    assert cli.main([command, *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"bounds {command}: error: ") and needle in err[0], err
