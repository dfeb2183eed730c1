"""Sphinx configuration for the ``bounds`` documentation.

Pages that depend on the code are generated here, at build time, into
``_generated/`` (never committed): the API index (from ``__all__``, grouped by task),
the command-line reference (from the parser of ``bounds.cli``), the figure gallery
(from the committed ``figures/*.json``), the audit report (from ``bounds.audit``) and
copies of the notebooks, which myst-nb executes.

Formulas are typeset by MathJax shipped with the site (``sphinx-mathjax-offline``
copies it into ``_static/mathjax``): the pages need no network.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib
import importlib.util
import inspect
import json
import os
import pkgutil
import re
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
    "sphinx-mathjax-offline",  # MathJax 3 copied into the site: formulas render offline
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "README.md", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
html_theme = "furo"
html_title = f"bounds {release}"
# wide display math, tables and notebook outputs stay inside the text column: formulas a little too
# wide are scaled to fit (_static/fit-math.js), what still scrolls is shaded where it has more
# (_static/wide.css)
html_static_path = ["_static"]
html_css_files = ["wide.css"]
html_js_files = ["fit-math.js"]

# API reference: write_api() below writes one page per public module from its __all__
autodoc_member_order = "bysource"
# every cross-reference must resolve (a renamed function leaves no dead link behind); the
# standard library's base classes named by show-inheritance have no target without
# intersphinx, which needs the network
nitpicky = True
nitpick_ignore_regex = [("py:class", r"(abc|collections\.abc|enum|numbers|typing)\.\w+"),
                        # a base class from a dependency (no intersphinx offline)
                        ("py:class", r"matplotlib\.\w+(\.\w+)*"),
                        # a private module (``_name``) is not documented by design: a docstring may
                        # name it for contributors without a link
                        ("py:mod", r"bounds(\.\w+)*\._\w+")]
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
# the pages are static: a widget drawn where ipywidgets is installed cannot run there, and its
# manager would be loaded from the network (the site check refuses any remote script)
nb_ipywidgets_js: dict = {}


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


# The API reference by task: (page, title, what the modules are for, top-level modules).
# A module's submodules are listed on its own page; a public module in no group lands
# on the internals page, so a new module is never lost (and is moved here when it is meant
# for users).
API_GROUPS = [
    ("sizes", "Describe the users' dataset sizes",
     "The law of the number of samples a user holds, from a family or from observed counts.",
     ["bounds.sizes"]),
    ("theory", "Bounds and rates of the four papers",
     "Each paper's bounds, rates and optimal contribution limits, evaluated exactly (see "
     ":doc:`/decide` for which one applies to you).",
     ["bounds.dame", "bounds.kent", "bounds.cummings", "bounds.rameshwar"]),
    ("estimators", "Estimators and privacy mechanisms",
     "The papers' private estimators on sufficient statistics, and the mechanisms they use.",
     ["bounds.estimators", "bounds.mechanisms"]),
    ("simulation", "Simulate and compare with the bounds",
     "Monte Carlo risks of the estimators, and each simulated risk beside its bound or rate.",
     ["bounds.simulate", "bounds.checks"]),
    ("advice", "Advice for a real dataset",
     "A dataset's per-user counts through all four papers: contribution limits, errors, inverses.",
     ["bounds.advise"]),
    ("audit", "Audit the papers and draw their figures",
     "The numerical checks of the papers' claims, and the registry behind ``bounds figures``.",
     ["bounds.audit", "bounds.figures"]),
    ("tools", "Command line, reported quantities and citations",
     "The ``bounds`` command (see also :doc:`/_generated/cli`), the table of the quantities it reports "
     "with their kinds (:doc:`/glossary`) and the records of the four papers.",
     ["bounds.cli", "bounds.quantities", "bounds.references"]),
]
# modules a user never calls directly (shared helpers, the subcommands behind ``bounds``,
# the per-paper figure code behind ``bounds.figures``): documented for contributors on the
# internals page, out of the task groups (patterns as for fnmatch)
API_INTERNALS = ["bounds.numerics", "bounds.cli.*", "bounds.figures.*"]

# "See also" at the end of a module's page: the theory, simulation and advice pages that
# answer the next question (only modules that exist are linked)
_THEORY = ["bounds.dame", "bounds.kent", "bounds.cummings", "bounds.rameshwar"]
SEE_ALSO = {
    "bounds.sizes": (["bounds.dame", "bounds.advise"], ["decide"]),
    "bounds.dame": (["bounds.estimators.dame", "bounds.simulate", "bounds.checks", "bounds.advise"],
                    ["_generated/notebooks/dame", "decide", "glossary"]),
    "bounds.kent": (["bounds.estimators.kent", "bounds.simulate", "bounds.checks", "bounds.advise"],
                    ["_generated/notebooks/kent", "kent", "decide", "glossary"]),
    "bounds.cummings": (["bounds.estimators.cummings", "bounds.simulate", "bounds.checks", "bounds.advise"],
                        ["_generated/notebooks/cummings", "decide", "glossary"]),
    "bounds.rameshwar": (["bounds.estimators.rameshwar", "bounds.simulate", "bounds.checks", "bounds.advise"],
                         ["_generated/notebooks/rameshwar", "decide", "glossary"]),
    "bounds.estimators": (_THEORY + ["bounds.simulate"], []),
    "bounds.mechanisms": (["bounds.estimators", "bounds.simulate"], []),
    "bounds.simulate": (_THEORY + ["bounds.checks", "bounds.advise"], ["glossary"]),
    "bounds.checks": (_THEORY + ["bounds.simulate", "bounds.audit"], ["glossary"]),
    "bounds.advise": (_THEORY + ["bounds.simulate"], ["_generated/notebooks/advise", "decide", "glossary"]),
    "bounds.audit": (_THEORY + ["bounds.checks"], ["choices", "_generated/audit", "_generated/notebooks/audit"]),
    "bounds.figures": (_THEORY + ["bounds.audit"], ["_generated/gallery"]),
    "bounds.cli": (["bounds.advise", "bounds.audit", "bounds.figures"], ["_generated/cli"]),
}


def write_module_page(page: publicapi.ModulePage, submodules: list[str]) -> None:
    """The module docstring, a summary table, then every name of its ``__all__``: functions,
    classes (with their public methods), data (with the value when it is a short scalar),
    links for the names documented on another page, its submodules and "See also"."""
    modname = page.name
    lines = [modname, "=" * len(modname), "", f".. automodule:: {modname}", "   :no-members:", ""]
    module = importlib.import_module(modname)
    comments = dict(ModuleAnalyzer.for_module(modname).find_attr_docs())
    inherited = {}  # a package's data documented in its private modules (bounds.dame._inputs, ...)
    for info in pkgutil.iter_modules(getattr(module, "__path__", []), prefix=modname + "."):
        if info.name.rsplit(".", 1)[1].startswith("_"):
            for key, doc in ModuleAnalyzer.for_module(info.name).find_attr_docs().items():
                inherited.setdefault(key, doc)
    inherited = {key: doc for key, doc in inherited.items() if key not in comments}
    comments.update(inherited)
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
            if ("", name) in inherited:  # autodata reads the package's own module only: the text, here
                lines += [f"   {line}" for line in inherited[("", name)] if line.strip()] + [""]
    if page.reexported:
        lines += _section("Also exported")
        lines += [f"``{modname}`` also exports these names, documented on their own pages:", ""]
        lines += [f"* ``{name}``: :{role}:`{target}`" for name, role, target in page.reexported]
        lines.append("")
    if submodules:
        lines += _section("Submodules")
        lines += _summary_table([(f":mod:`{name}`", _module_summary(name)) for name in submodules])
        lines += [".. toctree::", "   :hidden:", ""] + [f"   {name}" for name in submodules] + [""]
    lines += _see_also(modname)
    (GENERATED / "api" / f"{modname}.rst").write_text("\n".join(lines))


def _module_summary(name: str) -> str:
    return _first_paragraph(inspect.getdoc(importlib.import_module(name)))


def _see_also(modname: str) -> list[str]:
    """The "See also" section of a module's page (a submodule inherits its parent's)."""
    key = next((name for name in sorted(SEE_ALSO, key=len, reverse=True)
                if modname == name or modname.startswith(name + ".")), None)
    if key is None:
        return []
    modules, docs = SEE_ALSO[key]
    links = [f"* :mod:`{name}` — {_module_summary(name)}" for name in modules
             if name != modname and importlib.util.find_spec(name) is not None]
    links += [f"* :doc:`/{doc}`" for doc in docs if (DOCS / doc).with_suffix(".rst").exists()
              or (DOCS / doc).with_suffix(".md").exists() or doc.startswith("_generated/")]
    return _section("See also") + links + [""] if links else []


def _parent(name: str, modules: list[str]) -> str | None:
    """The nearest public module that contains ``name`` (its page lists ``name``)."""
    parts = name.split(".")
    for end in range(len(parts) - 1, 1, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return None


def write_api() -> None:
    """The API index (the task groups with their modules' summaries), one page per group,
    the internals page, and one page per module (a package's page lists its submodules)."""
    (GENERATED / "api").mkdir(parents=True, exist_ok=True)
    pages = publicapi.pages()
    modules = list(pages)
    internal = [name for name in modules if any(fnmatch.fnmatchcase(name, pattern) for pattern in API_INTERNALS)]
    children: dict[str, list[str]] = {name: [] for name in modules}
    for name in modules:
        parent = _parent(name, modules)
        if parent is not None and name not in internal:
            children[parent].append(name)
    for page in pages.values():
        write_module_page(page, children[page.name])
    tops = [name for name in modules if _parent(name, modules) is None or name in internal]
    grouped = {name for _, _, _, names in API_GROUPS for name in names} - set(internal)
    groups = [(slug, title, text, [name for name in names if name in pages]) for slug, title, text, names in API_GROUPS]
    groups.append(("internals", "Internals",
                   "What the other modules are built on: validation, log-space arithmetic and the "
                   "float64 and mpmath backends, the subcommands behind ``bounds`` and the figure code "
                   "behind :mod:`bounds.figures`. A user never needs them; they are documented for "
                   "contributors.", [name for name in tops if name not in grouped]))
    lines = [
        "API reference",
        "=============",
        "",
        "The public modules, grouped by what you want to do.  Each module's page lists the names "
        "in its ``__all__``: the docstrings with their formulas, parameters, sources and examples.  "
        "New to the package? Start with :doc:`/getting-started` and :doc:`/decide`.",
        "",
    ]
    for slug, title, text, names in groups:
        if not names:
            continue
        group_lines = [title, "=" * len(title), "", text, ""]
        group_lines += _summary_table([(f":mod:`{name}`", _module_summary(name)) for name in names])
        group_lines += [".. toctree::", "   :hidden:", ""] + [f"   {name}" for name in names]
        (GENERATED / "api" / f"group-{slug}.rst").write_text("\n".join(group_lines) + "\n")
        lines += _section(title) + [text, ""]
        lines += _summary_table([(f":mod:`{name}`", _module_summary(name)) for name in names])
    lines += ["", ".. toctree::", "   :hidden:", ""]
    lines += [f"   api/group-{slug}" for slug, _, _, names in groups if names]
    (GENERATED / "api.rst").write_text("\n".join(lines) + "\n")


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of each subcommand, in the order ``--help`` lists them."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            found += [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]
    return found


def _default(action: argparse.Action) -> str:
    if action.default in (None, False, argparse.SUPPRESS) or action.required:
        return "required" if action.required else "—"
    return f"``{action.default}``"


def _options_literal(text: str) -> str:
    """Option names in a help text as literals (as prose, "--n" would become an en dash)."""
    return re.sub(r"(?<![\w`-])(--[a-z][\w-]*)", r"``\1``", text)


def write_cli() -> None:
    """The command-line reference, from ``bounds.cli.build_parser()``: every subcommand with
    its options table (option, default, help) and its ``--help`` text as printed."""
    cli = importlib.import_module("bounds.cli")
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"  # argparse wraps the help text at this width (the page's code width)
    try:
        parser = cli.build_parser()
        lines = [
            "Command-line reference",
            "======================",
            "",
            "Generated from the parser of the ``bounds`` command at every build, so it lists "
            "exactly the options of this version.  Every subcommand answers ``--help``; bad "
            "input gives one line naming the option and exit status 2.",
            "",
            ".. code-block:: text",
            "",
        ]
        lines += [f"   {line}".rstrip() for line in parser.format_help().splitlines()] + [""]
        for name, summary, sub in _subcommands(parser):
            title = f"bounds {name}"
            lines += [f".. _cli-{name}:", ""] + _section(title)
            if summary:
                lines += [_rst_text(summary[0].upper() + summary[1:]) + ".", ""]
            rows = []
            formatter = sub._get_formatter()
            for action in sub._actions:
                if isinstance(action, argparse._HelpAction) or not action.option_strings:
                    continue
                choices = f" (one of {', '.join(map(str, action.choices))})" if action.choices else ""
                rows.append((", ".join(f"``{o}``" for o in action.option_strings),
                             _default(action), _options_literal(_rst_text(formatter._expand_help(action)
                                                                           if action.help else "") + choices)))
            if rows:
                lines += [".. list-table::", "   :header-rows: 1", "   :widths: 22 13 65", "",
                          "   * - option", "     - default", "     - meaning"]
                for option, default, text in rows:
                    lines += [f"   * - {option}", f"     - {default}", f"     - {text or '—'}"]
                lines.append("")
            lines += [".. code-block:: text", ""]
            lines += [f"   {line}".rstrip() for line in sub.format_help().splitlines()] + [""]
    finally:
        if previous is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = previous
    (GENERATED / "cli.rst").write_text("\n".join(lines) + "\n")


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


def _verdict(verdict) -> str:
    """A figure's verdict as one line: the text itself, or, recorded as a mapping, its
    status followed by its explanation and the check that computed it."""
    if not isinstance(verdict, dict):
        return str(verdict)
    status = str(verdict.get("status") or verdict.get("verdict") or "")
    detail = str(verdict.get("text") or verdict.get("summary") or verdict.get("detail")
                 or verdict.get("reason") or "")
    check = verdict.get("check")
    words = status + (f": {detail}" if status and detail else detail)
    if check:
        words += f" (audit check {check})"
    return words or _value(verdict)


def write_gallery() -> None:
    """One section per committed figure: the PNG (scaled, so Sphinx links it to its full size), its ID and
    source, an optional ``caption`` and ``verdict`` (whether it reproduces its paper's claim, computed by
    the audit) from its JSON, and every other recorded setting."""
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
        verdict = meta.get("verdict")
        if isinstance(verdict, dict) and isinstance(verdict.get("text"), str):
            # the line already begins with its status; the caption is the same line again: shown once
            check = f" (check ``{verdict['check']}``)" if verdict.get("check") else ""
            lines += [f"   **Verdict:** {_rst_text(references.cite_sources(verdict['text']))}{check}", ""]
        else:
            if "caption" in meta:
                lines += [f"   {_rst_text(references.cite_sources(str(meta['caption'])))}", ""]
            if verdict:
                lines += [f"   **Verdict:** {_rst_text(references.cite_sources(_verdict(verdict)))}", ""]
        lines += [".. list-table::", "   :widths: 25 75", ""]
        for key, value in meta.items():
            if key in ("id", "title", "source", "caption", "verdict"):
                continue
            lines += [f"   * - ``{key}``", f"     - {_rst_text(references.cite_sources(_value(value)))}"]
        lines.append("")
    (GENERATED / "gallery.rst").write_text("\n".join(lines) + "\n")


def write_quantities() -> None:
    """The glossary's kinds of numbers and its table of reported quantities, from
    :mod:`bounds.quantities` (included by ``glossary.rst``; ``.inc``, so not pages of their own)."""
    quantities = importlib.import_module("bounds.quantities")
    kinds = [".. glossary::", ""]
    for kind in quantities.KINDS:
        kinds += [f"   {kind}", f"      {_rst_text(quantities.KIND_MEANINGS[kind])}", ""]
    (GENERATED / "kinds.inc").write_text("\n".join(kinds) + "\n")
    rows = [".. list-table::", "   :header-rows: 1", "   :widths: 26 20 54", "",
            "   * - quantity (symbol)", "     - kind", "     - what it is; source; CSV column and JSON key"]
    for q in quantities.QUANTITIES:
        kind = f":term:`{q.kind}`" + (f" ({_rst_text(q.label)})" if q.label != q.kind else "")
        rows += [f"   * - ``{q.name}`` ({_rst_text(q.symbol)})", f"     - {kind}",
                 f"     - {_rst_text(q.estimand)}; {_rst_text(references.cite_sources(q.source))}; ``{q.column}``"]
    (GENERATED / "quantities.inc").write_text("\n".join(rows) + "\n")


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
write_cli()
write_quantities()
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

