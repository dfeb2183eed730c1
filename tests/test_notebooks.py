"""The notebooks: committed without outputs, each executes without error (headless), every
pyplot axis it draws has a y-label, and none reads the source tree."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def test_every_paper_has_a_notebook():
    assert {p.stem for p in NOTEBOOKS} == {"dame", "kent", "cummings", "rameshwar", "audit", "advise"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs(path):
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [] and cell.get("execution_count") is None, f"{path.name} has outputs"
    first = nb["cells"][0]
    assert first["cell_type"] == "markdown" and "**Question.**" in "".join(first["source"])


# run after a notebook's last cell, with the non-interactive backend (plt.show keeps the
# figures): every axis with data that is not a colour bar names its y-axis
YLABEL_CHECK = """
import matplotlib.pyplot as plt
unlabelled = [(num, ax.get_title()) for num in plt.get_fignums() for ax in plt.figure(num).axes
              if ax.get_label() != "<colorbar>" and ax.has_data() and not ax.get_ylabel()]
assert not unlabelled, f"axes without a y-label (figure, title): {unlabelled}"
"""


SOURCE_TREE = ("__file__", "../", "tests/data", "notebooks/")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_data_found_through_the_installed_package(path):
    nb = json.loads(path.read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert not [s for s in SOURCE_TREE if s in code], f"{path.name} reads the source tree"


@pytest.mark.slow  # about 80 s for the six notebooks: CI runs them in its slow step
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(path, tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    monkeypatch.setenv("MPLBACKEND", "agg")  # the kernel inherits it: figures stay open for the check
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(YLABEL_CHECK))
    client = nbclient.NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError on any error
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
