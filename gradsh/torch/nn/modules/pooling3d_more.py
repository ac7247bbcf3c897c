"""torch.nn.MaxUnpool3d, AdaptiveMaxPool3d, LPPool3d and FractionalMaxPool2d/3d (PyTorch keeps
them in torch/nn/modules/pooling.py with the 1-D and 2-D ones, whose bases they share)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.modules.pooling import _AdaptiveMaxPoolNd, _LPPoolNd

__all__ = ["AdaptiveMaxPool3d", "FractionalMaxPool2d", "FractionalMaxPool3d", "LPPool3d",
           "MaxUnpool3d"]


def _triple(value: Any) -> tuple[Any, ...]:
    return _ntuple(value, 3)


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


class _FractionalMaxPoolNd(Module):
    """FractionalMaxPool2d / 3d: `_random_samples` a buffer (None: drawn at every call)."""

    _dims = 2

    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Any = None) -> None:
        super().__init__()
        dims, name = self._dims, type(self).__name__
        if dims == 3 and ((isinstance(kernel_size, int) and kernel_size <= 0) or (  # (3-D only)
                isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size))):
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        self.kernel_size = _ntuple(kernel_size, dims)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _ntuple(output_size, dims) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, dims) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling "
                             "ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor) -> Any:  # noqa: A002
        from gradsh.torch.nn import functional as F

        pool = F.fractional_max_pool2d if self._dims == 2 else F.fractional_max_pool3d
        return pool(input, self.kernel_size, self.output_size, self.output_ratio,
                    self.return_indices, _random_samples=self._random_samples)


def _ntuple(value: Any, n: int) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,) * n


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    _dims = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    _dims = 3
