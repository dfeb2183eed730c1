r"""The records' values per user, for the central errors on the data's own values (``--value COL``).

:func:`records_values` runs one GROUP BY per user through DuckDB (out of core: the table never enters
Python) and returns, per user, its count, the sum of its values and the sum of their squares — all the
exact central errors of :mod:`~bounds.advise.tuning` need.  :func:`user_values` does the same from
arrays.  Values must lie in the stated range :math:`[0, U]`; a value outside it, or missing, is an
error naming the column.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..numerics import check_positive, format_value
from .inputs import Histogram, query_records
from .tuning import CentralData, from_values

__all__ = ["PER_USER_SQL", "records_values", "user_values"]

PER_USER_SQL = """\
SELECT COUNT(*) AS n, SUM(CAST({value} AS DOUBLE)) AS s, SUM(CAST({value} AS DOUBLE) * CAST({value} AS DOUBLE)) AS q,
       MIN(CAST({value} AS DOUBLE)) AS lo, MAX(CAST({value} AS DOUBLE)) AS hi, COUNT({value}) AS present
FROM {table} WHERE {user} IS NOT NULL GROUP BY {user}"""
"""Per user: its records, the sum and the sum of squares of its values, their range and how many are present."""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def records_values(path: str | Path, *, user: str, value: str, U: float) -> CentralData:
    r"""Per-user counts, sums and sums of squares of column ``value`` of a CSV or Parquet table (DuckDB).

    Rows without a user are left out (as in the histogram).  Raises ``ValueError`` naming ``value``
    when a value is missing or lies outside :math:`[0, U]`.

    .. math:: m_i = \#\{t\},\quad S_i = \sum_t x_{it},\quad Q_i = \sum_t x_{it}^2

    Source: the per-user sums of Rameshwar and Tandon (2025), §II, computed by one GROUP BY.

    Examples
    --------
    >>> import importlib.util, tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = os.path.join(tmp, "r.csv")
    ...     _ = open(f, "w").write("u,v\na,1\nb,0\na,0.5\n")
    ...     if importlib.util.find_spec("duckdb"):  # the [data] extra
    ...         d = records_values(f, user="u", value="v", U=1.0)
    ...     else:  # the same numbers in memory
    ...         d = user_values(["a", "b", "a"], [1.0, 0.0, 0.5], U=1.0)
    >>> sorted(zip(d.counts.tolist(), d.sums.tolist()))
    [(1, 0.0), (2, 1.5)]
    """
    U = check_positive("U", U)
    for name, col in (("user", user), ("value", value)):
        if not isinstance(col, str) or not col:
            raise ValueError(f"{name} must name a column, got {format_value(col)}")
    _, rows = query_records(
        path, {"user": user, "value": value},
        lambda table: PER_USER_SQL.format(value=_quote(value), user=_quote(user), table=table),
        "reading values from a records file", lambda msg: f"value column {value!r}: not numeric ({msg})")
    n = np.asarray(rows["n"], dtype=np.int64)
    if n.size == 0:
        raise ValueError(f"records: no row has a user in column {user!r}")
    present = np.asarray(rows["present"], dtype=np.int64)
    if np.any(present < n):
        raise ValueError(f"value column {value!r}: {int((n - present).sum()):,} missing value(s)")
    lo, hi = float(np.min(rows["lo"])), float(np.max(rows["hi"]))
    _check_range(value, lo, hi, U)
    return from_values(n, np.asarray(rows["s"], dtype=float), np.asarray(rows["q"], dtype=float), U=U,
                       description=f"the data's values (column {value!r}, in [{lo:g}, {hi:g}] within [0, {U:g}])")


def _check_range(column: str, lo: float, hi: float, U: float) -> None:
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise ValueError(f"value column {column!r}: non-finite values")
    if lo < 0 or hi > U:
        raise ValueError(f"value column {column!r}: values in [{lo:g}, {hi:g}], outside the stated range "
                         f"[0, U] = [0, {U:g}] (set U, or shift the values)")


def user_values(users: Any, data: Any, *, U: float = 1.0, column: str = "values") -> CentralData:
    r"""The values model from two aligned arrays: a user label per record (``users``) and its value in
    :math:`[0, U]` (``data``); ``column`` names the values in error messages.

    .. math:: m_i = \#\{t : u_t = i\},\quad S_i = \sum_{t: u_t = i} x_t

    Source: as :func:`records_values`, in memory.

    Examples
    --------
    >>> d = user_values(["a", "b", "a"], [1.0, 0.0, 0.5], U=1.0)
    >>> d.counts.tolist(), d.sums.tolist()
    ([2, 1], [1.5, 0.0])
    """
    U = check_positive("U", U)
    try:
        x = np.asarray(data, dtype=float)
        u = np.asarray(users)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"data ({column}): need real numbers, got {format_value(data)}") from None
    if x.ndim != 1 or u.shape != x.shape or x.size == 0:
        raise ValueError(f"data ({column}): need one value per label of users (1-D, same length), got {x.shape} "
                         f"and {u.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"data ({column}): non-finite values")
    _check_range(column, float(x.min()), float(x.max()), U)
    try:
        _, inv = np.unique(u, return_inverse=True)
    except TypeError:
        raise ValueError(f"users: labels must be comparable (numbers or strings), got {format_value(users)}") from None
    n = np.bincount(inv).astype(np.int64)
    return from_values(n, np.bincount(inv, weights=x), np.bincount(inv, weights=x * x), U=U,
                       description=f"the data's values ({column}, in [{x.min():g}, {x.max():g}] within [0, {U:g}])")


def histogram_of_values(data: CentralData) -> Histogram:
    """The histogram of the users' counts of a values model.

    Examples
    --------
    >>> histogram_of_values(user_values([1, 1, 2], [0.0, 1.0, 1.0], U=1.0)).counts.tolist()
    [1, 2]
    """
    return Histogram.of_counts(np.repeat(data.counts, data.users))
