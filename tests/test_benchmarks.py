"""The benchmark suite runs (tiny sizes); timings are never asserted."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import probes, run  # noqa: E402


def test_one_quick_row_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert run.main(["--quick", "--row", "render", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert "not a measurement" in out
    rows = [line for line in out.splitlines() if line.startswith("render")]
    assert len(rows) == 6  # 20 variables of 4 elements, then of 10 (--quick's 1,000)
    assert "--quiet took 0 snapshots, copied 0 values" in rows[2]
    assert "--quiet took 0 snapshots, copied 0 values" in rows[5]


def test_the_probes_measure_gradsh_and_numpy() -> None:
    for impl in ("gradsh", "numpy"):
        assert probes.elementwise(impl, 1000, 1)["seconds"] > 0
        assert probes.matmul(impl, 8, 1)["seconds"] > 0
    assert probes.conv2d("gradsh", 2, 1)["seconds"] > 0
    assert probes.perop("engine", 50)["us_per_op"] > 0
    for impl in ("engine", "gradsh"):  # from Python, and a .grad script's statements
        deep = probes.deep(impl, 100)
        assert deep["forward_us_per_node"] > 0 and deep["backward_us_per_node"] > 0
    trained = [probes.mlp(impl, 8, 16, 2) for impl in ("gradsh", "numpy")]
    assert all(run["seconds"] > 0 and run["faults"] >= 0 for run in trained)
    assert float.fromhex(trained[0]["loss"]) > 0
    assert set(probes.retained("engine", 1000, 1)) == {"peak_mib", "retained_mib",
                                                       "kept_by_graph_mib"}


def test_a_missing_comparator_says_why() -> None:
    side = run.Side("torch", missing=run.TORCH_MISSING)
    result = run.Result("per-op", "a loop", "µs/op", run.Side("gradsh", [1.0, 3.0, 2.0]), side,
                        goal=3.0)
    assert result.ratio is None and result.met is None
    table = run.format_plain([result])
    assert "torch not installed" in table and "2.00 µs/op ±50%" in table


def test_a_memory_goal_is_checked_to_its_resolution() -> None:
    """A difference below the row's resolution (a page of RSS) is no miss; one above it is."""
    def met(gradsh: float, torch: float, resolution: float) -> bool | None:
        return run.Result("memory", "case", "MiB", run.Side("gradsh", [gradsh]),
                          run.Side("torch", [torch]), goal=1.0, resolution=resolution).met

    assert met(0.0083, 0.0044, 0.0) is False  # the strict check
    assert met(0.0083, 0.0044, 1.0) is True
    assert met(229.4, 229.1, 1.0) is True
    assert met(231.0, 229.1, 1.0) is False
    assert met(0.0, 0.0, 0.0) is True
    result = run.Result("memory", "case", "MiB", run.Side("gradsh", [1.0]),
                        run.Side("torch", [1.0]), goal=1.0, resolution=1.0)
    assert "±1 MiB" in run.table_rows([result])[0][5]


def test_the_mlp_program_runs_under_gradsh_and_torch_alike(torch: object) -> None:
    # benchmarks/programs/mlp.py is one program for both sides; tiny sizes, same last loss
    import subprocess

    env = dict(os.environ, MLP_BATCH="8", MLP_HIDDEN="16", MLP_STEPS="2",
               PYTHONPATH=str(ROOT))
    program = str(ROOT / "benchmarks" / "programs" / "mlp.py")
    outputs = [subprocess.run(command, check=True, capture_output=True, text=True, env=env,
                              cwd=ROOT).stdout for command in
               ([sys.executable, program], [sys.executable, "-m", "gradsh", "run", "--quiet",
                                            program])]
    losses = {json.loads(out.splitlines()[-1])["loss"] for out in outputs}
    assert len(losses) == 1
    assert probes.statements("torch", 10)["us_per_statement"] > 0
