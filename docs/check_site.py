"""Check a built documentation site against the package, as a reader would find it.

``python docs/check_site.py docs/_build/html`` exits non-zero, naming each problem, when

* a function, class or documented public method of a module's ``__all__`` has no entry on
  its module's API page;
* an entry renders fewer math elements than its docstring has formulas (``.. math::``
  directives and ``:math:`` roles), or a page shows reST or LaTeX markup as plain text;
* a notebook in ``notebooks/`` has no page, or its page shows no cell output or an error;
* a committed figure of ``figures/`` is missing from the gallery;
* a page would show raw TeX to a reader without network: it has math but loads no MathJax
  from the site itself (or the file is missing), loads a script from another host, or
  shows ``\\(``, ``\\[`` or ``$$`` outside its math elements.

MathJax itself runs in the reader's browser: what is checked here is that every formula
reaches the page inside a math element that the site's own MathJax typesets;
``render_check.py`` then renders the pages in a headless browser, offline, and checks
the typeset result.  The summary lists the public
functions whose docstring has no formula and the pages that still cite a source by its
file name rather than by paper, for their authors to judge.
"""

from __future__ import annotations

import inspect
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path[:0] = [str(ROOT), str(DOCS)]

import publicapi  # noqa: E402

MATH_CLASSES = {"math"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SKIPPED = frozenset({"script", "style", "pre"})  # code, not prose: markup there is meant to show


class Entries(HTMLParser):
    """For each element id of a page, how many math elements occur inside the ``<dl>``
    whose ``<dt>`` carries it (the entry of a documented object), and the page's prose."""

    def __init__(self, skipped: frozenset[str] = SKIPPED) -> None:
        super().__init__(convert_charrefs=True)
        self.skipped = skipped
        self.stack: list[str] = []
        self.open: list[tuple[str, int]] = []  # (id, depth of its <dl>)
        self.math: dict[str, int] = {}
        self.text: list[str] = []
        self.skip = 0
        self.in_math: int | None = None

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        if tag in self.skipped:
            self.skip += 1
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "dt" and attrs.get("id") and "dl" in self.stack:
            depth = len(self.stack) - 1 - self.stack[::-1].index("dl")  # closes with that <dl>
            self.open.append((attrs["id"], depth))
            self.math.setdefault(attrs["id"], 0)
        if MATH_CLASSES & set((attrs.get("class") or "").split()):
            for ident, _ in self.open:
                self.math[ident] += 1
            if self.in_math is None and tag not in VOID:
                self.in_math = len(self.stack)  # TeX for MathJax, not prose

    def handle_endtag(self, tag) -> None:
        if tag in self.skipped:
            self.skip = max(0, self.skip - 1)
        if tag in self.stack:
            while self.stack:
                closed = self.stack.pop()
                if closed == tag:
                    break
        self.open = [(ident, depth) for ident, depth in self.open if depth < len(self.stack)]
        if self.in_math is not None and len(self.stack) < self.in_math:
            self.in_math = None

    def handle_data(self, data) -> None:
        if not self.skip and self.in_math is None:
            self.text.append(data)


def parse(path: Path, skipped: frozenset[str] = SKIPPED) -> Entries:
    parser = Entries(skipped)
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


# markup that means a formula or a role was not rendered (outside code blocks it never
# reaches the text of a page)
OPAQUE_SOURCE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")  # see bounds.references.LEGACY_SOURCES
LEAKS = (".. math::", ":math:`", ":func:`", ":class:`", ":mod:`", "\\begin{", "$$")


def check_api(site: Path, problems: list[str], notes: list[str]) -> tuple[int, int, list[str]]:
    pages: dict[str, Entries] = {}
    with_math, total, no_formula = 0, 0, []
    for page, qualname, obj in publicapi.documented_objects():
        html = site / "_generated" / "api" / f"{page}.html"
        if page not in pages:
            if not html.exists():
                problems.append(f"{page}: no API page {html}")
                pages[page] = Entries()
                continue
            pages[page] = parse(html)
        entries = pages[page]
        total += 1
        if qualname not in entries.math:
            problems.append(f"{qualname}: no entry on {html.name}")
            continue
        doc = inspect.getdoc(obj) or ""
        formulas = doc.count(".. math::") + doc.count(":math:`")
        if formulas:
            with_math += 1
            if entries.math[qualname] < formulas:
                problems.append(f"{qualname}: its docstring has {formulas} formulas, its entry renders "
                                f"{entries.math[qualname]}")
        elif inspect.isfunction(obj) and qualname.count(".") == page.count(".") + 1:
            no_formula.append(qualname)
    for page, entries in pages.items():
        text = " ".join(entries.text)
        opaque = set(OPAQUE_SOURCE.findall(text))
        if opaque:
            notes.append(f"{page}: cites {len(opaque)} source(s) by file name, not by paper")
        for leak in LEAKS:
            if leak in text:
                problems.append(f"{page}.html shows unrendered markup {leak!r}")
    return total, with_math, no_formula


RAW_TEX = ("\\(", "\\[", "$$")


class Scripts(HTMLParser):
    """The ``src`` of every ``<script>`` of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sources: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        src = dict(attrs).get("src")
        if tag == "script" and src:
            self.sources.append(src)


def check_offline_math(site: Path, problems: list[str]) -> tuple[int, int]:
    """Pages with math, and of those how many load the site's own MathJax (all must)."""
    with_math = local = 0
    for page in sorted(site.rglob("*.html")):
        if {"_static", "_sources", "_modules"} & set(page.relative_to(site).parts):
            continue
        html = page.read_text(encoding="utf-8")
        name = page.relative_to(site).as_posix()
        scripts = Scripts()
        scripts.feed(html)
        remote = [src for src in scripts.sources if "://" in src or src.startswith("//")]
        for src in remote:
            problems.append(f"{name}: loads a script from the network ({src})")
        entries = parse(page, SKIPPED | {"code"})  # inline code may show TeX on purpose
        text = " ".join(entries.text)
        for raw in RAW_TEX:
            if raw in text:
                problems.append(f"{name}: shows raw TeX {raw!r} outside a math element")
        if 'class="math' not in html:
            continue
        with_math += 1
        mathjax = [src for src in scripts.sources if "mathjax" in src.lower() and src not in remote]
        if not mathjax:
            problems.append(f"{name}: has math but no MathJax of the site's own: offline it shows raw TeX")
        elif not all((page.parent / src.split("?")[0]).resolve().is_file() for src in mathjax):
            problems.append(f"{name}: its MathJax script is missing from the site ({', '.join(mathjax)})")
        else:
            local += 1
    return with_math, local


def check_notebooks(site: Path, problems: list[str]) -> list[str]:
    lines = []
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        html = site / "_generated" / "notebooks" / f"{nb.stem}.html"
        if not html.exists():
            problems.append(f"notebook {nb.name}: no page")
            continue
        text = html.read_text(encoding="utf-8")
        outputs = text.count('class="cell_output')
        images = text.count("<img")
        if outputs == 0:
            problems.append(f"notebook {nb.name}: its page shows no output (not executed?)")
        for marker in ('class="output traceback', 'class="output stderr', "ipythontb"):
            if marker in text:
                problems.append(f"notebook {nb.name}: its page shows an error or stderr ({marker})")
        lines.append(f"{nb.stem}: {outputs} outputs, {images} images")
    return lines


def check_gallery(site: Path, problems: list[str]) -> int:
    html = site / "_generated" / "gallery.html"
    text = html.read_text(encoding="utf-8") if html.exists() else ""
    shown = 0
    for meta in sorted((ROOT / "figures").glob("*.json")):
        png = meta.with_suffix(".png")
        if png.exists():
            if f"_images/{png.name}" in text and (site / "_images" / png.name).exists():
                shown += 1
            else:
                problems.append(f"figure {png.name}: not in the gallery")
    return shown


def main(argv: list[str]) -> int:
    site = Path(argv[1] if len(argv) > 1 else DOCS / "_build" / "html")
    if not (site / "index.html").exists():
        print(f"no built site at {site}")
        return 1
    problems: list[str] = []
    notes: list[str] = []
    total, with_math, no_formula = check_api(site, problems, notes)
    notebooks = check_notebooks(site, problems)
    figures = check_gallery(site, problems)
    math_pages, local = check_offline_math(site, problems)
    print(f"API: {total} documented objects, {with_math} with a formula, each rendered as math")
    print(f"offline math: {local} of {math_pages} pages with math load the site's own MathJax")
    print(f"notebooks: {'; '.join(notebooks)}")
    print(f"gallery: {figures} figures")
    if no_formula:
        print(f"public functions whose docstring has no formula ({len(no_formula)}): " + ", ".join(no_formula))
    for note in notes:
        print(f"note: {note}")
    for problem in problems:
        print(f"PROBLEM: {problem}")
    print(f"site check: {'failed' if problems else 'passed'} ({len(problems)} problems)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
