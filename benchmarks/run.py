"""The benchmark suite: every row against its comparator, measured in the same run.

    python -m benchmarks                   every row, a plain table
    python -m benchmarks --row startup     one row (repeat --row for several; --list names them)
    python -m benchmarks --markdown        the table as Markdown (README's Performance section)
    python -m benchmarks --quick           tiny sizes and 2 runs: a smoke test, not a measurement

Each row runs its sides alternately (A, B, A, B, ...) `--runs` times and reports the median
of each side, their ratio, and the noise: the spread of the runs (max - min) over the median.
Measurements that need a clean process (anything with torch, anything measuring memory) run in
a fresh interpreter each time (benchmarks/probes.py); every process runs one thread (core.py).
Rows marked "engine only" call gradsh.engine from Python; the others run gradsh's interpreter
or `gradsh run` as a user does. The checkout's bytecode is compiled first. Where torch is not
installed its rows say so and the others still run. Timings are never asserted in the tests:
only that the suite runs. The rows live in rows_engine.py, rows_session.py, rows_training.py.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # `python benchmarks/run.py`: make the package importable
    sys.path.insert(0, str(ROOT))

from benchmarks.core import (  # noqa: E402
    TORCH_MISSING,
    Config,
    Result,
    Side,
    load_average,
    torch_available,
)
from benchmarks.rows_engine import (  # noqa: E402
    row_conv,
    row_deep,
    row_devices,
    row_large,
    row_memory,
    row_perop,
)
from benchmarks.rows_session import row_render, row_startup, row_statements  # noqa: E402
from benchmarks.rows_training import row_mlp, row_optim, row_programs  # noqa: E402

__all__ = ["ROWS", "TORCH_MISSING", "Result", "Side", "format_markdown", "format_plain", "main"]

ROWS: dict[str, tuple[str, Callable[[Config], list[Result]]]] = {
    "startup": ("gradsh -c 'x = tensor(1.0)' vs python -c 'import torch' and 'import numpy'",
                row_startup),
    "statement": ("one top-level statement of a .grad script, of a Python program, vs Python's "
                  "compile + exec with torch", row_statements),
    "mlp": ("an MLP's training step, small and big, .grad and .py, vs torch and NumPy by hand",
            row_mlp),
    "large": ("10M-element chain vs NumPy and torch; 2048x2048 matmul vs NumPy", row_large),
    "optim": ("an optimizer's step over a 2.9M-parameter MLP vs torch's (AdamW, Adam, RMSprop, "
              "Adagrad, SGD)", row_optim),
    "perop": ("per-op overhead, interpreted and engine-only, vs torch", row_perop),
    "deep": ("a 1,000,000-step chain through the interpreter and the engine: time, peak RSS",
             row_deep),
    "memory": ("peak and retained memory after backward, with and without retain_graph",
               row_memory),
    "render": ("the per-step table of 20 variables of 4 and of 1,000 elements; --quiet pays "
               "nothing", row_render),
    "conv": ("a Conv2d layer's forward and backward vs torch", row_conv),
    "programs": ("the tutorials' Python programs of tests/programs, wall time vs torch",
                 row_programs),
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
    if result.resolution:
        target += f" (±{result.resolution:g} {result.unit})"
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
    # the checkout's bytecode first, so that no run pays for compiling it
    compileall.compile_dir(str(ROOT / "gradsh"), quiet=1)
    compileall.compile_dir(str(ROOT / "benchmarks"), quiet=1)
    loads = [load_average()]
    results: list[Result] = []
    for name in args.row or list(ROWS):
        start = time.perf_counter()
        try:
            results += ROWS[name][1](cfg)
        except Exception as error:  # noqa: BLE001  (one broken row must not lose the others)
            results.append(Result(name, f"the row failed: {type(error).__name__}: {error}"[:200],
                                  "", Side("gradsh", missing="failed"), None))
        loads.append(load_average())
        print(f"[{name}: {time.perf_counter() - start:.0f} s, load {loads[-1]:.1f}]",
              file=sys.stderr, flush=True)
    print(f"{time.strftime('%Y-%m-%d')}, {machine()}; one thread each; medians of {cfg.runs} "
          f"runs (3 at most for the deep and programs rows); load average {min(loads):.1f} to {max(loads):.1f} over the run"
          + (" (--quick: not a measurement)" if cfg.quick else ""))
    print(format_markdown(results) if args.markdown else format_plain(results))
    if args.json:
        Path(args.json).write_text(json.dumps([r.as_dict() for r in results], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
