"""The audit's documentation pages: formulas as balanced ``$…$`` math, no raw TeX markup outside it, the
rest escaped; the stored statements (what the terminal prints) stay plain Unicode."""

import re

import pytest

from bounds import audit
from bounds.audit.core import CHECKS, result
from bounds.audit.markup import FORMULAS, md

_DOLLAR = re.compile(r"(?<!\\)\$")


def _outside_math(line):
    """The parts of one Markdown line outside its ``$…$`` spans, and the spans (asserting balance)."""
    code_free = re.sub(r"`[^`]*`", "", line)
    marks = [m.start() for m in _DOLLAR.finditer(code_free)]
    assert len(marks) % 2 == 0, f"unbalanced $ in: {line}"
    spans = [code_free[a + 1:b] for a, b in zip(marks[::2], marks[1::2])]
    cut, last = [], 0
    for a, b in zip(marks[::2], marks[1::2]):
        cut.append(code_free[last:a])
        last = b + 1
    cut.append(code_free[last:])
    return "".join(cut), spans


def _assert_page_math(text):
    n = 0
    for line in text.splitlines():
        rest, spans = _outside_math(line)
        assert not re.search(r"[\^_]\{", rest), f"raw TeX markup outside $…$ in: {line}"
        for s in spans:
            n += 1
            assert s and s == s.strip(), f"a $…$ span must not start or end with a space: {s!r}"
            assert "|" not in s, f"a pipe inside math breaks the table: {s!r}"
            depth = 0
            for ch in re.sub(r"\\[{}]", "", s):
                depth += {"{": 1, "}": -1}.get(ch, 0)
                assert depth >= 0, f"unbalanced braces in {s!r}"
            assert depth == 0, f"unbalanced braces in {s!r}"
    return n


def _all_results():
    """A result for every registered check, without running them (formatting never computes)."""
    return {c: result(c, "holds") for c in CHECKS}


def test_atlas_page_renders_every_formula_as_math():
    text = audit.page(audit.atlas(results=_all_results()))
    n = _assert_page_math(text)
    assert n >= 13 + 6  # the statements' e^{…} and the checks' claims, at least
    assert "$R \\ge \\max_a c_1 e^{-c_2 n\\alpha^2 P(m>a)^2}" in text


def test_audit_report_renders_every_formula_as_math():
    results = list(_all_results().values()) + audit.run(["dame.constants", "kent.lemma16"])
    assert _assert_page_math(audit.report(results)) >= 6


def test_every_formula_is_used_and_is_tex():
    texts = [f for e in audit.ENTRIES for f in (e.statement, e.checks_what, e.not_checked)]
    texts += [c.claim for c in CHECKS.values()] + [w for c in CHECKS.values() for w, _ in c.faults]
    for plain, tex in FORMULAS.items():
        assert any(plain in t for t in texts), f"{plain!r} is in no statement or claim"
        assert "$" not in tex and "|" not in tex and not re.search(r"[−²α-ω]", tex), tex


def test_terminal_text_stays_plain_unicode():
    s = audit.find("dame:Theorem 1").statement
    assert "$" not in s and "\\" not in s and "e^{−c2 nα²" in s


@pytest.mark.parametrize("text, expected", [
    ("cost $5 * 2", "cost \\$5 \\* 2"),
    ("a | b < c", "a \\| b \\< c"),
    ("w_i and _x_ and T*", "w_i and \\_x\\_ and T\\*"),
    ("2e^{−iτ²/2} ≥ 1/2", "2e^{−iτ²/2} ≥ 1/2"),  # not a registered formula: left as typed
    ("c2 = 24", "$c_2 = 24$"),
])
def test_md_escapes_plain_text(text, expected):
    assert md(text) == expected
