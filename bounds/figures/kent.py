r"""Kent, Berrett, Yu: the user-level vs item-level phase diagrams and the rates vs T with the phase transition T†."""

from __future__ import annotations

import math

import numpy as np

from .. import kent
from .core import PALETTE, FigureData, legend_below, new_figure, register

__all__ = []

def _kent_fig1(quick, constants, seed, executor):
    k = 16 if quick else 60
    Ts = np.unique(np.rint(np.geomspace(1, 1e12, k)).astype(np.int64))
    ns = np.unique(np.rint(np.geomspace(1, 1e4, k)).astype(int))  # α = 1, so n = nα²
    panels = {"linf mean, d = 20": ("mean", {"d": 20}), "sparse mean, d = 1000, s = 5": ("sparse", {"d": 1000, "s": 5})}
    rows = []
    for panel, (problem, kw) in panels.items():
        for n in ns.tolist():
            for T in Ts:
                r = kent.rate(problem, n=n, T=int(T), alpha=1.0, **kw)
                rows.append({"panel": panel, "n_alpha2": float(n), "T": int(T), "user_level_lower": r.lower,
                             "item_level_nT": r.item_level, "log10_ratio": math.log10(r.lower / r.item_level),
                             "regime": r.regime, "confidence": r.confidence})
    return FigureData(rows, {"panels": {p: {"problem": v[0], **v[1]} for p, v in panels.items()}, "alpha": 1.0,
                             "constants": "c = C = c1 = c2 = 1 (rates, not bounds)",
                             "colour": "log10(user-level lower rate / item-level rate with nT users)"})


def _draw_kent_fig1(data):
    fig, axes = new_figure(2, 3.0, 2.6)
    for ax, panel in zip(axes, dict.fromkeys(r["panel"] for r in data.rows)):
        x, T, z = (data.column(k, panel=panel) for k in ("n_alpha2", "T", "log10_ratio"))
        xs, Ts = np.unique(x), np.unique(T)
        Z = z.reshape(len(xs), len(Ts))
        lim = max(abs(float(Z.min())), abs(float(Z.max())), 1e-9)
        mesh = ax.pcolormesh(Ts, xs, Z, shading="nearest", cmap="PuOr_r", vmin=-lim, vmax=lim)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("T (samples per user)")
        ax.set_ylabel("nα²")
        ax.set_title(panel)
        fig.colorbar(mesh, ax=ax, label="log₁₀(user-level / item-level with nT)\n< 0: user-level is better")
    return fig


register("kent-fig1", "Kent et al.: user-level vs item-level (same nT) phase diagrams",
          "004_b0e838126fb19414.txt; kent.md §5, §8, §10")((_kent_fig1, _draw_kent_fig1))


def _kent_pt(quick, constants, seed, executor):
    Ts = np.unique(np.rint(np.geomspace(1, 1e22, 30 if quick else 200)).astype(object))
    cases = {"univariate mean": ("mean", {}), "Sobolev density, β = 1": ("density", {"beta": 1.0})}
    n, alpha = 1000, 0.2  # nα² = 40
    rows, marks = [], {}
    for label, (problem, kw) in cases.items():
        pt = kent.phase_transition(problem, n=n, alpha=alpha, **kw)
        marks[label] = {"T_dagger_lower": pt.lower, "log_T_dagger_lower": pt.log_lower,
                        "T_dagger_upper": pt.upper, "log_T_dagger_upper": pt.log_upper}
        for T in Ts:
            r = kent.rate(problem, n=n, T=int(T), alpha=alpha, **kw)
            rows.append({"problem": label, "T": float(T), "lower": r.lower, "upper": r.upper,
                         "item_level_nT": r.item_level, "regime": r.regime})
    return FigureData(rows, {"n": n, "alpha": alpha, "phase_transitions": marks,
                             "constants": "c = C = c1 = c2 = 1 (rates, not bounds)"})


def _draw_kent_pt(data):
    fig, axes = new_figure(2, 3.0)
    for ax, label in zip(axes, data.meta["phase_transitions"]):
        T = data.column("T", problem=label)
        ax.loglog(T, data.column("upper", problem=label), ":", color=PALETTE[1], label="upper rate")
        ax.loglog(T, data.column("lower", problem=label), "-", color=PALETTE[0], label="lower rate")
        ax.loglog(T, data.column("item_level_nT", problem=label), "--", color=PALETTE[2], label="item-level, nT users")
        ax.axvline(data.meta["phase_transitions"][label]["T_dagger_lower"], color="k", lw=0.8, ls="-.", label="T†")
        ax.set_xlabel("T (samples per user)")
        ax.set_title(f"{label}, nα² = 40")
    axes[0].set_ylabel("minimax rate (constants 1)")
    legend_below(fig, axes, ncol=4)
    return fig


register("kent-phase-transition", "Kent et al.: rate vs T with the phase transition T†",
          "004_b0e838126fb19414.txt Theorems 6, 9; kent.md §5, §9")((_kent_pt, _draw_kent_pt))


# =========================================================================== Rameshwar & Tandon

RT_U = 65.0
