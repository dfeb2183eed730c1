"""``bounds advise``: a dataset's per-user counts -> contribution bounds, error bounds, simulations."""

from __future__ import annotations

import argparse
from typing import Any

from ._common import add_parser


def register(subparsers: Any) -> None:
    """Add ``advise`` to ``subparsers`` (the options of :func:`bounds.advise.configure_parser`, without importing it)."""
    p = add_parser(subparsers, "advise", "per-user counts of a dataset: contribution bounds, error bounds, simulations")
    p.add_argument("--counts", required=True, metavar="FILE",
                   help="per-user counts: a text file (one per line) or a CSV (with --column)")
    p.add_argument("--column", default=None, help="the CSV column holding the counts")
    p.add_argument("--eps", type=float, default=1.0, help="central privacy level epsilon (default 1)")
    p.add_argument("--alpha", type=float, default=0.5, help="local privacy level alpha (default 0.5)")
    p.add_argument("--U", type=float, default=1.0, help="central model: values lie in [0, U] (default 1)")
    p.add_argument("--target", type=float, default=0.05,
                   help="target error relative to the width of the value range (default 0.05)")
    p.add_argument("--theta", type=float, default=0.3, help="mean of the synthetic two-point law (default 0.3)")
    p.add_argument("--p", type=float, default=0.5, help="Cummings et al.: mean of the meta-distribution")
    p.add_argument("--sigma-p2", type=float, default=0.01, help="Cummings et al.: its variance (default 0.01)")
    p.add_argument("--reps", type=int, default=64, help="replications per simulation (default 64)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=int, default=2,
                   help="processes for the simulations and searches (default 2; results do not depend on it)")
    p.add_argument("--no-inverse", action="store_true", help="skip the smallest-level and smallest-n searches")
    p.add_argument("--markdown", metavar="FILE.md", help="also write the report as Markdown")
    p.add_argument("--json", metavar="FILE.json", help="also write the report as JSON")
    p.add_argument("--save", metavar="STEM", help="write STEM.png/.pdf/.csv/.json/.md (figure, data, report)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run :func:`bounds.advise.main` on the parsed arguments; return its exit status."""
    from .. import advise

    return advise.main(args)
