"""torch.utils.data._utils: the DataLoader's helpers (collate)."""

from __future__ import annotations

from gradsh.torch.utils.data._utils import collate

__all__ = ["collate"]
