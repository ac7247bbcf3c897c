"""The backward graph's nodes: Node, Function (the base of every operation), AccumulateGrad,
the view nodes an in-place change makes (AsStridedBackward0, CopySlices), and the namespaces
backward formulas compute with (ArrayOps, TensorOps)."""

from __future__ import annotations

import functools
import sys
import weakref
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from gradsh.engine import backend, buffers, dtypes
from gradsh.engine import meta as meta_device
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.grad_mode import _LAST, Anomaly, SavedHooks, _GradMode, _sequence, no_grad
from gradsh.engine.saved_variable import SECOND_BACKWARD_MESSAGE, SavedTensor
from gradsh.engine.undo import _Undo
from gradsh.engine.variable import Array, RemovableHandle, Shape, Tensor, _make
from gradsh.engine.vecmath import layout
from gradsh.engine.view_rules import creation_meta

# sys.getrefcount counts every reference to an object up to Python 3.13; later versions may
# borrow references from the interpreter's stack, so the count would prove nothing there.
# (AccumulateGrad and backward's buffers take an array no one else holds instead of a copy.)
_COUNTED_REFERENCES = sys.version_info < (3, 14)
_NO_SAVED: Any = MappingProxyType({})  # shared and read-only: a node that saved nothing
_MISSING = object()
# What a node's `_saved_<name>` shows besides tensors: the plain arguments it kept
_PLAIN_VALUES = (bool, int, float, str, tuple)

Edge = tuple["Node | None", int]


class Node:
    """A node of the backward graph: PyTorch's `grad_fn` objects.

    `next_functions` holds one edge per differentiable input, `(node, 0)` or `(None, 0)`, exactly
    as PyTorch shows it. Tensor hooks of the output (register_hook, retain_grad) live on the
    node that produced it and run before the node, in registration order, retain_grad last.
    """

    node_name: ClassVar[str] = "Node"  # what repr and type() show: <MulBackward0 object ...>
    # Class-level defaults, replaced per node only when used: a graph of a million nodes
    # should not carry a million empty lists and dicts (see register_hook, `metadata`).
    next_functions: tuple[Edge, ...] = ()
    pre_hooks: Sequence[Callable[[Any], Any]] = ()  # the output tensor's register_hook
    node_pre_hooks: Sequence[Callable[[Any], Any]] = ()  # grad_fn.register_prehook
    post_hooks: Sequence[Callable[..., Any]] = ()  # grad_fn.register_hook
    retain_grad_ref: weakref.ref[Tensor] | None = None
    output_device = "cpu"
    _metadata: dict[str, Any] | None = None
    # A node with several outputs (a custom autograd.Function's) receives its gradients as a
    # list, one slot per output; the edge to output i is (node, i), found by `edge_of`.
    num_outputs: ClassVar[int] = 1
    short_name: ClassVar[str | None] = None  # the name PyTorch's version error gives it
    qualified_name: ClassVar[str | None] = None  # name(), where it differs from node_name
    # the saved tensors PyTorch's class always shows (`_saved_self` is None when not saved)
    optional_saved: ClassVar[tuple[str, ...]] = ()
    # A node that backward reaches only with None gradients (a Function returned None for
    # its edge) still runs, as in PyTorch: its hooks see None, and ATen's nodes hand None on.
    # A Python Function's node (PyNode) calls its backward, on zeros where it materializes.
    runs_without_grad: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # type(x.grad_fn) is PyTorch's: <class 'MulBackward0'>, a builtins type
        if "node_name" in cls.__dict__:
            cls.__name__ = cls.__qualname__ = cls.node_name
            if cls.__module__.startswith("gradsh.engine"):
                cls.__module__ = "builtins"

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

    @property
    def saved_records(self) -> dict[str, SavedTensor]:
        """The saved tensors by name, for gradsh's own views (explain, graph, completion):
        saved_tensors, except on a custom Function's node, whose saved_tensors is PyTorch's
        tuple (an error once backward freed it)."""
        return self.saved_tensors

    def register_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """hook(grad_inputs, grad_outputs) after this node's backward ran: tuples of gradients
        (None where an input needs none); a tuple it returns replaces grad_inputs."""
        if not isinstance(self.post_hooks, list):
            self.post_hooks = []
        self.post_hooks.append(hook)
        return RemovableHandle(self.post_hooks, hook)

    def register_prehook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """hook(grad_outputs) before this node's backward runs (after the output tensor's own
        hooks); a tuple it returns replaces grad_outputs."""
        if not isinstance(self.node_pre_hooks, list):
            self.node_pre_hooks = []
        self.node_pre_hooks.append(hook)
        return RemovableHandle(self.node_pre_hooks, hook)

    def __getattr__(self, attribute: str) -> Any:
        """PyTorch's generated attributes: `_saved_self` (a saved tensor, unpacked as backward
        would), `_saved_dim` (an argument), `_saved_self_sym_sizes`; `_raw_saved_self` (the
        SavedTensor). Reached only when ordinary lookup fails."""
        if attribute.startswith("_raw_saved_"):
            saved = self.saved_tensors.get(attribute[len("_raw_saved_"):])
            if saved is not None:
                return saved
        elif attribute.startswith("_saved_"):
            found, value = self._saved_value(attribute[len("_saved_"):])
            if found:
                return value
        raise AttributeError(f"'{self.node_name}' object has no attribute '{attribute}'")

    def _saved_value(self, key: str) -> tuple[bool, Any]:
        saved = self.saved_tensors.get(key)
        if saved is not None:
            value = saved.unpack(self, True)
            saved.clear_unpacked()  # each read calls an unpack hook again, as in PyTorch
            if saved.is_output and isinstance(value, Tensor):
                # an output comes back as a new tensor of its storage and history, as PyTorch
                # unpacks one (not the output object itself)
                alias = Tensor._make(value._data, value.device, grad_fn=value._grad_fn)
                alias._version_counter = value._version_counter
                return True, alias
            return True, value
        known = self.__dict__
        for suffix, own in (("_sym_sizes", "_sizes"), ("_sym_numel", "_numel")):
            if key.endswith(suffix):
                base = key[: -len(suffix)]
                if base + own in known:
                    return True, tuple(known[base + own]) if own == "_sizes" else known[base + own]
                if own == "_numel" and base == "self" and "numel" in known:
                    return True, known["numel"]
        value = known.get(key, _MISSING)
        if value is not _MISSING and (value is None or isinstance(value, _PLAIN_VALUES)):
            return True, tuple(value) if isinstance(value, tuple) else value
        if key in self.optional_saved:
            return True, None  # declared by PyTorch's class, not saved for this call
        return False, None

    @property
    def requires_grad(self) -> bool:
        """grad_fn.requires_grad: a node in the graph is there because an input needs it."""
        return True

    def name(self) -> str:
        """PyTorch's grad_fn.name(): the class name, with its C++ namespace for the nodes
        PyTorch writes by hand ('torch::autograd::AccumulateGrad')."""
        return self.qualified_name or self.node_name

    def __repr__(self) -> str:
        return f"<{self.node_name} object at {id(self):#x}>"


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
    first input's storage and version counter), `multi_output_view` (one of the views a function
    returns together: split, chunk, unbind; see view_rules).
    """

    is_view: ClassVar[bool] = False
    multi_output_view: ClassVar[bool] = False
    result_name: ClassVar[str] = "result"  # what `save(..., RESULT)` names the output
    # PyTorch computes these ops on float16 and bfloat16 in float32 and rounds once
    # (at::opmath_type<Half>, <BFloat16>); functions/half_opmath.py lists them.
    half_opmath: ClassVar[bool] = False
    opmath_dtypes: ClassVar[frozenset[np.dtype]] = frozenset()  # the dtypes it widens
    # a widened product whose kernel (oneDNN's) sums from zeroed memory: -0.0 comes out +0.0
    opmath_from_zero: ClassVar[bool] = False
    _plain_device: ClassVar[bool] = True
    _plain_init: ClassVar[bool] = True
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
        # Whether `cls()` only makes the object (Function's own empty __init__): apply then
        # makes it with object.__new__, without calling __init__.
        cls._plain_init = cls.__init__ is Function.__init__

    def _activate(self, inputs: Sequence[Tensor]) -> None:
        if len(inputs) == 1:  # the common case, without the loop
            t = inputs[0]
            self.next_functions = (_edge(t),)
            self.input_meta = _shared((_meta(t),))
        else:
            edges = []
            meta = []
            for t in inputs:
                edge = _edge(t)
                edges.append(edge)
                meta.append(None if edge[0] is None else _meta(t))
            self.next_functions = tuple(edges)
            self.input_meta = _shared(tuple(meta))
        self.sequence_nr = next(_sequence)

    @classmethod
    def apply(cls, *inputs: Tensor, **params: Any) -> Tensor:
        # The hot path of every operation: kept flat (no helper calls for the one- and
        # two-input cases), and it stores on the node only what differs from the class
        # defaults, so that a million-node graph stays small.
        if cls.half_opmath and inputs[0]._data.dtype in cls.opmath_dtypes:
            return _apply_in_float32(cls, inputs, params)
        node = _new(cls) if cls._plain_init else cls()
        enabled = _GradMode.enabled
        if len(inputs) == 1:
            t = inputs[0]
            requires = enabled and (t._requires_grad or t._grad_fn is not None or (
                t._base is not None and t.requires_grad))
            node.needs_input_grad = _NEEDS_ONE[requires]
            device = t.device if cls._plain_device else node.common_device(inputs, params)
            if requires:
                node.next_functions = (_edge(t),)
                metas = (_meta(t),)
                node.input_meta = _META_TUPLES.get(metas) or _shared(metas)
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
                metas = (None if edge_a[0] is None else _meta(a),
                         None if edge_b[0] is None else _meta(b))
                node.input_meta = _META_TUPLES.get(metas) or _shared(metas)
                node.sequence_nr = next(_sequence)
        elif len(inputs) == 3 and cls._plain_device and enabled:  # addmm, Linear's op
            a, b, c = inputs
            need_a = a._requires_grad or a._grad_fn is not None or (
                a._base is not None and a.requires_grad)
            need_b = b._requires_grad or b._grad_fn is not None or (
                b._base is not None and b.requires_grad)
            need_c = c._requires_grad or c._grad_fn is not None or (
                c._base is not None and c.requires_grad)
            requires = need_a or need_b or need_c
            node.needs_input_grad = (need_a, need_b, need_c) if requires else _NEEDS_NONE3
            device = a.device
            if b.device != device or c.device != device:
                device = node.common_device(inputs, params)
            if requires:
                edge_a = _edge(a) if need_a else _NO_EDGE
                edge_b = _edge(b) if need_b else _NO_EDGE
                edge_c = _edge(c) if need_c else _NO_EDGE
                node.next_functions = (edge_a, edge_b, edge_c)
                metas = (None if edge_a[0] is None else _meta(a),
                         None if edge_b[0] is None else _meta(b),
                         None if edge_c[0] is None else _meta(c))
                node.input_meta = _META_TUPLES.get(metas) or _shared(metas)
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
        forward = node.forward
        if device != "cpu":
            node.output_device = device  # the class default is "cpu"
            if device == "meta":
                forward = functools.partial(meta_device.forward, node)
            elif backend.state.real:
                inputs = _cpu_scalars_on_device(inputs, device)
        data = forward(*inputs, **params)
        if data.__class__ is not np.ndarray:  # NumPy makes 0-d results scalars
            data = _output_array(data)
        if requires and data.dtype.kind not in "fc" and data.dtype != dtypes.BF16_NP:
            # Integer and bool results never require grad (`x.long()`, comparisons, argmax).
            requires = False
            node.release_variables()
        # (read back: an op that moves data, ToCopyBackward0, sets its output device itself)
        out = _make(Tensor, data, node.output_device, node if requires else None)
        if cls.is_view:
            _finish_view(cls, node, inputs, out)
        if requires and RESULT_KEY in node._saved:
            _save_result(cls, node, out)
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
        if device == "meta" or any(t.device == "meta" for t in inputs):
            return _meta_common_device(inputs)
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
        # (log.predates(self), inline: every node's release asks)
        undoable = log is not None and getattr(self, "sequence_nr", _LAST) < log.first_node
        for saved in self._saved.values():
            saved.release(undoable)


_REDUCED = dtypes.REDUCED_FLOAT_NP
_DTYPES = dtypes._BY_NP  # numpy dtype -> DType (Tensor.dtype's table)


def _apply_in_float32(cls: type[Function], inputs: Sequence[Tensor],
                      params: dict[str, Any]) -> Tensor:
    """A float16 (bfloat16) op as PyTorch's CPU kernels run it: forward on float32 copies of
    the float16 inputs, the result rounded to float16 once. The node is built on the inputs
    themselves (their edges, and what it saves), so backward runs as for any float16 op."""
    node = cls()
    enabled = _GradMode.enabled
    needs = tuple(enabled and t.requires_grad for t in inputs)
    requires = True in needs
    node.needs_input_grad = needs
    if requires:
        node._activate(inputs)
    first = inputs[0]._data
    narrow = node.widened_from = first.dtype
    # (the widened copies are compact: where a kernel's vector/scalar split matters, the
    # input's own layout, in elements)
    node.widened_strides = (tuple(s // first.itemsize for s in first.strides)
                            if first.__class__ is np.ndarray else None)
    wide = [Tensor._make(t._data.astype(np.float32), t.device) if t._data.dtype in _REDUCED
            else t for t in inputs]
    # an accumulation dtype of float16 (cumsum's, mean's) is float32 too
    params = {k: (dtypes.float32 if v is dtypes.float16 or v is dtypes.bfloat16 else v)
              for k, v in params.items()}
    data = _as_array(node.forward(*wide, **params))
    if data.dtype == np.float32:
        if cls.opmath_from_zero:
            data = data + np.float32(0.0)
        data = data.astype(narrow)
    if not requires:
        return Tensor._make(data, inputs[0].device)
    for name, saved in list(node._saved.items()):  # the float16 inputs, not the copies
        for t, w in zip(inputs, wide, strict=True):
            if saved is not None and w is not t and saved._tensor is w:
                node._saved[name] = SavedTensor(t)
    out = Tensor._make(data, inputs[0].device, node)
    if RESULT_KEY in node._saved:
        node._saved[cls.result_name] = SavedTensor(out, is_output=True)
        del node._saved[RESULT_KEY]
    if Anomaly.enabled:
        _record_forward(node)
    return out


_NO_EDGE: Edge = (None, 0)
_NEEDS_ONE = {False: (False,), True: (True,)}
_NEEDS_TWO = (((False, False), (False, True)), ((True, False), (True, True)))
_NEEDS_NONE3 = (False, False, False)
_METAS: dict[tuple[Any, ...], tuple[Any, ...]] = {}


def _meta_common_device(inputs: Sequence[Tensor]) -> str:
    """The device of an op one of whose inputs is on meta: the first input's, which every
    other must share (a 0-d CPU tensor joins any device), as ATen's meta kernels check."""
    device = next((t.device for t in inputs if t.device != "cpu" or t._data.ndim), "meta")
    for t in inputs:
        if t.device != device and not (t.device == "cpu" and t._data.ndim == 0):
            raise meta_device.mixed_devices(device, t.device)
    return device


def _edge(t: Tensor) -> Edge:
    """`t._gradient_edge()`, with its common cases inline."""
    if t._base is None:
        fn = t._grad_fn
        if fn is not None:
            return (fn, 0) if fn.num_outputs == 1 else fn.edge_of(t)
        if not t._requires_grad:
            return _NO_EDGE
        acc = t._acc  # a leaf's AccumulateGrad, while it lives (a parameter's, every step)
        if acc is not None:
            acc = acc()
            if acc is not None:
                return (acc, 0)
    return t._gradient_edge()


def _shared(metas: tuple[Any, ...]) -> tuple[Any, ...]:
    """A node's input_meta: one tuple for equal tuples of input metas (it is read-only)."""
    return _interned(_META_TUPLES, metas)


def _meta(t: Tensor) -> tuple[Any, ...]:
    """What validate_outputs checks a gradient for this input against: (shape, dtype, device).
    A leaf's gradient is checked against its AccumulateGrad's meta, the leaf's when that node
    was made (`x.data = ...` may have changed it since)."""
    if t._acc is not None and t._grad_fn is None:
        acc = t._acc()
        if acc is not None:
            return acc.leaf_meta  # type: ignore[attr-defined, no-any-return]
    data = t._data
    key = (data.shape, _DTYPES.get(data.dtype) or t.dtype, t.device)  # (t.dtype, inline)
    shared = _METAS.get(key)  # (_interned, inline: this is every recorded input's path)
    return shared if shared is not None else _interned(_METAS, key)


def _interned(table: dict[tuple[Any, ...], tuple[Any, ...]],
              key: tuple[Any, ...]) -> tuple[Any, ...]:
    """The one tuple equal to `key` in `table`: a deep graph would otherwise hold a million
    equal ones (memory, and objects for the garbage collector to scan)."""
    shared = table.get(key)
    if shared is None:
        if len(table) >= 4096:
            table.clear()
        shared = table[key] = key
    return shared


_META_TUPLES: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_new = object.__new__


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
            if "meta" in (common, t.device):
                # ATen's meta kernels check nothing but cat's inputs: an op runs on the
                # first argument's device (mm of a CPU and a meta tensor reads no data)
                if method.endswith("_cat"):
                    raise meta_device.mixed_devices(common, t.device)
                return common
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
            stand_in._version_counter = t._version_counter
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


def _output_array(data: Any) -> Array:
    """A forward's result that is not an ndarray as one (NumPy makes 0-d results scalars)."""
    return np.asarray(data) if isinstance(data, np.generic) else _as_array(data)


def _finish_view(cls: type[Function], node: Function, inputs: Sequence[Tensor],
                 out: Tensor) -> None:
    """A view op's output: it aliases the first input's storage and version counter."""
    base = inputs[0]
    out._version_counter = base._version_counter
    out._base = base._base if base._base is not None else base
    out._view_fn = _compose_view(base, node.view_fn)
    out._view_version = base._version_value()
    out._view_creation = creation_meta(base, cls.multi_output_view, _GradMode.enabled)


def _save_result(cls: type[Function], node: Function, out: Tensor) -> None:
    """`save(name, RESULT)`: the output, saved once it exists."""
    node._saved[cls.result_name] = SavedTensor(out, is_output=True)
    del node._saved[RESULT_KEY]


def _compose_view(base: Tensor, view_fn: Callable[[Array], Array]) -> Callable[[Array], Array]:
    if base._view_fn is None:
        return view_fn
    inner = base._view_fn
    return lambda array: view_fn(inner(array))


def _record_forward(node: Node) -> None:
    node.metadata["traceback_"] = Anomaly.trace()


class SlotHook:
    """A tensor hook of one output of a multi-output node."""

    __slots__ = ("slot", "hook")

    def __init__(self, slot: int, hook: Callable[[Any], Any]) -> None:
        self.slot, self.hook = slot, hook


class OutputSlots:
    """What a node with several outputs (`_outputs`, weak references, and `_output_ids`, the
    ids of their arrays) needs: the output slot a tensor is, and each output's own tensor hooks
    and retain_grad (the backward engine runs them on that output's gradient)."""

    _outputs: list[Any]
    _output_ids: list[int | None]
    __dict__: dict[str, Any]

    def edge_of(self, t: Tensor) -> tuple[Any, int]:
        slots = self.__dict__.get("_slot_of_id")
        if slots is None:  # made once: unbind of a long tensor asks for each of its rows
            slots = self.__dict__["_slot_of_id"] = {
                id(ref()): i for i, ref in enumerate(self._outputs)
                if ref is not None and ref() is not None}
        i = slots.get(id(t))
        if i is not None and self._outputs[i]() is t:
            return (self, i)
        for i, ref in enumerate(self._outputs):
            if ref is not None and ref() is t:
                return (self, i)
        # an alias of an output (an in-place op's), or a saved output rebuilt once the output
        # itself is gone: the same storage
        key = id(t._data)
        for i, data_id in enumerate(self._output_ids):
            if data_id == key:
                return (self, i)
        return (self, 0)

    def register_slot_hook(self, t: Tensor, hook: Callable[[Any], Any]) -> RemovableHandle:
        """register_hook on output `t`. The node keeps one list for all its outputs: PyTorch
        runs a node's tensor hooks in the order they were registered, whichever output."""
        hooks = self.__dict__.setdefault("hooks_by_slot", [])
        entry = SlotHook(self.edge_of(t)[1], hook)
        hooks.append(entry)
        return RemovableHandle(hooks, entry)

    def retain_slot(self, t: Tensor) -> None:
        self.__dict__.setdefault("retained_by_slot", {})[self.edge_of(t)[1]] = weakref.ref(t)

    def retains_slot(self, t: Tensor) -> bool:
        ref = self.__dict__.get("retained_by_slot", {}).get(self.edge_of(t)[1])
        return ref is not None and ref() is t


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: adds the incoming gradient into `leaf.grad`."""

    node_name = "AccumulateGrad"
    qualified_name = "torch::autograd::AccumulateGrad"

    def __init__(self, variable: Tensor):
        super().__init__()
        self.sequence_nr = _LAST
        self.variable = variable
        self.output_device = variable.device
        self.leaf_meta = _meta(variable)  # (made only when the leaf has no live one)

    def accumulate(self, grad: Any, create_graph: bool) -> None:
        leaf = self.variable
        if not leaf._requires_grad:
            pass  # requires_grad_(False) or detach_() after the forward: no .grad (hooks run)
        elif leaf._grad is None and not create_graph and grad.__class__ is np.ndarray and \
                leaf.device == "cpu":
            # The common first accumulation: .grad owns a contiguous array (as _accumulate's):
            # the gradient array itself where no one else holds it, as PyTorch's AccumulateGrad
            # steals a gradient tensor no one else uses (a view of another's storage too),
            # else a copy. The references to `grad` are then the caller's variable, the
            # parameter here and getrefcount's argument (and the pool of large arrays' list,
            # where it came from there: see backward._add_into).
            if _Undo.log is not None:
                _Undo.log.record_grad(leaf)
            data = leaf._data
            if (_COUNTED_REFERENCES and data.flags.c_contiguous and 1 not in data.shape
                    and grad.flags.c_contiguous and grad.flags.writeable
                    and sys.getrefcount(grad) == 3 + buffers.holds(grad)):
                leaf._grad = Tensor._make(grad)
            else:  # a copy, laid out by AccumulateGrad's layout contract
                leaf._grad = Tensor._make(_grad_layout(leaf, grad))
        else:
            self._accumulate(leaf, grad, create_graph)
        if Tensor._post_accumulate_hooks_used:
            hooks = getattr(leaf, "_post_accumulate_hooks", None)
            for hook in list(hooks or ()):
                hook(leaf)

    def _accumulate(self, leaf: Tensor, grad: Any, create_graph: bool) -> None:
        if isinstance(grad, Tensor):
            new = grad
        else:
            new = Tensor._make(grad, leaf.device)
        if _Undo.log is not None:
            _Undo.log.record_grad(leaf)
        if not create_graph and (getattr(new, "is_sparse", False) or
                                 getattr(leaf._grad, "is_sparse", False)):
            from gradsh.engine.ops.sparse_grad import accumulate_sparse  # (ops import this)

            accumulate_sparse(leaf, new)
            return
        if leaf._grad is None:
            if not create_graph:
                # Never let .grad alias a buffer someone else holds (the same gradient array can
                # flow to several leaves): own a contiguous copy, as PyTorch clones when needed.
                new = Tensor._make(_grad_layout(leaf, new._data), leaf.device)
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


def _grad_layout(leaf: Tensor, grad: Array) -> Array:
    """The first .grad of `leaf`: an owned copy of `grad` laid out by AccumulateGrad's layout
    contract (layout.grad_strides: the gradient's own layout where it obeys it, else the
    leaf's where the leaf is dense, a transposed or permuted leaf getting a transposed .grad;
    row-major otherwise)."""
    data = leaf._data
    if (data.flags.c_contiguous and 1 not in data.shape) or data.ndim < 2 or \
            grad.__class__ is not np.ndarray:
        return _owned_copy(grad, "C")
    strides = layout.grad_strides(data.shape, layout.element_strides(data),
                                  layout.element_strides(grad))
    if strides is None:
        return _owned_copy(grad, "C")
    return layout.with_strides(_owned_copy(grad, "K"), strides)


def _owned_copy(array: Array, order: str = "K") -> Array:
    """A copy on the array's own device, in NumPy's `order`."""
    if isinstance(array, (np.ndarray, np.generic)):
        return np.array(array, copy=True, order=order)
    return array.copy(order=order)


class GraphRoot(Node):
    node_name = "GraphRoot"
    qualified_name = "torch::autograd::GraphRoot"


class AsStridedBackward0(Function):
    """The grad_fn a view gets once its base was modified in place (PyTorch regenerates it)."""

    node_name = "AsStridedBackward0"

    def __init__(self, base: Tensor, view_fn: Callable[[Array], Array] | None, shape: Shape):
        super().__init__()
        self.needs_input_grad = (True,)
        self._activate([base])
        self.base_shape = base.shape
        self.base_dtype = base.dtype
        self.view_fn_ = view_fn
        self.base_version = base._version_value()
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
        if self.base_dtype.is_complex and not F.as_tensor and grad.dtype.kind != "c":
            # a real view of a complex base (.real, .imag, view_as_real): zeros of the base's
            # dtype, the gradient written through the view
            result = np.zeros(self.base_shape, self.base_dtype.np)
            self.view_fn_(result)[...] = grad  # type: ignore[misc]
            return (result,)
        return (F.view_scatter(grad, self.base_shape, self.view_fn_),)  # type: ignore[attr-defined]


class CopySlices(Node):
    """The base's grad_fn after an in-place operation on one of its views.

    Backward hands the part of the gradient that falls on the view to the in-place op's node
    and passes the rest through unchanged, as PyTorch's CopySlices does.
    """

    node_name = "CopySlices"
    qualified_name = "torch::autograd::CopySlices"

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
# Gradient arithmetic: one namespace for plain arrays, one for differentiable Tensors
# ---------------------------------------------------------------------------------------------


class GradOps:
    """What a backward formula may call besides arithmetic operators."""

    as_tensor: ClassVar[bool]


class ArrayOps(GradOps):
    as_tensor = False


class TensorOps(GradOps):
    as_tensor = True
    # Besides the formulas' helpers, the two creation functions the core itself calls (the seed
    # of ones in backward.py, AccumulateGrad's differentiable .grad). Like Tensor's methods, they
    # are installed by gradsh.engine.ops, the layer above, which the core never imports.
    ones_like: ClassVar[Callable[[Tensor], Tensor]]
    empty_like: ClassVar[Callable[[Tensor], Tensor]]


def grad_ops(as_tensor: bool) -> type[GradOps]:
    """The namespace backward formulas receive (gradsh.engine.functions fills ArrayOps with array
    helpers, gradsh.engine.ops fills TensorOps with differentiable operations)."""
    return TensorOps if as_tensor else ArrayOps


# A tensor makes two of these nodes itself (its leaf's AccumulateGrad, a stale view's fresh
# grad_fn); Tensor, one layer below, finds them here once this module is imported.
Tensor._accumulate_grad_node = AccumulateGrad
Tensor._view_node = AsStridedBackward0


# A program printing the class sees PyTorch's (`<class 'torch.autograd.graph.Node'>`)
Node.__module__ = "torch.autograd.graph"

# The C fast path of Function.apply and Tensor._make, where it was built (fastpath.py)
from gradsh.engine.fastpath import enable as _enable_fastpath  # noqa: E402

_enable_fastpath(True)
