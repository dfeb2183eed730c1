"""Sphinx configuration for the ``bounds`` documentation.

Pages that depend on the code are generated here, at build time, into
``_generated/`` (never committed): the API index (from ``__all__``), the figure
gallery (from the committed ``figures/*.json``), the audit report (from
``bounds.audit``) and copies of the notebooks, which myst-nb executes.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
GENERATED = DOCS / "_generated"
sys.path[:0] = [str(ROOT), str(DOCS)]
# the notebook kernels import the same source tree as the build; tqdm's notice that
# ipywidgets is absent (the pages are static, widgets could not run there) is not an output
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [os.environ.get("PYTHONWARNINGS"),
                                                      "ignore:IProgress not found"]))

import bounds  # noqa: E402
from bounds import references  # noqa: E402

import publicapi  # noqa: E402
from sphinx.pycode import ModuleAnalyzer  # noqa: E402

project = "bounds"
author = "the bounds developers"
copyright = "the bounds developers"
release = bounds.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "README.md", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
html_theme = "furo"
html_title = f"bounds {release}"

# API reference: write_api() below writes one page per public module from its __all__
autodoc_member_order = "bysource"
# every cross-reference must resolve (a renamed function leaves no dead link behind); the
# standard library's base classes named by show-inheritance have no target without
# intersphinx, which needs the network
nitpicky = True
nitpick_ignore_regex = [("py:class", r"(abc|collections\.abc|enum|numbers|typing)\.\w+")]
autodoc_typehints = "none"  # numpydoc renders the types written in the docstrings
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# notebooks are committed without outputs and executed at every build ("force", not a
# cache: a cached output would not see a change in the package), each cell within
# nb_execution_timeout seconds; an error, or anything written to stderr (a warning leaks
# a path of the machine that built the page), fails the build
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
nb_execution_mode = "force"
nb_execution_timeout = 180
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
nb_output_stderr = "warn"


def _section(title: str) -> list[str]:
    return [title, "-" * len(title), ""]


def _first_paragraph(doc: str | None) -> str:
    """A docstring's summary: its whole first paragraph (a first sentence cut at "eq." would
    be wrong)."""
    lines = []
    for line in (doc or "").strip().splitlines():
        if not line.strip():
            break
        lines.append(line.strip())
    return " ".join(lines)


def _summary_table(rows: list[tuple[str, str]]) -> list[str]:
    lines = [".. list-table::", "   :widths: 30 70", "   :class: api-summary", ""]
    for ref, text in rows:
        lines += [f"   * - {ref}", f"     - {text or '(no description)'}"]
    return lines + [""]


def write_module_page(page: publicapi.ModulePage) -> None:
    """The module docstring, a summary table, then every name of its ``__all__``: functions,
    classes (with their public methods), data (with the value when it is a short scalar) and
    links for the names documented on another page."""
    modname = page.name
    lines = [modname, "=" * len(modname), "", f".. automodule:: {modname}", "   :no-members:", ""]
    module = importlib.import_module(modname)
    comments = ModuleAnalyzer.for_module(modname).find_attr_docs()
    rows = [(f":func:`~{modname}.{name}`", _first_paragraph(inspect.getdoc(getattr(module, name))))
            for name in page.functions]
    rows += [(f":class:`~{modname}.{name}`", _first_paragraph(inspect.getdoc(getattr(module, name))))
             for name in page.classes]
    rows += [(f":data:`~{modname}.{name}`", _first_paragraph("\n".join(comments.get(("", name), []))))
             for name, _ in page.data]
    if rows:
        lines += [".. rubric:: Summary", ""] + _summary_table(rows)
    if page.functions:
        lines += _section("Functions")
        for name in page.functions:
            lines += [f".. autofunction:: {modname}.{name}", ""]
    if page.classes:
        lines += _section("Classes")
        for name in page.classes:
            lines += [f".. autoclass:: {modname}.{name}", "   :members:", "   :show-inheritance:", ""]
    if page.data:
        lines += _section("Data")
        for name, obj in page.data:
            lines.append(f".. autodata:: {modname}.{name}")
            if not isinstance(obj, (bool, int, float, str)) or len(repr(obj)) > 60:
                lines.append("   :no-value:")
            lines.append("")
    if page.reexported:
        lines += _section("Also exported")
        lines += [f"``{modname}`` also exports these names, documented on their own pages:", ""]
        lines += [f"* ``{name}``: :{role}:`{target}`" for name, role, target in page.reexported]
        lines.append("")
    (GENERATED / "api" / f"{modname}.rst").write_text("\n".join(lines))


def write_api() -> None:
    """The API index (modules with their one-line summaries) and one page per module."""
    (GENERATED / "api").mkdir(parents=True, exist_ok=True)
    pages = publicapi.pages()
    for page in pages.values():
        write_module_page(page)
    lines = [
        "API reference",
        "=============",
        "",
        "One page per public module, listing the names in the module's ``__all__``: the "
        "docstrings with their formulas, parameters, sources and examples.",
        "",
    ]
    lines += _summary_table([(f":mod:`{name}`", _first_paragraph(inspect.getdoc(importlib.import_module(name))))
                             for name in pages])
    lines += ["", ".. toctree::", "   :hidden:", ""]
    lines += [f"   api/{name}" for name in pages]
    (GENERATED / "api.rst").write_text("\n".join(lines) + "\n")


def _value(value) -> str:
    if isinstance(value, list):
        if len(value) > 6:
            return f"{len(value)} values from {value[0]:.4g} to {value[-1]:.4g}" if all(
                isinstance(v, (int, float)) for v in value) else f"{len(value)} values"
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value(v)}" for k, v in value.items())
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _rst_text(text: str) -> str:
    """Plain text for a reST table cell: every character reST could read as markup escaped."""
    return "".join("\\" + c if c in "\\`*_|[]" else c for c in text)


def write_gallery() -> None:
    """One section per committed figure: the PNG (scaled, so Sphinx links it to its full size), its ID and
    source, an optional ``caption`` from its JSON, and every other recorded setting."""
    target = GENERATED / "figures"
    target.mkdir(parents=True, exist_ok=True)
    lines = [
        "Figure gallery",
        "==============",
        "",
        "The figures committed in ``figures/``, each beside the settings recorded in its JSON file "
        "when it was computed (``bounds figures`` regenerates them; the CSV beside each PNG holds the "
        "plotted data).  Click a figure for its full size.",
        "",
    ]
    for meta_path in sorted((ROOT / "figures").glob("*.json")):
        meta = json.loads(meta_path.read_text())
        png = meta_path.with_suffix(".png")
        if not png.exists():
            continue
        shutil.copy2(png, target / png.name)
        title = str(meta.get("title", meta_path.stem))
        source = references.cite_sources(str(meta.get("source", "")))
        heading = _rst_text(title)
        lines += [f".. _figure-{meta_path.stem}:", "", heading, "-" * len(heading), "",
                  f".. figure:: figures/{png.name}", "   :width: 100%",
                  f"   :alt: {heading}", "",
                  f"   ``{meta_path.stem}`` — source: {_rst_text(source)}", ""]
        if "caption" in meta:
            lines += [f"   {_rst_text(references.cite_sources(str(meta['caption'])))}", ""]
        lines += [".. list-table::", "   :widths: 25 75", ""]
        for key, value in meta.items():
            if key in ("id", "title", "source", "caption"):
                continue
            lines += [f"   * - ``{key}``", f"     - {_rst_text(references.cite_sources(_value(value)))}"]
        lines.append("")
    (GENERATED / "gallery.rst").write_text("\n".join(lines) + "\n")


def write_audit() -> None:
    audit = importlib.import_module("bounds.audit")
    results = audit.run()
    text = references.cite_sources(audit.report(results))
    (GENERATED / "audit.md").write_text(text)
    rows = audit.atlas(results={r.id: r for r in results})
    (GENERATED / "atlas.md").write_text(references.cite_sources(audit.page(rows)))


def copy_notebooks() -> None:
    target = GENERATED / "notebooks"
    target.mkdir(parents=True, exist_ok=True)
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        shutil.copy2(nb, target / nb.name)


if GENERATED.exists():
    shutil.rmtree(GENERATED)
GENERATED.mkdir()
write_api()
write_gallery()
write_audit()
copy_notebooks()


def _no_type_docstring(app, what, name, obj, options, lines) -> None:
    """A datum without a doc comment would show its type's docstring ("Built-in mutable
    sequence...", "int([x]) -> integer"): show the type instead."""
    if what not in ("data", "attribute") or not lines:
        return
    type_doc = inspect.getdoc(type(obj)) or ""
    if type_doc and lines[0].strip() == type_doc.splitlines()[0].strip():
        kind = type(obj)
        shown = (f":class:`~{kind.__module__}.{kind.__qualname__}`" if kind.__module__.startswith("bounds")
                 else f"``{kind.__name__}``")
        lines[:] = [f"Type {shown}."]


def setup(app) -> None:
    app.connect("autodoc-process-docstring", _no_type_docstring, priority=400)  # before numpydoc

