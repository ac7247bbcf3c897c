"""The backward graph of a tensor as plain nested data, for the `graph` statement.

A node is `((text, style), children)`. The walk mirrors `grad_fn.next_functions`, names each
node after the variables holding its output, shows leaves as AccumulateGrad with the leaf's
name, shape and grad, and prints a node reached a second time as a reference, so a DAG stays a
DAG. The walk is iterative and stops after MAX_NODES nodes.
"""

from __future__ import annotations

from typing import Any

from gradsh.engine.tensor import AccumulateGrad, Node, SavedTensor, Tensor

MAX_NODES = 200
MAX_DEPTH = 16  # deeper chains are cut, each tree level costs 4 columns

Label = tuple[str, str]
TreeData = tuple[Label, list[Any]]


def _names_by_node(env: dict[str, Any]) -> dict[int, list[str]]:
    names: dict[int, list[str]] = {}
    for name, value in env.items():
        if isinstance(value, Tensor):
            fn = value.grad_fn
            if fn is not None:
                names.setdefault(id(fn), []).append(name)
    return names


def _leaf_names(env: dict[str, Any]) -> dict[int, list[str]]:
    names: dict[int, list[str]] = {}
    for name, value in env.items():
        if isinstance(value, Tensor):
            names.setdefault(id(value), []).append(name)
    return names


def _saved_text(saved: dict[str, SavedTensor]) -> str:
    if not saved:
        return ""
    parts = []
    for name, s in saved.items():
        if s.released:
            state = "freed"
        elif s.is_stale:
            state = f"modified in place: version {s._counter.value}, saved at {s.version}"
        else:
            state = "alive"
        parts.append(f"{name} ({state})")
    return "  saved: " + ", ".join(parts)


def build(target: Any, target_name: str, env: dict[str, Any]) -> TreeData:
    """The tree for `graph target`."""
    if isinstance(target, Tensor):
        fn = target.grad_fn
        if fn is None:
            kind = "a leaf that requires grad" if target.requires_grad else "a leaf (no grad)"
            return ((f"{target_name}: {kind}, no grad_fn", "cyan"), [])
        root: Node = fn
    elif isinstance(target, Node):
        root = target
    else:
        return ((f"{target_name} is not a tensor", "red"), [])

    by_node = _names_by_node(env)
    by_tensor = _leaf_names(env)
    numbers: dict[int, int] = {}
    count = 0

    def label(node: Node) -> Label:
        if isinstance(node, AccumulateGrad):
            leaf = node.variable
            names = ", ".join(by_tensor.get(id(leaf), [])) or "(unnamed leaf)"
            grad = leaf.peek_grad()
            grad_text = "None" if grad is None else _short(grad)
            shape = list(leaf.shape)
            return (f"AccumulateGrad  {names}  shape={shape}  grad={grad_text}", "cyan")
        holders = by_node.get(id(node))
        prefix = f"{', '.join(holders)} = " if holders else ""
        return (f"{prefix}{node.name}{_saved_text(node.saved_tensors)}", "green")

    root_children: list[Any] = []
    numbers[id(root)] = 1
    count = 1
    truncated = 0
    # Pre-order, iteratively: numbers follow the printed order, so "see #n above" is above.
    stack: list[tuple[list[Any], Any]] = [(root_children, iter(root.next_functions))]
    while stack:
        children, edges = stack[-1]
        edge = next(edges, None)
        if edge is None:
            stack.pop()
            continue
        child = edge[0]
        if child is None:
            children.append((("None (no gradient flows here)", "dim"), []))
            continue
        if id(child) in numbers:
            children.append(((f"(see {child.name} #{numbers[id(child)]} above)", "dim"), []))
            continue
        if count >= MAX_NODES:
            truncated += 1
            continue
        count += 1
        numbers[id(child)] = count
        text, style = label(child)
        grandchildren: list[Any] = []
        children.append(((f"{text}  #{count}", style), grandchildren))
        if len(stack) >= MAX_DEPTH and child.next_functions:
            grandchildren.append((("... (deeper nodes not shown)", "dim"), []))
            continue
        stack.append((grandchildren, iter(child.next_functions)))
    if truncated:
        root_children.append(((f"... {truncated} more nodes not shown", "dim"), []))
    text, style = label(root)
    return ((f"{text}  #1", style), root_children)


def _short(t: Tensor) -> str:
    from gradsh.engine.tensor_str import PrintOptions, format_values
    from gradsh.snapshot import to_host

    return format_values(to_host(t._data), t.dtype,
                         PrintOptions(threshold=6, edgeitems=2, linewidth=60)).replace("\n", "")
