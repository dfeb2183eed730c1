r"""Cummings, Feldman, McMillan, Talwar: Example 1's four scaling laws."""

from __future__ import annotations

import numpy as np

from .. import cummings
from .core import FigureData, new_figure, register

__all__ = ["EXAMPLE1_CLAIMS"]

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
    fig, (ax,) = new_figure(1, 3.6, 2.8)
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


register("cummings-example1", "Cummings et al. Example 1: the four scalings",
          "003_5683c9a67e132c7f.txt Example 1")((_cummings_ex1, _draw_cummings_ex1))


# =========================================================================== running
