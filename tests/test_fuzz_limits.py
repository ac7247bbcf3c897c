"""Fuzzing gradsh's limits: big literals, long lines, self-referential containers and the limit
options themselves. Whatever the input, only gradsh's one-line errors come out, in bounded time
and memory (issue 18). Run with `-m fuzz`; the subprocess runs carry the `slow` marker.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradsh.golden import fresh_state
from gradsh.runner import RunOptions, run_source

pytestmark = pytest.mark.fuzz

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
LIMIT = 64 << 20  # every in-process run here is bounded so: a failure must not eat the machine


def run_text(source: str, mode: str = "table") -> tuple[int, str, float]:
    """Run `source` in process as `gradsh run --keep-going --max-memory 64M --timeout 20`:
    exit code, all output, and the seconds it took."""
    buffer = io.StringIO()
    fresh_state()
    start = time.monotonic()
    options = RunOptions(mode=mode, keep_going=True, seed=0, timeout=20, max_memory=LIMIT)
    try:
        code = run_source(source, "fuzz.grad", options, buffer, buffer)
    finally:
        fresh_state()
    return code, buffer.getvalue(), time.monotonic() - start


def assert_clean(code: int, output: str) -> None:
    assert code in (0, 1, 2), output[-2000:]
    assert "Traceback (most recent call last)" not in output, output[-2000:]
    assert "InternalError" not in output and "internal error" not in output, output[-2000:]


# -- big literals ------------------------------------------------------------------------------

SIZES = st.sampled_from([0, 1, 7, 10**3, 10**5, 10**7, 10**9, 10**12, 2**62, 10**30])
BIG = [
    "x = 10 ** {n}", "x = 2 ** {n} + 1", "x = (-7) ** {n}", "x = {n} ** {n}",
    "x = zeros({n})", "x = ones({n}, {n})", "x = [0] * {n}", 'x = "ab" * {n}', "x = (1,) * {n}",
    "x = arange({n})", "x = linspace(0, 1, {n})", "x = randn({n})", "x = eye({n})",
    "x = ones(1).expand({n}, {n}).sum()", "x = ones(1).expand({n}).exp()", "x = full(({n},), 2.)",
    "x = ones(3).repeat({n})", "x = randint(0, 5, ({n},))", "x = randperm({n})",
    "x = tensor([1., 2.]).expand({n}, 2) @ ones(2, {n})", "x = list(range({n}))",
    "x = ones(2).index_select(0, zeros({n}, dtype=int64))", "x = diag(ones({n}))",
    "x = ones({n}, dtype=bool).nonzero()", "x = one_hot(tensor([{n}]))", "x = {n}.0 ** {n}",
    "x = tensor({n})", "x = tensor([{n}, {n}])", "print {n}", "x = 1{digits}",
]


@st.composite
def big_literal(draw: Any) -> str:
    template = draw(st.sampled_from(BIG))
    return template.format(n=draw(SIZES), digits="0" * draw(st.sampled_from([1, 50, 5000])))


@settings(max_examples=60)
@given(st.lists(big_literal(), min_size=1, max_size=4))
def test_big_literals_are_results_or_clean_errors(lines: list[str]) -> None:
    code, output, seconds = run_text("\n".join(lines) + "\nprint 1\n")
    assert_clean(code, output)
    assert seconds < 30, lines


# -- long lines --------------------------------------------------------------------------------

LONG = [
    lambda n: "x = " + " + ".join(["1"] * n),
    lambda n: 'x = "' + "a" * n + '"',
    lambda n: "x = [" + ", ".join(["1."] * n) + "]",
    lambda n: "x = tensor([" + ", ".join(["1."] * n) + "])",
    lambda n: "; ".join(["x = 1"] * n),
    lambda n: "v" * n + " = 1",
    lambda n: "x = " + "(" * n + "1" + ")" * n,
    lambda n: "x = tensor(1.)" + ".exp()" * n,
    lambda n: "x = " + "-" * n + "1",
]


@st.composite
def long_line(draw: Any) -> str:
    n = draw(st.sampled_from([1, 10, 1_000, 20_000]))
    return draw(st.sampled_from(LONG))(n)


@settings(max_examples=30)
@given(long_line(), st.sampled_from(["table", "json", "quiet"]))
def test_long_lines_are_results_or_clean_errors(line: str, mode: str) -> None:
    code, output, seconds = run_text(line + "\nprint 1\n", mode)
    assert_clean(code, output)
    assert seconds < 30


# -- self-referential containers ---------------------------------------------------------------

MAKE_CYCLE = ["l = [1, 2]; l[0] = l", "l = [1.]; m = [l]; l[0] = m",
              "l = [[1., 2.], [3., 4.]]; k = l[1]; k[0] = l", "l = [1]; t = (l, l); l[0] = t"]
USE_CYCLE = ["print l", "x = tensor(l)", "x = len(l)", "x = l == l", "show", "x = l * 2",
             "m = [l, l]", "x = list(l)", "x = sum(l)", "x = zeros(l)", "x = l[0][0][0]",
             "assert l", "x = tuple(l)", "x = Tensor(l)", "x = tensor(1.).reshape(l)",
             "x = max(l)", "x = [l] + l", "print(l, l)", "x = l", "del l"]


@settings(max_examples=40)
@given(st.sampled_from(MAKE_CYCLE), st.lists(st.sampled_from(USE_CYCLE), min_size=1, max_size=4),
       st.sampled_from(["table", "json", "quiet", "final"]))
def test_self_referential_containers(make: str, uses: list[str], mode: str) -> None:
    code, output, seconds = run_text("\n".join([make, *uses, "print 1"]) + "\n", mode)
    assert_clean(code, output)
    assert seconds < 30


# -- the limit options themselves, in a real process (slow) ------------------------------------

SIZE_OPTIONS = st.sampled_from(["1K", "100K", "1M", "16M", "100M", "256M", "0.5G"])
TIMEOUT_OPTIONS = st.sampled_from(["0.01", "0.5", "2", "1e-9"])


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(SIZE_OPTIONS, TIMEOUT_OPTIONS, st.lists(big_literal(), min_size=1, max_size=3),
       st.booleans())
def test_limit_options_bound_a_real_run(size: str, timeout: str, lines: list[str],
                                        in_header: bool) -> None:
    """Any mix of --max-memory, --timeout and big work: a clean exit in about the time allowed,
    and never more memory than the limit, gradsh's own and its slack (limits.thresholds)."""
    options = ["--max-memory", size, "--timeout", timeout]
    source = "\n".join(lines) + "\nprint 1\n"
    if in_header:
        source = f"# gradsh: {' '.join(options)}\n" + source
        options = []
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-c", MEASURED, sys.executable, "-m", "gradsh",
                          "--keep-going", *options, "-c", source],
                         capture_output=True, text=True, env=ENV, timeout=120)
    elapsed = time.monotonic() - start
    stderr, _, peak = run.stderr.rpartition("peak ")
    # 2: a literal with more digits than Python converts is a syntax error (SPEC: exit code 2)
    assert run.returncode in (0, 1, 2), stderr[-2000:]
    assert run.returncode != 2 or "SyntaxError: integer literal too large" in stderr, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    assert elapsed < float(timeout) + 15, (lines, elapsed)
    # every run here has at most 0.5 GiB, then gradsh's own memory and the watchdog's slack
    assert int(peak) < (512 + 2 * 64 + 300) << 20, (lines, int(peak) >> 20)


# Runs the command given after it and writes its peak resident memory last on stderr.
MEASURED = """if True:
    import resource, subprocess, sys
    code = subprocess.run(sys.argv[1:]).returncode
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    sys.stderr.write(f"peak {peak}")
    sys.exit(code)
"""
