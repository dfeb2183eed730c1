r"""Rameshwar & Tandon: Figure 1 (worst-case errors) and Figures 2–3 (average-case errors)."""

from __future__ import annotations

import numpy as np

from .. import rameshwar, simulate
from .core import FigureData, new_figure, register

__all__ = ["RT_U"]

RT_U = 65.0


def _eps_grid(quick):
    return np.geomspace(0.02, 5.0, 6 if quick else 25)


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
                             "akmv": "eps' = eps'' = eps/2, rank ceil(1/eps'') (Sec. IV-A step 2)"})


def _draw_rt_fig1(data):
    fig, (ax,) = new_figure()
    eps = data.column("eps")
    ax.plot(eps, data.column("opt"), "-", label="OPT (Thm III.1 + Lemma III.1)")
    ax.errorbar(eps, data.column("akmv"), yerr=4 * data.column("akmv_stderr"), fmt="o--", ms=3, label="AKMV (±4 s.e.)")
    ax.set_xscale("log")
    ax.set_xlabel("ε")
    ax.set_ylabel("worst-case error")
    ax.set_title("geometric collection, U = 65")
    ax.legend()
    return fig


register("rameshwar-fig1", "Rameshwar & Tandon Fig. 1: worst-case errors, OPT vs AKMV",
          "002_b4d2a69fdbee0cc3.txt §IV-C, Fig. 1", monte_carlo=True)((_rt_fig1, _draw_rt_fig1))


def _rt_average(m, samples, quick, seed, executor, label):
    reps = 200 if quick else 10**4
    rows = []
    for i, eps in enumerate(_eps_grid(quick)):
        out = simulate.rameshwar_errors(m, U=RT_U, eps=float(eps), samples=samples, reps=reps, seed=[seed, i],
                                        executor=executor)
        for mech_, (mean, se) in out.items():
            rows.append({"eps": float(eps), "mechanism": mech_, "error": mean, "stderr": se})
    return FigureData(rows, {"collection": label, "samples": samples, "U": RT_U, "replications": reps,
                             "preprocessing": "each user's samples replaced by their average"})


def _draw_rt_average(data, log=False):
    fig, (ax,) = new_figure()
    names = {"laplace": "Laplace", "opt_wc": "OPT-worst-case", "akmv": "AKMV"}
    for mech_, label in names.items():
        eps = data.column("eps", mechanism=mech_)
        ax.errorbar(eps, data.column("error", mechanism=mech_), yerr=4 * data.column("stderr", mechanism=mech_),
                    fmt="o-", ms=3, label=label)
    ax.set_xscale("log")
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("ε")
    ax.set_ylabel("average-case error E|M(D) − f(D)|")
    ax.set_title(f"{data.meta['collection']}, {data.meta['samples']} samples")
    ax.legend()
    return fig


register("rameshwar-fig2", "Rameshwar & Tandon Fig. 2: average-case errors, geometric collection",
          "002_b4d2a69fdbee0cc3.txt §IV-D, Fig. 2", monte_carlo=True)((
    lambda q, c, s, e: _rt_average(rameshwar.geometric(6), "uniform", q, s, e, "geometric collection, M = 6"),
    _draw_rt_average))
register("rameshwar-fig3", "Rameshwar & Tandon Fig. 3: average-case errors, extreme-valued collection",
          "002_b4d2a69fdbee0cc3.txt §IV-D, Fig. 3", monte_carlo=True)((
    lambda q, c, s, e: _rt_average(rameshwar.extreme(101, 10), "gaussian", q, s, e,
                                   "extreme-valued collection, L = 101, m* = 10"),
    lambda d: _draw_rt_average(d, log=True)))
