"""torch.optim.ASGD (averaged SGD): PyTorch's single-tensor update (the CPU path), operation for
operation; `ax` in the state is the running average of the parameter."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.tensor import Tensor
from gradsh.torch.optim import _flags, _kernels
from gradsh.torch.optim.optimizer import (
    _SingleTensorOptimizer,
    _get_value,
    _scalar_dtype,
    _to_scalar,
)

__all__ = ["ASGD"]


class ASGD(_SingleTensorOptimizer):
    _group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                       ("capturable", False))

    def __init__(self, params: Any, lr: float | Tensor = 1e-2, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TorchValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise TorchValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _step_each(self, closure: Any, update: Any, init_state: Any) -> Any:
        """eta starts at the group's lr, so the state is made with the group at hand."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if getattr(p.grad, "is_sparse", False):
                    raise TorchRuntimeError("ASGD does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = ops.zeros((), dtype=_scalar_dtype())
                    state["eta"] = ops.tensor(_get_value(_to_scalar(group["lr"])),
                                              dtype=_scalar_dtype())
                    state["mu"] = ops.ones((), dtype=_scalar_dtype())
                    state["ax"] = ops.zeros_like(p)
                _asgd_update(p, p.grad, state, group)
        return loss


def _asgd_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                 group: dict[str, Any]) -> None:
    """torch.optim.asgd._single_tensor_asgd for one real parameter (capturable=False); with
    foreach=True the multi-tensor update's order."""
    _flags.check(param, group, "params, mus, etas, and state_steps")
    lr = _get_value(_to_scalar(group["lr"]))
    lambd, alpha, t0 = group["lambd"], group["alpha"], group["t0"]
    if group["maximize"]:
        grad = -grad
    mu, ax, eta, step_t = state["mu"], state["ax"], state["eta"], state["step"]
    step_t += 1
    if group["weight_decay"] != 0:
        grad = grad.add(param, alpha=group["weight_decay"])
    if group["foreach"]:  # _multi_tensor_asgd: param -= eta * (grad + lambd * param), ...
        _kernels.addcmul_(param, grad.add(param, alpha=lambd), eta, value=-1)
        _kernels.addcmul_(ax, param.sub(ax), mu)  # ... ax += mu * (param - ax), always
    else:
        eta_value = _get_value(eta)
        param.mul_(1 - lambd * eta_value)  # decay term
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:  # averaging
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
    step = _get_value(step_t)
    lr_t = _to_scalar(group["lr"])
    if isinstance(lr_t, Tensor):  # a tensor lr: the arithmetic is the tensor's
        eta.copy_(lr_t / ((1 + lambd * lr_t * step) ** alpha))
    else:  # PyTorch goes through a float64 tensor here (torch.as_tensor of a Python float)
        eta.copy_(ops.tensor(lr / ((1 + lambd * lr * step) ** alpha), dtype=ops.float64))
    mu.copy_(ops.tensor(1 / max(1, step - t0), dtype=ops.float64))
