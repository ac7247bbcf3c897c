"""torch.nn.init: fill a tensor in place from PyTorch's random streams, with its gains and fans,
so that a layer's initial weights after a seed are PyTorch's, bit for bit."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any


from gradsh.engine import ops
from gradsh.engine.tensor import Tensor, no_grad
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.nn.init")

__all__ = [
    "calculate_gain", "constant_", "dirac_", "eye_", "kaiming_normal_", "kaiming_uniform_",
    "normal_", "ones_", "orthogonal_", "sparse_", "trunc_normal_", "uniform_",
    "xavier_normal_", "xavier_uniform_", "zeros_",
    "constant", "dirac", "eye", "kaiming_normal", "kaiming_uniform", "normal", "orthogonal",
    "sparse", "uniform",
    "xavier_normal", "xavier_uniform",
]

_LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
               "conv_transpose3d")


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended scale of the weights before `nonlinearity`."""
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope: float = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    with no_grad():
        return ops.uniform_(tensor, a, b, generator=generator)  # type: ignore[no-any-return]


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0,
            generator: Any = None) -> Tensor:
    with no_grad():
        return ops.normal_(tensor, mean, std, generator=generator)  # type: ignore[no-any-return]


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator: Any = None) -> Tensor:
    """Normal draws kept within [a, b]: redrawn where outside when most of the mass is inside,
    else drawn uniformly in [a, b] and accepted by rejection (PyTorch's two samplers, draw for
    draw)."""

    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)
    with no_grad():
        p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)
        if p > 0.3:
            lo = ops.new_tensor(tensor, a, device="cpu").item()  # a and b in tensor's dtype
            hi = ops.new_tensor(tensor, b, device="cpu").item()
            result = ops.normal_(tensor, mean, std, generator=generator)
            while True:
                mask = ops.bitwise_or(ops.lt(result, lo), ops.gt(result, hi))
                if not ops.any(mask).item():
                    break
                redrawn = ops.normal_(ops.empty_like(result), mean, std, generator=generator)
                result = ops.where(mask, redrawn, result)
            if tensor is not result:
                ops.copy_(tensor, result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2

        def log_density_gap(x: Tensor) -> Tensor:
            return ops.sub(ops.mul(ops.pow(ops.div(ops.sub(x, mean), std), 2), -0.5), log_peak)

        def rejected(gap: Tensor) -> Tensor:
            draws = ops.uniform_(ops.empty_like(tensor), generator=generator)
            return ops.gt(ops.log(draws), gap)

        ops.uniform_(tensor, a, b, generator=generator)
        pending = rejected(log_density_gap(tensor))
        result = tensor
        while ops.any(pending).item():
            candidates = ops.uniform_(ops.empty_like(tensor), a, b, generator=generator)
            result = ops.where(pending, candidates, result)
            pending = ops.where(pending, rejected(log_density_gap(candidates)), pending)
        if result is not tensor:
            ops.copy_(tensor, result)
        return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    with no_grad():
        return ops.fill_(tensor, val)  # type: ignore[no-any-return]


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    with no_grad():
        return ops.zero_(tensor)  # type: ignore[no-any-return]


def eye_(tensor: Tensor) -> Tensor:
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        ops.copy_(tensor, ops.eye(*tensor.shape, dtype=tensor.dtype))
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """The identity convolution: 1 at the centre of each (channel, channel) filter."""
    dims = tensor.ndim
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    centre = tuple(n // 2 for n in sizes[2:])
    with no_grad():
        ops.zero_(tensor)
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor[(g * per_group + d, d, *centre)] = 1
    return tensor


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = 1
    for n in tensor.shape[2:]:
        receptive *= n
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    valid = ["fan_in", "fan_out"]
    if mode not in valid:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float | None:
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return None
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return normal_(tensor, 0, std, generator)


def orthogonal_(tensor: Tensor, gain: float = 1, generator: Any = None) -> Tensor:
    """A (semi-)orthogonal matrix from the QR decomposition of normal draws, signs fixed by R's
    diagonal: PyTorch's steps with gradsh's ops (linalg.qr is MKL's geqrf + orgqr where the
    `mkl` package is loaded, so the matrix is PyTorch's bit for bit)."""
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flattened = ops.normal_(ops.new_empty(tensor, (rows, cols)), 0, 1, generator=generator)
    if rows < cols:
        flattened = flattened.t_()
    q, r = ops.qr(flattened)
    q *= ops.sign(ops.diag(r, 0))
    if rows < cols:
        q = q.t_()
    with no_grad():
        ops.copy_(tensor.view_as(q), q)
        ops.mul_(tensor, gain)
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator: Any = None) -> Tensor:
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = math.ceil(sparsity * rows)
    with no_grad():
        ops.normal_(tensor, 0, std, generator=generator)
        for col in range(cols):
            picked = ops.randperm(rows)[:zeros]
            tensor[picked, col] = 0
    return tensor


def _deprecated(method: Callable[..., Tensor]) -> Callable[..., Tensor]:
    new_name = method.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Tensor:
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of "
                      f"`nn.init.{new_name}`.", FutureWarning, stacklevel=2)
        return method(*args, **kwargs)

    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
dirac = _deprecated(dirac_)
eye = _deprecated(eye_)
