"""torch.autograd.functional and gradcheck against PyTorch: jacobian, hessian, vjp, jvp, vhp,
hvp on the same inputs; gradcheck over a selection of the op table (float64), and its failure
text for a wrong custom backward."""

from __future__ import annotations

import numpy as np
import pytest

import gradsh.torch as gt


def _f(lib):
    return lambda x, y: (x * y).sin() + x.exp()


def _scalar(lib):
    return lambda x, y: (x * x * y).sum() + (x.sin() * y.cos()).sum()


def _inputs(lib):
    x = lib.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=lib.float64)
    y = lib.tensor([[1.5, 0.5], [-0.5, 3.0]], dtype=lib.float64)
    return x, y


def _values(result):
    if isinstance(result, (tuple, list)):
        return [_values(r) for r in result]
    return result.detach().numpy().tolist()


@pytest.mark.parametrize("name", ["jacobian", "hessian", "vjp", "jvp", "vhp", "hvp"])
def test_functional_matches_torch(torch, name):
    results = []
    for lib in (torch, gt):
        x, y = _inputs(lib)
        f = getattr(lib.autograd.functional, name)
        v = lib.ones(2, 2, dtype=lib.float64) * 0.5
        if name == "jacobian":
            result = (f(_f(lib), (x, y)), f(lambda t: t ** 2, x))
        elif name == "hessian":
            result = (f(_scalar(lib), (x, y)), f(lambda t: (t ** 3).sum(), x))
        elif name == "vjp":
            result = f(_f(lib), (x, y), v)
        elif name == "jvp":
            result = f(_f(lib), (x, y), (v, v))
        else:
            result = f(_scalar(lib), (x, y), (v, v))
        results.append(_values(result))
    assert _close(results[1], results[0])


def _close(a, b) -> bool:
    """Same nesting, and every number within float64 rounding."""
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(_close(x, y) for x, y in zip(a, b, strict=True)))
    return bool(np.isclose(a, b, rtol=1e-12, atol=1e-12))


# ops of the table, as (function of the inputs, inputs' shapes); float64, away from kinks
OPS = {
    "mul": (lambda a, b: a * b, [(3,), (2, 3)]),
    "div": (lambda a, b: a / (b.abs() + 1), [(2, 3), (3,)]),
    "matmul": (lambda a, b: a @ b, [(2, 3), (3, 4)]),
    "exp_log": (lambda a: (a.exp() + 1).log(), [(4,)]),
    "tanh_sigmoid": (lambda a: a.tanh() * a.sigmoid(), [(2, 2)]),
    "softmax": (lambda a: a.softmax(dim=1), [(2, 3)]),
    "log_softmax": (lambda a: a.log_softmax(dim=0), [(3, 2)]),
    "mean_var": (lambda a: a.mean(dim=0) + a.var(dim=1).sum(), [(3, 4)]),
    "pow": (lambda a: (a.abs() + 0.5) ** 2.5, [(4,)]),
    "reshape_t": (lambda a: a.reshape(3, 2).t() * 2, [(2, 3)]),
    "index": (lambda a: a[1:, ::2] * a[0, 0], [(3, 4)]),
    "cat_stack": (lambda a, b: (a.unsqueeze(0) * b).sum(0), [(3,), (2, 3)]),
    "norm": (lambda a: a.norm(), [(5,)]),
    "sqrt": (lambda a: (a * a + 1).sqrt(), [(4,)]),
}


@pytest.mark.parametrize("name", list(OPS))
def test_gradcheck_and_gradgradcheck_pass_on_ops(name):
    fn, shapes = OPS[name]
    gen = gt.Generator().manual_seed(7)
    inputs = tuple(gt.randn(*shape, dtype=gt.float64, generator=gen).requires_grad_()
                   for shape in shapes)
    assert gt.autograd.gradcheck(fn, inputs)
    assert gt.autograd.gradgradcheck(fn, inputs)


def test_gradcheck_failure_text_matches_torch(torch):
    messages = []
    for lib in (torch, gt):
        class Wrong(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 3 * x * grad

        x = lib.tensor([1.0, 2.0, -1.0], dtype=lib.float64, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            lib.autograd.gradcheck(Wrong.apply, (x,))
        assert type(info.value).__name__ == "GradcheckError"
        messages.append(str(info.value))
        assert lib.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False) is False
    assert messages[1] == messages[0]


def test_gradcheck_needs_an_input_requiring_grad(torch):
    texts = []
    for lib in (torch, gt):
        with pytest.raises(ValueError) as info:
            lib.autograd.gradcheck(lambda t: t * 2, (lib.ones(2, dtype=lib.float64),))
        texts.append(str(info.value))
    assert texts[1] == texts[0]


def test_gradcheck_calls_func_as_often_and_checks_undefined_grads(torch):
    """gradcheck runs func once more at the end (once more per output with several) for its
    undefined-gradient check, as a print in forward shows; a backward that answers zero
    output gradients with non-zero input gradients fails, with PyTorch's text."""
    import warnings

    for outputs in (1, 2):
        counts = []
        for lib in (torch, gt):
            calls = []

            def f(x, y, lib=lib, calls=calls):
                calls.append(1)
                return (x * y).sin() if outputs == 1 else ((x * y).sin(), x.exp() + y)

            x, y = _inputs(lib)
            assert lib.autograd.gradcheck(f, (x.requires_grad_(), y.requires_grad_()))
            assert lib.autograd.gradgradcheck(f, (x, y))
            gradcheck_only = len(calls)
            assert lib.autograd.gradcheck(f, (x, y), check_undefined_grad=False)
            counts.append((gradcheck_only, len(calls) - gradcheck_only))
        assert counts[1] == counts[0]

    texts = []
    for lib in (torch, gt):
        class Offset(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 2 + 1e-30

        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(RuntimeError) as info:
                lib.autograd.gradcheck(Offset.apply, (x,))
        texts.append((type(info.value).__name__, str(info.value)))
    assert texts[1] == texts[0]


def test_grad_takes_every_keyword_of_pytorchs(torch):
    """autograd.grad's full signature: only_inputs=False warns (FutureWarning) and is ignored,
    inputs as a dict give a dict, and empty inputs have PyTorch's error."""
    import warnings

    for lib in (torch, gt):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            (g,) = lib.autograd.grad((x * x).sum(), x, only_inputs=False)
        assert g.tolist() == [2.0, 4.0]
        assert [w.category for w in caught] == [FutureWarning]
        assert "only_inputs argument is deprecated" in str(caught[0].message)
        named = lib.autograd.grad((x * 3).sum(), {"a": x}, is_grads_batched=False)
        assert list(named) == ["a"] and named["a"].tolist() == [3.0, 3.0]
        with pytest.raises(RuntimeError, match="`inputs` argument to `grad\\(\\)` cannot be "):
            lib.autograd.grad((x * 3).sum(), [])


def test_grad_and_backward_take_any_iterable(torch):
    """autograd.grad / backward take tuple() of any iterable as PyTorch does: a generator
    (model.parameters()), dict values (MAML's OrderedDict of fast weights), a map; a
    non-iterable or a string has PyTorch's error."""
    from collections import OrderedDict

    from call_outcomes import outcomes

    def cases(lib):
        lib.manual_seed(0)
        lin = lib.nn.Linear(3, 2)
        x = lib.randn(4, 3)

        def loss():
            return lin(x).pow(2).sum()

        def backward_inputs():
            lin.zero_grad()
            lib.autograd.backward((t for t in [loss()]), grad_tensors=iter([lib.tensor(2.0)]),
                                  inputs=(p for p in lin.parameters()))
            return lin.weight.grad, lin.bias.grad

        def tensor_backward():
            lin.zero_grad()
            loss().backward(inputs=iter([lin.bias]))
            return lin.weight.grad, lin.bias.grad

        return outcomes([
            lambda: lib.autograd.grad(loss(), lin.parameters()),
            lambda: lib.autograd.grad(loss(), OrderedDict(lin.named_parameters()).values(),
                                      create_graph=True),
            lambda: lib.autograd.grad(iter([loss()]), map(lambda p: p, [lin.bias]),
                                      grad_outputs=(g for g in [lib.tensor(3.0)])),
            backward_inputs,
            tensor_backward,
            lambda: lib.autograd.grad(loss(), 5),
            lambda: lib.autograd.grad(loss(), "ab"),
            lambda: lib.autograd.grad(loss(), iter([])),
        ])

    assert cases(gt) == cases(torch)
