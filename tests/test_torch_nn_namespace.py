"""The nn functions in the torch namespace (torch.conv2d, torch.batch_norm, torch.embedding ...,
with their ATen argument orders), instance norm and local response norm, against PyTorch:
values, grad_fn names, gradients, running statistics, the modules' parameters and reprs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from tests.nn_parity import run_layer

r = np.random.default_rng(5)


def rn(*s: int) -> np.ndarray:
    return r.standard_normal(s).astype(np.float32)


X4, W4, W3, WB = rn(2, 3, 6, 6), rn(4, 3, 3, 3), rn(2, 3, 3), rn(2, 6, 6)
CALLS: dict[str, Any] = {
    "conv2d": lambda t, x: t.conv2d(x, t.from_numpy(W4), None, 1, 1),
    "conv1d": lambda t, x: t.conv1d(x.flatten(2), t.from_numpy(W3)),
    "max_pool2d": lambda t, x: t.max_pool2d(x, 2),
    "max_pool2d_s": lambda t, x: t.max_pool2d(x, 3, 2, 1),
    "max_pool1d": lambda t, x: t.max_pool1d(x.flatten(2), 3),
    "avg_pool1d": lambda t, x: t.avg_pool1d(x.flatten(2), 2),
    "adaptive_avg_pool1d": lambda t, x: t.adaptive_avg_pool1d(x.flatten(2), 5),
    "batch_norm": lambda t, x: t.batch_norm(x, t.ones(3), t.zeros(3), t.zeros(3), t.ones(3),
                                            True, 0.1, 1e-5, False),
    "layer_norm": lambda t, x: t.layer_norm(x, (6,)),
    "group_norm": lambda t, x: t.group_norm(x, 3),
    "instance_norm": lambda t, x: t.instance_norm(x, None, None, None, None, True, 0.1, 1e-5,
                                                  False),
    "embedding": lambda t, x: t.embedding(x.flatten()[:10].reshape(5, 2),
                                          t.tensor([[0, 4], [2, 2]])),
    "bilinear": lambda t, x: t.bilinear(x[0, 0], x[0, 1], t.from_numpy(WB), None),
    "pixel_shuffle": lambda t, x: t.pixel_shuffle(x.reshape(2, 12, 3, 3), 2),
    "selu": lambda t, x: t.selu(x),
    "celu": lambda t, x: t.celu(x, 2.0),
    "threshold": lambda t, x: t.threshold(x, 0.1, 5.0),
    "hardshrink": lambda t, x: t.hardshrink(x, 0.3),
    "prelu": lambda t, x: t.prelu(x, t.tensor([0.25])),
    "hinge": lambda t, x: t.hinge_embedding_loss(x.flatten()[:4], t.tensor([1., -1., 1., -1.])),
    "margin_ranking_mean": lambda t, x: t.margin_ranking_loss(
        x.flatten()[:3], x.flatten()[3:6], t.tensor([1., -1., 1.]), 0.1, 1),
    "triplet_sum": lambda t, x: t.triplet_margin_loss(x[0, 0], x[0, 1], x[0, 2], 1.0, 2, 1e-6,
                                                      False, 2),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_torch_namespace_nn_functions_match_torch(torch: Any, name: str) -> None:
    seen = []
    for t in (torch, gtorch):
        x = t.from_numpy(X4.copy()).requires_grad_()
        out = CALLS[name](t, x)
        out = out[0] if isinstance(out, tuple) else out
        out.sum().backward()
        seen.append((out.grad_fn.name(), tuple(out.shape), out.detach().numpy(),
                     x.grad.numpy()))
    (t_name, t_shape, t_out, t_grad), (g_name, g_shape, g_out, g_grad) = seen
    assert (g_name, g_shape) == (t_name, t_shape)
    np.testing.assert_allclose(g_out, t_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g_grad, t_grad, rtol=1e-4, atol=1e-5)


def test_feature_and_alpha_dropout_draw_as_torch(torch: Any) -> None:
    seen = []
    for t in (torch, gtorch):
        t.manual_seed(3)
        seen.append([t.feature_dropout(t.ones(2, 3, 2), 0.5, True).numpy(),
                     t.alpha_dropout(t.ones(2, 3), 0.5, True).numpy()])
    for g, e in zip(seen[1], seen[0], strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-6)


LAYERS: dict[str, tuple[Any, list[np.ndarray], bool]] = {
    "instance2d_affine": (lambda t: t.nn.InstanceNorm2d(3, affine=True), [rn(2, 3, 4, 4)],
                          True),
    "instance2d": (lambda t: t.nn.InstanceNorm2d(3), [rn(2, 3, 4, 4)], True),
    "instance1d_running": (lambda t: t.nn.InstanceNorm1d(3, track_running_stats=True),
                           [rn(2, 3, 5)], True),
    "instance1d_running_eval": (lambda t: t.nn.InstanceNorm1d(3, track_running_stats=True),
                                [rn(2, 3, 5)], False),
    "instance1d_unbatched": (lambda t: t.nn.InstanceNorm1d(3, affine=True), [rn(3, 5)], True),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_instance_norm_layers_match_torch(torch: Any, name: str) -> None:
    build, inputs, train = LAYERS[name]
    run_layer(torch, build, inputs, train=train, depth=6, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape,size", [((2, 5, 4, 4), 2), ((2, 6, 7), 3), ((1, 7, 3, 3, 2), 4)])
def test_local_response_norm_matches_torch_bit_for_bit(torch: Any, shape: tuple[int, ...],
                                                       size: int) -> None:
    run_layer(torch, lambda t: t.nn.LocalResponseNorm(size, alpha=0.5), [rn(*shape)], depth=12,
              rtol=0, atol=0)


def test_avg_pool3d_matches_torch_bit_for_bit(torch: Any) -> None:
    run_layer(torch, lambda t: _Pool3d(t), [rn(1, 2, 4, 5, 4)], depth=3, rtol=0, atol=0)


def _Pool3d(t: Any) -> Any:
    class Pool(t.nn.Module):
        def forward(self, x: Any) -> Any:
            return t.nn.functional.avg_pool3d(x, (2, 3, 1), stride=(1, 2, 1))

    return Pool()
