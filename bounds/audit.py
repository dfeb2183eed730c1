r"""``bounds check``: the papers' lemmas, constants and claims, audited numerically.

Every check computes its status — ``holds``, ``fails``, ``discrepancy`` (two
statements of the papers disagree) or ``inconclusive`` — and returns its evidence
(the numbers).  Methods: interval arithmetic (``mpmath.iv``), symbolic (sympy),
exhaustive enumeration, linear programming, Monte Carlo (with standard errors).
Each check takes the formula it tests as a keyword with the paper's as default, so
a test can feed it a wrong one and watch the status change.

Examples
--------
>>> [r.status for r in run(["dame.constants", "kent.lemma16"])]
['holds', 'holds']
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from collections.abc import Sequence
from typing import Any, Callable

import mpmath
import numpy as np
import sympy as sp

from . import checks, cummings, dame, kent, mechanisms, rameshwar, simulate, sizes
from .estimators import dame as dame_estimator
from .numerics import format_value

__all__ = ["AuditResult", "CHECKS", "run", "report"]

STATUSES = ("holds", "fails", "discrepancy", "inconclusive")


@dataclass(frozen=True)
class AuditResult:
    """One audited claim: ``id``, ``source``, ``claim``, ``method``, computed ``status`` and ``evidence``."""

    id: str
    source: str
    claim: str
    method: str
    status: str
    evidence: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("id", "source", "claim", "method"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be a string, got {format_value(getattr(self, name))}")
        if not isinstance(self.status, str) or self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {format_value(self.status)}")
        if not isinstance(self.evidence, dict):
            raise ValueError(f"evidence must be a dict, got {format_value(self.evidence)}")


@dataclass(frozen=True)
class _Check:
    id: str
    source: str
    claim: str
    method: str
    fn: Callable


CHECKS: dict[str, _Check] = {}
"""Every audit check by ID (``"paper.claim"``), filled by the ``_check`` decorator: its source, claim, method and
function; :func:`run` executes them."""


def _check(id, source, claim, method):
    def deco(fn: Callable) -> Callable:
        CHECKS[id] = _Check(id, source, claim, method, fn)
        return fn

    return deco


def _result(id, status, **evidence) -> AuditResult:
    c = CHECKS[id]
    return AuditResult(id, c.source, c.claim, c.method, status, evidence)


# =========================================================================== DAME


def _iv_bisect(pred: Callable, lo, hi, depth: int = 40, max_boxes: int = 20000):
    """Verify ``pred(box)`` (an interval test) on [lo, hi] by bisection; returns (proved, boxes, failed box)."""
    stack, boxes = [(mpmath.mpf(lo), mpmath.mpf(hi), 0)], 0
    while stack:
        a, b, d = stack.pop()
        boxes += 1
        verdict = pred(mpmath.iv.mpf([a, b]))
        if verdict:
            continue
        if d >= depth or boxes > max_boxes:
            return False, boxes, (float(a), float(b))
        m = (a + b) / 2
        stack += [(a, m, d + 1), (m, b, d + 1)]
    return True, boxes, None


@_check("dame.lemma_s2", "Pla et al. (2024), Lemma S2 (S2)",
        "δ·ln((1+δ)/(1−δ)) ≤ 3δ² on [0, 1/2]", "interval arithmetic")
def lemma_s2(constant: int = 3) -> AuditResult:
    r"""Proves :math:`h(\delta) = c - \ln\frac{1+\delta}{1-\delta}/\delta > 0` on (0, 1/2] (``c = 3``).

    On :math:`(0, 0.1]`, :math:`\ln\frac{1+\delta}{1-\delta}/\delta = 2\sum_k \delta^{2k}/(2k+1)
    \le 2 + \tfrac23\delta^2/(1-\delta^2) \le 2.0068`; on :math:`[0.1, 0.5]` by ``mpmath.iv`` bisection.
    """
    near0 = 2 + (2 / 3) * 0.01 / (1 - 0.01)
    c = mpmath.iv.mpf(constant)
    proved, boxes, bad = _iv_bisect(lambda d: (c - mpmath.iv.log((1 + d) / (1 - d)) / d).a > 0, 0.1, 0.5)
    ok = proved and near0 < constant
    return _result("dame.lemma_s2", "holds" if ok else "fails", constant=constant, boxes=boxes,
                   bound_near_0=near0, failing_box=bad, at_half=float(constant - math.log(3) / 0.5))


@_check("dame.lemma_s6", "Pla et al. (2024), Lemma S6",
        "α²/(π_{α/6} − 1/2)² ≤ 579 on (0, 1]; the ratio tends to 576 at 0", "interval arithmetic + symbolic")
def lemma_s6(constant: int = 579) -> AuditResult:
    r"""With :math:`\pi_{\alpha/6} - 1/2 = \tanh(\alpha/12)/2`, the ratio is :math:`4\alpha^2/\tanh^2(\alpha/12)
    = 576\,(x\coth x)^2`, :math:`x = \alpha/12`, increasing.  Its supremum on (0, 1] is the value at
    α = 1, enclosed with ``mpmath.iv``; on (0, 0.1] the bound :math:`x\coth x \le 1 + x^2/3` caps it; on
    [0.1, 1] interval bisection; the limit at 0 is computed by sympy.
    """
    a = sp.Symbol("alpha", positive=True)
    pi = sp.exp(a / 6) / (1 + sp.exp(a / 6))
    limit = sp.limit(a**2 / (pi - sp.Rational(1, 2)) ** 2, a, 0)
    ratio = lambda t: 4 * t**2 / (1 - 2 / (mpmath.iv.exp(t / 6) + 1)) ** 2  # noqa: E731  tanh(t/12)
    sup = ratio(mpmath.iv.mpf(1))
    near0 = 576 * (1 + (0.1 / 12) ** 2 / 3) ** 2
    proved, boxes, bad = _iv_bisect(lambda t: ratio(t).b <= constant, 0.1, 1.0)
    ok = proved and near0 <= constant
    return _result("dame.lemma_s6", "holds" if ok else "fails", constant=constant, supremum_at_1=[float(sup.a), float(sup.b)],
                   limit_at_0=int(limit), boxes=boxes, failing_box=bad)


@_check("dame.tau_condition", "Pla et al. (2024), eq. (4), Lemma S5",
        "1 − 4·exp(−m̃τ²/2) ≥ 1/2 for eq. (4)'s τ, for all m̃ and nα²", "symbolic")
def tau_condition(log_factor: sp.Expr = sp.log(8)) -> AuditResult:
    r"""With :math:`\tau^2 = 2\log(8(\sqrt{\tilde m x} \vee 1))/\tilde m`, :math:`e^{-\tilde m\tau^2/2} = 1/(8(\sqrt{\tilde mx} \vee 1))
    \le 1/8`; sympy simplifies and minimises the left side."""
    m, x = sp.symbols("m x", positive=True)
    tau2 = 2 * (log_factor + sp.log(sp.Max(sp.sqrt(m * x), 1))) / m
    lhs = sp.simplify(1 - 4 * sp.exp(-m * tau2 / 2))
    worst = sp.simplify(lhs.subs(sp.Max(sp.sqrt(m * x), 1), 1))  # the Max is >= 1; lhs increases in it
    ok = bool(sp.simplify(worst - sp.Rational(1, 2)) >= 0)
    return _result("dame.tau_condition", "holds" if ok else "fails", lhs=str(lhs), minimum=str(worst))


@_check("dame.constants", "Pla et al. (2024), (S30)–(S31), (S144)–(S146)",
        "1570 = 14²·4·2 + 2, 868.5 = 579·3/2, c1 = e⁻⁹/16, c2 = 24", "symbolic")
def constants(preset: dame.Constants | None = None) -> AuditResult:
    r"""Recomputes the paper constants from the proofs' arithmetic: :math:`c_3 = 14^2\cdot4\cdot2 + 2` (S146),
    :math:`c_5 = 579\cdot3/2` (the definition of m̃ before (S146)), :math:`c_1 = e^{-9}/16` and
    :math:`c_2 = 24` from :math:`\delta^2 = 1/(4\max(n\alpha^2E^2, 1))` in (S30): the exponent
    :math:`12\,n\alpha^2(3\delta^2E^2 + 2P^2) \le 9 + 24\,n\alpha^2P^2` and :math:`\delta^2/4 = 1/(16\max(\cdot))`."""
    c = preset or dame.Constants.paper()
    E2, P2, x = sp.symbols("E2 P2 x", positive=True)
    delta2 = sp.Rational(1, 4) / (x * E2)  # in the regime x E² >= 1
    exponent = sp.expand(12 * x * (3 * delta2 * E2 + 2 * P2))
    derived = {"c1": sp.exp(-exponent.subs(P2, 0)) * (delta2 * x * E2) / 4, "c2": exponent.coeff(P2) / x,
               "c3": 14**2 * 4 * 2 + 2, "c5": sp.Rational(579) * sp.Rational(3, 2)}
    table = {k: (str(sp.nsimplify(v)), str(getattr(c, k))) for k, v in derived.items()}
    ok = all(sp.simplify(sp.sympify(v) - getattr(c, k)) == 0 for k, v in derived.items())
    return _result("dame.constants", "holds" if ok else "fails", derived_vs_preset=table, c4=str(c.c4))


@_check("dame.lemma_s3", "Pla et al. (2024), Lemma S3, eq. (9)",
        "the debiasing of eq. (9) is exact: E[θ̂ | ĵ] = θ when nothing is clipped", "symbolic + exact rationals")
def lemma_s3(correction: Callable | None = None) -> AuditResult:
    r"""Symbolically for a three-point law and exactly (rationals) on random laws:

    .. math:: \frac{\sqrt{\tilde m}\,E[w\theta + (1-w)s] - \sum_{i\le\tilde m}(\sqrt{\tilde m} - \sqrt i)M(i)s}
              {E[\sqrt{m\wedge\tilde m}]} = \theta,\qquad w = \sqrt{m\wedge\tilde m}/\sqrt{\tilde m}
    """
    corr = correction or (lambda pts, masses, mt: sum((sp.sqrt(mt) - sp.sqrt(i)) * q for i, q in zip(pts, masses) if i <= mt))
    th, s = sp.symbols("theta s")
    q1, q2 = sp.symbols("q1 q2", positive=True)
    pts, masses, mt = [1, 4, 9], [q1, q2, 1 - q1 - q2], 4
    w = [sp.sqrt(min(i, mt)) / sp.sqrt(mt) for i in pts]
    mean_xhat = sum(qq * (wi * th + (1 - wi) * s) for qq, wi in zip(masses, w))
    denom = sum(qq * sp.sqrt(min(i, mt)) for qq, i in zip(masses, pts))
    symbolic = sp.simplify((sp.sqrt(mt) * mean_xhat - corr(pts, masses, mt) * s) / denom - th) == 0
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(50):
        k = int(rng.integers(1, 6))
        p = sorted(set(int(v) for v in rng.integers(1, 50, size=k)))
        wts = rng.integers(1, 100, size=len(p))
        qs = [sp.Rational(int(v), int(wts.sum())) for v in wts]
        mtv = int(rng.integers(1, 60))
        thv, sv = sp.Rational(int(rng.integers(-9, 10)), 10), sp.Rational(int(rng.integers(-9, 10)), 10)
        wv = [sp.sqrt(min(i, mtv)) / sp.sqrt(mtv) for i in p]
        mx = sum(qq * (wi * thv + (1 - wi) * sv) for qq, wi in zip(qs, wv))
        dn = sum(qq * sp.sqrt(min(i, mtv)) for qq, i in zip(qs, p))
        err = abs(float(sp.nsimplify((sp.sqrt(mtv) * mx - corr(p, qs, mtv) * sv) / dn - thv)))
        worst = max(worst, err)
    ok = symbolic and worst < 1e-12
    return _result("dame.lemma_s3", "holds" if ok else "fails", symbolic_identity=bool(symbolic),
                   random_laws=50, max_abs_error=worst)


def _law_family():
    laws = [sizes.poisson(v) for v in (0.3, 3.0, 30.0, 300.0)]
    laws += [sizes.geometric(p) for p in (0.5, 0.05)] + [sizes.uniform(1, 9), sizes.uniform(5, 500)]
    laws += [sizes.zipf(s) for s in (2.5, 4.0)] + [sizes.point(1), sizes.point(1000)]
    laws += [sizes.finite({1: 1 - r, 10**4: r}) for r in (0.01, 0.3, 0.9)]
    laws += [sizes.binomial(1000, p) for p in (0.001, 0.5)]
    return laws


@_check("dame.ub_ge_lb", "Pla et al. (2024), Theorems 1–2",
        "with the paper constants the upper bound is never below the lower bound", "exhaustive over a family")
def ub_ge_lb(constants: str = "paper") -> AuditResult:
    """Theorems 1 and 2 together imply UB ≥ LB; evaluated on 17 laws × 25 values of nα² in [1e-3, 1e9]."""
    worst, count, violations = math.inf, 0, []
    for law in _law_family():
        for x in np.geomspace(1e-3, 1e9, 25):
            lb = dame.lower_bound(law, n_alpha2=float(x), constants=constants)
            ub = dame.upper_bound(law, n_alpha2=float(x), constants=constants)
            gap = ub.log_value - lb.log_value
            count += 1
            worst = min(worst, gap)
            if gap < 0:
                violations.append((repr(law), float(x)))
    return _result("dame.ub_ge_lb", "holds" if not violations else "fails", pairs=count,
                   min_log_ub_minus_log_lb=worst, counterexamples=violations[:5])


@_check("dame.eq11_denominator", "Pla et al. (2024), eq. (11) vs eq. (9), (S34), (S146)",
        "eq. (11)'s E(√m ∧ m̃) and the proof's E[√(m ∧ m̃)] are the same denominator", "exact law functionals")
def eq11_denominator(m_tilde: int | None = None) -> AuditResult:
    r"""Computes :math:`E[\sqrt m \wedge \tilde m] = E[\sqrt m\,1\{m \le \tilde m^2\}] + \tilde m P(m > \tilde m^2)`
    and :math:`E[\sqrt{m \wedge \tilde m}]` at the unit-constant m̃ of Figure 1a's Poisson laws."""
    rows = []
    differ = False
    for lam in (2.0, 20.0, 200.0):
        law = sizes.poisson(lam)
        mt = m_tilde or dame.m_tilde(law, n_alpha2=500.0, constants="unit")
        canonical = float(law.sqrt_min_mean(mt))
        printed = float(law.partial_sqrt_mean(mt * mt)) + mt * float(law.prob_gt(mt * mt))
        rows.append({"law": repr(law), "m_tilde": mt, "E[sqrt(m ∧ m̃)]": canonical, "E(sqrt(m) ∧ m̃)": printed,
                     "ub_ratio": (canonical / printed) ** 2})
        differ = differ or abs(canonical - printed) > 1e-9 * canonical
    return _result("dame.eq11_denominator", "discrepancy" if differ else "holds", rows=rows)


@_check("dame.mtilde_definition", "Pla et al. (2024), Theorem 2 vs the text before (S146)",
        "Theorem 2's m̃ (P(m ≥ a)² ≥ φ ∧ 1) and the appendix's (P(m ≥ a) ≥ φ ∧ 1) agree", "exact search")
def mtilde_definition() -> AuditResult:
    """m̃ from both conditions (the unsquared one by a scan) on laws where the two can differ."""
    rows = []
    for law in (sizes.finite({1: 0.5, 10**4: 0.5}), sizes.geometric(0.01), sizes.poisson(50.0)):
        for x in (1e4, 1e6):
            squared = dame.m_tilde(law, n_alpha2=x)
            a = np.arange(1, 20001)
            lphi = dame.log_phi(a, n_alpha2=x, constants="paper")
            lp = law.log_prob_ge(a)
            ok = np.where(lphi >= 0, a <= law.support_min, lp >= lphi)
            unsquared = int(a[ok].max())
            rows.append({"law": repr(law), "n_alpha2": x, "m_tilde_theorem2": squared, "m_tilde_appendix": unsquared})
    differ = any(r["m_tilde_theorem2"] != r["m_tilde_appendix"] for r in rows)
    return _result("dame.mtilde_definition", "discrepancy" if differ else "holds", rows=rows)


@_check("dame.enlarged_interval", "Pla et al. (2024), Algorithm 1 vs Lemma S9 / (S135)",
        "the projection interval is [l − 6τ, u + 6τ] (width 14τ) as in the algorithm and in the proof", "exact")
def enlarged_interval(proof_halfwidth: float = 6) -> AuditResult:
    """The algorithm clips to [l_ĵ − 6τ, u_ĵ + 6τ] (width 14τ, the Laplace scale's sensitivity); the proof
    uses [s_ĵ ± 6τ] (width 12τ)."""
    widths, sens = dame_estimator.clip_widths(10**4, n_alpha2=1e6, alpha=0.5)
    tau = dame.tau(10**4, n_alpha2=1e6)
    algorithm, proof = 14 * tau, 2 * proof_halfwidth * tau
    return _result("dame.enlarged_interval", "discrepancy" if not math.isclose(algorithm, proof) else "holds",
                   tau=tau, algorithm_width=algorithm, proof_width=proof, laplace_sensitivity=float(sens.max()),
                   max_interior_width=float(widths.max()))


@_check("dame.figure_constants", "Pla et al. (2024), Fig. 1a vs Theorems 1–2 with (S31), (S146)",
        "Figure 1a's parallel bounds at nα² = 500 are Theorems 1–2 with the paper's constants", "exact")
def figure_constants(constants: str = "paper") -> AuditResult:
    """With the paper constants every Figure 1a law has m̃ = 1 and UB = 4 (the cap) at nα² = 500: no
    parallel lines; with unit constants the bounds are parallel."""
    rows = []
    for lam in (1.0, 10.0, 100.0, 1000.0):
        law = sizes.poisson(lam)
        ub = dame.upper_bound(law, n_alpha2=500.0, constants=constants)
        lb = dame.lower_bound(law, n_alpha2=500.0, constants=constants)
        rows.append({"law": repr(law), "m_tilde": ub.m_tilde, "upper": ub.value, "lower": lb.value})
    flat = all(r["upper"] == 4.0 for r in rows)
    return _result("dame.figure_constants", "discrepancy" if flat else "holds", constants=str(constants), rows=rows)


@_check("dame.unbiased", "Pla et al. (2024), Algorithm 1, eq. (9); the official code",
        "DAME is unbiased at θ = 0.4; the official code's denominator mean(min(M, √m̃)) biases it", "Monte Carlo")
def unbiased(reps: int = 320, seed: int = 2024) -> AuditResult:
    """M(10³) = M(10⁴) = 1/2, n = 2·10⁴, α = 0.6; m̃ = 10⁴ forced so that users below m̃ exist."""
    law = sizes.finite({10**3: 0.5, 10**4: 0.5})
    kw: dict[str, Any] = dict(theta=0.4, sizes=law, n=20000, alpha=0.6, reps=reps, seed=seed, m_tilde=10**4)
    can = simulate.risk("dame", **kw)
    off = simulate.risk("dame", denominator="official", **kw)
    can_ok = abs(can.bias) < 4 * can.bias_stderr
    off_biased = abs(off.bias) > 4 * off.bias_stderr
    status = "holds" if can_ok and off_biased else ("fails" if not can_ok else "inconclusive")
    return _result("dame.unbiased", status, reps=reps, canonical_bias=[can.bias, can.bias_stderr],
                   official_bias=[off.bias, off.bias_stderr])


FIG1B_SETTINGS = {"text": (10**4, 10**5, 10**6), "script": (10**5, 10**5, 10**8)}  # n, m1, m2 (Figure 1b)


def _two_point(rho: float, m1: int, m2: int):
    return sizes.point(m1) if rho == 0 else sizes.point(m2) if rho == 1 else sizes.finite({m1: 1 - rho, m2: rho})


def _below(a, b) -> float:
    """How many standard errors log MSE(a) is below log MSE(b) (delta method; independent runs, conservative
    for positively correlated ones): powerful for the orders of magnitude Figure 1b shows."""
    return math.log(b.mse / a.mse) / math.hypot(a.stderr / a.mse, b.stderr / b.mse)


@_check("dame.fig1b_adaptation", "Pla et al. (2024) §4.2, Figure 1b; the official code's script",
        "DAME beats the other approaches in Figure 1b because it adapts m̃ to the law",
        "exact m̃ on Figure 1b's ρ grid + Monte Carlo (θ = 0) at every ρ where m̃ adapts, and at ρ = 0")
def fig1b_adaptation(reps: tuple[int, int] = (200, 32), seed: int = 1729,
                     m_tilde: Callable | None = None) -> AuditResult:
    r"""At the text's setting (n = 10⁴, M(10⁵) = 1 − ρ, M(10⁶) = ρ) and the official script's
    (n = 10⁵, M(10⁵) = 1 − ρ, M(10⁸) = ρ), α = 22/35, θ = 0, ρ on Figure 1b's grid of ten, for each
    constants preset:

    * m̃ by Theorem 2 (exact); it *adapts* at ρ ∈ (0, 1) where m̃ > 10⁵ = min m (else DAME *is* the
      official code's "Kent" baseline, DAME with m̃ = min m);
    * where it adapts, the simulated MSE of DAME, of DAME with m̃ = min m (no adaptation) and of
      Kent et al.'s own procedure (T = min m), ``reps`` replications per setting, compared on the
      log scale (``z_gain``, ``z_lead``: standard errors of the log-ratio, delta method);
    * at ρ = 0 (one size, nothing to adapt to) the lead of DAME over Kent's procedure beside the
      ratio of their squared bin widths :math:`\tau^2_{Kent}/\tau^2_{DAME}` (Kent's eq. (25) vs eq. (4)).

    The claim holds at a (setting, preset) if m̃ adapts somewhere and, at every ρ where it does,
    DAME's MSE is below both the non-adapted DAME and Kent's procedure by more than 4 s.e. of the
    log-ratio; it fails
    if m̃ never adapts or if one of them is below DAME by more than 4 s.e.; else it is inconclusive.
    Status: holds if the claim holds at the text's setting for some preset, discrepancy if only at the
    official script's, inconclusive if undecided, fails otherwise.  ``m_tilde(law, n, alpha,
    constants)`` replaces Theorem 2's m̃ (a test feeds one that never adapts).
    """
    rule = m_tilde or (lambda law, n, alpha, constants: dame.m_tilde(law, n=n, alpha=alpha, constants=constants))
    alpha, theta, rhos = 22 / 35, 0.0, np.linspace(0, 1, 10)
    rows, lead_at_0, summary = [], [], []
    for (name, (n, m1, m2)), r_ in zip(FIG1B_SETTINGS.items(), reps):
        kw: dict[str, Any] = dict(theta=theta, n=n, alpha=alpha, reps=r_)
        base = simulate.compare(sizes=sizes.point(m1), m_tilde=m1, estimators=("kent", "dame"), seed=[seed, m2], **kw)
        tau_kent = kent.estimator_cap(n=n, T=m1, alpha=alpha)[1]
        ratio = base["kent"].mse / base["dame"].mse
        lead_at_0.append({"setting": name, "n": n, "mse_kent": base["kent"].mse, "mse_dame": base["dame"].mse,
                          "lead": ratio, "lead_stderr": ratio * math.hypot(base["kent"].stderr / base["kent"].mse,
                                                                           base["dame"].stderr / base["dame"].mse),
                          "tau2_ratio": tau_kent**2 / dame.tau(m1, n=n, alpha=alpha) ** 2})
        no_adapt = {}
        for preset in ("paper", "unit"):
            adaptive, gains, leads = [], [], []
            for i, rho in enumerate(rhos[1:-1], start=1):
                law = _two_point(float(rho), m1, m2)
                mt = rule(law, n, alpha, preset)
                if mt <= m1:
                    continue
                adaptive.append(float(rho))
                res = simulate.compare(sizes=law, m_tilde=mt, estimators=("kent", "dame"), seed=[seed, m2, i, mt], **kw)
                if i not in no_adapt:
                    no_adapt[i] = simulate.risk("dame", sizes=law, m_tilde=m1, seed=[seed, m2, i, m1], **kw)
                gains.append(_below(res["dame"], no_adapt[i]))
                leads.append(_below(res["dame"], res["kent"]))
                rows.append({"setting": name, "preset": preset, "rho": float(rho), "m_tilde": mt,
                             "mse_dame": res["dame"].mse, "mse_dame_min_m": no_adapt[i].mse, "mse_kent": res["kent"].mse,
                             "gain_from_adaptation": no_adapt[i].mse / res["dame"].mse,
                             "lead_over_kent": res["kent"].mse / res["dame"].mse,
                             "z_gain": gains[-1], "z_lead": leads[-1]})
            z = gains + leads
            verdict = ("fails" if not adaptive or min(z) < -4 else "holds" if min(z) > 4 else "inconclusive")
            summary.append({"setting": name, "preset": preset, "n": n, "adaptive_rhos": adaptive, "verdict": verdict})
    verdicts = {(s["setting"], s["preset"]): s["verdict"] for s in summary}
    text = [verdicts["text", p] for p in ("paper", "unit")]
    script = [verdicts["script", p] for p in ("paper", "unit")]
    status = ("holds" if "holds" in text else "discrepancy" if "holds" in script
              else "inconclusive" if "inconclusive" in text + script else "fails")
    return _result("dame.fig1b_adaptation", status, alpha=alpha, replications=list(reps), summary=summary,
                   rows=rows, lead_at_rho_0=lead_at_0)


# =========================================================================== Kent


@_check("kent.lower_bound_quote", "Pla et al. (2024), §4.2 quoting Kent et al. (2024), Theorem 6; docs/kent.md §5",
        "DAME's quote Ω(e^{−c nα²} ∧ (mnα²)^{−1}) is Kent's lower bound", "exact")
def lower_bound_quote() -> AuditResult:
    rows = []
    for n, T, a in [(1000, 10**6, 0.1), (10**4, 10, 0.05), (100, 100, 0.3)]:
        rows.append({"n": n, "T": T, "alpha": a, "kent_vee": kent.rate("mean", n=n, T=T, alpha=a).lower,
                     "dame_quote_wedge": kent.dame_quote_lower(n=n, T=T, alpha=a)})
    differ = any(not math.isclose(r["kent_vee"], r["dame_quote_wedge"]) for r in rows)
    return _result("kent.lower_bound_quote", "discrepancy" if differ else "holds", rows=rows,
                   note="the ∧ form is a weaker (valid) statement; Kent's own bound has ∨")


@_check("kent.lemma16", "Kent et al. (2024), Lemma 16 (docs/kent.md §7)",
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
    return _result("kent.lemma16", "holds" if ok else "fails", rows=rows)


# =========================================================================== Cummings


@_check("cummings.lemma_2_1", "Cummings et al. (2022), Lemma 2.1, eq. (2)",
        "Var(D(k)) = p(1−p)/k + (1 − 1/k)σ_p² and σ_p² ≤ p(1−p)", "symbolic")
def lemma_2_1(formula: sp.Expr | None = None) -> AuditResult:
    p, s2, k = sp.symbols("p sigma_p2 k", positive=True)
    target = formula if formula is not None else (p - p**2) / k + (1 - 1 / k) * s2
    same = sp.simplify(cummings.user_variance_symbolic() - target) == 0
    # σ_p² <= p(1-p): E[p_i²] <= E[p_i] for p_i in [0, 1]
    bound = sp.simplify((p - p**2) - ((s2 + p**2) - p**2) - (p - (s2 + p**2))) == 0
    return _result("cummings.lemma_2_1", "holds" if same and bound else "fails", derivation=str(cummings.user_variance_symbolic()))


@_check("cummings.eq5_laplace_variance", "Cummings et al. (2022), eq. (5)",
        "the privacy term of Var(p̂_ideal) is max_i w_i²|b_i − a_i|²/ε² (eq. (5) uses b² for Lap(b))", "Monte Carlo")
def eq5_laplace_variance(reps: int = 6000, seed: int = 5) -> AuditResult:
    c = checks.check_cummings([60, 30, 20, 10, 6, 3, 2, 1], p=0.4, sigma_p2=0.02, eps=0.7, reps=reps, seed=seed)
    printed_off = abs(c.simulated - c.theory["eq5_printed"]) > 4 * c.stderr
    status = "discrepancy" if c.holds and printed_off else ("fails" if not c.holds else "inconclusive")
    return _result("cummings.eq5_laplace_variance", status, simulated=[c.simulated, c.stderr], **c.theory)


@_check("cummings.cor_5_5_min", "Cummings et al. (2022), Corollary 5.5 and the text before it",
        "Corollary 5.5 bounds the homogeneous (σ_p → 0) case by the k*-term", "exact")
def cor_5_5_min() -> AuditResult:
    k = cummings.example1_counts(200)
    rows = [{"sigma_p2": s2, **vars(cummings.lower_bound(k, eps=1.0, sigma_p2=s2))} for s2 in (0.0, 1e-8, 1e-4, 0.02)]
    vanishes = rows[0]["value"] == 0.0 and rows[0]["privacy_term"] > 0
    return _result("cummings.cor_5_5_min", "discrepancy" if vanishes else "holds", rows=rows,
                   note="min{k*-term, σ_p²/n} is 0 at σ_p = 0 while the k*-term is positive")


EXAMPLE1_LOG2_N = tuple(range(10, 42, 2))  # n = 2^10 .. 2^40
EXAMPLE1_TOP = 6  # the last six points (n = 2^30 .. 2^40) decide convergence


@functools.lru_cache(maxsize=2)
def _example1_table(log2_n: tuple) -> tuple:
    return tuple(cummings.example1(2**j) for j in log2_n)


@_check("cummings.example1_scalings", "Cummings et al. (2022) Example 1",
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
    return _result("cummings.example1_scalings", status, n=[2 ** EXAMPLE1_LOG2_N[0], 2 ** EXAMPLE1_LOG2_N[-1]],
                   rows=rows, fitted_rates=drift)


# =========================================================================== Rameshwar & Tandon


def _rt_cases():
    rng = np.random.default_rng(11)
    cases = [(rameshwar.geometric(6), 65.0), (rameshwar.extreme(101, 10), 65.0)]
    cases += [(rng.integers(1, 30, size=int(rng.integers(2, 25))), float(rng.uniform(0.5, 100))) for _ in range(20)]
    return cases


@_check("rameshwar.theorem_iii_1", "Rameshwar and Tandon (2025), Theorem III.1, LP (8), Lemma III.1",
        "the T_ε clipping minimises the worst-case error (LP optimum = Lemma III.1 at Theorem III.1)", "LP")
def theorem_iii_1(rule: Callable | None = None) -> AuditResult:
    worst, count = 0.0, 0
    for m, U in _rt_cases():
        for eps in (0.01, 0.1, 0.5, 2.0, Fraction(2, 3)):
            canonical = rameshwar.optimal_error(m, U=U, eps=eps) if rule is None else rule(m, U, eps)
            lp = rameshwar.lp_optimum(m, U=U, eps=eps).value
            worst = max(worst, abs(canonical - lp) / max(lp, 1e-300))
            count += 1
    return _result("rameshwar.theorem_iii_1", "holds" if worst < 1e-9 else "fails", cases=count, max_relative_gap=worst)


@_check("rameshwar.eq12", "Rameshwar and Tandon (2025), eq. (12)",
        "eq. (12) as printed equals E_OPT (Lemma III.1 at Theorem III.1)", "exact rationals")
def eq12() -> AuditResult:
    m = rameshwar.geometric(6)
    rows = [{"eps": e, "canonical": rameshwar.optimal_error(m, U=65, eps=e),
             "printed": rameshwar.eq12_as_printed(m, U=65, eps=e)} for e in (0.05, 0.5, 2.0)]
    differ = any(not math.isclose(r["canonical"], r["printed"]) for r in rows)
    return _result("rameshwar.eq12", "discrepancy" if differ else "holds", collection="geometric, M = 6", rows=rows)


@_check("rameshwar.monotone_eopt", "Rameshwar and Tandon (2025), after eq. (12)",
        "E_OPT(ε) is non-increasing in ε", "exact rationals")
def monotone_eopt(error: Callable | None = None) -> AuditResult:
    f = error or (lambda m, U, e: rameshwar.optimal_error(m, U=U, eps=e, exact=True))
    bad = []
    grid = [Fraction(1, 200) * k for k in range(1, 400)]
    for m, U in _rt_cases()[:8]:
        vals = [f(m, Fraction(U), e) for e in grid]
        bad += [(float(grid[i]), float(grid[i + 1])) for i in range(len(vals) - 1) if vals[i + 1] > vals[i]]
    return _result("rameshwar.monotone_eopt", "holds" if not bad else "fails", levels=len(grid), increases=bad[:5])


@_check("rameshwar.akmv_rank", "Rameshwar and Tandon (2025), §IV-A step 2 vs the paragraph after it",
        "AKMV estimates the ⌈1/ε''⌉-th largest user sum (both statements)", "exact + Monte Carlo")
def akmv_rank(reps: int = 2000, seed: int = 3) -> AuditResult:
    m = rameshwar.geometric(6)
    rows = []
    for eps in (0.2, 1.0):
        r1, r2 = rameshwar.akmv_rank(eps / 2), rameshwar.akmv_rank(eps / 2, rule="after-fig1")
        e1 = simulate.akmv_worst_case(m, U=65, eps=eps, reps=reps, seed=seed)
        e2 = simulate.akmv_worst_case(m, U=65, eps=eps, reps=reps, seed=seed, rule="after-fig1")
        rows.append({"eps": eps, "rank_step2": r1, "rank_after_fig1": r2, "E_AKMV_step2": e1, "E_AKMV_after_fig1": e2})
    differ = any(r["rank_step2"] != r["rank_after_fig1"] for r in rows)
    return _result("rameshwar.akmv_rank", "discrepancy" if differ else "holds", rows=rows)


@_check("rameshwar.lemma_iii_1_bias", "Rameshwar and Tandon (2025), Lemma III.1, eq. (5)",
        "the bias term Σ max(a_j, U − b_j) is max_D |f − f̄| for every clipping", "exact + exhaustive datasets")
def lemma_iii_1_bias() -> AuditResult:
    """One counterexample: two users, U = 1, a = (1/2, 0), b = (1, 1/2): (5) gives 1/2, every dataset in
    (0, 1]² gives at most 1/4 (max(Σa, Σ(U − b)) / 2)."""
    a, b = [0.5, 0.0], [1.0, 0.5]
    lemma = rameshwar.worst_case_error([1, 1], U=1.0, eps=1e300, a=a, b=b)
    exact = rameshwar.worst_case_error([1, 1], U=1.0, eps=1e300, a=a, b=b, bias="exact")
    grid = np.linspace(1e-9, 1, 201)
    X, Y = np.meshgrid(grid, grid)
    gaps = np.abs((X - np.clip(X, 0.5, 1.0)) + (Y - np.clip(Y, 0.0, 0.5))) / 2
    return _result("rameshwar.lemma_iii_1_bias", "discrepancy" if lemma > gaps.max() + 1e-12 else "holds",
                   lemma_bias=lemma, exact_bias=exact, max_over_dataset_grid=float(gaps.max()),
                   note="Theorem III.1 stands: symmetric clippings make the two equal, and some symmetric clipping is optimal")


# =========================================================================== running and reporting


def run(ids: Sequence[str] | None = None) -> list[AuditResult]:
    """Run the registered checks (all, or ``ids``) and return their results, in order.

    Source: the papers' lemmas and claims listed in :data:`CHECKS` (each with its source).

    Examples
    --------
    >>> run(["dame.tau_condition"])[0].status
    'holds'
    """
    ids = list(CHECKS) if not ids else list(ids)
    for i in ids:
        if i not in CHECKS:
            raise ValueError(f"unknown check {i!r}; choose from {', '.join(CHECKS)}")
    return [CHECKS[i].fn() for i in ids]


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items()) + "}"
    return str(v)


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|")


def report(results: list[AuditResult]) -> str:
    """A Markdown report of audit results, with every check's evidence (for a referee).

    Examples
    --------
    >>> print(report(run(["kent.lemma16"])).splitlines()[0])
    # Audit of the papers' lemmas, constants and claims
    """
    if not isinstance(results, (list, tuple)) or not all(isinstance(r, AuditResult) for r in results):
        raise ValueError(f"results must be a list of AuditResult, got {format_value(results)}")
    lines = ["# Audit of the papers' lemmas, constants and claims", "",
             "| check | status | method | claim |", "|---|---|---|---|"]
    lines += [f"| `{r.id}` | **{r.status}** | {_cell(r.method)} | {_cell(r.claim)} |" for r in results]
    for r in results:
        lines += ["", f"## `{r.id}` — {r.status}", "", f"*Source:* {r.source}  ", f"*Claim:* {r.claim}  ",
                  f"*Method:* {r.method}", ""]
        for k, v in r.evidence.items():
            if isinstance(v, list) and v and isinstance(v[0], dict):
                keys = list(v[0])
                lines += [f"**{k}**", "", "| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
                lines += ["| " + " | ".join(_cell(_fmt(row[c])) for c in keys) + " |" for row in v]
                lines.append("")
            else:
                lines.append(f"- **{k}**: {_fmt(v)}")
    return "\n".join(lines) + "\n"
