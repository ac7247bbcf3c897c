"""`gradsh check FILE`: run a script in gradsh and its export in PyTorch, report every difference.

gradsh runs the script in this process; PyTorch runs the export (gradsh.export) in a fresh
`python -m gradsh.torch_side` subprocess, so a crash there cannot take gradsh down, its state
starts clean (TORCH_WARN_ONCE warnings included) and torch is never imported here. Both sides
produce one trace entry per top-level statement in the shape of `gradsh run --json`; after each
statement we compare what was printed (exactly, except object addresses `0x...`), the warnings,
the error (PyTorch's exception type name and str(e) against gradsh's kind and message) and, for
every variable, its value (allclose, with torch.testing's tolerances for the dtype), shape,
dtype, device, requires_grad, is_leaf, grad_fn, grad and retains_grad. Displays (`show`, `graph`,
`explain`) are comments in the export and are not compared. Each side stops at its first error
unless --keep-going. Both sides are seeded (--seed N, else 0) so unseeded scripts compare too.

--sim-cuda: gradsh simulates cuda:0 on the CPU, and so does the torch side, whose PyTorch may
have no GPU (gradsh.torch_side.make_sim_cuda): its tensors stay on the CPU, but `.cuda()`,
`.cpu()` and `.to()` copy (ToCopyBackward0) exactly when they would move a tensor, and
`x.device` / `x.is_cuda` answer cuda:0 / True for the tensors it tracks as being there. A device
of `cuda:0` in gradsh against `cpu` in torch still counts as equal (for tensors the tracking
cannot see), and gradsh's printed text is compared with `, device='cuda:0'` removed, since the
torch side's CPU tensors print without it. Mixed-device errors are not simulated on the torch
side: a script that expects one shows it as a difference.

A script is untrusted input: the torch side runs only a script that exports cleanly (the
exporter writes only what it vouches for, see gradsh.export), so one that does not is refused
with exit 2 before the torch side starts.

Exit status: 0 identical; 1 any difference (or the torch side crashed); 2 torch cannot be
imported (`pip install torch`), or the file cannot be read, parsed or exported.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from gradsh.errors import GradshError, format_error

EXIT_IDENTICAL = 0
EXIT_DIFFERENT = 1
EXIT_USAGE = 2

INSTALL_HINT = ("gradsh check needs PyTorch to compare against: install it with "
                "`pip install torch` (gradsh itself does not need it).")
TENSOR_FIELDS = ("shape", "value", "dtype", "device", "requires_grad", "is_leaf", "grad_fn",
                 "grad", "retains_grad")
# torch.testing.assert_close's default tolerances (rtol, atol) per dtype; exact for the rest.
TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5),
              "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_SIM_DEVICE = re.compile(r",\s*device='cuda:0'")
_FORWARD_TRACE = re.compile(r"(Traceback of forward call that caused the error:)\n.*", re.DOTALL)
MISSING = "(not run)"
# Unseeded scripts draw different numbers on each run, in PyTorch too: check seeds both sides.
DEFAULT_SEED = 0
UNDEFINED = "(undefined)"


@dataclass(frozen=True)
class Difference:
    """One field that differs after a step (or a run of consecutive steps with the same one)."""

    step: int
    line: int | None
    source: str
    variable: str  # "" for step-level fields (printed, warnings, error)
    field: str
    gradsh: str
    torch: str
    last_step: int | None = None  # the same difference persisted through this step

    @property
    def steps(self) -> str:
        if self.last_step is None or self.last_step == self.step:
            return str(self.step)
        return f"{self.step}-{self.last_step}"


@dataclass
class CheckOptions:
    """How both sides run: the run options a script header can carry, and a time limit."""

    seed: int | None = None
    device: str | None = None
    sim_cuda: bool = False
    keep_going: bool = False
    timeout: float = 600.0


# ---------------------------------------------------------------------------------------------
# The gradsh side (in process)
# ---------------------------------------------------------------------------------------------


def gradsh_trace(program: Any, options: CheckOptions) -> list[dict[str, Any]]:
    """Run the program in gradsh: one trace entry per statement, like `gradsh run --json`.

    `printed` holds only what the script printed (print statements and hooks), not displays.
    Options that cannot be applied (`--device cuda` without a GPU) raise GradshError.
    """
    from gradsh import snapshot
    from gradsh.interpreter import Interpreter
    from gradsh.runner import RunOptions, prepare

    interp = Interpreter(program.path, program.source)
    steps: list[dict[str, Any]] = []
    try:
        try:
            prepare(interp, RunOptions(seed=options.seed, device=options.device,
                                       sim_cuda=options.sim_cuda))
        except GradshError:
            raise
        except Exception as err:  # noqa: BLE001  (a TorchError from --device: a usage problem)
            raise GradshError(getattr(err, "kind", "RuntimeError"), str(err)) from None
        for number, outcome in enumerate(interp.run(program), start=1):
            error = outcome.error
            steps.append({
                "step": number,
                "ok": outcome.ok,
                "printed": list(outcome.printed),
                "warnings": list(outcome.warnings),
                "error": ({"type": error.kind, "message": error.message}
                          if error is not None else None),
                "vars": {s.name: snapshot.json_state(s) for s in snapshot.take(interp.env)},
            })
            if error is not None and not options.keep_going:
                break
    finally:
        if options.sim_cuda:
            from gradsh.engine import backend

            backend.disable_sim_cuda()
    return steps


# ---------------------------------------------------------------------------------------------
# The torch side (a subprocess)
# ---------------------------------------------------------------------------------------------


class TorchMissing(Exception):
    """`import torch` failed in the torch side's interpreter."""


@dataclass
class TorchTrace:
    steps: list[dict[str, Any]]
    version: str = ""
    failure: str | None = None  # why the torch side ended early (crash, timeout, setup error)


def _torch_side_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


class TorchServer:
    """One `python -m gradsh.torch_side --serve` for many checks: torch is imported once and
    each request runs in a fork of it, as fresh as a process of its own. For callers that
    check many scripts in one process (the test suite's parity scripts); a request that times
    out or is cancelled stops the server, and the next one starts another."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def run(self, request: bytes, timeout: float) -> dict[str, Any]:
        """The request's stdout (the trace), stderr and exit status (None: timed out)."""
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = subprocess.Popen(
                    [sys.executable, "-m", "gradsh.torch_side", "--serve"],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                    env=_torch_side_env(), start_new_session=True)
            process = self._process
        assert process.stdin is not None and process.stdout is not None
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            self.stop()

        timer = threading.Timer(timeout, expire)
        timer.start()
        lines: list[bytes] = []
        try:
            process.stdin.write(request.replace(b"\n", b" ") + b"\n")  # one line a request
            process.stdin.flush()
            for line in process.stdout:
                entry = _json_line(line)
                if entry.get("kind") == "exit":
                    return {"stdout": b"".join(lines), "stderr": entry.get("stderr", ""),
                            "code": entry.get("code")}
                lines.append(line)
        except (OSError, ValueError):  # the server was stopped (a timeout, a cancel)
            pass
        finally:
            timer.cancel()
        if expired.is_set():
            return {"stdout": b"".join(lines), "stderr": "", "code": None}
        self.stop()  # it died: the next request starts another
        return {"stdout": b"".join(lines), "stderr": "the torch server ended", "code": 1}

    def stop(self) -> None:
        """Kill the server and the request it runs (its session: the forked child too)."""
        with self._lock:
            process, self._process = self._process, None
        if process is not None and process.poll() is None:
            import signal

            try:
                os.killpg(process.pid, signal.SIGKILL)
            except OSError:
                process.kill()
            process.wait()


def _json_line(line: bytes) -> dict[str, Any]:
    try:
        entry = json.loads(line)
    except json.JSONDecodeError:
        return {}
    return entry if isinstance(entry, dict) else {}


_SHARED_SERVER: TorchServer | None = None


@contextlib.contextmanager
def shared_torch_side(server: TorchServer | None = None) -> Iterator[TorchServer]:
    """Within the block, every check in this process runs its PyTorch side on one server:
    `server`, which goes on after the block, or a new one, stopped at its end."""
    global _SHARED_SERVER
    active = server if server is not None else TorchServer()
    previous, _SHARED_SERVER = _SHARED_SERVER, active
    try:
        yield active
    finally:
        _SHARED_SERVER = previous
        if server is None:
            active.stop()


class TorchSide:
    """The export running in `python -m gradsh.torch_side` (or on the shared server), started
    at once so that gradsh can run meanwhile; `trace()` waits for it (and raises TorchMissing
    without torch)."""

    def __init__(self, request: dict[str, Any], options: CheckOptions) -> None:
        self.timeout = options.timeout
        self._server = _SHARED_SERVER
        self._process: subprocess.Popen[bytes] | None = None
        if self._server is None:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "gradsh.torch_side"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_torch_side_env(),
            )
        self._result: dict[str, Any] = {}
        self._thread = threading.Thread(target=self._communicate,
                                        args=(json.dumps(request).encode("utf-8"),), daemon=True)
        self._thread.start()

    def _communicate(self, request: bytes) -> None:
        if self._server is not None:
            self._result.update(self._server.run(request, self.timeout))
            return
        assert self._process is not None
        try:
            out, err = self._process.communicate(request, timeout=self.timeout)
            self._result.update(stdout=out, stderr=err, code=self._process.returncode)
        except subprocess.TimeoutExpired:
            self._process.kill()
            out, err = self._process.communicate()
            self._result.update(stdout=out, stderr=err, code=None)

    def cancel(self) -> None:
        """Stop the torch side (its answer is no longer wanted)."""
        if self._server is not None:
            self._server.stop()
        elif self._process is not None and self._process.poll() is None:
            self._process.kill()
        self._thread.join()

    def trace(self) -> TorchTrace:
        self._thread.join()
        stdout = _text(self._result.get("stdout"))
        stderr = _text(self._result.get("stderr"))
        code = self._result.get("code")
        trace = TorchTrace([])
        for line in stdout.splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            kind = entry.get("kind")
            if kind == "torch-missing":
                raise TorchMissing(entry.get("message", ""))
            if kind == "ready":
                trace.version = entry.get("torch", "")
            elif kind == "step":
                trace.steps.append(entry)
            elif kind == "setup-error":
                error = entry.get("error") or {}
                trace.failure = (f"the export's header failed: {error.get('type')}: "
                                 f"{error.get('message')}")
        if code is None:
            trace.failure = f"the torch side timed out after {self.timeout:g} s"
        elif code != 0 and trace.failure is None:
            tail = stderr.strip().splitlines()[-1:] or [f"exit status {code}"]
            trace.failure = f"the torch side crashed: {tail[0]}"
        return trace


def export_request(exported: Any, options: CheckOptions) -> dict[str, Any]:
    """What the torch side runs for a .grad script: its export, chunk by chunk."""
    return {
        "path": exported.path,
        "header": exported.header,
        "prelude": exported.prelude,
        "steps": [step.code for step in exported.steps],
        "names": {python: name for name, python in exported.names.items()},
        "keep_going": options.keep_going,
        "sim_cuda": options.sim_cuda,
    }


def _text(data: bytes | str | None) -> str:
    if data is None:
        return ""
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


# ---------------------------------------------------------------------------------------------
# Comparing traces
# ---------------------------------------------------------------------------------------------


def normalise_text(text: str, sim_cuda: bool = False) -> str:
    """Printed text as compared: object addresses masked; in sim mode no cuda:0 repr suffix;
    anomaly mode's forward location left out (a script line in gradsh, a Python traceback of
    the export in PyTorch)."""
    text = _ADDRESS.sub("0x…", text)
    text = _FORWARD_TRACE.sub(r"\1 …", text)
    if sim_cuda:
        text = _SIM_DEVICE.sub("", text)
    return text


def compare_traces(gradsh_steps: Sequence[dict[str, Any]], torch_steps: Sequence[dict[str, Any]],
                   statements: Sequence[tuple[int | None, str]],
                   sim_cuda: bool = False) -> list[Difference]:
    """Every difference between two traces, step by step; `statements` gives (line, source)
    of each top-level statement. A difference that persists unchanged over consecutive steps
    is reported once, with the range of steps."""
    found: list[Difference] = []
    open_runs: dict[tuple[str, str, str, str], int] = {}  # persisting difference -> index
    count = max(len(gradsh_steps), len(torch_steps))
    for index in range(count):
        line, source = statements[index] if index < len(statements) else (None, "")
        number = index + 1
        ours = gradsh_steps[index] if index < len(gradsh_steps) else None
        theirs = torch_steps[index] if index < len(torch_steps) else None
        if ours is None or theirs is None:
            found.append(Difference(number, line, source, "", "step",
                                    "ran" if ours is not None else MISSING,
                                    "ran" if theirs is not None else MISSING))
            break
        current: dict[tuple[str, str, str, str], Difference] = {}
        for variable, field, left, right in _step_differences(ours, theirs, sim_cuda):
            key = (variable, field, left, right)
            shown = focus(left, right)
            current[key] = Difference(number, line, source, variable, field, *shown)
        still_open: dict[tuple[str, str, str, str], int] = {}
        for key, difference in current.items():
            if key in open_runs:
                at = open_runs[key]
                previous = found[at]
                found[at] = Difference(previous.step, previous.line, previous.source,
                                       previous.variable, previous.field, previous.gradsh,
                                       previous.torch, number)
                still_open[key] = at
            else:
                still_open[key] = len(found)
                found.append(difference)
        open_runs = still_open
    return found


def _step_differences(ours: dict[str, Any], theirs: dict[str, Any],
                      sim_cuda: bool) -> list[tuple[str, str, str, str]]:
    """(variable, field, gradsh, torch) for each field of one step that differs."""
    rows: list[tuple[str, str, str, str]] = []
    our_error, their_error = ours.get("error"), theirs.get("error")
    if _error_text(our_error, sim_cuda) != _error_text(their_error, False):
        rows.append(("", "error", _error_text(our_error, False), _error_text(their_error, False)))
    printed_ours = [normalise_text(p, sim_cuda) for p in ours.get("printed", [])]
    printed_theirs = [normalise_text(p) for p in theirs.get("printed", [])]
    for i in range(max(len(printed_ours), len(printed_theirs))):
        left = printed_ours[i] if i < len(printed_ours) else "(nothing)"
        right = printed_theirs[i] if i < len(printed_theirs) else "(nothing)"
        if left != right:
            rows.append(("", f"printed[{i}]", left, right))
    warnings_ours = [normalise_text(w, sim_cuda) for w in ours.get("warnings", [])]
    warnings_theirs = [normalise_text(w) for w in theirs.get("warnings", [])]
    if warnings_ours != warnings_theirs:
        rows.append(("", "warnings", "\n".join(warnings_ours) or "(none)",
                     "\n".join(warnings_theirs) or "(none)"))
    our_vars, their_vars = ours.get("vars", {}), theirs.get("vars", {})
    names = list(our_vars) + [n for n in their_vars if n not in our_vars]
    for name in names:
        if name not in our_vars or name not in their_vars:
            rows.append((name, "defined",
                         _describe(our_vars[name]) if name in our_vars else UNDEFINED,
                         _describe(their_vars[name]) if name in their_vars else UNDEFINED))
            continue
        rows.extend((name, field, left, right)
                    for field, left, right in compare_variable(our_vars[name], their_vars[name],
                                                               sim_cuda))
    return rows


def compare_variable(ours: dict[str, Any], theirs: dict[str, Any],
                     sim_cuda: bool = False) -> list[tuple[str, str, str]]:
    """(field, gradsh, torch) for each field of one variable that differs."""
    our_kind = ours.get("kind", "tensor") if "value" not in ours else "tensor"
    their_kind = theirs.get("kind", "tensor") if "value" not in theirs else "tensor"
    if our_kind != their_kind:
        return [("kind", our_kind, their_kind)]
    if our_kind != "tensor":
        our_repr, their_repr = normalise_text(ours["repr"], sim_cuda), normalise_text(
            theirs["repr"])
        if our_repr != their_repr and not _numbers_close(our_repr, their_repr):
            return [("repr", ours["repr"], theirs["repr"])]
        return []
    rows: list[tuple[str, str, str]] = []
    for field in TENSOR_FIELDS:
        left, right = ours.get(field), theirs.get(field)
        if field == "value":  # a different shape is reported as such
            same = ours.get("shape") != theirs.get("shape") or _close(left, right, ours["dtype"])
        elif field == "grad":
            same = (left is None) == (right is None) and (
                left is None or (_shape_of(left) == _shape_of(right)
                                 and _close(left, right, ours["dtype"])))
        elif field == "device":
            same = left == right or (sim_cuda and left == "cuda:0" and right == "cpu")
        else:
            same = left == right
        if not same:
            rows.append((field, _text_of(left), _text_of(right)))
    return rows


def _close(left: Any, right: Any, dtype: str) -> bool:
    """JSON values equal within the dtype's tolerance (nested lists, "nan"/"inf" strings)."""
    rtol, atol = TOLERANCES.get(dtype, (0.0, 0.0))
    stack = [(left, right)]
    while stack:
        a, b = stack.pop()
        if isinstance(a, list) or isinstance(b, list):
            if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
                return False
            stack.extend(zip(a, b, strict=True))
            continue
        if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or isinstance(b, str):
            if a != b:
                return False
            continue
        if a is None or b is None:
            if a is not b:
                return False
            continue
        if abs(float(a) - float(b)) > atol + rtol * abs(float(b)):  # torch.isclose's rule
            return False
    return True


def _shape_of(value: Any) -> list[int]:
    shape: list[int] = []
    while isinstance(value, list):
        shape.append(len(value))
        value = value[0] if value else None
    return shape


def _numbers_close(left: str, right: str) -> bool:
    try:
        return math.isclose(float(left), float(right), rel_tol=1.3e-6, abs_tol=1e-5)
    except ValueError:
        return False


def _error_text(error: dict[str, Any] | None, sim_cuda: bool) -> str:
    if error is None:
        return "(no error)"
    return normalise_text(f"{error.get('type')}: {error.get('message')}", sim_cuda)


def _describe(variable: dict[str, Any]) -> str:
    if "value" in variable:
        return f"tensor {_text_of(variable['value'])}"
    return f"{variable.get('kind')} {variable.get('repr')}"


def _text_of(value: Any) -> str:
    """A field's value for the report: scalars as Python shows them, lists as JSON."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, bool):
        return str(value)
    return json.dumps(value)


def focus(left: str, right: str, width: int = 72, before: int = 24) -> tuple[str, str]:
    """Two long texts cut to the same window around their first difference, marked with `…`."""
    if len(left) <= width and len(right) <= width:
        return left, right
    start = max(0, len(os.path.commonprefix([left, right])) - before)

    def cut(text: str) -> str:
        piece = text[start:start + width]
        return ("…" if start > 0 else "") + piece + ("…" if start + width < len(text) else "")

    return cut(left), cut(right)


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def render_report(differences: Sequence[Difference], path: str, steps: int, color: bool,
                  width: int | None, failure: str | None = None) -> None:
    """The differences as a table on stdout, or `identical, N steps`."""
    from gradsh.render import make_console, report_table

    console = make_console(sys.stdout, color, width)
    if failure is not None:
        console.print(f"{path}: {failure}", markup=False)
    if not differences:
        if failure is None:
            console.print(f"{path}: identical, {_plural(steps, 'step')}", markup=False)
        return
    # The compared values get most of the width; the short columns never wrap.
    table = report_table(
        ("step", "line", "source", "variable", "field", "gradsh", "torch"),
        [(d.steps, str(d.line) if d.line is not None else "", d.source, d.variable, d.field,
          d.gradsh, d.torch) for d in differences],
        wide={"source": 1, "gradsh": 2, "torch": 2},
        color=color,
    )
    console.print(table)
    count = len(differences)
    console.print(f"{path}: {_plural(count, 'difference')} in {_plural(steps, 'step')}",
                  markup=False)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from gradsh.cli import _Parser

    parser = _Parser(prog="gradsh check",
                     description="Run a .grad script in gradsh and its export in PyTorch (or a "
                     "Python program in gradsh and in PyTorch), and report every difference "
                     "after each statement.")
    parser.add_argument("file", help="a .grad script or a .py program")
    parser.add_argument("--seed", type=int, metavar="N",
                        help=f"torch.manual_seed(N) first on both sides (default {DEFAULT_SEED})")
    parser.add_argument("--device", choices=("cpu", "cuda"), help="default device")
    parser.add_argument("--sim-cuda", action="store_true",
                        help="simulate cuda:0 on the CPU on both sides (also GRADSH_SIM_CUDA=1)")
    parser.add_argument("--keep-going", action="store_true",
                        help="continue after an error on both sides")
    parser.add_argument("--timeout", type=float, default=600.0, metavar="S",
                        help="seconds the PyTorch side may run (default 600)")
    parser.add_argument("--no-color", action="store_true", help="plain output on a terminal too")
    parser.add_argument("--width", type=int, metavar="N",
                        help="output width (default: the terminal's, 100 when piped)")
    return parser


def cli_main(argv: Sequence[str]) -> int:
    """`gradsh check FILE [options]`: exit 0 identical, 1 different, 2 no torch / bad file."""
    from gradsh.export import ExportOptions, export_program
    from gradsh.parser import parse
    from gradsh.runner import is_python_path, read_with_header

    from gradsh.cli import split_program_args

    parser = build_parser()
    argv, program_argv = split_program_args(argv)
    args, source = read_with_header(parser, argv, parser.parse_args(list(argv)))
    args.program_argv = program_argv
    if source is None:
        return EXIT_USAGE
    options = CheckOptions(
        seed=args.seed if args.seed is not None else DEFAULT_SEED, device=args.device,
        keep_going=args.keep_going, timeout=args.timeout,
        sim_cuda=args.sim_cuda or os.environ.get("GRADSH_SIM_CUDA") == "1",
    )
    if is_python_path(args.file):
        from gradsh.check_python import check_python

        return check_python(args, source, options)
    try:
        program = parse(source, args.file)
        exported = export_program(program, ExportOptions(seed=options.seed,
                                                         device=options.device))
    except GradshError as err:
        sys.stderr.write(format_error(err, source, args.file) + "\n")
        return EXIT_USAGE
    torch_side = TorchSide(export_request(exported, options), options)
    try:
        ours = gradsh_trace(program, options)
    except GradshError as err:
        torch_side.cancel()
        sys.stderr.write(format_error(err, None, args.file) + "\n")
        return EXIT_USAGE
    except BaseException:  # an interrupt or a gradsh bug: leave no torch process behind
        torch_side.cancel()
        raise
    try:
        theirs = torch_side.trace()
    except TorchMissing as err:
        sys.stderr.write(f"gradsh: error: cannot import torch ({err}).\n{INSTALL_HINT}\n")
        return EXIT_USAGE
    statements = [(s.pos.line, s.source) for s in program.body]
    differences = compare_traces(ours, theirs.steps, statements, options.sim_cuda)
    color = sys.stdout.isatty() and not args.no_color and "NO_COLOR" not in os.environ
    steps = max(len(ours), len(theirs.steps))
    render_report(differences, args.file, steps, color, args.width, theirs.failure)
    return EXIT_DIFFERENT if differences or theirs.failure else EXIT_IDENTICAL
