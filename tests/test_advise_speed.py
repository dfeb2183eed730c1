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
