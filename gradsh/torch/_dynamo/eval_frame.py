"""torch.compile, run eagerly: a module comes back wrapped in an OptimizedModule (its
`_orig_mod`, as PyTorch prints it and names its state_dict keys), a function wrapped in a
function. The results are eager PyTorch's; Inductor's generated kernels, whose last bits can
differ from eager ones, are not reproduced. Outputs that require grad come out of one
CompiledFunctionBackward node, as AOTAutograd's do: its inputs are the parameters the graph
uses (the module's first, in its order), then the call's tensors, and its backward runs the
eager graph's."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from gradsh.engine.grad_mode import is_grad_enabled
from gradsh.engine.node import AccumulateGrad
from gradsh.engine.ops.autograd import grad as autograd_grad
from gradsh.engine.tensor import Tensor
from gradsh.torch import nn
from gradsh.torch.autograd.function import Function

__all__ = ["OptimizedModule", "compile"]


class OptimizedModule(nn.Module):
    """The module torch.compile returns for a module: calls go to `_orig_mod`, and so does any
    attribute it does not have itself."""

    def __init__(self, mod: nn.Module, dynamo_ctx: Any = None, aot: bool = True) -> None:
        super().__init__()
        self._orig_mod = mod
        self.training = mod.training
        self.__dict__["_aot"] = aot

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        if not self.__dict__.get("_aot", True):
            return self._orig_mod(*args, **kwargs)
        return _through_compiled_node(self._orig_mod, self._orig_mod, args, kwargs)

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name == "_orig_mod":
                raise
            return getattr(self._orig_mod, name)


OptimizedModule.__module__ = "torch._dynamo.eval_frame"

_MODES = (None, "default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs",
          "max-autotune")


def compile(model: Any = None, *, fullgraph: bool = False, dynamic: Any = None,  # noqa: A001
            backend: Any = "inductor", mode: str | None = None, options: Any = None,
            disable: bool = False) -> Any:
    """torch.compile: with a model, the compiled model; without, a decorator."""
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: "
                           + ", ".join(m for m in _MODES if m))
    if model is None:
        def decorator(fn: Any) -> Any:
            return compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                           mode=mode, options=options, disable=disable)

        return decorator
    if disable:
        return model
    # AOTAutograd (one CompiledFunctionBackward node) behind inductor and the aot_ backends;
    # "eager" and a user's backend keep the eager graph
    aot = isinstance(backend, str) and (backend == "inductor" or backend.startswith("aot_"))
    if isinstance(model, nn.Module):
        return OptimizedModule(model, aot=aot)
    if not callable(model):
        raise RuntimeError("Invalid type for model: expected callable")
    return _wrap(model, aot)


def _wrap(fn: Callable[..., Any], aot: bool = True) -> Callable[..., Any]:
    @functools.wraps(fn)
    def compiled(*args: Any, **kwargs: Any) -> Any:
        return _through_compiled_node(fn, None, args, kwargs) if aot else fn(*args, **kwargs)

    compiled._torchdynamo_orig_callable = fn  # type: ignore[attr-defined]
    return compiled


class CompiledFunction(Function):
    """AOTAutograd's autograd.Function: the eager outputs' values, one node whose backward
    asks the eager graph for the gradients of its inputs."""

    @staticmethod
    def forward(ctx: Any, eager: tuple[Tensor, ...], *inputs: Tensor) -> Any:
        ctx.eager, ctx.inputs = eager, inputs
        ctx.save_for_backward(*inputs)  # (freed after a backward without retain_graph)
        values = tuple(t.detach().clone() for t in eager)
        return values if len(values) > 1 else values[0]

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        ctx.saved_tensors  # noqa: B018  (a second backward's error, as PyTorch's)
        wanted = [i for i, t in enumerate(ctx.inputs) if t.requires_grad]
        found = autograd_grad(ctx.eager, [ctx.inputs[i] for i in wanted], grads,
                              retain_graph=True, allow_unused=True)
        results: list[Any] = [None] * (len(ctx.inputs) + 1)
        for i, g in zip(wanted, found, strict=True):
            results[i + 1] = g
        return tuple(results)


def _through_compiled_node(fn: Callable[..., Any], module: nn.Module | None,
                           args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """fn's eager result, its tensors put through a CompiledFunction node when grad mode is on
    and every output is a new tensor that requires grad (anything else as it is)."""
    result = fn(*args, **kwargs)
    if not is_grad_enabled():
        return result
    single = isinstance(result, Tensor)
    outputs = (result,) if single else result
    given = [a for a in list(args) + list(kwargs.values()) if isinstance(a, Tensor)]
    if not isinstance(outputs, tuple) or not outputs or not all(
            isinstance(t, Tensor) and t.requires_grad and t.grad_fn is not None
            and not any(t is a for a in given) for t in outputs):
        return result
    inputs = _graph_inputs(outputs, module, given)
    values = CompiledFunction.apply(outputs, *inputs)
    return values if single or isinstance(values, tuple) else (values,)


def _graph_inputs(outputs: tuple[Tensor, ...], module: nn.Module | None,
                  given: list[Tensor]) -> list[Tensor]:
    """The compiled graph's inputs in Dynamo's order as far as it is predictable: the
    parameters it reaches in the module's order, the call's tensors after those of the first
    module that owns any (Dynamo lifts a parameter when its attribute is read, an input when
    the first op takes it), then any other leaf reached. The walk stops at the call's
    tensors."""
    stops = {id(t.grad_fn) for t in given if t.grad_fn is not None}
    leaves: dict[int, Tensor] = {}
    seen: set[int] = set()
    pending = [t.grad_fn for t in outputs]
    while pending:  # (iterative: graphs can be deep)
        node = pending.pop()
        if node is None or id(node) in seen or id(node) in stops:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulateGrad):
            leaves.setdefault(id(node.variable), node.variable)
            continue
        pending.extend(edge[0] for edge in node.next_functions)
    given_ids = {id(t) for t in given}
    named = [(name, p) for name, p in (module.named_parameters() if module is not None else ())
             if id(p) in leaves and id(p) not in given_ids]
    owners = [name.rpartition(".")[0] for name, _ in named]
    first = next((i for i, owner in enumerate(owners) if owner != owners[0]), len(named))
    params = [p for _, p in named]
    listed = {id(p) for p in params} | given_ids
    others = [t for key, t in leaves.items() if key not in listed]
    unique_given = list({id(t): t for t in given}.values())
    return params[:first] + unique_given + params[first:] + others
