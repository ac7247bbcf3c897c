"""`gradsh check FILE.py`: a Python program run on gradsh (in this process) and on real PyTorch
(`python -m gradsh.torch_side`, a subprocess), compared after every top-level statement as
gradsh.check compares a .grad script with its export.

Both sides run the program as `python FILE.py` would (it is the user's own code: no sandbox),
seeded alike, in the current folder; after each statement each side reports what it printed to
stdout, its warnings (Python's default filters), its error, and every tensor variable and module
parameter (`model.0.weight`).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import traceback
from typing import Any

from gradsh.check import (
    EXIT_DIFFERENT,
    EXIT_IDENTICAL,
    EXIT_USAGE,
    INSTALL_HINT,
    CheckOptions,
    TorchMissing,
    TorchSide,
    compare_traces,
    render_report,
)
from gradsh.errors import GradshError
from gradsh.torch_side import warning_text


def python_trace(program: Any, statements: list[Any], options: CheckOptions) -> list[dict[str, Any]]:
    """Run the program on gradsh: one trace entry per statement (printed, warnings, error,
    vars), in the shape of `gradsh run --json`."""
    from gradsh import pytrace, snapshot
    from gradsh.snapshot import tensor_env
    from gradsh.runner import RunOptions, prepare_engine

    prepare_engine(RunOptions(seed=options.seed, device=options.device,
                              sim_cuda=options.sim_cuda))
    steps: list[dict[str, Any]] = []
    with program.active():
        for number, stmt in enumerate(statements, start=1):
            out = io.StringIO()
            texts: list[str] = []

            def record(message: Any, category: type, *args: Any, **kwargs: Any) -> None:
                text = warning_text(category, str(message))
                if text not in texts:
                    texts.append(text)

            error = None
            with pytrace.python_warnings(None), contextlib.redirect_stdout(out):
                import warnings

                warnings.showwarning = record
                try:
                    program.run(stmt)
                except (KeyboardInterrupt, SystemExit):
                    raise
                except BaseException as err:  # noqa: BLE001  (the program's error, compared)
                    error = {"type": type(err).__name__, "message": str(err)}
            steps.append({
                "step": number, "ok": error is None, "printed": out.getvalue().splitlines(),
                "warnings": texts, "error": error,
                "vars": {s.name: snapshot.json_state(s)
                         for s in snapshot.take(tensor_env(program.namespace))},
            })
            if error is not None and not options.keep_going:
                break
    return steps


def check_python(args: argparse.Namespace, source: str, options: CheckOptions) -> int:
    from gradsh.pyrun import PythonProgram

    program = PythonProgram(source, args.file, argv=getattr(args, "program_argv", ()))
    try:
        statements = program.parse()
    except SyntaxError as err:
        sys.stderr.write("".join(traceback.format_exception_only(type(err), err)))
        return EXIT_USAGE
    request = {"mode": "python", "path": program.path, "source": source,
               "file": program.module.__file__, "argv0": args.file,
               "argv": list(program.argv),
               "directory": program.directory, "seed": options.seed,
               "keep_going": options.keep_going}
    torch_side = TorchSide(request, options)
    try:
        ours = python_trace(program, statements, options)
    except GradshError as err:
        torch_side.cancel()
        sys.stderr.write(f"{args.file}: {err.kind}: {err.message}\n")
        return EXIT_USAGE
    except BaseException:  # an interrupt or a gradsh bug: leave no torch process behind
        torch_side.cancel()
        raise
    try:
        theirs = torch_side.trace()
    except TorchMissing as err:
        sys.stderr.write(f"gradsh: error: cannot import torch ({err}).\n{INSTALL_HINT}\n")
        return EXIT_USAGE
    lines = [(s.pos.line, s.source.splitlines()[0] + (" ..." if "\n" in s.source else ""))
             for s in statements]
    differences = compare_traces(ours, theirs.steps, lines, options.sim_cuda)
    color = sys.stdout.isatty() and not args.no_color and "NO_COLOR" not in os.environ
    steps = max(len(ours), len(theirs.steps))
    render_report(differences, args.file, steps, color, args.width, theirs.failure)
    return EXIT_DIFFERENT if differences or theirs.failure else EXIT_IDENTICAL
