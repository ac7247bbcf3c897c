"""The benchmark suite runs (tiny sizes); timings are never asserted."""

from __future__ import annotations

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
    assert len(rows) == 3
    assert "--quiet took 0 snapshots, copied 0 values" in rows[2]


def test_the_probes_measure_gradsh_and_numpy() -> None:
    for impl in ("gradsh", "numpy"):
        assert probes.elementwise(impl, 1000, 1)["seconds"] > 0
        assert probes.matmul(impl, 8, 1)["seconds"] > 0
    assert probes.conv2d("gradsh", 2, 1)["seconds"] > 0
    assert probes.perop("engine", 50)["us_per_op"] > 0
    deep = probes.deep("engine", 100)
    assert deep["forward_us_per_node"] > 0 and deep["backward_us_per_node"] > 0
    assert set(probes.retained("engine", 1000, 1)) == {"peak_mib", "retained_mib",
                                                       "kept_by_graph_mib"}


def test_a_missing_comparator_says_why() -> None:
    side = run.Side("torch", missing=run.TORCH_MISSING)
    result = run.Result("per-op", "a loop", "µs/op", run.Side("gradsh", [1.0, 3.0, 2.0]), side,
                        goal=3.0)
    assert result.ratio is None and result.met is None
    table = run.format_plain([result])
    assert "torch not installed" in table and "2.00 µs/op ±50%" in table
