"""Single-point mutation pass: does the test suite see a change chosen from the papers?

Each mutant replaces one exact snippet of one module (a constant, a clip end, a noise
scale, a rank, a comparison, an off-by-one in a search, which half of the users reaches
which step), runs the tests that cover the module (the slow ones included: CI runs them) under a CPU-time limit (a mutant that
loops forever is stopped by it and reported as a timeout, not counted as killed), restores the file, and prints
a table per module: mutants, equivalent (with the reason), killed, survived, timeout, score
(killed / non-equivalent).

Not run by the test suite.  Usage (from the repository root; it edits files in place and
restores them, so run it on a clean tree)::

    nice -n 10 python benchmarks/mutate.py            # every mutant
    nice -n 10 python benchmarks/mutate.py dame kent  # the mutants of some modules
    nice -n 10 python benchmarks/mutate.py --broad    # the third round's mutants only (``BROAD``)
"""

from __future__ import annotations

import dataclasses
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CPU_SECONDS = 300  # per mutant run: beyond it the verdict is "timeout" (counted as not killed)


@dataclasses.dataclass(frozen=True)
class Mutant:
    module: str  # path under bounds/
    before: str  # exact snippet (must occur once)
    after: str
    why: str  # what the mutant breaks, from the paper
    equivalent: str = ""  # the reason it cannot change behaviour, if so
    k: str = ""  # pytest -k expression selecting the tests of the changed function ("": the module's files)


TESTS = {
    "dame/_constants.py": ["tests/test_dame.py"],
    "dame/_lower.py": ["tests/test_searches.py", "tests/test_dame.py", "tests/test_hostile.py"],
    "dame/_upper.py": ["tests/test_searches.py", "tests/test_dame.py", "tests/test_hostile.py", "tests/test_dame_scan.py"],
    "dame/_maps.py": ["tests/test_dame.py", "tests/test_regimes.py", "tests/test_hostile.py"],
    "dame/_scan.py": ["tests/test_dame_scan.py", "tests/test_searches.py"],
    "dame/_search.py": ["tests/test_searches.py", "tests/test_dame.py"],
    "dame/_rows.py": ["tests/test_dame_rows.py", "tests/test_regimes.py"],
    "sizes/_scipy.py": ["tests/test_sizes.py", "tests/test_sizes_scipy.py", "tests/test_dame.py"],
    "sizes/_kernels.py": ["tests/test_sizes.py", "tests/test_sizes_scipy.py", "tests/test_dame.py"],
    "kent/_rates.py": ["tests/test_searches.py", "tests/test_kent.py"],
    "kent/_transitions.py": ["tests/test_searches.py", "tests/test_kent.py"],
    "kent/_theorem1.py": ["tests/test_searches.py", "tests/test_kent.py"],
    "kent/_grid.py": ["tests/test_searches.py", "tests/test_kent.py"],
    "cummings/_weights.py": ["tests/test_searches.py", "tests/test_privacy_structure.py", "tests/test_cummings.py"],
    "cummings/_bounds.py": ["tests/test_searches.py", "tests/test_privacy_structure.py", "tests/test_cummings.py"],
    "cummings/_example1.py": ["tests/test_searches.py", "tests/test_privacy_structure.py", "tests/test_cummings.py"],
    "cummings/_plan.py": ["tests/test_searches.py", "tests/test_privacy_structure.py", "tests/test_cummings.py"],
    "rameshwar.py": ["tests/test_searches.py", "tests/test_rameshwar.py"],
    "numerics/_backends.py": ["tests/test_numerics.py", "tests/test_searches.py"],
    "numerics/_search.py": ["tests/test_numerics.py", "tests/test_searches.py"],
    "mechanisms.py": ["tests/test_mechanisms.py", "tests/test_estimators_duchi.py"],
    "simulate.py": ["tests/test_privacy_structure.py", "tests/test_simulate.py"],
    "checks/_papers.py": ["tests/test_privacy_structure.py", "tests/test_checks.py"],
    "checks/_kent.py": ["tests/test_privacy_structure.py", "tests/test_checks.py"],
    "estimators/dame.py": ["tests/test_privacy_structure.py", "tests/test_estimators_dame.py"],
    "estimators/kent.py": ["tests/test_privacy_structure.py", "tests/test_estimators_kent.py",
                           "tests/test_estimators_kent_multivariate.py"],
    "estimators/cummings.py": ["tests/test_privacy_structure.py", "tests/test_estimators_cummings.py",
                               "tests/test_hostile.py"],
    "estimators/localisation.py": ["tests/test_estimators_localisation.py", "tests/test_estimators_dame.py"],
    "estimators/rameshwar.py": ["tests/test_estimators_rameshwar.py"],
    "sizes/_tables.py": ["tests/test_sizes_hostile.py", "tests/test_sizes.py"],
    "sizes/_family.py": ["tests/test_sizes.py", "tests/test_sizes_scipy.py", "tests/test_dame.py"],
    "sizes/_geometric.py": ["tests/test_sizes.py", "tests/test_dame.py", "tests/test_dame_tie.py"],
    "audit/boxes.py": ["tests/test_audit_boxes.py", "tests/test_audit_dame_proofs.py"],
    "audit/registry.py": ["tests/test_audit_registry.py"],
    "sizes/_base.py": ["tests/test_sizes.py"],
    "sizes/_finite.py": ["tests/test_sizes.py"],
    "sizes/_zipf.py": ["tests/test_sizes.py"],
    "advise/searches.py": ["tests/test_advise_searches.py"],
    "advise/methods/rameshwar.py": ["tests/test_advise_methods.py"],
    "advise/methods/cummings.py": ["tests/test_advise_methods.py"],
    "advise/simulation.py": ["tests/test_advise_methods.py"],
    "audit/dame.py": ["tests/test_audit.py"],
    "audit/dame_proofs.py": ["tests/test_audit_dame_proofs.py"],
}

MUTANTS = [
    # ---- DAME, Pla et al. (2024): eq. (10)'s branch and bound, Theorem 2's m~ search, the constants
    Mutant("dame/_lower.py", "dec = lhs + pl < 0.5 * be.log(be.asarray(L + 1)) - sh - margin",
           "dec = lhs + pl < 0.5 * be.log(be.asarray(H + 1)) - sh - margin",
           "the branch and bound's 'decreasing' test weakened (sqrt(h+1) for sqrt(l+1))", k="test_lower_bound_on or test_lower_bound_where or uniform_with"),
    Mutant("dame/_lower.py", "v0 = _lb_from_parts(*rows.parts(t, lo - 1), logx[t], c_vals, precision)\n    offer(t, lo - 1, v0)  # 1.",
           "v0 = _lb_from_parts(*rows.parts(t, lo), logx[t], c_vals, precision)\n    offer(t, lo, v0)  # 1.",
           "the search's start shifted: a0 - 1 (the end of the non-decreasing part) never offered", k="test_lower_bound_on or test_lower_bound_where or uniform_with"),
    Mutant("dame/_upper.py", "hi = np.floor(mean * np.sqrt(np.maximum(x / c5, 1.0))) + 1",
           "hi = np.floor(mean * np.sqrt(x / c5)) + 1", "m~'s Markov bracket shrunk where n alpha^2 < c5", k="test_m_tilde_at_constructed or test_m_tilde_on or test_m_tilde_of_a_point or uniform_with"),
    Mutant("dame/_search.py", "top[active[failed]] = probes[rows[failed], held[failed]] - 1",
           "top[active[failed]] = probes[rows[failed], held[failed]] - 2",
           "the gallop of m~'s and a0's searches cuts its bracket one below the first failing probe",
           k="test_m_tilde_at_constructed or test_m_tilde_on or test_m_tilde_of_a_point or uniform_with"),
    Mutant("dame/_search.py", "top[active[failed]] = (g + step * (held + 1) - 1)[failed]",
           "top[active[failed]] = (g + step * (held + 1) - 2)[failed]",
           "the 16-ary narrowing cuts its bracket one below the first failing probe",
           k="test_m_tilde_at_constructed or test_m_tilde_on or test_m_tilde_of_a_point or uniform_with"),
    Mutant("dame/_search.py", "if np.ndim(cap) == 0 and float(cap) == int(cap):", "if np.ndim(cap) == 0:",
           "a search's upper end rounded to float64 past 2**53 (misses the top support point)", k="past_2_to_53"),
    Mutant("dame/_upper.py", "holds = np.where(big, (a <= support_min) & (capped | (lphi <= 0)), d >= 0)",
           "holds = np.where(big, (a <= support_min) & (capped | (lphi <= 0)), d > 0)", "Theorem 2's condition P^2 >= phi made strict",
           "equivalent: d = 0 needs P(m >= a)^2 (a rational) to equal phi(a) = c5/x log(y/log y) exactly, and the "
           "float decision re-decides every near-tie at 60 digits; no input reaches the tie", k="test_m_tilde_at_constructed or test_m_tilde_on or test_m_tilde_of_a_point or uniform_with"),
    # ---- a map's rows: each law's values reach only its own rows
    Mutant("dame/_rows.py", "new[1:] = (sa[1:] != sa[:-1]) | (sl[1:] != sl[:-1])", "new[1:] = (sa[1:] != sa[:-1])",
           "a point shared by two neighbouring laws answered by the first law for both"),
    Mutant("dame/_rows.py", "lp[pos], ls[pos] = self._pair(j, a[pos])", "lp[pos], ls[pos] = self._pair(0, a[pos])",
           "every row answered by the first law of the map"),
    Mutant("dame/_rows.py", "return self._stack.query(name, self.lid[rows], a)", "return self._stack.query(name, self.lid[rows][::-1], a)",
           "a stack's rows read the laws of other rows"),
    Mutant("dame/_constants.py", "-9), 24, 1570, 8,", "-9), 25, 1570, 8,",
           "c2 = 24 of (S31) changed", k="lower_bound or constants or paper"),
    Mutant("dame/_lower.py", "return be.log(c_vals[0]) - expo - np.maximum(logx + 2 * lps, 0)",
           "return be.log(c_vals[0]) - expo - np.maximum(logx + lps, 0)", "eq. (10): S(a)^2 read as S(a)", k="test_lower_bound_on or test_lower_bound_where or uniform_with"),
    Mutant("dame/_maps.py", "log_mx = math.log(mt) + math.log(x)", "log_mx = math.log(x)",
           "Corollary 3's log(m~ n alpha^2) loses m~", k="corollary3"),
    # ---- DAME, Algorithm 1 (estimators)
    Mutant("estimators/dame.py", "return refine(m[:, h:], xbar[:, h:], j,", "return refine(m[:, h - 1:], xbar[:, h - 1:], j,",
           "a voter also releases (alpha spent twice)", k="dame"),
    Mutant("estimators/dame.py", "return localisation.localise(xbar, m >= m_tilde, tau,",
           "return localisation.localise(xbar, m > m_tilde, tau,", "eq. (5): users with m = m~ do not vote", k="dame"),
    Mutant("estimators/dame.py", "return np.sqrt(np.minimum(whole(\"m\", m, low=1), m_tilde) / m_tilde)",
           "return np.sqrt(np.minimum(whole(\"m\", m, low=1), m_tilde + 1) / m_tilde)", "eq. (8): weight off by one in m~", k="dame or weight"),
    Mutant("estimators/localisation.py", "return np.maximum(lo - 6 * tau, -1.0), np.minimum(hi + 6 * tau, 1.0)",
           "return np.maximum(lo - 5 * tau, -1.0), np.minimum(hi + 6 * tau, 1.0)", "eq. (8): clip end 6 tau -> 5 tau"),
    Mutant("estimators/localisation.py", "return 14 * check_positive(\"tau\", tau)", "return 12 * check_positive(\"tau\", tau)",
           "eq. (8): Laplace scale 14 tau -> 12 tau"),
    Mutant("estimators/localisation.py", "VOTE_ONES = 3  #", "VOTE_ONES = 2  #", "Lemma 16: k = 3 ones per vote"),
    Mutant("estimators/localisation.py", "c[:, 1:] += h[:, :-1]", "c[:, 1:] += h[:, 1:]", "eq. (5): a vote's left neighbour"),
    # ---- Kent et al. (2024)
    Mutant("kent/_transitions.py", "    cap = math.floor(e)\n", "    cap = math.ceil(e)\n", "eq. (25): T* = floor(e^{n alpha^2/(Kd)})", k="cap"),
    Mutant("kent/_transitions.py", "inner = math.log(n * t_star * alpha * alpha)", "inner = math.log(n * T * alpha * alpha)",
           "eq. (25): tau with T instead of T*", k="cap or tau"),
    Mutant("estimators/kent.py", "    return refine(xbar[:, h:], j, tau=tau, alpha=alpha, rng=rng)",
           "    return refine(xbar[:, h - 1:], j, tau=tau, alpha=alpha, rng=rng)", "univariate: a voter also releases", k="kent"),
    Mutant("estimators/kent.py", "est = refine(rows[:, g:], j,", "est = refine(rows[:, g - 1:], j,",
           "coordinatewise: a voter of G_j also refines", k="kent or coordinatewise"),
    Mutant("checks/_kent.py", "        g = n // (2 * d)\n", "        g = n // d\n", "l-inf groups: 2dg users exceed n", k="kent"),
    # ---- Cummings et al. (2022)
    Mutant("cummings/_bounds.py", "return int(cand[int(np.argmin(vals))])",
           "return int(cand[len(vals) - 1 - int(np.argmin(vals[::-1]))])", "k*: the largest minimiser on ties", k="k_star"),
    Mutant("cummings/_bounds.py", "below = np.searchsorted(ks, cand, side=\"right\")", "below = np.searchsorted(ks, cand, side=\"left\")",
           "k*'s objective: sum min(k_i, k) off at k_i = k",
           "equivalent: a user with k_i = k adds min(k_i, k) = k whether counted below (k_i) or above (k)",
           k="k_star"),
    Mutant("cummings/_plan.py", "return order[:n_var], order[n_var : n - n_mean], order[n - n_mean :]",
           "return order[:n_var], order[n_var - 1 : n - n_mean], order[n - n_mean :]",
           "Algorithm 2: a variance user also in the final group", k="cummings or groups"),
    Mutant("estimators/cummings.py", "return float(np.max(w * np.abs(hi - lo), initial=0.0)) / eps",
           "return float(np.max(w * np.abs(hi - lo), initial=0.0)) / eps / 2", "eq. (3): Laplace scale halved", k="laplace_scale or ideal or cummings"),
    # ---- Rameshwar and Tandon (2025)
    Mutant("rameshwar.py", "return math.ceil(2 / eps)", "return math.ceil(1 / eps)", "Theorem III.1's rank 2/eps", k="threshold or optimal_error or rank"),
    Mutant("rameshwar.py", "t = Fraction(0) if rank > len(mm) else", "t = Fraction(0) if rank >= len(mm) else",
           "T_eps = 0 exactly when eps < 2/L", k="threshold or optimal_error"),
    Mutant("rameshwar.py", "bias = sum((n * max((Ue * k - T) / 2, Fraction(0)) for k, n in users.items()), Fraction(0))",
           "bias = sum((n * max((Ue * k - T) / 4, Fraction(0)) for k, n in users.items()), Fraction(0))", "Lemma III.1's bias", k="threshold or optimal_error"),
    # ---- shared numerics and mechanisms
    Mutant("numerics/_search.py", "        mid = good + (top - good + 1) // 2\n", "        mid = good + (top - good) // 2 + 1\n",
           "last_true's midpoint rounded the other way", "equivalent: for good < top, (t-g+1)//2 and (t-g)//2 + 1 differ "
           "only when t - g is even, and both stay in (good, top]; the bisection is still exact"),
    Mutant("numerics/_search.py", "        top = np.where(active & ~ok, mid - 1, top)\n", "        top = np.where(active & ~ok, mid - 2, top)\n",
           "last_true skips the point below a failing midpoint", k="last_true or m_tilde"),
    Mutant("mechanisms.py", "t = math.tanh(alpha / 2)", "t = math.tanh(alpha / 3)", "Duchi's B = coth(alpha/2)", k="duchi"),
    Mutant("simulate.py", "nu = min(p * (1 - p) / sigma_p2 - 1, _MAX_BETA_CONCENTRATION)",
           "nu = min(p * (1 - p) / sigma_p2 + 1, _MAX_BETA_CONCENTRATION)", "the Beta meta-law's variance", k="cummings"),
    # ---- the code of the second round (new mutants)
    Mutant("numerics/_backends.py", "body = special.betainc(z + 1, n - z, p)", "body = special.betainc(z, n - z + 1, p)",
           "the noise-only total's survival P(T > y) read as P(T >= y) (binomial_sf, behind the localisation)"),
    Mutant("numerics/_backends.py", "np.where(arr < 0, 1.0, 0.0)", "np.where(arr < 0, 0.0, 0.0)",
           "S(-1) = P(T > -1) = 1 lost: the smallest maximum never drawn (binomial_sf)"),
    Mutant("sizes/_tables.py", "log_r = min(log_r, (float(lp[-1]) - f_first + 2 * err) / span)", "log_r = log_r",
           "the chord bound dropped: tails past |log p| = 2**53 never converge", k="deep or extremes"),
    Mutant("sizes/_family.py", "base_s = _left_log_sum(lambda k: 0.5 * np.log(k) + self._logpmf(k), first, lo)",
           "base_s = _left_log_sum(self._logpmf, first, lo)", "E[sqrt(m) 1{m <= a}] below the window without sqrt(m)"),
    Mutant("sizes/_family.py", "out_c[sel] = np.logaddexp.accumulate(np.concatenate([[base_c], lp]))[idx]",
           "out_c[sel] = np.logaddexp.accumulate(np.concatenate([[-np.inf], lp]))[idx]",
           "P(m <= a) below the window loses the mass below each cluster"),
    Mutant("sizes/_geometric.py", "c[\"head\"] = prefix[EM_START - 1] + mpmath.sqrt(A) * mpmath.exp(-beta * A) / 2",
           "c[\"head\"] = prefix[EM_START - 1]", "Euler-Maclaurin's endpoint term g(A)/2 dropped (precision path)", k="geometric"),
    Mutant("sizes/_geometric.py", "n = 2 * jj - 1\n", "n = 2 * jj\n",
           "the lower end's derivative order 2j - 1 -> 2j", k="geometric"),
    Mutant("audit/boxes.py", "with ctx.workprec(256):", "with ctx.workprec(53):",
           "constants parsed at 53 bits: 16 of their 60 digits kept"),
    Mutant("audit/boxes.py", "    if any(lo > hi for lo, hi in root):\n        raise ValueError(bad)",
           "    if False:\n        raise ValueError(bad)", "a box with lo > hi accepted"),
    Mutant("audit/registry.py", "all(isinstance(c, str) and c in CHECKS for c in self.checks)",
           "all(isinstance(c, str) for c in self.checks)", "a statement citing an unknown check accepted"),
    Mutant("rameshwar.py", "bias = sum((n * max((Ue * k - T) / 2, Fraction(0)) for k, n in users.items()), Fraction(0))",
           "bias = sum((max((Ue * k - T) / 2, Fraction(0)) for k, n in users.items()), Fraction(0))",
           "E_OPT's bias counts each distinct m_l once, not once per user"),
    Mutant("dame/_maps.py", "return math.exp(log_value) if log_value < 709.0 else math.inf",
           "return math.exp(log_value) if log_value < 709.0 else 0.0", "Corollary 3 past the float range: 0, not inf",
           k="corollary3"),
    # the light laws' whole scans (bounds/dame/_scan.py) and the code around them
    Mutant("dame/_scan.py", "arg[idx] = np.argmax(vals >= (top + math.log1p(-rtol))[:, None], axis=1)",
           "arg[idx] = np.argmax(vals >= top[:, None], axis=1)",
           "the scan's tie rule dropped: the first exact maximum instead of the smallest a within 1e-9 of it",
           k="scan"),
    Mutant("dame/_scan.py", "decided = logx + 2 * pre.log_s[-1] >= 0", "decided = logx + 2 * pre.log_s[-1] >= -1",
           "the scan decides where x S(a)^2 < 1 for every a, where the maximum may be the limit a -> inf",
           k="scan"),
    Mutant("dame/_scan.py", "if np.any(hi > pre.K + 1) or", "if np.any(hi > pre.K + 2) or",
           "a bracket past the prefix is scanned (reads P(m >= K + 2) off the end)", k="scan"),
    Mutant("dame/_scan.py", "0.5 * be.log(np.int64(m)) + pre.log_gt[m]", "be.log(np.int64(m)) + pre.log_gt[m]",
           "E[sqrt(m ∧ m~)] with m~ P(m > m~) instead of sqrt(m~) P(m > m~)", k="scan"),
    Mutant("dame/_upper.py", "np.maximum.at(found, rows[ok], a[ok])", "np.minimum.at(found, rows[ok], a[ok])",
           "the scan of eq. (12) keeps the smallest qualifying a, not the largest", k="scan or m_tilde"),
    Mutant("dame/_upper.py", "in_b[r] = ok[np.searchsorted(rows, np.arange(len(r)))]",
           "in_b[r] = ok[np.searchsorted(rows, np.arange(len(r)), side='right') - 1]",
           "region B decided at the bracket's top instead of at a_b", k="scan or m_tilde"),
    Mutant("dame/_constants.py", "return ExactConstant(1 / q if divided else q, k)", "return ExactConstant(q, k)",
           "exp(-9)/16 read back as 16 e^-9", k="constants or describe"),
    Mutant("sizes/_scipy.py", "flat[i] = (_deep_logsf(logpmf, ai) if ai >= mode",
           "flat[i] = (_deep_logsf(logpmf, ai) if ai > mode",
           "Poisson P(X > a) at a = mode by the complement of the cdf (still exact: both sums are proven)",
           equivalent="both branches compute P(X > a) with a proven remainder; at a = mode the cdf is below 1/2 + O(1/sqrt(lam)) so the complement loses no digit"),
    Mutant("sizes/_kernels.py", "x_log_mu = np.where(x > 0, x * np.log(np.float64(mu)), 0.0)",
           "x_log_mu = x * np.log(np.float64(mu))", "0 log 0 taken as NaN (binomial with p = 1)",
           equivalent="every caller passes x >= 1: the binomial clips k and N - k to >= 1 and takes the ends "
                      "k = 0, N from their closed form, and Poisson has mu = lam > 0 (checked: binomial(N, 1) "
                      "equals point(N) on every query with and without the mutant)"),
    Mutant("numerics/_search.py", "np.not_equal(arr[1:], arr[:-1], out=head[1:])", "np.less(arr[:-1], arr[1:], out=head[1:])",
           "sorted_unique's run heads by order instead of inequality",
           equivalent="on a sorted array arr[i] != arr[i-1] and arr[i-1] < arr[i] are the same"),
    Mutant("numerics/_search.py", "return values, np.diff(np.append(np.flatnonzero(head), arr.size))",
           "return values, np.diff(np.append(np.flatnonzero(head), arr.size - 1))",
           "the last value's count one short"),
]

# ---- third round: the modules the earlier rounds left thin (sizes, advise, audit, checks, theory, mechanisms, simulate)
BROAD = [
    # ---- sizes/_base.py: the log-space queries every family shares
    Mutant("sizes/_base.py", "idx = np.searchsorted(table.points, a, side=\"right\") - 1\n        out = np.where(idx >= 0, values",
           "idx = np.searchsorted(table.points, a, side=\"left\") - 1\n        out = np.where(idx >= 0, values",
           "a table lookup at a support point reads the cumulative sum below it (P(m <= a) as P(m < a))"),
    Mutant("sizes/_base.py", "ls = self._log_sf(a - 1, precision)\n        lc = self._log_cdf(a - 1, precision)",
           "ls = self._log_sf(a, precision)\n        lc = self._log_cdf(a, precision)",
           "P(m >= a) read as P(m > a): Theorem 2's condition P(m >= a)^2 >= phi(a) off by one atom"),
    Mutant("sizes/_base.py", "tail = 0.5 * be.log(safe) + self._log_sf(safe, precision)",
           "tail = be.log(safe) + self._log_sf(safe, precision)",
           "E[sqrt(m ^ a)]: the clipped part a P(m > a) instead of sqrt(a) P(m > a)"),
    Mutant("sizes/_base.py", "        pos = a >= 1\n        safe = np.maximum(a, 1)\n        with workdps",
           "        pos = a >= 0\n        safe = np.maximum(a, 1)\n        with workdps",
           "E[sqrt(m ^ 0)] = 0 lost: a = 0 answered as a = 1"),
    Mutant("sizes/_base.py", "            return np.where(a < self.support_min, 0.0, out)\n        with mpmath.workdps",
           "            return np.where(a <= self.support_min, 0.0, out)\n        with mpmath.workdps",
           "the closed-form P(m > a) is 1 at a = min supp M (the smallest atom counted above itself)"),
    Mutant("sizes/_base.py", "inside = (arr >= self.support_min) & (arr <= self.support_max)",
           "inside = (arr >= self.support_min) & (arr < self.support_max)", "pmf: the largest support point gets no mass"),
    Mutant("sizes/_base.py", "        pts = self._float_table.points\n        idx = np.searchsorted(pts, a, side=\"right\") - 1",
           "        pts = self._float_table.points\n        idx = np.searchsorted(pts, a, side=\"left\") - 1",
           "floor_support: a support point maps to the one below it"),
    # ---- sizes/_finite.py: finite, point, uniform (wide closed forms), empirical
    Mutant("sizes/_finite.py", "above = self.hi - np.clip(np.asarray(a, dtype=np.int64), self.lo - 1, self.hi)",
           "above = self.hi - np.clip(np.asarray(a, dtype=np.int64), self.lo, self.hi)",
           "wide uniform: P(m > a) for a < lo is (hi - lo)/n, not 1 (float path)",
           "equivalent: a wide uniform law is never tabulated, and the only caller of its _logsf and _mp_sf "
           "(SizeLaw._closed_log_sf) answers every a < support_min = lo itself (log 1) before reading them"),
    Mutant("sizes/_finite.py", "return mpmath.mpf(self.hi - min(max(a, self.lo - 1), self.hi)) / self.n",
           "return mpmath.mpf(self.hi - min(max(a, self.lo), self.hi)) / self.n",
           "wide uniform: P(m > a) for a < lo is (hi - lo)/n, not 1 (mpmath path)",
           "equivalent: as for the float path, SizeLaw._closed_log_sf answers a < lo before calling _mp_sf"),
    Mutant("sizes/_finite.py", "below = np.clip(a, self.lo - 1, self.hi) - self.lo + 1",
           "below = np.clip(a, self.lo - 1, self.hi) - self.lo", "wide uniform: P(m <= a) counts one point too few"),
    Mutant("sizes/_finite.py", "        top = np.minimum(a, self.hi)\n", "        top = np.minimum(a, self.hi - 1)\n",
           "wide uniform: E[sqrt(m) 1{m <= a}] drops the top point"),
    Mutant("sizes/_finite.py", "return (self.lo + self.hi) / 2 if precision is None",
           "return (self.lo + self.hi + 1) / 2 if precision is None", "wide uniform: E[m] = (lo + hi)/2 off by 1/2"),
    Mutant("sizes/_finite.py", "return np.where(np.asarray(a) >= self.lo, np.minimum(a, self.hi), 0)",
           "return np.where(np.asarray(a) > self.lo, np.minimum(a, self.hi), 0)",
           "wide uniform: floor_support(lo) = 0 (the smallest size not a support point)"),
    Mutant("sizes/_finite.py", "        if m <= 0:\n            raise ValueError(\n                f\"masses: support",
           "        if m < 0:\n            raise ValueError(\n                f\"masses: support",
           "finite: a support point 0 accepted (sizes live on N*)"),
    # ---- sizes/_zipf.py: Hurwitz zeta closed forms
    Mutant("sizes/_zipf.py", "return _log_hurwitz(self.s, np.asarray(a) + 1.0) - self._log_zeta_s",
           "return _log_hurwitz(self.s, np.asarray(a) + 0.0) - self._log_zeta_s",
           "P(m > a) = zeta(s, a + 1)/zeta(s) read as zeta(s, a)/zeta(s) = P(m >= a) (float, one law)"),
    Mutant("sizes/_zipf.py", "out = _log_hurwitz(self.s[g], np.maximum(a, 0) + 1.0) - self.lzs[g]",
           "out = _log_hurwitz(self.s[g], np.maximum(a, 0) + 0.0) - self.lzs[g]",
           "P(m > a) read as P(m >= a) in a stack of laws (a regime map)", k="stack or grid"),
    Mutant("sizes/_zipf.py", "out = self._mp_hurwitz(self.s, a + 1) / self._mp_zeta(self.s)",
           "out = self._mp_hurwitz(self.s, a) / self._mp_zeta(self.s)", "P(m > a) read as P(m >= a) (mpmath)"),
    Mutant("sizes/_zipf.py", "        small = safe <= 64  # direct", "        small = safe <= 63  # direct",
           "the direct-sum / closed-form seam of E[sqrt(m) 1{m <= a}] moved by one",
           "equivalent up to rounding: both sides of the seam compute the same sum (the direct cumulative sum, "
           "the Hurwitz difference); at a = 64 they agree to 1.6e-15 relative for s on a 200-point grid of "
           "[2.01, 12] (scanned), far below every tolerance the module states"),
    Mutant("sizes/_zipf.py", "rest = self.zh[g[big]] - special.zeta(self.h[g[big]], safe[big] + 1.0)",
           "rest = self.zh[g[big]] - special.zeta(self.h[g[big]], safe[big] + 2.0)",
           "E[sqrt(m) 1{m <= a}] past 64: the Hurwitz tail starts at a + 2 (one term too many)"),
    Mutant("sizes/_zipf.py", "vals = [mpmath.log((zh - self._mp_hurwitz(h, int(ai) + 1)) / zs) for ai in safe.ravel()]",
           "vals = [mpmath.log((zh - self._mp_hurwitz(h, int(ai))) / zs) for ai in safe.ravel()]",
           "E[sqrt(m) 1{m <= a}] at a precision drops the term k = a"),
    Mutant("sizes/_zipf.py", "return float(special.zeta(self.s - 1) / special.zeta(self.s))",
           "return float(special.zeta(self.s - 0.5) / special.zeta(self.s))", "E[m] = zeta(s-1)/zeta(s) read as E[sqrt m]"),
    # ---- sizes/_geometric.py: closed forms and Euler-Maclaurin
    Mutant("sizes/_geometric.py", "return np.where(k >= 1, math.log(self.p) + (safe - 1) * self.log_q, -np.inf)",
           "return np.where(k >= 1, math.log(self.p) + safe * self.log_q, -np.inf)", "M(k) = p q^(k-1) read as p q^k"),
    Mutant("sizes/_geometric.py", "        small = (a >= 1) & (a < EM_START)\n", "        small = (a >= 1) & (a < EM_START - 1)\n",
           "W(63) left to the Euler-Maclaurin branch (which starts at 64)"),
    Mutant("sizes/_geometric.py", "            lower = self.beta[ge] * ab < 1\n", "            lower = self.beta[ge] * ab < 0.5\n",
           "the seam between W(63) + EM(64..a) and W(inf) - U(a+1) moved",
           "equivalent up to rounding: both branches compute W(a) (the choice is only where each keeps more "
           "digits); on beta a in [0.5, 1) they agree to 2.9e-14 relative for 60 p in [1e-6, 0.6] (scanned), "
           "inside the 1e-12 float-vs-precision agreement the issue asks for"),
    Mutant("sizes/_geometric.py", "lu = _log_u(ab[~lower] + 1, self.beta[gu], self.b15[gu], self.weights[gu].T)", "lu = _log_u(ab[~lower], self.beta[gu], self.b15[gu], self.weights[gu].T)",
           "W(a) = W(inf) - U(a+1) read as W(inf) - U(a): the term k = a dropped"),
    Mutant("sizes/_geometric.py", "part = integral + 0.5 * (self.edge_a[gl] + np.sqrt(B) * np.exp(-beta * B))",
           "part = integral + 0.5 * (self.edge_a[gl] - np.sqrt(B) * np.exp(-beta * B))",
           "Euler-Maclaurin's endpoint term g(B)/2 with the wrong sign (float path)"),
    Mutant("sizes/_geometric.py", "        return math.log(self.p) - self.log_q\n", "        return math.log(self.p)\n",
           "E[sqrt(m) 1{m <= a}] = p e^beta W(a): the factor e^beta = 1/q dropped (float)"),
    # ---- advise/searches.py: exact searches
    Mutant("advise/searches.py", "    a, b = last_false, j\n", "    a, b = last_false + 1, j\n",
           "smallest_integer: the bisection assumes last_false + 1 fails (off by one at the gallop's end)",
           k="smallest or level or dame_smallest"),
    Mutant("advise/searches.py", "    while b - a > 1:\n", "    while b - a > 2:\n",
           "smallest_integer stops with two candidates left", k="smallest or level or dame_smallest"),
    Mutant("advise/searches.py", "        end = hi if nxt is None else nxt - 1\n", "        end = hi if nxt is None else nxt\n",
           "dame_smallest's run walk: a run's end read one past it (the next run's first point)",
           k="smallest or level or dame_smallest"),
    Mutant("advise/searches.py", "        B.append(Ue * (above_sum - above * dj) / (2 * N))",
           "        B.append(Ue * (above_sum - above * dj) / N)", "Lemma III.1's bias (1/2) E(Um - T)_+ without the 1/2",
           k="rameshwar or law_optimal"),
    Mutant("advise/searches.py", "    if t >= Ue / 2:\n        return Fraction(0)\n    return min(",
           "    if t > Ue / 2:\n        return Fraction(0)\n    return min(",
           "rameshwar_smallest: at target U/2 (the error at T = 0) s* = 0 is missed", k="rameshwar or law_optimal"),
    Mutant("advise/searches.py", "for dj, Bj in zip(d, B) if Bj < t * mean)", "for dj, Bj in zip(d, B) if Bj <= t * mean)",
           "rameshwar_smallest: a kink with B_j = t E m (no finite s reaches it) divides by zero", k="rameshwar or law_optimal"),
    # ---- advise/methods: the per-method evaluations
    Mutant("advise/methods/rameshwar.py", "    rank = math.ceil(2 / Fraction(eps))\n", "    rank = math.ceil(1 / Fraction(eps))\n",
           "the advice's T_eps at rank 1/eps, not Theorem III.1's 2/eps"),
    Mutant("advise/methods/rameshwar.py", "bias = 0.5 * (suffix_cv[k] - suffix_c[k] * T) / (U * total)",
           "bias = (suffix_cv[k] - suffix_c[k] * T) / (U * total)", "worst-case bias (1/2) sum (U m - T)_+ without the 1/2"),
    Mutant("advise/methods/rameshwar.py", "noise = math.sqrt(2) * np.minimum(T, v[-1]) / (eps * U * total)",
           "noise = math.sqrt(2) * T / (eps * U * total)", "the release's sensitivity min(T, U m*) not capped at U m*"),
    Mutant("advise/methods/cummings.py", "raw = u[None, :] * np.minimum(u[None, :], Ts[:, None])",
           "raw = u[None, :] * np.maximum(u[None, :], Ts[:, None])", "eq. (4): w_i ~ min(1/s_i^2, T/s_i) with max"),
    Mutant("advise/methods/cummings.py", "noise = math.sqrt(2) * np.max(w * widths[None, :], axis=1)",
           "noise = np.max(w * widths[None, :], axis=1)", "the Laplace noise's sd sqrt(2) b lost"),
    Mutant("advise/methods/cummings.py", "        if best is None or val < best:\n", "        if best is None or val <= best:\n",
           "k*: the largest minimiser on ties (the docstring says smallest)"),
    Mutant("advise/simulation.py", "rmse_se = mse_se / (2 * rmse) if rmse > 0 else 0.0",
           "rmse_se = mse_se / rmse if rmse > 0 else 0.0", "the delta method's se(RMSE) = se(MSE)/(2 RMSE) without the 2"),
    Mutant("advise/simulation.py", "q = float(np.quantile(np.abs(e), 1 - beta))", "q = float(np.quantile(np.abs(e), beta))",
           "the (1 - beta)-quantile of |error| read at beta"),
    Mutant("advise/simulation.py", "mse_se = float(sq.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf",
           "mse_se = float(sq.std(ddof=1) / R) if R > 1 else math.inf", "se of a mean: sd/R, not sd/sqrt(R)"),
    # ---- audit/dame.py and audit/dame_proofs.py: the proofs' checks
    Mutant("audit/dame.py", "(c - mpmath.iv.log((1 + d) / (1 - d)) / d).a > 0", "(c - mpmath.iv.log((1 + d) / (1 - d)) / d).b > 0",
           "Lemma S2's interval proof reads the box's upper end (unsound: a false constant 'proved')", k="lemma_s2"),
    Mutant("audit/dame.py", "proved, boxes, bad = _iv_bisect(lambda t: ratio(t).b <= constant, 0.1, 1.0)",
           "proved, boxes, bad = _iv_bisect(lambda t: ratio(t).a <= constant, 0.1, 1.0)",
           "Lemma S6's enclosure reads the box's lower end (unsound)", k="lemma_s6"),
    Mutant("audit/dame.py", "\"c3\": 14**2 * 4 * 2 + 2,", "\"c3\": 14**2 * 4 * 2 + 1,",
           "(S144)-(S146): c3 = 14^2 4 2 + 2 = 1570 rederived as 1569", k="constants"),
    Mutant("audit/dame.py", "    lhs = sp.simplify(1 - 4 * sp.exp(-m * tau2 / 2))\n", "    lhs = sp.simplify(1 - 8 * sp.exp(-m * tau2 / 2))\n",
           "Lemma S5's 1 - 4 exp(-m tau^2/2) with 8", k="tau_condition"),
    Mutant("audit/dame_proofs.py", "                for k in range(m + 1)), Fraction(0)) / 2\n", "                for k in range(m + 1)), Fraction(0))\n",
           "the total variation without its 1/2 (the L1 distance)", k="lemma_s1"),
    Mutant("audit/dame_proofs.py", "            printed = boxes.point(Fraction(m, 2)).sqrt() * kl\n",
           "            printed = (boxes.point(Fraction(m, 2)) * kl).sqrt()\n",
           "(S1) as printed sqrt(m/2) D_KL replaced by (S19)'s sqrt(m D_KL/2): the discrepancy vanishes", k="lemma_s1"),
    Mutant("audit/dame_proofs.py", "s28 = 3 * boxes.point(d * d) * e * e + 2 * boxes.point(high) ** 2",
           "s28 = 3 * boxes.point(d * d) * e * e + boxes.point(high) ** 2", "(S28): (u + v)^2 <= 2u^2 + 2v^2 with 1 v^2",
           k="theorem1_chain"),
    # ---- checks.py: Monte Carlo checks and Kent's risk plans
    Mutant("checks/_papers.py", "return float(dev.mean() * e.size / (e.size - 1)), float(dev.std(ddof=1) / math.sqrt(e.size))",
           "return float(dev.mean()), float(dev.std(ddof=1) / math.sqrt(e.size))", "the sample variance without Bessel's n/(n-1)"),
    Mutant("checks/_kent.py", "lo = np.ceil(T_star * (1 - threshold) / 2) - 1", "lo = np.ceil(T_star * (1 - threshold) / 2)",
           "the two-point tail: S < lo_real counts S = ceil(lo_real) too"),
    Mutant("checks/_kent.py", "hi = np.floor(T_star * (1 + threshold) / 2)  #", "hi = np.floor(T_star * (1 + threshold) / 2) - 1  #",
           "the two-point tail: S > hi_real counts S = floor(hi_real) too"),
    Mutant("checks/_kent.py", "            if j <= k:\n", "            if j < k:\n", "the density's k-th coefficient dropped from theta"),
    Mutant("checks/_kent.py", "return float(sum(v * v for j, v in self.coefficients.items() if j > k))",
           "return float(sum(v * v for j, v in self.coefficients.items() if j >= k))", "truncation bias counts theta_k"),
    Mutant("checks/_kent.py", "        q = (1 + math.sqrt(d0) * th) / 2\n", "        q = (1 + th) / 2\n",
           "l2-ball plan: the two-point law's mean sqrt(d) theta rescaled away"),
    Mutant("checks/_kent.py", "    g = (n - h) // (2 * s)\n", "    g = (n - h) // s\n", "sparse plan: 2 s g users exceed n - h"),
    # ---- kent/: rates, T*, tau, the phase transition
    Mutant("kent/_transitions.py", "    return t_star, math.sqrt(2 * inner / t_star)\n", "    return t_star, math.sqrt(inner / t_star)\n",
           "eq. (25): tau = sqrt(2 log(n T* alpha^2)/T*) without the 2", k="cap or tau or kent"),
    Mutant("kent/_rates.py", "\"small-T\" if poly >= expo else \"large-T\"", "\"small-T\" if poly > expo else \"large-T\"",
           "the regime's tie rule at poly = exp", k="not test_searches"),
    Mutant("kent/_rates.py", "    return np.minimum(u, 1 + np.log(np.maximum(u, 1)))\n", "    return np.minimum(u, np.log(np.maximum(u, 1)))\n",
           "sparse rate: psi(u) = min(u, 1 + log(1 v u)) without the 1", k="not test_searches"),
    Mutant("kent/_rates.py", "    return np.log(np.maximum(u, math.e))\n", "    return np.log(np.maximum(u, 1.0))\n",
           "the rates' log factor L(u) = log(u v e) floored at 0, not 1", k="not test_searches"),
    Mutant("kent/_rates.py", "forms[\"log_T_dagger\"] = lambda n, T, a, d, s, b, c, C, c1, c2: (2 * b + 1) * np.log(n * a**2)",
           "forms[\"log_T_dagger\"] = lambda n, T, a, d, s, b, c, C, c1, c2: (2 * b) * np.log(n * a**2)",
           "density: T-dagger = (n alpha^2)^(2 beta + 1) with exponent 2 beta", k="not test_searches"),
    Mutant("kent/_transitions.py", "return consts.c * min(math.exp(-consts.c1 * x), 1 / x / T)",
           "return consts.c * max(math.exp(-consts.c1 * x), 1 / x / T)", "DAME's quote of Kent's lower bound: min read as max", k="not test_searches"),
    # ---- cummings.py: weights, T*, k*, the lower bound, Algorithm 2's groups
    Mutant("cummings/_weights.py", "    second_moment = s2 + p**2  # E[p_i^2]\n", "    second_moment = s2 + p  # E[p_i^2]\n",
           "E[p_i^2] = sigma_p^2 + p^2 read with p"),
    Mutant("cummings/_weights.py", "    raw = u * np.minimum(u, T)\n", "    raw = u * np.maximum(u, T)\n", "eq. (4): min(1/s^2, T/s) read with max"),
    Mutant("cummings/_weights.py", "T_star = float(cand_T[vals <= best * (1 + 1e-13)].min())", "T_star = float(cand_T[vals <= best * (1 + 1e-13)].max())",
           "T*'s tie rule: the largest minimiser (the docstring says smallest)"),
    Mutant("cummings/_bounds.py", "root = math.fsum(np.minimum(kk, np.sqrt(kk.astype(float)) * math.sqrt(ks)))",
           "root = math.fsum(np.maximum(kk, np.sqrt(kk.astype(float)) * math.sqrt(ks)))",
           "Corollary 5.5: sum min(k_i, sqrt(k_i k*)) with max"),
    Mutant("cummings/_plan.py", "    n_var = max(1, math.ceil(math.log(n)))\n", "    n_var = max(1, math.floor(math.log(n)))\n",
           "Algorithm 2: ceil(log n) variance users, floored"),
    Mutant("cummings/_plan.py", "    n_mean = max(1, n // 10)\n", "    n_mean = max(1, n // 5)\n", "Algorithm 2: n/10 users for the mean's range"),
    # ---- rameshwar.py: Theorem III.1's clipping, Lemma III.1, the collections
    Mutant("rameshwar.py", "    a = [max((Ue * k - T) / (2 * k), Fraction(0)) for k in mm.tolist()]",
           "    a = [max((Ue * k - T) / k, Fraction(0)) for k in mm.tolist()]", "Theorem III.1's a_l = (U m_l - T)/(2 m_l) without the 2"),
    Mutant("rameshwar.py", "    b = [min((Ue * k + T) / (2 * k), Ue) for k in mm.tolist()]",
           "    b = [(Ue * k + T) / (2 * k) for k in mm.tolist()]", "Theorem III.1's b_l not capped at U"),
    Mutant("rameshwar.py", "        bias_sum = math.fsum(w * np.maximum(a_s, Uf - b_s))",
           "        bias_sum = math.fsum(w * np.minimum(a_s, Uf - b_s))", "worst-case bias: max(a, U - b) read as min"),
    Mutant("rameshwar.py", "    return math.ceil((1 if rule == \"section-IV-A\" else 2) / e)",
           "    return math.ceil((2 if rule == \"section-IV-A\" else 1) / e)", "AKMV's rank: Section IV-A's 1/eps and Theorem III.1's 2/eps swapped"),
    Mutant("rameshwar.py", "        ok = np.array([r <= desc.size for r in ranks])", "        ok = np.array([r < desc.size for r in ranks])",
           "threshold_grid: T_eps = 0 already when 2/eps = L"),
    Mutant("rameshwar.py", "    return np.concatenate([np.full(2**i, 2 ** (M - i), dtype=np.int64) for i in range(M + 1)])",
           "    return np.concatenate([np.full(2**i, 2 ** (M - i), dtype=np.int64) for i in range(M)])",
           "the dyadic collection loses its 2^M users of count 1"),
    # ---- mechanisms.py: randomised response, Duchi, Smith's quantile
    Mutant("mechanisms.py", "return alpha / (2 * k) if k <= MAX_EXACT_INT", "return alpha / k if k <= MAX_EXACT_INT",
           "Lemma 16: log-odds alpha/(2k) read as alpha/k"),
    Mutant("mechanisms.py", "inputs = [v for v in itertools.product((0, 1), repeat=n_bins) if sum(v) <= k]",
           "inputs = [v for v in itertools.product((0, 1), repeat=n_bins) if sum(v) < k]",
           "the privacy-loss enumeration skips inputs with exactly k ones"),
    Mutant("mechanisms.py", "return rng.binomial(n_users, 0.5 + theta / (2 * B), size=_size(size))",
           "return rng.binomial(n_users, 0.5 - theta / (2 * B), size=_size(size))", "Duchi's count: P(+B) = 1/2 - theta/(2B)"),
    Mutant("mechanisms.py", "    t = max(L - r + 1, 0)\n", "    t = max(L - r, 0)\n", "Smith's quantile: target index off by one"),
    Mutant("mechanisms.py", "logits = np.log(widths) - 0.5 * eps * np.abs(np.arange(L + 1) - t)",
           "logits = np.log(widths) - eps * np.abs(np.arange(L + 1) - t)", "exponential mechanism exp(-eps|i - t|/2) without the 1/2"),
    Mutant("mechanisms.py", "keep = rng.random(v.shape) < rr_keep_probability(alpha, k=k)",
           "keep = rng.random(v.shape) > rr_keep_probability(alpha, k=k)", "randomised response keeps with 1 - pi"),
    # ---- simulate.py: which data reach which step, blocks, standard errors
    Mutant("simulate.py", "        return m, pop.local_means(np.minimum(m, kT), rng), None",
           "        return m, pop.local_means(m, rng), None", "Kent: users' means over all m records, not min(m, T*)"),
    Mutant("simulate.py", "            by_m.append((s + pop.sums(a - t, c, rng) if a > t else s) / a)",
           "            by_m.append((s + pop.sums(a - t, c, rng) if a > t else s) / t)", "DAME's mean over m records divided by T*"),
    Mutant("simulate.py", "    n_blocks = -(-reps // BLOCK)\n", "    n_blocks = reps // BLOCK\n", "the last partial block of replications dropped"),
    Mutant("simulate.py", "float(sq.std(ddof=1) / math.sqrt(R)) if R > 1 else math.inf,",
           "float(sq.std(ddof=1) / R) if R > 1 else math.inf,", "the MSE's stderr sd/R, not sd/sqrt(R)"),
    Mutant("simulate.py", "starts = np.concatenate([[0], np.cumsum(m)[:-1]])\n    sums = np.add.reduceat",
           "starts = np.concatenate([[0], np.cumsum(m)[:-1] + 1])\n    sums = np.add.reduceat",
           "Rameshwar: each user's sum shifted by one sample (records cross users)"),
]
MUTANTS += BROAD


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 5))


def _restore_on_term(signum, frame):  # a SIGTERM still runs run()'s finally: the module is restored
    raise KeyboardInterrupt


def run(mutant: Mutant) -> str:
    if mutant.equivalent:
        return "equivalent"
    path = ROOT / "bounds" / mutant.module
    text = path.read_text()
    if text.count(mutant.before) != 1:
        raise SystemExit(f"{mutant.module}: the snippet must occur once: {mutant.before!r}")
    path.write_text(text.replace(mutant.before, mutant.after))
    try:
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "",  # slow tests too: CI runs them
               *TESTS[mutant.module], *(["-k", mutant.k] if mutant.k else [])]
        proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              preexec_fn=_limit_cpu, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    finally:
        path.write_text(text)
    if proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return "timeout"
    return "survived" if proc.returncode == 0 else "killed"


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGTERM, _restore_on_term)
    pool = BROAD if "--broad" in argv else MUTANTS
    argv = [a for a in argv if a != "--broad"]
    chosen = [m for m in pool if not argv or any(m.module.startswith(a) or m.module.endswith(f"{a}.py") for a in argv)]
    rows: dict[str, dict[str, int]] = {}
    for m in chosen:
        verdict = run(m)
        r = rows.setdefault(m.module, {"mutants": 0, "equivalent": 0, "killed": 0, "survived": 0, "timeout": 0})
        r["mutants"] += 1
        r[verdict] += 1
        print(f"{verdict:10s} {m.module:28s} {m.why}" + (f" [{m.equivalent}]" if m.equivalent else ""), flush=True)
    print(f"\n{'module':28s} {'mutants':>7s} {'equiv':>5s} {'killed':>6s} {'survived':>8s} {'timeout':>7s} {'score':>6s}")
    for module, r in sorted(rows.items()):
        live = r["mutants"] - r["equivalent"]
        score = f"{100 * r['killed'] / live:.0f}%" if live else "-"
        print(f"{module:28s} {r['mutants']:7d} {r['equivalent']:5d} {r['killed']:6d} {r['survived']:8d} {r['timeout']:7d} "
              f"{score:>6s}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
