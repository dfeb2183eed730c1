r"""Audit checks of DAME's main text (Pla, Richard and Vono, 2024), §4: eq. (12)'s search, eq. (15),
Corollary 3 and its proof, Tables 1 and 2.

Each check reads the implemented object (:func:`bounds.dame.lower_bound`, :func:`bounds.dame.upper_bound`,
:func:`bounds.dame.m_tilde`, :func:`bounds.dame.corollary3`, :func:`bounds.dame.asymptotic_rates`) and
compares it with the paper's formula transcribed here (mpmath or ball arithmetic), never with another
function of the package.

Examples
--------
>>> from bounds.audit import CHECKS
>>> CHECKS["dame.eq15_lower"].fn().status, CHECKS["dame.corollary3_first_step"].fn().status
('holds', 'discrepancy')
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from flint import arb

from .. import dame, sizes
from . import boxes
from .core import AuditResult, register, result

_PAPER = (mpmath.exp(-9) / 16, 24, 1570, 8, mpmath.mpf(1737) / 2)  # c1 .. c5, Appendix S1–S2, transcribed


def _phi(a: Any, x: Any, c4: Any = 8, c5: Any = _PAPER[4]) -> Any:
    """Theorem 2's φ(a) = c5/(nα²) ln(y/ln y), y = c4(a nα² ∨ 1), transcribed (mpmath)."""
    y = mpmath.mpf(c4) * max(mpmath.mpf(a) * x, 1)
    return mpmath.mpf(c5) / x * mpmath.log(y / mpmath.log(y))


def _two_point(m: int, rho: float) -> Any:
    return sizes.point(1) if rho == 0 else sizes.point(m) if rho == 1 else sizes.finite({1: 1 - rho, m: rho})


def _law_of(atoms: dict) -> Any:
    """A finite law from its atoms (a point law for one atom)."""
    return sizes.point(next(iter(atoms))) if len(atoms) == 1 else sizes.finite(atoms)


# =========================================================================== eq. (15)

_EQ15_M, _EQ15_RHO, _EQ15_X = (2, 10, 1000), (0.05, 0.3, 0.7, 0.95), (1.0, 10.0, 1e3, 1e5)


@register("dame.eq15_lower", "Pla et al. (2024), eq. (15) (Theorem 1 at a = m and a ∈ {1, …, m − 1})",
          "for M(m) = ρ, M(1) = 1 − ρ, Theorem 1's bound is c1 max(1/(nα²((1 − ρ) + ρ√m)²), "
          "exp(−c2 nα² ρ²)/((1 − ρ)² nα² ∨ 1)) (eq. (15) with the constant of Theorem 1)", "exact",
          domain="instances: m in {2, 10, 1000} x rho in {0.05, 0.3, 0.7, 0.95} x n alpha^2 in {1, 10, 1e3, 1e5} "
                 "(n alpha^2 >= 1, where (15)'s first term needs no ∨ 1), paper constants",
          methods=("exact",),
          faults=(("√m of the first term replaced by m^(1/4)", {"sqrt_power": Fraction(1, 4)}),
                  ("ρ² of the exponent replaced by ρ³", {"rho_power": 3})))
def eq15_lower(sqrt_power: Fraction = Fraction(1, 2), rho_power: int = 2) -> AuditResult:
    r"""The implemented lower bound (:func:`bounds.dame.lower_bound`, the maximum over every a of Theorem 1's
    term) against eq. (15)'s two terms transcribed here at 30 digits:

    .. math:: c_1 \max\Big(\frac{1}{n\alpha^2((1-\rho) + \rho\sqrt m)^2},\
              \frac{e^{-c_2 n\alpha^2\rho^2}}{(1-\rho)^2 n\alpha^2 \vee 1}\Big)

    (relative agreement 1e-9).  The first term is Theorem 1 at a = m; the second at any a ∈ {1, …, m − 1}
    (P(m > a) = ρ, E[√m 1{m ≤ a}] = 1 − ρ).  The text says "a = 0" for the second: there Theorem 1's term is
    :math:`c_1 e^{-c_2 n\alpha^2}`, reported beside (it never exceeds the a = 1 term).
    """
    c1, c2 = _PAPER[0], _PAPER[1]
    rows, worst, a0_wins = [], 0.0, 0
    with mpmath.workdps(30):
        for m in _EQ15_M:
            for rho in _EQ15_RHO:
                r = mpmath.mpf(rho)
                for x in _EQ15_X:
                    X = mpmath.mpf(x)
                    first = 1 / (X * ((1 - r) + r * mpmath.mpf(m) ** (mpmath.mpf(sqrt_power.numerator) / sqrt_power.denominator)) ** 2)
                    second = mpmath.exp(-c2 * X * r**rho_power) / max((1 - r) ** 2 * X, 1)
                    want = c1 * max(first, second)
                    a0 = c1 * mpmath.exp(-c2 * X)
                    got = dame.lower_bound(_two_point(m, rho), n_alpha2=x)
                    dev = abs(float(mpmath.log(want)) - got.log_value)
                    worst = max(worst, dev)
                    a0_wins += bool(a0 > c1 * second)
                    rows.append({"m": m, "rho": rho, "n_alpha2": x, "lower_bound": got.value, "eq15": float(want),
                                 "binding": "a = m" if first >= second else "a = 1", "log_dev": dev,
                                 "a0_term": float(a0)})
    return result("dame.eq15_lower", "holds" if worst <= 1e-9 else "fails", rows=rows, max_log_deviation=worst,
                  a0_term_ever_above_a1_term=bool(a0_wins),
                  note="the second term is Theorem 1 at a in {1, ..., m - 1}, not at a = 0 as the text says (a = 0 "
                       "gives c1 exp(-c2 n alpha^2)); for n alpha^2 < 1 the first term needs its ∨ 1")


# =========================================================================== Corollary 3 and Table 2

_C3_CASES = (("paper", 1e5, 6), ("paper", 1e8, 50), ("paper", 1e8, 1000), ("unit", 1e3, 6), ("unit", 10.0, 40))


def _c3_points(preset: str, x: float, m: int, c5: Any) -> list[tuple[float, int]]:
    """(ρ, the regime's m̃ by the Corollary's case analysis) at ρ² just above and below φ(a), a = 2, a middle
    atom and m, and at ρ = 0, 1/2, 1 (ρ = 1 only where φ(m) ≤ 1, the case analysis's reading)."""
    c4 = 8 if preset == "paper" else 1
    with mpmath.workdps(30):
        phis = {a: _phi(a, mpmath.mpf(x), c4, c5) for a in range(2, m + 1)}

        def regime(r2: Any) -> int:
            return max([1] + [a for a, p in phis.items() if r2 >= p])

        pts = []
        for a in sorted({2, (2 + m) // 2, m}):
            for f in (mpmath.mpf(1) + mpmath.mpf(10) ** -6, mpmath.mpf(1) - mpmath.mpf(10) ** -6):
                r2 = phis[a] * f
                if r2 < 1:
                    pts.append((float(mpmath.sqrt(r2)), regime(mpmath.mpf(float(mpmath.sqrt(r2))) ** 2)))
        for rho in (0.0, 0.5) + ((1.0,) if phis[m] <= 1 else ()):
            pts.append((rho, regime(mpmath.mpf(rho) ** 2)))
    return pts


@register("dame.corollary3_regimes", "Pla et al. (2024), Corollary 3 (its proof's case analysis) and Table 2",
          "for M(m) = ρ, M(1) = 1 − ρ: m̃ = m when ρ² ≥ φ(m), m̃ = a when ρ² ∈ [φ(a), φ(a + 1)), m̃ = 1 when "
          "ρ² < φ(2); the bound's order is log(m̃nα²)/(nα²((1 − ρ) + ρ√m̃)²) (∧ exp(−ρ²nα²/c5)/ρ² in the middle "
          "regime); Table 2's rate is ((ρ√m̃ + 1 − ρ)² nα²)⁻¹", "exact",
          domain="instances: (constants, n alpha^2, m) in (paper, 1e5, 6), (paper, 1e8, 50), (paper, 1e8, 1000), "
                 "(unit, 1e3, 6), (unit, 10, 40) x rho^2 at phi(a)(1 ± 1e-6) for a = 2, a middle atom, m, and rho in "
                 "{0, 1/2, 1} (rho = 1 where phi(m) <= 1)",
          methods=("exact", "exhaustive"),
          faults=(("φ's c5 one per cent smaller in the case analysis", {"c5_scale": Fraction(99, 100)}),
                  ("Table 2's ρ√a replaced by ρa", {"table_power": 1})))
def corollary3_regimes(c5_scale: Fraction = Fraction(1), table_power: Fraction = Fraction(1, 2)) -> AuditResult:
    r"""At ρ² placed 10⁻⁶ above and below the thresholds φ(a) (transcribed here, 30 digits), the regime the
    Corollary's case analysis gives against the implemented :func:`bounds.dame.corollary3` (its ``m_tilde``,
    ``regime`` and ``table2_rate``) and :func:`bounds.dame.m_tilde`; Table 2's entry transcribed as

    .. math:: \big((\rho\sqrt{\tilde m} + 1 - \rho)^2\, n\alpha^2\big)^{-1}

    (relative 1e-12).  ``c5_scale`` and ``table_power`` plant faults in the transcription."""
    rows, bad = [], 0
    for preset, x, m in _C3_CASES:
        c5_factor = mpmath.mpf(c5_scale.numerator) / c5_scale.denominator
        c5 = (_PAPER[4] if preset == "paper" else 1) * c5_factor
        for rho, want in _c3_points(preset, x, m, c5):
            got = dame.corollary3(m, rho, n_alpha2=x, constants=preset)
            mt = dame.m_tilde(_two_point(m, rho), n_alpha2=x, constants=preset)
            regime = "m_tilde=1" if want == 1 else "m_tilde=m" if want == m else "m_tilde=a"
            table = 1 / (((rho * want ** float(table_power)) + 1 - rho) ** 2 * x)
            # the Corollary's order: log(m̃ nα²)/(nα²((1 − ρ) + ρ√m̃)²), ∧ exp(−ρ²nα²/c5)/ρ² in the middle regime
            order = math.log(want * x) / (x * ((1 - rho) + rho * math.sqrt(want)) ** 2)
            if regime == "m_tilde=a":
                order = min(order, math.exp(-rho * rho * x / float(c5 / c5_factor)) / (rho * rho))
            ok = (got.m_tilde == want == mt and got.regime == regime
                  and abs(got.table2_rate / table - 1) <= 1e-12 and abs(got.rate / order - 1) <= 1e-9)
            bad += not ok
            rows.append({"constants": preset, "n_alpha2": x, "m": m, "rho": rho, "case_analysis": want,
                         "corollary3": got.m_tilde, "m_tilde": mt, "regime": got.regime,
                         "table2_rate": got.table2_rate, "table2_transcribed": table, "rate": got.rate,
                         "rate_transcribed": order, "agree": ok})
    return result("dame.corollary3_regimes", "holds" if not bad else "fails", points=len(rows), disagreements=bad,
                  rows=rows)


_C3B_CASES = tuple((m, x) for m in (3, 10, 100) for x in (1e5, 1e7, 1e9))


@register("dame.corollary3_bounds", "Pla et al. (2024), Corollary 3 (second and third bounds) and its proof",
          "Theorem 2's bound for M(m) = ρ, M(1) = 1 − ρ is at most c3 log(m̃nα²)/(nα²((1 − ρ) + ρ√m̃)²) (m̃ nα² ≥ 64), "
          "and in the middle regime at most 2c3c4 exp(−ρ²nα²/c5)/ρ² (the proof's step ρ² ≤ φ(2a) ⇒ "
          "log(2c4anα²)/(2c4anα²) ≤ exp(−ρ²nα²/c5))", "exact",
          domain="instances: m in {3, 10, 100} x n alpha^2 in {1e5, 1e7, 1e9} x rho^2 = phi(a)(1 + 1e-6) for the "
                 "regimes a = 2 .. 12, m/2, m - 1 and m (middle: a < m), paper constants",
          methods=("exact",),
          faults=(("the middle regime's constant 2c3c4 replaced by c3 (the 2c4 dropped)", {"exp_constant": 1570}),
                  ("the log form's ρ√m̃ replaced by ρm̃", {"sqrt_power": 1})))
def corollary3_bounds(exp_constant: int = 2 * 1570 * 8, sqrt_power: Fraction = Fraction(1, 2)) -> AuditResult:
    r"""With m̃ = a (ρ² = φ(a)(1 + 10⁻⁶)), the implemented :func:`bounds.dame.upper_bound` against the
    Corollary's explicit forms, transcribed at 30 digits with the constants the proof gives:

    .. math:: UB \le \frac{c_3\log(\tilde m n\alpha^2)}{n\alpha^2((1-\rho) + \rho\sqrt{\tilde m})^2},\qquad
              UB \le 2c_3c_4\,\frac{e^{-\rho^2 n\alpha^2/c_5}}{\rho^2}\ (\tilde m = a < m)

    and the proof's step at ρ² = φ(2a) (its worst case): :math:`\log y/y = e^{-\varphi(2a)n\alpha^2/c_5}`,
    :math:`y = 2c_4an\alpha^2` (equality: the step is tight).  The slack is the largest ratio of the bound to
    each form over the instances (the tightest constant there)."""
    c1, c2, c3, c4, c5 = _PAPER
    rows, worst_log, worst_exp, step_dev = [], 0.0, 0.0, 0.0
    with mpmath.workdps(30):
        for m, x in _C3B_CASES:
            X = mpmath.mpf(x)
            for a in sorted(set(range(2, min(m, 12) + 1)) | {m // 2, m - 1, m}):
                r2 = _phi(a, X) * (1 + mpmath.mpf(10) ** -6)
                if r2 >= 1:
                    continue
                rho = float(mpmath.sqrt(r2))
                ub = dame.upper_bound(_two_point(m, rho), n_alpha2=x)
                if ub.m_tilde != a:
                    worst_log = math.inf
                    continue
                r = mpmath.mpf(rho)
                root = mpmath.mpf(a) ** (mpmath.mpf(sqrt_power.numerator) / sqrt_power.denominator)
                logform = c3 * mpmath.log(a * X) / (X * ((1 - r) + r * root) ** 2)
                ratio_log = float(mpmath.exp(ub.log_value) / logform)
                worst_log = max(worst_log, ratio_log)
                row = {"m": m, "n_alpha2": x, "a": a, "rho": rho, "upper": ub.value, "ratio_to_log_form": ratio_log}
                if a < m:
                    expform = exp_constant * mpmath.exp(-r * r * X / c5) / (r * r)
                    ratio_exp = float(mpmath.exp(ub.log_value) / expform)
                    worst_exp = max(worst_exp, ratio_exp)
                    y = 2 * c4 * a * X
                    step_dev = max(step_dev, abs(float(mpmath.log(mpmath.log(y) / y) + _phi(2 * a, X) * X / c5)))
                    row["ratio_to_exp_form"] = ratio_exp
                rows.append(row)
    ok = worst_log <= 1 and worst_exp <= 1 and step_dev <= 1e-20
    return result("dame.corollary3_bounds", "holds" if ok else "fails", points=len(rows),
                  max_ratio_log_form=worst_log, max_ratio_exp_form=worst_exp, step_equality_dev=step_dev,
                  slack={"log_form_constant": worst_log * c3 if math.isfinite(worst_log) else None,
                         "exp_form_constant": worst_exp * exp_constant,
                         "note": "the largest UB/form ratio over the instances times the form's constant: the tightest "
                                 "constant there (c3 = 1570 and 2c3c4 = 25120 as the proof gives them)"},
                  rows=rows[:12])


def _c3_first_gap(x: Fraction, c: tuple) -> arb:
    """log(UB at m̃ = 2) − log(UB at m̃ = 1) for M(2) = ρ, M(1) = 1 − ρ, ρ² = φ(2)(1 + 10⁻⁶), in ball arithmetic
    (Theorem 2's bound transcribed: c3 ln(c4 √(m̃ x))/(x E[√(m ∧ m̃)]²), below the cap 4)."""
    c3, c4, c5 = (boxes.constant(v) for v in c)
    X = boxes.point(x)
    y = c4 * 2 * X
    r = (c5 / X * (y / y.log()).log() * (1 + arb(10) ** -6)).sqrt()
    e = (1 - r) + r * arb(2).sqrt()
    return (c4 * (2 * X).sqrt()).log().log() - 2 * e.log() - (c4 * X.sqrt()).log().log()


def first_step_counterexample(constants: tuple = (1570, 8, Fraction(1737, 2))) -> dict:
    r"""The smallest nα² (to relative 10⁻⁴, order: m = 2 first, then nα² increasing from 10³) at which Theorem 2's
    bound for M(2) = ρ, M(1) = 1 − ρ with ρ² = φ(2)(1 + 10⁻⁶) (so m̃ = 2) exceeds its value at m̃ = 1,
    :math:`c_3\ln(c_4\sqrt{n\alpha^2})/(n\alpha^2)`: bisection on log nα² with the implemented
    :func:`bounds.dame.upper_bound`, both ends certified in ball arithmetic (``_c3_first_gap``), no violation
    on the decades 10³ .. 10⁶ below.

    .. math:: \frac{\ln(c_4\sqrt{2n\alpha^2})}{\ln(c_4\sqrt{n\alpha^2})} > (1 + \rho(\sqrt2 - 1))^2,\qquad
              \rho^2 = \varphi(2)(1 + 10^{-6})

    Source: Pla et al. (2024), Corollary 3's proof and Theorem 2.

    Examples
    --------
    >>> ce = first_step_counterexample()
    >>> ce["m"], ce["certified_above"], ce["certified_below"], round(ce["n_alpha2"], -4)
    (2, True, True, 7990000.0)
    """
    c3, c4, c5 = (float(v) for v in constants)

    def gap(x: float) -> float:
        r2 = c5 / x * math.log(2 * c4 * x / math.log(2 * c4 * x)) * (1 + 1e-6)
        ub = dame.upper_bound(_two_point(2, math.sqrt(r2)), n_alpha2=x)
        return ub.log_value - math.log(c3 * math.log(c4 * math.sqrt(x)) / x)

    below = [gap(10.0**k) for k in range(3, 7) if c5 / 10.0**k * math.log(2 * c4 * 10.0**k) < 1]
    lo, hi = 1e6, 1e7
    if max(below) > 0 or gap(hi) <= 0:
        return {"exists": False, "below": below}
    while hi / lo - 1 > 1e-4:
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if gap(mid) > 0 else (mid, hi)
    q_hi, q_lo = Fraction(hi).limit_denominator(1000), Fraction(lo).limit_denominator(1000)
    g_hi, g_lo = _c3_first_gap(q_hi, constants), _c3_first_gap(q_lo, constants)
    return {"exists": True, "m": 2, "n_alpha2": float(q_hi), "certified_above": bool(g_hi > 0),
            "n_alpha2_below": float(q_lo), "certified_below": bool(g_lo < 0),
            "log_ratio_at_counterexample": float(g_hi.mid()),
            "m_tilde": dame.m_tilde(_two_point(2, math.sqrt(c5 / hi * math.log(2 * c4 * hi / math.log(2 * c4 * hi))
                                                             * (1 + 1e-6))), n_alpha2=hi)}


@register("dame.corollary3_first_step", "Pla et al. (2024), Corollary 3's proof ('for any ρ, m̃ ≥ 1 which gives "
          "the upper bound in log(nα²)/(nα²)')",
          "Theorem 2's bound at its m̃ is at most its value at m̃ = 1, c3 ln(c4√(nα²))/(nα²) (the proof's first step)",
          "exact + bisection, ball-certified counterexample",
          domain="instances: M(2) = rho, M(1) = 1 - rho, rho^2 = phi(2)(1 + 1e-6), n alpha^2 in {1e4, .., 1e12} "
                 "(the decades where phi(2) < 1), paper constants; the minimal counterexample searched on [1e6, 1e7]",
          methods=("exact", "ball-proof"),
          repairs=(("the first bound with a factor 2: Theorem 2's bound at its m̃ ≤ 2 c3 ln(c4√(nα²))/(nα²)",
                    {"factor": 2}),))
def corollary3_first_step(factor: int = 1) -> AuditResult:
    r"""Along the decades nα² = 10³ .. 10¹², the implemented :func:`bounds.dame.upper_bound` for the two-point law
    M(2) = ρ at the regime boundary ρ² = φ(2)(1 + 10⁻⁶) (m̃ = 2) against ``factor`` times Theorem 2's bound at
    m̃ = 1 (transcribed):

    .. math:: \frac{c_3\ln(c_4\sqrt{\tilde m n\alpha^2})}{n\alpha^2((1-\rho) + \rho\sqrt{\tilde m})^2}
              \ \le\ \frac{c_3\ln(c_4\sqrt{n\alpha^2})}{n\alpha^2}\ ?

    The log factor grows by ½ ln 2/ln(c4√(nα²)) while the denominator gains only 2ρ(√2 − 1), ρ ~ √(ln(nα²)/nα²):
    past about nα² = 8.0·10⁶ the bound at m̃ = 2 is the larger — the step does not follow, though the
    Corollary's O(log(nα²)/nα²) survives (the ratio stays below 1.03 here; a repair with factor 2 holds).
    Status discrepancy when a violation is found (with the searched minimal counterexample)."""
    c3, c4, c5 = 1570.0, 8.0, 868.5
    rows, worst = [], -math.inf
    for k in range(3, 13):
        x = 10.0**k
        r2 = c5 / x * math.log(2 * c4 * x / math.log(2 * c4 * x)) * (1 + 1e-6)
        if r2 >= 1:
            continue
        rho = math.sqrt(r2)
        ub = dame.upper_bound(_two_point(2, rho), n_alpha2=x)
        one = c3 * math.log(c4 * math.sqrt(x)) / x
        ratio = ub.value / one
        worst = max(worst, ratio)
        rows.append({"n_alpha2": x, "rho": rho, "m_tilde": ub.m_tilde, "upper": ub.value, "at_m_tilde_1": one,
                     "ratio": ratio})
    violated = worst > factor
    evidence: dict[str, Any] = {"factor": factor, "rows": rows, "max_ratio": worst,
                                "slack": {"tightest_factor_on_instances": worst,
                                          "note": "the ratio peaks near n alpha^2 = 1e10 and tends to 1 as n alpha^2 "
                                                  "grows (the log factors' ratio tends to 1)"}}
    if violated and factor == 1:
        evidence["smallest_counterexample"] = first_step_counterexample()
    return result("dame.corollary3_first_step", "discrepancy" if violated else "holds", **evidence)


# =========================================================================== Table 1

_T1_LAWS: tuple[dict[int, float], ...] = ({1: 1.0}, {4: 1.0}, {100: 1.0}, {10**6: 1.0}, {1: 0.5, 100: 0.5},
                                          {1: 0.2, 3: 0.3, 50: 0.5})
"""Point laws (one atom) and two finite laws."""
_T1_X = (1e2, 1e6, 1e10)


@register("dame.table1_rates", "Pla et al. (2024), Table 1 (Duchi et al., 2018, Corollary 1; Kent et al., 2024, "
          "Theorem 6)",
          "the general rate (E[√m]² nα²)⁻¹ reduces to Duchi et al.'s (nα²)⁻¹ at m = 1 and to Kent et al.'s "
          "(m nα²)⁻¹ at m ∈ ℕ*; Theorem 1's bound attains it (c1/(m nα²)) for a point law", "exact",
          domain="instances: point laws m in {1, 4, 100, 1e6} and two finite laws x n alpha^2 in {1e2, 1e6, 1e10}",
          methods=("exact",),
          faults=(("Kent et al.'s rate transcribed as (m² nα²)⁻¹", {"kent_power": 2}),
                  ("the general rate with E[m] in place of E[√m]²", {"general": "mean"})))
def table1_rates(kent_power: int = 1, general: str = "sqrt") -> AuditResult:
    r"""The previous works' rates transcribed here — Duchi et al. (2018, Corollary 1) :math:`(n\alpha^2)^{-1}`,
    Kent et al. (2024, Theorem 6, its log-free part) :math:`(mn\alpha^2)^{-1}` — and Table 1's general row
    :math:`(E[\sqrt m]^2 n\alpha^2)^{-1}` with :math:`E[\sqrt m]` summed here over the atoms (mpmath), against
    the implemented rates (:func:`bounds.dame.asymptotic_rates`, eq. (13)) and, for point laws, the implemented
    lower bound (:func:`bounds.dame.lower_bound`), which equals :math:`c_1/(mn\alpha^2)` once
    :math:`mn\alpha^2 \ge 1` and the exponential term is spent (relative 1e-9)."""
    c1 = _PAPER[0]
    rows, worst = [], 0.0
    with mpmath.workdps(30):
        for spec in _T1_LAWS:
            law, atoms = _law_of(spec), {k: mpmath.mpf(v) for k, v in spec.items()}
            single = next(iter(spec)) if len(spec) == 1 else None
            e_sqrt = sum(mpmath.sqrt(k) * w for k, w in atoms.items())
            e_m = sum(k * w for k, w in atoms.items())
            for x in _T1_X:
                X = mpmath.mpf(x)
                general_rate = 1 / ((e_sqrt**2 if general == "sqrt" else e_m) * X)
                r13 = float(dame.asymptotic_rates(law, n_alpha2=[x])[0][0])
                devs = [abs(r13 / float(general_rate) - 1)]
                row: dict[str, Any] = {"law": repr(law), "n_alpha2": x, "eq13": r13, "table1": float(general_rate)}
                if single is not None:
                    previous = 1 / X if single == 1 else 1 / (mpmath.mpf(single) ** kent_power * X)
                    devs.append(abs(r13 / float(previous) - 1))
                    lb = dame.lower_bound(law, n_alpha2=x).value
                    devs.append(abs(lb / float(c1 * previous) - 1))
                    row.update(m=single, previous_work=float(previous), source="Duchi" if single == 1 else "Kent",
                               lower_over_c1=lb / float(c1))
                row["max_rel_dev"] = max(devs)
                worst = max(worst, *devs)
                rows.append(row)
    return result("dame.table1_rates", "holds" if worst <= 1e-9 else "fails", rows=rows, max_rel_dev=worst)


# =========================================================================== eq. (12): the search for m̃


def _psi_brute(law: Any, x: float, top: int) -> int:
    """The largest a ≤ top with ψ(a) = P(m ≥ a)² − φ(a) ∧ 1 ≥ 0 (eq. (12) transcribed; mpmath, a scanned)."""
    best = 1
    with mpmath.workdps(30):
        X = mpmath.mpf(x)
        for a in range(1, top + 1):
            p = mpmath.mpf(float(law.prob_ge(a)))
            if p * p >= min(_phi(a, X), 1):
                best = a
    return best


@register("dame.eq12_search", "Pla et al. (2024), after eq. (12) ('ψ is decreasing, ψ(1) ≥ 0 and ψ(exp(nα²)) ≤ 0 … "
          "m̃ can be found via a binary search with less than 2⌈nα²⌉ iterations')",
          "m̃ ≤ exp(nα²), so a binary search over {1, …, ⌊exp(nα²)⌋} finds it in fewer than 2⌈nα²⌉ iterations",
          "exact (scan and integer search)",
          domain="instances: point laws m = 2, 3, ..., 12 and a Poisson(5) law at n alpha^2 = 1 (implemented m~ "
                 "against a scan of eq. (12)), paper constants; the counterexample searched over the atom m",
          methods=("exact", "exhaustive"),
          repairs=(("m̃ read without the ∧ 1 (the proof's reading; then ψ(exp(nα²)) < 0 strictly)",
                    {"reading": "proof"}),))
def eq12_search(reading: str = "printed") -> AuditResult:
    r"""ψ(1) ≥ 0 holds (P(m ≥ 1) = 1) and ψ(e^{nα²}) ≤ 0 too (φ(e^{nα²}) ≥ 1 with the paper constants), but
    with the printed ``∧ 1`` ψ can be 0 past e^{nα²}: for a point law at m every a ≤ m has
    :math:`P(m \ge a)^2 = 1 = \varphi(a) \wedge 1`, so m̃ = m however small nα² is.  The search: point laws
    m = 2, 3, … at nα² = 1 until the implemented m̃ (:func:`bounds.dame.m_tilde`, ``reading``) exceeds
    :math:`e^{n\alpha^2}` and a binary search over {1, …, m̃} needs :math:`\lceil\log_2 \tilde m\rceil \ge
    2\lceil n\alpha^2\rceil` iterations; each implemented m̃ is compared with a scan of eq. (12) transcribed
    here (printed reading).  Status discrepancy if the printed m̃ leaves the range, holds if none does."""
    x = 1.0
    rows, found, scan_bad = [], None, 0
    for m in range(2, 13):
        law = sizes.point(m)
        mt = dame.m_tilde(law, n_alpha2=x, reading=reading)
        if reading == "printed":
            scan_bad += mt != _psi_brute(law, x, m + 1)
        iterations = math.ceil(math.log2(mt)) if mt > 1 else 0
        out = mt > math.e**x or iterations >= 2 * math.ceil(x)
        rows.append({"m": m, "m_tilde": mt, "iterations": iterations, "outside": out})
        if out and found is None:
            found = {"m": m, "n_alpha2": x, "m_tilde": mt, "e_to_n_alpha2": math.e**x, "iterations": iterations,
                     "limit": 2 * math.ceil(x)}
    pois = sizes.poisson(5.0)
    mt_pois = dame.m_tilde(pois, n_alpha2=x, reading=reading)
    if reading == "printed":
        scan_bad += mt_pois != _psi_brute(pois, x, 40)
    rows.append({"m": "Poisson(5)", "m_tilde": mt_pois, "iterations": math.ceil(math.log2(mt_pois)) if mt_pois > 1 else 0,
                 "outside": mt_pois > math.e**x})
    status = "fails" if scan_bad else "discrepancy" if found else "holds"
    evidence: dict[str, Any] = {"reading": reading, "scan_disagreements": scan_bad, "rows": rows[:6] + rows[-1:]}
    if found:
        evidence["smallest_counterexample"] = found
    return result("dame.eq12_search", status, **evidence)


# =========================================================================== eqs. (5)–(7): the vote


@register("dame.eq5_7_vote", "Pla et al. (2024), eqs. (5)–(7) (Kent et al., 2024, Lemma 15 for the privacy)",
          "a voter's vector has ones on the bins j − 1, j, j + 1 around its mean's bin (5); each entry is kept with "
          "probability exp(α/6)/(1 + exp(α/6)) (6), which makes the vote α-LDP; ĵ is the argmax of the totals (7)",
          "exact",
          domain="instances: tau in {0.3, 0.05, 0.011} x 400 voters' means (a fixed seed) for (5); alpha in {0.05, 0.3, "
                 "22/35, 1} for (6) over every pair of votes with at most 3 ones on 8 bins; 5 rows of totals for (7)",
          methods=("exact", "exhaustive"),
          faults=(("the vote on the bins j and j + 1 only", {"neighbours": (0, 1)}),
                  ("the keep probability exp(α/3)/(1 + exp(α/3)) (the 6 halved)", {"divisor": 3})))
def eq5_7_vote(neighbours: tuple[int, ...] = (-1, 0, 1), divisor: int = 6) -> AuditResult:
    r"""(5): the implemented counts (:func:`bounds.estimators.localisation.vote_counts`) against a count written
    here, :math:`c_j = \#\{u : \bar X_u \in I_{j-1} \cup I_j \cup I_{j+1}\}` with :math:`I_j = [-1 + 2\tau j,
    -1 + 2\tau(j+1))` (means drawn off the bin edges).  (6): the implemented keep probability
    (:func:`bounds.mechanisms.rr_keep_probability` at the localisation's ``VOTE_ONES``) against
    :math:`\pi = e^{\alpha/6}/(1 + e^{\alpha/6})` (30 digits), and the privacy of the whole vote: the largest
    log-likelihood ratio of a released vector under two votes with at most three ones, enumerated over every
    pair on 8 bins, is :math:`\alpha` (at most).  (7): the implemented election
    (:func:`bounds.estimators.localisation.elect`) returns the argmax where it is unique."""
    from itertools import combinations

    from .. import mechanisms
    from ..estimators import localisation

    rng = np.random.default_rng(57)
    count_bad = 0
    for tau in (0.3, 0.05, 0.011):
        n = math.ceil(1 / tau)
        j = rng.integers(0, n, size=400)
        frac = rng.uniform(0.01, 0.99, size=400)
        xbar = np.clip(-1 + 2 * tau * (j + frac), -1, 1)
        j = np.floor((xbar + 1) / (2 * tau)).astype(int)
        keep = xbar < 1 - 1e-9
        got = localisation.vote_counts(xbar[keep][None, :], np.ones((1, int(keep.sum())), bool), tau)[0]
        want = np.zeros(n, dtype=int)
        for b in j[keep]:
            for d in neighbours:
                if 0 <= b + d < n:
                    want[b + d] += 1
        count_bad += int(np.sum(got != want))
    privacy, keep_dev = [], 0.0
    votes = [frozenset(s) for k in range(4) for s in combinations(range(8), k)]
    for alpha in (0.05, 0.3, 22 / 35, 1.0):
        with mpmath.workdps(30):
            pi = mpmath.exp(mpmath.mpf(alpha) / divisor) / (1 + mpmath.exp(mpmath.mpf(alpha) / divisor))
            impl = mechanisms.rr_keep_probability(alpha, k=localisation.VOTE_ONES)
            keep_dev = max(keep_dev, abs(impl - float(pi)))
            log_odds = mpmath.log(mpmath.mpf(impl) / (1 - mpmath.mpf(impl)))  # the implemented keep probability
            worst = max(len(a ^ b) for a in votes for b in votes) * log_odds
        privacy.append({"alpha": alpha, "keep": impl, "max_log_ratio": float(worst),
                        "alpha_ldp": bool(worst <= alpha * (1 + 1e-12))})
    totals = rng.permutation(np.arange(5 * 12).reshape(5, 12).astype(float), axis=1)
    elect_bad = int(np.sum(localisation.elect(totals, np.random.default_rng(1)) != totals.argmax(axis=1)))
    ok = count_bad == 0 and keep_dev <= 1e-15 and all(p["alpha_ldp"] for p in privacy) and elect_bad == 0
    return result("dame.eq5_7_vote", "holds" if ok else "fails", count_mismatches=count_bad, keep_deviation=keep_dev,
                  privacy=privacy, election_mismatches=elect_bad)


# =========================================================================== Theorems 1 and 2: the values

_VALUE_LAWS = ({7: 1}, {1: 0.5, 100: 0.5}, {1: 0.2, 3: 0.3, 50: 0.5}, {2: 0.9, 1000: 0.1}, {1: 0.99, 10**6: 0.01})
_VALUE_X = (0.5, 10.0, 1e3, 1e5, 1e7)
_VALUE_DOMAIN = ("instances: 5 finite laws (point(7); {1, 100}; {1, 3, 50}; {2, 1000}; {1, 1e6}) x n alpha^2 in "
                 "{0.5, 10, 1e3, 1e5, 1e7}, paper constants")


@register("dame.theorem1_value", "Pla et al. (2024), Theorem 1, eq. (10)",
          "the implemented lower bound is max over a of c1 exp(−c2 nα² P(m > a)²)/(nα² E[√m 1{m ≤ a}]² ∨ 1)", "exact",
          domain=_VALUE_DOMAIN, methods=("exact", "exhaustive"),
          faults=(("c2 = 24 one per cent smaller (23.76)", {"c2": mpmath.mpf("23.76")}),
                  ("P(m > a) taken as P(m ≥ a)", {"strict": False})))
def theorem1_value(c2: Any = 24, strict: bool = True) -> AuditResult:
    r"""Eq. (10) transcribed (30 digits): the term is constant between consecutive atoms, so the maximum over
    a ∈ ℕ is the maximum over a = 0 and the atoms, summed here over the atoms; against the implemented
    :func:`bounds.dame.lower_bound` (relative 1e-9)."""
    c1 = _PAPER[0]
    rows, worst = [], 0.0
    with mpmath.workdps(30):
        for atoms in _VALUE_LAWS:
            q = {k: mpmath.mpf(v) for k, v in atoms.items()}
            for x in _VALUE_X:
                X = mpmath.mpf(x)
                best = mpmath.mpf(0)
                for a in [0] + sorted(q):
                    p = sum(w for k, w in q.items() if (k > a if strict else k >= a))
                    e = sum(mpmath.sqrt(k) * w for k, w in q.items() if k <= a)
                    best = max(best, c1 * mpmath.exp(-c2 * X * p * p) / max(X * e * e, 1))
                got = dame.lower_bound(_law_of(atoms), n_alpha2=x)
                dev = abs(float(mpmath.log(best)) - got.log_value)
                worst = max(worst, dev)
                rows.append({"law": str(atoms), "n_alpha2": x, "lower_bound": got.value, "transcribed": float(best),
                             "log_dev": dev})
    return result("dame.theorem1_value", "holds" if worst <= 1e-9 else "fails", rows=rows, max_log_deviation=worst)


def _m_tilde_scan(q: dict, X: Any, c5: Any, power: int = 2) -> int:
    """Theorem 2's m̃ (printed ∧ 1) for a finite law: on each (a_k, a_{k+1}] P(m ≥ a) is constant and φ increases,
    so the largest a there with φ(a) ∧ 1 ≤ P² is found by integer bisection (mpmath φ)."""
    atoms = sorted(q)
    best, prev = 1, 0
    for k in atoms:
        p = sum(w for j, w in q.items() if j >= k) ** power
        lo, hi = prev + 1, k
        if min(_phi(lo, X, 8, c5), 1) <= p:
            while lo < hi:  # the largest a in [lo, hi] with phi(a) ∧ 1 <= p^2
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if min(_phi(mid, X, 8, c5), 1) <= p else (lo, mid - 1)
            best = max(best, lo)
        prev = k
    return best


@register("dame.theorem2_value", "Pla et al. (2024), Theorem 2, eqs. (11)–(12)",
          "the implemented upper bound is c3 ln(c4(√(m̃nα²) ∨ 1))/(nα² E[√(m ∧ m̃)]²) ∧ 4 with m̃ of eq. (12)", "exact",
          domain=_VALUE_DOMAIN, methods=("exact", "exhaustive"),
          faults=(("the log factor ln(c4(√(m̃nα²) ∨ 1)) without m̃", {"log_with_m": False}),
                  ("eq. (12)'s P(m ≥ a)² taken unsquared", {"power": 1})))
def theorem2_value(log_with_m: bool = True, c5: Any = _PAPER[4], power: int = 2) -> AuditResult:
    r"""Eqs. (11)–(12) transcribed (30 digits): m̃ by ``_m_tilde_scan`` (the printed ``∧ 1``), the denominator
    summed over the atoms, against the implemented :func:`bounds.dame.upper_bound` (its ``m_tilde`` exactly, its
    value to relative 1e-9)."""
    c3, c4 = _PAPER[2], _PAPER[3]
    rows, worst, mt_bad = [], 0.0, 0
    with mpmath.workdps(30):
        for atoms in _VALUE_LAWS:
            q = {k: mpmath.mpf(v) for k, v in atoms.items()}
            for x in _VALUE_X:
                X = mpmath.mpf(x)
                mt = _m_tilde_scan(q, X, c5, power)
                e = sum(mpmath.sqrt(min(k, mt)) * w for k, w in q.items())
                lfac = mpmath.log(c4 * max(mpmath.sqrt((mt if log_with_m else 1) * X), 1))
                want = min(c3 * lfac / (X * e * e), 4)
                got = dame.upper_bound(_law_of(atoms), n_alpha2=x)
                dev = abs(float(mpmath.log(want)) - got.log_value)
                mt_bad += got.m_tilde != mt
                worst = max(worst, dev)
                rows.append({"law": str(atoms), "n_alpha2": x, "m_tilde": got.m_tilde, "m_tilde_scan": mt,
                             "upper_bound": got.value, "transcribed": float(want), "log_dev": dev})
    ok = worst <= 1e-9 and mt_bad == 0
    return result("dame.theorem2_value", "holds" if ok else "fails", rows=rows, max_log_deviation=worst,
                  m_tilde_mismatches=mt_bad)
