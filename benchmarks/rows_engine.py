"""Rows that time the engine: large arrays, the cost of one op, deep graphs, memory, conv2d and
devices. Rows marked "engine only" call gradsh.engine from Python, without the interpreter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchmarks.core import (
    ONE_THREAD,
    Config,
    Result,
    Side,
    alternate,
    count,
    gradsh_command,
    pick,
    probe,
    torch_side,
    wall_time,
)


def _faults_note(sides: dict[str, Side]) -> str:
    """Page faults per step of each side (first touches of fresh memory: on a virtual machine
    they can cost more than the arithmetic)."""
    shown = [f"{name} {value:,.0f}" for name, side in sides.items()
             if (value := side.median) is not None]
    return "page faults a step: " + ", ".join(shown) if shown else ""


def row_large(cfg: Config) -> list[Result]:
    n = cfg.size(10_000_000, 10_000)
    iters = cfg.size(10, 2)
    sides = {impl: Side(label) if impl != "torch" else torch_side(label) for impl, label in
             (("gradsh", "gradsh script"), ("numpy", "NumPy by hand"), ("torch", "torch"))}
    alternate(cfg.runs, [(side, (lambda impl=impl: probe("elementwise", impl, n=n, iters=iters)))
                         for impl, side in sides.items()],
              record=lambda side, result: side.values.append(result))
    seconds = {impl: pick(side, "seconds") for impl, side in sides.items()}
    for side in seconds.values():
        side.values = [v * 1e3 for v in side.values]
    faults = _faults_note({impl: pick(side, "faults") for impl, side in sides.items()})
    case = f"((x*w + b).tanh() * x).sum() fwd+bwd, {count(n)} float32"
    side = cfg.size(2048, 64)
    mm_iters = cfg.size(5, 2)
    mm_gradsh = Side("gradsh script")
    mm_numpy = Side("NumPy by hand")
    mm_torch = torch_side("torch")  # (for the note: the same sgemm calls, from PyTorch)
    alternate(cfg.runs, [
        (mm_gradsh, lambda: probe("matmul", "gradsh", n=side, iters=mm_iters)["seconds"] * 1e3),
        (mm_numpy, lambda: probe("matmul", "numpy", n=side, iters=mm_iters)["seconds"] * 1e3),
        (mm_torch, lambda: probe("matmul", "torch", n=side, iters=mm_iters)["seconds"] * 1e3),
    ])
    return [
        Result("large", case, "ms", seconds["gradsh"], seconds["numpy"], goal=1.3,
               note=_join(faults, _TANH_NOTE)),
        Result("large", case, "ms", seconds["gradsh"], seconds["torch"], goal=1.0, note=faults),
        Result("large", f"(a @ b).sum() fwd+bwd, {side}x{side} float32", "ms", mm_gradsh,
               mm_numpy, goal=1.1, note=_sgemm_note(mm_torch, mm_numpy)),
    ]


# What the large row's ratios to NumPy carry that gradsh cannot shed without leaving PyTorch's
# bits (measured on the AMD EPYC this suite was written on, one thread, thread CPU time):
# PyTorch's float32 tanh is MKL's vmsTanh, ~22 ms for 10M elements (every VML accuracy mode
# alike) against np.tanh's ~2.4 ms; its matmuls are MKL's sgemm, 187-196 ms per 2048 product
# against OpenBLAS's 152-157 ms (NumPy's), 1.22-1.26x.
_TANH_NOTE = "tanh is MKL's VML (torch's bits), ~9x np.tanh's time"


def _sgemm_note(torch: Side, numpy: Side) -> str:
    """The matmul row's note: PyTorch's own time for the same step against NumPy's (both
    sgemm libraries' speed, which gradsh, calling MKL as PyTorch does, inherits)."""
    if torch.median is None or not numpy.median:
        return "MKL's sgemm (torch's bits) against NumPy's OpenBLAS"
    return (f"MKL's sgemm (torch's bits): torch itself {torch.median:.4g} ms, "
            f"{torch.median / numpy.median:.2f}x NumPy's OpenBLAS")


def _join(*notes: str) -> str:
    return "; ".join(note for note in notes if note)


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
        Result("per-op", f"repeat {count(n)} {{ y = y * 1.0001 + 0.0001 }}, y requires grad",
               "µs/op", script, torch, goal=3.0,
               note=f"interpreted; start-up ({base * 1e3:.0f} ms) subtracted"),
        Result("per-op", "one op with grad, called from Python", "µs/op", engine,
               torch_engine, goal=1.3,
               note="engine only; the garbage collector set as `gradsh run` sets it"),
    ]


def row_deep(cfg: Config) -> list[Result]:
    """The chain through the interpreter (a `repeat` statement, then `y.backward()`), and
    through the engine from Python, against torch's chain from Python."""
    cfg = cfg.at_most(3)  # each run of each side takes tens of seconds
    n = cfg.size(1_000_000, 2_000)
    script = Side("gradsh script")
    engine = Side("gradsh.engine")
    torch = torch_side("torch")
    alternate(cfg.runs, [(script, lambda: probe("deep", "gradsh", n=n)),
                         (engine, lambda: probe("deep", "engine", n=n)),
                         (torch, lambda: probe("deep", "torch", n=n))],
              record=lambda side, result: side.values.append(result))
    case = f"{count(n)}-step chain y = y * 1.0001 + 0.0001"
    results = [
        Result("deep", f"{case}, forward and backward", "s", pick(script, "total_s"),
               pick(torch, "total_s"), goal=1.0, note="interpreted"),
        Result("deep", f"{case}: peak RSS", "MiB", pick(script, "peak_mib"),
               pick(torch, "peak_mib"), goal=0.9, note="interpreted"),
        Result("deep", f"{case}: peak RSS", "MiB", pick(engine, "peak_mib"),
               pick(torch, "peak_mib"), goal=0.9, note="engine only; set as `gradsh run`"),
    ]
    engine_note = "engine only; the garbage collector set as `gradsh run` sets it"
    for key, what in (("forward_us_per_node", "forward"), ("backward_us_per_node", "backward")):
        for side, note in ((script, "interpreted"), (engine, engine_note)):
            results.append(Result("deep", f"{case}: {what}", "µs/node", pick(side, key),
                                  pick(torch, key), note=note))
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
    # Both sides allocate the same arrays; what differs run to run is below a MiB (RSS moves
    # in 4 KiB pages, and each process's interpreter and allocator keep a few pages more or
    # less), so the goal is checked to 1 MiB: a strict `<=` would call 0.0083 MiB against
    # 0.0044 (one page) a miss.
    resolution = 1.0
    results = []
    for retain, call in ((0, "backward()"), (1, "backward(retain_graph=True)")):
        gradsh, torch = sides[retain]
        case = f"{count(n)} chain, {call}"
        results.append(Result("memory", f"{case}: peak", "MiB", pick(gradsh, "peak_mib"),
                              pick(torch, "peak_mib"), goal=1.0, resolution=resolution,
                              note="engine only; to 1 MiB (RSS: pages, allocators)"))
        results.append(Result("memory", f"{case}: kept after", "MiB",
                              pick(gradsh, "kept_by_graph_mib"),
                              pick(torch, "kept_by_graph_mib"), goal=1.0, resolution=resolution,
                              note="engine only; RSS after, less the three .grad; to 1 MiB"))
    return results


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
                   torch, goal=2.0, note="engine only; one thread each (im2col + BLAS)")]


def row_devices(cfg: Config) -> list[Result]:
    from benchmarks import devices

    size, side = cfg.size(2_000_000, 1000), cfg.size(1024, 8)
    rows: list[dict[str, Any]] = devices.run(size=size, matmul=side, repeat=cfg.runs)
    results = []
    for cpu, cuda in zip(rows[::2], rows[1::2], strict=True):
        cpu_side = Side("cpu", [cpu["forward_ms"] + cpu["backward_ms"]])
        cuda_side = Side("cuda", [] if cuda["forward_ms"] is None else
                         [cuda["forward_ms"] + cuda["backward_ms"]], missing=cuda["note"] or None)
        results.append(Result("devices", f"{cpu['case']} {cpu['shape']} fwd+bwd, best of "
                              f"{cfg.runs}: cuda vs cpu", "ms", cuda_side, cpu_side,
                              note=cuda["note"]))
    return results
