"""torch.optim.SGD: stochastic gradient descent with momentum, dampening, Nesterov, weight decay
and maximize, in the order of PyTorch's single-tensor update (the path it takes on the CPU)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes, limits
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.functions.arithmetic import _add_scaled
from gradsh.engine.ops.arithmetic import add_
from gradsh.engine.tensor import Tensor, _GradMode
from gradsh.engine.undo import _Undo
from gradsh.engine.vecmath.fp import fma32, fma32_into
from gradsh.torch.optim import _fused
from gradsh.torch.optim.optimizer import Optimizer, _to_scalar, _use_grad_for_differentiable

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params: Any, lr: float | Tensor = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float | Tensor = 0, nesterov: bool = False,
                 *, maximize: bool = False, foreach: bool | None = None,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TorchValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise TorchValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise TorchValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise TorchValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise TorchRuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise TorchRuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    @_use_grad_for_differentiable
    def step(self, closure: Any = None) -> Any:
        """One update of every parameter that has a gradient; returns the closure's loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            momentum = group["momentum"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                if momentum == 0:  # no state at all, as in PyTorch
                    _sgd_update(p, p.grad, None, group)
                    continue
                state = self.state[p]
                state["momentum_buffer"] = _sgd_update(p, p.grad, state.get("momentum_buffer"),
                                                       group)
        return loss


def _sgd_update(param: Tensor, grad: Tensor, buf: Tensor | None,
                group: dict[str, Any]) -> Tensor | None:
    """torch.optim.sgd._single_tensor_sgd for one parameter; returns the momentum buffer.
    With foreach=True and nesterov, _multi_tensor_sgd adds momentum * buf into the gradient
    itself (p.grad) where no weight decay or maximize made a copy of it first."""
    weight_decay, momentum, lr = group["weight_decay"], group["momentum"], _to_scalar(group["lr"])
    into_grad = (group["foreach"] and group["nesterov"] and momentum != 0
                 and weight_decay == 0 and not group["maximize"] and not grad.is_sparse)
    if buf is not None and momentum != 0 and not grad.is_sparse and \
            _fused.sgd(param, grad, buf, group, _number(weight_decay), _number(lr)):
        if into_grad:
            grad.add_(buf, alpha=momentum)
        return buf
    if group["maximize"]:
        grad = -grad
    if weight_decay != 0:
        grad = grad.add(param, alpha=_number(weight_decay))
    if momentum != 0:
        if buf is None:
            buf = grad.detach().clone()
        else:
            buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
        if into_grad:
            grad = grad.add_(buf, alpha=momentum)
        else:
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
    _add_in_place(param, grad, -_number(lr))
    return buf


_ADD_IN_PLACE = add_.__wrapped__  # the op behind the argument guard
_F32 = np.dtype(np.float32)


def _add_in_place(param: Tensor, update: Tensor, alpha: Any) -> None:
    """param.add_(update, alpha=alpha). The optimizer's own call always has arguments PyTorch's
    parser takes (two tensors and a number), so for small arrays, where the guard checks nothing
    else (it measures the memory of large ones), the op runs without it."""
    data = param._data
    if (param.__class__.add_ is Tensor.add_ and update.__class__ is Tensor
            and data.__class__ is np.ndarray and data.nbytes < limits.MEASURED_FROM
            and update._data.nbytes < limits.MEASURED_FROM and alpha.__class__ is float):
        values = update._data
        if (not _GradMode.enabled and data.dtype is _F32 and values.__class__ is np.ndarray
                and values.dtype is _F32 and data.shape == values.shape
                and data.flags.writeable and param.device == "cpu" and not update._wrapped):
            # What add_ does with grad mode off (no node, no checks that can fail): the
            # kernel's sum written into the parameter's storage, its version counted (its
            # fmadd straight away: _add_scaled's float32 case when alpha is not 1, computed
            # in the storage itself where the kernel can)
            if alpha == 1:
                param._inplace_data(_add_scaled(data, values, alpha, dtypes.float32))
                return
            if _Undo.log is not None:
                _Undo.log.record_write(param)
            if fma32_into(values, np.float32(alpha), data):
                param._inplace_written()
            else:
                param._inplace_data(fma32(values, np.float32(alpha), data))
        else:
            _ADD_IN_PLACE(param, update, alpha=alpha)
    else:
        param.add_(update, alpha=alpha)


def _number(value: Any) -> Any:
    return value.item() if isinstance(value, Tensor) else value
