"""Copies, casts, devices and fills: clone, to, .float(), cuda, detach, copy_, fill_ ..."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, limits, meta
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (
    TorchAssertionError,
    TorchIndexError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
    warn,
)
from gradsh.engine.functions.common import infer_size
from gradsh.engine.functions.copies import (
    CloneBackward0,
    CopyBackwards,
    FillBackward2,
    FillBackward3,
    ToCopyBackward0,
    ZeroBackward0,
)
from gradsh.engine.ops.arguments import (
    DeviceHooks,
    TensorLike,
    _check_tensor,
    _device_name,
    _type_name,
    checked_fill,
    format_order,
    is_in_memory_order,
    is_number,
    wrap_dim,
)
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor, apply_inplace
from gradsh.engine.inplace import write_overlapping

__all__ = [
    "clone", "to", "tensor_type", "type_as", "cuda", "cpu", "detach", "Variable", "numel", "size",
    "tolist", "item", "element_size", "data_ptr", "is_floating_point", "is_complex", "is_signed",
    "dim_order", "is_tensor", "zero_", "fill_", "copy_", "apply_", "map_",
]


@guarded
def clone(a: Tensor, memory_format: Any = "preserve") -> Tensor:
    # torch.contiguous_format and torch.preserve_format (gradsh.torch's constants) by name
    name = getattr(memory_format, "name", None)
    if name in ("preserve_format", "contiguous_format"):
        memory_format = name.removesuffix("_format")
    a = _check_tensor(a, "clone")
    if memory_format not in ("preserve", "contiguous"):
        order = format_order(memory_format, a.shape, a)  # channels_last(_3d)
        memory_format = "contiguous" if order is None else tuple(order)
    return CloneBackward0.apply(a, memory_format=memory_format)


_TYPE_NAMES = {f"torch.{d.legacy}": d for d in dtypes.ALL}


@guarded
def to(a: Tensor, *args: Any, dtype: DType | None = None, device: Any = None,
       copy: bool = False, non_blocking: bool = False, memory_format: Any = None) -> Tensor:
    flags: list[bool] = []  # non_blocking, copy: the booleans after the first argument
    for i, arg in enumerate(args):
        if isinstance(arg, DType):
            dtype = arg
        elif isinstance(arg, Tensor):
            dtype, device = arg.dtype, arg.device
        elif isinstance(arg, bool) and i:
            flags.append(arg)
        elif isinstance(arg, (bool, float)):
            # a number passes for the Tensor of to(Tensor other): x.to(1.5) is x.double()
            dtype = Tensor.wrap_scalar(arg).dtype
        elif arg is not None:
            device = arg
    if len(flags) > 1:
        copy = flags[1]
    target_dtype = dtype or a.dtype
    target_device = _device_name(device) if device is not None else a.device
    if target_device != a.device:
        DeviceHooks.check(target_device)
    order = None
    if memory_format is not None and getattr(memory_format, "name", "") != "preserve_format":
        order = format_order(memory_format, a.shape, a)
        if is_in_memory_order(a, order):
            order = None
    if target_dtype is a.dtype and target_device == a.device and not copy and order is None:
        return a
    limits.check(tuple(a.shape), target_dtype.itemsize)
    return ToCopyBackward0.apply(a, dtype=target_dtype, device=target_device,
                                 order=None if order is None else tuple(order))


def _cast(dtype: DType) -> Callable[[Tensor], Tensor]:
    def cast(a: Tensor) -> Tensor:
        return to(a, dtype)

    return cast


@guarded
def tensor_type(a: Tensor, dtype: Any = None) -> Any:
    """`x.type()` -> 'torch.FloatTensor'; `x.type(dtype)` casts."""
    if dtype is None:
        prefix = "torch.cuda." if a.device != "cpu" else "torch."
        return prefix + a.dtype.legacy
    on_cuda = False
    if isinstance(dtype, str):
        on_cuda = dtype.startswith("torch.cuda.")
        if on_cuda:
            _cuda_types_available()
        name = dtype.replace("torch.cuda.", "torch.", 1)
        if name not in _TYPE_NAMES:
            raise TorchValueError(f"invalid type: '{dtype}'")
        dtype = _TYPE_NAMES[name]
    elif isinstance(getattr(dtype, "dtype", None), DType):  # torch.FloatTensor
        on_cuda = getattr(dtype, "is_cuda", False) is True  # torch.cuda.FloatTensor
        dtype = dtype.dtype
    elif not isinstance(dtype, DType):
        raise TorchTypeError("dtype must be a type, str, or dtype object")
    if on_cuda:
        _cuda_types_available()
        return to(a, dtype=dtype, device="cuda:0")
    return to(a, dtype)


def _cuda_types_available() -> None:
    try:
        backend.check("cuda:0")
    except TorchAssertionError:
        raise TorchRuntimeError(NO_ATEN_CUDA) from None


# PyTorch's CPU build asked for a torch.cuda tensor type by x.type(...)
NO_ATEN_CUDA = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you "
    "are trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if this "
    "has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library.")


@guarded
def type_as(a: Tensor, other: Tensor) -> Tensor:
    return to(a, _check_tensor(other, "type_as", "other", 1).dtype)


@guarded
def cuda(a: Tensor, device: Any = None) -> Tensor:
    return to(a, device if device is not None else "cuda:0")


@guarded
def cpu(a: Tensor) -> Tensor:
    return to(a, "cpu")


@guarded
def detach(a: Tensor) -> Tensor:
    return a.detach()


def Variable(data: Tensor | None = None, requires_grad: bool = False,  # noqa: N802
             volatile: bool = False, _grad_fn: Any = None, name: str | None = None) -> Tensor:
    """torch.autograd.Variable (deprecated): today a new leaf on the same storage and version
    counter, requiring grad if asked; an empty tensor without data. `volatile` only warns."""
    if volatile:
        warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.")
    if volatile and requires_grad:
        raise TorchValueError("Variable can't be volatile and require_grad at the same time!")
    if data is None:
        leaf = Tensor._make(np.empty(0, dtypes.default_float().np), "cpu")
    elif not isinstance(data, Tensor):
        raise TorchTypeError("Variable data has to be a tensor, but got "
                             f"{type(data).__name__}")
    else:
        leaf = data.detach()
    if _grad_fn is not None:
        raise TorchRuntimeError(
            "_grad_fn argument to legacy Variable constructor is no longer supported.  Instead, "
            "please invoke your _grad_fn to produce a variable with it as the _grad_fn.")
    if requires_grad and leaf.dtype.category < 2:
        raise TorchRuntimeError(
            "Only Tensors of floating point and complex dtype can require gradients"
        )
    leaf._requires_grad = bool(requires_grad)
    return leaf


@guarded
def numel(a: Tensor) -> int:
    return a.numel()


@guarded
def size(a: Tensor, dim: Any = None) -> Any:
    if dim is None:
        return a.shape
    d = wrap_dim(dim, a.ndim)
    if a.ndim == 0:
        raise TorchIndexError("Dimension specified as 0 but tensor has no dimensions")
    return a.shape[d]


@guarded
def tolist(a: Tensor) -> Any:
    if a.device == "meta":
        raise meta.no_data()
    # a Python number (24 bytes at least) and a list slot for each element
    limits.reserve(a._data.size * 32, f"the Python list of {a._data.size:,} elements")
    return backend.to_host(a._data).tolist()


@guarded
def item(a: Tensor) -> Any:
    return a.item()


@guarded
def element_size(a: Tensor) -> int:
    return int(a._data.itemsize)


@guarded
def data_ptr(a: Tensor) -> int:
    """The address of the first element: tensors sharing memory there have the same one; 0
    for a tensor of no elements (PyTorch's null data pointer)."""
    data = a._data
    if not data.size:
        return 0
    if isinstance(data, np.ndarray):
        return int(data.__array_interface__["data"][0])
    return int(data.data.ptr)  # a CuPy array


@guarded
def is_floating_point(a: Tensor) -> bool:
    return a.dtype.is_floating_point


@guarded
def is_complex(a: Tensor) -> bool:
    return a.dtype.is_complex


@guarded
def is_signed(a: Tensor) -> bool:
    return a.dtype.category != 0 and a.dtype is not dtypes.uint8


@guarded
def dim_order(a: Tensor) -> tuple[int, ...]:
    """The dimensions from the outermost in memory to the innermost (strides descending)."""
    strides = a._data.strides
    return tuple(sorted(range(a.ndim), key=lambda d: -strides[d]))


def is_tensor(value: Any) -> bool:
    return isinstance(value, Tensor)


@guarded
def zero_(a: Tensor) -> Tensor:
    return write_overlapping(a, lambda t: apply_inplace(ZeroBackward0, t))


@guarded
def fill_(a: Tensor, value: TensorLike) -> Tensor:
    """fill_ with a number writes into overlapping memory too (an expand, unfold windows):
    PyTorch's kernel skips the internal-overlap check, every element taking the same value
    (with a tensor value, as in `t[...] = v`, it checks)."""
    if isinstance(value, Tensor):
        return apply_inplace(FillBackward3, a, value)
    if not is_number(value):
        raise TorchTypeError(
            f"fill_() received an invalid combination of arguments - got ({_type_name(value)})"
        )
    value = checked_fill(value, a.dtype)
    return write_overlapping(a, lambda t: apply_inplace(FillBackward2, t, value=value))


@guarded
def copy_(a: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    _check_tensor(src, "copy_", "src")
    if src.shape != a.shape:
        shape = infer_size(a.shape, src.shape)
        if shape != a.shape:
            raise TorchRuntimeError(
                f"output with shape [{', '.join(map(str, a.shape))}] doesn't match the broadcast "
                f"shape [{', '.join(map(str, shape))}]"
            )
    return apply_inplace(CopyBackwards, a, src)


def _elementwise_in_place(name: str, a: Tensor, function: Callable[..., Any],
                          *others: Tensor) -> Tensor:
    """apply_ and map_: `function` on each element as a Python number, written back into
    `a` (PyTorch counts no version for it)."""
    if a.requires_grad or any(o.requires_grad for o in others):
        raise TorchRuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                                f"var.detach().{name}() instead.")
    if a.device != "cpu":
        raise TorchTypeError(f"{name}_ is only implemented on CPU tensors")
    data = a._data
    columns = [np.broadcast_to(o._data, data.shape).reshape(-1).tolist() for o in others]
    kind = bool if a.dtype is dtypes.bool_ else float if a.dtype.is_floating_point else int
    values = []
    for x, *rest in zip(data.reshape(-1).tolist(), *columns):
        value = function(x, *rest)
        if not is_number(value):
            raise TorchTypeError(f"must be real number, not {_type_name(value)}")
        values.append(kind(value))
    data[...] = np.array(values, dtype=data.dtype).reshape(data.shape)
    return a


@guarded
def apply_(a: Tensor, callable: Callable[[Any], Any]) -> Tensor:  # noqa: A002
    return _elementwise_in_place("apply_", a, callable)


@guarded
def map_(a: Tensor, tensor: Tensor, callable: Callable[..., Any]) -> Tensor:  # noqa: A002
    other = _check_tensor(tensor, "map_", "tensor", 1)
    if other.dtype is not a.dtype:
        raise TorchTypeError(f"map_: expected torch.{a.dtype.legacy} for 'other' (got "
                             f"torch.{other.dtype.legacy})")
    if infer_size(a.shape, other.shape) != a.shape:
        raise TorchRuntimeError(
            f"expand(torch.{other.dtype.legacy}{{[{', '.join(map(str, other.shape))}]}}, size="
            f"[{', '.join(map(str, a.shape))}]): the number of sizes provided ({a.ndim}) must "
            f"be greater or equal to the number of dimensions in the tensor ({other.ndim})")
    return _elementwise_in_place("map_", a, callable, other)
