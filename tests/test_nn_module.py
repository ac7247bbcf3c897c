"""nn.Parameter and nn.Module in one process (the whole-program comparisons with torch are in
test_nn_programs.py): Parameter semantics, pickling with a real torch imported alongside,
the table's qualified names."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.tensor import Tensor
from gradsh.pyrun import tensor_env
from gradsh.torch import nn


def test_parameter_is_a_leaf_sharing_storage_and_ops_give_plain_tensors() -> None:
    data = gtorch.ones(3)
    p = nn.Parameter(data)
    assert isinstance(p, Tensor) and type(p) is nn.Parameter
    assert p.is_leaf and p.requires_grad and p.grad_fn is None
    data[0] = 5.0
    assert p[0].item() == 5.0  # shares storage
    y = p * 2
    assert type(y) is Tensor and type(p.detach()) is Tensor and type(p.data) is Tensor
    assert repr(p).startswith("Parameter containing:\ntensor([5., 1., 1.], requires_grad=True")
    with gtorch.no_grad():
        assert nn.Parameter(gtorch.zeros(1)).requires_grad  # no_grad does not matter
    frozen = nn.Parameter(gtorch.zeros(2), requires_grad=False)
    assert not frozen.requires_grad
    with pytest.raises(RuntimeError, match="floating point"):
        nn.Parameter(gtorch.tensor([1, 2]))


def test_module_and_state_dict_pickle_next_to_a_real_torch(torch: Any) -> None:
    gtorch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    view = model[0].weight[0]  # a view of a parameter keeps sharing after a round trip
    restored_model, restored_view = pickle.loads(pickle.dumps((model, view)))
    assert type(restored_model[0].weight) is nn.Parameter
    assert type(restored_model[1].running_mean) is Tensor
    with gtorch.no_grad():
        restored_model[0].weight[0, 0] = 42.0
    assert restored_view[0].item() == 42.0
    assert model[0].weight[0, 0].item() != 42.0
    state = pickle.loads(pickle.dumps(model.state_dict()))
    assert list(state) == list(model.state_dict())
    assert type(state["0.weight"]) is Tensor and not state["0.weight"].requires_grad


def test_copy_copy_shares_and_deepcopy_copies_storage() -> None:
    x = gtorch.arange(4.0)
    shallow, deep = copy.copy(x), copy.deepcopy(x)
    x[0] = 9.0
    assert shallow[0].item() == 9.0 and deep[0].item() == 0.0


def test_the_table_names_parameters_and_buffers() -> None:
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    env = tensor_env({"model": model, "x": gtorch.ones(1), "n": 3})
    assert list(env) == ["model.0.weight", "model.0.bias", "model.1.weight", "model.1.bias",
                         "model.1.running_mean", "model.1.running_var",
                         "model.1.num_batches_tracked", "x"]


def test_optimizers_hold_the_same_parameters_across_moves() -> None:
    model = nn.Linear(2, 1)
    params = list(model.parameters())
    model.double()
    assert [id(p) for p in model.parameters()] == [id(p) for p in params]
    assert model.weight.dtype is gtorch.float64
    opt = gtorch.optim.SGD(model.parameters(), lr=0.5)
    before = model.weight.detach().clone()
    model(gtorch.ones(1, 2, dtype=gtorch.float64)).sum().backward()
    opt.step()
    np.testing.assert_allclose(model.weight.detach().numpy(), before.numpy() - 0.5)
