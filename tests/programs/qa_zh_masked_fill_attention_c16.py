# Corpus program modelled on the Chinese posts on masked_fill() in Transformer attention
# (https://blog.51cto.com/u_16099164/6440954, mirrored at
# https://blog.youkuaiyun.com/devil_son1234/article/details/129806188: a.masked_fill(mask =
# torch.ByteTensor([1,1,0,0]), value=torch.tensor(-1e9))) and the pad-mask notebook of
# https://github.com/MMMMysticY/ML_tools (multi-head self-attention with a [B, S] pad mask on
# [B, H, S, S] scores): the ByteTensor mask the posts used (refused by PyTorch 2.x), the bool
# mask, the [B, S] mask that does not broadcast against the scores (the error askers post),
# the unsqueezed mask that does, a mask larger than the tensor it fills, a causal mask and a
# fully masked row's NaN softmax.
# Changed: einops.rearrange is replaced by view/transpose; small seeded sizes; errors caught and
# printed. Written for gradsh.
import torch
import torch.nn as nn

a = torch.tensor([1, 0, 2, 3])
try:
    print(a.masked_fill(mask=torch.ByteTensor([1, 1, 0, 0]), value=torch.tensor(-1e9)))
except RuntimeError as e:
    print(e)
print(a.masked_fill(mask=torch.tensor([1, 1, 0, 0]).bool(), value=torch.tensor(-1e9)))
print(a.float().masked_fill(torch.tensor([True, True, False, False]), torch.tensor(-1e9)))
try:
    a.masked_fill(torch.tensor([True, False]), 0)
except RuntimeError as e:
    print(e)
print(torch.tensor([1.0, 2.0, 3.0]).masked_fill(torch.tensor([[True, False, False],
                                                             [False, False, True]]), 0.0))
try:
    torch.tensor([1.0, 2.0, 3.0]).masked_fill_(torch.tensor([[True, False, False],
                                                             [False, False, True]]), 0.0)
except RuntimeError as e:
    print(e)


class Attention(nn.Module):
    def __init__(self, head, dim, dropout=0.):
        super().__init__()
        assert dim % head == 0
        self.head = head
        self.dim = dim
        self.head_dim = dim // head
        self.to_qkv = nn.Linear(self.dim, 3 * self.dim, bias=False)
        self.scale = self.head_dim ** -0.5
        self.attend = nn.Softmax(-1)
        self.output_proj = nn.Sequential(nn.Linear(dim, dim), nn.Dropout(dropout))

    def split(self, t):
        b, s, _ = t.shape
        return t.view(b, s, self.head, self.head_dim).transpose(1, 2)

    def forward(self, x, mask=None, unsqueeze=True):
        query, key, value = map(self.split, self.to_qkv(x).chunk(3, dim=-1))
        attention_score = torch.matmul(query, key.transpose(-1, -2)) * self.scale
        if mask is not None:
            if unsqueeze:
                mask = mask.unsqueeze(1).unsqueeze(2)
            attention_score = attention_score.masked_fill(mask == 0, float("-inf"))
        attention = self.attend(attention_score)
        out = torch.matmul(attention, value).transpose(1, 2).reshape(x.shape)
        return self.output_proj(out), attention


torch.manual_seed(0)
att = Attention(head=2, dim=8)
x = torch.randn(2, 5, 8)
pad = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
try:
    att(x, pad, unsqueeze=False)
except RuntimeError as e:
    print(e)
out, attention = att(x, pad)
print(out.shape, attention.shape)
print(attention[0, 0])
print(attention[0, :, :, 3:].abs().sum())
out.sum().backward()
print(att.to_qkv.weight.grad.norm())

seq_len = 4
causal = torch.triu(torch.ones(seq_len, seq_len), diagonal=1).bool()
print(causal)
scores = torch.randn(1, 1, seq_len, seq_len, requires_grad=True)
masked = scores.masked_fill(causal, float("-inf"))
print(masked)
probs = masked.softmax(-1)
print(probs)
probs[..., 1:, :].sum().backward()
print(scores.grad)
all_masked = torch.zeros(2, 3).masked_fill(torch.tensor([[True, True, True], [False, True, False]]),
                                           float("-inf"))
print(all_masked.softmax(-1))
print(torch.where(torch.tensor([True, False]), torch.tensor([1.0, 2.0]), float("-inf")))
