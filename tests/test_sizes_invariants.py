"""Invariants every size law must satisfy, whatever its family and parameters (property tests).

For :math:`m \\ge 1` with :math:`E m < \\infty` and any :math:`a`:

* Jensen: :math:`1 \\le E\\sqrt m \\le \\sqrt{E m}`, and :math:`E\\sqrt m \\le \\sqrt{\\max\\operatorname{supp}}`;
* monotonicity: :math:`P(m \\ge a)` non-increasing, :math:`P(m > a) \\le P(m \\ge a)`,
  :math:`E[\\sqrt m\\,1\\{m \\le a\\}]` and :math:`E[\\sqrt{m \\wedge a}]` non-decreasing;
* bounds: :math:`P(m \\le a) \\le E[\\sqrt m\\,1\\{m \\le a\\}] \\le \\sqrt a\\,P(m \\le a)`,
  :math:`E[\\sqrt{m\\wedge a}] \\le \\min(\\sqrt a, E\\sqrt m)` and
  :math:`E[\\sqrt{m\\wedge a}] = E[\\sqrt m\\,1\\{m\\le a\\}] + \\sqrt a\\,P(m > a)`.

The float path is held to these within ``REL`` = 1e-12 relative, its documented agreement with the
precision path (a violation found here was 0.8-9x: the binomial near p = 1 past 2**53).  Jensen's
:math:`E\\sqrt m \\le \\sqrt{E m}` is also held tight: in float64 within ``JENSEN_ULPS`` = 3 ulps (the
float path's rounding of a weighted mean of :math:`\\sqrt k`, ``sizes._tables.float_sqrt_mean``), and at
40 digits within :math:`10^{-38}` (the tables' tolerance is :math:`10^{-45}`).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

from bounds import sizes

REL = 1e-12
JENSEN_ULPS = 3 * 2.0**-52  # below the 4-7 ulps of binomial(2**62, 1 - 1e-16) before the fix


def _le(a: float, b: float, slack: float = 0.0) -> bool:
    return a <= b + REL * abs(b) + slack + 1e-300


@st.composite
def laws(draw):
    kind = draw(st.sampled_from(["poisson", "binomial", "binomial-near-one", "uniform", "finite", "point",
                                 "geometric", "zipf", "empirical", "nbinom"]))
    if kind == "poisson":
        lam = 10 ** draw(st.floats(-3, 7))
        return sizes.poisson(lam, zero=draw(st.sampled_from(["truncate", "shift"])))
    if kind == "binomial":
        N = draw(st.integers(1, 10**7))
        return sizes.binomial(N, draw(st.floats(1e-9, 1.0)))
    if kind == "binomial-near-one":
        N = draw(st.integers(2**50, 2**62))
        return sizes.binomial(N, 1 - 10 ** draw(st.floats(-16, -12)))
    if kind == "uniform":
        lo = draw(st.integers(1, 2**62))
        return sizes.uniform(lo, draw(st.integers(lo, min(lo + 10**6, 2**62))))
    if kind == "finite":
        pts = draw(st.lists(st.integers(1, 2**62), min_size=1, max_size=6, unique=True))
        w = draw(st.lists(st.floats(0.01, 1.0), min_size=len(pts), max_size=len(pts)))
        tot = math.fsum(w)
        return sizes.finite({k: v / tot for k, v in zip(pts, w)})
    if kind == "point":
        return sizes.point(draw(st.integers(1, 2**62)))
    if kind == "geometric":
        return sizes.geometric(10 ** draw(st.floats(-9, 0)))
    if kind == "zipf":
        return sizes.zipf(draw(st.floats(2.05, 6.0)))
    if kind == "empirical":
        return sizes.empirical(draw(st.lists(st.integers(1, 2**62), min_size=1, max_size=8)))
    n = draw(st.floats(0.5, 50.0))
    return sizes.from_scipy(stats.nbinom(n, draw(st.floats(0.05, 0.95))), zero="shift")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(law=laws(), quantiles=st.lists(st.floats(0.0, 3.0), min_size=2, max_size=5))
def test_jensen_and_monotonicity_for_every_family(law, quantiles):
    mean, root = float(law.mean()), float(law.sqrt_mean())
    assert _le(1.0, root) and _le(root, math.sqrt(mean)), (law, root, mean)
    if law.is_finite:
        assert _le(root, math.sqrt(law.support_max))
    a = np.unique(np.array([min(max(int(mean * t), 1), 2**62) for t in quantiles] + [1, law.support_min],
                           dtype=np.int64))
    ge, gt = law.prob_ge(a), law.prob_gt(a)
    lgt = law.log_prob_gt(a)
    les = -np.expm1(lgt)  # P(m <= a) from log P(m > a), whose float error is REL relative of the log:
    le_err = REL * np.maximum(1.0, np.where(gt > 0, np.abs(lgt), 0.0)) * gt  # ... so this absolute error of P(m <= a)
    part, smin = law.partial_sqrt_mean(a), law.sqrt_min_mean(a)
    for i in range(len(a)):
        le = les[i]
        sa = math.sqrt(a[i])
        assert _le(gt[i], ge[i])
        assert _le(le, part[i], le_err[i]) and _le(part[i], sa * le, sa * le_err[i]) and _le(part[i], root)
        assert _le(smin[i], min(sa, root))
        assert abs(smin[i] - (part[i] + sa * gt[i])) <= REL * smin[i] + 1e-300
        if i:
            assert _le(ge[i], ge[i - 1]) and _le(part[i - 1], part[i]) and _le(smin[i - 1], smin[i])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(law=laws())
def test_jensen_holds_to_the_rounding_of_the_float_path_for_every_family(law):
    mean, root = float(law.mean()), float(law.sqrt_mean())
    assert root <= math.sqrt(mean) * (1 + JENSEN_ULPS), (law, root, mean, root / math.sqrt(mean) - 1)
    if law.is_finite:
        assert root <= math.sqrt(law.support_max) * (1 + JENSEN_ULPS), law


def _cheap_at_40_digits(law) -> bool:
    """The 40-digit path in about a second: not a wide uniform law, nor a Poisson bulk wider than 10^4 points."""
    name = law.name
    if name == "poisson":
        return dict(law.params)["lam"] <= 1e4
    if name == "binomial":
        params = dict(law.params)
        return params["N"] * params["p"] * (1 - params["p"]) <= 1e4
    return name != "uniform" or law.support_max - law.support_min <= 10**4


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(law=laws())
def test_jensen_at_40_digits_for_every_family(law):
    import mpmath

    if not _cheap_at_40_digits(law):
        law = sizes.poisson(5.0)  # keep the example count; the float test above covers the wide laws
    with mpmath.workdps(50):
        root, mean = law.sqrt_mean(precision=40), law.mean(precision=40)
        assert root <= mpmath.sqrt(mean) * (1 + mpmath.mpf(10) ** -38), (law, root, mean)
