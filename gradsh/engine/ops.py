"""The public tensor API: torch.* functions and Tensor methods, built on the Function classes.

This layer does what PyTorch's Python bindings and dispatcher do before an op runs: normalise
arguments (sizes as varargs or tuples, negative dims), wrap Python numbers, pick the overload
(`x ** 2` is PowBackward0, `2 ** x` PowBackward2), check argument errors with PyTorch's text,
and route in-place variants through `apply_inplace`. Methods are attached to Tensor from one
explicit table at the bottom.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine import functions as fn
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (
    TorchIndexError,
    TorchRuntimeError,
    TorchTypeError,
    warn,
)
from gradsh.engine.tensor import Tensor, apply_inplace, check_inplace, run_backward

Number = bool | int | float
TensorLike = Tensor | Number

# ---------------------------------------------------------------------------------------------
# Argument helpers
# ---------------------------------------------------------------------------------------------


def is_number(value: Any) -> bool:
    return isinstance(value, (bool, int, float)) and not isinstance(value, Tensor)


def as_tensor_operand(value: TensorLike, like: Tensor | None = None) -> Tensor:
    """A Tensor for an operand: Python numbers become wrapped 0-d tensors, as in PyTorch."""
    if isinstance(value, Tensor):
        return value
    if is_number(value):
        return Tensor.wrap_scalar(value)
    raise TorchTypeError(f"unsupported operand type: '{type(value).__name__}'")


def wrap_dim(dim: int, ndim: int) -> int:
    """A dimension index made non-negative, with PyTorch's IndexError when out of range."""
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TorchTypeError(f"dim must be an int, got {type(dim).__name__}")
    if dim < low or dim > high:
        raise TorchIndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
        )
    return dim % builtins.max(ndim, 1)


def normalize_dims(dim: int | Sequence[int], ndim: int) -> tuple[int, ...]:
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    result = tuple(wrap_dim(d, ndim) for d in dims)
    for i, d in enumerate(result):
        if d in result[:i]:
            raise TorchRuntimeError(f"dim {d} appears multiple times in the list of dims")
    return result


def size_args(args: tuple[Any, ...]) -> tuple[int, ...]:
    """`zeros(2, 3)`, `zeros((2, 3))`, `zeros([2, 3])` and `zeros(size)` all mean shape (2, 3)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    shape = []
    for n in args:
        if isinstance(n, Tensor) and n.numel() == 1 and not n.dtype.is_floating_point:
            n = n.item()
        if not isinstance(n, int) or isinstance(n, bool):
            raise TorchTypeError(
                "size must be a tuple of ints, but got an element of type "
                f"{type(n).__name__}"
            )
        if n < 0:
            raise TorchRuntimeError(
                f"Trying to create tensor with negative dimension {n}: {list(args)}"
            )
        shape.append(n)
    return tuple(shape)


def _device_name(device: Any) -> str:
    if device is None:
        return DefaultDevice.value
    name = str(device)
    if name == "cuda":
        return "cuda:0"
    if name == "cpu" or name.startswith("cuda:"):
        if name.startswith("cuda:") and name != "cuda:0":
            raise TorchRuntimeError(
                f"gradsh simulates one CUDA device, cuda:0; got {name}"
            )
        return name
    raise TorchRuntimeError(
        "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
        "maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of "
        f"device string: {name}"
    )


class DefaultDevice:
    """The device new tensors are created on (`device cuda` changes it)."""

    value: str = "cpu"


class DeviceHooks:
    """How a device becomes usable; the backend replaces `check` (see issue on devices)."""

    @staticmethod
    def check(device: str) -> None:
        if device != "cpu":
            raise TorchRuntimeError(
                "CUDA is not available: install CuPy with an NVIDIA GPU (pip install "
                "'gradsh[cuda]'), or run gradsh with --sim-cuda to simulate cuda:0 on the CPU"
            )


def _new(data: Any, dtype: DType, device: str | None, requires_grad: bool) -> Tensor:
    dev = _device_name(device)
    DeviceHooks.check(dev)
    t = Tensor._make(np.asarray(data, dtype=dtype.np, order="C"), dev)
    if requires_grad:
        if not dtype.is_floating_point:
            raise TorchRuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        t._requires_grad = True
    return t


def _resolve_dtype(dtype: DType | None, default: DType) -> DType:
    if dtype is None:
        return default
    if not isinstance(dtype, DType):
        raise TorchTypeError(f"dtype must be torch.dtype, not {type(dtype).__name__}")
    return dtype


# ---------------------------------------------------------------------------------------------
# Creation
# ---------------------------------------------------------------------------------------------


def _infer_data(data: Any) -> tuple[Any, DType]:
    """Nested Python lists of numbers -> (nested list, inferred dtype), with PyTorch's errors."""
    kinds: set[type] = set()
    # Iterative walk: a deeply nested literal must not hit the recursion limit.
    stack: list[tuple[Any, int]] = [(data, 0)]
    dims: dict[int, int] = {}
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Tensor):
            if item.numel() != 1 or depth == 0:
                kinds.add(float if item.dtype.is_floating_point else int)
            kinds.add(type(item.item()))
            continue
        if isinstance(item, (list, tuple)):
            if depth in dims and dims[depth] != len(item):
                raise TorchValueErrorProxy(
                    f"expected sequence of length {dims[depth]} at dim {depth} (got {len(item)})"
                )
            dims.setdefault(depth, len(item))
            for sub in item:
                stack.append((sub, depth + 1))
            continue
        if isinstance(item, bool):
            kinds.add(bool)
        elif isinstance(item, int):
            kinds.add(int)
        elif isinstance(item, float):
            kinds.add(float)
        else:
            raise TorchTypeError(
                f"new(): invalid data type '{type(item).__name__}'"
            )
    if len(dims) > 64:
        raise TorchValueErrorProxy("too many dimensions 'list'")
    if float in kinds:
        dtype = dtypes.default_float()
    elif int in kinds:
        dtype = dtypes.int64
    elif bool in kinds:
        dtype = dtypes.bool_
    else:
        dtype = dtypes.default_float()  # empty list: tensor([]) is float32
    return data, dtype


def TorchValueErrorProxy(message: str) -> Exception:
    from gradsh.engine.exceptions import TorchValueError

    return TorchValueError(message)


def _to_plain(data: Any) -> Any:
    """Nested lists with 0-d tensors inside (`tensor([a, b])`) as plain numbers for NumPy."""
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple)):
        return [_to_plain(x) for x in data]
    return data


def tensor(data: Any, dtype: DType | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """torch.tensor: always copies; infers int64 / float32 / bool from the data."""
    if isinstance(data, Tensor):
        warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), "
            "rather than torch.tensor(sourceTensor)."
        )
        out_dtype = _resolve_dtype(dtype, data.dtype)
        return _new(np.array(data._data, copy=True), out_dtype,
                    device if device is not None else data.device, requires_grad)
    _, inferred = _infer_data(data)
    out_dtype = _resolve_dtype(dtype, inferred)
    array = np.array(_to_plain(data), dtype=out_dtype.np) if not (
        isinstance(data, list) and len(data) == 0) else np.zeros((0,), dtype=out_dtype.np)
    return _new(array, out_dtype, device, requires_grad)


def Tensor_(*args: Any, requires_grad: bool = False, device: Any = None) -> Tensor:
    """torch.Tensor: float32 from data (`Tensor([2, 3])`), or uninitialised sizes (`Tensor(2, 3)`,
    which gradsh fills with zeros)."""
    default = dtypes.float32
    if len(args) == 1 and isinstance(args[0], (list, tuple, Tensor)) and not (
        isinstance(args[0], tuple) and all(isinstance(n, int) for n in args[0]) and False
    ):
        data = args[0]
        if isinstance(data, Tensor):
            return data
        _infer_data(data)
        return _new(np.array(_to_plain(data), dtype=default.np) if data else
                    np.zeros((0,), dtype=default.np), default, device, requires_grad)
    return _new(np.zeros(size_args(args), dtype=default.np), default, device, requires_grad)


def zeros(*size: Any, dtype: DType | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    return _new(np.zeros(size_args(size), dtype=d.np), d, device, requires_grad)


def ones(*size: Any, dtype: DType | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    return _new(np.ones(size_args(size), dtype=d.np), d, device, requires_grad)


def full(size: Any, fill_value: Number, dtype: DType | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.scalar_dtype(fill_value))
    return _new(np.full(size_args((size,)), fill_value, dtype=d.np), d, device, requires_grad)


def zeros_like(t: Tensor, dtype: DType | None = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    d = _resolve_dtype(dtype, t.dtype)
    return _new(np.zeros(t.shape, dtype=d.np), d, device or t.device, requires_grad)


def ones_like(t: Tensor, dtype: DType | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    d = _resolve_dtype(dtype, t.dtype)
    return _new(np.ones(t.shape, dtype=d.np), d, device or t.device, requires_grad)


def rand(*size: Any, dtype: DType | None = None, device: Any = None,
         requires_grad: bool = False, generator: Any = None) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    gen = generator or _default_generator()
    return _new(gen.rand(size_args(size), d), d, device, requires_grad)


def randn(*size: Any, dtype: DType | None = None, device: Any = None,
          requires_grad: bool = False, generator: Any = None) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    gen = generator or _default_generator()
    return _new(gen.randn(size_args(size), d), d, device, requires_grad)


def _default_generator() -> Any:
    from gradsh.engine import random as rng

    return rng.default_generator


def manual_seed(seed: int) -> None:
    _default_generator().manual_seed(seed)


# ---------------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------------


def add(a: TensorLike, b: TensorLike, alpha: Number = 1) -> Tensor:
    if not isinstance(a, Tensor):
        a, b = b, a
    return fn.AddBackward0.apply(as_tensor_operand(a), as_tensor_operand(b), alpha=alpha)


def sub(a: TensorLike, b: TensorLike, alpha: Number = 1) -> Tensor:
    if not isinstance(a, Tensor):
        return rsub(as_tensor_operand(b), a, alpha=alpha)
    _check_bool_sub(a, b)
    return fn.SubBackward0.apply(a, as_tensor_operand(b), alpha=alpha)


def _check_bool_sub(a: TensorLike, b: TensorLike) -> None:
    def is_bool(x: TensorLike) -> bool:
        return (isinstance(x, Tensor) and x.dtype is dtypes.bool_) or isinstance(x, bool)

    if is_bool(a) and is_bool(b):
        raise TorchRuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    if is_bool(a) or is_bool(b):
        raise TorchRuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


def rsub(a: Tensor, other: Number, alpha: Number = 1) -> Tensor:
    """`other - a`."""
    return fn.RsubBackward1.apply(a, other=other, alpha=alpha)


def mul(a: TensorLike, b: TensorLike) -> Tensor:
    return fn.MulBackward0.apply(as_tensor_operand(a), as_tensor_operand(b))


def div(a: TensorLike, b: TensorLike) -> Tensor:
    if not isinstance(a, Tensor):
        # Python's `2 / x` is x.__rtruediv__(2): reciprocal(x) * 2, hence MulBackward0.
        return mul(reciprocal(as_tensor_operand(b)), a)
    return fn.DivBackward0.apply(a, as_tensor_operand(b))


def neg(a: Tensor) -> Tensor:
    return fn.NegBackward0.apply(a)


def pow(a: TensorLike, exponent: TensorLike) -> Tensor:  # noqa: A001 (torch.pow)
    if isinstance(a, Tensor) and is_number(exponent):
        return fn.PowBackward0.apply(a, exponent=exponent)
    if isinstance(a, Tensor) and isinstance(exponent, Tensor):
        return fn.PowBackward1.apply(a, exponent)
    if is_number(a) and isinstance(exponent, Tensor):
        return fn.PowBackward2.apply(exponent, base=a)
    raise TorchTypeError("pow() received an invalid combination of arguments")


def reciprocal(a: Tensor) -> Tensor:
    return fn.ReciprocalBackward0.apply(a)


def square(a: Tensor) -> Tensor:
    return pow(a, 2)


def exp(a: Tensor) -> Tensor:
    return fn.ExpBackward0.apply(a)


def log(a: Tensor) -> Tensor:
    return fn.LogBackward0.apply(a)


# ---------------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------------


def sum(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: DType | None = None) -> Tensor:  # noqa: A001
    if dtype is not None:
        a = to(a, dtype)
    if dim is None:
        return fn.SumBackward0.apply(a)
    return fn.SumBackward1.apply(a, dim=normalize_dims(dim, a.ndim), keepdim=keepdim)


def mean(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: DType | None = None) -> Tensor:
    if dtype is not None:
        a = to(a, dtype)
    if not a.dtype.is_floating_point:
        raise TorchRuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {a.dtype.short}"
        )
    if dim is None:
        return fn.MeanBackward0.apply(a)
    return fn.MeanBackward1.apply(a, dim=normalize_dims(dim, a.ndim), keepdim=keepdim)


# ---------------------------------------------------------------------------------------------
# Shape
# ---------------------------------------------------------------------------------------------


def _infer_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    """A view/reshape target with at most one -1, checked against the element count."""
    unknown = [i for i, n in enumerate(shape) if n == -1]
    if len(unknown) > 1:
        raise TorchRuntimeError("only one dimension can be inferred")
    known = 1
    for n in shape:
        if n != -1:
            if n < 0:
                raise TorchRuntimeError(f"invalid shape dimension {n}")
            known *= n
    text = "[" + ", ".join(str(n) for n in shape) + "]"
    if unknown:
        if known == 0 or numel % known != 0:
            raise TorchRuntimeError(f"shape '{text}' is invalid for input of size {numel}")
        shape = tuple(numel // known if n == -1 else n for n in shape)
    elif known != numel:
        raise TorchRuntimeError(f"shape '{text}' is invalid for input of size {numel}")
    return shape


def _shape_args(args: tuple[Any, ...]) -> tuple[int, ...]:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    for n in args:
        if not isinstance(n, int) or isinstance(n, bool):
            raise TorchTypeError(
                f"view(): argument 'size' must be tuple of ints, but found element of type "
                f"{type(n).__name__}"
            )
    return tuple(args)


def view(a: Tensor, *shape: Any) -> Tensor:
    target = _infer_shape(_shape_args(shape), a.numel())
    if not _viewable(a._data, target):
        raise TorchRuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return fn.ViewBackward0.apply(a, shape=target)


def _viewable(data: Any, shape: tuple[int, ...]) -> bool:
    try:
        out = data.view()
        out.shape = shape  # raises if a copy would be needed
        return True
    except (AttributeError, ValueError):
        return data.size == 0 or data.flags.c_contiguous


def reshape(a: Tensor, *shape: Any) -> Tensor:
    target = _infer_shape(_shape_args(shape), a.numel())
    if _viewable(a._data, target):
        return fn.ViewBackward0.apply(a, shape=target)
    return fn.UnsafeViewBackward0.apply(clone(a), shape=target)


def expand(a: Tensor, *shape: Any) -> Tensor:
    target = list(_shape_args(shape))
    lead = len(target) - a.ndim
    if lead < 0:
        raise TorchRuntimeError(
            f"expand(torch.{a.dtype.legacy}{{[{', '.join(map(str, a.shape))}]}}, size="
            f"[{', '.join(map(str, target))}]): the number of sizes provided ({len(target)}) must "
            f"be greater or equal to the number of dimensions in the tensor ({a.ndim})"
        )
    for i, n in enumerate(target):
        if i >= lead:
            have = a.shape[i - lead]
            if n == -1:
                target[i] = have
            elif have != n and have != 1:
                raise TorchRuntimeError(
                    f"The expanded size of the tensor ({n}) must match the existing size ({have}) "
                    f"at non-singleton dimension {i}.  Target sizes: "
                    f"[{', '.join(map(str, shape if not isinstance(shape[0], (tuple, list)) else shape[0]))}]."
                    f"  Tensor sizes: [{', '.join(map(str, a.shape))}]"
                )
        elif n == -1:
            raise TorchRuntimeError(
                f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                f"dimension {i}"
            )
    return fn.ExpandBackward0.apply(a, shape=tuple(target))


def t(a: Tensor) -> Tensor:
    if a.ndim > 2:
        raise TorchRuntimeError(
            f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D"
        )
    return fn.TBackward0.apply(a)


def unsqueeze(a: Tensor, dim: int) -> Tensor:
    return fn.UnsqueezeBackward0.apply(a, dim=wrap_dim(dim, a.ndim + 1))


def clone(a: Tensor) -> Tensor:
    return fn.CloneBackward0.apply(a)


def to(a: Tensor, *args: Any, dtype: DType | None = None, device: Any = None,
       copy: bool = False) -> Tensor:
    for arg in args:
        if isinstance(arg, DType):
            dtype = arg
        elif isinstance(arg, Tensor):
            dtype, device = arg.dtype, arg.device
        else:
            device = arg
    target_dtype = dtype or a.dtype
    target_device = _device_name(device) if device is not None else a.device
    if target_device != a.device:
        DeviceHooks.check(target_device)
    if target_dtype is a.dtype and target_device == a.device and not copy:
        return a
    return fn.ToCopyBackward0.apply(a, dtype=target_dtype, device=target_device)


# ---------------------------------------------------------------------------------------------
# Linear algebra
# ---------------------------------------------------------------------------------------------


def mm(a: Tensor, b: Tensor) -> Tensor:
    if a.ndim != 2:
        raise TorchRuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise TorchRuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise TorchRuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})"
        )
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{a.dtype.name if False else _c_name(a.dtype)} != {_c_name(b.dtype)}"
        )
    return fn.MmBackward0.apply(a, b)


def _c_name(dtype: DType) -> str:
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
            "bool": "bool", "float16": "c10::Half"}.get(dtype.name, dtype.name)


def matmul(a: Tensor, b: Tensor) -> Tensor:
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    raise TorchRuntimeError("matmul for these shapes is not implemented yet")


# ---------------------------------------------------------------------------------------------
# In-place
# ---------------------------------------------------------------------------------------------


def add_(a: Tensor, b: TensorLike, alpha: Number = 1) -> Tensor:
    return apply_inplace(fn.AddBackward0, a, as_tensor_operand(b), alpha=alpha)


def sub_(a: Tensor, b: TensorLike, alpha: Number = 1) -> Tensor:
    return apply_inplace(fn.SubBackward0, a, as_tensor_operand(b), alpha=alpha)


def mul_(a: Tensor, b: TensorLike) -> Tensor:
    return apply_inplace(fn.MulBackward0, a, as_tensor_operand(b))


def div_(a: Tensor, b: TensorLike) -> Tensor:
    return apply_inplace(fn.DivBackward0, a, as_tensor_operand(b))


def zero_(a: Tensor) -> Tensor:
    return apply_inplace(fn.ZeroBackward0, a)


def fill_(a: Tensor, value: TensorLike) -> Tensor:
    return apply_inplace(fn.FillBackward0, a, value=value)


# ---------------------------------------------------------------------------------------------
# Autograd entry points
# ---------------------------------------------------------------------------------------------


def backward(t: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    run_backward([t], [gradient], retain_graph=retain_graph, create_graph=create_graph)


def autograd_backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
                      create_graph: bool = False) -> None:
    outs = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    if grad_tensors is None:
        grads: list[Any] = [None] * len(outs)
    else:
        grads = [grad_tensors] if isinstance(grad_tensors, Tensor) else list(grad_tensors)
    run_backward(outs, grads, retain_graph=retain_graph, create_graph=create_graph)


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None) -> tuple[Tensor | None, ...]:
    outs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    ins = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if grad_outputs is None:
        gouts: list[Any] = [None] * len(outs)
    else:
        gouts = [grad_outputs] if isinstance(grad_outputs, Tensor) else list(grad_outputs)
    result = run_backward(outs, gouts, retain_graph=retain_graph, create_graph=create_graph,
                          inputs=ins, allow_unused=bool(allow_unused), accumulate=False)
    assert result is not None
    return tuple(result)


# ---------------------------------------------------------------------------------------------
# Tensor methods and operators (one explicit table)
# ---------------------------------------------------------------------------------------------


def _reflected(op: Any) -> Any:
    return lambda self, other: op(other, self)


_METHODS: dict[str, Any] = {
    "__add__": add,
    "__radd__": _reflected(add),
    "__sub__": sub,
    "__rsub__": lambda self, other: rsub(self, other),
    "__mul__": mul,
    "__rmul__": _reflected(mul),
    "__truediv__": div,
    "__rtruediv__": _reflected(div),
    "__pow__": pow,
    "__rpow__": _reflected(pow),
    "__neg__": neg,
    "__matmul__": matmul,
    "add": add,
    "sub": sub,
    "mul": mul,
    "div": div,
    "pow": pow,
    "neg": neg,
    "exp": exp,
    "log": log,
    "reciprocal": reciprocal,
    "square": square,
    "sum": sum,
    "mean": mean,
    "view": view,
    "reshape": reshape,
    "expand": expand,
    "t": t,
    "unsqueeze": unsqueeze,
    "clone": clone,
    "to": to,
    "mm": mm,
    "matmul": matmul,
    "add_": add_,
    "sub_": sub_,
    "mul_": mul_,
    "div_": div_,
    "zero_": zero_,
    "fill_": fill_,
    "backward": backward,
}

for _name, _function in _METHODS.items():
    setattr(Tensor, _name, _function)

fn._install_tensor_ops()
