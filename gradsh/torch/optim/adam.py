"""torch.optim.Adam (and AdamW's update, decoupled weight decay): PyTorch's single-tensor update,
the path it takes on the CPU, operation for operation."""

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

__all__ = ["Adam"]


class Adam(Optimizer):
    _sparse_error = ("Adam does not support sparse gradients, please consider SparseAdam "
                     "instead")

    def __init__(self, params: Any, lr: float | Tensor = 1e-3,
                 betas: tuple[float | Tensor, float | Tensor] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False,
                 fused: bool | None = None, decoupled_weight_decay: bool = False) -> None:
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise TorchValueError(
                    "lr as a Tensor is not supported for capturable=False and foreach=True")
            if lr.numel() != 1:
                raise TorchValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise TorchValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise TorchValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise TorchValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise TorchValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
                or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))):
            raise TorchValueError("betas must be either both floats or both Tensors")
        betas = tuple(map(_to_scalar, betas))  # type: ignore[assignment]
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise TorchRuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise TorchRuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("decoupled_weight_decay", False)
            group.setdefault("fused", None)

    def _state_for(self, p: Tensor, group: dict[str, Any]) -> dict[str, Any]:
        state = self.state[p]
        if len(state) == 0:  # lazy initialization, on a parameter's first gradient
            state["step"] = ops.tensor(0.0, dtype=_scalar_dtype())
            state["exp_avg"] = ops.zeros_like(p)
            state["exp_avg_sq"] = ops.zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = ops.zeros_like(p)
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
                _adam_update(p, p.grad, self._state_for(p, group), group)
        return loss


def _adam_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                 group: dict[str, Any]) -> None:
    """torch.optim.adam._single_tensor_adam for one parameter (capturable=False)."""
    _flags.check(param, group)
    lr = _get_value(_to_scalar(group["lr"]))
    beta1, beta2 = (_get_value(b) for b in group["betas"])
    weight_decay, eps = group["weight_decay"], group["eps"]
    exp_avg, exp_avg_sq, step_t = state["exp_avg"], state["exp_avg_sq"], state["step"]
    step_t += 1
    if _fused.adam(param, grad, state, group, lr, beta1, beta2, _get_value(step_t)):
        return
    if group["maximize"]:
        grad = -grad
    if weight_decay != 0:
        if group["decoupled_weight_decay"]:
            param.mul_(1 - lr * weight_decay)
        else:
            grad = grad.add(param, alpha=weight_decay)
    _kernels.lerp_(exp_avg, grad, 1 - beta1)
    exp_avg_sq.mul_(beta2)
    _kernels.addcmul_(exp_avg_sq, grad, grad, value=1 - beta2)
    step = _get_value(step_t)
    bias_correction1 = 1 - beta1**step
    bias_correction2 = 1 - beta2**step
    step_size = lr / bias_correction1
    bias_correction2_sqrt = bias_correction2**0.5
    if group["amsgrad"]:
        max_exp_avg_sq = _kernels.maximum_(state["max_exp_avg_sq"], exp_avg_sq)
        denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    else:
        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    _kernels.addcdiv_(param, exp_avg, denom, value=-step_size)
