"""Time DAME's exact bounds: the Figure 1a data set (both presets) and single (M, nα²) points.

Run: ``python benchmarks/bench_dame.py``.  Prints CPU time (``time.process_time``), the best of repeats.
"""

import time
import warnings

from bounds import dame, figures, sizes
from bounds.numerics import PaperAssumptionWarning


def timed(f, repeat=5):
    """CPU seconds of ``f()``, the best of ``repeat`` runs (the machine may be shared)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        f()
        times.append(time.process_time() - t)
    return min(times)


def main():
    warnings.simplefilter("ignore", PaperAssumptionWarning)
    print("DAME bounds benchmark (CPU seconds, best of repeats)")
    for preset in ("paper", "unit"):
        t_top = timed(lambda: figures.fig1a_top(preset), repeat=3)
        t_bot = timed(lambda: figures.fig1a_bottom(preset), repeat=3)
        print(f"  Figure 1a, constants={preset:5s}  top (300 laws): {t_top:.3f}   bottom (100 x): {t_bot:.3f}")
    cases = [
        ("poisson:5, nα²=500", sizes.poisson(5), 500.0),
        ("poisson:1000, nα²=1e6", sizes.poisson(1000), 1e6),
        ("uniform:1,2000, nα²=1e9", sizes.uniform(1, 2000), 1e9),
        ("zipf:3, nα²=1e6", sizes.zipf(3.0), 1e6),
    ]
    for label, law, x in cases:
        t_f = timed(lambda: (dame.lower_bound(law, n_alpha2=x), dame.upper_bound(law, n_alpha2=x)))
        t_m = timed(lambda: (dame.lower_bound(law, n_alpha2=x, precision=30),
                             dame.upper_bound(law, n_alpha2=x, precision=30)), repeat=3)
        print(f"  one point {label:26s} float64 LB+UB: {t_f * 1e3:8.2f} ms   mpmath(30) LB+UB: {t_m * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
