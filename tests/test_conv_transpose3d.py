"""F.conv_transpose3d, nn.ConvTranspose3d and torch.conv_transpose3d against PyTorch: values
and gradients within float32 rounding (float64 to 1e-12; the products are NumPy's, as conv3d's),
stride, padding, output_padding, dilation, groups, unbatched input, output_size, the argument
errors, the module's repr; gradients against finite differences, and a second order one."""

from __future__ import annotations

import numpy as np
import pytest
from call_outcomes import outcomes
from gradcheck import check_grads

import gradsh.torch as gt

CASES = [  # in_channels, out_channels, kernel, options
    (4, 6, 3, {}),
    (4, 6, 3, {"stride": 2, "padding": 1, "output_padding": 1}),
    (4, 6, (2, 3, 2), {"stride": (2, 1, 3), "dilation": 2, "groups": 2,
                       "output_padding": (1, 0, 2)}),
    (2, 3, 2, {"dilation": 3, "output_padding": 2}),
    (3, 2, 1, {"padding": 0, "stride": 3}),
]


def _run(m, x, w, b, options, gout):
    xx = m.tensor(x, requires_grad=True)
    ww = m.tensor(w, requires_grad=True)
    bb = m.tensor(b, requires_grad=True)
    y = m.nn.functional.conv_transpose3d(xx, ww, bb, **options)
    y.backward(m.tensor(gout))
    return y, [t.detach().numpy() for t in (y, xx.grad, ww.grad, bb.grad)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("cin", "cout", "kernel", "options"), CASES)
def test_values_and_gradients(torch, cin, cout, kernel, options, dtype):
    rng = np.random.default_rng(cin * cout)
    kernel = (kernel,) * 3 if isinstance(kernel, int) else kernel
    groups = options.get("groups", 1)
    x = rng.standard_normal((2, cin, 4, 5, 3)).astype(dtype)
    w = rng.standard_normal((cin, cout // groups, *kernel)).astype(dtype)
    b = rng.standard_normal(cout).astype(dtype)
    shape = torch.nn.functional.conv_transpose3d(torch.tensor(x), torch.tensor(w),
                                                 **options).shape
    gout = rng.standard_normal(tuple(shape)).astype(dtype)
    theirs, their_values = _run(torch, x, w, b, options, gout)
    ours, our_values = _run(gt, x, w, b, options, gout)
    assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__ == "ConvolutionBackward0"
    tol = {"rtol": 1e-4, "atol": 1e-4} if dtype == np.float32 else {"rtol": 1e-12, "atol": 1e-12}
    for a, b_ in zip(our_values, their_values, strict=True):
        assert a.shape == b_.shape and a.dtype == b_.dtype
        np.testing.assert_allclose(a, b_, **tol)


def test_finite_differences_and_second_order(torch):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 2, 3, 2, 3))
    w = rng.standard_normal((2, 2, 2, 2, 2))
    options = {"stride": 2, "output_padding": 1, "padding": (0, 1, 0)}
    check_grads(lambda a, b: gt.nn.functional.conv_transpose3d(a, b, **options), x, w)
    results = []
    for m in (torch, gt):
        xx, ww = m.tensor(x, requires_grad=True), m.tensor(w, requires_grad=True)
        y = m.nn.functional.conv_transpose3d(xx, ww, **options)
        gx, gw = m.autograd.grad((y * y).sum(), (xx, ww), create_graph=True)
        (gx.sum() + (gw * gw).sum()).backward()
        results.append([t.detach().numpy() for t in (gx, gw, xx.grad, ww.grad)])
    for a, b in zip(*results, strict=True):
        np.testing.assert_allclose(b, a, rtol=1e-10, atol=1e-10)


def test_module_repr_output_size_and_unbatched(torch):
    for m in (torch, gt):
        m.manual_seed(0)
    args = (4, 6, 3)
    kwargs = {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2, "bias": False,
              "dilation": 2}
    assert repr(gt.nn.ConvTranspose3d(*args, **kwargs)) == repr(
        torch.nn.ConvTranspose3d(*args, **kwargs))
    assert repr(gt.nn.ConvTranspose3d(4, 6, (3, 2, 1))) == repr(
        torch.nn.ConvTranspose3d(4, 6, (3, 2, 1)))
    theirs, ours = torch.nn.ConvTranspose3d(4, 6, 3, stride=2), gt.nn.ConvTranspose3d(4, 6, 3,
                                                                                      stride=2)
    assert np.array_equal(ours.weight.detach().numpy(), theirs.weight.detach().numpy())
    x = np.random.default_rng(1).standard_normal((4, 3, 3, 3)).astype(np.float32)
    for size in ([8, 7, 8], [1, 6, 8, 7, 8][1:]):
        a = theirs(torch.tensor(x), output_size=size)
        b = ours(gt.tensor(x), output_size=size)
        assert tuple(a.shape) == tuple(b.shape)
        np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), rtol=1e-4, atol=1e-5)


def _outcomes(torch):
    F = torch.nn.functional
    x, w = torch.ones(1, 4, 3, 3, 3), torch.ones(4, 2, 2, 2, 2)
    calls = [
        lambda: F.conv_transpose3d(x, w, stride=2, output_padding=2),
        lambda: F.conv_transpose3d(x, w, stride=(2, 1, 1), output_padding=(1, 1, 0)),
        lambda: F.conv_transpose3d(x, w.double()),
        lambda: F.conv_transpose3d(x[:, :3], w),
        lambda: F.conv_transpose3d(x[0], w).shape,
        lambda: F.conv_transpose3d(x[0, 0], w),
        lambda: F.conv_transpose3d(x, w, groups=2).shape,
        lambda: F.conv_transpose3d(x, w, groups=3),
        lambda: F.conv_transpose3d(x, w, bias=torch.zeros(3)),
        lambda: F.conv_transpose3d(x, w, stride=0),
        lambda: F.conv_transpose3d(x, w, padding=-1),
        lambda: F.conv_transpose3d(x, w, padding=3),
        lambda: F.conv_transpose3d(x, w, stride=(1, 2)),
        lambda: torch.conv_transpose3d(x, w, None, 2, 1, 1, 1, 2).shape,
        lambda: torch.nn.ConvTranspose3d(4, 6, 3, padding_mode="reflect"),
        lambda: torch.nn.ConvTranspose3d(4, 6, 3)(x, output_size=[9, 9, 9]),
        lambda: torch.nn.ConvTranspose3d(4, 6, 3)(x, output_size=[5, 5]),
    ]
    return outcomes(calls)


def test_errors_match(torch):
    for i, (theirs, ours) in enumerate(zip(_outcomes(torch), _outcomes(gt), strict=True)):
        assert ours == theirs, i
