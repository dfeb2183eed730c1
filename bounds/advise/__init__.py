r"""``bounds advise``: which user-level private mean estimator to use on a dataset, with which contribution bound.

A practitioner holds the number of records each user contributes.  :func:`advise` reduces them to their
histogram (count → number of users), evaluates every method of the four papers on it and decides, per
model, on **one metric** — the RMSE relative to the width of the value range:

* **central** (user-level :math:`\varepsilon`-DP): Cummings, Feldman, McMillan & Talwar (weights truncated at
  :math:`T^*`, eq. (6)); Rameshwar & Tandon (sums clipped at :math:`T_\varepsilon`, Theorem III.1);
* **local** (user-level :math:`\alpha`-LDP): DAME (Pla, Richard & Vono, :math:`\tilde m`); Kent, Berrett & Yu
  (truncation to :math:`T^*`); Duchi et al.'s one report per user.

A method whose error exceeds the midpoint's worst case (half the range) is flagged unusable.  Bounds, rates
and simulations keep their kinds; the recommended methods come with curves to tune on (error against the
contribution bound, bias and noise apart and together, and against :math:`\varepsilon`/:math:`\alpha`).

Layout: :mod:`~bounds.advise.inputs` (counts, histograms, records through DuckDB),
:mod:`~bounds.advise.methods` (one module per method, plain results), :mod:`~bounds.advise.searches`
(inverse questions, safe rounding), :mod:`~bounds.advise.recommend` (the decision),
:mod:`~bounds.advise.report` (text, JSON, plot).

Size
----
After the histogram, memory is :math:`O(J)` for ``J`` distinct counts, and so is the time of every bound,
rate and inverse search.  Simulations use grouped exact sufficient statistics where they exist (Duchi: one
binomial; Rameshwar & Tandon: the clipped users only; Cummings et al.: one multinomial per count); DAME and
Kent need per-user draws and run up to ``max_per_user`` users.

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
['DAME', 'Kent (T = min count)', 'Kent (best T)', 'Duchi', 'Cummings et al.', 'Rameshwar-Tandon']
>>> rep.recommendation("central").method, rep.method("Rameshwar-Tandon").details["T_eps"]  # U × the 2nd largest
('Rameshwar-Tandon', 20.0)
"""

from __future__ import annotations

import warnings
from concurrent.futures import Executor
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..numerics import PaperAssumptionWarning, check_integer, check_positive, check_real, format_value
from . import inputs, methods, recommend, report, results, searches
from .inputs import (
    EXAMPLES,
    GROUP_BY_SQL,
    REAL_DATASETS,
    Histogram,
    example,
    histogram,
    load_counts,
    load_histogram,
    real_counts,
    records_histogram,
)
from .report import Advice
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
           "records_histogram", "real_counts", "example", "REAL_DATASETS", "EXAMPLES", "GROUP_BY_SQL", "level_grid",
           "smallest_integer", "smallest_level", "dame_smallest", "law_optimal_error", "rameshwar_smallest",
           "round_up", "round_down", "inputs", "methods", "recommend", "report", "results", "searches"]


def _run(index: int, h: Histogram, s: Settings, seed: int) -> tuple[Any, list[str]]:
    """Method ``index`` of :data:`methods.METHODS` on ``h``, with the paper-assumption warnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        out = methods.METHODS[index].evaluate(h, s, seed)
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
           progress: bool = True) -> Advice:
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

    .. math:: \text{recommended} = \arg\min_{\text{method}} \frac{\mathrm{RMSE}}{\text{width}},\qquad
              \text{unusable} \iff \frac{\mathrm{RMSE}}{\text{width}} > \frac12

    Source: Pla et al. (2024), Theorems 1–2, Algorithm 1; Kent et al. (2024), eq. (25); Duchi et al. (2018);
    Cummings et al. (2022), eqs. (4)–(6), Corollary 5.5; Rameshwar and Tandon (2025), Lemma III.1,
    Theorem III.1.

    Examples
    --------
    >>> rep = advise([5] * 200 + [50] * 20, eps=2.0, alpha=0.5, reps=64, seed=1, progress=False)
    >>> rep.method("DAME").details["m_tilde"] >= 1, rep.method("Duchi").bound.kind
    (True, 'exact')
    """
    h = inputs.histogram_of(counts, column, "counts")
    s = Settings(eps=check_positive("eps", eps), alpha=check_positive("alpha", alpha), U=check_positive("U", U),
                 target=check_positive("target", target),
                 theta=check_real("theta", theta, low=-1, high=1, low_open=True, high_open=True),
                 p=check_real("p", p, low=0, high=1, low_open=True, high_open=True),
                 sigma_p2=check_real("sigma_p2", sigma_p2, low=0), interval_beta=check_real(
                     "interval_beta", interval_beta, low=0, high=1, low_open=True, high_open=True),
                 beta=check_real("beta", beta, low=0, high=1, low_open=True, high_open=True),
                 reps=check_integer("reps", reps, minimum=0, maximum=10**7), seed=check_integer("seed", seed, minimum=0),
                 inverse=_flag("inverse", inverse), max_per_user=check_integer("max_per_user", max_per_user, minimum=2))
    if s.reps == 1:
        raise ValueError("reps must be 0 (no simulation) or at least 2, got 1")
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
    futures = [(executor.submit(_run, i, h, s, seeds[i]) if executor is not None else None)
               for i in range(len(methods.METHODS))]
    notes: list[str] = []
    found: list[results.MethodResult] = []
    caught: set[str] = set()
    for i, (entry, fut) in enumerate(tqdm(list(zip(methods.METHODS, futures)), desc="advise",
                                          disable=None if progress else True)):
        out, msgs = fut.result() if fut is not None else _run(i, h, s, seeds[i])
        caught.update(msgs)
        if out is None:
            notes.append(f"{entry.name}: does not apply (no truncation has nT*α² > 1)")
            continue
        found.append(out)
        if s.reps > 0 and out.simulation is None:
            notes.append(f"{entry.name}: not simulated — it needs per-user draws and the data hold {N:,} users, "
                         f"more than max_per_user = {s.max_per_user:,}")
    recs = tuple(recommend.recommend(model, found, level_name=name, level=level, beta=s.beta, n_users=N)
                 for model, name, level in (("central", "eps", s.eps), ("local", "alpha", s.alpha)))
    drawn: list = []
    if curves:
        by_name = {m.name: m for m in methods.METHODS}
        for rec in recs:
            if rec.method in by_name:
                res = next(r for r in found if r.method == rec.method)
                drawn.extend(by_name[rec.method].curves(h, s, res))
    if h.zeros:
        notes.append(f"{h.zeros:,} user(s) with no record dropped (count 0)")
    if h.unattributed:
        notes.append(f"{h.unattributed:,} record(s) without a user ignored")
    notes += [f"warning: {m}" for m in sorted(caught)]
    from .. import __version__  # noqa: PLC0415 - the package is initialised by now

    return Advice(N, h.records, h.summary(), s, tuple(found), recs, tuple(drawn), tuple(notes), __version__)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {format_value(value)}")
    return bool(value)
