"""ATen's CPU kernels of complex element-wise math, where NumPy's differ in the last bit.

- mul: Vectorized<c10::complex<T>>::operator* (AVX-512) rounds each product, then adds:
  (ac - bd) + (ad + bc)i, no fused multiply-add (NumPy's SIMD loop fuses).
- abs: Sleef's hypot (u05), which agrees with NumPy's hypot, not with NumPy's complex abs.
- angle: Sleef's atan2 (u10) in the vectorised blocks of 2 * Vec::size() elements (16 complex
  floats, 8 complex doubles with AVX-512), glibc's atan2 in the rest (std::arg).
Contiguous operands assumed for the block split; any other layout computes the same formulas.
"""

from __future__ import annotations

import numpy as np

from gradsh.engine.tensor import Array
from gradsh.engine.vecmath import fdlibm, sleef
from gradsh.engine.vecmath.sleef_double import libm2, sleef2

__all__ = ["mul", "abs_", "angle", "pow_scalar"]


def mul(x: object, y: object, dtype: np.dtype) -> Array:
    """x * y as ATen's vectorised complex mul: each product rounded, then summed."""
    a = np.asarray(x).astype(dtype, copy=False) if not isinstance(x, complex) else x
    b = np.asarray(y).astype(dtype, copy=False) if not isinstance(y, complex) else y
    real_dtype = np.dtype(dtype.char.lower())
    ar, ai = _parts(a, real_dtype)
    br, bi = _parts(b, real_dtype)
    out = np.empty(np.broadcast_shapes(np.shape(ar), np.shape(br)), dtype)
    out.real = ar * br - ai * bi
    out.imag = ar * bi + ai * br
    return out


def pow_scalar(z: Array, exponent: object) -> Array | None:
    """z ** number as ATen's pow_tensor_scalar kernel special-cases it: 0.5 is sqrt, 2 and 3
    products (mul's rounding), -0.5 and -1 divisions; None for the general std::pow."""
    if exponent == 0.5:
        return np.sqrt(z)
    if exponent == 2:
        return mul(z, z, z.dtype)
    if exponent == 3:
        return mul(mul(z, z, z.dtype), z, z.dtype)
    if exponent == -0.5:
        return np.divide(1, np.sqrt(z))
    if exponent == -1:
        return np.divide(1, z)
    return None


def _parts(z: object, real_dtype: np.dtype) -> tuple[Array, Array]:
    if isinstance(z, complex):  # a wrapped number, cast to the result's precision
        return real_dtype.type(z.real), real_dtype.type(z.imag)
    return z.real, z.imag  # type: ignore[attr-defined]


def abs_(z: Array) -> Array:
    if z.dtype == np.complex64 or z.size == 0:  # (NumPy's hypotf agrees with Sleef's here)
        return np.hypot(z.real, z.imag)
    return _blocks(z, lambda y, x: sleef2("hypot", x, y), lambda y, x: libm2("hypot", x, y))


def angle(z: Array) -> Array:
    if z.dtype == np.complex64:
        return _blocks(z, sleef.atan2f_u10, fdlibm.atan2f)
    return _blocks(z, lambda y, x: sleef2("atan2", y, x), lambda y, x: libm2("atan2", y, x))


def _blocks(z: Array, vector: object, scalar: object) -> Array:
    """f(imag, real) of each element: `vector` (Sleef) in the kernel's vectorised blocks of
    2 * Vec::size() elements, `scalar` (the C library) in the rest."""
    flat = np.ascontiguousarray(z).reshape(-1)
    single = z.dtype == np.complex64
    block = 16 if single else 8
    head = flat.size // block * block
    out = np.empty(flat.size, np.float32 if single else np.float64)
    if head:
        out[:head] = vector(flat.imag[:head], flat.real[:head])  # type: ignore[operator]
    if head < flat.size:
        out[head:] = scalar(flat.imag[head:], flat.real[head:])  # type: ignore[operator]
    return out.reshape(z.shape)
