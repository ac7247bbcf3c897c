# Corpus program modelled on pytorch/pytorch issues #40932 ("MultiheadAttention set(-inf) cause
# 'Nan' in loss computing", https://github.com/pytorch/pytorch/issues/40932) and #41508
# (https://github.com/pytorch/pytorch/issues/41508): one sequence in the batch is all padding,
# so key_padding_mask is all True for it; its softmax row over -inf is NaN, the output and the
# gradients of the shared weights become NaN. The thread's workarounds: a large negative
# number instead of -inf in a hand-written attention, and dropping fully padded rows.
# Changed: tiny sizes and a seed; need_weights printed; the loss's NaN check printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
embed_dim, nhead, L, N = 8, 2, 4, 3
mha = nn.MultiheadAttention(embed_dim=embed_dim, num_heads=nhead)
print(mha)
src = torch.randn(L, N, embed_dim)
lengths = torch.tensor([4, 2, 0])
key_padding_mask = torch.arange(L).expand(N, L) >= lengths.unsqueeze(1)
print(key_padding_mask)
out, attn = mha(src, src, src, key_padding_mask=key_padding_mask)
print(out.shape, attn.shape)
print(torch.isnan(out).any(dim=0).any(dim=-1))
print(attn)
loss = out[:, :2].pow(2).sum()
loss.backward()
print(loss)
print(torch.isnan(mha.in_proj_weight.grad).any().item(), torch.isnan(mha.out_proj.weight.grad).any().item())

# per-head weights, averaged or not
mha.zero_grad()
out2, attn2 = mha(src[:, :2], src[:, :2], src[:, :2], key_padding_mask=key_padding_mask[:2],
                  average_attn_weights=False)
print(attn2.shape)
print(attn2[1])


# hand-written scaled dot product with masked_fill
def attention(q, k, v, mask, fill):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(mask[:, None, :], fill)
    p = F.softmax(scores, dim=-1)
    return p @ v, p


q = torch.randn(N, L, embed_dim, requires_grad=True)
for fill in (float('-inf'), -1e9, torch.finfo(torch.float32).min):
    o, p = attention(q, q, q, key_padding_mask, fill)
    o.sum().backward()
    print(fill, p[2, 0], torch.isnan(q.grad).any().item())
    q.grad = None

# dropping the fully padded sequence before attention
keep = lengths > 0
out3, _ = mha(src[:, keep], src[:, keep], src[:, keep], key_padding_mask=key_padding_mask[keep])
print(out3.shape, torch.isnan(out3).any().item())
# a float mask with -inf and an attn_mask
causal = torch.triu(torch.full((L, L), float('-inf')), diagonal=1)
print(causal)
out4, w4 = mha(src, src, src, attn_mask=causal)
print(w4[0])
bool_causal = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)
out5, w5 = mha(src, src, src, attn_mask=bool_causal)
print(torch.allclose(out4, out5), torch.equal(w4, w5))
