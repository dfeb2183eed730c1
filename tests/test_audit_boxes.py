"""The verified branch-and-bound: proofs, certified counterexamples, budgets and refused input."""

import math
from fractions import Fraction

import pytest
import sympy as sp
from flint import arb, ctx

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


def test_strict_and_non_strict_at_zero():
    # 0 > 0 is false: refuted with a certified point; 0 >= 0 is true: proved
    zero = boxes.prove(lambda x: x * 0, [(0, 1)], strict=True)
    assert zero.status == "fails" and zero.counterexample is not None
    assert boxes.prove(lambda x: x * 0, [(0, 1)], strict=False).status == "holds"
    # x > 0 on [0, 1] fails only at 0: the branch-and-bound must not accept it
    assert boxes.prove(lambda x: x, [(0, 1)], strict=True, max_boxes=200).status != "holds"
    # |x| > 0 on [-1, 1] fails at the dyadic centre 0 (a ball's radius is rounded up, so a box touching 0
    # never proves |x| >= 0 either: that side stays inconclusive, never a wrong "holds" or "fails")
    assert boxes.prove(lambda x: abs(x), [(-1, 1)], strict=True).status == "fails"
    assert boxes.prove(lambda x: abs(x), [(-1, 1)], strict=False, max_boxes=100).status == "inconclusive"


def test_constants_enclose_pi_and_log2():
    import mpmath

    with mpmath.workdps(80):
        for expr, ref in ((sp.pi, mpmath.pi), (sp.log(2), mpmath.log(2)), (sp.exp(-9) / 16, mpmath.exp(-9) / 16)):
            b = boxes.constant(expr)
            with ctx.workprec(400):
                lo, hi = mpmath.mpf(b.lower().str(75, radius=False)), mpmath.mpf(b.upper().str(75, radius=False))
            assert lo <= ref <= hi and hi - lo < mpmath.mpf(10) ** -45 * abs(ref)
    # and a constant that is not pi is not enclosed with it
    assert not boxes.constant(sp.Rational(355, 113)).overlaps(boxes.constant(sp.pi))


def test_two_dimensional_boxes_are_decided():
    # x^2 + y^2 >= 2xy (AM-GM) on [0, 1]^2 holds with equality on the diagonal: non-strict needs the diagonal
    # boxes proved through the square form; x y < 1/2 fails at (1, 1)
    assert boxes.prove(lambda x, y: (x - y) ** 2 + x * y + arb(1) / 8, [(0, 1), (0, 1)]).status == "holds"
    fail = boxes.prove(lambda x, y: arb(1) / 2 - x * y, [(0, 1), (0, 1)])
    assert fail.status == "fails"
    x, y = fail.counterexample
    assert x * y >= Fraction(1, 2)


def test_prove_accepts_a_box_with_a_huge_rational_and_refuses_a_bad_one_by_name():
    big = Fraction(10**5000 + 1, 10**5000)
    assert boxes.prove(lambda x: x, [(1, big)]).status == "holds"
    with pytest.raises(ValueError, match="box"):
        boxes.prove(lambda x: x, [(big, 1)])
    with pytest.raises(ValueError, match="lo"):
        boxes.ball(big, 1)


def test_constant_of_a_huge_number_is_a_finite_ball_and_unbounded_work_is_refused():
    b = boxes.constant(sp.exp(sp.exp(10)))
    assert b.is_finite() and b.rad() < abs(b.mid()) * arb(10) ** -45
    with pytest.raises(ValueError, match="value"):
        boxes.constant(sp.exp(sp.exp(sp.exp(10))))
    with pytest.raises(ValueError, match="value"):
        boxes.constant(sp.sin(sp.Integer(10) ** (10**5)))


def test_huge_rationals_are_reported_without_a_crash():
    # a counterexample far past the float range (5,000 digits): the evidence says inf, and the status is exact
    huge = Fraction(10**5000)
    r = boxes.prove(lambda x: 1 - x, [(huge, huge + 2)])
    assert r.status == "fails" and r.counterexample == (huge + 1,)
    assert r.evidence("d")["counterexample"] == [math.inf]
    # a box refused by name even when its ends cannot be printed (Python's int -> str limit is 4,300 digits)
    with pytest.raises(ValueError, match="box"):
        boxes.prove(lambda x: x, [(huge + 1, huge)])
    with pytest.raises(ValueError, match="lo"):
        boxes.tightest(lambda c, x: c - x, [(0, 1)], huge, 1)


@pytest.mark.parametrize("value", [
    sp.factorial(sp.Integer(10) ** 100, evaluate=False),  # its value has 10^102 digits
    sp.Pow(2, 2**20, evaluate=False),  # an integer of a million bits
    sp.gamma(sp.Integer(10) ** 20, evaluate=False),
])
def test_numbers_sympy_cannot_evaluate_in_bounded_time_are_refused(value):
    with pytest.raises(ValueError, match="value"):
        boxes.constant(value)


def test_tiny_and_cancelling_constants_are_enclosed():
    import mpmath

    tiny = boxes.constant(sp.exp(-sp.exp(10)))  # about 1e-9566: below every float, still a finite ball
    assert tiny.is_finite() and bool(tiny.rad() <= arb(10) ** -299) and bool(tiny.mid() > 0)
    b = boxes.constant(sp.exp(sp.pi * sp.sqrt(163)) - 640320**3 - 744)  # -7.4993e-13 after a 30-digit cancellation
    with mpmath.workdps(80):
        ref = mpmath.exp(mpmath.pi * mpmath.sqrt(163)) - mpmath.mpf(640320) ** 3 - 744
        with ctx.workprec(300):
            lo, hi = mpmath.mpf(b.lower().str(70, radius=False)), mpmath.mpf(b.upper().str(70, radius=False))
        assert lo <= ref <= hi and hi - lo < mpmath.mpf(10) ** -45 * abs(ref) and bool(b < 0)


def test_tightest_retries_an_undecided_midpoint_with_finer_boxes():
    # c - x^2 (1 + x)/(1 + x) on [0, 1] (sup 1 at x = 1; the midpoints 3k/2^j are never 1): the dependency makes
    # wide boxes loose, and 8 boxes per proof do not decide the midpoints near 1; the retries (32, 128, 512) do
    g = lambda c, x: c - x * x * (1 + x) / (1 + x)  # noqa: E731
    t = boxes.tightest(g, [(0, 1)], 0, 3, steps=12, max_boxes=8)
    assert t.steps == 12 and float(t.refuted) <= 1 <= float(t.proved)
    assert float(t.proved - t.refuted) <= 3 / 2**12
    c = boxes.point(t.proved)
    assert boxes.prove(lambda x: g(c, x), [(0, 1)], strict=False, max_boxes=8).status == "inconclusive"
