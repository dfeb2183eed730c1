"""Tests of bounds.simulate: exactness in law, unbiasedness, closed-form variances, reproducibility."""

import math
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest
from scipy import stats

from bounds import rameshwar, simulate, sizes
from bounds.simulate import _cummings, _engine, _populations

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


@pytest.mark.parametrize("estimators", [("kent", "dame"), ("kent",), ("dame",)])
def test_local_means_sit_with_their_sizes(estimators):
    # finite law: each half's sizes as multinomial counts, sums drawn size by size, then placed;
    # every local mean must be a mean of its own user's m (or T*) values in {-1, 1}
    law = sizes.finite({1: 0.2, 2: 0.3, 7: 0.5})
    plan = _engine._plan(estimators, law, 400, 0.6, simulate.TwoPoint(0.3), 2, "paper", "canonical", "paper", 2, 1.0)
    m, xbar_T, xbar_m = _engine._draw_users(plan, 5, np.random.default_rng(SEED))
    assert m.shape == (5, 400)
    for half in (m[:, :200], m[:, 200:]):  # sorted within each half
        assert np.all(np.diff(half, axis=1) >= 0)
    for x, size in ((xbar_T, np.minimum(m, plan.kent_T)), (xbar_m, m)):
        if x is None:
            continue
        s = x * size
        assert np.allclose(s, np.round(s)) and np.all((np.round(s).astype(int) - size) % 2 == 0)
        assert np.all(np.abs(x) <= 1)
    if xbar_T is not None and xbar_m is not None:  # the prefix is part of the whole
        T = np.minimum(m, plan.kent_T)
        assert np.array_equal(xbar_T[m == T], xbar_m[m == T])
        assert np.all(np.abs(xbar_m * m - xbar_T * T) <= m - T + 1e-9)


def test_grouped_sizes_have_the_multinomial_law():
    law = sizes.finite({3: 0.25, 8: 0.75})
    res = simulate.compare(theta=0.2, sizes=law, n=400, alpha=0.6, reps=64, seed=SEED, estimators=("dame",), m_tilde=8)
    plan = _engine._plan(("dame",), law, 400, 0.6, simulate.TwoPoint(0.2), 8, "paper", "canonical", "paper", None, 1.0)
    m, _, _ = _engine._draw_users(plan, 2000, np.random.default_rng(SEED))
    k = (m[:, :200] == 3).sum(axis=1)  # Bin(200, 1/4) in each replication's voting half
    assert abs(k.mean() - 50) < 4 * math.sqrt(200 * 0.25 * 0.75 / 2000)
    assert abs(k.var() - 37.5) < 4 * 37.5 * math.sqrt(2 / 2000)
    both = (m == 3).sum(axis=1)  # the halves are independent: Bin(400, 1/4) over both
    assert abs(both.var() - 75) < 4 * 75 * math.sqrt(2 / 2000)
    assert res["dame"].estimates.shape == (64,)


def test_estimators_run_on_an_explicit_population():
    draw = lambda g, k: g.uniform(-0.5, 1.0, size=k)  # noqa: E731  mean 0.25
    res = simulate.compare(sizes=sizes.uniform(20, 40), n=400, alpha=0.6, reps=64, seed=SEED,
                           population=simulate.Sampler(draw, 0.25))
    for r in res.values():
        assert abs(r.bias) < 4 * r.bias_stderr + 1e-12


# --------------------------------------------------------------------------- binomial sums by inversion


class _Uniforms:
    """A stand-in generator whose ``random(count)`` returns the given uniforms."""

    def __init__(self, u):
        self.u = np.asarray(u, dtype=float)

    def random(self, count):
        assert count == self.u.size
        return self.u.copy()


@pytest.mark.parametrize("N, q", [(1, 0.5), (30, 0.3), (7, 0.02), (100, 2.0**-53), (2000, 0.999), (10**5, 0.5),
                                  (9 * 10**5, 0.35)])
def test_binomial_table_is_the_cdf_computed_another_way(N, q):
    # the table sums boost's pmf; the reference is the incomplete beta (numerics.binomial_sf), and mpmath's exact
    # sums where N is small; the mass outside the window is checked against the incomplete beta too
    from bounds.numerics import binomial_sf

    lo, F, guide = simulate.binomial_table(N, q)
    y = np.arange(lo, lo + F.size - 1, dtype=float)
    assert np.max(np.abs(F[:-1] - (1 - binomial_sf(y, N, q)))) < 1e-13
    assert F[-1] == np.inf and np.all(np.diff(F) >= 0)
    hi = lo + F.size - 1
    assert 1 - binomial_sf(lo - 1, N, q) <= _populations.TABLE_TAIL and binomial_sf(hi, N, q) <= _populations.TABLE_TAIL
    if N <= 100:  # 2^-53: boost's pmf at 0 is 5.7e-15 off, which a sum from the bottom would carry
        import mpmath

        with mpmath.workdps(40):
            exact = [float(mpmath.fsum(mpmath.binomial(N, k) * mpmath.mpf(q) ** k * (1 - mpmath.mpf(q)) ** (N - k)
                                       for k in range(0, int(v) + 1))) for v in y]
        assert np.max(np.abs(F[:-1] - exact)) < 1e-12
    G = guide.size  # a power of 2, at least 2 entries per table entry; guide[g] = first i with F[i] > g/G
    assert G & (G - 1) == 0 and G >= 2 * F.size
    edge = np.arange(G) / G
    assert np.all(F[guide] > edge) and np.all((guide == 0) | (F[np.maximum(guide - 1, 0)] <= edge))


@pytest.mark.parametrize("N, q", [(30, 0.3), (7, 0.02), (9 * 10**5, 0.35)])
def test_binomial_inversion_is_the_plain_search_draw_by_draw(N, q):
    # every uniform at and beside each cdf value and each guide cell's edge, both ends of [0, 1), and random ones:
    # the guided search returns lo + the first index with F > U, as an exhaustive bisection does
    table = simulate.binomial_table(N, q)
    lo, F, guide = table
    G = guide.size
    edges = np.concatenate([F[:-1], np.arange(G) / G])
    u = np.concatenate([edges, np.nextafter(edges, 0), np.nextafter(edges, 1), [0.0, 1 - 2.0**-53],
                        np.random.default_rng(SEED).random(10**5)])
    u = u[(u >= 0) & (u < 1)]
    got = _populations._invert(table, u.size, _Uniforms(u))
    assert got.dtype == np.int64
    assert np.array_equal(got, lo + np.searchsorted(F, u, side="right"))


@pytest.mark.parametrize("N, q", [(12, 0.5), (40, 0.1), (300, 0.7)])
def test_binomial_inversion_has_the_binomial_law(N, q):
    # a chi-square test of 4·10^5 draws against the pmf (cells of expected count below 5 pooled); p > 1e-5 is
    # beyond 4 sigma
    count = 4 * 10**5
    x = simulate.binomial_inversion(N, q, count, np.random.default_rng(SEED))
    obs = np.bincount(x, minlength=N + 1).astype(float)
    exp = count * stats.binom.pmf(np.arange(N + 1), N, q)
    big = exp >= 5
    o = np.append(obs[big], obs[~big].sum())
    e = np.append(exp[big], exp[~big].sum())
    keep = e > 0
    assert stats.chisquare(o[keep], e[keep] * o[keep].sum() / e[keep].sum()).pvalue > 1e-5


def test_two_point_sums_draw_by_table_only_when_it_pays():
    # many users of one size: the table; few users, or a binomial too wide for a table: numpy's sampler
    pop = simulate.TwoPoint(0.2)
    lo, F, _ = simulate.binomial_table(10**4, 0.6)
    a = pop.sums(10**4, F.size, np.random.default_rng(1))
    u = np.random.default_rng(1).random(F.size)
    assert np.array_equal(a, 2.0 * (lo + np.searchsorted(F, u, side="right")) - 10**4)
    b = pop.sums(10**4, F.size - 1, np.random.default_rng(1))
    assert np.array_equal(b, 2.0 * np.random.default_rng(1).binomial(10**4, 0.6, size=F.size - 1) - 10**4)
    assert simulate.binomial_table(10**12, 0.5) is None  # 15 sd of 5·10^5: beyond TABLE_ENTRIES
    c = pop.sums(10**12, 1000, np.random.default_rng(1))
    assert np.array_equal(c, 2.0 * np.random.default_rng(1).binomial(10**12, 0.6, size=1000) - 10**12)
    assert simulate.binomial_table(100, 1e-308) is None  # boost's pmf overflows: no table
    lo, F, _ = simulate.binomial_table(100, 2.0**-53)  # the smallest q of a TwoPoint law but 0: 0 or 1 one
    assert (lo, F.size) == (0, 2) and F[0] == pytest.approx((1 - 2.0**-53) ** 100, abs=1e-16)
    with pytest.raises(ValueError, match=r"^N = 1000000000000, q = 0\.5: Bin\(N, q\) has no inversion table"):
        simulate.binomial_inversion(10**12, 0.5, 10, 0)


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


def test_dame_runs_on_shared_users_have_the_law_of_runs_alone():
    """DAME's further runs (``more_m_tildes``) on the users of the first: each has the law of a run alone (two-sample
    Kolmogorov–Smirnov test against independent runs, rejected beyond 4σ, p < 6.3e-5), and the first run is the
    run without them when a block is one chunk (its noise is drawn first; the further runs' after)."""
    kw = dict(theta=0.4, sizes=TWO_SIZES, n=2000, alpha=0.6, reps=640)
    shared = simulate.compare(estimators=("dame",), m_tilde=1000, more_m_tildes=[10**4, 10**3 + 1], seed=SEED, **kw)
    assert set(shared) == {"dame", "dame@1001", "dame@10000"}
    for mt in (1000, 10**4, 10**3 + 1):
        alone = simulate.risk("dame", m_tilde=mt, seed=SEED + mt, **kw)
        got = shared["dame" if mt == 1000 else f"dame@{mt}"]
        assert got.settings["m_tilde"] == mt
        assert stats.ks_2samp(got.estimates, alone.estimates).pvalue > 6.3e-5, mt
    # n = 1000: a block is one pass, so the first run's stream is that of a run alone where the further run keeps
    # the votes on counts per cell (every m̃ at most the smallest size: its cells split after the first runs' noise)
    one_chunk = dict(theta=0.4, sizes=TWO_SIZES, n=1000, alpha=0.6, reps=128, seed=SEED, m_tilde=1000)
    first = simulate.compare(more_m_tildes=[500], **one_chunk)
    plain = simulate.compare(**one_chunk)
    assert all(np.array_equal(first[k].estimates, plain[k].estimates) for k in ("duchi", "kent", "dame"))
    assert not np.array_equal(first["dame@500"].estimates, first["dame"].estimates)


def test_width_scale_reaches_the_engine():
    # M = δ_3, n = 1000, α = 0.5: 14τ ≈ 26.5 > 2, so the width scale's risk is far below the paper's
    kw = dict(theta=0.3, sizes=sizes.point(3), n=1000, alpha=0.5, reps=256, seed=SEED)  # the paper scale's errors
    # are heavy-tailed: at 64 replications its standard error alone can reach a quarter of its risk
    paper, width = simulate.risk("dame", **kw), simulate.risk("dame", scale="width", **kw)
    assert width.mse + 4 * width.stderr < (paper.mse - 4 * paper.stderr) / 10


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


def _finite_estimates(seed, executor=None):
    # DAME's further runs: m̃ = 40 above a size (its users there neither vote nor keep their whole mean), 60 a support
    # point (votes per cell on the entries path)
    res = simulate.compare(theta=0.2, sizes=sizes.finite({20: 0.5, 60: 0.5}), n=600, alpha=0.6,
                           reps=2 * simulate.BLOCK + 9, seed=seed, executor=executor, m_tilde=20,
                           more_m_tildes=[40, 60])
    assert {"dame@40", "dame@60"} <= set(res)
    return np.concatenate([res[k].estimates for k in sorted(res)])


@pytest.mark.parametrize("kind", ["int", "SeedSequence", "Generator"])
def test_every_seed_kind_gives_the_same_estimates_on_every_executor(kind):
    make = {"int": lambda: 7, "SeedSequence": lambda: np.random.SeedSequence(7),
            "Generator": lambda: np.random.default_rng(7)}[kind]
    base = _finite_estimates(make())
    assert np.array_equal(_finite_estimates(make()), base)
    with ThreadPoolExecutor(2) as ex:
        assert np.array_equal(_finite_estimates(make(), ex), base)
    with ProcessPoolExecutor(2) as ex:
        assert np.array_equal(_finite_estimates(make(), ex), base)
    if kind == "SeedSequence":  # a SeedSequence acts as its entropy
        assert np.array_equal(_finite_estimates(7), base)
    if kind == "Generator":  # a Generator advances: a second use gives new replications
        g = make()
        assert not np.array_equal(_finite_estimates(g), _finite_estimates(g))


def test_seeds_for_the_other_papers_estimators():
    from bounds import rameshwar
    m = rameshwar.geometric(3)
    a = simulate.rameshwar_errors(m, U=65, eps=1.0, reps=70, seed=np.random.SeedSequence(3))
    assert a == simulate.rameshwar_errors(m, U=65, eps=1.0, reps=70, seed=3)
    assert simulate.akmv_worst_case(m, U=65, eps=1.0, reps=50, seed=np.random.default_rng(1))[0] > 0
    r = simulate.cummings_risk([9, 5, 3], p=0.5, sigma_p2=0.01, eps=1.0, reps=10, seed=np.random.default_rng(2))
    assert r.estimates.shape == (10,)
    with pytest.raises(ValueError, match="seed"):
        simulate.risk("duchi", theta=0.1, sizes=sizes.point(3), n=10, alpha=0.5, reps=2, seed="7")
    with pytest.raises(ValueError, match="seed"):
        simulate.risk("duchi", theta=0.1, sizes=sizes.point(3), n=10, alpha=0.5, reps=2, seed=True)


@pytest.mark.slow  # starts a local dask cluster (about 10 s)
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
    with pytest.raises(ValueError, match="scale"):
        simulate.risk("dame", theta=0.1, sizes=sizes.point(3), n=10, alpha=0.5, reps=1, seed=0, scale="tight")
    with pytest.raises(ValueError, match="denominator"):
        simulate.risk("kent", theta=0.1, sizes=sizes.point(3), n=10, alpha=0.5, reps=1, seed=0, denominator="x")
    with pytest.raises(ValueError, match="level"):
        simulate.risk("duchi", theta=0.1, sizes=sizes.point(3), n=10, alpha=0.5, reps=2, seed=0).ci(1.5)
    kw = dict(theta=0.1, sizes=sizes.point(3), n=10, alpha=0.5, reps=1, seed=0)
    with pytest.raises(ValueError, match="more_m_tildes must hold distinct sizes other than m_tilde = 3"):
        simulate.compare(m_tilde=3, more_m_tildes=[2, 3], **kw)
    with pytest.raises(ValueError, match="more_m_tildes must hold distinct"):
        simulate.compare(m_tilde=3, more_m_tildes=[2, 2], **kw)
    with pytest.raises(ValueError, match="more_m_tildes needs DAME"):
        simulate.compare(estimators=("kent",), more_m_tildes=[2], **kw)
    with pytest.raises(ValueError, match="more_m_tildes must be a sequence"):
        simulate.compare(more_m_tildes=2, **kw)
    with pytest.raises(ValueError, match="more_m_tildes must be"):
        simulate.compare(more_m_tildes=[0], **kw)


def test_progress_must_be_a_bool():
    with pytest.raises(TypeError, match=r"^progress must be a bool, got array\(\[\]"):
        simulate.compare(sizes=sizes.poisson(5.0, zero="truncate"), n=100, alpha=0.5, reps=4, seed=0, theta=0.3,
                         progress=np.array([]))


@pytest.mark.parametrize("p, sigma_p2", [(0.3, 0.01), (0.5, 0.2), (0.9, 1e-4)])
def test_cummings_beta_meta_law_has_the_stated_mean_and_variance(p, sigma_p2):
    # Cummings et al.'s D: mean p, variance sigma_p^2; sample moments of 200,000 draws within 4 standard errors
    # (the variance's standard error from the sample's fourth central moment)
    x = _cummings._beta_meta(p, sigma_p2, np.random.default_rng(11), 200_000)
    n, mean, var = x.size, x.mean(), x.var()
    assert abs(mean - p) < 4 * math.sqrt(sigma_p2 / n)
    m4 = np.mean((x - mean) ** 4)
    assert abs(var - sigma_p2) < 4 * math.sqrt((m4 - var * var) / n)


@pytest.mark.parametrize("estimators", [("kent",), ("kent", "dame")])
def test_kent_local_means_use_only_the_first_T_star_records_of_an_untabulated_law(estimators):
    # a geometric law is drawn user by user (no size table): Kent's local mean is over min(m, T*) = min(m, 2)
    # records of +-1 values, so it lies in {-1, 0, 1} and min(m, T*) times it has the parity of min(m, T*)
    plan = _engine._plan(estimators, sizes.geometric(0.2), 400, 0.6, simulate.TwoPoint(0.3), 2, "paper", "canonical",
                          "paper", 2, 1.0)
    assert plan.size_table is None and plan.kent_T == 2
    m, xbar_T, _ = _engine._draw_users(plan, 5, np.random.default_rng(SEED))
    T = np.minimum(m, 2)
    s = xbar_T * T
    assert np.array_equal(s, np.round(s)) and np.all((np.round(s).astype(int) - T) % 2 == 0)
    assert np.any(m > 2)  # the truncation is exercised


def test_risk_result_moments_against_statistics():
    import statistics

    est = np.array([0.5, -1.0, 2.0, 0.25, 1.0])
    r = _engine._result("x", 0.5, est, {})
    sq = [(e - 0.5) ** 2 for e in est.tolist()]
    R = len(sq)
    assert r.mse == pytest.approx(statistics.fmean(sq), rel=1e-12)
    assert r.stderr == pytest.approx(statistics.stdev(sq) / math.sqrt(R), rel=1e-14)  # se of a mean: sd / sqrt(R)
    err = [e - 0.5 for e in est.tolist()]
    assert r.bias == pytest.approx(statistics.fmean(err), rel=1e-12)


def test_a_laws_set_up_is_kept_per_law_object():
    """A law's size table and eq. (9)'s constants are computed once per law object and reused: the plan of a second
    call equals a fresh one's, another law object (even of equal parameters) gets its own, and a bad option raises
    every time (nothing kept)."""
    from bounds.estimators import dame as dame_est
    law = sizes.finite({10: 0.3, 1000: 0.7})
    twin = sizes.finite({10: 0.3, 1000: 0.7})
    other = sizes.finite({10: 0.6, 1000: 0.4})
    pop = _engine.TwoPoint(0.3)
    args = (("dame",), law, 2000, 0.5, pop, 300, "paper", "canonical", "paper", None, 1.0, (40,))
    first, again = _engine._plan(*args), _engine._plan(*args)
    assert again.dame_debiasing is first.dame_debiasing and again.size_table is first.size_table
    assert first.dame_debiasing == dame_est.debiasing(law, 300) and first.more_dame[0][1] == dame_est.debiasing(law, 40)
    assert _engine._plan(("dame",), twin, *args[2:]).dame_debiasing is not first.dame_debiasing
    mine = _engine._plan(("dame",), other, *args[2:])
    assert mine.dame_debiasing == dame_est.debiasing(other, 300) != first.dame_debiasing
    np.testing.assert_array_equal(mine.size_table[1], [0.6, 0.4])
    for _ in range(2):
        with pytest.raises(ValueError, match="denominator"):
            _engine._plan(("dame",), law, 2000, 0.5, pop, 300, "paper", "bogus", "paper", None, 1.0)


def test_theorem_m_tilde_is_kept_per_law_and_warns_at_every_call():
    """Theorem 2's m̃ is searched once per law object, n, alpha and constants (the same value as a fresh search, a
    different one for other constants), and a call breaking H3 (alpha > 22/35) warns every time, kept or not."""
    from bounds import dame as dame_theory
    from bounds.numerics import PaperAssumptionWarning
    law = sizes.finite({10: 0.3, 1000: 0.7})
    for constants in ("paper", "unit", "paper"):
        want = dame_theory.m_tilde(law, n=4000, alpha=0.5, constants=constants)
        assert _engine._theorem_m_tilde(law, 4000, 0.5, constants) == want
    assert dame_theory.m_tilde(law, n=4000, alpha=0.5, constants="unit") != dame_theory.m_tilde(law, n=4000,
                                                                                                alpha=0.5)
    for _ in range(2):
        with pytest.warns(PaperAssumptionWarning, match="H3"):
            simulate.compare(theta=0.0, sizes=law, n=400, alpha=0.7, reps=2, seed=0, estimators=("dame",))


def test_an_unhashable_option_is_refused_by_name_not_kept():
    """The per-law set-up is kept under the call's options; an option given as a list cannot key it and reaches the
    check that refuses it by name (a ValueError naming the option, not a TypeError from the cache)."""
    law = sizes.poisson(5)
    with pytest.raises(ValueError, match="denominator"):
        simulate.compare(theta=0.3, sizes=law, n=100, alpha=0.5, reps=4, seed=0, denominator=[-1.0, 0.5])
    with pytest.raises(ValueError, match="constants"):
        simulate.compare(theta=0.3, sizes=law, n=100, alpha=0.5, reps=4, seed=0, constants=["paper"])
