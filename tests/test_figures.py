"""Tests of bounds.figures: the data behind each figure (quick settings), the metadata against what was
computed, legibility of the rendered images, reproducibility."""

from fractions import Fraction
import io
import json
import math
from contextlib import nullcontext

import matplotlib
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from bounds import dame, figures, kent, rameshwar
from bounds.figures.dame import FIG1B_ALPHA
from bounds.figures.files import RTOL, rounded


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
        assert meta["quick"] is True and "bounds_version" in meta
        assert not {"wall_time_s", "host", "date"} & set(meta)  # nothing volatile in a committed file
        if figures.REGISTRY[fid].monte_carlo:
            assert meta["seed"] == figures.SEED and meta["replications"] > 0


def test_every_json_is_the_computed_metadata(quick):
    """The JSON holds the computation's own metadata, and every metadata value that is also a CSV column
    is a value of that column (a scalar: all of them)."""
    res, out = quick
    for fid, (data, _) in res.items():
        meta = json.loads((out / f"{fid}.json").read_text())
        spec = figures.REGISTRY[fid]
        assert {k: meta[k] for k in data.meta} == json.loads(json.dumps(data.meta)), fid
        assert (meta["id"], meta["title"], meta["source"]) == (fid, spec.title, spec.source)
        columns = set().union(*(r.keys() for r in data.rows))
        for key in set(data.meta) & columns:
            values, col = data.meta[key], data.column(key)
            if isinstance(values, list):
                assert set(col.tolist()) <= set(values), (fid, key)
            elif not isinstance(values, dict):
                assert set(col.tolist()) == {values}, (fid, key)


def test_fig1a_metadata_names_the_constants_used(quick):
    res, _ = quick
    for fid in ("dame-fig1a-top", "dame-fig1a-bottom"):
        data, _ = res[fid]
        c = data.meta["constants"]
        used = dame.Constants.from_description(c)
        r = data.rows[len(data.rows) // 2]
        law = (figures.dame.fig1a_laws(r["family"], [r["parameter"]])[0] if "family" in r
               else figures.dame.fig1a_laws("poisson", [5.0])[0])
        # the written values hold 10 significant digits: within half a unit of the tenth of the bound's own
        assert r["lower"] == pytest.approx(dame.lower_bound(law, n_alpha2=r["n_alpha2"], constants=used).value,
                                           rel=RTOL)
        assert r["upper"] == pytest.approx(dame.upper_bound(law, n_alpha2=r["n_alpha2"], constants=used).value,
                                           rel=RTOL)
    paper = figures.REGISTRY["dame-fig1a-bottom"].compute(True, dame.Constants.paper(), 0, None)
    assert paper.meta["constants"]["name"] == "paper" and paper.meta["points_upper_below_lower"] == 0


def test_fig1a_bottom_hatches_where_the_upper_bound_is_below(quick):
    res, _ = quick
    data, _ = res["dame-fig1a-bottom"]
    below = [r for r in data.rows if r["upper_below_lower"]]
    assert data.meta["constants"]["name"] == "unit" and 0 < len(below) == data.meta["points_upper_below_lower"]
    assert all(r["n_alpha2"] < 10 for r in below)  # nα² ≤ 4.5 with unit constants (and UB = 0 at m̃nα² ≤ 1)
    fig = figures.render(figures.REGISTRY["dame-fig1a-bottom"], data)
    hatched = [p for p in fig.axes[0].patches if p.get_hatch()]
    assert len(hatched) == len(below)


def test_fig1a_data(quick):
    res, _ = quick
    top, _ = res["dame-fig1a-top"]
    row = top.rows[5]
    law = figures.dame.fig1a_laws(row["family"], [row["parameter"]])[0]
    assert row["lower"] == pytest.approx(dame.lower_bound(law, n_alpha2=500, constants="unit").value, rel=RTOL)
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
    assert set(data.column("setting")) == {"text", "script"}
    for r in data.rows:
        assert r["q10"] <= r["median"] <= r["q90"]
        assert r["mse"] > 0 and r["stderr"] > 0
    # Duchi's closed-form variance (B² - θ²)/n against the simulated risk, at each point
    B = 1 / math.tanh(FIG1B_ALPHA / 2)
    for r in (r for r in data.rows if r["estimator"] == "duchi"):
        assert abs(r["mse"] - B * B / r["n"]) < 4 * r["stderr"]
    for r in data.rows:  # the official baseline is DAME at the smallest size; a shared run has the same m̃
        if r["estimator"] == "kent_official":
            assert r["m_tilde"] == min(r["m1"], r["m2"]) if 0 < r["rho"] < 1 else r["m_tilde"] in (r["m1"], r["m2"])
        twin = data.column("mse", setting=r["setting"], rho=r["rho"], estimator=r["run"])
        assert twin[0] == r["mse"]


def test_fig1b_official_baseline_is_dame_at_the_smallest_size_where_m_tilde_adapts():
    # the official script's law at ρ = 8/9: Theorem 2's m̃ is 10^8 with either preset, the baseline's 10^5
    rows = figures.dame._fig1b_setting("script", 10**5, 10**5, 10**8, 8, [8 / 9], figures.SEED, None)
    by = {r["estimator"]: r for r in rows}
    assert by["dame_paper"]["m_tilde"] == by["dame_unit"]["m_tilde"] == 10**8 and by["dame_unit"]["run"] == "dame_paper"
    assert by["kent_official"]["m_tilde"] == 10**5 and by["kent_official"]["run"] == "kent_official"
    assert by["kent_official"]["mse"] > 10 * by["dame_paper"]["mse"]


def test_fig1b_metadata_is_what_was_computed(quick):
    res, out = quick
    data, _ = res["dame-fig1b"]
    presets = {k: dame.Constants.from_description(v)
               for k, v in data.meta["constants"].items()}
    assert {k: c.describe() for k, c in presets.items()} == data.meta["constants"]
    for name, s in data.meta["settings"].items():
        assert set(data.column("n", setting=name)) == {s["n"]}
        assert set(data.column("reps", setting=name)) == {s["replications"]}
        for r in (r for r in data.rows if r["setting"] == name and r["estimator"] in ("dame_paper", "dame_unit")):
            law = figures.dame.fig1b_law(r["rho"], r["m1"], r["m2"])
            alpha = float(Fraction(s["alpha"]).limit_denominator(1000))  # the JSON's 10 digits of 22/35 lie above it
            assert r["m_tilde"] == dame.m_tilde(law, n=r["n"], alpha=alpha, constants=presets[r["estimator"][5:]])
        for key, values in s["m_tilde"].items():
            assert data.column("m_tilde", setting=name, estimator=key).tolist() == values


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
        assert np.all(pt.column("lower", problem=label) <= pt.column("upper", problem=label) * (1 + RTOL))


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


@pytest.fixture(scope="module")
def rendered(quick):
    """Each quick figure rendered once and drawn on an Agg canvas, with its renderer (drawing is most of a
    figure's cost: the checks of the drawn image share it)."""
    res, _ = quick
    out = {}
    for fid, (data, _) in res.items():
        fig = figures.render(figures.REGISTRY[fid], data)
        out[fid] = fig, _drawn(fig)
    return out


def test_figures_render_with_agg(quick, rendered):
    """Every figure draws on an Agg canvas, and the PNG the run saved (savefig with Agg) is one."""
    _, out = quick
    for fid, (fig, renderer) in rendered.items():
        assert renderer.buffer_rgba().shape[:2] == (round(fig.bbox.height), round(fig.bbox.width)), fid
        assert (out / f"{fid}.png").read_bytes()[:4] == b"\x89PNG", fid


def test_same_seed_gives_identical_csv(quick, tmp_path):
    """Two workers give the serial run's CSV (the module's quick run, one process), and its images byte for byte."""
    ids = ["dame-fig1b", "rameshwar-fig2"]
    figures.run(ids, quick=True, out=tmp_path, progress=False, jobs=2)
    for fid in ids:
        for ext in ("csv", "png", "pdf"):
            assert (quick[1] / f"{fid}.{ext}").read_bytes() == (tmp_path / f"{fid}.{ext}").read_bytes(), (fid, ext)


def test_unknown_figure_id():
    with pytest.raises(ValueError, match="unknown figure"):
        figures.run(["fig-99"], quick=True, progress=False)


def test_kent_rates_in_fig1_agree_with_the_calculator(quick):
    res, _ = quick
    d, _ = res["kent-fig1"]
    r = d.rows[len(d.rows) // 3]
    kw = {"d": 20} if r["panel"].startswith("linf") else {"d": 1000, "s": 5}
    problem = "mean" if r["panel"].startswith("linf") else "sparse"
    assert r["user_level_lower"] == rounded(kent.rate(problem, n=int(r["n_alpha2"]), T=r["T"], alpha=1.0, **kw).lower)


# --------------------------------------------------------------------------- legibility, on the rendered image

CAP_MARKERS = {"_", "|", "None", "", None, " "}


def _drawn(fig):
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def _tick_labels(fig):
    """All tick labels, split into those drawn (tick inside the view interval) and those not."""
    shown, hidden = [], []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            scale = axis.get_transform()  # compare in the axis' own scale (log axes in decades)
            lo, hi = sorted(scale.transform(np.asarray(axis.get_view_interval(), dtype=float)))
            tol = 1e-9 * (hi - lo)
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                loc = float(scale.transform(np.array([tick.get_loc()], dtype=float))[0])
                inside = lo - tol <= loc <= hi + tol
                for label in (tick.label1, tick.label2):
                    (shown if inside and label.get_visible() else hidden).append(label)
    return shown, {id(t) for t in hidden}


def _texts(fig, renderer):
    """(text, window extent) of every text artist drawn with non-empty text."""
    _, hidden = _tick_labels(fig)
    out = []
    for t in fig.findobj(Text):
        if id(t) in hidden or not t.get_visible() or not t.get_text().strip():
            continue
        bb = t.get_window_extent(renderer)
        if bb.width > 0 and bb.height > 0:
            out.append((t.get_text(), bb))
    return out


def _display_points(line):
    xy = np.asarray(line.get_xydata(), dtype=float)
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    return line.get_transform().transform(xy) if len(xy) else xy


def _densified(pts, step=2.0):
    """Points every ``step`` pixels along a polyline (display coordinates)."""
    if len(pts) < 2:
        return pts
    out = [pts[:1]]
    for a, b in zip(pts[:-1], pts[1:]):
        k = int(min(np.hypot(*(b - a)) / step, 2000)) + 1
        out.append(a + (b - a) * np.linspace(0, 1, k + 1)[1:, None])
    return np.concatenate(out)


def _data_lines(ax):
    return [ln for ln in ax.lines if ln.get_transform() == ax.transData and len(ln.get_xydata()) >= 2]


def legibility_problems(fig, renderer=None) -> list[str]:
    """What a referee would object to on the rendered figure (empty when legible); ``renderer``: the one
    that drew ``fig`` (drawn here when not given)."""
    renderer = _drawn(fig) if renderer is None else renderer
    problems = []
    W, H = fig.bbox.width, fig.bbox.height
    texts = _texts(fig, renderer)
    for s, bb in texts:  # inside the figure
        if bb.x0 < -1 or bb.y0 < -1 or bb.x1 > W + 1 or bb.y1 > H + 1:
            problems.append(f"text {s!r} leaves the figure ({bb.bounds})")
    for i, (s1, b1) in enumerate(texts):  # no two texts overlap
        for s2, b2 in texts[i + 1:]:
            w = min(b1.x1, b2.x1) - max(b1.x0, b2.x0)
            h = min(b1.y1, b2.y1) - max(b1.y0, b2.y0)
            if w > 1 and h > 1:
                problems.append(f"texts {s1!r} and {s2!r} overlap")
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    for leg in legends:  # a legend covers at most a few data points and no stretch of a curve
        box = leg.get_window_extent(renderer)
        for ax in fig.axes:
            for ln in _data_lines(ax):
                pts = _display_points(ln)
                inside = box.count_contains(pts)
                if inside > 3:
                    problems.append(f"legend covers {inside} points of {ln.get_label()!r}")
                if ln.get_linestyle() not in ("None", "", " "):
                    along = box.count_contains(_densified(pts))
                    if along > 10:
                        problems.append(f"legend covers {2 * along} px of the curve {ln.get_label()!r}")
    for ax in fig.axes:  # log axes where positive values span more than two decades
        for axis, col, scale in (("x", 0, ax.get_xscale()), ("y", 1, ax.get_yscale())):
            vals = np.concatenate([np.asarray(ln.get_xydata(), dtype=float)[:, col] for ln in _data_lines(ax)] or [[]])
            vals = vals[np.isfinite(vals)]
            if scale == "linear" and vals.size and vals.min() > 0 and vals.max() > 100 * vals.min():
                problems.append(f"{axis} axis of {ax.get_title()!r} is linear over {vals.max() / vals.min():.0f}×")
    for ax in fig.axes:  # curves that coincide differ in marker or line style
        curves = [ln for ln in _data_lines(ax) if len(ln.get_xydata()) >= 3
                  and (ln.get_linestyle() not in ("None", "", " ") or ln.get_marker() not in CAP_MARKERS)]
        for i, a in enumerate(curves):
            for b in curves[i + 1:]:
                pa, pb = _display_points(a), _display_points(b)
                if pa.shape != pb.shape or not np.allclose(pa[:, 0], pb[:, 0], atol=8):  # side by side counts
                    continue
                if np.mean(np.abs(pa[:, 1] - pb[:, 1]) < 3) >= 0.5 and a.get_marker() == b.get_marker() \
                        and a.get_linestyle() == b.get_linestyle():
                    problems.append(f"{a.get_label()!r} and {b.get_label()!r} coincide with the same marker and style")
    return problems


def test_legibility_checker_sees_the_faults():
    def problems(draw, size=(3, 2)):
        fig = Figure(figsize=size, layout="constrained")
        draw(fig.subplots())
        return " | ".join(legibility_problems(fig))

    x = np.linspace(1, 10, 30)
    assert problems(lambda ax: ax.plot(x, x)) == ""
    assert "leaves the figure" in problems(lambda ax: ax.set_title("a title far too long for so small a figure, "
                                                                   "clipped on both of its sides"))
    assert "overlap" in problems(lambda ax: (ax.text(0.5, 0.5, "one"), ax.text(0.5, 0.5, "two")))
    assert "legend covers" in problems(lambda ax: (ax.plot(x, 11 - x, "o-", label="falling"), ax.legend(loc="upper left"),
                                                   ax.plot(x, 11 - x)))
    assert "linear over" in problems(lambda ax: ax.plot(x, x**4))
    assert "coincide with the same marker" in problems(lambda ax: (ax.plot(x, x, "o-"), ax.plot(x, x * 1.0001, "o-")))
    assert problems(lambda ax: (ax.plot(x, x, "o-"), ax.plot(x, x * 1.0001, "s--"))) == ""


def test_every_figure_is_legible(rendered):
    problems = {}
    for fid, (fig, renderer) in rendered.items():
        found = legibility_problems(fig, renderer)
        if found:
            problems[fid] = found
    assert not problems, problems


def test_bound_figures_state_their_constants_on_the_image(quick, rendered):
    res, _ = quick
    for fid, (data, _) in res.items():
        if data.meta.get("constants") is None:
            continue
        fig, renderer = rendered[fid]
        texts = " ".join(s for s, _ in _texts(fig, renderer))
        assert "constants:" in texts, fid
        if isinstance(data.meta["constants"], dict) and "name" in data.meta["constants"]:
            assert data.meta["constants"]["name"] in texts, fid


def test_log_axes_build_only_the_ticks_they_draw():
    from matplotlib.ticker import LogLocator
    from bounds.figures.core import _InView

    def drawn(wrap):
        fig = Figure(figsize=(3, 2), layout="constrained")
        ax = fig.subplots()
        ax.loglog([0.02, 5.0], [1.0, 300.0])
        for axis in (ax.xaxis, ax.yaxis):
            for put, subs in ((axis.set_major_locator, None), (axis.set_minor_locator, "auto")):
                put(_InView(LogLocator(subs=subs)) if wrap else LogLocator(subs=subs))
        buf = io.BytesIO()
        FigureCanvasAgg(fig).print_png(buf)
        shown = sorted(t.get_loc() for axis in (ax.xaxis, ax.yaxis) for t in axis._update_ticks())
        return buf.getvalue(), shown, sum(len(a.majorTicks) + len(a.minorTicks) for a in (ax.xaxis, ax.yaxis))

    (png, shown, built), (png_in_view, shown_in_view, built_in_view) = drawn(False), drawn(True)
    assert png_in_view == png and shown_in_view == shown and len(shown) <= built_in_view < built


@pytest.mark.parametrize("span, both", [((0.02, 5.0), False), ((1.0, 50.0), False), ((2.0, 7.0), False),
                                        ((0.02, 5.0), True)])
def test_unlabelled_minor_ticks_become_marks_drawn_pixel_for_pixel(span, both, monkeypatch):
    """Minor ticks without labels (axes over more than a decade) are drawn as marks: the same PNG as the ticks
    they replace, with no minor tick built; minor ticks that carry labels (under a decade) or stick out on a side
    without major ticks (which the layout counts) stay ticks, with the same PNG."""
    from bounds.figures import core

    def drawn(marks):
        if not marks:
            monkeypatch.setattr(core, "_minor_marks", lambda axis: False)
        fig = Figure(figsize=(3, 2), layout="constrained")
        ax = fig.subplots()
        ax.loglog(list(span), [1.0, 300.0])
        if both:
            ax.tick_params(which="minor", top=True, right=True)
        core._plain_log_labels(fig)
        png = io.BytesIO()
        with matplotlib.rc_context(figures.STYLE):
            fig.savefig(png, format="png", dpi=150)
        monkeypatch.undo()
        return png.getvalue(), len(ax.xaxis.minorTicks), ax.xaxis.get_minorticklocs().size

    (ticks, built, locs), (marks, built_marks, locs_marks) = drawn(False), drawn(True)
    assert marks == ticks and built > 5 and locs > 5  # the ticks to replace were there
    kept = both or math.log10(span[1] / span[0]) < 1
    assert (built_marks, locs_marks) == ((built, locs) if kept else (1, 0))


# kent-fig1 (colour bars, log axes) and dame-fig1b (shared axes, a figure legend) hold every feature the other
# two have: those two in the slow run
@pytest.mark.parametrize("fid", ["kent-fig1", pytest.param("dame-regimes", marks=pytest.mark.slow), "dame-fig1b",
                                 pytest.param("rameshwar-fig2", marks=pytest.mark.slow)])
def test_saving_gives_the_images_savefig_gives(quick, fid):
    """The layout solved once and the ticks computed once per view: the same PNG pixels and the same PDF as a
    plain savefig (colour bars, shared axes, log axes and a figure legend among them)."""
    from PIL import Image
    from bounds.figures.core import saving

    data = quick[0][fid][0]

    def images(prepared):
        fig = figures.render(figures.REGISTRY[fid], data, {"text": "reproduced: a verdict line"})
        png, pdf = io.BytesIO(), io.BytesIO()
        with matplotlib.rc_context(figures.STYLE), (saving(fig, figures.SAVE_DPI) if prepared else nullcontext()):
            fig.savefig(png, format="png")
            if not prepared:
                fig.set_layout_engine("none")
            fig.savefig(pdf, format="pdf", metadata={"CreationDate": None})
        return np.asarray(Image.open(png)), pdf.getvalue(), fig.get_layout_engine()

    (plain, plain_pdf, _), (fast, fast_pdf, engine) = images(False), images(True)
    assert np.array_equal(plain, fast) and plain_pdf == fast_pdf
    assert type(engine).__name__ == "ConstrainedLayoutEngine"  # restored on exit


def test_captured_names_f_when_the_arguments_do_not_fit():
    from bounds.figures.core import captured
    with pytest.raises(TypeError, match="^f = <built-in function abs> does not take these arguments"):
        captured(abs)
    assert captured(abs, -2) == (2, [])


# --------------------------------------------------------------------------- verdicts

from bounds.audit import AuditResult  # noqa: E402
from bounds.figures import verdicts  # noqa: E402
from pathlib import Path  # noqa: E402

COMMITTED = Path(__file__).resolve().parent.parent / "figures"
CHEAP = ["dame-fig1a-top", "dame-fig1a-bottom", "kent-fig1", "kent-phase-transition", "kent-phase-transition-simulated",
         "rameshwar-fig2", "rameshwar-fig3"]


def test_every_figure_has_a_judge_and_a_quick_run_says_its_verdict_was_not_computed(quick):
    res, out = quick
    assert set(verdicts.JUDGES) == set(figures.REGISTRY)
    for fid in res:
        meta = json.loads((out / f"{fid}.json").read_text())
        assert meta["verdict"]["status"] == "not computed" and meta["verdict"]["check"] == verdicts.JUDGES[fid].check
        assert meta["caption"].endswith(meta["verdict"]["text"])


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    out = tmp_path_factory.mktemp("judged")
    return figures.run(CHEAP, quick=True, out=out, progress=False, verdicts=True), out


@pytest.mark.slow  # the judged run computes every verdict (tens of seconds)
def test_verdicts_are_written_to_the_json_and_drawn_under_the_title(judged):
    res, out = judged
    for fid, (data, _) in res.items():
        meta = json.loads((out / f"{fid}.json").read_text())
        v = meta["verdict"]
        assert set(v) == {"status", "check", "text"} and v["text"].startswith(v["status"] + ": ")
        assert meta["caption"] == f"Verdict ({v['check']}): {v['text']}"
        assert v == verdicts.judge(fid, data).as_dict()
        fig = figures.render(figures.REGISTRY[fid], data, v)
        assert "verdict: " + v["text"] in fig.get_suptitle().replace("\n", " ")
        assert not legibility_problems(fig), fid


@pytest.mark.slow  # the judged run computes every verdict (tens of seconds)
def test_own_checks_decide_as_their_claims_say(judged):
    res, _ = judged
    assert verdicts.judge("kent-fig1", res["kent-fig1"][0]).status == "reproduced"
    assert verdicts.judge("kent-phase-transition", res["kent-phase-transition"][0]).status == "reproduced"
    # the simulated plateau is the estimator's cap (K), not the minimax T†: partly reproduced
    sim = verdicts.judge("kent-phase-transition-simulated", res["kent-phase-transition-simulated"][0])
    assert sim.status == "partly reproduced" and "K = 200" in sim.text
    # break each claim in the data and watch the verdict change
    d = res["kent-fig1"][0]
    rows = [{**r, "log10_ratio": -1.0} if r["panel"].startswith("linf") else r for r in d.rows]
    assert verdicts.kent_fig1_check(figures.FigureData(rows, d.meta)).status == "fails"
    d = res["kent-phase-transition"][0]
    rows = [{**r, "lower": r["lower"] * (1 + (r["T"] > 1e20))} for r in d.rows]
    assert verdicts.kent_pt_check(figures.FigureData(rows, d.meta)).status == "fails"
    d = res["kent-phase-transition-simulated"][0]
    curves = {k: {**c, "slope_above": -0.9, "slope_above_stderr": 0.01} for k, c in d.meta["curves"].items()}
    assert verdicts.kent_pt_simulated_check(figures.FigureData(d.rows, {**d.meta, "curves": curves})).status == "fails"
    d = res["rameshwar-fig2"][0]
    rows = [{**r, "error": r["error"] * 3} if r["mechanism"] == "akmv" else r for r in d.rows]
    assert verdicts.rameshwar_average_check(figures.FigureData(rows, d.meta)).status == "fails"


@pytest.mark.slow  # the judged run computes every verdict (tens of seconds)
def test_verdict_status_follows_the_audit_status(judged):
    res, _ = judged
    data = res["dame-fig1a-top"][0]
    for status, expected in verdicts.VERDICT_STATUS.items():
        fake = AuditResult("dame.figure_constants", "s", "c", "m", status, {"rows": []})
        original = verdicts._audited
        verdicts._audited = lambda check, thorough=False, fake=fake: fake  # type: ignore[assignment]
        try:
            assert verdicts.judge("dame-fig1a-top", data).status == expected
        finally:
            verdicts._audited = original


def test_fig1b_verdict_decides_on_the_figures_own_runs_as_the_audit_check_does():
    """Figure 1b's verdict is dame.fig1b_adaptation's decision on the committed figure's runs: the same per-setting
    verdicts as the check's own simulation (tests/test_audit.py), the official baseline's runs as DAME without
    adaptation, and the figure's replications recorded."""
    meta = json.loads((COMMITTED / "dame-fig1b.json").read_text())
    r = verdicts.fig1b_check(figures.FigureData(_committed_rows("dame-fig1b"), meta))
    assert r.id == "dame.fig1b_adaptation" and r.status == "discrepancy"
    assert {(s["setting"], s["preset"]): s["verdict"] for s in r.evidence["summary"]} == {
        ("text", "paper"): "fails", ("text", "unit"): "fails", ("script", "paper"): "holds", ("script", "unit"): "fails"}
    assert r.evidence["replications"] == [1000, 100]
    official = {(row["setting"], row["rho"]): row["mse"] for row in _committed_rows("dame-fig1b")
                if row["estimator"] == "kent_official"}
    assert all(row["mse_dame_min_m"] == official[row["setting"], row["rho"]] for row in r.evidence["rows"])
    for lead in r.evidence["lead_at_rho_0"]:  # at ρ = 0 DAME's lead over Kent's procedure is the ratio of their τ²
        assert abs(lead["lead"] - lead["tau2_ratio"]) < 4 * lead["lead_stderr"]


@pytest.mark.slow  # the judged run computes every verdict (tens of seconds)
def test_committed_figures_carry_the_verdict_their_check_computes():
    """The committed figures' verdicts against their checks, run now: an audit check through bounds.audit.run,
    an own check on the committed CSV."""
    from bounds import audit
    for fid, judge in verdicts.JUDGES.items():
        meta = json.loads((COMMITTED / f"{fid}.json").read_text())
        v = meta["verdict"]
        assert v["check"] == judge.check and meta["quick"] is False, fid
        if judge.own is None:
            result = audit.run([judge.check])[0]
        else:
            result = judge.own(figures.FigureData(_committed_rows(fid), meta))
        expected = verdicts.VERDICT_STATUS[result.status] if judge.paper else verdicts.NOT_A_PAPER_FIGURE
        assert v["status"] == expected, (fid, v, result.status)


def _committed_rows(fid):
    import csv

    def value(text):
        if text in ("True", "False"):
            return text == "True"
        if text == "":
            return None
        for kind in (int, float):
            try:
                return kind(text)
            except ValueError:
                pass
        return text

    with (COMMITTED / f"{fid}.csv").open() as fh:
        return [{k: value(v) for k, v in row.items()} for row in csv.DictReader(fh)]
