"""Lazy modules: LazyLinear, LazyConv1d, LazyConv2d. Their weights are UninitializedParameters
until the first call, which reads the input's size, materialises them in place (an optimizer
made before keeps them), initialises them as the eager layer does, and turns the module into
that layer (PyTorch's cls_to_become)."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.conv import Conv1d, Conv2d
from gradsh.torch.nn.modules.linear import Linear
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.parameter import Parameter

__all__ = ["LazyConv1d", "LazyConv2d", "LazyLinear", "UninitializedParameter"]


class UninitializedParameter(Parameter):
    """A parameter without a shape yet: `materialize` gives it one, in place."""

    def __new__(cls, requires_grad: bool = True, device: Any = None,
                dtype: Any = None) -> UninitializedParameter:
        param = super().__new__(cls, ops.empty(0, device=device, dtype=dtype), requires_grad)
        return param  # type: ignore[return-value]

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        like = ops.zeros(tuple(shape), device=device or self.device, dtype=dtype or self.dtype)
        self._data = like._data
        self.__class__ = Parameter  # type: ignore[assignment]


def _uninitialised(module: Module, bias: bool) -> None:
    kwargs = {"device": module.weight.device, "dtype": module.weight.dtype}
    module.weight = UninitializedParameter(**kwargs)
    if bias:
        module.bias = UninitializedParameter(**kwargs)


def has_uninitialized_params(module: Module) -> bool:
    return any(isinstance(p, UninitializedParameter) for p in module.parameters(recurse=False))


class LazyLinear(Linear):
    """Linear whose in_features is the last size of its first input."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, 0, bias, device, dtype)
        self.out_features = out_features
        _uninitialised(self, bias)

    def reset_parameters(self) -> None:
        if not has_uninitialized_params(self) and self.in_features != 0:
            super().reset_parameters()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if not has_uninitialized_params(self):
            return super().forward(input)
        self.in_features = input.shape[-1]
        self.weight.materialize((self.out_features, self.in_features))
        if self.bias is not None:
            self.bias.materialize((self.out_features,))
        self.__class__ = self.cls_to_become  # type: ignore[assignment]
        self.reset_parameters()
        return self.forward(input)  # type: ignore[no-any-return]  (Linear's, once materialised)


class _LazyConvMixin:
    cls_to_become: type
    _dims = 0

    def _lazy_init(self, out_channels: int, bias: bool) -> None:
        self.out_channels = out_channels
        _uninitialised(self, bias)  # type: ignore[arg-type]

    def reset_parameters(self) -> None:
        if not has_uninitialized_params(self) and self.in_channels != 0:  # type: ignore
            super().reset_parameters()  # type: ignore[misc]

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        module: Any = self
        if has_uninitialized_params(module):
            batched = input.ndim == self._dims + 2
            module.in_channels = input.shape[1 if batched else 0]
            if module.transposed:
                shape = (module.in_channels, module.out_channels // module.groups)
            else:
                shape = (module.out_channels, module.in_channels // module.groups)
            module.weight.materialize(shape + tuple(module.kernel_size))
            if module.bias is not None:
                module.bias.materialize((module.out_channels,))
            module.__class__ = self.cls_to_become
            module.reset_parameters()
        return module.forward(input)  # type: ignore[no-any-return]


class LazyConv1d(_LazyConvMixin, Conv1d):
    cls_to_become = Conv1d
    _dims = 1

    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self._lazy_init(out_channels, bias)


class LazyConv2d(_LazyConvMixin, Conv2d):
    cls_to_become = Conv2d
    _dims = 2

    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self._lazy_init(out_channels, bias)
