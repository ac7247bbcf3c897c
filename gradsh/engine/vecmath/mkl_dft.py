"""MKL's DFTI, the FFT behind PyTorch's CPU torch.fft (aten/src/ATen/native/mkl/SpectralOps.cpp).

ATen's _exec_fft moves the batch dimensions first (sorted by stride), collapses them into one,
and runs one out-of-place DFTI descriptor over the batch: precision, domain (complex, or real
for r2c / c2r), the signal's sizes, the batch's distances and the signal's strides in elements,
conjugate-even storage DFTI_COMPLEX_COMPLEX, and the normalisation as DFTI's forward or backward
scale (1/n or 1/sqrt(n), passed as a double, unrounded, in single precision too). The calls here are the same, so
the bits are torch's. Without MKL, NumPy's pocketfft computes the same transforms (not to the
bit: pocketfft's twiddles and radix order differ from MKL's).

`execute(x, out_shape, dims, norm, forward, kind)`: x a NumPy array, `dims` the transformed
dimensions (in the order ATen passes them), `norm` 0 none, 1 by 1/sqrt(n), 2 by 1/n; kind
"c2c", "r2c" (onesided output along dims[-1]) or "c2r" (last size given by out_shape).
"""

from __future__ import annotations

import ctypes
import math

import numpy as np

from gradsh.engine.vecmath import mkl

__all__ = ["execute"]

# mkl_dfti.h
_FORWARD_SCALE, _BACKWARD_SCALE, _NUMBER_OF_TRANSFORMS = 4, 5, 7
_CONJUGATE_EVEN_STORAGE, _PLACEMENT, _INPUT_STRIDES, _OUTPUT_STRIDES = 10, 11, 12, 13
_INPUT_DISTANCE, _OUTPUT_DISTANCE = 14, 15
_COMPLEX, _REAL, _SINGLE, _DOUBLE = 32, 33, 35, 36
_COMPLEX_COMPLEX, _NOT_INPLACE = 39, 44
_long = ctypes.c_long


def _lib() -> ctypes.CDLL | None:
    lib = mkl.library()
    if lib is None or not hasattr(lib, "DftiComputeForward"):
        return None
    return lib


def _check(status: int, lib: ctypes.CDLL) -> None:
    if status != 0:
        lib.DftiErrorMessage.restype = ctypes.c_char_p
        message = lib.DftiErrorMessage(_long(status)).decode()
        raise RuntimeError(f"MKL FFT error: {message}")


def _run_mkl(lib: ctypes.CDLL, x: np.ndarray, out: np.ndarray, sizes: list[int], norm: int,
             forward: bool, complex_in: bool, complex_out: bool) -> None:
    """One descriptor over a (batch, *signal) input and output (_plan_mkl_fft + compute)."""
    signal = sizes[1:]
    precision = _DOUBLE if x.dtype in (np.float64, np.complex128) else _SINGLE
    domain = _COMPLEX if (complex_in if forward else complex_out) else _REAL
    handle = ctypes.c_void_p()
    if len(signal) == 1:
        name = "DftiCreateDescriptor_" + ("d" if precision == _DOUBLE else "s") + "_1d"
        _check(getattr(lib, name)(ctypes.byref(handle), domain, _long(signal[0])), lib)
    else:
        name = "DftiCreateDescriptor_" + ("d" if precision == _DOUBLE else "s") + "_md"
        lengths = (_long * len(signal))(*signal)
        _check(getattr(lib, name)(ctypes.byref(handle), domain, _long(len(signal)), lengths),
               lib)
    try:
        def set_value(param: int, value: object) -> None:
            _check(lib.DftiSetValue(handle, param, value), lib)

        set_value(_PLACEMENT, _long(_NOT_INPLACE))
        set_value(_NUMBER_OF_TRANSFORMS, _long(sizes[0]))
        in_strides = [s // x.itemsize for s in x.strides]
        out_strides = [s // out.itemsize for s in out.strides]
        set_value(_INPUT_DISTANCE, _long(in_strides[0]))
        set_value(_OUTPUT_DISTANCE, _long(out_strides[0]))
        set_value(_INPUT_STRIDES, (_long * len(sizes))(0, *in_strides[1:]))
        set_value(_OUTPUT_STRIDES, (_long * len(sizes))(0, *out_strides[1:]))
        if not complex_in or not complex_out:
            set_value(_CONJUGATE_EVEN_STORAGE, _long(_COMPLEX_COMPLEX))
        if norm:
            numel = math.prod(signal)
            scale = 1.0 / math.sqrt(numel) if norm == 1 else 1.0 / numel
            set_value(_FORWARD_SCALE if forward else _BACKWARD_SCALE, ctypes.c_double(scale))
        _check(lib.DftiCommitDescriptor(handle), lib)
        compute = lib.DftiComputeForward if forward else lib.DftiComputeBackward
        _check(compute(handle, ctypes.c_void_p(x.ctypes.data),
                       ctypes.c_void_p(out.ctypes.data)), lib)
    finally:
        lib.DftiFreeDescriptor(ctypes.byref(handle))


def execute(x: np.ndarray, out_shape: tuple[int, ...], dims: list[int], norm: int,
            forward: bool, kind: str) -> np.ndarray:
    """_exec_fft: the transform of x over dims into a fresh array of out_shape (its layout as
    ATen's as_strided_ leaves it: batch dimensions in x's stride order)."""
    x = _aligned_like(x)
    ndim = x.ndim
    transformed = set(dims)
    batch = [d for d in range(ndim) if d not in transformed]
    batch.sort(key=lambda d: -x.strides[d])  # (a stable sort, as std::sort on distinct keys)
    permute = batch + list(dims)
    moved = x.transpose(permute)
    signal_in = [moved.shape[len(batch) + i] for i in range(len(dims))]
    batched = moved.reshape([-1] + signal_in)  # (a copy where the batch does not collapse)
    count = batched.shape[0]
    sizes = [count] + [max(signal_in[i], out_shape[d]) for i, d in enumerate(dims)]
    complex_in = x.dtype.kind == "c"
    complex_out = kind != "c2r"
    real = np.float64 if x.dtype in (np.float64, np.complex128) else np.float32
    out_dtype = np.dtype(np.complex128 if real is np.float64 else np.complex64) \
        if complex_out else np.dtype(real)
    lib = _lib()
    if lib is not None and count and all(sizes):
        # a 64-byte aligned output, as ATen's allocator gives: DFTI's code path (and so its
        # bits) depends on the alignment and the strides (an input was aligned by _aligned_like)
        out = _aligned([count] + [out_shape[d] for d in dims], out_dtype)
        _run_mkl(lib, batched, out, sizes, norm, forward, complex_in, complex_out)
    else:
        out = np.zeros([count] + [out_shape[d] for d in dims], out_dtype)
        if count and all(sizes):
            y = _pocketfft(batched, sizes, norm, forward, kind)
            out[(Ellipsis, slice(0, y.shape[-1]))] = y  # (r2c: the onesided half)
    # back to x's dimension order, the batch dimensions in their stride order
    batch_shape = [out_shape[d] for d in batch]
    full = out.reshape(batch_shape + list(out.shape[1:]))
    inverse = np.argsort(permute)
    return full.transpose(inverse)


def _aligned(shape: list[int] | tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """A zeroed C-contiguous array at a 64-byte boundary."""
    size = math.prod(shape)
    raw = np.zeros(size + 64 // dtype.itemsize, dtype)
    offset = (-raw.ctypes.data % 64) // dtype.itemsize
    return raw[offset:offset + size].reshape(shape)


def _aligned_like(x: np.ndarray) -> np.ndarray:
    """x itself where it starts at a 64-byte boundary or is not dense; else a copy in the same
    memory order at one (ATen's tensors start aligned: NumPy's arrays need not)."""
    if 0 in x.strides and x.size:  # an expanded gradient: DFTI refuses zero strides
        copy = _aligned(x.shape, x.dtype)
        copy[...] = x
        return copy
    if x.ctypes.data % 64 == 0 or x.size == 0 or any(s < 0 for s in x.strides):
        return x
    order = sorted(range(x.ndim), key=lambda d: -x.strides[d])
    dense = np.empty([x.shape[d] for d in order], x.dtype).strides
    if any(x.strides[d] != dense[i] for i, d in enumerate(order) if x.shape[d] > 1):
        return x
    buffer = _aligned([x.shape[d] for d in order], x.dtype)
    copy = buffer.transpose(np.argsort(order))
    copy[...] = x
    return copy


def _pocketfft(x: np.ndarray, sizes: list[int], norm: int, forward: bool,
               kind: str) -> np.ndarray:
    """NumPy's transforms over every axis but the first, with ATen's scale."""
    axes = tuple(range(1, x.ndim))
    numel = math.prod(sizes[1:])
    scale = 1.0 if norm == 0 else (1.0 / math.sqrt(numel) if norm == 1 else 1.0 / numel)
    if kind == "c2c":
        y = np.fft.fftn(x, axes=axes) if forward else np.fft.ifftn(x, axes=axes, norm="forward")
    elif kind == "r2c":
        y = np.fft.rfftn(x, axes=axes, norm="backward")
    else:
        y = np.fft.irfftn(x, s=sizes[1:], axes=axes, norm="forward")
    return (y * scale).astype(y.dtype)
