"""Graphviz pictures of a backward graph: DOT text, and SVG or PNG through the `dot` program.

The picture follows torchviz's conventions, so it reads like the ones in PyTorch tutorials:
grad_fn nodes are grey boxes named by their class, the output tensor is green, leaves that
require grad are light blue and feed their AccumulateGrad, saved tensors are orange and hang
from the node that saved them, arrows run from inputs to the node that used them, and inputs
that need no gradient are left out. What torchviz lacks is added: variable names, the values
and grads of small tensors, freed saved tensors greyed out with the backward that freed them,
and saved tensors modified in place outlined in red. The data comes from gradsh.graphview.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from gradsh import graphview
from gradsh.engine.tensor import Node, Tensor
from gradsh.errors import GradshError
from gradsh.graphview import FREED, HIDDEN, MODIFIED, GraphInfo, NodeInfo, SavedInfo, TensorInfo

FORMATS = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".png": "png"}
MAX_NODES = 300  # beyond that a picture is unreadable anyway; the rest is counted in a note

OUTPUT_COLOR = "darkolivegreen1"  # torchviz's colours
LEAF_COLOR = "lightblue"
SAVED_COLOR = "orange"
FREED_COLOR = "gray90"

INSTALL_GRAPHVIZ = ("install Graphviz to render pictures (apt-get install graphviz, brew install "
                    "graphviz, conda install graphviz, or https://graphviz.org/download/)")


def digraph(info: GraphInfo, path: str = "<input>") -> Any:
    """The graphviz.Digraph of a collected graph (see graphview.collect)."""
    import graphviz

    node_attr = {"style": "filled", "shape": "box", "align": "left", "fontsize": "10",
                 "ranksep": "0.1", "height": "0.2", "fontname": "monospace"}
    dot = graphviz.Digraph(name=info.name, node_attr=node_attr,
                           graph_attr={"size": "12,12"})

    def node(node_id: str, lines: list[str], **attrs: str) -> None:
        dot.node(node_id, graphviz.nohtml("\n".join(_clean(line) for line in lines)), **attrs)

    if info.tensor is not None:
        lines = _tensor_lines(info.tensor)
        if info.kind == "no_grad":
            lines.append("requires_grad=False: no graph")
        elif info.kind == "leaf":
            lines.append("a leaf: grad_fn is None")
        node("out", lines, fillcolor=OUTPUT_COLOR)
    for number, item in info.nodes.items():
        _add_node(dot, node, number, item, path)
    if info.root is not None and info.tensor is not None:
        dot.edge(f"n{info.root}", "out")
    if info.hidden:
        more = graphview.count_text(info.hidden, info.hidden_more)
        dot.attr(label=f"{more} more node{'s' if info.hidden != 1 else ''} not shown",
                 labelloc="b", fontsize="10", fontname="monospace")
    # torchviz's resize_graph: a picture grows with what it holds
    size = max(12.0, len(dot.body) * 0.15)
    dot.graph_attr["size"] = f"{size:g},{size:g}"
    return dot


def _add_node(dot: Any, node: Any, number: int, item: NodeInfo, path: str) -> None:
    me = f"n{number}"
    title = [f"{', '.join(item.holders)} = {item.name}" if item.holders else item.name]
    if item.retains_grad:
        title.append("retains grad")
    if item.hooks:
        title.append(f"{item.hooks} hook{'s' if item.hooks > 1 else ''}")
    node(me, title)
    if item.leaf is not None:
        node(f"v{number}", _tensor_lines(item.leaf), fillcolor=LEAF_COLOR)
        dot.edge(f"v{number}", me)
    for i, saved in enumerate(item.saved):
        saved_id = f"s{number}_{i}"
        lines = _saved_lines(saved, path)
        if saved.state == FREED:
            node(saved_id, lines, fillcolor=FREED_COLOR, color="gray60", fontcolor="gray45",
                 style="filled,dashed")
            dot.edge(me, saved_id, dir="none", style="dashed", color="gray60")
        elif saved.state == MODIFIED:
            node(saved_id, lines, fillcolor=SAVED_COLOR, color="red", penwidth="2")
            dot.edge(me, saved_id, dir="none", color="red")
        else:
            node(saved_id, lines, fillcolor=SAVED_COLOR)
            dot.edge(me, saved_id, dir="none")
    hidden = False
    for child in item.children:
        if child is None:
            continue  # an input that needs no gradient: torchviz leaves it out too
        if child == HIDDEN:
            if not hidden:
                hidden = True
                node(f"h{number}", ["..."], fillcolor="white", style="dashed")
                dot.edge(f"h{number}", me, style="dashed")
            continue
        dot.edge(f"n{child}", me)


def _tensor_lines(tensor: TensorInfo) -> list[str]:
    lines = [", ".join(tensor.names) or "(unnamed)", _size(tensor.shape)]
    if tensor.value is not None:
        lines.append("value " + graphview.short_values(tensor.value, tensor.dtype, 40))
    if tensor.grad is not None and tensor.grad_dtype is not None:
        lines.append("grad " + graphview.short_values(tensor.grad, tensor.grad_dtype, 40))
    return lines


def _saved_lines(saved: SavedInfo, path: str) -> list[str]:
    name = saved.name + (f" = {'/'.join(saved.holders)}" if saved.holders else "")
    lines = [name, _size(saved.shape)]
    if saved.state == FREED:
        place = graphview.where(saved.freed_at, path)
        lines.append("freed by the backward" + (f" {place}" if place else ""))
    elif saved.state == MODIFIED:
        place = graphview.where(saved.changed_at, path)
        lines.append("modified in place" + (f" {place}" if place else ""))
        lines.append(f"version {saved.version}, saved at {saved.saved_version}")
    elif saved.value is not None:
        lines.append("value " + graphview.short_values(saved.value, saved.dtype, 40))
    return lines


def _size(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ")"  # torchviz's size_to_str


def _clean(line: str) -> str:
    # A backslash would start a Graphviz escape (\n, \l); nothing gradsh shows needs one.
    return line.replace("\\", "/")


# ---------------------------------------------------------------------------------------------
# Writing files
# ---------------------------------------------------------------------------------------------


def dot_source(target: Any, name: str, env: dict[str, Any], path: str = "<input>") -> str:
    """The DOT text of `target`'s graph."""
    if not isinstance(target, (Tensor, Node)):
        raise GradshError("TypeError", f"{name} is not a tensor "
                          f"({type(target).__name__}), so it has no backward graph")
    info = graphview.collect(target, name, env, max_nodes=MAX_NODES, max_depth=MAX_NODES)
    return str(digraph(info, path).source)


def write_graph(target: Any, name: str, env: dict[str, Any], out: str,
                path: str = "<input>") -> None:
    """Write `target`'s graph to `out`: DOT for .dot/.gv, a picture for .svg/.png.

    Without the Graphviz `dot` program a picture cannot be made: the DOT text is written next
    to `out` (same name, .dot) and the error says so and how to install Graphviz.
    """
    suffix = Path(out).suffix.lower()
    fmt = FORMATS.get(suffix)
    if fmt is None:
        raise GradshError("ValueError", f"cannot write '{suffix or out}' files: "
                          "name a .dot, .svg or .png file")
    try:
        import graphviz  # noqa: F401  (only whether it is installed)
    except ImportError:
        raise GradshError("ModuleNotFoundError", "graph -o needs the graphviz Python package",
                          hint="hint: pip install graphviz") from None
    source = dot_source(target, name, env, path)
    if fmt == "dot":
        _write(out, source.encode("utf-8"))
        return
    picture = render(source, fmt, out)
    if picture is None:
        raise _no_dot(out, fmt, source)
    _write(out, picture)


def render(source: str, fmt: str, what: str = "the graph") -> bytes | None:
    """DOT text drawn by Graphviz's `dot` as `fmt` ("svg", "png"); None when `dot` is not
    installed. A drawing `dot` refuses raises, naming `what` was being drawn."""
    import graphviz

    if shutil.which(str(graphviz.DOT_BINARY)) is None:
        return None
    try:
        return bytes(graphviz.Source(source).pipe(format=fmt, quiet=True))
    except graphviz.ExecutableNotFound:
        return None
    except graphviz.CalledProcessError as err:
        detail = (err.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        raise GradshError("RuntimeError", f"Graphviz could not render {what}"
                          + (f": {detail[-1]}" if detail else "")) from None


def _no_dot(out: str, fmt: str, source: str) -> GradshError:
    fallback = str(Path(out).with_suffix(".dot"))
    _write(fallback, source.encode("utf-8"))
    return GradshError(
        "ExecutableNotFound",
        f"cannot render {out}: Graphviz's dot program is not installed; wrote the graph to "
        f"{fallback} instead",
        hint=f"hint: {INSTALL_GRAPHVIZ}, then run: dot -T{fmt} {fallback} -o {out}",
    )


def _write(out: str, data: bytes) -> None:
    try:
        with open(out, "wb") as f:
            f.write(data)
    except OSError as err:
        raise GradshError("OSError", f"cannot write {out}: {err.strerror}") from None
