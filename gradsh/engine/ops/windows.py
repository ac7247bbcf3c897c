"""The window functions (hann, hamming, bartlett, blackman, kaiser), computed with ATen's steps
in the window's dtype: arange, then the in-place scalings and cosines."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine import dtypes
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.ops.arguments import _plain
from gradsh.engine.ops.arithmetic import add, add_, mul, mul_, sub
from gradsh.engine.ops.creation import arange, ones
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import narrow
from gradsh.engine.ops.special import i0
from gradsh.engine.ops.unary import cos_
from gradsh.engine.tensor import Tensor, no_grad

__all__ = ["hann_window", "hamming_window", "bartlett_window", "blackman_window",
           "kaiser_window"]


def _start(name: str, window_length: int, dtype: Any, device: Any) -> tuple[int, Any]:
    if window_length < 0:
        raise TorchRuntimeError(f"{name} requires non-negative window_length, got "
                                f"window_length={window_length}")
    dtype = dtype or dtypes.default_float()
    if not dtype.is_floating_point:
        raise TorchRuntimeError(f"{name} expects floating point dtypes, got: {dtype}")
    return window_length, dtype


def _finish(window: Tensor, periodic: bool, length: int, requires_grad: bool) -> Tensor:
    if periodic:
        window = narrow(window, 0, 0, length - 1)
    window = window.detach()
    if requires_grad:
        window.requires_grad_(True)
    return window


@guarded(tensor_first=False)
def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54,
                   beta: float = 0.46, *, dtype: Any = None, device: Any = None,
                   layout: Any = None, requires_grad: bool = False) -> Tensor:
    n, dtype = _start("hamming_window", int(window_length), dtype, device)
    if n <= 1:
        return _finish(ones(n, dtype=dtype, device=device), False, n, requires_grad)
    n = n + 1 if periodic else n
    with no_grad():
        window = arange(n, dtype=dtype, device=device)
        add_(mul_(cos_(mul_(window, math.pi * 2.0 / (n - 1))), -beta), alpha)
    return _finish(window, periodic, n, requires_grad)


@guarded(tensor_first=False)
def hann_window(window_length: int, periodic: bool = True, *, dtype: Any = None,
                device: Any = None, layout: Any = None, requires_grad: bool = False) -> Tensor:
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype,  # type: ignore
                          device=device, requires_grad=requires_grad)


@guarded(tensor_first=False)
def bartlett_window(window_length: int, periodic: bool = True, *, dtype: Any = None,
                    device: Any = None, layout: Any = None,
                    requires_grad: bool = False) -> Tensor:
    n, dtype = _start("bartlett_window", int(window_length), dtype, device)
    if n <= 1:
        return _finish(ones(n, dtype=dtype, device=device), False, n, requires_grad)
    n = n + 1 if periodic else n
    with no_grad():
        window = mul_(arange(n, dtype=dtype, device=device), 2.0 / (n - 1))
        first_half = ((n - 1) >> 1) + 1
        add_(mul_(narrow(window, 0, first_half, n - first_half), -1), 2)
    return _finish(window, periodic, n, requires_grad)


@guarded(tensor_first=False)
def blackman_window(window_length: int, periodic: bool = True, *, dtype: Any = None,
                    device: Any = None, layout: Any = None,
                    requires_grad: bool = False) -> Tensor:
    n, dtype = _start("blackman_window", int(window_length), dtype, device)
    if n <= 1:
        return _finish(ones(n, dtype=dtype, device=device), False, n, requires_grad)
    n = n + 1 if periodic else n
    with no_grad():
        window = mul_(arange(n, dtype=dtype, device=device), math.pi / (n - 1))
        first = mul_(cos_(mul(window, 4)), 0.08)
        second = mul_(cos_(mul(window, 2)), 0.5)
        window = add(sub(first, second), 0.42)
    return _finish(window, periodic, n, requires_grad)


@guarded(tensor_first=False)
def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *,
                  dtype: Any = None, device: Any = None, layout: Any = None,
                  requires_grad: bool = False) -> Tensor:
    """ATen's kaiser_window kernel per element, in the op-math float:
    i0(beta * sqrt(1 - ((k - alpha) / alpha) ** 2)) / i0(beta), alpha = (n - 1) / 2."""
    n, dtype = _start("kaiser_window", int(window_length), dtype, device)
    if n == 0:
        return _finish(ones(0, dtype=dtype, device=device), False, 0, requires_grad)
    if n == 1:
        return _finish(ones(1, dtype=dtype, device=device), False, 1, requires_grad)
    n = n + 1 if periodic else n
    opmath = np.float64 if dtype is dtypes.float64 else np.float32
    alpha = opmath((n - 1) / 2.0)
    k = np.arange(n, dtype=opmath)
    ratio = (k - alpha) / alpha
    with np.errstate(all="ignore"):
        argument = opmath(beta) * np.sqrt(opmath(1) - ratio * ratio)
    dev = "cpu"
    numerator = i0(_plain(argument.astype(opmath), dev))
    denominator = i0(_plain(np.asarray([beta], dtype=opmath), dev))
    values = (numerator._data / denominator._data).astype(dtype.np)
    window = _plain(values, dev)
    if device is not None:
        from gradsh.engine.ops.copies import to

        window = to(window, device=device)
    return _finish(window, periodic, n, requires_grad)
