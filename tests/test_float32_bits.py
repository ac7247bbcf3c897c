"""gradsh's float32 tensor ops against PyTorch 2.13's bits (docs/float32.md): the ops whose kernels
gradsh reproduces give torch's bits on 10,000 random inputs and the special values, forward and
backward, contiguous, strided and transposed, past the 32,768 elements where PyTorch splits its
loops (with torch.set_num_threads(1) and 2 on both sides); the ops PyTorch hands to MKL give the
correctly rounded value, never more than one ulp from torch's; sums, means, var, std, cumsum
and cross_entropy give torch's bits for any layout; and every result is the same whatever SIMD
code NumPy runs."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from test_vecmath import SPECIALS, _inputs

import gradsh.torch as gtorch
from gradsh.engine import threads

F32 = np.float32


@pytest.fixture(scope="module")
def torch(torch: Any) -> Any:
    """conftest's torch, where its kernels are the AVX-512 ones reproduced (as test_vecmath)."""
    capability = torch.backends.cpu.get_cpu_capability()
    if capability != "AVX512":
        pytest.skip(f"gradsh reproduces PyTorch's AVX512 kernels; this torch uses {capability}")
    return torch


def _bits_equal(ours: Any, theirs: Any) -> np.ndarray:
    a = np.ascontiguousarray(np.asarray(ours), F32)
    b = np.ascontiguousarray(np.asarray(theirs), F32)
    assert a.shape == b.shape, f"shape {a.shape} != torch {b.shape}"
    return (a.view(np.int32) == b.view(np.int32)) | (np.isnan(a) & np.isnan(b))


def _assert_bits(name: str, ours: Any, theirs: Any, x: np.ndarray) -> None:
    same = _bits_equal(ours, theirs)
    if not same.all():
        bad = np.flatnonzero(~same.reshape(-1))[:5]
        flat = np.asarray(x).reshape(-1)
        pytest.fail(f"{name}: {int((~same).sum())} of {same.size} differ, e.g. x="
                    f"{flat[bad] if flat.size == same.size else '...'} "
                    f"ours={np.asarray(ours).reshape(-1)[bad]} "
                    f"torch={np.asarray(theirs).reshape(-1)[bad]}")


# op -> (function of a torch-like namespace and a tensor, input range (scale, log_lo, log_hi))
EXACT_UNARY: dict[str, tuple[Callable[[Any, Any], Any], tuple[float, float, float]]] = {
    "sigmoid": (lambda m, x: m.sigmoid(x), (30.0, -30, 2.5)),
    "silu": (lambda m, x: m.nn.functional.silu(x), (30.0, -30, 2.5)),
    "softplus": (lambda m, x: m.nn.functional.softplus(x), (30.0, -30, 2.5)),
    "softplus_beta": (lambda m, x: m.nn.functional.softplus(x, 2.0, 5.0), (30.0, -30, 2.5)),
    "elu": (lambda m, x: m.nn.functional.elu(x, 0.7), (30.0, -30, 2.5)),
    "selu": (lambda m, x: m.nn.functional.selu(x), (30.0, -30, 2.5)),
    "celu": (lambda m, x: m.nn.functional.celu(x, 1.3), (30.0, -30, 2.5)),
    "mish": (lambda m, x: m.nn.functional.mish(x), (30.0, -30, 2.5)),
    "logsigmoid": (lambda m, x: m.nn.functional.logsigmoid(x), (30.0, -30, 2.5)),
    "gelu": (lambda m, x: m.nn.functional.gelu(x), (8.0, -30, 1.3)),
    "gelu_tanh": (lambda m, x: m.nn.functional.gelu(x, approximate="tanh"), (8.0, -30, 1.3)),
    "expm1": (lambda m, x: m.expm1(x), (90.0, -30, 2.1)),
    "log1p": (lambda m, x: m.log1p(x), (2.0, -40, 38)),
    "rsqrt": (lambda m, x: m.rsqrt(x), (100.0, -40, 38)),
    "sinh": (lambda m, x: m.sinh(x), (95.0, -30, 2.0)),
    "cosh": (lambda m, x: m.cosh(x), (95.0, -30, 2.0)),
    "exp2": (lambda m, x: m.exp2(x), (160.0, -30, 2.2)),
    "pow_2.5": (lambda m, x: m.abs(x) ** 2.5, (10.0, -6, 6)),
    "pow_-1.7": (lambda m, x: x ** -1.7, (10.0, -6, 6)),
    "pow_3": (lambda m, x: x.pow(3), (10.0, -6, 6)),
    "rpow": (lambda m, x: 2 ** x, (160.0, -30, 2.2)),
}

# backward through these: torch's gradient bits on a random gradient
EXACT_BACKWARD = ["sigmoid", "silu", "softplus", "softplus_beta", "elu", "selu", "celu", "mish",
                  "logsigmoid", "gelu", "gelu_tanh", "pow_2.5", "pow_-1.7", "pow_3", "rpow"]


def _pair(torch: Any, x: np.ndarray) -> tuple[Any, Any]:
    return torch.from_numpy(x.copy()), gtorch.from_numpy(x.copy())


def _run(torch: Any, name: str, x: np.ndarray, layout: str = "contiguous",
         backward: bool = False) -> tuple[Any, Any]:
    """The op on torch and on gradsh, on x laid out as `layout`; with backward, the input's
    gradient for a random output gradient instead of the output."""
    fn = EXACT_UNARY[name][0]
    results = []
    for m in (torch, gtorch):
        base = m.from_numpy(np.repeat(x, 2) if layout == "strided" else x.copy())
        if backward:
            base.requires_grad_(True)
        t = base[::2] if layout == "strided" else base
        if layout == "transposed":
            t = base[:100 * 97].reshape(100, 97).T
        y = fn(m, t)
        if not backward:
            results.append(y.detach().numpy())
            continue
        g = np.random.default_rng(len(name)).standard_normal(tuple(y.shape)).astype(F32)
        y.backward(m.from_numpy(g))
        grad = base.grad.numpy()
        results.append(grad[::2] if layout == "strided" else grad)
    return results[0], results[1]


@pytest.mark.parametrize("name", list(EXACT_UNARY))
@pytest.mark.parametrize("layout", ["contiguous", "strided", "transposed"])
def test_exact_ops_give_torchs_bits(torch: Any, one_thread: None, name: str,
                                    layout: str) -> None:
    scale, lo, hi = EXACT_UNARY[name][1]
    x = _inputs(sum(map(ord, name)), scale, lo, hi)
    theirs, ours = _run(torch, name, x, layout)
    _assert_bits(f"{name} {layout}", ours, theirs, x)


@pytest.mark.parametrize("name", EXACT_BACKWARD)
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_exact_backward_gives_torchs_bits(torch: Any, one_thread: None, name: str,
                                          layout: str) -> None:
    scale, lo, hi = EXACT_UNARY[name][1]
    x = _inputs(sum(map(ord, name)) + 1, scale, lo, hi)
    x = x[np.isfinite(x) & (np.abs(x) < 1e4)]  # keep the gradients away from inf - inf
    theirs, ours = _run(torch, name, x, layout, backward=True)
    _assert_bits(f"{name} backward {layout}", ours, theirs, x)


@pytest.mark.parametrize("count", [1, 2])
def test_large_tensors_follow_torchs_thread_split(torch: Any, count: int) -> None:
    """Past 32,768 elements each thread's range has its own scalar tail, and sums are cut per
    thread: torch.set_num_threads(n) on both sides gives the same bits."""
    previous, our_threads = torch.get_num_threads(), threads.torch_threads()
    torch.set_num_threads(count)
    gtorch.set_num_threads(count)
    try:
        x = np.concatenate([_inputs(5, 30.0, -30, 2.5)] * 8)[:70_001]
        for name in ("sigmoid", "silu", "mish", "gelu_tanh"):
            theirs, ours = _run(torch, name, x)
            _assert_bits(f"{name} 70001 threads={count}", ours, theirs, x)
        data = np.random.default_rng(count).standard_normal((301, 233)).astype(F32)
        t, g = _pair(torch, data)
        for dims in (None, 0, 1):
            _assert_bits(f"sum {dims}", g.sum(dims) if dims is not None else g.sum(),
                         t.sum(dims) if dims is not None else t.sum(), data)
        _assert_bits("var", g.var(), t.var(), data)
    finally:
        torch.set_num_threads(previous)
        gtorch.set_num_threads(our_threads)


@pytest.mark.parametrize("name,dim", [("softmax", -1), ("softmax", 0), ("log_softmax", -1),
                                      ("log_softmax", 0), ("softmax", 1)])
@pytest.mark.parametrize("shape", [(64, 10), (37, 50), (8, 1000), (5, 37, 20)])
def test_softmax_gives_torchs_bits(torch: Any, one_thread: None, name: str, dim: int,
                                   shape: tuple[int, ...]) -> None:
    if dim >= len(shape):
        pytest.skip("no such dimension")
    x = (np.random.default_rng(len(shape) + dim).standard_normal(shape) * 8).astype(F32)
    g = np.random.default_rng(7).standard_normal(shape).astype(F32)
    outs = []
    for m in (torch, gtorch):
        leaf = m.from_numpy(x.copy()).requires_grad_(True)
        y = getattr(m, name)(leaf, dim)
        y.backward(m.from_numpy(g.copy()))
        outs.append((y.detach().numpy(), leaf.grad.numpy()))
    _assert_bits(f"{name} {dim}", outs[1][0], outs[0][0], x)
    _assert_bits(f"{name} {dim} backward", outs[1][1], outs[0][1], x)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("batch", [1, 17, 64, 1000])
def test_cross_entropy_gives_torchs_bits(torch: Any, one_thread: None, reduction: str,
                                         batch: int) -> None:
    rng = np.random.default_rng(batch)
    x = (rng.standard_normal((batch, 10)) * 3).astype(F32)
    target = rng.integers(0, 10, batch)
    weight = rng.random(10).astype(F32)
    for w in (None, weight):
        outs = []
        for m in (torch, gtorch):
            leaf = m.from_numpy(x.copy()).requires_grad_(True)
            loss = m.nn.functional.cross_entropy(
                leaf, m.from_numpy(target), weight=None if w is None else m.from_numpy(w),
                reduction=reduction)
            loss.backward()
            outs.append((loss.detach().numpy(), leaf.grad.numpy()))
        _assert_bits(f"cross_entropy {reduction}", outs[1][0], outs[0][0], x)
        _assert_bits(f"cross_entropy {reduction} backward", outs[1][1], outs[0][1], x)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_binary_cross_entropy_gives_torchs_bits(torch: Any, one_thread: None,
                                                reduction: str) -> None:
    """ATen's scalar kernel calls glibc's log1pf and logf (libm.logf: not correctly rounded,
    so a correctly rounded log differs on about 0.3% of these elements), unfused."""
    rng = np.random.default_rng(11)
    x = rng.random((64, 784)).astype(F32)
    x[0, :4] = [0, 1, 1e-45, 2**-126]
    target = (rng.random((64, 784)) * (rng.random((64, 784)) > 0.7)).astype(F32)
    weight = rng.random((64, 784)).astype(F32)
    for w in (None, weight):
        outs = []
        for m in (torch, gtorch):
            leaf = m.from_numpy(x.copy()).requires_grad_(True)
            loss = m.nn.functional.binary_cross_entropy(
                leaf, m.from_numpy(target), weight=None if w is None else m.from_numpy(w),
                reduction=reduction)
            loss.backward(m.ones_like(loss))
            outs.append((loss.detach().numpy(), leaf.grad.numpy()))
        _assert_bits(f"binary_cross_entropy {reduction}", outs[1][0], outs[0][0], x)
        _assert_bits(f"binary_cross_entropy {reduction} backward", outs[1][1], outs[0][1], x)


_LAYOUTS: dict[str, Callable[[Any], Any]] = {
    "contiguous": lambda t: t,
    "transposed": lambda t: t.transpose(0, 1),
    "sliced": lambda t: t[:, 1:],
    "stepped": lambda t: t[::2],
    "permuted": lambda t: t.permute(2, 0, 1),
}


@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize("shape", [(3, 5, 7), (40, 30, 20), (50, 40, 30)])
def test_reductions_give_torchs_bits_for_any_layout(torch: Any, one_thread: None, layout: str,
                                                    shape: tuple[int, ...]) -> None:
    """sum and mean over every set of dimensions (the 50x40x30 tensor is past 32,768 elements),
    var and std over all elements and along one dimension, cumsum and cumprod along each."""
    data = (np.random.default_rng(sum(shape)).standard_normal(shape) * 10 + 3).astype(F32)
    t, g = (_LAYOUTS[layout](v) for v in _pair(torch, data))
    dimsets = [None, (0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]
    for dims in dimsets:
        for op in ("sum", "mean"):
            ours = getattr(g, op)() if dims is None else getattr(g, op)(dims)
            theirs = getattr(t, op)() if dims is None else getattr(t, op)(dims)
            _assert_bits(f"{op} {dims} {layout}", ours.numpy(), theirs.numpy(), data)
    for dims in (None, 0, 2):
        for op in ("var", "std"):
            ours = getattr(g, op)() if dims is None else getattr(g, op)(dims)
            theirs = getattr(t, op)() if dims is None else getattr(t, op)(dims)
            _assert_bits(f"{op} {dims} {layout}", ours.numpy(), theirs.numpy(), data)
    for dim in range(3):
        _assert_bits(f"cumsum {dim} {layout}", g.cumsum(dim).numpy(), t.cumsum(dim).numpy(),
                     data)
        scaled_g, scaled_t = g / 10 + 1, t / 10 + 1
        _assert_bits(f"cumprod {dim} {layout}", scaled_g.cumprod(dim).numpy(),
                     scaled_t.cumprod(dim).numpy(), data)


@pytest.mark.parametrize("shape, dims", [((20, 250), (1,)), ((40, 50), (0,)), ((6, 7, 5), (0, 2)),
                                         ((300, 400), None), ((70001,), None), ((3, 40000), (1,))])
def test_var_mean_means_are_welfords(torch: Any, thread_count: int, shape: tuple[int, ...],
                                     dims: tuple[int, ...] | None) -> None:
    """var_mean and std_mean on float32 run std_var_kernel's Welford in double for both outputs:
    their mean is Welford's rounded once (not mean()'s float32 cascade sum), a single long
    reduction split among the threads; an infinity makes the mean NaN (inf - inf)."""
    data = (np.random.default_rng(sum(shape)).standard_normal(shape) * 3 + 0.7).astype(F32)
    if dims is None:
        data.reshape(-1)[len(data.reshape(-1)) // 3] = np.inf
    t, g = _pair(torch, data)
    for name in ("var_mean", "std_mean"):
        theirs = getattr(torch, name)(t, dim=dims, keepdim=True)
        ours = getattr(gtorch, name)(g, dim=dims, keepdim=True)
        for a, b in zip(ours, theirs, strict=True):
            _assert_bits(f"{name} over {dims}", a.numpy(), b.numpy(), data)


def test_logsumexp_and_mse_give_torchs_bits(torch: Any, one_thread: None) -> None:
    data = (np.random.default_rng(3).standard_normal((300, 40)) * 4).astype(F32)
    target = np.random.default_rng(4).standard_normal((300, 40)).astype(F32)
    t, g = _pair(torch, data)
    for dim in (0, 1):
        _assert_bits("logsumexp", g.logsumexp(dim).numpy(), t.logsumexp(dim).numpy(), data)
    for reduction in ("mean", "sum"):
        ours = gtorch.nn.functional.mse_loss(g, gtorch.from_numpy(target), reduction=reduction)
        theirs = torch.nn.functional.mse_loss(t, torch.from_numpy(target), reduction=reduction)
        _assert_bits(f"mse_loss {reduction}", ours.numpy(), theirs.numpy(), data)


# op -> (function, input range, the least share of inputs where MKL's bits are the correctly
# rounded ones; docs/float32.md has the measured rates)
MKL_OPS: dict[str, tuple[Callable[[Any, Any], Any], tuple[float, float, float], float]] = {
    "exp": (lambda m, x: m.exp(x), (90.0, -40, 2.0), 0.985),
    "log": (lambda m, x: m.log(m.abs(x)), (100.0, -44, 38), 0.999),
    "tanh": (lambda m, x: m.tanh(x), (10.0, -30, 1.3), 0.99),
    "sin": (lambda m, x: m.sin(x), (10.0, -30, 9), 0.95),
    "cos": (lambda m, x: m.cos(x), (10.0, -30, 9), 0.94),
    "tan": (lambda m, x: m.tan(x), (10.0, -30, 9), 0.985),
    "sqrt": (lambda m, x: m.sqrt(m.abs(x)), (100.0, -44, 38), 1.0),  # MKL's own (vml.py)
    "asin": (lambda m, x: m.asin(x), (1.0, -30, 0), 0.95),
    "atan": (lambda m, x: m.atan(x), (10.0, -30, 30), 0.999),
}


@pytest.mark.parametrize("name", list(MKL_OPS))
def test_mkl_ops_are_within_one_ulp_of_torch(torch: Any, one_thread: None, name: str) -> None:
    fn, (scale, lo, hi), rate = MKL_OPS[name]
    x = _inputs(11 + len(name), scale, lo, hi)
    t, g = _pair(torch, x)
    theirs, ours = fn(torch, t).numpy(), fn(gtorch, g).numpy()
    same = _bits_equal(ours, theirs)
    assert same.mean() >= rate, f"{name}: {same.mean():.4f} agree"
    finite = np.isfinite(theirs) & ~same
    gap = np.abs(ours[finite].view(np.int32).astype(np.int64)
                 - theirs[finite].view(np.int32).astype(np.int64))
    assert (gap <= 1).all()


# ---- independence from NumPy's SIMD level -----------------------------------------------------

_DIGEST = """
import hashlib, numpy as np
import gradsh.torch as torch
F = torch.nn.functional
rng = np.random.default_rng(2024)
specials = np.array(%r, dtype=np.uint32).view(np.float32)
x = np.concatenate([rng.uniform(-40, 40, 40001), rng.standard_normal(40001) * 1e4,
                    specials]).astype(np.float32)
t = torch.from_numpy(x).requires_grad_()
h = hashlib.sha256()
outs = [t.exp(), t.abs().log(), t.tanh(), t.sin(), t.cos(), t.tan(), t.abs().sqrt(), t.atan(),
        (t / 1e4).asin(), (t / 1e4).acos(), t.abs().log2(), t.abs().log10(), t.sigmoid(),
        F.silu(t), F.softplus(t), F.elu(t), F.mish(t), F.gelu(t), F.logsigmoid(t), t.expm1(),
        t.log1p(), t.sinh(), t.cosh(), t.exp2(), t.abs() ** 2.5,
        t[:40000].reshape(400, 100).softmax(1), t[:40000].reshape(400, 100).log_softmax(0),
        t.sum(), t.mean(), t.var(), t[:40000].reshape(200, 200).T.sum(0), t.cumsum(0)]
for out in outs:
    h.update(out.detach().numpy().tobytes())
sum(o.sum() for o in outs).backward()
h.update(t.grad.numpy().tobytes())
print(h.hexdigest())
"""


def test_results_do_not_depend_on_numpys_simd_level() -> None:
    """Every op above, forward and backward, in a process where NumPy runs its AVX-512 code and
    in one where it may not (NPY_DISABLE_CPU_FEATURES): the same bits."""
    from numpy._core._multiarray_umath import __cpu_dispatch__

    avx512 = [f for f in __cpu_dispatch__ if f.startswith("AVX512") or f == "X86_V4"]
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root] + env.get("PYTHONPATH", "").split(os.pathsep))
    script = _DIGEST % (SPECIALS.view(np.uint32).tolist(),)

    def digest() -> str:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                              text=True, check=True)
        return done.stdout.strip()

    full = digest()
    env["NPY_DISABLE_CPU_FEATURES"] = " ".join(avx512)
    assert digest() == full
    assert hashlib.sha256().hexdigest() != full


@pytest.mark.parametrize("value", [0.3, 2.0, -1.0, 1e-3])
@pytest.mark.parametrize("n", [7, 16, 37, 1000])
def test_addcmul_is_one_fused_multiply_add(torch: Any, one_thread: None, value: float,
                                           n: int) -> None:
    """addcmul_cpu_kernel's self + value * t1 * t2 is fma(value * t1, t2, self) as GCC compiled
    it (both loops); in place and broadcast too. addcdiv is not fused."""
    rng = np.random.default_rng(n)
    s, a, b = (rng.standard_normal(n).astype(F32) for _ in range(3))
    t = [torch.from_numpy(v.copy()) for v in (s, a, b)]
    g = [gtorch.from_numpy(v.copy()) for v in (s, a, b)]
    _assert_bits("addcmul", gtorch.addcmul(*g, value=value).numpy(),
                 torch.addcmul(*t, value=value).numpy(), s)
    _assert_bits("addcdiv", gtorch.addcdiv(*g, value=value).numpy(),
                 torch.addcdiv(*t, value=value).numpy(), s)
    t[0].addcmul_(t[1], t[2][:1], value=value)
    g[0].addcmul_(g[1], g[2][:1], value=value)
    _assert_bits("addcmul_", g[0].numpy(), t[0].numpy(), s)


NORM_CASES = [((50, 20), None), ((50, 20), 1), ((50, 20), 0), ((7,), None), ((3, 4, 5), (1, 2)),
              ((3, 4, 5), (0, 1)), ((3, 4, 5), (0, 2)), ((3, 1, 5), 0), ((9, 1), 0),
              ((2, 3, 4, 5), (2, 3)), ((2, 3, 4, 5), 1), ((1, 37), None), ((4, 9), (0, 1))]


@pytest.mark.parametrize("shape, dim", NORM_CASES, ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
def test_two_norm_is_atens_reduction(torch: Any, one_thread: None, shape: tuple[int, ...],
                                     dim: Any, keepdim: bool) -> None:
    """x.norm(): the 8-lane kernel over trailing dims (lanes summed left to right, then the
    rest), NormTwoOps in order otherwise; its gradient x / norm follows."""
    x = (np.random.default_rng(len(shape)).standard_normal(shape) * 3).astype(F32)
    t, g = torch.from_numpy(x).requires_grad_(), gtorch.from_numpy(x).requires_grad_()
    theirs, ours = t.norm(dim=dim, keepdim=keepdim), g.norm(dim=dim, keepdim=keepdim)
    _assert_bits("norm", ours.detach().numpy(), theirs.detach().numpy(), x)
    weights = np.linspace(-1, 1, theirs.numel(), dtype=F32).reshape(tuple(theirs.shape))
    (theirs * torch.from_numpy(weights)).sum().backward()
    (ours * gtorch.from_numpy(weights)).sum().backward()
    _assert_bits("norm backward", g.grad.numpy(), t.grad.numpy(), x)


def test_gradient_clipping_total_norm(torch: Any, one_thread: None) -> None:
    """clip_grad_norm_'s returned total norm (the norm of the norms) and the clipped grads
    (scaled by max_norm / (total + 1e-6), which is reciprocal() * max_norm)."""
    rng = np.random.default_rng(3)
    shapes = [(30, 10), (30,), (3, 30), (3,)]
    grads = [rng.standard_normal(shape).astype(F32) for shape in shapes]
    results = []
    for module in (torch, gtorch):
        params = [module.zeros(shape, requires_grad=True) for shape in shapes]
        for p, grad in zip(params, grads, strict=True):
            p.grad = module.from_numpy(grad.copy())
        total = module.nn.utils.clip_grad_norm_(params, 0.5).numpy()
        results.append([total] + [p.grad.numpy().copy() for p in params])
    for theirs, ours in zip(*results, strict=True):
        _assert_bits("clip_grad_norm_", ours, theirs, grads[0])


def test_add_with_alpha_rounds_once(torch: Any) -> None:
    """x + alpha * y is one fused multiply-add in ATen's float32 kernel. 641 * 6700417 is
    2**32 + 1, so alpha * y below is 2**-24 + 2**-56: 1 + alpha * y lies just above the
    midpoint between 1 and the next float, where a float64 sum rounded again to float32 lands
    on the midpoint itself and rounds down to 1."""
    alpha = 641 / 1024
    y = np.full(5, 6700417 * 2.0**-46, F32)
    x = np.ones(5, F32)
    theirs = torch.add(torch.from_numpy(x), torch.from_numpy(y), alpha=alpha).numpy()
    ours = gtorch.add(gtorch.from_numpy(x), gtorch.from_numpy(y), alpha=alpha).numpy()
    assert np.array_equal(theirs.view(np.int32), ours.view(np.int32))
    assert ours[0] == np.nextafter(F32(1), F32(2))


@pytest.mark.parametrize("norm_type", [2.0])
def test_embedding_max_norm_renorms_as_torch(torch: Any, one_thread: None,
                                            norm_type: float) -> None:
    """embedding(max_norm=...) renormalises the looked-up rows in place as embedding_renorm_:
    each row's norm by the norm kernel, the scale max_norm / (norm + 1e-7) in double, the row
    multiplied by that scale cast to float32. (The default norm_type 2 only: gradsh's float32
    norm with p=1 or 3 does not sum in ATen's order yet, a 9-element row's 1-norm can differ
    in the last bit.)"""
    rng = np.random.default_rng(11)
    weight = (rng.standard_normal((40, 9)) * 3).astype(F32)
    ids = rng.integers(0, 40, 60)
    results = []
    for module in (torch, gtorch):
        w = module.from_numpy(weight.copy())
        out = module.nn.functional.embedding(module.from_numpy(ids), w, max_norm=1.25,
                                             norm_type=norm_type)
        results.append((out.numpy().copy(), w.numpy().copy()))
    for theirs, ours in zip(*results, strict=True):
        _assert_bits("embedding max_norm", ours, theirs, weight)


@pytest.mark.parametrize(("shape", "dim"), [((4, 6), -1), ((3, 8, 5), 1), ((64, 40), 0)])
def test_glu_backward_gives_torchs_bits(torch: Any, one_thread: None, shape: tuple[int, ...],
                                        dim: int) -> None:
    """glu's gradient as glu_backward_kernel multiplies: sigmoid(b) * grad for the first half,
    ((1 - s) * s * a) * grad for the second."""
    rng = np.random.default_rng(12)
    x = rng.standard_normal(shape).astype(F32)
    out_shape = list(shape)
    out_shape[dim] //= 2
    weights = rng.standard_normal(out_shape).astype(F32)
    grads = []
    for module in (torch, gtorch):
        t = module.from_numpy(x.copy()).requires_grad_()
        (module.nn.functional.glu(t, dim) * module.from_numpy(weights)).sum().backward()
        grads.append(t.grad.numpy().copy())
    _assert_bits("glu backward", grads[1], grads[0], x)
