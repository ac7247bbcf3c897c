"""float16 and bfloat16 layer norm and batch norm, bit for bit against PyTorch: the layer norm
kernel's RowwiseMoments on the converted rows (vecmath/layernorm.moments, halves=2) and its
fma(fma(x, rstd, -rstd * mean), gamma, beta); batch norm's bfloat16 statistics (the sum of
squares and the variance rounded to bfloat16) and its x * alpha + beta in training."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def _run(lib: Any, dtype: str, param_dtype: str, shape: tuple[int, ...], seed: int,
         layer: bool) -> list[np.ndarray]:
    lib.manual_seed(seed)
    x = (lib.randn(*shape) * 2 + 0.5).to(getattr(lib, dtype)).requires_grad_()
    features = (shape[-1],) if layer else (shape[1],)
    w = lib.randn(*features).to(getattr(lib, param_dtype)).requires_grad_()
    b = lib.randn(*features).to(getattr(lib, param_dtype)).requires_grad_()
    g = lib.randn(*shape).to(getattr(lib, dtype))
    if layer:
        y = lib.nn.functional.layer_norm(x, features, w, b)
    else:
        y = lib.nn.functional.batch_norm(x, None, None, w, b, training=True)
    y.backward(g)
    return [t.detach().float().numpy() for t in (y, x.grad, w.grad, b.grad)]


def _mismatches(torch: Any, dtype: str, param_dtype: str, shapes: list[tuple[int, ...]],
                layer: bool) -> list[int]:
    counts = [0, 0, 0, 0]
    for shape in shapes:
        for seed in range(2):
            theirs = _run(torch, dtype, param_dtype, shape, seed, layer)
            ours = _run(gtorch, dtype, param_dtype, shape, seed, layer)
            for k, (a, o) in enumerate(zip(theirs, ours, strict=True)):
                counts[k] += int((a.view(np.uint32) != o.view(np.uint32)).sum())
    return counts


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_layer_norm_output_and_parameter_gradients(torch: Any, thread_count: int,
                                                   dtype: str) -> None:
    for param_dtype in (dtype, "float32"):
        y, _, dw, db = _mismatches(torch, dtype, param_dtype,
                                   [(4, 7, 32), (3, 5, 8, 8), (2, 9, 100), (33, 200), (5, 3, 7)],
                                   layer=True)
        assert (y, dw, db) == (0, 0, 0), param_dtype


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_layer_norm_saved_statistics(torch: Any, dtype: str) -> None:
    """The kernel's mean and rstd (rounded to the input's dtype, as it saves them)."""
    from gradsh.engine.vecmath import layernorm

    for size in (5, 16, 40, 100, 257, 3000):
        torch.manual_seed(size)
        x = (torch.randn(12, size) * 3 + 1).to(getattr(torch, dtype))
        _, mean, rstd = torch.native_layer_norm(x, (size,), None, None, 1e-5)
        m, v = layernorm.moments(x.float().numpy(), halves=2)
        r = np.float32(1) / np.sqrt(v + np.float32(1e-5))
        assert torch.equal(torch.from_numpy(m).to(x.dtype), mean.reshape(-1))
        assert torch.equal(torch.from_numpy(r).to(x.dtype), rstd.reshape(-1))


def test_bfloat16_batch_norm_training(torch: Any, thread_count: int) -> None:
    y, dx, dw, db = _mismatches(torch, "bfloat16", "bfloat16",
                                [(8, 6, 5, 5), (32, 12), (4, 3, 100), (5, 40), (7, 33)],
                                layer=False)
    assert (y, dw, db) == (0, 0, 0)
    assert dx <= 2  # (of 7,000: the input gradient's last rounding, not emulated)
