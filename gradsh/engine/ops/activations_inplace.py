"""The in-place activations: F.elu_(x), F.relu(x, inplace=True) ... (nn.ReLU(inplace=True));
hardswish_ and the other nn-only ones sit with their nodes in engine/nn_activation.py.

Each changes x's storage, bumps its version and rebases its history as PyTorch's `*_` kernels
do: the node is the out-of-place one (HardtanhBackward0, SiluBackward0 ...) seeing the old value,
or the one derivatives.yaml gives the in-place form (EluBackward1, LeakyReluBackward1 ...). On a
leaf that requires grad, PyTorch's in-place error.
"""

from __future__ import annotations

from gradsh.engine.functions.activations import (
    HardsigmoidBackward0,
    HardtanhBackward0,
    MishBackward0,
    SiluBackward0,
)
from gradsh.engine.functions.activations_inplace import (
    CeluBackward1,
    EluBackward1,
    LeakyReluBackward1,
    ThresholdBackward1,
)
from gradsh.engine.functions.common import not_implemented_for
from gradsh.engine.ops.arguments import _check_tensor, unmeasured
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.unary import relu, relu_
from gradsh.engine.tensor import Tensor, apply_inplace

__all__ = [
    "elu_", "selu_", "celu_", "leaky_relu_", "hardtanh_", "relu6_", "threshold_",
    "hardsigmoid_", "silu_", "mish_", "functional_relu",
]

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _float_target(a: Tensor, fname: str, kernel: str) -> Tensor:
    """The tensor to change, which must be floating (PyTorch names the kernel that refuses)."""
    a = _check_tensor(a, fname)
    if not a.dtype.is_floating_point:
        raise not_implemented_for(kernel, a.dtype)
    return a


@guarded
def elu_(a: Tensor, alpha: float = 1.0) -> Tensor:
    a = _float_target(a, "elu_", "elu_cpu")
    return apply_inplace(EluBackward1, a, alpha=alpha, scale=1.0, input_scale=1.0)


@guarded
def selu_(a: Tensor) -> Tensor:
    """ATen's selu_ is elu_ with SELU's alpha and scale: EluBackward1."""
    a = _float_target(a, "selu_", "elu_cpu")
    return apply_inplace(EluBackward1, a, alpha=SELU_ALPHA, scale=SELU_SCALE, input_scale=1.0)


@guarded
def celu_(a: Tensor, alpha: float = 1.0) -> Tensor:
    a = _float_target(a, "celu_", "elu_cpu")
    return apply_inplace(CeluBackward1, a, alpha=alpha, scale=1.0, input_scale=1.0 / alpha)


@guarded
def leaky_relu_(a: Tensor, negative_slope: float = 0.01) -> Tensor:
    a = _float_target(a, "leaky_relu_", "leaky_relu_cpu")
    return apply_inplace(LeakyReluBackward1, a, negative_slope=negative_slope)


@guarded
def hardtanh_(a: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    a = _check_tensor(a, "hardtanh_")
    return apply_inplace(HardtanhBackward0, a, min_val=min_val, max_val=max_val)


@guarded
def relu6_(a: Tensor) -> Tensor:
    """F.relu6(x, inplace=True): hardtanh_(x, 0, 6), as torch.nn.functional writes it."""
    return hardtanh_(a, 0.0, 6.0)


@guarded
def threshold_(a: Tensor, threshold: float, value: float) -> Tensor:
    a = _check_tensor(a, "threshold_")
    return apply_inplace(ThresholdBackward1, a, threshold=threshold, value=value)


@guarded
def hardsigmoid_(a: Tensor) -> Tensor:
    a = _float_target(a, "hardsigmoid_", "hardsigmoid_cpu")
    return apply_inplace(HardsigmoidBackward0, a)


@guarded
def silu_(a: Tensor) -> Tensor:
    a = _float_target(a, "silu_", "silu_cpu")
    return apply_inplace(SiluBackward0, a)


@guarded
def mish_(a: Tensor) -> Tensor:
    a = _float_target(a, "mish_", "mish_cpu")
    return apply_inplace(MishBackward0, a)


def _functional_relu(a: Tensor, inplace: bool = False) -> Tensor:
    """F.relu(input, inplace=False): relu, or relu_ in place."""
    if inplace:
        return relu_(a)
    if a.__class__ is Tensor and unmeasured(a):
        return _RELU(a)  # (relu's guard would check the same tensor as F.relu's has)
    return relu(a)


_RELU = relu.__wrapped__  # the op behind its argument guard


functional_relu = guarded(_functional_relu, name="relu")
