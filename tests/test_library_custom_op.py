"""torch.library.custom_op against PyTorch: the generated autograd Function (its grad_fn name),
register_autograd's formula with setup_context, the error without one, keyword arguments bound
by the signature, mutating ops, torch.ops namespaces and gradcheck."""

import itertools
from typing import Any

import numpy as np

import gradsh.torch as gtorch

# one namespace per session and library (PyTorch refuses a second registration of a name)
_COUNTERS: dict[str, Any] = {}


def _session(lib: Any) -> list[str]:
    ns = f"gradsh_test{next(_COUNTERS.setdefault(lib.__name__, itertools.count()))}"
    seen: list[str] = []

    @lib.library.custom_op(f"{ns}::npsin", mutates_args=())
    def npsin(x: lib.Tensor, scale: float = 1.0) -> lib.Tensor:
        return lib.from_numpy(np.sin(x.numpy()) * scale)

    @npsin.register_fake
    def _(x: Any, scale: float = 1.0) -> Any:
        return lib.empty_like(x)

    x = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
    y = npsin(x, scale=2.0)
    seen += [repr(y), type(y.grad_fn).__name__]
    try:
        y.sum().backward()
    except RuntimeError as error:
        seen.append(str(error))

    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
        ctx.save_for_backward(inputs[0])
        ctx.scale = inputs[1]

    def backward(ctx: Any, grad: Any) -> Any:
        (saved,) = ctx.saved_tensors
        return grad * saved.cos() * ctx.scale, None

    npsin.register_autograd(backward, setup_context=setup_context)
    y = getattr(getattr(lib.ops, ns), "npsin")(x, 3.0)
    (y * lib.arange(3.0, dtype=lib.float64)).sum().backward()
    seen += [repr(y), repr(x.grad), repr(getattr(lib.ops, ns).npsin.default)]
    seen.append(repr(lib.autograd.gradcheck(lambda t: npsin(t, 0.5), (x,))))
    with lib.no_grad():
        seen.append(repr(npsin(x).requires_grad))

    @lib.library.custom_op(f"{ns}::fill_", mutates_args=("x",))
    def fill_(x: lib.Tensor, value: float) -> None:
        x.fill_(value)

    t = lib.zeros(2)
    seen += [repr(fill_(t, 4.0)), repr(t)]
    return seen


def test_custom_op_matches_torch(torch: Any) -> None:
    assert _session(gtorch) == _session(torch)
