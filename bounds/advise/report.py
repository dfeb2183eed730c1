r"""The report of ``bounds advise``: text, JSON, the tuning plot and its files.  Formatting only: every number
printed here was computed by a method module, :mod:`~bounds.advise.recommend` or the searches.

Thresholds are printed exactly (the shortest decimal that reads back as the same float); inverse answers
are printed as computed, already rounded towards the side that meets the target.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .results import Curve, MethodResult, Recommendation, Settings, exact

if TYPE_CHECKING:  # matplotlib is imported only when a report is drawn
    from matplotlib.figure import Figure

__all__ = ["Advice"]

HEADS = {"central": "central model (user-level ε-DP, values in [0, U])",
         "local": "local model (user-level α-LDP, values in [-1, 1])"}


def _g(x: float | None, digits: int = 3) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{x:.{digits}g}"


@dataclass(frozen=True)
class Advice:
    """The full report: the histogram's summary, the settings, one result per method, the decisions and curves."""

    n_users: int
    records: int
    summary: dict
    settings: Settings
    methods: tuple
    recommendations: tuple
    curves: tuple
    notes: tuple
    version: str
    reads: tuple = ()
    read: Any = None  # the ReadReport of the file the histogram was read from (None: not read from a file)

    def method(self, name: str) -> MethodResult:
        """The method of that name."""
        for m in self.methods:
            if m.method == name:
                return m
        raise KeyError(name)

    def recommendation(self, model: str) -> Recommendation:
        """The decision for ``"central"`` or ``"local"``."""
        for r in self.recommendations:
            if r.model == model:
                return r
        raise KeyError(model)

    # ------------------------------------------------------------------ data

    def to_dict(self) -> dict:
        """Plain data (JSON-ready): every number with its kind and metric, the curves, settings and version."""
        out: dict[str, Any] = {"n_users": self.n_users, "records": self.records, "summary": self.summary,
                               "settings": dataclasses.asdict(self.settings), "version": self.version,
                               "metric": "RMSE / width of the value range", "notes": list(self.notes),
                               "read": None if self.read is None else dataclasses.asdict(self.read)}
        out["recommendations"] = [dataclasses.asdict(r) for r in self.recommendations]
        out["methods"] = [{k: v for k, v in dataclasses.asdict(m).items() if k != "curves"} for m in self.methods]
        out["curves"] = [c.to_dict() for c in self.curves]
        return out

    def to_json(self) -> str:
        """The report as strict JSON (non-finite numbers as null)."""
        return json.dumps(_finite(self.to_dict()), indent=2, default=_json_default, allow_nan=False)

    # ------------------------------------------------------------------ text

    def __str__(self) -> str:
        s, q = self.settings, round(100 * (1 - self.settings.beta))
        sm = self.summary
        out = [f"bounds advise — {self.n_users:,} users, {self.records:,} records; counts per user: min {sm['min']}, "
               f"median {sm['median']:g}, mean {sm['mean']:.4g}, max {sm['max']} ({sm['distinct']:,} distinct)",
               f"Metric: RMSE / width of the value range (RMSE/w), one metric for every comparison; q{q} = the "
               f"{q}% quantile of |error| / width; simulations: at least {s.reps} replications, seed {s.seed}.",
               "", "RECOMMENDATION"]
        for r in self.recommendations:
            out += self._recommendation_lines(r, q)
        if self.reads or self.read is not None:
            file = [] if self.read is None else ["file: " + self.read.describe()]
            out += ["", "DATA AND PRIVACY OF THIS ADVICE"] + [f"  - {line}" for line in (*file, *self.reads)]
        out += ["", "COMPARISON — RMSE/w on each method's estimand (exact where it exists, else simulated ± s.e.); "
                    "UNUSABLE: above the midpoint's RMSE/w on the same estimand and law",
                f"  {'method':24s} {'bound':>12s} {'estimand':20s} {'RMSE/w':>10s} {'± s.e.':>9s} {'basis':9s} "
                f"{'q' + str(q):>8s} {'midpoint':>9s} {'worst case':>18s}"]
        for m in self.methods:
            out += self._row(m)
        rates = [m for m in self.methods if m.bound.kind == "rate"]
        if rates:
            out += ["", "RATES (orders with unit constants, not numeric bounds; not comparable with the above)"]
            out += [f"  {m.method}: {m.bound.metric} rate {_g(m.bound.value, 4)} — {m.bound.covers}" for m in rates]
        out += ["", "OTHER NUMBERS (kind, metric)"]
        for m in self.methods:
            out.append(f"  {m.method} ({m.source}): {m.bound.name} = {_g(m.bound.value, 4)} ({m.bound.kind}, "
                       f"{m.bound.metric}): {m.bound.covers}")
            if m.error is not None:
                out.append(f"      {m.error.name} = {_g(m.error.value, 4)} (exact, RMSE): {m.error.covers}")
            out += [f"      {o.name} = {_g(o.value, 4)} ({o.kind}, {o.metric}): {o.covers}" for o in m.others]
            if m.simulation is not None:
                out.append(f"      simulated RMSE/w {_g(m.simulation.rmse_rel)} ± {_g(m.simulation.rmse_rel_se, 2)} "
                           f"({m.simulation.reps:,} replications, {m.simulation.engine}): {m.simulation.covers}")
        inv = [(m, i) for m in self.methods for i in m.inverses]
        if inv:
            out += ["", f"INVERSE QUESTIONS (target {s.target:g}; criterion in brackets — the compared exact RMSE/w "
                        "where one exists; printed values rounded towards the target)"]
            for m, i in inv:
                what = "smallest n" if i.level == "n" else f"smallest {i.level}"
                reached = exact(i.value) if i.value is not None else "not reached" if i.searched else "not searched"
                line = f"  {m.method}: {what} = {reached}  [{i.criterion}; {i.note}]"
                if m.error is None and "the compared metric" not in i.criterion:  # a bound's or a rate's answer
                    v, basis = m.comparison
                    line += (f" — not the compared metric: its compared RMSE/w here is {_g(v)} ({basis})"
                             + (", UNUSABLE" if m.unusable else ""))
                out.append(line)
        if self.notes:
            out += ["", "NOTES"] + [f"  - {n}" for n in self.notes]
        return "\n".join(out)

    def _recommendation_lines(self, r: Recommendation, q: int) -> list[str]:
        level = f"{'ε' if r.level_name == 'eps' else 'α'} = {r.level:g}"
        head = HEADS[r.model].replace("values", f"{level}, values")
        lines = [f"  {head}:"]
        bound = f"contribution bound {r.parameter} = {exact(r.parameter_value)}" if r.parameter_value is not None \
            else "no contribution bound"
        chosen = next((x for x in self.methods if x.method == r.method), None)
        if chosen is not None and "private" in chosen.details:
            bound = (f"contribution bound {r.parameter} drawn privately (the mechanism's most likely value "
                     f"{exact(r.parameter_value)})")
        lines.append(f"    use {r.method} — {bound}")
        lines.append(f"      {r.action}")
        m = next((x for x in self.methods if x.method == r.method), None)
        err = f"      expected error: RMSE/w {_g(r.rmse_rel)} ({r.basis}"
        if m is not None and r.basis == "simulated" and m.simulation is not None:
            se = m.simulation.rmse_rel_se
            err += f", ± {_g(se, 2)} s.e. = {m.simulation.relative_se:.2%} of it, " \
                   f"{m.simulation.reps:,} replications"
        err += ")"
        if r.quantile_rel is not None:
            err += f"; {q}% of errors ≤ {_g(r.quantile_rel)} of the width"
        lines.append(err)
        if m is not None:
            if m.estimand:
                law = self.settings.values if r.model == "central" else (
                    f"the synthetic law: two-point on {{-1, 1}}, mean θ = {self.settings.theta:g}")
                lines.append(f"      estimates the {m.estimand}; errors for {law}")
            rt = m if "T_eps_rmse_rel" in m.details else next(
                (x for x in self.methods if x.model == r.model and "T_eps_rmse_rel" in x.details), None)
            if rt is not None:
                who = "the paper's choice" if rt is m else f"{rt.method}'s own choice"
                lines.append(f"      {who} T_ε = {exact(rt.details['T_eps'])}: RMSE/w "
                             f"{_g(rt.details['T_eps_rmse_rel'])} — it minimises the worst-case E|error| "
                             "(Lemma III.1); every bound here minimises the RMSE/w reported")
            if m.trivial_rel is not None:
                lines.append(f"      the midpoint (trivial) errs by RMSE/w {_g(m.trivial_rel)} on the same estimand and law")
        beaten = [f"{name} {_g(v)} ({basis})" if v is not None else f"{name} ({basis}: not compared)"
                  for name, v, basis in r.others]
        if beaten:
            lines.append(f"      why: the smallest RMSE/w of the realisable methods usable here; the others: {'; '.join(beaten)}")
        if r.unusable:
            lines.append(f"      UNUSABLE (worse than the midpoint on the same estimand and law) at n = {r.n_users:,}, "
                         f"{level}: {', '.join(r.unusable)}")
        return lines

    def _row(self, m: MethodResult) -> list[str]:
        sim = m.simulation
        value, basis = m.comparison
        se, qv = "", "—"
        if basis == "simulated" and sim is not None:
            se = _g(sim.rmse_rel_se, 2)
        if sim is not None:
            qv = _g(sim.quantile_rel)
        worst = f"{_g(m.bound.rmse_rel)} ({m.bound.kind})" if m.bound.kind in ("bound", "exact") else \
            f"— ({m.bound.kind} only)"
        flag = "  UNUSABLE" if m.unusable else ""
        est = (m.estimand or "—").split(" (")[0][:20]
        b = f"{m.parameter} = {_g(m.parameter_value, 6)}" if m.parameter_value is not None else "—"
        lines = [f"  {m.method:24s} {b:>12s} {est:20s} {_g(value):>10s} {se:>9s} {basis[:9]:9s} {qv:>8s} "
                 f"{_g(m.trivial_rel):>9s} {worst:>18s}{flag}"]
        z = m.above_bound
        if z is not None:
            why = "within Monte Carlo noise (≤ 4 s.e.)" if z <= 4 else "beyond its s.e.: the bound covers another estimator"
            lines.append(f"  {'':24s} simulated above its {m.bound.kind} {_g(m.bound.rmse_rel)} by {z:.2g} s.e.: {why}")
        return lines

    # ------------------------------------------------------------------ plot and files

    def figure(self) -> Figure:
        """The tuning plot: per model (rows), the recommended method's error against its contribution bound and
        against ε/α (columns); one metric per axis, log scales, the recommended value marked."""
        from matplotlib.figure import Figure  # noqa: PLC0415 - only when drawing

        fig = Figure(figsize=(11, 8), layout="constrained")
        axes = fig.subplots(2, 2)
        for row, rec in zip(axes, self.recommendations):
            mine = [c for c in self.curves if c.method == rec.method]
            bound_curves = [c for c in mine if c.x_name not in ("eps", "alpha")]
            level_curves = [c for c in mine if c.x_name in ("eps", "alpha")]
            for ax, cs, what in ((row[0], bound_curves, "contribution bound"), (row[1], level_curves, "privacy level")):
                if not cs:
                    note = f"{rec.method}: no {what} to tune" if rec.method != "midpoint (trivial)" else \
                        "no method beats the midpoint"
                    if mine and what == "contribution bound":
                        note = mine[0].note
                    ax.text(0.5, 0.5, note, ha="center", va="center", wrap=True, transform=ax.transAxes, fontsize=9)
                    ax.set_axis_off()
                    continue
                _draw(ax, cs[0], rec.model)
        fig.suptitle(f"Tuning curves of the recommended methods — {self.n_users:,} users, {self.records:,} records",
                     fontsize=11)
        return fig

    def save(self, stem: str | Path) -> list[Path]:
        """Write ``stem.png``, ``.pdf`` (the plot), ``.csv`` (the curves, one row per point and series) and ``.json``."""
        stem = Path(stem)
        stem.parent.mkdir(parents=True, exist_ok=True)
        paths = [stem.with_suffix(s) for s in (".png", ".pdf", ".csv", ".json")]
        fig = self.figure()
        fig.savefig(paths[0], dpi=150)
        fig.savefig(paths[1])
        with paths[2].open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["method", "x_name", "x", "series", "value", "metric", "kind"])
            for c in self.curves:
                for name, values in c.series:
                    for x, v in zip(c.x, values):
                        w.writerow([c.method, c.x_name, x, name, v, c.metric, c.kind])
        paths[3].write_text(self.to_json())
        return paths


def _draw(ax: Any, c: Curve, model: str) -> None:
    from matplotlib.ticker import NullFormatter  # noqa: PLC0415 - only when drawing

    for name, values in c.series:  # zeros (no bias) cannot sit on a log axis: left out
        y = np.asarray(values, dtype=float)
        y = np.where(y > 0, y, np.nan)
        style = dict(color="k", lw=2.2, ls="--", zorder=1) if name.startswith("total") else dict(lw=1.4, zorder=2)
        ax.plot(c.x, y, label=name, **style)
    if c.marker is not None:
        given = "given" if c.x_name in ("eps", "alpha") else "recommended"
        ax.axvline(c.marker, color="C2", ls="--", lw=1, label=f"{given}: {exact(c.marker)}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(c.x_name if c.x_name not in ("eps", "alpha") else {"eps": "ε", "alpha": "α"}[c.x_name])
    ax.set_ylabel(c.metric)
    ax.set_title(f"{model}: {c.method} ({c.kind})", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(True, which="major", alpha=0.3)


def _finite(o: Any) -> Any:
    """Replace non-finite floats by None, recursively (strict JSON)."""
    if isinstance(o, dict):
        return {k: _finite(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_finite(v) for v in o]
    if isinstance(o, (float, np.floating)) and not math.isfinite(o):
        return None
    return o


def _json_default(o: Any) -> Any:
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, Fraction):
        return float(o)
    raise TypeError(f"not JSON serialisable: {o!r}")
