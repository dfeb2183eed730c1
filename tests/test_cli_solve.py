"""Tests of the calculators' sweeps and searches (bounds.cli._solve, ``--sweep``, ``--solve``)."""

import csv
import io
import json
import math
import warnings

import pytest

from bounds import cli, dame, sizes
from bounds.cli import _solve
from bounds.numerics import PaperAssumptionWarning


def _json(capsys, argv):
    assert cli.main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _bounds(law, constants, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        return dame.upper_bound(law, constants=constants, **kw).value, dame.lower_bound(law, constants=constants, **kw).value


def test_search_never_answers_where_unit_constants_give_upper_zero(capsys):
    law = sizes.poisson(5)
    ub, lb = _bounds(law, "unit", n_alpha2=1.0)
    assert ub == 0 < lb  # the trap: a naive search for UB < 1 or UB/LB < 10 answers n_alpha2 = 1
    for target in ("upper<1", "ratio<10"):
        out = _json(capsys, ["dame", "--sizes", "poisson:5", "--constants", "unit", "--solve", "n_alpha2",
                             "--target", target, "--json"])
        x = out["answer"]
        assert x > 1 and not out["holds_at_low_end"]
        ub, lb = _bounds(law, "unit", n_alpha2=x)
        assert lb <= ub and (ub < 1 if target == "upper<1" else ub / lb < 10)  # the printed answer meets it
        assert float(f"{x:.4g}") == x  # printed with 4 significant digits
        below = x * (1 - 2e-3)  # one step of the 4th digit below: the target is not met there
        ub, lb = _bounds(law, "unit", n_alpha2=below)
        assert not (lb <= ub and (ub < 1 if target == "upper<1" else ub / lb < 10))


def test_solve_users_is_exact_and_meets_the_target(capsys):
    out = _json(capsys, ["dame", "--sizes", "poisson:5", "--solve", "n", "--alpha", "0.5", "--target", "upper<0.01",
                         "--json"])
    n = out["answer"]
    assert n == int(n)
    assert _bounds(sizes.poisson(5), "paper", n=int(n), alpha=0.5)[0] < 0.01
    assert _bounds(sizes.poisson(5), "paper", n=int(n) - 1, alpha=0.5)[0] >= 0.01
    assert cli.main(["dame", "--sizes", "poisson:5", "--solve", "n", "--alpha", "0.5", "--target", "upper<0.01"]) == 0
    assert f"number of users n = {int(n)}" in capsys.readouterr().out


def test_solve_reports_an_unreachable_target(capsys):
    out = _json(capsys, ["dame", "--sizes", "poisson:5", "--solve", "n_alpha2", "--target", "upper<1e-30",
                         "--range", "1:1e6", "--json"])
    assert out["answer"] is None


@pytest.mark.parametrize("hold_from, integer", [(37.25, False), (37.25, True), (1.0, False), (999.5, True)])
def test_solve_against_a_known_threshold(hold_from, integer):
    ans = _solve.solve(lambda x: x >= hold_from, 1.0, 1e6, integer)
    if integer:
        assert ans.value == math.ceil(hold_from)
    else:
        assert hold_from <= ans.value <= _solve.round_up(hold_from * (1 + 1e-8))


def test_solve_reports_a_non_monotone_condition():
    ans = _solve.solve(lambda x: 10 <= x <= 1000, 1.0, 1e6, False)
    assert 10 <= ans.value <= 10.01 and ans.fails_again_at is not None and ans.fails_again_at > 1000


def test_round_up_never_rounds_down():
    for x in (1.0, 1.23456, 0.1, 123456.7, 9.99951, 1e-300, 3e300):
        r = _solve.round_up(x)
        assert r >= x and float(f"{r:.4g}") == r


def test_sweep_as_csv(capsys):
    assert cli.main(["dame", "--sizes", "poisson:5", "--constants", "unit", "--sweep", "n_alpha2=1e0:1e12:13",
                     "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 13
    assert [float(r["n_alpha2"]) for r in rows] == pytest.approx([10.0**k for k in range(13)])
    assert rows[0]["meaningful"] == "0" and float(rows[0]["upper_mse"]) == 0  # flagged, not hidden
    for r in rows[1:]:
        ub, lb = _bounds(sizes.poisson(5), "unit", n_alpha2=float(r["n_alpha2"]))
        assert float(r["upper_mse"]) == pytest.approx(ub, rel=1e-9) and float(r["lower_mse"]) == pytest.approx(lb, rel=1e-9)


def test_sweep_of_users_and_save(tmp_path, capsys):
    stem = str(tmp_path / "run")
    assert cli.main(["dame", "--sizes", "point:10", "--sweep", "n=10:1e4:4", "--alpha", "0.5", "--save", stem]) == 0
    assert "written" in capsys.readouterr().out
    rows = list(csv.DictReader(open(stem + ".csv")))
    assert [int(r["n"]) for r in rows] == [10, 100, 1000, 10000]
    assert json.loads(open(stem + ".json").read())["rows"][0]["n"] == 10
    assert "DAME" in open(stem + ".txt").read()


@pytest.mark.parametrize("argv, needle", [
    (["--sweep", "n_alpha2=1:10"], "--sweep: use n_alpha2=LO:HI:K"),
    (["--sweep", "m=1:10:3"], "--sweep: use NAME=LO:HI:K"),
    (["--sweep", "n_alpha2=10:1:3"], "--sweep: HI must be >= LO"),
    (["--sweep", "n_alpha2=1:10:0"], "--sweep: K must be"),
    (["--sweep", "n_alpha2=1:10:1e9"], "--sweep: K must be"),
    (["--sweep", "n_alpha2=1:nan:3"], "--sweep: HI must be"),
    (["--sweep", "n=1.5:10:3", "--alpha", "1"], "--sweep: LO must be an integer"),
    (["--sweep", "n=10:100:3"], "--alpha: a sweep of n needs --alpha"),
    (["--sweep", "n_alpha2=1:10:3", "--solve", "n_alpha2"], "--sweep: give --sweep or --solve"),
    (["--n-alpha2", "3", "--csv"], "--csv: prints a sweep"),
    (["--solve", "n_alpha2"], "--target: --solve needs a target"),
    (["--solve", "n_alpha2", "--target", "lower<3"], "--target: use QUANTITY<VALUE"),
    (["--solve", "n_alpha2", "--target", "upper<-1"], "--target: the target value must be a positive"),
    (["--solve", "n_alpha2", "--target", "upper<x"], "--target: the target value must be a number"),
    (["--solve", "n", "--target", "upper<1"], "--alpha: --solve n needs --alpha"),
    (["--solve", "n_alpha2", "--target", "upper<1", "--range", "5"], "--range: use LO:HI"),
    (["--solve", "n_alpha2", "--target", "upper<1", "--range", "5:1"], "--range: HI must exceed LO"),
    (["--n-alpha2", "3", "--target", "upper<1"], "--target: is the condition of --solve"),
])
def test_sweep_and_solve_refuse_bad_input_by_name(capsys, argv, needle):
    assert cli.main(["dame", "--sizes", "point:10", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bounds dame: error: ") and needle in err[0], err
