"""Nodes of normalisation: NativeBatchNormBackward0 (the running statistics updated in place),
NativeLayerNormBackward0 and NativeGroupNormBackward0.

All three normalise over some axes, x_hat = (x - mean) * invstd, then scale and shift per
feature; their backward is one formula over those axes. Under create_graph the formula runs on
Tensors with mean and invstd recomputed differentiably, so second derivatives are right."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine import dtypes, threads
from gradsh.engine.dtypes import REDUCED_FLOAT_NP
from gradsh.engine.functions.cascade_sum import torch_sum
from gradsh.engine.functions.common import laid_out, xp_of
from gradsh.engine.functions.multi_output import MultiOutputFunction
from gradsh.engine.tensor import (
    Array,
    ArrayOps,
    Function,
    Tensor,
    TensorOps,
    run_backward,
    set_grad_enabled,
)
from gradsh.engine.vecmath import batchnorm, batchnorm64, groupnorm, groupnorm_cl, layernorm
from gradsh.engine.vecmath.layout import element_strides

__all__ = ["NativeBatchNormBackward0", "NativeLayerNormBackward0", "NativeGroupNormBackward0",
           "NativeLayerNormBackwardBackward0"]

Axes = tuple[int, ...]


def _statistics(x: Array, axes: Axes, eps: float) -> tuple[Array, Array]:
    """mean and 1/sqrt(biased var + eps) over `axes` (kept as size-1 dims)."""
    xp = xp_of(x)
    mean = x.mean(axis=axes, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=axes, keepdims=True)
    return mean, (1 / xp.sqrt(var + eps)).astype(x.dtype, copy=False)


def _sum(F: Any, t: Any, axes: Axes) -> Any:
    if F.as_tensor:
        return F.sum(t, axes, True)
    return t.sum(axis=axes, keepdims=True)


def _normalised_grad(F: Any, g_hat: Any, x_hat: Any, invstd: Any, axes: Axes,
                     count: int) -> Any:
    """d(loss)/dx from d(loss)/d(x_hat), with mean and invstd depending on x (batch stats)."""
    mean_g = _sum(F, g_hat, axes) / count
    mean_gx = _sum(F, g_hat * x_hat, axes) / count
    return invstd * (g_hat - mean_g - x_hat * mean_gx)


def _tensor_stats(F: Any, x: Tensor, axes: Axes, eps: float) -> tuple[Tensor, Tensor]:
    """x - mean and 1/sqrt(biased var + eps), differentiably (create_graph)."""
    centred = x - F.mean(x, axes, True)
    var = F.mean(centred * centred, axes, True)
    return centred, (var + eps) ** -0.5


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
        self.kernel = _aten_kernel(x, weight, bias, running_mean, running_var, affine)
        self.channels_last = self.kernel and _batch_norm_channels_last(x._data)
        if self.kernel:
            return self._forward_kernel(x, weight, bias, running_mean, running_var, training,
                                        momentum, eps, affine)
        data = _opmath(x._data)
        xp = xp_of(data)
        self.axes = tuple(d for d in range(data.ndim) if d != 1)
        self.training, self.eps, self.affine = training, eps, affine
        channels = data.shape[1]
        shape = _affine_shape(data.ndim, 1, channels)
        self.save("input", x)
        if affine[0]:
            self.save("weight", weight)
        narrow = x._data.dtype
        reduced = narrow in REDUCED_FLOAT_NP and all(
            t._data.dtype == narrow for t, used in zip((weight, bias), affine) if used)
        if training:
            mean, invstd = _statistics(data, self.axes, eps)
            if reduced and narrow == dtypes.BF16_NP:
                # bfloat16 without float32 parameters: the kernel keeps the sum of squares and
                # the variance in bfloat16 (each rounded); float16 (below) does not
                # (measured: bit for bit)
                centred = data - mean
                total = (centred * centred).sum(axis=self.axes, keepdims=True)
                var = (total.astype(narrow).astype(np.float32) / np.float32(data.size // channels)
                       ).astype(narrow).astype(np.float32)
                invstd = (1 / np.sqrt(var + np.float32(eps))).astype(np.float32)
            if reduced:  # (either: mean and invstd rounded before the transform)
                mean, invstd = (v.astype(narrow).astype(np.float32) for v in (mean, invstd))
            count = data.size // channels
            if running_mean is not None:
                _update_running(running_mean, mean.reshape(-1), momentum)
            if running_var is not None:
                var = ((data - mean) ** 2).mean(axis=self.axes)
                _update_running(running_var, var * count / max(count - 1, 1), momentum)
        else:
            mean = _opmath(running_mean._data).reshape(shape)  # type: ignore[union-attr]
            invstd = (1 / xp.sqrt(_opmath(running_var._data) + eps)).reshape(shape)  # type: ignore
            self.save("running_mean", running_mean)
            self.save("running_var", running_var)
        self.mean, self.invstd = mean, invstd
        if reduced and training:
            # the kernel's x * alpha + beta, alpha = invstd * w, beta = b - mean * alpha
            # (in eval mode (x - mean) * invstd * w + b: measured closer, bfloat16 exact)
            alpha = invstd * _opmath(weight._data).reshape(shape) if affine[0] else invstd
            beta = -mean * alpha
            if affine[1]:
                beta = _opmath(bias._data).reshape(shape) + beta
            return (data * alpha + beta).astype(narrow)
        y = (data - mean) * invstd
        if affine[0]:
            y = y * _opmath(weight._data).reshape(shape)
        if affine[1]:
            y = y + _opmath(bias._data).reshape(shape)
        return y.astype(x._data.dtype, copy=False)

    def _forward_kernel(self, x: Tensor, weight: Tensor, bias: Tensor,
                        running_mean: Tensor | None, running_var: Tensor | None,
                        training: bool, momentum: float, eps: float,
                        affine: tuple[bool, bool]) -> Array:
        """float32 and float64 in the default layout: ATen's batch-norm kernels, bit for bit
        (vecmath/batchnorm.py, batchnorm64.py)."""
        data = x._data
        kernels: Any = batchnorm64 if data.dtype == np.float64 else batchnorm
        self.axes = tuple(d for d in range(data.ndim) if d != 1)
        # channels-last float32: the channels-last kernels on the (N*H*W, C) rows, as the
        # (N, C) input of one pixel takes them
        stats_data = _bn_rows(data) if self.channels_last else data
        self.training, self.eps, self.affine = training, eps, affine
        self.save("input", x)
        w = weight._data if affine[0] else None
        b = bias._data if affine[1] else None
        if affine[0]:
            self.save("weight", weight)
        if training:
            mean, invstd = kernels.update_stats(
                stats_data, None if running_mean is None else running_mean._data,
                None if running_var is None else running_var._data, momentum, eps,
                threads.torch_threads())
            # the backward kernel's inputs; and the formula's, shaped for broadcasting
            self.kernel_mean, self.kernel_invstd = mean, invstd
        else:
            self.save("running_mean", running_mean)
            self.save("running_var", running_var)
            mean = running_mean._data  # type: ignore[union-attr]
            variance = running_var._data  # type: ignore[union-attr]
            # the backward kernel recomputes invstd in double (batch_norm_cpu_backward)
            with np.errstate(all="ignore"):
                double = 1.0 / np.sqrt(variance.astype(np.float64) + eps)
                invstd = double if data.dtype == np.float64 else batchnorm.eval_invstd(
                    variance, eps)
                self.kernel_mean = mean.copy()
                self.kernel_invstd = double.astype(data.dtype)
        shape = _affine_shape(data.ndim, 1, data.shape[1])
        self.mean, self.invstd = mean.reshape(shape), invstd.reshape(shape)
        return kernels.transform(data, w, b, mean, invstd)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor and self.kernel:
            # create_graph: the formula's graph below, with the values ATen's backward kernel
            # gives (native_batch_norm_backward computes them either way; the formula's
            # float32 rounding differs)
            x = self.saved("input", F)
            w = self.saved("weight", F) if self.affine[0] else None
            exact = self._kernel_backward(grad._data, x._data, None if w is None else w._data)
            grads = self._formula_backward(F, grad, x, w)
            if exact is not None:
                for g, value in zip(grads, exact):
                    if g is not None and value is not None and g.shape == value.shape:
                        g._data = value.astype(g._data.dtype, copy=False)
            return grads
        x = self.saved("input", F)
        w = self.saved("weight", F) if self.affine[0] else None
        if self.kernel:
            exact = self._kernel_backward(grad, x, w)
            if exact is not None:
                return exact
        return self._formula_backward(F, grad, x, w)

    def _kernel_backward(self, grad: Any, x: Any, w: Any
                         ) -> tuple[Any, Any, Any] | None:
        """ATen's backward kernels on arrays (None where they do not apply)."""
        need_x, need_w, need_b = self.needs_input_grad
        if (grad.__class__ is np.ndarray and grad.dtype in (np.float32, np.float64)
                and x.__class__ is np.ndarray
                and (_batch_norm_channels_last(grad) if self.channels_last
                     else grad.flags.c_contiguous)):
            if self.channels_last:
                gx, gw, gb = batchnorm.backward(_bn_rows(grad), _bn_rows(x), w,
                                                self.kernel_mean, self.kernel_invstd,
                                                self.training, threads.torch_threads())
                gx = groupnorm_cl.unrows(gx, x.shape)
            elif grad.dtype == np.float64:
                gx, gw, gb = batchnorm64.backward(grad, x, w, self.kernel_mean,
                                                  self.kernel_invstd, self.training,
                                                  threads.torch_threads())
            else:
                gx, gw, gb = batchnorm.backward(grad, x, w, self.kernel_mean,
                                                self.kernel_invstd, self.training,
                                                threads.torch_threads())
            return (gx if need_x else None, gw if need_w else None, gb if need_b else None)
        if (grad.__class__ is np.ndarray and grad.dtype in (np.float32, np.float64)
                and x.__class__ is np.ndarray):
            # a gradient not contiguous (expanded: out.sum().backward()): ATen's generic path
            sums = torch_sum(grad, tuple(self.axes), False, grad.dtype.type)
            gx, gw, gb = batchnorm.backward_generic(grad, x, w, self.kernel_mean,
                                                    self.kernel_invstd, self.training, sums)
            return (gx if need_x else None, gw if need_w else None, gb if need_b else None)
        return None

    def _formula_backward(self, F: Any, grad: Any, x: Any, w: Any) -> tuple[Any, Any, Any]:
        """The backward formula, on arrays or (create_graph) differentiably."""
        need_x, need_w, need_b = self.needs_input_grad
        if not F.as_tensor:  # (the engine rounds float16 and bfloat16 gradients once)
            x, grad = _opmath(x), _opmath(grad)
        ndim = len(x.shape)
        shape = _affine_shape(ndim, 1, x.shape[1])
        count = int(np.prod([x.shape[d] for d in self.axes]))
        if F.as_tensor:
            if self.training:
                centred, invstd = _tensor_stats(F, x, self.axes, self.eps)
            else:
                centred = x - F.reshape(self.saved("running_mean", F), shape)
                invstd = F.reshape((self.saved("running_var", F) + self.eps) ** -0.5, shape)
            x_hat = centred * invstd
        else:
            invstd = self.invstd
            x_hat = (x - self.mean) * invstd
        w = F.reshape(w, shape) if w is not None else None
        if w is not None and not F.as_tensor:
            w = _opmath(w)
        g_hat = grad * w if w is not None else grad
        gx = gw = gb = None
        if need_x:
            gx = (_normalised_grad(F, g_hat, x_hat, invstd, self.axes, count) if self.training
                  else g_hat * invstd)
        if need_w:
            gw = F.reshape(_sum(F, grad * x_hat, self.axes), (-1,))
        if need_b:
            gb = F.reshape(_sum(F, grad, self.axes), (-1,))
        return gx, gw, gb


def _batch_norm_channels_last(data: Array) -> bool:
    """A float32 4-D or 5-D array in the channels-last layout (not contiguous in the default
    one): batch norm's channels-last kernels."""
    return (data.__class__ is np.ndarray and data.dtype == np.float32
            and not data.flags.c_contiguous and data.ndim in (4, 5)
            and groupnorm_cl.suggests_channels_last(tuple(data.shape), element_strides(data)))


def _bn_rows(data: Array) -> Array:
    """(N, C, *) as the (N * H * W, C) rows the channels-last kernels read."""
    return groupnorm_cl.rows_of(data).reshape(-1, data.shape[1])


def _aten_kernel(x: Tensor, weight: Tensor, bias: Tensor, running_mean: Tensor | None,
                 running_var: Tensor | None, affine: tuple[bool, bool]) -> bool:
    """Whether ATen runs its contiguous float32 kernels here (vecmath/batchnorm.py): a float32
    NumPy input in the default layout (or float32 channels-last), float32 parameters and
    statistics."""
    data = x._data
    if data.__class__ is not np.ndarray or data.dtype not in (np.float32, np.float64) \
            or not (data.flags.c_contiguous or _batch_norm_channels_last(data)):
        return False
    present = [t for t, used in ((weight, affine[0]), (bias, affine[1])) if used]
    present += [t for t in (running_mean, running_var) if t is not None]
    return all(t._data.__class__ is np.ndarray and t._data.dtype == data.dtype
               and t._data.flags.c_contiguous for t in present)


def _layer_norm_kernel(x: Tensor, weight: Tensor, bias: Tensor, affine: tuple[bool, bool],
                       any_layout: bool = False) -> bool:
    """Whether ATen's layer_norm (or group_norm) kernel runs on a float32 or float64 NumPy
    input with parameters of its dtype (vecmath/layernorm.py and groupnorm.py reproduce them):
    in the default layout, or in any (`any_layout`: layer norm, which runs it on a contiguous
    copy, input.expect_contiguous())."""
    data = x._data
    if (data.__class__ is not np.ndarray or data.dtype not in (np.float32, np.float64)
            or not (any_layout or data.flags.c_contiguous)):
        return False
    return all(t._data.__class__ is np.ndarray and t._data.dtype == data.dtype
               for t, used in ((weight, affine[0]), (bias, affine[1])) if used)


def _flat_params(weight: Tensor, bias: Tensor,
                 affine: tuple[bool, bool]) -> tuple[Array | None, Array | None]:
    """The weight and bias as flat arrays for a vecmath kernel, None where not used."""
    return (weight._data.reshape(-1) if affine[0] else None,
            bias._data.reshape(-1) if affine[1] else None)


def _update_running(stat: Tensor, batch_value: Array, momentum: float) -> None:
    """stat = (1 - momentum) * stat + momentum * batch_value, written into its storage as
    ATen's kernel writes it: no version bump (a saved running stat is not invalidated)."""
    stat._data[...] = (1 - momentum) * stat._data + momentum * batch_value


# ---------------------------------------------------------------------------------------------
# Layer norm and group norm
# ---------------------------------------------------------------------------------------------


def _opmath(data: Array) -> Array:
    """float16 and bfloat16 arrays in float32, as ATen's normalization kernels compute them."""
    return data.astype(np.float32) if data.dtype in REDUCED_FLOAT_NP else data


class _GroupedNorm(Function):
    """Normalise x reshaped to `grouped` over `axes`; weight and bias (of `affine_shape`,
    broadcast against x) scale and shift afterwards."""

    row_moments = False  # float16/bfloat16 statistics as layer norm's kernel computes them

    def normalise(self, x: Tensor, weight: Tensor, bias: Tensor, grouped: tuple[int, ...],
                  axes: Axes, affine_shape: tuple[int, ...], eps: float,
                  affine: tuple[bool, bool]) -> Array:
        self.keep(x, weight, grouped, axes, affine_shape, eps, affine)
        data = _opmath(x._data).reshape(grouped)
        narrow = x._data.dtype
        rows = narrow in REDUCED_FLOAT_NP and self.row_moments and axes == (1,)
        if rows:
            # float16/bfloat16 layer norm: ATen's RowwiseMoments on the rows converted to float
            # (vecmath/layernorm.moments), bit for bit
            mean, var = layernorm.moments(np.ascontiguousarray(data), halves=2)
            mean = mean[:, None]
            invstd = np.float32(1) / np.sqrt(var[:, None] + np.float32(eps))
        else:
            mean, invstd = _statistics(data, axes, eps)
        self.mean, self.invstd = mean, invstd
        if narrow in REDUCED_FLOAT_NP and all(
                t._data.dtype == narrow for t, used in zip((weight, bias), affine) if used):
            # without float32 parameters the kernel saves mean and rstd in the input's dtype,
            # and its backward reads them so (the forward used them unrounded)
            self.mean, self.invstd = (v.astype(narrow).astype(np.float32) for v in (mean, invstd))
        if rows:  # the kernel's fma(fma(x, rstd, -rstd * mean), gamma, beta) (probed)
            return layernorm.reduced_forward(
                data, mean, invstd, *(_opmath(t._data).reshape(-1) if used else None
                                      for t, used in zip((weight, bias), affine))
            ).reshape(x.shape).astype(narrow)
        y = ((data - mean) * invstd).reshape(x.shape)
        if affine[0]:
            y = y * _opmath(weight._data).reshape(affine_shape)
        if affine[1]:
            y = y + _opmath(bias._data).reshape(affine_shape)
        return y.astype(x._data.dtype, copy=False)

    def keep(self, x: Tensor, weight: Tensor, grouped: tuple[int, ...], axes: Axes,
             affine_shape: tuple[int, ...], eps: float, affine: tuple[bool, bool]) -> None:
        """Save what the backward reads: the input, the weight when used, the geometry."""
        self.save("input", x)
        if affine[0]:
            self.save("weight", weight)
        self.grouped, self.axes, self.affine_shape = grouped, axes, affine_shape
        self.eps, self.affine = eps, affine

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        w = self.saved("weight", F) if self.affine[0] else None
        return self.gradients(F, grad, self.saved("input", F), w)

    def gradients(self, F: Any, grad: Any, x: Any, weight: Any) -> tuple[Any, ...]:
        """(grad_input, grad_weight, grad_bias) from grad, x and the weight (None without),
        each None where not needed."""
        need_x, need_w, need_b = self.needs_input_grad
        reshape = F.reshape
        if not F.as_tensor:  # (the engine rounds float16 and bfloat16 gradients once)
            x, grad = _opmath(x), _opmath(grad)
        shape = tuple(x.shape)
        count = int(np.prod([self.grouped[d] for d in self.axes]))
        reduce_axes = tuple(d for d, n in enumerate(self.affine_shape) if n == 1)
        if F.as_tensor:
            centred, invstd = _tensor_stats(F, reshape(x, self.grouped), self.axes, self.eps)
            x_hat = reshape(centred * invstd, shape)
        else:
            invstd = self.invstd
            x_hat = ((x.reshape(self.grouped) - self.mean) * invstd).reshape(shape)
        w = reshape(weight, self.affine_shape) if weight is not None else None
        if w is not None and not F.as_tensor:
            w = _opmath(w)
        g_hat = grad * w if w is not None else grad
        gx = gw = gb = None
        if need_x:
            gx = reshape(_normalised_grad(F, reshape(g_hat, self.grouped),
                                          reshape(x_hat, self.grouped), invstd, self.axes,
                                          count), shape)
        weight_shape = tuple(n for n in self.affine_shape if n != 1) or (1,)
        if need_w:
            gw = reshape(_sum(F, grad * x_hat, reduce_axes), weight_shape)
        if need_b:
            gb = reshape(_sum(F, grad, reduce_axes), weight_shape)
        return gx, gw, gb


class NativeLayerNormBackward0(_GroupedNorm):
    node_name = "NativeLayerNormBackward0"
    row_moments = True

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        if (not F.as_tensor and getattr(self, "kernel", False) and grad.__class__ is np.ndarray
                and grad.dtype in (np.float32, np.float64)):
            return self._backward_kernel(grad)
        if not F.as_tensor:
            gx, gw, gb = super().backward(F, grad)
            x = self.saved("input", ArrayOps)
            if (gw is not None or gb is not None) and grad.__class__ is np.ndarray \
                    and x.dtype in REDUCED_FLOAT_NP:
                # float16/bfloat16: the kernel's float32 buffers, row by row (vecmath/layernorm.py)
                dw, db = layernorm.affine_gradients(
                    np.ascontiguousarray(grad, np.float32).reshape(self.grouped),
                    np.ascontiguousarray(x, np.float32).reshape(self.grouped),
                    self.mean.reshape(-1), self.invstd.reshape(-1), threads.torch_threads(),
                    narrow=x.dtype)
                shape = tuple(n for n in self.affine_shape if n != 1) or (1,)
                gw = dw.reshape(shape) if gw is not None else None
                gb = db.reshape(shape) if gb is not None else None
            if gx is not None and grad.__class__ is np.ndarray and x.dtype in REDUCED_FLOAT_NP:
                w = self.saved("weight", ArrayOps) if self.affine[0] else None
                if w is None or w.dtype == x.dtype:  # (float32 parameters: another kernel)
                    gx = layernorm.reduced_input_gradient(
                        np.ascontiguousarray(grad, np.float32).reshape(self.grouped),
                        np.ascontiguousarray(x, np.float32).reshape(self.grouped),
                        self.mean.reshape(-1), self.invstd.reshape(-1),
                        None if w is None else w.astype(np.float32).reshape(-1)
                    ).reshape(x.shape)
            return gx, gw, gb
        # under create_graph: native_layer_norm_backward, one op of three results
        x = self.saved("input", F)
        constant = [Tensor._make(a, x.device) for a in (self.mean, self.invstd)]
        absent = Tensor._make(xp_of(x._data).zeros((), dtype=x._data.dtype), x.device)
        weight = self.saved("weight", F) if self.affine[0] else absent
        bias = self.saved("bias", F) if self.affine[1] else absent
        outputs = NativeLayerNormBackwardBackward0.apply_all(grad, x, *constant, weight, bias,
                                                             first=self)
        return tuple(o if need else None for o, need in zip(outputs, self.needs_input_grad,
                                                             strict=True))

    def forward(self, x: Tensor, weight: Tensor, bias: Tensor, normalized: int, eps: float,
                affine: tuple[bool, bool]) -> Array:
        lead = x.shape[:x.ndim - normalized]
        rows = math.prod(lead)
        grouped = (rows, math.prod(x.shape[x.ndim - normalized:]))
        affine_shape = (1,) * len(lead) + tuple(x.shape[x.ndim - normalized:])
        if affine[1]:
            self.save("bias", bias)  # (as PyTorch's: an input of the node create_graph makes)
        self.kernel = _layer_norm_kernel(x, weight, bias, affine, any_layout=True)
        if not self.kernel:
            return self.normalise(x, weight, bias, grouped, (1,), affine_shape, eps, affine)
        # float32, float64: ATen's kernel on a contiguous copy, bit for bit (vecmath/layernorm.py)
        self.keep(x, weight, grouped, (1,), affine_shape, eps, affine)
        y, mean, rstd = layernorm.forward(np.ascontiguousarray(x._data).reshape(grouped),
                                          *_flat_params(weight, bias, affine), eps)
        self.mean, self.invstd = mean.reshape(rows, 1), rstd.reshape(rows, 1)
        return y.reshape(x.shape)

    def _backward_kernel(self, grad: np.ndarray) -> tuple[Any, ...]:
        need_x, need_w, need_b = self.needs_input_grad
        x = self.saved("input", ArrayOps)
        w = self.saved("weight", ArrayOps).reshape(-1) if self.affine[0] else None
        dx, dw, db = layernorm.backward(np.ascontiguousarray(grad).reshape(self.grouped),
                                        x.reshape(self.grouped), self.mean.reshape(-1),
                                        self.invstd.reshape(-1), w, threads.torch_threads())
        weight_shape = tuple(n for n in self.affine_shape if n != 1) or (1,)
        return (dx.reshape(x.shape) if need_x else None,
                dw.reshape(weight_shape) if need_w else None,
                db.reshape(weight_shape) if need_b else None)


class NativeGroupNormBackward0(_GroupedNorm):
    node_name = "NativeGroupNormBackward0"

    def forward(self, x: Tensor, weight: Tensor, bias: Tensor, groups: int, eps: float,
                affine: tuple[bool, bool]) -> Array:
        grouped = (x.shape[0], groups, x.numel() // max(x.shape[0] * groups, 1))
        affine_shape = _affine_shape(x.ndim, 1, x.shape[1])
        self.channels_last = (_layer_norm_kernel(x, weight, bias, affine, any_layout=True)
                              and x._data.dtype == np.float32 and x.numel() > 0
                              and not x._data.flags.c_contiguous
                              and groupnorm_cl.suggests_channels_last(
                                  tuple(x.shape), element_strides(x._data)))
        if self.channels_last:
            # float32 whose strides suggest channels_last: ATen's channels-last kernel
            self.keep(x, weight, grouped, (2,), affine_shape, eps, affine)
            self.kernel = True
            y, mean, rstd = groupnorm_cl.forward(
                groupnorm_cl.rows_of(x._data), groups, *_flat_params(weight, bias, affine), eps,
                threads.torch_threads())
            self.mean, self.invstd = mean[..., None], rstd[..., None]
            return groupnorm_cl.unrows(y, tuple(x.shape))
        self.kernel = _layer_norm_kernel(x, weight, bias, affine) and x.numel() > 0
        if not self.kernel:
            return self.normalise(x, weight, bias, grouped, (2,), affine_shape, eps, affine)
        # float32, float64 in the default layout: ATen's kernel, bit for bit (groupnorm.py)
        self.keep(x, weight, grouped, (2,), affine_shape, eps, affine)
        y, mean, rstd = groupnorm.forward(x._data, groups, *_flat_params(weight, bias, affine),
                                          eps)
        self.mean, self.invstd = mean[..., None], rstd[..., None]
        return y

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # ATen's kernel, bit for bit (its group sums' tail is another code at more threads)
        if (F.as_tensor or not self.kernel or grad.__class__ is not np.ndarray
                or grad.dtype not in (np.float32, np.float64)):
            return super().backward(F, grad)
        x = self.saved("input", ArrayOps)
        w = self.saved("weight", ArrayOps).reshape(-1) if self.affine[0] else None
        if self.channels_last:
            dx, dw, db = groupnorm_cl.backward(
                groupnorm_cl.rows_of(grad), groupnorm_cl.rows_of(x), self.mean[..., 0],
                self.invstd[..., 0], w, threads.torch_threads())
            dx = groupnorm_cl.unrows(dx, x.shape)
        else:
            dx, dw, db = groupnorm.backward(np.ascontiguousarray(grad), x, self.mean[..., 0],
                                            self.invstd[..., 0], w, threads.torch_threads())
        need_x, need_w, need_b = self.needs_input_grad
        return dx if need_x else None, dw if need_w else None, db if need_b else None


class NativeLayerNormBackwardBackward0(MultiOutputFunction):
    """native_layer_norm_backward as PyTorch records it under create_graph: one node with
    inputs (grad_out, input, mean, rstd, weight, bias) and outputs (grad_input, grad_weight,
    grad_bias), computed by the first node's formula. Its own backward (PyTorch's
    layer_norm_double_backward) differentiates that formula through gradsh's ops."""

    node_name = "NativeLayerNormBackwardBackward0"
    num_outputs = 3
    differentiable = (True, True, True)

    def forward(self, grad: Tensor, x: Tensor, mean: Tensor, rstd: Tensor, weight: Tensor,
                bias: Tensor, first: NativeLayerNormBackward0) -> tuple[Array, ...]:
        self.first = first
        self.save("grad_out", grad)
        self.save("input", x)
        if first.affine[0]:
            self.save("weight", weight)
        w = weight._data if first.affine[0] else None
        results = first.gradients(ArrayOps, grad._data, x._data, w)
        blank = xp_of(x._data).zeros((), dtype=x._data.dtype)
        return tuple(blank if r is None else r for r in results)

    def backward(self, F: Any, grads: Any) -> tuple[Any, ...]:
        need = self.needs_input_grad
        operands = {0: self.saved("grad_out", F), 1: self.saved("input", F)}
        if self.first.affine[0]:
            operands[4] = self.saved("weight", F)
        wanted = [i for i in operands if need[i]]
        with set_grad_enabled(True):
            if F.as_tensor:
                # fresh aliases: the operands depend on one another (grad_out on x), and each
                # gradient must be a partial derivative
                leaves = {i: t * 1 if need[i] else t for i, t in operands.items()}
            else:
                device = self.output_device
                leaves = {i: Tensor._make(a, device).requires_grad_()
                          for i, a in operands.items()}
            outputs = self.first.gradients(TensorOps, leaves[0], leaves[1], leaves.get(4))
            pairs = [(o, g if F.as_tensor else Tensor._make(g, self.output_device))
                     for o, g in zip(outputs, grads, strict=True)
                     if o is not None and g is not None and o.requires_grad]
            found = run_backward([o for o, _ in pairs], [g for _, g in pairs],
                                 create_graph=F.as_tensor, inputs=[leaves[i] for i in wanted],
                                 allow_unused=True, accumulate=False) if pairs else None
        result: list[Any] = [None] * 6
        for i, g in zip(wanted, found or [None] * len(wanted), strict=True):
            result[i] = g if g is None or F.as_tensor else g._data
        return tuple(result)


# empty_like(input, input.suggest_memory_format()): row-major but for a channels-last input
laid_out("suggested")(NativeBatchNormBackward0)
laid_out("suggested")(NativeGroupNormBackward0)
