"""F.linear's three paths against PyTorch: addmm for a 2-D input, a flattened addmm for a
contiguous input whose bias is "likely fusable" (contiguous, one dimension once squeezed), and
matmul followed by an in-place add otherwise. The path shows in the result's grad_fn
(AddmmBackward0, ViewBackward0, AddBackward0), in which biases type-promote (a 0-dim integer
bias is added in place: F.linear(x, w, torch.tensor(0)) from "Deep Learning with PyTorch
Step-by-Step", chapter 6) and in which shapes are refused."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _data(lib: Any, shape: tuple[int, ...], seed: int) -> Any:
    return lib.tensor(np.asarray(np.random.RandomState(seed).randn(*shape), np.float32))


CASES = {
    "1d_input_1d_weight_int_scalar_bias": ((11,), (11,), "int0"),
    "1d_input_float_scalar_bias": ((4,), (5, 4), ()),
    "1d_input_1d_weight_1d_bias": ((4,), (4,), (1,)),
    "3d_input_scalar_bias": ((2, 3, 4), (5, 4), ()),
    "3d_input_row_bias": ((2, 3, 4), (5, 4), (5,)),
    "3d_input_unsqueezed_row_bias": ((2, 3, 4), (5, 4), (1, 5)),
    "3d_input_matrix_bias": ((2, 3, 4), (5, 4), (3, 5)),
    "4d_input_scalar_bias": ((2, 2, 3, 4), (5, 4), ()),
    "4d_input_row_bias": ((2, 2, 3, 4), (5, 4), (5,)),
    "transposed_3d_input_row_bias": ("t", (5, 4), (5,)),
}


def _run(lib: Any, case: str) -> tuple[Any, Any]:
    shape, wshape, bshape = CASES[case]
    if shape == "t":
        x = _data(lib, (3, 2, 4), 0).transpose(0, 1).requires_grad_()
    else:
        x = _data(lib, shape, 0).requires_grad_()
    w = _data(lib, wshape, 1).requires_grad_()
    b = lib.tensor(0) if bshape == "int0" else _data(lib, bshape, 2).requires_grad_()
    try:
        out = lib.nn.functional.linear(x, w, b)
    except RuntimeError as exc:
        return ("error", str(exc)), None
    out.sum().backward()
    grads = [t.grad.numpy() if t.grad is not None else None for t in (x, w, b)]
    return (type(out.grad_fn).__name__, out.dtype, tuple(out.shape)), (out.detach().numpy(), grads)


@pytest.mark.parametrize("case", list(CASES))
def test_linear_path_matches_torch(torch: Any, case: str) -> None:
    got_meta, got = _run(gtorch, case)
    want_meta, want = _run(torch, case)
    assert str(got_meta) == str(want_meta)
    if want is None:
        return
    np.testing.assert_array_equal(got[0], want[0])
    for g, w in zip(got[1], want[1]):
        if w is None:
            assert g is None
        else:
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def test_linear_scalar_bias_gradient_by_finite_differences() -> None:
    """The in-place add's backward sums the whole output into a 0-dim bias."""
    x = gtorch.randn(2, 2, 3, 4, dtype=gtorch.float64)
    w = gtorch.randn(5, 4, dtype=gtorch.float64)
    b = gtorch.tensor(0.5, dtype=gtorch.float64, requires_grad=True)
    gtorch.nn.functional.linear(x, w, b).pow(2).sum().backward()
    eps = 1e-6

    def f(v: float) -> float:
        return float(gtorch.nn.functional.linear(x, w, gtorch.tensor(v, dtype=gtorch.float64))
                     .pow(2).sum())
    numeric = (f(0.5 + eps) - f(0.5 - eps)) / (2 * eps)
    assert abs(float(b.grad) - numeric) < 1e-5 * max(1.0, abs(numeric))
