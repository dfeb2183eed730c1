r"""The papers' figures: a registry of (compute, draw) pairs behind ``bounds figures``.

Each figure ``ID`` has a function computing its data (rows of plain values, the
CSV) and one drawing it; :func:`run` writes ``ID.png``, ``ID.pdf``, ``ID.csv`` and
``ID.json`` (parameters, constants preset, seed, replications, package version,
wall time; the constants a figure was computed with, as its computation reports them).
``quick=True`` shrinks grids and replications for CI (its PDFs hold the PNG's raster); the defaults
are the papers' settings.  Monte Carlo figures take a seed and any
``concurrent.futures`` executor (``--jobs``); their CSVs do not depend on it.

The registry and style live in :mod:`bounds.figures.core`; each paper's figures in
:mod:`bounds.figures.dame`, :mod:`~bounds.figures.kent`, :mod:`~bounds.figures.rameshwar` and
:mod:`~bounds.figures.cummings`.  Figures are drawn with matplotlib's object interface (no pyplot state), one shared
style, the Okabe–Ito colour-blind-safe palette, no LaTeX.

Examples
--------
>>> sorted(REGISTRY)[:3]
['cummings-example1', 'dame-fig1a-bottom', 'dame-fig1a-top']
"""

from __future__ import annotations

from collections.abc import Sequence

import csv
import json
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

import matplotlib
import numpy as np
from tqdm.auto import tqdm

from .. import __version__
from .. import dame as _dame_theory
# each paper's module registers its figures on import, in this order
from . import dame, kent, rameshwar, cummings  # noqa: F401, I001
from .core import PALETTE, REGISTRY, SEED, STYLE, FigureData, FigureSpec, render, saving
from .verdicts import Verdict, judge, not_computed

__all__ = ["FigureData", "FigureSpec", "REGISTRY", "run", "render", "judge", "Verdict", "PALETTE", "STYLE", "SEED"]

SAVE_DPI = 200.0  # STYLE's savefig.dpi: a quick run's raster PDF keeps the PNG's size
QUICK_PNG_COMPRESSION = 1  # zlib level of a quick run's PNGs: the default level's pixels, larger files, faster


def _write(fid: str, data: FigureData, out: Path, meta: dict) -> list[Path]:
    """Write ``fid``'s CSV, PNG, PDF and JSON (run in a worker process when ``jobs > 1``: by ID, since some
    registered callables are lambdas)."""
    spec = REGISTRY[fid]
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    csv_path = out / f"{spec.id}.csv"
    keys = list(dict.fromkeys(k for r in data.rows for k in r))
    with csv_path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=keys)
        w.writeheader()
        w.writerows(data.rows)
    paths.append(csv_path)
    fig = render(spec, data, meta.get("verdict"))
    png, pdf = out / f"{spec.id}.png", out / f"{spec.id}.pdf"
    # the layout solved and the ticks computed once for both files (the images savefig alone would give)
    with matplotlib.rc_context(STYLE), saving(fig, SAVE_DPI):  # type: ignore[arg-type]  # keys typed as literals
        fig.savefig(png, pil_kwargs={"compress_level": QUICK_PNG_COMPRESSION} if meta.get("quick") else None)
        if meta.get("quick"):  # a quick run's PDF is the PNG's raster (the canvas' buffer): drawing twice costs twice
            from PIL import Image

            Image.fromarray(np.asarray(fig.canvas.buffer_rgba())).convert("RGB").save(pdf, "PDF",  # type: ignore[attr-defined]
                                                                                     resolution=SAVE_DPI)
        else:  # the PDF keeps the PNG's layout
            fig.savefig(pdf, metadata={"CreationDate": None})
    paths += [png, pdf]
    json_path = out / f"{spec.id}.json"
    json_path.write_text(json.dumps(meta, indent=2, default=float) + "\n")
    paths.append(json_path)
    return paths


def run(ids: Sequence[str] | None = None, *, quick: bool = False, out: str | Path = "figures", jobs: int = 1,
        constants: str | _dame_theory.Constants = "unit", seed: int = SEED, progress: bool = True,
        verdicts: bool | None = None) -> dict:
    r"""Compute, draw and write the registered figures; returns ``{id: (FigureData, [paths])}``.

    ``constants`` applies to the DAME bound figures (Figure 1a); ``"unit"`` is the default because
    it reproduces the paper's parallel upper and lower curves (with ``"paper"`` constants
    :math:`\tilde m = 1` and the upper bound is capped at 4 at nα² = 500).  Figure 1b draws DAME
    with both presets whatever ``constants`` says.  Each JSON's ``"constants"`` is what the
    figure's computation reports it used.  ``jobs > 1`` runs Monte Carlo replications, and the
    drawing and saving of each figure, on that many processes (same results).

    ``verdicts`` (default: not ``quick``) computes each figure's verdict with the check that covers it
    (:func:`bounds.figures.verdicts.judge`; the audit checks cost seconds each) and writes it into the
    JSON (``"verdict"``, ``"caption"``) and under the title; otherwise the verdict says it was not computed.

    .. math:: \text{for each ID: } \text{compute} \to \text{ID.csv},\ \text{draw} \to \text{ID.png, ID.pdf},\ \text{meta} \to \text{ID.json}

    Source: the figures of Pla et al. (2024) §4.2, Rameshwar and Tandon (2025) §IV, Cummings et al.
    (2022) Example 1 and Kent et al. (2024) (see each spec's ``source``).

    Examples
    --------
    >>> import tempfile
    >>> res = run(["dame-fig1a-bottom"], quick=True, out=tempfile.mkdtemp(), progress=False)
    >>> sorted(p.suffix for p in res["dame-fig1a-bottom"][1])
    ['.csv', '.json', '.pdf', '.png']
    """
    ids = list(REGISTRY) if not ids else list(ids)
    verdicts = not quick if verdicts is None else bool(verdicts)
    for i in ids:
        if i not in REGISTRY:
            raise ValueError(f"unknown figure {i!r}; choose from {', '.join(sorted(REGISTRY))}")
    constants = _dame_theory.Constants.resolve(constants)
    out = Path(out)
    executor = ProcessPoolExecutor(jobs) if jobs > 1 else None
    # drawing and saving overlap the next figure's computation when there are workers
    written: dict[str, tuple[FigureData, Future[list[Path]] | list[Path]]] = {}
    try:
        for fid in tqdm(ids, desc="figures", disable=None if progress else True):
            spec = REGISTRY[fid]
            start = time.perf_counter()
            data = spec.compute(quick, constants, seed, executor)
            verdict = judge(fid, data) if verdicts else not_computed(fid)
            meta = {"id": fid, "title": spec.title, "source": spec.source, "quick": quick,
                    "seed": seed if spec.monte_carlo else None, **data.meta,
                    "verdict": verdict.as_dict(), "caption": f"Verdict ({verdict.check}): {verdict.text}",
                    "bounds_version": __version__, "wall_time_s": round(time.perf_counter() - start, 3)}
            written[fid] = (data, executor.submit(_write, fid, data, out, meta) if executor
                            else _write(fid, data, out, meta))
        return {fid: (data, paths.result() if isinstance(paths, Future) else paths)
                for fid, (data, paths) in written.items()}
    finally:
        if executor is not None:
            executor.shutdown()
