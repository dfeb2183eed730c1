"""Modules imported at their first use, so that the command line's start-up never pays for them.

``special = lazy("scipy.special")`` binds a stand-in whose first attribute access imports the module;
later accesses reach the module through the stand-in (one attribute lookup more).  Type checkers see the
real module (the call sites import it under ``TYPE_CHECKING``).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class _LazyModule:
    """A module imported at its first attribute access."""

    __slots__ = ("_name", "_module")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported at first use>"


def lazy(name: str) -> Any:
    """A stand-in for module ``name`` that imports it at its first attribute access.

    Examples
    --------
    >>> special = lazy("scipy.special")
    >>> float(special.gamma(5.0))  # scipy.special is imported here
    24.0
    """
    return _LazyModule(name)
