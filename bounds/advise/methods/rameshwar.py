r"""Rameshwar & Tandon's worst-case-optimal clipping in the central model (values in :math:`[0, U]`).

Each user's sum is capped at :math:`T_\varepsilon` (symmetric per-record clipping, Theorem III.1); the error
is measured against the dataset's own mean.  Only users with :math:`U m > T_\varepsilon` (fewer than
:math:`\lceil 2/\varepsilon\rceil`) are clipped, so a replication draws their sums only; the others
contribute no error.  With :math:`T_\varepsilon = 0` every user's clipped mean is :math:`U/2` and the
error is one binomial.  Everything else is :math:`O(J)`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ... import mechanisms
from ..inputs import Histogram
from ..results import Curve, Inverse, MethodResult, Quantity, Settings, exact
from ..searches import law_optimal_error, rameshwar_smallest, round_up
from ..simulation import GROUPED, levels_around, summarise, timed

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
    return 0.0 if rank > h.n_users else float(Fraction(U) * h.largest(rank))


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


def evaluate(h: Histogram, s: Settings, seed: int) -> MethodResult:
    r"""Theorem III.1's clipping, :math:`E^{OPT}`, the worst-case RMSE, a grouped simulation and the inverses.

    .. math:: E^{OPT} = \frac{\sum_\ell \tfrac12(Um_\ell - T_\varepsilon)_+ + T_\varepsilon/\varepsilon}{\sum_\ell m_\ell}

    Source: Rameshwar and Tandon (2025), Lemma III.1, Theorem III.1.

    Examples
    --------
    >>> r = evaluate(Histogram.of_counts([1, 2, 9] * 10), Settings(eps=2.5, reps=0, inverse=False), 0)
    >>> r.parameter_value, r.affected
    (9.0, 0.0)
    """
    U, eps = s.U, s.eps
    N, total = h.n_users, h.records
    T = threshold(h, U, eps)
    m_cap = round(T / U)  # T_ε is U times a count
    d = h.counts.astype(float)
    a = np.maximum((U * d - T) / (2 * d), 0.0)
    b = np.minimum((U * d + T) / (2 * d), U)
    clipped = U * d > T
    affected = float(h.users[clipped].sum()) / N
    sens = float(np.max(d * (b - a))) / total
    bias_wc, noise = worst_case_terms(h, np.array([T]), U=U, eps=eps)
    rmse_wc = math.hypot(float(bias_wc[0]), float(noise[0]))
    e_opt = float(law_optimal_error(h, U=U, eps=eps))
    bound = Quantity("worst case over data in [0, U]", "bound", "RMSE", rmse_wc * U, rmse_wc,
                     "exact worst case over datasets in [0, U] of the RMSE at T_ε: clipping bias ⊕ Laplace noise")
    e_opt_q = Quantity("E_OPT (Lemma III.1 at T_ε)", "bound", "E|error|", e_opt, None,
                       "worst case over datasets in [0, U] of E|error|, exact (the paper's metric)")
    sim = None
    if s.reps > 0:
        errors, cpu = timed(lambda: _simulate(h, s, T, a, b, clipped, sens, seed))
        sim = summarise(errors, width=U, beta=s.beta, engine=GROUPED + " (clipped users' sums only)",
                        cpu=cpu, covers=f"given μ: two-point on {{0, U}} with mean U(1+θ)/2, θ = {s.theta:g}; "
                                        "error against the dataset's mean")
    inverses: tuple = ()
    if s.inverse:
        s_star = rameshwar_smallest(h, U=U, target=Fraction(s.target) * Fraction(U))
        eps_star = s_star / N
        users = max(1, math.ceil(s_star / Fraction(eps)))
        crit = f"E_OPT ≤ target·U (worst-case E|error|, target {s.target:g})"
        note = f"exact: E_OPT depends on n and ε through nε, non-increasing; nε* = {float(round_up(s_star, 6))!r} (rounded up)"
        inverses = (Inverse("eps", float(round_up(eps_star)), float(eps_star), s.target, crit,
                            note + "; ε rounded up to 4 digits"),
                    Inverse("n", users, users, s.target, crit, note + " (n users with the counts' law)"))
    m_star = int(h.counts[-1])
    n_clipped = int(h.users[clipped].sum())
    action = ("T_ε = 0: every user's mean is replaced by U/2 (ε < 2/n)" if T == 0 else
              f"cap each user's sum at T_ε = {exact(T)} (= U × {m_cap} records): clips the records of {n_clipped:,} "
              f"user(s) with more than {m_cap} records" if n_clipped else
              f"cap each user's sum at T_ε = {exact(T)} (= U × {m_cap} records): nobody holds more, nothing is clipped")
    return MethodResult(MODEL, NAME, "Rameshwar & Tandon (2025), Lemma III.1, Theorem III.1", "T_ε", T, action,
                        affected, bound, (e_opt_q,), sim, inverses,
                        details={"T_eps": T, "E_opt": e_opt, "sensitivity": sens, "users_clipped": affected,
                                 "bias_wc_rel": float(bias_wc[0]), "noise_rel": float(noise[0]), "m_star": m_star})


def _simulate(h: Histogram, s: Settings, T: float, a: np.ndarray, b: np.ndarray, clipped: np.ndarray, sens: float,
              seed: int) -> np.ndarray:
    """Errors of OPT-wc against the dataset's mean: clipped users' sums drawn, the rest exact zeros."""
    rng = np.random.default_rng(seed)
    U, R = s.U, s.reps
    q = (1 + s.theta) / 2
    bias = np.zeros(R)
    if T == 0:  # every clipped mean is U/2: the error is U/2 − U·Bin(Σm, q)/Σm
        bias += U / 2 * h.records - U * rng.binomial(h.records, q, size=R)
    else:
        for j in np.flatnonzero(clipped):
            dj, cj = int(h.counts[j]), int(h.users[j])
            xbar = U * rng.binomial(dj, q, size=(R, cj)) / dj
            bias += (dj * (np.clip(xbar, a[j], b[j]) - xbar)).sum(axis=1)
    return bias / h.records + mechanisms.laplace(sens / s.eps, rng, size=R)


def curves(h: Histogram, s: Settings, result: MethodResult) -> tuple:
    """Worst-case bias, noise and RMSE / width against the threshold ``T`` and against ε (at :math:`T_\\varepsilon`).

    Examples
    --------
    >>> h = Histogram.of_counts([1, 2, 9] * 10)
    >>> c = curves(h, Settings(), evaluate(h, Settings(reps=0, inverse=False), 0))
    >>> [x.x_name for x in c]
    ['threshold T (per-user sum)', 'eps']
    """
    U, eps = s.U, s.eps
    v = U * h.counts.astype(float)
    grid = np.unique(np.concatenate([np.geomspace(v[0] / 2, v[-1], 120), v if v.size <= 200 else v[:: v.size // 200],
                                     [result.details["T_eps"]] if result.details["T_eps"] > 0 else []]))
    bias, noise = worst_case_terms(h, grid, U=U, eps=eps)
    by_T = Curve(NAME, "threshold T (per-user sum)", tuple(grid.tolist()),
                 (("clipping bias (worst case)", tuple(bias.tolist())), ("noise (Laplace s.d.)", tuple(noise.tolist())),
                  ("total RMSE", tuple(np.hypot(bias, noise).tolist()))), "RMSE / width", "bound",
                 result.details["T_eps"] or None, f"at ε = {eps:g}; worst case over datasets in [0, U]")
    levels = levels_around(eps)
    T_at = np.array([threshold(h, U, float(e)) for e in levels])
    b2, n2 = worst_case_terms(h, T_at, U=U, eps=1.0)
    n2 = n2 / levels
    by_eps = Curve(NAME, "eps", tuple(levels.tolist()),
                   (("clipping bias (worst case)", tuple(b2.tolist())), ("noise (Laplace s.d.)", tuple(n2.tolist())),
                    ("total RMSE", tuple(np.hypot(b2, n2).tolist()))), "RMSE / width", "bound", eps,
                   "at each ε its own T_ε; worst case over datasets in [0, U]")
    return by_T, by_eps
