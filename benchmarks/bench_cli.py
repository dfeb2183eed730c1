"""Start-up CPU of the ``bounds`` command line: ``--help`` and one call of each calculator.

Run: ``python benchmarks/bench_cli.py [--repeat 7]``.

Each command runs as a child process (``python -m bounds ...``); its CPU time is the
user + system time of the child, read as the difference of ``resource.getrusage(RUSAGE_CHILDREN)``
around the call.  The commands are run interleaved, ``--repeat`` rounds, and the median is printed
beside the median of ``python -c pass`` (Python's own start) and their difference, the CPU the
command adds to Python's start.  The budget of a start-up is 0.3 s of CPU beyond Python's start.

As for an installed package, the modules' byte code is cached: the children run with
``PYTHONDONTWRITEBYTECODE`` removed from their environment, after one untimed warm-up round that
writes the caches (without them every start compiles the package's sources again, about 0.07 s).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys

BUDGET = 0.3  # s of CPU beyond `python -c pass`
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # byte code cached, as installed

COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "bounds --help": ["-m", "bounds", "--help"],
    "bounds kent (mean)": ["-m", "bounds", "kent", "--problem", "mean", "--n", "1000", "--T", "100", "--alpha", "0.5"],
    "bounds dame (poisson)": ["-m", "bounds", "dame", "--sizes", "poisson:5", "--n", "10000", "--alpha", "0.5"],
    "bounds cummings": ["-m", "bounds", "cummings", "--k", "100,50,20,5,1", "--eps", "1"],
    "bounds rameshwar": ["-m", "bounds", "rameshwar", "--collection", "geometric:6", "--eps", "0.5"],
    "bounds rameshwar --lp": ["-m", "bounds", "rameshwar", "--collection", "geometric:6", "--eps", "0.5", "--lp"],
}
OUTSIDE = {"bounds rameshwar --lp"}  # the linear programme on request: measured, not held to the budget


def child_cpu(args: list[str]) -> float:
    """User + system CPU seconds of ``python <args>`` run to completion (output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"python {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="interleaved rounds (the median is printed)")
    repeat = parser.parse_args().repeat
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for args in COMMANDS.values():  # warm-up: writes the byte-code caches
        child_cpu(args)
    for _ in range(repeat):
        for name, args in COMMANDS.items():
            times[name].append(child_cpu(args))
    base = statistics.median(times["python -c pass"])
    print(f"CPU of one start-up (user + sys of the child, median of {repeat} interleaved rounds, seconds)")
    print(f"  {'command':24s} {'CPU':>7s} {'beyond python':>14s}   budget {BUDGET:g} s")
    for name, ts in times.items():
        cpu = statistics.median(ts)
        extra = cpu - base
        verdict = ("" if name == "python -c pass" else "(no budget: scipy.optimize on request)" if name in OUTSIDE
                   else "within" if extra <= BUDGET else "OVER")
        print(f"  {name:24s} {cpu:7.3f} {extra:14.3f}   {verdict}")


if __name__ == "__main__":
    main()
