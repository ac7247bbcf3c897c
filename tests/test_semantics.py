"""SPEC section 3 through the language: each rule and error path, its text checked against torch.

Every case is a gradsh snippet and the same program in PyTorch; the error type and message (or
the printed lines and warnings) must be identical.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Any

import pytest

from gradsh.interpreter import Interpreter
from gradsh.parser import parse


def gradsh_run(source: str, sim_cuda: bool = False) -> dict[str, Any]:
    from gradsh.engine import backend

    if sim_cuda:
        backend.enable_sim_cuda()
    try:
        interp = Interpreter("t.grad", source)
        printed: list[str] = []
        warned: list[str] = []
        error = None
        for outcome in interp.run(parse(source, "t.grad")):
            printed += outcome.printed
            warned += outcome.warnings
            if outcome.error is not None:
                error = (outcome.error.kind, outcome.error.message)
                break
        return {"printed": printed, "warnings": warned, "error": error}
    finally:
        if sim_cuda:
            backend.disable_sim_cuda()


def torch_run(torch: Any, code: str) -> dict[str, Any]:
    out = io.StringIO()
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with contextlib.redirect_stdout(out):
                exec(code, {"torch": torch, "F": torch.nn.functional})
        except Exception as exc:  # noqa: BLE001  (the error is what we compare)
            error = (type(exc).__name__, str(exc))
    texts = []
    for w in caught:
        text = str(w.message).split(" (Triggered internally at")[0]
        texts.append(f"{w.category.__name__}: {text}")
    return {"printed": out.getvalue().splitlines(), "warnings": texts, "error": error}


CASES: dict[str, tuple[str, str]] = {
    "int_requires_grad": (
        "x = tensor([1, 2], requires_grad=True)",
        "x = torch.tensor([1, 2], requires_grad=True)",
    ),
    "int_requires_grad_setter": (
        "x = tensor([1, 2])\nx.requires_grad = True",
        "x = torch.tensor([1, 2])\nx.requires_grad = True",
    ),
    "int_requires_grad_method": (
        "x = tensor([1, 2])\nx.requires_grad_()",
        "x = torch.tensor([1, 2])\nx.requires_grad_()",
    ),
    "non_scalar_backward": (
        "x = tensor([1., 2.], grad)\ny = x * 2\ny.backward()",
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = x * 2\ny.backward()",
    ),
    "gradient_shape_mismatch": (
        "x = tensor([1., 2.], grad)\ny = x.sum()\ny.backward(tensor([1., 1.]))",
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = x.sum()\n"
        "y.backward(torch.tensor([1., 1.]))",
    ),
    "backward_without_grad": (
        "x = tensor(1.)\nx.backward()",
        "x = torch.tensor(1.)\nx.backward()",
    ),
    "second_backward": (
        "a = tensor(2.0, grad)\nb = tensor(3.0)\nc = a*a*5\nd = c*c*b\nd.backward()\n"
        "d.backward()",
        "a = torch.tensor(2.0, requires_grad=True)\nb = torch.tensor(3.0)\nc = a*a*5\n"
        "d = c*c*b\nd.backward()\nd.backward()",
    ),
    "second_backward_scalar_mul": (
        "x = tensor(2.0, grad)\ny = x * 5\ny.backward()\ny.backward()",
        "x = torch.tensor(2.0, requires_grad=True)\ny = x * 5\ny.backward()\ny.backward()",
    ),
    "second_backward_allowed_without_saved_tensors": (
        "x = tensor(2.0, grad)\ny = x + 1\ny.backward()\ny.backward()\nprint(x.grad)",
        "x = torch.tensor(2.0, requires_grad=True)\ny = x + 1\ny.backward()\ny.backward()\n"
        "print(x.grad)",
    ),
    "retain_graph_accumulates": (
        "a = tensor(2.0, grad)\nc = a*a*5\nc.retain_grad()\nc.backward(retain_graph=True)\n"
        "c.backward()\nprint(a.grad, c.grad)",
        "a = torch.tensor(2.0, requires_grad=True)\nc = a*a*5\nc.retain_grad()\n"
        "c.backward(retain_graph=True)\nc.backward()\nprint(a.grad, c.grad)",
    ),
    "non_leaf_grad_warning": (
        "x = tensor(2.0, grad)\ny = x * 2\ny.backward()\nprint(y.grad)",
        "x = torch.tensor(2.0, requires_grad=True)\ny = x * 2\ny.backward()\nprint(y.grad)",
    ),
    "retain_grad_after_backward_is_too_late": (
        "x = tensor(2.0, grad)\ny = x * 2\nz = y * 3\nz.backward()\ny.retain_grad()\n"
        "print(y.grad)",
        "x = torch.tensor(2.0, requires_grad=True)\ny = x * 2\nz = y * 3\nz.backward()\n"
        "y.retain_grad()\nprint(y.grad)",
    ),
    "retain_grad_without_requires_grad": (
        "x = tensor(2.0)\nx.retain_grad()",
        "x = torch.tensor(2.0)\nx.retain_grad()",
    ),
    "hook_without_requires_grad": (
        "x = tensor(2.0)\nx.register_hook(print)",
        "x = torch.tensor(2.0)\nx.register_hook(print)",
    ),
    "leaf_in_place": (
        "x = tensor([1., 2.], grad)\nx.add_(1)",
        "x = torch.tensor([1., 2.], requires_grad=True)\nx.add_(1)",
    ),
    "leaf_in_place_allowed_in_no_grad": (
        "x = tensor([1., 2.], grad)\nno_grad { x.add_(1) }\nprint(x, x._version)",
        "x = torch.tensor([1., 2.], requires_grad=True)\nwith torch.no_grad():\n    x.add_(1)\n"
        "print(x, x._version)",
    ),
    "view_of_leaf_in_place": (
        "x = tensor([1., 2.], grad)\nv = x[0]\nv.mul_(2)",
        "x = torch.tensor([1., 2.], requires_grad=True)\nv = x[0]\nv.mul_(2)",
    ),
    "version_counter_output": (
        "x = tensor([1., 2., 3.], grad)\ny = x.sigmoid()\ny.mul_(2)\ny.sum().backward()",
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x.sigmoid()\ny.mul_(2)\n"
        "y.sum().backward()",
    ),
    "version_counter_through_detach": (
        "x = tensor([1., 2., 3.], grad)\ny = x.exp()\ny.detach().zero_()\ny.sum().backward()",
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x.exp()\n"
        "y.detach().zero_()\ny.sum().backward()",
    ),
    "version_counter_leaf": (
        "x = tensor([1., 2., 3.], grad)\ny = x * x\nno_grad { x.mul_(2) }\ny.sum().backward()",
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x * x\n"
        "with torch.no_grad():\n    x.mul_(2)\ny.sum().backward()",
    ),
    "data_change_is_silent": (
        "x = tensor([1., 2., 3.], grad)\ny = x.exp()\ny.data.zero_()\ny.sum().backward()\n"
        "print(x.grad)",
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\ny = x.exp()\ny.data.zero_()\n"
        "y.sum().backward()\nprint(x.grad)",
    ),
    "no_grad_results": (
        "x = tensor(1., grad)\nno_grad { y = x * 2 }\nprint(y.requires_grad, y.grad_fn, y.is_leaf)",
        "x = torch.tensor(1., requires_grad=True)\nwith torch.no_grad():\n    y = x * 2\n"
        "print(y.requires_grad, y.grad_fn, y.is_leaf)",
    ),
    "requires_grad_propagates": (
        "x = tensor(1., grad)\nb = tensor(2.)\ny = x * b\nz = b * 2\n"
        "print(y.requires_grad, z.requires_grad, z.is_leaf, y.is_leaf)",
        "x = torch.tensor(1., requires_grad=True)\nb = torch.tensor(2.)\ny = x * b\nz = b * 2\n"
        "print(y.requires_grad, z.requires_grad, z.is_leaf, y.is_leaf)",
    ),
    "non_leaf_requires_grad_false": (
        "x = tensor(1., grad)\ny = x * 2\ny.requires_grad = False",
        "x = torch.tensor(1., requires_grad=True)\ny = x * 2\ny.requires_grad = False",
    ),
    "hook_replaces_gradient": (
        "x = tensor(2., grad)\ny = x * x\ny.register_hook(g -> g * 100)\ny.backward()\n"
        "print(x.grad)",
        "x = torch.tensor(2., requires_grad=True)\ny = x * x\n"
        "y.register_hook(lambda g: g * 100)\ny.backward()\nprint(x.grad)",
    ),
    "create_graph_second_order": (
        "x = tensor(3., grad)\ny = x ** 3\ng = grad(y, x, create_graph=True)[0]\n"
        "g.backward()\nprint(g, x.grad)",
        "x = torch.tensor(3., requires_grad=True)\ny = x ** 3\n"
        "g = torch.autograd.grad(y, x, create_graph=True)[0]\ng.backward()\nprint(g, x.grad)",
    ),
    "create_graph_backward_warns": (
        "x = tensor(3., grad)\ny = x ** 3\ny.backward(create_graph=True)\nprint(x.grad)",
        "x = torch.tensor(3., requires_grad=True)\ny = x ** 3\ny.backward(create_graph=True)\n"
        "print(x.grad)",
    ),
    "copy_construct_warning": (
        "x = tensor([1., 2.])\ny = tensor(x)\nprint(y)",
        "x = torch.tensor([1., 2.])\ny = torch.tensor(x)\nprint(y)",
    ),
    "detach_shares_storage": (
        "x = tensor([1., 2.], grad)\nd = x.detach()\nd.zero_()\nprint(x, x._version)",
        "x = torch.tensor([1., 2.], requires_grad=True)\nd = x.detach()\nd.zero_()\n"
        "print(x, x._version)",
    ),
    "zero_grad_sets_none": (
        "w = tensor([1., 2.], grad)\nopt = sgd([w], lr=0.1)\n(w * w).sum().backward()\n"
        "opt.step()\nprint(w)\nopt.zero_grad()\nprint(w.grad)",
        "w = torch.tensor([1., 2.], requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "(w * w).sum().backward()\nopt.step()\nprint(w)\nopt.zero_grad()\nprint(w.grad)",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_torch(torch: Any, name: str) -> None:
    source, code = CASES[name]
    ours = gradsh_run(source)
    theirs = torch_run(torch, code)
    assert ours["error"] == theirs["error"]
    assert ours["printed"] == theirs["printed"]
    assert ours["warnings"] == theirs["warnings"]


def test_cuda_rules_under_sim_cuda(torch: Any) -> None:
    # PyTorch's texts, recorded here because this machine has no GPU for torch to compare with.
    ours = gradsh_run(
        "a = rand(10, requires_grad=True).cuda()\nb = rand(10).cuda()\n"
        "c = rand(10).cuda().requires_grad_()\nd = rand(10, requires_grad=True, device=\"cuda\")\n"
        "print(a.is_leaf, a.grad_fn.name(), b.is_leaf, c.is_leaf, d.is_leaf, d.device)\n"
        "e = a + rand(10)",
        sim_cuda=True,
    )
    assert ours["printed"] == ["False ToCopyBackward0 True True True cuda:0"]
    assert ours["error"] == (
        "RuntimeError",
        "Expected all tensors to be on the same device, but found at least two devices, "
        "cuda:0 and cpu!",
    )
