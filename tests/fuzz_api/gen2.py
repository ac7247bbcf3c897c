"""More areas of the differential fuzzer (gen.py has the first thirteen): autograd's
semantics, torch.nn.functional, reprs and print options, sorting and searching, scatter and
gather with duplicate indices, dtype promotion across op families, and random functions in
call sequences after a seed. Each area is a function of a `gen.Gen`, as gen.py's are; they
run only when named (`--only autograd_sem,...` or `--only new`), so that an older seed's
batch of the first thirteen areas stays the same cases.
"""

from __future__ import annotations

from collections.abc import Callable

from gen import FLOATS, INTS, Gen


def _float_tensor(g: Gen, shape=None, grad: bool = False) -> tuple[str, tuple[int, ...]]:
    var, shape, _ = g.tensor(shape, g.pick(["torch.float32", "torch.float32", "torch.float64"]),
                             grad=grad)
    return var, shape


def autograd_sem(g: Gen) -> None:
    """backward/grad with their options, retain_grad, hooks, detach/data/requires_grad_,
    in-place changes of leaves and views and the version counter's errors (the error texts
    and the state the error leaves)."""
    a, shape = _float_tensor(g, g.shape(2, 3) or (3,), grad=True)
    b, _ = _float_tensor(g, shape, grad=g.chance(0.4))
    pre = g.pick(["", "", f"{a}.register_hook(lambda g: print('hook', g))",
                  f"{a}.register_hook(lambda g: g * 2)", f"h = {a}.register_hook(lambda g: "
                  f"None); h.remove()", f"{b}.requires_grad_(False)", f"{b} = {b}.detach()"])
    if pre:
        g.emit(pre)
    mid = g.pick([f"{a} * {b}", f"{a}.exp() * {b}", f"({a} + 1) ** 2", f"{a}.sin() + {b}",
                  f"{a}.relu() * 3", f"{a}.clone()", f"{a}[0] * 2", f"{a}.view(-1)",
                  f"{a}.sigmoid()", f"{a} / ({b}.abs() + 1)", f"{a}.t()" if len(shape) == 2
                  else f"{a} * {a}"])
    g.emit(f"y = {mid}")
    if g.chance(0.4):
        g.emit(g.pick(["y.retain_grad()", "y.register_hook(lambda g: print('yhook', g))",
                       "y.register_hook(lambda g: g + 1)", "print(y.retains_grad)"]))
    roll = g.r.random()
    if roll < 0.25:
        _autograd_scenario(g, a, b)
        return
    roll = g.r.random()
    if roll < 0.25:
        opts = g.pick(["", "retain_graph=True", "create_graph=True", "allow_unused=True",
                       "retain_graph=True, allow_unused=True",
                       "grad_outputs=torch.ones_like(y)", "grad_outputs=[torch.ones_like(y)]"])
        target = g.pick(["y.sum()", "y", "(y * y).mean()", "y.sum() * 0"])
        inputs = g.pick([a, f"[{a}]", f"({a}, {b})", f"[{b}]", f"{a}.detach()"])
        g.emit(f"gs = torch.autograd.grad({target}, {inputs}{', ' if opts else ''}{opts})")
        g.emit("print(gs)")
        g.emit(g.pick(["print(gs[0].requires_grad, gs[0].grad_fn)",
                       f"print(torch.autograd.grad(y.sum(), {a}))",
                       "print(gs[0].sum().backward() if gs[0].requires_grad else None)",
                       f"print({a}.grad)"]))
    elif roll < 0.55:
        call = g.pick(["y.sum().backward()", "y.backward()", "y.backward(torch.ones_like(y))",
                       "y.sum().backward(retain_graph=True); y.sum().backward()",
                       "y.sum().backward(); y.sum().backward()",
                       "y.sum().backward(create_graph=True)",
                       f"y.sum().backward(inputs=[{a}])", "y.backward(gradient=2.0)",
                       "torch.autograd.backward([y.sum()], [torch.tensor(3.0)])",
                       "y.mean().backward(retain_graph=True); y.mean().backward()"])
        g.emit(call)
        g.emit(f"print({a}.grad, {b}.grad, y.grad if y.retains_grad else None)")
        if g.chance(0.4):
            g.emit(g.pick([f"print({a}.grad.requires_grad, {a}.grad.grad_fn)",
                           f"{a}.grad.zero_(); print({a}.grad)", f"{a}.grad = None; "
                           f"print({a}.grad)", f"print({a}.grad is {a}.grad)"]))
    else:
        # in place on a leaf, a view of a leaf, a saved tensor: the errors and what stays
        op = g.pick([f"{a}.add_(1)", f"{a}[0] = 5", f"{a}.data.add_(1)",
                     f"{a}.detach().mul_(2)", "y.add_(1)", "y.exp_()", "y[0] = 0",
                     f"with torch.no_grad(): {a}.add_(1)", f"{a}.requires_grad_(False)",
                     f"{a}.view(-1).add_(1)", f"{b}.add_(1)", f"{a}.data = {a}.data * 2",
                     f"{a}.detach_()" if g.chance(0.2) else "y.detach_()",
                     f"z = {a}.detach(); z.zero_()"])
        g.emit(f"try:\n        {op}\n    except RuntimeError as e:\n"
               f"        print('RuntimeError:', e)")
        g.emit(f"print({a}, {a}._version, {a}.requires_grad, y._version, y.grad_fn)")
        g.emit(g.pick(["y.sum().backward()", "y.backward(torch.ones_like(y))",
                       f"print(torch.autograd.grad(y.sum(), {a}))"]))
        g.emit(f"print({a}.grad)")


def _autograd_scenario(g: Gen, a: str, b: str) -> None:
    """The errors and states PyTorch's autograd is known for: a saved tensor changed in
    place (the version counter's message), a second backward, .grad of a non-leaf,
    requires_grad_ of a non-leaf, hooks, grad modes, double backward, accumulation."""
    g.emit(g.pick([
        f"y = {a}.exp(); y.add_(1); y.sum().backward()",
        f"y = {a}.sigmoid(); y.mul_(2); y.sum().backward()",
        f"y = {a} * {b}; {b}.add_(1) if not {b}.requires_grad else {b}.data.add_(1); "
        f"y.sum().backward(); print({a}.grad)",
        f"y = ({a} * 2).pow(2); z = y.sum(); z.backward(); z.backward()",
        f"y = ({a} * 2).tanh(); y.sum().backward(retain_graph=True); y.sum().backward(); "
        f"print({a}.grad)",
        f"y = {a} * 2; y.sum().backward(); print(y.grad)",
        f"y = {a} * 2; y.requires_grad_(False)",
        f"y = {a} * 2; y.detach_(); print(y.requires_grad, y.grad_fn)",
        f"y = {a}.view(-1); y.detach_()",
        f"{b}.detach().register_hook(lambda g: g)",
        f"print(torch.autograd.grad(({a} * 2).sum(), [{a}, {b}]))",
        f"print(torch.autograd.grad(({a} * 2).sum(), [{a}, {b}], allow_unused=True))",
        f"print(torch.autograd.grad(({a} * 2).sum(), [{a}, {b}], allow_unused=True, "
        f"materialize_grads=True))",
        f"print(torch.autograd.grad({b}.detach().sum(), {a}))",
        f"({a}.detach() * 2).sum().backward()",
        f"with torch.no_grad(): y = {a} * 2\n    print(y.requires_grad, y.grad_fn)",
        f"with torch.inference_mode(): y = {a} * 2\n    print(y.requires_grad, "
        f"y.is_inference()); y.add_(1); print(y)",
        f"with torch.inference_mode(): y = {a} * 2\n    (y * {a}).sum().backward()",
        f"torch.set_grad_enabled(False); y = {a} * 2; torch.set_grad_enabled(True); "
        f"print(y.requires_grad)",
        f"with torch.enable_grad(): y = {a} * 2\n    print(y.grad_fn.name())",
        f"y = ({a} ** 3).sum(); (g1,) = torch.autograd.grad(y, {a}, create_graph=True); "
        f"print(g1); g1.sum().backward(); print({a}.grad)",
        f"y = {a}.sin().sum(); (g1,) = torch.autograd.grad(y, {a}, create_graph=True); "
        f"(g2,) = torch.autograd.grad(g1.sum(), {a}); print(g1.grad_fn.name(), g2)",
        f"({a} * 2).sum().backward(); ({a} * 3).sum().backward(); print({a}.grad)",
        f"{a}.register_hook(lambda g: g * 10); ({a} * 2).sum().backward(); print({a}.grad)",
        f"{a}.register_hook(lambda g: print('h1', g)); {a}.register_hook(lambda g: print('h2'))"
        f"; ({a}.sum() * 2).backward()",
        f"y = {a} * 2; y.retain_grad(); z = y * y; z.sum().backward(); print(y.grad, "
        f"y.retains_grad, z.retains_grad)",
        f"y = {a}[0]; y.retain_grad(); y.sum().backward(); print(y.grad, {a}.grad)",
        f"{a}.grad = torch.ones_like({a}); ({a} * 2).sum().backward(); print({a}.grad)",
        f"{a}.grad = torch.ones(7)",
        f"{a}.grad = torch.ones_like({a}, dtype=torch.int64)",
        f"y = {a}.clone(); y[0] = 0; y.sum().backward(); print({a}.grad, y.grad_fn.name())",
        f"y = {a} * 1; v = y[0]; v.mul_(3); print(y.grad_fn.name(), v.grad_fn.name()); "
        f"y.sum().backward(); print({a}.grad)",
        f"y = {a} * 1; v = y.view(-1); y.add_(1); print(v.grad_fn.name(), v._version)",
        f"y = {a}.detach(); y.requires_grad = True; (y * 2).sum().backward(); "
        f"print(y.grad, {a}.grad)",
        f"print({a}.data is {a}, {a}.data.requires_grad, {a}.detach().is_leaf, "
        f"({a} * 2).is_leaf, {a}.requires_grad)",
        f"y = {a} * 2; print(y.grad_fn.next_functions); print(y.grad_fn.next_functions[0][0]"
        f".variable is {a})",
        f"y = {a}.sum(); y.backward(torch.tensor(2.0)); print({a}.grad)",
        f"y = {a} * 2; y.backward(torch.ones(7))",
        f"y = {a} * 2; y.backward()",
        f"torch.autograd.backward(({a} * 2).sum(), inputs=[{b}])",
        f"y = {a}.exp(); del_ = y.grad_fn._saved_result; print(del_.equal(y))",
        f"y = {a} * {b}; print(y.grad_fn._saved_self is not None, "
        f"y.grad_fn._saved_other.shape)",
    ]))
    if g.chance(0.5):
        g.emit(f"print({a}.grad, {a}._version)")


def nn_functional(g: Gen) -> None:
    """torch.nn.functional as programs call it: activations, losses with their options,
    pooling, padding modes, one_hot, normalize, embedding."""
    g.emit("import torch.nn.functional as F")
    roll = g.r.random()
    if roll < 0.25:
        x, shape = _float_tensor(g, g.shape(3, 4) or (3,), grad=g.chance(0.3))
        fn = g.pick(["F.relu({x})", "F.relu6({x})", "F.leaky_relu({x}, 0.2)", "F.elu({x})",
                     "F.selu({x})", "F.celu({x}, 0.5)", "F.gelu({x})",
                     "F.gelu({x}, approximate='tanh')", "F.silu({x})", "F.mish({x})",
                     "F.softplus({x}, beta=2, threshold=3)", "F.hardtanh({x}, -1, 2)",
                     "F.hardswish({x})", "F.hardsigmoid({x})", "F.logsigmoid({x})",
                     "F.softsign({x})", "F.tanhshrink({x})", "F.softshrink({x}, 1.0)",
                     "F.hardshrink({x}, 1.0)", "F.threshold({x}, 1.0, -3.0)",
                     "F.softmax({x}, dim=-1)", "F.log_softmax({x}, dim=0)",
                     "F.softmin({x}, -1)", "F.glu({x}, -1)", "F.prelu({x}, torch.tensor([0.25]))",
                     "F.relu({x}, inplace=True)", "F.normalize({x}, dim=-1)",
                     "F.normalize({x}, p=1, dim=0)", "torch.sigmoid({x})", "torch.tanh({x})",
                     "F.softmax({x})", "F.dropout({x}, 0.0)", "F.dropout({x}, 1.0)",
                     "F.dropout({x}, 0.5, training=False)", "F.rrelu({x}, training=False)"])
        g.emit(f"r = {fn.format(x=x)}")
        g.emit("print(repr(r))")
        if g.chance(0.4):
            g.emit(f"print(r.grad_fn.name() if r.grad_fn else None)")
            g.emit(f"r.sum().backward() if r.requires_grad else None; print({x}.grad)")
    elif roll < 0.55:
        n, c = g.r.randint(1, 4), g.r.randint(2, 4)
        g.emit(f"x = torch.tensor({[[g.r.randint(-8, 8) / 4 for _ in range(c)] for _ in range(n)]}"
               f", requires_grad=True)")
        target = [g.r.randint(0, c - 1) for _ in range(n)]
        if g.chance(0.3) and n > 1:
            target[g.r.randint(0, n - 1)] = g.pick([-100, 1, c])
        g.emit(f"t = torch.tensor({target})")
        g.emit(f"p = torch.tensor({[[g.r.randint(0, 4) / 4 for _ in range(c)] for _ in range(n)]})")
        red = g.pick(["", ", reduction='sum'", ", reduction='none'", ", reduction='mean'"])
        weights = [g.r.randint(1, 4) / 2 for _ in range(c)]
        weight = g.pick(["", "", f", weight=torch.tensor({weights})"])
        fn = g.pick([
            f"F.cross_entropy(x, t{red}{weight})",
            f"F.cross_entropy(x, t, ignore_index={g.pick([-100, 1, 0])}{red})",
            f"F.cross_entropy(x, t, label_smoothing={g.pick([0.1, 0.0, 0.5])}{red}{weight})",
            f"F.cross_entropy(x, p{red})", f"F.cross_entropy(x, p, label_smoothing=0.2{red})",
            f"F.nll_loss(F.log_softmax(x, 1), t{red}{weight})",
            f"F.nll_loss(x, t, ignore_index=1{red})",
            f"F.mse_loss(x, p{red})", f"F.l1_loss(x, p{red})",
            f"F.smooth_l1_loss(x, p{red}, beta={g.pick([1.0, 0.5, 0.0])})",
            f"F.huber_loss(x, p{red}, delta=0.5)",
            f"F.binary_cross_entropy(torch.sigmoid(x), p{red}{weight})",
            f"F.binary_cross_entropy_with_logits(x, p{red})",
            f"F.binary_cross_entropy_with_logits(x, p, pos_weight=torch.ones({c}) * 2{red})",
            f"F.kl_div(F.log_softmax(x, 1), p, "
            f"reduction={g.pick(['batchmean', 'sum', 'none', 'mean'])!r})",
            f"F.soft_margin_loss(x, p.sign(){red})", f"F.multi_margin_loss(x, t{red})",
            f"F.multilabel_soft_margin_loss(x, p{red})",
            f"F.poisson_nll_loss(x, p{red})", f"F.gaussian_nll_loss(x, p, torch.ones_like(x){red})",
            f"F.cosine_embedding_loss(x, p, torch.ones({n}){red})",
            f"F.margin_ranking_loss(x[:, 0], p[:, 0], torch.ones({n}){red})",
            f"F.hinge_embedding_loss(x, p.sign(){red})",
            f"F.triplet_margin_loss(x, p, x.detach().flip(0){red})",
            f"F.cross_entropy(x[0], t[0])", f"F.cross_entropy(x, t.float())",
        ])
        g.emit(f"loss = {fn}")
        g.emit("print(repr(loss))")
        g.emit(g.pick(["loss.sum().backward(); print(x.grad)", "print(loss.grad_fn.name())",
                       "print(loss.shape, loss.dtype)"]))
    elif roll < 0.75:
        dims = g.pick([1, 2, 2])
        spatial = tuple(g.r.randint(2, 5) for _ in range(dims))
        shape = (g.r.randint(1, 2), g.r.randint(1, 2)) + spatial
        g.emit(f"x = torch.arange({__import__('math').prod(shape)}.0).reshape({shape})"
               f".sin().mul(4).round()")
        d = f"{dims}d"
        k = g.r.randint(1, 3)
        fn = g.pick([
            f"F.max_pool{d}(x, {k})", f"F.max_pool{d}(x, {k}, stride=1, padding={k // 2})",
            f"F.max_pool{d}(x, {k}, ceil_mode=True)", f"F.avg_pool{d}(x, {k})",
            f"F.avg_pool{d}(x, {k}, stride=1, padding={k // 2}, count_include_pad=False)",
            f"F.avg_pool{d}(x, {k}, ceil_mode=True)", f"F.adaptive_avg_pool{d}(x, 2)",
            f"F.adaptive_max_pool{d}(x, 2)", f"F.adaptive_avg_pool{d}(x, 1)",
            f"F.max_pool{d}(x, {k}, return_indices=True)",
            f"F.lp_pool{d}(x, 2, {k})",
            f"F.pad(x, {g.pick(['(1, 1)', '(0, 2)', '(1, 0, 2, 1)', '(-1, 1)'])}, "
            f"mode={g.pick(['constant', 'reflect', 'replicate', 'circular'])!r})",
            f"F.pad(x, (1, 2), value={g.pick(['0.5', '-1', '3'])})",
            f"F.interpolate(x, scale_factor=2, mode='nearest')",
            f"F.interpolate(x, size={spatial}, mode='nearest')",
            f"F.unfold(x, 2) if x.dim() == 4 else F.pad(x, (1, 1))",
            f"F.pixel_shuffle(x, 1) if x.dim() == 4 else x",
        ])
        g.emit(f"r = {fn}")
        g.emit("print(r)")
    else:
        fn = g.pick([
            f"F.one_hot(torch.tensor({[g.r.randint(0, 3) for _ in range(g.r.randint(1, 4))]}))",
            f"F.one_hot(torch.tensor({[g.r.randint(0, 3) for _ in range(3)]}), "
            f"num_classes={g.r.randint(3, 6)})",
            "F.one_hot(torch.tensor([[0, 2], [1, 0]]), -1)",
            "F.one_hot(torch.tensor([0, 4]), 3)", "F.one_hot(torch.tensor([0.0]))",
            "F.one_hot(torch.tensor([-1, 0]))",
            f"F.embedding(torch.tensor([[0, 2], [1, 1]]), torch.arange(12.0).reshape(4, 3))",
            f"F.embedding(torch.tensor([0, 2, 0]), torch.arange(12.0).reshape(4, 3), "
            f"padding_idx={g.pick([0, 2, -1])})",
            "F.embedding(torch.tensor([5]), torch.ones(4, 3))",
            "F.embedding(torch.tensor([[0, 3]]), torch.arange(12.0).reshape(4, 3), max_norm=5.0)",
            "F.cosine_similarity(torch.tensor([[1.0, 2.0], [0.0, 0.0]]), "
            "torch.tensor([[2.0, 1.0], [1.0, 1.0]]))",
            "F.pairwise_distance(torch.tensor([[1.0, 2.0]]), torch.tensor([[2.0, 0.0]]))",
            "F.normalize(torch.tensor([[0.0, 0.0], [3.0, 4.0]]))",
            "F.linear(torch.ones(2, 3), torch.arange(6.0).reshape(2, 3), "
            "torch.tensor([1.0, -1.0]))",
            "F.bilinear(torch.ones(1, 2), torch.ones(1, 3), torch.ones(4, 2, 3))",
            "F.layer_norm(torch.arange(6.0).reshape(2, 3), (3,))",
            "F.group_norm(torch.arange(8.0).reshape(1, 4, 2), 2)",
            "F.batch_norm(torch.arange(6.0).reshape(3, 2), torch.zeros(2), torch.ones(2))",
            "F.instance_norm(torch.arange(8.0).reshape(1, 2, 4))",
            "F.local_response_norm(torch.arange(8.0).reshape(1, 4, 2), 2)",
            "F.conv1d(torch.arange(10.0).reshape(1, 2, 5), torch.ones(3, 2, 2))",
            "F.conv1d(torch.arange(10.0).reshape(1, 2, 5), torch.ones(2, 1, 3), groups=2, "
            "padding='same')",
            "F.conv2d(torch.arange(16.0).reshape(1, 1, 4, 4), torch.ones(1, 1, 2, 2), "
            "stride=2, dilation=1)",
            "F.conv2d(torch.ones(1, 2, 3, 3), torch.ones(1, 3, 2, 2))",
            "F.conv_transpose1d(torch.ones(1, 1, 3), torch.ones(1, 2, 2), stride=2)",
            "F.embedding_bag(torch.tensor([0, 2, 1, 3]), torch.arange(8.0).reshape(4, 2), "
            "torch.tensor([0, 2]), mode='mean')",
            "F.embedding_bag(torch.tensor([[0, 2], [1, 1]]), torch.arange(8.0).reshape(4, 2), "
            "mode='max')",
            "F.fold(torch.arange(8.0).reshape(1, 4, 2), (2, 3), 2)",
            "F.unfold(torch.arange(9.0).reshape(1, 1, 3, 3), 2, padding=1)",
            "F.interpolate(torch.arange(4.0).reshape(1, 1, 4), size=6, mode='linear', "
            "align_corners=True)",
            "F.interpolate(torch.arange(4.0).reshape(1, 1, 2, 2), scale_factor=1.5, "
            "mode='bilinear')",
            "F.pixel_shuffle(torch.arange(8.0).reshape(1, 4, 1, 2), 2)",
            "F.pixel_unshuffle(torch.arange(16.0).reshape(1, 1, 4, 4), 2)",
            "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 3]))",
            "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, -1]))",
            "F.nll_loss(torch.zeros(2, 3), torch.tensor([[0], [1]]))",
            "F.mse_loss(torch.zeros(2, 3), torch.zeros(3))",
            "F.mse_loss(torch.zeros(2, 3), torch.zeros(2, 2))",
            "F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([0.0, 1.0]))",
            "F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([0.0, 1.0]))",
            "F.cross_entropy(torch.zeros(0, 3), torch.zeros(0, dtype=torch.long))",
            "F.cross_entropy(torch.tensor([[1.0, 2.0]]), torch.tensor([1]), ignore_index=1)",
            "F.nll_loss(torch.zeros(2, 3), torch.tensor([1, 1]), ignore_index=1, "
            "reduction='mean')",
            "F.softmax(torch.tensor([[1, 2], [3, 4]]), dim=1)",
            "F.log_softmax(torch.tensor([1.0, 2.0]), dim=0, dtype=torch.float64)",
            "F.gumbel_softmax(torch.zeros(2, 3), hard=True).sum(-1)",
            "F.one_hot(torch.arange(3) % 2).float() @ torch.ones(2, 2)",
            "F.pad(torch.ones(2, 2), (1, 1, 1, 1), mode='reflect')",
            "F.pad(torch.ones(1, 2, 2), (3, 3), mode='reflect')",
            "F.pad(torch.arange(4.0).reshape(1, 1, 4), (2, 1), mode='circular')",
            "F.max_pool2d(torch.arange(16.0).reshape(1, 4, 4), 2, return_indices=True)",
            "F.avg_pool2d(torch.arange(16.0).reshape(1, 1, 4, 4), 3, stride=2, padding=1)",
            "F.adaptive_avg_pool1d(torch.arange(10.0).reshape(1, 2, 5), 3)",
            "F.adaptive_max_pool2d(torch.arange(25.0).reshape(1, 5, 5), (2, 3))",
        ])
        g.emit(f"r = {fn}")
        g.emit("print(r if not isinstance(r, torch.Tensor) else repr(r))")


def reprs(g: Gen) -> None:
    """Tensor creation and printing: print options, summarised big tensors, every dtype, the
    reprs of torch.Size, dtypes and devices, 0-d and empty tensors."""
    if g.chance(0.4):
        g.emit("torch.set_printoptions(" + g.pick([
            "precision=2", "precision=8", "sci_mode=True", "sci_mode=False", "threshold=4",
            "edgeitems=1", "linewidth=30", "profile='short'", "profile='full'",
            "threshold=4, edgeitems=1", "precision=3, linewidth=50", "precision=0"]) + ")")
    roll = g.r.random()
    if roll < 0.3:
        dt = g.dtype(FLOATS + INTS + ["torch.bool"])
        shape = g.pick([(0,), (2, 0), (0, 3), (), (1,), (1, 1), (3, 1, 2)])
        src = g.pick([f"torch.zeros({shape}, dtype={dt})", f"torch.ones({shape}, dtype={dt})",
                      f"torch.empty({shape}, dtype={dt}).fill_(1)",
                      f"torch.full({shape}, {g.pick(['7', '-2', '0.5', 'True'])}, dtype={dt})",
                      f"torch.tensor({g.pick(['[]', '[[]]', '3', '2.5', 'True', '[[], []]'])}, "
                      f"dtype={dt})"])
        g.emit(f"x = {src}")
        g.emit(g.pick(["print(x)", "print(repr(x))", "print(str(x))", "print([x, x])",
                       "print(x.shape, x.size(), x.dim())", "print(f'{x!r}')",
                       "print(x.requires_grad_() if x.is_floating_point() else x)",
                       "print((x, x.dtype, x.device))"]))
    elif roll < 0.55:
        g.emit("x = " + g.pick([
            "torch.Size([2, 3])", "torch.Size([])", "torch.ones(2, 3).shape",
            "torch.ones(2, 3).shape[1:]", "torch.ones(2, 3).size(0)", "torch.float32",
            "torch.int64", "torch.bool", "torch.bfloat16", "torch.half", "torch.device('cpu')",
            "torch.device('cpu', 0)", "torch.ones(1).device", "torch.strided",
            "torch.get_default_dtype()", "torch.ones(2).dtype.is_floating_point",
            "torch.finfo(torch.float32)", "torch.iinfo(torch.int8)", "torch.finfo(torch.half).eps",
            "torch.Size([2, 3]) + (4,)", "torch.Size([2, 3]).numel()",
            "torch.ones(2, 3).shape == (2, 3)", "torch.zeros(0).shape", "torch.float64.itemsize",
            "torch.long.is_signed", "torch.uint8.is_signed", "str(torch.int16)",
            "torch.ones(2, 3).size()", "torch.ones(()).shape", "torch.Size((1,))",
            "torch.ones(2, 3).shape[-1:] + torch.Size([5])", "torch.ones(2).device.type",
            "torch.device('cpu:0')", "torch.tensor([1, 2]).dtype", "torch.tensor(1.5).dtype",
            "torch.tensor(True).dtype", "torch.tensor([1, 2.5]).dtype", "type(torch.ones(1))",
            "type(torch.ones(1).shape)", "type(torch.float32)", "torch.ones(2).layout",
            "torch.zeros(2, 3).stride()", "torch.zeros(2, 3).t().stride()",
            "torch.ones(2, 3).shape.numel()", "torch.Size([2, 3])[1]",
            "list(torch.Size([2, 3]))", "torch.ones(3).type()", "torch.ones(3).long().type()",
            "torch.ones(1).is_floating_point()", "torch.ones(2).element_size()",
            "torch.finfo(torch.bfloat16)", "torch.iinfo(torch.int64).max",
            "torch.finfo().tiny", "torch.iinfo(torch.uint8)"]))
        g.emit(g.pick(["print(x)", "print(repr(x))", "print(str(x), type(x).__name__)",
                       "print([x])", "print(f'{x}')"]))
    elif roll < 0.8:
        dt = g.dtype(FLOATS + ["torch.int64", "torch.int32", "torch.bool", "torch.uint8"])
        n = g.pick([6, 12, 1001, 2000, 30])
        shape = g.pick([(n,), (n // 2, 2) if n % 2 == 0 else (n,), (2, n // 2 // 3, 3)
                        if n % 6 == 0 else (n,)])
        scale = g.pick(["", " * 1e-5", " * 1e6", " / 3", " - 500", " * 0.25", " * 1e15"])
        if dt not in FLOATS:
            scale = ""
        g.emit(f"x = (torch.arange({n}).reshape({shape}){scale}).to({dt})")
        g.emit(g.pick(["print(x)", "print(repr(x))", "print(x[..., :3])", "print(x.t() if "
                       "x.dim() == 2 else x.flip(0))", "print(x.float().mean())",
                       "print(torch.stack([x, x]))", "print(x.requires_grad_() * 2 if "
                       "x.is_floating_point() else x)"]))
    else:
        vals = [g.pick(["0.1", "1e-5", "-2.5", "1e5", "123.456", "3.0", "-0.0", "float('nan')",
                        "float('inf')", "1e-10", "0.000123", "10000.0", "99999.9", "1.5e9"])
                for _ in range(g.r.randint(1, 6))]
        dt = g.dtype(FLOATS)
        g.emit(f"x = torch.tensor([{', '.join(vals)}], dtype={dt})")
        g.emit(g.pick(["print(x)", "print(x[0])", "print(x.sum())", "print(x * 1000)",
                       "print(x.to(torch.float64) / 3)", "print(x.unsqueeze(1))",
                       "print(x.max(), x.argmax())", "print(x.tolist())",
                       "print(x.abs().requires_grad_())", "print(x.mean().item())",
                       "print(x.abs().requires_grad_() * 2)", "print(f'{x[0]:.3f}')",
                       "print('{:.2e}'.format(x[0]))", "print(format(x[0], '10.4f'))",
                       "print(x.int(), x.long().tolist())", "print(x.numpy())",
                       "print(x.half(), x.bfloat16())", "print(str(x.dtype), repr(x.shape))",
                       "print(x.view(1, -1).expand(2, -1))", "print(x[0].item().__repr__())",
                       "print(torch.tensor(x.tolist()))", "print(x.clone().fill_(7.25))",
                       "print(x.round(decimals=1))", "print(x.to(torch.int32))"]))


def sorting(g: Gen) -> None:
    """sort, argsort, topk, kthvalue, unique, searchsorted, msort, median with ties, NaN and
    infinities."""
    vals = [g.pick(["1.0", "2.0", "1.0", "-0.0", "0.0", "float('nan')", "float('inf')",
                    "-float('inf')", "3.0", "-1.0", "2.0"]) for _ in range(g.r.randint(1, 8))]
    dt = g.dtype(["torch.float32", "torch.float64", "torch.int64", "torch.float16",
                  "torch.int32", "torch.uint8", "torch.bool"])
    if dt not in FLOATS:
        vals = [str(g.r.randint(0, 3)) for _ in vals]
    shape = g.pick(["", f".reshape(-1, 1)", f".reshape(1, -1)"])
    g.emit(f"x = torch.tensor([{', '.join(vals)}], dtype={dt}){shape}")
    k = g.r.randint(1, 3)
    fn = g.pick([
        "x.sort()", "x.sort(descending=True)", "x.sort(stable=True, descending=True)",
        "torch.sort(x, dim=0)", "x.argsort()", "x.argsort(descending=True, stable=True)",
        f"x.topk({k})", f"x.topk({k}, largest=False)", f"x.topk({k}, dim=0, sorted=True)",
        f"torch.kthvalue(x, {k})", "x.msort()", "x.median()", "x.median(-1)",
        "x.nanmedian()", "torch.unique(x)", "torch.unique(x, sorted=False)",
        "torch.unique(x, return_inverse=True, return_counts=True)",
        "torch.unique(x, dim=0)", "torch.unique_consecutive(x, return_counts=True)",
        "x.unique(return_counts=True, dim=-1)",
        "torch.searchsorted(x.flatten().sort().values, torch.tensor([1.0, 0.0, 5.0]).to(x.dtype))",
        "torch.searchsorted(x.flatten().sort().values, torch.tensor([1, 2]).to(x.dtype), "
        "right=True)",
        "torch.searchsorted(x.flatten().sort().values, 2)",
        "torch.searchsorted(x.flatten().sort().values, torch.tensor([2.0]).to(x.dtype), "
        "side='right')",
        "torch.bucketize(torch.tensor([0.5, 1.0, 3.0]), torch.tensor([0.0, 1.0, 2.0]))",
        "torch.bucketize(x.float(), torch.tensor([0.0, 1.0, 2.0]), right=True)",
        "x.max(-1)", "x.min(0)", "x.argmax()", "x.argmin(-1)", "torch.mode(x)",
        "torch.sort(x, -1, True)", "x.sort(dim=0, descending=True).indices",
        "torch.topk(x.flatten(), 1)", "x.cummax(-1)", "x.amax(-1)",
        "x.repeat(3, 2).sort(dim=-1, stable=True)", "x.repeat(2, 3).topk(2, dim=-1)",
        "x.repeat(2, 3).topk(3, largest=False, sorted=True)", "x.flatten().topk(0)",
        "x.repeat(4, 1).argsort(dim=0)", "x.repeat(3, 3).kthvalue(2, dim=0)",
        "x.repeat(2, 2).median(dim=0)", "x.repeat(2, 2).nanmedian(dim=-1)",
        "x.repeat(3, 2).mode(dim=-1)", "torch.unique(x.repeat(2, 2), dim=1)",
        "torch.unique(x.repeat(3, 1), dim=0, return_inverse=True)",
        "torch.unique_consecutive(x.repeat(1, 2), dim=-1)", "x.flatten().argmax()",
        "torch.msort(x.repeat(2, 2))", "x.flatten().sort().values.unique_consecutive()",
        "torch.searchsorted(x.flatten().sort().values, x.flatten(), sorter=None, right=True)",
        "torch.bucketize(x.float().flatten(), torch.tensor([-1.0, 1.0]), out_int32=True)",
        "torch.histc(x.float(), bins=3, min=-1, max=3)", "x.flatten().float().sort(stable=False)",
    ])
    g.emit(f"r = {fn}")
    g.emit(g.pick(["print(r)", "print(r if not isinstance(r, torch.Tensor) else repr(r))"]))


def scatter_gather(g: Gen) -> None:
    """scatter/gather/index_add/index_put/index_copy/masked_scatter with duplicate indices,
    accumulate, reduce modes and autograd through them."""
    rows, cols = g.r.randint(1, 4), g.r.randint(1, 4)
    dt = g.pick(["torch.float32", "torch.float64", "torch.int64", "torch.int32"])
    grad = dt in ("torch.float32", "torch.float64") and g.chance(0.3)
    rg = ", requires_grad=True" if grad else ""
    g.emit(f"x = torch.arange({rows * cols}, dtype={dt}).reshape({rows}, {cols}).mul(2){''}")
    if grad:
        g.emit("x.requires_grad_()")
    idx = [[g.r.randint(0, rows - 1) for _ in range(cols)] for _ in range(g.r.randint(1, rows))]
    g.emit(f"i = torch.tensor({idx})")
    g.emit(f"src = torch.arange(1, {len(idx) * cols + 1}, dtype={dt}).reshape({len(idx)}, {cols})")
    flat = [g.r.randint(-rows, rows - 1) for _ in range(g.r.randint(1, 4))]
    g.emit(f"j = torch.tensor({flat})")
    red = g.pick(["sum", "prod", "mean", "amax", "amin"])
    fn = g.pick([
        "x.scatter(0, i, src)", "x.scatter_add(0, i, src)", "x.gather(0, i)",
        "x.scatter(0, i, 5)", "x.scatter(0, i, src, reduce='add')",
        "x.scatter(0, i, src, reduce='multiply')",
        f"x.scatter_reduce(0, i, src, {red!r})",
        f"x.scatter_reduce(0, i, src, {red!r}, include_self=False)",
        "x.index_add(0, j % x.shape[0], torch.ones(j.numel(), x.shape[1], dtype=x.dtype))",
        "x.index_add(0, j % x.shape[0], torch.ones(j.numel(), x.shape[1], dtype=x.dtype), alpha=3)",
        "x.index_put((j,), torch.tensor(1, dtype=x.dtype), accumulate=True)",
        "x.index_put((j,), torch.tensor(1, dtype=x.dtype))",
        "x.index_put((j, j % x.shape[1]), torch.arange(j.numel(), dtype=x.dtype), accumulate=True)",
        "x.index_copy(0, j % x.shape[0], torch.zeros(j.numel(), x.shape[1], dtype=x.dtype))",
        "x.index_select(0, j)", "x[j]", "x[j, j % x.shape[1]]",
        "x.masked_scatter(x > 3, torch.arange(100, 100 + x.numel(), dtype=x.dtype))",
        "x.index_fill(1, torch.tensor([0, 0]), -1)",
        "x.take(j)", "torch.take_along_dim(x, i, 0)",
        "x.put(j, torch.arange(j.numel(), dtype=x.dtype), accumulate=True)",
        "x.put(j, torch.arange(j.numel(), dtype=x.dtype))",
        "x.index_put((j,), torch.arange(j.numel(), dtype=x.dtype)[:, None].expand(-1, "
        "x.shape[1]))",
        "x.index_put((j, torch.zeros_like(j)), torch.arange(j.numel(), dtype=x.dtype), "
        "accumulate=True)",
        f"x.index_reduce(0, j % x.shape[0], torch.ones(j.numel(), x.shape[1], dtype=x.dtype), "
        f"{g.pick(['prod', 'mean', 'amax', 'amin'])!r}, include_self={g.pick(['True', 'False'])})",
        "x.index_copy(0, torch.zeros_like(j), torch.arange(j.numel() * x.shape[1], "
        "dtype=x.dtype).reshape(j.numel(), -1))",
        "x.scatter(1, torch.zeros(x.shape[0], 3, dtype=torch.long), 7)",
        "x.scatter(-1, i[:, :1] % x.shape[1], src[:, :1])", "x.gather(1, i % x.shape[1])",
        "x.gather(0, torch.tensor([[x.shape[0]]]))", "x.scatter_add(0, i, src.double())",
        "x.scatter(0, i.int(), src)", "x.index_select(1, j % x.shape[1])",
        "x[torch.tensor([True] * x.shape[0])]", "x[:, j % x.shape[1]]",
        "x.masked_fill(x > 2, -1)", "x.masked_select(x % 4 == 0)",
    ])
    if grad or g.chance(0.3):
        inplace = g.pick(["x = x.clone(); x[j] += 1", "x = x.clone(); x.index_put_((j,), "
                          "torch.tensor(2, dtype=x.dtype), accumulate=True)",
                          "x = x.clone(); x.scatter_add_(0, i, src)",
                          "x = x.clone(); x.index_add_(0, j % x.shape[0], x[:j.numel()] "
                          "if j.numel() <= x.shape[0] else x.new_ones(j.numel(), x.shape[1]))"])
        g.emit(inplace)
        g.emit("print(repr(x))")
    g.emit(f"r = {fn}")
    g.emit("print(repr(r))")
    if grad:
        g.emit("r.float().sum().backward() if r.requires_grad else None")
        g.emit("print(x.grad if x.is_leaf else x.grad_fn.name())")


def promotion_ops(g: Gen) -> None:
    """dtype promotion with 0-d tensors and Python scalars across op families: unary math,
    ternary ops, where, clamp, cat/stack, lerp, addcmul, comparisons, reductions."""
    a, shape, dt = g.tensor(dtype=g.dtype())
    other = g.operand(shape)
    third = g.operand(shape)
    fn = g.pick([
        f"torch.sin({a})", f"torch.exp({a})", f"torch.sqrt({a})", f"torch.log1p({a})",
        f"torch.sigmoid({a})", f"torch.abs({a})", f"torch.neg({a})", f"torch.floor({a})",
        f"torch.round({a})", f"torch.sign({a})", f"torch.reciprocal({a})",
        f"torch.where({a} > 0, {other}, {third})", f"torch.clamp({a}, {other})",
        f"torch.clamp({a}, max={other})",
        f"torch.cat([{a}.reshape(-1), torch.as_tensor({other}).reshape(-1)])",
        f"torch.stack([{a}, {a}.to(torch.float64)])", f"torch.lerp({a}, {other}, 0.5)",
        f"torch.addcmul({a}, {other}, {third})" if True else "",
        f"torch.addcdiv({a}, {a}, {other}, value=2)", f"torch.maximum({a}, {other})",
        f"torch.isclose({a}, {other})" if True else "", f"torch.mean({a})", f"torch.sum({a})",
        f"torch.prod({a})", f"torch.cumsum({a}, 0)" if shape else f"torch.sum({a})",
        f"torch.dot({a}.reshape(-1), {a}.reshape(-1))", f"{a}.sum() + {other}",
        f"torch.lt({a}, {other})", f"{a} @ {a}.T" if len(shape) == 2 else f"{a} * {other}",
        f"torch.fmod({a}, {other})", f"torch.copysign({a}, {other})",
        f"torch.nan_to_num({a})", f"torch.trunc({a})", f"torch.frac({a})",
        f"torch.square({a})", f"torch.erf({a})", f"torch.xlogy({a}, {other})",
        f"torch.heaviside({a}, {other})", f"torch.bitwise_and({a}, {other})",
        f"torch.true_divide({a}, {other})", f"{a}.add({other}, alpha=2)",
        f"{a}.mul_({other})", f"torch.result_type({a}, {other})",
        f"torch.where({a} > 0, 1, 0.5)", f"torch.where({a} > 0, {a}, 2.5)",
        f"torch.where({a} > 0, True, {other})", f"({a} > 0).sum()", f"({a} > 0).float().mean()",
        f"{a}.sum(dtype=torch.int32)", f"{a}.mean()", f"{a}.cumsum(0)" if shape else f"{a} + 0",
        f"{a}.prod(dtype=torch.float64)", f"{a} + 300", f"{a} * 1e10", f"{a} - True",
        f"{a}.to(torch.uint8) - 1", f"{a} // 0.5", f"{a} ** 0.5", f"{a} ** -1",
        f"{a}.clamp(min=0.5)", f"{a}.clamp(-1, 1.5)", f"torch.clamp({a}, {other}, {third})",
        f"torch.full_like({a}, 2.7)", f"torch.full({shape}, 3)", f"torch.full({shape}, True)",
        f"torch.arange(3) * {other}", f"torch.tensor(2) * {a}", f"torch.tensor(2.5) + {a}",
        f"torch.tensor(2.5, dtype=torch.float64) * {a}", f"torch.tensor([2.5]) + {a}",
        f"{a}.float() + torch.tensor(1, dtype=torch.float64)", f"{a}.half() * 1e5",
        f"{a}.bfloat16() + 0.1", f"torch.cat([{a}.reshape(-1), torch.tensor([0.5])])",
        f"torch.stack([{a}, {a}.bool()])", f"torch.max({a}, torch.tensor(0.5))",
        f"torch.eq({a}, 1.0)", f"{a} == True", f"{a}.any()", f"{a}.all()",
        f"torch.mm({a}.reshape(1, -1).float(), {a}.reshape(-1, 1).double())",
        f"torch.matmul({a}.reshape(-1).int(), {a}.reshape(-1).int())",
        f"torch.linalg.norm({a}.float())", f"torch.norm({a})", f"{a}.std()",
        f"torch.softmax({a}, -1)" if shape else f"torch.softmax({a}, 0)",
        f"torch.nn.functional.relu({a})", f"torch.sigmoid({a}.int())",
        f"torch.lerp({a}.float(), torch.ones(()), {other})",
        f"torch.addmv(torch.zeros(1), {a}.reshape(1, -1).float(), {a}.reshape(-1).float())",
        f"{a}.abs_()", f"{a}.neg_()", f"{a}.sqrt_()", f"{a}.add_(0.5)", f"{a}.div_(2)",
        f"{a}.floor_divide_(2)", f"{a}.float().div_({other})",
        f"torch.promote_types({dt}, torch.as_tensor({other}).dtype)",
    ])
    g.show(fn) if not fn.startswith(("torch.result_type", "torch.promote_types")) else \
        g.emit(f"print({fn})")


def random_sequences(g: Gen) -> None:
    """Random functions after manual_seed in different orders: each draw consumes the
    generator as PyTorch's does, so what follows must match too."""
    steps = g.r.randint(1, 4)
    for _ in range(steps):
        if g.chance(0.2):
            g.emit(f"torch.manual_seed({g.r.randint(0, 100)})")
        shape = g.shape_text(g.shape(2, 5) or (3,))
        fdt = g.pick(["", "", ", dtype=torch.float64", ", dtype=torch.float16",
                      ", dtype=torch.bfloat16"])
        fn = g.pick([
            f"torch.rand({shape}{fdt})", f"torch.randn({shape}{fdt})",
            f"torch.randint({g.r.randint(-3, 2)}, {g.r.randint(3, 100)}, {shape})",
            f"torch.randint(10, {shape}, dtype=torch.{g.pick(['int32', 'uint8', 'float32'])})",
            f"torch.randperm({g.r.randint(0, 40)})",
            f"torch.randperm({g.r.randint(1, 9)}, dtype=torch.int32)",
            f"torch.multinomial(torch.tensor([0.1, 0.5, 0.2, 0.2]), {g.r.randint(1, 4)})",
            f"torch.multinomial(torch.tensor([[1.0, 0.0, 3.0], [1.0, 1.0, 1.0]]), "
            f"{g.r.randint(1, 6)}, replacement=True)",
            f"torch.multinomial(torch.tensor([2.0, 0.0, 5.0, 1.0, 1.0]), 3)",
            f"torch.empty({shape}).normal_({g.pick(['', '2.0, 0.5', 'mean=-1, std=3'])})",
            f"torch.empty({shape}{fdt}).uniform_({g.pick(['', '-1, 1', '0, 10'])})",
            f"torch.empty({shape}).exponential_()", f"torch.empty({shape}).geometric_(0.3)",
            f"torch.empty({shape}, dtype=torch.int64).random_(0, 10)",
            f"torch.empty({shape}).log_normal_()", f"torch.empty({shape}).cauchy_()",
            f"torch.empty({shape}).bernoulli_(0.3)",
            f"torch.bernoulli(torch.full({shape}, {g.pick(['0.5', '0.1', '0.9'])}))",
            f"torch.bernoulli(torch.rand({shape}))",
            f"torch.normal(torch.zeros({shape}), torch.ones({shape}))",
            f"torch.normal(2.0, 3.0, size={shape})", f"torch.normal(torch.arange(4.0), 1.0)",
            f"torch.poisson(torch.full({shape}, 3.0))",
            f"torch.nn.functional.dropout(torch.ones({shape}), {g.pick(['0.5', '0.2', '0.9'])})",
            f"torch.nn.functional.dropout(torch.ones({shape}, dtype=torch.float64), 0.3)",
            f"torch.nn.Dropout(0.5)(torch.ones({shape}))",
            f"torch.nn.functional.dropout2d(torch.ones(2, 3, 2, 2), 0.5)",
            f"torch.nn.functional.alpha_dropout(torch.ones({shape}), 0.5, training=True)",
            f"torch.rand_like(torch.ones({shape}))", f"torch.randn_like(torch.ones({shape}, "
            f"dtype=torch.float64))", f"torch.randint_like(torch.ones({shape}), 5)",
            f"torch.rand({shape}, generator=torch.Generator().manual_seed(3))",
            f"torch.randn(2, 3)[torch.randperm(2)]",
            f"list(torch.utils.data.DataLoader(torch.arange({g.r.randint(3, 12)}), "
            f"batch_size={g.r.randint(1, 4)}, shuffle=True))",
            f"list(torch.utils.data.RandomSampler(range({g.r.randint(2, 10)})))",
            f"torch.utils.data.random_split(range({g.r.randint(4, 10)}), [0.5, 0.5])[0].indices",
            "torch.nn.init.kaiming_uniform_(torch.empty(3, 2))",
            "torch.nn.init.xavier_normal_(torch.empty(2, 3))",
            "torch.nn.Linear(3, 2).weight", "torch.get_rng_state()[:8]",
            "torch.initial_seed()", f"torch.randn({g.r.randint(15, 40)})",
            f"torch.rand({g.r.randint(15, 40)}, dtype=torch.float64)",
            f"torch.randn({g.r.randint(15, 40)}, dtype=torch.float16)",
            f"torch.randperm({g.r.randint(40, 300)})[:10]",
            "torch.empty(4, 6).t().normal_()", "torch.empty(20, 2)[:, 0].normal_()",
            "torch.empty(5).random_()[:2]", "torch.empty(3, dtype=torch.int32).random_(-5, 5)",
            "torch.empty(4).bernoulli_(torch.tensor([0.1, 0.5, 0.9, 1.0]))",
            "torch.nn.Conv2d(1, 2, 2).bias", "torch.nn.Embedding(3, 2).weight",
            "torch.nn.LSTM(2, 2).weight_hh_l0[0]", "torch.nn.init.uniform_(torch.empty(2, 2))",
            "torch.nn.init.normal_(torch.empty(3), std=0.1)",
            "torch.nn.init.trunc_normal_(torch.empty(4))",
            "torch.nn.init.orthogonal_(torch.empty(2, 2))",
            "torch.nn.init.sparse_(torch.empty(3, 2), 0.5)",
            "torch.multinomial(torch.tensor([0.0, 0.0, 1.0, 1.0]), 2)",
            "torch.multinomial(torch.ones(20), 5)", "torch.multinomial(torch.ones(3), 4)",
            "torch.randint(0, 2, (3,), dtype=torch.bool)", "torch.randint(5, (2,))",
            f"torch.utils.data.random_split(range(10), [3, 7], generator="
            f"torch.Generator().manual_seed({g.r.randint(0, 9)}))[1].indices",
            f"list(torch.utils.data.DataLoader(range({g.r.randint(3, 9)}), batch_size=2, "
            f"shuffle=True, generator=torch.Generator().manual_seed(1)))",
            "(lambda s: (torch.rand(2), torch.set_rng_state(s), torch.rand(2)))"
            "(torch.get_rng_state())",
            "(lambda gen: (torch.rand(2, generator=gen), gen.get_state()[:4]))"
            "(torch.Generator().manual_seed(5))",
            "torch.nn.functional.dropout(torch.ones(40), 0.5).sum()",
            "torch.nn.functional.dropout(torch.ones(3, 5), 0.5, training=False)",
            "torch.nn.functional.dropout1d(torch.ones(2, 3, 4), 0.5)",
            "torch.nn.functional.dropout3d(torch.ones(1, 3, 1, 2, 2), 0.5)",
            "torch.nn.functional.feature_alpha_dropout(torch.ones(2, 3, 2), 0.5, True)",
            "torch.rand(2, 3).uniform_(-2, 2).floor()",
        ])
        g.emit(f"print({fn})")


AREAS: dict[str, Callable[[Gen], None]] = {
    "autograd_sem": autograd_sem, "nn_functional": nn_functional, "reprs": reprs,
    "sorting": sorting, "scatter_gather": scatter_gather, "promotion_ops": promotion_ops,
    "random_seq": random_sequences,
}
