"""torch.fft against PyTorch live: every transform's values to the bit (MKL's DFTI called as
ATen's _exec_fft calls it), dtypes, conjugate bits and grad_fn names, the n / dim / s / norm
arguments, errors, and gradients against torch and float64 finite differences."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gt
from gradsh.engine.vecmath import mkl


@pytest.fixture(scope="module")
def mkl_dft() -> None:
    if mkl.library() is None:
        pytest.skip("MKL (the mkl package) is not loaded: NumPy's pocketfft, not torch's bits")


def _np(t: Any) -> np.ndarray:
    return t.detach().resolve_conj().numpy()


def _same(ours: Any, theirs: Any) -> None:
    assert str(ours.dtype) == str(theirs.dtype)
    assert ours.is_conj() == theirs.is_conj()
    np.testing.assert_array_equal(_np(ours), _np(theirs))


ONE_D = {
    "fft": lambda L, x, **k: L.fft.fft(x, **k), "ifft": lambda L, x, **k: L.fft.ifft(x, **k),
    "rfft": lambda L, x, **k: L.fft.rfft(x, **k), "ihfft": lambda L, x, **k: L.fft.ihfft(x, **k),
}
ONE_D_COMPLEX = {
    "fft": lambda L, x, **k: L.fft.fft(x, **k), "ifft": lambda L, x, **k: L.fft.ifft(x, **k),
    "irfft": lambda L, x, **k: L.fft.irfft(x, **k), "hfft": lambda L, x, **k: L.fft.hfft(x, **k),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_one_dimensional_bits(torch: Any, one_thread: None, mkl_dft: None, dtype: str,
                              norm: Any) -> None:
    complex_dtype = "complex64" if dtype == "float32" else "complex128"
    for n in (2, 5, 8, 12, 31, 64, 100):
        torch.manual_seed(n)
        x = torch.randn(3, n, dtype=getattr(torch, dtype))
        z = torch.randn(3, n, dtype=getattr(torch, complex_dtype))
        gx, gz = gt.tensor(x.numpy()), gt.tensor(z.numpy())
        for f in ONE_D.values():
            _same(f(gt, gx, norm=norm), f(torch, x, norm=norm))
        for f in ONE_D_COMPLEX.values():
            _same(f(gt, gz, norm=norm), f(torch, z, norm=norm))


@pytest.mark.parametrize("call", [
    lambda L, x: L.fft.rfft(x, n=13), lambda L, x: L.fft.rfft(x, n=4),
    lambda L, x: L.fft.fft(x, dim=0), lambda L, x: L.fft.fft(x.t(), dim=0),
    lambda L, x: L.fft.irfft(L.fft.rfft(x), n=10), lambda L, x: L.fft.hfft(L.fft.ifft(x), n=7),
    lambda L, x: L.fft.fft2(x), lambda L, x: L.fft.ifft2(x, norm="ortho"),
    lambda L, x: L.fft.fftn(x.reshape(2, 3, 10)), lambda L, x: L.fft.ifftn(x, s=(4, 12)),
    lambda L, x: L.fft.rfft2(x), lambda L, x: L.fft.rfftn(x.reshape(2, 3, 10), dim=(0, 2)),
    lambda L, x: L.fft.irfft2(L.fft.rfft2(x), s=x.shape),
    lambda L, x: L.fft.irfftn(L.fft.rfftn(x.reshape(2, 3, 10))),
    lambda L, x: L.fft.fft(L.arange(6)), lambda L, x: L.fft.rfft(L.arange(6)),
    lambda L, x: L.fft.fftshift(L.fft.fft(x), dim=-1),
])
def test_arguments_bits(torch: Any, one_thread: None, mkl_dft: None,
                        call: Callable[[Any, Any], Any]) -> None:
    torch.manual_seed(0)
    x = torch.randn(6, 10)
    _same(call(gt, gt.tensor(x.numpy())), call(torch, x))


@pytest.mark.parametrize("call", [
    lambda L: L.fft.rfft(L.ones(4, dtype=L.cfloat)),
    lambda L: L.fft.ihfft(L.ones(4, dtype=L.cfloat)),
    lambda L: L.fft.fft(L.ones(4), norm="bad"),
    lambda L: L.fft.fft(L.ones(4), n=0),
    lambda L: L.fft.fft(L.ones(4, dtype=L.float16)),
    lambda L: L.fft.fft2(L.ones(4, 4), dim=(0, 0)),
    lambda L: L.fft.irfft(L.ones(1, dtype=L.cfloat)),
    lambda L: L.fft.rfftn(L.ones(4, dtype=L.cfloat)),
])
def test_errors(torch: Any, call: Callable[[Any], Any]) -> None:
    with pytest.raises(RuntimeError) as theirs:
        call(torch)
    with pytest.raises(RuntimeError) as ours:
        call(gt)
    assert str(ours.value) == str(theirs.value)


def test_index_error(torch: Any) -> None:
    with pytest.raises(IndexError) as theirs:
        torch.fft.fft(torch.ones(4), dim=1)
    with pytest.raises(IndexError) as ours:
        gt.fft.fft(gt.ones(4), dim=1)
    assert str(ours.value) == str(theirs.value)


LOSSES = {  # a real input x, a real loss
    "fft": lambda L, x: L.fft.fft(x).abs().sum(),
    "ifft_ortho": lambda L, x: (L.fft.ifft(x, norm="ortho") * L.arange(8)).real.pow(2).sum(),
    "rfft": lambda L, x: L.view_as_real(L.fft.rfft(x)).pow(2).sum(),
    "rfft_n": lambda L, x: L.fft.rfft(x, n=11).abs().sum(),
    "ihfft": lambda L, x: L.fft.ihfft(x, norm="forward").imag.sum(),
    "irfft": lambda L, x: L.fft.irfft(L.fft.rfft(x) * L.arange(5), n=8).pow(3).sum(),
    "hfft": lambda L, x: L.fft.hfft(L.fft.fft(x)[:, :5]).sin().sum(),
    "fft2": lambda L, x: L.fft.fft2(x).abs().sum(),
    "rfft2": lambda L, x: L.fft.rfft2(x).abs().pow(2).mean(),
    "irfft2": lambda L, x: L.fft.irfft2(L.fft.rfft2(x) * 2j, s=(2, 8)).cos().sum(),
    "fftn": lambda L, x: L.fft.fftn(x, s=(3, 6)).angle().sum(),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradients(torch: Any, name: str) -> None:
    torch.manual_seed(1)
    tx = torch.randn(2, 8, dtype=torch.float64, requires_grad=True)
    x = gt.tensor(tx.detach().numpy(), requires_grad=True)
    loss, theirs = LOSSES[name](gt, x), LOSSES[name](torch, tx)
    np.testing.assert_allclose(loss.item(), theirs.item(), rtol=1e-12)
    loss.backward()
    theirs.backward()
    np.testing.assert_allclose(_np(x.grad), _np(tx.grad), rtol=1e-9, atol=1e-10)
    base, eps = _np(x), 1e-6
    numeric = np.zeros_like(base)
    for i in np.ndindex(base.shape):
        up, down = base.copy(), base.copy()
        up[i] += eps
        down[i] -= eps
        numeric[i] = (LOSSES[name](gt, gt.tensor(up)).item()
                      - LOSSES[name](gt, gt.tensor(down)).item()) / (2 * eps)
    np.testing.assert_allclose(_np(x.grad), numeric, rtol=1e-5, atol=1e-6)


def test_complex_input_gradients(torch: Any) -> None:
    torch.manual_seed(2)
    tz = torch.randn(2, 6, dtype=torch.complex128, requires_grad=True)
    z = gt.tensor(tz.detach().numpy(), requires_grad=True)
    for f in (lambda L, v: L.fft.fft(v, n=9).abs().sum(),
              lambda L, v: L.fft.irfft(v).pow(2).sum(),
              lambda L, v: L.fft.hfft(v, n=8, norm="ortho").sum(),
              lambda L, v: L.fft.ifft2(v).real.sum()):
        z.grad = tz.grad = None
        f(gt, z).backward()
        f(torch, tz).backward()
        np.testing.assert_allclose(_np(z.grad), _np(tz.grad), rtol=1e-10, atol=1e-12)


def test_grad_fn_names(torch: Any) -> None:
    names = []
    for L in (gt, torch):
        x = L.ones(2, 8, requires_grad=True)
        z = L.ones(2, 5, dtype=L.cfloat, requires_grad=True)
        outs = (L.fft.fft(x), L.fft.ifft(x), L.fft.rfft(x), L.fft.irfft(z), L.fft.hfft(z),
                L.fft.fft(z), L.fft.fft(z, n=8), L.fft.fft2(x), L.fft.rfft2(x))
        names.append([(o.grad_fn.name(), [n[0].name() for n in o.grad_fn.next_functions
                                          if n[0] is not None]) for o in outs])
    assert names[0] == names[1]
