"""torch.save and torch.load: objects holding tensors, pickled in gradsh's own format (not
PyTorch's zip files); torch.load also reads the files PyTorch writes (_pytorch_format)."""

from __future__ import annotations

import importlib
import importlib.util
import io
import pickle
from typing import Any

from gradsh.torch import _pytorch_format

_MAGIC = b"GRADSH-PICKLE-1\n"


def _torch_class(module: str, qualname: str) -> type:
    """The gradsh class a pickle names by its PyTorch name (torch.nn.modules.linear.Linear)."""
    found: Any = importlib.import_module("gradsh." + module)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found  # type: ignore[no-any-return]


class _Pickler(pickle.Pickler):
    """gradsh's classes carry PyTorch's module names (`torch.nn.modules.linear`), which a
    plain pickle would look up in sys.modules, finding a real torch or nothing; they are
    pickled as a call that finds them in gradsh.torch."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, type):
            module = obj.__module__
            if (module == "torch" or module.startswith("torch.")) and \
                    importlib.util.find_spec("gradsh." + module) is not None:
                return (_torch_class, (module, obj.__qualname__))
        return NotImplemented


def save(obj: Any, f: Any, pickle_module: Any = pickle, pickle_protocol: int = 2, **_: Any) -> None:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=max(pickle_protocol, 2)).dump(obj)
    data = _MAGIC + buffer.getvalue()
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        with open(f, "wb") as out:
            out.write(data)
    else:
        f.write(data)


# What torch.load(weights_only=True) (the default since PyTorch 2.6) unpickles: containers,
# tensors and parameters, and the few torch classes a state dict holds. gradsh's own tensor
# pickles name the functions below; its torch classes come through _torch_class.
_SAFE_GLOBALS = {
    ("collections", "OrderedDict"), ("collections", "Counter"), ("_codecs", "encode"),
    ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "bytearray"),
    ("builtins", "slice"), ("builtins", "complex"), ("builtins", "range"),
    ("__builtin__", "set"), ("__builtin__", "frozenset"),
    ("builtins", "bytes"), ("__builtin__", "bytes"),  # (protocol 2's empty bytes: b"")
    ("gradsh.torch._python_api", "_rebuild_tensor"), ("gradsh.engine.dtypes", "named"),
    ("gradsh.engine.pytypes", "_size"), ("gradsh.engine.pytypes", "_device"),
    ("gradsh.torch.nn.parameter", "_rebuild_parameter"),
    ("numpy", "dtype"), ("numpy", "ndarray"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("ml_dtypes", "bfloat16"),  # the NumPy scalar type of gradsh's bfloat16 arrays
}
_SAFE_TORCH = {"Size", "Tensor", "device", "dtype", "Parameter", "float16", "float32", "float64",
               "int8", "int16", "int32", "int64", "uint8", "bool"}
_user_safe_globals: list[Any] = []


def _refusal(name: str) -> pickle.UnpicklingError:
    name = name.removeprefix("gradsh.")  # gradsh.torch.nn... outside the runner: torch.nn...
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, "
        "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In "
        "PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
        "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
        "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
        "file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` "
        "please check the recommended steps in the following error message.\n\tWeightsUnpickler "
        f"error: Unsupported global: GLOBAL {name} was not an allowed global by default. Please "
        f"use `torch.serialization.add_safe_globals([{name}])` or the "
        f"`torch.serialization.safe_globals([{name}])` context manager to allowlist this global "
        "if you trust this class/function.\n\nCheck the documentation of torch.load to learn "
        "more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")


class _WeightsUnpickler(pickle.Unpickler):
    """Refuses every global but tensors, containers and those add_safe_globals allowed."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _SAFE_GLOBALS:
            return super().find_class(module, name)
        if (module, name) == ("gradsh.torch.serialization", "_torch_class"):
            return _safe_torch_class
        try:
            found = super().find_class(module, name)
        except (AttributeError, ImportError):
            found = None
        if found is not None and (found.__name__ in _SAFE_TORCH and _is_gradsh(found) or
                                  any(found is g for g in _user_safe_globals)):
            return found
        raise _refusal(f"{module}.{name}")


def _is_gradsh(obj: Any) -> bool:
    """A class of gradsh's torch (gradsh.engine... or gradsh.torch..., or torch... as the
    runner names them), not a user's class of the same name."""
    module = getattr(obj, "__module__", "") or ""
    return module.startswith(("gradsh.", "torch.")) or module == "torch"


def _safe_torch_class(module: str, qualname: str) -> type:
    cls = _torch_class(module, qualname)
    if qualname in _SAFE_TORCH or any(cls is g for g in _user_safe_globals):
        return cls
    raise _refusal(f"{module}.{qualname}")


def add_safe_globals(safe_globals: list[Any]) -> None:
    """Allow these classes and functions in torch.load(weights_only=True)."""
    _user_safe_globals.extend(safe_globals)


def get_safe_globals() -> list[Any]:
    return list(_user_safe_globals)


def clear_safe_globals() -> None:
    _user_safe_globals.clear()


class safe_globals:  # noqa: N801  (PyTorch's name)
    """add_safe_globals for the duration of a with block."""

    def __init__(self, safe_globals: list[Any]) -> None:
        self.safe_globals = list(safe_globals)

    def __enter__(self) -> None:
        self._before = list(_user_safe_globals)
        _user_safe_globals.extend(self.safe_globals)

    def __exit__(self, *exc: Any) -> None:
        _user_safe_globals[:] = self._before


class _TorchFormatWeightsUnpickler(_WeightsUnpickler):
    """weights_only=True for a file PyTorch wrote: its tensor-building globals are gradsh's,
    its torch classes pass only where a weights-only load allows them."""

    def find_class(self, module: str, name: str) -> Any:
        found = _pytorch_format.torch_global(module, name)
        if found is not None:
            return found
        if module == "torch" or module.startswith("torch."):
            try:
                return _safe_torch_class(module, name)
            except (ImportError, AttributeError):
                raise _refusal(f"{module}.{name}") from None
        return super().find_class(module, name)


class _TorchFormatUnpickler(pickle.Unpickler):
    """weights_only=False for a file PyTorch wrote: PyTorch's classes are gradsh's."""

    def find_class(self, module: str, name: str) -> Any:
        found = _pytorch_format.torch_global(module, name)
        if found is not None:
            return found
        if module == "torch" or module.startswith("torch."):
            try:
                return _torch_class(module, name)
            except (ImportError, AttributeError):
                pass
        return super().find_class(module, name)


def load(f: Any, map_location: Any = None, pickle_module: Any = pickle, *,
         weights_only: bool | None = None, **_: Any) -> Any:
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        with open(f, "rb") as source:
            data = source.read()
    else:
        data = f.read()
    if not data.startswith(_MAGIC):
        unpickler = _TorchFormatUnpickler if weights_only is False else \
            _TorchFormatWeightsUnpickler
        if data[:4] == b"PK\x03\x04":
            return _pytorch_format.load_zip(data, unpickler, map_location)
        if _pytorch_format.is_legacy(data):
            return _pytorch_format.load_legacy(data, unpickler, map_location)
        raise RuntimeError("gradsh can only load files written by gradsh's torch.save (PyTorch's "
                           "zip format is not implemented)")
    payload = io.BytesIO(data[len(_MAGIC):])
    if weights_only is None or weights_only:
        return _WeightsUnpickler(payload).load()
    return pickle.load(payload)
