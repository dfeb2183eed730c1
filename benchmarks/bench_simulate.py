"""Time the Monte Carlo layer against an honest floor: the cheapest correct way to draw what a replication draws.

Settings: every user holds m samples (``sizes.point(m)``), m from 10 to 10^12, n from 10^3 to
10^7 (10^8 with ``--big``), theta in {0, 0.3}, alpha = 22/35; and Fig. 1b's setting, n = 10^4,
M(10^5) = 1 - rho, M(10^6) = rho, at every rho of the figure.

The floor
---------
Written here, independently of ``bounds`` (of which it reads only each setting's m~, Theorem 2's,
from ``bounds.dame.m_tilde``, as the engine's call takes it; its bins' widths, eqs. (4) and (25),
are written here): the random variables any exact simulation of the estimators on sufficient
statistics must draw, drawn the cheapest correct way we know, and nothing else (no estimator
arithmetic: binning, clipping and means are the engine's overhead, which the targets allow
for; the floor adds up only the cells' counts that give each bin's number of voters next to it,
one small matrix product a size and vote).  Per replication of n users (n even, two halves of
n/2):

* **the users' sizes**: a point law draws nothing; a finite law draws each half's multiset of
  sizes, one multinomial (n/2 over the support) per half;
* **the voters' bins**: the votes read nothing of a voter but its bin in each vote, and a
  voter's bins are a function of its sum, constant between a few cuts; so a row's voters of one
  size are one multinomial over the cells between the cuts (the sum's law summed over each
  cell), and no voter's sum is drawn.  The floor draws that multinomial per row and size over
  that size's cells: the cuts of every vote that reads the size joined (a DAME run does not read a
  size below its m~), within the sums its tables reach (mean +- 15 sd + 40), each cell of its
  exact mass (computed once a run with ``scipy.stats.binom``, not timed); a size above Kent's T*
  is counted the same way, its cells those of (first T* samples, whole sum) jointly.  That is 1
  cell at m = 10 (one bin: no draw), 2 to 4 for DAME alone and 3 to 6 for Kent and DAME
  elsewhere, 4 + 2 (DAME alone) and 6 + 8 at Fig. 1b's two sizes, 6 + 15 and 5 + 9 as plotted;
* **the releasing users' sums**: each releasing user's sum of m samples under the two-point
  law (mean theta) is one Bin(m, q), q = (1 + theta)/2, drawn per user (the estimators clip
  each releasing user's mean, so no coarser statistic will do).  All users of one size draw
  together, the timed call's replications one after another (2^16 draws a call, into
  preallocated buffers), by the cheaper, at that setting, of (a) numpy's
  ``Generator.binomial`` and (b)
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
* **DAME and Kent's votes**: an election compares the noisy totals of all N = ceil(1/tau) bins,
  T_j = Bin(c_j, keep) + Bin(n/2 - c_j, flip) + U_j/2, c_j the voters whose bin is j or one of
  its neighbours (Pla et al. (2024), Algorithm 1, eqs. (5)-(7); Kent et al. (2024),
  eqs. (26)-(28); U_j the tie-breaking jitter), and keeps only the argmax.  What it must draw,
  per row and vote: nothing where N = 1 (the one bin wins whatever the totals); otherwise every
  bin with c_j > 0 -- the occupied bins and their neighbours within 0 .. N - 1, w bins, known
  from the row's multinomial counts (the cells' voters times a fixed 0/1 matrix of the bins each
  cell reaches) -- its own total with its own n (two binomials and one uniform; the second
  binomial is Bin(0, flip) where every voter is at or next to the bin, which numpy returns
  without a draw); and, where w < N, the largest total of the N - w bins no voter reaches (they
  are i.i.d., so only their maximum matters, and which of them wins is uniform: the maximum of
  K iid Bin(n/2, flip) + U/2, one uniform a row, its K-th root through the piecewise-linear cdf
  of Bin + U/2, the binomial cdf tabulated once a run over mean +- 15 sd + 40, untimed).  The
  law of w at every setting (exact, by Moebius inversion over the occupied sets, beside the
  floor's own count) is printed by ``--windows``: at m = 10, N = 1 (tau > 1) and w = 0;
  elsewhere w is 3 or 4 (4 with probability from 0 to 1 as the mean falls in its bin: 1.00 for
  DAME at n = 10^3, m = 10^6; 0.97 at Fig. 1b, rho = 0.5; 0.28 at n = 10^5, m = 10^12,
  theta = 0.3; 5 with probability at most 5e-4, at m = 10^3), and a maximum is drawn (N >= 5:
  P(w < N) = 1 to 4 decimals).  (The floor used to draw 3 bins, each from
  n/4 and n/4 voters, and a maximum, at every setting, over uniform cells: too cheap where
  w = 4, too dear where a bin's second binomial is empty and at m = 10.)  The Laplace noise of
  the releasing half: its sum is two Gamma(n/2, 1) variables.  Each estimator and run draws its
  own;
* **Duchi's**: the count of +B outputs, one Bin(n, 1/2 + theta/(2B)) (no user-level draw).

The replications of a timed call are independent, so each draw above is one numpy call for all
of the call's rows (the sizes, each size's cells, each vote's totals, maxima and Laplace sums),
the sums 2^16 at a time.  (The floor used to go about 2^16 users' rows at a time: from
n = 10^5 on, one row a time, every draw's call overhead paid per replication.)

So the floor of DAME alone is: sizes + a multinomial per row and size + n/2 releasing sums +
one vote (w totals, and the noise-only maximum where w < N) + one Laplace sum; of all three:
sizes + a multinomial per row and size + n/2 releasing sums (+ the second binomial of those
above T*) + two votes + two Laplace sums + one binomial.

**Fig. 1b as plotted**: the figure's own call (``bounds figures``, Figure 1b): all three
estimators, DAME at the paper's m~ with further DAME runs on the same users at the unit
constants' m~ and at the smallest size (those distinct from the paper's m~), at both of the
figure's settings (n = 10^4, sizes {10^5, 10^6}, 1000 replications; n = 10^5, sizes
{10^5, 10^8}, 100 replications) and a few rho.  Its floor is all three's, extended to what each
further run must draw over the same users: its own vote (the w noisy totals its voters reach,
the noise-only maximum where w < N) and its own Laplace sum, and its cuts joined to the others'
in each row's multinomial of voters; the releasing users' sums are drawn once for all runs.  A
run's m~ above a size changes no draw (those users neither vote in it nor draw anything more).
(The floor used to draw every voter's sum too: about twice the cost at every setting, work an
exact simulation need not do.)

Known to be cheaper still, and used by neither side: where a size has few possible sums (m + 1,
or a table's entries, against the n/2 releasing users of a row: m = 10, and m = 10^3 from
n = 10^4), a row's releasing users are also one multinomial over those values, the clipped sum
being the counts times the clipped means; both sides would then cost little more than their
fixed costs per replication (the plan, the elections), and the ratios would be those of fixed
costs.  Likewise in a vote: bins of equal c_j have i.i.d. totals (the occupied bin and its two
neighbours, each c_j = n/2, where a row's voters share one bin), so their maximum could be drawn
as one variable, as the empty bins' is; neither side does, and the floor draws each such bin.

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
Fig. 1b as plotted table alone; ``--windows``: the law of the bins each vote draws, at every setting, alone).
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


def paper_m_tilde(law, n):
    """The m~ a run uses by default: Theorem 2's, with the paper's constants (a setting's constant, not timed)."""
    return dame.m_tilde(law, n=n, alpha=ALPHA, constants="paper")


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


KEEP = 1 - RR_FLIP  # a vote's bit is kept with probability e^{alpha/6} / (1 + e^{alpha/6})


def dame_tau(m_tilde, n):
    """DAME's bins' half-width, Pla et al. (2024), eq. (4): sqrt(2 log(8 (sqrt(m~ n alpha^2) v 1)) / m~)."""
    return math.sqrt(2 * math.log(8 * max(math.sqrt(m_tilde * n * ALPHA**2), 1.0)) / m_tilde)


def kent_tau(T, n):
    """Kent et al.'s bins' half-width, eq. (25): sqrt(2 log(n T* alpha^2) / T*), T* = min(T, e^{n alpha^2}) = T here."""
    if math.log(T) >= n * ALPHA**2:
        raise ValueError(f"T = {T}: the cap e^(n alpha^2) binds at n = {n} (not a setting of this benchmark)")
    return math.sqrt(2 * math.log(n * T * ALPHA**2) / T)


class Vote:
    """One election: its bins' half-width, their number N = ceil(1/tau), the m~ below which a size does not vote
    (1 for Kent), and whether it reads a user's first T* samples (Kent) or its whole sum (DAME)."""

    def __init__(self, tau, m_tilde, first):
        self.tau, self.N, self.m_tilde, self.first = tau, math.ceil(1 / tau), m_tilde, first

    def bin(self, s, t):
        """The bin of a sum of s ones out of t samples: mean x = (2s - t)/t, bin min(floor((x + 1)/(2 tau)), N - 1)."""
        return min(int(s / (t * self.tau)), self.N - 1)

    def cuts(self, lo, hi, t):
        """The sums in lo + 1 .. hi where the bin changes (each the first sum of its bin)."""
        out = []
        for b in range(self.bin(lo, t) + 1, self.bin(hi, t) + 1):
            c = max(lo + 1, math.ceil(b * t * self.tau))
            while c > lo + 1 and self.bin(c - 1, t) >= b:
                c -= 1
            while self.bin(c, t) < b:
                c += 1
            out.append(c)
        return out


def window(t, q):
    """The sums a Bin(t, q) draws (mean +- 15 sd + 40, the floor's tables' window; beyond: below 1e-40)."""
    sd = math.sqrt(t * q * (1 - q))
    return max(0, math.floor(t * q - 15 * sd) - 40), min(t, math.ceil(t * q + 15 * sd) + 40)


def intervals(lo, hi, cuts):
    """The intervals [a, b] of lo .. hi between sorted cuts."""
    ends = [lo, *sorted(set(cuts)), hi + 1]
    return [(a, b - 1) for a, b in zip(ends[:-1], ends[1:])]


def size_cells(a, T, votes, q):
    """The cells of a voter of size a: (masses, bins), bins[v, c] the bin of vote v in cell c (-1: v does not read
    this size).  A vote's bin is a function of one sum (S_T for Kent, S_a for DAME), constant between its cuts; where
    all the votes that read the size read one sum, the cells are the intervals between their cuts joined, of mass
    F(b) - F(a - 1); otherwise (a > T, Kent and DAME) the pairs (Kent's interval of S_T, DAME's of S_a = S_T + S'),
    of mass sum_{s in I} P(S_T = s) P(S' in J - s).  Cells of mass 0 are dropped; the masses sum to 1."""
    reading = [v for v in votes if v.m_tilde <= a]
    if not reading:
        return np.ones(1), np.full((len(votes), 1), -1)
    ts = {min(a, T) if v.first else a for v in reading}
    mass: list[float] = []
    rows: list[list[int]] = [[] for _ in votes]
    if len(ts) == 1:
        t = ts.pop()
        lo, hi = window(t, q)
        cells = intervals(lo, hi, [c for v in reading for c in v.cuts(lo, hi, t)])
        F = stats.binom.cdf(np.array([b for _, b in cells] + [cells[0][0] - 1]), t, q)
        mass = np.diff(np.concatenate(([F[-1]], F[:-1]))).tolist()
        rows = [[v.bin(x, t) if v in reading else -1 for x, _ in cells] for v in votes]
    else:
        lo1, hi1 = window(T, q)
        lo, hi = window(a, q)
        kent_cells = intervals(lo1, hi1, [c for v in reading if v.first for c in v.cuts(lo1, hi1, T)])
        dame_cells = intervals(lo, hi, [c for v in reading if not v.first for c in v.cuts(lo, hi, a)])
        s1 = np.arange(lo1, hi1 + 1)
        p1 = stats.binom.pmf(s1, T, q)
        for x1, y1 in kent_cells:
            sel = slice(x1 - lo1, y1 - lo1 + 1)
            for x, y in dame_cells:
                g = stats.binom.cdf(y - s1[sel], a - T, q) - stats.binom.cdf(x - 1 - s1[sel], a - T, q)
                mass.append(float(np.dot(p1[sel], g)))
                for v, row in zip(votes, rows):
                    row.append(-1 if v not in reading else v.bin(x1, T) if v.first else v.bin(x, a))
    masses = np.array(mass)
    bins = np.array(rows, dtype=np.int64).reshape(len(votes), -1)
    keep = masses > 0
    masses = masses[keep]
    return masses / masses.sum(), bins[:, keep]


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

    def __init__(self, N, flip):
        self.table = InversionTable(N, flip)  # F over the window lo .. hi (its last entry inf)
        F = self.table.F.copy()
        F[-1] = 1.0
        self.below = np.concatenate(([0.0], F[:-1]))  # F(b - 1)
        self.pmf = np.maximum(F - self.below, 1e-300)

    def draw(self, K, rng):
        """One draw of the maximum over K[i] bins for each entry of K (K >= 1)."""
        v = rng.random(K.size)
        np.power(v, 1.0 / K, out=v)
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

    def __init__(self, kind, param, n, theta, m_tilde):
        self.n, self.theta, self.m_tilde = n, theta, m_tilde
        self.q = (1 + theta) / 2
        self.pts, self.p = support(param, kind)
        self.T = min(self.pts)  # Kent's T* (n alpha^2 >= 395 here: the cap e^{n alpha^2} never binds)
        self.tables = {}
        self.layouts, self.cells = {}, {}
        self.empty = NoiseMaximum(n // 2, RR_FLIP)

    def layout(self, both, further=()):
        """The votes of a run (Kent's if ``both``, DAME's at m~, DAME's further runs at ``further``), each size's
        cells' masses, and for each vote and size ``reach[v][k]`` (cells x the bins next to some cell's, within
        0 .. N - 1): 1 where the cell's voters put a one on the bin (their bin or a neighbour).  Computed once a run."""
        key = (both, tuple(further))
        if key not in self.layouts:
            votes = [Vote(kent_tau(self.T, self.n), 1, True)] if both else []
            votes += [Vote(dame_tau(mt, self.n), mt, False) for mt in (self.m_tilde, *further)]
            cells = [size_cells(a, self.T, votes, self.q) for a in self.pts]
            reach = []
            for i, v in enumerate(votes):
                seen = np.concatenate([b[i] for _, b in cells])
                seen = seen[seen >= 0]
                lo = max(int(seen.min()) - 1, 0) if seen.size else 0
                hi = min(int(seen.max()) + 1, v.N - 1) if seen.size else -1
                j = np.arange(lo, hi + 1)
                reach.append([((b[i][:, None] >= 0) & (np.abs(b[i][:, None] - j) <= 1)).astype(np.int64)
                              for _, b in cells])
            self.layouts[key] = (votes, [m for m, _ in cells], reach)
            self.cells[key] = cells
        return self.layouts[key]

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

    def run(self, estimators, reps, method, rng, fresh=False, further=(), tally=None):
        """One timed run; ``further``: the m~ of DAME's further runs on the same users (their votes and noise);
        ``tally`` (untimed use): a list per vote, each row's number of bins drawn appended."""
        if fresh:  # tabulate the cdfs again (to time them with a run)
            self.tables = {}
        n, h = self.n, self.n // 2
        both = "kent" in estimators
        votes, masses, reach = self.layout(both, further)
        r = reps  # the call's replications together: each draw one call for all rows (the sums CALL_DRAWS a call)
        if len(self.pts) > 1:
            counts = rng.multinomial(h, self.p, size=2 * r)
            voters, releasing = counts[0::2], counts[1::2].sum(axis=0)
        else:
            voters, releasing = np.full((r, 1), h), [h * r]
        ones = [np.zeros((r, m[0].shape[1]), dtype=np.int64) for m in reach]  # each vote's true ones per bin
        for k, (a, c) in enumerate(zip(self.pts, releasing)):
            per = rng.multinomial(voters[:, k], masses[k]) if masses[k].size > 1 else voters[:, k:k + 1]
            for v in range(len(votes)):  # each row's voters of this size, per cell, put their ones on bins
                ones[v] += per @ reach[v][k]
            if both and a > self.T:
                self.sums(self.T, c, rng, method)
                self.sums(a - self.T, c, rng, method)
            else:
                self.sums(a, c, rng, method)
        for i, (v, near) in enumerate(zip(votes, ones)):  # votes and Laplace sums: one set per estimator and run
            rng.standard_gamma(h, size=r)
            rng.standard_gamma(h, size=r)
            if v.N == 1:  # one bin: the election is certain, nothing to draw
                if tally is not None:
                    tally[i].extend([0] * r)
                continue
            hit = near > 0
            c = near[hit]  # the bins some voter reaches: each its own total, Bin(c, keep) + Bin(h - c, flip) + U/2
            rng.binomial(c, KEEP)
            rng.binomial(h - c, RR_FLIP)
            rng.random(c.size)
            K = v.N - hit.sum(axis=1)  # the bins no voter reaches: their largest noisy total, where any
            if tally is not None:
                tally[i].extend((v.N - K).tolist())
            K = K[K > 0]
            if K.size:
                self.empty.draw(K, rng)
        if "duchi" in estimators:
            rng.binomial(n, 0.5 + self.theta / (2 * DUCHI_B), size=r)


def window_law(fl, both, further=()):
    """Each vote's exact law of the number of bins a row must draw, w = |the bins within 0 .. N - 1 next to or at an
    occupied bin|, from its h = n/2 voters, i.i.d. over the vote's bins with the cells' masses (a voter of a size the
    vote does not read, or of none, occupies nothing).  P(the occupied set is S) by Moebius inversion of
    P(occupied within S) = (1 - p(bins outside S))^h.  Returns, per vote, (N, {w: probability})."""
    votes = fl.layout(both, further)[0]
    cells = fl.cells[(both, tuple(further))]
    out = []
    for i, v in enumerate(votes):
        if v.N == 1:  # one bin: the election is certain, nothing drawn
            out.append((1, {0: 1.0}))
            continue
        p: dict[int, float] = {}
        for pk, (masses, bins) in zip(fl.p, cells):
            for b, mass in zip(bins[i].tolist(), masses.tolist()):
                if b >= 0:
                    p[b] = p.get(b, 0.0) + pk * mass
        B = sorted(p)
        if len(B) > 16:
            raise ValueError(f"{len(B)} bins reached: too many subsets")
        P = np.array([p[b] for b in B])
        subsets = (np.arange(1 << len(B))[:, None] >> np.arange(len(B))) & 1  # subset x bin
        outside = (1 - subsets) @ P
        with np.errstate(divide="ignore"):  # log(0): no voter within S has probability 0
            f = np.exp((fl.n // 2) * np.log1p(-np.minimum(outside, 1.0)))  # P(occupied within S)
        for bit in range(len(B)):  # Moebius: P(occupied exactly S)
            has = (np.arange(f.size) >> bit) & 1 == 1
            f[has] -= f[np.flatnonzero(has) ^ (1 << bit)]
        law: dict[int, float] = {}
        for S, prob in zip(subsets, f):
            occupied = [b for b, s in zip(B, S) if s]
            w = len({j for b in occupied for j in (b - 1, b, b + 1) if 0 <= j < v.N})
            law[w] = law.get(w, 0.0) + float(prob)
        out.append((v.N, law))
    return out


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
            fl.run(RUNS["all three"], 1, "inversion", rng, further=more)  # the floor's tables and cells (untimed)
            cells.append((f"n=1e{round(math.log10(n))} m2=1e{round(math.log10(m2))} rho={rho:.1f}", law, n, reps, mt,
                          more, fl))
    times = {c[0]: ([], []) for c in cells}
    for _ in range(rounds):
        for label, law, n, reps, mt, more, fl in cells:
            t = [timed(lambda: fl.run(RUNS["all three"], reps, method, rng, further=more), reps)
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
    for _, law, n, theta, fl in settings:  # warm up: imports, caches, the floor's tables
        simulate.compare(theta=theta, sizes=law, n=n, alpha=ALPHA, reps=1, seed=0)
        for est in RUNS.values():  # the floor's cells of each run
            fl.run(est, 1, "inversion", np.random.default_rng(0))
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
