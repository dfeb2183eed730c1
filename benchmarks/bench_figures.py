"""CPU of ``bounds figures`` (the papers' settings) and ``bounds figures --quick``, this tree against another.

Run: ``python benchmarks/bench_figures.py [--base DIR] [--rounds 2] [--only full|quick]``.

Each run is a child process ``python -m bounds figures [--quick] --quiet --out TMP`` with
``PYTHONPATH`` set to the tree it times; its CPU is the user and the system time of the child and
of the child's own workers (the full run's default ``--jobs``), read as the differences of
``resource.getrusage(RUSAGE_CHILDREN)`` around the call, so that a process pool's CPU is counted.
With ``--base DIR`` (a checkout of another commit, e.g. ``git archive <commit> | tar -x -C DIR``)
the two trees run interleaved, round after round (base, this tree, base, ...), so that a load on
the machine that comes and goes weighs on both; the table gives each run's CPU and the ratio of
this tree's to the base's per round and overall (medians, and the least of each tree's runs: a load that
comes and goes only adds CPU time, so the least reading is the one nearest the work itself).  On a shared
machine only the ratios are comparable between runs.

Targets (issue 36): the full run under 40 s of CPU, ``--quick`` under 6 s.  A run's files are
compared with the committed ``figures/`` folder of its tree (``--check``): the full run must give
them byte for byte.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
TARGETS = {"full": 40.0, "quick": 6.0}  # s of CPU
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # byte code cached, as installed


def run_cpu(tree: Path, kind: str, check: bool) -> tuple[float, float, list[str]]:
    """User and system CPU seconds of one ``bounds figures`` run of ``tree`` (with its workers), and the files
    that differ from the tree's committed ``figures/`` when ``check``."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "bounds", "figures", "--quiet", "--out", out] + (["--quick"] if kind == "quick"
                                                                                      else [])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True, capture_output=True, cwd=tree, env={**ENV, "PYTHONPATH": str(tree)})
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        differ = []
        if check:
            committed = tree / "figures"
            for f in sorted(committed.iterdir()):
                new = Path(out) / f.name
                if not new.exists() or not filecmp.cmp(f, new, shallow=False):
                    differ.append(f.name)
    return after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, differ


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", type=Path, default=None, help="another tree to run interleaved (its ratio printed)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of each run (default 2)")
    ap.add_argument("--only", choices=["full", "quick"], default=None, help="one of the two runs")
    ap.add_argument("--check", action="store_true", help="compare the full run's files with figures/")
    args = ap.parse_args()
    trees = ([("base", args.base.resolve())] if args.base else []) + [("this", HERE)]
    kinds = [args.only] if args.only else ["quick", "full"]
    # one untimed quick run of each tree first: byte code written, file caches warm
    for _, tree in trees:
        run_cpu(tree, "quick", False)
    print(f"{'run':6s} {'round':>5s} {'tree':5s} {'user s':>8s} {'sys s':>7s} {'CPU s':>7s} {'ratio':>7s}")
    cpu: dict = {}
    for kind in kinds:
        for r in range(args.rounds):
            got = {}
            for name, tree in trees:
                user, system, differ = run_cpu(tree, kind, args.check and kind == "full")
                got[name] = user + system
                cpu.setdefault((kind, name), []).append(user + system)
                ratio = f"{got['this'] / got['base']:7.2f}" if name == "this" and "base" in got else ""
                print(f"{kind:6s} {r + 1:5d} {name:5s} {user:8.2f} {system:7.2f} {user + system:7.2f} {ratio:>7s}"
                      + (f"  files differ from figures/: {', '.join(differ)}" if differ else ""), flush=True)
    print()
    for kind in kinds:
        this, low = statistics.median(cpu[(kind, "this")]), min(cpu[(kind, "this")])
        line = f"{kind:6s} this tree: median {this:6.2f} s of CPU, least {low:6.2f} s (target < {TARGETS[kind]:.0f} s: " \
               f"{'met' if this < TARGETS[kind] else 'missed'})"
        if args.base:
            base, base_low = statistics.median(cpu[(kind, "base")]), min(cpu[(kind, "base")])
            line += f"; base median {base:6.2f} s, least {base_low:6.2f} s; ratio this/base {this / base:.2f} " \
                    f"(medians), {low / base_low:.2f} (least)"
        print(line)


if __name__ == "__main__":
    main()
