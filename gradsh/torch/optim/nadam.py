"""torch.optim.NAdam: PyTorch's single-tensor update (the CPU path), operation for operation;
with foreach=True the multi-tensor update's order."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchValueError
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

__all__ = ["NAdam"]


class NAdam(_SingleTensorOptimizer):
    _sparse_error = "NAdam does not support sparse gradients"
    _group_defaults = (("maximize", False), ("foreach", None), ("capturable", False),
                       ("differentiable", False), ("decoupled_weight_decay", False))

    def __init__(self, params: Any, lr: float | Tensor = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_hyperparameters(lr, eps, weight_decay, betas)
        if not 0.0 <= momentum_decay:
            raise TorchValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay,
                    "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Tensor, state: dict[str, Any]) -> None:
        state["step"] = ops.tensor(0.0, dtype=_scalar_dtype())
        state["mu_product"] = ops.tensor(1.0, dtype=_scalar_dtype())
        state["exp_avg"] = ops.zeros_like(p)
        state["exp_avg_sq"] = ops.zeros_like(p)


def _nadam_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                  group: dict[str, Any]) -> None:
    """torch.optim.nadam._single_tensor_nadam for one parameter (capturable=False), or with
    foreach=True _multi_tensor_nadam's order (the CPU's foreach ops run tensor by tensor)."""
    _flags.check(param, group, "params, mu_products and state_steps")
    lr = _get_value(_to_scalar(group["lr"]))
    beta1, beta2 = group["betas"]
    weight_decay, momentum_decay = group["weight_decay"], group["momentum_decay"]
    if group["maximize"]:
        grad = -grad
    exp_avg, exp_avg_sq, mu_product = state["exp_avg"], state["exp_avg_sq"], state["mu_product"]
    state["step"] += 1
    step = _get_value(state["step"])
    bias_correction2 = 1 - beta2**step
    grad = _weight_decayed(param, grad, lr, weight_decay, group["decoupled_weight_decay"])
    mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
    mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
    mu_product *= mu
    _kernels.lerp_(exp_avg, grad, 1 - beta1)
    _kernels.addcmul_(exp_avg_sq.mul_(beta2), grad, grad, value=1 - beta2)
    if group["foreach"]:  # _multi_tensor_nadam: sqrt(v) / sqrt(1 - beta2 ** step)
        denom = exp_avg_sq.sqrt().div_(bias_correction2**0.5)
    else:
        denom = exp_avg_sq.div(bias_correction2).sqrt()
    mu_product_next = _get_value(mu_product) * mu_next
    denom.add_(group["eps"])
    _kernels.addcdiv_(param, grad, denom,
                      value=(-lr * (1.0 - mu) / (1.0 - _get_value(mu_product))))
    _kernels.addcdiv_(param, exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))


# the class above updates a parameter with this function
NAdam._update = staticmethod(_nadam_update)
