"""torch.nn.SyncBatchNorm (PyTorch keeps it in torch/nn/modules/batchnorm.py). Without an
initialised process group, which a gradsh program never has, PyTorch's forward falls back to
F.batch_norm exactly as BatchNorm does; convert_sync_batchnorm swaps every batch norm of a
model for one sharing its parameters and buffers."""

from __future__ import annotations

from typing import Any

from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch.nn.modules.batchnorm import _BatchNorm
from gradsh.torch.nn.modules.module import Module

__all__ = ["SyncBatchNorm"]


class SyncBatchNorm(_BatchNorm):
    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True,
                 process_group: Any = None, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def _check_non_zero_input_channels(self, input: Tensor) -> None:  # noqa: A002
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        self._check_input_dim(input)
        self._check_non_zero_input_channels(input)
        return super().forward(input)

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any = None) -> Module:
        """`module` with each BatchNorm*D in it (itself included) replaced by a SyncBatchNorm
        that shares its parameters, buffers and training flag."""
        module_output = module
        if isinstance(module, _BatchNorm):
            module_output = SyncBatchNorm(module.num_features, module.eps, module.momentum,
                                          module.affine, module.track_running_stats,
                                          process_group, bias=module.bias is not None)
            if module.affine:
                with no_grad():
                    module_output.weight = module.weight
                    module_output.bias = module.bias
            module_output.running_mean = module.running_mean
            module_output.running_var = module.running_var
            module_output.num_batches_tracked = module.num_batches_tracked
            module_output.training = module.training
            if hasattr(module, "qconfig"):
                module_output.qconfig = module.qconfig
        for name, child in module.named_children():
            module_output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return module_output
