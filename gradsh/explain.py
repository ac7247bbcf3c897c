"""Plain sentences about one tensor, computed from its real state, for the `explain` statement.

They answer the learner's questions: is it a leaf and why, will the next backward fill its
.grad (and what to do if not), can its graph still be backpropagated, and which other
variables share its storage.
"""

from __future__ import annotations

from typing import Any

from gradsh.engine.tensor import AccumulateGrad, Node, Tensor


def explain(target: Any, name: str, env: dict[str, Any]) -> list[str]:
    if not isinstance(target, Tensor):
        return [f"{name} is not a tensor, so it has no place in the autograd graph."]
    lines: list[str] = []
    fn = target.grad_fn
    if fn is None:
        if target.requires_grad:
            lines.append(
                f"{name} is a leaf: you created it with requires_grad=True (grad_fn is None)."
            )
            lines.append(
                f"backward() will accumulate into {name}.grad "
                + ("(it is None now)." if target.peek_grad() is None else "(it already holds a "
                   "gradient: backward adds to it; zero it or set it to None between steps).")
            )
        else:
            lines.append(
                f"{name} is a leaf because requires_grad is False: autograd does not track it, "
                "so it never gets a .grad."
            )
            if target.dtype.is_floating_point:
                lines.append(
                    f"To get {name}.grad, make it require grad before using it: "
                    f"{name}.requires_grad_()."
                )
            else:
                lines.append(
                    f"It is {target.dtype.name}: only floating point tensors can require grad."
                )
    else:
        lines.append(
            f"{name} is not a leaf: it was produced by an operation ({fn.name}) on tensors "
            "that require grad."
        )
        if target.retains_grad:
            lines.append(
                f"retain_grad() was called, so backward will store {name}.grad as well."
            )
        else:
            lines.append(
                f"backward() will pass gradients through {name} but not keep them: {name}.grad "
                f"stays None. Call {name}.retain_grad() before backward to keep it, or make a "
                f"new leaf with {name}.detach().requires_grad_()."
            )
        freed, stale = _graph_state(fn)
        if freed:
            lines.append(
                "Its graph can no longer be backpropagated: backward already freed the saved "
                f"tensors of {', '.join(sorted(set(freed)))}. Pass retain_graph=True (`backward "
                "x retain`) to the backward that should keep them."
            )
        elif stale:
            lines.append(
                "Backward will fail: a tensor saved by "
                f"{', '.join(sorted(set(stale)))} was modified in place after it was saved."
            )
        else:
            lines.append("Its graph is intact: backward can run through it.")
    sharing = [
        other for other, value in env.items()
        if isinstance(value, Tensor) and value is not target and _shares_storage(value, target)
    ]
    if sharing:
        lines.append(
            f"{name} shares its storage with {', '.join(sharing)} (a view, detach() or .data): "
            "an in-place change through one is seen by the others."
        )
    return lines


def _graph_state(root: Node) -> tuple[list[str], list[str]]:
    freed: list[str] = []
    stale: list[str] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen or isinstance(node, AccumulateGrad):
            continue
        seen.add(id(node))
        for saved in node.saved_tensors.values():
            if saved.released:
                freed.append(node.name)
            elif saved.is_stale:
                stale.append(node.name)
        stack.extend(child for child, _ in node.next_functions if child is not None)
    return freed, stale


def _shares_storage(a: Tensor, b: Tensor) -> bool:
    import numpy as np

    try:
        return bool(np.may_share_memory(a._data, b._data))
    except Exception:  # noqa: BLE001  (CuPy arrays: compare the base pointers instead)
        return False
