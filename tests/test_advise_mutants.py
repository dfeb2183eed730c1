"""Review tests of the tuned central releases and the private selection, each against a reference built here
from the releases' definitions alone: the Laplace variance by numerical quadrature of its density, every
sensitivity by brute force over replaced values, every MSE by enumerating the users' outcomes and kept
subsets, every argmin by a fine scan, the exponential mechanism by enumerating neighbouring histograms."""

import functools
import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from bounds.advise import Histogram, Settings, privacy, tuning
from bounds.advise.methods import capping

# --------------------------------------------------------------------------- independent references

# Var of Lap(1) by quadrature of x² e^{-|x|} / 2 (Var Lap(s) = s² times it)
LAPLACE_UNIT_VAR = float(mpmath.quad(lambda x: x * x * mpmath.exp(-abs(x)) / 2, [-mpmath.inf, 0, mpmath.inf]))


def clip_sum(kind, S, m, b, U):
    """What the release keeps of a user's sum ``S`` of ``m`` values (no clipping: ``S``)."""
    if kind == "sum cap":
        return min(S, b)
    if kind == "window":
        return min(max(S, U * m / 2 - b / 2), U * m / 2 + b / 2)
    return S


def contribution(kind, v, b, U):
    """The per-user statistic the release sums, as a list of (value, probability) over the sampling."""
    if kind == "record cap":
        subs = list(itertools.combinations(v, min(len(v), int(b))))
        return [(sum(c), 1.0 / len(subs)) for c in subs]
    return [(clip_sum(kind, sum(v), len(v), b, U), 1.0)]


@functools.lru_cache(maxsize=None)
def value_vectors(m, U):
    return tuple(itertools.product([0.0, U / 2, U], repeat=m))


@functools.lru_cache(maxsize=None)
def brute_sensitivity(kind, counts, b, U):
    """max over users and over two value vectors in {0, U/2, U}^m of the change of the user's statistic
    (for the record cap: on every fixed kept subset, i.e. the coupling of the sampling)."""
    worst = 0.0
    for m in set(counts):
        vecs = value_vectors(m, U)
        if kind == "record cap":
            for idx in itertools.combinations(range(m), min(m, int(b))):
                sums = [sum(x[i] for i in idx) for x in vecs]
                worst = max(worst, max(sums) - min(sums))
        else:
            vals = [clip_sum(kind, s, m, b, U) for s in {sum(x) for x in vecs}]
            worst = max(worst, max(vals) - min(vals))
    return worst


def ref_mse_values(kind, users, U, eps, b):
    """E (release − dataset mean)² on fixed values: the kept subsets enumerated, Laplace by quadrature."""
    counts = [len(v) for v in users]
    M = sum(counts)
    denom = sum(min(x, int(b)) for x in counts) if kind == "record cap" else M
    truth = sum(sum(v) for v in users) / M
    mean = var = 0.0  # users' statistics are independent
    for v in users:
        dist = contribution(kind, v, b, U)
        e = sum(x * p for x, p in dist)
        mean += e
        var += sum(p * (x - e) ** 2 for x, p in dist)
    scale = brute_sensitivity(kind, tuple(sorted(set(counts))), float(b), U) / (eps * denom)
    return (mean / denom - truth) ** 2 + var / denom**2 + LAPLACE_UNIT_VAR * scale**2


def ref_mse_synthetic(kind, counts, U, theta, eps, b):
    """The synthetic law: each user's values all U (probability (1+θ)/2) or all 0; every outcome enumerated."""
    q = (1 + theta) / 2
    tot = 0.0
    for outs in itertools.product([0, 1], repeat=len(counts)):
        p = math.prod(q if o else 1 - q for o in outs)
        tot += p * ref_mse_values(kind, [[U * o] * m for o, m in zip(outs, counts)], U, eps, b)
    return tot


def values_data(users, U):
    m = np.array([len(v) for v in users])
    return tuning.from_values(m, np.array([sum(v) for v in users]), np.array([sum(x * x for x in v) for v in users]),
                              U=U)


def code_mse(kind, data, eps, b):
    M = data.records
    if kind == "none":
        return tuning.no_clipping(data, eps) / M**2
    if kind == "record cap":
        return float(tuning.record_cap(data, eps, np.array([float(b)]))[1][0]) / M**2
    f = tuning.sum_cap(data, eps) if kind == "sum cap" else tuning.window(data, eps)
    return float(f(b)[0]) / M**2


def random_users(rng, U, n_max=4, m_max=4):
    counts = rng.integers(1, m_max + 1, size=int(rng.integers(2, n_max + 1))).tolist()
    return [rng.uniform(0, U, size=m).round(3).tolist() for m in counts]


# --------------------------------------------------------------------------- exact MSEs


def test_laplace_reference_is_the_quadrature():
    assert LAPLACE_UNIT_VAR == pytest.approx(2.0, rel=1e-12)  # the reference itself, by quadrature


@pytest.mark.parametrize("kind", ["sum cap", "window", "record cap", "none"])
def test_values_mse_against_brute_force_with_brute_sensitivity(kind):
    rng = np.random.default_rng(35)
    for _ in range(12):
        U, eps = float(rng.choice([1.0, 2.5])), float(rng.choice([0.3, 1.0, 4.0]))
        users = random_users(rng, U)
        if rng.random() < 0.3:  # some users at the ends of the range (the window's and cap's worst)
            users[0] = [U] * len(users[0])
        data = values_data(users, U)
        mstar = max(len(v) for v in users)
        bounds = range(1, mstar + 1) if kind == "record cap" else [0.0, 0.3 * U, U, 1.7 * U, U * mstar]
        for b in ([mstar] if kind == "none" else bounds):
            assert code_mse(kind, data, eps, b) == pytest.approx(ref_mse_values(kind, users, U, eps, b), rel=1e-9)


@pytest.mark.parametrize("kind", ["sum cap", "window", "record cap", "none"])
def test_synthetic_mse_against_outcome_enumeration(kind):
    rng = np.random.default_rng(36)
    for _ in range(8):
        U, eps, theta = float(rng.choice([1.0, 3.0])), float(rng.choice([0.5, 2.0])), float(rng.choice([0.0, 0.3, -0.6]))
        counts = rng.integers(1, 4, size=int(rng.integers(2, 5))).tolist()
        data = tuning.synthetic(Histogram.of_counts(counts), U=U, theta=theta)
        mstar = max(counts)
        bounds = range(1, mstar + 1) if kind == "record cap" else [0.0, 0.5 * U, U, 2.2 * U, U * mstar]
        for b in ([mstar] if kind == "none" else bounds):
            assert code_mse(kind, data, eps, b) == pytest.approx(ref_mse_synthetic(kind, counts, U, theta, eps, b),
                                                                 rel=1e-9)


def test_record_cap_keeps_the_sampling_variance():
    # one user of 4 spread records and one of 1: at k = 2 the kept pair's spread is the only data error term
    users = [[0.0, 1.0, 0.2, 0.9], [0.5]]
    data = values_data(users, 1.0)
    got = code_mse("record cap", data, 1e6, 2)  # noise negligible
    subs = [a + b for a, b in itertools.combinations(users[0], 2)]
    e = sum(subs) / len(subs)
    ref = ((e + 0.5) / 3 - sum(map(sum, users)) / 5) ** 2 + sum((s - e) ** 2 for s in subs) / len(subs) / 9
    assert got == pytest.approx(ref, rel=1e-6) and ref > 1.5 * ((e + 0.5) / 3 - sum(map(sum, users)) / 5) ** 2


def test_window_is_centred_at_half_the_users_range():
    # every value U: S = U·m; the window [U·m/2 − T/2, U·m/2 + T/2] moves S down by (U·m − T)/2
    users, U, T = [[1.0] * 4, [1.0] * 4], 1.0, 2.0
    data = values_data(users, U)
    moved = 2 * (U * 4 - T) / 2
    assert code_mse("window", data, 1e9, T) == pytest.approx((moved / 8) ** 2, rel=1e-9)


# --------------------------------------------------------------------------- the argmin


@pytest.mark.parametrize("kind", ["sum cap", "window"])
def test_tuned_bound_is_the_argmin_of_a_fine_scan(kind):
    rng = np.random.default_rng(37)
    for model in ("values", "synthetic"):
        for _ in range(4):
            U, eps = 1.0, float(rng.choice([0.2, 1.0, 3.0]))
            if model == "values":
                users = random_users(rng, U, n_max=5)
                data = values_data(users, U)
                ref = lambda b: ref_mse_values(kind, users, U, eps, b)  # noqa: E731
                mstar = max(len(v) for v in users)
            else:
                counts = rng.integers(1, 5, size=int(rng.integers(2, 5))).tolist()
                theta = float(rng.choice([0.0, 0.3, 0.8]))
                data = tuning.synthetic(Histogram.of_counts(counts), U=U, theta=theta)
                ref = lambda b: ref_mse_synthetic(kind, counts, U, theta, eps, b)  # noqa: E731
                mstar = max(counts)
            b, m2 = capping.tune(kind, data, eps)
            scan = min(ref(x) for x in np.linspace(0, U * mstar, 601))
            assert m2 / data.records**2 == pytest.approx(ref(b), rel=1e-9)
            assert m2 / data.records**2 <= scan * (1 + 1e-12)


def test_record_cap_tuned_k_is_the_argmin_over_every_k():
    rng = np.random.default_rng(38)
    for _ in range(10):
        users, eps = random_users(rng, 1.0, n_max=4, m_max=5), float(rng.choice([0.3, 1.0, 5.0]))
        data = values_data(users, 1.0)
        k, m2 = capping.tune("record cap", data, eps)
        refs = [ref_mse_values("record cap", users, 1.0, eps, j) for j in range(1, 6)]
        best = min(refs)
        assert m2 / data.records**2 == pytest.approx(best, rel=1e-9)
        assert k == 1 + min(j for j in range(5) if refs[j] <= best * (1 + 1e-9))


def test_ties_take_the_smallest_bound_in_both_searches():
    # (1 − b)_+²: every b in [1, 3] is a minimiser; the smallest is 1
    f = tuning.PiecewiseQuadratic(np.array([1.0]), np.array([0.0]), np.array([1.0]), 0.0, 3.0)
    assert tuning.minimise(f).bound == 1.0
    # two users of 4 records, user-constant values: every k releases the exact mean with noise Lap(U/(2ε))
    data = tuning.synthetic(Histogram.of_counts([4, 4]), U=1.0, theta=0.0)
    ks, v = tuning.record_cap(data, 1.0)
    assert np.all(v == v[0]) and ks.size == 4
    assert capping.tune("record cap", data, 1.0)[0] == 1.0


# --------------------------------------------------------------------------- the private selection


def mech_pmf(counts, grid, rank, eps_sel):
    w = [mpmath.exp(mpmath.mpf(eps_sel) * -abs(sum(1 for m in counts if m > g) - rank) / 2) for g in grid]
    z = mpmath.fsum(w)
    return [float(x / z) for x in w]


def neighbours(counts, top):
    """Every histogram at distance one: a user added (any count up to top), removed or changed."""
    for c in range(1, top + 1):
        yield counts + [c]
    for i in range(len(counts)):
        yield counts[:i] + counts[i + 1:]
        for c in range(1, top + 1):
            yield counts[:i] + [c] + counts[i + 1:]


def test_selection_utility_has_sensitivity_one_and_the_mechanism_is_eps_sel_dp():
    g = privacy.grid(8)
    for counts in ([1, 2, 2, 5], [3, 3, 3], [1, 8, 8, 4, 2]):
        for rank, e in ((1, 0.7), (2, 2.0)):
            u = -np.abs(privacy.above(Histogram.of_counts(counts), g) - rank)
            got = privacy.selection_pmf(Histogram.of_counts(counts), g, rank, e)
            assert got.tolist() == pytest.approx(mech_pmf(counts, g.tolist(), rank, e), rel=1e-12)
            worst_du = worst_ratio = 0.0
            for nb in neighbours(counts, 9):
                if not nb:
                    continue
                u2 = np.array([-abs(sum(1 for m in nb if m > x) - rank) for x in g])
                worst_du = max(worst_du, float(np.max(np.abs(u - u2))))
                p2 = privacy.selection_pmf(Histogram.of_counts(nb), g, rank, e)
                worst_ratio = max(worst_ratio, float(np.max(np.abs(np.log(got / p2)))))
            assert worst_du == 1.0
            assert worst_ratio <= e * (1 + 1e-12)


@pytest.mark.parametrize("kind", ["sum cap", "window", "record cap"])
def test_pipeline_error_is_the_mixture_at_the_release_budget(kind):
    counts, U, eps, frac = [1, 2, 2, 3], 1.0, 1.3, 0.25
    h = Histogram.of_counts(counts)
    s = Settings(eps=eps, U=U, theta=0.3, private_selection=frac, reps=0, selection_max=4)
    p = capping.private_pipeline(kind, h, capping.data_of(h, s, None), s, 0)
    e_sel, e_rel = p["eps_select"], p["eps_release"]
    assert Fraction(e_sel) + Fraction(e_rel) <= Fraction(eps)
    assert e_sel + e_rel == pytest.approx(eps, rel=1e-12) and e_sel == pytest.approx(frac * eps, rel=1e-12)
    g = privacy.grid(4).tolist()
    rank = math.ceil((2.0 if kind == "window" else 1.0) / e_rel)
    pmf = mech_pmf(counts, g, rank, e_sel)
    mse = sum(pr * ref_mse_synthetic(kind, counts, U, 0.3, e_rel, x if kind == "record cap" else U * x)
              for pr, x in zip(pmf, g))
    assert p["rmse_rel"] == pytest.approx(math.sqrt(mse) / U, rel=1e-9)


# --------------------------------------------------------------------------- the UNUSABLE reference


def test_trivial_reference_is_the_midpoints_error_on_the_same_law():
    counts, U, theta = [1, 2, 4], 2.0, 0.3
    q = (1 + theta) / 2
    ref = 0.0
    for outs in itertools.product([0, 1], repeat=3):
        p = math.prod(q if o else 1 - q for o in outs)
        ref += p * (U / 2 - sum(U * o * m for o, m in zip(outs, counts)) / sum(counts)) ** 2
    data = tuning.synthetic(Histogram.of_counts(counts), U=U, theta=theta)
    assert capping.trivial_rel(data) == pytest.approx(math.sqrt(ref) / U, rel=1e-12)
    users = [[0.1, 0.4], [1.9]]
    assert capping.trivial_rel(values_data(users, U)) == pytest.approx(abs(U / 2 - 2.4 / 3) / U, rel=1e-12)
    r = capping.evaluate_no_clipping(Histogram.of_counts(counts), Settings(U=U, theta=theta, eps=0.01,
                                                                          inverse=False), 0)
    assert r.trivial_rel == pytest.approx(math.sqrt(ref) / U, rel=1e-12) and r.unusable


def test_split_never_exceeds_eps_as_real_numbers():
    # basic composition adds the real budgets: the two floats' exact sum must not exceed ε (1.3 · 0.25 was over)
    rng = np.random.default_rng(40)
    cases = [(1.3, 0.25), (1.0, 0.1)] + [(float(rng.uniform(0.01, 10)), float(rng.uniform(0.01, 0.99)))
                                         for _ in range(300)]
    for eps, frac in cases:
        e_sel, e_rel = privacy.split(eps, frac)
        assert Fraction(e_sel) + Fraction(e_rel) <= Fraction(eps)
        assert e_rel == pytest.approx(eps - e_sel, rel=1e-12) and e_sel == eps * frac
