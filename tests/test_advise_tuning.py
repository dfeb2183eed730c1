"""Tests of bounds.advise.tuning: the exact central MSEs against per-user brute force (every user's outcomes
enumerated, every kept subset of records enumerated), and the tuned bounds against independent scans."""

import itertools
import math

import numpy as np
import pytest

from bounds.advise import Histogram, tuning


# --------------------------------------------------------------------------- independent references


def ref_mse_synthetic(kind, m, U, theta, eps, b, weights=None):
    """MSE of the release on the user-constant two-point law: each user's two outcomes enumerated; ``weights``:
    users per entry of ``m`` (the law at another number of users; default one each)."""
    m = [int(x) for x in m]
    w = [1.0] * len(m) if weights is None else [float(x) for x in weights]
    M, q, mstar = sum(x * c for x, c in zip(m, w)), (1 + theta) / 2, max(m)
    if kind == "record cap":
        k = b
        K = sum(min(x, k) * c for x, c in zip(m, w))
        var = sum(c * (min(x, k) / K - x / M) ** 2 * U * U * q * (1 - q) for x, c in zip(m, w))
        return var + 2 * (U * min(k, mstar) / (eps * K)) ** 2
    mean = var = 0.0
    for x, c in zip(m, w):
        outs = []
        for S, p in ((0.0, 1 - q), (U * x, q)):
            if kind == "sum cap":
                D = min(S, b) - S
            else:
                D = min(max(S, U * x / 2 - b / 2), U * x / 2 + b / 2) - S
            outs.append((D, p))
        e = sum(D * p for D, p in outs)
        mean += c * e
        var += c * sum(p * (D - e) ** 2 for D, p in outs)
    return (mean * mean + var) / (M * M) + 2 * (min(b, U * mstar) / (eps * M)) ** 2


def ref_mse_values(kind, users, U, eps, b):
    """MSE of the release on fixed values (a list of per-user lists); the record cap's subsets enumerated."""
    M = sum(len(v) for v in users)
    mstar = max(len(v) for v in users)
    truth = sum(sum(v) for v in users) / M
    if kind == "record cap":
        k = int(b)
        K = sum(min(len(v), k) for v in users)
        mean = var = 0.0  # kept sums are independent across users: mean and variance of each
        for v in users:
            subs = [sum(c) for c in itertools.combinations(v, min(len(v), k))]
            e = sum(subs) / len(subs)
            mean += e
            var += sum((s - e) ** 2 for s in subs) / len(subs)
        return (mean / K - truth) ** 2 + var / K**2 + 2 * (U * min(k, mstar) / (eps * K)) ** 2
    tot = 0.0
    for v in users:
        S, x = sum(v), len(v)
        tot += min(S, b) if kind == "sum cap" else min(max(S, U * x / 2 - b / 2), U * x / 2 + b / 2)
    return (tot / M - truth) ** 2 + 2 * (min(b, U * mstar) / (eps * M)) ** 2


def code_mse(kind, data, eps, b):
    M = data.records
    if kind == "record cap":
        return float(tuning.record_cap(data, eps, np.array([b]))[1][0]) / M**2
    f = tuning.sum_cap(data, eps) if kind == "sum cap" else tuning.window(data, eps)
    return float(f(b)[0]) / M**2


KINDS = ("sum cap", "window", "record cap")


# --------------------------------------------------------------------------- the exact MSEs


@pytest.mark.parametrize("kind", KINDS)
def test_synthetic_mse_matches_enumeration(kind):
    rng = np.random.default_rng(1)
    for _ in range(25):
        m = rng.integers(1, 30, size=int(rng.integers(2, 40)))
        U, eps, theta = float(rng.integers(1, 4)), float(rng.choice([0.2, 1.0, 3.0])), float(rng.uniform(-0.9, 0.9))
        data = tuning.synthetic(Histogram.of_counts(m), U=U, theta=theta)
        for b in ([1, 2, int(m.max()), int(rng.integers(1, m.max() + 1))] if kind == "record cap" else
                  [0.0, U * rng.uniform(0, m.max()), U * float(m.max()), U * float(rng.choice(m))]):
            assert code_mse(kind, data, eps, b) == pytest.approx(ref_mse_synthetic(kind, m, U, theta, eps, b),
                                                                 rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("kind", KINDS)
def test_values_mse_matches_enumeration(kind):
    rng = np.random.default_rng(2)
    for _ in range(20):
        U, eps = float(rng.integers(1, 5)), float(rng.choice([0.3, 1.0, 2.0]))
        users = [list(rng.uniform(0, U, size=int(rng.integers(1, 8)))) for _ in range(int(rng.integers(2, 12)))]
        labels = np.concatenate([[i] * len(v) for i, v in enumerate(users)])
        data = tuning.from_values(np.array([len(v) for v in users]), np.array([sum(v) for v in users]),
                                  np.array([sum(x * x for x in v) for v in users]), U=U)
        assert data.records == labels.size
        mstar = max(len(v) for v in users)
        for b in ([1, 2, mstar] if kind == "record cap" else [0.0, U * rng.uniform(0, mstar), U * mstar]):
            assert code_mse(kind, data, eps, b) == pytest.approx(ref_mse_values(kind, users, U, eps, b),
                                                                 rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("kind", ("sum cap", "window"))
def test_minimise_beats_every_point_of_a_dense_scan(kind):
    rng = np.random.default_rng(3)
    for _ in range(15):
        m = rng.integers(1, 60, size=int(rng.integers(5, 80)))
        U, eps, theta = 1.0, float(rng.choice([0.1, 0.5, 2.0])), 0.3
        data = tuning.synthetic(Histogram.of_counts(m), U=U, theta=theta)
        f = tuning.sum_cap(data, eps) if kind == "sum cap" else tuning.window(data, eps)
        t = tuning.minimise(f)
        scan = np.linspace(0, U * m.max(), 4001)
        ref = min(ref_mse_synthetic(kind, m, U, theta, eps, float(b)) for b in scan[::40])
        dense = float(np.min(f(scan))) / data.records**2
        assert t.mse / data.records**2 <= dense * (1 + 1e-12) and t.mse / data.records**2 <= ref * (1 + 1e-9)
        assert t.mse == pytest.approx(float(f(t.bound)[0]), rel=1e-12)


def test_ties_take_the_smallest_bound():
    # one user of count 1 at θ = 1 (always U) and ε huge: every C >= U is exact (MSE 2C²/ε² → grows), C = U best;
    # with two equal users any T ≥ U·m leaves nothing to clip; the smallest such bound wins
    data = tuning.synthetic(Histogram.of_counts([2, 2]), U=1.0, theta=0.0)
    t = tuning.minimise(tuning.window(data, 1e9))
    assert t.bound == pytest.approx(2.0, rel=1e-6)


def test_trivial_mse_by_enumeration():
    m, U, theta = [1, 3, 3], 2.0, 0.4
    q = (1 + theta) / 2
    ref = 0.0
    for outs in itertools.product([0, 1], repeat=3):
        p = math.prod(q if o else 1 - q for o in outs)
        mean = sum(U * o * x for o, x in zip(outs, m)) / sum(m)
        ref += p * (U / 2 - mean) ** 2
    assert tuning.trivial_mse(tuning.synthetic(Histogram.of_counts(m), U=U, theta=theta)) == pytest.approx(ref, rel=1e-12)


def test_worst_cases_cover_every_exact_error():
    from bounds.advise import Settings
    from bounds.advise.methods import capping, rameshwar

    rng = np.random.default_rng(9)
    for _ in range(25):
        U, eps = float(rng.integers(1, 4)), float(rng.choice([0.2, 1.0, 3.0]))
        m = rng.integers(1, 12, size=int(rng.integers(3, 25)))
        ends = rng.random() < 0.5  # values at the ends (the bias's worst) or spread (the sampling's)
        users = [rng.choice([0.0, U], size=x) if ends else rng.uniform(0, U, size=x) for x in m]
        data = tuning.from_values(m, np.array([v.sum() for v in users]), np.array([(v * v).sum() for v in users]), U=U)
        h = Histogram.of_counts(m)
        s = Settings(eps=eps, U=U, inverse=False, reps=0)
        for ev in (rameshwar.evaluate, capping.evaluate_sum_cap, capping.evaluate_record_cap,
                   capping.evaluate_no_clipping):
            r = ev(h, s, 0, data)
            assert r.error.rmse_rel <= r.bound.rmse_rel * (1 + 1e-12)
