"""Every command printed in README.md and in the documentation pages runs as printed.

A command is a line of a shell code block (```bash in Markdown, ``.. code-block:: bash`` in
reST) or an inline literal that calls a subcommand with options (``bounds dame --sizes ...``).
Each runs through bash, exactly as printed, in a fresh folder that holds a link to the
repository's ``tests/`` (the README's examples read ``tests/data/...`` from a clone), with
``bounds`` on the PATH as ``sys.executable -m bounds`` (the source tree on PYTHONPATH, as the
rest of the suite); it must exit with status 0.  A line of a block that is not a ``bounds``
command (``printf ... > counts.txt``, ``mkdir -p out``) makes the files of the lines after it
and runs before each of them.  A printed line must be a command: no ``[--option]`` brackets,
no ``...`` or ``FILE`` placeholders.

The Python code blocks of the reST pages run too (README.md's is a doctest of the suite).
The installation lines, the test suite itself, the documentation build and the notebook server
are skipped, each saying why; the long commands are marked slow.
"""

from __future__ import annotations

import os
import re
import subprocess
import textwrap
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", ROOT / "docs" / "README.md"] + sorted(
    p for p in (ROOT / "docs").glob("*") if p.suffix in (".md", ".rst") and p.name not in ("README.md", "changelog.md"))

# (prefix of a printed command, why the test does not run it)
SKIPPED = [
    ("python -m venv", "creates the virtual environment of the install path: CI runs that path in a fresh venv"),
    ("pip install", "installs the package: CI runs the README's install path in a fresh venv"),
    ("python -m pytest", "the test suite itself: CI runs it"),
    ("bash .ci/docs", "the documentation build (about six minutes): CI runs it"),
    ("jupyter lab", "starts an interactive notebook server"),
]
# commands that take more than a few seconds (the others take about a second each)
SLOW = ("bounds figures", "bounds check", "bounds advise", "bounds rameshwar --collection geometric:6 --U 65 --eps 0.5 --lp",
        "bounds dame --sizes poisson:5 --sweep")
PLACEHOLDER = re.compile(r"\[--|\.\.\.|…|\b(FILE|DIR|ID|STEM|PAPER|LABEL|N)\b")


@dataclass(frozen=True)
class Command:
    document: str   # path relative to the repository
    line: str       # the command as printed
    setup: tuple[str, ...]  # the block's earlier lines that make files

    @property
    def id(self) -> str:
        return f"{self.document}:{self.line[:60]}"


def _markdown_blocks(text: str) -> list[list[str]]:
    return [block.splitlines() for block in re.findall(r"^```(?:bash|sh|shell)\n(.*?)^```", text, re.M | re.S)]


def _rst_blocks(text: str) -> list[list[str]]:
    blocks = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"\s*\.\. code-block:: (bash|sh|shell)\s*$", line):
            indent = len(line) - len(line.lstrip())
            block = []
            for body in lines[i + 1:]:
                if body.strip() and len(body) - len(body.lstrip()) <= indent:
                    break
                block.append(body.strip())
            blocks.append(block)
    return blocks


def _without_blocks(text: str) -> str:
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"\.\. code-block::.*?(?=\n\S)", "", text, flags=re.S)


def _inline_commands(text: str) -> list[str]:
    spans = re.findall(r"``([^`]+)``|`([^`]+)`", _without_blocks(text))
    return [" ".join(span.split()) for pair in spans for span in pair
            if re.match(r"bounds [a-z]+ --", " ".join(span.split()))]


def commands() -> list[Command]:
    found = []
    for path in DOCUMENTS:
        text = path.read_text()
        name = str(path.relative_to(ROOT))
        blocks = _markdown_blocks(text) if path.suffix == ".md" else _rst_blocks(text)
        for block in blocks:
            setup: list[str] = []
            for line in block:
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                found.append(Command(name, line.strip(), tuple(setup)))
                if not line.lstrip().startswith(("bounds", "pip", "python", "bash", "jupyter")):
                    setup.append(line.strip())
        found += [Command(name, line, ()) for line in _inline_commands(text)]
    return found


COMMANDS = commands()


def _param(command: Command):
    marks = [pytest.mark.slow] if any(command.line.startswith(p) for p in SLOW) else []
    return pytest.param(command, id=command.id, marks=marks)


def test_the_documents_print_commands():
    names = {c.document for c in COMMANDS}
    assert {"README.md", "docs/install.rst", "docs/decide.rst"} <= names
    assert sum(c.document == "README.md" for c in COMMANDS) >= 20


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.id)
def test_every_printed_line_is_a_command(command):
    """A line with ``[--option]``, ``...`` or a metavariable cannot be pasted."""
    code = command.line.split(" #", 1)[0]
    assert not PLACEHOLDER.search(code), f"{command.document}: {command.line!r} is not a runnable command"


@pytest.fixture
def shell_env(tmp_path_factory):
    """PATH with ``bounds`` (and ``python``) as this interpreter, PYTHONPATH as the suite's."""
    bin_dir = tmp_path_factory.mktemp("bin")
    for name, target in (("bounds", f'exec "{sys.executable}" -m bounds "$@"'), ("python", f'exec "{sys.executable}" "$@"')):
        (bin_dir / name).write_text(f"#!/bin/sh\n{target}\n")
        (bin_dir / name).chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", MPLBACKEND="agg")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return env


@pytest.mark.parametrize("command", [_param(c) for c in COMMANDS])
def test_command_runs_as_printed(command, tmp_path, shell_env):
    reason = next((why for prefix, why in SKIPPED if command.line.startswith(prefix)), None)
    if reason:
        pytest.skip(reason)
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    for line in command.setup:
        subprocess.run(["bash", "-c", line], cwd=tmp_path, env=shell_env, check=True, timeout=60)
    done = subprocess.run(["bash", "-c", command.line], cwd=tmp_path, env=shell_env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, f"{command.document}: `{command.line}` exited {done.returncode}:\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, done.stderr[-2000:]


def test_a_failing_command_fails(tmp_path, shell_env):
    """The runner sees an exit status: a bad option exits 2 through the same shell."""
    done = subprocess.run(["bash", "-c", "bounds dame --sizes poisson:5 --n 0 --alpha 0.5"], cwd=tmp_path,
                          env=shell_env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--n" in done.stderr


def test_the_extractor_finds_blocks_inline_commands_and_setup_lines():
    md = "x `bounds dame --sizes poisson:5` y `bounds figures`\n```bash\nprintf 1 > c.txt\nbounds cummings --counts c.txt --eps 1\n```\n"
    assert _inline_commands(md) == ["bounds dame --sizes poisson:5"]
    assert _markdown_blocks(md) == [["printf 1 > c.txt", "bounds cummings --counts c.txt --eps 1"]]
    rst = "Text\n\n.. code-block:: bash\n\n   bounds --version\n   bounds kent --n 1\n\nAfter ``bounds kent --n 2``.\n"
    assert _rst_blocks(rst) == [["", "bounds --version", "bounds kent --n 1", ""]]
    assert _inline_commands(rst) == ["bounds kent --n 2"]
    assert PLACEHOLDER.search("bounds dame --sizes poisson:5 [--precision 40]")
    assert PLACEHOLDER.search("bounds advise --counts FILE")
    assert not PLACEHOLDER.search("bounds dame --sizes poisson:5 --n 10000")


def _python_blocks() -> list[tuple[str, str]]:
    """The Python code blocks of the reST pages (README.md's is a doctest, run by pytest itself)."""
    found = []
    for path in DOCUMENTS:
        if path.suffix != ".rst":
            continue
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if re.match(r"\s*\.\. code-block:: python\s*$", line):
                indent = len(line) - len(line.lstrip())
                body = []
                for text in lines[i + 1:]:
                    if text.strip() and len(text) - len(text.lstrip()) <= indent:
                        break
                    body.append(text)
                found.append((f"{path.relative_to(ROOT)}:{i + 1}", textwrap.dedent("\n".join(body))))
    return found


@pytest.mark.parametrize("where, code", [pytest.param(w, c, id=w) for w, c in _python_blocks()])
def test_python_blocks_run(where, code, capsys):
    exec(compile(code, where, "exec"), {"__name__": "__docs__"})
