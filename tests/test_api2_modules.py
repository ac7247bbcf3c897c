"""rms_norm and nn.RMSNorm, the lazy modules (LazyLinear, LazyConv1d/2d) and nn.DataParallel on
a CPU-only build, against PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import gradsh.torch as g
from gradsh.engine import ops
from tests.gradcheck import check_grads


def _walk(node):
    names = []
    while node is not None:
        names.append(type(node).__name__)
        following = [n for n, _ in node.next_functions if n is not None]
        node = following[-1] if following else None
    return names


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("weighted", [False, True])
def test_rms_norm_bits_and_graph(torch, dtype, weighted):
    rng = np.random.default_rng(0)
    array = rng.standard_normal((2, 3, 4)).astype(np.float32)
    weight = rng.standard_normal(4).astype(np.float32)
    tdt, gdt = getattr(torch, dtype), getattr(g, dtype)
    x_t = torch.tensor(array).to(tdt).requires_grad_()
    x_g = g.tensor(array).to(gdt).requires_grad_()
    w_t = torch.tensor(weight).to(tdt) if weighted else None
    w_g = g.tensor(weight).to(gdt) if weighted else None
    out_t, out_g = torch.rms_norm(x_t, (4,), w_t), g.rms_norm(x_g, (4,), w_g)
    assert np.array_equal(out_t.detach().float().numpy(), out_g.detach().float().numpy())
    assert _walk(out_g.grad_fn) == _walk(out_t.grad_fn)
    out_t.float().sum().backward()
    out_g.float().sum().backward()
    assert np.array_equal(x_t.grad.float().numpy(), x_g.grad.float().numpy())


def test_rms_norm_float64_and_finite_differences(torch):
    array = np.random.default_rng(1).standard_normal((3, 5))
    out_t = torch.nn.functional.rms_norm(torch.tensor(array), [5], eps=1e-5)
    out_g = g.nn.functional.rms_norm(g.tensor(array), [5], eps=1e-5)
    assert np.allclose(out_t.numpy(), out_g.numpy(), rtol=1e-15, atol=0)
    check_grads(lambda x, w: ops.rms_norm(x, (5,), w), array, np.linspace(0.5, 1.5, 5))


def test_rms_norm_errors_and_module(torch):
    for call in (lambda m: m.rms_norm(m.ones(2, 3, 4), (3,)),
                 lambda m: m.rms_norm(m.ones(2, 4), (4,), m.ones(3))):
        with pytest.raises(RuntimeError) as t_error:
            call(torch)
        with pytest.raises(RuntimeError) as g_error:
            call(g)
        assert str(g_error.value) == str(t_error.value)
    for args in (([4],), ((4,), 1e-6), (3, None, False)):
        assert repr(g.nn.RMSNorm(*args)) == repr(torch.nn.RMSNorm(*args))
    assert g.nn.RMSNorm(3, elementwise_affine=False).weight is None
    assert list(g.nn.RMSNorm(3).state_dict()) == ["weight"]


def test_lazy_linear_matches_linear_after_seed(torch):
    results = []
    for m in (torch, g):
        m.manual_seed(0)
        layer = m.nn.LazyLinear(3)
        before = (repr(layer), repr(layer.weight), list(layer.state_dict()))
        optimizer = m.optim.SGD(layer.parameters(), lr=0.1)
        out = layer(m.randn(2, 4))
        out.sum().backward()
        optimizer.step()
        results.append((before, repr(layer), type(layer).__name__,
                        layer.weight.detach().numpy().copy(), layer.bias.detach().numpy().copy()))
    (b_t, r_t, n_t, w_t, bias_t), (b_g, r_g, n_g, w_g, bias_g) = results
    assert (b_t, r_t, n_t) == (b_g, r_g, n_g)
    assert np.array_equal(w_t, w_g) and np.array_equal(bias_t, bias_g)


@pytest.mark.parametrize("dims, kwargs, shape", [
    (2, {"padding": 1}, (1, 2, 5, 5)), (1, {"groups": 2, "bias": False}, (2, 6, 5)),
    (1, {}, (3, 5)),
])
def test_lazy_conv_matches_conv_after_seed(torch, dims, kwargs, shape):
    results = []
    for m in (torch, g):
        m.manual_seed(0)
        layer = getattr(m.nn, f"LazyConv{dims}d")(4, 2, **kwargs)
        out = layer(m.ones(shape))
        results.append((repr(layer), layer.weight.detach().numpy().copy(),
                        out.detach().numpy().copy()))
    assert results[0][0] == results[1][0]
    assert np.array_equal(results[0][1], results[1][1])
    assert np.allclose(results[0][2], results[1][2], rtol=1e-5, atol=1e-6)


def test_data_parallel_on_cpu(torch):
    seen = []
    for m in (torch, g):
        m.manual_seed(0)
        model = m.nn.DataParallel(m.nn.Linear(2, 3))
        out = model(m.ones(1, 2))
        seen.append((repr(model), list(model.state_dict()), model.device_ids,
                     type(model.module).__name__, out.detach().numpy().tolist(),
                     type(out.grad_fn).__name__))
    assert seen[0] == seen[1]
    assert g.nn.parallel.DataParallel is g.nn.DataParallel


RRELU_PROGRAM = """
import torch
torch.manual_seed(0)
x = torch.randn(4, 5, requires_grad=True)
m = torch.nn.RReLU()
print(m, torch.nn.RReLU(0.1, 0.3, inplace=True))
y = m(x)
print(y)
y.sum().backward()
print(x.grad)
m.eval()
y = m(x)
print(y, type(y.grad_fn).__name__)
x.grad = None
y.sum().backward()
print(x.grad)
print(torch.rrelu(torch.randn(3, 4, dtype=torch.float64), 0.05, 0.5, True))
print(torch.rrelu(torch.randn(3).bfloat16(), training=True))
z = torch.randn(5)
print(torch.rrelu_(z, training=True), z)
w = torch.randn(5, requires_grad=True).clone()
print(torch.nn.functional.rrelu(w, training=True, inplace=True))
print(torch.rand(2))
try:
    torch.rrelu(torch.randn(3).half(), training=True)
except NotImplementedError as error:
    print(error)
"""


def test_rrelu_draws_as_torch(torch, tmp_path):
    import subprocess
    import sys

    program = tmp_path / "rrelu.py"
    program.write_text(RRELU_PROGRAM)
    expected = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                              check=True).stdout
    got = subprocess.run([sys.executable, "-m", "gradsh", "run", "--quiet", str(program)],
                         capture_output=True, text=True, check=True).stdout
    assert got == expected
