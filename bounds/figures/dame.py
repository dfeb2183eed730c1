r"""DAME (Pla, Richard, Vono): Figure 1a (bounds vs the law's parameter and vs nα²) and Figure 1b (simulated risks).

Figure 1b is drawn at the paper's text setting (n = 10⁴, M(10⁵) = 1 − ρ, M(10⁶) = ρ) and at
the official script's (n = 10⁵, M(10⁵) = 1 − ρ, M(10⁸) = ρ), with DAME's m̃ from Theorem 2
under both constants presets, Kent et al.'s own procedure and the official code's "Kent"
baseline (DAME with m̃ = min m), and m̃ per ρ in a panel below: whether DAME's lead comes from
adapting m̃ to the law can be read off the image (the audit's ``dame.fig1b_adaptation``
states it with numbers).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from matplotlib.figure import Figure

from .. import dame, simulate, sizes
from .core import MARKERS, PALETTE, FigureData, captured, hatch_where, legend_below, new_figure, register
from ..numerics import check_array, check_choice, check_integer, check_real, format_value
from ..sizes import SizeLaw

MAX_SIZE = 2**53  # the largest dataset size Figure 1b's law takes: larger integers are not exact in float64

__all__ = ["FIG1A_N_ALPHA2", "FIG1B_SETTINGS", "fig1a_laws", "fig1b_law"]

FIG1A_N_ALPHA2 = 500.0
"""The privacy budget :math:`n\\alpha^2 = 500` of Figure 1a (top) (Pla et al. (2024), §4.2)."""
UPPER_BELOW = "upper < lower bound (hatched)"


def _fig1a_grids(quick: bool) -> dict:
    k = 12 if quick else 100
    return {
        "poisson": np.geomspace(0.1, 1000.0, k),  # λ1
        "uniform": np.unique(np.rint(np.geomspace(1, 1000, k))).astype(int) if quick else np.arange(1, 1001, 10),
        "binomial": np.geomspace(0.1, 1000.0, k),  # λ3: p = λ3 / 1000
    }


def fig1a_laws(family: str, grid: ArrayLike) -> list:
    r"""The laws of one Figure 1a top panel: :math:`\mathcal P(\lambda_1)`, :math:`\mathcal U\{1..2\lambda_2-1\}`,
    :math:`\mathcal B(1000, \lambda_3/1000)` (Poisson and binomial zero-truncated).

    .. math:: M_\lambda \in \{\mathcal P(\lambda),\ \mathcal U\{1, \dots, 2\lambda - 1\},\ \mathcal B(1000, \lambda/1000)\}

    Source: Pla et al. (2024), §4.2, Figure 1a (top).

    Examples
    --------
    >>> fig1a_laws("uniform", [1, 11])[1]
    uniform(lo=1, hi=21)
    """
    family = check_choice("family", family, ("poisson", "uniform", "binomial"))
    values = check_array("grid", grid, low=0, low_open=True)
    if family == "poisson":
        try:
            return [sizes.poisson(float(v)) for v in values]
        except ValueError as exc:  # a λ beyond the Poisson law's range: name what was passed
            raise ValueError(f"grid: {exc}") from None
    if family == "uniform":
        if np.any(values != np.floor(values)) or np.any(values > sizes.MAX_TABLE // 2):
            raise ValueError(f"grid must hold integers in [1, {sizes.MAX_TABLE // 2}] for the uniform family "
                             f"(U{{1..2λ-1}} is tabulated), got {format_value(grid)}")
        return [sizes.uniform(1, 2 * int(v) - 1) for v in values]
    if np.any(values > 1000):
        raise ValueError(f"grid must hold values in (0, 1000] for the binomial family B(1000, λ/1000), "
                         f"got {format_value(grid)}")
    return [sizes.binomial(1000, float(v) / 1000) for v in values]


def _curve_rows(cv, extra: list[dict]) -> list:
    return [{**extra[i], "n_alpha2": float(cv.n_alpha2[i]), "lower": float(cv.lower[i]),
             "log_lower": float(cv.log_lower[i]), "argmax": float(cv.argmax[i]), "upper": float(cv.upper[i]),
             "log_upper": float(cv.log_upper[i]), "m_tilde": int(cv.m_tilde[i]),
             "upper_below_lower": bool(cv.log_upper[i] < cv.log_lower[i])} for i in range(len(cv.lower))]


def _draw_bounds(ax, x, rows_of) -> None:
    """Upper (dotted) and lower bound on log–log axes; the points where the upper one is below hatched."""
    lo, up, below = rows_of("lower"), rows_of("upper"), rows_of("upper_below_lower").astype(bool)
    pos = up > 0  # an upper bound of 0 (unit constants, m̃nα² ≤ 1) has no place on a log axis: it is hatched
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.plot(x[pos], up[pos], ":", color=PALETTE[1], label="upper bound (Thm 2)")
    ax.plot(x, lo, "-", color=PALETTE[0], label="lower bound (Thm 1)")
    hatch_where(ax, x, below, UPPER_BELOW)


def _gap_text(upper: np.ndarray, lower: np.ndarray, digits: int = 2) -> str:
    """How far from parallel the bounds are: UB/LB at the first and last point where UB is positive."""
    pos = upper > 0
    r = upper[pos] / lower[pos]
    return f"UB/LB {r[0]:.{digits}g} → {r[-1]:.{digits}g} (not constant)" if r.size else "UB = 0 everywhere"


def _fig1a_top(quick, constants, seed, executor):
    rows, notes = [], []
    for fam, grid in _fig1a_grids(quick).items():
        laws = fig1a_laws(fam, grid)
        cv, n = captured(dame.curve, laws, n_alpha2=FIG1A_N_ALPHA2, constants=constants)
        notes += n
        rows += _curve_rows(cv, [{"family": fam, "parameter": float(g), "law": repr(law)} for g, law in zip(grid, laws)])
    return FigureData(rows, {"constants": constants.describe(), "n_alpha2": FIG1A_N_ALPHA2,
                             "grids": {k: [float(v) for v in g] for k, g in _fig1a_grids(quick).items()},
                             "size_laws": "poisson and binomial zero-truncated; uniform on {1, ..., 2*lambda2 - 1}",
                             "points_upper_below_lower": sum(r["upper_below_lower"] for r in rows),
                             "warnings": sorted(set(notes))})


def _draw_fig1a_top(data):
    fig, axes = new_figure(3, 2.3, 2.8)
    labels = {"poisson": ("Poisson(λ₁)", "λ₁"), "uniform": ("Uniform{1, …, 2λ₂−1}", "λ₂"),
              "binomial": ("Binomial(1000, λ₃/1000)", "λ₃")}
    for ax, (fam, (label, symbol)) in zip(axes, labels.items()):
        _draw_bounds(ax, data.column("parameter", family=fam), lambda k, f=fam: data.column(k, family=f))
        ax.set_xlabel(symbol)
        ax.set_title(f"{label}\n{_gap_text(data.column('upper', family=fam), data.column('lower', family=fam))}")
    axes[0].set_ylabel("bound on the worst-case MSE")
    legend_below(fig, axes)
    return fig


register("dame-fig1a-top", "DAME Fig. 1a (top): bounds vs the law's parameter, nα² = 500",
         "Pla et al. (2024) §4.2, Fig. 1a; eqs. (10)-(12)")((_fig1a_top, _draw_fig1a_top))


def _fig1a_bottom(quick, constants, seed, executor):
    grid = np.geomspace(1.0, 1e6, 20 if quick else 100)
    law = sizes.poisson(5.0)
    cv, notes = captured(dame.curve, law, n_alpha2=grid, constants=constants)
    rows = _curve_rows(cv, [{"law": repr(law)}] * len(grid))
    below = [r["n_alpha2"] for r in rows if r["upper_below_lower"]]
    return FigureData(rows, {"constants": constants.describe(), "law": repr(law),
                             "n_alpha2_grid": [float(g) for g in grid],
                             "points_upper_below_lower": len(below),
                             "upper_below_lower_up_to_n_alpha2": max(below) if below else None, "warnings": notes})


def _draw_fig1a_bottom(data):
    fig, (ax,) = new_figure(1, 6.6, 2.8)
    _draw_bounds(ax, data.column("n_alpha2"), data.column)
    ax.set_xlabel("nα²")
    ax.set_ylabel("bound on the worst-case MSE")
    up, lo, x = data.column("upper"), data.column("lower"), data.column("n_alpha2")
    ok = ~data.column("upper_below_lower").astype(bool)  # the points not hatched
    where = f"for nα² ≥ {x[ok][0]:.3g}" if ok.any() and np.all(ok[np.argmax(ok):]) else "where UB ≥ LB"
    ax.set_title(f"Poisson(5) dataset sizes; {where}, {_gap_text(up[ok], lo[ok], 3)}")
    legend_below(fig, [ax], ncol=2)
    return fig


register("dame-fig1a-bottom", "DAME Fig. 1a (bottom): bounds vs nα², Poisson(5)",
         "Pla et al. (2024) §4.2, Fig. 1a; eqs. (10)-(12)")((_fig1a_bottom, _draw_fig1a_bottom))


# =========================================================================== DAME Figure 1b

FIG1B_ALPHA = 22 / 35
FIG1B_SETTINGS = {  # name: (n, m1, m2, replications, where it comes from)
    "text": (10**4, 10**5, 10**6, 1000, "§4.2's text"),
    "script": (10**5, 10**5, 10**8, 100, "the official code's script"),
}
"""Figure 1b's two settings: name → (n, m₁, m₂, replications, where it comes from); Pla et al. (2024), §4.2 and
the official script."""
FIG1B_QUICK = {"text": (2000, 10**5, 10**6, 64), "script": (4000, 10**5, 10**8, 32)}
FIG1B_CURVES = {  # estimator key: (legend label, colour, marker, line style)
    "duchi": ("Duchi et al. (2018)", PALETTE[0], MARKERS[0], "-"),
    "kent": ("Kent et al. (2024): own procedure, T = min m", PALETTE[1], MARKERS[1], "-"),
    "kent_official": ("Kent (official baseline: DAME with m̃ = min m)", PALETTE[4], MARKERS[2], "--"),
    "dame_paper": ("DAME, m̃ by Thm 2 with paper constants", PALETTE[2], MARKERS[3], "-"),
    "dame_unit": ("DAME, m̃ by Thm 2 with unit constants", PALETTE[3], MARKERS[4], ":"),
}


def fig1b_law(rho: float, m1: int = 10**5, m2: int = 10**6) -> SizeLaw:
    r"""Figure 1b's two-point law of the dataset size: :math:`M(m_1) = 1 - \rho`, :math:`M(m_2) = \rho`.

    .. math:: M = (1 - \rho)\,\delta_{m_1} + \rho\,\delta_{m_2}

    (a point mass at :math:`\rho \in \{0, 1\}`).  The text's setting is
    :math:`(m_1, m_2) = (10^5, 10^6)`, the official script's :math:`(10^5, 10^8)`.

    Source: Pla et al. (2024), §4.2, Figure 1b.

    Examples
    --------
    >>> fig1b_law(0.0), fig1b_law(1.0, m2=10**8).support_min
    (point(m=100000), 100000000)
    """
    rho = check_real("rho", rho, low=0, high=1)
    m1 = check_integer("m1", m1, minimum=1, maximum=MAX_SIZE, why="sizes above 2**53 are not exact in float64")
    m2 = check_integer("m2", m2, minimum=1, maximum=MAX_SIZE, why="sizes above 2**53 are not exact in float64")
    if m1 == m2:
        raise ValueError(f"m1 and m2 must differ, got m1 = m2 = {m1}")
    if rho == 0:
        return sizes.point(m1)
    if rho == 1:
        return sizes.point(m2)
    return sizes.finite({m1: 1 - rho, m2: rho})


def _risk_row(r, theta: float) -> dict:
    sq = (r.estimates - theta) ** 2
    return {"mse": r.mse, "stderr": r.stderr, "median": float(np.median(sq)), "q10": float(np.quantile(sq, 0.1)),
            "q90": float(np.quantile(sq, 0.9)), "bias": r.bias, "bias_stderr": r.bias_stderr,
            "n": r.settings["n"], "reps": r.settings["reps"]}


def _fig1b_setting(name, n, m1, m2, reps, rhos, seed, executor) -> list:
    """Rows of one setting: every curve at every ρ, all on the same simulated users at that ρ (one
    :func:`bounds.simulate.compare`, each DAME run with privacy noise of its own); a DAME variant whose m̃
    equals one already simulated at that ρ is that run, marked in ``run``."""
    theta, rows = 0.0, []
    for i, rho in enumerate(rhos):
        law = fig1b_law(float(rho), m1, m2)
        m_tilde = {"dame_paper": dame.m_tilde(law, n=n, alpha=FIG1B_ALPHA, constants="paper"),
                   "dame_unit": dame.m_tilde(law, n=n, alpha=FIG1B_ALPHA, constants="unit"),
                   "kent_official": law.support_min}
        more = list(dict.fromkeys(v for v in m_tilde.values() if v != m_tilde["dame_paper"]))
        res = simulate.compare(theta=theta, sizes=law, n=n, alpha=FIG1B_ALPHA, reps=reps, seed=[seed, m2, i, 0],
                               m_tilde=m_tilde["dame_paper"], more_m_tildes=more, executor=executor)
        runs = {"duchi": (res["duchi"], "duchi"), "kent": (res["kent"], "kent"),
                "dame_paper": (res["dame"], "dame_paper")}
        for key in ("dame_unit", "kent_official"):
            same = next((k for k in ("dame_paper", "dame_unit") if k in runs and runs[k][0].settings["m_tilde"]
                         == m_tilde[key]), None)
            runs[key] = runs[same] if same is not None else (res[f"dame@{m_tilde[key]}"], key)
        for key, (r, run) in runs.items():
            rows.append({"setting": name, "rho": float(rho), "m1": m1, "m2": m2, "estimator": key, "run": run,
                         "m_tilde": r.settings["m_tilde"] if key.startswith(("dame", "kent_official")) else None,
                         "kent_T": r.settings["kent_T"] if key == "kent" else None, **_risk_row(r, theta)})
    return rows


def _fig1b(quick, constants, seed, executor):
    rhos = np.linspace(0, 1, 3 if quick else 10)
    rows, settings = [], {}
    for name, (n, m1, m2, reps, origin) in FIG1B_SETTINGS.items():
        if quick:
            n, m1, m2, reps = FIG1B_QUICK[name]
        rows += _fig1b_setting(name, n, m1, m2, reps, rhos, seed, executor)
        done = [r for r in rows if r["setting"] == name]
        settings[name] = {"origin": origin, "n": done[0]["n"], "alpha": FIG1B_ALPHA, "sizes": f"M({m1}) = 1 - rho, "
                          f"M({m2}) = rho", "replications": done[0]["reps"],
                          "m_tilde": {k: [r["m_tilde"] for r in done if r["estimator"] == k]
                                      for k in ("dame_paper", "dame_unit", "kent_official")}}
    return FigureData(rows, {"constants": {"paper": dame.Constants.paper().describe(), "unit": dame.Constants.unit().describe()},
                             "settings": settings, "rhos": [float(r) for r in rhos], "theta": 0.0,
                             "replications": min(s["replications"] for s in settings.values()),
                             "mu": "two-point on {-1, 1} with mean 0 (the paper's mu(1) = mu(-1) = 1/2)",
                             "curves": {k: v[0] for k, v in FIG1B_CURVES.items()},
                             "kent_baseline": "own procedure: T = min dataset size (every user truncates to it)",
                             "shared_runs": "at each rho every curve runs on the same simulated users, each DAME "
                                            "run with privacy noise of its own; a DAME variant whose m_tilde equals "
                                            "one already simulated at that rho reuses that run (column 'run')"})


def _draw_fig1b(data):
    fig = Figure(figsize=(6.8, 7.0), layout="constrained")
    grid = fig.subplots(3, 2, height_ratios=[2.2, 2.2, 1], sharex="col")
    sup = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    dodge = dict(zip(FIG1B_CURVES, np.linspace(-0.024, 0.024, len(FIG1B_CURVES))))  # coinciding runs side by side
    for col, (name, s) in enumerate(data.meta["settings"].items()):
        ax, axq, axm = grid[0, col], grid[1, col], grid[2, col]
        m1, m2 = (int(data.column(k, setting=name)[0]) for k in ("m1", "m2"))
        e1, e2 = (str(round(np.log10(v))).translate(sup) for v in (m1, m2))
        for key, (label, color, marker, ls) in FIG1B_CURVES.items():
            sel = dict(setting=name, estimator=key)
            rho = data.column("rho", **sel) + dodge[key]
            style = dict(color=color, marker=marker, ls=ls, ms=4, mfc="none" if ls != "-" else color)
            mse, se = data.column("mse", **sel), data.column("stderr", **sel)
            # ± 2 s.e. of log MSE (delta method): a positive interval, which a log axis can show
            spread = np.exp(2 * se / mse)
            ax.errorbar(rho, mse, yerr=[mse - mse / spread, mse * spread - mse], capsize=1.5, label=label, **style)
            med = data.column("median", **sel)
            axq.fill_between(rho, data.column("q10", **sel), data.column("q90", **sel), color=color, alpha=0.12, lw=0)
            axq.plot(rho, med, **style)
            if key not in ("duchi", "kent"):
                axm.plot(rho, data.column("m_tilde", **sel).astype(float), **style)
        for a in (ax, axq, axm):
            a.set_yscale("log")
        ax.set_title(f"({'ab'[col]}) {s['origin']}: n = {s['n']:,}".replace(",", " ")
                     + f"\nM(10{e1}) = 1 − ρ, M(10{e2}) = ρ; {s['replications']} replications")
        axm.set_xlabel("ρ")
    grid[0, 0].set_ylabel("simulated MSE at θ = 0\n(± 2 s.e. of log MSE)")
    grid[1, 0].set_ylabel("simulated squared error:\nmedian, 10–90% band")
    grid[2, 0].set_ylabel("m̃ of the DAME runs")
    legend_below(fig, grid[0], ncol=2)
    return fig


register("dame-fig1b", "DAME Fig. 1b: risk of Duchi, Kent and DAME vs ρ",
          "Pla et al. (2024) §4.2, Fig. 1b; Algorithm 1", monte_carlo=True)((_fig1b, _draw_fig1b))


# =========================================================================== Kent


# =========================================================================== DAME regime maps


def _regime_axes(quick: bool) -> dict:
    k = 10 if quick else 60
    return {
        "poisson": np.geomspace(0.1, 1e4, k),  # λ
        "zipf": 2.0 + np.geomspace(1e-3, 2.0, k),  # s
        "n_alpha2": np.geomspace(1.0, 1e12, k),
    }


def _regimes(quick, constants, seed, executor):
    # the gap UB/LB is a statement about the proven constants: this map always uses the paper's
    constants = "paper"
    axes = _regime_axes(quick)
    rows, notes, used = [], [], None
    for fam in ("poisson", "zipf"):
        g, n = captured(dame.grid, fam, axes[fam], axes["n_alpha2"], constants=constants)
        notes += n
        used = g.constants.describe()
        for i, p in enumerate(g.params):
            for j, x in enumerate(g.n_alpha2):
                rows.append({"family": fam, "parameter": float(p), "n_alpha2": float(x),
                             "lower": float(g.lower[i, j]), "upper": float(g.upper[i, j]),
                             "log10_gap": float(g.log_gap[i, j] / np.log(10)), "m_tilde": int(g.m_tilde[i, j]),
                             "argmax": float(g.argmax[i, j]), "regime": dame.REGIMES[int(g.regime[i, j])]})
    return FigureData(rows, {"grids": {k: [float(v) for v in a] for k, a in axes.items()}, "constants": used,
                             "size_laws": "poisson zero-truncated; zipf(s) = k^-s / zeta(s)",
                             "gap": "log10(UB / LB), eq. (11) over eq. (10)", "warnings": sorted(set(notes))})


def _draw_regimes(data):
    from matplotlib.colors import LogNorm

    fig, axes = new_figure(2, 3.4, 2.5, nrows=2)  # 6.8 × 5.0 inches
    labels = {"poisson": ("Poisson(λ)", "λ", lambda p: p), "zipf": ("Zipf(s)", "s − 2", lambda p: p - 2)}
    for row, (fam, (name, xlabel, xmap)) in enumerate(labels.items()):
        p = np.unique(data.column("parameter", family=fam))
        x = np.unique(data.column("n_alpha2", family=fam))
        gap = data.column("log10_gap", family=fam).reshape(p.size, x.size)
        mt = data.column("m_tilde", family=fam).reshape(p.size, x.size)
        for col, (vals, title, norm, cmap, bar) in enumerate((
                (gap, f"{name}: log₁₀(UB / LB), paper constants", None, "viridis", "log₁₀(UB / LB), bounds on MSE"),
                (mt, f"{name}: m̃ (Theorem 2)", LogNorm(vmin=1, vmax=max(2, mt.max())), "magma",
                 "m̃ (users' samples used)"))):
            ax = axes[2 * row + col]
            mesh = ax.pcolormesh(xmap(p), x, vals.T, shading="nearest", norm=norm, cmap=cmap, rasterized=True)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel(xlabel)
            ax.set_ylabel("nα²")
            ax.set_title(title + ("\nbelow the white line UB is the trivial 4" if row == 0 and col == 0 else ""))
            ax.grid(False)
            fig.colorbar(mesh, ax=ax, label=bar)
            capped = (data.column("regime", family=fam) == "capped").reshape(p.size, x.size)
            if capped.any() and not capped.all():  # where eq. (11) is the trivial 4
                ax.contour(xmap(p), x, capped.T.astype(float), levels=[0.5], colors="white", linewidths=0.8)
    return fig


register("dame-regimes", "DAME regime maps: log UB/LB gap and m̃ over Poisson λ × nα² and Zipf s × nα²",
          "Pla et al. (2024), Theorems 1-2, eqs. (10)-(12); Corollary 3")((_regimes, _draw_regimes))
