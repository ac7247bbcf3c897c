"""A fourth set of the differential fuzzer's areas: what real programs do around tensors that
the other generators leave out. Shape functions (views, splits, joins, strides, their
gradients and error texts), Python interop (builtins, formatting, numpy, copying, pickling,
torch.save), autograd extensions (autograd.Function subclasses, torch.autograd.functional,
torch.func, gradcheck, anomaly detection) and more of torch.nn.functional (interpolate,
grid_sample, fold, padding modes, distances, attention, more losses). Each area is a function
of a `gen.Gen`; they run only when named (`--only shapes,...` or `--only gen4`), so older
seeds' batches stay the same cases.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from gen import Gen
from gen3 import _small, block

_FP = ["torch.float32", "torch.float64", "torch.float16", "torch.bfloat16"]
_INT = ["torch.int8", "torch.uint8", "torch.int16", "torch.int32", "torch.int64"]
_ALL = _FP + _INT + ["torch.bool"]

# -- shapes --------------------------------------------------------------------------------

_SHOW = '''
def show(r):
    if isinstance(r, (tuple, list)):
        print(type(r).__name__, len(r))
        for t in r:
            show(t)
    else:
        print(repr(r), tuple(r.shape), r.stride(), r.is_contiguous(), r.storage_offset())
'''

_BACKWARD = ("rs = list(r) if isinstance(r, (tuple, list)) else [r]; "
             "sum((t * torch.arange(1.0, t.numel() + 1).reshape(t.shape)).sum() for t in rs "
             "if t.requires_grad).backward(); print(b.grad)")


def _dim(g: Gen, nd: int, extra: int = 0) -> int:
    """A dimension index of an `nd`-dimensional tensor, negative half the time; now and
    then one out of range (its error text)."""
    nd = max(nd, 1) + extra
    if g.chance(0.04):
        return g.pick([nd, -nd - 1])
    d = g.r.randrange(nd)
    return d - nd if g.chance(0.4) else d


def _base(g: Gen) -> tuple[str, tuple[int, ...]]:
    """`b`, a tensor (a leaf requiring grad now and then), and `x`, a view of it that may be
    non-contiguous (transposed, permuted, sliced with steps, expanded)."""
    nd = g.pick([1, 2, 2, 3, 3, 4])
    shape = tuple(g.r.randint(1, 4) for _ in range(nd))
    numel = math.prod(shape)
    grad = g.chance(0.35)
    dtype = "torch.float32" if grad else g.pick(["torch.float32"] * 3 + _ALL)
    text = f"torch.arange({numel}.0).reshape({shape})"
    if dtype != "torch.float32":
        text += f".to({dtype})"
    g.emit(f"b = {text}" + (".requires_grad_()" if grad else ""))
    form = g.r.random()
    if form < 0.4 or nd < 2:
        g.emit("x = b" + ("" if form < 0.3 else "[..., ::2]"))
        if form >= 0.3:
            shape = shape[:-1] + ((shape[-1] + 1) // 2,)
    elif form < 0.6:
        g.emit("x = b.transpose(0, -1)")
        shape = (shape[-1],) + shape[1:-1] + (shape[0],)
    elif form < 0.8:
        perm = list(range(nd))
        g.r.shuffle(perm)
        g.emit(f"x = b.permute({tuple(perm)})")
        shape = tuple(shape[p] for p in perm)
    else:
        g.emit("x = b[1:]" if shape[0] > 1 else "x = b.t()" if nd == 2 else "x = b[:, :1]")
        if shape[0] > 1:
            shape = (shape[0] - 1,) + shape[1:]
        elif nd == 2:
            shape = shape[::-1]
        else:
            shape = (shape[0], 1) + shape[2:]
    return ("b" if grad else ""), shape


def _shape_ops(g: Gen, shape: tuple[int, ...]) -> list[str]:
    nd = len(shape)
    numel = math.prod(shape)
    d, e = _dim(g, nd), _dim(g, nd)
    size = shape[d] if -nd <= d < nd else 1
    k = g.r.randint(1, 4)
    divisors = [v for v in range(1, numel + 1) if numel % v == 0]
    other = g.pick(divisors) if g.chance(0.85) else numel + 1
    perm = list(range(nd))
    g.r.shuffle(perm)
    if g.chance(0.05):
        perm[0] = perm[-1]
    expand = tuple(g.pick([s, -1, 1 if s == 1 else s]) if s != 1 else g.pick([1, 3, -1])
                   for s in shape)
    lead = (g.r.randint(1, 3),) if g.chance(0.4) else ()
    starts = sorted(g.r.randint(0, size) for _ in range(g.r.randint(1, 3)))
    src = tuple(sorted(g.r.sample(range(nd), min(nd, g.r.randint(1, 2)))))
    dst = tuple(g.r.sample(range(-nd, nd), len(src)))
    idx = [[g.r.randrange(shape[-1]) for _ in range(2)]]  # (in range: PyTorch reads past)
    return [
        f"x.reshape(-1, {other})", f"x.reshape({other}, -1)", f"x.view(-1)",
        f"x.view({other}, -1)", "x.view(-1, 2)", f"x.view({tuple(reversed(shape))})",
        f"x.reshape(-1, -1)", f"x.view(torch.int32) if x.dtype == torch.float32 else x",
        "x.contiguous().view(-1)", f"x.permute({tuple(perm)})", f"x.permute(*{perm})",
        f"x.transpose({d}, {e})", f"torch.swapaxes(x, {d}, {e})", "x.mT", "x.T", "x.t()",
        f"x.expand({lead + expand})", f"x.expand({lead + expand}).contiguous()",
        f"torch.broadcast_to(x, {lead + shape})", f"x[:1].expand_as(x)",
        f"x.flatten()", f"x.flatten({min(d, e)}, {max(d, e)})", f"x.flatten({d}, {e})",
        f"x.unflatten({d}, (1, -1))", f"x.unflatten({d}, ({size}, 1))",
        f"x.unflatten({d}, (2, -1))", f"x.squeeze()", f"x.squeeze(({d}, {e}))",
        f"x.squeeze({d})", f"torch.squeeze(x, ({d},))", f"x.unsqueeze({_dim(g, nd, 1)})",
        f"x.unsqueeze(({d}, {e}))", f"torch.movedim(x, {src}, {dst})",
        f"torch.moveaxis(x, {src[0]}, {dst[0]})", f"x.chunk({k}, {d})",
        f"x.split({k}, {d})", f"x.split([1, {size - 1}], {d})", f"x.split([{size}, 1], {d})",
        f"torch.tensor_split(x, {k}, {d})", f"torch.tensor_split(x, {starts}, dim={d})",
        f"torch.tensor_split(x, torch.tensor({starts}), dim={d})",
        f"torch.tensor_split(x, torch.tensor({k}), dim={d})", f"x.unbind({d})",
        f"torch.cat((x, x * 2), {d})", f"torch.cat([x, x[:0]], {d})",
        f"torch.cat([x, torch.ones(2, 2)])", f"torch.stack((x, x + 1), {_dim(g, nd, 1)})",
        "torch.stack([x, x.t()])", "torch.hstack((x, x))", "torch.vstack((x, x))",
        "torch.dstack((x, x))", "torch.column_stack((x, x))", "torch.row_stack([x, x])",
        f"torch.tril(x, {g.r.randint(-2, 2)})", f"torch.triu(x, {g.r.randint(-2, 2)})",
        f"x.tril_({g.r.randint(-2, 2)})" if nd >= 2 else "x.tril()",
        f"torch.roll(x, {g.r.randint(-3, 3)})", f"torch.roll(x, {g.r.randint(-3, 3)}, {d})",
        f"torch.roll(x, ({k}, -1), ({d}, {e}))", f"torch.flip(x, ({d},))",
        f"x.flip({d}, {e})", "x.fliplr()", "x.flipud()",
        f"torch.rot90(x, {g.r.randint(-2, 3)}, ({d}, {e}))", "torch.rot90(x)",
        f"x.repeat({(k,) + (1,) * nd})", f"x.repeat({(k,) * max(nd - 1, 1)})",
        f"x.repeat_interleave({k})", f"x.repeat_interleave({k}, {d})",
        f"x.repeat_interleave(torch.tensor({[g.r.randint(0, 2) for _ in range(size)]}), {d})",
        f"x.repeat_interleave(torch.tensor({[g.r.randint(0, 2) for _ in range(size)]}), dim="
        f"{d}, output_size={g.r.randint(0, 2 * size)})",
        "torch.repeat_interleave(torch.tensor([1, 0, 2]))",
        f"x.narrow({d}, {g.r.randint(0, size)}, {g.r.randint(0, size)})",
        f"x.narrow({d}, -1, 1)", f"x.select({d}, {g.r.randint(-size, size)})",
        f"x.unfold({d}, {g.r.randint(1, size + 1)}, {g.r.randint(1, 2)})",
        f"x.as_strided(({k}, 2), (1, {k}))", f"torch.as_strided(x, (2, 2), (1, 2), 1)",
        f"x.as_strided((2,), (1,), {numel})", f"x.diagonal()",
        f"x.diagonal({g.r.randint(-2, 2)}, {d}, {e})", f"torch.diag_embed(x)",
        f"torch.diag_embed(x, {g.r.randint(-1, 1)}, {_dim(g, nd, 1)}, {_dim(g, nd, 1)})",
        f"torch.take_along_dim(x, torch.tensor({idx}).reshape({(1,) * (nd - 1) + (2,)}), "
        f"{nd - 1})" if nd >= 1 else "x",
        f"torch.take_along_dim(x, x.argsort({d}), {d})" if g.chance(0.5)
        else f"torch.take_along_dim(x, x.argmax({d}, keepdim=True), dim={d})",
        "torch.atleast_2d(x)", "torch.atleast_3d(x)", "x.ravel()", f"x.swapdims(0, {d})",
        f"torch.hsplit(x, {k})", f"torch.vsplit(x, {k})", "x.view_as(x.reshape(-1))",
        f"x.reshape_as(torch.empty({other}, {numel // other}))", "x.mH",
        f"torch.flatten(x, start_dim={d})", f"x.moveaxis({d}, -1)",
        f"torch.meshgrid(x.flatten()[:{k}], torch.arange({k}.0), indexing="
        f"{g.pick(['ij', 'xy'])!r})", "torch.meshgrid(x.flatten(), x.flatten()[:2])",
        f"torch.meshgrid([x.flatten()[:2], torch.arange(3), torch.arange({k})], indexing='xy')",
        "torch.meshgrid(x, x, indexing='ij')", f"x.unsqueeze({d}).squeeze(({d}, -1))",
        f"x.view(-1).index_select(0, torch.tensor([0, {numel - 1}]))", "x.tile((2,))",
        f"torch.broadcast_tensors(x, x[:1])", f"x.new_empty(0).reshape(0, {other})",
        f"x.T.contiguous().view(-1)", f"x.squeeze_() if x.dim() else x", "x.t_()",
        f"x.transpose_({d}, {e})", f"x.unsqueeze_({d})", f"x.resize_({other}, -1)",
    ]


def shapes(g: Gen) -> None:
    """Views and copies that change shape: their values, shapes, strides, contiguity,
    storage offsets, gradients and error texts."""
    block(g, _SHOW)
    grad, shape = _base(g)
    ops = _shape_ops(g, shape)
    for _ in range(g.r.randint(1, 2)):
        g.emit(f"r = {g.pick(ops)}")
        g.emit("show(r)")
        if grad and g.chance(0.6):
            g.emit("if isinstance(r, torch.Tensor): print(r.grad_fn.name() if r.grad_fn "
                   "else None, r._base is b if r._is_view() else 'copy')")
            g.emit(_BACKWARD)
            break
    if g.chance(0.25):
        g.emit(g.pick([
            "r = r[0] if isinstance(r, (tuple, list)) else r; r.mul_(2); print(b, x)",
            "r = r[0] if isinstance(r, (tuple, list)) else r; r[...] = 7; print(b)",
            "print(x.is_contiguous(), x.contiguous().stride(), x.is_contiguous("
            "memory_format=torch.channels_last) if x.dim() == 4 else x.is_set_to(x))",
            "print(x.data_ptr() == b.data_ptr(), x.untyped_storage().nbytes() == "
            "b.untyped_storage().nbytes())",
        ]))


# -- python interop ------------------------------------------------------------------------

def _vals(g: Gen, n: int, dtype: str) -> str:
    if dtype == "torch.bool":
        return str([g.pick([True, False]) for _ in range(n)])
    if dtype in _INT:
        return str([g.r.randint(0 if dtype == "torch.uint8" else -5, 9) for _ in range(n)])
    return str([g.r.randint(-12, 12) / 4 for _ in range(n)])


def python_interop(g: Gen) -> None:
    """What Python code does with tensors: builtins, iteration, formatting, numpy on either
    side, conversions, hashing, copying, pickling and torch.save."""
    g.emit("import numpy as np, copy, io, pickle, math")
    dtype = g.pick(_ALL + ["torch.float32", "torch.int64"])
    n = g.r.randint(0, 4) if g.chance(0.15) else g.r.randint(1, 4)
    g.emit(f"t = torch.tensor({_vals(g, n, dtype)}, dtype={dtype})")
    v = g.pick([g.r.randint(-3, 7) / g.pick([1, 2, 3, 7]), g.r.randint(-5, 9), True,
                "float('nan')", "-0.0", "1e-7", "123456.789"])
    sdt = g.pick(["torch.float32", "torch.float64", "torch.int64", "torch.int32",
                  "torch.float16", "torch.bool", "torch.bfloat16", "torch.uint8"])
    g.emit(f"s = torch.tensor({v}, dtype={sdt})")
    fmt = g.pick([".3f", ".2e", ">8", "<6.1f", "+.2f", "", "g", ".0f", "5d", "x", ".1%", "^9.2g",
                  ",", "_", "e", "08.3f"])
    forms = [
        "print(len(t), list(t), [type(v).__name__ for v in t])", "for row in t: print(row)",
        f"print({g.r.randint(-2, 4)} in t, 2.5 in t, torch.tensor(1) in t, True in t)",
        "print(bool(t))", "print(bool(s), int(s), float(s))", "print(int(t), float(t))",
        "print(sum(t), type(sum(t)).__name__)", "print(max(t), min(t))",
        "print(sorted(t), sorted(t, reverse=True))", "print(abs(t), -t, +t, ~t)",
        "print(round(s), round(s, 2), round(t, 1))", "print(divmod(s, 3), divmod(7, s))",
        "print(divmod(t, 2))", "print(pow(s, 2), pow(2, s), s ** 0.5)",
        f"print(min([s, s * 2, s - 1]), max([s, torch.tensor({v})]))",
        f"print(f'{{s:{fmt}}}')", f"print('{{:{fmt}}}'.format(s))", f"print(format(s, {fmt!r}))",
        f"print(f'{{t:{fmt}}}')", "print('%s %r' % (s, s))", "print('%.2f' % s)",
        "print('%d' % s)", "print('%5.1e|%x' % (s, s))", "print(f'{s!r} {s!s} {s}')",
        "print(f'{t}', str(t) == repr(t))", "print(s.item(), type(s.item()).__name__)",
        "print(t.tolist(), s.tolist(), [type(v).__name__ for v in t.tolist()])",
        "print(math.isnan(s), math.floor(s), math.ceil(s), math.sqrt(abs(s)))",
        "print(range(10)[s])", "print([1, 2, 3, 4][s])", "print(np.float64(s))",
        "print(hex(s), bin(s), oct(s))", "print(complex(s))", "print(s.__index__())",
        "print(int(s) == s, s == int(s), s != s, s is s)",
        "print(np.float32(2.5) * t, type(np.float32(2.5) * t).__name__)",
        "r = t * np.float64(2); print(r, r.dtype)", "r = t + np.int64(3); print(r, r.dtype)",
        "r = np.array([1.0, 2.0]) + s; print(type(r).__name__, r)",
        "r = s + np.array([1, 2]); print(type(r).__name__, r)",
        "r = t == np.float32(1.5); print(r)", "r = np.int32(2) ** t; print(r)",
        "print(t == t.double(), t.int() == t.float(), t == torch.tensor(1.5))",
        "print(t < 1.5, t.int() >= 0.5, torch.equal(t, t.double()), t.eq(True))",
        "print(torch.tensor([1, 2]) == torch.tensor([1.0, 2.5]), torch.tensor(3) == 3.0)",
    ]
    conv = [
        "x = torch.tensor([1, 2.5, True]); print(x, x.dtype)",
        "x = torch.tensor([True, False, 1]); print(x, x.dtype)",
        "x = torch.tensor([[1, 2], [3, 4.0]]); print(x, x.dtype)",
        "x = torch.tensor([np.float32(1.5), 2]); print(x, x.dtype)",
        "x = torch.tensor([np.int64(3), 1]); print(x, x.dtype)",
        "x = torch.tensor([np.float64(1.0), np.float32(2.0)]); print(x, x.dtype)",
        "x = torch.tensor(np.float16(1.5)); print(x, x.dtype, x.shape)",
        "x = torch.tensor([np.bool_(True), 2]); print(x, x.dtype)",
        "x = torch.tensor([[1, 2], [3]]); print(x)", "x = torch.tensor([]); print(x, x.dtype)",
        "x = torch.tensor([[], []]); print(x, x.shape)", "x = torch.tensor([1, 'a'])",
        "x = torch.tensor([1, None])", "x = torch.tensor([2 ** 63]); print(x)",
        "x = torch.tensor([2 ** 62, 1.5]); print(x, x.dtype)",
        "x = torch.tensor([torch.tensor(1.5), 2]); print(x, x.dtype)",
        "x = torch.tensor([torch.tensor([1, 2]), torch.tensor([3, 4])]); print(x)",
        "x = torch.tensor((1, 2), dtype=torch.uint8); print(x)",
        "x = torch.tensor([-1], dtype=torch.uint8); print(x)",
        "x = torch.tensor([300], dtype=torch.int8)",
        "x = torch.tensor(np.array([[1, 2]], dtype=np.int16)); print(x, x.dtype)",
        "x = torch.tensor([np.array(1.5), np.array(2.0)]); print(x, x.dtype)",
        "x = torch.tensor(range(3)); print(x, x.dtype)",
        "a = np.arange(4.0); x = torch.from_numpy(a); a[0] = 9; print(x, x.dtype)",
        "a = np.arange(4); x = torch.as_tensor(a); x[1] = -1; print(a, x.dtype)",
        "a = np.arange(4.0); x = torch.as_tensor(a, dtype=torch.float32); x[0] = 5; print(a)",
        "a = np.arange(6.0).reshape(2, 3).T; x = torch.from_numpy(a); print(x.stride(), x)",
        "a = np.arange(4.0); x = torch.tensor(a); a[0] = 9; print(x)",
        "a = np.array([1, 2], dtype=np.uint16); x = torch.from_numpy(a); print(x, x.dtype)",
        "a = np.array([1, 2], dtype=np.int8)[::-1]; x = torch.from_numpy(a)",
        "a = np.array(['a']); x = torch.from_numpy(a)",
        "x = torch.from_numpy(np.float64(2.0))",
        "n = t.numpy(); print(n, n.dtype, type(n).__name__)",
        "n = t.numpy(); n[...] = 0; print(t)",
        "x = t.float().requires_grad_(); x.numpy()",
        "x = t.float().requires_grad_(); print(x.numpy(force=True), x.detach().numpy())",
        "n = s.numpy(); print(n, n.shape, n.dtype)", "print(np.asarray(t), np.array(s))",
        "print(t.cpu().numpy().tolist(), np.sum(t.numpy()))",
        "print(np.mean(t.float().numpy()), np.allclose(t.float(), t.float()))",
        "print(t.tolist() == t.numpy().tolist())",
    ]
    objs = [
        "p = torch.nn.Parameter(torch.ones(2)); q = torch.nn.Parameter(torch.ones(2)); "
        "st = {p, q}; print(len(st), p in st, q in {p: 1}, p is p)",
        "p = torch.nn.Parameter(torch.ones(2)); d = {p: 'w'}; print(d[p], list(d.values()))",
        "m = torch.nn.Linear(2, 2); ps = set(m.parameters()); print(len(ps), m.weight in ps, "
        "id(m.weight) == id(list(m.parameters())[0]))",
        "print(t in [t], [t] == [t])", "print(t in [t.clone()])", "print(s in [s.clone()])",
        "print(hash(s) == hash(s), hash(s) == hash(s.clone()))",
        "print({s: 1}.get(s), {s: 1}.get(s.clone()))",
        "c = copy.copy(t); c[...] = 0 if c.numel() else c; print(t, c)",
        "c = copy.deepcopy(t); print(c, c.dtype, c is t)",
        "x = t.float().requires_grad_(); c = copy.deepcopy(x); print(c, c.requires_grad, "
        "c.is_leaf)",
        "x = t.float().requires_grad_(); y = x * 2; c = copy.deepcopy(y)",
        "x = t.float().requires_grad_(); (x * 2).sum().backward(); c = copy.deepcopy(x); "
        "print(c.grad, c.grad is x.grad)",
        "x = t.float().requires_grad_(); y = x * 2; c = copy.copy(y); print(c.grad_fn)",
        "v = t[::2]; c = copy.deepcopy([t, v]); c[0][...] = 7 if t.numel() else 0; print(c)",
        "p = torch.nn.Parameter(torch.ones(2)); c = copy.deepcopy(p); print(type(c).__name__, "
        "c)",
        "m = torch.nn.Linear(2, 1); c = copy.deepcopy(m); c.weight.data.fill_(1); "
        "print(torch.equal(m.weight, c.weight), c)",
        "buf = io.BytesIO(); pickle.dump(t, buf); buf.seek(0); r = pickle.load(buf); "
        "print(r, r.dtype, torch.equal(r, t))",
        "r = pickle.loads(pickle.dumps(s)); print(r, r.dtype, r.shape)",
        "x = t.float().requires_grad_(); r = pickle.loads(pickle.dumps(x)); print(r, "
        "r.requires_grad)",
        "r = pickle.loads(pickle.dumps(t[1:])); print(r, r.stride(), r.storage_offset())",
        "r = pickle.loads(pickle.dumps(torch.Size([2, 3]))); print(r, type(r).__name__)",
        "r = pickle.loads(pickle.dumps(torch.float16)); print(r, r is torch.float16)",
        "buf = io.BytesIO(); torch.save(t, buf); buf.seek(0); print(torch.load(buf))",
        "buf = io.BytesIO(); torch.save({'a': t, 'n': 3, 'l': [s, 'x']}, buf); buf.seek(0); "
        "print(torch.load(buf))",
        "buf = io.BytesIO(); torch.save([t, t[:1]], buf); buf.seek(0); a, c = torch.load(buf); "
        "c[...] = 5 if c.numel() else 0; print(a)",
        "m = torch.nn.Linear(2, 2); buf = io.BytesIO(); torch.save(m.state_dict(), buf); "
        "buf.seek(0); sd = torch.load(buf); print(type(sd).__name__, list(sd), "
        "torch.equal(sd['weight'], m.weight))",
        "m = torch.nn.Linear(2, 2); n2 = torch.nn.Linear(2, 2); buf = io.BytesIO(); "
        "torch.save(m.state_dict(), buf); buf.seek(0); print(n2.load_state_dict(torch.load("
        "buf, weights_only=True)), torch.equal(n2.bias, m.bias))",
        "buf = io.BytesIO(); torch.save(s, buf); buf.seek(0); r = torch.load(buf, "
        "map_location='cpu'); print(r, r.dtype)",
        "x = t.float().requires_grad_(); buf = io.BytesIO(); torch.save(x, buf); buf.seek(0); "
        "r = torch.load(buf); print(r, r.requires_grad, r.is_leaf)",
    ]
    g.emit(g.pick(g.pick([forms, forms, conv, objs])))
    if g.chance(0.3):
        g.emit(g.pick(forms + conv + objs))


# -- autograd extensions -------------------------------------------------------------------

_FUNCTIONS = {
    "exp": '''
class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
''',
    "needs": '''
class MyMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        print('forward needs', ctx.needs_input_grad)
        ctx.save_for_backward(a, b)
        ctx.k = k
        return a * b * k
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print('backward needs', ctx.needs_input_grad, ctx.k)
        ga = g * b * ctx.k if ctx.needs_input_grad[0] else None
        gb = g * a * ctx.k if ctx.needs_input_grad[1] else None
        return ga, gb, None
''',
    "dirty": '''
class Double_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
''',
    "nondiff": '''
class SortF(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        print('gi', gi)
        return torch.zeros_like(gv).scatter(-1, i, gv)
''',
    "materialize": '''
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads({mat})
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print('grads', g1, g2)
        out = torch.zeros(())
        if g1 is not None:
            out = out + g1 * 2
        if g2 is not None:
            out = out + g2 * 3
        return out
''',
    "once": '''
from torch.autograd.function import once_differentiable
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2
''',
    "wrong": '''
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y
    @staticmethod
    def backward(ctx, g):
        return {ret}
''',
    "setup": '''
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        return g * ctx.k, None
''',
}

_WRONG = ["g.sum(), g", "g", "g, g, g", "g[:1], g", "g.double(), None", "'x', g", "None, None",
          "g.expand(2, *g.shape), g", "g.reshape(-1, 1), g", "g.to(torch.int64), g"]


def _function(g: Gen) -> None:
    kind = g.pick(sorted(_FUNCTIONS))
    text = _FUNCTIONS[kind].format(mat=g.pick(["True", "False"]), ret=g.pick(_WRONG))
    block(g, text)
    x = f"torch.tensor({_small(g, (g.r.randint(1, 3),))}, requires_grad=True)"
    g.emit(f"x = {x}")
    if kind == "exp":
        g.emit("y = MyExp.apply(x); y.sum().backward(); print(y, x.grad, y.grad_fn.name(), "
               "type(y.grad_fn).__name__)")
        if g.chance(0.4):
            g.emit(g.pick(["print(torch.autograd.gradcheck(MyExp.apply, (x.double().detach()"
                           ".requires_grad_(),)))", "z = MyExp.apply(x.detach()); print(z, "
                           "z.requires_grad, z.grad_fn)",
                           "with torch.no_grad(): z = MyExp.apply(x); print(z.grad_fn)",
                           "y = MyExp.apply(x * 1); print(y.grad_fn.next_functions[0][0]."
                           "name())"]))
    elif kind == "needs":
        ys = g.pick(["torch.ones_like(x) * 2", "torch.ones_like(x).requires_grad_()",
                     "x.detach()"])
        g.emit(f"y = {ys}; r = MyMul.apply(x, y, {g.pick([2, 0.5, 'None'])}); r.sum()"
               f".backward(); print(r, x.grad, y.grad)")
    elif kind == "dirty":
        g.emit(g.pick(["y = Double_.apply(x)", "z = x.clone(); y = Double_.apply(z); "
                       "y.sum().backward(); print(y, z, y is z, x.grad, y.grad_fn.name())",
                       "z = x * 1; y = Double_.apply(z[:1]); print(y, z)",
                       "z = x.detach().clone(); y = Double_.apply(z); print(y, y.requires_grad)"]))
    elif kind == "nondiff":
        g.emit("v, i = SortF.apply(x); print(v, i, v.requires_grad, i.requires_grad)")
        g.emit(g.pick(["(v * torch.arange(1.0, v.numel() + 1)).sum().backward(); print(x.grad)",
                       "(v.sum() + i.sum()).backward(); print(x.grad)", "i.sum().backward()"]))
    elif kind == "materialize":
        g.emit(g.pick(["a, c = Two.apply(x); a.sum().backward(); print(x.grad)",
                       "a, c = Two.apply(x); (a.sum() + c.sum()).backward(); print(x.grad)"]))
    elif kind == "once":
        g.emit("y = Cube.apply(x); gx, = torch.autograd.grad(y.sum(), x, create_graph=True); "
               "print(gx, gx.requires_grad)")
        g.emit(g.pick(["gx.sum().backward()", "print(torch.autograd.grad(gx.sum(), x))",
                       "y2 = Cube.apply(x); y2.sum().backward(); print(x.grad)"]))
    elif kind == "wrong":
        g.emit(f"y = torch.tensor({_small(g, (g.r.randint(1, 3),))}, requires_grad=True)")
        g.emit("r = Bad.apply(x, y); r.sum().backward(); print(x.grad, y.grad)")
    else:
        g.emit(f"y = Scale.apply(x, {g.pick([2.0, 3, -1.5])}); y.sum().backward(); "
               f"print(y, x.grad, y.grad_fn.name())")


def autograd_ext(g: Gen) -> None:
    """autograd.Function subclasses, torch.autograd.functional, torch.func, gradcheck and
    anomaly detection."""
    roll = g.r.random()
    if roll < 0.35:
        _function(g)
        return
    g.emit("import torch.autograd.functional as AF")
    n = g.r.randint(1, 3)
    g.emit(f"x = torch.tensor({_small(g, (n,))})")
    g.emit(f"v = torch.tensor({_small(g, (n,))})")
    fns = ["lambda t: t ** 2 * 3", "lambda t: t.sin() * t", "lambda t: (t ** 3).sum()",
           "lambda t: t.exp().sum() + t.prod()", "lambda t: torch.stack([t.sum(), (t * t).sum()])",
           "lambda t: t.cumsum(0)", "lambda t: t.softmax(0)", "lambda t: t.norm()",
           "lambda t: torch.ones(2)", "lambda t: t.detach() * 2", "lambda t: t.relu() + t.tanh()"]
    g.emit(f"f = {g.pick(fns)}")
    g.emit("fs = lambda t: f(t).sum()")
    if roll < 0.7:
        cg = g.pick(["", ", create_graph=True"])
        st = g.pick(["", ", strict=True"])
        g.emit(g.pick([
            f"print(AF.jacobian(f, x{cg}{st}))", "print(AF.jacobian(f, x, vectorize=True))",
            "print(AF.jacobian(lambda a, b: a * b, (x, v)))",
            "print(AF.jacobian(f, x, strategy='forward-mode', vectorize=True))",
            f"print(AF.hessian(fs, x{cg}{st}))", "print(AF.hessian(lambda a, b: (a * b).sum(), "
            "(x, v)))", f"print(AF.vjp(f, x, f(x).detach() * 0 + 1{st}))",
            f"print(AF.vjp(fs, x{cg}))", f"print(AF.jvp(f, x, v{st}))", "print(AF.jvp(fs, x, v))",
            f"print(AF.hvp(fs, x, v{st}))", f"print(AF.vhp(fs, x, v{cg}))", "print(AF.vjp(f, x))",
            "print(AF.hvp(f, x, v))", "print(AF.jacobian(f, [x]))",
            "r = AF.jacobian(f, x, create_graph=True); print(r.requires_grad)",
        ]))
    elif roll < 0.9:
        g.emit("import torch.func as tf")
        g.emit(g.pick([
            "print(tf.grad(fs)(x))", "print(tf.grad_and_value(fs)(x))",
            "print(tf.grad(lambda a, b: (a * b).sum(), argnums=1)(x, v))",
            "print(tf.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, v))",
            "print(tf.grad(f)(x))", "print(tf.vmap(f)(x.reshape(-1, 1)))",
            "print(tf.vmap(torch.dot)(x.reshape(1, -1), v.reshape(1, -1)))",
            "print(tf.vmap(lambda a, b: a * b, in_dims=(0, None))(x, v))",
            "print(tf.vmap(lambda a: a * 2, out_dims=1)(x.reshape(-1, 1)))",
            "print(tf.vmap(lambda a: a.sum())(x))", "print(tf.jacrev(f)(x))",
            "print(tf.jacfwd(f)(x))", "print(tf.hessian(fs)(x))",
            "print(tf.vmap(tf.grad(lambda t: (t ** 2).sum()))(x.reshape(-1, 1)))",
            "print(tf.grad(fs, has_aux=False)(x.requires_grad_()))",
            "print(tf.grad(lambda t: (fs(t), t.sum()), has_aux=True)(x))",
            "m = torch.nn.Linear(3, 1); p = {k: torch.ones_like(w) for k, w in "
            "m.named_parameters()}; print(tf.functional_call(m, p, (torch.ones(2, 3),)))",
            "m = torch.nn.Linear(1, 1); print(tf.grad(lambda p: tf.functional_call(m, p, "
            "(torch.ones(1, 1),)).sum())(dict(m.named_parameters())))",
            "print(tf.vmap(f, in_dims=1)(x.reshape(1, -1)))",
            "print(tf.vmap(f)(torch.ones(0, 2)))",
        ]))
    else:
        g.emit("xd = x.double().requires_grad_()")
        g.emit(g.pick([
            "print(torch.autograd.gradcheck(f, (xd,)))",
            "print(torch.autograd.gradgradcheck(f, (xd,)))",
            "print(torch.autograd.gradcheck(f, (x.requires_grad_(),), raise_exception=False))",
            "print(torch.autograd.gradcheck(lambda t: t.detach() * 2, (xd,), "
            "raise_exception=False))",
            "with torch.autograd.detect_anomaly(): y = (x.requires_grad_() - 5).sqrt().log(); "
            "y.sum().backward()",
            "with torch.autograd.detect_anomaly(): y = (x.requires_grad_() * 0).sqrt(); "
            "y.sum().backward(); print(x.grad)",
            "torch.autograd.set_detect_anomaly(True); y = (x.requires_grad_() * 0).pow(0.5); "
            "z = y.sum(); torch.autograd.set_detect_anomaly(False); z.backward(); print(x.grad)",
            "print(torch.is_anomaly_enabled()); with_ = torch.autograd.detect_anomaly("
            "check_nan=False); print(type(with_).__name__)",
            "with torch.autograd.set_detect_anomaly(True): print(torch.is_anomaly_enabled(), "
            "torch.is_anomaly_check_nan_enabled())",
        ]))


# -- nn.functional, more -------------------------------------------------------------------

def _interpolate(g: Gen) -> str:
    dims = g.pick([1, 2, 2, 3])
    shape = (1, g.r.randint(1, 2)) + tuple(g.r.randint(1, 4) for _ in range(dims))
    g.emit(f"x = torch.randn({shape}, requires_grad=True)")
    modes = {1: ["nearest", "linear", "nearest-exact", "area"],
             2: ["nearest", "bilinear", "bicubic", "nearest-exact", "area"],
             3: ["nearest", "trilinear", "area"]}[dims]
    mode = g.pick(modes + ["bilinear"])
    if g.chance(0.5):
        how = f"size={tuple(g.r.randint(1, 6) for _ in range(dims))}"
        if g.chance(0.2):
            how = f"size={g.r.randint(1, 6)}"
    else:
        sf = g.pick([2, 0.5, 1.5, 3, 0.7, 2.5])
        how = f"scale_factor={sf}" if g.chance(0.7) else \
            f"scale_factor={tuple(g.pick([2, 0.5, 1.5]) for _ in range(dims))}"
        if g.chance(0.4):
            how += f", recompute_scale_factor={g.pick(['True', 'False'])}"
    ac = ""
    if mode in ("linear", "bilinear", "bicubic", "trilinear") or g.chance(0.1):
        ac = g.pick(["", ", align_corners=True", ", align_corners=False"])
    aa = ", antialias=True" if mode in ("bilinear", "bicubic") and g.chance(0.15) else ""
    return f"F.interpolate(x, {how}, mode={mode!r}{ac}{aa})"


def _losses(g: Gen) -> str:
    n, c = g.r.randint(1, 3), g.r.randint(2, 4)
    g.emit(f"x = torch.tensor({_small(g, (n, c))}, requires_grad=True)")
    g.emit(f"y = torch.tensor({_small(g, (n, c))})")
    g.emit(f"p = torch.tensor({_small(g, (n, c), 0, 4, 4)})")
    red = g.pick(["", ", reduction='sum'", ", reduction='none'"])
    lbl = [[g.r.randint(-1, c - 1) for _ in range(c)] for _ in range(n)]
    return g.pick([
        f"F.kl_div(F.log_softmax(x, 1), F.log_softmax(y, 1), log_target=True{red})",
        f"F.kl_div(x, p, reduction='batchmean', log_target={g.pick(['True', 'False'])})",
        f"F.binary_cross_entropy_with_logits(x, p, pos_weight=torch.tensor("
        f"{_small(g, (c,), 1, 6)}){red})",
        f"F.binary_cross_entropy_with_logits(x, p, weight=torch.tensor({_small(g, (c,), 1, 4)}),"
        f" pos_weight=torch.tensor({_small(g, (g.pick([1, c]),), 1, 6)}){red})",
        f"F.huber_loss(x, y, delta={g.pick([0.5, 1.0, 2.0])}{red})",
        f"F.smooth_l1_loss(x, y, beta={g.pick([0.0, 0.5, 1.0, 2.0])}{red})",
        f"F.margin_ranking_loss(x, y, torch.tensor({_small(g, (n, c), -1, 1, 1)}).sign(), "
        f"margin={g.pick([0.0, 0.5])}{red})",
        f"F.triplet_margin_loss(x, y, p, margin={g.pick([1.0, 0.1])}, p={g.pick([1, 2])}, "
        f"swap={g.pick(['True', 'False'])}{red})",
        f"F.triplet_margin_with_distance_loss(x, y, p, distance_function=lambda a, b: "
        f"(a - b).abs().sum(-1){red})",
        f"F.cosine_embedding_loss(x, y, torch.tensor({[g.pick([1, -1]) for _ in range(n)]}), "
        f"margin={g.pick([0.0, 0.5])}{red})",
        f"F.gaussian_nll_loss(x, y, p + 0.1, full={g.pick(['True', 'False'])}, "
        f"eps={g.pick([1e-6, 0.5])}{red})",
        f"F.gaussian_nll_loss(x, y, torch.ones({n}, 1){red})",
        f"F.gaussian_nll_loss(x, y, -torch.ones({n}, {c}))",
        f"F.poisson_nll_loss(x, p, log_input={g.pick(['True', 'False'])}, "
        f"full={g.pick(['True', 'False'])}{red})",
        f"F.poisson_nll_loss(x.exp(), p * 4, log_input=False, full=True{red})",
        f"F.multilabel_margin_loss(x, torch.tensor({lbl}){red})",
        f"F.multilabel_soft_margin_loss(x, p.round(), weight=torch.tensor("
        f"{_small(g, (c,), 1, 4)}){red})",
        f"F.multi_margin_loss(x, torch.tensor({[g.r.randrange(c) for _ in range(n)]}), "
        f"p={g.pick([1, 2])}, margin={g.pick([1.0, 0.5])}{red})",
        f"F.multi_margin_loss(x, torch.tensor({[g.r.randrange(c) for _ in range(n)]}), "
        f"weight=torch.tensor({_small(g, (c,), 1, 4)}){red})",
        f"F.soft_margin_loss(x, y.sign(){red})",
        f"F.hinge_embedding_loss(x, y.sign(), margin={g.pick([1.0, 0.5])}{red})",
        f"F.l1_loss(x, y{red})", f"F.mse_loss(x, y.double(){red})",
    ])


def _ctc(g: Gen) -> str:
    t_len, n, c = g.r.randint(3, 6), g.r.randint(1, 2), g.r.randint(2, 4)
    g.emit(f"x = torch.randn({t_len}, {n}, {c}).log_softmax(2).detach().requires_grad_()")
    s = g.r.randint(1, t_len - 1)
    g.emit(f"tg = torch.randint(1, {c}, ({n}, {s}))")
    il = [t_len - g.r.randint(0, 1) for _ in range(n)]
    tl = [g.r.randint(1, s) for _ in range(n)]
    red = g.pick(["", ", reduction='sum'", ", reduction='none'"])
    zi = g.pick(["", ", zero_infinity=True"])
    return g.pick([f"F.ctc_loss(x, tg, {il}, {tl}{red}{zi})",
                   f"F.ctc_loss(x, tg, torch.tensor({il}), torch.tensor({tl}){red}{zi})",
                   f"F.ctc_loss(x, tg.flatten()[:{sum(tl)}], {il}, {tl}{red})",
                   f"F.ctc_loss(x, tg, {il}, {[t_len + 3] * n}{zi})"])


def nn_functional2(g: Gen) -> None:
    """More of torch.nn.functional: resampling, grids, folding, padding modes, distances,
    attention and losses; values and gradients."""
    g.emit("import torch.nn.functional as F")
    roll = g.r.random()
    if roll < 0.2:
        expr = _interpolate(g)
    elif roll < 0.3:
        h, w = g.r.randint(1, 4), g.r.randint(1, 4)
        g.emit(f"x = torch.randn(1, {g.r.randint(1, 2)}, {h}, {w}, requires_grad=True)")
        g.emit(f"theta = torch.tensor([[[{g.pick([1.0, 0.5, -1.0])}, {g.pick([0.0, 0.25])}, "
               f"{g.pick([0.0, 0.1])}], [{g.pick([0.0, -0.3])}, {g.pick([1.0, 0.8])}, "
               f"{g.pick([0.0, 0.2])}]]], requires_grad=True)")
        ac = g.pick(["True", "False"])
        size = (1, 1, g.r.randint(1, 4), g.r.randint(1, 4))
        grid = g.pick([f"F.affine_grid(theta, {size}, align_corners={ac})",
                       f"torch.randn(1, {g.r.randint(1, 3)}, {g.r.randint(1, 3)}, 2) * 1.2"])
        expr = g.pick([
            f"F.grid_sample(x, {grid}, mode={g.pick(['bilinear', 'nearest', 'bicubic'])!r}, "
            f"padding_mode={g.pick(['zeros', 'border', 'reflection'])!r}, align_corners={ac})",
            f"F.affine_grid(theta, {size}, align_corners={ac})",
            f"F.affine_grid(theta, (1, 1, 2, 2, 2))"])
    elif roll < 0.4:
        r = g.r.randint(1, 3)
        c, h, w = g.pick([r * r, 2 * r * r, 3]), r * g.r.randint(1, 2), r * g.r.randint(1, 2)
        g.emit(f"x = torch.arange({c * h * w}.0).reshape(1, {c}, {h}, {w}).requires_grad_()")
        k = g.r.randint(1, 2)
        expr = g.pick([f"F.pixel_shuffle(x, {r})", f"F.pixel_unshuffle(x, {r})",
                       f"F.unfold(x, {k})", f"F.unfold(x, ({k}, 1), dilation={g.r.randint(1, 2)}, "
                       f"padding={g.r.randint(0, 1)}, stride={g.r.randint(1, 2)})",
                       f"F.fold(F.unfold(x, {k}), ({h}, {w}), {k})",
                       f"F.fold(F.unfold(x, 2, padding=1), ({h}, {w}), 2, padding=1)",
                       f"F.fold(x.reshape(1, {c * h}, {w}), (2, 2), 1)",
                       f"F.unfold(x[0], {k})", f"F.unfold(x, {h + w})"])
    elif roll < 0.52:
        shape = (1, g.r.randint(1, 2)) + tuple(g.r.randint(2, 4) for _ in range(g.r.randint(1, 2)))
        g.emit(f"x = torch.arange({math.prod(shape)}.0).reshape({shape}).requires_grad_()")
        nd = len(shape) - 2
        pads = tuple(g.r.randint(-1, 2) for _ in range(2 * g.r.randint(1, nd)))
        mode = g.pick(["constant", "reflect", "replicate", "circular"])
        val = f", value={g.pick([0.5, -1])}" if mode == "constant" and g.chance(0.5) else ""
        expr = g.pick([f"F.pad(x, {pads}, mode={mode!r}{val})", f"F.pad(x, {pads})",
                       f"F.pad(x, {pads[:2]}, {mode!r})", f"F.pad(x[0], {pads[:2]}, {mode!r})"])
    elif roll < 0.64:
        n, m, d = g.r.randint(1, 3), g.r.randint(1, 3), g.r.randint(1, 3)
        g.emit(f"x = torch.tensor({_small(g, (n, d))}, requires_grad=True)")
        g.emit(f"y = torch.tensor({_small(g, (g.pick([n, 1]), d))})")
        g.emit(f"z = torch.tensor({_small(g, (m, d))})")
        p = g.pick([1, 2, 3, 0, "float('inf')", 1.5])
        expr = g.pick([f"F.normalize(x, p={p}, dim={g.pick([0, 1, -1])})",
                       f"F.normalize(x, eps={g.pick([1e-12, 0.5])})",
                       f"F.cosine_similarity(x, y, dim={g.pick([0, 1, -1])})",
                       f"F.cosine_similarity(x, y, eps={g.pick([1e-8, 0.5])})",
                       f"F.cosine_similarity(x[0], z[0], 0)",
                       f"F.pairwise_distance(x, y, p={p}, keepdim={g.pick(['True', 'False'])})",
                       f"F.pairwise_distance(x, y, eps=0.0)",
                       f"F.pdist(x, p={p})", f"torch.cdist(x, z, p={p})",
                       f"torch.cdist(x, z, compute_mode="
                       f"{g.pick(['use_mm_for_euclid_dist', 'donot_use_mm_for_euclid_dist'])!r})",
                       f"torch.cdist(x.unsqueeze(0), z.unsqueeze(0))", "torch.cdist(x, x)",
                       "torch.cdist(x, z.t())"])
    elif roll < 0.76:
        b, h, lq, lk, e = 1, g.r.randint(1, 2), g.r.randint(1, 3), g.r.randint(1, 3), 2
        g.emit(f"q = torch.randn({b}, {h}, {lq}, {e}, requires_grad=True)")
        g.emit(f"k = torch.randn({b}, {h}, {lk}, {e})")
        g.emit(f"v = torch.randn({b}, {h}, {lk}, {e + g.r.randint(0, 1)})")
        mask = g.pick(["", "", f", attn_mask=torch.tensor({_small(g, (lq, lk), 0, 1, 1)}).bool()",
                       f", attn_mask=torch.tensor({_small(g, (lq, lk))})",
                       ", is_causal=True", ", attn_mask=torch.ones(1, 1).bool(), is_causal=True"])
        extra = g.pick(["", "", ", scale=0.5", ", dropout_p=0.5", ", dropout_p=1.0",
                        ", enable_gqa=False"])
        expr = f"F.scaled_dot_product_attention(q, k, v{mask}{extra})"
    elif roll < 0.9:
        expr = _losses(g)
    else:
        expr = _ctc(g)
    g.emit(f"r = {expr}")
    g.emit("print(r.shape if isinstance(r, torch.Tensor) else type(r), repr(r))")
    if g.chance(0.6):
        code = "".join(g.lines)
        leaf = "q" if "q = torch" in code else g.pick(["x", "theta"]) if "theta" in code else "x"
        g.emit(f"(r * torch.arange(1.0, r.numel() + 1).reshape(r.shape)).sum().backward(); "
               f"print({leaf}.grad, r.grad_fn.name())")


AREAS: dict[str, Callable[[Gen], None]] = {
    "shapes": shapes, "python_interop": python_interop, "autograd_ext": autograd_ext,
    "nn_functional2": nn_functional2,
}
