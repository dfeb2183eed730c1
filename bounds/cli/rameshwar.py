"""``bounds rameshwar``: Rameshwar & Tandon's T_eps, the optimal clipping, E_OPT and the LP."""

from __future__ import annotations

import argparse
import math
from collections import Counter
from fractions import Fraction
from typing import Any

from ._common import add_parser, OptionError, add_json, positive, print_json

_COLLECTIONS = {"geometric": 1, "extreme": 2}


def register(subparsers: Any) -> None:
    """Add ``rameshwar`` to ``subparsers``."""
    p = add_parser(subparsers, "rameshwar", "Rameshwar-Tandon: T_eps, the optimal clipping, E_OPT and the LP")
    p.add_argument("--collection", required=True, help="geometric:M, extreme:L,m_star or counts:m1,m2,...")
    p.add_argument("--U", type=positive, default=65.0, help="samples lie in (0, U] (default 65)")
    p.add_argument("--eps", type=positive, required=True, help="privacy level epsilon")
    add_json(p)
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
        ints = [int(a) for a in params]
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
    from .. import rameshwar
    from ..references import RAMESHWAR

    m = collection(args.collection)
    lp = rameshwar.lp_optimum(m, U=args.U, eps=args.eps)  # first: it refuses collections too large to solve
    c = rameshwar.clipping(m, U=args.U, eps=args.eps)
    e_opt = rameshwar.optimal_error(m, U=args.U, eps=args.eps)
    eq12 = rameshwar.eq12_as_printed(m, U=args.U, eps=args.eps)
    counts = [int(v) for v in m]
    rank = math.ceil(2 / Fraction(args.eps))
    if args.json:
        return print_json("rameshwar", {"collection": args.collection, "U": args.U, "eps": args.eps},
                          counts=counts, rank=rank, clipping=c, optimal_error=e_opt, lp_optimum=lp,
                          eq12_as_printed=eq12)
    print(f"Rameshwar & Tandon — worst-case-optimal clipping ({RAMESHWAR.cite()}, Theorem III.1, Lemma III.1)")
    print(f"  collection    {args.collection}   L = {len(counts)}, sum m = {sum(counts)}, m* = {max(counts)}")
    print(f"  U, eps        {args.U:g}, {args.eps:g}   rank ceil(2/eps) = {rank}")
    print(f"  T_eps         {c.threshold:.10g}")
    print(f"  {'m_l':>6s} {'users':>6s} {'a_l':>12s} {'b_l':>12s}")
    users = Counter(counts)
    first = {m_l: i for i, m_l in reversed(list(enumerate(counts)))}
    for m_l in sorted(users, reverse=True):
        print(f"  {m_l:6d} {users[m_l]:6d} {c.a[first[m_l]]:12.6g} {c.b[first[m_l]]:12.6g}")
    print(f"  E_OPT         {e_opt:.12g}   (Lemma III.1 at Theorem III.1)")
    print(f"  LP optimum    {lp.value:.12g}   (HiGHS, over all per-user clippings)")
    print(f"  eq. (12)      {eq12:.12g}   (as printed)")
    return 0
