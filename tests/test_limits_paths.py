"""Issue 18, the rest: output proportional to the work, limit options in every path, names as
Python reads them, `:save` that never replaces a file unasked, the same exit code for a closed
pipe in every mode, and the probes that once ended in an internal error."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gradsh.repl.history import open_history

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def gradsh(*args: str, input: str | None = None, cwd: Path | None = None
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gradsh", *args], input=input,
                          capture_output=True, text=True, env=ENV, timeout=300, cwd=cwd)


def no_internal_error(run: subprocess.CompletedProcess[str]) -> None:
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr, run.stderr


# -- output proportional to the work -----------------------------------------------------------

def assignments(count: int) -> str:
    return "".join(f"x{i} = tensor([{i}., {i + 1}.], requires_grad=True) * 2\n"
                   for i in range(count))


def test_many_variables_make_a_linear_trace(tmp_path: Path) -> None:
    """3,000 one-line assignments once made a 773 MB JSON trace (every step repeated every
    variable) and took 240 s in table mode. 1,000 are enough to tell: the linear trace is 0.6 MB
    here, one that repeated every variable would be hundreds of times that."""
    count = 1000
    script = tmp_path / "many.grad"
    script.write_text(assignments(count))
    start = time.monotonic()
    trace = gradsh("run", "--json", str(script))
    seconds = time.monotonic() - start
    assert trace.returncode == 0, trace.stderr
    steps = [json.loads(line) for line in trace.stdout.splitlines()]
    assert len(steps) == count and len(trace.stdout) < 1_000_000
    # the SPEC's shape while there are few variables, then only what each step changed
    assert list(steps[49]["vars"]) == [f"x{i}" for i in range(50)] and "unchanged" not in steps[49]
    last = count - 1
    assert list(steps[last]["vars"]) == [f"x{last}"]
    assert steps[last]["unchanged"] == last and steps[last]["deleted"] == []
    assert steps[last]["vars"][f"x{last}"]["value"] == [2.0 * last, 2.0 * count]
    assert seconds < 120, seconds
    table = gradsh("run", str(script))
    assert table.returncode == 0 and len(table.stdout) < 1_000_000
    assert table.stdout.rstrip().endswith(f"({last:,} unchanged variables not shown; `show` "
                                          "lists every one)")


def test_changed_only_and_full() -> None:
    source = "a = tensor(1.)\nb = tensor(2.)\nb.add_(1)\ndel a\n"
    changed = [json.loads(line) for line in
               gradsh("--json", "--changed-only", "-c", source).stdout.splitlines()]
    assert [list(step["vars"]) for step in changed] == [["a"], ["b"], ["b"], []]
    assert [step["unchanged"] for step in changed] == [0, 1, 1, 1]
    assert changed[3]["deleted"] == ["a"]
    assert changed[2]["vars"]["b"]["value"] == 3.0
    full = [json.loads(line) for line in gradsh("--json", "--full", "-c",
                                                "x = arange(2000.)").stdout.splitlines()]
    assert full[0]["vars"]["x"]["value"] == [float(i) for i in range(2000)]
    table = gradsh("--changed-only", "-c", source).stdout
    assert "(1 unchanged variable not shown; `show` lists every one)" in table
    assert gradsh("--full", "--changed-only", "-c", source).returncode == 2


def test_large_values_are_summarised_in_the_trace() -> None:
    """One randn(10**7) step once wrote 206 MB of JSON."""
    run = gradsh("--json", "-c", "x = arange(10.**7).reshape(1000, 10000)\ny = x.sum()")
    no_internal_error(run)
    assert len(run.stdout) < 10_000
    step = json.loads(run.stdout.splitlines()[0])
    row = [0.0, 1.0, 2.0, "...", 9997.0, 9998.0, 9999.0]
    last = [9990000.0, 9990001.0, 9990002.0, "...", 9999997.0, 9999998.0, 9999999.0]
    assert step["vars"]["x"]["value"][:2] == [row, [10000.0 + v if v != "..." else v
                                                     for v in row]]
    assert step["vars"]["x"]["value"][3] == "..." and step["vars"]["x"]["value"][-1] == last
    assert step["vars"]["x"]["shape"] == [1000, 10000]


def test_a_view_of_any_size_shows_and_absurd_work_is_refused_at_once() -> None:
    start = time.monotonic()
    run = gradsh("--keep-going", "--json", "-c",
                 "x = ones(1).expand(10**6, 10**6)\ny = x[0, :3]\nz = x.sum()")
    assert time.monotonic() - start < 30
    steps = [json.loads(line) for line in run.stdout.splitlines()]
    assert steps[0]["ok"] and steps[0]["vars"]["x"]["shape"] == [10**6, 10**6]
    assert steps[1]["vars"]["y"]["value"] == [1.0, 1.0, 1.0]
    assert steps[2]["error"]["message"].startswith(
        "refusing an operation that reads 1,000,000,000,000 elements (a tensor of shape "
        "[1000000, 1000000])")
    table = gradsh("-c", "x = ones(1).expand(10**6, 10**6)\nz = x.sum()")
    assert table.returncode == 1 and len(table.stderr.splitlines()) == 4  # error, line, caret, undone
    assert "x*   [[1., 1., 1., ...], ...] [1000000, 1000000]" in table.stdout


# -- limit options in every path ----------------------------------------------------------------

HEADER = "# gradsh: --timeout 1 --max-memory 1K --seed 5\n"


@pytest.mark.parametrize("how", ["file", "stdin", "-c"])
def test_the_header_applies_however_the_script_comes(how: str, tmp_path: Path) -> None:
    source = HEADER + "x = rand(2)\ny = zeros(1000)\n"
    if how == "file":
        (tmp_path / "h.grad").write_text(source)
        run = gradsh("--quiet", str(tmp_path / "h.grad"))
    elif how == "stdin":
        run = gradsh("--quiet", input=source)
    else:
        run = gradsh("--quiet", "-c", source)
    assert run.returncode == 1
    assert "RuntimeError: refusing to allocate 3.91 KiB for a tensor of shape [1000]: gradsh's " \
           "memory limit is 1.00 KiB" in run.stderr
    seeded = gradsh("--quiet", "-c", HEADER.replace(" --max-memory 1K", "") + "print rand(2)")
    assert seeded.stdout == gradsh("--quiet", "--seed", "5", "-c", "print rand(2)").stdout
    slow = gradsh("--quiet", input=HEADER + "x = tensor(1.)\nrepeat 10**9 { x = x + 1 }\n")
    assert slow.returncode == 1 and "TimeoutError" in slow.stderr


def test_gradsh_test_applies_the_header_limits(tmp_path: Path) -> None:
    (tmp_path / "t.grad").write_text(HEADER + "y = zeros(1000)\n")
    (tmp_path / "slow.grad").write_text(HEADER + "x = tensor(1.)\nrepeat 10**9 { x = x + 1 }\n")
    assert gradsh("test", "--update", str(tmp_path)).returncode == 0
    out = (tmp_path / "t.out").read_text()
    assert "refusing to allocate 3.91 KiB for a tensor of shape [1000]" in out
    assert "TimeoutError: the script ran longer than --timeout 1 seconds" in \
        (tmp_path / "slow.out").read_text()


def test_piped_input_is_bounded_as_a_script_file_is() -> None:
    env = {**ENV, "GRADSH_MAX_SCRIPT_BYTES": "100"}
    run = subprocess.run([sys.executable, "-m", "gradsh"], input="x = tensor(1.)\n" * 20,
                         capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 2
    assert run.stderr == ("gradsh: error: standard input is larger than 100 bytes: not a script "
                          "gradsh reads (GRADSH_MAX_SCRIPT_BYTES sets the limit)\n")


def test_a_timeout_that_expires_before_the_first_statement() -> None:
    for _ in range(3):
        run = gradsh("--timeout", "1e-9", "-c", "x = 1")
        assert run.returncode == 1 and "TimeoutError" in run.stderr
        no_internal_error(run)


# -- names, :save, history ----------------------------------------------------------------------

def test_names_are_nfkc_normalised_as_python_does() -> None:
    run = gradsh("--quiet", "-c", "ｘ = tensor(2.)\nprint x\nﬁ = 3\nprint(fi, ｘ * ﬁ)")
    assert run.stdout == "tensor(2.)\n3 tensor(6.)\n", run.stderr
    exported = gradsh("export", "/dev/stdin", input="ｘ = tensor(2.)\ny = x * 2\n")
    assert "x = torch.tensor(2.)\ny = x * 2" in exported.stdout
    compile(exported.stdout, "<export>", "exec")


def test_a_leading_zero_exports_as_python_reads_the_value() -> None:
    exported = gradsh("export", "/dev/stdin", input="x = 007\n")
    assert "x = 7\n" in exported.stdout
    compile(exported.stdout, "<export>", "exec")


def test_save_never_replaces_a_file_unasked(tmp_path: Path) -> None:
    from test_shell import ENTER, drive

    target = tmp_path / "s.grad"
    target.write_text("keep me\n")
    run = drive("a = tensor(1.)" + ENTER, f":save {target}" + ENTER)
    assert f"FileExistsError: {target} exists: `:save! {target}` replaces it" in run.out
    assert target.read_text() == "keep me\n"
    again = drive(f":save! {target}" + ENTER, ":vars! x" + ENTER, session=run.session)
    assert f"saved 1 statement to {target}" in again.out
    assert target.read_text().endswith("a = tensor(1.)\n")
    assert "':vars' takes no '!' (only :save! does)" in again.out


def test_the_history_file_is_created_private_whatever_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0)
    try:
        path = tmp_path / "state" / "gradsh" / "history"
        _, problem = open_history(path)
    finally:
        os.umask(previous)
    assert problem is None and stat.S_IMODE(path.stat().st_mode) == 0o600


def test_load_applies_the_header_limits(tmp_path: Path) -> None:
    from test_shell import ENTER, drive

    script = tmp_path / "h.grad"
    script.write_text("# gradsh: --max-memory 1K --timeout 1\nx = zeros(1000)\n")
    slow = tmp_path / "slow.grad"
    slow.write_text("# gradsh: --timeout 1\nx = tensor(1.)\nrepeat 10**9 { x = x + 1 }\n")
    run = drive(f":load {script}" + ENTER, "y = zeros(1000)" + ENTER, f":load {slow}" + ENTER)
    assert "refusing to allocate 3.91 KiB for a tensor of shape [1000]" in run.out
    assert "x" not in run.env or run.env["x"].shape != (1000,)
    assert run.env["y"].shape == (1000,)  # the session's own limit is back after the load
    assert f"TimeoutError: {slow} ran longer than its --timeout 1 seconds" in run.out


# -- exit codes and the issue's probes ------------------------------------------------------------

@pytest.mark.parametrize("mode", [[], ["--json"], ["--quiet"], ["--final"]])
def test_a_closed_pipe_is_exit_1_in_every_mode(mode: list[str]) -> None:
    source = "repeat 3000 { print 1 }\nx = randn(100)\nrepeat 3000 { x = x + 1 }\n"
    process = subprocess.Popen([sys.executable, "-m", "gradsh", *mode, "-c", source],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(10)
    process.stdout.close()
    assert process.wait(timeout=120) == 1
    assert process.stderr.read() == b""


@pytest.mark.parametrize("mode", [[], ["--json"], ["--quiet"]])
@pytest.mark.parametrize("source", [
    "l = [1]; l[0] = l\nx = tensor(l)", "l = [1., 2.]; m = [l]; l[0] = m\nprint l\nx = Tensor(l)",
    "w = tensor(1., grad); opt = sgd([w], lr=0.1); opt.param_groups[0] = 5\nopt.step()",
    "x = 2**2**2**2**2\ny = 10**5000", "print 10**4301",
])
def test_the_issues_probes_end_cleanly(mode: list[str], source: str) -> None:
    run = gradsh(*mode, "--keep-going", "-c", source)
    no_internal_error(run)
    assert run.returncode in (0, 1)
