"""The benchmark suite's machinery: a row's sides, alternating runs, fresh-process probes."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TORCH_MISSING = "torch not installed"

# Every BLAS and thread pool limited to one thread, set before the probe imports NumPy.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "GRADSH_NUM_THREADS": "1"}


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass
class Side:
    """One side of a row: what ran, and the value of each run."""

    label: str
    values: list[float] = field(default_factory=list)
    missing: str | None = None  # why it could not run ("torch not installed")

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None

    @property
    def noise(self) -> float | None:
        """(max - min) / median over the runs: how far apart the runs were."""
        if len(self.values) < 2 or not self.median:
            return None
        return (max(self.values) - min(self.values)) / abs(self.median)


@dataclass
class Result:
    """One line of the table: gradsh's side against the comparator's, and the goal.

    `goal` bounds the ratio gradsh / comparator; with `absolute`, it bounds gradsh's own value
    (the rendering budget) and the comparator column shows the budget. `resolution`, in the
    row's unit, is the smallest difference the measurement can tell from noise: gradsh meets
    the goal when it is at most goal x comparator + resolution (memory read as RSS: pages,
    allocator arenas).
    """

    row: str
    case: str
    unit: str
    gradsh: Side
    comparator: Side | None
    goal: float | None = None
    absolute: bool = False
    note: str = ""
    resolution: float = 0.0

    @property
    def ratio(self) -> float | None:
        if self.comparator is None:
            return None
        a, b = self.gradsh.median, self.comparator.median
        if a is None or b is None or b == 0:
            return None
        return a / b

    @property
    def met(self) -> bool | None:
        if self.goal is None:
            return None
        if self.absolute:
            value = self.gradsh.median
            return None if value is None else value <= self.goal
        a = self.gradsh.median
        b = self.comparator.median if self.comparator is not None else None
        if a is None or b is None:
            return None
        return a <= self.goal * b + self.resolution

    def as_dict(self) -> dict[str, Any]:
        return {
            "row": self.row, "case": self.case, "unit": self.unit,
            "gradsh": self.gradsh.median, "gradsh_noise": self.gradsh.noise,
            "comparator": self.comparator.label if self.comparator else None,
            "comparator_value": self.comparator.median if self.comparator else None,
            "comparator_noise": self.comparator.noise if self.comparator else None,
            "comparator_missing": self.comparator.missing if self.comparator else None,
            "ratio": self.ratio, "goal": self.goal, "absolute": self.absolute, "met": self.met,
            "resolution": self.resolution,
            "runs": len(self.gradsh.values), "note": self.note,
        }


# ---------------------------------------------------------------------------------------------
# Running things
# ---------------------------------------------------------------------------------------------


def load_average() -> float:
    """The 1-minute load average: how busy the machine was (0 where the system says nothing)."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def torch_available() -> bool:
    return importlib.util.find_spec("torch") is not None


def gradsh_command() -> list[str]:
    """The `gradsh` console script of this interpreter's environment (what a user runs)."""
    script = Path(sys.executable).parent / "gradsh"
    if script.exists():
        return [str(script)]
    found = shutil.which("gradsh")
    return [found] if found else [sys.executable, "-m", "gradsh"]


def _env() -> dict[str, str]:
    """Every measured process: this checkout first on the path, one thread each (ONE_THREAD:
    on a shared 2-core machine, thread pools that spin waiting for a busy core distort every
    side, and PyTorch's and NumPy's BLAS differ in how)."""
    env = dict(os.environ, **ONE_THREAD)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def wall_time(command: Sequence[str], cwd: Path = ROOT, env: dict[str, str] | None = None,
              failed: set[str] | None = None) -> float:
    """Seconds a command takes from start to exit (its output discarded). It must succeed,
    unless `failed` is given: then a command that exits with an error is added to it."""
    start = time.perf_counter()
    done = subprocess.run(command, check=failed is None, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL if failed is not None else None,
                          env=dict(_env(), **(env or {})), cwd=cwd)
    if done.returncode and failed is not None:
        failed.add(" ".join(command))
    return time.perf_counter() - start


def json_output(command: Sequence[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """The JSON object a command prints last (a program that times itself)."""
    done = subprocess.run(command, check=True, capture_output=True, text=True,
                          env=dict(_env(), **(env or {})), cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def probe(name: str, impl: str, env: dict[str, str] | None = None,
          **args: int) -> dict[str, float]:
    """Run one benchmarks.probes measurement in a fresh interpreter (with `env` added to its
    environment); its JSON result."""
    command = [sys.executable, "-m", "benchmarks.probes", name, "--impl", impl]
    for key, value in args.items():
        command += [f"--{key}", str(value)]
    done = subprocess.run(command, check=True, capture_output=True, text=True,
                          env=dict(_env(), **(env or {})), cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def alternate(runs: int, sides: Sequence[tuple[Side, Callable[[], Any]]],
              record: Callable[[Side, Any], None] | None = None) -> None:
    """Run each side once per round (A, B, A, B, ...), `runs` rounds; sides marked missing are
    skipped. `record` files a measurement (default: append the number to the side)."""
    for _ in range(runs):
        for side, measure in sides:
            if side.missing is None:
                value = measure()
                if record is None:
                    side.values.append(value)
                else:
                    record(side, value)


def torch_side(label: str) -> Side:
    return Side(label, missing=None if torch_available() else TORCH_MISSING)


# ---------------------------------------------------------------------------------------------
# The rows
# ---------------------------------------------------------------------------------------------


@dataclass
class Config:
    runs: int
    quick: bool

    def size(self, full: int, quick: int) -> int:
        return quick if self.quick else full

    def at_most(self, runs: int) -> Config:
        """The same, with no more than `runs` rounds (for rows whose runs take minutes)."""
        return Config(min(self.runs, runs), self.quick)


def count(n: int) -> str:
    """10M, 20k, 1M, 2048: sizes as the issue names them."""
    for unit, size in (("M", 1_000_000), ("k", 1_000)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def pick(side: Side, key: str) -> Side:
    """The runs of one quantity out of a side whose runs are probe dictionaries."""
    return Side(side.label, [run[key] for run in side.values], side.missing)  # type: ignore[index]
