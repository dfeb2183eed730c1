"""Time the Monte Carlo layer against an honest floor: the cheapest correct way to draw what a replication draws.

Settings: every user holds m samples (``sizes.point(m)``), m from 10 to 10^12, n from 10^3 to
10^7 (10^8 with ``--big``), theta in {0, 0.3}, alpha = 22/35; and Fig. 1b's setting, n = 10^4,
M(10^5) = 1 - rho, M(10^6) = rho, at every rho of the figure.

The floor
---------
Defined and written in ``floor_simulate.py`` (its docstring states what it draws and why), independently
of ``bounds``.

Measurement
-----------
Every timed call is one ``simulate.compare`` (its plan included, its tables built just before) or
one floor run, of the same
number of replications (about 2·10^6 users' worth, at least 4: the engine allocates its per-user
arrays once per call, as a run of many replications does; where the engine's call of all three
then takes under 0.1 s, its releasing users counted rather than drawn, as many as take about
0.1 s, at most 4096: ``calibrated_reps``); resource.getrusage(RUSAGE_SELF)
deltas around it give user and system CPU (system time is mostly page faults) and the minor page
faults, per replication.  In a round, the floor (its three methods), DAME alone and all three run one
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
against ``simulate.binomial_inversion`` (its table built beforehand), per draw; a third, a small vote's
binomials Bin(k, flip) with k varying (n_v = 500 voters): numpy's sampler, the engine's tables and the floor's.

Run: ``python benchmarks/bench_simulate.py`` (``--quick``: fewer settings, 2 rounds; ``--plotted-only``: the
Fig. 1b as plotted table alone; ``--windows``: the law of the bins each vote draws, at every setting, alone).
"""

import argparse
import math
import resource
import subprocess
import sys
import warnings

import numpy as np

from bounds import dame, simulate, sizes
from floor_simulate import ALPHA, RR_FLIP, Floor, SmallBinomials, window_law  # this directory's floor
from bounds.numerics import PaperAssumptionWarning

TARGETS = {"dame": 1.3, "all three": 1.5}
RUNS = {"dame": ("dame",), "all three": ("duchi", "kent", "dame")}
METHODS = ("numpy", "inversion", "histogram")  # the floor's ways to draw the releasing sums (floor_simulate.py)
USER_DRAWS = 2 * 10**6  # users drawn per timing (replications = this / n, at least MIN_REPS)
MIN_REPS = 4  # a run's per-user arrays are allocated once per call: a call of one replication would time that alone


def fig1b_law(rho):
    if rho == 0:
        return sizes.point(10**5)
    if rho == 1:
        return sizes.point(10**6)
    return sizes.finite({10**5: 1 - rho, 10**6: rho})


def paper_m_tilde(law, n):
    """The m~ a run uses by default: Theorem 2's, with the paper's constants (a setting's constant, not timed)."""
    return dame.m_tilde(law, n=n, alpha=ALPHA, constants="paper")


def reps_for(n):
    """Replications per timed call: about USER_DRAWS users' worth, at least MIN_REPS."""
    return int(min(1024, max(MIN_REPS, USER_DRAWS // n)))


def methods(n, reps):
    """The floor's methods timed at a setting: all three, or only its counts per possible sum where a call holds
    more than 4 x USER_DRAWS users (calibrated_reps raised it: the engine's users are counted there, and so are the
    floor's, the cheapest way; drawing each user would take minutes a call)."""
    return METHODS if reps * n <= 4 * USER_DRAWS else ("histogram",)


CALL_CPU = 0.1  # CPU seconds of the engine's call (all three) below which a timed call holds more replications
MAX_REPS = 4096


def calibrated_reps(law, n, theta):
    """Replications per timed call of a setting: ``reps_for(n)``, or, where the engine's call of all three then takes
    less than CALL_CPU (its releasing users counted per possible sum, not drawn: a replication costs little more
    than its fixed costs), as many as take about CALL_CPU, at most MAX_REPS: a call's own fixed costs (checks, the
    plan) shared as in a run of many replications, on both sides alike."""
    reps = reps_for(n)
    for _ in range(3):  # a short call's time per replication is mostly the call's own: measured again at the new size
        v = per_replication(RUNS["all three"], law, n, theta, reps)
        if reps * (v[0] + v[1]) >= CALL_CPU / 2 or reps == MAX_REPS:
            break
        reps = int(min(MAX_REPS, max(2 * reps, CALL_CPU / max(v[0] + v[1], 1e-9))))
    return reps


def usage():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return np.array([r.ru_utime, r.ru_stime, r.ru_minflt])


def timed(fn, reps):
    """(user s, system s, minor faults) per replication of ``fn()``."""
    before = usage()
    fn()
    return (usage() - before) / reps


def window_table(settings, plotted):
    """The law of the bins drawn per vote at every setting, exact (``window_law``) beside the floor's own count."""
    print("Bins whose noisy totals a vote must draw (next to or at an occupied bin), per row: exact law, mean, "
          "P(a bin no voter reaches exists: its maximum drawn), and the mean counted by the floor itself")
    print(f"{'setting':28s} {'run':>9s} {'vote':>10s} {'N':>8s}  {'P(w=0..5)':42s} {'E w':>6s} {'P(w<N)':>7s} "
          f"{'counted':>12s}")
    rng = np.random.default_rng(1)
    rows: list[tuple[str, Floor, int, list[int]]] = [(label, fl, n, []) for label, _, n, _, fl in settings]
    rows += [(label, fl, n, list(more)) for label, n, more, fl in plotted]
    for label, fl, n, more in rows:
        for name, est in (RUNS.items() if not more else [("all three", RUNS["all three"])]):
            both = "kent" in est
            tally: list[list[int]] = [[] for _ in fl.layout(both, more)[0]]
            reps = reps_for(n)
            fl.run(est, reps, "numpy", rng, further=more, tally=tally)
            kinds = (["Kent"] if both else []) + ["DAME"] + [f"DAME@{m}" for m in more]
            for kind, (N, law), t in zip(kinds, window_law(fl, both, more), tally):
                ps = " ".join(f"{law.get(w, 0.0):6.4f}" for w in range(6))
                mean = sum(w * q for w, q in law.items())
                below = sum(q for w, q in law.items() if w < N)
                print(f"{label:28s} {name:>9s} {kind:>10s} {N:8d}  {ps:42s} {mean:6.3f} {below:7.4f} "
                      f"{np.mean(t):6.3f} ({len(t)})")


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
            fl = Floor("plotted", (rho, m1, m2), n, 0.0, mt)
            fl.run(RUNS["all three"], 1, "histogram", rng, further=more)  # its tables, cells, masses (untimed)
            cells.append((f"n=1e{round(math.log10(n))} m2=1e{round(math.log10(m2))} rho={rho:.1f}", law, n, reps, mt,
                          more, fl))
    times = {c[0]: ([], []) for c in cells}
    for _ in range(rounds):
        for label, law, n, reps, mt, more, fl in cells:
            t = [timed(lambda: fl.run(RUNS["all three"], reps, method, rng, further=more), reps)
                 for method in METHODS]
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


def vote_draw_table(rounds, n_voters=500):
    """CPU ns per draw of a small vote's binomials Bin(k, flip), k uniform on 0 .. n_voters (a bin's voters vary):
    numpy's sampler, the engine's tables (``bounds.estimators._votes.flip_draws``) and the floor's
    (``floor_simulate.SmallBinomials``), their tables built beforehand; best of interleaved calls."""
    from bounds.estimators import _votes

    rng = np.random.default_rng(1)
    k = rng.integers(0, n_voters + 1, DRAW_COUNT)
    small = SmallBinomials(n_voters, RR_FLIP)
    ways = {"rng.binomial": lambda: rng.binomial(k, RR_FLIP),
            "engine tables": lambda: _votes.flip_draws(k, RR_FLIP, rng.random(k.size), n_voters),
            "floor tables": lambda: small.draw(k, rng)}
    for f in ways.values():  # tables built, first-use costs paid
        f()
    best = {name: math.inf for name in ways}
    for _ in range(rounds * 10):
        for name, f in ways.items():
            t = timed(f, DRAW_COUNT)
            best[name] = min(best[name], t[0] + t[1])
    print(f"\nA small vote's binomials Bin(k, flip), k uniform on 0..{n_voters}, CPU ns per draw (best of "
          f"{rounds * 10} interleaved calls of {DRAW_COUNT} draws)")
    print("  " + "  ".join(f"{name} {v * 1e9:6.1f}" for name, v in best.items()))


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
    ap.add_argument("--no-draws", action="store_true", help="skip the tables of single binomial calls")
    ap.add_argument("--memory-only", action="store_true", help="only the peak memory table")
    ap.add_argument("--plotted-only", action="store_true", help="only the Fig. 1b as plotted table")
    ap.add_argument("--windows", action="store_true", help="only the law of the bins each vote draws, per setting")
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
                 Floor("size", m, n, theta, paper_m_tilde(sizes.point(m), n)))
                for n in ns for m in ms for theta in thetas]
    settings += [(f"Fig.1b rho={rho:.1f}", fig1b_law(rho), 10**4, 0.0,
                  Floor("fig1b", rho, 10**4, 0.0, paper_m_tilde(fig1b_law(rho), 10**4))) for rho in rhos]
    if args.windows:
        plotted = [(f"n=1e{round(math.log10(n))} m2=1e{round(math.log10(m2))} rho={rho:.1f} plotted", n, more,
                    Floor("plotted", (rho, m1, m2), n, 0.0, mt))
                   for n, m1, m2, _ in PLOTTED for rho in ((0.5,) if args.quick else (0.1, 0.5, 0.9))
                   for _, mt, more in [plotted_call(rho, n, m1, m2)]]
        window_table(settings, plotted)
        return
    calls = {}
    for label, law, n, theta, fl in settings:  # warm up: imports, caches, the floor's tables; each call's size
        simulate.compare(theta=theta, sizes=law, n=n, alpha=ALPHA, reps=1, seed=0)
        calls[label] = calibrated_reps(law, n, theta)
        for est in RUNS.values():  # the floor's cells of each run, its tables and its sums' masses
            fl.run(est, 1, "histogram", np.random.default_rng(0))
    rng = np.random.default_rng(0)
    kinds = (*(f"floor {k}" for k in RUNS), *RUNS)
    times = {(s[0], k): [] for s in settings for k in kinds}
    for _ in range(rounds):
        for label, law, n, theta, fl in settings:
            reps = calls[label]
            for name, est in RUNS.items():
                t = [timed(lambda: fl.run(est, reps, method, rng), reps) for method in methods(n, reps)]
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
        vote_draw_table(rounds)


if __name__ == "__main__":
    main()
