r"""Rameshwar & Tandon's worst-case-optimal clipping in the central model (values in :math:`[0, U]`).

Each user's sum is projected onto the window :math:`[Um/2 - T/2, Um/2 + T/2]`: a variant of Theorem III.1,
which clips each sample to :math:`[a_\ell, b_\ell]`.  The two have the same sensitivity and agree when a user's
values are all equal (the synthetic law); otherwise the projection moves each user's sum no more than the
per-sample clipping does (it is the nearest point of the same window).  The error is measured against the
dataset's own mean.  The paper's :math:`T_\varepsilon` (the
:math:`\lceil 2/\varepsilon\rceil`-th largest sum bound) minimises the worst-case :math:`E|\text{error}|`;
the width recommended here minimises the exact RMSE of :mod:`~bounds.advise.tuning` (on the data's values,
or on the named synthetic law), and :math:`T_\varepsilon` is shown beside it.  Everything is :math:`O(J)`
after sorting.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import numpy as np

from .. import tuning
from ..inputs import Histogram
from ..results import MethodResult, Quantity, Settings, exact
from ..searches import law_optimal_error
from ...numerics import format_value
from ...quantities import BY_NAME

MODEL, NAME = "central", "Rameshwar-Tandon"


def threshold(h: Histogram, U: float, eps: float) -> float:
    r""":math:`T_\varepsilon`: ``U`` times the :math:`\lceil 2/\varepsilon\rceil`-th largest count (0 if that exceeds N).

    .. math:: T_\varepsilon = U\,m_{(\lceil 2/\varepsilon \rceil)}

    Source: Rameshwar and Tandon (2025), §III-B, Theorem III.1.

    Examples
    --------
    >>> threshold(Histogram.of_counts([1, 5, 3, 2]), 10, 1.0)
    30.0
    """
    rank = math.ceil(2 / Fraction(eps))
    if rank > h.n_users:
        return 0.0
    T = Fraction(U) * h.largest(rank)
    if T > Fraction(sys.float_info.max):
        raise ValueError(f"U: {format_value(U)} times the count {h.largest(rank):,} is past the float range "
                         f"({sys.float_info.max:.4g}); give U in a smaller unit")
    return float(T)


def worst_case_terms(h: Histogram, T: np.ndarray, *, U: float, eps: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Worst-case clipping bias and Laplace noise s.d. at thresholds ``T``, both relative to ``U``.

    Symmetric clipping at :math:`T` moves a user's sum by at most :math:`\tfrac12(Um - T)_+`, all in
    one direction when every sample is ``U``; the release's sensitivity is :math:`\min(T, Um^*)/\sum m`:

    .. math:: b(T) = \frac{\sum_\ell \tfrac12 (U m_\ell - T)_+}{U \sum_\ell m_\ell},\qquad
              \sigma(T) = \frac{\sqrt2\,\min(T, U m^*)}{\varepsilon\, U \sum_\ell m_\ell},\qquad
              \mathrm{RMSE}_{wc} = \sqrt{b^2 + \sigma^2}

    Source: Rameshwar and Tandon (2025), Lemma III.1 (the bias term) and eq. (14) (the Laplace release).

    Examples
    --------
    >>> b, s = worst_case_terms(Histogram.of_counts([1, 4]), np.array([10.0]), U=10, eps=1)
    >>> round(float(b[0]), 6), round(float(s[0]), 6)  # (40 − 10)/2 / 50, √2·10/50
    (0.3, 0.282843)
    """
    d, c = h.counts.astype(float), h.users.astype(float)
    total = float(h.records)
    v = U * d
    suffix_cv = np.concatenate([np.cumsum((c * v)[::-1])[::-1], [0.0]])
    suffix_c = np.concatenate([np.cumsum(c[::-1])[::-1], [0.0]])
    k = np.searchsorted(v, T, side="right")  # users with U d > T
    bias = 0.5 * (suffix_cv[k] - suffix_c[k] * T) / (U * total)
    noise = math.sqrt(2) * np.minimum(T, v[-1]) / (eps * U * total)
    return bias, noise


def evaluate(h: Histogram, s: Settings, seed: int, data: tuning.CentralData | None = None) -> MethodResult:
    r"""The window width ``T`` minimising the exact RMSE, with the paper's :math:`T_\varepsilon` beside.

    Each user's sum is projected onto :math:`[Um/2 - T/2,\ Um/2 + T/2]` (a user's mean onto
    :math:`[U/2 - T/(2m),\ U/2 + T/(2m)]`) and the mean released with Laplace noise of scale
    :math:`\min(T, Um^*)/(\varepsilon M)`.  The paper's :math:`T_\varepsilon` minimises the worst-case
    :math:`E|\text{error}|` (:math:`E^{OPT}`); the tuned ``T`` minimises the RMSE reported here.

    .. math:: E^{OPT} = \frac{\sum_\ell \tfrac12(Um_\ell - T_\varepsilon)_+ + T_\varepsilon/\varepsilon}{\sum_\ell m_\ell}

    Source: Rameshwar and Tandon (2025), Lemma III.1, Theorem III.1, eq. (14).

    Examples
    --------
    >>> r = evaluate(Histogram.of_counts([1, 2, 9] * 10), Settings(eps=2.5, reps=0, inverse=False), 0)
    >>> r.details["T_eps"], r.parameter
    (9.0, 'T')
    """
    from . import capping  # noqa: PLC0415 - capping imports nothing from here

    U, eps = s.U, s.eps
    d = capping.data_of(h, s, data)
    T_eps = threshold(h, U, eps)
    T, _ = capping.tune("window", d, eps)
    bias_wc, noise = worst_case_terms(h, np.array([T, T_eps]), U=U, eps=eps)
    rmse_wc = math.hypot(float(bias_wc[0]), float(noise[0]))
    e_opt = float(law_optimal_error(h, U=U, eps=eps))
    worst = Quantity("worst case over data in [0, U]", "bound", "RMSE", rmse_wc * U, rmse_wc,
                     "exact worst case over datasets in [0, U] of the RMSE at the tuned T: clipping bias ⊕ Laplace noise")
    at_paper = float(tuning.rel(float(tuning.window(d, eps)(T_eps)[0]), d))
    paper = Quantity("RMSE at the paper's T_ε", "exact", "RMSE", at_paper * U, at_paper,
                     f"T_ε = {exact(T_eps)} (U × the ⌈2/ε⌉-th largest count) minimises the worst-case E|error| "
                     f"(Lemma III.1), not the RMSE; on {d.description}")
    e_opt_q = Quantity("E_OPT (Lemma III.1 at T_ε)", BY_NAME["rameshwar_e_opt"].kind, "E|error|", e_opt, None,
                       "worst case over datasets in [0, U] of E|error|, exact (the paper's metric)")

    def action(t: float) -> str:
        tt = "the drawn T" if not math.isfinite(t) else f"T = {exact(t)}"
        return (f"{tt}: project each user's sum S onto the window [U·m/2 − T/2, U·m/2 + T/2] (m: the user's "
                "records), i.e. its mean onto [U/2 − T/(2m), U/2 + T/(2m)]; release Σ projected sums / Σm + "
                "Laplace(min(T, U·m*) / (ε·Σm))")
    return capping.bounded("window", NAME, "Rameshwar & Tandon (2025), Lemma III.1, Theorem III.1", "T", h, s, seed,
                           data, worst=worst, action=action, others=(paper, e_opt_q),
                           details={"T_eps": T_eps, "T_eps_rmse_rel": at_paper,
                                    "T_eps_worst_rmse_rel": math.hypot(float(bias_wc[1]), float(noise[1])),
                                    "sensitivity": min(T_eps, U * float(h.counts[-1])) / h.records, "E_opt": e_opt,
                                    "paper_choice": "T_ε minimises the worst-case E|error| (Lemma III.1)",
                                    "bias_wc_rel": float(bias_wc[0]), "noise_rel": float(noise[0]),
                                    "m_star": int(h.counts[-1])})


def curves(h: Histogram, s: Settings, result: MethodResult, data: tuning.CentralData | None = None) -> tuple:
    """The exact RMSE / U against the window width ``T`` (its minimum marked) and against ε (tuned at each).

    Examples
    --------
    >>> h = Histogram.of_counts([1, 2, 9] * 10)
    >>> c = curves(h, Settings(), evaluate(h, Settings(reps=0, inverse=False), 0))
    >>> [x.x_name for x in c]
    ['window width T (per-user sum)', 'eps']
    """
    from . import capping  # noqa: PLC0415

    return capping.curves(h, s, result, data, kind="window")
