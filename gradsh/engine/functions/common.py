"""What the node families share: array module, dtype promotion, broadcasting, quiet NumPy."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, limits
from gradsh.engine.dtypes import REDUCED_FLOAT_NP, DType
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.tensor import Array, Function, Shape, Tensor
from gradsh.engine.threads import elementwise
from gradsh.engine.vecmath import layout
from gradsh.engine.vecmath.layout import element_strides, with_strides

__all__ = [
    "xp_of", "xp_of_operands", "operand", "result_dtype", "float_result_dtype", "infer_size",
    "broadcast_shapes", "not_implemented_for", "fma64",
]


def xp_of(array: Array) -> Any:
    """The array module of `array`: numpy, or cupy for arrays on the GPU."""
    if isinstance(array, (np.ndarray, np.generic)):
        return np
    return backend.array_module(array)


def xp_of_operands(*values: Any) -> Any:
    """The array module of an op whose operands may be Python numbers (`operand`)."""
    for value in values:
        if not isinstance(value, (bool, int, float)):
            return xp_of(value)
    return np


def operand(t: Tensor, dtype: DType | None = None) -> Any:
    """The value a kernel computes with: wrapped Python numbers stay Python numbers, so NumPy
    treats them as weak scalars, like PyTorch's wrapped numbers; given the result's `dtype`,
    an integer that does not fit it wraps around (fit_int), and an integer or bool tensor of
    another dtype is cast to an integer result's dtype first, as TensorIterator casts its
    operands to the common dtype (a 0-d int32 -2 against a uint8 tensor reads as 254, where
    NumPy would refuse the int32 -> uint8 cast)."""
    if t._wrapped:
        value = t._data.item()
        return value if dtype is None else fit_int(value, dtype)
    data = t._data
    if dtype is not None and dtype.category == 1 and data.dtype != dtype.np:
        return data.astype(dtype.np)
    return data


def fit_int(value: Any, dtype: DType) -> Any:
    """A wrapped Python number as a kernel of `dtype` reads it. PyTorch casts a wrapped number
    to the result's dtype as C++ casts, so an integer that does not fit an integer dtype wraps
    around (an int32 tensor times 3000000000 multiplies by -1294967296); NumPy would refuse."""
    if value.__class__ is int and dtype.category == 1:
        bits = 8 * dtype.itemsize
        signed = dtype.np.kind == "i"
        low = -(1 << (bits - 1)) if signed else 0
        if not low <= value < low + (1 << bits):
            value = (value - low) % (1 << bits) + low
    return value


def result_dtype(*tensors: Tensor) -> DType:
    """torch.result_type over tensor operands, wrapped numbers ranked lowest."""
    if len(tensors) == 2:
        # Fast paths for the common binary cases; the general rule below agrees with them.
        a, b = tensors
        if not a._wrapped:
            da = a._data.dtype
            if not b._wrapped:
                if da == b._data.dtype:
                    return a.dtype
            elif (da.kind == "f" and b._data.dtype.kind != "c") or (da.kind in "iu" and b._data.dtype.kind in "iub") or (
                da.kind == "b" and b._data.dtype.kind == "b"
            ):
                return a.dtype
    groups: list[tuple[DType, int]] = []
    scalars: list[bool | int | float] = []
    for t in tensors:
        if t._wrapped:
            scalars.append(t._data.item())
        else:
            groups.append((t.dtype, t._data.ndim))
    return dtypes.result_type(groups, scalars)


def float_result_dtype(*tensors: Tensor) -> DType:
    """Like result_dtype, but integers and bools promote to the default float (true division,
    exp, sqrt ...); complex stays complex."""
    dtype = result_dtype(*tensors)
    return dtype if dtype.category >= 2 else dtypes.default_float()


def infer_size(a: Shape, b: Shape) -> Shape:
    """PyTorch's infer_size: the broadcast of two shapes, with its error text."""
    ndim = max(len(a), len(b))
    out = []
    for i in reversed(range(ndim)):  # PyTorch checks (and reports) from the last dimension
        offset = ndim - 1 - i
        size_a = a[len(a) - 1 - offset] if len(a) - 1 - offset >= 0 else 1
        size_b = b[len(b) - 1 - offset] if len(b) - 1 - offset >= 0 else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            raise TorchRuntimeError(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) "
                f"at non-singleton dimension {i}"
            )
        out.append(size_b if size_a == 1 else size_a)
    return tuple(reversed(out))


def broadcast_shapes(*tensors: Tensor) -> Shape:
    """The shape element-wise operands broadcast to (TensorIterator's compute_shape).

    A broadcast can ask for far more memory than its operands hold ((n, 1) + (1, n)), so a
    result shape that differs from every operand's is checked against gradsh's memory limit.
    """
    shape: Shape = tensors[0]._data.shape
    grew = False
    for t in tensors[1:]:
        other = t._data.shape
        if other != shape:
            if not other:
                continue  # a 0-d operand broadcasts to anything
            new = other if not shape else infer_size(shape, other)
            grew = grew or (new != shape and new != other)
            shape = new
    if grew:
        limits.check(shape, max(t._data.dtype.itemsize for t in tensors))
    return shape


def c_order(x: Array) -> Array:
    """x in C order, as ATen's kernels that write a fresh contiguous result give it, size-1
    dimensions' strides included (ascontiguousarray would turn a 0-d array into a 1-d one)."""
    if x.flags.c_contiguous and (1 not in x.shape
                                 or element_strides(x) == layout.row_major(x.shape)):
        return x
    return x.copy(order="C")


def check_output_shape(target: Tensor, *others: Tensor) -> None:
    """An in-place element-wise op's first checks (TensorIterator's shapes, then its dtypes,
    both before the kernel runs): the operands must broadcast to the target's own shape, and
    their result type must cast into the target's dtype."""
    shape = broadcast_shapes(target, *others)
    if shape != target._data.shape:
        raise TorchRuntimeError(f"output with shape {list(target.shape)} doesn't match the "
                                f"broadcast shape {list(shape)}")
    dtype = result_dtype(target, *others)
    if dtype.category > target.dtype.category:
        raise TorchRuntimeError(f"result type {dtype.short} can't be cast to the desired output "
                                f"type {target.dtype.short}")


def same_layout(out: Any, like: Any) -> Any:
    """`out` laid out as the dense array `like` of the same shape (values written where an op
    put its indices); as it is where `like` is not a dense NumPy array."""
    if out.__class__ is not np.ndarray or like.__class__ is not np.ndarray or out.ndim == 0:
        return out
    strides = element_strides(like)
    if not layout.is_non_overlapping_and_dense(like.shape, strides):
        return out
    return with_strides(out, strides)


def iterator_layout(out: Any, *operands: Any) -> Any:
    """`out`, the result of an element-wise op on `operands` (arrays; Python numbers and NumPy
    scalars are 0-d), laid out as TensorIterator lays its output out (layout.iterator_strides);
    NumPy's ufuncs choose their own order ("K"), which differs for size-1 dimensions, operands
    of different layouts and broadcasts."""
    if out.__class__ is not np.ndarray or out.ndim == 0 or out.size == 0:
        return out
    if out.flags.c_contiguous and 1 not in out.shape:
        for x in operands:
            if x.__class__ is np.ndarray and not x.flags.c_contiguous:
                break
        else:
            return out  # row-major operands give a row-major result
    shapes = [(x.shape, element_strides(x)) if x.__class__ is np.ndarray else ((), ())
              for x in operands]
    return with_strides(out, layout.iterator_strides(out.shape, shapes))


def preserve_layout(out: Any, like: Any) -> Any:
    """`out` laid out as empty_like(like) (preserve_format) allocates: like's strides when it is
    dense, else its dimensions' order by stride (clone, *_like, copies that ops write into)."""
    if (out.__class__ is not np.ndarray or like.__class__ is not np.ndarray or out.ndim == 0
            or out.size == 0 or (like.flags.c_contiguous and 1 not in like.shape
                                 and out.flags.c_contiguous)):
        return out
    return with_strides(out, layout.preserve_strides(like.shape, element_strides(like)))


def _arrays(inputs: tuple[Any, ...]) -> list[Any]:
    return [t._data for t in inputs if isinstance(t, Tensor)]


def _iterator_result(out: Any, inputs: tuple[Any, ...], *numbers: Any) -> Any:
    """iterator_layout(out, the tensor inputs' arrays, *numbers), its early exit first (the
    nodes' hot path): a row-major result without size-1 dimensions of row-major tensor inputs
    is laid out as ATen's already."""
    if out.__class__ is not np.ndarray:
        return out
    if out.flags.c_contiguous and 1 not in out.shape:
        for t in inputs:
            if t.__class__ is Tensor or isinstance(t, Tensor):
                data = t._data
                if data.__class__ is np.ndarray and not data.flags.c_contiguous:
                    break
        else:
            return out
    return iterator_layout(out, *_arrays(inputs), *numbers)


def suggested_layout(out: Any, *likes: Any) -> Any:
    """`out` laid out as empty_like(x, x.suggest_memory_format()) allocates it, the kernels of
    convolution, batch norm and pooling: channels-last where one of `likes` of out's rank is
    channels-last (and not contiguous), else row-major."""
    if out.__class__ is not np.ndarray or out.ndim not in (4, 5):
        return c_order(out) if out.__class__ is np.ndarray else out
    for like in likes:
        if like.__class__ is np.ndarray and like.ndim == out.ndim and \
                not like.flags.c_contiguous and \
                layout.is_channels_last(like.shape, element_strides(like)):
            return with_strides(out, layout.channels_last(out.shape))
    return c_order(out)


def laid_out(rule: str) -> Callable[[type[Function]], type[Function]]:
    """Class decorator: the node's forward result laid out as ATen allocates that op's output.
    "iterator": a TensorIterator op of its tensor inputs (iterator_layout); "scalar": one of its
    tensor inputs and a Python number (a 0-d operand, which takes the slow path: `t * 2`);
    "preserve": empty_like(first input) (preserve_layout); "suggested": channels-last after a
    channels-last input (suggested_layout); "row_major": a fresh contiguous tensor (reductions
    over dimensions, kernels that allocate their output themselves)."""

    def decorate(cls: type[Function]) -> type[Function]:
        forward = cls.forward
        if getattr(forward, "laid_out", None) == rule:
            return cls  # inherited, already laid out
        if rule == "iterator":
            def laid(self: Function, *inputs: Any, **params: Any) -> Any:
                return _iterator_result(forward(self, *inputs, **params), inputs)
        elif rule == "scalar":
            def laid(self: Function, *inputs: Any, **params: Any) -> Any:
                return _iterator_result(forward(self, *inputs, **params), inputs, 0)
        elif rule == "preserve":
            def laid(self: Function, *inputs: Any, **params: Any) -> Any:
                return preserve_layout(forward(self, *inputs, **params), inputs[0]._data)
        elif rule == "suggested":
            def laid(self: Function, *inputs: Any, **params: Any) -> Any:
                return suggested_layout(forward(self, *inputs, **params), *_arrays(inputs))
        else:
            assert rule == "row_major", rule

            def laid(self: Function, *inputs: Any, **params: Any) -> Any:
                out = forward(self, *inputs, **params)
                if out.__class__ is tuple:  # (a MultiOutputFunction's results)
                    return tuple(c_order(o) if o.__class__ is np.ndarray else o for o in out)
                return c_order(out) if out.__class__ is np.ndarray else out
        laid.__doc__, laid.__wrapped__ = forward.__doc__, forward  # type: ignore[attr-defined]
        laid.laid_out = rule  # type: ignore[attr-defined]
        cls.forward = laid  # type: ignore[method-assign]
        return cls

    return decorate


def not_implemented_for(kernel: str, dtype: DType) -> TorchNotImplementedError:
    return TorchNotImplementedError(f'"{kernel}" not implemented for \'{dtype.short}\'')


# PyTorch never warns about overflow, division by zero or invalid values: NumPy must not either.
# Set once for the engine (entering np.errstate on every op would cost more than the op).
np.seterr(all="ignore")
_NO_ERRSTATE = nullcontext()


def _quiet() -> Any:
    """Where NumPy might warn: a no-op, errors are ignored engine-wide (see np.seterr above)."""
    return _NO_ERRSTATE


def cj(x: Any) -> Any:
    """x's conjugate where x is complex (a saved operand in a gradient formula: PyTorch's
    formulas multiply by other.conj()); x itself otherwise, at the cost of one check."""
    if x.__class__ is np.ndarray:
        return np.conj(x) if x.dtype.kind == "c" else x
    if x.__class__ is complex:
        return x.conjugate()
    if isinstance(x, Tensor) and x.dtype.is_complex:
        return x.conj()
    return x


def _times(x: Any, y: Any) -> Any:
    """`x * y` for gradient formulas: on every core when both are large NumPy arrays, laid out
    as `x` (the incoming gradient, which PyTorch's formulas put first), as TensorIterator does:
    the sum that reduces it to a broadcast input's shape walks that layout."""
    if x.__class__ is np.ndarray and y.__class__ is np.ndarray:
        return iterator_layout(elementwise(np.multiply, x, y), x, y)
    if y.__class__ is float and x.__class__ is np.ndarray and x.dtype in REDUCED_FLOAT_NP:
        # mul(Tensor, Scalar) keeps the number in float32 for float16 and bfloat16 (NumPy would
        # round it to the array's dtype first)
        with np.errstate(all="ignore"):
            return (x.astype(np.float32) * np.float32(y)).astype(x.dtype)
    if x.__class__ is float and y.__class__ is np.ndarray:
        return _times(y, x)
    if x.__class__ is np.ndarray and y.__class__ in _NUMBERS:
        # (out=...: a 0-d result stays an array, as validate_outputs wants it; NumPy would
        # make it a scalar, which the engine then turns back into an array, in Python)
        return np.multiply(x, y, out=...)
    return x * y


_NUMBERS = frozenset({float, int, bool, complex})  # what a saved wrapped number unpacks as


def _scalar_op(x: Any, ufunc: str, other: Any, dtype: DType) -> Array:
    """`x (op) scalar` in `dtype` (add, subtract, multiply with a Python number)."""
    if x.__class__ is np.ndarray:
        return elementwise(getattr(np, ufunc), x, other, dtype=dtype.np)
    return getattr(xp_of(x), ufunc)(x, other, dtype=dtype.np)


def fma64(a: Any, b: Any, c: Any) -> np.ndarray:
    """a * b + c in float64 rounded once (NumPy has no fma; random.py's exact emulation)."""
    from gradsh.engine.random import _fma64

    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    flat = [np.broadcast_to(np.asarray(v, dtype=np.float64), shape).reshape(-1) for v in (a, b, c)]
    return _fma64(*flat).reshape(shape)


def _numel(shape: Shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n
