"""More torch.NAME functions: torch.ctc_loss (ATen's signature: the reduction an int, 0 by
default in PyTorch's bindings)."""

from __future__ import annotations

from gradsh.engine import ops

__all__ = ["ctc_loss", "conv_transpose3d", "geqrf", "orgqr", "lu", "lu_solve", "lu_unpack",
           "empty_strided", "frombuffer"]

ctc_loss = ops.ctc_loss
conv_transpose3d = ops.conv_transpose3d
geqrf = ops.geqrf
orgqr = ops.orgqr
lu = ops.lu
lu_solve = ops.lu_solve
lu_unpack = ops.lu_unpack
empty_strided = ops.empty_strided
frombuffer = ops.frombuffer
