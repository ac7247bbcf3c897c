"""torch.save and torch.load: objects holding tensors, pickled in gradsh's own format (not
PyTorch's zip files; gradsh reads what gradsh wrote)."""

from __future__ import annotations

import importlib
import importlib.util
import io
import pickle
from typing import Any

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


def load(f: Any, map_location: Any = None, pickle_module: Any = pickle, *,
         weights_only: bool | None = None, **_: Any) -> Any:
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        with open(f, "rb") as source:
            data = source.read()
    else:
        data = f.read()
    if not data.startswith(_MAGIC):
        raise RuntimeError("gradsh can only load files written by gradsh's torch.save (PyTorch's "
                           "zip format is not implemented)")
    return pickle.load(io.BytesIO(data[len(_MAGIC):]))
