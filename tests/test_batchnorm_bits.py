"""Batch norm in float32 against PyTorch 2.13's bits (gradsh/engine/vecmath/batchnorm.py): the
output, the saved and running statistics and the three gradients of ATen's kernels, in training
and evaluation, for (N, C) inputs (the channels-last kernels) and (N, C, ...) ones, with and
without affine parameters, one and two threads; and BatchNorm layers trained for several steps
keep every parameter's bits."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import batchnorm

F32 = np.float32


def _differ(ours: Any, theirs: Any) -> int:
    a = np.ascontiguousarray(np.asarray(ours, F32)).view(np.uint32)
    b = np.ascontiguousarray(np.asarray(theirs, F32)).view(np.uint32)
    assert a.shape == b.shape
    return int((a != b).sum())


def _shapes(seed: int, count: int) -> list[tuple[int, ...]]:
    rng = np.random.default_rng(seed)
    shapes = [(64, 10), (7, 3), (5, 24), (2, 17), (16, 8, 5), (1, 5, 9), (4, 3, 17),
              (8, 4, 6, 6), (3, 9, 1, 1), (2, 3, 2, 3, 4)]
    for _ in range(count):
        rank = int(rng.integers(2, 6))
        shape = [int(rng.integers(1, 9)), int(rng.integers(1, 20))]
        shape += [int(rng.integers(1, 8)) for _ in range(rank - 2)]
        shape[0] = max(shape[0], 2)
        shapes.append(tuple(shape))
    return shapes


@pytest.mark.parametrize("shape", _shapes(3, 14), ids=str)
def test_kernels_against_aten(torch: Any, thread_count: int, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(sum(shape) + thread_count)
    x = (rng.standard_normal(shape) * np.exp(rng.standard_normal() * 2) + 1).astype(F32)
    c = shape[1]
    w, b = rng.standard_normal(c).astype(F32), rng.standard_normal(c).astype(F32)
    rm, rv = rng.standard_normal(c).astype(F32), (rng.random(c) + 0.5).astype(F32)
    dy = rng.standard_normal(shape).astype(F32)
    for train in (True, False):
        for affine in (True, False):
            weight, bias = (w, b) if affine else (None, None)

            def t(a: np.ndarray | None) -> Any:
                return None if a is None else torch.from_numpy(a.copy())

            t_rm, t_rv = t(rm), t(rv)
            out, s_mean, s_invstd = torch.native_batch_norm(
                t(x), t(weight), t(bias), t_rm, t_rv, train, 0.1, 1e-5)
            gi, gw, gb = torch.ops.aten.native_batch_norm_backward(
                t(dy), t(x), t(weight), t(rm) if train else t_rm, t(rv) if train else t_rv,
                s_mean, s_invstd, train, 1e-5, [True, affine, affine])
            g_rm, g_rv = rm.copy(), rv.copy()
            if train:
                mean, invstd = batchnorm.update_stats(x, g_rm, g_rv, 0.1, 1e-5, thread_count)
                assert _differ(mean, s_mean) == _differ(invstd, s_invstd) == 0
                assert _differ(g_rm, t_rm) == _differ(g_rv, t_rv) == 0
                y = batchnorm.transform(x, weight, bias, mean, invstd)
            else:
                y = batchnorm.transform(x, weight, bias, rm, batchnorm.eval_invstd(rv, 1e-5))
                mean = rm
                invstd = (1 / np.sqrt(rv.astype(np.float64) + 1e-5)).astype(F32)
            gx, gww, gbb = batchnorm.backward(dy, x, weight, mean, invstd, train, thread_count)
            assert _differ(y, out) == 0, (train, affine)
            assert _differ(gx, gi) == 0, (train, affine)
            if affine:
                assert _differ(gww, gw) == _differ(gbb, gb) == 0, (train, affine)


_TRAINING = """
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.BatchNorm2d(3), torch.nn.ReLU(),
                            torch.nn.Flatten(), torch.nn.Linear(3 * 8 * 8, 12),
                            torch.nn.BatchNorm1d(12), torch.nn.ReLU(), torch.nn.Linear(12, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
X, y = torch.randn(16, 3, 8, 8), torch.randint(0, 3, (16,))
losses = []
for step in range(8):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
model.eval()
with torch.no_grad():
    evaluated = model(X).numpy().copy()
result = (losses, evaluated, [t.numpy().copy() for t in model.state_dict().values()
                              if t.dtype == torch.float32])
"""


def test_batchnorm_layers_train_as_torch(torch: Any, one_thread: None) -> None:
    """BatchNorm2d on images and BatchNorm1d after a Linear: the losses, the running
    statistics, every parameter and the evaluation output after 8 SGD steps with momentum."""
    results = []
    for module in (torch, gtorch):
        scope: dict[str, Any] = {"torch": module}
        exec(_TRAINING, scope)
        results.append(scope["result"])
    (their_losses, their_eval, theirs), (our_losses, our_eval, ours) = results
    assert our_losses == their_losses
    assert _differ(our_eval, their_eval) == 0
    for mine, reference in zip(ours, theirs, strict=True):
        assert _differ(mine, reference) == 0


@pytest.mark.parametrize("shape", [(4, 6, 5, 5), (8, 3, 7), (16, 5), (2, 4, 33), (3, 4, 1)])
@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
def test_float64_batch_norm_bits(torch: Any, thread_count: int, shape: tuple[int, ...],
                                 train: bool) -> None:
    """float64 batch norm (vecmath/batchnorm64.py) through nn.BatchNorm1d/2d: the output, the
    input's and parameters' gradients and the running statistics, with and without affine
    parameters (a contiguous output gradient: ATen's contiguous kernels)."""
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape) * 2 + 0.3
    grad = rng.standard_normal(shape)
    for affine in (True, False):
        results = []
        for lib in (torch, gtorch):
            kind = lib.nn.BatchNorm2d if len(shape) == 4 else lib.nn.BatchNorm1d
            module = kind(shape[1], affine=affine).double()
            module.train(train)
            with lib.no_grad():
                module.running_var.add_(lib.arange(shape[1], dtype=lib.float64) * 0.25)
            leaf = lib.from_numpy(x.copy()).requires_grad_()
            out = module(leaf)
            out.backward(lib.from_numpy(grad.copy()))
            results.append([out.detach().numpy(), leaf.grad.numpy(),
                            module.running_mean.numpy().copy(), module.running_var.numpy().copy()]
                           + ([module.weight.grad.numpy(), module.bias.grad.numpy()]
                              if affine else []))
        for theirs, ours in zip(*results, strict=True):
            assert (ours == theirs).all()


@pytest.mark.parametrize("shape", [(4, 6, 5, 5), (16, 10), (3, 4, 7), (2, 3, 4, 4, 4), (64, 8, 3)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
def test_expanded_output_gradient_is_torchs(torch: Any, thread_count: int,
                                            shape: tuple[int, ...], dtype: str,
                                            train: bool) -> None:
    """An output gradient that is not contiguous (out.sum() or out.mean() backward: an expanded
    one) takes ATen's generic backward (batchnorm.backward_generic): dx, dweight and dbias."""
    rng = np.random.default_rng(sum(shape))
    arrays = [rng.standard_normal(s).astype(dtype) for s in (shape, shape[1:2], shape[1:2])]
    for reduce in ("sum", "mean"):
        results = []
        for lib in (torch, gtorch):
            x, w, b = (lib.from_numpy(a.copy()).requires_grad_() for a in arrays)
            stats = [lib.zeros(shape[1], dtype=x.dtype), lib.ones(shape[1], dtype=x.dtype)]
            out = lib.nn.functional.batch_norm(x, *stats, w, b, training=train)
            getattr(out, reduce)().backward()
            results.append([t.grad.numpy() for t in (x, w, b)])
        for theirs, ours in zip(*results, strict=True):
            np.testing.assert_array_equal(ours, theirs)


def _channels_last_run(lib: Any, shape: tuple[int, ...], train: bool,
                       grad_channels_last: bool) -> tuple[list[Any], tuple[int, ...]]:
    """BatchNorm on a channels-last input: output, the three gradients, the running stats."""
    lib.manual_seed(0)
    layer = (lib.nn.BatchNorm2d if len(shape) == 4 else lib.nn.BatchNorm3d)(shape[1])
    if not train:
        layer.eval()
        layer.running_mean.add_(0.3)
        layer.running_var.mul_(1.7)
    fmt = lib.channels_last if len(shape) == 4 else lib.channels_last_3d
    rng = np.random.default_rng(sum(shape))
    x = lib.from_numpy(rng.standard_normal(shape).astype(F32) * 2 + 0.5)
    x = x.contiguous(memory_format=fmt).requires_grad_()
    y = layer(x)
    grad = lib.from_numpy(np.random.default_rng(5).standard_normal(shape).astype(F32))
    if grad_channels_last:
        grad = grad.contiguous(memory_format=fmt)
    y.backward(grad)
    results = [y.detach().numpy(), x.grad.numpy(), layer.weight.grad.numpy(),
               layer.bias.grad.numpy(), layer.running_mean.numpy(), layer.running_var.numpy()]
    return results, tuple(y.stride())


@pytest.mark.parametrize("shape", [(3, 12, 5, 7), (2, 16, 4, 4), (4, 20, 3, 5), (2, 3, 9, 9),
                                   (8, 64, 4, 4), (2, 8, 3, 4, 5)], ids=str)
@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
@pytest.mark.parametrize("grad_channels_last", [True, False], ids=["grad nhwc", "grad nchw"])
def test_channels_last_batch_norm_is_torchs(torch: Any, thread_count: int,
                                            shape: tuple[int, ...], train: bool,
                                            grad_channels_last: bool) -> None:
    """A channels-last input takes ATen's channels-last kernels: statistics from per-thread
    float buffers of the (N*H*W, C) rows, the backward's sums likewise (the (N, C) input's
    kernels on every pixel's row); the output stays channels-last."""
    theirs, their_strides = _channels_last_run(torch, shape, train, grad_channels_last)
    ours, our_strides = _channels_last_run(gtorch, shape, train, grad_channels_last)
    assert our_strides == their_strides
    assert [_differ(a, b) for a, b in zip(ours, theirs, strict=True)] == [0] * 6


@pytest.mark.parametrize("shape", [(16, 64, 4, 4), (8, 10), (4, 6, 5, 5)], ids=str)
@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
def test_create_graph_gradients_are_the_kernels(torch: Any, one_thread: None,
                                                shape: tuple[int, ...], train: bool) -> None:
    """With create_graph=True the gradients are built from the formula, differentiably, but
    hold the backward kernel's values (PyTorch's native_batch_norm_backward either way); their
    own gradients (double backward) follow the formula's graph."""
    rng = np.random.default_rng(sum(shape))
    arrays = [rng.standard_normal(s).astype(F32) for s in (shape, shape[1:2], shape[1:2])]
    dy = rng.standard_normal(shape).astype(F32)
    results = []
    for lib in (torch, gtorch):
        x, w, b = (lib.from_numpy(a.copy()).requires_grad_() for a in arrays)
        stats = [lib.zeros(shape[1]), lib.ones(shape[1])]
        out = lib.nn.functional.batch_norm(x, *stats, w, b, training=train)
        grads = lib.autograd.grad(out, (x, w, b), lib.from_numpy(dy), create_graph=True)
        penalty = sum((g ** 2).sum() for g in grads)
        second = lib.autograd.grad(penalty, (x, w))
        results.append([g.detach().numpy() for g in grads] + [s.numpy() for s in second])
    for theirs, ours in zip(results[0][:3], results[1][:3], strict=True):
        assert _differ(ours, theirs) == 0
    for theirs, ours in zip(results[0][3:], results[1][3:], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)
