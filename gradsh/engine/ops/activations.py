"""The nn activations: softmax, log_softmax, softmin, elu, silu, gelu, hardtanh, threshold, glu,
prelu ..."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
    warn,
)
from gradsh.engine.functions.activations import (
    CeluBackward0,
    EluBackward0,
    GeluBackward0,
    GluBackward0,
    HardshrinkBackward0,
    HardsigmoidBackward0,
    HardswishBackward0,
    HardtanhBackward0,
    LeakyReluBackward0,
    LogSigmoidBackward0,
    LogSoftmaxBackward0,
    MishBackward0,
    PreluKernelBackward0,
    SiluBackward0,
    SoftmaxBackward0,
    SoftplusBackward0,
    SoftshrinkBackward0,
    ThresholdBackward0,
)
from gradsh.engine.functions.common import not_implemented_for
from gradsh.engine.ops.activations_inplace import (
    celu_,
    elu_,
    hardsigmoid_,
    hardtanh_,
    leaky_relu_,
    mish_,
    relu6_,
    selu_,
    silu_,
    threshold_,
)
from gradsh.engine.ops.arguments import _check_tensor, wrap_dim
from gradsh.engine.ops.copies import to
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.arithmetic import add, div, sub
from gradsh.engine.ops.shape import reshape
from gradsh.engine.ops.unary import abs, neg, tanh  # noqa: A004
from gradsh.engine.tensor import Tensor, apply_inplace

__all__ = [
    "softmax", "log_softmax", "torch_softmax", "torch_log_softmax", "softmin", "logsigmoid", "leaky_relu", "elu", "silu", "softplus",
    "hardtanh", "relu6", "gelu", "mish", "hardsigmoid", "threshold", "celu", "selu", "hardswish",
    "hardshrink", "softshrink", "glu", "prelu", "softsign", "tanhshrink",
]

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _softmax_dim(fname: str, ndim: int, dim: Any) -> int:
    if dim is None:
        warn(f"Implicit dimension choice for {fname} has been deprecated. Change the call to "
             "include dim=X as an argument.")
        dim = 0 if ndim in (0, 1, 3) else 1
    return wrap_dim(dim, ndim)


def _softmax_kernel(name: str, ndim: int, dim: int) -> str:
    """The CPU kernel PyTorch names when it refuses a dtype: its last-dim kernel for the
    last dimension (or a 0-d tensor), its strided one otherwise."""
    return f"{name}_lastdim_kernel_impl" if dim >= ndim - 1 else f"{name}_kernel_impl"


@guarded
def softmax(a: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    """F.softmax (torch.softmax when dim is given): SoftmaxBackward0."""
    a = _check_tensor(a, "softmax")
    d = _softmax_dim("softmax", a.ndim, dim)
    if dtype is not None:
        a = to(a, dtype)
    if not a.dtype.is_floating_point:
        raise not_implemented_for(_softmax_kernel("softmax", a.ndim, d), a.dtype)
    return SoftmaxBackward0.apply(a, dim=d)


@guarded
def log_softmax(a: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    a = _check_tensor(a, "log_softmax")
    d = _softmax_dim("log_softmax", a.ndim, dim)
    if dtype is not None:
        a = to(a, dtype)
    if not a.dtype.is_floating_point:
        raise not_implemented_for(_softmax_kernel("log_softmax", a.ndim, d), a.dtype)
    return LogSoftmaxBackward0.apply(a, dim=d)


def dim_required(function: Callable[..., Tensor], name: str,
                 method: bool) -> Callable[..., Tensor]:
    """torch.softmax and Tensor.softmax (log_softmax too): PyTorch's parser requires dim, an
    int; only F.softmax infers one, with a warning."""

    def strict(a: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if args:
            dim, where = args[0], f" (position {1 if method else 2})"
        elif "dim" in kwargs:
            dim, where = kwargs["dim"], ""
        else:
            raise TorchTypeError(f'{name}() missing 1 required positional arguments: "dim"')
        if dim is None:
            raise TorchTypeError(f"{name}(): argument 'dim'{where} must be int, not NoneType")
        return function(a, *args, **kwargs)

    strict.__name__ = strict.__qualname__ = name
    return strict


torch_softmax = guarded(dim_required(softmax, "softmax", method=False), name="softmax")
torch_log_softmax = guarded(dim_required(log_softmax, "log_softmax", method=False),
                            name="log_softmax")


@guarded
def softmin(a: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    """F.softmin: softmax of -x (NegBackward0 under SoftmaxBackward0)."""
    a = _check_tensor(a, "softmin")
    d = _softmax_dim("softmin", a.ndim, dim)
    if dtype is not None:
        return softmax(to(neg(a), dtype), d)
    return softmax(neg(a), d)


def _not_inplace(name: str, inplace: bool) -> None:
    if inplace:
        raise TorchNotImplementedError(f"gradsh's {name} has no inplace=True")


def _float_input(a: Tensor, name: str, kernel: str) -> Tensor:
    a = _check_tensor(a, name)
    if not a.dtype.is_floating_point:
        raise not_implemented_for(kernel, a.dtype)
    return a


@guarded
def logsigmoid(a: Tensor) -> Tensor:
    return LogSigmoidBackward0.apply(_float_input(a, "log_sigmoid", "log_sigmoid_cpu"))


@guarded
def leaky_relu(a: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    if inplace:
        return leaky_relu_(a, negative_slope)
    return LeakyReluBackward0.apply(_float_input(a, "leaky_relu", "leaky_relu_cpu"),
                                       negative_slope=negative_slope)


@guarded
def elu(a: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return elu_(a, alpha)
    return EluBackward0.apply(_float_input(a, "elu", "elu_cpu"), alpha=alpha, scale=1.0,
                                 input_scale=1.0)


@guarded
def silu(a: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return silu_(a)
    return SiluBackward0.apply(_float_input(a, "silu", "silu_cpu"))


@guarded
def softplus(a: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return SoftplusBackward0.apply(_float_input(a, "softplus", "softplus_cpu"), beta=beta,
                                      threshold=threshold)


@guarded
def hardtanh(a: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    if min_val > max_val:
        raise TorchValueError("min_val cannot be greater than max_val")
    if inplace:
        return hardtanh_(a, min_val, max_val)
    return HardtanhBackward0.apply(_check_tensor(a, "hardtanh"), min_val=min_val,
                                      max_val=max_val)


@guarded
def relu6(a: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return relu6_(a)
    return hardtanh(a, 0.0, 6.0)


@guarded
def gelu(a: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise TorchRuntimeError("approximate argument must be either none or tanh.")
    return GeluBackward0.apply(_float_input(a, "gelu", "GeluKernelImpl"),
                                  approximate=approximate)


@guarded
def mish(a: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return mish_(a)
    return MishBackward0.apply(_float_input(a, "mish", "mish_cpu"))


@guarded
def hardsigmoid(a: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return hardsigmoid_(a)
    return HardsigmoidBackward0.apply(_float_input(a, "hardsigmoid", "hardsigmoid_cpu"))


# ---- the activations torch.nn adds ---------------------------------------------------------


@guarded
def threshold(a: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    if inplace:
        return threshold_(a, threshold, value)
    return ThresholdBackward0.apply(_check_tensor(a, "threshold"), threshold=threshold,
                                    value=value)


@guarded
def celu(a: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if alpha == 0:
        raise TorchRuntimeError("ZeroDivisionError")
    if inplace:
        return celu_(a, alpha)
    return CeluBackward0.apply(_check_tensor(a, "celu"), alpha=alpha)


@guarded
def selu(a: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return selu_(a)
    return EluBackward0.apply(_float_input(a, "selu", "elu_cpu"), alpha=_SELU_ALPHA,
                              scale=_SELU_SCALE, input_scale=1.0)


@guarded
def hardswish(a: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        a = _check_tensor(a, "hardswish_")
        if not a.dtype.is_floating_point:
            raise not_implemented_for("hardswish_cpu", a.dtype)
        return apply_inplace(HardswishBackward0, a)
    return HardswishBackward0.apply(_check_tensor(a, "hardswish"))


@guarded
def hardshrink(a: Tensor, lambd: float = 0.5) -> Tensor:
    return HardshrinkBackward0.apply(_check_tensor(a, "hardshrink"), lambd=lambd)


@guarded
def softshrink(a: Tensor, lambd: float = 0.5) -> Tensor:
    if lambd < 0:
        raise TorchRuntimeError("lambda must be greater or equal to 0, but found to be "
                                f"{lambd}.")
    return SoftshrinkBackward0.apply(_check_tensor(a, "softshrink"), lambd=lambd)


@guarded
def glu(a: Tensor, dim: int = -1) -> Tensor:
    a = _check_tensor(a, "glu")
    if a.ndim == 0:
        raise TorchRuntimeError("glu does not support scalars because halving size must be even")
    dim = wrap_dim(dim, a.ndim)
    if a.shape[dim] % 2:
        raise TorchRuntimeError(f"Halving dimension must be even, but dimension {dim} is size "
                                f"{a.shape[dim]}")
    return GluBackward0.apply(a, dim=dim)


@guarded
def prelu(a: Tensor, weight: Tensor) -> Tensor:
    """The weight broadcasts over dim 1 (channels), reshaped as ATen reshapes it."""
    a = _check_tensor(a, "prelu")
    count = weight.numel()
    if count != 1:
        if a.ndim == 0:
            raise TorchRuntimeError("Not allow zero-dim input tensor.")
        channels = a.shape[1] if a.ndim > 1 else 1
        if channels != count:
            raise TorchRuntimeError("Mismatch of parameter numbers and input channel size. "
                                    f"Found parameter numbers = {count} and channel size = "
                                    f"{channels}.")
    if weight.ndim > 1:
        raise TorchRuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                                f"ndim = {weight.ndim}")
    if weight.ndim != a.ndim:
        shape = [1] * a.ndim
        if a.ndim > 1:
            shape[1] = count
        weight = reshape(weight, tuple(shape))
    if weight.dtype is not a.dtype:  # (_prelu_kernel's check)
        raise TorchRuntimeError(f"prelu: Type promoting not supported. Got {a.dtype.short} "
                                f"and {weight.dtype.short}")
    return PreluKernelBackward0.apply(a, weight)


@guarded
def softsign(a: Tensor) -> Tensor:
    """x / (|x| + 1), composed as PyTorch composes it (DivBackward0)."""
    return div(a, add(abs(a), 1))


@guarded
def tanhshrink(a: Tensor) -> Tensor:
    """x - tanh(x), composed (SubBackward0)."""
    return sub(a, tanh(a))
