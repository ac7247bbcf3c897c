"""Operands of another integer dtype than the result's: PyTorch casts each operand to the
common dtype as C++ casts (wrapping), where NumPy refuses int32 -> uint8 ('same_kind'). A 0-d
int32 -2 against a uint8 tensor is 254 in add, mul, floor_divide, remainder, bitwise ops, pow
and clamp's bounds; masked_fill's value is cast the same way (2.7 into int64 is 2, 5 into bool
True), must be 0-d when a tensor, and is an input of MaskedFillBackward1 (it gets a gradient)."""

from __future__ import annotations

from typing import Any

import pytest

import gradsh.torch as gtorch

PAIRS = [  # (tensor values and dtype, 0-d value and dtype)
    (([3, 200], "uint8"), (-2, "int32")),
    (([3, 200], "uint8"), (7, "int64")),
    (([3, -100], "int8"), (300, "int32")),
    (([3, 100], "int16"), (70000, "int64")),
    (([3, 100], "int8"), (250, "uint8")),
    (([True, False], "bool"), (5, "int64")),
]
OPS = {
    "add": lambda t, a, b: t.add(a, b),
    "radd": lambda t, a, b: b + a,
    "sub": lambda t, a, b: a - b if a.dtype != t.bool else a + b,
    "rsub": lambda t, a, b: b - a if a.dtype != t.bool else b + a,
    "mul": lambda t, a, b: a * b,
    "floor_divide": lambda t, a, b: t.floor_divide(a, b),
    "remainder": lambda t, a, b: t.remainder(b, a.clamp(min=1) if a.dtype != t.bool else a + 1),
    "fmod": lambda t, a, b: t.fmod(a, b),
    "bitwise_and": lambda t, a, b: a & b,
    "bitwise_xor": lambda t, a, b: t.bitwise_xor(b, a),
    "left_shift": lambda t, a, b: t.bitwise_left_shift(a, b),
    "pow": lambda t, a, b: t.pow(a, b),
    "rpow": lambda t, a, b: t.pow(b, a),
    "clamp_min": lambda t, a, b: t.clamp(a, min=b),
    "clamp_max": lambda t, a, b: t.clamp(a, max=b),
    "lt": lambda t, a, b: a < b,
    "maximum": lambda t, a, b: t.maximum(a, b),
    "iadd": lambda t, a, b: a.clone().add_(b) if a.dtype != t.bool else a | b,
}


def _outcome(lib: Any, op: Any, pair: Any) -> Any:
    (values, dtype), (number, number_dtype) = pair
    a = lib.tensor(values, dtype=getattr(lib, dtype))
    b = lib.tensor(number, dtype=getattr(lib, number_dtype))
    try:
        out = op(lib, a, b)
    except (RuntimeError, TypeError) as exc:
        return type(exc).__name__, str(exc)
    return out.tolist(), str(out.dtype)


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("pair", PAIRS, ids=[f"{p[0][1]}-{p[1][1]}" for p in PAIRS])
def test_mixed_integer_operands_as_torch(torch: Any, name: str, pair: Any) -> None:
    assert _outcome(gtorch, OPS[name], pair) == _outcome(torch, OPS[name], pair)


FILLS = {
    "bool_int": lambda t, m: t.tensor([True, False]).masked_fill(m, t.tensor(5)),
    "bool_float": lambda t, m: t.tensor([True, False]).masked_fill(m, 0.5),
    "int_float": lambda t, m: t.ones(2, dtype=t.long).masked_fill(m, t.tensor(2.7)),
    "int_number": lambda t, m: t.ones(2, dtype=t.long).masked_fill(m, -2.7),
    "uint8_negative": lambda t, m: t.ones(2, dtype=t.uint8).masked_fill(m, t.tensor(-2)),
    "int8_overflow": lambda t, m: t.ones(2, dtype=t.int8).masked_fill(m, t.tensor(300)),
    "vector_value": lambda t, m: t.ones(2).masked_fill(m, t.tensor([1.0])),
    "vector_value_": lambda t, m: t.ones(2).masked_fill_(m, t.ones(1, 1)),
    "vector_before_mask": lambda t, m: t.ones(2).masked_fill(m.float(), t.tensor([1.0, 2.0])),
}


@pytest.mark.parametrize("name", list(FILLS))
def test_masked_fill_values_as_torch(torch: Any, name: str) -> None:
    outcomes = []
    for lib in (torch, gtorch):
        try:
            out = FILLS[name](lib, lib.tensor([False, True]))
            outcomes.append((out.tolist(), str(out.dtype)))
        except RuntimeError as exc:
            outcomes.append(("RuntimeError", str(exc)))
    assert outcomes[1] == outcomes[0]


def test_masked_fill_tensor_value_gets_its_gradient(torch: Any) -> None:
    results = []
    for lib in (torch, gtorch):
        mask = lib.tensor([[False, True, True], [True, False, True]])
        a = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        value = lib.tensor(0.5, requires_grad=True)
        out = a.masked_fill(mask, value)
        inplace = a.clone()
        inplace.masked_fill_(mask, value)
        (out * lib.arange(6.0).view(2, 3)).sum().backward()
        results.append((type(out.grad_fn).__name__, type(inplace.grad_fn).__name__,
                        out.tolist(), a.grad.tolist(), value.grad.item(),
                        type(a.masked_fill(mask, lib.tensor(1.0)).grad_fn).__name__))
    assert results[1] == results[0]


EXPRESSIONS = [  # integer and bool tensors in ops whose NumPy counterpart refuses or differs
    "t.where(u > 0, u, -1)",
    "t.where(u > 0, -1, u)",
    "t.where(i > 0, i, 300)",
    "2 ** i",
    "2 ** l",
    "(-1) ** l",
    "1 ** i",
    "t.pow(3, l)",
    "b.topk(1)",
    "t.topk(b, 2, largest=False)",
    "b.topk(5)",
    "b.median()",
    "b.median(0)",
    "b.nanmedian()",
    "b.nanmedian(0)",
    "b.kthvalue(1)",
    "b.kthvalue(5)",
    "t.kthvalue(b, 1, 0)",
    "b.histc()",
    "u.histc()",
    "t.tensor(True).median()",
]


def _value(lib: Any, expression: str) -> Any:
    names = {"t": lib, "u": lib.tensor([3, 200, 0], dtype=lib.uint8),
             "b": lib.tensor([True, False, True]), "i": lib.tensor([-3, 7, 0], dtype=lib.int32),
             "l": lib.tensor([-3, 7, 0])}
    try:
        out = eval(expression, names)  # noqa: S307
    except (RuntimeError, TypeError, NotImplementedError) as exc:
        return type(exc).__name__, str(exc)
    return out.tolist(), str(out.dtype)


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_integer_and_bool_ops_as_torch(torch: Any, expression: str) -> None:
    assert _value(gtorch, expression) == _value(torch, expression)
