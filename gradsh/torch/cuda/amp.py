"""torch.cuda.amp: the deprecated spellings of torch.amp's GradScaler and autocast for 'cuda'."""

from __future__ import annotations

import warnings
from typing import Any

from gradsh.torch import amp
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.cuda.amp")

__all__ = ["GradScaler", "autocast"]


class GradScaler(amp.GradScaler):
    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000,
                 enabled: bool = True) -> None:
        warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                      "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval,
                         enabled)


class autocast(amp.autocast):  # noqa: N801  (PyTorch's name)
    def __init__(self, enabled: bool = True, dtype: Any = None,
                 cache_enabled: bool = True) -> None:
        warnings.warn("`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                      "`torch.amp.autocast('cuda', args...)` instead.", FutureWarning,
                      stacklevel=2)
        super().__init__("cuda", dtype, enabled, cache_enabled)
