"""Rows that time whole training loops and programs: the MLP of benchmarks/programs/mlp.py as a
.grad `repeat` loop and as a Python program, against PyTorch and NumPy by hand; an optimizer's
step over a 2.9M-parameter MLP against PyTorch's; the tutorials' programs of tests/programs,
wall time against PyTorch."""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from typing import Any

from benchmarks.core import (
    ROOT,
    Config,
    Result,
    Side,
    alternate,
    gradsh_command,
    json_output,
    pick,
    probe,
    torch_side,
    wall_time,
)

MLP_PROGRAM = ROOT / "benchmarks" / "programs" / "mlp.py"
PROGRAMS = ROOT / "tests" / "programs"


def row_mlp(cfg: Config) -> list[Result]:
    return (_mlp(cfg, "small", 64, 128, cfg.size(200, 3), {"torch": 1.5})
            + _mlp(cfg, "big", cfg.size(1024, 64), cfg.size(512, 32), cfg.size(30, 2),
                   {"numpy": 1.05, "torch": 2.0}))


def row_optim(cfg: Config) -> list[Result]:
    """optimizer.step() over the same parameters and gradients in gradsh.torch and in torch
    (one thread each), and whether the parameters after the steps agree bit for bit."""
    n = cfg.size(784, 8)
    iters = cfg.size(20, 2)
    results = []
    for kind, case in (("adamw", "AdamW"), ("adam", "Adam(amsgrad=True)"),
                       ("rmsprop", "RMSprop(momentum=0.9)"), ("adagrad", "Adagrad"),
                       ("sgd", "SGD(momentum=0.9)")):
        sides = {"gradsh": Side("gradsh.torch"), "torch": torch_side("torch")}
        alternate(cfg.runs, [(side, (lambda impl=impl, kind=kind: probe(
            "optimizer", impl, n=n, iters=iters, kind=kind))) for impl, side in sides.items()])
        seconds = {impl: pick(side, "seconds") for impl, side in sides.items()}
        for side in seconds.values():
            side.values = [v * 1e3 for v in side.values]
        sums = {impl: {run["checksum"] for run in side.values} for impl, side in sides.items()}
        parameters = int(sides["gradsh"].values[0]["parameters"]) if sides["gradsh"].values \
            else 0
        note = "engine only; parameters after the steps bit for bit torch's: " + (
            "yes" if sums["torch"] and sums["gradsh"] == sums["torch"] else
            "no" if sums["torch"] else "-")
        results.append(Result("optim", f"{case}.step() over {parameters:,} parameters", "ms",
                              seconds["gradsh"], seconds["torch"], goal=1.5, note=note))
    return results


def _mlp(cfg: Config, size: str, batch: int, hidden: int, steps: int,
         goals: dict[str, float]) -> list[Result]:
    env = {"MLP_BATCH": str(batch), "MLP_HIDDEN": str(hidden), "MLP_STEPS": str(steps)}
    sides = {"script": Side("gradsh, .grad repeat"), "program": Side("gradsh run, .py for"),
             "numpy": Side("NumPy by hand"), "torch": torch_side("torch, .py for")}
    measures: dict[str, Callable[[], dict[str, Any]]] = {
        "script": lambda: probe("mlp", "gradsh", n=batch, hidden=hidden, iters=steps),
        "program": lambda: json_output(gradsh_command() + ["run", "--quiet", str(MLP_PROGRAM)],
                                       env),
        "numpy": lambda: probe("mlp", "numpy", n=batch, hidden=hidden, iters=steps),
        "torch": lambda: json_output([sys.executable, str(MLP_PROGRAM)], env),
    }
    alternate(cfg.runs, [(sides[k], measures[k]) for k in sides],
              record=lambda side, result: side.values.append(result))
    losses = {k: {run["loss"] for run in side.values} for k, side in sides.items()}
    faults = {k: pick(side, "faults").median for k, side in sides.items()}
    ms = {k: pick(side, "seconds") for k, side in sides.items()}
    for side in ms.values():
        side.values = [v * 1e3 for v in side.values]
    same = "yes" if losses["script"] == losses["program"] == losses["torch"] else "no"
    faults_text = ", ".join(f"{k} {v:,.0f}" for k, v in faults.items() if v is not None)
    note = f"page faults a step: {faults_text}; last loss bit for bit torch's: {same}"
    model = f"MLP 64-{hidden}-10, batch {batch}, cross-entropy, SGD: a training step"
    results = []
    for gradsh, how in (("script", "in a .grad `repeat`"), ("program", "in a Python `for`")):
        for comparator in ("torch", "numpy"):
            results.append(Result(f"mlp {size}", f"{model} {how} ({steps} timed)", "ms",
                                  ms[gradsh], ms[comparator], goal=goals.get(comparator),
                                  note=note))
    return results


def row_programs(cfg: Config) -> list[Result]:
    """Each tutorial program of tests/programs as a user runs it: `python NAME.py` with PyTorch
    (its import included) and `gradsh run --quiet NAME.py`, one thread each; the totals of
    the programs' medians."""
    cfg = cfg.at_most(3)
    names = sorted(p.name for p in PROGRAMS.glob("tut_*.py"))[:cfg.size(10_000, 2)]
    env = {"PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8"}  # as tests/programs records
    per_program: dict[str, tuple[Side, Side]] = {
        name: (Side("gradsh run --quiet"), torch_side("python, torch")) for name in names}
    failed: set[str] = set()  # programs gradsh does not run to the end yet (still timed)
    measures = []
    for name, (gradsh, torch) in per_program.items():
        measures += [(gradsh, _run(gradsh_command() + ["run", "--quiet", name], env, failed)),
                     (torch, _run([sys.executable, name], env))]
    alternate(cfg.runs, measures)
    totals = Side("gradsh run --quiet"), torch_side("python, torch")
    for k, total in enumerate(totals):  # a total per round: each program's run of that round
        if total.missing is None:
            total.values = [sum(sides[k].values[r] for sides in per_program.values())
                            for r in range(cfg.runs)]
    ratios = {name: gradsh.median / torch.median for name, (gradsh, torch) in per_program.items()
              if gradsh.median is not None and torch.median is not None}
    slower = sorted((r, n) for n, r in ratios.items() if r > 1)
    stopped = sorted({command.split()[-1] for command in failed})
    note = (f"{len(names)} programs, each {cfg.runs} runs; gradsh slower on {len(slower)}"
            + (f" (most: {slower[-1][1]}, {slower[-1][0]:.1f}x)" if slower else "")
            + (f"; median ratio {statistics.median(ratios.values()):.2f}" if ratios else "")
            + (f"; stopped by an error under gradsh (EXPECTED_FAILURES): {', '.join(stopped)}"
               if stopped else ""))
    return [Result("programs", "the tutorials' programs of tests/programs (tut_*), wall time",
                   "s", totals[0], totals[1], note=note)]


def _run(command: list[str], env: dict[str, str],
         failed: set[str] | None = None) -> Callable[[], float]:
    return lambda: wall_time(command, cwd=PROGRAMS, env=env, failed=failed)
