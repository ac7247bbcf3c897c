"""The engine's nn ops (convolution, pooling, normalisation, embedding, bilinear, the added
activations): gradients against float64 finite differences, second derivatives and error texts
against PyTorch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.torch.nn import functional as GF
from tests.gradcheck import check_grads

RNG = np.random.default_rng(7)


def rn(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


def _idx() -> Any:
    return gtorch.tensor([[1, 2, 1], [4, 0, 2]])


# (name, function of gradsh tensors, input arrays); every input is differentiated
CASES: list[tuple[str, Any, list[np.ndarray]]] = [
    ("conv2d", lambda x, w, b: GF.conv2d(x, w, b), [rn(2, 3, 5, 5), rn(4, 3, 3, 3), rn(4)]),
    ("conv2d_stride_pad", lambda x, w: GF.conv2d(x, w, stride=2, padding=1),
     [rn(2, 2, 5, 6), rn(3, 2, 3, 2)]),
    ("conv2d_dilation", lambda x, w: GF.conv2d(x, w, dilation=(2, 1)),
     [rn(1, 2, 6, 5), rn(3, 2, 2, 2)]),
    ("conv2d_groups", lambda x, w: GF.conv2d(x, w, groups=2), [rn(2, 4, 4, 4), rn(4, 2, 2, 2)]),
    ("conv2d_same", lambda x, w: GF.conv2d(x, w, padding="same"),
     [rn(1, 2, 4, 4), rn(2, 2, 2, 3)]),
    ("conv1d", lambda x, w, b: GF.conv1d(x, w, b, stride=2, padding=2),
     [rn(2, 3, 7), rn(4, 3, 3), rn(4)]),
    ("conv1d_unbatched", lambda x, w: GF.conv1d(x, w), [rn(3, 7), rn(2, 3, 3)]),
    ("conv_transpose2d", lambda x, w, b: GF.conv_transpose2d(x, w, b, stride=2, padding=1,
                                                             output_padding=1),
     [rn(2, 3, 3, 4), rn(3, 2, 3, 3), rn(2)]),
    ("conv_transpose2d_groups", lambda x, w: GF.conv_transpose2d(x, w, groups=2, dilation=2),
     [rn(1, 4, 3, 3), rn(4, 1, 2, 2)]),
    ("conv_transpose1d", lambda x, w: GF.conv_transpose1d(x, w, stride=3), [rn(2, 2, 4),
                                                                            rn(2, 3, 2)]),
    ("max_pool2d", lambda x: GF.max_pool2d(x, 2), [rn(2, 2, 4, 4)]),
    ("max_pool2d_overlap", lambda x: GF.max_pool2d(x, 3, 1, 1), [rn(1, 2, 4, 4)]),
    ("max_pool2d_ceil", lambda x: GF.max_pool2d(x, 2, ceil_mode=True), [rn(1, 2, 5, 5)]),
    ("max_pool1d", lambda x: GF.max_pool1d(x, 2), [rn(2, 2, 6)]),
    ("avg_pool2d", lambda x: GF.avg_pool2d(x, 3, 2, 1), [rn(2, 2, 5, 5)]),
    ("avg_pool2d_no_pad_count", lambda x: GF.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
     [rn(1, 2, 5, 5)]),
    ("avg_pool2d_ceil", lambda x: GF.avg_pool2d(x, 2, ceil_mode=True), [rn(1, 2, 5, 5)]),
    ("avg_pool1d", lambda x: GF.avg_pool1d(x, 3, 2), [rn(2, 2, 7)]),
    ("adaptive_avg_pool2d", lambda x: GF.adaptive_avg_pool2d(x, (3, 2)), [rn(2, 2, 5, 5)]),
    ("adaptive_avg_pool1d", lambda x: GF.adaptive_avg_pool1d(x, 4), [rn(2, 2, 7)]),
    ("batch_norm_train", lambda x, w, b: GF.batch_norm(x, None, None, w, b, True),
     [rn(4, 3, 2, 2), rn(3), rn(3)]),
    ("batch_norm_eval", lambda x, w, b: GF.batch_norm(
        x, gtorch.tensor([0.1, -0.2, 0.3], dtype=gtorch.float64),
        gtorch.tensor([1.5, 0.5, 2.0], dtype=gtorch.float64), w, b, False),
     [rn(4, 3), rn(3), rn(3)]),
    ("layer_norm", lambda x, w, b: GF.layer_norm(x, (4,), w, b), [rn(3, 2, 4), rn(4), rn(4)]),
    ("layer_norm_2d", lambda x: GF.layer_norm(x, (2, 4)), [rn(3, 2, 4)]),
    ("group_norm", lambda x, w, b: GF.group_norm(x, 2, w, b), [rn(2, 4, 3), rn(4), rn(4)]),
    ("embedding", lambda w: GF.embedding(_idx(), w), [rn(5, 3)]),
    ("bilinear", lambda a, b, w, bias: GF.bilinear(a, b, w, bias),
     [rn(4, 3), rn(4, 2), rn(5, 3, 2), rn(5)]),
    ("threshold", lambda x: GF.threshold(x, 0.1, 2.0), [rn(3, 4)]),
    ("celu", lambda x: GF.celu(x, 0.7), [rn(3, 4)]),
    ("selu", lambda x: GF.selu(x), [rn(3, 4)]),
    ("hardswish", lambda x: GF.hardswish(x), [rn(3, 4) * 3]),
    ("hardshrink", lambda x: GF.hardshrink(x), [rn(3, 4)]),
    ("softshrink", lambda x: GF.softshrink(x), [rn(3, 4)]),
    ("glu", lambda x: GF.glu(x, 1), [rn(3, 4)]),
    ("prelu", lambda x, w: GF.prelu(x, w), [rn(2, 3, 4), rn(3)]),
    ("softsign", lambda x: GF.softsign(x), [rn(3, 4)]),
    ("tanhshrink", lambda x: GF.tanhshrink(x), [rn(3, 4)]),
]


@pytest.mark.parametrize(("name", "f", "arrays"), CASES, ids=[c[0] for c in CASES])
def test_gradient_matches_finite_differences(name: str, f: Any, arrays: list[np.ndarray]) -> None:
    check_grads(f, *arrays, rtol=1e-4, atol=1e-6)


# The second derivative: d/d(inputs) of sum(grad of sum(f * weights)) against PyTorch's.
SECOND = ["conv2d", "conv2d_stride_pad", "conv2d_groups", "conv1d", "conv_transpose2d",
          "conv_transpose2d_groups", "max_pool2d",
          "avg_pool2d", "avg_pool2d_no_pad_count", "adaptive_avg_pool2d", "batch_norm_train",
          "batch_norm_eval", "layer_norm", "group_norm", "embedding", "bilinear", "celu",
          "glu", "prelu", "hardswish"]


def _torch_twin(torch: Any, name: str) -> Any:
    F = torch.nn.functional
    cases = {
        "conv2d": lambda x, w, b: F.conv2d(x, w, b),
        "conv2d_stride_pad": lambda x, w: F.conv2d(x, w, stride=2, padding=1),
        "conv2d_groups": lambda x, w: F.conv2d(x, w, groups=2),
        "conv1d": lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=2),
        "conv_transpose2d": lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1,
                                                               output_padding=1),
        "conv_transpose2d_groups": lambda x, w: F.conv_transpose2d(x, w, groups=2, dilation=2),
        "max_pool2d": lambda x: F.max_pool2d(x, 2),
        "avg_pool2d": lambda x: F.avg_pool2d(x, 3, 2, 1),
        "avg_pool2d_no_pad_count": lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
        "adaptive_avg_pool2d": lambda x: F.adaptive_avg_pool2d(x, (3, 2)),
        "batch_norm_train": lambda x, w, b: F.batch_norm(x, None, None, w, b, True),
        "batch_norm_eval": lambda x, w, b: F.batch_norm(
            x, torch.tensor([0.1, -0.2, 0.3], dtype=torch.float64),
            torch.tensor([1.5, 0.5, 2.0], dtype=torch.float64), w, b, False),
        "layer_norm": lambda x, w, b: F.layer_norm(x, (4,), w, b),
        "group_norm": lambda x, w, b: F.group_norm(x, 2, w, b),
        "embedding": lambda w: F.embedding(torch.tensor([[1, 2, 1], [4, 0, 2]]), w),
        "bilinear": lambda a, b, w, bias: F.bilinear(a, b, w, bias),
        "celu": lambda x: F.celu(x, 0.7),
        "glu": lambda x: F.glu(x, 1),
        "prelu": lambda x, w: F.prelu(x, w),
        "hardswish": lambda x: F.hardswish(x),
    }
    return cases[name]


def _second_derivatives(ns: Any, f: Any, arrays: list[np.ndarray]) -> list[np.ndarray]:
    leaves = [ns.tensor(a.tolist(), dtype=ns.float64, requires_grad=True) for a in arrays]
    out = f(*leaves)
    weights = ns.tensor(np.random.default_rng(1).standard_normal(tuple(out.shape)).tolist(),
                        dtype=ns.float64)
    firsts = ns.autograd.grad((out * weights).sum(), leaves, create_graph=True)
    total = sum((g * g).sum() for g in firsts if g is not None and g.requires_grad)
    if not isinstance(total, ns.Tensor):  # the first derivatives do not depend on the inputs
        return [np.zeros(a.shape) for a in arrays]
    seconds = ns.autograd.grad(total, leaves, allow_unused=True)
    return [np.zeros(a.shape) if s is None else np.asarray(s.detach().numpy())
            for s, a in zip(seconds, arrays, strict=True)]


@pytest.mark.parametrize("name", SECOND)
def test_second_derivative_matches_torch(torch: Any, name: str) -> None:
    _, f, arrays = next(c for c in CASES if c[0] == name)
    expected = _second_derivatives(torch, _torch_twin(torch, name), arrays)
    actual = _second_derivatives(gtorch, f, arrays)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected, strict=True):
        np.testing.assert_allclose(a, e, rtol=1e-6, atol=1e-8)


ERRORS = [
    ("conv2d dtype", lambda t: t.nn.functional.conv2d(t.ones(1, 1, 3, 3, dtype=t.float64),
                                                       t.ones(1, 1, 2, 2))),
    # a double input with float weight and bias: the bias's type is compared first
    ("conv2d dtype bias", lambda t: t.nn.functional.conv2d(
        t.ones(1, 1, 3, 3, dtype=t.float64), t.ones(1, 1, 2, 2), t.ones(1))),
    ("conv1d dtype weight and bias", lambda t: t.nn.Conv1d(3, 2, 1).double()(
        t.ones(1, 3, 4))),
    ("conv_transpose2d dtype bias", lambda t: t.nn.functional.conv_transpose2d(
        t.ones(1, 1, 3, 3, dtype=t.float64), t.ones(1, 1, 2, 2), t.ones(1))),
    ("conv2d channels", lambda t: t.nn.functional.conv2d(t.ones(2, 3, 5, 5),
                                                          t.ones(4, 2, 3, 3))),
    ("conv2d groups", lambda t: t.nn.functional.conv2d(t.ones(2, 3, 5, 5), t.ones(4, 3, 3, 3),
                                                        groups=2)),
    ("conv2d kernel", lambda t: t.nn.functional.conv2d(t.ones(1, 1, 2, 2), t.ones(1, 1, 3, 3))),
    ("conv_transpose2d channels", lambda t: t.nn.functional.conv_transpose2d(
        t.ones(1, 3, 4, 4), t.ones(2, 2, 3, 3))),
    ("conv_transpose2d output_padding", lambda t: t.nn.functional.conv_transpose2d(
        t.ones(1, 2, 4, 4), t.ones(2, 2, 3, 3), output_padding=1)),
    ("conv_transpose1d output_padding", lambda t: t.nn.functional.conv_transpose1d(
        t.ones(1, 2, 4), t.ones(2, 2, 3), stride=2, output_padding=(2,))),
    ("conv_transpose output_size", lambda t: t.nn.ConvTranspose2d(3, 2, 3, stride=2)(
        t.ones(1, 3, 4, 4), output_size=[12, 12])),
    ("conv2d dims", lambda t: t.nn.functional.conv2d(t.ones(5, 5), t.ones(1, 1, 3, 3))),
    ("conv2d bias", lambda t: t.nn.functional.conv2d(t.ones(1, 1, 5, 5), t.ones(2, 1, 3, 3),
                                                      t.ones(3))),
    ("conv2d same stride", lambda t: t.nn.functional.conv2d(
        t.ones(1, 1, 5, 5), t.ones(1, 1, 3, 3), stride=2, padding="same")),
    ("conv1d dims", lambda t: t.nn.functional.conv1d(t.ones(1, 1, 5, 5), t.ones(1, 1, 3))),
    ("max_pool2d small", lambda t: t.nn.functional.max_pool2d(t.ones(1, 3, 5, 5), 6)),
    ("max_pool2d pad", lambda t: t.nn.functional.max_pool2d(t.ones(1, 3, 5, 5), 3, padding=2)),
    ("max_pool2d dims", lambda t: t.nn.functional.max_pool2d(t.ones(5, 5), 2)),
    ("max_pool1d dims", lambda t: t.nn.functional.max_pool1d(t.ones(1, 2, 5, 5), 2)),
    ("avg_pool2d small", lambda t: t.nn.functional.avg_pool2d(t.ones(1, 3, 5, 5), 6)),
    ("adaptive dims", lambda t: t.nn.functional.adaptive_avg_pool2d(t.ones(5), 2)),
    ("batch_norm one value", lambda t: t.nn.functional.batch_norm(
        t.ones(1, 3), None, None, training=True)),
    ("layer_norm shape", lambda t: t.nn.functional.layer_norm(t.ones(2, 3), (4,))),
    ("group_norm groups", lambda t: t.nn.functional.group_norm(t.ones(2, 3, 4), 2)),
    ("embedding range", lambda t: t.nn.functional.embedding(t.tensor([5]), t.ones(3, 2))),
    ("embedding dtype", lambda t: t.nn.functional.embedding(t.tensor([0.0]), t.ones(3, 2))),
    ("glu odd", lambda t: t.nn.functional.glu(t.ones(2, 3), 1)),
    ("prelu channels", lambda t: t.nn.functional.prelu(t.ones(2, 3, 4), t.ones(4))),
]


@pytest.mark.parametrize(("name", "case"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_match_torch(torch: Any, name: str, case: Any) -> None:
    with pytest.raises(Exception) as expected:  # noqa: B017,PT011  (whatever torch raises)
        case(torch)
    with pytest.raises(Exception) as actual:  # noqa: B017,PT011
        case(gtorch)
    assert type(actual.value).__name__ == type(expected.value).__name__
    assert str(actual.value) == str(expected.value)


def test_max_pool_indices_match_torch(torch: Any) -> None:
    x = RNG.standard_normal((2, 3, 5, 5)).astype(np.float32)
    for args in [(2,), (3, 2, 1), (2, None, 0, 1, True)]:
        _, expected = torch.nn.functional.max_pool2d(torch.from_numpy(x), *args,
                                                     return_indices=True)
        _, actual = GF.max_pool2d(gtorch.from_numpy(x), *args, return_indices=True)
        assert actual.dtype is gtorch.int64
        np.testing.assert_array_equal(actual.numpy(), expected.numpy())
    _, expected = torch.nn.functional.max_pool1d(torch.from_numpy(x[0]), 2, return_indices=True)
    _, actual = GF.max_pool1d(gtorch.from_numpy(x[0]), 2, return_indices=True)
    np.testing.assert_array_equal(actual.numpy(), expected.numpy())


@pytest.mark.parametrize("shape, kernel, stride, padding",
                         [((4, 64, 8, 8), 3, 1, 1), ((2, 3, 8, 8), 3, 1, 1), ((3, 8, 8), 3, 1, 1),
                          ((2, 3, 9, 9), 2, 2, 0)])
def test_max_pool_gradient_bits_match_torch(torch: Any, shape: tuple[int, ...], kernel: int,
                                            stride: int, padding: int) -> None:
    """Overlapping windows (GoogLeNet's MaxPool2d(3, stride=1, padding=1)) send several output
    gradients to one input: ATen adds them in float32 in output order, bit for bit."""
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape).astype(np.float32)
    grads = []
    for module in (torch, gtorch):
        xt = module.from_numpy(x.copy()).requires_grad_()
        y = module.nn.functional.max_pool2d(xt, kernel, stride=stride, padding=padding)
        g = np.random.default_rng(1).standard_normal(tuple(y.shape)).astype(np.float32)
        y.backward(module.from_numpy(g))
        grads.append(xt.grad.numpy())
    assert (grads[0].view(np.uint32) == grads[1].view(np.uint32)).all()


def test_batch_norm_updates_running_stats_like_torch(torch: Any) -> None:
    x = RNG.standard_normal((5, 3, 2)).astype(np.float32)
    results = []
    for ns in (torch, gtorch):
        mean, var = ns.zeros(3), ns.ones(3)
        version = mean._version
        ns.nn.functional.batch_norm(ns.from_numpy(x.copy()), mean, var, training=True,
                                    momentum=0.3)
        results.append((mean.numpy().copy(), var.numpy().copy(), mean._version - version))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-6)
    assert results[1][2] == results[0][2] == 0  # ATen writes the stats without a version bump
