"""torch.func.vmap, emulated: the function runs once per index of the mapped dimension and the
results are stacked.

The values are PyTorch's; the graph is not: each result is a stack of the per-example results
(PyTorch's batched kernels give the op's own node, whose name the stack's node shows when every
example's result comes from the same op), and a backward inside the function keeps the graph
until the last index, as PyTorch's one batched backward would. Randomness follows the
`randomness` flag: "error" (the default) makes any draw inside the function raise PyTorch's
error; "same" restarts the global generator at its state before the first index for every
index, so each draws what the first did and the generator ends one draw on, as PyTorch's single
unbatched draw leaves it; "different" lets every index draw afresh (the same values as PyTorch's
one batched draw for uniforms and for normals of under 16 elements in all; PyTorch draws bigger
normals as one NormalFill16 over the batch, whose values per-index draws do not give).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import gradsh.torch as torch
from gradsh.engine import random as engine_random
from gradsh.engine.backward import KEEP_GRAPHS
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.ops.normalization import VMAP_LEVELS
from gradsh.torch._functorch.pytree import tree_flatten, tree_unflatten

__all__ = ["vmap"]

_RANDOMNESS = ("error", "different", "same")
_RANDOM_IN_ERROR_MODE = (
    "vmap: called random operation while in randomness error mode. Please either use the "
    "'same' or 'different' randomness flags on vmap or perform the randomness operation out "
    "of vmap")


def _spec(count: int) -> str:
    """PyTorch's pytree TreeSpec repr of a flat tuple of `count` leaves."""
    return "TreeSpec(tuple, None, [" + ",\n  ".join(["*"] * count) + "])"


def _dims_per_leaf(in_dims: Any, args: tuple[Any, ...], name: str) -> list[Any]:
    """in_dims (an int, or a tuple with an entry per argument) for each flat input."""
    where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
    if isinstance(in_dims, int) and not isinstance(in_dims, bool):
        return [in_dims] * len(tree_flatten(args)[0])
    if not isinstance(in_dims, tuple):
        raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) "
                         f"tuple matching the structure of inputs, got: {type(in_dims)}.")
    if len(in_dims) != len(args):
        raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`. "
                         f"in_dims has structure {_spec(len(in_dims))} but inputs has "
                         f"structure {_spec(len(args))}.")
    dims: list[Any] = []
    for dim, arg in zip(in_dims, args):
        dims += _dims_of_arg(dim, arg, name)
    return dims


def _dims_of_arg(dim: Any, arg: Any, name: str) -> list[Any]:
    """One argument's in_dims entry (an int, None, or a tuple, list or dict shaped like the
    argument: in_dims=({"x": 0, "y": None},)) for each of its flat leaves."""
    if isinstance(dim, tuple):
        return _dims_per_leaf(dim, (arg,), name) if not isinstance(arg, tuple) else \
            _dims_per_leaf(dim, arg, name)
    if isinstance(dim, list) and isinstance(arg, list) and len(dim) == len(arg):
        return [d for sub, a in zip(dim, arg) for d in _dims_of_arg(sub, a, name)]
    if isinstance(dim, dict) and isinstance(arg, dict) and dim.keys() == arg.keys():
        # tree_flatten takes a dict's values in the dict's own order
        return [d for k in arg for d in _dims_of_arg(dim[k], arg[k], name)]
    return [dim] * len(tree_flatten(arg)[0])


def _check_inputs(flat: list[Any], dims: list[Any], where: str) -> None:
    for x, d in zip(flat, dims):
        if d is None:
            continue
        if not isinstance(x, torch.Tensor):
            raise ValueError(f"{where}: Got in_dim={d} for an input but the input is of type "
                             f"{type(x)}. We cannot vmap over non-Tensor arguments, please use "
                             "None as the respective in_dim")
        if not -x.dim() <= d < x.dim():
            raise ValueError(f"{where}: Got in_dim={d} for some input, but that input is a "
                             f"Tensor of dimensionality {x.dim()} so expected in_dim to satisfy "
                             f"-{x.dim()} <= in_dim < {x.dim()}.")


def vmap(func: Callable[..., Any], in_dims: Any = 0, out_dims: Any = 0,
         randomness: str = "error", *, chunk_size: int | None = None) -> Callable[..., Any]:
    """func mapped over dimension in_dims of its inputs; outputs stacked at out_dims."""
    if randomness not in _RANDOMNESS:
        raise TorchRuntimeError("Only allowed values for randomness are 'error', 'different', "
                                f"or 'same'. Got {randomness}")

    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        name = getattr(func, "__name__", repr(func))
        flat, spec = tree_flatten(args)
        dims = _dims_per_leaf(in_dims, args, name)
        _check_inputs(flat, dims, f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)")
        sizes = [x.shape[d] for x, d in zip(flat, dims) if d is not None]
        if not sizes:
            raise ValueError("vmap: Expected at least one Tensor to vmap over")
        if len(set(sizes)) > 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                             f"dimension, got sizes {sizes} for the mapped dimension")
        results = []
        generator = engine_random.default_generator
        start = generator.raw_state() if randomness == "same" else None
        forbidden = engine_random.DRAWS_FORBIDDEN[0]
        if randomness == "error":
            engine_random.DRAWS_FORBIDDEN[0] = _RANDOM_IN_ERROR_MODE
        VMAP_LEVELS[0] += 1
        try:
            for i in range(max(sizes[0], 1)):
                sliced = [_example(x, d, i) if d is not None and isinstance(x, torch.Tensor)
                          else x for x, d in zip(flat, dims)]
                if start is not None:
                    generator.set_raw_state(start)
                keep = i < sizes[0] - 1
                KEEP_GRAPHS[0] += keep
                try:
                    results.append(func(*tree_unflatten(sliced, spec), **kwargs))
                finally:
                    KEEP_GRAPHS[0] -= keep
        finally:
            engine_random.DRAWS_FORBIDDEN[0] = forbidden
            VMAP_LEVELS[0] -= 1
        outs = [tree_flatten(r) for r in results]
        out_spec = outs[0][1]
        columns = list(zip(*(leaves for leaves, _ in outs)))
        out_dim_list = ([out_dims] * len(columns) if isinstance(out_dims, int) or
                        out_dims is None else list(out_dims))
        stacked = [_stack(list(column), dim, sizes[0]) if dim is not None else column[0]
                   for column, dim in zip(columns, out_dim_list)]
        return tree_unflatten(stacked, out_spec)

    return wrapped


def _example(x: Any, dim: int, i: int) -> Any:
    """Example i of x along dim; of a batch of none, zeros of an example's shape (PyTorch runs
    the function once over the empty batch, so it sees an example's shape and dtype)."""
    if x.shape[dim] == 0:
        return x.new_zeros(x.shape[:dim % x.dim()] + x.shape[dim % x.dim() + 1:])
    return x.select(dim, i)


def _stack(results: list[Any], dim: int, size: int) -> Any:
    """The per-example results stacked; the stack's node is named after the op that made them
    all (ReluBackward0 for vmap(model) ending in relu), the node PyTorch's batched op gives.
    A batch of none stacks none of the one result run on zeros."""
    out = torch.stack(results, dim)
    if size == 0:
        out = out.narrow(dim, 0, 0)
    names = {type(r.grad_fn).__name__ if isinstance(r, torch.Tensor) and r.grad_fn is not None
             else None for r in results}
    if out.grad_fn is not None and len(names) == 1 and None not in names:
        out.grad_fn.node_name = names.pop()
    return out
