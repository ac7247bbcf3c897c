"""avg_pool3d (no padding, floor mode: the pooling local_response_norm does)."""

from __future__ import annotations

from typing import Any

from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.pooling3d import AvgPool3DBackward0
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["avg_pool3d"]


def _triple(value: Any) -> tuple[int, int, int]:
    if isinstance(value, (list, tuple)):
        if len(value) == 1:
            return (int(value[0]),) * 3
        a, b, c = (int(v) for v in value)
        return a, b, c
    return (int(value),) * 3


def check_non_batch_positive(input: Tensor, fname: str) -> None:  # noqa: A002
    """pool3d_shape_check: every dimension but a 5-D input's batch must have elements. (ATen
    prints the empty dimension's size, 0, where it means to name the dimension.)"""
    for i, n in enumerate(input.shape):
        if n == 0 and not (input.ndim == 5 and i == 0):
            raise TorchRuntimeError(f"{fname}: Expected input's non-batch dimensions to have "
                                    f"positive length, but input has a shape of "
                                    f"{list(input.shape)} and non-batch dimension {n} has "
                                    "length zero!")


@guarded
def avg_pool3d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    input = _check_tensor(input, "avg_pool3d")
    if input.ndim not in (4, 5):
        raise TorchRuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    kernel = _triple(kernel_size)
    steps = kernel if stride is None or stride == [] or stride == () else _triple(stride)
    if _triple(padding) != (0, 0, 0) or ceil_mode:
        from gradsh.engine.exceptions import TorchNotImplementedError

        raise TorchNotImplementedError("gradsh does not implement avg_pool3d with padding or "
                                       "ceil_mode yet")
    check_non_batch_positive(input, "avg_pool3d()")
    out = tuple((n - k) // s + 1 for n, k, s in zip(input.shape[-3:], kernel, steps,
                                                     strict=True))
    if any(n <= 0 for n in out):
        raise TorchRuntimeError(f"Given input size: ({'x'.join(map(str, input.shape[-4:]))}). "
                                f"Calculated output size: ({input.shape[-4]}x"
                                f"{'x'.join(map(str, out))}). Output size is too small")
    divisor = divisor_override or kernel[0] * kernel[1] * kernel[2]
    return AvgPool3DBackward0.apply(input, kernel=kernel, stride=steps,  # type: ignore
                                    out_size=out, divisor=divisor)
