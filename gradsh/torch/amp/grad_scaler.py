"""torch.amp.GradScaler (and the deprecated torch.cuda.amp.GradScaler): loss scaling with
dynamic growth and backoff, as torch/amp/grad_scaler.py does it. On PyTorch's CPU build a CUDA
scaler warns and turns itself off (scale() returns its argument, step() just steps)."""

from __future__ import annotations

import warnings
from typing import Any

from gradsh.engine import dtypes, ops
from gradsh.engine.tensor import Tensor, no_grad

class GradScaler:
    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16,
                 growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", stacklevel=2)
            self._enabled = False
        self._init_scale = init_scale
        self._scale: Tensor | None = None
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._growth_tracker = 0
        self._found_inf: dict[int, bool] = {}  # id(optimizer) -> inf or nan in its gradients

    def is_enabled(self) -> bool:
        return self._enabled

    def _scale_tensor(self) -> Tensor:
        if self._scale is None:
            self._scale = ops.full((), self._init_scale, dtype=dtypes.float32)
        return self._scale

    def scale(self, outputs: Any) -> Any:
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            return ops.mul(outputs, self._scale_tensor())
        return type(outputs)(self.scale(o) for o in outputs)

    def unscale_(self, optimizer: Any) -> None:
        if not self._enabled:
            return
        if id(optimizer) in self._found_inf:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        inv = ops.reciprocal(ops.to(self._scale_tensor(), dtypes.float64)).float()
        found = False
        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if not bool(ops.all(ops.isfinite(p.grad))):
                        found = True
                    p.grad.mul_(inv)
        self._found_inf[id(optimizer)] = found

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if id(optimizer) not in self._found_inf:
            self.unscale_(optimizer)
        if not self._found_inf[id(optimizer)]:
            return optimizer.step(*args, **kwargs)
        return None

    def update(self, new_scale: Any = None) -> None:
        if not self._enabled:
            return
        scale = self._scale_tensor()
        if new_scale is not None:
            value = float(new_scale)
        elif any(self._found_inf.values()):
            value = float(scale) * self._backoff_factor
            self._growth_tracker = 0
        else:
            value = float(scale)
            self._growth_tracker += 1
            if self._growth_tracker == self._growth_interval:
                value *= self._growth_factor
                self._growth_tracker = 0
        self._scale = ops.full((), value, dtype=dtypes.float32)
        self._found_inf.clear()

    def get_scale(self) -> float:
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else float(self._scale)

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def state_dict(self) -> dict[str, Any]:
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._growth_tracker}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        self._scale = ops.full((), state_dict["scale"], dtype=dtypes.float32)
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = state_dict["_growth_tracker"]

def _deprecated_cuda_scaler() -> type:
    class CudaGradScaler(GradScaler):
        def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                     backoff_factor: float = 0.5, growth_interval: int = 2000,
                     enabled: bool = True) -> None:
            warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                          "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning,
                          stacklevel=2)
            super().__init__("cuda", init_scale, growth_factor, backoff_factor,
                             growth_interval, enabled)

    CudaGradScaler.__name__ = CudaGradScaler.__qualname__ = "GradScaler"
    return CudaGradScaler

