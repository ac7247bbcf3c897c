"""Nodes with several outputs: MultiOutputFunction (a decomposition's, a fused layer's) and
MultiViewFunction (split, chunk and unbind: every piece a view of the input, one node for all of
them, as in PyTorch: `a, b = x.unbind(); a.grad_fn is b.grad_fn`)."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from gradsh.engine import backend
from gradsh.engine.dtypes import is_float_array_dtype
from gradsh.engine.grad_mode import Anomaly, _GradMode
from gradsh.engine.node import _compose_view
from gradsh.engine.saved_variable import SavedTensor
from gradsh.engine.tensor import Array, Function, OutputSlots, Tensor
from gradsh.engine.vecmath.layout import sliced
from gradsh.engine.view_rules import creation_meta

__all__ = ["MultiOutputFunction", "MultiViewFunction"]


class MultiOutputFunction(OutputSlots, Function):
    """A node with several outputs. Subclasses define `forward` returning a tuple of arrays
    and `backward(F, grads)` taking one gradient (or None) per output; `differentiable` says
    which outputs get the node as grad_fn; `save_outputs` keeps outputs for backward."""

    num_outputs: ClassVar[int] = 2
    differentiable: ClassVar[tuple[bool, ...]] = (True, True)
    outputs_saved: ClassVar[tuple[str | None, ...]] = ()  # the saved name of each output

    @classmethod
    def apply_all(cls, *inputs: Tensor, **params: Any) -> tuple[Tensor, ...]:
        node = cls()
        enabled = _GradMode.enabled
        needs = tuple(enabled and t.requires_grad for t in inputs)
        requires = True in needs
        node.needs_input_grad = needs
        if requires:
            node._activate(inputs)
        device = inputs[0].device
        arrays = node.forward(*inputs, **params)
        outputs = []
        for data, differentiable in zip(arrays, cls.differentiable, strict=True):
            if not isinstance(data, np.ndarray) and not backend.is_device_array(data):
                data = np.asarray(data)
            floating = is_float_array_dtype(data.dtype)
            grad_fn = node if requires and differentiable and floating else None
            outputs.append(Tensor._make(data, device, grad_fn))
        if requires:
            node.output_device = device
            node._outputs = [weakref.ref(t) for t in outputs]
            node._output_ids = [id(t._data) for t in outputs]
            for name, t in zip(cls.outputs_saved, outputs, strict=False):
                if name is not None:
                    if node._saved is Function._saved:
                        node._saved = {}
                    node._saved[name] = SavedTensor(t, is_output=True)
            if Anomaly.enabled:
                node.metadata["traceback_"] = Anomaly.trace()
        return tuple(outputs)

    # A tensor's hooks and retain_grad are kept per output (OutputSlots); the single-output
    # attributes stay empty.
    @property  # type: ignore[override]
    def pre_hooks(self) -> Any:
        return ()

    @property  # type: ignore[override]
    def retain_grad_ref(self) -> Any:
        return None

    def forward(self, *inputs: Tensor, **params: Any) -> tuple[Array, ...]:  # type: ignore[override]
        raise NotImplementedError


class MultiViewFunction(MultiOutputFunction):
    """Pieces of one input, each a view of it (its storage, version counter and base), made by
    one node with a slot per piece. A piece modified in place is an error while grad mode is on
    (CreationMeta MULTI_OUTPUT_NODE). Backward receives a gradient or None per piece; a piece
    no gradient reached counts as zeros (PyTorch's split_backward and unbind_backward)."""

    multi_output_view = True
    # One piece makes a node with one output, which keeps its tensor's hooks and retain_grad
    # where any single-output node does (MultiOutputFunction's are per output slot).
    pre_hooks: Any = ()
    retain_grad_ref: Any = None

    def keys(self, a: Tensor, **params: Any) -> Sequence[tuple[Any, ...]]:
        """The index of each piece in the input's array (the node keeps what backward needs)."""
        raise NotImplementedError

    @classmethod
    def apply_views(cls, a: Tensor, **params: Any) -> tuple[Tensor, ...]:
        node = cls()
        keys = node.keys(a, **params)
        enabled = _GradMode.enabled
        requires = enabled and a.requires_grad
        data, device = a._data, a.device
        base = a._base if a._base is not None else a
        version, creation = a._version_value(), creation_meta(a, True, enabled)
        outputs = []
        for key in keys:
            out = Tensor._make(sliced(data, key), device, node if requires else None)
            out._version_counter = a._version_counter
            out._base = base
            out._view_fn = _compose_view(a, _Take(key))
            out._view_version = version
            out._view_creation = creation
            outputs.append(out)
        node.needs_input_grad = (requires,)
        if requires:
            node.num_outputs = len(outputs)  # type: ignore[misc]
            node._activate((a,))
            node.output_device = device
            node._outputs = [weakref.ref(t) for t in outputs]
            node._output_ids = [id(t._data) for t in outputs]
            if Anomaly.enabled:
                node.metadata["traceback_"] = Anomaly.trace()
        return tuple(outputs)

    def piece_shape(self, index: int) -> tuple[int, ...]:
        raise NotImplementedError

    def filled(self, F: Any, grads: Sequence[Any]) -> list[Any] | None:
        """The pieces' gradients with zeros for those nothing reached (None if none did)."""
        if self.num_outputs == 1:  # the engine hands a one-output node its gradient itself
            grads = (grads,)
        like = next((g for g in grads if g is not None), None)
        if like is None:
            return None
        return [g if g is not None else F.zeros(self.piece_shape(i), like)
                for i, g in enumerate(grads)]


class _Take:
    """A piece's view function: index the array with the piece's key."""

    __slots__ = ("key",)

    def __init__(self, key: tuple[Any, ...]) -> None:
        self.key = key

    def __call__(self, array: Array) -> Array:
        return sliced(array, self.key)
