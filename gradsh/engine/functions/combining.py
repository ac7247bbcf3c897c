"""The node of block_diag: BlockDiagBackward0 (each input's gradient is its block)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.functions.common import xp_of
from gradsh.engine.tensor import Array, Function, Tensor

__all__ = ["BlockDiagBackward0"]


class BlockDiagBackward0(Function):
    """The inputs (as 2-D blocks) along the diagonal of a zero matrix."""

    node_name = "BlockDiagBackward0"

    def forward(self, *blocks: Tensor, dtype: Any) -> Array:
        shapes = [_as_block_shape(b.shape) for b in blocks]
        self.shapes = [tuple(b.shape) for b in blocks]
        rows, cols = sum(s[0] for s in shapes), sum(s[1] for s in shapes)
        xp = xp_of(blocks[0]._data)
        out = xp.zeros((rows, cols), dtype=dtype.np)
        self.corners = []
        r = c = 0
        for block, (h, w) in zip(blocks, shapes, strict=True):
            out[r:r + h, c:c + w] = block._data.reshape(h, w)
            self.corners.append((r, c, h, w))
            r, c = r + h, c + w
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        grads = []
        for (r, c, h, w), shape, need in zip(self.corners, self.shapes, self.needs_input_grad,
                                             strict=True):
            if not need:
                grads.append(None)
                continue
            part = F.narrow(F.narrow(grad, 0, r, h), 1, c, w)
            grads.append(F.reshape(part, shape))
        return tuple(grads)


def _as_block_shape(shape: tuple[int, ...]) -> tuple[int, int]:
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return 1, shape[0]
    return shape[0], shape[1]
