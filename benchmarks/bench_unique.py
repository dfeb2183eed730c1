"""CPU time of ``np.unique`` against ``bounds.numerics.sorted_unique`` on int64 arrays, interleaved.

Run: ``python benchmarks/bench_unique.py``.  Prints, per size, the median CPU time of each over 9
interleaved rounds and their ratio (``time.process_time``).
"""

import statistics
import time

import numpy as np

from bounds.numerics import sorted_unique


def cpu(fn, arr, reps):
    t = time.process_time()
    for _ in range(reps):
        fn(arr)
    return (time.process_time() - t) / reps


def main():
    rng = np.random.default_rng(0)
    print(f"{'n':>8s} {'np.unique ms':>13s} {'sorted_unique ms':>17s} {'ratio':>7s}")
    for n in (10**3, 10**4, 10**5, 10**6):
        arr = np.concatenate([rng.integers(0, 10**12, n // 2)] * 2)  # every value twice
        reps = max(1, 10**6 // n)
        a, b = [], []
        for _ in range(9):
            a.append(cpu(np.unique, arr, reps))
            b.append(cpu(sorted_unique, arr, reps))
        ta, tb = statistics.median(a), statistics.median(b)
        print(f"{n:8d} {ta * 1e3:13.3f} {tb * 1e3:17.3f} {ta / tb:7.1f}")


if __name__ == "__main__":
    main()
