"""Issue 17 section 4 against PyTorch: argument errors of the functions with several overloads
(the full "expected one of:" list, or the one plausible overload's complaint), negative sizes,
integer overflow in tensor/full/fill_, C type names in messages, flip's dims keyword; and the
overload table itself, re-read from torch."""

from __future__ import annotations

import re
from typing import Any

import pytest

import gradsh.torch as gtorch
from gradsh.engine.ops.signature_table import NULLABLE, OVERLOADS

OVERLOAD_CALLS = [
    'A.sum(dim=None)',
    'A.sum(None, True)',
    'torch.mean(A, dim=None, keepdim=True)',
    'A.max()',
    'torch.max(A, dim=None)',
    'torch.randn(2, generator=None)',
    'torch.sum(A, keepdim=True)',
    'A.sum(keepdim=True)',
    'A.sum(keepdim=False)',
    'A.sum(dim=0, keepdim=True)',
    'A.sum(0, True)',
    'A.sum((0, 1))',
    'A.sum(dtype=torch.float64)',
    'A.sum(0, keepdim=True, dtype=torch.float64)',
    'torch.sum(A, 0, "x")',
    'torch.sum(A, "a")',
    'A.sum("a")',
    'A.sum(0, 1, 2, 3)',
    'A.sum(foo=1)',
    'A.sum(0, foo=1)',
    'A.mean(keepdim=True)',
    'A.mean(1, keepdim=True)',
    'torch.mean(A, dim=1)',
    'A.std(keepdim=True)',
    'A.std(0, True, True)',
    'A.std(unbiased=False)',
    'A.std(correction=0)',
    'A.std(dim=0, correction=0, keepdim=True)',
    'A.var(0, unbiased="x")',
    'A.max(0, keepdim=True)',
    'A.max(dim=1)',
    'A.max(keepdim=True)',
    'A.max("a")',
    'torch.max(A, A)',
    'torch.max(A, 0, True)',
    'torch.max(A, dim=0, keepdim=True)',
    'torch.max(A, 1.5)',
    'A.min(dim="a")',
    'A.prod(0, keepdim=True)',
    'A.prod(keepdim=True)',
    'torch.add(A, A, alpha=2)',
    'torch.add(A, 2, alpha=2)',
    'torch.add(A, "a")',
    'A.add(A, alpha="x")',
    'A.add(A, beta=2)',
    'torch.sub(A, 1, alpha=2)',
    'torch.div(A, 2, rounding_mode="floor")',
    'torch.div(A, A, rounding_mode=1)',
    'A.div(2, foo=1)',
    'torch.pow(A, 2)',
    'torch.pow(2, A)',
    'torch.pow(A, "x")',
    'A.pow(exponent=2)',
    'torch.clamp(A, "x")',
    'torch.clamp(A, min=0)',
    'torch.clamp(A, min=0, max=1)',
    'torch.clamp(A, max=A)',
    'A.clamp(min="a")',
    'A.clamp(0, 1, 2)',
    'torch.clip(A, min=0)',
    'A.view("a")',
    'A.view(6)',
    'A.view(2, "a")',
    'A.squeeze(dim=0)',
    'A.squeeze("a")',
    'torch.squeeze(A, dim=(0,))',
    'torch.rand(2, 3, dtype=torch.float64)',
    'torch.rand(2, "a")',
    'torch.rand((2, 3), foo=1)',
    'torch.randn(2, generator=None)',
    'torch.randint(0, 5, (2,))',
    'torch.randint(5, size=(2,))',
    'torch.randint(5, (2,), dtype=torch.int32)',
    'torch.randint("a", (2,))',
    'torch.randint(high=5, size=(2,))',
    'torch.linspace(0, 1, steps=5)',
    'torch.linspace(0, 1, 5, dtype=torch.float64)',
    'torch.linspace(0, 1, "a")',
    'torch.where(B, A, 0.)',
    'torch.where(B, 1., 0.)',
    'torch.where(B, A, "x")',
    'torch.where(B)',
    'A.where(B, 0.)',
    'A.where(B, other=A)',
    'A.sort(dim=0, descending=True)',
    'A.sort(0, "x")',
    'torch.sort(A, stable=True)',
    'torch.sort(A, dim=1, stable=True, descending=True)',
    'A.masked_fill(B, 1.)',
    'A.masked_fill(B, value=2.)',
    'A.masked_fill(B, "x")',
    'A.masked_fill(mask=B, value=1)',
    'torch.eq(A, 1)',
    'torch.eq(A, "a")',
    'A.eq(other=A)',
    'A.gt(1, 2)',
    'A.to(torch.float64)',
    'A.to("cpu")',
    'A.to("cpu", torch.float64)',
    'A.to(dtype=torch.float64, copy=True)',
    'A.to(A)',
    'A.to(device="cpu", foo=1)',
    'A.all(dim=0)',
    'A.all(0, keepdim=True)',
    'A.any("a")',
    'torch.median(A, 0)',
    'torch.median(A, dim=0, keepdim=True)',
    'A.median("a")',
    'torch.nonzero(A, as_tuple=True)',
    'A.nonzero(as_tuple=False)',
    'A.narrow(0, 0, 1)',
    'A.narrow(0, "a", 1)',
    'A.fill_(1.)',
    'A.fill_("a")',
    'A.add_(1, alpha=2)',
    'A.add_("x")',
    'A.clamp_(min=0)',
    'A.clamp_("a")',
    'torch.lerp(A, A, 0.5)',
    'torch.lerp(A, A, "x")',
    'torch.addcmul(A, A, A, value=2)',
    'A.addcdiv(A, A, value="x")',
    'torch.remainder(A, 2)',
    'torch.remainder(2, A)',
    'torch.remainder(A, "x")',
    'torch.fmod(A, 2)',
    'A.fmod("x")',
    'torch.tensor_split(A, 2)',
    'torch.tensor_split(A, (1,), dim=1)',
    'torch.tensor_split(A, "x")',
    'torch.count_nonzero(A, dim=0)',
    'torch.count_nonzero(A, dim=(0, 1))',
    'torch.count_nonzero(A, "x")',
    'torch.std_mean(A, dim=0)',
    'torch.var_mean(A, 0, unbiased=False)',
    'torch.std_mean(A, correction=0)',
    'torch.randperm(5, dtype=torch.int32)',
    'torch.randperm("a")',
    'torch.bernoulli(A * 0.5, generator=None)',
    'A.type(torch.float64)',
    'A.type("torch.DoubleTensor")',
    'A.type(1)',
    'torch.rand_like(A, dtype=torch.float64)',
    'torch.randn_like(A, foo=1)',
    'A.scatter(0, I, 1.)',
    'A.scatter(0, I, A)',
    'A.scatter(0, I, "x")',
    'A.scatter(dim=0, index=I, src=A)',
    'torch.mm(A, A.t())',
    'torch.mm(A, 2)',
    'A.sub(1, alpha=2)',
    'A.sub_(1, alpha=2)',
]
# Positional calls, matched against the overloads as keyword calls are (torch.addcmul(A, A, A,
# 2) is refused), PyTorch's deprecated overloads (torch.add(A, 2, A) is taken), and the calls
# of the table's functions gradsh once could not make: x.view(dtype) and view's keywords,
# squeeze's varargs, to(number), bernoulli(p=), scatter(reduce=), div_(rounding_mode=).
OVERLOAD_CALLS += [
    'torch.addcmul(A, A, A, 2)',
    'A.addcmul(A, A, 2)',
    'torch.addcdiv(A, A, A, 2, 3)',
    'torch.add(A, A, 2)',
    'A.add(A, 2)',
    'A.sub(A, 1, 2)',
    'A.sum(0, True, torch.float64)',
    'torch.mean(A, 0, True, torch.float64)',
    'A.max(0, True, 1)',
    'torch.where(A > 0, A, A, A)',
    'A.to(torch.float64, False, False, 1)',
    'A.pow(2, 3)',
    'A.clamp(0, 1, 2)',
    'A.view(2, 3, 1, "x")',
    'torch.squeeze(A, 0, 1)',
    'A.eq(1, 2)',
    'torch.addcmul(A, 2, A, A)',
    'torch.addcdiv(A, 0.5, A, A)',
    'torch.add(A, 2, A)',
    'torch.sub(A, 2, A)',
    'A.add(2, A)',
    'A.addcmul(2, A, A)',
    'A.clone().add_(2, A)',
    'A.clone().sub_(2, A)',
    'A.clone().addcmul_(2, A, A)',
    'A.clone().addcdiv_(2, A, A)',
    'torch.add(A, 2, A, out=torch.empty(2, 3))',
    'A.add("a", A)',
    'A.view(torch.int32)',
    'A.view(dtype=torch.int16)',
    'A.view(size=(3, 2))',
    'A.view(size=(3, 2), dtype=torch.int32)',
    'A.view(torch.float64)',
    'A.squeeze(0, 1)',
    'A.to(1.5)',
    'A.to(True)',
    'torch.bernoulli(A / 2, p=0.3)',
    'torch.bernoulli(A / 2, 0.3)',
    'A.bernoulli(p=0.3)',
    'torch.bernoulli(A, p="x")',
    'A.scatter(0, I[:1], A, reduce="add")',
    'A.scatter(0, I[:1], 2.0, reduce="multiply")',
    'A.scatter(0, I[:1], A, reduce="mean")',
    'A.clone().scatter_(0, I[:1], A, reduce="add")',
    'A.clone().div_(A, rounding_mode="floor")',
    'A.clone().div_(2, rounding_mode="trunc")',
    'A.clone().div_(2, rounding_mode="x")',
    'I.clone().div_(2, rounding_mode="floor")',
]

SIZE_AND_OVERFLOW = [
    # a float size: the first element fails the match, a later one the unpacking (kuangliu's
    # ShuffleNetG2 builds Conv2d(in, out / 4.0 ...) and torch.empty gets a float size)
    'torch.empty((2.0, 3))', 'torch.empty((2, 3.0))', 'torch.empty(2.0, 3)',
    'torch.zeros((2.0,))', 'torch.ones(2.0, 3)', 'torch.randn((2.0, 3))',
    'torch.full((2.0, 3), 1.0)', 'torch.empty((True, 3))', 'torch.nn.Conv2d(4, 8.0, 1)',
    'A.reshape((2.0, 2))', 'A.reshape((2, 2.0))', 'A.reshape(2.0, 2)', 'A.reshape(2, 2.0)',
    'A.reshape(4.0)', 'A.expand(2.0, 2)', 'A.expand((2, 2.0))', 'A.permute((1, 0.0))',
    'A.permute(1.5)',
    'torch.zeros(-1)',
    'torch.zeros(2, -3)',
    'torch.ones(-1)',
    'torch.empty(-1)',
    'torch.full((-1,), 2.)',
    'torch.rand(-1)',
    'torch.randn(2, -1)',
    'torch.randint(3, (-1,))',
    'A.new_zeros(-1)',
    'A.new_ones((2,-1))',
    'A.new_empty(-1)',
    'A.new_full((-1,), 1.)',
    'torch.zeros((-1, 2))',
    'torch.eye(-1)',
    'torch.arange(-1)',
    'torch.zeros(-1, dtype=torch.int64)',
    'torch.ones(0, -1)',
    'A.view(-1, -1)',
    'A.reshape(-2)',
    'A.expand(-2)',
    'torch.randperm(-1)',
    'torch.linspace(0, 1, -1)',
    'torch.normal(0., 1., (-1,))',
    'torch.Tensor(-1)',
    'torch.ones(2,2).repeat(-1,1)',
    'torch.zeros_like(A, dtype=torch.int32)',
    'torch.tensor([3000000000], dtype=torch.int32)',
    'torch.tensor([300], dtype=torch.int8)',
    'torch.tensor([-129], dtype=torch.int8)',
    'torch.tensor([256], dtype=torch.uint8)',
    'torch.tensor([-1], dtype=torch.uint8)',
    'torch.tensor([2**63])',
    'torch.tensor([1e40], dtype=torch.float32)',
    'torch.tensor(3000000000, dtype=torch.int32)',
    'torch.tensor([[1, 2**40]], dtype=torch.int32)',
    'torch.tensor([True, 2], dtype=torch.bool)',
    'torch.full((2,), 3000000000, dtype=torch.int32)',
    'torch.ones(2, dtype=torch.int8).fill_(300)',
    'torch.tensor([1.5], dtype=torch.int32)',
    'torch.tensor([3e9], dtype=torch.int32)',
    'A.new_tensor([3000000000], dtype=torch.int32)',
    'torch.as_tensor([3000000000], dtype=torch.int32)',
]
# Not yet: int32 * 3000000000 (PyTorch wraps the scalar into int32; gradsh's NumPy refuses it).

DTYPE_NAMES = [
    'A @ L',
    'A.mm(I)',
    'L @ A',
    'A.masked_fill(L, 1.)',
    'A.masked_fill(U, 1.)',
    'torch.where(L, A, A)',
    'A.gather(0, A)',
    'A.index_select(0, A[0])',
    'torch.mm(A, D)',
    'torch.mm(H, A)',
    'torch.dot(A[0], L[0])',
    'torch.bmm(A[None], D[None])',
    'A.mv(D[0])',
    'torch.cat([A, L]).dtype',
    'A.scatter(0, A, 1.)',
    'torch.nn.functional.embedding(A, A)',
    'torch.nn.functional.cross_entropy(A, A[0])',
    'torch.nn.functional.nll_loss(A, A[0])',
    'A.index_add(0, I[0], A)',
    'torch.matmul(I, D)',
    'L.mean()',
    'torch.addmm(A, A, L)',
    # addmm checks the dtypes before the dimensions and the shapes (F.linear with a bias
    # calls it for 2-D and flattened inputs): a uint8 image into a float Linear
    'torch.addmm(A[0], U.view(4, 1), A)',
    'torch.addmm(A, U.view(1, 2, 2), A)',
    'torch.addmm(D[0], A.view(4, 1), A)',
    'torch.nn.functional.linear(U.view(1, 4), A, A[0])',
    'torch.nn.functional.linear(U.view(1, 1, 4), A, A[0])',
    'torch.nn.functional.linear(U.view(4), A, A[0])',
    'torch.nn.functional.linear(A.view(2, 1, 2), D, A[0])',
    'A.lerp(D, 0.5)',
    'A.copy_(L)',
    'torch.outer(A[0], L[0])',
]

FLIP = [
    'torch.flip(A, dims=(0, 1))',
    'A.flip(dims=(0,))',
    'A.flip(0)',
    'A.flip(0, 1)',
    'A.flip([0, 1])',
    'torch.flip(A, [1])',
    'A.flip()',
    'torch.flip(A)',
    'A.flip(dims=0)',
    'A.flip(0, dims=(1,))',
    'torch.flip(A, dims=[1])',
]


def outcome(torch: Any, expression: str) -> tuple[str, str]:
    """What an expression gives: ("ok", "") or (error type, first line of the message)."""
    names = {"torch": torch, "A": torch.ones(2, 3), "I": torch.ones(2, 3, dtype=torch.int64),
             "B": torch.ones(2, 3) > 0}
    try:
        eval(expression, names)  # noqa: S307  (the test's own expressions)
    except Exception as error:  # noqa: BLE001  (the error is the result compared)
        return type(error).__name__, str(error)
    return "ok", ""


def _flip_names(torch: Any) -> dict[str, Any]:
    return {"torch": torch, "A": torch.arange(4.0).view(2, 2)}


@pytest.mark.parametrize("expression", OVERLOAD_CALLS + SIZE_AND_OVERFLOW)
def test_argument_errors_are_torchs(torch: Any, expression: str) -> None:
    assert outcome(gtorch, expression) == outcome(torch, expression)


@pytest.mark.parametrize("expression", DTYPE_NAMES)
def test_dtype_names_in_messages(torch: Any, expression: str) -> None:
    def run(t: Any) -> tuple[str, str]:
        names = {"torch": t, "A": t.ones(2, 2), "L": t.ones(2, 2, dtype=t.int64),
                 "I": t.ones(2, 2, dtype=t.int32), "H": t.ones(2, 2, dtype=t.float16),
                 "D": t.ones(2, 2, dtype=t.float64), "U": t.ones(2, 2, dtype=t.uint8)}
        try:
            eval(expression, names)  # noqa: S307
        except Exception as error:  # noqa: BLE001
            return type(error).__name__, str(error)
        return "ok", ""

    assert run(gtorch) == run(torch)


@pytest.mark.parametrize("expression", FLIP)
def test_flip_takes_dims_as_pytorch_does(torch: Any, expression: str) -> None:
    def run(t: Any) -> Any:
        try:
            return eval(expression, _flip_names(t)).tolist()  # noqa: S307
        except TypeError as error:
            return str(error)

    assert run(gtorch) == run(torch)


def test_the_full_list_of_overloads() -> None:
    """The text users see most: every overload, and which of them matched the count."""
    with pytest.raises(TypeError) as caught:
        gtorch.ones(2).view("a")
    assert str(caught.value) == (
        "view() received an invalid combination of arguments - got (str), but expected one "
        "of:\n * (torch.dtype dtype)\n      didn't match because some of the arguments have "
        "invalid types: (!str!)\n * (tuple of ints size)\n      didn't match because some of "
        "the arguments have invalid types: (!str!)\n")


def harvest(torch: Any, name: str, method: bool) -> tuple[str, ...]:
    """The overloads torch lists for `name`, provoked by nine arguments of no known type."""
    target = getattr(torch.ones(2, 2) if method else torch, name, None)
    if target is None:
        return ()
    try:
        target(*[object()] * 9)
    except TypeError as error:
        text = str(error)
    else:
        return ()
    if "but expected one of:" in text:
        return tuple(line[3:] for line in text.split("\n") if line.startswith(" * "))
    single = re.search(r"but expected (\(.*\))$", text)
    return (single.group(1),) if single else ()


@pytest.mark.parametrize("name", sorted(OVERLOADS))
def test_the_overload_table_is_torchs(torch: Any, name: str) -> None:
    function, method = OVERLOADS[name]
    assert (harvest(torch, name, False), harvest(torch, name, True)) == (function, method)


def test_the_nullable_parameters_are_torchs(torch: Any) -> None:
    """Parameters without a printed default that take None: Optional in the op's schemas."""
    found = {}
    for name, (function, method) in OVERLOADS.items():
        schemas = torch._C._jit_get_schemas_for_operator(f"aten::{name}")
        optional = {("input" if a.name == "self" else a.name) for s in schemas
                    for a in s.arguments if str(a.type).startswith("Optional[")}
        names = {part.rsplit(" ", 1)[1] for text in function + method
                 for part in text[1:-1].split(", ") if part not in ("*", "") and " = " not in part}
        if names & optional:
            found[name] = frozenset(names & optional)
    assert found == NULLABLE



def test_backward_is_named_as_pytorchs_python_method(torch: Any) -> None:
    """Tensor.backward is a Python method in PyTorch: a keyword it does not take (old
    programs' retain_variables=True) is Python's error naming `Tensor.backward`."""
    def outcome(lib: Any) -> tuple[str, str]:
        x = lib.ones(2, requires_grad=True)
        loss = (x * 2).sum()
        with pytest.raises(TypeError) as caught:
            loss.backward(retain_variables=True)
        return str(caught.value), re.sub(r"tensor\(.*\)", "", repr(loss.backward))

    assert outcome(gtorch) == outcome(torch)
