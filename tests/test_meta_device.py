"""The meta device: shapes and dtypes without data, checked against PyTorch's."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

import gradsh.torch as gtorch


def _outcome(action: Callable[[], Any]) -> str:
    """What an action gives: its value's repr, or the error's type and first line."""
    try:
        return repr(action())
    except Exception as error:  # noqa: BLE001  (the error itself is what is compared)
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"


def _tensors(lib: Any) -> list[str]:
    lib.manual_seed(0)
    a = lib.empty(3, 4, device="meta")
    b = lib.randn(2, 3, device="meta", requires_grad=True)
    x = lib.randn(3, 4)
    seen = [repr(a), str(a.shape), str(a.dtype), str(a.device), repr(a.device), str(a.is_meta),
            str(a.is_cuda), str(a.stride()), str(a.t().stride()), str(a.t().is_contiguous()),
            repr(b), repr(lib.zeros(5, dtype=lib.int64, device="meta")),
            repr(lib.ones((), device="meta")), repr(b * 2 + 1), repr(b.sum()),
            repr(x.to("meta")), str(x.to("meta").is_leaf), repr(b.double()), repr(a.half()),
            repr(lib.tensor([1.0, 2.0], device="meta")), repr(lib.tensor(2.0) * a),
            repr(lib.full((2,), 3.0, device="meta")), repr(lib.zeros_like(x, device="meta")),
            repr(lib.empty_like(a)), repr(a.new_zeros(4)), repr(lib.randint(0, 9, (3,),
                                                                              device="meta")),
            str((b @ lib.ones(3, 4, device="meta")).shape), repr(a.argmax(1)),
            repr(lib.cat([a, a])), repr(a[:, 1:3]), repr(a.view(12)), repr(a.max(1)[0])]
    for action in (lambda: a.item(), lambda: lib.ones((), device="meta").item(),
                   lambda: bool(lib.ones((), device="meta")), lambda: a.tolist(),
                   lambda: a.numpy(), lambda: a.cpu(), lambda: a + lib.ones(3, 4),
                   lambda: lib.ones(3, 4) + a, lambda: lib.cat([a, lib.ones(3, 4)]),
                   lambda: lib.equal(a, a), lambda: lib.allclose(a, a), lambda: a.nonzero(),
                   lambda: a.unique()):
        seen.append(_outcome(action))
    z = lib.zeros(2, 3, device="meta")
    z.add_(1).uniform_().normal_().fill_(2.0).zero_()
    seen += [repr(z), str(z._version)]
    b.relu().sum().backward()
    seen.append(repr(b.grad))
    seen.append(repr(lib.randn(2)))  # nothing above drew from the generator
    return seen


def test_meta_tensors_match_torch(torch: Any) -> None:
    assert _tensors(gtorch) == _tensors(torch)


def _modules(lib: Any) -> list[str]:
    nn = lib.nn
    lib.manual_seed(0)
    linear = nn.Linear(4, 5, device="meta")
    with lib.device("meta"):
        model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.BatchNorm1d(4))
        inside = lib.randn(2)
    seen = [repr(linear), repr(linear.weight), repr(linear(lib.randn(2, 4, device="meta"))),
            repr(inside), repr(model[0].bias), repr(model(lib.randn(5, 3, device="meta"))),
            _outcome(lambda: model.to("cpu"))]
    nn.init.kaiming_uniform_(linear.weight)
    nn.init.zeros_(linear.bias)
    empty = model.to_empty(device="cpu")
    seen += [str(empty is model), str(model[0].weight.shape), str(model[0].weight.device),
             str(model[0].weight.requires_grad), str(model[2].running_mean.device)]
    source = nn.Linear(4, 5)
    with lib.device("meta"):
        target = nn.Linear(4, 5)
    seen.append(str(target.load_state_dict(source.state_dict(), assign=True)))
    seen += [repr(target.weight), str(target.weight.device), str(type(target.weight).__name__)]
    moved = nn.Linear(2, 3).to("meta")
    seen += [repr(moved.weight), str(moved.weight.is_leaf)]
    seen.append(repr(lib.randn(2)))
    return seen


def test_meta_modules_match_torch(torch: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _modules(gtorch) == _modules(torch)


def test_loading_into_a_meta_parameter_warns() -> None:
    nn = gtorch.nn
    target = nn.Linear(2, 3, device="meta")
    with pytest.warns(UserWarning, match="for weight: copying from a non-meta parameter"):
        target.load_state_dict(nn.Linear(2, 3).state_dict())
    assert target.weight.is_meta


def _large(lib: Any) -> list[str]:
    """Shapes far beyond memory: the ops take none on the meta device."""
    nn = lib.nn
    big = lib.rand(2**10, 3, 2**16, 2**16, device="meta")
    conv = nn.Conv2d(3, 5, 2, device="meta")
    wide = lib.empty(2**20, 4096, device="meta")
    return [repr(conv(big)), str(nn.Linear(4096, 4096, device="meta")(wide).shape),
            repr((wide * 2 + 1).relu()), str(lib.softmax(wide, -1).shape),
            str(wide.sum(0).shape), repr(wide.to(lib.float16))]


def test_large_meta_shapes_match_torch(torch: Any) -> None:
    assert _large(gtorch) == _large(torch)


def _skip_init(lib: Any) -> list[str]:
    lib.manual_seed(0)
    linear = lib.nn.utils.skip_init(lib.nn.Linear, 5, 2)
    conv = lib.nn.utils.skip_init(lib.nn.Conv2d, 3, 4, 3, device="cpu")
    return [str(linear.weight.shape), str(linear.weight.device),
            str(linear.weight.requires_grad), str(conv.bias.shape), repr(lib.randn(2)),
            _outcome(lambda: lib.nn.utils.skip_init(int))]


def test_skip_init_matches_torch(torch: Any) -> None:
    assert _skip_init(gtorch) == _skip_init(torch)
