r"""Rameshwar & Tandon: Figure 1 (worst-case errors) and Figures 2–3 (average-case errors).

Errors are drawn on log–log axes (they span two to three decades), every curve with its own
marker and line style.  Figures 2–3 add the exact worst-case error of Theorem III.1's clipping
(the paper: it is "significantly lower than even the average-case error of the AKMV
mechanism"), thin lines where the threshold :math:`T_\varepsilon` jumps (the source of the
non-monotone average-case errors), and a panel of the AKMV/Laplace ratio ("quite similar to,
and a little worse than" Laplace).
"""

from __future__ import annotations

import math

import numpy as np

from .. import rameshwar, simulate
from .core import MARKERS, PALETTE, FigureData, legend_below, new_figure, register

__all__ = ["RT_U"]

RT_U = 65.0
"""The bound U on every sample (samples lie in [0, U]) of the Rameshwar and Tandon (2025) figures, §IV-C–D."""
_STYLE = {  # key: (label, colour, marker, line style)
    "opt": ("OPT: Thm III.1 in Lemma III.1 (exact)", PALETTE[1], MARKERS[0], "-"),
    "lp": ("LP (8) optimum, HiGHS", "k", MARKERS[3], "None"),
    "akmv_wc": ("AKMV on the worst-case dataset (± 4 s.e.)", PALETTE[2], MARKERS[1], "--"),
    "laplace": ("Laplace (± 4 s.e.)", PALETTE[0], MARKERS[0], "-"),
    "opt_wc": ("OPT-worst-case (± 4 s.e.)", PALETTE[1], MARKERS[1], "--"),
    "akmv": ("AKMV (± 4 s.e.)", PALETTE[2], MARKERS[2], ":"),
    "opt_worst_case": ("worst-case error of OPT (exact)", "k", "None", "-"),
}


def _eps_grid(quick):
    return np.geomspace(0.02, 5.0, 6 if quick else 25)


def _jumps(ax, eps, T) -> None:
    """Thin vertical lines halfway (in log ε) between grid points where :math:`T_\\varepsilon` changes."""
    eps, T = np.asarray(eps, dtype=float), np.asarray(T, dtype=float)
    first = True
    for i in np.flatnonzero(np.diff(T) != 0):
        ax.axvline(math.sqrt(eps[i] * eps[i + 1]), color="0.6", lw=0.6, ls=(0, (1, 2)),
                   label="T_ε changes" if first else None)  # plain text: mathtext would embed a second font
        first = False


def _rt_fig1(quick, constants, seed, executor):
    m = rameshwar.geometric(6)
    reps = 200 if quick else 10**4
    rows = []
    for i, eps in enumerate(_eps_grid(quick)):
        mean, se = simulate.akmv_worst_case(m, U=RT_U, eps=float(eps), reps=reps, seed=[seed, i])
        rows.append({"eps": float(eps), "opt": rameshwar.optimal_error(m, U=RT_U, eps=float(eps)),
                     "lp": rameshwar.lp_optimum(m, U=RT_U, eps=float(eps)).value, "akmv": mean, "akmv_stderr": se,
                     "T_eps": rameshwar.threshold(m, U=RT_U, eps=float(eps))})
    return FigureData(rows, {"collection": "geometric, M = 6", "U": RT_U, "replications": reps,
                             "akmv_rule": "eps' = eps'' = eps/2, rank ceil(1/eps'') (Sec. IV-A step 2)"})


def _draw_rt_fig1(data):
    fig, (ax,) = new_figure(1, 6.0, 2.8)
    eps = data.column("eps")
    for key, col in (("opt", "opt"), ("lp", "lp")):
        label, color, marker, ls = _STYLE[key]
        ax.plot(eps, data.column(col), color=color, marker=marker, ls=ls, ms=5 if key == "lp" else 3,
                mfc="none", label=label)
    label, color, marker, ls = _STYLE["akmv_wc"]
    ax.errorbar(eps, data.column("akmv"), yerr=4 * data.column("akmv_stderr"), color=color, marker=marker, ls=ls,
                ms=3, label=label)
    _jumps(ax, eps, data.column("T_eps"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("ε")
    ax.set_ylabel("worst-case E|error|")
    ax.set_title("geometric collection, U = 65: OPT exact, AKMV simulated")
    legend_below(fig, [ax], ncol=2)
    return fig


register("rameshwar-fig1", "Rameshwar & Tandon Fig. 1: worst-case errors, OPT vs AKMV",
         "Rameshwar and Tandon (2025) §IV-C, Fig. 1", monte_carlo=True)((_rt_fig1, _draw_rt_fig1))


def _rt_average(m, samples, quick, seed, executor, label):
    reps = 200 if quick else 10**4
    rows = []
    for i, eps in enumerate(_eps_grid(quick)):
        out = simulate.rameshwar_errors(m, U=RT_U, eps=float(eps), samples=samples, reps=reps, seed=[seed, i],
                                        executor=executor)
        exact = {"opt_worst_case": rameshwar.optimal_error(m, U=RT_U, eps=float(eps)),
                 "T_eps": rameshwar.threshold(m, U=RT_U, eps=float(eps))}
        for mech_, (mean, se) in out.items():
            rows.append({"eps": float(eps), "mechanism": mech_, "error": mean, "stderr": se, **exact})
    return FigureData(rows, {"collection": label, "samples": samples, "U": RT_U, "replications": reps,
                             "preprocessing": "each user's samples replaced by their average"})


def _draw_rt_average(data):
    fig, (ax, ratio) = new_figure(2, 3.4, 3.0)
    for mech_ in ("laplace", "opt_wc", "akmv"):
        label, color, marker, ls = _STYLE[mech_]
        eps = data.column("eps", mechanism=mech_)
        ax.errorbar(eps, data.column("error", mechanism=mech_), yerr=4 * data.column("stderr", mechanism=mech_),
                    color=color, marker=marker, ls=ls, ms=3, mfc="none" if mech_ == "akmv" else color, label=label)
    eps = data.column("eps", mechanism="laplace")
    label, color, marker, ls = _STYLE["opt_worst_case"]
    ax.plot(eps, data.column("opt_worst_case", mechanism="laplace"), color=color, ls=ls, lw=0.9, label=label)
    _jumps(ax, eps, data.column("T_eps", mechanism="laplace"))
    lap, lap_se = data.column("error", mechanism="laplace"), data.column("stderr", mechanism="laplace")
    akmv, akmv_se = data.column("error", mechanism="akmv"), data.column("stderr", mechanism="akmv")
    r = akmv / lap
    ratio.errorbar(eps, r, yerr=4 * r * np.hypot(lap_se / lap, akmv_se / akmv), color=PALETTE[2], marker=MARKERS[2],
                   ls=":", ms=3, mfc="none")
    ratio.axhline(1.0, color=PALETTE[0], lw=0.9)
    for a in (ax, ratio):
        a.set_xscale("log")
        a.set_xlabel("ε")
    ax.set_yscale("log")
    ax.set_ylabel("average-case E|M(D) − f(D)|\n(simulated; OPT worst case exact)")
    ax.set_title(f"(a) {data.meta['samples']} samples: errors")
    ratio.set_ylabel("AKMV / Laplace\n(simulated E|error|)")
    ratio.set_title("(b) AKMV relative to Laplace")
    legend_below(fig, [ax], ncol=3)
    return fig


register("rameshwar-fig2", "Rameshwar & Tandon Fig. 2: average-case errors, geometric collection (M = 6)",
         "Rameshwar and Tandon (2025) §IV-D, Fig. 2", monte_carlo=True)((
    lambda q, c, s, e: _rt_average(rameshwar.geometric(6), "uniform", q, s, e, "geometric collection, M = 6"),
    _draw_rt_average))
register("rameshwar-fig3",
         "Rameshwar & Tandon Fig. 3: average-case errors, extreme-valued collection (L = 101, m* = 10)",
         "Rameshwar and Tandon (2025) §IV-D, Fig. 3", monte_carlo=True)((
    lambda q, c, s, e: _rt_average(rameshwar.extreme(101, 10), "gaussian", q, s, e,
                                   "extreme-valued collection, L = 101, m* = 10"),
    _draw_rt_average))
