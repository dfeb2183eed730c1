r"""``bounds advise``: which user-level private mean estimator to use on a dataset, with which contribution bound.

A practitioner holds the number of records each user contributes.  :func:`advise` reduces them to their
histogram (count → number of users), evaluates every method of the four papers on it and decides, per
model, on **one metric** — the RMSE relative to the width of the value range:

* **central** (user-level :math:`\varepsilon`-DP, the **dataset's mean**): Rameshwar & Tandon (each user's sum
  projected onto a window centred at :math:`Um/2`, Theorem III.1), a one-sided cap of each user's sum, at
  most ``k`` records kept per user (sampled), no clipping — each bound the argmin of its **exact** RMSE (on
  the data's values with ``values=``, else on the named synthetic law of :mod:`~bounds.advise.tuning`),
  the paper's choice (:math:`T_\varepsilon`) beside it; Cummings, Feldman, McMillan & Talwar (weights
  truncated at :math:`T^*`, eq. (6); the population mean, an oracle needing the per-user variances);
* **local** (user-level :math:`\alpha`-LDP): DAME (Pla, Richard & Vono, :math:`\tilde m`); Kent, Berrett & Yu
  (truncation to :math:`T^*`); Duchi et al.'s one report per user.

A method whose error exceeds the midpoint's on the same estimand and law is flagged unusable.  Bounds, rates
and simulations keep their kinds; the recommended methods come with curves to tune on (error against the
contribution bound, bias and noise apart and together, and against :math:`\varepsilon`/:math:`\alpha`).
Choosing a bound from the data is not private: the report says what it read, and ``private_selection``
chooses the central bounds with the exponential mechanism (:mod:`~bounds.advise.privacy`).

Layout: :mod:`~bounds.advise.inputs` (counts, histograms, records through DuckDB), :mod:`~bounds.advise.values`
(per-user sums of a value column), :mod:`~bounds.advise.tuning` (exact central errors, tuned bounds),
:mod:`~bounds.advise.privacy` (the private choice of the bound),
:mod:`~bounds.advise.methods` (one module per method, plain results), :mod:`~bounds.advise.searches`
(inverse questions, safe rounding), :mod:`~bounds.advise.recommend` (the decision),
:mod:`~bounds.advise.report` (text, JSON, plot).

Size
----
After the histogram, memory is :math:`O(J)` for ``J`` distinct counts, and so is the time of every bound,
rate and inverse search.  Simulations use grouped exact sufficient statistics where they exist (Duchi: one
binomial; Rameshwar & Tandon: the clipped users only; Cummings et al.: one multinomial per count); DAME and
Kent draw each user's mean (a size held by many users counted per possible mean) and run up to
``max_per_user`` users; Cummings et al.'s grouped simulation makes at
most ``MAX_DRAWS`` draws (else it is not run, and the notes say so).  Work
that would repeat the :math:`O(J)` tuning many times is bounded: the central inverse searches run when one
tuning weighs at most ``MAX_INVERSE_WORK`` (DAME's at most
``MAX_DISTINCT_INVERSE`` distinct counts), else they are reported as not
searched; a curve against the privacy level has fewer (still exact) points past
``MAX_CURVE_WORK``.  A progress bar on stderr follows the methods (and, on the
command line, the reading of the file).

Data beyond one machine
-----------------------
Only the histogram is needed.  On a warehouse, run the one GROUP BY query (:data:`GROUP_BY_SQL`)::

    WITH per_user AS (SELECT user_id AS u, COUNT(*) AS n FROM events GROUP BY user_id)
    SELECT n AS count, COUNT(*) FILTER (WHERE u IS NOT NULL) AS users,
           COALESCE(SUM(n) FILTER (WHERE u IS NULL), 0) AS unattributed
    FROM per_user GROUP BY n ORDER BY n

or with dask::

    import dask.dataframe as dd
    df = dd.read_parquet("events/*.parquet", columns=["user_id"])
    hist = df.groupby("user_id").size().value_counts().compute()   # count -> users
    advise(load_histogram(hist.rename("users").rename_axis("count").reset_index()))

and pass the ``count,users`` rows to ``bounds advise --histogram FILE``.  On one machine,
``bounds advise --records events.parquet --user user_id`` runs the query with DuckDB, out of core.

Examples
--------
>>> import numpy as np
>>> from bounds import advise
>>> rep = advise.advise(np.repeat([1, 4, 20], [300, 200, 100]), eps=1.0, alpha=0.5, reps=64, seed=0, progress=False)
>>> [m.method for m in rep.methods]
['DAME', 'Kent (T = min count)', 'Kent (best T)', 'Duchi', 'Cummings et al.', 'Rameshwar-Tandon', 'Sum cap (one-sided)', 'Record cap (k sampled)', 'No clipping']
>>> rep.method("Rameshwar-Tandon").details["T_eps"]  # the paper's choice: U × the 2nd largest
20.0
>>> rep.recommendation("central").rmse_rel <= rep.method("Rameshwar-Tandon").details["T_eps_rmse_rel"]
True
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from concurrent.futures import Executor
from fractions import Fraction
from typing import Any

import numpy as np
from .._progress import tqdm

from ..numerics import PaperAssumptionWarning, check_integer, check_positive, check_real, format_value
from . import inputs, methods, privacy, recommend, report, results, searches, tuning
from . import values as valuesmod
from .inputs import (
    EXAMPLES,
    GROUP_BY_SQL,
    MAX_USERS,
    REAL_DATASETS,
    Histogram,
    ReadReport,
    example,
    histogram,
    load_counts,
    load_histogram,
    read_input,
    real_counts,
    records_histogram,
)
from .report import Advice
from .values import records_values, user_values
from .results import Settings
from .searches import (
    dame_smallest,
    law_optimal_error,
    level_grid,
    rameshwar_smallest,
    round_down,
    round_up,
    smallest_integer,
    smallest_level,
)

__all__ = ["advise", "Advice", "Settings", "Histogram", "histogram", "load_counts", "load_histogram",
           "records_histogram", "read_input", "ReadReport", "MAX_USERS", "real_counts", "example", "REAL_DATASETS",
           "EXAMPLES", "GROUP_BY_SQL", "level_grid",
           "smallest_integer", "smallest_level", "dame_smallest", "law_optimal_error", "rameshwar_smallest",
           "round_up", "round_down", "inputs", "methods", "recommend", "report", "results", "searches",
           "tuning", "privacy", "values", "records_values", "user_values"]


_SQUARE_MAX = 2**992
"""The largest (U·m/min(ε, 1))² :func:`advise` accepts: the float range (2**1024) with a margin of 2**32 for the
factors of the squared errors."""


def _run(index: int, h: Histogram, s: Settings, seed: int, data: Any = None) -> tuple[Any, list[str]]:
    """Method ``index`` of :data:`methods.METHODS` on ``h``, with the paper-assumption warnings it raised."""
    entry = methods.METHODS[index]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        out = entry.evaluate(h, s, seed, data) if entry.takes_data else entry.evaluate(h, s, seed)
    return out, [str(w.message) for w in caught if issubclass(w.category, PaperAssumptionWarning)]


class _Now:
    """A finished 'future' for in-process runs."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


def advise(counts: Any, *, column: str | None = None, eps: float = 1.0, alpha: float = 0.5, U: float = 1.0,
           target: float = 0.05, theta: float = 0.3, p: float = 0.5, sigma_p2: float = 0.01,
           interval_beta: float = 0.05, beta: float = 0.1, reps: int = 64, seed: int = 0, inverse: bool = True,
           curves: bool = True, max_per_user: int = 10**5, executor: Executor | None = None,
           progress: bool = True, values: tuning.CentralData | None = None, private_selection: float = 0.0,
           selection_max: int = 10**4, rel_se: float = 0.02) -> Advice:
    r"""The recommendation per model, every method's numbers, inverse answers and tuning curves for a dataset.

    ``counts``: per-user counts (a list, an array, a pandas/polars column, a file: see
    :func:`~bounds.advise.inputs.histogram`) or a :class:`~bounds.advise.inputs.Histogram`.  ``eps``
    (central, values in :math:`[0, U]`), ``alpha`` (local, values in :math:`[-1, 1]`); ``target``: the
    error relative to the range's width the inverse questions aim at; ``theta``: the mean of the
    synthetic two-point law; ``p``, ``sigma_p2``, ``interval_beta``: Cummings et al.'s meta-distribution
    and interval level; ``beta``: report the :math:`1-\beta` quantile of the simulated errors; ``reps``
    replications (0: no simulation, the decision then rests on worst-case RMSEs); ``max_per_user``: the
    largest number of users a per-user simulation (DAME, Kent) draws.  Each method runs as one task on
    ``executor`` (any ``concurrent.futures.Executor``; ``None``: in process) with its own seed from
    ``SeedSequence(seed)``; the results do not depend on the executor.

    ``values``: the users' values (:func:`~bounds.advise.values.records_values` or
    :func:`~bounds.advise.values.user_values`; ``counts`` may then be ``None``): the central errors are
    then those of the data's own values, else of the named synthetic law
    :data:`~bounds.advise.tuning.SYNTHETIC_LAW`.  Every central bound is the argmin of the exact RMSE it
    reports.  ``private_selection``: the fraction of ε spent choosing the central bounds privately
    (:mod:`~bounds.advise.privacy`; grid up to ``selection_max`` records per user); 0: the bounds are
    chosen from the data, which is not private (the report says so).  ``rel_se``: the recommended local
    method is re-simulated until its RMSE's standard error is at most this fraction of it.

    .. math:: \text{recommended} = \arg\min_{\text{method}} \frac{\mathrm{RMSE}}{\text{width}},\qquad
              \text{unusable} \iff \frac{\mathrm{RMSE}}{\text{width}} > \frac{\mathrm{RMSE}_{\text{midpoint}}}{\text{width}}

    Source: Pla et al. (2024), Theorems 1–2, Algorithm 1; Kent et al. (2024), eq. (25); Duchi et al. (2018);
    Cummings et al. (2022), eqs. (4)–(6), Corollary 5.5; Rameshwar and Tandon (2025), Lemma III.1,
    Theorem III.1.

    Examples
    --------
    >>> rep = advise([5] * 200 + [50] * 20, eps=2.0, alpha=0.5, reps=64, seed=1, progress=False)
    >>> rep.method("DAME").details["m_tilde"] >= 1, rep.method("Duchi").bound.kind
    (True, 'exact')
    """
    if values is not None and not isinstance(values, tuning.CentralData):
        raise TypeError(f"values must come from bounds.advise.values (records_values, user_values), "
                        f"got {format_value(values)}")
    if values is not None and values.U != float(U):
        raise ValueError(f"values: read for U = {values.U:g}, but U = {U!r}")
    h = valuesmod.histogram_of_values(values) if counts is None and values is not None else \
        inputs.histogram_of(counts, column, "counts")
    if values is not None and counts is not None:
        hv = valuesmod.histogram_of_values(values)
        if not (np.array_equal(hv.counts, h.counts) and np.array_equal(hv.users, h.users)):
            raise ValueError("values: their users' counts differ from counts (pass counts=None to use theirs)")
    s = Settings(eps=check_positive("eps", eps), alpha=check_positive("alpha", alpha), U=check_positive("U", U),
                 target=check_positive("target", target),
                 theta=check_real("theta", theta, low=-1, high=1, low_open=True, high_open=True),
                 p=check_real("p", p, low=0, high=1, low_open=True, high_open=True),
                 sigma_p2=check_real("sigma_p2", sigma_p2, low=0), interval_beta=check_real(
                     "interval_beta", interval_beta, low=0, high=1, low_open=True, high_open=True),
                 beta=check_real("beta", beta, low=0, high=1, low_open=True, high_open=True),
                 reps=check_integer("reps", reps, minimum=0, maximum=10**7), seed=check_integer("seed", seed, minimum=0),
                 inverse=_flag("inverse", inverse), max_per_user=check_integer("max_per_user", max_per_user, minimum=2),
                 private_selection=check_real("private_selection", private_selection, low=0, high=1, high_open=True),
                 selection_max=check_integer("selection_max", selection_max, minimum=1, maximum=inputs.MAX_COUNT),
                 rel_se=check_real("rel_se", rel_se, low=0, high=1, low_open=True),
                 values=values.description if values is not None else "the synthetic " + tuning.SYNTHETIC_LAW + f", θ = {theta:g}")
    if s.reps == 1:
        raise ValueError("reps must be 0 (no simulation) or at least 2, got 1")
    scale = Fraction(s.U) * int(h.counts[-1]) * max(Fraction(1), 1 / Fraction(s.eps))  # a user's sum U·m, its noise U·m/ε
    if scale * scale > _SQUARE_MAX:  # squared errors are floats: (U·m/ε)² with a margin for their factors
        raise ValueError(f"U: {format_value(U)} times the largest count per user ({int(h.counts[-1]):,})"
                         + (f", over eps = {s.eps:g}," if s.eps < 1 else "") + " is above 2**496 "
                         f"({math.sqrt(_SQUARE_MAX):.4g}), past which the squared errors leave the float "
                         "range; the relative errors do not depend on U: give U in a smaller unit")
    if s.sigma_p2 >= s.p * (1 - s.p):
        raise ValueError(f"sigma_p2 must be below p(1-p) = {s.p * (1 - s.p):g} (a Beta meta-distribution), "
                         f"got {s.sigma_p2!r}")
    _flag("curves", curves), _flag("progress", progress)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(f"executor must be a concurrent.futures.Executor or None, got {format_value(executor)}")
    N = h.n_users
    if N < 2:
        raise ValueError(f"counts must hold at least 2 users, got {N}")
    if methods.kent.cap(N - N % 2, int(h.counts[0]), s.alpha) is None:
        raise ValueError(f"alpha = {s.alpha:g} is too small for {N} users: Kent et al.'s τ (eq. (25)) needs nT*α² > 1")
    seeds = [int(x) for x in np.random.SeedSequence(s.seed).generate_state(len(methods.METHODS))]
    futures = [(executor.submit(_run, i, h, s, seeds[i], values) if executor is not None else None)
               for i in range(len(methods.METHODS))]
    bar = tqdm(total=len(methods.METHODS) + 1, desc="advise", disable=None if progress else True)
    try:
        return _collect(h, s, values, seeds, futures, curves, bar)
    finally:
        bar.close()


def _collect(h: Histogram, s: Settings, values: Any, seeds: list, futures: list, curves: bool, bar: Any) -> Advice:
    """:func:`advise` once its methods are submitted: their results, the decision, the curves (one step of
    ``bar`` per method, one for the curves)."""
    N = h.n_users
    notes: list[str] = []
    found: list[results.MethodResult] = []
    caught: set[str] = set()
    for i, (entry, fut) in enumerate(zip(methods.METHODS, futures)):
        bar.set_postfix_str(entry.name)
        out, msgs = fut.result() if fut is not None else _run(i, h, s, seeds[i], values)
        bar.update()
        caught.update(msgs)
        if out is None:
            notes.append(f"{entry.name}: does not apply (no truncation has nT*α² > 1)")
            continue
        found.append(out)
        if s.reps > 0 and out.simulation is None and out.details.get("not_simulated"):
            notes.append(f"{entry.name}: {out.details['not_simulated']}")
        elif s.reps > 0 and out.simulation is None and out.error is None:
            notes.append(f"{entry.name}: not simulated — it needs per-user draws and the data hold {N:,} users, "
                         f"more than max_per_user = {s.max_per_user:,}")
    def decide() -> tuple:
        return tuple(recommend.recommend(model, found, level_name=name, level=level, beta=s.beta, n_users=N)
                     for model, name, level in (("central", "eps", s.eps), ("local", "alpha", s.alpha)))
    recs = decide()
    found, more = _stabilise(found, recs[1].method, h, s, seeds, values)
    if more:
        notes.append(more)
        recs = decide()
    drawn: list = []
    bar.set_postfix_str("tuning curves")
    if curves:
        by_name = {m.name: m for m in methods.METHODS}
        for rec in recs:
            if rec.method in by_name:
                res = next(r for r in found if r.method == rec.method)
                entry = by_name[rec.method]
                drawn.extend(entry.curves(h, s, res, values) if entry.takes_data else entry.curves(h, s, res))
    bar.update()
    if h.zeros:
        notes.append(f"{h.zeros:,} user(s) with no record dropped (count 0)")
    if h.unattributed:
        notes.append(f"{h.unattributed:,} record(s) without a user ignored")
    notes += [f"warning: {m}" for m in sorted(caught)]
    from .. import __version__  # noqa: PLC0415 - the package is initialised by now

    return Advice(N, h.records, h.summary(), s, tuple(found), recs, tuple(drawn), tuple(notes), __version__,
                  _reads(s, values), read=getattr(h, "read", None))


MAX_STABLE_REPS = 20_000
"""The most replications the recommended local method is re-simulated with (to reach ``rel_se``)."""


def _stabilise(found: list, name: str, h: Histogram, s: Settings, seeds: list,
               values: Any) -> tuple[list, str]:
    """Re-simulate the recommended local method until its RMSE's s.e. is at most ``rel_se`` of it."""
    res = next((r for r in found if r.method == name), None)
    if res is None or res.simulation is None or res.error is not None:
        return found, ""
    sim = res.simulation
    ratio = sim.relative_se
    if ratio <= s.rel_se:
        return found, ""
    reps = min(MAX_STABLE_REPS, math.ceil(1.2 * sim.reps * (ratio / s.rel_se) ** 2))
    i = next(j for j, m in enumerate(methods.METHODS) if m.name == name)
    again, _ = _run(i, h, dataclasses.replace(s, reps=reps), seeds[i], values)
    out = [again if r.method == name else r for r in found]
    new = again.simulation
    return out, (f"{name}: re-simulated with {reps:,} replications (s.e. {100 * ratio:.2g}% of the RMSE at "
                 f"{sim.reps:,}; now {100 * new.relative_se:.2g}%, target {100 * s.rel_se:g}%)")


def _reads(s: Settings, values: Any) -> tuple:
    """What the advice read, and what that means for privacy."""
    what = ["the per-user counts (their histogram)"]  # the values' description says what they are
    if values is not None:
        what.append(values.description)
    lines = ["read: " + " and ".join(what) + "; central errors on " + s.values]
    if s.private_selection > 0:
        lines.append(f"central bounds chosen privately: {s.private_selection:g} of ε by the exponential mechanism "
                     "over a data-independent grid (bounds.advise.privacy), the rest for the release; basic "
                     "composition: total ε as given.  The choice of method and the printed errors still read the "
                     "data: they are planning numbers, not releases")
        lines.append(f"local model: DAME's m̃ chosen privately ({s.private_selection:g} of α on a k-ary randomised "
                     "response per user, sequential composition: α in all); Duchi has no bound to choose (its "
                     "release spends all of α); Kent's T* is still read from the counts (not private)")
    else:
        lines.append("not private: the recommended bounds (and m̃, T*) are functions of the counts"
                     + (" and of the values" if values is not None else "") + "; releasing with them is private "
                     "only if those are public (the papers' assumption: the counts or their law are public"
                     + ("; the values never are" if values is not None else "") + "); "
                     "--private-selection FRACTION chooses the central bound privately, from the counts only")
    return tuple(lines)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {format_value(value)}")
    return bool(value)
