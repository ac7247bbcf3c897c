"""Complex tensors' own functions: torch.view_as_real / view_as_complex, torch.complex,
torch.polar, torch.real / imag (and the .real / .imag properties, views that can be assigned),
conj, conj_physical, resolve_conj, is_conj."""

from __future__ import annotations

import builtins
from typing import Any

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions.complex_nodes import (
    ComplexBackward0,
    ConjBackward0,
    ConjPhysicalBackward0,
    PolarBackward0,
    ViewAsComplexBackward0,
    ViewAsRealBackward0,
)
from gradsh.engine.functions import arithmetic as _arithmetic, reductions as _reductions
from gradsh.engine.functions import unary as _unary
from gradsh.engine.functions.complex_nodes import holomorphic
from gradsh.engine.ops.arguments import _check_tensor
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor
from gradsh.engine.vecmath.layout import element_strides

__all__ = [
    "view_as_real", "view_as_complex", "complex", "polar", "real", "imag", "conj",
    "conj_physical", "resolve_conj", "is_conj", "set_real", "set_imag", "real_scalar",
]

_CONJ = "_gradsh_conj"  # the flag a conj() result carries in its __dict__ (is_conj())


@guarded
def view_as_real(a: Tensor) -> Tensor:
    a = _check_tensor(a, "view_as_real")
    if not a.dtype.is_complex:
        raise TorchRuntimeError("view_as_real is only supported for complex tensors")
    if is_conj(a):
        raise TorchRuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  "
                                "To resolve the conjugate tensor so you can view it as real, "
                                "use self.resolve_conj()")
    return ViewAsRealBackward0.apply(a)


@guarded
def view_as_complex(a: Tensor) -> Tensor:
    a = _check_tensor(a, "view_as_complex")
    if a.dtype not in (dtypes.float32, dtypes.float64, dtypes.float16):
        raise TorchRuntimeError("view_as_complex is only supported for half, float and double "
                                f"tensors, but got a tensor of scalar type: {a.dtype.short}")
    if a.ndim == 0 or a.shape[-1] != 2:
        raise TorchRuntimeError("Tensor must have a last dimension of size 2")
    strides = element_strides(a._data)
    if strides[-1] != 1:
        raise TorchRuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in strides[:-1]):
        raise TorchRuntimeError("Tensor must have a stride divisible by 2 for all but last "
                                "dimension")
    if a.dtype is dtypes.float16:
        raise TorchNotImplementedError("gradsh does not implement complex32 (torch.chalf) "
                                       "tensors yet")
    return ViewAsComplexBackward0.apply(a)


@guarded(tensor_first=False)
def complex(real: Tensor, imag: Tensor, *, out: Any = None) -> Tensor:  # noqa: A001
    real = _check_tensor(real, "complex", "real", 1)
    imag = _check_tensor(imag, "complex", "imag", 2)
    return ComplexBackward0.apply(real, imag)


@guarded(tensor_first=False)
def polar(abs: Tensor, angle: Tensor, *, out: Any = None) -> Tensor:  # noqa: A002
    abs = _check_tensor(abs, "polar", "abs", 1)  # noqa: A001
    angle = _check_tensor(angle, "polar", "angle", 2)
    return PolarBackward0.apply(abs, angle)


@guarded
def real(a: Tensor) -> Tensor:
    """torch.real: a view of the real parts; a real tensor itself."""
    a = _check_tensor(a, "real")
    if not a.dtype.is_complex:
        return a
    return view_as_real(resolve_conj(a)).select(-1, 0)  # (SelectBackward0, as PyTorch's)


@guarded
def imag(a: Tensor) -> Tensor:
    a = _check_tensor(a, "imag")
    if not a.dtype.is_complex:
        raise TorchRuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return view_as_real(resolve_conj(a)).select(-1, 1)


def set_real(a: Tensor, value: Any) -> None:
    """`x.real = v`: copies v into the real parts."""
    real(a).copy_(value)


def set_imag(a: Tensor, value: Any) -> None:
    imag(a).copy_(value)


@guarded
def conj(a: Tensor) -> Tensor:
    """x.conj(): a real tensor itself; a complex one's conjugate, flagged for is_conj()."""
    a = _check_tensor(a, "conj")
    if not a.dtype.is_complex:
        return a
    out = ConjBackward0.apply(a)
    if not is_conj(a):
        out.__dict__[_CONJ] = True
    return out


@guarded
def conj_physical(a: Tensor) -> Tensor:
    a = _check_tensor(a, "conj_physical")
    if not a.dtype.is_complex:
        return a.clone()
    return ConjPhysicalBackward0.apply(a)


@guarded
def resolve_conj(a: Tensor) -> Tensor:
    """The values are already conjugated (gradsh materialises conj()): an unflagged alias."""
    a = _check_tensor(a, "resolve_conj")
    if not is_conj(a):
        return a
    out = a.view(a.shape)
    out.__dict__.pop(_CONJ, None)
    return out


def real_scalar(a: Tensor, c_type: str) -> float:
    """float(z) / int(z) of a one-element complex tensor: its real part, if its imaginary part
    is 0 (c10's checked conversion)."""
    value = builtins.complex(a._data.reshape(()).item())
    if value.imag != 0:
        raise TorchRuntimeError(f"value cannot be converted to type {c_type} without overflow")
    return value.real


def is_conj(a: Tensor) -> bool:
    d = getattr(a, "__dict__", None)
    return bool(d) and d.get(_CONJ, False)


# The element-wise nodes whose gradient at a complex input is grad * conj(f'(z))
for _node in (_unary.ExpBackward0, _unary.LogBackward0, _unary.Log2Backward0,
              _unary.Log10Backward0, _unary.SinBackward0, _unary.CosBackward0,
              _unary.TanBackward0, _unary.TanhBackward0, _unary.SigmoidBackward0,
              _unary.SqrtBackward0, _unary.RsqrtBackward0, _unary.ReciprocalBackward0,
              _arithmetic.PowBackward0, _arithmetic.PowBackward1, _arithmetic.PowBackward2,
              _reductions.ProdBackward0, _reductions.ProdBackward1,
              _reductions.CumprodBackward0):
    holomorphic(_node)
del _node
