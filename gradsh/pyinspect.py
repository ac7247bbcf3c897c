"""gradsh.show(), gradsh.explain(x) and gradsh.graph(x) for Python programs: what the `show`,
`explain` and `graph` statements print in .grad scripts, about the caller's variables."""

from __future__ import annotations

import os
import sys
from typing import Any

from gradsh import snapshot
from gradsh.engine.tensor import Tensor
from gradsh.render import Renderer


def _caller_env() -> tuple[dict[str, Any], str]:
    """The tensors (and module parameters) the calling code can name: its globals, then its
    locals (which win, as in Python); and the caller's file. The caller is the first frame
    outside gradsh."""
    from gradsh.pyrun import tensor_env
    from gradsh.pytrace import is_internal

    frame = sys._getframe(1)
    while frame.f_back is not None and is_internal(frame.f_code.co_filename):
        frame = frame.f_back
    env = tensor_env(frame.f_globals)
    if frame.f_locals is not frame.f_globals:
        env.update(tensor_env(dict(frame.f_locals)))
    return env, frame.f_code.co_filename


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
    _renderer().table(snapshot.take(env), names, remember=False, marks=False)


def explain(target: Any, lang: str | None = None) -> None:
    """Print why `target` is or is not a leaf, and what backward will leave in its .grad."""
    from gradsh import explainer

    env, path = _caller_env()
    lines = explainer.explain(target, _name_of(target, env), env,
                              lang=lang or os.environ.get("GRADSH_LANG", "en"), path=path)
    _renderer().paragraph(lines)


def graph(target: Any) -> None:
    """Print the grad_fn graph of `target` as a tree."""
    from gradsh import graphview

    env, path = _caller_env()
    tree, notes = graphview.build(target, _name_of(target, env), env, path)
    _renderer().tree(tree, notes)
