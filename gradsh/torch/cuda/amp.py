"""torch.cuda.amp: the deprecated CUDA spellings of torch.amp's autocast and GradScaler (on
PyTorch's CPU build both warn and turn themselves off)."""

from __future__ import annotations

from gradsh.torch.amp.autocast_mode import _deprecated
from gradsh.torch.amp.grad_scaler import _deprecated_cuda_scaler

autocast = _deprecated("cuda")
GradScaler = _deprecated_cuda_scaler()

__all__ = ["GradScaler", "autocast"]
