"""The gradsh Jupyter kernel: notebooks written in the gradsh language itself.

Each cell runs as input typed into the shell (gradsh.shell's Session): statements echoed when a
cell has several, prints and warnings as text, the variable table after each statement as
HTML, `graph` as SVG (text without Graphviz), `explain` as paragraphs, the first error as the
cell's error. Completion is the shell's completer. Imported only where ipykernel is installed
(`gradsh kernel launch`, which Jupyter runs through the kernel spec `gradsh kernel install`
writes).
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

from ipykernel.kernelbase import Kernel

from gradsh import __version__
from gradsh.notebook import NotebookRenderer, NotebookSession, notebook_options
from gradsh.render_html import Tables, mimebundle


class _Stream(io.TextIOBase):
    """A cell's stdout or stderr: each write is a stream message to the frontend, sent as the
    reply to the request being executed (ipykernel's own streams follow IPython's shell)."""

    def __init__(self, kernel: Kernel, name: str):
        self.kernel = kernel
        self.name = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            self.kernel.send_response(self.kernel.iopub_socket, "stream",
                                      {"name": self.name, "text": text})
        return len(text)


class GradshKernel(Kernel):  # type: ignore[misc]  (ipykernel has no type hints)
    implementation = "gradsh"
    implementation_version = __version__
    language = "gradsh"
    language_version = __version__
    language_info = {
        "name": "gradsh",
        "version": __version__,
        "mimetype": "text/x-gradsh",
        "file_extension": ".grad",
        "pygments_lexer": "gradsh",  # gradsh's own lexer, registered as a Pygments plugin
        "codemirror_mode": "python",  # the nearest editor mode a Jupyter frontend ships
    }
    banner = (f"gradsh {__version__}: PyTorch's autograd, step by step. "
              "Type help for help; :table off|changed|all sets the table.")

    @property
    def kernel_info(self) -> dict[str, Any]:
        info = dict(super().kernel_info)
        # ipykernel offers its Python debugger to every kernel; it cannot step through gradsh
        info["supported_features"] = [f for f in info.get("supported_features", [])
                                      if f != "debugger"]
        return info

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.tables = Tables()
        # not `session`: Kernel.session is its Jupyter messaging session
        self.shell_session: NotebookSession | None = None

    def _renderer(self) -> NotebookRenderer:
        return NotebookRenderer(_Stream(self, "stdout"), _Stream(self, "stderr"), self._display,
                                self.tables, label=f"Cell In[{self.execution_count}]")

    def _display(self, view: object) -> None:
        self.send_response(self.iopub_socket, "display_data",
                           {"data": mimebundle(view), "metadata": {}})

    def _session(self, renderer: NotebookRenderer) -> NotebookSession:
        if self.shell_session is None:
            self.shell_session = NotebookSession(notebook_options(), renderer)
        return self.shell_session

    def do_execute(self, code: str, silent: bool, store_history: bool = True,
                   user_expressions: Any = None, allow_stdin: bool = False,
                   **kwargs: Any) -> dict[str, Any]:
        renderer = self._renderer()
        # Python input, which the shell runs too, prints to sys.stdout: the cell's as well
        with contextlib.redirect_stdout(renderer.out.file), \
                contextlib.redirect_stderr(renderer.err.file):
            errors = self._session(renderer).run_cell(code, renderer)
        if errors:
            first = errors[0]
            content = {"ename": first.kind, "evalue": first.message,
                       "traceback": first.text.split("\n")}
            if not silent:
                self.send_response(self.iopub_socket, "error", content)
            return {"status": "error", "execution_count": self.execution_count, **content}
        return {"status": "ok", "execution_count": self.execution_count, "payload": [],
                "user_expressions": {}}

    def do_complete(self, code: str, cursor_pos: int) -> dict[str, Any]:
        """The shell's completions at the cursor. Jupyter replaces one span for all of them,
        so only the completions that start where the first one does are offered."""
        from prompt_toolkit.completion import CompleteEvent
        from prompt_toolkit.document import Document

        from gradsh.repl.completer import GradshCompleter

        session = self._session(self._renderer())
        completer = GradshCompleter(lambda: session.interp.env, lambda: session.interp.globals)
        found = list(completer.get_completions(Document(code, cursor_pos), CompleteEvent()))
        start = found[0].start_position if found else 0
        matches = [c.text for c in found if c.start_position == start]
        return {"status": "ok", "matches": matches, "cursor_start": cursor_pos + start,
                "cursor_end": cursor_pos, "metadata": {}}

    def do_is_complete(self, code: str) -> dict[str, Any]:
        from gradsh.repl.source import is_complete

        if is_complete(code):
            return {"status": "complete"}
        return {"status": "incomplete", "indent": ""}
