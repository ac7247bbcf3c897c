"""Values and gradients at the edges of functions' domains against PyTorch 2.13, as programs
from bug reports meet them: special.xlog1py at y = -1 and below (C's log1p, not a Python
math domain error) and its gradient for a number or integer y, a negative number raised to a tensor ((-2.0) ** x: a NaN gradient, the
log of a negative Scalar), and torch.ldexp's exponent gradient (grad * result * ln 2) and
power (ATen's pow(2., other) in other's dtype); with float64 finite differences where the
gradient is finite."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gradcheck import check_grads

import gradsh.torch as gtorch

DTYPES = ("float32", "float64")


def _outcome(action: Any) -> str:
    try:
        return repr(action())
    except Exception as error:  # noqa: BLE001  (the error itself is what is compared)
        return f"{type(error).__name__}: {error}"


def _xlog1py(lib: Any, dtype: str) -> list[str]:
    dt = getattr(lib, dtype)
    x = lib.tensor([0.0, 1.0, 2.0, 0.0, 3.0, 0.5], dtype=dt, requires_grad=True)
    y = lib.tensor([-1.0, 0.0, -1.0, -2.0, -3.0, -0.5], dtype=dt, requires_grad=True)
    out = lib.special.xlog1py(x, y)
    grads = lib.autograd.grad(out.sum(), (x, y))
    scalar_other = lib.autograd.grad(lib.special.xlog1py(x, 1.0).sum(), x)
    int_other = lib.autograd.grad(lib.special.xlog1py(x, lib.tensor([0, 2, -1, 3, 1, 5])).sum(), x)
    return [repr(out), repr(grads), repr(scalar_other), repr(int_other),
            _outcome(lambda: lib.special.xlog1py(x.detach(), -1.0)),
            _outcome(lambda: lib.special.xlog1py(2.0, y.detach()))]


def _negative_base(lib: Any, dtype: str) -> list[str]:
    dt = getattr(lib, dtype)
    seen = []
    for base in (-2.0, -2, 0.0, 3.0):
        e = lib.tensor([2.0, 0.5, 3.0, 0.0, -1.0], dtype=dt, requires_grad=True)
        out = base ** e
        (g,) = lib.autograd.grad(out.sum(), e)
        seen += [repr(out), repr(g)]
    return seen


def _ldexp(lib: Any, dtype_x: str, dtype_e: str) -> list[str]:
    lib.manual_seed(0)
    x = lib.randn(300, dtype=getattr(lib, dtype_x), requires_grad=True)
    e = lib.randn(300, dtype=getattr(lib, dtype_e), requires_grad=True)
    out = lib.ldexp(x, e)
    grad = lib.randn(300, dtype=out.dtype)
    gx, ge = lib.autograd.grad(out, (x, e), grad, create_graph=True)
    second = lib.autograd.grad((gx * ge).sum(), (x, e))
    names = [type(t.grad_fn).__name__ for t in (out, gx, ge)]
    ints = lib.ldexp(x.detach()[:4], lib.tensor([3, -1, 0, 70]))
    return [out.detach().numpy().tobytes().hex(), gx.detach().numpy().tobytes().hex(),
            ge.detach().numpy().tobytes().hex(), repr(second), repr(names), repr(ints)]


@pytest.mark.parametrize("dtype", DTYPES)
def test_xlog1py_at_and_below_minus_one(torch: Any, dtype: str) -> None:
    assert _xlog1py(gtorch, dtype) == _xlog1py(torch, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_number_to_tensor_power_with_negative_base(torch: Any, dtype: str) -> None:
    assert _negative_base(gtorch, dtype) == _negative_base(torch, dtype)


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "float32"),
                                    ("float32", "float64")])
def test_ldexp_values_and_both_gradients(torch: Any, one_thread: None,
                                         dtypes: tuple[str, str]) -> None:
    assert _ldexp(gtorch, *dtypes) == _ldexp(torch, *dtypes)


def test_ldexp_exponent_gradient_against_finite_differences() -> None:
    check_grads(lambda x, e: gtorch.ldexp(x, e), np.array([1.0, -3.0, 0.5]),
                np.array([3.0, -1.0, 0.25]))
    check_grads(lambda y: gtorch.special.xlog1py(gtorch.tensor([2.0, 0.5], dtype=gtorch.float64),
                                                 y), np.array([-0.5, 1.5]))


def _large_float64(lib: Any) -> list[str]:
    x = lib.tensor([1e30, -1e30, 700.0, 1e308, -1e-310], dtype=lib.float64)
    return [_outcome(lambda f=f: f(x)) for f in (
        lib.i0, lib.special.i0e, lib.special.i1, lib.special.i1e, lib.special.ndtri)]


def test_bessel_family_of_huge_float64_values(torch: Any) -> None:
    """Their float64 kernels' exact fma overflowed converting a Fraction's sign (1e30)."""
    assert _large_float64(gtorch) == _large_float64(torch)
