"""Argument helpers every public function shares: dims, sizes, devices, numbers."""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, limits, meta
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (
    TorchAssertionError,
    TorchIndexError,
    TorchOverflowError,
    TorchRuntimeError,
    TorchTypeError,
)
from gradsh.engine.functions.common import preserve_layout
from gradsh.engine.ops.return_types import return_type
from gradsh.engine.tensor import Function, Tensor, _as_array, apply_inplace, check_same_device

__all__ = [
    "Number", "TensorLike", "is_number", "python_scalar", "as_int", "OperandTypeError",
    "as_tensor_operand", "wrap_dim", "normalize_dims", "size_args", "given_size", "DefaultDevice",
    "DeviceHooks", "REQUIRES_GRAD_DTYPE_MESSAGE", "RETURN_TYPES", "apply_node",
    "unmeasured",
]


Number = bool | int | float
TensorLike = Tensor | Number


def is_number(value: Any) -> bool:
    """A Python number, or a NumPy scalar (which PyTorch's argument parser reads as one)."""
    return isinstance(value, (bool, int, float, complex, np.bool_, np.integer, np.floating,
                              np.complexfloating)) \
        and not isinstance(value, Tensor)


def python_scalar(value: Any) -> Any:
    """A NumPy scalar as PyTorch reads one where a Number goes: an integer as int, a float (and,
    as PyTorch's scalar_slow does, a numpy.bool) as float. Anything else is returned as it is."""
    if isinstance(value, np.generic):
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, (np.floating, np.bool_)):
            return float(value)
        if isinstance(value, np.complexfloating):
            return complex(value)
    return value


def as_int(value: Any) -> int | None:
    """An integer argument (a dim, a size) as PyTorch's parser takes one: a Python int (never
    a bool), a NumPy integer or a one-element integer tensor; None for anything else."""
    if value.__class__ is int:
        return value  # type: ignore[no-any-return]
    if isinstance(value, Tensor):
        if value.numel() == 1 and not value.dtype.is_floating_point \
                and value.dtype is not dtypes.bool_:
            return int(value.item())
        return None
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return operator.index(value)
    return None


def _type_name(value: Any) -> str:
    """The type's name as PyTorch's messages print it (CPython's tp_name): a built-in or a
    Python class by its name, an extension type with its module (`numpy.ndarray`)."""
    kind = type(value)
    if kind.__module__ == "torch" and kind.__name__ in ("dtype", "device", "Size"):
        return f"torch.{kind.__name__}"  # (C types in PyTorch, Python classes in gradsh)
    if kind.__module__ == "builtins" or kind.__flags__ & _HEAP_TYPE:
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class defined in Python


class OperandTypeError(TorchTypeError):
    """An operand that is neither a tensor nor a number: the argument guard names the argument
    and its position (`add(): argument 'other' (position 2) must be Tensor, not str`), and a
    Tensor operator answers NotImplemented, as PyTorch's do."""

    def __init__(self, value: Any) -> None:
        super().__init__(f"unsupported operand type: '{_type_name(value)}'")
        self.value = value


def as_tensor_operand(value: TensorLike, like: Tensor | None = None) -> Tensor:
    """A Tensor for an operand: Python numbers become wrapped 0-d tensors, as in PyTorch."""
    if isinstance(value, Tensor):
        return value
    if is_number(value):
        return Tensor.wrap_scalar(python_scalar(value))
    raise OperandTypeError(value)


def tensor_operand(value: Any) -> Tensor:
    """A Tensor-only operand (atan2, fmax, hypot, logical_and, gcd ...: PyTorch has no Number
    overload for them): anything else is an OperandTypeError, which the argument guard words
    as PyTorch's parser does (`fmax(): argument 'other' (position 2) must be Tensor, not int`)."""
    if isinstance(value, Tensor):
        return value
    raise OperandTypeError(value)


def unmeasured(*tensors: Any) -> bool:
    """Whether every tensor's data is under the size from which the argument guards measure
    memory: an op whose guard checked them may call other ops behind theirs (`__wrapped__`),
    which would check the same tensors again."""
    for x in tensors:
        if x._data.nbytes >= limits.MEASURED_FROM:
            return False
    return True


NO_SELF: Any = object()  # the default of a method's self: called through the class with nothing


def self_tensor(value: Any, name: str) -> Tensor:
    """The self of a Tensor method that has no torch.* function (new_zeros ...): anything else
    came through the class (torch.Tensor.new_empty((3, 4))), and the TensorBase method
    descriptor refuses it with Python's TypeError."""
    if value is NO_SELF:
        raise TorchTypeError(f"unbound method TensorBase.{name}() needs an argument")
    if not isinstance(value, Tensor):
        raise TorchTypeError(f"descriptor '{name}' for 'torch._C.TensorBase' objects doesn't "
                             f"apply to a '{type(value).__name__}' object")
    return value


def missing_arguments(name: str, names: list[str]) -> TorchTypeError:
    """PyTorch's parser's text for required arguments not given (plural for one, as it is)."""
    return TorchTypeError(f"{name}() missing {len(names)} required positional argument"
                          f"{'s' if len(names) == 1 else ''}: "
                          + ", ".join(f'"{n}"' for n in names))


def _check_tensor(value: Any, fname: str, arg: str = "input", position: int = 1) -> Tensor:
    if not isinstance(value, Tensor):
        raise TorchTypeError(
            f"{fname}(): argument '{arg}' (position {position}) must be Tensor, not "
            f"{_type_name(value)}"
        )
    return value


def wrap_dim(dim: int, ndim: int) -> int:
    """A dimension index made non-negative, with PyTorch's IndexError when out of range."""
    index = as_int(dim)
    if index is None:
        raise TorchTypeError(f"dim must be an int, got {_type_name(dim)}")
    dim = index
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if dim < low or dim > high:
        raise TorchIndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
        )
    return dim % builtins.max(ndim, 1)


def normalize_dims(dim: int | Sequence[int], ndim: int) -> tuple[int, ...]:
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    result = tuple(wrap_dim(d, ndim) for d in dims)
    for i, d in enumerate(result):
        if d in result[:i]:
            raise TorchRuntimeError(f"dim {d} appears multiple times in the list of dims")
    if ndim == 0:
        return ()
    return result


def _reduction_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """dims for sum/mean: an empty list reduces over every dimension, as in PyTorch."""
    dims = normalize_dims(dim, ndim)
    return dims if dims else tuple(range(ndim))


# The C++ types fill_'s checked_convert names (AT_FORALL_SCALAR_TYPES)
_C_INTEGER_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
                    "int64": "int64_t"}


def check_scalar_int(value: Any) -> None:
    """A Python int as PyTorch's parser takes it for a Scalar: an int64, or below 2**64 an
    unsigned 64-bit number; beyond, PyLong_AsUnsignedLongLong's OverflowError."""
    if value.__class__ is int and not -(1 << 63) <= value < (1 << 64):
        raise TorchOverflowError("can't convert negative int to unsigned" if value < 0
                                 else "int too big to convert")


def checked_fill(value: Any, dtype: DType) -> Any:
    """A fill value (full, fill_, masked_fill) as c10::checked_convert takes it into an integer
    dtype: out of range raises; a negative integer wraps into an unsigned type down to -max."""
    check_scalar_int(value)
    if dtype.category != 1 or isinstance(value, (bool, np.bool_)):
        return value
    info = np.iinfo(dtype.np)
    if isinstance(value, (float, np.floating)):
        fits = math.isfinite(value) and info.min <= value <= info.max
    else:
        low = -int(info.max) if info.min == 0 else int(info.min)
        fits = low <= int(value) <= int(info.max)
        value = int(np.array(value, dtype=np.int64).astype(dtype.np)) if fits else value
    if not fits:
        raise TorchRuntimeError(f"value cannot be converted to type "
                                f"{_C_INTEGER_NAMES[dtype.np.name]} without overflow")
    return value


# the factories whose only positional parameter is the size (rand and randn have a generator
# overload too: another message)
_ONE_SIGNATURE = frozenset({"empty", "zeros", "ones"})


def size_args(args: tuple[Any, ...], fname: str = "zeros", itemsize: int = 0) -> tuple[int, ...]:
    """`zeros(2, 3)`, `zeros((2, 3))`, `zeros([2, 3])` and `zeros(size)` all mean shape (2, 3).

    With `itemsize`, a shape over gradsh's memory limit is refused before anything is allocated.
    """
    sequence = len(args) == 1 and isinstance(args[0], (tuple, list))
    if sequence:
        args = tuple(args[0])
    shape = []
    for i, item in enumerate(args):
        n = as_int(item)
        if n is None:
            # PyTorch's parser takes a size whose first element is not an int for no size at all
            if i == 0 and sequence:
                raise TorchTypeError(
                    f"{fname}(): argument 'size' (position 1) must be tuple of ints, but found "
                    f"element of type {_type_name(item)} at pos 0")
            if i == 0 and len(args) > 1 and fname in _ONE_SIGNATURE:
                raise TorchTypeError(
                    f"{fname}() takes 1 positional argument but {len(args)} were given")
            if len(args) > 1:
                raise TorchTypeError(
                    f"{fname}(): argument 'size' failed to unpack the object at pos {i + 1} with "
                    f'error "type must be tuple of ints,but got {_type_name(item)}"'
                )
            raise TorchTypeError(
                f"{fname}(): argument 'size' (position 1) must be tuple of ints, not "
                f"{_type_name(item)}"
            )
        shape.append(n)
    for n in shape:
        if n < 0:
            if fname == "zeros":  # at::zeros checks its sizes itself
                raise TorchRuntimeError("zeros: Dimension size must be non-negative.")
            raise TorchRuntimeError(
                f"Trying to create tensor with negative dimension {n}: {shape}"
            )
    if itemsize:
        limits.check(tuple(shape), itemsize)
    return tuple(shape)


def given_size(positional: tuple[Any, ...], size: Any, name: str) -> tuple[Any, ...]:
    """The size of `zeros(2, 3)` or of `zeros(size=(2, 3))`, for size_args."""
    if size is None:
        return positional
    if positional:
        raise TorchTypeError(f"{name}() got multiple values for argument 'size'")
    return (size,)


def apply_node(inplace: bool, cls: type[Function], *inputs: Tensor, **params: Any) -> Tensor:
    """The node applied to the inputs, or in place on the first (an op's `x_()` form)."""
    if inplace:
        return apply_inplace(cls, *inputs, **params)
    return cls.apply(*inputs, **params)


def _has_cuda() -> bool:
    """gradsh's cuda:0 is there: simulated, or a GPU through CuPy."""
    import importlib.util
    import sys

    if backend.sim_cuda_enabled():
        return True
    # (CuPy already imported, or a stand-in put in sys.modules, has no spec to find)
    found = "cupy" in sys.modules or importlib.util.find_spec("cupy") is not None
    return found and backend.cuda_available()


def _accelerator(index: int) -> str:
    """An int device is an index on the current accelerator (PyTorch's CPU build has none)."""
    if _has_cuda():
        return f"cuda:{index}"
    raise TorchRuntimeError("Cannot access accelerator device when none is available.")


def _device_name(device: Any) -> str:
    if device is None:
        return DefaultDevice.value
    if isinstance(device, int) and not isinstance(device, bool):
        device = _accelerator(device)
    name = str(device)
    if name == "cuda":
        return "cuda:0"
    if name == "cpu" or name == "meta" or name.startswith("cuda:"):
        if name.startswith("cuda:") and name != "cuda:0" and _has_cuda():
            raise TorchRuntimeError(f"gradsh has one CUDA device, cuda:0; got {name}")
        return name  # (without CUDA, placing a tensor there fails as on cuda:0: backend.check)
    kind = name.split(":")[0]
    if kind == "mps":
        raise TorchRuntimeError("PyTorch is not linked with support for mps devices")
    if kind == "xpu":
        raise TorchAssertionError("Torch not compiled with XPU enabled")
    raise TorchRuntimeError(
        "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
        "maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of "
        f"device string: {name}"
    )


def allocated_itemsize(dtype: DType, device: Any) -> int:
    """The bytes an element of a new tensor on `device` takes: none on the meta device (for
    size_args' memory check)."""
    return 0 if _device_name(device) == "meta" else dtype.itemsize


class DefaultDevice:
    """The device new tensors are created on (`device cuda` changes it)."""

    value: str = "cpu"


class DeviceHooks:
    """How a device becomes usable (the backend decides: CuPy, simulated, or the error)."""

    @staticmethod
    def check(device: str) -> None:
        backend.check(device)


REQUIRES_GRAD_DTYPE_MESSAGE = (
    "Only Tensors of floating point and complex dtype can require gradients"
)


def _check_kernel_devices(method: str, *arguments: tuple[str, Tensor | None]) -> None:
    """The device check of an op whose CUDA kernel checks its arguments one by one (mm, bmm,
    dot, addmv, cat, nll_loss), with that wrapper's words; TensorIterator ops check in
    Function.common_device instead. Only a kernel on CUDA checks: all-CPU arguments pass."""
    for _, t in arguments:  # (a loop, not any() over a generator: nll_loss's every call)
        if t is not None and t.device != "cpu":
            check_same_device(method, arguments)
            return


def _new(data: Any, dtype: DType, device: str | None, requires_grad: bool) -> Tensor:
    dev = _device_name(device)
    DeviceHooks.check(dev)
    if requires_grad and dtype.category < 2:
        raise TorchRuntimeError(REQUIRES_GRAD_DTYPE_MESSAGE)
    if dev == "meta":  # (no data: only the shape is kept)
        array = meta.array(np.shape(data), dtype.np)
    elif backend.is_device_array(data):
        array = data.astype(dtype.np, order="C", copy=False)
    else:
        # a dense array keeps its layout (ATen copies with preserve_format: torch.tensor of a
        # Fortran-ordered array, *_like of a transposed tensor)
        array = np.asarray(data, dtype=dtype.np, order="K")
        if not array.flags.writeable or (isinstance(data, np.ndarray) and array is data
                                         and data.base is not None):
            array = preserve_layout(array.copy(order="K"), array)  # (size-1 dims' strides too)
    array = backend.to_device(array, dev)  # made (or drawn) on the host, then copied
    t = Tensor._make(array, dev)
    t._requires_grad = bool(requires_grad)
    return t


def memory_order(t: Tensor) -> list[int] | None:
    """A dense, non-overlapping t's dimensions from outermost to innermost in memory when that
    is not their plain order (a transposed or permuted tensor); None otherwise. ATen's
    *_like(t) keep such a layout, and random draws fill it in memory order."""
    strides = t.stride()
    order = sorted(range(t.ndim), key=lambda d: -strides[d])
    if order == list(range(t.ndim)):
        return None
    expected = 1
    for d in reversed(order):
        if t.shape[d] != 1 and strides[d] != expected:
            return None  # overlapping, broadcast or with gaps: *_like is row-major
        expected *= t.shape[d]
    return order


def in_layout_of(t: Tensor, make: Any) -> Any:
    """make(shape) -> a row-major array, laid out as ATen's *_like(t) would be: made over t's
    dimensions in memory order, then viewed in t's order."""
    return in_layout(memory_order(t), t.shape, make)


_CHANNELS_LAST = {"channels_last": (4, [0, 2, 3, 1]), "channels_last_3d": (5, [0, 2, 3, 4, 1])}


def format_order(memory_format: Any, shape: Any, like: Tensor | None = None,
                 default: str = "preserve") -> list[int] | None:
    """The memory order (outermost dimension first; None for row-major) a torch.memory_format
    asks for: preserve keeps `like`'s dense layout, channels_last(_3d) puts the channels
    innermost; its RuntimeError for a tensor of another rank, as ATen's."""
    name = default if memory_format is None else getattr(memory_format, "name", memory_format)
    name = str(name).removesuffix("_format")
    if name in _CHANNELS_LAST:
        rank, order = _CHANNELS_LAST[name]
        if len(shape) != rank:
            raise TorchRuntimeError(f"required rank {rank} tensor to use {name} format")
        return order
    if name == "preserve":
        if like is None:
            raise TorchRuntimeError("unsupported memory format Preserve")
        return memory_order(like)
    if name != "contiguous":
        raise TorchRuntimeError(f"unsupported memory format {name}")
    return None


def is_in_memory_order(t: Tensor, order: list[int] | None) -> bool:
    """Whether t is dense with its dimensions `order` outermost first (None: row-major)."""
    data = t._data
    return bool((data if order is None else data.transpose(order)).flags.c_contiguous)


def in_layout(order: list[int] | None, shape: Any, make: Any) -> Any:
    """make(shape) -> a row-major array, laid out in `order` (format_order's): made over the
    dimensions in memory order, then viewed in the logical order."""
    if order is None:
        return make(tuple(shape))
    data = make(tuple(shape[d] for d in order))
    return data.transpose([order.index(d) for d in range(len(shape))])


def _resolve_dtype(dtype: DType | None, default: DType) -> DType:
    if dtype is None:
        return default
    if not isinstance(dtype, DType):
        raise TorchTypeError(f"dtype must be torch.dtype, not {_type_name(dtype)}")
    return dtype


def _plain(data: Any, device: str) -> Tensor:
    """A result that never has a grad_fn (comparisons, argmax ...)."""
    return Tensor._make(_as_array(data), device)


# torch.return_types.max and friends: (values, indices); the `_out` kinds are what a call with
# out= returns
RETURN_TYPES: dict[str, type] = {
    kind + suffix: return_type(kind + suffix, ("values", "indices"))
    for kind in ("max", "min", "sort", "topk", "median", "nanmedian", "kthvalue", "mode",
                 "cummax", "cummin")
    for suffix in ("", "_out")
}


def _c_name(dtype: DType) -> str:
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
            "bool": "bool", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
            "int16": "short int",
            "int8": "signed char", "uint8": "unsigned char"}.get(dtype.name, dtype.name)
