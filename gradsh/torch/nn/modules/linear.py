"""Identity, Linear and Bilinear, initialised as PyTorch's reset_parameters does."""

from __future__ import annotations

import math
from typing import Any

from gradsh.engine import ops
from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch.nn import functional as F
from gradsh.torch.nn import init
from gradsh.torch.nn.modules.lazy import LazyModuleMixin
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.parameter import Parameter, UninitializedParameter

__all__ = ["Bilinear", "Identity", "Linear", "NonDynamicallyQuantizableLinear"]


def factory(device: Any, dtype: Any) -> dict[str, Any]:
    return {"device": device, "dtype": dtype}


def weight_and_bias(module: Module, weight_shape: tuple[int, ...], bias_size: int, bias: bool,
                    device: Any, dtype: Any) -> None:
    """Uninitialised `weight` and `bias` parameters (bias registered as None when absent)."""
    module.weight = Parameter(ops.empty(weight_shape, **factory(device, dtype)))
    if bias:
        module.bias = Parameter(ops.empty(bias_size, **factory(device, dtype)))
    else:
        module.register_parameter("bias", None)


def kaiming_reset(module: Module) -> None:
    """Linear's and the convolutions' default initialisation: kaiming_uniform_ with a=sqrt(5)
    for the weight, then the bias uniform in +-1/sqrt(fan_in) (0 for an empty layer)."""
    init.kaiming_uniform_(module.weight, a=math.sqrt(5))
    if module.bias is not None:
        fan_in = init._calculate_fan_in_and_fan_out(module.weight)[0]
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(module.bias, -bound, bound)


class Identity(Module):
    """Returns its input; takes (and ignores) any arguments."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return input


class Linear(Module):
    """y = x W^T + b, W of shape (out_features, in_features)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        weight_and_bias(self, (out_features, in_features), out_features, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        kaiming_reset(self)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear whose in_features is the last size of its first input."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class Bilinear(Module):
    """y = x1^T A x2 + b, A of shape (out_features, in1_features, in2_features)."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        weight_and_bias(self, (out_features, in1_features, in2_features), out_features, bias,
                        device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(Linear):
    """MultiheadAttention's out_proj: a Linear under the name PyTorch gives it (its repr)."""
