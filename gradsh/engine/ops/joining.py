"""Joining and rearranging: cat, stack, flip, repeat, roll, meshgrid, pad."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from gradsh.engine import limits
from gradsh.engine.exceptions import (
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
    warn,
)
from gradsh.engine.functions.common import result_dtype
from gradsh.engine.functions.joining import (
    CatBackward0,
    ConstantPadNdBackward0,
    FlipBackward0,
    RepeatBackward0,
    RollBackward0,
    StackBackward0,
)
from gradsh.engine.ops.arguments import _check_kernel_devices, _check_tensor, _type_name, wrap_dim
from gradsh.engine.ops.guard import alias, guarded
from gradsh.engine.ops.padding import pad_nonconstant
from gradsh.engine.ops.reductions import min
from gradsh.engine.ops.shape import expand, view
from gradsh.engine.tensor import Tensor

__all__ = ["cat", "concat", "concatenate", "stack", "flip", "repeat", "roll", "meshgrid", "pad"]


def _tensor_list(tensors: Any, fname: str) -> list[Tensor]:
    if isinstance(tensors, Tensor):
        raise TorchTypeError(
            f"{fname}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"
        )
    items = list(tensors)
    for i, t in enumerate(items):
        if not isinstance(t, Tensor):
            raise TorchTypeError(
                f"expected Tensor as element {i} in argument 0, but got {_type_name(t)}"
            )
    return items


@guarded(tensor_first=False)
def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    items = _tensor_list(tensors, "cat")
    if not items:
        raise TorchValueError("torch.cat(): expected a non-empty list of Tensors")
    _check_kernel_devices("wrapper_CUDA_cat", *[("tensors", t) for t in items])
    for i, t in enumerate(items):
        if t.ndim == 0:
            raise TorchRuntimeError(
                f"zero-dimensional tensor (at position {i}) cannot be concatenated"
            )
    # Legacy rule: 1-d empty tensors are skipped when the others have more dimensions.
    real = [t for t in items if not (t.ndim == 1 and t.shape[0] == 0)]
    ref = real[0] if real else items[0]
    d = wrap_dim(dim, ref.ndim)
    for i, t in enumerate(items):
        if t.ndim == 1 and t.shape[0] == 0 and ref.ndim != 1:
            continue
        if t.ndim != ref.ndim:
            raise TorchRuntimeError(
                f"Tensors must have same number of dimensions: got {ref.ndim} and {t.ndim}"
            )
        for k in range(t.ndim):
            if k != d and t.shape[k] != ref.shape[k]:
                raise TorchRuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{ref.shape[k]} but got size {t.shape[k]} for tensor number {i} in the list."
                )
    dtype = result_dtype(*items)
    shape = list(ref.shape)
    shape[d] = builtins.sum(t.shape[d] for t in items if t.ndim == ref.ndim)
    limits.check(tuple(shape), dtype.itemsize)
    return CatBackward0.apply(*items, dim=d, dtype=dtype)


concat = alias(cat, "concat")
concatenate = alias(cat, "concatenate")


@guarded(tensor_first=False)
def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    items = _tensor_list(tensors, "stack")
    if not items:
        raise TorchRuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(items):
        if t.shape != items[0].shape:
            raise TorchRuntimeError(
                f"stack expects each tensor to be equal size, but got "
                f"[{', '.join(map(str, items[0].shape))}] at entry 0 and "
                f"[{', '.join(map(str, t.shape))}] at entry {i}"
            )
    d = wrap_dim(dim, items[0].ndim + 1)
    _check_kernel_devices("wrapper_CUDA_cat", *[("tensors", t) for t in items])  # stack is cat
    dtype = result_dtype(*items)
    limits.check((len(items), *items[0].shape), dtype.itemsize)
    return StackBackward0.apply(*items, dim=d, dtype=dtype)


@guarded
def flip(a: Tensor, *positional: Any, dims: Any = None) -> Tensor:
    """flip(x, dims), x.flip(0, 1), flip(x, dims=(0, 1))."""
    a = _check_tensor(a, "flip")
    if dims is None:
        if not positional:
            raise TorchTypeError('flip() missing 1 required positional arguments: "dims"')
        dims = positional
    elif positional:
        raise TorchTypeError("flip() got multiple values for argument 'dims'")
    elif not isinstance(dims, (tuple, list)):
        raise TorchTypeError(f"flip(): argument 'dims' must be tuple of ints, not "
                             f"{_type_name(dims)}")
    else:
        dims = (dims,)
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    wrapped = tuple(wrap_dim(d, a.ndim) for d in dims)
    if len(set(wrapped)) != len(wrapped):
        raise TorchRuntimeError(f"dim {wrapped[0]} appears multiple times in the list of dims")
    return FlipBackward0.apply(a, dims=wrapped)


@guarded
def repeat(a: Tensor, *sizes: Any) -> Tensor:
    a = _check_tensor(a, "repeat")
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    if len(sizes) < a.ndim:
        raise TorchRuntimeError("Number of dimensions of repeat dims can not be smaller than "
                                "number of dimensions of tensor")
    padded = (1,) * (len(sizes) - a.ndim) + tuple(a.shape)
    shape = [int(s) * n for s, n in zip(sizes, padded, strict=True)]
    for n in shape:  # PyTorch checks the result's sizes (a negative repeat of 0 is 0)
        if n < 0:
            raise TorchRuntimeError(f"Trying to create tensor with negative dimension {n}: "
                                    f"{shape}")
    limits.check(tuple(builtins.max(n, 0) for n in shape), a._data.dtype.itemsize)
    return RepeatBackward0.apply(a, repeats=tuple(builtins.max(int(s), 0) for s in sizes))


@guarded
def roll(a: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    a = _check_tensor(a, "roll")
    shift_list = tuple(shifts) if isinstance(shifts, (tuple, list)) else (shifts,)
    if dims is None:
        if len(shift_list) != 1:
            raise TorchRuntimeError(f"shifts and dimensions must align. shifts: "
                                    f"{len(shift_list)}, dims:0")
        return RollBackward0.apply(a, shifts=(int(shift_list[0]),), dims=())
    dim_list = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if len(shift_list) != len(dim_list):
        raise TorchRuntimeError(f"shifts and dimensions must align. shifts: {len(shift_list)}, "
                                f"dims:{len(dim_list)}")
    return RollBackward0.apply(a, shifts=tuple(int(s) for s in shift_list),
                                  dims=tuple(wrap_dim(d, a.ndim) for d in dim_list))


@guarded(tensor_first=False)
def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    if not tensors:
        raise TorchRuntimeError("meshgrid expects a non-empty TensorList")
    ts = [_check_tensor(t, "meshgrid") for t in tensors]
    if any(t.dtype is not ts[0].dtype for t in ts):  # (before the indexing and dim checks)
        raise TorchRuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing is None:
        warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
             "argument.")
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise TorchRuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", "
                                f"but received: {indexing}")
    for t in ts:
        if t.ndim > 1:
            raise TorchRuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                                    f"but got: {t}")
    swap = indexing == "xy" and len(ts) >= 2  # the first two swapped in, then back out
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.numel() for t in ts)
    grids = []
    for i, t in enumerate(ts):
        view_shape = [1] * len(ts)
        view_shape[i] = -1
        grids.append(expand(view(t, *view_shape), shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@guarded
def pad(input: Tensor, pad: Any, mode: str = "constant",  # noqa: A002
        value: float | None = None) -> Tensor:
    """F.pad: (left, right) pairs from the last dimension backwards; negative amounts crop.
    mode "constant" here, "reflect", "replicate" and "circular" in padding.py."""
    input = _check_tensor(input, "pad")
    amounts = tuple(int(p) for p in pad)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise TorchNotImplementedError(f"Unrecognised padding mode {mode}")
    if len(amounts) % 2:
        raise TorchRuntimeError("Padding length must be divisible by 2")
    if len(amounts) > 2 * input.ndim:
        raise TorchRuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(amounts)} and input of dimension {input.ndim}")
    shape = list(input.shape)
    for i in range(len(amounts) // 2):
        shape[input.ndim - 1 - i] += amounts[2 * i] + amounts[2 * i + 1]
    limits.check(tuple(builtins.max(n, 0) for n in shape), input._data.dtype.itemsize)
    if mode != "constant":
        return pad_nonconstant(input, amounts, mode, value)
    for i in range(len(amounts) // 2):
        n = input.shape[input.ndim - 1 - i]
        if n + builtins.min(amounts[2 * i], 0) + builtins.min(amounts[2 * i + 1], 0) < 0:
            raise TorchRuntimeError("narrow(): length must be non-negative.")
    return ConstantPadNdBackward0.apply(input, pad=amounts,
                                           value=0.0 if value is None else value)
