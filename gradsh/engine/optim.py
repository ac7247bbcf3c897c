"""torch.optim.SGD: the single-tensor update PyTorch runs on the CPU, in place on the leaves."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchTypeError, TorchValueError, warn
from gradsh.engine.tensor import Tensor, no_grad

_REQUIRED = object()


class SGD:
    """Stochastic gradient descent with PyTorch's arguments, checks, state and update order.

    `step()` runs under no_grad and changes each parameter with `add_`, so every update bumps
    the parameter's version counter exactly as torch.optim.SGD does.
    """

    def __init__(self, params: Any, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach: Any = None, differentiable: bool = False, fused: Any = None) -> None:
        if isinstance(lr, Tensor):
            lr = lr.item()
        if lr < 0.0:
            raise TorchValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise TorchValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise TorchValueError("Nesterov momentum requires a momentum and zero dampening")
        self.defaults: dict[str, Any] = {
            "lr": lr, "momentum": momentum, "dampening": dampening,
            "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
            "foreach": foreach, "differentiable": differentiable, "fused": fused,
        }
        self.state: dict[Tensor, dict[str, Any]] = {}
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TorchTypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {_type_string(params)}"
            )
        groups = list(params)
        if not groups:
            raise TorchValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, group: dict[str, Any]) -> None:
        params = group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TorchTypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            params = list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TorchTypeError(
                    f"optimizer can only optimize Tensors, but one of the params is "
                    f"{_type_string(p)}"
                )
            if not p.is_leaf:
                raise TorchValueError("can't optimize a non-leaf Tensor")
        full = {"params": params}
        for key, value in self.defaults.items():
            full[key] = group.get(key, value)
        if len({id(p) for p in params}) != len(params):
            warn(
                "optimizer contains a parameter group with duplicate parameters; in future, this "
                "will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information"
            )
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise TorchValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(full)

    def zero_grad(self, set_to_none: bool = True) -> None:
        for group in self.param_groups:
            for p in group["params"]:
                grad = p._grad
                if grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                    continue
                if grad.grad_fn is not None:
                    grad.detach_()
                else:
                    grad.requires_grad_(False)
                with no_grad():
                    grad.zero_()

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p._grad is not None:
                        self._update(p, group)
        return loss

    def _update(self, param: Tensor, group: dict[str, Any]) -> None:
        # torch.optim.sgd._single_tensor_sgd, operation for operation
        grad = param._grad if not group["maximize"] else -param._grad  # type: ignore[operator]
        assert grad is not None
        if group["weight_decay"] != 0:
            grad = grad.add(param, alpha=group["weight_decay"])  # type: ignore[attr-defined]
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state.setdefault(param, {})
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = grad.clone().detach()  # type: ignore[attr-defined]
                state["momentum_buffer"] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])  # type: ignore
            if group["nesterov"]:
                grad = grad.add(buf, alpha=momentum)  # type: ignore[attr-defined]
            else:
                grad = buf
        param.add_(grad, alpha=-group["lr"])  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(group):
                if key != "params":
                    lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)


def _type_string(value: Any) -> str:
    if isinstance(value, Tensor):
        prefix = "torch.cuda." if value.device != "cpu" else "torch."
        return prefix + value.dtype.legacy
    return type(value).__name__
