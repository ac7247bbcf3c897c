"""torch.fft: the transforms (fft, ifft, rfft, irfft, hfft, ihfft and their 2-D and n-D forms,
in transforms.py) and the helpers fftfreq, rfftfreq, fftshift and ifftshift."""

from __future__ import annotations

from typing import Any

import numpy as np

from gradsh.engine import dtypes, ops
from gradsh.engine.tensor import Tensor
from gradsh.torch._missing import module_getattr

__getattr__ = module_getattr("torch.fft")

from gradsh.torch.fft.transforms import (  # noqa: E402
    fft,
    fft2,
    fftn,
    hfft,
    hfft2,
    hfftn,
    ifft,
    ifft2,
    ifftn,
    ihfft,
    ihfft2,
    ihfftn,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftn,
)

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift", "fft", "ifft", "rfft", "irfft",
           "hfft", "ihfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn",
           "irfftn", "hfft2", "hfftn", "ihfft2", "ihfftn"]


def _frequencies(steps: np.ndarray, n: int, d: float, dtype: Any, device: Any,
                 requires_grad: bool) -> Tensor:
    """steps * (1 / (n d)), the scalar rounded to the result's dtype first (ATen's mul_)."""
    chosen = dtype or dtypes.default_float()
    values = steps.astype(chosen.np) * chosen.np.type(1.0 / (n * d))
    return ops.tensor(values, dtype=chosen, device=device, requires_grad=requires_grad)


def fftfreq(n: int, d: float = 1.0, *, out: Any = None, dtype: Any = None, layout: Any = None,
            device: Any = None, requires_grad: bool = False) -> Tensor:
    """The sample frequencies of an n-point transform: 0, 1, ..., -(n // 2), ..., -1 over n d."""
    steps = np.concatenate([np.arange((n + 1) // 2), np.arange(-(n // 2), 0)])
    return _frequencies(steps, n, d, dtype, device, requires_grad)


def rfftfreq(n: int, d: float = 1.0, *, out: Any = None, dtype: Any = None, layout: Any = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """The non-negative frequencies of an n-point real transform: 0 .. n // 2 over n d."""
    return _frequencies(np.arange(n // 2 + 1), n, d, dtype, device, requires_grad)


def _dims(input: Tensor, dim: Any) -> list[int]:  # noqa: A002
    if dim is None:
        return list(range(input.ndim))
    return [dim] if isinstance(dim, int) else list(dim)


def fftshift(input: Tensor, dim: Any = None) -> Tensor:  # noqa: A002
    """The zero frequency moved to the middle: a roll by size // 2 along each dim."""
    dims = _dims(input, dim)
    return ops.roll(input, [input.shape[d] // 2 for d in dims], dims)  # type: ignore


def ifftshift(input: Tensor, dim: Any = None) -> Tensor:  # noqa: A002
    """fftshift's inverse: a roll by (size + 1) // 2 along each dim."""
    dims = _dims(input, dim)
    return ops.roll(input, [(input.shape[d] + 1) // 2 for d in dims], dims)  # type: ignore


from gradsh.torch._builtins import as_torchs as _as_torchs  # noqa: E402

_as_torchs(globals(), "torch.fft")  # PyTorch's C functions as builtins (their reprs)
