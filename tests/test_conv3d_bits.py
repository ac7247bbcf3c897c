"""Conv3d's float32 forward and (strides of 1) input gradient against PyTorch's bits at one
and two threads (vecmath/conv3d.py: oneDNN's chains over kernel depth, rows, columns and
16-channel blocks on NCDHW data, one block on channels-last-3d data, the input gradient's
kernel positions reversed there) and the output's layout; the weight and bias gradients are
NumPy's (close, not bit-exact), checked against torch within float32 rounding."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import native

F32 = np.float32

pytestmark = pytest.mark.skipif(native.kernels is None, reason="the compiled kernels are not built")

# (N, C, D, H, W), out channels, kernel, stride, padding, channels-last-3d
CASES = [((2, 8, 5, 5, 5), 8, 3, 1, 1, False), ((2, 16, 4, 5, 6), 16, 3, 1, 1, False),
         ((2, 48, 4, 4, 4), 8, 3, 1, 1, False), ((2, 8, 7, 7, 7), 16, 3, 2, 1, False),
         ((2, 8, 5, 5, 5), 16, 3, 1, 1, True), ((2, 48, 4, 4, 4), 8, 3, 1, 1, True),
         ((3, 4, 6, 5, 4), 6, 2, 1, 0, False)]


def _run(lib: Any, case: tuple[Any, ...]) -> tuple[list[np.ndarray], tuple[int, ...]]:
    x_shape, out, kernel, stride, padding, channels_last = case
    lib.manual_seed(0)
    layer = lib.nn.Conv3d(x_shape[1], out, kernel, stride=stride, padding=padding)
    x = lib.from_numpy(np.random.default_rng(sum(x_shape)).standard_normal(x_shape).astype(F32))
    if channels_last:
        x = x.contiguous(memory_format=lib.channels_last_3d)
    x.requires_grad_()
    y = layer(x)
    y.backward(lib.from_numpy(np.random.default_rng(3).standard_normal(
        tuple(y.shape)).astype(F32)))
    return ([y.detach().numpy(), x.grad.numpy(), layer.weight.grad.numpy(),
             layer.bias.grad.numpy()], tuple(y.stride()))


@pytest.mark.parametrize("case", CASES, ids=str)
def test_conv3d_forward_and_input_grad_are_torchs(torch: Any, thread_count: int, case: tuple[Any, ...]) -> None:
    theirs, their_strides = _run(torch, case)
    ours, our_strides = _run(gtorch, case)
    assert our_strides == their_strides
    exact = 2 if case[3] == 1 else 1  # (the output; with strides of 1 the input gradient)
    for mine, want in zip(ours[:exact], theirs[:exact], strict=True):
        assert (mine.view(np.uint32) == want.view(np.uint32)).all()
    for mine, want in zip(ours[exact:], theirs[exact:], strict=True):
        np.testing.assert_allclose(mine, want, rtol=1e-4, atol=1e-4)
