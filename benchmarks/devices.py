"""cuda vs cpu: a large element-wise chain and a large matmul, forward and backward.

Run it as `python benchmarks/devices.py [--size N] [--matmul N] [--repeat R]`. Each case runs
once to warm up (CuPy compiles its kernels on first use), then `repeat` times; the row reports
the best time of forward and of backward, in milliseconds, and the speed-up of cuda over cpu.
Where CuPy or a GPU is missing the cuda rows say "no GPU" and why; `--sim-cuda` is never used
here (it would time NumPy twice).

`run()` returns the rows as dictionaries; `main()` prints them. The suite runs them as its
`devices` row (`python -m benchmarks --row devices`, see benchmarks/run.py).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from gradsh.engine import backend, ops
from gradsh.engine.tensor import Tensor


@dataclass
class Row:
    """One case on one device: best forward and backward times, or why it did not run."""

    case: str
    device: str
    shape: str
    forward_ms: float | None = None
    backward_ms: float | None = None
    speedup: float | None = None  # cpu total / cuda total, on the cuda row
    note: str = ""


def _elementwise_chain(device: str, n: int) -> tuple[Callable[[], Tensor], list[Tensor]]:
    x = ops.rand(n, device=device, requires_grad=True)

    def forward() -> Tensor:
        y = (x * 1.5 + 0.25).sin() * x
        y = y.exp().tanh() + (x * x).sqrt()
        return (y.sigmoid() * 2 - 1).relu().sum()

    return forward, [x]


def _matmul(device: str, n: int) -> tuple[Callable[[], Tensor], list[Tensor]]:
    a = ops.rand(n, n, device=device, requires_grad=True)
    b = ops.rand(n, n, device=device, requires_grad=True)

    def forward() -> Tensor:
        return (a @ b).sum()

    return forward, [a, b]


CASES: dict[str, Callable[[str, int], tuple[Callable[[], Tensor], list[Tensor]]]] = {
    "elementwise chain": _elementwise_chain,
    "matmul": _matmul,
}


def _time(fn: Callable[[], Any]) -> tuple[Any, float]:
    """fn's result and its wall time, the GPU's queued work included."""
    backend.synchronize()
    start = time.perf_counter()
    result = fn()
    backend.synchronize()
    return result, time.perf_counter() - start


def _measure(case: str, device: str, n: int, repeat: int) -> tuple[float, float]:
    forward, leaves = CASES[case](device, n)
    best_forward = best_backward = float("inf")
    for attempt in range(repeat + 1):  # the first run warms up and is not counted
        for leaf in leaves:
            leaf.grad = None
        loss, f = _time(forward)
        _, b = _time(loss.backward)
        if attempt:
            best_forward, best_backward = min(best_forward, f), min(best_backward, b)
    return best_forward * 1e3, best_backward * 1e3


def cuda_unavailable() -> str | None:
    """Why cuda cannot be timed here, or None when a GPU is there."""
    if backend.sim_cuda_enabled():
        return "no GPU (cuda:0 is simulated)"
    reason = backend.unavailable_reason()
    return None if reason is None else f"no GPU ({reason})"


def run(size: int = 2_000_000, matmul: int = 1024, repeat: int = 5,
        cases: Sequence[str] = tuple(CASES)) -> list[dict[str, Any]]:
    """Every case on cpu and on cuda (or a "no GPU" row), as dictionaries."""
    rows: list[Row] = []
    missing = cuda_unavailable()
    for case in cases:
        n = matmul if case == "matmul" else size
        shape = f"{n}x{n} @ {n}x{n}" if case == "matmul" else f"{n}"
        fwd, bwd = _measure(case, "cpu", n, repeat)
        rows.append(Row(case, "cpu", shape, fwd, bwd))
        if missing is not None:
            rows.append(Row(case, "cuda", shape, note=missing))
            continue
        gfwd, gbwd = _measure(case, "cuda", n, repeat)
        rows.append(Row(case, "cuda", shape, gfwd, gbwd, speedup=(fwd + bwd) / (gfwd + gbwd)))
    return [asdict(row) for row in rows]


def format_rows(rows: Sequence[dict[str, Any]]) -> str:
    def cell(value: Any, digits: int = 2) -> str:
        if value is None:
            return "-"
        return f"{value:.{digits}f}" if isinstance(value, float) else str(value)

    header = ("case", "device", "shape", "forward ms", "backward ms", "speed-up", "note")
    table = [header] + [
        (r["case"], r["device"], r["shape"], cell(r["forward_ms"]), cell(r["backward_ms"]),
         cell(r["speedup"], 1) + ("x" if r["speedup"] is not None else ""), r["note"])
        for r in rows
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(line, widths, strict=True)).rstrip()
             for line in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--size", type=int, default=2_000_000,
                        help="elements of the element-wise chain (default 2,000,000)")
    parser.add_argument("--matmul", type=int, default=1024,
                        help="side of the square matrices (default 1024)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per case (default 5)")
    args = parser.parse_args(argv)
    print(format_rows(run(args.size, args.matmul, args.repeat)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
