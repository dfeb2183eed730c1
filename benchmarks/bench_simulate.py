"""Time the Monte Carlo layer at the DAME Figure 1b setting.

n = 10^4 users, M(10^5) = 1 - rho, M(10^6) = rho, alpha = 22/35, theta = 0.
Run: ``python benchmarks/bench_simulate.py`` (prints seconds; the sweep uses 2 processes).
"""

import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from bounds import mechanisms, simulate, sizes

N, ALPHA = 10**4, 22 / 35


def law(rho):
    if rho == 0:
        return sizes.point(10**5)
    if rho == 1:
        return sizes.point(10**6)
    return sizes.finite({10**5: 1 - rho, 10**6: rho})


def per_replication(rho=0.5, reps=640):
    kw = dict(theta=0.0, sizes=law(rho), n=N, alpha=ALPHA, seed=1)
    simulate.compare(reps=simulate.BLOCK, **kw)  # warm (m̃, tables)
    out = {}
    for est in ("dame", "kent", "duchi"):
        t = time.perf_counter()
        simulate.risk(est, reps=reps, **kw)
        out[est] = (time.perf_counter() - t) / reps
    t = time.perf_counter()
    simulate.compare(reps=reps, **kw)
    out["all three, shared data"] = (time.perf_counter() - t) / reps
    return out


def floor(reps=200):
    """Drawing just the n sample sums and n/2 Laplace variables, per replication."""
    rng = np.random.default_rng(0)
    m = law(0.5).sample(N, rng)
    t = time.perf_counter()
    for _ in range(reps):
        rng.binomial(m, 0.5)
        mechanisms.laplace(1.0, rng, size=N // 2)
    return (time.perf_counter() - t) / reps


def sweep(reps=1000, workers=2):
    rhos = np.linspace(0, 1, 10)
    t = time.perf_counter()
    with ProcessPoolExecutor(workers) as ex:
        for rho in rhos:
            simulate.compare(theta=0.0, sizes=law(float(rho)), n=N, alpha=ALPHA, reps=reps, seed=2, executor=ex)
    return time.perf_counter() - t


def main():
    print("Monte Carlo benchmark, n = 10^4, alpha = 22/35, M(10^5) = M(10^6) = 1/2")
    for k, v in per_replication().items():
        print(f"  one replication, {k:24s} {v * 1e3:7.2f} ms")
    print(f"  floor (n binomial sums + n/2 Laplace)   {floor() * 1e3:7.2f} ms")
    print(f"  Figure 1b sweep (10 rho x 1000 reps, 3 estimators, 2 processes): {sweep():.1f} s")


if __name__ == "__main__":
    main()
