"""The table-free bulk engine of Poisson and binomial laws (``bounds.sizes._bulk``).

References never come from the code under test:

* direct mpmath sums of the masses (``loggamma`` closed forms, consecutive ratios) over the window
  of +-40 standard deviations, where that window is small enough to sum;
* at lam, N = 1e12, where no window can be summed, the Euler-Maclaurin formula applied to the
  continuous extension of the pmf, :math:`k \\mapsto e^{\\phi(k)}` with ``loggamma``: an integral by
  ``mpmath.quad`` over k (the engine integrates the incomplete gamma/beta integrands over t instead)
  plus the end corrections up to the third derivative (polygamma closed forms), whose remainder is
  :math:`O(e^{\\phi}\\sigma^{-5})`;
* the float64 path against the 60-digit path (the engine at two precisions is a consistency check,
  the independent values above are the accuracy check).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from bounds import dame, sizes
from bounds.sizes import _bulk


# ---------------------------------------------------------------------------- independent references
def _ref_logpmf(N: int | None, lam: float, p: float):
    """log P(X = k) as a function of a real k (loggamma), at the working precision."""
    if N is None:
        lam_ = mpmath.mpf(lam)
        return lambda k: k * mpmath.log(lam_) - lam_ - mpmath.loggamma(k + 1)
    p_ = mpmath.mpf(p)
    c = mpmath.loggamma(N + 1)
    return lambda k: c - mpmath.loggamma(k + 1) - mpmath.loggamma(N - k + 1) + k * mpmath.log(p_) + (N - k) * mpmath.log1p(-p_)


def _direct_sums(N: int | None, lam: float, p: float, lo: int, hi: int, shift: bool = False) -> tuple:
    """(sum M(k), sum sqrt(k) M(k)[, sum sqrt(k + 1) M(k)]) over lo <= k <= hi: masses by consecutive
    ratios from a loggamma start."""
    lp = _ref_logpmf(N, lam, p)
    term = mpmath.exp(lp(lo))
    tot = tot_s = tot_s1 = mpmath.mpf(0)
    lam_ = mpmath.mpf(lam)
    ratio_p = mpmath.mpf(p) / (1 - mpmath.mpf(p)) if N is not None else None
    for k in range(lo, hi + 1):
        tot += term
        tot_s += mpmath.sqrt(k) * term
        if shift:
            tot_s1 += mpmath.sqrt(k + 1) * term
        term *= lam_ / (k + 1) if N is None else (N - k) * ratio_p / (k + 1)
    return (tot, tot_s, tot_s1) if shift else (tot, tot_s)


def _em_sum(logg, d1, d2, d3, A, B, fine=True):
    """sum_{k=A}^{B} e^{logg(k)} by Euler-Maclaurin: quad of the integral, ends, B_2 and B_4 terms
    (``fine``: pieces growing from both ends, for sums dominated near an end; else 16 equal pieces)."""
    g = lambda t: mpmath.exp(logg(t))  # noqa: E731
    g1 = lambda t: g(t) * d1(t)  # noqa: E731
    g3 = lambda t: g(t) * (d3(t) + 3 * d1(t) * d2(t) + d1(t) ** 3)  # noqa: E731
    steps = [mpmath.mpf(2) ** (i / 2) for i in range(int(2 * mpmath.log(B - A, 2)))] if fine else []
    pts = sorted({A + (B - A) * mpmath.mpf(i) / 16 for i in range(17)} | {A + d for d in steps if d < B - A}
                 | {B - d for d in steps if d < B - A})
    return mpmath.quad(g, pts) + (g(A) + g(B)) / 2 + (g1(B) - g1(A)) / 12 - (g3(B) - g3(A)) / 720


def _em_parts(N: int | None, lam: float, p: float, sq: bool, s: int = 0):
    """log of k -> (sqrt(k + s) if sq) M(k) and its first three derivatives in k (polygamma)."""
    h = (lambda t: mpmath.log(t + s) / 2) if sq else (lambda t: 0)
    h1 = (lambda t: 1 / (2 * (t + s))) if sq else (lambda t: 0)
    h2 = (lambda t: -1 / (2 * (t + s) ** 2)) if sq else (lambda t: 0)
    h3 = (lambda t: 1 / (t + s) ** 3) if sq else (lambda t: 0)
    lp = _ref_logpmf(N, lam, p)
    if N is None:
        L = mpmath.log(mpmath.mpf(lam))
        return ((lambda t: h(t) + lp(t)), (lambda t: h1(t) + L - mpmath.psi(0, t + 1)),
                (lambda t: h2(t) - mpmath.psi(1, t + 1)), (lambda t: h3(t) - mpmath.psi(2, t + 1)))
    L = mpmath.log(mpmath.mpf(p)) - mpmath.log1p(-mpmath.mpf(p))
    return ((lambda t: h(t) + lp(t)), (lambda t: h1(t) + L - mpmath.psi(0, t + 1) + mpmath.psi(0, N - t + 1)),
            (lambda t: h2(t) - mpmath.psi(1, t + 1) - mpmath.psi(1, N - t + 1)),
            (lambda t: h3(t) - mpmath.psi(2, t + 1) + mpmath.psi(2, N - t + 1)))


def _moments(N, lam, p):
    mean = lam if N is None else N * p
    sd = math.sqrt(mean if N is None else N * p * (1 - p))
    return mean, sd


# ---------------------------------------------------------------------------- the engine, directly
ENGINE_CASES = [(None, 5e4, 0.0), (2 * 10**5, 6e4, 0.3), (10**6, 999_000.0, 0.999)]


@pytest.mark.parametrize("N, lam, p", ENGINE_CASES)
@pytest.mark.parametrize("z", [-35, -2.5, 0, 1.5, 40])
def test_engine_against_direct_sums(N, lam, p, z):
    """cdf, survival and E[sqrt(X + s) 1{X <= b}] (s = 0, 1) to 1e-25 at 30 digits, against direct sums."""
    mean, sd = _moments(N, lam, p)
    fam = _bulk.BulkFamily(mean, N, p)
    b = min(int(mean + z * sd), (N or 10**18) - 1)
    lo, hi = int(mean - 41 * sd), min(int(mean + max(z + 20, 41) * sd), N or 10**18)
    with mpmath.workdps(45):
        below, below_s0, below_s1 = _direct_sums(N, lam, p, lo, b, shift=True)
        above = _direct_sums(N, lam, p, b + 1, hi)[0]
    with mpmath.workdps(30):
        lc, ls = _bulk.log_cdf_pair(fam, b)
        g0 = _bulk.log_sqrt_moment(fam, b, 0, lc)
        g1 = _bulk.log_sqrt_moment(fam, b, 1, lc)
    fast = _bulk.log_cdf_pair_float(fam, b)  # the float64 path's cdf
    assert fast is not None
    with mpmath.workdps(45):
        for got, want in ((lc, below), (ls, above), (g0, below_s0), (g1, below_s1)):
            assert abs(mpmath.exp(got) / want - 1) < 1e-25
        for got, want in zip(fast, (below, above)):
            assert abs(mpmath.exp(got) / want - 1) < _bulk.FLOAT_CDF_ERR


def _jittered_n(x: float, steps: int) -> float:
    for _ in range(abs(steps)):
        x = float(np.nextafter(x, math.inf if steps > 0 else -math.inf))
    return x


@pytest.mark.parametrize("N, lam, p", ENGINE_CASES)
@pytest.mark.parametrize("z", [-35, -2.5, 0, 1.5, 40])
def test_float_cdf_accepted_and_accurate_under_ulp_jitter(N, lam, p, z):
    """The float path's acceptance cannot hinge on the platform's last ulp: the law's parameter moved
    by 1 to 8 ulps both ways, the quadrature is accepted every time and within FLOAT_CDF_ERR of the
    30-digit path (itself checked against direct sums above)."""
    mean, sd = _moments(N, lam, p)
    b = min(int(mean + z * sd), (N or 10**18) - 1)
    for steps in (-8, -3, -1, 0, 1, 3, 8):
        if N is None:
            fam = _bulk.BulkFamily(_jittered_n(lam, steps))
        else:
            pj = _jittered_n(p, steps)
            fam = _bulk.BulkFamily(N * pj, N, pj)
        fast = _bulk.log_cdf_pair_float(fam, b)
        assert fast is not None, steps
        with mpmath.workdps(30):
            ref = _bulk.log_cdf_pair(fam, b)
            for got, want in zip(fast, ref):
                assert abs(mpmath.expm1(got - want)) <= _bulk.FLOAT_CDF_ERR, (steps, got, want)


@pytest.mark.parametrize("N, lam, p", ENGINE_CASES)
def test_engine_untruncated_moment_against_direct_sum(N, lam, p):
    mean, sd = _moments(N, lam, p)
    fam = _bulk.BulkFamily(mean, N, p)
    with mpmath.workdps(45):
        _, want = _direct_sums(N, lam, p, int(mean - 41 * sd), min(int(mean + 41 * sd), N or 10**18))
    with mpmath.workdps(30):
        got = _bulk.log_sqrt_moment(fam, None, 0, mpmath.mpf(0))
    with mpmath.workdps(45):
        assert abs(mpmath.exp(got) / want - 1) < 1e-25


def test_engine_refuses_below_three_quarters_of_the_mean():
    with pytest.raises(ValueError, match="3 E\\[X\\]/4"):
        _bulk.log_sqrt_moment(_bulk.BulkFamily(1e6), 400_000, 0, mpmath.mpf(-100))


def test_engine_cdf_at_the_support_ends():
    fam = _bulk.BulkFamily(0.5 * 10**6, 10**6, 0.5)
    with mpmath.workdps(30):
        assert _bulk.log_cdf_pair(fam, -1) == (mpmath.ninf, 0)
        assert _bulk.log_cdf_pair(fam, 10**6) == (0, mpmath.ninf)
        lc, ls = _bulk.log_cdf_pair(fam, 10**6 - 1)  # P(X = N) = 2^-N
        assert abs(ls - 10**6 * mpmath.log(mpmath.mpf(0.5))) < 1e-20


def test_top_of_a_huge_binomial_in_precision_against_its_two_terms():
    """P(m >= N - 1) for Bin(2^62, 1e-9) | m >= 1 (the integral's psi about -9.6e19: 20 digits cancel, the guard
    of _guard alone fell short and raised): N p^(N-1) (1 - p) + p^N over 1 - (1 - p)^N, at 80 digits."""
    N, p = 2**62, 1e-9
    got = sizes.binomial(N, p).log_prob_ge(N - 1, precision=30)
    with mpmath.workdps(80):
        P = mpmath.mpf(p)
        two = mpmath.log(N * P ** (N - 1) * (1 - P) + P**N) - mpmath.log(-mpmath.expm1(N * mpmath.log1p(-P)))
        assert abs(got / two - 1) < mpmath.mpf(10) ** -28


# ---------------------------------------------------------------------------- the laws, float vs 60 digits
LOG_QUERIES = ["log_prob_gt", "log_prob_ge", "log_partial_sqrt_mean", "log_sqrt_min_mean"]
QUERIES = ["prob_gt", "prob_ge", "partial_sqrt_mean", "sqrt_min_mean"]


def _law(kind: str, scale: float):
    if kind == "poisson":
        return sizes.poisson(scale), None, scale, 0.0
    if kind == "poisson-shift":
        return sizes.poisson(scale, zero="shift"), None, scale, 0.0
    N = int(scale)
    p = {"binomial": 0.3, "binomial-small-p": 1e-3, "binomial-large-p": 1 - 1e-3}[kind]
    return sizes.binomial(N, p), N, N * p, p


def _points(N, lam, p, full: bool) -> np.ndarray:
    mean, sd = _moments(N, lam, p)
    zs = (-30, -2, 0, 2, 30) if full else (-2, 2)
    pts = [int(mean + z * sd) for z in zs] + ([1, int(mean / 3), int(3 * mean)] if full else [int(mean / 3)])
    return np.asarray([min(a, N or a) for a in pts], dtype=np.int64)


def _assert_close(f, m, rel):
    f, m = np.asarray(f, dtype=float).ravel(), np.asarray(m, dtype=object).ravel()
    for fi, mi in zip(f, m):
        if not mpmath.isfinite(mi):
            assert fi == float(mi)
        else:
            assert abs(mpmath.mpf(fi) - mi) <= rel * max(1, abs(mi)), (fi, mi)


def _float_vs_60(kind: str, scale: float, full: bool) -> None:
    law, N, lam, p = _law(kind, scale)
    a = _points(N, lam, p, full)
    for q in LOG_QUERIES:  # log space: a relative error of the value
        _assert_close(getattr(law, q)(a), getattr(law, q)(a, precision=60), 1e-12)
    for q in QUERIES if full else ():
        f, m = getattr(law, q)(a), getattr(law, q)(a, precision=60)
        for fi, mi in zip(np.ravel(f), np.ravel(m)):
            assert abs(fi - float(mi)) <= 1e-12 * abs(float(mi)) or (mi < 1e-300 and fi < 1e-300)
    assert abs(law.sqrt_mean() / float(law.sqrt_mean(precision=60)) - 1) <= 1e-12
    assert abs(law.mean() / float(law.mean(precision=60)) - 1) <= 1e-12
    assert np.all(np.isfinite(np.asarray(law.log_prob_gt(a, precision=30), dtype=float)) | (a >= law.support_max))


@pytest.mark.parametrize("kind", ["poisson", "binomial"])
def test_float_agrees_with_60_digits_at_1e12(kind):
    _float_vs_60(kind, 1e12, full=False)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["poisson", "poisson-shift", "binomial", "binomial-small-p", "binomial-large-p"])
@pytest.mark.parametrize("scale", [1e10, 1e11, 1e12])
def test_float_agrees_with_60_digits_on_every_query(kind, scale):
    if kind.startswith("binomial-") and scale < 1e12:
        pytest.skip("N p (1 - p) below the bulk engine's width")
    _float_vs_60(kind, scale, full=True)


# ---------------------------------------------------------------------------- the laws, independent values
def _em_check(kind: str, scale: float, zs: tuple, rel_mp: float, rel_float: float, fine: bool = True) -> None:
    law, N, lam, p = _law(kind, scale)
    mean, sd = _moments(N, lam, p)
    s = 1 if kind == "poisson-shift" else 0
    A, B = int(mean - 40 * sd), int(mean + 40 * sd)
    for z in zs:
        b = int(mean + z * sd)  # in X; m = X + s
        with mpmath.workdps(50):  # the loggamma forms lose ~13 digits to cancellation at 1e12
            cdf = _em_sum(*_em_parts(N, lam, p, False), A, b, fine)
            sf = _em_sum(*_em_parts(N, lam, p, False), b + 1, B, fine)
            part = _em_sum(*_em_parts(N, lam, p, True, s), A, b, fine)
        a = b + s
        got_sf, got_part = law.prob_gt(a, precision=30), law.partial_sqrt_mean(a, precision=30)
        with mpmath.workdps(50):  # P(m <= a) = -expm1(log P(m > a)): its relative digits where it is tiny
            got_cdf = -mpmath.expm1(law.log_prob_gt(a, precision=30)[()])
            for got, want in ((got_sf, sf), (got_part, part), (got_cdf, cdf)):
                assert abs(got / want - 1) < rel_mp, (z, got, want)
        for got, want in ((law.prob_gt(a), sf), (law.partial_sqrt_mean(a), part)):
            assert abs(float(got) / float(want) - 1) < rel_float


@pytest.mark.parametrize("kind", ["poisson", "binomial"])
def test_laws_at_1e12_against_euler_maclaurin(kind):
    _em_check(kind, 1e12, (0.5,), 1e-25, 1e-13, fine=False)  # a bulk point: 16 equal pieces suffice


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["poisson", "poisson-shift", "binomial", "binomial-small-p", "binomial-large-p"])
def test_laws_at_1e12_against_euler_maclaurin_across_the_bulk(kind):
    # within 3 sd, where the quadrature of the reference is sharp (1e-30); deep tails: the tests below
    _em_check(kind, 1e12, (-3, 0, 2), 1e-25, 1e-13)


@pytest.mark.slow
@pytest.mark.parametrize("z", [-30, -20, -10])
def test_poisson_lower_tails_at_1e12_against_mpmath_gammainc(z):
    """mpmath's own regularised incomplete gamma (a continued fraction: seconds at 1e12) where
    P(m <= b) is tiny, so that it is read with its relative digits from log P(m > b)."""
    law = sizes.poisson(1e12)
    b = int(1e12 + z * 1e6)
    with mpmath.workdps(30):
        cdf = mpmath.gammainc(b + 1, 1e12, mpmath.inf, regularized=True)
        got = law.log_prob_gt(b, precision=30)[()]
    with mpmath.workdps(40):
        assert abs(-mpmath.expm1(got) / cdf - 1) < 1e-22
        assert abs(-math.expm1(float(law.log_prob_gt(b))) / cdf - 1) < 1e-13


@pytest.mark.slow
@pytest.mark.parametrize("kind, scale", [("poisson", 3e7), ("binomial", 1e8)])
def test_laws_against_direct_sums_over_the_window(kind, scale):
    """At a scale where +-40 sd can be summed (3e5-4e5 masses) and the engine answers at a precision."""
    law, N, lam, p = _law(kind, scale)
    mean, sd = _moments(N, lam, p)
    lo = int(mean - 41 * sd)
    assert law._bulk_mode(30)
    for z in (-20, 0.7, 25):
        b = int(mean + z * sd)
        with mpmath.workdps(35):
            cdf, part = _direct_sums(N, lam, p, lo, b)
            sf = _direct_sums(N, lam, p, b + 1, int(mean + 45 * sd))[0]
        got_sf, got_part = law.prob_gt(b, precision=30), law.partial_sqrt_mean(b, precision=30)
        with mpmath.workdps(35):
            got_cdf = -mpmath.expm1(law.log_prob_gt(b, precision=30)[()])
            for got, want in ((got_sf, sf), (got_part, part), (got_cdf, cdf)):
                assert abs(got / want - 1) < 1e-25, (z, got, want)
        # float64 here is the table (the engine only at a precision): its walk below the window keeps
        # 1.3e-13 at z = -20 (poisson(3e7)); the size laws' float-vs-precision criterion is 1e-12
        assert abs(float(law.partial_sqrt_mean(b)) / float(part) - 1) < 1e-12


# ---------------------------------------------------------------------------- what the searches read
def test_search_end_floor_support_and_support_points_of_a_bulk_law():
    law = sizes.poisson(1e12)
    end = law.search_end()
    # Chernoff, computed here: E[sqrt m 1{m > K}] <= lam exp(-lam h(K/lam)) / sqrt(K + 1) <= 1e-20 at K = end
    u = end / 1e12
    assert math.log(1e12) - 1e12 * (u * math.log(u) - u + 1) - 0.5 * math.log(end + 1) <= math.log(1e-20)
    u = (end - 10**5) / 1e12  # and the end is not far past the first K that satisfies it
    assert math.log(1e12) - 1e12 * (u * math.log(u) - u + 1) - 0.5 * math.log(end + 1) > math.log(1e-20)
    assert law.floor_support([0, 1, 12345, 10**15]).tolist() == [0, 1, 12345, 10**15]
    with pytest.raises(ValueError, match="support_points"):
        law.support_points()
    binom = sizes.binomial(10**12, 0.5)
    assert binom.floor_support([0, 10**12, 10**13]).tolist() == [0, 10**12, 10**12]
    assert float(binom.log_prob_gt(10**12)) == -math.inf and float(binom.log_prob_ge(10**12 + 1)) == -math.inf


def test_bulk_queries_are_bounded_and_cached_by_precision():
    law = sizes.poisson(1e12)
    with pytest.raises(ValueError, match="^a holds 10001 distinct points"):
        law.log_prob_gt(np.arange(10**12, 10**12 + 10_001))
    a = 7 * 10**11 - 7  # below 3 E[X]/4: summed by a float walk in float64, by mpmath at 22 digits
    f = float(law.log_partial_sqrt_mean(a))
    m = law.log_partial_sqrt_mean(a, precision=22)[()]
    assert (a, None) in law._bulk_cache and (a, 22) in law._bulk_cache
    assert abs(f - float(m)) <= 1e-13 * abs(f)  # a log near -1.5e11: a few ulps of the float walk
    # the same points twice in one call are computed once and returned in place
    twice = law.log_prob_gt(np.array([[10**12, 10**12 + 5], [10**12 + 5, 10**12]]))
    assert twice[0, 0] == twice[1, 1] and twice[0, 1] == twice[1, 0]


@pytest.mark.slow
def test_dame_bounds_at_1e12_float_vs_precision():
    law = sizes.poisson(1e12)
    ub, ubp = dame.upper_bound(law, n_alpha2=1e6), dame.upper_bound(law, n_alpha2=1e6, precision=40)
    lb, lbp = dame.lower_bound(law, n_alpha2=1e6), dame.lower_bound(law, n_alpha2=1e6, precision=40)
    assert ub.m_tilde == ubp.m_tilde and lb.argmax == lbp.argmax
    assert abs(ub.log_value - float(ubp.log_value)) < 1e-12 and abs(lb.log_value - float(lbp.log_value)) < 1e-12


@pytest.mark.parametrize("p", [1e-15, 1 - 1e-15])
def test_binomial_at_1e12_with_extreme_p_float_against_60_digits(p):
    """N = 10**12 with p = 1e-15 or 1 - 1e-15 (N p (1 - p) below 1: tables, not the bulk engine): every
    query in float64 within 1e-12 of the 60-digit path, and the mean against its closed form
    E[m] = N p / (1 - (1 - p)^N) evaluated here in mpmath."""
    N = 10**12
    law = sizes.binomial(N, p)
    a = np.array([1, 2, 3, N - 2, N - 1, N]) if p > 0.5 else np.array([1, 2, 3, 5, 10])
    for query in ("log_prob_ge", "log_prob_gt", "log_partial_sqrt_mean", "log_sqrt_min_mean"):
        fl = getattr(law, query)(a)
        mp = getattr(law, query)(a, precision=60)
        for got, want in zip(fl, mp):
            if mpmath.isinf(want):
                assert got == float(want), query
            else:
                assert got == pytest.approx(float(want), rel=1e-12, abs=1e-12), query
    with mpmath.workdps(40):
        pm = mpmath.mpf(p)
        mean = N * pm / -mpmath.expm1(N * mpmath.log1p(-pm))
    assert float(law.mean()) == pytest.approx(float(mean), rel=1e-14)
