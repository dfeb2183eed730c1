r"""Data behind the papers' figures, and the files ``bounds figures`` writes.

DAME Figure 1a (``001_ac3274d7ce9a5d72.txt`` §4.2): the upper and lower bounds
for Poisson(:math:`\lambda_1`), Uniform{1, …, :math:`2\lambda_2-1`} and
Binomial(1000, :math:`\lambda_3/1000`) at :math:`n\alpha^2 = 500` (top), and for
Poisson(5) along :math:`n\alpha^2` (bottom), each on a 100-point grid.  The
paper does not state the grids' ranges; the ones here are recorded in every
output's metadata.  Poisson and binomial laws are zero-truncated (formula sheet
§1.5).

Examples
--------
>>> top = fig1a_top("unit")
>>> sorted(top), len(top["poisson"].lower)
(['binomial', 'poisson', 'uniform'], 100)
"""

from __future__ import annotations

import csv
import json
import math
import warnings
from pathlib import Path

import numpy as np

from . import __version__, dame, sizes
from .numerics import PaperAssumptionWarning

FIG1A_N_ALPHA2 = 500.0
FIG1A_GRIDS = {
    "poisson": np.geomspace(0.1, 1000.0, 100),  # λ1
    "uniform": np.arange(1, 1001, 10),  # λ2: support {1, ..., 2λ2 - 1}
    "binomial": np.geomspace(0.1, 1000.0, 100),  # λ3: p = λ3 / 1000
}
FIG1A_BOTTOM_GRID = np.geomspace(1.0, 1e6, 100)  # nα², Poisson(5)


def fig1a_laws(family: str) -> list:
    """The 100 laws of one Figure 1a top panel.

    .. math:: \\mathcal P(\\lambda_1),\\ \\mathcal U\\{1,\\dots,2\\lambda_2-1\\},\\ \\mathcal B(1000, \\lambda_3/1000)

    Source: ``001_ac3274d7ce9a5d72.txt`` §4.2, Figure 1a (top).

    Examples
    --------
    >>> fig1a_laws("uniform")[1]
    uniform(lo=1, hi=21)
    """
    grid = FIG1A_GRIDS[family]
    if family == "poisson":
        return [sizes.poisson(float(v)) for v in grid]
    if family == "uniform":
        return [sizes.uniform(1, 2 * int(v) - 1) for v in grid]
    if family == "binomial":
        return [sizes.binomial(1000, float(v) / 1000) for v in grid]
    raise ValueError(f"unknown Figure 1a family {family!r}")


def fig1a_top(constants="paper") -> dict:
    """Both bounds along each top panel's grid at ``nα² = 500`` (a :class:`~bounds.dame.Curve` each).

    .. math:: \\big(LB(M_\\lambda, 500),\\ UB(M_\\lambda, 500)\\big)_{\\lambda \\in \\text{grid}}

    Source: ``001_ac3274d7ce9a5d72.txt`` §4.2, Figure 1a (top); eqs. (10)–(11).

    Examples
    --------
    >>> cv = fig1a_top("paper")["poisson"]
    >>> bool(np.all(cv.upper == 4.0))  # paper constants: m̃ = 1 and the cap is active
    True
    """
    return {fam: dame.curve(fig1a_laws(fam), n_alpha2=FIG1A_N_ALPHA2, constants=constants) for fam in FIG1A_GRIDS}


def fig1a_bottom(constants="paper"):
    """Both bounds for Poisson(5) along the ``nα²`` grid.

    .. math:: \\big(LB(\\mathcal P(5), x),\\ UB(\\mathcal P(5), x)\\big)_{x \\in \\text{grid}}

    Source: ``001_ac3274d7ce9a5d72.txt`` §4.2, Figure 1a (bottom); eqs. (10)–(11).

    Examples
    --------
    >>> cv = fig1a_bottom("paper")
    >>> bool(np.all(np.diff(cv.lower) < 0))
    True
    """
    return dame.curve(sizes.poisson(5.0), n_alpha2=FIG1A_BOTTOM_GRID, constants=constants)


def fig1a_panels(constants="paper") -> dict:
    """Every Figure 1a panel as ``{panel: (Curve, grid)}``, with the warnings raised.

    Source: ``001_ac3274d7ce9a5d72.txt`` §4.2, Figure 1a.

    Examples
    --------
    >>> panels, notes = fig1a_panels("unit")
    >>> sorted(panels)
    ['bottom-poisson5', 'top-binomial', 'top-poisson', 'top-uniform']
    >>> notes  # unit constants: (11) is not positive where m̃ nα² <= 1
    ['ln(c4·(√(m̃nα²) ∨ 1)) <= 0: the upper bound (11) is not positive for these constants']
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PaperAssumptionWarning)
        panels = {f"top-{k}": (v, FIG1A_GRIDS[k]) for k, v in fig1a_top(constants).items()}
        panels["bottom-poisson5"] = (fig1a_bottom(constants), FIG1A_BOTTOM_GRID)
    return panels, sorted({str(w.message) for w in caught})


def write_dame_tables(out: Path, panels_by_preset: dict) -> list[Path]:
    """Write Figure 1a's data as ``dame-fig1a.csv`` with its ``.json`` metadata.

    ``panels_by_preset`` maps a constants preset to :func:`fig1a_panels`' result.
    Source: ``001_ac3274d7ce9a5d72.txt`` §4.2, Figure 1a.

    Examples
    --------
    >>> import tempfile
    >>> paths = write_dame_tables(Path(tempfile.mkdtemp()), {"unit": fig1a_panels("unit")})
    >>> [p.name for p in paths]
    ['dame-fig1a.csv', 'dame-fig1a.json']
    """
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for preset, (panels, _) in panels_by_preset.items():
        for panel, (cv, grid) in panels.items():
            for i in range(len(cv.lower)):
                rows.append({
                    "constants": preset, "panel": panel, "parameter": float(grid[i]),
                    "law": repr(cv.laws[i]), "n_alpha2": float(cv.n_alpha2[i]),
                    "lower": float(cv.lower[i]), "log_lower": float(cv.log_lower[i]),
                    "argmax": float(cv.argmax[i]), "upper": float(cv.upper[i]),
                    "log_upper": float(cv.log_upper[i]), "m_tilde": int(cv.m_tilde[i]),
                })
    csv_path = out / "dame-fig1a.csv"
    with csv_path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    meta = {
        "figure": "dame-fig1a (data)",
        "source": "001_ac3274d7ce9a5d72.txt, Section 4.2, Figure 1a; eqs. (10)-(12)",
        "constants": {p: dame._constants(p).describe() for p in panels_by_preset},
        "n_alpha2_top": FIG1A_N_ALPHA2,
        "grids": {k: [float(g) for g in v] for k, v in FIG1A_GRIDS.items()},
        "grid_bottom_n_alpha2": [float(g) for g in FIG1A_BOTTOM_GRID],
        "size_laws": "poisson and binomial zero-truncated; uniform on {1, ..., 2*lambda2 - 1}",
        "warnings": {p: notes for p, (_, notes) in panels_by_preset.items()},
        "bounds_version": __version__,
    }
    json_path = out / "dame-fig1a.json"
    json_path.write_text(json.dumps(meta, indent=2) + "\n")
    return [csv_path, json_path]


def summary_rows(panels: dict, every: int = 33) -> list[tuple]:
    """Every ``every``-th point of each panel, as ``(law, nα², m̃, upper, lower, argmax)``.

    Examples
    --------
    >>> panels, _ = fig1a_panels("paper")
    >>> summary_rows(panels)[0][:3]
    ("poisson(lam=0.1, zero='truncate')", 500.0, 1)
    """
    rows = []
    for cv, _ in panels.values():
        for i in range(0, len(cv.lower), every):
            rows.append((repr(cv.laws[i]), float(cv.n_alpha2[i]), int(cv.m_tilde[i]), cv.upper[i], cv.lower[i], cv.argmax[i]))
    return rows


def format_argmax(a: float) -> str:
    """``inf`` or the integer, for a lower bound's ``argmax``.

    Examples
    --------
    >>> format_argmax(math.inf), format_argmax(12.0)
    ('inf', '12')
    """
    return "inf" if math.isinf(a) else str(int(a))
