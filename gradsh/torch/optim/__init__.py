"""torch.optim: the optimizers."""

from __future__ import annotations

from gradsh.engine.optim import SGD
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.optim")

__all__ = ["SGD"]
