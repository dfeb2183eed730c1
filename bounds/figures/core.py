r"""What every figure shares: the registry, the data container, the style and the figure factory.

A figure is a pair ``(compute, draw)`` registered under an ID with :func:`register`;
``compute(quick, constants, seed, executor)`` returns a :class:`FigureData` (rows for the
CSV, metadata for the JSON) and ``draw(data)`` returns a matplotlib ``Figure`` built with
the object interface (no pyplot state), one shared :data:`STYLE`, the Okabe–Ito
colour-blind-safe :data:`PALETTE`, no LaTeX.

Examples
--------
>>> fig, axes = new_figure(2)
>>> len(axes)
2
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Callable

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from ..numerics import PaperAssumptionWarning

__all__ = ["FigureData", "FigureSpec", "REGISTRY", "register", "new_figure", "captured", "PALETTE", "STYLE", "SEED"]

PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]  # Okabe–Ito
STYLE = {
    "figure.dpi": 150, "savefig.dpi": 200, "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8,
    "legend.fontsize": 7, "xtick.labelsize": 7, "ytick.labelsize": 7, "lines.linewidth": 1.3,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE), "axes.grid": True, "grid.alpha": 0.3,
    "legend.frameon": False, "pdf.fonttype": 42, "text.usetex": False,
}
SEED = 20240521


@dataclass(frozen=True)
class FigureData:
    """A figure's data: ``rows`` (one dict per plotted point, the CSV) and ``meta`` (the JSON)."""

    rows: list
    meta: dict

    def column(self, key, **where) -> np.ndarray:
        """Values of ``key`` in the rows matching ``where`` (in row order)."""
        return np.array([r[key] for r in self.rows if all(r[k] == v for k, v in where.items())])


@dataclass(frozen=True)
class FigureSpec:
    """A registered figure: its ``compute(quick, constants, seed, executor)`` and ``draw(data)``."""

    id: str
    title: str
    source: str
    compute: Callable
    draw: Callable
    monte_carlo: bool = False


REGISTRY: dict[str, FigureSpec] = {}


def register(id: str, title: str, source: str, monte_carlo: bool = False) -> Callable:
    """Decorator-style registration of a ``(compute, draw)`` pair under ``id`` in :data:`REGISTRY`."""

    def deco(pair):
        compute, draw = pair
        REGISTRY[id] = FigureSpec(id, title, source, compute, draw, monte_carlo)
        return pair

    return deco


def new_figure(ncols: int = 1, width: float = 3.4, height: float = 2.4) -> tuple[Figure, np.ndarray]:
    """A constrained-layout figure with ``ncols`` panels of ``width`` × ``height`` inches each, and its axes."""
    fig = Figure(figsize=(width * ncols, height), layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, axes


# =========================================================================== DAME Figure 1a

FIG1A_N_ALPHA2 = 500.0


def captured(f: Callable, *args, **kw) -> tuple:
    """Call ``f(*args, **kw)``; return its value and the sorted messages of the paper-assumption warnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        out = f(*args, **kw)
    return out, sorted({str(w.message) for w in caught})
