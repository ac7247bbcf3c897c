"""conv_transpose1d/2d on float64 against PyTorch 2.13's bits
(gradsh/engine/vecmath/conv_transpose_slow.py: slow_conv_transpose2d's gemm and col2im,
im2col and gemm backward): the output and the input, weight and bias gradients for strides,
padding, output_padding, dilation, a 1x1 kernel (no im2col), with and without bias, one and
two threads; the gradient against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from tests.gradcheck import check_grads

CASES = [(3, 4, 3, 2, 0, 0, 1, True), (3, 4, 3, 1, 1, 0, 1, False),
         (2, 2, 2, 2, 0, 0, 1, True), (3, 4, 3, 2, 1, 1, 1, True), (5, 3, 1, 1, 0, 0, 1, True),
         (2, 3, 3, 1, 2, 0, 2, True), (2, 3, 4, 3, 1, 2, 1, True)]


def _run(lib: Any, x: np.ndarray, w: np.ndarray, b: np.ndarray | None, g: np.ndarray | None,
         **kwargs: Any) -> list[np.ndarray]:
    leaves = [lib.tensor(a, requires_grad=True) for a in (x, w) + ((b,) if b is not None else ())]
    conv = (lib.nn.functional.conv_transpose1d if x.ndim == 3
            else lib.nn.functional.conv_transpose2d)
    out = conv(leaves[0], leaves[1], leaves[2] if b is not None else None, **kwargs)
    out.backward(lib.tensor(g) if g is not None else lib.ones_like(out))
    return [out.detach().numpy()] + [leaf.grad.numpy() for leaf in leaves]


@pytest.mark.parametrize("case", CASES)
def test_conv_transpose2d_float64_bits(torch: Any, thread_count: int,
                                       case: tuple[Any, ...]) -> None:
    c_in, c_out, k, stride, pad, out_pad, dilation, bias = case
    rng = np.random.default_rng(k * 10 + stride)
    x = rng.standard_normal((2, c_in, 9, 11))
    w = rng.standard_normal((c_in, c_out, k, k))
    b = rng.standard_normal(c_out) if bias else None
    kwargs = {"stride": stride, "padding": pad, "output_padding": out_pad,
              "dilation": dilation}
    shape = tuple(torch.nn.functional.conv_transpose2d(torch.tensor(x), torch.tensor(w),
                                                       **kwargs).shape)
    g = rng.standard_normal(shape)
    theirs, ours = _run(torch, x, w, b, g, **kwargs), _run(gtorch, x, w, b, g, **kwargs)
    for what, a, c in zip(("output", "input grad", "weight grad", "bias grad"), ours, theirs):
        assert (a == c).all(), f"{what}: {int((a != c).sum())} of {a.size} differ"


def test_conv_transpose1d_float64_bits(torch: Any) -> None:
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((3, 2, 11)), rng.standard_normal((2, 3, 4))
    theirs = _run(torch, x, w, None, None, stride=2, padding=1)
    ours = _run(gtorch, x, w, None, None, stride=2, padding=1)
    for a, c in zip(ours, theirs):
        assert (a == c).all()


def test_conv_transpose2d_float64_gradient_is_the_derivative() -> None:
    rng = np.random.default_rng(6)
    check_grads(lambda x, w: gtorch.nn.functional.conv_transpose2d(x, w, stride=2, padding=1),
                rng.standard_normal((1, 2, 3, 4)), rng.standard_normal((2, 2, 3, 3)))
