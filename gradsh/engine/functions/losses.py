"""Nodes of the losses: mse, nll, binary cross-entropy (with logits), smooth L1, Huber."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from gradsh.engine import dtypes, threads
from gradsh.engine.dtypes import REDUCED_FLOAT_NP, DType
from gradsh.engine.exceptions import TorchIndexError, TorchRuntimeError
from gradsh.engine.functions.cascade_sum import _mean_array, torch_sum
from gradsh.engine.functions.common import _quiet, laid_out, result_dtype, xp_of
from gradsh.engine.functions.nll_sum import nll_cascade_sum
from gradsh.engine.functions import pointwise
from gradsh.engine.functions.pointwise import unary
from gradsh.engine.tensor import Array, ArrayOps, Function, Tensor
from gradsh.engine.vecmath import fdlibm, libm

__all__ = [
    "MseLossBackward0", "NllLossBackward0", "NllLoss2DBackward0", "BinaryCrossEntropyBackward0",
    "BinaryCrossEntropyWithLogitsBackward0", "SmoothL1LossBackward0", "HuberLossBackward0",
    "SmoothL1LossBackwardBackward0", "HuberLossBackwardBackward0",
]


_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduce_array(values: Array, reduction: str) -> Array:
    if reduction == "none":
        return values
    with _quiet():
        return _mean_array(values, None, False, values.dtype) if reduction == "mean" \
            else torch_sum(values, None, False, values.dtype)


def _loss_scale(grad: Any, reduction: str, numel: int) -> Any:
    """The gradient of a reduced loss, spread over the elements (mean divides by N; a float16
    or bfloat16 gradient in float32, as div's reduced-float branch)."""
    if reduction != "mean":
        return grad
    if grad.__class__ is np.ndarray and grad.dtype in REDUCED_FLOAT_NP:
        with np.errstate(all="ignore"):
            return (grad.astype(np.float32) / np.float32(numel)).astype(grad.dtype)
    return grad / numel


class _PairLoss(Function):
    """A loss of (input, target) of one shape; both may require grad."""

    def setup(self, a: Tensor, target: Tensor, reduction: str) -> tuple[Array, Array, Any]:
        self.reduction = reduction
        self.numel = a.numel()
        self.save("self", a)
        self.save("target", target)
        dtype = result_dtype(a, target)
        return (a._data.astype(dtype.np, copy=False),
                target._data.astype(dtype.np, copy=False), dtype)

    def reduce(self, values: Array, dtype: DType) -> Array:
        return xp_of(values).asarray(_reduce_array(values, self.reduction), dtype=dtype.np)


class MseLossBackward0(_PairLoss):
    node_name = "MseLossBackward0"

    def forward(self, a: Tensor, target: Tensor, reduction: str) -> Array:
        x, t, dtype = self.setup(a, target, reduction)
        with _quiet():
            diff = x - t
            return self.reduce(diff * diff, dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, b = self.needs_input_grad
        x, t = self.saved("self", F), self.saved("target", F)
        g = F.mse_loss_backward(grad, x, t, self.reduction)
        return (g if a else None, -g if b else None)


def nll_rows(x: Array) -> Array:
    """nll_loss's input as (samples, classes): (C,) is one sample, (N, C) as it is, and
    nll_loss2d's (N, C, H, W) with the class dimension moved last (sample b * H * W + h * W + w,
    the kernels' flat position)."""
    if x.ndim == 1:
        return x.reshape(1, -1)
    if x.ndim == 4:
        return xp_of(x).moveaxis(x, 1, -1).reshape(-1, x.shape[1])
    return x


def _all_positions(n: int) -> np.ndarray:
    """np.arange(n), made once per batch size (read only)."""
    positions = _POSITIONS.get(n)
    if positions is None:
        if len(_POSITIONS) > 64:
            _POSITIONS.clear()
        positions = _POSITIONS[n] = np.arange(n)
        positions.flags.writeable = False
    return positions


_POSITIONS: dict[int, np.ndarray] = {}
_MINIMUM, _MAXIMUM = np.minimum.reduce, np.maximum.reduce


class NllLossBackward0(Function):
    """nll_loss over (N, C) or (C,) log-probabilities with class-index targets."""

    node_name = "NllLossBackward0"
    every_target_counted = False  # (set by _every_target_counted: backward skips the masks)

    def forward(self, a: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                ignore_index: int) -> Array:
        # target and weight are not differentiable inputs: PyTorch gives the node one edge.
        self.reduction, self.ignore_index = reduction, ignore_index
        self.save("self", a)
        self.save("target", target)
        x = a._data
        t = target._data.reshape(-1)
        if (weight is None and reduction != "none" and x.__class__ is np.ndarray
                and x.ndim == 2 and t.size == x.shape[0] > 0 and t.__class__ is np.ndarray):
            # (the reductions themselves: ndarray.min and .max go through NumPy's Python wrappers)
            low, high = int(_MINIMUM(t)), int(_MAXIMUM(t))
            if 0 <= low and high < x.shape[1] and not low <= ignore_index <= high:
                return self._every_target_counted(a, x, t, reduction)
        xp = xp_of(x)
        logp = nll_rows(x)
        classes = logp.shape[1]
        valid = t != ignore_index
        bad = t[valid & ((t < 0) | (t >= classes))]
        if bad.size:
            raise TorchIndexError(f"Target {int(bad[0])} is out of bounds.")
        safe = xp.where(valid, t, 0)
        w = xp.ones(classes, dtype=x.dtype) if weight is None else weight._data.astype(x.dtype)
        self.weight = w
        wt = xp.where(valid, w[safe], 0).astype(x.dtype)
        with _quiet():
            # NOTE: an ignored target's loss is written as 0 (never -0.0 from -x * 0)
            picked = xp.where(valid, -logp[xp.arange(logp.shape[0]), safe] * wt, 0)
            picked = picked.astype(x.dtype, copy=False)
            loss, self.total_weight = self._reduce(picked, wt, valid, weight is not None)
        self.save("total_weight", Tensor._make(xp.asarray(self.total_weight), a.device))
        if weight is not None:
            self.save("weight", weight)
        if reduction == "none":
            out = picked.reshape(self.unreduced_shape(x.shape))
        elif not valid.size:
            out = math.nan if reduction == "mean" else 0.0  # (a positive NaN, as PyTorch's fill)
        else:
            with _quiet():
                out = loss if reduction == "sum" else loss / self.total_weight
        return xp.asarray(out, dtype=x.dtype)

    def _every_target_counted(self, a: Tensor, x: np.ndarray, t: np.ndarray,
                              reduction: str) -> Array:
        """forward's reduced loss of (N, C) NumPy log-probabilities, without weights, when
        every target is a class (none ignored): what the general path computes, in fewer
        steps (each weight is 1, the positions are 0 .. N-1)."""
        n = t.size
        positions = _all_positions(n)
        self.every_target_counted = True
        self.weight = weight = np.empty(x.shape[1], dtype=x.dtype)  # (np.ones, in C)
        weight.fill(1)
        # -x * weight as the general path computes it: times 1 changes no bits, NaN's
        # included (NumPy's warnings are off engine-wide: see _quiet)
        picked = -x[positions, t]
        loss = nll_cascade_sum(positions, picked, n)
        self.total_weight = total = x.dtype.type(n)
        self.save("total_weight", Tensor._make(np.asarray(total), a.device))
        return np.asarray(loss if reduction == "sum" else loss / total, dtype=x.dtype)

    @staticmethod
    def unreduced_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
        return () if len(shape) == 1 else shape[:1] + shape[2:]

    @staticmethod
    def _reduce(picked: Array, wt: Array, valid: Array, weighted: bool) -> tuple[Any, Any]:
        """The loss total and the weight total as the kernel adds them (nll_cascade_sum), or
        in NumPy's way for arrays on the GPU."""
        dtype = picked.dtype
        if not isinstance(picked, np.ndarray):
            return picked.sum(dtype=dtype), wt.sum(dtype=dtype)
        positions = np.flatnonzero(valid)
        loss = nll_cascade_sum(positions, picked[positions], valid.size)
        if weighted:
            total = nll_cascade_sum(positions, wt[positions], valid.size)
        else:
            total = dtype.type(positions.size)
        return loss, total

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        target = self.saved("target", F)
        return (F.nll_loss_backward(grad, x, target, self),)


class NllLoss2DBackward0(NllLossBackward0):
    """nll_loss2d: (N, C, H, W) log-probabilities, (N, H, W) targets (the kernel reads the
    input in its own layout; cross_entropy on (N, C, d1, ...) comes here through views)."""

    node_name = "NllLoss2DBackward0"


class BinaryCrossEntropyBackward0(_PairLoss):
    node_name = "BinaryCrossEntropyBackward0"

    def forward(self, a: Tensor, target: Tensor, weight: Tensor | None,
                reduction: str) -> Array:
        x, t, dtype = self.setup(a, target, reduction)
        xp = xp_of(x)
        if bool(((x < 0) | (x > 1)).any()):
            raise TorchRuntimeError("all elements of input should be between 0 and 1")
        self.weight = weight
        with _quiet():
            if xp is np and x.dtype == np.float32 and t.dtype == np.float32:  # glibc log1pf, logf
                log1p_neg = fdlibm.log1pf(-x).reshape(x.shape)
                log_x = libm.logf(x)
            else:
                log1p_neg, log_x = xp.log1p(-x), xp.log(x)
            loss = (t - 1) * xp.maximum(log1p_neg, -100) - t * xp.maximum(log_x, -100)
            if weight is not None:
                loss = loss * weight._data
        return self.reduce(loss.astype(dtype.np, copy=False), dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # binary_cross_entropy_backward (its own node under create_graph) and
        # binary_cross_entropy_target_backward: -logit(x) times grad, the weight, 1 / N
        need_x, need_t = self.needs_input_grad
        x, t = self.saved("self", F), self.saved("target", F)
        w = None if self.weight is None else F.as_operand(self.weight)
        with _quiet():
            gx = F.bce_backward(grad, x, t, w, self.reduction) if need_x else None
            gt = None
            if need_t:
                gt = -F.log(x / (1 - x)) * grad
                gt = gt if w is None else gt * w
                gt = gt / self.numel if self.reduction == "mean" else gt
        return (gx, gt)


class BinaryCrossEntropyWithLogitsBackward0(_PairLoss):
    node_name = "BinaryCrossEntropyWithLogitsBackward0"

    def forward(self, a: Tensor, target: Tensor, weight: Tensor | None,
                pos_weight: Tensor | None, reduction: str) -> Array:
        x, t, dtype = self.setup(a, target, reduction)
        if target.dtype.is_floating_point:
            dtype = target.dtype  # (PyTorch's kernel works in place in `1 - target`)
        self.weight, self.pos_weight = weight, pos_weight
        with _quiet():
            log_sigmoid = unary("logsigmoid", x)
            if pos_weight is not None:
                log_sigmoid = log_sigmoid * ((pos_weight._data - 1) * t + 1)
            loss = (1 - t) * x - log_sigmoid
            if weight is not None:
                loss = loss * weight._data
        return self.reduce(loss.astype(dtype.np, copy=False), dtype)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # binary_cross_entropy_with_logits_backward and its _target_backward, in their order:
        # the element's factor, times grad, times weight, then divided by N for the mean
        need_x, need_t = self.needs_input_grad
        x, t = self.saved("self", F), self.saved("target", F)
        w = None if self.weight is None else F.as_operand(self.weight)
        pw = None if self.pos_weight is None else F.as_operand(self.pos_weight)
        gx = gt = None
        # binary_cross_entropy_with_logits_backward (and _target_backward): the elementwise
        # gradient times grad, times the weight, and only then divided by N for a mean
        with _quiet():
            if need_x:
                s = F.ufunc("sigmoid", x)
                if pw is None:
                    gx = s - t
                else:
                    scaled = pw * t
                    gx = (scaled + 1 - t) * s - scaled
                gx = self._scaled(gx * grad, w)
            if need_t:
                if pw is None:
                    gt = -x
                else:
                    gt = F.ufunc("logsigmoid", -x) - F.ufunc("logsigmoid", x) * pw
                gt = self._scaled(gt * grad, w)
        return (gx, gt)

    def _scaled(self, g: Any, w: Any) -> Any:
        g = g if w is None else g * w
        return _loss_scale(g, self.reduction, self.numel)


class _PiecewiseLoss(_PairLoss):
    """smooth_l1 / huber: quadratic for |d| below a width, linear above; one parameter."""

    def forward(self, a: Tensor, target: Tensor, reduction: str, width: float) -> Array:
        x, t, dtype = self.setup(a, target, reduction)
        self.width = width
        z = xp_of(x).abs(x - t)
        return self.reduce(self.value(xp_of(x), z, width).astype(dtype.np, copy=False), dtype)

    double: ClassVar[type[Function]]  # its *_loss_backward recorded under create_graph
    kernel_name: ClassVar[str]  # its float64 backward kernel in vecmath/kernels_double
    bfloat16_in_float: ClassVar[bool] = False  # whether the backward kernel widens bfloat16

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        # PyTorch differentiates the target as the input with the two swapped (so a zero
        # difference gives +0.0 on both sides, not -0.0).
        x, t = self.saved("self", F), self.saved("target", F)
        need_x, need_t = self.needs_input_grad
        return (self.gradient(F, grad, x, t) if need_x else None,
                self.gradient(F, grad, t, x) if need_t else None)

    def gradient(self, F: Any, grad: Any, x: Any, t: Any) -> Any:
        """The loss's gradient in x (the input, or the target with the two swapped)."""
        if F.as_tensor:
            return self.double.apply(grad, x, t, first=self)
        if self.bfloat16_in_float and x.dtype == dtypes.BF16_NP:
            # smooth_l1's kernel has a BFloat16 branch computing in float (its Half branch,
            # and huber's kernel, compute in the dtype): the engine rounds the result once
            norm = np.float32(1 / self.numel if self.reduction == "mean" else 1)
            x, t, grad = x.astype(np.float32), t.astype(np.float32), grad.astype(np.float32)
            return self.slope(F, x - t, grad * norm, self.width)
        if pointwise.is_float64(x) and pointwise.is_float64(t) and pointwise.is_float64(grad):
            # float64: ATen's kernel itself, its vector and scalar paths (vecmath/kernels_double)
            norm = 1.0 / self.numel if self.reduction == "mean" else 1.0
            kernel = getattr(pointwise.D, self.kernel_name)
            return kernel(x, t, grad, norm, self.width, threads=threads.torch_threads())
        if all(v.__class__ is np.ndarray and v.dtype == np.float32 for v in (x, t, grad)):
            norm = 1.0 / self.numel if self.reduction == "mean" else 1.0
            result = _float32_kernel(x, t, grad, np.float32(norm), float(self.width),
                                     self.vector32, self.scalar32)
            if result is not None:
                return result
        return self.slope(F, x - t, _loss_scale(grad, self.reduction, self.numel), self.width)

    @staticmethod
    def vector32(d: np.ndarray, g: np.ndarray, norm: np.float32, width: float) -> np.ndarray:
        """The float32 backward kernel's vector path (Vectorized<float>, the width rounded
        to float)."""
        raise NotImplementedError

    @staticmethod
    def scalar32(d: np.ndarray, g: np.ndarray, norm: np.float32, width: float) -> np.ndarray:
        """The float32 backward kernel's scalar path (the tails of its vector loop)."""
        raise NotImplementedError

    @staticmethod
    def value(xp: Any, z: Array, width: float) -> Array:
        raise NotImplementedError

    @staticmethod
    def slope(F: Any, d: Any, g: Any, width: float) -> Any:
        raise NotImplementedError


def _float32_kernel(x: np.ndarray, t: np.ndarray, grad: np.ndarray, norm: np.float32,
                    width: float, vector: Any, scalar: Any) -> np.ndarray | None:
    """smooth_l1's or huber's float32 backward kernel (PointwiseOpsKernel.cpp) where the input
    and target are C-contiguous and the gradient too or one broadcast value (a reduced loss):
    each thread's range in vector blocks of 2 x 8 floats, its tail scalar. None elsewhere."""
    from gradsh.engine.vecmath.layout import dense_segments

    if x.shape != t.shape or not (x.flags.c_contiguous and t.flags.c_contiguous):
        return None
    g = np.broadcast_to(grad, x.shape)
    if g.flags.c_contiguous:
        flat_g = g.reshape(-1)
    elif not any(g.strides):
        flat_g = np.broadcast_to(g.reshape(-1)[:1], (x.size,))
    else:
        return None
    d = (x - t).reshape(-1)
    out = np.empty(x.size, np.float32)
    with _quiet():
        for begin, end, vectorised in dense_segments(x.size, threads.torch_threads(), 16):
            fn = vector if vectorised else scalar
            out[begin:end] = fn(d[begin:end], flat_g[begin:end], norm, width)
    return out.reshape(x.shape)


class _PiecewiseLossBackwardBackward(Function):
    """smooth_l1_loss_backward / huber_loss_backward as a node: forward is the first-order
    gradient; backward is derivatives.yaml's (the *_double_backward functions, negated for the
    target; grad_output's is the same backward of g, summed when the loss was reduced)."""

    first: _PiecewiseLoss

    def forward(self, grad_output: Tensor, x: Tensor, t: Tensor,
                first: _PiecewiseLoss) -> Array:
        self.first = first
        self.reduction, self.numel = first.reduction, first.numel
        setattr(self, self.width_name, first.width)
        for name, tensor in (("grad_output", grad_output), ("self", x), ("target", t)):
            self.save(name, tensor)
        dtype = result_dtype(grad_output, x, t)
        with _quiet():
            g = _loss_scale(grad_output._data, self.reduction, self.numel)
            return first.slope(ArrayOps, x._data - t._data, g, first.width).astype(dtype.np)

    def backward(self, F: Any, g: Any) -> tuple[Any, ...]:
        need_go, need_x, need_t = self.needs_input_grad
        go, x, t = (self.saved(name, F) for name in ("grad_output", "self", "target"))
        g_go = g_x = None
        with _quiet():
            if need_go:
                g_go = self.first.gradient(F, g, x, t) if self.reduction == "none" else \
                    self.grad_output_gradient(F, g, go, x, t)
            if need_x or need_t:
                g_x = self.second(F, g * go, x, t)
        return g_go, g_x if need_x else None, -g_x if need_t else None

    def second(self, F: Any, gg: Any, x: Any, t: Any) -> Any:
        raise NotImplementedError

    def grad_output_gradient(self, F: Any, g: Any, go: Any, x: Any, t: Any) -> Any:
        """grad_output's gradient for a reduced loss: the backward of g, summed."""
        return F.sum(self.first.gradient(F, g, x, t), None, False)

    width_name: ClassVar[str]


class SmoothL1LossBackwardBackward0(_PiecewiseLossBackwardBackward):
    node_name = "SmoothL1LossBackwardBackward0"
    width_name = "beta"

    def second(self, F: Any, gg: Any, x: Any, t: Any) -> Any:
        """smooth_l1_loss_double_backward."""
        beta = self.first.width
        if beta == 0:
            return F.zeros_like(gg)
        inside = F.detached(lambda d: (xp_of(d).abs(d) < beta).astype(d.dtype), x - t)
        out = gg * inside / beta
        return out / self.numel if self.reduction == "mean" else out


class HuberLossBackwardBackward0(_PiecewiseLossBackwardBackward):
    node_name = "HuberLossBackwardBackward0"
    width_name = "delta"

    def grad_output_gradient(self, F: Any, g: Any, go: Any, x: Any, t: Any) -> Any:
        """huber_loss_double_backward_grad_output: the backward of ones, times g, summed."""
        ones = F.detached(lambda v: xp_of(v).ones_like(v), go)
        return F.sum(self.first.gradient(F, ones, x, t) * g, None, False)

    def second(self, F: Any, gg: Any, x: Any, t: Any) -> Any:
        """huber_loss_double_backward."""
        delta = self.first.width
        inside = F.detached(lambda d: xp_of(d).abs(d) < delta, x - t)
        out = gg * inside
        return out / self.numel if self.reduction == "mean" else out


class SmoothL1LossBackward0(_PiecewiseLoss):
    node_name = "SmoothL1LossBackward0"
    double = SmoothL1LossBackwardBackward0
    kernel_name = "smooth_l1_backward"
    bfloat16_in_float = True

    @staticmethod
    def value(xp: Any, z: Array, beta: float) -> Array:
        return xp.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)

    @staticmethod
    def slope(F: Any, d: Any, g: Any, beta: float) -> Any:
        return F.where(d < -beta, -g, F.where(d > beta, g, g * d / beta))

    @staticmethod
    def vector32(d: np.ndarray, g: np.ndarray, norm: np.float32, width: float) -> np.ndarray:
        beta = np.float32(width)
        sign = np.where(d > 0, np.float32(1), np.float32(-1))
        return (norm * np.where(np.abs(d) >= beta, sign, d / beta)) * g

    @staticmethod
    def scalar32(d: np.ndarray, g: np.ndarray, norm: np.float32, width: float) -> np.ndarray:
        """The scalar lambda compares with and divides by the double beta (measured)."""
        beta, wide = np.float64(width), d.astype(np.float64)
        slope = (((norm * d) * g).astype(np.float64) / beta).astype(np.float32)
        return np.where(wide <= -beta, -norm * g, np.where(wide >= beta, norm * g, slope))


class HuberLossBackward0(_PiecewiseLoss):
    node_name = "HuberLossBackward0"
    double = HuberLossBackwardBackward0
    kernel_name = "huber_backward"

    @staticmethod
    def value(xp: Any, z: Array, delta: float) -> Array:
        return xp.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))

    @staticmethod
    def slope(F: Any, d: Any, g: Any, delta: float) -> Any:
        return F.where(d < -delta, -g * delta, F.where(d > delta, g * delta, g * d))

    @staticmethod
    def vector32(d: np.ndarray, g: np.ndarray, norm: np.float32, width: float) -> np.ndarray:
        delta = np.float32(width)
        sign = np.where(d > 0, np.float32(1), np.float32(-1))
        return (norm * np.where(np.abs(d) >= delta, sign * delta, d)) * g

    @staticmethod
    def scalar32(d: np.ndarray, g: np.ndarray, norm: np.float32, width: float) -> np.ndarray:
        """The scalar lambda compares with and multiplies by the double delta (measured)."""
        delta, wide = np.float64(width), d.astype(np.float64)
        low = ((-norm * g).astype(np.float64) * delta).astype(np.float32)
        high = ((norm * g).astype(np.float64) * delta).astype(np.float32)
        return np.where(wide <= -delta, low, np.where(wide >= delta, high, (norm * d) * g))


# reduction='none': binary_cross_entropy and huber_loss write into empty_like(input);
# binary_cross_entropy_with_logits is composed of ops on the target and a number ((1 - target)
# first: the slow path)
laid_out("preserve")(BinaryCrossEntropyBackward0)
laid_out("preserve")(HuberLossBackward0)
laid_out("scalar")(BinaryCrossEntropyWithLogitsBackward0)
