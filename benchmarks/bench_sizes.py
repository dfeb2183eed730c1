"""Float vs precision agreement of every built-in size family at the scale edges.

For each family and each law at the edges of its parameters, the float64 and the mpmath
(``--digits``, default 30) paths of P(m > a), E[sqrt(m) 1{m <= a}] and E[sqrt(m ∧ a)] are
evaluated at a grid of ``a`` across the law's bulk and tails, and E[sqrt m]; the script prints
the worst relative disagreement per family, with the CPU time spent.  A law a path refuses (a
documented limit) is listed with the refusal.

``--bulk`` measures the table-free bulk engine of Poisson and binomial laws instead: CPU time
of one ``dame.upper_bound`` + ``lower_bound`` at lam = 1e12 (float64 and 40 digits), and, for the
thresholds where the engine replaces a table, both paths on the same law (CPU time, and the
distance to an independent Euler-Maclaurin value of the sums over the continuous pmf).

Run: ``python benchmarks/bench_sizes.py`` (about two CPU minutes); ``--bulk`` (about three).
"""

from __future__ import annotations

import argparse
import math
import time

import mpmath
import numpy as np
from scipy import stats

from bounds import dame, sizes
from bounds.sizes._base import SizeLaw

LAWS = {
    "poisson": [lambda: sizes.poisson(1e-3), lambda: sizes.poisson(5.0), lambda: sizes.poisson(1e4),
                lambda: sizes.poisson(1e6), lambda: sizes.poisson(9.5e6), lambda: sizes.poisson(1e10),
                lambda: sizes.poisson(1e11), lambda: sizes.poisson(1e12)],
    "binomial": [lambda: sizes.binomial(10**12, 1e-12 * 30), lambda: sizes.binomial(2**31 + 1, 30 / (2**31 + 1)),
                 lambda: sizes.binomial(5 * 10**9, 6e-9), lambda: sizes.binomial(10**6, 0.3),
                 lambda: sizes.binomial(10**9, 1e-15 * 10**6),
                 lambda: sizes.binomial(10**12, 0.5), lambda: sizes.binomial(10**11, 0.3),
                 lambda: sizes.binomial(10**12, 1e-3), lambda: sizes.binomial(10**12, 1 - 1e-3)],
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


def _em_log_sum(N: int | None, lam: float, p: float, sq: bool, A: int, B: int) -> object:
    """log of sum_{k=A}^{B} (sqrt(k) if sq) M(k) by Euler-Maclaurin over the continuous pmf (loggamma,
    polygamma), at the working precision: an independent value of a bulk sum."""
    lp = mpmath.mpf(p)
    if N is None:
        L = mpmath.log(mpmath.mpf(lam))
        phi = lambda t: t * L - lam - mpmath.loggamma(t + 1)  # noqa: E731
        d = [lambda t: L - mpmath.psi(0, t + 1), lambda t: -mpmath.psi(1, t + 1), lambda t: -mpmath.psi(2, t + 1)]
    else:
        L, c = mpmath.log(lp) - mpmath.log1p(-lp), mpmath.loggamma(N + 1)
        phi = lambda t: c - mpmath.loggamma(t + 1) - mpmath.loggamma(N - t + 1) + t * mpmath.log(lp) \
            + (N - t) * mpmath.log1p(-lp)  # noqa: E731
        d = [lambda t: L - mpmath.psi(0, t + 1) + mpmath.psi(0, N - t + 1),
             lambda t: -mpmath.psi(1, t + 1) - mpmath.psi(1, N - t + 1),
             lambda t: -mpmath.psi(2, t + 1) + mpmath.psi(2, N - t + 1)]
    h = [lambda t: mpmath.log(t) / 2, lambda t: 1 / (2 * t), lambda t: -1 / (2 * t * t), lambda t: 1 / t**3]
    f = (lambda t: phi(t) + h[0](t)) if sq else phi
    d1, d2, d3 = ((lambda t: d[0](t) + h[1](t)), (lambda t: d[1](t) + h[2](t)), (lambda t: d[2](t) + h[3](t))) if sq \
        else tuple(d)
    g = lambda t: mpmath.exp(f(t))  # noqa: E731
    g1 = lambda t: g(t) * d1(t)  # noqa: E731
    g3 = lambda t: g(t) * (d3(t) + 3 * d1(t) * d2(t) + d1(t) ** 3)  # noqa: E731
    pts = [A + (B - A) * mpmath.mpf(i) / 16 for i in range(17)]
    return mpmath.log(mpmath.quad(g, pts) + (g(A) + g(B)) / 2 + (g1(B) - g1(A)) / 12 - (g3(B) - g3(A)) / 720)


def bulk() -> None:
    """The bulk engine: DAME at 1e12, and engine vs table where the engine takes over."""
    for law in (sizes.poisson(1e12), sizes.binomial(10**12, 0.3)):
        for prec in (None, 40):
            t0 = time.process_time()
            ub = dame.upper_bound(law, n_alpha2=1e6, precision=prec)
            lb = dame.lower_bound(law, n_alpha2=1e6, precision=prec)
            print(f"{law!r:<48} precision={str(prec):<4} log of DAME's Theorem 2 (upper) and Theorem 1 (lower) bounds (paper "
                  f"constants, n alpha^2 = 1e6): {float(ub.log_value):.15f} {float(lb.log_value):.15f}  "
                  f"CPU {time.process_time() - t0:.1f} s")
    # thresholds: one query by the table and by the engine on the same law
    cases = [("poisson(1e7), 30 digits: mpmath table vs engine", sizes.poisson(1e7), 30, None, 1e7, 0.0),
             ("poisson(1e10), float64: table vs engine", sizes.poisson(1e10), None, None, 1e10, 0.0),
             ("binomial(1e12, 1e-3), float64: table vs engine", sizes.binomial(10**12, 1e-3), None, 10**12, 1e9, 1e-3)]
    for label, law, prec, N, mean, p in cases:
        sd = math.sqrt(mean * (1 - p))
        a = np.array([int(mean - 2 * sd), int(mean), int(mean + 2 * sd)])
        t0 = time.process_time()
        tab = np.asarray(SizeLaw._log_partial_sqrt(law, a, prec), dtype=object)
        t_tab = time.process_time() - t0
        t0 = time.process_time()
        with mpmath.workdps(prec or 22):
            eng = [law._bulk_point(int(ai), prec)[2] for ai in a]
        t_eng = time.process_time() - t0
        with mpmath.workdps(60):
            ref = [_em_log_sum(N, mean if N is None else 0.0, p, True, int(mean - 40 * sd), int(ai)) for ai in a]
            e_tab = max(abs(float(mpmath.mpf(x) - r)) for x, r in zip(tab, ref))
            e_eng = max(abs(float(mpmath.mpf(x) - r)) for x, r in zip(eng, ref))
        print(f"{label:<50} log E[sqrt m 1{{m<=a}}] at 3 points: table {t_tab:6.2f} s (error {e_tab:.1e}), "
              f"engine {t_eng:6.2f} s (error {e_eng:.1e}) vs Euler-Maclaurin")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--digits", type=int, default=30)
    parser.add_argument("--bulk", action="store_true", help="measure the bulk engine of Poisson and binomial laws")
    args = parser.parse_args()
    if args.bulk:
        bulk()
        return
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
