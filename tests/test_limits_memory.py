"""The memory limit bounds the process, and absurd work is refused before it starts (issue 18).

In process: every op that allocates checks its result and large temporaries against the limit
before allocating (tracemalloc sees what NumPy allocated meanwhile), and big creations keep their
temporaries small. In a real process: the watchdog stops what no check foresaw, and the peak
resident memory (/usr/bin/time) stays within the limit, gradsh's own and the watchdog's slack.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gradsh.torch as torch
from gradsh.engine import limits
from gradsh.engine.limits import MemoryLimitError
from gradsh.torch.nn import functional as F

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
LIMIT = 64 << 20


@pytest.fixture
def limit() -> Iterator[int]:
    """64 MiB, for the test to set as the limit when it is ready; the default afterwards."""
    yield LIMIT
    limits.set_max_memory(None)


def traced_peak(action: Callable[[], Any]) -> int:
    """The most memory Python and NumPy held at once while `action` ran, beyond the start."""
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        action()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


# Each op would allocate far more than 64 MiB (its result or its working memory), from inputs
# that fit. The inputs are made first, outside the measured call.
OVER_THE_LIMIT: dict[str, tuple[Callable[[], Any], Callable[[Any], Any]]] = {
    "linspace": (lambda: None, lambda _: torch.linspace(0, 1, 10**8)),
    "arange": (lambda: None, lambda _: torch.arange(10**8)),
    "eye": (lambda: None, lambda _: torch.eye(10_000)),
    "randn": (lambda: None, lambda _: torch.randn(2 * 10**8)),
    "randperm": (lambda: None, lambda _: torch.randperm(10**8)),
    "unique": (lambda: torch.randint(0, 100, (3 * 10**6,)), lambda x: x.unique()),
    "dropout": (lambda: torch.randn(8 * 10**6), lambda x: F.dropout(x, 0.5)),
    "nonzero": (lambda: torch.ones(10**7, dtype=torch.bool), lambda x: x.nonzero()),
    "cat": (lambda: torch.randn(6 * 10**6), lambda x: torch.cat([x, x, x])),
    "stack": (lambda: torch.randn(6 * 10**6), lambda x: torch.stack([x, x, x])),
    "repeat": (lambda: torch.randn(10**6), lambda x: x.repeat(30)),
    "pad": (lambda: torch.randn(100, 100), lambda x: F.pad(x, (5000, 5000, 5000, 5000))),
    "diag": (lambda: torch.randn(10**4), lambda x: torch.diag(x)),
    "tril": (lambda: torch.ones(1).expand(10**4, 10**4), lambda x: x.tril()),
    "index_select": (lambda: torch.zeros(10**7, dtype=torch.int64),
                     lambda i: torch.randn(10).index_select(0, i)),
    "gather": (lambda: torch.zeros(10**7, dtype=torch.int64),
               lambda i: torch.randn(10).gather(0, i)),
    "take": (lambda: torch.zeros(10**7, dtype=torch.int64), lambda i: torch.randn(10).take(i)),
    "to": (lambda: torch.randn(10**7), lambda x: x.to(torch.float64)),
    "sort": (lambda: torch.randn(5 * 10**6), lambda x: x.sort()),
    "topk": (lambda: torch.randn(5 * 10**6), lambda x: x.topk(10**6)),
    "softmax": (lambda: torch.randn(2 * 10**6), lambda x: x.softmax(0)),
    "kthvalue": (lambda: torch.randn(2 * 10**6), lambda x: x.kthvalue(3)),
    "one_hot": (lambda: torch.randint(0, 1000, (10**5,)), lambda x: F.one_hot(x)),
    "outer": (lambda: torch.randn(10**4), lambda x: torch.outer(x, x)),
    "advanced index": (lambda: torch.randn(10, 10**6),
                       lambda x: x[torch.zeros(30, dtype=torch.int64)]),
    "embedding": (lambda: torch.randn(1000, 1000),
                  lambda w: F.embedding(torch.zeros(10**5, dtype=torch.int64), w)),
    "cdist": (lambda: torch.randn(10**4, 3), lambda x: torch.cdist(x, x)),
    "conv2d": (lambda: torch.randn(1, 1, 2000, 2000),
               lambda x: F.conv2d(x, torch.randn(8, 1, 5, 5))),
    "broadcast": (lambda: torch.ones(5000, 1), lambda x: x + torch.ones(1, 5000)),
    "expanded view": (lambda: torch.ones(1).expand(10**4, 10**4), lambda x: x.exp()),
    "tolist": (lambda: torch.randn(3 * 10**6), lambda x: x.tolist()),
}


@pytest.mark.parametrize("name", OVER_THE_LIMIT)
def test_an_op_over_the_limit_is_refused_before_it_allocates(name: str, limit: int) -> None:
    make, op = OVER_THE_LIMIT[name]
    data = make()
    limits.set_max_memory(limit)  # counted from here: the input is the run's own
    raised: list[BaseException] = []

    def action() -> None:
        try:
            op(data)
        except MemoryLimitError as err:
            raised.append(err)

    peak = traced_peak(action)
    assert raised, f"{name} ran past the limit"
    assert "refusing" in str(raised[0]) and "\n" not in str(raised[0])
    assert peak < 8 << 20, f"{name} took {peak >> 20} MiB before refusing"


def test_memory_in_use_counts_not_only_the_tensor_asked_for() -> None:
    """Each tensor fits, the third does not fit beside the first two. (In a fresh process: in
    the test process, pages freed by earlier tests are reused and the run's growth is less.)"""
    run = subprocess.run(
        [sys.executable, "-m", "gradsh", "--quiet", "--max-memory", "64M", "-c",
         "a = randn(6000000)\nb = randn(6000000)\nc = randn(6000000)"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert run.returncode == 1
    assert run.stderr.startswith("<string>:3:5: RuntimeError: refusing to allocate 22.89 MiB "
                                 "for a tensor of shape [6000000]: the run already uses ")


N = 3 * 10**6
CREATIONS: dict[str, Callable[[], Any]] = {
    "randn": lambda: torch.randn(N), "rand": lambda: torch.rand(N),
    "randint": lambda: torch.randint(0, 9, (N,)),
    "randn float64": lambda: torch.randn(N, dtype=torch.float64),
    "arange": lambda: torch.arange(0.0, N), "linspace": lambda: torch.linspace(0, 1, N),
    "normal_": lambda: torch.empty(N).normal_(), "randperm": lambda: torch.randperm(N),
}


@pytest.mark.parametrize("name", CREATIONS)
def test_large_creations_keep_their_temporaries_small(name: str) -> None:
    """randn(2 * 10**8) once peaked at 9 times its result, linspace at 38 times: now the
    working memory is a few chunks, whatever the size."""
    result: list[Any] = []
    peak = traced_peak(lambda: result.append(CREATIONS[name]()))
    size = result[0]._data.nbytes
    own = size if name == "randperm" else 0  # the shuffle's own int64 array
    assert peak - size - own < max(size, 24 << 20), (name, peak >> 20, size >> 20)


def test_chunked_draws_are_the_stream_drawn_at_once() -> None:
    """Draws made chunk by chunk give the stream drawn at once (and PyTorch's: test_random)."""
    from gradsh.engine import random as grandom

    n = 3 * grandom._CHUNK + 21
    a = grandom.Generator(5).randn((n,), torch.float32)
    chunk = grandom._CHUNK
    try:
        grandom._CHUNK = n + 16  # one chunk
        b = grandom.Generator(5).randn((n,), torch.float32)
    finally:
        grandom._CHUNK = chunk
    assert np.array_equal(a.view(np.uint32), b.view(np.uint32))


def test_absurd_work_is_refused_at_once() -> None:
    view = torch.ones(1).expand(10**6, 10**6)  # a view: allowed, as in PyTorch
    assert view[0, :3].tolist() == [1.0, 1.0, 1.0] and view.t().shape == (10**6, 10**6)
    start = time.monotonic()
    with pytest.raises(MemoryLimitError, match="reads 1,000,000,000,000 elements"):
        view.sum()
    with pytest.raises(MemoryLimitError):
        view * 2
    assert time.monotonic() - start < 1


@pytest.mark.parametrize("source, message", [
    ("x = [0] * 10**10", "refusing to allocate 74.51 GiB for a list of 10,000,000,000 items"),
    ('x = "ab" * 10**10', "for a str of 20,000,000,000 characters"),
    ("x = 10**10**10", "an integer of about 10,000,000,000 digits"),
    ("x = 2**(10**400)", "an integer of far more digits"),
    ("x = 3**3000000", "an integer of about 1,431,364 digits"),
])
def test_python_values_over_the_limits_are_refused_before_cpython_builds_them(
        source: str, message: str) -> None:
    run = subprocess.run([sys.executable, "-m", "gradsh", "--max-memory", "100M", "-c", source],
                         capture_output=True, text=True, env=ENV, timeout=60)
    assert run.returncode == 1 and message in run.stderr, run.stderr


# -- a real process: peak resident memory ------------------------------------------------------

def peak_mib(*args: str, source: str | None = None) -> tuple[int, subprocess.CompletedProcess[str]]:
    """Run gradsh; its peak resident memory in MiB (GNU time) and the run."""
    if not os.path.exists("/usr/bin/time"):
        pytest.skip("/usr/bin/time is not installed")
    run = subprocess.run(["/usr/bin/time", "-f", "PEAK %M", sys.executable, "-m", "gradsh", *args],
                         input=source, capture_output=True, text=True, env=ENV, timeout=300)
    lines = run.stderr.splitlines()
    peak = int(lines[-1].split()[1]) // 1024
    run.stderr = "\n".join(line for line in lines[:-1] if not line.startswith("Command exited"))
    return peak, run


@pytest.fixture(scope="module")
def baseline_mib() -> int:
    return peak_mib("-c", "x = tensor(1.)")[0]


@pytest.mark.parametrize("program", [
    # many small arrays: no check sees them; the watchdog stops the program at its next step
    "import numpy as np\na = [np.ones(10**5) for _ in range(100000)]\nprint('unreachable')\n",
    # one NumPy call nothing interrupts: the watchdog ends the process
    "import numpy as np\na = np.ones(10**9)\nprint('unreachable')\n",
])
def test_the_watchdog_bounds_what_no_check_foresaw(program: str, tmp_path: Path,
                                                   baseline_mib: int) -> None:
    path = tmp_path / "hog.py"
    path.write_text(program)
    peak, run = peak_mib("--quiet", "--max-memory", "200M", str(path))
    assert run.returncode == 1 and "unreachable" not in run.stdout
    assert "MemoryError" in run.stderr and "gradsh's memory limit of 200.00 MiB" in run.stderr
    soft, hard = limits.thresholds(200 << 20)
    assert peak < baseline_mib + (hard >> 20) + 64, peak


def test_a_statement_past_the_limit_is_stopped_and_the_run_goes_on(baseline_mib: int) -> None:
    """A graph of a million small nodes: no single allocation is large."""
    source = ("x = tensor(1., grad)\ny = x\nrepeat 1000000 { y = y * 1.0001 }\n"
              "print y.grad_fn is None\n")
    peak, run = peak_mib("--quiet", "--keep-going", "--max-memory", "100M", source=source)
    assert run.returncode == 1, run.stderr
    assert "<stdin>:3:1: MemoryError: out of memory: the run used" in run.stderr
    assert run.stdout == "True\n"  # undone: y is still the leaf x
    assert peak < baseline_mib + (limits.thresholds(100 << 20)[1] >> 20) + 64


def test_the_issues_probes_stay_within_the_limit(baseline_mib: int) -> None:
    probes = ["x = linspace(0, 1, 10**8)", "x = arange(10**8)", "x = eye(10000)",
              "x = randint(0, 10**6, (2*10**7,)); y = x.unique()",
              "x = randn(2*10**7); y = dropout(x, 0.5)",
              "x = ones(10**7, dtype=bool); y = x.nonzero()",
              "x = randn(10**7); y = cat([x, x, x])", "x = randn(10**6); y = x.repeat(30)",
              "x = randn(10**4); y = diag(x)", "x = randn(2*10**7); y = x.sort()",
              "x = randn(2*10**8)", "x = randint(0, 1000, (10**6,)); y = one_hot(x)"]
    for probe in probes:
        peak, run = peak_mib("--quiet", "--max-memory", "100M", "-c", probe)
        assert run.returncode == 1 and "RuntimeError: refusing to allocate" in run.stderr, probe
        assert peak < baseline_mib + 100 + 16, (probe, peak)
