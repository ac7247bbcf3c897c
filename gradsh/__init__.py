"""gradsh: a shell for a small tensor language whose autograd behaves exactly like PyTorch's.

From a Python program: `import gradsh.torch as torch` for gradsh's engine behind PyTorch's API,
and `gradsh.show()`, `gradsh.explain(x)`, `gradsh.graph(x)` to print what the statements of the
same names print in the shell (in a Jupyter notebook: to display them, the graph as a picture).
In a notebook, `%load_ext gradsh` serves `import torch` from gradsh (see gradsh.notebook).
"""

from typing import Any

__version__ = "0.1.0"


def show(*tensors: Any) -> None:
    """The variable table of the caller's tensors (all, or those given)."""
    from gradsh.pyinspect import show as _show

    _show(*tensors)


def explain(target: Any, lang: str | None = None) -> None:
    """Why `target` is or is not a leaf, and what backward will leave in its .grad."""
    from gradsh.pyinspect import explain as _explain

    _explain(target, lang)


def graph(target: Any) -> None:
    """`target`'s grad_fn graph as a tree."""
    from gradsh.pyinspect import graph as _graph

    _graph(target)


def load_ipython_extension(shell: Any) -> None:
    """`%load_ext gradsh`: cells run on gradsh's torch, the variable table after each cell."""
    from gradsh.notebook import load_ipython_extension as _load

    _load(shell)


def unload_ipython_extension(shell: Any) -> None:
    from gradsh.notebook import unload_ipython_extension as _unload

    _unload(shell)
