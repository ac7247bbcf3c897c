"""torch.optim.Rprop: PyTorch's single-tensor update (the CPU path), operation for operation."""

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

__all__ = ["Rprop"]


class Rprop(_SingleTensorOptimizer):
    _group_defaults = (("foreach", None), ("maximize", False), ("differentiable", False),
                       ("capturable", False))

    def __init__(self, params: Any, lr: float | Tensor = 1e-2,
                 etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TorchValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise TorchValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise TorchValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def _step_each(self, closure: Any, update: Any, init_state: Any) -> Any:
        """The step size starts at the group's lr, so the state is made with the group at hand
        (the base class's init_state sees only the parameter)."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if getattr(p.grad, "is_sparse", False):
                    raise TorchRuntimeError("Rprop does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = ops.zeros((), dtype=_scalar_dtype())
                    state["prev"] = ops.zeros_like(p)
                    state["step_size"] = ops.full_like(p.grad, _get_value(_to_scalar(group["lr"])))
                _rprop_update(p, p.grad, state, group)
        return loss


def _rprop_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                  group: dict[str, Any]) -> None:
    """torch.optim.rprop._single_tensor_rprop for one real parameter (capturable=False)."""
    _flags.check(param, group)
    etaminus, etaplus = group["etas"]
    step_size_min, step_size_max = group["step_sizes"]
    if group["maximize"]:
        grad = -grad
    prev, step_size = state["prev"], state["step_size"]
    state["step"] += 1
    sign = grad.mul(prev.clone() if group["differentiable"] else prev).sign()
    # the three masks are taken one after the other, each from the sign as rewritten so far
    sign[sign.gt(0)] = etaplus
    sign[sign.lt(0)] = etaminus
    sign[sign.eq(0)] = 1
    step_size.mul_(sign).clamp_(step_size_min, step_size_max)
    grad = grad.clone()
    grad[sign.eq(etaminus)] = 0
    _kernels.addcmul_(param, grad.sign(), step_size, value=-1)
    prev.copy_(grad)
