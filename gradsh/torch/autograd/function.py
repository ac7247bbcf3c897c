"""torch.autograd.Function: custom operations with a Python forward and backward, as in
torch/autograd/function.py (and the C++ `apply` behind it).

`MyFn.apply(*args)` runs `forward` under no_grad; its tensor outputs get one node, an instance of
`MyFnBackward` (made per Function class, so tables, graphs and explain show PyTorch's name),
whose backward calls `MyFn.backward(ctx, *grads)`. The ctx is a FunctionCtx kept by the node;
attributes the node lacks are read from it (`y.grad_fn.needs_input_grad`).
"""

from __future__ import annotations

import functools
import inspect
import warnings
import weakref
from collections.abc import Callable
from typing import Any

from gradsh.engine import forward_grad, ops
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
from gradsh.engine.tensor import (
    Anomaly,
    GradOps,
    Node,
    OutputSlots,
    SavedTensor,
    Tensor,
    _edge,
    _GradMode,
    _meta,
    _record_forward,
    _Undo,
    no_grad,
)
from gradsh.engine.inplace import VIEW_OF_LEAF_INPLACE_MESSAGE, rebase_view
from gradsh.engine.view_rules import IN_CUSTOM_FUNCTION, MULTI_OUTPUT_NODE, alias_view
from gradsh.torch.autograd import forward_ad

__all__ = ["Function", "FunctionCtx", "InplaceFunction", "NestedIOFunction",
           "once_differentiable"]

_DIRTY_LEAF_MESSAGE = "a leaf Variable that requires grad has been used in an in-place operation."


class FunctionCtx:
    """What forward (or setup_context) and backward share: saved tensors, flags, attributes."""

    to_save: tuple[Any, ...] = ()
    dirty_tensors: tuple[Tensor, ...] = ()
    non_differentiable: tuple[Tensor, ...] = ()
    materialize_grads: bool = True
    needs_input_grad: tuple[bool, ...] = ()
    _saved: list[SavedTensor | None] | None = None  # once the node exists

    def save_for_backward(self, *tensors: Tensor | None) -> None:
        """Keep tensors for backward; read them back with `ctx.saved_tensors`."""
        self.to_save = tensors

    def save_for_forward(self, *tensors: Tensor | None) -> None:
        for tensor in tensors:
            if not (isinstance(tensor, Tensor) or tensor is None):
                raise AssertionError("save_for_forward expects all arguments to be tensors; you "
                                     "should save non-tensors as attributes on ctx.")
        self.saved_for_forward = tensors

    def mark_dirty(self, *args: Tensor) -> None:
        """Say which inputs forward modified in place (and returns)."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args: Tensor) -> None:
        """Outputs that never require grad (their gradients in backward are zeros)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """False: backward receives None, not zeros, for outputs that got no gradient."""
        self.materialize_grads = value

    @property
    def saved_tensors(self) -> tuple[Tensor | None, ...]:
        """The tensors saved for backward, checked (freed by backward, modified in place) as
        PyTorch checks them; in jvp, those saved for forward (forward_ad)."""
        in_jvp = self.__dict__.get("_jvp_saved")
        if in_jvp is not None:
            return in_jvp
        if self._saved is None:  # forward, or an apply that recorded no graph
            return tuple(self.to_save)
        node = self._node()
        return tuple(s.unpack(node, True) if s is not None else None for s in self._saved)

    def _node(self) -> Node:
        node = self.__dict__.get("_node_ref")
        return node() if node is not None else None


class BackwardCFunction(OutputSlots, Node):
    """The grad_fn of a custom Function's outputs: `<Name>Backward`, one per apply."""

    _forward_cls: type[Function]
    runs_without_grad = True

    def __init__(self, ctx: FunctionCtx, args: tuple[Any, ...]) -> None:
        super().__init__()
        self.ctx = ctx
        self._is_tensor = tuple(isinstance(a, Tensor) for a in args)
        self._needs = ctx.needs_input_grad
        tensors = [a for a in args if isinstance(a, Tensor)]
        needs = [n for n, is_t in zip(self._needs, self._is_tensor, strict=True) if is_t]
        self.next_functions = tuple(_edge(t) if n else (None, 0)
                                    for t, n in zip(tensors, needs, strict=True))
        self.input_meta = tuple(_meta(t) if n else None for t, n in zip(tensors, needs,
                                                                         strict=True))
        self._outputs: list[weakref.ref[Tensor] | None] = []
        self._output_ids: list[int | None] = []  # id of each output's array
        self._output_meta: list[tuple[Any, ...] | None] = []
        self._saved_records: dict[str, SavedTensor] = {}

    def __getattr__(self, name: str) -> Any:
        # attributes forward put on ctx (ctx.k = 3) read through the node, as in PyTorch
        if name.startswith("__") or name == "ctx":
            raise AttributeError(name)
        return getattr(self.ctx, name)

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{self.node_name} object at {id(self):#x}>"

    @property
    def function_name(self) -> str:
        """The Function's own class name, which PyTorch's view+inplace error names."""
        return self._forward_cls.__name__

    def apply(self, *grads: Any) -> Any:
        """`y.grad_fn.apply(g)`: the Function's own backward (or vjp) on `g`, its result as
        returned (PyTorch's BackwardCFunction.apply)."""
        return self._forward_cls._user_backward()(self.ctx, *grads)

    # With one output, that tensor's hooks and retain_grad live on the node as on any other;
    # with several, each output's in OutputSlots.
    @property  # type: ignore[override]
    def pre_hooks(self) -> Any:
        return self.__dict__.get("_pre_hooks", ())

    @pre_hooks.setter
    def pre_hooks(self, hooks: Any) -> None:
        self.__dict__["_pre_hooks"] = hooks

    @property  # type: ignore[override]
    def retain_grad_ref(self) -> Any:
        return self.__dict__.get("_retain_grad_ref")

    @retain_grad_ref.setter
    def retain_grad_ref(self, ref: Any) -> None:
        self.__dict__["_retain_grad_ref"] = ref

    @property
    def saved_tensors(self) -> tuple[Tensor | None, ...]:  # type: ignore[override]
        """`y.grad_fn.saved_tensors`: what backward's ctx.saved_tensors gives (PyTorch's node
        is the ctx), an error once backward freed them."""
        return self.ctx.saved_tensors

    @property
    def saved_records(self) -> dict[str, SavedTensor]:
        """For the table, graph and explain: the saved tensors by position."""
        return self._saved_records

    def release_variables(self) -> None:
        log = _Undo.log
        undoable = log is not None and log.predates(self)
        for saved in self._saved_records.values():
            saved.release(undoable)

    def call_backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        ctx = self.ctx
        grads = [grad] if self.num_outputs == 1 else list(grad)
        tensors: list[Tensor | None] = []
        for g, meta in zip(grads, self._output_meta, strict=True):
            if g is None:
                if meta is not None and ctx.materialize_grads:
                    shape, dtype, device = meta
                    g = ops.zeros(shape, dtype=dtype, device=device)
            elif not isinstance(g, Tensor):
                g = Tensor._make(g, meta[2] if meta is not None else "cpu")
            tensors.append(g)
        result = self._forward_cls._user_backward()(ctx, *tensors)
        return self._input_grads(result, F.as_tensor)

    def _input_grads(self, result: Any, as_tensor: bool) -> tuple[Any, ...]:
        """backward's results checked as PyTorch checks them, one per tensor input."""
        if not isinstance(result, tuple):
            result = (result,)
        expected = len(self._is_tensor)
        if len(result) > expected and all(g is None for g in result[expected:]):
            result = result[:expected]
        if len(result) != expected:
            raise TorchRuntimeError(f"function {self.node_name} returned an incorrect number of "
                                    f"gradients (expected {expected}, got {len(result)})")
        grads = []
        for i, (g, is_tensor, needed) in enumerate(zip(result, self._is_tensor, self._needs,
                                                        strict=True)):
            if not is_tensor:
                if g is not None:
                    raise TorchRuntimeError(
                        f"function {self.node_name} returned a gradient different than None at "
                        f"position {i + 1}, but the corresponding forward input was not a "
                        "Variable")
                continue
            if g is not None and not isinstance(g, Tensor):
                raise TorchRuntimeError(f"expected Variable or None (got {type(g).__name__})")
            if g is None or not needed:
                grads.append(None)
            else:
                grads.append(g if as_tensor else g._data)
        return tuple(grads)


class FunctionMeta(type):
    """Makes each Function class its node class, `<Name>Backward`, as PyTorch does."""

    def __init__(cls, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> None:
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {
            "_forward_cls": cls, "node_name": name + "Backward", "short_name": name,
            "__module__": "torch.autograd.function"})
        super().__init__(name, bases, attrs)


class _SingleLevelFunction(FunctionCtx, metaclass=FunctionMeta):
    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @classmethod
    def _user_backward(cls) -> Callable[..., Any]:
        backward_fn, vjp_fn = cls.backward, cls.vjp
        if backward_fn is not Function.backward and vjp_fn is not Function.vjp:
            raise TorchRuntimeError("Implementing both 'backward' and 'vjp' for a custom "
                                    "Function is not allowed. You should only implement one of "
                                    "them.")
        return vjp_fn if vjp_fn is not Function.vjp else backward_fn


class Function(_SingleLevelFunction):
    """Subclass with static `forward(ctx, *args)` (or `forward(*args)` plus
    `setup_context(ctx, inputs, output)`) and `backward(ctx, *grads)`; call `.apply`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are "
            "all static, so you should invoke them on the class itself. Instantiating an "
            "autograd function will raise an error in a future version of PyTorch.",
            DeprecationWarning, stacklevel=2)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TorchRuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        setup_style = cls.setup_context is not _SingleLevelFunction.setup_context
        if setup_style:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        ctx = FunctionCtx()
        enabled = _GradMode.enabled
        ctx.needs_input_grad = tuple(enabled and isinstance(a, Tensor) and a.requires_grad
                                     for a in args)
        executable = any(ctx.needs_input_grad)
        node = cls._backward_cls(ctx, args) if executable else None
        dual = bool(forward_grad._TANGENTS) and forward_ad.has_dual_argument(args)
        forward_grad.state.suspended += dual  # (its jvp gives the tangents, below)
        try:
            with no_grad():
                if setup_style:
                    output = cls.forward(*args, **kwargs)
                    cls.setup_context(ctx, args, output)
                else:
                    output = cls.forward(ctx, *args, **kwargs)
        finally:
            forward_grad.state.suspended -= dual
        if node is not None:
            output = _wrap_outputs(node, ctx, args, output)
        if dual:
            forward_ad.custom_function_jvp(cls, ctx, args, output)
        return output


def _wrap_outputs(node: BackwardCFunction, ctx: FunctionCtx, args: tuple[Any, ...],
                  output: Any) -> Any:
    """Give the outputs their history (node, output number), then save what forward asked."""
    for i, t in enumerate(ctx.to_save):  # checked first, as PyTorch does
        if t is not None and not isinstance(t, Tensor):
            raise TorchTypeError("save_for_backward can only save variables, but argument "
                                 f"{i} is of type {type(t).__name__}")
    is_tuple = isinstance(output, tuple)
    outputs = output if is_tuple else (output,)
    node.num_outputs = len(outputs)  # type: ignore[misc]
    dirty = {id(t) for t in ctx.dirty_tensors}
    non_differentiable = {id(t) for t in ctx.non_differentiable}
    inputs = {id(a) for a in args if isinstance(a, Tensor)}
    wrapped: list[Any] = []
    views: list[Tensor] = []  # differentiable outputs that are views (view_rules)
    n_differentiable = 0
    for out in outputs:
        if not isinstance(out, Tensor):
            wrapped.append(out)
            node._outputs.append(None)
            node._output_ids.append(None)
            node._output_meta.append(None)
            continue
        differentiable = id(out) not in non_differentiable and out.dtype.is_floating_point
        is_dirty = id(out) in dirty
        if is_dirty:
            if out._grad_fn is None and out._requires_grad:
                raise TorchRuntimeError(_DIRTY_LEAF_MESSAGE)
            base = out._base
            if base is not None and base._grad_fn is None and base._requires_grad:
                raise TorchRuntimeError(VIEW_OF_LEAF_INPLACE_MESSAGE)
            out._version_counter.value += 1  # mark_dirty counts a change, as PyTorch's does
        elif id(out) in inputs or out._base is not None:
            # an input returned as is, or a view made in forward: a view of the same memory
            out = alias_view(Tensor._make(out._data, out.device), out)
        node._outputs.append(weakref.ref(out))
        node._output_ids.append(id(out._data))
        node._output_meta.append((tuple(out.shape), out.dtype, out.device))
        if differentiable:
            out._grad_fn = node
            out._requires_grad = False
            node.output_device = out.device
            n_differentiable += 1
            if out._base is not None and not is_dirty:
                views.append(out)
            elif out._base is not None:  # a view changed in place: its base's history too
                rebase_view(out, node)
        wrapped.append(out)
    # PyTorch's _process_backward_mode_ad: such a view may not be modified in place
    # (IN_CUSTOM_FUNCTION; MULTI_OUTPUT_NODE with more than one differentiable output)
    for out in views:
        out._view_creation = MULTI_OUTPUT_NODE if n_differentiable > 1 else IN_CUSTOM_FUNCTION
    if Anomaly.enabled:
        _record_forward(node)
    _save(node, ctx, wrapped)
    ctx._node_ref = weakref.ref(node)  # type: ignore[attr-defined]
    return tuple(wrapped) if is_tuple else wrapped[0]


def _save(node: BackwardCFunction, ctx: FunctionCtx, outputs: list[Any]) -> None:
    saved: list[SavedTensor | None] = []
    for i, t in enumerate(ctx.to_save):
        if t is None:
            saved.append(None)
            continue
        record = SavedTensor(t, is_output=any(t is o for o in outputs))
        saved.append(record)
        node._saved_records[f"saved_tensors[{i}]"] = record
    ctx._saved = saved
    ctx.to_save = ()  # the records hold them now (and free them after backward)


def once_differentiable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A backward that runs under no_grad (it cannot be differentiated again)."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        with no_grad():
            return fn(ctx, *args)

    return wrapper


class InplaceFunction(Function):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace


class NestedIOFunction(Function):
    """PyTorch's legacy base; not implemented by gradsh."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TorchRuntimeError("gradsh does not implement torch.autograd.NestedIOFunction yet")

