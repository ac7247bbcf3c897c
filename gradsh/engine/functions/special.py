"""Nodes of the special functions (torch.special and their torch.* names): lgamma, digamma,
polygamma, mvlgamma, erfinv, the Bessel i0/i1 family, sinc, xlog1py, entr, ndtri, log_ndtr,
erfcx, zeta, the incomplete gamma; and of the samplers with a derivative (_standard_gamma,
poisson). Each formula is PyTorch's derivatives.yaml entry; the values come from
gradsh.engine.special_math and gradsh.engine.random_samplers."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gradsh.engine import backend, random_samplers, special_math
from gradsh.engine.exceptions import TorchNotImplementedError, TorchRuntimeError
from gradsh.engine.functions.cascade_sum import torch_sum
from gradsh.engine.functions.common import (
    _quiet,
    broadcast_shapes,
    float_result_dtype,
    laid_out,
    xp_of,
)
from gradsh.engine.node import RESULT, Function
from gradsh.engine.variable import Array, Tensor
from gradsh.engine.vecmath import clib

__all__ = [
    "LgammaBackward0", "DigammaBackward0", "PolygammaBackward0", "ErfinvBackward0",
    "I0Backward0", "SpecialI0EBackward0", "SpecialI1Backward0", "SpecialI1EBackward0",
    "SincBackward0", "SpecialEntrBackward0", "SpecialNdtriBackward0", "SpecialLogNdtrBackward0",
    "SpecialErfcxBackward0", "SpecialXlog1PyBackward0", "SpecialZetaBackward0",
    "IgammaBackward0", "IgammacBackward0", "MvlgammaBackward0", "StandardGammaBackward0",
    "StandardGammaGradBackward0", "PoissonBackward0", "SamplerNotImplemented", "ARRAY_SPECIAL",
]


def _on_host(compute: Callable[..., np.ndarray], *arrays: Array) -> Array:
    """compute on host copies of the arrays, the result back on the first one's device."""
    xp = xp_of(arrays[0])
    host = [backend.to_host(a) if xp is not np else a for a in arrays]
    with _quiet():
        out = compute(*host)
    return out if xp is np else xp.asarray(out)


def _sinc(x: np.ndarray) -> np.ndarray:
    """sinc_kernel: 1 at 0, else sin(pi x) / (pi x) with pi x rounded in x's (opmath) dtype."""
    work = x.astype(special_math._compute_dtype(x), copy=False)
    product = work.dtype.type(math.pi) * work
    sine_of = clib.function("sin", product.dtype)  # (a scalar kernel: the C library's sin)
    if sine_of is not None:
        sine = sine_of(product)
    elif work.dtype == np.float32:
        from gradsh.engine.vecmath import kernels

        sine = kernels.sin(product)
    else:
        sine = np.sin(product)
    return np.where(work == 0, work.dtype.type(1), sine / product).astype(x.dtype)


def _entr(x: np.ndarray) -> np.ndarray:
    """-x log x; 0 at 0, -inf below 0, NaN for NaN."""
    log = special_math._log(x.astype(special_math._compute_dtype(x), copy=False)).astype(x.dtype)
    value = -x * log
    return np.where(np.isnan(x), x, np.where(x > 0, value, np.where(x == 0, 0, -np.inf))
                    ).astype(x.dtype)


# The functions backward formulas reach through F.special on arrays (TensorOps has the
# differentiable ones, ops/special.py's TENSOR_SPECIAL).
ARRAY_SPECIAL: dict[str, Callable[..., Array]] = {
    "digamma": lambda x: _on_host(special_math.digamma, x),
    "polygamma": lambda n, x: _on_host(lambda v: special_math.polygamma(n, v), x),
    "erfinv": lambda x: _on_host(special_math.erfinv, x),
    "i0": lambda x: _on_host(special_math.i0, x),
    "i0e": lambda x: _on_host(special_math.i0e, x),
    "i1": lambda x: _on_host(special_math.i1, x),
    "i1e": lambda x: _on_host(special_math.i1e, x),
    "xlog1py": lambda x, y: _on_host(_xlog1py, x, y),
    "zeta": lambda x, q: _on_host(special_math.zeta, x, q),
    "lgamma": lambda x: _on_host(special_math.lgamma, x),
    "standard_gamma_grad": lambda a, x: _on_host(random_samplers.standard_gamma_grad, a, x),
    "reciprocal": lambda x: 1 / x,
    "square": lambda x: x * x,
}


def _float_values(a: Tensor, compute: Callable[[np.ndarray], np.ndarray]) -> Array:
    dtype = float_result_dtype(a).np
    return _on_host(compute, a._data.astype(dtype, copy=False))


def _unary(name: str, compute: Callable[[np.ndarray], np.ndarray], saves: str,
           formula: Callable[[Any, Any, Any, Any], Any]) -> type[Function]:
    """A float-valued element-wise op; backward is formula(F, grad, self, result), reading the
    saved input ("self"), output ("result") or both ("both")."""

    def forward(self: Function, a: Tensor) -> Array:
        if self.needs_input_grad[0]:
            if saves in ("self", "both"):
                self.save("self", a)
            if saves in ("result", "both"):
                self.save("result", RESULT)
        return _float_values(a, compute)

    def backward(self: Function, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F) if saves in ("self", "both") else None
        y = self.saved("result", F) if saves in ("result", "both") else None
        with _quiet():
            return (formula(F, grad, x, y),)

    return laid_out("iterator")(type(name, (Function,), {
        "node_name": name, "forward": forward, "backward": backward, "__module__": __name__}))


def _i1_backward(F: Any, grad: Any, x: Any, y: Any, scaled: bool) -> Any:
    """i1_backward / i1e_backward: the limit 0.5 where |x| <= eps (0 / 0 otherwise)."""
    eps = float(np.finfo(F.as_array(x).dtype).eps)
    not_tiny = F.abs(x) > eps
    safe = F.where(not_tiny, x, F.zeros_like(x) + eps)
    if scaled:
        gradx = F.special("i0e", safe) - y * (F.sgn(safe) + F.special("reciprocal", safe))
    else:
        gradx = F.special("i0", safe) - y * F.special("reciprocal", safe)
    return grad * F.where(not_tiny, gradx, F.zeros_like(gradx) + 0.5)


def _sinc_backward(F: Any, grad: Any, x: Any, y: Any) -> Any:
    self_pi = x * math.pi
    self_squared_pi = x * x * math.pi
    # grad * (quotient): the product last (measured: float64 shows the association)
    out = grad * ((self_pi * F.cos(self_pi) - F.sin(self_pi)) / self_squared_pi)
    return F.where(self_squared_pi == 0.0, F.zeros_like(out), out)


LgammaBackward0 = _unary("LgammaBackward0", special_math.lgamma, "self",
                         lambda F, g, x, y: g * F.special("digamma", x))
DigammaBackward0 = _unary("DigammaBackward0", special_math.digamma, "self",
                          lambda F, g, x, y: g * F.special("polygamma", 1, x))
ErfinvBackward0 = _unary(
    "ErfinvBackward0", special_math.erfinv, "self",
    lambda F, g, x, y: 0.5 * math.sqrt(math.pi) * F.exp(F.special("square", F.special(
        "erfinv", x))) * g)
I0Backward0 = _unary("I0Backward0", special_math.i0, "self",
                     lambda F, g, x, y: g * F.special("i1", x))
SpecialI0EBackward0 = _unary(
    "SpecialI0EBackward0", special_math.i0e, "both",
    lambda F, g, x, y: g * (F.special("i1e", x) - F.sgn(x) * y))
SpecialI1Backward0 = _unary("SpecialI1Backward0", special_math.i1, "both",
                            lambda F, g, x, y: _i1_backward(F, g, x, y, False))
SpecialI1EBackward0 = _unary("SpecialI1EBackward0", special_math.i1e, "both",
                             lambda F, g, x, y: _i1_backward(F, g, x, y, True))
SincBackward0 = _unary("SincBackward0", _sinc, "self", _sinc_backward)
SpecialEntrBackward0 = _unary("SpecialEntrBackward0", _entr, "self",
                              lambda F, g, x, y: g * -(F.log(x) + 1))
SpecialNdtriBackward0 = _unary(
    "SpecialNdtriBackward0", special_math.ndtri, "result",
    lambda F, g, x, y: g * math.sqrt(2 * math.pi) * F.exp(F.special("square", y) / 2))
SpecialLogNdtrBackward0 = _unary(
    "SpecialLogNdtrBackward0", special_math.log_ndtr, "both",
    lambda F, g, x, y: g / math.sqrt(2 * math.pi) * F.exp(-(y + x * x / 2)))
SpecialErfcxBackward0 = _unary(
    "SpecialErfcxBackward0", special_math.erfcx, "both",
    lambda F, g, x, y: (2.0 * x * y - 2.0 / math.sqrt(math.pi)) * g)


class PolygammaBackward0(Function):
    """polygamma(n, x): its derivative is polygamma(n + 1, x)."""

    node_name = "PolygammaBackward0"

    def forward(self, a: Tensor, n: int) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        self.n = n
        return _float_values(a, lambda x: special_math.polygamma(n, x))

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (grad * F.special("polygamma", self.n + 1, x),)


def _xlog1py(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x * log1p(y), 0 where x is 0 (unless y is NaN). A number y (a backward formula's
    wrapped Scalar) is taken in x's dtype."""
    y = np.asarray(y, dtype=x.dtype)
    if x.dtype == np.float32:  # std::log1p(float): glibc's log1pf, fdlibm's code
        from gradsh.engine.vecmath import fdlibm

        log1p = fdlibm.log1pf(np.ascontiguousarray(y).reshape(-1)).reshape(y.shape)
    else:
        log1p = special_math._mapped(special_math.c_log1p, y) if y.size else np.log1p(y)
    return np.where((x == 0) & ~np.isnan(y), x.dtype.type(0), x * log1p).astype(x.dtype)


class _Binary(Function):
    """A float-valued op of two broadcast tensors, saving both."""

    compute: Callable[[np.ndarray, np.ndarray], np.ndarray]

    def forward(self, a: Tensor, b: Tensor) -> Array:
        if a.shape != b.shape:
            broadcast_shapes(a, b)
        if any(self.needs_input_grad):
            self.save("self", a)
            self.save("other", b)
        dtype = float_result_dtype(a, b).np
        x, y = np.broadcast_arrays(a._data.astype(dtype, copy=False),
                                   b._data.astype(dtype, copy=False))
        return _on_host(type(self).compute, x, y)


class SpecialXlog1PyBackward0(_Binary):
    node_name = "SpecialXlog1PyBackward0"
    compute = staticmethod(_xlog1py)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_y = self.needs_input_grad
        x, y = self.saved("self", F), self.saved("other", F)
        with _quiet():
            gx = F.masked_fill(F.special("xlog1py", grad, y), (x == 0.0) & (y <= -1.0),
                               0.0) if need_x else None
            gy = grad * x / (y + 1) if need_y else None
        return (gx, gy)


def _not_implemented(name: str) -> TorchNotImplementedError:
    """derivatives.yaml's not_implemented(name): a NotImplementedError when reached."""
    return TorchNotImplementedError(f"the derivative for '{name}' is not implemented.")


class SpecialZetaBackward0(_Binary):
    node_name = "SpecialZetaBackward0"
    compute = staticmethod(special_math.zeta)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_x, need_q = self.needs_input_grad
        if need_x:
            raise _not_implemented("zeta")
        x, q = self.saved("self", F), self.saved("other", F)
        with _quiet():
            return (None, grad * -x * F.special("zeta", x + 1.0, q))


class IgammaBackward0(_Binary):
    node_name = "IgammaBackward0"
    compute = staticmethod(lambda a, x: special_math.igamma(a, x))
    sign = 1.0

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        need_a, need_x = self.needs_input_grad
        if need_a:
            raise _not_implemented(f"{type(self).node_name[:-9].lower()}: input")
        a, x = self.saved("self", F), self.saved("other", F)
        with _quiet():
            density = F.exp((a - 1) * F.log(x) - x - F.special("lgamma", a))
            return (None, grad * density if self.sign > 0 else -grad * density)


class IgammacBackward0(IgammaBackward0):
    node_name = "IgammacBackward0"
    compute = staticmethod(lambda a, x: special_math.igamma(a, x, upper=True))
    sign = -1.0


class MvlgammaBackward0(Function):
    """mvlgamma(x, p) = sum_i lgamma(x - i / 2) + p (p - 1) / 4 log(pi), i = 0 .. p - 1, as
    ATen composes it: arange(-p/2 + 1/2, 1/2, 1/2) + x[..., None], lgamma, sum(-1), + const."""

    node_name = "MvlgammaBackward0"

    def forward(self, a: Tensor, p: int) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
        self.p = p
        dtype = float_result_dtype(a).np
        x = backend.to_host(a._data).astype(dtype, copy=False)
        args = _mvlgamma_args(x, p)
        total = torch_sum(special_math.lgamma(args), -1, False, args.dtype)
        value = total + dtype.type(p * (p - 1) * math.log(math.pi) * 0.25)
        return xp_of(a._data).asarray(value)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        x = self.saved("self", F)
        return (grad * F.special("mvlgamma_digamma_sum", x, self.p),)


def _mvlgamma_args(x: np.ndarray, p: int) -> np.ndarray:
    steps = np.arange(-p / 2.0 + 0.5, 0.5, 0.5)[:p].astype(x.dtype)
    return steps + x[..., None]


ARRAY_SPECIAL["mvlgamma_digamma_sum"] = lambda x, p: _on_host(
    lambda v: torch_sum(special_math.digamma(_mvlgamma_args(v, p)), -1, False, v.dtype), x)


# ----------------------------------------------------------------------------- samplers


class StandardGammaBackward0(Function):
    """torch._standard_gamma(alpha): Gamma(alpha, 1) draws (computed by the op, `values`); the
    reparameterised gradient is _standard_gamma_grad(alpha, sample)."""

    node_name = "StandardGammaBackward0"

    def forward(self, a: Tensor, values: Array) -> Array:
        if self.needs_input_grad[0]:
            self.save("self", a)
            self.save("result", RESULT)
        return values

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        a, y = self.saved("self", F), self.saved("result", F)
        return (grad * F.special("standard_gamma_grad", a, y),)


class StandardGammaGradBackward0(_Binary):
    node_name = "StandardGammaGradBackward0"
    compute = staticmethod(random_samplers.standard_gamma_grad)

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise _not_implemented("_standard_gamma_grad")


class PoissonBackward0(Function):
    """torch.poisson(rates): the draws (`values`); the gradient is zero."""

    node_name = "PoissonBackward0"

    def forward(self, a: Tensor, values: Array) -> Array:
        return values

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        return (F.zeros_like(grad),)


class SamplerNotImplemented(Function):
    """binomial, _sample_dirichlet, _dirichlet_grad: PyTorch records a NotImplemented node with
    an edge per input that requires grad, which raises when reached."""

    node_name = "NotImplemented"
    qualified_name = "torch::autograd::NotImplemented"

    def forward(self, *inputs: Tensor, values: Array, op: str) -> Array:
        self.op = op
        return values

    def backward(self, F: Any, grad: Any) -> tuple[Any, ...]:
        raise TorchRuntimeError(f"derivative for aten::{self.op} is not implemented")

