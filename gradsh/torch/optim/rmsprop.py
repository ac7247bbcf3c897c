"""torch.optim.RMSprop: PyTorch's single-tensor update (the CPU path), operation for operation."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchValueError
from gradsh.engine.tensor import Tensor
from gradsh.torch.optim import _flags, _fused, _kernels
from gradsh.torch.optim.optimizer import (
    Optimizer,
    _get_value,
    _scalar_dtype,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    _sparse_error = "RMSprop does not support sparse gradients"

    def __init__(self, params: Any, lr: float | Tensor = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False, capturable: bool = False, foreach: bool | None = None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TorchValueError("Tensor lr must be 1-element")
        for name, value in (("learning rate", lr), ("epsilon value", eps),
                            ("momentum value", momentum), ("weight_decay value", weight_decay),
                            ("alpha value", alpha)):
            if not 0.0 <= value:
                raise TorchValueError(f"Invalid {name}: {value}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay, "capturable": capturable,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("momentum", 0)
            group.setdefault("centered", False)
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("capturable", False)

    def _state_for(self, p: Tensor, group: dict[str, Any]) -> dict[str, Any]:
        state = self.state[p]
        if len(state) == 0:
            state["step"] = ops.zeros((), dtype=_scalar_dtype())
            state["square_avg"] = ops.zeros_like(p)
            if group["momentum"] > 0:
                state["momentum_buffer"] = ops.zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = ops.zeros_like(p)
        return state

    @_use_grad_for_differentiable
    def step(self, closure: Any = None) -> Any:
        """One update of every parameter that has a gradient; returns the closure's loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            self._refuse_sparse(group)
            for p in group["params"]:
                if p.grad is None:
                    continue
                _rmsprop_update(p, p.grad, self._state_for(p, group), group)
        return loss


def _rmsprop_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                    group: dict[str, Any]) -> None:
    """torch.optim.rmsprop._single_tensor_rmsprop for one parameter."""
    _flags.check(param, group)
    lr = _get_value(_to_scalar(group["lr"]))
    alpha, eps, momentum = group["alpha"], group["eps"], group["momentum"]
    square_avg = state["square_avg"]
    state["step"] += 1
    if _fused.rmsprop(param, grad, state, group, lr):
        return
    if group["maximize"]:
        grad = -grad
    if group["weight_decay"] != 0:
        grad = grad.add(param, alpha=group["weight_decay"])
    square_avg.mul_(alpha)
    _kernels.addcmul_(square_avg, grad, grad, value=1 - alpha)
    if group["centered"]:
        grad_avg = state["grad_avg"]
        _kernels.lerp_(grad_avg, grad, 1 - alpha)
        avg = _kernels.addcmul_(square_avg.clone(), grad_avg, grad_avg, value=-1).sqrt_()
    else:
        avg = square_avg.sqrt()
    avg = avg.add_(eps)
    if momentum > 0:
        buf = state["momentum_buffer"]
        buf.mul_(momentum)
        _kernels.addcdiv_(buf, grad, avg)
        param.add_(buf, alpha=-lr)
    else:
        _kernels.addcdiv_(param, grad, avg, value=-lr)
