"""The meta device: tensors with a shape and a dtype but no data, as PyTorch's `device="meta"`.

A meta tensor's array holds zeros that nothing reads as values: a small one (up to `SMALL`
elements) a real array, laid out as its op made it (strides, views and kernels work as on the
CPU), a larger one a single zero broadcast to its shape (no memory whatever the shape). An
operation on meta tensors runs its forward on those arrays when they are small, or through a
shape rule (`SHAPE_RULES`, by grad_fn name) when they are not. Writes into one are dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError

META = "meta"

# Inputs up to this many elements in all run their forward on the zero arrays (any op works);
# above it an op needs a shape rule, since its forward would allocate the full result.
SMALL = 1 << 22

NO_DATA_MESSAGE = "Cannot copy out of meta tensor; no data!"
ITEM_MESSAGE = "Tensor.item() cannot be called on meta tensors"

ShapeRule = Callable[..., "tuple[tuple[int, ...], Any] | None"]
SHAPE_RULES: dict[str, ShapeRule] = {}


def array(shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """A meta tensor's array of `shape` and `dtype`: zeros, broadcast from one when large."""
    if _size(shape) <= SMALL:
        return np.zeros(shape, dtype=dtype)
    return np.broadcast_to(np.zeros((), dtype=dtype), shape)


def like(data: Any) -> np.ndarray:
    """`data`'s shape, dtype (and layout, when small) as a meta array: an op's result, a
    tensor moved to meta."""
    if not isinstance(data, np.ndarray):
        data = np.asarray(data)
    if data.size <= SMALL:
        return np.zeros_like(data)  # (order "K": a transposed result keeps its strides)
    if not data.flags.writeable and not any(data.strides):
        return data
    return array(tuple(data.shape), data.dtype)


def is_broadcast(data: Any) -> bool:
    """Whether a meta tensor's array is a broadcast zero (its strides say nothing)."""
    return bool(data.size > SMALL)


def _size(shape: tuple[int, ...]) -> int:
    size = 1
    for n in shape:
        size *= int(n)
    return size


class arrays:  # noqa: N801  (stands where the array module numpy stands)
    """The array module of the meta device, for factories: full and zeros make meta arrays."""

    @staticmethod
    def full(shape: Any, value: Any, dtype: Any) -> np.ndarray:
        return array(tuple(shape), dtype)

    @staticmethod
    def zeros(shape: Any, dtype: Any) -> np.ndarray:
        return array(tuple(shape), dtype)


def forward(node: Any, *inputs: Any, **params: Any) -> Any:
    """`node.forward` for meta inputs: a shape rule when one is known and the inputs are large,
    else the forward itself on the zero arrays (the result becomes a meta array in _make)."""
    size = sum(int(t._data.size) for t in inputs if hasattr(t, "_data"))
    rule = SHAPE_RULES.get(node.node_name)
    if rule is not None and size > SMALL:
        known = rule(node, *inputs, **params)
        if known is not None:
            return array(*known)
    return node.forward(*inputs, **params)


def no_data() -> TorchNotImplementedError:
    return TorchNotImplementedError(NO_DATA_MESSAGE)


def check_item() -> None:
    raise TorchRuntimeError(ITEM_MESSAGE)


def no_kernel(operator: str) -> TorchNotImplementedError:
    """The error of an op whose result depends on the data (torch.equal, unique)."""
    return TorchNotImplementedError(
        f"{operator}: attempted to run this operator with Meta tensors, but there was no fake "
        "impl or Meta kernel registered. You may have run into this message while using an "
        "operator with PT2 compilation APIs (torch.compile/torch.export); in order to use this "
        "operator with those APIs you'll need to add a fake impl. Please see the following for "
        "next steps:  https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")


NONZERO_MESSAGE = (
    "The register_meta function for torch.nonzero() raises unimplemented by default, as a "
    "correct data-independent implementation does not exist. This implementation returns a "
    "fake value, assuming all elements of the tensor are non-zero. To enable this "
    "registration, please set 'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' "
    "to True.")


def mixed_devices(expected: str, found: str) -> TorchRuntimeError:
    """The error of a TensorIterator op mixing a meta tensor with another device's."""
    return TorchRuntimeError(f"Tensor on device {found} is not on the expected device "
                             f"{expected}!")


def rule(*names: str) -> Callable[[ShapeRule], ShapeRule]:
    """Register a shape rule for the nodes named `names`."""

    def register(function: ShapeRule) -> ShapeRule:
        for name in names:
            SHAPE_RULES[name] = function
        return function

    return register


@rule("ConvolutionBackward0")
def _convolution(node: Any, x: Any, weight: Any, *rest: Any, geo: Any = None,
                 **_: Any) -> tuple[Any, Any] | None:
    if geo is None or not hasattr(geo, "out_size"):
        return None  # (conv3d's node: its forward runs)
    one_d = x.ndim == 3
    height, width = (1, x.shape[2]) if one_d else x.shape[2:]
    kernel = (1, weight.shape[2]) if one_d else tuple(weight.shape[2:])
    out_h, out_w = geo.out_size(height, width, kernel)
    spatial = (out_w,) if one_d else (out_h, out_w)
    return (x.shape[0], weight.shape[0], *spatial), x._data.dtype


# Ops whose result has the broadcast shape of their tensor inputs: the dtype comes from the
# forward run on one element of each input.
ELEMENTWISE = (
    "AddBackward0", "AddBackward1", "SubBackward0", "SubBackward1", "RsubBackward0",
    "RsubBackward1", "MulBackward0", "MulBackward1", "DivBackward0", "DivBackward1",
    "DivBackward2", "DivBackward3", "PowBackward0", "PowBackward1", "PowBackward2",
    "NegBackward0", "ExpBackward0", "LogBackward0", "SqrtBackward0", "RsqrtBackward0",
    "AbsBackward0", "SinBackward0", "CosBackward0", "TanhBackward0", "SigmoidBackward0",
    "ReluBackward0", "GeluBackward0", "SiluBackward0", "LeakyReluBackward0", "EluBackward0",
    "HardtanhBackward0", "SoftplusBackward0", "MishBackward0", "SoftmaxBackward0",
    "LogSoftmaxBackward0", "ClampBackward1", "ClampMinBackward0", "ClampMaxBackward0",
    "MaximumBackward0", "MinimumBackward0", "WhereBackward0", "MaskedFillBackward0",
    "ReciprocalBackward0", "SquareBackward0", "ErfBackward0", "Log1PBackward0",
    "Expm1Backward0", "CloneBackward0", "LerpBackward0", "LerpBackward1",
)


@rule(*ELEMENTWISE)
def _elementwise(node: Any, *inputs: Any, **params: Any) -> tuple[Any, Any] | None:
    tensors = [t for t in inputs if hasattr(t, "_data")]
    shape = np.broadcast_shapes(*(tuple(t._data.shape) for t in tensors))
    probe = object.__new__(type(node))
    probe.needs_input_grad = (False,) * len(inputs)
    one = [type(t)._make(np.zeros((1,) * t._data.ndim, t._data.dtype)) if hasattr(t, "_data")
           else t for t in inputs]
    return shape, np.asarray(probe.forward(*one, **params)).dtype


@rule("MmBackward0", "BmmBackward0")
def _matmul(node: Any, a: Any, b: Any, **_: Any) -> tuple[Any, Any]:
    return (*a.shape[:-1], b.shape[-1]), a._data.dtype


@rule("AddmmBackward0")
def _addmm(node: Any, bias: Any, a: Any, b: Any, *_: Any, **__: Any) -> tuple[Any, Any]:
    return (a.shape[0], b.shape[1]), a._data.dtype
