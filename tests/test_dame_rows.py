"""Rows (bounds/dame/_rows.py): the searches of several laws at once ask each law for its own points only."""

import numpy as np
import pytest

from bounds import sizes
from bounds.dame import _scan
from bounds.dame._rows import Rows


@pytest.mark.parametrize(
    "laws",
    [
        [sizes.geometric(0.01), sizes.geometric(0.3), sizes.geometric(0.9)],  # one stack
        [sizes.zipf(2.5), sizes.zipf(3.0)],  # one stack
        [_scan.window(sizes.poisson(5e4)), sizes.geometric(0.01), sizes.point(7)],  # law by law
    ],
)
def test_rows_answer_each_row_with_its_own_law(laws):
    # rows of different laws asking for the same points, and asking for points that only neighbouring laws
    # share (the largest of one law is the smallest of the next): every answer must be the row's law's own
    # (the reference: each law asked alone)
    pts = np.array([1, 7, 50, 63, 64, 65, 1000, 49_000, 50_000, 10**6])
    chain = [np.array([1, 7, 64]), np.array([64, 65, 1000]), np.array([1000, 50_000])][: len(laws)]
    for per_law in ([pts] * len(laws), chain):
        lid = np.concatenate([np.full(len(p), j) for j, p in enumerate(per_law)])
        a = np.concatenate(per_law)
        order = np.random.default_rng(3).permutation(a.size)
        _check(laws, lid[order], a[order])


def _check(laws, lid, a):
    rows = Rows(laws, lid)
    idx = np.arange(a.size)
    for got in (rows.parts(idx, a), rows.parts_distinct(idx, a)):
        for j, law in enumerate(laws):
            at = lid == j
            assert np.array_equal(got[0][at], law.log_prob_gt(a[at]))
            assert np.array_equal(got[1][at], law.log_partial_sqrt_mean(a[at]))
    for name in ("log_prob_ge", "floor_support"):
        got = rows.call(name, idx, a)
        for j, law in enumerate(laws):
            at = lid == j
            assert np.array_equal(got[at], getattr(law, name)(a[at])), name
    assert rows.of(lambda law: law.support_min).tolist() == [laws[j].support_min for j in lid]
