"""Small programs over the APIs added for real programs (tests/api2_programs/*.py): gradsh run's
stdout must be PyTorch's, object addresses aside."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAMS = sorted((Path(__file__).parent / "api2_programs").glob("*.py"))
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_stdout_matches_torch(torch, program):
    expected = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                              check=True).stdout
    got = subprocess.run([sys.executable, "-m", "gradsh", "run", "--quiet", str(program)],
                         capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    assert _ADDRESS.sub("", got.stdout) == _ADDRESS.sub("", expected)
