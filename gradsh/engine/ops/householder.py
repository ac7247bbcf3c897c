"""torch.linalg.householder_product (torch.orgqr) and torch.geqrf, with ATen's checks."""

from __future__ import annotations

from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions.householder import GeqrfBackward0, LinalgHouseholderProductBackward0
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.linalg_solvers import _return_type
from gradsh.engine.tensor import Tensor

__all__ = ["householder_product", "orgqr", "geqrf"]

_NAME = "torch.linalg.householder_product"
_GEQRF = _return_type("geqrf", ("a", "tau"))


@guarded
def householder_product(input: Tensor, tau: Tensor) -> Tensor:  # noqa: A002
    """The first n columns of the product of the Householder reflectors stored below the
    diagonal of `input` (m, n), scaled by `tau` (k): LAPACK's orgqr."""
    if input.ndim < 2:
        raise TorchRuntimeError(f"{_NAME}: input must have at least 2 dimensions.")
    m, n = input.shape[-2:]
    if m < n:
        raise TorchRuntimeError(f"{_NAME}: input.shape[-2] must be greater than or equal to "
                                "input.shape[-1]")
    if n < tau.shape[-1] if tau.ndim else False:
        raise TorchRuntimeError(f"{_NAME}: input.shape[-1] must be greater than or equal to "
                                "tau.shape[-1]")
    if tau.ndim != input.ndim - 1 or tuple(tau.shape[:-1]) != tuple(input.shape[:-2]):
        raise TorchRuntimeError(f"{_NAME}: Expected batch dimensions of tau to be equal to "
                                f"input.shape[:-2], but got {list(tau.shape[:-1])}")
    if tau.dtype is not input.dtype:
        raise TorchRuntimeError(f"{_NAME}: tau dtype {tau.dtype.short} does not match input "
                                f"dtype {input.dtype.short}")
    if input.dtype.name not in ("float32", "float64"):
        raise TorchNotImplementedError(
            f"\"orgqr_cpu\" not implemented for '{input.dtype.short}'")
    return LinalgHouseholderProductBackward0.apply(input, tau)  # type: ignore[no-any-return]


orgqr = householder_product


@guarded
def geqrf(input: Tensor) -> tuple[Tensor, Tensor]:  # noqa: A002
    """LAPACK's geqrf: the QR factorization as reflectors below the diagonal and R on and
    above it, and the reflectors' scales."""
    if input.ndim < 2:
        raise TorchRuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    if input.dtype.name not in ("float32", "float64"):
        raise TorchNotImplementedError(
            f"\"geqrf_cpu\" not implemented for '{input.dtype.short}'")
    return _GEQRF(*GeqrfBackward0.apply_all(input))  # type: ignore[no-any-return]
