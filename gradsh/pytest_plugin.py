"""pytest plugin: each `x.grad` with a golden `x.out` is one test, compared by gradsh.golden.

Registered through the `pytest11` entry point, so `pytest scripts/` collects goldens wherever
gradsh is installed (`-p no:gradsh` turns it off). A script is collected when it has a golden or
sits in a folder of goldens (one without is then reported missing), or when named on the
command line; folders of plain scripts elsewhere in the tree are left alone.
`pytest --gradsh-update` rewrites the goldens instead of comparing, as `gradsh test --update`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gradsh import golden

_UPDATED = pytest.StashKey[list[tuple[str, Path]]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gradsh", "gradsh golden-output tests")
    group.addoption("--gradsh-update", action="store_true", default=False,
                    help="rewrite the .out goldens of .grad scripts from their current output")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_UPDATED] = []


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if golden.is_python_case(file_path):  # a Python walkthrough with its golden
        return GoldenFile.from_parent(parent, path=file_path)
    if file_path.suffix != golden.SCRIPT_SUFFIX:
        return None
    if parent.session.isinitpath(file_path) or golden.in_golden_folder(file_path):
        return GoldenFile.from_parent(parent, path=file_path)
    return None


class GoldenFile(pytest.File):
    """A `.grad` script: one item, its golden comparison."""

    def collect(self) -> list[GoldenItem]:
        return [GoldenItem.from_parent(self, name="golden")]


class GoldenMismatch(Exception):
    """The script's output differs from its golden, or it has none."""

    def __init__(self, case: golden.Case) -> None:
        super().__init__(case.report())
        self.case = case


class GoldenItem(pytest.Item):
    def runtest(self) -> None:
        update = bool(self.config.getoption("gradsh_update"))
        case = golden.run_case(self.path, update=update)
        if case.status in (golden.UPDATED, golden.CREATED):
            self.config.stash[_UPDATED].append((case.status, case.golden))
        if not case.ok:
            raise GoldenMismatch(case)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str | Any:
        if isinstance(excinfo.value, GoldenMismatch):
            color = self.config.get_terminal_writer().hasmarkup
            report = excinfo.value.case.report(color)
            if excinfo.value.case.status == golden.FAILED:
                report += "\n(run `pytest --gradsh-update` or `gradsh test --update` to accept)"
            return report
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"golden {self.path.name}"


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int,
                            config: pytest.Config) -> None:
    updated = config.stash.get(_UPDATED, [])
    if updated:
        terminalreporter.section("gradsh goldens")
        for status, path in updated:
            terminalreporter.write_line(f"{status} {path}")
