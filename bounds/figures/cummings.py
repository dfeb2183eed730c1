r"""Cummings, Feldman, McMillan, Talwar: Example 1's four scaling laws, computed exactly to n = 2⁴⁰.

Panel (a) draws the four quantities against ``n``; panel (b) each one divided by its claimed
order, so that a claim that holds is a flat line and a missing logarithmic factor a drift (the
audit's ``cummings.example1_scalings`` decides it with fitted exponents).
"""

from __future__ import annotations

import numpy as np

from .. import cummings
from .core import MARKERS, PALETTE, FigureData, legend_below, new_figure, register

__all__ = ["EXAMPLE1_CLAIMS"]

EXAMPLE1_CLAIMS = {  # exponent of n, ignoring logarithms; the claimed order; the order as a function of n
    "nonprivate_sd": (-0.5, "Θ(1/√(n log n))", lambda n: 1 / np.sqrt(n * np.log(n))),
    "naive_privacy_error": (0.0, "O(1/(ε log n))", lambda n: 1 / np.log(n)),
    "truncation_privacy_error": (-0.5, "Θ(1/(ε√(n log n)))", lambda n: 1 / np.sqrt(n * np.log(n))),
    "uniform_sd": (-0.5, "Ω(1/√n)", lambda n: 1 / np.sqrt(n)),
}
"""Cummings et al. (2022), Example 1's scaling claims: name → (exponent of n ignoring logarithms, the claimed
order, the order as a function of n)."""
_LABELS = {"nonprivate_sd": "non-private s.d.", "naive_privacy_error": "naive privacy error",
           "truncation_privacy_error": "truncation privacy error", "uniform_sd": "best uniform-weight s.d."}


def _cummings_ex1(quick, constants, seed, executor):
    ns = [2**j for j in (range(6, 25, 2) if quick else range(8, 41, 2))]
    rows = []
    for n in ns:
        ex = cummings.example1(n)
        row = {"n": n, **{k: getattr(ex, k) for k in EXAMPLE1_CLAIMS}, "T_star": ex.T_star, "groups": ex.groups}
        row.update({f"{k}_over_claim": row[k] / float(v[2](float(n))) for k, v in EXAMPLE1_CLAIMS.items()})
        rows.append(row)
    logn = np.log(ns)
    slopes = {k: float(np.polyfit(logn, np.log([r[k] for r in rows]), 1)[0]) for k in EXAMPLE1_CLAIMS}
    return FigureData(rows, {"eps": 1.0, "p": 0.5, "sigma_p": "1/sqrt(n)", "k_i": "ceil(n/i)", "beta": 0.05,
                             "computation": "exact, grouped over the distinct k_i", "fitted_slopes": slopes,
                             "claims": {k: v[1] for k, v in EXAMPLE1_CLAIMS.items()}})


def _draw_cummings_ex1(data):
    fig, (ax, norm) = new_figure(2, 3.3, 2.7)
    n = data.column("n")
    for (k, label), color, marker in zip(_LABELS.items(), PALETTE, MARKERS):
        slope = data.meta["fitted_slopes"][k]
        ax.loglog(n, data.column(k), marker=marker, ms=3, color=color,
                  label=f"{label}: slope {slope:.2f}".replace("-", "−") + f"; claim {EXAMPLE1_CLAIMS[k][1]}")
        norm.loglog(n, data.column(f"{k}_over_claim"), marker=marker, ms=3, color=color)
    ax.set_xlabel("n (users)")
    ax.set_ylabel("exact s.d. or privacy error (ε = 1)")
    ax.set_title("(a) the four quantities")
    norm.set_xlabel("n (users)")
    norm.set_ylabel("exact quantity / claimed order")
    norm.set_title("(b) flat where the claim holds")
    legend_below(fig, [ax], ncol=2)
    return fig


register("cummings-example1", "Cummings et al. Example 1: the four scalings (kᵢ = ⌈n/i⌉, σₚ = 1/√n, p = 1/2)",
         "Cummings et al. (2022) Example 1")((_cummings_ex1, _draw_cummings_ex1))
