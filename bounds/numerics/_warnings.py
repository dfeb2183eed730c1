"""Warnings of violated paper assumptions: each issued once per public call, attributed to the caller."""

from __future__ import annotations

import contextvars
import functools
import os
import sys
import warnings
from types import FrameType
from typing import Any, Callable

from ._checks import check_callable


class PaperAssumptionWarning(UserWarning):
    """A paper's hypothesis is violated; the formula is evaluated anyway."""



_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # bounds/
_SEEN: contextvars.ContextVar[set | None] = contextvars.ContextVar("bounds_assumption_warnings", default=None)


def _caller_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside the package, seen from :func:`warn_assumption`'s ``warn``."""
    frame: FrameType | None = sys._getframe(2)
    level = 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def warn_assumption(message: str) -> None:
    """Issue a :class:`PaperAssumptionWarning` attributed to the first caller outside the package.

    Inside a call of a function decorated with :func:`warn_once_per_call`, a message
    already issued during that call is not repeated.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     warn_assumption("H3 fails")
    >>> w[0].category.__name__, str(w[0].message)
    ('PaperAssumptionWarning', 'H3 fails')
    """
    seen = _SEEN.get()
    if seen is not None:
        if message in seen:
            return
        seen.add(message)
    warnings.warn(message, PaperAssumptionWarning, stacklevel=_caller_stacklevel())


def warn_once_per_call(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator: during one call of ``fn`` (nested calls included) each assumption message is issued once.

    Examples
    --------
    >>> @warn_once_per_call
    ... def f():
    ...     warn_assumption("H3 fails")
    ...     warn_assumption("H3 fails")
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     f()
    >>> len(w)
    1
    """

    check_callable("fn", fn)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _SEEN.get() is not None:
            return fn(*args, **kwargs)
        token = _SEEN.set(set())
        try:
            return fn(*args, **kwargs)
        finally:
            _SEEN.reset(token)

    return wrapper
