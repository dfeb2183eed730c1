"""Tests of `bounds figures` speaking while it works: each figure's line printed as its files are written, a bar
over the figures on stderr (drawn before numpy and matplotlib are imported), `--quiet`, and the same with workers."""

import dataclasses
import subprocess
import sys
from pathlib import Path

from bounds import figures
from bounds.cli import main

ROOT = Path(__file__).resolve().parent.parent
TWO = ["dame-fig1a-bottom", "kent-phase-transition"]


def test_each_line_is_printed_when_its_figure_is_written(tmp_path, capsys, monkeypatch):
    """The second figure's computation starts after the first figure's line is out."""
    seen = {}
    spec = figures.REGISTRY[TWO[1]]

    def compute(*args):
        seen["stdout"] = capsys.readouterr().out
        return spec.compute(*args)

    monkeypatch.setitem(figures.REGISTRY, TWO[1], dataclasses.replace(spec, compute=compute))
    assert main(["figures", "--quick", "--only", *TWO, "--out", str(tmp_path), "--quiet"]) == 0
    assert f"  {TWO[0]} " in seen["stdout"] and TWO[1] not in seen["stdout"]
    out = capsys.readouterr()
    assert f"  {TWO[1]} " in out.out and out.out.strip().splitlines()[-1].startswith("2 figures in ")
    assert out.err == ""  # --quiet: no bar


def test_the_bar_goes_to_stderr_and_the_lines_to_stdout(tmp_path, capsys):
    assert main(["figures", "--quick", "--only", *TWO, "--out", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "figures: 100%" in out.err and "2/2" in out.err and "importing" in out.err
    assert "%|" not in out.out and len(out.out.strip().splitlines()) == 3


def test_workers_print_every_line_as_its_figure_completes(tmp_path, capsys):
    assert main(["figures", "--quick", "--only", *TWO, "--out", str(tmp_path), "--jobs", "2", "--quiet"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert sorted(line.split()[0] for line in lines[:2]) == TWO and lines[2].startswith("2 figures in ")
    assert "2 processes" in lines[2]


def test_progress_is_drawn_before_the_heavy_imports(tmp_path):
    """The bar's first write to stderr happens before numpy, scipy or matplotlib is imported (their import takes
    seconds on a loaded machine): progress shows within the parser's and tqdm's start-up."""
    probe = (
        "import sys\n"
        "first = []\n"
        "class Err:\n"
        "    def __init__(self, f): self.f = f\n"
        "    def write(self, s):\n"
        "        if s and not first:\n"
        "            first.append(sorted(m for m in ('numpy', 'scipy', 'matplotlib') if m in sys.modules))\n"
        "        return self.f.write(s)\n"
        "    def flush(self): self.f.flush()\n"
        "    def isatty(self): return False\n"
        "    def __getattr__(self, k): return getattr(self.f, k)\n"
        "sys.stderr = Err(sys.stderr)\n"
        "from bounds.cli import main\n"
        f"rc = main(['figures', '--quick', '--only', 'kent-phase-transition', '--out', {str(tmp_path)!r}])\n"
        "print('FIRST', first[0] if first else None, rc)\n"
    )
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "FIRST [] 0", done.stdout
