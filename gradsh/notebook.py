"""gradsh in Jupyter: `%load_ext gradsh` makes cells Python on gradsh's torch, with the variable
table after each cell; `%gradsh on|changed|off` sets the table, `%%gradsh` runs a cell of the
gradsh language. The notebook renderer and session here also serve the gradsh kernel.

IPython is imported only by the functions that need it, so gradsh runs without Jupyter.
"""

from __future__ import annotations

import ast
import contextlib
import io
import linecache
import os
import re
import sys
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any

from gradsh import snapshot
from gradsh.errors import GradshError, Pos, format_error
from gradsh.render import Renderer
from gradsh.render_html import MODES, GraphView, Tables, TextView
from gradsh.runner import RunOptions
from gradsh.shell import SHELL_PATH, Session

# IPython's output history (`_`, `__`, `_5`), input history (`_i`, `_i5`, `_ih`) and its other
# names: the kernel binds them, not the user; a tensor shown by `x` would otherwise appear again
# as `_` and `_7`.
_IPYTHON_NAMES = re.compile(r"_{1,3}|_\d+|_i{1,3}|_i\d+|_[iod]h|In|Out|get_ipython|exit|quit")
_EVENTS = ("pre_execute", "post_execute", "pre_run_cell", "post_run_cell")
_TABLE_WORDS = {"all": "on"}  # the shell's `:table all` is the notebook's `%gradsh on`

Emit = Callable[[object], None]


def notebook_options() -> RunOptions:
    """A notebook's settings, which has no command line: GRADSH_SIM_CUDA=1 simulates cuda:0,
    GRADSH_LANG is the language of `explain`."""
    return RunOptions(sim_cuda=os.environ.get("GRADSH_SIM_CUDA") == "1",
                      lang=os.environ.get("GRADSH_LANG", "en"))


def visible(namespace: dict[str, Any]) -> dict[str, Any]:
    """A notebook's variables without the names IPython binds for its history."""
    return {name: value for name, value in namespace.items()
            if not _IPYTHON_NAMES.fullmatch(name)}


def tensor_states(namespace: dict[str, Any]) -> list[snapshot.VarState]:
    """The table's rows for a notebook namespace: its tensors and module parameters only (the
    rest of a notebook's namespace is never read, however large)."""
    from gradsh.snapshot import tensor_env

    return snapshot.take(tensor_env(visible(namespace)))


# ---------------------------------------------------------------------------------------------
# Views of graphs and explanations
# ---------------------------------------------------------------------------------------------


def _plain(write: Callable[[Renderer], None]) -> str:
    buffer = io.StringIO()
    write(Renderer(buffer, buffer, False, 100))
    return buffer.getvalue()


def graph_view(tree: Any, notes: Sequence[Any], dot_source: Callable[[], str]) -> GraphView:
    """A graph shown as SVG where Graphviz's `dot` is installed, else as the text tree."""

    def svg() -> str | None:
        from gradsh import dot

        try:
            picture = dot.render(dot_source(), "svg")
        except GradshError:  # not a tensor, or a drawing dot refused: the tree says enough
            return None
        return picture.decode("utf-8") if picture is not None else None

    return GraphView(_plain(lambda r: r.tree(tree, notes)), svg)


def text_view(sentences: Sequence[str]) -> TextView:
    return TextView(sentences, _plain(lambda r: r.paragraph(sentences)))


# ---------------------------------------------------------------------------------------------
# gradsh-language cells: the shell's Session with a renderer that emits display objects
# ---------------------------------------------------------------------------------------------


@dataclass
class CellError:
    """An error a gradsh statement ended with, as the notebook reports it."""

    kind: str
    message: str
    text: str  # path:line:col: Kind: message, the source line, the caret, the hint


class NotebookRenderer(Renderer):
    """Text (statements, prints, warnings) as plain text on the cell's streams; tables, graphs
    and explanations as display objects handed to `emit`; errors kept for the caller to report
    as the cell's error. `label` replaces the shell's `<shell>` in error locations."""

    def __init__(self, out: IO[str], err: IO[str], emit: Emit, tables: Tables,
                 label: str = SHELL_PATH):
        super().__init__(out, err, False, 100)
        self.emit = emit
        self.tables = tables
        self.label = label
        self.errors: list[CellError] = []

    def show(self, view: object | None) -> None:
        if view is None:
            return
        self.out.file.flush()
        self.err.file.flush()
        self.emit(view)

    def table(self, states: Sequence[snapshot.VarState], names: Sequence[str] | None = None,
              remember: bool = True, marks: bool = True) -> None:
        shown = [s for s in states if not _IPYTHON_NAMES.fullmatch(s.name)]
        self.show(self.tables.view(shown, names, marks, remember))

    def graph(self, root: Any, notes: Sequence[Any], dot_source: Callable[[], str]) -> None:
        self.show(graph_view(root, notes, dot_source))

    def paragraph(self, lines: Sequence[str]) -> None:
        self.show(text_view(lines))

    def other_variables(self, states: Sequence[snapshot.VarState]) -> None:
        super().other_variables([s for s in states if not _IPYTHON_NAMES.fullmatch(s.name)])

    def error(self, err: GradshError, source: str | None, path: str) -> None:
        label = self.label if path == SHELL_PATH else path
        self.errors.append(CellError(err.kind, err.message, format_error(err, source, label)))


class NotebookSession(Session):
    """The shell's session in a notebook. With `namespace` (a Python notebook's), gradsh
    statements and Python cells share their variables, as in the shell; without, the session
    has its own (the gradsh kernel)."""

    def __init__(self, options: RunOptions, renderer: NotebookRenderer,
                 namespace: dict[str, Any] | None = None):
        self.namespace = namespace
        mode = renderer.tables.mode
        super().__init__(options, renderer.out.file, renderer.err.file)
        self.renderer: NotebookRenderer = renderer
        renderer.tables.mode = mode  # Session.__init__ set the shell's default

    def _new_interpreter(self) -> Any:
        from gradsh.pyrun import PythonProgram

        interp = super()._new_interpreter()
        if self.namespace is not None:
            interp.env = self.namespace
            self.python = PythonProgram("", SHELL_PATH, self.namespace)
        return interp

    @property
    def table_mode(self) -> str:
        mode = self.renderer.tables.mode
        return "all" if mode == "on" else mode

    @table_mode.setter
    def table_mode(self, mode: str) -> None:
        if hasattr(self, "renderer") and isinstance(self.renderer, NotebookRenderer):
            self.renderer.tables.mode = _TABLE_WORDS.get(mode, mode)

    def show_table(self, always: bool = False) -> None:
        # As in the shell: after a statement, a table only if it changed something.
        states = tensor_states(self.interp.env)
        self.renderer.show(self.renderer.tables.after_step(states, only_changes=not always))

    def command_reset(self, argument: str) -> None:
        if self.namespace is not None:
            self._error(GradshError("UsageError", ":reset would leave the notebook's Python "
                                    "variables in place: restart the kernel instead"))
            return
        super().command_reset(argument)
        self.renderer.tables.memory.clear()

    def run_cell(self, text: str, renderer: NotebookRenderer) -> list[CellError]:
        """Run a cell's input with `renderer` (the cell's streams); the errors it ended with."""
        self.renderer = renderer
        self.execute(text)
        self.renderer.out.file.flush()
        return renderer.errors


# ---------------------------------------------------------------------------------------------
# The IPython extension
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Origin:
    """The statement running, as the engine records it where tensors are saved and freed: a
    notebook's hints then say `freed by the backward in `d.backward()``."""

    source: str
    pos: Pos


def mark_origin(source: str, line: int, end_line: int) -> None:
    """What a cell calls before each of its statements (see _MarkOrigins)."""
    from gradsh.engine.tensor import set_origin

    set_origin(Origin(source, Pos(line, 1, end_line, 1)))


class _MarkOrigins(ast.NodeTransformer):
    """Before each top-level statement of a cell, a call that records it as the engine's
    origin; the statement's text is the cell's own where its lines are known. The call reaches
    gradsh through `__import__`, not a variable, which `%reset` would delete mid-cell."""

    def __init__(self, extension: Extension):
        self.extension = extension

    def visit_Module(self, node: ast.Module) -> ast.Module:
        lines = self.extension.cell_lines
        body: list[ast.stmt] = []
        for stmt in node.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                body.append(stmt)  # nothing may come before it
                continue
            end = stmt.end_lineno or stmt.lineno
            text = ("\n".join(lines[stmt.lineno - 1:end]).strip()
                    if 1 <= stmt.lineno <= end <= len(lines) else ast.unparse(stmt))
            gradsh = ast.Call(ast.Name("__import__", ast.Load()),
                              [ast.Constant("gradsh.notebook")], [])
            hook = ast.Attribute(ast.Attribute(gradsh, "notebook", ast.Load()), "mark_origin",
                                 ast.Load())
            call = ast.Expr(ast.Call(
                hook, [ast.Constant(text), ast.Constant(stmt.lineno), ast.Constant(end)], []))
            body += [ast.copy_location(call, stmt), stmt]
        node.body = body
        return ast.fix_missing_locations(node)


class Extension:
    """What `%load_ext gradsh` installs in one IPython shell, and takes away on unload."""

    def __init__(self, shell: Any):
        self.shell = shell
        self.tables = Tables()
        self.engine: contextlib.ExitStack | None = None
        self.cell_lines: list[str] = []
        self.gradsh_cell = False
        self.session: NotebookSession | None = None
        self.transformer = _MarkOrigins(self)
        self.previous_exc = (shell.custom_exceptions, shell.CustomTB)
        import IPython

        self.ipython_dir = os.path.dirname(os.path.abspath(IPython.__file__)) + os.sep

    # -- installing ---------------------------------------------------------------------------

    def load(self) -> None:
        from gradsh.runner import prepare_engine

        shell = self.shell
        prepare_engine(notebook_options())  # GRADSH_SIM_CUDA=1 as the command line's --sim-cuda
        for event in _EVENTS:
            shell.events.register(event, getattr(self, event))
        shell.register_magic_function(self.magic, "line_cell", "gradsh")
        shell.ast_transformers.append(self.transformer)
        shell.set_custom_exc((Exception,), self.show_error)
        earlier = [name for name, value in visible(shell.user_ns).items()
                   if getattr(getattr(value, "__spec__", None), "name", None) == "torch"]
        if earlier:  # a real PyTorch, imported before: its tensors are not gradsh's
            print(f"gradsh: `{earlier[0]}` is the torch imported before %load_ext gradsh; "
                  "`import torch` again for gradsh's")

    def unload(self) -> None:
        shell = self.shell
        self.leave_engine()
        for event in _EVENTS:
            shell.events.unregister(event, getattr(self, event))
        if self.transformer in shell.ast_transformers:
            shell.ast_transformers.remove(self.transformer)
        shell.custom_exceptions, shell.CustomTB = self.previous_exc

    # -- around each cell ---------------------------------------------------------------------

    def pre_execute(self) -> None:
        """Every execution, silent ones too, runs Python on gradsh's torch."""
        from gradsh.pyrun import torch_engine

        self.leave_engine()
        stack = contextlib.ExitStack()
        stack.enter_context(torch_engine())
        stack.enter_context(self.cell_warnings())
        self.engine = stack

    def post_execute(self) -> None:
        from gradsh.engine.tensor import set_origin

        self.leave_engine()
        set_origin(None)

    def pre_run_cell(self, info: Any) -> None:
        cell = info.raw_cell or ""
        self.cell_lines = cell.splitlines()
        self.gradsh_cell = _is_gradsh_magic(cell)

    def post_run_cell(self, result: Any) -> None:
        """The table after a cell (a %%gradsh cell showed its own after each statement)."""
        if self.gradsh_cell:
            return
        view = self.tables.after_step(tensor_states(self.shell.user_ns),
                                      only_changes=not result.success)
        if view is not None:
            from IPython.display import display

            display(view)

    def leave_engine(self) -> None:
        if self.engine is not None:
            engine, self.engine = self.engine, None
            engine.close()

    # -- magics -------------------------------------------------------------------------------

    def magic(self, line: str, cell: str | None = None) -> None:
        """%gradsh [on|changed|off]: the table after each cell (alone: says which).
        %gradsh sim-cuda: simulate cuda:0 on the CPU, as --sim-cuda does.
        %%gradsh: the cell is gradsh statements, run as the shell runs them."""
        from IPython.core.error import UsageError

        if cell is not None:
            self.run_gradsh(cell)
            return
        word = line.strip()
        if word == "sim-cuda":
            from gradsh.engine.backend import SIM_CUDA_NOTICE, enable_sim_cuda

            enable_sim_cuda()
            print(SIM_CUDA_NOTICE)
            return
        mode = _TABLE_WORDS.get(word, word)
        if mode and mode not in MODES:
            raise UsageError(f"%gradsh {word}: say on, changed or off (the table after each "
                             "cell), or sim-cuda (simulate cuda:0 on the CPU)")
        self.tables.mode = mode or self.tables.mode
        print(f"gradsh table: {self.tables.mode}")

    def run_gradsh(self, cell: str) -> None:
        from IPython.display import display

        self.leave_engine()  # gradsh statements run on the engine as the shell runs them

        renderer = NotebookRenderer(sys.stdout, sys.stderr, display, self.tables,
                                    label=self.calling_cell() or SHELL_PATH)
        if self.session is None:
            self.session = NotebookSession(notebook_options(), renderer, self.shell.user_ns)
        errors = self.session.run_cell(cell, renderer)
        if errors:
            raise GradshCellError(errors[0])

    # -- errors -------------------------------------------------------------------------------

    def show_error(self, shell: Any, etype: type, value: BaseException, tb: Any,
                   tb_offset: int | None = None) -> None:
        """An error raised inside gradsh: the traceback of the cell's frames only (never
        gradsh's), then gradsh's hint; any other error as IPython shows it."""
        from gradsh.pyrun import error_text
        from gradsh.pytrace import is_internal

        from IPython.core.error import UsageError

        internal = any(is_internal(frame.f_code.co_filename)
                       for frame, _ in traceback.walk_tb(tb))
        if not internal or isinstance(value, (GradshCellError, UsageError)):
            shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
            return
        from gradsh.snapshot import tensor_env

        text = error_text(value, tensor_env(visible(shell.user_ns)), SHELL_PATH,
                          hidden=(self.ipython_dir,))
        shell._showtraceback(etype, value, self._cell_names(text).rstrip("\n").split("\n"))

    def cell_name(self, filename: str) -> str | None:
        """`Cell In[4]` for the file IPython compiled cell 4 as; None for other files."""
        name_of = getattr(self.shell.compile, "format_code_name", None)
        named = name_of(filename) if name_of is not None else None
        return f"{named[0]} {named[1]}" if named else None

    def calling_cell(self) -> str | None:
        """`Cell In[4]` for the cell running now: the first frame out that is a cell's."""
        frame = sys._getframe(1)
        while frame is not None:
            named = self.cell_name(frame.f_code.co_filename)
            if named is not None:
                return named
            frame = frame.f_back  # type: ignore[assignment]
        return None

    def _cell_names(self, text: str) -> str:
        """`File "/tmp/ipykernel_1/2.py", line 3` as IPython names a cell: `Cell In[4], line 3`."""

        def rename(match: re.Match[str]) -> str:
            named = self.cell_name(match.group(1))
            return f"{named}, line" if named else match.group(0)

        return re.sub(r'File "([^"]+)", line', rename, text)

    @contextlib.contextmanager
    def cell_warnings(self) -> Iterator[None]:
        """Warnings at a cell's line say `Cell In[4]:3:`, not the kernel's temporary file."""
        original = warnings.formatwarning

        def formatwarning(message: Any, category: type[Warning], filename: str, lineno: int,
                          line: str | None = None) -> str:
            named = self.cell_name(filename)
            if named is None:
                return original(message, category, filename, lineno, line)
            if line is None:
                line = linecache.getline(filename, lineno)
            return original(message, category, named, lineno, line)

        warnings.formatwarning = formatwarning
        try:
            yield
        finally:
            warnings.formatwarning = original


class GradshCellError(Exception):
    """A `%%gradsh` cell's error, shown as gradsh shows it (IPython calls _render_traceback_)."""

    def __init__(self, error: CellError):
        super().__init__(f"{error.kind}: {error.message}")
        self.error = error

    def _render_traceback_(self) -> list[str]:
        return self.error.text.split("\n")


def _is_gradsh_magic(cell: str) -> bool:
    """A `%%gradsh` cell, or a cell that only says `%gradsh ...`: no table after it."""
    lines = [line.strip() for line in cell.strip().splitlines()]
    if not lines:
        return False
    return lines[0].startswith("%%gradsh") or (len(lines) == 1 and
                                               re.match(r"%gradsh\b", lines[0]) is not None)


_EXTENSIONS: dict[int, Extension] = {}


def load_ipython_extension(shell: Any) -> None:
    if id(shell) in _EXTENSIONS:
        return
    extension = Extension(shell)
    extension.load()
    _EXTENSIONS[id(shell)] = extension


def unload_ipython_extension(shell: Any) -> None:
    extension = _EXTENSIONS.pop(id(shell), None)
    if extension is not None:
        extension.unload()


# ---------------------------------------------------------------------------------------------
# gradsh.show / explain / graph from a notebook
# ---------------------------------------------------------------------------------------------


def display_function() -> Emit | None:
    """IPython's display when running in a Jupyter kernel (which can show HTML and SVG); None
    elsewhere, including a terminal IPython, where gradsh prints as it does in a script."""
    if sys.modules.get("IPython") is None:  # never imported (or made unimportable)
        return None
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    from IPython.display import display

    return display
