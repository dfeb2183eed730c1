"""Float vs precision agreement of every built-in size family at the scale edges.

For each family and each law at the edges of its parameters, the float64 and the mpmath
(``--digits``, default 30) paths of P(m > a), E[sqrt(m) 1{m <= a}] and E[sqrt(m ∧ a)] are
evaluated at a grid of ``a`` across the law's bulk and tails, and E[sqrt m]; the script prints
the worst relative disagreement per family, with the CPU time spent.  A law a path refuses (a
documented limit) is listed with the refusal.

Run: ``python benchmarks/bench_sizes.py`` (about two CPU minutes).
"""

from __future__ import annotations

import argparse
import math
import time

import mpmath
import numpy as np
from scipy import stats

from bounds import sizes

LAWS = {
    "poisson": [lambda: sizes.poisson(1e-3), lambda: sizes.poisson(5.0), lambda: sizes.poisson(1e4),
                lambda: sizes.poisson(1e6), lambda: sizes.poisson(9.5e6),
                lambda: sizes.poisson(1e12)],
    "binomial": [lambda: sizes.binomial(10**12, 1e-12 * 30), lambda: sizes.binomial(2**31 + 1, 30 / (2**31 + 1)),
                 lambda: sizes.binomial(5 * 10**9, 6e-9), lambda: sizes.binomial(10**6, 0.3),
                 lambda: sizes.binomial(10**9, 1e-15 * 10**6),
                 lambda: sizes.binomial(10**12, 0.5)],
    "geometric": [lambda: sizes.geometric(0.5), lambda: sizes.geometric(1e-3), lambda: sizes.geometric(1e-9),
                  lambda: sizes.geometric(1e-15)],
    "zipf": [lambda: sizes.zipf(2.001), lambda: sizes.zipf(3.0), lambda: sizes.zipf(10.0)],
    "uniform": [lambda: sizes.uniform(1, 10**3), lambda: sizes.uniform(1, 10**12), lambda: sizes.uniform(10**17, 10**18)],
    "finite": [lambda: sizes.finite({1: 0.25, 10**18: 0.75}), lambda: sizes.point(10**18),
               lambda: sizes.empirical([1, 1, 7, 10**12, 10**18])],
    "from_scipy": [lambda: sizes.from_scipy(stats.nbinom(1000, 0.5), zero="shift"),
                   lambda: sizes.from_scipy(stats.logser(0.9)),
                   lambda: sizes.from_scipy(stats.betabinom(2000, 2, 3), zero="truncate"),
                   lambda: sizes.from_scipy(stats.hypergeom(10**4, 10**3, 10**3), zero="truncate"),
                   lambda: sizes.from_scipy(stats.randint(1, 5000))],
}


def grid(law: sizes.SizeLaw) -> np.ndarray:
    """Points across the law: the support's start, its bulk (mean ± sd scales) and far tails."""
    m = float(law.mean())
    pts = {1, 2, 10, law.support_min, max(1, int(m)), int(m * 1.01) + 1, int(m * 2) + 1, int(m * 10) + 1}
    if law.is_finite:
        pts |= {int(law.support_max), int(law.support_max) - 1}
    return np.array(sorted(p for p in pts if 1 <= p <= 2**61), dtype=np.int64)


def rel(f: float, m: object) -> float:
    with mpmath.workdps(40):
        mm = mpmath.mpf(m)
        if mm == 0:
            return 0.0 if f == 0 else math.inf
        return abs(float(mpmath.mpf(f) / mm - 1))


def worst(law: sizes.SizeLaw, digits: int) -> float:
    a = grid(law)
    out = rel(law.sqrt_mean(), law.sqrt_mean(precision=digits))
    for q in ("prob_gt", "partial_sqrt_mean", "sqrt_min_mean"):
        f = getattr(law, q)(a)
        m = getattr(law, q)(a, precision=digits)
        for fi, mi in zip(f, m):
            if float(mi) > 1e-300:  # below float64's range the float path returns 0 by design
                out = max(out, rel(float(fi), mi))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--digits", type=int, default=30)
    args = parser.parse_args()
    print(f"{'family':<11} {'laws':>4} {'worst rel. float-vs-mpmath':>27} {'CPU s':>7}  worst law / refusals")
    for family, makers in LAWS.items():
        t0 = time.process_time()
        worst_v, worst_law, refused = 0.0, "", []
        for make in makers:
            try:
                law = make()
                w = worst(law, args.digits)
            except ValueError as exc:
                refused.append(str(exc)[:90])
                continue
            if w >= worst_v:
                worst_v, worst_law = w, repr(law)
        cpu = time.process_time() - t0
        print(f"{family:<11} {len(makers):>4} {worst_v:>27.2e} {cpu:>7.1f}  {worst_law}")
        for r in refused:
            print(f"{'':<11} refused: {r}")


if __name__ == "__main__":
    main()
