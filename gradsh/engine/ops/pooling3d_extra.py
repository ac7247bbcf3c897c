"""max_pool3d (with indices) and adaptive_avg_pool3d."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.pooling3d_extra import (
    AdaptiveAvgPool3DBackward0,
    MaxPool3DWithIndicesBackward0,
)
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.pooling3d import _triple, check_non_batch_positive
from gradsh.engine.ops.reductions import mean
from gradsh.engine.tensor import Tensor

__all__ = ["max_pool3d", "max_pool3d_with_indices", "adaptive_avg_pool3d"]


def _out_size(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    span = n + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


@guarded
def max_pool3d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = True) -> tuple[Tensor, Tensor]:
    input = _check_tensor(input, "max_pool3d")
    if input.ndim not in (4, 5):
        raise TorchRuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    kernel = _triple(kernel_size)
    steps = kernel if stride is None or stride in ([], ()) else _triple(stride)
    pads, dilations = _triple(padding), _triple(dilation)
    for k, p in zip(kernel, pads, strict=True):
        if p > k // 2:
            raise TorchRuntimeError(f"pad should be at most half of effective kernel size, but "
                                    f"got pad={p}, kernel_size={k} and dilation=1")
    check_non_batch_positive(input, "max_pool3d_with_indices_out_cpu_template()")
    out = tuple(_out_size(n, k, s, p, d, ceil_mode) for n, k, s, p, d in
                zip(input.shape[-3:], kernel, steps, pads, dilations, strict=True))
    if any(o <= 0 for o in out):
        raise TorchRuntimeError(
            f"Given input size: ({'x'.join(map(str, input.shape[-4:]))}). Calculated output "
            f"size: ({input.shape[-4]}x{'x'.join(map(str, out))}). Output size is too small")
    result = MaxPool3DWithIndicesBackward0.apply(input, kernel=kernel, stride=steps,
                                                 padding=pads, dilation=dilations, out=out)
    node = result.grad_fn
    if not isinstance(node, MaxPool3DWithIndicesBackward0):
        node = MaxPool3DWithIndicesBackward0()
        node.needs_input_grad = (False,)
        node.forward(input, kernel, steps, pads, dilations, out)
    return result, Tensor._make(node.indices, input.device)


@guarded
def max_pool3d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Any:
    out, indices = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation,
                                           ceil_mode)
    return (out, indices) if return_indices else out


@guarded
def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    input = _check_tensor(input, "adaptive_avg_pool3d")
    if input.ndim not in (4, 5):
        raise TorchRuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got "
                                f"{list(input.shape)}")
    sizes = [output_size] * 3 if isinstance(output_size, int) else list(output_size)
    if len(sizes) == 1:
        sizes = sizes * 3
    out = tuple(int(input.shape[input.ndim - 3 + k]) if v is None else int(v)
                for k, v in enumerate(sizes))
    if out == (1, 1, 1):  # ATen takes the mean for a single output (MeanBackward1)
        return mean(input, (-1, -2, -3), keepdim=True)  # type: ignore[no-any-return]
    for i in range(1, input.ndim):  # (from 1: an unbatched input's channels too may be 0)
        if input.shape[i] == 0:
            raise TorchRuntimeError(
                "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch "
                f"dimensions, but input has sizes {list(input.shape)} with dimension {i} being "
                "empty")
    return AdaptiveAvgPool3DBackward0.apply(input, output_size=out)  # type: ignore
