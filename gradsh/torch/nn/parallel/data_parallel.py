"""nn.DataParallel as PyTorch runs it with no accelerator: the wrapped module, called as is."""

from __future__ import annotations

from typing import Any

from gradsh.torch.nn.modules.module import Module

__all__ = ["DataParallel"]


class DataParallel(Module):
    """PyTorch's DataParallel finds no CUDA device here, so it keeps `module` and an empty
    `device_ids` (no `dim` or `output_device`) and forward calls the module directly."""

    def __init__(self, module: Module, device_ids: Any = None, output_device: Any = None,
                 dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.device_ids: list[int] = []

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)
