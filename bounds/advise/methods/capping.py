r"""The deployable central releases, each with its bound tuned on its exact RMSE (values in :math:`[0, U]`).

Every one estimates the **dataset's mean** :math:`\sum_i S_i / M` and is compared on the exact RMSE of
:mod:`~bounds.advise.tuning` (on the data's values when given, else on the named synthetic law):

* **window** — Rameshwar & Tandon's projection of each user's sum onto
  :math:`[Um/2 - T/2, Um/2 + T/2]` (:mod:`~bounds.advise.methods.rameshwar` builds it, with their
  :math:`T_\varepsilon` beside);
* **sum cap** — each user's sum capped at ``C`` (one-sided; values are non-negative);
* **record cap** — at most ``k`` records kept per user, sampled without replacement, reweighted by
  :math:`K = \sum_i \min(m_i, k)`;
* **no clipping** — the plain Laplace mean at the largest contribution :math:`Um^*`.

With ``Settings.private_selection`` the bound is drawn by :mod:`~bounds.advise.privacy`'s exponential
mechanism, and the reported error is the whole pipeline's.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from .. import privacy, tuning
from ..inputs import Histogram
from ..results import Curve, Inverse, MethodResult, Quantity, Settings, exact
from ..searches import MAX_USERS, smallest_integer, smallest_level
from ..simulation import curve_points, levels_around, summarise

MODEL = "central"
MAX_INVERSE_WORK = 3 * 10**5
"""The inverse searches (smallest ε, smallest n) run when one tuning's work — the distinct counts plus, for the
record cap, its candidate caps — is at most this; above it they are reported as not searched (each of their
few dozen steps re-tunes over all of them)."""
ESTIMAND = "dataset mean (Σ values / Σ records)"
SOURCE_SUM = "one-sided cap of each user's sum, Laplace mechanism (Dwork & Roth, 2014, §3.3); tuned exactly here"
SOURCE_REC = ("records capped per user, sampled without replacement (Cochran, 1977, Thm 2.2), Laplace mechanism; "
              "tuned exactly here")


def data_of(h: Histogram, s: Settings, data: tuning.CentralData | None) -> tuning.CentralData:
    """The error model: the given values, else the synthetic law on the histogram.

    Examples
    --------
    >>> data_of(Histogram.of_counts([1, 2]), Settings(), None).kind
    'synthetic'
    """
    return data if data is not None else tuning.synthetic(h, U=s.U, theta=s.theta)


def _q(name: str, data: tuning.CentralData, m2: float, covers: str) -> Quantity:
    r = float(tuning.rel(m2, data))
    return Quantity(name, "exact", "RMSE", r * data.U, r, covers)


def objective(kind: str, data: tuning.CentralData, eps: float) -> Callable[[np.ndarray], np.ndarray]:
    """``bound -> M² MSE`` of rule ``kind`` ("window", "sum cap", "record cap") at ``eps``.

    Examples
    --------
    >>> d = tuning.synthetic(Histogram.of_counts([1, 3]), U=1.0, theta=0.0)
    >>> objective("record cap", d, 1.0)([3.0]).tolist()  # k = m*: noise 2·3² only
    [18.0]
    """
    if kind == "record cap":
        return lambda k: tuning.record_cap(data, eps, np.asarray(k, dtype=float))[1]
    return tuning.window(data, eps) if kind == "window" else tuning.sum_cap(data, eps)


def tune(kind: str, data: tuning.CentralData, eps: float) -> tuple[float, float]:
    """``(bound, M² MSE)`` minimising rule ``kind``'s exact MSE (the smallest bound on ties).

    Examples
    --------
    >>> d = tuning.synthetic(Histogram.of_counts([1] * 50 + [40]), U=1.0, theta=0.3)
    >>> tune("sum cap", d, 1.0)[0] < 40
    True
    """
    if kind == "record cap":
        ks, v = tuning.record_cap(data, eps)
        i = int(np.argmin(v))
        return float(ks[i]), float(v[i])
    t = tuning.minimise(tuning.window(data, eps) if kind == "window" else tuning.sum_cap(data, eps))
    return t.bound, t.mse


def trivial_rel(data: tuning.CentralData) -> float:
    r"""The midpoint's RMSE / U on the dataset's mean (the UNUSABLE reference).

    .. math:: \sqrt{E(U/2 - \bar x)^2}/U

    Source: ``bounds.advise.tuning.trivial_mse``.

    Examples
    --------
    >>> trivial_rel(tuning.synthetic(Histogram.of_counts([4] * 100), U=1.0, theta=0.0)) < 0.06
    True
    """
    return math.sqrt(tuning.trivial_mse(data)) / data.U


def _moments(kind: str, data: tuning.CentralData, eps: float, b: np.ndarray) -> tuple[np.ndarray, ...]:
    """(M·mean, M²·var, M²·noise variance) of the release at bounds ``b`` (records for the record cap)."""
    if kind == "record cap":
        return tuning.record_cap_parts(data, eps, b)[1:]
    return objective(kind, data, eps).moments(b)  # type: ignore[attr-defined]


def private_pipeline(kind: str, h: Histogram, data: tuning.CentralData, s: Settings, seed: int) -> dict[str, Any]:
    r"""The private pipeline's exact RMSE / U (mixture over the mechanism) and its simulation.

    .. math:: \mathrm{MSE} = \sum_{g \in G} P(g)\,\mathrm{MSE}(g;\ \varepsilon_{rel})

    Source: :mod:`~bounds.advise.privacy` (exponential mechanism, basic composition).

    Examples
    --------
    >>> h = Histogram.of_counts([1] * 50 + [40])
    >>> s = Settings(private_selection=0.2, reps=200)
    >>> p = private_pipeline("window", h, data_of(h, s, None), s, 0)
    >>> p["eps_select"] + p["eps_release"] == s.eps
    True
    """
    e_sel, e_rel = privacy.split(s.eps, s.private_selection)
    g = privacy.grid(s.selection_max)
    rank = privacy.target_rank(kind, e_rel)
    pmf = privacy.selection_pmf(h, g, rank, e_sel)
    b = g.astype(float) if kind == "record cap" else data.U * g.astype(float)
    mean, var, noise = _moments(kind, data, e_rel, b)
    m2 = float(np.dot(pmf, mean * mean + var + noise))
    out: dict[str, Any] = {"eps_select": e_sel, "eps_release": e_rel, "rank": rank, "grid_max": int(g[-1]),
                           "rmse_rel": float(tuning.rel(m2, data)), "mode": float(b[int(np.argmax(pmf))]),
                           "pmf": pmf, "grid": b}
    if s.reps > 1:
        M = data.records
        if kind == "record cap":
            K = tuning.record_cap_parts(data, e_rel, b)
            scale = np.sqrt(K[3] / 2) / M
        else:
            scale = np.minimum(b, data.U * data.m_max) / (e_rel * M)
        reps = max(s.reps, 4000)
        err = privacy.simulate(pmf, np.stack([mean, var], axis=1), scale, M, reps, np.random.default_rng(seed))
        out["simulation"] = summarise(err, width=data.U, beta=s.beta, engine="bound drawn, then the release's "
                                      "error (exact moments)", cpu=0.0,
                                      covers=f"the whole pipeline: selection (ε_sel = {e_sel:g}) + release "
                                             f"(ε_rel = {e_rel:g}) on {data.description}")
    return out


def inverses(kind: str, h: Histogram, data: tuning.CentralData, s: Settings) -> tuple:
    r"""Smallest ε (and, on the synthetic law, n) at which the tuned exact RMSE / U meets the target.

    .. math:: \varepsilon^* = \min\{\varepsilon \in \text{grid} : \min_b \mathrm{RMSE}(b; \varepsilon)/U \le t\}

    Source: :func:`~bounds.advise.searches.smallest_level` and :func:`~bounds.advise.searches.smallest_integer`
    on a non-increasing criterion (each bound's MSE falls with ε and n).

    Examples
    --------
    >>> h = Histogram.of_counts([1] * 50 + [40])
    >>> [i.level for i in inverses("sum cap", h, data_of(h, Settings(), None), Settings())]
    ['eps', 'n']
    """
    crit = f"exact RMSE/w at the tuned bound ≤ target ({s.target:g}), the compared metric"
    size = work(kind, data)
    if kind != "no clipping" and size > MAX_INVERSE_WORK:  # no clipping: a closed form per step
        why = (f"not searched: one tuning here weighs {size:,} (distinct counts"
               + (" + candidate caps k" if kind == "record cap" else "") + f"), more than {MAX_INVERSE_WORK:,} "
               "(each step of the search re-tunes over all of them)")
        return tuple(Inverse(level, None, None, s.target, crit, why, searched=False)
                     for level in (("eps", "n") if data.kind == "synthetic" else ("eps",)))

    def at(e: float) -> float:
        if kind == "no clipping":
            return float(tuning.rel(tuning.no_clipping(data, e), data))
        return float(tuning.rel(tune(kind, data, e)[1], data))

    level = smallest_level(lambda e: at(e) <= s.target)
    out = [Inverse("eps", level, level, s.target, crit, "3-significant-digit grid; the tuned MSE is "
                   "non-increasing in ε (each bound's is)")]
    if data.kind == "synthetic":
        N = h.n_users

        def ok(n: int) -> bool:
            scaled = tuning.CentralData("synthetic", data.U, data.counts, data.users * (n / N), data.theta)
            if kind == "no clipping":
                return float(tuning.rel(tuning.no_clipping(scaled, s.eps), scaled)) <= s.target
            return float(tuning.rel(tune(kind, scaled, s.eps)[1], scaled)) <= s.target
        n = smallest_integer(ok, 2, MAX_USERS)
        out.append(Inverse("n", n, n, s.target, crit, "n users with the counts' law (non-increasing in n)"))
    return tuple(out)


def work(kind: str, data: tuning.CentralData) -> int:
    """The size one tuning of rule ``kind`` runs over: the users' distinct counts (or users, for values) and,
    for the record cap, its candidate caps.

    Examples
    --------
    >>> work("record cap", tuning.synthetic(Histogram.of_counts([1, 40]), U=1.0, theta=0.3))  # 2 counts + k = 1..40
    42
    """
    size = int(data.counts.size)
    if kind == "record cap":
        size += data.m_max if data.m_max <= tuning.MAX_K_GRID else int(np.unique(data.counts).size)
    return size


def bounded(kind: str, name: str, source: str, parameter: str, h: Histogram, s: Settings, seed: int,
            data: tuning.CentralData | None, *, worst: Quantity, action: Callable[[float], str],
            details: dict, others: tuple = ()) -> MethodResult:
    r"""A tuned central release's result (shared by the window, the sum cap and the record cap).

    .. math:: b^\dagger = \arg\min_b \mathrm{RMSE}(b),\quad \text{reported: } \mathrm{RMSE}(b^\dagger)

    Source: :func:`tune`; with ``Settings.private_selection``, :func:`private_pipeline`.

    Examples
    --------
    >>> h = Histogram.of_counts([1] * 50 + [40])
    >>> w = Quantity("w", "bound", "RMSE", 1.0, 1.0, "")
    >>> r = bounded("sum cap", "x", "src", "C", h, Settings(inverse=False), 0, None, worst=w,
    ...             action=lambda c: f"cap at {c:g}", details={})
    >>> r.parameter_value == r.details["tuned"], r.comparison[1]
    (True, 'exact')
    """
    data = data_of(h, s, data)
    bound, m2 = tune(kind, data, s.eps)
    err = _q(f"exact RMSE at the tuned {parameter}", data, m2,
             f"error against the dataset's mean on {data.description}; Laplace variance in closed form; "
             f"{parameter} = argmin of this RMSE (smallest on ties)")
    details = {**details, "tuned": bound, "tuned_rmse_rel": err.rmse_rel, "data": data.kind}
    sim = None
    act = action(bound)
    if s.private_selection > 0:
        p = private_pipeline(kind, h, data, s, seed)
        details["private"] = {k: v for k, v in p.items() if k not in ("pmf", "grid", "simulation")}
        sim = p.get("simulation")
        err = Quantity("exact RMSE of the private pipeline", "exact", "RMSE", p["rmse_rel"] * data.U, p["rmse_rel"],
                       f"selection by the exponential mechanism (ε_sel = {p['eps_select']:g}, target rank "
                       f"{p['rank']}) + release at ε_rel = {p['eps_release']:g}; mixture over the mechanism's "
                       f"distribution, on {data.description}")
        unit = "records" if kind == "record cap" else "U × records"
        act = (f"choose {parameter} privately: exponential mechanism over the grid ⌈2^(i/4)⌉ ≤ {p['grid_max']:,} "
               f"({unit}), utility −|#users above − {p['rank']}|, ε_sel = {p['eps_select']:g}; then, at the drawn "
               f"value and ε_rel = {p['eps_release']:g}: " + action(float("nan")).split(": ", 1)[-1])
        bound = p["mode"]
    inv = inverses(kind, h, data, s) if s.inverse and s.private_selection == 0 else ()
    return MethodResult(MODEL, name, source, parameter, bound, act, _affected(kind, h, data, bound), worst, others,
                        sim, inv, details=details, estimand=ESTIMAND, trivial_rel=trivial_rel(data), error=err)


def _affected(kind: str, h: Histogram, data: tuning.CentralData, bound: float) -> float | None:
    if not math.isfinite(bound):
        return None
    if kind == "record cap":
        return float(h.users[h.counts > bound].sum()) / h.n_users
    if kind == "sum cap" and data.kind == "values":
        return float(np.mean(data.S > bound))
    if kind == "window" and data.kind == "values":
        return float(np.mean(np.abs(2 * data.S - data.U * data.counts) > bound))
    return float(h.users[data.U * h.counts > bound].sum()) / h.n_users


def _fmt(b: float) -> str:
    return "the drawn value" if not math.isfinite(b) else exact(b)


def evaluate_sum_cap(h: Histogram, s: Settings, seed: int, data: tuning.CentralData | None = None) -> MethodResult:
    r"""Each user's sum capped at ``C``, ``C`` the argmin of the exact RMSE; the worst case beside.

    .. math:: \hat\mu = \frac{\sum_i \min(S_i, C)}{M} + \mathrm{Lap}\Big(\frac{C}{\varepsilon M}\Big)

    Source: the Laplace mechanism with a per-user contribution bound (Dwork & Roth, 2014, §3.3).

    Examples
    --------
    >>> r = evaluate_sum_cap(Histogram.of_counts([1] * 50 + [40]), Settings(inverse=False), 0)
    >>> r.parameter, r.comparison[1]
    ('C', 'exact')
    """
    U, eps = s.U, s.eps
    M = float(h.records)
    d = data_of(h, s, data)
    C, _ = tune("sum cap", d, eps)
    v = U * h.counts.astype(float)
    wc_bias = float(np.dot(h.users, np.maximum(v - C, 0.0))) / (U * M)
    wc_noise = math.sqrt(2) * min(C, v[-1]) / (eps * U * M)
    worst = Quantity("worst case over data in [0, U]", "bound", "RMSE", math.hypot(wc_bias, wc_noise) * U,
                     math.hypot(wc_bias, wc_noise), "every value U: the cap's largest bias ⊕ Laplace noise")

    def action(c: float) -> str:
        return (f"replace each user's sum S by min(S, C) with C = {_fmt(c)}; release Σ min(S, C) / Σm + "
                f"Laplace(C / (ε·Σm))")
    return bounded("sum cap", "Sum cap (one-sided)", SOURCE_SUM, "C", h, s, seed, data, worst=worst, action=action,
                   details={"worst_bias_rel": wc_bias, "worst_noise_rel": wc_noise})


def evaluate_record_cap(h: Histogram, s: Settings, seed: int,
                        data: tuning.CentralData | None = None) -> MethodResult:
    r"""At most ``k`` records kept per user (sampled), ``k`` the argmin of the exact RMSE.

    .. math:: \hat\mu = \frac{\sum_i \text{kept}_i}{K} + \mathrm{Lap}\Big(\frac{Uk}{\varepsilon K}\Big),\qquad
              K = \sum_i \min(m_i, k)

    Source: sampling without replacement (Cochran, 1977, Theorem 2.2) and the Laplace mechanism.

    Examples
    --------
    >>> r = evaluate_record_cap(Histogram.of_counts([1] * 50 + [40]), Settings(inverse=False), 0)
    >>> r.parameter, 1 <= r.parameter_value <= 40
    ('k', True)
    """
    d = data_of(h, s, data)
    k, _ = tune("record cap", d, s.eps)
    K = float(np.dot(h.users, np.minimum(h.counts, k)))
    # worst case: the reweighting moves the mean by at most U·max(Σ|g_i|)/2 (values at the two ends)
    g = np.minimum(h.counts, k) / K - h.counts / float(h.records)
    wc_bias = 0.5 * float(np.dot(h.users, np.abs(g)))
    big = h.counts > k
    d_big = h.counts[big].astype(float)
    wc_samp = float(np.dot(h.users[big], k * (d_big - k) / (d_big - 1))) / 4 / K**2  # σ_i² ≤ U²/4
    wc_noise = math.sqrt(2) * min(k, h.counts[-1]) / (s.eps * K)
    wc = math.sqrt(wc_bias**2 + wc_samp + wc_noise**2)
    worst = Quantity("worst case over data in [0, U]", "bound", "RMSE", wc * s.U, wc,
                     "reweighting bias at its largest (U·Σ|g_i|/2) ⊕ the largest sampling spread (σ_i² ≤ U²/4) ⊕ "
                     "Laplace noise: an upper bound")

    def action(kk: float) -> str:
        return (f"keep k = {_fmt(kk)} records of each user holding more (drawn uniformly without replacement), all "
                f"records of the others; release Σ kept values / Σ min(m, k) + Laplace(U·k / (ε·Σ min(m, k)))")
    return bounded("record cap", "Record cap (k sampled)", SOURCE_REC, "k", h, s, seed, data, worst=worst,
                   action=action, details={"worst_bias_rel": wc_bias, "worst_noise_rel": wc_noise})


def evaluate_no_clipping(h: Histogram, s: Settings, seed: int,
                         data: tuning.CentralData | None = None) -> MethodResult:
    r"""The Laplace mean at sensitivity :math:`Um^*/M`: unbiased, exact RMSE :math:`\sqrt2\,Um^*/(\varepsilon M)`.

    .. math:: \hat\mu = \frac{\sum_i S_i}{M} + \mathrm{Lap}\Big(\frac{U m^*}{\varepsilon M}\Big)

    Source: the Laplace mechanism (Dwork & Roth, 2014, Theorem 3.6).

    Examples
    --------
    >>> r = evaluate_no_clipping(Histogram.of_counts([1, 3]), Settings(eps=1.0, inverse=False), 0)
    >>> round(r.error.rmse_rel, 6)  # √2 · 3 / 4
    1.06066
    """
    d = data_of(h, s, data)
    err = _q("exact RMSE", d, tuning.no_clipping(d, s.eps), "unbiased; Laplace variance in closed form")
    worst = Quantity("worst case over data in [0, U]", "exact", "RMSE", err.value, err.rmse_rel,
                     "the same on any data (no bias)")
    action = (f"no bound: release Σ values / Σm + Laplace(U·m* / (ε·Σm)), m* = {exact(int(h.counts[-1]))} the "
              "largest count (itself read from the data)")
    inv = inverses("no clipping", h, d, s) if s.inverse else ()
    return MethodResult(MODEL, "No clipping", "Laplace mechanism at the largest contribution (Dwork & Roth, 2014)",
                        "—", None, action, 0.0, worst, (), None, inv, details={"data": d.kind}, estimand=ESTIMAND,
                        trivial_rel=trivial_rel(d), error=err)


def curves(h: Histogram, s: Settings, result: MethodResult, data: tuning.CentralData | None = None,
           kind: str | None = None) -> tuple:
    """Exact bias, spread, noise and total RMSE / U against the bound, and the tuned total against ε.

    Examples
    --------
    >>> h = Histogram.of_counts([1] * 50 + [40])
    >>> r = evaluate_sum_cap(h, Settings(inverse=False), 0)
    >>> [c.x_name for c in curves(h, Settings(), r)]
    ['cap C (per-user sum)', 'eps']
    """
    kind = kind or {"Record cap (k sampled)": "record cap", "Rameshwar-Tandon": "window"}.get(result.method, "sum cap")
    d = data_of(h, s, data)
    M, U = d.records, d.U
    if kind == "record cap":
        x = tuning.record_cap_parts(d, s.eps)[0]
        x = x if x.size <= 400 else np.unique(np.concatenate([x[:: max(x.size // 400, 1)], [x[-1]]]))
        mean, var, noise = tuning.record_cap_parts(d, s.eps, x)[1:]
        name = "records kept per user k"
    else:
        f = objective(kind, d, s.eps)
        cand = f.candidates()  # type: ignore[attr-defined]
        x = np.unique(np.concatenate([np.geomspace(max(U, cand[cand > 0].min()), U * d.m_max, 150),
                                      cand[:: max(cand.size // 200, 1)], [result.details.get("tuned", U)]]))
        mean, var, noise = f.moments(x)  # type: ignore[attr-defined]
        name = "window width T (per-user sum)" if kind == "window" else "cap C (per-user sum)"
    series = (("bias", tuple((np.abs(mean) / (M * U)).tolist())), ("spread (data)", tuple((np.sqrt(var) / (M * U)).tolist())),
              ("noise (Laplace s.d.)", tuple((np.sqrt(noise) / (M * U)).tolist())),
              ("total RMSE", tuple((np.sqrt(mean * mean + var + noise) / (M * U)).tolist())))
    note = f"exact, on {d.description}; marked: the tuned value (the curve's minimum)"
    by_b = Curve(result.method, name, tuple(x.tolist()), series, "RMSE / width", "exact",
                 result.details.get("tuned"), note)
    levels = levels_around(s.eps, points=curve_points(work(kind, d)))
    tot = [float(tuning.rel(tune(kind, d, float(e))[1], d)) for e in levels]
    by_eps = Curve(result.method, "eps", tuple(levels.tolist()), (("total RMSE", tuple(tot)),), "RMSE / width",
                   "exact", s.eps, "at each ε its own tuned bound")
    return by_b, by_eps


def curves_none(h: Histogram, s: Settings, result: MethodResult, data: tuning.CentralData | None = None) -> tuple:
    """No bound to tune: the exact RMSE / U against ε only.

    Examples
    --------
    >>> h = Histogram.of_counts([1, 3])
    >>> [c.x_name for c in curves_none(h, Settings(), evaluate_no_clipping(h, Settings(inverse=False), 0))]
    ['eps']
    """
    d = data_of(h, s, data)
    levels = levels_around(s.eps)
    tot = [float(tuning.rel(tuning.no_clipping(d, float(e)), d)) for e in levels]
    return (Curve(result.method, "eps", tuple(levels.tolist()), (("total RMSE", tuple(tot)),), "RMSE / width",
                  "exact", s.eps, "unbiased: noise only"),)
