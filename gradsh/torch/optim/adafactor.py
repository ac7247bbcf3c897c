"""torch.optim.Adafactor: PyTorch's single-tensor update (the only one it runs unless foreach is
asked for), operation for operation: factored second moments (a row and a column mean of the
squared gradient) for matrices, a full one for vectors, relative step sizes and update
clipping."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchValueError
from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch.optim.optimizer import (
    _SingleTensorOptimizer,
    _get_value,
    _scalar_dtype,
    _to_scalar,
)

__all__ = ["Adafactor"]


class Adafactor(_SingleTensorOptimizer):
    _sparse_error = "Adafactor does not support sparse gradients"
    _group_defaults = (("foreach", None),)

    def __init__(self, params: Any, lr: float | Tensor = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0,
                 weight_decay: float = 0.0, *, foreach: bool | None = None,
                 maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TorchValueError("Tensor lr must be 1-element")
        for bad, message in (
                (not 0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}"),
                (not 0.0 >= beta2_decay, f"beta2_decay should be <= 0 but is: {beta2_decay}"),
                (eps[0] is not None and not 0.0 <= eps[0],
                 f"epsilon1 should be >= 0 but is: {eps[0]}"),
                (not 0.0 <= eps[1], f"epsilon2 should be >= 0 but is: {eps[1]}"),
                (not 1.0 <= d, f"Clipping threshold d should be >= 1 but is: {d}"),
                (not 0.0 <= weight_decay, f"weight_decay should be >= 0 but is: {weight_decay}")):
            if bad:
                raise TorchValueError(message)
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    def step(self, closure: Any = None) -> Any:
        """One update of every parameter that has a gradient, under no_grad (Adafactor has no
        `differentiable` option); returns the closure's loss."""
        with no_grad():
            return self._step_each(closure, self._update, self._init_state)

    @staticmethod
    def _init_state(p: Tensor, state: dict[str, Any]) -> None:
        state["step"] = ops.tensor(0.0, dtype=_scalar_dtype())
        grad = p.grad
        if grad.dim() > 1:
            state["row_var"] = grad.new_zeros([*grad.shape[:-1], 1])
            state["col_var"] = grad.new_zeros([*grad.shape[:-2], 1, grad.shape[-1]])
        else:
            state["variance"] = ops.zeros_like(grad)


def _adafactor_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                      group: dict[str, Any]) -> None:
    """torch.optim._adafactor._single_tensor_adafactor for one parameter."""
    lr = _to_scalar(group["lr"])
    eps1, eps2 = group["eps"]
    if group["maximize"]:
        grad = -grad
    if eps1 is None:
        eps1 = _eps(param)
    step_t = state["step"]
    step_t += 1
    step_float = step_t.item()
    one_minus_beta2_t = step_float ** group["beta2_decay"]
    rho_t = min(_get_value(lr) if isinstance(lr, Tensor) else lr, 1 / (step_float ** 0.5))
    alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t
    if group["weight_decay"] != 0:
        param.mul_(1 - lr * group["weight_decay"])
    if grad.dim() > 1:
        row_var, col_var = state["row_var"], state["col_var"]
        row_mean = ops.norm(grad, dim=-1, keepdim=True).square_().div_(grad.size(-1))
        row_var.lerp_(row_mean, one_minus_beta2_t)
        col_mean = ops.norm(grad, dim=-2, keepdim=True).square_().div_(grad.size(-2))
        col_var.lerp_(col_mean, one_minus_beta2_t)
        var_estimate = row_var @ col_var
        var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
    else:
        variance = state["variance"]
        variance.lerp_(grad * grad, one_minus_beta2_t)
        var_estimate = variance.clone()
    update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
    update.mul_(grad)
    denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * group["d"]))
    param.add_(update, alpha=-alpha / denom)


def _eps(t: Tensor) -> float:
    """torch.finfo(t.dtype).eps."""
    return float(np.finfo(t._data.dtype).eps)


# the class above updates a parameter with this function
Adafactor._update = staticmethod(_adafactor_update)
