"""`graph`: the tree (names, leaves, constants, shared nodes, saved-tensor states, limits), its
Graphviz pictures (DOT checked by parsing it, rendered where `dot` is installed), the `gradsh
graph` command and `graph x -o FILE` in a script."""

from __future__ import annotations

import gc
import io
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from gradsh import dot, graphcmd, graphview
from gradsh.engine import ops
from gradsh.interpreter import Interpreter
from gradsh.parser import parse
from gradsh.render import Renderer
from gradsh.runner import RunOptions, run_source

HAS_DOT = shutil.which("dot") is not None


def quiet(source: str, path: str = "t.grad") -> str:
    """What `gradsh run --quiet` shows, stdout and stderr together."""
    out = io.StringIO()
    run_source(source, path, RunOptions(mode="quiet"), out, out)
    return out.getvalue()


def interpreter(source: str, path: str = "t.grad") -> Interpreter:
    interp = Interpreter(path, source)
    for outcome in interp.run(parse(source, path)):
        assert outcome.ok, outcome.error
    return interp


def tree_text(target: Any, name: str, env: dict[str, Any], color: bool = False) -> str:
    out = io.StringIO()
    tree, notes = graphview.build(target, name, env)
    renderer = Renderer(out, out, color, 100)
    if color:  # as on a terminal
        renderer.out = Console(file=out, width=100, force_terminal=True, color_system="standard",
                               highlight=False, soft_wrap=True)
    renderer.tree(tree, notes)
    return out.getvalue()


ABC = """\
a = tensor(2.0, requires_grad=True)
b = tensor(3.0, requires_grad=True)
c = tensor(4.0)
m = a * b
s = m + c
y = s ** 2
graph y
"""


# -- the tree ---------------------------------------------------------------------------------


def test_tree_names_nodes_leaves_constants_and_saved_tensors() -> None:
    assert quiet(ABC) == """\
y = PowBackward0  saved: self = s (alive)
└── s = AddBackward0
    ├── m = MulBackward0  saved: other = b, self = a (alive)
    │   ├── AccumulateGrad  a  shape=[]  grad=None
    │   └── AccumulateGrad  b  shape=[]  grad=None
    └── None  (an input that requires no grad: no gradient flows to it)
"""


def test_freed_saved_tensors_name_the_backward_that_freed_them() -> None:
    text = quiet(ABC + "y.backward()\ngraph y\n")
    assert text.split("\n", 6)[6] == """\
y = PowBackward0  saved: self = s (freed by the backward at line 8)
└── s = AddBackward0
    ├── m = MulBackward0  saved: other = b, self = a (freed by the backward at line 8)
    │   ├── AccumulateGrad  a  shape=[]  grad=60.
    │   └── AccumulateGrad  b  shape=[]  grad=40.
    └── None  (an input that requires no grad: no gradient flows to it)
"""


def test_shared_nodes_are_shown_once_then_referenced() -> None:
    source = """\
x = tensor([1., 2.], requires_grad=True)
h = x * x
u = h.sin()
v = h.exp()
loss = (u + v).sum()
v.mul_(2)
graph loss
"""
    assert quiet(source) == """\
tensor([  5.4366, 109.1963], grad_fn=<MulBackward0>)
loss = SumBackward0
└── AddBackward0
    ├── u = SinBackward0  saved: self = h (alive)
    │   └── h = MulBackward0  #1  saved: other = x, self = x (alive)
    │       ├── AccumulateGrad  x  shape=[2]  grad=None  #2
    │       └── AccumulateGrad  x  #2 (shown above)
    └── ExpBackward0  saved: result = v (modified in place at line 6: version 1, saved at 0)
        └── h = MulBackward0  #1 (shown above)
"""


def test_retain_grad_and_hooks_are_marked() -> None:
    source = ("x = tensor(1., grad)\nh = x * 3\nh.retain_grad()\nk = h.register_hook(g -> g)\n"
              "graph h\n")
    assert quiet(source) == """\
h = MulBackward0  retains grad  1 hook  saved: other (alive)
├── AccumulateGrad  x  shape=[]  grad=None
└── None  (an input that requires no grad: no gradient flows to it)
"""


def test_tensors_without_a_graph_say_why() -> None:
    source = ("x = tensor([1., 2.], grad)\nw = tensor(3.)\nn = 2\nno_grad { v = x.view(2) }\n"
              "graph x\ngraph w\ngraph n\ngraph v\n")
    assert quiet(source) == """\
x is a leaf (grad_fn is None): backward ends at its AccumulateGrad  shape=[2]  grad=None
w does not require grad: autograd recorded no graph for it (grad_fn is None)
n is not a tensor (int): it has no backward graph
v has no grad_fn: it is a view made under no_grad, so no backward graph leads to it
"""


def test_graph_of_a_grad_fn_and_of_an_expression() -> None:
    text = quiet("x = tensor(1., grad)\ny = x.exp()\ngraph y.grad_fn\ngraph (y * 2)\n")
    assert text.splitlines() == [
        "y = ExpBackward0  saved: result = y (alive)",
        "└── AccumulateGrad  x  shape=[]  grad=None",
        "MulBackward0  saved: other (alive)",
        "├── y = ExpBackward0  saved: result = y (alive)",
        "│   └── AccumulateGrad  x  shape=[]  grad=None",
        "└── None  (an input that requires no grad: no gradient flows to it)",
    ]


def test_coloured_on_a_terminal_plain_when_piped() -> None:
    interp = interpreter(ABC.replace("graph y\n", ""))
    plain = tree_text(interp.env["y"], "y", interp.env)
    coloured = tree_text(interp.env["y"], "y", interp.env, color=True)
    assert "\x1b[" not in plain and "\x1b[" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured).split() == plain.split()


def test_long_labels_wrap_within_the_width() -> None:
    source = "x = tensor(1., grad)\nv = x\n" + "".join(
        f"v = v * x\nname_{i} = v\n" for i in range(20)) + "graph v\n"
    lines = quiet(source).splitlines()
    assert max(len(line) for line in lines) <= 100
    assert lines[0].startswith("name_19, v = MulBackward0") or "= MulBackward0" in lines[1]


def test_breadth_limit_counts_what_is_not_shown() -> None:
    leaves = {f"x{i}": ops.tensor(float(i), requires_grad=True) for i in range(200)}
    total = ops.stack(list(leaves.values()))
    text = tree_text(total, "total", {**leaves, "total": total})
    lines = text.splitlines()
    assert lines[0] == "total = StackBackward0"
    assert len(lines) == graphview.MAX_NODES + 2  # the shown nodes, "...", the note
    assert lines[-2] == "└── ..."
    assert lines[-1] == "... 51 more nodes not shown (the tree shows 150 nodes)"


def test_a_variable_below_the_cut_is_suggested() -> None:
    x = ops.tensor(1.0, requires_grad=True)
    y = x
    env: dict[str, Any] = {"x": x}
    for i in range(40):
        y = -y
        if i == 5:
            env["mid"] = y
    env["y"] = y
    text = tree_text(y, "y", env)
    assert text.endswith("... 28 more nodes not shown (it stops 12 levels down); `graph mid` "
                         "shows more\n")


def test_a_million_node_chain_is_cut_at_once_without_recursion() -> None:
    x = ops.tensor([1.0, -2.0], requires_grad=True)
    gc.disable()  # millions of live graph objects: the cyclic collector would dominate
    limit = sys.getrecursionlimit()
    try:
        y = x
        for _ in range(1_000_000):
            y = y.neg()
        env = {"x": x, "y": y}
        sys.setrecursionlimit(200)  # nothing below may recurse over the graph's depth
        start = time.perf_counter()
        text = tree_text(y, "y", env)
        tree_seconds = time.perf_counter() - start
        start = time.perf_counter()
        source = dot.dot_source(y, "y", env)
        dot_seconds = time.perf_counter() - start
    finally:
        sys.setrecursionlimit(limit)
        del y, env
        gc.enable()
    lines = text.splitlines()
    assert lines[0] == "y = NegBackward0"
    assert len(lines) == 1 + graphview.MAX_DEPTH + 2  # root, 12 levels, "...", the note
    assert lines[-2].strip().endswith("└── ...")
    assert lines[-1] == "... 999,988 more nodes not shown (it stops 12 levels down)"
    assert tree_seconds < 10 and dot_seconds < 10
    assert 'label="999,701 more nodes not shown"' in source


def test_where_quotes_the_statement_in_the_shell() -> None:
    program = parse("y = x * x", "<shell>")
    stmt = program.body[0]
    assert graphview.where(stmt, "t.grad") == "at line 1"
    assert graphview.where(stmt, "<shell>") == "in `y = x * x`"
    assert graphview.where(stmt, "<shell>", "zh") == "在 `y = x * x` 中"
    assert graphview.where(None, "t.grad") is None


# -- DOT ----------------------------------------------------------------------------------------

_STATEMENT = re.compile(
    r'^\t(?P<a>[\w]+)(?: -> (?P<b>[\w]+))? ?(?:\[(?P<attrs>.*)\])?$', re.S)
_ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s"]+)')


Attributes = dict[str, str]


def parse_dot(source: str) -> tuple[dict[str, Attributes], list[tuple[str, str, Attributes]]]:
    """A small parser for the DOT the graphviz package writes: one statement per line (labels
    may span lines), `id [attrs]` or `a -> b [attrs]`. Returns nodes and edges."""
    assert source.startswith("digraph ") and source.rstrip().endswith("}")
    body = source[source.index("{") + 1: source.rstrip().rindex("}")]
    statements: list[str] = []
    for line in body.split("\n"):
        if statements and statements[-1].count('"') % 2 == 1:
            statements[-1] += "\n" + line  # inside a quoted label
        elif line.strip():
            statements.append(line)
    nodes: dict[str, dict[str, str]] = {}
    edges: list[tuple[str, str, dict[str, str]]] = []
    for statement in statements:
        if statement.strip().startswith(("graph [", "node [")) or "=" in statement.split("[")[0]:
            continue  # default attributes, graph attributes
        match = _STATEMENT.match(statement)
        assert match, f"not a DOT statement: {statement!r}"
        attrs = {k: v.strip('"') for k, v in _ATTR.findall(match["attrs"] or "")}
        if match["b"]:
            edges.append((match["a"], match["b"], attrs))
        else:
            nodes[match["a"]] = attrs
    for a, b, _ in edges:
        assert a in nodes and b in nodes, f"edge {a} -> {b} to an undeclared node"
    return nodes, edges


PICTURE = """\
a = tensor(2.0, requires_grad=True)
b = tensor([1., 2., 3.], requires_grad=True)
c = tensor(4.0)
m = a * b
m.retain_grad()
s = m + c
y = (s ** 2).sum()
y.backward(retain_graph=True)
k = m.exp()
q = k.sum()
q.backward()
e = b.sigmoid()
e.mul_(2)
"""


def test_dot_follows_torchviz_and_adds_names_values_and_states() -> None:
    interp = interpreter(PICTURE)
    nodes, edges = parse_dot(dot.dot_source(interp.env["y"], "y", interp.env, "t.grad"))
    assert nodes["out"]["fillcolor"] == "darkolivegreen1"
    assert nodes["out"]["label"].split("\n") == ["y", "()", "value 200."]
    labels = {attrs["label"].split("\n")[0]: (name, attrs) for name, attrs in nodes.items()}
    # grad_fn nodes: the class name, after the variables holding the output; default fill
    assert "fillcolor" not in labels["y = SumBackward0"][1]
    assert labels["m = MulBackward0"][1]["label"] == "m = MulBackward0\nretains grad"
    assert "PowBackward0" in labels
    # leaves: light blue, with value and grad, feeding their AccumulateGrad
    leaf_name, leaf = labels["b"]
    assert leaf["fillcolor"] == "lightblue"
    assert leaf["label"].split("\n")[1:] == ["(3)", "value [1., 2., 3.]",
                                             "grad [ 38.7781, 141.1963, 846.8576]"]  # as torch
    (target,) = [b for a, b, _ in edges if a == leaf_name]
    assert nodes[target]["label"] == "AccumulateGrad"
    # saved tensors: orange while alive, grey and dashed once freed, hanging from their node
    _, alive = labels["self = s"]
    assert alive["fillcolor"] == "orange" and alive["label"].endswith("value [ 6.,  8., 10.]")
    _, freed = labels["self = a"]
    assert freed["fillcolor"] == "gray90" and "dashed" in freed["style"]
    assert freed["label"].endswith("freed by the backward at line 11")
    saved_edges = [attrs for _, b, attrs in edges if nodes[b].get("fillcolor") in
                   ("orange", "gray90")]
    assert saved_edges and all(attrs["dir"] == "none" for attrs in saved_edges)
    # arrows run from inputs to the node that used them; constants are left out
    assert ("n1", "out") in [(a, b) for a, b, _ in edges]
    assert not any("None" in attrs.get("label", "") for attrs in nodes.values())


def test_dot_outlines_a_saved_tensor_modified_in_place() -> None:
    interp = interpreter(PICTURE)
    nodes, _ = parse_dot(dot.dot_source(interp.env["e"], "e", interp.env, "t.grad"))
    (modified,) = [a for a in nodes.values() if a.get("color") == "red"]
    assert modified["fillcolor"] == "orange"
    assert modified["label"].split("\n")[2:] == ["modified in place at line 13",
                                                 "version 1, saved at 0"]


def test_dot_of_a_shared_node_has_one_node_and_two_edges() -> None:
    interp = interpreter("x = tensor(1., grad)\ny = x * x\n")
    nodes, edges = parse_dot(dot.dot_source(interp.env["y"], "y", interp.env))
    accumulate = [n for n, a in nodes.items() if a["label"] == "AccumulateGrad"]
    assert len(accumulate) == 1
    assert [(a, b) for a, b, _ in edges].count((accumulate[0], "n1")) == 2


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot program is not installed")
def test_dot_renders_with_graphviz() -> None:
    interp = interpreter(PICTURE)
    for name in ("y", "q", "e", "a", "c"):
        source = dot.dot_source(interp.env[name], name, interp.env)
        run = subprocess.run(["dot", "-Tsvg"], input=source, capture_output=True, text=True)
        assert run.returncode == 0 and "<svg" in run.stdout, run.stderr
        assert "Warning" not in run.stderr and "Error" not in run.stderr


def test_pydot_parses_the_dot_where_installed() -> None:
    pydot = pytest.importorskip("pydot", reason="pydot is not installed (optional)")
    interp = interpreter(PICTURE)
    (graph,) = pydot.graph_from_dot_data(dot.dot_source(interp.env["y"], "y", interp.env))
    assert graph.get_node("out")


# -- writing files ------------------------------------------------------------------------------


def test_graph_o_writes_dot_in_a_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = quiet('x = tensor(1., grad)\ny = x * x\ngraph y -o "y.dot"\n')
    assert text == "wrote the graph of y to y.dot\n"
    parse_dot((tmp_path / "y.dot").read_text())


def test_graph_o_rejects_unknown_formats_at_the_file_name(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = quiet('x = tensor(1., grad)\ngraph x -o "x.txt"\n')
    assert text.splitlines() == [
        "t.grad:2:12: ValueError: cannot write '.txt' files: name a .dot, .svg or .png file",
        '    graph x -o "x.txt"',
        "               ^^^^^^^",
    ]


def test_without_dot_a_picture_fails_clearly_and_the_dot_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    text = quiet('x = tensor(1., grad)\ny = x * x\ngraph y -o "y.svg"\n')
    assert text.splitlines() == [
        "t.grad:3:12: ExecutableNotFound: cannot render y.svg: Graphviz's dot program is not "
        "installed; wrote the graph to y.dot instead",
        '    graph y -o "y.svg"',
        "               ^^^^^^^",
        "hint: install Graphviz to render pictures (apt-get install graphviz, brew install "
        "graphviz, conda install graphviz, or https://graphviz.org/download/), then run: "
        "dot -Tsvg y.dot -o y.svg",
    ]
    assert not (tmp_path / "y.svg").exists()
    parse_dot((tmp_path / "y.dot").read_text())


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot program is not installed")
def test_pictures_are_rendered_with_dot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = quiet('x = tensor(1., grad)\ny = x * x\ngraph y -o "y.svg"\ngraph y -o "y.png"\n')
    assert text == "wrote the graph of y to y.svg\nwrote the graph of y to y.png\n"
    assert "<svg" in (tmp_path / "y.svg").read_text()
    assert (tmp_path / "y.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


# -- gradsh graph FILE VAR -o OUT --------------------------------------------------------------


def graph_command(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = graphcmd.cli_main(list(args))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    finally:
        sys.stdout, sys.stderr = stdout, stderr
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "s.grad"
    path.write_text("x = tensor([1., 2.], grad)\ny = (x * x).sum()\nprint(y)\nn = 3\n")
    return path


def test_command_writes_dot(script: Path) -> None:
    code, out, err = graph_command("s.grad", "y", "-o", "y.dot")
    assert (code, out, err) == (0, "wrote the graph of y to y.dot\n", "")
    nodes, _ = parse_dot((script.parent / "y.dot").read_text())
    assert nodes["out"]["label"].startswith("y\n()")


def test_command_without_o_prints_dot(script: Path) -> None:
    code, out, err = graph_command("s.grad", "y")
    assert code == 0 and err == ""
    parse_dot(out)  # the script's own print is not mixed in


def test_command_without_dot_exits_1_after_writing_the_dot(
        script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    code, out, err = graph_command("s.grad", "y", "-o", "y.png")
    assert code == 1 and out == ""
    assert err.startswith("gradsh graph: ExecutableNotFound: cannot render y.png: Graphviz's "
                          "dot program is not installed; wrote the graph to y.dot instead\n"
                          "hint: install Graphviz")
    assert (script.parent / "y.dot").exists() and not (script.parent / "y.png").exists()


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot program is not installed")
def test_command_renders_svg(script: Path) -> None:
    code, out, _ = graph_command("s.grad", "y", "-o", "y.svg")
    assert code == 0 and "<svg" in (script.parent / "y.svg").read_text()


@pytest.mark.parametrize("args, code, message", [
    (("s.grad", "nope"), 2, "gradsh: error: s.grad defines no variable 'nope'\n"),
    (("s.grad", "n"), 2, "gradsh graph: TypeError: n is not a tensor (int), so it has no "
                         "backward graph\n"),
    (("s.grad", "y", "-o", "y.pdf"), 2, "gradsh: error: cannot write y.pdf: name a .dot, .svg "
                                        "or .png file\n"),
    (("missing.grad", "y"), 2, "gradsh: error: no such file: missing.grad\n"),
])
def test_command_usage_errors(script: Path, args: tuple[str, ...], code: int,
                              message: str) -> None:
    assert graph_command(*args) == (code, "", message)


def test_command_script_errors_exit_1(script: Path) -> None:
    script.write_text("x = tensor(1., grad)\ny = x * undefined\n")
    code, out, err = graph_command("s.grad", "x")
    assert code == 1 and out == "" and "NameError: name 'undefined' is not defined" in err
    code, out, err = graph_command("s.grad", "x", "--keep-going")
    assert code == 1 and out.startswith("digraph x {")


def test_cli_routes_graph_to_the_command(script: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "gradsh", "graph", "s.grad", "y", "-o", "y.dot"],
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == "wrote the graph of y to y.dot\n"
