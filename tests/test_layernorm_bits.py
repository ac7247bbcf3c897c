"""Layer norm in float32 and float64 against PyTorch 2.13's bits
(gradsh/engine/vecmath/layernorm.py): the saved mean and rstd (RowwiseMoments' vectorised
Welford cascade), the output and the three gradients of ATen's kernel for rows of every length
from 1 to 40 and longer ones, with and without affine parameters, one and two threads; and an
nn.LayerNorm model trained for several steps keeps every parameter's bits."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import layernorm

F32 = np.float32


def _same(ours: Any, theirs: Any) -> bool:
    a = np.ascontiguousarray(np.asarray(ours, F32))
    b = np.ascontiguousarray(np.asarray(theirs, F32))
    return a.shape == b.shape and bool((a.view(np.uint32) == b.view(np.uint32)).all())


@pytest.mark.parametrize("size", list(range(1, 41)) + [64, 127, 129, 384, 1000, 2177])
def test_kernel_against_aten(torch: Any, thread_count: int, size: int) -> None:
    rng = np.random.default_rng(size)
    rows = int(rng.integers(1, 9))
    x = (rng.standard_normal((rows, size)) * np.exp(rng.standard_normal()) + 0.3).astype(F32)
    g, b = rng.standard_normal(size).astype(F32), rng.standard_normal(size).astype(F32)
    dy = rng.standard_normal((rows, size)).astype(F32)
    for affine in (False, True):
        weight, bias = (g, b) if affine else (None, None)

        def t(a: np.ndarray | None) -> Any:
            return None if a is None else torch.from_numpy(a)

        y, mean, rstd = torch.native_layer_norm(t(x), (size,), t(weight), t(bias), 1e-5)
        gx, gw, gb = torch.ops.aten.native_layer_norm_backward(
            t(dy), t(x), (size,), mean, rstd, t(weight), t(bias), [True, affine, affine])
        ours = layernorm.forward(x, weight, bias, 1e-5)
        assert _same(ours[0], y)
        assert _same(ours[1], mean.reshape(-1)) and _same(ours[2], rstd.reshape(-1))
        dx, dw, db = layernorm.backward(dy, x, ours[1], ours[2], weight, thread_count)
        assert _same(dx, gx)
        if affine:
            assert _same(dw, gw) and _same(db, gb)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_affine_gradients_of_many_rows_against_aten(torch: Any, thread_count: int,
                                                    dtype: type) -> None:
    """dgamma and dbeta summed over 3,000 rows (a transformer's batch x sequence), one column
    of dy all -0.0 and one with an infinity: ATen's row-after-row sums, bit for bit."""
    rng = np.random.default_rng(5)
    rows, size = 3000, 24
    x = (rng.standard_normal((rows, size)) * 3 + 1).astype(dtype)
    dy = rng.standard_normal((rows, size)).astype(dtype)
    dy[:, 0] = -0.0
    dy[7, 1] = np.inf
    weight, bias = rng.standard_normal(size).astype(dtype), rng.standard_normal(size).astype(dtype)
    _, mean, rstd = torch.native_layer_norm(torch.from_numpy(x), (size,), torch.from_numpy(weight),
                                            torch.from_numpy(bias), 1e-5)
    _, gw, gb = torch.ops.aten.native_layer_norm_backward(
        torch.from_numpy(dy), torch.from_numpy(x), (size,), mean, rstd, torch.from_numpy(weight),
        torch.from_numpy(bias), [True, True, True])
    ours = layernorm.forward(x, weight, bias, 1e-5)
    _, dw, db = layernorm.backward(dy, x, ours[1], ours[2], weight, thread_count)
    for a, b in ((dw, gw.numpy()), (db, gb.numpy())):
        assert a.dtype == b.dtype and np.array_equal(a.view(np.uint8), b.view(np.uint8))


_TRAINING = """
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(12, 24), torch.nn.LayerNorm(24), torch.nn.ReLU(),
                            torch.nn.Linear(24, 4))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
X, y = torch.randn(16, 12), torch.randint(0, 4, (16,))
losses = []
for step in range(10):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
norm = torch.nn.functional.layer_norm(torch.randn(3, 5, 7), (5, 7))
result = (losses, norm.numpy().copy(), [p.detach().numpy().copy() for p in model.parameters()])
"""


def test_layernorm_model_trains_as_torch(torch: Any, one_thread: None) -> None:
    """nn.LayerNorm between Linear layers, 10 Adam steps: losses and parameters bit for bit;
    and a layer norm over the last two dims."""
    results = []
    for module in (torch, gtorch):
        scope: dict[str, Any] = {"torch": module}
        exec(_TRAINING, scope)
        results.append(scope["result"])
    (their_losses, their_norm, theirs), (our_losses, our_norm, ours) = results
    assert our_losses == their_losses
    assert _same(our_norm, their_norm)
    for mine, reference in zip(ours, theirs, strict=True):
        assert _same(mine, reference)


def test_layernorm_of_a_transposed_input_is_torchs(torch: Any, one_thread: None) -> None:
    """ATen's layer_norm runs its kernel on input.expect_contiguous(): a transposed (B, L, D)
    input (a Conv1d's output .transpose(1, 2) plus a residual) gives the kernel's bits, and so
    do its three gradients."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 512, 5)).astype(F32)
    r = rng.standard_normal((2, 5, 512)).astype(F32)
    g, b = rng.standard_normal(512).astype(F32), rng.standard_normal(512).astype(F32)
    dy = rng.standard_normal((2, 5, 512)).astype(F32)
    results = []
    for module in (torch, gtorch):
        weight, bias = (module.from_numpy(p.copy()).requires_grad_() for p in (g, b))
        x = module.from_numpy(a.copy()).requires_grad_()
        s = x.transpose(1, 2) + module.from_numpy(r)
        assert not s.is_contiguous()
        y = module.nn.functional.layer_norm(s, (512,), weight, bias)
        y.backward(module.from_numpy(dy))
        results.append([y.detach().numpy(), x.grad.numpy(), weight.grad.numpy(),
                        bias.grad.numpy()])
    for theirs, ours in zip(*results, strict=True):
        assert _same(ours, theirs)


@pytest.mark.parametrize("size", list(range(1, 18)) + [33, 64, 127, 300, 1000])
def test_float64_layer_norm_bits(torch: Any, thread_count: int, size: int) -> None:
    """float64 takes the float kernel's steps on 4-double vectors (RowwiseMoments' Welford
    cascade, the fused output); its backward's row sums fold the lanes left to right. The
    output, the saved statistics and the three gradients, with and without affine
    parameters, through F.layer_norm."""
    rng = np.random.default_rng(size + 100)
    rows = int(rng.integers(1, 9))
    x = rng.standard_normal((rows, size)) * np.exp(rng.standard_normal()) + 0.3
    w, b = rng.standard_normal(size), rng.standard_normal(size)
    dy = rng.standard_normal((rows, size))
    y, mean, rstd = torch.native_layer_norm(torch.from_numpy(x), (size,), torch.from_numpy(w),
                                            torch.from_numpy(b), 1e-5)
    ours = layernorm.forward(x, w, b, 1e-5)
    assert (ours[0] == y.numpy()).all()
    assert (ours[1] == mean.numpy().reshape(-1)).all()
    assert (ours[2] == rstd.numpy().reshape(-1)).all()
    for affine in (False, True):
        results = []
        for module in (torch, gtorch):
            leaf = module.from_numpy(x.copy()).requires_grad_()
            params = [module.from_numpy(p.copy()).requires_grad_() for p in (w, b)]
            out = module.nn.functional.layer_norm(leaf, (size,), *(params if affine else ()))
            out.backward(module.from_numpy(dy))
            results.append([out.detach().numpy(), leaf.grad.numpy()]
                           + ([p.grad.numpy() for p in params] if affine else []))
        for theirs, mine in zip(*results, strict=True):
            assert (mine == theirs).all()
