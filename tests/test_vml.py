"""MKL VML's float32 sqrt (vmsSqrt, what torch.sqrt, x ** 0.5 and the optimizers' sqrt run),
reproduced by gradsh.engine.vecmath.vml: bit for bit against PyTorch 2.13 over whole binades,
every subnormal sample, random bit patterns and the special values, in any layout; and the
optimizers that take square roots (Adam, RMSprop, Adagrad) stay PyTorch's bits over hundreds
of steps."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.engine.vecmath import vml

F32 = np.float32


@pytest.fixture(scope="module")
def torch(torch: Any) -> Any:
    """conftest's torch, where torch.sqrt is MKL's AVX-512 vmsSqrt (the one reproduced)."""
    if torch.backends.cpu.get_cpu_capability() != "AVX512" or not torch.backends.mkl.is_available():
        pytest.skip("gradsh reproduces the AVX-512 MKL build's sqrt")
    return torch


def _bits(x: Any) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(x, F32)).view(np.uint32)


def _check(torch: Any, x: np.ndarray) -> None:
    theirs = torch.sqrt(torch.from_numpy(x)).numpy()
    ours = gtorch.sqrt(gtorch.from_numpy(x)).numpy()
    same = _bits(ours) == _bits(theirs)
    if not same.all():
        bad = np.flatnonzero(~same)[:5]
        raise AssertionError(f"{(~same).sum()} differ, e.g. sqrt({x[bad]!r}) = {ours[bad]!r}, "
                             f"torch {theirs[bad]!r}")


def _binade_sample(first: int, last: int, step: int) -> np.ndarray:
    return np.arange(first, last, step, dtype=np.uint32).view(F32)


def test_sqrt_on_one_and_two_binades(torch: Any, one_thread: None) -> None:
    """[1, 4): the two binades every positive number reduces to (every 7th value: 2.4M)."""
    _check(torch, _binade_sample(0x3F800000, 0x40800000, 7))


def test_sqrt_of_subnormals_and_tiny_or_huge_normals(torch: Any, one_thread: None) -> None:
    """Where the Newton step itself would underflow or overflow, VML's result still scales."""
    _check(torch, _binade_sample(1, 0x00800000, 13))
    _check(torch, _binade_sample(0x00800000, 0x06000000, 101))
    _check(torch, _binade_sample(0x7E000000, 0x7F800000, 101))


def test_sqrt_of_random_bit_patterns_and_specials(torch: Any, one_thread: None) -> None:
    """Negative numbers (MKL's nan), nans, infinities and zeros too."""
    rng = np.random.default_rng(5)
    x = rng.integers(0, 2**32, 500_000, dtype=np.uint64).astype(np.uint32).view(F32)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, -1.0, -1e-45, 1e-45,
                         3.4028235e38, 1.0, 4.0, 2.0, 0.25], F32)
    _check(torch, np.concatenate([x, specials]))


def test_sqrt_in_every_layout_and_spelling(torch: Any, one_thread: None) -> None:
    """Strided and transposed inputs, x ** 0.5, torch.pow and sqrt_ are the same kernel."""
    x = (np.random.default_rng(6).random((300, 70)) * 50).astype(F32)
    t, g = torch.from_numpy(x), gtorch.from_numpy(x)
    pairs = [(t.T.sqrt(), g.T.sqrt()), (t[::3, 1::2].sqrt(), g[::3, 1::2].sqrt()),
             (t ** 0.5, g ** 0.5), (torch.pow(t, 0.5), gtorch.pow(g, 0.5)),
             (t.clone().sqrt_(), g.clone().sqrt_())]
    for theirs, ours in pairs:
        assert ours.shape == tuple(theirs.shape)
        assert (_bits(ours.numpy()) == _bits(theirs.numpy())).all()
    for n in range(1, 40):  # the vector loop's tails
        _check(torch, x.reshape(-1)[:n] + F32(n))


def test_rsqrt14_is_within_its_specified_error() -> None:
    """VRSQRT14PS's bound, 2**-14 relative, on every input it distinguishes (the top 15
    fraction bits of [1, 2) and [2, 4)), and the exact 1.0 of its special case."""
    top = np.arange(1 << 15, dtype=np.uint32) << 8
    x = np.concatenate([top | 0x3F800000, top | 0x40000000, top | 0x3F8000FF]).view(F32)
    y = vml.rsqrt14(x).astype(np.float64)
    error = np.abs(y * np.sqrt(x.astype(np.float64)) - 1)
    assert error.max() < 2.0**-14
    assert vml.rsqrt14(np.array([1.0, 4.0, 0.25], F32)).tolist() == [1.0, 0.5, 2.0]


_TRAINING = """
torch.manual_seed(0)
X = torch.randn(200, 8)
y = torch.randn(200, 1)
model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
opt = OPTIMIZER(model.parameters(), lr=LR)
losses = []
for i in range(STEPS):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
result = (losses, [p.detach().numpy().copy() for p in model.parameters()])
"""


@pytest.mark.parametrize("optimizer, lr, steps", [("Adam", 0.01, 300), ("RMSprop", 0.003, 150),
                                                  ("Adagrad", 0.05, 150),
                                                  ("AdamW", 0.01, 150)])
def test_optimizers_that_take_square_roots_keep_torchs_bits(
        torch: Any, one_thread: None, optimizer: str, lr: float, steps: int) -> None:
    """Each step's sqrt of the running squares: one differing bit would grow over the steps."""
    code = _TRAINING.replace("OPTIMIZER", f"torch.optim.{optimizer}").replace(
        "LR", repr(lr)).replace("STEPS", str(steps))
    results = []
    for module in (torch, gtorch):
        scope: dict[str, Any] = {"torch": module}
        exec(code, scope)
        results.append(scope["result"])
    (theirs, their_params), (ours, our_params) = results
    assert ours == theirs
    for mine, reference in zip(our_params, their_params):
        assert (_bits(mine) == _bits(reference)).all()
