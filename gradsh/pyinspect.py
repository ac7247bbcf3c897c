"""gradsh.show(), gradsh.explain(x) and gradsh.graph(x) for Python programs: what the `show`,
`explain` and `graph` statements print in .grad scripts, about the caller's variables. In a
Jupyter notebook they are displayed instead: an HTML table, the graph as SVG."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from gradsh import snapshot
from gradsh.engine.tensor import Tensor
from gradsh.render import Renderer


def _caller_env() -> tuple[dict[str, Any], str]:
    """The tensors (and module parameters) the calling code can name: its globals, then its
    locals (which win, as in Python); and the caller's file. The caller is the first frame
    outside gradsh."""
    from gradsh.snapshot import tensor_env
    from gradsh.pytrace import is_internal

    frame = sys._getframe(1)
    while frame.f_back is not None and is_internal(frame.f_code.co_filename):
        frame = frame.f_back
    if _display() is not None:  # a notebook: its history names (`_`, `_7`) are not variables
        from gradsh.notebook import visible
        from gradsh.shell import SHELL_PATH

        # origins are statements of cells, named by their text as in the shell
        path, env = SHELL_PATH, tensor_env(visible(frame.f_globals))
    else:
        path, env = frame.f_code.co_filename, tensor_env(frame.f_globals)
    if frame.f_locals is not frame.f_globals:
        env.update(tensor_env(dict(frame.f_locals)))
    return env, path


def _display() -> Callable[[object], None] | None:
    """IPython's display in a Jupyter kernel; None elsewhere (gradsh prints)."""
    if sys.modules.get("IPython") is None:  # never imported (or made unimportable)
        return None
    from gradsh.notebook import display_function

    return display_function()


def _renderer() -> Renderer:
    out = sys.stdout
    color = out.isatty() and "NO_COLOR" not in os.environ
    return Renderer(out, sys.stderr, color, None)


def _name_of(target: Any, env: dict[str, Any]) -> str:
    for name, value in env.items():
        if value is target:
            return name
    return "tensor"


def show(*tensors: Any) -> None:
    """Print the variable table: every tensor variable of the caller (with module parameters
    under qualified names), or only the ones given (as tensors or as names)."""
    env, _ = _caller_env()
    names = None
    if tensors:
        names = [t if isinstance(t, str) else _name_of(t, env) for t in tensors]
        for t in tensors:
            if isinstance(t, Tensor) and _name_of(t, env) == "tensor":
                env["tensor"] = t
    display = _display()
    if display is not None:
        from gradsh.render_html import Tables

        view = Tables().view(snapshot.take(env), names, marks=False, remember=False)
        if view is not None:
            display(view)
        return
    _renderer().table(snapshot.take(env), names, remember=False, marks=False)


def explain(target: Any, lang: str | None = None) -> None:
    """Print why `target` is or is not a leaf, and what backward will leave in its .grad."""
    from gradsh import explainer

    env, path = _caller_env()
    lines = explainer.explain(target, _name_of(target, env), env,
                              lang=lang or os.environ.get("GRADSH_LANG", "en"), path=path)
    display = _display()
    if display is not None:
        from gradsh.notebook import text_view

        display(text_view(lines))
        return
    _renderer().paragraph(lines)


def graph(target: Any) -> None:
    """Print the grad_fn graph of `target` as a tree."""
    from gradsh import graphview

    env, path = _caller_env()
    name = _name_of(target, env)
    tree, notes = graphview.build(target, name, env, path)
    display = _display()
    if display is not None:
        from gradsh import dot
        from gradsh.notebook import graph_view

        display(graph_view(tree, notes, lambda: dot.dot_source(target, name, env, path)))
        return
    _renderer().tree(tree, notes)
