"""The backward graph of a tensor as plain data, for `graph`, its pictures and `explain`.

`collect` walks `grad_fn.next_functions` from a tensor with an explicit stack, in pre-order, up
to a number of nodes and a depth, and describes every node it reaches: PyTorch's class name, the
variables holding its output, its saved tensors and their state (alive, freed by a backward,
modified in place since they were saved), and for AccumulateGrad the leaf with its shape and
grad. `tree` lays that out as the labelled tree `graph` prints: a node reached a second time is
a reference to its first appearance (a DAG stays a DAG), inputs that need no gradient (PyTorch's
`(None, 0)` edges) are dimmed lines, and what lies beyond the limits is counted and said, so a
graph a million nodes deep prints its top and a note. Engine objects stop here: the data this
module returns holds names, numbers, host arrays and origins, never tensors or nodes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gradsh.engine.dtypes import DType
from gradsh.engine.tensor import AccumulateGrad, Node, SavedTensor, Tensor
from gradsh.engine.tensor_str import PrintOptions, format_values
from gradsh.snapshot import to_host

MAX_NODES = 150  # nodes the `graph` tree shows
MAX_DEPTH = 12  # levels below the root it shows: each costs 4 columns of a 100-column line
WALK_LIMIT = 1_000_000  # nodes counted beyond the limits before "more than" is said
SMALL = 16  # tensors with at most this many elements have their values in pictures

HIDDEN = 0  # a child beyond the walk's limits (node numbers start at 1)

ALIVE, FREED, MODIFIED = "alive", "freed", "modified"

# ---------------------------------------------------------------------------------------------
# The data
# ---------------------------------------------------------------------------------------------


@dataclass
class SavedInfo:
    """One tensor a node saved for backward (PyTorch's `_saved_<name>`)."""

    name: str
    state: str  # ALIVE, FREED or MODIFIED
    holders: list[str]  # the variables holding it, or sharing its storage
    shape: tuple[int, ...]
    dtype: DType
    saved_version: int
    version: int  # the storage's version now
    saved_at: Any  # origins: where it was saved, last changed in place, freed
    changed_at: Any
    freed_at: Any
    value: np.ndarray | None  # its values now, when alive and small


@dataclass
class TensorInfo:
    """A tensor shown with its node: the leaf of an AccumulateGrad, or the graph's output."""

    names: list[str]
    shape: tuple[int, ...]
    dtype: DType
    requires_grad: bool
    value: np.ndarray | None  # when small
    grad: np.ndarray | None
    grad_dtype: DType | None


@dataclass
class NodeInfo:
    number: int
    name: str  # PyTorch's class name
    holders: list[str]  # the variables whose grad_fn it is
    saved: list[SavedInfo]
    children: list[int | None] = field(default_factory=list)  # next_functions: a node's
    # number, None for an input that needs no gradient, HIDDEN for one beyond the limits
    leaf: TensorInfo | None = None  # for AccumulateGrad
    retains_grad: bool = False
    hooks: int = 0


@dataclass
class GraphInfo:
    """What `graph NAME` shows. `kind` is "graph" (nodes from `root`), or, with no node to
    start from, "leaf" (a leaf that requires grad), "no_grad" or "not_tensor"."""

    name: str
    kind: str
    tensor: TensorInfo | None
    root: int | None
    nodes: dict[int, NodeInfo]  # in pre-order
    hidden: int = 0  # distinct nodes beyond the limits, counted up to WALK_LIMIT
    hidden_more: bool = False  # ... and there are more than that
    cut_by_depth: bool = False  # which limit cut the walk
    cut_by_count: bool = False
    names_beyond: list[str] = field(default_factory=list)  # variables on nodes not shown
    max_nodes: int = MAX_NODES
    max_depth: int = MAX_DEPTH
    type_name: str = ""  # for "not_tensor"


# ---------------------------------------------------------------------------------------------
# Walking the engine's graph
# ---------------------------------------------------------------------------------------------


class Names:
    """Which variables hold a tensor, a node's output, or share a storage's version counter."""

    def __init__(self, env: dict[str, Any]):
        self.by_tensor: dict[int, list[str]] = {}
        self.by_node: dict[int, list[str]] = {}
        self.by_counter: dict[int, list[str]] = {}
        for name, value in env.items():
            if isinstance(value, Tensor):
                self.by_tensor.setdefault(id(value), []).append(name)
                self.by_counter.setdefault(id(value._version_counter), []).append(name)
                fn = value.peek_grad_fn()
                if fn is not None:
                    self.by_node.setdefault(id(fn), []).append(name)

    def of_tensor(self, t: Tensor) -> list[str]:
        return self.by_tensor.get(id(t), [])

    def of_node(self, node: Node) -> list[str]:
        return self.by_node.get(id(node), [])

    def of_saved(self, saved: SavedTensor) -> list[str]:
        """The variable holding a saved tensor; once it is freed (or was an alias), the
        variables on its storage."""
        tensor = saved._tensor if saved._tensor is not None else (
            saved._weak() if saved._weak is not None else None)
        if tensor is not None and id(tensor) in self.by_tensor:
            return self.by_tensor[id(tensor)]
        return self.by_counter.get(id(saved._counter), [])


def walk(roots: Iterable[Node], limit: int = WALK_LIMIT,
         skip: Iterable[Node] = ()) -> Iterator[Node]:
    """Every node reachable from `roots` and not through `skip`, each once, at most `limit` of
    them (explicit stack)."""
    seen: set[Node] = set(skip)
    stack: list[Node] = []
    for root in roots:
        if root not in seen:
            seen.add(root)
            stack.append(root)
    count = 0
    while stack and count < limit:
        node = stack.pop()
        count += 1
        yield node
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)


def saved_state(saved: SavedTensor) -> str:
    if saved.released:
        return FREED
    if saved._counter.value != saved.version:
        return MODIFIED
    return ALIVE


def saved_info(name: str, saved: SavedTensor, names: Names) -> SavedInfo:
    state = saved_state(saved)
    value = None
    if state != FREED and _numel(saved.shape) <= SMALL:
        data = saved._data if saved.is_output else saved.peek_array()
        value = to_host(data) if data is not None else None
    return SavedInfo(
        name=name,
        state=state,
        holders=names.of_saved(saved),
        shape=tuple(saved.shape),
        dtype=saved.dtype,
        saved_version=saved.version,
        version=saved._counter.value,
        saved_at=getattr(saved, "origin", None),
        changed_at=getattr(saved._counter, "origin", None),
        freed_at=getattr(saved, "freed_origin", None),
        value=value,
    )


def tensor_info(t: Tensor, names: list[str]) -> TensorInfo:
    grad = t.peek_grad()
    small = t.numel() <= SMALL
    return TensorInfo(
        names=names,
        shape=tuple(t.shape),
        dtype=t.dtype,
        requires_grad=t.requires_grad,
        value=to_host(t._data) if small else None,
        grad=to_host(grad._data) if grad is not None else None,
        grad_dtype=grad.dtype if grad is not None else None,
    )


def node_info(node: Node, number: int, names: Names) -> NodeInfo:
    info = NodeInfo(
        number=number,
        name=node.node_name,
        holders=names.of_node(node),
        saved=[saved_info(n, s, names) for n, s in node.saved_records.items()],
    )
    if isinstance(node, AccumulateGrad):
        leaf = node.variable
        info.leaf = tensor_info(leaf, names.of_tensor(leaf))
        info.hooks = len(leaf._hooks or ())
    else:
        info.hooks = len(node.pre_hooks)
        ref = node.retain_grad_ref
        info.retains_grad = ref is not None and ref() is not None
    return info


def collect(target: Any, name: str, env: dict[str, Any], max_nodes: int = MAX_NODES,
            max_depth: int = MAX_DEPTH) -> GraphInfo:
    """The graph of `target` (a tensor or a grad_fn), walked in pre-order within the limits."""
    names = Names(env)
    tensor = None
    if isinstance(target, Tensor):
        tensor = tensor_info(target, names.of_tensor(target) or [name])
        root = target.grad_fn
        if root is None:
            kind = "leaf" if target._requires_grad else "no_grad"
            return GraphInfo(name, kind, tensor, None, {}, max_nodes=max_nodes,
                             max_depth=max_depth)
    elif isinstance(target, Node):
        root = target
    else:
        return GraphInfo(name, "not_tensor", None, None, {}, type_name=type(target).__name__)

    numbers: dict[Node, int] = {root: 1}
    nodes = {1: node_info(root, 1, names)}
    beyond: list[Node] = []
    cut_by_depth = cut_by_count = False
    stack: list[tuple[NodeInfo, int, Iterator[Any]]] = [(nodes[1], 0, iter(root.next_functions))]
    while stack:
        parent, depth, edges = stack[-1]
        edge = next(edges, None)
        if edge is None:
            stack.pop()
            continue
        child = edge[0]
        if child is None:
            parent.children.append(None)
            continue
        number = numbers.get(child)
        if number is not None:
            parent.children.append(number)
            continue
        if depth >= max_depth or len(numbers) >= max_nodes:
            parent.children.append(HIDDEN)
            beyond.append(child)
            if depth >= max_depth:
                cut_by_depth = True
            else:
                cut_by_count = True
            continue
        number = len(numbers) + 1
        numbers[child] = number
        nodes[number] = info = node_info(child, number, names)
        parent.children.append(number)
        stack.append((info, depth + 1, iter(child.next_functions)))

    hidden, more, names_beyond = _count_beyond(beyond, numbers, names)
    return GraphInfo(name, "graph", tensor, 1, nodes, hidden, more, cut_by_depth, cut_by_count,
                     names_beyond, max_nodes, max_depth)


def _count_beyond(frontier: list[Node], shown: dict[Node, int],
                  names: Names) -> tuple[int, bool, list[str]]:
    """How many distinct nodes lie beyond the shown ones (up to WALK_LIMIT), whether counting
    stopped there, and the first few variables holding their outputs."""
    if not frontier:
        return 0, False, []
    found: list[str] = []
    count = 0
    for node in walk(frontier, WALK_LIMIT + 1, skip=shown):
        if count == WALK_LIMIT:
            return count, True, found  # a node beyond the limit: counting stopped
        count += 1
        if len(found) < 3 and id(node) in names.by_node:
            found.extend(names.by_node[id(node)][: 3 - len(found)])
    return count, False, found


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


# ---------------------------------------------------------------------------------------------
# Words shared by the tree, the pictures and `explain`
# ---------------------------------------------------------------------------------------------


def where(origin: Any, path: str, lang: str = "en") -> str | None:
    """Where an origin (the statement the interpreter was running) is: "at line 12" in a script;
    in the shell, whose lines restart with every input, the statement itself."""
    pos = getattr(origin, "pos", None)
    source = getattr(origin, "source", None)
    if pos is None:
        return None
    if path == "<shell>" and source:
        text = source if "\n" not in source else source.splitlines()[0] + " ..."
        return f"在 `{text}` 中" if lang == "zh" else f"in `{text}`"
    return f"在第 {pos.line} 行" if lang == "zh" else f"at line {pos.line}"


def shape_text(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


def short_values(array: np.ndarray, dtype: DType, width: int = 60) -> str:
    """Values on one line, summarised with `...` past a few elements."""
    options = PrintOptions(threshold=6, edgeitems=2, linewidth=width)
    return " ".join(line.strip() for line in format_values(array, dtype, options).splitlines())


def grad_text(tensor: TensorInfo) -> str:
    if tensor.grad is None or tensor.grad_dtype is None:
        return "None"
    return short_values(tensor.grad, tensor.grad_dtype)


def saved_name(saved: SavedInfo) -> str:
    """`self = a`: PyTorch's name for the saved tensor, and the variable holding it."""
    return saved.name + (f" = {'/'.join(saved.holders)}" if saved.holders else "")


def saved_state_text(saved: SavedInfo, path: str) -> str:
    """`alive`, `freed by the backward at line 9`, `modified in place at line 5: ...`."""
    if saved.state == FREED:
        place = where(saved.freed_at, path)
        return "freed by the backward" + (f" {place}" if place else "")
    if saved.state == MODIFIED:
        place = where(saved.changed_at, path)
        return (f"modified in place{' ' + place if place else ''}: version {saved.version}, "
                f"saved at {saved.saved_version}")
    return ALIVE


def node_title(info: NodeInfo) -> str:
    """`m = MulBackward0`, or `AccumulateGrad  a` for a leaf."""
    if info.leaf is not None:
        return f"{info.name}  {', '.join(info.leaf.names) or '(unnamed leaf)'}"
    if info.holders:
        return f"{', '.join(info.holders)} = {info.name}"
    return info.name


def count_text(count: int, more: bool) -> str:
    return f"more than {count:,}" if more else f"{count:,}"


# ---------------------------------------------------------------------------------------------
# The tree `graph` prints
# ---------------------------------------------------------------------------------------------

Label = list[tuple[str, str]]  # (text, style) segments; styles apply on a terminal only
TreeData = tuple[Label, list[Any]]

_NAME = "bold"
_OP = "green"
_LEAF = "cyan"
_DIM = "dim"
_STATE_STYLES = {ALIVE: "green", FREED: "dim", MODIFIED: "bold red"}


def build(target: Any, target_name: str, env: dict[str, Any],
          path: str = "<input>") -> tuple[TreeData, list[Label]]:
    """The tree for `graph target`, and the notes printed under it."""
    info = collect(target, target_name, env)
    return tree(info, path), notes(info)


def tree(info: GraphInfo, path: str = "<input>") -> TreeData:
    if info.kind != "graph":
        return (_no_graph_label(info), [])
    assert info.root is not None
    appearances: dict[int, int] = {info.root: 1}
    for node in info.nodes.values():
        for child in node.children:
            if child:
                appearances[child] = appearances.get(child, 0) + 1
    tags: dict[int, int] = {}
    for number in info.nodes:  # pre-order, so tags count up down the page
        if appearances.get(number, 0) > 1:
            tags[number] = len(tags) + 1

    shown = {info.root}
    root_children: list[TreeData] = []
    stack: list[tuple[list[TreeData], Iterator[int | None], list[bool]]] = [
        (root_children, iter(info.nodes[info.root].children), [False])
    ]
    while stack:
        out, children, cut = stack[-1]
        child = next(children, -1)
        if child == -1:
            stack.pop()
            continue
        if child is None:
            out.append(([("None", _DIM), ("  (an input that requires no grad: no gradient "
                                          "flows to it)", _DIM)], []))
        elif child == HIDDEN:
            if not cut[0]:
                cut[0] = True
                out.append(([("...", _DIM)], []))
        elif child in shown:
            node = info.nodes[child]
            out.append(([(node_title(node), _DIM), (f"  #{tags[child]} (shown above)", _DIM)],
                        []))
        else:
            shown.add(child)
            grandchildren: list[TreeData] = []
            out.append((_node_label(info.nodes[child], tags.get(child), path), grandchildren))
            stack.append((grandchildren, iter(info.nodes[child].children), [False]))
    return (_node_label(info.nodes[info.root], tags.get(info.root), path), root_children)


def notes(info: GraphInfo) -> list[Label]:
    """What the tree leaves out: the nodes beyond its limits, counted."""
    if not info.hidden:
        return []
    why = []
    if info.cut_by_count:
        why.append(f"the tree shows {info.max_nodes} nodes")
    if info.cut_by_depth:
        why.append(f"it stops {info.max_depth} levels down")
    plural = "s" if info.hidden != 1 or info.hidden_more else ""
    note = f"... {count_text(info.hidden, info.hidden_more)} more node{plural} not shown"
    note += f" ({' and '.join(why)})" if why else ""
    if info.names_beyond:
        note += f"; `graph {info.names_beyond[0]}` shows more"
    return [[(note, _DIM)]]


def _node_label(node: NodeInfo, tag: int | None, path: str) -> Label:
    label: Label = []
    if node.leaf is not None:
        leaf = node.leaf
        label.append((node.name, _LEAF))
        label.append(("  " + (", ".join(leaf.names) or "(unnamed leaf)"), _NAME))
        label.append((f"  shape={shape_text(leaf.shape)}  grad={grad_text(leaf)}", ""))
    else:
        if node.holders:
            label.append((", ".join(node.holders), _NAME))
            label.append((" = ", ""))
        label.append((node.name, _OP))
    if tag is not None:
        label.append((f"  #{tag}", _DIM))
    if node.retains_grad:
        label.append(("  retains grad", "yellow"))
    if node.hooks:
        label.append((f"  {node.hooks} hook{'s' if node.hooks > 1 else ''}", "yellow"))
    if node.saved:
        # `saved: other = b, self = a (alive)`: neighbours in the same state share the words
        label.append(("  saved: ", _DIM))
        states = [saved_state_text(saved, path) for saved in node.saved]
        for i, saved in enumerate(node.saved):
            style = _STATE_STYLES[saved.state]
            label.append((saved_name(saved), style))
            if i + 1 == len(node.saved) or states[i + 1] != states[i]:
                label.append((f" ({states[i]})", style))
            if i + 1 < len(node.saved):
                label.append((", ", ""))
    return label


def _no_graph_label(info: GraphInfo) -> Label:
    name = info.name
    if info.kind == "not_tensor":
        return [(f"{name} is not a tensor ({info.type_name}): it has no backward graph", "red")]
    tensor = info.tensor
    assert tensor is not None
    if info.kind == "leaf":
        return [(name, _NAME), (" is a leaf (grad_fn is None): backward ends at its ", ""),
                ("AccumulateGrad", _LEAF),
                (f"  shape={shape_text(tensor.shape)}  grad={grad_text(tensor)}", "")]
    if tensor.requires_grad:  # a view made under no_grad of a tensor that requires grad
        return [(name, _NAME), (" has no grad_fn: it is a view made under no_grad, so no "
                                "backward graph leads to it", _DIM)]
    return [(name, _NAME), (" does not require grad: autograd recorded no graph for it "
                            "(grad_fn is None)", _DIM)]
