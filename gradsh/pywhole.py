"""--quiet and --final run a Python program compiled whole, as `python` compiles it, with no
AST made unless needed (gradsh.pyrun runs a program that does not compile so in batches)."""

from __future__ import annotations

import ast
import bisect
import dis
import sys
import types
import warnings
from collections.abc import Callable

from gradsh.engine import fastpath
from gradsh.engine.grad_mode import _Origin
from gradsh.pyrun import _FUTURE_FLAGS, PythonProgram, Statement, StepResult, _exit_code


class _WholeProgram:
    """A program compiled whole, as `python` compiles it (in pieces of consecutive lines, which
    compile faster: see compile_whole), with no AST made unless needed. The statement running
    is found from where the program's frame is (its last instruction's position): for the
    engine's records (the origin of saved tensors and in-place changes, for the hints), and for
    the statement an error or exit belongs to. The statements are parsed when first needed,
    which a program whose top-level statements save nothing never does."""

    def __init__(self, program: PythonProgram, codes: list[types.CodeType]) -> None:
        self.program = program
        self.codes = codes
        self._ids = {id(code) for code in codes}
        self._frame: types.FrameType | None = None  # the running piece's frame, once found
        self._statements: list[Statement] | None = None
        self._starts: list[tuple[int, int]] = []
        self._at: dict[int, dict[int, int]] = {}  # id(code) -> offset -> statement index
        self._positions: dict[int, list[tuple[int | None, ...]]] = {}
        # id(code) -> offset -> the statement there, and that table of the running frame's code
        self._origins: dict[int, dict[int, Statement]] = {}
        self._here: dict[int, Statement] = {}
        # what _Origin.live calls: origin's common case in C where the fast path is built
        # (_fastpath_origin.h: the same lookup, this frame and table), else origin itself
        here = getattr(fastpath.extension, "Here", None)
        self._native = here(self.origin) if here is not None else None
        self.live: Callable[[], Statement | None] = self._native or self.origin

    @property
    def frame(self) -> types.FrameType | None:
        return self._frame

    @frame.setter
    def frame(self, frame: types.FrameType | None) -> None:
        self._frame = frame
        if self._native is not None:
            self._native.frame = frame

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
        """The statement running now (what pyrun's marks set as the origin otherwise).

        The engine asks at every save, release and in-place change (20 times a training step
        of a small MLP), so the common answer is one lookup: the running frame's statement by
        its instruction offset, once found (_find_origin)."""
        frame = self.frame
        if frame is not None:
            found = self._here.get(frame.f_lasti)
            if found is not None:
                return found
        return self._find_origin()

    def _find_origin(self) -> Statement | None:
        """origin's answer the first time at an offset (or once the running piece changed)."""
        frame = self.frame
        if frame is None:
            frame = sys._getframe(2)
            while frame is not None and id(frame.f_code) not in self._ids:
                frame = frame.f_back
            if frame is None:  # (another thread, not running the program)
                return None
            self.frame = frame
            self._here = self._origins.setdefault(id(frame.f_code), {})
            if self._native is not None:
                self._native.table = self._here
        statements = self.statements
        if not statements:
            return None
        offset = frame.f_lasti
        found = self._here[offset] = statements[self.index_at(frame.f_code, offset)]
        return found

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


def compile_whole(program: PythonProgram) -> _WholeProgram | None:
    """The program compiled whole, or None where it must be parsed and run as before: it does
    not compile (a syntax error, reported as the parser finds it, or an error compile() finds,
    which must come when its statement runs) or compiling it warns (a warning that must come
    when its part of the program is compiled)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            codes = compile_pieces(program)
            if codes is None:
                codes = [compile(program.source, program.path, "exec", dont_inherit=True)]
        except Exception:  # noqa: BLE001  (SyntaxError, ValueError for a NUL byte ...)
            return None
    return None if caught else _WholeProgram(program, codes)


def compile_pieces(program: PythonProgram) -> list[types.CodeType] | None:
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


def run_whole(program: PythonProgram, whole: _WholeProgram) -> tuple[int, StepResult] | None:
    """Run a program compiled whole: None when all its statements ran, else the 1-based number
    and result of the one that raised or exited (as _run_batch)."""
    from gradsh.runner import ScriptTimeout

    program.namespace.setdefault("__name__", "__main__")
    _Origin.live = whole.live
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
