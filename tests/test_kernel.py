"""The gradsh Jupyter kernel, installed with `gradsh kernel install` and run by nbclient: cells in
the gradsh language, their tables as HTML, `graph` as SVG, errors as the cell's error, and the
shell's completion."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gradsh.cli import main
from nbrun import code_notebook, data, error, execute, kernel_env, stream, tables


@pytest.fixture(scope="module")
def kernel_installed(jupyter: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`gradsh kernel install --prefix DIR`, and Jupyter told to look there."""
    prefix = tmp_path_factory.mktemp("jupyter")
    assert main(["kernel", "install", "--prefix", str(prefix)]) == 0
    saved = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = str(prefix / "share" / "jupyter")
    yield str(prefix)
    if saved is None:
        os.environ.pop("JUPYTER_PATH")
    else:
        os.environ["JUPYTER_PATH"] = saved


def test_install_writes_a_kernel_spec(kernel_installed: str) -> None:
    spec = json.loads((Path(kernel_installed) / "share" / "jupyter" / "kernels" / "gradsh"
                       / "kernel.json").read_text())
    assert spec["language"] == "gradsh" and spec["display_name"] == "gradsh"
    assert spec["argv"][1:] == ["-m", "gradsh", "kernel", "launch", "-f", "{connection_file}"]


CELLS = [
    "a = tensor(2.0, grad); b = tensor(3.0)\nc = a*a*5\nd = c*c*b",
    "c.retain_grad()\nbackward d retain\nprint a.grad, c.grad",
    "graph d",
    "d.backward()\nd.backward()",
    ":table changed",
    "e = a * 3\nexplain e",
    "help retain_grad",
]


@pytest.fixture(scope="module")
def kernel_run(kernel_installed: str) -> Any:
    return execute(code_notebook(*CELLS, kernel="gradsh"), kernel="gradsh").cells


def test_a_cell_runs_as_shell_input(kernel_run: Any) -> None:
    cell = kernel_run[0]
    assert stream(cell) == ">>> a = tensor(2.0, grad)\n>>> b = tensor(3.0)\n>>> c = a*a*5\n" \
                           ">>> d = c*c*b\n"
    shown = tables(cell)
    assert [list(t.rows) for t in shown] == [["a"], ["a", "b"], ["a", "b", "c"],
                                             ["a", "b", "c", "d"]]
    assert shown[-1].rows["d"]["value"] == "1200." and shown[-1].changed == {
        ("d", column) for column in shown[-1].columns}


def test_backward_fills_the_grads_the_article_says(kernel_run: Any) -> None:
    cell = kernel_run[1]
    assert stream(cell).endswith(">>> print a.grad, c.grad\ntensor(2400.) tensor(120.)\n")
    backward = tables(cell)[-1]  # a statement that changes nothing shows no table
    assert backward.changed == {("a", "grad"), ("c", "grad")}


def test_graph_is_svg(kernel_run: Any, graphviz_dot: str) -> None:
    [svg] = data(kernel_run[2], "image/svg+xml")
    assert ">d = MulBackward0<" in svg
    assert data(kernel_run[2], "text/plain")[0].startswith("d = MulBackward0")


def test_an_error_is_the_cells_error(kernel_run: Any) -> None:
    failed = error(kernel_run[3])
    assert failed.ename == "RuntimeError"
    assert failed.evalue.startswith("Trying to backward through the graph a second time")
    assert failed.traceback[0].startswith("Cell In[4]:2:1: RuntimeError: Trying to backward")
    assert failed.traceback[-1].startswith("hint: MulBackward0 (d) saved its tensors in "
                                           "`d = c*c*b`; the backward in `d.backward()` freed")
    # the first backward ran (the graph was retained): PyTorch's 4800, and the table says so
    assert tables(kernel_run[3])[0].rows["a"]["grad"] == "4800."


def test_session_commands_and_explain(kernel_run: Any) -> None:
    assert stream(kernel_run[4]) == "table: changed\n"
    cell = kernel_run[5]
    [only_e] = tables(cell)
    assert list(only_e.rows) == ["e"]
    [explained] = [h for h in data(cell, "text/html") if h.startswith("<p ")]
    assert "e is not a leaf" in explained
    assert "retain_grad()" in stream(kernel_run[6])


def test_completion_and_continuation(kernel_installed: str) -> None:
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="gradsh", env=kernel_env())
    try:
        client.execute_interactive("x = tensor([1., 2.], grad)", timeout=30)
        reply = client.complete("y = x.retain_g", 14, reply=True, timeout=30)["content"]
        assert reply["matches"] == ["retain_grad"]
        assert (reply["cursor_start"], reply["cursor_end"]) == (6, 14)
        reply = client.complete("y = tor", 7, reply=True, timeout=30)["content"]
        assert "torch" in reply["matches"]
        for code, status in (("repeat 3 {", "incomplete"), ("x * 2", "complete")):
            client.is_complete(code)
            assert client.get_shell_msg(timeout=30)["content"]["status"] == status
        info = client.kernel_info(reply=True, timeout=30)["content"]
        assert info["language_info"]["name"] == "gradsh"
        assert info["language_info"]["pygments_lexer"] == "gradsh"
        assert "debugger" not in info["supported_features"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
