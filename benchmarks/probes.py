"""Measurements that run in a fresh process each: one probe, one JSON line on stdout.

    python -m benchmarks.probes elementwise --impl numpy --n 10000000 --iters 10

A fresh process per measurement keeps the sides apart: torch's threads, allocator and import
never touch a gradsh measurement, and peak RSS (ru_maxrss) belongs to one measurement only.
Each probe warms up once before it times, and reports one number per quantity; the suite runs
probes several times, alternating the sides, and takes medians.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import time
from collections.abc import Callable
from typing import Any

MIB = 2**20


def rss_bytes() -> int:
    """The resident set size now (Linux's /proc; 0 where there is none)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize()
    except OSError:
        return 0


def peak_rss_bytes() -> int:
    """The highest resident set size this process has had (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# ---------------------------------------------------------------------------------------------
# 10M-element chain: ((x*w + b).tanh() * x).sum(), forward and backward
# ---------------------------------------------------------------------------------------------


def _gradsh_script(setup: list[str], body: str, iters: int, warm_up: int = 1) -> float:
    """Seconds per iteration of `body`, run by gradsh's interpreter as `repeat iters { body }`
    after `setup` and `warm_up` iterations (interpretation, undo log and all, with the garbage
    collector and malloc set as `gradsh run` sets them)."""
    return _gradsh_session(setup, body, iters, warm_up)[0]


def _gradsh_session(setup: list[str], body: str, iters: int,
                    warm_up: int = 1) -> tuple[float, Any]:
    """_gradsh_script's time, and the interpreter (to read the variables it left)."""
    from gradsh.cli import tune_process
    from gradsh.interpreter import Interpreter
    from gradsh.parser import parse

    tune_process()
    source = "\n".join(setup + [f"repeat {warm_up} {{ {body} }}",
                                f"repeat {iters} {{ {body} }}"]) + "\n"
    program = parse(source, "<benchmark>")
    interp = Interpreter("<benchmark>", source)
    *prepare, timed = program.body
    for stmt in prepare:
        outcome = interp.run_statement(stmt)
        assert outcome.ok, outcome.error
    faults = minor_faults()
    start = time.perf_counter()
    outcome = interp.run_statement(timed)
    elapsed = time.perf_counter() - start
    interp.faults_per_iteration = (minor_faults() - faults) / iters
    assert outcome.ok, outcome.error
    return elapsed / iters, interp


def elementwise(impl: str, n: int, iters: int) -> dict[str, float]:
    if impl == "gradsh":
        step = "loss = ((x*w + b).tanh() * x).sum(); loss.backward()"
        # Warmed up as _timed warms the other sides up, to the steady state of a loop that runs
        # as a statement of its own: a first statement makes the .grad arrays, and the loop's
        # statements after it start with the undo log's copies of them (the pool of large
        # arrays, gradsh.engine.buffers, keeps what a statement freed for the next).
        seconds, interp = _gradsh_session(
            [f"x = rand({n}, grad)", f"w = rand({n}, grad)", f"b = rand({n}, grad)",
             f"repeat 1 {{ {step} }}"], step, iters, warm_up=2)
        return {"seconds": seconds, "faults": interp.faults_per_iteration}
    if impl == "torch":
        import torch

        x, w, b = (torch.rand(n, requires_grad=True) for _ in range(3))

        def step() -> None:
            loss = ((x * w + b).tanh() * x).sum()
            loss.backward()

        return _timed(step, iters)
    import numpy as np

    rng = np.random.default_rng(0)
    x, w, b = (rng.random(n, dtype=np.float32) for _ in range(3))
    grads: dict[str, Any] = {}

    def accumulate(name: str, g: Any) -> None:
        if name in grads:
            grads[name] += g
        else:
            grads[name] = g

    def numpy_step() -> None:
        # forward
        h = x * w + b
        t = np.tanh(h)
        y = t * x
        _loss = y.sum()
        # backward, by hand: d/dy of sum is ones
        g_y = np.broadcast_to(np.float32(1), y.shape)
        g_t = g_y * x
        g_x = g_y * t
        g_h = g_t * (1 - t * t)
        g_x += g_h * w
        accumulate("x", g_x)
        accumulate("w", g_h * x)
        accumulate("b", g_h)

    return _timed(numpy_step, iters)


# ---------------------------------------------------------------------------------------------
# A square matmul, forward and backward: (a @ b).sum()
# ---------------------------------------------------------------------------------------------


def matmul(impl: str, n: int, iters: int) -> dict[str, float]:
    if impl == "gradsh":
        step = "loss = (a @ b).sum(); loss.backward()"
        # (warmed up as elementwise's: a first statement makes the .grad arrays)
        seconds = _gradsh_script([f"a = rand({n}, {n}, grad)", f"b = rand({n}, {n}, grad)",
                                  f"repeat 1 {{ {step} }}"], step, iters)
        return {"seconds": seconds}
    if impl == "torch":
        import torch

        ta, tb = (torch.rand(n, n, requires_grad=True) for _ in range(2))

        def step() -> None:
            (ta @ tb).sum().backward()

        return {"seconds": _per_iteration(step, iters)}
    import numpy as np

    rng = np.random.default_rng(0)
    a, b = (rng.random((n, n), dtype=np.float32) for _ in range(2))
    grads: dict[str, Any] = {}

    def numpy_step() -> None:
        c = a @ b
        _loss = c.sum()
        g = np.ones_like(c)
        for name, value in (("a", g @ b.T), ("b", a.T @ g)):
            if name in grads:
                grads[name] += value
            else:
                grads[name] = value

    return {"seconds": _per_iteration(numpy_step, iters)}


# ---------------------------------------------------------------------------------------------
# A 2-layer MLP trained with SGD (benchmarks/programs/mlp.py is the same as a Python program)
# ---------------------------------------------------------------------------------------------


def mlp(impl: str, n: int, hidden: int, iters: int) -> dict[str, Any]:
    """Seconds per training step of Linear(64, hidden), ReLU, Linear(hidden, 10) on a batch of
    n, cross-entropy, SGD(lr=0.1), after a seed of 0: as a .grad `repeat` loop (gradsh) or
    written out in NumPy (numpy). The programs/mlp.py sides run in run.py."""
    if impl == "gradsh":
        seconds, interp = _gradsh_session(
            ["seed 0", f"x = randn({n}, 64)", f"target = randint(0, 10, ({n},))",
             f"model = nn.Sequential(nn.Linear(64, {hidden}), nn.ReLU(), nn.Linear({hidden}, 10))",
             "opt = sgd(model.parameters(), lr=0.1)"],
            "opt.zero_grad(); loss = F.cross_entropy(model(x), target); loss.backward(); "
            "opt.step()", iters, warm_up=2)
        return {"seconds": seconds, "faults": interp.faults_per_iteration,
                "loss": float(interp.env["loss"].item()).hex()}
    return _numpy_mlp(n, hidden, iters)


def _numpy_mlp(n: int, hidden: int, iters: int) -> dict[str, Any]:
    """The MLP's training step as a careful NumPy programmer writes it: float32 throughout,
    biases and updates in place, the softmax's gradient from its forward values."""
    import numpy as np

    rng = np.random.default_rng(0)
    f32 = np.float32
    x = rng.standard_normal((n, 64), dtype=f32)
    target = rng.integers(0, 10, n)
    rows = np.arange(n)

    def linear(fan_in: int, fan_out: int) -> tuple[Any, Any]:
        bound = 1 / np.sqrt(fan_in)  # nn.Linear's default initialisation
        return (rng.uniform(-bound, bound, (fan_out, fan_in)).astype(f32),
                rng.uniform(-bound, bound, fan_out).astype(f32))

    (w1, b1), (w2, b2) = linear(64, hidden), linear(hidden, 10)
    lr = f32(0.1)
    losses = []

    def step() -> None:
        h = x @ w1.T
        h += b1
        r = np.maximum(h, 0)
        z = r @ w2.T
        z += b2
        z -= z.max(axis=1, keepdims=True)  # log_softmax, shifted for stability
        e = np.exp(z)
        s = e.sum(axis=1, keepdims=True)
        losses.append(-(z[rows, target] - np.log(s[:, 0])).mean())
        g = e  # d loss / d z = (softmax - one_hot) / n, in place
        g /= s
        g[rows, target] -= 1
        g /= n
        gr = g @ w2
        gr *= h > 0
        for param, grad in ((w2, g.T @ r), (b2, g.sum(axis=0)), (w1, gr.T @ x),
                            (b1, gr.sum(axis=0))):
            grad *= lr
            param -= grad

    step()
    return dict(_timed(step, iters), loss=float(losses[-1]).hex())


# ---------------------------------------------------------------------------------------------
# A 2-D convolution layer, forward and backward (single-threaded: see run.row_conv)
# ---------------------------------------------------------------------------------------------


def conv2d(impl: str, n: int, iters: int) -> dict[str, float]:
    """Conv2d(3, 16, 3) on an (n, 3, 32, 32) float32 batch: forward, sum, backward into the
    input and the parameters."""
    import numpy as np

    x = np.random.default_rng(0).standard_normal((n, 3, 32, 32)).astype(np.float32)
    if impl == "torch":
        import torch as namespace

        namespace.set_num_threads(1)
    else:
        import gradsh.torch as namespace  # type: ignore[no-redef]
    namespace.manual_seed(0)
    conv = namespace.nn.Conv2d(3, 16, 3)
    inputs = namespace.from_numpy(x).requires_grad_()

    def step() -> None:
        conv(inputs).sum().backward()

    return {"seconds": _per_iteration(step, iters)}


def _per_iteration(step: Callable[[], None], iters: int) -> float:
    step()  # warm-up
    start = time.perf_counter()
    for _ in range(iters):
        step()
    return (time.perf_counter() - start) / iters


def _timed(step: Callable[[], None], iters: int) -> dict[str, float]:
    """Seconds and page faults per iteration of `step` (after one to warm up)."""
    step()
    faults = minor_faults()
    seconds = _per_iteration(step, iters)
    return {"seconds": seconds, "faults": (minor_faults() - faults) / (iters + 1)}


def minor_faults() -> int:
    """Page faults this process has taken so far (first touches of fresh memory: on this kind
    of virtual machine they can cost more than the arithmetic on the page)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


# ---------------------------------------------------------------------------------------------
# Per-op overhead through the Python API: y = y * 1.0001 + 0.0001
# ---------------------------------------------------------------------------------------------


def _scalar_chain(impl: str) -> tuple[Any, Callable[[Any], Any]]:
    """A 0-d leaf that requires grad, and the step that extends its chain by two nodes."""
    if impl == "torch":
        import torch

        leaf = torch.tensor(1.0, requires_grad=True)
    else:
        from gradsh.engine import ops

        leaf = ops.tensor(1.0, requires_grad=True)
    return leaf, lambda y: y * 1.0001 + 0.0001


def perop(impl: str, n: int) -> dict[str, float]:
    """Microseconds per op of the growing chain, the engine's with the process set as `gradsh
    run` sets it for a program that calls it (the garbage collector's thresholds: at Python's
    defaults its passes over the chain's nodes cost a fifth of each op; PyTorch's nodes are
    not Python objects, so the collector never sees them)."""
    if impl != "torch":
        from gradsh.cli import tune_process

        tune_process()
    leaf, step = _scalar_chain(impl)
    y = leaf
    for _ in range(min(n, 1000)):  # warm-up
        y = step(y)
    y = leaf
    start = time.perf_counter()
    for _ in range(n):
        y = step(y)
    return {"us_per_op": (time.perf_counter() - start) / (2 * n) * 1e6}


# ---------------------------------------------------------------------------------------------
# Separate statements: Python compiling and running one line at a time, with torch
# ---------------------------------------------------------------------------------------------


def statements(impl: str, n: int) -> dict[str, float]:
    """Microseconds per `x = x * 1.0001 + 0.5` compiled and run on its own, n times (what a
    Python prompt does with each line), x a torch tensor."""
    assert impl == "torch"
    import torch

    namespace = {"torch": torch, "x": torch.tensor(1.0)}
    line = "x = x * 1.0001 + 0.5"
    for _ in range(min(n, 1000)):  # warm-up
        exec(compile(line, "<stdin>", "exec"), namespace)  # noqa: S102
    namespace["x"] = torch.tensor(1.0)
    start = time.perf_counter()
    for _ in range(n):
        exec(compile(line, "<stdin>", "exec"), namespace)  # noqa: S102
    return {"us_per_statement": (time.perf_counter() - start) / n * 1e6}


# ---------------------------------------------------------------------------------------------
# Deep graphs: a chain of n steps (2n nodes), forward, backward, peak memory
# ---------------------------------------------------------------------------------------------


def deep(impl: str, n: int) -> dict[str, float]:
    if impl == "gradsh":
        return _deep_script(n)
    if impl == "engine":  # the process as `gradsh run` sets it (see perop)
        from gradsh.cli import tune_process

        tune_process()
    leaf, step = _scalar_chain(impl)
    gc.collect()
    base = rss_bytes()
    start = time.perf_counter()
    y = leaf
    for _ in range(n):
        y = step(y)
    built = time.perf_counter()
    graph = rss_bytes() - base
    y.backward()
    done = time.perf_counter()
    assert leaf.grad is not None
    return {
        "forward_us_per_node": (built - start) / (2 * n) * 1e6,
        "backward_us_per_node": (done - built) / (2 * n) * 1e6,
        "total_s": done - start,
        "graph_mib": graph / MIB,
        "peak_mib": (peak_rss_bytes() - base) / MIB,
    }


def _deep_script(n: int) -> dict[str, float]:
    """The chain as a .grad script runs it: `repeat n { y = y * 1.0001 + 0.0001 }`, then
    `y.backward()`, each a statement of gradsh's interpreter (as `gradsh run` sets up)."""
    from gradsh.cli import tune_process
    from gradsh.interpreter import Interpreter
    from gradsh.parser import parse

    tune_process()
    source = (f"x = tensor(1.0, grad)\ny = x\nrepeat {n} {{ y = y * 1.0001 + 0.0001 }}\n"
              "y.backward()\n")
    make_leaf, alias, forward, backward = parse(source, "<benchmark>").body
    interp = Interpreter("<benchmark>", source)
    for stmt in (make_leaf, alias):
        assert interp.run_statement(stmt).ok
    gc.collect()
    base = rss_bytes()
    start = time.perf_counter()
    assert interp.run_statement(forward).ok
    built = time.perf_counter()
    assert interp.run_statement(backward).ok
    done = time.perf_counter()
    assert interp.env["x"].grad is not None
    return {
        "forward_us_per_node": (built - start) / (2 * n) * 1e6,
        "backward_us_per_node": (done - built) / (2 * n) * 1e6,
        "total_s": done - start,
        "peak_mib": (peak_rss_bytes() - base) / MIB,
    }


# ---------------------------------------------------------------------------------------------
# Memory after backward: the 10M chain with backward() and backward(retain_graph=True)
# ---------------------------------------------------------------------------------------------


def retained(impl: str, n: int, retain: int) -> dict[str, float]:
    if impl == "torch":
        import torch

        x, w, b = (torch.rand(n, requires_grad=True) for _ in range(3))
    else:
        from gradsh.engine import ops

        x, w, b = (ops.rand(n, requires_grad=True) for _ in range(3))
    # A warm-up, as every probe warms up: the libraries and modules the first backward loads
    # (MKL's, NumPy's, gradsh's kernels) and the worker threads the first large op starts are
    # not memory the graph keeps. 2**18 elements (1 MiB a tensor): large enough for both
    # sides' element-wise ops to start their threads (ATen's grain is 32,768 elements,
    # gradsh.engine.threads' 2**18).
    small = [t.detach()[:1 << 18].clone().requires_grad_() for t in (x, w, b)]
    ((small[0] * small[1] + small[2]).tanh() * small[0]).sum().backward(
        retain_graph=bool(retain))
    del small
    gc.collect()
    base = rss_bytes()
    loss = ((x * w + b).tanh() * x).sum()
    loss.backward(retain_graph=bool(retain))
    gc.collect()
    after = rss_bytes()
    # The leaves' three gradients are what any backward leaves behind; the rest is what the
    # graph (still referenced through `loss`) keeps.
    grads = sum(t.grad.numel() * t.grad.element_size() for t in (x, w, b))
    del loss
    return {
        "peak_mib": (peak_rss_bytes() - base) / MIB,
        "retained_mib": (after - base) / MIB,
        "kept_by_graph_mib": (after - base - grads) / MIB,
    }


# ---------------------------------------------------------------------------------------------
# An optimizer's step over an MLP's parameters (gradients set once, no backward)
# ---------------------------------------------------------------------------------------------

OPTIMIZERS = {
    "adamw": ("AdamW", {"lr": 1e-3}),
    "adam": ("Adam", {"lr": 1e-3, "amsgrad": True}),
    "rmsprop": ("RMSprop", {"lr": 1e-3, "momentum": 0.9}),
    "adagrad": ("Adagrad", {"lr": 1e-2}),
    "sgd": ("SGD", {"lr": 0.1, "momentum": 0.9}),
}


def optimizer(impl: str, n: int, iters: int, kind: str) -> dict[str, float]:
    """Seconds per `step()` of optimizer `kind` over Linear(n, 1024), Linear(1024, 2048) and
    Linear(2048, 10) (2.9M parameters at n = 784), after a seed of 0 and two steps; the
    parameters' checksum after them (both sides must agree bit for bit)."""
    if impl == "torch":
        import torch

        torch.set_num_threads(1)
    else:
        from gradsh.cli import tune_process

        tune_process()
        import gradsh.torch as torch  # type: ignore[no-redef]
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(n, 1024), torch.nn.ReLU(),
                                torch.nn.Linear(1024, 2048), torch.nn.ReLU(),
                                torch.nn.Linear(2048, 10))
    for p in model.parameters():
        p.grad = torch.randn(*p.shape)
    name, kwargs = OPTIMIZERS[kind]
    opt = getattr(torch.optim, name)(model.parameters(), **kwargs)
    opt.step()
    opt.step()
    seconds = _per_iteration(opt.step, iters)
    total = 0.0
    for p in model.parameters():
        total += float(p.detach().double().sum().item())
    return {"seconds": seconds, "checksum": total,
            "parameters": float(sum(p.numel() for p in model.parameters()))}


PROBES: dict[str, Callable[..., dict[str, float]]] = {
    "optimizer": optimizer,
    "elementwise": elementwise,
    "matmul": matmul,
    "perop": perop,
    "deep": deep,
    "retained": retained,
    "conv2d": conv2d,
    "mlp": mlp,
    "statements": statements,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("probe", choices=sorted(PROBES))
    parser.add_argument("--impl", required=True, choices=("gradsh", "engine", "numpy", "torch"))
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--iters", type=int, default=None)
    parser.add_argument("--retain", type=int, default=None)
    parser.add_argument("--hidden", type=int, default=None)
    parser.add_argument("--kind", choices=sorted(OPTIMIZERS), default=None)
    args = parser.parse_args(argv)
    kwargs: dict[str, Any] = {"impl": args.impl, "n": args.n}
    if args.iters is not None:
        kwargs["iters"] = args.iters
    if args.kind is not None:
        kwargs["kind"] = args.kind
    if args.retain is not None:
        kwargs["retain"] = args.retain
    if args.hidden is not None:
        kwargs["hidden"] = args.hidden
    print(json.dumps(PROBES[args.probe](**kwargs)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
