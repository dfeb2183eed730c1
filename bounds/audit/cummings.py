"""Audit checks of Cummings, Feldman, McMillan and Talwar (2022): one function per registered check ID."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Callable

import numpy as np
import sympy as sp

from .. import checks, cummings
from .core import AuditResult, register, result


# =========================================================================== Cummings


@register("cummings.lemma_2_1", "Cummings et al. (2022), Lemma 2.1, eq. (2)",
        "Var(D(k)) = p(1−p)/k + (1 − 1/k)σ_p² and σ_p² ≤ p(1−p)", "symbolic")
def lemma_2_1(formula: sp.Expr | None = None) -> AuditResult:
    p, s2, k = sp.symbols("p sigma_p2 k", positive=True)
    target = formula if formula is not None else (p - p**2) / k + (1 - 1 / k) * s2
    same = sp.simplify(cummings.user_variance_symbolic() - target) == 0
    # σ_p² <= p(1-p): E[p_i²] <= E[p_i] for p_i in [0, 1]
    bound = sp.simplify((p - p**2) - ((s2 + p**2) - p**2) - (p - (s2 + p**2))) == 0
    return result("cummings.lemma_2_1", "holds" if same and bound else "fails", derivation=str(cummings.user_variance_symbolic()))


@register("cummings.eq5_laplace_variance", "Cummings et al. (2022), eq. (5)",
        "the privacy term of Var(p̂_ideal) is max_i w_i²|b_i − a_i|²/ε² (eq. (5) uses b² for Lap(b))", "Monte Carlo")
def eq5_laplace_variance(reps: int = 6000, seed: int = 5) -> AuditResult:
    c = checks.check_cummings([60, 30, 20, 10, 6, 3, 2, 1], p=0.4, sigma_p2=0.02, eps=0.7, reps=reps, seed=seed)
    printed_off = abs(c.simulated - c.theory["eq5_printed"]) > 4 * c.stderr
    status = "discrepancy" if c.holds and printed_off else ("fails" if not c.holds else "inconclusive")
    return result("cummings.eq5_laplace_variance", status, simulated=[c.simulated, c.stderr], **c.theory)


@register("cummings.cor_5_5_min", "Cummings et al. (2022), Corollary 5.5 and the text before it",
        "Corollary 5.5 bounds the homogeneous (σ_p → 0) case by the k*-term", "exact")
def cor_5_5_min() -> AuditResult:
    k = cummings.example1_counts(200)
    rows = [{"sigma_p2": s2, **vars(cummings.lower_bound(k, eps=1.0, sigma_p2=s2))} for s2 in (0.0, 1e-8, 1e-4, 0.02)]
    vanishes = rows[0]["value"] == 0.0 and rows[0]["privacy_term"] > 0
    return result("cummings.cor_5_5_min", "discrepancy" if vanishes else "holds", rows=rows,
                   note="min{k*-term, σ_p²/n} is 0 at σ_p = 0 while the k*-term is positive")


EXAMPLE1_LOG2_N = tuple(range(10, 42, 2))  # n = 2^10 .. 2^40
EXAMPLE1_TOP = 6  # the last six points (n = 2^30 .. 2^40) decide convergence


@functools.lru_cache(maxsize=2)
def _example1_table(log2_n: tuple) -> tuple:
    return tuple(cummings.example1(2**j) for j in log2_n)


@register("cummings.example1_scalings", "Cummings et al. (2022) Example 1",
        "the four claimed scalings of Example 1", "exact grouped sums (n = 2^10 .. 2^40) + fitted exponents")
def example1_scalings(claims: dict | None = None) -> AuditResult:
    r"""Normalises each quantity by its claimed order, :math:`r(n) = q(n)/\text{claim}(n)`, and asks whether
    :math:`r` converges over :math:`n = 2^{10} .. 2^{40}` (exact, :func:`bounds.cummings.example1`).

    On the top of the range (:math:`n \ge 2^{30}`) two slopes are fitted: ``power_slope`` of
    :math:`\log r` against :math:`\log n` (a wrong power of ``n``) and ``log_exponent`` ``b`` of
    :math:`\log r` against :math:`\log\log n` (a missing :math:`(\log n)^b`).  A claim is
    *consistent* if :math:`|b| \le 0.15` (Θ), :math:`b \le 0.15` (O) or :math:`b \ge -0.15` (Ω);
    *log-factor drift* if :math:`r` keeps drifting by such a factor while the power of ``n`` is right
    (:math:`|\text{power\_slope}| \le 0.05`); *inconsistent* otherwise.  The check holds if all are
    consistent, is a discrepancy if some drift by a log factor (the fitted rate is reported),
    fails if a power of ``n`` is wrong.
    """
    ns = np.array([2.0**j for j in EXAMPLE1_LOG2_N])
    exs = _example1_table(EXAMPLE1_LOG2_N)
    logn = np.log(ns)
    top = slice(len(ns) - EXAMPLE1_TOP, None)
    rates = claims or {  # claimed order (as a function of n), kind of claim, exponents of n and log n
        "nonprivate_sd": (lambda n: 1 / np.sqrt(n * np.log(n)), "theta"),
        "naive_privacy_error": (lambda n: 1 / np.log(n), "big-o"),
        "truncation_privacy_error": (lambda n: 1 / np.sqrt(n * np.log(n)), "theta"),
        "uniform_sd": (lambda n: 1 / np.sqrt(n), "omega"),
    }
    rows = []
    for key, (f, kind) in rates.items():
        q = np.array([getattr(e, key) for e in exs])
        log_r = np.log(q / f(ns))
        power = float(np.polyfit(logn[top], log_r[top], 1)[0])
        b = float(np.polyfit(np.log(logn[top]), log_r[top], 1)[0])
        off = {"theta": abs(b), "big-o": b, "omega": -b}[kind]
        verdict = ("consistent" if off <= 0.15 else "log-factor drift" if abs(power) <= 0.05 else "inconsistent")
        rows.append({"quantity": key, "claim": kind, "ratio_at_2^10": float(np.exp(log_r[0])),
                     "ratio_at_2^30": float(np.exp(log_r[top][0])), "ratio_at_2^40": float(np.exp(log_r[-1])),
                     "power_slope": power, "log_exponent": b,
                     "raw_slope": float(np.polyfit(logn[top], np.log(q[top]), 1)[0]), "verdict": verdict})
    verdicts = [r["verdict"] for r in rows]
    status = ("holds" if all(v == "consistent" for v in verdicts)
              else "fails" if "inconsistent" in verdicts else "discrepancy")
    drift = {r["quantity"]: f"claim × (log n)^{r['log_exponent']:.2f}" for r in rows if r["verdict"] == "log-factor drift"}
    return result("cummings.example1_scalings", status, n=[2 ** EXAMPLE1_LOG2_N[0], 2 ** EXAMPLE1_LOG2_N[-1]],
                   rows=rows, fitted_rates=drift)




@register("cummings.lemma_5_2_weights", "Cummings et al. (2022), Lemma 5.2",
        "inverse-variance weights minimise Var(Σ w_i p̂_i) over weights summing to 1", "exact rationals")
def lemma_5_2_weights(weights: Callable | None = None) -> AuditResult:
    r"""On 20 random rational variance vectors, the variance :math:`\sum w_i^2\sigma_i^2` of
    :func:`bounds.cummings.nonprivate_weights` equals :math:`1/\sum_i \sigma_i^{-2}` exactly and is not above
    that of 50 random rational weight vectors each (Cauchy–Schwarz makes it the minimum)."""
    rng = np.random.default_rng(52)
    rule = weights or (lambda s2: [Fraction(1) / v for v in s2])
    worst_gap, exact = Fraction(0), True
    for _ in range(20):
        s2 = [Fraction(int(v), 97) for v in rng.integers(1, 500, size=int(rng.integers(2, 8)))]
        w = rule(s2)
        tot = sum(w, Fraction(0))
        w = [v / tot for v in w]
        var = sum((wi * wi * si for wi, si in zip(w, s2)), Fraction(0))
        exact &= var == 1 / sum((1 / si for si in s2), Fraction(0))
        for _ in range(50):
            r = [Fraction(int(v)) for v in rng.integers(1, 100, size=len(s2))]
            t = sum(r, Fraction(0))
            other = sum(((ri / t) ** 2 * si for ri, si in zip(r, s2)), Fraction(0))
            worst_gap = min(worst_gap, other - var)
    float_rule = np.allclose(cummings.nonprivate_weights([1.0, 2.0, 4.0]), np.array([4, 2, 1]) / 7)
    ok = exact and worst_gap >= 0 and float_rule
    return result("cummings.lemma_5_2_weights", "holds" if ok else "fails",
                   domain="20 rational variance vectors (2..7 users) x 50 competing weight vectors",
                   identity_exact=exact, min_competitor_excess=float(worst_gap), package_weights_match=bool(float_rule))


def _truncated_paper(s2: np.ndarray, T: float) -> np.ndarray:
    r"""Lemma 5.2's weights transcribed: :math:`\min\{1/\sigma_i^2, T/\sigma_i\}` normalised."""
    raw = np.array([min(1 / v, T / math.sqrt(v)) for v in s2])
    return raw / raw.sum()


def _variance(w: np.ndarray, s2: np.ndarray, eps: float) -> float:
    """Var(Σ w_i p̂_i + Lap(max_i w_iσ_i/ε)) = Σ w_i²σ_i² + 2(max_i w_iσ_i)²/ε² (Lemma 5.2's estimator)."""
    return float(np.sum(w * w * s2) + 2 * np.max(w * np.sqrt(s2)) ** 2 / eps**2)


@register("cummings.lemma_5_2_truncated", "Cummings et al. (2022), Lemma 5.2, eq. (4)",
          "with the Laplace term max_i w_iσ_i/ε, the weights min{1/σ_i², T/σ_i} (normalised) minimise the variance "
          "for some T; the package's private_weights are these", "exact transcription + convex QP",
          domain="instances: 12 random variance vectors (3..6 users, sigma_i^2 in [0.01, 4]) x eps in {0.3, 1, 3}",
          methods=("exact", "exhaustive"),
          faults=(("truncation at T instead of T/sigma_i (weights min{1/sigma_i^2, T})",
                   {"weights": lambda s2, T: np.minimum(1 / s2, T) / np.minimum(1 / s2, T).sum()}),))
def lemma_5_2_truncated(weights: Callable | None = None) -> AuditResult:
    r"""(i) :func:`bounds.cummings.private_weights` against the transcription ``_truncated_paper`` (relative
    1e-12); (ii) the best variance over T of the truncated weights (a scan of 1201 values of log T plus the
    breakpoints :math:`T = 1/\sigma_i`, then a bounded refinement) against the minimum over all weights
    of the simplex, a convex problem solved in epigraph form (minimise :math:`\sum w_i^2\sigma_i^2 + 2t^2/\varepsilon^2`
    s.t. :math:`w_i\sigma_i \le t`, :math:`\sum w_i = 1`, :math:`w \ge 0`; SLSQP from three starts).  Holds if the
    truncated family reaches the minimum within a relative 1e-5."""
    from scipy.optimize import minimize, minimize_scalar

    rule = weights or _truncated_paper
    rng = np.random.default_rng(52)
    rows: list[dict] = []
    worst_impl, worst_gap = 0.0, -math.inf
    for _ in range(12):
        s2 = rng.uniform(0.01, 4.0, size=int(rng.integers(3, 7)))
        sd = np.sqrt(s2)
        for T in (0.3, 1.0, 5.0):
            worst_impl = max(worst_impl, float(np.max(np.abs(cummings.private_weights(s2, T) - _truncated_paper(s2, T))
                                                     / _truncated_paper(s2, T))))
        for eps in (0.3, 1.0, 3.0):
            def fam(logT: float) -> float:
                return _variance(rule(s2, math.exp(logT)), s2, eps)
            grid = np.concatenate([np.linspace(-8, 8, 1201), -np.log(sd)])
            k = int(np.argmin([fam(v) for v in grid]))
            ref = minimize_scalar(fam, bounds=(grid[k] - 0.01, grid[k] + 0.01), method="bounded",
                                  options={"xatol": 1e-12})
            best_family = min(fam(grid[k]), float(ref.fun))
            m = len(s2)
            cons = [{"type": "eq", "fun": lambda z: np.sum(z[:m]) - 1},
                    {"type": "ineq", "fun": lambda z: z[m] - z[:m] * sd}]
            best = math.inf
            for start in (np.full(m, 1 / m), (1 / s2) / np.sum(1 / s2), (1 / sd) / np.sum(1 / sd)):
                z0 = np.append(start, np.max(start * sd))
                r = minimize(lambda z: np.sum(z[:m] ** 2 * s2) + 2 * z[m] ** 2 / eps**2, z0, method="SLSQP",
                             bounds=[(0, 1)] * m + [(0, None)], constraints=cons,
                             options={"ftol": 1e-15, "maxiter": 500})
                if r.success:
                    best = min(best, _variance(np.clip(r.x[:m], 0, None) / np.sum(np.clip(r.x[:m], 0, None)), s2, eps))
            gap = (best_family - best) / best
            worst_gap = max(worst_gap, gap)
            if len(rows) < 6:
                rows.append({"users": m, "eps": eps, "best_truncated": best_family, "best_over_simplex": best,
                             "relative_gap": gap})
    ok = worst_impl <= 1e-12 and worst_gap <= 1e-5
    return result("cummings.lemma_5_2_truncated", "holds" if ok else "fails", package_vs_paper=worst_impl,
                  max_relative_gap=worst_gap, rows=rows)
