"""torch.func.functionalize in eager mode: what PyTorch's wrapper does observably when the
program is run rather than traced. The function runs as written (its in-place ops on
intermediates give the values their out-of-place forms give); mutations of the inputs stay
applied to the inputs, as functionalize copies them back; an input returned as an output comes
back as a new tensor holding its final value, not the input object."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import gradsh.torch as torch
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.torch._functorch.pytree import tree_flatten, tree_unflatten

__all__ = ["functionalize"]

_INVALID_REMOVE = (
    "functionalize(f, remove='mutations'): received invalid argument for remove={}. Valid "
    "options are:\n"
    "     remove='mutations': all inplace and out= operators will be removed from the program, "
    "and replaced with their out-of-place equivalents.\n"
    "     remove='mutations_and_views': In addition to the above, all aliasing operators {{view}}"
    " will be replaced with their non-aliasing counterparts, {{view}}_copy.\n"
)


def functionalize(func: Callable[..., Any], *, remove: str = "mutations") -> Callable[..., Any]:
    """func wrapped (functools.wraps, as PyTorch's) so that outputs never are input objects."""
    if remove not in ("mutations", "mutations_and_views"):
        raise TorchRuntimeError(_INVALID_REMOVE.format(remove))

    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        inputs = {id(t) for t in tree_flatten((args, kwargs))[0] if isinstance(t, torch.Tensor)}
        out = func(*args, **kwargs)
        leaves, spec = tree_flatten(out)
        leaves = [t.clone() if isinstance(t, torch.Tensor) and id(t) in inputs else t
                  for t in leaves]
        return tree_unflatten(leaves, spec)

    return wrapped
