"""torch.UntypedStorage and TypedStorage, as `tensor.untyped_storage()` and `tensor.storage()`
return them: the bytes, or the elements, of the memory a tensor and its views share (the root
NumPy array gradsh's views point into)."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import backend
from gradsh.engine.exceptions import warn
from gradsh.engine.tensor import Tensor

__all__ = ["UntypedStorage", "TypedStorage"]

_REMOVAL = ("TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
            "will be the only storage class. This should only matter to you if you are using "
            "storages directly.  To access UntypedStorage directly, use "
            "tensor.untyped_storage() instead of tensor.storage()")


def _root(data: Any) -> Any:
    """The array owning `data`'s memory (a view's base, followed to the end; as_strided's
    views, expand's, hold theirs behind a DummyArray)."""
    while True:
        base = getattr(data, "base", None)
        if not isinstance(base, type(data)):
            base = getattr(base, "base", None)  # (the DummyArray's own base)
            if not isinstance(base, type(data)):
                return data
        data = base


class UntypedStorage:
    """A read-only window on a tensor's storage: data_ptr, nbytes, the bytes themselves."""

    def __init__(self, tensor: Tensor) -> None:
        self._array = _root(tensor._data)
        self.device = tensor.device

    @classmethod
    def _of(cls, array: Any, device: Any) -> UntypedStorage:
        storage = cls.__new__(cls)
        storage._array, storage.device = _root(array), device
        return storage

    @staticmethod
    def _pointer(data: Any) -> int:
        if isinstance(data, np.ndarray):
            return int(data.__array_interface__["data"][0])
        return int(data.data.ptr)  # a CuPy array

    def data_ptr(self) -> int:
        return self._pointer(self._array)

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


class TypedStorage:
    """The elements of a tensor's storage, in memory order: read and written in place (a
    tensor made from it with torch.Tensor(storage) shares them)."""

    _warned = False  # PyTorch warns of the deprecation once per process
    _last: TypedStorage | None = None

    @classmethod
    def of(cls, tensor: Tensor) -> TypedStorage:
        """tensor.storage(). PyTorch makes a new object per call, and a program comparing
        `id(b.storage()) == id(a.storage())` sees True because CPython gives the second
        temporary the first one's freed memory; gradsh's allocations in between (its
        warnings) would break that, so the last storage made is given again for the same
        memory."""
        last = cls._last
        if (last is not None and last.dtype is tensor.dtype
                and last._root is _root(tensor._data)):
            return last
        cls._last = storage = cls(tensor)
        return storage

    def __init__(self, tensor: Tensor) -> None:
        TypedStorage._warn_removal()
        self._root = _root(tensor._data)
        self._array = self._root.reshape(-1)  # the root is contiguous: a view
        self.dtype = tensor.dtype
        self.device = tensor.device

    @staticmethod
    def _warn_removal() -> None:
        if not TypedStorage._warned:
            TypedStorage._warned = True
            warn(_REMOVAL)

    def size(self) -> int:
        return int(self._array.size)

    def __len__(self) -> int:
        return self.size()

    def element_size(self) -> int:
        return int(self._array.itemsize)

    def nbytes(self) -> int:
        return int(self._array.nbytes)

    def data_ptr(self) -> int:
        return UntypedStorage._pointer(self._array)

    def type(self) -> str:
        return f"torch.{self.dtype.short}Storage"

    def untyped(self) -> UntypedStorage:
        return UntypedStorage._of(self._array, self.device)

    def tolist(self) -> list[Any]:
        return backend.to_host(self._array).tolist()  # type: ignore[no-any-return]

    def __getitem__(self, index: int) -> Any:
        return backend.to_host(self._array[index]).item()

    def __setitem__(self, index: Any, value: Any) -> None:
        self._array[index] = value

    def __iter__(self) -> Any:
        return iter(self.tolist())

    def __repr__(self) -> str:
        values = " " + "\n ".join(str(value) for value in self.tolist())
        return (f"{values}\n[torch.storage.TypedStorage(dtype={self.dtype}, "
                f"device={self.device}) of size {self.size()}]")

    __str__ = __repr__
