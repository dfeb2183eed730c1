"""bounds.references: the four papers, their short citations and the legacy source names."""

import dataclasses
import re
from pathlib import Path

import pytest

from bounds import references
from bounds.references import CUMMINGS, DAME, KENT, LEGACY_SOURCES, PAPERS, RAMESHWAR, Paper, cite_sources

ROOT = Path(__file__).resolve().parent.parent
OPAQUE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def test_short_forms():
    # the author lists printed on the first page of each paper
    assert [p.cite() for p in PAPERS] == [
        "Pla et al. (2024)", "Kent et al. (2024)", "Cummings et al. (2022)", "Rameshwar and Tandon (2025)"]


def test_records_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        DAME.year = 2000


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.key)
def test_arxiv_ids_and_bibtex(paper):
    assert paper.arxiv is None or re.fullmatch(r"\d{4}\.\d{5}", paper.arxiv)
    bib = paper.bibtex()
    assert bib.startswith(("@misc{" + paper.key + ",", "@inproceedings{" + paper.key + ","))
    assert bib.count("{") == bib.count("}")
    assert f"year = {{{paper.year}}}" in bib
    assert " and ".join(paper.authors) in bib


def test_bibtex_kind_follows_the_venue():
    assert CUMMINGS.bibtex().startswith("@inproceedings") and "booktitle = {Advances" in CUMMINGS.bibtex()
    assert KENT.bibtex().startswith("@misc") and "booktitle" not in KENT.bibtex()


def test_one_and_two_authors():
    assert Paper("k", ("A B",), "t", "arXiv preprint", 2001).cite() == "B (2001)"
    assert Paper("k", ("A B", "C D"), "t", "arXiv preprint", 2001).cite() == "B and D (2001)"


def test_every_opaque_name_in_the_repository_is_mapped():
    """The names still used by modules and figure metadata all have a paper (none is left dangling)."""
    found = set()
    for path in [*ROOT.glob("bounds/**/*.py"), *ROOT.glob("figures/*.json"), *ROOT.glob("notebooks/*.ipynb")]:
        found |= set(OPAQUE.findall(path.read_text(encoding="utf-8")))
    assert found <= set(LEGACY_SOURCES)


@pytest.mark.parametrize("text, expected", [
    ("``001_ac3274d7ce9a5d72.txt`` eq. (9)", "Pla et al. (2024), eq. (9)"),
    ("``001_ac3274d7ce9a5d72.txt``, Theorem 1, eq. (10).", "Pla et al. (2024), Theorem 1, eq. (10)."),
    ("003_5683c9a67e132c7f.txt eqs. (3)–(6), Algorithm 2.", "Cummings et al. (2022), eqs. (3)–(6), Algorithm 2."),
    ("``004_b0e838126fb19414.txt``; ``kent.md`` §3.", "Kent et al. (2024); ``kent.md`` §3."),
    ("(002_b4d2a69fdbee0cc3.txt)", "(Rameshwar and Tandon (2025))"),
    ("``001_ac3274d7ce9a5d72.txt`` and ``004_b0e838126fb19414.txt``",
     "Pla et al. (2024) and Kent et al. (2024)"),
    ("999_0000000000000000.txt", "999_0000000000000000.txt"),
])
def test_cite_sources(text, expected):
    assert cite_sources(text) == expected


def test_public_names():
    assert set(references.__all__) == {
        "Paper", "DAME", "KENT", "CUMMINGS", "RAMESHWAR", "PAPERS", "LEGACY_SOURCES", "cite_sources"}
    assert RAMESHWAR in PAPERS and len(set(PAPERS)) == 4
