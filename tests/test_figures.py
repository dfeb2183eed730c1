"""Tests of bounds.figures: the data behind each figure (quick settings), rendering, reproducibility."""

import io
import json
import math

import numpy as np
import pytest

from bounds import dame, figures, kent, rameshwar


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("figures")
    return figures.run(quick=True, out=out, progress=False), out


def test_every_figure_writes_four_files(quick):
    res, out = quick
    assert set(res) == set(figures.REGISTRY)
    for fid, (_, paths) in res.items():
        assert sorted(p.name for p in paths) == sorted(f"{fid}.{e}" for e in ("csv", "png", "pdf", "json"))
        meta = json.loads((out / f"{fid}.json").read_text())
        assert meta["quick"] is True and "bounds_version" in meta and "wall_time_s" in meta
        if figures.REGISTRY[fid].monte_carlo:
            assert meta["seed"] == figures.SEED and meta["replications"] > 0


def test_fig1a_data(quick):
    res, _ = quick
    top, _ = res["dame-fig1a-top"]
    row = top.rows[5]
    law = figures.dame.fig1a_laws(row["family"], [row["parameter"]])[0]
    assert row["lower"] == pytest.approx(dame.lower_bound(law, n_alpha2=500, constants="unit").value, rel=1e-14)
    assert np.all(np.diff(top.column("lower", family="uniform")) < 0)  # decreasing in the law's size
    bottom, _ = res["dame-fig1a-bottom"]
    assert np.all(np.diff(bottom.column("log_lower")) < 0)
    # with the paper's constants UB >= LB everywhere (Theorems 1-2)
    paper = figures.REGISTRY["dame-fig1a-top"].compute(True, dame.Constants.paper(), 0, None)
    assert all(r["log_upper"] >= r["log_lower"] for r in paper.rows)
    assert all(r["upper"] == 4.0 and r["m_tilde"] == 1 for r in paper.rows)  # formula sheet §1.2


def test_fig1b_monte_carlo_data(quick):
    res, _ = quick
    data, _ = res["dame-fig1b"]
    for r in data.rows:
        assert r["q10"] <= r["median"] <= r["q90"]
        assert r["mse"] > 0 and r["stderr"] > 0
    # Duchi's closed-form variance (B² - θ²)/n against the simulated risk, at each point
    B = 1 / math.tanh(data.meta["alpha"] / 2)
    for r in (r for r in data.rows if r["estimator"] == "duchi"):
        assert abs(r["mse"] - (B * B - r["theta"] ** 2) / data.meta["n"]) < 4 * r["stderr"]


def test_kent_figures_data(quick):
    res, _ = quick
    fig1, _ = res["kent-fig1"]
    linf = np.array([r["log10_ratio"] for r in fig1.rows if r["panel"].startswith("linf")])
    sparse = np.array([r["log10_ratio"] for r in fig1.rows if r["panel"].startswith("sparse")])
    assert np.all(linf >= -1e-12)  # ℓ∞ mean: user-level is never better than item-level with nT users
    assert sparse.min() < -0.5  # sparse: user-level beats item-level where d >> nα² (the paper's point)
    small = [r for r in fig1.rows if r["regime"] == "small-T"]
    assert all(abs(r["log10_ratio"]) < 1e-12 for r in small if r["panel"].startswith("linf"))
    pt, _ = res["kent-phase-transition"]
    for label, marks in pt.meta["phase_transitions"].items():
        T = pt.column("T", problem=label)
        regimes = pt.column("regime", problem=label)
        assert all(reg == ("small-T" if t <= marks["T_dagger_lower"] else "large-T") for t, reg in zip(T, regimes))
        assert np.all(pt.column("lower", problem=label) <= pt.column("upper", problem=label) * (1 + 1e-12))


def test_rameshwar_figures_data(quick):
    res, _ = quick
    fig1, _ = res["rameshwar-fig1"]
    opt = fig1.column("opt")
    assert np.all(np.diff(opt) <= 1e-12)  # E_OPT non-increasing in ε (the paper's claim)
    np.testing.assert_allclose(fig1.column("lp"), opt, rtol=1e-9)
    assert np.all(fig1.column("akmv") - 4 * fig1.column("akmv_stderr") > opt)  # Figure 1's ordering
    eps0 = fig1.rows[2]["eps"]
    assert fig1.rows[2]["opt"] == pytest.approx(rameshwar.optimal_error(rameshwar.geometric(6), U=65, eps=eps0))
    for fid in ("rameshwar-fig2", "rameshwar-fig3"):
        d, _ = res[fid]
        for eps in np.unique(d.column("eps")):
            # the OPT-worst-case mechanism beats AKMV in the average case (Figures 2-3)
            e_opt, s_opt = d.column("error", eps=eps, mechanism="opt_wc")[0], d.column("stderr", eps=eps, mechanism="opt_wc")[0]
            e_akmv = d.column("error", eps=eps, mechanism="akmv")[0]
            assert e_opt - 4 * s_opt < e_akmv


def test_cummings_example1_data(quick):
    res, _ = quick
    d, _ = res["cummings-example1"]
    slopes = d.meta["fitted_slopes"]
    assert set(slopes) == set(figures.cummings.EXAMPLE1_CLAIMS)
    assert np.all(d.column("uniform_sd") > d.column("nonprivate_sd"))
    assert -0.75 < slopes["nonprivate_sd"] < -0.4 and -0.7 < slopes["uniform_sd"] < -0.4


def test_figures_render_with_agg(quick):
    res, _ = quick
    for fid, (data, _) in res.items():
        fig = figures.REGISTRY[fid].draw(data)
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        assert buf.getvalue()[:4] == b"\x89PNG"


def test_same_seed_gives_identical_csv(tmp_path):
    ids = ["dame-fig1b", "rameshwar-fig2"]
    figures.run(ids, quick=True, out=tmp_path / "a", progress=False)
    figures.run(ids, quick=True, out=tmp_path / "b", progress=False, jobs=2)
    for fid in ids:
        assert (tmp_path / "a" / f"{fid}.csv").read_bytes() == (tmp_path / "b" / f"{fid}.csv").read_bytes()


def test_unknown_figure_id():
    with pytest.raises(ValueError, match="unknown figure"):
        figures.run(["fig-99"], quick=True, progress=False)


def test_kent_rates_in_fig1_agree_with_the_calculator(quick):
    res, _ = quick
    d, _ = res["kent-fig1"]
    r = d.rows[len(d.rows) // 3]
    kw = {"d": 20} if r["panel"].startswith("linf") else {"d": 1000, "s": 5}
    problem = "mean" if r["panel"].startswith("linf") else "sparse"
    assert r["user_level_lower"] == kent.rate(problem, n=int(r["n_alpha2"]), T=r["T"], alpha=1.0, **kw).lower
