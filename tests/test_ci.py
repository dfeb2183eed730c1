"""CI runs the README's quick start exactly as printed (``.ci/run``, step 1)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, flags=re.S)
    assert block is not None, "the README's quick start has no bash block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def _ci_quick_start() -> list[str]:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "verbatim" in line)
    commands = []
    for line in lines[start + 1:]:
        if line.strip() == ")":
            break
        commands.append(line.strip())
    return commands


def test_ci_runs_the_readme_quick_start_verbatim():
    readme = _readme_quick_start()
    assert len(readme) == 2, readme
    assert _ci_quick_start() == readme


def test_ci_checks_the_tree_is_clean_after_the_quick_start():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    quick_start_end = script.index("\n)\n")
    assert "git status --porcelain" in script[quick_start_end:]
    # the fresh venv holds only what the quick start installs: nothing is installed before it
    assert "pip install" not in script[: script.index("verbatim")]
