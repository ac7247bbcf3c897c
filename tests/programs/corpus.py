"""The corpus of real-world-style PyTorch programs: listing, running under torch and gradsh.

Shared by record.py (which writes each program's `NAME.torch.out`) and tests/test_programs.py.
A program's expected stdout is what `python NAME.py` prints under real PyTorch 2.13, run from
this folder with the environment of `program_env()`:

* PYTHONHASHSEED=0: some programs build vocabularies from a set of strings;
* OMP_NUM_THREADS=1 and MKL_NUM_THREADS=1: torch's float sums and matmuls give different last
  bits with a different number of intra-op threads, so the recording must not depend on the
  machine's core count;
* PYTHONIOENCODING=utf-8.

Object addresses (`<AddBackward0 object at 0x7f...>`) differ from run to run; `mask()` replaces
them in every output before it is stored or compared.

`run_under_torch()` runs many programs in one subprocess: it imports torch once and forks a
child per program (the import costs about a second of CPU, more than most programs), each
child with fresh state, stdout to a file. record.py checks that this gives exactly what a
fresh `python NAME.py` prints.
"""

from __future__ import annotations

import difflib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
HELPERS = {"corpus", "features", "oracle", "record"}
EXPECTED_FAILURES = HERE / "EXPECTED_FAILURES.txt"
TORCH_TIMEOUT_S = 300
GRADSH_TIMEOUT_S = 120

_ADDRESS = re.compile(r" object at 0x[0-9a-fA-F]+>")


def program_names() -> list[str]:
    """Every corpus program, by file stem, sorted."""
    return sorted(p.stem for p in HERE.glob("*.py") if p.stem not in HELPERS)


def recording(name: str) -> Path:
    return HERE / f"{name}.torch.out"


def cpu_kind() -> str | None:
    """"intel" or "amd" from /proc/cpuinfo's vendor_id, else None. MKL picks its kernels by
    vendor (gradsh/engine/vecmath/blas.py, genuine_intel), so for some programs torch prints
    other last digits on one vendor's CPUs than on the other's. (Imported here, not at the
    top: the forking runner below runs programs under torch and needs no gradsh.)"""
    from gradsh.engine.vecmath.blas import cpu_vendor

    return {"GenuineIntel": "intel", "AuthenticAMD": "amd"}.get(cpu_vendor() or "")


def variant(name: str, kind: str) -> Path:
    """Where torch's stdout on `kind`'s CPUs is kept when it is not NAME.torch.out's."""
    return HERE / f"{name}.torch.{kind}.out"


def recording_here(name: str) -> Path:
    """The recording torch's output on this CPU is compared with: NAME.torch.KIND.out where
    there is one for this CPU's vendor (record.py --cpu-variant), else NAME.torch.out."""
    kind = cpu_kind()
    if kind is not None and variant(name, kind).exists():
        return variant(name, kind)
    return recording(name)


def mask(text: str) -> str:
    """Replace object addresses, which change from run to run."""
    return _ADDRESS.sub(" object at 0x...>", text)


def diff(expected: str, actual: str, expected_name: str, actual_name: str,
         limit: int = 40) -> str:
    """The first `limit` lines of a unified diff, with a count of the lines left out."""
    lines = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                      expected_name, actual_name, lineterm=""))
    shown = "\n".join(lines[:limit])
    if len(lines) > limit:
        shown += f"\n... ({len(lines) - limit} more diff lines)"
    return shown


def program_env(pythonpath: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONHASHSEED="0", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PYTHONIOENCODING="utf-8")
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return env


def expected_failures() -> dict[str, str]:
    """EXPECTED_FAILURES.txt: `name  reason` per line; '#' starts a comment."""
    table: dict[str, str] = {}
    if not EXPECTED_FAILURES.exists():
        return table
    for raw in EXPECTED_FAILURES.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            name, _, reason = line.partition(" ")
            table[name] = reason.strip()
    return table


def run_fresh(name: str, timeout: float = TORCH_TIMEOUT_S) -> subprocess.CompletedProcess[str]:
    """`python NAME.py` in a new interpreter, as a user runs it (stdout masked)."""
    proc = subprocess.run([sys.executable, f"{name}.py"], cwd=HERE, env=program_env(),
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout)
    proc.stdout = mask(proc.stdout)
    return proc


def run_gradsh(name: str, timeout: float = GRADSH_TIMEOUT_S) -> subprocess.CompletedProcess[str]:
    """`python -m gradsh run --quiet NAME.py` with this worktree's gradsh (stdout masked)."""
    cmd = [sys.executable, "-m", "gradsh", "run", "--quiet", f"{name}.py"]
    try:
        proc = subprocess.run(cmd, cwd=HERE, env=program_env(str(ROOT)), capture_output=True,
                              text=True, encoding="utf-8", timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        return subprocess.CompletedProcess(cmd, -9, mask(out), f"timed out after {timeout} s")
    proc.stdout = mask(proc.stdout)
    return proc


def run_under_torch(names: list[str], jobs: int | None = None) -> dict[str, tuple[int, str, str]]:
    """Run programs under real torch in one subprocess: name -> (exit code, stdout, stderr)."""
    jobs = jobs or os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, str(Path(__file__)), "--fork-runner", tmp, str(jobs), *names]
        subprocess.run(cmd, cwd=HERE, env=program_env(), check=True,
                       timeout=TORCH_TIMEOUT_S * max(1, len(names)))
        results = {}
        for name in names:
            code = int((Path(tmp) / f"{name}.rc").read_text())
            out = (Path(tmp) / f"{name}.out").read_text(encoding="utf-8")
            err = (Path(tmp) / f"{name}.err").read_text(encoding="utf-8", errors="replace")
            results[name] = (code, mask(out), err)
        return results


# --- the forking runner (this file run as a script inside run_under_torch's subprocess) ---

def _run_child(name: str, out_dir: Path) -> None:
    """In a forked child: run one program with stdout and stderr to files, then exit."""
    import io
    import runpy
    import traceback

    for fd, suffix in ((1, "out"), (2, "err")):
        target = os.open(out_dir / f"{name}.{suffix}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(target, fd)
        os.close(target)
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                  line_buffering=True)
    path = HERE / f"{name}.py"
    sys.argv = [str(path.name)]
    sys.path[0] = str(HERE)
    code = 0
    try:
        runpy.run_path(str(path), run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # a crashing program is reported, not fatal to the runner
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    (out_dir / f"{name}.rc").write_text(str(code))
    os._exit(code)


def _fork_runner(out_dir: Path, jobs: int, names: list[str]) -> None:
    import signal
    import time

    import torch  # noqa: F401  imported once, before the forks: the point of this runner

    os.chdir(HERE)
    pending = list(names)
    running: dict[int, tuple[str, float]] = {}
    while pending or running:
        while pending and len(running) < jobs:
            name = pending.pop(0)
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _run_child(name, out_dir)
            running[pid] = (name, time.monotonic())
        pid, _ = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            time.sleep(0.02)
            for child, (name, started) in list(running.items()):
                if time.monotonic() - started > TORCH_TIMEOUT_S:
                    os.kill(child, signal.SIGKILL)
            continue
        name, _ = running.pop(pid)
        rc_file = out_dir / f"{name}.rc"
        if not rc_file.exists():  # killed, or died before writing its exit code
            rc_file.write_text("-9")
            for suffix in ("out", "err"):
                (out_dir / f"{name}.{suffix}").touch()


if __name__ == "__main__" and len(sys.argv) > 3 and sys.argv[1] == "--fork-runner":
    _fork_runner(Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
