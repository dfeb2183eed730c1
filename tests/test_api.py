"""Modules talk through public names: no module under ``bounds/`` reads another bounds module's ``_private`` names.

Three patterns are refused (a module's own private names are always allowed, and dunder
names such as ``__version__`` are not private):

* ``module._name`` where ``module`` is bound to another bounds module
  (``from . import dame`` … ``dame._privacy``);
* ``from .x import _name`` (or ``from bounds.x import _name``);
* ``obj._name`` where ``_name`` is not defined anywhere in the reading module but is
  defined by another bounds module (an instance's private attribute or method, such as
  a size law's ``_sample`` read from ``dame``).

A private module (``bounds/sizes/_base.py``) is part of its package: a package and its
private modules are one unit and share their private names; every other module still sees
only their public names.
"""

from __future__ import annotations

import ast
from pathlib import Path


PACKAGE = Path(__file__).resolve().parent.parent / "bounds"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute name of ``from <level dots><target> import …`` written in ``module``."""
    if level == 0:
        return target or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _defined_privates(tree: ast.AST) -> set[str]:
    """Private names a module defines: functions, classes, attributes it assigns, fields it declares."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "__setattr__" and len(node.args) >= 2:
            key = node.args[1] if isinstance(node.args[0], ast.Name) and node.args[0].id == "object" else node.args[0]
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                names.add(key.value)
    return {n for n in names if _private(n)}


def _unit(module: str) -> str:
    """The module a name belongs to: a private submodule belongs to its package."""
    parts = module.split(".")
    while len(parts) > 1 and _private(parts[-1]):
        parts.pop()
    return ".".join(parts)


def violations(sources: dict[str, tuple[str, bool]], package: str = "bounds") -> list[tuple[str, int, str]]:
    """``(module, line, name)`` for every read of another bounds module's private name.

    ``sources`` maps a module's dotted name to ``(source text, is_package)``.
    """
    trees = {name: ast.parse(text) for name, (text, _) in sources.items()}
    defined: dict[str, set[str]] = {}
    for name, tree in trees.items():
        defined.setdefault(_unit(name), set()).update(_defined_privates(tree))
    found = []
    for name, tree in trees.items():
        is_package = sources[name][1]
        aliases: dict[str, str] = {}  # local name -> the bounds module it is bound to
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                origin = _resolve(name, is_package, node.level, node.module)
                if origin != package and not origin.startswith(package + "."):
                    continue
                for alias in node.names:
                    full = f"{origin}.{alias.name}"
                    if full in sources:
                        aliases[alias.asname or alias.name] = full
                    elif _private(alias.name) and _unit(origin) != _unit(name):
                        found.append((name, node.lineno, f"from {origin} import {alias.name}"))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in sources:
                        aliases[alias.asname or alias.name.split(".")[0]] = (
                            alias.name if alias.asname else alias.name.split(".")[0])
        unit = _unit(name)
        others = set().union(*(privs for other, privs in defined.items() if other != unit)) if len(defined) > 1 else set()
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and _private(node.attr)):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in aliases and _unit(aliases[node.value.id]) != unit:
                found.append((name, node.lineno, f"{aliases[node.value.id]}.{node.attr}"))
            elif node.attr not in defined[unit] and node.attr in others:
                owners = sorted(o for o, privs in defined.items() if o != unit and node.attr in privs)
                found.append((name, node.lineno, f"{node.attr} (defined in {', '.join(owners)})"))
    return sorted(set(found))


def package_sources() -> dict[str, tuple[str, bool]]:
    return {_module_name(p, PACKAGE): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for p in sorted(PACKAGE.rglob("*.py"))}


# ----------------------------------------------------------------------------- the checker itself


def _pkg(**modules: str) -> dict[str, tuple[str, bool]]:
    out = {"bounds": ("", True)}
    out.update({f"bounds.{k}": (v, False) for k, v in modules.items()})
    return out


def test_checker_finds_module_attribute():
    src = _pkg(a="_secret = 1\n", b="from . import a\nx = a._secret\ny = a.public\n")
    assert violations(src) == [("bounds.b", 2, "bounds.a._secret")]


def test_checker_finds_private_from_import():
    src = _pkg(a="def _f(): pass\n", b="from .a import _f\nfrom .a import g\n")
    assert violations(src) == [("bounds.b", 1, "from bounds.a import _f")]


def test_checker_finds_private_attribute_of_another_modules_class():
    src = _pkg(a="class Law:\n    def _sample(self): pass\n", b="def f(law):\n    return law._sample()\n")
    assert violations(src) == [("bounds.b", 2, "_sample (defined in bounds.a)")]


def test_checker_allows_own_privates_dunders_and_foreign_libraries():
    src = _pkg(
        a="import numpy as np\nclass C:\n    def __init__(self):\n        self._x = 1\n"
          "    def f(self, o):\n        return o._x + np.random._private\n",
        b="from . import a\nv = a.__name__\nimport bounds.a\nw = bounds.a.__doc__\n",
    )
    assert violations(src) == []


def test_checker_resolves_subpackages():
    src = {"bounds": ("", True), "bounds.estimators": ("", True),
           "bounds.estimators.dame": ("_privacy = 1\n", False),
           "bounds.simulate": ("from .estimators import dame\nx = dame._privacy\n", False),
           "bounds.estimators.kent": ("from . import dame\ny = dame._privacy\n", False)}
    assert violations(src) == [("bounds.estimators.kent", 2, "bounds.estimators.dame._privacy"),
                               ("bounds.simulate", 2, "bounds.estimators.dame._privacy")]


def test_checker_joins_a_package_and_its_private_modules():
    src = {"bounds": ("", True), "bounds.sizes": ("from ._base import _rebuild\n", True),
           "bounds.sizes._base": ("class Law:\n    def _sample(self): pass\ndef _rebuild(): pass\n", False),
           "bounds.sizes._tables": ("def f(law):\n    return law._sample()\n", False),
           "bounds.sizes.public": ("from ._base import _rebuild\n", False),
           "bounds.dame": ("from .sizes._base import _rebuild\nfrom . import sizes\nx = sizes._rebuild\n"
                           "def f(law):\n    return law._sample()\n", False)}
    assert violations(src) == [("bounds.dame", 1, "from bounds.sizes._base import _rebuild"),
                               ("bounds.dame", 3, "bounds.sizes._rebuild"),
                               ("bounds.dame", 5, "_sample (defined in bounds.sizes)"),
                               ("bounds.sizes.public", 1, "from bounds.sizes._base import _rebuild")]


# ----------------------------------------------------------------------------- the package


def test_no_module_reads_another_modules_private_names():
    sources = package_sources()
    found = violations(sources)

    def path(module: str) -> str:
        return module.replace(".", "/") + ("/__init__.py" if sources[module][1] else ".py")

    assert not found, "\n".join(f"{path(m)}:{line}: {what}" for m, line, what in found)


def test_no_source_holds_a_control_character():
    """A backslash escape in a non-raw string eats a formula's ``\\f`` or ``\\t`` (``\\frac`` rendered as a form
    feed and "rac"): no source of the package, its tests, benchmarks or docs holds a control character other
    than the newline."""
    root = PACKAGE.parent
    paths = [p for d in ("bounds", "tests", "benchmarks", "docs") for p in sorted((root / d).rglob("*.py"))]
    paths += [root / "README.md", root / "CHANGELOG.md"] + sorted((root / "docs").glob("*.md"))
    bad = [f"{p.relative_to(root)}:{n}: {line!r}" for p in paths if "_build" not in p.parts
           for n, line in enumerate(p.read_text(encoding="utf-8").split("\n"), 1)
           if any(c < " " and c != "\r" for c in line)]
    assert not bad, "\n".join(bad[:20])
