"""InstanceNorm1d, 2d and 3d: per-sample, per-channel statistics (F.instance_norm)."""

from __future__ import annotations

import warnings
from typing import Any

from gradsh.engine.tensor import Tensor
from gradsh.torch.nn import functional as F
from gradsh.torch.nn.modules.batchnorm import _NormBase

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


class _InstanceNorm(_NormBase):
    no_batch_dim = 0
    dims_text = ""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.dim() not in (self.no_batch_dim, self.no_batch_dim + 1):
            raise ValueError(f"expected {self.dims_text} input (got {input.dim()}D input)")

    def _apply_instance_norm(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        self._check_input_dim(input)
        feature_dim = input.dim() - self.no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You "
                          "can silence this warning by not passing in num_features, which is "
                          "not used because affine=False", stacklevel=2)
        if input.dim() == self.no_batch_dim:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    no_batch_dim, dims_text = 2, "2D or 3D"


class InstanceNorm2d(_InstanceNorm):
    no_batch_dim, dims_text = 3, "3D or 4D"


class InstanceNorm3d(_InstanceNorm):
    no_batch_dim, dims_text = 4, "4D or 5D"
