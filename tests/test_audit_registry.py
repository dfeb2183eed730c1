"""The statement atlas: every numbered statement has an entry, every entry's checks exist and run."""

import pytest

from bounds import audit


def labels(paper):
    return {e.label for e in audit.ENTRIES if e.paper == paper}


def test_every_numbered_statement_has_an_entry():
    dame = labels("dame")
    assert {f"Lemma S{i}" for i in range(1, 12)} <= dame
    assert {"Theorem 1", "Theorem 2", "Corollary 3", "H1", "H2", "H3", "(S135)", "(S146)", "(S147)"} <= dame
    assert {f"(S{i})" for i in range(20, 29)} <= dame
    kent = labels("kent")  # one shared counter: Theorem 1, Corollary 2, Propositions 3-5, Theorem 6, Lemma 7, ...
    assert {"Theorem 1", "Corollary 2", "Proposition 3", "Proposition 4", "Proposition 5", "Theorem 6", "Lemma 7",
            "Theorem 8", "Theorem 9", "Assumption 1", "Assumption 2"} <= kent
    assert {f"Lemma {i}" for i in (10, 11, 12, 14, 15, 16, 17, 18)} <= kent
    assert {"Lemma 2.1", "Lemma 4.2", "Lemma 5.2", "Lemma 5.3", "Lemma 5.4", "Theorem 4.1", "Theorem 5.1",
            "Corollary 5.5", "eq. (7)", "Example 1"} <= labels("cummings")
    assert {"Theorem II.1", "Lemma III.1", "Theorem III.1", "Lemma III.2", "eq. (9)-(11)"} <= labels("rameshwar")
    keys = [(e.paper, e.label) for e in audit.ENTRIES]
    assert len(keys) == len(set(keys))


def test_entries_name_registered_checks_and_kent_rows_carry_a_tag():
    for e in audit.ENTRIES:
        if e.kind == "structural":
            assert e.reason and not e.checks
        if e.kind == "quoted":
            assert e.reason
    assert all(e.confidence in ("", "V", "S", "R") for e in audit.ENTRIES)
    assert all(e.confidence for e in audit.ENTRIES if e.paper == "kent" and e.kind in ("checkable", "order"))


def test_at_least_90_percent_of_checkable_and_order_entries_are_covered():
    ce = [e for e in audit.ENTRIES if e.kind in ("checkable", "order")]
    assert sum(bool(e.checks or e.related) for e in ce) >= 0.9 * len(ce)


def test_atlas_rows_have_computed_statuses():
    rows = audit.atlas(paper="rameshwar")
    assert {r.status for r in rows} <= set(audit.ROW_STATUSES)
    by = {r.label: r for r in rows}
    assert by["eq. (12)"].status == "discrepancy" and by["Theorem III.1"].status == "holds"
    assert by["Definition II.1"].status == "unchecked"
    assert set(by["Theorem III.1"].as_dict()) >= {"paper", "label", "statement", "kind", "status", "checks", "evidence"}
    assert audit.find("dame:Lemma S9").checks == ("dame.lemma_s9",)
    with pytest.raises(ValueError, match="key"):
        audit.find("dame:Lemma S99")
    with pytest.raises(ValueError, match="paper"):
        audit.atlas(paper="nope")


@pytest.mark.parametrize("kwargs, name", [
    ({"paper": []}, "paper"), ({"paper": "nope"}, "paper"), ({"paper": "rameshwar", "label": 3}, "label"),
    ({"paper": "rameshwar", "label": "no such label"}, "label"),
    ({"paper": "rameshwar", "thorough": "yes"}, "thorough"), ({"paper": "rameshwar", "results": [1]}, "results"),
    ({"paper": "rameshwar", "results": {"rameshwar.eq12": 1}}, "results"),
])
def test_atlas_refuses_its_arguments_by_name(kwargs, name):
    with pytest.raises(ValueError, match=name):
        audit.atlas(**kwargs)


def test_find_and_page_refuse_what_is_not_theirs():
    with pytest.raises(ValueError, match="key"):
        audit.find(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rows"):
        audit.page([1, 2])  # type: ignore[list-item]


def test_statement_validation():
    with pytest.raises(ValueError, match="kind"):
        audit.Statement("dame", "X", "x", "maybe")
    with pytest.raises(ValueError, match="reason"):
        audit.Statement("dame", "X", "x", "quoted")
    with pytest.raises(ValueError, match="checks"):
        audit.Statement("dame", "X", "x", "checkable", ("dame.no_such_check",))
    with pytest.raises(ValueError, match="paper"):
        audit.Statement([], "X", "x", "checkable")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="label"):
        audit.Statement("dame", 3, "x", "checkable")  # type: ignore[arg-type]


def test_cli_atlas_statement_and_help(capsys):
    import json

    from bounds import cli

    assert cli.main(["check", "--statement", "dame:Lemma S9"]) == 0
    out = capsys.readouterr().out
    assert "dame:Lemma S9 [checkable] — holds" in out and "dame.lemma_s9: holds" in out
    assert all(len(line) <= 100 for line in out.splitlines())
    assert cli.main(["check", "--statement", "rameshwar:eq. (12)", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["status"] == "discrepancy" and row["checks"] == ["rameshwar.eq12"]
    assert cli.main(["check", "--statement", "dame:Lemma S99"]) == 2
    assert "--statement" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["check", "--help"])
    assert "dame.ub_ge_lb" in capsys.readouterr().out


@pytest.mark.slow
def test_cli_atlas_table_and_json(capsys, monkeypatch):
    import json

    from bounds import cli

    audit.atlas()  # the whole audit once (a minute of CPU), cached per process; both outputs format these rows
    assert cli.main(["check", "--atlas"]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 100 for line in out.splitlines())
    assert cli.main(["check", "--atlas", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == len(audit.ENTRIES)
    assert all({"paper", "label", "statement", "kind", "status", "checks", "evidence", "method", "domain",
                "checks_what", "not_checked", "related"} <= set(r) for r in rows)
    ce = [r for r in rows if r["kind"] in ("checkable", "order")]
    assert sum(r["status"] in ("holds", "discrepancy", "fails", "partial") and r["method"] != "none"
               and r["domain"] != "none" for r in ce) >= 0.9 * len(ce)
    by = {(r["paper"], r["label"]): r["status"] for r in rows}
    assert by["rameshwar", "eq. (9)-(11)"] == "discrepancy" and by["dame", "§4.2 (m̃ = 1)"] == "discrepancy"
    assert {r["label"]: r["status"] for r in rows if r["paper"] == "dame"}["Theorem 2"] == "discrepancy"


def test_the_readme_counts_the_checks_and_rows_there_are():
    import re
    from pathlib import Path

    text = Path(__file__).resolve().parents[1].joinpath("README.md").read_text(encoding="utf-8")
    assert int(re.search(r"(\d+) checks of the papers' statements", text).group(1)) == len(audit.CHECKS)
    assert int(re.search(r"`--atlas` lists (\d+) numbered statements", text).group(1)) == len(audit.ENTRIES)
