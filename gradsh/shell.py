"""The interactive shell (a first version: prompt, multi-line input, state kept across errors)."""

from __future__ import annotations

import sys

from gradsh import snapshot
from gradsh.errors import GradshError
from gradsh.interpreter import Interpreter
from gradsh.parser import IncompleteInput, parse
from gradsh.render import Renderer
from gradsh.runner import EXIT_OK, RunOptions, prepare, render_display


def run_shell(options: RunOptions) -> int:
    from prompt_toolkit import PromptSession

    session: PromptSession[str] = PromptSession()
    renderer = Renderer(sys.stdout, sys.stderr, options.color, options.width)
    interp = Interpreter("<shell>")
    prepare(interp, options)
    buffer = ""
    while True:
        try:
            line = session.prompt("... " if buffer else ">>> ")
        except KeyboardInterrupt:
            buffer = ""
            continue
        except EOFError:
            return EXIT_OK
        buffer = f"{buffer}\n{line}" if buffer else line
        try:
            program = parse(buffer, "<shell>")
        except IncompleteInput:
            continue
        except GradshError as err:
            renderer.error(err, buffer, "<shell>")
            buffer = ""
            continue
        source, buffer = buffer, ""
        interp.source = source
        for stmt in program.body:
            try:
                outcome = interp.run_statement(stmt)
            except KeyboardInterrupt:
                renderer.text("KeyboardInterrupt")
                break
            for kind, payload in outcome.events:
                if kind == "print":
                    renderer.printed(payload)
                elif kind == "warning":
                    renderer.warning(payload)
                else:
                    render_display(renderer, payload, interp)
            if outcome.error is not None:
                renderer.error(outcome.error, source, "<shell>")
            renderer.table(snapshot.take(interp.env))
