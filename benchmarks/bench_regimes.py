"""Time DAME's exact searches and the figures, as CPU time: points, mpmath points, 100 x 100 maps, `bounds figures`.

* one point: ``dame.lower_bound`` + ``dame.upper_bound`` at nα² in {1e3, 1e6, 1e9, 1e12}, the
  slowest of the four (float64; each the best of 5), and at precision 40 (nα² in {1e3, 1e12});
* a 100 x 100 map: ``dame.grid`` over 100 parameters x nα² = geomspace(1, 1e12, 100), once;
* ``bounds figures`` and ``bounds figures --quick`` into a temporary ``--out`` folder: the CPU
  time of the child processes (``resource.getrusage(RUSAGE_CHILDREN)``), on this tree.

Targets (issue 24): a float point <= 0.5 ms for poisson(5) and binomial(50, 0.3); one
precision-40 point < 0.3 s for every law; a map < 1 s; figures < 30 s (--quick < 6 s).

Run: ``python benchmarks/bench_regimes.py`` (``--no-figures``: skip the figures; ``--quick``:
fewer laws, maps of 20 rows scaled by 5; ``--maps``: only the maps, each after a two-law warm-up;
``--repeat N``: each map's best of N runs).
"""

import argparse
import math
import resource
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
from scipy import stats

from bench_dame import timed  # this directory's shared timer (CPU time, best of repeats)
from bounds import dame, sizes
from bounds.numerics import PaperAssumptionWarning

LAWS = {
    "poisson(5)": lambda: sizes.poisson(5),
    "binomial(50, 0.3)": lambda: sizes.binomial(50, 0.3),
    "binomial(1e9, 1e-9)": lambda: sizes.binomial(10**9, 1e-9),
    "poisson(1e6)": lambda: sizes.poisson(1e6),
    "binomial(1000, 0.005)": lambda: sizes.binomial(1000, 0.005),
    "binomial(1e9, 0.999)": lambda: sizes.binomial(10**9, 0.999),
    "uniform(1, 2000)": lambda: sizes.uniform(1, 2000),
    "uniform(1, 1e9)": lambda: sizes.uniform(1, 10**9),
    "finite{1e5, 1e8}": lambda: sizes.finite({10**5: 0.5, 10**8: 0.5}),
    "geometric(0.05)": lambda: sizes.geometric(0.05),
    "geometric(1e-7)": lambda: sizes.geometric(1e-7),
    "zipf(2+1e-9)": lambda: sizes.zipf(2 + 1e-9),
    "zipf(2.001)": lambda: sizes.zipf(2.001),
    "zipf(3)": lambda: sizes.zipf(3.0),
}
QUICK = ("poisson(5)", "binomial(50, 0.3)", "poisson(1e6)", "zipf(2+1e-9)")
XS = (1e3, 1e6, 1e9, 1e12)


def binomial_1000(p):
    """B(1000, p), the Figure 1a family, as a one-parameter constructor for ``dame.grid``."""
    return sizes.binomial(1000, p)


MAPS = {
    "poisson, lambda 0.1..1e6": ("poisson", np.geomspace(0.1, 1e6, 100)),
    "binomial(1000, p), p 1e-3..1": (binomial_1000, np.geomspace(1e-3, 1.0, 100)),
    "geometric, p 1e-6..0.5": ("geometric", np.geomspace(1e-6, 0.5, 100)),
    "zipf, s-2 1e-9..1": ("zipf", 2 + np.geomspace(1e-9, 1.0, 100)),
}


def point(law, x, precision=None):
    dame.lower_bound(law, n_alpha2=x, precision=precision)
    dame.upper_bound(law, n_alpha2=x, precision=precision)


PAPER = (math.exp(-9) / 16, 24.0, 1570.0, 8.0, 868.5)
PLAIN = {"poisson(5)": lambda: stats.poisson(5), "binomial(50, 0.3)": lambda: stats.binom(50, 0.3)}


def plain_scan(dist, x, c=PAPER):
    """Eq. (10) maximised and eq. (11)-(12) by a direct numpy scan of the zero-truncated pmf, written here.

    The support is cut where scipy's survival function falls below 1e-20; P(m > a) is summed from
    the top, S(a) from the bottom; m~ is the largest a with P(m >= a)^2 >= phi(a) ∧ 1 (c4 >= e)."""
    c1, c2, c3, c4, c5 = c
    K = int(dist.mean() + 10 * dist.std()) + 20
    while dist.logsf(K) > math.log(1e-20):
        K *= 2
    k = np.arange(1, K + 1)
    pmf = dist.pmf(k) / dist.sf(0)
    ge = np.cumsum(pmf[::-1])[::-1]  # P(m >= k), k = 1..K
    gt = np.append(ge, 0.0)  # P(m > a), a = 0..K
    S = np.append(0.0, np.cumsum(np.sqrt(k) * pmf))  # E[sqrt(m) 1{m <= a}], a = 0..K
    lower = np.exp(np.max(math.log(c1) - c2 * x * gt**2 - np.log(np.maximum(x * S**2, 1.0))))
    y = c4 * np.maximum(k * x, 1.0)
    phi = c5 / x * np.log(y / np.log(y))
    ok = ge**2 >= np.minimum(phi, 1.0)
    mt = int(k[ok].max()) if ok.any() else 1
    e_min = S[mt] + math.sqrt(mt) * gt[mt]
    upper = min(c3 * math.log(c4 * max(math.sqrt(mt * x), 1.0)) / (x * e_min**2), 4.0)
    return lower, upper, mt


def figures_cpu(quick):
    """CPU seconds of ``bounds figures [--quick]`` (every child process), into a temporary folder."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        cmd = [sys.executable, "-m", "bounds", "figures", "--out", out] + (["--quick"] if quick else [])
        subprocess.run(cmd, check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_maps(xs, quick, warm_up=False, repeat=1):
    """CPU seconds of each 100 x 100 ``dame.grid`` of ``MAPS`` (``quick``: 20 rows, scaled by 5; ``warm_up``: the
    family's imports and first-use set-up run first, on two of its laws; ``repeat``: the best of that many runs,
    each on new law objects, and the slowest beside it)."""
    for label, (family, ps) in MAPS.items():
        rows = ps[::5] if quick else ps
        if warm_up:
            dame.grid(family, rows[:2], xs)
        runs = []
        for _ in range(repeat):
            t = time.process_time()
            dame.grid(family, rows, xs)
            runs.append((time.process_time() - t) * (ps.size / rows.size))
        spread = f"  (best of {repeat}; slowest {max(runs):.2f} s)" if repeat > 1 else ""
        print(f"100 x 100 map {label:30s} {min(runs):7.2f} s" + ("  (20 rows x 5)" if quick else "") + spread)
    print("target: a 100 x 100 map < 1 s")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer laws; maps of 20 rows, times scaled by 5")
    ap.add_argument("--no-figures", action="store_true", help="skip `bounds figures`")
    ap.add_argument("--maps", action="store_true", help="only the 100 x 100 maps (after a two-law warm-up each)")
    ap.add_argument("--repeat", type=int, default=1, help="maps: the best of this many runs (a busy machine)")
    args = ap.parse_args()
    warnings.simplefilter("ignore", PaperAssumptionWarning)
    if args.maps:
        return time_maps(np.geomspace(1.0, 1e12, 100), quick=False, warm_up=True, repeat=args.repeat)
    print("DAME searches, CPU time (time.process_time)")
    print(f"{'law':24s} {'float LB+UB ms':>15s} {'precision 40 s':>15s}")
    worst_m = 0.0
    for label, make in LAWS.items():
        if args.quick and label not in QUICK:
            continue
        law = make()
        point(law, 1e3)  # the law's tables once
        tf = max(timed(lambda: point(law, x)) for x in XS)
        tm = max(timed(lambda: point(make(), x, 40), repeat=1) for x in (1e3, 1e12))  # fresh law: tables included
        worst_m = max(worst_m, tm)
        print(f"{label:24s} {tf * 1e3:15.3f} {tm:15.3f}")
    print(f"targets: float point <= 0.5 ms for poisson(5), binomial(50, 0.3); precision 40 < 0.3 s "
          f"(worst {worst_m:.2f} s)")
    print("a float point against a plain numpy scan of the pmf (written here, scipy.stats' pmf; ms, worst nα²)")
    for label, make in PLAIN.items():
        law, dist = LAWS[label](), make()
        for x in XS:  # the plain scan agrees with the library (m~ exactly, values to 1e-9)
            lo, up, mt = plain_scan(dist, x)
            assert mt == dame.m_tilde(law, n_alpha2=x) and math.isclose(lo, dame.lower_bound(law, n_alpha2=x).value,
                                                                         rel_tol=1e-9)
            assert math.isclose(up, dame.upper_bound(law, n_alpha2=x).value, rel_tol=1e-9)
        ours = max(timed(lambda: point(law, x), repeat=20) for x in XS)
        plain = max(timed(lambda: plain_scan(dist, x), repeat=20) for x in XS)
        print(f"  {label:22s} bounds {ours * 1e3:7.3f}   plain scan {plain * 1e3:7.3f}   ratio {ours / plain:5.2f}")
    time_maps(np.geomspace(1.0, 1e12, 100), args.quick, repeat=args.repeat)
    if not args.no_figures:
        print(f"bounds figures --quick: {figures_cpu(True):6.1f} s of CPU (target < 6 s)")
        print(f"bounds figures:         {figures_cpu(False):6.1f} s of CPU (target < 30 s)")


if __name__ == "__main__":
    main()
