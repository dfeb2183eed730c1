"""Sphinx configuration for the ``bounds`` documentation.

Pages that depend on the code are generated here, at build time, into
``_generated/`` (never committed): the API index (from ``__all__``), the figure
gallery (from the committed ``figures/*.json``), the audit report (from
``bounds.audit``) and copies of the notebooks, which myst-nb executes.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
GENERATED = DOCS / "_generated"
sys.path.insert(0, str(ROOT))
# the notebook kernels import the same source tree as the build
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))

import bounds  # noqa: E402
from bounds import references  # noqa: E402

project = "bounds"
author = "the bounds developers"
copyright = "the bounds developers"
release = bounds.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_nb",
]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "README.md", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
html_theme = "furo"
html_title = f"bounds {release}"

# API reference: one page per public module, members from each module's __all__
autosummary_generate = True
autosummary_ignore_module_all = False
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "none"  # numpydoc renders the types written in the docstrings
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# notebooks are committed without outputs and executed at build time
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
nb_execution_mode = "force"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True


def public_modules() -> list[str]:
    """Every public module and subpackage of ``bounds`` (no ``_name`` anywhere in the path)."""
    names = []
    for info in pkgutil.walk_packages(bounds.__path__, prefix="bounds."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts[1:]):
            continue
        names.append(info.name)
    return sorted(names)


def write_api() -> None:
    lines = [
        "API reference",
        "=============",
        "",
        "One page per public module; each lists the names in the module's ``__all__``.",
        "",
        ".. currentmodule:: bounds",
        "",
        ".. autosummary::",
        "   :toctree: api",
        "",
    ]
    lines += [f"   {name.removeprefix('bounds.')}" for name in public_modules()]
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


def write_gallery() -> None:
    target = GENERATED / "figures"
    target.mkdir(parents=True, exist_ok=True)
    lines = [
        "Figure gallery",
        "==============",
        "",
        "The figures committed in ``figures/``, each beside the settings recorded in its JSON file "
        "when it was computed (``bounds figures`` regenerates them; the CSV beside each PNG holds the "
        "plotted data).",
        "",
    ]
    for meta_path in sorted((ROOT / "figures").glob("*.json")):
        meta = json.loads(meta_path.read_text())
        png = meta_path.with_suffix(".png")
        if not png.exists():
            continue
        shutil.copy2(png, target / png.name)
        title = meta.get("title", meta_path.stem)
        lines += [f".. _figure-{meta_path.stem}:", "", title, "-" * len(title), "",
                  f".. figure:: figures/{png.name}", "   :width: 100%", "",
                  f"   ``{meta_path.stem}`` — source: {references.cite_sources(str(meta.get('source', '')))}", "",
                  ".. list-table::", "   :widths: 25 75", ""]
        for key, value in meta.items():
            if key in ("id", "title", "source"):
                continue
            text = references.cite_sources(_value(value)).replace("*", r"\*").replace("|", r"\|")
            lines += [f"   * - ``{key}``", f"     - {text}"]
        lines.append("")
    (GENERATED / "gallery.rst").write_text("\n".join(lines) + "\n")


def write_audit() -> None:
    audit = importlib.import_module("bounds.audit")
    text = references.cite_sources(audit.report(audit.run()))
    (GENERATED / "audit.md").write_text(text)


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
