"""Runs a Python program on gradsh's engine, one top-level statement at a time, showing the
variable table (or the JSON trace) after each: the Python front end of `gradsh FILE.py`.

CPython runs the program; `import torch` is served by gradsh.torch (gradsh.pyserve). A `for`
loop, a `with` block, a `def` or a `class` is one statement. There is no undo: an error leaves
the state the program had made, as `python` does; the run stops there (exit 1) unless
`--keep-going`. The program is the user's own code, run as `python FILE.py` would: no sandbox.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import sys
import traceback
import types
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from gradsh import pytrace, snapshot
from gradsh.engine import buffers
from gradsh.engine.tensor import set_origin
from gradsh.errors import GradshError, Pos
from gradsh.render import Renderer
from gradsh.snapshot import tensor_env

EXIT_OK, EXIT_RUNTIME, EXIT_USAGE = 0, 1, 2
_FUTURE_FLAGS = {name: getattr(__import__("__future__"), name).compiler_flag
                 for name in __import__("__future__").all_feature_names}


class Statement:
    """One top-level statement: its code, its text and where it is (what the engine records
    as the origin of saved tensors and in-place changes, for the hints). The text and the
    position are made when first read: in a quiet run most statements' never are."""

    __slots__ = ("node", "_lines", "_source", "_pos")

    def __init__(self, node: ast.stmt, source: str | None = None, pos: Pos | None = None,
                 lines: list[str] | None = None) -> None:
        self.node = node
        self._lines = lines  # the program's lines, for a statement made by split_statements
        self._source = source
        self._pos = pos

    def _first_line(self) -> int:
        node = self.node
        decorators = getattr(node, "decorator_list", None)
        if decorators:
            return min([node.lineno] + [d.lineno for d in decorators])
        return node.lineno

    @property
    def source(self) -> str:
        if self._source is None:
            end = self.node.end_lineno or self.node.lineno
            self._source = "\n".join(self._lines[self._first_line() - 1:end])  # type: ignore
        return self._source

    @property
    def pos(self) -> Pos:
        if self._pos is None:
            node = self.node
            self._pos = Pos(self._first_line(), node.col_offset + 1,
                            node.end_lineno or node.lineno, node.end_col_offset or 0)
        return self._pos

    def __repr__(self) -> str:
        return f"Statement(line {self.pos.line}: {self.source!r})"


@dataclass
class StepResult:
    stmt: Statement
    printed: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: BaseException | None = None
    exit_code: int | None = None  # set when the program called sys.exit()

    @property
    def ok(self) -> bool:
        return self.error is None


def split_statements(tree: ast.Module, source: str) -> list[Statement]:
    lines = source.splitlines()
    return [Statement(node, lines=lines) for node in tree.body]


class PythonProgram:
    """A program's namespace (a real `__main__` module while it runs) and its statements."""

    def __init__(self, source: str, path: str, namespace: dict[str, Any] | None = None,
                 directory: str | None = None, argv: Sequence[str] = ()):
        """`namespace`: run in this dict instead of a fresh `__main__` module's (the shell's
        variables, shared with its gradsh statements). `directory`: where the program lives,
        when `path` is to be shown as given (golden tests name a script by its file name);
        otherwise tracebacks name it by its absolute path, as Python does."""
        self.source = source
        self.argv0 = path
        self.argv = list(argv)  # the program's own arguments, after its name (sys.argv[1:])
        if path.startswith("<"):
            self.path, self.directory, file = path, os.getcwd(), path
        elif directory is None:
            self.path = file = os.path.abspath(path)
            self.directory = os.path.dirname(self.path)
        else:
            self.path, self.directory = path, os.path.abspath(directory)
            file = os.path.join(self.directory, os.path.basename(path))
        self.err: IO[str] | None = None  # where warnings go (None: sys.stderr at the time)
        self.module = types.ModuleType("__main__")
        if namespace is None:
            self.module.__file__ = file
            self.module.__builtins__ = __builtins__  # type: ignore[attr-defined]
            namespace = self.module.__dict__
        self.namespace = namespace
        self.flags = 0

    def parse(self) -> list[Statement]:
        """The statements (SyntaxError as Python raises it). The whole program is compiled
        once, as Python compiles a file before it runs any of it: the errors the compiler
        finds after the parser ('return' outside function, a late `from __future__` import)
        stop the program before its first statement too."""
        tree = ast.parse(self.source, filename=self.path)
        compile(tree, self.path, "exec", dont_inherit=True)
        return split_statements(tree, self.source)

    def run(self, stmt: Statement, filename: str | None = None,
            interactive: bool = False) -> None:
        """Run one statement. `interactive` (the shell) echoes an expression's value through
        sys.displayhook, as Python's REPL does."""
        node = stmt.node
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                self.flags |= _FUTURE_FLAGS.get(alias.name, 0)
        if interactive:
            tree: ast.mod = ast.Interactive(body=[node])
            mode = "single"
        else:
            tree, mode = ast.Module(body=[node], type_ignores=[]), "exec"
        code = compile(tree, filename or self.path, mode, flags=self.flags, dont_inherit=True)
        self.namespace.setdefault("__name__", "__main__")
        exec(code, self.namespace)  # noqa: S102  (the user's own program, as `python` runs it)

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        """While the program runs: it is `__main__`, its directory is first on sys.path, argv is
        its own, `import torch` is gradsh's and engine warnings are Python warnings."""
        saved = (sys.modules.get("__main__"), sys.argv, list(sys.path))
        sys.modules["__main__"] = self.module
        sys.argv = [self.argv0, *self.argv]
        sys.path.insert(0, self.directory)
        try:
            with torch_engine(), pytrace.python_warnings(self.err):
                yield
        finally:
            main, sys.argv, sys.path[:] = saved
            if main is not None:
                sys.modules["__main__"] = main


@contextlib.contextmanager
def torch_engine() -> Iterator[None]:
    """The engine as Python code sees it: `import torch` is gradsh's, errors are the ones
    PyTorch raises, engine warnings are Python warnings."""
    from gradsh.engine import backend, exceptions
    from gradsh.pyserve import served_torch

    previous = exceptions.set_warning_handler(pytrace.warn_from_engine)
    backend.use_torch_errors(True)
    try:
        with served_torch():
            yield
    finally:
        backend.use_torch_errors(False)
        exceptions.set_warning_handler(previous)


# ---------------------------------------------------------------------------------------------
# Running a program in an output mode
# ---------------------------------------------------------------------------------------------


def run_python(source: str, path: str, options: Any, out: IO[str], err: IO[str],
               directory: str | None = None) -> int:
    """Run a program as `gradsh run` does for .grad files; returns the exit code.
    `directory`: see PythonProgram."""
    from gradsh import pywhole
    from gradsh.runner import ScriptTimeout, _deadline, prepare_engine

    renderer = Renderer(out, err, options.color, options.width)
    program = PythonProgram(source, path, directory=directory, argv=options.argv)
    program.err = err
    batched = options.mode in ("quiet", "final")  # nothing is shown between statements
    whole = pywhole.compile_whole(program) if batched else None
    try:
        statements = [] if whole is not None else program.parse()
    except SyntaxError as error:
        _report_syntax_error(error, options, out, err)
        return EXIT_USAGE
    try:
        prepare_engine(options)
    except GradshError as error:
        renderer.error(error, None, path)
        return EXIT_USAGE
    failed = False
    # the program's own prints go where gradsh's output goes (a golden test's buffer)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), program.active(), \
            _marks_installed(batched) as marks:
        try:
            with _deadline(options.timeout):
                start = singles_until = 0  # statements before singles_until run one by one
                if whole is not None:
                    found = pywhole.run_whole(program, whole)
                    if found is not None:
                        number, result = found
                        _show(number, result, program, options, renderer, out, err)
                        if result.exit_code is not None:
                            return result.exit_code
                        failed = True
                        start = number if options.keep_going else len(whole.statements)
                        statements = whole.statements
                        whole.take_future_flags(start)
                while start < len(statements):
                    number = start + 1
                    code = None
                    if batched and start >= singles_until:
                        code, stop = _compile_batch(program, statements, start)
                        if code is None:
                            singles_until = stop
                    if code is None:
                        result = _run_step(program, statements[start], options, renderer, out)
                        start += 1
                    else:
                        found = _run_batch(program, code, statements, start, marks)
                        if found is None:  # every statement of the batch ran
                            start = stop
                            continue
                        number, result = found
                        start = number
                    _show(number, result, program, options, renderer, out, err)
                    if result.exit_code is not None:
                        return result.exit_code
                    if not result.ok:
                        failed = True
                        if not options.keep_going:
                            break
        except ScriptTimeout:
            out.flush()
            err.write(f"{path}: TimeoutError: the program ran longer than --timeout "
                      f"{options.timeout:g} seconds\n")
            return EXIT_RUNTIME
        except KeyboardInterrupt:
            out.flush()
            err.write("KeyboardInterrupt\n")
            return 130
        if options.mode == "final" and (whole.statements if whole is not None else statements):
            renderer.table(snapshot.take(tensor_env(program.namespace)), marks=False)
    out.flush()
    return EXIT_RUNTIME if failed else EXIT_OK


def _run_step(program: PythonProgram, stmt: Statement, options: Any, renderer: Renderer,
              out: IO[str]) -> StepResult:
    result = StepResult(stmt)
    if options.mode == "table":
        renderer.statement(stmt.source, language="python")
    if options.mode != "json":
        _execute(program, stmt, result)
        return result
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), _recorded_warnings(result.warnings):
        _execute(program, stmt, result)
    result.printed = buffer.getvalue().splitlines()
    return result


# ---------------------------------------------------------------------------------------------
# --quiet and --final: consecutive statements compiled and run together
# ---------------------------------------------------------------------------------------------

# Statements compiled into one code object (compiling costs about 7 us a statement alone, 2 in
# a batch). Before each, a call of this builtin name marks which statement runs (the origin
# the engine records, and the statement an error belongs to).
_BATCH = 64
_MARK = "__gradsh_statement__"


class _Marks:
    """The statement a batch is running: `advance` is what each statement's mark calls."""

    def __init__(self) -> None:
        self.statements: list[Statement] = []
        self.index = -1

    def advance(self) -> None:
        self.index += 1
        set_origin(self.statements[self.index])


@contextlib.contextmanager
def _marks_installed(batched: bool) -> Iterator[_Marks]:
    """The marks' function as a builtin while the program runs in batches."""
    import builtins

    marks = _Marks()
    if not batched:
        yield marks
        return
    setattr(builtins, _MARK, marks.advance)
    try:
        yield marks
    finally:
        with contextlib.suppress(AttributeError):
            delattr(builtins, _MARK)


def _compile_batch(program: PythonProgram, statements: list[Statement],
                   start: int) -> tuple[Any, int]:
    """The code of statements[start:stop], each after its mark, and stop; or None (and the
    statements to run one by one up to stop) when they do not compile together: a
    `from __future__` import, or an error that compile() finds (`return` outside a function),
    which must come when its statement runs."""
    stop = min(start + _BATCH, len(statements))
    first = statements[start].node
    # one mark node for the batch, placed at its first statement (it never raises)
    where = {"lineno": first.lineno, "col_offset": first.col_offset,
             "end_lineno": first.lineno, "end_col_offset": first.col_offset}
    mark = ast.Expr(ast.Call(ast.Name(_MARK, ast.Load(), **where), [], [], **where), **where)
    body: list[ast.stmt] = []
    for k in range(start, stop):
        node = statements[k].node
        if node.__class__ is ast.ImportFrom and node.module == "__future__":  # type: ignore
            if k == start:
                return None, start + 1
            stop = k
            break
        body += (mark, node)
    try:
        code = compile(ast.Module(body=body, type_ignores=[]), program.path, "exec",
                       flags=program.flags, dont_inherit=True)
    except Exception:  # noqa: BLE001  (its statement's error, when it runs alone)
        return None, stop
    return code, stop


def _run_batch(program: PythonProgram, code: Any, statements: list[Statement], start: int,
               marks: _Marks) -> tuple[int, StepResult] | None:
    """Run a batch: None when all its statements ran, else the 1-based number and result of
    the one that raised or exited (the statements after it in the batch did not run)."""
    from gradsh.runner import ScriptTimeout

    marks.statements, marks.index = statements, start - 1
    program.namespace.setdefault("__name__", "__main__")
    try:
        exec(code, program.namespace)  # noqa: S102  (the user's own program, as `python` runs it)
        return None
    except SystemExit as exit_:
        result = StepResult(statements[marks.index])
        result.exit_code = _exit_code(exit_, sys.stderr)
    except (KeyboardInterrupt, ScriptTimeout):
        raise
    except BaseException as error:  # noqa: BLE001  (the program's error, shown as Python would)
        result = StepResult(statements[marks.index])
        result.error = error
    finally:
        set_origin(None)
    return marks.index + 1, result


def _execute(program: PythonProgram, stmt: Statement, result: StepResult) -> None:
    """Run the statement, keeping its error (or exit code) in `result`."""
    from gradsh.runner import ScriptTimeout

    set_origin(stmt)
    try:
        program.run(stmt)
    except SystemExit as exit_:
        result.exit_code = _exit_code(exit_, sys.stderr)
    except (KeyboardInterrupt, ScriptTimeout):
        raise
    except BaseException as error:  # noqa: BLE001  (the program's error, shown as Python would)
        result.error = error
    finally:
        set_origin(None)
        buffers.settle()  # large arrays unused for a whole statement go back to the system


def _exit_code(exit_: SystemExit, err: IO[str]) -> int:
    code = exit_.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    err.write(f"{code}\n")
    return 1


@contextlib.contextmanager
def _recorded_warnings(into: list[str]) -> Iterator[None]:
    """Warnings go into the step's list (`UserWarning: text`) instead of stderr."""
    previous = warnings.showwarning

    def record(message: Any, category: type, filename: str, lineno: int, file: Any = None,
               line: Any = None) -> None:
        into.append(f"{category.__name__}: {message}")

    warnings.showwarning = record
    try:
        yield
    finally:
        warnings.showwarning = previous


def _show(number: int, result: StepResult, program: PythonProgram, options: Any,
          renderer: Renderer, out: IO[str], err: IO[str]) -> None:
    if options.mode == "json":
        out.write(json.dumps(_json_step(number, result, program)) + "\n")
        return
    if result.error is not None:
        out.flush()
        err.write(format_program_error(result.error, program))
        err.flush()
        if not options.keep_going:
            return
    if options.mode == "table":
        renderer.table(snapshot.take(tensor_env(program.namespace)))
        renderer.text("")


def format_program_error(error: BaseException, program: PythonProgram) -> str:
    """The traceback (user frames), then gradsh's hint where one applies."""
    return error_text(error, tensor_env(program.namespace), program.path)


def error_text(error: BaseException, env: dict[str, Any], path: str,
               hidden: tuple[str, ...] = ()) -> str:
    """An error of Python code as gradsh shows it: the traceback without gradsh's frames (nor
    those of files under the `hidden` directories), then gradsh's hint about `env`'s tensors."""
    hint = error_hint_text(error, env, path)
    return pytrace.format_exception(error, hidden) + (hint + "\n" if hint else "")


def error_hint_text(error: BaseException, env: dict[str, Any], path: str) -> str | None:
    """gradsh's hint on an error of Python code (`hint: ...`), or None."""
    from gradsh.engine.backend import TORCH_UNAVAILABLE
    from gradsh.explainer import error_hint

    hint = error_hint(error, env, path)
    if hint is None and isinstance(error, AssertionError) and str(error) == TORCH_UNAVAILABLE:
        hint = ("hint: gradsh has no cuda:0 here; run with --sim-cuda to simulate one on the CPU "
                "(or install CuPy on a machine with an NVIDIA GPU)")
    return hint


def _json_step(number: int, result: StepResult, program: PythonProgram) -> dict[str, Any]:
    error = None
    if result.error is not None:
        line, column = pytrace.innermost_user_line(result.error, program.path)
        error = {"type": type(result.error).__name__, "message": str(result.error),
                 "line": line, "column": column,
                 "hint": error_hint_text(result.error, tensor_env(program.namespace),
                                         program.path)}
    return {
        "step": number,
        "line": result.stmt.pos.line,
        "source": result.stmt.source,
        "ok": result.ok,
        "printed": result.printed,
        "warnings": result.warnings,
        "error": error,
        "vars": {s.name: snapshot.json_state(s)
                 for s in snapshot.take(tensor_env(program.namespace))},
    }


def _report_syntax_error(error: SyntaxError, options: Any, out: IO[str], err: IO[str]) -> None:
    if options.mode == "json":
        out.write(json.dumps({
            "step": 0, "line": error.lineno, "source": None, "ok": False, "printed": [],
            "warnings": [], "vars": {},
            "error": {"type": type(error).__name__, "message": error.msg, "line": error.lineno,
                      "column": error.offset, "hint": None},
        }) + "\n")
        return
    err.write(format_syntax_error(error))


def format_syntax_error(error: BaseException) -> str:
    """A SyntaxError as Python prints it (file, line, the source line and a caret)."""
    return "".join(traceback.format_exception_only(type(error), error))
