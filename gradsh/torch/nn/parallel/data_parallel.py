"""nn.DataParallel on a CPU-only build: PyTorch keeps the module and runs it as is (no
replicas), so only the `module.` prefix of its parameter names shows."""

from __future__ import annotations

from typing import Any

from gradsh.torch.nn.modules.module import Module

__all__ = ["DataParallel"]


class DataParallel(Module):
    def __init__(self, module: Module, device_ids: Any = None, output_device: Any = None,
                 dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.device_ids: list[Any] = []  # no GPU: PyTorch's constructor stops here

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)
