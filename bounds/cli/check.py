"""``bounds check``: the numerical audit of the papers' lemmas, constants and claims."""

from __future__ import annotations

import argparse
from typing import Any

from ._common import add_parser, OptionError, writable_file


def register(subparsers: Any) -> None:
    """Add ``check`` to ``subparsers``."""
    p = add_parser(subparsers, "check", "audit the papers' lemmas, constants and claims numerically")
    p.add_argument("--only", nargs="+", metavar="ID", help="checks to run (default: all)")
    p.add_argument("--report", metavar="FILE.md", help="write a Markdown report with each check's evidence")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the checks and print one line each; return 1 if a check errors, else 0."""
    from .. import audit

    ids = args.only or list(audit.CHECKS)
    unknown = [cid for cid in ids if cid not in audit.CHECKS]
    if unknown:
        raise OptionError("--only", f"unknown check {unknown[0]!r}; choose from {', '.join(audit.CHECKS)}")
    report = writable_file("--report", args.report) if args.report else None
    results, errors = [], 0
    print(f"  {'check':32s} {'status':13s} {'method':34s} claim")
    for cid in ids:
        try:
            r = audit.run([cid])[0]
        except Exception as exc:  # a check that errors is the only failure of the command
            errors += 1
            print(f"  {cid:32s} {'ERROR':13s} {type(exc).__name__}: {exc}")
            continue
        results.append(r)
        print(f"  {r.id:32s} {r.status:13s} {r.method[:34]:34s} {r.claim}")
    counts = {s: sum(r.status == s for r in results) for s in audit.STATUSES}
    print("  " + ", ".join(f"{v} {k}" for k, v in counts.items()) + (f", {errors} errors" if errors else ""))
    if report is not None:
        report.write_text(audit.report(results))
        print(f"report written to {args.report}")
    return 1 if errors else 0
