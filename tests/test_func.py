"""torch.func under gradsh against PyTorch: the transforms' values, output structure,
requires_grad and grad_fn, their nesting and composition with backward, and error texts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradcheck import check_grads


def _f(T: Any, x: Any) -> Any:
    return (x.sin() * x).sum()


def _g(T: Any, x: Any) -> Any:
    return x.exp() * x[:1] + x.pow(3)


# Each program returns what a user would look at.
PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "grad": lambda T: T.func.grad(lambda x: _f(T, x))(T.tensor([0.5, 1.0, 2.0])),
    "grad_argnums": lambda T: T.func.grad(lambda x, y: (x * y.exp()).sum(), argnums=(0, 1))(
        T.tensor([1.0, 2.0]), T.tensor([0.5, -0.5])),
    "grad_dict": lambda T: T.func.grad(lambda p, x: (p["w"] * x + p["b"]).pow(2).sum())(
        {"w": T.tensor([2.0]), "b": T.tensor([0.5])}, T.tensor([1.0, 3.0])),
    "grad_and_value_aux": lambda T: T.func.grad_and_value(
        lambda x: ((x**2).sum(), x.mean()), has_aux=True)(T.tensor([1.0, -2.0, 4.0])),
    "grad_requires_grad": lambda T: (lambda x: (lambda g: (g, g.requires_grad,
                                                           type(g.grad_fn).__name__))(
        T.func.grad(lambda v: _f(T, v))(x)))(T.tensor([0.5, 1.0], requires_grad=True)),
    "grad_of_grad": lambda T: T.func.grad(T.func.grad(lambda x: x.sin() * x**3))(
        T.tensor(1.3)),
    "grad_then_backward": lambda T: (lambda x: (T.func.grad(lambda v: (v**3).sum())(x)
                                                .sum().backward(), x.grad)[1])(
        T.tensor([1.0, 2.0], requires_grad=True)),
    "vjp": lambda T: (lambda out, fn: (out, fn(T.tensor([1.0, 0.5, -1.0]))))(
        *T.func.vjp(lambda x: _g(T, x), T.tensor([0.2, 0.4, 0.6]))),
    "jvp": lambda T: T.func.jvp(lambda x: _g(T, x), (T.tensor([0.2, 0.4, 0.6]),),
                                (T.tensor([1.0, 0.0, 2.0]),)),
    "jacrev": lambda T: T.func.jacrev(lambda x: _g(T, x))(T.tensor([0.2, 0.4, 0.6])),
    "jacrev_argnums": lambda T: T.func.jacrev(lambda x, y: x * y.sum(), argnums=(0, 1))(
        T.tensor([1.0, 2.0]), T.tensor([3.0, 4.0, 5.0])),
    "jacfwd": lambda T: T.func.jacfwd(lambda x: _g(T, x))(T.tensor([0.2, 0.4, 0.6])),
    "hessian": lambda T: T.func.hessian(lambda x: (x.exp() * x.sum()).sum())(
        T.tensor([0.1, 0.2, 0.3])),
    "vmap": lambda T: T.func.vmap(lambda r: r.dot(r))(T.arange(6.0).reshape(2, 3)),
    "vmap_in_dims": lambda T: T.func.vmap(lambda a, b: a * b, in_dims=(1, None))(
        T.arange(6.0).reshape(3, 2), T.tensor([1.0, 2.0, 3.0])),
    "vmap_out_dims": lambda T: T.func.vmap(lambda a: (a * 2, a.sum()), out_dims=(1, 0))(
        T.arange(6.0).reshape(2, 3)),
    "vmap_grad": lambda T: T.func.vmap(T.func.grad(lambda x: _f(T, x)))(
        T.tensor([[0.5, 1.0], [2.0, -1.0]])),
    "functional_call": lambda T: (lambda m: (T.func.functional_call(
        m, {"weight": T.ones(1, 2), "bias": T.zeros(1)}, (T.tensor([[1.0, 2.0]]),)),
        m.weight.shape))(T.nn.Linear(2, 1)),
    "functional_call_grad": lambda T: (lambda m: T.func.grad(
        lambda p, x: T.func.functional_call(m, p, (x,)).pow(2).sum())(
        {k: v.detach() for k, v in m.named_parameters()}, T.tensor([[1.0, 2.0]])))(
        (T.manual_seed(0), T.nn.Linear(2, 3))[1]),
    "stack_module_state": lambda T: (lambda models: T.func.stack_module_state(models))(
        [(T.manual_seed(i), T.nn.Linear(2, 2))[1] for i in range(3)]),
}


def _plain(value: Any) -> Any:
    if type(value).__name__ == "Size":
        return tuple(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(v) for v in value)
    if type(value).__name__ in ("Tensor", "Parameter"):
        return ("tensor", value.requires_grad, value.grad_fn is None,
                value.detach().numpy())
    return value


def _compare(have: Any, want: Any, where: str = "") -> None:
    if isinstance(want, dict):
        assert isinstance(have, dict) and list(have) == list(want), where
        for key in want:
            _compare(have[key], want[key], f"{where}.{key}")
    elif isinstance(want, (tuple, list)) and not (want and want[0] == "tensor"):
        assert type(have) is type(want) and len(have) == len(want), where
        for i, (h, w) in enumerate(zip(have, want)):
            _compare(h, w, f"{where}[{i}]")
    elif isinstance(want, tuple):
        assert have[:3] == want[:3], where
        assert have[3].shape == want[3].shape, where
        np.testing.assert_allclose(have[3], want[3], rtol=1e-6, atol=1e-6, err_msg=where)
    else:
        assert have == want, where


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_func_matches_torch(torch: Any, name: str) -> None:
    _compare(_plain(PROGRAMS[name](gtorch)), _plain(PROGRAMS[name](torch)), name)


def test_func_errors_match_torch(torch: Any) -> None:
    def errors(T: Any) -> list[str]:
        F = T.func
        x = T.tensor([1.0, 2.0])
        attempts: list[Callable[[], Any]] = [
            lambda: F.grad(lambda v: v.sin())(x),
            lambda: F.grad(lambda v: 3.0)(x),
            lambda: F.grad(lambda v: v.sum(), has_aux=True)(x),
            lambda: F.grad(lambda v: v.sum(), argnums=1)(x),
            lambda: F.jvp(lambda v: v, x, (x,)),
            lambda: F.vmap(lambda a, b: a + b)(T.ones(2), T.ones(3)),
            lambda: F.vmap(lambda a: a, in_dims=(0, 0))(T.ones(2)),
            lambda: F.vmap(lambda a: a, in_dims=None)(T.ones(2)),
            lambda: F.vmap(lambda a: a, in_dims=(None,))(T.ones(2)),
            lambda: F.vmap(lambda a: a)(3.0),
            lambda: F.vmap(lambda a: a)(T.tensor(1.0)),
            lambda: F.stack_module_state([]),
            lambda: F.vmap(lambda a: a + T.rand(2))(T.ones(3, 2)),
            lambda: F.vmap(lambda a: T.nn.functional.dropout(a, 0.5))(T.ones(3, 2)),
            lambda: F.vmap(lambda a: a.bernoulli_(0.5))(T.ones(3, 2)),
            lambda: F.vmap(lambda a: a, randomness="other"),
        ]
        out = []
        for attempt in attempts:
            try:
                attempt()
                out.append("no error")
            except (RuntimeError, ValueError) as error:
                out.append(f"{type(error).__name__}: {error}")
        return out

    assert errors(gtorch) == errors(torch)


@pytest.mark.parametrize("randomness", ["same", "different"])
def test_vmap_randomness_matches_torch(torch: Any, randomness: str) -> None:
    """Draws inside vmap: "same" gives every index the first index's draw and leaves the
    generator one draw on, "different" draws per index; both bit for bit, and the next draw
    after the vmap shows where the generator stands. A draw in "error" mode draws nothing.
    ("different" normals of 16 or more elements in all are not compared: PyTorch draws them
    as one batched NormalFill16, which per-index draws do not reproduce.)"""
    def run(T: Any) -> list[np.ndarray]:
        T.manual_seed(0)
        small = T.func.vmap(lambda a: a + T.rand(2), randomness=randomness)(T.zeros(3, 2))
        after_small = T.rand(2)
        big = T.func.vmap(lambda a: a * T.randn(20 if randomness == "same" else 4),
                          randomness=randomness)(T.ones(3, 20 if randomness == "same" else 4))
        dropped = T.func.vmap(lambda a: T.nn.functional.dropout(a, 0.5),
                              randomness=randomness)(T.ones(4, 5))
        try:
            T.func.vmap(lambda a: a + T.rand(2))(T.zeros(3, 2))
        except RuntimeError:
            pass
        return [v.numpy() for v in (small, after_small, big, dropped, T.rand(3))]

    for have, want in zip(run(gtorch), run(torch)):
        np.testing.assert_array_equal(have, want)


def test_grad_against_finite_differences() -> None:
    """torch.func.grad of a scalar function, differentiated again by gradsh's backward, against
    finite differences (the second derivative check exercises the nested graph)."""
    inner = gtorch.func.grad(lambda x: (x.sin() * x.exp()).sum())
    check_grads(lambda x: inner(x), np.array([0.3, -0.7, 1.2]))


def test_functionalize_matches_torch(torch: Any) -> None:
    """torch.func.functionalize run eagerly: the same values, input mutations kept, an input
    returned as an output comes back as a new tensor (a view of an input stays a view), the
    wrapper keeps the function's name, and an invalid `remove` has PyTorch's error."""
    from call_outcomes import outcomes

    def cases(T: Any) -> list[tuple[str, str]]:
        def chained(t: Any) -> Any:
            y = t.clone()
            y.add_(1)
            y.mul_(2)
            return y

        def mutates_input(t: Any) -> Any:
            t.add_(1)
            t[0].mul_(2)
            return t

        def run_mutation() -> Any:
            x = T.zeros(2, 2)
            out = T.func.functionalize(mutates_input)(x)
            return x, out, out is x, out.data_ptr() == x.data_ptr()

        def run_view() -> Any:
            x = T.arange(6.0).view(2, 3)
            out = T.func.functionalize(lambda t: t.view(-1))(x)
            return out, out.data_ptr() == x.data_ptr(), out._base is x

        a = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
        return outcomes([
            lambda: T.func.functionalize(chained)(a),
            lambda: type(T.func.functionalize(chained, remove="mutations_and_views")(a).grad_fn)
            .__name__,
            run_mutation,
            run_view,
            lambda: T.func.functionalize(chained).__name__,
            lambda: T.func.functionalize(chained, remove="views"),
        ])

    assert cases(gtorch) == cases(torch)


def test_vmap_of_linear_gives_the_decomposition_node(torch: Any) -> None:
    """Under vmap, F.linear with a bias is functorch's linear_decomp (matmul, then add): the
    batched result's node is AddBackward0 whatever the example's rank (gradsh's stack node
    takes that name), not the unbatched op's ViewBackward0 / AddmmBackward0."""
    names = []
    for T in (torch, gtorch):
        T.manual_seed(0)
        lin = T.nn.Linear(3, 2)
        got = [T.func.vmap(lin)(x).grad_fn.name() for x in (T.randn(4, 3), T.randn(4, 5, 3))]
        values = T.func.vmap(lin)(T.randn(4, 3)).detach().numpy()
        names.append((got, values))
    assert names[1][0] == names[0][0]
    np.testing.assert_array_equal(names[1][1], names[0][1])


def _scaled_jvp(lib: Any) -> Any:
    """A custom Function whose jvp staticmethod is not its derivative (3 * tangent where the
    derivative is 2x): what forward mode reads shows which path ran."""

    class Square(lib.autograd.Function):
        generate_vmap_rule = True  # (jacfwd vmaps in PyTorch)

        @staticmethod
        def forward(x: Any) -> Any:
            return x * x

        @staticmethod
        def setup_context(ctx: Any, inputs: Any, output: Any) -> None:
            ctx.save_for_forward(inputs[0])
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return 2 * x * g

        @staticmethod
        def jvp(ctx: Any, t: Any) -> Any:
            return 3 * t

    return Square


def test_forward_transforms_call_a_custom_jvp(torch: Any) -> None:
    """jvp and jacfwd run forward-mode AD as PyTorch's do (the Function's jvp is called);
    nested in another transform (jvp(grad(f)), jacfwd(jacfwd(f))) they still match."""
    results = []
    for lib in (torch, gtorch):
        square = _scaled_jvp(lib)
        x = lib.tensor([1.0, -2.0, 0.5])
        f = lambda v, square=square: square.apply(v).sum()  # noqa: E731
        results.append([
            lib.func.jvp(square.apply, (x,), (lib.ones(3),))[1],
            lib.func.jacfwd(square.apply)(x),
            lib.func.jvp(lib.func.grad(lambda v: (v.sin() * v).sum()), (x,), (lib.ones(3),))[1],
            lib.func.jacfwd(lib.func.jacfwd(lambda v: v.sin() * v))(x),
            lib.func.jacrev(f)(x),
        ])
    for theirs, ours in zip(*results, strict=True):
        assert np.allclose(theirs.numpy(), ours.numpy(), atol=1e-6), (theirs, ours)
