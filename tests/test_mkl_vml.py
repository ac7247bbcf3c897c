"""MKL's VML (gradsh/engine/vecmath/mkl.py): the functions PyTorch hands to VML give torch's bits.

With the `mkl` package loaded, gradsh's float32 and float64 exp, log, log2, log10, sin, cos, tan,
tanh, asin, acos, atan, erf, erfc, erfinv and sqrt are compared bit for bit with torch's on
random inputs over each function's range and on the special values; layouts (transposed,
strided, broadcast) keep PyTorch's output strides; GRADSH_MKL=0 falls back to the correctly
rounded stand-ins. Skipped where the package is not installed, a failure where CI requires it
(GRADSH_REQUIRE_MKL=1: .ci/run sets it on Linux x86-64).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import gradsh.torch as gt
from gradsh.engine.vecmath import mkl

# torch name -> (low, high) of the random inputs (most of each function's interesting range)
RANGES = {
    "exp": (-90.0, 90.0), "log": (0.0, 1e4), "log2": (0.0, 1e4), "log10": (0.0, 1e4),
    "sin": (-100.0, 100.0), "cos": (-100.0, 100.0), "tan": (-10.0, 10.0), "tanh": (-12.0, 12.0),
    "asin": (-1.0, 1.0), "acos": (-1.0, 1.0), "atan": (-50.0, 50.0), "erf": (-5.0, 5.0),
    "erfc": (-5.0, 12.0), "erfinv": (-1.0, 1.0), "sqrt": (0.0, 1e6),
}
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-40, -1e-40, 1e-30, 3e38, -3e38, 1e5, 1e20,
           float("inf"), float("-inf"), float("nan")]


@pytest.fixture(scope="module")
def vml() -> None:
    if not mkl.available():
        if os.environ.get("GRADSH_REQUIRE_MKL"):
            pytest.fail(f"GRADSH_REQUIRE_MKL is set but MKL's VML did not load: {mkl.reason()}")
        pytest.skip(f"MKL's VML is not loaded: {mkl.reason()}")


def _inputs(name: str, dtype: type) -> np.ndarray:
    low, high = RANGES[name]
    rng = np.random.default_rng(sorted(RANGES).index(name))
    wide = rng.uniform(low, high, 200_000)
    small = rng.uniform(low, high, 20_000) * 10.0 ** rng.uniform(-8, 0, 20_000)
    return np.concatenate([wide, small, SPECIAL]).astype(dtype)


def _bits(a: np.ndarray) -> np.ndarray:
    """Bit patterns, every NaN as one (torch and VML may differ in NaN payloads)."""
    a = np.where(np.isnan(a), np.nan, a).astype(a.dtype)
    return a.view(np.int32 if a.dtype == np.float32 else np.int64)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(RANGES))
def test_bits_match_torch(vml, torch, name: str, dtype: type) -> None:
    x = _inputs(name, dtype)
    ours = getattr(gt, name)(gt.from_numpy(x.copy())).numpy()
    theirs = getattr(torch, name)(torch.from_numpy(x.copy())).numpy()
    differ = np.flatnonzero(_bits(ours) != _bits(theirs))
    assert differ.size == 0, (f"{name} {np.dtype(dtype).name}: {differ.size} of {x.size} differ, "
                              f"e.g. x={x[differ[:3]]!r}: {ours[differ[:3]]!r} vs "
                              f"{theirs[differ[:3]]!r}")


def test_gradient_uses_vml(vml, torch) -> None:
    """sin's backward multiplies by cos(x): torch's cos there too."""
    x = np.random.default_rng(5).uniform(-50, 50, 4096).astype(np.float32)
    a, b = gt.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    gt.sin(a).sum().backward()
    torch.sin(b).sum().backward()
    assert np.array_equal(a.grad.numpy().view(np.int32), b.grad.numpy().view(np.int32))


@pytest.mark.parametrize("layout", ["transposed", "strided", "broadcast", "flipped", "scalar",
                                    "permuted"])
def test_layouts(vml, torch, layout: str) -> None:
    """Values and output strides as torch's for inputs that are not plain contiguous."""
    base = np.random.default_rng(6).uniform(-3, 3, (64, 48)).astype(np.float32)

    def make(lib):
        t = lib.from_numpy(base.copy())
        return {"transposed": lambda: t.t(), "strided": lambda: t[::2, 1::3],
                "broadcast": lambda: t[:1].expand(5, 48), "flipped": lambda: t.flip(0),
                "scalar": lambda: t[3, 4],
                "permuted": lambda: t.reshape(4, 16, 48).permute(2, 0, 1)}[layout]()

    ours, theirs = gt.tanh(make(gt)), torch.tanh(make(torch))
    assert ours.stride() == theirs.stride()
    assert np.array_equal(ours.numpy().view(np.int32), theirs.numpy().view(np.int32))


def test_inplace_and_out(vml, torch) -> None:
    x = np.random.default_rng(7).uniform(-20, 20, 1000).astype(np.float32)
    a, b = gt.tensor(x), torch.tensor(x)
    a.sin_()
    b.sin_()
    ours, theirs = gt.empty(1000), torch.empty(1000)
    gt.exp(gt.tensor(x), out=ours)
    torch.exp(torch.tensor(x), out=theirs)
    assert np.array_equal(a.numpy().view(np.int32), b.numpy().view(np.int32))
    assert np.array_equal(ours.numpy().view(np.int32), theirs.numpy().view(np.int32))


def test_reduced_floats_keep_their_kernels(vml, torch) -> None:
    """bfloat16 and float16 do not reach VML in ATen (vml.h's MKL entries are float and double
    only): they keep gradsh's float32-and-round path."""
    x = np.random.default_rng(8).uniform(-4, 4, 2000).astype(np.float32)
    for dtype in ("float16", "bfloat16"):
        ours = gt.tanh(gt.tensor(x).to(getattr(gt, dtype))).float().numpy()
        theirs = torch.tanh(torch.tensor(x).to(getattr(torch, dtype))).float().numpy()
        assert np.array_equal(ours, theirs), dtype


def test_without_mkl_the_stand_ins_are_correctly_rounded() -> None:
    """GRADSH_MKL=0: no VML; sin is the correctly rounded float32 value."""
    code = ("import numpy as np, gradsh.torch as t\n"
            "from gradsh.engine.vecmath import mkl\n"
            "x = np.random.default_rng(9).uniform(-10, 10, 50000).astype(np.float32)\n"
            "y = t.sin(t.from_numpy(x)).numpy()\n"
            "assert not mkl.available() and mkl.reason() == 'GRADSH_MKL=0'\n"
            "assert np.array_equal(y, np.sin(x.astype(np.float64)).astype(np.float32))\n"
            "print('ok')\n")
    env = dict(os.environ, GRADSH_MKL="0")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0 and proc.stdout == "ok\n", proc.stderr[-2000:]


def test_ctypes_calls_match_the_extension(vml) -> None:
    """Without the optional _blas extension, ctypes makes the same calls: same bits."""
    code = ("import sys, hashlib, numpy as np\n"
            "sys.modules['gradsh.engine.vecmath._blas'] = None\n" + _PROBE)
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    here = subprocess.run([sys.executable, "-c", "import hashlib, numpy as np\n" + _PROBE],
                          capture_output=True, text=True, env=env, timeout=120)
    assert here.returncode == 0, here.stderr[-2000:]
    assert proc.stdout == here.stdout and len(proc.stdout) > 10


_PROBE = """
import gradsh.torch as t
from gradsh.engine.vecmath import blas
r = np.random.default_rng(11)
x = t.from_numpy(r.uniform(-9, 9, (300, 70)).astype(np.float32))
w = t.from_numpy(r.standard_normal((50, 70)).astype(np.float32))
v = t.from_numpy(r.standard_normal(70).astype(np.float32))
b = t.from_numpy(r.standard_normal((6, 70, 40)).astype(np.float32))
outs = [x.tanh(), x.double().sin(), x @ w.T, t.nn.functional.linear(x, w, v[:50]), x @ v,
        v @ v, x.reshape(6, 50, 70).bmm(b)]
digest = hashlib.sha256(b"".join(o.numpy().tobytes() for o in outs)).hexdigest()
print(blas.available(), digest)
"""


def test_pow_half_is_torchs_sqrt(vml, torch) -> None:
    """x ** 0.5 takes pow's sqrt shortcut, which is torch.sqrt (MKL's vmsSqrt): the library's
    own result, on whatever code path VML picks for this CPU."""
    rng = np.random.default_rng(21)
    x = (rng.random(50_000) * 10.0 ** rng.integers(-20, 20, 50_000)).astype(np.float32)
    theirs = torch.from_numpy(x) ** 0.5
    ours = gt.from_numpy(x) ** 0.5
    assert np.array_equal(ours.numpy().view(np.int32), theirs.numpy().view(np.int32))
    assert np.array_equal(gt.pow(gt.from_numpy(x), 0.5).numpy(),
                          torch.sqrt(torch.from_numpy(x)).numpy())
