"""Serves `import torch` (and every `torch.*` submodule) from gradsh.torch to the Python programs
gradsh runs: never an installed PyTorch, whatever sys.path holds."""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

_PREFIX = "gradsh."


class _TorchFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """First on sys.meta_path: `torch.X` is gradsh.torch.X, or a ModuleNotFoundError saying that
    gradsh does not implement it (never a fall-through to a real torch)."""

    def __init__(self) -> None:
        self._specs: dict[str, Any] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "torch" and not fullname.startswith("torch.") and fullname != "functorch":
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        try:
            module = importlib.import_module(_PREFIX + spec.name)
        except ModuleNotFoundError as err:
            if err.name is not None and not err.name.startswith(_PREFIX + "torch"):
                raise
            raise ModuleNotFoundError(f"gradsh does not implement {spec.name} yet",
                                      name=spec.name) from None
        self._specs[spec.name] = module.__spec__
        from gradsh.torch import _python_api

        _python_api.torch_class_names(module)  # a module gradsh.torch had not imported yet
        return module

    def exec_module(self, module: ModuleType) -> None:
        """The module ran when gradsh imported it; importlib has just replaced its __spec__
        with the alias's, so put gradsh's back."""
        original = self._specs.pop(module.__spec__.name, None) if module.__spec__ else None
        if original is not None:
            module.__spec__ = original


_FINDER = _TorchFinder()


@contextlib.contextmanager
def served_torch() -> Iterator[ModuleType]:
    """While the block runs, `import torch` gives gradsh.torch. Modules already imported
    under gradsh.torch.* are registered under their torch.* names at once, so a module keeps
    one identity under both names. Afterwards sys.modules is as it was (a real torch that
    was imported before, as in gradsh's own tests, is back)."""
    import gradsh.torch
    from gradsh.torch import _python_api

    before = {name: module for name, module in sys.modules.items()
              if name == "torch" or name.startswith("torch.")}
    for name in before:
        del sys.modules[name]
    for name, module in list(sys.modules.items()):
        if name == "gradsh.torch" or name.startswith("gradsh.torch."):
            sys.modules[name[len(_PREFIX):]] = module
    sys.meta_path.insert(0, _FINDER)
    _python_api.serve_class_names()
    try:
        yield gradsh.torch
    finally:
        _python_api.restore_class_names()
        if _FINDER in sys.meta_path:
            sys.meta_path.remove(_FINDER)
        for name in [n for n in sys.modules if n in ("torch", "functorch")
                     or n.startswith("torch.")]:
            del sys.modules[name]
        sys.modules.update(before)
