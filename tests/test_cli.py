"""Tests of the command line (bounds.cli)."""

import csv
import json

import pytest

from bounds import cli


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
    assert cli.main(["dame", "--sizes", "zipf:1.5", "--n-alpha2", "3"]) == 2
    assert "infinite mean" in capsys.readouterr().err
    assert cli.main(["dame", "--sizes", "point:3", "--n", "100", "--alpha", "0.9"]) == 0
    assert "22/35" in capsys.readouterr().out


def test_rameshwar_command(capsys):
    assert cli.main(["rameshwar", "--collection", "geometric:6", "--U", "65", "--eps", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "T_eps         1040" in out and "E_OPT         10.4464285714" in out
    assert "LP optimum    10.4464285714" in out
    assert cli.main(["rameshwar", "--collection", "counts:3,1,2", "--eps", "1"]) == 0
    assert cli.main(["rameshwar", "--collection", "weird:1", "--eps", "1"]) == 2
    assert "cannot read collection" in capsys.readouterr().err


def test_parser_requires_a_command():
    with pytest.raises(SystemExit):
        cli.main([])


def test_cummings_command(capsys):
    assert cli.main(["cummings", "--k", "100,50,20,5,1", "--eps", "1"]) == 0
    out = capsys.readouterr().out
    assert "k*            100" in out and "T*" in out and "lower bound" in out
    assert cli.main(["cummings", "--k", "3,x", "--eps", "1"]) == 2
    assert cli.main(["cummings", "--k", "3,2", "--eps", "1", "--sigma-p2", "0.3"]) == 2
    assert "p(1-p)" in capsys.readouterr().err


def test_kent_command(capsys):
    assert cli.main(["kent", "--problem", "mean", "--n", "1000", "--T", "100", "--alpha", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "regime        small-T" in out and "T_dagger" in out and "[S]" in out
    assert cli.main(["kent", "--problem", "sparse", "--n", "1000", "--T", "100", "--alpha", "0.5", "--d", "50"]) == 2
    assert "needs s" in capsys.readouterr().err
