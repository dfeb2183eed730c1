"""Tests of the figures' verdict sentences (bounds.figures.verdicts): each is built from the set it describes
(sets over a grid written as unions of intervals, fed non-contiguous sets here), fig1a-bottom's reads its plotted
data, the regime map is judged on its own content, and every command a verdict points to runs."""

import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from bounds import figures
from bounds.audit import CHECKS, AuditResult
from bounds.cli import build_parser, main
from bounds.figures import verdicts
from bounds.figures.verdicts import _grid_set

COMMITTED = Path(__file__).resolve().parent.parent / "figures"
EPS = np.geomspace(0.02, 5.0, 25)  # Rameshwar and Tandon's ε grid at the papers' settings (25 points)


# --------------------------------------------------------------------------- sets over a grid


@pytest.mark.parametrize("mask, expected", [
    ([0, 1, 0, 0, 0, 1, 1], "x = 2 and x ≥ 6"),
    ([1, 1, 0, 1, 0, 0, 0], "x ≤ 2 and x = 4"),
    ([0, 1, 1, 0, 1, 0, 1], "2 ≤ x ≤ 3, x = 5 and x = 7"),
    ([1, 0, 1, 0, 1, 0, 1], "x = 1, x = 3, x = 5 and x = 7"),
    ([0, 0, 1, 1, 1, 0, 0], "3 ≤ x ≤ 5"),
    ([0, 0, 0, 0, 0, 0, 1], "x = 7"),
    ([1, 0, 0, 0, 0, 0, 0], "x = 1"),
    ([1, 1, 1, 1, 1, 1, 1], "every x on the grid (1–7)"),
    ([0, 0, 0, 0, 0, 0, 0], "no x on the grid"),
])
def test_grid_set_writes_each_run_of_grid_points_as_one_interval(mask, expected):
    assert _grid_set("x", [1, 2, 3, 4, 5, 6, 7], np.array(mask, dtype=bool)) == expected


def test_grid_set_on_the_rameshwar_grid_and_where_neighbours_would_look_alike():
    mask = np.zeros(25, dtype=bool)
    mask[[8, 20, 21, 22, 23, 24]] = True  # 0.02·250^(8/24) = 0.126, 0.02·250^(20/24) = 1.99
    assert _grid_set("ε", EPS, mask) == "ε = 0.126 and ε ≥ 1.99"
    # 1.001 and 1.002 agree to 3 digits: shown with 4
    assert _grid_set("a", [1.0, 1.001, 1.002, 2.0], np.array([False, True, False, True])) == "a = 1.001 and a = 2"


@pytest.mark.parametrize("grid, mask, name", [
    ([], [], "grid"), ([2, 1], [True, False], "grid"), ([1, float("nan")], [True, False], "grid"),
    ([1, 2], [True], "mask"), ([1, 2], [1, 0], "mask"),
])
def test_grid_set_names_its_bad_input(grid, mask, name):
    with pytest.raises(ValueError, match=f"^{name} must"):
        _grid_set("x", grid, np.asarray(mask))


# --------------------------------------------------------------------------- Rameshwar & Tandon, Figures 2-3


def _rameshwar_data(akmv_minus_laplace_in_se):
    """Figure 2/3-like rows on the 25-point ε grid: Laplace's error 10 (s.e. 0.1), OPT's worst case 1, AKMV's
    error Laplace's + the given multiple of the two errors' combined s.e."""
    rows = []
    se = np.hypot(0.1, 0.1)
    for eps, k in zip(EPS, akmv_minus_laplace_in_se):
        common = {"eps": float(eps), "opt_worst_case": 1.0, "T_eps": 65.0}
        rows += [{**common, "mechanism": "laplace", "error": 10.0, "stderr": 0.1},
                 {**common, "mechanism": "opt_wc", "error": 2.0, "stderr": 0.1},
                 {**common, "mechanism": "akmv", "error": 10.0 + k * se, "stderr": 0.1}]
    return figures.FigureData(rows, {})


def test_rameshwar_verdict_states_the_set_where_akmv_is_worse_as_it_is():
    k = np.zeros(25)
    k[[8, 20, 21, 22, 23, 24]] = 6.0  # worse beyond 4 s.e. at ε = 0.126 and ε ≥ 1.99 only
    k[[3, 4]] = 3.0  # within 4 s.e.
    v = verdicts.judge("rameshwar-fig3", _rameshwar_data(k))
    assert v.status == "reproduced"
    assert "(worse beyond 4 s.e. at ε = 0.126 and ε ≥ 1.99, within 4 s.e. elsewhere)" in v.text, v.text
    assert "0.13" not in v.text.replace("0.126", "")


def test_rameshwar_verdict_names_where_akmv_is_better_and_fails():
    k = np.zeros(25)
    k[[0, 1]] = -6.0  # better than Laplace beyond 4 s.e. at the two smallest ε: the paper's sentence fails
    k[12] = 6.0  # ε = 0.02·250^(12/24) = 0.316; ε ≤ 0.02·250^(1/24) = 0.0252
    v = verdicts.judge("rameshwar-fig2", _rameshwar_data(k))
    assert v.status == "not reproduced"
    assert "worse beyond 4 s.e. at ε = 0.316, better beyond 4 s.e. at ε ≤ 0.0252, within 4 s.e. elsewhere" in v.text


# --------------------------------------------------------------------------- DAME Figure 1a (bottom)


def _bottom(x, upper, lower):
    rows = [{"n_alpha2": float(a), "upper": float(u), "lower": float(lo), "upper_below_lower": bool(u < lo)}
            for a, u, lo in zip(x, upper, lower)]
    return figures.FigureData(rows, {"constants": {"name": "unit"}})


NO_CAP = AuditResult("dame.figure_constants", "s", "c", "m", "discrepancy", {"rows": []})


def test_fig1a_bottom_verdict_reads_its_data_and_writes_non_contiguous_sets():
    x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    lower = np.ones(7)
    upper = np.array([0.5, 1.5, 0.5, 0.8, 1.2, 2.0, 3.0])  # below at 1 and at 3-4; ratio 1.5, then 1.2 → 3
    text = verdicts._fig1a_bottom(NO_CAP, _bottom(x, upper, lower))
    assert text == ("unit constants: UB < LB at nα² = 1 and 3 ≤ nα² ≤ 4 (hatched); elsewhere UB/LB (MSE bounds) 1.50 "
                    "at nα² = 2 to 3 at nα² = 7, within 1.2–3; paper constants give the same picture")
    rising = verdicts._fig1a_bottom(NO_CAP, _bottom(x[:4], [2.0, 3.0, 4.0, 5.0], np.ones(4)))
    assert rising.startswith("unit constants: UB/LB (MSE bounds) rises from 2 at nα² = 1 to 5 at nα² = 4;")


def test_fig1a_bottom_committed_verdict_is_what_its_csv_says():
    """The committed verdict's sentence is the one its CSV gives (read back from the file), and it holds: UB < LB
    exactly at the hatched points, the UB/LB it states at the first and last other point."""
    from tests.test_figures import _committed_rows

    meta = json.loads((COMMITTED / "dame-fig1a-bottom.json").read_text())
    rows = _committed_rows("dame-fig1a-bottom")
    data = figures.FigureData(rows, meta)
    result = AuditResult("dame.figure_constants", "s", "c", "m", "discrepancy", {"rows": []})
    sentence = verdicts._fig1a_bottom(result, data).split("; paper constants")[0]
    assert sentence in meta["verdict"]["text"]
    x = np.array([r["n_alpha2"] for r in rows])
    ratio = np.array([r["upper"] / r["lower"] for r in rows])
    below = ratio < 1
    assert [r["upper_below_lower"] for r in rows] == below.tolist()
    last_below = x[below].max()
    assert f"UB < LB at nα² ≤ {last_below:.3g}" in sentence and np.all(below == (x <= last_below))
    first = np.argmin(below)
    assert x[-1] == 1e6 and np.all(np.diff(ratio[~below]) > 0)
    assert f"rises from {ratio[first]:.3g} at nα² = {x[first]:.3g} to {ratio[-1]:.3g} at nα² = 10⁶" in sentence


# --------------------------------------------------------------------------- DAME Figure 1b


def test_fig1b_verdict_writes_each_set_of_rho_it_describes():
    rhos = [i / 9 for i in range(10)]
    z = {1: -10.0, 2: 8.0, 3: -6.0, 4: 2.0, 5: 9.0, 6: 9.0}  # higher at ρ = 1/9, 3/9; lower at 2/9 and 5/9-6/9
    rows = [{"setting": "text", "preset": "unit", "rho": rhos[i], "z_gain": zi,
             "gain_from_adaptation": 0.5 if zi < 0 else 3.0} for i, zi in z.items()]
    summary = [{"setting": "text", "preset": "paper", "adaptive_rhos": []},
               {"setting": "text", "preset": "unit", "adaptive_rhos": [rhos[i] for i in z]}]
    result = AuditResult("dame.fig1b_adaptation", "s", "c", "m", "fails", {"rows": rows, "summary": summary})
    text = verdicts._fig1b(result, figures.FigureData([], {"rhos": rhos}))
    assert text == ("DAME's simulated MSE against the official baseline's (m̃ = min m): text's setting, paper m̃ never "
                    "adapts (DAME = the baseline); text's setting, unit m̃: 2× higher at ρ = 0.111 and ρ = 0.333, "
                    "3× lower at ρ = 0.222 and 0.556 ≤ ρ ≤ 0.667, within 4 s.e. at ρ = 0.444")


# --------------------------------------------------------------------------- the regime maps


def test_regime_map_is_judged_on_its_own_content():
    rows = [{"family": fam, "parameter": p, "n_alpha2": x, "log10_gap": g, "regime": reg}
            for fam, p, x, g, reg in [("poisson", 1.0, 1.0, 6.0, "capped"), ("poisson", 1.0, 10.0, 8.5, "m_tilde>1"),
                                      ("zipf", 2.5, 1.0, 5.5, "capped"), ("zipf", 2.5, 10.0, 7.0, "m_tilde>1")]]
    data = figures.FigureData(rows, {"constants": {"name": "paper"}})
    v = verdicts.judge("dame-regimes", data)
    assert v.status == "not a paper figure" and v.check == "figures.dame_regimes"
    assert v.text == ("not a paper figure: over this map UB/LB of the MSE bounds (paper constants) spans "
                      "10^6–10^8.5 (poisson), 10^5.5–10^7 (zipf); UB ≥ LB at all 4 points; UB is the trivial 4 at "
                      "2 of them")
    rows[1] = {**rows[1], "log10_gap": -0.5}
    v = verdicts.judge("dame-regimes", figures.FigureData(rows, data.meta))
    assert v.status == "not a paper figure" and "UB < LB at 1 of the 4 points" in v.text
    assert verdicts.regimes_check(figures.FigureData(rows, data.meta)).status == "fails"


# --------------------------------------------------------------------------- the committed verdicts


OWN = [fid for fid, j in verdicts.JUDGES.items() if j.own is not None]


@pytest.mark.parametrize("fid", OWN)
def test_committed_verdicts_of_own_checks_are_what_the_committed_data_give(fid):
    """A figure judged by a check of its own: its committed verdict is that check on its committed CSV and JSON."""
    from tests.test_figures import _committed_rows

    meta = json.loads((COMMITTED / f"{fid}.json").read_text())
    assert verdicts.judge(fid, figures.FigureData(_committed_rows(fid), meta)).as_dict() == meta["verdict"]


def test_no_committed_verdict_says_its_status_twice():
    for path in sorted(COMMITTED.glob("*.json")):
        v = json.loads(path.read_text())["verdict"]
        assert v["text"].startswith(v["status"] + ": ")
        assert not v["text"][len(v["status"]) + 2:].startswith(v["status"]), path.name


# --------------------------------------------------------------------------- commands the verdicts point to


def _pointed_commands():
    """Every `bounds …` command quoted in a verdict: the quick runs' (one per figure) and the committed files'
    verdicts and captions."""
    texts = [verdicts.not_computed(fid).text for fid in verdicts.JUDGES]
    for path in sorted(COMMITTED.glob("*.json")):
        meta = json.loads(path.read_text())
        texts += [meta["verdict"]["text"], meta["caption"]]
    return sorted({m for t in texts for m in re.findall(r"`(bounds [^`]*)`", t)})


def test_every_command_a_verdict_points_to_parses_and_names_what_exists():
    commands = _pointed_commands()
    assert any(c.startswith("bounds check --only ") for c in commands)
    assert any(c.startswith("bounds figures --only ") for c in commands)
    parser = build_parser()
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] == "bounds"
        args = parser.parse_args(argv[1:])  # exits (SystemExit) on a command that does not parse
        if argv[1] == "check":
            assert args.only and all(c in CHECKS for c in args.only), command
        elif argv[1] == "figures":
            assert args.only and all(f in figures.REGISTRY for f in args.only), command
        else:
            raise AssertionError(f"a verdict points to an unexpected command: {command}")


@pytest.mark.slow  # each audit check costs seconds (dame.fig1b_adaptation about ten)
def test_every_check_a_verdict_points_to_runs(capsys):
    for command in _pointed_commands():
        argv = shlex.split(command)
        if argv[1] == "check":
            assert main(argv[1:]) == 0, command
            assert all(c in capsys.readouterr().out for c in argv[3:]), command


def test_a_pointed_figure_command_runs(tmp_path):
    """One `bounds figures --only ID` a quick run points to, run as printed (with --out a scratch folder and at
    quick settings, the only changes), exits 0."""
    command = next(c for c in _pointed_commands() if c.startswith("bounds figures --only kent-phase-transition"))
    argv = shlex.split(command)[1:] + ["--out", str(tmp_path), "--quick", "--quiet"]
    assert main(argv) == 0
