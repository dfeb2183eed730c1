"""Tests of the validation layer and the assumption warnings (bounds.numerics)."""

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from bounds import numerics as nm
from bounds.numerics import PaperAssumptionWarning


@pytest.mark.parametrize("value, expected", [
    (0.5, 0.5), (1, 1.0), (Fraction(1, 2), 0.5), (np.int64(3), 3.0), (np.float32(0.25), 0.25),
    (sp.Rational(1, 4), 0.25), (mpmath.mpf("0.125"), 0.125), (10**20, 1e20),
])
def test_check_real_accepts_every_real_type(value, expected):
    assert nm.check_real("x", value) == expected


@pytest.mark.parametrize("value", [True, False, np.bool_(True), "0.5", "nan", None, complex(1, 0), [0.5],
                                   math.nan, math.inf, -math.inf, 10**400, Fraction(10**400)])
def test_check_real_refuses_non_reals_and_non_finite_naming_the_parameter(value):
    with pytest.raises(ValueError, match=r"^rho must be a real number"):
        nm.check_real("rho", value)


def test_check_real_range_ends():
    assert nm.check_real("p", 0, low=0, high=1) == 0.0
    with pytest.raises(ValueError, match=r"p must be in \(0, 1\], got 0"):
        nm.check_real("p", 0, low=0, high=1, low_open=True)
    with pytest.raises(ValueError, match=r"p must be in \[0, 1\), got 1"):
        nm.check_real("p", 1, low=0, high=1, high_open=True)
    assert nm.check_real("T", math.inf, low=0, allow_inf=True) == math.inf
    with pytest.raises(ValueError, match="underflows"):
        nm.check_positive("alpha", Fraction(1, 10**400))
    with pytest.raises(ValueError, match="alpha must be a positive real number, got 0"):
        nm.check_positive("alpha", 0)


@pytest.mark.parametrize("call, message", [
    (lambda: nm.check_positive("x", 0.0), "x must be a positive real number, got 0.0"),
    (lambda: nm.check_positive("x", -0.0), "x must be a positive real number, got -0.0"),
    (lambda: nm.check_positive("x", -2), "x must be a positive real number, got -2"),
    (lambda: nm.check_real("p", 1.5, low=0, high=1), "p must be in [0, 1], got 1.5"),
    (lambda: nm.check_real("p", 1.0, low=0, high=1, high_open=True), "p must be in [0, 1), got 1.0"),
    (lambda: nm.check_real("p", 0.0, low=0, high=1, low_open=True), "p must be in (0, 1], got 0.0"),
    (lambda: nm.check_real("x", -math.inf, low=0, allow_inf=True), "x must be a non-negative real number, got -inf"),
    (lambda: nm.check_real("x", math.inf, high=2.5, allow_inf=True), "x must be a real number <= 2.5, got inf"),
    (lambda: nm.check_real("x", math.inf), "x must be a real number (finite), got inf"),
    (lambda: nm.check_real("x", math.nan, low=0), "x must be a non-negative real number (finite), got nan"),
    (lambda: nm.check_real("k", -3, low=-2), "k must be a real number >= -2, got -3"),
    (lambda: nm.check_real("k", 2**60, high=10), "k must be a real number <= 10, got 1152921504606846976"),
    (lambda: nm.check_real("k", 2**53 + 1, high=10, high_open=True), "k must be a real number < 10, got 9007199254740993"),
    (lambda: nm.check_real("z", np.float64(-1.0), low=0, low_open=True),
     f"z must be a positive real number, got {np.float64(-1.0)!r}"),  # numpy 2 writes np.float64(-1.0), numpy 1 -1.0
    (lambda: nm.check_bool("h3", 1), "h3 must be True or False, got 1"),
    (lambda: nm.check_bool("h3", None), "h3 must be True or False, got None"),
])
def test_check_messages_of_plain_numbers(call, message):
    # plain floats and ints in range take a short path: a refused one gets the message of every other value
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value) == message


@pytest.mark.parametrize("value, kwargs, expected", [
    (3, {}, 3.0), (-(2**53) + 1, {}, -9007199254740991.0), (2**53, {"low": 0}, 9007199254740992.0),
    (5e-324, {"low": 0, "low_open": True}, 5e-324), (1.0, {"low": 0, "high": 1}, 1.0), (0, {"low": 0, "high": 1}, 0.0),
    (math.inf, {"low": 0, "allow_inf": True}, math.inf), (-0.0, {"low": 0}, -0.0),
])
def test_check_real_returns_plain_floats(value, kwargs, expected):
    out = nm.check_real("x", value, **kwargs)
    assert type(out) is float and out == expected and math.copysign(1, out) == math.copysign(1, expected)


def test_check_bool_returns_the_bool():
    assert nm.check_bool("h3", True) is True and nm.check_bool("h3", False) is False
    assert nm.check_bool("h3", np.bool_(True)) is True


@pytest.mark.parametrize("value, expected", [
    (3, 3), (np.int64(7), 7), (1e4, 10_000), (Fraction(6, 2), 3), (sp.Integer(5), 5), (10**400, 10**400),
])
def test_check_integer_is_exact_at_any_size(value, expected):
    out = nm.check_integer("n", value, minimum=1)
    assert out == expected and type(out) is int


@pytest.mark.parametrize("value", [True, np.bool_(False), "3", 2.5, math.nan, math.inf, None, Fraction(1, 2), [3]])
def test_check_integer_refuses(value):
    with pytest.raises(ValueError, match=r"^n must be an integer >= 1"):
        nm.check_integer("n", value, minimum=1)


def test_check_integer_states_its_limit():
    with pytest.raises(ValueError, match=r"M must be an integer in \[0, 10\*\*300\] \(float64\), got 10000000000\.\.\. \(401 digits\)"):
        nm.check_integer("M", 10**400, minimum=0, maximum=10**300, why="float64")


def test_check_choice_is_exact_membership():
    assert nm.check_choice("ball", "l2", ("linf", "l2")) == "l2"
    for bad in ("L2", "xyz", "", None, 2, True, ["l2"]):
        with pytest.raises(ValueError, match="ball must be one of 'linf', 'l2'"):
            nm.check_choice("ball", bad, ("linf", "l2"))


def test_check_array_shape_type_finiteness():
    assert nm.check_array("w", [1, 2.5]).dtype == float
    assert nm.check_array("w", [2**70]).tolist() == [float(2**70)]
    for bad in ([], [[1.0]], "12", ["1", "2"], [True, False], np.array([True]), [1, None], [[1], [2, 3]],
                [complex(1, 1)]):
        with pytest.raises(ValueError, match="^w must be"):
            nm.check_array("w", bad)
    for bad in ([1.0, math.nan], [math.inf], [10**400]):
        with pytest.raises(ValueError, match="w must hold finite real numbers"):
            nm.check_array("w", bad)
    with pytest.raises(ValueError, match="w must hold real numbers > 0, got 0.0"):
        nm.check_array("w", [1.0, 0.0], low=0, low_open=True)
    assert nm.check_array("w", [], allow_empty=True).size == 0


def test_check_counts_never_rounds_or_wraps():
    assert nm.check_counts("k", [3, 1.0, np.int64(2)]).tolist() == [3, 1, 2]
    assert nm.check_counts("k", np.array([2**62, 2**62])).tolist() == [2**62, 2**62]
    assert nm.check_counts("k", [2**63 - 1]).tolist() == [2**63 - 1]
    for bad, match in [([1.5, 0], "positive integers, got 1.5"), ([2**63], r"up to 2\*\*63 - 1"),
                       ([1e308, 5, 1], r"up to 2\*\*63 - 1.*1e\+308"), ([2.0**63], r"up to 2\*\*63 - 1"),
                       ([0], "got 0"), ([-2], "got -2"), ([True, 2], "must be"), (np.array([True]), "must be"),
                       (["3"], "must be"), ([], "non-empty"), ([[1, 2]], "1-D"), ([math.nan], "got nan")]:
        with pytest.raises(ValueError, match=match):
            nm.check_counts("k", bad)
    assert nm.check_counts("k", [4], maximum=4).tolist() == [4]
    with pytest.raises(ValueError, match="up to 3"):
        nm.check_counts("k", [4], maximum=3)


def test_total_is_exact_where_int64_wraps():
    arr = np.array([2**62, 2**62, 2**62])
    assert int(arr.sum()) < 0  # the wrap-around total() avoids
    assert nm.total(arr) == 3 * 2**62


def test_check_precision_is_capped():
    assert nm.check_precision(None) is None and nm.check_precision(1000) == 1000
    for bad in (0, 1001, 10**6, True, 30.5, "30"):
        with pytest.raises(ValueError, match=r"precision must be an integer in \[1, 1000\]"):
            nm.check_precision(bad)


def test_last_true_refuses_bad_brackets():
    assert int(nm.last_true(lambda a: a * a <= 50, 0, 100)) == 7
    with pytest.raises(ValueError, match="hi must be >= lo"):
        nm.last_true(lambda a: a < 5, 10, 1)
    with pytest.raises(ValueError, match="hi must be an integer"):
        nm.last_true(lambda a: a < 5, 0, 2**70)
    with pytest.raises(ValueError, match="pred must be a function"):
        nm.last_true(5, 0, 3)


def test_last_true_against_a_scan_with_answers_at_every_place():
    """The bisection's answer is the scan's at every answer of brackets of 1 to 40 points (one search of all
    brackets and answers at once: the rows are independent), and at the ends of the size range."""
    lo, hi, answer = [], [], []
    for width in range(1, 41):
        for start in (-3, 0, 7):
            for a in range(start - 1, start + width):
                lo.append(start), hi.append(start + width - 1), answer.append(a)
    lo, hi, answer = np.array(lo), np.array(hi), np.array(answer)
    asked = []

    def pred(a):
        asked.append(a.copy())
        return a <= answer

    got = nm.last_true(pred, lo, hi)
    assert np.array_equal(got, answer)
    assert len(asked) <= 7  # ceil(log2(41)) rounds
    assert all(np.all((q >= lo) & (q <= hi)) for q in asked)
    top = 2**62
    ends = np.array([top - 3, top - 2, top - 1, top])
    assert np.array_equal(nm.last_true(lambda a: a <= ends, np.full(4, top - 3), np.full(4, top)), ends)


def _inner():
    nm.warn_assumption("H3 fails")


def _outer():
    _inner()
    _inner()


def test_assumption_warning_points_at_the_first_caller_outside_the_package():
    from bounds import dame, sizes

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dame.upper_bound(sizes.point(3), n=100, alpha=0.9)  # H3 fails inside the package's private helpers
        _inner()
    assert caught and all(w.filename == __file__ for w in caught)
    assert {w.lineno for w in caught} == {_line("dame.upper_bound(sizes.point(3)"), _line("    nm.warn_assumption(")}


def _line(text: str) -> int:
    with open(__file__) as f:
        return next(i for i, line in enumerate(f, 1) if line.lstrip().startswith(text.strip()))


def test_each_assumption_message_once_per_call():
    decorated = nm.warn_once_per_call(_outer)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        decorated()
        decorated()  # a second call warns again
    assert [str(w.message) for w in caught] == ["H3 fails", "H3 fails"]
    assert all(issubclass(w.category, PaperAssumptionWarning) for w in caught)


def test_every_precision_argument_is_capped():
    """One validator serves every module: a precision that would take minutes is refused at once."""
    import time

    from bounds import dame, sizes

    start = time.process_time()
    for call in (lambda: dame.upper_bound(sizes.point(3), n_alpha2=3, precision=10**6),
                 lambda: sizes.poisson(5.0).pmf(3, precision=10**6)):
        with pytest.raises(ValueError, match=r"precision must be an integer in \[1, 1000\]"):
            call()
    assert time.process_time() - start < 5  # CPU seconds: a loaded machine cannot fail it


def test_last_true_brackets_reach_max_bracket_and_no_further():
    assert nm.MAX_BRACKET == 2**62  # the int64 midpoint good + (top - good + 1) // 2 of a ±2**62 bracket cannot wrap
    assert int(nm.last_true(lambda a: a < 2**62, 0, 2**62)) == 2**62 - 1
    with pytest.raises(ValueError, match=r"^hi must be an integer in \[-4611686018427387904, 2\*\*62\]"):
        nm.last_true(lambda a: a >= 0, 0, 2**62 + 1)


@pytest.mark.parametrize("values", [[], [7], [3, 1, 3, 3, 2], list(range(50, 0, -1)) * 3,
                                    [10**30, 5, 10**30], [0.5, -2.0, 0.5]])
def test_sorted_unique_is_numpys_unique(values):
    arr = np.array(values, dtype=object if any(abs(v) > 2**62 for v in values) else None)
    ref_values, ref_counts = np.unique(arr, return_counts=True)  # numpy's own, an independent computation
    got_values, got_counts = nm.sorted_unique(arr, return_counts=True)
    assert got_values.tolist() == ref_values.tolist() and got_counts.tolist() == ref_counts.tolist()
    assert nm.sorted_unique(arr).tolist() == ref_values.tolist()


@pytest.mark.parametrize("bad", [[1.0, float("nan")], [[1, 2]], "ab", [True, False], {1: 2}])
def test_sorted_unique_refuses_what_is_not_a_numeric_vector(bad):
    with pytest.raises(ValueError, match="a must be a 1-D array"):
        nm.sorted_unique(bad)


@pytest.mark.parametrize("n,p", [(1, 0.5), (7, 0.3), (40, 0.01), (25, 0.999)])
def test_binomial_sf_against_exact_rational_sums(n, p):
    """P(Bin(n, p) > y) summed exactly in rationals (p taken at its float value), every y from -2 to n + 1."""
    q = Fraction(p)
    exact = [sum(math.comb(n, k) * q**k * (1 - q) ** (n - k) for k in range(max(y + 1, 0), n + 1)) for y in range(-2, n + 2)]
    got = nm.binomial_sf(np.arange(-2, n + 2, dtype=float), n, p)
    for y, want, value in zip(range(-2, n + 2), exact, got):
        assert value == pytest.approx(float(want), rel=1e-12, abs=1e-300), y
    assert got[0] == got[1] == 1.0 and got[-1] == got[-2] == 0.0  # y < 0 and y >= n exactly


# --------------------------------------------------------------------------- files the user names


def test_read_text_decodes_utf8_sig_and_refuses_what_is_not_text(tmp_path):
    from bounds.numerics._checks import read_text

    f = tmp_path / "a.csv"
    f.write_bytes(b"\xef\xbb\xbf1,500\r\n")
    assert read_text("histogram", f) == "1,500\r\n"  # the BOM dropped, the line ends kept for the CSV reader
    f.write_bytes(b"1\n\xff\n")
    with pytest.raises(ValueError, match=r"^histogram: .* is not UTF-8 text \(byte 0xff at offset 2\)"):
        read_text("histogram", f)
    f.write_bytes(b"1\n" * 10)
    with pytest.raises(ValueError, match=r"^x: .* is larger than 19 bytes"):
        read_text("x", f, max_bytes=19)
    assert read_text("x", f, max_bytes=20) == "1\n" * 10


@pytest.mark.parametrize("G", [1, 2, 8, 64, 1024])
def test_guide_table_is_the_first_entry_above_each_cell_and_marks_sure_cells(G):
    # reference: the definition, by a search of each row at every cell's ends
    rng = np.random.default_rng(G)
    rows = np.sort(rng.random((5, 30)), axis=1)
    rows[1, 10:20] = rows[1, 10]  # a step spanning many entries
    rows[3] = np.sort(rng.integers(0, 65, 30)) / 64  # steps on cells' ends: F_i = (g + 1) / G is a sure cell
    rows[:, -1] = np.inf
    got = nm.guide_table(rows, G)
    for r, F in enumerate(rows):
        first = np.searchsorted(F, np.arange(G) / G, side="right")  # min{i : F_i > g / G}
        sure = F[first] >= np.arange(1, G + 1) / G
        np.testing.assert_array_equal(got[r], np.where(sure, first, -1 - first))
    np.testing.assert_array_equal(nm.guide_table(rows[2], G), got[2])  # a 1-d row: that row's guide


@pytest.mark.parametrize("F, G, name", [([0.5, np.inf], 3, "G"), ([0.5, np.inf], 0, "G"), ([0.5, 1.0], 4, "F"),
                                        ([], 4, "F"), ([[[np.inf]]], 4, "F"), ([10**400, np.inf], 4, "F"),
                                        ([np.inf], 2**63, "G"), ([[np.inf]] * 4, 2**25, "F")])
def test_guide_table_refuses_bad_input_by_name(F, G, name):
    with pytest.raises(ValueError, match=f"^{name} must"):
        nm.guide_table(F, G)
