# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch docs of
# torch.nn.MultiheadAttention, torch.nn.functional.scaled_dot_product_attention and
# nn.Transformer (their docstring examples), BSD-3:
# https://pytorch.org/docs/stable/generated/torch.nn.MultiheadAttention.html
# https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html
# Like the docs: `multihead_attn = nn.MultiheadAttention(embed_dim, num_heads)` then
# `attn_output, attn_output_weights = multihead_attn(query, key, value)`; the SDPA reference
# implementation (scale, causal mask via tril, bool masks, softmax, dropout) compared with
# F.scaled_dot_product_attention; nn.Transformer(nhead=..., num_encoder_layers=...) on random
# src and tgt.
# Differences: small sizes; prints shapes, grad_fn names, rounded values and masks; kdim/vdim,
# key_padding_mask, need_weights=False and average_attn_weights=False are exercised too.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def reference_sdpa(query, key, value, attn_mask=None, is_causal=False, scale=None):
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn_bias = torch.zeros(L, S, dtype=query.dtype)
    if is_causal:
        temp_mask = torch.ones(L, S, dtype=torch.bool).tril(diagonal=0)
        attn_bias.masked_fill_(temp_mask.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn_bias.masked_fill_(attn_mask.logical_not(), float("-inf"))
        else:
            attn_bias = attn_mask + attn_bias
    attn_weight = query @ key.transpose(-2, -1) * scale_factor
    attn_weight += attn_bias
    attn_weight = torch.softmax(attn_weight, dim=-1)
    return attn_weight @ value


def main():
    torch.manual_seed(0)
    embed_dim, num_heads = 8, 2
    multihead_attn = nn.MultiheadAttention(embed_dim, num_heads)
    print(multihead_attn)
    print({k: tuple(v.shape) for k, v in multihead_attn.state_dict().items()})
    query = torch.randn(5, 3, embed_dim)
    key = value = torch.randn(6, 3, embed_dim)
    attn_output, attn_output_weights = multihead_attn(query, key, value)
    print(tuple(attn_output.shape), tuple(attn_output_weights.shape))
    print(attn_output.grad_fn.name(), attn_output_weights.grad_fn.name())
    print(attn_output_weights[0].sum(-1).round(decimals=4))
    print(attn_output[0, 0].round(decimals=4))

    padding = torch.tensor([[False] * 6, [False] * 4 + [True] * 2, [False] * 5 + [True]])
    out, weights = multihead_attn(query, key, value, key_padding_mask=padding,
                                  average_attn_weights=False)
    print("per-head weights:", tuple(weights.shape), weights[1, 0, 0].round(decimals=3))
    out, none = multihead_attn(query, key, value, need_weights=False)
    print("need_weights=False:", none, out.grad_fn.name())

    cross = nn.MultiheadAttention(embed_dim, num_heads, kdim=4, vdim=5, batch_first=True)
    print([name for name, _ in cross.named_parameters()])
    out, weights = cross(torch.randn(2, 3, embed_dim), torch.randn(2, 4, 4), torch.randn(2, 4, 5))
    print(tuple(out.shape), weights.round(decimals=3)[0, 0])

    q, k, v = torch.randn(2, 2, 4, 8), torch.randn(2, 2, 6, 8), torch.randn(2, 2, 6, 8)
    for kwargs in [{}, {"is_causal": True}, {"attn_mask": torch.rand(4, 6) > 0.3},
                   {"scale": 0.5}]:
        ours = F.scaled_dot_product_attention(q, k, v, **kwargs)
        ref = reference_sdpa(q, k, v, **kwargs)
        print(sorted(kwargs), torch.allclose(ours, ref, atol=1e-6), ours[0, 0, 0, :3])
    q.requires_grad_()
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.2)
    print("dropout:", out.grad_fn.name(), out[0, 1, 2, :3])

    transformer_model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2,
                                       num_decoder_layers=1, dim_feedforward=16)
    src, tgt = torch.rand(7, 2, 8), torch.rand(5, 2, 8)
    out = transformer_model(src, tgt, tgt_mask=nn.Transformer.generate_square_subsequent_mask(5))
    print(tuple(out.shape), out.grad_fn.name(), out[0, 0, :4])
    print(sum(p.numel() for p in transformer_model.parameters()))


if __name__ == "__main__":
    main()
