# Corpus program, written for gradsh (no code copied). Modelled on the rotary position
# embeddings of Meta's LLaMA reference implementation, llama/model.py
# (https://github.com/meta-llama/llama/blob/main/llama/model.py): precompute_freqs_cis
# (torch.outer of positions and inverse frequencies, torch.polar of ones and those angles),
# reshape_for_broadcast, and apply_rotary_emb (view_as_complex of the query/key pairs, a
# complex multiply, view_as_real, flatten, type_as), inside a small attention step.
# Differences: tiny sizes (dim 16, 2 heads, 5 positions), a seed, random projections instead of
# a checkpoint, and the printed checks (shapes, dtypes, norms preserved by the rotation,
# gradients of the projections after one backward).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def reshape_for_broadcast(freqs_cis, x):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


dim, n_heads, seqlen, bsz = 16, 2, 5, 2
head_dim = dim // n_heads
freqs_cis = precompute_freqs_cis(head_dim, seqlen * 2)
print("freqs_cis:", freqs_cis.shape, freqs_cis.dtype)
print(freqs_cis[:3])
print("angles:", freqs_cis[1].angle())
print("magnitudes all one:", torch.allclose(freqs_cis.abs(), torch.ones(())))

wq = nn.Linear(dim, dim, bias=False)
wk = nn.Linear(dim, dim, bias=False)
wv = nn.Linear(dim, dim, bias=False)
x = torch.randn(bsz, seqlen, dim)
xq = wq(x).view(bsz, seqlen, n_heads, head_dim)
xk = wk(x).view(bsz, seqlen, n_heads, head_dim)
xv = wv(x).view(bsz, seqlen, n_heads, head_dim)
xq_r, xk_r = apply_rotary_emb(xq, xk, freqs_cis[:seqlen])
print("rotated:", xq_r.shape, xq_r.dtype, xq_r.grad_fn)
print(xq_r[0, 1, 0])
print("norms kept:", torch.allclose(xq_r.norm(dim=-1), xq.norm(dim=-1), atol=1e-6))
print("position 0 unchanged:", torch.equal(xq_r[:, 0], xq[:, 0]))

q, k, v = (t.transpose(1, 2) for t in (xq_r, xk_r, xv))
scores = q @ k.transpose(2, 3) / math.sqrt(head_dim)
mask = torch.full((seqlen, seqlen), float("-inf")).triu(1)
out = (F.softmax(scores + mask, dim=-1) @ v).transpose(1, 2).reshape(bsz, seqlen, dim)
loss = out.pow(2).mean()
print("loss:", loss)
loss.backward()
print("wq grad norm:", wq.weight.grad.norm())
print("wk grad:", wk.weight.grad[0, :6])

# the relative-position property: <R(m) q, R(n) k> depends on m - n only
qv = torch.randn(1, 1, 1, head_dim).expand(1, seqlen, 1, head_dim)
kv = torch.randn(1, 1, 1, head_dim).expand(1, seqlen, 1, head_dim)
rq, rk = apply_rotary_emb(qv, kv, freqs_cis[:seqlen])
dots = torch.einsum("bshd,bthd->st", rq, rk)
print("diagonals:", dots.diagonal(1), dots.diagonal(-2))
