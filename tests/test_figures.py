"""Tests of the Figure 1a data (bounds.figures) and the command line (bounds.cli)."""

import csv
import json
import math

import numpy as np
import pytest

from bounds import cli, dame, figures
from bounds.numerics import PaperAssumptionWarning


def test_fig1a_data_ub_ge_lb_with_paper_constants_and_agrees_with_calculators():
    panels, notes = figures.fig1a_panels("paper")
    assert notes == []
    for name, (cv, grid) in panels.items():
        assert len(cv.lower) == len(grid) == 100
        assert np.all(cv.log_upper >= cv.log_lower), name
    cv, _ = panels["top-poisson"]
    law = cv.laws[40]
    assert cv.lower[40] == pytest.approx(dame.lower_bound(law, n_alpha2=500).value, rel=1e-15)
    # formula sheet §1.2: with paper constants m̃ = 1 and UB = 4 at nα² = 500
    assert np.all(cv.m_tilde == 1) and np.all(cv.upper == 4.0)


def test_fig1a_bottom_lower_bound_decreases_in_n_alpha2():
    assert np.all(np.diff(figures.fig1a_bottom("paper").log_lower) < 0)
    # unit constants: at small nα², ln(c4 (√(m̃ nα²) ∨ 1)) = 0 and the bound (11) is 0 -- said aloud
    with pytest.warns(PaperAssumptionWarning, match="not positive"):
        cv = figures.fig1a_bottom("unit")
    assert np.all(np.diff(cv.log_lower) < 0)
    assert cv.upper[0] == 0.0 and cv.lower[0] > 0


def test_figures_command_writes_csv_and_json(tmp_path, capsys):
    assert cli.main(["figures", "--out", str(tmp_path)]) == 0
    rows = list(csv.DictReader((tmp_path / "dame-fig1a.csv").open()))
    assert len(rows) == 2 * 400
    meta = json.loads((tmp_path / "dame-fig1a.json").read_text())
    assert meta["constants"]["paper"]["c3"] == "1570"
    assert "not positive" in meta["warnings"]["unit"][0]
    out = capsys.readouterr().out
    assert "constants = paper" in out and "constants = unit" in out


def test_same_inputs_give_identical_csv(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    data = {"paper": figures.fig1a_panels("paper")}
    figures.write_dame_tables(a, data)
    figures.write_dame_tables(b, {"paper": figures.fig1a_panels("paper")})
    assert (a / "dame-fig1a.csv").read_bytes() == (b / "dame-fig1a.csv").read_bytes()


def test_dame_command_precision_and_errors(capsys):
    assert cli.main(["dame", "--sizes", "poisson:5", "--n", "10000", "--alpha", "0.5", "--precision", "30"]) == 0
    out = capsys.readouterr().out
    assert "30 digits" in out and "m_tilde       1" in out
    assert cli.main(["dame", "--sizes", "zipf:1.5", "--n-alpha2", "3"]) == 2
    assert "infinite mean" in capsys.readouterr().err
    assert cli.main(["dame", "--sizes", "point:3", "--n", "100", "--alpha", "0.9"]) == 0
    assert "22/35" in capsys.readouterr().out


def test_format_argmax():
    assert figures.format_argmax(math.inf) == "inf" and figures.format_argmax(7.0) == "7"
