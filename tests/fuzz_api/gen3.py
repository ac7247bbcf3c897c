"""A third set of the differential fuzzer's areas: what real programs use around the tensor
API. nn modules (construction after a seed, reprs, names, state_dict, buffers, freezing,
modes, dtype moves, load_state_dict, hooks), optimizers and lr schedulers over a few steps,
elementwise math and reductions on special values across dtypes, linear algebra (products,
norms, decompositions, their errors and gradients), and data (Dataset/DataLoader/samplers,
distributions). Each area is a function of a `gen.Gen`; they run only when named
(`--only modules,...` or `--only gen3`), so older seeds' batches stay the same cases.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from gen import Gen

_FP = ["torch.float32", "torch.float64", "torch.float16", "torch.bfloat16"]
_INT = ["torch.int8", "torch.uint8", "torch.int16", "torch.int32", "torch.int64"]


def block(g: Gen, text: str) -> None:
    """Emit a multi-line statement (a class or def) as one line of the case: the runner
    indents a line's first row, so the following rows carry the same four spaces."""
    rows = textwrap.dedent(text).strip("\n").split("\n")
    g.emit("\n".join(rows[:1] + ["    " + row for row in rows[1:]]))


def _small(g: Gen, shape: tuple[int, ...], lo: int = -4, hi: int = 4, div: int = 2) -> str:
    """A nested list literal of small exact floats."""
    if not shape:
        return f"{g.r.randint(lo, hi) / div}"
    return "[" + ", ".join(_small(g, shape[1:], lo, hi, div) for _ in range(shape[0])) + "]"


# -- modules -------------------------------------------------------------------------------

_LAYERS = [
    "nn.Linear(3, 2)", "nn.Linear(4, 3, bias=False)", "nn.Conv1d(2, 3, 2)",
    "nn.Conv2d(1, 2, 3, padding=1)", "nn.Conv2d(2, 4, (2, 1), stride=2, groups=2, bias=False)",
    "nn.ConvTranspose2d(2, 1, 2)", "nn.BatchNorm1d(3)", "nn.BatchNorm2d(2, momentum=None)",
    "nn.LayerNorm(4)", "nn.LayerNorm([2, 3], elementwise_affine=False)", "nn.GroupNorm(2, 4)",
    "nn.InstanceNorm1d(3, affine=True)", "nn.Embedding(5, 3)", "nn.Embedding(4, 2, padding_idx=0)",
    "nn.EmbeddingBag(5, 2, mode='sum')", "nn.GRU(3, 2)", "nn.LSTM(2, 3, num_layers=2)",
    "nn.RNN(2, 2, batch_first=True, bidirectional=True)", "nn.LSTMCell(2, 3)", "nn.GRUCell(3, 2)",
    "nn.MultiheadAttention(4, 2)", "nn.Bilinear(2, 3, 4)", "nn.PReLU()", "nn.PReLU(3)",
    "nn.Dropout(0.3)", "nn.ReLU(inplace=True)", "nn.LeakyReLU(0.1)", "nn.Softmax(dim=1)",
    "nn.Flatten()", "nn.Unflatten(1, (2, 2))", "nn.MaxPool2d(2)", "nn.AvgPool1d(3, stride=1)",
    "nn.AdaptiveAvgPool2d((1, 1))", "nn.Identity()", "nn.Tanh()", "nn.GELU(approximate='tanh')",
    "nn.TransformerEncoderLayer(4, 2, 8)", "nn.CrossEntropyLoss(label_smoothing=0.1)",
    "nn.MSELoss(reduction='sum')", "nn.Upsample(scale_factor=2, mode='nearest')",
    "nn.ZeroPad2d((1, 0, 2, 0))", "nn.Hardtanh(-2, 2)", "nn.Conv3d(1, 1, 2)",
]

_CUSTOM = '''
class Block(nn.Module):
    def __init__(self, n, scale={scale}):
        super().__init__()
        self.fc = nn.Linear(n, n)
        self.act = nn.{act}()
        self.scale = scale
        self.register_buffer('steps', torch.zeros(()){persist})
        self.register_buffer('mask', torch.ones(n) * 2, persistent={mp})
    def extra_repr(self):
        return f'scale={{self.scale}}'
    def forward(self, x):
        return self.act(self.fc(x)) * self.scale + self.mask
'''

_NET = '''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(Block(3), nn.Dropout(0.1), Block(3, 2.0))
        self.heads = nn.ModuleDict({{'a': nn.Linear(3, 2), 'b': nn.Linear(3, 1, bias=False)}})
        self.extra = nn.ModuleList([nn.Linear(3, 3) for _ in range({k})])
        self.w = nn.Parameter(torch.ones(2) * 0.5)
    def forward(self, x):
        h = self.body(x)
        for m in self.extra:
            h = m(h).relu()
        return self.heads['a'](h) * self.w + self.heads['b'](h)
'''


def _model(g: Gen) -> str:
    """Define and build a model (after the case's seed); returns the expression's name `m`."""
    g.emit("import torch.nn as nn")
    form = g.r.random()
    if form < 0.35:
        seq = g.pick(["nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))",
                      "nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3), nn.Tanh(), "
                      "nn.Dropout(0.5), nn.Linear(3, 2, bias=False))",
                      "nn.Sequential(OrderedDict([('fc1', nn.Linear(3, 5)), ('act', nn.SiLU())"
                      ", ('fc2', nn.Linear(5, 2))]))",
                      "nn.Sequential(nn.Linear(3, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 2)))",
                      "nn.Sequential(*[nn.Linear(3, 3) for _ in range(3)], nn.Linear(3, 2))"])
        if "OrderedDict" in seq:
            g.emit("from collections import OrderedDict")
        g.emit(f"m = {seq}")
    else:
        block(g, _CUSTOM.format(scale=g.pick(["1.0", "0.5"]), act=g.pick(["ReLU", "Tanh",
                                                                          "Sigmoid"]),
                                persist=g.pick(["", ", persistent=False"]),
                                mp=g.pick(["False", "True"])))
        if form < 0.6:
            g.emit("m = nn.Sequential(Block(3), nn.Linear(3, 2))")
        else:
            block(g, _NET.format(k=g.r.randint(0, 2)))
            g.emit("m = Net()")
    return "m"


# layers with an input they take (after the case's seed), for their forward and backward
_FORWARD = [
    ("nn.Linear(3, 2)", "torch.randn(4, 3)"), ("nn.Linear(3, 2, bias=False)", "torch.randn(3)"),
    ("nn.Conv1d(2, 3, 2, padding=1)", "torch.randn(1, 2, 5)"),
    ("nn.Conv2d(1, 2, 3, padding='same', padding_mode='reflect')", "torch.randn(1, 1, 4, 4)"),
    ("nn.Conv2d(2, 2, 2, stride=2, dilation=1, groups=2)", "torch.randn(2, 2, 4, 4)"),
    ("nn.ConvTranspose1d(2, 1, 3, stride=2)", "torch.randn(1, 2, 3)"),
    ("nn.BatchNorm1d(3)", "torch.randn(4, 3)"), ("nn.BatchNorm2d(2)", "torch.randn(2, 2, 2, 2)"),
    ("nn.BatchNorm1d(3, track_running_stats=False)", "torch.randn(5, 3)"),
    ("nn.LayerNorm(3)", "torch.randn(2, 3)"), ("nn.GroupNorm(2, 4)", "torch.randn(2, 4, 3)"),
    ("nn.InstanceNorm1d(2)", "torch.randn(1, 2, 5)"),
    ("nn.Embedding(5, 2)", "torch.tensor([1, 4, 1])"),
    ("nn.Embedding(5, 2, max_norm=1.0)", "torch.tensor([[0, 2], [2, 3]])"),
    ("nn.GRU(3, 2, batch_first=True)", "torch.randn(2, 4, 3)"),
    ("nn.LSTM(2, 3)", "torch.randn(3, 1, 2)"), ("nn.RNN(2, 2, nonlinearity='relu')",
                                                "torch.randn(2, 2)"),
    ("nn.GRUCell(2, 3)", "torch.randn(4, 2)"),
    ("nn.MultiheadAttention(4, 2, batch_first=True)", "(torch.randn(1, 3, 4),) * 3"),
    ("nn.Bilinear(2, 3, 1)", "(torch.randn(2, 2), torch.randn(2, 3))"),
    ("nn.PReLU()", "torch.randn(3)"),
    ("nn.Dropout(0.5)", "torch.ones(8)"), ("nn.AlphaDropout(0.5)", "torch.ones(6)"),
    ("nn.MaxPool1d(2, return_indices=True)", "torch.randn(1, 2, 4)"),
    ("nn.AvgPool2d(2, ceil_mode=True)", "torch.randn(1, 1, 3, 3)"),
    ("nn.AdaptiveMaxPool1d(2)", "torch.randn(1, 1, 5)"),
    ("nn.Softmax(dim=-1)", "torch.randn(2, 3)"),
    ("nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False)",
     "torch.randn(1, 1, 2, 2)"),
    ("nn.Flatten(0)", "torch.randn(2, 3)"), ("nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)",
                                              "torch.randn(3, 1, 4)"),
    ("nn.CrossEntropyLoss()", "(torch.randn(3, 4), torch.tensor([0, 3, 1]))"),
    ("nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))", "(torch.randn(3), torch.ones(3))"),
    ("nn.Sequential(nn.Conv2d(1, 2, 2), nn.ReLU(), nn.Flatten(), nn.LazyLinear(2))",
     "torch.randn(2, 1, 3, 3)"),
]


def modules(g: Gen) -> None:
    """nn layers and models as programs build and inspect them."""
    roll = g.r.random()
    if roll < 0.15:
        g.emit("import torch.nn as nn")
        layer, arg = g.pick(_FORWARD)
        g.emit(f"m = {layer}")
        g.emit(g.pick(["", "m.eval()", "m.double()", "m.train()"]))
        g.emit(f"x = {arg}")
        if "double" in g.lines[-2]:
            g.emit("x = tuple(t.double() if t.is_floating_point() else t for t in x) if "
                   "isinstance(x, tuple) else x.double() if x.is_floating_point() else x")
        g.emit("y = m(*x) if isinstance(x, tuple) else m(x)")
        g.emit(g.pick(["print(y)", "print(y[0] if isinstance(y, tuple) else y.shape, y[0].grad_fn "
                       "if isinstance(y, tuple) else y.grad_fn)",
                       "print(m.state_dict())", "print([b for b in m.buffers()])"]))
        if g.chance(0.5):
            g.emit("(y[0] if isinstance(y, tuple) else y).sum().backward(); "
                   "print([(n, p.grad) for n, p in m.named_parameters()][:2])")
        return
    if roll < 0.4:
        g.emit("import torch.nn as nn")
        layer = g.pick(_LAYERS)
        g.emit(f"m = {layer}")
        g.emit(g.pick(["print(repr(m))", "print(m)", "print(m.extra_repr())"]))
        g.emit(g.pick([
            "for n, p in m.named_parameters(): print(n, tuple(p.shape), p.dtype, p.requires_grad)",
            "for n, p in m.named_parameters(): print(n, p)",
            "print([(n, b) for n, b in m.named_buffers()])",
            "print(list(m.state_dict().keys()))",
            "print(sum(p.numel() for p in m.parameters()), len(list(m.parameters())))",
            "print(m.state_dict())",
            "print([type(c).__name__ for c in m.children()], m.training)",
        ]))
        if g.chance(0.4):
            g.emit(g.pick(["m = m.double(); print([p.dtype for p in m.parameters()])",
                           "m.half(); print([p.dtype for p in m.parameters()])",
                           "m.to(torch.float64); print(next(m.parameters(), None))",
                           "m.to(dtype=torch.bfloat16); print(m.state_dict())",
                           "m.eval(); print(m.training, m)",
                           "m.requires_grad_(False); print([p.requires_grad for p in "
                           "m.parameters()])"]))
        return
    m = _model(g)
    x = f"torch.tensor({_small(g, (2, 3))})"
    g.emit(f"x = {x}")
    ops = [
        f"print({m})", f"print(repr({m}))",
        f"print([n for n, _ in {m}.named_modules()])",
        f"print([(n, type(c).__name__) for n, c in {m}.named_children()])",
        f"print([(n, tuple(p.shape)) for n, p in {m}.named_parameters()])",
        f"print([n for n, _ in {m}.named_buffers()])",
        f"print(list({m}.state_dict().keys()))",
        f"print({{k: v.shape for k, v in {m}.state_dict().items()}})",
        f"print(sum(p.numel() for p in {m}.parameters() if p.requires_grad))",
        f"print(len(list({m}.parameters())), len(list({m}.modules())), len(list({m}.buffers())))",
        f"print({m}(x))",
        f"{m}.eval(); print({m}.training, [c.training for c in {m}.modules()], {m}(x))",
        f"{m}.train(); {m}[0].eval() if isinstance({m}, nn.Sequential) else None; "
        f"print([c.training for c in {m}.modules()])",
        f"print({m}.train(False) is {m}, {m}.training)",
        f"{m}.double(); print({m}(x.double()).dtype, [p.dtype for p in {m}.parameters()])",
        f"{m}.half(); print({m}(x.half()))",
        f"print({m}.to(torch.float64)(x.double()))",
        f"{m}.to(torch.float64); print({m}(x))",
        f"print({m}.float() is {m}, next({m}.parameters()).dtype)",
        f"print([p.shape for p in {m}.parameters()][:3])",
        f"print({m}.get_submodule('0') if isinstance({m}, nn.Sequential) else None)",
        f"print({m}.get_parameter('0.weight' if isinstance({m}, nn.Sequential) else 'w').shape)",
        f"print({m}[0] if isinstance({m}, nn.Sequential) else {m}.body[1:])",
        f"print(len({m}) if isinstance({m}, nn.Sequential) else None)",
    ]
    g.emit(g.pick(ops))
    roll = g.r.random()
    if roll < 0.2:
        init = g.pick([
            "def init(mod):\n        if isinstance(mod, nn.Linear):\n            "
            "nn.init.constant_(mod.weight, 0.25)\n            "
            "if mod.bias is not None: nn.init.zeros_(mod.bias)",
            "def init(mod):\n        if type(mod) == nn.Linear:\n            "
            "nn.init.xavier_uniform_(mod.weight)\n            "
            "if mod.bias is not None: mod.bias.data.fill_(0.01)",
            "def init(mod):\n        print('visit', type(mod).__name__)",
            "def init(mod):\n        for p in mod.parameters(recurse=False): "
            "nn.init.normal_(p, 0.0, 0.02)",
            "def init(mod):\n        if isinstance(mod, nn.Linear): "
            "nn.init.kaiming_normal_(mod.weight, nonlinearity='relu')",
        ])
        g.emit(init)
        g.emit(f"print({m}.apply(init) is {m})")
        g.emit(g.pick([f"print({m}(x))", f"print({m}.state_dict())",
                       f"print(list({m}.parameters())[0])"]))
    elif roll < 0.4:
        # freezing, backward and zero_grad
        g.emit(g.pick([f"{m}.requires_grad_(False)",
                       f"list({m}.parameters())[0].requires_grad_(False)",
                       f"for p in list({m}.parameters())[:2]: p.requires_grad = False",
                       f"[p.requires_grad_(False) for n, p in {m}.named_parameters() "
                       f"if 'bias' in n]", ""]))
        g.emit(f"out = {m}(x).sum()")
        g.emit("out.backward()" if g.chance(0.8) else "print(out.requires_grad)")
        g.emit(f"print([(n, p.grad) for n, p in {m}.named_parameters()][:3])")
        g.emit(g.pick([f"{m}.zero_grad(); print([p.grad for p in {m}.parameters()][:2])",
                       f"{m}.zero_grad(set_to_none=False); "
                       f"print([p.grad for p in {m}.parameters()][:2])",
                       f"print(sum(p.numel() for p in {m}.parameters() if p.requires_grad))",
                       f"print([n for n, p in {m}.named_parameters() if p.grad is None])"]))
    elif roll < 0.65:
        # state_dict round trips and load_state_dict's results and errors
        g.emit(f"sd = {m}.state_dict()")
        change = g.pick([
            "sd2 = {k: v for k, v in sd.items() if 'bias' not in k}",
            "sd2 = dict(sd); sd2['extra.weight'] = torch.ones(1)",
            "sd2 = {k: torch.zeros_like(v) for k, v in sd.items()}",
            "sd2 = {k: v[:1] if v.dim() else v for k, v in sd.items()}",
            "sd2 = {'module.' + k: v for k, v in sd.items()}",
            "sd2 = {k: v.double() for k, v in sd.items()}",
            "sd2 = {k: v.t() if v.dim() == 2 else v for k, v in sd.items()}",
            "sd2 = {k: v for k, v in list(sd.items())[1:]}",
            "sd2 = sd",
        ])
        g.emit(change)
        strict = g.pick(["", ", strict=False", ", strict=True"])
        g.emit(f"r = {m}.load_state_dict(sd2{strict})")
        g.emit(g.pick(["print(r)", "print(r.missing_keys, r.unexpected_keys)",
                       f"print(r, {m}.state_dict())", f"print({m}(x))"]))
    elif roll < 0.85:
        # hooks
        hook = g.pick([
            "h = {t}.register_forward_hook(lambda mod, inp, out: print('fwd', "
            "type(mod).__name__, len(inp), tuple(out.shape)))",
            "h = {t}.register_forward_pre_hook(lambda mod, inp: print('pre', "
            "type(mod).__name__, inp[0].shape))",
            "h = {t}.register_forward_hook(lambda mod, inp, out: out * 0)",
            "h = {t}.register_forward_pre_hook(lambda mod, inp: (inp[0] * 2,))",
            "h = {t}.register_full_backward_hook(lambda mod, gi, go: print('bwd', "
            "type(mod).__name__, [g if g is None else tuple(g.shape) for g in gi], go[0]))",
            "h = {t}.register_full_backward_pre_hook(lambda mod, go: print('bpre', go))",
            "h = {t}.register_forward_hook(lambda mod, args, kwargs, out: print('kw', kwargs), "
            "with_kwargs=True)",
        ])
        target = g.pick([m, f"{m}[0]" if "Sequential" in " ".join(g.lines) else m,
                         f"list({m}.modules())[-1]"])
        g.emit(hook.format(t=target))
        g.emit(f"y = {m}(x); print(y)")
        if g.chance(0.5):
            g.emit("y.sum().backward()")
        if g.chance(0.5):
            g.emit(f"h.remove(); print({m}(x).sum())")
    else:
        g.emit(g.pick([
            f"{m}.register_buffer('count', torch.tensor(3)); print({m}.state_dict().keys())",
            f"{m}.register_buffer('tmp', torch.ones(2), persistent=False); "
            f"print(list({m}.state_dict()), [n for n, _ in {m}.named_buffers()])",
            f"{m}.register_parameter('alpha', nn.Parameter(torch.tensor(1.5))); "
            f"print([n for n, _ in {m}.named_parameters()][-2:])",
            f"{m}.register_buffer('count', [1])",
            f"{m}.register_parameter('alpha', torch.ones(2))",
            f"{m}.add_module('tail', nn.Sigmoid()); print({m})",
            f"{m}.add_module('a.b', nn.Sigmoid())",
            f"print({m}.weight)",
            f"print(hasattr({m}, 'training'), getattr({m}, 'nope', 'missing'))",
            f"del {m}._modules[next(iter({m}._modules))]; print({m})",
            f"print(copy.deepcopy({m}).state_dict().keys() == {m}.state_dict().keys())",
            f"print(nn.utils.parameters_to_vector({m}.parameters()).shape)",
            f"print(nn.utils.clip_grad_norm_({m}.parameters(), 1.0))",
            f"{m}(x).sum().backward(); print(nn.utils.clip_grad_norm_({m}.parameters(), 0.5))",
            f"{m}(x).sum().backward(); nn.utils.clip_grad_value_({m}.parameters(), 0.1); "
            f"print([p.grad for p in {m}.parameters()][0])",
        ]))
        if "copy." in g.lines[-1]:
            g.lines.insert(0, "import copy")


# -- optimizers and schedulers -------------------------------------------------------------

_OPTIMIZERS = [
    "SGD({p}, lr=0.1)", "SGD({p}, lr=0.1, momentum=0.9)",
    "SGD({p}, lr=0.05, momentum=0.9, nesterov=True)", "SGD({p}, lr=0.1, weight_decay=0.01)",
    "SGD({p}, lr=0.1, momentum=0.5, dampening=0.1, weight_decay=0.1)",
    "SGD({p}, lr=0.1, maximize=True)", "Adam({p})", "Adam({p}, lr=0.01, betas=(0.8, 0.9))",
    "Adam({p}, lr=0.1, amsgrad=True)", "Adam({p}, lr=0.01, weight_decay=0.1)",
    "AdamW({p}, lr=0.01)", "AdamW({p}, lr=0.1, amsgrad=True, weight_decay=0.5)",
    "RMSprop({p}, lr=0.01)", "RMSprop({p}, lr=0.01, centered=True, momentum=0.9)",
    "RMSprop({p}, lr=0.01, alpha=0.9, weight_decay=0.1)", "Adagrad({p}, lr=0.1)",
    "Adagrad({p}, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)", "Adadelta({p})",
    "Adadelta({p}, lr=0.5, rho=0.8)", "Adamax({p}, lr=0.02)", "NAdam({p}, lr=0.01)",
    "NAdam({p}, lr=0.01, momentum_decay=0.01, decoupled_weight_decay=True, weight_decay=0.1)",
    "RAdam({p}, lr=0.01)", "RAdam({p}, lr=0.01, decoupled_weight_decay=True, weight_decay=0.1)",
    "ASGD({p}, lr=0.01)", "Rprop({p}, lr=0.01)", "SGD({p})", "Adam({p}, lr=-1)",
    "SGD({p}, lr=0.1, nesterov=True)", "Adam({p}, betas=(1.0, 0.9))",
]

_SCHEDULERS = [
    "StepLR(opt, step_size=2, gamma=0.5)", "MultiStepLR(opt, milestones=[1, 3], gamma=0.1)",
    "ExponentialLR(opt, gamma=0.9)", "CosineAnnealingLR(opt, T_max=4)",
    "CosineAnnealingLR(opt, T_max=3, eta_min=0.01)", "LambdaLR(opt, lambda e: 0.95 ** e)",
    "LambdaLR(opt, lr_lambda=lambda e: 1 / (e + 1))", "MultiplicativeLR(opt, lambda e: 0.9)",
    "LinearLR(opt, start_factor=0.25, total_iters=3)", "ConstantLR(opt, factor=0.5, total_iters=2)",
    "PolynomialLR(opt, total_iters=4, power=2.0)",
    "OneCycleLR(opt, max_lr=1.0, total_steps=8)",
    "OneCycleLR(opt, max_lr=0.5, total_steps=6, anneal_strategy='linear', pct_start=0.5)",
    "OneCycleLR(opt, max_lr=0.1, epochs=2, steps_per_epoch=3, three_phase=True)",
    "CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2)",
    "CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode='triangular2')",
    "CyclicLR(opt, 0.01, 0.1, step_size_up=2, mode='exp_range', gamma=0.9)",
    "CosineAnnealingWarmRestarts(opt, T_0=2)", "CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2)",
    "SequentialLR(opt, [LinearLR(opt, 0.5, total_iters=2), ExponentialLR(opt, 0.9)], "
    "milestones=[2])",
    "ChainedScheduler([StepLR(opt, 2, 0.5), ExponentialLR(opt, 0.9)])",
    "StepLR(opt, 2, gamma=0.5, last_epoch=3)",
]


def optim_sched(g: Gen) -> None:
    """Optimizers over a few steps (param groups, per-group options, state_dict, repr) and
    lr schedulers' sequences."""
    g.emit("from torch.optim import *")
    g.emit("from torch.optim.lr_scheduler import *")
    roll = g.r.random()
    if roll < 0.55:
        g.emit(f"w = torch.tensor({_small(g, (2, 2))}, requires_grad=True)")
        g.emit(f"b = torch.tensor({_small(g, (2,))}, requires_grad=True)")
        groups = g.pick(["[w, b]", "[w, b]", "[{'params': [w]}, {'params': [b], 'lr': 0.3}]",
                         "[{'params': [w], 'weight_decay': 0.1}, {'params': b}]",
                         "[{'params': [w]}, {'params': [b], 'momentum': 0.5}]",
                         "(p for p in [w, b])", "[w, b]", "[]" if g.chance(0.3) else "[w]",
                         "w" if g.chance(0.3) else "[b, w]"])
        opt = g.pick(_OPTIMIZERS).format(p=groups)
        g.emit(f"opt = {opt}")
        x = f"torch.tensor({_small(g, (3, 2))})"
        g.emit(f"x = {x}")
        g.emit(f"tgt = torch.tensor({_small(g, (3, 2))})")
        loss = "((x @ w + b - tgt) ** 2).mean()"
        steps = g.r.randint(1, 4)
        if "LBFGS" in opt or g.chance(0.08):
            extra = g.pick(["", ", line_search_fn='strong_wolfe'", ", history_size=2"])
            g.emit(f"opt = LBFGS([w, b], lr={g.pick(['1', '0.5'])}, max_iter={g.r.randint(2, 6)}"
                   f"{extra})")
            g.emit(f"def closure():\n        opt.zero_grad()\n        loss = {loss}\n"
                   f"        loss.backward()\n        return loss")
            g.emit(f"for i in range({steps}): print(opt.step(closure))")
        else:
            show = "\n        print(loss.item())" if g.chance(0.3) else ""
            g.emit(f"for i in range({steps}):\n        opt.zero_grad()\n        loss = {loss}\n"
                   f"        loss.backward()\n        opt.step(){show}")
        g.emit(g.pick(["print(w, b)", "print(w.data, b.grad)", "print(opt.state_dict())",
                       "print(w.tolist(), b.tolist())", "print(loss.item(), w.tolist())",
                       "print(opt.state_dict()['param_groups'])",
                       "print({k: sorted(v) for k, v in opt.state_dict()['state'].items()})",
                       "print(repr(opt))", "print(opt)",
                       "print([len(s) for s in opt.state.values()], w)",
                       "print(opt.param_groups[-1]['lr'], len(opt.param_groups))"]))
        if g.chance(0.25):
            g.emit(g.pick([
                "opt2 = type(opt)([w, b]); opt2.load_state_dict(opt.state_dict()); "
                "print(opt2.state_dict()['param_groups'])",
                "opt.add_param_group({'params': [torch.zeros(2, requires_grad=True)], "
                "'lr': 0.5}); print(opt)",
                "opt.add_param_group({'params': [w]})",
                "opt.zero_grad(set_to_none=False); print(w.grad)",
                "opt.zero_grad(); print(w.grad)",
            ]))
        return
    g.emit("p = torch.nn.Parameter(torch.ones(2))")
    base = g.pick(["SGD([p], lr=0.1)", "SGD([p], lr=0.1, momentum=0.9)", "Adam([p], lr=0.01)",
                   "SGD([{'params': [p]}, {'params': [torch.nn.Parameter(torch.ones(1))], "
                   "'lr': 0.5}], lr=0.1, momentum=0.9)", "AdamW([p], lr=1e-3)"])
    g.emit(f"opt = {base}")
    if g.chance(0.15):
        g.emit("sched = ReduceLROnPlateau(opt" + g.pick([
            "", ", mode='max'", ", patience=1, factor=0.5", ", patience=0, cooldown=1",
            ", threshold=0.1, threshold_mode='abs', patience=1",
            ", min_lr=0.05, patience=0"]) + ")")
        metrics = [g.pick([1.0, 0.9, 0.95, 1.2, 0.5]) for _ in range(g.r.randint(3, 8))]
        g.emit(f"for v in {metrics}: opt.step(); sched.step(v); "
               f"print(opt.param_groups[0]['lr'], sched.num_bad_epochs)")
        if g.chance(0.4):
            g.emit("print(sched.state_dict()['best'], sched.get_last_lr())")
        return
    sched = g.pick(_SCHEDULERS)
    g.emit(f"sched = {sched}")
    n = g.r.randint(2, 9)
    show = g.pick(["sched.get_last_lr()", "opt.param_groups[0]['lr']",
                   "[round(v, 6) for v in sched.get_last_lr()]",
                   "opt.param_groups[0].get('momentum')"])
    g.emit(f"print({show})")
    g.emit(f"for i in range({n}): opt.step(); sched.step(); print(i, {show})")
    if g.chance(0.3):
        g.emit(g.pick(["print(sched.state_dict().get('last_epoch'), sched.last_epoch)",
                       "print(sorted(k for k in sched.state_dict()))",
                       "print(repr(opt))", "print(sched.get_lr())",
                       "sched.step(); sched.step(); print(sched.get_last_lr())"]))


# -- special values ------------------------------------------------------------------------

_SPECIAL = ["float('inf')", "-float('inf')", "float('nan')", "-0.0", "0.0", "1e-45", "1e-40",
            "5e-324", "1e-310", "3.4e38", "-3.4e38", "65504.0", "65520.0", "1e-8", "1e-5",
            "1.0", "-1.0", "0.5", "-2.5", "2.5", "1e20", "-1e20", "3.0", "100.0", "-88.5",
            "89.0", "710.0", "0.1", "1.5"]
_BIGINT = ["0", "1", "-1", "127", "-128", "255", "32767", "-32768", "2147483647", "-2147483648",
           "9007199254740993", "-9223372036854775808", "9223372036854775807", "7", "-7", "3"]
_INT_RANGE = {"torch.int8": (-128, 127), "torch.uint8": (0, 255), "torch.int16": (-32768, 32767),
              "torch.int32": (-2 ** 31, 2 ** 31 - 1), "torch.int64": (-2 ** 63, 2 ** 63 - 1)}


def _special_tensor(g: Gen, dtype: str, n: int) -> str:
    if dtype in _INT_RANGE:
        lo, hi = _INT_RANGE[dtype]
        vals = [v for v in _BIGINT if lo <= int(v) <= hi]
        items = [g.pick(vals) for _ in range(n)]
    elif dtype == "torch.bool":
        items = [g.pick(["True", "False"]) for _ in range(n)]
    else:
        items = [g.pick(_SPECIAL) for _ in range(n)]
    return f"torch.tensor([{', '.join(items)}], dtype={dtype})"


def math_special(g: Gen) -> None:
    """Elementwise math and reductions on inf, nan, -0.0, subnormals and huge ints."""
    dtype = g.pick(_FP + _FP + _INT + ["torch.bool"])
    n = g.r.randint(1, 6)
    g.emit(f"x = {_special_tensor(g, dtype, n)}")
    other = g.pick(_FP + _INT) if g.chance(0.3) else dtype
    g.emit(f"y = {_special_tensor(g, other, n)}")
    unary = ["x.exp()", "x.expm1()", "x.log()", "x.log1p()", "x.log2()", "x.log10()", "x.sqrt()",
             "x.rsqrt()", "x.sin()", "x.cos()", "x.tan()", "x.tanh()", "x.sigmoid()",
             "x.asin()", "x.acos()", "x.atan()", "x.sinh()", "x.cosh()", "x.asinh()",
             "x.acosh()", "x.atanh()", "x.exp2()", "x.abs()", "x.neg()", "x.reciprocal()",
             "x.sign()", "x.sgn()", "x.signbit()", "x.round()", "x.round(decimals=2)",
             "x.floor()", "x.ceil()", "x.trunc()", "x.frac()", "x.square()",
             "x.clamp(-1, 1)", "x.clamp(min=0)", "x.clamp(max=-0.0)",
             "x.clamp(torch.tensor(0.5), None)", "x.nan_to_num()",
             "x.nan_to_num(nan=0.0, posinf=1e4, neginf=-1e4)", "x.nan_to_num(posinf=1e300)",
             "torch.isnan(x)", "torch.isinf(x)", "torch.isfinite(x)", "torch.isposinf(x)",
             "torch.isneginf(x)", "torch.isreal(x)", "x.erf()", "x.erfinv()", "x.lgamma()",
             "x.digamma()", "torch.special.expit(x)", "torch.special.entr(x)", "x.logit()",
             "x.relu()", "x.pow(2)", "x.pow(0.5)", "x ** -1", "2 ** x", "x.float_power(2)",
             "torch.special.xlogy(x, x)", "torch.sinc(x)", "x.deg2rad()", "x.to(torch.int32)",
             "x.to(torch.float16)", "x.to(torch.bfloat16)", "x.to(torch.uint8)", "x.bool()",
             "x.int()", "x.long()", "x.half()", "x.double()", "x.to(torch.int8)"]
    binary = ["torch.atan2(x, y)", "torch.fmod(x, y)", "torch.remainder(x, y)",
              "torch.floor_divide(x, y)", "x / y", "x // y", "x % y", "x * y", "x + y", "x - y",
              "torch.div(x, y, rounding_mode='trunc')", "torch.div(x, y, rounding_mode='floor')",
              "torch.maximum(x, y)", "torch.minimum(x, y)", "torch.fmax(x, y)",
              "torch.fmin(x, y)", "torch.isclose(x, y)", "torch.isclose(x, y, equal_nan=True)",
              "torch.allclose(x, y)", "torch.allclose(x, y, rtol=0, atol=0, equal_nan=True)",
              "torch.hypot(x, y)", "torch.copysign(x, y)", "torch.nextafter(x, y)",
              "torch.ldexp(x, y)", "torch.logaddexp(x, y)", "torch.xlogy(x, y)",
              "torch.pow(x, y)", "x == y", "x < y", "x.eq(y).all()", "torch.equal(x, y)",
              "torch.clamp(x, y, None)", "torch.clamp(x, min=y, max=y)", "torch.lerp(x, y, 0.5)",
              "torch.where(x > y, x, y)", "x & y", "x | y", "x ^ y", "x << 1", "x >> 1",
              "torch.gcd(x, y)", "torch.lcm(x, y)", "torch.bitwise_not(x)", "torch.dist(x, y)",
              "torch.fmod(x, 0)", "torch.remainder(x, -0.0)", "x // 0", "torch.floor_divide(x, 0)"]
    reductions = ["x.sum()", "x.sum(dtype=torch.float64)", "x.prod()", "x.mean()", "x.nansum()",
                  "x.nanmean()", "x.std()", "x.std(correction=0)", "x.var(unbiased=False)",
                  "x.var(correction=2)", "torch.std_mean(x)", "torch.var_mean(x, correction=0)",
                  "x.norm()", "x.norm(p=1)", "x.norm(p=float('inf'))", "x.norm(p=0)",
                  "x.logsumexp(0)", "x.cumsum(0)", "x.cumprod(0)", "x.logcumsumexp(0)",
                  "x.diff()", "torch.diff(x, n=2)", "torch.diff(x, prepend=y[:1])",
                  "x.max()", "x.min()", "x.argmax()", "x.argmin()", "x.amax()", "x.aminmax()",
                  "x.cummax(0)", "x.cummin(0)", "x.sort()", "x.median()", "x.nanmedian()",
                  "x.mode()", "x.count_nonzero()", "x.any()", "x.all()", "x.sum(0, True)",
                  "torch.linalg.vector_norm(x)", "x.softmax(0)", "x.log_softmax(0)",
                  "x.mean(dtype=torch.float64)", "torch.trapezoid(x)",
                  "x.cumsum(0, dtype=torch.int64)",
                  "x.quantile(0.5)", "x.histc(4)", "x.unique()", "x.topk(1)"]
    pool = g.pick([unary, unary, binary, binary, reductions, reductions])
    for _ in range(g.r.randint(1, 3)):
        expr = g.pick(pool)
        if ("gcd" in expr or "lcm" in expr) and "-9223372036854775808" in "".join(g.lines):
            expr = "'gcd/lcm of INT64_MIN: skipped (SIGFPE in PyTorch itself)'"
        g.emit(g.pick([f"print(repr({expr}))", f"print({expr})",
                       f"r = {expr}; print(r.dtype if hasattr(r, 'dtype') else type(r), r)"]))


# -- linear algebra ------------------------------------------------------------------------

def _well_conditioned(g: Gen, n: int, batch: tuple[int, ...] = ()) -> str:
    """A diagonally dominant n x n matrix (batched) of small exact values."""
    return (f"(torch.tensor({_small(g, batch + (n, n), -2, 2, 2)}) + {n + 1} * torch.eye({n}))")


def linalg(g: Gen) -> None:
    """Products with broadcasting, norms, decompositions on well-conditioned inputs, their
    errors on singular or misshaped ones, and their gradients."""
    dtype = g.pick(["", "", ".double()"])
    roll = g.r.random()
    if roll < 0.3:
        # products and broadcasting (some shapes don't fit)
        k = g.r.randint(1, 3)
        a_shape = g.pick([(k,), (2, k), (3, 2, k), (1, 2, k), (2, 1, 2, k)])
        b_shape = g.pick([(k,), (k, 2), (3, k, 2), (1, k, 1), (2, k, 3), (k + 1, 2), (2, 1, k, 2)])
        g.emit(f"a = torch.tensor({_small(g, a_shape)}){dtype}")
        g.emit(f"b = torch.tensor({_small(g, b_shape)}){dtype}")
        expr = g.pick(["a @ b", "torch.matmul(a, b)", "torch.mm(a, b)", "torch.bmm(a, b)",
                       "torch.einsum('...k,...kj->...j', a, b)", "torch.einsum('ik,kj->ij', a, b)",
                       "torch.einsum('bik,bkj->bij', a, b)", "torch.einsum('i,i->', a, a)",
                       "torch.einsum('...i,...i', a, a)", "torch.einsum('ij->ji', a)",
                       "torch.einsum('bij->b', a)", "torch.einsum('i,j->ij', a.flatten(), "
                       "b.flatten())", "torch.mv(a, b)", "torch.dot(a, b)", "torch.outer(a, b)",
                       "torch.tensordot(a, b, dims=1)", "torch.inner(a, a)", "a.matmul(b.mT)",
                       "torch.kron(a, b)", "torch.linalg.multi_dot([a, b])", "torch.vdot(a, a)",
                       "torch.baddbmm(torch.zeros(1), a, b)", "torch.addmm(torch.ones(2), a, b)",
                       "torch.chain_matmul(a, b)", "torch.cross(a, a, dim=-1)"])
        g.emit(g.pick([f"r = {expr}; print(r.shape, r)", f"print(repr({expr}))"]))
        if g.chance(0.3):
            g.emit("a.requires_grad_(); b.requires_grad_()")
            g.emit(f"r = {expr}; r.sum().backward(); print(a.grad, b.grad)")
        return
    if roll < 0.5:
        shape = g.pick([(3,), (2, 3), (3, 3), (2, 2, 2), (4,)])
        g.emit(f"x = torch.tensor({_small(g, shape, -6, 6, 2)}){dtype}")
        ords = g.pick([
            "torch.linalg.norm(x)", "torch.linalg.norm(x, {o})", "torch.linalg.vector_norm(x, {o})",
            "torch.linalg.vector_norm(x, {o}, dim=-1, keepdim=True)",
            "torch.linalg.matrix_norm(x, {m})", "torch.linalg.norm(x, {m})", "x.norm({o})",
            "torch.norm(x, {mo})", "torch.norm(x, dim=0)",
            "torch.linalg.vector_norm(x, dim=(0, -1))",
            "torch.linalg.norm(x, {o}, dim=0)", "torch.linalg.matrix_norm(x, {m}, keepdim=True)",
            "torch.linalg.vector_norm(x, {o}, dtype=torch.float64)", "torch.renorm(x, 2, 0, 1.0)",
            "torch.nn.functional.normalize(x, p={o}, dim=-1)", "torch.cdist(x.view(1, -1, "
            "x.shape[-1]), x.view(1, -1, x.shape[-1]), p={o})",
        ])
        o = g.pick(["2", "1", "float('inf')", "-float('inf')", "0", "3", "0.5", "-1"])
        mo = g.pick(["'fro'", "'nuc'", "2", "1", "float('inf')"])
        m = g.pick(["'fro'", "'nuc'", "1", "-1", "2", "-2", "float('inf')", "-float('inf')", "3"])
        expr = ords.format(o=o, m=m, mo=mo)
        g.emit(f"print(repr({expr}))")
        if g.chance(0.35):
            g.emit(f"x.requires_grad_(); {expr}.sum().backward(); print(x.grad)")
        return
    n = g.r.randint(1, 3)
    batch = g.pick([(), (), (2,)])
    form = g.r.random()
    if form < 0.65:
        g.emit(f"A = {_well_conditioned(g, n, batch)}{dtype}")
    elif form < 0.8:
        g.emit(g.pick([f"A = torch.zeros({n}, {n}){dtype}", "A = torch.tensor([[1.0, 2.0], [2.0, "
                       f"4.0]]){dtype}", f"A = torch.ones(2, 3){dtype}",
                       "A = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).int()",
                       f"A = torch.tensor([[1.0, 0.0], [0.0, -1.0]]){dtype}",
                       f"A = torch.tensor([[0.0, 1.0], [1.0, 0.0]]){dtype}",
                       f"A = torch.eye(3){dtype}[:, :2]", f"A = torch.ones({n}){dtype}",
                       f"A = torch.tensor([[1.0, float('nan')], [0.0, 1.0]]){dtype}"]))
    else:
        g.emit(f"A0 = {_well_conditioned(g, n, batch)}{dtype}")
        g.emit("A = A0 @ A0.mT + torch.eye(A0.shape[-1])")
    if g.chance(0.5):
        g.emit("A = A @ A.mT" if g.chance(0.5) else "A = (A + A.mT) / 2")
    rhs_shape = batch + (n, g.pick([1, 2]))
    g.emit(f"B = torch.tensor({_small(g, rhs_shape)}){dtype}")
    ops = ["torch.linalg.det(A)", "torch.det(A)", "torch.linalg.slogdet(A)", "torch.logdet(A)",
           "torch.linalg.inv(A)", "torch.inverse(A)", "torch.linalg.inv_ex(A)",
           "torch.linalg.solve(A, B)", "torch.linalg.solve(A, B[..., 0])", "torch.linalg.pinv(A)",
           "torch.linalg.svdvals(A)", "torch.linalg.svd(A)", "torch.linalg.svd(A, "
           "full_matrices=False)", "torch.svd(A)", "torch.linalg.qr(A)", "torch.linalg.qr(A, "
           "mode='r')", "torch.linalg.eigh(A)", "torch.linalg.eigvalsh(A)",
           "torch.linalg.eigvalsh(A, UPLO='U')", "torch.linalg.cholesky(A)",
           "torch.linalg.cholesky_ex(A)", "torch.cholesky_solve(B, torch.linalg.cholesky(A))",
           "torch.linalg.matrix_rank(A)", "torch.linalg.cond(A)", "torch.linalg.matrix_power(A, 3)",
           "torch.linalg.matrix_power(A, -1)", "torch.linalg.matrix_exp(A)", "torch.trace(A)",
           "torch.linalg.lstsq(A, B).solution", "torch.linalg.lu_factor(A)", "torch.linalg.lu(A)",
           "torch.triangular_solve(B, A, upper=False)", "torch.linalg.solve_triangular(A, B, "
           "upper=True)", "torch.linalg.eigvals(A)", "torch.linalg.eig(A)",
           "torch.linalg.diagonal(A)",
           "torch.linalg.tensorinv(A, ind=1)", "torch.linalg.householder_product(A, A[..., 0])"]
    op = g.pick(ops)
    shows = [f"print({op})", f"r = {op}; print(r)",
             f"r = {op}; print([t.shape for t in r] if isinstance(r, tuple) else r.shape)"]
    if "svd" in op or "eig" in op and "vals" not in op or "qr" in op:
        # factors are defined up to signs; print what is sign-free
        shows = [f"r = {op}; print(r[0].abs() if r[0].dim() > 1 else r[0], r[1].abs())",
                 f"r = {op}; print(type(r).__name__, [t.shape for t in r])"]
    g.emit(g.pick(shows))
    if g.chance(0.3) and "B" not in op:
        grad_op = g.pick(["torch.linalg.det(A)", "torch.linalg.inv(A).sum()",
                          "torch.linalg.solve(A, B).sum()", "torch.linalg.eigvalsh(A).sum()",
                          "torch.linalg.cholesky(A).sum()", "torch.logdet(A)",
                          "torch.linalg.svdvals(A).sum()", "torch.linalg.norm(A, 'nuc')",
                          "torch.linalg.pinv(A).sum()", "torch.linalg.matrix_exp(A).sum()",
                          "torch.linalg.slogdet(A)[1].sum()", "torch.trace(A @ A)"])
        g.emit(f"A = A.detach().requires_grad_(); v = {grad_op}; v.sum().backward(); "
               f"print(v, A.grad)")


# -- data ----------------------------------------------------------------------------------

def data(g: Gen) -> None:
    """Datasets, DataLoaders, samplers and collation; torch.distributions."""
    if g.chance(0.35):
        _distributions(g)
        return
    g.emit("from torch.utils.data import *")
    n = g.r.randint(2, 9)
    ds = g.pick([
        f"TensorDataset(torch.arange({n * 2}.0).view({n}, 2), torch.arange({n}))",
        f"TensorDataset(torch.arange({n}))",
        f"[(i, float(i) / 2) for i in range({n})]",
        f"[{{'x': torch.tensor([i, i + 1]), 'y': i % 2, 'name': str(i)}} for i in range({n})]",
        f"[(torch.full((2,), i), torch.tensor(i > {n // 2})) for i in range({n})]",
        f"list(range({n}))", f"[float(i) for i in range({n})]",
        f"[[i, i * 2] for i in range({n})]", f"[{{'a': (i, [i])}} for i in range({n})]",
        f"[(i, True, 'a' * i) for i in range({n})]", f"[np_like(i) for i in range({n})]",
    ])
    if "np_like" in ds:
        ds = f"[torch.tensor(i, dtype=torch.int32) for i in range({n})]"
    g.emit(f"ds = {ds}")
    roll = g.r.random()
    if roll < 0.5:
        bs = g.r.randint(1, 4)
        opts = g.pick(["", ", drop_last=True", ", shuffle=True", ", shuffle=True, drop_last=True",
                       ", shuffle=True, generator=torch.Generator().manual_seed(%d)"
                       % g.r.randint(0, 9), ", shuffle=False",
                       ", sampler=SequentialSampler(ds)", ", sampler=RandomSampler(ds)",
                       ", collate_fn=lambda b: b", ", collate_fn=lambda b: len(b)"])
        batch = f", batch_size={bs}" if g.chance(0.85) else g.pick([", batch_size=None", ""])
        g.emit(f"dl = DataLoader(ds{batch}{opts})")
        g.emit(g.pick(["for b in dl: print(b)", "print(len(dl)); print(list(dl))",
                       "for i, b in enumerate(dl): print(i, type(b).__name__, b)",
                       "print(next(iter(dl)))", "print(list(dl)); print(list(dl))",
                       "print(len(dl.dataset), dl.batch_size, dl.drop_last)"]))
        return
    if roll < 0.7:
        split = g.pick([f"[{n // 2}, {n - n // 2}]", "[0.5, 0.5]", "[0.3, 0.7]", "[0.2, 0.3, 0.5]",
                        f"[{n}, 1]", f"[1, {n - 1}]"])
        gen = g.pick(["", ", generator=torch.Generator().manual_seed(42)"])
        g.emit(f"parts = random_split(ds, {split}{gen})")
        g.emit(g.pick(["print([p.indices for p in parts])", "print([len(p) for p in parts])",
                       "print([list(p) for p in parts])", "print(parts[0][0], type(parts[0]))"]))
        return
    if roll < 0.8:
        g.emit(f"sub = Subset(ds, {[g.r.randint(0, n - 1) for _ in range(g.r.randint(1, 4))]})")
        g.emit(g.pick(["print(len(sub), list(sub))", "print(sub[0], sub.indices)",
                       "print(list(DataLoader(sub, batch_size=2)))", "print(sub[-1])"]))
        return
    weights = [g.pick([0.1, 0.5, 1.0, 2.0, 0.0]) for _ in range(n)]
    sampler = g.pick([
        f"WeightedRandomSampler({weights}, {g.r.randint(1, 10)})",
        f"WeightedRandomSampler({weights}, {g.r.randint(1, n)}, replacement=False)",
        f"WeightedRandomSampler(torch.tensor({weights}), 5, generator=torch.Generator()"
        f".manual_seed(3))",
        f"RandomSampler(ds, replacement=True, num_samples={g.r.randint(1, 8)})",
        "RandomSampler(ds)", "SequentialSampler(ds)",
        f"SubsetRandomSampler({list(range(0, n, 2))})",
        f"BatchSampler(SequentialSampler(ds), {g.r.randint(1, 3)}, {g.pick(['True', 'False'])})",
        f"BatchSampler(RandomSampler(ds), 2, False)",
        "RandomSampler(ds, num_samples=3)",
    ])
    g.emit(f"s = {sampler}")
    g.emit(g.pick(["print(list(s))", "print(list(s), list(s))", "print(len(s), list(s))",
                   "print(list(DataLoader(ds, sampler=s, batch_size=2)))",
                   "print(list(DataLoader(ds, batch_sampler=s)) if isinstance(s, BatchSampler) "
                   "else len(s))"]))


def _distributions(g: Gen) -> None:
    g.emit("import torch.distributions as D")
    dists = [
        "D.Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))", "D.Normal(0.0, 1.0)",
        "D.Normal(torch.zeros(2, 3), 2.0)", "D.Categorical(probs=torch.tensor([0.1, 0.2, 0.7]))",
        "D.Categorical(logits=torch.tensor([[0.0, 1.0, -1.0], [2.0, 0.0, 0.0]]))",
        "D.Categorical(torch.tensor([1.0, 1.0, 2.0]))",
        "D.Bernoulli(probs=torch.tensor([0.3, 0.9]))",
        "D.Bernoulli(logits=torch.tensor([0.0, -2.0, 3.0]))", "D.Bernoulli(0.5)",
        "D.Uniform(torch.tensor([0.0, -1.0]), torch.tensor([1.0, 1.0]))", "D.Uniform(2.0, 5.0)",
        "D.MultivariateNormal(torch.zeros(2), torch.eye(2))",
        "D.MultivariateNormal(torch.tensor([1.0, -1.0]), covariance_matrix=torch.tensor([[2.0, "
        "0.5], [0.5, 1.0]]))",
        "D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]]))",
        "D.Normal(torch.tensor([0.0]), torch.tensor([-1.0]))", "D.Categorical(torch.tensor([]))",
        "D.Exponential(torch.tensor([1.0, 2.0]))",
        "D.Beta(torch.tensor([2.0]), torch.tensor([3.0]))",
        "D.Poisson(torch.tensor([3.0]))", "D.Gamma(torch.tensor([2.0]), torch.tensor([1.0]))",
        "D.Laplace(0.0, 1.0)", "D.OneHotCategorical(torch.tensor([0.2, 0.8]))",
        "D.Independent(D.Normal(torch.zeros(2), torch.ones(2)), 1)",
    ]
    g.emit(f"d = {g.pick(dists)}")
    g.emit(g.pick(["print(d)", "print(d.batch_shape, d.event_shape)", "print(d.mean, d.variance)",
                   "print(d.sample())", "print(d.sample((3,)))", "print(d.sample(), d.sample())",
                   "print(d.entropy())", "print(d.log_prob(d.sample()))",
                   "print(d.log_prob(torch.tensor(0.0)))", "print(d.stddev)",
                   "print(d.support)", "print(d.has_rsample)", "print(d.rsample((2,)))",
                   "print(d.log_prob(torch.tensor([1.0, 0.0])))", "print(d.cdf(torch.tensor(0.5)))",
                   "print(d.expand((2, 2)).sample())"]))
    if g.chance(0.4):
        g.emit(g.pick([
            "mu = torch.tensor([0.5, -0.5], requires_grad=True); sd = torch.tensor([1.0, 2.0], "
            "requires_grad=True); x = D.Normal(mu, sd).rsample(); x.sum().backward(); "
            "print(x, mu.grad, sd.grad)",
            "mu = torch.tensor([0.5], requires_grad=True); lp = D.Normal(mu, 1.0).log_prob("
            "torch.tensor([2.0])); lp.backward(); print(lp, mu.grad)",
            "p = torch.tensor([0.2, 0.5], requires_grad=True); e = D.Bernoulli(p).entropy().sum();"
            " e.backward(); print(e, p.grad)",
            "l = torch.tensor([1.0, 0.0, -1.0], requires_grad=True); c = D.Categorical(logits=l);"
            " a = c.sample(); (-c.log_prob(a)).backward(); print(a, l.grad)",
            "lo = torch.tensor([0.0], requires_grad=True); u = D.Uniform(lo, 2.0).rsample((2,)); "
            "u.sum().backward(); print(u, lo.grad)",
            "m = torch.zeros(2, requires_grad=True); v = D.MultivariateNormal(m, torch.eye(2))"
            ".rsample(); v.sum().backward(); print(v, m.grad)",
            "print(D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)))",
            "print(D.kl_divergence(D.Categorical(torch.tensor([0.5, 0.5])), "
            "D.Categorical(torch.tensor([0.9, 0.1]))))",
        ]))


AREAS: dict[str, Callable[[Gen], None]] = {
    "modules": modules, "optim_sched": optim_sched, "math_special": math_special,
    "linalg": linalg, "data": data,
}
