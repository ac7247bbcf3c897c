"""Flatten and Unflatten, for use in Sequential."""

from __future__ import annotations

from typing import Any

from gradsh.engine import ops
from gradsh.engine.tensor import Tensor
from gradsh.torch.nn.modules.module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.flatten(input, self.start_dim, self.end_dim)  # type: ignore[no-any-return]

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    def __init__(self, dim: int | str, unflattened_size: Any) -> None:
        super().__init__()
        if isinstance(dim, int):
            self._require_tuple_int(unflattened_size)
        else:
            raise TypeError("invalid argument type for dim parameter")
        self.dim, self.unflattened_size = dim, unflattened_size

    @staticmethod
    def _require_tuple_int(value: Any) -> None:
        if isinstance(value, (tuple, list)):
            for i, elem in enumerate(value):
                if not isinstance(elem, int):
                    raise TypeError("unflattened_size must be tuple of ints, but found element "
                                    f"of type {type(elem).__name__} at pos {i}")
            return
        raise TypeError("unflattened_size must be a tuple of ints, but found type "
                        f"{type(value).__name__}")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return ops.unflatten(input, self.dim, self.unflattened_size)  # type: ignore

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
