"""How a view was made decides which in-place changes PyTorch allows: its CreationMeta, and the
error handle_view_on_rebase raises for a view that may not be rebased (autograd/variable.cpp).

A view made in no_grad mode, or one of several views a function returns at once (split,
chunk, unbind), may not be modified in place while grad mode is on: neither directly (the
in-place op's check) nor through its base or another view (found when the view's grad_fn is
next read). A view of such a view inherits the rule. So does a custom autograd.Function's
output that is a view, or an input returned as is (IN_CUSTOM_FUNCTION; MULTI_OUTPUT_NODE when
the Function has several differentiable outputs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gradsh.engine.exceptions import TorchRuntimeError

if TYPE_CHECKING:  # (type names only: both modules sit above this one)
    from gradsh.engine.node import Node
    from gradsh.engine.variable import Tensor

__all__ = ["DEFAULT", "NO_GRAD_MODE", "MULTI_OUTPUT_NODE", "IN_CUSTOM_FUNCTION",
           "alias_view", "creation_meta", "rebase_error"]

DEFAULT, NO_GRAD_MODE, MULTI_OUTPUT_NODE, IN_CUSTOM_FUNCTION = 0, 1, 2, 3

_MULTI_OUTPUT_SUFFIX = (
    " This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by "
    "an out-of-place one."
)
_CUSTOM_FUNCTION_SUFFIX = (
    " This view was created inside a custom Function (or because an input was returned as-is) "
    "and the autograd logic to handle view+inplace would override the custom backward "
    "associated with the custom Function, leading to incorrect gradients. This behavior is "
    "forbidden. You can fix this by cloning the output of the custom Function."
)
_NO_GRAD_SUFFIX = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked)."
)


def creation_meta(base: Tensor, multi_output: bool, grad_enabled: bool) -> int:
    """The CreationMeta of a view of `base` made now (propagate_creation_meta): the mode's own,
    else the one `base` carries when it is itself a view."""
    if not grad_enabled:
        return NO_GRAD_MODE
    if multi_output:
        return MULTI_OUTPUT_NODE
    return base._view_creation if base._base is not None else DEFAULT


def alias_view(alias: Tensor, t: Tensor) -> Tensor:
    """Make `alias` (a new tensor over `t`'s memory) a view of `t`'s base, or of `t` when `t`
    is not a view: PyTorch's view_as(self) of an input a Function returns as is."""
    alias._version_counter = t._version_counter
    alias._base = t._base if t._base is not None else t
    alias._view_fn = t._view_fn if t._base is not None else _identity
    alias._view_version = t._version_value()
    return alias


def _identity(array: object) -> object:
    return array


def rebase_error(view: Tensor, indirect: bool) -> TorchRuntimeError:
    """handle_view_on_rebase's error for `view`, whose CreationMeta is not DEFAULT: modified in
    place itself, or (`indirect`) through its base or another view of it."""
    creation = view._view_creation
    fn = view._grad_fn
    modified = "its base or another view of its base has been" if indirect else "is being"
    if creation == NO_GRAD_MODE or fn is None:
        prefix = ("A view was created in" if fn is None else
                  f"{_output_of(fn, view)} is a view of a view which was created in")
        message = f"{prefix} no_grad mode and {modified} modified inplace with grad mode enabled."
    else:
        message = f"{_output_of(fn, view)} is a view and {modified} modified inplace."
    message += {MULTI_OUTPUT_NODE: _MULTI_OUTPUT_SUFFIX,
                IN_CUSTOM_FUNCTION: _CUSTOM_FUNCTION_SUFFIX}.get(creation, _NO_GRAD_SUFFIX)
    return TorchRuntimeError(message)


def _output_of(fn: Node, view: Tensor) -> str:
    from gradsh.engine.saved_variable import _short_node_name  # (a module above this one)

    number = fn.edge_of(view)[1] if fn.num_outputs != 1 else 0
    name = getattr(fn, "function_name", None) or _short_node_name(fn)
    return f"Output {number} of {name}"
