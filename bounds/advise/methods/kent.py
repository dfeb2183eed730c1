r"""Kent, Berrett & Yu's truncation procedure in the local model (values in :math:`[-1, 1]`).

Two variants: every user truncated to :math:`T^*` records with :math:`T` = the smallest count, and the
best truncation — keep the users with at least :math:`T` records, :math:`T` among the distinct counts,
minimising the upper rate.  Kent et al. give **rates** (orders with unknown constants): they are reported
with kind ``"rate"`` and never compared as numbers.  The simulation draws each user's mean (a size held by
many users counted per possible mean, the same law), up to ``Settings.max_per_user`` users.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import kent, simulate
from ..inputs import Histogram
from ..results import Curve, Inverse, MethodResult, Quantity, Settings, Simulation
from ..searches import MAX_USERS, smallest_integer, smallest_level
from ..simulation import PER_USER, levels_around, smallest_n_simulated, summarise, timed
from ...quantities import BY_NAME

MODEL = "local"
WIDTH = 2.0
LOG_RANGE = 690.0  # kent.rate's float64 range: nα² and nTα² within [e^-690, e^690]
RATE = ("the upper RATE with unit constants (an order, not a numeric bound): "
        "log(nT*α²)/(nT*α²) + e^{-nα²}, capped at 1")


def cap(n: int, T: int, alpha: float) -> int | None:
    """Kent et al.'s cap :math:`T^*` (eq. (25)), or ``None`` where τ is undefined (:math:`nT^*\\alpha^2 \\le 1`, n < 2).

    Examples
    --------
    >>> cap(1000, 5, 0.5)
    5
    """
    if n < 2:
        return None
    try:
        return int(kent.estimator_cap(n=n, T=T, alpha=alpha)[0])
    except ValueError:
        return None


def candidate_rates(h: Histogram, alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""(:math:`n_T`, :math:`T^*`, upper rate) at every distinct count ``T`` in one numpy pass (rate ``inf`` where undefined).

    .. math:: r_T = 1 \wedge \Big(\frac{\log(e \vee n_T T^*\alpha^2)}{n_T T^*\alpha^2} + e^{-n_T\alpha^2}\Big),
              \qquad T^* = \min\{T, \lfloor e^{n_T\alpha^2} \rfloor\},\qquad n_T = 2\lfloor\#\{u : m_u \ge T\}/2\rfloor

    The same numpy form as :func:`bounds.kent.rate` (unit constants, ``d = 1``) on arrays; the candidates whose cap
    or whose defining conditions sit within rounding of a boundary (:math:`e^{n\alpha^2}` near an integer at most
    ``T``, :math:`nT^*\alpha^2` near 1, the float64 range of the rates) are re-decided one by one with
    :func:`cap`, so :math:`T^*` and the set of defined candidates are those of the scalar calls.

    Source: Kent, Berrett & Yu (2024), eq. (25) and the univariate rate.

    Examples
    --------
    >>> nT, cT, r = candidate_rates(Histogram.of_counts([1] * 10 + [40] * 1000), 0.5)
    >>> nT.tolist(), cT.tolist(), bool(r[1] < r[0])
    ([1010, 1000], [1, 40], True)
    """
    T = h.counts.astype(np.int64)
    if h.n_users < 2**62:
        suffix = np.cumsum(h.users.astype(np.int64)[::-1])[::-1]
        nT = suffix - suffix % 2
    else:  # past int64: Python ints (exact), the cost is then per count
        acc, out = 0, []
        for c in h.users[::-1].tolist():
            acc += int(c)
            out.append(acc - acc % 2)
        nT = np.asarray(out[::-1], dtype=object)
    nf, Tf = nT.astype(float), T.astype(float)
    K = kent.RateConstants()
    with np.errstate(divide="ignore", over="ignore", under="ignore", invalid="ignore"):
        lx = np.log(np.maximum(nf, 1.0)) + 2 * math.log(alpha)
        lxT = lx + np.log(Tf)
        in_range = (np.abs(lx) <= LOG_RANGE) & (np.abs(lxT) <= LOG_RANGE)
        near_range = (np.abs(np.abs(lx) - LOG_RANGE) < 1e-6) | (np.abs(np.abs(lxT) - LOG_RANGE) < 1e-6)
        expo = nf * alpha * alpha
        small = expo < 700
        e = np.exp(np.where(small, expo, 0.0))
        cap_e = np.floor(e)
        near_int = small & (np.abs(e - np.round(e)) <= 1e-9 * e) & (e <= Tf * (1 + 1e-6) + 2)
        star = np.where(small, np.minimum(Tf, np.maximum(1.0, cap_e)), Tf)
        xT = nf * star * alpha * alpha
        near_one = np.abs(np.log(xT)) < 1e-6
        ok = (nf >= 2) & in_range & (xT > 1)
        delicate = (nf >= 2) & (near_range | near_int | near_one)
        # kent.rate's univariate upper form (d = 1, unit constants), with its order of operations
        a2 = np.float64(alpha) ** 2
        x = nf * a2
        r = np.minimum(1.0, K.C * (np.log(np.maximum(x * star, math.e)) / (x * star) + np.exp(-K.c2 * nf * a2)))
    r = np.where(ok & ~delicate, r, np.inf)
    cT = star.astype(np.int64)
    for j in np.flatnonzero(delicate).tolist():
        c = cap(int(nT[j]), int(T[j]), alpha)
        if c is not None:
            cT[j] = c
            r[j] = kent.rate("mean", n=int(nT[j]), T=c, alpha=alpha).upper
    return nT, cT, r


def best_truncation(h: Histogram, alpha: float) -> tuple | None:
    r"""(rate, T, n_T, T*) minimising the upper rate over ``T`` among the distinct counts, in :math:`O(J)`.

    .. math:: \min_{T \in \{d_j\}} r(n_T, T^*(n_T, T), \alpha),\qquad n_T = \#\{u : m_u \ge T\} \text{ (even)}

    The rates come from :func:`candidate_rates` (one numpy pass); the candidates within
    :math:`10^{-9}` (relative) of the smallest are re-evaluated with :func:`bounds.kent.rate`, and the
    first (smallest ``T``) of the strict minima is kept, so the result is that of one validated call per count.

    Source: Kent, Berrett & Yu (2024), eq. (25) and the univariate rate.

    Examples
    --------
    >>> best_truncation(Histogram.of_counts([1] * 10 + [40] * 1000), 0.5)[1]
    40
    """
    nT, cT, r = candidate_rates(h, alpha)
    if not np.isfinite(r).any():
        return None
    low = float(np.min(r))
    best = None
    T = h.counts.tolist()
    for j in np.flatnonzero(r <= low * (1 + 1e-9)).tolist():
        n, c = int(nT[j]), int(cT[j])
        v = kent.rate("mean", n=n, T=c, alpha=alpha).upper
        if best is None or v < best[0]:
            best = (v, int(T[j]), n, c)
    return best


def _rate(n: int, T: int, alpha: float) -> float | None:
    c = cap(n, T, alpha)
    return None if c is None else kent.rate("mean", n=n, T=c, alpha=alpha).upper


def _simulate(h: Histogram, s: Settings, seed: int, n: int, T: int, users: Histogram) -> Simulation | None:
    if s.reps == 0 or users.n_users > s.max_per_user:
        return None
    res, cpu = timed(lambda: simulate.risk("kent", sizes=users.law(), n=n, seed=seed, T=T, theta=s.theta,
                                           alpha=s.alpha, reps=s.reps))
    return summarise(res.estimates - s.theta, width=WIDTH, beta=s.beta, engine=PER_USER, cpu=cpu,
                     covers=f"given μ: two-point on {{-1, 1}} with mean θ = {s.theta:g}, sizes drawn from the "
                            "kept users' counts")


def evaluate_min(h: Histogram, s: Settings, seed: int) -> MethodResult:
    r"""Every user truncated to :math:`T^* = \min(T, e^{n\alpha^2})` records, :math:`T` the smallest count.

    .. math:: r = \frac{\log(nT^*\alpha^2)}{nT^*\alpha^2} + e^{-n\alpha^2} \wedge 1

    Source: Kent, Berrett & Yu (2024), eq. (25), the univariate rate.

    Examples
    --------
    >>> evaluate_min(Histogram.of_counts([3] * 400), Settings(reps=0, inverse=False), 0).parameter_value
    3
    """
    n = h.n_users - h.n_users % 2
    T0 = int(h.counts[0])
    kT, ktau = kent.estimator_cap(n=n, T=T0, alpha=s.alpha)
    bound = Quantity("upper rate", BY_NAME["kent_upper"].kind, "MSE", kent.rate("mean", n=n, T=kT, alpha=s.alpha).upper, None, RATE)
    inverses: tuple = ()
    if s.inverse:
        t_mse = (WIDTH * s.target) ** 2

        def ok(nn: int, a: float) -> bool:
            r = _rate(nn, T0, a)
            return r is not None and r <= t_mse
        level = smallest_level(lambda a: ok(n, a))
        users = smallest_integer(lambda nn: ok(nn, s.alpha), 2, MAX_USERS)
        crit = f"rate ≤ (2·target)² (unit constants: an order, target {s.target:g})"
        note = "monotone in nα² (T* = min(T, e^{nα²}) grows, log(u)/u and e^{-x} fall)"
        inverses = (Inverse("alpha", level, level, s.target, crit, "3-significant-digit grid; " + note),
                    Inverse("n", users, users, s.target, crit, note))
    if s.inverse and s.reps > 1 and h.n_users <= s.max_per_user:
        law = h.law()

        def at(nn: int) -> Any:
            res = simulate.risk("kent", sizes=law, n=nn, seed=seed + nn, T=T0, theta=s.theta, alpha=s.alpha,
                                reps=s.reps)
            return summarise(res.estimates - s.theta, width=WIDTH, beta=s.beta, engine=PER_USER, cpu=0.0, covers="")
        users_sim, why = smallest_n_simulated(at, h.n_users, s.max_per_user, s.target)
        inverses = inverses + (Inverse("n", users_sim, users_sim, s.target,
                                       f"simulated RMSE/w + 2 s.e. ≤ target ({s.target:g}), the compared metric",
                                       f"doubling grid from the data's n, the counts' law; {s.reps} replications "
                                       f"each; {why}"),)
    kept = sum(min(d, kT) * c for d, c in zip(h.counts.tolist(), h.users.tolist()))
    dropped = 1 - kept / h.records
    action = (f"every user keeps T* = {int(kT)} record(s) (T = smallest count = {T0}): drops {100 * dropped:.3g}% "
              f"of the records; τ = {ktau!r}")
    return MethodResult(MODEL, "Kent (T = min count)", "Kent, Berrett & Yu (2024), eq. (25), univariate rate",
                        "T*", int(kT), action, float(np.sum(h.users[h.counts > kT])) / h.n_users, bound,
                        simulation=_simulate(h, s, seed, h.n_users, T0, h), inverses=inverses,
                        details={"T": T0, "T_star": int(kT), "tau": ktau, "records_dropped": dropped},
                        estimand="population mean θ (synthetic law)", trivial_rel=abs(s.theta) / WIDTH)


def evaluate_best(h: Histogram, s: Settings, seed: int) -> MethodResult | None:
    r"""The users with at least ``T`` records, each truncated to :math:`T^*`, ``T`` minimising the rate.

    .. math:: T = \arg\min_{T \in \{d_j\}} r(n_T, T^*, \alpha)

    Source: Kent, Berrett & Yu (2024), eq. (25), the univariate rate.

    Examples
    --------
    >>> evaluate_best(Histogram.of_counts([1] * 10 + [40] * 1000), Settings(reps=0), 0).details["T"]
    40
    """
    best = best_truncation(h, s.alpha)
    if best is None:
        return None
    r, T, nT, cT = best
    bound = Quantity("upper rate at (n_T, T*)", BY_NAME["kent_upper"].kind, "MSE", r, None,
                     RATE + "; minimised over T among the distinct counts")
    kept = h.above(T)
    records = sum(min(d, cT) * c for d, c in zip(kept.counts.tolist(), kept.users.tolist()))
    users_dropped = 1 - nT / h.n_users
    action = (f"keep the {nT:,} users with ≥ {T} records (drops {100 * users_dropped:.3g}% of users), each truncated "
              f"to T* = {cT}: {100 * (1 - records / h.records):.3g}% of the records dropped")
    return MethodResult(MODEL, "Kent (best T)", "Kent, Berrett & Yu (2024), eq. (25), univariate rate", "T*", cT,
                        action, users_dropped, bound, simulation=_simulate(h, s, seed, nT, T, kept),
                        inverses=(), details={"T": T, "T_star": cT, "n_T": nT,
                                              "inverse_note": "not searched: the best T changes with n and α"},
                        estimand="population mean θ (synthetic law)", trivial_rel=abs(s.theta) / WIDTH)


def curves(h: Histogram, s: Settings, result: MethodResult) -> tuple:
    """The upper rate (unit constants) against the truncation ``T`` and against α.

    Examples
    --------
    >>> h = Histogram.of_counts([3] * 400 + [9] * 40)
    >>> [c.kind for c in curves(h, Settings(), evaluate_min(h, Settings(reps=0, inverse=False), 0))]
    ['rate', 'rate']
    """
    n = h.n_users - h.n_users % 2
    grid = [int(T) for T in np.unique(np.geomspace(1, int(h.counts[-1]), 60).astype(int))]
    rates = [_rate(n, T, s.alpha) for T in grid]
    pts = [(T, r) for T, r in zip(grid, rates) if r is not None]
    by_T = Curve(result.method, "truncation T (records per user)", tuple(float(T) for T, _ in pts),
                 (("upper rate", tuple(r for _, r in pts)),), "rate (MSE order, unit constants)", "rate",
                 float(result.details["T"]), "every user truncated to min(T, e^{nα²}) records; an order, not a value")
    a = levels_around(s.alpha)
    ra = [(float(x), _rate(n, result.details["T"], float(x))) for x in a]
    by_a = Curve(result.method, "alpha", tuple(x for x, r in ra if r is not None),
                 (("upper rate", tuple(r for _, r in ra if r is not None)),), "rate (MSE order, unit constants)",
                 "rate", s.alpha, "an order, not a value")
    return by_T, by_a
