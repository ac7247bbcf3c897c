"""torch.autograd: grad, backward, Variable, grad mode, custom Functions, the functional API,
gradcheck, anomaly mode and saved-tensor hooks (each in its own module, as in PyTorch)."""

from __future__ import annotations

from gradsh.engine import ops as _ops
from gradsh.torch._missing import module_getattr
from gradsh.torch.autograd import anomaly_mode, function, graph
from gradsh.torch.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
from gradsh.torch.autograd.function import Function, NestedIOFunction, once_differentiable
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

from gradsh.torch.autograd import functional  # noqa: E402  (uses grad, above)
from gradsh.torch.autograd.gradcheck import gradcheck, gradgradcheck  # noqa: E402

__all__ = ["Function", "NestedIOFunction", "Variable", "anomaly_mode", "backward",
           "detect_anomaly", "enable_grad", "function", "functional", "grad", "gradcheck",
           "gradgradcheck", "graph", "inference_mode", "is_grad_enabled", "no_grad", "once_differentiable",
           "set_detect_anomaly", "set_grad_enabled"]
