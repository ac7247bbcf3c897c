"""The three FFT nodes of torch.fft, as ATen's _fft_c2c, _fft_r2c and _fft_c2r (MKL's DFTI,
vecmath/mkl_dft.py) with their backward formulas from derivatives.yaml (fft_r2c_backward,
fft_c2r_backward, and a c2c in the other direction). `norm` is ATen's fft_norm_mode: 0 none,
1 by 1/sqrt(n), 2 by 1/n. The formulas are written for arrays: a create_graph backward raises
NotImplementedError."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine.functions.complex_nodes import arrays_only
from gradsh.engine.tensor import Array, Function, Tensor
from gradsh.engine.vecmath.mkl_dft import execute

__all__ = ["FftC2CBackward0", "FftR2CBackward0", "FftC2RBackward0", "c2c", "r2c", "c2r"]


def _sort_dims(x: Array, dims: list[int], exclude_last: bool = False) -> list[int]:
    """ATen's _sort_dims: the transformed dims by decreasing input stride (the last one kept
    last for the onesided transforms)."""
    head = dims[:-1] if exclude_last else dims
    ordered = sorted(head, key=lambda d: -x.strides[d])
    return ordered + (dims[-1:] if exclude_last else [])


def c2c(x: Array, dims: list[int], norm: int, forward: bool) -> Array:
    if not dims:
        return x.copy()
    return execute(x, x.shape, _sort_dims(x, dims), norm, forward, "c2c")


def r2c(x: Array, dims: list[int], norm: int, onesided: bool) -> Array:
    last = dims[-1]
    n = x.shape[last]
    out_shape = list(x.shape)
    if onesided:
        out_shape[last] = n // 2 + 1
    out = execute(x, tuple(out_shape), _sort_dims(x, dims, True), norm, True, "r2c")
    if not onesided and n > n // 2 + 1:  # _fft_fill_with_conjugate_symmetry_ (one dim)
        half = n // 2 + 1
        mirrored = np.take(out, n - np.arange(half, n), axis=last)
        index = [slice(None)] * out.ndim
        index[last] = slice(half, n)
        out[tuple(index)] = np.conj(mirrored)
    return out


def c2r(x: Array, dims: list[int], norm: int, last_dim_size: int) -> Array:
    if len(dims) > 1:  # a c2c over all but the last dim first, as ATen's MKL path
        x = c2c(x, dims[:-1], norm, False)
        dims = dims[-1:]
    out_shape = list(x.shape)
    out_shape[dims[-1]] = last_dim_size
    return execute(x, tuple(out_shape), dims, norm, False, "c2r")


class FftC2CBackward0(Function):
    node_name = "FftC2CBackward0"

    def forward(self, a: Tensor, dims: list[int], norm: int, forward: bool) -> Array:
        self.dims, self.norm, self.direction = dims, norm, forward
        return c2c(a._data, dims, norm, forward)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        arrays_only(F, self.node_name)
        return (c2c(np.asarray(grad), self.dims, self.norm, not self.direction),)


class FftR2CBackward0(Function):
    node_name = "FftR2CBackward0"

    def forward(self, a: Tensor, dims: list[int], norm: int, onesided: bool) -> Array:
        self.dims, self.norm, self.onesided = dims, norm, onesided
        self.last_dim_size = a.shape[dims[-1]]
        return r2c(a._data, dims, norm, onesided)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        arrays_only(F, self.node_name)
        grad = np.asarray(grad)
        if self.onesided:  # the other half as zeros
            last = self.dims[-1]
            shape = list(grad.shape)
            shape[last] = self.last_dim_size
            if shape[last] > grad.shape[last]:
                full = np.zeros(shape, grad.dtype)
                index = [slice(None)] * grad.ndim
                index[last] = slice(0, grad.shape[last])
                full[tuple(index)] = grad
                grad = full
        return (np.ascontiguousarray(c2c(grad, self.dims, self.norm, False).real),)


class FftC2RBackward0(Function):
    node_name = "FftC2RBackward0"

    def forward(self, a: Tensor, dims: list[int], norm: int, last_dim_size: int) -> Array:
        self.dims, self.norm = dims, norm
        return c2r(a._data, dims, norm, last_dim_size)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        arrays_only(F, self.node_name)
        grad = np.asarray(grad)
        gi = r2c(grad, self.dims, self.norm, True)
        last = self.dims[-1]
        double = grad.shape[last] - gi.shape[last]
        if double > 0:  # entries whose mirror fell outside the onesided half count twice
            index = [slice(None)] * gi.ndim
            index[last] = slice(1, 1 + double)
            gi[tuple(index)] *= 2
        return (gi,)
