"""The README's promises: its two set-up commands are the ones CI runs, its docs are current."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _fenced_commands(markdown: str, heading: str) -> list[str]:
    section = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readme_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    [install] = _fenced_commands(readme, "Try it")
    [test] = _fenced_commands(readme, "Test")
    assert install in ci
    assert test.replace("python -m pytest", "python -m pytest -q") in ci or test in ci


def test_readme_example_script_exists() -> None:
    readme = (ROOT / "README.md").read_text()
    [install] = _fenced_commands(readme, "Try it")
    script = install.split()[-1]
    assert (ROOT / script).is_file()


def test_builtin_docs_are_generated_from_the_table() -> None:
    from gradsh.docs import builtins_markdown

    assert (ROOT / "docs" / "builtins.md").read_text() == builtins_markdown()
