"""``bounds advise``: a dataset's per-user counts (a counts file, a histogram, or records read by DuckDB) ->
one recommendation per model, every method's numbers, tuning curves.

``--records FILE --user COL --value COL`` also reads each user's values (DuckDB): the central errors and bounds are
then those of these values (checked to lie in [0, U]), else of the named synthetic law.  ``--private-selection
FRACTION`` spends that fraction of ε (and of α for DAME's m̃) choosing the bounds privately; without it the report
says that the bounds read from the data are not a private choice.

Output: the text report, or with ``--json`` the report as one JSON object on stdout; ``--save STEM``
writes STEM.png/.pdf (the tuning curves), STEM.csv (the curves' points) and STEM.json.  Bad input
prints one line naming the option and returns 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from typing import Any

from ._common import OptionError, add_json, add_parser, check_save

_OPTION_OF = {"eps": "--eps", "alpha": "--alpha", "U": "--U", "target": "--target", "theta": "--theta", "p": "--p",
              "sigma_p2": "--sigma-p2", "reps": "--reps", "seed": "--seed", "beta": "--beta",
              "interval_beta": "--interval-beta", "max_per_user": "--max-per-user",
              "private_selection": "--private-selection", "selection_max": "--selection-max", "rel_se": "--rel-se",
              "values": "--value"}


def register(subparsers: Any) -> None:
    """Add ``advise`` to ``subparsers`` (the theory is imported only when it runs)."""
    p = add_parser(subparsers, "advise", "per-user counts of a dataset: the recommended method per model, "
                                         "its contribution bound and error, tuning curves")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--counts", metavar="FILE", help="per-user counts: a text file (one per line) or a CSV (--column)")
    src.add_argument("--histogram", metavar="FILE", help="a histogram: CSV rows 'count,users' (optional header)")
    src.add_argument("--records", metavar="FILE",
                     help="a CSV or Parquet table of records, reduced by DuckDB out of core (with --user)")
    p.add_argument("--column", default=None, help="--counts: the CSV column holding the counts")
    p.add_argument("--user", default=None, help="--records: the column identifying the user")
    p.add_argument("--value", default=None, metavar="COL",
                   help="--records: the value column (in [0, U]); the central errors are then those of these values")
    p.add_argument("--private-selection", type=float, default=0.0, metavar="FRACTION",
                   help="spend this fraction of eps choosing the central bound privately (exponential mechanism); "
                        "default 0: the bound is read from the data, which is not private")
    p.add_argument("--selection-max", type=int, default=None,
                   help="--private-selection: the largest bound of its data-independent grid, in records per user "
                        "(default 10000)")
    p.add_argument("--rel-se", type=float, default=None,
                   help="re-simulate the recommended local method until its RMSE's s.e. is at most this fraction "
                        "(default 0.02)")
    p.add_argument("--eps", type=float, default=1.0, help="central privacy level epsilon (default 1)")
    p.add_argument("--alpha", type=float, default=0.5, help="local privacy level alpha (default 0.5)")
    p.add_argument("--U", type=float, default=1.0, help="central model: values lie in [0, U] (default 1)")
    p.add_argument("--target", type=float, default=0.05,
                   help="target error relative to the width of the value range, for the inverse questions")
    p.add_argument("--theta", type=float, default=0.3, help="mean of the synthetic two-point law (default 0.3)")
    p.add_argument("--p", type=float, default=0.5, help="Cummings et al.: mean of the meta-distribution")
    p.add_argument("--sigma-p2", type=float, default=0.01, help="Cummings et al.: its variance (default 0.01)")
    p.add_argument("--interval-beta", type=float, default=0.05,
                   help="Cummings et al.: failure probability of the clipping intervals (default 0.05)")
    p.add_argument("--beta", type=float, default=0.1,
                   help="report the (1 - beta) quantile of the simulated errors (default 0.1)")
    p.add_argument("--reps", type=int, default=64, help="replications per simulation; 0: none (default 64)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=int, default=2, help="processes for the methods, 1 to 64 (default 2; results do not depend on it)")
    p.add_argument("--max-per-user", type=int, default=10**5,
                   help="largest number of users a per-user simulation (DAME, Kent) draws (default 100000)")
    p.add_argument("--no-inverse", action="store_true", help="skip the smallest-level and smallest-n searches")
    add_json(p)
    p.add_argument("--save", metavar="STEM", help="write STEM.png/.pdf (tuning curves), STEM.csv (curves), STEM.json")
    p.set_defaults(func=run)


MAX_JOBS = 64
"""The most processes ``--jobs`` starts (as ``bounds figures --jobs``)."""

_DATA_OPTIONS = ("column", "user", "counts", "histogram", "records")


def _data_option(message: str, args: argparse.Namespace) -> str:
    """The option a message of :func:`bounds.advise.inputs.read_input` is about: its leading parameter name."""
    first = message.split(maxsplit=1)[0].rstrip(":,") if message.strip() else ""
    if first in _DATA_OPTIONS:
        return "--" + first
    return "--records" if args.records is not None else "--histogram" if args.histogram is not None else "--counts"


def run(args: argparse.Namespace) -> int:
    """Read the input, run :func:`bounds.advise.advise`, print the report; return the exit status."""
    from concurrent.futures import ProcessPoolExecutor

    from .._progress import tqdm

    check_save(args)
    for name in ("eps", "alpha", "U", "target"):
        v = getattr(args, name)
        if not (math.isfinite(v) and v > 0):
            raise OptionError(_OPTION_OF[name], f"must be a positive number, got {v!r}")
    if not 1 <= args.jobs <= MAX_JOBS:  # each job is a process: never more than a machine's worth
        raise OptionError("--jobs", f"must be an integer from 1 to {MAX_JOBS}, got {args.jobs!r}")
    if args.value is not None and args.records is None:
        raise OptionError("--value", "needs --records (the table holding the values)")
    if args.selection_max is not None and not args.private_selection > 0:
        raise OptionError("--selection-max", "applies to --private-selection only (the grid of its private choice)")
    if args.rel_se is not None and args.reps == 0:
        raise OptionError("--rel-se", "applies to simulations only; --reps 0 runs none")
    if not (0 <= args.private_selection < 1):
        raise OptionError("--private-selection", f"must be a fraction in [0, 1), got {args.private_selection!r}")
    option = "--records" if args.records is not None else "--histogram" if args.histogram is not None else "--counts"
    # shown before the theory is imported and the file read: a long read is never silent
    bar = tqdm(desc=f"advise: reading {option}", unit=" lines", unit_scale=True, leave=False,
               disable=True if args.json else None)
    from .. import advise
    from ..advise._read import reading

    try:
        with reading(bar):
            h = advise.inputs.read_input(counts=args.counts, histogram=args.histogram, records=args.records,
                                         column=args.column, user=args.user)
    except ValueError as exc:
        option = _data_option(str(exc), args)
        raise OptionError(option, str(exc).removeprefix(option[2:] + ": ")) from None
    if args.value is not None:
        try:
            values = advise.records_values(args.records, user=args.user, value=args.value, U=args.U)
        except ValueError as exc:
            raise OptionError("--value", str(exc)) from None
    else:
        values = None
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        rep = advise.advise(h, eps=args.eps, alpha=args.alpha, U=args.U, target=args.target, theta=args.theta,
                            p=args.p, sigma_p2=args.sigma_p2, interval_beta=args.interval_beta, beta=args.beta,
                            reps=args.reps, seed=args.seed, inverse=not args.no_inverse,
                            max_per_user=args.max_per_user, executor=pool, progress=not args.json,
                            values=values, private_selection=args.private_selection,
                            selection_max=10**4 if args.selection_max is None else args.selection_max,
                            rel_se=0.02 if args.rel_se is None else args.rel_se)
    except ValueError as exc:
        msg = str(exc)
        key = next((key for key in _OPTION_OF if msg.startswith((key + " ", key + ":"))), None)
        if key is None:
            raise
        raise OptionError(_OPTION_OF[key], msg.removeprefix(key + ": ")) from None
    finally:
        if pool is not None:
            pool.shutdown()
    if h.read is not None:
        rep = dataclasses.replace(rep, read=h.read)
    print(rep.to_json() if args.json else rep)
    if args.save:
        paths = rep.save(args.save)
        print("written: " + ", ".join(str(p) for p in paths), file=sys.stderr if args.json else sys.stdout)
    return 0
