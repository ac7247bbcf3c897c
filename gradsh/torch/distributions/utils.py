"""torch.distributions.utils: broadcasting parameters, probabilities and logits, and the lazily
computed property the distributions use for whichever of probs/logits they were not given."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import update_wrapper
from typing import Any

import gradsh.torch as torch
from gradsh.torch.nn import functional as F

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property",
           "tril_matrix_to_vec", "vec_to_tril_matrix"]

euler_constant = 0.57721566490153286060  # Euler Mascheroni Constant
_Number = (int, float)


def broadcast_all(*values: Any) -> tuple[Any, ...]:
    """Broadcast tensors and numbers together; numbers become tensors of the first tensor's
    dtype and device (the default dtype when all are numbers)."""
    if not all(isinstance(v, (torch.Tensor, *_Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                         "objects implementing __torch_function__.")
    if not all(isinstance(v, torch.Tensor) for v in values):
        options: dict[str, Any] = {"dtype": torch.get_default_dtype()}
        for value in values:
            if isinstance(value, torch.Tensor):
                options = {"dtype": value.dtype, "device": value.device}
                break
        values = tuple(v if isinstance(v, torch.Tensor) else torch.tensor(v, **options)
                       for v in values)
    return torch.broadcast_tensors(*values)


def _standard_normal(shape: Sequence[int], dtype: Any, device: Any) -> Any:
    """Standard normal draws as the distributions take them: empty(shape).normal_()."""
    return torch.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value: Any, dim: int) -> Any:
    """Sum out the rightmost `dim` dimensions."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def logits_to_probs(logits: Any, is_binary: bool = False) -> Any:
    """Probabilities from logits: sigmoid for binary outcomes, softmax over the last dim."""
    if is_binary:
        return torch.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def clamp_probs(probs: Any) -> Any:
    """probs clamped into [eps, 1 - eps] of their dtype."""
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Any, is_binary: bool = False) -> Any:
    """Logits from (clamped) probabilities."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class lazy_property:  # noqa: N801  (PyTorch's name)
    """A property computed once, with grad enabled, then stored on the instance."""

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        self.wrapped = wrapped
        update_wrapper(self, wrapped)  # type: ignore[arg-type]

    def __get__(self, instance: Any, obj_type: Any = None) -> Any:
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):  # noqa: N801
    """What the class attribute reads as: a lazy_property that is also a property (so that
    documentation tools see one)."""

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        property.__init__(self, wrapped)


def tril_matrix_to_vec(mat: Any, diag: int = 0) -> Any:
    """The lower triangle of the last two dimensions, row by row, as a vector."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    arange = torch.arange(n, device=mat.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    return mat[..., tril_mask]


def vec_to_tril_matrix(vec: Any, diag: int = 0) -> Any:
    """The inverse of tril_matrix_to_vec."""
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1]
                            + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    eps = torch.finfo(vec.dtype).eps
    if round(n) - n > eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be "
                         "expressed as the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + torch.Size((n, n)))
    arange = torch.arange(n, device=vec.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    mat[..., tril_mask] = vec
    return mat
