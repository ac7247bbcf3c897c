"""rrelu and rrelu_ (F.rrelu, nn.RReLU): random slopes for the non-positive inputs when
training, the mean slope otherwise."""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.functions.common import not_implemented_for
from gradsh.engine.functions.rrelu import RreluWithNoiseBackward0, RreluWithNoiseBackward1
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.sampling import _generator
from gradsh.engine.tensor import Tensor, apply_inplace

__all__ = ["rrelu", "rrelu_", "functional_rrelu"]


def _checked(input: Tensor, name: str, training: bool) -> Tensor:  # noqa: A002
    input = _check_tensor(input, name)
    # the training kernel has no float16 instance (the evaluation one is leaky_relu's)
    if not input.dtype.is_floating_point or (training and input.dtype is dtypes.float16):
        raise not_implemented_for("rrelu_with_noise_out_cpu", input.dtype)
    return input


@guarded
def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,  # noqa: A002
          training: bool = False, generator: Any = None) -> Tensor:
    return RreluWithNoiseBackward0.apply(_checked(input, "rrelu", training), lower=lower,
                                         upper=upper,
                                         training=training, generator=_generator(generator))


@guarded
def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,  # noqa: A002
           training: bool = False, generator: Any = None) -> Tensor:
    return apply_inplace(RreluWithNoiseBackward1, _checked(input, "rrelu_", training), lower=lower,
                         upper=upper, training=training, generator=_generator(generator))


@guarded
def functional_rrelu(input: Tensor, lower: float = 1.0 / 8,  # noqa: A002
                     upper: float = 1.0 / 3, training: bool = False,
                     inplace: bool = False) -> Tensor:
    """F.rrelu: training is False unless told (nn.RReLU passes its own mode)."""
    op = rrelu_ if inplace else rrelu
    return op(input, lower, upper, training)  # type: ignore[no-any-return]
