"""The precise (mpmath) path of the size laws against independent values at the scales it serves.

References: python-flint's arb balls (rigorous incomplete gamma / beta and Hurwitz zeta), the
table-free bulk engine at 60 digits (a second method: a Taylor expansion over exact moments),
and direct mpmath sums of the masses at 60 digits.
"""

import math
import time

import mpmath
import numpy as np
import pytest
from flint import arb, ctx

from bounds import dame, sizes
from bounds.sizes import _bulk, _fixed

DPS = 40
TOL = mpmath.mpf(10) ** (-(DPS - 2))  # log-space (relative) agreement asked of a 40-digit value


def _arb_mpf(x):
    """An arb ball's midpoint as an mpf (the ball is far narrower than the tolerance: checked)."""
    assert x.rad() < arb(10) ** (-(DPS + 5)) * abs(x.mid())
    with mpmath.workdps(80):
        return mpmath.mpf(x.mid().str(80, radius=False))


def _poisson_cdf(lam, b):
    """P(X <= b) for X ~ Poisson(lam): Q(b + 1, lam) in arb (rigorous)."""
    with_ctx = ctx.dps
    ctx.dps = 70
    try:
        return _arb_mpf(arb(lam).gamma_upper(arb(b + 1), regularized=1))
    finally:
        ctx.dps = with_ctx


def _poisson_sf(lam, b):
    """P(X > b) = 1 - Q(b + 1, lam) in arb at 260 digits (the ball's width checked after the subtraction)."""
    with_ctx = ctx.dps
    ctx.dps = 260
    try:
        return _arb_mpf(1 - arb(lam).gamma_upper(arb(b + 1), regularized=1))
    finally:
        ctx.dps = with_ctx


def _direct_left(logpmf, a, lo):
    """(sum M(k), sum sqrt(k) M(k)) over k = lo..a, term by term at 60 digits, from a down until
    the terms are 1e-70 of the sum (ratios below 3/4 here: the rest is below 4 times the last term)."""
    with mpmath.workdps(60):
        s = t = mpmath.mpf(0)
        for k in range(a, lo - 1, -1):
            m = mpmath.exp(logpmf(k))
            s += m
            t += mpmath.sqrt(k) * m
            if m < mpmath.mpf(10) ** -70 * s:
                break
        return s, t


def _close(x, y, tol=TOL):
    """Agreement to ``tol`` relative in the probability (absolute in its log), or in the log's own
    digits where the log is large (a 40-digit log of -1.5e5 resolves 1.5e-35)."""
    x, y = mpmath.mpf(np.asarray(x)[()]), mpmath.mpf(np.asarray(y)[()])
    return abs(x - y) <= tol * max(1, abs(y))


@pytest.mark.parametrize("a", [500_000, 941_190, 988_249, 995_000, 1_000_000, 1_003_935, 1_012_000, 1_020_000])
def test_poisson_large_table_and_walks_against_arb(a):
    law = sizes.poisson(1e6)  # truncation changes P(m <= a) by e^-1e6: far below 40 digits
    lc = law.log_prob_gt(a, precision=DPS)
    with mpmath.workdps(60):
        assert _close(lc, mpmath.log(_poisson_sf(1e6, a)))
        assert _close(law.log_prob_ge(a, precision=DPS), mpmath.log(_poisson_sf(1e6, a - 1)))


@pytest.mark.parametrize("a", [995_000, 1_000_000, 1_003_935, 1_012_000])
def test_poisson_large_partial_moment_against_the_bulk_engine(a):
    law = sizes.poisson(1e6)
    got = law.log_partial_sqrt_mean(a, precision=DPS)
    fam = _bulk.BulkFamily(1e6)
    with mpmath.workdps(60):
        lc = mpmath.log(_poisson_cdf(1e6, a))
        ref = _bulk.log_sqrt_moment(fam, a, 0, lc)
        assert _close(got, ref)


@pytest.mark.parametrize("a", [500_000, 700_000])
def test_poisson_large_partial_moment_far_below_against_direct_sums(a):
    law = sizes.poisson(1e6)

    def logpmf(k):
        return k * mpmath.log(10**6) - 10**6 - mpmath.loggamma(k + 1)

    s, t = _direct_left(logpmf, a, 1)
    with mpmath.workdps(60):
        assert _close(law.log_partial_sqrt_mean(a, precision=DPS), mpmath.log(t))
        assert _close(law.log_prob_gt(a, precision=DPS), mpmath.log(1 - s))


@pytest.mark.parametrize("a", [999_000_000, 999_002_000, 999_003_935, 999_010_000])
def test_binomial_large_against_arb_and_the_bulk_engine(a):
    N, p = 10**9, 0.999
    law = sizes.binomial(N, p)
    ctx.dps = 70
    try:  # P(X > a) = I_p(a + 1, N - a)
        sf = _arb_mpf(arb(p).beta_lower(arb(a + 1), arb(N - a), regularized=1))
    finally:
        ctx.dps = 15
    with mpmath.workdps(60):
        assert _close(law.log_prob_gt(a, precision=DPS), mpmath.log(sf))
        fam = _bulk.BulkFamily(N * p, N, p)
        ref = _bulk.log_sqrt_moment(fam, a, 0, mpmath.log(1 - sf))
        assert _close(law.log_partial_sqrt_mean(a, precision=DPS), ref)


@pytest.mark.parametrize("zero", ["truncate", "shift"])
@pytest.mark.parametrize("make", [lambda z: sizes.poisson(3.5, zero=z), lambda z: sizes.binomial(40, 0.3, zero=z)])
def test_small_laws_every_point_against_direct_sums(make, zero):
    """The exact integer tables on small supports (truncated and shifted) against sums of the
    masses written here (mpmath at 60 digits, every point of the support up to where it ends)."""
    law = make(zero)
    name = dict(law.params)
    with mpmath.workdps(60):
        if law.name == "poisson":
            lam = mpmath.mpf(name["lam"])

            def x_mass(j):
                return mpmath.exp(j * mpmath.log(lam) - lam - mpmath.loggamma(j + 1)) if j >= 0 else mpmath.mpf(0)
            top = 80
        else:
            n, pp = name["N"], mpmath.mpf(name["p"])

            def x_mass(j):
                return mpmath.binomial(n, j) * pp**j * (1 - pp) ** (n - j) if 0 <= j <= n else mpmath.mpf(0)
            top = n + 1
        if zero == "shift":
            masses = {k: x_mass(k - 1) for k in range(1, top + 1)}
        else:
            z = 1 - x_mass(0)
            masses = {k: x_mass(k) / z for k in range(1, top + 1)}
        ks = np.arange(1, top)
        sf = law.log_prob_gt(ks, precision=DPS)
        ps = law.log_partial_sqrt_mean(ks, precision=DPS)
        for i, k in enumerate(ks.tolist()):
            ref_sf = mpmath.fsum(v for j, v in masses.items() if j > k)
            if ref_sf < mpmath.mpf(10) ** -30:  # beyond the direct sum's cut
                break
            ref_ps = mpmath.fsum(mpmath.sqrt(j) * v for j, v in masses.items() if j <= k)
            assert _close(sf[i], mpmath.log(ref_sf))
            assert _close(ps[i], mpmath.log(ref_ps))


def test_fixed_walk_and_run_against_exact_rationals():
    """The integer recurrences themselves: Poisson(3/2) masses relative to M(2) are exact
    rationals (3/2)^j 2!/(2+j)!, and sums of them to 60 digits."""
    r = _fixed.Run(_fixed.poisson_ratio(1.5, 0), 2, 30, 40.0, 40)
    r.extend(41)
    with mpmath.workdps(60):
        for j in (0, 1, 10, 39):
            exact = mpmath.mpf(1.5) ** j * 2 / mpmath.factorial(2 + j)
            assert abs(mpmath.ldexp(r.T[j], -r.F) / exact - 1) < mpmath.mpf(10) ** -38
        lam = mpmath.mpf(1.5)
        ls, lw = _fixed.walk(_fixed.poisson_ratio(1.5, 0), mpmath.mpf(0), 5, +1, math.inf, 40, 10**6)
        ref = mpmath.nsum(lambda j: lam**j * mpmath.factorial(5) / mpmath.factorial(5 + j), [0, mpmath.inf])
        assert abs(ls - mpmath.log(ref)) < mpmath.mpf(10) ** -42
        ls, lw = _fixed.walk(_fixed.poisson_ratio(1.5, 0), mpmath.mpf(0), 5, -1, 1, 40, 10**6)
        terms = [mpmath.factorial(5) / mpmath.factorial(k) / lam ** (5 - k) for k in range(1, 6)]
        assert abs(ls - mpmath.log(mpmath.fsum(terms))) < mpmath.mpf(10) ** -42
        assert abs(lw - mpmath.log(mpmath.fsum(mpmath.sqrt(k) * t for k, t in zip(range(1, 6), terms)))) \
            < mpmath.mpf(10) ** -42


def test_precise_point_of_a_wide_poisson_is_cheap():
    """One UB+LB point at 40 digits for poisson(1e6) no longer builds an mpmath table over its bulk
    (CPU time, generous: the target is 0.3 s on an idle machine)."""
    law = sizes.poisson(1e6)
    t = time.process_time()
    dame.lower_bound(law, n_alpha2=1e3, precision=DPS)
    dame.upper_bound(law, n_alpha2=1e3, precision=DPS)
    assert time.process_time() - t < 2.0


def _arb_hurwitz(x, q):
    """zeta(x, q) in arb at 80 digits (rigorous)."""
    ctx.dps = 80
    try:
        return _arb_mpf(arb(x).zeta(arb(q)))
    finally:
        ctx.dps = 15


@pytest.mark.parametrize("s", [2 + 1e-9, 2.001, 3.0])
def test_zipf_precise_tails_and_moments_against_arb(s):
    """P(m > a) = zeta(s, a+1)/zeta(s) and E[sqrt m 1{m <= a}] = (zeta(s-1/2) - zeta(s-1/2, a+1))/zeta(s)
    with arb's Hurwitz zeta, from a = 1 (cached direct terms) through the Euler-Maclaurin range to 1e12."""
    law = sizes.zipf(s)
    a = np.array([1, 5, 62, 63, 64, 65, 100, 3495, 10**6, 795353596, 10**12])
    sf = law.log_prob_gt(a, precision=DPS)
    ps = law.log_partial_sqrt_mean(a, precision=DPS)
    with mpmath.workdps(80):
        zs, zh = _arb_hurwitz(s, 1), _arb_hurwitz(s - 0.5, 1)
        for i, ai in enumerate(a.tolist()):
            assert _close(sf[i], mpmath.log(_arb_hurwitz(s, ai + 1) / zs))
            assert _close(ps[i], mpmath.log((zh - _arb_hurwitz(s - 0.5, ai + 1)) / zs))
        assert _close(mpmath.log(law.sqrt_mean(precision=DPS)), mpmath.log(zh / zs))


@pytest.mark.parametrize("dps", [15, 40, 100])
def test_zipf_euler_maclaurin_at_its_first_point_against_arb(dps):
    """The Euler-Maclaurin tail where it starts (the hardest point: fewest digits per term)."""
    from bounds.sizes._zipf import _em_hurwitz, _em_start

    q = _em_start(dps)
    with mpmath.workdps(dps):
        got = _em_hurwitz(2.5, q)
    with mpmath.workdps(120):
        ctx.dps = 120
        try:
            ref = mpmath.mpf(arb(2.5).zeta(arb(q)).mid().str(120, radius=False))
        finally:
            ctx.dps = 15
        assert abs(got / ref - 1) < mpmath.mpf(10) ** (-(dps - 1))


def _arb_mid(value, digits):
    """An arb ball's midpoint as an mpf at the working precision (its radius is far below ``digits``)."""
    return mpmath.mpf(value.mid().str(digits, radius=False))


@pytest.mark.parametrize("dps, x, q", [(30, 1000.0, 64), (60, 130.0, 64), (120, 400.0, 100), (300, 200.0, 150)])
def test_zipf_hurwitz_where_the_series_turns_against_arb(dps, x, q):
    """x not small against q: the Euler-Maclaurin terms grow before they are small (the series raised an
    ArithmeticError); the terms from q are summed first, then the series from 2 max(q, x)."""
    from bounds.sizes._zipf import _em_hurwitz

    with mpmath.workdps(dps):
        got = _em_hurwitz(x, q)
    ctx.dps = dps + 30
    try:
        with mpmath.workdps(dps + 30):
            ref = _arb_mid(arb(x).zeta(arb(q)), dps + 30)
            assert abs(got / ref - 1) < mpmath.mpf(10) ** (-(dps - 1))
    finally:
        ctx.dps = 15


def test_zipf_mean_at_a_large_exponent_in_precision():
    """zipf(1000).mean(precision=30) raised (its tail's series at q = 64 turns first): zeta(999)/zeta(1000) by arb."""
    got = sizes.zipf(1000.0).mean(precision=30)
    ctx.dps = 60
    try:
        with mpmath.workdps(60):
            ref = _arb_mid(arb(999).zeta() / arb(1000).zeta(), 60)
            assert abs(got / ref - 1) < mpmath.mpf(10) ** -29
    finally:
        ctx.dps = 15


@pytest.mark.parametrize("p", [0.7, 0.05, 1e-7])
def test_geometric_precise_partial_moment_against_lerch(p):
    """E[sqrt m 1{m <= a}] = (p/q) (Li_{-1/2}(q) - q^{a+1} Phi(q, -1/2, a+1)) (polylog and Lerch's
    transcendent, mpmath at 60 digits): the direct prefix, both ends of the Euler-Maclaurin range, the
    search's scales."""
    law = sizes.geometric(p)
    a = np.array([1, 10, 63, 64, 65, 500, 5000, 88716057, 10**10])
    got = law.log_partial_sqrt_mean(a, precision=DPS)
    with mpmath.workdps(60):
        q = 1 - mpmath.mpf(p)
        li = mpmath.polylog(-0.5, q)
        for i, ai in enumerate(a.tolist()):
            w = li - q ** (ai + 1) * mpmath.lerchphi(q, -0.5, ai + 1)
            assert _close(got[i], mpmath.log(w * mpmath.mpf(p) / q))


@pytest.mark.parametrize("lo, hi", [(1, 10**9), (60, 2 * 10**6), (10**8, 10**9)])
def test_wide_uniform_precise_partial_moment_against_arb(lo, hi):
    """sum_{lo <= k <= a} sqrt k = zeta(-1/2, lo) - zeta(-1/2, a + 1) (arb, 120 digits), including a
    few points above lo (where the two Euler-Maclaurin expansions nearly cancel)."""
    law = sizes.uniform(lo, hi)
    a = np.array([lo, lo + 1, lo + 5, 63, 64, lo + 1000, 131037, 999937292, hi])
    a = a[(a >= lo) & (a <= hi)]
    got = law.log_partial_sqrt_mean(a, precision=DPS)
    ctx.dps = 120
    try:
        with mpmath.workdps(120):
            top = arb(-0.5).zeta(arb(lo))
            for i, ai in enumerate(a.tolist()):
                s = _arb_mpf(top - arb(-0.5).zeta(arb(ai + 1)))
                assert _close(got[i], mpmath.log(s / (hi - lo + 1)))
    finally:
        ctx.dps = 15


def test_lazy_mpmath_table_of_a_finite_law_against_direct_sums():
    """The generic mpmath table (logs taken when read) of uniform(1, 2000): every point's three sums
    against sums written here."""
    law = sizes.uniform(1, 2000)
    ks = np.arange(1, 2001)
    sf = law.log_prob_gt(ks, precision=DPS)
    ps = law.log_partial_sqrt_mean(ks, precision=DPS)
    ge = law.log_prob_ge(ks, precision=DPS)
    with mpmath.workdps(60):
        acc = mpmath.mpf(0)
        for i, k in enumerate(ks.tolist()):
            acc += mpmath.sqrt(k)
            assert _close(ps[i], mpmath.log(acc / 2000))
            if k < 2000:
                assert _close(sf[i], mpmath.log(mpmath.mpf(2000 - k) / 2000))
            assert _close(ge[i], mpmath.log(mpmath.mpf(2001 - k) / 2000))


@pytest.mark.parametrize("make", [lambda: sizes.uniform(1, 2000), lambda: sizes.finite({1: 0.25, 7: 0.75}),
                                  lambda: sizes.poisson(1e6), lambda: sizes.zipf(2.5), lambda: sizes.geometric(0.1)])
def test_a_law_with_lazy_precise_tables_pickles(make):
    """A law whose mpmath tables are half read (logs taken on demand) pickles, and answers alike after."""
    import pickle

    law = make()
    a = np.array([3, 5])
    before = law.log_prob_gt(a, precision=DPS)
    back = pickle.loads(pickle.dumps(law))
    assert list(back.log_prob_gt(a, precision=DPS)) == list(before)
    assert list(back.log_partial_sqrt_mean(a, precision=DPS)) == list(law.log_partial_sqrt_mean(a, precision=DPS))
