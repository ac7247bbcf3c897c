"""LayerNorm, RMSNorm, GroupNorm and LocalResponseNorm."""

from __future__ import annotations

import numbers
from typing import Any

from gradsh.engine import ops
from gradsh.engine.tensor import Tensor
from gradsh.torch.nn import functional as F
from gradsh.torch.nn import init
from gradsh.torch.nn.modules.linear import factory
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.parameter import Parameter

__all__ = ["GroupNorm", "LayerNorm", "LocalResponseNorm", "RMSNorm"]


def affine_parameters(module: Module, shape: Any, enabled: bool, bias: bool,
                      kwargs: dict[str, Any]) -> None:
    """weight and bias of `shape` (uninitialised), or registered as None."""
    if enabled:
        module.weight = Parameter(ops.empty(shape, **kwargs))
        if bias:
            module.bias = Parameter(ops.empty(shape, **kwargs))
        else:
            module.register_parameter("bias", None)
    else:
        module.register_parameter("weight", None)
        module.register_parameter("bias", None)


def _ones_and_zeros(module: Module) -> None:
    if module.weight is not None:
        init.ones_(module.weight)
        if module.bias is not None:
            init.zeros_(module.bias)


class LayerNorm(Module):
    def __init__(self, normalized_shape: Any, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        affine_parameters(self, self.normalized_shape, elementwise_affine, bias,
                          factory(device, dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _ones_and_zeros(self)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return ("{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}, "
                "bias={use_bias}".format(**self.__dict__, use_bias=self.bias is not None))


class RMSNorm(Module):
    def __init__(self, normalized_shape: Any, eps: float | None = None,
                 elementwise_affine: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(ops.empty(self.normalized_shape, **factory(device, dtype)))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.weight is not None:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return ("{normalized_shape}, eps={eps}, "
                "elementwise_affine={elementwise_affine}".format(**self.__dict__))


class GroupNorm(Module):
    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        affine_parameters(self, num_channels, affine, bias, factory(device, dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _ones_and_zeros(self)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return ("{num_groups}, {num_channels}, eps={eps}, affine={affine}, "
                "bias={use_bias}".format(**self.__dict__, use_bias=self.bias is not None))


class LocalResponseNorm(Module):
    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75,
                 k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)
