"""torch.nn.ConvTranspose3d (PyTorch keeps it in torch/nn/modules/conv.py with the others)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.conv import _ConvTransposeNd, _conv_transpose_init, _named_init

__all__ = ["ConvTranspose3d"]


class ConvTranspose3d(_ConvTransposeNd):
    _dims = 3
    __init__ = _named_init("ConvTranspose3d", _conv_transpose_init)

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        from gradsh.torch.nn import functional as F

        return F.conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups,
                                  self.dilation)
