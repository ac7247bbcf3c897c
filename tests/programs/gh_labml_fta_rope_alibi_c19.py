# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated
# implementations (MIT licence) and their _test() functions:
# labml_nn/activations/fta/__init__.py (Fuzzy Tiling Activation: a non-trainable
# nn.Parameter(torch.arange(l, u, delta), requires_grad=False) tiling vector, the fuzzy
# indicator (x <= eta) * x + (x > eta) mixing bool and float tensors, torch.clip(min=0.0)),
# labml_nn/transformers/rope/__init__.py (RotaryPositionalEmbeddings: theta from
# base ** (arange(0, d, 2).float() / d), einsum('n,d->nd'), cos/sin caches [:, None, None, :],
# the _neg_half rotation with cat) and labml_nn/transformers/alibi/__init__.py (get_slopes
# with torch.pow(float, int arange) for 8 and 12 heads, get_alibi_biases from the cumsum of a
# boolean subsequent_mask from labml_nn/transformers/utils.py):
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/activations/fta
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/transformers/rope
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/transformers/alibi
# Differences: print() in place of labml's inspect(); an FTA gradient check and a small
# RoPE property check (rotated dot products depend only on the offset) added; seeded.
import math

import torch
from torch import nn


class FTA(nn.Module):
    def __init__(self, lower_limit, upper_limit, delta, eta):
        super().__init__()
        self.c = nn.Parameter(torch.arange(lower_limit, upper_limit, delta), requires_grad=False)
        self.expansion_factor = len(self.c)
        self.delta = delta
        self.eta = eta

    def fuzzy_i_plus(self, x):
        return (x <= self.eta) * x + (x > self.eta)

    def forward(self, z):
        z = z.view(*z.shape, 1)
        z = 1.0 - self.fuzzy_i_plus(torch.clip(self.c - z, min=0.0) +
                                    torch.clip(z - self.delta - self.c, min=0.0))
        return z.view(*z.shape[:-2], -1)


a = FTA(-10, 10, 2.0, 0.5)
print(a.c)
print(a.expansion_factor)
z = torch.tensor([1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8, 9.0, 10.0, 11.0])
print(z)
out = a(z)
print(out.shape)
print(out.view(11, -1))
print(a)
print(list(a.named_parameters()))
torch.manual_seed(0)
zz = (torch.randn(2, 3) * 4).requires_grad_()
y = a(zz)
print(y.shape, y.grad_fn)
y.sum().backward()
print(zz.grad)


class RotaryPositionalEmbeddings(nn.Module):
    def __init__(self, d, base=10000):
        super().__init__()
        self.base = base
        self.d = d
        self.cos_cached = None
        self.sin_cached = None

    def _build_cache(self, x):
        if self.cos_cached is not None and x.shape[0] <= self.cos_cached.shape[0]:
            return
        seq_len = x.shape[0]
        theta = 1. / (self.base ** (torch.arange(0, self.d, 2).float() / self.d)).to(x.device)
        seq_idx = torch.arange(seq_len, device=x.device).float().to(x.device)
        idx_theta = torch.einsum('n,d->nd', seq_idx, theta)
        idx_theta2 = torch.cat([idx_theta, idx_theta], dim=1)
        self.cos_cached = idx_theta2.cos()[:, None, None, :]
        self.sin_cached = idx_theta2.sin()[:, None, None, :]

    def _neg_half(self, x):
        d_2 = self.d // 2
        return torch.cat([-x[:, :, :, d_2:], x[:, :, :, :d_2]], dim=-1)

    def forward(self, x):
        self._build_cache(x)
        seq_len = x.shape[0]
        x_rope, x_pass = x[..., :self.d], x[..., self.d:]
        neg_half_x = self._neg_half(x_rope)
        x_rope = (x_rope * self.cos_cached[:seq_len]) + (neg_half_x * self.sin_cached[:seq_len])
        return torch.cat((x_rope, x_pass), dim=-1)


x = torch.tensor([[1, 2, 3, 4], [4, 5, 6, 7], [7, 8, 9, 10]], dtype=torch.float)
x = x[:, None, None, :]
print(x)
rotary_pe = RotaryPositionalEmbeddings(4)
print(rotary_pe(x))
print(rotary_pe.cos_cached.shape, rotary_pe.sin_cached.dtype)

# partial rotation (half of the features) on random queries and keys
rope = RotaryPositionalEmbeddings(8)
q = torch.randn(1, 1, 1, 12).expand(6, 1, 1, 12)
k = torch.randn(1, 1, 1, 12).expand(6, 1, 1, 12)
rq, rk = rope(q), rope(k)
scores = torch.einsum('ibhd,jbhd->ijbh', rq, rk)[:, :, 0, 0]
print(scores)
print(torch.diagonal(scores, 1), torch.diagonal(scores, -2))
print(torch.allclose(torch.diagonal(scores, 1), torch.diagonal(scores, 1)[0].expand(5), atol=1e-4))


def get_slopes(n_heads):
    n = 2 ** math.floor(math.log2(n_heads))
    m_0 = 2.0 ** (-8.0 / n)
    m = torch.pow(m_0, torch.arange(1, 1 + n))
    if n < n_heads:
        m_hat_0 = 2.0 ** (-4.0 / n)
        m_hat = torch.pow(m_hat_0, torch.arange(1, 1 + 2 * (n_heads - n), 2))
        m = torch.cat([m, m_hat])
    return m


@torch.no_grad()
def get_alibi_biases(n_heads, mask):
    m = get_slopes(n_heads).to(mask.device)
    distance = mask.cumsum(dim=-1)
    return distance[:, :, None] * m[None, None, :]


def subsequent_mask(seq_len):
    return torch.tril(torch.ones(seq_len, seq_len)).to(torch.bool).unsqueeze(-1)


print(get_slopes(8))
print(get_slopes(12).tolist())
print(get_slopes(12).dtype)
mask = subsequent_mask(8)[:, :, 0]
print(mask)
print(mask.cumsum(dim=-1))
print(get_alibi_biases(12, mask)[:, :, 3].tolist())
biases = get_alibi_biases(12, mask)
print(biases.shape, biases.dtype, biases.requires_grad)
print(biases[-1, :, ::4])
