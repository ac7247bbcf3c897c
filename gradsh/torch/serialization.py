"""torch.save and torch.load: objects holding tensors, pickled in gradsh's own format (not
PyTorch's zip files; gradsh reads what gradsh wrote)."""

from __future__ import annotations

import io
import pickle
from typing import Any

_MAGIC = b"GRADSH-PICKLE-1\n"


def save(obj: Any, f: Any, pickle_module: Any = pickle, pickle_protocol: int = 2, **_: Any) -> None:
    data = _MAGIC + pickle.dumps(obj, protocol=max(pickle_protocol, 2))
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
