"""Convolutions on channels-last data against PyTorch's bits at one and two threads: oneDNN's
brgemm kernels (vecmath/conv_nhwc.py) for the forward and the input gradient, its NHWC
backward-weights kernel for the weight gradient, slow_conv2d's channels-last products where
oneDNN does not run (vecmath/conv_slow_cl.py: float64, a small single sample, a 1x1 kernel at
one thread), and the output's channels-last layout."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import conv_nhwc, native

F32 = np.float32

pytestmark = pytest.mark.skipif(native.kernels is None, reason="the compiled kernels are not built")

# (N, C, H, W), (O, kernel), stride, padding
SHAPES = [((4, 64, 4, 4), (64, 3), 1, 1),  # labml's DDPM UNet block
          ((2, 32, 7, 7), (48, 3), 1, 1), ((2, 20, 6, 6), (12, 3), 1, 0),
          ((2, 16, 6, 6), (16, 3), 1, 0), ((2, 3, 8, 8), (16, 3), 1, 1),
          ((2, 16, 28, 28), (8, 3), 1, 0), ((2, 16, 28, 28), (8, 5), 1, 1),
          ((3, 32, 20, 20), (32, 3), 1, 1), ((2, 8, 64, 64), (8, 3), 1, 0),
          ((2, 512, 8, 8), (16, 3), 1, 1), ((2, 16, 5, 5), (512, 3), 1, 1),
          # exec_base: padding the output row outgrows the input by
          ((2, 16, 4, 4), (8, 3), 1, 2),
          # strided
          ((2, 16, 9, 9), (24, 3), 2, 1), ((2, 24, 10, 10), (40, 5), 2, 2),
          ((2, 8, 13, 13), (8, 3), 2, 0),
          # the weights' and bias' minibatch split at two threads; 1x1 kernels (brgconv_1x1)
          ((3, 16, 13, 6), (16, 5), 1, 2), ((2, 20, 12, 10), (16, 3), 1, 1),
          ((4, 20, 13, 13), (8, 3), 1, 1), ((4, 20, 5, 6), (16, 1), 1, 0),
          ((4, 8, 12, 4), (33, 1), 1, 0), ((16, 40, 4, 4), (8, 1), 1, 0),
          # fewer than 16 input channels (is_1stconv: one weight chain a thread)
          ((2, 8, 7, 8), (4, 3), 1, 1), ((4, 3, 13, 7), (8, 3), 1, 0),
          ((2, 8, 7, 6), (33, 5), 1, 0)]


def _arrays(x_shape: tuple[int, ...], o: int, kernel: int, dtype: type = F32,
            groups: int = 1) -> list[np.ndarray]:
    rng = np.random.default_rng(sum(x_shape) + o + kernel)
    shapes = (x_shape, (o, x_shape[1] // groups, kernel, kernel), (o,))
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


def _run(lib: Any, arrays: list[np.ndarray], stride: int, padding: int, grad: np.ndarray,
         permuted: bool = False, groups: int = 1,
         channels_last: bool = True) -> tuple[list[np.ndarray], tuple[int, ...]]:
    """The output, the three gradients and the output's strides; the input channels-last by
    .contiguous(memory_format=...) or (permuted) as a permute of an NHWC tensor."""
    x, w, b = (lib.from_numpy(a.copy()) for a in arrays)
    if permuted:
        x = lib.from_numpy(np.ascontiguousarray(arrays[0].transpose(0, 2, 3, 1)))
    for t in (x, w, b):
        t.requires_grad_()
    x_in = x.permute(0, 3, 1, 2) if permuted else x
    if channels_last and not permuted:
        x_in = x.contiguous(memory_format=lib.channels_last)
    y = lib.nn.functional.conv2d(x_in, w, b, stride=stride, padding=padding, groups=groups)
    y.backward(lib.from_numpy(grad))
    x_grad = x.grad.numpy().transpose(0, 3, 1, 2) if permuted else x.grad.numpy()
    return [y.detach().numpy(), x_grad, w.grad.numpy(), b.grad.numpy()], tuple(y.stride())


def _compare(torch: Any, x_shape: tuple[int, ...], o: int, kernel: int, stride: int,
             padding: int, permuted: bool = False, dtype: type = F32, groups: int = 1,
             channels_last: bool = True, weight_grad: bool = True) -> None:
    arrays = _arrays(x_shape, o, kernel, dtype, groups)
    with torch.no_grad():
        shape = torch.nn.functional.conv2d(torch.from_numpy(arrays[0]), torch.from_numpy(
            arrays[1]), stride=stride, padding=padding, groups=groups).shape
    grad = np.random.default_rng(7).standard_normal(tuple(shape)).astype(dtype)
    options = {"permuted": permuted, "groups": groups, "channels_last": channels_last}
    theirs, their_strides = _run(torch, arrays, stride, padding, grad, **options)
    ours, our_strides = _run(gtorch, arrays, stride, padding, grad, **options)
    assert our_strides == their_strides
    names = ("output", "input grad", "weight grad", "bias grad")
    keep = [i for i in range(4) if i != 2 or weight_grad]
    for name, mine, want in zip([names[i] for i in keep], [ours[i] for i in keep],
                                [theirs[i] for i in keep], strict=True):
        bits = f"u{want.itemsize}"
        differ = int((np.ascontiguousarray(mine).view(bits)
                      != np.ascontiguousarray(want).view(bits)).sum())
        assert differ == 0, f"{name}: {differ} of {want.size} elements differ"


@pytest.mark.parametrize("x_shape, out, stride, padding", SHAPES, ids=str)
def test_channels_last_conv2d_is_torchs(torch: Any, thread_count: int, x_shape: tuple[int, ...],
                                        out: tuple[int, int], stride: int, padding: int) -> None:
    _compare(torch, x_shape, out[0], out[1], stride, padding)


def test_permuted_nhwc_input_is_torchs(torch: Any, thread_count: int) -> None:
    """An NHWC tensor permuted to NCHW (channels-last strides, as a transformer block's output
    reshaped back into an image) takes the same kernels."""
    _compare(torch, (4, 64, 4, 4), 64, 3, 1, 1, permuted=True)


# slow_conv2d's channels-last path: (N, C, H, W), (O, kernel), stride, padding
SLOW = [((1, 64, 6, 6), (32, 3), 1, 1), ((1, 16, 5, 7), (8, 3), 1, 0),
        ((1, 128, 3, 3), (16, 3), 1, 1), ((1, 3, 7, 5), (5, 3), 2, 0),
        ((4, 8, 12, 5), (8, 1), 1, 2), ((4, 8, 12, 4), (33, 1), 1, 0)]


@pytest.mark.parametrize("x_shape, out, stride, padding", SLOW, ids=str)
def test_slow_conv2d_channels_last_is_torchs(torch: Any, one_thread: None,
                                             x_shape: tuple[int, ...], out: tuple[int, int],
                                             stride: int, padding: int) -> None:
    _compare(torch, x_shape, out[0], out[1], stride, padding)


@pytest.mark.parametrize("x_shape, out, stride, padding", SLOW[:4] + SHAPES[:3], ids=str)
def test_float64_channels_last_is_torchs(torch: Any, thread_count: int,
                                         x_shape: tuple[int, ...], out: tuple[int, int],
                                         stride: int, padding: int) -> None:
    """oneDNN has no float64: slow_conv2d's channels-last products through MKL's dgemm."""
    _compare(torch, x_shape, out[0], out[1], stride, padding, dtype=np.float64)


# (N, C, H, W), (O, kernel), groups, padding
GROUPED = [((2, 32, 14, 14), (32, 5), 32, 2), ((2, 24, 8, 8), (24, 7), 24, 3),  # depthwise
           ((2, 12, 8, 8), (12, 3), 3, 1), ((2, 32, 8, 8), (32, 3), 4, 1),
           ((2, 48, 6, 6), (48, 3), 3, 1)]


@pytest.mark.parametrize("x_shape, out, groups, padding", GROUPED, ids=str)
def test_channels_last_grouped_gradients_are_torchs(torch: Any, thread_count: int,
                                                    x_shape: tuple[int, ...],
                                                    out: tuple[int, int], groups: int,
                                                    padding: int) -> None:
    """Grouped and depthwise (kernels the depthwise kernel declines) convolutions on
    channels-last data: jit:avx512_core's NHWC weight gradient per group, the bias one chain
    a channel."""
    _compare(torch, x_shape, out[0], out[1], 1, padding, groups=groups)


@pytest.mark.parametrize("x_shape, out, groups", [((2, 6, 8, 8), (6, 3), 3),
                                                  ((2, 12, 8, 8), (24, 3), 3),
                                                  ((2, 20, 8, 8), (20, 3), 5)], ids=str)
def test_grouped_gemm_bias_gradient_is_torchs(torch: Any, thread_count: int,
                                              x_shape: tuple[int, ...], out: tuple[int, int],
                                              groups: int) -> None:
    """NCHW groups of channels not whole blocks of 8: oneDNN's gemm-based backward weights
    (x64:gemm:jit), whose bias gradient sums each output row, then adds it (conv_gemm); its
    weight gradient (oneDNN's own sgemm) is not reproduced, so not compared."""
    _compare(torch, x_shape, out[0], out[1], 1, 1, groups=groups, channels_last=False,
             weight_grad=False)


@pytest.mark.parametrize("iw, ow, kw, l_pad, want", [
    (8, 8, 3, 1, [(0, ((0, 3),))]),  # exec_vpad: one call
    (6, 4, 3, 0, [(0, ((0, 3),))]),  # no padding: one call
    # the output row outgrows the input: one call per kernel column, each on its outputs
    (4, 6, 3, 2, [(0, ((2, 3),)), (1, ((1, 2), (2, 3))), (2, ((0, 1), (1, 2), (2, 3))),
                  (4, ((0, 1), (1, 2))), (5, ((0, 1),))]),
])
def test_column_calls(iw: int, ow: int, kw: int, l_pad: int, want: list[Any]) -> None:
    """ker_base's calls per run of output columns, from get_kw_range / get_ow_range."""
    assert conv_nhwc.column_calls(iw, ow, kw, 1, l_pad) == want


@pytest.mark.parametrize("x_shape, out, kernel, options", [
    ((2, 16, 5, 5), 8, 4, {"stride": 2, "padding": 1}), ((2, 16, 6, 6), 16, 3, {"padding": 1}),
    ((3, 32, 4, 4), 16, 2, {"stride": 2}),
    ((2, 8, 7, 7), 24, 3, {"stride": 2, "padding": 1, "output_padding": 1}),
    ((2, 20, 5, 6), 12, 3, {})], ids=str)
def test_channels_last_conv_transpose_is_torchs(torch: Any, thread_count: int,
                                                x_shape: tuple[int, ...], out: int, kernel: int,
                                                options: dict[str, Any]) -> None:
    """ConvTranspose2d on channels-last data: its output channels-last, the output and input
    gradient by the brgemm kernels (backward data, forward), the weight gradient by the NHWC
    weights kernel with input and output swapped, the bias as per-sample sums added in turn."""
    results = []
    for lib in (torch, gtorch):
        lib.manual_seed(0)
        layer = lib.nn.ConvTranspose2d(x_shape[1], out, kernel, **options)
        data = np.random.default_rng(sum(x_shape)).standard_normal(x_shape).astype(F32)
        x = lib.from_numpy(data).contiguous(memory_format=lib.channels_last).requires_grad_()
        y = layer(x)
        y.backward(lib.from_numpy(np.random.default_rng(3).standard_normal(
            tuple(y.shape)).astype(F32)))
        results.append(([y.detach().numpy(), x.grad.numpy(), layer.weight.grad.numpy(),
                         layer.bias.grad.numpy()], tuple(y.stride())))
    (theirs, their_strides), (ours, our_strides) = results
    assert our_strides == their_strides
    assert [int((a.view(np.uint32) != b.view(np.uint32)).sum())
            for a, b in zip(ours, theirs, strict=True)] == [0] * 4
