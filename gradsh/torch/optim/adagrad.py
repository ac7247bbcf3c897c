"""torch.optim.Adagrad: PyTorch's single-tensor update (the CPU path), operation for operation."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.tensor import Tensor
from gradsh.torch.optim import _flags, _fused, _kernels
from gradsh.torch.optim.optimizer import (
    Optimizer,
    _get_value,
    _scalar_dtype,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    def __init__(self, params: Any, lr: float | Tensor = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TorchValueError("Tensor lr must be 1-element")
        for name, value in (("learning rate", lr), ("lr_decay value", lr_decay),
                            ("weight_decay value", weight_decay),
                            ("initial_accumulator_value value", initial_accumulator_value),
                            ("epsilon value", eps)):
            if not 0.0 <= value:
                raise TorchValueError(f"Invalid {name}: {value}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise TorchRuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise TorchRuntimeError("`fused` and `foreach` cannot be `True` together.")
        # Adagrad makes its state at construction, not on the first step
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p)

    def _init_state(self, p: Tensor) -> dict[str, Any]:
        state = self.state[p]
        state["step"] = ops.tensor(0.0, dtype=_scalar_dtype())
        state["sum"] = ops.full_like(p, self.defaults["initial_accumulator_value"])
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("fused", None)

    @_use_grad_for_differentiable
    def step(self, closure: Any = None) -> Any:
        """One update of every parameter that has a gradient; returns the closure's loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:  # a parameter added with add_param_group
                    state = self._init_state(p)
                _adagrad_update(p, p.grad, state, group)
        return loss


def _adagrad_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                    group: dict[str, Any]) -> None:
    """torch.optim.adagrad._single_tensor_adagrad for one dense parameter."""
    _flags.check(param, group)
    lr = _get_value(_to_scalar(group["lr"]))
    step_t = state["step"]
    step_t += 1
    step = _get_value(step_t)
    clr = lr / (1 + (step - 1) * group["lr_decay"])
    if not grad.is_sparse and _fused.adagrad(param, grad, state, group, clr):
        return
    if group["maximize"]:
        grad = -grad
    if group["weight_decay"] != 0:
        if grad.is_sparse:
            raise TorchRuntimeError("weight_decay option is not compatible with sparse "
                                    "gradients")
        grad = grad.add(param, alpha=group["weight_decay"])
    if grad.is_sparse:
        _sparse_adagrad_update(param, grad, state["sum"], group["eps"], clr)
        return
    state_sum = state["sum"]
    _kernels.addcmul_(state_sum, grad, grad, value=1)
    std = state_sum.sqrt().add_(group["eps"])
    _kernels.addcdiv_(param, grad, std, value=-clr)


def _sparse_adagrad_update(param: Tensor, grad: Tensor, state_sum: Tensor, eps: float,
                           clr: float) -> None:
    """_single_tensor_adagrad's sparse branch: the coalesced gradient's squares added to the
    sum at its places, the update there divided by the square root of the sum there, plus
    eps."""
    grad = grad.coalesce()  # the update is non-linear so indices must be unique
    indices, values = grad._indices(), grad._values()
    state_sum.add_(ops.sparse_coo_tensor(indices, values.pow(2), grad.size()))
    std_values = state_sum.sparse_mask(grad)._values().sqrt_().add_(eps)
    param.add_(ops.sparse_coo_tensor(indices, values / std_values, grad.size()), alpha=-clr)
