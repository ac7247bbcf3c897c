"""The README's promises: its set-up commands are the ones CI runs, the files it names are
shipped, the output it shows is gradsh's real output, its docs are current."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _fenced_commands(markdown: str, heading: str) -> list[str]:
    section = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readme_commands() -> None:
    """"Try it" is clone, cd, a virtual environment, install and run; CI has the clone and
    makes a fresh environment of its own, then runs the install line and the test command
    word for word."""
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    clone, venv, install = _fenced_commands(readme, "Try it")
    [test] = _fenced_commands(readme, "Test")
    assert re.fullmatch(r"git clone \S.* gradsh && cd gradsh", clone)
    assert venv == "python3 -m venv .venv && . .venv/bin/activate"
    assert any(line.startswith("python3 -m venv ") for line in ci)
    assert install in ci
    assert test.replace("python -m pytest", "python -m pytest -q") in ci or test in ci


def test_readme_example_script_exists() -> None:
    readme = (ROOT / "README.md").read_text()
    install = _fenced_commands(readme, "Try it")[-1]
    script = install.split()[-1]
    assert (ROOT / script).is_file()


def test_every_file_the_readme_names_is_shipped() -> None:
    """A file the README names (`scripts/tour.grad`, `docs/builtins.md`) is in the repository."""
    readme = (ROOT / "README.md").read_text()
    files = r"(?<![\w/.-])((?:scripts|docs|tests|benchmarks|gradsh|\.ci)/[\w./-]*\.\w+)"
    named = {path for path in re.findall(files, readme) if "NAME" not in path}  # a placeholder
    assert "scripts/tour.grad" in named and "docs/builtins.md" in named
    missing = sorted(path for path in named if not (ROOT / path).exists())
    assert missing == []


def test_the_tour_shows_what_gradsh_shows() -> None:
    """The README's tour output is the real output of `gradsh scripts/tour.grad`, piped: its
    lines appear in that output in the same order (`...` stands for steps left out)."""
    import io

    from gradsh.golden import fresh_state
    from gradsh.runner import RunOptions, run_source

    readme = (ROOT / "README.md").read_text()
    section = readme.split("## A tour\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```\n(.*?)```", section, flags=re.S)
    script, shown = blocks[0], blocks[1]
    source = (ROOT / "scripts" / "tour.grad").read_text()
    assert script in source  # the statements shown are the script's
    out = io.StringIO()
    fresh_state()
    try:
        run_source(source, "scripts/tour.grad", RunOptions(seed=0, width=100), out, out)
    finally:
        fresh_state()
    real = iter(out.getvalue().splitlines())
    for line in shown.splitlines():
        if line == "...":
            continue
        assert any(line == got for got in real), f"not in gradsh's output (in order): {line!r}"


def test_builtin_docs_are_generated_from_the_table() -> None:
    from gradsh.docs import builtins_markdown

    assert (ROOT / "docs" / "builtins.md").read_text() == builtins_markdown()


def _command_blocks(command: str) -> list[tuple[list[str], list[str]]]:
    """The README's blocks that start `$ gradsh COMMAND ...`: the arguments and the lines shown."""
    readme = (ROOT / "README.md").read_text()
    found = []
    for block in re.findall(r"```\n\$ gradsh (.*?)```", readme, flags=re.S):
        head, *lines = block.splitlines()
        words = head.split("#")[0].split()
        if words[0] == command:
            found.append((words[1:], lines))
    return found


def _shown_in(lines: list[str], output: str) -> None:
    real = iter(output.splitlines())
    for line in lines:
        if line != "...":
            assert any(line == got for got in real), f"not in the real output, in order: {line!r}"


def test_the_export_example_is_real(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from gradsh import export

    [(args, lines)] = _command_blocks("export")
    monkeypatch.chdir(ROOT)
    assert export.cli_main(args) == 0
    _shown_in(lines, capsys.readouterr().out)


def test_the_check_example_is_real(torch: object, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    from gradsh import check

    [(args, lines)] = _command_blocks("check")
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("GRADSH_SIM_CUDA", raising=False)
    check.cli_main(args)
    _shown_in(lines, capsys.readouterr().out)
