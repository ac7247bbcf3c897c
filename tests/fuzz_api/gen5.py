"""A fifth set of the differential fuzzer's areas: what whole real programs do that the other
generators, one operation at a time, leave out. Tiny training loops after a seed (a model, a
loss, an optimizer with options, a scheduler, clipping, zero_grad, train/eval; the loss, a
parameter and the lr printed each step, so float32 accumulation orders over whole loops
show), recurrent layers and attention (RNN/LSTM/GRU with packing, cells, MultiheadAttention,
Transformer layers), float16/bfloat16 programs and CPU autocast regions, and the mistakes
beginners make and print the error of (with the state those leave). Each area is a function
of a `gen.Gen`; they run only when named (`--only training,...` or `--only gen5`), so older
seeds' batches stay the same cases.
"""

from __future__ import annotations

from collections.abc import Callable

from gen import Gen
from gen3 import _small, block

_TRY = "try:\n    {stmt}\nexcept Exception as e:\n    print(type(e).__name__, e)"
_WARN = ("with warnings.catch_warnings(record=True) as ws:\n    warnings.simplefilter('always')"
         "\n    {stmt}\nfor wm in ws: print(wm.category.__name__, "
         "str(wm.message).split(' (Triggered internally')[0])")


def _indent(text: str) -> str:
    """Rows after the first one level deeper. A case's line has its first row indented by the
    runner while the others carry their own four spaces: a statement's rows written for the
    case body are, inside a template, already one level in."""
    return text.replace("\n", "\n    ")


def _try(g: Gen, stmt: str, warn: bool = False) -> None:
    """`stmt` (rows written for the case body) in its own try block, so that the case goes on
    after its error; `warn`: inside a block that records warnings and prints them after."""
    block = _TRY.format(stmt=stmt)
    if warn:
        g.emit("import warnings")
        block = _WARN.format(stmt=_indent(block))
    g.emit(_indent(block))


# -- training --------------------------------------------------------------------------------

def _model(g: Gen) -> tuple[str, str, int]:
    """A model of 1-3 layers over an input (`x`'s constructor), and its output width."""
    c = g.r.randint(2, 3)
    act = g.pick(["nn.ReLU()", "nn.Tanh()", "nn.GELU()", "nn.Sigmoid()", "nn.LeakyReLU(0.1)",
                  "nn.ELU()", "nn.SiLU()"])
    drop = g.pick(["", f"nn.Dropout({g.pick([0.1, 0.5])}), "])
    kind = g.pick(["vec", "vec", "seq", "img", "tok"])
    n = g.r.randint(2, 5)
    if kind == "vec":
        h = g.r.randint(2, 5)
        norm = g.pick(["", "", f"nn.BatchNorm1d({h}), ", f"nn.LayerNorm({h}), "])
        body = g.pick([f"nn.Linear(4, {c})",
                       f"nn.Linear(4, {h}), {norm}{act}, {drop}nn.Linear({h}, {c})",
                       f"nn.Linear(4, {h}), {act}, nn.Linear({h}, {h}), {act}, "
                       f"nn.Linear({h}, {c})"])
        return body, f"torch.randn({n}, 4)", c
    if kind == "seq":
        k = g.pick([1, 2, 3])
        pad = g.pick([0, 1]) if k > 1 else 0
        length = 5 - k + 1 + 2 * pad
        norm = g.pick(["", "nn.BatchNorm1d(3), "])
        return (f"nn.Conv1d(2, 3, {k}, padding={pad}), {norm}{act}, {drop}nn.Flatten(), "
                f"nn.Linear({3 * length}, {c})"), f"torch.randn({n}, 2, 5)", c
    if kind == "img":
        pool = g.chance(0.5)
        side = 2 if pool else 4
        norm = g.pick(["", "nn.BatchNorm2d(2), "])
        return (f"nn.Conv2d(1, 2, 3, padding=1), {norm}{act}, "
                + ("nn.MaxPool2d(2), " if pool else "")
                + f"nn.Flatten(), {drop}nn.Linear({2 * side * side}, {c})"), \
            f"torch.randn({n}, 1, 4, 4)", c
    return (f"nn.Embedding(6, 3{g.pick(['', ', padding_idx=0'])}), nn.Flatten(), {act}, "
            f"nn.Linear(9, {c})"), f"torch.randint(0, 6, ({n}, 3))", c


def _loss(g: Gen, c: int) -> tuple[str, str, str]:
    """(criterion, target's constructor, a last layer the loss needs)."""
    kind = g.pick(["mse", "ce", "ce", "bce", "nll", "l1", "huber"])
    red = g.pick(["", "", "reduction='sum'", "reduction='mean'"])
    if kind == "mse":
        return f"nn.MSELoss({red})", f"torch.randn(x.shape[0], {c})", ""
    if kind == "l1":
        return f"nn.L1Loss({red})", f"torch.randn(x.shape[0], {c})", ""
    if kind == "huber":
        return (g.pick([f"nn.HuberLoss(delta={g.pick([0.5, 1.0])})", "nn.SmoothL1Loss(beta=0.5)"]),
                f"torch.randn(x.shape[0], {c})", "")
    if kind == "bce":
        opts = g.pick(["", f"pos_weight=torch.tensor({_small(g, (c,), 1, 4)})", red])
        return (f"nn.BCEWithLogitsLoss({opts})",
                g.pick([f"torch.randint(0, 2, (x.shape[0], {c})).float()",
                        f"torch.rand(x.shape[0], {c})"]), "")
    if kind == "nll":
        return f"nn.NLLLoss({red})", f"torch.randint(0, {c}, (x.shape[0],))", \
            ", nn.LogSoftmax(dim=1)"
    opts = g.pick(["", f"label_smoothing={g.pick([0.1, 0.2])}",
                   f"weight=torch.tensor({_small(g, (c,), 1, 4)})",
                   f"weight=torch.tensor({_small(g, (c,), 1, 4)}), label_smoothing=0.1", red])
    target = g.pick([f"torch.randint(0, {c}, (x.shape[0],))"] * 3
                    + [f"torch.softmax(torch.randn(x.shape[0], {c}), 1)"])
    return f"nn.CrossEntropyLoss({opts})", target, ""


def _optimizer(g: Gen, steps: int) -> str:
    fe = g.pick(["", "", ", foreach=False", ", foreach=True"])
    wd = g.pick(["", "", ", weight_decay=0.01", ", weight_decay=0.1"])
    mx = g.pick(["", "", "", ", maximize=True"])
    return g.pick([
        f"SGD(model.parameters(), lr={g.pick([0.1, 0.05, 0.01])}{wd}{mx}{fe})",
        f"SGD(model.parameters(), lr=0.1, momentum={g.pick([0.5, 0.9])}{wd}{fe})",
        f"SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True{wd}{mx}{fe})",
        f"SGD(model.parameters(), lr=0.1, momentum=0.9, dampening=0.1{fe})",
        f"Adam(model.parameters(), lr={g.pick([0.01, 1e-3, 0.1])}{wd}{mx}{fe})",
        f"Adam(model.parameters(), lr=0.01, amsgrad=True{wd}{fe})",
        f"Adam(model.parameters(), lr=0.01, betas=(0.8, 0.99), eps=1e-6{fe})",
        f"AdamW(model.parameters(), lr=0.01{wd}{mx}{fe})",
        f"AdamW(model.parameters(), lr=0.01, amsgrad=True{fe})",
        f"RMSprop(model.parameters(), lr=0.01{g.pick(['', ', momentum=0.9', ', centered=True'])}"
        f"{wd}{fe})",
        f"Adagrad(model.parameters(), lr=0.1{wd}{fe})",
        f"Adamax(model.parameters(), lr=0.02{wd}{fe})",
        f"NAdam(model.parameters(), lr=0.01{wd}{fe})",
        f"RAdam(model.parameters(), lr=0.01{wd}{fe})",
        f"Adadelta(model.parameters(), lr=1.0{wd}{fe})",
        f"SGD([{{'params': list(model.parameters())[:1], 'lr': 0.05}}, "
        f"{{'params': list(model.parameters())[1:]}}], lr=0.1, momentum=0.9{fe})",
    ])


def _scheduler(g: Gen, steps: int) -> str:
    return g.pick([
        "", "", f"StepLR(opt, step_size={g.r.randint(1, 3)}, gamma={g.pick([0.5, 0.1])})",
        f"CosineAnnealingLR(opt, T_max={steps}{g.pick(['', ', eta_min=0.001'])})",
        f"OneCycleLR(opt, max_lr=0.1, total_steps={steps + g.r.randint(0, 2)}"
        f"{g.pick(['', ', anneal_strategy=' + repr('linear')])})",
        "LambdaLR(opt, lambda e: 0.9 ** e)", "LambdaLR(opt, lambda e: 1 / (e + 1))",
        f"ReduceLROnPlateau(opt, patience={g.r.randint(0, 1)}, factor=0.5)",
        "ExponentialLR(opt, gamma=0.9)", "MultiStepLR(opt, milestones=[1, 3], gamma=0.5)",
        f"SequentialLR(opt, [LinearLR(opt, start_factor=0.1, total_iters=2), "
        f"CosineAnnealingLR(opt, T_max={steps})], milestones=[2])",
        "LinearLR(opt, start_factor=0.25, total_iters=3)",
    ])


_NORM_TYPES = ["float('inf')", "1", "2.0"]


_SEQ_MODEL = '''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(7, 3{pad})
        self.rnn = nn.{rnn}(3, 4, batch_first=True{bi})
        self.fc = nn.Linear({width}, {c})
    def forward(self, x):
        out, _ = self.rnn(self.emb(x))
        return self.fc({pool})
'''


def _custom_training(g: Gen) -> None:
    """A sequence classifier (Embedding, RNN, Linear) or an MLP with initialised weights,
    trained with gradient accumulation, checkpointed through state_dict, evaluated."""
    c = g.r.randint(2, 3)
    if g.chance(0.5):
        bi = g.chance(0.4)
        block(g, _SEQ_MODEL.format(pad=g.pick(["", ", padding_idx=0"]),
                                   rnn=g.pick(["RNN", "LSTM", "GRU"]),
                                   bi=", bidirectional=True" if bi else "",
                                   width=8 if bi else 4, c=c,
                                   pool=g.pick(["out[:, -1]", "out.mean(1)", "out.amax(1)"])))
        g.emit("model = Net()")
        g.emit(f"x = torch.randint(0, 7, ({g.r.randint(2, 4)}, {g.r.randint(2, 5)}))")
    else:
        g.emit(f"model = nn.Sequential(nn.Linear(4, 5), nn.{g.pick(['ReLU', 'Tanh', 'GELU'])}(), "
               f"nn.Linear(5, {c}))")
        init = g.pick(["nn.init.xavier_uniform_(m.weight)", "nn.init.kaiming_normal_(m.weight)",
                       "nn.init.normal_(m.weight, 0, 0.1)", "nn.init.orthogonal_(m.weight)",
                       "nn.init.kaiming_uniform_(m.weight, nonlinearity='relu')",
                       "nn.init.trunc_normal_(m.weight, std=0.2)"])
        zero = g.pick(["nn.init.zeros_(m.bias)", "nn.init.constant_(m.bias, 0.1)"])
        g.emit(f"for m in model.modules():\n        if isinstance(m, nn.Linear):\n"
               f"            {init}\n            {zero}")
        g.emit(f"x = torch.randn({g.r.randint(2, 6)}, 4)")
    g.emit(f"y = torch.randint(0, {c}, (x.shape[0],))")
    g.emit(f"crit = nn.CrossEntropyLoss({g.pick(['', 'label_smoothing=0.1'])})")
    g.emit(f"opt = {_optimizer(g, 4)}")
    accum = g.r.randint(1, 2)
    g.emit("best = float('inf')")
    g.emit(f"for step in range({g.r.randint(3, 6)}):\n"
           f"        model.train()\n        loss = crit(model(x), y) / {accum}\n"
           f"        loss.backward()\n        if (step + 1) % {accum} == 0:\n"
           f"            opt.step()\n            opt.zero_grad()\n"
           f"        if loss.item() < best:\n            best = loss.item()\n"
           f"            snapshot = copy.deepcopy(model.state_dict())\n"
           f"        print(step, loss.item(), sum(p.grad.abs().sum().item() for p in "
           f"model.parameters() if p.grad is not None))")
    g.emit(g.pick([
        "model.load_state_dict(snapshot); model.eval()\n    with torch.no_grad():\n"
        "        pred = model(x).argmax(1)\n    print(best, (pred == y).sum().item(), pred)",
        "buf = io.BytesIO(); torch.save(model.state_dict(), buf); buf.seek(0)\n"
        "    state = torch.load(buf); print(sorted(state), list(state.values())[0].dtype)",
        "print(sum(p.numel() for p in model.parameters() if p.requires_grad), best)",
        "print([(n, tuple(p.shape)) for n, p in model.named_parameters()])",
        "model.eval()\n    print(torch.softmax(model(x), dim=1).sum(1), model(x).argmax(dim=1))",
    ]))


def training(g: Gen) -> None:
    """A whole tiny training loop after the case's seed."""
    g.emit("import torch.nn as nn")
    if g.chance(0.3):
        g.emit("from torch.optim import *")
        g.emit("import copy, io")
        _custom_training(g)
        return
    g.emit("from torch.optim import *")
    g.emit("from torch.optim.lr_scheduler import *")
    body, x, c = _model(g)
    crit, target, last = _loss(g, c)
    g.emit(f"model = nn.Sequential({body}{last})")
    g.emit(f"x = {x}")
    g.emit(f"y = {target}")
    g.emit(f"crit = {crit}")
    steps = g.r.randint(3, 8)
    opt = _optimizer(g, steps)
    g.emit(f"opt = {opt}")
    sched = _scheduler(g, steps)
    if "OneCycleLR" in sched and not any(k in opt for k in ("momentum", "Adam(", "AdamW(")):
        sched = sched[:-1] + ", cycle_momentum=False)"
    if sched:
        g.emit(f"sched = {sched}")
    clip = g.pick(["", "", "", f"print(round(nn.utils.clip_grad_norm_(model.parameters(), "
                   f"{g.pick([0.5, 1.0])}).item(), 5))",
                   f"print(nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type="
                   f"{g.pick(_NORM_TYPES)}).item())",
                   f"nn.utils.clip_grad_value_(model.parameters(), {g.pick([0.1, 0.5])})"])
    zero = g.pick(["opt.zero_grad()", "opt.zero_grad(set_to_none=False)",
                   "model.zero_grad()", "opt.zero_grad(set_to_none=True)"])
    batches = g.chance(0.25)
    show = g.pick(["model[0].weight.view(-1)[:3].tolist()",
                   "list(model.parameters())[-1].tolist()",
                   "model[0].weight.grad.view(-1)[:2].tolist() if model[0].weight.grad is not "
                   "None else None"])
    lr = "opt.param_groups[0]['lr']"
    plateau = "ReduceLROnPlateau" in sched
    step_sched = ("\n        sched.step(loss.item())" if plateau
                  else "\n        sched.step()" if sched else "")
    inner = (f"{zero}\n        out = model(xb)\n        loss = crit(out, yb)\n"
             f"        loss.backward()" + (f"\n        {clip}" if clip else "")
             + "\n        opt.step()")
    if batches:
        g.emit("loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), "
               f"batch_size=2, shuffle={g.pick(['True', 'False'])})")
        inner = inner.replace("\n        ", "\n            ")
        g.emit(f"for epoch in range({max(steps // 2, 2)}):\n        model.train()\n"
               f"        total = 0.0\n        for xb, yb in loader:\n            {inner}\n"
               f"            total += loss.item() * len(xb)"
               f"{step_sched.replace(chr(10) + '        ', chr(10) + '        ')}\n"
               f"        print(epoch, total, {show}, {lr})")
    else:
        eval_switch = g.pick(["", "", "\n        model.eval()\n        with torch.no_grad(): "
                              "print('eval', crit(model(x), y).item())"])
        g.emit("xb, yb = x, y")
        g.emit(f"for step in range({steps}):\n        model.train()\n"
               f"        {inner}{step_sched}\n        print(step, loss.item(), {show}, {lr})"
               f"{eval_switch}")
    g.emit(g.pick([
        "model.eval()\n    with torch.no_grad(): print(model(x))",
        "model.eval()\n    print(model(x).argmax(1), (model(x).argmax(1) == y).float().mean()"
        ".item() if y.dtype == torch.int64 else None)",
        "print({k: v.shape for k, v in model.state_dict().items()})",
        "print(opt.state_dict()['param_groups'][0]['lr'], len(opt.state))",
        "print([p.grad is None for p in model.parameters()])",
        "print(model)",
        "print(sched.get_last_lr() if 'sched' in dir() else None)",
    ]))


# -- recurrent layers and attention ------------------------------------------------------------

def _rnn(g: Gen) -> None:
    kind = g.pick(["RNN", "LSTM", "GRU"])
    layers, bi, bf = g.r.randint(1, 2), g.chance(0.4), g.chance(0.5)
    hid = g.r.randint(2, 4)
    proj = g.r.randint(1, hid - 1) if kind == "LSTM" and hid > 1 and g.chance(0.25) else 0
    opts = f"num_layers={layers}" + (", bidirectional=True" if bi else "") + \
        (", batch_first=True" if bf else "") + (f", proj_size={proj}" if proj else "") + \
        g.pick(["", "", ", bias=False", ", dropout=0.0"]) + \
        (g.pick(["", ", nonlinearity='relu'"]) if kind == "RNN" else "")
    g.emit(f"m = torch.nn.{kind}(3, {hid}, {opts})")
    seq, batch = g.r.randint(1, 4), g.r.randint(1, 3)
    d = 2 if bi else 1
    hout = proj or hid
    mode = g.pick(["plain", "plain", "unbatched", "packed", "packed"])
    if mode == "unbatched":
        g.emit(f"x = torch.randn({seq}, 3, requires_grad=True)")
        hshape, cshape = (layers * d, hout), (layers * d, hid)
    else:
        shape = (batch, seq, 3) if bf else (seq, batch, 3)
        g.emit(f"x = torch.randn{shape}.requires_grad_()")
        hshape, cshape = (layers * d, batch, hout), (layers * d, batch, hid)
    state = ""
    if g.chance(0.4):
        g.emit(f"h0 = torch.randn{hshape}")
        if kind == "LSTM":
            g.emit(f"c0 = torch.randn{cshape}")
        state = ", (h0, c0)" if kind == "LSTM" else ", h0"
        if g.chance(0.1):
            g.emit(f"h0 = torch.randn{hshape[:-1] + (hout + 1,)}")
    if mode == "packed" and seq > 1:
        sorted_ = g.chance(0.5)
        lengths = sorted((g.r.randint(1, seq) for _ in range(batch)), reverse=sorted_)
        if sorted_:
            lengths[0] = seq
        elif seq not in lengths:
            lengths[g.r.randrange(batch)] = seq
        enforce = "True" if sorted_ and g.chance(0.7) else "False"
        g.emit("from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence")
        g.emit(f"p = pack_padded_sequence(x, {g.pick([str(lengths), f'torch.tensor({lengths})'])}"
               f", batch_first={bf}, enforce_sorted={enforce})")
        g.emit("print(p.data.shape, p.batch_sizes, p.sorted_indices, p.unsorted_indices)")
        g.emit(f"out, h = m(p{state})")
        g.emit(f"out, lens = pad_packed_sequence(out, batch_first={bf}"
               + g.pick(["", ", padding_value=-1.0", f", total_length={seq + 1}"]) + ")")
        g.emit("print(out, lens)")
    else:
        g.emit(f"out, h = m(x{state})")
        g.emit("print(out)")
    g.emit("print(h)")
    g.emit(g.pick(["out.sum().backward()", "(out ** 2).mean().backward()",
                   "(h[0] if isinstance(h, tuple) else h).sum().backward()"]))
    g.emit(g.pick(["print(x.grad)", "print(m.weight_ih_l0.grad, m.weight_hh_l0.grad)",
                   "print([n for n, _ in m.named_parameters()])",
                   "print(m.bias_hh_l0.grad if m.bias else None, x.grad.sum())"]))


def _cells(g: Gen) -> None:
    kind = g.pick(["RNNCell", "LSTMCell", "GRUCell"])
    hid = g.r.randint(2, 4)
    g.emit(f"cell = torch.nn.{kind}(3, {hid}{g.pick(['', ', bias=False'])})")
    batch = g.pick([None, 1, 2, 3])
    seq = g.r.randint(1, 4)
    shape = (seq, 3) if batch is None else (seq, batch, 3)
    g.emit(f"xs = torch.randn{shape}.requires_grad_()")
    hs = (hid,) if batch is None else (batch, hid)
    init = g.chance(0.6)
    if kind == "LSTMCell":
        g.emit(f"h, c = torch.zeros{hs}, torch.randn{hs}" if init else "state = None")
        g.emit("outs = []")
        g.emit("for t in range(xs.shape[0]):\n        "
               + ("h, c = cell(xs[t], (h, c))" if init else
                  "state = cell(xs[t], state) if state is not None else cell(xs[t])\n"
                  "        h, c = state") + "\n        outs.append(h)")
    else:
        g.emit(f"h = torch.randn{hs}" if init else "h = None")
        g.emit("outs = []")
        g.emit("for t in range(xs.shape[0]):\n        h = cell(xs[t], h)\n"
               "        outs.append(h)")
    g.emit("r = torch.stack(outs)")
    g.emit("print(r)")
    g.emit("r.sum().backward()")
    g.emit("print(xs.grad, cell.weight_hh.grad)")


def _mha(g: Gen) -> None:
    e, heads = g.pick([(4, 2), (4, 1), (6, 3), (4, 4)])
    kv = g.chance(0.3)
    bf = g.chance(0.5)
    opts = (", batch_first=True" if bf else "") + (", kdim=3, vdim=5" if kv else "") + \
        g.pick(["", "", ", bias=False", ", add_bias_kv=True", ", add_zero_attn=True"])
    g.emit(f"mha = torch.nn.MultiheadAttention({e}, {heads}{opts})")
    if g.chance(0.3):
        g.emit("mha.eval()")
    n, lq, s = g.r.randint(1, 2), g.r.randint(1, 3), g.r.randint(1, 4)
    unb = g.chance(0.15)

    def shape(length: int, width: int) -> tuple[int, ...]:
        if unb:
            return (length, width)
        return (n, length, width) if bf else (length, n, width)
    self_attn = not kv and g.chance(0.4)
    g.emit(f"q = torch.randn{shape(lq, e)}.requires_grad_()")
    if self_attn:
        g.emit("k = v = q")
        s = lq
    else:
        g.emit(f"k = torch.randn{shape(s, 3 if kv else e)}")
        g.emit(f"v = torch.randn{shape(s, 5 if kv else e)}")
    args = ""
    if g.chance(0.4) and not unb:
        pad = [[g.chance(0.3) for _ in range(s)] for _ in range(n)]
        for row in pad:
            row[0] = False
        args += f", key_padding_mask=torch.tensor({pad})"
        if g.chance(0.2):
            args = args.replace("])", "]).float() * -1e9")
    if g.chance(0.4):
        m = g.pick(["bool", "float", "causal", "3d"])
        if m == "bool":
            bm = [[g.chance(0.3) and j > 0 for j in range(s)] for _ in range(lq)]
            args += f", attn_mask=torch.tensor({bm})"
        elif m == "float":
            args += f", attn_mask=torch.tensor({_small(g, (lq, s))})"
        elif m == "causal" and lq == s:
            args += f", attn_mask=torch.nn.Transformer.generate_square_subsequent_mask({s})"
            if g.chance(0.5):
                args += ", is_causal=True"
        else:
            args += f", attn_mask=torch.zeros({(1 if unb else n) * heads}, {lq}, {s})"
    args += g.pick(["", "", ", need_weights=False", ", average_attn_weights=False"])
    g.emit(f"out, w = mha(q, k, v{args})")
    g.emit("print(out, w)")
    g.emit("out.sum().backward()")
    g.emit(g.pick(["print(q.grad)", "print(mha.out_proj.weight.grad)",
                   "print(mha.in_proj_weight.grad if mha.in_proj_weight is not None else "
                   "mha.q_proj_weight.grad)", "print([n for n, _ in mha.named_parameters()])"]))


def _transformer(g: Gen) -> None:
    bf = g.chance(0.5)
    common = (f"dim_feedforward={g.pick([8, 6])}, dropout={g.pick(['0.0', '0.0', '0.1'])}"
              + (", batch_first=True" if bf else "")
              + g.pick(["", ", norm_first=True"])
              + g.pick(["", ", activation='gelu'", ", activation=torch.nn.functional.gelu"]))
    n, s, t = g.r.randint(1, 2), g.r.randint(1, 3), g.r.randint(1, 3)
    src = (n, s, 4) if bf else (s, n, 4)
    tgt = (n, t, 4) if bf else (t, n, 4)
    kind = g.pick(["enc", "enc", "dec", "full", "stack"])
    g.emit(f"src = torch.randn{src}.requires_grad_()")
    if kind in ("enc", "stack"):
        g.emit(f"layer = torch.nn.TransformerEncoderLayer(4, 2, {common})")
        mod = "layer"
        if kind == "stack":
            g.emit(f"enc = torch.nn.TransformerEncoder(layer, 2"
                   f"{g.pick(['', ', enable_nested_tensor=False'])}"
                   f"{g.pick(['', ', norm=torch.nn.LayerNorm(4)'])})")
            mod = "enc"
        if g.chance(0.4):
            g.emit(f"{mod}.eval()")
        args = g.pick(["", "", f", src_mask=torch.nn.Transformer.generate_square_subsequent_mask"
                       f"({s})", f", src_mask=torch.nn.Transformer.generate_square_subsequent_"
                       f"mask({s}), is_causal=True",
                       f", src_key_padding_mask=torch.tensor({[[False] + [True] * (s - 1)] * n})"])
        if mod == "enc":
            args = args.replace("src_mask", "mask")
        g.emit(f"out = {mod}(src{args})")
        params = f"{mod}"
    elif kind == "dec":
        g.emit(f"layer = torch.nn.TransformerDecoderLayer(4, 2, {common})")
        g.emit(f"tgt = torch.randn{tgt}")
        args = g.pick(["", f", tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask({t})",
                       f", tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask({t}), "
                       "tgt_is_causal=True",
                       f", memory_key_padding_mask=torch.tensor({[[False] * s] * n})"])
        g.emit(f"out = layer(tgt, src{args})")
        params = "layer"
    else:
        g.emit(f"tr = torch.nn.Transformer(4, 2, 1, 1, {common})")
        g.emit(f"tgt = torch.randn{tgt}")
        g.emit(f"out = tr(src, tgt, tgt_mask=tr.generate_square_subsequent_mask({t}))")
        params = "tr"
    g.emit("print(out)")
    g.emit("out.sum().backward()")
    g.emit(g.pick(["print(src.grad)",
                   f"print([(n, p.grad.shape if p.grad is not None else None) for n, p in "
                   f"{params}.named_parameters()][:4])",
                   f"print(next({params}.parameters()).grad)"]))


def recurrent_attention(g: Gen) -> None:
    """RNN/LSTM/GRU (packed or not), cells, MultiheadAttention and Transformer layers: outputs,
    weights and gradients after a seed."""
    g.pick([_rnn, _rnn, _cells, _mha, _mha, _transformer, _transformer])(g)


# -- float16 / bfloat16 ------------------------------------------------------------------------

_HALF_UNARY = ["x + y", "x * 2.5", "x / 3", "x - y * 0.1", "x.exp()", "(x.abs() + 1).log()",
               "x.abs().sqrt()", "x.sin()", "x.tanh()", "x.sigmoid()", "x.relu()",
               "torch.nn.functional.gelu(x)", "x ** 2", "x.reciprocal()", "x.abs().rsqrt()",
               "x.clamp(-0.5, 0.5)", "torch.where(x > 0, x, y)", "x.round()", "x.floor()",
               "x.erf()", "torch.nn.functional.silu(x)", "x.softmax(-1)", "x.log_softmax(-1)",
               "x.softmax(0, dtype=torch.float32)", "x.sum()", "x.mean()", "x.var()", "x.std(0)",
               "x.norm()", "x.prod()", "x.cumsum(-1)", "x.cumprod(0)", "x.max()", "x.argmax()",
               "x.sum(0, dtype=torch.float32)", "x.mean(-1, keepdim=True)", "x.amax(0)",
               "x.float()", "x.to(torch.int32)", "x.long()", "x.double()", "x.bool()",
               "x.to(torch.float16 if x.dtype == torch.bfloat16 else torch.bfloat16)",
               "x + torch.ones(x.shape[-1])", "x * torch.tensor(3.0)", "x + 1e-4", "x * 1000",
               "x.half().float() - x.float()", "torch.isclose(x, y)", "x == y", "x.sort()[0]",
               "x.topk(1)[0]", "torch.nn.functional.layer_norm(x, x.shape[-1:])",
               "torch.nn.functional.normalize(x, dim=-1)", "x.logsumexp(-1)", "x.lerp(y, 0.3)",
               "torch.addcmul(x, x, y, value=0.5)", "x.item() if x.numel() == 1 else x.tolist()",
               "x.tolist()", "x.exp().sum(-1)", "torch.linalg.vector_norm(x, ord=1)"]
_HALF_MM = ["x @ y.T", "torch.mm(x, y.T)", "torch.matmul(x, y.T)",
            "torch.nn.functional.linear(x, y)", "torch.nn.functional.linear(x, y, y[:, 0])",
            "torch.bmm(x.unsqueeze(0), y.T.unsqueeze(0))", "torch.addmm(x[:, :1], x, y.T)",
            "x @ x.T", "torch.einsum('ij,kj->ik', x, y)", "x.T @ y"]


def half_ops(g: Gen) -> None:
    """Programs in float16 and bfloat16 (elementwise math, products, reductions, conversions,
    printing) and torch.autocast(device_type='cpu') regions."""
    dt = g.pick(["torch.float16", "torch.bfloat16"])
    rows, cols = g.r.randint(1, 4), g.r.randint(1, 5)
    if g.chance(0.35):
        _autocast(g, dt)
        return
    if g.chance(0.25):
        _half_model(g, dt)
        return
    make = g.pick([f"torch.randn({rows}, {cols})", f"torch.randn({rows}, {cols}) * 100",
                   f"torch.tensor({_small(g, (rows, cols), -9, 9, 4)})",
                   f"torch.linspace(-3, 3, {rows * cols}).reshape({rows}, {cols})"])
    if g.chance(0.6):
        g.emit(f"x = ({make}).to({dt})")
    elif make.startswith("torch.randn"):
        g.emit("x = " + make.replace(")", f", dtype={dt})", 1))
    else:
        g.emit(f"x = {make}.to({dt})")
    g.emit(f"y = torch.randn({rows}, {cols}).to({dt})")
    grad = g.chance(0.3)
    if grad:
        g.emit("x.requires_grad_()")
    for _ in range(g.r.randint(1, 3)):
        expr = g.pick(_HALF_MM) if g.chance(0.3) else g.pick(_HALF_UNARY)
        if grad and any(s in expr for s in ("tolist", "item", "long", "int32", "bool", "==",
                                            "isclose", "argmax")):
            expr = "x.detach().tolist()"
        g.emit(f"r = {expr}")
        g.emit(g.pick(["print(r)", "print(r, r.dtype if isinstance(r, torch.Tensor) else "
                       "type(r))", "print(repr(r))",
                       "print(r.float() if isinstance(r, torch.Tensor) else r)",
                       "print(r.tolist() if isinstance(r, torch.Tensor) else r)"]))
    if grad:
        g.emit("s = r if isinstance(r, torch.Tensor) and r.requires_grad else x.sum()")
        g.emit("(s.float() * torch.arange(1.0, s.numel() + 1).reshape(s.shape)).sum().backward()")
        g.emit("print(x.grad, x.grad.dtype)")
    if g.chance(0.3):
        g.emit(g.pick([f"print(torch.tensor(70000.0).to({dt}), torch.tensor(1e-8).to({dt}))",
                       f"print(torch.finfo({dt}))", f"print(torch.tensor([1/3, 2/3], dtype={dt}))",
                       f"torch.set_printoptions(precision=8); print(x)",
                       f"print(x.sum().item(), x.float().sum().item())",
                       f"print(torch.arange(0, 300, 37, dtype={dt}))",
                       f"print(torch.full((2,), 2049.0, dtype={dt}) + 1)"]))


_HALF_OPTIMIZERS = ["SGD(m.parameters(), lr=0.1)", "Adam(m.parameters(), lr=0.01)",
                    "SGD(m.parameters(), lr=0.1, momentum=0.9)", "AdamW(m.parameters(), lr=0.01)"]


def _half_model(g: Gen, dt: str) -> None:
    """Layers moved to float16/bfloat16 (model.half(), .to(dtype)), forward and backward, an
    optimizer step on reduced-precision parameters."""
    layer, x = g.pick([("torch.nn.Linear(4, 3)", "torch.randn(2, 4)"),
                       ("torch.nn.Conv1d(2, 3, 3, padding=1)", "torch.randn(2, 2, 5)"),
                       ("torch.nn.Conv2d(1, 2, 3)", "torch.randn(1, 1, 4, 4)"),
                       ("torch.nn.LayerNorm(4)", "torch.randn(3, 4)"),
                       ("torch.nn.Embedding(5, 3)", "torch.tensor([[0, 4, 2]])"),
                       ("torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.GELU(), "
                        "torch.nn.Linear(4, 2))", "torch.randn(3, 4)"),
                       ("torch.nn.BatchNorm1d(4)", "torch.randn(3, 4)"),
                       ("torch.nn.GroupNorm(2, 4)", "torch.randn(2, 4, 3)")])
    move = g.pick([f".to({dt})", ".half()" if dt == "torch.float16" else ".bfloat16()"])
    g.emit(f"m = {layer}{move}")
    g.emit(f"x = {x}")
    g.emit(f"x = x.to({dt}) if x.is_floating_point() else x")
    g.emit("out = m(x)")
    g.emit("print(out, out.dtype)")
    g.emit(g.pick(["loss = out.float().pow(2).mean()", "loss = out.sum()",
                   "loss = torch.nn.functional.mse_loss(out, torch.zeros_like(out))",
                   "loss = out.logsumexp(-1).mean()"]))
    g.emit("loss.backward()")
    g.emit("print(loss, [(n, p.grad.dtype, p.grad.view(-1)[:3].tolist()) for n, p in "
           "m.named_parameters()])")
    if g.chance(0.5):
        g.emit(f"opt = torch.optim.{g.pick(_HALF_OPTIMIZERS)}")
        g.emit("opt.step()")
        g.emit("print([p.view(-1)[:3].tolist() for p in m.parameters()])")


def _autocast(g: Gen, dt: str) -> None:
    g.emit("import torch.nn.functional as F")
    g.emit("lin = torch.nn.Linear(4, 3)")
    g.emit("x = torch.randn(2, 4, requires_grad=True)")
    g.emit("w = torch.randn(4, 3)")
    arg = g.pick(["", f", dtype={dt}", ", enabled=False"])
    ops = g.r.sample(["a = lin(x)", "a = x @ w", "a = torch.mm(x, w)", "a = torch.bmm(x[None], "
                      "w[None])", "a = F.linear(x, w.T)", "a = lin(x).softmax(-1)",
                      "a = lin(x).relu()", "a = (x @ w).sum()", "a = F.mse_loss(x @ w, "
                      "torch.zeros(2, 3))", "a = torch.addmm(torch.zeros(3), x, w)",
                      "a = F.conv1d(x.T[None], w.T[:, :, None])", "a = x.exp()",
                      "a = lin(x) + x[:, :3]", "a = torch.cat([lin(x), x[:, :3]])",
                      "a = F.layer_norm(lin(x), (3,))", "a = lin(x).float()",
                      "a = torch.baddbmm(torch.zeros(1, 2, 3), x[None], w[None])",
                      "a = lin(x.double())", "a = F.cross_entropy(lin(x), torch.tensor([0, 2]))"],
                     g.r.randint(1, 3))
    rows = "\n        ".join(op + "\n        print(a.dtype, a)" for op in ops)
    g.emit(f"with torch.autocast(device_type='cpu'{arg}):\n        {rows}\n"
           "        print(torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu'))")
    g.emit("print(torch.is_autocast_enabled('cpu'))")
    g.emit("a.float().sum().backward()")
    g.emit(g.pick(["print(x.grad, x.grad.dtype)",
                   "print(lin.weight.grad, lin.weight.grad.dtype if lin.weight.grad is not None "
                   "else None)", "print(a.grad_fn.name(), a.dtype)"]))


# -- beginners' mistakes -----------------------------------------------------------------------

_MORE_MISTAKES = [
    "print(torch.tensor([1, 2, 3]).mean())",
    "print(torch.tensor([1, 2, 3]).float().mean(), torch.tensor([1, 2, 3]).sum() / 3)",
    "x = torch.ones(2, 3)\n    print(x.to('cuda'))",
    "print(torch.cuda.is_available(), torch.device('cuda' if torch.cuda.is_available() else "
    "'cpu'))",
    "print(torch.ones(2).cuda())",
    "import numpy as np\n    print(torch.nn.Linear(2, 1)(torch.from_numpy(np.array([[1.0, "
    "2.0]]))))",
    "import numpy as np\n    print(torch.tensor(np.array([0.5, 1.5])).dtype, "
    "torch.tensor([0.5, 1.5]).dtype)",
    "m = torch.nn.Linear(2, 2)\n    print(m.load_state_dict({'weight': torch.ones(2, 2)}))",
    "m = torch.nn.Linear(2, 2)\n    print(m.load_state_dict({'weight': torch.ones(2, 2)}, "
    "strict=False))",
    "m = torch.nn.Linear(2, 2)\n    m.load_state_dict({'weight': torch.ones(3, 2), "
    "'bias': torch.ones(2), 'extra': torch.ones(1)})",
    "torch.optim.SGD(torch.nn.Linear(2, 2).parameters, lr=0.1)",
    "print(torch.nn.Softmax()(torch.tensor([[1.0, 2.0]])))",
    "print(torch.nn.functional.log_softmax(torch.tensor([[1.0, 2.0], [0.5, 0.0]])))",
    "v, i = torch.max(torch.tensor([[1.0, 5.0], [3.0, 2.0]]), 1)\n    print(v, i, "
    "torch.max(torch.tensor([[1.0, 5.0]]), dim=1))",
    "print(torch.randn(6).view(-1, 4))",
    "print(torch.zeros(2, 3).reshape(4, -1))",
    "print(torch.tensor([[1, 2], [3]]))",
    "print(torch.tensor([True, False]).sum(), torch.tensor([True, False]).float().mean())",
    "print(torch.ones(3) == None, torch.ones(3) is None)",
    "print(torch.nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor([[0], [2]])))",
    "print(torch.nn.functional.nll_loss(torch.randn(2, 3), torch.tensor([0, 3])))",
    "print(torch.nn.functional.binary_cross_entropy(torch.tensor([0.5, 1.5]), "
    "torch.tensor([1.0, 0.0])))",
    "print(torch.nn.functional.mse_loss(torch.randn(2, 3), torch.randn(3, 2)))",
    "print(torch.matmul(torch.randn(3), torch.randn(4)))",
    "print(torch.randn(2, 3).dot(torch.randn(2, 3)))",
    "print(torch.cat([torch.ones(2), torch.ones(2, 1)]))",
    "print(torch.stack([torch.ones(2, 3), torch.ones(2, 3)], dim=3))",
    "print(torch.ones(2, 3)[torch.tensor([0, 1, 2])])",
    "print(torch.ones(2, 3)[:, torch.tensor([True, False])])",
    "print(torch.gather(torch.ones(2, 3), 1, torch.tensor([[0, 3]])))",
    "print(torch.nn.Conv2d(1, 2, 5)(torch.randn(1, 1, 3, 3)))",
    "print(torch.nn.MaxPool2d(2)(torch.randn(1, 1, 1, 1)))",
    "print(torch.nn.LSTM(3, 4)(torch.randn(2, 5)))",
    "print(torch.nn.LSTM(3, 4)(torch.randn(5, 2, 4)))",
    "print(torch.nn.Embedding(5, 2)(torch.tensor([1.0, 2.0])))",
    "print(torch.nn.Embedding(5, 2)(torch.tensor([-1, 2])))",
    "print(torch.ones(2, 2, dtype=torch.int64) / 2, torch.ones(2, dtype=torch.int64) // 2)",
    "t = torch.ones(2, dtype=torch.int64)\n    t += 0.5",
    "t = torch.ones(2, dtype=torch.int64)\n    t /= 2",
    "print(torch.arange(5)[5], 1)",
    "print(torch.randn(2, 2).numpy().dtype, torch.ones(2).tolist())",
    "x = torch.ones(3)\n    x.resize(2)",
    "print(torch.ones(3).unsqueeze(2))",
    "print(torch.ones(2, 3).permute(1, 0, 2))",
    "print(torch.ones(2, 3).transpose(1, 2))",
    "print(torch.ones(2, 3).squeeze(3))",
    "print(torch.randn(2, 3).mean(dim=(0, 3)))",
    "print(torch.randn(3).max(dim=1))",
    "print(torch.zeros(0).max())",
    "print(torch.zeros(0).mean(), torch.zeros(0).sum())",
    "print(torch.ones(2, 3).expand(3, 3))",
    "print(torch.ones(2, 3).repeat(2))",
    "print(torch.multinomial(torch.tensor([0.0, 0.0]), 1))",
    "print(torch.randint(5, 2, (3,)))",
    "print(torch.normal(0.0, -1.0, (2,)))",
    "print(torch.nn.Dropout(1.5))",
    "print(torch.nn.functional.one_hot(torch.tensor([0, 3]), 3))",
    "print(torch.nn.functional.one_hot(torch.tensor([0.0, 1.0])))",
]


def _mistake(g: Gen) -> str:
    """One mistake (its statement rows, for _try), after the setup it needs."""
    n, m = g.r.randint(2, 4), g.r.randint(2, 4)
    kind = g.r.randrange(34 + len(_MORE_MISTAKES))
    if kind >= 34:
        return _MORE_MISTAKES[kind - 34]
    if kind == 0:
        return f"torch.randn({n}, {m}) @ torch.randn({n}, {m})"
    if kind == 1:
        return f"torch.mm(torch.randn({n}, {m}), torch.randn({m + 1}, 2))"
    if kind == 2:
        return f"torch.nn.Linear({m}, 2)(torch.randn({n}, {m + 1}))"
    if kind == 3:
        return f"torch.cat([torch.randn({n}, {m}), torch.randn({n + 1}, {m + 1})])"
    if kind == 4:
        return f"torch.stack([torch.randn({n}), torch.randn({n + 1})])"
    if kind == 5:
        return f"torch.randn({n}, {m}).view({n * m + 1})"
    if kind == 6:
        return f"torch.randn({n}, {m}).t().view(-1)"
    if kind == 7:
        return (f"print(torch.nn.MSELoss()(torch.randn({n}, 1), torch.randn({n})))")
    if kind == 8:
        return (f"print(torch.nn.CrossEntropyLoss()(torch.randn({n}, 3), "
                f"torch.tensor({[g.r.randint(0, 2) for _ in range(n)]}).float()))")
    if kind == 9:
        return (f"print(torch.nn.MSELoss()(torch.randn({n}), torch.arange({n})))")
    if kind == 10:
        return f"torch.nn.Linear(2, 2)(torch.tensor([[1, 2]]))"
    if kind == 11:
        return "torch.nn.Linear(2, 2)(torch.randn(3, 2, dtype=torch.float64))"
    if kind == 12:
        return "torch.nn.Linear(2, 2).double()(torch.randn(3, 2))"
    if kind == 13:
        return ("print(torch.nn.CrossEntropyLoss()(torch.randn(3, 4), "
                "torch.nn.functional.one_hot(torch.tensor([0, 3, 1]), 4).float()))")
    if kind == 14:
        return ("print(torch.nn.CrossEntropyLoss()(torch.randn(3, 4), "
                "torch.nn.functional.one_hot(torch.tensor([0, 3, 1]), 4)))")
    if kind == 15:
        return f"torch.nn.CrossEntropyLoss()(torch.randn({n}, 3), torch.tensor([0, 3] * {n})[:{n}])"
    if kind == 16:
        return f"torch.nn.NLLLoss()(torch.randn({n}, 3), torch.tensor([[0]] * {n}))"
    if kind == 17:
        return "print(torch.nn.BCELoss()(torch.randn(3), torch.ones(3)))"
    if kind == 18:
        return "print(torch.nn.BCEWithLogitsLoss()(torch.randn(3), torch.tensor([1, 0, 1])))"
    if kind == 19:
        return f"print(torch.randn({n}, {m})[{n}])"
    if kind == 20:
        return f"print(torch.randn({n}, {m})[:, {m + g.r.randint(0, 2)}])"
    if kind == 21:
        return f"print(torch.nn.Embedding({n}, 2)(torch.tensor([0, {n}])))"
    if kind == 22:
        return f"print(torch.randn({n}, {m}).sum(dim=2))"
    if kind == 23:
        return f"print(torch.randn({n}).softmax(dim=1))"
    if kind == 24:
        return f"print(torch.randn({n}, {m}).item())"
    if kind == 25:
        return f"print(float(torch.randn({n})), int(torch.ones(1, 1)))"
    if kind == 26:
        return "print(torch.tensor([1, 2], requires_grad=True))"
    if kind == 27:
        return f"print(torch.randn({n}, {m}) + torch.randn({m + 1}))"
    if kind == 28:
        return "print(torch.nn.functional.softmax(torch.randn(2, 3)))"
    if kind == 29:
        return "bn = torch.nn.BatchNorm1d(3)\n    print(bn(torch.randn(1, 3)))"
    if kind == 30:
        return "print(torch.nn.Conv2d(3, 2, 3)(torch.randn(1, 1, 4, 4)))"
    if kind == 31:
        return "print(torch.nn.Conv2d(1, 2, 3)(torch.randn(4, 4)))"
    if kind == 32:
        return "t = torch.randn(2, 3)\n    print(torch.tensor(t), torch.tensor(t).shape)"
    return "print(torch.randn(2, 3, 4).T.shape)"


def _autograd_mistake(g: Gen) -> None:
    """Mistakes with the graph, each followed by the state it leaves."""
    g.emit("w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)")
    kind = g.r.randrange(15)
    if kind == 12:  # an RNN's hidden state carried across steps without detach
        g.emit("rnn = torch.nn.RNN(1, 2)")
        g.emit("h = torch.zeros(1, 1, 2)")
        _try(g, "for step in range(3):\n        out, h = rnn(torch.ones(2, 1, 1) * step, h)\n"
             "        out.sum().backward()\n        print(step, rnn.weight_hh_l0.grad.sum())"
             + g.pick(["", "\n        h = h.detach()"]))
        return
    if kind == 13:  # the optimizer stepped before any backward; zero_grad forgotten
        g.emit("m = torch.nn.Linear(3, 1)")
        g.emit("opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)")
        g.emit("opt.step(); print(m.bias.grad, len(opt.state))")
        g.emit("for i in range(3):\n        m(torch.ones(2, 3)).sum().backward()\n"
               "        opt.step()\n        print(m.bias.grad, m.bias.data)")
        return
    if kind == 14:  # an in-place activation on a tensor a later op saved
        _try(g, g.pick(["y = torch.sigmoid(w)\n    z = y * 2\n    y.add_(1)\n"
                        "    z.sum().backward()\n    print(w.grad)",
                        "y = w.exp()\n    torch.nn.functional.relu(y, inplace=True)\n"
                        "    y.sum().backward()\n    print(w.grad)",
                        "y = w * 2\n    z = y.tanh()\n    y += 1\n    z.sum().backward()\n"
                        "    print(w.grad)",
                        "m = torch.nn.Sequential(torch.nn.Linear(3, 3), "
                        "torch.nn.ReLU(inplace=True), torch.nn.Sigmoid())\n    out = m(w)\n"
                        "    out.sum().backward()\n    print(m[0].bias.grad)"]))
        return
    if kind == 0:
        g.emit("y = (w * w).sum()")
        g.emit("y.backward()")
        _try(g, "y.backward()")
        g.emit("print(w.grad)")
        _try(g, "y = (w.exp() * 2).sum()\n    y.backward(retain_graph=True)\n    y.backward()")
        g.emit("print(w.grad)")
    elif kind == 1:
        _try(g, g.pick(["(w * 2).backward()", "torch.autograd.grad(w * 2, w)", "w.backward()"]))
        g.emit("(w * 2).backward(torch.ones(3)); print(w.grad)")
    elif kind == 2:
        _try(g, g.pick(["w += 1", "w.add_(1)", "w[0] = 5.0", "w.zero_()", "w.data += 1",
                        "w.clamp_(0, 1)"]))
        g.emit("print(w, w.is_leaf, w.grad_fn, w._version)")
        g.emit("with torch.no_grad(): w -= 0.1 * torch.ones(3)")
        g.emit("print(w, w.requires_grad, w.grad_fn)")
    elif kind == 3:
        op = g.pick(["sigmoid", "exp", "tanh", "relu", "pow(2)", "sin"])
        mod = g.pick(["y.mul_(2)", "y += 1", "y[0] = 0", "y.relu_()"])
        _try(g, f"y = w.{op if '(' in op else op + '()'}\n    {mod}\n    y.sum().backward()")
        g.emit("print(w.grad)")
    elif kind == 4:
        _try(g, g.pick(["w.numpy()", "print(w.tolist()); w.numpy()",
                        "import numpy as np; np.array(w)"]))
        g.emit("print(w.detach().numpy())")
    elif kind == 5:
        _try(g, "with torch.no_grad():\n        y = (w * 2).sum()\n    y.backward()")
        _try(g, "(w.detach() * 2).sum().backward()")
        g.emit("print(w.grad)")
    elif kind == 6:
        _try(g, "y = w * 2\n    print(y.grad)", warn=True)
        g.emit("y = w * 2; y.retain_grad(); y.sum().backward(); print(y.grad, w.grad)")
    elif kind == 7:
        g.emit("for i in range(3):\n        loss = (w ** 2).sum()\n        loss.backward()\n"
               "        print(w.grad)")
        g.emit("w.grad.zero_(); print(w.grad)")
    elif kind == 8:
        _try(g, g.pick(["torch.optim.SGD([w * 2], lr=0.1)", "torch.optim.SGD([], lr=0.1)",
                        "torch.optim.Adam(w, lr=0.1)", "torch.optim.SGD([w], lr=-1)",
                        "torch.optim.SGD([w, w], lr=0.1)"]))
        g.emit("opt = torch.optim.SGD([w], lr=0.1); (w ** 2).sum().backward(); opt.step(); "
               "print(w)")
    elif kind == 9:
        _try(g, "loss = (w ** 2).sum().item()\n    loss.backward()")
        g.emit("print(w.grad)")
    elif kind == 10:
        _try(g, "w2 = w.double()\n    (w2 * 2).sum().backward()\n    print(w2.grad, w.grad)",
             warn=True)
    else:
        _try(g, "x = torch.ones(3, requires_grad=True)\n    y = x[0]\n    x.data[0] = 7\n"
             "    (y * x).sum().backward()\n    print(x.grad)")
        _try(g, "v = w.view(3)\n    v.detach().mul_(2)\n    (v * w).sum().backward()\n"
             "    print(w.grad)")


def mistakes(g: Gen) -> None:
    """What beginners get wrong and print the error of, with the state afterwards."""
    if g.chance(0.45):
        _autograd_mistake(g)
        return
    for _ in range(g.r.randint(1, 3)):
        _try(g, _mistake(g), warn=g.chance(0.35))


AREAS: dict[str, Callable[[Gen], None]] = {
    "training": training, "recurrent_attention": recurrent_attention, "half_ops": half_ops,
    "mistakes": mistakes,
}
