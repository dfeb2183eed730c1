"""No record lost, no integer through float: the text readers of bounds.advise.inputs.

The property tests write random counts and histograms with and without a byte-order mark, with LF or
CRLF line ends, with or without a header and with trailing blank lines, and check that the totals
read back are exactly the totals written (computed here from the generated integers) and that
``Histogram.read`` accounts for every line.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import advise
from bounds.advise import Histogram
from bounds.advise.inputs import MAX_USERS, ReadReport

BOM = "\ufeff"


def _file(tmp_path, lines: list[str], *, bom: bool, crlf: bool, blank: int) -> bytes:
    end = "\r\n" if crlf else "\n"
    text = (BOM if bom else "") + "".join(line + end for line in lines) + end * blank
    path = tmp_path / "data.csv"
    path.write_bytes(text.encode("utf-8"))
    return path


layout = st.fixed_dictionaries({"bom": st.booleans(), "crlf": st.booleans(), "header": st.booleans(),
                                "blank": st.integers(0, 3)})


@settings(max_examples=60, deadline=None)
@given(pairs=st.dictionaries(st.integers(1, 2**31 - 1), st.integers(1, 2**53), min_size=1, max_size=12),
       shape=layout)
def test_histogram_totals_are_exact(tmp_path_factory, pairs, shape):
    lines = (["count,users"] if shape["header"] else []) + [f"{d},{c}" for d, c in pairs.items()]
    path = _file(tmp_path_factory.mktemp("h"), lines, bom=shape["bom"], crlf=shape["crlf"], blank=shape["blank"])
    h = advise.load_histogram(path)
    assert h.n_users == sum(pairs.values())
    assert h.records == sum(d * c for d, c in pairs.items())
    assert dict(zip(h.counts.tolist(), h.users.tolist())) == pairs
    assert h.read == ReadReport(str(path), len(lines) + shape["blank"], len(pairs),
                                "count,users" if shape["header"] else None, shape["blank"])


@settings(max_examples=60, deadline=None)
@given(counts=st.lists(st.integers(0, 2**31 - 1), min_size=1, max_size=30).filter(any), shape=layout,
       column=st.booleans())
def test_counts_totals_are_exact(tmp_path_factory, counts, shape, column):
    if column:  # two columns: user ids and counts; the header names them
        lines = (["user,n"] if shape["header"] else []) + [f"u{i},{m}" for i, m in enumerate(counts)]
    else:
        lines = (["n"] if shape["header"] else []) + [str(m) for m in counts]
    path = _file(tmp_path_factory.mktemp("c"), lines, bom=shape["bom"], crlf=shape["crlf"], blank=shape["blank"])
    h = advise.histogram(path, column="n" if column and shape["header"] else None)
    positive = [m for m in counts if m > 0]
    assert h.n_users == len(positive) and h.zeros == len(counts) - len(positive)
    assert h.records == sum(counts)
    assert h.read.lines == len(lines) + shape["blank"] and h.read.used == len(counts)
    assert h.read.header == (lines[0] if shape["header"] else None) and h.read.blank == shape["blank"]


def test_a_bom_before_a_headerless_line_keeps_it(tmp_path):
    # 500 users with 1 record and 20 with 7: 520 users, 640 records
    for crlf in (False, True):
        path = _file(tmp_path, ["1,500", "7,20"], bom=True, crlf=crlf, blank=0)
        h = advise.load_histogram(path)
        assert (h.n_users, h.records, h.read.header) == (520, 640, None)
        c = _file(tmp_path, ["3", "4"], bom=True, crlf=crlf, blank=0)
        assert advise.histogram(c).records == 7
    # a file object (text or bytes) with a BOM too
    assert advise.load_histogram(io.StringIO(BOM + "1,500\n7,20\n")).n_users == 520
    assert advise.load_histogram(io.BytesIO((BOM + "1,500\n7,20\n").encode())).n_users == 520


def test_a_headerless_two_column_counts_file_keeps_its_first_line(tmp_path):
    path = _file(tmp_path, ["a,4", "b,1", "c,2"], bom=False, crlf=False, blank=0)
    h = advise.histogram(path)
    assert h.records == 7 and h.read.header is None and h.read.used == 3


def test_read_report_describes_every_dropped_line(tmp_path):
    path = _file(tmp_path, ["count,users", "1,5"], bom=True, crlf=True, blank=2)
    assert advise.load_histogram(path).read.describe() == (
        f"{path}: 4 lines read, 1 used; dropped: 1 header line (count,users), 2 blank lines")
    assert advise.histogram([1, 2]).read is None


def test_a_non_numeric_line_after_the_first_is_an_error_not_a_header(tmp_path):
    path = _file(tmp_path, ["1,5", "count,users", "2,3"], bom=False, crlf=False, blank=0)
    with pytest.raises(ValueError, match=r"^source: .*line 2: 'count,users' is not a 'count,users' row"):
        advise.load_histogram(path)


# --------------------------------------------------------------------------- integers stay integers


def test_users_past_2_53_are_exact_or_refused(tmp_path):
    big = 2**53
    path = _file(tmp_path, [f"1,{big}", f"2,{big}"], bom=False, crlf=False, blank=0)
    h = advise.load_histogram(path)
    assert h.n_users == 2 * big and h.records == 3 * big
    path = _file(tmp_path, [f"1,{big + 1}"], bom=False, crlf=False, blank=0)
    with pytest.raises(ValueError, match=r"^source users: at most 2\*\*53 users per count, got 9007199254740993"):
        advise.load_histogram(path)


def test_total_users_past_int64_are_refused_by_name():
    with pytest.raises(ValueError, match=r"above the supported 2\*\*63 - 1 \(MAX_USERS\)"):
        Histogram.of_pairs(np.arange(1, 1026), np.full(1025, 2**53))
    assert Histogram.of_pairs(np.arange(1, 1024), np.full(1023, 2**53)).n_users == 1023 * 2**53 <= MAX_USERS


def test_median_and_ranks_past_2_63_users():
    # 2**62 users with 1 record and 2**62 with 2: N = 2**63 (np.cumsum in int64 wraps here)
    h = Histogram(np.array([1, 2]), np.array([2**62, 2**62]))
    assert h.median() == 1.5
    assert h.largest(2**62) == 2 and h.largest(2**62 + 1) == 1
    assert h.at_least(1) == 2**63 and h.at_least(2) == 2**62
    odd = Histogram(np.array([1, 2, 3]), np.array([2**62, 1, 2**62]))
    assert odd.median() == 2.0


# --------------------------------------------------------------------------- the calculators' --counts


@pytest.mark.parametrize("command", ["cummings", "rameshwar"])
def test_counts_file_with_bom_and_crlf_keeps_every_count(tmp_path, capsys, command):
    import json

    from bounds import cli

    path = tmp_path / "k.txt"
    path.write_bytes(b"\xef\xbb\xbf3\r\n4, 5\r\n\r\n# end\r\n")
    assert cli.main([command, "--counts", str(path), "--eps", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["inputs"]["counts_read"] == {"lines": 4, "used": 2, "header": None, "blank": 1, "comment": 1}
    assert (out["inputs"]["k"] if command == "cummings" else out["counts"]) == [3, 4, 5]


# --------------------------------------------------------------------------- bounded work


def test_law_of_a_histogram_is_the_empirical_law_in_linear_time():
    import time
    from fractions import Fraction

    from bounds import sizes

    h = Histogram.of_counts([1, 1, 3, 5, 5, 5])
    law = h.law()
    assert law.pmf([1, 3, 5]).tolist() == sizes.empirical([1, 1, 3, 5, 5, 5]).pmf([1, 3, 5]).tolist()
    assert float(law.mean()) == float(Fraction(20, 6))
    J = 10**6  # 10**5 distinct counts took 73 s of CPU through one Fraction a count
    big = Histogram.of_pairs(np.arange(1, J + 1), np.full(J, 3))
    start = time.process_time()
    m = big.law()
    assert time.process_time() - start < 10  # CPU seconds (0.25 s measured)
    assert float(m.mean()) == pytest.approx((J + 1) / 2, rel=1e-12)


@pytest.mark.parametrize("J", [10**5, pytest.param(10**6, marks=pytest.mark.slow)])
def test_a_histogram_of_many_distinct_counts_is_read_in_linear_time(tmp_path, J):
    import time

    path = tmp_path / "h.csv"
    path.write_text("count,users\n" + "".join(f"{d},{d % 4 + 1}\n" for d in range(1, J + 1)))
    start = time.process_time()
    h = advise.load_histogram(path)
    assert time.process_time() - start < 3e-5 * J  # CPU seconds (3.4 s measured for 10**6 on a loaded machine)
    assert h.distinct == J and h.n_users == sum(d % 4 + 1 for d in range(1, J + 1))
    assert h.read.lines == J + 1 and h.read.used == J


def test_a_small_text_file_is_read_without_reserving_the_size_limit(tmp_path):
    # read_text once asked for MAX_TEXT_BYTES + 1 (2 GiB) in one read(): under an address-space limit a
    # 14-byte histogram raised MemoryError.  In a child with 1 GiB of address space beyond what it holds:
    import subprocess
    import sys

    path = tmp_path / "h.csv"
    path.write_text("\ufeff1,500\n7,20\n", encoding="utf-8")
    code = (
        "import resource, sys\n"
        "from bounds import advise\n"
        "size = int(next(l for l in open('/proc/self/status') if l.startswith('VmSize')).split()[1]) * 1024\n"
        "resource.setrlimit(resource.RLIMIT_AS, (size + 2**30, size + 2**30))\n"
        "print(advise.load_histogram(sys.argv[1]).n_users)\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "520"
