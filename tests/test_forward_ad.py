"""torch.autograd.forward_ad: dual tensors, tangents through ops, modules and custom Functions,
against PyTorch and against float64 finite differences."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gradsh.torch as gtorch
from gradsh.torch.autograd.gradcheck import GradcheckError


def _outcome(action: Callable[[], Any]) -> str:
    try:
        return repr(action())
    except Exception as error:  # noqa: BLE001  (the error itself is what is compared)
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"


def _api(lib: Any) -> list[str]:
    fw = lib.autograd.forward_ad
    lib.manual_seed(0)
    p = lib.randn(3, requires_grad=True)
    t = lib.randn(3)
    seen = [_outcome(lambda: fw.make_dual(p, t))]
    with fw.dual_level() as level:
        d = fw.make_dual(p, t)
        u = fw.unpack_dual(d)
        seen += [repr(level), repr(d), type(d.grad_fn).__name__, repr(d._base is p), repr(u),
                 type(u).__name__, repr(u.tangent is t), repr(fw.unpack_dual(p))]
        seen.append(_outcome(lambda: fw.make_dual(p, lib.randn(2))))
        seen.append(_outcome(lambda: fw.make_dual(lib.tensor([1, 2]), lib.tensor([1, 2]))))
        seen.append(_outcome(lambda: fw.make_dual(lib.randn(2), lib.tensor([1, 2]))))
        seen.append(_outcome(lambda: fw.make_dual(d, t)))
        seen.append(repr(fw.unpack_dual(fw.make_dual(p, t.expand(3, 3)[0])).tangent is t))
        with lib.no_grad():
            seen.append(repr(d * 3))
        e = fw.make_dual(lib.randn(3), t)
        w = e.clone()
        w.mul_(2)
        seen += [repr(fw.unpack_dual(w).tangent), repr(fw.unpack_dual(e.sum())),
                 repr(fw.unpack_dual(e[1:]).tangent), repr(fw.unpack_dual(e.argmax()))]
    seen.append(repr(fw.unpack_dual(d)))
    seen.append(_outcome(fw.enter_dual_level))
    seen.append(_outcome(fw.enter_dual_level))
    seen.append(_outcome(fw.exit_dual_level))
    seen.append(_outcome(fw.exit_dual_level))
    return seen


def test_dual_tensor_api_matches_torch(torch: Any) -> None:
    assert _api(gtorch) == _api(torch)


# (name, function of the inputs, input shapes): tangents of common ops
CASES = [
    ("pow_add", lambda m, x, y: x ** 2 + y ** 2, [(4, 5), (4, 5)]),
    ("mul_div", lambda m, x, y: x * y / (y.abs() + 1), [(3, 4), (4,)]),
    ("unary", lambda m, x: (x.sin() + x.cos() * x.exp()).tanh().sigmoid(), [(6,)]),
    ("relu_gelu", lambda m, x: m.nn.functional.gelu(x) + x.relu(), [(2, 5)]),
    ("softmax", lambda m, x: m.softmax(x, -1) * m.log_softmax(x, 0), [(3, 4)]),
    ("matmul", lambda m, x, y: (x @ y).sum(0) + x.mean(), [(3, 4), (4, 2)]),
    ("linear", lambda m, x, w, b: m.nn.functional.linear(x, w, b), [(5, 3), (2, 3), (2,)]),
    ("views", lambda m, x: x.t().reshape(-1)[2:7] * x.view(12)[:5], [(3, 4)]),
    ("reductions", lambda m, x: x.sum(1) + x.max(1)[0] - x.norm(dim=1) + x.var(1), [(3, 5)]),
    ("cat_stack", lambda m, x, y: m.cat([x, y]).sum(0) * m.stack([x, y]).mean(0)[0],
     [(2, 3), (2, 3)]),
    ("conv", lambda m, x, w: m.nn.functional.conv2d(x, w, padding=1), [(1, 2, 5, 5),
                                                                       (3, 2, 3, 3)]),
]


def _tangents(lib: Any, fn: Callable[..., Any], primals: list[np.ndarray],
              tangents: list[np.ndarray], dtype: Any) -> np.ndarray:
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        duals = [fw.make_dual(lib.tensor(p, dtype=dtype), lib.tensor(t, dtype=dtype))
                 for p, t in zip(primals, tangents)]
        out = fn(lib, *duals)
        tangent = fw.unpack_dual(out).tangent
    return tangent.detach().numpy()


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_tangents_match_torch_and_finite_differences(torch: Any, name: str,
                                                     fn: Callable[..., Any],
                                                     shapes: list[tuple[int, ...]]) -> None:
    rng = np.random.default_rng(len(name))
    primals = [rng.standard_normal(s) for s in shapes]
    tangents = [rng.standard_normal(s) for s in shapes]
    f32 = [p.astype(np.float32) for p in primals], [t.astype(np.float32) for t in tangents]
    ours = _tangents(gtorch, fn, *f32, gtorch.float32)
    theirs = _tangents(torch, fn, *f32, torch.float32)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    ours64 = _tangents(gtorch, fn, primals, tangents, gtorch.float64)
    eps = 1e-6

    def value(step: float) -> np.ndarray:
        args = [gtorch.tensor(p + step * t, dtype=gtorch.float64)
                for p, t in zip(primals, tangents)]
        return fn(gtorch, *args).detach().numpy()

    numerical = (value(eps) - value(-eps)) / (2 * eps)
    np.testing.assert_allclose(ours64, numerical, rtol=1e-5, atol=1e-6)


def _module(lib: Any) -> list[str]:
    fw = lib.autograd.forward_ad
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Linear(5, 4)
    x = lib.randn(6, 5)
    params = dict(model.named_parameters())
    tangents = {name: lib.rand_like(p) for name, p in params.items()}
    with fw.dual_level():
        for name, p in params.items():
            delattr(model, name)
            setattr(model, name, fw.make_dual(p, tangents[name]))
        jvp = fw.unpack_dual(model(x)).tangent
    fresh = nn.Linear(5, 4)
    with fw.dual_level():
        duals = {name: fw.make_dual(p, tangents[name]) for name, p in params.items()}
        jvp2 = fw.unpack_dual(lib.func.functional_call(fresh, duals, x)).tangent
    return [repr(jvp[:2]), repr(lib.allclose(jvp, jvp2))]


def test_module_tangents_match_torch(torch: Any) -> None:
    assert _module(gtorch) == _module(torch)


def _custom(lib: Any) -> list[str]:
    fw = lib.autograd.forward_ad

    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            result = lib.exp(x)
            ctx.result = result
            return result

        @staticmethod
        def jvp(ctx: Any, tangent: Any) -> Any:
            return tangent * ctx.result

    lib.manual_seed(0)
    primal = lib.randn(3, 4, dtype=lib.float64, requires_grad=True)
    with fw.dual_level():
        out = Exp.apply(fw.make_dual(primal, lib.randn(3, 4)))
        seen = [repr(fw.unpack_dual(out).tangent), repr(out.grad_fn.__class__.__name__)]
    seen.append(repr(lib.autograd.gradcheck(Exp.apply, (primal,), check_forward_ad=True,
                                            check_backward_ad=False,
                                            check_undefined_grad=False,
                                            check_batched_grad=False)))
    return seen


def test_custom_function_jvp_matches_torch(torch: Any) -> None:
    assert _custom(gtorch) == _custom(torch)


def _jvp_saved(lib: Any) -> list[str]:
    """In jvp, ctx.saved_tensors holds the primals of what forward gave save_for_forward, and
    nothing when it only called save_for_backward (that is backward's); backward still sees
    its own."""
    fw = lib.autograd.forward_ad
    seen: list[str] = []

    class Scaled(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, y: Any) -> Any:
            ctx.save_for_backward(x, y)
            ctx.save_for_forward(x)
            return x.exp() * y

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            seen.append(f"backward saved {len(ctx.saved_tensors)}")
            x, y = ctx.saved_tensors
            return g * x.exp() * y, g * x.exp()

        @staticmethod
        def jvp(ctx: Any, tx: Any, ty: Any) -> Any:
            saved = ctx.saved_tensors
            seen.append(repr([(s, fw.unpack_dual(s).tangent) for s in saved]))
            return tx * saved[0].exp() * 2

    class BackwardOnly(Scaled):
        @staticmethod
        def forward(ctx: Any, x: Any, y: Any) -> Any:
            ctx.save_for_backward(x, y)
            return x.exp() * y

    x = lib.tensor([0.5, -1.0], requires_grad=True)
    y = lib.tensor([2.0, 3.0])
    with fw.dual_level():
        dual = fw.make_dual(x, lib.tensor([1.0, 2.0]))
        out = Scaled.apply(dual, y)
        seen.append(repr(fw.unpack_dual(out)))
        out.sum().backward()
        seen.append(repr(x.grad))
        seen.append(_outcome(lambda: BackwardOnly.apply(dual, y)))
    return seen


def test_custom_function_jvp_sees_what_forward_saved_for_it(torch: Any) -> None:
    assert _jvp_saved(gtorch) == _jvp_saved(torch)


def test_gradcheck_forward_ad_reports_a_wrong_jvp() -> None:
    class Wrong(gtorch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def jvp(ctx: Any, tangent: Any) -> Any:
            return tangent * 3

    x = gtorch.randn(3, dtype=gtorch.float64, requires_grad=True)
    with pytest.raises(GradcheckError,
                       match="Jacobian computed with forward mode mismatch for output 0"):
        gtorch.autograd.gradcheck(Wrong.apply, (x,), check_forward_ad=True,
                                  check_backward_ad=False)


FUNCTORCH_PROGRAM = """
import functools
import warnings
import torch
import torch.nn as nn
import functorch as ft

torch.manual_seed(0)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out, tangent = ft.jvp(lambda x, y: x ** 2 + y ** 2, (torch.randn(3), torch.randn(3)),
                          (torch.ones(3), torch.ones(3)))
    print(tangent, caught[0].category.__name__, str(caught[0].message)[:60])
    model = nn.Linear(3, 2)
    func, params, buffers = ft.make_functional_with_buffers(model)
    x = torch.randn(4, 3)
    print(torch.equal(func(params, buffers, x), model(x)), len(params), len(buffers))
    tangents = tuple(torch.rand_like(p) for p in params)
    _, jvp_out = ft.jvp(lambda p: func(p, buffers, x), (params,), (tangents,))
    print(jvp_out[:2])
    fmodel, params = ft.make_functional(model)
    print(ft.grad(lambda p: fmodel(p, x).sum())(params)[1])
    print(ft.vmap(torch.sum)(torch.arange(6.0).reshape(2, 3)))
"""


def test_functorch_is_served_as_pytorchs(tmp_path: Any, torch: Any) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
           "PYTHONHASHSEED": "0"}
    path = tmp_path / "prog.py"
    path.write_text(FUNCTORCH_PROGRAM)
    ours = subprocess.run([sys.executable, "-m", "gradsh", "run", "--quiet", path.name],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    theirs = subprocess.run([sys.executable, path.name], capture_output=True, text=True,
                            cwd=tmp_path, env=env, timeout=300)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout


def _view_jvps(lib: Any) -> list[str]:
    """A Function whose forward returns a view (or an input as is) must give a tangent that is
    a view of the tangent it was given: PyTorch's two errors otherwise."""
    fw = lib.autograd.forward_ad
    seen = []
    jvps = [lambda t: t.view_as(t), lambda t: t * 1, lambda t: t.clone().view_as(t),
            lambda t: t[:], lambda t: t]
    forwards = [lambda x: x, lambda x: x.view(2), lambda x: x * 2]
    with fw.dual_level():
        for tangent_fn in jvps:
            for forward_fn in forwards:
                class Fn(lib.autograd.Function):
                    @staticmethod
                    def forward(ctx: Any, x: Any, run: Any = forward_fn) -> Any:
                        return run(x)

                    @staticmethod
                    def jvp(ctx: Any, x_t: Any, _: Any = None, run: Any = tangent_fn) -> Any:
                        return run(x_t)

                dual = fw.make_dual(lib.ones(2), lib.tensor([1.0, 2.0]))
                seen.append(_outcome(lambda: fw.unpack_dual(Fn.apply(dual)).tangent))
    return seen


def test_custom_function_view_output_needs_a_view_tangent(torch: Any) -> None:
    assert _view_jvps(gtorch) == _view_jvps(torch)
