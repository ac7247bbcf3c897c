"""adaptive_max_pool1d/2d (and their _with_indices forms): the 1-D form is the 2-D one on an
unsqueezed input, as in ATen."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.functions.adaptive_pooling import AdaptiveMaxPool2DBackward0
from gradsh.engine.functions.pooling import Pair
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import squeeze, unsqueeze
from gradsh.engine.tensor import Tensor

__all__ = ["adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool1d_with_indices",
           "adaptive_max_pool2d_with_indices"]


def _output_pair(output_size: Any, input: Tensor) -> Pair:  # noqa: A002
    """F's _list_with_default: an int for both sides, None for the input's own size."""
    if isinstance(output_size, int):
        return output_size, output_size
    sizes = list(output_size)
    if len(sizes) == 1:
        sizes = sizes * 2
    if len(sizes) != 2:
        raise TorchValueError("Input dimension should be at least 4" if input.ndim < 4 else
                              "adaptive_max_pool2d: internal error: output_size must be 2")
    return tuple(int(input.shape[input.ndim - 2 + k]) if v is None else int(v)  # type: ignore
                 for k, v in enumerate(sizes))


@guarded
def adaptive_max_pool2d_with_indices(input: Tensor, output_size: Any,  # noqa: A002
                                     return_indices: bool = True) -> tuple[Tensor, Tensor]:
    input = _check_tensor(input, "adaptive_max_pool2d")
    if input.ndim not in (3, 4):
        raise TorchRuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: "
                                f"{list(input.shape)}")
    out_size = _output_pair(output_size, input)
    empty = [d for d in range(input.ndim - 3, input.ndim) if input.shape[d] == 0]
    if empty:  # (only a 4-D input's batch may be empty)
        raise TorchRuntimeError(
            "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch "
            f"dimensions, but input has sizes {list(input.shape)} with dimension "
            f"{empty[0]} being empty")
    out = AdaptiveMaxPool2DBackward0.apply(input, output_size=out_size)
    node = out.grad_fn
    if not isinstance(node, AdaptiveMaxPool2DBackward0):  # not recorded: compute the indices
        node = AdaptiveMaxPool2DBackward0()
        node.needs_input_grad = (False,)
        node.forward(input, out_size)
    return out, Tensor._make(node.indices, input.device)


@guarded
def adaptive_max_pool2d(input: Tensor, output_size: Any,  # noqa: A002
                        return_indices: bool = False) -> Any:
    out, indices = adaptive_max_pool2d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


@guarded
def adaptive_max_pool1d_with_indices(input: Tensor, output_size: Any,  # noqa: A002
                                     return_indices: bool = True) -> tuple[Tensor, Tensor]:
    input = _check_tensor(input, "adaptive_max_pool1d")
    if input.ndim not in (2, 3):
        raise TorchRuntimeError(
            f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument "
            "#1 'self' (while checking arguments for adaptive_max_pool1d)")
    size = output_size if isinstance(output_size, int) else int(tuple(output_size)[0])
    out, indices = adaptive_max_pool2d_with_indices(unsqueeze(input, -2), (1, size))
    return squeeze(out, -2), squeeze(indices, -2)


@guarded
def adaptive_max_pool1d(input: Tensor, output_size: Any,  # noqa: A002
                        return_indices: bool = False) -> Any:
    out, indices = adaptive_max_pool1d_with_indices(input, output_size)
    return (out, indices) if return_indices else out
