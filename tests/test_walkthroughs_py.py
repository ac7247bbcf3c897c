"""The Python walkthroughs of torch.optim and autograd.Function (scripts/*.py with a golden
beside them): gradsh's table output equals the golden, and what they print equals what
`python` prints with real PyTorch. (`gradsh test` runs only .grad goldens so far.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
WALKTHROUGHS = ["adam_steplr_regression", "custom_function_ste"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=SCRIPTS,
                          env=ENV, timeout=300, check=False)


@pytest.mark.parametrize("name", WALKTHROUGHS)
def test_table_output_matches_golden(name):
    result = _run("-m", "gradsh", "run", f"{name}.py")
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == (SCRIPTS / f"{name}.out").read_text()


@pytest.mark.parametrize("name", WALKTHROUGHS)
def test_printed_output_matches_torch(torch, name):
    ours = _run("-m", "gradsh", "run", "--quiet", f"{name}.py")
    theirs = _run(f"{name}.py")
    assert theirs.returncode == 0, theirs.stderr
    assert ours.stdout == theirs.stdout
