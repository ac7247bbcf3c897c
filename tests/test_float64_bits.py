"""gradsh's float64 ops against PyTorch 2.13's bits: the kernels ATen runs through SLEEF's double
routines (Sleef_expd8_u10, Sleef_log1pd8_u10 ...) and the C library (vecmath/kernels_double.py,
_native_sleef64.h) give torch's bits forward and backward, on random inputs over each op's
range (normal, large, tiny, negative) plus the special values (inf, nan, -0.0, subnormals),
contiguous, strided and transposed, at 1 and 2 threads. Float64 is what torch.from_numpy and
torch.tensor(numpy array) give, so these are the bits of most NumPy-fed programs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

F64 = np.float64
N_RANDOM = 6_000  # plus the specials: a length with a tail after the 16-element vector blocks

SPECIALS = np.array(
    [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, -3.0, 5e-324, -5e-324,
     2.2250738585072014e-308, -2.2250738585072014e-308, 1e-310, 1.7976931348623157e308,
     -1.7976931348623157e308, 1e300, -1e300, 2.0**-60, -2.0**-60, 20.0, -20.0, 709.78,
     709.79, -745.2, -1000.5, 710.5, 18.72, 1e-8, -1e-8, 36.74, -36.74, 1e10, -1e10, 1023.9,
     1024.0, -2000.5, 2.5, 6.0, 1e307, 2e307, -0.9999999999999999],
    dtype=F64)


def _inputs(seed: int, scale: float, log_lo: float, log_hi: float) -> np.ndarray:
    """N_RANDOM values (half uniform in +-scale, half log-uniform magnitudes of either sign)
    plus the special values, shuffled together."""
    rng = np.random.default_rng(seed)
    half = N_RANDOM // 2
    uniform = rng.uniform(-scale, scale, half)
    logs = rng.choice([-1.0, 1.0], N_RANDOM - half) * 10.0 ** rng.uniform(log_lo, log_hi,
                                                                         N_RANDOM - half)
    x = np.concatenate([uniform, logs, SPECIALS])
    rng.shuffle(x)
    return x


@pytest.fixture(scope="module")
def torch(torch: Any, kernels: Any) -> Any:
    """conftest's torch where its kernels are the AVX-512 ones reproduced, with gradsh's
    compiled SLEEF routines (without them float64 keeps NumPy's formulas)."""
    capability = torch.backends.cpu.get_cpu_capability()
    if capability != "AVX512":
        pytest.skip(f"gradsh reproduces PyTorch's AVX512 kernels; this torch uses {capability}")
    return torch


def _assert_bits(name: str, ours: Any, theirs: Any, x: np.ndarray) -> None:
    a = np.ascontiguousarray(np.asarray(ours), F64)
    b = np.ascontiguousarray(np.asarray(theirs), F64)
    assert a.shape == b.shape, f"{name}: shape {a.shape} != torch {b.shape}"
    same = (a.view(np.int64) == b.view(np.int64)) | (np.isnan(a) & np.isnan(b))
    if not same.all():
        bad = np.flatnonzero(~same.reshape(-1))[:5]
        flat = x.reshape(-1)
        pytest.fail(f"{name}: {int((~same).sum())} of {same.size} differ, e.g. x="
                    f"{flat[bad] if flat.size == same.size else '...'} "
                    f"ours={a.reshape(-1)[bad]} torch={b.reshape(-1)[bad]}")


F = Callable[[Any, Any], Any]
WIDE, ACTIVATION = (40.0, -300, 2.9), (30.0, -30, 2.5)
# op -> (function of a torch-like namespace and a tensor, input range, differentiated)
UNARY: dict[str, tuple[F, tuple[float, float, float], bool]] = {
    "sigmoid": (lambda m, x: m.sigmoid(x), ACTIVATION, True),
    "log1p": (lambda m, x: m.log1p(x), (2.0, -300, 307.5), True),
    "expm1": (lambda m, x: m.expm1(x), (750.0, -300, 2.9), True),
    "sinh": (lambda m, x: m.sinh(x), (720.0, -300, 2.9), True),
    "cosh": (lambda m, x: m.cosh(x), (720.0, -300, 2.9), True),
    "exp2": (lambda m, x: m.exp2(x), (1100.0, -300, 3.3), True),
    "lgamma": (lambda m, x: m.lgamma(x), (30.0, -300, 300), False),
    "tanh": (lambda m, x: m.tanh(x), ACTIVATION, True),
    "softplus": (lambda m, x: m.nn.functional.softplus(x), ACTIVATION, True),
    "softplus_beta": (lambda m, x: m.nn.functional.softplus(x, 2.0, 5.0), ACTIVATION, True),
    "gelu": (lambda m, x: m.nn.functional.gelu(x), (8.0, -300, 2.5), True),
    "gelu_tanh": (lambda m, x: m.nn.functional.gelu(x, approximate="tanh"), (8.0, -30, 2.5),
                  True),
    "silu": (lambda m, x: m.nn.functional.silu(x), ACTIVATION, True),
    "elu": (lambda m, x: m.nn.functional.elu(x, 0.7), ACTIVATION, True),
    "selu": (lambda m, x: m.nn.functional.selu(x), ACTIVATION, True),
    "celu": (lambda m, x: m.nn.functional.celu(x, 1.3), ACTIVATION, True),
    "mish": (lambda m, x: m.nn.functional.mish(x), ACTIVATION, True),
    "logsigmoid": (lambda m, x: m.nn.functional.logsigmoid(x), ACTIVATION, True),
    "atan2": (lambda m, x: m.atan2(x, x * 0.75 - 2.5), WIDE, True),
    "atan2_flip": (lambda m, x: m.atan2(x, x.flip(0)), WIDE, False),
    "atanh": (lambda m, x: m.atanh(x), (1.2, -300, 0.2), True),
    "hypot": (lambda m, x: m.hypot(x, x * 0.75 - 2.5), (1e3, -310, 308), True),
    "logaddexp": (lambda m, x: m.logaddexp(x, x * 0.5 - 1), WIDE, True),
    "logaddexp2": (lambda m, x: m.logaddexp2(x, x * 0.5 - 1), WIDE, True),
    "logit": (lambda m, x: m.logit(x * 0.6 + 0.5), (1.0, -300, 0.0), True),
    "logit_eps": (lambda m, x: m.logit(x * 0.6 + 0.5, 1e-6), (1.0, -300, 0.0), True),
    "xlogy": (lambda m, x: m.xlogy(x, x * 0.5 + 2), WIDE, True),
    "sinc": (lambda m, x: m.sinc(x), (8.0, -300, 2.5), True),
    "hardswish": (lambda m, x: m.nn.functional.hardswish(x), (6.0, -30, 2.5), True),
    "pow_2.5": (lambda m, x: m.abs(x) ** 2.5, (10.0, -300, 120), True),
    "pow_-1.7": (lambda m, x: x ** -1.7, (10.0, -100, 100), True),
    "pow_0.5": (lambda m, x: x ** 0.5, (10.0, -300, 300), True),
    "pow_3": (lambda m, x: x.pow(3), (10.0, -100, 100), True),
    "pow_tensor": (lambda m, x: m.abs(x) ** (x * 0.01 - 0.3), (10.0, -30, 30), True),
    "rpow": (lambda m, x: 2.5 ** x, (1100.0, -30, 3.3), True),
    "softmax": (lambda m, x: m.softmax(x[:6000].reshape(-1, 100), -1), WIDE, True),
    "softmax_37": (lambda m, x: m.softmax(x[:37 * 150].reshape(-1, 37), -1), ACTIVATION, True),
    "softmax_5": (lambda m, x: m.softmax(x[:5 * 1000].reshape(-1, 5), 1), ACTIVATION, True),
    "softmax_dim0": (lambda m, x: m.softmax(x[:6000].reshape(60, 100), 0), ACTIVATION, True),
    "log_softmax": (lambda m, x: m.log_softmax(x[:6000].reshape(-1, 100), -1), WIDE, True),
    "log_softmax_dim0": (lambda m, x: m.log_softmax(x[:6000].reshape(60, -1), 0), ACTIVATION,
                         True),
}


def _run(torch: Any, fn: F, x: np.ndarray, layout: str, backward: bool) -> list[np.ndarray]:
    """fn on torch and on gradsh over x laid out as `layout`; with backward, the input's
    gradient for a random output gradient instead of the output."""
    results = []
    for m in (torch, gtorch):
        base = m.from_numpy(np.repeat(x, 2) if layout == "strided" else x.copy())
        if backward:
            base.requires_grad_(True)
        t = base[::2] if layout == "strided" else base
        if layout == "transposed":
            t = base[:100 * 57].reshape(100, 57).T
        y = fn(m, t)
        if not backward:
            results.append(y.detach().numpy())
            continue
        g = np.random.default_rng(7).standard_normal(tuple(y.shape))
        y.backward(m.from_numpy(g))
        grad = base.grad.numpy()
        results.append(grad[::2] if layout == "strided" else grad)
    return results


@pytest.mark.parametrize("name", list(UNARY))
def test_float64_ops_give_torchs_bits(torch: Any, thread_count: int, name: str) -> None:
    fn, (scale, lo, hi), differentiated = UNARY[name]
    x = _inputs(sum(map(ord, name)), scale, lo, hi)
    theirs, ours = _run(torch, fn, x, "contiguous", backward=False)
    _assert_bits(name, ours, theirs, x)
    if differentiated:
        finite = x[np.isfinite(x)]
        theirs, ours = _run(torch, fn, finite, "contiguous", backward=True)
        _assert_bits(f"{name} backward", ours, theirs, finite)


ELEMENTWISE = [name for name, (_, _, grad) in UNARY.items()
               if grad and not name.startswith(("softmax", "log_softmax"))]


@pytest.mark.parametrize("name", ELEMENTWISE)
@pytest.mark.parametrize("layout", ["strided", "transposed"])
def test_float64_layouts_split_vector_and_scalar_like_torch(torch: Any, one_thread: None,
                                                           name: str, layout: str) -> None:
    """A strided input runs ATen's scalar loop (the C library) everywhere, a transposed one
    vector blocks and tails per run: the same bits as torch in both."""
    fn, (scale, lo, hi), _ = UNARY[name]
    x = _inputs(sum(map(ord, name)) + 1, scale, lo, hi)
    theirs, ours = _run(torch, fn, x, layout, backward=False)
    _assert_bits(f"{name} {layout}", ours, theirs, x)
    finite = x[np.isfinite(x)]
    theirs, ours = _run(torch, fn, finite, layout, backward=True)
    _assert_bits(f"{name} {layout} backward", ours, theirs, finite)


@pytest.mark.parametrize("count", [1, 2])
def test_float64_large_tensors_follow_torchs_thread_split(torch: Any, count: int) -> None:
    """Past 32,768 elements each thread's range has its own scalar tail."""
    from conftest import pinned_threads

    x = _inputs(3, 30.0, -30, 2.5)
    x = np.concatenate([x] * 12)[:70_001]
    with pinned_threads(torch, count):
        for name in ("sigmoid", "sinh", "gelu", "softplus", "silu"):
            fn = UNARY[name][0]
            theirs, ours = _run(torch, fn, x, "contiguous", backward=False)
            _assert_bits(f"{name} at {count} threads", ours, theirs, x)


def test_float64_is_what_numpy_arrays_give(torch: Any, one_thread: None) -> None:
    """torch.tensor(np_array) is float64: a softmax and a sigmoid of one match torch's bits
    (and the program's printed values)."""
    x = np.random.default_rng(0).standard_normal((64, 33)) * 4
    for fn in (lambda m, t: m.softmax(t, 1), lambda m, t: m.sigmoid(t).sum(1),
               lambda m, t: m.nn.functional.log_softmax(t, 1)):
        theirs = fn(torch, torch.tensor(x)).numpy()
        ours = fn(gtorch, gtorch.tensor(x)).numpy()
        assert ours.dtype == np.float64
        _assert_bits("numpy-fed", ours, theirs, x)


@pytest.mark.parametrize("shape, dims", [((3000, 7), (1,)), ((300, 103), (1,)), ((40, 50), (0,)),
                                         ((10007,), None), ((20, 30, 5), (1, 2)),
                                         ((20, 30, 5), (1,))])
def test_float64_norm_gives_torchs_bits(torch: Any, thread_count: int, shape: tuple[int, ...],
                                        dims: tuple[int, ...] | None) -> None:
    """The 2-norm's vectorised kernel for double: 4 lanes, products unfused, the tail fused."""
    x = np.random.default_rng(len(shape)).standard_normal(shape) * 3
    for norm in (lambda m, t: t.norm(dim=dims), lambda m, t: m.linalg.vector_norm(t, dim=dims)):
        theirs = norm(torch, torch.from_numpy(x)).numpy()
        ours = norm(gtorch, gtorch.from_numpy(x)).numpy()
        _assert_bits(f"norm over {dims}", ours, theirs, x)


@pytest.mark.parametrize("shape, dims", [((2000, 100), (1,)), ((40, 50), (0,)), ((20, 30, 5), (0, 2)),
                                         ((300, 400), None), ((70001,), None), ((3, 40000), (1,))])
def test_float64_var_std_give_torchs_bits(torch: Any, thread_count: int, shape: tuple[int, ...],
                                          dims: tuple[int, ...] | None) -> None:
    """std_var_kernel's Welford in double (var, std and the means of var_mean / std_mean, which
    are Welford's own, not sum / n), a single long reduction split among the threads."""
    x = np.random.default_rng(len(shape)).standard_normal(shape) * 3 + 1
    for name in ("var", "std", "var_mean", "std_mean"):
        theirs = getattr(torch, name)(torch.from_numpy(x), dim=dims)
        ours = getattr(gtorch, name)(gtorch.from_numpy(x), dim=dims)
        for a, b in zip(ours if isinstance(ours, tuple) else (ours,),
                        theirs if isinstance(theirs, tuple) else (theirs,), strict=True):
            _assert_bits(f"{name} over {dims}", a.numpy(), b.numpy(), x)


@pytest.mark.parametrize("optimizer", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"])
def test_float64_training_loop_gives_torchs_bits(torch: Any, one_thread: None,
                                                 optimizer: str) -> None:
    """A small float64 tanh network trained 20 steps (tanh's backward, the optimizers'
    addcmul / addcdiv steps in double): the same weights as torch, bit for bit."""
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((64, 10)), rng.standard_normal((64, 1))
    w1, w2 = rng.standard_normal((10, 16)) * 0.3, rng.standard_normal((16, 1)) * 0.3
    results = []
    for m in (torch, gtorch):
        p1, p2 = m.tensor(w1, requires_grad=True), m.tensor(w2, requires_grad=True)
        options = {"lr": 0.01, "momentum": 0.9} if optimizer == "SGD" else {"lr": 0.01}
        opt = getattr(m.optim, optimizer)([p1, p2], **options)
        for _ in range(20):
            opt.zero_grad()
            loss = ((m.tanh(m.tensor(x) @ p1) @ p2 - m.tensor(y)) ** 2).mean()
            loss.backward()
            opt.step()
        results.append(np.concatenate([p1.detach().numpy().ravel(), p2.detach().numpy().ravel()]))
    _assert_bits(optimizer, results[1], results[0], results[0])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_float64_smooth_l1_and_huber_backward_give_torchs_bits(torch: Any, thread_count: int,
                                                               reduction: str) -> None:
    """Their backward kernels' vector path (AVX2's build: blocks of 8 doubles) and scalar tail
    associate differently; both sides' gradients match torch's."""
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal(1003) * 2, rng.standard_normal(1003)
    for name, width in (("smooth_l1_loss", {"beta": 0.7}), ("huber_loss", {"delta": 1.3})):
        grads = []
        for m in (torch, gtorch):
            a, b = m.tensor(x, requires_grad=True), m.tensor(y, requires_grad=True)
            loss = getattr(m.nn.functional, name)(a, b, reduction=reduction, **width)
            loss.backward(m.ones_like(loss) * 0.37)
            grads.append(np.concatenate([a.grad.numpy(), b.grad.numpy()]))
        _assert_bits(f"{name} {reduction}", grads[1], grads[0], x)


@pytest.mark.parametrize("p", [1, 3, 1.5, -1, 0.5])
def test_float64_p_norms_give_torchs_bits(torch: Any, one_thread: None, p: float) -> None:
    """NormOneOps / NormOps in double: each output's |x| (or std::pow(|x|, p)) added in memory
    order, then std::pow(acc, 1 / p)."""
    x = np.random.default_rng(2).standard_normal((40, 50)) * 2
    for dims in ((1,), (0,), None):
        theirs = torch.linalg.vector_norm(torch.from_numpy(x), ord=p, dim=dims).numpy()
        ours = gtorch.linalg.vector_norm(gtorch.from_numpy(x), ord=p, dim=dims).numpy()
        _assert_bits(f"{p}-norm over {dims}", ours, theirs, x)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_prod_gives_torchs_bits(torch: Any, thread_count: int, dtype: str) -> None:
    """prod's kernel: over trailing elements 4 vectors of AVX2's width side by side, folded, then
    the rest in order; over another dim each output in order (forward and backward)."""
    rng = np.random.default_rng(4)
    for shape, dim in [((400, 50), 1), ((400, 50), 0), ((20, 30, 5), 1), ((20, 30, 5), 2),
                       ((1001,), None), ((7,), 0)]:
        x = rng.standard_normal(shape) * 0.3 + 1
        results = []
        for m in (torch, gtorch):
            t = m.tensor(x, dtype=getattr(m, dtype), requires_grad=True)
            y = t.prod() if dim is None else t.prod(dim)
            y.backward(m.ones_like(y))
            results.append(np.concatenate([y.detach().numpy().ravel().astype(np.float64),
                                           t.grad.numpy().ravel().astype(np.float64)]))
        _assert_bits(f"prod {shape} over {dim}", results[1], results[0], x)


def test_float64_xlogy_backward_uses_the_c_librarys_log(torch: Any, one_thread: None) -> None:
    """xlogy's gradient in x is at::xlogy(grad, other), whose kernel calls std::log (not MKL's
    log): about 1 in 3,000 results differ between the two, so 200,000 inputs."""
    rng = np.random.default_rng(0)
    x, g = rng.standard_normal(200_000), rng.standard_normal(200_000)
    y = np.abs(rng.standard_normal(200_000)) * 10 + 1e-3
    grads = []
    for m in (torch, gtorch):
        a, b = m.tensor(x, requires_grad=True), m.tensor(y, requires_grad=True)
        m.xlogy(a, b).backward(m.tensor(g))
        grads.append(np.concatenate([a.grad.numpy(), b.grad.numpy()]))
    _assert_bits("xlogy backward", grads[1], grads[0], x)


@pytest.mark.parametrize("log_target", [False, True])
@pytest.mark.parametrize("reduction", ["sum", "batchmean", "none"])
def test_float64_kl_div_gives_torchs_bits(torch: Any, one_thread: None, reduction: str,
                                          log_target: bool) -> None:
    """kl_div's composition records target * input before xlogy(target, target) (GCC's
    operand order), which orders the target's gradient sum: forward and both gradients."""
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal((400, 50)), rng.standard_normal((400, 50))
    results = []
    for m in (torch, gtorch):
        a, b = m.tensor(x, requires_grad=True), m.tensor(y, requires_grad=True)
        target = b.log_softmax(1) if log_target else b.softmax(1)
        out = m.nn.functional.kl_div(a.log_softmax(1), target, reduction=reduction,
                                     log_target=log_target)
        out.backward(m.ones_like(out))
        results.append(np.concatenate([out.detach().numpy().ravel(), a.grad.numpy().ravel(),
                                       b.grad.numpy().ravel()]))
    _assert_bits(f"kl_div {reduction}", results[1], results[0], x)


def test_float64_adaptive_avg_pool_gives_torchs_bits(torch: Any, one_thread: None) -> None:
    """cpu_adaptive_avg_pool in double: each bin summed from 0 in row-major order, / kh / kw."""
    rng = np.random.default_rng(8)
    for shape, size in (((40, 5, 10), 3), ((8, 3, 13, 11), (4, 5))):
        x = rng.standard_normal(shape) * 2
        results = []
        for m in (torch, gtorch):
            t = m.tensor(x, requires_grad=True)
            pool = m.nn.functional.adaptive_avg_pool1d if len(shape) == 3 else \
                m.nn.functional.adaptive_avg_pool2d
            y = pool(t, size)
            y.backward(m.ones_like(y) * 0.3)
            results.append(np.concatenate([y.detach().numpy().ravel(), t.grad.numpy().ravel()]))
        _assert_bits(f"adaptive_avg_pool {shape}", results[1], results[0], x)
