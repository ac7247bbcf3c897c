"""torch.autograd: grad, backward, Variable and grad mode (Function, functional, gradcheck and
anomaly mode are their own modules)."""

from __future__ import annotations

from gradsh.engine import ops as _ops
from gradsh.torch._missing import module_getattr
from gradsh.torch.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)

__getattr__ = module_getattr("torch.autograd")

grad = _ops.grad
backward = _ops.autograd_backward
Variable = _ops.Variable

__all__ = ["Variable", "backward", "enable_grad", "grad", "inference_mode", "is_grad_enabled",
           "no_grad", "set_grad_enabled"]
