"""The float path's w-ary searches (bounds.dame._search) against exhaustive scans."""

import math

import numpy as np
import pytest

from bounds.dame._search import WAYS, last_true

MAX_SIZE = 2**62


def _scan(good, top, answer):
    """The last point of [good, top] where `a <= answer` holds, by looking at every point."""
    return np.array([max(a for a in range(g, t + 1) if a <= ans) for g, t, ans in zip(good, top, answer)])


def _pred(good, top, answer, seen):
    """`a <= answer` of each row; asserts every probe lies inside its row's bracket (no read outside)."""
    def pred(a, idx):
        a, idx = np.asarray(a), np.asarray(idx)
        assert a.shape == idx.shape and np.all(a >= good[idx]) and np.all(a <= top[idx])
        seen.append(len(a))
        return a <= answer[idx]
    return pred


@pytest.mark.parametrize("ways", [2, 3, WAYS])
def test_last_true_against_a_scan_with_answers_at_every_place(ways):
    rng = np.random.default_rng(2024)
    for _ in range(300):
        n = 6
        good = rng.integers(1, 40, n)
        top = good + rng.integers(0, 400, n)
        # answers at the bracket's ends, next to them, and anywhere: the near-ties of a probe grid
        where = rng.integers(0, 5, n)
        inner = np.array([rng.integers(g, t + 1) for g, t in zip(good, top)])
        answer = np.select([where == 0, where == 1, where == 2, where == 3],
                           [good, top, np.minimum(good + 1, top), np.maximum(top - 1, good)], inner)
        got = last_true(_pred(good, top, answer, []), good, top, ways)
        assert got.tolist() == _scan(good, top, answer).tolist()


@pytest.mark.parametrize("ways", [2, WAYS])
def test_last_true_at_the_top_of_the_size_range(ways):
    # brackets up to 2**62: probes never wrap (g << j only where it stays below top)
    good = np.array([1, 1, 2**61, 3, 2**62 - 5])
    top = np.full(5, MAX_SIZE)
    answer = np.array([MAX_SIZE, MAX_SIZE - 1, 2**61 + 12345, 3, MAX_SIZE - 5])
    got = last_true(_pred(good, top, answer, []), good, top, ways)
    assert got.tolist() == answer.tolist()


def test_last_true_calls_grow_with_the_answer_not_the_bracket():
    # galloping, then 16-ary narrowing: about log16(answer) + 2 calls however wide the bracket
    for answer in (1, 17, 10**3, 10**6, 10**12):
        seen: list[int] = []
        good, top = np.array([1]), np.array([MAX_SIZE])
        got = last_true(_pred(good, top, np.array([answer]), seen), good, top)
        assert int(got[0]) == answer
        gallop = math.ceil(math.log2(max(answer, 2)) / (WAYS - 1)) + 1  # doubling probes: 15 a call
        assert len(seen) <= gallop + math.ceil(math.log(max(answer, 2), WAYS)) + 1
        assert max(seen) <= WAYS - 1  # one bracket: at most w - 1 probes a call


def test_last_true_with_closed_brackets_asks_nothing():
    seen: list[int] = []
    good = np.array([5, 9])
    got = last_true(_pred(good, good.copy(), np.array([5, 9]), seen), good, good.copy())
    assert got.tolist() == [5, 9] and seen == []
