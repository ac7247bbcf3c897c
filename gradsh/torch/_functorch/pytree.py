"""Flattening the nested tuples, lists and dicts of tensors torch.func's arguments may be."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Spec = Any


def tree_flatten(tree: Any) -> tuple[list[Any], Spec]:
    """The leaves in order, and what rebuilds the structure around new leaves."""
    if isinstance(tree, (tuple, list)):
        leaves: list[Any] = []
        specs = []
        for item in tree:
            item_leaves, spec = tree_flatten(item)
            leaves += item_leaves
            specs.append((len(item_leaves), spec))
        return leaves, (type(tree), specs)
    if isinstance(tree, dict):
        keys = list(tree)
        values, spec = tree_flatten([tree[k] for k in keys])
        return values, (dict, keys, spec)
    return [tree], None


def tree_unflatten(leaves: list[Any], spec: Spec) -> Any:
    """The inverse of tree_flatten."""
    if spec is None:
        return leaves[0]
    if spec[0] is dict:
        _, keys, inner = spec
        return dict(zip(keys, tree_unflatten(leaves, inner)))
    kind, specs = spec
    items, start = [], 0
    for count, item_spec in specs:
        items.append(tree_unflatten(leaves[start:start + count], item_spec))
        start += count
    return kind(items) if kind in (tuple, list) else kind(*items)


def tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(leaf) for leaf in leaves], spec)
