"""Rows that time what a session pays around the engine: start-up, one top-level statement of a
.grad script or of a Python program, and the table shown after each step."""

from __future__ import annotations

import io
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.core import (
    Config,
    Result,
    Side,
    alternate,
    count,
    gradsh_command,
    probe,
    torch_side,
    wall_time,
)


def row_startup(cfg: Config) -> list[Result]:
    command = gradsh_command() + ["-c", "x = tensor(1.0)"]
    gradsh = Side("gradsh -c 'x = tensor(1.0)'")
    torch = torch_side("python -c 'import torch'")
    numpy = Side("python -c 'import numpy'")
    import_torch = [sys.executable, "-c", "import torch"]
    import_numpy = [sys.executable, "-c", "import numpy"]
    wall_time(command)  # warm the file cache (and the grammar cache) for every side
    wall_time(import_numpy)
    if torch.missing is None:
        wall_time(import_torch)
    alternate(cfg.runs, [(gradsh, lambda: wall_time(command)),
                         (torch, lambda: wall_time(import_torch)),
                         (numpy, lambda: wall_time(import_numpy))])
    case = "start, run x = tensor(1.0), print the table"
    return [Result("startup", case, "s", gradsh, torch, goal=0.25),
            Result("startup", case, "s", gradsh, numpy, note="NumPy is what gradsh computes with")]


LINE = "x = x * 1.0001 + 0.5"


def row_statements(cfg: Config) -> list[Result]:
    """Separate top-level statements, each `x = x * 1.0001 + 0.5`: `gradsh run --quiet` on a
    .grad script and on a Python program of n such lines (less the same with none), against
    Python compiling and running the line n times with torch."""
    n = cfg.size(10_000, 100)
    python = torch_side("Python compile + exec, torch")
    sides = {kind: (Side(f"gradsh run --quiet, .{kind}"), Side("the same with 0 lines"))
             for kind in ("grad", "py")}
    heads = {"grad": "x = tensor(1.0)\n", "py": "import torch\nx = torch.tensor(1.0)\n"}
    with tempfile.TemporaryDirectory() as folder:
        paths: dict[tuple[str, int], Path] = {}
        for kind, head in heads.items():
            for lines in (n, 0):
                path = paths[kind, lines] = Path(folder) / f"s{lines}.{kind}"
                path.write_text(head + (LINE + "\n") * lines)

        def run(kind: str, lines: int) -> Callable[[], float]:
            command = gradsh_command() + ["run", "--quiet", str(paths[kind, lines])]
            return lambda: wall_time(command)

        for kind in heads:
            run(kind, 0)()  # warm the file cache
        measures: list[tuple[Side, Callable[[], Any]]] = [
            (python, lambda: probe("statements", "torch", n=n)["us_per_statement"])]
        for kind, (lines, empty) in sides.items():
            measures += [(lines, run(kind, n)), (empty, run(kind, 0))]
        alternate(cfg.runs, measures)
    results = []
    for kind, goal in (("grad", 6.0), ("py", 1.5)):
        lines, empty = sides[kind]
        base = empty.median or 0.0
        lines.values = [(t - base) / n * 1e6 for t in lines.values]
        what = "a .grad script" if kind == "grad" else "a Python program"
        results.append(Result("statement", f"{count(n)} top-level statements `{LINE}` of {what}",
                              "µs/stmt", lines, python, goal=goal,
                              note=f"start-up ({base * 1e3:.0f} ms) subtracted"))
    return results


def row_render(cfg: Config) -> list[Result]:
    results = []
    for size, goal in ((4, 2.0), (cfg.size(1000, 10), 20.0)):
        results += _render(cfg, size, goal)
    return results


def _render(cfg: Config, size: int, goal: float) -> list[Result]:
    from rich.console import Console

    from gradsh import runner, snapshot
    from gradsh.interpreter import Interpreter
    from gradsh.parser import parse
    from gradsh.render import Renderer
    from gradsh.step_vars import StepVars

    variables = 20
    steps = cfg.size(40, 4)
    setup = [f"v{i} = rand({size})" for i in range(variables)]
    body = [f"v{i % variables} = v{i % variables} * 0.5 + 1" for i in range(steps)]
    source = "\n".join(setup + body) + "\n"
    program = parse(source, "<benchmark>")
    counts = {"take": 0, "to_host": 0}

    def per_step(mode: str, color: bool = False) -> float:
        """Milliseconds per step of `body` (run and shown as `gradsh run` shows it) once the
        20 variables exist; the setup steps are shown too, untimed, so changes are marked."""
        out = io.StringIO()
        options = runner.RunOptions(mode=mode, color=color, width=100)
        renderer = Renderer(out, io.StringIO(), color, 100)
        if color:  # a colour terminal, as `gradsh run` finds on one (escape codes and all)
            renderer.out = Console(file=out, width=100, force_terminal=True,
                                   color_system="truecolor", highlight=False, soft_wrap=True)
        interp = Interpreter("<benchmark>", source)
        view = StepVars(options.vars_shown)  # one per run, as runner._run_steps has
        elapsed = 0.0
        for number, stmt in enumerate(program.body, start=1):
            start = time.perf_counter()
            outcome = interp.run_statement(stmt)
            failed = runner._show_step(number, outcome, interp, options, renderer, out, source,
                                       "<benchmark>", view)
            if number > variables:
                elapsed += time.perf_counter() - start
            assert not failed
        return elapsed / steps * 1e3

    def counting(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return function(*args, **kwargs)
        return counted

    table, colour, quiet = Side("table, plain"), Side("table, terminal colours"), Side("quiet")
    budget = Side("budget", [goal])
    alternate(cfg.runs, [(table, lambda: per_step("table")),
                         (colour, lambda: per_step("table", color=True)),
                         (quiet, lambda: per_step("quiet"))])
    take, to_host = snapshot.take, snapshot.to_host
    snapshot.take, snapshot.to_host = counting("take", take), counting("to_host", to_host)
    try:
        per_step("quiet")
    finally:
        snapshot.take, snapshot.to_host = take, to_host
    case = f"a step, {variables} variables of {count(size)} elements"
    return [
        Result("render", f"{case}: plain table (piped)", "ms", table, budget, goal=goal,
               absolute=True),
        Result("render", f"{case}: coloured table", "ms", colour, budget, goal=goal,
               absolute=True),
        Result("render", f"{case}: --quiet", "ms", quiet, None,
               note=f"--quiet took {counts['take']} snapshots, copied {counts['to_host']} values"),
    ]
