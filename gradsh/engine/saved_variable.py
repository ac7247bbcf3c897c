"""Tensors saved for backward: the version they were saved at, release after backward, and
PyTorch's errors for a saved tensor modified in place or already freed."""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
from gradsh.engine.grad_mode import (Anomaly, SavedHooks, _GradMode, _Origin, current_origin,
                                     no_grad)
from gradsh.engine.undo import _Undo
from gradsh.engine.variable import (_DTYPES, InferenceCounter, InferenceMode, Tensor,
                                     VersionCounter)

# The dtypes of wrapped Python numbers that a SavedTensor may keep as the number itself:
# `np.array(number, dtype)` gives back the same bits (see SavedTensor.__init__)
_NUMBER_DTYPES = frozenset(np.dtype(name) for name in ("float64", "int64", "bool", "complex128"))
# The version counter of a saved wrapped number until its tensor is made: at version 0
# for ever, since no tensor shares it (nothing may change it)
UNCHANGED = VersionCounter()

if TYPE_CHECKING:  # (type names only: gradsh.engine.node sits above this module)
    from gradsh.engine.node import Node

def _short_node_name(node: Node) -> str:
    # PyTorch's message prints the op's name: a generated node without "Backward" and without
    # the overload number 0 ("output 0 of Sigmoid", but "of Clamp1", "of Fill2"), hand-written
    # nodes with their namespace ("torch::autograd::CopySlices").
    if node.short_name is not None:
        return node.short_name
    name = node.node_name
    stripped = name.rstrip("0123456789")
    if stripped.endswith("Backward") and stripped != name:
        number = name[len(stripped):]
        return stripped[: -len("Backward")] + ("" if number == "0" else number)
    return f"torch::autograd::{name}"


def _saving_node_records() -> bool:
    """Whether the node saving a tensor now records a graph (an input needs a gradient). Ops
    save an index whatever the grad mode, but PyTorch saves nothing for a node it does not
    record, so it refuses an inference tensor only when the node records. The node is the
    `self` of the forward (or Node.save) calling: the compiled save passes no node."""
    frame = sys._getframe(2)
    for _ in range(4):
        if frame is None:
            break
        needs = getattr(frame.f_locals.get("self"), "needs_input_grad", None)
        if isinstance(needs, tuple):
            return True in needs
        frame = frame.f_back
    return True


class SavedTensor:
    """A tensor saved for backward: the alias, the version it had, and whether it was freed.

    An output saved by its own node (`ExpBackward0` saves `result`) keeps only the array and a
    weak reference to the tensor, as PyTorch does, so that tensor -> grad_fn -> saved -> tensor
    is not a reference cycle.
    """

    __slots__ = ("_tensor", "_weak", "_data", "_counter", "version", "is_output", "released",
                 "origin", "freed_origin", "shape", "dtype", "device", "view_grad_fn",
                 "view_history", "_hooked")

    def __init__(self, tensor: Tensor, is_output: bool = False):
        counter = tensor._counter  # (tensor._version_counter, inline: made on first use)
        if counter is None:
            data = tensor._data
            if tensor._wrapped and not is_output and not SavedHooks.stack and \
                    data.__class__ is np.ndarray and data.dtype in _NUMBER_DTYPES:
                counter = UNCHANGED  # a wrapped number, kept as its value (see below)
            else:
                counter = tensor._counter = VersionCounter()
        elif counter.__class__ is InferenceCounter and InferenceMode.counter is None and \
                _saving_node_records():
            raise TorchRuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors "
                "created in inference mode in computation tracked by autograd. To work around "
                "this, you can make a clone to get a normal tensor and use it in autograd, or use "
                "`torch.no_grad()` instead of `torch.inference_mode()`.")
        self.is_output = is_output
        self._counter = counter
        self.version = counter.value
        self.released = False
        live = _Origin.live  # where it was saved (current_origin, inline)
        self.origin = _Origin.value if live is None else live()
        self.freed_origin: Any = None  # where a backward freed it
        data = tensor._data
        self.shape = data.shape
        self.dtype = _DTYPES.get(data.dtype) or tensor.dtype  # (tensor.dtype, inline)
        self.device = tensor.device
        # for an output saved by an in-place op on a view: a weak reference to the view's
        # grad_fn right after the op, which PyTorch's version error names
        self.view_grad_fn: weakref.ref[Node] | None = None
        # ... and what rebuilds that history for a higher-order graph once the view is gone:
        # a call making AsStridedBackward0 from the base's CopySlices, the view function and
        # the base's shape, dtype and device
        self.view_history: Callable[[], Node] | None = None
        self._hooked: list[Any] | None = None  # [unpack_hook, packed, unpacked or None]
        if is_output:
            self._tensor = None
            self._weak = weakref.ref(tensor)
            self._data = tensor._data
        elif counter is UNCHANGED:
            # A Python number the op wrapped (`y * 1.0001` saves 1.0001), never changed and
            # held by no one else: kept as the number (what backward formulas read), not as
            # a tensor, its array and its version counter (a third of a deep chain's memory).
            # The tensor is made again the first time someone asks for it (`_saved_other`,
            # a higher-order backward); see `_number_tensor`.
            self._tensor = None
            self._weak = None
            self._data = tensor._data.item()
        else:
            self._tensor = tensor
            self._weak = None
            self._data = None
        if SavedHooks.stack:
            self._pack(tensor)

    def _pack(self, tensor: Tensor) -> None:
        """saved_tensors_hooks: keep what pack_hook returns instead of the tensor."""
        pack, unpack = SavedHooks.stack[-1]
        SavedHooks.stack.pop()  # a hook's own operations save nothing through it
        grad_mode, _GradMode.enabled = _GradMode.enabled, False  # PyTorch packs under no_grad
        try:
            packed = pack(tensor)
        finally:
            _GradMode.enabled = grad_mode
            SavedHooks.stack.append((pack, unpack))
        SavedHooks.used = True
        self._keep_packed(tensor, unpack, packed)

    def _keep_packed(self, tensor: Tensor, unpack: Callable[[Any], Any], packed: Any) -> None:
        """Hold what a pack hook returned, and the history the unpacked tensor gets back."""
        self._hooked = [unpack, packed, None, tensor._grad_fn, tensor.requires_grad]
        self._tensor = None
        self._weak = None
        self._data = None

    def register_hooks(self, pack_hook: Callable[[Any], Any],
                       unpack_hook: Callable[[Any], Any]) -> None:
        """grad_fn._raw_saved_x.register_hooks(pack, unpack): pack the saved tensor now (a new
        tensor of its storage, as PyTorch passes), unpack it when backward reads it."""
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TorchTypeError(
                "register_hooks(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n")
        if self.released:
            raise TorchRuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved variables after calling "
                "backward.")
        if self._hooked is not None:
            raise TorchRuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time.")
        tensor = self.tensor
        assert tensor is not None
        alias = Tensor._make(tensor._data, tensor.device)
        with no_grad():
            packed = pack_hook(alias)
        self._keep_packed(tensor, unpack_hook, packed)

    def __repr__(self) -> str:
        return f"<torch._C._autograd.SavedTensor object at {id(self):#x}>"

    @property
    def tensor(self) -> Tensor | None:
        """The saved tensor if it still exists (for display); None once released."""
        if self.released:
            return None
        if self._tensor is not None:
            return self._tensor
        if self._weak is None and self._hooked is None:
            return self._number_tensor()
        return self._weak()  # type: ignore[misc]

    def _number_tensor(self) -> Tensor:
        """The tensor of a wrapped number saved as its value: made once, with the dtype it had
        (`np.array(number, dtype)` gives back its bits: float64, int64, bool, complex128), and
        from then on the one every unpack returns, its changes in place tracked as any
        saved tensor's."""
        t = Tensor._make(np.array(self._data, dtype=self.dtype.np))
        t._wrapped = True
        self._counter = t._counter = VersionCounter()  # at version 0, the saved version
        self._tensor = t
        return t

    def peek_array(self) -> Any:
        """The saved array of an input, for display (None once freed or packed by a hook),
        without making a wrapped number's tensor."""
        if self._tensor is not None:
            return self._tensor._data
        if self._weak is None and self._hooked is None and self._data is not None:
            return np.array(self._data, dtype=self.dtype.np)
        return None

    @property
    def is_stale(self) -> bool:
        """True when the storage was modified in place after the save (backward would fail)."""
        return not self.released and self._counter.value != self.version

    def release(self, undoable: bool = True) -> None:
        if undoable and _Undo.log is not None:
            _Undo.log.record_release(self)
        if not self.released:
            live = _Origin.live  # (current_origin, inline: every saved tensor's release)
            self.freed_origin = _Origin.value if live is None else live()
        self.released = True
        self._tensor = None
        self._data = None
        self.view_history = None
        self._hooked = None

    def unpack(self, owner: Node, as_tensor: bool) -> Any:
        if self.released:
            raise _saved_error(SECOND_BACKWARD_MESSAGE, owner, self)
        if self._counter.value != self.version:
            raise _saved_error(self._version_message(owner), owner, self)
        if self._hooked is not None:
            return self._unpack_hooked(as_tensor)
        if self.is_output:
            if not as_tensor:
                return self._data
            alive = self._weak()  # type: ignore[misc]
            if alive is not None and alive._data is self._data:
                return alive
            if self.view_history is not None:
                # The output of an in-place op on a view: its history is that view of the base
                # (through the base's CopySlices), not the op's own node.
                return Tensor._make(self._data, owner.output_device, grad_fn=self.view_history())
            # The output tensor is gone (or now holds other data): rebuild one that is still
            # the output of `owner`, so a higher-order graph flows through it.
            return Tensor._make(self._data, owner.output_device, grad_fn=owner)
        tensor = self._tensor
        if tensor is None:  # a wrapped number kept as its value
            if not as_tensor:
                return self._data
            tensor = self._number_tensor()
        if as_tensor:
            return tensor
        # A wrapped Python number unpacks as a Python number, so NumPy keeps it a weak scalar.
        return tensor._data.item() if tensor._wrapped else tensor._data

    def _unpack_hooked(self, as_tensor: bool) -> Any:
        """unpack_hook(packed), called once per backward of the node (then cached until
        `clear_unpacked`), as PyTorch unpacks each saved variable once before a formula."""
        record = self._hooked
        assert record is not None
        if record[2] is None:
            unpacked = record[0](record[1])
            if not isinstance(unpacked, Tensor):
                raise TorchTypeError("Output of saved tensor unpack_hook expected to be a Tensor "
                                     f"but got result of type {type(unpacked).__name__}")
            grad_fn, requires_grad = record[3], record[4]
            if requires_grad and not unpacked.requires_grad:
                # the unpacked tensor gets the saved one's history back, as PyTorch's does
                data = unpacked._data
                unpacked = Tensor._make(data, unpacked.device, grad_fn=grad_fn)
                unpacked._requires_grad = grad_fn is None
            record[2] = unpacked
        tensor = record[2]
        return tensor if as_tensor else tensor._data

    def clear_unpacked(self) -> None:
        if self._hooked is not None:
            self._hooked[2] = None

    def _version_message(self, owner: Node) -> str:
        legacy = f"torch.{self.dtype.legacy}"
        if self.device != "cpu":
            legacy = f"torch.cuda.{self.dtype.legacy}"
        shape = ", ".join(str(n) for n in self.shape)
        what = f"[{legacy} [{shape}]]"
        producer: Node | None
        if self.is_output:
            producer = self.view_grad_fn() if self.view_grad_fn is not None else None
            producer = producer or owner
        else:
            producer = self._tensor.grad_fn if self._tensor is not None else None
        if producer is not None:
            what += f", which is output 0 of {_short_node_name(producer)},"
        return (
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: {what} is at version {self._counter.value}; expected version "
            f"{self.version} instead. " + (_ANOMALY_HINT if Anomaly.enabled else _PLAIN_HINT)
        )


def _saved_error(message: str, owner: Node, saved: SavedTensor) -> TorchRuntimeError:
    """PyTorch's error about a saved tensor, carrying the node and the saved tensor it is about
    (`saved_cause`), so that the caller can say where it was saved, modified or freed."""
    error = TorchRuntimeError(message)
    error.saved_cause = (owner, saved)  # type: ignore[attr-defined]
    return error


_PLAIN_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
_ANOMALY_HINT = (
    "Hint: the backtrace further above shows the operation that failed to compute its gradient. "
    "The variable in question was changed in there or anywhere later. Good luck!"
)

SECOND_BACKWARD_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)
