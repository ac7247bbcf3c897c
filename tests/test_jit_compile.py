"""torch.jit (script, trace, save/load, the decorators), torch.compile and torch.__config__,
against PyTorch: gradsh runs them eagerly, with PyTorch's reprs, types, state_dict keys, and
the random numbers and batch-norm statistics that tracing's extra runs consume."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

X = (np.arange(24, dtype=np.float32).reshape(6, 4) / 10 - 1.0)


def _net(torch: Any) -> Any:
    torch.manual_seed(0)
    return _NETS[torch.__name__]()


def _net_class(nn: Any) -> type:
    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 3)
            self.bn = nn.BatchNorm1d(3)
            self.seq = nn.Sequential(nn.ReLU(), nn.Dropout(0.3))

        # (unannotated: TorchScript takes x for a Tensor)
        def forward(self, x):  # type: ignore[no-untyped-def]
            return self.seq(self.bn(self.fc(x)))

    return Net


# (module-level classes: torch.jit.save pickles the module in gradsh)
GradshNet = _net_class(gtorch.nn)
GradshNet.__qualname__ = "GradshNet"
_NETS: dict[str, type] = {"gradsh.torch": GradshNet}
try:
    import torch as _torch

    TorchNet = _net_class(_torch.nn)
    TorchNet.__qualname__ = "TorchNet"
    _NETS["torch"] = TorchNet
except ImportError:  # the parity tests skip without torch
    pass


def _scripted(torch: Any, tmp: Path) -> list[Any]:
    m = _net(torch)
    x = torch.tensor(X)
    s = torch.jit.script(m)
    out = [repr(s), type(s).__name__, str(type(s)), s.original_name,
           list(dict(s.named_parameters())), list(s.state_dict()),
           isinstance(s, torch.jit.ScriptModule), s.fc.weight is m.fc.weight]
    s.eval()
    out += [m.training, s.training, s(x).tolist()]
    s.train()
    out.append(s(x).sum().item())
    torch.jit.save(s, str(tmp / "s.pt"))
    loaded = torch.jit.load(str(tmp / "s.pt"))
    out += [repr(loaded), loaded.eval()(x).tolist(), m.bn.running_mean.tolist()]
    return out


def _traced(torch: Any, tmp: Path) -> list[Any]:
    m = _net(torch)
    x = torch.tensor(X)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the trace check's TracerWarning (dropout)
        t = torch.jit.trace(m, x)
    out = [repr(t), str(type(t)), str(type(t.fc)), m.bn.running_mean.tolist(),
           m.bn.num_batches_tracked.item(), torch.rand(2).tolist()]
    m.eval()
    e = torch.jit.trace(m, x)  # deterministic: the check runs five times, no warning
    out += [e(x).tolist(), torch.rand(2).tolist(), torch.jit.is_tracing(),
            torch.jit.is_scripting()]
    return out


def _functions(torch: Any, tmp: Path) -> list[Any]:
    # (TorchScript reads the annotations: `a` is a Tensor)
    @torch.jit.script
    def f(a, b: float):  # type: ignore[no-untyped-def]
        return a * b + 1

    g = torch.jit.trace(lambda a: a.exp() - 1, torch.tensor(X))
    fut = torch.jit.fork(f, torch.tensor(X), 2.0)
    return [str(type(f)), f(torch.tensor(X), 3.0).tolist(), g(torch.tensor(X)).tolist(),
            torch.jit.wait(fut).sum().item(), torch.jit.annotate(int, 3)]


def _compiled(torch: Any, tmp: Path) -> list[Any]:
    m = _net(torch)
    x = torch.tensor(X)
    c = torch.compile(m, backend="eager")
    out = [repr(c), str(type(c)), list(c.state_dict()), c._orig_mod is m, repr(c.fc),
           c.training]
    opt = torch.optim.SGD(c.parameters(), lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        loss = c(x).pow(2).mean()
        loss.backward()
        opt.step()
        out.append(loss.item())
    c.eval()
    out += [m.training, c(x).sum().item()]

    @torch.compile(backend="eager")
    def h(a: Any) -> Any:
        return a.sin() * 2

    out += [h(x).tolist(), torch.compile(lambda a: a + 1, backend="eager")(x).sum().item()]
    try:
        torch.compile(m, mode="fastest")
    except RuntimeError as error:
        out.append(str(error))
    m.compile(backend="eager")
    out.append(repr(m))
    return out


CASES = {f.__name__[1:]: f for f in (_scripted, _traced, _functions, _compiled)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_as_in_pytorch(name: str, torch: Any, one_thread: None, tmp_path: Path) -> None:
    ours = CASES[name](gtorch, tmp_path)
    assert ours == CASES[name](torch, tmp_path)


def test_config_texts(torch: Any) -> None:
    assert gtorch.__config__.show() == torch.__config__.show()
    previous = torch.get_num_threads()
    try:
        for n in (1, 2):
            torch.set_num_threads(n)
            gtorch.set_num_threads(n)
            assert gtorch.__config__.parallel_info() == torch.__config__.parallel_info()
    finally:
        torch.set_num_threads(previous)
        gtorch.set_num_threads(previous)
