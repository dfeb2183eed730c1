r"""Audit checks of the steps of DAME's proofs (Pla, Richard and Vono, 2024, appendices S1–S2).

Each check evaluates one step of a chain of inequalities, so that a wrong constant in a step is found
even where the final statement survives.  A step that does not follow is a ``discrepancy`` whose
evidence gives a certified counterexample and, where the proof allows, the corrected constant.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb

from .. import dame, sizes
from . import boxes
from .core import AuditResult, register, result

H3 = Fraction(22, 35)


@functools.lru_cache(maxsize=4096)
def _tv_product(m: int, delta: Fraction) -> Fraction:
    """Exact total variation between Bernoulli((1−δ)/2)^m and Bernoulli((1+δ)/2)^m (a binomial sum)."""
    p0, p1 = (1 - delta) / 2, (1 + delta) / 2
    return sum((math.comb(m, k) * abs(p0**k * (1 - p0) ** (m - k) - p1**k * (1 - p1) ** (m - k))
                for k in range(m + 1)), Fraction(0)) / 2


@register("dame.lemma_s1", "Pla et al. (2024), Lemma S1 (S1), (S17)–(S19), (S23)–(S24)",
        "D_TV(ν0, ν1) ≤ Σ M(m) min(√(m/2)·D_KL(μ0, μ1), 1) as printed in (S1), or with √(m D_KL/2) as in (S19)",
        "exact rationals (binomial total variations) + ball arithmetic",
        domain="instances: point laws m = 1..24 x delta = k/64, k = 1..32", methods=("exact",),
        faults=(("Pinsker's 1/2 halved: sqrt(m D_KL/4) in (S19)", {"pinsker": Fraction(1, 4)}),),
        repairs=(("(S1) written as (S19) writes it: the square root over m D_KL/2", {"reading": "s19"}),))
def lemma_s1(max_m: int = 24, reading: str = "printed", pinsker: Fraction = Fraction(1, 2)) -> AuditResult:
    r"""For a point law at ``m`` the mixture's total variation is that of the products,
    :math:`D_{TV}(\mu_0^m, \mu_1^m)` (exact binomial sum in rationals).  (S19)'s form
    :math:`\sqrt{m D_{KL}/2}` (Pinsker) holds at every ``m ≤ max_m`` and δ ∈ {1/64, 2/64, .., 32/64};
    (S1) as printed, :math:`\sqrt{m/2}\,D_{KL}`, fails; the smallest counterexample is searched in the order
    (m, then δ) and certified by balls (m = 1, δ = 1/64: left side 1/64, right side
    :math:`\tfrac{1}{64\sqrt2}\ln\tfrac{65}{63} \approx 3.5\cdot10^{-4}`).  (S23)–(S24) inherit the printed form
    and (S27) uses (S19)'s, so the proof goes through with (S19).  ``reading="s19"`` takes (S1) in (S19)'s
    form (the repair); ``pinsker`` is the factor under the square root of (S19) (1/2: Pinsker's inequality)."""
    if reading not in ("printed", "s19"):
        raise ValueError(f"reading must be 'printed' or 's19', got {reading!r}")
    half = Fraction(pinsker)
    printed_fails, pinsker_ok, worst = [], True, math.inf
    for m in range(1, max_m + 1):
        for k in range(1, 33):
            d = Fraction(k, 64)
            tv = boxes.point(_tv_product(m, d))
            kl = boxes.point(d) * (boxes.point((1 + d) / (1 - d))).log()
            s19 = (boxes.point(m * half) * kl).sqrt()
            printed = s19 if reading == "s19" else boxes.point(Fraction(m, 2)).sqrt() * kl
            one = arb(1)
            slack = s19.min(one) - tv
            pinsker_ok &= bool(slack >= 0)
            worst = min(worst, float(slack.lower()))
            if bool(printed.min(one) < tv):
                printed_fails.append((m, str(d)))
    status = "discrepancy" if printed_fails and pinsker_ok else "holds" if pinsker_ok else "fails"
    smallest: dict = {}
    if printed_fails:  # searched: the first failure in the order (m, then delta), each certified by balls
        m0, d0 = printed_fails[0][0], Fraction(printed_fails[0][1])
        kl0 = boxes.point(d0) * boxes.point((1 + d0) / (1 - d0)).log()
        smallest = {"order": "smallest m, then smallest delta = k/64", "m": m0, "delta": str(d0),
                    "tv": float(_tv_product(m0, d0)),
                    "printed_rhs": float((boxes.point(Fraction(m0, 2)).sqrt() * kl0).mid())}
    return result("dame.lemma_s1", status, domain=f"point laws m = 1..{max_m}, delta = k/64, k = 1..32",
                   s19_form_holds=pinsker_ok, s19_min_slack=worst, printed_form_failures=len(printed_fails),
                   smallest_counterexample=smallest)


@register("dame.s22_privacy_constant", "Pla et al. (2024), (S22) with Duchi et al. (2014), Th. 1; H3",
        "4(e^α − 1)² ≤ 12α² on (0, 22/35], so KL(M0ⁿ, M1ⁿ) ≤ 12nα² D_TV(ν0, ν1)²", "ball arithmetic, boxes", thorough=True)
def s22_privacy_constant(alpha_max: Fraction = H3, thorough: bool = False) -> AuditResult:
    r"""Proves :math:`3\alpha^2 - (e^\alpha - 1)^2 > 0` on (0, α_max]: on (0, 1/2] from
    :math:`(e^\alpha - 1)/\alpha \le e^\alpha \le e^{1/2} < \sqrt3`; on [1/2, α_max] by boxes.  The
    evidence also brackets the largest α where the constant 12 still holds (≈ 1.03)."""
    res = boxes.prove(lambda a: 3 * a * a - (a.exp() - 1) ** 2, [(Fraction(1, 2), alpha_max)],
                      max_boxes=20000 if thorough else 4000)
    small = bool(arb(1).exp() < 3)  # (e^a - 1)/a <= e^a <= e^(1/2) < sqrt(3) on (0, 1/2]
    lo, hi = Fraction(1), Fraction(11, 10)
    for _ in range(30):  # bisection for the root of 3a² = (e^a − 1)² (sign decided by balls at points)
        mid = (lo + hi) / 2
        v = 3 * boxes.point(mid) ** 2 - (boxes.point(mid).exp() - 1) ** 2
        lo, hi = (mid, hi) if bool(v > 0) else (lo, mid)
    status = res.status if small else "fails"
    slack = boxes.tightest(lambda c, a: c * a * a - 4 * (a.exp() - 1) ** 2, [(Fraction(1, 2), alpha_max)], 4, 12,
                           steps=12)
    return result("dame.s22_privacy_constant", status,
                   **res.evidence(f"alpha in (0, {alpha_max}]: (0, 1/2] analytically, [1/2, {alpha_max}] by boxes"),
                   constant_12_holds_up_to=[float(lo), float(hi)],
                   slack={**slack.as_dict(), "note": "4(e^a - 1)^2/a^2 increases in a: the tightest constant on "
                                                     f"(0, {alpha_max}] is its value at {alpha_max}"})


@register("dame.theorem1_chain", "Pla et al. (2024), (S20)–(S31)",
        "each step of Theorem 1's chain (S23)–(S28) is an inequality, and (S28) ⇒ (S31) gives c1, c2",
        "exact rationals on finite laws + sympy",
        domain="instances: 7 finite laws (rational masses, sizes 1..20) x delta = k/16 (k = 1..8) x every a; "
               "proved: (S28)'s square inequality (symbolic)", methods=("exact", "sympy"),
        faults=(("Lemma S2's 3 in (S24) halved (D_KL <= 3 delta^2 / 2)", {"kl_constant": Fraction(3, 2)}),
                ("(S28)'s 2 P(m > a)^2 replaced by P(m > a)^2 (a dropped factor 2)", {"s28_factor": 1})))
def theorem1_chain(kl_constant: int | Fraction = 3, s28_factor: int | Fraction = 2) -> AuditResult:
    r"""On seven finite laws (rational masses) and δ = k/16, every ``a`` in the support: the exact
    :math:`D_{TV}(\nu_0, \nu_1) = \sum_m M(m) D_{TV}(\mu_0^m, \mu_1^m)` (S17), then (S19) → (S24) with
    (S19)'s square root → (S26) → (S27) → (S28), each step checked as lhs ≤ rhs with balls; (S28)'s
    :math:`(u + v)^2 \le 2u^2 + 2v^2` with :math:`u^2 = \tfrac32\delta^2E^2` is also proved by sympy.
    ``kl_constant`` is Lemma S2's 3 (:math:`D_{KL} \le 3\delta^2`) used in (S24)–(S28), ``s28_factor`` the 2 of
    :math:`2P(m > a)^2` in (S28)."""
    k3, f2 = Fraction(kl_constant), Fraction(s28_factor)
    laws = [{1: Fraction(1)}, {4: Fraction(1)}, {1: Fraction(1, 2), 9: Fraction(1, 2)},
            {2: Fraction(1, 3), 5: Fraction(1, 3), 11: Fraction(1, 3)}, {1: Fraction(9, 10), 16: Fraction(1, 10)},
            {3: Fraction(1, 4), 7: Fraction(3, 4)}, {1: Fraction(1, 5), 2: Fraction(1, 5), 20: Fraction(3, 5)}]
    steps = ("S17<=S24", "S24<=S26", "S26<=S27", "S27<=S28")
    failures: dict[str, int] = {s: 0 for s in steps}
    count = 0
    for law in laws:
        for k in range(1, 9):
            d = Fraction(k, 16)
            tv = boxes.point(sum((q * _tv_product(m, d) for m, q in law.items()), Fraction(0)))
            s24 = sum(((boxes.point(Fraction(m, 2) * k3) * boxes.point(d) ** 2).sqrt().min(arb(1)) * boxes.point(q)
                       for m, q in law.items()), arb(0))
            for a in [0] + sorted(law):
                count += 1
                low = [(m, q) for m, q in law.items() if m <= a]
                high = sum((q for m, q in law.items() if m > a), Fraction(0))
                s26 = sum(((boxes.point(Fraction(m, 2) * k3) * boxes.point(d) ** 2).sqrt().min(arb(1)) * boxes.point(q)
                           for m, q in low), arb(0)) + boxes.point(high)
                e = sum((boxes.point(q) * boxes.point(Fraction(m)).sqrt() for m, q in low), arb(0))
                s27 = (boxes.point(k3 / 2 * d * d)).sqrt() * e + boxes.point(high)
                s28 = boxes.point(k3 * d * d) * e * e + boxes.point(f2) * boxes.point(high) ** 2
                pairs = {"S17<=S24": (tv * tv, s24 * s24), "S24<=S26": (s24 * s24, s26 * s26),
                         "S26<=S27": (s26 * s26, s27 * s27), "S27<=S28": (s27 * s27, s28)}
                for name, (lhs, rhs) in pairs.items():
                    if bool(lhs > rhs):  # certified violation (balls of equal sides overlap: ties are not)
                        failures[name] += 1
    E, P, dl = sp.symbols("E P delta", nonnegative=True)
    k3s, f2s = sp.Rational(k3.numerator, k3.denominator), sp.Rational(f2.numerator, f2.denominator)
    square = sp.factor(k3s * dl**2 * E**2 + f2s * P**2 - (sp.sqrt(k3s / 2) * dl * E + P) ** 2)
    # (u + v)^2 <= 2u^2 + 2v^2 for all u, v >= 0: the difference is (u - v)^2 (sympy), so >= 0 everywhere
    ok = not any(failures.values()) and sp.simplify(square - (sp.sqrt(k3s / 2) * dl * E - P) ** 2) == 0
    return result("dame.theorem1_chain", "holds" if ok else "fails",
                   domain="7 finite laws (rational masses, sizes 1..20) x delta = k/16, k = 1..8, every a in {0} u supp M",
                   cases=count, failed_steps=failures, s28_slack=str(square), kl_constant=str(k3), s28_factor=str(f2))


def vote_gap_over_alpha(a: Any) -> Any:
    """(π_{α/6} − 1/2)/α = expm1(α/6) / (2α(e^{α/6} + 1))."""
    return (a / 6).expm1() / (2 * a * ((a / 6).exp() + 1))


@register("dame.lemma_s5_exponent", "Pla et al. (2024), Lemma S5, (S70)–(S71) and the line after, Lemma S6",
        "exp(−n/4·(π_{α/6} − 1/2)²P²) ≤ exp(−nα²P²/579), the exponent Lemma S5 states", "ball arithmetic, boxes", thorough=True)
def lemma_s5_exponent(divisor: int = 579, thorough: bool = False) -> AuditResult:
    r"""Hoeffding (S70) gives :math:`\exp(-\tfrac n4 (p_l - p_k)^2)`; with (S67) and Lemma S6
    (:math:`(\pi_{\alpha/6} - 1/2)^2 \ge \alpha^2/579`) this is :math:`\le \exp(-n\alpha^2P^2/2316)`: the line
    after (S71) drops the 1/4.  The check proves or refutes
    :math:`\tfrac14(\pi_{\alpha/6} - \tfrac12)^2 \ge \alpha^2/\text{divisor}` on α ∈ [1/1000, 1] (the
    ratio is :math:`\ge 1/(4\cdot 579)`; near 0 it tends to 1/2304).  With 579 it fails (counterexample
    below); 2316 = 4·579 is proved, which makes :math:`c_5 = 2316\cdot 3/2 = 3474` in Theorem 2."""
    d = boxes.point(Fraction(divisor))
    res = boxes.prove(lambda a: vote_gap_over_alpha(a) ** 2 / 4 - 1 / d, [(Fraction(1, 1000), Fraction(1))],
                      strict=False, max_boxes=200000 if thorough else 40000)
    slack = boxes.tightest(lambda c, a: vote_gap_over_alpha(a) ** 2 / 4 - 1 / c, [(Fraction(1, 1000), Fraction(1))],
                           2312, 2316, steps=4)
    if slack.proved < 2316 and not thorough:  # proved at a divisor below 2316: 2316 follows (1/c decreases in c)
        fixed_status, fixed_by = "holds", f"implied by the proof at divisor {float(slack.proved)}"
    else:
        fixed = boxes.prove(lambda a: vote_gap_over_alpha(a) ** 2 / 4 - arb(1) / 2316, [(Fraction(1, 1000), Fraction(1))],
                            strict=False, max_boxes=200000 if thorough else 40000)
        fixed_status, fixed_by = fixed.status, f"its own proof ({fixed.boxes} boxes)"
    status = "discrepancy" if res.status == "fails" and fixed_status == "holds" else res.status
    smallest: dict = {}
    if status == "discrepancy":  # the failing set: the whole domain when the ratio's infimum 1/2314.7 is below 1/d
        left = Fraction(1, 1000)
        gap = vote_gap_over_alpha(boxes.point(left)) ** 2 / 4 - 1 / d
        whole = boxes.prove(lambda a: 1 / d - vote_gap_over_alpha(a) ** 2 / 4, [(left, Fraction(1))], max_boxes=2000)
        smallest = {"order": "smallest alpha in [1/1000, 1]", "value": str(left), "lhs_minus_rhs": float(gap.mid()),
                    "certified": f"ball (the point: {bool(gap < 0)}; failing on the whole domain: {whole.status}, "
                                 f"{whole.boxes} boxes)",
                    "note": "(pi - 1/2)^2/alpha^2 decreases in alpha and is at most 1/576 < 4/579 (its limit at 0): "
                            "the failing set is the whole domain, its left end the domain's"}
    return result("dame.lemma_s5_exponent", status, smallest_counterexample=smallest,
                   **res.evidence(f"alpha in [1/1000, 1], divisor {divisor}"),
                   divisor_2316=fixed_status, divisor_2316_by=fixed_by, corrected_c5=3474,
                   slack={**slack.as_dict(), "note": "the smallest divisor d with (1/4)(pi - 1/2)^2 >= alpha^2/d on "
                          "[1/1000, 1]: 4 alpha^2/(pi - 1/2)^2 increases in alpha, so the supremum 4 x 578.67 = 2314.7 "
                          "is attained at alpha = 1 (2316 holds with room 1.3; 579 is 4 times too small)"})


@register("dame.lemma_s6_derivative", "Pla et al. (2024), Lemma S6, (S79)–(S87)",
        "g'(x) of (S80) is the derivative of g = ln f, and (S83)–(S87) show g' ≥ 0", "sympy + ball arithmetic",
        domain="proved on x in (0, 1] (symbolic identities)", methods=("sympy",),
        repairs=(("(S80) with the factor 2 of d/dx ln (1/2 - pi)^-2 = 2 pi'/(1/2 - pi)", {"factor": 2}),),
        faults=(("(S80)'s second term with the factor 3", {"factor": 3}),))
def lemma_s6_derivative(factor: int | Fraction = 1) -> AuditResult:
    r"""sympy differentiates :math:`g = \ln(x^2/(1/2 - \pi_{x/6})^2)` and compares it with (S80): the
    derivative is :math:`2/x + 2\pi'/(1/2 - \pi)`, (S80) has :math:`1\cdot\pi'/(1/2 - \pi)`.  With the factor
    2, (S83)–(S86) give :math:`(2 - 2e^{1/6})/x < 0`, so the argument no longer shows g' ≥ 0; Lemma S6 itself
    holds (``dame.lemma_s6``: f is increasing, checked by interval arithmetic), and the true g' is
    :math:`(1/u - 1/\sinh u)/3 > 0`, u = x/6 (sympy).  ``factor`` is the printed factor of (S80)'s second term (1 as printed,
    2 the repair)."""
    x = sp.Symbol("x", positive=True)
    e = sp.exp(x / 6)
    pi = e / (1 + e)
    g = sp.log(x**2 / (sp.Rational(1, 2) - pi) ** 2)
    fs = sp.Rational(Fraction(factor).numerator, Fraction(factor).denominator)
    printed = 2 / x + fs * (sp.Rational(1, 6) * e / (1 + e) ** 2) / (sp.Rational(1, 2) - pi)
    true = sp.diff(g, x)
    E = sp.Symbol("E", positive=True)  # e^{x/6}: both sides are rational in (x, E), so cancel decides the identity
    identity = sp.cancel(sp.together((true - printed).subs(e, E))) == 0
    diff_at = [float((true - printed).subs(x, v)) for v in (sp.Rational(1, 2), 1)]
    ratio = sp.simplify((true - 2 / x) / (sp.Rational(1, 6) * e / (1 + e) ** 2 / (sp.Rational(1, 2) - pi)))

    # the true g' is (1/3)(1/u - 1/sinh u), u = x/6: positive since sinh u - u vanishes at 0 with derivative
    # cosh u - 1 = 2 sinh(u/2)^2 > 0 (three sympy identities)
    u = sp.Symbol("u", positive=True)
    closed = sp.cancel(sp.together((true - (1 / u - 1 / sp.sinh(u)) / 3).subs(x, 6 * u).rewrite(sp.exp)
                                   .subs(sp.exp(u), E))) == 0
    square = sp.cancel(sp.together((sp.cosh(u) - 1 - 2 * sp.sinh(u / 2) ** 2).rewrite(sp.exp).subs(sp.exp(u / 2), E))) == 0
    positive = closed and square and (sp.sinh(u) - u).subs(u, 0) == 0
    corrected_bound = 2 - 2 * math.exp(1 / 6)
    status = "holds" if identity and positive else "discrepancy"
    return result("dame.lemma_s6_derivative", status, factor=str(factor),
                   true_second_term_factor=str(ratio), difference_at_half_and_1=diff_at,
                   s86_with_the_factor_2=corrected_bound,
                   true_derivative="(1/3)(1/u - 1/sinh u), u = x/6: positive on (0, 1]" if positive else "not shown",
                   lemma_s6_itself="see dame.lemma_s6",
                   smallest_counterexample={} if status != "discrepancy" else {"order": "smallest x in (0, 1]",
                                            "value": "every point of the domain (true - printed = pi'/(1/2 - pi) "
                                                     "!= 0 for every x > 0)"},
                   slack={"tightest_constant": "0", "method": "sympy",
                          "note": "g' >= 0 is an identity-based proof: g' = (1/u - 1/sinh u)/3 > 0, whose infimum 0 "
                                  "is approached as x -> 0 (no constant above 0 holds)"})


K = sp.Symbol("K", positive=True)  # stands for √(m̃nα²) ∨ 1


def _first_failure(gap: Any, grid: int = 64, up_to: int = 64 * 4) -> dict:
    """The smallest y = k/grid (k = 1, 2, ..) where ``gap(y)`` (lhs − rhs of an inequality lhs ≤ rhs, written over
    arb balls) is certified positive at the exact point y; {} if none up to ``up_to``/grid (y <= 4 by default)."""
    for k in range(1, up_to + 1):
        yv = Fraction(k, grid)
        g = gap(boxes.point(yv))
        if bool(g > 0):
            return {"order": f"smallest y = m~ n alpha^2 on the grid k/{grid}", "m_tilde_n_alpha2": str(yv),
                    "excess": float(g.mid())}
    return {}


def _y_cases(expr: sp.Expr, y: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """``expr`` (in y = m̃nα² and K = √y ∨ 1) on y ≥ 1 (y = 1 + u, K = √y) and on y < 1 (y = 1/(1 + u), K = 1),
    u > 0."""
    u = sp.Symbol("u", positive=True)
    return (sp.simplify(expr.subs(K, sp.sqrt(1 + u)).subs(y, 1 + u)), sp.simplify(expr.subs(K, 1).subs(y, 1 / (1 + u))))


def _nonnegative(e: sp.Expr) -> bool:
    """``e(u) ≥ 0`` for every u > 0 (sympy: the set where it is negative is empty)."""
    e = sp.simplify(e)
    if e == 0 or e.is_nonnegative:
        return True
    u = next(iter(e.free_symbols))
    return sp.solveset(e < 0, u, sp.Interval.open(0, sp.oo)) == sp.S.EmptySet


def _tightest_over_y(lhs: sp.Expr, y: sp.Symbol) -> sp.Expr:
    """The largest c with ``lhs`` ≤ 1/(c√y) for every y > 0: the infimum of 1/(√y·lhs) over both cases of the ∨
    (y = 1 + u with K = √y, y = 1/(1 + u) with K = 1; u > 0), by sympy (limits at the ends u → 0, u → ∞)."""
    u = sp.Symbol("u", positive=True)
    vals = []
    for e in _y_cases(1 / (sp.sqrt(y) * lhs), y):
        e = sp.simplify(e)
        crit = [r for r in sp.solveset(sp.diff(e, u), u, sp.Interval.open(0, sp.oo)) if r.is_real] \
            if e.has(u) else []
        vals += [sp.limit(e, u, 0, "+"), sp.limit(e, u, sp.oo)] + [e.subs(u, r) for r in crit]
    return sp.Min(*vals)


@register("dame.lemma_s7", "Pla et al. (2024), Lemma S7 (S94)",
        "4·exp(−m̃τ²/2) ≤ 1/(4√(m̃nα²)) for eq. (4)'s τ", "sympy (two cases of the ∨) + exact point")
def lemma_s7(constant: int = 4) -> AuditResult:
    r"""With eq. (4)'s τ, :math:`4e^{-\tilde m\tau^2/2} = 1/(2(\sqrt{\tilde m n\alpha^2} \vee 1))` (sympy),
    which exceeds :math:`1/(\text{constant}\cdot\sqrt{\tilde m n\alpha^2})` for constant = 4 wherever
    :math:`\tilde m n\alpha^2 > 1/4` (the failure set, by sympy); the smallest counterexample on the grid
    :math:`\tilde m n\alpha^2 = k/64` is searched and certified by balls (17/64).  With 2 it holds for every :math:`\tilde m n\alpha^2 > 0` (both cases of the ∨), and
    (I) + (III) ≤ (1/2 + 1/2)/√(m̃nα²) still gives (S135)'s bias."""
    y = sp.Symbol("y", positive=True)
    lhs = 4 * sp.exp(-sp.log(8 * K))
    def holds_with(c: int) -> bool:
        return all(_nonnegative(e) for e in _y_cases(1 / (c * sp.sqrt(y)) - lhs, y))
    found = _first_failure(lambda yv: 4 * (-(8 * yv.sqrt().max(arb(1))).log()).exp() - 1 / (constant * yv.sqrt()))
    infimum = sp.solveset(lhs.subs(K, 1) - 1 / (constant * sp.sqrt(y)) > 0, y, sp.Interval.open(0, 1))
    status = "discrepancy" if found and holds_with(2) else "holds" if holds_with(constant) else "fails"
    best = _tightest_over_y(lhs, y)
    return result("dame.lemma_s7", status, domain="m~ n alpha^2 > 0 (symbolic, both cases of the max)",
                   slack={"tightest_constant": str(best), "method": "sympy (exact infimum over both cases)",
                          "note": "the largest c with 4 exp(-m~ tau^2/2) <= 1/(c sqrt(m~ n alpha^2)): equality for "
                                  "every m~ n alpha^2 >= 1, so the printed 4 fails and 2 is tight"},
                   lhs=str(sp.simplify(lhs)), smallest_counterexample=found,
                   failure_set_below_1=str(infimum), holds_with_constant_2=holds_with(2))


@register("dame.lemma_s8", "Pla et al. (2024), Lemma S8 (S115)–(S120)",
        "2·Σ_{i≤m̃} P(B̄_i, m = i) ≤ 1/(2√(m̃nα²)) (Hoeffding with eq. (4)'s threshold)", "sympy (two cases of the ∨)")
def lemma_s8(constant: int = 2) -> AuditResult:
    r"""Hoeffding gives :math:`P(\bar B_i \mid m = i) \le 2e^{-L}`, :math:`L = \ln(8(\sqrt{\tilde mn\alpha^2} \vee 1))`,
    so (III) ≤ :math:`4e^{-L} = 1/(2(\sqrt{\tilde m n\alpha^2} \vee 1)) \le 1/(2\sqrt{\tilde m n\alpha^2})`,
    with equality where :math:`\tilde m n\alpha^2 \ge 1`: checked by sympy on both cases of the ∨."""
    y = sp.Symbol("y", positive=True)
    gap = 1 / (constant * sp.sqrt(y)) - 2 * 2 * sp.exp(-sp.log(8 * K))
    cases = _y_cases(gap, y)
    ok = all(_nonnegative(e) for e in cases)
    best = _tightest_over_y(2 * 2 * sp.exp(-sp.log(8 * K)), y)
    return result("dame.lemma_s8", "holds" if ok else "fails", domain="m~ n alpha^2 > 0 (symbolic, both cases)",
                   slack={"tightest_constant": str(best), "method": "sympy (exact infimum over both cases)",
                          "note": "the largest c with (III) <= 1/(c sqrt(m~ n alpha^2)): equality for every "
                                  "m~ n alpha^2 >= 1, so 2 is tight"},
                   gap_y_ge_1=str(cases[0]), gap_y_lt_1=str(cases[1]))


@register("dame.lemma_s9", "Pla et al. (2024), Lemma S9 (S122)–(S127)",
        "under A ∩ B_a, √(a/m̃)(√(2L)/√a + 5τ) ≤ 6τ for a ≤ m̃", "sympy")
def lemma_s9(bound: int = 6) -> AuditResult:
    r"""(S124) is an identity (sympy); (S126) ≤ (S127): with :math:`\tau = \sqrt{2L/\tilde m}` the left side is
    :math:`\tau(1 + 5\sqrt{a/\tilde m})`, whose maximum over :math:`a/\tilde m \in (0, 1]` is 6τ (sympy)."""
    a, m, X, s, L = sp.symbols("a m X s L", positive=True)
    s124 = sp.simplify(sp.sqrt(a) / sp.sqrt(m) * (X + (sp.sqrt(m) / sp.sqrt(a) - 1) * s) - s
                       - sp.sqrt(a) / sp.sqrt(m) * (X - s)) == 0
    tau = sp.sqrt(2 * L / m)
    lhs = sp.simplify(sp.sqrt(a) / sp.sqrt(m) * (sp.sqrt(2 * L) / sp.sqrt(a) + 5 * tau) / tau)
    r = sp.Symbol("r", positive=True)
    top = sp.maximum(lhs.subs(a, r * m), r, sp.Interval(0, 1))
    ok = s124 and bool(top <= bound)
    return result("dame.lemma_s9", "holds" if ok else "fails", domain="a / m~ in (0, 1], L > 0 (symbolic)",
                   slack={"tightest_constant": str(top), "method": "sympy (exact maximum over a / m~ in (0, 1])",
                          "note": "attained at a = m~: 6 is tight"},
                   s124_identity=s124, lhs_over_tau=str(lhs), maximum_over_tau=str(top))


@register("dame.s135_algebra", "Pla et al. (2024), (S135)–(S136), (S142)",
        "√m̃/E(√m ∧ m̃) · 1/√(m̃nα²) = 1/√(E(√m ∧ m̃) nα²) as (S135) writes", "sympy",
        domain="proved on E, m~, n alpha^2 > 0 (symbolic)", methods=("sympy",),
        repairs=(("(S135)'s right side as 1/(E sqrt(n alpha^2)) (E outside the root)", {"e_power": 1}),),
        faults=(("(S135)'s right side as 1/(E^2 sqrt(n alpha^2))", {"e_power": 2}),))
def s135_algebra(e_power: int = 0) -> AuditResult:
    r"""The left side is :math:`1/(E\sqrt{n\alpha^2})`, whose square :math:`1/(E^2 n\alpha^2)` is not (S136)'s
    :math:`1/(E\,n\alpha^2)` (E = :math:`E[\sqrt{m \wedge \tilde m}] \ge 1`).  The corrected term is at most
    :math:`L/(n\alpha^2E^2)` (L ≥ ln 8 > 1), so (S144)'s 1569 stands; the printed one is not bounded by it
    (E = 100, L = ln 8: 1/(100x) > ln 8/(10⁴x)).  ``e_power`` = k ≥ 1 writes the right side as
    :math:`1/(E^k\sqrt{n\alpha^2})` (k = 0: the printed :math:`1/\sqrt{E n\alpha^2}`; k = 1 is the repair)."""
    m, E, x = sp.symbols("m E x", positive=True)
    lhs = sp.sqrt(m) / E / sp.sqrt(m * x)
    printed = 1 / sp.sqrt(E * x) if e_power == 0 else 1 / (E**e_power * sp.sqrt(x))
    same = sp.simplify(lhs - printed) == 0
    corrected = sp.simplify(lhs**2)
    return result("dame.s135_algebra", "holds" if same else "discrepancy", e_power=e_power,
                   lhs=str(sp.simplify(lhs)), printed=str(printed), corrected_square=str(corrected),
                   smallest_counterexample={} if same else {
                       "order": "E = E[sqrt(m ∧ m~)] >= 1",
                       "value": "every point of the domain with E != 1 (the two sides agree only at E = 1)"},
                   slack={"note": "an identity (the left side equals 1/(E sqrt(n alpha^2)) on the whole domain): no "
                                  "constant to tighten"})


@register("dame.lemma_s11", "Pla et al. (2024), Lemma S11 (S138)–(S141), Algorithm 1 (standard Laplace ℓ_u)",
        "Var(θ̂⁽ⁿ⁾ | ĵ) ≤ 2(14τ)²/α²", "exact variances")
def lemma_s11(laplace_variance: int = 2) -> AuditResult:
    r"""Algorithm 1 draws ℓ_u from the standard Laplace law, variance 2, so
    :math:`\mathrm{Var}(14\tau\ell/\alpha) = 2(14\tau)^2/\alpha^2`, not (S140)'s :math:`(14\tau)^2/\alpha^2`.
    Counterexample to the lemma: one user with :math:`\bar X` uniform on :math:`\{s - \tau, s + \tau\}` inside
    the interval (variance τ²): the total is :math:`\tau^2 + 2(14\tau)^2/\alpha^2 > 2(14\tau)^2/\alpha^2`.  The
    proof allows (Popoviciu: a law on an interval of width 14τ has variance ≤ (7τ)²; α ≤ 1)
    :math:`\mathrm{Var} \le \tfrac94(14\tau)^2/\alpha^2`, hence (S143)'s 1568 becomes 1764 and
    :math:`c_3 = 1764 + 1 + 1 = 1766` (instead of 1570)."""
    tau, alpha = Fraction(1, 10), Fraction(1, 2)
    total = tau**2 + laplace_variance * (14 * tau) ** 2 / alpha**2
    lemma = 2 * (14 * tau) ** 2 / alpha**2
    corrected_var = Fraction(9, 4)
    c3 = int(2 * corrected_var * 196 * 2 + 2)
    status = "discrepancy" if total > lemma else "holds"
    return result("dame.lemma_s11", status, domain="exact at tau = 1/10, alpha = 1/2 (the excess is tau^2 for every tau, alpha)",
                   smallest_counterexample={} if status != "discrepancy" else {
                       "order": "any (tau, alpha)",
                       "value": "every point of the domain (the excess over the lemma is tau^2 > 0 for every tau, alpha)"},
                   variance=float(total), lemma_bound=float(lemma), laplace_variance=laplace_variance,
                   corrected_factor=str(corrected_var), corrected_c3=c3)


def _exp_step_fails(atom: int, xv: Fraction, reading: str) -> dict:
    """The step before (S146) for ``sizes.point(atom)`` at nα² = ``xv`` (exact rational) with the package's m̃
    (``reading``): {} if m̃ = 1 (the step is not used), else both sides in balls and whether the step fails
    (certified); P(m ≥ m̃) is 1 for m̃ ≤ atom and 0 above, exactly."""
    law = sizes.point(atom)
    mt = dame.m_tilde(law, n_alpha2=float(xv), reading=reading)
    if mt <= 1:
        return {}
    p = boxes.point(Fraction(1 if mt <= atom else 0))
    yv = boxes.point(8 * max(mt * xv, Fraction(1)))
    lhs = (-boxes.point(xv) * p * p / 579).exp()
    rhs = (yv.log() / yv) ** arb(1.5)
    return {"law": repr(law), "n_alpha2": str(xv), "m_tilde": mt, "lhs": float(lhs.mid()), "rhs": float(rhs.mid()),
            "step_fails": bool(lhs > rhs)}


@register("dame.s146_exp_step", "Pla et al. (2024), the step before (S146); Theorem 2's m̃ (∧ 1)",
        "if m̃ > 1, exp(−nα²P(m ≥ m̃)²/579) ≤ (ln y/y)^{3/2}, y = 8(m̃nα² ∨ 1)", "ball arithmetic + sympy",
        domain="proved on (n alpha^2, P, y) > 0 (symbolic: the step is P^2 >= phi); instances: point laws at "
               "atoms 2..8 x n alpha^2 = k/64 (k = 1..128), searched", methods=("sympy", "exact"),
        repairs=(("m~ read without the ∧ 1 (as the proof needs it)", {"reading": "proof"}),))
def s146_exp_step(reading: str = "printed") -> AuditResult:
    r"""The step holds exactly when :math:`P(m \ge \tilde m)^2 \ge \varphi(\tilde m)` (sympy: it is that
    inequality after taking logarithms, with :math:`c_5 = 579\cdot3/2`).  The printed ``∧ 1`` admits
    m̃ with :math:`\varphi(\tilde m) > 1`.  The smallest counterexample is searched in the order (atom of a
    point law, then nα² = k/64) with the package's m̃ (:func:`bounds.dame.m_tilde`) and certified by balls:
    ``sizes.point(2)`` at nα² = 1/64 (m̃ = 2, :math:`e^{-1/(64\cdot579)} \approx 1 > (\ln 8/8)^{3/2}
    \approx 0.133`).  ``reading="proof"`` (m̃ without the ``∧ 1``) gives m̃ = 1 wherever
    :math:`\varphi > 1`: the step is never used there (no counterexample in the search)."""
    x, P, y = sp.symbols("x P y", positive=True)
    step = sp.expand_log(sp.log(((sp.log(y) / y) ** sp.Rational(3, 2))), force=True)
    condition = sp.simplify(-x * P**2 / 579 - step)  # >= 0 would break the step; <= 0 is the step
    phi_form = sp.simplify(condition.subs(P**2, sp.Rational(579 * 3, 2) / x * sp.log(y / sp.log(y))))
    found: dict = {}
    searched = 0
    for atom in range(2, 9):
        for k in range(1, 129):
            searched += 1
            row = _exp_step_fails(atom, Fraction(k, 64), reading)
            if row.get("step_fails"):
                found = {"order": "smallest atom of a point law, then smallest n alpha^2 = k/64", **row}
                break
        if found:
            break
    return result("dame.s146_exp_step", "discrepancy" if found else "holds", reading=reading,
                   at_equality=str(phi_form), cases_searched=searched, smallest_counterexample=found,
                   slack={"note": "an equivalence (the step is exactly P(m >= m~)^2 >= phi(m~) after logarithms): no "
                                  "constant to tighten"})


@register("dame.s146_constant", "Pla et al. (2024), the step after (S145) to (S146)",
        "ln(8(m̃nα² ∨ 1))/(m̃nα²) ≤ L/(nα²E[√(m ∧ m̃)]²), L = ln(8(√(m̃nα²) ∨ 1)): the '+1' giving 1570",
        "ball arithmetic, boxes", thorough=True,
        domain="proved on log10(m~ n alpha^2) in [0, 18] (point laws, E^2 = m~)", methods=("ball-proof", "sympy"),
        repairs=(("the added term bounded by 2L/(n alpha^2 E^2) (ln y <= 2L), the proof's correct step",
                  {"factor": 2}),))
def s146_constant(thorough: bool = False, factor: int = 1) -> AuditResult:
    r"""The printed step adds :math:`\ln y/(\tilde m x)` as one more :math:`L/(xE^2)`; for a point law
    (:math:`E^2 = \tilde m`) that needs :math:`\ln y \le L`, false once :math:`\tilde m x > 1`
    (every :math:`\tilde m x > 1`, by sympy; the smallest counterexample on the grid k/64 is searched and
    certified by balls: 65/64).  The term is nevertheless
    :math:`\le L/(\tilde m x)`: (S145) ≤ :math:`(\ln y)^{3/2}/(2\sqrt2\sqrt L\,\tilde m x)` and
    :math:`\ln y \le 2L`, proved on :math:`\log_{10}(\tilde m x) \in [0, 18]`; so 1570 stands.  ``factor``
    is the multiple of L the step allows for :math:`\ln y` (1 as printed, 2 the repair)."""
    def printed(t: Any) -> Any:
        y = arb(10) ** t
        return factor * (8 * y.sqrt()).log() - (8 * y).log()

    def chain(t: Any) -> Any:
        y = arb(10) ** t
        L, ly = (8 * y.sqrt()).log(), (8 * y).log()
        return 2 * arb(2).sqrt() * L.sqrt() * L - ly ** arb(1.5)
    res = boxes.prove(printed, [(0, 18)] if factor != 1 else [(Fraction(1, 100), 18)], strict=False)
    fixed = boxes.prove(chain, [(0, 18)], strict=False, max_boxes=20000 if thorough else 4000)
    status = "discrepancy" if res.status == "fails" and fixed.proved else res.status if not fixed.proved else "holds"
    slack = boxes.tightest(lambda c, t: c * (8 * (arb(10) ** t).sqrt()).log() - (8 * arb(10) ** t).log(), [(0, 18)],
                           1, 2, steps=10)
    yy = sp.Symbol("y", positive=True)
    found = _first_failure(lambda yv: (8 * yv).log() - factor * (8 * yv.sqrt()).log())
    failure_set = sp.solveset(sp.log(8 * yy) - factor * sp.log(8 * sp.sqrt(yy)) > 0, yy, sp.Interval.open(0, sp.oo))
    return result("dame.s146_constant", status, **res.evidence("log10(m~ n alpha^2) in [0.01, 18], E^2 = m~ (point law)"),
                   smallest_counterexample=found, failure_set=str(failure_set),
                   corrected_chain=fixed.status, corrected_chain_boxes=fixed.boxes, constant_1570="stands",
                   slack={**slack.as_dict(), "note": "the smallest c with ln y <= c L on the domain: ln(8y)/ln(8 sqrt y) "
                          "increases in y, so the supremum (1.909) is attained at m~ n alpha^2 = 1e18; it tends to 2"})


def corrected_constants() -> dame.Constants:
    r"""Theorem 2's constants with the proof's steps repaired: :math:`c_3 = 1766` (Lemma S11 with the standard
    Laplace variance 2 and Popoviciu's bound, ``dame.lemma_s11``) and :math:`c_5 = 3474 = 4\cdot579\cdot3/2`
    (the 1/4 of Hoeffding's exponent, ``dame.lemma_s5_exponent``); :math:`c_1, c_2, c_4` unchanged."""
    return dame.Constants(sp.exp(-9) / 16, 24, 1766, 8, 3474, name="corrected")


@register("dame.theorem2_corrected", "Pla et al. (2024), Theorem 2 with the repaired proof (S135)–(S147)",
        "with m̃ read as the proof needs (no ∧ 1) and the corrected c3 = 1766, c5 = 3474, UB ≥ LB everywhere",
        "exhaustive over the family of dame.ub_ge_lb", thorough=True,
        domain="instances: 13 laws (atoms 1e3 .. 2^62) x n alpha^2 in {1e-3, 1e-1, .., 1e9} (thorough: dame.ub_ge_lb's "
               "29 laws x 97 values)", methods=("exhaustive",),
        faults=(("the corrected theorem with m~ read with the printed ∧ 1", {"reading": "printed"}),))
def theorem2_corrected(thorough: bool = False, reading: str = "proof") -> AuditResult:
    r"""Not a statement of the paper: the project's corrected Theorem 2 (the repairs of Lemma S5's exponent,
    Lemma S11's variance and the ∧ 1 of m̃ together), checked against Theorem 1.  Runs ``dame.ub_ge_lb`` with :func:`corrected_constants` and ``reading="proof"``, and evaluates the
    bounds at the issue's point (``sizes.point(10**12)``, nα² = 0.01) and at Figure 1a's setting (nα² = 500)
    under the three variants: printed, proof reading, proof reading with corrected constants."""
    from .dame import large_family, ub_ge_lb
    c = corrected_constants()
    if thorough:
        r = ub_ge_lb(constants=c, reading=reading, thorough=True)
        domain, violations, worst = r.evidence["domain"], r.evidence["violations"], r.evidence["min_log_ub_minus_log_lb"]
    else:  # the laws where the printed reading fails, one value of nα² every two decades
        xs = [10.0**k for k in range(-3, 10, 2)]
        gaps = [dame.upper_bound(law, n_alpha2=x, constants=c, reading=reading).log_value
                - dame.lower_bound(law, n_alpha2=x).log_value for law in large_family() for x in xs]
        domain = "13 laws with atoms 1e3 .. 2^62 x n alpha^2 in {1e-3, 1e-1, .., 1e9} (thorough: dame.ub_ge_lb's family)"
        violations, worst = sum(g < 0 for g in gaps), min(gaps)
    rows = []
    for law, x in ((sizes.point(10**12), 0.01), (sizes.point(10**12), 1e6), (sizes.poisson(100.0), 500.0),
                   (sizes.poisson(100.0), 1e6)):
        lb = dame.lower_bound(law, n_alpha2=x).value
        for name, consts, reading in (("printed", "paper", "printed"), ("proof", "paper", "proof"),
                                      ("corrected", c, "proof")):
            ub = dame.upper_bound(law, n_alpha2=x, constants=consts, reading=reading)
            rows.append({"law": repr(law), "n_alpha2": x, "variant": name, "m_tilde": ub.m_tilde, "upper": ub.value,
                         "lower": lb})
    return result("dame.theorem2_corrected", "holds" if violations == 0 else "fails", domain=domain,
                   violations=violations, min_log_ub_minus_log_lb=worst,
                   constants={"c3": 1766, "c5": 3474}, rows=rows)


@register("dame.quoted_inequalities", "Pla et al. (2024), Lemma S4 (Hoeffding), (S21) (Bretagnolle–Huber)",
          "the quoted inequalities hold for the laws the proofs apply them to", "exact binomial laws + ball arithmetic")
def quoted_inequalities(max_i: int = 40, factor: int | Fraction = 2) -> AuditResult:
    r"""Lemma S4 for ±1 samples with mean θ = (2q − 1): :math:`P(|\bar X_i - \theta| \ge \tau) \le 2e^{-i\tau^2/2}`
    by exact binomial sums (rationals) for i ≤ ``max_i``, q ∈ {1/2, 3/4, 9/10}, τ = k/8; and (S21),
    :math:`1 - D_{TV} \ge e^{-D_{KL}}/2`, for the products :math:`\mu_0^m, \mu_1^m` of Theorem 1's proof,
    m ≤ ``max_i``, δ = k/16 (TV exact, KL = mδ ln((1+δ)/(1−δ)) in balls).  ``factor`` replaces Hoeffding's 2."""
    bad_h, bad_bh, count = [], [], 0
    for i in range(1, max_i + 1):
        for q in (Fraction(1, 2), Fraction(3, 4), Fraction(9, 10)):
            theta = 2 * q - 1
            pmf = [math.comb(i, k) * q**k * (1 - q) ** (i - k) for k in range(i + 1)]
            for t in range(1, 17):
                tau = Fraction(t, 8)
                tail = sum((p for k, p in enumerate(pmf) if abs(Fraction(2 * k - i, i) - theta) >= tau), Fraction(0))
                count += 1
                if bool(boxes.point(tail) > boxes.point(Fraction(factor)) * (-boxes.point(i * tau * tau / 2)).exp()):
                    bad_h.append((i, str(q), str(tau)))
        for k in range(1, 16):
            d = Fraction(k, 16)
            tv = boxes.point(_tv_product(i, d))
            kl = i * boxes.point(d) * boxes.point((1 + d) / (1 - d)).log()
            count += 1
            if bool(1 - tv < (-kl).exp() / 2):
                bad_bh.append((i, str(d)))
    ok = not bad_h and not bad_bh
    return result("dame.quoted_inequalities", "holds" if ok else "fails",
                  domain=f"i, m = 1..{max_i}; Hoeffding: q in {{1/2, 3/4, 9/10}}, tau = k/8 (k = 1..16); "
                         "Bretagnolle-Huber: delta = k/16 (k = 1..15)", cases=count,
                  hoeffding_violations=bad_h[:5], bretagnolle_huber_violations=bad_bh[:5])
