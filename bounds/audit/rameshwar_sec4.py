"""Audit checks of Rameshwar and Tandon (2025), eq. (7) and §IV: the symmetric clipping's error (7), the
sensitivities (14)–(15), §IV-B's collections, E_AKMV and Figures 1–3.  One function per registered check ID;
§II–III (Theorem III.1, LP (8), eq. (12), Lemma III.1, the KKT multipliers) are in :mod:`bounds.audit.rameshwar`."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

import numpy as np

from .. import rameshwar, simulate
from .core import AuditResult, register, result
from .rameshwar import rt_cases, t_eps


# =========================================================================== eq. (7), (14)-(15), §IV


def _eq7(m, U: Fraction, eps: Fraction, alpha: list[Fraction], two: int = 2) -> Fraction:
    r"""(7) transcribed: :math:`(\sum_\ell \alpha_\ell + \max_\ell (Um_\ell - 2\alpha_\ell)/\varepsilon)/\sum_\ell m_\ell`."""
    return ((sum(alpha, Fraction(0)) + max(U * int(v) - two * a for v, a in zip(m, alpha)) / eps)
            / sum(int(v) for v in m))


@register("rameshwar.eq7", "Rameshwar and Tandon (2025), eq. (7) (before the proof of Theorem III.1)",
          "for a symmetric clipping a = α_ℓ/m_ℓ = U − b, Lemma III.1's error is (7); its minimum over α is E_OPT",
          "exact rationals",
          domain="instances: 6 collections (geometric M = 6, extreme, 4 random), U = 65, eps in {3/10, 3/7, 3/2}, "
                 "8 random rational alpha vectors each plus Theorem III.1's alpha",
          methods=("exact",),
          faults=(("the factor 2 of U m_l - 2 alpha_l dropped", {"two": 1}),))
def eq7(two: int = 2) -> AuditResult:
    r"""For each instance, Lemma III.1's error of the symmetric clipping :math:`a_\ell = \alpha_\ell/m_\ell`,
    :math:`b_\ell = U - a_\ell` evaluated by the package (:func:`bounds.rameshwar.worst_case_error`, relative
    1e-12) against (7) transcribed here; and (7) at Theorem III.1's :math:`\alpha` against the package's
    :math:`E^{OPT}` (exact), never below it at the random :math:`\alpha`."""
    rng = np.random.default_rng(7)
    worst, below, at_opt = 0.0, 0, True
    for m, U in [(mm, Fraction(65)) for mm, _ in rt_cases()[:6]]:
        for eps in (Fraction(3, 10), Fraction(3, 7), Fraction(3, 2)):  # 2/eps not an integer: a unique optimal rank
            e_opt = rameshwar.optimal_error(m, U=U, eps=eps, exact=True)
            T = t_eps(m, U, eps)[1]  # transcribed, not the package's
            star = [max((U * int(v) - T) / 2, Fraction(0)) for v in m]
            at_opt &= _eq7(m, U, eps, star, two) == e_opt
            for _ in range(8):
                alpha = [Fraction(int(rng.integers(0, 1000)), 1000) * U * int(v) / 2 for v in m]
                val = _eq7(m, U, eps, alpha, two)
                a = np.array([float(x / int(v)) for x, v in zip(alpha, m)])
                pkg = rameshwar.worst_case_error(m, U=float(U), eps=eps, a=a, b=float(U) - a)
                worst = max(worst, abs(pkg - float(val)) / float(val))
                below += val < e_opt
    ok = worst <= 1e-12 and at_opt and below == 0
    return result("rameshwar.eq7", "holds" if ok else "fails", max_relative_gap_to_lemma_iii_1=worst,
                  equals_E_OPT_at_theorem_alpha=at_opt, random_alpha_below_E_OPT=below)


def _sens_paper(m, U: Fraction, eps: Fraction, T: Fraction, clip: Callable | None = None) -> dict:
    r"""(14)–(15) transcribed with Theorem III.1's clipping: :math:`Um^*/\sum m`,
    :math:`\max_\ell m_\ell(b_\ell - a_\ell)/\sum m`, :math:`T/\sum m`."""
    n = sum(int(v) for v in m)
    Te = t_eps(m, U, eps)[1]
    spread = [int(v) * (min((U * int(v) + Te) / (2 * int(v)), U) - max((U * int(v) - Te) / (2 * int(v)), Fraction(0)))
              for v in m]
    return {"vanilla": U * max(int(v) for v in m) / n, "opt_wc": max(spread) / n, "akmv": T / n}


def _sens_brute(m, U: Fraction, eps: Fraction, T: Fraction) -> dict:
    r"""The user-level sensitivities by brute force: one user's samples moved between their extremes (0+ and U),
    through the package's clipping (:func:`bounds.rameshwar.clipping`) and AKMV's clip of the user sum at ``T``."""
    n = sum(int(v) for v in m)
    c = rameshwar.clipping(m, U=U, eps=eps)
    out = {"vanilla": Fraction(0), "opt_wc": Fraction(0), "akmv": Fraction(0)}
    for v, lo, hi in zip(m, c.a, c.b):
        k = int(v)
        lo_q, hi_q = Fraction(lo), Fraction(hi)
        for x, y in ((Fraction(0), U), (U, Fraction(0))):  # every sample at one end, then at the other
            out["vanilla"] = max(out["vanilla"], abs(k * x - k * y) / n)
            cx, cy = min(max(x, lo_q), hi_q), min(max(y, lo_q), hi_q)
            out["opt_wc"] = max(out["opt_wc"], abs(k * cx - k * cy) / n)
            out["akmv"] = max(out["akmv"], abs(min(k * x, T) - min(k * y, T)) / n)
    return out


@register("rameshwar.eq14_15", "Rameshwar and Tandon (2025), eqs. (14)–(15), §IV-D",
          "the user-level sensitivities of f, f* and ĝ_T are Um*/Σm, max_ℓ Σ_j(b − a)/Σm and T/Σm", "exact",
          domain="instances: geometric M = 4, extreme (L = 11, m* = 5), [3, 2, 1], U = 65, eps in {1/5, 1, 4}, "
                 "T in {0, T_eps, U m*} (AKMV's T lies in [0, U m*])",
          methods=("exact", "exhaustive"),
          faults=(("Delta_f* with the unclipped spread U m* (clipping ignored)",
                   {"formula": lambda m, U, eps, T: {**_sens_paper(m, U, eps, T),
                                                     "opt_wc": U * max(int(v) for v in m) / sum(int(v) for v in m)}}),))
def eq14_15(formula: Callable = _sens_paper) -> AuditResult:
    r"""(14)–(15) transcribed (``formula``) against the sensitivities found by moving one user's samples between
    their extremes (exact rationals, the package's clipping), and the package's
    :func:`bounds.rameshwar.sensitivities` against both (relative 1e-12)."""
    rows: list[dict] = []
    ok = True
    for m in (rameshwar.geometric(4), rameshwar.extreme(11, 5), np.array([3, 2, 1])):
        U = Fraction(65)
        for eps in (Fraction(1, 5), Fraction(1), Fraction(4)):
            Te = Fraction(rameshwar.threshold(m, U=U, eps=eps, exact=True))
            for T in (Fraction(0), Te, U * int(max(m))):
                paper, brute = formula(m, U, eps, T), _sens_brute(m, U, eps, T)
                pkg = rameshwar.sensitivities(m, U=float(U), eps=eps, T=float(T))
                same = all(paper[k] == brute[k] for k in brute)
                pkg_ok = all(abs(pkg[k] - float(brute[k])) <= 1e-12 * max(1.0, float(brute[k])) for k in brute)
                ok &= same and pkg_ok
                if len(rows) < 6 or not (same and pkg_ok):
                    rows.append({"L": len(m), "eps": str(eps), "T": str(T), **{k: str(v) for k, v in brute.items()},
                                 "formula_matches": same, "package_matches": pkg_ok})
    return result("rameshwar.eq14_15", "holds" if ok else "fails", rows=rows)


@register("rameshwar.collections", "Rameshwar and Tandon (2025), §IV-B",
          "geometric: L = 2^(M+1) − 1, Σm = (M+1)2^M, m* = 2^M; extreme-valued: Σm = L − 1 + m*", "exact",
          domain="instances: M = 0..12; L = 2..200 with m* = 2..12",
          methods=("exact", "exhaustive"),
          faults=(("geometric total M 2^M (the + 1 dropped)", {"total": lambda M: M * 2**M}),))
def collections(total: Callable = lambda M: (M + 1) * 2**M) -> AuditResult:
    r"""The package's :func:`bounds.rameshwar.geometric` and :func:`bounds.rameshwar.extreme` against a
    construction written here (``2^i`` users of ``2^{M-i}`` samples) and the printed counts (``total(M)`` the
    printed :math:`\sum_\ell m_\ell`)."""
    bad = []
    for M in range(13):
        g = rameshwar.geometric(M)
        built = sorted((2 ** (M - i) for i in range(M + 1) for _ in range(2**i)), reverse=True)
        if sorted(g.tolist(), reverse=True) != built or len(g) != 2 ** (M + 1) - 1 or int(g.sum()) != total(M) \
                or int(g.max()) != 2**M:
            bad.append({"M": M, "L": len(g), "total": int(g.sum()), "printed_total": total(M)})
    for L in range(2, 201, 11):
        for ms in range(2, 13):
            x = rameshwar.extreme(L, ms)
            if len(x) != L or int(x.sum()) != L - 1 + ms or sorted(x.tolist())[:-1] != [1] * (L - 1):
                bad.append({"L": L, "m*": ms, "total": int(x.sum())})
    return result("rameshwar.collections", "holds" if not bad else "fails", mismatches=bad[:5])


def _e_akmv_paper(m, U: float, eps: float, T: float, noise: float = 2.0) -> float:
    r"""§IV-C's :math:`E_{AKMV}` at a given ``T``, transcribed: :math:`\sum_\ell \max\{0, Um_\ell - T\}/\sum m +
    2T/(\varepsilon\sum m)` (``noise``: the 2 of the release at :math:`\varepsilon/2`)."""
    n = float(sum(int(v) for v in m))
    return sum(max(0.0, U * int(v) - T) for v in m) / n + noise * T / (eps * n)


@register("rameshwar.e_akmv", "Rameshwar and Tandon (2025), §IV-C (the formula of E_AKMV) and (3)",
          "E_AKMV = Σ_ℓ E max{0, Um_ℓ − T}/Σm + 2T/(εΣm): (3) for AKMV on the all-U dataset given T", "exact + quadrature",
          domain="instances: geometric M = 6 and extreme (L = 101, m* = 10), U = 65, eps in {0.1, 0.5, 2}, "
                 "T on 9 points of [0, U m*]",
          methods=("exact",),
          faults=(("noise scale T/(eps Σm) (the release at eps/2 ignored)", {"noise": 1.0}),))
def e_akmv(noise: float = 2.0) -> AuditResult:
    r"""(3) evaluated from its definition for AKMV on the all-``U`` dataset: bias :math:`|\hat g_T - f|` with
    the user sums :math:`Um_\ell` clipped at ``T``, plus :math:`E|Z_3|` of :math:`\mathrm{Lap}(2\Delta_{\hat g_T}/\varepsilon)`
    by numerical quadrature of :math:`|z|` against the Laplace density (mpmath, at scale 1, then scaled) — against the printed formula
    (``_e_akmv_paper``) and the package's :func:`bounds.rameshwar.akmv_worst_case_error` (relative 1e-9)."""
    import mpmath

    worst = 0.0
    unit = float(mpmath.quad(lambda z: abs(z) * mpmath.exp(-abs(z)) / 2, [-mpmath.inf, 0, mpmath.inf]))  # E|Lap(1)|
    for m in (rameshwar.geometric(6), rameshwar.extreme(101, 10)):
        n = float(m.sum())
        for eps in (0.1, 0.5, 2.0):
            for T in np.linspace(0, 65.0 * float(m.max()), 9):
                bias = abs(sum(min(65.0 * int(v), T) for v in m) - 65.0 * n) / n
                scale = 2 * (T / n) / eps  # Lap(Δ/(ε/2)), Δ = T/Σm (15)
                ref = bias + unit * scale  # E|Lap(b)| = b E|Lap(1)|
                paper = _e_akmv_paper(m, 65.0, eps, float(T), noise)
                pkg = rameshwar.akmv_worst_case_error(m, U=65.0, eps=eps, T=float(T))
                worst = max(worst, abs(paper - ref) / ref, abs(pkg - ref) / ref)
    return result("rameshwar.e_akmv", "holds" if worst <= 1e-9 else "fails", max_relative_gap=float(worst))


_FIG_EPS = (0.1, 0.5, 2.0)
_FIG_REPS = 400


@register("rameshwar.fig1", "Rameshwar and Tandon (2025), Figure 1 and §IV-C",
          "on the worst-case dataset E_OPT is below E_AKMV, and both decrease with ε", "exact + Monte Carlo",
          domain="instances: geometric M = 6, U = 65, eps in {0.1, 0.5, 2} (400 replications of AKMV's private T; "
                 "margins 4 standard errors)",
          methods=("exact", "Monte Carlo"),
          faults=(("E_OPT taken 3 times larger", {"opt_factor": 3}),))
def fig1(opt_factor: float = 1.0, reps: int = _FIG_REPS, seed: int = 11) -> AuditResult:
    r"""The package's :math:`E^{OPT}` (exact) and :math:`E_{AKMV}` (:func:`bounds.simulate.akmv_worst_case`, the
    mean over the private threshold with its standard error): below by more than 4 standard errors at every
    ``eps``; :math:`E^{OPT}` non-increasing; each step of :math:`E_{AKMV}` down by more than 4 combined standard
    errors."""
    m = rameshwar.geometric(6)
    rows = []
    for eps in _FIG_EPS:
        opt = opt_factor * rameshwar.optimal_error(m, U=65, eps=eps)
        akmv, se = simulate.akmv_worst_case(m, U=65, eps=eps, reps=reps, seed=seed)
        rows.append({"eps": eps, "E_OPT": opt, "E_AKMV": akmv, "stderr": se, "below": opt < akmv - 4 * se})
    dec = all(a["E_OPT"] >= b["E_OPT"] and a["E_AKMV"] - b["E_AKMV"] > 4 * math.hypot(a["stderr"], b["stderr"])
              for a, b in zip(rows, rows[1:]))
    ok = all(r["below"] for r in rows) and dec
    return result("rameshwar.fig1", "holds" if ok else "fails", rows=rows, both_decrease=dec)


def _average_case(name: str, m, samples: str, opt_factor: float, little: float, reps: int, seed: int,
                  levels: tuple = _FIG_EPS) -> AuditResult:
    rows = []
    for eps in levels:
        out = simulate.rameshwar_errors(m, U=65, eps=eps, samples=samples, reps=reps, seed=seed)
        opt = opt_factor * rameshwar.optimal_error(m, U=65, eps=eps)
        (lap, se_l), (ak, se_a) = out["laplace"], out["akmv"]
        rows.append({"eps": eps, "E_OPT_worst_case": opt, "avg_AKMV": ak, "avg_Laplace": lap, "avg_OPT_wc": out["opt_wc"][0],
                     "opt_below_akmv": opt < ak - 4 * se_a,
                     "akmv_not_better": ak > lap - 4 * math.hypot(se_l, se_a),
                     "akmv_within_factor": ak < little * lap + 4 * math.hypot(little * se_l, se_a)})
    ok = all(r["opt_below_akmv"] and r["akmv_not_better"] and r["akmv_within_factor"] for r in rows)
    return result(name, "holds" if ok else "fails", rows=rows, similar_factor=little)


@register("rameshwar.fig2", "Rameshwar and Tandon (2025), Figure 2 and §IV-D",
          "geometric collection, uniform samples: E_OPT (worst case) is below AKMV's average-case error; AKMV is "
          "similar to and a little worse than the Laplace mechanism (not better, within a factor 2)",
          "exact + Monte Carlo",
          domain="instances: geometric M = 6, U = 65, eps in {0.1, 0.5, 2}, 400 replications (margins 4 standard errors)",
          methods=("exact", "Monte Carlo"),
          faults=(("E_OPT taken 3 times larger", {"opt_factor": 3}),
                  ("'similar' read as within 0.9 of Laplace (AKMV better)", {"little": 0.9})))
def fig2(opt_factor: float = 1.0, little: float = 2.0, reps: int = _FIG_REPS, seed: int = 12) -> AuditResult:
    r"""The package's :math:`E^{OPT}` (exact) and the three mechanisms' average-case errors on uniform samples
    (:func:`bounds.simulate.rameshwar_errors`): :math:`E^{OPT}` below :math:`\bar E_{AKMV}` by 4 standard errors;
    :math:`\bar E_{AKMV}` not below :math:`\bar E_{Lap}` by 4 standard errors and not above ``little`` times it."""
    return _average_case("rameshwar.fig2", rameshwar.geometric(6), "uniform", opt_factor, little, reps, seed)


@register("rameshwar.fig3", "Rameshwar and Tandon (2025), Figure 3 and §IV-D",
          "extreme-valued collection (L = 101, m* = 10), projected Gaussian samples: the trend of Figure 2",
          "exact + Monte Carlo",
          domain="instances: extreme L = 101, m* = 10, U = 65, eps in {0.1, 0.5, 1}, 400 replications (margins 4 "
                 "standard errors; at eps = 2 E_OPT = 2.95 against about 3.7: too close for 400 replications)",
          methods=("exact", "Monte Carlo"),
          faults=(("E_OPT taken 3 times larger", {"opt_factor": 3}),))
def fig3(opt_factor: float = 1.0, little: float = 2.0, reps: int = _FIG_REPS, seed: int = 13) -> AuditResult:
    r"""As ``rameshwar.fig2`` on the extreme-valued collection with projected Gaussian samples."""
    return _average_case("rameshwar.fig3", rameshwar.extreme(101, 10), "gaussian", opt_factor, little, reps, seed,
                         (0.1, 0.5, 1.0))
