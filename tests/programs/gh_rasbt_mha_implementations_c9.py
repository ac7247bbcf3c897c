# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# "LLMs from Scratch", ch03 bonus notebook "Efficient multi-head attention implementations"
# (Apache-2.0): https://github.com/rasbt/LLMs-from-scratch/blob/main/ch03/02_bonus_efficient-multihead-attention/mha-implementations.ipynb
# Like the original: one random batch of embeddings; Ch03_MHA_Wrapper (a ModuleList of causal
# single-head attentions, cat), Ch03_MHA (register_buffer of a triu mask, masked_fill_ with
# -torch.inf, softmax of scores / head_dim**0.5, view/transpose/contiguous), the combined-QKV
# version (one Linear, view(b, n, 3, heads, head_dim).permute(2, 0, 3, 1, 4), unbind),
# MHAEinsum (nn.Parameter weights with kaiming_uniform_(a=sqrt(5)) and einsum), the
# F.scaled_dot_product_attention versions with is_causal=True and with an explicit boolean
# mask, and MHAPyTorchClass around nn.MultiheadAttention(batch_first=True) with a boolean
# attn_mask and need_weights=False; each model built after torch.manual_seed(123) and its
# output shape printed; the test file's weight copying between Ch03_MHA and MHAEinsum.
# Differences: tiny sizes (batch 2, 6 tokens, d_in = d_out = 16, 4 heads) instead of
# 8 x 1024 x 768; outputs printed with 4 decimals and compared with allclose; no timings.
import math

import torch
import torch.nn as nn

torch.manual_seed(123)
batch_size = 2
context_len = 6
embed_dim = 16
d_out = 16
embeddings = torch.randn((batch_size, context_len, embed_dim))
print(embeddings.shape)


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        attn_scores = queries @ keys.transpose(1, 2)
        attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        return attn_weights @ values


class Ch03_MHA_Wrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads)])
        self.out_proj = nn.Linear(d_out * num_heads, d_out * num_heads)

    def forward(self, x):
        context_vec = torch.cat([head(x) for head in self.heads], dim=-1)
        return self.out_proj(context_vec)


class Ch03_MHA(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        values = self.W_value(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)


class MultiHeadAttentionCombinedQKV(nn.Module):
    def __init__(self, d_in, d_out, num_heads, context_length, dropout=0.0, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "embed_dim is indivisible by num_heads"
        self.num_heads = num_heads
        self.context_length = context_length
        self.head_dim = d_out // num_heads
        self.qkv = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)
        self.proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        batch_size, num_tokens, embed_dim = x.shape
        qkv = self.qkv(x)
        qkv = qkv.view(batch_size, num_tokens, 3, self.num_heads, self.head_dim)
        qkv = qkv.permute(2, 0, 3, 1, 4)
        queries, keys, values = qkv.unbind(0)
        attn_scores = queries @ keys.transpose(-2, -1)
        attn_scores = attn_scores.masked_fill(
            self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = attn_weights @ values
        context_vec = context_vec.transpose(1, 2)
        context_vec = context_vec.contiguous().view(batch_size, num_tokens, self.num_heads * self.head_dim)
        return self.proj(context_vec)


class MHAEinsum(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Parameter(torch.randn(d_in, d_out))
        self.W_key = nn.Parameter(torch.randn(d_in, d_out))
        self.W_value = nn.Parameter(torch.randn(d_in, d_out))
        if qkv_bias:
            self.bias_q = nn.Parameter(torch.zeros(d_out))
            self.bias_k = nn.Parameter(torch.zeros(d_out))
            self.bias_v = nn.Parameter(torch.zeros(d_out))
        else:
            self.register_parameter("bias_q", None)
            self.register_parameter("bias_k", None)
            self.register_parameter("bias_v", None)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.W_query, a=math.sqrt(5))
        nn.init.kaiming_uniform_(self.W_key, a=math.sqrt(5))
        nn.init.kaiming_uniform_(self.W_value, a=math.sqrt(5))
        if self.bias_q is not None:
            fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.W_query)
            bound = 1 / math.sqrt(fan_in)
            nn.init.uniform_(self.bias_q, -bound, bound)
            nn.init.uniform_(self.bias_k, -bound, bound)
            nn.init.uniform_(self.bias_v, -bound, bound)

    def forward(self, x):
        b, n, _ = x.shape
        Q = torch.einsum("bnd,di->bni", x, self.W_query)
        K = torch.einsum("bnd,di->bni", x, self.W_key)
        V = torch.einsum("bnd,di->bni", x, self.W_value)
        if self.bias_q is not None:
            Q += self.bias_q
            K += self.bias_k
            V += self.bias_v
        Q = Q.view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        K = K.view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        V = V.view(b, n, self.num_heads, self.head_dim).transpose(1, 2)
        scores = torch.einsum("bhnd,bhmd->bhnm", Q, K) / (self.head_dim ** 0.5)
        mask = self.mask[:n, :n].unsqueeze(0).unsqueeze(1).expand(b, self.num_heads, n, n)
        scores = scores.masked_fill(mask.bool(), -torch.inf)
        attn_weights = torch.softmax(scores, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = torch.einsum("bhnm,bhmd->bhnd", attn_weights, V)
        context_vec = context_vec.transpose(1, 2).reshape(b, n, self.d_out)
        return self.out_proj(context_vec)


class MHAPyTorchScaledDotProduct(nn.Module):
    def __init__(self, d_in, d_out, num_heads, context_length, dropout=0.0, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "embed_dim is indivisible by num_heads"
        self.num_heads = num_heads
        self.context_length = context_length
        self.head_dim = d_out // num_heads
        self.d_out = d_out
        self.qkv = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)
        self.proj = nn.Linear(d_out, d_out)
        self.dropout = dropout

    def forward(self, x):
        batch_size, num_tokens, embed_dim = x.shape
        qkv = self.qkv(x)
        qkv = qkv.view(batch_size, num_tokens, 3, self.num_heads, self.head_dim)
        qkv = qkv.permute(2, 0, 3, 1, 4)
        queries, keys, values = qkv
        use_dropout = 0. if not self.training else self.dropout
        context_vec = nn.functional.scaled_dot_product_attention(
            queries, keys, values, attn_mask=None, dropout_p=use_dropout, is_causal=True)
        context_vec = context_vec.transpose(1, 2).contiguous().view(batch_size, num_tokens, self.d_out)
        return self.proj(context_vec)


class MHAPyTorchSDPAWithoutFlash(nn.Module):
    def __init__(self, d_in, d_out, num_heads, context_length, dropout=0.0, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "embed_dim is indivisible by num_heads"
        self.num_heads = num_heads
        self.context_length = context_length
        self.head_dim = d_out // num_heads
        self.d_out = d_out
        self.qkv = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)
        self.proj = nn.Linear(d_out, d_out)
        self.dropout = dropout
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        batch_size, num_tokens, embed_dim = x.shape
        qkv = self.qkv(x)
        qkv = qkv.view(batch_size, num_tokens, 3, self.num_heads, self.head_dim)
        qkv = qkv.permute(2, 0, 3, 1, 4)
        queries, keys, values = qkv
        use_dropout = 0. if not self.training else self.dropout
        if self.context_length >= num_tokens:
            attn_mask = self.mask[:num_tokens, :num_tokens]
        else:
            attn_mask = self.mask[:self.context_length, :self.context_length]
        context_vec = nn.functional.scaled_dot_product_attention(
            queries, keys, values, attn_mask=~attn_mask, dropout_p=use_dropout, is_causal=False)
        context_vec = context_vec.transpose(1, 2).contiguous().view(batch_size, num_tokens, self.d_out)
        return self.proj(context_vec)


class MHAPyTorchClass(nn.Module):
    def __init__(self, d_in, d_out, num_heads, context_length, dropout=0.0, qkv_bias=False, need_weights=True):
        super().__init__()
        self.context_length = context_length
        self.multihead_attn = nn.MultiheadAttention(
            embed_dim=d_out, num_heads=num_heads, dropout=dropout, bias=qkv_bias,
            add_bias_kv=qkv_bias, batch_first=True)
        self.need_weights = need_weights
        self.proj = nn.Linear(d_out, d_out)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        batch_size, num_tokens, _ = x.shape
        if self.context_length >= num_tokens:
            attn_mask = self.mask[:num_tokens, :num_tokens]
        else:
            attn_mask = self.mask[:self.context_length, :self.context_length]
        attn_output, _ = self.multihead_attn(x, x, x, attn_mask=attn_mask, need_weights=self.need_weights)
        return self.proj(attn_output)


def show(name, model, x):
    out = model(x)
    print(name, out.shape, out.grad_fn.name())
    print(out[0, :3].detach().round(decimals=4))
    return out


torch.manual_seed(123)
mha_ch03_wrapper = Ch03_MHA_Wrapper(d_in=embed_dim, d_out=d_out // 4, context_length=context_len,
                                    dropout=0.0, num_heads=4, qkv_bias=False)
show("Ch03_MHA_Wrapper", mha_ch03_wrapper, embeddings)
torch.manual_seed(123)
mha_ch03 = Ch03_MHA(d_in=embed_dim, d_out=d_out, context_length=context_len, dropout=0.0,
                    num_heads=4, qkv_bias=False)
out_ch03 = show("Ch03_MHA", mha_ch03, embeddings)
torch.manual_seed(123)
mha_combined_qkv = MultiHeadAttentionCombinedQKV(d_in=embed_dim, d_out=d_out, context_length=context_len,
                                                 dropout=0.0, num_heads=4, qkv_bias=False)
show("CombinedQKV", mha_combined_qkv, embeddings)
torch.manual_seed(123)
mha_einsum = MHAEinsum(d_in=embed_dim, d_out=d_out, context_length=context_len, dropout=0.0,
                       num_heads=4, qkv_bias=False)
show("MHAEinsum", mha_einsum, embeddings)
with torch.no_grad():
    mha_einsum.W_query.copy_(mha_ch03.W_query.weight.T)
    mha_einsum.W_key.copy_(mha_ch03.W_key.weight.T)
    mha_einsum.W_value.copy_(mha_ch03.W_value.weight.T)
    mha_einsum.out_proj.weight.copy_(mha_ch03.out_proj.weight)
    mha_einsum.out_proj.bias.copy_(mha_ch03.out_proj.bias)
out_einsum = mha_einsum(embeddings)
print("einsum == ch03:", torch.allclose(out_ch03, out_einsum, atol=1e-5),
      (out_ch03 - out_einsum).abs().max().item() < 1e-5)
torch.manual_seed(123)
mha_pytorch_scaled = MHAPyTorchScaledDotProduct(d_in=embed_dim, d_out=d_out, context_length=context_len,
                                                dropout=0.0, num_heads=4, qkv_bias=False)
out_sdpa = show("SDPA causal", mha_pytorch_scaled, embeddings)
print(out_sdpa[1, -1])
torch.manual_seed(123)
mha_pytorch_sdpa_no_flash = MHAPyTorchSDPAWithoutFlash(d_in=embed_dim, d_out=d_out, context_length=context_len,
                                                       dropout=0.0, num_heads=4, qkv_bias=False)
out_mask = show("SDPA mask", mha_pytorch_sdpa_no_flash, embeddings)
print(torch.allclose(out_sdpa, out_mask, atol=1e-6))
for need_weights in (True, False):
    torch.manual_seed(123)
    mha_pytorch_class = MHAPyTorchClass(d_in=embed_dim, d_out=d_out, context_length=context_len,
                                        dropout=0.0, num_heads=4, qkv_bias=False,
                                        need_weights=need_weights)
    out = show(f"nn.MultiheadAttention need_weights={need_weights}", mha_pytorch_class, embeddings)
    mha_pytorch_class.eval()
    with torch.no_grad():
        out_eval = mha_pytorch_class(embeddings)
    print(out_eval.shape, out_eval.is_contiguous(), torch.allclose(out, out_eval, atol=1e-6))
x = torch.randn(1, 4, 12)
x_with_changed_future = x.clone()
x_with_changed_future[:, 2:] += 10
model = MHAPyTorchSDPAWithoutFlash(d_in=12, d_out=12, context_length=4, dropout=0.0, num_heads=3).eval()
out, changed = model(x), model(x_with_changed_future)
print(torch.allclose(out[:, :2], changed[:, :2], atol=1e-5), out[0, :2])
out.sum().backward()
print(model.qkv.weight.grad.norm())
