"""torch.autograd.Function, saved-tensor hooks, post-accumulate hooks and anomaly mode against
PyTorch: each scenario runs with both libraries and records what a program would print."""

from __future__ import annotations

import re
import warnings

import pytest

import gradsh.torch as gt


def _text(value) -> str:
    return re.sub(r"0x[0-9a-f]+", "0x?", repr(value))


def _run(lib, scenario) -> list[str]:
    """The scenario's record, errors included (type and message)."""
    record: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            scenario(lib, record.append)
        except Exception as error:  # noqa: BLE001  (the error is part of the record)
            record.append(f"{type(error).__name__}: {error}")
    return [_text(r) if not isinstance(r, str) else r for r in record]


def _functions(torch):
    """The custom Functions of the scenarios, defined against one library."""

    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            return x * x * k

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * ctx.k * x * grad, None

    class Power(torch.autograd.Function):  # the setup_context style
        @staticmethod
        def forward(x, k=2.0):
            return x ** k

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, k = inputs
            ctx.save_for_backward(x, output)
            ctx.k = k

        @staticmethod
        def backward(ctx, grad):
            x, _ = ctx.saved_tensors
            return grad * ctx.k * x ** (ctx.k - 1), None

    class StraightThroughClamp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clamp(-1, 1)

        @staticmethod
        def backward(ctx, grad):
            return grad

    class SplitMax(torch.autograd.Function):  # several outputs, one not differentiable
        @staticmethod
        def forward(ctx, x):
            index = x.argmax()
            ctx.mark_non_differentiable(index)
            ctx.save_for_backward(x)
            return x * 2, index, "label", x.exp()

        @staticmethod
        def backward(ctx, g_double, g_index, g_label, g_exp):
            (x,) = ctx.saved_tensors
            return 2 * g_double + g_exp * x.exp()

    class Lazy(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return (g1 if g1 is not None else 0) + (g2 * 3 if g2 is not None else 0)

    class Scale(torch.autograd.Function):  # in place, mark_dirty
        @staticmethod
        def forward(ctx, x, w):
            x.mul_(w)
            ctx.mark_dirty(x)
            ctx.save_for_backward(w)
            return x

        @staticmethod
        def backward(ctx, grad):
            (w,) = ctx.saved_tensors
            return grad * w, None

    class SavesOutput(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    return {cls.__name__: cls for cls in (Square, Power, StraightThroughClamp, SplitMax, Lazy,
                                          Scale, SavesOutput)}


def s_forms(torch, out):
    fns = _functions(torch)
    x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    y = fns["Square"].apply(x, 3)
    out(y)
    out(y.grad_fn.next_functions)
    out(y.grad_fn.needs_input_grad)
    out(y.grad_fn.k)
    y.sum().backward()
    out(x.grad)
    z = fns["Power"].apply(x)
    out(z)
    (g,) = torch.autograd.grad(z.sum(), x, create_graph=True)
    out(g)
    g.sum().backward()
    out(x.grad)
    c = fns["StraightThroughClamp"].apply(x * 3)
    out(c)
    c.sum().backward()
    out(x.grad)
    with torch.no_grad():
        out(fns["Square"].apply(x, 2))


def s_outputs(torch, out):
    fns = _functions(torch)
    x = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
    d, i, label, e = fns["SplitMax"].apply(x)
    out((d, i, label, e, d.grad_fn is e.grad_fn, i.requires_grad))
    (d.sum() + 10 * e.sum()).backward()
    out(x.grad)
    x.grad = None
    d, i, label, e = fns["SplitMax"].apply(x)
    e.sum().backward()
    out(x.grad)
    x.grad = None
    a, b = fns["Lazy"].apply(x)
    b.sum().backward()
    out(x.grad)
    out(torch.autograd.grad(fns["SplitMax"].apply(x)[3].sum(), x))


def s_dirty_and_versions(torch, out):
    fns = _functions(torch)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    h = x * 1
    r = fns["Scale"].apply(h, w)
    out((r is h, r, r.grad_fn.next_functions))
    r.sum().backward()
    out((x.grad, w.grad))
    y = fns["SavesOutput"].apply(x)
    with torch.no_grad():
        y.add_(1)
    y.sum().backward()


def s_dirty_leaf(torch, out):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    _functions(torch)["Scale"].apply(x, 2.0)


def s_freed(torch, out):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = _functions(torch)["Square"].apply(x, 2)
    out(f"before backward: {y.grad_fn.saved_tensors}")  # (the node is the ctx in PyTorch)
    y.sum().backward()
    try:
        y.grad_fn.saved_tensors
    except RuntimeError as error:
        out(f"saved_tensors: {error}")
    y.sum().backward()


def _bad(torch, backward, forward=None):
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            if forward is not None:
                forward(ctx, x)
            return x * 2

    Bad.backward = staticmethod(backward)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    Bad.apply(x, 3).sum().backward()


BAD_BACKWARDS = {
    "too_few": lambda torch: _bad(torch, lambda ctx, g: g),
    "non_tensor_input": lambda torch: _bad(torch, lambda ctx, g: (g, g)),
    "not_a_tensor": lambda torch: _bad(torch, lambda ctx, g: (3, None)),
    "wrong_shape": lambda torch: _bad(torch, lambda ctx, g: (g[:1], None)),
    "extra_nones": lambda torch: _bad(torch, lambda ctx, g: (g, None, None)),
    "save_number": lambda torch: _bad(torch, lambda ctx, g: (g, None),
                                      lambda ctx, x: ctx.save_for_backward(3)),
}


@pytest.mark.parametrize("scenario", [s_forms, s_outputs, s_dirty_and_versions, s_dirty_leaf,
                                      s_freed])
def test_scenarios_match_torch(torch, scenario):
    assert _run(gt, scenario) == _run(torch, scenario)


@pytest.mark.parametrize("name", list(BAD_BACKWARDS))
def test_backward_errors_match_torch(torch, name):
    def scenario(lib, out):
        BAD_BACKWARDS[name](lib)
        out("no error")

    assert _run(gt, scenario) == _run(torch, scenario)


def test_node_shows_in_table_and_graph():
    from gradsh import graphview

    x = gt.tensor([1.0, 2.0], requires_grad=True)
    y = _functions(gt)["Square"].apply(x, 2)
    assert y.grad_fn.name() == "SquareBackward"
    assert "SquareBackward" in repr(y)
    assert list(y.grad_fn.saved_records) == ["saved_tensors[0]"]
    tree, _ = graphview.build(y, "y", {"x": x, "y": y})
    assert "SquareBackward" in str(tree)


def test_saved_tensors_hooks_match_torch(torch):
    def scenario(lib, out):
        def pack(t):
            out(("pack", t))
            return t * 1  # a copy, as a user's hook would make

        def unpack(t):
            out(("unpack", t))
            return t

        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
            y = (x * x).sin()
        y.sum().backward(retain_graph=True)
        out(x.grad)
        y.sum().backward()
        out(x.grad)
        with lib.autograd.graph.save_on_cpu():
            z = x.exp()
        z.sum().backward()
        out(x.grad)

    assert _run(gt, scenario) == _run(torch, scenario)


def test_post_accumulate_grad_hook_matches_torch(torch):
    def scenario(lib, out):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        handle = w.register_post_accumulate_grad_hook(lambda p: out(("after", p.grad)))
        (w * 3).sum().backward()
        (w * 3).sum().backward()
        handle.remove()
        (w * 3).sum().backward()
        out(w.grad)
        (w * 2).register_post_accumulate_grad_hook(lambda p: None)

    assert _run(gt, scenario) == _run(torch, scenario)


def test_anomaly_mode_matches_torch(torch):
    def scenario(lib, out):
        out(lib.is_anomaly_enabled())
        x = lib.tensor([0.0, 1.0], requires_grad=True)
        with lib.autograd.detect_anomaly():
            out(lib.is_anomaly_enabled())
            u = x * lib.tensor([0.0, 1.0])
            v = u / u
            try:
                v.sum().backward()
            except RuntimeError as error:
                out(str(error))
        out(lib.is_anomaly_enabled())
        lib.autograd.set_detect_anomaly(True)
        d = (x * 2).sigmoid()
        with lib.no_grad():
            d.add_(1)
        try:
            d.sum().backward()
        finally:
            lib.autograd.set_detect_anomaly(False)

    assert _run(gt, scenario) == _run(torch, scenario)


def test_anomaly_warning_names_the_forward_line(tmp_path):
    import subprocess
    import sys

    program = tmp_path / "nan.py"
    program.write_text("import torch\nx = torch.tensor([0., 1.], requires_grad=True)\n"
                       "torch.autograd.set_detect_anomaly(True)\nu = x * torch.tensor([0., 1.])\n"
                       "v = u / u\nv.sum().backward()\n")
    result = subprocess.run([sys.executable, "-m", "gradsh", "run", "--quiet", str(program)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "UserWarning: Error detected in DivBackward0. Traceback of forward call that caused "\
           "the error:" in result.stderr
    assert f'File "{program}", line 5, in <module>\n    v = u / u' in result.stderr
    assert "RuntimeError: Function 'DivBackward0' returned nan values in its 1th output." \
        in result.stderr


def test_hooks_and_retain_grad_on_each_output_of_a_custom_function(torch):
    """A custom Function with two outputs: each keeps its own hooks and retained gradient."""
    import gradsh.torch as gtorch

    results = []
    for m in (torch, gtorch):
        class Split(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, a, b):
                return a * 2 + b * 3

        x = m.ones(2, requires_grad=True)
        a, b = Split.apply(x)
        a.retain_grad()
        b.register_hook(lambda g: g * 10)
        (a.sum() * 5 + b.sum()).backward()
        results.append((a.grad.tolist(), x.grad.tolist(), a.retains_grad, b.retains_grad))
    assert results[1] == results[0] == ([5.0, 5.0], [40.0, 40.0], True, False)


def _view_outputs_scenario(torch, rec):
    """A custom Function's outputs that are views (an input returned as is, a view made in
    forward): in-place changes raise PyTorch's view+inplace error, directly or through the
    base; an input marked dirty may still be changed; gradients still flow."""

    class Same(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Pieces(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x, y[0], (x * 2)[1:], x * 3

        @staticmethod
        def backward(ctx, *grads):
            return grads[0], None

    class Doubled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x.mul_(2)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    def attempt(action):
        try:
            rec(action())
        except RuntimeError as error:
            rec(f"RuntimeError: {error}")

    a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = Same.apply(a.clone())
    rec(y._base is not None)
    attempt(lambda: y.relu_())
    leaf_out = Same.apply(a)
    rec((leaf_out is a, leaf_out._base is a))
    attempt(lambda: leaf_out.add_(1))
    (leaf_out * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    rec(a.grad)
    for out in Pieces.apply(a.clone(), torch.arange(3.0)):
        attempt(lambda: out.mul_(2))
    base = a.clone()
    out = Pieces.apply(base, torch.zeros(3))[0]
    base.mul_(2)
    attempt(lambda: out.grad_fn)
    out = Same.apply(a.clone())
    attempt(lambda: out[:2].mul_(2))
    with torch.no_grad():
        free = Same.apply(a.clone())
    rec(free.mul_(2))
    dirty = Doubled.apply(a.clone())
    rec(dirty.add_(1))

    class Marked(torch.autograd.Function):  # an input returned as is, non-differentiable
        @staticmethod
        def forward(ctx, x, y):
            ctx.mark_non_differentiable(y)
            return x, y

        @staticmethod
        def backward(ctx, gx, gy):
            return gx * 3, None

    plain = torch.tensor([4.0, 5.0, 6.0])
    x, y = Marked.apply(a, plain)
    rec((x.requires_grad, y.requires_grad, y.grad_fn, x._base is a, y._base is plain))
    rec(y.add_(1))
    attempt(lambda: x.add_(1))
    x.retain_grad()
    a.grad = None
    (x * 2).sum().backward()
    rec((a.grad, x.grad))


def test_custom_function_view_outputs_match_torch(torch):
    assert _run(gt, _view_outputs_scenario) == _run(torch, _view_outputs_scenario)


def _hook_inplace_scenario(torch, rec):
    """nn.Module full backward hooks pass the module's inputs through BackwardHookFunction:
    an in-place module (ReLU(inplace=True)) then modifies that Function's output and raises."""
    torch.manual_seed(0)
    mod = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(inplace=True))
    x = torch.randn(2, 3)
    handle = mod[1].register_full_backward_hook(lambda m, gi, go: rec(gi[0].shape))
    try:
        mod(x)
    except RuntimeError as error:
        rec(f"RuntimeError: {error}")
    handle.remove()
    handle = mod.register_full_backward_hook(lambda m, gi, go: rec(go[0]))
    out = mod(x)
    rec(out._base is not None)
    try:
        out.add_(1)
    except RuntimeError as error:
        rec(f"RuntimeError: {error}")
    out.sum().backward()
    rec(mod[0].weight.grad)


def test_full_backward_hook_with_inplace_module_matches_torch(torch):
    assert _run(gt, _hook_inplace_scenario) == _run(torch, _hook_inplace_scenario)


def _gradient_edge_scenario(torch, rec):
    """torch.autograd.grad w.r.t. GradientEdges (get_gradient_edge or built by hand): an op's
    node, a leaf's AccumulateGrad, one output of a two-output node, a custom Function, and a
    tensor modified in place after its edge was taken; errors and an unused edge."""
    GradientEdge = torch.autograd.graph.GradientEdge
    get_gradient_edge = torch.autograd.graph.get_gradient_edge

    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    h = a.exp()
    var, mean = torch.var_mean(h * torch.arange(1.0, 4.0))
    out = var * 3 + mean * h.sum()
    for t in (h, a, var, mean):
        edge = get_gradient_edge(t)
        rec((type(edge.node).__name__, edge.output_nr, edge.ownership_token))
        rec(torch.autograd.grad(out, edge, retain_graph=True))
        rec(torch.autograd.grad(out, GradientEdge(edge.node, t.output_nr), retain_graph=True))
    c = Double.apply(a)
    edge = get_gradient_edge(c)
    rec((type(edge.node).__name__, edge.ownership_token is not None))
    rec(torch.autograd.grad((c * c).sum(), [edge, a]))
    b = a * 3
    edge = get_gradient_edge(b)
    b.mul_(5)
    rec(torch.autograd.grad((b * b).sum(), [edge, b]))
    try:
        get_gradient_edge(torch.ones(2))
    except RuntimeError as error:
        rec(f"RuntimeError: {error}")
    unused = get_gradient_edge(torch.ones(2, requires_grad=True) * 1)
    rec(torch.autograd.grad((a * a).sum(), [a, unused], allow_unused=True))
    try:
        torch.autograd.grad((a * a).sum(), unused, materialize_grads=True)
    except RuntimeError as error:
        rec(f"RuntimeError: {error}")


def test_grad_with_respect_to_gradient_edges_matches_torch(torch):
    assert _run(gt, _gradient_edge_scenario) == _run(torch, _gradient_edge_scenario)
