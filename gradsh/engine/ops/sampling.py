"""Random numbers with PyTorch CPU's streams: rand, randn, randint, normal, dropout ..."""

from __future__ import annotations

import math

from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, limits, meta
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import (
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
)
from gradsh.engine.functions.common import not_implemented_for
from gradsh.engine.functions.sampling import (
    BernoulliBackward0,
    BernoulliBackward1,
    BernoulliBackward2,
    BernoulliNotImplemented,
    NormalBackward0,
    RandomBackward0,
    RandomBackward1,
    RandomBackward2,
    UniformBackward0,
)
from gradsh.engine.ops.arguments import (
    REQUIRES_GRAD_DTYPE_MESSAGE,
    _check_tensor,
    _device_name,
    allocated_itemsize,
    _new,
    _resolve_dtype,
    _type_name,
    as_int,
    format_order,
    given_size,
    in_layout,
    in_layout_of,
    memory_order,
    size_args,
)
from gradsh.engine.ops.arithmetic import div_, mul, mul_
from gradsh.engine.ops.creation import empty, empty_like, zeros
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.shape import expand, permute
from gradsh.engine.tensor import Tensor, apply_inplace, no_grad

__all__ = [
    "rand", "randn", "randint", "rand_like", "randn_like", "manual_seed", "randperm",
    "bernoulli_", "bernoulli", "dropout", "uniform_", "normal_", "random_",
]


def _generator(generator: Any) -> Any:
    if generator is not None:
        return generator
    from gradsh.engine import random as rng

    return rng.default_generator


def _random_call(draw: Callable[[], np.ndarray], device: Any = None, shape: Any = (),
                 dtype: DType | None = None) -> np.ndarray:
    """`draw()`, or nothing drawn for a tensor on the meta device (which has no data: the
    generator's state stays as it was, as in PyTorch)."""
    if dtype is not None and _device_name(device) == "meta":
        return meta.array(tuple(shape), dtype.np)
    try:
        return draw()
    except ValueError as error:  # the generator words its errors like PyTorch's RuntimeError
        raise TorchRuntimeError(str(error)) from None


def _check_random_float(dtype: DType, kernel: str) -> None:
    if not dtype.is_floating_point:
        raise not_implemented_for(kernel, dtype)


@guarded(tensor_first=False)
def rand(*shape: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
         requires_grad: bool = False, generator: Any = None) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    shape = size_args(given_size(shape, size, "rand"), "rand", allocated_itemsize(d, device))
    if d.is_complex:  # uniform_ of the view_as_real
        data = _random_call(lambda: _generator(generator).rand(
            (*shape, 2), dtypes.TO_REAL[d]).view(d.np)[..., 0], device, shape, d)
        return _new(data, d, device, requires_grad)
    _check_random_float(d, "check_uniform_bounds")
    data = _random_call(lambda: _generator(generator).rand(shape, d), device, shape, d)
    return _new(data, d, device, requires_grad)


@guarded(tensor_first=False)
def randn(*shape: Any, size: Any = None, dtype: DType | None = None, device: Any = None,
          requires_grad: bool = False, generator: Any = None) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.default_float())
    shape = size_args(given_size(shape, size, "randn"), "randn", allocated_itemsize(d, device))
    if d.is_complex:  # normal_: the view_as_real draws, each with variance 1/2
        real = dtypes.TO_REAL[d]
        data = _random_call(lambda: _generator(generator).normal(
            0.0, 1.0 / math.sqrt(2.0), (*shape, 2), real).view(d.np)[..., 0], device, shape, d)
        return _new(data, d, device, requires_grad)
    _check_random_float(d, "normal_kernel_cpu")
    data = _random_call(lambda: _generator(generator).randn(shape, d), device, shape, d)
    return _new(data, d, device, requires_grad)


@guarded(tensor_first=False)
def randint(*args: Any, low: Any = None, high: Any = None, size: Any = None,
            dtype: DType | None = None, device: Any = None, requires_grad: bool = False,
            generator: Any = None) -> Tensor:
    """torch.randint(high, size) / randint(low, high, size): int64 unless dtype says."""
    positional = list(args)
    if size is None and positional and isinstance(positional[-1], (tuple, list)):
        size = positional.pop()
    if len(positional) == 2:
        low, high = positional
    elif len(positional) == 1:
        if high is None:
            high = positional[0]
        else:
            low = positional[0]
    elif len(positional) > 2:
        raise TorchTypeError("randint() received an invalid combination of arguments")
    if high is None or size is None:
        raise TorchTypeError(
            "randint() received an invalid combination of arguments - expected (int high, "
            "tuple of ints size) or (int low, int high, tuple of ints size)"
        )
    low = 0 if low is None else low
    d = _resolve_dtype(dtype, dtypes.int64)
    if requires_grad and d.category < 2:
        raise TorchRuntimeError(REQUIRES_GRAD_DTYPE_MESSAGE)
    shape = size_args((size,), "randint", allocated_itemsize(d, device))
    data = _random_call(lambda: _generator(generator).randint(int(low), int(high), shape, d),
                        device, shape, d)
    return _new(data, d, device, requires_grad)


@guarded(tensor_first=False)
def rand_like(t: Tensor, dtype: DType | None = None, device: Any = None,
              requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    _check_tensor(t, "rand_like")
    d = _resolve_dtype(dtype, t.dtype)
    _check_random_float(d, "check_uniform_bounds")
    order = format_order(memory_format, t.shape, t)
    data = _random_call(lambda: in_layout(order, t.shape,
                                          lambda shape: _generator(None).rand(shape, d)),
                        device or t.device, t.shape, d)
    return _new(data, d, device or t.device, requires_grad)


@guarded(tensor_first=False)
def randn_like(t: Tensor, dtype: DType | None = None, device: Any = None,
               requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    _check_tensor(t, "randn_like")
    d = _resolve_dtype(dtype, t.dtype)
    _check_random_float(d, "normal_kernel_cpu")
    order = format_order(memory_format, t.shape, t)
    data = _random_call(lambda: in_layout(
        order, t.shape, lambda shape: _generator(None).randn(shape, d, order is None)),
        device or t.device, t.shape, d)
    return _new(data, d, device or t.device, requires_grad)


def manual_seed(seed: int) -> None:
    _generator(None).manual_seed(seed)


@guarded(tensor_first=False)
def randperm(n: int, dtype: DType | None = None, device: Any = None,
             requires_grad: bool = False, generator: Any = None) -> Tensor:
    d = _resolve_dtype(dtype, dtypes.int64)
    count = as_int(n)  # a SymInt: an int or a one-element integer tensor
    if count is None:
        raise TorchTypeError(f"randperm(): argument 'n' (position 1) must be int, not "
                             f"{_type_name(n)}")
    n = count
    if n > 0:
        limits.check((n,), d.itemsize, extra=8 * n)  # the shuffle itself works on int64
    data = _random_call(lambda: _generator(generator).randperm(n, d))
    return _new(data, d, device, requires_grad)


@guarded
def bernoulli_(a: Tensor, p: Any = 0.5, generator: Any = None) -> Tensor:
    """x.bernoulli_(p): each entry 1 with probability p (a number: one uniform double per
    entry, compared with p, as PyTorch's CPU kernel draws it; a tensor: torch.bernoulli's
    draws with p broadcast to x)."""
    a = _check_tensor(a, "bernoulli_")
    if isinstance(p, Tensor):
        probabilities = p if p.shape == a.shape else expand(p, a.shape)
        order = memory_order(a)  # (the serial kernel walks a permuted self in memory order)
        draws = in_layout(order, a.shape, lambda shape: _bernoulli_draws(
            probabilities if order is None else permute(probabilities, order), generator))
        draws = draws.astype(a._data.dtype, copy=False)
        return apply_inplace(BernoulliBackward1, a, p, draws=backend.to_device(draws, a.device))
    return apply_inplace(BernoulliBackward2, a, p=float(p), draws=_uniform_draws(a, p, generator))


def _uniform_draws(a: Tensor, p: Any, generator: Any) -> Any:
    """bernoulli_'s uniform doubles for the entries of `a`, checking p first."""
    if not 0 <= float(p) <= 1:
        raise TorchRuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={float(p):g}")
    uniform = _random_call(lambda: in_layout_of(
        a, lambda shape: _generator(generator).rand(shape, dtypes.float64)))
    return backend.to_device(uniform, a.device)


def _bernoulli_draws(p: Tensor, generator: Any) -> Any:
    """0/1 draws (in p's dtype, on the host) with the probabilities in p."""
    data = p._data if p.device == "cpu" else backend.to_host(p._data)
    try:
        drawn = _generator(generator).bernoulli(data)
    except NotImplementedError as error:
        raise TorchNotImplementedError(str(error)) from None
    except ValueError as error:
        raise TorchRuntimeError(str(error)) from None
    return drawn.astype(p._data.dtype, copy=False).reshape(data.shape)  # (0-d stays 0-d)


@guarded
def bernoulli(input: Tensor, p: Any = None, *, generator: Any = None) -> Tensor:  # noqa: A002
    """torch.bernoulli(input): 0/1 draws with the probabilities in input, in its dtype
    (BernoulliBackward0, a zero gradient); torch.bernoulli(input, p): empty_like(input)
    .bernoulli_(p), which PyTorch gives no derivative (a NotImplemented node)."""
    input = _check_tensor(input, "bernoulli")
    if p is not None:
        draws = _uniform_draws(input, p, generator) < float(p)
        return BernoulliNotImplemented.apply(input, draws=draws.astype(input._data.dtype))
    draws = backend.to_device(_bernoulli_draws(input, generator), input.device)
    return BernoulliBackward0.apply(input, draws=draws)


@guarded
def dropout(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
            inplace: bool = False) -> Tensor:
    """F.dropout as aten's CPU path computes it: noise = empty_like(x).bernoulli_(1 - p) /
    (1 - p), then x * noise (MulBackward0); the input itself when p is 0 or not training."""
    input = _check_tensor(input, "dropout")
    if not 0.0 <= p <= 1.0:
        raise TorchValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        return mul(input, zeros((), dtype=input.dtype, device=input.device))
    with no_grad():
        noise, order = _empty_in_memory_order(input)
        noise = div_(bernoulli_(noise, 1 - p), 1 - p)
        if order is not None:
            noise = permute(noise, [order.index(d) for d in range(input.ndim)])
    return mul_(input, noise) if inplace else mul(input, noise)


def _empty_in_memory_order(like: Tensor) -> tuple[Tensor, list[int] | None]:
    """ATen's empty_like keeps a dense input's strides, and the draws fill it in memory order:
    an empty tensor of the dimensions in that order (and the order), or plain empty_like."""
    order = memory_order(like)
    if order is None:
        return empty_like(like), None
    shape = [like.shape[d] for d in order]
    return empty(shape, dtype=like.dtype, device=like.device), order


@guarded
def uniform_(a: Tensor, low: float = 0.0, high: float = 1.0, generator: Any = None) -> Tensor:
    a = _check_tensor(a, "uniform_")
    if a.dtype.is_complex:  # the view_as_real's draws
        real = dtypes.TO_REAL[a.dtype]
        draws = _random_call(lambda: in_layout_of(a, lambda shape: _generator(
            generator).uniform(float(low), float(high), (*shape, 2), real).view(
            a.dtype.np)[..., 0]), a.device, a.shape, a.dtype)
        return apply_inplace(UniformBackward0, a, draws=backend.to_device(draws, a.device))
    _check_random_float(a.dtype, "check_uniform_bounds")
    draws = _random_call(lambda: in_layout_of(a, lambda shape: _generator(generator).uniform(
        float(low), float(high), shape, a.dtype)), a.device, a.shape, a.dtype)
    return apply_inplace(UniformBackward0, a, draws=backend.to_device(draws, a.device))


@guarded
def normal_(a: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    a = _check_tensor(a, "normal_")
    _check_random_float(a.dtype, "normal_kernel_cpu")
    contiguous = a.is_contiguous()  # (normal_fill's vector path; else serial, as below)
    draws = _random_call(lambda: in_layout_of(a, lambda shape: _generator(generator).normal(
        float(mean), float(std), shape, a.dtype, contiguous)), a.device, a.shape, a.dtype)
    return apply_inplace(NormalBackward0, a, draws=backend.to_device(draws, a.device))


@guarded
def random_(a: Tensor, *bounds: Any, to: Any = None, generator: Any = None) -> Tensor:
    """x.random_() (T's full range), x.random_(to), x.random_(from, to): integers drawn as
    PyTorch's CPU kernels draw them, written in place."""
    a = _check_tensor(a, "random_")
    if to is not None:
        bounds = (*bounds, to)
    if len(bounds) > 2:
        raise TorchTypeError(f"random_() takes at most 2 bounds, got {len(bounds)}")
    gen = _generator(generator)
    if not bounds:
        draws = _random_call(lambda: in_layout_of(a, lambda shape: gen.random(shape, a.dtype)))
        node = RandomBackward2
    else:
        low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
        draws = _random_call(lambda: in_layout_of(a, lambda shape: gen.randint(
            int(low), int(high), shape, a.dtype)))
        node = RandomBackward1 if len(bounds) == 1 else RandomBackward0
    return apply_inplace(node, a, draws=backend.to_device(draws, a.device))
