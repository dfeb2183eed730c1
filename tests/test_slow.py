"""Longer property runs (``-m slow``): more laws, wider ranges, float path only where mpmath is too slow."""

import math
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bounds import dame, sizes
from bounds.numerics import PaperAssumptionWarning

from .test_dame import _agree, consts, log_x
from .test_sizes import law_strategy

pytestmark = pytest.mark.slow


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(law=law_strategy(max_support=2000), lx=log_x, constants=consts)
def test_float_and_mpmath_agree_extended(law, lx, constants):
    x = math.exp(lx)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PaperAssumptionWarning)
        for f in (dame.lower_bound, dame.upper_bound):
            assert _agree(f(law, n_alpha2=x, constants=constants), f(law, n_alpha2=x, constants=constants, precision=40))


heavy = st.one_of(
    st.floats(2.05, 4.0).map(sizes.zipf),
    st.floats(1e3, 1e5).map(sizes.poisson),
    st.floats(1e-4, 1e-2).map(sizes.geometric),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(law=heavy, lx=st.floats(math.log(1e-3), math.log(1e7)))
def test_paper_ub_ge_lb_heavy_and_wide_laws(law, lx):
    x = math.exp(lx)
    lb = dame.lower_bound(law, n_alpha2=x)
    ub = dame.upper_bound(law, n_alpha2=x)
    assert not math.isnan(lb.log_value) and not math.isnan(ub.log_value)
    assert ub.log_value >= lb.log_value, f"counterexample: {law!r}, nα² = {x!r}: UB {ub.value} < LB {lb.value}"

