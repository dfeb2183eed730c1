"""Time the Monte Carlo layer at the DAME Figure 1b setting, against the floor of sampling.

n = 10^4 users, alpha = 22/35, M(10^5) = 1 - rho, M(10^6) = rho (rho = 1/2), theta = 0.
The floor is what any replication must at least do: draw the n users' sample sums
(one binomial each, sizes in random order) and n/2 Laplace variables.  A stricter floor
draws the same sums with the sizes sorted (numpy's binomial sampler then reuses its set-up).
Each time is process CPU time, the best of 7 interleaved rounds (the machine may be shared).

Run: ``python benchmarks/bench_simulate.py`` (prints ms per replication and the ratios;
``--sweep`` also times the whole Figure 1b sweep on 2 processes).
"""

import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from bounds import mechanisms, simulate, sizes

N, ALPHA = 10**4, 22 / 35
TARGETS = {"dame": 1.3, "all three": 1.5}
ROUNDS = 7


def law(rho):
    if rho == 0:
        return sizes.point(10**5)
    if rho == 1:
        return sizes.point(10**6)
    return sizes.finite({10**5: 1 - rho, 10**6: rho})


def per_replication(estimators, rho=0.5, reps=256):
    """One timing of ``compare`` (seconds per replication, the plan included)."""
    kw = dict(theta=0.0, sizes=law(rho), n=N, alpha=ALPHA, seed=1, estimators=estimators)
    t = time.process_time()
    simulate.compare(reps=reps, **kw)
    return (time.process_time() - t) / reps


def floor(rho=0.5, reps=64, sort=False):
    """One timing of drawing just the n sample sums and n/2 Laplace variables, per replication."""
    rng = np.random.default_rng(0)
    m = law(rho).sample(N, rng)
    if sort:
        m = np.sort(m)
    t = time.process_time()
    for _ in range(reps):
        rng.binomial(m, 0.5)
        mechanisms.laplace(1.0, rng, size=N // 2)
    return (time.process_time() - t) / reps


def sweep(reps=1000, workers=2):
    rhos = np.linspace(0, 1, 10)
    t = time.process_time()
    with ProcessPoolExecutor(workers) as ex:
        for rho in rhos:
            simulate.compare(theta=0.0, sizes=law(float(rho)), n=N, alpha=ALPHA, reps=reps, seed=2, executor=ex)
    return time.process_time() - t


def main():
    print("Monte Carlo benchmark, n = 10^4, alpha = 22/35, M(10^5) = M(10^6) = 1/2 (ms per replication)")
    simulate.compare(theta=0.0, sizes=law(0.5), n=N, alpha=ALPHA, reps=simulate.BLOCK, seed=0)  # warm up
    runs = {"dame": ("dame",), "kent": ("kent",), "duchi": ("duchi",), "all three": ("duchi", "kent", "dame")}
    times = {k: [] for k in ("floor", "strict", *runs)}
    for _ in range(ROUNDS):  # interleaved rounds, best of each: the machine is shared
        times["floor"].append(floor())
        times["strict"].append(floor(sort=True))
        for name, est in runs.items():
            times[name].append(per_replication(est))
    best = {k: min(v) for k, v in times.items()}
    base, strict = best["floor"], best["strict"]
    print(f"  floor: n binomial sums + n/2 Laplace          {base * 1e3:7.3f}")
    print(f"  stricter floor: the same with sorted sizes     {strict * 1e3:7.3f}")
    for name in runs:
        t = best[name]
        target = f"   (target <= {TARGETS[name]}x floor)" if name in TARGETS else ""
        print(f"  {name:10s} {t * 1e3:7.3f}   {t / base:5.2f}x floor   {t / strict:5.2f}x stricter floor{target}")
    if "--sweep" in sys.argv:
        print(f"  Figure 1b sweep (10 rho x 1000 reps, 3 estimators, 2 processes): {sweep():.1f} s")


if __name__ == "__main__":
    main()
