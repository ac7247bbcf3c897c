"""F.interpolate(..., antialias=True) against PyTorch 2.13's bits
(gradsh/engine/functions/upsampling_aa.py): bilinear and bicubic, float32 and float64, the
output and the input's gradient, shrinking and growing sizes (taps counts on both sides of the
kernel's 16-byte blocks), one dimension unchanged, fractional scale factors, align_corners,
contiguous and channels-last inputs, one and two threads; the gradient against float64 finite
differences; the node names and ATen's error texts for other dtypes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from tests.gradcheck import check_grads
from tests.test_interpolate_bits import _assert_same_bits

SPECS = [{"size": (3, 5)}, {"size": (5, 4)}, {"size": (13, 6)}, {"size": (29, 40)},
         {"size": (2, 17)}, {"scale_factor": 0.3}, {"scale_factor": (0.7, 1.9)},
         {"size": (1, 1)}]


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_antialias_bits(torch: Any, thread_count: int, mode: str, dtype: str) -> None:
    rng = np.random.default_rng(7)
    for spec in SPECS:
        for align_corners in (False, True):
            for channels_last in (False, True):
                x = rng.standard_normal((2, 3, 13, 17)).astype(dtype)
                _assert_same_bits(torch, x, channels_last, mode=mode, antialias=True,
                                  align_corners=align_corners, **spec)


def test_antialias_large_shrink_bits(torch: Any) -> None:
    """Many taps per output (a 64 -> 5 shrink: 27 of them for bicubic)."""
    x = np.random.default_rng(8).standard_normal((1, 2, 64, 48)).astype("float32")
    for mode in ("bilinear", "bicubic"):
        _assert_same_bits(torch, x, False, mode=mode, antialias=True, size=(5, 7))


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("kwargs", [{"size": (2, 3)}, {"size": (5, 7)},
                                    {"size": (2, 2), "align_corners": True}])
def test_antialias_gradient_is_the_derivative(mode: str, kwargs: dict[str, Any]) -> None:
    check_grads(lambda x: gtorch.nn.functional.interpolate(x, mode=mode, antialias=True,
                                                           **kwargs),
                np.random.default_rng(3).standard_normal((1, 2, 4, 5)))


def test_antialias_nodes_and_errors(torch: Any) -> None:
    x = np.arange(30.0).reshape(1, 1, 5, 6)
    for lib in (torch, gtorch):
        for mode, node in (("bilinear", "UpsampleBilinear2DAaBackward0"),
                           ("bicubic", "UpsampleBicubic2DAaBackward0")):
            out = lib.nn.functional.interpolate(lib.tensor(x, requires_grad=True), size=(2, 3),
                                                mode=mode, antialias=True)
            assert type(out.grad_fn).__name__ == node
    for dtype in ("int64", "float16", "bfloat16"):
        messages = []
        for lib in (torch, gtorch):
            with pytest.raises(NotImplementedError) as caught:
                lib.nn.functional.interpolate(lib.ones((1, 1, 4, 4), dtype=getattr(lib, dtype)),
                                              size=(2, 3), mode="bilinear", antialias=True)
            messages.append(str(caught.value))
        assert messages[0] == messages[1]
