"""Indexing: a[key], a[key] = v, gather, index_select, take, index_fill/add/copy/put, masked
select and scatter, nonzero, one_hot (scatter and its forms: ops/scatter.py)."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, limits, meta
from gradsh.engine.exceptions import (
    TorchIndexError,
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
    warn,
)
from gradsh.engine.functions.common import c_order, infer_size, xp_of
from gradsh.engine.functions.indexing import (
    GatherBackward0,
    IndexAddBackward0,
    IndexBackward0,
    IndexCopyBackward0,
    IndexFillBackward0,
    IndexFillBackward1,
    IndexPutBackward0,
    IndexSelectBackward0,
    MaskedScatterBackward0,
    MaskedSelectBackward0,
    TakeBackward0,
)
from gradsh.engine.functions.shape import (
    AliasBackward0,
    SelectBackward0,
    SliceBackward0,
    UnsqueezeBackward0,
)
from gradsh.engine.ops.arguments import (
    _C_INTEGER_NAMES,
    Number,
    _check_tensor,
    _new,
    _type_name,
    apply_node,
    as_int,
    checked_fill,
    wrap_dim,
)
from gradsh.engine.ops.copies import copy_, fill_, to
from gradsh.engine.ops.creation import tensor, zeros
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import expand, reshape, view
from gradsh.engine.tensor import Tensor, apply_inplace
from gradsh.engine.inplace import check_no_overlap

__all__ = [
    "index", "setitem", "index_put", "index_put_", "gather", "index_select", "masked_select",
    "take", "index_fill", "index_fill_", "index_add", "index_add_", "index_copy", "index_copy_",
    "masked_scatter", "masked_scatter_", "nonzero", "one_hot",
]


def _index_error(obj: Any) -> TorchIndexError | TorchTypeError:
    if isinstance(obj, (str, bytes)):  # PyTorch reads a string as a sequence: tensor data
        return TorchTypeError(f"new(): invalid data type '{_type_name(obj)}'")
    return TorchIndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
        f"valid indices (got {_type_name(obj)})"
    )


def _as_index_tensor(item: Any, device: str) -> Tensor:
    """A tensor, list or NumPy array used as an index. Data that is not a tensor becomes one as
    PyTorch's indexing_tensor_from_data makes it: a mask if bool or uint8, else int64 (floats
    truncated)."""
    if isinstance(item, Tensor):
        t = item
    else:
        try:
            t = tensor(item, device=device)  # a list indexes on the indexed tensor's device
        except (TorchTypeError, TorchValueError, TorchRuntimeError):
            raise _index_error(item) from None
        if t.dtype is not dtypes.bool_ and t.dtype is not dtypes.uint8:
            t = to(t, dtypes.int64)
    if t.dtype.is_floating_point:
        raise TorchIndexError("tensors used as indices must be long, int, byte or bool tensors")
    return t


def _sequence_as_tuple(key: list[Any]) -> bool:
    """PyTorch's treatSequenceAsTuple (NumPy's old heuristic): a short list holding a tensor,
    a sequence, a slice, None or Ellipsis indexes as the tuple of its items, with a
    deprecation warning. NumPy arrays are always one index."""
    if len(key) >= 32:
        return False
    for item in key:
        if isinstance(item, (Tensor, list, tuple, range, str, np.ndarray, builtins.slice)) \
                or item is None or item is Ellipsis:
            warn("Using a non-tuple sequence for multidimensional indexing is deprecated and "
                 "will be changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In "
                 "pytorch 2.9 this will be interpreted as tensor index, x[torch.tensor(seq)], "
                 "which will result either in an error or a different result")
            return True
    return False


def _is_other_sequence(obj: Any) -> bool:
    """PySequence_Check for what the index code has no branch of its own: an object of a
    Python class with __getitem__ that is not a dict (a torch.utils.data.Subset, a
    UserList). PyTorch reads it as it reads a list: data for an index tensor."""
    return not isinstance(obj, (Tensor, list, tuple, range, str, bytes, dict, np.ndarray)) \
        and hasattr(type(obj), "__getitem__") and hasattr(type(obj), "__len__")


def _plain_key(key: Any) -> Any:
    """An index as PyTorch reads it before indexing: a NumPy integer as an int, an array as an
    index tensor (a 0-d integer one then indexes as an int), a uint8 tensor as a bool mask
    (deprecated, with PyTorch's warning)."""
    if _is_other_sequence(key):
        key = list(key)
    if isinstance(key, list) and _sequence_as_tuple(key):
        key = tuple(key)
    if isinstance(key, tuple):
        if any(isinstance(k, (np.integer, np.ndarray, Tensor)) for k in key):
            return tuple(_plain_key(k) for k in key)
        return key
    if isinstance(key, np.integer):
        return int(key)
    if isinstance(key, np.ndarray):
        key = _as_index_tensor(key, "cpu")
    if isinstance(key, Tensor) and key.dtype is dtypes.uint8:
        warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
             "instead.")
        key = to(key, dtypes.bool_)
    return key


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _count_dims(items: Sequence[Any]) -> int:
    count = 0
    for item in items:
        if item is None or item is Ellipsis or isinstance(item, bool):
            continue
        if isinstance(item, Tensor) and item.dtype is dtypes.bool_:
            count += builtins.max(item.ndim, 0)
        else:
            count += 1
    return count


def _apply_slicing(t: Tensor, items: Sequence[Any], optimize: bool = True
                   ) -> tuple[Tensor, list[tuple[int, Tensor]]]:
    """PyTorch's applySlicing: basic indices become views in order; tensor indices are
    recorded at their dimension for the advanced step (a mask advances by its ndim)."""
    specified = _count_dims(items)
    if specified > t.ndim:
        raise TorchIndexError(f"too many indices for tensor of dimension {t.ndim}")
    result = t
    dim = 0  # the dimension of `result` the next index applies to
    advanced: list[tuple[int, Tensor]] = []
    for real_dim, item in enumerate(items):  # messages name the index's position in the key
        if isinstance(item, Tensor) and item.ndim == 0 and not item.dtype.is_floating_point \
                and item.dtype is not dtypes.bool_:
            item = int(item.item())
        if _is_int(item):
            # NOTE: several Ellipses can push `dim` past the end: PyTorch then sees size 0
            size = result.shape[dim] if dim < result.ndim else 0
            if item < -size or item >= size:
                raise TorchIndexError(
                    f"index {item} is out of bounds for dimension {real_dim} with size {size}"
                )
            result = SelectBackward0.apply(result, dim=dim, index=item % size)
        elif isinstance(item, builtins.slice):
            if dim >= result.ndim and optimize and item == builtins.slice(None):
                # a full slice past the end (several Ellipses) is skipped, as in PyTorch
                dim += 1
                continue
            wrap_dim(dim, result.ndim)
            start, stop, step = _slice_bounds(item, result.shape[dim])
            if not (optimize and start == 0 and stop == result.shape[dim] and step == 1):
                result = SliceBackward0.apply(result, dim=dim, start=start, end=stop,
                                                 step=step)
            dim += 1
        elif item is None:
            result = UnsqueezeBackward0.apply(result, dim=wrap_dim(dim, result.ndim + 1))
            dim += 1
        elif item is Ellipsis:
            dim += t.ndim - specified
        elif isinstance(item, bool) or (isinstance(item, Tensor) and item.ndim == 0
                                        and item.dtype is dtypes.bool_):
            flag = bool(item.item()) if isinstance(item, Tensor) else item
            result = UnsqueezeBackward0.apply(result, dim=wrap_dim(dim, result.ndim + 1))
            index = Tensor._make(xp_of(t._data).zeros(1 if flag else 0, dtype=np.int64),
                                 t.device)
            advanced.append((dim, index))
            dim += 1
        elif isinstance(item, (Tensor, list, tuple, range)) or _is_other_sequence(item):
            index = _as_index_tensor(item, t.device)
            advanced.append((dim, index))
            dim += index.ndim if index.dtype is dtypes.bool_ else 1
        else:
            raise _index_error(item)
    return result, advanced


def _slice_bounds(item: builtins.slice, length: int) -> tuple[int, int, int]:
    step = 1 if item.step is None else _slice_int(item.step)
    if step == 0:
        raise TorchValueError("slice step cannot be zero")
    if step < 0:
        raise TorchValueError("step must be greater than zero")
    start = 0 if item.start is None else _slice_int(item.start)
    stop = length if item.stop is None else _slice_int(item.stop)
    if start < 0:
        start = builtins.max(start + length, 0)
    if stop < 0:
        stop = builtins.max(stop + length, 0)
    start = builtins.min(start, length)
    stop = builtins.min(builtins.max(stop, start), length)
    return start, stop, step


def _slice_int(value: Any) -> int:
    index = as_int(value)
    if index is None:
        raise TorchTypeError(
            "slice indices must be integers or None or have an __index__ method"
        )
    return index


def _normalize_key(key: Any) -> tuple[Any, ...]:
    if isinstance(key, tuple):
        return key
    return (key,)


def _advanced_key(sliced: Tensor, advanced: list[tuple[int, Tensor]],
                  before_bounds: Callable[[tuple[int, ...]], None] | None = None
                  ) -> tuple[tuple[Any, ...], list[Tensor]]:
    """The NumPy key for PyTorch's advanced index step, with its errors in PyTorch's order:
    the number of indices, each mask's shape, broadcasting, `before_bounds` (given the
    result's shape: index_put's checks of the value), then (only if the result has elements)
    the bounds, naming the index's ordinal among the index tensors."""
    entries = advanced[-1][0] + 1
    if entries > sliced.ndim:
        raise TorchIndexError(
            f"too many indices for tensor of dimension {sliced.ndim} (got {entries})"
        )
    for _, index in advanced:
        if index.device != "cpu" and index.device != sliced.device:
            raise TorchIndexError(
                "indices should be either on cpu or on the same device as the indexed tensor "
                f"({sliced.device})"
            )
    # The key is built and checked on the host (PyTorch's errors need the index values) and
    # copied to the indexed tensor's device once, at the end.
    key: list[Any] = []
    saved: list[Tensor] = []
    indexers: list[tuple[np.ndarray, int]] = []
    position = 0
    for dim, index in advanced:
        while position < dim:
            key.append(builtins.slice(None))
            position += 1
        if index.dtype is dtypes.bool_:
            mask = backend.to_host(index._data)
            for k in range(mask.ndim):
                if position + k >= sliced.ndim or mask.shape[k] != sliced.shape[position + k]:
                    raise TorchIndexError(
                        f"The shape of the mask [{', '.join(map(str, mask.shape))}] at index {k} "
                        f"does not match the shape of the indexed tensor "
                        f"[{', '.join(map(str, sliced.shape))}] at index {position + k}"
                    )
            for part in np.nonzero(mask):
                part = part.astype(np.int64)
                key.append(part)
                indexers.append((part, sliced.shape[position]))
                saved.append(Tensor._make(backend.to_device(part, index.device), index.device))
                position += 1
        else:
            array = backend.to_host(index._data).astype(np.int64)
            key.append(array)
            indexers.append((array, sliced.shape[position]))
            saved.append(index)
            position += 1
    shapes = [a.shape for a, _ in indexers]
    try:
        broadcast = np.broadcast_shapes(*shapes)
    except ValueError:
        raise TorchIndexError(
            "shape mismatch: indexing tensors could not be broadcast together with shapes "
            + ", ".join("[" + ", ".join(map(str, s)) + "]" for s in shapes)
        ) from None
    rest = 1
    for d in range(sliced.ndim):
        if d >= len(key) or not isinstance(key[d], np.ndarray):
            rest *= sliced.shape[d]
    indexed = _indexed_shape(sliced.shape, key, broadcast)
    limits.check(indexed, sliced._data.dtype.itemsize)
    if before_bounds is not None:
        before_bounds(indexed)
    if rest * int(np.prod(broadcast, dtype=np.int64)) > 0:
        # the kernel checks element by element, each index in turn
        bad = [np.broadcast_to((a < -size) | (a >= size), broadcast).reshape(-1)
               for a, size in indexers]
        anywhere = np.logical_or.reduce(bad) if bad else np.zeros(0, dtype=bool)
        if anywhere.any():
            flat = int(np.argmax(anywhere))
            j = next(j for j, b in enumerate(bad) if b[flat])
            value = int(np.broadcast_to(indexers[j][0], broadcast).reshape(-1)[flat])
            raise TorchIndexError(
                f"index {value} is out of bounds for dimension {j} with size {indexers[j][1]}"
            )
    normalized = []
    for k in key:
        if isinstance(k, np.ndarray):
            size = sliced.shape[len(normalized)]
            if k.size:
                k = np.where(k < 0, k + size, k)
                # an empty result never reads its indices (PyTorch checks none): keep NumPy's
                # indexing from rejecting them
                k = np.where((k < 0) | (k >= size), 0, k)
            k = backend.to_device(k, sliced.device)
        normalized.append(k)
    return tuple(normalized), saved


def _indexed_shape(shape: tuple[int, ...], key: list[Any],
                   broadcast: tuple[int, ...]) -> tuple[int, ...]:
    """The shape NumPy gives `array[key]` (index arrays broadcast to `broadcast`), computed
    before anything is allocated: the index dimensions replace the indexed ones where these are
    adjacent, else go first."""
    arrays = [i for i, k in enumerate(key) if isinstance(k, np.ndarray)]
    others = [n for d, n in enumerate(shape) if d >= len(key) or not isinstance(key[d], np.ndarray)]
    if arrays == list(range(arrays[0], arrays[-1] + 1)):
        return (*others[:arrays[0]], *broadcast, *others[arrays[0]:])
    return (*broadcast, *others)


@guarded
def index(t: Tensor, key: Any) -> Tensor:
    """`t[key]` exactly as PyTorch's Tensor.__getitem__."""
    key = _plain_key(key)
    if key is None:
        return UnsqueezeBackward0.apply(t, dim=0)
    if key is Ellipsis:
        return AliasBackward0.apply(t)
    if _is_int(key):
        _check_not_0d(t)
        sliced, _ = _apply_slicing(t, (key,))
        return sliced
    if isinstance(key, builtins.slice):
        # A lone slice is never optimised away: `x[:]` is SliceBackward0.
        _check_not_0d(t)
        start, stop, step = _slice_bounds(key, t.shape[0])
        return SliceBackward0.apply(t, dim=0, start=start, end=stop, step=step)
    if isinstance(key, (float, str)):
        raise _index_error(key)
    items = _normalize_key(key)
    sliced, advanced = _apply_slicing(t, items)
    if not advanced:
        if sliced is t:
            return AliasBackward0.apply(t)
        return sliced
    np_key, saved = _advanced_key(sliced, advanced)
    return IndexBackward0.apply(sliced, key=np_key, indices=saved)


def _check_not_0d(t: Tensor) -> None:
    if t.ndim == 0:
        raise TorchIndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
        )


def _index_with_key(g: Tensor, key: tuple[Any, ...]) -> Tensor:
    """Advanced indexing with an already built NumPy key (backward formulas)."""
    saved = [Tensor._make(k, g.device) for k in key if _is_index_array(k)]
    return IndexBackward0.apply(g, key=key, indices=saved)


def _index_fill_zero(g: Tensor, key: tuple[Any, ...]) -> Tensor:
    zeros_value = zeros((), dtype=g.dtype, device=g.device)
    saved = [Tensor._make(k, g.device) for k in key if _is_index_array(k)]
    return IndexPutBackward0.apply(g, zeros_value, key=key, indices=saved)


def _is_index_array(k: Any) -> bool:
    return isinstance(k, np.ndarray) or backend.is_device_array(k)


def _strip_leading_ones(shape: tuple[int, ...]) -> tuple[int, ...]:
    i = 0
    while i < len(shape) and shape[i] == 1:
        i += 1
    return shape[i:]


def _copy_to(dst: Tensor, src: Tensor) -> None:
    """PyTorch's indexing copy_to: copy_, or fill_ for a CPU scalar, or view + expand + copy_."""
    if dst.shape == src.shape:
        copy_(dst, src)
        return
    if src.ndim == 0 and src.device == "cpu":
        fill_(dst, src)
        return
    src_view = view(src, _strip_leading_ones(src.shape))
    if src_view.shape != dst.shape:
        src_view = expand(src_view, dst.shape)
    copy_(dst, src_view)


# c10::checked_convert's names for a complex value into a real dtype (the reduced floats
# convert through double)
_C_REAL_NAMES = {**_C_INTEGER_NAMES, "float32": "float", "float64": "double",
                 "float16": "double", "bfloat16": "double"}


def _real_fill(value: complex, dtype: dtypes.DType) -> Any:
    """A complex assigned into a real tensor: its real part, where its imaginary part is 0
    (any value into bool: whether it is nonzero); else PyTorch's overflow error."""
    if dtype is dtypes.bool_:
        return bool(value)
    if value.imag != 0:
        raise TorchRuntimeError(f"value cannot be converted to type "
                                f"{_C_REAL_NAMES.get(dtype.name, dtype.name)} without overflow")
    return value.real if dtype.is_floating_point else int(value.real)


@guarded(numpy_data=True)  # the value's NumPy type matters (a numpy.float32 is refused)
def setitem(t: Tensor, key: Any, value: Any) -> Tensor:
    """`t[key] = value` exactly as PyTorch's Tensor.__setitem__ (in place)."""
    if value.__class__ is int and not -(1 << 63) <= value < (1 << 63):
        raise TorchValueError("Overflow when unpacking long long")
    key = _plain_key(key)
    if isinstance(value, Tensor):
        v = value
    elif isinstance(value, (bool, int, float, complex, np.integer)):  # not other NumPy scalars
        if value.__class__ is complex and not t.dtype.is_complex:
            value = _real_fill(value, t.dtype)
        value = checked_fill(value, t.dtype)  # (fill_'s check: nan into int64 overflows)
        v = Tensor._make(backend.to_device(np.array(value).astype(t._data.dtype), t.device),
                         t.device)
    else:
        raise TorchTypeError(f"can't assign a {_type_name(value)} to a torch.{t.dtype.legacy}")
    if key is False or (isinstance(key, Tensor) and key.ndim == 0 and key.dtype is dtypes.bool_
                        and not bool(key.item())):
        return t
    if key is Ellipsis:
        _copy_to(t, v)
        return t
    if key is None or key is True:
        _copy_to(UnsqueezeBackward0.apply(t, dim=0), v)
        return t
    if _is_int(key):
        _check_not_0d(t)
        sliced, _ = _apply_slicing(t, (key,))
        _copy_to(sliced, v)
        return t
    if isinstance(key, builtins.slice):
        _check_not_0d(t)
        start, stop, step = _slice_bounds(key, t.shape[0])
        if start == 0 and stop == t.shape[0] and step == 1:
            _copy_to(t, v)
        else:
            _copy_to(SliceBackward0.apply(t, dim=0, start=start, end=stop, step=step), v)
        return t
    if isinstance(key, (float, str)):
        raise _index_error(key)
    sliced, advanced = _apply_slicing(t, _normalize_key(key))
    if not advanced:
        _copy_to(sliced, v)
        return t
    stripped = _strip_leading_ones(v.shape)
    if stripped != v.shape:
        v = view(v, stripped)
    if v.dtype is not sliced.dtype and len(advanced) == 1 and v.numel() == 1 and \
            advanced[0][1].dtype is dtypes.bool_ and v.device == "cpu":
        # ATen's index_put_ fills through one boolean mask with the value's item(), which
        # takes the destination's dtype (canDispatchToMaskedFill)
        v = to(v, sliced.dtype)

    def check_value(indexed: tuple[int, ...]) -> None:
        """index_put_'s checks, in its order: the value's shape, then its dtype (before the
        indices' bounds)."""
        lead = len(indexed) - v.ndim
        if lead < 0 or any(n not in (1, m) for n, m in zip(v.shape, indexed[lead:])):
            raise TorchRuntimeError(
                f"shape mismatch: value tensor of shape [{', '.join(map(str, v.shape))}] "
                f"cannot be broadcast to indexing result of shape "
                f"[{', '.join(map(str, indexed))}]")
        if v.dtype is not sliced.dtype:
            raise TorchRuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{sliced.dtype.short} for the destination and {v.dtype.short} for the source."
            )

    masked_fill = len(advanced) == 1 and advanced[0][1].dtype is dtypes.bool_ and \
        v.numel() == 1 and v.device == "cpu"  # (ATen's masked_fill_ dispatch checks no overlap)
    if not masked_fill:  # index_put_'s assert_no_overlap(self, value), then (self, index)
        check_no_overlap(sliced, v)
    for _, index in advanced:
        if not masked_fill and _dense_overlap(sliced._data, index._data):
            raise TorchRuntimeError(
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation.")
    np_key, saved = _advanced_key(sliced, advanced, check_value)
    apply_inplace(IndexPutBackward0, sliced, v, key=np_key, indices=saved)
    return t


def _dense_overlap(a: Any, b: Any) -> bool:
    """ATen's get_overlap_status as far as it decides: two non-empty dense arrays whose memory
    ranges meet (a layout it cannot judge, such as an expanded one, passes)."""
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or not (a.size and b.size):
        return False
    dense = [x.flags.c_contiguous or x.flags.f_contiguous for x in (a, b)]
    return all(dense) and np.may_share_memory(a, b)


def _index_tensor(index: Any, name: str) -> Tensor:
    if not isinstance(index, Tensor):
        raise TorchTypeError(f"{name}(): argument 'index' must be Tensor, not "
                             f"{type(index).__name__}")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        kinds = "int32 or int64" if name == "index_select" else "int32/int64"
        raise TorchRuntimeError(f"{name}(): Expected dtype {kinds} for index")
    return index if index.dtype is dtypes.int64 else to(index, dtypes.int64)


@guarded
def gather(a: Tensor, dim: int, index: Tensor) -> Tensor:
    a = _check_tensor(a, "gather")
    if isinstance(index, Tensor) and index.numel() == 0 and index.dtype is not dtypes.int64:
        index = to(index, dtypes.int64)  # (an empty index skips the dtype check, as in ATen)
    index = _index_tensor(index, "gather")
    d = wrap_dim(dim, a.ndim)
    if index.numel() == 0:  # (ATen checks no shape of an empty index)
        if index.ndim != a.ndim:
            return _new(np.empty(index.shape, a.dtype.np), a.dtype, a.device, False)
        return GatherBackward0.apply(a, dim=d, index=index)
    if index.ndim != a.ndim and not (index.ndim <= 1 and a.ndim <= 1):
        raise TorchRuntimeError("Index tensor must have the same number of dimensions as "
                                "input tensor")
    for i in range(index.ndim):
        if i != d and a.ndim and index.shape[i] > a.shape[i]:
            raise TorchRuntimeError(
                f"Size does not match at dimension {i} expected index "
                f"{list(index.shape)} to be no larger than self {list(a.shape)} apart from "
                f"dimension {d}")
    _check_gather_bounds(a, d, index)
    return GatherBackward0.apply(a, dim=d, index=index)


def _check_gather_bounds(a: Tensor, d: int, index: Tensor) -> None:
    """gather's and scatter's kernels take no negative index: the first entry outside
    [0, size), with dimension d innermost as ATen's loop runs, is the one reported."""
    size = a.shape[d] if a.ndim else 1
    data = backend.to_host(index._data)
    if data.size == 0 or (int(data.min()) >= 0 and int(data.max()) < size):
        return
    order = np.moveaxis(data, d, -1).reshape(-1) if data.ndim else data.reshape(-1)
    bad = int(order[(order < 0) | (order >= size)][0])
    raise TorchRuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")


@guarded
def index_select(a: Tensor, dim: int, index: Tensor) -> Tensor:
    a = _check_tensor(a, "index_select")
    index = _index_tensor(index, "index_select")
    if index.ndim > 1:
        raise TorchIndexError("index_select(): Index is supposed to be a vector")
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    data = backend.to_host(index._data).reshape(-1)
    if data.size and (int(data.min()) < 0 or int(data.max()) >= size):
        if d == 0 or a.ndim <= 1:
            raise TorchIndexError("index out of range in self")
        # the kernel for an inner dim names the first index out of bounds
        bad = int(data[(data < 0) | (data >= size)][0])
        raise TorchRuntimeError(f"INDICES element is out of DATA bounds, id={bad} "
                                f"axis_dim={size}")
    return IndexSelectBackward0.apply(a, dim=d, index=index)


@guarded
def masked_select(a: Tensor, mask: Tensor) -> Tensor:
    a = _check_tensor(a, "masked_select")
    mask = _check_tensor(mask, "masked_select", "mask", 2)
    if mask.dtype is not dtypes.bool_:
        raise TorchRuntimeError("masked_select: expected BoolTensor for mask")
    infer_size(mask.shape, a.shape)  # (expand_outplace(mask, self): the mask is tensor a)
    return MaskedSelectBackward0.apply(a, mask=mask)


@guarded
def take(a: Tensor, index: Tensor) -> Tensor:
    a = _check_tensor(a, "take")
    if isinstance(index, Tensor) and index.dtype is not dtypes.int64:
        raise TorchRuntimeError(f"take(): Expected a long tensor for index, but got "
                                f"{index.dtype.short}")
    index = _index_tensor(index, "take")
    n = a.numel()
    data = backend.to_host(index._data)
    if data.size and (int(data.max()) >= n or int(data.min()) < -n):
        bad = int(data.max()) if int(data.max()) >= n else int(data.min())
        raise TorchIndexError(f"out of range: tried to access index {bad} on a tensor of {n} "
                              "elements.")
    wrapped = Tensor._make(index._data % n if n else index._data, index.device)
    return TakeBackward0.apply(a, index=wrapped)


def _dim_index(a: Tensor, dim: int, index: Tensor,
               error: type[Exception] = TorchRuntimeError) -> tuple[int, Tensor]:
    """The wrapped dim, and index with its negative entries wrapped, after PyTorch's bounds
    check ("index 3 is out of bounds for dimension 1 with size 3", raised as `error`)."""
    d = wrap_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    data = backend.to_host(index._data)
    if data.size and (int(data.max()) >= size or int(data.min()) < -size):
        bad = int(data.max()) if int(data.max()) >= size else int(data.min())
        raise error(f"index {bad} is out of bounds for dimension {d} with size {size}")
    wrapped = index._data % size if data.size else index._data
    return d, Tensor._make(wrapped, index.device)


def _index_fill(a: Tensor, dim: int, index: Tensor, value: Any, fname: str,
                inplace: bool) -> Tensor:
    a = _check_tensor(a, fname)
    if isinstance(index, Tensor) and index.dtype is not dtypes.int64:
        raise TorchIndexError("index_fill_(): Expected dtype int64 for index.")
    if isinstance(index, Tensor) and index.ndim > 1:
        raise TorchRuntimeError("Index has to be a vector/scalar")
    index = _index_tensor(index, fname)
    d, wrapped = _dim_index(a, dim, index, TorchIndexError)
    flat = reshape(wrapped, (-1,))
    if isinstance(value, Tensor):
        if value.ndim:
            raise TorchRuntimeError(f"{fname} only supports a 0-dimensional value tensor, but "
                                    f"got tensor with {value.ndim} dimension(s).")
        return apply_node(inplace, IndexFillBackward1, a, value, dim=d, index=flat)
    if isinstance(value, (int, float)):  # fill_'s checked conversion (nan into int64 fails)
        value = checked_fill(value, a.dtype)
    return apply_node(inplace, IndexFillBackward0, a, dim=d, index=flat, value=value)


@guarded
def index_fill(a: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    return _index_fill(a, dim, index, value, "index_fill", inplace=False)


@guarded
def index_fill_(a: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    return _index_fill(a, dim, index, value, "index_fill_", inplace=True)


def _index_add_meta(a: Tensor, d: int, index: Any, source: Tensor) -> None:
    """index_add's meta function's checks, in its order (its messages name index_add_)."""
    if not isinstance(index, Tensor):
        raise TorchTypeError(f"index_add(): argument 'index' must be Tensor, not "
                             f"{type(index).__name__}")
    if index.ndim > 1:
        raise TorchIndexError(f"index_add_(): Index is supposed to be a vector, but got dim: "
                              f"{index.ndim} with type: {index.dtype.short} and size: "
                              f"[{', '.join(map(str, index.shape))}]")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise TorchRuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: "
                                f"{index.dtype.short}")
    if a.dtype is not source.dtype:
        raise TorchRuntimeError(f"index_add_(): self ({a.dtype.short}) and source "
                                f"({source.dtype.short}) must have the same scalar type")
    if d != 0 and d >= source.ndim:
        raise TorchRuntimeError(f"index_add_(): Indexing dim {d} is out of bounds of the source "
                                f"tensor with dim {source.ndim}")
    count = source.shape[d] if source.ndim else 1
    if index.numel() != count:
        raise TorchRuntimeError(f"index_add_(): Number of indices ({index.numel()}) should be "
                                f"equal to source.size(dim): ({count}), for dim: {d}")


def _index_add(a: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Number, fname: str,
               inplace: bool) -> Tensor:
    a = _check_tensor(a, fname)
    source = _check_tensor(source, fname, "source", 4)
    d = wrap_dim(dim, a.ndim)
    _index_add_meta(a, d, index, source)
    data = backend.to_host(index._data)
    if data.size and (int(data.min()) < 0 or int(data.max()) >= (a.shape[d] if a.ndim else 1)):
        raise TorchIndexError("index out of range in self")  # the kernel's: no negative index
    wrapped = index if index.dtype is dtypes.int64 else to(index, dtypes.int64)
    expected = a.shape[:d] + (index.numel(),) + a.shape[d + 1:] if a.ndim else source.shape
    if source.ndim and source.shape != expected:
        raise TorchRuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(a.shape)} source.shape = {list(source.shape)}")
    if inplace:
        check_no_overlap(a, source)
    return apply_node(inplace, IndexAddBackward0, a, source, dim=d, index=wrapped, alpha=alpha)


@guarded
def index_add(a: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Number = 1) -> Tensor:
    return _index_add(a, dim, index, source, alpha, "index_add", inplace=False)


@guarded
def index_add_(a: Tensor, dim: int, index: Tensor, source: Tensor,
               alpha: Number = 1) -> Tensor:
    return _index_add(a, dim, index, source, alpha, "index_add_", inplace=True)


def _index_copy(a: Tensor, dim: int, index: Tensor, source: Tensor, inplace: bool) -> Tensor:
    fname = "index_copy_"  # PyTorch's messages name the in-place kernel either way
    a = _check_tensor(a, fname)
    source = _check_tensor(source, fname, "source", 4)
    if not isinstance(index, Tensor) or index.dtype is not dtypes.int64:
        got = index.dtype.short if isinstance(index, Tensor) else _type_name(index)
        raise TorchRuntimeError(f"{fname}(): Expected a long tensor for index, but got {got}")
    try:
        d, wrapped = _dim_index(a, dim, index, TorchIndexError)
    except TorchIndexError as error:
        raise TorchIndexError(f"{fname}(): {error}") from None
    if a.ndim and source.ndim:
        for k in range(a.ndim):
            if k != d and (k >= source.ndim or a.shape[k] != source.shape[k]):
                raise TorchRuntimeError(
                    f"{fname}(): Source/destination tensor must have same slice shapes. "
                    f"Destination slice shape: {a.shape[1 - d if a.ndim > 1 else 0]} at "
                    f"dimension {d} and source slice shape: "
                    f"{source.shape[1 - d if source.ndim > 1 else 0]} at dimension 0.")
    if source.dtype is not a.dtype:
        raise TorchRuntimeError(f"{fname}(): self and source expected to have the same dtype, "
                                f"but got (self) {a.dtype.short} and (source) "
                                f"{source.dtype.short}")
    if inplace:
        check_no_overlap(a, source)
    return apply_node(inplace, IndexCopyBackward0, a, source, dim=d, index=wrapped)


@guarded
def index_copy(a: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    return _index_copy(a, dim, index, source, inplace=False)


@guarded
def index_copy_(a: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    return _index_copy(a, dim, index, source, inplace=True)


def _masked_scatter(a: Tensor, mask: Tensor, source: Tensor, inplace: bool) -> Tensor:
    a = _check_tensor(a, "masked_scatter")
    mask = _check_tensor(mask, "masked_scatter", "mask", 1)
    source = _check_tensor(source, "masked_scatter", "source", 2)
    if mask.dtype is not dtypes.bool_:
        raise TorchRuntimeError("masked_scatter_ only supports boolean masks, but got mask "
                                f"with dtype {mask.dtype.short}")
    if source.dtype is not a.dtype:
        raise TorchRuntimeError("masked_scatter: expected self and source to have same dtypes "
                                f"but got{a.dtype.short} and {source.dtype.short}")
    if inplace:
        if infer_size(a.shape, mask.shape) != a.shape:
            raise TorchRuntimeError(f"masked_scatter_: mask of shape {list(mask.shape)} cannot "
                                    f"be broadcast to self of shape {list(a.shape)}")
        return apply_inplace(MaskedScatterBackward0, a, source, mask=mask)
    shape = infer_size(mask.shape, a.shape)  # (expand_outplace(mask, self))
    return MaskedScatterBackward0.apply(expand(a, shape) if shape != a.shape else a, source,
                                        mask=mask)


@guarded
def masked_scatter(a: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    return _masked_scatter(a, mask, source, inplace=False)


@guarded
def masked_scatter_(a: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    return _masked_scatter(a, mask, source, inplace=True)


def _index_put(t: Tensor, indices: Any, values: Any, accumulate: bool, fname: str,
               inplace: bool) -> Tensor:
    """torch.index_put(input, indices, values, accumulate): advanced indexing by a tuple of
    index tensors (masks included), as `t[indices] = values` (`+=` with accumulate)."""
    t = _check_tensor(t, fname)
    if not isinstance(indices, (tuple, list)):
        raise TorchTypeError(f"{fname}(): argument 'indices' (position 1) must be tuple of "
                             f"Tensors, not {_type_name(indices)}")
    for i, item in enumerate(indices):
        if item is not None and not isinstance(item, Tensor):
            raise TorchTypeError(f"expected Tensor as element {i} in argument 0, but got "
                                 f"{_type_name(item)}")
    values = _check_tensor(values, fname, "values", 2)
    items = tuple(slice(None) if item is None else item for item in _plain_key(tuple(indices)))
    sliced, advanced = _apply_slicing(t, items)
    if values.dtype is not t.dtype:
        raise TorchRuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{t.dtype.short} for the destination and {values.dtype.short} for the source.")
    if not advanced:
        raise TorchRuntimeError(f"{fname}(): gradsh needs at least one index tensor")
    if inplace and not (len(advanced) == 1 and advanced[0][1].dtype is dtypes.bool_
                        and values.numel() == 1 and not accumulate):
        check_no_overlap(t, values)  # (not where ATen dispatches to masked_fill_)
    np_key, saved = _advanced_key(sliced, advanced)
    return apply_node(inplace, IndexPutBackward0, t, values, key=np_key, indices=saved,
                      accumulate=accumulate)


@guarded
def index_put(t: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    return _index_put(t, indices, values, accumulate, "index_put", inplace=False)


@guarded
def index_put_(t: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    return _index_put(t, indices, values, accumulate, "index_put_", inplace=True)


@guarded
def nonzero(a: Tensor, as_tuple: bool = False) -> Any:
    a = _check_tensor(a, "nonzero")
    if a.device == "meta":
        raise TorchNotImplementedError(meta.NONZERO_MESSAGE)
    data = backend.to_host(a._data)
    # the indices of every nonzero element (int64, one per dimension), then their stacking
    count, dims = int(np.count_nonzero(data)), builtins.max(data.ndim, 1)
    limits.check((count, dims), 8, extra=count * dims * 8)
    found = np.nonzero(data) if data.ndim else np.nonzero(data.reshape(1))
    if as_tuple:
        return tuple(_new(np.asarray(i, dtype=np.int64), dtypes.int64, a.device, False)
                     for i in found)
    if not data.ndim:
        return _new(np.zeros((len(found[0]), 0), np.int64), dtypes.int64, a.device, False)
    # ATen's CPU kernel fills a (dims, count) buffer and returns its transpose: strides (1, n)
    if not count:
        return _new(np.zeros((0, dims), np.int64), dtypes.int64, a.device, False)
    stacked = np.stack(found, axis=0).astype(np.int64).T
    return Tensor._make(backend.to_device(stacked, a.device), a.device)


@guarded
def one_hot(a: Tensor, num_classes: int = -1) -> Tensor:
    a = _check_tensor(a, "one_hot")
    if a.dtype is not dtypes.int64:
        raise TorchRuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    data = backend.to_host(a._data)
    if data.size and int(data.min()) < 0:
        raise TorchRuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not data.size:
            raise TorchRuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(data.max()) + 1
    elif data.size and int(data.max()) >= num_classes:
        raise TorchRuntimeError("Class values must be smaller than num_classes.")
    limits.check((*data.shape, num_classes), 8, extra=data.size * num_classes)
    out = (data[..., None] == np.arange(num_classes)).astype(np.int64)
    return _new(c_order(out), dtypes.int64, a.device, False)  # (a new contiguous tensor)
