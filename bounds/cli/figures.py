"""``bounds figures``: regenerate the papers' figures (PNG, PDF, CSV, JSON)."""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from typing import Any

from ._common import OptionError, add_json, add_parser, integer, lazy_help, plain, writable_dir

MAX_JOBS = 64
DEFAULT_JOBS_CAP = 4  # the default processes of a full run: the cores, up to this


def _ids() -> str:
    from .. import figures

    return f"figures to make: {', '.join(sorted(figures.REGISTRY))}"


def register(subparsers: Any) -> None:
    """Add ``figures`` to ``subparsers``."""
    p = add_parser(subparsers, "figures", "regenerate the papers' figures (PNG, PDF, CSV, JSON)")
    lazy_help(p.add_argument("--only", nargs="+", metavar="ID", help="figures to make (default: all)"), _ids)
    p.add_argument("--quick", action="store_true", help="small grids and replications (for CI)")
    p.add_argument("--out", default="figures", help="output folder (default: figures)")
    p.add_argument("--jobs", type=integer(1, MAX_JOBS), default=None,
                   help=f"processes for the Monte Carlo, 1 to {MAX_JOBS} (default: the cores, up to 4; one with "
                        "--quick, whose Monte Carlo is too small to pay for starting workers; results do not depend "
                        "on it)")
    p.add_argument("--constants", default="unit", choices=["paper", "unit"],
                   help="DAME constants for Figure 1a (default unit: the paper's parallel lines; note that "
                        "`bounds dame` defaults to paper constants)")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    add_json(p)
    p.set_defaults(func=run)


def _cpu() -> float:
    """User + system CPU seconds of this process and its finished children."""
    return sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))


def run(args: argparse.Namespace) -> int:
    """Make the figures, printing each one's line as its files are written (a bar over the figures on stderr
    unless ``--quiet``, shown before the plotting libraries are imported); return the exit status."""
    start = time.perf_counter()
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(desc="figures", unit="fig", file=sys.stderr)
        bar.set_postfix_str("importing numpy, scipy, matplotlib")
    try:
        return _run(args, bar, start)
    except BaseException:
        if bar is not None:  # the error's message alone stays on the terminal
            bar.leave = False
        raise
    finally:
        if bar is not None:
            bar.close()


def _run(args: argparse.Namespace, bar: Any, start: float) -> int:
    from .. import figures

    unknown = [f for f in args.only or () if f not in figures.REGISTRY]
    if unknown:
        raise OptionError("--only", f"unknown figure {unknown[0]!r}; choose from {', '.join(sorted(figures.REGISTRY))}")
    writable_dir("--out", args.out)
    if args.jobs is None:  # a quick run's Monte Carlo takes about a second: workers cost more CPU than that
        args.jobs = 1 if args.quick else min(os.cpu_count() or 1, DEFAULT_JOBS_CAP)
    width = max(map(len, args.only or figures.REGISTRY))

    def line(made: Any) -> None:
        if args.json:
            return
        text = (f"  {made.id:{width}s} {len(made.data.rows):6d} rows  {made.seconds:7.2f} s   "
                f"{made.paths[0].parent}/{made.id}.{{png,pdf,csv,json}}")
        if bar is None:
            print(text, flush=True)
        else:
            bar.write(text, file=sys.stdout)
            sys.stdout.flush()

    res = figures.run(args.only, quick=args.quick, out=args.out, jobs=args.jobs, constants=args.constants,
                      progress=bar if bar is not None else False, on_made=line)
    cpu = _cpu()
    if args.json:
        made = {fid: {"rows": len(data.rows), "files": [str(p) for p in paths]} for fid, (data, paths) in res.items()}
        print(json.dumps({"command": "figures", "inputs": plain({k: getattr(args, k) for k in
                                                                 ("only", "quick", "out", "jobs", "constants")}),
                          "figures": made, "wall_time_s": time.perf_counter() - start, "cpu_s": cpu}))
        return 0
    if bar is not None:
        bar.close()
    print(f"{len(res)} figure{'s' if len(res) != 1 else ''} in {time.perf_counter() - start:.1f} s ({cpu:.1f} s of CPU, "
          f"{args.jobs} process{'es' if args.jobs != 1 else ''})"
          + (" (quick settings)" if args.quick else ""))
    return 0
