"""Conv1d, Conv2d, Conv3d and the transposed ConvTranspose1d and ConvTranspose2d, initialised as
PyTorch's _ConvNd.reset_parameters does."""

from __future__ import annotations

import types
from typing import Any

from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch.nn import functional as F
from gradsh.torch.nn.modules.linear import kaiming_reset, weight_and_bias
from gradsh.torch.nn.modules.lazy import LazyModuleMixin
from gradsh.torch.nn.modules.module import Module
from gradsh.torch.nn.parameter import UninitializedParameter

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d"]


def _ntuple(value: Any, n: int) -> tuple[Any, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,) * n


class _ConvNd(Module):
    """The base of the convolutions, with PyTorch's signature: the sizes come as tuples
    (Conv2d's __init__ makes them so), and custom layers subclass it the same way."""

    _dims = 0
    _transposed = False  # the weight is (in, out / groups, *kernel)

    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple[int, ...],
                 stride: tuple[int, ...], padding: str | tuple[int, ...],
                 dilation: tuple[int, ...], transposed: bool, output_padding: tuple[int, ...],
                 groups: int, bias: bool, padding_mode: str, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 f"{valid_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in modes:
            raise ValueError(f"padding_mode must be one of {modes}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = kernel_size, stride
        self.padding, self.dilation = padding, dilation
        self.transposed, self.output_padding = transposed, output_padding
        self.groups, self.padding_mode = groups, padding_mode
        n = len(kernel_size)
        if isinstance(padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * n
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(n - 1, -1, -1), strict=False):
                    total = d * (k - 1)
                    self._reversed_padding_repeated_twice[2 * i] = total // 2
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - total // 2
        else:
            self._reversed_padding_repeated_twice = tuple(p for p in reversed(padding)
                                                          for _ in range(2))
        channels = ((in_channels, out_channels // groups) if transposed
                    else (out_channels, in_channels // groups))
        weight_and_bias(self, (*channels, *kernel_size), out_channels, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        kaiming_reset(self)

    def extra_repr(self) -> str:
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def _conv_forward(self, input: Tensor, weight: Tensor,  # noqa: A002
                      bias: Tensor | None) -> Tensor:
        conv = getattr(F, f"conv{self._dims}d")
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(padded, weight, bias, self.stride, (0,) * self._dims, self.dilation,
                        self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return self._conv_forward(input, self.weight, self.bias)


def _named_init(owner: str, init: Any) -> Any:
    """A copy of the shared `init` named `owner.__init__`, so that a wrong call's TypeError
    reads "Conv2d.__init__() missing ..." as PyTorch's does."""
    copy = types.FunctionType(init.__code__, init.__globals__, "__init__", init.__defaults__,
                              init.__closure__)
    copy.__kwdefaults__, copy.__doc__ = init.__kwdefaults__, init.__doc__
    copy.__qualname__ = f"{owner}.__init__"
    return copy


def _conv_init(self: Any, in_channels: int, out_channels: int, kernel_size: Any,
               stride: Any = 1, padding: Any = 0, dilation: Any = 1, groups: int = 1,
               bias: bool = True, padding_mode: str = "zeros", device: Any = None,
               dtype: Any = None) -> None:
    """Conv1d/2d/3d's __init__: the sizes made tuples of the class's dimension count."""
    n = self._dims
    kernel_t, stride_t, dilation_t = (_ntuple(v, n) for v in (kernel_size, stride, dilation))
    padding_v = padding if isinstance(padding, str) else _ntuple(padding, n)
    _ConvNd.__init__(self, in_channels, out_channels, kernel_t, stride_t, padding_v, dilation_t,
                     False, _ntuple(0, n), groups, bias, padding_mode, device, dtype)


class Conv1d(_ConvNd):
    _dims = 1
    __init__ = _named_init("Conv1d", _conv_init)


class Conv2d(_ConvNd):
    _dims = 2
    __init__ = _named_init("Conv2d", _conv_init)


class Conv3d(_ConvNd):
    _dims = 3
    __init__ = _named_init("Conv3d", _conv_init)


class _ConvTransposeNd(_ConvNd):
    _transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple[int, ...],
                 stride: tuple[int, ...], padding: tuple[int, ...], dilation: tuple[int, ...],
                 transposed: bool, output_padding: tuple[int, ...], groups: int, bias: bool,
                 padding_mode: str, device: Any = None, dtype: Any = None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f"{self.__class__.__name__}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         transposed, output_padding, groups, bias, padding_mode, device, dtype)

    def _output_padding(self, input: Tensor, output_size: Any) -> tuple[int, ...]:  # noqa: A002
        """The output_padding that gives `output_size` (PyTorch's checks and message)."""
        if output_size is None:
            return self.output_padding  # type: ignore[no-any-return]
        n = self._dims
        leading = 2 if input.dim() == n + 2 else 1
        output_size = list(output_size)
        if len(output_size) == leading + n:
            output_size = output_size[leading:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must "
                             f"have {n} or {leading + n} elements (got {len(output_size)})")
        min_sizes = [(input.size(d + leading) - 1) * self.stride[d] - 2 * self.padding[d]
                     + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        max_sizes = [m + self.stride[d] - 1 for d, m in enumerate(min_sizes)]
        for size, low, high in zip(output_size, min_sizes, max_sizes, strict=True):
            if size < low or size > high:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes "
                                 f"range from {min_sizes} to {max_sizes} (for an input of "
                                 f"{input.size()[leading:]})")
        return tuple(size - low for size, low in zip(output_size, min_sizes, strict=True))

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        conv = F.conv_transpose1d if self._dims == 1 else F.conv_transpose2d
        return conv(input, self.weight, self.bias, self.stride, self.padding,
                    self._output_padding(input, output_size), self.groups, self.dilation)


def _conv_transpose_init(self: Any, in_channels: int, out_channels: int, kernel_size: Any,
                         stride: Any = 1, padding: Any = 0, output_padding: Any = 0,
                         groups: int = 1, bias: bool = True, dilation: Any = 1,
                         padding_mode: str = "zeros", device: Any = None,
                         dtype: Any = None) -> None:
    """ConvTranspose1d/2d/3d's __init__: the sizes made tuples of the dimension count."""
    n = self._dims
    _ConvTransposeNd.__init__(self, in_channels, out_channels, _ntuple(kernel_size, n),
                              _ntuple(stride, n), _ntuple(padding, n), _ntuple(dilation, n),
                              True, _ntuple(output_padding, n), groups, bias, padding_mode,
                              device, dtype)


class ConvTranspose1d(_ConvTransposeNd):
    _dims = 1
    __init__ = _named_init("ConvTranspose1d", _conv_transpose_init)


class ConvTranspose2d(_ConvTransposeNd):
    _dims = 2
    __init__ = _named_init("ConvTranspose2d", _conv_transpose_init)


class _LazyConvXdMixin(LazyModuleMixin):
    """A convolution whose in_channels is its first input's channel count."""

    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()  # type: ignore[misc]

    def initialize_parameters(self, input: Tensor, *args: Any, **kwargs: Any) -> None:  # noqa: A002
        if not self.has_uninitialized_params():
            return
        dims = self._dims  # type: ignore[attr-defined]
        if input.dim() not in (dims + 1, dims + 2):
            raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) "
                               f"input to {self.__class__.__name__}, but got input of size: "
                               f"{list(input.shape)}")
        self.in_channels = input.shape[1] if input.dim() == dims + 2 else input.shape[0]
        if self.in_channels % self.groups != 0:  # type: ignore[attr-defined]
            raise ValueError("in_channels must be divisible by groups")
        groups, kernel = self.groups, self.kernel_size  # type: ignore[attr-defined]
        with no_grad():
            self.weight.materialize((self.out_channels, self.in_channels // groups, *kernel))
            if self.bias is not None:  # type: ignore[attr-defined]
                self.bias.materialize((self.out_channels,))  # type: ignore[attr-defined]
            self.reset_parameters()


class LazyConv1d(_LazyConvXdMixin, Conv1d):
    cls_to_become = Conv1d


class LazyConv2d(_LazyConvXdMixin, Conv2d):
    cls_to_become = Conv2d
