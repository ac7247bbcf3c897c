"""F.interpolate's linear, bilinear, bicubic and 3-D modes against PyTorch 2.13's bits
(gradsh/engine/functions/upsampling.py, upsampling_cubic.py, upsampling3d.py): the output
and the input's gradient for float32 and float64, 1 to 40 channels (the channels-last
kernel's vectorised and scalar channels), contiguous and channels-last inputs, output sizes on
both sides of the kernel choice (height + width <= 128), fractional and integer scales,
align_corners, one and two threads; trilinear, nearest and area on 5-D inputs; bicubic's and
trilinear's gradients against float64 finite differences; ATen's error texts for integer
inputs and empty outputs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from tests.gradcheck import check_grads

SPECS = [{"size": (30, 31)}, {"size": (70, 70)}, {"size": (7, 5)}, {"scale_factor": 2},
         {"scale_factor": 0.5}, {"scale_factor": (1.7, 2.3)}]
CHANNELS = [1, 3, 5, 20, 40]


def _run(lib: Any, x: np.ndarray, grad_seed: int, channels_last: bool,
         **kwargs: Any) -> list[np.ndarray]:
    leaf = lib.tensor(x, requires_grad=True)
    layout = lib.channels_last if x.ndim == 4 else lib.channels_last_3d
    source = leaf.contiguous(memory_format=layout) if channels_last else leaf
    out = lib.nn.functional.interpolate(source, **kwargs)
    grad = np.random.default_rng(grad_seed).standard_normal(tuple(out.shape)).astype(x.dtype)
    out.backward(lib.tensor(grad))
    return [out.detach().numpy(), leaf.grad.numpy()]


def _assert_same_bits(torch: Any, x: np.ndarray, channels_last: bool, **kwargs: Any) -> None:
    theirs = _run(torch, x, 1, channels_last, **kwargs)
    ours = _run(gtorch, x, 1, channels_last, **kwargs)
    for what, a, b in zip(("output", "grad"), ours, theirs):
        assert a.shape == b.shape, what
        assert (a == b).all(), f"{what}: {int((a != b).sum())} of {a.size} differ"


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("channels", CHANNELS)
def test_2d_modes_bits(torch: Any, thread_count: int, mode: str, dtype: str,
                       channels: int) -> None:
    rng = np.random.default_rng(channels)
    for spec in SPECS:
        for align_corners in (False, True):
            for channels_last in (False, True):
                x = rng.standard_normal((2, channels, 13, 17)).astype(dtype)
                _assert_same_bits(torch, x, channels_last, mode=mode,
                                  align_corners=align_corners, **spec)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linear_bits(torch: Any, thread_count: int, dtype: str) -> None:
    rng = np.random.default_rng(5)
    for size in (31, 70, 100, 5):
        for align_corners in (False, True):
            x = rng.standard_normal((2, 7, 17)).astype(dtype)
            _assert_same_bits(torch, x, False, size=size, mode="linear",
                              align_corners=align_corners)


def test_double_source_index_goes_through_floorf(torch: Any) -> None:
    """A 17 -> 31 resize puts output 15 at 7.999999999999999 in double; ATen's floorf sees 8,
    so the output is exactly input 8."""
    x = np.zeros((1, 1, 1, 17))
    x[..., 8], x[..., 9] = 1.0, 1000.0
    out = gtorch.nn.functional.interpolate(gtorch.tensor(x), size=(1, 31), mode="bilinear")
    assert out.numpy()[0, 0, 0, 15] == 1.0
    assert out.numpy()[0, 0, 0, 15] == torch.nn.functional.interpolate(
        torch.tensor(x), size=(1, 31), mode="bilinear").numpy()[0, 0, 0, 15]


@pytest.mark.parametrize("kwargs", [{"size": (5, 4)}, {"scale_factor": 2},
                                    {"size": (2, 3), "align_corners": True}])
def test_bicubic_gradient_is_the_derivative(kwargs: dict[str, Any]) -> None:
    check_grads(lambda x: gtorch.nn.functional.interpolate(x, mode="bicubic", **kwargs),
                np.random.default_rng(2).standard_normal((1, 2, 3, 4)))


def test_bicubic_node_and_module(torch: Any) -> None:
    x = np.arange(16.0).reshape(1, 1, 4, 4)
    for lib in (torch, gtorch):
        up = lib.nn.Upsample(scale_factor=2, mode="bicubic")
        out = up(lib.tensor(x, requires_grad=True))
        assert type(out.grad_fn).__name__ == "UpsampleBicubic2DBackward0"
    np.testing.assert_array_equal(
        gtorch.nn.Upsample(scale_factor=2, mode="bicubic")(gtorch.tensor(x)).numpy(),
        torch.nn.Upsample(scale_factor=2, mode="bicubic")(torch.tensor(x)).numpy())


@pytest.mark.parametrize(("shape", "size", "mode"), [
    ((1, 1, 4, 4), (100, 100), "bilinear"), ((1, 1, 4, 4), (10, 10), "bilinear"),
    ((1, 1, 4), (10,), "linear"), ((1, 1, 4, 4), (10, 10), "bicubic"),
    ((1, 1, 2, 2, 2), (3, 2, 2), "nearest"), ((1, 1, 2, 2), (3, 2), "nearest-exact"),
    ((1, 1, 2, 2), (300, 2), "nearest"), ((1, 1, 2, 2, 2), (3, 2, 2), "trilinear")])
def test_integer_input_errors(torch: Any, shape: tuple[int, ...], size: tuple[int, ...],
                              mode: str) -> None:
    messages = []
    for lib in (torch, gtorch):
        with pytest.raises(NotImplementedError) as caught:
            lib.nn.functional.interpolate(lib.ones(shape, dtype=lib.int32), size=size,
                                          mode=mode)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("mode", ["trilinear", "nearest", "nearest-exact", "area"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_3d_modes_bits(torch: Any, thread_count: int, mode: str, dtype: str) -> None:
    """5-D inputs: upsample_trilinear3d (its channels-last kernel from 4 channels in
    channels_last_3d memory, the generic one otherwise), upsample_nearest3d, the exact variant
    and adaptive_avg_pool3d for "area"."""
    rng = np.random.default_rng(len(mode))
    for channels in (1, 5, 12):
        for spec in ({"size": (7, 9, 11)}, {"scale_factor": 2}, {"scale_factor": 0.5},
                     {"scale_factor": (1.5, 0.7, 2.3)}):
            for align_corners in ((False, True) if mode == "trilinear" else (None,)):
                for channels_last in (False, True):
                    x = rng.standard_normal((2, channels, 5, 6, 7)).astype(dtype)
                    kwargs = dict(spec, mode=mode)
                    if align_corners is not None:
                        kwargs["align_corners"] = align_corners
                    _assert_same_bits(torch, x, channels_last, **kwargs)


def test_trilinear_gradient_is_the_derivative() -> None:
    check_grads(lambda x: gtorch.nn.functional.interpolate(x, size=(3, 2, 4), mode="trilinear"),
                np.random.default_rng(4).standard_normal((1, 2, 2, 3, 2)))


@pytest.mark.parametrize(("shape", "size", "mode"), [
    ((1, 1, 4), (0,), "nearest"), ((1, 1, 3, 4), (0, 2), "nearest"),
    ((1, 1, 2, 3, 4), (2, 0, 1), "trilinear")])
def test_empty_output_errors(torch: Any, shape: tuple[int, ...], size: tuple[int, ...],
                             mode: str) -> None:
    messages = []
    for lib in (torch, gtorch):
        with pytest.raises(RuntimeError) as caught:
            lib.nn.functional.interpolate(lib.ones(shape), size=size, mode=mode)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
