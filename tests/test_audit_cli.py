"""``bounds check`` as a referee uses it: statements found as typed, options that do not apply refused, wrapped
text with a legend, a progress bar on stderr, planted faults shown."""

import json

import pytest

from bounds import audit, cli
from bounds.audit.core import AuditResult


@pytest.mark.parametrize("key, label", [
    ("dame:Lemma S9", "Lemma S9"), ("dame:lemma s9", "Lemma S9"), ("S9", "Lemma S9"), ("s9", "Lemma S9"),
    ("(S71)", "(S70)–(S71)"), ("S70", "(S70)–(S71)"), ("dame:(S70)-(S71)", "(S70)–(S71)"),
    ("dame:(S70)–(S71)", "(S70)–(S71)"), ("rameshwar:eq. (10)", "eq. (9)-(11)"), ("rameshwar:EQ. (9)–(11)", "eq. (9)-(11)"),
    ("(S140)", "(S138)–(S141)"), ("kent:theorem 6", "Theorem 6"),
])
def test_statements_are_found_as_typed(key, label):
    assert audit.find(key).label == label


def test_unknown_and_ambiguous_keys_name_the_nearest_labels():
    with pytest.raises(ValueError, match="nearest: .*dame:Lemma S9"):
        audit.find("dame:Lemma S99")
    with pytest.raises(ValueError, match="dame:Theorem 1, kent:Theorem 1"):
        audit.find("Theorem 1")


@pytest.mark.parametrize("argv, option", [
    (["--statement", "S9", "--report", "x.md"], "--report"), (["--statement", "S9", "--only", "dame.lemma_s9"], "--only"),
    (["--atlas", "--only", "dame.lemma_s9"], "--only"), (["--atlas", "--report", "x.md"], "--report"),
    (["--show-fault"], "--show-fault"), (["--statement", "Theorem 1"], "--statement"),
])
def test_options_that_do_not_apply_are_refused(argv, option, capsys):
    assert cli.main(["check", *argv]) == 2
    assert option in capsys.readouterr().err


def test_statement_wraps_shows_faults_and_a_progress_bar(capsys):
    assert cli.main(["check", "--statement", "dame:Lemma S9", "--show-fault"]) == 0
    got = capsys.readouterr()
    assert all(len(line) <= 100 for line in got.out.splitlines())
    assert "under the fault 'the bound 6 tau shifted to 5 tau', dame.lemma_s9: fails" in got.out
    assert "domain: proved on a / m~ in (0, 1]" in got.out and "full text: --json" in got.out
    assert "checks" in got.err  # the bar, on stderr
    assert cli.main(["check", "--statement", "dame:Lemma S9", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert cli.main(["check", "--statement", "rameshwar:eq. (9)–(11)", "--json", "--show-fault"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["status"] == "discrepancy" and row["faults"][0]["status"] != "holds"


def test_atlas_text_has_a_legend_wraps_and_points_to_the_full_text(capsys, monkeypatch):
    fake = {c: AuditResult(c, "s", "claim", "m", "holds", {"domain": "d" * 150}) for c in audit.CHECKS}
    monkeypatch.setattr(audit, "cached", lambda ids, thorough=False: {i: fake[i] for i in ids})
    assert cli.main(["check", "--atlas", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("statuses: holds") and "partial (only a neighbour" in out and "kinds: checkable" in out
    assert all(len(line) <= 100 for line in out.splitlines())
    flat = " ".join(out.split())  # wrapping-independent
    assert "cummings:Theorem 4.1 [order] partial" in flat and "not checked: the theorem's variance bound" in flat
    assert "bounds check --atlas --json" in flat
    assert cli.main(["check", "--atlas", "--quiet", "--wide"]) == 0
    assert max(len(line) for line in capsys.readouterr().out.splitlines()) > 100
