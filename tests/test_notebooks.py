"""The notebooks: committed without outputs, each executes without error (headless), every
pyplot axis it draws has a y-label, none reads the source tree, the numbers their prose quotes
are glued by their code (myst-nb's ``glue``), and none warns about ipywidgets."""

import importlib.util
import json
import re
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


GLUE_ROLE = re.compile(r"\{glue(?::\w+)?\}`([^`:]+)")
GLUE_CALL = re.compile(r"""glue\(\s*f?["']([^"']+)["']""")


def _glue_keys(nb) -> tuple[set[str], list[str]]:
    """The keys the prose pastes, and the (possibly f-string) keys the code glues."""
    used = {key for c in nb["cells"] if c["cell_type"] == "markdown" for key in GLUE_ROLE.findall("".join(c["source"]))}
    glued = [key for c in nb["cells"] if c["cell_type"] == "code" for key in GLUE_CALL.findall("".join(c["source"]))]
    return used, glued


def _matches(key: str, pattern: str) -> bool:
    return re.fullmatch(re.sub(r"\\\{[^}]*\\\}", r"\\w+", re.escape(pattern)), key) is not None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_number_the_prose_pastes_is_glued_by_the_code(path):
    used, glued = _glue_keys(json.loads(path.read_text()))
    missing = sorted(key for key in used if not any(_matches(key, g) for g in glued))
    assert not missing, f"{path.name}: the prose pastes {missing}, which no cell glues"


def test_the_glue_check_can_fail():
    nb = {"cells": [{"cell_type": "markdown", "source": ["C ≈ {glue:text}`C_all` and {glue:text}`z_eq5`"]},
                    {"cell_type": "code", "source": ['glue("C_all", 1)\n', 'glue(f"z_{name}", 2)']}]}
    used, glued = _glue_keys(nb)
    assert used == {"C_all", "z_eq5"} and glued == ["C_all", "z_{name}"]
    assert _matches("z_eq5", "z_{name}") and not _matches("C_al", "C_all")


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
    if importlib.util.find_spec("myst_nb") is not None:  # the values the prose pastes were glued when run
        glued = {o["metadata"]["scrapbook"]["name"] for c in nb.cells if c.cell_type == "code"
                 for o in c.get("outputs", []) if "scrapbook" in o.get("metadata", {})}
        used, _ = _glue_keys(json.loads(path.read_text()))
        assert used <= glued, f"not glued when run: {sorted(used - glued)}"


# a kernel in which ipywidgets cannot be imported, as in the [test]-only install: tqdm.auto then
# warns (TqdmWarning "IProgress not found") unless the package picks plain tqdm itself
NO_WIDGETS = """
import importlib.abc, sys
class _NoWidgets(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "ipywidgets" or name.startswith("ipywidgets."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, _NoWidgets())
for name in [m for m in sys.modules if m == "ipywidgets" or m.startswith(("ipywidgets.", "tqdm"))]:
    del sys.modules[name]
"""


def _kernel_streams(cells: list[str], tmp_path) -> str:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    return "".join(o.get("text", "") for c in nb.cells for o in c.outputs if o.get("output_type") == "stream")


@pytest.mark.slow  # a kernel start: 5-17 s
def test_the_widget_blocker_blocks(tmp_path):
    """The check below can fail: in the blocked kernel tqdm.auto itself warns."""
    out = _kernel_streams([NO_WIDGETS, "import tqdm.auto"], tmp_path)
    assert "TqdmWarning" in out


# the modules the notebooks import (each imports tqdm)
NOTEBOOK_IMPORTS = "from bounds import advise, audit, checks, cummings, dame, kent, rameshwar, simulate, sizes"


@pytest.mark.slow  # a kernel start and the package's imports: 5-12 s
def test_no_tqdm_warning_without_ipywidgets(tmp_path):
    out = _kernel_streams([NO_WIDGETS, NOTEBOOK_IMPORTS], tmp_path)
    assert "TqdmWarning" not in out and "IProgress" not in out, out
