"""Every file the package reads is the file the user named: no glob, no ``~``, no special file.

Each test builds decoy files whose data differ (user names and counts), names one file whose name
DuckDB or a shell would re-interpret, and checks that exactly that file's data arrive.
"""

from __future__ import annotations

import contextlib
import io
import os
import threading

import pytest

from bounds import advise, cli
from bounds.numerics._checks import check_file, read_text



def _write(path, users):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("user_id,value\n" + "".join(f"{u},1\n" for u in users))


@pytest.fixture
def decoys(tmp_path, monkeypatch):
    """``a[12].csv`` (2 users), ``a1.csv`` (3 users), ``a2.csv`` (4 users), ``$HOME/x.csv`` (5 users) and a
    folder literally named ``~`` holding ``x.csv`` (6 users); the working directory is ``tmp_path``."""
    home = tmp_path / "home"
    _write(tmp_path / "a[12].csv", ["p", "q"])
    _write(tmp_path / "a1.csv", ["b1", "b2", "b3"])
    _write(tmp_path / "a2.csv", ["c1", "c2", "c3", "c4"])
    _write(home / "x.csv", ["h1", "h2", "h3", "h4", "h5"])
    _write(tmp_path / "~" / "x.csv", ["t1", "t2", "t3", "t4", "t5", "t6"])
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("name, users", [("a[12].csv", 2), ("a1.csv", 3), ("./~/x.csv", 6), ("~/x.csv", 6)])
def test_records_read_the_literal_file(decoys, name, users):
    pytest.importorskip("duckdb")
    h = advise.records_histogram(name, user="user_id")
    assert h.n_users == users and h.records == users
    assert h.read is not None and h.read.source == name and h.read.lines == users and h.read.used == users


def test_records_glob_that_names_no_file_is_refused(decoys):
    pytest.importorskip("duckdb")
    for name in ("a*.csv", "a?.csv", "~/x.csv".replace("~", os.environ["HOME"]) + "*"):
        with pytest.raises(ValueError, match=r"^path: cannot read .*no such file"):
            advise.records_histogram(name, user="user_id")


def test_records_parquet_with_a_glob_name(decoys):
    pytest.importorskip("duckdb")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({"user_id": ["a", "b", "a"]}), "p[12].parquet")
    pq.write_table(pa.table({"user_id": ["x"] * 7}), "p1.parquet")
    h = advise.records_histogram("p[12].parquet", user="user_id")
    assert h.counts.tolist() == [1, 2] and h.users.tolist() == [1, 1]


def test_records_docstring_example(tmp_path):
    """The example of ``records_histogram``'s docstring (skipped there: the doctests run without DuckDB)."""
    pytest.importorskip("duckdb")
    f = tmp_path / "events.csv"
    f.write_text("user_id,value\na,1\nb,0\na,1\n,1\n")
    h = advise.records_histogram(str(f), user="user_id")
    assert (h.counts.tolist(), h.users.tolist(), h.unattributed) == ([1, 2], [1, 1], 1)
    assert h.read.describe() == f"{f}: 4 rows read, 3 used; dropped: 1 row without a user"


@pytest.mark.parametrize("reader", ["counts", "histogram"])
def test_text_readers_read_the_literal_file(decoys, reader):
    rows = {"h[12].csv": 2, "h1.csv": 30, "~/h.csv": 4, "home/h.csv": 500}  # users in the file
    for name, n in rows.items():
        (decoys / name).write_text("1,%d\n" % n if reader == "histogram" else "1\n" * n)
    load = advise.load_histogram if reader == "histogram" else advise.histogram
    for name in ("h[12].csv", "~/h.csv", "./~/h.csv"):
        h = load(name)
        assert h.n_users == rows[name.removeprefix("./")] and h.read.source == name


# --------------------------------------------------------------------------- special files


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.csv"
    os.mkfifo(path)
    return path


def _never_blocks(call):
    """Run ``call`` in a thread; it must finish within 20 s (a read of a FIFO with no writer never does)."""
    out: list = []

    def target():
        try:
            out.append(call())
        except BaseException as exc:  # noqa: BLE001 - returned to the test
            out.append(exc)

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(20)
    assert not t.is_alive(), "the read blocked"
    return out[0]


@pytest.mark.parametrize("call", [
    lambda p: advise.histogram(p),
    lambda p: advise.load_counts(p),
    lambda p: advise.load_histogram(p),
    lambda p: advise.records_histogram(p, user="u"),
    lambda p: read_text("x", p),
], ids=["histogram", "load_counts", "load_histogram", "records_histogram", "read_text"])
def test_special_files_are_refused_before_opening(fifo, tmp_path, call):
    for path, what in ((fifo, "FIFO"), ("/dev/null", "character device"), (tmp_path, "directory")):
        err = _never_blocks(lambda: call(path))
        assert isinstance(err, ValueError) and what in str(err), err
    err = _never_blocks(lambda: call("x" * 5000 + ".csv"))
    assert isinstance(err, ValueError) and "too long" in str(err)


def test_check_file_refuses_non_paths():
    for bad in (None, 3, b"x.csv", "", "a\0b"):
        with pytest.raises(ValueError, match="^f must be a file path"):
            check_file("f", bad)


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [
    ["cummings", "--eps", "1", "--counts"], ["rameshwar", "--eps", "1", "--counts"],
    ["advise", "--reps", "0", "--no-inverse", "--jobs", "1", "--counts"],
    ["advise", "--reps", "0", "--no-inverse", "--jobs", "1", "--histogram"],
])
def test_cli_refuses_a_fifo_by_option(fifo, argv):
    code, _, err = _never_blocks(lambda: _cli([*argv, str(fifo)]))
    assert code == 2 and "FIFO" in err and err.count("\n") == 1
    assert f": error: {'--histogram' if '--histogram' in argv else '--counts'}: " in err


# --------------------------------------------------------------------------- DuckDB's own errors, named


def test_duckdb_errors_name_the_path(tmp_path):
    pytest.importorskip("duckdb")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    good = tmp_path / "good.parquet"
    pq.write_table(pa.table({"user_id": ["a", "b", "a"] * 100}), good)
    data = good.read_bytes()
    (tmp_path / "parquet-named.csv").write_bytes(data)
    (tmp_path / "truncated.parquet").write_bytes(data[: len(data) // 2])
    (tmp_path / "binary.csv").write_bytes(bytes(range(256)) * 64)
    # a Parquet file named .csv is read by its content (PAR1), as Parquet: 2 users
    assert advise.records_histogram(tmp_path / "parquet-named.csv", user="user_id").n_users == 2
    (tmp_path / "csv-named.parquet").write_text("user_id\na\n")
    with pytest.raises(ValueError, match=r"^path: .*csv-named\.parquet' is named as Parquet but is not a Parquet"):
        advise.records_histogram(tmp_path / "csv-named.parquet", user="user_id")
    for name, kind in (("truncated.parquet", "Parquet"), ("binary.csv", "CSV")):
        with pytest.raises(ValueError) as err:
            advise.records_histogram(tmp_path / name, user="user_id")
        message = str(err.value)
        assert message.startswith(f"path: DuckDB cannot read {str(tmp_path / name)!r} as {kind}: "), message
        assert "\n" not in message and "bounds-records-" not in message  # one line; the private link never shown


def test_read_input_refuses_options_that_do_not_apply(tmp_path):
    from bounds.advise.inputs import read_input

    h = tmp_path / "h.csv"
    h.write_text("1,5\n")
    with pytest.raises(ValueError, match="^column names a column of counts; it does not apply to histogram"):
        read_input(histogram=h, column="n")
    with pytest.raises(ValueError, match="^user names the user column of records; it does not apply to histogram"):
        read_input(histogram=h, user="u")
    with pytest.raises(ValueError, match="^user names the user column of records; it does not apply to counts"):
        read_input(counts=[1, 2], user="u")
    with pytest.raises(ValueError, match="^column names a column of counts; it does not apply to records"):
        read_input(records=h, user="u", column="n")
    with pytest.raises(ValueError, match="^user: name the user column of records"):
        read_input(records=h)
    with pytest.raises(ValueError, match="^counts, histogram, records: give exactly one, got counts, histogram"):
        read_input(counts=[1], histogram=h)
    with pytest.raises(ValueError, match="^histogram: cannot read .*no such file"):
        read_input(histogram=tmp_path / "missing.csv")
    assert read_input(histogram=h).n_users == 5 and read_input(counts=[3, 0, 3]).zeros == 1


@pytest.mark.parametrize("name, users", [("a[12].csv", 2), ("./~/x.csv", 6), ("~/x.csv", 6)])
def test_values_read_the_literal_file(decoys, name, users):
    """``--records … --value`` reads the per-user sums of exactly the named file too."""
    pytest.importorskip("duckdb")
    from bounds.advise import values

    data = values.records_values(name, user="user_id", value="value", U=1.0)
    assert int(data.users.sum()) == users and data.counts.tolist() == [1] * users


def test_values_refuse_a_special_file(fifo):
    from bounds.advise import values

    with pytest.raises(ValueError, match="^path"):
        values.records_values(str(fifo), user="u", value="v", U=1.0)
