"""Time the Monte Carlo layer against the floor of sampling, over dataset sizes m, users n and Fig. 1b's rho.

The floor is what any replication must at least do, written here independently of ``bounds``:
draw the n users' sample sums (one binomial each, sizes drawn from the law, in random order)
and n/2 Laplace variables.  Each time is process CPU time (``time.process_time``) per
replication, the best of ``--rounds`` interleaved rounds (the machine may be shared): in a
round, the floor, DAME alone and all three estimators (Duchi, Kent, DAME on the same data)
run one after the other at every setting.

* the size grid: every user holds m samples (``sizes.point(m)``), m from 10 to 10^12, n from
  10^3 to 10^7, alpha = 22/35;
* Fig. 1b's setting: n = 10^4, alpha = 22/35, M(10^5) = 1 - rho, M(10^6) = rho.

Targets (issue 24): DAME alone <= 1.3x the floor, all three <= 1.5x, everywhere.

A second table times one call of ``count`` binomial draws of one size, numpy's ``rng.binomial``
against ``simulate.binomial_inversion`` (its table built beforehand), per draw.

Run: ``python benchmarks/bench_simulate.py`` (``--quick``: fewer settings and rounds).
"""

import argparse
import math
import time
import warnings

import numpy as np

from bounds import simulate, sizes
from bounds.numerics import PaperAssumptionWarning

ALPHA = 22 / 35
TARGETS = {"dame": 1.3, "all three": 1.5}
RUNS = {"dame": ("dame",), "all three": ("duchi", "kent", "dame")}
USER_DRAWS = 2 * 10**6  # users drawn per timing (replications = this / n, at least 1)


def fig1b_law(rho):
    if rho == 0:
        return sizes.point(10**5)
    if rho == 1:
        return sizes.point(10**6)
    return sizes.finite({10**5: 1 - rho, 10**6: rho})


def reps_for(n):
    return int(min(1024, max(1, USER_DRAWS // n)))


def per_replication(estimators, law, n, reps):
    """CPU seconds per replication of ``simulate.compare`` (its plan included)."""
    t = time.process_time()
    simulate.compare(theta=0.0, sizes=law, n=n, alpha=ALPHA, reps=reps, seed=1, estimators=estimators)
    return (time.process_time() - t) / reps


def floor(law, n, reps):
    """CPU seconds per replication of drawing n binomial sums (sizes from the law, unsorted) and n/2 Laplace."""
    rng = np.random.default_rng(0)
    t = time.process_time()
    for _ in range(reps):
        m = law.sample(n, rng)
        rng.binomial(m, 0.5)
        rng.laplace(0.0, 1.0, size=n // 2)
    return (time.process_time() - t) / reps


DRAW_SIZES = (10, 10**3, 10**5, 10**6, 10**7)
DRAW_COUNT = 60_000  # draws per call: a chunk of the engine at n = 10^4


def per_draw(N, rng):
    """CPU seconds per draw of Bin(N, 1/2): numpy's sampler, then the inversion (its table built beforehand)."""
    t = time.process_time()
    rng.binomial(N, 0.5, size=DRAW_COUNT)
    numpy_s = time.process_time() - t
    t = time.process_time()
    simulate.binomial_inversion(N, 0.5, DRAW_COUNT, rng)
    return numpy_s / DRAW_COUNT, (time.process_time() - t) / DRAW_COUNT


def draw_table(rounds):
    rng = np.random.default_rng(0)
    tables = {N: simulate.binomial_table(N, 0.5) for N in DRAW_SIZES}
    best = {N: [math.inf, math.inf] for N in DRAW_SIZES}
    for _ in range(rounds * 10):
        for N in DRAW_SIZES:
            best[N] = [min(b, v) for b, v in zip(best[N], per_draw(N, rng))]
    print(f"\nBinomial draws of one size, CPU ns per draw (best of {rounds * 10} interleaved calls of "
          f"{DRAW_COUNT} draws)")
    print(f"{'N':>10s} {'rng.binomial':>13s} {'inversion':>10s} {'ratio':>7s} {'table entries':>14s}")
    for N in DRAW_SIZES:
        a, b = best[N]
        print(f"{N:10d} {a * 1e9:13.1f} {b * 1e9:10.1f} {b / a:6.2f}x {tables[N][1].size:14d}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer settings, 2 rounds")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    warnings.simplefilter("ignore", PaperAssumptionWarning)
    rounds = 2 if args.quick else args.rounds
    ms = (10, 10**6, 10**12) if args.quick else (10, 10**3, 10**6, 10**9, 10**12)
    ns = (10**3, 10**5) if args.quick else (10**3, 10**4, 10**5, 10**6, 10**7)
    rhos = (0.0, 0.5, 0.9) if args.quick else (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0)
    settings = [("size", f"n=1e{round(np.log10(n))} m=1e{round(np.log10(m))}", sizes.point(m), n)
                for n in ns for m in ms]
    settings += [("fig1b", f"rho={rho:.1f}", fig1b_law(rho), 10**4) for rho in rhos]
    for _, _, law, n in settings:  # warm up: imports, caches
        simulate.compare(theta=0.0, sizes=law, n=n, alpha=ALPHA, reps=1, seed=0)
    times = {(s[1], k): [] for s in settings for k in ("floor", *RUNS)}
    for _ in range(rounds):
        for _, label, law, n in settings:
            reps = reps_for(n)
            times[label, "floor"].append(floor(law, n, reps))
            for name, est in RUNS.items():
                times[label, name].append(per_replication(est, law, n, reps))
    best = {k: min(v) for k, v in times.items()}
    print(f"Monte Carlo per replication, CPU time (best of {rounds} interleaved rounds), alpha = 22/35, theta = 0")
    print(f"{'setting':22s} {'floor ms':>10s} {'DAME ms':>10s} {'DAME/floor':>11s} {'all 3 ms':>10s} {'all3/floor':>11s}")
    worst = {name: 0.0 for name in RUNS}
    for kind, label, _, n in settings:
        f = best[label, "floor"]
        r = {name: best[label, name] / f for name in RUNS}
        for name in RUNS:
            worst[name] = max(worst[name], r[name])
        head = label if kind == "size" else f"Fig.1b {label}"
        print(f"{head:22s} {f * 1e3:10.3f} {best[label, 'dame'] * 1e3:10.3f} {r['dame']:10.2f}x "
              f"{best[label, 'all three'] * 1e3:10.3f} {r['all three']:10.2f}x")
    for name in RUNS:
        ok = "met" if worst[name] <= TARGETS[name] else "NOT met"
        print(f"worst {name}: {worst[name]:.2f}x the floor (target <= {TARGETS[name]}x: {ok})")
    draw_table(rounds)


if __name__ == "__main__":
    main()
