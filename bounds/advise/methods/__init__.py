r"""The methods ``bounds advise`` compares, one module each: central (Cummings et al., Rameshwar & Tandon, and the
deployable caps of :mod:`~bounds.advise.methods.capping`) and local (DAME, Kent et al., Duchi et al.).

A method is a module with ``evaluate(histogram, settings, seed) -> MethodResult`` (or ``None`` when it does
not apply) and ``curves(histogram, settings, result) -> tuple[Curve, ...]``; :data:`METHODS` lists them in
report order.  Adding a method is adding a module and a line here.  A method with ``takes_data`` also receives
the central error model (the data's values or the synthetic law) as ``data``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import capping, cummings, dame, duchi, kent, rameshwar

__all__ = ["Method", "METHODS", "capping", "cummings", "dame", "duchi", "kent", "rameshwar"]


@dataclass(frozen=True)
class Method:
    """A method's entry points: ``evaluate`` and ``curves``, with its ``model`` and ``name``."""

    model: str
    name: str
    evaluate: Callable
    curves: Callable
    takes_data: bool = False


METHODS = (
    Method("local", "DAME", dame.evaluate, dame.curves),
    Method("local", "Kent (T = min count)", kent.evaluate_min, kent.curves),
    Method("local", "Kent (best T)", kent.evaluate_best, kent.curves),
    Method("local", "Duchi", duchi.evaluate, duchi.curves),
    Method("central", "Cummings et al.", cummings.evaluate, cummings.curves),
    Method("central", "Rameshwar-Tandon", rameshwar.evaluate, rameshwar.curves, True),
    Method("central", "Sum cap (one-sided)", capping.evaluate_sum_cap, capping.curves, True),
    Method("central", "Record cap (k sampled)", capping.evaluate_record_cap, capping.curves, True),
    Method("central", "No clipping", capping.evaluate_no_clipping, capping.curves_none, True),
)
"""Every method, in report order."""
