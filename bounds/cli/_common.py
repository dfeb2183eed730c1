"""Option helpers shared by the ``bounds`` subcommands.

Everything here imports only the standard library: ``bounds --help`` and the
parsing of every option stay fast, and the theory modules (numpy, scipy, sympy,
mpmath) are imported by a subcommand's ``run`` when it needs them.

Examples
--------
>>> number("1e3"), integer(1)("7")
(1000.0, 7)
>>> plain({"x": float("inf"), "y": (1, 2.5)})
{'x': None, 'y': [1, 2.5]}
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import numbers
import os
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ..sizes import SizeLaw


class OptionError(ValueError):
    """Bad command-line input, attributed to ``option``."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option


# =========================================================================== parsers


class HelpFormatter(argparse.HelpFormatter):
    """Every option's help with its default; a help an option computes only when shown (``help_factory``)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        factory = getattr(action, "help_factory", None)
        text = factory().replace("%", "%%") if factory is not None else (action.help or "")
        shown = action.option_strings and action.default not in (None, False, argparse.SUPPRESS)
        return text + " (default: %(default)s)" if shown and "(default" not in text else text


def add_parser(subparsers: Any, name: str, help: str, **kwargs: Any) -> argparse.ArgumentParser:
    """A subcommand's parser: ``help`` in the command list and as its description, the shared formatter."""
    parser: argparse.ArgumentParser = subparsers.add_parser(name, help=help, description=help,
                                                            formatter_class=HelpFormatter, **kwargs)
    return parser


def lazy_help(action: argparse.Action, factory: Callable[[], str]) -> None:
    """Let ``action``'s help be ``factory()``, called only when help is printed (e.g. a list of IDs)."""
    setattr(action, "help_factory", factory)


# =========================================================================== argument types


def number(text: str) -> float:
    """A finite float (``--alpha 0.5``, ``--n-alpha2 1e4``)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return v


def positive(text: str) -> float:
    """A finite float > 0."""
    v = number(text)
    if v <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return v


MAX_EXPONENT = 1000  # 1e1000 is the largest integer option read from scientific notation


def exact_integer(text: str) -> int:
    """``text`` as an integer: ``1000``, ``1_000``, or scientific notation when exact (``1e6``, ``2.5e3``).

    Raises ``ValueError`` for ``1.5``, ``1e-3``, ``nan``, ``abc`` or an exponent beyond 1e1000.
    """
    try:
        return int(text)
    except ValueError:
        pass
    try:
        v = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"not an integer: {text!r}") from None
    if not v.is_finite():
        raise ValueError(f"not an integer: {text!r}")
    if v.adjusted() > MAX_EXPONENT:
        raise ValueError(f"too large (above 1e{MAX_EXPONENT}): {text!r}")
    if v != v.to_integral_value():
        raise ValueError(f"not an integer: {text!r}")
    return int(v)


def integer(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """A parser of integers in ``[minimum, maximum]`` (``1e6`` accepted when exact)."""
    want = f">= {minimum}" + ("" if maximum is None else f" and <= {maximum}")

    def parse(text: str) -> int:
        try:
            v = exact_integer(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"must be an integer {want}: {exc}") from None
        if v < minimum or (maximum is not None and v > maximum):
            raise argparse.ArgumentTypeError(f"must be an integer {want}, got {text!r}")
        return v

    parse.__name__ = f"integer {want}"
    return parse


# =========================================================================== results as text and JSON


def fmt(v: Any, precision: int | None) -> str:
    """``v`` with 10 significant digits, or ``precision`` digits (mpmath) when given."""
    if precision is None:
        return f"{float(v):.10g}"
    import mpmath

    return str(mpmath.nstr(v, precision))


def plain(obj: Any) -> Any:
    """A result as JSON-ready data: dataclass fields, arrays as lists, exact numbers as floats, non-finite as None."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if hasattr(obj, "dtype") and hasattr(obj, "tolist"):  # numpy arrays and scalars
        return plain(obj.tolist())
    if isinstance(obj, (bool, str)) or obj is None:
        return obj
    if type(obj).__module__.startswith("sympy"):  # before numbers: sympy registers its numbers there
        return str(obj)
    if isinstance(obj, numbers.Integral):
        return int(obj)
    if isinstance(obj, (numbers.Real, Fraction)):
        v = float(obj)
        return v if math.isfinite(v) else None
    return repr(obj)  # a size law: its constructor call


def print_json(command: str, inputs: dict[str, Any], **results: Any) -> int:
    """Print ``{"command", "inputs", **results}`` as one strict JSON object on stdout; return 0."""
    print(json.dumps({"command": command, "inputs": plain(inputs), **{k: plain(v) for k, v in results.items()}},
                     allow_nan=False))
    return 0


JSON_HELP = "print the result as one JSON object on stdout (the result's fields; non-finite numbers as null)"


def add_json(parser: argparse.ArgumentParser) -> None:
    """The ``--json`` flag every subcommand takes."""
    parser.add_argument("--json", action="store_true", help=JSON_HELP)


# =========================================================================== files


def writable_file(option: str, path: str) -> Path:
    """``path`` after checking a file can be written there (before any long computation)."""
    target = Path(path)
    if target.is_dir():
        raise OptionError(option, f"{path!r} is a directory, not a file")
    try:
        with open(target, "a"):
            pass
    except OSError as exc:
        raise OptionError(option, f"cannot write {path!r}: {exc.strerror or exc}") from None
    return target


def writable_dir(option: str, path: str) -> Path:
    """``path`` created if needed, after checking files can be written in it."""
    target = Path(path)
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / ".bounds-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise OptionError(option, f"cannot write in {path!r}: {exc.strerror or exc}") from None
    return target


# =========================================================================== size laws


_LAW_ARITY = {"poisson": (1, 1), "binomial": (2, 2), "uniform": (2, 2), "point": (1, 1), "geometric": (1, 1),
              "zipf": (1, 1), "empirical": (1, None), "finite": (1, None)}


def law(spec: str, option: str = "--sizes") -> SizeLaw:
    """A size law from ``spec``, its number of parameters checked before ``sizes.parse`` reads it."""
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    params = [x.strip() for x in rest.split(",") if x.strip()]
    if kind in _LAW_ARITY:
        lo, hi = _LAW_ARITY[kind]
        if len(params) < lo or (hi is not None and len(params) > hi):
            want = f"{lo}" if lo == hi else f"at least {lo}"
            raise OptionError(option, f"{kind} takes {want} parameter{'s' if lo > 1 else ''}, got {len(params)} in {spec!r}")
        if kind == "finite" and any(x.count("=") != 1 for x in params):
            raise OptionError(option, f"finite takes size=mass pairs, e.g. finite:1=0.5,100=0.5; got {spec!r}")
    from .. import sizes

    try:
        return sizes.parse(spec)
    except Exception as exc:
        raise OptionError(option, str(exc)) from None


# =========================================================================== library errors -> options


# A library message starts with the parameter's name; this maps it to the option that set it.
OPTION_OF = {
    "n": "--n", "alpha": "--alpha", "n_alpha2": "--n-alpha2", "precision": "--precision", "constants": "--constants",
    "sizes": "--sizes", "eps": "--eps", "U": "--U", "p": "--p", "sigma_p2": "--sigma-p2", "beta": "--beta",
    "d": "--d", "s": "--s", "T": "--T", "ball": "--ball", "problem": "--problem", "sample counts k": "--k",
    "contribution counts m": "--collection", "n·alpha²": "--n/--alpha", "n·T·alpha²": "--n/--T/--alpha",
    "the sparse problem": "--s", "the density problem": "--beta", "the linear programme": "--collection",
}


def option_of(message: str) -> str | None:
    """The option whose parameter a library error ``message`` names (its first words), or None."""
    keys = [k for k in OPTION_OF if message.startswith(k + " ") or message.startswith(k + ":")]
    return OPTION_OF[max(keys, key=len)] if keys else None


# =========================================================================== counts from a file


MAX_COUNTS = 10_000_000  # values read from one --counts file


def read_counts(path: str, option: str = "--counts", column: str | None = None,
                report: dict[str, Any] | None = None) -> list[int]:
    """Positive integer counts from ``path`` (``-``: standard input), read line by line.

    Each line holds counts separated by commas or blanks; ``#`` starts a comment.  With ``column``
    the file is a CSV with a header and the counts are that column.  The file is opened as named (a
    regular file only) and decoded as UTF-8 with an optional byte-order mark.  Errors name ``option``,
    the file and the line.  ``report``, when given, receives ``lines`` (read), ``used`` (holding
    counts), ``header``, ``blank`` and ``comment`` (lines dropped, by reason).
    """
    import csv
    import io
    import sys

    from ..numerics._checks import open_file

    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        handle: io.TextIOBase = (sys.stdin if stdin is None  # type: ignore[assignment]
                                 else io.TextIOWrapper(stdin, encoding="utf-8-sig", newline=""))
    else:
        try:  # the literal path, a regular file only: a FIFO or a device is refused before it can block
            handle = io.TextIOWrapper(open_file(option, path), encoding="utf-8-sig", newline="")
        except ValueError as exc:
            raise OptionError(option, str(exc).removeprefix(f"{option}: ")) from None
    counts: list[int] = []
    tally: dict[str, Any] = {"lines": 0, "used": 0, "header": None, "blank": 0, "comment": 0}

    def add(token: str, where: str) -> None:
        try:
            v = exact_integer(token)
        except ValueError as exc:
            raise OptionError(option, f"{path}, {where}: {exc}") from None
        if v < 1:
            raise OptionError(option, f"{path}, {where}: counts must be positive integers, got {token!r}")
        if len(counts) >= MAX_COUNTS:
            raise OptionError(option, f"{path}: more than {MAX_COUNTS} counts")
        counts.append(v)

    try:
        with handle:
            if column is not None:
                reader = csv.DictReader(handle)
                if reader.fieldnames is None or column not in reader.fieldnames:
                    raise OptionError("--column", f"{path} has no column {column!r} (columns: {reader.fieldnames})")
                tally.update(header=",".join(reader.fieldnames), lines=1)
                for row in reader:
                    add(row[column] or "", f"line {reader.line_num}")
                tally["used"] = len(counts)
                tally["lines"] = reader.line_num
                tally["blank"] = reader.line_num - 1 - len(counts)  # DictReader skips blank lines
            else:
                for number_, line in enumerate(handle, 1):
                    tally["lines"] = number_
                    tokens = line.split("#", 1)[0].replace(",", " ").split()
                    if not tokens:
                        tally["comment" if "#" in line else "blank"] += 1
                    for token in tokens:
                        add(token, f"line {number_}")
                    tally["used"] += bool(tokens)
    except UnicodeDecodeError:
        raise OptionError(option, f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise OptionError(option, f"cannot read {path!r}: {exc.strerror or exc}") from None
    if not counts:
        raise OptionError(option, f"{path} holds no counts")
    if report is not None:
        report.update(tally)
    return counts


def describe_read(path: str, report: dict[str, Any]) -> str:
    """One line: the lines of ``path`` read, used, and dropped by reason (from :func:`read_counts`' report)."""
    why = ([f"1 header line ({report['header']})"] if report.get("header") else []) + \
          [f"{report[k]} {k} line{'s' if report[k] != 1 else ''}" for k in ("blank", "comment") if report.get(k)]
    return (f"{path}: {report['lines']} line{'s' if report['lines'] != 1 else ''} read, {report['used']} used"
            + (f"; dropped: {', '.join(why)}" if why else ""))


def add_counts(parser: argparse.ArgumentParser, inline: str, inline_help: str, what: str) -> None:
    """The counts of a command: inline (``inline``) or ``--counts FILE`` (with ``--column``), exactly one."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(inline, help=inline_help)
    source.add_argument("--counts", metavar="FILE",
                        help=f"{what} from a file (- for stdin): counts separated by commas, blanks or lines, "
                             "or a CSV column with --column")
    parser.add_argument("--column", default=None, help="the CSV column of --counts holding the counts")


def counts_file(args: argparse.Namespace) -> list[int] | None:
    """The counts of ``--counts FILE`` (None without it); ``--column`` only with it."""
    if args.column is not None and args.counts is None:
        raise OptionError("--column", "names a column of --counts FILE")
    if args.counts is None:
        return None
    report: dict[str, Any] = {}
    counts = read_counts(args.counts, "--counts", args.column, report)
    args.counts_read = report
    return counts


def summary(counts: list[int]) -> str:
    """One line describing many counts: how many, range, median, total."""
    ordered = sorted(counts)
    mid = ordered[len(ordered) // 2]
    return (f"{len(counts)} users, counts from {ordered[0]} to {ordered[-1]}, median {mid}, "
            f"total {sum(counts)}, {len(set(counts))} distinct")


SHOWN_ROWS = 12  # rows of a per-user table printed before it is summarised


def table(header: str, rows: list[str]) -> list[str]:
    """``header`` and ``rows``, the middle left out (with a note) beyond :data:`SHOWN_ROWS` rows."""
    if len(rows) <= SHOWN_ROWS:
        return [header, *rows]
    half = SHOWN_ROWS // 2
    return [header, *rows[:half], f"  ... {len(rows) - 2 * half} rows left out (--json or --save for all) ...",
            *rows[-half:]]


# =========================================================================== output: text, --json, --save


def add_output(parser: argparse.ArgumentParser) -> None:
    """``--json`` (one JSON object on stdout) and ``--save STEM`` (STEM.txt and STEM.json)."""
    add_json(parser)
    parser.add_argument("--save", metavar="STEM",
                        help="also write the text report to STEM.txt and the JSON object to STEM.json "
                             "(and a sweep's table to STEM.csv)")


def emit(args: argparse.Namespace, command: str, inputs: dict[str, Any], results: dict[str, Any],
         lines: list[str], csv_text: str | None = None) -> int:
    """Print ``lines`` (or the JSON object with ``--json``, the CSV with ``--csv``); write ``--save`` files; return 0."""
    obj = {"command": command, "inputs": plain(inputs), **{k: plain(v) for k, v in results.items()}}
    text = json.dumps(obj, allow_nan=False)
    if getattr(args, "json", False):
        print(text)
    elif csv_text is not None and getattr(args, "csv", False):
        print(csv_text, end="")
    else:
        print("\n".join(lines))
    stem = getattr(args, "save", None)
    if stem:
        files = {".txt": "\n".join(lines) + "\n", ".json": text + "\n"}
        if csv_text is not None:
            files[".csv"] = csv_text
        for suffix, content in files.items():
            try:
                Path(stem + suffix).write_text(content)
            except OSError as exc:  # a full disk, a file made read-only during the run: named, not a traceback
                raise OptionError("--save", f"cannot write {stem + suffix!r}: {exc.strerror or exc}") from None
        if not getattr(args, "json", False) and not getattr(args, "csv", False):
            print(f"written: {', '.join(stem + s for s in files)}")
    return 0


def check_save(args: argparse.Namespace) -> None:
    """Refuse an unwritable ``--save STEM`` before any computation."""
    stem = getattr(args, "save", None)
    if stem is not None:
        if not stem.strip() or stem.endswith(("/", ".")):
            raise OptionError("--save", f"needs a file stem such as results/run1, got {stem!r}")
        folder = Path(stem).parent
        try:
            if not folder.is_dir():
                raise OptionError("--save", f"no folder {str(folder)!r} to write {stem!r}.*")
            if not os.access(folder, os.W_OK):
                raise OptionError("--save", f"cannot write in {str(folder)!r}")
            for suffix in (".txt", ".json", ".csv", ".png", ".pdf"):
                target = Path(stem + suffix)
                if target.is_dir():
                    raise OptionError("--save", f"{stem + suffix!r} is a directory")
                if target.exists() and not target.is_file():  # a FIFO would block the write, a device swallow it
                    raise OptionError("--save", f"{stem + suffix!r} exists and is not a regular file")
            longest = len(Path(stem + ".json").name.encode())
            if hasattr(os, "pathconf") and longest > os.pathconf(folder, "PC_NAME_MAX"):
                raise OptionError("--save", f"the file name {Path(stem).name[:40]!r}... is too long for the file system")
        except OSError as exc:  # an over-long or unreadable name
            raise OptionError("--save", f"cannot write {stem[:80]!r}.*: {exc.strerror or exc}") from None
