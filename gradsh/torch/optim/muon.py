"""torch.optim.Muon: PyTorch's single-tensor update, operation for operation: Nesterov (or
plain) momentum through lerp, the update orthogonalised by the quintic Newton-Schulz
iteration in bfloat16 (addmm with PyTorch's coefficients), decoupled weight decay and the
shape-adjusted learning rate. Muon takes 2-D parameters only."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine import dtypes, ops
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch.optim.optimizer import _SingleTensorOptimizer, _to_scalar

__all__ = ["Muon"]

EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


class Muon(_SingleTensorOptimizer):
    def __init__(self, params: Any, lr: float | Tensor = 1e-3, weight_decay: float = 0.1,
                 momentum: float = 0.95, nesterov: bool = True,
                 ns_coefficients: tuple[float, float, float] = (DEFAULT_A, DEFAULT_B,
                                                                DEFAULT_C),
                 eps: float = EPS, ns_steps: int = DEFAULT_NS_STEPS,
                 adjust_lr_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TorchValueError("Tensor lr must be 1-element")
        for bad, message in (
                (not 0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}"),
                (not 0.0 <= momentum, f"momentum should be >= 0 but is: {momentum}"),
                (not 0.0 <= weight_decay, f"weight decay should be >= 0 but is: {weight_decay}"),
                (adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"),
                 f"Adjust learning rate function {adjust_lr_fn} is not supported")):
            if bad:
                raise TorchValueError(message)
        defaults = {"lr": lr, "weight_decay": weight_decay, "momentum": momentum,
                    "nesterov": nesterov, "ns_coefficients": ns_coefficients, "eps": eps,
                    "ns_steps": ns_steps, "adjust_lr_fn": adjust_lr_fn}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise TorchValueError("Muon only supports 2D parameters whereas we found a "
                                          f"parameter with size: {p.size()}")

    def step(self, closure: Any = None) -> Any:
        """One update of every parameter that has a gradient, under no_grad; returns the
        closure's loss."""
        with no_grad():
            return self._step_each(closure, self._update, self._init_state)

    @staticmethod
    def _init_state(p: Tensor, state: dict[str, Any]) -> None:
        if p.grad.is_sparse:
            raise TorchRuntimeError("Muon does not support sparse gradients")
        state["momentum_buffer"] = ops.zeros_like(p.grad)


def _zeropower_via_newtonschulz(grad: Tensor, ns_coefficients: tuple[float, float, float],
                                ns_steps: int, eps: float) -> Tensor:
    """The quintic Newton-Schulz orthogonalisation, in bfloat16, of a 2-D gradient."""
    if ns_steps >= 100:
        raise TorchValueError("Number of steps must be less than 100 for computational "
                              "efficiency")
    if len(grad.shape) != 2:
        raise TorchValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise TorchValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    ortho_grad = grad.to(dtypes.bfloat16)
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    ortho_grad.div_(ortho_grad.norm().clamp(min=eps))
    for _ in range(ns_steps):
        gram_matrix = ortho_grad @ ortho_grad.T
        gram_update = ops.addmm(gram_matrix, gram_matrix, gram_matrix, beta=b, alpha=c)
        ortho_grad = ops.addmm(ortho_grad, gram_update, ortho_grad, beta=a)
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    return ortho_grad


def _adjust_lr(lr: float, adjust_lr_fn: str | None, param_shape: Any) -> float:
    rows, cols = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        adjusted_ratio = math.sqrt(max(1, rows / cols))
    elif adjust_lr_fn == "match_rms_adamw":
        adjusted_ratio = 0.2 * math.sqrt(max(rows, cols))
    else:
        adjusted_ratio = 1.0
    return lr * adjusted_ratio


def _muon_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                 group: dict[str, Any]) -> None:
    """torch.optim._muon._single_tensor_muon for one parameter."""
    lr = _to_scalar(group["lr"])
    momentum = group["momentum"]
    if grad.ndim != 2:
        raise TorchValueError("Param gradient must be a 2D matrix")
    buf = state["momentum_buffer"]
    buf.lerp_(grad, 1 - momentum)
    update = grad.lerp(buf, momentum) if group["nesterov"] else buf
    update = _zeropower_via_newtonschulz(update, group["ns_coefficients"], group["ns_steps"],
                                         group["eps"])
    adjusted_lr = _adjust_lr(lr, group["adjust_lr_fn"], param.shape)
    param.mul_(1 - lr * group["weight_decay"])
    param.add_(update, alpha=-adjusted_lr)


# the class above updates a parameter with this function
Muon._update = staticmethod(_muon_update)
