"""gradsh in Jupyter: the HTML table and its marks, the graph and explanation views, and
`%load_ext gradsh` in a real IPython kernel (nbclient): the HTML tables after Python and
%%gradsh cells, %gradsh's settings, SVG graphs, errors with gradsh's hints."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest

from gradsh import snapshot
from gradsh.interpreter import Interpreter
from gradsh.parser import parse
from gradsh.render_html import GraphView, Tables, TextView, mimebundle
from nbrun import TOUR, code_notebook, data, error, execute, kernel_env, normalised, parse_table
from nbrun import stream
from nbrun import tables as tables_of


def states(source: str, interp: Interpreter | None = None) -> tuple[list[Any], Interpreter]:
    interp = interp or Interpreter("t.grad")
    for outcome in interp.run(parse(source, "t.grad")):
        assert outcome.ok, outcome.error
    return snapshot.take(interp.env), interp


# ---------------------------------------------------------------------------------------------
# The views, without Jupyter
# ---------------------------------------------------------------------------------------------


def test_table_html_has_the_columns_and_marks_what_the_step_changed() -> None:
    tables = Tables()
    first, interp = states("a = tensor(2.0, grad)\nb = tensor([1., 2.], dtype=float64)\n"
                           "c = a * a * 5")
    view = tables.view(first)
    assert view is not None
    table = parse_table(view._repr_html_())
    assert table.columns == ["name", "value", "shape", "dtype", "device", "requires_grad",
                             "is_leaf", "grad_fn", "retains_grad", "grad"]
    assert table.rows["a"] == {"name": "a", "value": "2.", "shape": "[]", "dtype": "float32",
                               "device": "cpu", "requires_grad": "True", "is_leaf": "True",
                               "grad_fn": "None", "retains_grad": "False", "grad": "None"}
    assert table.rows["b"]["value"] == "[1., 2.]" and table.rows["b"]["dtype"] == "float64"
    assert table.rows["c"]["grad_fn"] == "MulBackward0" and table.rows["c"]["is_leaf"] == "False"
    assert len(table.changed) == 30  # three new rows: every cell is news

    second, _ = states("c.backward()", interp)
    table = parse_table(tables.view(second)._repr_html_())
    assert table.changed == {("a", "grad")}
    assert table.rows["a"]["grad"] == "20."  # d(5a^2)/da = 10a
    # the plain form, for consoles, marks the same cells with `*`
    plain = repr(tables.view(states("a.grad.zero_()", interp)[0]))
    assert plain.splitlines()[0].split() == table.columns
    assert plain.splitlines()[1].split() == ["a", "2.", "[]", "float32", "cpu", "True", "True",
                                             "None", "False", "0.*"]


def test_table_html_escapes_and_keeps_multi_line_values() -> None:
    view = Tables().view(states("m = tensor([[1., 2.], [3., 4.]])")[0])
    html = view._repr_html_()
    assert "[[1., 2.],\n [3., 4.]]" in html  # PyTorch's layout, one row a line
    assert "white-space:pre" in html
    first = Tables().view(states("x = tensor([1.0, 2.0]) < tensor([2.0, 1.0])")[0])
    assert "&lt;" not in first._repr_html_()  # values never carry markup, but names might
    row = parse_table(first._repr_html_()).rows["x"]
    assert row["value"] == "[ True, False]" and row["dtype"] == "bool"


def test_large_tensors_are_summarised_as_pytorch_does() -> None:
    view = Tables().view(states("big = arange(1000.)")[0])
    value = parse_table(view._repr_html_()).rows["big"]["value"]
    assert value == "[  0.,   1.,   2.,  ..., 997., 998., 999.]"


def test_table_settings_after_a_step() -> None:
    tables = Tables()
    before, interp = states("a = tensor(2.0, grad)\nb = tensor(3.0)")
    assert parse_table(tables.after_step(before)._repr_html_()).rows.keys() == {"a", "b"}
    # nothing changed: "on" shows the table again, unmarked; after an error, nothing
    again = tables.after_step(before)
    assert again is not None and not parse_table(again._repr_html_()).changed
    assert tables.after_step(before, only_changes=True) is None
    tables.mode = "changed"
    assert tables.after_step(before) is None
    after, _ = states("b = b * 2", interp)
    only = parse_table(tables.after_step(after)._repr_html_())
    assert only.rows.keys() == {"b"} and ("b", "value") in only.changed
    tables.mode = "off"
    unseen, _ = states("a.requires_grad_(False)", interp)
    assert tables.after_step(unseen) is None
    tables.mode = "on"  # what changed while the table was off was remembered, not news now
    shown = parse_table(tables.after_step(unseen)._repr_html_())
    assert shown.changed == set()


def test_graph_view_is_svg_with_graphviz_and_the_tree_without() -> None:
    without = GraphView("d = MulBackward0\n└── None\n", lambda: None)
    assert without._repr_svg_() is None
    assert without._repr_html_() == ('<pre class="gradsh-tree" style="line-height:1.25">'
                                     "d = MulBackward0\n└── None\n</pre>")
    assert set(mimebundle(without)) == {"text/plain", "text/html"}
    drawn = []
    with_picture = GraphView("tree", lambda: drawn.append(1) or "<svg/>")
    assert mimebundle(with_picture) == {"text/plain": "tree", "image/svg+xml": "<svg/>"}
    assert drawn == [1]  # drawn once, however many formats are asked for


def test_graph_view_draws_the_dot_picture(graphviz_dot: str) -> None:
    from gradsh import dot, graphview
    from gradsh.notebook import graph_view

    _, interp = states("a = tensor(2.0, grad)\nc = a * a * 5")
    tree, notes = graphview.build(interp.env["c"], "c", interp.env)
    view = graph_view(tree, notes, lambda: dot.dot_source(interp.env["c"], "c", interp.env))
    svg = view._repr_svg_()
    assert svg is not None and "<svg" in svg
    assert ">c = MulBackward0<" in svg and ">AccumulateGrad<" in svg
    assert 'fill="lightblue"' in svg  # the leaf a, in torchviz's colour
    assert view._repr_html_() is None
    assert repr(view).startswith("c = MulBackward0")


def test_text_view_is_one_paragraph_per_sentence() -> None:
    view = TextView(["a < b is a leaf.", "It keeps its grad."], "plain")
    assert view._repr_html_() == ('<p style="margin:0 0 4px 0">a &lt; b is a leaf.</p>'
                                  '<p style="margin:0 0 4px 0">It keeps its grad.</p>')


def test_ipython_history_names_are_not_variables() -> None:
    from gradsh.notebook import visible

    namespace = {name: 1 for name in ("_", "__", "___", "_7", "_i", "_ii", "_i7", "_ih", "_oh",
                                      "In", "Out", "get_ipython", "exit", "quit", "x", "_x",
                                      "____", "Input")}
    assert sorted(visible(namespace)) == ["Input", "____", "_x", "x"]


def test_each_statement_of_a_cell_is_the_engines_origin() -> None:
    """The extension marks each top-level statement, so hints can name it; the cell's own text
    where its lines are known, and nothing before `from __future__` imports."""
    import ast
    from types import SimpleNamespace

    from gradsh.engine.tensor import set_origin
    from gradsh.notebook import _MarkOrigins

    cell = "from __future__ import annotations\nimport gradsh.torch as torch\n" \
           "a = torch.tensor(2.0, requires_grad=True)\nb = a*a\nb.backward()\nb.backward()"
    marker = _MarkOrigins(SimpleNamespace(cell_lines=cell.splitlines()))  # type: ignore[arg-type]
    code = compile(marker.visit(ast.parse(cell)), "<cell>", "exec")
    namespace: dict[str, Any] = {}
    with pytest.raises(RuntimeError, match="backward through the graph a second time") as info:
        exec(code, namespace)
    set_origin(None)
    from gradsh.explainer import error_hint

    hint = error_hint(info.value, {k: v for k, v in namespace.items() if k in "ab"}, "<shell>")
    assert hint is not None and "saved its tensors in `b = a*a`" in hint
    assert "the backward in `b.backward()` freed them" in hint


def test_gradsh_works_without_jupyter() -> None:
    """IPython is imported lazily: with it unimportable, gradsh (the notebook module too)
    imports and prints as before, and `gradsh kernel install` says what to install."""
    script = textwrap.dedent("""
        import sys
        for name in ("IPython", "ipykernel", "jupyter_client"):
            sys.modules[name] = None
        import gradsh, gradsh.notebook, gradsh.render_html
        import gradsh.torch as torch
        a = torch.tensor(2.0, requires_grad=True)
        b = a * 3
        gradsh.graph(b)
        from gradsh.cli import main
        sys.exit(main(["kernel", "install", "--user"]))
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=kernel_env(), timeout=60)
    assert run.returncode == 2, run.stderr
    assert run.stdout.startswith("b = MulBackward0")
    assert run.stderr == ("gradsh: error: the gradsh kernel needs Jupyter: "
                          "pip install 'gradsh[jupyter]'\n")


# ---------------------------------------------------------------------------------------------
# %load_ext gradsh in a real kernel
# ---------------------------------------------------------------------------------------------

EXTENSION_CELLS: list[str | tuple[str, list[str]]] = [
    "%load_ext gradsh",
    # 1: the article's a, b, c, d
    "import torch\na = torch.tensor(2.0, requires_grad=True)\nb = torch.tensor(3.0)\n"
    "c = a * a * 5\nd = c * c * b",
    # 2
    "c.retain_grad()\nd.backward(retain_graph=True)",
    # 3
    "from gradsh.engine.tensor import Tensor\nprint(torch.__spec__.name, isinstance(a, Tensor))",
    "%gradsh changed",
    # 5
    "e = a * 3",
    "n = 1",
    "%gradsh off",
    # 8
    "f = a + 1",
    "%gradsh on",
    # 10
    "g = f * 2",
    "import gradsh\ngradsh.graph(d)",
    # 12
    "gradsh.explain(c)",
    "d.backward()\nd.backward()",
    # 14
    "%%gradsh\nh = tensor([1., 2.], grad)\ns = (h*h).sum()\nbackward s",
    "print(h.grad)",
    # 16
    "%%gradsh\nbackward s",
    "y = a * 2\ny.grad",
    # 18
    "%gradsh bogus",
    "%gradsh",
    # 20
    "%unload_ext gradsh",
    "i = a * 4",
]


@pytest.fixture(scope="module")
def extension_run(jupyter: Any) -> Any:
    return execute(code_notebook(*EXTENSION_CELLS)).cells


def test_cells_run_on_gradsh_torch(extension_run: Any) -> None:
    assert stream(extension_run[3]) == "gradsh.torch True\n"
    assert not extension_run[0].outputs  # loading shows nothing


def test_the_table_after_a_cell_is_pytorchs_state(extension_run: Any, torch: Any) -> None:
    [table] = tables_of(extension_run[1])
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0)
    c = a * a * 5
    d = c * c * b
    for name, t in {"a": a, "b": b, "c": c, "d": d}.items():
        row = table.rows[name]
        assert float(row["value"]) == t.item()
        assert row["requires_grad"] == str(t.requires_grad)
        assert row["is_leaf"] == str(t.is_leaf)
        assert row["grad_fn"] == (type(t.grad_fn).__name__ if t.grad_fn else "None")
    assert list(table.rows) == ["a", "b", "c", "d"]
    assert len(table.changed) == 4 * 10

    c.retain_grad()
    d.backward(retain_graph=True)
    [after] = tables_of(extension_run[2])
    assert after.changed == {("a", "grad"), ("c", "grad"), ("c", "retains_grad")}
    assert after.rows["c"]["retains_grad"] == str(c.retains_grad) == "True"
    assert float(after.rows["a"]["grad"]) == a.grad.item() == 2400.0
    assert float(after.rows["c"]["grad"]) == c.grad.item() == 120.0
    assert after.rows["d"]["grad"] == "None"


def test_gradsh_magic_sets_the_table(extension_run: Any) -> None:
    assert stream(extension_run[4]) == "gradsh table: changed\n"
    assert not tables_of(extension_run[4])  # no table after a %gradsh cell
    [only_e] = tables_of(extension_run[5])
    assert list(only_e.rows) == ["e"]
    assert not extension_run[6].outputs  # nothing changed
    assert not extension_run[8].outputs  # off
    [full] = tables_of(extension_run[10])
    assert list(full.rows) == ["a", "b", "c", "d", "e", "f", "g"]
    # f changed while the table was off: the cell that made it is past, so f is not marked
    assert {name for name, _ in full.changed} == {"g"}
    assert stream(extension_run[19]) == "gradsh table: on\n"
    assert stream(extension_run[18], "stderr").startswith("UsageError: %gradsh bogus: say on, "
                                                          "changed or off")


def test_graph_is_an_svg_picture(extension_run: Any, graphviz_dot: str) -> None:
    [svg] = data(extension_run[11], "image/svg+xml")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert ">d = MulBackward0<" in svg and ">c = MulBackward0<" in svg
    # the picture, not also the tree (the HTML is the table after the cell)
    assert all('class="gradsh-table"' in h for h in data(extension_run[11], "text/html"))
    assert "d = MulBackward0" in data(extension_run[11], "text/plain")[0]


def test_explain_is_html_paragraphs(extension_run: Any) -> None:
    html, table = data(extension_run[12], "text/html")
    assert 'class="gradsh-table"' in table
    assert html.startswith("<p ")
    assert "c is not a leaf" in html and "retain_grad()" in html


def test_an_error_shows_the_cells_frames_and_gradshs_hint(extension_run: Any) -> None:
    failed = error(extension_run[13])
    assert failed.ename == "RuntimeError"
    assert failed.evalue.startswith("Trying to backward through the graph a second time")
    text = "\n".join(failed.traceback)
    assert "Cell In[14], line 2" in text and "    d.backward()" in text
    assert "gradsh" + "/" not in text and "interactiveshell" not in text  # no internal frames
    assert ("hint: MulBackward0 (d) saved its tensors in `d = c * c * b`; the backward in "
            "`d.backward()` freed them.") in text
    # what the failing cell did before the error stays done, and the table shows it
    [after] = tables_of(extension_run[13])
    assert after.rows["a"]["grad"] == "4800." and ("a", "grad") in after.changed


def test_gradsh_cells_run_as_in_the_shell_and_share_variables(extension_run: Any) -> None:
    cell = extension_run[14]
    assert stream(cell) == ">>> h = tensor([1., 2.], grad)\n>>> s = (h*h).sum()\n>>> backward s\n"
    shown = tables_of(cell)
    assert len(shown) == 3  # the table after each statement
    assert shown[-1].changed == {("h", "grad")} and shown[-1].rows["h"]["grad"] == "[2., 4.]"
    assert stream(extension_run[15]) == "tensor([2., 4.])\n"
    failed = error(extension_run[16])
    assert failed.traceback[0].startswith("Cell In[17]:1:1: RuntimeError: Trying to backward")
    assert failed.traceback[1:3] == ["    backward s", "    ^^^^^^^^^^"]


def test_unloading_stops_the_tables(extension_run: Any) -> None:
    assert not extension_run[20].outputs and not extension_run[21].outputs


def test_a_torch_imported_before_is_pointed_out(jupyter: Any, torch: Any) -> None:
    """A real torch imported before the extension stays the user's `torch`: loading says so."""
    cells = execute(code_notebook("import torch as pt", "%load_ext gradsh",
                                  "import torch\nprint(torch.__spec__.name)")).cells
    assert stream(cells[1]) == ("gradsh: `pt` is the torch imported before %load_ext gradsh; "
                                "`import torch` again for gradsh's\n")
    assert stream(cells[2]) == "gradsh.torch\n"


def test_warnings_name_the_cell(extension_run: Any) -> None:
    warned = stream(extension_run[17], "stderr")
    assert warned.startswith("Cell In[18]:2: UserWarning: The .grad attribute of a Tensor that "
                             "is not a leaf Tensor is being accessed.")


# ---------------------------------------------------------------------------------------------
# examples/autograd_tour.ipynb
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tour(jupyter: Any) -> tuple[Any, Any]:
    """The committed tour, and the same notebook run afresh (only the cells tagged
    raises-exception may raise)."""
    committed = jupyter.read(TOUR, as_version=4)
    fresh = jupyter.reads(jupyter.writes(committed), as_version=4)
    for cell in fresh.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return committed, execute(fresh, allow_errors=False)


def _cell(nb: Any, source: str, nth: int = 0) -> Any:
    return [c for c in nb.cells if c.cell_type == "code" and c.source == source][nth]


def test_the_tours_committed_outputs_are_what_it_shows(tour: tuple[Any, Any],
                                                       graphviz_dot: str) -> None:
    """Outputs committed with the tour are a real run's: rerun now, they are the same (up to
    addresses, and the layout of the pictures); `python tests/nbrun.py` refreshes them."""
    committed, fresh = tour
    assert normalised(fresh) == normalised(committed)


def test_the_tour_gives_the_articles_answers(tour: tuple[Any, Any]) -> None:
    _, nb = tour
    [first] = tables_of(_cell(nb, "d.backward(retain_graph=True)"))
    assert {n: first.rows[n]["grad"] for n in "abcd"} == {"a": "2400.", "b": "None",
                                                          "c": "120.", "d": "1."}
    [second] = tables_of(_cell(nb, "d.backward()"))
    assert {n: second.rows[n]["grad"] for n in "acd"} == {"a": "4800.", "c": "240.", "d": "2."}
    third = error(_cell(nb, "d.backward()", 1))
    assert third.evalue.startswith("Trying to backward through the graph a second time")
    assert "hint: MulBackward0 (d) saved its tensors in `d = c * c * b`" in third.traceback[-1]
    # article 002's transcript, digit for digit, and the is_leaf of each tensor
    seeded = next(c for c in nb.cells if "torch.rand(10).cuda().requires_grad_()" in c.source)
    assert stream(seeded).startswith("tensor([0.9817, 0.9880, 0.8879, 0.3911, 0.8532, 0.2367, "
                                     "0.6074, 0.6374, 0.7830,\n        0.1322], ")
    [leaves] = tables_of(seeded)
    assert {n: (r["is_leaf"], r["grad_fn"], r["device"]) for n, r in leaves.rows.items()} == {
        "a": ("True", "None", "cpu"), "b": ("False", "ToCopyBackward0", "cuda:0"),
        "c": ("False", "AddBackward0", "cpu"), "d": ("True", "None", "cuda:0"),
        "e": ("True", "None", "cuda:0"), "f": ("True", "None", "cuda:0")}
    chain = tables_of(_cell(nb, "loss.backward()"))[0]
    assert chain.changed == {("data_in", "grad"), ("data_2", "grad")}
    assert chain.rows["data_2"]["grad"] == "1."
    # .data hides an in-place change from autograd; detach() does not
    [wrong] = tables_of(next(c for c in nb.cells if "s.data.zero_()" in c.source))
    assert wrong.rows["a"]["grad"] == "[0., 0., 0.]"
    caught = error(next(c for c in nb.cells if "t.detach().zero_()" in c.source))
    assert "modified by an inplace operation" in caught.evalue
    # the %%gradsh cell shares its variables with the Python cells after it
    assert stream(_cell(nb, "print(a.grad * 2)")) == "tensor(4800.)\n"


def test_the_tour_draws_its_graphs(tour: tuple[Any, Any], graphviz_dot: str) -> None:
    _, nb = tour
    pictures = [svg for c in nb.cells if c.source == "gradsh.graph(d)"
                for svg in data(c, "image/svg+xml")]
    assert len(pictures) == 2
    assert 'fill="orange"' in pictures[0] and "gray90" not in pictures[0]  # saved, alive
    assert "freed by the backward" in pictures[1]  # the second backward freed them


def test_gradsh_displays_in_any_kernel_without_the_extension(jupyter: Any,
                                                             graphviz_dot: str) -> None:
    """`import gradsh.torch as torch` in a plain Python kernel: no table after the cells, but
    gradsh.graph and gradsh.show display a picture and an HTML table."""
    [cell] = execute(code_notebook(
        "import gradsh\nimport gradsh.torch as torch\n"
        "a = torch.tensor(2.0, requires_grad=True)\nb = a * a\n"
        "gradsh.graph(b)\ngradsh.show()\ngradsh.show(b)")).cells
    assert ">b = MulBackward0<" in data(cell, "image/svg+xml")[0]
    every, only_b = tables_of(cell)
    assert list(every.rows) == ["a", "b"] and not every.changed  # show marks nothing
    assert list(only_b.rows) == ["b"]
