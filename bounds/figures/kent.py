r"""Kent, Berrett, Yu: the user-level vs item-level phase diagrams and the rates vs T with the phase transition T†."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
from matplotlib.colors import ListedColormap, Normalize, TwoSlopeNorm
from matplotlib.lines import Line2D

from .. import checks, kent
from .core import MARKERS, PALETTE, FigureData, legend_below, new_figure, register

__all__ = ["FIG1_ASSUMPTIONS"]

# the theorems' assumption on nα² for each panel [R] (docs/kent.md §4): (threshold, text)
FIG1_ASSUMPTIONS: dict[str, tuple[Callable[..., float], str]] = {
    "mean": (lambda d: d * math.log(d), "nα² ≥ d log d"),
    "sparse": (lambda d, s: s * math.log(math.e * d / s), "nα² ≥ s log(ed/s)"),
}
"""Per panel of Kent et al. (2024)'s Figure 1, the theorems' assumption on :math:`n\\alpha^2` (reconstructed,
``docs/kent.md`` §4): problem → (threshold as a function of d (and s), its text)."""


def _kent_fig1(quick, constants, seed, executor):
    k = 16 if quick else 60
    Ts = np.unique(np.rint(np.geomspace(1, 1e12, k)).astype(np.int64))
    ns = np.unique(np.rint(np.geomspace(1, 1e4, k)).astype(int))  # α = 1, so n = nα²
    panels: dict[str, tuple[str, dict[str, Any]]] = {"linf mean, d = 20": ("mean", {"d": 20}), "sparse mean, d = 1000, s = 5": ("sparse", {"d": 1000, "s": 5})}
    rows = []
    for panel, (problem, kw) in panels.items():
        for n in ns.tolist():
            for T in Ts:
                r = kent.rate(problem, n=n, T=int(T), alpha=1.0, **kw)
                rows.append({"panel": panel, "n_alpha2": float(n), "T": int(T), "user_level_lower": r.lower,
                             "item_level_nT": r.item_level, "log10_ratio": math.log10(r.lower / r.item_level),
                             "regime": r.regime, "confidence": r.confidence, "reconstructed": r.reconstructed,
                             "within_assumptions": n >= FIG1_ASSUMPTIONS[problem][0](**kw)})
    return FigureData(rows, {"panels": {p: {"problem": v[0], **v[1]} for p, v in panels.items()}, "alpha": 1.0,
                             "constants": "c = C = c1 = c2 = 1 (rates, not bounds)",
                             "colour": "log10(user-level lower rate / item-level rate with nT users), "
                                       "diverging at 0, each side scaled to its panel's extreme",
                             "assumptions": {p: FIG1_ASSUMPTIONS[v[0]][1] for p, v in panels.items()},
                             "sparse_form": "[R] min{s, (s/T) psi(d/(n alpha^2))}, psi(u) = min{u, 1 + log(1 v u)}: "
                                            "equal to the item-level min{s, sd/(n alpha^2)} at T = 1"})


def _draw_kent_fig1(data):
    fig, axes = new_figure(2, 3.4, 3.0)
    for i, (ax, panel) in enumerate(zip(axes, dict.fromkeys(r["panel"] for r in data.rows))):
        x, T, z, ok = (data.column(k, panel=panel) for k in ("n_alpha2", "T", "log10_ratio", "within_assumptions"))
        xs, Ts = np.unique(x), np.unique(T)
        Z = z.reshape(len(xs), len(Ts))
        # each side of 0 scaled to its own extreme, so a region where user-level wins by a fraction
        # of a decade is as visible as one where it loses by several
        lo, hi = float(Z.min()), max(float(Z.max()), 1e-9)
        wins = lo < -1e-12
        norm = TwoSlopeNorm(0.0, vmin=lo, vmax=hi) if wins else Normalize(-hi, hi)
        mesh = ax.pcolormesh(Ts, xs, Z, shading="nearest", cmap="PuOr_r", norm=norm, rasterized=True)
        inside = ok.reshape(Z.shape).astype(bool)
        if wins:
            ax.contour(Ts, xs, np.where(inside, Z, np.nan), levels=[-1e-9], colors="k", linewidths=0.6)
        out = np.ma.masked_where(inside, np.ones(Z.shape))
        ax.pcolormesh(Ts, xs, out, shading="nearest", cmap=ListedColormap(["0.75"]), vmin=0, vmax=1, rasterized=True)
        ax.set_xscale("log")
        ax.set_yscale("log")
        # the notes go under the panel, never on the data
        notes = [f"grey: {data.meta['assumptions'][panel]} fails" + ("; dashed: ratio = 1" if wins else "")]
        if data.column("reconstructed", panel=panel)[0]:
            notes.append("[R] reconstructed rate: min{s, (s/T)·ψ(d/nα²)},\nψ(u) = min{u, 1 + log u}")
        ax.set_xlabel("\n".join(["T (samples per user)"] + notes), fontsize=7)
        ax.set_ylabel("nα²")
        ax.set_title(f"({'ab'[i]}) {panel}")
        ticks = np.unique(np.trunc(100 * np.r_[np.linspace(lo, 0, 3) if wins else [0.0], np.linspace(0, hi, 4)]) / 100)
        cb = fig.colorbar(mesh, ax=ax, ticks=ticks, label="log₁₀(user-level / item-level rate)\n< 0: user-level better")
        if not wins:
            cb.ax.set_ylim(0, hi)
    return fig


register("kent-fig1", "Kent et al.: user-level vs item-level (same nT) phase diagrams",
          "Kent et al. (2024); docs/kent.md §5, §8, §10")((_kent_fig1, _draw_kent_fig1))


def _kent_pt(quick, constants, seed, executor):
    Ts = np.unique(np.rint(np.geomspace(1, 1e22, 30 if quick else 200)).astype(object))
    cases: dict[str, tuple[str, dict[str, Any]]] = {"univariate mean": ("mean", {}),
                                                     "Sobolev density, β = 1": ("density", {"beta": 1.0})}
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
    axes[0].set_ylabel("minimax rate of the MSE (constants 1)")
    legend_below(fig, axes, ncol=4)
    return fig


register("kent-phase-transition", "Kent et al.: rate vs T with the phase transition T†",
          "Kent et al. (2024), Theorems 6, 9; docs/kent.md §5, §9")((_kent_pt, _draw_kent_pt))


# =========================================================================== the phase transition, simulated

PT_SIM_K = 200.0  # the cap constant K: T* = min{T, e^{nα²/(Kd)}}
PT_SIM_CURVES = {  # label: (n, d), α = 1 (so nα² = n)
    "univariate, nα² = 2000": (2000, 1),
    "univariate, nα² = 3000": (3000, 1),
    "univariate, nα² = 4000": (4000, 1),
    "ℓ∞ mean, d = 4, nα² = 8000": (8000, 4),
}


def _theta(d: int) -> list:
    return [0.3, -0.5, 0.1, 0.7][:d] if d <= 4 else list(np.linspace(-0.6, 0.6, d))


def _kent_pt_simulated(quick, constants, seed, executor):
    Ts = np.unique(np.rint(np.geomspace(1, 1e12, 13 if quick else 16)).astype(np.int64))
    reps = 32 if quick else 128
    alpha, K = 1.0, PT_SIM_K
    rows, meta = [], {}
    for c, (label, (n, d)) in enumerate(PT_SIM_CURVES.items()):
        x = n * alpha * alpha
        log_cap = x / (K * d)
        for i, T in enumerate(Ts.tolist()):
            r = checks.kent_risk("linf", n=n, T=T, alpha=alpha, theta=_theta(d), K=K, reps=reps, seed=[seed, c, i],
                                 executor=executor)
            u = x * r.settings["T_star"]
            rate = kent.rate("mean", n=n, T=T, alpha=alpha, d=d)
            rows.append({"curve": label, "n": n, "d": d, "T": T, "T_star": r.settings["T_star"], "mse": r.risk,
                         "stderr": r.stderr, "procedure_rate": d * d * math.log(u) / u, "lower_rate": rate.lower,
                         "upper_rate": rate.upper})
        T_, mse, se = (np.array([r[k] for r in rows if r["curve"] == label], dtype=float) for k in ("T", "mse", "stderr"))
        below, above = T_ <= math.exp(log_cap) / 20, T_ >= 20 * math.exp(log_cap)
        fit_b, fit_a = checks.loglog_slope(T_[below], mse[below], se[below]), checks.loglog_slope(T_[above], mse[above], se[above])
        prate = np.array([r["procedure_rate"] for r in rows if r["curve"] == label])
        low = np.array([r["lower_rate"] for r in rows if r["curve"] == label])
        ratio = mse / prate
        meta[label] = {"n": n, "d": d, "T_dagger": math.exp(log_cap), "log_T_dagger": log_cap,
                       "slope_below": fit_b[0], "slope_below_stderr": fit_b[1],
                       "slope_above": fit_a[0], "slope_above_stderr": fit_a[1],
                       "rate_slope_below": float(np.polyfit(np.log(T_[below]), np.log(prate[below]), 1)[0]),
                       "fitted_C": float(np.average(ratio, weights=(mse / se) ** 2)),
                       "fitted_c_lower": float(np.min(mse / low)),
                       "lower_T_dagger_c1_1_log": kent.phase_transition("mean", n=n, alpha=alpha, d=d).log_lower}
    return FigureData(rows, {"alpha": alpha, "K": K, "replications": reps, "curves": meta,
                             "T_dagger": "e^{nα²/(Kd)}: where T reaches the cap T* of eq. (25)/(31)",
                             "procedure_rate_formula": "d² log(nT*α²)/(nT*α²), eq. (80), times the fitted C",
                             "lower_rate_formula": "c{min(d, d²/(nTα²)) ∨ e^{-c1 nα²/d}}, c = c1 = 1 (Theorem 6)",
                             "slope_ranges": "below: T <= T†/20; above: T >= 20 T†"})


def _draw_kent_pt_simulated(data):
    fig, axes = new_figure(2, 3.4, 3.4)
    curves = data.meta["curves"]
    for ax, group in zip(axes, ("univariate", "ℓ∞")):
        labels = [lab for lab in curves if lab.startswith(group)]
        for i, label in enumerate(labels):
            col = PALETTE[i]
            T, mse, se, rate, low = (data.column(k, curve=label) for k in ("T", "mse", "stderr", "procedure_rate", "lower_rate"))
            m = curves[label]
            ax.fill_between(T, np.maximum(mse - 2 * se, mse * 1e-3), mse + 2 * se, color=col, alpha=0.3, lw=0)
            ax.loglog(T, mse, "o-", ms=2.5, color=col, label=f"simulated, {label.split(', ', 1)[1]}")
            # the fitted rates of different curves may coincide: each carries its curve's own marker
            ax.loglog(T, m["fitted_C"] * rate, ":", marker=MARKERS[i + 1], ms=2, color="0.25", lw=1.0)
            ax.loglog(T, m["fitted_c_lower"] * low, "--", marker=MARKERS[i + 1], ms=2, color=col, lw=0.8)
            ax.axvline(m["T_dagger"], color=col, lw=0.8, ls="-.")
            ax.text(m["T_dagger"] * 1.3, 0.97 - 0.07 * i, "T†", color=col, fontsize=7, va="top",
                    transform=ax.get_xaxis_transform())
        ax.set_xlabel("T (samples per user)")
        ax.set_title(f"{'univariate mean' if group == 'univariate' else 'ℓ∞-ball mean, d = 4'}: simulated MSE vs T")
    axes[0].set_ylabel("simulated MSE E‖θ̂ − θ‖² (± 2 s.e.)")
    K = data.meta["K"]
    fig.supxlabel(f"K = {K:g} is the estimator's tuning constant: each user uses T* = min{{T, e^(nα²/(Kd))}} samples "
                  f"(eq. (25)),\nso the plateau starts at T† = e^(nα²/(Kd)), set by K, not at the minimax T† "
                  f"(e^(c₁nα²/d), c₁ unknown)", fontsize=7)
    handles = [Line2D([], [], color="0.25", ls=":", lw=1.0, label="C·d² log(nT*α²)/(nT*α²), C fitted"),
               Line2D([], [], color="k", ls="--", lw=0.8, label="ĉ·lower rate (c₁ = 1)"),
               Line2D([], [], color="k", ls="-.", lw=0.8, label="T† = e^(nα²/(Kd))")]
    for ax in axes:
        ax.set_ylim(data.column("mse").min() / 1e5, data.column("mse").max() * 5)
        ax.legend(handles=ax.get_legend_handles_labels()[0] + handles, loc="lower left", fontsize=5.5)
    return fig


register("kent-phase-transition-simulated", "Kent et al.: the phase transition in T, simulated (MSE vs T, ±2 s.e.)",
         "Kent et al. (2024), §§3.1–3.2, Theorem 6, eq. (80); Kent notes §5, §6, §12",
         monte_carlo=True)((_kent_pt_simulated, _draw_kent_pt_simulated))

