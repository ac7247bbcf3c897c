"""Tensor, the autograd node base classes, grad mode and the iterative backward engine.

The model is PyTorch's, reduced to what gradsh shows:

- A Tensor wraps a backend array. Tensors that alias one storage (views, `detach()`) share a
  VersionCounter, bumped by every in-place change; `.data` aliases the storage with a fresh
  counter, which is why changes through it go unnoticed by autograd.
- An operation is a Function subclass named after PyTorch's grad_fn class (`MulBackward0`). Its
  `forward` computes the output array and saves what `backward` needs; `backward` returns one
  gradient per input. Leaves that require grad are reached through an AccumulateGrad node.
- Saved tensors remember the version they were saved at and are released after a backward that
  does not retain the graph, so the two classic errors come out exactly where PyTorch raises them.
- Backward is a loop over a ready queue ordered like PyTorch's (latest node first), with
  dependency counts computed by an explicit stack: no recursion over graph depth.

Gradients are plain arrays unless `create_graph` is set; then they are Tensors and backward
formulas build a graph of their own (higher-order gradients). Formulas are written once against
`F` (ArrayOps or TensorOps), using operators that arrays and Tensors share.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from gradsh.engine import backend, dtypes, pytypes
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError, warn
from gradsh.engine.pytypes import Size, device_of
from gradsh.engine.threads import elementwise

Array = Any  # a numpy.ndarray, or a cupy.ndarray on the cuda device
Shape = tuple[int, ...]

# ---------------------------------------------------------------------------------------------
# Grad mode
# ---------------------------------------------------------------------------------------------


class _GradMode:
    enabled: bool = True


def is_grad_enabled() -> bool:
    return _GradMode.enabled


@contextmanager
def set_grad_enabled(mode: bool) -> Iterator[None]:
    previous = _GradMode.enabled
    _GradMode.enabled = bool(mode)
    try:
        yield
    finally:
        _GradMode.enabled = previous


def no_grad() -> Any:
    return set_grad_enabled(False)


def enable_grad() -> Any:
    return set_grad_enabled(True)


# ---------------------------------------------------------------------------------------------
# Origins
# ---------------------------------------------------------------------------------------------


class _Origin:
    """Where the engine is being driven from: an opaque value its caller sets (gradsh's
    interpreter sets the statement it runs). Saved tensors, in-place changes and freed buffers
    record it, so that an error can say where its cause happened; the engine never looks inside.
    """

    value: Any = None


def set_origin(origin: Any) -> None:
    _Origin.value = origin


# ---------------------------------------------------------------------------------------------
# Anomaly mode and saved-tensor hooks (torch.autograd.set_detect_anomaly, saved_tensors_hooks)
# ---------------------------------------------------------------------------------------------


class Anomaly:
    """Anomaly detection: while enabled, every node records where its forward ran
    (`metadata["traceback_"]`, from `trace()`: the origin unless a front end installs a Python
    stack), a failing backward warns with it, and a NaN gradient raises (when check_nan)."""

    enabled: bool = False
    check_nan: bool = True
    trace: Callable[[], Any] = staticmethod(lambda: _Origin.value)  # type: ignore[assignment]


def _record_forward(node: Node) -> None:
    node.metadata["traceback_"] = Anomaly.trace()


class SavedHooks:
    """The stack of (pack_hook, unpack_hook) pairs of saved_tensors_hooks: the innermost packs
    every tensor saved for backward while it is active. `used` stays set once a hook packed
    something, so that backward knows to unpack each saved tensor once per node."""

    stack: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = []
    used: bool = False


# ---------------------------------------------------------------------------------------------
# Undo: what a failed step changed, so its caller can put it back
# ---------------------------------------------------------------------------------------------


class UndoLog:
    """Changes the engine made to state it cannot rebuild: storage written in place (the old
    contents, copied once per storage) and saved tensors freed by backward (kept alive until
    the log is dropped). The interpreter opens one per statement; `rollback` makes a failed
    statement change nothing there. Attribute changes (`.grad`, `grad_fn`, ...) are cheap to
    snapshot, so the caller records those itself.

    Only nodes older than the log need their freed tensors back: a node the logged step made
    is unreachable once the step is undone. So a `repeat` loop's backward frees each
    iteration's buffers at once, as PyTorch does, instead of holding them all to the end.
    """

    def __init__(self) -> None:
        self._storage: dict[int, tuple[Any, Any, VersionCounter, int]] = {}
        self._freed: list[tuple[Any, ...]] = []
        self.first_node = next(_sequence)  # nodes numbered from here on are the step's own

    def predates(self, node: Node) -> bool:
        """Whether `node` existed before the log was opened (and so must be restorable)."""
        return getattr(node, "sequence_nr", _LAST) < self.first_node

    def record_write(self, t: Tensor) -> None:
        data = t._data
        key = id(data)
        if key not in self._storage:
            self._storage[key] = (data, data.copy(), t._version, t._version.value)

    def record_release(self, saved: SavedTensor) -> None:
        self._freed.append((saved, saved._tensor, saved._data, saved.view_history,
                            saved.released, getattr(saved, "freed_origin", None)))

    def record_drop(self, node: CopySlices) -> None:
        self._freed.append((node, node.fn))

    def rollback(self) -> None:
        for data, old, counter, version in reversed(list(self._storage.values())):
            data[...] = old
            counter.value = version
        for entry in reversed(self._freed):
            if isinstance(entry[0], CopySlices):
                entry[0].fn = entry[1]
                continue
            saved, tensor, data, history, released, origin = entry
            saved._tensor, saved._data, saved.view_history = tensor, data, history
            saved.released = released
            saved.freed_origin = origin
        self._storage.clear()
        self._freed.clear()


class _Undo:
    log: UndoLog | None = None


@contextmanager
def undo_log() -> Iterator[UndoLog]:
    """Record undoable engine changes while the block runs (see UndoLog)."""
    previous = _Undo.log
    log = _Undo.log = UndoLog()
    try:
        yield log
    finally:
        _Undo.log = previous


# ---------------------------------------------------------------------------------------------
# Versions and saved tensors
# ---------------------------------------------------------------------------------------------


class VersionCounter:
    """Shared by every tensor aliasing one storage through autograd-visible means."""

    # origin: where the last in-place change came from (unset until there is one)
    __slots__ = ("value", "origin")

    def __init__(self) -> None:
        self.value = 0


def _short_node_name(node: Node) -> str:
    # PyTorch's message prints the op's name: a generated node without "Backward" and without
    # the overload number 0 ("output 0 of Sigmoid", but "of Clamp1", "of Fill2"), hand-written
    # nodes with their namespace ("torch::autograd::CopySlices").
    if node.short_name is not None:
        return node.short_name
    name = node.name
    stripped = name.rstrip("0123456789")
    if stripped.endswith("Backward") and stripped != name:
        number = name[len(stripped):]
        return stripped[: -len("Backward")] + ("" if number == "0" else number)
    return f"torch::autograd::{name}"


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
        counter = tensor._version
        self.is_output = is_output
        self._counter = counter
        self.version = counter.value
        self.released = False
        self.origin = _Origin.value  # where it was saved
        self.freed_origin: Any = None  # where a backward freed it
        self.shape = tensor._data.shape
        self.dtype = tensor.dtype
        self.device = tensor.device
        # for an output saved by an in-place op on a view: a weak reference to the view's
        # grad_fn right after the op, which PyTorch's version error names
        self.view_grad_fn: weakref.ref[Node] | None = None
        # ... and what rebuilds that history for a higher-order graph once the view is gone:
        # (the base's CopySlices, the view function, the base's shape, dtype and device)
        self.view_history: tuple[Any, ...] | None = None
        self._hooked: list[Any] | None = None  # [unpack_hook, packed, unpacked or None]
        if is_output:
            self._tensor = None
            self._weak = weakref.ref(tensor)
            self._data = tensor._data
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
        self._hooked = [unpack, packed, None]
        self._tensor = None
        self._weak = None
        self._data = None

    @property
    def tensor(self) -> Tensor | None:
        """The saved tensor if it still exists (for display); None once released."""
        if self.released:
            return None
        return self._tensor if self._tensor is not None else self._weak()  # type: ignore[misc]

    @property
    def is_stale(self) -> bool:
        """True when the storage was modified in place after the save (backward would fail)."""
        return not self.released and self._counter.value != self.version

    def release(self, undoable: bool = True) -> None:
        if undoable and _Undo.log is not None:
            _Undo.log.record_release(self)
        if not self.released:
            self.freed_origin = _Origin.value
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
                return Tensor._make(self._data, owner.output_device,
                                    grad_fn=AsStridedBackward0.from_history(*self.view_history))
            # The output tensor is gone (or now holds other data): rebuild one that is still
            # the output of `owner`, so a higher-order graph flows through it.
            return Tensor._make(self._data, owner.output_device, grad_fn=owner)
        tensor = self._tensor
        assert tensor is not None
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

# ---------------------------------------------------------------------------------------------
# Nodes
# ---------------------------------------------------------------------------------------------

_sequence = itertools.count()
_NO_SAVED: Any = MappingProxyType({})  # shared and read-only: a node that saved nothing
_LAST = 2**63  # AccumulateGrad runs as soon as it is ready, as PyTorch's max sequence_nr does

Edge = tuple["Node | None", int]


class Node:
    """A node of the backward graph: PyTorch's `grad_fn` objects.

    `next_functions` holds one edge per differentiable input, `(node, 0)` or `(None, 0)`, exactly
    as PyTorch shows it. Tensor hooks of the output (register_hook, retain_grad) live on the
    node that produced it and run before the node, in registration order, retain_grad last.
    """

    name: ClassVar[str] = "Node"
    # Class-level defaults, replaced per node only when used: a graph of a million nodes
    # should not carry a million empty lists and dicts (see register_hook, `metadata`).
    next_functions: tuple[Edge, ...] = ()
    pre_hooks: Sequence[Callable[[Any], Any]] = ()
    retain_grad_ref: weakref.ref[Tensor] | None = None
    output_device = "cpu"
    _metadata: dict[str, Any] | None = None
    # A node with several outputs (a custom autograd.Function's) receives its gradients as a
    # list, one slot per output; the edge to output i is (node, i), found by `edge_of`.
    num_outputs: ClassVar[int] = 1
    short_name: ClassVar[str | None] = None  # the name PyTorch's version error gives it

    def __init__(self) -> None:
        self.sequence_nr = next(_sequence)

    def edge_of(self, t: Tensor) -> Edge:
        """The edge to `t`, one of this node's outputs (multi-output nodes say which)."""
        return (self, 0)

    @property
    def metadata(self) -> dict[str, Any]:
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def call_backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        """One gradient per edge in next_functions, given the gradient of this node's output."""
        raise NotImplementedError

    def release_variables(self) -> None:
        pass

    @property
    def saved_tensors(self) -> dict[str, SavedTensor]:
        return {}

    def register_hook(self, fn: Callable[..., Any]) -> None:
        raise TorchRuntimeError("register_hook on grad_fn objects is not supported by gradsh")

    def __repr__(self) -> str:
        return f"<{self.name} object at {id(self):#x}>"


class Function(Node):
    """Base of every operation.

    Subclasses define
      forward(self, *inputs: Tensor, **params) -> Array
        the output array. Save what backward needs with `self.save(name, tensor)` (`RESULT` for
        the output itself), only for inputs whose gradient is needed (`self.needs_input_grad`);
        keep non-tensor values (dims, shapes, Python exponents) as plain attributes.
      backward(self, F: GradOps, grad) -> tuple
        one gradient per input, None where `needs_input_grad` is False. Read saved tensors with
        `self.saved(name, F)`. The engine sums a broadcast gradient back to the input's shape and
        casts it to the input's dtype, as PyTorch's engine does, so formulas need not.
    Class attributes: `name` (PyTorch's grad_fn class name), `is_view` (the output aliases the
    first input's storage and version counter).
    """

    is_view: ClassVar[bool] = False
    _plain_device: ClassVar[bool] = True
    needs_input_grad: tuple[bool, ...] = ()
    _saved: dict[str, SavedTensor] = _NO_SAVED  # type: ignore[assignment]  # until a save

    def __init__(self) -> None:
        # Deliberately not calling Node.__init__: nodes that end up outside any graph (grad mode
        # off, no input requiring grad) should cost as little as possible. `_activate` finishes.
        pass

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Whether the op takes its inputs' device as they are (no common_device override):
        # apply then needs no device check when all inputs are on one device.
        cls._plain_device = cls.common_device is Function.common_device

    def _activate(self, inputs: Sequence[Tensor]) -> None:
        if len(inputs) == 1:  # the common case, without the loop
            t = inputs[0]
            self.next_functions = (_edge(t),)
            self.input_meta = (_meta(t),)
        else:
            edges = []
            meta = []
            for t in inputs:
                edge = _edge(t)
                edges.append(edge)
                meta.append(None if edge[0] is None else _meta(t))
            self.next_functions = tuple(edges)
            self.input_meta = tuple(meta)
        self.sequence_nr = next(_sequence)

    @classmethod
    def apply(cls, *inputs: Tensor, **params: Any) -> Tensor:
        # The hot path of every operation: kept flat (no helper calls for the one- and
        # two-input cases), and it stores on the node only what differs from the class
        # defaults, so that a million-node graph stays small.
        node = cls()
        enabled = _GradMode.enabled
        if len(inputs) == 1:
            t = inputs[0]
            requires = enabled and (t._requires_grad or t._grad_fn is not None or (
                t._base is not None and t.requires_grad))
            node.needs_input_grad = _NEEDS_ONE[requires]
            device = t.device if cls._plain_device else node.common_device(inputs, params)
            if requires:
                node.next_functions = (_edge(t),)
                node.input_meta = (_meta(t),)
                node.sequence_nr = next(_sequence)
        elif len(inputs) == 2:
            a, b = inputs
            need_a = enabled and (a._requires_grad or a._grad_fn is not None or (
                a._base is not None and a.requires_grad))
            need_b = enabled and (b._requires_grad or b._grad_fn is not None or (
                b._base is not None and b.requires_grad))
            node.needs_input_grad = _NEEDS_TWO[need_a][need_b]
            requires = need_a or need_b
            device = a.device
            if not cls._plain_device or b.device != device:
                device = node.common_device(inputs, params)
            if requires:
                edge_a = _edge(a) if need_a else _NO_EDGE
                edge_b = _edge(b) if need_b else _NO_EDGE
                node.next_functions = (edge_a, edge_b)
                node.input_meta = (None if edge_a[0] is None else _meta(a),
                                   None if edge_b[0] is None else _meta(b))
                node.sequence_nr = next(_sequence)
        else:
            needs = tuple([t._requires_grad or t._grad_fn is not None or (
                t._base is not None and t.requires_grad) for t in inputs])
            requires = enabled and True in needs
            node.needs_input_grad = needs if requires else (False,) * len(inputs)
            first = inputs[0].device
            if cls._plain_device and all(t.device == first for t in inputs):
                device = first
            else:
                device = node.common_device(inputs, params)
            if requires:
                node._activate(inputs)
        if device != "cpu":
            node.output_device = device  # the class default is "cpu"
            if backend.state.real:
                inputs = _cpu_scalars_on_device(inputs, device)
        data = node.forward(*inputs, **params)
        if data.__class__ is not np.ndarray:  # NumPy makes 0-d results scalars
            data = np.asarray(data) if isinstance(data, np.generic) else _as_array(data)
        if requires and data.dtype.kind not in "fc":
            # Integer and bool results never require grad (`x.long()`, comparisons, argmax).
            requires = False
            node.release_variables()
        # (read back: an op that moves data, ToCopyBackward0, sets its output device itself)
        out = Tensor._make(data, node.output_device, node if requires else None)
        if cls.is_view:
            base = inputs[0]
            out._version = base._version
            out._base = base._base if base._base is not None else base
            out._view_fn = _compose_view(base, node.view_fn)
            out._view_version = base._version.value
            out._no_grad_view = not _GradMode.enabled
        if requires and RESULT_KEY in node._saved:
            node._saved["result"] = SavedTensor(out, is_output=True)
            del node._saved[RESULT_KEY]
        if requires and Anomaly.enabled:
            _record_forward(node)
        return out

    def common_device(self, inputs: Sequence[Tensor], params: dict[str, Any]) -> str:
        """The device the op runs on, checked as PyTorch's TensorIterator checks it.

        The common device is the first one that is not the CPU; every other tensor must be
        there too, except a 0-d CPU tensor (a "CPU scalar"), which may join a CUDA kernel. Ops
        whose CUDA wrapper checks arguments one by one override this (`check_same_device`).
        """
        device = "cpu"
        for t in inputs:
            if t.device != "cpu":
                device = t.device
                break
        if device == "cpu":
            return device
        for t in inputs:
            if t.device != device and not (t.device == "cpu" and t._data.ndim == 0):
                raise TorchRuntimeError(
                    "Expected all tensors to be on the same device, but found at least two "
                    f"devices, {device} and {t.device}!"
                )
        return device

    def view_fn(self, array: Array) -> Array:
        """For view ops: the same view taken of another array of the input's shape."""
        raise NotImplementedError

    def forward(self, *inputs: Tensor, **params: Any) -> Array:
        raise NotImplementedError

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        raise NotImplementedError

    def call_backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        # PyTorch's generated nodes unpack every saved variable before the formulas run, so a
        # freed or modified one raises even when the formula would not read it (x ** 0).
        for saved in self._saved.values():
            saved.unpack(self, False)
        if SavedHooks.used:
            return self._call_backward_unpacked(F, grad)
        if F.as_tensor:
            # Numbers in formulas are C++ Scalars there (MulBackward1, not MulBackward0).
            with F.formula_mode():  # type: ignore[attr-defined]
                return self.backward(F, grad)
        return self.backward(F, grad)

    def _call_backward_unpacked(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        """call_backward once saved_tensors_hooks were used: the formula reads each saved
        tensor as unpacked above, and the next backward unpacks afresh."""
        try:
            if F.as_tensor:
                with F.formula_mode():  # type: ignore[attr-defined]
                    return self.backward(F, grad)
            return self.backward(F, grad)
        finally:
            for saved in self._saved.values():
                saved.clear_unpacked()

    def save(self, name: str, tensor: Tensor | object) -> None:
        if self._saved is _NO_SAVED:
            if tensor is not RESULT:  # the common first save, in one step
                self._saved = {name: SavedTensor(tensor)}  # type: ignore[arg-type]
                return
            self._saved = {}
        if tensor is RESULT:
            self._saved[RESULT_KEY] = None  # type: ignore[assignment]
        else:
            self._saved[name] = SavedTensor(tensor)  # type: ignore[arg-type]

    def saved(self, name: str, F: GradOps) -> Any:
        return self._saved[name].unpack(self, F.as_tensor)

    @property
    def saved_tensors(self) -> dict[str, SavedTensor]:
        return self._saved

    def release_variables(self) -> None:
        log = _Undo.log
        undoable = log is not None and log.predates(self)
        for saved in self._saved.values():
            saved.release(undoable)


_NO_EDGE: Edge = (None, 0)
_NEEDS_ONE = {False: (False,), True: (True,)}
_NEEDS_TWO = (((False, False), (False, True)), ((True, False), (True, True)))
_METAS: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _edge(t: Tensor) -> Edge:
    """`t._gradient_edge()`, with its common cases inline."""
    if t._base is None:
        fn = t._grad_fn
        if fn is not None:
            return (fn, 0) if fn.num_outputs == 1 else fn.edge_of(t)
        if not t._requires_grad:
            return _NO_EDGE
    return t._gradient_edge()


def _meta(t: Tensor) -> tuple[Any, ...]:
    """What validate_outputs checks a gradient for this input against: (shape, dtype, device).

    The tuples are shared between nodes (one per distinct value), as a deep graph would
    otherwise hold a million equal ones.
    """
    data = t._data
    key = (data.shape, t.dtype, t.device)
    meta = _METAS.get(key)
    if meta is None:
        if len(_METAS) >= 4096:
            _METAS.clear()
        meta = _METAS[key] = key
    return meta


def check_same_device(method: str, arguments: Sequence[tuple[str, Tensor | None]]) -> str:
    """The device check of a CUDA kernel's generated wrapper (c10::impl::
    check_and_update_common_device): the first argument's device is the common one, in order.

    `method` is the wrapper PyTorch names ("wrapper_CUDA_mm"), `arguments` the (name, tensor)
    pairs it checks, in its order. Only kernels that run on CUDA check, so arguments all on the
    CPU never fail.
    """
    common: str | None = None
    for name, t in arguments:
        if t is None:
            continue
        if common is None:
            common = t.device
        elif t.device != common:
            raise TorchRuntimeError(
                f"Expected all tensors to be on the same device, but got {name} is on "
                f"{t.device}, different from other tensors on {common} (when checking "
                f"argument in method {method})"
            )
    return common or "cpu"


def _cpu_scalars_on_device(inputs: tuple[Tensor, ...], device: str) -> tuple[Tensor, ...]:
    """The inputs as a CUDA kernel reads them: a CPU scalar tensor joining the op is read as a
    device value (a Python number stays a Python number: `operand` reads it)."""
    if all(t.device == device or t._wrapped for t in inputs):
        return inputs
    moved = []
    for t in inputs:
        if t.device != device and not t._wrapped:
            # NOTE: the stand-in shares the version counter, so an in-place change of the CPU
            # tensor still invalidates what the op saved. Under create_graph a saved stand-in
            # has no history: a second derivative through a CPU scalar that requires grad is
            # lost on a real GPU (never under --sim-cuda, where nothing is moved).
            stand_in = Tensor._make(backend.to_device(t._data, device), device)
            stand_in._version = t._version
            t = stand_in
        moved.append(t)
    return tuple(moved)


RESULT = object()  # `self.save("result", RESULT)`: save the output once it exists
RESULT_KEY = "\0result"


def _as_array(data: Any) -> Array:
    if isinstance(data, np.generic):
        return np.asarray(data)
    if isinstance(data, np.ndarray) or backend.is_device_array(data):
        return data
    return np.asarray(data)


def _compose_view(base: Tensor, view_fn: Callable[[Array], Array]) -> Callable[[Array], Array]:
    if base._view_fn is None:
        return view_fn
    inner = base._view_fn
    return lambda array: view_fn(inner(array))


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: adds the incoming gradient into `leaf.grad`."""

    name = "AccumulateGrad"

    def __init__(self, variable: Tensor):
        super().__init__()
        self.sequence_nr = _LAST
        self.variable = variable
        self.output_device = variable.device

    def accumulate(self, grad: Any, create_graph: bool) -> None:
        leaf = self.variable
        if isinstance(grad, Tensor):
            new = grad
        else:
            new = Tensor._make(grad, leaf.device)
        if leaf._grad is None:
            if not create_graph:
                # Never let .grad alias a buffer someone else holds (the same gradient array can
                # flow to several leaves): own a contiguous copy, as PyTorch clones when needed.
                new = Tensor._make(_owned_copy(new._data, "C"), leaf.device)
            else:
                # PyTorch's clone_obey_contract: new_empty_strided(...).copy_(new_grad), so a
                # differentiable .grad has grad_fn CopyBackwards.
                new = TensorOps.empty_like(leaf).copy_(new)  # type: ignore[attr-defined]
            leaf._grad = new
        elif not create_graph:
            with no_grad():
                leaf._grad._inplace_add(new._data)
        else:
            leaf._grad = leaf._grad + new
        hooks = getattr(leaf, "_post_accumulate_hooks", None)
        if hooks:
            for hook in list(hooks):
                hook(leaf)


class GraphRoot(Node):
    name = "GraphRoot"


# ---------------------------------------------------------------------------------------------
# Gradient arithmetic: one namespace for plain arrays, one for differentiable Tensors
# ---------------------------------------------------------------------------------------------


class GradOps:
    """What a backward formula may call besides arithmetic operators."""

    as_tensor: ClassVar[bool]


class ArrayOps(GradOps):
    as_tensor = False


class TensorOps(GradOps):
    as_tensor = True
    # Besides the formulas' helpers, the two creation functions this module itself calls (the
    # seed of ones, AccumulateGrad's differentiable .grad). Like Tensor's methods, they are
    # installed by gradsh.engine.ops, the layer above, which this module never imports.
    ones_like: ClassVar[Callable[[Tensor], Tensor]]
    empty_like: ClassVar[Callable[[Tensor], Tensor]]


def grad_ops(as_tensor: bool) -> type[GradOps]:
    """The namespace backward formulas receive (gradsh.engine.functions fills ArrayOps with array
    helpers, gradsh.engine.ops fills TensorOps with differentiable operations)."""
    return TensorOps if as_tensor else ArrayOps


# ---------------------------------------------------------------------------------------------
# The tensor
# ---------------------------------------------------------------------------------------------


class Tensor:
    """An n-dimensional array with PyTorch's autograd attributes.

    Public attributes mirror PyTorch: requires_grad, is_leaf, grad_fn, grad, retains_grad, data,
    shape, dtype, device, _version. Operations and methods are attached by gradsh.engine.ops.
    """

    __slots__ = ("_data", "_requires_grad", "_grad_fn", "_grad", "_version_counter", "_base",
                 "_view_fn", "_view_version", "_acc", "_hooks", "device", "_wrapped",
                 "_no_grad_view", "_post_accumulate_hooks", "__weakref__")
    # (_post_accumulate_hooks is set only by register_post_accumulate_grad_hook)

    # Let NumPy defer to Tensor's reflected operators (`2.0 * t` with a numpy scalar on the left).
    __array_priority__ = 1000

    @classmethod
    def _make(cls, data: Array, device: str = "cpu", grad_fn: Node | None = None,
              requires_grad: bool = False) -> Tensor:
        if device != "cpu" or data.__class__ is not np.ndarray:
            data = backend.place(data, device)  # a no-op unless an op computed on the wrong side
        t = object.__new__(cls)  # not cls.__new__: gradsh.torch gives Tensor a legacy constructor
        t._data = data
        t._requires_grad = requires_grad
        t._grad_fn = grad_fn
        t._grad = None
        t._version_counter = None  # made on first use (see _version)
        t._base = None
        t._view_fn = None
        t._view_version = 0
        t._no_grad_view = False
        t._acc = None
        t._hooks = None
        t.device = _DEVICE_OBJECTS.get(device) or device_of(device)
        t._wrapped = False
        return t

    @classmethod
    def wrap_scalar(cls, value: bool | int | float, device: str = "cpu") -> Tensor:
        """A Python number as PyTorch wraps it for an operation: a 0-d tensor of low priority.

        A float is kept as a double, as PyTorch's wrapped numbers are: kernels read it back
        with item(), and a float64 tensor times 0.1 must multiply by the double 0.1, not by
        0.1 rounded to float32 (type promotion ranks wrapped numbers by kind, not dtype)."""
        kind = value.__class__
        if kind is float:  # the common case first, without the call
            dtype = dtypes.float64
        else:
            dtype = dtypes.scalar_dtype(value)
        t = cls._make(np.array(value, dtype=dtype.np))
        t._wrapped = True
        return t

    @property
    def _version(self) -> VersionCounter:
        """The version counter of this tensor's storage, shared by its aliases. Made on first
        use: most results (a chain's intermediate values) are never saved, viewed or changed in
        place, and need none."""
        counter = self._version_counter
        if counter is None:
            counter = self._version_counter = VersionCounter()
        return counter

    @_version.setter
    def _version(self, counter: VersionCounter) -> None:
        self._version_counter = counter

    # -- autograd attributes ------------------------------------------------------------------

    @property
    def grad_fn(self) -> Node | None:
        if self._base is not None and self._grad_fn is not None:
            self._refresh_view_grad_fn()
        return self._grad_fn

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def requires_grad(self) -> bool:
        # A view made under no_grad has no grad_fn but reports its base's flag, as in PyTorch.
        return self._requires_grad or self._grad_fn is not None or (
            self._base is not None and self._base.requires_grad)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self._grad_fn is not None:
            message = "you can only change requires_grad flags of leaf variables."
            if not value:
                message += NON_LEAF_REQUIRES_GRAD_SUFFIX
            raise TorchRuntimeError(message)
        if value and not self.dtype.is_floating_point:
            raise TorchRuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if self._grad_fn is not None:
            if not requires_grad:
                raise TorchRuntimeError(
                    "you can only change requires_grad flags of leaf variables."
                    + NON_LEAF_REQUIRES_GRAD_SUFFIX
                )
            return self
        if requires_grad and not self.dtype.is_floating_point:
            raise TorchRuntimeError("only Tensors of floating point dtype can require gradients")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def retains_grad(self) -> bool:
        fn = self._grad_fn
        return fn is not None and fn.retain_grad_ref is not None and fn.retain_grad_ref() is self

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise TorchRuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        fn = self.grad_fn
        if fn is None:
            return  # a leaf keeps its grad anyway
        fn.retain_grad_ref = weakref.ref(self)

    @property
    def grad(self) -> Tensor | None:
        if self._grad is None and self._grad_fn is not None and not self.retains_grad:
            warn(NON_LEAF_GRAD_WARNING)
        return self._grad

    def peek_grad(self) -> Tensor | None:
        """`.grad` without the non-leaf warning: for displays that must not change anything."""
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TorchTypeError("assigned grad expected to be a Tensor or None but got "
                                     f"grad of type {type(value).__name__}")
            if value.dtype is not self.dtype:
                raise TorchRuntimeError(
                    "attempting to assign a gradient with dtype "
                    f"'{_C_TYPE_NAMES[value.dtype.name]}'"
                    f" to a tensor with grad_dtype '{self.dtype.short}'. The gradient must match "
                    "the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                    "tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match."
                )
            if value.device != self.device:
                raise TorchRuntimeError("assigned grad has data located on a different device")
            if value.shape != self.shape:
                raise TorchRuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of "
                    f"size '{list(self.shape)}'. Please ensure that the gradient and the tensor "
                    "are the same size"
                )
        self._grad = value

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        if not self.requires_grad:
            raise TorchRuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient"
            )
        fn = self.grad_fn
        if fn is None:
            if self._hooks is None:
                self._hooks = []
            hooks = self._hooks
        else:
            if not isinstance(fn.pre_hooks, list):
                fn.pre_hooks = []
            hooks = fn.pre_hooks
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]) -> Any:
        """hook(tensor) after backward has accumulated into this leaf's .grad."""
        if not self.requires_grad:
            raise TorchRuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient"
            )
        if self.grad_fn is not None:
            raise TorchRuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        hooks = getattr(self, "_post_accumulate_hooks", None)
        if hooks is None:
            hooks = self._post_accumulate_hooks = []
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def detach(self) -> Tensor:
        t = Tensor._make(self._data, self.device)
        t._version = self._version
        return t

    def detach_(self) -> Tensor:
        if self._base is not None:
            raise TorchRuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self._grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> Tensor:
        """A tensor on the same storage that autograd does not track (fresh version counter)."""
        return Tensor._make(self._data, self.device)

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TorchRuntimeError("data must be a Tensor")
        if value.device != self.device and False:
            raise TorchRuntimeError("data set to a tensor on a different device")
        self._data = value._data
        self.device = value.device

    # -- plain attributes -----------------------------------------------------------------------

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    @property
    def dtype(self) -> DType:
        dtype = _DTYPES.get(self._data.dtype)
        return dtype if dtype is not None else dtypes.from_numpy(self._data.dtype)

    @property
    def ndim(self) -> int:
        return self._data.ndim  # type: ignore[no-any-return]

    def dim(self) -> int:
        return self._data.ndim  # type: ignore[no-any-return]

    def numel(self) -> int:
        return int(self._data.size)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TorchTypeError("len() of a 0-d tensor")
        return int(self._data.shape[0])

    # -- autograd plumbing ----------------------------------------------------------------------

    def _gradient_edge(self) -> Edge:
        fn = self.grad_fn
        if fn is not None:
            return (fn, 0) if fn.num_outputs == 1 else fn.edge_of(self)
        if not self._requires_grad:
            return (None, 0)
        acc = self._acc() if self._acc is not None else None
        if acc is None:
            acc = AccumulateGrad(self)
            self._acc = weakref.ref(acc)
        return (acc, 0)

    def _refresh_view_grad_fn(self) -> None:
        """A view whose storage was modified in place since its grad_fn was set gets a fresh
        one, AsStridedBackward0 on top of the base's current history, as in PyTorch."""
        if self._view_version == self._version.value:
            return
        self._view_version = self._version.value
        base = self._base
        assert base is not None
        if base.requires_grad:
            self._grad_fn = AsStridedBackward0(base, self._view_fn, self.shape)

    def _inplace_data(self, value: Array) -> None:
        """Write `value` into this tensor's storage (visible through every alias)."""
        data = self._data
        if _Undo.log is not None:
            _Undo.log.record_write(self)
        if isinstance(data, np.ndarray) and data.ndim == 0 and not data.flags.writeable:
            self._data = np.array(value, dtype=data.dtype)
        else:
            if self.device != "cpu" and isinstance(value, np.ndarray):
                value = backend.place(value, self.device)
            data[...] = value
        self._version.value += 1
        self._version.origin = _Origin.value

    def _inplace_add(self, value: Array) -> None:
        """`self._inplace_data(self._data + value)`, adding in place where that gives the same
        array (a NumPy array of the same shape and dtype): no temporary, one pass."""
        data = self._data
        if (data.__class__ is np.ndarray and value.__class__ is np.ndarray
                and data.shape == value.shape and data.dtype == value.dtype
                and data.flags.writeable and data.ndim > 0):
            if _Undo.log is not None:
                _Undo.log.record_write(self)
            elementwise(np.add, data, value, out=data)
            self._version.value += 1
            self._version.origin = _Origin.value
        else:
            self._inplace_data(data + value)

    # -- conversion ------------------------------------------------------------------------------

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The NumPy array sharing this tensor's memory (a write through either is seen by
        the other), refused for a tensor that requires grad, as in PyTorch."""
        if force:
            return np.asarray(backend.to_host(self.detach()._data))
        if self.requires_grad:
            raise TorchRuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                                    "tensor.detach().numpy() instead.")
        if self.device != "cpu":
            raise TorchTypeError(
                f"can't convert {self.device} device type tensor to numpy. Use Tensor.cpu() to "
                "copy the tensor to host memory first."
            )
        return np.asarray(self._data)

    def item(self) -> bool | int | float:
        if self._data.size != 1:
            raise TorchRuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        return self._data.reshape(()).item()  # type: ignore[no-any-return]

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """`np.asarray(t)`: the tensor's memory (as numpy() gives it), converted if asked."""
        array = self.numpy()
        if dtype is not None and np.dtype(dtype) != array.dtype:
            return array.astype(dtype)
        return array.copy() if copy else array

    def __format__(self, spec: str) -> str:
        """f"{loss:.4f}": a one-element 0-d tensor formats its item(), as in PyTorch."""
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec)

    def __repr__(self) -> str:
        from gradsh.engine.tensor_str import format_tensor

        fn = self.grad_fn
        return format_tensor(
            backend.to_host(self._data),
            self.dtype,
            device=self.device,
            requires_grad=self.requires_grad,
            grad_fn=fn.name if fn is not None else None,
        )

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise TorchRuntimeError(
                "Boolean value of Tensor with more than one value is ambiguous"
            )
        return bool(self._data.reshape(()))

    def __hash__(self) -> int:
        return id(self)


_DTYPES = dtypes._BY_NP  # numpy dtype -> DType, read directly on the hot path
_DEVICE_OBJECTS = pytypes._DEVICES  # device name -> Device, likewise

# c10's names of the scalar types, as PyTorch's messages print them
_C_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half",
                 "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
                 "uint8": "unsigned char", "bool": "bool"}

NON_LEAF_REQUIRES_GRAD_SUFFIX = (
    " If you want to use a computed variable in a subgraph that doesn't require differentiation "
    "use var_no_grad = var.detach()."
)

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)


class RemovableHandle:
    """What register_hook returns; `remove()` unregisters the hook."""

    def __init__(self, hooks: list[Any], hook: Any):
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


class AsStridedBackward0(Function):
    """The grad_fn a view gets once its base was modified in place (PyTorch regenerates it)."""

    name = "AsStridedBackward0"

    def __init__(self, base: Tensor, view_fn: Callable[[Array], Array] | None, shape: Shape):
        super().__init__()
        self.needs_input_grad = (True,)
        self._activate([base])
        self.base_shape = base.shape
        self.base_dtype = base.dtype
        self.view_fn_ = view_fn
        self.base_version = base._version.value
        self.output_device = base.device

    @classmethod
    def from_history(cls, base_node: Node, view_fn: Callable[[Array], Array] | None,
                     base_shape: Shape, base_dtype: DType, base_device: str) -> AsStridedBackward0:
        """The same node built from the base's grad_fn instead of the base tensor."""
        node = cls.__new__(cls)
        node.needs_input_grad = (True,)
        node.next_functions = ((base_node, 0),)
        node.input_meta = ((base_shape, base_dtype, base_device),)
        node.sequence_nr = next(_sequence)
        node.base_shape = base_shape
        node.base_dtype = base_dtype
        node.view_fn_ = view_fn
        node.output_device = base_device
        return node

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        return (F.view_scatter(grad, self.base_shape, self.view_fn_),)  # type: ignore[attr-defined]


class CopySlices(Node):
    """The base's grad_fn after an in-place operation on one of its views.

    Backward hands the part of the gradient that falls on the view to the in-place op's node
    and passes the rest through unchanged, as PyTorch's CopySlices does.
    """

    name = "CopySlices"

    def __init__(self, base: Tensor, view_fn: Callable[[Array], Array] | None, fn: Function):
        super().__init__()
        self.base_shape = base.shape
        self.view_fn_ = view_fn
        self.fn = fn
        self.output_device = base.device
        self.next_functions = (base._gradient_edge(),) + fn.next_functions[1:]
        self.input_meta = ((base.shape, base.dtype, base.device),) + fn.input_meta[1:]

    def call_backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        if self.fn is None:
            raise TorchRuntimeError(SECOND_BACKWARD_MESSAGE)
        result, in_view = F.view_split(grad, self.view_fn_)  # type: ignore[attr-defined]
        grads = self.fn.call_backward(F, in_view)
        result = F.view_fill(result, self.view_fn_, grads[0])  # type: ignore[attr-defined]
        return (result,) + tuple(grads[1:])

    def release_variables(self) -> None:
        # PyTorch drops the in-place op's node itself (a second backward is an error even if
        # it saved nothing), and with it whatever that node kept alive.
        if self.fn is not None:
            self.fn.release_variables()
            if _Undo.log is not None and _Undo.log.predates(self):
                _Undo.log.record_drop(self)
            self.fn = None  # type: ignore[assignment]

    @property
    def saved_tensors(self) -> dict[str, SavedTensor]:
        return self.fn.saved_tensors if self.fn is not None else {}


# ---------------------------------------------------------------------------------------------
# In-place operations
# ---------------------------------------------------------------------------------------------

LEAF_INPLACE_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE_MESSAGE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)


NO_GRAD_VIEW_INPLACE_MESSAGE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
    "be tracked)."
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
        if target._no_grad_view:
            raise TorchRuntimeError(NO_GRAD_VIEW_INPLACE_MESSAGE)
        if target.requires_grad and base._grad_fn is None:
            raise TorchRuntimeError(VIEW_OF_LEAF_INPLACE_MESSAGE)
    if target._grad_fn is None and target._requires_grad:
        raise TorchRuntimeError(LEAF_INPLACE_MESSAGE)


def check_writable(target: Tensor) -> None:
    data = target._data
    if isinstance(data, np.ndarray) and not data.flags.writeable:
        raise TorchRuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation."
        )


def apply_inplace(cls: type[Function], target: Tensor, *others: Tensor, **params: Any) -> Tensor:
    """Run `cls` in place on `target`: compute out of place, write back, rebase the history.

    The node sees an alias of `target` holding its old value; if the node saved that alias, the
    alias gets a private copy of the old data first (PyTorch saves `original_self.clone()`).
    """
    check_inplace(target, others + tuple(params.values()))
    check_writable(target)
    alias = Tensor._make(target._data, target.device, grad_fn=target.grad_fn,
                         requires_grad=target._requires_grad)
    out = cls.apply(alias, *others, **params)
    result_dtype = out.dtype
    if result_dtype is not target.dtype and not _can_cast(result_dtype, target.dtype):
        raise TorchRuntimeError(
            f"result type {result_dtype.short} can't be cast to the desired output type "
            f"{target.dtype.short}"
        )
    if out.shape != target.shape:
        raise TorchRuntimeError(
            f"output with shape {list(target.shape)} doesn't match the broadcast shape "
            f"{list(out.shape)}"
        )
    node = out._grad_fn
    if node is not None:
        for key, saved in list(node.saved_tensors.items()):
            if saved._tensor is alias:
                # PyTorch saves `original_self = self.clone()`: a recorded copy of the old
                # value (CloneBackward0 in higher-order graphs)
                node._saved[key] = SavedTensor(alias.clone())  # type: ignore[attr-defined]
    target._inplace_data(out._data)
    if isinstance(node, Function):
        result = node._saved.get("result")
        if result is not None:
            node._saved["result"] = SavedTensor(target, is_output=True)
        if target._base is None:
            _move_retain_grad(target, node)
            target._grad_fn = node
        else:
            base = target._base
            copy_slices = CopySlices(base, target._view_fn, node)
            _move_retain_grad(base, copy_slices)
            base._grad_fn = copy_slices
            view_fn = AsStridedBackward0(base, target._view_fn, target.shape)
            _move_retain_grad(target, view_fn)
            target._grad_fn = view_fn
            target._view_version = target._version.value
            if result is not None:
                saved = node._saved["result"]
                saved.view_grad_fn = weakref.ref(target._grad_fn)
                saved.view_history = (base._grad_fn, target._view_fn, base.shape, base.dtype,
                                      base.device)
    return target


def _move_retain_grad(t: Tensor, new_fn: Node) -> None:
    """retain_grad follows the tensor to its new grad_fn after an in-place op, as PyTorch's
    retains_grad hook does (other tensor hooks stay with the node they were registered on)."""
    old_fn = t._grad_fn
    if old_fn is not None and old_fn.retain_grad_ref is not None and old_fn.retain_grad_ref() is t:
        old_fn.retain_grad_ref = None
        new_fn.retain_grad_ref = weakref.ref(t)


def _can_cast(source: DType, target: DType) -> bool:
    return source.category <= target.category


# ---------------------------------------------------------------------------------------------
# The backward engine
# ---------------------------------------------------------------------------------------------

_once: set[str] = set()


def reset_warn_once() -> None:
    """Forget TORCH_WARN_ONCE warnings already given (a fresh interpreter is a fresh process)."""
    _once.clear()


CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak."
)


def _format_size(shape: Shape) -> str:
    return "torch.Size([" + ", ".join(str(n) for n in shape) + "])"


def make_root_grads(outputs: Sequence[Tensor], grads: Sequence[Tensor | None],
                    create_graph: bool) -> list[Any]:
    """torch.autograd's _make_grads: the seed gradient of each output."""
    result: list[Any] = []
    for i, (out, grad) in enumerate(zip(outputs, grads, strict=False)):
        if grad is None:
            if out.requires_grad:
                if out.numel() != 1:
                    raise TorchRuntimeError(
                        "grad can be implicitly created only for scalar outputs"
                    )
                if not out.dtype.is_floating_point:
                    raise TorchRuntimeError(
                        "grad can be implicitly created only for real scalar outputs but got "
                        f"{out.dtype!r}"
                    )
            seed = TensorOps.ones_like(out)
            result.append(seed if create_graph else seed._data)
            continue
        if not isinstance(grad, Tensor):
            raise TorchTypeError(
                f"gradients can be either Tensors or None, but got {type(grad).__name__}"
            )
        if grad.shape != out.shape:
            raise TorchRuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {_format_size(grad.shape)} "
                f"and output[{i}] has a shape of {_format_size(out.shape)}."
            )
        result.append(grad if create_graph else grad._data)
    return result


def run_backward(
    outputs: Sequence[Tensor],
    grad_outputs: Sequence[Tensor | None],
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Sequence[Tensor] | None = None,
    allow_unused: bool = False,
    accumulate: bool = True,
) -> list[Tensor | None] | None:
    """torch.autograd.backward (accumulate=True) and torch.autograd.grad (accumulate=False).

    With `inputs` and accumulate=False, returns the gradient of each input instead of
    accumulating into leaves; nodes that do not lead to an input are not run (and so keep their
    saved tensors), as in PyTorch.
    """
    if retain_graph is None:
        retain_graph = create_graph
    seeds = make_root_grads(outputs, grad_outputs, create_graph)
    roots: list[tuple[Node, Any]] = []
    root_slots: list[int] = []
    for i, (out, seed) in enumerate(zip(outputs, seeds, strict=True)):
        if not out.requires_grad:
            raise TorchRuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
        node, slot = out._gradient_edge()
        assert node is not None
        roots.append((node, seed))
        root_slots.append(slot)

    captures: dict[Node, list[int]] = {}
    capture_slots: dict[int, int] = {}  # input index -> output slot of a multi-output node
    if inputs is not None:
        for i, t in enumerate(inputs):
            if not t.requires_grad:
                raise TorchRuntimeError(
                    "One of the differentiated Tensors does not require grad"
                )
            node, slot = t._gradient_edge()
            assert node is not None
            captures.setdefault(node, []).append(i)
            if node.num_outputs != 1:
                capture_slots[i] = slot

    needed: set[Node] | None = None
    if captures:
        order, dependencies = _topological_order([node for node, _ in roots])
        needed = _nodes_leading_to(order, captures)
    else:
        dependencies = _dependencies([node for node, _ in roots])

    F = grad_ops(create_graph)
    captured: list[Any] = [None] * (len(inputs) if inputs is not None else 0)
    buffers: dict[Node, Any] = {}
    for (node, seed), slot in zip(roots, root_slots, strict=True):
        if node.num_outputs != 1:
            _deposit_slot(buffers, node, slot, seed)
        else:
            buffers[node] = seed if node not in buffers else buffers[node] + seed

    ready: list[tuple[int, int, Node]] = []
    tie = itertools.count()
    for node, _ in roots:
        if dependencies.get(node, 0) == 0 and node not in {n for _, _, n in ready}:
            heapq.heappush(ready, (-node.sequence_nr, next(tie), node))

    warned_create_graph = False
    heappop, heappush = heapq.heappop, heapq.heappush
    with set_grad_enabled(create_graph):
        while ready:
            node = heappop(ready)[2]
            grad = buffers.pop(node, None)
            is_leaf_node = node.__class__ is AccumulateGrad
            if needed is not None and node not in needed and node not in captures:
                continue  # not on a path to the inputs: PyTorch never runs it (nor its hooks)
            if grad is not None and (is_leaf_node or node.pre_hooks
                                     or node.retain_grad_ref is not None):
                grad = _run_tensor_hooks(node, grad, create_graph)
            if captures and node in captures:
                for i in captures[node]:
                    captured[i] = grad if i not in capture_slots else (
                        grad[capture_slots[i]] if grad is not None else None)
                if accumulate and grad is not None and not is_leaf_node:
                    # backward(inputs=[non_leaf]) fills that tensor's .grad, as retain_grad
                    # would.
                    for i in captures[node]:
                        if captured[i] is not None:
                            _accumulate_into(inputs[i], captured[i],  # type: ignore[index]
                                             create_graph)
            if is_leaf_node:
                if accumulate and (inputs is None or node in captures) and grad is not None:
                    if create_graph and not warned_create_graph and "create_graph" not in _once:
                        _once.add("create_graph")
                        warned_create_graph = True
                        warn(CREATE_GRAPH_WARNING)
                    node.accumulate(grad, create_graph)
                continue
            if needed is not None and node not in needed:
                continue
            grads: tuple[Any, ...]
            if grad is None:
                grads = (None,) * len(node.next_functions)
            elif Anomaly.enabled:
                grads = _backward_with_anomaly_checks(node, F, grad)
                if not retain_graph:
                    node.release_variables()
            else:
                grads = node.call_backward(F, grad)
                if not retain_graph:
                    node.release_variables()
            for i, ((child, slot), g) in enumerate(zip(node.next_functions, grads,
                                                       strict=True)):
                if child is None:
                    continue
                if g is not None:
                    g = _validate_grad(node, i, g, F)
                    if child.num_outputs != 1:
                        _deposit_slot(buffers, child, slot, g)
                        g = None  # deposited: skip the single-output buffer below
                if g is not None:
                    previous = buffers.get(child)
                    if previous is None:
                        buffers[child] = g
                    elif not _add_into(previous, g):
                        buffers[child] = previous + g
                remaining = dependencies[child] - 1
                dependencies[child] = remaining
                if remaining == 0:
                    heappush(ready, (-child.sequence_nr, next(tie), child))

    if inputs is None or accumulate:
        return None
    results: list[Tensor | None] = []
    for i, (t, g) in enumerate(zip(inputs, captured, strict=True)):
        if g is None:
            if not allow_unused:
                raise TorchRuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
            results.append(None)
        elif isinstance(g, Tensor):
            results.append(g)
        else:
            results.append(Tensor._make(g, t.device))
    return results


def _deposit_slot(buffers: dict[Node, Any], node: Node, slot: int, g: Any) -> None:
    """Add `g` to the gradient of output `slot` of a multi-output node."""
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * node.num_outputs
    slots[slot] = g if slots[slot] is None else slots[slot] + g


def _backward_with_anomaly_checks(node: Node, F: type[GradOps], grad: Any) -> tuple[Any, ...]:
    """node.call_backward in anomaly mode: an error warns with where the node's forward ran,
    and (with check_nan) a NaN in a returned gradient is PyTorch's error naming the node."""
    try:
        grads = node.call_backward(F, grad)
        if Anomaly.check_nan:
            for i, g in enumerate(grads):
                if g is None:
                    continue
                data = g._data if isinstance(g, Tensor) else g
                if data.dtype.kind in "fc" and bool(backend.array_module(data).isnan(data).any()):
                    raise TorchRuntimeError(
                        f"Function '{node.name}' returned nan values in its {i}th output.")
    except Exception:
        trace = node.metadata.get("traceback_") if node._metadata is not None else None
        if trace is None:
            warn(f"Error detected in {node.name}. No forward pass information available. "
                 "Enable detect anomaly during forward pass for more information.")
        else:
            warn(f"Error detected in {node.name}. Traceback of forward call that caused the "
                 f"error:\n{_describe_trace(trace)}")
        raise
    return grads


def _describe_trace(trace: Any) -> str:
    """A recorded forward location as text: a Python traceback as recorded, or an origin
    (gradsh's statement) by its position and source."""
    if isinstance(trace, str):
        return trace
    pos = getattr(trace, "pos", None)
    if pos is None:
        return f"  {trace}"
    source = getattr(trace, "source", None)
    return f"  line {pos.line}" + (f": {source}" if source else "")


# sys.getrefcount counts every reference to an object up to Python 3.13; later versions may
# borrow references from the interpreter's stack, so the count would prove nothing there.
_COUNTED_REFERENCES = sys.version_info < (3, 14)


def _add_into(buffer: Any, g: Any) -> bool:
    """`buffer += g` when that is the same as `buffer + g` and no one else can see it: the
    buffer is a gradient array the engine alone holds (PyTorch's InputBuffer steals its
    buffer the same way). False, and nothing done, otherwise.

    The references to `buffer` are the ready buffers' entry, run_backward's `previous`, the
    parameter here and getrefcount's argument: a fifth (a hook that kept it, the same gradient
    sent along two edges, a view of it) means someone else holds it.
    """
    if (_COUNTED_REFERENCES and buffer.__class__ is np.ndarray and g.__class__ is np.ndarray
            and buffer.shape == g.shape and buffer.dtype == g.dtype and buffer.ndim > 0
            and buffer.flags.owndata and buffer.flags.writeable
            and sys.getrefcount(buffer) == 4):
        elementwise(np.add, buffer, g, out=buffer)
        return True
    return False


def _accumulate_into(tensor: Tensor, grad: Any, create_graph: bool) -> None:
    if isinstance(grad, Tensor):
        new = grad if create_graph else Tensor._make(_owned_copy(grad._data), tensor.device)
    else:
        new = Tensor._make(_owned_copy(grad), tensor.device)
    if tensor._grad is None:
        tensor._grad = new
    elif create_graph:
        tensor._grad = tensor._grad + new
    else:
        tensor._grad = Tensor._make(tensor._grad._data + new._data, tensor.device)


def _dependencies(roots: list[Node]) -> dict[Node, int]:
    """How many edges enter each node reachable from `roots` (an explicit stack, no recursion)."""
    dependencies: dict[Node, int] = {}
    seen = set(roots)
    stack = list(seen)
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            if child in dependencies:
                dependencies[child] += 1
            else:
                dependencies[child] = 1
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return dependencies


def _topological_order(roots: list[Node]) -> tuple[list[Node], dict[Node, int]]:
    """Every node reachable from `roots`, children after parents, and how many edges enter each.

    An explicit stack, so a graph a million nodes deep needs no recursion.
    """
    dependencies: dict[Node, int] = {}
    seen: set[Node] = set()
    order: list[Node] = []
    stack: list[tuple[Node, int]] = []
    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        stack.append((root, 0))
        while stack:
            node, index = stack.pop()
            edges = node.next_functions
            if index < len(edges):
                stack.append((node, index + 1))
                child = edges[index][0]
                if child is None:
                    continue
                dependencies[child] = dependencies.get(child, 0) + 1
                if child not in seen:
                    seen.add(child)
                    stack.append((child, 0))
            else:
                order.append(node)  # post-order: children before parents
    order.reverse()
    return order, dependencies


def _nodes_leading_to(order: list[Node], targets: dict[Node, list[int]]) -> set[Node]:
    """Nodes with an edge path to a target (the targets themselves only if they lead on)."""
    needed: set[Node] = set()
    for node in reversed(order):  # children first
        for child, _ in node.next_functions:
            if child is not None and (child in targets or child in needed):
                needed.add(node)
                break
    return needed


def _run_tensor_hooks(node: Node, grad: Any, create_graph: bool) -> Any:
    """Hooks registered on the tensor this node produced (or on the leaf), then retain_grad."""
    hooks = node.variable._hooks if isinstance(node, AccumulateGrad) else node.pre_hooks
    if hooks:
        for hook in list(hooks):
            wrapped = grad if isinstance(grad, Tensor) else Tensor._make(grad, node.output_device)
            result = hook(wrapped)
            if result is not None:
                _check_hook_result(hook, wrapped, result)
                grad = result if create_graph or isinstance(grad, Tensor) else result._data
    ref = node.retain_grad_ref
    if ref is not None:
        tensor = ref()
        if tensor is not None:
            if isinstance(grad, Tensor):
                # grad.clone() (CloneBackward0 under create_graph), or .grad + grad
                tensor._grad = (grad.clone() if tensor._grad is None  # type: ignore[attr-defined]
                                else tensor._grad + grad)
            elif tensor._grad is None:
                tensor._grad = Tensor._make(_owned_copy(grad), tensor.device)
            else:
                tensor._grad = Tensor._make(tensor._grad._data + grad, tensor.device)
    return grad


def _check_hook_result(hook: Any, value: Tensor, result: Any) -> None:
    """PyTorch's check_single_result: a hook may replace the gradient, not change its kind."""
    if not isinstance(result, Tensor):
        raise TorchTypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    name = getattr(hook, "__name__", "<lambda>")

    def kind(t: Tensor) -> str:
        return ("torch.cuda." if t.device != "cpu" else "torch.") + t.dtype.legacy

    if result.dtype is not value.dtype:
        raise TorchRuntimeError(
            f"hook '{name}' has changed the type of value (was {kind(value)} got {kind(result)})"
        )
    if result.device != value.device:
        raise TorchRuntimeError(
            f"hook '{name}' has changed the device of value (was {value.device} got "
            f"{result.device})"
        )
    if result.shape != value.shape:
        raise TorchRuntimeError(f"hook '{name}' has changed the size of value")


def _validate_grad(node: Node, index: int, grad: Any, F: type[GradOps]) -> Any:
    """PyTorch's validate_outputs: sum a broadcast gradient to the input's shape, fix dtype."""
    if isinstance(grad, np.generic):
        grad = np.asarray(grad)  # NumPy turns 0-d results into scalars; keep arrays
    meta = node.input_meta[index] if hasattr(node, "input_meta") else None
    if meta is None:
        return grad
    shape, dtype, device = meta
    if grad.shape != shape:
        if not _expandable(shape, grad.shape):
            raise TorchRuntimeError(
                f"Function {node.name} returned an invalid gradient at index {index} - got "
                f"{list(grad.shape)} but expected shape compatible with {list(shape)}"
            )
        grad = F.sum_to(grad, shape)  # type: ignore[attr-defined]
    if (grad.dtype is not dtype) if isinstance(grad, Tensor) else (grad.dtype != dtype.np):
        grad = F.cast(grad, dtype)  # type: ignore[attr-defined]
    if (grad.device if isinstance(grad, Tensor) else _array_device(grad, device)) != device:
        grad = _grad_to_device(node, index, grad, device, F)
    return grad


def _array_device(array: Any, expected: str) -> str:
    """Where a gradient array lives; simulated cuda:0 arrays are NumPy's and carry no device."""
    if not backend.state.real:
        return expected
    return "cuda:0" if backend.is_device_array(array) else "cpu"


def _grad_to_device(node: Node, index: int, grad: Any, device: str, F: type[GradOps]) -> Any:
    """validate_outputs: a 0-d gradient on another device (a CPU scalar's, computed on CUDA)
    moves to its input's device; any other is the op's error."""
    if grad.ndim != 0:
        got = grad.device if isinstance(grad, Tensor) else _array_device(grad, device)
        raise TorchRuntimeError(
            f"Function {node.name} returned an invalid gradient at index {index} - expected "
            f"device {device} but got {got}"
        )
    return F.to_copy(grad, None, device)  # type: ignore[attr-defined]


def _owned_copy(array: Array, order: str = "K") -> Array:
    """A copy on the array's own device, in NumPy's `order`."""
    if isinstance(array, (np.ndarray, np.generic)):
        return np.array(array, copy=True, order=order)
    return array.copy(order=order)


def _expandable(shape: Shape, to: Shape) -> bool:
    if len(shape) > len(to):
        return False
    for a, b in zip(reversed(shape), reversed(to), strict=False):
        if a != b and a != 1:
            return False
    return True
