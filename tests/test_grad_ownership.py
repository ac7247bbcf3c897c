"""Who owns a leaf's .grad after backward: AccumulateGrad takes a gradient array no one else
holds (as PyTorch's steals it) and copies any other, and an optimizer writes its update into
the parameter's own storage. Each scenario changes gradients and parameters in place and
records what every tensor a program holds shows then, with PyTorch and with gradsh.torch: an
array shared where PyTorch's is not would show the change twice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import gradsh.torch as gt

pytestmark = pytest.mark.usefixtures("engine_path")

Record = Callable[[Any], None]


def _shared_by_add(torch: Any, record: Record) -> None:
    """One gradient array sent along both edges of an add: each leaf's .grad its own."""
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
    ((a + b) * 2).sum().backward()
    a.grad.add_(10)
    record([a.grad.tolist(), b.grad.tolist()])


def _view_of_shared(torch: Any, record: Record) -> None:
    """A view's gradient (a reshape of the array another leaf also receives), both orders of
    the leaves' creation (which decides which accumulates first)."""
    for first_view in (True, False):
        if first_view:
            a = torch.ones(4, requires_grad=True)
            b = torch.ones(2, 2, requires_grad=True)
        else:
            b = torch.ones(2, 2, requires_grad=True)
            a = torch.ones(4, requires_grad=True)
        ((a.view(2, 2) + b) * 3).sum().backward()
        a.grad.mul_(5)
        b.grad.sub_(1)
        record([a.grad.tolist(), b.grad.tolist()])


def _held_by_the_program(torch: Any, record: Record) -> None:
    """Gradients a program holds: backward's `gradient` argument (and a view of it), one a hook
    kept, .grad of a second backward (accumulated into the first one's tensor)."""
    x = torch.tensor([1.0, -1.0], requires_grad=True)
    g = torch.tensor([0.5, 2.0])
    (x * 1).backward(g)
    x.grad.add_(1)
    record([g.tolist(), x.grad.tolist()])
    w = torch.zeros(4, requires_grad=True)
    g22 = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    w.view(2, 2).backward(g22)  # (w's gradient: a view of g22's own array)
    w.grad.mul_(-1)
    record([g22.tolist(), w.grad.tolist()])
    kept: list[Any] = []
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    z = y * 2
    z.register_hook(lambda grad: kept.append(grad))
    (z * z).sum().backward()
    first = y.grad
    y.grad.add_(100)
    record([kept[0].tolist(), first.tolist()])
    (y * 7).sum().backward()
    record([first.tolist(), y.grad.tolist(), first is y.grad])


def _sgd_in_place(torch: Any, record: Record) -> None:
    """SGD's update into the parameter's storage: views of the parameter see it, its version
    counts it, a tensor that saved it notices."""
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    view = model.weight.detach()[0]
    version = model.weight._version
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    x = torch.tensor([[1.0, float("nan"), 2.0], [0.5, -1.0, 3.0]])
    model(x).sum().backward()
    opt.step()
    record([view.tolist(), model.weight._version - version, model.bias.tolist()])
    out = (model.weight * model.weight).sum()
    opt.step()
    try:
        out.backward()
    except RuntimeError as error:
        record(str(error).split(" Hint:")[0])


@pytest.mark.parametrize("scenario", [_shared_by_add, _view_of_shared, _held_by_the_program,
                                      _sgd_in_place])
def test_grad_ownership_matches_torch(scenario: Callable[[Any, Record], None],
                                      torch: Any) -> None:
    records = []
    for lib in (torch, gt):
        seen: list[Any] = []
        scenario(lib, seen.append)
        records.append([str(r) for r in seen])
    assert records[0] == records[1]
