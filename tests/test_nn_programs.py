"""Whole programs using torch.nn (tests/nn_programs/*.py): `gradsh run --quiet` prints exactly
what `python` prints with the real torch (stdout and stderr: warnings, error messages)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = sorted((ROOT / "tests" / "nn_programs").glob("*.py"))


def _run(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300,
                          cwd=ROOT, check=False)
    return done.stdout + done.stderr


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_what_torch_prints(torch: Any, program: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONWARNINGS="default")
    expected = _run([sys.executable, str(program)], env)
    actual = _run([sys.executable, "-m", "gradsh", "run", "--quiet", str(program)], env)
    assert actual == expected
