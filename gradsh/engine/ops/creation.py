"""Creation: tensor, Tensor, zeros, ones, full, *_like, arange, linspace, eye, new_*."""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, limits, meta
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (TorchNotImplementedError, TorchRuntimeError, TorchTypeError,
                                     TorchValueError, warn)
from gradsh.engine.functions.common import fma64, not_implemented_for
from gradsh.engine.ops.arguments import (
    NO_SELF,
    DeviceHooks,
    Number,
    _check_tensor,
    _device_name,
    _new,
    _resolve_dtype,
    _type_name,
    as_int,
    checked_fill,
    given_size,
    format_order,
    in_layout,
    is_number,
    missing_arguments,
    self_tensor,
    size_args,
)
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.signatures import _invalid_combination
from gradsh.engine.tensor import Tensor, _once

__all__ = [
    "tensor", "Tensor_", "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like",
    "full_like", "arange", "linspace", "logspace", "eye", "new_zeros", "new_ones", "new_empty", "new_full",
    "new_tensor",
]


def _infer_data(data: Any, dtype: DType | None = None) -> tuple[Any, DType]:
    """The data of torch.tensor (nested sequences of numbers, NumPy scalars and arrays, one-
    element tensors) -> (data, inferred dtype), with PyTorch's errors. As PyTorch's
    infer_scalar_type, the dtype is promoted over every element: a Python float counts as the
    default dtype, an int as int64, a bool as bool, a NumPy value or a tensor as its own dtype.
    Some elements fail only when their value is stored, as the result's dtype (`dtype`, else
    the inferred one) reads them: see _store_error.
    """
    if isinstance(data, np.ndarray):
        return data, _numpy_dtype(data.dtype)
    _check_first_elements(data)
    inferred: DType | None = None
    # Iterative walk: a deeply nested literal must not hit the recursion limit.
    stack: list[tuple[Any, int]] = [(data, 0)]
    dims: dict[int, int] = {}
    several = False  # a tensor of several elements inside
    odd: dict[str, Any] = {}  # the first NumPy bool, the first NumPy float but float64
    while stack:
        item, depth = stack.pop()  # depth-first, in order: PyTorch reports the first mismatch
        if isinstance(item, (list, tuple, range)):
            if depth >= _MAX_DIMS:
                raise TorchValueError(f"too many dimensions '{type(item).__name__}'")
            _check_length(dims, depth, len(item))
            for sub in reversed(item):
                stack.append((sub, depth + 1))
            continue
        if isinstance(item, np.ndarray) and depth > 0:
            if item.ndim == 0:
                raise TorchTypeError("len() of unsized object")
            for k, n in enumerate(item.shape):
                _check_length(dims, depth + k, n)
        kind = _element_dtype(item, depth)
        inferred = kind if inferred is None else dtypes.promote_types(inferred, kind)
        several = several or isinstance(item, Tensor) and item.numel() != 1 and depth > 0
        if isinstance(item, (np.bool_, np.floating)) and not isinstance(item, float):
            odd.setdefault("bool" if isinstance(item, np.bool_) else "float", (len(odd), item))
    if len(dims) > _MAX_DIMS:
        raise TorchValueError("too many dimensions 'list'")
    inferred = inferred or dtypes.default_float()  # tensor([]) is float32
    if several or odd:
        _store_error(several, odd, dtype if isinstance(dtype, DType) else inferred)
    return data, inferred


def _store_error(several: bool, odd: dict[str, Any], result: DType) -> None:
    """What storing the elements into `result` raises (tensor_new's store_scalar): an integral
    or bool result reads each element through __index__, which a tensor of several elements,
    a NumPy bool (into integers) and a NumPy float but float64 (a Python float's subclass)
    refuse; a floating result reads a tensor through __float__, which one of several refuses."""
    integral = result.category in (0, 1)
    if several:
        if integral:
            raise TorchTypeError("only integer tensors of a single element can be converted "
                                 "to an index")
        raise TorchValueError("only one element tensors can be converted to Python scalars")
    found = [odd[k] for k in ("bool", "float") if k in odd and integral
             and (k == "float" or result.category == 1)]
    if found:
        item = min(found, key=lambda pair: pair[0])[1]
        raise TorchTypeError(f"'numpy.{type(item).__name__}' object cannot be interpreted as an "
                             "integer")


def _check_length(dims: dict[int, int], depth: int, length: int) -> None:
    if depth in dims and dims[depth] != length:
        raise TorchValueError(
            f"expected sequence of length {dims[depth]} at dim {depth} (got {length})"
        )
    dims.setdefault(depth, length)


_MAX_DIMS = 64  # PyTorch's limit on a tensor's dimensions


def _check_first_elements(data: Any) -> None:
    """PyTorch sizes the data by its first elements, before it reads any value."""
    item = data
    depth = 0
    while isinstance(item, (list, tuple, range)) and len(item) > 0:
        item = item[0]
        depth += 1
        if depth > _MAX_DIMS:  # (a list inside itself would go on for ever)
            raise TorchValueError(f"too many dimensions '{type(item).__name__}'")
        if isinstance(item, np.ndarray) and "ndarray_list" not in _once:
            _once.add("ndarray_list")
            warn("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please "
                 "consider converting the list to a single numpy.ndarray with numpy.array() "
                 "before converting to a tensor.")
        if isinstance(item, str):
            raise TorchValueError("too many dimensions 'str'")


def _element_dtype(item: Any, depth: int) -> DType:
    """One element's dtype, as infer_scalar_type gives it."""
    if isinstance(item, bool):
        return dtypes.bool_
    if isinstance(item, (np.generic, np.ndarray)):
        return _numpy_dtype(item.dtype)
    if isinstance(item, int):
        return dtypes.int64
    if isinstance(item, float):
        return dtypes.default_float()
    if isinstance(item, complex):
        return dtypes.default_complex()
    if isinstance(item, Tensor):
        if item.requires_grad and "scalar_grad" not in _once:
            # Each element becomes a Python number, as `float(t)` would: TORCH_WARN_ONCE.
            _once.add("scalar_grad")
            warn("Converting a tensor with requires_grad=True to a scalar may lead to "
                 "unexpected behavior.\nConsider using tensor.detach() first.")
        return item.dtype
    if isinstance(item, (str, bytes)):
        raise TorchTypeError(f"new(): invalid data type '{_type_name(item)}'")
    raise TorchRuntimeError(f"Could not infer dtype of {_type_name(item)}")


def _numpy_dtype(dtype: np.dtype) -> DType:
    """The dtype of a NumPy array or scalar, with PyTorch's error for the ones it cannot hold."""
    try:
        return dtypes.from_numpy(dtype)
    except KeyError:
        raise TorchTypeError(
            f"can't convert np.ndarray of type numpy.{dtype.type.__name__}. The only supported "
            "types are: float64, float32, float16, complex64, complex128, int64, int32, int16, "
            "int8, uint64, uint32, uint16, uint8, and bool."
        ) from None


def _to_plain(data: Any) -> Any:
    """Nested lists with 0-d tensors inside (`tensor([a, b])`) as plain numbers for NumPy."""
    if isinstance(data, Tensor):
        return data._data.reshape(()).item() if data._data.size == 1 else data._data
    if isinstance(data, (list, tuple, range)):
        return [_to_plain(x) for x in data]
    return data


def _array_from_data(data: Any, dtype: DType) -> np.ndarray:
    plain = _to_plain(data)
    if isinstance(plain, list) and _is_empty_nested(plain):
        return np.zeros(np.shape(plain), dtype=dtype.np)
    with np.errstate(all="ignore"):
        if dtype.category == 1:
            return _integers_from_data(plain, dtype)
        return np.array(plain, dtype=dtype.np)


def _integers_from_data(plain: Any, dtype: DType) -> np.ndarray:
    """Python numbers as an integer dtype, with tensor_new's checked_convert: a value out of the
    dtype's range raises, except that unsigned types take negative integers down to -max
    (wrapped, two's complement); floats truncate toward zero."""
    if isinstance(plain, np.ndarray):
        return plain.astype(dtype.np)
    wide = np.array(plain)
    if wide.dtype == object or (wide.dtype == np.uint64 and dtype is not dtypes.uint64):
        # beyond int64 (uint64's, up to 2**64 - 1): THPUtils_unpackLong
        raise TorchValueError("Overflow when unpacking long long")
    info = np.iinfo(dtype.np)
    if wide.dtype.kind == "f":
        finite = np.isfinite(wide).all()
        if not finite or (wide.size and (wide.min() < info.min or wide.max() > info.max)):
            if finite and info.min == 0:  # each element its own type: an int may wrap
                return _unsigned_elements(plain, wide.shape, dtype)
            raise _overflow(dtype)
        return np.trunc(wide).astype(dtype.np)
    if wide.size and wide.dtype.kind in "iu":
        low = -int(info.max) if info.min == 0 else int(info.min)
        if int(wide.min()) < low or int(wide.max()) > int(info.max):
            raise _overflow(dtype)
    return wide.astype(dtype.np)


def _unsigned_elements(plain: Any, shape: tuple[int, ...], dtype: DType) -> np.ndarray:
    """Mixed ints and floats into an unsigned dtype, each converted by its own Python type
    (a negative int wraps, a negative float overflows), as tensor_new stores them."""
    flat: list[int] = []
    pending = [plain]
    while pending:
        item = pending.pop()
        if isinstance(item, (list, tuple)):
            pending.extend(reversed(item))
        else:
            try:
                value = checked_fill(item if isinstance(item, (bool, int)) else float(item),
                                     dtype)
            except TorchRuntimeError:
                raise _overflow(dtype) from None  # (tensor()'s names the dtype: uint8)
            flat.append(int(value))
    return np.array(flat, dtype=np.int64).astype(dtype.np).reshape(shape)


def _overflow(dtype: DType) -> TorchRuntimeError:
    return TorchRuntimeError(f"value cannot be converted to type {dtype.np.name} without "
                             "overflow")


def _is_empty_nested(x: Any) -> bool:
    while isinstance(x, list):
        if not x:
            return True
        x = x[0]
    return False


@guarded(tensor_first=False, numpy_data=True)
def tensor(data: Any, dtype: DType | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """torch.tensor: always copies; infers int64 / float32 / bool from the data."""
    if isinstance(data, Tensor):
        warn(_COPY_CONSTRUCT.format("torch.tensor"))
    return _tensor(data, dtype, device, requires_grad)


_COPY_CONSTRUCT = ("To copy construct from a tensor, it is recommended to use "
                   "sourceTensor.detach().clone() or "
                   "sourceTensor.detach().clone().requires_grad_(True), rather than "
                   "{}(sourceTensor).")


def _tensor(data: Any, dtype: DType | None, device: Any, requires_grad: bool) -> Tensor:
    """torch.tensor's copy, without its warning (new_tensor gives its own)."""
    if isinstance(data, Tensor):
        out_dtype = _resolve_dtype(dtype, data.dtype)
        return _new(data._data.astype(out_dtype.np, copy=True), out_dtype,
                    device if device is not None else data.device, requires_grad)
    _, inferred = _infer_data(data, dtype)
    out_dtype = _resolve_dtype(dtype, inferred)
    return _new(_array_from_data(data, out_dtype), out_dtype, device, requires_grad)


# The legacy constructor's overloads, as its "invalid combination" error lists them
_NEW_OPTIONS = ["(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
                "(tuple of ints size, *, torch.device device = None)",
                "(object data, *, torch.device device = None)"]


@guarded(tensor_first=False, numpy_data=True)
def Tensor_(*args: Any, device: Any = None, **unexpected: Any) -> Tensor:
    """torch.Tensor: float32 from data (`Tensor([2, 3])`), or uninitialised sizes (`Tensor(2, 3)`,
    which gradsh fills with zeros). Like PyTorch's legacy constructor it takes no
    requires_grad (gradsh's `Tensor(data, grad)` flag calls requires_grad_() afterwards)."""
    if unexpected:
        raise TorchTypeError(_invalid_combination("new()", args, unexpected, _NEW_OPTIONS))
    requires_grad = False
    default = dtypes.float32
    if len(args) == 1 and isinstance(args[0], (list, np.ndarray, Tensor, float, bool)):
        data = args[0]
        if isinstance(data, Tensor):
            return data
        if isinstance(data, (float, bool)):
            raise TorchTypeError(
                f"new(): data must be a sequence (got {_type_name(data)})"
            )
        _infer_data(data, default)
        return _new(_array_from_data(data, default), default, device, requires_grad)
    shape = size_args(args, "Tensor", default.itemsize)
    return _new(_module_for(device).zeros(shape, dtype=default.np), default, device,
                requires_grad)


def _filled(fname: str, size: tuple[Any, ...], value: Any, dtype: DType | None, device: Any,
            requires_grad: bool) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    module = _module_for(device)
    shape = size_args(size, fname, 0 if module is meta.arrays else d.itemsize)
    return _new(module.full(shape, value, dtype=d.np), d, device, requires_grad)


def _module_for(device: Any) -> Any:
    """The array module that makes new tensors on `device` (filled ones are made there, not
    copied there)."""
    dev = _device_name(device)
    DeviceHooks.check(dev)
    return meta.arrays if dev == "meta" else backend.module(dev)


@guarded(tensor_first=False)
def zeros(*shape: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    return _filled("zeros", given_size(shape, size, "zeros"), 0, dtype, device, requires_grad)


@guarded(tensor_first=False)
def ones(*shape: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    return _filled("ones", given_size(shape, size, "ones"), 1, dtype, device, requires_grad)


@guarded(tensor_first=False)
def empty(*shape: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
          requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """torch.empty: gradsh's uninitialised memory is zeros (laid out as memory_format asks)."""
    result = _filled("empty", given_size(shape, size, "empty"), 0, dtype, device, requires_grad)
    order = format_order(memory_format, result.shape, default="contiguous")
    if order is None:
        return result
    data = in_layout(order, result.shape, lambda s: _module_for(result.device).zeros(
        s, dtype=result.dtype.np))
    return _new(data, result.dtype, result.device, requires_grad)


@guarded(tensor_first=False)
def full(size: Any, fill_value: Number, dtype: DType | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    d = _resolve_dtype(dtype, dtypes.scalar_dtype(fill_value))
    shape = size_args((size,) if not isinstance(size, (tuple, list)) else (size,), "full",
                      d.itemsize)
    fill_value = checked_fill(fill_value, d)
    return _new(_module_for(device).full(shape, fill_value, dtype=d.np), d, device,
                requires_grad)


def _like(fname: str, t: Tensor, value: Any, dtype: DType | None, device: Any,
          requires_grad: bool, memory_format: Any = None) -> Tensor:
    _check_tensor(t, fname)
    d = _resolve_dtype(dtype, t.dtype)
    device = device or t.device
    value = checked_fill(value, d)
    module = _module_for(device)
    order = format_order(memory_format, t.shape, t)
    return _new(in_layout(order, t.shape, lambda shape: module.full(shape, value, dtype=d.np)),
                d, device, requires_grad)


@guarded(tensor_first=False)
def zeros_like(t: Tensor, dtype: DType | None = None, device: Any = None,
               requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    return _like("zeros_like", t, 0, dtype, device, requires_grad, memory_format)


@guarded(tensor_first=False)
def ones_like(t: Tensor, dtype: DType | None = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    return _like("ones_like", t, 1, dtype, device, requires_grad, memory_format)


@guarded(tensor_first=False)
def empty_like(t: Tensor, dtype: DType | None = None, device: Any = None,
               requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    return _like("empty_like", t, 0, dtype, device, requires_grad, memory_format)


@guarded(tensor_first=False)
def full_like(t: Tensor, fill_value: Number, dtype: DType | None = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    return _like("full_like", t, fill_value, dtype, device, requires_grad, memory_format)


def _scalar_value(value: Any, name: str) -> float | int:
    if isinstance(value, Tensor):
        return value.item()
    if not is_number(value):
        raise TorchTypeError(f"{name} must be a number, not {_type_name(value)}")
    return value


@guarded(tensor_first=False)
def arange(*args: Any, start: Any = None, end: Any = None, step: Any = None,
           dtype: DType | None = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """torch.arange(end) / arange(start, end, step=1): int arguments give int64."""
    positional = list(args)
    if len(positional) > 3:
        raise TorchTypeError(f"arange() takes at most 3 positional arguments ({len(args)} given)")
    if len(positional) == 1 and end is None:
        end = positional[0]
    elif positional:
        names = ["start", "end", "step"]
        values = dict(zip(names, positional, strict=False))
        start = values.get("start", start)
        end = values.get("end", end)
        step = values.get("step", step)
    if end is None:
        raise TorchTypeError("arange() missing required argument 'end' (pos 1)")
    if dtype is not None and (dtype.is_complex or dtype in dtypes.BAREBONES_UNSIGNED):
        raise TorchNotImplementedError(f'"arange_cpu" not implemented for \'{dtype.short}\'')
    start = 0 if start is None else _scalar_value(start, "start")
    end = _scalar_value(end, "end")
    step = 1 if step is None else _scalar_value(step, "step")
    any_float = builtins.any(isinstance(v, float) for v in (start, end, step))
    d = _resolve_dtype(dtype, dtypes.default_float() if any_float else dtypes.int64)
    if d is dtypes.bool_:
        raise not_implemented_for("arange_cpu", d)
    if d is dtypes.int64:  # (an unsigned Scalar from 2**63 on: the kernel's int64 refuses it)
        for v in (start, end, step):
            if isinstance(v, int):
                checked_fill(v, d)
    if step == 0:
        raise TorchRuntimeError("step must be nonzero")
    if not builtins.all(math.isfinite(float(v)) for v in (start, end)):
        raise TorchRuntimeError(f"unsupported range: {start} -> {end}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise TorchRuntimeError("upper bound and lower bound inconsistent with step sign")
    if d is dtypes.int64 and any_float:
        # compute_arange_size: int64's bounds and step are int64 (truncated) from here on
        if int(step) == 0:
            raise TorchValueError("step must be nonzero")
        n = int(math.ceil((int(end) - int(start)) / int(step)))
    else:
        n = int(math.ceil((float(end) - float(start)) / float(step)))
    n = builtins.max(n, 0)
    limits.check((n,), d.itemsize)
    if d.is_floating_point:
        values = _in_chunks(n, d, lambda idx: _arange_floats(float(start), float(step), idx, n, d))
    else:  # an integer dtype's kernel steps in int64: start and step truncated first
        values = _in_chunks(n, d, lambda idx: int(start) + int(step) * idx)
    return _new(values, d, device, requires_grad)


@guarded(tensor_first=False)
def linspace(start: Any, end: Any, steps: int, dtype: DType | None = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    start = _scalar_value(start, "start")
    end = _scalar_value(end, "end")
    # an int64 parameter: an int, or a 0-dim integer tensor outside autograd
    count = None if isinstance(steps, Tensor) and (steps.ndim or steps.requires_grad) \
        else as_int(steps)
    if count is None:
        raise TorchTypeError(
            f"linspace(): argument 'steps' (position 3) must be int, not {_type_name(steps)}"
        )
    steps = count
    if steps < 0:
        raise TorchRuntimeError("number of steps must be non-negative")
    d = _resolve_dtype(dtype, dtypes.default_float())
    if d is dtypes.bool_ and steps > 1:  # (one step is a fill_, which takes bool)
        raise not_implemented_for("linspace_cpu", d)
    limits.check((steps,), d.itemsize)
    return _new(_linspace_values(start, end, steps, d), d, device, requires_grad)


@guarded(tensor_first=False)
def logspace(start: Any, end: Any, steps: int, base: float = 10.0, dtype: DType | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """base ** linspace(start, end, steps), as PyTorch's CPU kernel computes it: the exponent
    start + step * i (end - step * (steps - 1 - i) for the second half) in double, the power in
    double by the C library's pow (not NumPy's, whose SIMD code differs by CPU), rounded once to
    the dtype; an integer dtype takes an integer base."""
    start = _scalar_value(start, "start")
    end = _scalar_value(end, "end")
    if steps < 0:
        raise TorchRuntimeError("number of steps must be non-negative")
    d = _resolve_dtype(dtype, dtypes.default_float())
    limits.check((steps,), d.itemsize)
    cast = d.np.type if d.is_floating_point else int
    first, last = float(cast(start)), float(cast(end))
    b = float(base) if d.is_floating_point else float(int(base))
    step = (last - first) / (steps - 1) if steps > 1 else 0.0
    half = steps // 2
    exponents = [first + step * i if i < half else last - step * (steps - i - 1)
                 for i in range(steps)] if steps != 1 else [float(start)]
    with np.errstate(all="ignore"):
        values = np.array([_c_pow(b, x) for x in exponents], dtype=np.float64)
        return _new(values.astype(d.np), d, device, requires_grad)


def _c_pow(base: float, exponent: float) -> float:
    try:
        return math.pow(base, exponent)
    except OverflowError:
        return math.inf
    except ValueError:  # a negative base to a fractional power
        return math.nan


# NOTE: arange and linspace reproduce PyTorch's CPU kernels bit for bit. Those kernels are
# compiled with FMA contraction, so every `a + b * c` in them rounds once; arange also fills
# whole pairs of 32-byte vectors from a per-vector base (`Vectorized::arange(base, step)`) and
# only the remainder element by element.
_VECTOR_BYTES = 32


_fma = fma64


# arange and linspace compute each element from its index alone: they fill the result this
# many elements at a time, so that their float64 temporaries stay small whatever the size.
_CHUNK = 1 << 16


def _in_chunks(n: int, d: DType, values: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """An array of n elements of dtype `d`, `values(idx)` for each chunk of indices."""
    out = np.empty(n, dtype=d.np)
    for start in range(0, n, _CHUNK):
        idx = np.arange(start, builtins.min(n, start + _CHUNK), dtype=np.int64)
        out[start : start + _CHUNK] = values(idx)
    return out


def _arange_floats(start: float, step: float, idx: np.ndarray, n: int, d: DType) -> np.ndarray:
    """arange's elements at the indices `idx` (of n in all)."""
    width = _VECTOR_BYTES // d.np.itemsize
    vector_end = (n // (2 * width)) * 2 * width
    offset = idx % width
    block = idx - offset
    in_vectors = idx < vector_end
    # accscalar (double) arithmetic: the vector's base is rounded to the dtype first
    base = _fma(step, block, start).astype(d.np).astype(np.float64)
    vector_values = _fma(offset, step, base)
    scalar_values = _fma(step, idx, start)
    return np.where(in_vectors, vector_values, scalar_values).astype(d.np)


def _linspace_values(start: Any, end: Any, steps: int, d: DType) -> np.ndarray:
    if steps == 1:
        return np.full(1, start, dtype=np.float64).astype(d.np) if d.is_floating_point else \
            np.array([int(start)]).astype(d.np)
    halfway = steps // 2
    if d.np in dtypes.REDUCED_FLOAT_NP:
        return _linspace_reduced(start, end, steps, d)
    if d.is_floating_point:
        t = d.np.type
        s, e = t(start), t(end)
        step = (e - s) / t(steps - 1) if steps > 1 else t(0)

        def floats(idx: np.ndarray) -> np.ndarray:
            # start + step * i for the first half, end - step * (steps - i - 1) for the second,
            # each one fused multiply-add in the dtype (float32's product is exact in float64).
            low = _fma(np.float64(step), idx.astype(d.np), np.float64(s))
            high = _fma(-np.float64(step), (steps - idx - 1).astype(d.np), np.float64(e))
            return np.where(idx < halfway, low, high)

        return _in_chunks(steps, d, floats)
    # the bounds in the integer dtype first (Scalar::to<uint8_t>: -2 is 254), the step double
    si, ei = (int(np.array(int(v)).astype(d.np)) for v in (start, end))
    int_step = (float(ei) - float(si)) / (steps - 1) if steps > 1 else 0.0

    def ints(idx: np.ndarray) -> np.ndarray:
        low = _fma(int_step, idx, float(si))
        high = _fma(-int_step, steps - idx - 1, float(ei))
        return np.trunc(np.where(idx < halfway, low, high))

    return _in_chunks(steps, d, ints)


def _linspace_reduced(start: Any, end: Any, steps: int, d: DType) -> np.ndarray:
    """linspace in float16 or bfloat16 as the kernel computes it: in c10::Half (BFloat16)
    arithmetic, where every operation rounds to the dtype and an int64 operand (the step
    count, the index) is converted to the dtype first. Matches torch for 7 to 70,000 steps."""

    def rounded(value: Any) -> np.ndarray:
        return np.asarray(value, np.float32).astype(d.np).astype(np.float32)

    s, e = rounded(float(start)), rounded(float(end))
    step = rounded(rounded(e - s) / rounded(steps - 1))
    halfway = steps // 2

    def floats(idx: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            low = rounded(s + rounded(step * rounded(idx)))
            high = rounded(e - rounded(step * rounded(steps - idx - 1)))
        return np.where(idx < halfway, low, high)

    return _in_chunks(steps, d, floats)


@guarded(tensor_first=False)
def eye(n: int, m: int | None = None, dtype: DType | None = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    sizes = []
    for position, (value, name) in enumerate(((n, "n"), (m, "m")), 1):
        # SymInt parameters: an int or a one-element integer tensor
        size = None if value is None else as_int(value)
        if value is not None and size is None:
            raise TorchTypeError(f"eye(): argument '{name}' (position {position}) must be int, "
                                 f"not {_type_name(value)}")
        if size is not None and size < 0:
            raise TorchRuntimeError(f"{name} must be greater or equal to 0, got {size}")
        sizes.append(size)
    n, m = sizes
    d = _resolve_dtype(dtype, dtypes.default_float())
    limits.check((n, n if m is None else m), d.itemsize)
    return _new(np.eye(n, n if m is None else m, dtype=d.np), d, device, requires_grad)


def _new_like(kind: str) -> Callable[..., Tensor]:
    def op(a: Tensor = NO_SELF, *shape: Any, size: Any = None, dtype: DType | None = None,
           device: Any = None, requires_grad: bool = False) -> Tensor:
        a = self_tensor(a, f"new_{kind}")
        shape = given_size(shape, size, f"new_{kind}")
        if not shape:
            raise missing_arguments(f"new_{kind}", ["size"])
        dtype = a.dtype if dtype is None else dtype
        device = a.device if device is None else device
        if kind == "zeros":  # (not zeros(): only at::zeros has its own negative-size text)
            return _filled("new_zeros", shape, 0, dtype, device, requires_grad)
        maker = ones if kind == "ones" else empty
        return maker(*shape, dtype=dtype, device=device, requires_grad=requires_grad)

    op.__name__ = f"new_{kind}"
    return guarded(op)


new_zeros = _new_like("zeros")
new_ones = _new_like("ones")
new_empty = _new_like("empty")


@guarded
def new_full(a: Tensor = NO_SELF, size: Any = NO_SELF, fill_value: Number = NO_SELF,
             dtype: DType | None = None, device: Any = None, requires_grad: bool = False
             ) -> Tensor:
    a = self_tensor(a, "new_full")
    if size is NO_SELF or fill_value is NO_SELF:
        raise missing_arguments("new_full", ["size", "fill_value"][size is not NO_SELF:])
    return full(size, fill_value, dtype=a.dtype if dtype is None else dtype,
                device=a.device if device is None else device, requires_grad=requires_grad)


@guarded(numpy_data=True)
def new_tensor(a: Tensor = NO_SELF, data: Any = NO_SELF, dtype: DType | None = None,
               device: Any = None, requires_grad: bool = False) -> Tensor:
    a = self_tensor(a, "new_tensor")
    if data is NO_SELF:
        raise missing_arguments("new_tensor", ["data"])
    if isinstance(data, Tensor):
        warn(_COPY_CONSTRUCT.format("tensor.new_tensor"))
    return _tensor(data, a.dtype if dtype is None else dtype,
                   a.device if device is None else device, requires_grad)
