r"""DAME (Pla, Richard, Vono): Figure 1a (bounds vs the law's parameter and vs nα²) and Figure 1b (simulated risks)."""

from __future__ import annotations

import numpy as np

from .. import dame, simulate, sizes
from .core import PALETTE, FigureData, captured, new_figure, register

__all__ = ["FIG1A_N_ALPHA2", "fig1a_laws"]

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




def _fig1a_top(quick, constants, seed, executor):
    rows, notes = [], []
    for fam, grid in _fig1a_grids(quick).items():
        laws = fig1a_laws(fam, grid)
        cv, n = captured(dame.curve, laws, n_alpha2=FIG1A_N_ALPHA2, constants=constants)
        notes += n
        rows += _curve_rows(cv, [{"family": fam, "parameter": float(g), "law": repr(law)} for g, law in zip(grid, laws)])
    return FigureData(rows, {"n_alpha2": FIG1A_N_ALPHA2, "grids": {k: [float(v) for v in g] for k, g in _fig1a_grids(quick).items()},
                             "size_laws": "poisson and binomial zero-truncated; uniform on {1, ..., 2*lambda2 - 1}",
                             "warnings": sorted(set(notes))})


def _draw_fig1a_top(data):
    fig, axes = new_figure(3, 2.3)
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


register("dame-fig1a-top", "DAME Fig. 1a (top): bounds vs the law's parameter, nα² = 500",
          "001_ac3274d7ce9a5d72.txt §4.2, Fig. 1a; eqs. (10)-(12)")((_fig1a_top, _draw_fig1a_top))


def _fig1a_bottom(quick, constants, seed, executor):
    grid = np.geomspace(1.0, 1e6, 20 if quick else 100)
    cv, notes = captured(dame.curve, sizes.poisson(5.0), n_alpha2=grid, constants=constants)
    rows = _curve_rows(cv, [{"law": "poisson(5), zero-truncated"}] * len(grid))
    return FigureData(rows, {"law": "poisson(lam=5), zero-truncated", "n_alpha2_grid": [float(g) for g in grid],
                             "warnings": notes})


def _draw_fig1a_bottom(data):
    fig, (ax,) = new_figure()
    x, lo, up = (data.column(k) for k in ("n_alpha2", "lower", "upper"))
    pos = up > 0
    ax.loglog(x[pos], up[pos], ":", color=PALETTE[1], label="upper bound (Thm 2)")
    ax.loglog(x, lo, "-", color=PALETTE[0], label="lower bound (Thm 1)")
    ax.set_xlabel("nα²")
    ax.set_ylabel("worst-case risk bound")
    ax.set_title("Poisson(5) dataset sizes")
    ax.legend()
    return fig


register("dame-fig1a-bottom", "DAME Fig. 1a (bottom): bounds vs nα², Poisson(5)",
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
    fig, axes = new_figure(2, 3.0)
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


register("dame-fig1b", "DAME Fig. 1b: risk of Duchi, Kent and DAME vs ρ",
          "001_ac3274d7ce9a5d72.txt §4.2, Fig. 1b; Algorithm 1", monte_carlo=True)((_fig1b, _draw_fig1b))


# =========================================================================== Kent


# =========================================================================== DAME regime maps


def _regime_axes(quick: bool) -> dict:
    k = 16 if quick else 60
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

    fig, axes = new_figure(2, 3.3, 2.6)
    fig = axes[0].figure
    fig.set_size_inches(6.8, 5.0)
    grid = fig.add_gridspec(2, 2)
    for ax in axes:
        ax.remove()
    labels = {"poisson": ("Poisson(λ)", "λ", lambda p: p), "zipf": ("Zipf(s)", "s − 2", lambda p: p - 2)}
    for row, (fam, (name, xlabel, xmap)) in enumerate(labels.items()):
        p = np.unique(data.column("parameter", family=fam))
        x = np.unique(data.column("n_alpha2", family=fam))
        gap = data.column("log10_gap", family=fam).reshape(p.size, x.size)
        mt = data.column("m_tilde", family=fam).reshape(p.size, x.size)
        for col, (vals, title, norm, cmap) in enumerate((
                (gap, f"{name}: log₁₀(UB / LB), paper constants", None, "viridis"),
                (mt, f"{name}: m̃ (Theorem 2)", LogNorm(vmin=1, vmax=max(2, mt.max())), "magma"))):
            ax = fig.add_subplot(grid[row, col])
            mesh = ax.pcolormesh(xmap(p), x, vals.T, shading="nearest", norm=norm, cmap=cmap)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel(xlabel)
            ax.set_ylabel("nα²")
            ax.set_title(title + ("\nbelow the white line UB is the trivial 4" if row == 0 and col == 0 else ""))
            ax.grid(False)
            fig.colorbar(mesh, ax=ax)
            capped = (data.column("regime", family=fam) == "capped").reshape(p.size, x.size)
            if capped.any() and not capped.all():  # where eq. (11) is the trivial 4
                ax.contour(xmap(p), x, capped.T.astype(float), levels=[0.5], colors="white", linewidths=0.8)
    return fig


register("dame-regimes", "DAME regime maps: log UB/LB gap and m̃ over Poisson λ × nα² and Zipf s × nα²",
          "001_ac3274d7ce9a5d72.txt Theorems 1-2, eqs. (10)-(12); Corollary 3")((_regimes, _draw_regimes))
