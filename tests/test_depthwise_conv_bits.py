"""Depthwise convolutions (groups == channels, one filter a channel) against PyTorch's bits at
one and two threads: on NCHW data every gradient, the weight and bias ones of kernels wider than
3 columns from oneDNN's gemm-based backward (vecmath/conv_gemm.py: jit_avx_gemv_t_f32_kern's
dot products, the bias a plain loop per output row), the forward of images too small for the
depthwise kernel from the gemm-based one; on channels-last data the forward (oneDNN's
brdgmm_dw: each output's chain from 0, the bias after it) and the output's layout."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import conv_gemm, native

F32 = np.float32

# (N, C, H, W), kernel, stride, padding
SHAPES = [((2, 8, 9, 9), 5, 1, 2), ((1, 24, 14, 14), 7, 1, 3), ((3, 16, 11, 13), 7, 2, 3),
          ((2, 8, 17, 17), 5, 2, 2), ((2, 12, 6, 6), 3, 1, 1), ((2, 8, 10, 10), 5, 1, 0),
          ((2, 8, 9, 9), 3, 4, 1),
          # images smaller than the kernel's reach (ConvNeXt's last stages): the depthwise
          # forward kernel declines, oneDNN's gemm-based forward adds the bias after the chain
          ((4, 24, 2, 2), 7, 1, 3), ((4, 32, 1, 1), 7, 1, 3), ((2, 16, 3, 3), 5, 2, 4),
          ((2, 8, 4, 4), 3, 3, 2)]


def _run(lib: Any, arrays: list[np.ndarray], stride: int, padding: int, channels_last: bool,
         grad: np.ndarray | None = None) -> tuple[list[np.ndarray], tuple[int, ...]]:
    x, w, b = (lib.from_numpy(a.copy()) for a in arrays)
    if channels_last:
        x = x.contiguous(memory_format=lib.channels_last)
    for t in (x, w, b):
        t.requires_grad_()
    y = lib.nn.functional.conv2d(x, w, b, stride=stride, padding=padding, groups=w.shape[0])
    if grad is None:
        return [y.detach().numpy()], tuple(y.stride())
    y.backward(lib.from_numpy(grad))
    return [y.detach().numpy()] + [t.grad.numpy() for t in (x, w, b)], tuple(y.stride())


def _arrays(x_shape: tuple[int, ...], kernel: int) -> list[np.ndarray]:
    rng = np.random.default_rng(sum(x_shape) + kernel)
    c = x_shape[1]
    return [rng.standard_normal(s).astype(F32) for s in (x_shape, (c, 1, kernel, kernel), (c,))]


def _assert_bits(ours: list[np.ndarray], theirs: list[np.ndarray]) -> None:
    for mine, want in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(mine.view(np.uint32), want.view(np.uint32))


@pytest.mark.skipif(native.kernels is None, reason="the compiled kernels are not built")
@pytest.mark.parametrize("x_shape, kernel, stride, padding", SHAPES, ids=str)
def test_depthwise_gradients_are_torchs(torch: Any, thread_count: int, x_shape: tuple[int, ...],
                                        kernel: int, stride: int, padding: int) -> None:
    arrays = _arrays(x_shape, kernel)
    out = _run(torch, arrays, stride, padding, False)[0][0]
    grad = np.random.default_rng(7).standard_normal(out.shape).astype(F32)
    theirs, _ = _run(torch, arrays, stride, padding, False, grad)
    ours, _ = _run(gtorch, arrays, stride, padding, False, grad)
    _assert_bits(ours, theirs)


@pytest.mark.parametrize("x_shape, kernel, stride, padding", SHAPES, ids=str)
def test_channels_last_depthwise_forward_is_torchs(torch: Any, thread_count: int,
                                                   x_shape: tuple[int, ...], kernel: int,
                                                   stride: int, padding: int) -> None:
    arrays = _arrays(x_shape, kernel)
    theirs, their_strides = _run(torch, arrays, stride, padding, True)
    ours, our_strides = _run(gtorch, arrays, stride, padding, True)
    assert our_strides == their_strides
    _assert_bits(ours, theirs)


def test_gemv_dot_order() -> None:
    """The gemv kernel's dot: blocks of 16 into 8 lanes, then chunks of 8, 4, 2, 1, each
    reduced ((0+1)+(4+5)) + ((2+3)+(6+7)) and added to y; against a float64 dot within the
    float32 error bound, and exactly equal to a hand-unrolled order on one row."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((5, 37)).astype(F32)
    x = rng.standard_normal(37).astype(F32)
    got = conv_gemm._gemv_t_add(a, x, np.zeros(5, F32))
    want = a.astype(np.float64) @ x.astype(np.float64)
    assert np.all(np.abs(got - want) <= 1e-5 * np.abs(a) @ np.abs(x))
    row = a[0]
    lanes = np.zeros(8, F32)
    for b in range(0, 32, 16):  # two whole blocks, one fused chain per lane
        for half in (0, 8):
            for lane in range(8):
                prod = np.float64(row[b + half + lane]) * np.float64(x[b + half + lane])
                lanes[lane] = F32(prod + np.float64(lanes[lane]))
    y = F32(0) + F32(F32(F32(lanes[0] + lanes[1]) + F32(lanes[4] + lanes[5]))
                     + F32(F32(lanes[2] + lanes[3]) + F32(lanes[6] + lanes[7])))
    four = [F32(row[32 + i] * x[32 + i]) for i in range(4)]  # 37 - 32 = 4 + 1
    y = F32(y + F32(F32(four[0] + four[1]) + F32(four[2] + four[3])))
    y = F32(y + F32(row[36] * x[36]))
    assert got[0] == y
