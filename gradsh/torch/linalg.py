"""torch.linalg: the norms gradsh has."""

from __future__ import annotations

from gradsh.engine import ops
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.linalg")

vector_norm = ops.vector_norm
