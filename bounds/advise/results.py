r"""Plain results of ``bounds advise``: small frozen dataclasses, computed by the method modules, read by the report.

Every number carries its **kind** (``"bound"``: a proven worst case; ``"exact"``: an exact worst case;
``"rate"``: an order with unit constants, not a numeric bound; ``"oracle"``: an
idealised formula that leaves a term out; ``"simulated"``) and its **metric**.  The comparison metric is
one: the root mean squared error relative to the width of the value range, ``RMSE / width``, each method
on its own estimand (``MethodResult.estimand``: the dataset's mean for the central releases, the law's mean
for the local methods and Cummings et al.), against the midpoint's error on the same estimand and law.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Settings", "Quantity", "Simulation", "Inverse", "Curve", "MethodResult", "Recommendation",
           "COMPARABLE_KINDS", "TRIVIAL_RMSE_REL", "exact"]

COMPARABLE_KINDS = ("bound", "exact")
"""Kinds whose RMSE may stand in the comparison column when nothing is simulated."""

TRIVIAL_RMSE_REL = 0.5
r"""The midpoint of the value range errs by at most half its width on any data: RMSE / width :math:`\le 1/2`."""


@dataclass(frozen=True)
class Settings:
    r"""The question asked: privacy levels, value ranges, target, synthetic laws, replications.

    ``eps`` (central) and ``alpha`` (local) levels; central values in :math:`[0, U]`, local in
    :math:`[-1, 1]`; ``target``: an error relative to the width of the value range, in each
    inverse's own metric; ``theta``: the mean of the synthetic two-point law; ``p``, ``sigma_p2``,
    ``interval_beta``: Cummings et al.'s meta-distribution and interval level; ``beta``: the
    simulated errors' reported quantile is the :math:`1 - \beta` one; ``reps`` replications (0: no
    simulation); ``max_per_user``: the largest number of users a per-user simulation draws.
    """

    eps: float = 1.0
    alpha: float = 0.5
    U: float = 1.0
    target: float = 0.05
    theta: float = 0.3
    p: float = 0.5
    sigma_p2: float = 0.01
    interval_beta: float = 0.05
    beta: float = 0.1
    reps: int = 64
    seed: int = 0
    inverse: bool = True
    max_per_user: int = 10**6
    private_selection: float = 0.0
    selection_max: int = 10**4
    rel_se: float = 0.02
    values: str = ""


@dataclass(frozen=True)
class Quantity:
    """A number with its kind, metric and what it covers; ``rmse_rel`` is its RMSE / width when its metric has one."""

    name: str
    kind: str
    metric: str
    value: float
    rmse_rel: float | None
    covers: str


@dataclass(frozen=True)
class Simulation:
    r"""Simulated errors: RMSE / width (± s.e.), the :math:`1-\beta` quantile of ``|error|`` / width, the engine and
    its CPU time per replication."""

    rmse_rel: float
    rmse_rel_se: float
    quantile_rel: float
    beta: float
    reps: int
    engine: str
    cpu_per_rep: float
    covers: str
    mse: float
    mse_se: float

    @property
    def relative_se(self) -> float:
        """The RMSE's standard error as a fraction of it."""
        return self.rmse_rel_se / self.rmse_rel if self.rmse_rel > 0 else 0.0


@dataclass(frozen=True)
class Inverse:
    """The smallest ``level`` (``"eps"``, ``"alpha"`` or ``"n"``) at which ``criterion`` meets ``target``.

    ``value`` is the printed answer (rounded towards the safe side), ``exact`` the unrounded one
    (``None``: not reached, or not ``searched``).
    """

    level: str
    value: float | int | None
    exact: float | int | None
    target: float
    criterion: str
    note: str = ""
    searched: bool = True


@dataclass(frozen=True)
class Curve:
    """Error against a parameter: named series on one metric and one kind; ``marker`` is the recommended ``x``."""

    method: str
    x_name: str
    x: tuple
    series: tuple  # ((name, values), ...)
    metric: str
    kind: str
    marker: float | None = None
    note: str = ""

    def to_dict(self) -> dict:
        """Plain data (JSON-ready)."""
        return {"method": self.method, "x_name": self.x_name, "x": list(self.x),
                "series": {k: list(v) for k, v in self.series}, "metric": self.metric, "kind": self.kind,
                "marker": self.marker, "note": self.note}


@dataclass(frozen=True)
class MethodResult:
    """One method's answer: its contribution bound, what it clips or drops, its numbers, inverses and curves.

    ``realisable`` is false for an estimator that reads what a real one cannot know (an oracle): it is
    reported and compared, never recommended.  ``estimand``: the mean it estimates; ``trivial_rel``: the
    midpoint's RMSE / width on that estimand and law (the UNUSABLE reference); ``error``: its exact RMSE on
    that estimand and law, when one exists (it is then the compared number).
    """

    model: str
    method: str
    source: str
    parameter: str
    parameter_value: float | int | None
    action: str
    affected: float | None
    bound: Quantity
    others: tuple = ()
    simulation: Simulation | None = None
    inverses: tuple = ()
    curves: tuple = ()
    details: dict = field(default_factory=dict)
    realisable: bool = True
    estimand: str = ""
    trivial_rel: float | None = None
    error: Quantity | None = None

    @property
    def comparison(self) -> tuple[float | None, str]:
        """(RMSE / width, basis): the exact error, else the simulated value, else a comparable bound's, else
        ``(None, why)``."""
        if self.error is not None and self.error.rmse_rel is not None:
            return self.error.rmse_rel, "exact"
        if self.simulation is not None:
            return self.simulation.rmse_rel, "simulated"
        if self.bound.kind in COMPARABLE_KINDS and self.bound.rmse_rel is not None:
            return self.bound.rmse_rel, self.bound.kind
        return None, f"{self.bound.kind} only"

    @property
    def above_bound(self) -> float | None:
        """How many standard errors its simulated RMSE / width lies above its own exact or proven bound, when it
        is compared on the simulation and lies above (else ``None``)."""
        sim, b = self.simulation, self.bound
        if (sim is None or self.comparison[1] != "simulated" or b.kind not in COMPARABLE_KINDS or b.rmse_rel is None
                or sim.rmse_rel <= b.rmse_rel):
            return None
        return (sim.rmse_rel - b.rmse_rel) / sim.rmse_rel_se if sim.rmse_rel_se > 0 else math.inf

    @property
    def unusable(self) -> bool:
        """Its compared RMSE / width exceeds the midpoint's on the same estimand and law (``trivial_rel``; when
        unset, the midpoint's worst case :data:`TRIVIAL_RMSE_REL`)."""
        value = self.comparison[0]
        ref = TRIVIAL_RMSE_REL if self.trivial_rel is None else self.trivial_rel
        return value is not None and math.isfinite(value) and value > ref


@dataclass(frozen=True)
class Recommendation:
    """The decision for one model: the method (or the midpoint when none beats it) and why."""

    model: str
    level_name: str
    level: float
    method: str
    parameter: str
    parameter_value: float | int | None
    action: str
    rmse_rel: float | None
    quantile_rel: float | None
    beta: float
    basis: str
    others: tuple  # ((method, RMSE / width or None, basis), ...)
    unusable: tuple  # methods worse than the midpoint's worst case
    n_users: int


def exact(x: object) -> str:
    """A number printed without rounding: integers with thousands separators, floats by their shortest repr.

    Examples
    --------
    >>> exact(516.0), exact(1234567), exact(0.02071), exact(None)
    ('516', '1,234,567', '0.02071', '—')
    """
    if x is None:
        return "—"
    if not isinstance(x, (numbers.Real, np.integer, np.floating)):
        raise ValueError(f"x must be a real number or None, got {x!r}")
    if isinstance(x, np.integer):
        return f"{int(x):,}"
    if isinstance(x, numbers.Rational) and x.denominator == 1:
        return f"{x.numerator:,}"
    try:
        v = float(x)
    except OverflowError:  # a fraction beyond the float range prints as p/q
        return str(x)
    return f"{int(v):,}" if v.is_integer() and abs(v) < 2**53 else repr(v)
