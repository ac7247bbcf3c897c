"""torch.amp: autocast regions and the gradient scaler, on PyTorch's CPU build."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.amp.autocast_mode import autocast, is_autocast_available
from gradsh.torch.amp.grad_scaler import GradScaler

__getattr__ = module_getattr("torch.amp")

__all__ = ["GradScaler", "autocast", "is_autocast_available"]
