"""Single-point mutation pass: does the test suite see a change chosen from the papers?

Each mutant replaces one exact snippet of one module (a constant, a clip end, a noise
scale, a rank, a comparison, an off-by-one in a search, which half of the users reaches
which step), runs the tests that cover the module (the slow ones included: CI runs them) under a CPU-time limit (a mutant that
loops forever counts as killed when the limit stops it), restores the file, and prints a
table per module: mutants, equivalent (with the reason), killed, survived, score
(killed / non-equivalent).

Not run by the test suite.  Usage (from the repository root; it edits files in place and
restores them, so run it on a clean tree)::

    nice -n 10 python benchmarks/mutate.py            # every mutant
    nice -n 10 python benchmarks/mutate.py dame kent  # the mutants of some modules
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
    "dame/_upper.py": ["tests/test_searches.py", "tests/test_dame.py", "tests/test_hostile.py"],
    "dame/_maps.py": ["tests/test_dame.py", "tests/test_regimes.py", "tests/test_hostile.py"],
    "kent.py": ["tests/test_searches.py", "tests/test_kent.py"],
    "cummings.py": ["tests/test_searches.py", "tests/test_privacy_structure.py", "tests/test_cummings.py"],
    "rameshwar.py": ["tests/test_searches.py", "tests/test_rameshwar.py"],
    "numerics.py": ["tests/test_numerics.py", "tests/test_searches.py"],
    "mechanisms.py": ["tests/test_mechanisms.py", "tests/test_estimators_duchi.py"],
    "simulate.py": ["tests/test_privacy_structure.py", "tests/test_simulate.py"],
    "checks.py": ["tests/test_privacy_structure.py", "tests/test_checks.py"],
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
}

MUTANTS = [
    # ---- DAME, Pla et al. (2024): eq. (10)'s branch and bound, Theorem 2's m~ search, the constants
    Mutant("dame/_lower.py", "dec = lhs + pl < 0.5 * be.log(be.asarray(L + 1)) - sh - margin",
           "dec = lhs + pl < 0.5 * be.log(be.asarray(H + 1)) - sh - margin",
           "the branch and bound's 'decreasing' test weakened (sqrt(h+1) for sqrt(l+1))", k="test_lower_bound_on or test_lower_bound_where or uniform_with"),
    Mutant("dame/_lower.py", "offer(t, lo - 1, *parts(lo - 1))  # 1.", "offer(t, lo, *parts(lo))  # 1.",
           "the search's start shifted: a0 - 1 (the end of the non-decreasing part) never offered", k="test_lower_bound_on or test_lower_bound_where or uniform_with"),
    Mutant("dame/_upper.py", "hi = np.floor(mean * np.sqrt(np.maximum(x / c5, 1.0))) + 1",
           "hi = np.floor(mean * np.sqrt(x / c5)) + 1", "m~'s Markov bracket shrunk where n alpha^2 < c5", k="test_m_tilde_at_constructed or test_m_tilde_on or test_m_tilde_of_a_point or uniform_with"),
    Mutant("dame/_upper.py", "probe = g + np.minimum(g, top[active] - g)", "probe = g + np.minimum(g, top[active] - g) // 2 + 1",
           "the doubling start of m~'s search probes short of its bracket",
           "equivalent: any probe in (good, top] keeps the invariants (pred true at good, the answer <= top); "
           "only the number of evaluations changes", k="test_m_tilde_at_constructed or test_m_tilde_on or test_m_tilde_of_a_point or uniform_with"),
    Mutant("dame/_upper.py", "top[active[~ok]] = probe[~ok] - 1", "top[active[~ok]] = probe[~ok] - 2",
           "m~'s bracket cut one below the first failing probe", k="test_m_tilde_at_constructed or test_m_tilde_on or test_m_tilde_of_a_point or uniform_with"),
    Mutant("dame/_upper.py", "holds = np.where(big, (a <= law.support_min) & (capped | (lphi <= 0)), d >= 0)",
           "holds = np.where(big, (a <= law.support_min) & (capped | (lphi <= 0)), d > 0)", "Theorem 2's condition P^2 >= phi made strict",
           "equivalent: d = 0 needs P(m >= a)^2 (a rational) to equal phi(a) = c5/x log(y/log y) exactly, and the "
           "float decision re-decides every near-tie at 60 digits; no input reaches the tie", k="test_m_tilde_at_constructed or test_m_tilde_on or test_m_tilde_of_a_point or uniform_with"),
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
    Mutant("kent.py", "    cap = math.floor(e)\n", "    cap = math.ceil(e)\n", "eq. (25): T* = floor(e^{n alpha^2/(Kd)})", k="cap"),
    Mutant("kent.py", "inner = math.log(n * t_star * alpha * alpha)", "inner = math.log(n * T * alpha * alpha)",
           "eq. (25): tau with T instead of T*", k="cap or tau"),
    Mutant("estimators/kent.py", "    return refine(xbar[:, h:], j, tau=tau, alpha=alpha, rng=rng)",
           "    return refine(xbar[:, h - 1:], j, tau=tau, alpha=alpha, rng=rng)", "univariate: a voter also releases", k="kent"),
    Mutant("estimators/kent.py", "est = refine(rows[:, g:], j,", "est = refine(rows[:, g - 1:], j,",
           "coordinatewise: a voter of G_j also refines", k="kent or coordinatewise"),
    Mutant("checks.py", "        g = n // (2 * d)\n", "        g = n // d\n", "l-inf groups: 2dg users exceed n", k="kent"),
    # ---- Cummings et al. (2022)
    Mutant("cummings.py", "return int(cand[int(np.argmin(vals))])",
           "return int(cand[len(vals) - 1 - int(np.argmin(vals[::-1]))])", "k*: the largest minimiser on ties", k="k_star"),
    Mutant("cummings.py", "below = np.searchsorted(ks, cand, side=\"right\")", "below = np.searchsorted(ks, cand, side=\"left\")",
           "k*'s objective: sum min(k_i, k) off at k_i = k",
           "equivalent: a user with k_i = k adds min(k_i, k) = k whether counted below (k_i) or above (k)",
           k="k_star"),
    Mutant("cummings.py", "return order[:n_var], order[n_var : n - n_mean], order[n - n_mean :]",
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
    Mutant("numerics.py", "        mid = good + (top - good + 1) // 2\n", "        mid = good + (top - good) // 2 + 1\n",
           "last_true's midpoint rounded the other way", "equivalent: for good < top, (t-g+1)//2 and (t-g)//2 + 1 differ "
           "only when t - g is even, and both stay in (good, top]; the bisection is still exact"),
    Mutant("numerics.py", "        top = np.where(active & ~ok, mid - 1, top)\n", "        top = np.where(active & ~ok, mid - 2, top)\n",
           "last_true skips the point below a failing midpoint", k="last_true or m_tilde"),
    Mutant("mechanisms.py", "t = math.tanh(alpha / 2)", "t = math.tanh(alpha / 3)", "Duchi's B = coth(alpha/2)", k="duchi"),
    Mutant("simulate.py", "nu = min(p * (1 - p) / sigma_p2 - 1, _MAX_BETA_CONCENTRATION)",
           "nu = min(p * (1 - p) / sigma_p2 + 1, _MAX_BETA_CONCENTRATION)", "the Beta meta-law's variance", k="cummings"),
    # ---- the code of the second round (new mutants)
    Mutant("estimators/localisation.py", "special.betainc(z + 1, n - z, flip)", "special.betainc(z, n - z + 1, flip)",
           "the noise-only total's survival P(T > y) read as P(T >= y)"),
    Mutant("estimators/localisation.py", "np.where(y < 0, 1.0, 0.0)", "np.where(y < 0, 0.0, 0.0)",
           "S(-1) = P(T > -1) = 1 lost: the smallest maximum never drawn"),
    Mutant("sizes/_tables.py", "log_r = min(log_r, (float(lp[-1]) - f_first + 2 * err) / span)", "log_r = log_r",
           "the chord bound dropped: tails past |log p| = 2**53 never converge", k="deep or extremes"),
    Mutant("sizes/_family.py", "base_s = _left_log_sum(lambda k: 0.5 * np.log(k) + self._logpmf(k), first, lo)",
           "base_s = _left_log_sum(self._logpmf, first, lo)", "E[sqrt(m) 1{m <= a}] below the window without sqrt(m)"),
    Mutant("sizes/_family.py", "out_c[sel] = np.logaddexp.accumulate(np.concatenate([[base_c], lp]))[idx]",
           "out_c[sel] = np.logaddexp.accumulate(np.concatenate([[-np.inf], lp]))[idx]",
           "P(m <= a) below the window loses the mass below each cluster"),
    Mutant("sizes/_geometric.py", "cache[mpmath.mp.dps] = (head + mpmath.sqrt(A) * mpmath.exp(-beta * A) / 2, [])",
           "cache[mpmath.mp.dps] = (head, [])", "Euler-Maclaurin's endpoint term g(A)/2 dropped (precision path)", k="geometric"),
    Mutant("sizes/_geometric.py", "a_side.append((c, c * mpmath.exp(-beta * A) * self._mp_h(2 * j - 1, A, beta)))",
           "a_side.append((c, c * mpmath.exp(-beta * A) * self._mp_h(2 * j, A, beta)))",
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
]


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
    chosen = [m for m in MUTANTS if not argv or any(m.module.startswith(a) or m.module.endswith(f"{a}.py") for a in argv)]
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
