"""torch.library's Python custom operators (torch.library.custom_op) and the torch.ops namespaces
they are reached through.

PyTorch registers a custom op with its dispatcher; its autograd kernel is a generated
autograd.Function, `GeneratedBackwardFor_<ns>_<name>_default`, whose forward runs the op's
implementation below autograd (grad mode off: `x.numpy()` works on an input that requires
grad) and whose backward is the formula given to register_autograd (without one, backward
raises). gradsh builds the same Function on its own autograd.Function, so the graph, the
grad_fn's name and gradcheck behave as PyTorch's do. torch.ops.aten.<name> reaches gradsh's
torch.<name>."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch._missing import module_getattr

__all__ = ["CustomOpDef", "custom_op", "ops"]

__getattr__ = module_getattr("torch.library")


class OpOverload:
    """torch.ops.<ns>.<name>.default: the op called with one schema."""

    def __init__(self, packet: OpOverloadPacket, overload: str) -> None:
        self._packet, self._overloadname = packet, overload

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._packet(*args, **kwargs)

        self.__name__ = f"{packet.__name__}.{overload}"

    def __repr__(self) -> str:
        return f"<OpOverload(op='{self._packet._qualified}', overload='{self._overloadname}')>"

    def __str__(self) -> str:
        return f"{self._packet._qualified}.{self._overloadname}"

    def name(self) -> str:
        return f"{self._packet._qualified.replace('.', '::', 1)}.{self._overloadname}"


OpOverload.__module__ = "torch._ops"


class OpOverloadPacket:
    """torch.ops.<ns>.<name>: calls the op; `.default` (or any overload name) is the op too."""

    def __init__(self, namespace: str, name: str, call: Callable[..., Any]) -> None:
        self._qualified, self._call = f"{namespace}.{name}", call
        self.__name__ = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._call(*args, **kwargs)

    def __getattr__(self, overload: str) -> OpOverload:
        if overload.startswith("__"):
            raise AttributeError(overload)
        return OpOverload(self, overload)

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='{self._qualified}')>"

    def __str__(self) -> str:
        return self._qualified


OpOverloadPacket.__module__ = "torch._ops"


class _OpNamespace:
    """torch.ops.<ns>: the ops registered under the namespace (aten: gradsh's torch functions)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._ops: dict[str, OpOverloadPacket] = {}

    def __repr__(self) -> str:
        return f"<module 'torch.ops.{self._name}' from 'torch.ops'>"

    def __getattr__(self, op: str) -> OpOverloadPacket:
        if op.startswith("__"):
            raise AttributeError(op)
        if op in self._ops:
            return self._ops[op]
        if self._name == "aten":
            import gradsh.torch as torch

            function = getattr(torch, op, None)
            if callable(function):
                return OpOverloadPacket("aten", op, function)
        raise AttributeError(f"'_OpNamespace' '{self._name}' object has no attribute '{op}'")


class _Ops:
    """torch.ops."""

    def __init__(self) -> None:
        self._namespaces: dict[str, _OpNamespace] = {}

    def __getattr__(self, namespace: str) -> _OpNamespace:
        if namespace.startswith("__"):
            raise AttributeError(namespace)
        if namespace not in self._namespaces:
            self._namespaces[namespace] = _OpNamespace(namespace)
        return self._namespaces[namespace]


_Ops.__module__ = _OpNamespace.__module__ = "torch._ops"
ops = _Ops()


class CustomOpDef:
    """What torch.library.custom_op returns: call it like the function it wraps; register a
    fake kernel, a device kernel and an autograd formula on it."""

    def __init__(self, namespace: str, name: str, fn: Callable[..., Any],
                 mutates_args: Iterable[str] | str) -> None:
        self._namespace, self._name, self._init_fn = namespace, name, fn
        self._mutates = () if mutates_args == "unknown" else tuple(mutates_args)
        self._signature = inspect.signature(fn)
        self._fake_fn: Callable[..., Any] | None = None
        self._backward_fn: Callable[..., Any] | None = None
        self._setup_context_fn: Callable[..., Any] | None = None
        self._function = self._autograd_function()
        ops.__getattr__(namespace)._ops[name] = OpOverloadPacket(namespace, name, self)

    def register_fake(self, fn: Callable[..., Any], /) -> Callable[..., Any]:
        self._fake_fn = fn
        return fn

    def register_kernel(self, device_types: Any, fn: Callable[..., Any] | None = None, /) -> Any:
        def register(kernel: Callable[..., Any]) -> Callable[..., Any]:
            devices = (device_types,) if isinstance(device_types, str) or \
                device_types is None else tuple(device_types)
            if devices == (None,) or "cpu" in devices:
                self._init_fn = kernel
            return kernel

        return register if fn is None else register(fn)

    def register_autograd(self, backward: Callable[..., Any], /, *,
                          setup_context: Callable[..., Any] | None = None) -> None:
        self._backward_fn, self._setup_context_fn = backward, setup_context

    def _kernel(self, *args: Any) -> Any:
        """The implementation, as the dispatcher runs it below autograd; a returned input (or a
        view of one) is refused as PyTorch's functional custom ops refuse it."""
        with no_grad():
            result = self._init_fn(*args)
        if not self._mutates:
            inputs = [a for a in args if isinstance(a, Tensor)]
            outputs = result if isinstance(result, tuple) else (result,)
            if any(isinstance(o, Tensor) and any(o is a or (
                    o._data.base is not None and o._data.base is a._data.base) for a in inputs)
                   for o in outputs):
                raise TorchRuntimeError(
                    f"{self._name} (with implementation in {self._init_fn.__module__!r}): "
                    "The output of this custom operator (1) must not also be an input to this "
                    "custom operator and (2) may not alias any inputs to this custom operator "
                    "or other returns. The most common way to trigger this error is if we have "
                    "y = custom_op(x) and y and x are the same Tensor. Please instead return a "
                    "clone of the offending output tensor(s) (e.g. return x.clone()) or refactor "
                    "the custom operator to not return y.")
        return result

    def _autograd_function(self) -> type:
        from gradsh.torch.autograd.function import Function

        op = self
        qualified = f"{self._namespace}.{self._name}.default"

        def forward(*args: Any) -> Any:
            return op._kernel(*args)

        def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
            if op._setup_context_fn is not None:
                op._setup_context_fn(ctx, inputs, output)

        def backward(ctx: Any, *grads: Any) -> Any:
            if op._backward_fn is None:
                raise TorchRuntimeError(
                    f"Trying to backward through {qualified} but no autograd formula was "
                    "registered. Please use register_autograd to add one.")
            result = op._backward_fn(ctx, *grads)
            return result if isinstance(result, tuple) else (result,)

        name = f"GeneratedBackwardFor_{self._namespace}_{self._name}_default"
        return type(name, (Function,), {
            "forward": staticmethod(forward), "setup_context": staticmethod(setup_context),
            "backward": staticmethod(backward), "__module__": "torch.autograd.function"})

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        positional = tuple(bound.arguments.values())
        if self._mutates:
            return self._init_fn(*positional)
        return self._function.apply(*positional)

    def __repr__(self) -> str:
        return f"<torch._library.custom_ops.CustomOpDef object at {hex(id(self))}>"


def custom_op(name: str, fn: Callable[..., Any] | None = None, /, *,
              mutates_args: Iterable[str] | str, device_types: Any = None,
              schema: str | None = None) -> Any:
    """torch.library.custom_op("ns::name", mutates_args=...): a decorator (or a call with the
    function) making a CustomOpDef, reachable as torch.ops.ns.name too."""
    if "::" not in name:
        raise ValueError(f"Expected `name` to be of the form \"namespace::opname\", got {name}")
    namespace, opname = name.split("::", 1)

    def wrap(function: Callable[..., Any]) -> CustomOpDef:
        return CustomOpDef(namespace, opname, function, mutates_args)

    return wrap if fn is None else wrap(fn)
