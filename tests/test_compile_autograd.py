"""torch.compile's outputs under autograd against PyTorch (backend="aot_eager": AOTAutograd
with eager kernels, so the values are eager's too): one CompiledFunctionBackward node, its
next_functions (the parameters Dynamo lifts and the inputs, in Dynamo's order), gradients and a
training loop bit for bit, the second backward's error, and the eager backend's own nodes."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

import gradsh.torch as gtorch


def _masked(value: Any) -> str:
    return re.sub(r"0x[0-9a-f]+", "0x", repr(value))


def _run(lib: Any) -> list[Any]:
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 1))
    compiled = lib.compile(model, backend="aot_eager")
    opt = lib.optim.SGD(compiled.parameters(), lr=0.1)
    x = lib.tensor(np.random.default_rng(0).standard_normal((8, 3)), dtype=lib.float32)
    y = lib.tensor(np.random.default_rng(1).standard_normal((8, 1)), dtype=lib.float32)
    seen: list[Any] = []
    for _ in range(3):
        opt.zero_grad()
        out = compiled(x)
        loss = ((out - y) ** 2).mean()
        loss.backward()
        opt.step()
        seen += [_masked(out.grad_fn), loss.item(),
                 [None if n is None else type(n).__name__ for n, _ in out.grad_fn.next_functions]]
    seen += [p.detach().numpy().tobytes() for p in model.parameters()]
    xi = x.clone().requires_grad_()
    compiled(xi).sum().backward()
    seen.append(xi.grad.numpy().tobytes())
    w = lib.tensor([1.0, -2.0, 0.5], requires_grad=True)
    f = lib.compile(lambda a: (a * w).sum(), backend="aot_eager")
    r = f(lib.ones(3))
    r.backward()
    seen += [_masked(r), _masked(w.grad)]
    o = compiled(x)
    o.sum().backward()
    try:
        o.sum().backward()
    except RuntimeError as error:
        seen.append(str(error).splitlines()[0])
    eager = lib.compile(lambda a: a.sin() * 2, backend="eager")
    seen.append(_masked(eager(lib.ones(2, requires_grad=True))))
    return seen


def test_compiled_outputs_match_torch(torch: Any) -> None:
    assert _run(gtorch) == _run(torch)
