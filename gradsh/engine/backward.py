"""The backward engine: torch.autograd.backward and grad as one loop over a ready queue ordered
like PyTorch's (latest node first), with dependencies counted by an explicit stack."""

from __future__ import annotations

import heapq
import itertools
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradsh.engine import backend, buffers, fastpath
from gradsh.engine.autocast import Autocast
from gradsh.engine.dtypes import is_float_array_dtype
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError, warn
from gradsh.engine.grad_mode import Anomaly, set_grad_enabled
from gradsh.engine.node import (_COUNTED_REFERENCES, AccumulateGrad, GradOps, Node, TensorOps,
                                _owned_copy, grad_ops)
from gradsh.engine.threads import elementwise
from gradsh.engine.undo import _Undo
from gradsh.engine.variable import Shape, Tensor
from gradsh.engine.vecmath import layout

_once: set[str] = set()
# Set while torch.func.vmap runs its function for any but the last index: PyTorch runs a
# backward inside vmap once, over the batch, so the graph it goes through must outlive gradsh's
# per-index calls (torch.autograd.grad(y, x, v) under vmap, the Jacobian-by-rows idiom).
KEEP_GRAPHS = [0]
# The backward calls running now, innermost last: (id, the nodes it reaches, its roots, the
# nodes on a path to its `inputs` or None, whether it accumulates into .grad):
# torch._C._current_graph_task_id and _will_engine_execute_node read them.
GRAPH_TASKS: list[tuple[int, dict[Node, int], list[Node], set[Node] | None, bool]] = []
_task_ids = itertools.count()


def will_execute(node: Node) -> bool:
    """Whether the innermost running backward will run `node` (PyTorch's exec_info)."""
    if not GRAPH_TASKS:
        raise TorchRuntimeError("_will_engine_execute_node should only be called during the "
                                "backward pass")
    _, dependencies, roots, needed, accumulate = GRAPH_TASKS[-1]
    if not accumulate and isinstance(node, AccumulateGrad):
        raise TorchRuntimeError("A leaf node was passed to _will_engine_execute_node but we are "
                                "currently running autograd.grad(). This is currently not "
                                "supported.")
    if needed is not None:
        return node in needed
    return node in dependencies or node in roots


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
            data = out._data
            if not create_graph and data.__class__ is np.ndarray and data.ndim == 0 and \
                    out.device == "cpu":
                result.append(np.array(1, data.dtype))  # the array ones_like would hold
                continue
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
    retain_graph = retain_graph or KEEP_GRAPHS[0] > 0
    seeds = make_root_grads(outputs, grad_outputs, create_graph)
    if len(seeds) != len(outputs):  # (_make_grads zips, dropping extra gradients; the
        # engine then counts)
        raise TorchRuntimeError(f"got {len(outputs)} tensors and {len(seeds)} gradients")
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
            if not t.requires_grad:  # (backward's inputs: the engine's retain_grad() fails)
                raise TorchRuntimeError(
                    "can't retain_grad on Tensor that has requires_grad=False" if accumulate
                    else "One of the differentiated Tensors does not require grad"
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

    GRAPH_TASKS.append((next(_task_ids), dependencies, [node for node, _ in roots],
                        None if needed is None else needed.union(captures), accumulate))
    region, Autocast.dtype = Autocast.dtype, None  # backward ops run as their forward ran
    try:
        return _run_graph(roots, dependencies, needed, captures, capture_slots, buffers,
                          captured, inputs, F, retain_graph, create_graph, accumulate,
                          allow_unused)
    finally:
        GRAPH_TASKS.pop()
        Autocast.dtype = region


def _run_graph(roots: list[tuple[Node, Any]], dependencies: dict[Node, int],
               needed: set[Node] | None, captures: dict[Node, list[int]],
               capture_slots: dict[int, int], buffers: dict[Node, Any], captured: list[Any],
               inputs: Sequence[Tensor] | None, F: type[GradOps], retain_graph: bool,
               create_graph: bool, accumulate: bool,
               allow_unused: bool) -> list[Tensor | None] | None:
    """run_backward's sweep: the nodes in PyTorch's order, each once its inputs are in."""
    sweep = _Sweep(dependencies, needed, captures, capture_slots, buffers, captured, inputs, F,
                   retain_graph, create_graph, accumulate)
    ready = sweep.ready
    for node, _ in roots:
        if dependencies.get(node, 0) == 0 and node not in {n for _, _, n in ready}:
            heapq.heappush(ready, (-node.sequence_nr, next(sweep.tie), node))

    with set_grad_enabled(create_graph):
        if needed is None and not captures and inputs is None and accumulate \
                and not create_graph:
            plain_sweep(sweep)  # loss.backward(): the same steps, the common nodes inline
        else:
            heappop = heapq.heappop
            while ready:
                node = heappop(ready)[2]
                sweep.run(node, buffers.pop(node, None))

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


class _Sweep:
    """One backward's state, and what it does with one node: run the node's hooks and its
    backward, then hand its gradients to the nodes its edges lead to."""

    __slots__ = ("dependencies", "needed", "captures", "capture_slots", "buffers", "captured",
                 "inputs", "F", "retain_graph", "create_graph", "accumulate", "ready", "tie",
                 "warned_create_graph")

    def __init__(self, dependencies: dict[Node, int], needed: set[Node] | None,
                 captures: dict[Node, list[int]], capture_slots: dict[int, int],
                 buffers: dict[Node, Any], captured: list[Any],
                 inputs: Sequence[Tensor] | None, F: type[GradOps], retain_graph: bool,
                 create_graph: bool, accumulate: bool) -> None:
        self.dependencies, self.needed, self.captures = dependencies, needed, captures
        self.capture_slots, self.buffers, self.captured = capture_slots, buffers, captured
        self.inputs, self.F, self.retain_graph = inputs, F, retain_graph
        self.create_graph, self.accumulate = create_graph, accumulate
        self.ready: list[tuple[int, int, Node]] = []
        self.tie = itertools.count()
        self.warned_create_graph = False

    def run(self, node: Node, grad: Any) -> None:
        """Every step of one node, whatever it has (hooks, several outputs, anomaly mode)."""
        needed, captures, captured = self.needed, self.captures, self.captured
        create_graph, F = self.create_graph, self.F
        is_leaf_node = node.__class__ is AccumulateGrad
        if needed is not None and node not in needed and node not in captures:
            return  # not on a path to the inputs: PyTorch never runs it (nor its hooks)
        if grad is None:
            grad = _hooks_on_nothing(node, is_leaf_node, create_graph)
        else:
            if node.pre_hooks or node.retain_grad_ref is not None or (
                    is_leaf_node and node.variable._hooks):  # (a leaf's hooks: its tensor's)
                grad = _run_tensor_hooks(node, grad, create_graph)
            elif node.num_outputs != 1 and (
                    "hooks_by_slot" in node.__dict__ or "retained_by_slot" in node.__dict__):
                grad = _run_output_hooks(node, grad, create_graph)
            if node.node_pre_hooks:
                grad = _run_node_pre_hooks(node, grad, create_graph)
        if captures and node in captures:
            capture_slots = self.capture_slots
            for i in captures[node]:
                captured[i] = grad if i not in capture_slots else (
                    grad[capture_slots[i]] if grad is not None else None)
            if self.accumulate and grad is not None and not is_leaf_node:
                # backward(inputs=[non_leaf]) fills that tensor's .grad, as retain_grad
                # would.
                for i in captures[node]:
                    if captured[i] is not None:
                        _accumulate_into(self.inputs[i], captured[i],  # type: ignore[index]
                                         create_graph)
        if is_leaf_node:
            if self.accumulate and (self.inputs is None or node in captures) \
                    and grad is not None:
                if create_graph and not self.warned_create_graph and "create_graph" not in _once:
                    _once.add("create_graph")
                    self.warned_create_graph = True
                    warn(CREATE_GRAPH_WARNING)
                node.accumulate(grad, create_graph)
            if node.post_hooks:
                _run_node_post_hooks(node, (), grad, create_graph)
            return
        if needed is not None and node not in needed:
            return
        grads: tuple[Any, ...]
        if grad is None and not node.runs_without_grad:
            grads = (None,) * len(node.next_functions)  # ATen's nodes hand None on
        elif Anomaly.enabled:
            grads = _backward_with_anomaly_checks(node, F, _or_nothing(node, grad))
            if not self.retain_graph:
                node.release_variables()
        else:
            grads = node.call_backward(F, _or_nothing(node, grad))
            if not self.retain_graph:
                node.release_variables()
        if node.post_hooks:  # after validate_outputs, as PyTorch's call_function
            grads = tuple(g if g is None or edge[0] is None else _validate_grad(node, i, g, F)
                          for i, (edge, g) in enumerate(zip(node.next_functions, grads)))
            grads = _run_node_post_hooks(node, grads, grad, create_graph)
        self.hand_on(node, grads)

    def hand_on(self, node: Node, grads: Sequence[Any]) -> None:
        """Each gradient of `node`'s backward, checked (validate_outputs), into the buffer of
        the node its edge leads to; a node whose inputs are all in becomes ready."""
        buffers, dependencies, ready, tie, F = (self.buffers, self.dependencies, self.ready,
                                                self.tie, self.F)
        metas = getattr(node, "input_meta", None)
        for i, ((child, slot), g) in enumerate(zip(node.next_functions, grads, strict=True)):
            if child is None:
                continue
            if g is not None:
                # (_validate_grad's common case inline: a CPU array that fits)
                meta = metas[i] if metas is not None and g.__class__ is np.ndarray else False
                if meta is False or (meta is not None and not (
                        g.shape == meta[0] and g.dtype == meta[1].np and meta[2] == "cpu")):
                    g = _validate_grad(node, i, g, F)
                if child.num_outputs != 1:
                    _deposit_slot(buffers, child, slot, g)
                else:
                    previous = buffers.get(child)
                    if previous is None:
                        buffers[child] = g
                    elif not _add_into(previous, g):
                        buffers[child] = _sum(previous, g)
            remaining = dependencies[child] - 1
            dependencies[child] = remaining
            if remaining == 0:
                heapq.heappush(ready, (-child.sequence_nr, next(tie), child))


def _plain_sweep(sweep: _Sweep) -> None:
    """The sweep of loss.backward() (every node, leaves accumulating, no create_graph): a node
    with a gradient and none of hooks, several outputs or anomaly mode runs here, without
    _Sweep.run's checks for them; any other goes through _Sweep.run. The same steps in the
    same order either way."""
    ready, F = sweep.ready, sweep.F
    release = not sweep.retain_graph
    heappop, take = heapq.heappop, sweep.buffers.pop
    while ready:
        node = heappop(ready)[2]
        grad = take(node, None)
        if grad is None or node.pre_hooks or node.retain_grad_ref is not None \
                or node.node_pre_hooks or node.post_hooks or node.num_outputs != 1 \
                or Anomaly.enabled:
            sweep.run(node, grad)
            continue
        if node.__class__ is AccumulateGrad:
            if node.variable._hooks:
                sweep.run(node, grad)
            else:
                node.accumulate(grad, False)
            continue
        grads = node.call_backward(F, grad)
        if release:
            node.release_variables()
        sweep.hand_on(node, grads)
        grads = None  # (the gradients are the buffers' alone now: a leaf can take its own)


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
                if is_float_array_dtype(data.dtype) and bool(
                        backend.array_module(data).isnan(data).any()):
                    raise TorchRuntimeError(
                        f"Function '{node.name()}' returned nan values in its {i}th output.")
    except Exception:
        trace = node.metadata.get("traceback_") if node._metadata is not None else None
        if trace is None:
            warn(f"Error detected in {node.name()}. No forward pass information available. "
                 "Enable detect anomaly during forward pass for more information.")
        else:
            warn(f"Error detected in {node.name()}. Traceback of forward call that caused the "
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


def _sum(previous: Any, g: Any) -> Any:
    """InputBuffer::accumulate's sum where `previous += g` cannot be done here: laid out as
    PyTorch's, which adds in place into the old gradient (or the new one) when dense and held
    by the engine alone (as mostly, gradsh's references aside), else `old + new`, laid out as
    TensorIterator's add."""
    if getattr(previous, "is_sparse", False) or getattr(g, "is_sparse", False):
        from gradsh.engine.ops.sparse_grad import buffer_sum  # (ops import the engine)

        return buffer_sum(previous, g)
    total = previous + g
    if total.__class__ is np.ndarray and previous.__class__ is np.ndarray and \
            g.__class__ is np.ndarray and total.ndim:
        operands = [(x.shape, layout.element_strides(x)) for x in (previous, g)]
        for shape, strides in operands:
            if shape == total.shape and layout.is_non_overlapping_and_dense(shape, strides) \
                    and min(strides) > 0:
                return layout.with_strides(total, strides)
        return layout.with_strides(total, layout.iterator_strides(total.shape, operands))
    return total


def _add_into(buffer: Any, g: Any) -> bool:
    """`buffer += g` when that is the same as `buffer + g` and no one else can see it: the
    buffer is a gradient array the engine alone holds (PyTorch's InputBuffer steals its
    buffer the same way). False, and nothing done, otherwise.

    The references to `buffer` are the ready buffers' entry, run_backward's `previous`, the
    parameter here and getrefcount's argument (and the pool of large arrays' list, where it
    came from there): one more (a hook that kept it, the same gradient sent along two edges, a
    view of it) means someone else holds it.
    """
    if (_COUNTED_REFERENCES and buffer.__class__ is np.ndarray and g.__class__ is np.ndarray
            and buffer.shape == g.shape and buffer.dtype == g.dtype and buffer.ndim > 0
            and (buffer.flags.owndata or layout.owns_memory(buffer)) and buffer.flags.writeable
            and sys.getrefcount(buffer) == 4 + buffers.holds(buffer)):
        elementwise(np.add, buffer, g, out=buffer)
        return True
    return False


def _accumulate_into(tensor: Tensor, grad: Any, create_graph: bool) -> None:
    if isinstance(grad, Tensor):
        new = grad if create_graph else Tensor._make(_owned_copy(grad._data), tensor.device)
    else:
        new = Tensor._make(_owned_copy(grad), tensor.device)
    if _Undo.log is not None:
        _Undo.log.record_grad(tensor)
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


def _run_output_hooks(node: Node, grads: list[Any], create_graph: bool) -> list[Any]:
    """A multi-output node's tensor hooks, in the order they were registered, each on its
    output's gradient (None for an output the backward did not reach), then retain_grad."""
    grads = list(grads)
    for entry in list(node.__dict__.get("hooks_by_slot", ())):
        grad = grads[entry.slot]
        if grad is None:
            _call_on_none(entry.hook)
        else:
            grads[entry.slot] = _hooks_then_retain(node, (entry.hook,), None, grad, create_graph)
    for slot, ref in node.__dict__.get("retained_by_slot", {}).items():
        if grads[slot] is not None:
            grads[slot] = _hooks_then_retain(node, (), ref, grads[slot], create_graph)
    return grads


def _hooks_on_nothing(node: Node, is_leaf_node: bool, create_graph: bool) -> Any:
    """The hooks of a node that backward reached with None only (a Function returned None for
    its edge): the tensor's hooks see None and may not replace it, retain_grad keeps nothing,
    the node's pre-hooks see (None, ...) and may replace it. The gradient they leave."""
    several = node.num_outputs != 1
    if several:
        if "hooks_by_slot" in node.__dict__:
            _run_output_hooks(node, [None] * node.num_outputs, create_graph)
    else:
        for hook in list((node.variable._hooks if is_leaf_node else node.pre_hooks) or ()):
            _call_on_none(hook)
    if not node.node_pre_hooks:
        return None
    grad = _run_node_pre_hooks(node, [None] * node.num_outputs if several else None,
                               create_graph)
    return None if several and all(g is None for g in grad) else grad


def _call_on_none(hook: Any) -> None:
    """A tensor hook on a gradient backward did not define: it sees None, and keeps it."""
    if hook(None) is not None:
        raise TorchRuntimeError("can't replace a None gradient with a non-None value")


def _or_nothing(node: Node, grad: Any) -> Any:
    """The gradient a node's call_backward takes: a list of Nones for a multi-output node that
    nothing reached."""
    return [None] * node.num_outputs if grad is None and node.num_outputs != 1 else grad


def _run_tensor_hooks(node: Node, grad: Any, create_graph: bool) -> Any:
    """Hooks registered on the tensor this node produced (or on the leaf), then retain_grad."""
    hooks = node.variable._hooks if isinstance(node, AccumulateGrad) else node.pre_hooks
    return _hooks_then_retain(node, hooks, node.retain_grad_ref, grad, create_graph)


def _hooks_then_retain(node: Node, hooks: Any, ref: Any, grad: Any, create_graph: bool) -> Any:
    if hooks:
        for hook in list(hooks):
            wrapped = grad if isinstance(grad, Tensor) else Tensor._make(grad, node.output_device)
            result = hook(wrapped)
            if result is not None:
                _check_hook_result(hook, wrapped, result)
                grad = result if create_graph or isinstance(grad, Tensor) else result._data
    if ref is not None:
        tensor = ref()
        if tensor is not None:
            if _Undo.log is not None:
                _Undo.log.record_grad(tensor)
            if isinstance(grad, Tensor):
                # grad.clone(contiguous_format) (CloneBackward0 under create_graph), or
                # .grad + grad
                tensor._grad = (grad.clone(memory_format="contiguous")  # type: ignore[attr-defined]
                                if tensor._grad is None else tensor._grad + grad)
            elif tensor._grad is None:
                tensor._grad = Tensor._make(_owned_copy(grad, "C"), tensor.device)
            else:
                tensor._grad = Tensor._make(tensor._grad._data + grad, tensor.device)
    return grad


def _as_tensors(grads: Any, device: str, create_graph: bool) -> tuple[Any, ...]:
    """Gradients as the hooks on a grad_fn see them: a tuple of Tensors (None kept)."""
    items = grads if isinstance(grads, (tuple, list)) else (grads,)
    return tuple(g if g is None or isinstance(g, Tensor) else Tensor._make(g, device)
                 for g in items)


def _unwrap(grads: tuple[Any, ...], like: Any, create_graph: bool) -> tuple[Any, ...]:
    """A hook's tuple of gradients back in the engine's form (arrays, unless under
    create_graph)."""
    return tuple(g._data if isinstance(g, Tensor) and not create_graph
                 and not isinstance(like, Tensor) else g for g in grads)


def _run_node_pre_hooks(node: Node, grad: Any, create_graph: bool) -> Any:
    """grad_fn.register_prehook: hook(grad_outputs); a tuple it returns replaces them."""
    several = node.num_outputs != 1
    for hook in list(node.node_pre_hooks):
        result = hook(_as_tensors(grad, node.output_device, create_graph))
        if result is not None:
            unwrapped = _unwrap(tuple(result), grad if not several else None, create_graph)
            grad = list(unwrapped) if several else unwrapped[0]
    return grad


def _run_node_post_hooks(node: Node, grads: tuple[Any, ...], grad: Any,
                         create_graph: bool) -> tuple[Any, ...]:
    """grad_fn.register_hook: hook(grad_inputs, grad_outputs) after the node ran; a tuple it
    returns replaces grad_inputs."""
    outputs = _as_tensors(grad, node.output_device, create_graph)
    for hook in list(node.post_hooks):
        inputs = _as_tensors(grads, node.output_device, create_graph) if grads else ()
        result = hook(inputs, outputs)
        if result is not None:
            like = next((g for g in grads if g is not None), None)
            grads = _unwrap(tuple(result), like, create_graph)
    return grads


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
    metas = getattr(node, "input_meta", None)
    if metas is not None and grad.__class__ is np.ndarray:  # the common case: a CPU array
        meta = metas[index]  # that fits
        if meta is None or (grad.shape == meta[0] and grad.dtype == meta[1].np
                            and meta[2] == "cpu"):
            return grad
    if isinstance(grad, np.generic):
        grad = np.asarray(grad)  # NumPy turns 0-d results into scalars; keep arrays
    meta = node.input_meta[index] if hasattr(node, "input_meta") else None
    if meta is None:
        return grad
    shape, dtype, device = meta
    if grad.shape != shape:
        if not expandable(shape, grad.shape):
            raise TorchRuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {index} - got "
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
            f"Function {node.name()} returned an invalid gradient at index {index} - expected "
            f"device {device} but got {got}"
        )
    return F.to_copy(grad, None, device)  # type: ignore[attr-defined]


def expandable(shape: Shape, to: Shape) -> bool:
    """Whether a tensor of `shape` expands to `to` (each size equal or 1, aligned right)."""
    if len(shape) > len(to):
        return False
    for a, b in zip(reversed(shape), reversed(to), strict=False):
        if a != b and a != 1:
            return False
    return True


# _plain_sweep, or the C fast path's copy of it (_fastpath_sweep.h), installed with the rest of
# the fast path (fastpath.enable)
plain_sweep: Callable[[_Sweep], None] = _plain_sweep
fastpath.install_sweep()
