"""Audit checks of Cummings, Feldman, McMillan and Talwar (2022), §4 and the chain of §5: T* (eq. (6)), the
condition (7), Lemma 4.2, the sensitivity of §4.1, §4.2's sum, and the chain after Lemma 5.4 that compares the
truncated estimator with NLE.  One function per registered check ID; §2, Example 1 and Lemma 5.2 are in
:mod:`bounds.audit.cummings`."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy as sp

from .. import cummings
from .core import AuditResult, register, result


# =========================================================================== eq. (6), eq. (7), Lemma 4.2, §4.1, §4.2


def _eq6_lines(sd: list[Fraction], c: list[Fraction], eps: Fraction, T: Fraction, square: int = 2) -> tuple[Fraction, Fraction]:
    r"""Eq. (6) transcribed, both lines: :math:`\sum w_i^2\sigma_i^2 + \max_i w_i^2c_i^2/\varepsilon^2` with the weights (4),
    and :math:`(\sum_i\min\{1/\sigma_i^2, T^2\} + \max_i\min\{1/\sigma_i^4, T^2/\sigma_i^2\}c_i^2/\varepsilon^2)/
    (\sum_j\min\{1/\sigma_j^2, T/\sigma_j\})^2` (``square``: the power of T in the first sum)."""
    raw = [min(1 / (s * s), T / s) for s in sd]
    tot = sum(raw, Fraction(0))
    w = [r / tot for r in raw]
    first = sum((x * x * s * s for x, s in zip(w, sd)), Fraction(0)) + max(x * x * ci * ci for x, ci in zip(w, c)) / eps**2
    num = (sum((min(1 / (s * s), T**square) for s in sd), Fraction(0))
           + max(min(1 / s**4, T * T / (s * s)) * ci * ci for s, ci in zip(sd, c)) / eps**2)
    return first, num / tot**2


@register("cummings.eq6", "Cummings et al. (2022), eq. (6) (T* and its second line)",
          "the two lines of (6) agree (with T/σ_j in the denominator), and the package's T* minimises them",
          "exact rationals",
          domain="instances: 15 random vectors of rational sigma_i (3..8 users), widths, eps in {1/2, 2}; T at 12 "
                 "rational points and every breakpoint 1/sigma_i",
          methods=("exact", "exhaustive"),
          faults=(("T instead of T^2 in the first sum of the second line", {"square": 1}),))
def eq6(square: int = 2) -> AuditResult:
    r"""Exact rationals: the first line of (6) with the weights (4) against its printed second line (both
    transcribed here, the printed :math:`T/\sigma_i` of the denominator read as :math:`T/\sigma_j`); and the
    package's :func:`bounds.cummings.optimal_truncation` against them: its variance equals the first line at
    its :math:`T^*` (relative 1e-9) and no tried T does better."""
    rng = np.random.default_rng(6)
    identity, pkg_value, pkg_min, pkg_weights, cases = True, 0.0, 0.0, 0.0, 0
    for _ in range(15):
        m = int(rng.integers(3, 9))
        sd = [Fraction(int(v), 20) for v in rng.integers(1, 40, size=m)]
        c = [s * Fraction(int(v), 4) for s, v in zip(sd, rng.integers(1, 17, size=m))]
        for eps in (Fraction(1, 2), Fraction(2)):
            trunc = cummings.optimal_truncation(np.array([float(s * s) for s in sd]), np.array([float(x) for x in c]),
                                                eps=float(eps))
            at_star = _eq6_lines(sd, c, eps, Fraction(trunc.T), square)[0]
            pkg_value = max(pkg_value, abs(trunc.variance - float(at_star)) / float(at_star))
            raw = [min(1 / (s * s), Fraction(trunc.T) / s) for s in sd]  # the weights (4) at the package's T*
            pkg_weights = max(pkg_weights, max(abs(float(x) - float(r / sum(raw, Fraction(0)))) / float(r / sum(raw, Fraction(0)))
                                               for x, r in zip(trunc.weights, raw)))
            Ts = [Fraction(int(v), 8) for v in rng.integers(1, 400, size=12)] + [1 / s for s in sd]
            for T in Ts:
                first, second = _eq6_lines(sd, c, eps, T, square)
                identity &= first == second
                pkg_min = max(pkg_min, (trunc.variance - float(first)) / float(first))
                cases += 1
    ok = identity and pkg_value <= 1e-9 and pkg_min <= 1e-9 and pkg_weights <= 1e-9
    return result("cummings.eq6", "holds" if ok else "fails", cases=cases, lines_agree=identity,
                  package_weights_vs_eq4_at_T_star=pkg_weights,
                  package_variance_vs_first_line=pkg_value, package_T_star_beaten_by=max(pkg_min, 0.0),
                  note="the printed denominator writes T/sigma_i inside a sum over j; read as T/sigma_j (as in (4))")


@register("cummings.eq7", "Cummings et al. (2022), eq. (7) and the condition of Theorem 4.1",
          "if k_max/k_med <= (n/2 − log n)/log n then σ²_{k_med} ≤ (n/2 − log n)/log n · σ²_{k_max}",
          "sympy + exact",
          domain="proved on p in (0, 1), sigma_p^2 in [0, p(1-p)], k_med <= k_max (sympy identity); instances: 40 "
                 "count vectors (n = 12..400, half on the condition's boundary) through the package",
          methods=("sympy", "exact"),
          faults=(("the bound halved: (n/2 - log n)/(2 log n)", {"scale": Fraction(1, 2)}),))
def eq7(scale: Fraction = Fraction(1)) -> AuditResult:
    r"""Sympy: with Lemma 2.1's :math:`\sigma_k^2 = \sigma_p^2 + (p(1-p) - \sigma_p^2)/k`,
    :math:`(k_{max}/k_{med})\sigma^2_{k_{max}} - \sigma^2_{k_{med}} = \sigma_p^2(k_{max}/k_{med} - 1) \ge 0`,
    so (7) follows from the condition.  Slack: the tightest ``C`` in :math:`\sigma^2_{k_{med}} \le
    C\,(k_{max}/k_{med})\,\sigma^2_{k_{max}}` is 1, the ratio's value at :math:`\sigma_p = 0` (sympy).  Instances: count vectors at and inside the condition's boundary
    through the package's :func:`bounds.cummings.user_variance` and :func:`bounds.cummings.groups`, against
    ``scale`` times the printed bound."""
    p, s2, a, b = sp.symbols("p sigma_p2 k_med k_max", positive=True)
    var = lambda k: s2 + (p * (1 - p) - s2) / k  # noqa: E731  (Lemma 2.1, transcribed)
    identity = sp.cancel((b / a) * var(b) - var(a) - s2 * (b / a - 1)) == 0
    # the tightest C: sigma2_med / ((k_max/k_med) sigma2_max) = 1 - sigma_p^2 (k_max/k_med - 1) / (..) <= 1, equal to 1
    # at sigma_p = 0 (sympy: the ratio there)
    ratio = sp.cancel(var(a) / ((b / a) * var(b)))
    at_zero = sp.cancel(ratio.subs(s2, 0))
    rng = np.random.default_rng(77)
    worst, bad = 0.0, []
    for trial in range(40):
        n = int(rng.integers(12, 400))
        L = math.log(n)
        R = (n / 2 - L) / L
        kmed = int(rng.integers(1, 50))
        top_k = int(math.floor(R * kmed))
        kmax = top_k if trial % 2 == 0 else int(rng.integers(kmed, top_k + 1))
        mid = np.sort(rng.integers(kmed, kmax + 1, size=n // 2 - 2))[::-1]
        low = np.sort(rng.integers(1, kmed + 1, size=n - n // 2))[::-1]
        k = np.concatenate([[kmax], mid, [kmed], low])
        pr = float(rng.uniform(0.2, 0.8))
        sp2 = 0.0 if trial % 4 == 0 else float(rng.uniform(0, pr * (1 - pr)))
        v = cummings.user_variance(k, p=pr, sigma_p2=sp2)
        ratio_n = float(v[n // 2 - 1] / (float(scale) * R * v[0]))
        worst = max(worst, ratio_n)
        if ratio_n > 1 + 1e-12:
            bad.append({"n": n, "k_max": int(k[0]), "k_med": int(k[n // 2 - 1]), "sigma_p2": sp2, "ratio": ratio_n})
    ok = identity and at_zero == 1 and scale >= 1 and not bad
    return result("cummings.eq7", "holds" if ok else "fails", identity=identity, max_ratio_to_bound=worst,
                  counterexamples=bad[:3],
                  slack={"tightest_constant": 1, "ratio_at_sigma_p_0": str(at_zero),
                         "note": "sigma2_med <= C (k_max/k_med) sigma2_max holds for C = 1 and no smaller C: the ratio is "
                                 "1 - sigma_p^2 (k_max/k_med - 1)/((k_max/k_med) sigma2_max), equal to 1 at sigma_p = 0; "
                                 "(7) has room (n/2 - log n)/log n / (k_max/k_med) beyond the condition"})


_L42_CERT = {  # Lemma 4.2 in the variables x = 1/k_i, z = k_i/k (k >= k_i the count of Var(D(k))), s = sigma_p^2/(p(1-p))
    "upper": lambda C, x, z, s: (C - sp.Rational(19, 2)) * x + 8 * x * (1 - (1 - x) * z * (1 - s)) + (C - 8) * (1 - x) * s,
    "lower": lambda c, x, z, s: (sp.Rational(1, 2) - c) * x + (1 - x) * x * z * (1 - s) + (1 - c) * (1 - x) * s,
}


@register("cummings.lemma_4_2", "Cummings et al. (2022), Lemma 4.2 (under the conditions of Theorem 4.1)",
          "σ̂_i² ∈ [σ_i²/2, 9.5 σ_i²] for i > log n, given p̂(1 − p̂) ∈ [p(1−p)/2, 3p(1−p)/2] and σ̂_p² ∈ [Var D(k), 8 Var D(k)]",
          "sympy certificate + exact",
          domain="proved on p in (0, 1), sigma_p^2 in [0, p(1-p)], k_i <= k (sympy certificate, every corner of the two "
                 "accuracy conditions); instances: 24 plans of the package (n = 30..300)",
          methods=("sympy", "exact"),
          faults=(("the upper constant 9.5 one per cent smaller (9.405)", {"upper": Fraction(9405, 1000)}),
                  ("the lower constant 1/2 one per cent larger (0.505)", {"lower": Fraction(505, 1000)})))
def lemma_4_2(upper: Fraction = Fraction(19, 2), lower: Fraction = Fraction(1, 2)) -> AuditResult:
    r"""With :math:`x = 1/k_i`, :math:`z = k_i/k`, :math:`s = \sigma_p^2/(p(1-p))`, :math:`\theta = \hat p(1-\hat p)/(p(1-p))`,
    :math:`\varphi = \hat\sigma_p^2/\mathrm{Var}(\mathcal D(k))`, Lemma 2.1 gives
    :math:`\hat\sigma_i^2/\sigma_i^2 = (\theta x + (1-x)\varphi(xz + (1-xz)s))/(x + (1-x)s)`, increasing in
    :math:`\theta, \varphi` (sympy: the derivatives are products of non-negative factors).  At the worst corners
    sympy verifies the certificates :math:`C\,\mathrm{den} - \mathrm{num} = (C - 9.5)x + 8x(1 - (1-x)z(1-s)) + (C-8)(1-x)s`
    and :math:`\mathrm{num} - c\,\mathrm{den} = (1/2 - c)x + (1-x)xz(1-s) + (1-c)(1-x)s`, non-negative for
    :math:`C \ge 9.5`, :math:`c \le 1/2`; otherwise a counterexample is searched at :math:`s = 0`, :math:`x = 2^{-j}`.
    Slack: both constants are tight (sympy limits).  Instances: the package's :func:`bounds.cummings.realisable_plan`
    ``sigma2_hat`` against :math:`\sigma_i^2` transcribed, at the corners of the conditions."""
    x, z, s, th, ph, C = sp.symbols("x z s theta phi C", nonnegative=True)
    num = th * x + (1 - x) * ph * (x * z + (1 - x * z) * s)
    den = x + (1 - x) * s
    mono = (sp.expand(sp.diff(num, th) - x) == 0
            and sp.expand(sp.diff(num, ph) - (1 - x) * (x * z + (1 - x * z) * s)) == 0)
    cert_up = sp.expand(C * den - num.subs({th: sp.Rational(3, 2), ph: 8}) - _L42_CERT["upper"](C, x, z, s)) == 0
    cert_lo = sp.expand(num.subs({th: sp.Rational(1, 2), ph: 1}) - C * den - _L42_CERT["lower"](C, x, z, s)) == 0
    sup = sp.limit(num.subs({th: sp.Rational(3, 2), ph: 8, z: 1, s: 0}) / den.subs(s, 0), x, 0)
    inf = sp.limit(num.subs({th: sp.Rational(1, 2), ph: 1, s: 0}) / den.subs(s, 0), z, 0)
    proved_up, proved_lo = cert_up and mono and upper >= Fraction(19, 2), cert_lo and mono and lower <= Fraction(1, 2)
    counter = None
    for j in range(1, 60):
        xv = Fraction(1, 2**j)
        up = _L42_CERT["upper"](sp.Rational(upper.numerator, upper.denominator), sp.Rational(xv.numerator, xv.denominator), 1, 0)
        lo = _L42_CERT["lower"](sp.Rational(lower.numerator, lower.denominator), sp.Rational(xv.numerator, xv.denominator), 0, 0)
        if up < 0 or lo < 0:
            counter = {"k_i": 2**j, "k_over_k_i": "1" if up < 0 else "infinite (z -> 0)", "sigma_p": 0,
                       "which": "upper" if up < 0 else "lower"}
            break
    rng = np.random.default_rng(42)
    lo_seen, hi_seen, outside, plan_gap, refused = math.inf, 0.0, 0, 0.0, []
    for trial in range(24):
        n = int(rng.integers(30, 300))
        k = np.sort(rng.integers(1, 10**int(rng.integers(1, 6)), size=n))[::-1]
        pr = float(rng.uniform(0.25, 0.75))
        A = pr * (1 - pr)
        s2 = 0.0 if trial % 3 == 0 else float(rng.uniform(0, A))
        theta, phi = (1.5, 8.0) if trial % 2 == 0 else (0.5, 1.0)
        p_hat = (1 - math.sqrt(max(0.0, 1 - 4 * theta * A))) / 2 if 4 * theta * A <= 1 else 0.5
        var_group, final, _ = cummings.groups(k)
        kL = int(k[var_group[-1]])
        s2_hat = min(phi * (A / kL + (1 - 1 / kL) * s2), p_hat * (1 - p_hat))
        try:  # the inputs are admissible (s2_hat <= p_hat(1 - p_hat)): a refusal is the package's fault
            plan = cummings.realisable_plan(k, p_initial=p_hat, sigma_p2_hat=s2_hat, tolerance=0.0, eps=1.0)
        except ValueError as err:
            refused.append(str(err)[:120])
            continue
        kf = k[final].astype(float)
        true = A / kf + (1 - 1 / kf) * s2  # Lemma 2.1, transcribed
        want = p_hat * (1 - p_hat) / kf + (1 - 1 / kf) * s2_hat  # step 6's plug-in, transcribed
        half = np.sqrt(2 * want * math.log(2 * n / 0.05))  # p̂ ∓ (α + f), f sub-Gaussian at beta = 0.05, alpha = 0
        plan_gap = max(plan_gap, float(np.max(np.abs(plan.sigma2_hat / want - 1))),
                       float(np.max(np.abs((plan.b_hat - plan.a_hat) / (2 * half) - 1))),
                       float(np.max(np.abs((plan.a_hat + plan.b_hat) / (2 * p_hat) - 1))))
        r = plan.sigma2_hat / true
        lo_seen, hi_seen = min(lo_seen, float(r.min())), max(hi_seen, float(r.max()))
        outside += int(np.sum((r > float(upper) * (1 + 1e-12)) | (r < float(lower) * (1 - 1e-12))))
    ok = proved_up and proved_lo and counter is None and outside == 0 and plan_gap <= 1e-12 and not refused
    width = 1 + math.sqrt(19 / 2)
    return result("cummings.lemma_4_2", "holds" if ok else "fails", monotone_in_conditions=mono,
                  certificate_upper=cert_up, certificate_lower=cert_lo, counterexample=counter,
                  package_ratio_range=[lo_seen, hi_seen], package_ratios_outside=outside,
                  package_plan_vs_transcription=plan_gap, package_refused=refused[:2],
                  slack={"tightest_upper": str(sup), "tightest_lower": str(inf),
                         "note": "both constants are tight: 9.5 approached as sigma_p -> 0, k = k_i -> infinity with "
                                 "the conditions at their ends (3/2, 8); 1/2 as sigma_p -> 0, k/k_i -> infinity at (1/2, 1)"},
                  widths_note=f"|b̂ − â| <= 4|b − a| depends on f, which the paper leaves open: with f proportional to "
                              f"sigma (the package's sub-Gaussian default) and alpha <= f the factor's supremum is "
                              f"1 + sqrt(9.5) = {width:.4f}")


@register("cummings.sec41_sensitivity", "Cummings et al. (2022), §4.1 (before eq. (3)) and eq. (3)",
          "the worst-case sensitivity of p̂_ideal (eq. (1)) is 1; with truncation to [a_i, b_i] it is max_i w_i|b_i − a_i|",
          "exact + exhaustive",
          domain="instances: two users with k = (K, 1), K = 10^j, j = 0..7, sigma_p = 0; 6 plans of the package "
                 "(n = 40..200) with every user's estimate at 0, a_i, b_i, 1",
          methods=("exact", "exhaustive"),
          faults=(("the truncated estimator's sensitivity halved", {"scale": 0.5}),
                  ("the untruncated sensitivity claimed 1/2", {"claimed": 0.5})))
def sec41_sensitivity(scale: float = 1.0, claimed: float = 1.0) -> AuditResult:
    r"""(i) The sensitivity :math:`\max_i w_i^*` of :math:`\sum_i w_i^*\hat p_i` (an estimate moved from 0 to 1)
    with the package's :func:`bounds.cummings.nonprivate_weights` against :math:`K/(K+1)` transcribed (relative
    1e-12), never above ``claimed`` and within 1e-6 of it (the supremum, approached as :math:`K \to \infty`).
    (ii) For the package's plans (:func:`bounds.cummings.realisable_plan`), one user's truncated estimate moved
    between 0, :math:`a_i`, :math:`b_i`, 1 changes the sum by at most ``scale`` times step 14's
    :math:`\Lambda = \max_i w_i|b_i - a_i|`, with equality when the intervals lie in [0, 1]."""
    sup, pkg_ok = 0.0, True
    for j in range(8):
        K = 10**j
        w = cummings.nonprivate_weights(cummings.user_variance([K, 1], p=0.5, sigma_p2=0.0))
        pkg_ok &= abs(float(w[0]) - K / (K + 1)) <= 1e-12
        sup = max(sup, float(w.max()))
    untruncated_ok = sup <= claimed and sup >= claimed - 1e-6
    rng = np.random.default_rng(41)
    worst, equal_inside = 0.0, True
    for _ in range(6):
        n = int(rng.integers(40, 200))
        k = np.sort(rng.integers(50, 5000, size=n))[::-1]
        plan = cummings.realisable_plan(k, p_initial=0.5, sigma_p2_hat=0.001, tolerance=0.01, eps=1.0)
        moves = []
        for w, a, b in zip(plan.weights, plan.a_hat, plan.b_hat):
            vals = [min(max(v, a), b) for v in (0.0, a, b, 1.0)]
            moves.append(w * (max(vals) - min(vals)))
        brute = max(moves)
        worst = max(worst, float(brute / (scale * plan.Lambda)))
        inside = bool(np.all(plan.a_hat >= 0) and np.all(plan.b_hat <= 1))
        equal_inside &= (not inside) or math.isclose(brute, plan.Lambda, rel_tol=1e-12)
    ok = pkg_ok and untruncated_ok and worst <= 1 + 1e-12 and equal_inside
    return result("cummings.sec41_sensitivity", "holds" if ok else "fails", untruncated_sup_found=sup,
                  package_weights_match=pkg_ok, truncated_brute_over_scale=worst, equal_when_inside=equal_inside)


def _sec42_sup(n: int, L: int, M: int, R: Fraction) -> Fraction:
    r"""The supremum of :math:`\sum_{i \le n} t_i / \sum_{L < i \le M} t_i` over non-increasing :math:`t \ge 0`
    with :math:`t_1 \le R\,t(n/2)`: a linear-fractional maximum over the cone's extreme rays
    :math:`(R-1)1_{[1, j]} + 1_{[1, j_2]}` (:math:`j < n/2 \le j_2`), whose value is monotone in ``j`` and in
    :math:`j_2` between the group ends: the candidates :math:`j \in \{0, L, n/2 - 1\}`, :math:`j_2 \in \{n/2, M, n\}`."""
    med = n // 2
    best = Fraction(0)
    for j in {0, min(L, med - 1), med - 1}:
        for j2 in {med, M, n}:
            top = (R - 1) * j + j2
            mid = (R - 1) * max(0, j - L) + max(0, min(j2, M) - L)
            if mid > 0:
                best = max(best, top / mid)
    return best


@register("cummings.sec42_sum", "Cummings et al. (2022), §4.2 (after eq. (7))",
          "under (7), for every T: Σ over i ≤ n of min{1/σ_i², T/σ_i} ≤ 4 Σ over log n < i ≤ 9n/10 of min{1/σ_i², T/σ_i}",
          "exact + LP",
          domain="proved on every non-increasing t >= 0 with t_1 <= R t(n/2) (which (7) implies for both branches "
                 "of the min), n in {20, 50, 100, 1000, 10^4, 10^5}, the package's groups; HiGHS LP as a second "
                 "evaluation for n <= 100; instances: 20 count vectors through the package",
          methods=("exact", "LP certificate"),
          faults=(("the constant 4 replaced by 1.9 (below the supremum 2)", {"constant": Fraction(19, 10)}),))
def sec42_sum(constant: Fraction = Fraction(4)) -> AuditResult:
    r"""The terms :math:`t_i = \min\{1/\sigma_i^2, T/\sigma_i\}` do not increase along users sorted by decreasing
    :math:`k_i`, and (7) gives :math:`t_1 \le R\,t(n/2)` with :math:`R = (n/2 - \log n)/\log n` (both branches:
    :math:`R \ge \sqrt R`).  The supremum of the ratio over all such sequences (``_sec42_sup``, exact rationals,
    with the groups of :func:`bounds.cummings.groups`) is compared with ``constant``; an LP (HiGHS) gives it a
    second time for small ``n``; count vectors on the condition's boundary through the package's
    :func:`bounds.cummings.user_variance` stay below it.  Slack: the largest supremum (about 2, approached when the
    top log n terms sit at R t(n/2), the terms down to n/2 equal, the rest vanish)."""
    from scipy.optimize import linprog

    rows, sups, lp_gap, groups_ok = [], [], 0.0, True
    for n in (20, 50, 100, 1000, 10**4, 10**5):
        var_g, final, mean_g = cummings.groups(np.arange(n, 0, -1))  # counts n..1: the groups by position
        L, M = len(var_g), n - len(mean_g)
        groups_ok &= (L, M) == (math.ceil(math.log(n)), n - n // 10) and list(final) == list(range(L, M))
        R = Fraction((n / 2 - math.log(n)) / math.log(n))
        sup = _sec42_sup(n, L, M, R)
        sups.append(sup)
        if n <= 100:
            med = n // 2
            A_ub = [[0.0] * i + [-1.0, 1.0] + [0.0] * (n - i - 2) for i in range(n - 1)]  # t_{i+1} <= t_i
            A_ub.append([1.0] + [0.0] * (med - 2) + [-float(R)] + [0.0] * (n - med))  # t_1 <= R t_med
            A_eq = [[1.0 if L <= i < M else 0.0 for i in range(n)]]
            lp = linprog(-np.ones(n), A_ub=A_ub, b_ub=np.zeros(n), A_eq=A_eq, b_eq=[1.0], bounds=[(0, None)] * n,
                         method="highs")
            lp_gap = max(lp_gap, abs(-lp.fun - float(sup)) / float(sup))
        rows.append({"n": n, "L": L, "M": M, "R": float(R), "supremum": float(sup)})
    rng = np.random.default_rng(420)
    worst = 0.0
    for _ in range(20):
        n = int(rng.integers(30, 2000))
        Rf = (n / 2 - math.log(n)) / math.log(n)
        kmed = int(rng.integers(1, 30))
        k = np.concatenate([[int(Rf * kmed)] * math.ceil(math.log(n)), [kmed] * (n // 2 - math.ceil(math.log(n))),
                            rng.integers(1, kmed + 1, size=n - n // 2)])
        k = np.sort(k)[::-1]
        v = cummings.user_variance(k, p=0.5, sigma_p2=0.0)
        var_g, final, _ = cummings.groups(k)
        for T in (0.1, 1.0, 10.0, 1e3):
            t = np.minimum(1 / v, T / np.sqrt(v))
            worst = max(worst, float(t.sum() / t[final].sum()))
    top = max(sups)
    ok = top <= constant and worst <= float(constant) and lp_gap <= 1e-7 and groups_ok
    return result("cummings.sec42_sum", "holds" if ok else "fails", rows=rows, lp_relative_gap=lp_gap,
                  package_groups_match=groups_ok,
                  instances_max_ratio=worst,
                  slack={"tightest_constant": float(top), "exact": str(top),
                         "note": "the largest supremum over all admissible sequences of the n tried (ceil(log n) against log n moves it); 4 holds "
                                 "with room: about 2, approached when the top log n terms sit at R t(n/2), the terms "
                                 "down to n/2 are equal and the rest vanish"})


@register("cummings.thm51_chain", "Cummings et al. (2022), the chain after Lemma 5.4 (proof of Theorem 5.1)",
          "min_NLE Var = Ω(Var p̂^NLE) (NLE with the ideal estimator's weights) and Var(M_TNL) = Õ(Var M_NL), "
          "with the polylog factors the proof gives", "exact",
          domain="instances: 10 count vectors (n = 20..400), p = 0.5, sigma_p^2 in {0, 0.01}, eps in {0.5, 2}, "
                 "beta = 0.05, the package's widths 2 f (sub-Gaussian f)",
          methods=("exact",),
          faults=(("the ideal estimator's weights claimed exactly optimal in NLE (factor 1)", {"factor": 1.0}),))
def thm51_chain(factor: float | None = None) -> AuditResult:
    r"""With :math:`\gamma_i = |b_i - a_i|/\sigma_i` (here constant, :math:`2\sqrt{2\log(2n/\beta)}`), the ideal
    estimator minimises :math:`S(w) + \kappa\gamma^2 P(w)/\varepsilon^2` and NLE's variance is
    :math:`S(w) + 2P(w)/\varepsilon^2` (:math:`S = \sum w_i^2\sigma_i^2`, :math:`P = \max_i w_i^2\sigma_i^2`), so
    :math:`\mathrm{NL}(w^*) \le \lambda \min_{NLE}` with :math:`\lambda = \max(1, \kappa\gamma^2/2)` (``factor``
    replaces it), and :math:`M_{TNL}` (Laplace scale :math:`\max_i 2w_if_i/\varepsilon`) has
    :math:`\mathrm{NL}(w) \le \mathrm{TNL}(w) \le \max(1, \gamma^2)\,\mathrm{NL}(w)`.  The weights :math:`w^*` and
    :math:`\min_{NLE}` come from the package (:func:`bounds.cummings.optimal_truncation`, eq. (6) with the widths, and
    with :math:`\sigma_i`, ``laplace="exact"``); the variances are transcribed here."""
    rng = np.random.default_rng(51)
    rows: list[dict] = []
    ok = True
    for trial in range(10):
        n = int(rng.integers(20, 400))
        k = np.sort(rng.integers(1, 10**int(rng.integers(1, 5)), size=n))[::-1]
        s2p = 0.0 if trial % 2 == 0 else 0.01
        s2 = 0.25 / k + (1 - 1 / k) * s2p  # Lemma 2.1 at p = 1/2, transcribed
        sd = np.sqrt(s2)
        widths = 2 * cummings.concentration(k, p=0.5, sigma_p2=s2p, beta=0.05)
        gamma2 = float(np.max(widths / sd)) ** 2
        for eps in (0.5, 2.0):
            w = cummings.optimal_truncation(s2, widths, eps=eps).weights  # the ideal estimator's weights (printed kappa)
            best = cummings.optimal_truncation(s2, sd, eps=eps, laplace="exact").variance  # min over NLE
            nl = float(np.sum(w * w * s2) + 2 * np.max(w * sd) ** 2 / eps**2)
            tnl = float(np.sum(w * w * s2) + 2 * np.max(w * widths) ** 2 / eps**2)
            lam = max(1.0, gamma2 / 2) if factor is None else factor
            good = (best <= nl * (1 + 1e-12) and nl <= lam * best * (1 + 1e-9)
                    and nl <= tnl * (1 + 1e-12) and tnl <= max(1.0, gamma2) * nl * (1 + 1e-9))
            ok &= good
            if len(rows) < 6 or not good:
                rows.append({"n": n, "eps": eps, "min_NLE": best, "NL_ideal_weights": nl, "TNL_ideal_weights": tnl,
                             "NL_over_min": nl / best, "lambda": lam, "TNL_over_NL": tnl / nl, "gamma2": gamma2})
    return result("cummings.thm51_chain", "holds" if ok else "fails", rows=rows,
                  note="the chain's first step (Lemma 5.3, all unbiased estimators) and last (Theorem 4.1) are not "
                       "computed here")
