"""torch.nn.parallel: DataParallel, as PyTorch runs it without GPUs."""

from __future__ import annotations

from gradsh.torch.nn.parallel.data_parallel import DataParallel

__all__ = ["DataParallel"]
