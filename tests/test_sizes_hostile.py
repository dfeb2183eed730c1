"""Hostile inputs of bounds.sizes, by cause: each is refused by a ValueError naming the parameter
the user passed, or answered with a documented value, never an internal exception or a warning."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import dame, sizes


@pytest.mark.parametrize("call, match", [
    # invalid input accepted: extra spec parameters were dropped
    (lambda: sizes.parse("poisson:5,6"), r"spec 'poisson:5,6': poisson takes 1 parameter\(s\) \(lam\), got 2"),
    (lambda: sizes.parse("binomial:10"), r"binomial takes 2 parameter\(s\) \(N, p\), got 1"),
    # internal exception: float overflow of the masses' sum
    (lambda: sizes.finite({1: 1e308, 2: 1e308}), "masses must sum to 1"),
    # internal exception / silent wrong: p below float64's range of the closed forms
    (lambda: sizes.geometric(5e-324), "p must be at least 1e-200"),
    (lambda: dame.lower_bound(sizes.geometric(1e-300), n_alpha2=500), "p must be at least 1e-200"),
    # silent wrong: int64 draws saturated at 2**63 - 1
    (lambda: sizes.geometric(1e-19).sample(3, rng=0), r"geometric\(p=1e-19\).sample: a draw exceeds 2\*\*62"),
    # unbounded work: an mpmath table of 1e6 points at 1000 digits (5 times the limit of points x digits), and of
    # 1e7 points (50 times; building the law takes 4 s)
    (lambda: sizes.empirical(np.arange(1, 10**6 + 1)).sqrt_mean(precision=1000), "precision=1000: the table"),
    pytest.param(lambda: sizes.empirical(np.arange(1, 10**7 + 1)).sqrt_mean(precision=1000),
                 "precision=1000: the table", marks=pytest.mark.slow),
])
def test_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_extremes_inside_the_limits_answer():
    assert sizes.geometric(1e-200).sqrt_mean() == pytest.approx(math.sqrt(math.pi) / 2 * 1e100, rel=1e-12)
    draws = sizes.geometric(1e-17).sample(5, rng=0)
    assert np.all((draws >= 1) & (draws <= 2**62))
    assert sizes.parse("binomial:10,0.5").mean() == pytest.approx(5 / (1 - 2**-10), rel=1e-12)


CONSTRUCTORS = st.one_of(
    st.builds(lambda lam: ("poisson", lam), st.floats(1e-300, 1e7)),
    st.builds(lambda N, p: ("binomial", N, p), st.integers(1, 2**62), st.floats(1e-15, 1.0)),
    st.builds(lambda p: ("geometric", p), st.floats(1e-200, 1.0)),
    st.builds(lambda s: ("zipf", s), st.floats(2.0 + 1e-9, 1e3)),
    st.builds(lambda lo, w: ("uniform", lo, lo + w), st.integers(1, 2**61), st.integers(0, 2**61)),
)


def make(spec):
    kind, *args = spec
    return getattr(sizes, kind)(*args)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(CONSTRUCTORS, st.lists(st.integers(-5, 2**62), min_size=1, max_size=4))
def test_fuzz_queries_at_extremes(spec, a):
    """Every query answers a finite, in-range value or refuses by a ValueError (warnings are errors)."""
    try:
        law = make(spec)
        p_gt = law.prob_gt(a)
        s = law.sqrt_min_mean(a)
        m = law.sqrt_mean()
    except ValueError as exc:
        assert any(w in str(exc) for w in ("must", "too heavy", "limited", "more than a table holds"))
        return
    assert np.all((p_gt >= 0) & (p_gt <= 1))
    assert np.all(np.isfinite(s)) and np.all(s >= 0) and np.all(s <= m * (1 + 1e-12) + 1e-300)


@pytest.mark.parametrize("lam", [5.0, 1e3])
@pytest.mark.parametrize("a", [2**40, 2**53 + 3, 2**62])
def test_deep_poisson_tails_where_log_masses_round_alike(lam, a):
    # past 2**53 consecutive log-masses round to the same float; the sum must still converge, to the
    # mpmath value: p(a) <= P(X >= a) <= p(a) / (1 - lam/(a+1)) (ratios lam/(k+1) fall), over P(X >= 1)
    with mpmath.workdps(40):
        L, A = mpmath.mpf(lam), mpmath.mpf(a)
        log_pa = A * mpmath.log(L) - L - mpmath.loggamma(A + 1) - mpmath.log(-mpmath.expm1(-L))
        lo, hi = log_pa, log_pa - mpmath.log1p(-L / (A + 1))
    got = float(sizes.poisson(lam).log_prob_ge(a))
    assert float(lo) * (1 + 1e-15) <= got <= float(hi) * (1 - 1e-15)
