"""``bounds check``: the numerical audit of the papers' statements, and the statement atlas."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ._common import OptionError, add_parser, lazy_help, plain, writable_file

WIDTH = 100  # the atlas table fits this many columns


def _ids_help() -> str:
    from .. import audit

    return "checks to run (default: all): " + ", ".join(audit.CHECKS)


def register(subparsers: Any) -> None:
    """Add ``check`` to ``subparsers``."""
    p = add_parser(subparsers, "check", "audit the papers' statements numerically; --atlas lists every numbered "
                                        "statement of the four papers with its computed status")
    lazy_help(p.add_argument("--only", nargs="+", metavar="ID", help="checks to run (default: all)"), _ids_help)
    p.add_argument("--report", metavar="FILE.md", help="write a Markdown report with each check's evidence")
    p.add_argument("--atlas", action="store_true",
                   help="the statement atlas: paper, label, kind, status and checks of every numbered statement")
    p.add_argument("--statement", metavar="PAPER:LABEL",
                   help="run one statement's checks and print their evidence, e.g. 'dame:Lemma S9'")
    p.add_argument("--thorough", action="store_true",
                   help="the heavier rigorous runs (more boxes, finer grids) of the checks that have one")
    p.add_argument("--json", action="store_true",
                   help="print JSON: with --atlas a list of {paper, label, statement, kind, status, checks, evidence}; "
                        "otherwise the check results")
    p.set_defaults(func=run)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _atlas(args: argparse.Namespace) -> int:
    from .. import audit

    rows = audit.atlas(thorough=args.thorough)
    if args.json:
        print(json.dumps(plain([r.as_dict() for r in rows]), allow_nan=False, ensure_ascii=False))
        return 0
    widths = (9, 20, 10, 12)
    rest = WIDTH - sum(widths) - len(widths)
    head = ("paper", "label", "kind", "status")
    print(" ".join(h.ljust(w) for h, w in zip(head, widths)) + " checks")
    for r in rows:
        cells = (r.paper, r.label, r.kind, r.status)
        checks = ", ".join(r.checks) if r.checks else f"({_clip(r.reason, rest - 2)})"
        print(" ".join(_clip(c, w).ljust(w) for c, w in zip(cells, widths)) + " " + _clip(checks, rest))
    counts: dict[str, dict[str, int]] = {}
    for r in rows:
        counts.setdefault(r.kind, {}).setdefault(r.status, 0)
        counts[r.kind][r.status] += 1
    print(f"{len(rows)} statements")
    for k, v in counts.items():
        print(f"  {k}: " + ", ".join(f"{n} {s}" for s, n in v.items()))
    return 0


def _statement(args: argparse.Namespace) -> int:
    from .. import audit

    try:
        entry = audit.find(args.statement)
    except ValueError:
        raise OptionError("--statement", "must be 'paper:label' of the atlas (e.g. 'dame:Lemma S9'; "
                          f"bounds check --atlas lists them), got {args.statement!r}") from None
    row = audit.atlas(paper=entry.paper, label=entry.label, thorough=args.thorough)[0]
    if args.json:
        print(json.dumps(plain(row.as_dict()), allow_nan=False, ensure_ascii=False))
        return 0
    print(f"{row.paper}:{row.label} [{row.kind}] — {row.status}")
    print(_clip(f"  statement: {row.statement}", WIDTH))
    if row.reason:
        print(f"  {row.kind}: {row.reason}")
    if row.implements:
        print(f"  implemented by: {row.implements}")
    if row.confidence:
        print(f"  reconstruction confidence: [{row.confidence}] (docs/kent.md)")
    for cid, ev in row.evidence.items():
        print(_clip(f"  check {cid}: {ev['status']} ({ev['method']})", WIDTH))
        for k, v in ev.items():
            if k not in ("status", "method"):
                print(f"    {k}: {_clip(json.dumps(plain(v), ensure_ascii=False), WIDTH - 6 - len(k))}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the checks (or the atlas, or one statement) and print them; return 1 if a check errors, else 0."""
    from .. import audit

    if args.atlas and args.statement:
        raise OptionError("--statement", "give either --atlas or --statement, not both")
    if args.atlas:
        return _atlas(args)
    if args.statement is not None:
        return _statement(args)
    ids = args.only or list(audit.CHECKS)
    unknown = [cid for cid in ids if cid not in audit.CHECKS]
    if unknown:
        raise OptionError("--only", f"unknown check {unknown[0]!r}; choose from {', '.join(audit.CHECKS)}")
    report = writable_file("--report", args.report) if args.report else None
    results, errors = [], 0
    if not args.json:
        print(f"  {'check':32s} {'status':13s} {'method':34s} claim")
    for cid in ids:
        try:
            r = audit.run([cid], thorough=args.thorough)[0]
        except Exception as exc:  # a check that errors is the only failure of the command
            errors += 1
            if not args.json:
                print(f"  {cid:32s} {'ERROR':13s} {type(exc).__name__}: {exc}")
            continue
        results.append(r)
        if not args.json:
            print(f"  {r.id:32s} {r.status:13s} {r.method[:34]:34s} {r.claim}")
    if args.json:
        print(json.dumps(plain(results), allow_nan=False, ensure_ascii=False))
    else:
        counts = {s: sum(r.status == s for r in results) for s in audit.STATUSES}
        print("  " + ", ".join(f"{v} {k}" for k, v in counts.items()) + (f", {errors} errors" if errors else ""))
    if report is not None:
        report.write_text(audit.report(results))
        if not args.json:
            print(f"report written to {args.report}")
    return 1 if errors else 0
