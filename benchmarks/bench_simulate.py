"""Time the Monte Carlo layer against an honest floor: the cheapest correct way to draw what a replication draws.

Settings: every user holds m samples (``sizes.point(m)``), m from 10 to 10^12, n from 10^3 to
10^7 (10^8 with ``--big``), theta in {0, 0.3}, alpha = 22/35; and Fig. 1b's setting, n = 10^4,
M(10^5) = 1 - rho, M(10^6) = rho, at every rho of the figure.

The floor
---------
Written here, independently of ``bounds``: the random variables any exact simulation of the
estimators on sufficient statistics must draw, drawn the cheapest correct way we know, and
nothing else (no estimator arithmetic: binning, clipping and means are the engine's overhead,
which the targets allow for).  Per replication of n users (n even, two halves of n/2):

* **the users' sizes**: a point law draws nothing; a finite law draws each half's multiset of
  sizes, one multinomial (n/2 over the support) per half;
* **the voters' bins**: the votes read nothing of a voter but its bin in each vote, and a
  voter's bins are a function of its sum, constant between a few cuts; so a row's voters of one
  size are one multinomial over the cells between the cuts (the sum's law summed over each
  cell), and no voter's sum is drawn.  The floor draws that multinomial per row and size over
  3 cells for DAME alone and 5 for Kent and DAME together (their cuts joined: a vote's voters
  reach 2 to 4 bins at these settings; the cells' masses, computed once a run, are not timed);
  a user above Kent's T* is counted the same way, its cells those of (first T* samples,
  whole sum) jointly;
* **the releasing users' sums**: each releasing user's sum of m samples under the two-point
  law (mean theta) is one Bin(m, q), q = (1 + theta)/2, drawn per user (the estimators clip
  each releasing user's mean, so no coarser statistic will do).  All users of one size draw
  together, several replications per call (about 2^16 draws a call, into preallocated
  buffers), by the cheaper, at that setting, of (a) numpy's ``Generator.binomial`` and (b)
  inversion of the cdf tabulated here with ``scipy.stats.binom.cdf`` over mean +- 15 sd + 40
  (where that window holds at most 2^16 points): one uniform per draw, a guide table of
  2^k >= 2 x entries, one step up, bisection for the rare draws still short.  Both are timed in
  every round; the floor is the smaller.  Tables are a run's fixed cost, outside the timings on
  both sides: the floor's are built at its first run (before the rounds), the engine's by an
  untimed call of one replication (at most 2^16 users) just before each timed call (otherwise
  its table cache, 8 tables, is cycled through by the interleaved settings and every timed call
  rebuilds its tables: at n = 10^5, m = 10^6, 20 replications, a 3 ms table adds about 16% of
  the floor);
* **Kent et al.'s sums**: over T* = min(T, e^{n alpha^2}) samples, T the law's smallest size (at
  every setting here n alpha^2 >= 395, so T* = T).  Where every m <= T* they are DAME's sums; a
  releasing user with m > T* draws two binomials (Bin(T*, q) for Kent, and Bin(m - T*, q) which
  DAME adds);
* **DAME and Kent's privacy noise**: the localisation vote's noisy totals over 3 bins (a voter's
  bin and its two neighbours: two binomials and one uniform each), the largest noisy total of
  the bins no voter reached (an exact election compares the window's best with it: the maximum
  of K iid Bin(n/2, flip) + U/2, drawn as one variable by inversion, one uniform a row: the
  uniform's K-th root through the piecewise-linear cdf of Bin + U/2, its binomial cdf tabulated
  once a run over mean +- 15 sd + 40, untimed), and the Laplace noise of the releasing half,
  whose sum is two Gamma(n/2, 1) variables; each estimator draws its own;
* **Duchi's**: the count of +B outputs, one Bin(n, 1/2 + theta/(2B)) (no user-level draw).

So the floor of DAME alone is: sizes + a multinomial per row and size + n/2 releasing sums +
one vote (with its noise-only maximum) + one Laplace sum; of all three: sizes + a multinomial per
row and size + n/2 releasing sums (+ the second binomial of those above T*) + two votes + two
Laplace sums + one binomial.

**Fig. 1b as plotted**: the figure's own call (``bounds figures``, Figure 1b): all three
estimators, DAME at the paper's m~ with further DAME runs on the same users at the unit
constants' m~ and at the smallest size (those distinct from the paper's m~), at both of the
figure's settings (n = 10^4, sizes {10^5, 10^6}, 1000 replications; n = 10^5, sizes
{10^5, 10^8}, 100 replications) and a few rho.  Its floor is all three's, extended to what each
further run must draw over the same users: its own vote (noisy totals, noise-only maximum) and
its own Laplace sum, and 2 more cells in each row's multinomial of voters (its cuts joined to
the others'); the releasing users' sums are drawn once for all runs.  A run's m~ above a size
changes no draw (those users neither vote in it nor draw anything more).  (The floor used to draw every voter's sum too: about twice the cost at every
setting, work an exact simulation need not do.)

Known to be cheaper still, and used by neither side: where a size has few possible sums (m + 1,
or a table's entries, against the n/2 releasing users of a row: m = 10, and m = 10^3 from
n = 10^4), a row's releasing users are also one multinomial over those values, the clipped sum
being the counts times the clipped means; both sides would then cost little more than their
fixed costs per replication (the plan, the elections), and the ratios would be those of fixed
costs.

Measurement
-----------
Every timed call is one ``simulate.compare`` (its plan included, its tables built just before) or
one floor run, of the same
number of replications (about 2·10^6 users' worth, at least 4: the engine allocates its per-user
arrays once per call, as a run of many replications does); resource.getrusage(RUSAGE_SELF)
deltas around it give user and system CPU (system time is mostly page faults) and the minor page
faults, per replication.  In a round, the floor (both methods), DAME alone and all three run one
after the other at every setting; each figure is the best of ``--rounds`` interleaved rounds (by
user + system CPU: the machine may be shared).  Ratios use user + system CPU.  Peak resident
memory of the process is printed at the end, and, with ``--memory`` (``--memory-only``: alone),
the peak (tracemalloc) of one run of 2 replications at n = 10^6, 10^7 (and 10^8 with ``--big``)
in a fresh process.

Targets (issue 36): DAME alone <= 1.3x the floor, all three <= 1.5x, at every setting.

What the engine does beyond the floor (``simulate/_kernels.py``): it counts each row's voters
per cell by one multinomial as the floor does (jointly for a size above Kent's T*; it draws
every voter only where a part has no table or the cells exceed 4096); the releasing users draw
what the floor draws,
in the same way (one uniform per user and inversion of the same kind of table, or numpy's
sampler), their local means are written once, then clipped and summed (twice with Kent: two
intervals); then the election and the release's noise; and the run's plan (m~ of Theorem 2,
eq. (9)'s constants, Kent's T*: 0.7 to 1.7 ms a call when m~ was searched; at Fig. 1b m~ alone took
1.2 ms a call, 6 us of a replication at 200 replications a call, and now, bisected on the law's two
steps, 0.1 to 0.25 ms).  Reading each
user's clipped mean from a copy of its table clipped to its row's interval (an offset and a
gather instead of a gather and two comparisons) was measured no faster at Fig. 1b and n = 10^4
(0.98-1.02x, both ways interleaved in one process): the larger tables' gathers cost what the
comparisons saved.

A second table times one call of ``count`` binomial draws of one size, numpy's ``rng.binomial``
against ``simulate.binomial_inversion`` (its table built beforehand), per draw.

Run: ``python benchmarks/bench_simulate.py`` (``--quick``: fewer settings, 2 rounds; ``--plotted-only``: the
Fig. 1b as plotted table alone).
"""

import argparse
import math
import resource
import subprocess
import sys
import warnings

import numpy as np
from scipy import stats

from bounds import dame, simulate, sizes
from bounds.numerics import PaperAssumptionWarning

ALPHA = 22 / 35
TARGETS = {"dame": 1.3, "all three": 1.5}
RUNS = {"dame": ("dame",), "all three": ("duchi", "kent", "dame")}
USER_DRAWS = 2 * 10**6  # users drawn per timing (replications = this / n, at least MIN_REPS)
MIN_REPS = 4  # a run's per-user arrays are allocated once per call: a call of one replication would time that alone
CALL_DRAWS = 2**16  # draws per call of the floor's samplers
DUCHI_B = (math.exp(ALPHA) + 1) / (math.exp(ALPHA) - 1)  # Duchi et al.'s +-B at alpha
RR_FLIP = 1 / (1 + math.exp(ALPHA / 6))  # a vote's bit flips with probability 1 / (1 + e^{alpha/6})


def fig1b_law(rho):
    if rho == 0:
        return sizes.point(10**5)
    if rho == 1:
        return sizes.point(10**6)
    return sizes.finite({10**5: 1 - rho, 10**6: rho})


def support(rho_or_m, kind):
    """(sizes, masses) of a setting's law, written out here (``kind`` "plotted": ``(rho, m1, m2)``)."""
    if kind == "size":
        return [rho_or_m], [1.0]
    rho, m1, m2 = rho_or_m if kind == "plotted" else (rho_or_m, 10**5, 10**6)
    return [s for s, p in ((m1, 1 - rho), (m2, rho)) if p > 0], [p for p in (1 - rho, rho) if p > 0]


def reps_for(n):
    """Replications per timed call: about USER_DRAWS users' worth, at least MIN_REPS."""
    return int(min(1024, max(MIN_REPS, USER_DRAWS // n)))


def usage():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return np.array([r.ru_utime, r.ru_stime, r.ru_minflt])


def timed(fn, reps):
    """(user s, system s, minor faults) per replication of ``fn()``."""
    before = usage()
    fn()
    return (usage() - before) / reps


class InversionTable:
    """Bin(N, q) by inversion of its cdf over mean +- 15 sd + 40 (built with scipy.stats), with a guide table."""

    def __init__(self, N, q):
        sd = math.sqrt(N * q * (1 - q))
        self.lo = max(0, math.floor(N * q - 15 * sd) - 40)
        hi = min(N, math.ceil(N * q + 15 * sd) + 40)
        self.ok = hi - self.lo + 1 <= 2**16
        if not self.ok:
            return
        F = stats.binom.cdf(np.arange(self.lo, hi + 1), N, q)
        F[-1] = np.inf  # the window's exterior (below 1e-40) goes to its ends
        self.F = F
        self.G = 1 << (2 * F.size - 1).bit_length()
        self.guide = np.searchsorted(F, np.arange(self.G) / self.G, side="right").astype(np.intp)


class NoiseMaximum:
    """The largest of K iid Bin(N, flip) + U/2 (U uniform on [0, 1)), one uniform a draw, by inversion of its cdf
    G(y)^K: V = U'^(1/K) is the maximum's G-value; G is linear on each [b, b + 1/2) (slope pmf(b) / (1/2)), so
    y = b + (V - F(b - 1)) / (2 pmf(b)) with b the first value of F(b) > V (F the binomial cdf, tabulated once)."""

    def __init__(self, N, flip, K):
        self.table = InversionTable(N, flip)  # F over the window lo .. hi (its last entry inf)
        F = self.table.F.copy()
        F[-1] = 1.0
        self.below = np.concatenate(([0.0], F[:-1]))  # F(b - 1)
        self.pmf = np.maximum(F - self.below, 1e-300)
        self.K = K

    def draw(self, rows, rng):
        v = rng.random(rows)
        np.power(v, 1.0 / self.K, out=v)
        i = np.searchsorted(self.table.F, v, side="right")
        np.minimum(i, self.pmf.size - 1, out=i)
        return self.table.lo + i + (v - self.below[i]) / (2 * self.pmf[i])


class Floor:
    """The floor's draws for one setting, with buffers of CALL_DRAWS reused across calls and settings.

    Tables are built at their first use and kept (a run's fixed cost, left out of the timings).
    """

    u = np.empty(CALL_DRAWS)
    g = np.empty(CALL_DRAWS, dtype=np.intp)
    i = np.empty(CALL_DRAWS, dtype=np.intp)
    f = np.empty(CALL_DRAWS)
    b = np.empty(CALL_DRAWS, dtype=bool)

    def __init__(self, kind, param, n, theta):
        self.n, self.theta = n, theta
        self.q = (1 + theta) / 2
        self.pts, self.p = support(param, kind)
        self.T = min(self.pts)  # Kent's T* (n alpha^2 >= 395 here: the cap e^{n alpha^2} never binds)
        self.tables = {}
        self.empty = NoiseMaximum(n // 2, RR_FLIP, 100)  # K = 100 empty bins: its cost does not depend on K

    def invert(self, tab, count, rng):
        u, g, i, f, b = (a[:count] for a in (self.u, self.g, self.i, self.f, self.b))
        rng.random(out=u)
        np.multiply(u, tab.G, out=f)
        np.copyto(g, f, casting="unsafe")  # floor of a non-negative float
        np.take(tab.guide, g, out=i, mode="clip")  # in range; mode="raise" buffers out
        np.take(tab.F, i, out=f, mode="clip")
        np.less_equal(f, u, out=b)
        i += b
        np.take(tab.F, i, out=f, mode="clip")
        np.less_equal(f, u, out=b)
        if b.any():
            late = np.flatnonzero(b)
            i[late] = np.searchsorted(tab.F, u[late], side="right")
        return i

    def sums(self, N, count, rng, method):
        """``count`` draws of Bin(N, q), CALL_DRAWS at a time (the inversion's table built at its first use)."""
        tab = None
        if method == "inversion":
            tab = self.tables.get(N)
            if tab is None:
                tab = self.tables[N] = InversionTable(N, self.q)
        for start in range(0, count, CALL_DRAWS):
            k = min(CALL_DRAWS, count - start)
            if tab is not None and tab.ok:
                self.invert(tab, k, rng)
            else:
                rng.binomial(N, self.q, size=k)

    def run(self, estimators, reps, method, rng, fresh=False, further=0):
        """One timed run; ``further``: DAME's further runs on the same users (their votes and noise)."""
        if fresh:  # tabulate the cdfs again (to time them with a run)
            self.tables = {}
        n, h = self.n, self.n // 2
        both = "kent" in estimators
        n_cells = (5 if both else 3) + 2 * further
        cells = np.full(n_cells, 1 / n_cells)  # the votes' cells (their cuts joined)
        step = max(1, CALL_DRAWS // h)  # replications drawn together (about CALL_DRAWS releasing users)
        for start in range(0, reps, step):
            r = min(step, reps - start)
            if len(self.pts) > 1:
                counts = rng.multinomial(h, self.p, size=2 * r)
                voters, releasing = counts[0::2], counts[1::2].sum(axis=0)
            else:
                voters, releasing = np.full((r, 1), h), [h * r]
            for k, (a, c) in enumerate(zip(self.pts, releasing)):
                rng.multinomial(voters[:, k], cells)  # each row's voters of this size, per cell
                if both and a > self.T:
                    self.sums(self.T, c, rng, method)
                    self.sums(a - self.T, c, rng, method)
                else:
                    self.sums(a, c, rng, method)
            for _ in range((2 if both else 1) + further):  # votes and Laplace sums: one set per estimator and run
                rng.binomial(np.zeros((r, 3), np.int64) + h // 2, 1 - RR_FLIP)
                rng.binomial(np.zeros((r, 3), np.int64) + h - h // 2, RR_FLIP)
                rng.random((r, 3))
                self.empty.draw(r, rng)  # the bins no voter reached: their largest noisy total
                rng.standard_gamma(h, size=r)
                rng.standard_gamma(h, size=r)
            if "duchi" in estimators:
                rng.binomial(n, 0.5 + self.theta / (2 * DUCHI_B), size=r)


PLOTTED = ((10**4, 10**5, 10**6, 1000), (10**5, 10**5, 10**8, 100))  # Fig. 1b's settings: n, m1, m2, replications


def ms(v):
    """User + system CPU of a timing, in ms."""
    return f"{v[0] * 1e3:.4g}+{v[1] * 1e3:.3g}"


def plotted_call(rho, n, m1, m2):
    """Fig. 1b's call at ``rho`` as the figure makes it: (law, m_tilde, more_m_tildes)."""
    law = sizes.finite({m1: 1 - rho, m2: rho})
    paper, unit = (dame.m_tilde(law, n=n, alpha=ALPHA, constants=c) for c in ("paper", "unit"))
    return law, paper, [m for m in dict.fromkeys((unit, m1)) if m != paper]


def plotted_table(rounds, rhos, rng):
    """Fig. 1b as plotted (the figure's exact call) against the floor of all three extended to its further runs."""
    cells = []
    for n, m1, m2, reps in PLOTTED:
        for rho in rhos:
            law, mt, more = plotted_call(rho, n, m1, m2)
            fl = Floor("plotted", (rho, m1, m2), n, 0.0)
            fl.run(RUNS["all three"], 1, "inversion", rng, further=len(more))  # the floor's tables (untimed)
            cells.append((f"n=1e{round(math.log10(n))} m2=1e{round(math.log10(m2))} rho={rho:.1f}", law, n, reps, mt,
                          more, fl))
    times = {c[0]: ([], []) for c in cells}
    for _ in range(rounds):
        for label, law, n, reps, mt, more, fl in cells:
            t = [timed(lambda: fl.run(RUNS["all three"], reps, method, rng, further=len(more)), reps)
                 for method in ("numpy", "inversion")]
            times[label][0].append(min(t, key=lambda v: v[0] + v[1]))

            def call(r, seed):
                return simulate.compare(theta=0.0, sizes=law, n=n, alpha=ALPHA, reps=r, seed=seed, m_tilde=mt,
                                        more_m_tildes=more)
            call(1, 2)  # tables (untimed)
            times[label][1].append(timed(lambda: call(reps, 1), reps))
    print(f"\nFig. 1b as plotted (the figure's call: all three, DAME at the paper's m~ and further runs), CPU ms per "
          f"replication (user + system; best of {rounds} interleaved rounds)")
    print(f"{'setting':28s} {'further m~':>22s} {'floor u+s':>14s} {'engine u+s':>16s} {'ratio':>7s}")
    worst = (0.0, "")
    for label, _, _, reps, mt, more, _ in cells:
        f = min(times[label][0], key=lambda v: v[0] + v[1])
        e = min(times[label][1], key=lambda v: v[0] + v[1])
        r = (e[0] + e[1]) / (f[0] + f[1])
        worst = max(worst, (r, label))
        print(f"{label:28s} {','.join(str(m) for m in more) or '-':>22s} {ms(f):>14s} {ms(e):>16s} {r:6.2f}x")
    ok = "met" if worst[0] <= TARGETS["all three"] else "NOT met"
    print(f"worst Fig. 1b as plotted: {worst[0]:.2f}x the floor at {worst[1]} (target <= {TARGETS['all three']}x: {ok})")


def per_replication(estimators, law, n, theta, reps):
    simulate.compare(theta=theta, sizes=law, n=min(n, 2**16), alpha=ALPHA, reps=1, seed=2,  # tables (untimed)
                     estimators=estimators)
    return timed(lambda: simulate.compare(theta=theta, sizes=law, n=n, alpha=ALPHA, reps=reps, seed=1,
                                          estimators=estimators), reps)


DRAW_SIZES = (10, 10**3, 10**5, 10**6, 10**7)
DRAW_COUNT = 60_000  # draws per call: a chunk of the engine at n = 10^4


def per_draw(N, rng):
    """CPU seconds per draw of Bin(N, 1/2): numpy's sampler, then the inversion (its table built beforehand)."""
    a = timed(lambda: rng.binomial(N, 0.5, size=DRAW_COUNT), DRAW_COUNT)
    b = timed(lambda: simulate.binomial_inversion(N, 0.5, DRAW_COUNT, rng), DRAW_COUNT)
    return a[0] + a[1], b[0] + b[1]


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


MEMORY_PROBE = """
import sys, tracemalloc, warnings
from bounds import dame, simulate, sizes
warnings.simplefilter("ignore")
n, est = int(sys.argv[1]), tuple(sys.argv[2].split(","))
run = lambda n, reps: simulate.compare(theta=0.3, sizes=sizes.point(10**6), n=n, alpha=22 / 35, reps=reps, seed=0,
                                       estimators=est)
run(1000, 1)  # imports and tables
tracemalloc.start()
run(n, 2)
print(tracemalloc.get_traced_memory()[1] / 2**20)
"""


def memory_table(ns):
    """Peak memory of one run of 2 replications (numpy's and Python's allocations, tracemalloc), fresh process, MiB.

    (Not ``ru_maxrss``: a child process starts with its parent's.)
    """
    print("\nPeak memory of simulate.compare (2 replications, m = 10^6, theta = 0.3; tracemalloc in a fresh process), "
          "MiB, and per user")
    for n in ns:
        row = []
        for name, est in RUNS.items():
            out = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(n), ",".join(est)], capture_output=True,
                                 text=True, check=True).stdout.strip()
            row.append(f"{name} {float(out):8.1f} MiB ({float(out) * 2**20 / n:5.1f} B/user)")
        print(f"n=1e{round(math.log10(n))}: " + "   ".join(row))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer settings, 2 rounds")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--big", action="store_true", help="also n = 10^8 (slow; memory: a few MiB beyond the interpreter)")
    ap.add_argument("--memory", action="store_true", help="also the peak memory of one run at n = 10^7 (10^8)")
    ap.add_argument("--no-draws", action="store_true", help="skip the table of single binomial calls")
    ap.add_argument("--memory-only", action="store_true", help="only the peak memory table")
    ap.add_argument("--plotted-only", action="store_true", help="only the Fig. 1b as plotted table")
    args = ap.parse_args()
    warnings.simplefilter("ignore", PaperAssumptionWarning)
    if args.memory_only:
        memory_table([10**6, 10**7] + ([10**8] if args.big else []))
        return
    rounds = 2 if args.quick else args.rounds
    if args.plotted_only:
        plotted_table(rounds, (0.5,) if args.quick else (0.1, 0.5, 0.9), np.random.default_rng(0))
        return
    ms = (10, 10**6, 10**12) if args.quick else (10, 10**3, 10**6, 10**9, 10**12)
    ns = (10**3, 10**5, 10**7) if args.quick else (10**3, 10**4, 10**5, 10**6, 10**7)
    ns += (10**8,) if args.big else ()
    thetas = (0.0, 0.3)
    rhos = (0.0, 0.5, 0.9) if args.quick else (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0)
    settings = [(f"n=1e{round(math.log10(n))} m=1e{round(math.log10(m))} th={theta}", sizes.point(m), n, theta,
                 Floor("size", m, n, theta)) for n in ns for m in ms for theta in thetas]
    settings += [(f"Fig.1b rho={rho:.1f}", fig1b_law(rho), 10**4, 0.0, Floor("fig1b", rho, 10**4, 0.0))
                 for rho in rhos]
    for _, law, n, theta, fl in settings:  # warm up: imports, caches, the floor's tables
        simulate.compare(theta=theta, sizes=law, n=n, alpha=ALPHA, reps=1, seed=0)
        fl.run(("duchi", "kent", "dame"), 1, "inversion", np.random.default_rng(0))
    rng = np.random.default_rng(0)
    kinds = (*(f"floor {k}" for k in RUNS), *RUNS)
    times = {(s[0], k): [] for s in settings for k in kinds}
    for _ in range(rounds):
        for label, law, n, theta, fl in settings:
            reps = reps_for(n)
            for name, est in RUNS.items():
                t = [timed(lambda: fl.run(est, reps, method, rng), reps) for method in ("numpy", "inversion")]
                times[label, f"floor {name}"].append(min(t, key=lambda v: v[0] + v[1]))  # the cheaper method
                times[label, name].append(per_replication(est, law, n, theta, reps))
    best = {k: min(v, key=lambda v: v[0] + v[1]) for k, v in times.items()}
    print(f"Monte Carlo per replication, CPU ms (user + system; best of {rounds} interleaved rounds), alpha = 22/35")
    print(f"{'setting':26s} {'floorD u+s':>14s} {'DAME u+s':>16s} {'DAME/fl':>8s} {'floor3 u+s':>14s} "
          f"{'all3 u+s':>16s} {'all3/fl':>8s} {'faults D/3/fl':>16s}")
    worst = {name: (0.0, "") for name in RUNS}

    def us(v):
        return f"{v[0] * 1e3:.4g}+{v[1] * 1e3:.3g}"

    for label, _, n, _, _ in settings:
        fd, f3 = best[label, "floor dame"], best[label, "floor all three"]
        d, a = best[label, "dame"], best[label, "all three"]
        rd, ra = (d[0] + d[1]) / (fd[0] + fd[1]), (a[0] + a[1]) / (f3[0] + f3[1])
        for name, r in (("dame", rd), ("all three", ra)):
            if r > worst[name][0]:
                worst[name] = (r, label)
        print(f"{label:26s} {us(fd):>14s} {us(d):>16s} {rd:7.2f}x {us(f3):>14s} {us(a):>16s} {ra:7.2f}x "
              f"{d[2]:5.0f}/{a[2]:5.0f}/{f3[2]:4.0f}")
    for name in RUNS:
        r, where = worst[name]
        ok = "met" if r <= TARGETS[name] else "NOT met"
        print(f"worst {name}: {r:.2f}x the floor at {where} (target <= {TARGETS[name]}x: {ok})")
    print(f"peak resident memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    plotted_table(rounds, (0.5,) if args.quick else (0.1, 0.5, 0.9), rng)
    if args.memory:
        memory_table([n for n in ns if n >= 10**6])
    if not args.no_draws:
        draw_table(rounds)


if __name__ == "__main__":
    main()
