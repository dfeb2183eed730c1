"""Sweeps and solve-for searches of the calculators (``--sweep NAME=LO:HI:K``, ``--solve NAME --target Q<V``).

A search looks for the smallest value of a budget (``n_alpha2`` or ``eps``, real; ``n``, integer) at which
a condition holds, on a log grid (:data:`PER_DECADE` points a decade, at most :data:`MAX_GRID` points in
all, so that a range as wide as ``1e-300:1e300`` costs as much as 31 decades) and then by bisection
between the last failing and the first holding grid point.  Points where the condition is not
*meaningful* (for DAME: the upper bound below the lower bound, e.g. 0 with unit constants) count
as failing, so a search never answers there.  A real answer is rounded up to
:data:`DIGITS` significant digits, an integer answer is exact, and the printed answer is
checked to meet the target.

Examples
--------
>>> sweep_values("n_alpha2=1:100:3", {"n_alpha2": float})
('n_alpha2', [1.0, 10.0, 100.0])
>>> parse_target("ratio<10", ("upper", "ratio"))
('ratio', 10.0)
"""

from __future__ import annotations

import argparse
import math
from decimal import ROUND_CEILING, Decimal
from dataclasses import dataclass
from typing import Any, Callable

from ._common import OptionError, exact_integer

PER_DECADE = 16  # grid points a decade before the bisection
DIGITS = 4  # significant digits of a printed real answer (rounded to the safe side)
MAX_SWEEP = 10_000  # points of one sweep (checked before any value is made)
MAX_GRID = 500  # points of a search's grid: PER_DECADE a decade up to 31 decades, spread thinner beyond
MAX_BISECTIONS = 200
MAX_INTEGER = 2**53  # largest integer end of a sweep or a range: its values are exact floats


DEFAULT_RANGE = "1:1e15"


def add_options(parser: argparse.ArgumentParser, sweep_help: str, solve: list[str], solve_help: str,
                target_help: str, solve_range: str = DEFAULT_RANGE) -> None:
    """A calculator's ``--sweep``, ``--csv``, ``--solve``, ``--target`` and ``--range`` (default ``solve_range``)."""
    parser.add_argument("--sweep", metavar="NAME=LO:HI:K", help=f"{sweep_help} (K at most {MAX_SWEEP})")
    parser.add_argument("--csv", action="store_true", help="print a sweep as CSV on stdout")
    parser.add_argument("--solve", choices=solve, help=solve_help)
    parser.add_argument("--target", metavar="Q<V", help=target_help)
    parser.add_argument("--range", metavar="LO:HI", default=solve_range,
                        help=f"the interval --solve searches: a log grid of at most {MAX_GRID} points "
                             f"({PER_DECADE} a decade), then bisection; integer ends at most 2**53")
    parser.set_defaults(range_default=solve_range)


def check_modes(args: argparse.Namespace) -> None:
    """Refuse options of a sweep or a search given without it, or both at once."""
    if args.sweep is not None and args.solve is not None:
        raise OptionError("--sweep", "give --sweep or --solve, not both")
    if args.csv and args.sweep is None:
        raise OptionError("--csv", "prints a sweep: give --sweep NAME=LO:HI:K")
    if args.target is not None and args.solve is None:
        raise OptionError("--target", "is the condition of --solve")
    if args.solve is None and args.range != args.range_default:
        raise OptionError("--range", "is the interval of --solve")
    if args.solve is not None and args.target is None:
        raise OptionError("--target", "--solve needs a target such as upper<0.01")


def check_varied(args: argparse.Namespace, kinds: dict[str, type]) -> None:
    """Each of ``kinds`` (option ``--NAME``) is required, except the one swept or solved for, which is refused.

    A sweep is read first, so that a sweep of an unknown name is refused as such.
    """
    varied = args.solve if args.solve is not None else (sweep_values(args.sweep, kinds)[0] if args.sweep else None)
    for name in kinds:
        given = getattr(args, name) is not None
        if name == varied and given:
            raise OptionError(f"--{name}", f"is {'swept' if args.sweep else 'solved for'}: drop --{name}")
        if name != varied and not given:
            raise OptionError(f"--{name}", "is required")


def progress(values: list[float], name: str) -> Any:
    """``values`` with a progress bar on stderr when it is a terminal (a sweep's points)."""
    from tqdm import tqdm

    return tqdm(values, desc=f"sweep of {name}", unit="point", disable=None, leave=False)


def parse_range(text: str, integer: bool) -> tuple[float, float]:
    """``--range LO:HI`` with ``0 < LO < HI`` (integers for an integer search)."""
    lo_text, colon, hi_text = text.partition(":")
    try:
        if not colon:
            raise ValueError(f"use LO:HI, got {text!r}")
        lo, hi = (_bound(t, int if integer else float, w) for t, w in ((lo_text, "LO"), (hi_text, "HI")))
    except ValueError as exc:
        raise OptionError("--range", str(exc)) from None
    if hi <= lo:
        raise OptionError("--range", f"HI must exceed LO, got {text!r}")
    return lo, hi


def csv_table(rows: list[dict[str, Any]]) -> str:
    """Rows of equal keys as CSV text: a header, floats with 10 significant digits, booleans as 0/1."""
    keys = list(rows[0])

    def cell(v: Any) -> str:
        return str(int(v)) if isinstance(v, bool) else f"{v:.10g}" if isinstance(v, float) else str(v)

    return ",".join(keys) + "\n" + "".join(",".join(cell(r[k]) for k in keys) + "\n" for r in rows)


def _bound(text: str, kind: type, what: str) -> float:
    try:
        v: float = exact_integer(text) if kind is int else float(text)
    except ValueError:
        raise ValueError(f"{what} must be {'an integer' if kind is int else 'a number'}, got {text!r}") from None
    if kind is int and v > MAX_INTEGER:
        raise ValueError(f"{what} must be an integer up to 2**53 = {MAX_INTEGER} (the values are exact floats), "
                         f"got {text.strip()[:40]!r}")
    if not (math.isfinite(v) and v > 0):
        raise ValueError(f"{what} must be a positive finite number, got {text!r}")
    return v


def sweep_values(spec: str, names: dict[str, type], option: str = "--sweep") -> tuple[str, list[float]]:
    """``NAME=LO:HI:K`` as K log-spaced values from LO to HI.

    Integers are rounded and made distinct; reals are rounded to 10 significant digits, the digits a
    table prints, so that each printed value is the one computed with (a rank such as ``ceil(2/eps)``
    at ``eps = 1`` is not taken at ``0.9999999999999998``).
    """
    name, eq, rng = spec.partition("=")
    name = name.strip()
    if not eq or name not in names:
        raise OptionError(option, f"use NAME=LO:HI:K with NAME in {', '.join(names)}, got {spec!r}")
    parts = rng.split(":")
    if len(parts) != 3:
        raise OptionError(option, f"use {name}=LO:HI:K (three numbers), got {spec!r}")
    kind = names[name]
    try:
        lo, hi = (_bound(t, kind, w) for t, w in zip(parts[:2], ("LO", "HI")))
        k = exact_integer(parts[2])
    except ValueError as exc:
        raise OptionError(option, f"{exc} in {spec!r}") from None
    if not 1 <= k <= MAX_SWEEP:
        raise OptionError(option, f"K must be an integer in [1, {MAX_SWEEP}], got {parts[2]!r}")
    if hi < lo:
        raise OptionError(option, f"HI must be >= LO, got {spec!r}")
    if k == 1 or lo == hi:
        values = [lo]
    else:
        step = (math.log(hi) - math.log(lo)) / (k - 1)
        values = [math.exp(math.log(lo) + i * step) for i in range(k - 1)] + [hi]  # lo * e**x overflows
    if kind is int:
        values = sorted({float(round(v)) for v in values})
    else:
        values = [float(f"{v:.10g}") for v in values]
    return name, values


def parse_target(text: str, quantities: tuple[str, ...], option: str = "--target") -> tuple[str, float]:
    """``QUANTITY<VALUE`` (``<=`` also read) as ``(quantity, value)``."""
    q, lt, v = text.replace("<=", "<").partition("<")
    q = q.strip()
    if not lt or q not in quantities:
        raise OptionError(option, f"use QUANTITY<VALUE with QUANTITY in {', '.join(quantities)}, got {text!r}")
    try:
        value = float(v)
    except ValueError:
        raise OptionError(option, f"the target value must be a number, got {v.strip()!r} in {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise OptionError(option, f"the target value must be a positive finite number, got {text!r}")
    return q, value


@dataclass(frozen=True)
class Answer:
    """The smallest value at which the condition holds, or None when it holds nowhere on the range."""

    value: float | None
    holds_at_low_end: bool  # the condition already holds at the low end of the range
    fails_again_at: float | None  # a grid value above the answer where the condition fails (not monotone)
    grid_points: int


def solve(holds: Callable[[float], bool], lo: float, hi: float, integer: bool) -> Answer:
    """The smallest ``x`` in ``[lo, hi]`` after the last failing grid point at which ``holds(x)``.

    Real answers are rounded up to :data:`DIGITS` significant digits and re-checked (moved up until they
    hold); integer answers are exact on the bracket of integers.
    """
    log_lo, log_hi = math.log(lo), math.log(hi)  # never hi / lo: it overflows for 1e-300:1e300
    decades = max((log_hi - log_lo) / math.log(10), 0.0)
    k = min(max(2, math.ceil(decades * PER_DECADE) + 1), MAX_GRID)  # bounded work: at most MAX_GRID points
    grid = [lo] + [math.exp(log_lo + (log_hi - log_lo) * i / (k - 1)) for i in range(1, k - 1)] + [hi]
    if integer:
        grid = sorted({float(math.ceil(g)) for g in grid})
    flags = [holds(g) for g in grid]
    if not any(flags):
        return Answer(None, False, None, len(grid))
    first = flags.index(True)
    again = next((g for g, f in zip(grid[first:], flags[first:]) if not f), None)
    if first == 0:
        return Answer(grid[0], True, again, len(grid))
    a, b = grid[first - 1], grid[first]  # holds(a) False, holds(b) True
    for _ in range(MAX_BISECTIONS):
        if integer:
            if b - a <= 1:
                break
            mid = float(math.floor((a + b) / 2))
        else:
            if b / a - 1 < 1e-9:
                break
            mid = math.sqrt(a) * math.sqrt(b)  # a * b overflows near the top of the float range
        if holds(mid):
            b = mid
        else:
            a = mid
    if not integer:
        exact, b = b, round_up(b)
        for _ in range(MAX_BISECTIONS):  # the rounded answer must meet the target
            if b > hi:  # rounding up left the range: the bracket's end, unrounded (it holds)
                b = exact
                break
            if holds(b):
                break
            b = round_up(b * (1 + 10.0 ** -DIGITS))
        else:
            b = exact
    return Answer(b, False, again, len(grid))


def answer_lines(ans: Answer, what: str, integer: bool, there: list[str]) -> tuple[list[str], dict[str, Any]]:
    """The report of a search for ``what``: its answer (with ``there``, the quantities at it) and notes.

    Returns the text lines and the JSON fields ``answer``, ``holds_at_low_end`` and ``fails_again_at``.
    """
    result = {"answer": ans.value, "holds_at_low_end": ans.holds_at_low_end, "fails_again_at": ans.fails_again_at}
    if ans.value is None:
        return ["  answer        none: the target is not met anywhere in the range (widen --range)"], result
    value = f"{int(ans.value)}" if integer else f"{ans.value:.{DIGITS}g}"
    rounding = "exact (integer)" if integer else f"rounded up to {DIGITS} significant digits"
    lines = [f"  answer        {what} = {value}   ({rounding}; checked: it meets the target)", *there]
    if ans.holds_at_low_end:
        lines.append("  note: the target already holds at the low end of the range (lower --range to search below)")
    if ans.fails_again_at is not None:
        lines.append(f"  note: the target fails again at {what} = {ans.fails_again_at:.6g}: the condition is "
                     "not monotone; the answer is its first crossing")
    return lines, result


def round_up(x: float) -> float:
    """``x`` rounded up to :data:`DIGITS` significant digits."""
    d = Decimal(x)  # exact; the nearest float to a decimal >= x is >= x (x is a float)
    quantum = Decimal(1).scaleb(d.adjusted() - DIGITS + 1)
    return float(d.quantize(quantum, rounding=ROUND_CEILING))
