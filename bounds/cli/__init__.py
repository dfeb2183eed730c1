"""The ``bounds`` command line.

One module per subcommand (:mod:`~bounds.cli.dame`, :mod:`~bounds.cli.kent`,
:mod:`~bounds.cli.cummings`, :mod:`~bounds.cli.rameshwar`, :mod:`~bounds.cli.advise`,
:mod:`~bounds.cli.check`, :mod:`~bounds.cli.figures`), each with ``register(subparsers)``
and ``run(args) -> int``; shared option helpers in :mod:`~bounds.cli._common`.  Building the
parser imports only the standard library; each ``run`` imports the theory it needs.

Every subcommand answers bad input with one line on stderr naming the option
(``bounds <command>: error: --option: …``) and exit status 2 — never a
traceback.  The calculators (``dame``, ``rameshwar``, ``kent``, ``cummings``)
take ``--json`` to print their result as one JSON object (the result
dataclasses' fields; non-finite numbers as ``null``).

Examples
--------
>>> main(["dame", "--sizes", "point:100", "--n-alpha2", "1e4", "--constants", "unit"])
DAME bounds — Pla et al. (2024), Theorems 1-2, eqs. (10)-(12)
  metric        worst-case mean squared error (MSE) of the estimated mean; logs are natural (ln)
  size law M    point(m=100)   E[m] = 100
  n alpha^2     10000
  constants     unit: c1=1, c2=1, c3=1, c4=1, c5=1
                (--constants paper for the other preset; `bounds figures` defaults to unit constants)
  precision     float64
  m_tilde       100   (effective size, eq. (12))
  upper bound   6.907755279e-06   MSE bound, Theorem 2, eq. (11)   (ln -11.88286582)
  lower bound   1e-06   MSE bound, Theorem 1, eq. (10), at a = 100   (ln -13.81551056)
0
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any, Sequence

from . import advise, check, cummings, dame, figures, kent, rameshwar
from ._common import OptionError, option_of

# the order of ``bounds --help``
SUBCOMMANDS = (dame, rameshwar, kent, cummings, advise, check, figures)


class _Version(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version of bounds and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from .. import __version__

        print(f"bounds {__version__}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    r"""The ``bounds`` argument parser: one subcommand per calculator, plus ``advise``, ``check``, ``figures``.

    =============  ==========================================================================
    subcommand     computes (source)
    =============  ==========================================================================
    ``dame``       upper and lower bounds of Pla et al. (2024), Theorems 1–2, eqs. (10)–(12)
    ``rameshwar``  :math:`T_\varepsilon`, the clipping, :math:`E^{\mathrm{OPT}}` and the LP of
                   Rameshwar and Tandon (2025), Theorem III.1, Lemma III.1, eqs. (8), (12)
    ``kent``       the rates and :math:`T^\dagger` of Kent et al. (2024), Theorems 6, 8, 9
    ``cummings``   :math:`k^*`, :math:`T^*` and the bound of Cummings et al. (2022),
                   eqs. (5)–(6), Corollary 5.5
    ``advise``     contribution bounds and errors for a dataset's per-user counts
    ``check``      the numerical audit of the papers' lemmas and claims
    ``figures``    the papers' figures (PNG, PDF, CSV, JSON)
    =============  ==========================================================================

    Each subcommand's ``run`` is stored as ``func`` in the parsed arguments; the
    calculators take ``--json``.  :func:`main` runs it.

    Examples
    --------
    >>> args = build_parser().parse_args(["kent", "--n", "100", "--T", "10", "--alpha", "0.5"])
    >>> args.command, args.problem, args.n, args.T, args.alpha, args.json
    ('kent', 'mean', 100, 10, 0.5, False)
    """
    parser = argparse.ArgumentParser(prog="bounds", description="Reference calculator for user-level DP mean estimation.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True)
    for module in SUBCOMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``bounds`` console script; returns the exit status.

    Any failure of a subcommand prints one line on stderr — ``bounds <command>: error:
    <option>: <message>`` — and returns 2.

    Examples
    --------
    >>> main(["rameshwar", "--collection", "counts:1,4", "--U", "10", "--eps", "1", "--json"])  # doctest: +ELLIPSIS
    {"command": "rameshwar", ..."optimal_error": 5.0, ...}
    0
    """
    tokens = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(tokens)
    try:
        _refuse_empty_values(tokens)
        status: int = args.func(args)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        message = "interrupted"
    except BrokenPipeError:  # the reader of stdout left (`bounds ... --csv | head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OptionError as exc:
        message = f"{exc.option}: {exc}"
    except ValueError as exc:
        option = _option_for(args, str(exc))
        message = f"{option}: {exc}" if option else str(exc)
    except OverflowError as exc:  # a value past the float range met in a computation: the option that set it
        option = _extreme_option(tokens) or _given(args)
        message = f"{option + ': ' if option else ''}the computation leaves the float range ({exc})"
    except OSError as exc:  # a write after the computation (--save), or a read
        save = getattr(args, "save", None)
        writing = isinstance(save, str) and (not exc.filename or str(exc.filename).startswith(save))
        option = "--save" if writing else _given(args)
        what = ("cannot write" if writing else "cannot read") + (f" {exc.filename!r}" if exc.filename else "")
        message = f"{option + ': ' if option else ''}{what}: {exc.strerror or exc}"
    except Exception as exc:  # never a traceback: one line, the failure's type and message
        message = f"{type(exc).__name__}: {exc}"
    print(f"bounds {args.command}: error: {' '.join(message.split())}", file=sys.stderr)
    return 2


_INPUTS = ("counts", "histogram", "records")  # the options of a command that read the data


def _has(args: argparse.Namespace, option: str) -> bool:
    """The subcommand of ``args`` has ``option`` (each part of ``--n/--alpha``)."""
    return all(hasattr(args, part.lstrip("-").replace("-", "_")) for part in option.split("/"))


def _given(args: argparse.Namespace) -> str | None:
    """The data option the user gave (``--counts``, ``--histogram``, ``--records``), if any."""
    return next((f"--{name}" for name in _INPUTS if getattr(args, name, None) is not None), None)


def _extreme_option(tokens: list[str]) -> str | None:
    """The option given the most extreme number (magnitude past 1e100 or below 1e-100), if any: the likely
    cause of an overflow inside a computation (``--U 1e308``)."""
    worst, found = 100.0, None
    for name, value in zip(tokens, tokens[1:]):
        if name.startswith("--"):
            for part in value.replace(":", ",").replace("=", ",").split(","):
                try:
                    v = abs(float(part))
                except ValueError:
                    continue
                size = abs(math.log10(v)) if 0 < v < math.inf else 0.0
                if size > worst:
                    worst, found = size, name
    return found


def _option_for(args: argparse.Namespace, message: str) -> str | None:
    """The option of this subcommand a library message names: its parameter's option when the command has it,
    ``--counts`` for counts read from a file, else the data option given (``counts …``, ``n …`` of ``advise``)."""
    option = option_of(message)
    if option in ("--k", "--collection") and getattr(args, "counts", None) is not None:
        return "--counts"
    if option is not None and _has(args, option):
        return option
    return _given(args) if option is not None or message.startswith(("counts", "source", "path")) else None


def _refuse_empty_values(tokens: list[str]) -> None:
    """An option given an empty value (``--report ''``, ``--save=``) is refused by name."""
    for i, token in enumerate(tokens):
        if token == "--":
            return
        if not token.startswith("--"):
            continue
        name, eq, value = token.partition("=")
        if eq and not value.strip():
            raise OptionError(name, "empty value")
        if not eq and i + 1 < len(tokens) and not tokens[i + 1].strip():
            raise OptionError(token, "empty value")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
