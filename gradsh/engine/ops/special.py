"""The special functions: torch.lgamma, digamma, polygamma, mvlgamma, erfinv, i0, sinc, igamma,
and the torch.special_* functions torch.special serves (i0e, i1, i1e, entr, ndtri, ndtr,
log_ndtr, erfcx, xlog1py, zeta), with their in-place forms."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gradsh.engine import backend, dtypes, special_bessel
from gradsh.engine.exceptions import TorchRuntimeError
from gradsh.engine.functions.common import not_implemented_for
from gradsh.engine.functions.grad_ops import ScalarOverloads
from gradsh.engine.functions.special import (
    DigammaBackward0,
    ErfinvBackward0,
    I0Backward0,
    IgammaBackward0,
    IgammacBackward0,
    LgammaBackward0,
    MvlgammaBackward0,
    PolygammaBackward0,
    SincBackward0,
    SpecialEntrBackward0,
    SpecialErfcxBackward0,
    SpecialI0EBackward0,
    SpecialI1Backward0,
    SpecialI1EBackward0,
    SpecialLogNdtrBackward0,
    SpecialNdtriBackward0,
    SpecialXlog1PyBackward0,
    SpecialZetaBackward0,
)
from gradsh.engine.functions.unary import RoundBackward1
from gradsh.engine.inplace import apply_inplace
from gradsh.engine.ops.arguments import (_check_tensor, as_int, as_tensor_operand, is_number,
                                         tensor_operand)
from gradsh.engine.ops.arithmetic import add, mul
from gradsh.engine.ops.copies import to
from gradsh.engine.ops.creation import arange
from gradsh.engine.ops.guard import alias, guarded
from gradsh.engine.ops.numerics import _unary
from gradsh.engine.ops.reductions import sum as _sum
from gradsh.engine.ops.shape import unsqueeze
from gradsh.engine.ops.unary import erf
from gradsh.engine.variable import Tensor

__all__ = [
    "lgamma", "lgamma_", "digamma", "digamma_", "polygamma", "polygamma_", "mvlgamma",
    "mvlgamma_", "erfinv", "erfinv_", "i0", "i0_", "sinc", "sinc_", "igamma", "igamma_",
    "igammac", "igammac_", "special_i0e", "special_i1", "special_i1e", "special_entr",
    "special_ndtri", "special_ndtr", "special_log_ndtr", "special_erfcx", "special_xlog1py",
    "special_zeta", "special_round", "TENSOR_SPECIAL", *(
        f"special_{name}" for name in special_bessel.__all__),
]


_SQRT1_2 = 0.70710678118654752440  # M_SQRT1_2


lgamma = _unary(LgammaBackward0, "lgamma")
lgamma_ = _unary(LgammaBackward0, "lgamma_", inplace=True)
digamma = _unary(DigammaBackward0, "digamma")
digamma_ = _unary(DigammaBackward0, "digamma_", inplace=True)
erfinv = _unary(ErfinvBackward0, "erfinv")
erfinv_ = _unary(ErfinvBackward0, "erfinv_", inplace=True)
i0 = _unary(I0Backward0, "i0")
i0_ = _unary(I0Backward0, "i0_", inplace=True)
sinc = _unary(SincBackward0, "sinc")
sinc_ = _unary(SincBackward0, "sinc_", inplace=True)
special_i0e = _unary(SpecialI0EBackward0, "special_i0e")
special_i1 = _unary(SpecialI1Backward0, "special_i1")
special_i1e = _unary(SpecialI1EBackward0, "special_i1e")
special_entr = _unary(SpecialEntrBackward0, "special_entr")


def _float32_64(op: Callable[[Tensor], Tensor], kernel: str) -> Callable[[Tensor], Tensor]:
    """`op`, whose ATen kernel has no float16 or bfloat16 (integers promote first)."""

    def checked(a: Tensor) -> Tensor:
        if isinstance(a, Tensor) and a.dtype in (dtypes.float16, dtypes.bfloat16):
            raise not_implemented_for(kernel, a.dtype)
        return op(a)

    checked.__name__, checked.__doc__ = op.__name__, op.__doc__
    return checked


special_ndtri = _float32_64(_unary(SpecialNdtriBackward0, "special_ndtri"), "ndtri_cpu")
special_log_ndtr = _float32_64(_unary(SpecialLogNdtrBackward0, "special_log_ndtr"),
                               "log_ndtr_cpu")
special_erfcx = _float32_64(_unary(SpecialErfcxBackward0, "special_erfcx"), "erfcx_cpu")


def _not_differentiable(name: str) -> Callable[[Tensor], Tensor]:
    """torch.special.NAME of the Bessel family: ATen's float32/float64 kernel (integers
    promote to the default float, float16 and bfloat16 are refused); the result has no
    grad_fn, as PyTorch defines no derivative for these."""
    compute = getattr(special_bessel, name)
    fname = f"special_{name}"
    # (PyTorch's schema names the argument x for these three, input for the others)
    argument = "x" if name in ("scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
                               "spherical_bessel_j0") else "input"

    def compute_on(a: Tensor) -> Tensor:
        a = _check_tensor(a, fname, argument, 1)
        if a.dtype in (dtypes.float16, dtypes.bfloat16):
            raise not_implemented_for(f"{name}_cpu", a.dtype)
        target = a.dtype if a.dtype.is_floating_point else dtypes.default_float()
        host = backend.to_host(a._data).astype(target.np, copy=False)
        return Tensor._make(backend.place(compute(host), a.device), a.device)

    if argument == "x":
        def op(x: Tensor) -> Tensor:
            return compute_on(x)
    else:
        def op(a: Tensor) -> Tensor:  # (input=: the guard moves it to its place)
            return compute_on(a)

    op.__name__ = fname
    op.__doc__ = f"torch.special.{name}: {compute.__doc__ or 'ATen' + chr(39) + 's kernel.'}"
    return guarded(op, tensor_first=argument == "input")


for _name in special_bessel.__all__:
    globals()[f"special_{_name}"] = _not_differentiable(_name)


class PolygammaBackward1(PolygammaBackward0):
    """x.polygamma_(n): PyTorch's in-place overload has its own node name."""

    node_name = "PolygammaBackward1"


def _polygamma_order(n: Any) -> int:
    order = as_int(n)
    if order is None:
        raise TorchRuntimeError("polygamma(): argument 'n' must be int")
    if order < 0:
        raise TorchRuntimeError("polygamma(n, x) does not support negative n.")
    return order


@guarded(tensor_first=False)
def polygamma(n: int, input: Tensor) -> Tensor:  # noqa: A002
    """torch.polygamma(n, x): the n-th derivative of digamma."""
    x = _check_tensor(input, "polygamma", "input", 2)
    return PolygammaBackward0.apply(x, n=_polygamma_order(n))


@guarded
def polygamma_(a: Tensor, n: int) -> Tensor:
    """x.polygamma_(n), in place."""
    a = _check_tensor(a, "polygamma_")
    return apply_inplace(PolygammaBackward1, a, n=_polygamma_order(n))


def _mvlgamma_check(a: Tensor, p: Any) -> int:
    """PyTorch 2.13 checks a bool input and p only: elements at or below (p - 1) / 2 give
    inf or NaN."""
    if a.dtype is dtypes.bool_:
        raise TorchRuntimeError("The input tensor may not be a boolean tensor.")
    order = as_int(p)
    if order is None or order < 1:
        raise TorchRuntimeError("p has to be greater than or equal to 1")
    return order


@guarded
def mvlgamma(input: Tensor, p: int) -> Tensor:  # noqa: A002
    """torch.mvlgamma(x, p): the log of the multivariate gamma function of dimension p."""
    a = _check_tensor(input, "mvlgamma")
    return MvlgammaBackward0.apply(a, p=_mvlgamma_check(a, p))


@guarded
def mvlgamma_(a: Tensor, p: int) -> Tensor:
    a = _check_tensor(a, "mvlgamma_")
    return apply_inplace(MvlgammaBackward0, a, p=_mvlgamma_check(a, p))


# ----------------------------------------------------------------------------- binary


def _binary(cls: type, fname: str, inplace: bool = False) -> Callable[..., Tensor]:
    """A binary special function; a number on either side selects PyTorch's scalar overload
    (SpecialXlog1PyBackward1 for a number first, ...Backward2 for a number second)."""

    def op(a: Any, other: Any) -> Tensor:
        if not isinstance(a, Tensor) and not isinstance(other, Tensor):
            _check_tensor(a, fname)
        if inplace:
            return apply_inplace(cls, _check_tensor(a, fname), tensor_operand(other))
        if cls not in _SCALAR_FIRST:  # igamma, igammac: tensors only, as in PyTorch
            return cls.apply(_check_tensor(a, fname), tensor_operand(other))
        if is_number(a):
            return _SCALAR_FIRST[cls].apply(as_tensor_operand(a), as_tensor_operand(other))
        if is_number(other):
            return _SCALAR_SECOND[cls].apply(a, as_tensor_operand(other))
        return cls.apply(_check_tensor(a, fname), _check_tensor(other, fname, "other", 2))

    op.__name__ = fname
    op.__doc__ = f"torch.{fname} ({cls.node_name})."
    return guarded(op, tensor_first=False)


def _scalar_overloads(cls: type) -> tuple[type, type]:
    """The nodes of the (number, tensor) and (tensor, number) overloads: the same formula, one
    edge (the number's side has none), named ...Backward1 and ...Backward2."""
    base = cls.node_name[:-1]
    first = type(base + "1", (cls,), {"node_name": base + "1", "__module__": cls.__module__})
    second = type(base + "2", (cls,), {"node_name": base + "2", "__module__": cls.__module__})
    return first, second


_SCALAR_FIRST: dict[type, type] = {}
_SCALAR_SECOND: dict[type, type] = {}
for _cls in (SpecialXlog1PyBackward0, SpecialZetaBackward0):
    _SCALAR_FIRST[_cls], _SCALAR_SECOND[_cls] = _scalar_overloads(_cls)
# igamma, igammac have no scalar overloads: a number is refused (see _binary)

special_xlog1py = _binary(SpecialXlog1PyBackward0, "special_xlog1py")
special_zeta = _binary(SpecialZetaBackward0, "special_zeta")
igamma = _binary(IgammaBackward0, "igamma")
igamma_ = _binary(IgammaBackward0, "igamma_", inplace=True)
igammac = _binary(IgammacBackward0, "igammac")
igammac_ = _binary(IgammacBackward0, "igammac_", inplace=True)


@guarded
def special_ndtr(input: Tensor) -> Tensor:  # noqa: A002
    """The standard normal CDF, composed as ATen does: (1 + erf(x / sqrt 2)) * 0.5."""
    a = _check_tensor(input, "special_ndtr")
    if not a.dtype.is_floating_point:
        a = to(a, dtypes.default_float())
    with ScalarOverloads.enabled():  # C++'s tensor * double: MulBackward1, AddBackward1
        return mul(add(erf(mul(a, _SQRT1_2)), 1), 0.5)


special_psi = alias(digamma, "special_psi")


@guarded
def special_round(input: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A002
    """torch.special.round: the round(decimals) overload even for 0 (RoundBackward1)."""
    a = _check_tensor(input, "special_round")
    return RoundBackward1.apply(a, decimals=int(decimals))


def _mvlgamma_digamma_sum(x: Tensor, p: int) -> Tensor:
    """mvlgamma_backward's factor, differentiably: digamma(arange(...) + x[..., None]).sum(-1)."""
    steps = arange(-p / 2.0 + 0.5, 0.5, 0.5, dtype=x.dtype, device=x.device)
    return _sum(digamma(add(steps, unsqueeze(x, -1))), -1)


def _tensor_standard_gamma_grad(a: Tensor, x: Tensor) -> Tensor:
    from gradsh.engine.ops.distributions import _standard_gamma_grad

    return _standard_gamma_grad(a, x)


# What backward formulas reach through F.special under create_graph.
TENSOR_SPECIAL: dict[str, Callable[..., Tensor]] = {
    "digamma": digamma,
    "polygamma": polygamma,
    "erfinv": erfinv,
    "i0": i0,
    "i1": special_i1,
    "i0e": special_i0e,
    "i1e": special_i1e,
    "xlog1py": special_xlog1py,
    "zeta": special_zeta,
    "lgamma": lgamma,
    "standard_gamma_grad": _tensor_standard_gamma_grad,
    "reciprocal": lambda x: x.reciprocal(),
    "square": lambda x: x.square(),
    "mvlgamma_digamma_sum": _mvlgamma_digamma_sum,
}
