r"""The methods ``bounds advise`` compares, one module each: central (Cummings et al., Rameshwar & Tandon) and
local (DAME, Kent et al., Duchi et al.).

A method is a module with ``evaluate(histogram, settings, seed) -> MethodResult`` (or ``None`` when it does
not apply) and ``curves(histogram, settings, result) -> tuple[Curve, ...]``; :data:`METHODS` lists them in
report order.  Adding a method is adding a module and a line here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import cummings, dame, duchi, kent, rameshwar

__all__ = ["Method", "METHODS", "cummings", "dame", "duchi", "kent", "rameshwar"]


@dataclass(frozen=True)
class Method:
    """A method's entry points: ``evaluate`` and ``curves``, with its ``model`` and ``name``."""

    model: str
    name: str
    evaluate: Callable
    curves: Callable


METHODS = (
    Method("local", "DAME", dame.evaluate, dame.curves),
    Method("local", "Kent (T = min count)", kent.evaluate_min, kent.curves),
    Method("local", "Kent (best T)", kent.evaluate_best, kent.curves),
    Method("local", "Duchi", duchi.evaluate, duchi.curves),
    Method("central", "Cummings et al.", cummings.evaluate, cummings.curves),
    Method("central", "Rameshwar-Tandon", rameshwar.evaluate, rameshwar.curves),
)
"""Every method, in report order."""
