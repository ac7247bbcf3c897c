"""torch.nn.MaxUnpool3d, AdaptiveMaxPool3d and LPPool3d (PyTorch keeps them in
torch/nn/modules/pooling.py with the 1-D and 2-D ones, whose bases they share)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.modules.pooling import _AdaptiveMaxPoolNd, _LPPoolNd

__all__ = ["AdaptiveMaxPool3d", "LPPool3d", "MaxUnpool3d"]


def _triple(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * 3


class MaxUnpool3d(Module):
    """MaxPool3d's partial inverse: the pooled values back at their indices (F.max_unpool3d)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = _triple(kernel_size)
        self.stride = _triple(stride if stride is not None else kernel_size)
        self.padding = _triple(padding)

    def forward(self, input: Tensor, indices: Tensor,  # noqa: A002
                output_size: Any = None) -> Tensor:
        from gradsh.torch.nn import functional as F

        return F.max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding,
                              output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    def forward(self, input: Tensor) -> Any:  # noqa: A002
        from gradsh.torch.nn import functional as F

        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class LPPool3d(_LPPoolNd):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        from gradsh.torch.nn import functional as F

        return F.lp_pool3d(input, float(self.norm_type), self.kernel_size, self.stride,
                           self.ceil_mode)
