"""The ``bounds advise`` command line: options, input selection, output (text or ``--json`` on stdout, ``--save``).

Bad input prints one line naming the option (``bounds advise: error: --eps: …``) and returns 2.
"""

from __future__ import annotations

import argparse
import math
import sys
from concurrent.futures import ProcessPoolExecutor

from .inputs import histogram, load_histogram, records_histogram


_OPTION_OF = {"counts": "--counts", "column": "--column", "eps": "--eps", "alpha": "--alpha", "U": "--U",
              "target": "--target", "theta": "--theta", "p": "--p", "sigma_p2": "--sigma-p2", "reps": "--reps",
              "seed": "--seed", "jobs": "--jobs", "beta": "--beta", "interval_beta": "--interval-beta",
              "max_per_user": "--max-per-user", "user": "--user"}


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``bounds advise`` options to ``parser`` and set ``func=main``.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> configure_parser(p)
    >>> p.parse_args(["--counts", "c.csv", "--eps", "2"]).eps
    2.0
    """
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--counts", metavar="FILE", help="per-user counts: a text file (one per line) or a CSV (--column)")
    src.add_argument("--histogram", metavar="FILE", help="a histogram: CSV rows 'count,users' (optional header)")
    src.add_argument("--records", metavar="FILE", help="a CSV or Parquet table of records, read by DuckDB (--user)")
    parser.add_argument("--column", default=None, help="--counts: the CSV column holding the counts")
    parser.add_argument("--user", default=None, help="--records: the column identifying the user")
    parser.add_argument("--eps", type=float, default=1.0, help="central privacy level epsilon (default 1)")
    parser.add_argument("--alpha", type=float, default=0.5, help="local privacy level alpha (default 0.5)")
    parser.add_argument("--U", type=float, default=1.0, help="central model: values lie in [0, U] (default 1)")
    parser.add_argument("--target", type=float, default=0.05,
                        help="target error relative to the width of the value range, for the inverse questions")
    parser.add_argument("--theta", type=float, default=0.3, help="mean of the synthetic two-point law (default 0.3)")
    parser.add_argument("--p", type=float, default=0.5, help="Cummings et al.: mean of the meta-distribution")
    parser.add_argument("--sigma-p2", type=float, default=0.01, help="Cummings et al.: its variance (default 0.01)")
    parser.add_argument("--interval-beta", type=float, default=0.05,
                        help="Cummings et al.: failure probability of the clipping intervals (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.1,
                        help="report the (1 - beta) quantile of the simulated errors (default 0.1)")
    parser.add_argument("--reps", type=int, default=64, help="replications per simulation; 0: none (default 64)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="processes for the methods (default 2; results do not depend on it)")
    parser.add_argument("--max-per-user", type=int, default=10**5,
                        help="largest number of users a per-user simulation (DAME, Kent) draws (default 100000)")
    parser.add_argument("--no-inverse", action="store_true", help="skip the smallest-level and smallest-n searches")
    parser.add_argument("--json", action="store_true", help="print the report as JSON on stdout instead of text")
    parser.add_argument("--save", metavar="STEM", help="write STEM.png/.pdf (tuning curves), .csv (curves), .json")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    """Run ``bounds advise`` from parsed arguments; print the report; return the exit status."""
    try:
        if args.records is not None:
            if not args.user:
                return _fail("--user: name the user column of --records")
            h = records_histogram(args.records, user=args.user)
        elif args.histogram is not None:
            h = load_histogram(args.histogram)
        else:
            h = histogram(args.counts, column=args.column)
    except ValueError as exc:
        which = "--records" if args.records else "--histogram" if args.histogram else "--counts"
        return _fail(f"{which}: {exc}")
    for name in ("eps", "alpha", "U", "target"):
        v = getattr(args, name)
        if not (math.isfinite(v) and v > 0):
            return _fail(f"{_OPTION_OF[name]} must be a positive number, got {v!r}")
    if args.jobs < 1:
        return _fail(f"--jobs must be a positive integer, got {args.jobs!r}")
    from . import advise  # noqa: PLC0415 - the package's entry point, defined after this module is imported

    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        rep = advise(h, eps=args.eps, alpha=args.alpha, U=args.U, target=args.target, theta=args.theta, p=args.p,
                     sigma_p2=args.sigma_p2, interval_beta=args.interval_beta, beta=args.beta, reps=args.reps,
                     seed=args.seed, inverse=not args.no_inverse, max_per_user=args.max_per_user, executor=pool,
                     progress=not args.json)
    except ValueError as exc:
        msg = str(exc)
        option = next((opt for key, opt in _OPTION_OF.items() if msg.startswith(key + " ")), None)
        return _fail(f"{option}: {msg}" if option else msg)
    finally:
        if pool is not None:
            pool.shutdown()
    print(rep.to_json() if args.json else rep)
    if args.save:
        paths = rep.save(args.save)
        print("written: " + ", ".join(str(p) for p in paths), file=sys.stderr if args.json else sys.stdout)
    return 0


def _fail(message: str) -> int:
    print(f"bounds advise: error: {message}", file=sys.stderr)
    return 2
