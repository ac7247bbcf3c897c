"""The nodes of complex tensors: view_as_real / view_as_complex, real / imag, torch.complex,
torch.polar, conj, and the complex branches of abs and angle.

Gradients follow PyTorch's convention for complex inputs: a backward formula receives
dL/d(conj z) and returns it for its inputs (the conjugate Wirtinger derivative), so the .grad of
a complex leaf of a real loss is the conjugate of what the naive chain rule gives. A real input
of a complex op gets the real part of its gradient (handle_r_to_c; the engine's dtype cast
does it, see grad_ops' `cast`).

The formulas are written for arrays; a create_graph backward through them raises PyTorch-style
NotImplementedError rather than building a wrong graph.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError, warn
from gradsh.engine.functions.common import broadcast_shapes
from gradsh.engine.tensor import Array, Function, Tensor, _once
from gradsh.engine.vecmath.layout import element_strides

__all__ = [
    "ViewAsRealBackward0", "ViewAsComplexBackward0",
    "ComplexBackward0", "PolarBackward0", "ConjBackward0", "ConjPhysicalBackward0",
    "complex_sgn", "arrays_only", "complex_valued", "warn_discarding_imaginary", "holomorphic", "angle_backward", "abs_backward", "real_view", "complex_view",
]

_REAL_OF = {np.dtype(np.complex64): np.dtype(np.float32),
            np.dtype(np.complex128): np.dtype(np.float64)}
_COMPLEX_OF = {v: k for k, v in _REAL_OF.items()}


def complex_valued(x: Any) -> bool:
    """Whether a gradient or saved value (a NumPy or CuPy array, a NumPy scalar, a Tensor, a
    Python number) is complex."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return isinstance(x, complex)
    return dtype.is_complex if isinstance(dtype, dtypes.DType) else np.dtype(dtype).kind == "c"


def warn_discarding_imaginary() -> None:
    """TORCH_WARN_ONCE of a complex to real copy (x.float(), x.to(torch.float64) ...)."""
    if "complex_to_real" not in _once:
        _once.add("complex_to_real")
        warn("Casting complex values to real discards the imaginary part")


def arrays_only(F: Any, node: str) -> None:
    """A create_graph backward through a complex node: not available in gradsh."""
    if F.as_tensor:
        raise TorchNotImplementedError(
            f"gradsh does not implement double backward through {node} (complex) yet")


def real_view(z: Array) -> Array:
    """view_as_real: the (..., 2) real view of a complex array, sharing its memory."""
    real = z.real
    step = real.dtype.itemsize
    return np.lib.stride_tricks.as_strided(real, z.shape + (2,), z.strides + (step,))


def complex_view(x: Array) -> Array:
    """view_as_complex: the complex view of a (..., 2) real array whose last stride is 1."""
    return x.view(_COMPLEX_OF[x.dtype])[..., 0]


def complex_sgn(z: Array) -> Array:
    """sgn of a complex array: z / |z|, 0 where z is 0 (ATen's)."""
    magnitude = np.abs(z)
    out = np.divide(z, magnitude, where=magnitude != 0, out=np.zeros_like(z))
    return out


def holomorphic(cls: type) -> type:
    """A node whose real formula is grad * f'(x) (exp, sin, sqrt, pow ...), made right for a
    complex input: PyTorch's grad * conj(f'(z)), that is conj(formula(conj(grad)))."""
    backward = cls.backward

    def complex_aware(self: Any, F: Any, grad: Any) -> tuple[Any, ...]:
        if grad.__class__ is np.ndarray and grad.dtype.kind != "c":  # (the common case first)
            return backward(self, F, grad)  # type: ignore[no-any-return]
        if not complex_valued(grad):
            return backward(self, F, grad)  # type: ignore[no-any-return]
        arrays_only(F, cls.node_name)  # type: ignore[attr-defined]
        return tuple(None if g is None else np.conj(g)
                     for g in backward(self, F, np.conj(grad)))

    complex_aware.__doc__ = backward.__doc__
    cls.backward = complex_aware
    return cls


def angle_backward(F: Any, grad: Any, z: Array) -> Array:
    """angle's gradient at a complex z: grad z / |z|^2 i, 0 where z is 0."""
    arrays_only(F, "AngleBackward0")
    magnitude2 = np.abs(z) ** 2
    out = np.zeros(np.broadcast_shapes(np.shape(grad), z.shape), z.dtype)
    np.divide(grad * z * 1j, magnitude2, where=magnitude2 != 0, out=out)
    return out


def abs_backward(F: Any, grad: Any, z: Array) -> Array:
    """abs's gradient at a complex z: grad sgn(z)."""
    arrays_only(F, "AbsBackward0")
    return grad * complex_sgn(z)


class ViewAsRealBackward0(Function):
    node_name = "ViewAsRealBackward0"
    is_view = True

    def forward(self, a: Tensor) -> Array:
        return real_view(a._data)

    def view_fn(self, array: Array) -> Array:
        return real_view(array)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        arrays_only(F, self.node_name)
        return (np.ascontiguousarray(grad).view(_COMPLEX_OF[grad.dtype])[..., 0],)


class ViewAsComplexBackward0(Function):
    node_name = "ViewAsComplexBackward0"
    is_view = True

    def forward(self, a: Tensor) -> Array:
        return complex_view(a._data)

    def view_fn(self, array: Array) -> Array:
        return complex_view(array)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        arrays_only(F, self.node_name)
        return (np.ascontiguousarray(real_view(np.asarray(grad))),)


def _check_pair(a: Tensor, b: Tensor, fname: str) -> dtypes.DType:
    """torch.complex / torch.polar's operand checks: both Half, Float or Double, one dtype."""
    if not (a.dtype.is_floating_point and b.dtype.is_floating_point) or \
            a.dtype is dtypes.bfloat16 or b.dtype is dtypes.bfloat16:
        raise TorchRuntimeError(f"Expected both inputs to be Half, Float or Double tensors but "
                                f"got {a.dtype.short} and {b.dtype.short}")
    if a.dtype is not b.dtype:
        raise TorchRuntimeError(f"Expected object of scalar type {a.dtype.short} but got "
                                f"scalar type {b.dtype.short} for second argument")
    if a.dtype is dtypes.float16:
        raise TorchNotImplementedError(f'"{fname}_cpu" not implemented for \'ComplexHalf\'')
    return dtypes.to_complex(a.dtype)


class ComplexBackward0(Function):
    node_name = "ComplexBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        dtype = _check_pair(a, b, "complex")
        shape = broadcast_shapes(a, b)
        out = np.empty(shape, dtype.np)
        out.real, out.imag = a._data, b._data
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        arrays_only(F, self.node_name)
        return (np.ascontiguousarray(grad.real), np.ascontiguousarray(grad.imag))


class PolarBackward0(Function):
    """polar(abs, angle) = abs cos(angle) + i abs sin(angle); cos and sin of a float32 angle
    computed in double and rounded (the correctly rounded cosf/sinf ATen's scalar kernel
    calls)."""

    node_name = "PolarBackward0"

    def forward(self, a: Tensor, b: Tensor) -> Array:
        dtype = _check_pair(a, b, "polar")
        shape = broadcast_shapes(a, b)
        angle = b._data.astype(np.float64)
        real_np = a._data.dtype
        out = np.empty(shape, dtype.np)
        out.real = a._data * np.cos(angle).astype(real_np)
        out.imag = a._data * np.sin(angle).astype(real_np)
        self.result = out
        return out

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        arrays_only(F, self.node_name)
        conj = np.conj(grad)
        result = self.result
        return ((conj * complex_sgn(result)).real, (conj * (result * 1j)).real)


class ConjBackward0(Function):
    """x.conj() of a complex tensor (PyTorch's lazy conjugate view, materialised here)."""

    node_name = "ConjBackward0"

    def forward(self, a: Tensor) -> Array:
        return np.conj(a._data)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        arrays_only(F, self.node_name)
        return (np.conj(grad),)


class ConjPhysicalBackward0(ConjBackward0):
    node_name = "ConjPhysicalBackward0"


def is_contiguous_last(x: Array) -> bool:
    return element_strides(x)[-1] == 1
