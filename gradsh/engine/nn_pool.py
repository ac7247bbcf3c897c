"""Pooling: max_pool1d/2d (MaxPool2DWithIndicesBackward0), avg_pool1d/2d (AvgPool2DBackward0),
adaptive_avg_pool1d/2d (AdaptiveAvgPool2DBackward0, or a mean for a 1x1 output). The 1-D forms
are the 2-D ones on an unsqueezed input, as in ATen. Windows come from strided views; the
backward scatters with bincount or one strided add per kernel position."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from gradsh.engine import backend, ops
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.ops import arguments
from gradsh.engine.tensor import Array, Function, GradOps, Tensor

Pair = tuple[int, int]


def _xp(array: Array) -> Any:
    return np if isinstance(array, np.ndarray) else backend.array_module(array)


def _pair(value: Any, name: str = "") -> Pair:
    if isinstance(value, int):
        return value, value
    values = tuple(int(v) for v in value)
    return (values[0], values[0]) if len(values) == 1 else (values[0], values[1])


class Window:
    """Where the windows of a 2-D pooling lie: kernel, stride, padding, dilation, ceil_mode."""

    def __init__(self, kernel: Pair, stride: Pair, padding: Pair, dilation: Pair,
                 ceil_mode: bool) -> None:
        self.kernel, self.stride, self.padding = kernel, stride, padding
        self.dilation, self.ceil_mode = dilation, ceil_mode

    def out_size(self, h: int, w: int) -> Pair:
        sizes = []
        for n, k, s, p, d in zip((h, w), self.kernel, self.stride, self.padding, self.dilation,
                                 strict=True):
            span = n + 2 * p - d * (k - 1) - 1
            out = (-(-span // s) if self.ceil_mode else span // s) + 1
            if self.ceil_mode and (out - 1) * s >= n + p:
                out -= 1  # the last window must start inside the input or its left padding
            sizes.append(out)
        return sizes[0], sizes[1]

    def windows(self, x: Array, fill: Any) -> tuple[Array, Pair]:
        """(N, C, OH, OW, kh, kw): the windows over x padded with `fill` (extra fill at the end
        for ceil_mode's partial windows)."""
        xp = _xp(x)
        h, w = x.shape[-2:]
        oh, ow = self.out_size(h, w)
        (kh, kw), (sh, sw), (ph, pw), (dh, dw) = self.kernel, self.stride, self.padding, \
            self.dilation
        need_h = (oh - 1) * sh + dh * (kh - 1) + 1
        need_w = (ow - 1) * sw + dw * (kw - 1) + 1
        after_h = max(need_h - h - ph, 0)
        after_w = max(need_w - w - pw, 0)
        if ph or pw or after_h or after_w:
            x = xp.pad(x, ((0, 0), (0, 0), (ph, after_h), (pw, after_w)), constant_values=fill)
        extent = (dh * (kh - 1) + 1, dw * (kw - 1) + 1)
        view = sliding_window_view(x, extent, axis=(2, 3)) if xp is np else \
            xp.lib.stride_tricks.sliding_window_view(x, extent, axis=(2, 3))
        return view[:, :, :oh * sh:sh, :ow * sw:sw, ::dh, ::dw], (oh, ow)


def _check_pool(name: str, x: Tensor, win: Window) -> None:
    if x.ndim not in (3, 4) or x.numel() == 0:
        raise TorchRuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if any(s == 0 for s in win.stride):
        raise TorchRuntimeError("stride should not be zero")
    for k, p, d in zip(win.kernel, win.padding, win.dilation, strict=True):
        if p > (d * (k - 1) + 1) // 2:
            raise TorchRuntimeError(
                "pad should be at most half of effective kernel size, but got pad="
                f"{p}, kernel_size={k} and dilation={d}")
    h, w = x.shape[-2:]
    oh, ow = win.out_size(h, w)
    if oh < 1 or ow < 1:
        c = x.shape[-3]
        raise TorchRuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: "
                                f"({c}x{oh}x{ow}). Output size is too small")


def _batched(a: Array) -> Array:
    return a if a.ndim == 4 else a[None]


# ---------------------------------------------------------------------------------------------
# Max pooling
# ---------------------------------------------------------------------------------------------


class MaxPool2DWithIndicesBackward0(Function):
    """The maximum of each window; the gradient goes to the position it came from."""

    node_name = "MaxPool2DWithIndicesBackward0"

    def forward(self, a: Tensor, window: Window) -> Array:
        x = _batched(a._data)
        xp = _xp(x)
        fill = -xp.inf if x.dtype.kind == "f" else xp.iinfo(x.dtype).min
        view, (oh, ow) = window.windows(x, fill)
        kh, kw = window.kernel
        flat = view.reshape(view.shape[:4] + (kh * kw,))
        local = flat.argmax(axis=-1)
        values = xp.take_along_axis(flat, local[..., None], axis=-1)[..., 0]
        (sh, sw), (ph, pw), (dh, dw) = window.stride, window.padding, window.dilation
        rows = xp.arange(oh)[:, None] * sh - ph + (local // kw) * dh
        cols = xp.arange(ow)[None, :] * sw - pw + (local % kw) * dw
        width = x.shape[-1]
        self.indices = (rows * width + cols).astype(np.int64)
        if a.ndim == 3:
            values, self.indices = values[0], self.indices[0]
        self.input_shape = tuple(a.shape)
        return xp.ascontiguousarray(values)

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        shape = self.input_shape
        plane = shape[-1] * shape[-2]
        if F.as_tensor:
            lead = tuple(grad.shape[:-2])
            zeros = ops.zeros(lead + (plane,), dtype=grad.dtype, device=grad.device)
            index = Tensor._make(self.indices.reshape(lead + (-1,)), grad.device)
            flat = ops.scatter_add(zeros, -1, index, ops.reshape(grad, lead + (-1,)))
            return (ops.reshape(flat, shape),)
        xp = _xp(grad)
        planes = grad.size // max(grad.shape[-1] * grad.shape[-2], 1)
        offsets = xp.arange(planes).reshape(-1, 1) * plane
        where = (self.indices.reshape(planes, -1) + offsets).ravel()
        summed = xp.bincount(where, weights=grad.reshape(-1), minlength=planes * plane)
        return (summed.astype(grad.dtype, copy=False).reshape(shape),)


def max_pool2d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = True) -> tuple[Tensor, Tensor]:
    input = arguments._check_tensor(input, "max_pool2d")
    kernel = _pair(kernel_size)
    window = Window(kernel, _pair(stride) if stride not in (None, (), []) else kernel,
                    _pair(padding), _pair(dilation), ceil_mode)
    _check_pool("max_pool2d", input, window)
    node_out = MaxPool2DWithIndicesBackward0.apply(input, window=window)
    indices = _last_indices(node_out, input, window)
    return node_out, indices


def _last_indices(out: Tensor, input: Tensor, window: Window) -> Tensor:  # noqa: A002
    """The indices tensor of the max pooling that produced `out` (recomputed when the node was
    not recorded, as under no_grad)."""
    node = out.grad_fn
    if isinstance(node, MaxPool2DWithIndicesBackward0):
        return Tensor._make(node.indices, input.device)
    probe = MaxPool2DWithIndicesBackward0()
    probe.needs_input_grad = (False,)
    probe.forward(input, window)
    return Tensor._make(probe.indices, input.device)


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Any:
    if return_indices:
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    input = arguments._check_tensor(input, "max_pool2d")
    kernel = _pair(kernel_size)
    window = Window(kernel, _pair(stride) if stride not in (None, (), []) else kernel,
                    _pair(padding), _pair(dilation), ceil_mode)
    _check_pool("max_pool2d", input, window)
    return MaxPool2DWithIndicesBackward0.apply(input, window=window)


def _check_1d(name: str, input: Tensor, batch_words: str) -> None:  # noqa: A002
    if input.ndim not in (2, 3):
        raise TorchRuntimeError(f"{name}: Expected 2D or 3D {batch_words} tensor with optional "
                                f"0 dim batch size for input, but got:{list(input.shape)}")


def _one(value: Any) -> int:
    return value if isinstance(value, int) else int(tuple(value)[0])


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = True) -> tuple[Tensor, Tensor]:
    input = arguments._check_tensor(input, "max_pool1d")
    _check_1d("max_pool1d", input, "(batch mode)")
    k = _one(kernel_size)
    s = _one(stride) if stride not in (None, (), []) else k
    out, indices = max_pool2d_with_indices(ops.unsqueeze(input, -2), (1, k), (1, s),
                                           (0, _one(padding)), (1, _one(dilation)), ceil_mode)
    return ops.squeeze(out, -2), ops.squeeze(indices, -2)


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
               return_indices: bool = False) -> Any:
    out, indices = max_pool1d_with_indices(input, kernel_size, stride, padding, dilation,
                                           ceil_mode)
    return (out, indices) if return_indices else out


# ---------------------------------------------------------------------------------------------
# Average pooling
# ---------------------------------------------------------------------------------------------


def _divisors(window: Window, h: int, w: int, out: Pair, count_include_pad: bool,
              divisor_override: int | None) -> np.ndarray:
    """Each output position's divisor, (OH, OW), as ATen's avg_pool2d computes it."""
    if divisor_override:
        return np.full(out, float(divisor_override))
    sizes = []
    for n, o, k, s, p in zip((h, w), out, window.kernel, window.stride, window.padding,
                             strict=True):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        padded = end - start
        start, end = np.maximum(start, 0), np.minimum(end, n)
        sizes.append(padded if count_include_pad else end - start)
    return np.outer(sizes[0], sizes[1]).astype(np.float64)


class AvgPool2DBackward0(Function):
    node_name = "AvgPool2DBackward0"

    def forward(self, a: Tensor, window: Window, count_include_pad: bool,
                divisor_override: int | None) -> Array:
        x = _batched(a._data)
        xp = _xp(x)
        view, out = window.windows(x, 0)
        h, w = x.shape[-2:]
        self.window, self.input_shape = window, tuple(a.shape)
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override
        divisor = _divisors(window, h, w, out, count_include_pad, divisor_override)
        self.divisor = divisor
        sums = view.sum(axis=(-2, -1), dtype=x.dtype)
        if x.dtype.kind == "f":
            result = (sums / xp.asarray(divisor, dtype=x.dtype)).astype(x.dtype, copy=False)
        else:
            result = (sums // xp.asarray(divisor.astype(np.int64))).astype(x.dtype)
        return xp.ascontiguousarray(result if a.ndim == 4 else result[0])

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            return (AvgPoolInputGrad.apply(grad, node=self),)
        return (_avg_pool_input_grad(grad, self),)


def _avg_pool_input_grad(grad: Array, node: AvgPool2DBackward0) -> Array:
    xp = _xp(grad)
    g = _batched(grad) / xp.asarray(node.divisor, dtype=grad.dtype)
    shape4 = (1,) * (4 - len(node.input_shape)) + node.input_shape
    h, w = shape4[-2:]
    (kh, kw), (sh, sw), (ph, pw) = node.window.kernel, node.window.stride, node.window.padding
    oh, ow = g.shape[-2:]
    padded = xp.zeros(shape4[:2] + (max(h + 2 * ph, (oh - 1) * sh + kh),
                                    max(w + 2 * pw, (ow - 1) * sw + kw)), dtype=grad.dtype)
    for i in range(kh):
        for j in range(kw):
            padded[:, :, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw] += g
    return padded[:, :, ph:ph + h, pw:pw + w].reshape(node.input_shape)


class AvgPoolInputGrad(Function):
    """avg_pool2d's input gradient as a differentiable op (create_graph): linear in the output
    gradient, whose own gradient is the average pooling again."""

    node_name = "AvgPool2DBackwardBackward0"

    def forward(self, grad: Tensor, node: AvgPool2DBackward0) -> Array:
        self.node = node
        return _avg_pool_input_grad(grad._data, node)

    def backward(self, F: GradOps, h: Any) -> tuple[Any, ...]:
        node = self.node
        if F.as_tensor:
            return (AvgPool2DBackward0.apply(h, window=node.window,
                                             count_include_pad=node.count_include_pad,
                                             divisor_override=node.divisor_override),)
        return (_pooled_array(h, node),)


def _pooled_array(h: Array, node: AvgPool2DBackward0) -> Array:
    x = _batched(h)
    view, _ = node.window.windows(x, 0)
    out = view.sum(axis=(-2, -1)) / _xp(h).asarray(node.divisor, dtype=h.dtype)
    return out.astype(h.dtype, copy=False) if h.ndim == 4 else out[0].astype(h.dtype)


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    input = arguments._check_tensor(input, "avg_pool2d")
    kernel = _pair(kernel_size)
    window = Window(kernel, _pair(stride) if stride not in (None, (), []) else kernel,
                    _pair(padding), (1, 1), ceil_mode)
    _check_pool("avg_pool2d", input, window)
    if divisor_override is not None and divisor_override == 0:
        raise TorchRuntimeError("divisor must be not zero")
    return AvgPool2DBackward0.apply(input, window=window, count_include_pad=count_include_pad,
                                    divisor_override=divisor_override)


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None,  # noqa: A002
               padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    input = arguments._check_tensor(input, "avg_pool1d")
    _check_1d("avg_pool1d", input, "(batch mode)")
    k = _one(kernel_size)
    s = _one(stride) if stride not in (None, (), []) else k
    out = avg_pool2d(ops.unsqueeze(input, -2), (1, k), (1, s), (0, _one(padding)), ceil_mode,
                     count_include_pad)
    return ops.squeeze(out, -2)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------
# Adaptive average pooling
# ---------------------------------------------------------------------------------------------


def _bin_matrix(n: int, out: int, dtype: Any) -> np.ndarray:
    """(out, n): row i averages input positions floor(i*n/out) .. ceil((i+1)*n/out)-1."""
    matrix = np.zeros((out, n), dtype=np.float64)
    for i in range(out):
        start, end = (i * n) // out, -(-((i + 1) * n) // out)
        matrix[i, start:end] = 1.0 / (end - start)
    return matrix.astype(dtype)


class AdaptiveAvgPool2DBackward0(Function):
    """Separable: y = A_h @ x @ A_w^T with the bin-averaging matrices of each axis."""

    node_name = "AdaptiveAvgPool2DBackward0"

    def forward(self, a: Tensor, output_size: Pair) -> Array:
        x = a._data
        xp = _xp(x)
        h, w = x.shape[-2:]
        self.rows = xp.asarray(_bin_matrix(h, output_size[0], x.dtype))
        self.cols = xp.asarray(_bin_matrix(w, output_size[1], x.dtype))
        return xp.ascontiguousarray(self.rows @ x @ self.cols.T)

    def backward(self, F: GradOps, grad: Any) -> tuple[Any, ...]:
        if F.as_tensor:
            rows = Tensor._make(self.rows, grad.device)
            cols = Tensor._make(self.cols, grad.device)
            return (ops.matmul(ops.matmul(ops.t(rows), grad), cols),)
        return (self.rows.T @ grad @ self.cols,)


def _output_pair(output_size: Any, h: int, w: int) -> Pair:
    if isinstance(output_size, int):
        return output_size, output_size
    oh, ow = (tuple(output_size) * 2)[:2] if len(tuple(output_size)) == 1 else tuple(
        output_size)
    return (h if oh is None else int(oh)), (w if ow is None else int(ow))


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    input = arguments._check_tensor(input, "adaptive_avg_pool2d")
    if input.ndim not in (3, 4):
        raise TorchRuntimeError("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                                f"{list(input.shape)}")
    h, w = input.shape[-2:]
    out = _output_pair(output_size, h, w)
    if out == (1, 1):
        return ops.mean(input, dim=(-1, -2), keepdim=True)  # type: ignore[no-any-return]
    if not input.dtype.is_floating_point:
        raise TorchRuntimeError(f'"adaptive_avg_pool2d" not implemented for '
                                f"'{input.dtype.short}'")
    return AdaptiveAvgPool2DBackward0.apply(input, output_size=out)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    input = arguments._check_tensor(input, "adaptive_avg_pool1d")
    if input.ndim not in (2, 3):
        raise TorchRuntimeError("adaptive_avg_pool1d(): Expected 2D or 3D tensor, but got "
                                f"{list(input.shape)}")
    out = adaptive_avg_pool2d(ops.unsqueeze(input, -2), (1, _one(output_size)))
    return ops.squeeze(out, -2)  # type: ignore[no-any-return]

