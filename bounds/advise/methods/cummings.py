r"""Cummings, Feldman, McMillan & Talwar's ideal estimator in the central model (values in :math:`[0, 1]`).

Users' means are weighted by :math:`\min(1/\sigma_i^2, T/\sigma_i)` (eq. (4)) at the exact :math:`T^*` of
eq. (6), clipped to :math:`p \mp f_i` and released with Laplace noise.  Every quantity depends on a user
only through its count, so the theory runs on the :math:`J` distinct counts with multiplicities.  The
simulation is exact and grouped: the clipped means of the :math:`c_j` users with count :math:`d_j` are a
multinomial draw over the Beta-binomial law of :math:`\mathrm{Bin}(d_j, p_i)` (or :math:`c_j` single draws
when :math:`c_j \le d_j`, in blocks), so a replication costs :math:`\sum_j \min(c_j, d_j + 1)` draws, and a
simulation of more than ``MAX_DRAWS`` draws is not run (bounded work; the report says so).  The ideal
estimator centres its intervals at the true :math:`p`: an oracle, compared but never recommended.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy import stats

from ... import cummings, mechanisms
from ..inputs import Histogram
from ..results import Curve, Inverse, MethodResult, Quantity, Settings, exact
from ..searches import smallest_level
from ..simulation import GROUPED, curve_points, levels_around, summarise, timed
from ...quantities import BY_NAME


MODEL, NAME = "central", "Cummings et al."
WIDTH = 1.0  # values in [0, 1]
_BLOCK = 2**22  # floats in one (truncations × distinct counts) block of variance_terms


def _pieces(h: Histogram, s: Settings, eps: float) -> tuple:
    """(σ² per distinct count, interval widths 2f, truncation of eq. (6) as printed)."""
    d = h.counts
    s2 = cummings.user_variance(d, p=s.p, sigma_p2=s.sigma_p2)
    widths = 2 * cummings.concentration(d, p=s.p, sigma_p2=s.sigma_p2, n=h.n_users, beta=s.interval_beta)
    return s2, widths, cummings.optimal_truncation(s2, widths, eps=eps, counts=h.users)


def _terms_at(h: Histogram, s2: np.ndarray, widths: np.ndarray, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`variance_terms` at eq. (6)'s T*(ε), σ² and the widths (independent of ε) given."""
    return variance_terms(h, s2, widths, cummings.optimal_truncation(s2, widths, eps=eps, counts=h.users).T, eps)


def variance_terms(h: Histogram, s2: np.ndarray, widths: np.ndarray, T: float | np.ndarray,
                   eps: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Sampling and Laplace-noise s.d. of the ideal estimator at truncation ``T`` (eq. (5), Var Lap(b) = 2b²).

    .. math:: \mathrm{sampling} = \Big(\sum_i w_i^2\sigma_i^2\Big)^{1/2},\qquad
              \mathrm{noise} = \frac{\sqrt2 \max_i w_i |b_i - a_i|}{\varepsilon},\qquad
              w_i \propto \min\{1/\sigma_i^2, T/\sigma_i\}

    Source: Cummings et al. (2022), eqs. (4)–(5); the factor 2 of ``docs/choices.md`` §3.

    Examples
    --------
    >>> h = Histogram.of_counts([1, 1])
    >>> [float(x[0]) for x in variance_terms(h, np.ones(1), np.ones(1), np.inf, 1.0)]  # w = 1/2 each
    [0.7071067811865476, 0.7071067811865476]
    """
    Ts = np.atleast_1d(np.asarray(T, dtype=float))
    u = 1 / np.sqrt(s2)
    c = h.users.astype(float)
    sampling, top = np.empty(Ts.size), np.empty(Ts.size)
    rows = max(1, _BLOCK // max(u.size, 1))  # truncations per block: at most _BLOCK floats per matrix
    for a in range(0, Ts.size, rows):
        raw = u[None, :] * np.minimum(u[None, :], Ts[a:a + rows, None])
        w = raw / (raw @ c)[:, None]
        sampling[a:a + rows] = np.sqrt((w * w * s2[None, :]) @ c)
        top[a:a + rows] = np.max(w * widths[None, :], axis=1)
    return sampling, math.sqrt(2) * top / np.asarray(eps, dtype=float)


def _used_at_counts(h: Histogram) -> np.ndarray | None:
    """:math:`\\sum_i c_i \\min\\{d_i, d_j\\}` at every distinct count in int64, ``None`` where that could overflow."""
    if int(h.counts[-1]) * h.n_users >= 2**62:  # every partial sum is at most max(d)·N
        return None
    d, c = h.counts.astype(np.int64), h.users.astype(np.int64)
    below = np.concatenate([[0], np.cumsum(d * c)[:-1]]).astype(np.int64)
    below_users = np.concatenate([[0], np.cumsum(c)[:-1]]).astype(np.int64)
    return below + d * (h.n_users - below_users)


def k_star(h: Histogram, eps: float) -> int:
    r"""Corollary 5.5's :math:`k^*` over the histogram, exactly (rational objective, smallest on ties).

    .. math:: k^* = \arg\min_{k} \frac{k/\epsilon^2 + \sum_j c_j \min\{d_j, k\}}{(\sum_j c_j \min\{d_j, k\})^2}

    Source: Cummings et al. (2022), §5.2 and Corollary 5.5 (the argmin is a distinct count).

    Examples
    --------
    >>> k_star(Histogram.of_counts([10, 10, 10]), 100.0)
    10
    """
    p, q = Fraction(eps).as_integer_ratio()  # ε = p/q exactly: the objective is (d q² + used p²) / (p² used²)
    p2, q2 = p * p, q * q
    d, c = h.counts.tolist(), h.users.tolist()
    N = sum(c)
    used_all = _used_at_counts(h)
    order: list[int] = list(range(len(d)))
    if used_all is not None:  # float screen: only the counts within 1e-9 of the smallest objective are decided exactly
        uf = used_all.astype(float)
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            val = (h.counts.astype(float) / float(eps) / float(eps) + uf) / uf / uf
        low = float(np.min(val))
        if np.all(np.isfinite(val)) and low > 0:
            order = np.flatnonzero(val <= low * (1 + 1e-9)).tolist()
    best_num, best_den, arg, below, below_users = 0, 0, d[0], 0, 0
    for j in order:  # used(k = d_j) = Σ_{d_i < d_j} c_i d_i + d_j · #{d_i >= d_j}
        used = int(used_all[j]) if used_all is not None else below + d[j] * (N - below_users)
        num, den = d[j] * q2 + used * p2, used * used  # the objective times p², compared in integers
        if best_den == 0 or num * best_den < best_num * den:
            best_num, best_den, arg = num, den, d[j]
        below, below_users = below + c[j] * d[j], below_users + c[j]
    return arg


def evaluate(h: Histogram, s: Settings, seed: int) -> MethodResult:
    r"""Eq. (6)'s :math:`T^*`, the ideal estimator's variance, :math:`k^*`, Corollary 5.5 and a grouped simulation.

    .. math:: \mathrm{Var}(\hat p^{ideal}_\epsilon) = \sum_i w_i^2\sigma_i^2 + 2\max_i\frac{w_i^2|b_i - a_i|^2}{\epsilon^2}

    Source: Cummings et al. (2022), eqs. (4)–(6), Corollary 5.5.

    Examples
    --------
    >>> r = evaluate(Histogram.of_counts([5] * 200 + [50] * 20), Settings(eps=2.0, reps=0, inverse=False), 0)
    >>> r.details["k_star"], r.bound.kind
    (50, 'oracle')
    """
    eps = s.eps
    s2, widths, tr = _pieces(h, s, eps)
    tr_exact = cummings.optimal_truncation(s2, widths, eps=eps, laplace="exact", counts=h.users)
    sampling, noise = variance_terms(h, s2, widths, tr.T, eps)
    var = float(sampling[0] ** 2 + noise[0] ** 2)
    ks = k_star(h, eps)
    N = h.n_users
    used = sum(c * min(d, ks) for d, c in zip(h.counts.tolist(), h.users.tolist()))
    root = math.fsum((h.users * np.minimum(h.counts, np.sqrt(h.counts * float(ks)))).tolist())
    privacy = (ks / eps / eps + used) / root / root
    lower = min(privacy, s.sigma_p2 / N)
    u = 1 / np.sqrt(s2)
    truncated = u > tr.T
    k_cap = int(h.counts[truncated].min()) if np.any(truncated) else None
    affected = float(h.users[truncated].sum()) / N
    bound = Quantity("ideal variance at T* (eq. (5))", BY_NAME["cummings_variance"].kind, "variance", var, math.sqrt(var) / WIDTH,
                     f"eq. (5) with Var(Lap(b)) = 2b² (as printed: {tr.variance:.4g}): noise and sampling error, "
                     "intervals p ∓ f_i at the true p (an oracle), clipping bias left out")
    lower_q = Quantity("Corollary 5.5", BY_NAME["cummings_lower"].kind, "variance", lower, math.sqrt(lower) / WIDTH,
                       "minimax variance of unbiased private estimators, up to polylog factors")
    sim, not_simulated = None, None
    draws = simulation_draws(h, s.reps)
    if 0 < s.reps and draws > MAX_DRAWS:
        not_simulated = (f"not simulated: {draws:,} draws ({s.reps:,} replications × Σ_j min(c_j, d_j + 1) over "
                         f"{h.distinct:,} distinct counts), more than MAX_DRAWS = {MAX_DRAWS:,}; the ideal variance "
                         "is exact without it")
    elif s.reps > 0:
        errors, cpu = timed(lambda: _simulate(h, s, s2, widths, tr, seed))
        sim = summarise(errors, width=WIDTH, beta=s.beta, engine=GROUPED + " (a multinomial per count)", cpu=cpu,
                        covers=f"given law: Beta meta-distribution (p = {s.p:g}, σ_p² = {s.sigma_p2:g}), "
                               "Bernoulli samples; error against p")
    inverses: tuple = ()
    if s.inverse:
        def meets(e: float) -> bool:  # σ² and the widths do not depend on ε: only T*(ε) is recomputed
            sa, no = _terms_at(h, s2, widths, e)
            return float(sa[0] ** 2 + no[0] ** 2) <= s.target ** 2
        level = smallest_level(meets)
        inverses = (Inverse("eps", level, level, s.target,
                            f"ideal variance at T*(ε) ≤ target² (oracle, target {s.target:g})",
                            "3-significant-digit grid; n not searched (eq. (6) needs the count vector)"),)
    action = "an oracle — it needs every user's variance σ_i² and centres the intervals at the unknown p: " + (
        f"weights stop growing at T* = {exact(tr.T)}: users with ≥ {k_cap} records weigh as if they had "
        f"fewer; means clipped to p ∓ f_i" if k_cap is not None else
        f"T* = {exact(tr.T)}: no user's weight is truncated; means clipped to p ∓ f_i")
    return MethodResult(MODEL, NAME, "Cummings, Feldman, McMillan & Talwar (2022), eqs. (4)-(6), Corollary 5.5",
                        "T*", tr.T, action, affected, bound, (lower_q,), sim, inverses,
                        details={"T_star": tr.T, "variance_printed": tr.variance, "variance_exact": var,
                                 "T_star_exact": tr_exact.T, "variance_exact_at_T_star_exact": tr_exact.variance,
                                 "k_star": ks, "corollary5_5": lower, "corollary5_5_privacy_term": privacy,
                                 "k_cap": k_cap, **({"not_simulated": not_simulated} if not_simulated else {})},
                        realisable=False,
                        estimand="population mean p (Beta meta-distribution)", trivial_rel=abs(s.p - 0.5) / WIDTH)


MAX_DRAWS = 2 * 10**7
r"""The most draws a simulation makes (replications × :math:`\sum_j \min(c_j, d_j + 1)`); above it the
ideal estimator is not simulated (an oracle, never recommended: its variance is exact without it)."""

_CHUNK = 2**15  # users per block of per-user draws (reps × _CHUNK floats at a time)


def simulation_draws(h: Histogram, reps: int) -> int:
    r"""The draws ``_simulate`` makes: ``reps`` times :math:`\sum_j \min(c_j, d_j + 1)`, in Python integers.

    Examples
    --------
    >>> simulation_draws(Histogram.of_pairs([1, 5], [10, 2]), 64)  # min(10, 2) + min(2, 6) = 4
    256
    """
    per_rep = np.minimum(h.users.astype(np.int64), h.counts.astype(np.int64) + 1)  # each at most MAX_COUNT + 1
    return reps * int(per_rep.sum())


def _simulate(h: Histogram, s: Settings, s2: np.ndarray, widths: np.ndarray, tr: cummings.Truncation,
              seed: int) -> np.ndarray:
    """Errors of the ideal estimator against p: groups with c_j <= d_j drawn per user in blocks, the others
    as one multinomial per count."""
    rng = np.random.default_rng(seed)
    R, p = s.reps, s.p
    f = widths / 2
    est = np.zeros(R)
    nu = p * (1 - p) / s.sigma_p2 - 1 if s.sigma_p2 > 0 else math.inf
    d_all, c_all = h.counts.astype(np.int64), h.users.astype(np.int64)
    per_user = np.flatnonzero(c_all <= d_all)  # per user: p_i, then Bin(d_j, p_i)
    d_u = np.repeat(d_all[per_user], c_all[per_user])
    lo_u, hi_u = np.repeat(p - f[per_user], c_all[per_user]), np.repeat(p + f[per_user], c_all[per_user])
    w_u = np.repeat(tr.weights[per_user], c_all[per_user])
    for a in range(0, d_u.size, _CHUNK):
        b = slice(a, a + _CHUNK)
        n = d_u[b].size
        pi = rng.beta(p * nu, (1 - p) * nu, size=(R, n)) if math.isfinite(nu) else np.full((R, n), p)
        est += np.clip(rng.binomial(d_u[b], pi) / d_u[b], lo_u[b], hi_u[b]) @ w_u[b]
    for j in np.flatnonzero(c_all > d_all).tolist():  # c_j users share the law of Bin(d_j, p_i): one multinomial
        dj, cj = int(d_all[j]), int(c_all[j])
        k = np.arange(dj + 1)
        pmf = stats.betabinom.pmf(k, dj, p * nu, (1 - p) * nu) if math.isfinite(nu) else stats.binom.pmf(k, dj, p)
        draws = rng.multinomial(cj, pmf / pmf.sum(), size=R)
        est += tr.weights[j] * (draws @ np.clip(k / dj, p - f[j], p + f[j]))
    scale = float(np.max(tr.weights * widths)) / s.eps
    return est + mechanisms.laplace(scale, rng, size=R) - p


def curves(h: Histogram, s: Settings, result: MethodResult) -> tuple:
    """Sampling and noise s.d. (clipping bias left out, as eq. (5)) against ``T`` and against ε (at :math:`T^*(\\varepsilon)`).

    Examples
    --------
    >>> h = Histogram.of_counts([5] * 20 + [50] * 2)
    >>> [c.x_name for c in curves(h, Settings(), evaluate(h, Settings(reps=0, inverse=False), 0))]
    ['weight truncation T', 'eps']
    """
    s2, widths, tr = _pieces(h, s, s.eps)
    u = 1 / np.sqrt(s2)
    grid = np.unique(np.concatenate([np.geomspace(u.min() / 2, u.max() * 2, 150), [tr.T]]))
    sa, no = variance_terms(h, s2, widths, grid, s.eps)
    note = "oracle intervals p ∓ f_i; the clipping bias is left out, as in eq. (5)"
    by_T = Curve(NAME, "weight truncation T", tuple(grid.tolist()),
                 (("sampling s.d.", tuple(sa.tolist())), ("noise (Laplace s.d.)", tuple(no.tolist())),
                  ("total RMSE", tuple(np.hypot(sa, no).tolist()))), "RMSE / width", "oracle", tr.T, note)
    levels = levels_around(s.eps, points=curve_points(h.distinct))
    rows = [_terms_at(h, s2, widths, float(e)) for e in levels]
    sa2 = np.array([float(r[0][0]) for r in rows])
    no2 = np.array([float(r[1][0]) for r in rows])
    by_eps = Curve(NAME, "eps", tuple(levels.tolist()),
                   (("sampling s.d.", tuple(sa2.tolist())), ("noise (Laplace s.d.)", tuple(no2.tolist())),
                    ("total RMSE", tuple(np.hypot(sa2, no2).tolist()))), "RMSE / width", "oracle", s.eps,
                   note + "; at each ε its own T*")
    return by_T, by_eps
