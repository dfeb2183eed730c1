"""The public names of ``bounds``, as the API reference documents them.

Shared by ``conf.py`` (which writes one page per module from this) and ``check_site.py``
(which checks the built pages against it), so that both read the package the same way:

* a public module is any module or subpackage of ``bounds`` with no ``_name`` in its path,
  found by walking the package, so a new module needs no edit of the docs;
* its public names are its ``__all__`` (without one: its own functions and classes);
* each function or class is documented once, on the page of the public module that defines
  it; a module that re-exports it links there.  An object defined in a private module, and a
  datum exported by several modules, is documented by the first public module (fewest dots,
  then alphabetical) that exports it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field
from types import ModuleType

import bounds


def _raise(name: str) -> None:
    raise ImportError(f"cannot import {name} while collecting the API reference")


def public_modules() -> list[str]:
    """Every public module and subpackage of ``bounds``, sorted by name."""
    names = []
    for info in pkgutil.walk_packages(bounds.__path__, prefix="bounds.", onerror=_raise):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


def public_names(module: ModuleType) -> list[str]:
    """The module's ``__all__``; without one, its own public functions and classes."""
    if hasattr(module, "__all__"):
        return [name for name in module.__all__ if not name.startswith("__")]
    return [name for name, obj in vars(module).items()
            if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
            and getattr(obj, "__module__", None) == module.__name__]


def _assigned(module: ModuleType) -> set[str]:
    """The names a module assigns at top level (where a datum's doc comment can be)."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError):
        return set()
    names = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        names |= {target.id for target in targets if isinstance(target, ast.Name)}
    return names


def _is_code(obj: object) -> bool:
    return inspect.isclass(obj) or inspect.isroutine(obj)


def _has_identity(obj: object) -> bool:
    """Whether two modules exporting ``obj`` export the same thing (not an equal small int)."""
    return not isinstance(obj, (bool, int, float, complex, str, bytes, type(None)))


@dataclass
class ModulePage:
    """What one module's page shows."""

    name: str
    functions: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    data: list[tuple[str, object]] = field(default_factory=list)
    reexported: list[tuple[str, str, str]] = field(default_factory=list)  # (name, role, target)


def pages() -> dict[str, ModulePage]:
    """One :class:`ModulePage` per public module, every function and class on exactly one page."""
    modules = public_modules()
    loaded = {name: importlib.import_module(name) for name in modules}
    exporters: dict[int, list[tuple[str, str]]] = {}
    for modname in sorted(modules, key=lambda name: (name.count("."), name)):
        for name in public_names(loaded[modname]):
            exporters.setdefault(id(getattr(loaded[modname], name)), []).append((modname, name))

    def owner(obj: object) -> tuple[str, str]:
        """(module, name) of the one page that documents ``obj``: the module that defines
        it (for a datum, assigns it, where its doc comment is), else the first exporter."""
        entries = exporters[id(obj)]
        if _is_code(obj):
            home = getattr(obj, "__module__", None)
            return next((entry for entry in entries if entry[0] == home), entries[0])
        return next((entry for entry in entries if entry[1] in _assigned(loaded[entry[0]])), entries[0])

    result = {}
    for modname in modules:
        page = ModulePage(modname)
        for name in public_names(loaded[modname]):
            obj = getattr(loaded[modname], name)
            where, as_name = owner(obj) if (_is_code(obj) or _has_identity(obj)) else (modname, name)
            if inspect.ismodule(obj):
                page.reexported.append((name, "mod", obj.__name__))
            elif where != modname:
                role = "class" if inspect.isclass(obj) else "func" if _is_code(obj) else "data"
                page.reexported.append((name, role, f"{where}.{as_name}"))
            elif inspect.isclass(obj):
                page.classes.append(name)
            elif _is_code(obj):
                page.functions.append(name)
            else:
                page.data.append((name, obj))
        result[modname] = page
    return result


def documented_objects() -> list[tuple[str, str, object]]:
    """``(page, qualified name, object)`` for every function, class and public method the
    reference documents (methods and properties only when they have a docstring, as autodoc
    shows them)."""
    found = []
    for modname, page in pages().items():
        module = importlib.import_module(modname)
        for name in page.functions:
            found.append((modname, f"{modname}.{name}", getattr(module, name)))
        for name in page.classes:
            cls = getattr(module, name)
            found.append((modname, f"{modname}.{name}", cls))
            for attr, member in vars(cls).items():
                if attr.startswith("_"):
                    continue
                target = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                if inspect.isroutine(target) and inspect.getdoc(target):
                    found.append((modname, f"{modname}.{name}.{attr}", target))
    return found
