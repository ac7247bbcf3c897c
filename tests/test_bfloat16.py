"""bfloat16 (through ml_dtypes) against PyTorch: every finite bfloat16 value through the
element-wise ops, reductions and softmax, matrix products, optimizer steps, seeded random
draws, printing, promotion and errors; bit for bit wherever gradsh claims it."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.runner import RunOptions, run_source

BF16 = np.dtype(ml_dtypes.bfloat16)
_ALL = np.arange(65536, dtype=np.uint16).view(BF16)
FINITE = _ALL[np.isfinite(_ALL.astype(np.float32))]  # 65280 values


def _torch_bf16(torch: Any, values: np.ndarray) -> Any:
    return torch.from_numpy(values.view(np.int16).copy()).view(torch.bfloat16)


def _gradsh_bf16(values: np.ndarray) -> Any:
    return gtorch.tensor(values.astype(np.float32), dtype=gtorch.bfloat16)


def _torch_bits(t: Any) -> np.ndarray:
    import torch

    return t.detach().contiguous().view(torch.int16).numpy().view(np.uint16)


def _gradsh_bits(t: Any) -> np.ndarray:
    assert t.dtype is gtorch.bfloat16, t.dtype
    return np.ascontiguousarray(t.detach()._data).view(np.uint16)


def _mismatches(expected: Any, got: Any) -> int:
    a, b = _torch_bits(expected), _gradsh_bits(got)
    fa, fb = a.view(BF16).astype(np.float32), b.view(BF16).astype(np.float32)
    return int((~((a == b) | (np.isnan(fa) & np.isnan(fb)))).sum())


# name -> (the op on a module `m` (torch or gradsh.torch) and a bfloat16 tensor, allowed
# mismatches over the 65280 finite values). Nonzero counts are measured and explained:
# lgamma: two results
# next to bfloat16's largest value that PyTorch's float32 lgamma rounds to inf; relu6 keeps
# -0.0's sign; fmod/remainder: PyTorch gives nan where x / 0.7 overflows (|x| > 2.4e38) and
# -0.0 for remainder's zero results of negative x.
def _function(name: str) -> Callable[[Any, Any], Any]:
    return lambda m, x: getattr(m, name)(x)


def _functional(name: str) -> Callable[[Any, Any], Any]:
    return lambda m, x: getattr(m.nn.functional, name)(x)


ELEMENTWISE: dict[str, tuple[Callable[[Any, Any], Any], int]] = {
    name: (_function(name), 0)
    for name in ("exp log sqrt rsqrt sin cos tan tanh sigmoid reciprocal abs neg exp2 expm1 "
                 "log1p log2 log10 asin acos atan sinh cosh erf erfc erfinv floor ceil round "
                 "trunc sign square relu frac asinh acosh atanh deg2rad rad2deg logit digamma "
                 "sinc").split()
}
ELEMENTWISE.update({
    name: (_functional(name), 0)
    for name in ("silu mish softplus elu leaky_relu hardswish hardsigmoid logsigmoid celu selu "
                 "hardtanh softsign tanhshrink hardshrink softshrink").split()
})
ELEMENTWISE.update({
    "gelu": (lambda m, x: m.nn.functional.gelu(x), 0),
    "gelu_tanh": (lambda m, x: m.nn.functional.gelu(x, approximate="tanh"), 0),
    "lgamma": (lambda m, x: m.lgamma(x), 2),
    "relu6": (lambda m, x: m.nn.functional.relu6(x), 1),
    "fmod": (lambda m, x: m.fmod(x, 0.7), 152),
    "remainder": (lambda m, x: m.remainder(x, 0.7), 282),
    "mul_pi": (lambda m, x: x * 3.14159, 0),
    "rmul_pi": (lambda m, x: 3.14159 * x, 0),
    "div": (lambda m, x: x / 0.7, 0),
    "rdiv": (lambda m, x: 1 / x, 0),
    "div_float64_scalar": (lambda m, x: x / m.tensor(0.7, dtype=m.float64), 0),
    "add": (lambda m, x: x + 0.1, 0),
    "sub": (lambda m, x: x - 0.1, 0),
    "rsub": (lambda m, x: 1 - x, 0),
    "floor_divide": (lambda m, x: m.floor_divide(x, 0.7), 0),
    "add_alpha": (lambda m, x: m.add(x, x.flip(0), alpha=0.3), 0),
    "sub_alpha": (lambda m, x: m.sub(x, x.flip(0), alpha=0.3), 0),
    "addcmul": (lambda m, x: m.addcmul(x, x, x.flip(0), value=0.3), 0),
    "addcdiv": (lambda m, x: m.addcdiv(x, x, x.flip(0), value=0.3), 0),
    "lerp": (lambda m, x: m.lerp(x, x.flip(0), 0.3), 0),
    "pow2": (lambda m, x: x ** 2, 0),
    "pow3": (lambda m, x: x ** 3, 0),
    "pow_half": (lambda m, x: x ** 0.5, 0),
    "pow_minus_half": (lambda m, x: x ** -0.5, 0),
    "pow_minus_two": (lambda m, x: x ** -2, 0),
    "pow_1_7": (lambda m, x: x ** 1.7, 0),
    "rpow": (lambda m, x: 2 ** x, 0),
    "clamp": (lambda m, x: x.clamp(-1, 1), 0),
    "maximum": (lambda m, x: m.maximum(x, x.flip(0)), 0),
    "atan2": (lambda m, x: m.atan2(x, x.flip(0)), 0),
    "xlogy": (lambda m, x: m.xlogy(x, x), 0),
    "logit_eps": (lambda m, x: m.logit(x, eps=0.1), 0),
})


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_every_bfloat16_value_through_elementwise_ops(name: str, torch: Any) -> None:
    op, allowed = ELEMENTWISE[name]
    expected = op(torch, _torch_bf16(torch, FINITE))
    got = op(gtorch, _gradsh_bf16(FINITE))
    assert _mismatches(expected, got) <= allowed


# Gradients whose formula PyTorch computes in float32 (a backward kernel) or step by step in
# bfloat16 without constants that would round differently: bit for bit on every 7th value.
EXACT_GRADIENTS = ("exp log sqrt sin cos tan tanh sigmoid reciprocal abs square relu atan "
                   "silu gelu mish softplus elu leaky_relu hardswish selu celu hardsigmoid "
                   "mul_pi div add_alpha pow2 pow3 clamp lerp log2 log10 exp2 asin acos sinh "
                   "cosh erf erfc asinh acosh pow_1_7 pow_minus_two deg2rad logit").split()


@pytest.mark.parametrize("name", EXACT_GRADIENTS)
def test_bfloat16_gradients_bit_for_bit(name: str, torch: Any) -> None:
    op, _ = ELEMENTWISE[name]
    values = FINITE[::7]
    t = _torch_bf16(torch, values).requires_grad_()
    g = _gradsh_bf16(values).requires_grad_()
    op(torch, t).backward(torch.ones(values.shape, dtype=torch.bfloat16))
    op(gtorch, g).backward(gtorch.ones(values.shape, dtype=gtorch.bfloat16))
    assert g.grad.dtype is gtorch.bfloat16
    assert _mismatches(t.grad, g.grad) == 0


def _batch(shape: tuple[int, ...], seed: int, scale: float = 3.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale).astype(np.float32).astype(BF16)


REDUCTIONS: dict[str, Callable[[Any, int], Any]] = {
    "sum": lambda x, d: x.sum(d), "mean": lambda x, d: x.mean(d), "var": lambda x, d: x.var(d),
    "std": lambda x, d: x.std(d), "cumsum": lambda x, d: x.cumsum(d),
    "softmax": lambda x, d: x.softmax(d), "log_softmax": lambda x, d: x.log_softmax(d),
    "amax": lambda x, d: x.amax(d), "logsumexp": lambda x, d: x.logsumexp(d),
}


# softmax over a dimension other than the last splits its columns among the threads, and a
# thread's tail columns round their exponentials to the narrow dtype first (a bfloat16 softmax
# over dim 0 differed from PyTorch's at one thread when gradsh rounded every column that way):
# these run with PyTorch and gradsh both at 1, 2 and 3 threads (conftest's thread_count).
THREE_COUNTS = pytest.mark.parametrize("thread_count", [1, 2, 3], indirect=True)


@THREE_COUNTS
@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_bfloat16_reductions_accumulate_in_float32(name: str, dim: int, torch: Any,
                                                    thread_count: int) -> None:
    x = _batch((64, 37), seed=dim)
    grad = _batch((64, 37) if name in ("cumsum", "softmax", "log_softmax") else
                  ((37,) if dim == 0 else (64,)), seed=5, scale=1.0)
    t = _torch_bf16(torch, x).requires_grad_()
    g = _gradsh_bf16(x).requires_grad_()
    yt, yg = REDUCTIONS[name](t, dim), REDUCTIONS[name](g, dim)
    assert _mismatches(yt, yg) == 0
    if name in ("sum", "mean", "softmax", "log_softmax", "amax"):
        yt.backward(_torch_bf16(torch, grad))
        yg.backward(_gradsh_bf16(grad))
        assert _mismatches(t.grad, g.grad) == 0


@THREE_COUNTS
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("shape, dim", [((3, 100), 0), ((4, 9, 70), 1), ((2, 3, 40, 5), 1)])
def test_reduced_softmax_over_an_inner_dimension(dtype: str, shape: tuple[int, ...], dim: int,
                                                  torch: Any, thread_count: int) -> None:
    x = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32) * 3
    for name in ("softmax", "log_softmax"):
        t = getattr(torch.from_numpy(x).to(getattr(torch, dtype)), name)(dim)
        g = getattr(gtorch.tensor(x).to(getattr(gtorch, dtype)), name)(dim)
        assert g.dtype is getattr(gtorch, dtype)
        np.testing.assert_array_equal(g.float().numpy(), t.float().numpy())


def test_whole_sums_of_many_elements_round_once(torch: Any) -> None:
    x = _batch((300, 500), seed=3)
    t, g = _torch_bf16(torch, x) * 1.1, _gradsh_bf16(x) * 1.1
    assert _mismatches(t.sum(), g.sum()) == 0
    assert _mismatches(t.mean(), g.mean()) == 0
    # a broadcast gradient summed back over 1000 copies: in float32, rounded once
    a = _gradsh_bf16(x[:2, :3]).requires_grad_()
    (a.repeat(100, 10) * 1.1).sum().backward()
    b = _torch_bf16(torch, x[:2, :3]).requires_grad_()
    (b.repeat(100, 10) * 1.1).sum().backward()
    assert _mismatches(b.grad, a.grad) == 0


_TARGETS = np.random.default_rng(9).integers(0, 37, 64)
LOSSES: dict[str, Callable[[Any, Any, Any], Any]] = {
    "mse": lambda m, x, y: m.nn.functional.mse_loss(x, y),
    "l1": lambda m, x, y: m.nn.functional.l1_loss(x, y),
    "huber": lambda m, x, y: m.nn.functional.huber_loss(x, y),
    "smooth_l1": lambda m, x, y: m.nn.functional.smooth_l1_loss(x, y),
    "cross_entropy": lambda m, x, y: m.nn.functional.cross_entropy(x, m.tensor(_TARGETS)),
    "nll": lambda m, x, y: m.nn.functional.nll_loss(x.log_softmax(1), m.tensor(_TARGETS)),
    "kl_div": lambda m, x, y: m.nn.functional.kl_div(x.log_softmax(1), y.softmax(1),
                                                     reduction="batchmean"),
    "bce_with_logits": lambda m, x, y: m.nn.functional.binary_cross_entropy_with_logits(
        x, y.sigmoid()),
    "std": lambda m, x, y: x.std(1).sum(),
    "var": lambda m, x, y: x.var(0).sum(),
    "cumprod": lambda m, x, y: ((x * 0.1 + 1).cumprod(1) * y).sum(),
    "prod": lambda m, x, y: (x * 0.1 + 1).prod(1).sum(),
    "layer_norm": lambda m, x, y: (m.nn.functional.layer_norm(x, (37,)) * y).sum(),
    "scaled_exp": lambda m, x, y: (x * 0.3).exp().sum(),
    "asinh": lambda m, x, y: x.asinh().sum(),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_bfloat16_losses_and_their_gradients(name: str, torch: Any) -> None:
    x, y = _batch((64, 37), seed=11, scale=2.0), _batch((64, 37), seed=12, scale=1.0)
    t = _torch_bf16(torch, x).requires_grad_()
    g = _gradsh_bf16(x).requires_grad_()
    lt, lg = LOSSES[name](torch, t, _torch_bf16(torch, y)), LOSSES[name](gtorch, g,
                                                                       _gradsh_bf16(y))
    lt.backward()
    lg.backward()
    assert _mismatches(lt, lg) == 0
    assert _mismatches(t.grad, g.grad) == 0


def test_bce_with_logits_divides_by_n_last_in_float32_too(torch: Any) -> None:
    x, y = (np.random.default_rng(s).standard_normal((64, 37)).astype(np.float32)
            for s in (1, 2))
    t, g = torch.tensor(x, requires_grad=True), gtorch.tensor(x, requires_grad=True)
    torch.nn.functional.binary_cross_entropy_with_logits(t, torch.tensor(y).sigmoid()).backward()
    gtorch.nn.functional.binary_cross_entropy_with_logits(g, gtorch.tensor(y).sigmoid()).backward()
    np.testing.assert_array_equal(g.grad._data, t.grad.numpy())


@pytest.mark.parametrize("n", [8, 32, 63, 100, 1000, 20063])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_add_with_alpha_fuses_on_vector_blocks_only(n: int, dtype: str, torch: Any) -> None:
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    t = torch.tensor(a, dtype=getattr(torch, dtype))
    t.add_(torch.tensor(b, dtype=getattr(torch, dtype)), alpha=-0.1)
    g = gtorch.tensor(a, dtype=getattr(gtorch, dtype))
    g.add_(gtorch.tensor(b, dtype=getattr(gtorch, dtype)), alpha=-0.1)
    np.testing.assert_array_equal(np.array(g.float().tolist()), t.float().numpy())


@pytest.mark.parametrize("layout", ["1", "3", "40", "63", "100", "1000", "transposed",
                                    "columns", "rms_stats"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_rsqrt_scalar_tails_round_twice(layout: str, dtype: str, torch: Any) -> None:
    """rsqrt's scalar loop (each run's tail past its 32-element blocks) computes 1 / sqrt(x)
    with the square root rounded to the dtype first; the vector loop rounds once."""
    rng = np.random.default_rng(len(layout))
    a = (rng.random(1200) * 4 + 0.25).astype(np.float32)

    def run(lib: Any) -> Any:
        x = lib.tensor(a, dtype=getattr(lib, dtype))
        if layout == "transposed":
            x = x[:120].view(10, 12).t()
        elif layout == "columns":
            x = x[:120].view(10, 12)[:, 1:7]
        elif layout == "rms_stats":  # an RMSNorm's mean of squares, (batch, seq, 1)
            x = x[:96].view(1, 3, 32).pow(2).mean(dim=-1, keepdim=True) + 1e-5
        else:
            x = x[:int(layout)]
        return lib.rsqrt(x)

    np.testing.assert_array_equal(np.array(run(gtorch).float().tolist()),
                                  run(torch).float().numpy())


@pytest.mark.parametrize("steps", [7, 50, 1000, 70000])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_linspace_in_the_dtypes_arithmetic(steps: int, dtype: str, torch: Any) -> None:
    t = torch.linspace(-100, 3, steps, dtype=getattr(torch, dtype))
    g = gtorch.linspace(-100, 3, steps, dtype=getattr(gtorch, dtype))
    np.testing.assert_array_equal(np.array(g.float().tolist()), t.float().numpy())


def test_matrix_products_and_convolution(torch: Any) -> None:
    """Through oneDNN in PyTorch (float32 accumulation, one rounding); bit for bit here."""
    x, w, bias = _batch((2, 3, 8, 8), 1), _batch((4, 3, 3, 3), 2), _batch((4,), 3)
    a, b = _batch((16, 64), 4), _batch((64, 24), 5)

    def run(m: Any, lift: Callable[[np.ndarray], Any]) -> list[Any]:
        X, W, B = (lift(v).requires_grad_() for v in (x, w, bias))
        y = m.nn.functional.conv2d(X, W, B, padding=1)
        y.backward(m.ones_like(y))
        A, Bm = lift(a).requires_grad_(), lift(b)
        z = A @ Bm
        (z * 1.5).sum().backward()
        lin = m.nn.functional.linear(A, Bm.t(), m.ones(24, dtype=m.bfloat16) * 0.3)
        batched = m.bmm(A.reshape(2, 8, 64), Bm.expand(2, 64, 24))
        return [y, X.grad, W.grad, B.grad, z, A.grad, lin, batched]

    expected = run(torch, lambda v: _torch_bf16(torch, v))
    got = run(gtorch, _gradsh_bf16)
    for e, g in zip(expected, got, strict=True):
        assert _mismatches(e, g) == 0


def _train(m: Any, kind: str) -> list[Any]:
    m.manual_seed(1)
    model = m.nn.Sequential(m.nn.Linear(4, 8), m.nn.ReLU(), m.nn.Linear(8, 3)).bfloat16()
    x, y = m.randn(16, 4, dtype=m.bfloat16), m.randint(0, 3, (16,))
    opt = {"sgd": lambda p: m.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=0.01),
           "adam": lambda p: m.optim.Adam(p, lr=0.01),
           "adamw": lambda p: m.optim.AdamW(p, lr=0.01)}[kind](model.parameters())
    losses = []
    for _ in range(4):
        opt.zero_grad()
        loss = m.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    return losses + [p.detach() for p in model.parameters()]


@pytest.mark.parametrize("kind", ["sgd", "adam", "adamw"])
def test_bfloat16_training_steps_are_pytorchs(kind: str, torch: Any) -> None:
    for e, g in zip(_train(torch, kind), _train(gtorch, kind), strict=True):
        assert _mismatches(e, g) == 0


def test_seeded_random_draws(torch: Any) -> None:
    def draws(m: Any) -> list[Any]:
        m.manual_seed(20200910)
        b = m.bfloat16
        return [m.randn(3, dtype=b), m.randn(40, dtype=b), m.rand(17, dtype=b),
                m.empty(50, dtype=b).normal_(2.0, 3.0), m.empty(7, dtype=b).uniform_(-2, 5),
                m.randint(0, 10, (5,), dtype=b), m.randn_like(m.ones(20, dtype=b)),
                m.bernoulli(m.full((20,), 0.3, dtype=b)),
                m.nn.functional.dropout(m.ones(40, dtype=b), 0.3)]

    for e, g in zip(draws(torch), draws(gtorch), strict=True):
        assert _mismatches(e, g) == 0


REPRS = [
    "torch.tensor([1e-5, 1., 1e5], dtype=torch.bfloat16)",
    "torch.tensor([[0.1, 200.5], [3.3, -4.]], dtype=torch.bfloat16)",
    "torch.arange(2000, dtype=torch.bfloat16)",
    "torch.tensor([float('nan'), float('inf'), -1.5], dtype=torch.bfloat16)",
    "torch.tensor(3.14159, dtype=torch.bfloat16)",
    "torch.tensor([1.5], dtype=torch.bfloat16, requires_grad=True) * 2",
    "torch.zeros(0, dtype=torch.bfloat16)",
    "torch.finfo(torch.bfloat16)",
    "torch.bfloat16",
    "torch.ones(2, dtype=torch.bfloat16).type()",
    "torch.tensor([0.1, 0.2], dtype=torch.bfloat16).tolist()",
    "torch.tensor(0.1, dtype=torch.bfloat16).item()",
    "torch.tensor([300., -5., 1e10, -1.5, 2.7], dtype=torch.bfloat16).to(torch.uint8)",
    "torch.tensor([300., -5., 1e10, -1.5, 2.7], dtype=torch.bfloat16).long()",
    "torch.BFloat16Tensor([1, 2])",
    "torch.ones(2, 3).bfloat16().element_size()",
]


@pytest.mark.parametrize("source", REPRS)
def test_bfloat16_prints_as_pytorch(source: str, torch: Any) -> None:
    assert repr(eval(source, {"torch": gtorch})) == repr(eval(source, {"torch": torch}))


def test_finfo_and_promotion(torch: Any) -> None:
    for field in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution"):
        assert getattr(gtorch.finfo(gtorch.bfloat16), field) == \
            getattr(torch.finfo(torch.bfloat16), field)
    names = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
             "float32", "float64"]
    for name in names:
        assert repr(gtorch.promote_types(gtorch.bfloat16, getattr(gtorch, name))) == \
            repr(torch.promote_types(torch.bfloat16, getattr(torch, name)))
    for other in (1, 2.5, True):
        assert repr((gtorch.ones(2, dtype=gtorch.bfloat16) + other).dtype) == \
            repr((torch.ones(2, dtype=torch.bfloat16) + other).dtype)
    zero_dim = gtorch.ones(2, dtype=gtorch.int64) + gtorch.tensor(1.5, dtype=gtorch.bfloat16)
    assert zero_dim.dtype is gtorch.bfloat16


def test_errors_are_pytorchs(torch: Any) -> None:
    cases = [
        lambda m: m.ones(2, dtype=m.bfloat16).numpy(),
        lambda m: m.ones(2, dtype=m.bfloat16, requires_grad=True).numpy(),
        lambda m: m.mm(m.ones(2, 2, dtype=m.bfloat16), m.ones(2, 2)),
        lambda m: m.nn.Linear(3, 2).bfloat16()(m.ones(1, 3)),
    ]
    for case in cases:
        with pytest.raises(Exception) as expected:
            case(torch)
        with pytest.raises(type(expected.value)) as got:
            case(gtorch)
        assert str(got.value) == str(expected.value)


def test_modules_and_gradients_stay_bfloat16() -> None:
    model = gtorch.nn.Linear(3, 2).to(gtorch.bfloat16)
    out = model(gtorch.ones(4, 3, dtype=gtorch.bfloat16)).sum()
    out.backward()
    assert out.dtype is gtorch.bfloat16
    assert model.weight.grad.dtype is gtorch.bfloat16
    conv = gtorch.nn.Conv2d(1, 1, 2).bfloat16()
    assert conv(gtorch.ones(1, 1, 3, 3, dtype=gtorch.bfloat16)).dtype is gtorch.bfloat16


def test_bfloat16_in_a_grad_script_table_and_json(torch: Any) -> None:
    source = ("x = tensor([1.1, 2.3], dtype=bfloat16, requires_grad=True)\n"
              "y = x.float().bfloat16().exp().sum()\ny.backward()\n")
    out = io.StringIO()
    run_source(source, "t.grad", RunOptions(mode="json"), out, out)
    last = json.loads(out.getvalue().splitlines()[-1])
    assert last["ok"]
    x = last["vars"]["x"]
    assert x["dtype"] == "bfloat16" and x["value"] == [1.1015625, 2.296875]
    t = torch.tensor([1.1, 2.3], dtype=torch.bfloat16, requires_grad=True)
    t.float().bfloat16().exp().sum().backward()
    assert x["grad"] == t.grad.float().tolist()
    table = io.StringIO()
    run_source(source + "show x\n", "t.grad", RunOptions(mode="final"), table, table)
    assert "bfloat16" in table.getvalue()


def test_ml_dtypes_is_imported_only_when_bfloat16_is_used() -> None:
    """Importing ml_dtypes costs about 0.5 s (it registers ufunc loops for a dozen dtypes): a
    program that never uses bfloat16 does not pay it; the first use loads it, and an array a
    program made with ml_dtypes itself is recognised."""
    import subprocess
    import sys

    program = "\n".join([
        "import sys",
        "import gradsh.torch as torch",
        "x = torch.ones(3, requires_grad=True)",
        "(x * 2).sum().backward()",
        "print(torch.bfloat16, torch.tensor([1.0]).dtype, 'ml_dtypes' in sys.modules)",
        "y = torch.tensor([1.5, 2.25]).bfloat16()",
        "print(y, 'ml_dtypes' in sys.modules)",
        "import ml_dtypes, numpy as np",
        "z = torch.from_numpy(np.array([0.5, 3.0], dtype=ml_dtypes.bfloat16))",
        "print(z.dtype, (z + y).dtype, torch.promote_types(torch.bfloat16, torch.float16))",
    ])
    shown = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    assert shown == ["torch.bfloat16 torch.float32 False",
                     "tensor([1.5000, 2.2500], dtype=torch.bfloat16) True",
                     "torch.bfloat16 torch.bfloat16 torch.float32"]
    fresh = subprocess.run(
        [sys.executable, "-c", "\n".join([
            "import ml_dtypes, numpy as np",
            "import gradsh.torch as torch",
            "print(torch.from_numpy(np.zeros(2, ml_dtypes.bfloat16)).dtype)"])],
        capture_output=True, text=True, check=True).stdout
    assert fresh == "torch.bfloat16\n"
