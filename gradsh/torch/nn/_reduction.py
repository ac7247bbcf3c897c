"""The deprecated size_average/reduce arguments of the losses, as a reduction string."""

from __future__ import annotations

import sys
import warnings


def get_enum(reduction: str) -> int:
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' "
                      "instead.", stacklevel=2)
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _outside_gradsh() -> int:
    """The stacklevel, for a warning issued by this module's caller, of the first frame
    outside gradsh: the user's loss constructor, however many gradsh base classes lie
    between (CrossEntropyLoss reaches here through _WeightedLoss and _Loss)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("gradsh."):
        frame, level = frame.f_back, level + 1
    return level


def legacy_get_string(size_average: bool | None, reduce: bool | None,
                      emit_warning: bool = True) -> str:
    """'mean', 'sum' or 'none' from the legacy pair (None counts as True), with PyTorch's
    deprecation warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        result = "mean"
    elif reduce:
        result = "sum"
    else:
        result = "none"
    if emit_warning:
        warnings.warn("size_average and reduce args will be deprecated, please use "
                      f"reduction='{result}' instead.", stacklevel=_outside_gradsh())
    return result


def resolve_enum(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    """The reduction of a loss PyTorch hands to ATen as an enum (_Reduction.get_enum): an
    unknown one is a ValueError, the deprecated 'elementwise_mean' warns and means 'mean'."""
    if size_average is not None or reduce is not None:
        return legacy_get_string(size_average, reduce)
    get_enum(reduction)
    return "mean" if reduction == "elementwise_mean" else reduction


def resolve(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    if size_average is not None or reduce is not None:
        return legacy_get_string(size_average, reduce)
    return reduction
