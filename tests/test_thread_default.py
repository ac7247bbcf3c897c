"""gradsh starts at the thread count PyTorch starts with on the same machine (which decides the
bits of MKL's products and of large loops and sums), so a program run without any setting
prints what it prints under PyTorch: checked in fresh processes of both."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PROGRAM = """
import torch
torch.manual_seed(0)
a, b = torch.randn(64, 784), torch.randn(784, 128)
print(torch.get_num_threads())
print((a @ b).sum().item(), (a @ b)[3, :4].tolist())
x = torch.randn(6, 3)
print(torch.nn.functional.batch_norm(x, None, None, training=True).tolist())
"""


def _env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "GRADSH_NUM_THREADS")}
    env.update(settings, PYTHONHASHSEED="0")
    return env


@pytest.mark.parametrize("settings", [{}, {"OMP_NUM_THREADS": "1"}, {"MKL_NUM_THREADS": "1"}],
                         ids=["default", "OMP_NUM_THREADS=1", "MKL_NUM_THREADS=1"])
def test_a_program_prints_what_torch_prints(settings: dict[str, str], torch: Any,
                                            tmp_path: Path) -> None:
    program = tmp_path / "threads.py"
    program.write_text(PROGRAM)
    theirs = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                            env=_env(**settings), check=True).stdout
    ours = subprocess.run([sys.executable, "-m", "gradsh", "run", "--quiet", str(program)],
                          capture_output=True, text=True, env=_env(**settings), check=True).stdout
    assert ours == theirs
