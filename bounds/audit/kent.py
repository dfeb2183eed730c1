"""Audit checks of Kent, Berrett and Yu (2024): one function per registered check ID."""

from __future__ import annotations

import math
from typing import Callable

import sympy as sp

from .. import kent, mechanisms
from .core import AuditResult, register, result


# =========================================================================== Kent


@register("kent.lower_bound_quote", "Pla et al. (2024), §4.2 quoting Kent et al. (2024), Theorem 6; docs/kent.md §5",
        "DAME's quote Ω(e^{−c nα²} ∧ (mnα²)^{−1}) is Kent's lower bound", "exact")
def lower_bound_quote() -> AuditResult:
    rows = []
    for n, T, a in [(1000, 10**6, 0.1), (10**4, 10, 0.05), (100, 100, 0.3)]:
        rows.append({"n": n, "T": T, "alpha": a, "kent_vee": kent.rate("mean", n=n, T=T, alpha=a).lower,
                     "dame_quote_wedge": kent.dame_quote_lower(n=n, T=T, alpha=a)})
    differ = any(not math.isclose(r["kent_vee"], r["dame_quote_wedge"]) for r in rows)
    return result("kent.lower_bound_quote", "discrepancy" if differ else "holds", rows=rows,
                   note="the ∧ form is a weaker (valid) statement; Kent's own bound has ∨")


@register("kent.lemma16", "Kent et al. (2024), Lemma 16 (docs/kent.md §7)",
        "randomised response with keep probability e^{α/(2k)}/(1+e^{α/(2k)}) on ≤k-sparse vectors is α-LDP",
        "exhaustive")
def lemma16(keep: Callable | None = None) -> AuditResult:
    rows, ok = [], True
    for k, N in [(1, 4), (2, 5), (3, 6), (3, 8)]:
        for alpha in (0.2, 22 / 35, 1.0):
            if keep is None:
                loss = mechanisms.rr_privacy_loss(N, alpha=alpha, k=k)
            else:
                pi = keep(alpha, k)
                loss = min(2 * k, N) * math.log(pi / (1 - pi))
            rows.append({"k": k, "bins": N, "alpha": alpha, "worst_log_ratio": loss})
            ok &= loss <= alpha * (1 + 1e-12) and math.isclose(loss, alpha, rel_tol=1e-9)
    return result("kent.lemma16", "holds" if ok else "fails", rows=rows)




KENT_PROBLEMS = (("mean", {"d": 1}), ("mean", {"d": 4, "ball": "linf"}), ("mean", {"d": 4, "ball": "l2"}),
                 ("sparse", {"d": 16, "s": 2}), ("density", {"beta": 1.0}))


@register("kent.rates_consistent", "Kent et al. (2024), Theorem 1, Corollary 2, Propositions 3–5, Theorems 6, 8, 9",
        "lower rate ≤ upper rate, both non-increasing in T and n, on the reconstructed forms (docs/kent.md)",
        "exhaustive over a grid (order check: the constants are reconstructions)")
def rates_consistent(rate: Callable | None = None) -> AuditResult:
    r"""Five problems × n ∈ {10², 10⁴, 10⁶} × T ∈ {1, 10, 10³, 10⁶} × α ∈ {0.1, 0.5}, with the
    reconstructed constants of :func:`bounds.kent.rate`: a lower rate above the upper one, or a rate that
    grows with T or n, would contradict the theorems' Θ statements.  ``rate`` replaces
    :func:`bounds.kent.rate` (same signature, a result with ``lower`` and ``upper``)."""
    rate = rate or kent.rate
    bad, count = [], 0
    for problem, kw in KENT_PROBLEMS:
        for alpha in (0.1, 0.5):
            prev_n = None
            for n in (10**2, 10**4, 10**6):
                prev_t = None
                for T in (1, 10, 10**3, 10**6):
                    r = rate(problem, n=n, T=T, alpha=alpha, **kw)
                    count += 1
                    if r.lower > r.upper * (1 + 1e-12):
                        bad.append({"problem": problem, **kw, "n": n, "T": T, "alpha": alpha, "why": "lower > upper"})
                    if prev_t is not None and (r.lower > prev_t[0] * (1 + 1e-12) or r.upper > prev_t[1] * (1 + 1e-12)):
                        bad.append({"problem": problem, **kw, "n": n, "T": T, "alpha": alpha, "why": "grows in T"})
                    prev_t = (r.lower, r.upper)
                r1 = rate(problem, n=n, T=10, alpha=alpha, **kw)
                if prev_n is not None and r1.upper > prev_n * (1 + 1e-12):
                    bad.append({"problem": problem, **kw, "n": n, "alpha": alpha, "why": "upper grows in n"})
                prev_n = r1.upper
    return result("kent.rates_consistent", "holds" if not bad else "fails",
                   domain="5 problems x n in {1e2, 1e4, 1e6} x T in {1, 10, 1e3, 1e6} x alpha in {0.1, 0.5}",
                   points=count, violations=bad[:5], confidence="[S] structure, [R] constants (docs/kent.md)")


@register("kent.procedure_vote", "Kent et al. (2024), §3 procedure (docs/kent.md §6), Lemma 16 with k = 3",
        "the vote's flip probability 1/(1 + e^{α/6}) makes three-bin votes α-LDP, and τ of eq. (25) is the "
        "Hoeffding radius at level 1/(nT*α²)", "exact + sympy")
def procedure_vote(divisor: int = 6) -> AuditResult:
    r"""Lemma 16 at k = 3 gives the keep probability :math:`e^{\alpha/6}/(1 + e^{\alpha/6})` (exhaustive
    worst log-ratio over bins, :func:`bounds.mechanisms.rr_privacy_loss`), and
    :math:`2e^{-T^*\tau^2/2} = 2/(nT^*\alpha^2)` for :math:`\tau = \sqrt{2\log(nT^*\alpha^2)/T^*}` (sympy)."""
    worst = max(mechanisms.rr_privacy_loss(N, alpha=a, k=3) / a for N in (6, 9) for a in (0.1, 22 / 35, 1.0))
    keep = mechanisms.rr_keep_probability(0.6, k=3)
    T, x = sp.symbols("T x", positive=True)
    tau2 = 2 * sp.log(x * T) / T
    radius = sp.simplify(2 * sp.exp(-T * tau2 / 2) - 2 / (x * T)) == 0
    ok = worst <= 1 + 1e-12 and math.isclose(keep, math.exp(0.6 / divisor) / (1 + math.exp(0.6 / divisor))) and radius
    return result("kent.procedure_vote", "holds" if ok else "fails", domain="bins N in {6, 9}, alpha in {0.1, 22/35, 1}",
                   worst_loss_over_alpha=worst, keep_at_0_6=keep, hoeffding_radius_identity=radius,
                   confidence="[V] (docs/kent.md §6)")


def _theorem6_paper(n: int, T: int, alpha: float, d: int, combine: str, log_power: int) -> tuple[float, float]:
    r"""Theorem 6 with unit constants, transcribed from ``docs/kent.md`` §5 (mpmath, 30 digits): for the
    univariate mean (d = 1) and the ℓ∞ ball,

    .. math:: \text{lower} = \min\Big(d, \frac{d^2}{nT\alpha^2}\Big) \vee e^{-n\alpha^2/d},\qquad
              \text{upper} = d \wedge \Big(\frac{d^2\log(nT\alpha^2)}{nT\alpha^2} + e^{-n\alpha^2/d}\Big)

    ``combine`` ("max" as printed) joins the lower bound's two parts; ``log_power`` (1) is the power of the
    upper bound's log factor (faults plant "min" and 0)."""
    import mpmath

    with mpmath.workdps(30):
        x = mpmath.mpf(n) * mpmath.mpf(alpha) ** 2
        xT = x * T
        poly, expo = min(mpmath.mpf(d), d * d / xT), mpmath.exp(-x / d)
        lower = max(poly, expo) if combine == "max" else min(poly, expo)
        upper = min(mpmath.mpf(d), d * d * mpmath.log(xT) ** log_power / xT + expo)
        return float(lower), float(upper)


@register("kent.theorem6_mean", "Kent et al. (2024), Theorem 6, eq. (24) (docs/kent.md §5)",
          "the package's mean-estimation rates are Theorem 6's: lower = poly ∨ exp, upper = d ∧ (d² log(nTα²)/(nTα²) "
          "+ exp), unit constants", "exact (mpmath transcription)",
          domain="instances: d in {1, 4 (l_inf)} x n in {10, 100, 1e4} x T in {1, 10, 1e3, 1e6} x alpha in {0.1, 0.5, 1}, "
                 "where n T alpha^2 >= e",
          methods=("exact",),
          faults=(("the lower bound's max of its two parts taken as a min", {"combine": "min"}),
                  ("the upper bound's log factor dropped", {"log_power": 0})))
def theorem6_mean(combine: str = "max", log_power: int = 1) -> AuditResult:
    r"""Evaluates :func:`bounds.kent.rate` (``"mean"``, unit :class:`~bounds.kent.RateConstants`) and
    ``_theorem6_paper`` on the grid, where :math:`nT\alpha^2 \ge e` (the package writes the log
    factor :math:`\log(e \vee nT\alpha^2)`); holds if both sides agree within a relative 1e-9."""
    rows, worst, count = [], 0.0, 0
    for d in (1, 4):
        for n in (10, 100, 10**4):
            for T in (1, 10, 10**3, 10**6):
                for a in (0.1, 0.5, 1.0):
                    if n * T * a * a < math.e:
                        continue
                    r = kent.rate("mean", n=n, T=T, alpha=a, d=d, ball="linf")
                    lo, up = _theorem6_paper(n, T, a, d, combine, log_power)
                    dev = max(abs(r.lower - lo) / max(lo, 1e-300), abs(r.upper - up) / max(up, 1e-300))
                    count += 1
                    if dev > worst:
                        worst = dev
                        rows = [{"d": d, "n": n, "T": T, "alpha": a, "package_lower": r.lower, "paper_lower": lo,
                                 "package_upper": r.upper, "paper_upper": up, "relative_deviation": dev}]
    return result("kent.theorem6_mean", "holds" if worst <= 1e-9 else "fails", points=count, combine=combine,
                  log_power=log_power, max_relative_deviation=worst, worst_point=rows,
                  confidence="[S] structure, [R] constants (docs/kent.md §5)")
