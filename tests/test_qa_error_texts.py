"""Errors Q&A programs catch and print, and masks that broadcast, against PyTorch 2.13:
masked_fill / masked_select / masked_scatter name the mask as tensor a of the size mismatch
(expand_outplace(mask, self)); out-of-place masked_fill broadcasts self to a larger mask (its
gradient summed back, no Expand node) while masked_fill_ refuses to grow self; bool() of an
empty tensor says "no values"; linalg.cross names the dim as given; autograd.grad / backward
with fewer gradients than outputs say "got N tensors and M gradients" (extra ones are
dropped, as _make_grads's zip drops them)."""

from __future__ import annotations

from typing import Any

import pytest

import gradsh.torch as gtorch

CALLS = [
    "x.masked_fill(torch.tensor([True, False]), 0)",
    "x.masked_fill(torch.tensor([True, False]), torch.tensor(2.0))",
    "torch.masked_fill(x, torch.tensor([True, False, True, False]), 0)",
    "x.clone().masked_fill_(torch.tensor([True, False]), 0)",
    "torch.arange(3.).masked_fill_(m23, 0)",
    "x.masked_select(torch.tensor([True, False]))",
    "torch.arange(3.).masked_select(m23)",
    "x.masked_scatter(torch.tensor([True, False]), torch.zeros(6))",
    "bool(torch.tensor([]))",
    "bool(torch.zeros(0, 3))",
    "torch.tensor([]).is_nonzero()",
    "torch.is_nonzero(torch.tensor([1, 2]))",
    "bool(torch.tensor([1, 2]))",
    "torch.linalg.cross(torch.ones(2), torch.ones(2))",
    "torch.cross(torch.ones(2, 2), torch.ones(2, 2), dim=-2)",
    "torch.linalg.cross(torch.ones(2, 3), torch.ones(2, 2))",
    "torch.linalg.cross(torch.ones(2, 2), torch.ones(2, 2), dim=0)",
    "torch.autograd.grad([w * 2, w * 3], w, [torch.ones(2)])",
    "torch.autograd.grad(w * 2, w, [torch.ones(2), torch.ones(2)])",
    "torch.autograd.grad([w * 2, w * 3], w, torch.ones(2))",
    "torch.autograd.backward([w * 2, w * 3], [torch.ones(2)])",
    "torch.autograd.backward([w * 2], [torch.ones(2), torch.ones(2)])",
    "torch.autograd.grad([w * 2, w * 3], w, [torch.ones(2), None])",
    "torch.autograd.grad([w * 2, w * 3], w, [torch.ones(2, 2)], is_grads_batched=True)",
    "torch.autograd.grad([w * 2], w, [torch.ones(3, 2), torch.ones(3, 2)], is_grads_batched=True)",
]


def _outcome(lib: Any, expression: str) -> str:
    scope = {"torch": lib, "x": lib.arange(6.0).view(2, 3), "w": lib.ones(2, requires_grad=True),
             "m23": lib.tensor([[True, False, True], [False, False, True]])}
    try:
        return repr(eval(expression, scope))  # noqa: S307  (the listed expressions above)
    except Exception as error:  # noqa: BLE001  (the error itself is what is compared)
        return f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("expression", CALLS)
def test_outcome_is_torchs(torch: Any, expression: str) -> None:
    assert _outcome(gtorch, expression) == _outcome(torch, expression)


def _broadcast_fill(lib: Any) -> list[str]:
    a = lib.arange(3.0, requires_grad=True)
    mask = lib.tensor([[True, False, True], [False, False, True]])
    out = a.masked_fill(mask, 0.5)
    (out * lib.arange(6.0).view(2, 3)).sum().backward()
    return [repr(out), repr(a.grad), repr([type(n).__name__ for n, _ in
                                           out.grad_fn.next_functions])]


def test_masked_fill_broadcasts_self_to_the_mask(torch: Any) -> None:
    assert _broadcast_fill(gtorch) == _broadcast_fill(torch)
