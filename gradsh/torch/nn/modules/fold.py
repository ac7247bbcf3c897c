"""Fold and Unfold: F.fold and F.unfold as modules."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.col2im(input, self.output_size, self.kernel_size,  # type: ignore
                          self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = (kernel_size, dilation,
                                                                      padding, stride)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.im2col(input, self.kernel_size, self.dilation,  # type: ignore
                          self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")
