"""Tests of bounds.simulate: exactness in law, unbiasedness, closed-form variances, reproducibility."""

import math
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest
from scipy import stats

from bounds import rameshwar, simulate, sizes

SEED = 20261121
TWO_SIZES = sizes.finite({10**3: 0.5, 10**4: 0.5})


# --------------------------------------------------------------------------- the two paths


def test_exact_and_explicit_local_means_have_the_same_law():
    theta, m, T = 0.4, np.full(4000, 12), np.full(4000, 5)
    rng = np.random.default_rng(SEED)
    exact_T, exact_m = simulate.TwoPoint(theta).nested_means(m, T, rng)
    draw = lambda g, k: np.where(g.random(k) < (1 + theta) / 2, 1.0, -1.0)  # noqa: E731
    expl_T, expl_m = simulate.Sampler(draw, theta).nested_means(m, T, rng)
    assert stats.ks_2samp(exact_T, expl_T).pvalue > 1e-4
    assert stats.ks_2samp(exact_m, expl_m).pvalue > 1e-4
    # the prefix is nested in the whole: corr(X̄_T, X̄_m) = sqrt(T/m) in both paths
    for a, b in ((exact_T, exact_m), (expl_T, expl_m)):
        r = np.corrcoef(a, b)[0, 1]
        assert abs(r - math.sqrt(5 / 12)) < 4 * (1 - 5 / 12) / math.sqrt(m.size)


def test_estimators_run_on_an_explicit_population():
    draw = lambda g, k: g.uniform(-0.5, 1.0, size=k)  # noqa: E731  mean 0.25
    res = simulate.compare(sizes=sizes.uniform(20, 40), n=400, alpha=0.6, reps=64, seed=SEED,
                           population=simulate.Sampler(draw, 0.25))
    for r in res.values():
        assert abs(r.bias) < 4 * r.bias_stderr + 1e-12


# --------------------------------------------------------------------------- DAME's bias


def test_dame_is_unbiased_where_localisation_succeeds():
    # M(10^3) = M(10^4) = 1/2, n = 2·10^4, α = 0.6: m̃ = 1000, every user votes
    r = simulate.risk("dame", theta=0.4, sizes=TWO_SIZES, n=20000, alpha=0.6, reps=640, seed=SEED)
    assert r.settings["m_tilde"] == 1000
    assert abs(r.bias) < 4 * r.bias_stderr, r


@pytest.mark.slow
def test_dame_is_unbiased_at_2000_replications():
    r = simulate.risk("dame", theta=0.4, sizes=TWO_SIZES, n=20000, alpha=0.6, reps=2000, seed=SEED)
    assert abs(r.bias) < 4 * r.bias_stderr, r


def test_dame_at_n_2000_on_the_two_size_law_is_still_unbiased():
    # nα² = 720: ~8 bins of half-width τ ≈ 0.13, and the enlarged interval (14τ ≈ 1.9 of [-1, 1])
    # contains θ even when the vote errs -- so no detectable bias here (the failure costs variance)
    r = simulate.risk("dame", theta=0.4, sizes=TWO_SIZES, n=2000, alpha=0.6, reps=640, seed=SEED)
    assert abs(r.bias) < 4 * r.bias_stderr, r


def test_dame_is_biased_where_localisation_often_fails():
    # M = δ_{10^4}, n = 300: m̃ = 10^4, ~24 narrow bins (14τ ≈ 0.6), 150 voters cannot find θ's bin:
    # the clip interval then misses θ and pulls the estimate away -- the theory's regime is left
    r = simulate.risk("dame", theta=0.4, sizes=sizes.point(10**4), n=300, alpha=0.6, reps=640, seed=SEED)
    assert r.bias < -4 * r.bias_stderr, r


def test_official_denominator_biases_dame():
    # the official code divides by mean(min(M, sqrt(m̃))) instead of E[sqrt(m ∧ m̃)]: they differ
    # when users hold fewer than m̃ samples (here m̃ = 10^4 and half the users hold 10^3)
    kw = dict(theta=0.4, sizes=TWO_SIZES, n=20000, alpha=0.6, reps=320, seed=SEED, m_tilde=10**4)
    canonical = simulate.risk("dame", **kw)
    official = simulate.risk("dame", denominator="official", **kw)
    assert abs(canonical.bias) < 4 * canonical.bias_stderr, canonical
    assert abs(official.bias) > 4 * official.bias_stderr, official


# --------------------------------------------------------------------------- the other papers' estimators


def test_cummings_realisable_estimator_runs_and_is_close():
    k = np.array([2**j for j in range(10, 0, -1)] * 6)
    r = simulate.cummings_risk(k, p=0.4, sigma_p2=0.01, eps=1.0, reps=64, seed=SEED, estimator="realisable")
    assert math.isfinite(r.mse) and abs(r.bias) < 4 * r.bias_stderr


def test_rameshwar_average_case_errors_and_akmv_worst_case():
    m = rameshwar.geometric(4)
    mean, se = simulate.akmv_worst_case(m, U=65, eps=0.5, reps=400, seed=SEED)
    assert mean - 4 * se > rameshwar.optimal_error(m, U=65, eps=0.5)  # Figure 1's ordering
    out = simulate.rameshwar_errors(m, U=65, eps=1.0, samples="gaussian", reps=128, seed=SEED)
    assert all(v[0] >= 0 and v[1] > 0 for v in out.values())


# --------------------------------------------------------------------------- reproducibility


def _estimates(executor=None):
    res = simulate.compare(theta=0.2, sizes=sizes.poisson(30), n=600, alpha=0.6, reps=3 * simulate.BLOCK + 5,
                           seed=SEED, executor=executor)
    return np.concatenate([res[k].estimates for k in sorted(res)])


def test_same_seed_same_estimates_whatever_the_executor():
    base = _estimates()
    with ThreadPoolExecutor(3) as ex:
        assert np.array_equal(_estimates(ex), base)
    with ProcessPoolExecutor(2) as ex:
        assert np.array_equal(_estimates(ex), base)


def test_same_seed_same_estimates_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            assert np.array_equal(_estimates(client.get_executor()), _estimates())


def test_validation():
    with pytest.raises(ValueError, match="estimator must be"):
        simulate.risk("median", theta=0.1, sizes=sizes.point(3), n=10, alpha=0.5, reps=1, seed=0)
    with pytest.raises(ValueError, match="theta must be"):
        simulate.risk("duchi", theta=1.5, sizes=sizes.point(3), n=10, alpha=0.5, reps=1, seed=0)
    with pytest.raises(ValueError, match="reps"):
        simulate.risk("duchi", theta=0.1, sizes=sizes.point(3), n=10, alpha=0.5, reps=0, seed=0)
    with pytest.raises(ValueError, match="n must be"):
        simulate.risk("duchi", theta=0.1, sizes=sizes.point(3), n=1, alpha=0.5, reps=1, seed=0)
    with pytest.raises(ValueError, match="level"):
        simulate.risk("duchi", theta=0.1, sizes=sizes.point(3), n=10, alpha=0.5, reps=2, seed=0).ci(1.5)
