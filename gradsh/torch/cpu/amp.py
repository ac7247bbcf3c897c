"""torch.cpu.amp: the deprecated CPU spelling of torch.amp.autocast."""

from __future__ import annotations

from gradsh.torch.amp.autocast_mode import _deprecated

autocast = _deprecated("cpu")

__all__ = ["autocast"]
