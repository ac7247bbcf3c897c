"""Prints shape, strides and dtype of results of many ops on a transposed (x), a permuted (p), a
sliced (s) and a size-1-column (c) input, for diffing `python tests/layout_probe.py` against
`gradsh run --quiet tests/layout_probe.py` (a result layout that differs from torch's)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.arange(1., 13.).reshape(3, 4).t() / 10
p = torch.arange(1., 25.).reshape(2, 3, 4).permute(2, 0, 1) / 30
s = torch.arange(1., 25.).reshape(4, 6)[:, ::2] / 30
c = torch.arange(1., 13.).reshape(3, 4).t()[:, :1] / 10
INPUTS = (("x", x), ("p", p), ("s", s), ("c", c))
unary = ("abs acos asin atan ceil cos cosh deg2rad digamma erf erfc erfinv exp exp2 expm1 floor "
         "frac lgamma log log10 log1p log2 logit neg rad2deg reciprocal round rsqrt sigmoid sign "
         "sin sinc sinh sqrt square tan tanh trunc relu nan_to_num signbit isfinite isinf angle "
         "positive asinh acosh atanh fix i0 isnan isreal sgn logical_not clone "
         "special.expit special.ndtr special.ndtri special.log_ndtr special.erfcx special.i0e "
         "special.i1 special.i1e special.entr special.sinc special.xlogy_half").split()
fns = {}
for n in unary:
    mod, _, attr = n.rpartition(".")
    if n == "special.xlogy_half":
        fns[n] = lambda t: torch.special.xlogy(t, 0.5)
    else:
        fns[n] = lambda t, m=(torch.special if mod else torch), a=attr: getattr(m, a)(t)
fns.update({
    "softplus": F.softplus,
    "elu": F.elu,
    "silu": F.silu,
    "mish": F.mish,
    "hardswish": F.hardswish,
    "leaky": F.leaky_relu,
    "gelu": F.gelu,
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
    "hardtanh": F.hardtanh,
    "hardsigmoid": F.hardsigmoid,
    "hardshrink": F.hardshrink,
    "softshrink": F.softshrink,
    "threshold": lambda t: F.threshold(t, 0.3, 0.0),
    "glu": lambda t: F.glu(t, 0),
    "prelu": lambda t: F.prelu(t, torch.tensor([0.25])),
    "rrelu_eval": lambda t: F.rrelu(t, training=False),
    "logsigmoid": F.logsigmoid,
    "softsign": F.softsign,
    "tanhshrink": F.tanhshrink,
    "relu6": F.relu6,
    "selu": F.selu,
    "celu": F.celu,
    "softmin": lambda t: F.softmin(t, 0),
    "normalize": lambda t: F.normalize(t, dim=0),
    "dropout0": lambda t: F.dropout(t, 0.0),
    "dropout_eval": lambda t: F.dropout(t, 0.5, training=False),
    "alpha_dropout0": lambda t: F.alpha_dropout(t, 0.0),
    "cumprod": lambda t: t.cumprod(0),
    "logcumsumexp": lambda t: t.logcumsumexp(0),
    "cummin": lambda t: t.cummin(1)[0],
    "cummax_i": lambda t: t.cummax(0)[1],
    "cummin_i": lambda t: t.cummin(0)[1],
    "sort_i": lambda t: t.sort(0)[1],
    "topk": lambda t: t.topk(1, 0)[0],
    "topk_i": lambda t: t.topk(1, 0)[1],
    "msort": torch.msort,
    "diff": lambda t: t.diff(dim=0),
    "renorm": lambda t: t.renorm(2, 0, 1),
    "clamp_min": lambda t: t.clamp(min=0.2),
    "clamp_max": lambda t: t.clamp(max=0.2),
    "clip": lambda t: t.clip(0.1, 0.3),
    "pow_t": lambda t: t.pow(t),
    "pow_2": lambda t: t ** 2,
    "pow_half": lambda t: t ** 0.5,
    "rpow": lambda t: 2 ** t,
    "pow_3": lambda t: t.pow(3),
    "atan2": lambda t: torch.atan2(t, t + 1),
    "fmod": lambda t: torch.fmod(t, 0.3),
    "rem": lambda t: t % 0.3,
    "div": lambda t: t / 3,
    "rdiv": lambda t: 1 / t,
    "sub": lambda t: 2 - t,
    "floordiv": lambda t: t // 0.1,
    "div_floor": lambda t: torch.div(t, 0.3, rounding_mode="floor"),
    "div_trunc": lambda t: torch.div(t, 0.3, rounding_mode="trunc"),
    "mul_c": lambda t: t * t.contiguous(),
    "add_c_first": lambda t: t.contiguous() + t,
    "add_alpha": lambda t: torch.add(t, t.contiguous(), alpha=2),
    "sub_c_first": lambda t: t.contiguous() - t,
    "rsub": lambda t: torch.rsub(t, 1.0),
    "div_c": lambda t: t.contiguous() / t,
    "hypot": lambda t: torch.hypot(t, t),
    "xlogy": lambda t: torch.xlogy(t, t),
    "minimum": lambda t: torch.minimum(t, t * 2),
    "minimum_c": lambda t: torch.minimum(t.contiguous(), t),
    "maximum_c": lambda t: torch.maximum(t.contiguous(), t),
    "fmax": lambda t: torch.fmax(t, t * 2),
    "fmin_c": lambda t: torch.fmin(t.contiguous(), t),
    "copysign": lambda t: torch.copysign(t, -t),
    "heaviside": lambda t: torch.heaviside(t, t),
    "lt": lambda t: t < 0.3,
    "eq_c": lambda t: t.contiguous() == t,
    "ge_c": lambda t: t.contiguous() >= t,
    "isclose": lambda t: torch.isclose(t.contiguous(), t),
    "logical_and_c": lambda t: torch.logical_and(t.contiguous(), t),
    "logical_xor": lambda t: torch.logical_xor(t, t > 0.3),
    "bitwise": lambda t: (t > 0.2) & (t < 0.5),
    "bitwise_c": lambda t: (t.contiguous() > 0.2) | (t < 0.5),
    "float16": lambda t: t.half(),
    "bool": lambda t: t.bool(),
    "to_like": lambda t: t.to(torch.float64),
    "type_as": lambda t: t.type_as(torch.tensor(1)),
    "long": lambda t: (t * 10).long(),
    "int8": lambda t: t.to(torch.int8),
    "bf16": lambda t: t.bfloat16(),
    "double_float": lambda t: t.double().float(),
    "masked_scatter": lambda t: t.masked_scatter(t > 0.3, torch.zeros(12)),
    "masked_fill": lambda t: t.masked_fill(t > 0.3, 0.),
    "masked_fill_c": lambda t: t.contiguous().masked_fill(t > 0.3, 0.),
    "index_fill": lambda t: t.index_fill(0, torch.tensor([0]), 1.),
    "scatter": lambda t: t.scatter(0, torch.zeros_like(t, dtype=torch.long), 1.),
    "scatter_add": lambda t: t.scatter_add(0, torch.zeros_like(t, dtype=torch.long), t),
    "scatter_reduce": lambda t: t.scatter_reduce(0, torch.zeros_like(t, dtype=torch.long), t,
                                                 "amax"),
    "index_add": lambda t: t.index_add(0, torch.tensor([0]), t[:1]),
    "index_copy": lambda t: t.index_copy(0, torch.tensor([0]), t[:1]),
    "index_select": lambda t: t.index_select(1, torch.tensor([0])),
    "index_put": lambda t: t.index_put((torch.tensor([0]),), torch.tensor(5.)),
    "put": lambda t: t.put(torch.tensor([0]), torch.tensor([9.])),
    "take": lambda t: t.take(torch.tensor([[0, 1]])),
    "clone_c": lambda t: t.clone(memory_format=torch.contiguous_format),
    "contiguous": lambda t: t.contiguous(),
    "tanh_": lambda t: t.clone().tanh_(),
    "mul_": lambda t: t.clone().mul_(2),
    "add_": lambda t: t.clone().add_(t.contiguous()),
    "sum0k": lambda t: t.sum(0, keepdim=True),
    "sum1k": lambda t: t.sum(1, keepdim=True),
    "sum_all": lambda t: t.sum(),
    "mean1": lambda t: t.mean(1),
    "mean0k": lambda t: t.mean(0, keepdim=True),
    "std0": lambda t: t.std(0),
    "var1k": lambda t: t.var(1, keepdim=True),
    "amax": lambda t: t.amax(1, keepdim=True),
    "amin0": lambda t: t.amin(0),
    "prod": lambda t: t.prod(0),
    "prodk": lambda t: t.prod(1, keepdim=True),
    "norm": lambda t: t.norm(dim=1),
    "normk": lambda t: t.norm(dim=0, keepdim=True),
    "vector_norm": lambda t: torch.linalg.vector_norm(t, dim=1),
    "logsumexp": lambda t: t.logsumexp(0),
    "logsumexpk": lambda t: t.logsumexp(1, keepdim=True),
    "var_mean": lambda t: torch.var_mean(t, 1)[0],
    "var_mean_m": lambda t: torch.var_mean(t, 1)[1],
    "std_mean": lambda t: torch.std_mean(t, 0)[0],
    "argmax": lambda t: t.argmax(0),
    "argmaxk": lambda t: t.argmax(1, keepdim=True),
    "max_d": lambda t: t.max(1)[0],
    "max_dk": lambda t: t.max(1, keepdim=True)[0],
    "max_i": lambda t: t.max(0)[1],
    "median": lambda t: t.median(0)[0],
    "mode": lambda t: t.mode(0)[0],
    "kth": lambda t: t.kthvalue(1, 0)[0],
    "count_nonzero": lambda t: t.count_nonzero(0),
    "all": lambda t: (t > 0).all(1),
    "anyk": lambda t: (t > 0.3).any(0, keepdim=True),
    "nansum": lambda t: t.nansum(1),
    "aminmax": lambda t: torch.aminmax(t, dim=0)[0],
    "softmax0": lambda t: t.softmax(0),
    "softmax1": lambda t: t.softmax(1),
    "log_softmax1": lambda t: t.log_softmax(1),
    "log_softmax0": lambda t: t.log_softmax(0),
    "matmul_t": lambda t: t @ t.transpose(0, 1) if t.dim() == 2 else t @ t.transpose(1, 2),
    "outer": lambda t: t.reshape(-1)[:3].outer(t.reshape(-1)[:2]),
    "einsum": lambda t: torch.einsum("ij->ji", t) if t.dim() == 2 else torch.einsum("ijk->kji", t),
    "cat": lambda t: torch.cat([t, t], 0),
    "cat1": lambda t: torch.cat([t, t], 1),
    "stack": lambda t: torch.stack([t, t]),
    "narrow_copy": lambda t: t.narrow(0, 0, 2).clone(),
    "expand_clone": lambda t: t[:1].expand(3, *t.shape[1:]).clone(),
    "expand_exp": lambda t: t[:1].expand(3, *t.shape[1:]).exp(),
    "expand_add": lambda t: t[:1].expand(3, *t.shape[1:]) + t[:3],
    "bcast_row": lambda t: t + t[:1],
    "bcast_row_first": lambda t: t[:1] + t,
    "bcast_col": lambda t: t * t[..., :1],
    "bcast_vec": lambda t: t + torch.ones(t.shape[-1]),
    "bcast_vec_first": lambda t: torch.ones(t.shape[-1]) - t,
    "bcast_0d": lambda t: t * torch.tensor(2.),
    "zeros_like": torch.zeros_like,
    "empty_like_s": lambda t: torch.full_like(t, 2.),
    "mse_none": lambda t: F.mse_loss(t, t * 2, reduction="none"),
    "l1_none": lambda t: F.l1_loss(t, t.contiguous(), reduction="none"),
    "smooth_l1_none": lambda t: F.smooth_l1_loss(t, t * 2, reduction="none"),
    "huber_none": lambda t: F.huber_loss(t, t * 2, reduction="none"),
    "bce": lambda t: F.binary_cross_entropy(t.clamp(0.1, 0.9), t.clamp(0.1, 0.9) * 0.5,
                                            reduction="none"),
    "bce_logits": lambda t: F.binary_cross_entropy_with_logits(t, t * 0.5, reduction="none"),
    "kl_none": lambda t: F.kl_div(t, t * 0.5, reduction="none"),
    "soft_margin": lambda t: F.soft_margin_loss(t, t.sign(), reduction="none"),
    "poisson_nll": lambda t: F.poisson_nll_loss(t, t * 2, reduction="none"),
    "gaussian_nll": lambda t: F.gaussian_nll_loss(t, t * 2, t + 1, reduction="none"),
    "where_scalar": lambda t: torch.where(t > 0.3, 1.0, t),
    "where_other_first": lambda t: torch.where(t > 0.3, t.contiguous(), t),
    "where_cond_c": lambda t: torch.where((t > 0.3).contiguous(), t, t),
    "clamp_t": lambda t: t.clamp(t * 0.5, t * 2),
    "nan_mean": lambda t: t.nanmean(0),
    "trapz": lambda t: torch.trapezoid(t, dim=0),
    "cross": lambda t: torch.linalg.cross(t[:3], t[:3], dim=0),
    "diag_embed": lambda t: torch.diag_embed(t)[..., 0, 0],
    "lerp_t": lambda t: torch.lerp(t, t, t),
    "lerp_c": lambda t: torch.lerp(t.contiguous(), t, 0.5),
    "addcmul_c": lambda t: torch.addcmul(t.contiguous(), t, t),
    "addcdiv": lambda t: torch.addcdiv(t, t, t + 1),
    "bucketize": lambda t: torch.bucketize(t, torch.tensor([0.2, 0.5])),
    "histc": lambda t: torch.histc(t, 4),
    "out_exp": lambda t: torch.exp(t, out=torch.empty(0)),
    "out_add": lambda t: torch.add(t, 1, out=torch.empty(0)),
    "exp_grad": lambda t: _grad(t, lambda v: v.exp().sum()),
    "mul_grad": lambda t: _grad(t, lambda v: (v * v.contiguous()).sum()),
    "nonleaf_grad": lambda t: _nonleaf_grad(t),
    "sum_grad": lambda t: _grad(t, lambda v: v.sum()),
    "mean_grad": lambda t: _grad(t, lambda v: v.mean(0).sum()),
    "softmax_grad": lambda t: _grad(t, lambda v: (v.softmax(0) * v.detach()).sum()),
    "tanh_grad": lambda t: _grad(t, lambda v: (v.tanh() * v.detach()).sum()),
    "grad_twice": lambda t: _grad(t, lambda v: v.exp().sum(), 2),
    "grad_graph": lambda t: _grad(t, lambda v: (v * v).sum(), 1, True),
    "mse_grad": lambda t: _grad(t, lambda v: F.mse_loss(v, v.detach() * 2)),
    "relu_grad": lambda t: _grad(t, lambda v: (F.relu(v - 0.3) * v.detach()).sum()),
    "sigmoid_grad": lambda t: _grad(t, lambda v: (v.sigmoid() * v.detach()).sum()),
    "rand_like": torch.rand_like,
    "randn_like": torch.randn_like,
    "bernoulli": lambda t: torch.bernoulli(t),
    "dropout": lambda t: F.dropout(t, 0.5),
})


def _grad(t, loss, times=1, graph=False):
    leaf = t.detach().requires_grad_()
    for _ in range(times):
        loss(leaf).backward(create_graph=graph)
    return leaf.grad


def _nonleaf_grad(t):
    mid = t.detach().requires_grad_() * 2
    mid.retain_grad()
    (mid.exp() * mid.detach()).sum().backward()
    return mid.grad


for name, f in fns.items():
    for nm, t in INPUTS:
        try:
            r = f(t)
            print(name, nm, tuple(r.shape), r.stride(), r.dtype)
        except Exception as e:
            print(name, nm, type(e).__name__, str(e)[:80])

# nn layers on transposed / permuted / channels-last inputs


def _cl(*shape):
    return torch.randn(*shape).contiguous(memory_format=torch.channels_last)


layers = {
    "linear": (nn.Linear(3, 2), torch.randn(3, 4).t()),
    "linear3": (nn.Linear(2, 5), torch.randn(4, 2, 3).permute(0, 2, 1)),
    "conv2d_cl": (nn.Conv2d(3, 4, 3), _cl(2, 3, 6, 6)),
    "conv2d_p": (nn.Conv2d(3, 4, 3), torch.randn(2, 6, 6, 3).permute(0, 3, 2, 1)),
    "bn2d_cl": (nn.BatchNorm2d(3), _cl(2, 3, 4, 4)),
    "bn1d_t": (nn.BatchNorm1d(3), torch.randn(3, 5).t()),
    "ln_t": (nn.LayerNorm(3), torch.randn(3, 5).t()),
    "maxpool_cl": (nn.MaxPool2d(2), _cl(2, 3, 4, 4)),
    "avgpool_cl": (nn.AvgPool2d(2), _cl(2, 3, 4, 4)),
    "relu_cl": (nn.ReLU(), _cl(2, 3, 4, 4)),
    "gelu_cl": (nn.GELU(), _cl(2, 3, 4, 4)),
    "dropout_cl": (nn.Dropout(0.5), _cl(2, 3, 4, 4)),
    "softmax_cl": (nn.Softmax(1), _cl(2, 3, 4, 4)),
    "flatten_cl": (nn.Flatten(), _cl(2, 3, 4, 4)),
    "embedding": (nn.Embedding(5, 3), torch.tensor([[0, 1], [2, 3]]).t()),
}
for name, (layer, inp) in layers.items():
    torch.manual_seed(1)
    try:
        r = layer(inp)
        print(name, tuple(r.shape), r.stride(), r.dtype)
        if inp.is_floating_point():
            inp2 = inp.detach().clone(memory_format=torch.preserve_format).requires_grad_()
            layer(inp2).sum().backward()
            print(name, "grad", inp2.grad.stride())
    except Exception as e:
        print(name, type(e).__name__, str(e)[:80])

# channels-last pointwise and broadcasting
cl = torch.randn(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
bias = torch.randn(1, 3, 1, 1)
more = {
    "cl_exp": lambda: cl.exp(),
    "cl_add_bias": lambda: cl + bias,
    "cl_bias_first": lambda: bias + cl,
    "cl_plus_c": lambda: cl + cl.contiguous(),
    "c_plus_cl": lambda: cl.contiguous() + cl,
    "cl_scalar": lambda: cl * 2,
    "cl_clone": lambda: cl.clone(),
    "cl_sum1": lambda: cl.sum(1, keepdim=True),
    "cl_mean23": lambda: cl.mean((2, 3), keepdim=True),
    "cl_where": lambda: torch.where(cl > 0, cl, 0.),
    "cl_to": lambda: cl.double(),
    "cl_rand_like": lambda: torch.rand_like(cl),
    "cl_softmax": lambda: cl.softmax(1),
    "size1_exp": lambda: torch.randn(3, 4).t()[:, :1].exp(),
    "size1_mul": lambda: torch.randn(3, 4).t()[:, :1] * 2,
    "size1_clone": lambda: torch.randn(3, 4).t()[:, :1].clone(),
    "size1_add": lambda: torch.randn(3, 4).t()[:, :1] + torch.ones(4, 1),
    "unsq_t": lambda: torch.randn(3, 4).t().unsqueeze(1) * 2,
    "unsq_t_exp": lambda: torch.randn(3, 4).t().unsqueeze(1).exp(),
    "mixed3": lambda: torch.randn(2, 3, 4).permute(2, 0, 1) + torch.randn(4, 3, 2).permute(0, 2, 1),
    "outer_bcast": lambda: torch.randn(3, 1) * torch.randn(1, 4),
    "outer_bcast_t": lambda: torch.randn(1, 3).t() * torch.randn(4, 1).t(),
}
for name, f in more.items():
    torch.manual_seed(2)
    try:
        r = f()
        print(name, tuple(r.shape), r.stride(), r.dtype)
    except Exception as e:
        print(name, type(e).__name__, str(e)[:80])

# a second round: F.* functions, matrix products, mixed broadcasts, in-place ops
y = torch.arange(1., 25.).reshape(4, 6).t()[:, :4] / 30  # (6, 4)[:, :4]: (4, 4) strides (1, 6)
q = torch.arange(1., 49.).reshape(2, 4, 6).permute(0, 2, 1)[:, :4] / 50  # (2, 4, 4)
img = torch.arange(1., 97.).reshape(2, 4, 4, 3).permute(0, 3, 1, 2) / 100  # NHWC strides
ROUND2 = (("y", y), ("q", q), ("img", img))
fns2 = {
    "layer_norm": lambda t: F.layer_norm(t, t.shape[-1:]),
    "group_norm": lambda t: F.group_norm(t, 1) if t.dim() > 2 else F.group_norm(t, 1),
    "pad": lambda t: F.pad(t, (1, 1)),
    "pad_reflect": lambda t: F.pad(t, (1, 1), mode="reflect"),
    "interp": lambda t: F.interpolate(t, scale_factor=2) if t.dim() == 4 else t * 1,
    "softmax_last": lambda t: F.softmax(t, -1),
    "log_softmax_0": lambda t: F.log_softmax(t, 0),
    "cross_entropy_none": lambda t: F.cross_entropy(t, torch.zeros(t.shape[0], *t.shape[2:],
                                                                  dtype=torch.long),
                                                    reduction="none"),
    "nll_none": lambda t: F.nll_loss(t, torch.zeros(t.shape[0], *t.shape[2:], dtype=torch.long),
                                     reduction="none"),
    "cosine_sim": lambda t: F.cosine_similarity(t, t + 1, dim=-1),
    "pairwise": lambda t: F.pairwise_distance(t, t + 1),
    "one_hot": lambda t: F.one_hot((t * 10).long() % 3, 3).float(),
    "embedding_t": lambda t: F.embedding((t * 10).long() % 5, torch.randn(5, 2)),
    "matmul": lambda t: t @ t,
    "mm_t": lambda t: t.reshape(-1, t.shape[-1]).t() @ t.reshape(-1, t.shape[-1]),
    "addmm": lambda t: torch.addmm(t.reshape(-1, t.shape[-1])[:4, :4], t.reshape(-1, 4)[:4],
                                   t.reshape(-1, 4)[:4]),
    "bmm": lambda t: torch.bmm(t.reshape(-1, 4, 4)[:2], t.reshape(-1, 4, 4)[:2]),
    "linear_f": lambda t: F.linear(t, torch.ones(3, t.shape[-1]), torch.ones(3)),
    "logaddexp": lambda t: torch.logaddexp(t, t.contiguous()),
    "lerp_bcast": lambda t: torch.lerp(t, t[..., :1], 0.3),
    "masked_fill_bcast": lambda t: t.masked_fill(t[..., :1] > 0.2, 0.),
    "clamp_bcast": lambda t: t.clamp(min=t[..., :1]),
    "where_bcast": lambda t: torch.where(t[..., :1] > 0.2, t, t.contiguous()),
    "add_bcast_c": lambda t: t.contiguous()[..., :1] + t,
    "mul_bcast_t": lambda t: t * t[..., :1].contiguous(),
    "sub_inplace": lambda t: t.clone().sub_(t[..., :1]),
    "addcmul_bcast": lambda t: torch.addcmul(t[..., :1], t, t.contiguous()),
    "relu_inplace": lambda t: F.relu(t.clone(), inplace=True),
    "exp_inplace": lambda t: t.clone().exp_(),
    "tril": lambda t: t.tril(),
    "triu_inplace": lambda t: t.clone().triu_(),
    "diag": lambda t: torch.diagonal(t, 0, -2, -1).clone(),
    "roll": lambda t: t.roll(1, -1),
    "repeat_interleave": lambda t: t.repeat_interleave(2, dim=0),
    "unfold": lambda t: t.unfold(-1, 2, 1).clone(),
    "flatten_clone": lambda t: t.flatten().clone(),
    "movedim_exp": lambda t: t.movedim(0, -1).exp(),
    "mean_grad": lambda t: _grad(t, lambda v: v.mean()),
    "ln_grad": lambda t: _grad(t, lambda v: F.layer_norm(v, v.shape[-1:]).pow(2).sum()),
    "matmul_grad": lambda t: _grad(t, lambda v: (v @ v).sum()),
    "softmax_last_grad": lambda t: _grad(t, lambda v: (F.softmax(v, -1) * v.detach()).sum()),
    "sum_dim_grad": lambda t: _grad(t, lambda v: v.sum(-1).pow(2).sum()),
    "amax_grad": lambda t: _grad(t, lambda v: v.amax(-1).sum()),
    "where_grad": lambda t: _grad(t, lambda v: torch.where(v > 0.2, v, v * 2).sum()),
}
for name, f in fns2.items():
    for nm, t in ROUND2:
        torch.manual_seed(3)
        try:
            r = f(t)
            print(name, nm, tuple(r.shape), r.stride(), r.dtype)
        except Exception as e:
            print(name, nm, type(e).__name__, str(e)[:80])
