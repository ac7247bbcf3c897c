"""F.pad's reflect, replicate and circular modes (constant is in joining.py), with ATen's
checks in ATen's order (PadNd.cpp, ReflectionPad.cpp, ReplicationPadding.cpp)."""

from __future__ import annotations

from gradsh.engine.exceptions import (
    TorchNotImplementedError,
    TorchRuntimeError,
)
from gradsh.engine.functions.padding import (
    ReflectionPad1DBackward0,
    ReflectionPad2DBackward0,
    ReflectionPad3DBackward0,
    ReplicationPad1DBackward0,
    ReplicationPad2DBackward0,
    ReplicationPad3DBackward0,
)
from gradsh.engine.ops.copies import copy_
from gradsh.engine.ops.creation import new_empty
from gradsh.engine.ops.shape import slice as slice_
from gradsh.engine.tensor import Tensor

__all__ = ["pad_nonconstant"]

_NODES = {
    "reflect": (ReflectionPad1DBackward0, ReflectionPad2DBackward0, ReflectionPad3DBackward0),
    "replicate": (ReplicationPad1DBackward0, ReplicationPad2DBackward0,
                  ReplicationPad3DBackward0),
}
_UNSUPPORTED = (
    "Padding size {size} is not supported for {ndim}D input tensor.\n"
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
)


def pad_nonconstant(x: Tensor, pad: tuple[int, ...], mode: str, value: float | None) -> Tensor:
    """_pad_enum past the constant mode: the padded dimensions must be 1, 2 or 3 trailing ones
    of a tensor with one or two more (batch, channels)."""
    if value is not None and value != 0:
        raise TorchRuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    k = len(pad) // 2
    if not 1 <= k <= 3 or x.ndim not in (k + 1, k + 2):
        raise TorchNotImplementedError(_UNSUPPORTED.format(size=len(pad), ndim=x.ndim))
    if mode == "circular":
        return _pad_circular(x, pad)
    _check_shape(x, k)
    out = [x.shape[x.ndim - k + d] + pad[2 * (k - 1 - d)] + pad[2 * (k - 1 - d) + 1]
           for d in range(k)]
    if mode == "reflect":
        _check_reflect_sizes(x, pad, k)
    _check_output(x, out, k, mode)
    if any(size < 0 for size in out):
        shape = list(x.shape[:x.ndim - k]) + out
        bad = next(size for size in out if size < 0)
        raise TorchRuntimeError(f"Trying to create tensor with negative dimension {bad}: "
                                f"{shape}")
    return _NODES[mode][k - 1].apply(x, pad=pad)


def _check_shape(x: Tensor, k: int) -> None:
    """Every dimension but the first must be non-zero (a batch may be empty)."""
    if any(size == 0 for size in x.shape[1:]):
        raise TorchRuntimeError(
            f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size and "
            f"other non-zero dimensions for input, but got: {list(x.shape)}")


def _check_reflect_sizes(x: Tensor, pad: tuple[int, ...], k: int) -> None:
    """A reflection cannot reach past the far edge: each pad < its dimension (W, H, D)."""
    for i in range(k):
        dim = x.ndim - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        size = x.shape[dim]
        if not (left < size and right < size):
            raise TorchRuntimeError(
                f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding "
                f"input dimension, but got: padding ({left}, {right}) at dimension {dim} of "
                f"input {list(x.shape)}")


def _check_output(x: Tensor, out: list[int], k: int, mode: str) -> None:
    """The kernels' "is too small" check: some padded output dimension must be non-empty."""
    if any(size >= 1 for size in out):
        return
    sizes = x.shape[x.ndim - k:]
    if k == 1:
        message = f"input (W: {sizes[0]}) is too small. Calculated output W: {out[0]}"
    elif k == 2:
        gap = " " if mode == "replicate" else ""
        message = (f"input (H: {sizes[0]}, W: {sizes[1]}{gap}) is too small. Calculated output "
                   f"H: {out[0]} W: {out[1]}")
    else:
        message = (f"input (D: {sizes[0]} H: {sizes[1]}, W: {sizes[2]}) is too small. "
                   f"Calculated output D: {out[0]} H: {out[1]} W: {out[2]}")
    raise TorchRuntimeError(message)


def _pad_circular(x: Tensor, pad: tuple[int, ...]) -> Tensor:
    """ATen's _pad_circular, step by step, so the graph is PyTorch's: an empty result, the
    input (cropped by negative amounts) copied into its middle, then for each padded dimension
    from the last, the left then the right margin copied from the far end of the result
    (CopySlices over SliceBackward0)."""
    k = len(pad) // 2
    lead = x.ndim - k
    shape = list(x.shape)
    out_shape = list(shape)
    for i in range(k):
        left, right = pad[2 * (k - i - 1)], pad[2 * (k - i - 1) + 1]
        size = shape[lead + i]
        out_shape[lead + i] = size + left + right
        if not (left <= size and right <= size):
            raise TorchRuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[lead + i] < 0:
            raise TorchRuntimeError("Negative padding value is resulting in an empty dimension")
    out = new_empty(x, tuple(out_shape))
    out_slice, in_slice = out, x
    for i in range(k):
        dim = k - i + lead - 1
        left, right = pad[2 * i], pad[2 * i + 1]
        out_slice = slice_(out_slice, dim, max(left, 0), out_shape[dim] - max(right, 0))
        in_slice = slice_(in_slice, dim, max(-left, 0), shape[dim] - max(-right, 0))
    copy_(out_slice, in_slice)
    for i in range(k):
        dim = k - i + lead - 1
        left, right = pad[2 * i], pad[2 * i + 1]
        if left > 0:
            copy_(slice_(out, dim, 0, left),
                  slice_(out, dim, out_shape[dim] - left - max(right, 0),
                         out_shape[dim] - max(right, 0)))
        if right > 0:
            copy_(slice_(out, dim, out_shape[dim] - right, out_shape[dim]),
                  slice_(out, dim, max(left, 0), max(left, 0) + right))
    return out
