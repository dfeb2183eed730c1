"""Audit checks of Kent, Berrett and Yu (2024): one function per registered check ID."""

from __future__ import annotations

import math
from typing import Any, Callable

import sympy as sp

from .. import kent, mechanisms
from .core import AuditResult, register, result


# =========================================================================== Kent


@register("kent.lower_bound_quote", "Pla et al. (2024), §4.2 quoting Kent et al. (2024), Theorem 6; docs/kent.md §5",
        "DAME's quote Ω(e^{−c nα²} ∧ (mnα²)^{−1}) is Kent's lower bound", "exact",
        domain="instances: (n, T, alpha) in {(1e3, 1e6, 0.1), (1e4, 10, 0.05), (100, 100, 0.3)}; searched: n, T = 1..50 "
               "at alpha = 1/2 (n first)",
        methods=("exact",),
        repairs=(("the quote with ∨ (Kent's maximum) in place of ∧", {"combine": "max"}),))
def lower_bound_quote(combine: str = "min") -> AuditResult:
    r"""Compares :func:`bounds.kent.rate` (``"mean"``, d = 1: Kent's :math:`c\{(1 \wedge (nT\alpha^2)^{-1}) \vee
    e^{-c_1n\alpha^2}\}`) with DAME's quote: :func:`bounds.kent.dame_quote_lower` as printed (``combine="min"``),
    or the quote repaired, :math:`e^{-n\alpha^2} \vee (1 \wedge (nT\alpha^2)^{-1})`, written here
    (``combine="max"``).  The smallest counterexample is searched over :math:`n` then :math:`T` at α = 1/2."""

    def quote(n: int, T: int, a: float) -> float:
        if combine == "min":
            return kent.dame_quote_lower(n=n, T=T, alpha=a)
        x = n * a * a
        return max(math.exp(-x), min(1.0, 1 / (x * T)))

    rows = []
    for n, T, a in [(1000, 10**6, 0.1), (10**4, 10, 0.05), (100, 100, 0.3)]:
        rows.append({"n": n, "T": T, "alpha": a, "kent_vee": kent.rate("mean", n=n, T=T, alpha=a).lower,
                     "dame_quote": quote(n, T, a)})
    smallest = None
    for n in range(1, 51):
        for T in range(1, 51):
            k, q = kent.rate("mean", n=n, T=T, alpha=0.5).lower, quote(n, T, 0.5)
            if not math.isclose(k, q, rel_tol=1e-9):
                smallest = {"n": n, "T": T, "alpha": 0.5, "kent_vee": k, "dame_quote": q}
                break
        if smallest:
            break
    differ = smallest is not None or any(not math.isclose(r["kent_vee"], r["dame_quote"]) for r in rows)
    return result("kent.lower_bound_quote", "discrepancy" if differ else "holds", rows=rows, combine=combine,
                  smallest_counterexample=smallest,
                  note="the ∧ form is a weaker (valid) statement; Kent's own bound has ∨ (at n = T = 1, alpha = 1/2: "
                       "1 against e^{-1/4})")


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


def _theorem6_paper(n: int, T: int, alpha: float, d: int, combine: str, log_power: int,
                    ball: str = "linf") -> tuple[float, float]:
    r"""Theorem 6 with unit constants, transcribed from ``docs/kent.md`` §5 (mpmath, 30 digits): for the
    univariate mean (d = 1) and the ℓ∞ ball,

    .. math:: \text{lower} = \min\Big(d, \frac{d^2}{nT\alpha^2}\Big) \vee e^{-n\alpha^2/d},\qquad
              \text{upper} = d \wedge \Big(\frac{d^2\log(nT\alpha^2)}{nT\alpha^2} + e^{-n\alpha^2/d}\Big)

    ``combine`` ("max" as printed) joins the lower bound's two parts; ``log_power`` (1) is the power of the
    upper bound's log factor (faults plant "min" and 0).  For the ℓ2 ball (``ball="l2"``) the trivial risk is 1
    and :math:`d^2` is :math:`d`: :math:`\min(1, d/(nT\alpha^2)) \vee e^{-n\alpha^2/d}` below,
    :math:`1 \wedge (d\log(nT\alpha^2)/(nT\alpha^2) + e^{-n\alpha^2/d})` above (docs/kent.md §5, [R] logs)."""
    import mpmath

    with mpmath.workdps(30):
        x = mpmath.mpf(n) * mpmath.mpf(alpha) ** 2
        xT = x * T
        triv, size = (mpmath.mpf(d), d * d) if ball == "linf" else (mpmath.mpf(1), d)
        poly, expo = min(triv, size / xT), mpmath.exp(-x / d)
        lower = max(poly, expo) if combine == "max" else min(poly, expo)
        upper = min(triv, size * mpmath.log(xT) ** log_power / xT + expo)
        return float(lower), float(upper)


@register("kent.theorem6_mean", "Kent et al. (2024), Theorem 6, eq. (24) (docs/kent.md §5)",
          "the package's mean-estimation rates are Theorem 6's: lower = poly ∨ exp, upper = d ∧ (d² log(nTα²)/(nTα²) "
          "+ exp), unit constants", "exact (mpmath transcription)",
          domain="instances: (d, ball) in {(1, l_inf), (4, l_inf), (4, l_2)} x n in {10, 100, 1e4} x T in {1, 10, 1e3, 1e6} x alpha in {0.1, 0.5, 1}, "
                 "where n T alpha^2 >= e",
          methods=("exact",),
          faults=(("the lower bound's max of its two parts taken as a min", {"combine": "min"}),
                  ("the upper bound's log factor dropped", {"log_power": 0})))
def theorem6_mean(combine: str = "max", log_power: int = 1) -> AuditResult:
    r"""Evaluates :func:`bounds.kent.rate` (``"mean"``, unit :class:`~bounds.kent.RateConstants`) and
    ``_theorem6_paper`` on the grid, where :math:`nT\alpha^2 \ge e` (the package writes the log
    factor :math:`\log(e \vee nT\alpha^2)`); holds if both sides agree within a relative 1e-9."""
    rows, worst, count = [], 0.0, 0
    for d, ball in ((1, "linf"), (4, "linf"), (4, "l2")):
        for n in (10, 100, 10**4):
            for T in (1, 10, 10**3, 10**6):
                for a in (0.1, 0.5, 1.0):
                    if n * T * a * a < math.e:
                        continue
                    r = kent.rate("mean", n=n, T=T, alpha=a, d=d, ball=ball)
                    lo, up = _theorem6_paper(n, T, a, d, combine, log_power, ball)
                    dev = max(abs(r.lower - lo) / max(lo, 1e-300), abs(r.upper - up) / max(up, 1e-300))
                    count += 1
                    if dev > worst:
                        worst = dev
                        rows = [{"d": d, "ball": ball, "n": n, "T": T, "alpha": a, "package_lower": r.lower, "paper_lower": lo,
                                 "package_upper": r.upper, "paper_upper": up, "relative_deviation": dev}]
    return result("kent.theorem6_mean", "holds" if worst <= 1e-9 else "fails", points=count, combine=combine,
                  log_power=log_power, max_relative_deviation=worst, worst_point=rows,
                  confidence="[S] structure, [R] constants (docs/kent.md §5)")


@register("kent.example1", "Kent et al. (2024), Example 1, eqs. (6) and (7) (docs/kent.md §2)",
          "the package's univariate lower rate is at least c·min{1, 1/(nTα²)} (6) and at least c·exp(−c1 nα²) for "
          "every T (7): the two bounds of Example 1, the second independent of T", "exact",
          domain="instances: n in {10, 1e3, 1e5} x alpha in {0.1, 0.5, 1} x T in {1, 10, .., 1e12}, constants "
                 "(c, C, c1, c2) = (0.5, 2, 3, 1/4)",
          methods=("exact",),
          faults=(("the two bounds joined by a minimum (the rate below one of them)", {"combine": "min"}),))
def example1(combine: str = "max") -> AuditResult:
    r"""At each instance, with :func:`bounds.kent.rate` (``"mean"``, d = 1) and the bounds written here,
    :math:`b_6 = c\min\{1, 1/(nT\alpha^2)\}` and :math:`b_7 = c\,e^{-c_1n\alpha^2}`: the rate must equal the larger
    (so it is at least both; within a relative :math:`10^{-12}`; ``combine``: the fault takes the smaller), and its
    exponential part must not change with :math:`T`."""
    rc = kent.RateConstants(c=0.5, C=2.0, c1=3.0, c2=0.25)
    bad = []
    for n in (10, 1000, 10**5):
        for a in (0.1, 0.5, 1.0):
            x = n * a * a
            b7 = rc.c * math.exp(-rc.c1 * x)
            expo = set()
            for k in range(0, 13):
                T = 10**k
                r = kent.rate("mean", n=n, T=T, alpha=a, constants=rc)
                b6 = rc.c * min(1.0, 1 / (x * T))
                want = max(b6, b7) if combine == "max" else min(b6, b7)
                expo.add(r.lower_terms[1])
                if not math.isclose(r.lower, want, rel_tol=1e-12, abs_tol=1e-300):  # = max: at least both
                    bad.append({"n": n, "alpha": a, "T": T, "rate_lower": r.lower, "bound_6": b6, "bound_7": b7})
            if len(expo) != 1:
                bad.append({"n": n, "alpha": a, "why": "the exponential part changes with T"})
    return result("kent.example1", "holds" if not bad else "fails", violations=bad[:4], combine=combine,
                  confidence="[S] forms, [R] the constant c1 (docs/kent.md §2)")


# =========================================================================== Theorem 1 (eq. (8)) and its applications

def _cover_paper(kind: str, p: dict, side: str) -> Callable:
    r"""The log covering numbers of Propositions 3–5 as ``docs/kent.md`` §4 prints them (mpmath; written here, not
    read from :func:`bounds.kent.covering`), as functions of :math:`t = -\log\delta`: the cube
    :math:`d\log(c\sqrt d/\delta)`, the ball :math:`d\log(c/\delta)` (lower) and :math:`d\log(1 + 2/\delta)` (upper),
    sparse :math:`s\log(ed/s) + s\log(c\sqrt s/\delta)`, Sobolev :math:`c\,\delta^{-1/\beta}`; a log covering
    number is never negative (a single ball covers a set smaller than it)."""
    import mpmath as mp

    c = mp.mpf(p.get("c", 1))
    if kind == "cube":
        return lambda t: p["d"] * max(mp.mpf(0), mp.log(c * mp.sqrt(p["d"])) + t)
    if kind == "ball":
        if side == "upper":
            return lambda t: p["d"] * mp.log(1 + 2 * mp.exp(t))
        return lambda t: p["d"] * max(mp.mpf(0), mp.log(c) + t)
    if kind == "sparse":
        d, s = p["d"], p["s"]
        return lambda t: s * mp.log(mp.e * d / s) + s * max(mp.mpf(0), mp.log(c * mp.sqrt(s)) + t)
    return lambda t: c * mp.exp(t / mp.mpf(p["beta"]))


def _cover_package(kind: str, p: dict, side: str) -> Callable:
    """The same covering numbers read from :func:`bounds.kent.covering` (the object under test)."""
    c = p.get("c", 1.0)
    if kind in ("cube", "ball"):
        ball = "linf" if kind == "cube" else "l2"
        return kent.covering("mean", d=p["d"], ball=ball, constant=None if (kind == "ball" and side == "upper") else c)
    if kind == "sparse":
        return kent.covering("sparse", d=p["d"], s=p["s"], constant=c)
    return kent.covering("density", beta=p["beta"], constant=c)


def _eq8_paper(kind: str, p: dict, x: float, D: float, *, lower_scale: int = 2, log2: bool = True,
               c0: float = 1.0, c1: float = 1.0) -> tuple[Callable, Callable]:
    r"""Both sides of eq. (8), transcribed from ``docs/kent.md`` §3 with :math:`\Phi(t) = t^2`, as functions of
    :math:`t = -\log\delta` (mpmath):

    .. math:: \text{low}(\delta) = \Phi(\delta/2)\Big(1 - \frac{c_0 n\alpha^2 + \log 2}{\log N(\delta)}\Big),\qquad
              \text{up}(\delta) = \Phi(\delta) + \Phi(D)\,N(\delta)\,e^{-c_1 n\alpha^2}

    (``lower_scale`` is the 2 of :math:`\delta/2`, ``log2`` the :math:`\log 2` of Fano's numerator: faults plant 1
    and ``False``); the low side is taken as 0 where it is negative (the bound is then empty)."""
    import mpmath as mp

    A = c0 * mp.mpf(x) + (mp.log(2) if log2 else 0)
    low_cov, up_cov = _cover_paper(kind, p, "lower"), _cover_paper(kind, p, "upper")

    def low(t: Any) -> Any:
        u = low_cov(t)
        return (mp.exp(-t) / lower_scale) ** 2 * (1 - A / u) if u > A else mp.mpf(0)

    def up(t: Any) -> Any:
        return mp.exp(-2 * t) + mp.mpf(D) ** 2 * mp.exp(up_cov(t) - c1 * mp.mpf(x))

    return low, up


def _optimum(f: Callable, lo: float, hi: float, maximise: bool) -> tuple[Any, Any]:
    r"""The extremum of a unimodal ``f`` on :math:`t \in [lo, hi]` (mpmath): a 97-point scan, then 70 golden-section
    steps around the best point — written here, independent of the package's grid and Brent
    refinement.  Both sides of (8) are unimodal in :math:`t` on the domains below: :math:`\log \text{low}` is concave
    where the covering is linear in :math:`t` (or a power of :math:`e^t`), and :math:`\text{up}` is a sum of convex
    functions of :math:`t`."""
    import mpmath as mp

    sign = 1 if maximise else -1
    g = lambda t: sign * f(t)  # noqa: E731
    pts = [mp.mpf(lo) + (mp.mpf(hi) - lo) * k / 96 for k in range(97)]
    vals = [g(t) for t in pts]
    i = max(range(len(pts)), key=lambda k: vals[k])
    a, b = pts[max(i - 1, 0)], pts[min(i + 1, 96)]
    r = (mp.sqrt(5) - 1) / 2
    for _ in range(70):
        u, v = b - r * (b - a), a + r * (b - a)
        if g(u) >= g(v):
            b = v
        else:
            a = u
    t = (a + b) / 2
    best = max((g(t), t), (vals[i], pts[i]))
    return sign * best[0], best[1]


_TH1_CASES = (("cube", {"d": 1}, 2.0), ("cube", {"d": 4}, 4.0), ("ball", {"d": 3}, 2.0),
              ("sparse", {"d": 16, "s": 2}, 2 * math.sqrt(2)), ("sobolev", {"beta": 1.0}, 2.0),
              ("sobolev", {"beta": 2.0}, 2.0))
_TH1_X = (0.5, 40.0)
_TH1_C0, _TH1_C1 = 1.5, 0.75  # not 1: a constant dropped or swapped is visible


@register("kent.theorem1_eq8", "Kent et al. (2024), Theorem 1, eq. (8) (docs/kent.md §3)",
          "bounds.kent.theorem1 with bounds.kent.covering returns sup_δ of the left side and inf_δ of the right side "
          "of eq. (8), Φ(t) = t²", "exact (mpmath transcription, golden-section optimum)",
          domain="instances: covering in {cube d = 1, 4; l2 ball d = 3; sparse d = 16, s = 2; Sobolev beta = 1, 2} x "
                 "n alpha^2 in {0.5, 40} (alpha = 1/2), c0 = 3/2, c1 = 3/4, delta <= diameter",
          methods=("exact",),
          faults=(("Φ(δ/2) of the lower side read as Φ(δ)", {"lower_scale": 1}),
                  ("the log 2 of Fano's numerator c0 nα² + log 2 dropped", {"log2": False})))
def theorem1_eq8(lower_scale: int = 2, log2: bool = True) -> AuditResult:
    r"""For each covering and :math:`n\alpha^2`, calls :func:`bounds.kent.theorem1` on the package's covering
    (:func:`bounds.kent.covering`) and compares its ``lower`` and ``upper`` with the optimum over
    :math:`\delta \in (0, D]` of ``_eq8_paper`` (an independent transcription of (8) with its own coverings and its
    own optimiser), and its returned :math:`\delta`'s values with the transcription at those :math:`\delta`.  Holds
    if all agree within a relative :math:`10^{-7}`."""
    import mpmath as mp

    rows, worst, count = [], 0.0, 0
    with mp.workdps(20):
        for kind, p, D in _TH1_CASES:
            for x in _TH1_X:
                n = int(round(x / 0.25))
                up_cov = _cover_package(kind, p, "upper") if kind == "ball" else None
                th = kent.theorem1(_cover_package(kind, p, "lower"), n=n, alpha=0.5, diameter=D, log_covering_upper=up_cov,
                                   c0=_TH1_C0, c1=_TH1_C1)
                low, up = _eq8_paper(kind, p, n * 0.25, D, lower_scale=lower_scale, log2=log2, c0=_TH1_C0, c1=_TH1_C1)
                t_lo, t_hi = -math.log(D), -math.log(D) + 300
                best_low, _ = _optimum(low, t_lo, t_hi, True)
                best_up, _ = _optimum(up, t_lo, t_hi, False)
                at_low, at_up = low(-mp.log(th.delta_lower)), up(-mp.log(th.delta_upper))
                devs = [abs(th.upper - float(best_up)) / float(best_up), abs(th.upper - float(at_up)) / float(at_up)]
                if best_low > 0:
                    devs += [abs(th.lower - float(best_low)) / float(best_low),
                             abs(th.lower - float(at_low)) / float(best_low)]
                elif th.lower != 0:
                    devs.append(math.inf)
                dev = max(devs)
                count += 1
                rows.append({"covering": kind, **p, "n_alpha2": n * 0.25, "diameter": D, "package_lower": th.lower,
                             "paper_lower": float(best_low), "package_upper": th.upper, "paper_upper": float(best_up),
                             "relative_deviation": dev})
                worst = max(worst, dev)
    return result("kent.theorem1_eq8", "holds" if worst <= 1e-7 else "fails", points=count,
                  max_relative_deviation=worst, rows=rows, lower_scale=lower_scale, log2=log2,
                  confidence="[S] form, [R] constants c0, c1 (docs/kent.md §3)")


# =========================================================================== Propositions 3–5: infinite-T rates

_RC = kent.RateConstants(c=0.5, C=2.0, c1=3.0, c2=0.25)  # distinct constants: a swapped constant is visible


def _proof_deltas(kind: str, p: dict, x: float, c0: float = 1.0, c1: float = 1.0) -> tuple[float, float]:
    r"""The δ's the proofs of Propositions 3–5 choose (Appendix A, written here in closed form): :math:`\delta_L` with
    :math:`\log N(\delta_L) = 2(c_0n\alpha^2 + \log 2)`, where the left side of (8) is :math:`\Phi(\delta_L/2)/2`, and
    :math:`\delta_U` with :math:`\log N(\delta_U) = c_1n\alpha^2/2`, where the right side is at most
    :math:`\Phi(\delta_U) + \Phi(D)e^{-c_1n\alpha^2/2}` (unit covering constants)."""
    A = c0 * x + math.log(2)
    if kind == "cube":
        d = p["d"]
        return math.sqrt(d) * math.exp(-2 * A / d), math.sqrt(d) * math.exp(-c1 * x / (2 * d))
    if kind == "ball":
        d = p["d"]
        return math.exp(-2 * A / d), 2 / math.expm1(c1 * x / (2 * d))
    if kind == "sparse":
        d, s = p["d"], p["s"]
        head = s * math.log(math.e * d / s)
        return math.sqrt(s) * math.exp(-(2 * A - head) / s), math.sqrt(s) * math.exp(-(c1 * x / 2 - head) / s)
    b = p["beta"]
    return (1 / (2 * A)) ** b, (2 / (c1 * x)) ** b


def _infinite_t(check_id: str, cases: tuple, problem: str, *, dim_in_exponent: bool, swap: bool) -> AuditResult:
    r"""Propositions 3–5 at each case: (i) :func:`bounds.kent.rate` at :math:`T = \infty` (a :math:`T` with
    :math:`nT\alpha^2 = 10^{250}`, where the polynomial terms are below :math:`10^{-240}`) against the transcription
    :math:`c\,e^{-c_1n\alpha^2/k}` (:math:`k = d` or :math:`s`; :math:`c(n\alpha^2)^{-2\beta}` for the Sobolev class)
    and, for the means, the upper :math:`C e^{-c_2n\alpha^2/d}`, with :class:`~bounds.kent.RateConstants` (0.5, 2,
    3, 1/4); (ii) :func:`bounds.kent.theorem1` on the package's coverings against the proofs' explicit bounds at their
    δ's (``_proof_deltas``): lower :math:`\ge \Phi(\delta_L/2)/2`, upper :math:`\le \Phi(\delta_U) + \Phi(D)e^{-n\alpha^2/2}`."""
    rows, bad = [], []
    cc1, cc2 = (_RC.c2, _RC.c1) if swap else (_RC.c1, _RC.c2)
    for kind, p, D, xs in cases:
        k = p.get("s", p.get("d", 1))
        for x in xs:
            n, alpha = int(round(x * 4)), 0.5
            T = max(1, int(10.0**250 / x))
            kw = {"d": p["d"], "ball": "linf" if kind == "cube" else "l2"} if problem == "mean" else (
                {"d": p["d"], "s": p["s"]} if problem == "sparse" else {"beta": p["beta"]})
            r = kent.rate(problem, n=n, T=T, alpha=alpha, constants=_RC, **kw)
            scale = k if dim_in_exponent else 1
            if problem == "density":
                want_low, want_up = _RC.c * x ** (-2 * p["beta"]), None
            else:
                want_low = _RC.c * math.exp(-cc1 * x / scale)
                want_up = min(p["d"] if kind == "cube" else 1, _RC.C * math.exp(-cc2 * x / scale)) if problem == "mean" else None
            dev = abs(r.lower - want_low) / want_low
            if want_up is not None:
                dev = max(dev, abs(r.upper - want_up) / want_up)
            up_cov = _cover_package(kind, p, "upper") if kind == "ball" else None
            th = kent.theorem1(_cover_package(kind, p, "lower"), n=n, alpha=alpha, diameter=D, log_covering_upper=up_cov)
            dl, du = _proof_deltas(kind, p, x)
            low_proof, up_proof = (dl / 2) ** 2 / 2, du**2 + D**2 * math.exp(-x / 2)
            ok = dev <= 1e-6 and th.lower >= low_proof * (1 - 1e-9) and th.upper <= up_proof * (1 + 1e-9)
            row = {"set": kind, **p, "n_alpha2": x, "rate_lower": r.lower, "paper_lower": want_low,
                   "relative_deviation": dev, "theorem1_lower": th.lower, "proof_lower_bound": low_proof,
                   "theorem1_upper": th.upper, "proof_upper_bound": up_proof,
                   "proof_exponents_per_unit_x_over_k": [-math.log(low_proof) / (x / k), -math.log(up_proof) / (x / k)]}
            if problem == "density":
                row["proof_exponents_per_unit_x_over_k"] = [-math.log(low_proof) / math.log(x), -math.log(up_proof) / math.log(x)]
                row["proof_log_exponents"] = row.pop("proof_exponents_per_unit_x_over_k")
            rows.append(row)
            if not ok:
                bad.append(row)
    return result(check_id, "holds" if not bad else "fails", points=len(rows), rows=rows, violations=bad[:3],
                  dim_in_exponent=dim_in_exponent, swapped_constants=swap,
                  note="(ii): the proofs' explicit bounds are of the form K e^{-a x/k} (k = d or s) for the means and "
                       "K x^{-2 beta} for the Sobolev class; the exponents a per unit x/k (for the Sobolev class -log(bound)/log x) are reported")


_FAULTS_INF = (("the exponent's 1/d (1/s) dropped: exp(-c1 n alpha^2)", {"dim_in_exponent": False}),
               ("the lower exponent's c1 and the upper's c2 swapped", {"swap": True}))


@register("kent.proposition3", "Kent et al. (2024), Proposition 3, eqs. (13)–(14), proof in Appendix A",
          "infinite-T rates of the l_inf and l_2 ball means: exp(-c1 nα²/d) ≲ M(n,∞) ≲ exp(-c2 nα²/d), read from "
          "bounds.kent.rate (T = ∞) and bounds.kent.theorem1 with the package's coverings", "exact",
          domain="instances: cube d in {1, 4}, l2 ball d = 3 x n alpha^2 / d in {4, 25} (n alpha^2 >= d log d), "
                 "constants (c, C, c1, c2) = (0.5, 2, 3, 1/4)",
          methods=("exact",), faults=_FAULTS_INF)
def proposition3(dim_in_exponent: bool = True, swap: bool = False) -> AuditResult:
    """See ``_infinite_t``: eq. (13) (cube, the l_inf ball) and eq. (14) (the l_2 ball)."""
    cases = (("cube", {"d": 1}, 2.0, (4.0, 25.0)), ("cube", {"d": 4}, 4.0, (16.0, 100.0)),
             ("ball", {"d": 3}, 2.0, (12.0, 75.0)))
    return _infinite_t("kent.proposition3", cases, "mean", dim_in_exponent=dim_in_exponent, swap=swap)


@register("kent.proposition4", "Kent et al. (2024), Proposition 4, eq. (17), proof in Appendix A",
          "infinite-T rate of the s-sparse mean: exp(-c1 nα²/s) ≲ M(n,∞) ≲ exp(-c2 nα²/s) under nα² ≳ s log(ed/s), "
          "read from bounds.kent.rate (T = ∞, lower) and bounds.kent.theorem1 with the sparse covering", "exact",
          domain="instances: (d, s) in {(16, 2), (100, 3)} x n alpha^2 / s in {8, 40} or {12, 40} (n alpha^2 >= 2 s log(ed/s))",
          methods=("exact",), faults=_FAULTS_INF)
def proposition4(dim_in_exponent: bool = True, swap: bool = False) -> AuditResult:
    """See ``_infinite_t``: eq. (17); the package's sparse upper rate is Theorem 8's (its exponent has a log d), so
    the upper side is read from Theorem 1 only."""
    cases = (("sparse", {"d": 16, "s": 2}, 2 * math.sqrt(2), (16.0, 80.0)),
             ("sparse", {"d": 100, "s": 3}, 2 * math.sqrt(3), (36.0, 120.0)))
    return _infinite_t("kent.proposition4", cases, "sparse", dim_in_exponent=dim_in_exponent, swap=swap)


@register("kent.proposition5", "Kent et al. (2024), Proposition 5, eq. (23), proof in Appendix A",
          "infinite-T rate of Sobolev densities: M(n,∞) ≍ (nα²)^(-2β), read from bounds.kent.rate (T = ∞, lower) "
          "and bounds.kent.theorem1 with the Sobolev covering c δ^(-1/β)", "exact",
          domain="instances: beta in {1, 2} x n alpha^2 in {10, 1000}",
          methods=("exact",),
          faults=(("the exponent -2 beta read as -beta/(beta+1) (the item-level one)", {"exponent": "item"}),))
def proposition5(exponent: str = "paper") -> AuditResult:
    """See ``_infinite_t``: eq. (23); the package's upper rate is Theorem 9's (with a log), so the upper side is read
    from Theorem 1 only.  ``exponent="item"`` plants the item-level exponent β/(β+1) in the transcription."""
    cases = (("sobolev", {"beta": 1.0}, 2.0, (10.0, 1000.0)), ("sobolev", {"beta": 2.0}, 2.0, (10.0, 1000.0)))
    if exponent == "item":
        real = _RC.c
        rows = [{"beta": b, "n_alpha2": x, "rate_lower": kent.rate("density", n=int(4 * x), T=int(1e250 / x), alpha=0.5,
                                                                  beta=b, constants=_RC).lower,
                 "paper_lower": real * x ** (-b / (b + 1))} for _, p, _, xs in cases for b in (p["beta"],) for x in xs]
        ok = all(math.isclose(r["rate_lower"], r["paper_lower"], rel_tol=1e-6) for r in rows)
        return result("kent.proposition5", "holds" if ok else "fails", rows=rows, exponent=exponent)
    return _infinite_t("kent.proposition5", cases, "density", dim_in_exponent=True, swap=False)


# =========================================================================== Theorems 8 and 9


def _Lm(u: Any) -> Any:
    """log(e ∨ u) in mpmath (the package's convention for a log factor, docs/kent.md)."""
    import mpmath as mp

    return mp.log(max(mp.mpf(u), mp.e))


def _rel(got: float, want: float) -> float:
    """Relative deviation of ``got`` from ``want`` (0 when both are 0, e.g. both underflow)."""
    return 0.0 if got == want else abs(got - want) / max(abs(want), 1e-300)


# =========================================================================== Theorem 8 (eq. (38))


def _theorem8_paper(n: int, T: int, a: float, d: int, s: int, *, combine: str = "max", log_power: int = 1,
                    factor: str = "psi") -> dict:
    r"""Theorem 8 as ``docs/kent.md`` §8 writes it [R] (mpmath, 30 digits), with the package's constants
    :math:`(c, C, c_1, c_2)`: the lower rate :math:`c\{\min(s, \frac sT\psi(\frac{d}{n\alpha^2})) \vee
    e^{-c_1n\alpha^2/s}\}` with :math:`\psi(u) = \min\{u, 1 + \log(1 \vee u)\}` (``factor="log1p"``: the printed
    :math:`\log(1 + u)`), the upper :math:`s \wedge C\min\{P_1, P_2\}`,

    .. math:: P_1 = \frac{s L(d)}{T} + \frac{s^2L(nT\alpha^2)}{nT\alpha^2} + e^{-c_2n\alpha^2/(sL(d))},\qquad
              P_2 = \frac{sd\,L(nT\alpha^2)}{nT\alpha^2} + e^{-c_2n\alpha^2/d},\qquad L(u) = \log(e \vee u)

    (``combine``, ``log_power``: faults plant "min" and 0)."""
    import mpmath as mp

    with mp.workdps(30):
        x = mp.mpf(n) * mp.mpf(a) ** 2
        xT, u = x * T, d / x
        f = min(u, 1 + mp.log(max(u, 1))) if factor == "psi" else mp.log(1 + u)
        f = f if log_power else mp.mpf(1)
        poly, expo = min(mp.mpf(s), s * f / T), mp.exp(-_RC.c1 * x / s)
        lower = _RC.c * (max(poly, expo) if combine == "max" else min(poly, expo))
        lx = _Lm(xT) ** log_power
        p1 = s * _Lm(d) / T + s * s * lx / xT + mp.exp(-_RC.c2 * x / (s * _Lm(d)))
        p2 = s * d * lx / xT + mp.exp(-_RC.c2 * x / d)
        return {"poly": float(poly), "lower": float(lower), "upper": float(min(mp.mpf(s), _RC.C * min(p1, p2)))}


@register("kent.theorem8_sparse", "Kent et al. (2024), Theorem 8, eq. (38) (docs/kent.md §8, [R])",
          "the package's sparse rates are eq. (38) as reconstructed: lower c{min(s, (s/T)ψ(d/(nα²))) ∨ exp(-c1 nα²/s)}, "
          "upper s ∧ C min(procedure 1, procedure 2); ψ within [1, e − 1] of the printed log(1 + d/(nα²))", "exact",
          domain="instances: (d, s) in {(16, 2), (1000, 3)} x n in {100, 1e4} x T in {1, 100, 1e6} x alpha in "
                 "{0.1, 0.5}, constants (c, C, c1, c2) = (0.5, 2, 3, 1/4)",
          methods=("exact",),
          faults=(("the lower bound's max of its two parts taken as a min", {"combine": "min"}),
                  ("the log factors dropped (ψ and log(nTα²) read as 1)", {"log_power": 0})))
def theorem8_sparse(combine: str = "max", log_power: int = 1) -> AuditResult:
    r"""Evaluates :func:`bounds.kent.rate` (``"sparse"``) and ``_theorem8_paper`` at every instance; holds if the
    lower and upper rates agree within a relative :math:`10^{-9}` and the package's polynomial term lies within the
    documented factor :math:`[1, e - 1]` of the printed :math:`\min\{s, \frac sT\log(1 + \frac d{n\alpha^2})\}`."""
    worst, ratio_range, rows = 0.0, [math.inf, 0.0], []
    for d, s in ((16, 2), (1000, 3)):
        for n in (100, 10**4):
            for T in (1, 100, 10**6):
                for a in (0.1, 0.5):
                    r = kent.rate("sparse", n=n, T=T, alpha=a, d=d, s=s, constants=_RC)
                    want = _theorem8_paper(n, T, a, d, s, combine=combine, log_power=log_power)
                    printed = _theorem8_paper(n, T, a, d, s, factor="log1p")["poly"]
                    dev = max(_rel(r.lower, want["lower"]), _rel(r.upper, want["upper"]))
                    ratio = r.lower_terms[0] / printed
                    ratio_range = [min(ratio_range[0], ratio), max(ratio_range[1], ratio)]
                    if dev > worst:
                        worst = dev
                        rows = [{"d": d, "s": s, "n": n, "T": T, "alpha": a, "package_lower": r.lower,
                                 "paper_lower": want["lower"], "package_upper": r.upper, "paper_upper": want["upper"],
                                 "relative_deviation": dev}]
    ok = worst <= 1e-9 and 1 - 1e-12 <= ratio_range[0] and ratio_range[1] <= math.e - 1 + 1e-12
    return result("kent.theorem8_sparse", "holds" if ok else "fails", max_relative_deviation=worst, worst_point=rows,
                  psi_over_printed_log=ratio_range, combine=combine, log_power=log_power,
                  confidence="[R] (docs/kent.md §8: low confidence on the exact form)")


# =========================================================================== Theorem 9 (Sobolev densities)


@register("kent.theorem9_density", "Kent et al. (2024), Theorem 9 and its phase transition (docs/kent.md §9)",
          "the package's density rates are Theorem 9's: c{(nTα²)^(-β/(β+1)) ∨ (nα²)^(-2β)} and "
          "C{log(nTα²)(nTα²)^(-β/(β+1)) + (nα²/log nα²)^(-2β)}; the lower rate's T† = (nα²)^(2β+1), and the upper "
          "one's T† equalises its two terms", "exact",
          domain="instances: beta in {1/2, 1, 3} x n in {100, 1e4} x T in {1, 1e3, 1e9} x alpha in {0.2, 1}, "
                 "constants (c, C, c1, c2) = (0.5, 2, 3, 1/4)",
          methods=("exact",),
          faults=(("the lower bound's max of its two parts taken as a min", {"combine": "min"}),
                  ("the upper bound's log(nTα²) dropped", {"log_power": 0}),
                  ("T† = (nα²)^(2β) (the +1 of the exponent dropped)", {"t_dagger_shift": 0})))
def theorem9_density(combine: str = "max", log_power: int = 1, t_dagger_shift: int = 1) -> AuditResult:
    r"""Compares :func:`bounds.kent.rate` (``"density"``) with the transcription of ``docs/kent.md`` §9 (mpmath),
    :func:`bounds.kent.phase_transition` (``lower``) with :math:`(n\alpha^2)^{2\beta + 1}`, and checks that at the
    package's upper :math:`T^\dagger` the two terms of the upper rate are equal (residual evaluated here)."""
    import mpmath as mp

    worst, rows = 0.0, []
    with mp.workdps(30):
        for b in (0.5, 1.0, 3.0):
            r_ = mp.mpf(b) / (b + 1)
            for n in (100, 10**4):
                for a in (0.2, 1.0):
                    x = mp.mpf(n) * mp.mpf(a) ** 2
                    pt = kent.phase_transition("density", n=n, alpha=a, beta=b, constants=_RC)
                    devs = [abs(pt.log_lower - float((2 * b + t_dagger_shift) * mp.log(x))) / max(1.0, abs(pt.log_lower))]
                    u = x * mp.exp(pt.log_upper)  # n T† alpha^2 of the upper rate
                    first, second = _Lm(u) ** log_power * u ** (-r_), (x / _Lm(x)) ** (-2 * b)
                    devs.append(float(abs(first / second - 1)))
                    for T in (1, 10**3, 10**9):
                        xT = x * T
                        poly, expo = xT ** (-r_), x ** (-2 * b)
                        lower = _RC.c * (max(poly, expo) if combine == "max" else min(poly, expo))
                        upper = _RC.C * (_Lm(xT) ** log_power * xT ** (-r_) + (x / _Lm(x)) ** (-2 * b))
                        rr = kent.rate("density", n=n, T=T, alpha=a, beta=b, constants=_RC)
                        devs += [_rel(rr.lower, float(lower)), _rel(rr.upper, float(upper))]
                    dev = max(devs)
                    if dev > worst:
                        worst = dev
                        rows = [{"beta": b, "n": n, "alpha": a, "log_T_dagger_lower": pt.log_lower,
                                 "log_T_dagger_upper": pt.log_upper, "relative_deviation": dev}]
    return result("kent.theorem9_density", "holds" if worst <= 1e-9 else "fails", max_relative_deviation=worst,
                  worst_point=rows, combine=combine, log_power=log_power, t_dagger_shift=t_dagger_shift,
                  confidence="[S] exponents, [R] log factors (docs/kent.md §9)")
