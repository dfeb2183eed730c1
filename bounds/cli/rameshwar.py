"""``bounds rameshwar``: Rameshwar & Tandon's T_eps, the optimal clipping, E_OPT and the LP.

The users' contribution counts come from ``--collection`` (``geometric:M``, ``extreme:L,m_star``,
``counts:m1,m2,...``) or a file (``--counts FILE``); long inputs are summarised.  Errors are
worst-case absolute errors (bias + E|Laplace noise|), not MSEs.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from fractions import Fraction
from typing import Any

from ._common import (OptionError, add_output, add_parser, check_save, emit, exact_integer, positive, read_counts,
                      summary, table)

_COLLECTIONS = {"geometric": 1, "extreme": 2}


def register(subparsers: Any) -> None:
    """Add ``rameshwar`` to ``subparsers``."""
    p = add_parser(subparsers, "rameshwar", "Rameshwar-Tandon: T_eps, the optimal clipping, E_OPT and the LP "
                                            "(worst-case absolute errors)")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--collection", help="geometric:M, extreme:L,m_star or counts:m1,m2,...")
    source.add_argument("--counts", metavar="FILE",
                        help="the users' contribution counts m_l from a file (- for stdin): counts separated by "
                             "commas, blanks or lines, or a CSV column with --column")
    p.add_argument("--column", default=None, help="the CSV column of --counts holding the counts")
    p.add_argument("--U", type=positive, default=65.0, help="samples lie in (0, U]")
    p.add_argument("--eps", type=positive, required=True, help="central privacy level epsilon")
    add_output(p)
    p.set_defaults(func=run)


def collection(spec: str) -> Any:
    """``--collection``: ``geometric:M``, ``extreme:L,m_star`` or ``counts:m1,m2,...``, with exact arity."""
    kind, _, rest = spec.partition(":")
    params = [a.strip() for a in rest.split(",")] if rest.strip() else []
    usage = "use geometric:M, extreme:L,m_star or counts:m1,m2,..."
    if kind not in (*_COLLECTIONS, "counts"):
        raise OptionError("--collection", f"cannot read collection {spec!r}: {usage}")
    want = _COLLECTIONS.get(kind)
    if (want is not None and len(params) != want) or not params:
        raise OptionError("--collection", f"{kind} takes {want or 'at least 1'} parameter(s), got {len(params)} in {spec!r}")
    try:
        ints = [exact_integer(a) for a in params]
    except ValueError:
        raise OptionError("--collection", f"cannot read collection {spec!r}: parameters must be integers") from None
    import numpy as np

    from .. import rameshwar

    try:
        if kind == "geometric":
            return rameshwar.geometric(ints[0])
        if kind == "extreme":
            return rameshwar.extreme(*ints)
        return np.asarray(ints, dtype=object)
    except ValueError as exc:
        raise OptionError("--collection", str(exc)) from None


def run(args: argparse.Namespace) -> int:
    """Compute and print the clipping and errors; return the exit status."""
    if args.column is not None and args.counts is None:
        raise OptionError("--column", "names a column of --counts FILE")
    check_save(args)
    if args.counts is not None:
        import numpy as np

        m = np.asarray(read_counts(args.counts, "--counts", args.column), dtype=object)
    else:
        m = collection(args.collection)
    from .. import rameshwar
    from ..references import RAMESHWAR

    lp = rameshwar.lp_optimum(m, U=args.U, eps=args.eps)  # first: it refuses collections too large to solve
    c = rameshwar.clipping(m, U=args.U, eps=args.eps)
    e_opt = rameshwar.optimal_error(m, U=args.U, eps=args.eps)
    eq12 = rameshwar.eq12_as_printed(m, U=args.U, eps=args.eps)
    counts = [int(v) for v in m]
    rank = math.ceil(2 / Fraction(args.eps))
    users = Counter(counts)
    first = {m_l: i for i, m_l in reversed(list(enumerate(counts)))}
    rows = [f"  {m_l:6d} {users[m_l]:6d} {c.a[first[m_l]]:12.6g} {c.b[first[m_l]]:12.6g}"
            for m_l in sorted(users, reverse=True)]
    source = args.collection if args.counts is None else f"{args.counts}"
    lines = [f"Rameshwar & Tandon — worst-case-optimal clipping ({RAMESHWAR.cite()}, Theorem III.1, Lemma III.1)",
             f"  collection    {source}   L = {len(counts)}, sum m = {sum(counts)}, m* = {max(counts)}",
             *([f"                {summary(counts)}"] if len(counts) > 20 else []),
             f"  U, eps        {args.U:g}, {args.eps:g}   rank ceil(2/eps) = {rank}",
             "  metric        worst-case error over datasets = max bias + E|Laplace noise| (absolute error, not MSE)",
             f"  T_eps         {c.threshold:.10g}   (Theorem III.1's threshold: user l's samples are clipped to "
             "[a_l, b_l] = (U m_l -/+ T_eps) / (2 m_l), within [0, U])",
             *table(f"  {'m_l':>6s} {'users':>6s} {'a_l':>12s} {'b_l':>12s}", rows),
             f"  E_OPT         {e_opt:.12g}   worst-case error (Lemma III.1 at Theorem III.1's clipping; canonical)",
             f"  LP optimum    {lp.value:.12g}   worst-case error minimised over all per-user clippings (HiGHS); "
             "equal to E_OPT when the theorem holds",
             f"  eq. (12)      {eq12:.12g}   eq. (12) as printed (2 m_l denominator, minimum over users): not "
             "E_OPT, shown so that the discrepancy is visible"]
    return emit(args, "rameshwar", {"collection": args.collection, "counts_file": args.counts, "U": args.U,
                                    "eps": args.eps},
                {"counts": counts, "rank": rank, "clipping": c, "optimal_error": e_opt, "lp_optimum": lp,
                 "eq12_as_printed": eq12}, lines)
