"""torch.optim.RAdam: PyTorch's single-tensor update (the CPU path), operation for operation."""

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
    _weight_decayed,
)

__all__ = ["RAdam"]


class RAdam(_SingleTensorOptimizer):
    _sparse_error = "RAdam does not support sparse gradients"
    _group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                       ("capturable", False), ("decoupled_weight_decay", False))

    def __init__(self, params: Any, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_hyperparameters(lr, eps, weight_decay, betas)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Tensor, state: dict[str, Any]) -> None:
        state["step"] = ops.tensor(0.0, dtype=_scalar_dtype())
        state["exp_avg"] = ops.zeros_like(p)
        state["exp_avg_sq"] = ops.zeros_like(p)


def _radam_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                  group: dict[str, Any]) -> None:
    """torch.optim.radam._single_tensor_radam for one parameter (capturable=False); with
    foreach=True the multi-tensor update's order."""
    _flags.check(param, group)
    lr = _get_value(_to_scalar(group["lr"]))
    beta1, beta2 = group["betas"]
    weight_decay, eps = group["weight_decay"], group["eps"]
    if group["maximize"]:
        grad = -grad
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    state["step"] += 1
    step = _get_value(state["step"])
    grad = _weight_decayed(param, grad, lr, weight_decay, group["decoupled_weight_decay"])
    _kernels.lerp_(exp_avg, grad, 1 - beta1)
    _kernels.addcmul_(exp_avg_sq.mul_(beta2), grad, grad, value=1 - beta2)
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    bias_corrected_exp_avg = exp_avg / bias_correction1
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
    if group["foreach"]:
        _multi_tensor_step(param, exp_avg, exp_avg_sq, lr, step, rho_t, rho_inf, group)
        return
    if rho_t > 5.0:
        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
        adaptive_lr = (bias_correction2**0.5) / exp_avg_sq.sqrt().add_(eps)
        param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
    else:
        param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)


def _multi_tensor_step(param: Tensor, exp_avg: Tensor, exp_avg_sq: Tensor, lr: float,
                       step: float, rho_t: float, rho_inf: float, group: dict[str, Any]) -> None:
    """_multi_tensor_radam's update (capturable=False), whose order differs from the single
    tensor's: param += exp_avg * (1 / ((sqrt(v) + eps) / bias_correction2) + unrect_step),
    its factors folded into Python numbers first."""
    beta1, beta2 = group["betas"]
    rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
            / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5 if rho_t > 5 else 0
    unrectified = 0 if rect > 0 else 1.0
    bias_correction1 = 1 - beta1**step
    unrect_step_size = (lr * unrectified / bias_correction1) * -1
    bias_correction2 = ((1 - beta2**step) ** 0.5) * (lr * rect / bias_correction1) * -1
    buffer = exp_avg_sq.sqrt().add_(group["eps"]).div_(bias_correction2).reciprocal_()
    _kernels.addcmul_(param, exp_avg, buffer.add_(unrect_step_size))


# the class above updates a parameter with this function
RAdam._update = staticmethod(_radam_update)
