r"""The papers' figures: a registry of (compute, draw) pairs behind ``bounds figures``.

Each figure ``ID`` has a function computing its data (rows of plain values, the
CSV) and one drawing it; :func:`run` writes ``ID.png``, ``ID.pdf``, ``ID.csv`` and
``ID.json`` (parameters, constants preset, seed, replications, package version,
wall time).  ``quick=True`` shrinks grids and replications for CI; the defaults
are the papers' settings.  Monte Carlo figures take a seed and any
``concurrent.futures`` executor (``--jobs``); their CSVs do not depend on it.

Figures are drawn with matplotlib's object interface (no pyplot state), one shared
style, the Okabe–Ito colour-blind-safe palette, no LaTeX.

Examples
--------
>>> sorted(REGISTRY)[:3]
['cummings-example1', 'dame-fig1a-bottom', 'dame-fig1a-top']
"""

from __future__ import annotations

import csv
import json
import math
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from tqdm.auto import tqdm

from . import __version__, cummings, dame, kent, rameshwar, simulate, sizes
from .numerics import PaperAssumptionWarning

__all__ = ["FigureData", "FigureSpec", "REGISTRY", "run", "fig1a_laws", "PALETTE", "STYLE"]

PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]  # Okabe–Ito
STYLE = {
    "figure.dpi": 150, "savefig.dpi": 200, "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8,
    "legend.fontsize": 7, "xtick.labelsize": 7, "ytick.labelsize": 7, "lines.linewidth": 1.3,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE), "axes.grid": True, "grid.alpha": 0.3,
    "legend.frameon": False, "pdf.fonttype": 42, "text.usetex": False,
}
SEED = 20240521


@dataclass(frozen=True)
class FigureData:
    """A figure's data: ``rows`` (one dict per plotted point, the CSV) and ``meta`` (the JSON)."""

    rows: list
    meta: dict

    def column(self, key, **where) -> np.ndarray:
        """Values of ``key`` in the rows matching ``where`` (in row order)."""
        return np.array([r[key] for r in self.rows if all(r[k] == v for k, v in where.items())])


@dataclass(frozen=True)
class FigureSpec:
    """A registered figure: its ``compute(quick, constants, seed, executor)`` and ``draw(data)``."""

    id: str
    title: str
    source: str
    compute: Callable
    draw: Callable
    monte_carlo: bool = False


REGISTRY: dict[str, FigureSpec] = {}


def _register(id, title, source, monte_carlo=False):
    def deco(pair):
        compute, draw = pair
        REGISTRY[id] = FigureSpec(id, title, source, compute, draw, monte_carlo)
        return pair

    return deco


def _figure(ncols=1, width=3.4, height=2.4):
    fig = Figure(figsize=(width * ncols, height), layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, axes


# =========================================================================== DAME Figure 1a

FIG1A_N_ALPHA2 = 500.0


def _fig1a_grids(quick: bool) -> dict:
    k = 20 if quick else 100
    return {
        "poisson": np.geomspace(0.1, 1000.0, k),  # λ1
        "uniform": np.unique(np.rint(np.geomspace(1, 1000, k))).astype(int) if quick else np.arange(1, 1001, 10),
        "binomial": np.geomspace(0.1, 1000.0, k),  # λ3: p = λ3 / 1000
    }


def fig1a_laws(family: str, grid) -> list:
    r"""The laws of one Figure 1a top panel: :math:`\mathcal P(\lambda_1)`, :math:`\mathcal U\{1..2\lambda_2-1\}`,
    :math:`\mathcal B(1000, \lambda_3/1000)` (Poisson and binomial zero-truncated).

    .. math:: M_\lambda \in \{\mathcal P(\lambda),\ \mathcal U\{1, \dots, 2\lambda - 1\},\ \mathcal B(1000, \lambda/1000)\}

    Source: ``001_ac3274d7ce9a5d72.txt`` §4.2, Figure 1a (top).

    Examples
    --------
    >>> fig1a_laws("uniform", [1, 11])[1]
    uniform(lo=1, hi=21)
    """
    if family == "poisson":
        return [sizes.poisson(float(v)) for v in grid]
    if family == "uniform":
        return [sizes.uniform(1, 2 * int(v) - 1) for v in grid]
    if family == "binomial":
        return [sizes.binomial(1000, float(v) / 1000) for v in grid]
    raise ValueError(f"unknown Figure 1a family {family!r}")


def _curve_rows(cv, extra: list[dict]) -> list:
    return [{**extra[i], "n_alpha2": float(cv.n_alpha2[i]), "lower": float(cv.lower[i]),
             "log_lower": float(cv.log_lower[i]), "argmax": float(cv.argmax[i]), "upper": float(cv.upper[i]),
             "log_upper": float(cv.log_upper[i]), "m_tilde": int(cv.m_tilde[i])} for i in range(len(cv.lower))]


def _captured(f, *args, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        out = f(*args, **kw)
    return out, sorted({str(w.message) for w in caught})


def _fig1a_top(quick, constants, seed, executor):
    rows, notes = [], []
    for fam, grid in _fig1a_grids(quick).items():
        laws = fig1a_laws(fam, grid)
        cv, n = _captured(dame.curve, laws, n_alpha2=FIG1A_N_ALPHA2, constants=constants)
        notes += n
        rows += _curve_rows(cv, [{"family": fam, "parameter": float(g), "law": repr(law)} for g, law in zip(grid, laws)])
    return FigureData(rows, {"n_alpha2": FIG1A_N_ALPHA2, "grids": {k: [float(v) for v in g] for k, g in _fig1a_grids(quick).items()},
                             "size_laws": "poisson and binomial zero-truncated; uniform on {1, ..., 2*lambda2 - 1}",
                             "warnings": sorted(set(notes))})


def _draw_fig1a_top(data):
    fig, axes = _figure(3, 2.3)
    labels = {"poisson": ("Poisson(λ₁)", "λ₁"), "uniform": ("Uniform{1, …, 2λ₂−1}", "λ₂"),
              "binomial": ("Binomial(1000, λ₃/1000)", "λ₃")}
    for ax, (fam, (label, symbol)) in zip(axes, labels.items()):
        x, lo, up = (data.column(k, family=fam) for k in ("parameter", "lower", "upper"))
        pos = up > 0
        ax.loglog(x[pos], up[pos], ":", color=PALETTE[1], label="upper bound (Thm 2)")
        ax.loglog(x, lo, "-", color=PALETTE[0], label="lower bound (Thm 1)")
        ax.set_xlabel(symbol)
        ax.set_title(label)
    axes[0].set_ylabel("worst-case risk bound")
    axes[0].legend()
    return fig


_register("dame-fig1a-top", "DAME Fig. 1a (top): bounds vs the law's parameter, nα² = 500",
          "001_ac3274d7ce9a5d72.txt §4.2, Fig. 1a; eqs. (10)-(12)")((_fig1a_top, _draw_fig1a_top))


def _fig1a_bottom(quick, constants, seed, executor):
    grid = np.geomspace(1.0, 1e6, 20 if quick else 100)
    cv, notes = _captured(dame.curve, sizes.poisson(5.0), n_alpha2=grid, constants=constants)
    rows = _curve_rows(cv, [{"law": "poisson(5), zero-truncated"}] * len(grid))
    return FigureData(rows, {"law": "poisson(lam=5), zero-truncated", "n_alpha2_grid": [float(g) for g in grid],
                             "warnings": notes})


def _draw_fig1a_bottom(data):
    fig, (ax,) = _figure()
    x, lo, up = (data.column(k) for k in ("n_alpha2", "lower", "upper"))
    pos = up > 0
    ax.loglog(x[pos], up[pos], ":", color=PALETTE[1], label="upper bound (Thm 2)")
    ax.loglog(x, lo, "-", color=PALETTE[0], label="lower bound (Thm 1)")
    ax.set_xlabel("nα²")
    ax.set_ylabel("worst-case risk bound")
    ax.set_title("Poisson(5) dataset sizes")
    ax.legend()
    return fig


_register("dame-fig1a-bottom", "DAME Fig. 1a (bottom): bounds vs nα², Poisson(5)",
          "001_ac3274d7ce9a5d72.txt §4.2, Fig. 1a; eqs. (10)-(12)")((_fig1a_bottom, _draw_fig1a_bottom))


# =========================================================================== DAME Figure 1b


def _fig1b_law(rho: float):
    if rho == 0:
        return sizes.point(10**5)
    if rho == 1:
        return sizes.point(10**6)
    return sizes.finite({10**5: 1 - rho, 10**6: rho})


def _fig1b(quick, constants, seed, executor):
    rhos = np.linspace(0, 1, 3 if quick else 10)
    reps = 64 if quick else 1000
    n, alpha = (2000 if quick else 10**4), 22 / 35
    rows = []
    for theta in (0.0, 0.4):
        for rho in rhos:
            res = simulate.compare(theta=theta, sizes=_fig1b_law(float(rho)), n=n, alpha=alpha, reps=reps,
                                   seed=[seed, int(round(rho * 1000)), int(theta * 10)], constants="paper",
                                   executor=executor)
            for name, r in res.items():
                sq = (r.estimates - theta) ** 2
                rows.append({"theta": theta, "rho": float(rho), "estimator": name, "mse": r.mse, "stderr": r.stderr,
                             "median": float(np.median(sq)), "q10": float(np.quantile(sq, 0.1)),
                             "q90": float(np.quantile(sq, 0.9)), "bias": r.bias, "bias_stderr": r.bias_stderr,
                             "m_tilde": r.settings["m_tilde"], "kent_T": r.settings["kent_T"]})
    return FigureData(rows, {"n": n, "alpha": alpha, "rhos": [float(r) for r in rhos], "replications": reps,
                             "sizes": "M(1e5) = 1 - rho, M(1e6) = rho", "thetas": [0.0, 0.4],
                             "mu": "two-point on {-1, 1} with mean theta", "kent_baseline": "T = min dataset size",
                             "m_tilde": "Theorem 2 with the paper constants (as the official DAME code)"})


def _draw_fig1b(data):
    fig, axes = _figure(2, 3.0)
    names = {"duchi": "Duchi et al. (2018)", "kent": "Kent et al. (2024)", "dame": "DAME"}
    for ax, theta in zip(axes, (0.0, 0.4)):
        for color, (est, label) in zip(PALETTE, names.items()):
            sel = dict(theta=theta, estimator=est)
            rho = data.column("rho", **sel)
            ax.semilogy(rho, data.column("median", **sel), "o-", ms=3, color=color, label=label)
            ax.fill_between(rho, data.column("q10", **sel), data.column("q90", **sel), color=color, alpha=0.2, lw=0)
        ax.set_xlabel("ρ  (M(10⁵) = 1 − ρ, M(10⁶) = ρ)")
        ax.set_title(f"θ = {theta:g}: median squared error, 10–90% band")
    axes[0].set_ylabel("(θ̂ − θ)²")
    axes[0].legend()
    return fig


_register("dame-fig1b", "DAME Fig. 1b: risk of Duchi, Kent and DAME vs ρ",
          "001_ac3274d7ce9a5d72.txt §4.2, Fig. 1b; Algorithm 1", monte_carlo=True)((_fig1b, _draw_fig1b))


# =========================================================================== Kent


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
    fig, axes = _figure(2, 3.0, 2.6)
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


_register("kent-fig1", "Kent et al.: user-level vs item-level (same nT) phase diagrams",
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
    fig, axes = _figure(2, 3.0)
    for ax, label in zip(axes, data.meta["phase_transitions"]):
        T = data.column("T", problem=label)
        ax.loglog(T, data.column("upper", problem=label), ":", color=PALETTE[1], label="upper rate")
        ax.loglog(T, data.column("lower", problem=label), "-", color=PALETTE[0], label="lower rate")
        ax.loglog(T, data.column("item_level_nT", problem=label), "--", color=PALETTE[2], label="item-level, nT users")
        ax.axvline(data.meta["phase_transitions"][label]["T_dagger_lower"], color="k", lw=0.8, ls="-.", label="T†")
        ax.set_xlabel("T (samples per user)")
        ax.set_title(f"{label}, nα² = 40")
    axes[0].set_ylabel("minimax rate (constants 1)")
    axes[0].legend()
    return fig


_register("kent-phase-transition", "Kent et al.: rate vs T with the phase transition T†",
          "004_b0e838126fb19414.txt Theorems 6, 9; kent.md §5, §9")((_kent_pt, _draw_kent_pt))


# =========================================================================== Rameshwar & Tandon

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
    fig, (ax,) = _figure()
    eps = data.column("eps")
    ax.plot(eps, data.column("opt"), "-", label="OPT (Thm III.1 + Lemma III.1)")
    ax.errorbar(eps, data.column("akmv"), yerr=4 * data.column("akmv_stderr"), fmt="o--", ms=3, label="AKMV (±4 s.e.)")
    ax.set_xscale("log")
    ax.set_xlabel("ε")
    ax.set_ylabel("worst-case error")
    ax.set_title("geometric collection, U = 65")
    ax.legend()
    return fig


_register("rameshwar-fig1", "Rameshwar & Tandon Fig. 1: worst-case errors, OPT vs AKMV",
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
    fig, (ax,) = _figure()
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


_register("rameshwar-fig2", "Rameshwar & Tandon Fig. 2: average-case errors, geometric collection",
          "002_b4d2a69fdbee0cc3.txt §IV-D, Fig. 2", monte_carlo=True)((
    lambda q, c, s, e: _rt_average(rameshwar.geometric(6), "uniform", q, s, e, "geometric collection, M = 6"),
    _draw_rt_average))
_register("rameshwar-fig3", "Rameshwar & Tandon Fig. 3: average-case errors, extreme-valued collection",
          "002_b4d2a69fdbee0cc3.txt §IV-D, Fig. 3", monte_carlo=True)((
    lambda q, c, s, e: _rt_average(rameshwar.extreme(101, 10), "gaussian", q, s, e,
                                   "extreme-valued collection, L = 101, m* = 10"),
    lambda d: _draw_rt_average(d, log=True)))


# =========================================================================== Cummings Example 1

EXAMPLE1_CLAIMS = {  # exponent of n, ignoring logarithms; the claimed order
    "nonprivate_sd": (-0.5, "Θ(1/√(n log n))"),
    "naive_privacy_error": (0.0, "O(1/(ε log n))"),
    "truncation_privacy_error": (-0.5, "Θ(1/(ε√(n log n)))"),
    "uniform_sd": (-0.5, "Ω(1/√n)"),
}


def _cummings_ex1(quick, constants, seed, executor):
    ns = [2**j for j in (range(6, 11) if quick else range(8, 17))]
    rows = []
    for n in ns:
        ex = cummings.example1(n)
        rows.append({"n": n, **{k: getattr(ex, k) for k in EXAMPLE1_CLAIMS}, "T_star": ex.T_star})
    logn = np.log(ns)
    slopes = {k: float(np.polyfit(logn, np.log([r[k] for r in rows]), 1)[0]) for k in EXAMPLE1_CLAIMS}
    return FigureData(rows, {"eps": 1.0, "p": 0.5, "sigma_p": "1/sqrt(n)", "k_i": "ceil(n/i)", "beta": 0.05,
                             "fitted_slopes": slopes, "claims": {k: v[1] for k, v in EXAMPLE1_CLAIMS.items()}})


def _draw_cummings_ex1(data):
    fig, (ax,) = _figure(1, 3.6, 2.8)
    n = data.column("n")
    labels = {"nonprivate_sd": "non-private s.d.", "naive_privacy_error": "naive privacy error",
              "truncation_privacy_error": "truncation privacy error", "uniform_sd": "best uniform-weight s.d."}
    for k, label in labels.items():
        slope = data.meta["fitted_slopes"][k]
        ax.loglog(n, data.column(k), "o-", ms=3, label=f"{label}: slope {slope:.2f}, claim {EXAMPLE1_CLAIMS[k][1]}")
    ax.set_xlabel("n (users)")
    ax.set_ylabel("error")
    ax.set_title("Cummings et al. Example 1 (ε = 1)")
    ax.legend(fontsize=6)
    return fig


_register("cummings-example1", "Cummings et al. Example 1: the four scalings",
          "003_5683c9a67e132c7f.txt Example 1")((_cummings_ex1, _draw_cummings_ex1))


# =========================================================================== running


def _write(spec: FigureSpec, data: FigureData, out: Path, meta: dict) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    csv_path = out / f"{spec.id}.csv"
    keys = list(dict.fromkeys(k for r in data.rows for k in r))
    with csv_path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=keys)
        w.writeheader()
        w.writerows(data.rows)
    paths.append(csv_path)
    with matplotlib.rc_context(STYLE):
        fig = spec.draw(data)
        fig.suptitle(spec.title, fontsize=8)
        for ext in ("png", "pdf"):
            p = out / f"{spec.id}.{ext}"
            fig.savefig(p, metadata={"CreationDate": None} if ext == "pdf" else None)
            paths.append(p)
    json_path = out / f"{spec.id}.json"
    json_path.write_text(json.dumps(meta, indent=2, default=float) + "\n")
    paths.append(json_path)
    return paths


def run(ids=None, *, quick: bool = False, out="figures", jobs: int = 1, constants="unit", seed: int = SEED,
        progress: bool = True) -> dict:
    r"""Compute, draw and write the registered figures; returns ``{id: (FigureData, [paths])}``.

    ``constants`` applies to the DAME figures; ``"unit"`` is the default because it
    reproduces the paper's parallel upper and lower curves in Figure 1a (with ``"paper"``
    constants :math:`\tilde m = 1` and the upper bound is capped at 4 at nα² = 500).
    ``jobs > 1`` runs Monte Carlo replications on that many processes (same results).

    .. math:: \text{for each ID: } \text{compute} \to \text{ID.csv},\ \text{draw} \to \text{ID.png, ID.pdf},\ \text{meta} \to \text{ID.json}

    Source: the figures of ``001_ac3274d7ce9a5d72.txt``, ``002_b4d2a69fdbee0cc3.txt``,
    ``003_5683c9a67e132c7f.txt`` and ``004_b0e838126fb19414.txt`` (see each spec's ``source``).

    Examples
    --------
    >>> import tempfile
    >>> res = run(["dame-fig1a-bottom"], quick=True, out=tempfile.mkdtemp(), progress=False)
    >>> sorted(p.suffix for p in res["dame-fig1a-bottom"][1])
    ['.csv', '.json', '.pdf', '.png']
    """
    ids = list(REGISTRY) if not ids else list(ids)
    for i in ids:
        if i not in REGISTRY:
            raise ValueError(f"unknown figure {i!r}; choose from {', '.join(sorted(REGISTRY))}")
    constants = dame._constants(constants)
    out = Path(out)
    executor = ProcessPoolExecutor(jobs) if jobs > 1 else None
    results = {}
    try:
        for fid in tqdm(ids, desc="figures", disable=None if progress else True):
            spec = REGISTRY[fid]
            start = time.perf_counter()
            data = spec.compute(quick, constants, seed, executor)
            meta = {"id": fid, "title": spec.title, "source": spec.source, "quick": quick,
                    "constants": constants.describe() if fid.startswith("dame") else None,
                    "seed": seed if spec.monte_carlo else None, **data.meta,
                    "bounds_version": __version__, "wall_time_s": round(time.perf_counter() - start, 3)}
            results[fid] = (data, _write(spec, data, out, meta))
    finally:
        if executor is not None:
            executor.shutdown()
    return results
