"""F.interpolate (nearest, nearest-exact, linear, bilinear, area), nn.Upsample and
pixel_shuffle against PyTorch: values and gradients bit for bit (ATen's float weights, fused
multiply-adds and accumulation order), grad_fn names, reprs; gradients against float64 finite
differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from tests.gradcheck import check_grads
from tests.nn_parity import run_layer

r = np.random.default_rng(11)


def rn(*s: int) -> np.ndarray:
    return r.standard_normal(s).astype(np.float32)


CASES: dict[str, tuple[tuple[int, ...], dict[str, Any]]] = {
    "nearest_x2": ((2, 3, 5, 7), {"scale_factor": 2}),
    "nearest_x3": ((2, 3, 5, 7), {"scale_factor": 3}),
    "nearest_x1.7": ((2, 3, 5, 7), {"scale_factor": 1.7}),
    "nearest_size": ((2, 3, 5, 7), {"size": (7, 11)}),
    "nearest_down": ((2, 3, 5, 7), {"size": (3, 4)}),
    "nearest_exact": ((2, 3, 5, 7), {"size": (8, 9), "mode": "nearest-exact"}),
    "bilinear_x2": ((2, 3, 5, 7), {"scale_factor": 2, "mode": "bilinear"}),
    "bilinear_size": ((2, 3, 5, 7), {"size": (9, 13), "mode": "bilinear"}),
    "bilinear_corners": ((2, 3, 5, 7), {"size": (9, 13), "mode": "bilinear",
                                        "align_corners": True}),
    "bilinear_pair": ((2, 3, 5, 7), {"scale_factor": (1.5, 0.7), "mode": "bilinear"}),
    "bilinear_down": ((2, 3, 5, 7), {"size": (3, 4), "mode": "bilinear"}),
    "bilinear_recompute": ((2, 3, 5, 7), {"scale_factor": 2.5, "mode": "bilinear",
                                          "recompute_scale_factor": True}),
    "nearest_1d": ((2, 3, 6), {"scale_factor": 2}),
    "nearest_exact_1d": ((2, 3, 6), {"size": 4, "mode": "nearest-exact"}),
    "linear_1d": ((2, 3, 6), {"size": 11, "mode": "linear"}),
    "linear_1d_corners": ((2, 3, 6), {"scale_factor": 1.3, "mode": "linear",
                                      "align_corners": True}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_interpolate_matches_torch_bit_for_bit(torch: Any, name: str) -> None:
    shape, kwargs = CASES[name]
    data = rn(*shape)
    seen = []
    for t in (torch, gtorch):
        x = t.from_numpy(data.copy()).requires_grad_()
        y = t.nn.functional.interpolate(x, **kwargs)
        upstream = np.random.default_rng(1).standard_normal(tuple(y.shape)).astype(np.float32)
        y.backward(t.from_numpy(upstream))
        seen.append((y.grad_fn.name(), y.detach().numpy(), x.grad.numpy(),
                     y.detach().is_contiguous()))
    (t_name, t_y, t_g, t_c), (g_name, g_y, g_g, g_c) = seen
    assert (g_name, g_c) == (t_name, t_c)
    np.testing.assert_array_equal(g_y, t_y)
    np.testing.assert_array_equal(g_g, t_g)


@pytest.mark.parametrize("kwargs", [{"scale_factor": 2}, {"size": (4, 5), "mode": "bilinear"},
                                    {"size": (4, 5), "mode": "bilinear",
                                     "align_corners": True},
                                    {"size": 5, "mode": "linear"}])
def test_interpolate_gradients_are_the_derivative(kwargs: dict[str, Any]) -> None:
    shape = (1, 2, 3) if kwargs.get("mode") == "linear" else (1, 2, 3, 2)
    check_grads(lambda x: gtorch.nn.functional.interpolate(x, **kwargs),
                r.standard_normal(shape))


MODULES: dict[str, tuple[Any, list[np.ndarray]]] = {
    "upsample_bilinear": (lambda t: t.nn.Upsample(scale_factor=2, mode="bilinear"),
                          [rn(1, 2, 3, 4)]),
    "upsample_size": (lambda t: t.nn.Upsample(size=(3, 5)), [rn(1, 2, 3, 4)]),
    "upsampling_nearest2d": (lambda t: t.nn.UpsamplingNearest2d(scale_factor=2),
                             [rn(1, 2, 3, 4)]),
    "upsampling_bilinear2d": (lambda t: t.nn.UpsamplingBilinear2d(size=5), [rn(1, 2, 3, 4)]),
    "pixel_shuffle": (lambda t: t.nn.PixelShuffle(2), [rn(2, 8, 3, 4)]),
    "pixel_unshuffle": (lambda t: t.nn.PixelUnshuffle(2), [rn(2, 2, 4, 6)]),
    "pixel_shuffle_5d": (lambda t: t.nn.PixelShuffle(3), [rn(2, 2, 9, 2, 3)]),
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_resampling_modules_match_torch(torch: Any, name: str) -> None:
    build, inputs = MODULES[name]
    run_layer(torch, build, inputs, rtol=0, atol=0)


@pytest.mark.parametrize("call", [
    lambda F, x: F.interpolate(x, scale_factor=2, align_corners=True),
    lambda F, x: F.interpolate(x, size=3, scale_factor=2),
    lambda F, x: F.interpolate(x),
    lambda F, x: F.interpolate(x, size=(2, 2, 2)),
    lambda F, x: F.interpolate(x, scale_factor=2, mode="linear"),
    lambda F, x: F.pixel_shuffle(x, 2),
    lambda F, x: F.pixel_unshuffle(x, 2),
])
def test_resampling_errors_match_torch(torch: Any, call: Any) -> None:
    data = rn(1, 3, 3, 3)
    caught = []
    for t in (torch, gtorch):
        with pytest.raises(Exception) as info:
            call(t.nn.functional, t.from_numpy(data.copy()))
        caught.append((type(info.value).__name__, str(info.value)))
    assert caught[1] == caught[0]
