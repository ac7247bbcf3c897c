"""Complex tensors against PyTorch live: the dtypes and their promotion, creation, printing,
the views (view_as_real / view_as_complex, .real / .imag, writes through them), arithmetic and
math (bits where ATen's kernels are reproduced: mul, mm, bmm, abs, angle, exp ...), errors,
torch.linalg.eig's bits, and gradients (the conjugate-Wirtinger convention) against torch and
float64 finite differences on the real and imaginary parts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gt
from gradsh.engine.vecmath import mkl


def _np(t: Any) -> np.ndarray:
    return t.detach().resolve_conj().numpy()


def _same(ours: Any, theirs: Any) -> None:
    """Same dtype, shape and bits (NaNs equal)."""
    assert str(ours.dtype) == str(theirs.dtype)
    a, b = _np(ours), _np(theirs)
    assert a.shape == b.shape
    np.testing.assert_array_equal(a, b)


def _pair(torch: Any, *shape: int, dtype: str = "complex64", seed: int = 0) -> tuple[Any, Any]:
    torch.manual_seed(seed)
    t = torch.randn(*shape, dtype=getattr(torch, dtype))
    return gt.tensor(t.numpy()), t


# ---- dtypes and promotion -------------------------------------------------------------------

DTYPES = ["bool", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64",
          "complex128"]


def test_dtype_attributes(torch: Any) -> None:
    for name in ("complex64", "complex128", "cfloat", "cdouble"):
        ours, theirs = getattr(gt, name), getattr(torch, name)
        assert repr(ours) == repr(theirs)
        assert (ours.is_complex, ours.is_floating_point, ours.itemsize, ours.is_signed) == \
            (theirs.is_complex, theirs.is_floating_point, theirs.itemsize, theirs.is_signed)
    assert gt.zeros(2, dtype=gt.cfloat).real.dtype is gt.float32
    assert gt.zeros(2, dtype=gt.cdouble).imag.dtype is gt.float64


@pytest.mark.parametrize("a", DTYPES)
def test_promote_types(torch: Any, a: str) -> None:
    for b in DTYPES:
        ours = gt.promote_types(getattr(gt, a), getattr(gt, b))
        assert repr(ours) == repr(torch.promote_types(getattr(torch, a), getattr(torch, b)))


@pytest.mark.parametrize("make", [
    lambda L: L.ones(2) * 1j,
    lambda L: L.ones(2, dtype=L.float64) * (1 + 2j),
    lambda L: L.ones(2, dtype=L.int64) + 1j,
    lambda L: L.ones(2, dtype=L.cfloat) * L.tensor(2.0, dtype=L.float64),
    lambda L: L.ones(2, dtype=L.float64) + L.tensor(1j),
    lambda L: L.ones(2) + L.tensor(1j, dtype=L.complex128),
    lambda L: L.ones(2, dtype=L.cfloat) + L.ones(2, dtype=L.float64),
    lambda L: L.tensor(2) * 1.5j,
])
def test_result_types(torch: Any, make: Callable[[Any], Any]) -> None:
    _same(make(gt), make(torch))


def test_default_complex_follows_default_float(torch: Any) -> None:
    try:
        for L in (gt, torch):
            L.set_default_dtype(L.float64)
        _same(gt.tensor([1 + 2j]), torch.tensor([1 + 2j]))
        assert repr(gt.tensor([1j])) == repr(torch.tensor([1j]))
        assert repr(gt.tensor([1j], dtype=gt.cfloat)) == repr(torch.tensor([1j], dtype=torch.cfloat))
    finally:
        for L in (gt, torch):
            L.set_default_dtype(L.float32)


# ---- creation, conversion, printing ---------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda L: L.tensor([1 + 2j, 3 - 4j]),
    lambda L: L.tensor([[1, 2.5], [1j, 0]]),
    lambda L: L.tensor(3 + 4j),
    lambda L: L.as_tensor(np.array([1j, 2], dtype=np.complex64)),
    lambda L: L.from_numpy(np.array([[1 + 1j], [2]])),
    lambda L: L.zeros(2, 3, dtype=L.cfloat),
    lambda L: L.ones(2, dtype=L.complex128),
    lambda L: L.full((2,), 1 - 1j),
    lambda L: L.complex(L.tensor([1., 2.]), L.tensor([0.5, -1.])),
    lambda L: L.polar(L.tensor([1., 2.], dtype=L.float64), L.tensor([0.5, 3.], dtype=L.float64)),
])
def test_creation(torch: Any, make: Callable[[Any], Any]) -> None:
    ours, theirs = make(gt), make(torch)
    _same(ours, theirs)
    assert repr(ours) == repr(theirs)
    assert ours.tolist() == theirs.tolist()


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_randn_draws(torch: Any, dtype: str) -> None:
    for shape in ((3,), (5, 7), (40,)):
        torch.manual_seed(3)
        gt.manual_seed(3)
        _same(gt.randn(*shape, dtype=getattr(gt, dtype)), torch.randn(*shape, dtype=getattr(torch, dtype)))


@pytest.mark.parametrize("make", [
    lambda L: L.tensor([1.5 + 2j, -3 - 0.25j, 0j]),
    lambda L: L.tensor([[1e-5 + 1j, 2e6], [3, -0.0 - 0.0j]]),
    lambda L: L.tensor([1 + 1j, 2 + 2j], dtype=L.complex128),
    lambda L: L.tensor(-2.5 - 1j),
    lambda L: L.tensor([float("nan") + 1j, float("inf") * 1j]),
    lambda L: L.arange(2000, dtype=L.float32).reshape(40, 50) * (1 - 2j),
    lambda L: L.zeros(0, dtype=L.cfloat),
    lambda L: L.tensor([1 + 2j], requires_grad=True) * 2,
])
def test_repr(torch: Any, make: Callable[[Any], Any]) -> None:
    assert repr(make(gt)) == repr(make(torch))
    assert str(make(gt)) == str(make(torch))


def test_printoptions(torch: Any) -> None:
    try:
        for L in (gt, torch):
            L.set_printoptions(precision=2, sci_mode=True)
        assert repr(gt.tensor([1.5 + 2j, 3j])) == repr(torch.tensor([1.5 + 2j, 3j]))
    finally:
        for L in (gt, torch):
            L.set_printoptions(profile="default")


def test_item_tolist_numpy(torch: Any) -> None:
    ours, theirs = gt.tensor([[1 + 2j, 3j]]), torch.tensor([[1 + 2j, 3j]])
    assert ours[0, 1].item() == theirs[0, 1].item()
    assert ours.tolist() == theirs.tolist()
    assert ours.numpy().dtype == theirs.numpy().dtype
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


# ---- views ----------------------------------------------------------------------------------

def test_views_share_storage(torch: Any) -> None:
    results = []
    for L in (gt, torch):
        x = L.zeros(3, dtype=L.cfloat)
        x.real = L.tensor([1., 2., 3.])
        x.imag[1] = 5
        v = L.view_as_real(x)
        v[0, 1] = 7
        z = L.view_as_complex(L.tensor([[1., 2.], [3., 4.]]))
        z.imag.mul_(10)
        results.append((x, v, z, x.real, x.imag))
    for ours, theirs in zip(*results, strict=True):
        _same(ours, theirs)


def test_conj(torch: Any) -> None:
    ours, theirs = gt.tensor([1 + 2j, -3j]), torch.tensor([1 + 2j, -3j])
    assert ours.conj().is_conj() == theirs.conj().is_conj() and not ours.is_conj()
    for f in (lambda x: x.conj(), lambda x: x.conj_physical(), lambda x: x.conj().resolve_conj(),
              lambda x: x * x.conj(), lambda x: x.real.conj()):
        _same(f(ours), f(theirs))
    real = gt.tensor([1., 2.])
    assert real.conj() is real


@pytest.mark.parametrize("call, kind", [
    (lambda L: L.view_as_real(L.ones(2)), RuntimeError),
    (lambda L: L.view_as_complex(L.ones(2, 3)), RuntimeError),
    (lambda L: L.view_as_complex(L.ones(2, 2).t()), RuntimeError),
    (lambda L: L.view_as_complex(L.ones(2, 2, dtype=L.int64)), RuntimeError),
    (lambda L: L.ones(2).imag, RuntimeError),
    (lambda L: L.complex(L.ones(2), L.ones(2, dtype=L.float64)), RuntimeError),
    (lambda L: L.complex(L.ones(2, dtype=L.int64), L.ones(2, dtype=L.int64)), RuntimeError),
    (lambda L: L.ones(2, dtype=L.cfloat) < L.ones(2, dtype=L.cfloat), RuntimeError),
    (lambda L: L.ones(2, dtype=L.cfloat) >= 1, RuntimeError),
    (lambda L: L.ones(2, dtype=L.cfloat, requires_grad=True).sum().backward(), RuntimeError),
    (lambda L: L.randn(2, 2, dtype=L.int64), RuntimeError),
    (lambda L: L.ones(2, dtype=L.cfloat).sign(), NotImplementedError),
    (lambda L: L.ones(2, dtype=L.cfloat).max(), NotImplementedError),
    (lambda L: L.ones(2, dtype=L.cfloat).sort(), RuntimeError),
    (lambda L: L.ones(2, dtype=L.cfloat).clamp(0, 1), NotImplementedError),
    (lambda L: L.relu(L.ones(2, dtype=L.cfloat)), NotImplementedError),
    (lambda L: L.arange(3, dtype=L.cfloat), NotImplementedError),
    (lambda L: float(L.tensor(1 + 1j)), RuntimeError),
    (lambda L: int(L.tensor([2j])), RuntimeError),
])
def test_errors(torch: Any, call: Callable[[Any], Any], kind: type) -> None:
    with pytest.raises(kind) as theirs:
        call(torch)
    with pytest.raises(kind) as ours:
        call(gt)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("call", [
    lambda L, z: z.var(), lambda L, z: z.std(0), lambda L, z: L.vdot(z, z.flip(0)),
    lambda L, z: z.cumsum(0), lambda L, z: L.isreal(L.cat([z, z.real])), lambda L, z: z.sgn(),
    lambda L, z: z.norm(), lambda L, z: L.dist(z, z.flip(0)), lambda L, z: z.float(),
    lambda L, z: L.tensor(complex(z[0])), lambda L, z: L.tensor(float(z[0].real)),
    lambda L, z: L.diag(z), lambda L, z: L.outer(z, z), lambda L, z: z.repeat(2),
    lambda L, z: L.linalg.inv(L.outer(z, z) + L.eye(3)), lambda L, z: L.zeros_like(z),
    lambda L, z: z.unsqueeze(0).expand(2, 3), lambda L, z: z.type(L.complex128),
])
@pytest.mark.filterwarnings("ignore:Casting complex values to real")
def test_more_functions(torch: Any, call: Callable[[Any, Any], Any]) -> None:
    z, tz = _pair(torch, 3, dtype="complex128", seed=6)
    ours, theirs = call(gt, z), call(torch, tz)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(_np(ours), _np(theirs), rtol=1e-12, atol=1e-12)


def test_uniform_draws(torch: Any) -> None:
    for L in (gt, torch):
        L.manual_seed(5)
    _same(gt.rand(2, 3, dtype=gt.cfloat), torch.rand(2, 3, dtype=torch.cfloat))
    ours = gt.nn.Linear(3, 2, dtype=gt.cfloat)
    theirs = torch.nn.Linear(3, 2, dtype=torch.cfloat)
    _same(ours.weight, theirs.weight)
    _same(ours.bias, theirs.bias)


# ---- arithmetic and math --------------------------------------------------------------------

BITS = {  # reproduced to the bit
    "add": lambda L, a, b: a + b, "sub": lambda L, a, b: a - b, "mul": lambda L, a, b: a * b,
    "mul_number": lambda L, a, b: a * (2 - 3j), "neg": lambda L, a, b: -a,
    "mul_real": lambda L, a, b: a * b.real, "real_add": lambda L, a, b: a.real + b,
    "exp": lambda L, a, b: L.exp(a), "log": lambda L, a, b: L.log(a),
    "sqrt": lambda L, a, b: L.sqrt(a), "sin": lambda L, a, b: L.sin(a),
    "cos": lambda L, a, b: L.cos(a), "tanh": lambda L, a, b: L.tanh(a),
    "abs": lambda L, a, b: a.abs(), "angle": lambda L, a, b: a.angle(),
    "square": lambda L, a, b: a ** 2, "pow_half": lambda L, a, b: a ** 0.5,
    "cube": lambda L, a, b: a ** 3,
    "mm": lambda L, a, b: a.reshape(16, 32) @ b.reshape(32, 16),
    "bmm": lambda L, a, b: a.reshape(2, 16, 16) @ b.reshape(2, 16, 16),
    "matmul_broadcast": lambda L, a, b: a.reshape(4, 8, 16) @ b.reshape(16, 32)[:, :3],
    "cat": lambda L, a, b: L.cat([a[:3], b[:5]]), "stack": lambda L, a, b: L.stack([a, b]),
    "index": lambda L, a, b: a.reshape(32, 16)[[1, 3], 2:], "flip": lambda L, a, b: a.flip(0),
    "where": lambda L, a, b: L.where(a.real > 0, a, b),
    "isclose": lambda L, a, b: L.isclose(a, a + 1e-7), "eq": lambda L, a, b: a == b,
    "sum": lambda L, a, b: a.sum(), "mean": lambda L, a, b: a.mean(),
    "sum_dim": lambda L, a, b: a.reshape(16, 32).sum(0) + a.reshape(16, 32).t().sum(1),
    "mean_dim": lambda L, a, b: a.reshape(4, 8, 16).mean((0, 2)),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", sorted(BITS))
def test_math_bits(torch: Any, one_thread: None, name: str, dtype: str) -> None:
    if name in ("mm", "bmm", "matmul_broadcast") and mkl.library() is None:
        pytest.skip("MKL (the mkl package) is not loaded: NumPy's product")
    a, ta = _pair(torch, 512, dtype=dtype, seed=1)
    b, tb = _pair(torch, 512, dtype=dtype, seed=2)
    _same(BITS[name](gt, a, b), BITS[name](torch, ta, tb))


CLOSE = {  # NumPy's algorithm, not ATen's: equal within a few ulps
    "div": lambda L, a, b: a / b, "reciprocal": lambda L, a, b: a.reciprocal(),
    "prod": lambda L, a, b: a[:8].prod(), "pow": lambda L, a, b: a ** 1.7,
    "sigmoid": lambda L, a, b: L.sigmoid(a), "einsum": lambda L, a, b: L.einsum("i,i->", a, b),
    "dot_via_sum": lambda L, a, b: (a * b).sum(-1),
}


@pytest.mark.parametrize("name", sorted(CLOSE))
def test_math_close(torch: Any, one_thread: None, name: str) -> None:
    a, ta = _pair(torch, 64, dtype="complex128", seed=1)
    b, tb = _pair(torch, 64, dtype="complex128", seed=2)
    ours, theirs = CLOSE[name](gt, a, b), CLOSE[name](torch, ta, tb)
    assert str(ours.dtype) == str(theirs.dtype) and ours.shape == theirs.shape
    np.testing.assert_allclose(_np(ours), _np(theirs), rtol=1e-12, atol=1e-12)
    assert gt.allclose(ours, gt.tensor(_np(theirs)))


# ---- linalg.eig ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_eig_bits(torch: Any, one_thread: None, dtype: str) -> None:
    if mkl.library() is None:
        pytest.skip("MKL (the mkl package) is not loaded: NumPy's geev")
    for n, batch in ((1, ()), (3, ()), (5, (2,)), (8, (2, 3))):
        torch.manual_seed(n)
        A = torch.randn(*batch, n, n, dtype=getattr(torch, dtype))
        ours = gt.linalg.eig(gt.tensor(A.numpy()))
        theirs = torch.linalg.eig(A)
        _same(ours.eigenvalues, theirs.eigenvalues)
        _same(ours.eigenvectors, theirs.eigenvectors)
        _same(gt.linalg.eigvals(gt.tensor(A.numpy())), torch.linalg.eigvals(A))
    nan = [[float("nan"), 1.0], [0.0, 2.0]]
    _same(gt.linalg.eigvals(gt.tensor(nan)), torch.linalg.eigvals(torch.tensor(nan)))


def test_eig_errors(torch: Any) -> None:
    for call in (lambda L: L.linalg.eig(L.ones(2, 3)),
                 lambda L: L.linalg.eig(L.ones(2, 2, dtype=L.int64)),
                 lambda L: L.linalg.eig(L.tensor([[float("nan")]]))):
        with pytest.raises(RuntimeError) as theirs:
            call(torch)
        with pytest.raises(RuntimeError) as ours:
            call(gt)
        assert str(ours.value) == str(theirs.value)


# ---- gradients --------------------------------------------------------------------------------

LOSSES = {
    "abs": lambda L, z, w: z.abs().sum(),
    "mul_abs": lambda L, z, w: (z * w).abs().sum(),
    "div": lambda L, z, w: (w / z).real.sum(),
    "real_imag": lambda L, z, w: (z.real * z.imag).sum() + z.imag.pow(2).sum(),
    "angle": lambda L, z, w: (z.angle() * z.abs()).sum(),
    "view_as_real": lambda L, z, w: L.view_as_real(z * w).pow(3).sum(),
    "matmul": lambda L, z, w: (z.reshape(2, 3) @ w.reshape(3, 2)).abs().sum(),
    "exp_log": lambda L, z, w: (L.exp(z) + L.log(w) * z.conj()).real.sum(),
    "sqrt_recip": lambda L, z, w: (L.sqrt(z) * z.reciprocal()).imag.sum(),
    "square": lambda L, z, w: (z ** 2 * w).abs().pow(2).sum(),
    "mean": lambda L, z, w: (z - w.mean()).abs().mean(),
    "prod": lambda L, z, w: (z.reshape(2, 3).prod(1) * w[:2]).abs().sum() + z.prod().real,
    "pow_tensor": lambda L, z, w: (z ** (w * 0.5)).abs().sum() + (2 ** z).imag.sum(),
    "cumprod": lambda L, z, w: z.cumprod(0).abs().sum(),
    "trig": lambda L, z, w: (L.sin(z) * L.cos(w) + L.tanh(z) + L.sigmoid(z)).real.sum(),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_complex_leaf_gradients(torch: Any, name: str) -> None:
    """z.grad for a complex leaf: torch's, and dL/dRe + i dL/dIm by finite differences."""
    z, tz = _pair(torch, 6, dtype="complex128", seed=4)
    w, tw = _pair(torch, 6, dtype="complex128", seed=5)
    z.requires_grad_(True)
    tz.requires_grad_(True)
    loss = LOSSES[name](gt, z, w)
    theirs = LOSSES[name](torch, tz, tw)
    assert loss.grad_fn.name() == theirs.grad_fn.name()
    loss.backward()
    theirs.backward()
    np.testing.assert_allclose(_np(z.grad), _np(tz.grad), rtol=1e-10, atol=1e-12)
    base = _np(z)
    numeric = np.zeros_like(base)
    eps = 1e-6
    for i in range(base.size):
        for step in (1, 1j):
            values = []
            for sign in (1, -1):
                shifted = base.copy()
                shifted[i] += sign * eps * step
                values.append(LOSSES[name](gt, gt.tensor(shifted), w).item())
            numeric[i] += step * (values[0] - values[1]) / (2 * eps)
    np.testing.assert_allclose(_np(z.grad), numeric, rtol=1e-5, atol=1e-6)


def test_real_leaf_through_complex(torch: Any) -> None:
    """A real leaf (rotary embeddings' layout): view_as_complex, polar, multiply, view_as_real."""
    grads = []
    for L in (gt, torch):
        L.manual_seed(0)
        x = L.randn(2, 4, 8, dtype=L.float64, requires_grad=True)
        angle = L.linspace(0, 3, 4 * 4, dtype=L.float64).reshape(4, 4).requires_grad_(True)
        freqs = L.polar(L.ones_like(angle), angle)
        xc = L.view_as_complex(x.reshape(2, 4, 4, 2))
        out = L.view_as_real(xc * freqs).flatten(2)
        assert out.grad_fn.name() == "ViewBackward0"
        (out * out.detach().cos()).sum().backward()
        grads.append((x.grad, angle.grad))
    for ours, theirs in zip(*grads, strict=True):
        np.testing.assert_allclose(_np(ours), _np(theirs), rtol=1e-12, atol=1e-12)


def test_grad_fn_names(torch: Any) -> None:
    names = []
    for L in (gt, torch):
        z = L.ones(3, dtype=L.cfloat, requires_grad=True)
        x = L.ones(3, 2, requires_grad=True)
        names.append([t.grad_fn.name() for t in (
            L.view_as_real(z), L.view_as_complex(x), z.real, z.imag, z.abs(), z.angle(),
            z.conj(), L.complex(x[:, 0], x[:, 1]), L.polar(x[:, 0], x[:, 1]), z * z, z @ z)])
    assert names[0] == names[1]
