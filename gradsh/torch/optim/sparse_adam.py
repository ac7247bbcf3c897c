"""torch.optim.SparseAdam: Adam's moments and update at the places a sparse gradient holds only
(nn.Embedding(sparse=True)'s parameters), operation for operation as torch.optim._functional's
sparse_adam."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine import ops
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.tensor import Tensor
from gradsh.torch.optim.optimizer import Optimizer, _to_scalar

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    def __init__(self, params: Any, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TorchValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise TorchValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise TorchValueError(f"Invalid epsilon value: {eps}")
        for i in (0, 1):
            if not 0.0 <= betas[i] < 1.0:
                raise TorchValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize})
        sparse_params, complex_params = [], []
        for index, group in enumerate(self.param_groups):
            for d_index, param in enumerate(group["params"]):
                if param.is_sparse:
                    sparse_params.append([index, d_index])
                if param.is_complex():
                    complex_params.append([index, d_index])
        if sparse_params:
            raise TorchValueError(f"Sparse params at indices {sparse_params}: SparseAdam "
                                  "requires dense parameter tensors")
        if complex_params:
            raise TorchValueError(f"Complex params at indices {complex_params}: SparseAdam does "
                                  "not support complex parameters")

    def step(self, closure: Any = None) -> Any:
        """One update of every parameter that has a gradient; returns the closure's loss."""
        loss = self._closure_loss(closure)
        with ops.no_grad():
            for group in self.param_groups:
                updates = []
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if not p.grad.is_sparse:
                        raise TorchRuntimeError("SparseAdam does not support dense gradients, "
                                                "please consider Adam instead")
                    state = self.state[p]
                    if len(state) == 0:
                        state["step"] = 0
                        state["exp_avg"] = ops.zeros_like(p)
                        state["exp_avg_sq"] = ops.zeros_like(p)
                    state["step"] += 1
                    updates.append((p, state))
                for p, state in updates:
                    _sparse_adam_update(p, p.grad, state, group)
        return loss


def _sparse_adam_update(param: Tensor, grad: Tensor, state: dict[str, Any],
                        group: dict[str, Any]) -> None:
    """torch.optim._functional.sparse_adam for one parameter."""
    beta1, beta2 = group["betas"]
    grad = grad if not group.get("maximize", False) else -grad
    grad = grad.coalesce()  # the update is non-linear so indices must be unique
    indices, values = grad._indices(), grad._values()
    if values.numel() == 0:
        return  # an empty gradient: no update

    def make_sparse(v: Tensor) -> Tensor:
        return ops.sparse_coo_tensor(indices, v, grad.size(), check_invariants=False)

    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    # old <- b * old + (1 - b) * new, as old += (1 - b) * (new - old)
    old_exp_avg_values = exp_avg.sparse_mask(grad)._values()
    exp_avg_update_values = values.sub(old_exp_avg_values).mul_(1 - beta1)
    exp_avg.add_(make_sparse(exp_avg_update_values))
    old_exp_avg_sq_values = exp_avg_sq.sparse_mask(grad)._values()
    exp_avg_sq_update_values = values.pow(2).sub_(old_exp_avg_sq_values).mul_(1 - beta2)
    exp_avg_sq.add_(make_sparse(exp_avg_sq_update_values))
    numer = exp_avg_update_values.add_(old_exp_avg_values)
    exp_avg_sq_update_values.add_(old_exp_avg_sq_values)
    denom = exp_avg_sq_update_values.sqrt_().add_(group["eps"])
    step = state["step"]
    step_size = _to_scalar(group["lr"]) * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
    param.add_(make_sparse(-step_size * numer.div_(denom)))
