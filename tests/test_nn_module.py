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


def _state_dict_hook_trace(lib: Any) -> list[Any]:
    """The private state_dict / load_state_dict hook APIs libraries use for old checkpoints."""
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.Linear(2, 1))
    out: list[Any] = []

    def rename(module: Any, state_dict: Any, prefix: str, metadata: Any) -> Any:
        return {k.replace("weight", "w"): v for k, v in state_dict.items()}

    handle = net._register_state_dict_hook(rename)
    out.append(sorted(net.state_dict()))
    handle.remove()
    handle = net[0]._register_state_dict_hook(rename)  # only the root's return value counts
    out.append((sorted(net.state_dict()), sorted(net[0].state_dict())))
    handle.remove()
    net.register_state_dict_post_hook(rename)
    try:
        net.state_dict()
    except RuntimeError as error:
        out.append(str(error))
    try:
        net._register_state_dict_hook(rename)
    except RuntimeError as error:
        out.append(str(error))
    net._state_dict_hooks.clear()
    legacy = {f"{k}_old": v.clone() + 1 for k, v in net.state_dict().items()}

    def unrename(*args: Any) -> None:
        module, (state_dict, prefix) = (args[0], args[1:3]) if len(args) == 8 else (None, args[:2])
        out.append((module is net[1], prefix))
        for key in [k for k in state_dict if k.startswith(prefix) and k.endswith("_old")]:
            state_dict[key[:-4]] = state_dict.pop(key)

    net[0]._register_load_state_dict_pre_hook(unrename)
    net[1]._register_load_state_dict_pre_hook(unrename, with_module=True)
    out.append(str(net.load_state_dict(legacy)))
    out.append(net[1].bias.detach().numpy().tolist())
    return out


def test_private_state_dict_hooks_as_pytorch(torch: Any) -> None:
    assert _state_dict_hook_trace(gtorch) == _state_dict_hook_trace(torch)
