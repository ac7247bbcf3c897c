"""float64 convolutions against PyTorch's bits at one and two threads: oneDNN has no float64,
so PyTorch runs slow_conv2d (ConvolutionMM2d.cpp) forward and backward, per group on
contiguous subtensors: im2col columns and MKL's dgemm per sample on 64-byte aligned batch
buffers (vecmath/conv_slow.py; the sample offsets change MKL's path), col2im for the input
gradient, the weight gradient accumulated over the samples, at::sum for the bias; and a
finite-difference check of the gradients."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import blas

pytestmark = pytest.mark.skipif(not blas.available(), reason="float64 convolution is MKL's "
                                "dgemm; MKL is not loaded here")

# (x shape, weight shape, padding, stride, groups, bias); 3-D shapes are conv1d's
CASES = [((1, 3, 8, 8), (4, 3, 3, 3), 1, 1, 1, True), ((2, 5, 9, 9), (6, 5, 3, 3), 0, 2, 1, True),
         ((3, 4, 7, 7), (8, 4, 5, 5), 2, 1, 1, False), ((2, 16, 6, 6), (8, 16, 1, 1), 0, 1, 1, True),
         ((2, 20, 9, 9), (17, 20, 5, 5), 2, 2, 1, True),  # second sample's output misaligned
         ((2, 4, 8, 8), (4, 2, 3, 3), 1, 1, 2, True), ((2, 6, 7, 9), (9, 2, 3, 3), 1, 2, 3, True),
         ((2, 4, 8, 8), (4, 1, 3, 3), 1, 1, 4, False), ((4, 1, 12, 12), (6, 1, 5, 5), 0, 1, 1, True),
         ((3, 4, 20), (6, 4, 3), 1, 1, 1, True), ((2, 6, 15), (6, 3, 5), 2, 2, 2, True)]


def _run(lib: Any, case: tuple[Any, ...]) -> list[np.ndarray]:
    x_shape, w_shape, padding, stride, groups, bias = case
    rng = np.random.default_rng(sum(x_shape) + sum(w_shape))
    arrays = [rng.standard_normal(s) for s in (x_shape, w_shape, w_shape[:1])]
    x, w, b = (lib.tensor(a, requires_grad=True) for a in arrays)
    conv = lib.nn.functional.conv1d if len(x_shape) == 3 else lib.nn.functional.conv2d
    y = conv(x, w, b if bias else None, stride=stride, padding=padding, groups=groups)
    y.backward(lib.tensor(np.random.default_rng(1).standard_normal(tuple(y.shape))))
    return [y.detach().numpy(), x.grad.numpy(), w.grad.numpy()] + ([b.grad.numpy()] if bias
                                                                   else [])


@pytest.mark.parametrize("case", CASES, ids=str)
def test_float64_convolution_is_slow_conv2ds(torch: Any, thread_count: int,
                                             case: tuple[Any, ...]) -> None:
    for ours, theirs in zip(_run(gtorch, case), _run(torch, case), strict=True):
        assert ours.shape == theirs.shape
        np.testing.assert_array_equal(ours.view(np.uint64), theirs.view(np.uint64))


@pytest.mark.parametrize("groups", [1, 2])
def test_float64_convolution_gradcheck(groups: int) -> None:
    """The gradients against finite differences (gradsh's own gradcheck)."""
    rng = np.random.default_rng(groups)
    x, w, b = (gtorch.tensor(rng.standard_normal(s), requires_grad=True)
               for s in ((2, 4, 5, 5), (4, 4 // groups, 3, 3), (4,)))
    assert gtorch.autograd.gradcheck(
        lambda x, w, b: gtorch.nn.functional.conv2d(x, w, b, padding=1, stride=2,
                                                    groups=groups), (x, w, b))
