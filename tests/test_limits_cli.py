"""Inputs that once ended runs with `gradsh: internal error`: each is now a clean one-line error
with the right exit code, or simply works (issue 18)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def gradsh(*args: str, env: dict[str, str] | None = None, **kwargs: object
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gradsh", *args], capture_output=True,
                          text=True, env=env or ENV, timeout=120, **kwargs)  # type: ignore[call-overload]


def no_internal_error(run: subprocess.CompletedProcess[str]) -> None:
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr, run.stderr


@pytest.mark.parametrize("option", [["--width", "-5"], ["--width", "0"], ["--timeout", "-1"],
                                    ["--timeout", "nan"], ["--timeout", "inf"],
                                    ["--timeout", "1e300"]])
def test_bad_limits_are_usage_errors(option: list[str]) -> None:
    run = gradsh("-c", "x = tensor(1.)", *option)
    assert run.returncode == 2
    assert run.stderr.splitlines()[-1].startswith(f"gradsh: error: argument {option[0]}: ")


def test_a_bad_limit_in_the_header_is_a_usage_error_too(tmp_path: Path) -> None:
    script = tmp_path / "a.grad"
    script.write_text("# gradsh: --timeout -1\nx = tensor(1.)\n")
    run = gradsh(str(script))
    assert run.returncode == 2 and "--timeout must be more than 0" in run.stderr


@pytest.mark.parametrize("mode", [[], ["--json"]])
def test_huge_ints_show_in_the_table_and_the_trace(mode: list[str]) -> None:
    run = gradsh("run", *mode, "/dev/stdin", input="x = 10**5000\ny = 2**2**2**2**2\n")
    no_internal_error(run)
    assert run.returncode == 0
    if mode:  # (the table shows tensors only)
        assert "<int of about 5001 digits>" in run.stdout
        last = json.loads(run.stdout.splitlines()[-1])
        assert last["vars"]["y"] == {"kind": "int", "repr": "<int of about 19729 digits>"}


def test_printing_a_huge_int_is_pythons_value_error() -> None:
    run = gradsh("-c", "print 10**4301")
    no_internal_error(run)
    assert run.returncode == 1
    assert "<string>:1:1: ValueError: Exceeds the limit (4300 digits) for integer string " \
        "conversion" in run.stderr


def test_a_list_inside_itself_prints_as_python_prints_it() -> None:
    run = gradsh("run", "--quiet", "/dev/stdin", input="l = [1, 2]\nl[0] = l\nprint l\n")
    no_internal_error(run)
    assert run.stdout == "[[...], 2]\n"
    table = gradsh("run", "/dev/stdin", input="l = [1, 2]\nl[0] = l\nprint l\n")
    no_internal_error(table)
    assert table.returncode == 0


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("mode", [[], ["--json"]])
def test_a_full_disk_is_one_line_and_exit_1(mode: list[str]) -> None:
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "gradsh", "-c", "x = tensor(1.)", *mode],
                             stdout=full, stderr=subprocess.PIPE, text=True, env=ENV,
                             timeout=60)
    assert run.returncode == 1
    assert run.stderr == "gradsh: error: cannot write the output: No space left on device\n"


def test_closed_stdout_and_stdin() -> None:
    closed_out = subprocess.run(f"{sys.executable} -m gradsh -c 'x = tensor(1.)' >&-",
                                shell=True, capture_output=False, stderr=subprocess.PIPE,
                                text=True, env=ENV, timeout=60)
    assert closed_out.returncode == 2
    assert closed_out.stderr == "gradsh: error: standard output is closed\n"
    closed_in = subprocess.run(f"{sys.executable} -m gradsh <&-", shell=True,
                               capture_output=True, text=True, env=ENV, timeout=60)
    assert closed_in.returncode == 2
    assert "standard input is closed" in closed_in.stderr


def test_a_script_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    script = tmp_path / "big.grad"
    script.write_text("x = tensor(1.)\n" * 10)
    run = gradsh(str(script), env={**ENV, "GRADSH_MAX_SCRIPT_BYTES": "100"})
    assert run.returncode == 2
    assert "is larger than 100 bytes" in run.stderr
    zero = gradsh("/dev/zero", env={**ENV, "GRADSH_MAX_SCRIPT_BYTES": "1000"})
    assert zero.returncode == 2 and "/dev/zero is larger than 1,000 bytes" in zero.stderr


def test_timeout_covers_parsing(tmp_path: Path) -> None:
    script = tmp_path / "long.grad"
    script.write_text("x = " + "1+" * 2_000_000 + "1\n")
    run = gradsh("--timeout", "1", str(script))
    assert run.returncode == 1
    assert "TimeoutError: parsing the script took longer than --timeout 1 seconds" in run.stderr


def test_history_in_a_directory_falls_back_to_memory(tmp_path: Path) -> None:
    from prompt_toolkit.history import InMemoryHistory

    from gradsh.repl.history import open_history

    folder = tmp_path / "history"
    folder.mkdir()
    history, reason = open_history(folder)
    assert isinstance(history, InMemoryHistory)
    assert reason is not None and "history is not saved" in reason
    fresh = tmp_path / "state" / "gradsh" / "history"
    _, none = open_history(fresh)
    assert none is None and stat.S_IMODE(fresh.stat().st_mode) == 0o600


def test_a_long_string_literal_parses_in_linear_memory(tmp_path: Path) -> None:
    """The STRING terminal once cost ~500 bytes per character (a 10 MB literal: 5 GB)."""
    script = tmp_path / "s.grad"
    script.write_text('x = "' + "a" * 2_000_000 + '"\n')
    if not os.path.exists("/usr/bin/time"):
        pytest.skip("/usr/bin/time is not installed")
    run = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "gradsh", "run",
                          "--quiet", str(script)], capture_output=True, text=True, env=ENV,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    peak_kb = int(run.stderr.strip().splitlines()[-1])
    assert peak_kb < 400_000, f"peak {peak_kb} KB"


def test_timeout_ends_a_computation_numpy_will_not_let_go() -> None:
    """One long NumPy call cannot be interrupted by the SIGALRM handler: the watchdog ends the
    process with the one-line timeout error shortly after the deadline."""
    import time

    start = time.monotonic()
    run = gradsh("--timeout", "1", "-c", "x = ones(1).expand(4*10**5, 10**5).sum(0)")
    assert time.monotonic() - start < 30
    assert run.returncode == 1
    assert run.stderr.endswith("gradsh: TimeoutError: the run went past --timeout 1 seconds "
                               "inside one computation that could not be interrupted; "
                               "stopped\n")
