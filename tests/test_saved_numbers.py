"""A Python number an op saves for backward (`y * 1.0001` saves 1.0001 as MulBackward0's
`other`): gradsh keeps the number, not a wrapped tensor, and makes that tensor only when asked
(saved_variable.SavedTensor). What a program can see must be PyTorch's: `_saved_other` (its
dtype, value, identity, version), an in-place change to it failing the next backward, a second
backward after retain_graph, a higher-order graph through it, and the gradients' bits; and the
C fast path must save and unpack such a number as the Python code does."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gt
from gradsh.engine import fastpath, ops
from gradsh.engine.saved_variable import UNCHANGED

# every test once through the C fast path (Function.save, SavedTensor.unpack), once without
pytestmark = pytest.mark.usefixtures("engine_path")

NUMBERS = [1.0001, -0.0, 3, True, float("inf")]


def _bits(t: Any) -> bytes:
    return np.asarray(t.detach().numpy()).tobytes()


def _story(m: Any, number: Any) -> list[Any]:
    """What a program sees of a saved number, in torch or gradsh.torch."""
    rows: list[Any] = []
    x = m.tensor([1.5, -2.0], requires_grad=True)
    y = x * number
    z = (y * 2.5 + 0.5).sum()
    other = y.grad_fn._saved_other
    rows.append((str(other.dtype), repr(other.item()), other._version, other.requires_grad,
                 other is y.grad_fn._saved_other))
    z.backward(retain_graph=True)
    rows.append(_bits(x.grad))
    z.backward(retain_graph=True)  # the number is still there for a second backward
    rows.append(_bits(x.grad))
    g, = m.autograd.grad((y * y).sum(), x, create_graph=True)
    gg, = m.autograd.grad(g.sum(), x)
    rows.append((_bits(g), _bits(gg)))
    other.add_(other)  # changing the unpacked tensor fails the next backward, as in PyTorch
    try:
        z.backward()
        rows.append("no error")
    except RuntimeError as error:
        rows.append(str(error))
    return rows


@pytest.mark.parametrize("number", NUMBERS, ids=repr)
def test_saved_number_as_pytorch_shows_it(torch: Any, number: Any) -> None:
    assert _story(gt, number) == _story(torch, number)


def test_freed_after_backward_as_pytorch(torch: Any) -> None:
    def story(m: Any) -> list[str]:
        x = m.tensor(2.0, requires_grad=True)
        y = x * 0.5
        y.backward()
        try:
            y.grad_fn._saved_other
            return ["no error"]
        except RuntimeError as error:
            return [str(error), repr(x.grad.item())]

    assert story(gt) == story(torch)


def test_kept_as_the_number_until_asked() -> None:
    """The record holds the number itself (no tensor, array or version counter per node);
    the tensor is made at the first `_saved_other` and kept from then on."""
    x = ops.tensor(np.array([1.0, 2.0], dtype=np.float32), requires_grad=True)
    y = x * 1.0001
    saved = y.grad_fn._saved["other"]
    assert saved._tensor is None and saved._data == 1.0001 and type(saved._data) is float
    assert saved._counter is UNCHANGED and saved.version == 0
    assert saved.peek_array().dtype == np.float64 and saved._tensor is None
    alias = y.grad_fn._saved_other
    assert saved._tensor is alias and alias._wrapped and alias._counter is saved._counter
    assert UNCHANGED.value == 0


def test_hooks_get_a_tensor() -> None:
    """Under saved_tensors_hooks the pack hook receives the wrapped tensor, as before."""
    packed: list[Any] = []

    def pack(t: Any) -> Any:
        packed.append(t)
        return t

    x = gt.tensor([1.0, 2.0], requires_grad=True)
    with gt.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = x * 3.0
    assert [str(t.dtype) for t in packed] == ["torch.float64"]
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_c_and_python_save_the_same() -> None:
    """The record the C save makes of a wrapped number, slot for slot, is the Python one's."""
    if fastpath.extension is None:
        pytest.skip("the C fast path is not built (or GRADSH_NATIVE=0)")

    def fields(c: bool) -> list[Any]:
        before = fastpath.enable(c)
        try:
            rows = []
            for number in (1.0001, 7, False, math.nan):
                x = ops.tensor(np.array([0.5, -1.0], dtype=np.float32), requires_grad=True)
                saved = (x * number).grad_fn._saved["other"]
                rows.append((saved._tensor, saved._weak, repr(saved._data), type(saved._data),
                             saved._counter is UNCHANGED, saved.version, saved.is_output,
                             saved.shape, str(saved.dtype), str(saved.device), saved._hooked))
            return rows
        finally:
            fastpath.enable(before)

    assert fields(True) == fields(False)
