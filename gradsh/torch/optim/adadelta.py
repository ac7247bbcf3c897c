"""torch.optim.Adadelta: PyTorch's single-tensor update (the CPU path), operation for operation."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchValueError
from gradsh.engine.tensor import Tensor
from gradsh.torch.optim import _flags, _kernels
from gradsh.torch.optim.optimizer import (
    _SingleTensorOptimizer,
    _get_value,
    _scalar_dtype,
    _to_scalar,
)

__all__ = ["Adadelta"]


class Adadelta(_SingleTensorOptimizer):
    _sparse_error = "Adadelta does not support sparse gradients"
    _group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                       ("capturable", False))

    def __init__(self, params: Any, lr: float | Tensor = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TorchValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise TorchValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise TorchValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise TorchValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "capturable": capturable, "foreach": foreach,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @staticmethod
    def _init_state(p: Tensor, state: dict[str, Any]) -> None:
        state["step"] = ops.zeros((), dtype=_scalar_dtype())
        state["square_avg"] = ops.zeros_like(p)
        state["acc_delta"] = ops.zeros_like(p)


def _adadelta_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                     group: dict[str, Any]) -> None:
    """torch.optim.adadelta._single_tensor_adadelta for one parameter."""
    _flags.check(param, group, devices="['cuda', 'xpu', 'hpu', 'privateuseone']")
    lr = _get_value(_to_scalar(group["lr"]))
    rho, eps = group["rho"], group["eps"]
    state["step"] += 1
    if group["maximize"]:
        grad = -grad
    if group["weight_decay"] != 0:
        grad = grad.add(param, alpha=group["weight_decay"])
    square_avg, acc_delta = state["square_avg"], state["acc_delta"]
    _kernels.addcmul_(square_avg.mul_(rho), grad, grad, value=1 - rho)
    std = square_avg.add(eps).sqrt_()
    delta = acc_delta.add(eps).sqrt_()
    delta.div_(std).mul_(grad)
    _kernels.addcmul_(acc_delta.mul_(rho), delta, delta, value=1 - rho)
    param.add_(delta, alpha=-lr)


# the class above updates a parameter with this function
Adadelta._update = staticmethod(_adadelta_update)
