"""``bounds check``: the numerical audit of the papers' statements, and the statement atlas."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from typing import Any

from ._common import OptionError, add_parser, lazy_help, plain, writable_file

WIDTH = 100  # text is wrapped at this many columns (``--wide``: one line per field, never cut)

LEGEND = (
    "statuses: holds (its own checks pass on their domain) | fails (a certified counterexample) | discrepancy "
    "(two statements of the papers disagree, or a step does not follow) | inconclusive | partial (only a "
    "neighbour or a consequence is checked: see 'checked' and 'not checked') | unchecked (no check)",
    "kinds: checkable (identity or inequality between computable quantities) | order (O/Θ, or unspecified "
    "constants) | structural (not numerically checkable) | quoted (restated from other work)",
)


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
                   help="the statement atlas: paper, label, kind, status, method and domain of every numbered "
                        "statement")
    p.add_argument("--statement", metavar="PAPER:LABEL",
                   help="run one statement's checks and print their evidence, e.g. 'dame:Lemma S9', 'S9', '(S71)' "
                        "(any case; hyphens or en dashes)")
    p.add_argument("--show-fault", action="store_true",
                   help="with --statement: run each check under its planted fault of the statement and print the status")
    p.add_argument("--thorough", action="store_true",
                   help="the heavier rigorous runs (more boxes, finer grids) of the checks that have one; their "
                        "time is printed")
    p.add_argument("--wide", action="store_true", help="do not wrap text at 100 columns")
    p.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    p.add_argument("--json", action="store_true",
                   help="print JSON: with --atlas a list of {paper, label, statement, kind, status, method, domain, "
                        "checks_what, not_checked, checks, related, evidence}; otherwise the check results")
    p.set_defaults(func=run)


def _out(text: str, wide: bool, indent: str = "") -> None:
    if wide:
        print(indent + text)
    else:
        print(textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "    ",
                            break_on_hyphens=False))


def _results(select: Any, args: argparse.Namespace) -> dict:
    """Run the checks ``select(audit)`` names (each once per process) with a progress bar on stderr, shown before
    the audit is imported, unless ``--quiet`` or ``--json``."""
    import time

    from tqdm import tqdm

    bar = tqdm(desc="loading the audit", unit="check", file=sys.stderr, leave=False, disable=args.quiet or args.json)
    bar.refresh()
    from .. import audit

    ids = select(audit)
    bar.reset(total=len(ids))
    bar.set_description("checks")
    out, heavy = {}, []
    for cid in ids:
        bar.set_postfix_str(cid, refresh=False)
        t = time.process_time()
        out.update(audit.cached([cid], thorough=args.thorough))
        if args.thorough and audit.CHECKS[cid].thorough:
            heavy.append((cid, time.process_time() - t))
        bar.update(1)
    bar.close()
    if heavy and not args.json:
        print("thorough runs: " + ", ".join(f"{c} {s:.1f} s CPU" for c, s in heavy), file=sys.stderr)
    return out


def _atlas(args: argparse.Namespace) -> int:
    results = _results(lambda audit: list(dict.fromkeys(c for e in audit.ENTRIES for c in e.checks + e.related)), args)
    from .. import audit

    rows = audit.atlas(thorough=args.thorough, results=results)
    if args.json:
        print(json.dumps(plain([r.as_dict() for r in rows]), allow_nan=False, ensure_ascii=False))
        return 0
    for line in LEGEND:
        _out(line, args.wide)
    print()
    for r in rows:
        tag = f" [{r.confidence}]" if r.confidence else ""
        _out(f"{r.paper}:{r.label}{tag} [{r.kind}] {r.status} — {r.statement}", args.wide)
        if r.checks or r.related:
            _out(f"method: {r.method}; domain: {r.domain}", args.wide, "    ")
        if r.status == "partial":
            _out(f"checked: {r.checks_what}; not checked: {r.not_checked}", args.wide, "    ")
        elif not (r.checks or r.related):
            _out(r.checks_what, args.wide, "    ")
    counts: dict[str, dict[str, int]] = {}
    for r in rows:
        counts.setdefault(r.kind, {}).setdefault(r.status, 0)
        counts[r.kind][r.status] += 1
    print(f"{len(rows)} statements")
    for k, v in counts.items():
        print(f"  {k}: " + ", ".join(f"{n} {s}" for s, n in v.items()))
    _out("the full evidence of every row: bounds check --atlas --json; every check's evidence as Markdown: "
         "bounds check --report FILE.md; one statement: bounds check --statement PAPER:LABEL", args.wide)
    return 0


def _statement(args: argparse.Namespace) -> int:
    from .. import audit  # noqa: I001  (a statement's lookup needs only the registry)

    try:
        entry = audit.find(args.statement)
    except ValueError as exc:
        raise OptionError("--statement", f"must name one statement of the atlas (e.g. 'dame:Lemma S9'; bounds check "
                          f"--atlas lists them): {str(exc).removeprefix('key ')}") from None
    rows = audit.atlas(paper=entry.paper, label=entry.label, thorough=args.thorough,
                       results=_results(lambda audit: list(entry.checks + entry.related), args))
    row = rows[0]
    faults = []
    if args.show_fault:
        for cid in row.checks + row.related:
            for what, kw in audit.CHECKS[cid].faults:
                faults.append({"check": cid, "fault": what, "status": audit.CHECKS[cid].fn(**kw).status})
            for what, kw in audit.CHECKS[cid].repairs:
                faults.append({"check": cid, "repair": what, "status": audit.CHECKS[cid].fn(**kw).status})
    if args.json:
        print(json.dumps(plain({**row.as_dict(), **({"faults": faults} if args.show_fault else {})}),
                         allow_nan=False, ensure_ascii=False))
        return 0
    _out(f"{row.paper}:{row.label} [{row.kind}] — {row.status}", args.wide)
    _out(f"statement: {row.statement}", args.wide, "  ")
    _out(f"method: {row.method}", args.wide, "  ")
    _out(f"domain: {row.domain}", args.wide, "  ")
    _out(f"checked: {row.checks_what}", args.wide, "  ")
    _out(f"not checked: {row.not_checked}", args.wide, "  ")
    if row.reason:
        _out(f"{row.kind}: {row.reason}", args.wide, "  ")
    if row.implements:
        _out(f"implemented by: {row.implements}", args.wide, "  ")
    if row.confidence:
        _out(f"reconstruction confidence: [{row.confidence}] (docs/kent.md)", args.wide, "  ")
    for cid, ev in row.evidence.items():
        role = " (related: does not decide the status)" if ev.get("related") else ""
        _out(f"check {cid}: {ev['status']} ({ev['method']}){role}", args.wide, "  ")
        for k, v in ev.items():
            if k not in ("status", "method", "related"):
                _out(f"{k}: {json.dumps(plain(v), ensure_ascii=False)}", args.wide, "    ")
    if args.show_fault:
        if not faults:
            _out("no planted fault or repair declared for these checks", args.wide, "  ")
        for f in faults:
            change = f"the fault '{f['fault']}'" if "fault" in f else f"the repair '{f['repair']}'"
            _out(f"under {change}, {f['check']}: {f['status']}", args.wide, "  ")
    _out("full text: --json", args.wide, "  ")
    return 0


def _report_file(path: str) -> Any:
    """``--report``'s path, refused before any check runs if it is a directory, a FIFO, a device or a socket.

    An existing path is opened without blocking by :func:`bounds.numerics._checks.open_file`, which refuses
    every file but a regular one (a FIFO would block the write forever); then the path must be writable.
    """
    from ..numerics._checks import open_file

    try:
        exists = os.path.exists(path)
    except (OSError, ValueError):
        exists = False  # an over-long or NUL-holding name: writable_file says why
    if exists:
        try:
            open_file("--report", path).close()
        except ValueError as exc:
            msg = str(exc).removeprefix("--report: ")
            if "not a regular file" in msg:
                raise OptionError("--report", msg) from None  # else unreadable, perhaps writable: see below
    return writable_file("--report", path)


def run(args: argparse.Namespace) -> int:
    """Run the checks (or the atlas, or one statement) and print them; return 1 if a check errors, else 0."""
    if args.atlas and args.statement:
        raise OptionError("--statement", "give either --atlas or --statement, not both")
    for mode, flag in (("--statement", args.statement is not None), ("--atlas", args.atlas)):
        if flag and args.report:
            raise OptionError("--report", f"does not apply with {mode} (use --json for the full evidence)")
        if flag and args.only:
            raise OptionError("--only", f"does not apply with {mode} (it selects checks, {mode} selects statements)")
    if args.show_fault and args.statement is None:
        raise OptionError("--show-fault", "applies only with --statement")
    if args.atlas:
        return _atlas(args)
    if args.statement is not None:
        return _statement(args)
    from .. import audit

    ids = args.only or list(audit.CHECKS)
    unknown = [cid for cid in ids if cid not in audit.CHECKS]
    if unknown:
        raise OptionError("--only", f"unknown check {unknown[0]!r}; choose from {', '.join(audit.CHECKS)}")
    report = _report_file(args.report) if args.report else None
    from tqdm import tqdm

    results, errors = [], 0
    if not args.json:
        print(f"  {'check':32s} {'status':13s} {'method':34s} claim")
    bar = tqdm(ids, desc="checks", unit="check", file=sys.stderr, leave=False, disable=args.quiet or args.json)
    for cid in bar:
        try:
            r = audit.run([cid], thorough=args.thorough)[0]
        except Exception as exc:  # a check that errors is the only failure of the command
            errors += 1
            if not args.json:
                bar.write(f"  {cid:32s} {'ERROR':13s} {type(exc).__name__}: {exc}", file=sys.stdout)
            continue
        results.append(r)
        if not args.json:
            bar.write(f"  {r.id:32s} {r.status:13s} {r.method[:34]:34s} {r.claim}", file=sys.stdout)
    if args.json:
        print(json.dumps(plain(results), allow_nan=False, ensure_ascii=False))
    else:
        counts = {s: sum(r.status == s for r in results) for s in audit.STATUSES}
        print("  " + ", ".join(f"{v} {k}" for k, v in counts.items()) + (f", {errors} errors" if errors else ""))
    if report is not None:
        try:
            report.write_text(audit.report(results))
        except OSError as exc:  # a write that fails once the checks have run (a full disk)
            raise OptionError("--report", f"cannot write {args.report!r}: {exc.strerror or exc}") from None
        if not args.json:
            print(f"report written to {args.report}")
    return 1 if errors else 0
