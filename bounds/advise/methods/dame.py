r"""DAME (Pla, Richard & Vono) in the local model (values in :math:`[-1, 1]`), with the empirical law of the counts.

The theory (Theorems 1–2, :math:`\tilde m`, :math:`\tau`) reads the law only, built from the histogram.
The simulation draws each user's mean (a user's vote and clipped release depend on it), except that a
size held by many users is counted per possible mean (the same law: :mod:`bounds.simulate`); its cost grows
with the users drawn, so it runs up to ``Settings.max_per_user`` users, and reports its CPU time per
replication.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import dame, simulate, sizes
from .. import privacy
from ..inputs import Histogram
from ..results import Curve, Inverse, MethodResult, Quantity, Settings
from ..searches import dame_smallest
from ..simulation import PER_USER, levels_around, smallest_n_simulated, summarise, timed
from ...quantities import BY_NAME

MODEL, NAME = "local", "DAME"
WIDTH = 2.0
MAX_DISTINCT_INVERSE = 2000
"""The inverse searches walk m̃'s runs, each step a Theorem 2 evaluation in O(J): searched up to this many distinct
counts (bounded work), else reported as not searched."""


def evaluate(h: Histogram, s: Settings, seed: int) -> MethodResult:
    r"""Theorem 2's :math:`\tilde m` and upper bound, Theorem 1's lower bound, a simulation and the inverses.

    .. math:: UB = \frac{c_3 \ln(c_4(\sqrt{\tilde m x} \vee 1))}{x\,E[\sqrt{m \wedge \tilde m}]^2} \wedge 4,
              \qquad x = n\alpha^2

    Source: Pla, Richard & Vono (2024), Theorems 1–2, eq. (4), Algorithm 1.

    Examples
    --------
    >>> r = evaluate(Histogram.of_counts([5] * 200 + [50] * 20), Settings(reps=0, inverse=False), 0)
    >>> r.parameter, r.details["m_tilde"] >= 1
    ('m̃', True)
    """
    law = h.law()
    n = h.n_users - h.n_users % 2
    x = n * s.alpha * s.alpha
    ub = dame.upper_bound(law, n=n, alpha=s.alpha, constants="paper")
    lb = dame.lower_bound(law, n_alpha2=x, constants="paper")
    mt = ub.m_tilde
    tau = dame.tau(mt, n_alpha2=x)
    capped = " capped at the trivial 4 (met by any estimate in [-1, 1])" if ub.capped else ""
    bound = Quantity("Theorem 2 upper bound", BY_NAME["dame_upper"].kind, "MSE", ub.value, math.sqrt(ub.value) / WIDTH,
                     f"worst case over μ on [-1, 1] of the MSE, paper constants{capped}")
    lower = Quantity("Theorem 1 lower bound", BY_NAME["dame_lower"].kind, "MSE", lb.value, math.sqrt(lb.value) / WIDTH,
                     f"minimax lower bound, paper constants (argmax a = {lb.argmax})")
    sim = None
    if s.reps > 0 and h.n_users <= s.max_per_user:
        res, cpu = timed(lambda: simulate.compare(sizes=law, n=h.n_users, seed=seed, m_tilde=mt, theta=s.theta,
                                                  alpha=s.alpha, reps=s.reps, estimators=("dame",)))
        sim = summarise(res["dame"].estimates - s.theta, width=WIDTH, beta=s.beta, engine=PER_USER, cpu=cpu,
                        covers=f"given μ: two-point on {{-1, 1}} with mean θ = {s.theta:g}, sizes drawn from the "
                               "counts' law; the unprojected estimator")
    inverses: tuple = ()
    if s.inverse and h.distinct > MAX_DISTINCT_INVERSE:
        crit = f"UB ≤ (2·target)² (Theorem 2, paper constants, target {s.target:g})"
        why = (f"not searched: {h.distinct:,} distinct counts, more than {MAX_DISTINCT_INVERSE:,} (each step of the "
               "walk evaluates Theorem 2 over all of them)")
        inverses = (Inverse("alpha", None, None, s.target, crit, why, searched=False),
                    Inverse("n", None, None, s.target, crit, why, searched=False))
    elif s.inverse:
        t_mse = (WIDTH * s.target) ** 2
        level = dame_smallest(law, target_mse=t_mse, n=n)
        users = dame_smallest(law, target_mse=t_mse, alpha=s.alpha)
        crit = f"UB ≤ (2·target)² (Theorem 2, paper constants, target {s.target:g})"
        note = "exact; UB is not monotone in nα² (m̃ jumps): walked run by run of constant m̃"
        inverses = (Inverse("alpha", level, level, s.target, crit, "3-significant-digit grid; " + note),
                    Inverse("n", users, users, s.target, crit, note))
    if s.inverse and s.reps > 1 and h.n_users <= s.max_per_user:
        def at(nn: int) -> Any:
            m_t = dame.upper_bound(law, n=nn - nn % 2, alpha=s.alpha, constants="paper").m_tilde
            res = simulate.compare(sizes=law, n=nn, seed=seed + nn, m_tilde=m_t, theta=s.theta, alpha=s.alpha,
                                   reps=s.reps, estimators=("dame",))
            return summarise(res["dame"].estimates - s.theta, width=WIDTH, beta=s.beta, engine=PER_USER, cpu=0.0,
                             covers="")
        users_sim, why = smallest_n_simulated(at, h.n_users, s.max_per_user, s.target)
        inverses = inverses + (Inverse("n", users_sim, users_sim, s.target,
                                       f"simulated RMSE/w + 2 s.e. ≤ target ({s.target:g}), the compared metric",
                                       f"doubling grid from the data's n, the counts' law, m̃ re-chosen at each n; "
                                       f"{s.reps} replications each; {why}"),)
    details: dict = {}
    if s.private_selection > 0 and s.reps > 1 and h.n_users <= s.max_per_user:
        sim, mt_private, details = _private(h, s, seed, n)
    frac = h.at_least(mt) / h.n_users
    action = (f"m̃ = {mt}: users with ≥ m̃ records ({100 * frac:.3g}%) localise; a user's weight is √(m∧m̃)/√m̃, "
              f"so records beyond m̃ count less; bins of half-width τ = {tau!r}")
    value = mt
    if details:
        value = mt_private
        action = (f"choose m̃ privately: each user reports the grid bucket of its count by k-ary randomised response "
                  f"(α_sel = {details['private']['alpha_select']:g}), m̃ minimises Theorem 2 on the estimated law; "
                  f"then DAME at α_rel = {details['private']['alpha_release']:g} (most likely m̃ = {mt_private}; "
                  f"from the counts themselves: {mt})")
    return MethodResult(MODEL, NAME, "Pla, Richard & Vono (2024), Theorems 1-2, eq. (4)", "m̃", value, action,
                        h.at_least(mt + 1) / h.n_users, bound, (lower,), sim, inverses,
                        details={"m_tilde": mt, "upper_bound": ub.value, "upper_capped": ub.capped,
                                 "lower_bound": lb.value, "lower_argmax": lb.argmax, "tau": tau, "n_alpha2": x,
                                 **details},
                        estimand="population mean θ (synthetic law)", trivial_rel=abs(s.theta) / WIDTH)


def _private(h: Histogram, s: Settings, seed: int, n: int) -> tuple:
    r"""DAME with :math:`\tilde m` chosen in the local model: a k-ary randomised response per user at
    :math:`\alpha_{sel} = f\alpha` (:func:`~bounds.advise.privacy.local_laws`), :math:`\tilde m` from Theorem 2
    on the estimated law, DAME at :math:`\alpha_{rel} = \alpha - \alpha_{sel}`; each user spends
    :math:`\alpha` in all (sequential composition of its two reports).  The pipeline is simulated: ``reps``
    draws of the estimated law, each followed by one DAME release on the true counts."""
    a_sel, a_rel = privacy.split(s.alpha, s.private_selection)
    rng = np.random.default_rng(seed)
    g = privacy.grid(s.selection_max)
    laws = privacy.local_laws(h, g, a_sel, s.reps, rng)
    picks = [dame.upper_bound(sizes.finite(m), n=n, alpha=a_rel, constants="paper").m_tilde for m in laws]
    values, freq = np.unique(np.array(picks), return_counts=True)
    errors = []
    law = h.law()

    def run() -> None:
        for j, (mt, r) in enumerate(zip(values.tolist(), freq.tolist())):
            res = simulate.compare(sizes=law, n=h.n_users, seed=seed + 1 + j, m_tilde=int(mt), theta=s.theta,
                                   alpha=a_rel, reps=int(r), estimators=("dame",))
            errors.append(res["dame"].estimates - s.theta)
    _, cpu = timed(run)
    sim = summarise(np.concatenate(errors), width=WIDTH, beta=s.beta, engine=PER_USER, cpu=cpu,
                    covers=f"the whole pipeline: m̃ chosen from k-ary randomised responses (α_sel = {a_sel:g}, grid "
                           f"up to {int(g[-1]):,}), then DAME at α_rel = {a_rel:g}; two-point μ with mean θ = "
                           f"{s.theta:g}")
    mode = int(values[np.argmax(freq)])
    return sim, mode, {"private": {"alpha_select": a_sel, "alpha_release": a_rel, "m_tilde_mode": mode,
                                   "m_tilde_values": values.tolist(), "m_tilde_freq": freq.tolist()}}


def curves(h: Histogram, s: Settings, result: MethodResult) -> tuple:
    """Theorem 2's bound (RMSE / width) against α.

    Examples
    --------
    >>> h = Histogram.of_counts([5] * 20 + [50] * 2)
    >>> curves(h, Settings(), evaluate(h, Settings(reps=0, inverse=False), 0))[0].kind
    'bound'
    """
    law = h.law()
    n = result.details["n_alpha2"] / s.alpha ** 2
    a = levels_around(s.alpha)
    rm = tuple(math.sqrt(dame.upper_bound(law, n_alpha2=float(n * x * x), constants="paper").value) / WIDTH for x in a)
    return (Curve(NAME, "alpha", tuple(a.tolist()), (("total RMSE (bound)", rm),), "RMSE / width", "bound", s.alpha,
                  "Theorem 2, paper constants; m̃ chosen at each α"),)
