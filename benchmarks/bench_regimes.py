"""Time DAME's exact searches: single (M, nα²) points, mpmath points and 100 × 100 regime maps.

Run: ``python benchmarks/bench_regimes.py [--base main]``.  Prints the median of repeats, the
targets, and ratios against the per-point loop of the ``--base`` revision (its ``bounds``
package is extracted from git into a temporary directory and imported as ``bounds_base``;
cases the base cannot do — it refuses them or would need minutes and gigabytes — are
marked ``n/a``).  Peak memory is the process's maximum resident set size.
"""

import argparse
import importlib
import resource
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

from bench_dame import timed  # this directory's shared timer (median of repeats)
from bounds import dame
from bounds.numerics import PaperAssumptionWarning

ROOT = Path(__file__).resolve().parents[1]


def base_package(ref: str):
    """``bounds`` at git revision ``ref``, imported as ``bounds_base`` (None if unavailable)."""
    tmp = Path(tempfile.mkdtemp())
    try:
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "bounds"], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=tar, check=True)
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    shutil.move(str(tmp / "bounds"), str(tmp / "bounds_base"))
    sys.path.insert(0, str(tmp))
    return importlib.import_module("bounds_base")


def point(mod, law, x, precision=None):
    mod.dame.lower_bound(law, n_alpha2=x, precision=precision)
    mod.dame.upper_bound(law, n_alpha2=x, precision=precision)


LAWS = {
    "poisson(5)": lambda m: m.sizes.poisson(5),
    "poisson(1e6)": lambda m: m.sizes.poisson(1e6),
    "binomial(1000, 0.005)": lambda m: m.sizes.binomial(1000, 0.005),
    "binomial(1e9, 0.999)": lambda m: m.sizes.binomial(10**9, 0.999),
    "uniform(1, 2000)": lambda m: m.sizes.uniform(1, 2000),
    "uniform(1, 1e9)": lambda m: m.sizes.uniform(1, 10**9),
    "finite{1e5, 1e8}": lambda m: m.sizes.finite({10**5: 0.5, 10**8: 0.5}),
    "geometric(0.05)": lambda m: m.sizes.geometric(0.05),
    "geometric(1e-7)": lambda m: m.sizes.geometric(1e-7),
    "zipf(2+1e-9)": lambda m: m.sizes.zipf(2 + 1e-9),
    "zipf(2.001)": lambda m: m.sizes.zipf(2.001),
    "zipf(2.2)": lambda m: m.sizes.zipf(2.2),
    "zipf(3)": lambda m: m.sizes.zipf(3.0),
}
# cases the base revision answers within seconds (the others refuse or take minutes and GBs)
BASE_OK = {"poisson(5)", "binomial(1000, 0.005)", "uniform(1, 2000)", "geometric(0.05)", "zipf(3)"}
XS = (1e3, 1e6, 1e9, 1e12)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", default="main", help="git revision to compare against (default: main)")
    args = ap.parse_args()
    warnings.simplefilter("ignore", PaperAssumptionWarning)
    import bounds

    base = base_package(args.base)
    print(f"DAME searches benchmark (median of 3; base = {args.base if base else 'unavailable'})")
    print(f"{'law':24s} {'max float LB+UB ms':>19s} {'base ms':>9s} {'ratio':>7s} {'mpmath(40) s':>13s}")
    worst_f = worst_m = 0.0
    for label, make in LAWS.items():
        law = make(bounds)
        point(bounds, law, 1e3)  # tables and caches once
        tf = max(timed(lambda: point(bounds, law, x)) for x in XS)
        tm = max(timed(lambda: point(bounds, law, x, 40), repeat=1) for x in (1e3, 1e12))
        worst_f, worst_m = max(worst_f, tf), max(worst_m, tm)
        tb = ratio = "n/a"
        if base is not None and label in BASE_OK:
            blaw = make(base)
            point(base, blaw, 1e3)
            b = max(timed(lambda: point(base, blaw, x)) for x in XS)
            tb, ratio = f"{b * 1e3:9.2f}", f"{b / tf:7.1f}"
        print(f"{label:24s} {tf * 1e3:19.2f} {tb:>9s} {ratio:>7s} {tm:13.3f}")
    print(f"target: any float point < 50 ms (worst {worst_f * 1e3:.1f} ms); mpmath(40) < 1 s (worst {worst_m:.2f} s)")

    xs = np.geomspace(1.0, 1e12, 100)
    maps = {"poisson": np.geomspace(0.5, 1e4, 100), "zipf": np.linspace(2.05, 4.0, 100),
            "geometric": np.geomspace(1e-6, 0.5, 100)}
    for fam, ps in maps.items():
        t = timed(lambda: dame.grid(fam, ps, xs), repeat=1)
        line = f"100 x 100 map {fam:10s} {t:6.2f} s"
        if base is not None:  # the base's fastest route: its curve() per law, on 10 rows, times 10
            make = getattr(base.sizes, fam)
            rows = ps[::10]
            tb = timed(lambda: [base.dame.curve(make(float(p)), n_alpha2=xs) for p in rows], repeat=1) * 10
            line += f"   base curve() loop (10 rows x 10) {tb:6.2f} s   ratio {tb / t:6.1f}"
        print(line)
    print("target: a 100 x 100 map < 1 s")
    print(f"peak memory (max RSS) {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3:.0f} MB; target < 500 MB")


if __name__ == "__main__":
    main()
