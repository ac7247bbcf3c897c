"""torch.nn: modules, parameters, init and the functional forms."""

from __future__ import annotations

from gradsh.torch._missing import module_getattr
from gradsh.torch.nn import functional

__getattr__ = module_getattr("torch.nn")

__all__ = ["functional"]
