"""The verified branch-and-bound: proofs, certified counterexamples, budgets and refused input."""

import math
from fractions import Fraction

import pytest
import sympy as sp
from flint import arb

from bounds.audit import boxes


def test_a_true_inequality_is_proved_and_a_false_one_has_an_exact_counterexample():
    # log(1 + x) < x on [1/2, 1]
    proof = boxes.prove(lambda x: x - (1 + x).log(), [(Fraction(1, 2), 1)])
    assert proof.status == "holds" and proof.boxes >= 1
    # x^2 - 1/4 > 0 fails on [0, 1]: the certified centre is a point where it fails, checked in exact arithmetic
    fail = boxes.prove(lambda x: x * x - arb(1) / 4, [(0, 1)])
    assert fail.status == "fails"
    (c,) = fail.counterexample
    assert c * c - Fraction(1, 4) <= 0


def test_a_tight_inequality_runs_out_of_budget_and_says_so():
    # (x - 1/3)^2 > 0 holds except at 1/3, never a dyadic centre: no box around 1/3 can be proved
    res = boxes.prove(lambda x: (x - arb(1) / 3) ** 2, [(0, 1)], max_boxes=200)
    assert res.status == "inconclusive" and res.undecided is not None and res.counterexample is None


def test_balls_and_points_enclose_their_rationals():
    b = boxes.ball(Fraction(1, 7), Fraction(2, 7))
    assert b.contains(boxes.point(Fraction(1, 7))) and b.contains(boxes.point(Fraction(2, 7)))
    assert boxes.point(0.5).rad() == 0  # a float is taken at its exact binary value
    e = boxes.constant(sp.log(sp.exp(-9) / 16))
    assert float(e.rad()) < 1e-45  # 60 digits kept, whatever the context's precision
    assert abs(float(e.mid()) - (-9 - math.log(16))) < 1e-14


@pytest.mark.parametrize("call, name", [
    (lambda: boxes.ball(2, 1), "lo"),
    (lambda: boxes.ball(True, 1), "lo"),
    (lambda: boxes.point("1"), "v"),
    (lambda: boxes.point(math.nan), "v"),
    (lambda: boxes.constant("__import__('os')"), "value"),
    (lambda: boxes.constant(sp.Symbol("x")), "value"),
    (lambda: boxes.constant(sp.oo), "value"),
    (lambda: boxes.prove(3, [(0, 1)]), "g"),
    (lambda: boxes.prove(lambda x: x, [(1, 0)]), "box"),
    (lambda: boxes.prove(lambda x: x, []), "box"),
    (lambda: boxes.prove(lambda x: x, [(0, "1")]), "box"),
    (lambda: boxes.prove(lambda x: 1.0, [(0, 1)]), "g"),
    (lambda: boxes.prove(lambda x: x, [(0, 1)], max_boxes=0), "max_boxes"),
    (lambda: boxes.prove(lambda x: x, [(0, 1)], strict="no"), "strict"),
])
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(ValueError, match=name):
        call()
