"""torch.load of files that PyTorch itself wrote: its zip archives (torch.save since 1.6:
`data.pkl` plus one raw `data/KEY` entry per storage) and the legacy stream of pickles before
that (magic number, protocol, system info, the object, the storage keys, then each storage as
an int64 element count and its bytes). Checkpoints shipped with a repository (`model.pkl`,
`*.pth`) are in one of these formats, and real programs load them.

The object pickle names PyTorch's globals (`torch._utils._rebuild_tensor_v2`,
`torch.FloatStorage`, `torch.nn.modules.linear.Linear`); they are mapped onto gradsh's. Storages
are read into NumPy arrays first, so tensors that shared a storage share memory after loading,
as in PyTorch."""

from __future__ import annotations

import io
import pickle
import struct
import sys
import zipfile
from typing import Any, Callable

import numpy as np

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C

_STORAGE_DTYPES = {
    "FloatStorage": "float32", "DoubleStorage": "float64", "HalfStorage": "float16",
    "BFloat16Storage": "bfloat16", "LongStorage": "int64", "IntStorage": "int32",
    "ShortStorage": "int16", "CharStorage": "int8", "ByteStorage": "uint8",
    "BoolStorage": "bool", "ComplexFloatStorage": "complex64",
    "ComplexDoubleStorage": "complex128",
}


class _StorageType:
    """What a pickle's `torch.FloatStorage` global stands for here: the element dtype."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.dtype_name = _STORAGE_DTYPES[name]

    def numpy_dtype(self) -> np.dtype:
        from gradsh.engine import dtypes

        return dtypes.named(self.dtype_name).np


def _rebuild_tensor_v2(storage: np.ndarray, storage_offset: int, size: Any, stride: Any,
                       requires_grad: bool, backward_hooks: Any, metadata: Any = None) -> Any:
    from gradsh.torch._python_api import _rebuild_tensor

    item = storage.dtype.itemsize
    layout = (tuple(size), storage.dtype, tuple(s * item for s in stride))
    return _rebuild_tensor(None, storage, storage_offset * item, layout, "cpu", requires_grad,
                           None)


def _rebuild_parameter(data: Any, requires_grad: bool, backward_hooks: Any) -> Any:
    from gradsh.torch.nn.parameter import Parameter

    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data: Any, requires_grad: bool, backward_hooks: Any,
                                  state: Any) -> Any:
    param = _rebuild_parameter(data, requires_grad, backward_hooks)
    if isinstance(state, tuple):  # (__dict__, slots)
        state = state[0]
    if state:
        param.__dict__.update(state)
    return param


def _rebuild_from_type_v2(func: Callable[..., Any], new_type: type, args: tuple[Any, ...],
                          state: Any) -> Any:
    result = func(*args)
    if type(result) is not new_type:
        result = result.as_subclass(new_type)
    if isinstance(state, tuple):
        state = state[0]
    if state:
        result.__dict__.update(state)
    return result


_FUNCTIONS: dict[tuple[str, str], Any] = {
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch._utils", "_rebuild_parameter_with_state"): _rebuild_parameter_with_state,
    ("torch._tensor", "_rebuild_from_type_v2"): _rebuild_from_type_v2,
}


def torch_global(module: str, name: str) -> Any:
    """gradsh's object for one of PyTorch's tensor-building globals, or None."""
    found = _FUNCTIONS.get((module, name))
    if found is not None:
        return found
    if module == "torch" and name in _STORAGE_DTYPES:
        return _StorageType(name)
    return None


def _check_location(location: str, map_location: Any) -> None:
    from gradsh.torch import cuda

    if map_location is None and str(location).startswith("cuda") and not cuda.is_available():
        raise RuntimeError(
            "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() "
            "is False. If you are running on a CPU-only machine, please use torch.load with "
            "map_location=torch.device('cpu') to map your storages to the CPU.")


def _storage_id(saved_id: Any) -> tuple[_StorageType, str, str, int]:
    if not isinstance(saved_id, tuple) or saved_id[0] != "storage":
        raise pickle.UnpicklingError(f"unsupported persistent id {saved_id!r}")
    storage_type, key, location, numel = saved_id[1:5]
    if not isinstance(storage_type, _StorageType):
        raise pickle.UnpicklingError(f"unsupported storage type {storage_type!r}")
    return storage_type, str(key), str(location), int(numel)


def load_zip(data: bytes, unpickler: Callable[[Any], pickle.Unpickler], map_location: Any) -> Any:
    """The object in one of PyTorch's zip archives."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    names = archive.namelist()
    pkl = min((n for n in names if n.endswith("data.pkl")), key=len)
    prefix = pkl[:-len("data.pkl")]
    order = archive.read(prefix + "byteorder").decode() if prefix + "byteorder" in names \
        else "little"
    storages: dict[str, np.ndarray] = {}

    def persistent_load(saved_id: Any) -> np.ndarray:
        storage_type, key, location, numel = _storage_id(saved_id)
        _check_location(location, map_location)
        if key not in storages:
            raw = bytearray(archive.read(f"{prefix}data/{key}"))
            storage = np.frombuffer(raw, dtype=storage_type.numpy_dtype(), count=numel)
            storages[key] = storage.byteswap() if order != sys.byteorder else storage
        return storages[key]

    reader = unpickler(io.BytesIO(archive.read(pkl)))
    reader.persistent_load = persistent_load  # type: ignore[method-assign]
    return reader.load()


def load_legacy(data: bytes, unpickler: Callable[[Any], pickle.Unpickler],
                map_location: Any) -> Any:
    """The object in PyTorch's pre-1.6 format. Its storages follow the object's pickle: the
    object is built on empty arrays of the right types and sizes, which are then filled in
    place (gradsh's tensors are views of them, not copies)."""
    stream = io.BytesIO(data)
    for _ in range(3):  # magic number, protocol version, system info
        pickle.load(stream)
    storages: dict[str, np.ndarray] = {}

    def persistent_load(saved_id: Any) -> Any:
        if isinstance(saved_id, tuple) and saved_id and saved_id[0] == "module":
            return saved_id[1]
        storage_type, key, location, numel = _storage_id(saved_id)
        _check_location(location, map_location)
        if key not in storages:
            storages[key] = np.zeros(numel, dtype=storage_type.numpy_dtype())
        storage = storages[key]
        view = saved_id[5] if len(saved_id) > 5 else None
        if view:
            _, offset, size = view
            storage = storage[offset:offset + size]
        return storage

    reader = unpickler(stream)
    reader.persistent_load = persistent_load  # type: ignore[method-assign]
    result = reader.load()
    for key in pickle.load(stream):
        storage = storages[str(key)]
        (count,) = struct.unpack("<q", stream.read(8))
        raw = stream.read(count * storage.dtype.itemsize)
        storage[:count] = np.frombuffer(raw, dtype=storage.dtype.newbyteorder("<"))
    return result


def is_legacy(data: bytes) -> bool:
    """Whether data begins with the pickled magic number of PyTorch's pre-1.6 format."""
    try:
        return bool(pickle.load(io.BytesIO(data[:64])) == LEGACY_MAGIC)
    except Exception:  # noqa: BLE001  (anything unpickling can raise: not that format)
        return False
