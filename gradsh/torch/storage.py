"""torch.UntypedStorage, as `tensor.untyped_storage()` returns it: the bytes of the memory a
tensor and its views share (the root NumPy array gradsh's views point into)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import backend
from gradsh.engine.tensor import Tensor

__all__ = ["UntypedStorage"]


def _root(data: Any) -> Any:
    """The array owning `data`'s memory (a view's base, followed to the end)."""
    while isinstance(getattr(data, "base", None), type(data)):
        data = data.base
    return data


class UntypedStorage:
    """A read-only window on a tensor's storage: data_ptr, nbytes, the bytes themselves."""

    def __init__(self, tensor: Tensor) -> None:
        self._array = _root(tensor._data)
        self.device = tensor.device

    def data_ptr(self) -> int:
        data = self._array
        if isinstance(data, np.ndarray):
            return int(data.__array_interface__["data"][0])
        return int(data.data.ptr)  # a CuPy array

    def nbytes(self) -> int:
        return int(self._array.nbytes)

    def size(self) -> int:
        return self.nbytes()

    def __len__(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        return 1

    def _bytes(self) -> np.ndarray:
        host = np.ascontiguousarray(backend.to_host(self._array))
        return host.reshape(-1).view(np.uint8)

    def tolist(self) -> list[int]:
        return [int(b) for b in self._bytes()]

    def __getitem__(self, index: Any) -> Any:
        value = self._bytes()[index]
        return [int(b) for b in value] if isinstance(value, np.ndarray) else int(value)

    def __repr__(self) -> str:
        lines = [f" {b}" for b in self.tolist()]
        lines.append(f"[torch.storage.UntypedStorage(device={self.device}) of size "
                     f"{self.nbytes()}]")
        return "\n".join(lines)

    __str__ = __repr__
