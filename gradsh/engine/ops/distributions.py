"""Sampling beyond the plain fills: torch.normal (numbers or tensors for mean and std),
multinomial, randint_like, x.exponential_, and the samplers torch.distributions calls
(_standard_gamma, poisson, binomial, _sample_dirichlet and their gradients), each with PyTorch
CPU's numbers after a seed."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradsh.engine import backend, dtypes, limits, random_samplers
from gradsh.engine.dtypes import DType
from gradsh.engine.exceptions import TorchRuntimeError, TorchTypeError
from gradsh.engine.functions.common import infer_size, not_implemented_for
from gradsh.engine.functions.sampling import (
    CauchyBackward0,
    ExponentialBackward0,
    GeometricBackward0,
    LogNormalBackward0,
    NormalBackward1,
    NormalBackward2,
    NormalBackward3,
)
from gradsh.engine.functions.special import (
    PoissonBackward0,
    SamplerNotImplemented,
    StandardGammaBackward0,
    StandardGammaGradBackward0,
)
from gradsh.engine.ops.arguments import (
    _check_tensor,
    _new,
    _resolve_dtype,
    _type_name,
    in_layout_of,
    size_args,
)
from gradsh.engine.ops.arithmetic import add_, div, mul_
from gradsh.engine.ops.guard import guarded
from gradsh.engine.ops.reductions import argmax
from gradsh.engine.ops.reductions import sum as sum_
from gradsh.engine.ops.sampling import _generator, _random_call
from gradsh.engine.ops.sorting import topk
from gradsh.engine.inplace import check_inplace
from gradsh.engine.random import _fmt
from gradsh.engine.tensor import Tensor, apply_inplace, no_grad

__all__ = ["normal", "multinomial", "randint_like", "exponential_", "_standard_gamma",
           "_standard_gamma_grad", "poisson", "binomial", "_sample_dirichlet", "_dirichlet_grad"]


@guarded(tensor_first=False)
def normal(mean: Any, std: Any = 1.0, size: Any = None, dtype: DType | None = None,
           device: Any = None, requires_grad: bool = False, generator: Any = None) -> Tensor:
    """torch.normal(mean, std, size) with numbers; with a tensor mean and/or std, one draw per
    entry of their broadcast (NormalBackward1/2/3, whose gradients are zeros)."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        if size is not None:
            raise TorchTypeError("normal() received an invalid combination of arguments - got "
                                 f"({_type_name(mean)}, {_type_name(std)}, size=...)")
        return _normal_of_tensors(mean, std, generator)
    if size is None:
        raise TorchTypeError("normal() received an invalid combination of arguments - got "
                             "(float, float), but expected a size")
    d = _resolve_dtype(dtype, dtypes.default_float())
    shape = size_args((size,), "normal", d.itemsize)
    data = _random_call(lambda: _generator(generator).normal(float(mean), float(std), shape, d))
    return _new(data, d, device, requires_grad)


def _normal_of_tensors(mean: Any, std: Any, generator: Any) -> Tensor:
    """ATen's normal_out_impl: standard normal draws in the result's dtype (mean's, or std's
    when mean is a number), then `out.mul_(std).add_(mean)`; with a number std, normal_(0, std)
    then `out.add_(mean)`."""
    gen = _generator(generator)
    if isinstance(std, Tensor):
        if bool((std._data < 0).any()):
            raise TorchRuntimeError("normal expects all elements of std >= 0.0")
    elif not float(std) >= 0.0:
        raise TorchRuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
    like = mean if isinstance(mean, Tensor) else std
    shape = tuple(like.shape)
    if isinstance(mean, Tensor) and isinstance(std, Tensor):
        shape = infer_size(mean.shape, std.shape)
    dtype = like.dtype
    if not dtype.is_floating_point:
        raise not_implemented_for("normal_kernel_cpu", dtype)
    with no_grad():
        if isinstance(std, Tensor):
            draws = _random_call(lambda: gen.normal(0.0, 1.0, shape, dtype))
            out = mul_(Tensor._make(backend.to_device(draws, like.device), like.device), std)
        else:
            draws = _random_call(lambda: gen.normal(0.0, float(std), shape, dtype))
            out = Tensor._make(backend.to_device(draws, like.device), like.device)
        out = add_(out, mean)
    if isinstance(mean, Tensor) and isinstance(std, Tensor):
        return NormalBackward3.apply(mean, std, values=out._data)
    if isinstance(mean, Tensor):
        return NormalBackward1.apply(mean, values=out._data)
    return NormalBackward2.apply(std, values=out._data)


@guarded(tensor_first=False)
def randint_like(t: Tensor, *bounds: Any, low: Any = None, high: Any = None,
                 dtype: DType | None = None, device: Any = None,
                 requires_grad: bool = False, generator: Any = None) -> Tensor:
    """torch.randint_like(x, high) / (x, low, high): randint of x's shape, in x's dtype unless
    dtype says (so a float x gives whole numbers as floats)."""
    _check_tensor(t, "randint_like")
    if len(bounds) == 2:
        low, high = bounds
    elif len(bounds) == 1:
        if high is None:
            high = bounds[0]
        else:
            low = bounds[0]
    elif bounds:
        raise TorchTypeError("randint_like() received an invalid combination of arguments")
    if high is None:
        raise TorchTypeError("randint_like() missing required argument 'high'")
    d = _resolve_dtype(dtype, t.dtype)
    data = _random_call(lambda: in_layout_of(t, lambda shape: _generator(generator).randint(
        0 if low is None else int(low), int(high), shape, d)))
    return _new(data, d, device or t.device, requires_grad)


def _check_multinomial(p: Tensor, n_sample: int, replacement: bool) -> None:
    if not 1 <= p.ndim <= 2:
        raise TorchRuntimeError("prob_dist must be 1 or 2 dim")
    if not p.dtype.is_floating_point:
        raise TorchRuntimeError("multinomial only supports floating-point dtypes for input, "
                                f"got: {p.dtype.short}")
    if n_sample <= 0:
        raise TorchRuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and n_sample > p.shape[-1]:
        raise TorchRuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                                "replacement")
    if p.shape[-1] > 2**24:
        raise TorchRuntimeError("number of categories cannot exceed 2^24")


@guarded
def multinomial(p: Tensor, num_samples: int, replacement: bool = False,
                generator: Any = None) -> Tensor:
    """torch.multinomial as ATen's CPU code draws it. Without replacement (or for one sample):
    the Gumbel trick, argmax / topk of p / q with q ~ Exp(1) (x.exponential_). With
    replacement: per row, the cumulative sum in p's dtype divided by its total, one uniform
    double per sample, and the first category whose cumulative value reaches it."""
    p = _check_tensor(p, "multinomial")
    n_sample = int(num_samples)
    _check_multinomial(p, n_sample, replacement)
    gen = _generator(generator)
    values = backend.to_host(p._data)
    rows = values.reshape(-1, values.shape[-1])
    if not replacement or n_sample == 1:
        if not (bool((values < np.inf).all()) and bool((values >= 0).all())):
            raise TorchRuntimeError("probability tensor contains either `inf`, `nan` or "
                                    "element < 0")
        if bool((rows.sum(axis=1) == 0).any()):
            raise TorchRuntimeError("invalid multinomial distribution (sum of probabilities "
                                    "<= 0)")
        q = _random_call(lambda: gen.exponential(1.0, values.shape, p.dtype))
        with no_grad():
            ratio = div(p.detach(), Tensor._make(backend.to_device(q, p.device), p.device))
            if n_sample == 1:
                return argmax(ratio, -1, keepdim=True)
            return topk(ratio, n_sample)[1]
    limits.check((rows.shape[0], n_sample), 8)
    samples = _with_replacement(rows, n_sample, gen)
    shape = (n_sample,) if p.ndim == 1 else (p.shape[0], n_sample)
    return _new(samples.reshape(shape), dtypes.int64, p.device, False)


def _with_replacement(rows: np.ndarray, n_sample: int, gen: Any) -> np.ndarray:
    """multinomial_with_replacement_apply, row by row (float16, bfloat16 accumulate in float)."""
    math = np.float32 if rows.dtype in dtypes.REDUCED_FLOAT_NP else rows.dtype
    out = np.empty((rows.shape[0], n_sample), dtype=np.int64)
    for i, row in enumerate(rows.astype(math)):
        bad = ~(row >= 0)
        infinite = ~np.isfinite(row)
        first = np.flatnonzero(bad | infinite)
        if first.size:
            if bad[first[0]]:
                raise TorchRuntimeError("invalid multinomial distribution (encountering "
                                        "probability entry < 0)")
            raise TorchRuntimeError("invalid multinomial distribution (encountering "
                                    "probability entry = infinity or NaN)")
        cumulative = np.cumsum(row, dtype=math)  # sequential, in the kernel's type
        total = cumulative[-1]
        if not total > 0:
            raise TorchRuntimeError("invalid multinomial distribution (sum of probabilities "
                                    "<= 0)")
        cumulative = cumulative / total
        cumulative[-1] = 1
        uniform = _random_call(lambda: gen.uniform_doubles(n_sample))
        # the binary search's answer: the first slot whose cumulative value is >= the draw
        out[i] = np.searchsorted(cumulative.astype(np.float64), uniform, side="left")
    return out


@guarded
def exponential_(a: Tensor, lambd: float = 1.0, generator: Any = None) -> Tensor:
    """x.exponential_(lambd): one draw per entry, in place (ExponentialBackward0)."""
    a = _check_tensor(a, "exponential_")
    draws = _random_call(lambda: in_layout_of(a, lambda shape: _generator(
        generator).exponential(float(lambd), shape, a.dtype)))
    return apply_inplace(ExponentialBackward0, a,
                         draws=backend.to_device(draws, a.device))


@guarded
def cauchy_(a: Tensor, median: float = 0.0, sigma: float = 1.0, generator: Any = None) -> Tensor:
    """x.cauchy_(median, sigma): one draw per entry, in place (CauchyBackward0)."""
    a = _check_tensor(a, "cauchy_")
    draws = _random_call(lambda: in_layout_of(a, lambda shape: _generator(generator).cauchy(
        float(median), float(sigma), shape, a.dtype)))
    return apply_inplace(CauchyBackward0, a, draws=backend.to_device(draws, a.device))


@guarded
def log_normal_(a: Tensor, mean: float = 1.0, std: float = 2.0, generator: Any = None) -> Tensor:
    """x.log_normal_(mean, std): ATen's serial kernel, exp of normal_distribution<double> per
    entry (sharing normal's cached second Box-Muller sample), cast to the dtype
    (LogNormalBackward0)."""
    a = _check_tensor(a, "log_normal_")
    check_inplace(a)  # (autograd's check comes before the kernel draws)
    if not float(std) > 0.0:
        raise TorchRuntimeError(f"log_normal_ expects std > 0.0, but found std={_fmt(std)}")
    if not a.dtype.is_floating_point:
        raise not_implemented_for("log_normal_cpu", a.dtype)
    normals = _generator(generator)._normal_scalar(a.numel(), float(mean), float(std))
    with np.errstate(over="ignore"):
        values = np.fromiter(map(math.exp, normals.tolist()), np.float64, normals.size)
    return apply_inplace(LogNormalBackward0, a, draws=_drawn(values, a))


@guarded
def geometric_(a: Tensor, p: float, generator: Any = None) -> Tensor:
    """x.geometric_(p): ATen's serial kernel, ceil(log(u) / log1p(-p)) from one uniform double
    u per entry, cast to the dtype (integers too; GeometricBackward0)."""
    a = _check_tensor(a, "geometric_")
    check_inplace(a)
    p = float(p)
    if not 0 < p < 1:
        raise TorchRuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_fmt(p)}")
    if a.dtype is dtypes.bool_:
        raise not_implemented_for("geometric_cpu", a.dtype)
    u = _generator(generator).uniform_doubles(a.numel()).tolist()
    logs = np.array([math.log(x) if x > 0 else -math.inf for x in u], dtype=np.float64)
    values = np.ceil(logs / math.log1p(-p))
    return apply_inplace(GeometricBackward0, a, draws=_drawn(values, a))


def _drawn(values: np.ndarray, a: Tensor) -> Any:
    """Doubles drawn in TensorIterator's order (memory order for a permuted `a`) as
    static_cast<scalar_t> makes them (c10::Half and BFloat16 through float), laid out as `a`,
    on its device."""
    with np.errstate(over="ignore", invalid="ignore"):
        if a.dtype.is_floating_point and a.dtype is not dtypes.float64:
            values = values.astype(np.float32)
        values = in_layout_of(a, lambda shape: values.astype(a.dtype.np).reshape(shape))
    return backend.to_device(values, a.device)


# ----------------------------------------------------------------------------- gamma family


def _sampler_input(t: Any, fname: str, kernel: str) -> Tensor:
    t = _check_tensor(t, fname)
    if t.dtype not in (dtypes.float32, dtypes.float64):
        raise not_implemented_for(kernel, t.dtype)
    return t


@guarded
def _standard_gamma(alpha: Tensor, generator: Any = None) -> Tensor:
    """torch._standard_gamma(alpha): Gamma(alpha, 1) draws, PyTorch's sampler and stream
    (StandardGammaBackward0: the reparameterised gradient)."""
    alpha = _sampler_input(alpha, "_standard_gamma", "gamma_cpu")
    values = random_samplers.standard_gamma(backend.to_host(alpha._data), _generator(generator))
    return StandardGammaBackward0.apply(alpha, values=backend.to_device(values, alpha.device))


@guarded
def _standard_gamma_grad(alpha: Tensor, sample: Tensor) -> Tensor:
    """The derivative of a standard gamma draw with respect to its concentration."""
    alpha = _sampler_input(alpha, "_standard_gamma_grad", "_standard_gamma_grad_cpu")
    return StandardGammaGradBackward0.apply(alpha, _check_tensor(sample, "_standard_gamma_grad"))


@guarded
def poisson(rates: Tensor, generator: Any = None) -> Tensor:
    """torch.poisson(rates): one draw per rate (PoissonBackward0, a zero gradient)."""
    rates = _sampler_input(rates, "poisson", "poisson_cpu")
    gen = _generator(generator)
    values = _random_call(lambda: random_samplers.poisson(backend.to_host(rates._data), gen))
    return PoissonBackward0.apply(rates, values=backend.to_device(values, rates.device))


@guarded
def binomial(count: Tensor, prob: Tensor, generator: Any = None) -> Tensor:
    """torch.binomial(count, prob): one draw per element (a NotImplemented node)."""
    count = _sampler_input(count, "binomial", "binomial_cpu")
    prob = _check_tensor(prob, "binomial", "prob", 2)
    if prob.dtype is not count.dtype:
        raise TorchRuntimeError(f"Found dtype {prob.dtype.short} but expected "
                                f"{count.dtype.short}")
    shape = infer_size(count.shape, prob.shape)
    n = np.broadcast_to(backend.to_host(count._data), shape)
    p = np.broadcast_to(backend.to_host(prob._data), shape)
    values = random_samplers.binomial(n, p, _generator(generator))
    inputs = [t for t in (count, prob) if t.requires_grad] or [count]
    return SamplerNotImplemented.apply(*inputs, values=backend.to_device(values, count.device),
                                       op="binomial")


@guarded
def _sample_dirichlet(alpha: Tensor, generator: Any = None) -> Tensor:
    """torch._sample_dirichlet(alpha): double gamma draws normalised along the last dimension
    (their sum is PyTorch's float64 sum), cast to alpha's dtype."""
    alpha = _sampler_input(alpha, "_sample_dirichlet", "dirichlet")
    gammas = random_samplers.dirichlet_gammas(backend.to_host(alpha._data), _generator(generator))
    with no_grad():
        totals = sum_(Tensor._make(gammas, "cpu"), -1, keepdim=True)
    values = random_samplers.dirichlet_normalise(gammas, totals._data, alpha._data.dtype)
    return SamplerNotImplemented.apply(alpha, values=backend.to_device(values, alpha.device),
                                       op="_sample_dirichlet")


@guarded
def _dirichlet_grad(x: Tensor, alpha: Tensor, total: Tensor) -> Tensor:
    """The reparameterised gradient of Dirichlet draws x (a NotImplemented node itself)."""
    x = _sampler_input(x, "_dirichlet_grad", "_dirichlet_grad_cpu")
    arrays = [np.broadcast_to(backend.to_host(t._data), x.shape) for t in (x, alpha, total)]
    values = random_samplers.dirichlet_grad(*arrays)
    inputs = [t for t in (x, alpha, total) if t.requires_grad] or [x]
    return SamplerNotImplemented.apply(*inputs, values=backend.to_device(values, x.device),
                                       op="_dirichlet_grad")
