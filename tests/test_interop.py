"""The surface a PyTorch program touches, against real PyTorch: NumPy scalars and arrays as
operands and arguments, `out=`, grad_fn objects, Tensor methods and torch functions.

Each case is an expression evaluated twice in the same fresh namespace, once with gradsh.torch
and once with torch: its value (repr, dtype, requires_grad, grad_fn), the warnings it gave and
the error it raised must be the same.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch

_TRIGGERED = re.compile(r" \(Triggered internally at .*\)$", re.S)
# PyTorch's TORCH_WARN_ONCE warnings: once per process, so whether a case shows them depends on
# the cases before it in the same process
_ONCE = ("Using torch.cross without specifying the dim",)
_ADDRESS = re.compile(r"0x[0-9a-f]+")


def _namespace(torch: Any) -> dict[str, Any]:
    torch.manual_seed(0)
    return {
        "torch": torch, "np": np,
        "t": torch.tensor([1., 2., 3.]),
        "ti": torch.tensor([1, 2, 3]),
        "tg": torch.tensor([1., 2., 3.], requires_grad=True),
        "m": torch.arange(6.).reshape(2, 3),
        "nd": np.array([1., 2., 3.]),
    }


def _describe(value: Any) -> str:
    if isinstance(value, list) or type(value) is tuple:
        return type(value).__name__ + "(" + ", ".join(_describe(v) for v in value) + ")"
    text = repr(value)
    if type(value).__name__ == "Tensor":
        for attribute in ("dtype", "requires_grad", "is_leaf"):
            text += f" {attribute}={getattr(value, attribute)}"
    fn = getattr(value, "grad_fn", None)
    if fn is not None:
        text += f" grad_fn={type(fn).__name__}"
    return _ADDRESS.sub("0x?", text)


def outcome(torch: Any, source: str, setup: str = "") -> str:
    """What running `setup` then evaluating `source` gives under `torch`."""
    namespace = _namespace(torch)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if setup:
                exec(setup, namespace)  # noqa: S102  (test code)
            result = _describe(eval(source, namespace))  # noqa: S307
        except Exception as error:  # noqa: BLE001  (the error is the outcome)
            result = f"{type(error).__name__}: {error}"
    shown = [f"{w.category.__name__}: {_TRIGGERED.sub('', str(w.message))}" for w in caught
             if not issubclass(w.category, DeprecationWarning)
             and not str(w.message).startswith(_ONCE)]
    return "\n".join([result, *shown])


def check(torch: Any, source: str, setup: str = "") -> None:
    assert outcome(gtorch, source, setup) == outcome(torch, source, setup)


NUMPY_CASES = [
    # NumPy scalars as operands are Python numbers (a numpy.bool counts as a float, as in PyTorch)
    "t * np.float32(2)", "np.float32(2) * t", "np.float64(2) * t", "t + np.int64(3)",
    "ti + np.int64(3)", "ti * np.float64(1.5)", "ti + np.bool_(True)", "np.int64(3) + ti",
    "ti * np.int32(2)", "ti / np.int64(2)", "ti // np.int64(2)", "np.int64(3) - t",
    "np.float32(3) / t", "t == np.float32(2)", "t.half() * np.float64(3)",
    "torch.tensor(1, dtype=torch.int32) + np.int64(3)", "t ** np.float64(2)", "ti ** np.int64(2)",
    "np.float64(2) ** t", "torch.pow(t, np.float32(2))", "t.mul(np.float32(2))",
    "tg * np.float32(2)", "torch.add(t, t, alpha=np.float64(2))",
    "t.clamp(np.float64(1.5), np.float64(2.5))", "t.clamp(min=np.float32(2))",
    "torch.zeros(2).fill_(np.float32(3))", "t.clone().mul_(np.float64(2))",
    "torch.full((2,), np.float32(1.5))", "torch.full((2,), np.int32(1))",
    "torch.full((2,), np.bool_(True))",
    # NumPy arrays: PyTorch's operators leave them to NumPy (no autograd), functions refuse them
    "t * nd", "t * np.array([1., 2., 3.], dtype=np.float32)", "t * np.array([1, 2, 3])",
    "t - np.array(2.0)", "t / nd", "t @ nd", "t * np.ones((2, 3))", "t % nd", "t ** nd",
    "t // nd", "ti & np.array([1, 2, 3])", "t * np.array([True, False, True])",
    "tg * nd", "t == nd", "t != nd", "t < nd", "nd * t", "nd + t", "nd - t", "nd @ np.ones(3)",
    "nd > t", "torch.tensor([1, 2]) == np.array([1.5, 2])", "tg == nd",
    "torch.mul(t, nd)", "torch.add(t, nd)", "t.add(nd)", "torch.maximum(t, nd)",
    "t * 'a'", "t + None", "t == 'a'", "t < 'a'",
    "np.sin(t)", "np.add(t, 1)", "np.exp(ti)", "np.sin(tg)", "np.asarray(tg)", "np.array(t)",
    "np.isnan(t)", "np.float64(t[0])", "np.int64(ti[0])", "np.array([t, t])",
    # torch.tensor and friends: NumPy data keeps its dtype, Python floats are the default dtype
    "torch.tensor(np.array([1, 2]))", "torch.tensor(np.array([1., 2.], dtype=np.float32))",
    "torch.tensor(np.float64(2.5))", "torch.tensor(np.float32(2.5))", "torch.tensor(np.int32(2))",
    "torch.tensor(np.bool_(True))", "torch.tensor([np.float64(1), np.float64(2)])",
    "torch.tensor([np.float32(1), np.float32(2)])", "torch.tensor([np.int32(1), np.int32(2)])",
    "torch.tensor([1, np.float64(2)])", "torch.tensor([np.int64(1), 2.5])",
    "torch.tensor([np.float32(1), True])", "torch.tensor([np.int32(1), True])",
    "torch.tensor([[np.float32(1)], [np.float64(2)]])", "torch.tensor([np.uint8(1)])",
    "torch.tensor([np.array([1., 2.]), np.array([3., 4.])])",
    "torch.tensor([np.array([1., 2.], dtype=np.float32)])",
    "torch.tensor([[1, 2], np.array([3, 4])])", "torch.tensor([np.array(1.), np.array(2.)])",
    "torch.tensor([torch.tensor(1.), np.float64(2.)])",
    "torch.tensor(np.array([1., 2.]), requires_grad=True)",
    "torch.tensor(np.array([1], dtype=np.int8))", "torch.tensor(np.array([1], np.float16))",
    "torch.tensor(np.array([1, 'a'], dtype=object))", "torch.tensor(np.array(['a']))",
    "torch.tensor(np.array([1.1]), dtype=torch.float32)",
    "torch.tensor(np.array([1.5]), dtype=torch.int64)",
    "torch.tensor(np.arange(6.).reshape(2, 3)[:, 1])", "torch.tensor(np.ones((2, 3))[:, ::2])",
    "torch.tensor(None)", "torch.tensor([None])", "torch.tensor(object())", "torch.tensor('ab')",
    "torch.tensor(['a'])", "torch.tensor([1, 'a'])", "torch.tensor({1: 2})",
    "torch.tensor(range(3))", "torch.tensor((1, 2.5))",
    "torch.Tensor(np.array([1, 2]))", "torch.FloatTensor(np.array([1., 2]))",
    "t.new_tensor(np.array([1, 2]))",
    "torch.as_tensor(np.float64(2))", "torch.as_tensor([np.float32(2)])",
    "torch.as_tensor(np.array([1, 2]))", "torch.as_tensor([np.float64(1)])",
    "torch.from_numpy(np.float64(1))", "torch.from_numpy(np.ones((2, 3))[:, ::2]).stride()",
    "torch.from_numpy(np.asfortranarray(np.ones((2, 3)))).stride()",
    "torch.from_numpy(np.ones(3)[::-1])", "torch.from_numpy(np.array([1], dtype=np.int32))",
    # NumPy integers where PyTorch takes ints: sizes, dims, indices
    "torch.zeros(np.int64(3))", "torch.zeros(np.int64(3), np.int32(2))",
    "torch.zeros((np.int64(3),))", "torch.zeros(size=(np.int64(2),))",
    "torch.ones(np.array([2, 3]).shape)", "torch.ones(np.array([2, 3]))",
    "torch.randn(np.int32(2), 3).shape", "torch.randn(size=(), requires_grad=True)",
    "torch.rand(size=(2, 1))", "torch.empty(size=(0,))",
    "torch.arange(np.int64(3))", "torch.arange(np.float64(3))", "torch.arange(np.float32(3))",
    "torch.linspace(np.float64(0), np.float64(1), np.int64(3))",
    "torch.randint(np.int64(3), (np.int64(2),)).shape",
    "torch.randint(np.int64(0), np.int64(3), (2,)).shape",
    "torch.arange(4.).view(np.int64(2), -1)", "torch.arange(4.).reshape(np.int64(2), np.int64(2))",
    "t.reshape((np.int64(3), -1))", "torch.ones(1, 2).expand(np.int64(3), 2).shape",
    "t.repeat(np.int64(2)).shape", "t.repeat(*np.array([2, 1])).shape",
    "t.new_full((np.int64(2),), np.float32(1))",
    "torch.ones(2, 3).sum(dim=np.int64(0))", "torch.ones(2, 3).sum(dim=[np.int64(0)])",
    "torch.ones(2, 3).mean(np.int32(1))", "torch.ones(2, 3).max(np.int64(1)).values",
    "torch.max(t, np.int32(0)).values", "t.unsqueeze(np.int64(0)).shape",
    "torch.ones(2, 3).transpose(np.int64(0), np.int64(1)).shape",
    "t.narrow(0, np.int64(1), np.int64(2))", "t.topk(np.int64(2)).values",
    "torch.cat([t, t], np.int64(0))", "torch.softmax(t, np.int64(0))",
    "t.unsqueeze(np.int64(0)).squeeze(np.int64(0))",
    "t[np.int64(0)]", "t[np.int32(1)]", "t[np.array([0, 2])]", "t[np.array([True, False, True])]",
    "t[np.array(1)]", "t[np.array([0, 1], dtype=np.int32)]", "t[np.array([0., 1.])]",
    "t[[np.int64(0), np.int64(2)]]", "t[np.int64(0):np.int64(2)]", "t[np.int32(-1)]",
    "t[[0., 1.]]", "t[[0.5, 2.7]]", "t[[True, False, True]]",
    "t[np.array([1, 0, 1], dtype=np.uint8)]", "t[np.float64(0)]", "t[np.bool_(True)]",
    "m[np.array([0, 1]), np.int64(1)]", "tg[np.array([0, 2])]",
    # a short list holding sequences indexes as a tuple (deprecated); an array never does
    "m[[[0, 1], [0, 2]]]", "m[[np.array([0, 1]), np.array([0, 2])]]", "m[[slice(None), 1]]",
    "m[np.array([[0, 1], [1, 0]])]", "m[[0, None]]", "m[[[0, 1]] * 40].shape",
    # NumPy's keyword names, as PyTorch's parser accepts them
    "m.sum(axis=0)", "m.mean(axis=1, keepdims=True)", "torch.cat([m, m], axis=0).shape",
    "torch.softmax(m, axis=0).shape", "m.argmax(axis=1)", "m.std(axis=0)",
]

SETITEM_CASES = [
    ("t[0] = np.float32(1)", "t"), ("t[0] = np.int64(5)", "t"), ("t[0] = np.float64(5.)", "t"),
    ("t[0:2] = np.array([5., 6.])", "t"), ("t[0] = 'a'", "t"), ("ti[0] = 'a'", "ti"),
    ("t[0:2] = [1., 2.]", "t"), ("t[0] = None", "t"), ("t[np.int64(0)] = 3", "t"),
    ("t[np.array([0, 1])] = 5", "t"), ("t[0] = np.bool_(True)", "t"),
    ("t += np.float32(2)", "t"), ("ti *= np.int64(2)", "ti"),
    ("a = torch.as_tensor(nd); nd[0] = 9", "a"), ("a = torch.from_numpy(nd); a[1] = 7", "nd"),
    ("a = torch.tensor(nd); nd[0] = 9", "a"), ("a = t.numpy(); a[0] = 9", "t"),
]


@pytest.mark.parametrize("source", NUMPY_CASES)
def test_numpy_values_as_pytorch_reads_them(torch: Any, source: str) -> None:
    check(torch, source)


@pytest.mark.parametrize(("setup", "source"), SETITEM_CASES)
def test_numpy_values_written_into_tensors(torch: Any, setup: str, source: str) -> None:
    check(torch, source, setup)


LIBRARY_PROGRAM = """\
import {module} as torch
import numpy as np

a = torch.ones(2, requires_grad=True)
b = a * 2
print(b.grad)
print(torch.tensor([np.array([1., 2.])]))
for _ in range(2):
    print(b.grad is None)
"""


def test_library_mode_warnings_are_python_warnings(torch: Any, tmp_path: Any) -> None:
    """`import gradsh.torch as torch` in plain Python: the engine's warnings are Python warnings
    at the program's line, shown once per line by Python's filters, as PyTorch's are."""
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    results = []
    for module in ("gradsh.torch", "torch"):
        path = tmp_path / "prog.py"
        path.write_text(LIBRARY_PROGRAM.format(module=module))
        ran = subprocess.run([sys.executable, "prog.py"], capture_output=True, text=True,
                             cwd=tmp_path, env={**os.environ, "PYTHONPATH": root}, timeout=120)
        assert ran.returncode == 0, ran.stderr
        results.append((ran.stdout, re.sub(r" \(Triggered internally at [^)]*\)", "",
                                           ran.stderr)))
    assert results[0] == results[1]
    assert results[0][1].count("UserWarning") == 3  # lines 6, 7 and 9 (once, in the loop)


OUT_CASES = [
    ("o = torch.empty(3); r = torch.add(t, ti, out=o)", "(r is o, o)"),
    ("o = torch.empty(2); r = torch.add(t, ti, out=o)", "o"),
    ("o = torch.empty(0); r = torch.add(t, 1, out=o)", "o"),
    ("o = torch.empty(3, dtype=torch.float64); torch.add(t, t, out=o)", "o"),
    ("o = torch.empty(3, dtype=torch.long); torch.add(t, t, out=o)", "o"),
    ("o = torch.empty(3); torch.add(ti, ti, out=o)", "o"),
    ("o = torch.empty(3); torch.add(t, t, alpha=2, out=o)", "o"),
    ("o = torch.empty(3); torch.add(tg, 1, out=o)", "o"),
    ("o = torch.empty(3); torch.add(t, 1, out=tg)", "tg"),
    ("c = tg.clone(); torch.add(c, 1, out=c)", "c"),
    ("o = torch.empty(3)\nwith torch.no_grad():\n    torch.add(tg, 1, out=o)", "o"),
    ("o = torch.empty(3)", "torch.mul(tg, 2, out=o)"),
    ("o = torch.empty(())", "torch.matmul(tg, tg, out=o)"),
    ("o = torch.empty(())", "torch.sum(tg, 0, out=o)"),
    ("o = torch.empty(3)", "torch.exp(tg, out=o)"),
    ("o = torch.empty(6)", "torch.cat([tg, tg], out=o)"),
    ("o = torch.empty(())", "torch.mean(tg, 0, out=o)"),
    ("o = torch.empty(2, 3)", "torch.matmul(torch.ones(2, 2), torch.ones(2, 3), out=o)"),
    ("o = torch.empty(2, 2)", "torch.mm(m, m.t(), out=o)"),
    ("o = torch.empty(3)", "torch.exp(t, out=o)"),
    ("o = torch.empty(6)", "torch.cat([t, t], out=o)"),
    ("o = torch.empty(2, 3)", "torch.stack([t, t], out=o)"),
    ("o = torch.empty(())", "torch.sum(t, 0, out=o)"),
    ("o = torch.empty(3)", "torch.sum(m, 0, out=o)"),
    ("o = torch.empty(2)", "torch.mean(m, 1, out=o)"),
    ("o = torch.empty(2, 1)", "torch.mean(m, 1, keepdim=True, out=o)"),
    ("o = torch.zeros(2, 3)[:, 0]; r = torch.add(torch.ones(2), 1, out=o)", "o"),
    ("o = torch.empty(3)", "torch.zeros(3, out=o)"),
    ("o = torch.empty(2, 2)", "torch.ones(2, 2, out=o)"),
    ("o = torch.empty(3)", "torch.arange(3, out=o)"),
    ("o = torch.empty(3, dtype=torch.long)", "torch.arange(3, out=o)"),
    ("o = torch.empty(3)", "torch.sub(t, 1, out=o)"),
    ("o = torch.empty(3)", "torch.div(t, 2, out=o)"),
    ("o = torch.empty(3)", "torch.pow(t, 2, out=o)"),
    ("o = torch.empty(3)", "torch.clamp(t, 0, 1, out=o)"),
    ("o = torch.empty(3)", "torch.sqrt(t, out=o)"),
    ("o = torch.empty(3)", "torch.tanh(t, out=o)"),
    ("o = torch.empty(3)", "torch.sigmoid(t, out=o)"),
    ("o = torch.empty(3)", "torch.neg(t, out=o)"),
    ("o = torch.empty(3)", "torch.abs(t, out=o)"),
    ("o = torch.empty(3)", "torch.maximum(t, t.flip(0), out=o)"),
    ("o = torch.empty(3, dtype=torch.bool)", "torch.gt(t, 1, out=o)"),
    ("o = torch.empty(3)", "torch.where(t > 1, t, t.flip(0), out=o)"),
    ("o = torch.empty(3)", "torch.cumsum(t, 0, out=o)"),
    ("o = torch.empty(())", "torch.prod(t, 0, out=o)"),
    ("o = torch.empty(2)", "torch.mv(m, t, out=o)"),
    ("o = torch.empty(2, 2, 2)", "torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 3, 2), out=o)"),
    ("o = torch.empty(())", "torch.dot(t, t, out=o)"),
    ("v, i = torch.empty(2), torch.empty(2, dtype=torch.long)", "torch.max(m, 1, out=(v, i))"),
    ("v, i = torch.empty(2), torch.empty(2, dtype=torch.long)",
     "(type(torch.max(m, 1, out=(v, i))).__name__, v, i)"),
    ("o = torch.empty(3)", "t.add(t, out=o)"),
    ("o = torch.empty(3)", "torch.add(t, t, out=None)"),
    ("o = torch.empty(2)", "torch.randn(2, out=o).shape"),
    ("o = torch.empty(2, 3)", "torch.tril(m, out=o)"),
    ("o = torch.empty(2)", "torch.index_select(t, 0, torch.tensor([0, 2]), out=o)"),
    ("o = torch.empty(3)", "torch.linspace(0, 1, 3, out=o)"),
    ("o = torch.empty(3)", "torch.full((3,), 2., out=o)"),
]


@pytest.mark.parametrize(("setup", "source"), OUT_CASES)
def test_out_keyword(torch: Any, setup: str, source: str) -> None:
    check(torch, source, setup)


METHOD_CASES = [
    # information
    "t.data_ptr() == t.detach().data_ptr()", "m[1].data_ptr() - m.data_ptr()",
    "t.is_floating_point()", "ti.is_floating_point()", "torch.is_floating_point(t)",
    "t.is_complex()", "t.is_signed()", "torch.tensor([True]).is_signed()",
    "torch.tensor([1], dtype=torch.uint8).is_signed()", "m.nbytes", "m.itemsize",
    "m.t().nbytes", "m[:, 1].nbytes", "m.ndimension()", "m.nelement()", "m.element_size()",
    "m.t().dim_order()", "ti.type_as(t)", "tg.type_as(ti.double())", "t.is_sparse",
    # apply_ and map_
    "t.clone().apply_(lambda x: x * 2)", "ti.clone().apply_(lambda x: x / 3)",
    "t.clone().apply_(lambda x: 'a')", "tg.apply_(lambda x: x)", "(tg * 1).apply_(lambda x: x)",
    "t.clone().map_(t.flip(0), lambda a, b: a + b)", "t.clone().map_(ti, lambda a, b: a)",
    "torch.ones(2, 2).map_(torch.tensor([1., 2.]), lambda a, b: a + b)",
    "torch.ones(2).map_(torch.ones(2, 2), lambda a, b: a + b)",
    # rounding
    "torch.tensor([1.25, 1.35, 1.45, 2.675, 0.125]).round(decimals=2)",
    "torch.tensor([15., 25., 35.]).round(decimals=-1)", "torch.round(tg * 1.234, decimals=1)",
    "ti.round(decimals=1)", "torch.tensor([0.5, 1.5, 2.5, -0.5]).round_()",
    "(tg * 1.05).round_(decimals=1)",
    # in-place forms
    "(tg * 1).floor_()", "(tg * 0.3).sinh_()", "(tg / 4).asin_()", "(tg * 1).log2_()",
    "(tg * 1).expm1_()", "(tg * 1).sign_()", "(tg * 1).frac_()", "(tg * 1).nan_to_num_()",
    "(tg * 1).lerp_(t.flip(0), 0.3)", "(tg * 1).addcmul_(t, t, value=2)",
    "(tg * 1).addcdiv_(t, t.flip(0), value=0.5)", "(tg * 1).remainder_(2)",
    "(tg * 1).fmod_(t.flip(0))", "(tg * 1).true_divide_(2)", "(tg * 1).atan2_(t)",
    "tg.floor_()", "ti.clone().addcdiv_(ti, ti)", "t.clone().lerp_(ti, 0.5)",
    # indexing in place
    "(m * 1).index_add_(0, torch.tensor([1]), torch.ones(1, 3), alpha=2)",
    "(m * 1).index_fill_(1, torch.tensor([0, 2]), -1.)",
    "(m * 1).index_fill_(1, torch.tensor([0]), torch.tensor(7.))",
    "(m * 1).index_fill_(1, torch.tensor([0]), torch.tensor([7.]))",
    "(m * 1).scatter_(0, torch.tensor([[1, 0, 1]]), torch.ones(1, 3))",
    "(m * 1).scatter_(0, torch.tensor([[1, 0, 1]]), 5.)",
    "(m * 1).scatter_(0, torch.tensor([[1, 0, 1]]), torch.ones(1, 3, dtype=torch.long))",
    "(m * 1).scatter_add_(1, torch.tensor([[0, 0], [2, 2]]), torch.ones(2, 2))",
    "m.index_copy(0, torch.tensor([1, 0]), torch.ones(2, 3))",
    "(m * 1).index_copy_(1, torch.tensor([2]), torch.zeros(2, 1))",
    "m.index_copy(0, torch.tensor([0.]), torch.ones(1, 3))",
    "m.index_copy(0, torch.tensor([5]), torch.ones(1, 3))",
    "m.index_copy(0, torch.tensor([0]), torch.ones(1, 3, dtype=torch.long))",
    "m.masked_scatter(m > 2, torch.arange(10., 16.))",
    "(m * 1).masked_scatter_(torch.tensor([True, False, True]), torch.zeros(4))",
    "m.masked_scatter(torch.tensor([1, 0, 1]), torch.ones(6))",
    "m.masked_scatter(m > -1, torch.ones(3))",
    "m.masked_scatter(m > -1, torch.ones(6, dtype=torch.long))",
    "(m * 1).index_put_((torch.tensor([1, 1]),), torch.ones(3), accumulate=True)",
    "(m * 1).index_put_((torch.tensor([0]), torch.tensor([2])), torch.tensor(9.))",
    "torch.index_put(m, (torch.tensor([True, False]),), torch.zeros(3))",
    "m.index_put((torch.tensor([0]),), torch.ones(3, dtype=torch.long))",
    "m.index_put_(torch.tensor([0]), torch.ones(3))",
    "m.index_put_((torch.tensor([0]),), 5.)",
    # random_ draws PyTorch's numbers
    "(tg * 1).random_()", "(tg * 1).random_(5)", "(tg * 1).random_(2, 5)",
    "torch.empty(3, dtype=torch.long).random_()", "torch.empty(3, dtype=torch.int32).random_()",
    "torch.empty(3, dtype=torch.float64).random_()", "torch.empty(4, dtype=torch.bool).random_()",
    "torch.empty(3, dtype=torch.uint8).random_()", "torch.empty(3).random_(0, 1 << 40)",
    "torch.empty(3, dtype=torch.int16).random_(-5, 5)", "torch.empty(2, 3).random_(to=7)",
    # functions
    "torch.cross(torch.tensor([1., 0, 0]), torch.tensor([0., 1, 0]), dim=0)",
    "torch.cross(m.view(3, 2) * tg.view(3, 1), torch.ones(3, 1), dim=0)",
    "torch.cross(torch.ones(2, 3), torch.arange(3.))", "tg.cross(t.flip(0))",
    "torch.cross(torch.ones(2, 2), torch.ones(2, 2), dim=0)",
    "torch.cross(torch.ones(2, 2), torch.ones(2, 2))",
    "torch.cross(torch.ones(3), ti, dim=0)", "torch.cross(torch.ones(3), torch.ones(3), dim=1)",
    "torch.cross(ti, ti.flip(0), dim=0)", "torch.std_mean(t)", "torch.var_mean(m, dim=1)",
    "torch.std_mean(m, 0, keepdim=True, correction=0)", "torch.var_mean(ti)",
    "torch.where(t > 1)", "torch.where(torch.tensor([[0, 2], [3, 0]]))",
    "torch.full_like(t, 7)", "torch.manual_seed(3)", "torch.is_inference_mode_enabled()",
    "torch.atleast_1d(torch.tensor(1.))", "torch.atleast_2d(t)", "torch.atleast_3d(m)",
    "torch.atleast_3d(tg)", "torch.atleast_1d(t, torch.tensor(2.))", "torch.atleast_2d((t, m))",
    "torch.broadcast_tensors(t, m)", "torch.broadcast_shapes((2,), (3, 1), 2)",
    "torch.cartesian_prod(t, torch.tensor([5., 6.]))", "torch.cartesian_prod(t)",
    "torch.tensordot(m, m.t(), dims=1)", "torch.tensordot(m, m, dims=([0, 1], [0, 1]))",
    "torch.tensordot(m.view(1, 2, 3), m.view(3, 2), dims=([1, 2], [1, 0]))",
    "torch.tensordot(m * tg, m, dims=([1], [1]))", "torch.tensordot(m, m, dims=3)",
    "torch.functional.tensordot(m, m.t(), 1)", "torch.functional.atleast_2d(t)",
    "x = 1", "torch.ones(2, requires_grad=True).numpy()",
]


@pytest.mark.parametrize("source", METHOD_CASES)
def test_tensor_methods_and_functions(torch: Any, source: str) -> None:
    if "=" in source.split("(")[0]:
        check(torch, "0", source)
    else:
        check(torch, source)


def test_numpy_of_a_tensor_that_requires_grad_under_no_grad(torch: Any) -> None:
    check(torch, "a", "with torch.no_grad():\n    a = tg.numpy()")


GRAD_FN_SETUP = """
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
log = []
"""

GRAD_FN_CASES = [
    "(a * b).grad_fn.name()", "type((a * b).grad_fn).__name__", "(a * b).grad_fn",
    "(a * b).grad_fn.next_functions[0][0].name()", "(a // 1).grad_fn.name()",
    "type((a // 1).grad_fn).__name__", "(a * b).grad_fn.metadata",
    "(a * b).grad_fn._saved_self is a", "(a * b).grad_fn._saved_other is b",
    "(a * 2).grad_fn._saved_other", "(a + b).grad_fn._saved_alpha",
    "(a ** 2).grad_fn._saved_exponent", "(a ** 2).grad_fn._saved_self is a",
    "a.exp().grad_fn._saved_result", "a.tanh().grad_fn._saved_result.grad_fn",
    "a.sum().grad_fn._saved_self_sym_sizes", "a.mean().grad_fn._saved_self_sym_numel",
    "a[0].grad_fn._saved_dim", "a[1].grad_fn._saved_index",
    "a.view(2, 1).grad_fn._saved_self_sym_sizes",
    "torch.cat([a, b]).grad_fn._saved_dim", "a.clamp(0, 1).grad_fn._saved_min",
    "a.unsqueeze(0).grad_fn._saved_dim", "a.dot(b).grad_fn._saved_tensor is b",
    "(a * b).grad_fn._saved_foo", "a.exp().grad_fn._raw_saved_result",
    "type(a.exp().grad_fn._raw_saved_result).__name__",
]

GRAD_FN_PROGRAMS = [
    # _saved_* after backward freed it
    ("y = a.exp()\ny.sum().backward()", "y.grad_fn._saved_result"),
    # node hooks: prehook, then the node, then its post hook; their results replace grads
    ("y = a * b\n"
     "y.grad_fn.register_prehook(lambda go: log.append(('pre', go)))\n"
     "y.grad_fn.register_hook(lambda gi, go: log.append(('post', gi, go)))\n"
     "y.sum().backward()", "log"),
    ("y = a * b\n"
     "y.grad_fn.register_prehook(lambda go: (go[0] * 2,))\n"
     "y.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, None))\n"
     "y.sum().backward()", "(a.grad, b.grad)"),
    ("y = a * b\nh = y.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, gi[1]))\n"
     "h.remove()\ny.sum().backward()", "(a.grad, b.grad)"),
    ("y = a * b\ny.register_hook(lambda g: log.append('tensor'))\n"
     "y.grad_fn.register_prehook(lambda go: log.append('node'))\ny.sum().backward()", "log"),
    ("y = a.exp()\nz = y * b\nz.grad_fn.register_hook(lambda gi, go: log.append(len(gi)))\n"
     "z.sum().backward()", "log"),
    # the raw saved tensor's own hooks
    ("y = a.pow(3)\nraw = y.grad_fn._raw_saved_self\n"
     "raw.register_hooks(lambda t: (log.append(t is a), t.detach())[1], "
     "lambda t: (log.append('unpack'), t)[1])\n"
     "print(y.grad_fn._saved_self)\ny.sum().backward()", "(log, a.grad)"),
    ("y = a.pow(3)\nraw = y.grad_fn._raw_saved_self\nraw.register_hooks(lambda t: t, "
     "lambda t: t)", "raw.register_hooks(lambda t: t, lambda t: t)"),
    ("y = a.pow(3)\nraw = y.grad_fn._raw_saved_self\ny.sum().backward()",
     "raw.register_hooks(lambda t: t, lambda t: t)"),
]


@pytest.mark.parametrize("source", GRAD_FN_CASES)
def test_grad_fn_attributes(torch: Any, source: str) -> None:
    check(torch, source, GRAD_FN_SETUP)


@pytest.mark.parametrize(("setup", "source"), GRAD_FN_PROGRAMS)
def test_grad_fn_hooks(torch: Any, setup: str, source: str) -> None:
    check(torch, source, GRAD_FN_SETUP + setup)


TRACEBACK_PROGRAM = """\
import torch


def f(x):
    return x.view(5) + torch.ones(2, 3)


a = torch.ones(2, 3)
b = f(a) * 2
"""


def test_tracebacks_mark_the_failing_expression(torch: Any, tmp_path: Any) -> None:
    """A program's traceback under `gradsh run` is python's, `^^^^` carets included."""
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    (tmp_path / "prog.py").write_text(TRACEBACK_PROGRAM)
    env = {**os.environ, "PYTHONPATH": root}
    python = subprocess.run([sys.executable, "prog.py"], capture_output=True, text=True,
                            cwd=tmp_path, env={**os.environ, "PYTHONPATH": ""}, timeout=120)
    gradsh = subprocess.run([sys.executable, "-m", "gradsh", "run", "--quiet", "prog.py"],
                            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert "^^^^^^^^^" in python.stderr
    assert (gradsh.returncode, gradsh.stderr) == (python.returncode, python.stderr)


SURFACE_CASES = [
    # settings and type information
    "torch.finfo(torch.float32)", "torch.finfo()", "torch.finfo(torch.float64).eps",
    "torch.finfo(torch.float16).resolution", "torch.finfo(torch.float32).tiny",
    "torch.iinfo(torch.int32)", "torch.iinfo(torch.uint8).max", "torch.iinfo(torch.bool)",
    "torch.finfo(torch.int32)", "torch.strided", "type(torch.strided).__name__",
    "t.layout", "torch.contiguous_format", "torch.are_deterministic_algorithms_enabled()",
    "torch.get_float32_matmul_precision()", "torch.typename(t)", "torch.typename(3)",
    "torch.is_same_size(t, ti)", "torch.scalar_tensor(3)",
    "torch.scalar_tensor(3, dtype=torch.long)",
    "torch.range(1, 4)", "torch.range(0, 1, 0.25)", "torch.range(1, 4, dtype=torch.long)",
    # legacy and trivial Tensor surface
    "m.new([1, 2])", "m.new().shape", "m.new(2, 3).shape", "ti.new([1, 2])", "m.is_cpu",
    "m.get_device()", "m.is_inference()", "m.is_shared()", "m.is_pinned()", "m.conj() is m",
    "m.resolve_conj() is m", "m.is_conj()", "m.is_neg()", "m.real is m", "m.imag",
    "m.output_nr", "m.mH", "m.adjoint()",
    # stacking, splitting, reshaping
    "torch.hstack([t, t])", "torch.vstack([t, t])", "torch.dstack([m, m])",
    "torch.column_stack([t, t])", "torch.row_stack([m, m])", "m.tile((2,))", "tg.tile(2, 1)",
    "tg.repeat_interleave(2)", "(m * tg).repeat_interleave(2, dim=1)",
    "m.repeat_interleave(torch.tensor([1, 2]), dim=0)", "torch.repeat_interleave(ti, 2)",
    "(m * tg).fliplr()", "m.flipud()", "t.fliplr()", "m.tensor_split(2, dim=1)",
    "m.tensor_split([1, 2], dim=1)", "m.hsplit(3)", "torch.vsplit(m, 2)", "torch.hsplit(m, 2)",
    "torch.take_along_dim(m * tg, torch.tensor([[0], [1]]), dim=1)",
    "torch.take_along_dim(m, torch.tensor([0, 5]))", "tg.ravel()", "m.sum_to_size(1, 3)",
    "(m * tg).sum_to_size(3)", "(m * tg).diff()", "m.diff(dim=0)", "m.diff(n=2)",
    "torch.tensor([True, False, False]).diff()", "tg.diff(prepend=torch.tensor([0.]))",
    "(m * tg).msort()", "torch.argwhere(torch.tensor([[0, 1], [2, 0]]))",
    # less common math, NaN-aware and running reductions
    "tg.asinh()", "(tg + 3).acosh()", "(tg / 4).atanh()", "(tg * 1).asinh_()",
    "(tg * 1 + 3).acosh_()", "(tg / 4).atanh_()", "tg.erfc()", "(tg * 1).erfc_()",
    "torch.hypot(tg, t.flip(0))", "(tg * 1).hypot_(t)", "torch.logaddexp(tg, t.flip(0))",
    "torch.logaddexp2(tg, t.flip(0))", "tg.deg2rad()", "tg.rad2deg()", "(tg * 1).deg2rad_()",
    "torch.copysign(tg, t.flip(0) - 2)", "torch.copysign(tg, -1)", "(tg * 1).copysign_(-1)",
    "torch.fmax(tg, t.flip(0))", "torch.fmin(tg, t.flip(0))", "tg.fix()", "(tg * 1.5).fix_()",
    "torch.fmax(torch.tensor([1., float('nan')]), torch.tensor([float('nan'), 2.]))",
    "torch.tensor([1., float('nan'), 3.]).nansum()", "(m * tg).nansum(1)", "tg.nanmean()",
    "torch.tensor([[1., float('nan')], [3., 4.]]).nanmean(1)", "ti.nanmean()",
    "(m * tg).cummax(1)", "(m * tg).cummin(0)", "torch.tensor([3., 1., 3., 5.]).cummax(0)",
    "torch.isclose(t, t + 1e-9)", "torch.isclose(t, ti)",
    "torch.isneginf(torch.tensor([float('-inf'), 1.]))", "t.isposinf()", "t.isreal()",
    "torch.signbit(torch.tensor([-0.0, 1., -2.]))",
]


@pytest.mark.parametrize("source", SURFACE_CASES)
def test_torch_surface(torch: Any, source: str) -> None:
    check(torch, source)


def test_untyped_storage_is_the_memory_views_share(torch: Any) -> None:
    """x.untyped_storage(): the whole storage of a view (its bytes, size and repr as PyTorch
    prints them), the same data_ptr for a tensor and its views, a new one for a copy."""
    import gradsh.torch as gt

    for lib in (torch, gt):
        t = lib.arange(6, dtype=lib.int16).view(2, 3)
        view = t[1:, 1:]
        assert view.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()
        assert t.clone().untyped_storage().data_ptr() != t.untyped_storage().data_ptr()
    ours = gt.arange(6, dtype=gt.int16)[2:].untyped_storage()
    theirs = torch.arange(6, dtype=torch.int16)[2:].untyped_storage()
    assert (repr(ours), ours.nbytes(), len(ours), ours[2], ours.tolist()) == (
        repr(theirs), theirs.nbytes(), len(theirs), theirs[2], theirs.tolist())
