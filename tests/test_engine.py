"""The autograd engine against PyTorch: leaves, requires_grad, retain_grad, freed graphs,
version counters, .data versus detach(), in-place changes through views, hooks, create_graph and
autograd.grad, no_grad, SGD, and a graph a million operations deep.

Most tests are snippets run on both sides by tests/gradcheck.py's run_parity (what they return
is compared with PyTorch's: tensors field by field, other values by their text, errors by type
and message, warnings by text); a few pin down what PyTorch on a CPU cannot run (cuda).
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from gradcheck import node_name, run_parity

from gradsh.engine import exceptions, ops

# every test once through the C fast path of Function.apply / Tensor._make, once without
pytestmark = pytest.mark.usefixtures("engine_path")

F32 = np.float32
X = np.array([[1.0, -2.0, 3.0], [0.5, 0.25, -1.5]], dtype=F32)
V = np.array([1.0, 2.0, 3.0], dtype=F32)


def case(name: str, f: Callable[..., Any], *arrays: Any, grad: Any = None) -> Any:
    return pytest.param(f, list(arrays), grad, id=name)


def names(*tensors: Any) -> list[Any]:
    """What the blog posts print about each tensor: is_leaf, requires_grad, grad_fn."""
    return [(t.is_leaf, t.requires_grad, None if t.grad_fn is None else node_name(t.grad_fn))
            for t in tensors]


def peek(t: Any) -> Any:
    """t.grad without the non-leaf warning (gradsh) / with warnings silenced (torch)."""
    if hasattr(t, "peek_grad"):
        return t.peek_grad()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return t.grad


# ---------------------------------------------------------------------------------------------
# Leaves, requires_grad, retain_grad, .grad of non-leaves
# ---------------------------------------------------------------------------------------------


def _leaf_rules(m: Any) -> Any:
    a = m.tensor(2.0, requires_grad=True)
    b = m.tensor(3.0)
    c = a * b
    d = b * 2
    e = c.detach()
    f = m.arange(10.0, requires_grad=True).reshape(10, 1)
    g = m.rand(3).requires_grad_()
    h = g.double()
    i = m.zeros(2, requires_grad=True).float()
    return names(a, b, c, d, e, f, g, h, i)


def _blog_x_squared(m: Any) -> Any:
    x = m.tensor(2.0, requires_grad=True)
    y = x ** 2
    z = y + 1
    z.backward()
    return x.grad, peek(y), x.is_leaf, y.is_leaf, x.grad_fn, node_name(y.grad_fn)


def _nonleaf_grad_warning(m: Any) -> Any:
    x = m.tensor(2.0, requires_grad=True)
    y = x * 3
    y.backward()
    return y.grad


def _retain_grad(m: Any) -> Any:
    x = m.arange(10, dtype=m.float32, requires_grad=True).reshape(10, 1)
    w = m.arange(10, dtype=m.float32, requires_grad=True).reshape(1, 10)
    y = w @ x
    x.retain_grad()
    w.retain_grad()
    y.backward()
    return x.is_leaf, w.is_leaf, x.grad, w.grad, x.retains_grad, y.retains_grad


def _retain_grad_after_backward(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = (y * y).sum()
    z.backward(retain_graph=True)
    y.retain_grad()
    return y.grad


def _retain_grad_on_leaf(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    x.retain_grad()
    (x * 3).sum().backward()
    return x.grad, x.retains_grad


def _requires_grad_setter(m: Any) -> Any:
    x = m.tensor([1.0, 2.0])
    x.requires_grad = True
    y = x * 2
    return names(x, y)


def _requires_grad_on_nonleaf(m: Any) -> Any:
    y = m.tensor([1.0], requires_grad=True) * 2
    y.requires_grad = False


def _requires_grad_int(m: Any) -> Any:
    x = m.tensor([1, 2])
    x.requires_grad = True


def _propagation(m: Any) -> Any:
    x = m.ones(2, requires_grad=True)
    k = m.ones(2)
    return names(x + k, k + k, k * 2, x.sum(), (k > 0), x.argmax(), x.long(), m.where(k > 0, k, x))


LEAVES = [
    case("leaf_rules", _leaf_rules),
    case("blog_x_squared", _blog_x_squared),
    case("nonleaf_grad_warning", _nonleaf_grad_warning),
    case("retain_grad", _retain_grad),
    case("retain_grad_after_backward", _retain_grad_after_backward),
    case("retain_grad_on_leaf", _retain_grad_on_leaf),
    case("requires_grad_setter", _requires_grad_setter),
    case("requires_grad_on_nonleaf", _requires_grad_on_nonleaf),
    case("requires_grad_int", _requires_grad_int),
    case("requires_grad_propagation", _propagation),
    case("retain_grad_no_grad", lambda m: m.ones(1).retain_grad()),
    case("hook_no_grad", lambda m: m.ones(1).register_hook(lambda g: g)),
]

# ---------------------------------------------------------------------------------------------
# Backward: accumulation, freed graphs, errors
# ---------------------------------------------------------------------------------------------


def _blog_2400(m: Any) -> Any:
    a = m.tensor(2.0, requires_grad=True)
    b = m.tensor(3.0)
    c = a * a * 5
    d = c * c * b
    c.retain_grad()
    d.retain_grad()
    d.backward(retain_graph=True)
    first = (a.grad.clone(), c.grad.clone(), d.grad.clone())
    d.backward()
    return first, (a.grad, c.grad, d.grad)


def _second_backward(m: Any, make: Callable[..., Any]) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = make(x).sum()
    y.backward()
    y.backward()
    return x.grad


def _retain_then_free(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    y.backward()


def _nonscalar(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward()


def _nonscalar_with_gradient(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward(m.tensor([1.0, 10.0]))
    return x.grad


def _gradient_shape(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward(m.ones(3))


def _gradient_dtype(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward(m.ones(2, dtype=m.float64))
    return x.grad


def _backward_inputs(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    w = m.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    y = (h * h).sum()
    y.backward(inputs=[w, h])
    return peek(x), w.grad, peek(h)


def _grad_accumulates_across_graphs(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    for k in range(3):
        (x * (k + 1)).sum().backward()
    return x.grad


def _zero_grad_manually(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    g = x.grad
    g.zero_()
    (x * 3).sum().backward()
    return x.grad, x.grad is g, g._version


def _grad_setter(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    x.grad = m.ones(2)
    (x * 2).sum().backward()
    g = x.grad
    x.grad = None
    return g, x.grad


def _grad_setter_bad(m: Any, value: Callable[..., Any]) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    x.grad = value(m)


BACKWARD = [
    case("blog_2400_4800", _blog_2400),
    case("second_backward_saved", lambda m: _second_backward(m, lambda x: x * x)),
    case("second_backward_scalar_saved", lambda m: _second_backward(m, lambda x: x * 2)),
    case("second_backward_nothing_saved", lambda m: _second_backward(m, lambda x: x + 1)),
    case("second_backward_views", lambda m: _second_backward(m, lambda x: x.view(2, 1).t())),
    case("second_backward_exp", lambda m: _second_backward(m, lambda x: x.exp())),
    case("second_backward_neg", lambda m: _second_backward(m, lambda x: -x)),
    case("second_backward_index", lambda m: _second_backward(m, lambda x: x[[0, 0]])),
    case("retain_then_free", _retain_then_free),
    case("nonscalar", _nonscalar),
    case("nonscalar_with_gradient", _nonscalar_with_gradient),
    case("gradient_shape", _gradient_shape),
    case("gradient_dtype", _gradient_dtype),
    case("backward_inputs", _backward_inputs),
    case("backward_int_output", lambda m: m.tensor(1).backward()),
    case("backward_no_grad_output", lambda m: m.ones(1).backward()),
    case("grad_accumulates", _grad_accumulates_across_graphs),
    case("zero_grad_manually", _zero_grad_manually),
    case("grad_setter", _grad_setter),
    case("grad_setter_shape", lambda m: _grad_setter_bad(m, lambda m: m.ones(3))),
    case("grad_setter_dtype", lambda m: _grad_setter_bad(m, lambda m: m.ones(2, dtype=m.float64))),
    case("grad_setter_type", lambda m: _grad_setter_bad(m, lambda m: 3)),
]

# ---------------------------------------------------------------------------------------------
# Version counters, .data and detach(), in-place through views
# ---------------------------------------------------------------------------------------------


def _detach_shares(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    d = x.detach()
    d.zero_()
    return x, x._version, names(d)


def _detach_inplace_breaks_backward(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    y.detach().mul_(2)
    y.sum().backward()


def _data_inplace_is_silent(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    y.data.mul_(2)
    y.sum().backward()
    return x.grad, y._version


def _data_setter(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    x.data = m.tensor([5.0, 6.0])
    (x * x).sum().backward()
    return x, x.grad


def _detach_(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.detach_()
    return names(x, y)


def _copyslices(m: Any) -> Any:
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    v = y[1:]
    v.mul_(10)
    z = (y * y).sum()
    z.backward()
    return x.grad, names(y, v), y._version, v._version


def _view_after_base_changed(m: Any) -> Any:
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    a = y[0]
    b = y[1:]
    a.mul_(2)
    (b.sum() + y.sum()).backward()
    return x.grad, names(a, b)


def _base_changed_through_view_twice(m: Any) -> Any:
    x = m.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.exp()
    y[0].add_(1)
    y[:, 1].mul_(3)
    y.sum().backward()


def _view_inplace_saved(m: Any) -> Any:
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 1
    z = y[:2].exp()
    y[0].mul_(2)
    return z.sum().backward()


def _setitem_gradient(m: Any) -> Any:
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = m.tensor(5.0, requires_grad=True)
    y = x * 2
    y[1] = w * w
    y[y > 4] = 0.0
    y.sum().backward()
    return y, x.grad, w.grad


def _inplace_chain_gradient(m: Any) -> Any:
    x = m.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x * 2
    y.add_(1).mul_(y.detach()).relu_()
    y += 1
    y.sum().backward()
    return y, x.grad


def _no_grad_leaf_update(m: Any) -> Any:
    w = m.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    with m.no_grad():
        w -= 0.1 * w.grad
    return w, names(w), w._version


def _statements(code: str) -> Callable[..., Any]:
    """A snippet on y = x * 1 (views, in-place ops) ending in a backward; torch-agnostic."""
    def run(m: Any, x: Any, w: Any) -> Any:
        env = {"m": m, "x": x, "w": w}
        exec("y = x * 1\nv = y\nz = y\n" + code, env)
        ((env["y"] * 2).sum() + env["z"].sum() + env["v"].sum()).backward()
        return x.grad

    return run


# Which node a version error names ("output 0 of Fill2", "of AsStrided", "of Sigmoid") depends
# on what is still alive: found by a random fuzz of view/in-place programs against PyTorch.
INPLACE_PROGRAMS = [
    case("fill_after_save", _statements("z = (y * v.sum()).tanh()\nv.fill_(3.)"), X, X),
    case("clamp_after_save", _statements("z = y.softmax(1)\nz = (y * v.sum()).tanh()\n"
                                         "v.clamp_(-1, 1)"), X, X),
    case("view_relu_then_copy", _statements("v = y.unsqueeze(0)\nv.relu_()\nv.copy_(v * 2)"),
         X, X),
    case("view_sigmoid_then_pow", _statements("v = y.t()\nv.neg_()\nv.sigmoid_()\nv.pow_(2)"),
         X, X),
    case("view_exp_div", _statements("v = y[:, 1]\nv.exp_()\nv.div_(2)"), X, X),
    case("setitem_then_view_ops", _statements(
        "y[:, 1] = w[:, 0]\ny[y > 0] = 0.\nv = y.transpose(0, 1)[1]\nv.exp_()\nv.relu_()"),
        X, X),
    case("index_put_then_clamp", _statements("z = y @ w.t()\ny[y > 0] = 0.\nv.clamp_(-1, 1)"),
         X, X),
    case("chain_without_error", _statements("v = y[0]\nv.mul_(2)\ny.add_(w, alpha=2)\n"
                                            "y[0, 0] = w[1, 1]\nz = y.max(1)[0]"), X, X),
]


def _copyslices_twice(m: Any, x: Any) -> Any:
    y = x + 1  # AddBackward0 saves nothing ...
    y[0] = 5.0  # ... but CopySlices drops its op after a backward
    y.sum().backward()
    y.sum().backward()


def _create_graph_statements(code: str) -> Callable[..., Any]:
    """As _statements, but the first derivative is taken with create_graph (which keeps the
    in-place ops' nodes, and what they hold, alive) and differentiated again."""
    def run(m: Any, x: Any, w: Any) -> Any:
        env = {"m": m, "x": x, "w": w}
        exec("y = x * 1\nv = y\nz = y\n" + code, env)
        out = (env["y"] ** 2).sum() + (env["z"] * env["z"]).sum() + env["v"].sum()
        g, = m.grad(out, x, create_graph=True)
        return g, m.grad((g * g).sum(), x)

    return run


INPLACE_PROGRAMS += [
    case("copyslices_twice", _copyslices_twice, X),
    case("create_graph_view_ops", _create_graph_statements(
        "v = y.transpose(0, 1)[1]\nv.sigmoid_()\nv.mul_(2)\nz = y @ w.t()"), X, X),
    case("create_graph_base_changed", _create_graph_statements(
        "v = y[0]\nv.sigmoid_()\nv.exp_()\ny[y > 0] = 0."), X, X),
    case("create_graph_view_exp_then_zero", _create_graph_statements(
        "v = y[..., :2]\nv.exp_()\nv.zero_()"), X, X),
    case("create_graph_setitem_view", _create_graph_statements(
        "y[0] = x[1] * x[0]\nv = y[:, 1:]\nv.pow_(2)\nz = y.sin()"), X, X),
]

VERSIONS = [
    case("detach_shares", _detach_shares),
    case("detach_inplace_breaks_backward", _detach_inplace_breaks_backward),
    case("data_inplace_is_silent", _data_inplace_is_silent),
    case("data_setter", _data_setter),
    case("detach_", _detach_),
    case("copyslices", _copyslices),
    case("view_after_base_changed", _view_after_base_changed),
    case("base_changed_through_view_twice", _base_changed_through_view_twice),
    case("view_inplace_saved", _view_inplace_saved),
    case("setitem_gradient", _setitem_gradient),
    case("inplace_chain_gradient", _inplace_chain_gradient),
    case("no_grad_leaf_update", _no_grad_leaf_update),
]

# ---------------------------------------------------------------------------------------------
# Hooks
# ---------------------------------------------------------------------------------------------


def _hook_order(m: Any) -> Any:
    order: list[Any] = []
    x = m.tensor(2.0, requires_grad=True)
    a = x * 2
    b = x * 3
    c = a * b
    d = a + c
    for name, t in (("x", x), ("a", a), ("b", b), ("c", c), ("d", d)):
        t.register_hook(lambda g, name=name: order.append((name, g.item())))
    a.register_hook(lambda g: order.append(("a2", g.item())))
    d.backward()
    return order, x.grad


def _hook_order_wide(m: Any) -> Any:
    order: list[Any] = []
    x = m.tensor([1.0, 2.0], requires_grad=True)
    w = m.tensor([3.0, 4.0], requires_grad=True)
    parts = [x * w, x + w, (x * 2).exp(), w.sin(), x.sum() * w]
    for i, p in enumerate(parts):
        p.register_hook(lambda g, i=i: order.append(i))
    x.register_hook(lambda g: order.append("x"))
    w.register_hook(lambda g: order.append("w"))
    total = parts[0] + parts[1] * parts[2] - parts[3] + parts[4]
    total.sum().backward()
    return order, x.grad, w.grad


def _hook_replaces(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.register_hook(lambda g: g * 10)
    y.register_hook(lambda g: g + 1)
    x.register_hook(lambda g: g * 0.5)
    y.sum().backward()
    return x.grad


def _hook_returns_none(m: Any) -> Any:
    seen: list[Any] = []
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.register_hook(lambda g: seen.append(g.clone()))
    y.sum().backward()
    return seen, x.grad


def _hook_and_retain_grad(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.register_hook(lambda g: g * 2)
    (y * y).sum().backward()
    return y.grad, x.grad


def _hook_removed(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 100)
    handle.remove()
    (x * 2).sum().backward()
    return x.grad


def _hook_bad_return(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: 3)
    y.sum().backward()


def _hook_changes(make: Callable[..., Any]) -> Callable[..., Any]:
    def run(m: Any) -> Any:
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: make(m, g))
        y.sum().backward()
        return x.grad

    return run


def _grad_skips_unneeded_hooks(m: Any) -> Any:
    order: list[Any] = []
    x = m.tensor([1.0, 2.0], requires_grad=True)
    w = m.tensor([3.0, 4.0], requires_grad=True)
    a = w * w
    a.retain_grad()
    b = x[0] + a
    c = x + b
    x.register_hook(lambda g: order.append("x"))
    w.register_hook(lambda g: order.append("w"))
    a.register_hook(lambda g: order.append("a"))
    g = m.grad(c.sum(), x, retain_graph=True)
    c.sum().backward(inputs=[w], retain_graph=True)
    return order, g, peek(a), x.grad, w.grad


def _retain_grad_create_graph(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.retain_grad()
    g, = m.grad((y * y).sum(), x, create_graph=True)
    return peek(y), g


def _sum_to_scalar_create_graph(m: Any) -> Any:
    x = m.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    s = x.sum()
    return m.grad((s * x.tanh()).sum(), x, create_graph=True)


HOOKS = [
    case("hook_returns_int", _hook_changes(lambda m, g: 3)),
    case("hook_changes_size", _hook_changes(lambda m, g: m.ones(3))),
    case("hook_changes_dtype", _hook_changes(lambda m, g: g.double())),
    case("grad_skips_unneeded_hooks", _grad_skips_unneeded_hooks),
    case("retain_grad_create_graph", _retain_grad_create_graph),
    case("sum_to_scalar_create_graph", _sum_to_scalar_create_graph),
    case("hook_order", _hook_order),
    case("hook_order_wide", _hook_order_wide),
    case("hook_replaces", _hook_replaces),
    case("hook_returns_none", _hook_returns_none),
    case("hook_and_retain_grad", _hook_and_retain_grad),
    case("hook_removed", _hook_removed),
]

# ---------------------------------------------------------------------------------------------
# autograd.grad and create_graph
# ---------------------------------------------------------------------------------------------


def _grad_basic(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    g, = m.grad(y, x)
    return g, peek(x)


def _grad_create_graph(m: Any) -> Any:
    x = m.tensor(3.0, requires_grad=True)
    y = x ** 3
    g, = m.grad(y, x, create_graph=True)
    g2, = m.grad(g, x)
    return g, g2, names(g)


def _grad_nonleaf_input(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    y = (h * h).sum()
    return m.grad(y, [h, x])


def _grad_unused(m: Any, allow: bool) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    z = m.tensor([1.0], requires_grad=True)
    return m.grad((x * 2).sum(), [x, z], allow_unused=allow)


def _grad_materialized(m: Any, allow: Any) -> Any:
    """materialize_grads: zeros for an unused input; with allow_unused=False, a ValueError."""
    x = m.tensor([1.0, 2.0], requires_grad=True)
    z = m.tensor([1.0], requires_grad=True)
    if allow is None:
        return m.grad((x * 2).sum(), [x, z], materialize_grads=True)
    return m.grad((x * 2).sum(), [x, z], allow_unused=allow, materialize_grads=True)


def _grad_outputs(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    return m.grad(x * x, x, grad_outputs=m.tensor([1.0, -1.0]))


def _grad_twice_without_retain(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    m.grad(y, x)
    return m.grad(y, x)


def _grad_keeps_unreached_graph(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    y = (h * h).sum()
    m.grad(y, h)  # stops at h: ExpBackward0 never runs, keeps its saved result
    y2 = h.sum()
    y2.backward()
    return x.grad


def _hessian_vector(m: Any) -> Any:
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x.sin() * x.exp()).sum() + (x @ x) ** 2
    g, = m.grad(y, x, create_graph=True)
    hv, = m.grad(g, x, grad_outputs=m.tensor([1.0, 0.5, -1.0]))
    return g, hv


GRAD = [
    case("grad_basic", _grad_basic),
    case("grad_create_graph", _grad_create_graph),
    case("grad_nonleaf_input", _grad_nonleaf_input),
    case("grad_unused_error", lambda m: _grad_unused(m, False)),
    case("grad_unused_allowed", lambda m: _grad_unused(m, True)),
    case("grad_materialized", lambda m: _grad_materialized(m, None)),
    case("grad_materialized_allowed", lambda m: _grad_materialized(m, True)),
    case("grad_materialized_not_allowed", lambda m: _grad_materialized(m, False)),
    case("grad_materialized_create_graph", lambda m: m.grad(
        (m.ones(1, requires_grad=True) * 2).sum(), m.ones(2, requires_grad=True),
        materialize_grads=True, create_graph=True)),
    case("grad_of_none_output", lambda m: m.grad((None,), m.ones(1, requires_grad=True))),
    case("grad_outputs_none", lambda m: m.grad(None, m.ones(1, requires_grad=True))),
    case("grad_inputs_none", lambda m: m.grad(m.ones(1, requires_grad=True).sum(), None)),
    case("grad_outputs", _grad_outputs),
    case("grad_no_grad_input", lambda m: m.grad((m.ones(1, requires_grad=True) * 2).sum(),
                                                m.ones(1))),
    case("grad_twice_without_retain", _grad_twice_without_retain),
    case("grad_keeps_unreached_graph", _grad_keeps_unreached_graph),
    case("hessian_vector", _hessian_vector),
]

# ---------------------------------------------------------------------------------------------
# Grad mode
# ---------------------------------------------------------------------------------------------


def _no_grad(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    with m.no_grad():
        y = x * 2
        with m.enable_grad():
            z = x * 3
        v = x[0]
    with m.set_grad_enabled(False):
        w = x.exp()
    return names(y, z, v, w)


def _no_grad_view(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    with m.no_grad():
        v = x[0]
    y = v * 2
    return names(v, y), [None if e is None else node_name(e) for e, _ in y.grad_fn.next_functions]


def _no_grad_view_inplace(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True) * 1
    with m.no_grad():
        v = x[0]
    v.mul_(2)


def _no_grad_view_of_plain_tensor_inplace(m: Any) -> Any:
    a = m.ones(2)
    with m.no_grad():
        v = a[0]
    v.mul_(2)
    return a


def _no_grad_inplace_on_leaf(m: Any) -> Any:
    x = m.tensor([1.0, 2.0], requires_grad=True)
    with m.no_grad():
        x.mul_(2)
        x[0] = 7.0
    return x, names(x), x._version


MODES = [
    case("no_grad", _no_grad),
    case("no_grad_inplace_on_leaf", _no_grad_inplace_on_leaf),
    case("no_grad_view", _no_grad_view),
    case("no_grad_view_inplace", _no_grad_view_inplace),
    case("no_grad_view_of_plain_tensor_inplace", _no_grad_view_of_plain_tensor_inplace),
]

# ---------------------------------------------------------------------------------------------
# SGD
# ---------------------------------------------------------------------------------------------


def _sgd_loop(m: Any, steps: int = 5, set_to_none: bool = True, **options: Any) -> Any:
    m.manual_seed(0)
    w = m.randn(3, 2, requires_grad=True)
    b = m.zeros(2, requires_grad=True)
    x = m.randn(4, 3)
    target = m.randn(4, 2)
    opt = m.SGD([w, b], **options)
    history = []
    for _ in range(steps):
        opt.zero_grad(set_to_none=set_to_none)
        loss = m.mse_loss(m.tanh(x @ w + b), target)
        loss.backward()
        opt.step()
        history.append(loss.detach())
    return w, b, history, w._version, peek(w)


def _sgd_state(m: Any) -> Any:
    w = m.tensor([1.0, 2.0], requires_grad=True)
    opt = m.SGD([w], lr=0.1, momentum=0.9)
    (w * w).sum().backward()
    opt.step()
    return opt.state[w]["momentum_buffer"], opt.param_groups[0]["lr"], repr(opt)


SGD = [
    case("sgd_plain", lambda m: _sgd_loop(m, lr=0.1)),
    case("sgd_momentum", lambda m: _sgd_loop(m, lr=0.05, momentum=0.9)),
    case("sgd_nesterov", lambda m: _sgd_loop(m, lr=0.05, momentum=0.9, nesterov=True)),
    case("sgd_dampening", lambda m: _sgd_loop(m, lr=0.05, momentum=0.5, dampening=0.3)),
    case("sgd_weight_decay", lambda m: _sgd_loop(m, lr=0.1, weight_decay=0.01)),
    case("sgd_maximize", lambda m: _sgd_loop(m, lr=0.01, maximize=True)),
    case("sgd_zero_grad_keep", lambda m: _sgd_loop(m, lr=0.1, momentum=0.9,
                                                   set_to_none=False)),
    case("sgd_state", _sgd_state),
    case("sgd_negative_lr", lambda m: m.SGD([m.ones(1, requires_grad=True)], lr=-1)),
    case("sgd_negative_momentum",
         lambda m: m.SGD([m.ones(1, requires_grad=True)], lr=0.1, momentum=-1)),
    case("sgd_negative_weight_decay",
         lambda m: m.SGD([m.ones(1, requires_grad=True)], lr=0.1, weight_decay=-1)),
    case("sgd_nesterov_without_momentum",
         lambda m: m.SGD([m.ones(1, requires_grad=True)], lr=0.1, nesterov=True)),
    case("sgd_empty", lambda m: m.SGD([], lr=0.1)),
    case("sgd_tensor_params", lambda m: m.SGD(m.ones(1, requires_grad=True), lr=0.1)),
    case("sgd_non_leaf", lambda m: m.SGD([m.ones(1, requires_grad=True) * 2], lr=0.1)),
    case("sgd_duplicate", lambda m: (lambda w: m.SGD([w, w], lr=0.1))(
        m.ones(1, requires_grad=True)).param_groups[0]["lr"]),
    case("sgd_default_lr", lambda m: m.SGD([m.ones(1, requires_grad=True)]).defaults["lr"]),
]

ALL = LEAVES + BACKWARD + VERSIONS + INPLACE_PROGRAMS + HOOKS + GRAD + MODES + SGD


@pytest.mark.parametrize("f, arrays, grad", ALL)
def test_parity(f: Callable[..., Any], arrays: list[Any], grad: Any, torch: Any) -> None:
    run_parity(torch, f, arrays, grad)


# ---------------------------------------------------------------------------------------------
# What PyTorch on a CPU cannot run: the cuda device, simulated
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def sim_cuda() -> Any:
    from gradsh.engine import backend

    backend.enable_sim_cuda()
    try:
        yield
    finally:
        backend.disable_sim_cuda()


def test_cuda_copy_is_not_a_leaf(sim_cuda: Any) -> None:
    a = ops.rand(10, requires_grad=True)
    b = a.cuda()
    c = ops.rand(10).cuda().requires_grad_()
    d = ops.rand(10, requires_grad=True, device="cuda")
    assert (a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf) == (True, False, True, True)
    assert b.grad_fn.name() == "ToCopyBackward0" and b.device == "cuda:0"
    (b * 2).sum().backward()
    assert a.grad.device == "cpu"
    np.testing.assert_array_equal(a.grad._data, np.full(10, 2.0, np.float32))
    assert b.cuda() is b and b.cpu().grad_fn.name() == "ToCopyBackward0"


def test_mixed_devices_error(sim_cuda: Any) -> None:
    with pytest.raises(exceptions.TorchRuntimeError, match="Expected all tensors to be on the "
                       "same device, but found at least two devices, cuda:0 and cpu!"):
        ops.ones(2).cuda() + ops.ones(2)
    # a CPU scalar tensor may join a cuda tensor, as in PyTorch
    assert (ops.ones(2).cuda() * ops.tensor(3.0)).device == "cuda:0"


def test_cuda_without_backend_names_both_remedies() -> None:
    with pytest.raises(exceptions.TorchRuntimeError, match="CuPy.*--sim-cuda"):
        ops.ones(2).cuda()


def test_T_warns_once_per_process(torch: Any) -> None:
    # PyTorch gives each deprecation warning of `.T` once per process; run it fresh.
    expected = _torch_subprocess(
        "import torch, warnings\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    torch.ones(3).T; torch.ones(2, 2, 2).T; torch.tensor(1.).T; torch.tensor(1.).T\n"
        "print('\\n'.join(str(x.message).split(' (Triggered')[0] for x in w))\n"
    )
    from gradsh.engine.tensor import _once

    once = set(_once)
    _once.clear()
    seen: list[str] = []
    previous = exceptions.set_warning_handler(lambda category, text: seen.append(text))
    try:
        for t in (ops.ones(3), ops.ones(2, 2, 2), ops.tensor(1.0), ops.tensor(1.0)):
            _ = t.T
    finally:
        exceptions.set_warning_handler(previous)
        _once.clear()
        _once.update(once)
    assert seen == expected


def _torch_subprocess(script: str) -> list[str]:
    """Run a PyTorch snippet in a fresh process (its warn-once warnings are process-wide)."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    return result.stdout.splitlines()


def test_backward_create_graph_warns_once_and_grad_is_differentiable(torch: Any) -> None:
    expected = _torch_subprocess(
        "import torch, warnings\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    x = torch.tensor(3., requires_grad=True)\n"
        "    (x ** 3).backward(create_graph=True)\n"
        "    first = x.grad\n"
        "    (x ** 2).backward(create_graph=True)\n"
        "print(len(w)); print(str(w[0].message).split(' (Triggered')[0])\n"
        "print(type(first.grad_fn).__name__, type(x.grad.grad_fn).__name__, x.grad.item())\n"
        "g = x.grad; x.grad = None; g.backward(); print(x.grad.item())\n"
    )
    from gradsh.engine.tensor import _once

    once = set(_once)
    _once.clear()
    seen: list[str] = []
    previous = exceptions.set_warning_handler(lambda category, text: seen.append(text))
    try:
        x = ops.tensor(3.0, requires_grad=True)
        (x ** 3).backward(create_graph=True)
        first = x.grad
        (x ** 2).backward(create_graph=True)
        g = x.grad
        names_line = f"{first.grad_fn.name()} {g.grad_fn.name()} {g.item()}"
        x.grad = None
        g.backward()
        second = x.grad.item()
    finally:
        exceptions.set_warning_handler(previous)
        _once.clear()
        _once.update(once)
    assert [str(len(seen)), seen[0], names_line, str(second)] == expected


# ---------------------------------------------------------------------------------------------
# A graph a million operations deep
# ---------------------------------------------------------------------------------------------


def test_million_op_chain_backpropagates() -> None:
    """Backward is iterative: a chain of 10**6 nodes needs no recursion (its time is measured
    in benchmarks/, the deep row, not asserted here)."""
    x = ops.tensor([1.0, -2.0], requires_grad=True)
    # CPython's cyclic collector rescans every live object on each full collection; with
    # millions of graph objects alive that, not the engine, would dominate the build.
    gc.disable()
    try:
        y = x
        for _ in range(1_000_000):
            y = y.neg()
        (y * ops.tensor([3.0, 5.0])).sum().backward()
        assert y.grad_fn.name() == "NegBackward0"
        del y
    finally:
        gc.enable()
    np.testing.assert_array_equal(x.grad._data, np.array([3.0, 5.0], np.float32))
