"""gradsh.engine.vecmath against PyTorch 2.13's float32 CPU kernels, bit for bit, and its
independence from the SIMD level NumPy runs at (docs/float32.md)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable

import numpy as np
import pytest

from gradsh.engine.vecmath import blas
from gradsh.engine.vecmath import kernels as K
from gradsh.engine.vecmath.layout import mask_for, simd_mask

F32 = np.float32
N_RANDOM = 10_000

SPECIALS = np.array(
    [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
     1e-45, -1e-45, 1e-40, -1e-40, 1.1754942e-38, -1.1754942e-38, 1.1754944e-38,
     3.4028235e38, -3.4028235e38, 1e30, -1e30, 2.0**-25, 2.0**-60, -2.0**-60,
     20.0, 20.000002, -20.0, 88.72283, 88.72284, -87.33655, -103.97208, -104.0, 104.0,
     8.664339, 8.66434, 9.01, -16.635532, -16.64, 0.41421, -0.2929, -0.99999994, 1e10, -1e10],
    dtype=F32)


def _inputs(seed: int, scale: float, log_lo: float, log_hi: float) -> np.ndarray:
    """N_RANDOM values over an op's useful range (half uniform, half log-uniform magnitudes)
    plus the special values; the length leaves a tail after the 32-element vector blocks."""
    rng = np.random.default_rng(seed)
    half = N_RANDOM // 2
    uniform = rng.uniform(-scale, scale, half)
    mags = 10.0 ** rng.uniform(log_lo, log_hi, N_RANDOM - half)
    logs = rng.choice([-1.0, 1.0], N_RANDOM - half) * mags
    x = np.concatenate([uniform, logs]).astype(F32)
    rng.shuffle(x)
    return np.concatenate([x, SPECIALS])


@pytest.fixture(scope="module")
def torch(torch):
    """conftest's torch, when its CPU kernels are the AVX-512 ones vecmath reproduces (on an
    AVX2 machine PyTorch runs 8-lane SLEEF code, 16-element blocks and other MKL code paths,
    hence other bits)."""
    capability = torch.backends.cpu.get_cpu_capability()
    if capability != "AVX512":
        pytest.skip(f"vecmath reproduces PyTorch's AVX512 kernels; this torch uses {capability}")
    return torch


def _same_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a, F32)
    b = np.ascontiguousarray(b, F32)
    return (a.view(np.int32) == b.view(np.int32)) | (np.isnan(a) & np.isnan(b))


def _assert_bits(name: str, ours: np.ndarray, theirs: np.ndarray, x: np.ndarray) -> None:
    same = _same_bits(ours, theirs)
    if not same.all():
        bad = np.flatnonzero(~same.reshape(-1))[:5]
        pytest.fail(f"{name}: {int((~same).sum())} of {same.size} differ, e.g. x="
                    f"{x.reshape(-1)[bad]} ours={ours.reshape(-1)[bad]} "
                    f"torch={theirs.reshape(-1)[bad]}")


# name -> (gradsh kernel, torch function name, whether it takes a `simd` mask, input range)
EXACT: dict[str, tuple[Callable[..., np.ndarray], str, bool, tuple[float, float, float]]] = {
    "sigmoid": (K.sigmoid, "sigmoid", True, (30.0, -30, 2.5)),
    "silu": (K.silu, "nn.functional.silu", True, (30.0, -30, 2.5)),
    "softplus": (K.softplus, "nn.functional.softplus", True, (30.0, -30, 2.5)),
    "elu": (K.elu, "nn.functional.elu", True, (30.0, -30, 2.5)),
    "mish": (K.mish, "nn.functional.mish", True, (30.0, -30, 2.5)),
    "logsigmoid": (K.logsigmoid, "nn.functional.logsigmoid", False, (30.0, -30, 2.5)),
    "expm1": (K.expm1, "expm1", False, (90.0, -30, 2.1)),
    "log1p": (K.log1p, "log1p", False, (2.0, -40, 38)),
    "rsqrt": (K.rsqrt, "rsqrt", False, (100.0, -40, 38)),
    "sinh": (K.sinh, "sinh", True, (95.0, -30, 2.0)),
    "cosh": (K.cosh, "cosh", True, (95.0, -30, 2.0)),
    "exp2": (K.exp2, "exp2", True, (160.0, -30, 2.2)),
}


def _torch_fn(torch, dotted: str) -> Callable:
    fn = torch
    for part in dotted.split("."):
        fn = getattr(fn, part)
    return fn


def _run(name: str, x: np.ndarray, simd: np.ndarray | None) -> np.ndarray:
    kernel, _, takes_mask, _ = EXACT[name]
    return kernel(x, simd=simd) if takes_mask else kernel(x)


@pytest.mark.parametrize("name", list(EXACT))
def test_contiguous_and_strided_match_torch_bit_for_bit(torch, name: str) -> None:
    _, dotted, _, (scale, lo, hi) = EXACT[name]
    fn = _torch_fn(torch, dotted)
    x = _inputs(sum(map(ord, name)), scale, lo, hi)
    theirs = fn(torch.from_numpy(x)).numpy()
    _assert_bits(f"{name} contiguous", _run(name, x, simd_mask(x.shape)), theirs, x)
    # every other element of a doubled buffer: a strided view, all scalar in ATen's loop
    doubled = np.repeat(x, 2)
    view = doubled[::2]
    theirs = fn(torch.from_numpy(doubled)[::2]).numpy()
    _assert_bits(f"{name} strided", _run(name, view, mask_for(view)), theirs, x)
    # a transposed 2-D tensor: vectorised in memory order, not in logical order
    square = x[:100 * 97].reshape(100, 97)
    t_view = square.T
    theirs = fn(torch.from_numpy(square).T).numpy()
    _assert_bits(f"{name} transposed", _run(name, t_view, mask_for(t_view)), theirs, t_view)


@pytest.mark.parametrize("name", list(EXACT))
def test_every_short_length_and_0d_match_torch(torch, name: str) -> None:
    """Lengths 1..70 put each element in a vector block or in the scalar tail."""
    _, dotted, _, (scale, lo, hi) = EXACT[name]
    fn = _torch_fn(torch, dotted)
    x = _inputs(7 + len(name), scale, lo, hi)[:70]
    for n in range(1, 71):
        part = x[:n]
        _assert_bits(f"{name} n={n}", _run(name, part, simd_mask(part.shape)),
                     fn(torch.from_numpy(part)).numpy(), part)
    zero_d = x[3:4].reshape(())
    _assert_bits(f"{name} 0-d", _run(name, zero_d, simd_mask(())),
                 fn(torch.from_numpy(zero_d)).numpy(), zero_d)


def test_large_tensors_split_among_threads_match_torch(torch) -> None:
    """Past 32768 elements each thread's chunk has its own scalar tail."""
    x = _inputs(99, 30.0, -30, 2.5)
    x = np.concatenate([x] * 7)[:70_001]
    mask = mask_for(x, threads=torch.get_num_threads())
    theirs = torch.sigmoid(torch.from_numpy(x)).numpy()
    _assert_bits("sigmoid 70001", K.sigmoid(x, simd=mask), theirs, x)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("width", [1, 5, 15, 16, 17, 33, 100, 1000])
def test_softmax_last_dim_matches_torch(torch, name: str, width: int) -> None:
    rng = np.random.default_rng(width)
    x = (rng.standard_normal((max(1, N_RANDOM // width), width)) * 8).astype(F32)
    x[0, 0] = np.inf if width > 1 else x[0, 0]
    x[-1, -1] = -np.inf
    theirs = getattr(torch, name)(torch.from_numpy(x), -1).numpy()
    _assert_bits(name, getattr(K, name)(x), theirs, x)


@pytest.mark.parametrize("shape,dim", [((37, 50), 0), ((5, 37, 20), 1), ((3, 64), 0),
                                       ((10, 7, 33), 1), ((3000, 4), 0), ((20, 200, 9), 1)])
def test_softmax_other_dims_match_torch(torch, shape: tuple[int, ...], dim: int) -> None:
    """_vec_softmax splits the columns among threads (vector blocks of 16, scalar tails);
    _vec_logsoftmax works in chunks of columns."""
    rng = np.random.default_rng(len(shape) * 100 + dim)
    x = (rng.standard_normal(shape) * 8).astype(F32)
    x.flat[3] = np.inf
    x.flat[-2] = -np.inf
    t = torch.from_numpy(x)
    _assert_bits("softmax", K.softmax(x, dim, threads=torch.get_num_threads()),
                 torch.softmax(t, dim).numpy(), x)
    _assert_bits("log_softmax", K.log_softmax(x, dim), torch.log_softmax(t, dim).numpy(), x)


@pytest.mark.parametrize("exponent", [2.5, -1.7, 1 / 3, 4.0, 5.0, -3.0, 0.1, 100.0, 0.0, 1.0, 2.0,
                                      3.0, -1.0, -2.0, -0.5])
def test_pow_number_exponent_matches_torch(torch, exponent: float) -> None:
    """The vector side rounds the exponent to float, the scalar side keeps it double."""
    x = _inputs(int(exponent * 100) % 997, 10.0, -6, 6)
    for part in (x, x[:45], x[3:10], x[::3]):
        part = np.ascontiguousarray(part)
        _assert_bits(f"pow {exponent}", K.pow(part, exponent),
                     torch.pow(torch.from_numpy(part), exponent).numpy(), part)
    g = np.random.default_rng(1).standard_normal(x.size).astype(F32)
    base = np.abs(x)
    leaf = torch.from_numpy(base).requires_grad_()
    (grad,) = torch.autograd.grad(torch.pow(leaf, exponent), leaf, torch.from_numpy(g))
    if exponent != 1.5:  # pow(x, 0.5) would be MKL's sqrt
        _assert_bits(f"pow {exponent} backward", K.pow_backward(g, base, exponent),
                     grad.numpy(), base)


def test_pow_tensor_exponent_matches_torch(torch) -> None:
    x = _inputs(3, 10.0, -6, 6)
    y = np.random.default_rng(4).standard_normal(x.size).astype(F32) * F32(4)
    y[:44] = SPECIALS
    for a, b in ((x, y), (x[:45], y[:45]), (np.abs(x), y), (x[:7], np.round(y[:7]))):
        a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
        _assert_bits("pow tensor", K.pow(a, b),
                     torch.pow(torch.from_numpy(a), torch.from_numpy(b)).numpy(), a)


def test_gelu_matches_torch_on_every_path(torch) -> None:
    """oneDNN for contiguous tensors of 2+ elements; ATen's kernel (vector: its erf polynomial,
    scalar: glibc erff) for one element and strided views; tanh approximation always ATen."""
    F = torch.nn.functional
    x = _inputs(21, 8.0, -30, 1.3)
    g = np.random.default_rng(21).standard_normal(x.size).astype(F32)
    doubled = np.repeat(x, 2)
    view = doubled[::2]
    for approximate in ("none", "tanh"):
        _assert_bits(f"gelu {approximate}", K.gelu(x, approximate),
                     F.gelu(torch.from_numpy(x), approximate=approximate).numpy(), x)
        _assert_bits(f"gelu {approximate} strided",
                     K.gelu(view, approximate, contiguous=False, simd=mask_for(view)),
                     F.gelu(torch.from_numpy(doubled)[::2], approximate=approximate).numpy(), x)
        one = x[5:6]
        _assert_bits(f"gelu {approximate} one element", K.gelu(one, approximate),
                     F.gelu(torch.from_numpy(one), approximate=approximate).numpy(), one)
    leaf = torch.from_numpy(x).requires_grad_()
    (grad,) = torch.autograd.grad(F.gelu(leaf), leaf, torch.from_numpy(g))
    _assert_bits("gelu backward", K.gelu_backward(g, x), grad.numpy(), x)
    leaf = torch.from_numpy(doubled).requires_grad_()
    (grad,) = torch.autograd.grad(F.gelu(leaf[::2]), leaf, torch.from_numpy(g))
    _assert_bits("gelu backward strided",
                 K.gelu_backward(g, view, contiguous=False, simd=mask_for(view)),
                 grad.numpy()[::2], x)
    for name, xs, gs, kw in (("", x, g, {}), (" strided", view, g, {
            "contiguous": False, "simd": mask_for(view)}), (" one element", x[5:6], g[5:6], {})):
        ref = torch.from_numpy(doubled)[::2] if kw else torch.from_numpy(np.array(xs))
        theirs = torch.ops.aten.gelu_backward(torch.from_numpy(np.array(gs)), ref,
                                              approximate="tanh")
        _assert_bits("gelu tanh backward" + name,
                     K.gelu_backward(gs, xs, approximate="tanh", **kw), theirs.numpy(), xs)
    square = x[:64 * 64].reshape(64, 64)
    g2 = g[:64 * 64].reshape(64, 64)
    theirs = torch.ops.aten.gelu_backward(torch.from_numpy(g2).T, torch.from_numpy(square).T)
    _assert_bits("gelu backward transposed",
                 K.gelu_backward(g2.T, square.T, contiguous=False, simd=mask_for(square.T)),
                 theirs.numpy(), square.T)


def test_atan2_matches_torch(torch) -> None:
    y = _inputs(31, 10.0, -40, 38)
    x = np.random.default_rng(32).permutation(_inputs(33, 10.0, -40, 38))
    x[:44] = SPECIALS[::-1]
    for a, b in ((y, x), (y[:45], x[:45]), (y[:7], x[:7])):
        a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
        _assert_bits("atan2", K.atan2(a, b),
                     torch.atan2(torch.from_numpy(a), torch.from_numpy(b)).numpy(), a)


def test_softplus_and_elu_parameters_match_torch(torch) -> None:
    x = _inputs(5, 30.0, -30, 2.5)
    F = torch.nn.functional
    t = torch.from_numpy(x)
    _assert_bits("softplus beta=2 threshold=5", K.softplus(x, beta=2.0, threshold=5.0),
                 F.softplus(t, beta=2.0, threshold=5.0).numpy(), x)
    _assert_bits("elu alpha=0.3", K.elu(x, alpha=0.3), F.elu(t, alpha=0.3).numpy(), x)
    _assert_bits("selu", K.elu(x, alpha=1.6732632423543772, scale=1.0507009873554805),
                 torch.selu(t).numpy(), x)


@pytest.mark.parametrize("n", [7, 45, N_RANDOM + 13])
def test_tanh_and_sigmoid_backward_match_torch(torch, n: int) -> None:
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(n) * 4).astype(F32)
    g = rng.standard_normal(n).astype(F32)
    for name, backward in [("tanh", K.tanh_backward), ("sigmoid", K.sigmoid_backward)]:
        leaf = torch.from_numpy(x).requires_grad_()
        out = getattr(torch, name)(leaf)
        (grad,) = torch.autograd.grad(out, leaf, torch.from_numpy(g))
        y = out.detach().numpy()
        _assert_bits(f"{name} backward", backward(g, y), grad.numpy(), x)


BACKWARD = {
    "softplus": K.softplus_backward, "silu": K.silu_backward, "elu": K.elu_backward,
    "mish": K.mish_backward, "logsigmoid": K.logsigmoid_backward,
}


@pytest.mark.parametrize("name", list(BACKWARD))
@pytest.mark.parametrize("n", [7, 45, N_RANDOM + 13])
def test_activation_backward_matches_torch(torch, name: str, n: int) -> None:
    x = _inputs(n + len(name), 30.0, -30, 2.5)[:n]
    g = np.random.default_rng(n).standard_normal(n).astype(F32)
    leaf = torch.from_numpy(x).requires_grad_()
    out = _torch_fn(torch, EXACT[name][1])(leaf)
    (grad,) = torch.autograd.grad(out, leaf, torch.from_numpy(g))
    _assert_bits(f"{name} backward", BACKWARD[name](g, x), grad.numpy(), x)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("width", [1, 5, 16, 37, 100])
def test_softmax_backward_matches_torch(torch, name: str, width: int) -> None:
    rng = np.random.default_rng(width)
    x = (rng.standard_normal((200, width)) * 4).astype(F32)
    g = rng.standard_normal((200, width)).astype(F32)
    leaf = torch.from_numpy(x).requires_grad_()
    out = getattr(torch, name)(leaf, -1)
    (grad,) = torch.autograd.grad(out, leaf, torch.from_numpy(g))
    if name == "softmax":  # which copy of its loop runs depends on the thread count
        ours = K.softmax_backward(g, out.detach().numpy(), threads=torch.get_num_threads())
    else:
        ours = K.log_softmax_backward(g, out.detach().numpy())
    _assert_bits(f"{name} backward", ours, grad.numpy(), x)


# ---- MKL VML ops: correctly rounded stand-ins -------------------------------------------------
# (sqrt is not one: vecmath/vml.py reproduces MKL's, tests/test_vml.py)

# The share of inputs on which MKL's VML_HA result equals the correctly rounded one, measured on
# this project's reference machine (docs/float32.md); the assertions leave a small margin.
MKL_STANDINS = {
    "exp": (K.exp, (90.0, -40, 2.0), 0.985),
    "log": (K.log, (100.0, -44, 38), 0.999),
    "tanh": (K.tanh, (10.0, -30, 1.3), 0.99),
    "sin": (K.sin, (10.0, -30, 9), 0.95),
    "cos": (K.cos, (10.0, -30, 9), 0.94),
    "tan": (K.tan, (10.0, -30, 9), 0.985),
    "log2": (K.log2, (100.0, -44, 38), 0.999),
    "log10": (K.log10, (100.0, -44, 38), 0.999),
    "atan": (K.atan, (10.0, -30, 30), 0.999),
    "asin": (K.asin, (1.0, -30, 0), 0.95),
    "acos": (K.acos, (1.0, -30, 0), 0.93),
    "erf": (K.erf, (5.0, -30, 0.7), 0.95),
}


@pytest.mark.parametrize("name", list(MKL_STANDINS))
def test_mkl_standins_are_correctly_rounded(name: str) -> None:
    mpmath = pytest.importorskip("mpmath")
    kernel, (scale, lo, hi), _ = MKL_STANDINS[name]
    x = _inputs(11 + len(name), scale, lo, hi)[::4]
    x = x[np.isfinite(x) & ((x > 0) if name.startswith("log") else True)]
    x = x[(np.abs(x) <= 1) if name in ("asin", "acos") else slice(None)]
    ours = kernel(x)
    mpmath.mp.prec = 160
    fn = (lambda v: mpmath.log(v, 2)) if name == "log2" else getattr(mpmath, name)
    for xi, yi in zip(x, ours):
        exact = fn(mpmath.mpf(float(xi)))
        below, above = np.nextafter(yi, F32(-np.inf)), np.nextafter(yi, F32(np.inf))
        # yi is correctly rounded iff the exact value is within half the gaps around it
        lo_mid = (mpmath.mpf(float(below)) + mpmath.mpf(float(yi))) / 2
        hi_mid = (mpmath.mpf(float(above)) + mpmath.mpf(float(yi))) / 2
        if np.isfinite(above) and np.isfinite(below) and yi != 0:
            assert lo_mid <= exact <= hi_mid, f"{name}({xi!r}) = {yi!r}, exact {exact}"


@pytest.mark.parametrize("name", list(MKL_STANDINS))
def test_mkl_standins_agree_with_torch(torch, name: str) -> None:
    if not blas.genuine_intel():  # VML's code path, and so its accuracy, is chosen by vendor
        pytest.skip("the agreement rates are MKL VML's on Intel CPUs; this CPU's VML takes "
                    "another path (on an AMD EPYC tan agreed on 90%)")
    kernel, (scale, lo, hi), rate = MKL_STANDINS[name]
    x = _inputs(13 + len(name), scale, lo, hi)
    ours = kernel(x)
    theirs = getattr(torch, name)(torch.from_numpy(x)).numpy()
    same = _same_bits(ours, theirs)
    assert same.mean() >= rate
    finite = np.isfinite(theirs) & ~same
    gap = np.abs(ours[finite].view(np.int32).astype(np.int64)
                 - theirs[finite].view(np.int32).astype(np.int64))
    assert (gap <= 1).all()  # never more than one ulp apart
    special = ~np.isfinite(x) | (x == 0)
    assert _same_bits(ours[special], theirs[special]).all()


# ---- independence from NumPy's SIMD level -----------------------------------------------------

_DIGEST_SCRIPT = """
import hashlib, numpy as np
from gradsh.engine.vecmath import blas
from gradsh.engine.vecmath import kernels as K
rng = np.random.default_rng(2024)
x = np.concatenate([rng.uniform(-40, 40, 4001), rng.standard_normal(4001) * 1e4]).astype(np.float32)
h = hashlib.sha256()
for name in %r:
    h.update(np.ascontiguousarray(getattr(K, name)(x)).tobytes())
h.update(K.softmax(x[:4000].reshape(40, 100)).tobytes())
h.update(K.log_softmax(x[:4000].reshape(40, 100)).tobytes())
print(h.hexdigest())
"""
_ALL = ["exp", "log", "tanh", "sin", "cos", "tan", "log2", "log10", "atan", "asin", "acos",
        "erf", "sigmoid", "silu", "softplus", "elu", "mish", "logsigmoid", "expm1", "log1p",
        "sqrt", "rsqrt", "sinh", "cosh", "exp2"]


def _digest(env: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, "-c", _DIGEST_SCRIPT % (_ALL,)], env=env,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_results_do_not_depend_on_numpys_simd_level() -> None:
    from numpy._core._multiarray_umath import __cpu_dispatch__

    avx512 = [f for f in __cpu_dispatch__ if f.startswith("AVX512") or f == "X86_V4"]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
        + env.get("PYTHONPATH", "").split(os.pathsep))
    full = _digest(env)
    env["NPY_DISABLE_CPU_FEATURES"] = " ".join(avx512)
    assert _digest(env) == full


def test_short_row_reductions_fold_left_to_right_bit_for_bit() -> None:
    # reduce_last's whole-array forms for rows under 16 lanes (a cumulative sum, a max with
    # the last zero's sign and canonical NaNs) against the plain left fold they replace
    from gradsh.engine.vecmath import vecreduce

    rng = np.random.default_rng(0)
    payload = np.array([0x7FC01234], np.int32).view(np.float32)
    specials = np.concatenate([np.array([0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 2.5],
                                        np.float32), payload])
    with np.errstate(all="ignore"):
        for n in range(2, vecreduce.LANES):
            for data in (rng.choice(specials, size=(2000, n)),
                         rng.standard_normal((200, n)).astype(np.float32)):
                for fold in (vecreduce.maximum, vecreduce.add):
                    expected = data[:, 0].copy()
                    for j in range(1, n):
                        expected = fold(expected, data[:, j])
                    got = vecreduce.reduce_last(data, fold)
                    assert got.view(np.int32).tolist() == expected.view(np.int32).tolist()
