r"""What every figure shares: the registry, the data container, the style and the figure factory.

A figure is a pair ``(compute, draw)`` registered under an ID with :func:`register`;
``compute(quick, constants, seed, executor)`` returns a :class:`FigureData` (rows for the
CSV, metadata for the JSON) and ``draw(data)`` returns a matplotlib ``Figure`` built with
the object interface (no pyplot state), one shared :data:`STYLE`, the Okabe–Ito
colour-blind-safe :data:`PALETTE`, no LaTeX.  :func:`render` adds the title and, when the
metadata names the constants a figure was computed with, a line stating them on the image.

Legibility rules every figure keeps (and the test suite checks on the rendered image): no
text leaves the figure or overlaps other text, legends sit outside the data
(:func:`legend_below`), log axes where values span more than two decades, curves that may
coincide differ in marker or line style, and where an "upper bound" falls below the lower
bound the region is hatched (:func:`hatch_where`).

Examples
--------
>>> fig, axes = new_figure(2)
>>> len(axes)
2
>>> constants_text({"name": "unit", "c1": "1", "c2": "1", "c3": "1", "c4": "1", "c5": "1"})
"constants: unit, c₁ = c₂ = c₃ = c₄ = c₅ = 1 (not the proofs' constants)"
"""

from __future__ import annotations

from collections.abc import Sequence

import contextlib
import inspect
import math
import operator
import re
import textwrap
import warnings
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any, Callable, Iterator

import matplotlib
import numpy as np
from numpy.typing import ArrayLike
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import Locator, LogFormatterSciNotation, NullLocator

from ..numerics import PaperAssumptionWarning, check_array, check_integer, check_real, format_value

__all__ = ["FigureData", "FigureSpec", "REGISTRY", "register", "new_figure", "captured", "render", "saving",
           "legend_below", "hatch_where", "constants_text", "phrase_lines", "PALETTE", "MARKERS", "STYLE", "SEED"]

PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]  # Okabe–Ito
"""The Okabe–Ito colour-blind-safe palette, the colour cycle of every figure."""
STYLE = {
    "figure.dpi": 150, "savefig.dpi": 200, "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8,
    "legend.fontsize": 7, "xtick.labelsize": 7, "ytick.labelsize": 7, "lines.linewidth": 1.3,
    "axes.prop_cycle": cycler(color=PALETTE), "axes.grid": True, "grid.alpha": 0.3,
    "legend.frameon": False, "pdf.fonttype": 42, "text.usetex": False,
}
"""The matplotlib rc settings every figure is drawn with (:func:`render`): 8 pt text, no LaTeX, TrueType fonts in
PDFs."""
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]  # one per curve, so that coinciding curves stay distinguishable
"""One marker per curve, so that coinciding curves stay distinguishable."""
SEED = 20240521
"""The default seed of every Monte Carlo figure (fixed, so that the committed CSVs are reproducible)."""
MAX_PANELS = 64  # panels per row or column (and legend columns): more is never a legible figure
MAX_INCHES = 100.0  # a panel's width or height: larger is never a page figure
CHARS_PER_INCH = 16  # characters of 8 pt DejaVu Sans per inch of figure width (measured: about 17)


@dataclass(frozen=True)
class FigureData:
    """A figure's data: ``rows`` (one dict per plotted point, the CSV) and ``meta`` (the JSON)."""

    rows: list
    meta: dict

    def column(self, key: str, **where: Any) -> np.ndarray:
        """Values of ``key`` in the rows matching ``where`` (in row order)."""
        if not where:
            return np.array([r[key] for r in self.rows])
        get, want = operator.itemgetter(*where), tuple(where.values())
        if len(want) == 1:
            return np.array([r[key] for r in self.rows if get(r) == want[0]])
        return np.array([r[key] for r in self.rows if get(r) == want])


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
"""Every figure by ID, filled by :func:`register` when the figure modules are imported."""


def register(id: str, title: str, source: str, monte_carlo: bool = False) -> Callable:
    """Decorator-style registration of a ``(compute, draw)`` pair under ``id`` in :data:`REGISTRY`.

    Examples
    --------
    >>> "dame-fig1b" in REGISTRY and REGISTRY["dame-fig1b"].monte_carlo
    True
    """

    def deco(pair: tuple[Callable, Callable]) -> Any:
        compute, draw = pair
        REGISTRY[id] = FigureSpec(id, title, source, compute, draw, monte_carlo)
        return pair

    return deco


def new_figure(ncols: int = 1, width: float = 3.4, height: float = 2.4, nrows: int = 1) -> tuple[Figure, np.ndarray]:
    """A constrained-layout figure with ``nrows`` × ``ncols`` panels of ``width`` × ``height`` inches each,
    and its axes (flattened, row by row).

    Examples
    --------
    >>> fig, axes = new_figure(3, nrows=2)
    >>> len(axes), fig.get_size_inches().round(2).tolist()
    (6, [10.2, 4.8])
    """
    ncols = check_integer("ncols", ncols, minimum=1, maximum=MAX_PANELS, why="panels per row or column")
    nrows = check_integer("nrows", nrows, minimum=1, maximum=MAX_PANELS, why="panels per row or column")
    width = check_real("width", width, low=0, high=MAX_INCHES, low_open=True)
    height = check_real("height", height, low=0, high=MAX_INCHES, low_open=True)
    fig = Figure(figsize=(width * ncols, height * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    return fig, axes


def legend_below(fig: Figure, axes: Axes | Sequence[Axes] | np.ndarray, ncol: int | None = None) -> None:
    """One legend for the whole figure, below the panels (outside every axes), labels deduplicated.

    Examples
    --------
    >>> fig, axes = new_figure(2)
    >>> for ax in axes:
    ...     _ = ax.plot([1, 2], [1, 2], label="same curve")
    >>> legend_below(fig, axes)
    >>> [t.get_text() for t in fig.legends[0].get_texts()]
    ['same curve']
    """
    fig = _instance("fig", fig, Figure)
    panels = [axes] if isinstance(axes, Axes) else list(axes) if isinstance(axes, (list, tuple, np.ndarray)) else None
    if not panels or not all(isinstance(ax, Axes) for ax in panels):
        raise ValueError(f"axes must be an Axes or a non-empty sequence of them, got {format_value(axes)}")
    if ncol is not None:
        ncol = check_integer("ncol", ncol, minimum=1, maximum=MAX_PANELS, why="legend columns")
    handles: dict[str, Any] = {}
    for ax in panels:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    fig.legend(list(handles.values()), list(handles), loc="outside lower center",
               ncol=ncol or min(len(handles), 3))


def hatch_where(ax: Axes, x: ArrayLike, mask: ArrayLike, label: str) -> None:
    """Hatch the x-ranges where ``mask`` holds (each point's cell reaches halfway to its neighbours, in log
    space when the axis is logarithmic); one legend entry ``label``.

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> hatch_where(ax, [1.0, 2.0, 3.0], [False, True, True], "upper < lower")
    >>> ax.get_legend_handles_labels()[1]
    ['upper < lower']
    """
    ax = _instance("ax", ax, Axes)
    x = check_array("x", x, low=0 if ax.get_xscale() == "log" else None, low_open=True)
    if not isinstance(mask, (list, tuple, np.ndarray)) or np.shape(mask) != x.shape \
            or not all(isinstance(v, (bool, np.bool_)) for v in np.ravel(np.asarray(mask, dtype=object))):
        raise ValueError(f"mask must be a sequence of booleans as long as x ({x.size}), got {format_value(mask)}")
    mask = np.asarray(mask, dtype=bool)
    label = _instance("label", label, str)
    if not mask.any():
        return
    t = np.log(x) if ax.get_xscale() == "log" else x
    mid = (t[1:] + t[:-1]) / 2
    left = np.concatenate([[t[0]], mid])
    right = np.concatenate([mid, [t[-1]]])
    back = np.exp if ax.get_xscale() == "log" else (lambda v: v)
    for i in np.flatnonzero(mask):
        ax.axvspan(back(left[i]), back(right[i]), facecolor="none", edgecolor="0.55", hatch="////", lw=0,
                   label=label if i == np.flatnonzero(mask)[0] else None)


def _instance(name: str, value: Any, cls: type) -> Any:
    """``value`` if it is a ``cls``, else a ValueError naming ``name``."""
    if not isinstance(value, cls):
        raise ValueError(f"{name} must be a {cls.__name__}, got {format_value(value)}")
    return value


_SUB = str.maketrans("12345", "₁₂₃₄₅")
_PRETTY = {"exp(-9)/16": "e⁻⁹/16", "1737/2": "868.5"}


_PRESET_KEYS = ("name", "c1", "c2", "c3", "c4", "c5")


def _preset_text(c: Mapping) -> str:
    values = [_PRETTY.get(c[k], c[k]) for k in _PRESET_KEYS[1:]]
    if len(set(values)) == 1:
        return f"{c['name']}, " + " = ".join(f"c{i}".translate(_SUB) for i in range(1, 6)) + f" = {values[0]}"
    return f"{c['name']}, (c₁, …, c₅) = ({', '.join(values)})"


def constants_text(constants: Any) -> str:
    """The line a figure prints about its constants: from a string, one preset (a dict with ``name`` as
    :meth:`bounds.dame.Constants.describe` gives) or several presets keyed by name.

    Examples
    --------
    >>> constants_text("as in the paper")
    'constants: as in the paper'
    """
    if isinstance(constants, str):
        return f"constants: {constants}"
    if not isinstance(constants, Mapping):
        raise ValueError(f"constants must be a string or a mapping, got {format_value(constants)}")
    presets = [constants] if "name" in constants else list(constants.values())
    for c in presets:
        if not (isinstance(c, Mapping) and all(isinstance(c.get(k), str) for k in _PRESET_KEYS)):
            raise ValueError(f"constants must hold presets with string entries {', '.join(_PRESET_KEYS)}, "
                             f"got {format_value(constants)}")
    if "name" in constants:
        note = {"paper": " from (S31), (S146)", "unit": " (not the proofs' constants)"}.get(constants["name"], "")
        return f"constants: {_preset_text(constants)}{note}"
    return "constants: " + "; ".join(_preset_text(c) for c in constants.values())


def phrase_lines(text: str, chars: int, breaks: str = ":;,") -> list[str]:
    """``text`` in lines of at most ``chars`` characters, broken only between phrases (after one of
    ``breaks`` and a space) where possible, so that a title never wraps in the middle of a phrase.

    Examples
    --------
    >>> phrase_lines("DAME Fig. 1a (bottom): bounds vs nα², Poisson(5)", 30)
    ['DAME Fig. 1a (bottom):', 'bounds vs nα², Poisson(5)']
    """
    text = _instance("text", text, str)
    chars = check_integer("chars", chars, minimum=8)
    breaks = _instance("breaks", breaks, str)
    phrases = re.split(f"(?<=[{re.escape(breaks)}]) ", text) if breaks else [text]
    lines: list[str] = []
    for phrase in phrases:
        if lines and len(lines[-1]) + 1 + len(phrase) <= chars:
            lines[-1] += " " + phrase
        elif len(phrase) <= chars:
            lines.append(phrase)
        else:  # a phrase longer than a line: the only place a line may break inside one
            lines += textwrap.wrap(phrase, chars)
    return lines


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_MATH_LABEL = re.compile(r"\$\\mathdefault\{(.*)\}\$")


class _UnicodeLogFormatter(LogFormatterSciNotation):
    """Log-axis tick labels as plain text with Unicode superscripts (10⁻³, 2×10⁴): the same labels as
    matplotlib's, without a mathtext parse per label (most of the cost of saving a log–log figure).

    Examples
    --------
    >>> f = _UnicodeLogFormatter()
    >>> f(1e-3), f(1e4), f(1.0)
    ('10⁻³', '10⁴', '10⁰')
    """

    def __call__(self, x: float, pos: int | None = None) -> str:
        label = super().__call__(x, pos)
        m = _MATH_LABEL.fullmatch(label)
        if m is None:
            return label
        text = re.sub(r"\^\{([^}]*)\}", lambda g: g.group(1).translate(_SUPERSCRIPT), m.group(1))
        return text.replace("\\times", "×").replace("-", "−")


IN_VIEW_RTOL = 1e-9  # looser than matplotlib's own test of which ticks to draw (1e-10 of the interval)


class _InView(Locator):
    """``base``'s tick locations inside the axis' view interval only (in the axis' scale, within
    ``IN_VIEW_RTOL`` of its width): matplotlib draws no others, yet builds, labels and measures a tick
    for every location a locator returns (a log locator pads a decade or two on each side).  Limits and
    autoscaling are ``base``'s.

    Examples
    --------
    >>> from matplotlib.ticker import LogLocator
    >>> fig, (ax,) = new_figure()
    >>> _ = ax.loglog([0.02, 5.0], [1.0, 2.0])
    >>> base = LogLocator()
    >>> ax.xaxis.set_major_locator(_InView(base))
    >>> [float(v) for v in ax.xaxis.get_majorticklocs()], len(base()) > 3
    ([0.1, 1.0], True)
    """

    def __init__(self, base: Locator) -> None:
        self.base = _instance("base", base, Locator)

    def set_axis(self, axis: Any) -> None:
        super().set_axis(axis)
        self.base.set_axis(axis)

    def __call__(self) -> Any:
        locs = np.asarray(self.base(), dtype=float)
        axis = self.axis
        transform = getattr(axis, "get_transform", None)  # a stand-in axis has no scale: keep every tick
        if axis is None or transform is None or not locs.size:
            return locs
        to_scale = transform().transform
        lo, hi = sorted(to_scale(np.asarray(axis.get_view_interval(), dtype=float)))
        tol = IN_VIEW_RTOL * (hi - lo)
        with np.errstate(invalid="ignore", divide="ignore"):
            t = to_scale(locs)
        return locs[(t >= lo - tol) & (t <= hi + tol)]

    def tick_values(self, vmin: float, vmax: float) -> Any:
        return self.base.tick_values(vmin, vmax)

    def view_limits(self, vmin: float, vmax: float) -> Any:
        return self.base.view_limits(vmin, vmax)

    def nonsingular(self, v0: float, v1: float) -> Any:
        return self.base.nonsingular(v0, v1)


MINOR_DECADES = 4  # log axes over more decades than this carry no minor ticks (each tick is costly to lay out)
TICK_RTOL = 1e-10  # matplotlib's tolerance (of the view's width, in the axis' scale) for drawing a tick at the edge


def _plain_log_labels(fig: Figure) -> None:
    """Give every log axis of ``fig`` :class:`_UnicodeLogFormatter` tick labels (major and minor), ticks only
    where they are drawn (:class:`_InView`), and drop the minor ticks of those spanning more than
    ``MINOR_DECADES`` decades (the gridded decades suffice there); minor ticks without labels or grid lines
    become marks (:func:`_minor_marks`)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_scale() == "log":
                lo, hi = sorted(abs(float(v)) for v in axis.get_view_interval())
                if lo > 0 and math.log10(hi / lo) > MINOR_DECADES:
                    axis.set_minor_locator(NullLocator())
                for get, put in ((axis.get_major_locator, axis.set_major_locator),
                                 (axis.get_minor_locator, axis.set_minor_locator)):
                    if not isinstance(get(), (NullLocator, _InView)):
                        put(_InView(get()))
                minor = axis.get_minor_formatter()
                axis.set_major_formatter(_UnicodeLogFormatter())
                axis.set_minor_formatter(_UnicodeLogFormatter(
                    labelOnlyBase=False, minor_thresholds=getattr(minor, "minor_thresholds", (1, 0.4))))
                _minor_marks(axis)


def _minor_marks(axis: Any) -> bool:
    """Draw ``axis``' minor ticks as marks when none carries a label or a grid line: one marker line (the minor
    tick's own line, its style and transform, at every minor location drawn) instead of one tick of five artists
    per mark, built, laid out and drawn each; the same marks in the same places, drawn by the axis after its
    ticks.  Only where the marks are on the ticks' first side alone, in the major ticks' direction and no longer
    than them (so that the axes' extent, which counts the longest tick mark of each side, is unchanged).
    Returns whether the axis' minor ticks became marks.

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> _ = ax.loglog([1.0, 1000.0], [1.0, 1000.0])
    >>> _plain_log_labels(fig)
    >>> len(ax.xaxis.get_minorticklocs()), callable(ax.xaxis.__dict__.get("draw"))
    (0, True)
    """
    locator = axis.get_minor_locator()
    if isinstance(locator, NullLocator) or "draw" in axis.__dict__:
        return False
    template, major = axis.get_minor_ticks(1)[0], axis.get_major_ticks(1)[0]
    locs = axis.get_minorticklocs()
    labels = axis.get_minor_formatter().format_ticks(locs) if len(locs) else []
    mark, major_mark = template.tick1line, major.tick1line
    if template.gridline.get_visible() or template.label1.get_visible() and any(labels) \
            or template.label2.get_visible() and any(labels) or template.tick2line.get_visible() \
            or not (mark.get_visible() and major_mark.get_visible()) or mark.get_marker() != major_mark.get_marker() \
            or mark.get_markersize() > major_mark.get_markersize():
        return False  # the spine's extent counts a minor tick only where no major tick outreaches it: keep those
    from matplotlib.lines import Line2D

    line = Line2D([], [])
    line.update_from(mark)  # style, marker, transform and clipping of the tick's own mark
    line.set_figure(axis.get_figure(root=False))
    across = float((mark.get_ydata() if axis.axis_name == "x" else mark.get_xdata())[0])
    lines = [(line, across)]
    axis.set_minor_locator(NullLocator())
    draw = axis.draw  # the axis' own (bound) draw: ticks, labels, then the marks

    def drawn(renderer: Any) -> None:
        draw(renderer)
        if not axis.get_visible() or not lines:
            return
        at = _minor_locs(axis, locator)
        for line, across in lines:
            other = np.full(at.size, across)
            line.set_data((at, other) if axis.axis_name == "x" else (other, at))
            line.draw(renderer)

    setattr(axis, "draw", drawn)
    return True


def _minor_locs(axis: Any, locator: Locator) -> np.ndarray:
    """The minor locations ``axis`` would draw with ``locator``: those not on a major tick (matplotlib's own rule,
    run with ``locator`` in place) and inside the view (within ``TICK_RTOL``, in the axis' scale)."""
    held = axis.minor.locator
    axis.minor.locator = locator
    try:
        locs = np.asarray(axis.get_minorticklocs(), dtype=float)
    finally:
        axis.minor.locator = held
    if not locs.size:
        return locs
    to_scale = axis.get_transform().transform
    lo, hi = sorted(to_scale(np.asarray(axis.get_view_interval(), dtype=float)))
    tol = TICK_RTOL * (hi - lo)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = to_scale(locs)
    return locs[(t >= lo - tol) & (t <= hi + tol)]


def render(spec: FigureSpec, data: FigureData, verdict: Mapping | None = None) -> Figure:
    """Draw ``data`` with the shared style and title it: the spec's title, then the constants line when
    ``data.meta`` has ``"constants"`` (what the figure was computed with), then the ``verdict`` line
    (``{"text": ...}``, see :mod:`bounds.figures.verdicts`) when given.

    Examples
    --------
    >>> spec = FigureSpec("demo", "a demo", "none", lambda *a: None, lambda d: new_figure()[0])
    >>> render(spec, FigureData([], {"constants": "unit"}), {"text": "reproduced: 1 = 1"}).get_suptitle().splitlines()
    ['a demo', 'constants: unit', 'verdict: reproduced: 1 = 1']
    """
    spec, data = _instance("spec", spec, FigureSpec), _instance("data", data, FigureData)
    if verdict is not None and not (isinstance(verdict, Mapping) and isinstance(verdict.get("text"), str)):
        raise ValueError(f"verdict must be a mapping with a string 'text', got {format_value(verdict)}")
    with matplotlib.rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib types the keys as literals
        fig = spec.draw(data)
        chars = int(fig.get_figwidth() * CHARS_PER_INCH)
        lines = phrase_lines(spec.title, chars)
        if data.meta.get("constants") is not None:
            lines += phrase_lines(constants_text(data.meta["constants"]), chars)
        if verdict is not None:  # one line where it fits, else broken between its clauses only
            lines += phrase_lines(f"verdict: {verdict['text']}", chars, breaks=";")
        fig.suptitle("\n".join(lines), fontsize=8)
        _plain_log_labels(fig)
    return fig


@contextlib.contextmanager
def saving(fig: Figure, dpi: float) -> Iterator[Figure]:
    """``fig`` ready to be saved (any number of times, at ``dpi``) with the images ``savefig`` alone gives, for
    less work: the layout solved once here as ``savefig`` solves it (the axes' aspects applied, then the layout
    engine run, at ``dpi`` on an Agg canvas: what ``savefig``'s draw that renders nothing does before it draws
    nothing), then the layout engine detached while saving (``savefig`` would otherwise draw the figure once
    more before each file); and each axis' ticks computed once per view and number of ticks that fit, their
    labels' extents once per view and position, instead of at every query of a draw (an axis recomputes them
    for its bounding box, its label's position, its spines and its neighbours').  The engine and the axes' own
    methods are restored on exit.

    Examples
    --------
    >>> import io
    >>> fig, (ax,) = new_figure()
    >>> _ = ax.loglog([1, 100], [1, 10])
    >>> with saving(fig, 100.0) as f:
    ...     f.savefig(io.BytesIO(), format="png")
    >>> fig.get_layout_engine() is not None
    True
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = _instance("fig", fig, Figure)
    dpi = check_real("dpi", dpi, low=0, low_open=True, high=10_000)
    engine = fig.get_layout_engine()
    axes = [a for ax in fig.axes for a in ax._axis_map.values()]
    for a in axes:  # instance attributes over the methods, deleted on exit
        space = _space(a)
        setattr(a, "_update_ticks", _ticks_once(a, space))
        setattr(a, "_get_ticklabel_bboxes", _label_boxes_once(a, space))
    try:
        if engine is not None:
            canvas = FigureCanvasAgg(fig)  # the canvas savefig draws a PNG on; the layout is solved with its renderer
            original = fig.dpi
            fig.dpi = dpi
            try:  # savefig's solve, without the rest of a draw that renders nothing (as Figure.draw: aspects first)
                aspects = getattr(fig, "_get_draw_artists", None)  # private: a matplotlib without it draws
                if aspects is None:
                    fig.draw_without_rendering()
                else:
                    aspects(canvas.get_renderer())
                    engine.execute(fig)
            finally:
                fig.dpi = original
            with matplotlib.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
                fig.set_layout_engine(None)  # no engine (not 'none', whose placeholder savefig draws for)
        yield fig
    finally:
        for a in axes:
            delattr(a, "_update_ticks")
            delattr(a, "_get_ticklabel_bboxes")
        if engine is not None:
            fig.set_layout_engine(engine)


def _tick_state(axis: Any, space: int) -> tuple:
    """What an axis' ticks depend on: the view interval, the number of ticks that fit (``space``, the axis'
    ``get_tick_space()``: the only use the locators make of the axes' size, which the layout changes), the
    locators, formatters and tick lists."""
    return (tuple(axis.get_view_interval()), space, axis.get_major_locator(), axis.get_minor_locator(),
            axis.major.formatter, axis.minor.formatter, id(axis.__dict__.get("majorTicks")),
            id(axis.__dict__.get("minorTicks")))


def _box(axis: Any) -> tuple:
    """The axes' box on the canvas and the dpi: what an axis' tick space and labels' extents depend on."""
    return tuple(axis.axes.bbox.bounds), axis.figure.dpi


def _space(axis: Any) -> Callable[[], int]:
    """``axis.get_tick_space()``, computed again only when :func:`_box` changed since its last call."""
    last: list = [None, 0]

    def space() -> int:
        box = _box(axis)
        if last[0] != box:
            last[:] = [box, axis.get_tick_space()]
        return last[1]

    return space


def _ticks_once(axis: Any, space: Callable[[], int]) -> Callable[[], list]:
    """``axis._update_ticks`` computed again only when :func:`_tick_state` changed since its last call."""
    compute = getattr(axis, "_update_ticks")
    last: list = [None, []]

    def update() -> list:
        key = _tick_state(axis, space())
        if last[0] != key:
            last[:] = [key, compute()]
        return list(last[1])

    return update


def _label_boxes_once(axis: Any, space: Callable[[], int]) -> Callable[[list, Any], tuple]:
    """``axis._get_ticklabel_bboxes(ticks, renderer)`` (the tick labels' extents, measured for the axis' box,
    its label's position and its neighbours') computed again only when the ticks, the renderer or
    :func:`_tick_state` changed since its last call."""
    compute = getattr(axis, "_get_ticklabel_bboxes")
    last: list = [None, ([], [])]

    def boxes(ticks: list, renderer: Any) -> tuple:
        key = (tuple(map(id, ticks)), renderer, _box(axis), _tick_state(axis, space()))
        if last[0] != key:
            last[:] = [key, compute(ticks, renderer)]
        return list(last[1][0]), list(last[1][1])

    return boxes


def captured(f: Callable, *args: Any, **kw: Any) -> tuple:
    """Call ``f(*args, **kw)``; return its value and the sorted messages of the paper-assumption warnings it raised.

    Examples
    --------
    >>> captured(max, 2, 3)
    (3, [])
    """
    if not callable(f):
        raise ValueError(f"f must be callable, got {format_value(f)}")
    try:
        signature = inspect.signature(f)
    except (TypeError, ValueError):  # some builtins publish no signature: call them as they are
        signature = None
    if signature is not None:
        try:
            signature.bind(*args, **kw)
        except TypeError as e:
            raise TypeError(f"f = {format_value(f)} does not take these arguments: {e}") from None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        out = f(*args, **kw)
    return out, sorted({str(w.message) for w in caught})
