"""The floor of ``bench_simulate.py``: the cheapest correct way to draw what a replication of the Monte Carlo
layer must draw.

Written here, independently of ``bounds`` (the benchmark passes each setting's m~, Theorem 2's, from
``bounds.dame.m_tilde``, as the engine's call takes it; the bins' widths, eqs. (4) and (25), are written
here): the random variables any exact simulation of the estimators on sufficient
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
  law (mean theta) is one Bin(m, q), q = (1 + theta)/2.  The estimators clip each releasing
  user's mean, so a row's clipped sum depends on its users only through how many hold each
  possible sum: where a row's releasing users of a size are many against those sums (at least
  8 a sum on average over the call's rows, the sums of mass beyond 2^-64 on either side:
  11 at m = 10, 287 at m = 10^3, 9,081 at m = 10^6 at theta = 0; numpy's multinomial costs 40-90 ns a
  sum, an inversion about 7 ns a user), the floor draws those counts, one multinomial a row.
  Otherwise each user's sum is drawn: all users of one size
  together, the timed call's replications one after another (2^16 draws a call, into
  preallocated buffers), by the cheaper, at that setting, of (a) numpy's
  ``Generator.binomial`` and (b)
  inversion of the cdf tabulated here with ``scipy.stats.binom.cdf`` over mean +- 15 sd + 40
  (where that window holds at most 2^16 points): one uniform per draw, a guide of 2^k >= 8 x
  entries (at most 2^20 cells) whose cells holding no step of the cdf are marked sure (95-99% of
  draws: one gather), the others two steps up, then a search for the rare draws still short (the
  same entry as a search of the whole cdf; as the engine's guide).  The three ways ((a) and (b)
  for every size, and (c) the counts where they pay, (b) elsewhere) are timed in every round; the
  floor is the smallest.  Tables are a run's fixed cost, outside the timings on
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
  without a draw; where n/2 <= 511, at n = 10^3, the total is c - Bin(c, flip) + Bin(n/2 - c, flip),
  the same law, both binomials by inversion of one table of Bin(k, flip), k <= n/2, one uniform
  each, as the engine draws them: the benchmark's last table times both against numpy's sampler,
  about 20-25 ns a draw against 100); and, where w < N,
  the largest total of the N - w bins no voter reaches (they are i.i.d., so only their maximum
  matters, and which of them wins is uniform: the maximum of K iid Bin(n/2, flip) + U/2, one
  uniform a row, its K-th root through the piecewise-linear cdf of Bin + U/2, the binomial cdf
  tabulated once a run over mean +- 15 sd + 40, untimed).  The
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

So the floor of DAME alone is: sizes + a multinomial per row and size + the releasing sums (n/2
draws, or a multinomial per row and size over the possible sums) + one vote (w totals, and the
noise-only maximum where w < N) + one Laplace sum; of all three: sizes + a multinomial per row and
size + the releasing sums (+ the second binomial of those above T*) + two votes + two Laplace sums
+ one binomial.

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

Known to be cheaper still, and used by neither side: counting a row's releasing users per
possible sum where those sums exceed 2^16 (the engine's tables stop there): at n = 10^7 and
m = 10^9, about 3·10^5 sums of mass beyond 2^-64 against 5·10^6 releasing users a row.  And in
a vote, bins of equal c_j have i.i.d.
totals (the occupied bin and its two neighbours, each c_j = n/2, where a row's voters share one
bin), so their maximum could be drawn as one variable, as the empty bins' is; neither side does,
and the floor draws each such bin.
"""

import math

import numpy as np
from scipy import stats

ALPHA = 22 / 35
CALL_DRAWS = 2**16  # draws per call of the floor's samplers
DUCHI_B = (math.exp(ALPHA) + 1) / (math.exp(ALPHA) - 1)  # Duchi et al.'s +-B at alpha
RR_FLIP = 1 / (1 + math.exp(ALPHA / 6))  # a vote's bit flips with probability 1 / (1 + e^{alpha/6})


def support(rho_or_m, kind):
    """(sizes, masses) of a setting's law, written out here (``kind`` "plotted": ``(rho, m1, m2)``)."""
    if kind == "size":
        return [rho_or_m], [1.0]
    rho, m1, m2 = rho_or_m if kind == "plotted" else (rho_or_m, 10**5, 10**6)
    return [s for s, p in ((m1, 1 - rho), (m2, rho)) if p > 0], [p for p in (1 - rho, rho) if p > 0]


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


HISTOGRAM_USERS = 8  # a row's releasing users of a size, per possible sum, from which they are one multinomial
HISTOGRAM_TAIL = 2.0**-64  # the mass left out of the possible sums on each side at most


def entry_masses(N, q):
    """P(Bin(N, q) = s) for the sums s of mean +- 15 sd + 40, without the outer ones whose mass, summed from each
    end, stays within HISTOGRAM_TAIL (scipy.stats.binom.pmf; the dropped mass goes to the last sum kept); None
    past 2^16 sums (each user drawn there: its users are never as many as 8 a sum in these settings)."""
    lo, hi = window(N, q)
    if hi - lo + 1 > 2**16:
        return None
    p = stats.binom.pmf(np.arange(lo, hi + 1), N, q)
    below = int(np.searchsorted(np.cumsum(p), HISTOGRAM_TAIL, side="right"))
    above = int(np.searchsorted(np.cumsum(p[::-1]), HISTOGRAM_TAIL, side="right"))
    return p[below:p.size - above]


FINE_GUIDE = 2**20  # cells of an inversion table's guide at most (8 a table entry below that)


class InversionTable:
    """Bin(N, q) by inversion of its cdf over mean +- 15 sd + 40 (built with scipy.stats), with a guide table of
    G >= 8 cells an entry (at most FINE_GUIDE): guide[g] = the first i with F[i] > g / G, stored as -1 - i where the
    cell holds a step of the cdf (F[i] < (g + 1) / G: a draw there checks and steps up), else as i (sure: every
    uniform of the cell draws i, one gather)."""

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
        self.G = min(1 << (8 * F.size - 1).bit_length(), max(FINE_GUIDE, 1 << (2 * F.size - 1).bit_length()))
        cells = np.arange(self.G + 1) / self.G
        first = np.searchsorted(F, cells[:-1], side="right")
        self.guide = np.where(F[first] >= cells[1:], first, -1 - first).astype(np.intp)


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


SMALL_VOTERS = 511  # votes of at most this many voters: their totals' binomials by SmallBinomials (below)


class SmallBinomials:
    """Bin(k, p) for every k = 0 .. K by inversion of its cdf, one uniform a draw, the k of each draw its own: the
    cdfs F[k, i] = P(Bin(k, p) <= i) in one flat table (rows of K + 1; inf from i = k on, where the cdf is 1), and a
    guide of G >= K + 1 cells a row, guide[k, g] = the first i with F[k, i] > g / G, stored as -1 - i where the cell
    holds a step of the cdf (as ``InversionTable``'s: a sure cell's draws are one gather, the others step up twice,
    then search their own row).  Built once a run with scipy.stats.binom.cdf (not timed)."""

    def __init__(self, K, p):
        i = np.arange(K + 1)
        F = stats.binom.cdf(i[None, :], i[:, None], p)
        F[i[None, :] >= i[:, None]] = np.inf
        self.width, self.G = K + 1, 1 << K.bit_length()
        cells = np.arange(self.G + 1) / self.G
        first = np.stack([np.searchsorted(F[k], cells[:-1], side="right") for k in i])  # row k, cell g
        sure = np.take_along_axis(F, first, axis=1) >= cells[1:]
        self.guide = np.where(sure, first, -1 - first).ravel().astype(np.int32)  # small entries: cache-friendly
        self.F = F.ravel()

    def draw(self, k, rng):
        """One draw of Bin(k[j], p) for each entry of k (0 <= k <= K)."""
        u = rng.random(k.size)
        out = self.guide[k * self.G + (u * self.G).astype(np.intp)]
        late = np.flatnonzero(out < 0)
        if late.size:
            row = k[late] * self.width
            at, v = row - 1 - out[late], u[late]
            at += self.F[at] <= v
            at += self.F[at] <= v
            for m in np.flatnonzero(self.F[at] <= v).tolist():  # a tail's cell spanning many entries: its row searched
                at[m] = row[m] + int(np.searchsorted(self.F[row[m]:row[m] + self.width], v[m], side="right"))
            out[late] = at - row
        return out


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
        self.tables, self.hist = {}, {}
        self.layouts, self.cells = {}, {}
        self.empty = NoiseMaximum(n // 2, RR_FLIP)
        self.small = SmallBinomials(n // 2, RR_FLIP) if n // 2 <= SMALL_VOTERS else None

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

    def masses(self, N):
        """The probabilities of the sums a releasing user of size N may hold (``entry_masses``), computed once."""
        if N not in self.hist:
            self.hist[N] = entry_masses(N, self.q)
        return self.hist[N]

    def invert(self, tab, count, rng):
        u, g, i, f, b = (a[:count] for a in (self.u, self.g, self.i, self.f, self.b))
        rng.random(out=u)
        np.multiply(u, tab.G, out=f)
        np.copyto(g, f, casting="unsafe")  # floor of a non-negative float
        np.take(tab.guide, g, out=i, mode="clip")  # in range; mode="raise" buffers out
        np.less(i, 0, out=b)
        if b.any():  # cells holding a step: up to two steps up, then a search for the few still short
            late = np.flatnonzero(b)
            j, v = -1 - i[late], u[late]
            j += tab.F[j] <= v
            j += tab.F[j] <= v
            far = np.flatnonzero(tab.F[j] <= v)
            if far.size:
                j[far] = np.searchsorted(tab.F, v[far], side="right")
            i[late] = j
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
            voters, per_row = counts[0::2], counts[1::2]
        else:
            voters = per_row = np.full((r, 1), h)
        releasing = per_row.sum(axis=0).tolist()
        ones = [np.zeros((r, m[0].shape[1]), dtype=np.int64) for m in reach]  # each vote's true ones per bin
        for k, (a, c) in enumerate(zip(self.pts, releasing)):
            per = rng.multinomial(voters[:, k], masses[k]) if masses[k].size > 1 else voters[:, k:k + 1]
            for v in range(len(votes)):  # each row's voters of this size, per cell, put their ones on bins
                ones[v] += per @ reach[v][k]
            each = "inversion" if method == "histogram" else method  # where the counts do not pay: each user
            if both and a > self.T:
                self.sums(self.T, c, rng, each)
                self.sums(a - self.T, c, rng, each)
            elif method == "histogram" and (p := self.masses(a)) is not None and HISTOGRAM_USERS * p.size * r <= c:
                rng.multinomial(per_row[:, k], p)  # each row's releasing users per possible sum
            else:
                self.sums(a, c, rng, each)
        for i, (v, near) in enumerate(zip(votes, ones)):  # votes and Laplace sums: one set per estimator and run
            rng.standard_gamma(h, size=r)
            rng.standard_gamma(h, size=r)
            if v.N == 1:  # one bin: the election is certain, nothing to draw
                if tally is not None:
                    tally[i].extend([0] * r)
                continue
            hit = near > 0
            c = near[hit]  # the bins some voter reaches: each its own total, Bin(c, keep) + Bin(h - c, flip) + U/2
            if self.small is not None:  # c - Bin(c, flip) + Bin(h - c, flip): one table of Bin(k, flip), k <= h
                self.small.draw(c, rng)
                self.small.draw(h - c, rng)
            else:
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
