"""torch.fft's transforms, composed as ATen's SpectralOps.cpp composes them: the dtype
promotion (integers to the default float, complex where the transform needs it), the input
cropped (SliceBackward0) or zero-padded (ConstantPadNdBackward0) to n, the norm mode for the
direction, then one _fft_c2c / _fft_r2c / _fft_c2r node (engine/functions/fft_nodes.py); the
inverse of a real input and the hermitian forward transforms conjugate, as ATen does."""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes, ops
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.fft_nodes import FftC2CBackward0, FftC2RBackward0, FftR2CBackward0
from gradsh.engine.ops.arguments import _check_tensor, wrap_dim
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "fftn", "ifftn",
           "rfft2", "irfft2", "rfftn", "irfftn", "hfftn", "hfft2", "ihfftn", "ihfft2"]

_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2


def _norm(norm: Any, forward: bool) -> int:
    """ATen's norm_from_string."""
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise TorchRuntimeError(f'Invalid normalization mode: "{norm}"')


def _promote(x: Tensor, require_complex: bool = False) -> Tensor:
    """promote_tensor_fft: integers to the default float; float32/float64 only on the CPU."""
    dtype = x.dtype
    if dtype.is_complex:
        return x
    if not dtype.is_floating_point:
        dtype = dtypes.default_float()
    if dtype not in (dtypes.float32, dtypes.float64):
        raise TorchRuntimeError(f"Unsupported dtype {dtype.short}")
    if require_complex:
        dtype = dtypes.to_complex(dtype)
    return x if dtype is x.dtype else ops.to(x, dtype)


def _resize(x: Tensor, dims: list[int], sizes: list[int]) -> Tensor:
    """resize_fft_input: each dim cropped or zero-padded at its end to its size (-1: kept)."""
    pad = [0] * (2 * x.ndim)
    padded = False
    for d, n in zip(dims, sizes, strict=True):
        if n == -1:
            continue
        if x.shape[d] < n:
            padded = True
            pad[len(pad) - 2 * d - 1] = n - x.shape[d]
        if x.shape[d] > n:
            x = ops.narrow(x, d, 0, n)
    return ops.pad(x, pad) if padded else x


def _points(n: int) -> None:
    if n < 1:
        raise TorchRuntimeError(f"Invalid number of data points ({n}) specified")


def _c2c(name: str, x: Tensor, n: Any, dim: int, norm: Any, forward: bool) -> Tensor:
    d = wrap_dim(dim, x.ndim)
    size = x.shape[d] if n is None else n
    _points(size)
    if n is not None:
        x = _resize(x, [d], [size])
    return FftC2CBackward0.apply(x, dims=[d], norm=_norm(norm, forward), forward=forward)


def _r2c(name: str, x: Tensor, n: Any, dim: int, norm: Any, forward: bool,
         onesided: bool) -> Tensor:
    if x.dtype.is_complex:
        raise TorchRuntimeError(f"{name} expects a real input tensor, but got {x.dtype.short}")
    x = _promote(x)
    d = wrap_dim(dim, x.ndim)
    size = x.shape[d] if n is None else n
    _points(size)
    if n is not None:
        x = _resize(x, [d], [size])
    out = FftR2CBackward0.apply(x, dims=[d], norm=_norm(norm, forward), onesided=onesided)
    return out if forward else ops.conj(out)


def _c2r(name: str, x: Tensor, n: Any, dim: int, norm: Any, forward: bool) -> Tensor:
    x = _promote(x, require_complex=True)
    d = wrap_dim(dim, x.ndim)
    size = 2 * (x.shape[d] - 1) if n is None else n
    _points(size)
    if n is not None:
        x = _resize(x, [d], [size // 2 + 1])
    if forward:
        x = ops.conj(x)
    return FftC2RBackward0.apply(x, dims=[d], norm=_norm(norm, forward), last_dim_size=size)


@guarded(name="fft_fft")
def fft(input: Tensor, n: Any = None, dim: int = -1, norm: Any = None, *,  # noqa: A002
        out: Any = None) -> Tensor:
    x = _check_tensor(input, "fft_fft")
    if x.dtype.is_complex:
        return _c2c("fft", x, n, dim, norm, True)
    return _r2c("fft", x, n, dim, norm, True, False)


@guarded(name="fft_ifft")
def ifft(input: Tensor, n: Any = None, dim: int = -1, norm: Any = None, *,  # noqa: A002
         out: Any = None) -> Tensor:
    x = _check_tensor(input, "fft_ifft")
    if x.dtype.is_complex:
        return _c2c("ifft", x, n, dim, norm, False)
    return _r2c("ifft", x, n, dim, norm, False, False)


@guarded(name="fft_rfft")
def rfft(input: Tensor, n: Any = None, dim: int = -1, norm: Any = None, *,  # noqa: A002
         out: Any = None) -> Tensor:
    return _r2c("rfft", _check_tensor(input, "fft_rfft"), n, dim, norm, True, True)


@guarded(name="fft_irfft")
def irfft(input: Tensor, n: Any = None, dim: int = -1, norm: Any = None, *,  # noqa: A002
          out: Any = None) -> Tensor:
    return _c2r("irfft", _check_tensor(input, "fft_irfft"), n, dim, norm, False)


@guarded(name="fft_hfft")
def hfft(input: Tensor, n: Any = None, dim: int = -1, norm: Any = None, *,  # noqa: A002
         out: Any = None) -> Tensor:
    return _c2r("hfft", _check_tensor(input, "fft_hfft"), n, dim, norm, True)


@guarded(name="fft_ihfft")
def ihfft(input: Tensor, n: Any = None, dim: int = -1, norm: Any = None, *,  # noqa: A002
          out: Any = None) -> Tensor:
    return _r2c("ihfft", _check_tensor(input, "fft_ihfft"), n, dim, norm, False, True)


def _shape_and_dims(x: Tensor, s: Any, dim: Any) -> tuple[list[int], list[int]]:
    """canonicalize_fft_shape_and_dim_args: the transformed dims and their sizes."""
    if dim is not None:
        dims = [wrap_dim(d, x.ndim) for d in ([dim] if isinstance(dim, int) else dim)]
        if len(set(dims)) != len(dims):
            raise TorchRuntimeError("FFT dims must be unique")
    if s is not None:
        shape = list(s)
        if dim is not None and len(dims) != len(shape):
            raise TorchRuntimeError("When given, dim and shape arguments must have the same "
                                    "length")
        if len(shape) > x.ndim:
            raise TorchRuntimeError(f"Got shape with {len(shape)} values but input tensor "
                                    f"only has {x.ndim} dimensions.")
        if dim is None:
            dims = list(range(x.ndim - len(shape), x.ndim))
        shape = [x.shape[d] if n == -1 else n for d, n in zip(dims, shape, strict=True)]
        for n in shape:
            _points(n)
    else:
        if dim is None:
            dims = list(range(x.ndim))
        shape = [x.shape[d] for d in dims]
    return shape, dims


def _fftn(name: str, input: Tensor, s: Any, dim: Any, norm: Any,  # noqa: A002
          forward: bool) -> Tensor:
    x = _check_tensor(input, name)
    shape, dims = _shape_and_dims(x, s, dim)
    x = _resize(_promote(x, require_complex=True), dims, shape)
    return FftC2CBackward0.apply(x, dims=dims, norm=_norm(norm, forward), forward=forward)


def _rfftn(name: str, input: Tensor, s: Any, dim: Any, norm: Any) -> Tensor:  # noqa: A002
    x = _check_tensor(input, name)
    if x.dtype.is_complex:
        raise TorchRuntimeError(f"rfftn expects a real-valued input tensor, but got "
                                f"{x.dtype.short}")
    shape, dims = _shape_and_dims(x, s, dim)
    if not shape:
        raise TorchRuntimeError("rfftn must transform at least one axis")
    x = _resize(_promote(x), dims, shape)
    return FftR2CBackward0.apply(x, dims=dims, norm=_norm(norm, True), onesided=True)


def _irfftn(name: str, input: Tensor, s: Any, dim: Any, norm: Any) -> Tensor:  # noqa: A002
    x = _check_tensor(input, name)
    shape, dims = _shape_and_dims(x, s, dim)
    if not shape:
        raise TorchRuntimeError("irfftn must transform at least one axis")
    last = 2 * (x.shape[dims[-1]] - 1) if s is None or list(s)[-1] == -1 else shape[-1]
    _points(last)
    shape[-1] = last // 2 + 1
    x = _resize(_promote(x, require_complex=True), dims, shape)
    return FftC2RBackward0.apply(x, dims=dims, norm=_norm(norm, False), last_dim_size=last)


@guarded(name="fft_fftn")
def fftn(input: Tensor, s: Any = None, dim: Any = None, norm: Any = None, *,  # noqa: A002
         out: Any = None) -> Tensor:
    return _fftn("fft_fftn", input, s, dim, norm, True)


@guarded(name="fft_ifftn")
def ifftn(input: Tensor, s: Any = None, dim: Any = None, norm: Any = None, *,  # noqa: A002
          out: Any = None) -> Tensor:
    return _fftn("fft_ifftn", input, s, dim, norm, False)


@guarded(name="fft_fft2")
def fft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: Any = None, *,  # noqa: A002
         out: Any = None) -> Tensor:
    return _fftn("fft_fft2", input, s, dim, norm, True)


@guarded(name="fft_ifft2")
def ifft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: Any = None, *,  # noqa: A002
          out: Any = None) -> Tensor:
    return _fftn("fft_ifft2", input, s, dim, norm, False)


@guarded(name="fft_rfftn")
def rfftn(input: Tensor, s: Any = None, dim: Any = None, norm: Any = None, *,  # noqa: A002
          out: Any = None) -> Tensor:
    return _rfftn("fft_rfftn", input, s, dim, norm)


@guarded(name="fft_rfft2")
def rfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: Any = None, *,  # noqa: A002
          out: Any = None) -> Tensor:
    return _rfftn("fft_rfft2", input, s, dim, norm)


@guarded(name="fft_irfftn")
def irfftn(input: Tensor, s: Any = None, dim: Any = None, norm: Any = None, *,  # noqa: A002
           out: Any = None) -> Tensor:
    return _irfftn("fft_irfftn", input, s, dim, norm)


@guarded(name="fft_irfft2")
def irfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: Any = None, *,  # noqa: A002
           out: Any = None) -> Tensor:
    return _irfftn("fft_irfft2", input, s, dim, norm)


def _hfftn(name: str, input: Tensor, s: Any, dim: Any, norm: Any) -> Tensor:  # noqa: A002
    """fft_hfftn: a forward c2c over all the dims but the last, conjugated, then the c2r of
    the last dim, both in the forward direction's norm (SpectralOps.cpp)."""
    x = _check_tensor(input, name)
    shape, dims = _shape_and_dims(x, s, dim)
    if not shape:
        raise TorchRuntimeError("hfftn must transform at least one axis")
    last = 2 * (x.shape[dims[-1]] - 1) if s is None or list(s)[-1] == -1 else shape[-1]
    _points(last)
    shape[-1] = last // 2 + 1
    x = _resize(_promote(x, require_complex=True), dims, shape)
    mode = _norm(norm, True)
    if len(dims) > 1:
        x = FftC2CBackward0.apply(x, dims=dims[:-1], norm=mode, forward=True)
    return FftC2RBackward0.apply(ops.conj(x), dims=dims[-1:], norm=mode, last_dim_size=last)


def _ihfftn(name: str, input: Tensor, s: Any, dim: Any, norm: Any) -> Tensor:  # noqa: A002
    """fft_ihfftn: the r2c of the last dim, conjugated (physically, before more dims), then a
    backward c2c over the others, in the backward direction's norm."""
    x = _check_tensor(input, name)
    if x.dtype.is_complex:
        raise TorchRuntimeError(f"Only supports floating-point dtypes, but found: "
                                f"{x.dtype.short}")
    shape, dims = _shape_and_dims(x, s, dim)
    if not shape:
        raise TorchRuntimeError("ihfftn must transform at least one axis")
    x = _resize(_promote(x), dims, shape)
    mode = _norm(norm, False)
    out = FftR2CBackward0.apply(x, dims=dims[-1:], norm=mode, onesided=True)
    if len(dims) == 1:
        return ops.conj(out)
    return FftC2CBackward0.apply(ops.conj_physical(out), dims=dims[:-1], norm=mode,
                                 forward=False)


@guarded(name="fft_hfftn")
def hfftn(input: Tensor, s: Any = None, dim: Any = None, norm: Any = None, *,  # noqa: A002
          out: Any = None) -> Tensor:
    return _hfftn("fft_hfftn", input, s, dim, norm)


@guarded(name="fft_hfft2")
def hfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: Any = None, *,  # noqa: A002
          out: Any = None) -> Tensor:
    return _hfftn("fft_hfft2", input, s, dim, norm)


@guarded(name="fft_ihfftn")
def ihfftn(input: Tensor, s: Any = None, dim: Any = None, norm: Any = None, *,  # noqa: A002
           out: Any = None) -> Tensor:
    return _ihfftn("fft_ihfftn", input, s, dim, norm)


@guarded(name="fft_ihfft2")
def ihfft2(input: Tensor, s: Any = None, dim: Any = (-2, -1), norm: Any = None, *,  # noqa: A002
           out: Any = None) -> Tensor:
    return _ihfftn("fft_ihfft2", input, s, dim, norm)
