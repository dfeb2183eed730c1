"""The text readers of :mod:`bounds.advise.inputs` and their :class:`ReadReport` (a private module).

Counts and histogram files are read whole (at most :data:`MAX_TEXT_BYTES`), as UTF-8 with an optional
byte-order mark, into CSV rows; a header is recognised by content (no cell of it is a number), and every
reader returns, with its values, what it read, used and dropped.  Cells are read as exact integers, never
through float.  The public names are those of :mod:`bounds.advise.inputs`, which re-exports them.
"""

from __future__ import annotations

import contextvars
import csv
import io
import os
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Iterator

from ..numerics._checks import read_text

__all__ = ["ReadReport", "MAX_TEXT_BYTES", "text_of", "csv_rows", "is_header", "exact_integer", "read_column",
           "is_number", "reading"]

MAX_TEXT_BYTES = 2**31  # bytes of a counts or histogram text file read into memory (records files stream)

_BAR: contextvars.ContextVar[Any] = contextvars.ContextVar("bounds_advise_reading_bar", default=None)
_STEP = 2**16  # CSV rows between two updates of the reading bar


@contextmanager
def reading(bar: Any) -> Iterator[Any]:
    """The text readers called inside the ``with`` block report the lines they read to ``bar`` (a tqdm bar,
    or ``None``: no report), which is closed on leaving the block."""
    token = _BAR.set(bar)
    try:
        yield bar
    finally:
        _BAR.reset(token)
        if bar is not None:
            bar.close()


@dataclass(frozen=True)
class ReadReport:
    r"""What a reader read from a file, what it used and why it dropped the rest.

    ``lines`` rows were read (CSV records: lines, or for a records table its rows), ``used`` of them carried
    data; the others are the ``header`` (its text; at most one, recognised by content: no cell of it is a
    number), ``blank`` lines, and for a records table the ``unattributed`` rows without a user.

    .. math:: \text{lines} = \text{used} + [\text{header}] + \text{blank} + \text{unattributed}

    Source: the bookkeeping of the inputs of Pla et al. (2024), §2 (every user's records are counted once).

    Examples
    --------
    >>> from bounds.advise.inputs import load_histogram
    >>> load_histogram(io.StringIO("count,users\n1,500\n7,20\n\n")).read.describe()
    'a file object: 4 lines read, 2 used; dropped: 1 header line (count,users), 1 blank line'
    """

    source: str
    lines: int
    used: int
    header: str | None = None
    blank: int = 0
    unattributed: int = 0
    unit: str = "line"

    @property
    def dropped(self) -> int:
        """Rows read but not used."""
        return self.lines - self.used

    def describe(self) -> str:
        """One line: read, used, and each reason for a dropped row."""
        def n(k: int, what: str) -> str:
            return f"{k:,} {what}{'' if k == 1 else 's'}"

        why = ([f"1 header {self.unit} ({self.header})"] if self.header is not None else []) + \
              ([n(self.blank, f"blank {self.unit}")] if self.blank else []) + \
              ([n(self.unattributed, f"{self.unit} without a user")] if self.unattributed else [])
        return (f"{self.source}: {n(self.lines, self.unit)} read, {self.used:,} used"
                + (f"; dropped: {', '.join(why)}" if why else ""))


def text_of(source: Any, name: str) -> tuple[str, str]:
    """(the text, a label) of a path (opened literally, a regular file only) or a file object; UTF-8, BOM dropped."""
    if hasattr(source, "read"):
        data = source.read()
        if isinstance(data, bytes):
            try:
                data = data.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise ValueError(f"{name}: the file object is not UTF-8 text (offset {exc.start})") from None
        if not isinstance(data, str):
            raise ValueError(f"{name}: the file object's read() returned {type(data).__name__}, not text")
        return data.removeprefix("\ufeff"), "a file object"
    return read_text(name, source, max_bytes=MAX_TEXT_BYTES), str(os.fspath(source))


def csv_rows(text: str, name: str, label: str) -> tuple[list[tuple[int, list[str]]], int, int]:
    """The non-blank CSV rows of ``text`` with their line numbers, the rows read and the blank ones."""
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[tuple[int, list[str]]] = []
    read = blank = 0
    bar = _BAR.get()
    if bar is not None:
        bar.reset(total=text.count("\n") + 1)
    try:
        for r in reader:
            read += 1
            if bar is not None and read % _STEP == 0:
                bar.update(_STEP)
            cells = list(map(str.strip, r))
            if any(cells):
                rows.append((reader.line_num, cells))
            else:
                blank += 1
    except csv.Error as exc:
        raise ValueError(f"{name}: {label}, line {reader.line_num + 1}: not CSV text ({exc})") from None
    if not rows:
        raise ValueError(f"{name}: {label} is empty (no data; {read} blank line(s))")
    return rows, read, blank


def is_header(row: list[str]) -> bool:
    """A header: no cell is a number (decided by content, not by position alone)."""
    return not any(is_number(c) for c in row if c)


def exact_integer(cell: str) -> int | float:
    """A cell as an exact Python int when integral (never through float), else as a float (refused later)."""
    try:
        return int(cell)
    except ValueError:
        pass
    try:
        v = Decimal(cell)
    except InvalidOperation:
        return float(cell)
    if v.is_finite() and v == v.to_integral_value() and v.adjusted() <= 400:
        return int(v)
    return float(cell)


def read_column(source: Any, column: str | None, name: str) -> tuple[list[int | float], ReadReport]:
    text, label = text_of(source, name)
    rows, read, blank = csv_rows(text, name, label)
    first = rows[0][1]
    header = first if is_header(first) else None
    body = rows[1:] if header is not None else rows
    if column is not None:
        if header is None or column not in header:
            raise ValueError(f"column {column!r} not in the header of {label} "
                             f"({header if header is not None else 'no header: its first line holds numbers'})")
        j = header.index(column)
    elif len(first) == 1:
        j = 0
    else:  # several columns: the only one whose every cell is a number
        numeric = [k for k in range(len(first)) if body and all(k < len(r) and is_number(r[k]) for _, r in body)]
        if len(numeric) != 1:
            shown = f"columns {header}" if header is not None else f"{len(first)} columns and no header"
            raise ValueError(f"{name}: {label} has {shown}: name the one holding the counts with column")
        j = numeric[0]
    values: list[int | float] = []
    for line, r in body:
        cell = r[j] if j < len(r) else ""
        try:  # the common case, a plain integer: one conversion
            values.append(int(cell))
            continue
        except ValueError:
            pass
        if not is_number(cell):
            raise ValueError(f"{name}: {label}, line {line}: {cell!r} is not a count")
        values.append(exact_integer(cell))
    if not values:
        raise ValueError(f"{name}: {label} has a header but no counts")
    return values, ReadReport(label, read, len(values), None if header is None else ",".join(header), blank)


def is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True
