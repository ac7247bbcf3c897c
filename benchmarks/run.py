"""The benchmark suite: every row against its comparator, measured in the same run.

    python -m benchmarks                   every row, a plain table
    python -m benchmarks --row startup     one row (repeat --row for several; --list names them)
    python -m benchmarks --markdown        the table as Markdown (README's Performance section)
    python -m benchmarks --quick           tiny sizes and 2 runs: a smoke test, not a measurement

Each row runs its two sides alternately (A, B, A, B, ...) `--runs` times and reports the median
of each side, their ratio, and the noise: the spread of the runs (max - min) over the median.
Measurements that need a clean process (anything with torch, anything measuring memory) run in
a fresh interpreter each time (benchmarks/probes.py). Where torch is not installed its rows say
so and the others still run. Timings are never asserted in the tests: only that the suite runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # `python benchmarks/run.py`: make the package importable
    sys.path.insert(0, str(ROOT))

TORCH_MISSING = "torch not installed"


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass
class Side:
    """One side of a row: what ran, and the value of each run."""

    label: str
    values: list[float] = field(default_factory=list)
    missing: str | None = None  # why it could not run ("torch not installed")

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None

    @property
    def noise(self) -> float | None:
        """(max - min) / median over the runs: how far apart the runs were."""
        if len(self.values) < 2 or not self.median:
            return None
        return (max(self.values) - min(self.values)) / abs(self.median)


@dataclass
class Result:
    """One line of the table: gradsh's side against the comparator's, and the goal.

    `goal` bounds the ratio gradsh / comparator; with `absolute`, it bounds gradsh's own value
    (the rendering budget) and the comparator column shows the budget.
    """

    row: str
    case: str
    unit: str
    gradsh: Side
    comparator: Side | None
    goal: float | None = None
    absolute: bool = False
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.comparator is None:
            return None
        a, b = self.gradsh.median, self.comparator.median
        if a is None or b is None or b == 0:
            return None
        return a / b

    @property
    def met(self) -> bool | None:
        if self.goal is None:
            return None
        value = self.gradsh.median if self.absolute else self.ratio
        return None if value is None else value <= self.goal

    def as_dict(self) -> dict[str, Any]:
        return {
            "row": self.row, "case": self.case, "unit": self.unit,
            "gradsh": self.gradsh.median, "gradsh_noise": self.gradsh.noise,
            "comparator": self.comparator.label if self.comparator else None,
            "comparator_value": self.comparator.median if self.comparator else None,
            "comparator_noise": self.comparator.noise if self.comparator else None,
            "comparator_missing": self.comparator.missing if self.comparator else None,
            "ratio": self.ratio, "goal": self.goal, "absolute": self.absolute, "met": self.met,
            "runs": len(self.gradsh.values), "note": self.note,
        }


# ---------------------------------------------------------------------------------------------
# Running things
# ---------------------------------------------------------------------------------------------


def torch_available() -> bool:
    return importlib.util.find_spec("torch") is not None


def gradsh_command() -> list[str]:
    """The `gradsh` console script of this interpreter's environment (what a user runs)."""
    script = Path(sys.executable).parent / "gradsh"
    if script.exists():
        return [str(script)]
    found = shutil.which("gradsh")
    return [found] if found else [sys.executable, "-m", "gradsh"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def wall_time(command: Sequence[str]) -> float:
    """Seconds a command takes from start to exit (its output discarded; it must succeed)."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=_env(), cwd=ROOT)
    return time.perf_counter() - start


def probe(name: str, impl: str, env: dict[str, str] | None = None,
          **args: int) -> dict[str, float]:
    """Run one benchmarks.probes measurement in a fresh interpreter (with `env` added to its
    environment); its JSON result."""
    command = [sys.executable, "-m", "benchmarks.probes", name, "--impl", impl]
    for key, value in args.items():
        command += [f"--{key}", str(value)]
    done = subprocess.run(command, check=True, capture_output=True, text=True,
                          env=dict(_env(), **(env or {})), cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def alternate(runs: int, sides: Sequence[tuple[Side, Callable[[], Any]]],
              record: Callable[[Side, Any], None] | None = None) -> None:
    """Run each side once per round (A, B, A, B, ...), `runs` rounds; sides marked missing are
    skipped. `record` files a measurement (default: append the number to the side)."""
    for _ in range(runs):
        for side, measure in sides:
            if side.missing is None:
                value = measure()
                if record is None:
                    side.values.append(value)
                else:
                    record(side, value)


def torch_side(label: str) -> Side:
    return Side(label, missing=None if torch_available() else TORCH_MISSING)


# ---------------------------------------------------------------------------------------------
# The rows
# ---------------------------------------------------------------------------------------------


@dataclass
class Config:
    runs: int
    quick: bool

    def size(self, full: int, quick: int) -> int:
        return quick if self.quick else full


def row_startup(cfg: Config) -> list[Result]:
    command = gradsh_command() + ["-c", "x = tensor(1.0)"]
    gradsh = Side("gradsh -c 'x = tensor(1.0)'")
    torch = torch_side("python -c 'import torch'")
    import_torch = [sys.executable, "-c", "import torch"]
    wall_time(command)  # warm the file cache (and the grammar cache) for both sides
    if torch.missing is None:
        wall_time(import_torch)
    alternate(cfg.runs, [(gradsh, lambda: wall_time(command)),
                         (torch, lambda: wall_time(import_torch))])
    return [Result("startup", "start, run x = tensor(1.0), print the table", "s", gradsh, torch,
                   goal=0.25)]


def row_large(cfg: Config) -> list[Result]:
    n = cfg.size(10_000_000, 10_000)
    iters = cfg.size(10, 2)
    gradsh = Side("gradsh script")
    numpy = Side("NumPy by hand")
    torch = torch_side("torch")
    alternate(cfg.runs, [
        (gradsh, lambda: probe("elementwise", "gradsh", n=n, iters=iters)["seconds"] * 1e3),
        (numpy, lambda: probe("elementwise", "numpy", n=n, iters=iters)["seconds"] * 1e3),
        (torch, lambda: probe("elementwise", "torch", n=n, iters=iters)["seconds"] * 1e3),
    ])
    case = f"((x*w + b).tanh() * x).sum() fwd+bwd, {_count(n)} float32"
    side = cfg.size(2048, 64)
    mm_iters = cfg.size(5, 2)
    mm_gradsh = Side("gradsh script")
    mm_numpy = Side("NumPy by hand")
    alternate(cfg.runs, [
        (mm_gradsh, lambda: probe("matmul", "gradsh", n=side, iters=mm_iters)["seconds"] * 1e3),
        (mm_numpy, lambda: probe("matmul", "numpy", n=side, iters=mm_iters)["seconds"] * 1e3),
    ])
    return [
        Result("large", case, "ms", gradsh, numpy, goal=1.3),
        Result("large", case, "ms", gradsh, torch, goal=1.0),
        Result("large", f"(a @ b).sum() fwd+bwd, {side}x{side} float32", "ms", mm_gradsh,
               mm_numpy, goal=1.1),
    ]


def row_perop(cfg: Config) -> list[Result]:
    n = cfg.size(20_000, 200)
    loop = "y = tensor(1.0, grad); repeat {} {{ y = y * 1.0001 + 0.0001 }}"
    command = gradsh_command() + ["--quiet", "-c"]
    script = Side("gradsh --quiet -c")
    startup = Side("the same with repeat 0")
    torch = torch_side("torch")
    engine = Side("gradsh.engine")
    torch_engine = torch_side("torch")
    wall_time(command + [loop.format(0)])
    alternate(cfg.runs, [
        (script, lambda: wall_time(command + [loop.format(n)])),
        (startup, lambda: wall_time(command + [loop.format(0)])),
        (torch, lambda: probe("perop", "torch", n=n)["us_per_op"]),
        (engine, lambda: probe("perop", "engine", n=n)["us_per_op"]),
    ])
    torch_engine.values = list(torch.values)
    # The script's time per op: its runs less the median start-up, over the 2n operations.
    base = startup.median or 0.0
    script.values = [(t - base) / (2 * n) * 1e6 for t in script.values]
    return [
        Result("per-op", f"repeat {_count(n)} {{ y = y * 1.0001 + 0.0001 }}, y requires grad",
               "µs/op", script, torch, goal=3.0,
               note=f"interpreted; start-up ({base * 1e3:.0f} ms) subtracted"),
        Result("per-op", "the same loop through the Python API", "µs/op", engine, torch_engine,
               goal=1.0, note="engine only"),
    ]


def row_deep(cfg: Config) -> list[Result]:
    n = cfg.size(1_000_000, 2_000)
    gradsh = Side("gradsh.engine")
    torch = torch_side("torch")
    alternate(cfg.runs, [(gradsh, lambda: probe("deep", "engine", n=n)),
                         (torch, lambda: probe("deep", "torch", n=n))],
              record=lambda side, result: side.values.append(result))
    results = []
    case = f"{_count(n)}-step chain y = y * 1.0001 + 0.0001"
    for key, what, unit, goal in (
        ("peak_mib", "peak RSS", "MiB", 1.0),
        ("forward_us_per_node", "forward", "µs/node", None),
        ("backward_us_per_node", "backward", "µs/node", None),
    ):
        results.append(Result("deep", f"{case}: {what}", unit, _pick(gradsh, key),
                              _pick(torch, key), goal=goal))
    return results


def row_memory(cfg: Config) -> list[Result]:
    n = cfg.size(10_000_000, 10_000)

    def measure(impl: str, retain: int) -> Callable[[], dict[str, float]]:
        return lambda: probe("retained", impl, n=n, retain=retain)

    sides = {retain: (Side("gradsh.engine"), torch_side("torch")) for retain in (0, 1)}
    alternate(cfg.runs, [(side, measure(impl, retain))
                         for retain in (0, 1)
                         for side, impl in zip(sides[retain], ("engine", "torch"), strict=True)],
              record=lambda side, result: side.values.append(result))
    results = []
    for retain, call in ((0, "backward()"), (1, "backward(retain_graph=True)")):
        gradsh, torch = sides[retain]
        case = f"{_count(n)} chain, {call}"
        results.append(Result("memory", f"{case}: peak", "MiB", _pick(gradsh, "peak_mib"),
                              _pick(torch, "peak_mib"), goal=1.0))
        results.append(Result("memory", f"{case}: kept after", "MiB",
                              _pick(gradsh, "kept_by_graph_mib"),
                              _pick(torch, "kept_by_graph_mib"), goal=1.0,
                              note="RSS after, less the three .grad"))
    return results


def _count(n: int) -> str:
    """10M, 20k, 1M, 2048: sizes as the issue names them."""
    for unit, size in (("M", 1_000_000), ("k", 1_000)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def _pick(side: Side, key: str) -> Side:
    """The runs of one quantity out of a side whose runs are probe dictionaries."""
    return Side(side.label, [run[key] for run in side.values], side.missing)  # type: ignore[index]


def row_render(cfg: Config) -> list[Result]:
    from gradsh import runner, snapshot
    from gradsh.interpreter import Interpreter
    from gradsh.parser import parse
    from gradsh.render import Renderer
    from gradsh.step_vars import StepVars

    variables, size = 20, cfg.size(1000, 10)
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
    budget = Side("budget", [20.0])
    alternate(cfg.runs, [(table, lambda: per_step("table")),
                         (colour, lambda: per_step("table", color=True)),
                         (quiet, lambda: per_step("quiet"))])
    take, to_host = snapshot.take, snapshot.to_host
    snapshot.take, snapshot.to_host = counting("take", take), counting("to_host", to_host)
    try:
        per_step("quiet")
    finally:
        snapshot.take, snapshot.to_host = take, to_host
    case = f"a step, {variables} variables of {_count(size)} elements"
    return [
        Result("render", f"{case}: plain table (piped)", "ms", table, budget, goal=20.0,
               absolute=True),
        Result("render", f"{case}: coloured table", "ms", colour, budget, goal=20.0,
               absolute=True),
        Result("render", f"{case}: --quiet", "ms", quiet, None,
               note=f"--quiet took {counts['take']} snapshots, copied {counts['to_host']} values"),
    ]


def row_devices(cfg: Config) -> list[Result]:
    from benchmarks import devices

    size, side = cfg.size(2_000_000, 1000), cfg.size(1024, 8)
    rows = devices.run(size=size, matmul=side, repeat=cfg.runs)
    results = []
    for cpu, cuda in zip(rows[::2], rows[1::2], strict=True):
        cpu_side = Side("cpu", [cpu["forward_ms"] + cpu["backward_ms"]])
        cuda_side = Side("cuda", [] if cuda["forward_ms"] is None else
                         [cuda["forward_ms"] + cuda["backward_ms"]], missing=cuda["note"] or None)
        results.append(Result("devices", f"{cpu['case']} {cpu['shape']} fwd+bwd, best of "
                              f"{cfg.runs}: cuda vs cpu", "ms", cuda_side, cpu_side,
                              note=cuda["note"]))
    return results


# Every BLAS and thread pool limited to one thread, set before the probe imports NumPy.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "GRADSH_NUM_THREADS": "1"}


def row_conv(cfg: Config) -> list[Result]:
    n = cfg.size(64, 2)
    iters = cfg.size(10, 1)
    gradsh = Side("gradsh.torch")
    torch = torch_side("torch")
    alternate(cfg.runs, [
        (gradsh, lambda: probe("conv2d", "gradsh", ONE_THREAD, n=n, iters=iters)["seconds"] * 1e3),
        (torch, lambda: probe("conv2d", "torch", ONE_THREAD, n=n, iters=iters)["seconds"] * 1e3),
    ])
    return [Result("conv", f"Conv2d(3, 16, 3) on ({n}, 3, 32, 32) float32, fwd+bwd", "ms", gradsh,
                   torch, goal=2.0, note="one thread each (im2col + BLAS)")]


ROWS: dict[str, tuple[str, Callable[[Config], list[Result]]]] = {
    "startup": ("gradsh -c 'x = tensor(1.0)' vs python -c 'import torch'", row_startup),
    "large": ("10M-element chain vs NumPy and torch; 2048x2048 matmul vs NumPy", row_large),
    "perop": ("per-op overhead, interpreted and engine-only, vs torch", row_perop),
    "deep": ("a 1,000,000-step chain: peak RSS, forward and backward per node, vs torch",
             row_deep),
    "memory": ("peak and retained memory after backward, with and without retain_graph",
               row_memory),
    "render": ("the per-step table of 20 variables of 1,000 elements; --quiet pays nothing",
               row_render),
    "conv": ("a Conv2d layer's forward and backward vs torch, one thread each", row_conv),
    "devices": ("cuda vs cpu (benchmarks/devices.py)", row_devices),
}


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}" if abs(value) < 1 else f"{value:.2f}"


def _value(side: Side | None, unit: str) -> str:
    if side is None:
        return "-"
    if side.missing is not None:
        return side.missing
    text = f"{_number(side.median)} {unit}"
    if side.noise is not None:
        text += f" ±{side.noise * 50:.0f}%"  # half the spread, either side of the median
    return text


def _goal(result: Result) -> str:
    if result.goal is None:
        return "report"
    verdict = {True: "met", False: "NOT met", None: "-"}[result.met]
    target = f"< {result.goal:g} {result.unit}" if result.absolute else f"≤ {result.goal:g}"
    return f"{target}: {verdict}"


def table_rows(results: Sequence[Result]) -> list[list[str]]:
    rows = []
    for r in results:
        comparator = "-"
        if r.comparator is not None:
            comparator = f"{r.comparator.label}: {_value(r.comparator, r.unit)}"
        rows.append([r.row, r.case, _value(r.gradsh, r.unit), comparator,
                     _number(r.ratio) if r.ratio is not None else "-", _goal(r),
                     r.note])
    return rows


HEADER = ["row", "case", "gradsh", "comparator", "ratio", "goal", "note"]


def format_plain(results: Sequence[Result]) -> str:
    rows = [HEADER] + table_rows(results)
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_markdown(results: Sequence[Result]) -> str:
    def escape(cell: str) -> str:
        return cell.replace("|", "\\|")

    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in table_rows(results)]
    return "\n".join(lines)


def machine() -> str:
    """The machine in one line: CPU model, cores, memory, Python, NumPy (and torch if any)."""
    import numpy

    cpu = platform.processor() or platform.machine()
    memory = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f", {int(line.split()[1]) / 2**20:.0f} GiB RAM"
                break
    except OSError:
        pass
    versions = f"Python {platform.python_version()}, NumPy {numpy.__version__}"
    if torch_available():
        from importlib.metadata import version

        versions += f", torch {version('torch')}"
    return f"{cpu}, {os.cpu_count()} cores{memory}; {versions}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n\n", 1)[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="rows:\n" + "\n".join(f"  {name:9} {what}" for name, (what, _) in ROWS.items()))
    parser.add_argument("--row", action="append", choices=list(ROWS), metavar="NAME",
                        help="run only this row (repeatable); default: every row")
    parser.add_argument("--runs", type=int, default=None,
                        help="rounds per row, alternating the sides (default 5; 2 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="tiny sizes: checks that the suite runs, measures nothing useful")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--list", action="store_true", help="list the rows and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name, (what, _) in ROWS.items():
            print(f"{name:9} {what}")
        return 0
    cfg = Config(runs=args.runs or (2 if args.quick else 5), quick=args.quick)
    results: list[Result] = []
    for name in args.row or list(ROWS):
        start = time.perf_counter()
        results += ROWS[name][1](cfg)
        print(f"[{name}: {time.perf_counter() - start:.0f} s]", file=sys.stderr, flush=True)
    print(f"{time.strftime('%Y-%m-%d')}, {machine()}; medians of {cfg.runs} runs"
          + (" (--quick: not a measurement)" if cfg.quick else ""))
    print(format_markdown(results) if args.markdown else format_plain(results))
    if args.json:
        Path(args.json).write_text(json.dumps([r.as_dict() for r in results], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
