"""torch.optim.Adamax: PyTorch's single-tensor update (the CPU path), operation for operation."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.tensor import Tensor
from gradsh.torch.optim import _flags, _kernels
from gradsh.torch.optim.optimizer import (
    _SingleTensorOptimizer,
    _check_hyperparameters,
    _get_value,
    _scalar_dtype,
    _to_scalar,
)

__all__ = ["Adamax"]


class Adamax(_SingleTensorOptimizer):
    _sparse_error = "Adamax does not support sparse gradients"
    _group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                       ("capturable", False))

    def __init__(self, params: Any, lr: float | Tensor = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        _check_hyperparameters(lr, eps, weight_decay, betas)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Tensor, state: dict[str, Any]) -> None:
        state["step"] = ops.tensor(0.0, dtype=_scalar_dtype())
        state["exp_avg"] = ops.zeros_like(p)
        state["exp_inf"] = ops.zeros_like(p)


def _adamax_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                   group: dict[str, Any]) -> None:
    """torch.optim.adamax._single_tensor_adamax for one parameter (capturable=False)."""
    _flags.check(param, group)
    lr = _get_value(_to_scalar(group["lr"]))
    beta1, beta2 = group["betas"]
    if group["maximize"]:
        grad = -grad
    state["step"] += 1
    if group["weight_decay"] != 0:
        grad = grad.add(param, alpha=group["weight_decay"])
    exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
    _kernels.lerp_(exp_avg, grad, 1 - beta1)
    _kernels.maximum_(exp_inf.mul_(beta2), grad.abs().add_(group["eps"]))
    clr = lr / (1 - beta1 ** _get_value(state["step"]))
    _kernels.addcdiv_(param, exp_avg, exp_inf, value=-clr)


# the class above updates a parameter with this function
Adamax._update = staticmethod(_adamax_update)
