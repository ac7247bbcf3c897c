"""Autograd entry points: backward, autograd.backward, autograd.grad, tensor and module hooks."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

from gradsh.engine.exceptions import (TorchAssertionError, TorchRuntimeError, TorchTypeError,
                                      TorchValueError)
from gradsh.engine.ops.creation import zeros_like
from gradsh.engine.ops.guard import _describe, guarded
from gradsh.engine.ops.joining import stack
from gradsh.engine.tensor import Tensor, run_backward

__all__ = ["GradientEdge", "backward", "autograd_backward", "grad", "register_hook"]


class GradientEdge(NamedTuple):
    """torch.autograd.graph.GradientEdge: where a gradient flows into the graph (a node and
    its output number), which torch.autograd.grad takes as an input in place of a tensor."""

    node: Any
    output_nr: int
    ownership_token: Any = None


GradientEdge.__module__ = "torch.autograd.graph"


class _EdgeInput:
    """A GradientEdge among grad's inputs, as run_backward reads an input tensor."""

    requires_grad = True

    def __init__(self, edge: GradientEdge) -> None:
        self.edge = edge
        self.device = getattr(edge.node, "output_device", "cpu")

    def _gradient_edge(self) -> tuple[Any, int]:
        return self.edge.node, self.edge.output_nr


def _as_list(value: Any) -> list[Any]:
    """PyTorch's `(t,) if is_tensor_like(t) else tuple(t)`: None is not iterable either."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    try:  # PyTorch takes tuple() of any iterable: model.parameters(), params.values() ...
        return list(iter(value))
    except TypeError:
        raise TorchTypeError(f"'{_describe(value)}' object is not iterable") from None


def _gradients(value: Any, count: int) -> list[Any]:
    """torch.autograd's _tensor_or_tensors_to_tuple: None for each output, one tensor, or
    any iterable's items (a number is 'float' object is not iterable; a string's characters
    are no tensors)."""
    if value is None:
        return [None] * count
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    try:
        return list(iter(value))
    except TypeError:
        raise TorchTypeError(f"'{_describe(value)}' object is not iterable") from None


def _outputs(value: Any) -> list[Tensor]:
    outs = _as_list(value)
    for t in outs:
        if not isinstance(t, Tensor):  # (_make_grads's assert, as in PyTorch)
            raise TorchAssertionError("Expected output to be a torch.Tensor")
    return outs


def _inputs(value: Any, edges: bool = False) -> list[Tensor]:
    """The inputs as a list of tensors; with `edges` (autograd.grad), a GradientEdge too."""
    if edges and isinstance(value, GradientEdge):
        value = [value]
    ins = _as_list(value)
    for k, t in enumerate(ins):
        if edges and isinstance(t, GradientEdge):
            ins[k] = _EdgeInput(t)  # type: ignore[call-overload]
        elif not isinstance(t, Tensor):
            raise TorchRuntimeError(
                f"all inputs have to be Tensors or GradientEdges, but got {_describe(t)}"
            )
    return ins


def backward(t: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    if not isinstance(t, Tensor):
        raise TorchTypeError("Expected output to be a torch.Tensor")
    ins = _inputs(inputs) if inputs is not None else None
    if ins is not None and not ins:
        raise TorchRuntimeError("`inputs` argument to `backward()` cannot be empty.")
    run_backward([t], _gradients(gradient, 1), retain_graph=retain_graph,
                 create_graph=create_graph, inputs=ins)


# Tensor.backward is a Python method in PyTorch: Python's own argument errors and the bound
# method's repr name it `Tensor.backward` (an old program's retain_variables=True)
backward.__qualname__ = "Tensor.backward"


def autograd_backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
                      create_graph: bool = False, inputs: Any = None) -> None:
    outs = _outputs(tensors)
    grads = _gradients(grad_tensors, len(outs))
    ins = _inputs(inputs) if inputs is not None else None
    run_backward(outs, grads, retain_graph=retain_graph, create_graph=create_graph, inputs=ins)


autograd_backward.__qualname__ = "backward"  # torch.autograd.backward, for its TypeErrors


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True,
         allow_unused: bool | None = None, is_grads_batched: bool = False,
         materialize_grads: bool = False) -> Any:
    if materialize_grads and allow_unused is False:  # checked first, as in PyTorch
        raise TorchValueError("Expected allow_unused to be True or not passed when "
                              "materialize_grads=True, but got: allow_unused=False.")
    names = list(inputs) if type(inputs) is dict else None
    outs = _outputs(outputs)
    ins = _inputs(list(inputs.values()) if names is not None else inputs, edges=True)
    if not ins:
        raise TorchRuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). "
                      "To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
    gouts = _gradients(grad_outputs, len(outs))
    unused = bool(allow_unused) or materialize_grads
    if is_grads_batched:
        result = _batched_grads(outs, gouts, ins, retain_graph, create_graph, unused)
    else:
        result = run_backward(outs, gouts, retain_graph=retain_graph,
                              create_graph=create_graph, inputs=ins, allow_unused=unused,
                              accumulate=False)
    assert result is not None
    if materialize_grads:
        if any(g is None and isinstance(i, _EdgeInput) for g, i in zip(result, ins, strict=True)):
            raise TorchRuntimeError("materialize_grads cannot be used when the given input is "
                                    "a GradientEdge")
        # (a leaf that requires grad when create_graph, as in PyTorch)
        result = [zeros_like(i, requires_grad=create_graph) if g is None else g
                  for g, i in zip(result, ins, strict=True)]
    if names is not None:  # inputs given as a dict: the gradients under the same keys
        return dict(zip(names, result, strict=True))
    return tuple(result)


def _batched_grads(outs: list[Tensor], gouts: list[Any], ins: list[Tensor],
                   retain_graph: bool | None, create_graph: bool, unused: bool) -> list[Any]:
    """grad(is_grads_batched=True): PyTorch vmaps the backward over the first dimension of
    every grad_output; here one backward per index (the graph kept until the last), each
    input's gradients stacked (None stays None). A mismatched grad_output is reported with
    the shape PyTorch's message gives: its first row's, less one more leading dimension."""
    if len(gouts) < len(outs):
        raise TorchRuntimeError(f"got {len(outs)} tensors and {len(gouts)} gradients")
    gouts = gouts[:len(outs)]
    for i, (g, o) in enumerate(zip(gouts, outs, strict=True)):
        if g is not None and tuple(g.shape[1:]) != tuple(o.shape):
            raise TorchRuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions are "
                "expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{i}] has a shape of {g[0].shape[1:]} and output[{i}] "
                f"has a "
                f"shape of {o.shape}. If you only want some tensors in `grad_output` to be "
                "considered batched, consider using vmap.")
    sizes = {g.shape[0] for g in gouts if g is not None}
    count = sizes.pop() if len(sizes) == 1 else 0
    keep = create_graph if retain_graph is None else retain_graph
    rows: list[list[Any]] = []
    for b in range(count):
        picked = [None if g is None else g[b] for g in gouts]
        found = run_backward(outs, picked, retain_graph=True if b < count - 1 else keep,
                             create_graph=create_graph, inputs=ins, allow_unused=unused,
                             accumulate=False)
        assert found is not None
        rows.append(found)
    return [None if any(r[k] is None for r in rows) else _stacked([r[k] for r in rows])
            for k in range(len(ins))]


def _stacked(rows: list[Tensor]) -> Tensor:
    """The rows stacked; under create_graph the stack's node takes the name of the node every
    row ends in, the last op of PyTorch's one batched backward."""
    out = stack(rows)
    names = {r.grad_fn.node_name for r in rows if r.grad_fn is not None}
    if out.grad_fn is not None and len(names) == 1 and all(r.grad_fn for r in rows):
        out.grad_fn.node_name = names.pop()
    return out


@guarded
def register_hook(t: Tensor, hook: Callable[[Tensor], Tensor | None]) -> Any:
    return t.register_hook(hook)

