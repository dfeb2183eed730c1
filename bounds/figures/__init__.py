r"""The papers' figures: a registry of (compute, draw) pairs behind ``bounds figures``.

Each figure ``ID`` has a function computing its data (rows of plain values, the
CSV) and one drawing it; :func:`run` writes ``ID.png``, ``ID.pdf``, ``ID.csv`` and
``ID.json`` (parameters, constants preset, seed, replications, package version, verdict;
the constants a figure was computed with, as its computation reports them), every number
rounded to 10 significant digits and nothing volatile written (:mod:`bounds.figures.files`):
a second run writes the same bytes.
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

from collections.abc import Mapping, Sequence

import csv
import functools
import io
import json
import struct
import threading
import time
import zlib
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import matplotlib
import numpy as np

from .. import __version__
from .. import dame as _dame_theory
# each paper's module registers its figures on import, in this order
from . import dame, kent, rameshwar, cummings  # noqa: F401, I001
from .core import PALETTE, REGISTRY, SEED, STYLE, FigureData, FigureSpec, render, saving
from .files import PDF_METADATA, PNG_METADATA, pdf_fonts_without_layout_tables, rounded
from .verdicts import Verdict, judge, not_computed

__all__ = ["FigureData", "FigureSpec", "Made", "REGISTRY", "run", "render", "judge", "Verdict", "PALETTE", "STYLE",
           "SEED"]

SAVE_DPI = 200.0  # STYLE's savefig.dpi: a quick run's raster PDF keeps the PNG's size
QUICK_PNG_COMPRESSION = 1  # zlib level of a quick run's PNGs: the default level's pixels, larger files, faster
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
INCHES_PER_METRE = 1 / 0.0254


@dataclass(frozen=True)
class Made:
    """One figure made by :func:`run`: its ``id``, its ``data`` (rounded, as written and drawn), the ``paths``
    written and the wall ``seconds`` it took (computing, judging, drawing and saving)."""

    id: str
    data: FigureData
    paths: list[Path]
    seconds: float


def _rounded_data(data: FigureData) -> FigureData:
    """``data`` with its rows and metadata :func:`rounded` (the values every file and drawing of the figure use).

    Examples
    --------
    >>> _rounded_data(FigureData([{"x": 1 / 3}], {"eps": [0.1 + 0.2]}))
    FigureData(rows=[{'x': 0.3333333333}], meta={'eps': [0.3]})
    """
    if not isinstance(data, FigureData):
        raise ValueError(f"data must be a FigureData, got {type(data).__name__}")
    return FigureData([rounded(dict(r)) for r in data.rows], rounded(dict(data.meta)))


def _write_csv(path: Path, rows: list) -> Path:
    """Write ``rows`` (dicts; the columns in order of first appearance) to ``path`` as UTF-8 CSV, ``\\n`` line ends
    on every platform.

    Examples
    --------
    >>> import tempfile
    >>> p = _write_csv(Path(tempfile.mkdtemp()) / "a.csv", [{"x": 0.5, "y": None}, {"x": 2, "z": "a"}])
    >>> p.read_text()
    'x,y,z\\n0.5,,\\n2,,a\\n'
    """
    keys = list(dict.fromkeys(k for r in rows for k in r))
    with Path(path).open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=keys, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return Path(path)


def _write_json(path: Path, meta: Mapping) -> Path:
    """Write ``meta`` to ``path`` as indented JSON with a final ``\\n`` on every platform (numpy numbers as Python's).

    Examples
    --------
    >>> import tempfile
    >>> _write_json(Path(tempfile.mkdtemp()) / "a.json", {"eps": np.float64(0.5)}).read_text()
    '{\\n  "eps": 0.5\\n}\\n'
    """
    Path(path).write_text(json.dumps(dict(meta), indent=2, default=lambda v: rounded(v)) + "\n", encoding="utf-8",
                          newline="\n")
    return Path(path)


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC-32 of type and data (PNG specification, §5.3)."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


@dataclass(frozen=True)
class _Raster:
    """A canvas' pixels as a PNG and a PDF image both store them: ``height`` rows of ``width`` pixels of
    ``channels`` bytes (3: RGB, 4: RGBA), each row led by filter type 0, deflated into one zlib stream."""

    width: int
    height: int
    channels: int
    deflated: bytes


def _raster(rgba: np.ndarray, alpha: bool = True, level: int = QUICK_PNG_COMPRESSION) -> _Raster:
    r"""The pixels ``rgba`` (height × width × 4, ``uint8``: a canvas' buffer) deflated once for a PNG and a PDF:
    RGB when every pixel is opaque or ``alpha`` is false (the alpha channel left out), else RGBA; every row
    unfiltered (a leading 0), the rows compressed by zlib at ``level``.  Pillow's PNG encoder chooses a filter
    for every row, which costs more than compressing at level 1; the unfiltered rows of a plot compress as well.

    .. math:: \text{deflated} = \operatorname{zlib}\bigl(\Vert_{r} (0 \,\Vert\, \text{row}_r)\bigr)

    Source: the PNG specification (W3C, 2003), §12.8 (filter type 0), §10 (zlib); the PDF reference
    (ISO 32000-1:2008), §7.4.4.4 (PNG predictors).

    Examples
    --------
    >>> px = np.zeros((2, 3, 4), np.uint8); px[..., 3] = 255
    >>> r = _raster(px)
    >>> (r.width, r.height, r.channels), zlib.decompress(r.deflated) == bytes(2 * (1 + 3 * 3))
    ((3, 2, 3), True)
    """
    rgba = np.asarray(rgba)
    if rgba.dtype != np.uint8 or rgba.ndim != 3 or rgba.shape[2] != 4 or not rgba.shape[0] or not rgba.shape[1]:
        raise ValueError(f"rgba must be a non-empty height x width x 4 uint8 array, got {rgba.dtype} {rgba.shape}")
    channels = 4 if alpha and not (rgba[..., 3] == 255).all() else 3
    height, width = rgba.shape[:2]
    rows = np.empty((height, 1 + width * channels), np.uint8)
    rows[:, 0] = 0  # each row's filter type: none
    rows[:, 1:].reshape(height, width, channels)[...] = rgba[..., :channels]  # one strided copy, no temporary
    return _Raster(width, height, channels, zlib.compress(rows.data, level))


def _check_dpi(dpi: float) -> float:
    dpi = float(dpi)
    if not (0 < dpi < 1e6):
        raise ValueError(f"dpi must be in (0, 1e6), got {dpi!r}")
    return dpi


def _write_png(path: Path, raster: _Raster, dpi: float) -> Path:
    r"""Write ``raster`` (:func:`_raster`) to ``path`` as a PNG: 8-bit RGB (colour type 2) or RGBA (colour type 6),
    the resolution ``dpi`` in a pHYs chunk, no text chunk.  A quick run's PNG: the same decoded pixels as
    ``savefig``'s, for about a third of its encoding time.

    .. math:: \text{PNG} = \text{signature} \,\Vert\, \text{IHDR} \,\Vert\, \text{pHYs} \,\Vert\, \text{IDAT} \,\Vert\, \text{IEND}

    Source: the PNG specification (W3C, 2003), §§5.2–5.3, 11.2.2 (IHDR), 11.3.5.3 (pHYs).

    Examples
    --------
    >>> import tempfile
    >>> from PIL import Image
    >>> px = np.zeros((2, 3, 4), np.uint8); px[..., 3] = 255; px[0, 1] = (255, 0, 0, 255)
    >>> with Image.open(_write_png(Path(tempfile.mkdtemp()) / "a.png", _raster(px), 200.0)) as im:
    ...     im.mode, im.size, np.array_equal(np.asarray(im), px[..., :3]), [round(v) for v in im.info["dpi"]]
    ('RGB', (3, 2), True, [200, 200])
    """
    dpi = _check_dpi(dpi)
    ppm = int(dpi * INCHES_PER_METRE + 0.5)  # pixels per metre, as Pillow writes a PNG's dpi
    kind = {3: 2, 4: 6}[raster.channels]
    Path(path).write_bytes(b"".join([
        PNG_SIGNATURE, _png_chunk(b"IHDR", struct.pack(">IIBBBBB", raster.width, raster.height, 8, kind, 0, 0, 0)),
        _png_chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)), _png_chunk(b"IDAT", raster.deflated),
        _png_chunk(b"IEND", b"")]))
    return Path(path)


def _write_pdf(path: Path, raster: _Raster, dpi: float, title: str) -> Path:
    r"""Write ``raster`` (:func:`_raster`, RGB) to ``path`` as a one-page PDF showing it at ``dpi`` (the page
    ``width``·72/``dpi`` by ``height``·72/``dpi`` points), its deflated rows stored as they are (a Flate image
    with the PNG predictors, so lossless and compressed only once), the document's ``title`` and no date.

    .. math:: \text{page} = \tfrac{72}{\mathrm{dpi}}\,(\text{width}, \text{height})\ \text{pt}

    Source: the PDF reference (ISO 32000-1:2008), §§7.5 (file structure), 7.4.4.4 (PNG predictors),
    8.9.5 (image dictionaries), 14.3.3 (document information).

    Examples
    --------
    >>> import tempfile
    >>> px = np.full((2, 3, 4), 255, np.uint8)
    >>> _write_pdf(Path(tempfile.mkdtemp()) / "a.pdf", _raster(px), 72.0, "a").read_bytes()[:8]
    b'%PDF-1.4'
    """
    dpi = _check_dpi(dpi)
    if raster.channels != 3:
        raise ValueError(f"raster must hold RGB pixels (3 channels), got {raster.channels}")
    title = str(title)
    w, h = (f"{v * 72 / dpi:.4f}".rstrip("0").rstrip(".") for v in (raster.width, raster.height))
    image = (f"<< /Type /XObject /Subtype /Image /Width {raster.width} /Height {raster.height} /ColorSpace /DeviceRGB "
             f"/BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 "
             f"/Columns {raster.width} >> /Length {len(raster.deflated)} >>\nstream\n").encode() \
        + raster.deflated + b"\nendstream"
    draw = f"q {w} 0 0 {h} 0 0 cm /Im0 Do Q".encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w} {h}] /Resources << /XObject << /Im0 4 0 R >> >> "
               f"/Contents 5 0 R >>".encode(), image,
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(draw), draw),
               b"<< /Title <FEFF%s> >>" % title.encode("utf-16-be").hex().upper().encode()]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    Path(path).write_bytes(bytes(out))
    return Path(path)


def _write(fid: str, data: FigureData, out: Path, meta: dict) -> tuple[list[Path], float]:
    """Write ``fid``'s CSV, PNG, PDF and JSON; return the paths and the seconds it took (run in a worker process
    when ``jobs > 1``: by ID, since some registered callables are lambdas)."""
    start = time.perf_counter()
    spec = REGISTRY[fid]
    out.mkdir(parents=True, exist_ok=True)
    paths = [_write_csv(out / f"{spec.id}.csv", data.rows)]
    fig = render(spec, data, meta.get("verdict"))
    png, pdf = out / f"{spec.id}.png", out / f"{spec.id}.pdf"
    # the layout solved and the ticks computed once for both files (the images savefig alone would give)
    with matplotlib.rc_context(STYLE), saving(fig, SAVE_DPI):  # type: ignore[arg-type]  # keys typed as literals
        if meta.get("quick"):  # the canvas' pixels (savefig's own drawing), deflated once for the PNG and the PDF
            fig.savefig(io.BytesIO(), format="raw")  # what savefig's PNG encodes: the drawn canvas' RGBA buffer
            rgba = np.asarray(fig.canvas.buffer_rgba())  # type: ignore[attr-defined]
            raster = _raster(rgba)
            _write_png(png, raster, SAVE_DPI)
            # the PDF is the PNG's raster (drawing twice costs twice), its RGB rows (a figure is opaque)
            _write_pdf(pdf, raster if raster.channels == 3 else _raster(rgba, alpha=False), SAVE_DPI, spec.id)
        else:  # the PDF keeps the PNG's layout; its fonts subset without the tables no PDF page uses
            fig.savefig(png, metadata=PNG_METADATA)
            with pdf_fonts_without_layout_tables():
                fig.savefig(pdf, metadata=PDF_METADATA)
    paths += [png, pdf, _write_json(out / f"{spec.id}.json", meta)]
    return paths, time.perf_counter() - start


def _bar(progress: Any, total: int) -> Any:
    """The bar :func:`run` updates: ``progress`` itself when it is a tqdm bar (its total set), a bar of its own on
    stderr when ``progress`` is true, else None."""
    if progress is True:
        from tqdm import tqdm

        return tqdm(total=total, desc="figures", unit="fig")
    if progress is False or progress is None:
        return None
    progress.reset(total=total)
    return progress


def run(ids: Sequence[str] | None = None, *, quick: bool = False, out: str | Path = "figures", jobs: int = 1,
        constants: str | _dame_theory.Constants = "unit", seed: int = SEED, progress: Any = True,
        verdicts: bool | None = None, on_made: Callable[[Made], None] | None = None) -> dict:
    r"""Compute, draw and write the registered figures; returns ``{id: (FigureData, [paths])}``.

    ``constants`` applies to the DAME bound figures (Figure 1a); ``"unit"`` is the default because
    it reproduces the paper's parallel upper and lower curves (with ``"paper"`` constants
    :math:`\tilde m = 1` and the upper bound is capped at 4 at nα² = 500).  Figure 1b draws DAME
    with both presets whatever ``constants`` says.  Each JSON's ``"constants"`` is what the
    figure's computation reports it used.  ``jobs > 1`` runs Monte Carlo replications, and the
    drawing and saving of each figure, on that many processes (same results).

    Every number is rounded as soon as it is computed (:mod:`bounds.figures.files`: 10 significant
    digits), and the files hold nothing volatile (no wall time, host or date), so that a second run
    writes the same bytes.  ``progress``: a bar over the figures on stderr (``True``), an existing
    tqdm bar to update (its total is set here), or none (``False``).  ``on_made(made)`` is called with a
    :class:`Made` as each figure's files are written — with ``jobs > 1`` from the thread that collects
    the workers' results (calls never overlap).

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
    if on_made is not None and not callable(on_made):
        raise ValueError(f"on_made must be callable or None, got {type(on_made).__name__}")
    constants = _dame_theory.Constants.resolve(constants)
    out = Path(out)
    bar = _bar(progress, len(ids))
    lock = threading.Lock()

    def made(fid: str, data: FigureData, paths: list[Path], seconds: float) -> None:
        with lock:
            if bar is not None:
                bar.update(1)
            if on_made is not None:
                on_made(Made(fid, data, paths, seconds))

    def collected(fid: str, data: FigureData, seconds: float, future: Future) -> None:
        if future.exception() is None:  # a failed write raises below, from its result
            paths, took = future.result()
            made(fid, data, paths, seconds + took)

    if jobs > 1:  # what every worker's drawing imports, imported once before they are forked
        import matplotlib.backends.backend_agg  # noqa: F401
        import matplotlib.backends.backend_pdf  # noqa: F401
    executor = ProcessPoolExecutor(jobs) if jobs > 1 else None
    # drawing and saving overlap the next figure's computation when there are workers
    written: dict[str, tuple[FigureData, Future[tuple[list[Path], float]] | list[Path]]] = {}
    try:
        for fid in ids:
            if bar is not None:
                bar.set_postfix_str(fid)
            spec = REGISTRY[fid]
            start = time.perf_counter()
            data = _rounded_data(spec.compute(quick, constants, seed, executor))
            verdict = judge(fid, data) if verdicts else not_computed(fid)
            meta = {"id": fid, "title": spec.title, "source": spec.source, "quick": quick,
                    "seed": seed if spec.monte_carlo else None, **data.meta,
                    "verdict": verdict.as_dict(), "caption": f"Verdict ({verdict.check}): {verdict.text}",
                    "bounds_version": __version__}
            seconds = time.perf_counter() - start
            if executor is not None:
                future = executor.submit(_write, fid, data, out, meta)
                future.add_done_callback(functools.partial(collected, fid, data, seconds))
                written[fid] = (data, future)
            else:
                paths, took = _write(fid, data, out, meta)
                made(fid, data, paths, seconds + took)
                written[fid] = (data, paths)
        if bar is not None:
            bar.set_postfix_str("")
        return {fid: (data, paths.result()[0] if isinstance(paths, Future) else paths)
                for fid, (data, paths) in written.items()}
    finally:
        if executor is not None:
            executor.shutdown()
        if bar is not None and progress is True:
            bar.close()
