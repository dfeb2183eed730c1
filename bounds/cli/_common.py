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
    """Help whose text an option may compute only when help is shown (``help_factory`` on its action)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        factory = getattr(action, "help_factory", None)
        return factory().replace("%", "%%") if factory is not None else super()._get_help_string(action)


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


def integer(minimum: int) -> Callable[[str], int]:
    """A parser of integers >= ``minimum``."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer (or too many digits): {text!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {text!r}")
        return v

    parse.__name__ = f"integer >= {minimum}"
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
