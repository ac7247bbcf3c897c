"""torch.amp: GradScaler (loss scaling, on the CPU or disabled where it asks for CUDA) and
autocast, which gradsh runs only where PyTorch disables it (no CUDA, or enabled=False)."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.amp.autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from gradsh.torch.amp.grad_scaler import GradScaler

__getattr__ = module_getattr("torch.amp")

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd", "is_autocast_available"]
