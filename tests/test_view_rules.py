"""Issue 17 section 2 against PyTorch: the views that may not be changed in place (several
views of one call, views made under no_grad), retain_grad across a regenerated view grad_fn in
every output mode, a leaf reshaped through .data, unique on a tensor that requires grad, atan2's
gradient at the origin. Each case runs the same Python code on torch and on gradsh.torch."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch


def outcome(torch: Any, case: Callable[[Any], Any]) -> tuple[str, Any]:
    """What the case gives: ("ok", a value with plain lists for tensors) or (error type, text)."""
    try:
        value = case(torch)
    except Exception as error:  # noqa: BLE001  (the error is the result compared)
        return type(error).__name__, str(error)
    return "ok", _plain(torch, value)


def _plain(torch: Any, value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        fn = value.grad_fn
        return (value.detach().tolist(), str(value.dtype), type(fn).__name__ if fn else None)
    if isinstance(value, (tuple, list)):
        return [_plain(torch, v) for v in value]
    return value


def same_as_torch(torch: Any, case: Callable[[Any], Any]) -> tuple[str, Any]:
    expected = outcome(torch, case)
    assert outcome(gtorch, case) == expected
    return expected


# ---------------------------------------------------------------------------------------------
# Views that may not be changed in place
# ---------------------------------------------------------------------------------------------

MULTI_OUTPUT = "is a view and is being modified inplace. This view is the output of a function"


def _split_then_view(t: Any) -> Any:
    y = t.arange(6.0, requires_grad=True) * 1
    y.split(2)[1].view(2).add_(1)


def _base_changed_then_used(t: Any) -> Any:
    y = t.arange(6.0, requires_grad=True) * 1
    pieces = y.unbind()
    y.mul_(2)
    return pieces[3] * 2


def _no_grad_view_of_view(t: Any) -> Any:
    y = t.arange(6.0, requires_grad=True) * 1
    with t.no_grad():
        v = y[1:]
    v.view(5).mul_(2)


def _piece_of_plain_tensor(t: Any) -> Any:
    t.arange(4.0).chunk(2)[1].mul_(t.tensor(2.0, requires_grad=True))


@pytest.mark.parametrize("case", [
    lambda t: t.arange(6.0, requires_grad=True).split(2)[0].mul_(2),
    lambda t: t.arange(6.0, requires_grad=True).view(2, 3).unbind()[1].add_(1),
    lambda t: (t.arange(6.0, requires_grad=True) * 1).chunk(3)[2].zero_(),
    lambda t: t.arange(6.0, requires_grad=True).split_with_sizes([2, 4])[1].sub_(1),
    lambda t: t.split_with_sizes(t.arange(6.0, requires_grad=True) * 1, [1, 5])[0].sub_(1),
    _split_then_view, _base_changed_then_used, _no_grad_view_of_view, _piece_of_plain_tensor,
], ids=["split", "unbind", "chunk", "split_with_sizes", "torch_split_with_sizes",
        "view_of_piece", "base_changed", "no_grad_view_of_view", "plain_tensor_piece"])
def test_views_that_may_not_change_in_place(torch: Any, case: Callable[[Any], Any]) -> None:
    kind, message = same_as_torch(torch, case)
    assert kind == "RuntimeError"
    assert "modified inplace" in message


def test_the_multi_output_text_names_the_output(torch: Any) -> None:
    kind, message = same_as_torch(
        torch, lambda t: t.arange(6.0, requires_grad=True).view(2, 3).unbind()[1].add_(1))
    assert message.startswith("Output 1 of Unbind " + MULTI_OUTPUT)


def test_pieces_made_without_grad_mode_or_changed_under_it_are_allowed(torch: Any) -> None:
    def case(t: Any) -> Any:
        x = t.arange(6.0, requires_grad=True)
        with t.no_grad():
            pieces = (x * 1).split(2)
            pieces[0].mul_(2)
        y = x * 1
        other = y.split(3)
        with t.no_grad():
            other[1].mul_(3)  # allowed; reading other[0]'s grad_fn afterwards is not
        return pieces[0], y

    assert same_as_torch(torch, case)[0] == "ok"


def test_an_invalid_view_prints_invalid_grad_fn() -> None:
    y = gtorch.arange(4.0, requires_grad=True) * 1
    pieces = y.split(2)
    y.mul_(2)
    assert repr(pieces[0]) == "tensor([0., 2.], grad_fn=<Invalid>)"
    assert pieces[0].grad_fn_name() == "Invalid"


# ---------------------------------------------------------------------------------------------
# retain_grad across a regenerated grad_fn, the same in every output mode
# ---------------------------------------------------------------------------------------------


def _retain_through(t: Any, change: str) -> Any:
    k = t.tensor([1.0, 2.0, 3.0], requires_grad=True)
    m = k[1:]
    m.retain_grad()
    if change == "no_grad":
        with t.no_grad():
            k.mul_(2)
    else:
        n = k.detach()
        n[0] = 100.0
    (m ** 2).sum().backward()
    return m.retains_grad, m.grad, k.grad


@pytest.mark.parametrize("change", ["no_grad", "detach"])
def test_retain_grad_follows_the_regenerated_grad_fn(torch: Any, change: str) -> None:
    kind, value = same_as_torch(torch, lambda t: _retain_through(t, change))
    assert kind == "ok" and value[0] is True


RETAIN_SCRIPT = """\
k = tensor([1., 2., 3.], grad)
m = k[1:]
m.retain_grad()
no_grad {
    k.mul_(2)
}
n = k.detach()
n[0] = 100.
(m ** 2).sum().backward()
print m.retains_grad, m.grad
"""


def test_every_output_mode_gives_the_same_result(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from gradsh.cli import main

    path = tmp_path / "r.grad"
    path.write_text(RETAIN_SCRIPT)
    printed = {}
    for mode in ("--quiet", "--final", "--json", None):
        assert main(["run", *([mode] if mode else []), str(path)]) == 0
        out = capsys.readouterr().out
        if mode == "--json":
            out = "".join(line + "\n" for step in out.splitlines()
                          for line in json.loads(step)["printed"])
        printed[mode] = [line for line in out.splitlines() if line.startswith(("True", "False"))]
    assert set(map(tuple, printed.values())) == {("True tensor([ 8., 12.])",)}


# ---------------------------------------------------------------------------------------------
# .data, unique, atan2
# ---------------------------------------------------------------------------------------------


def _reshaped_leaf(t: Any) -> Any:
    x = t.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    x.data = t.tensor([1.0, 2.0])
    errors = []
    try:
        (x * 3).sum().backward()
    except RuntimeError as error:
        errors.append(str(error))
    y.sum().backward()  # the graph from before the change still accumulates
    return errors, x.grad


def test_a_leaf_reshaped_through_data_is_checked_against_its_old_shape(torch: Any) -> None:
    kind, (errors, grad) = same_as_torch(torch, _reshaped_leaf)
    assert errors == ["Function MulBackward0 returned an invalid gradient at index 0 - got [2] "
                      "but expected shape compatible with [3]"]
    assert grad[0] == [2.0, 2.0, 2.0]


@pytest.mark.parametrize("case", [
    lambda t: t.unique(t.tensor([3.0, 1.0, 3.0], requires_grad=True)),
    lambda t: t.unique(t.tensor([3.0, 1.0, 3.0], requires_grad=True), return_inverse=True,
                       return_counts=True),
    lambda t: t.tensor([[1.0, 2.0], [1.0, 2.0]], requires_grad=True).unique(dim=0,
                                                                           return_counts=True),
    lambda t: t.unique(t.tensor([3.0, 1.0], requires_grad=True)).sum().backward(),
    lambda t: t.unique(t.tensor([[1.0], [1.0]], requires_grad=True), dim=0).sum().backward(),
], ids=["values", "inverse_counts", "dim", "backward", "backward_dim"])
def test_unique_of_a_tensor_that_requires_grad(torch: Any, case: Callable[[Any], Any]) -> None:
    same_as_torch(torch, case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_atan2_gradient_at_the_origin(torch: Any, dtype: str) -> None:
    def case(t: Any) -> Any:
        d = getattr(t, dtype)
        y = t.tensor([0.0, 0.0, -0.0, 1.0, 0.0, 0.3], dtype=d, requires_grad=True)
        x = t.tensor([0.0, -0.0, 0.0, 0.0, 2.0, -0.7], dtype=d, requires_grad=True)
        t.atan2(y, x).sum().backward()
        return y.grad, x.grad

    kind, ((gy, _, _), (gx, _, _)) = same_as_torch(torch, case)
    assert not any(math.isnan(v) for v in gy + gx)
    assert [math.copysign(1, v) for v in gx[:3]] == [-1, -1, 1]  # 0 and -0 as PyTorch's


def test_atan2_gradient_by_finite_differences() -> None:
    from gradcheck import check_grads

    from gradsh.engine import ops

    ys = np.array([0.3, -1.2, 2.0])
    xs = np.array([-0.7, 0.5, 1.5])
    check_grads(lambda y, x: ops.atan2(y, x), ys, xs)
