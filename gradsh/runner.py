"""Runs a script in one of the output modes (table, final, quiet, json) and returns the exit code.

The modes differ only in what they show: every mode runs the same statements the same way.
Snapshots are taken only when something will be shown, so `--quiet` pays for no rendering.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any

from gradsh import ast, snapshot
from gradsh.errors import GradshError
from gradsh.interpreter import Display, Interpreter, StepOutcome
from gradsh.parser import normalise, parse
from gradsh.render import Renderer
from gradsh.step_vars import StepVars

EXIT_OK = 0
EXIT_RUNTIME = 1
EXIT_USAGE = 2


@dataclass
class RunOptions:
    mode: str = "table"  # "table", "final", "quiet" or "json"
    keep_going: bool = False
    seed: int | None = None
    device: str | None = None
    sim_cuda: bool = False
    color: bool = False
    width: int | None = None
    timeout: float | None = None  # seconds; the running statement is stopped and undone
    max_memory: int | None = None  # bytes the run may take (None: the engine's default)
    vars_shown: str = "auto"  # "auto", "changed" or "full": what steps show (step_vars.py)
    lang: str = "en"  # the language of `explain`: "en" or "zh"
    argv: tuple[str, ...] = ()  # a Python program's own arguments (sys.argv[1:])


def is_python_path(path: str) -> bool:
    """A Python program (run by CPython on gradsh's torch) rather than a .grad script."""
    return path.endswith((".py", ".pyw"))


DEFAULT_MAX_SCRIPT_BYTES = 64 * 1024 * 1024


def max_script_bytes() -> int:
    """The largest script gradsh reads (64 MiB, or GRADSH_MAX_SCRIPT_BYTES)."""
    text = os.environ.get("GRADSH_MAX_SCRIPT_BYTES", "")
    try:
        return max(1, int(text)) if text else DEFAULT_MAX_SCRIPT_BYTES
    except ValueError:
        return DEFAULT_MAX_SCRIPT_BYTES


def read_script(path: str) -> str:
    """The text of a script; unreadable files raise GradshError (exit 2)."""
    if os.path.isdir(path):
        raise GradshError("OSError", f"{path} is a directory, not a .grad script")
    limit = max_script_bytes()
    try:
        with open(path, "rb") as f:
            raw = f.read(limit + 1)  # never more: /dev/zero or a huge file is refused, not read
    except FileNotFoundError:
        raise GradshError("OSError", f"no such file: {path}") from None
    except OSError as err:
        raise GradshError("OSError", f"cannot read {path}: {err.strerror}") from None
    if len(raw) > limit:
        raise GradshError("OSError", f"{path} is larger than {limit:,} bytes: not a script "
                          "gradsh reads (GRADSH_MAX_SCRIPT_BYTES sets the limit)")
    if b"\0" in raw:
        raise GradshError("OSError", f"{path} looks like a binary file, not a .grad script")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise GradshError(
            "OSError", f"{path} is not valid UTF-8 (byte {err.start}: {raw[err.start]:#04x})"
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


HEADER_OPTIONS = frozenset({"--sim-cuda", "--seed", "--keep-going", "--device", "--timeout",
                            "--max-memory"})
_HEADER_VALUES = frozenset({"--seed", "--device", "--timeout", "--max-memory"})


def header_args(source: str) -> list[str]:
    """Options a script carries in its leading comments: `# gradsh: --sim-cuda --seed 0`.

    Only options that change how the script runs are honoured (not output modes), so a
    script means the same thing under `gradsh run`, `gradsh test` and `gradsh check`.
    """
    args: list[str] = []
    for line in source.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        body = stripped[1:].strip()
        if body.startswith("gradsh:"):
            words = body[len("gradsh:"):].split()
            i = 0
            while i < len(words):
                word = words[i]
                if word not in HEADER_OPTIONS:
                    raise GradshError("UsageError", f"unsupported option in the script header: "
                                      f"{word} (allowed: {', '.join(sorted(HEADER_OPTIONS))})")
                args.append(word)
                if word in _HEADER_VALUES and i + 1 < len(words):
                    args.append(words[i + 1])
                    i += 1
                i += 1
    return args


def read_with_header(parser: argparse.ArgumentParser, argv: Sequence[str],
                     args: argparse.Namespace) -> tuple[argparse.Namespace, str | None]:
    """Read the script `args.file` names and parse its header options in front of `argv`, so
    the command line wins. If it cannot be read, say why on stderr and return no source (the
    caller exits with EXIT_USAGE)."""
    try:
        source = read_script(args.file)
        header = header_args(source)
    except GradshError as err:
        sys.stderr.write(f"gradsh: error: {err.message}\n")
        return args, None
    if header:
        args = parser.parse_args([*header, *argv])
    return args, source


def prepare(interp: Interpreter, options: RunOptions) -> None:
    """Apply the command-line options that act like statements at the top of the script."""
    prepare_engine(options)


def prepare_engine(options: RunOptions) -> None:
    """The engine's settings from the command line: simulated cuda, the memory limit, the
    seed and the default device (for .grad scripts and Python programs alike)."""
    from gradsh.engine import ops

    if options.sim_cuda:
        from gradsh.engine import backend

        backend.enable_sim_cuda()
    from gradsh.engine import limits

    limits.set_max_memory(options.max_memory)
    if options.seed is not None:
        ops.manual_seed(options.seed)
    if options.device is not None:
        device = ops._device_name(options.device)
        ops.DeviceHooks.check(device)
        ops.DefaultDevice.value = device


def run_source(source: str, path: str, options: RunOptions, out: IO[str], err: IO[str],
               directory: str | None = None) -> int:
    """Run a .grad script, or a Python program (`directory`: where it lives when `path` is only
    its name, as in golden tests)."""
    if is_python_path(path):
        from gradsh.pyrun import run_python

        return run_python(source, path, options, out, err, directory)
    try:
        with _deadline(options.timeout):  # one deadline for parsing and running
            return _run_grad(source, path, options, out, err)
    except ScriptTimeout:  # before parsing or between it and the first statement
        Renderer(out, err, options.color, options.width).error(GradshError(
            "TimeoutError", f"the script ran longer than --timeout {options.timeout:g} "
            "seconds"), None, path)
        return EXIT_RUNTIME


def _run_grad(source: str, path: str, options: RunOptions, out: IO[str], err: IO[str]) -> int:
    renderer = Renderer(out, err, options.color, options.width)
    source = normalise(source)  # positions in errors refer to this text
    try:
        with _deadline(options.timeout):  # --timeout covers parsing too
            program = parse(source, path)
    except ScriptTimeout:
        renderer.error(GradshError("TimeoutError", f"parsing the script took longer than "
                                   f"--timeout {options.timeout:g} seconds"), None, path)
        return EXIT_RUNTIME
    except GradshError as error:
        if options.mode == "json":
            out.write(json.dumps(_json_syntax_error(error)) + "\n")
        else:
            renderer.error(error, source, path)
        return EXIT_USAGE
    interp = Interpreter(path, source)
    try:
        prepare(interp, options)
    except GradshError as error:
        renderer.error(error, None, path)
        return EXIT_USAGE
    except Exception as error:  # noqa: BLE001  (a TorchError from --device: a usage problem)
        renderer.error(GradshError(getattr(error, "kind", "RuntimeError"), str(error)), None,
                       path)
        return EXIT_USAGE

    try:
        failed = _run_steps(program, interp, options, renderer, out, source, path)
    except ScriptTimeout:  # the timer expired between statements (while showing one)
        renderer.error(GradshError("TimeoutError", f"the script ran longer than --timeout "
                                   f"{options.timeout:g} seconds"), None, path)
        return EXIT_RUNTIME
    if options.mode == "final" and program.body:
        renderer.table(snapshot.take(interp.env), marks=False)
    return EXIT_RUNTIME if failed else EXIT_OK


def _run_steps(program: Any, interp: Interpreter, options: RunOptions, renderer: Renderer,
               out: IO[str], source: str, path: str) -> bool:
    """Run and show each statement; True when one failed."""
    failed = False
    view = StepVars(options.vars_shown)
    with _deadline(options.timeout):
        for number, stmt in enumerate(program.body, start=1):
            try:
                outcome = interp.run_statement(stmt)
            except ScriptTimeout:
                stopped = GradshError(
                    "TimeoutError",
                    f"the script ran longer than --timeout {options.timeout:g} seconds; this "
                    "statement was stopped",
                    stmt.pos,
                )
                stopped.rolled_back = True
                outcome = StepOutcome(stmt, error=stopped, rolled_back=True)
                options = dataclasses.replace(options, keep_going=False)
            if _show_step(number, outcome, interp, options, renderer, out, source, path, view):
                failed = True
                if not options.keep_going:
                    break
    return failed


def _show_step(number: int, outcome: StepOutcome, interp: Interpreter, options: RunOptions,
               renderer: Renderer, out: IO[str], source: str, path: str,
               view: StepVars) -> bool:
    """Show one step as the mode asks; True when it failed."""
    if options.mode == "json":
        out.write(json.dumps(_json_step(number, outcome, interp, view)) + "\n")
    else:
        _render_step(renderer, outcome, interp, options, source, path, view)
    return not outcome.ok


class ScriptTimeout(BaseException):
    """Raised in the running statement when --timeout expires (a BaseException, so no
    `except Exception` in gradsh or the engine can swallow it)."""


class _Deadline:
    active = False  # an outer _deadline is armed: inner ones (parse, steps) share its time


WATCHDOG_GRACE = 2.0  # seconds past --timeout before the process is ended from outside


@contextlib.contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Raise ScriptTimeout in this thread once `seconds` have passed (SIGALRM timer). Nested
    uses share the outermost deadline. A watchdog thread ends the process with the one-line
    timeout error if the main thread cannot be interrupted (one long NumPy call holds it):
    WATCHDOG_GRACE seconds after the deadline, it writes the error and exits 1."""
    if not seconds or not hasattr(signal, "setitimer") or _Deadline.active:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise ScriptTimeout

    def watchdog() -> None:
        message = (f"gradsh: TimeoutError: the run went past --timeout {seconds:g} seconds "
                   "inside one computation that could not be interrupted; stopped\n")
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        os.write(2, message.encode())
        os._exit(EXIT_RUNTIME)

    timer = threading.Timer(seconds + WATCHDOG_GRACE, watchdog)
    timer.daemon = True
    previous = signal.signal(signal.SIGALRM, expire)
    timer.start()
    _Deadline.active = True
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)  # (inside: it may expire at once)
        yield
    finally:
        _Deadline.active = False
        timer.cancel()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _render_step(renderer: Renderer, outcome: StepOutcome, interp: Interpreter,
                 options: RunOptions, source: str, path: str, view: StepVars) -> None:
    full = options.mode == "table"
    if full:
        renderer.statement(outcome.stmt.source)
    for kind, payload in outcome.events:
        if kind in ("print", "echo"):
            renderer.printed(payload)
        elif kind == "warning":
            if full:
                renderer.warning(payload)
            else:
                renderer.err.print(payload, markup=False)
        else:
            render_display(renderer, payload, interp, options.lang)
    if outcome.error is not None:
        renderer.error(outcome.error, source, path)
        if not options.keep_going:
            return
    if full:
        if not isinstance(outcome.stmt, ast.Show):  # `show` has just shown the table
            view.table(renderer, interp.env)
        renderer.text("")


def render_display(renderer: Renderer, display: Display, interp: Interpreter,
                   lang: str | None = None) -> None:
    """Show what `show`, `graph` or `explain` asked for. `lang` is the language of `explain`
    ("en" or "zh"; by default GRADSH_LANG's, else English)."""
    # imported here: a run that never asks for a graph or an explanation starts without them
    from gradsh import explainer
    from gradsh import graphview
    if display.kind == "show":
        renderer.table(snapshot.take(interp.env), display.names or None, remember=False)
    elif display.kind == "graph":
        if display.output is not None:  # the interpreter has written the file
            renderer.text(f"wrote the graph of {display.target_name} to {display.output}")
        else:
            tensors = snapshot.tensor_env(interp.env)  # parameters by qualified name
            tree, notes = graphview.build(display.target, display.target_name, tensors,
                                          interp.path)

            def dot_source() -> str:
                from gradsh import dot

                return dot.dot_source(display.target, display.target_name, tensors, interp.path)

            renderer.graph(tree, notes, dot_source)
    elif display.kind == "explain":
        lang = lang or os.environ.get("GRADSH_LANG", "en")
        renderer.paragraph(explainer.explain(display.target, display.target_name,
                                             snapshot.tensor_env(interp.env), lang=lang,
                                             path=interp.path))


def display_text(display: Display, interp: Interpreter) -> str:
    """A display rendered as plain text (for the JSON trace's `printed`)."""
    import io

    buffer = io.StringIO()
    renderer = Renderer(buffer, buffer, False, 100)
    render_display(renderer, display, interp)
    return buffer.getvalue().rstrip("\n")


def _json_error(error: GradshError) -> dict[str, Any]:
    return {
        "type": error.kind,
        "message": error.message,
        "line": error.pos.line if error.pos else None,
        "column": error.pos.column if error.pos else None,
        "hint": error.hint,
    }


def _json_syntax_error(error: GradshError) -> dict[str, Any]:
    return {
        "step": 0,
        "line": error.pos.line if error.pos else None,
        "source": None,
        "ok": False,
        "printed": [],
        "warnings": [],
        "error": _json_error(error),
        "vars": {},
    }


def _json_step(number: int, outcome: StepOutcome, interp: Interpreter,
               view: StepVars) -> dict[str, Any]:
    printed: list[str] = []
    for kind, payload in outcome.events:
        if kind in ("print", "echo"):
            printed.append(payload)
        elif kind == "display":
            printed.append(display_text(payload, interp))
    return {
        "step": number,
        "line": outcome.stmt.pos.line,
        "source": outcome.stmt.source,
        "ok": outcome.ok,
        "printed": printed,
        "warnings": list(outcome.warnings),
        "error": _json_error(outcome.error) if outcome.error is not None else None,
        **({"rolled_back": True} if outcome.rolled_back else {}),
        **view.json_fields(interp.env),
    }
