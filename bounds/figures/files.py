r"""What ``bounds figures`` writes, made reproducible byte for byte: rounded numbers, no volatile fields,
images without dates or version strings.

:func:`bounds.figures.run` rounds a figure's numbers once, right after they are computed
(:func:`rounded`), and everything downstream — the CSV, the JSON, the drawing and the verdict —
uses the rounded values, so that the image and the verdict follow the written data.  Two rules:

- a value is rounded to :data:`DIGITS` = 10 significant digits (its error is relative: a bound, a
  rate, a simulated mean, a grid point);
- a value under a key that names a logarithm (``log…``, ``…_log``: ``log_lower``,
  ``log10_gap``, ``log10_ratio``) is rounded to :data:`LOG_DECIMALS` = 10 decimals (its error is
  absolute: ``log10(a/b)`` with ``a = b`` up to an ulp is ±5·10⁻¹⁷, written as 0).

.. math:: v \mapsto \operatorname{round}_{10\ \mathrm{sig}}(v), \qquad \log v \mapsto \operatorname{round}(\log v,\ 10^{-10})

Why 10: the computations behind the figures agree across numpy/scipy builds to about 10⁻¹⁴
relative (a quadrature, a table's running sum, ``geomspace``'s last ulp: at most 1.4·10⁻¹⁴ between
the builds compared); a value so perturbed changes its 10-digit rounding only when it lies within
that distance of a rounding boundary, about once in 10⁴ perturbed values, where 12 digits would
change about once in 10².  No figure's statement needs more than four digits.  Monte Carlo values
keep 10 digits too (their seeds are fixed: the digits are reproducible, not significant).

The JSON holds no wall time, host or date (``bounds figures`` prints the wall time); the PNG carries
no ``Software`` text chunk and the PDF no ``Creator``, ``Producer`` or ``CreationDate``
(:data:`PNG_METADATA`, :data:`PDF_METADATA`), so an image changes only when its pixels or drawing do.

Examples
--------
>>> rounded({"lower": 0.30000000000000004, "log10_ratio": 4.8e-17, "n": 3, "ok": True})
{'lower': 0.3, 'log10_ratio': 0.0, 'n': 3, 'ok': True}
>>> rounded([2.4999999999999995e-24, float("inf")])
[2.5e-24, inf]
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

__all__ = ["DIGITS", "RTOL", "LOG_DECIMALS", "PNG_METADATA", "PDF_METADATA", "LAYOUT_TABLES", "rounded",
           "pdf_fonts_without_layout_tables"]

DIGITS = 10
"""Significant digits of every number a figure writes (and draws): see the module's note."""
RTOL = 10.0 ** (1 - DIGITS)
"""The largest relative difference between two written values that were equal before rounding (one unit of the
last digit, relative to a leading 1): comparisons of written values allow it."""
LOG_DECIMALS = 10
"""Decimals of every logarithm a figure writes (keys ``log…`` or ``…_log``): their error is absolute."""
PNG_METADATA: dict[str, Any] = {"Software": None}
"""``savefig(metadata=...)`` of a PNG: no text chunk naming matplotlib's version."""
PDF_METADATA: dict[str, Any] = {"Creator": None, "Producer": None, "CreationDate": None}
"""``savefig(metadata=...)`` of a PDF: no creator, producer (matplotlib's version) or date."""
_LOG_KEY = re.compile(r"(^|_)log(10|2)?($|_)")


@functools.lru_cache(maxsize=None)
def _is_log(key: str) -> bool:
    return bool(_LOG_KEY.search(key))


def _float(v: float, log: bool) -> float:
    if math.isnan(v):
        raise ValueError("value must hold no NaN: a figure's data are numbers or ±inf")
    if math.isinf(v):
        return v
    if log:
        return round(v, LOG_DECIMALS) + 0.0  # + 0.0: no negative zero
    return float(f"{v:.{DIGITS}g}") + 0.0


def rounded(value: Any, key: str = "") -> Any:
    r"""``value`` with every float rounded as the module says (10 significant digits, or 10 decimals under a
    logarithm's ``key``), recursively through mappings (each value under its own key), lists and tuples (as
    lists); numpy scalars become Python numbers; ints, bools, strings and ``None`` are kept; a NaN raises
    ValueError (no figure writes one).

    .. math:: v \mapsto \operatorname{round}_{10\ \mathrm{sig}}(v)

    Source: this package's convention for reproducible figure files (no paper).

    Examples
    --------
    >>> rounded({"curve": {"log_T_dagger": 1.2345678901234, "slope": -0.9013642876640008}})
    {'curve': {'log_T_dagger': 1.2345678901, 'slope': -0.9013642877}}
    """
    kind = type(value)  # the plain types first: rows are dicts of them
    if kind is float:
        return _float(value, _is_log(str(key)))
    if kind is str or kind is int or value is None:
        return value
    if kind is dict:
        return {k: rounded(v, str(k)) for k, v in value.items()}
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return _float(float(value), _is_log(str(key)))
    if isinstance(value, Mapping):
        return {k: rounded(v, str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v, key) for v in value]
    if isinstance(value, np.ndarray):
        return [rounded(v, key) for v in value.tolist()]
    return value


LAYOUT_TABLES = ("GSUB", "GPOS", "GDEF", "kern")
"""The font tables a PDF's embedded subset leaves out: glyph substitution and positioning, which no PDF viewer
applies (the page places every glyph itself, kerned when the figure was drawn), so that leaving them out changes
no page, only the work of subsetting them (most of the PDF's writing) and the file."""


@contextlib.contextmanager
def pdf_fonts_without_layout_tables() -> Iterator[None]:
    r"""While in this block, the TrueType subsets embedded in PDFs (matplotlib's ``pdf.fonttype`` 42, subset by
    fontTools) leave out :data:`LAYOUT_TABLES`: each font the subsetter loads has them removed as it is loaded
    (before the subsetter reads them at all); its loader is restored on exit.  A fontTools without that loader
    leaves the subsets as they were.

    .. math:: \text{subset} = \text{glyf} \cup \text{cmap} \cup \text{hmtx} \cup \dots \setminus
              \{\text{GSUB}, \text{GPOS}, \text{GDEF}, \text{kern}\}

    Source: ISO 32000-1 (PDF 1.7), §9.9, embedded font programs: a ``FontFile2`` TrueType program supplies glyph
    outlines and metrics; where each glyph goes is the content stream's.

    Examples
    --------
    >>> from fontTools import subset
    >>> from matplotlib import font_manager
    >>> path = font_manager.findfont("DejaVu Sans")
    >>> with pdf_fonts_without_layout_tables():
    ...     "GPOS" in subset.load_font(path, subset.Options())
    False
    >>> "GPOS" in subset.load_font(path, subset.Options())
    True
    """
    from fontTools import subset

    load = getattr(subset, "load_font", None)
    if not callable(load):
        yield
        return

    def lean(*args: Any, **kwargs: Any) -> Any:
        font = load(*args, **kwargs)
        for tag in LAYOUT_TABLES:
            if tag in font:
                del font[tag]
        return font

    setattr(subset, "load_font", lean)
    try:
        yield
    finally:
        setattr(subset, "load_font", load)
