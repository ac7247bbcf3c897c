"""Normalisation: batch_norm (NativeBatchNormBackward0, with the running statistics updated in
place), layer_norm (NativeLayerNormBackward0) and group_norm (NativeGroupNormBackward0).

All three normalise over some axes, x_hat = (x - mean) * invstd, then scale and shift per
feature; their backward is one formula over those axes. Under create_graph the formula runs on
Tensors with mean and invstd recomputed differentiably, so second derivatives are right."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine import backend, ops
from gradsh.engine.exceptions import TorchRuntimeError, TorchValueError
from gradsh.engine.ops import arguments
from gradsh.engine.tensor import Array, Function, GradOps, Tensor

Axes = tuple[int, ...]


def _xp(array: Array) -> Any:
    return np if isinstance(array, np.ndarray) else backend.array_module(array)


def _statistics(x: Array, axes: Axes, eps: float) -> tuple[Array, Array]:
    """mean and 1/sqrt(biased var + eps) over `axes` (kept as size-1 dims)."""
    xp = _xp(x)
    mean = x.mean(axis=axes, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=axes, keepdims=True)
    return mean, (1 / xp.sqrt(var + eps)).astype(x.dtype, copy=False)


def _mean_t(t: Tensor, axes: Axes) -> Tensor:
    return ops.mean(t, dim=axes, keepdim=True)  # type: ignore[no-any-return]


def _sum(F: GradOps, t: Any, axes: Axes) -> Any:
    if F.as_tensor:
        return ops.sum(t, dim=axes, keepdim=True)
    return t.sum(axis=axes, keepdims=True)


def _normalised_grad(F: GradOps, g_hat: Any, x_hat: Any, invstd: Any, axes: Axes,
                     count: int) -> Any:
    """d(loss)/dx from d(loss)/d(x_hat), with mean and invstd depending on x (batch stats)."""
    mean_g = _sum(F, g_hat, axes) / count
    mean_gx = _sum(F, g_hat * x_hat, axes) / count
    return invstd * (g_hat - mean_g - x_hat * mean_gx)


def _tensor_stats(x: Tensor, axes: Axes, eps: float) -> tuple[Tensor, Tensor]:
    mean = _mean_t(x, axes)
    centred = ops.sub(x, mean)
    var = _mean_t(ops.mul(centred, centred), axes)
    return centred, ops.pow(ops.add(var, eps), -0.5)


def _affine_shape(ndim: int, channel_axis: int, size: int) -> tuple[int, ...]:
    shape = [1] * ndim
    shape[channel_axis] = size
    return tuple(shape)


# ---------------------------------------------------------------------------------------------
# Batch norm
# ---------------------------------------------------------------------------------------------


class NativeBatchNormBackward0(Function):
    """Per channel (dim 1): batch statistics when training (updating the running ones), else
    the running statistics."""

    node_name = "NativeBatchNormBackward0"

    def forward(self, x: Tensor, weight: Tensor, bias: Tensor, running_mean: Tensor | None,
                running_var: Tensor | None, training: bool, momentum: float, eps: float,
                affine: tuple[bool, bool]) -> Array:
        data = x._data
        xp = _xp(data)
        self.axes = tuple(d for d in range(data.ndim) if d != 1)
        self.training, self.eps, self.affine = training, eps, affine
        channels = data.shape[1]
        shape = _affine_shape(data.ndim, 1, channels)
        self.save("input", x)
        if affine[0]:
            self.save("weight", weight)
        if training:
            mean, invstd = _statistics(data, self.axes, eps)
            count = data.size // channels
            if running_mean is not None:
                _update_running(running_mean, mean.reshape(-1), momentum)
            if running_var is not None:
                var = ((data - mean) ** 2).mean(axis=self.axes)
                _update_running(running_var, var * count / max(count - 1, 1), momentum)
        else:
            mean = running_mean._data.reshape(shape)  # type: ignore[union-attr]
            invstd = (1 / xp.sqrt(running_var._data + eps)).reshape(shape)  # type: ignore
            self.save("running_mean", running_mean)
            self.save("running_var", running_var)
        self.mean, self.invstd = mean, invstd
        y = (data - mean) * invstd
        if affine[0]:
            y = y * weight._data.reshape(shape)
        if affine[1]:
            y = y + bias._data.reshape(shape)
        return y.astype(data.dtype, copy=False)

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        need_x, need_w, need_b = self.needs_input_grad
        x = self.saved("input", F)
        ndim = len(x.shape)
        shape = _affine_shape(ndim, 1, x.shape[1])
        count = int(np.prod([x.shape[d] for d in self.axes]))
        if F.as_tensor:
            if self.training:
                centred, invstd = _tensor_stats(x, self.axes, self.eps)
            else:
                centred = ops.sub(x, ops.reshape(self.saved("running_mean", F), shape))
                invstd = ops.reshape(ops.pow(ops.add(self.saved("running_var", F), self.eps),
                                             -0.5), shape)
            x_hat = ops.mul(centred, invstd)
            w = ops.reshape(self.saved("weight", F), shape) if self.affine[0] else None
        else:
            invstd = self.invstd
            x_hat = (x - self.mean) * invstd
            w = self.saved("weight", F).reshape(shape) if self.affine[0] else None
        g_hat = grad * w if w is not None else grad
        gx = gw = gb = None
        if need_x:
            gx = (_normalised_grad(F, g_hat, x_hat, invstd, self.axes, count) if self.training
                  else g_hat * invstd)
        if need_w:
            gw = _sum(F, grad * x_hat, self.axes).reshape(-1) if not F.as_tensor else \
                ops.reshape(_sum(F, grad * x_hat, self.axes), (-1,))
        if need_b:
            gb = _sum(F, grad, self.axes).reshape(-1) if not F.as_tensor else \
                ops.reshape(_sum(F, grad, self.axes), (-1,))
        return gx, gw, gb


def _update_running(stat: Tensor, batch_value: Array, momentum: float) -> None:
    """stat = (1 - momentum) * stat + momentum * batch_value, written into its storage as
    ATen's kernel writes it: no version bump (a saved running stat is not invalidated)."""
    stat._data[...] = (1 - momentum) * stat._data + momentum * batch_value


def _placeholder(like: Tensor) -> Tensor:
    return ops.zeros(0, dtype=like.dtype, device=like.device)  # type: ignore[no-any-return]


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,  # noqa
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    input = arguments._check_tensor(input, "batch_norm")
    if input.ndim < 2:
        raise TorchValueError(f"expected 2D or 3D input (got {input.ndim}D input)")
    if training:
        size = input.numel() // input.shape[1]
        if size == 1:
            raise TorchValueError("Expected more than 1 value per channel when training, got "
                                  f"input size {input.shape}")
    elif running_mean is None or running_var is None:
        raise TorchRuntimeError("running_mean and running_var must be defined in evaluation "
                                "mode")
    channels = input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != channels:
            raise TorchRuntimeError(f"{name} should contain {channels} elements not "
                                    f"{t.numel()}")
    return NativeBatchNormBackward0.apply(
        input, weight if weight is not None else _placeholder(input),
        bias if bias is not None else _placeholder(input), running_mean=running_mean,
        running_var=running_var, training=training, momentum=momentum, eps=eps,
        affine=(weight is not None, bias is not None))


# ---------------------------------------------------------------------------------------------
# Layer norm and group norm
# ---------------------------------------------------------------------------------------------


class _GroupedNorm(Function):
    """Normalise x reshaped to `grouped` over `axes`; weight and bias (of `affine_shape`,
    broadcast against x) scale and shift afterwards."""

    def normalise(self, x: Tensor, weight: Tensor, bias: Tensor, grouped: tuple[int, ...],
                  axes: Axes, affine_shape: tuple[int, ...], eps: float,
                  affine: tuple[bool, bool]) -> Array:
        self.save("input", x)
        if affine[0]:
            self.save("weight", weight)
        self.grouped, self.axes, self.affine_shape = grouped, axes, affine_shape
        self.eps, self.affine = eps, affine
        data = x._data.reshape(grouped)
        mean, invstd = _statistics(data, axes, eps)
        self.mean, self.invstd = mean, invstd
        y = ((data - mean) * invstd).reshape(x.shape)
        if affine[0]:
            y = y * weight._data.reshape(affine_shape)
        if affine[1]:
            y = y + bias._data.reshape(affine_shape)
        return y.astype(x._data.dtype, copy=False)

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        need_x, need_w, need_b = self.needs_input_grad
        x = self.saved("input", F)
        shape = tuple(x.shape)
        count = int(np.prod([self.grouped[d] for d in self.axes]))
        reduce_axes = tuple(d for d, n in enumerate(self.affine_shape) if n == 1)
        if F.as_tensor:
            centred, invstd = _tensor_stats(ops.reshape(x, self.grouped), self.axes, self.eps)
            x_hat = ops.reshape(ops.mul(centred, invstd), shape)
            w = ops.reshape(self.saved("weight", F), self.affine_shape) if self.affine[0] \
                else None
        else:
            invstd = self.invstd
            x_hat = ((x.reshape(self.grouped) - self.mean) * invstd).reshape(shape)
            w = self.saved("weight", F).reshape(self.affine_shape) if self.affine[0] else None
        g_hat = grad * w if w is not None else grad
        gx = gw = gb = None
        if need_x:
            reshape = ops.reshape if F.as_tensor else (lambda t, s: t.reshape(s))
            gx = reshape(_normalised_grad(F, reshape(g_hat, self.grouped),
                                          reshape(x_hat, self.grouped), invstd, self.axes,
                                          count), shape)
        weight_shape = tuple(n for n in self.affine_shape if n != 1) or (1,)
        if need_w:
            gw = _sum(F, grad * x_hat, reduce_axes)
            gw = ops.reshape(gw, weight_shape) if F.as_tensor else gw.reshape(weight_shape)
        if need_b:
            gb = _sum(F, grad, reduce_axes)
            gb = ops.reshape(gb, weight_shape) if F.as_tensor else gb.reshape(weight_shape)
        return gx, gw, gb


class NativeLayerNormBackward0(_GroupedNorm):
    node_name = "NativeLayerNormBackward0"

    def forward(self, x: Tensor, weight: Tensor, bias: Tensor, normalized: int, eps: float,
                affine: tuple[bool, bool]) -> Array:
        lead = x.shape[:x.ndim - normalized]
        rows = math.prod(lead)
        grouped = (rows, math.prod(x.shape[x.ndim - normalized:]))
        affine_shape = (1,) * len(lead) + tuple(x.shape[x.ndim - normalized:])
        return self.normalise(x, weight, bias, grouped, (1,), affine_shape, eps, affine)


class NativeGroupNormBackward0(_GroupedNorm):
    node_name = "NativeGroupNormBackward0"

    def forward(self, x: Tensor, weight: Tensor, bias: Tensor, groups: int, eps: float,
                affine: tuple[bool, bool]) -> Array:
        grouped = (x.shape[0], groups, x.numel() // max(x.shape[0] * groups, 1))
        affine_shape = _affine_shape(x.ndim, 1, x.shape[1])
        return self.normalise(x, weight, bias, grouped, (2,), affine_shape, eps, affine)


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    input = arguments._check_tensor(input, "layer_norm")
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(
        int(n) for n in normalized_shape)
    n = len(shape)
    if n == 0 or input.ndim < n or tuple(input.shape[input.ndim - n:]) != shape:
        raise TorchRuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != shape:
            raise TorchRuntimeError(f"Expected {name} to be of same shape as normalized_shape, "
                                    f"but got {name} of shape {list(t.shape)} and "
                                    f"normalized_shape = {list(shape)}")
    return NativeLayerNormBackward0.apply(
        input, weight if weight is not None else _placeholder(input),
        bias if bias is not None else _placeholder(input), normalized=n, eps=eps,
        affine=(weight is not None, bias is not None))


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    input = arguments._check_tensor(input, "group_norm")
    if input.ndim < 2:
        raise TorchRuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                                f"{input.ndim}")
    if input.shape[1] % num_groups:
        raise TorchRuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input "
            f"of shape {list(input.shape)} and num_groups={num_groups}")
    return NativeGroupNormBackward0.apply(
        input, weight if weight is not None else _placeholder(input),
        bias if bias is not None else _placeholder(input), groups=num_groups, eps=eps,
        affine=(weight is not None, bias is not None))
