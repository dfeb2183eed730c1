"""Input validation: one layer for every public entry point (each check returns the value in the form the
mathematics needs, or raises ValueError naming the parameter)."""

from __future__ import annotations

import errno
import math
import numbers
import os
import stat
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np

from .._lazy import lazy

if TYPE_CHECKING:
    import mpmath
else:
    mpmath = lazy("mpmath")  # imported at first use: the float64 path and the command line's start-up never need it

# --------------------------------------------------------------------------- validation
#
# One layer for every public entry point.  Each check returns the value in the
# form the mathematics needs (float, exact int, float or int64 array, a member
# of a fixed set) or raises ValueError naming the parameter and the value.
# Booleans and strings are never numbers; NaN is never a value.

MAX_COUNT = 2**63 - 1
"""Largest per-user count a count array holds (stored as int64; totals are exact Python ints)."""

MAX_PRECISION = 1000
"""Largest ``precision`` (mpmath digits) accepted: beyond it one evaluation takes minutes."""

MAX_ARRAY = 10**6
"""Default largest number of entries of an array argument of the theory functions (``max_size`` of
:func:`check_array` and :func:`check_counts`): their work is at least linear in it, and most keep exact
or per-entry Python work, so that 10**6 entries take seconds and 10**7 minutes."""

MAX_BRACKET = 2**62
"""Largest ``|lo|``, ``|hi|`` of :func:`last_true`: the int64 midpoint ``good + (top - good + 1) // 2`` cannot wrap."""

_FLOAT_MAX = float(np.finfo(float).max)
_EXACT_INT = 2**53  # an int of smaller size converts to a float exactly (and a plain float is never rounded to 0)


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def _is_real(value: Any) -> bool:
    # an mpf can only exist once mpmath is imported: its type's module says so without importing it
    return not _is_bool(value) and (isinstance(value, numbers.Real)
                                     or (type(value).__module__.startswith("mpmath") and isinstance(value, mpmath.mpf)))


def _as_float(value: Any) -> float:
    """``float(value)``; a real beyond the float range (``10**400``, ``Fraction(10**400)``) gives ±inf."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _interval(low: float | None, high: float | None, low_open: bool, high_open: bool) -> str:
    if low is None and high is None:
        return "a real number"
    if high is None:
        if low == 0:
            return "a positive real number" if low_open else "a non-negative real number"
        return f"a real number {'>' if low_open else '>='} {low:g}"
    if low is None:
        return f"a real number {'<' if high_open else '<='} {high:g}"
    return f"in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"


def check_real(name: str, value: Any, *, low: float | None = None, high: float | None = None, low_open: bool = False,
               high_open: bool = False, allow_inf: bool = False) -> float:
    """Return ``value`` as a float after checking it is a real number in the given range.

    Accepted: ``int`` (any size), ``float``, ``fractions.Fraction``, numpy and sympy
    numbers, ``mpmath.mpf``.  Refused: booleans, strings, complex numbers, ``None``,
    NaN, infinities (unless ``allow_inf``), values outside ``[low, high]`` (ends open
    with ``low_open``/``high_open``).  An integer beyond the float range counts as
    infinite.

    Parameters
    ----------
    name : str
        The parameter's name, used in the message.
    value : object
        The value to check.
    low, high : float, optional
        Range ends (``None``: unbounded).
    low_open, high_open : bool
        Whether the corresponding end is excluded.
    allow_inf : bool
        Accept ``+inf``/``-inf`` (if the range allows it).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming ``name`` and ``value``.

    Examples
    --------
    >>> check_real("p", 0.25, low=0, high=1)
    0.25
    >>> check_real("p", True, low=0, high=1)
    Traceback (most recent call last):
    ...
    ValueError: p must be in [0, 1], got True
    """
    t = type(value)
    if t is float or (t is int and -_EXACT_INT < value < _EXACT_INT):  # a plain number in range: no message built
        v = float(value)
        if ((v == v and (allow_inf or -_FLOAT_MAX <= v <= _FLOAT_MAX))
                and (low is None or (v > low if low_open else v >= low))
                and (high is None or (v < high if high_open else v <= high))):
            return v
    what = _interval(low, high, low_open, high_open)
    if not _is_real(value):
        raise ValueError(f"{name} must be {what}, got {format_value(value)}")
    v = _as_float(value)
    if math.isnan(v) or (math.isinf(v) and not allow_inf):
        raise ValueError(f"{name} must be {what} (finite), got {format_value(value)}")
    if v == 0 and value != 0:
        raise ValueError(f"{name} must be {what} representable in float64, got {format_value(value)} (underflows to 0)")
    if low is not None and (v < low or (low_open and v == low)):
        raise ValueError(f"{name} must be {what}, got {format_value(value)}")
    if high is not None and (v > high or (high_open and v == high)):
        raise ValueError(f"{name} must be {what}, got {format_value(value)}")
    return v


def check_positive(name: str, value: Any, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float after checking it is a positive real number (see :func:`check_real`).

    Raises
    ------
    ValueError
        If ``value`` is NaN, not real, a boolean, ``<= 0`` or (unless ``allow_inf``) infinite.

    Examples
    --------
    >>> check_positive("alpha", 0.5)
    0.5
    >>> check_positive("alpha", -1)
    Traceback (most recent call last):
    ...
    ValueError: alpha must be a positive real number, got -1
    """
    return check_real(name, value, low=0, low_open=True, allow_inf=allow_inf)


def check_integer(name: str, value: Any, *, minimum: int, maximum: int | None = None, why: str = "") -> int:
    """Return ``value`` as an exact Python ``int`` after checking ``minimum <= value <= maximum``.

    Accepted: ``int`` of any size, numpy and sympy integers, and integral reals such
    as ``1e4`` or ``Fraction(6, 2)``.  Refused: booleans, strings, non-integral or
    non-finite reals.  ``maximum`` is a limit of the implementation, stated in the
    message with ``why``.

    Examples
    --------
    >>> check_integer("n", 1e4, minimum=2)
    10000
    >>> check_integer("n", 1, minimum=2)
    Traceback (most recent call last):
    ...
    ValueError: n must be an integer >= 2, got 1
    >>> check_integer("M", 70, minimum=0, maximum=40, why="the collection has 2**(M+1) - 1 users")
    Traceback (most recent call last):
    ...
    ValueError: M must be an integer in [0, 40] (the collection has 2**(M+1) - 1 users), got 70
    """
    if type(value) is int and value >= minimum and (maximum is None or value <= maximum):  # no message built
        return value
    what = f"an integer >= {minimum}" if maximum is None else f"an integer in [{minimum}, {_limit(maximum)}]"
    if why:
        what += f" ({why})"
    if isinstance(value, numbers.Integral) and not _is_bool(value):
        iv = int(value)
    elif _is_real(value) and math.isfinite(_as_float(value)) and value == int(value):
        iv = int(value)
    else:
        raise ValueError(f"{name} must be {what}, got {format_value(value)}")
    if iv < minimum or (maximum is not None and iv > maximum):
        raise ValueError(f"{name} must be {what}, got {format_value(value)}")
    return iv


def check_choice(name: str, value: Any, choices: tuple[str, ...] | list[str]) -> str:
    """Return ``value`` after checking it is exactly one of the strings ``choices``.

    Examples
    --------
    >>> check_choice("ball", "l2", ("linf", "l2"))
    'l2'
    >>> check_choice("ball", "xyz", ("linf", "l2"))
    Traceback (most recent call last):
    ...
    ValueError: ball must be one of 'linf', 'l2', got 'xyz'
    """
    if not (isinstance(value, str) and value in choices):
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {format_value(value)}")
    return value


def check_bool(name: str, value: Any) -> bool:
    """Return ``value`` as a ``bool`` after checking it is one (``True``, ``False`` or a numpy boolean).

    Truthiness is never used: ``"no"``, ``1`` and arrays are refused.

    Examples
    --------
    >>> check_bool("exact", True)
    True
    >>> check_bool("exact", "False")
    Traceback (most recent call last):
    ...
    ValueError: exact must be True or False, got 'False'
    """
    if value is True or value is False:
        return value
    if not _is_bool(value):
        raise ValueError(f"{name} must be True or False, got {format_value(value)}")
    return bool(value)


def check_callable(name: str, value: Any, what: str = "a function") -> Any:
    """Return ``value`` after checking it is callable; the message says what it should be.

    Examples
    --------
    >>> check_callable("draw", 5, "a sampler draw(rng, size)")
    Traceback (most recent call last):
    ...
    ValueError: draw must be a sampler draw(rng, size), got 5
    """
    if not callable(value):
        raise ValueError(f"{name} must be {what}, got {format_value(value)}")
    return value


def _check_size(name: str, arr: np.ndarray, max_size: int | None) -> None:
    if max_size is not None and arr.size > max_size:
        raise ValueError(f"{name} must hold at most {_limit(max_size)} entries (the work and memory limit of this "
                         f"function), got {arr.size}")


def format_value(value: Any, width: int = 80) -> str:
    """``repr(value)`` for messages, shortened: a huge integer shows its leading digits and length.

    Examples
    --------
    >>> format_value(10**400)
    '10000000000... (401 digits)'
    >>> format_value(0.5)
    '0.5'
    """
    if isinstance(value, numbers.Integral) and not _is_bool(value) and abs(int(value)) >= 10**30:
        digits = str(abs(int(value)))
        return f"{'-' if value < 0 else ''}{digits[:11]}... ({len(digits)} digits)"
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


_short = format_value


def _limit(v: int) -> str:
    """An integer limit as written in the source: ``10**300``, ``2**63 - 1`` or the digits."""
    for base in (10, 2):
        for off, tail in ((0, ""), (1, " - 1")):
            k = round(math.log(v + off, base)) if v + off > 0 else 0
            if v >= 10**6 and base**k == v + off:
                return f"{base}**{k}{tail}"
    return str(v)


def _numeric_array(name: str, values: Any, what: str) -> np.ndarray:
    """``values`` as a real numeric (or object-of-reals) numpy array, booleans and strings refused."""
    if isinstance(values, (str, bytes)) or values is None:
        raise ValueError(f"{name} must be {what}, got {_short(values)}")
    try:
        arr = np.asarray(values)
        listed = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object)
    except (ValueError, TypeError):  # ragged nesting
        raise ValueError(f"{name} must be {what}, got {_short(values)}") from None
    if listed.dtype == object and any(_is_bool(v) for v in listed.flat):  # [True, 2] would become [1, 2]
        raise ValueError(f"{name} must be {what}, not booleans, got {_short(values)}")
    if arr.dtype == object:
        if not all(_is_real(v) for v in arr.flat):
            raise ValueError(f"{name} must be {what}, got {_short(values)}")
    elif arr.dtype == bool or not np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.complexfloating):
        raise ValueError(f"{name} must be {what}, got {_short(values)}")
    return arr


def check_array(name: str, values: Any, *, ndim: int = 1, low: float | None = None, low_open: bool = False,
                allow_empty: bool = False, max_size: int | None = None) -> np.ndarray:
    """Return ``values`` as a float64 array after checking shape, type and finiteness.

    The array must have ``ndim`` dimensions, be non-empty (unless ``allow_empty``),
    hold at most ``max_size`` entries (checked before any per-entry work), real
    numbers (not booleans or strings), all finite and ``>= low`` (``> low`` with
    ``low_open``).

    Examples
    --------
    >>> check_array("sigma2", [1, 0.25], low=0, low_open=True).tolist()
    [1.0, 0.25]
    >>> check_array("sigma2", [1.0, float("nan")])
    Traceback (most recent call last):
    ...
    ValueError: sigma2 must hold finite real numbers, got [1.0, nan]
    """
    what = f"a {'non-empty ' if not allow_empty else ''}{ndim}-D array of real numbers"
    if max_size is not None and isinstance(values, np.ndarray):
        _check_size(name, values, max_size)
    arr = _numeric_array(name, values, what)
    _check_size(name, arr, max_size)
    if arr.ndim != ndim or (arr.size == 0 and not allow_empty):
        raise ValueError(f"{name} must be {what}, got {_short(values)}")
    if arr.dtype == object:
        out = np.array([_as_float(v) for v in arr.flat], dtype=float).reshape(arr.shape)
    else:
        out = arr.astype(float)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{name} must hold finite real numbers, got {_short(values)}")
    if low is not None:
        bad = (out <= low) if low_open else (out < low)
        if np.any(bad):
            rel = ">" if low_open else ">="
            raise ValueError(f"{name} must hold real numbers {rel} {low:g}, got {out[bad][0].item()!r}")
    return out


def check_counts(name: str, values: Any, *, maximum: int = MAX_COUNT, max_size: int | None = None) -> np.ndarray:
    """Return ``values`` as an int64 array after checking it is a non-empty 1-D array of positive integers.

    At most ``max_size`` counts (``None``: no limit; the theory modules pass ``bounds.numerics.MAX_ARRAY``).  Each count is exact and at most ``maximum`` (by default the int64 range): a
    larger or non-integral value is refused, never rounded or wrapped.  Sum counts
    with :func:`total` (an exact Python ``int``), not ``arr.sum()``, which wraps.

    Examples
    --------
    >>> check_counts("k", [3, 1.0]).tolist()
    [3, 1]
    >>> check_counts("k", [2, 0])
    Traceback (most recent call last):
    ...
    ValueError: k must hold positive integers, got 0
    >>> check_counts("k", [1e308, 5])
    Traceback (most recent call last):
    ...
    ValueError: k must hold positive integers up to 2**63 - 1 (the largest supported count), got 1e+308
    """
    what = "a non-empty 1-D array of positive integers"
    if max_size is not None and isinstance(values, np.ndarray):
        _check_size(name, values, max_size)
    arr = _numeric_array(name, values, what)
    _check_size(name, arr, max_size)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be {what}, got {_short(values)}")
    if arr.dtype != object and np.issubdtype(arr.dtype, np.signedinteger) and maximum >= MAX_COUNT:
        bad = arr <= 0
        if np.any(bad):
            raise ValueError(f"{name} must hold positive integers, got {arr[bad][0].item()!r}")
        return arr.astype(np.int64)
    if arr.dtype != object and np.issubdtype(arr.dtype, np.floating):
        ok = np.isfinite(arr) & (arr > 0) & (arr == np.round(arr)) & (arr <= 2.0**53)
        if np.all(ok) and maximum >= 2**53:
            return arr.astype(np.int64)
    for v in arr.tolist():  # Python ints and floats: exact comparisons at any size
        if not (math.isfinite(_as_float(v)) and v == int(v)) or v <= 0:
            raise ValueError(f"{name} must hold positive integers, got {v!r}")
        if v > maximum:
            raise ValueError(f"{name} must hold positive integers up to {_limit(maximum)} (the largest supported count), "
                             f"got {format_value(v)}")
    return np.array([int(v) for v in arr.tolist()], dtype=np.int64)


def total(counts: Any) -> int:
    r"""The exact sum of an integer array, as a Python ``int`` (``arr.sum()`` wraps at 2**63).

    .. math:: \sum_i c_i \in \mathbb Z \quad\text{(arbitrary size; e.g. the } \sum_\ell m_\ell
              \text{ of Rameshwar and Tandon (2025), Lemma III.1)}

    Examples
    --------
    >>> total(np.array([2**62, 2**62]))
    9223372036854775808
    """
    arr = _numeric_array("counts", counts, "an array of integers")
    items = arr.ravel().tolist()
    if not all(isinstance(v, int) for v in items):
        raise ValueError(f"counts must be an array of integers, got {_short(counts)}")
    return sum(items)


def check_rng(name: str, rng: Any) -> np.random.Generator:
    """A numpy ``Generator`` from ``rng``: ``None``, a non-negative integer seed, a ``SeedSequence``,
    a ``BitGenerator`` or a ``Generator`` (returned as is).

    Examples
    --------
    >>> bool(check_rng("rng", 0).integers(10) == np.random.default_rng(0).integers(10))
    True
    >>> check_rng("seed", 3.0)
    Traceback (most recent call last):
    ...
    ValueError: seed must be None, a non-negative integer, a SeedSequence or a numpy Generator, got 3.0
    """
    if isinstance(rng, np.random.Generator):
        return rng
    ok = rng is None or isinstance(rng, (np.random.SeedSequence, np.random.BitGenerator)) or (
        isinstance(rng, numbers.Integral) and not _is_bool(rng) and int(rng) >= 0)
    if not ok:
        raise ValueError(f"{name} must be None, a non-negative integer, a SeedSequence or a numpy Generator, "
                         f"got {format_value(rng)}")
    return np.random.default_rng(int(rng) if isinstance(rng, numbers.Integral) else rng)


def check_precision(precision: Any) -> int | None:
    """Validate a ``precision`` argument: ``None`` (float64) or 1 to :data:`MAX_PRECISION` mpmath digits.

    Examples
    --------
    >>> check_precision(None) is None
    True
    >>> check_precision(30)
    30
    >>> check_precision(10**6)
    Traceback (most recent call last):
    ...
    ValueError: precision must be an integer in [1, 1000] (mpmath digits; None for float64), got 1000000
    """
    if precision is None:
        return None
    return check_integer("precision", precision, minimum=1, maximum=MAX_PRECISION, why="mpmath digits; None for float64")


# --------------------------------------------------------------------------- files the user names
#
# A file is opened exactly as named: the literal path (no glob, no ``~``), after checking it is a
# regular file, so that a FIFO, a device or a directory is refused before any read can block.

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _path(text: str) -> str:
    """A path for a message: quoted, cut after 240 characters (an over-long name is not printed whole)."""
    return format_value(text, 240)


def _file_kind(mode: int) -> str | None:
    """What a non-regular file is (``None`` for a regular file)."""
    return None if stat.S_ISREG(mode) else next((what for test, what in _KINDS if test(mode)), "not a regular file")


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if exc.errno == errno.ENAMETOOLONG:
        return "the name is too long for the file system"
    return exc.strerror or type(exc).__name__


def check_file(name: str, path: Any) -> str:
    """The path ``path`` (a ``str`` or ``os.PathLike``) as a string, after checking it names a regular file.

    The check uses ``os.stat`` (which never blocks): a missing file, a directory, a FIFO, a device, a
    socket, an over-long name or a name holding a NUL byte are refused with a ValueError naming ``name``.
    The path is used literally: no ``~`` expansion, no glob.

    Examples
    --------
    >>> check_file("counts", "/")
    Traceback (most recent call last):
    ...
    ValueError: counts: '/' is a directory, not a regular file
    """
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{name} must be a file path, got {_short(path)}")
    text = os.fspath(path)
    if not isinstance(text, str) or not text or "\0" in text:
        raise ValueError(f"{name} must be a file path, got {_short(path)}")
    try:
        mode = os.stat(text).st_mode
    except (OSError, ValueError) as exc:
        reason = _os_reason(exc) if isinstance(exc, OSError) else str(exc)
        raise ValueError(f"{name}: cannot read {_path(text)}: {reason}") from None
    kind = _file_kind(mode)
    if kind is not None:
        raise ValueError(f"{name}: {_path(text)} is {kind}, not a regular file")
    return text


def open_file(name: str, path: Any) -> BinaryIO:
    """``path`` opened for binary reading, literally, after :func:`check_file`.

    Opened without blocking (``O_NONBLOCK``) and checked again on the open descriptor, so that a
    file replaced by a FIFO between the two checks is refused too.
    """
    text = check_file(name, path)
    try:
        fd = os.open(text, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise ValueError(f"{name}: cannot read {_path(text)}: {_os_reason(exc)}") from None
    kind = _file_kind(os.fstat(fd).st_mode)
    if kind is not None:
        os.close(fd)
        raise ValueError(f"{name}: {_path(text)} is {kind}, not a regular file")
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


_READ_BLOCK = 2**24  # bytes read at a time by read_text


def read_text(name: str, path: Any, *, max_bytes: int | None = None) -> str:
    """The text of the file ``path``, decoded as UTF-8 with an optional byte-order mark (``utf-8-sig``).

    At most ``max_bytes`` bytes (``None``: no limit); a larger file, or bytes that are not UTF-8, are refused
    with a ValueError naming ``name``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".csv", delete=False) as f:
    ...     _ = f.write(b"\\xef\\xbb\\xbf1,500\\r\\n")
    >>> read_text("histogram", f.name)
    '1,500\\r\\n'
    >>> os.remove(f.name)
    """
    with open_file(name, path) as handle:
        try:  # in blocks: one read(max_bytes + 1) would reserve max_bytes of memory for a file of a few bytes
            limit = None if max_bytes is None else max_bytes + 1
            blocks, total = [], 0
            while limit is None or total < limit:
                block = handle.read(_READ_BLOCK if limit is None else min(_READ_BLOCK, limit - total))
                if not block:
                    break
                blocks.append(block)
                total += len(block)
            data = b"".join(blocks)
        except OSError as exc:
            raise ValueError(f"{name}: cannot read {_path(os.fspath(path))}: {_os_reason(exc)}") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise ValueError(f"{name}: {_path(os.fspath(path))} is larger than {_limit(max_bytes)} bytes "
                         "(the limit of a text input read into memory)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: {_path(os.fspath(path))} is not UTF-8 text (byte {data[exc.start]:#04x} "
                         f"at offset {exc.start})") from None
