r"""Audit checks of Kent, Berrett and Yu (2024), equation level: the covering numbers (Lemmas 17, 18; eqs.
(55)–(57), (60), (63), (64), (67)), the computable proof steps ((52), (54), (70), (75), (80), (108), (109),
(126), (129)), the procedures as implemented ((25), (29), (30), (49)) and the comparison tables (Tables 2–4).

Every check compares the package's object (:mod:`bounds.kent`) with a transcription of ``docs/kent.md`` written
here, or proves a proof step in exact or ball arithmetic; the formulas' confidence tags are those of
``docs/kent.md`` (V, S, R).

Examples
--------
>>> from bounds.audit import run
>>> run(["kent.eq70_hoeffding"])[0].status
'holds'
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb

from .. import kent
from .boxes import prove, tightest
from .core import AuditResult, register, result


def _rel(got: float, want: float) -> float:
    """Relative deviation of ``got`` from ``want`` (0 when both are 0, e.g. both underflow)."""
    return 0.0 if got == want else abs(got - want) / max(abs(want), 1e-300)


# =========================================================================== covering numbers


def _cover_dev(pairs: list) -> float:
    """Largest relative deviation of the package's covering numbers from the transcriptions, over (got, want)."""
    return max(_rel(float(g), float(w)) for g, w in pairs)


_DELTAS = (1e-6, 1e-2, 0.3, 1.5)


@register("kent.covering_cube", "Kent et al. (2024), eqs. (55)–(57) (docs/kent.md §4)",
          "(c√d/δ)^d ≤ N(δ) ≤ (C√d/δ)^d for the cube [−1, 1]^d in ℓ2: bounds.kent.covering('mean', ball='linf') is "
          "d log(c√d/δ), and the volume bound 2^d/(v_d δ^d) of (56) is ≥ (c√d/δ)^d with c = 2/√(2πe)", "ball-proof",
          domain="proved on d = 1..200 (the volume ratio, arb); instances: d in {1, 2, 5, 50} x delta in {1e-6, 1e-2, "
                 "0.3, 1.5} x c in {1, 0.48} (the package's covering)",
          methods=("ball-proof", "exact"),
          faults=(("the Stirling step's constant taken as 1: 2^d/v_d >= d^(d/2)", {"constant": 1}),))
def covering_cube(constant: float | None = None) -> AuditResult:
    r"""(i) :func:`bounds.kent.covering` against :math:`d\log(\max(c\sqrt d/\delta, 1))` (written here); (ii) the
    volume argument of (56), :math:`N(\delta) \ge \mathrm{vol}([-1,1]^d)/\mathrm{vol}(\delta B_2^d) =
    2^d\Gamma(d/2 + 1)/(\pi^{d/2}\delta^d)`, and Stirling: :math:`r_d = (2^d/v_d)^{1/d}/\sqrt d \ge c` for
    :math:`d \le 200` in ball arithmetic, with :math:`c = 2/\sqrt{2\pi e} \approx 0.4839`, the limit of :math:`r_d`
    (the slack: :math:`\min_d r_d`, approached as :math:`d` grows)."""
    pairs = []
    for d in (1, 2, 5, 50):
        for c in (1.0, 0.48):
            f = kent.covering("mean", d=d, ball="linf", constant=c)
            pairs += [(f(t), d * math.log(max(c * math.sqrt(d) / t, 1.0))) for t in _DELTAS]
    dev = _cover_dev(pairs)
    c_claim = arb(2) / (2 * arb.pi() * arb(1).exp()).sqrt() if constant is None else arb(constant)
    worst_d, worst, ok = 0, arb(10), True
    for d in range(1, 201):
        r = ((arb(2) ** d * (arb(d) / 2 + 1).gamma() / arb.pi() ** (arb(d) / 2)) ** (arb(1) / d)) / arb(d).sqrt()
        ok &= bool(r >= c_claim)
        if float(r.mid()) < float(worst.mid()):
            worst, worst_d = r, d
    status = "holds" if ok and dev <= 1e-12 else "fails"
    return result("kent.covering_cube", status, max_relative_deviation=dev, constant=float(c_claim.mid()),
                  slack={"tightest_constant_on_d_le_200": float(worst.mid()), "at_d": worst_d,
                         "limit": float((2 / (2 * arb.pi() * arb(1).exp()).sqrt()).mid()),
                         "note": "r_d decreases to 2/sqrt(2 pi e) = 0.4839 as d grows; at d = 1 it is 1"},
                  not_checked="the upper bound (55) (Wainwright's Lemma 5.7(b)); the package's c is a parameter")


@register("kent.covering_ball", "Kent et al. (2024), eq. (60) (Wainwright, 2019, Example 5.8; docs/kent.md §4)",
          "(1/δ)^d ≤ N(δ) ≤ (1 + 2/δ)^d for the ℓ2 unit ball: bounds.kent.covering('mean', ball='l2') gives "
          "d log(1/δ) and d log(1 + 2/δ), and both are the volume ratios", "sympy",
          domain="proved for every d >= 1, delta > 0 (sympy, the volume ratios); instances: d in {1, 2, 5, 50} x "
                 "delta in {1e-6, 1e-2, 0.3, 1.5} (the package's covering)",
          methods=("sympy", "exact"),
          faults=(("the upper side printed (1 + 1/δ)^d", {"upper_numerator": 1}),))
def covering_ball(upper_numerator: int = 2) -> AuditResult:
    r"""(i) the package's two forms against :math:`d\log\max(1/\delta, 1)` and
    :math:`d\log(1 + u/\delta)` (``u = upper_numerator``, 2 as printed); (ii) sympy:
    :math:`\mathrm{vol}(B)/\mathrm{vol}(\delta B) = \delta^{-d}` and
    :math:`\mathrm{vol}((1 + \delta/2)B)/\mathrm{vol}((\delta/2)B) = (1 + u/\delta)^d`."""
    pairs = []
    for d in (1, 2, 5, 50):
        lo, up = kent.covering("mean", d=d, ball="l2"), kent.covering("mean", d=d, ball="l2", constant=None)
        pairs += [(lo(t), d * math.log(max(1 / t, 1.0))) for t in _DELTAS]
        pairs += [(up(t), d * math.log1p(upper_numerator / t)) for t in _DELTAS]
    dev = _cover_dev(pairs)
    d, t, v = sp.symbols("d delta v_d", positive=True)
    vol = lambda r: v * r**d  # noqa: E731  volume of the radius-r ball in R^d
    same = lambda big, small, claim: sp.simplify(sp.powsimp(vol(big) / vol(small) / claim**d, force=True)) == 1  # noqa: E731
    low_id = same(1, t, 1 / t)
    up_id = same(1 + t / 2, t / 2, 1 + sp.Integer(upper_numerator) / t)
    return result("kent.covering_ball", "holds" if dev <= 1e-12 and low_id and up_id else "fails",
                  max_relative_deviation=dev, lower_volume_identity=low_id, upper_volume_identity=bool(up_id),
                  slack={"note": "identities (both sides are the volume ratios exactly): no constant to tighten"},
                  upper_numerator=upper_numerator)


def _binomial_ratio_scan(max_d: int, e_factor: bool, side: str) -> tuple[bool, Any, tuple[int, int] | None]:
    """Exact scan of C(d, s) against (d/s)^s (``side="lower"``) or (e d/s)^s (``"upper"``; ``e_factor`` False drops
    the e) for 1 <= s <= d <= max_d, d first: whether it holds, the extreme ratio, the first failure."""
    first, extreme, ok = None, None, True
    e = arb(1).exp()
    for d in range(1, max_d + 1):
        for s in range(1, d + 1):
            b = math.comb(d, s)
            if side == "lower":
                ratio: Any = Fraction(b) / Fraction(d, s) ** s
                good = ratio >= 1
                extreme = ratio if extreme is None else min(extreme, ratio)
            else:
                bound = (e * d / s) ** s if e_factor else arb(Fraction(d, s).numerator) ** s / arb(Fraction(d, s).denominator) ** s
                ratio = arb(b) / bound
                good = bool(ratio <= 1)
                extreme = float(ratio.mid()) if extreme is None else max(extreme, float(ratio.mid()))
            if not good:
                ok = False
                first = first or (d, s)
    return ok, extreme, first


@register("kent.covering_sparse_upper", "Kent et al. (2024), eq. (63) (docs/kent.md §4)",
          "N(δ) ≤ C(d, s)(C√s/δ)^s ≤ (ed/s)^s (C√s/δ)^s for s-sparse vectors: C(d, s) ≤ (ed/s)^s exactly, and "
          "bounds.kent.covering('sparse') is s log(ed/s) + s log(c√s/δ)", "exact",
          domain="instances: 1 <= s <= d <= 60 (every pair, exact integers against arb); d in {4, 16, 1000} x s in "
                 "{1, 2, 4} x delta in {1e-6, 1e-2, 0.3, 1.5} (the package's covering)",
          methods=("exact",),
          faults=(("the e of (ed/s)^s dropped: C(d, s) <= (d/s)^s", {"e_factor": False}),))
def covering_sparse_upper(e_factor: bool = True) -> AuditResult:
    r"""(i) :math:`\binom ds \le (ed/s)^s` for every :math:`1 \le s \le d \le 60` (Stirling's step of (63)); the slack
    :math:`\max \binom ds/(ed/s)^s = 1/e`, attained at :math:`s = 1`; (ii) the package's sparse covering against
    :math:`s\log(ed/s) + s\log\max(c\sqrt s/\delta, 1)` written here."""
    ok, extreme, first = _binomial_ratio_scan(60, e_factor, "upper")
    pairs = []
    for d in (4, 16, 1000):
        for s in (1, 2, 4):
            f = kent.covering("sparse", d=d, s=s)
            pairs += [(f(t), s * math.log(math.e * d / s) + s * math.log(max(math.sqrt(s) / t, 1.0))) for t in _DELTAS]
    dev = _cover_dev(pairs)
    return result("kent.covering_sparse_upper", "holds" if ok and dev <= 1e-12 else "fails", e_factor=e_factor,
                  max_relative_deviation=dev, first_failure_d_s=first,
                  slack={"max_binomial_over_bound": extreme, "note": "the supremum 1/e = 0.3679 is attained at s = 1 "
                                                                     "(every d): the bound has a factor e of room"})


@register("kent.lemma18", "Kent et al. (2024), Lemma 18 and eq. (64) (docs/kent.md §4, [R])",
          "log N(δ) ≥ s log(d/s) + s log(√s/δ) up to constants for s-sparse vectors: the packing counts C(d, s) 2^s "
          "shifted cubes, C(d, s) ≥ (d/s)^s exactly, and the s-dimensional volume ratio is (r/δ)^s", "exact + sympy",
          domain="instances: 1 <= s <= d <= 60 (every pair, exact rationals); proved for every s, r, delta > 0 (sympy, "
                 "the volume ratio)",
          methods=("exact", "sympy"),
          faults=(("the lower count with the e of the upper side: C(d, s) >= (ed/s)^s", {"e_factor": True}),))
def lemma18(e_factor: bool = False) -> AuditResult:
    r"""(i) :math:`\binom ds \ge (d/s)^s` for every :math:`1 \le s \le d \le 60` in exact rationals (``e_factor``
    plants :math:`(ed/s)^s`, checked in arb); the slack :math:`\min \binom ds/(d/s)^s = 1`, attained at
    :math:`s = 1` and :math:`s = d`; (ii) sympy: the packing of an :math:`s`-dimensional ball of radius :math:`r` by
    :math:`\delta`-balls has :math:`\mathrm{vol}(rB)/\mathrm{vol}(\delta B) = (r/\delta)^s`."""
    if e_factor:
        e = arb(1).exp()
        first = next(((d, s) for d in range(1, 61) for s in range(1, d + 1)
                      if not bool(arb(math.comb(d, s)) >= (e * d / s) ** s)), None)
        ok, extreme = first is None, None
    else:
        ok, extreme, first = _binomial_ratio_scan(60, False, "lower")
    s, r, t, v = sp.symbols("s r delta v_s", positive=True)
    vol_id = sp.simplify(sp.powsimp(v * r**s / (v * t**s) - (r / t) ** s, force=True)) == 0
    return result("kent.lemma18", "holds" if ok and vol_id else "fails", e_factor=e_factor, first_failure_d_s=first,
                  volume_identity=bool(vol_id),
                  slack={"min_binomial_over_bound": None if extreme is None else float(extreme),
                         "note": "C(d, s)/(d/s)^s >= 1 with equality at s = 1 and s = d: no room"},
                  confidence="[R] (the lemma's constants were lost with the text)")


@register("kent.lemma17", "Kent et al. (2024), Lemma 17 and eq. (67) (docs/kent.md §4)",
          "log N(δ) ≥ c δ^(−1/β) for the Sobolev class: the Varshamov–Gilbert packing of 2^(m/8) bump sums at "
          "separation δ ∝ m^(−β), and bounds.kent.covering('density') is c δ^(−1/β)", "exact + sympy",
          domain="instances: m = 8..800 (multiples of 8, exact integers); proved for every beta > 0 (sympy, the "
                 "exponent); instances: beta in {1/2, 1, 3} x c in {1, 0.3} x delta in {1e-6, 1e-2, 0.3} (package)",
          methods=("exact", "sympy"),
          faults=(("bump width h = 1/m² instead of 1/m", {"h_power": 2}),
                  ("Varshamov–Gilbert distance m/4 with 2^(m/4) codewords", {"vg_fraction": 4})))
def lemma17(h_power: int = 1, vg_fraction: int = 8) -> AuditResult:
    r"""(i) Gilbert's count: a binary code of length :math:`m`, minimum distance :math:`m/8` and at least
    :math:`2^{m/8}` words exists since :math:`2^{m/8}\,V(m, m/8 - 1) \le 2^m` (:math:`V` the Hamming ball's volume),
    checked in exact integers for :math:`m = 8, 16, \dots, 800`; (ii) sympy: with bump width :math:`h = m^{-1}`
    (``h_power``), the packing's separation :math:`\delta^2 \propto m\,h^{2\beta + 1}` and
    :math:`\log M = (m/8)\log 2` give :math:`\log M \propto \delta^{-1/\beta}`; (iii) the package's covering against
    :math:`c\,\delta^{-1/\beta}`."""
    vg_ok, first = True, None
    for m in range(8, 801, 8):
        k = m // vg_fraction
        vol = sum(math.comb(m, i) for i in range(k))
        if 2**k * vol > 2**m:
            vg_ok, first = False, first or m
    m, b, t, kap = sp.symbols("m beta delta kappa", positive=True)
    sep2 = kap * m * (1 / m**h_power) ** (2 * b + 1)  # delta^2 at m bumps of width h
    # log M = (m/8) log 2 and delta = sqrt(sep2(m)): d log(log M)/d log(delta) = (d log m)/(d log delta) = 2/(d log sep2/d log m)
    expo = sp.simplify(2 / (sp.diff(sp.log(sep2), m) * m))
    exp_ok = sp.simplify(expo + 1 / b) == 0
    pairs = []
    for beta in (0.5, 1.0, 3.0):
        for c in (1.0, 0.3):
            f = kent.covering("density", beta=beta, constant=c)
            pairs += [(f(tt), c * tt ** (-1 / beta)) for tt in (1e-6, 1e-2, 0.3)]
    dev = _cover_dev(pairs)
    ok = vg_ok and exp_ok and dev <= 1e-12
    return result("kent.lemma17", "holds" if ok else "fails", varshamov_gilbert=vg_ok, first_failure_m=first,
                  exponent_of_delta=str(expo), max_relative_deviation=dev, h_power=h_power, vg_fraction=vg_fraction)


# =========================================================================== proof steps


_A_BOX = [(Fraction(1, 1000), Fraction(1))]


@register("kent.eq52_mutual_information", "Kent et al. (2024), eq. (52) (Duchi et al., 2018, Cor. 3; docs/kent.md §3)",
          "I ≤ 4(e^α − 1)² n TV² ≤ c0 nα² for α ∈ (0, 1]: 4((e^α − 1)/α)² ≤ c0 with the reconstruction's c0 = 12",
          "ball-proof",
          domain="proved on alpha in [1/1000, 1] (arb boxes); (0, 1/1000]: (e^a - 1)/a <= 1.0006",
          methods=("ball-proof",),
          faults=(("c0 one per cent below the supremum 4(e − 1)² = 11.81 (11.69)", {"c0": Fraction(1169, 100)}),))
def eq52_mutual_information(c0: Fraction = Fraction(12)) -> AuditResult:
    r"""Proves :math:`c_0 - 4((e^\alpha - 1)/\alpha)^2 \ge 0` on :math:`[10^{-3}, 1]` (``c0`` = 12, docs/kent.md §3:
    "c0 ≈ 12–16" [R]); the ratio increases in α, so the tightest constant, bisected by
    :func:`bounds.audit.boxes.tightest`, is its value at α = 1, :math:`4(e - 1)^2 = 11.81`."""
    c = arb(c0.numerator) / c0.denominator
    g = lambda a: c - 4 * ((a.exp() - 1) / a) ** 2  # noqa: E731
    proof = prove(g, _A_BOX, strict=False, max_boxes=400)
    slack = tightest(lambda c, a: c - 4 * ((a.exp() - 1) / a) ** 2, _A_BOX, 11, 12, steps=10, max_boxes=400)
    return result("kent.eq52_mutual_information", proof.status, c0=float(c0), **proof.evidence("alpha in [1e-3, 1]"),
                  slack={**slack.as_dict(), "note": "the ratio 4((e^a - 1)/a)^2 increases: its supremum 4(e - 1)^2 = "
                                                    "11.81 is attained at alpha = 1 (c0 = 12 has room 0.19)"},
                  confidence="[R] (docs/kent.md §3: c0 of order 12-16)")


@register("kent.eq54_vote_margin", "Kent et al. (2024), eq. (54) (docs/kent.md §3)",
          "the vote's margin 2π_α − 1 = tanh(α/4) ≥ 0.24α for α ∈ (0, 1], π_α = exp(α/2)/(1 + exp(α/2))", "ball-proof",
          domain="proved on alpha in [1/10, 1] (arb boxes) and the identity for every alpha (sympy); (0, 1/10]: "
                 "tanh(a/4)/a >= 1/4 - a^2/192 >= 0.2499",
          methods=("ball-proof", "sympy"),
          faults=(("the margin constant 0.24 raised to 0.25", {"constant": Fraction(1, 4)}),))
def eq54_vote_margin(constant: Fraction = Fraction(6, 25)) -> AuditResult:
    r"""sympy: :math:`2e^{\alpha/2}/(1 + e^{\alpha/2}) - 1 = \tanh(\alpha/4)`; arb: :math:`\tanh(\alpha/4) - 0.24\alpha
    \ge 0` on :math:`[1/10, 1]`; the tightest constant :math:`\inf_\alpha \tanh(\alpha/4)/\alpha = \tanh(1/4) =
    0.2449`, at α = 1 (the ratio decreases)."""
    a = sp.Symbol("alpha", positive=True)
    ident = sp.simplify((2 * sp.exp(a / 2) / (1 + sp.exp(a / 2)) - 1 - sp.tanh(a / 4)).rewrite(sp.exp)) == 0
    k = arb(constant.numerator) / constant.denominator
    box = [(Fraction(1, 10), Fraction(1))]
    proof = prove(lambda x: (x / 4).tanh() - k * x, box, strict=False, max_boxes=400)
    slack = tightest(lambda c, x: (x / 4).tanh() / x + c, box, -1, 0, steps=12, max_boxes=400)
    return result("kent.eq54_vote_margin", proof.status if ident else "fails", identity=ident, constant=float(constant),
                  **proof.evidence("alpha in [1/10, 1]"),
                  slack={"tightest_constant_in": sorted(-v for v in slack.as_dict()["tightest_constant_in"]),
                         "note": "tanh(a/4)/a decreases: its infimum tanh(1/4) = 0.2449 is at alpha = 1 (room 0.0049)"},
                  confidence="[R] (docs/kent.md §3)")


@register("kent.eq70_hoeffding", "Kent et al. (2024), eqs. (25) and (70) (docs/kent.md §6, [V])",
          "with the implemented τ (bounds.kent.estimator_cap), Hoeffding's 2exp(−T*τ²/2) equals 2/(nT*α²)", "exact",
          domain="instances: n in {100, 1e4} x T in {10, 1e6} x alpha in {0.3, 1} x K in {1, 50}",
          methods=("exact",),
          faults=(("Hoeffding's exponent T*τ²/4 (a halved radius)", {"divisor": 4}),))
def eq70_hoeffding(divisor: int = 2) -> AuditResult:
    r"""Reads :math:`(T^*, \tau)` from :func:`bounds.kent.estimator_cap` and compares
    :math:`2e^{-T^*\tau^2/2}` with :math:`2/(nT^*\alpha^2)` (mpmath, 30 digits), and :math:`T^*` with
    :math:`\min\{T, \lfloor e^{n\alpha^2/K}\rfloor\}` written here (the cap of (25))."""
    import mpmath as mp

    worst, rows = 0.0, []
    with mp.workdps(30):
        for n in (100, 10**4):
            for T in (10, 10**6):
                for a in (0.3, 1.0):
                    for K in (1.0, 50.0):
                        x = mp.mpf(n) * mp.mpf(a) ** 2
                        if x / K > 600:
                            continue
                        t_star, tau = kent.estimator_cap(n=n, T=T, alpha=a, K=K)
                        cap = min(T, max(1, int(mp.floor(mp.exp(x / K)))))
                        lhs = 2 * mp.exp(-t_star * mp.mpf(tau) ** 2 / divisor)
                        rhs = 2 / (x * t_star)
                        dev = float(abs(lhs / rhs - 1)) + (0.0 if t_star == cap else 1.0)
                        rows.append({"n": n, "T": T, "alpha": a, "K": K, "T_star": t_star, "tau": tau,
                                     "relative_deviation": dev})
                        worst = max(worst, dev)
    return result("kent.eq70_hoeffding", "holds" if worst <= 1e-12 else "fails", max_relative_deviation=worst,
                  rows=rows, divisor=divisor)


@register("kent.eq80_cases", "Kent et al. (2024), eq. (80) and the two cases before it (docs/kent.md §5)",
          "for T > exp(nα²/K), T* = exp(nα²/K) and log(nT*α²)/(nT*α²) ≤ C exp(−nα²/(2K)): with K = 1 the tightest C on "
          "nα² ∈ [1, 200] is bisected", "ball-proof",
          domain="proved on n alpha^2 in [1, 200] with K = 1 (arb boxes)",
          methods=("ball-proof",),
          faults=(("the exponent exp(−nα²/K) (the 2 of 2K dropped) with C = 1", {"half": False}),))
def eq80_cases(half: bool = True) -> AuditResult:
    r"""With :math:`u = n\alpha^2`, :math:`T^* = e^{u}`: proves :math:`C e^{-u/2} - (\log u + u)/(u e^{u}) \ge 0` on
    :math:`[1, 200]` for :math:`C = 1` (``half=False``: :math:`e^{-u}` in place of :math:`e^{-u/2}`, which fails near
    :math:`u = 1`) and bisects the tightest :math:`C` (the supremum of the ratio
    :math:`(\log u + u)e^{-u/2}/u`: 0.6322, at :math:`u \approx 1.196`)."""
    k = arb(1) / 2 if half else arb(1)
    box = [(1, 200)]
    proof = prove(lambda u: (-k * u).exp() - (u.log() + u) / (u * u.exp()), box, strict=False, max_boxes=2000)
    slack = tightest(lambda c, u: c * (-k * u).exp() - (u.log() + u) / (u * u.exp()), box, 0, 1, steps=10,
                     max_boxes=2000)
    return result("kent.eq80_cases", proof.status, half=half, **proof.evidence("n alpha^2 in [1, 200], K = 1"),
                  slack={**slack.as_dict(), "note": "the ratio (log u + u) e^{-u/2}/u rises then falls: its supremum "
                                                    "0.6322 is at n alpha^2 = 1.196 (C = 1 has room 0.37)"},
                  confidence="[S] (docs/kent.md §5, the two cases of the upper-bound proof)")


# =========================================================================== comparison tables


def _tables_paper(table: int, swap_central: bool = False) -> dict:
    """Tables 2–4 as ``docs/kent.md`` §10 prints them (sympy, written here); keys as :func:`bounds.kent.comparison_table`."""
    n, T, a, d, s, b, c1 = sp.symbols("n T alpha d s beta c1", positive=True)
    x = n * a**2
    if table == 2:
        out = {}
        for ball, dim, sq in (("linf", d, d**2), ("l2", 1, d)):
            cu = dim / (n * T) + (sq / (n**2 * T**2 * a**2) if swap_central else sq / (n**2 * T * a**2))
            out[ball] = {"non-private": dim / (n * T), "local item-level": sq / (x * T),
                         "local user-level, small T": sq / (x * T), "local user-level, large T": sp.exp(-c1 * x / d),
                         "central item-level": dim / (n * T) + sq / (n**2 * T**2 * a**2),
                         "central user-level, small T": cu}
        return out
    if table == 3:
        u = d / x
        psi = sp.Min(u, 1 + sp.log(sp.Max(u, 1)))
        return {"sparse": {"non-private": s * sp.log(sp.E * d / s) / (n * T), "local item-level": sp.Min(s, s * d / (x * T)),
                           "local user-level, small T": sp.Min(s, s / T * psi),
                           "local user-level, large T": sp.exp(-c1 * x / s),
                           "central item-level": s * sp.log(d) / (n * T) + s**2 * sp.log(d) ** 2 / (n**2 * T**2 * a**2)}}
    return {"density": {"non-private": (n * T) ** (-2 * b / (2 * b + 1)), "local item-level": (x * T) ** (-b / (b + 1)),
                        "local user-level, small T": (x * T) ** (-b / (b + 1)), "local user-level, large T": x ** (-2 * b),
                        "central item-level": (n * T) ** (-2 * b / (2 * b + 1)) + (n * T * a) ** (-2 * b / (b + 1))}}


def _table_check(check_id: str, table: int, swap_central: bool = False) -> AuditResult:
    """Every entry of :func:`bounds.kent.comparison_table` against ``_tables_paper``, both lambdified to mpmath and
    compared at 4 random rational points (relative 1e-20 at 30 digits)."""
    import random

    import mpmath as mp

    rng = random.Random(table)
    n, T, a, d, s, b, c1 = sp.symbols("n T alpha d s beta c1", positive=True)
    bad, count = [], 0
    for key, entries in _tables_paper(table, swap_central).items():
        pkg = kent.comparison_table("mean", ball=key) if table == 2 else kent.comparison_table(key)
        if set(pkg) != set(entries):
            bad.append({"table": key, "why": f"settings differ: {sorted(set(pkg) ^ set(entries))}"})
            continue
        for setting, want in entries.items():
            got = pkg[setting][0]
            syms = (n, T, a, d, s, b, c1)
            by_name = {v.name: v for v in syms}
            f_got = sp.lambdify(syms, got.subs({v: by_name[v.name] for v in got.free_symbols}), "mpmath")
            f_want = sp.lambdify(syms, want, "mpmath")
            for _ in range(4):
                pt = (rng.randint(2, 10**4), rng.randint(1, 10**3), mp.mpf(rng.randint(1, 20)) / 20,
                      rng.randint(2, 500), rng.randint(1, 2), mp.mpf(rng.randint(1, 8)) / 2, 1)
                with mp.workdps(30):
                    g_, w_ = f_got(*pt), f_want(*pt)
                    differ = abs(g_ - w_) > mp.mpf(10) ** -20 * abs(w_)
                count += 1
                if differ:
                    bad.append({"table": key, "setting": setting, "package": str(got), "paper": str(want)})
                    break
    return result(check_id, "holds" if not bad else "fails", comparisons=count, mismatches=bad[:4],
                  confidence="[R] (docs/kent.md §10), except the small-T user-level = item-level rows [S]")


@register("kent.table2", "Kent et al. (2024), Table 2 (docs/kent.md §10)",
          "bounds.kent.comparison_table('mean') is Table 2 (ℓ∞ and ℓ2 columns)", "exact",
          domain="instances: 4 random rational points per entry (n, T, alpha, d, c1 = 1)", methods=("exact",),
          faults=(("the central user-level rate with T² (item-level's) in place of its linear T", {"swap_central": True}),))
def table2(swap_central: bool = False) -> AuditResult:
    """See ``_table_check``."""
    return _table_check("kent.table2", 2, swap_central)


@register("kent.table3", "Kent et al. (2024), Table 3 (docs/kent.md §10, ψ for log(1 + ·) as §8)",
          "bounds.kent.comparison_table('sparse') is Table 3 as reconstructed", "exact",
          domain="instances: 4 random rational points per entry (n, T, alpha, d, s, c1 = 1)", methods=("exact",),
          faults=(("the tables swapped: Table 4's entries read for Table 3", {"table": 4}),))
def table3(table: int = 3) -> AuditResult:
    """See ``_table_check``; ``table`` reads another table's transcription (the planted fault)."""
    if table != 3:
        r = _table_check("kent.table3", table)
        return result("kent.table3", "fails" if r.status == "holds" else r.status, **r.evidence)
    return _table_check("kent.table3", 3)


@register("kent.table4", "Kent et al. (2024), Table 4 (docs/kent.md §10)",
          "bounds.kent.comparison_table('density') is Table 4", "exact",
          domain="instances: 4 random rational points per entry (n, T, alpha, beta)", methods=("exact",),
          faults=(("the non-private exponent 2β/(2β + 1) read as β/(β + 1)", {"nonprivate_item": True}),))
def table4(nonprivate_item: bool = False) -> AuditResult:
    """See ``_table_check``; ``nonprivate_item`` plants the local exponent in the non-private row."""
    if nonprivate_item:
        n, T, a, b = sp.symbols("n T alpha beta", positive=True)
        got = kent.comparison_table("density")["non-private"][0]
        pt = {n: 100, T: 10, b: 1}
        ok = abs(sp.N(got.subs(pt)) - sp.N(((n * T) ** (-b / (b + 1))).subs(pt))) < 1e-20
        return result("kent.table4", "holds" if ok else "fails", nonprivate_item=True)
    return _table_check("kent.table4", 4)


# =========================================================================== the procedures as implemented


@register("kent.eq75_refinement", "Kent et al. (2024), eqs. (29), (30) and (75) (docs/kent.md §6, [V]; (75) [R])",
          "the implemented enlarged interval (bounds.estimators.kent.interval) has width ≤ 14τ for every bin and the "
          "Laplace scale (laplace_scale) is 14τ/α, so a refined report's variance is ≤ (14τ)²/4 + 2(14τ/α)² (75)",
          "exact",
          domain="instances: tau in {1/3, 1/10, 1/64, 0.0421} x every bin j < ceil(1/tau) x alpha in {0.1, 0.6, 1}",
          methods=("exact",),
          faults=(("the Laplace scale 12τ/α (the elected bin's 2τ left out of the sensitivity)", {"width": 12}),))
def eq75_refinement(width: int = 14) -> AuditResult:
    r"""For every bin :math:`I_j = [-1 + 2j\tau, -1 + 2(j+1)\tau)` the implemented window is
    :math:`[l_j - 6\tau, u_j + 6\tau] \cap [-1, 1]`: its width (read from the package) must be at most
    :math:`14\tau` (``width``), which bounds the sensitivity of the projected mean and, by Popoviciu, its variance by
    :math:`(14\tau)^2/4`; the package's Laplace scale must equal :math:`14\tau/\alpha` (variance
    :math:`2(14\tau/\alpha)^2`)."""
    from ..estimators import kent as kent_estimators

    worst_width, worst_scale, rows = 0.0, 0.0, []
    for tau in (1 / 3, 0.1, 1 / 64, 0.0421):
        bins = math.ceil(1 / tau)
        lo, hi = kent_estimators.interval(list(range(bins)), tau)
        widest = max(float(h - l) for l, h in zip(lo, hi)) / tau
        worst_width = max(worst_width, widest)
        for a in (0.1, 0.6, 1.0):
            dev = _rel(kent_estimators.laplace_scale(tau, a), width * tau / a)
            worst_scale = max(worst_scale, dev)
            rows.append({"tau": tau, "alpha": a, "widest_window_over_tau": widest,
                         "variance_bound_75": (width * tau) ** 2 / 4 + 2 * (width * tau / a) ** 2})
    ok = worst_width <= width + 1e-12 and worst_scale <= 1e-14
    return result("kent.eq75_refinement", "holds" if ok else "fails", widest_window_over_tau=worst_width,
                  max_relative_deviation_of_scale=worst_scale, width=width, rows=rows[:4],
                  slack={"widest_window_over_tau": worst_width, "note": "interior bins reach the full 14 tau; bins "
                                                                         "near ±1 are clipped"})


@register("kent.theorem9_cutoff", "Kent et al. (2024), eqs. (49), (108), (109), (129) (docs/kent.md §9)",
          "the implemented cut-off k (bounds.estimators.kent.density_cutoff) is eq. (49) rounded down to an odd "
          "integer; k = (nTα²)^(1/(2β+2)) balances k²/(nTα²) and k^(-2β) at (nTα²)^(-β/(β+1)) (108); k = nα²/(C log nα²) "
          "turns the vote's error k exp(-c nα²/k) into k (nα²)^(-cC) (109); the bump bound needs T ≤ (nα²)^(2β+1) (129)", "exact + sympy",
          domain="instances: beta in {1/2, 1, 2} x (n, T, alpha) in {(1e3, 1e6, 1), (1e4, 10, 1/2), (500, 1e9, 1), "
                 "(2e4, 1e3, 1/5)} x C in {1, 3} (the cut-off); proved for every beta, n alpha^2, T > 0 (sympy)",
          methods=("exact", "sympy"),
          faults=(("the cut-off exponent 1/(2β + 1) (the non-private one)", {"exponent_shift": 1}),))
def theorem9_cutoff(exponent_shift: int = 2) -> AuditResult:
    r"""(i) :func:`bounds.estimators.kent.density_cutoff` against the largest odd integer below
    :math:`\min\{(nT\alpha^2)^{1/(2\beta + 2)}, n\alpha^2/(C\log(e \vee n\alpha^2))\}` (mpmath, written here);
    (ii) sympy: at :math:`k = u^{1/(2\beta + s)}`, :math:`u = nT\alpha^2` (``exponent_shift`` :math:`s = 2`),
    :math:`k^2/u = k^{-2\beta} = u^{-\beta/(\beta+1)}`; at :math:`k = x/(C\log x)`,
    :math:`k e^{-cx/k} = k x^{-cC}`; and :math:`u^{-\beta/(\beta+1)} \ge x^{-2\beta} \iff
    T \le x^{2\beta + 1}` (in logs: linear, zero at :math:`\log T = (2\beta + 1)\log x`, decreasing in
    :math:`\log T`)."""
    import mpmath as mp

    from ..estimators import kent as kent_estimators

    bad = []
    with mp.workdps(30):
        for b in (0.5, 1.0, 2.0):
            for n, T, a in ((1000, 10**6, 1.0), (10**4, 10, 0.5), (500, 10**9, 1.0), (20000, 1000, 0.2)):
                for C in (1.0, 3.0):
                    x = mp.mpf(n) * mp.mpf(a) ** 2
                    k_real = min((x * T) ** (1 / mp.mpf(2 * b + exponent_shift)), x / (C * mp.log(max(x, mp.e))))
                    k = max(1, int(mp.floor(k_real)))
                    k = k if k % 2 else max(1, k - 1)
                    got = kent_estimators.density_cutoff(n=n, T=T, alpha=a, beta=b, C=C)
                    if got != k:
                        bad.append({"beta": b, "n": n, "T": T, "alpha": a, "C": C, "package": got, "paper": k})
    bb, u, x, C, lT, lx = sp.symbols("beta u x C logT logx", positive=True)
    k1 = u ** (1 / (2 * bb + exponent_shift))
    balance = (sp.simplify(sp.powsimp(k1**2 / u / u ** (-bb / (bb + 1)), force=True)) == 1
               and sp.simplify(sp.powsimp(k1 ** (-2 * bb) / u ** (-bb / (bb + 1)), force=True)) == 1)
    cc = sp.Symbol("c", positive=True)
    k2 = x / (C * sp.log(x))
    tail = sp.simplify(sp.powsimp(k2 * sp.exp(-cc * x / k2) / (k2 * x ** (-cc * C)), force=True)) == 1
    gap = -bb / (bb + 1) * (lx + lT) + 2 * bb * lx  # log of (xT)^{-β/(β+1)} / x^{-2β}
    t129 = (sp.simplify(gap.subs(lT, (2 * bb + 1) * lx)) == 0) and bool(sp.simplify(sp.diff(gap, lT)) < 0)
    ok = not bad and balance and tail and t129
    return result("kent.theorem9_cutoff", "holds" if ok else "fails", mismatches=bad[:4], balance_108=balance,
                  tail_109=tail, condition_129=t129, exponent_shift=exponent_shift,
                  confidence="[S] the cut-off and (129)'s form, [R] the log factors (docs/kent.md §9)")


@register("kent.eq126_bumps", "Kent et al. (2024), eqs. (125)–(126) and Lemma 17's proof (docs/kent.md §9, [R])",
          "bump perturbations γh^β ψ((x − x_j)/h) on disjoint cells of width h are separated in L² by exactly "
          "4γ²h^(2β+1)‖ψ‖²ρ(ν, ν') (ρ the Hamming distance)", "exact + sympy",
          domain="proved for every h, gamma, beta > 0 (sympy, one bump); instances: m = 4 cells, every pair of "
                 "nu, nu' in {-1, 1}^4 (exact rationals, h = 1/4, beta = 2, gamma = 1/10)",
          methods=("sympy", "exact"),
          faults=(("separation h^(2β) (the substitution's dx = h du dropped)", {"h_power": 0}),))
def eq126_bumps(h_power: int = 1) -> AuditResult:
    r"""With the bump :math:`\psi(u) = (1 - 4u^2)^3` on :math:`[-1/2, 1/2]` (a polynomial stand-in for the paper's
    smooth bump, whose formula was lost), sympy shows (a bump centred at 0; translation does not change it) :math:`\int(\gamma h^\beta\psi(x/h))^2dx =
    \gamma^2h^{2\beta + 1}\|\psi\|_2^2` (``h_power`` is the 1 of :math:`2\beta + 1`), and exact rational
    integration over 4 cells of width 1/4 gives :math:`\|f_\nu - f_{\nu'}\|_2^2 = 4\gamma^2h^{2\beta+1}\|\psi\|^2
    \rho(\nu, \nu')` for all 256 pairs — the separation behind (126) and Lemma 17's :math:`\delta \propto m^{-\beta}`."""
    import itertools

    x, u = sp.symbols("x u", real=True)
    h, g, b = sp.symbols("h gamma beta", positive=True)
    psi = lambda v: (1 - 4 * v**2) ** 3  # noqa: E731
    norm2 = sp.integrate(psi(u) ** 2, (u, -sp.Rational(1, 2), sp.Rational(1, 2)))
    one = g**2 * h ** (2 * b) * sp.integrate(sp.expand(psi(x / h) ** 2), (x, -h / 2, h / 2))  # a bump centred at 0
    scaling = sp.simplify(one / (g**2 * h ** (2 * b + h_power) * norm2)) == 1
    m, hh, bb, gg = 4, sp.Rational(1, 4), 2, sp.Rational(1, 10)

    def cell_integral(c: Any) -> Fraction:  # exact: a polynomial integrated over the cell [c - h/2, c + h/2]
        prim = sp.Poly(sp.expand((gg * hh**bb * psi((x - c) / hh)) ** 2), x).integrate()
        v = sp.Rational(prim.eval(c + hh / 2) - prim.eval(c - hh / 2))
        return Fraction(int(v.p), int(v.q))

    cell = [cell_integral(hh * (j + sp.Rational(1, 2))) for j in range(m)]
    unit = 4 * Fraction(1, 100) * Fraction(1, 4) ** (2 * bb + h_power) * Fraction(int(norm2.p), int(norm2.q))
    exact = True
    for nu in itertools.product((-1, 1), repeat=m):
        for nu2 in itertools.product((-1, 1), repeat=m):
            dist = sum((p - q) ** 2 * cell[j] for j, (p, q) in enumerate(zip(nu, nu2)))  # disjoint supports
            rho = sum(p != q for p, q in zip(nu, nu2))
            exact &= dist == unit * rho
    return result("kent.eq126_bumps", "holds" if scaling and exact else "fails", bump_norm2=str(norm2),
                  scaling_identity=scaling, hamming_identity_all_pairs=exact, h_power=h_power,
                  slack={"note": "an equality (the separation is exactly 4 gamma^2 h^(2 beta + 1) ||psi||^2 rho): no "
                                 "constant to tighten"},
                  confidence="[R] (the bump's formula was lost; any bump scales the same way)")


@register("kent.lemma7_rotation", "Kent et al. (2024), eq. (33) and Lemma 7 (Levy et al., 2021, Lemma 2; docs/kent.md §6)",
          "the implemented rotation (bounds.estimators.kent.rotate) is U = H_d D/√d, and over its random signs "
          "P(‖Uv‖∞ ≥ ‖v‖₂√(2 log(2d/β)/d)) ≤ β", "exhaustive",
          domain="instances: d in {4, 8} x v in {e_1, (1, .., 1)/sqrt(d), a fixed random unit vector} and d = 16 x the "
                 "random v, x beta in {1/2, 1/10, 1/100}, every sign vector D (2^d of them: exact probabilities)",
          methods=("exhaustive",),
          faults=(("the threshold's factor 2 dropped: √(log(2d/β)/d)", {"factor": 1}),))
def lemma7_rotation(factor: int = 2) -> AuditResult:
    r"""(i) :func:`bounds.estimators.kent.rotate` against :math:`H_dDv/\sqrt d` with the Sylvester matrix built here
    (:math:`H_1 = [1]`, :math:`H_{2m} = [[H_m, H_m], [H_m, -H_m]]`), for every sign vector; (ii) the exact
    probability over the :math:`2^d` sign vectors that :math:`\|Uv\|_\infty \ge \|v\|_2\sqrt{c\log(2d/\beta)/d}`
    (``factor`` :math:`c = 2`, Hoeffding's constant) is at most β; the slack is the smallest :math:`\sqrt c` that
    would still do on these cases."""
    import numpy as np

    from ..estimators import kent as kent_estimators

    worst_dev, worst_excess, need, rows = 0.0, -1.0, 0.0, []
    for d in (4, 8, 16):
        H = np.array([[1.0]])
        while H.shape[0] < d:
            H = np.block([[H, H], [H, -H]])
        signs = (((np.arange(2**d)[:, None] >> np.arange(d)) & 1) * 2 - 1).astype(float)  # every sign vector
        w = np.random.default_rng(1).normal(size=d)
        vectors = (("e_1", np.eye(d)[0]), ("flat", np.ones(d) / math.sqrt(d)), ("random", w / np.linalg.norm(w)))
        for name, v in vectors if d < 16 else vectors[2:]:  # d = 16: 65536 sign vectors, one v
            got = kent_estimators.rotate(np.broadcast_to(v, signs.shape).copy(), signs)
            want = (signs * v) @ H.T / math.sqrt(d)
            worst_dev = max(worst_dev, float(np.abs(got - want).max()))
            top = np.sort(np.abs(got).max(axis=1))[::-1]
            for beta in (Fraction(1, 2), Fraction(1, 10), Fraction(1, 100)):
                scale = math.sqrt(math.log(2 * d / float(beta)) / d)
                t = math.sqrt(factor) * scale
                prob = Fraction(int((top >= t).sum()), len(top))
                allowed = int(beta * len(top))  # the number of sign vectors allowed at or above the threshold
                need = max(need, float(top[allowed]) / scale if allowed < len(top) else 0.0)
                worst_excess = max(worst_excess, float(prob - beta))
                rows.append({"d": d, "v": name, "beta": str(beta), "probability": str(prob)})
    ok = worst_dev <= 1e-12 and worst_excess <= 0
    return result("kent.lemma7_rotation", "holds" if ok else "fails", max_abs_deviation_from_HD=worst_dev,
                  max_probability_minus_beta=worst_excess, factor=factor, rows=rows[::3],
                  slack={"smallest_sqrt_c_on_these_cases": need, "sqrt_2": math.sqrt(2),
                         "note": "the exact tail needs a threshold factor just above this value on the 21 cases"})
