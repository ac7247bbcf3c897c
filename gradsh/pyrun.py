"""Runs a Python program on gradsh's engine, one top-level statement at a time, showing the
variable table (or the JSON trace) after each: the Python front end of `gradsh FILE.py`.

CPython runs the program; `import torch` is served by gradsh.torch (gradsh.pyserve). A `for`
loop, a `with` block, a `def` or a `class` is one statement. There is no undo: an error leaves
the state the program had made, as `python` does; the run stops there (exit 1) unless
`--keep-going`. The program is the user's own code, run as `python FILE.py` would: no sandbox.
"""

from __future__ import annotations

import ast
import bisect
import contextlib
import dis
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
from gradsh.engine.grad_mode import _Origin
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
        """The statements (SyntaxError as Python raises it)."""
        tree = ast.parse(self.source, filename=self.path)
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
    from gradsh.runner import ScriptTimeout, _deadline, prepare_engine

    renderer = Renderer(out, err, options.color, options.width)
    program = PythonProgram(source, path, directory=directory, argv=options.argv)
    program.err = err
    batched = options.mode in ("quiet", "final")  # nothing is shown between statements
    whole = _compile_whole(program) if batched else None
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
                    found = _run_whole(program, whole)
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


# ---------------------------------------------------------------------------------------------
# --quiet and --final: a program that compiles whole runs as one code object
# ---------------------------------------------------------------------------------------------


class _WholeProgram:
    """A program compiled whole, as `python` compiles it (in pieces of consecutive lines, which
    compile faster: see _compile_whole), with no AST made unless needed. The statement running
    is found from where the program's frame is (its last instruction's position): for the
    engine's records (the origin of saved tensors and in-place changes, for the hints), and for
    the statement an error or exit belongs to. The statements are parsed when first needed,
    which a program whose top-level statements save nothing never does."""

    def __init__(self, program: PythonProgram, codes: list[types.CodeType]) -> None:
        self.program = program
        self.codes = codes
        self._ids = {id(code) for code in codes}
        self.frame: types.FrameType | None = None  # the running piece's frame, once found
        self._statements: list[Statement] | None = None
        self._starts: list[tuple[int, int]] = []
        self._at: dict[int, dict[int, int]] = {}  # id(code) -> offset -> statement index
        self._positions: dict[int, list[tuple[int | None, ...]]] = {}

    @property
    def statements(self) -> list[Statement]:
        if self._statements is None:
            self._statements = self.program.parse()
            self._starts = [_start(stmt) for stmt in self._statements]
        return self._statements

    def index_at(self, code: types.CodeType, offset: int) -> int:
        """The index of the statement the instruction at `offset` (bytes) of `code` is in."""
        at = self._at.get(id(code))
        if at is None:
            at = self._at[id(code)] = {}
        index = at.get(offset)
        if index is None:
            positions = self._positions.get(id(code))
            if positions is None:
                positions = self._positions[id(code)] = list(code.co_positions())
            line, _, column, _ = positions[offset // 2]
            statements = self.statements
            index = 0
            if line is not None and statements:
                index = max(bisect.bisect_right(self._starts, (line, column or 0)) - 1, 0)
            at[offset] = index
        return index

    def origin(self) -> Statement | None:
        """The statement running now (what pyrun's marks set as the origin otherwise)."""
        frame = self.frame
        if frame is None:
            frame = sys._getframe(1)
            while frame is not None and id(frame.f_code) not in self._ids:
                frame = frame.f_back
            if frame is None:  # (another thread, not running the program)
                return None
            self.frame = frame
        statements = self.statements
        return statements[self.index_at(frame.f_code, frame.f_lasti)] if statements else None

    def raised_in(self, error: BaseException) -> int:
        """The index of the statement `error` came out of."""
        tb = error.__traceback__
        while tb is not None and id(tb.tb_frame.f_code) not in self._ids:
            tb = tb.tb_next
        return 0 if tb is None else self.index_at(tb.tb_frame.f_code, tb.tb_lasti)

    def take_future_flags(self, stop: int) -> None:
        """The `from __future__` flags of the statements before `stop`, which ran compiled
        together: the statements after them compile with them."""
        for stmt in self.statements[:stop]:
            node = stmt.node
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                for alias in node.names:
                    self.program.flags |= _FUTURE_FLAGS.get(alias.name, 0)


def _start(stmt: Statement) -> tuple[int, int]:
    """Where a statement begins, as instruction positions compare (a decorated one at its
    first decorator's line)."""
    line = stmt._first_line()
    return (line, stmt.node.col_offset if line == stmt.node.lineno else 0)


_PIECE_LINES = 256  # (compile takes 6-7 us a line of a 10,000-line program, 3-4 in pieces)
_ANNOTATIONS = bytes([dis.opmap["SETUP_ANNOTATIONS"]])


def _compile_whole(program: PythonProgram) -> _WholeProgram | None:
    """The program compiled whole, or None where it must be parsed and run as before: it does
    not compile (a syntax error, reported as the parser finds it, or an error compile() finds,
    which must come when its statement runs) or compiling it warns (a warning that must come
    when its part of the program is compiled)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            codes = _compile_pieces(program)
            if codes is None:
                codes = [compile(program.source, program.path, "exec", dont_inherit=True)]
        except Exception:  # noqa: BLE001  (SyntaxError, ValueError for a NUL byte ...)
            return None
    return None if caught else _WholeProgram(program, codes)


def _compile_pieces(program: PythonProgram) -> list[types.CodeType] | None:
    """The program as code objects of consecutive lines, split before lines that start a
    statement at the margin, each with the program's line numbers; None where that does not
    give the program's own code. A split inside a string, a bracket or a continued line
    leaves a piece that does not compile (the piece is then taken longer); a `from __future__`
    import, a docstring (only the first statement's is the module's) and annotations
    (`__annotations__` is made before the first statement) need the whole."""
    source = program.source
    if len(source) < 64 * _PIECE_LINES or "__future__" in source or "\r" in source:
        return None
    lines = source.split("\n")  # (the lines as Python counts them, without a "\r")
    codes: list[types.CodeType] = []
    first = 0
    while first < len(lines):
        stop = _next_split(lines, first + _PIECE_LINES)
        for _ in range(8):
            try:
                code = compile("\n".join(lines[first:stop]) + "\n", program.path, "exec",
                               dont_inherit=True)
                break
            except SyntaxError:  # (a split inside a string ..., or the program's own error)
                if stop >= len(lines):
                    return None
                stop = _next_split(lines, stop + 1)
        else:
            return None
        if codes and ("__doc__" in code.co_names or code.co_code[2:3] == _ANNOTATIONS):
            return None
        codes.append(_shifted(code, first) if first else code)
        first = stop
    return codes


# what a line at the margin that goes on with the statement before it begins with
_GOES_ON = ("else", "elif", "except", "finally", ")", "]", "}")


def _next_split(lines: list[str], k: int) -> int:
    """The first line from k that may begin a statement at the margin (len(lines) if none):
    not indented, blank or a comment, no `else:` and the like, not after a decorator."""
    while k < len(lines) and (lines[k][:1] in " \t\f#" or lines[k].startswith(_GOES_ON)
                              or lines[k - 1].startswith("@")):  # ("" too: a blank line)
        k += 1
    return min(k, len(lines))


def _shifted(code: types.CodeType, lines: int) -> types.CodeType:
    """`code`, and the code objects it holds, `lines` lines further down the file (positions
    count from co_firstlineno)."""
    consts = tuple(_shifted(c, lines) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_firstlineno=code.co_firstlineno + lines, co_consts=consts)


def _run_whole(program: PythonProgram, whole: _WholeProgram) -> tuple[int, StepResult] | None:
    """Run a program compiled whole: None when all its statements ran, else the 1-based number
    and result of the one that raised or exited (as _run_batch)."""
    from gradsh.runner import ScriptTimeout

    program.namespace.setdefault("__name__", "__main__")
    _Origin.live = whole.origin
    try:
        for code in whole.codes:
            whole.frame = None
            exec(code, program.namespace)  # noqa: S102  (the user's own program)
        return None
    except SystemExit as exit_:
        index = whole.raised_in(exit_)
        result = StepResult(whole.statements[index])
        result.exit_code = _exit_code(exit_, sys.stderr)
    except (KeyboardInterrupt, ScriptTimeout):
        raise
    except BaseException as error:  # noqa: BLE001  (the program's error, shown as Python would)
        index = whole.raised_in(error)
        result = StepResult(whole.statements[index])
        result.error = error
    finally:
        _Origin.live = None
        whole.frame = None
    return index + 1, result


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
