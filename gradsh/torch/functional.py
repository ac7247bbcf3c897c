"""torch.functional: the functions PyTorch writes in Python (`import torch.functional as F`
appears in real code); each is the torch.* function of the same name."""

from __future__ import annotations

from gradsh.engine import ops
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.functional")

atleast_1d = ops.atleast_1d
atleast_2d = ops.atleast_2d
atleast_3d = ops.atleast_3d
broadcast_shapes = ops.broadcast_shapes
broadcast_tensors = ops.broadcast_tensors
cartesian_prod = ops.cartesian_prod
meshgrid = ops.meshgrid
norm = ops.norm
split = ops.split
tensordot = ops.tensordot
unique = ops.unique

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
    "cartesian_prod", "meshgrid", "norm", "split", "tensordot", "unique",
]
