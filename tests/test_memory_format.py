"""memory_format arguments (torch.preserve_format, contiguous_format, channels_last,
channels_last_3d) of the creation functions, *_like, clone, contiguous, is_contiguous, to and
Module.to: strides, grad_fn names, values after a seed and error texts against torch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _layouts(T: Any) -> list[Any]:
    T.manual_seed(0)
    x = T.randn(2, 3, 4, 5, requires_grad=True)
    y = x.contiguous(memory_format=T.channels_last)
    z = x.to(memory_format=T.channels_last)
    (y * T.arange(120.0).reshape(2, 3, 4, 5)).sum().backward()
    p = T.ones(3, requires_grad=True)
    conv = T.nn.Conv2d(3, 4, 3).to(memory_format=T.channels_last)
    out = [y, y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=T.channels_last),
           type(y.grad_fn).__name__, z.stride(), type(z.grad_fn).__name__, (z * 2).stride(),
           T.zeros_like(z).stride(), T.randn_like(z), x.grad, x.grad.stride(),
           z.contiguous().stride(), x.to(memory_format=T.contiguous_format) is x,
           x.contiguous(memory_format=T.contiguous_format) is x, conv.weight.stride(),
           T.empty(2, 3, 4, 5, 6, memory_format=T.channels_last_3d).stride(),
           T.empty((2, 3), memory_format=T.contiguous_format).stride(),
           T.zeros_like(p, memory_format=T.preserve_format),
           p.clone(memory_format=T.preserve_format),
           T.rand_like(x, memory_format=T.channels_last),
           T.randn_like(z, memory_format=T.contiguous_format),
           T.full_like(x, 2.0, memory_format=T.channels_last).stride(),
           T.ones_like(z, memory_format=T.preserve_format).stride(),
           T.empty_like(x, memory_format=T.channels_last).stride(),
           x.clone(memory_format=T.channels_last).stride(),
           T.ones(3).is_contiguous(memory_format=T.channels_last)]
    return out


def test_layouts_match_torch(torch: Any) -> None:
    want, have = _layouts(torch), _layouts(gtorch)
    assert len(want) == len(have)
    for w, h in zip(want, have):
        if hasattr(w, "detach"):
            assert h.stride() == w.stride()
            np.testing.assert_array_equal(h.detach().numpy(), w.detach().numpy())
        else:
            assert h == w


@pytest.mark.parametrize("call", [
    lambda T: T.ones(2, 3, 4, 5).transpose(1, 2).contiguous(memory_format=T.preserve_format),
    lambda T: T.ones(2, 3).contiguous(memory_format=T.channels_last),
    lambda T: T.empty(2, 3, memory_format=T.preserve_format),
    lambda T: T.ones(3).to(memory_format=T.channels_last),
    lambda T: T.ones(2, 3, 4, 5).to(memory_format=T.channels_last_3d),
    lambda T: T.zeros_like(T.ones(2, 3), memory_format=T.channels_last),
    lambda T: T.ones(2, 3).clone(memory_format=T.channels_last),
])
def test_errors_match_torch(torch: Any, call: Any) -> None:
    with pytest.raises(Exception) as want:
        call(torch)
    with pytest.raises(Exception) as have:
        call(gtorch)
    assert type(have.value).__name__ == type(want.value).__name__
    assert str(have.value) == str(want.value)
