"""Tests of the data behind the figures (bounds.figures)."""

import math

import numpy as np
import pytest

from bounds import dame, figures
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


def test_same_inputs_give_identical_csv(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    data = {"paper": figures.fig1a_panels("paper")}
    figures.write_dame_tables(a, data)
    figures.write_dame_tables(b, {"paper": figures.fig1a_panels("paper")})
    assert (a / "dame-fig1a.csv").read_bytes() == (b / "dame-fig1a.csv").read_bytes()


def test_format_argmax():
    assert figures.format_argmax(math.inf) == "inf" and figures.format_argmax(7.0) == "7"
