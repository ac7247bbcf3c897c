"""All parameters as one flat vector, and back."""

from __future__ import annotations

from collections.abc import Iterable

from gradsh.engine import ops
from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.module import typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_param_device(param: Tensor, old: str | None) -> str:
    if old is not None and param.device != old:
        raise TypeError("Found two parameters on different devices, this is currently not "
                        "supported.")
    return param.device


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    device = None
    pieces = []
    for param in parameters:
        device = _check_param_device(param, device)
        pieces.append(ops.view(param, -1))
    return ops.cat(pieces)  # type: ignore[no-any-return]


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Each parameter's data becomes its slice of vec (sharing vec's memory)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    device = None
    pointer = 0
    for param in parameters:
        device = _check_param_device(param, device)
        count = param.numel()
        param.data = ops.view_as(vec[pointer:pointer + count], param).data
        pointer += count
