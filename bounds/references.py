r"""The four papers ``bounds`` implements, as citable records.

Each paper is a small frozen :class:`Paper`: authors, title, venue, year and
arXiv identifier, with a short form for prose (:meth:`Paper.cite`, e.g.
"Pla et al. (2024)") and a BibTeX entry (:meth:`Paper.bibtex`).  Docstrings
cite a paper by its short form followed by the equation, theorem or section,
e.g. "Pla et al. (2024), eq. (9)".

:data:`LEGACY_SOURCES` maps the opaque file names that earlier versions of
the package used as sources to the papers, and :func:`cite_sources` rewrites a
text that still uses them (the documentation build applies it to the figure
metadata and the audit report).

Examples
--------
>>> DAME.cite()
'Pla et al. (2024)'
>>> RAMESHWAR.cite()
'Rameshwar and Tandon (2025)'
>>> cite_sources("``001_ac3274d7ce9a5d72.txt``, eq. (9)")
'Pla et al. (2024), eq. (9)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Paper", "DAME", "KENT", "CUMMINGS", "RAMESHWAR", "PAPERS", "LEGACY_SOURCES", "cite_sources"]


@dataclass(frozen=True)
class Paper:
    """One paper, as cited by the package.

    Parameters
    ----------
    key : str
        BibTeX key.
    authors : tuple of str
        Full names, in the paper's order.
    title : str
        Title as printed on the paper.
    venue : str
        Where it appeared ("arXiv preprint" when only the preprint is known).
    year : int
        Year of that version.
    arxiv : str or None
        arXiv identifier, or ``None`` when it could not be verified.
    url : str or None
        A stable address of the paper.

    Examples
    --------
    >>> p = Paper("x", ("Ada Lovelace",), "Notes", "Preprint", 1843)
    >>> p.cite(), p.arxiv is None
    ('Lovelace (1843)', True)
    """

    key: str
    authors: tuple[str, ...]
    title: str
    venue: str
    year: int
    arxiv: str | None = None
    url: str | None = None

    @property
    def surnames(self) -> tuple[str, ...]:
        """The authors' family names (the last word of each name)."""
        return tuple(name.split()[-1] for name in self.authors)

    def cite(self) -> str:
        """The short form used in docstrings: one surname, two joined by "and",
        three or more as "First et al.", then the year in parentheses.

        Returns
        -------
        str
            For instance ``"Pla et al. (2024)"``.

        Examples
        --------
        >>> KENT.cite(), CUMMINGS.cite()
        ('Kent et al. (2024)', 'Cummings et al. (2022)')
        """
        names = self.surnames
        if len(names) == 1:
            who = names[0]
        elif len(names) == 2:
            who = f"{names[0]} and {names[1]}"
        else:
            who = f"{names[0]} et al."
        return f"{who} ({self.year})"

    def bibtex(self) -> str:
        """A BibTeX entry (``@inproceedings`` for a conference paper, ``@misc`` for a preprint).

        Returns
        -------
        str
            The entry, with ``eprint``/``archivePrefix`` when the arXiv id is known.

        Examples
        --------
        >>> print(DAME.bibtex().splitlines()[0])
        @misc{pla2024dame,
        """
        conference = not self.venue.startswith("arXiv")
        fields = [("author", " and ".join(self.authors)), ("title", "{" + self.title + "}")]
        if conference:
            fields.append(("booktitle", self.venue))
        fields.append(("year", str(self.year)))
        if self.arxiv is not None:
            fields += [("eprint", self.arxiv), ("archivePrefix", "arXiv")]
        if self.url is not None:
            fields.append(("url", self.url))
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        kind = "inproceedings" if conference else "misc"
        return f"@{kind}{{{self.key},\n{body}\n}}"


DAME = Paper(
    key="pla2024dame",
    authors=("Corentin Pla", "Hugo Richard", "Maxime Vono"),
    title="Distribution-Aware Mean Estimation under User-level Local Differential Privacy",
    venue="arXiv preprint",
    year=2024,
    arxiv="2410.09506",
    url="https://arxiv.org/abs/2410.09506",
)
"""Pla, Richard and Vono (2024): the DAME estimator, Theorems 1–2, Corollary 3."""

KENT = Paper(
    key="kent2024rate",
    authors=("Alexander Kent", "Thomas B. Berrett", "Yi Yu"),
    title="Rate Optimality and Phase Transition for User-Level Local Differential Privacy",
    venue="arXiv preprint",
    year=2024,
    arxiv="2405.11923",
    url="https://arxiv.org/abs/2405.11923",
)
"""Kent, Berrett and Yu (2024): minimax rates and phase transitions in the number of samples per user."""

CUMMINGS = Paper(
    key="cummings2022mean",
    authors=("Rachel Cummings", "Vitaly Feldman", "Audra McMillan", "Kunal Talwar"),
    title="Mean Estimation with User-level Privacy under Data Heterogeneity",
    venue="Advances in Neural Information Processing Systems (NeurIPS 2022)",
    year=2022,
    arxiv="2307.15835",
    url="https://arxiv.org/abs/2307.15835",
)
"""Cummings, Feldman, McMillan and Talwar (2022): weighted, truncated estimators for heterogeneous users."""

RAMESHWAR = Paper(
    key="rameshwar2025bounding",
    authors=("V. Arvind Rameshwar", "Anshoo Tandon"),
    title="Bounding User Contributions in the Worst-Case for User-Level Differentially Private Mean Estimation",
    venue="arXiv preprint",
    year=2025,
    arxiv="2502.04749",
    url="https://arxiv.org/abs/2502.04749",
)
"""Rameshwar and Tandon (2025), first arXiv version: the worst-case-optimal clipping threshold."""

PAPERS: tuple[Paper, ...] = (DAME, KENT, CUMMINGS, RAMESHWAR)
"""The four papers, in the order the package's modules present them."""

LEGACY_SOURCES: dict[str, Paper] = {
    "001_ac3274d7ce9a5d72.txt": DAME,
    "000_6a636822d3a3248f.txt": DAME,
    "004_b0e838126fb19414.txt": KENT,
    "003_5683c9a67e132c7f.txt": CUMMINGS,
    "002_b4d2a69fdbee0cc3.txt": RAMESHWAR,
}
"""Opaque source names used by earlier docstrings and figure metadata → the paper each one is."""

_LEGACY = re.compile(r"(``|)(" + "|".join(re.escape(name) for name in LEGACY_SOURCES) + r")\1(,)?")
_NO_COMMA = re.compile(r"$|\s*$|\s*[)\];:.—–]|\s+and\b|\s*\n")


def cite_sources(text: str) -> str:
    """Replace every opaque source name in ``text`` (with or without ``````) by the
    paper's short citation followed by a comma, so "``001_….txt`` eq. (9)" and
    "``001_….txt``, eq. (9)" both read "Pla et al. (2024), eq. (9)".  A name at
    the end of a line, before "and", a dash or a closing punctuation mark gets no
    comma.

    Parameters
    ----------
    text : str
        Any text: a docstring, a figure's ``source`` field, the audit report.

    Returns
    -------
    str
        ``text`` with every mapped name replaced; unmapped names are left alone.

    Examples
    --------
    >>> cite_sources("002_b4d2a69fdbee0cc3.txt §IV-C, Fig. 1")
    'Rameshwar and Tandon (2025), §IV-C, Fig. 1'
    >>> cite_sources("heterogeneous users (003_5683c9a67e132c7f.txt)")
    'heterogeneous users (Cummings et al. (2022))'
    >>> cite_sources("``004_b0e838126fb19414.txt`` — *Rate Optimality*")
    'Kent et al. (2024) — *Rate Optimality*'
    >>> cite_sources("no source here")
    'no source here'
    """

    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {text!r}")

    def replace(match: re.Match[str]) -> str:
        citation = LEGACY_SOURCES[match.group(2)].cite()
        return citation if _NO_COMMA.match(text, match.end()) else citation + ","

    return _LEGACY.sub(replace, text)
