"""The vectorised and integer searches of ``bounds.advise`` against one validated scalar call per candidate."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bounds import kent
from bounds.advise.inputs import Histogram
from bounds.advise.methods import kent as kent_method


def _scalar_candidates(h: Histogram, alpha: float) -> list:
    """(T, n_T, T*, rate) per distinct count by one checked ``kent.estimator_cap`` and ``kent.rate`` call each."""
    out = []
    counts = np.repeat(h.counts, h.users)
    for T in h.counts.tolist():
        nT = int(np.sum(counts >= T)) // 2 * 2
        try:
            cap = kent.estimator_cap(n=nT, T=T, alpha=alpha)[0]
        except ValueError:
            out.append((T, nT, None, None))
            continue
        out.append((T, nT, cap, kent.rate("mean", n=nT, T=cap, alpha=alpha).upper))
    return out


def _histograms() -> list:
    rng = np.random.default_rng(38)
    hs = [Histogram.of_counts([1] * 10 + [40] * 1000), Histogram.of_counts([3] * 400 + [9] * 40),
          Histogram.of_counts([1, 2, 3]), Histogram.of_counts([5])]
    for _ in range(6):
        J = int(rng.integers(1, 60))
        counts = np.unique(rng.integers(1, 10**6, size=J))
        users = rng.integers(1, 500, size=counts.size)
        hs.append(Histogram.of_pairs(counts, users))
    return hs


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.3, 0.5, 1.0, 4.0])
@pytest.mark.parametrize("index", range(10))
def test_kent_candidate_rates_equal_the_scalar_calls(index, alpha):
    h = _histograms()[index]
    nT, cT, r = kent_method.candidate_rates(h, alpha)
    for j, (T, n, cap, rate) in enumerate(_scalar_candidates(h, alpha)):
        assert int(nT[j]) == n
        if rate is None:
            assert r[j] == math.inf
        else:
            assert int(cT[j]) == cap
            assert r[j] == pytest.approx(rate, rel=1e-12, abs=0)


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.3, 0.5, 1.0, 4.0])
@pytest.mark.parametrize("index", range(10))
def test_kent_best_truncation_is_the_scalar_argmin(index, alpha):
    h = _histograms()[index]
    best = None
    for T, n, cap, rate in _scalar_candidates(h, alpha):  # the original loop: first strict minimum
        if rate is not None and (best is None or rate < best[0]):
            best = (rate, T, n, cap)
    assert kent_method.best_truncation(h, alpha) == best


def test_kent_ties_keep_the_smallest_count():
    # counts 30 and 40 keep 1000 users each (1001 rounded down to even) and e^{1000·0.05²} = e^{2.5} ≈ 12.2
    # caps both at T* = 12: equal rates, and the smaller count is kept, as by the scalar loop's strict <
    h = Histogram.of_pairs([30, 40], [1, 1000])
    nT, cT, r = kent_method.candidate_rates(h, 0.05)
    assert nT.tolist() == [1000, 1000] and cT.tolist() == [12, 12] and r[0] == r[1]
    assert kent_method.best_truncation(h, 0.05)[1:] == (30, 1000, 12)


def test_kent_candidates_near_the_float_range_are_decided_like_the_scalar_call():
    # 2·α² at the edge e^{-690} of the rates' float64 range (T = 2 keeps n = 2 users): refused or kept as
    # kent.estimator_cap decides; both sides of the edge occur
    edge = math.exp((-690.0 - math.log(2)) / 2)
    for alpha in (edge * (1 + 1e-13), edge * (1 - 1e-13), edge * (1 + 1e-6), edge * (1 - 1e-6)):
        h = Histogram.of_pairs([1, 2], [2, 2])
        nT, cT, r = kent_method.candidate_rates(h, alpha)
        for j, (T, n, cap, rate) in enumerate(_scalar_candidates(h, alpha)):
            assert (r[j] == math.inf) == (rate is None)


def _k_star_brute(h: Histogram, eps: float) -> int:
    """Corollary 5.5's objective in exact rationals at every k = 1..max count (smallest k on ties)."""
    from fractions import Fraction

    e2 = Fraction(eps) ** 2
    d, c = h.counts.tolist(), h.users.tolist()
    best = None
    for k in range(1, max(d) + 1):
        used = sum(cj * min(dj, k) for dj, cj in zip(d, c))
        val = (k / e2 + used) / Fraction(used) ** 2
        if best is None or val < best[0]:
            best = (val, k)
    return best[1]


@pytest.mark.parametrize("eps", [0.01, 0.1, 1 / 3, 1.0, 2.0, 7.5, 100.0])
def test_cummings_k_star_in_integers_is_the_rational_argmin(eps):
    from bounds.advise.methods import cummings as cummings_method

    rng = np.random.default_rng(55)
    hs = [Histogram.of_counts([10, 10, 10]), Histogram.of_counts([5] * 200 + [50] * 20), Histogram.of_counts([1])]
    for _ in range(8):
        counts = np.unique(rng.integers(1, 300, size=int(rng.integers(1, 25))))
        hs.append(Histogram.of_pairs(counts, rng.integers(1, 40, size=counts.size)))
    for h in hs:
        assert cummings_method.k_star(h, eps) == _k_star_brute(h, eps)


@pytest.mark.parametrize("eps, U", [(0.1, 1.0), (1 / 3, 0.7), (2.5, 3.0), (1e-3, 1e-2)])
def test_rameshwar_law_error_in_integers_with_float_inputs(eps, U):
    # floats are exact binary rationals with large denominators: the integer argmin must keep them exactly
    from fractions import Fraction

    from bounds import rameshwar
    from bounds.advise import searches

    rng = np.random.default_rng(7)
    for _ in range(20):
        m = rng.integers(1, 40, size=int(rng.integers(1, 30)))
        assert searches.law_optimal_error(m, U=U, eps=eps, exact=True) == rameshwar.optimal_error(
            m, U=Fraction(U), eps=Fraction(eps), exact=True)
        t = Fraction(U) * Fraction(int(rng.integers(1, 99)), 200)  # below U/2
        s = searches.rameshwar_smallest(m, U=U, target=float(t))
        assert rameshwar.optimal_error(m, U=Fraction(U), eps=s / m.size, exact=True) <= Fraction(float(t))
        assert rameshwar.optimal_error(m, U=Fraction(U), eps=s / m.size * Fraction(999_999, 10**6),
                                       exact=True) > Fraction(float(t))


def test_cummings_k_star_without_the_int64_screen_is_the_same(monkeypatch):
    # past int64 the objective is decided at every count in Python ints: same argmin as the screened path
    from bounds.advise.methods import cummings as cummings_method

    rng = np.random.default_rng(9)
    counts = np.unique(rng.integers(1, 300, size=40))
    h = Histogram.of_pairs(counts, rng.integers(1, 40, size=counts.size))
    screened = [cummings_method.k_star(h, e) for e in (0.05, 0.5, 3.0)]
    monkeypatch.setattr(cummings_method, "_used_at_counts", lambda h: None)
    assert [cummings_method.k_star(h, e) for e in (0.05, 0.5, 3.0)] == screened == [
        _k_star_brute(h, e) for e in (0.05, 0.5, 3.0)]


def test_rameshwar_law_error_past_int64_and_with_huge_budgets():
    # max(d)·N ≥ 2^62 takes the Python-integer path, s = nε ≥ 1e300 skips the float screen: both exact
    from fractions import Fraction

    from bounds.advise import searches

    def brute(d, c, U, s):  # Lemma III.1 at every kink T = U d_j, and T = 0 (E = U/2), in rationals
        total = sum(a * b for a, b in zip(d, c))
        vals = [U / 2]
        for T in (U * dj for dj in d):
            bias = sum(cj * max(U * dj - T, 0) for dj, cj in zip(d, c)) / 2
            vals.append((bias + T / s * sum(c)) / total)
        return min(vals)

    for d, c, eps in (([1, 2**31 - 1], [2**31, 3], 0.25), ([3, 7, 20], [5, 1, 2], 1e300), ([2, 9], [4, 4], 1e-3)):
        h = Histogram.of_pairs(d, c)
        U = Fraction(3, 2)
        assert searches.law_optimal_error(h, U=U, eps=eps, exact=True) == brute(d, c, U, Fraction(eps) * sum(c))


# ---------------------------------------------------------------- bounded work on many distinct counts (issue 38)

def _distinct_histogram_file(path, J: int) -> None:
    """``count,users`` rows: counts 1..J, one user each (J distinct counts)."""
    path.write_text("count,users\n" + "".join(f"{d},1\n" for d in range(1, J + 1)))


def _run_under_a_terminal(argv: list, *, stop_at_bar: bool) -> tuple:
    """Run ``argv`` with stderr on a pseudo-terminal (tqdm draws only on a terminal); return (the child's CPU
    seconds when stderr first printed, what stderr printed, the child's total CPU seconds, its status)."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import subprocess
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    tick = os.sysconf("SC_CLK_TCK")
    first, seen = None, b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                if first is None:
                    with open(f"/proc/{proc.pid}/stat") as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    first = (int(fields[11]) + int(fields[12])) / tick  # utime + stime of the child
                seen += chunk
                if stop_at_bar and b"advise" in seen:
                    proc.kill()
                    break
            elif proc.poll() is not None:
                break
    finally:
        _, status, usage = os.wait4(proc.pid, 0)
        os.close(master)
    return first, seen.decode(errors="replace"), usage.ru_utime + usage.ru_stime, status


def test_advise_shows_its_progress_bar_within_two_cpu_seconds(tmp_path):
    # 10^6 distinct counts: the bar (stderr, a terminal) is drawn before the file is read and the theory
    # imported; measured in the child's CPU time, so a busy machine cannot fail the test
    import sys

    path = tmp_path / "h.csv"
    _distinct_histogram_file(path, 10**6)
    first, seen, _, _ = _run_under_a_terminal([sys.executable, "-m", "bounds", "advise", "--histogram", str(path)],
                                              stop_at_bar=True)
    assert "advise: reading --histogram" in seen
    assert first is not None and first < 2.0


def test_central_inverse_searches_past_the_work_limit_are_not_searched(monkeypatch):
    from bounds.advise.methods import capping
    from bounds.advise.results import Settings

    h = Histogram.of_pairs(np.arange(1, 41), np.ones(40, dtype=np.int64))
    d = capping.data_of(h, Settings(), None)
    assert capping.work("record cap", d) == 40 + 40 and capping.work("window", d) == 40
    searched = capping.inverses("window", h, d, Settings())
    assert [i.searched for i in searched] == [True, True] and searched[0].value is not None
    monkeypatch.setattr(capping, "MAX_INVERSE_WORK", 79)
    for kind in ("record cap", "sum cap", "window"):
        out = capping.inverses(kind, h, d, Settings())
        assert [(i.level, i.searched, i.value) for i in out] == ([("eps", kind != "record cap", out[0].value),
                                                                  ("n", kind != "record cap", out[1].value)])
        assert (out[0].value is None) == (kind == "record cap")
    assert "not searched: one tuning here weighs 80" in capping.inverses("record cap", h, d, Settings())[0].note
    assert capping.inverses("no clipping", h, d, Settings())[0].searched  # a closed form per step: searched


def test_cummings_simulation_past_its_draw_limit_is_not_run_and_said(monkeypatch):
    from bounds.advise.methods import cummings as m_cummings
    from bounds.advise.results import Settings

    h = Histogram.of_pairs([1, 5], [10, 2])  # min(10, 2) + min(2, 6) = 4 draws a replication
    assert m_cummings.simulation_draws(h, 64) == 64 * 4
    monkeypatch.setattr(m_cummings, "MAX_DRAWS", 64 * 4)
    assert m_cummings.evaluate(h, Settings(reps=64, inverse=False), 0).simulation is not None
    monkeypatch.setattr(m_cummings, "MAX_DRAWS", 64 * 4 - 1)
    r = m_cummings.evaluate(h, Settings(reps=64, inverse=False), 0)
    assert r.simulation is None and "not simulated: 256 draws" in r.details["not_simulated"]


def test_cummings_variance_terms_in_blocks_equal_the_direct_sums(monkeypatch):
    # eq. (4)-(5) written out per truncation in scalar floats, against the blocked matrices
    from bounds.advise.methods import cummings as m_cummings

    h = Histogram.of_pairs([1, 3, 8], [4, 2, 1])
    s2 = np.array([0.25, 0.5, 1.0])  # σ² with exact square roots: u = 2, √2, 1
    widths = np.array([0.5, 0.25, 0.125])
    Ts = np.array([0.5, 1.5, 3.0])
    monkeypatch.setattr(m_cummings, "_BLOCK", 4)  # one truncation per block
    sampling, noise = m_cummings.variance_terms(h, s2, widths, Ts, 2.0)
    for t, sa, no in zip(Ts.tolist(), sampling.tolist(), noise.tolist()):
        u = [1 / math.sqrt(v) for v in s2.tolist()]
        raw = [ui * min(ui, t) for ui in u]
        tot = sum(r * c for r, c in zip(raw, h.users.tolist()))
        w = [r / tot for r in raw]
        assert sa == pytest.approx(math.sqrt(sum(wi * wi * v * c for wi, v, c in zip(w, s2.tolist(),
                                                                                       h.users.tolist()))), rel=1e-14)
        assert no == pytest.approx(math.sqrt(2) * max(wi * f for wi, f in zip(w, widths.tolist())) / 2.0, rel=1e-14)


def test_curve_points_fall_with_the_size_and_stay_at_least_the_minimum():
    from bounds.advise import simulation

    assert simulation.curve_points(1) == 25
    assert simulation.curve_points(simulation.MAX_CURVE_WORK // 25) == 25
    assert simulation.curve_points(simulation.MAX_CURVE_WORK // 10) == 10
    assert simulation.curve_points(10**9) == simulation.MIN_CURVE_POINTS


@pytest.mark.slow
def test_advise_on_a_million_distinct_counts_is_bounded(tmp_path):
    # the whole command on 10^6 distinct counts: bounded CPU (about 20 s when measured; the limit leaves room
    # for slower machines, the previous code took over 85 s), the bounded steps said in the report
    import sys

    path = tmp_path / "h.csv"
    _distinct_histogram_file(path, 10**6)
    first, seen, cpu, status = _run_under_a_terminal(
        [sys.executable, "-m", "bounds", "advise", "--histogram", str(path), "--jobs", "1"], stop_at_bar=False)
    assert status == 0 and first is not None and first < 2.0
    assert cpu < 60.0
