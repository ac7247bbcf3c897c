"""In-place operations: PyTorch's checks before one, and how it rebases the history of the
changed tensor (and of its base, through CopySlices, when it is a view)."""

from __future__ import annotations

import functools
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from gradsh.engine import forward_grad
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.grad_mode import _GradMode
from gradsh.engine.node import AsStridedBackward0, CopySlices, Function, Node
from gradsh.engine.saved_variable import SavedTensor
from gradsh.engine.variable import Tensor
from gradsh.engine.vecmath.layout import writable_alias
from gradsh.engine.view_rules import rebase_error

LEAF_INPLACE_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE_MESSAGE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)



def check_inplace(target: Tensor, others: Sequence[Any] = ()) -> None:
    """PyTorch's checks before an in-place change of `target` (check_inplace): only with grad
    mode on and when some input requires grad."""
    if not _GradMode.enabled:
        return
    if not target.requires_grad and not any(
        isinstance(o, Tensor) and o.requires_grad for o in others
    ):
        return
    base = target._base
    if base is not None:
        if target._view_creation:
            raise rebase_error(target, indirect=False)
        if target.requires_grad and base._grad_fn is None:
            raise TorchRuntimeError(VIEW_OF_LEAF_INPLACE_MESSAGE)
    if target._grad_fn is None and target._requires_grad:
        raise TorchRuntimeError(LEAF_INPLACE_MESSAGE)


OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation."
)


def check_writable(target: Tensor) -> None:
    """PyTorch's internal-overlap check before a write. gradsh's views of overlapping memory
    (a broadcasting expand, overlapping unfold windows) are read-only NumPy arrays, and so is
    any view taken of them; one that does not overlap itself (expand(2, 3)[0]) gets a writable
    alias of the same memory here, as PyTorch writes it."""
    data = target._data
    if isinstance(data, np.ndarray) and not data.flags.writeable and target.device != "meta":
        alias = writable_alias(data) if not _overlaps(data) else None
        if alias is None:
            raise TorchRuntimeError(OVERLAP_MESSAGE)
        target._data = alias


OPERAND_OVERLAP_MESSAGE = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation."
)


def overlap_status(a: Any, b: Any) -> str | None:
    """ATen's get_overlap_status of two arrays: "full" (the same elements, the same strides),
    "partial" (memory ranges that meet otherwise) or None (apart, or a layout it cannot judge:
    one that is not dense, such as a slice with gaps or an expand)."""
    if a is b:
        return "full"
    if a.__class__ is not np.ndarray or b.__class__ is not np.ndarray or (
            a.base is None and b.base is None) or not np.may_share_memory(a, b):
        return None  # (may_share_memory: their memory ranges meet, no more asked)
    if not (a.size and b.size and _dense(a) and _dense(b)):
        return None
    a0, b0 = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    a1, b1 = a0 + a.nbytes, b0 + b.nbytes
    if a0 == b0 and a1 == b1:
        return "full" if a.strides == b.strides else "partial"
    return "partial" if a0 < b1 and b0 < a1 else None


def _dense(a: np.ndarray) -> bool:
    """is_non_overlapping_and_dense: the elements fill their memory exactly, in any order."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return True
    expected = a.itemsize
    for stride, size in sorted((s, n) for s, n in zip(a.strides, a.shape) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def check_no_overlap(target: Tensor, other: Any) -> None:
    """ATen's assert_no_overlap(self, source) of the index kernels (index_add_, index_copy_,
    scatter_, put_): a source that shares any of self's elements is refused, all of them too
    (TensorIterator's ops refuse only a partial overlap: apply_inplace)."""
    if isinstance(other, Tensor) and overlap_status(target._data, other._data) is not None:
        raise TorchRuntimeError(OPERAND_OVERLAP_MESSAGE)


def _overlaps(data: np.ndarray) -> bool:
    """Whether two elements of `data` may share memory: dimensions sorted by stride, each
    must step past all the elements of the ones inside it (a conservative test)."""
    extent = 1
    for stride, size in sorted((abs(s) // data.itemsize, n) for s, n in
                               zip(data.strides, data.shape) if n > 1):
        if stride < extent:
            return True
        extent = stride * (size - 1) + extent
    return False


def write_overlapping(target: Tensor, write: Any) -> Tensor:
    """`write(target)` where PyTorch skips the overlap check (fill_, zero_: every element
    gets the same value, so overlapping memory is no ambiguity)."""
    data = target._data
    if not isinstance(data, np.ndarray) or data.flags.writeable:
        return write(target)
    alias = writable_alias(data)
    if alias is None:
        return write(target)
    target._data = alias
    try:
        return write(target)
    finally:
        if target._data is alias:
            target._data = data


def apply_inplace(cls: type[Function], target: Tensor, *others: Tensor, **params: Any) -> Tensor:
    """Run `cls` in place on `target`: compute out of place, write back, rebase the history.

    The node sees an alias of `target` holding its old value; if the node saved that alias, the
    alias gets a private copy of the old data first (PyTorch saves `original_self.clone()`).
    """
    check_inplace(target, others + tuple(params.values()))
    check_writable(target)
    if others and getattr(cls, "operand_overlap_check", True):
        data = target._data
        for other in others:  # TensorIterator's assert_no_partial_overlap (x.add_(x[0]))
            if isinstance(other, Tensor) and overlap_status(data, other._data) == "partial":
                raise TorchRuntimeError(OPERAND_OVERLAP_MESSAGE)
    # (with grad mode off, the history as it stands: reading grad_fn would rebase a view
    # whose base changed, which PyTorch's in-place ops under no_grad do not)
    alias = Tensor._make(target._data, target.device,
                         grad_fn=target.grad_fn if _GradMode.enabled else target._grad_fn,
                         requires_grad=target._requires_grad)
    if forward_grad._TANGENTS:  # a dual tensor changed in place: its tangent follows
        tangent = forward_grad.tangent_of(target)
        if tangent is not None:
            forward_grad.set_tangent(alias, tangent)
    out = cls.apply(alias, *others, **params)
    if out.shape != target.shape:  # (TensorIterator's shapes come before its dtypes)
        raise TorchRuntimeError(
            f"output with shape {list(target.shape)} doesn't match the broadcast shape "
            f"{list(out.shape)}"
        )
    result_dtype = out.dtype
    if result_dtype is not target.dtype and not _can_cast(result_dtype, target.dtype):
        raise TorchRuntimeError(
            f"result type {result_dtype.short} can't be cast to the desired output type "
            f"{target.dtype.short}"
        )
    node = out._grad_fn
    if node is not None:
        for key, saved in list(node.saved_tensors.items()):
            if saved._tensor is alias:
                # PyTorch saves `original_self = self.clone()`: a recorded copy of the old
                # value (CloneBackward0 in higher-order graphs)
                node._saved[key] = SavedTensor(alias.clone())  # type: ignore[attr-defined]
    target._inplace_data(out._data)
    if forward_grad._TANGENTS:
        tangent = forward_grad.tangent_of(out)
        if tangent is not None:
            forward_grad.set_tangent(target, tangent)
    if isinstance(node, Function):
        result = node._saved.get("result")
        if result is not None:
            node._saved["result"] = SavedTensor(target, is_output=True)
        if target._base is None:
            _move_retain_grad(target, node)
            target._grad_fn = node
        else:
            base = rebase_view(target, node)
            if result is not None:
                saved = node._saved["result"]
                saved.view_grad_fn = weakref.ref(target._grad_fn)
                saved.view_history = functools.partial(
                    AsStridedBackward0.from_history, base._grad_fn, target._view_fn, base.shape,
                    base.dtype, base.device)
    return target


def rebase_view(target: Tensor, node: Node) -> Tensor:
    """The history of a view `node` changed in place: its base's grad_fn becomes CopySlices
    over node, the view's an AsStridedBackward0 of that (PyTorch's rebase_history, for in-place
    ops and for a custom Function's mark_dirty). Returns the base."""
    base = target._base
    copy_slices = CopySlices(base, target._view_fn, node)
    _move_retain_grad(base, copy_slices)
    base._grad_fn = copy_slices
    view_fn = AsStridedBackward0(base, target._view_fn, target.shape)
    _move_retain_grad(target, view_fn)
    target._grad_fn = view_fn
    target._view_version = target._version_value()
    return base  # type: ignore[no-any-return]


def _move_retain_grad(t: Tensor, new_fn: Node) -> None:
    """retain_grad follows the tensor to its new grad_fn after an in-place op, as PyTorch's
    retains_grad hook does (other tensor hooks stay with the node they were registered on)."""
    old_fn = t._grad_fn
    if old_fn is not None and old_fn.retain_grad_ref is not None and old_fn.retain_grad_ref() is t:
        old_fn.retain_grad_ref = None
        new_fn.retain_grad_ref = weakref.ref(t)


def _can_cast(source: DType, target: DType) -> bool:
    return source.category <= target.category
