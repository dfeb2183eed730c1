"""Time Kent et al.'s multivariate procedures per replication, at T = 10^2 and T = 10^12.

Every user enters through exact sufficient statistics, so the cost must not grow with T
(beyond the cap T* = min{T, e^{nα²/(Kd)}} the law is the same anyway).  Settings are those of
the rate tests.  Each time is process CPU time, the best of 3 rounds (the machine may be shared).

Run: ``python benchmarks/bench_kent_multivariate.py`` (prints ms per replication).
"""

import time

import numpy as np

from bounds import checks

REPS = 64
SPARSE = np.zeros(200)
SPARSE[[3, 50, 120]] = [0.6, -0.5, 0.4]
CASES = {
    "linf d=4, n=8000": dict(problem="linf", n=8000, theta=[0.3, -0.5, 0.1, 0.7], K=200.0),
    "l2 d=6, n=8000": dict(problem="l2", n=8000, theta=[0.3, -0.2, 0.1, 0.25, 0.0, -0.3], K=100.0),
    "sparse P1 d=200, n=8000": dict(problem="sparse", n=8000, theta=SPARSE, s=3, K=200.0, procedure=1),
    "density k=3, n=8000": dict(problem="density", n=8000, density=checks.TrigDensity({2: 0.4, 3: 0.3}), beta=1.0,
                                K=200.0, C_k=200.0),
}


def best(f, rounds=3):
    out = []
    for _ in range(rounds):
        t = time.process_time()
        f()
        out.append(time.process_time() - t)
    return min(out)


if __name__ == "__main__":
    for label, kw in CASES.items():
        kw = dict(kw)
        problem = kw.pop("problem")
        row = []
        for T in (10**2, 10**12):
            t = best(lambda: checks.kent_risk(problem, T=T, alpha=1.0, reps=REPS, seed=0, **kw))
            row.append(f"T = {T:.0e}: {1e3 * t / REPS:7.2f} ms/rep")
        print(f"{label:26s}", "   ".join(row))
