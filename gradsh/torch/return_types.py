"""torch.return_types: the types of the named tuples torch.max(x, 0), torch.sort,
torch.linalg.svd ... return (gradsh/engine/ops/return_types.py), by their names."""

from __future__ import annotations

from gradsh.engine import ops as _ops  # noqa: F401  (every op module, so every type, made)
from gradsh.engine.ops.return_types import ALL as _ALL

globals().update(_ALL)
all_return_types = list(_ALL.values())
__all__ = [*_ALL, "all_return_types"]
