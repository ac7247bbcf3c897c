"""The interactive shell: `gradsh` on a terminal (a piped stdin runs as a script instead).

`Session` is the shell without the terminal: it runs one input at a time (statements, `help`,
`:` commands), shows what each statement printed, its warnings, its value when it is an
expression, its error with a caret, then the variable table when the statement changed it, and
it never lets an error or a Ctrl-C end the session or lose a variable. `make_prompt` builds the prompt_toolkit session from
the pieces in gradsh/repl/, and `interact` is the loop between the two; tests drive both with
prompt_toolkit's pipe input.
"""

from __future__ import annotations

import os
import sys
from typing import IO

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.formatted_text import AnyFormattedText
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.lexers import PygmentsLexer
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import Style

from gradsh import __version__, ast, snapshot
from gradsh.engine.exceptions import TorchError
from gradsh.engine.limits import Limit
from gradsh.errors import GradshError
from gradsh.interpreter import Interpreter, StepOutcome
from gradsh.parser import normalise, parse
from gradsh.render import Renderer, TableMemory, tensor_cells
from gradsh.repl import commands
from gradsh.repl import help as helptext
from gradsh.repl.completer import GradshCompleter
from gradsh.repl.history import open_history
from gradsh.repl.key_bindings import load_key_bindings
from gradsh.repl.lexer import GradshLexer
from gradsh.pyrun import PythonProgram, format_syntax_error
from gradsh.repl.python_input import (
    looks_like_python,
    needs_python,
    parses_as_python,
    remember_source,
)
from gradsh.repl.source import is_complete, join_lines
from gradsh.repl.terminal import keep_typeahead
from gradsh.runner import (
    EXIT_OK,
    EXIT_USAGE,
    RunOptions,
    ScriptTimeout,
    _deadline,
    header_args,
    is_python_path,
    prepare,
    read_script,
    render_display,
)

SHELL_PATH = "<shell>"
PROMPT = ">>> "
CONTINUATION = "... "
BANNER = (f"gradsh {__version__}: PyTorch's autograd, step by step. "
          "Type help, or Ctrl-D to leave.")


class Session:
    """One shell session: the interpreter, the table setting and the statements that succeeded."""

    def __init__(self, options: RunOptions, out: IO[str], err: IO[str]) -> None:
        self.options = options
        self.renderer = Renderer(out, err, options.color, options.width)
        self.table_mode = "all"
        self.statements: list[str] = []  # the source of each statement that succeeded
        self.header = _header(options)  # options a saved script needs in its header
        self.finished = False
        self.python_inputs = 0
        self.interp = self._new_interpreter()

    def _new_interpreter(self) -> Interpreter:
        """A fresh interpreter, whose variables are also the namespace Python input runs in:
        gradsh statements and Python code see the same variables."""
        interp = Interpreter(SHELL_PATH)
        prepare(interp, self.options)
        self.python = PythonProgram("", SHELL_PATH, interp.env)
        return interp

    # -- one input ----------------------------------------------------------------------------

    def execute(self, text: str) -> None:
        """Run one input. Nothing escapes: errors and Ctrl-C are shown, the session goes on."""
        try:
            self._execute(text)
        except KeyboardInterrupt:
            self._error(GradshError("KeyboardInterrupt", "interrupted"))
        except MemoryError as err:  # past the memory limit while showing a step
            self._error(GradshError("MemoryError", str(err) or "out of memory"))
        except Exception as err:  # noqa: BLE001  (a gradsh bug must not end the session)
            if os.environ.get("GRADSH_DEBUG"):
                raise
            self._error(GradshError("InternalError",
                                    f"{type(err).__name__}: {err} (this is a gradsh bug)"))

    def _execute(self, text: str) -> None:
        line = text.strip()
        if not line:
            return
        if line.startswith(":"):
            self.command(line)
            return
        topic = commands.help_request(line, frozenset(self.interp.env))
        if topic is not None:
            self.show_help(topic)
            return
        source = join_lines(text)
        try:
            program = parse(source, SHELL_PATH)
        except GradshError as err:
            if parses_as_python(text) or looks_like_python(text):
                self.run_python(text)
            else:
                self.renderer.error(err, text, SHELL_PATH)  # as typed: the same lines, columns
            return
        if needs_python(program, self.interp) and parses_as_python(text):
            self.run_python(text)
            return
        self.run_source(source, SHELL_PATH, shown=text)

    def run_python(self, text: str, path: str | None = None, *, script: bool = False,
                   keep_going: bool = False) -> None:
        """Run Python input (or a loaded .py file) statement by statement in the shared
        namespace, with the table after each statement; an expression echoes its value as in
        Python's REPL."""
        import ast as pyast

        from gradsh.pyrun import format_program_error, split_statements

        if path is None:
            self.python_inputs += 1
            path = f"<shell-{self.python_inputs}>"
        source = text.rstrip() + "\n"
        remember_source(path, source)
        try:
            statements = split_statements(pyast.parse(source, path), source)
        except (SyntaxError, ValueError) as err:
            self.renderer.out.file.flush()
            self.renderer.err.print(format_syntax_error(err), markup=False, highlight=False)
            return
        echo = script or len(statements) > 1
        with self.python.active():
            for stmt in statements:
                if echo:
                    self.renderer.statement(stmt.source, language="python")
                self.renderer.out.file.flush()
                error: BaseException | None = None
                try:
                    self.python.run(stmt, path, interactive=not script)
                except SystemExit:
                    self.finished = True
                    return
                except KeyboardInterrupt:
                    self._error(GradshError("KeyboardInterrupt", "interrupted"))
                    self.show_table()
                    return
                except BaseException as exc:  # noqa: BLE001  (the user's error, shown as Python's)
                    error = exc
                sys.stdout.flush()
                if error is not None:
                    self.renderer.err.print(format_program_error(error, self.python).rstrip(),
                                            markup=False, highlight=False)
                if not script:
                    self.show_table()
                if error is not None and not keep_going:
                    break
        if script:
            self.show_table(always=True)

    def run_source(self, source: str, path: str, *, script: bool = False,
                   keep_going: bool = False, shown: str | None = None) -> None:
        """Run `source` statement by statement.

        Typed input shows the table after each statement; several statements on one input are
        echoed first, so each output sits under its statement. A script (`:load`) echoes every
        statement and shows one table at the end. The first error stops the rest.
        """
        try:
            program = parse(source, path)
        except GradshError as err:
            self.renderer.error(err, source, path)
            return
        self.interp.source, self.interp.path = program.source, path
        # Errors quote the input as typed (`shown`), not with the shell's line joins.
        quoted = program.source if shown is None else shown
        echo = script or len(program.body) > 1
        for stmt in program.body:
            if echo:
                self.renderer.statement(stmt.source)
            try:
                outcome = self.interp.run_statement(stmt)
            except KeyboardInterrupt:
                # The interpreter undid the statement (gradsh's own stop) and let Ctrl-C through.
                interrupted = GradshError("KeyboardInterrupt", "interrupted", stmt.pos)
                interrupted.rolled_back = True
                self._error(interrupted, quoted, path)
                self.show_table()
                return
            self._show_outcome(outcome, quoted, path)
            if outcome.ok:
                self.statements.append(stmt.source)
            if not script and not isinstance(stmt, ast.Show):  # `show` has shown it
                self.show_table()
            if not outcome.ok and not keep_going:
                break
        if script:
            self.show_table(always=True)

    def _show_outcome(self, outcome: StepOutcome, source: str, path: str) -> None:
        for kind, payload in outcome.events:
            if kind in ("print", "echo"):
                self.renderer.printed(payload)
            elif kind == "warning":
                self.renderer.warning(payload)
            else:
                render_display(self.renderer, payload, self.interp, self.options.lang)
        if outcome.error is not None:
            self.renderer.error(outcome.error, source, path)

    def show_table(self, always: bool = False) -> None:
        """The table as the setting asks, when the statement changed something (a cell, a new
        or deleted variable): a statement that only reads (`x.grad`, `print(x)`) shows its
        output alone; `show` and `:vars` show the table at any time. With `always` (after
        `:load`), it shows even if nothing changed."""
        states = snapshot.take(self.interp.env)
        memory = self.renderer.memory.cells
        current = {s.name: tensor_cells(s) for s in states if isinstance(s, snapshot.TensorState)}
        changed = [name for name, cells in current.items() if cells != memory.get(name)]
        removed = [name for name in memory if name not in current]
        self.renderer.forget(removed)  # one made again later is new again
        if self.table_mode == "off":
            # Unseen, but remembered: marks always mean "changed by the last statement".
            self.renderer.memory = TableMemory({**self.renderer.memory.cells, **current})
            return
        if self.table_mode == "changed":
            if changed:
                self.renderer.table(states, changed)
        elif changed or removed or always:
            self.renderer.table(states)

    def show_help(self, topic: str) -> None:
        lines = helptext.topic(topic) if topic else helptext.overview(self.renderer.out.width)
        if lines is None:
            self._error(GradshError("NameError", f"no help on '{topic}' "
                                    "(help alone lists every statement, builtin and command)",
                                    hint=helptext.topic_hint(topic)))
            return
        for line in lines:
            self.renderer.printed(line)

    def _error(self, err: GradshError, source: str | None = None,
               path: str = SHELL_PATH) -> None:
        self.renderer.error(err, source, path)

    # -- session commands ---------------------------------------------------------------------

    def command(self, line: str) -> None:
        try:
            if "\n" in line:
                raise commands.CommandError("a session command takes one line")
            command, argument, force = commands.parse(line)
        except commands.CommandError as err:
            self._error(err)
            return
        if command.name == "save":
            self.command_save(argument, replace=force)
            return
        getattr(self, f"command_{command.name}")(argument)

    def command_help(self, topic: str) -> None:
        self.show_help(topic)

    def command_vars(self, _: str) -> None:
        states = snapshot.take(self.interp.env)
        if not states:
            self.renderer.text("no variables")
            return
        self.renderer.table(states, remember=False, marks=False)
        self.renderer.other_variables(states)

    def command_table(self, mode: str) -> None:
        if mode and mode not in commands.TABLE_MODES:
            self._error(commands.CommandError(
                f"':table {mode}': the table is one of {', '.join(commands.TABLE_MODES)}"))
            return
        self.table_mode = mode or self.table_mode
        self.renderer.text(f"table: {self.table_mode}")

    def command_load(self, path: str) -> None:
        path = os.path.expanduser(path)
        try:
            source = normalise(read_script(path))
            flags = header_args(source)
        except GradshError as err:
            self._error(err, None, path)
            return
        loaded = self._apply_header(flags, path)
        if loaded is None:
            return
        keep_going, timeout, max_memory = loaded
        previous_limit, baseline = Limit.max_bytes, Limit.baseline
        if max_memory is not None:  # for this script only, as for `gradsh run`
            Limit.max_bytes = max_memory
        try:
            with _deadline(timeout):
                if is_python_path(path):
                    self.run_python(source, path, script=True, keep_going=keep_going)
                else:
                    self.run_source(source, path, script=True, keep_going=keep_going)
        except ScriptTimeout:
            self._error(GradshError("TimeoutError", f"{path} ran longer than its --timeout "
                                    f"{timeout:g} seconds; the statement running was stopped "
                                    "and undone"))
            self.show_table(always=True)
        finally:
            Limit.max_bytes, Limit.baseline = previous_limit, baseline

    def _apply_header(self, flags: list[str], path: str
                      ) -> tuple[bool, float | None, int | None] | None:
        """Apply a loaded script's `# gradsh:` options; its --keep-going, --timeout and
        --max-memory (which hold while it runs), or None on failure.

        --seed and --device act now, like the statements `seed N` and `device D` (and are saved
        as those); --sim-cuda cannot be undone, so it goes into the saved script's header.
        """
        import argparse

        from gradsh.cli import _seconds, _size

        options = RunOptions()
        timeout: float | None = None
        max_memory: int | None = None
        try:
            words = iter(flags)  # header_args gives each option its value right after it
            for flag in words:
                if flag == "--seed":
                    options.seed = int(next(words, ""))
                elif flag == "--device":
                    options.device = next(words, "")
                elif flag == "--sim-cuda":
                    options.sim_cuda = True
                elif flag == "--keep-going":
                    options.keep_going = True
                elif flag == "--timeout":
                    timeout = _seconds(next(words, ""))
                elif flag == "--max-memory":
                    max_memory = _size(next(words, ""))
            options.max_memory = Limit.max_bytes  # the session's own limit stays, and so
            baseline = Limit.baseline  # does the memory it counts from
            prepare(self.interp, options)
            Limit.baseline = baseline
        except argparse.ArgumentTypeError as err:
            self._error(GradshError("UsageError", f"in the script header: {err}"), None, path)
            return None
        except ValueError:
            self._error(GradshError("UsageError", "--seed in the script header needs a number"),
                        None, path)
            return None
        except GradshError as err:
            self._error(err, None, path)
            return None
        except TorchError as err:
            self._error(GradshError(err.kind, str(err)), None, path)
            return None
        if options.sim_cuda and "--sim-cuda" not in self.header:
            from gradsh.engine.backend import SIM_CUDA_NOTICE

            self.renderer.err.print(SIM_CUDA_NOTICE, markup=False)
            self.header.append("--sim-cuda")
        if options.seed is not None:
            self.statements.append(f"seed {options.seed}")
        if options.device is not None:
            self.statements.append(f"device {options.device}")
        return options.keep_going, timeout, max_memory

    def command_save(self, path: str, replace: bool = False) -> None:
        """Write the session as a script; a file already there is replaced only by `:save!`."""
        path = os.path.expanduser(path)
        try:
            with open(path, "w" if replace else "x", encoding="utf-8") as f:
                f.write(self.script())
        except FileExistsError:
            self._error(GradshError("FileExistsError", f"{path} exists: `:save! {path}` "
                                    "replaces it"))
            return
        except OSError as err:
            self._error(GradshError("OSError", f"cannot write {path}: {err.strerror or err}"))
            return
        count = len(self.statements)
        self.renderer.text(f"saved {count} statement{'s' if count != 1 else ''} to {path}")

    def script(self) -> str:
        """The session so far as a .grad script: the statements that succeeded, in order."""
        lines = ["# A gradsh shell session, saved with :save."]
        if self.header:
            lines.append("# gradsh: " + " ".join(self.header))
        return "\n".join(lines + self.statements) + "\n"

    def command_reset(self, _: str) -> None:
        self.interp = self._new_interpreter()
        self.renderer.memory = TableMemory.empty()
        self.statements.clear()
        self.renderer.text("session reset: no variables")

    def command_quit(self, _: str) -> None:
        self.finished = True


def _header(options: RunOptions) -> list[str]:
    """The command-line options that change what statements do, as a script header."""
    flags: list[str] = []
    if options.sim_cuda:
        flags.append("--sim-cuda")
    if options.seed is not None:
        flags += ["--seed", str(options.seed)]
    if options.device is not None:
        flags += ["--device", options.device]
    return flags


# ---------------------------------------------------------------------------------------------
# The terminal side: prompt_toolkit
# ---------------------------------------------------------------------------------------------


def make_prompt(session: Session, *, history: History | None = None,
                input: Input | None = None, output: Output | None = None) -> PromptSession[str]:
    """The prompt_toolkit session for `session`: highlighting, completion, continuation lines,
    history (with Ctrl-R search) and the shell's keys."""

    def continuation(width: int, line_number: int, wrap_count: int) -> AnyFormattedText:
        return [("class:prompt.continuation", CONTINUATION.rjust(width))]

    return PromptSession(
        message=[("class:prompt", PROMPT)],
        multiline=True,
        prompt_continuation=continuation,
        lexer=PygmentsLexer(GradshLexer),
        completer=GradshCompleter(lambda: session.interp.env, lambda: session.interp.globals),
        complete_while_typing=False,
        key_bindings=load_key_bindings(is_complete),
        history=history if history is not None else InMemoryHistory(),
        auto_suggest=AutoSuggestFromHistory(),
        search_ignore_case=True,
        style=Style.from_dict({"prompt": "ansigreen bold", "prompt.continuation": "ansigreen"}),
        color_depth=None if session.options.color else ColorDepth.DEPTH_1_BIT,
        input=input,
        output=output,
    )


def interact(session: Session, prompt: PromptSession[str]) -> int:
    """Read and run inputs until Ctrl-D or :quit. Ctrl-C at the prompt cancels the input."""
    while not session.finished:
        try:
            text = prompt.prompt()
        except (KeyboardInterrupt, MemoryError):  # (the memory watchdog's stop comes late)
            continue
        except EOFError:
            break
        with keep_typeahead(prompt.input):
            session.execute(text)
    return EXIT_OK


def run_shell(options: RunOptions) -> int:
    """The entry point cli.py calls when stdin is a terminal."""
    try:
        session = Session(options, sys.stdout, sys.stderr)
    except GradshError as err:
        Renderer(sys.stdout, sys.stderr, options.color, options.width).error(err, None, "gradsh")
        return EXIT_USAGE
    except TorchError as err:  # `--device cuda` without a GPU: a usage problem, as in run
        Renderer(sys.stdout, sys.stderr, options.color, options.width).error(
            GradshError(err.kind, str(err)), None, "gradsh")
        return EXIT_USAGE
    history, problem = open_history()
    session.renderer.text(BANNER)
    if problem is not None:
        session.renderer.err.print(f"gradsh: {problem}", markup=False)
    return interact(session, make_prompt(session, history=history))
