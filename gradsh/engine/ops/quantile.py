"""torch.quantile and torch.nanquantile, composed of the same ops as ATen's quantile_impl
(aten/src/ATen/native/Sorting.cpp): sort, ranks q * (n - 1) in the input's dtype, gather below
and above, an in-place lerp, then in-place squeeze / transpose: the same values, float32 bits
and grad_fn chain (SqueezeBackward4 over LerpBackward1 over GatherBackward0 over
SortBackward0)."""

from __future__ import annotations

from typing import Any

from gradsh.engine import dtypes, grad_mode
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.ops import creation
from gradsh.engine.ops.functional import broadcast_tensors
from gradsh.engine.ops.arguments import _check_tensor, wrap_dim
from gradsh.engine.ops.guard import guarded
from gradsh.engine.tensor import Tensor

__all__ = ["quantile", "nanquantile"]

_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _checks(a: Tensor, q: Tensor, name: str) -> None:
    """ATen's quantile_checks, in its order."""
    if a.numel() == 0:
        raise TorchRuntimeError(f"{name}() input tensor must be non-empty")
    if q.ndim > 1:
        raise TorchRuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if a.dtype not in (dtypes.float32, dtypes.float64):
        raise TorchRuntimeError(f"{name}() input tensor must be either float or double dtype")
    if a.dtype is not q.dtype:
        raise TorchRuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    if q.device != a.device:
        raise TorchRuntimeError(
            f"{name}() q tensor must be on the same device as the input tensor")


def _output_shape(a: Tensor, q: Tensor, dim: int | None, keepdim: bool) -> list[int]:
    if dim is not None and a.ndim > 0:
        shape = list(a.shape)
        if keepdim:
            shape[dim] = 1
        else:
            del shape[dim]
    elif keepdim:
        shape = [1] * a.ndim
    else:
        shape = []
    if q.ndim > 0:
        shape.insert(0, q.numel())
    return shape


def _quantile(a: Any, q: Any, dim: Any, keepdim: bool, interpolation: str, ignore_nan: bool,
              function: str) -> Tensor:
    a = _check_tensor(a, function)
    name = "quantile"  # ATen's checks name quantile() for nanquantile too
    if not isinstance(q, Tensor):
        value = float(q)
        if not 0 <= value <= 1:
            raise TorchRuntimeError(f"{name}() q must be in the range [0, 1] but got {value:g}")
        q = creation.full((), value, dtype=a.dtype, device=a.device)
    _checks(a, q, name)
    with grad_mode.no_grad():
        inside = bool(((q >= 0) & (q <= 1)).all())
    if not inside:
        raise TorchRuntimeError(f"{name}() q values must be in the range [0, 1]")
    if interpolation not in _MODES:
        raise TorchRuntimeError(
            f"{name}() interpolation must be one of linear, lower, higher, midpoint or "
            f"nearest, but got {interpolation}")
    if dim is not None:
        dim = wrap_dim(dim, a.ndim)
    shape = _output_shape(a, q, dim, keepdim)
    if q.ndim == 0:
        shape.insert(0, q.numel())
    if dim is None:
        ordered = a.flatten().sort()[0]
    elif dim == a.ndim - 1:
        ordered = a.sort()[0]
    else:
        ordered = a.unsqueeze(-1).transpose(dim, -1).sort()[0]
    ordered = ordered.view(shape[1:] + [ordered.shape[-1]])
    last = ordered.shape[-1] - 1
    if ignore_nan:
        ranks = q * (ordered.isnan().logical_not().sum(-1, True) - 1)
        ranks.masked_fill_(ranks < 0, 0)
    else:
        scaled, has_nan = broadcast_tensors(q * last, ordered.isnan().any(-1, True))
        ranks = scaled.masked_fill(has_nan, last)
    if interpolation == "lower":
        ranks.floor_()
    elif interpolation == "higher":
        ranks.ceil_()
    elif interpolation == "nearest":
        ranks.round_()
    below = ranks.long()
    values = ordered.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = (creation.full_like(ranks, 0.5) if interpolation == "midpoint"
                   else ranks - below)
        above = ranks.ceil_().long()
        values.lerp_(ordered.gather(-1, above), weights)
    if q.ndim == 0:
        values.squeeze_(-1)
    else:
        values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)
    return values


@guarded
def quantile(input: Any, q: Any, dim: Any = None, keepdim: bool = False, *,  # noqa: A002
             interpolation: str = "linear", out: Any = None) -> Tensor:
    """torch.quantile: the q-th quantiles along dim (of all elements without one)."""
    return _quantile(input, q, dim, keepdim, interpolation, False, "quantile")


@guarded
def nanquantile(input: Any, q: Any, dim: Any = None, keepdim: bool = False, *,  # noqa: A002
                interpolation: str = "linear", out: Any = None) -> Tensor:
    """torch.nanquantile: quantile ignoring NaN (NaN where a row is all NaN)."""
    return _quantile(input, q, dim, keepdim, interpolation, True, "nanquantile")
