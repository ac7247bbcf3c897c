# Corpus program, written for gradsh (no code copied). Modelled on Dive into Deep Learning,
# "Attention Scoring Functions", "Multi-Head Attention" and "Self-Attention and Positional
# Encoding" (PyTorch tabs), Apache-2.0 / CC BY-SA 4.0:
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_attention-mechanisms-and-transformers/attention-scoring-functions.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_attention-mechanisms-and-transformers/multihead-attention.md
# https://github.com/d2l-ai/d2l-en/blob/master/chapter_attention-mechanisms-and-transformers/self-attention-and-positional-encoding.md
# Like the book: masked_softmax with its inner _sequence_mask (arange(maxlen)[None, :] <
# valid_len[:, None], X[~mask] = -1e6) and torch.repeat_interleave for 1-D valid_lens,
# DotProductAttention (bmm with keys.transpose(1, 2) / sqrt(d)), AdditiveAttention with
# LazyLinear layers, queries.unsqueeze(2) + keys.unsqueeze(1) and w_v(...).squeeze(-1),
# MultiHeadAttention with transpose_qkv/transpose_output and repeat_interleave of valid_lens
# over the heads, self-attention of X with itself, PositionalEncoding filling P[:, :, 0::2] with
# sin and P[:, :, 1::2] with cos of positions / 10000^(2i/d), and the binary-numbers loop.
# Differences: our own code; no d2l package (check_shape becomes printed shapes, heatmaps and
# plots become printed weights and columns); smaller sizes (num_hiddens 20, 4 heads); a seed.
import math

import torch
from torch import nn

torch.manual_seed(0)


def masked_softmax(X, valid_lens):
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X

    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    else:
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)


print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([2, 3])))
print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([[1, 3], [2, 4]])))
Q = torch.ones((2, 3, 4))
K = torch.ones((2, 4, 6))
print(torch.bmm(Q, K).shape)


class DotProductAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


queries = torch.normal(0, 1, (2, 1, 2))
keys = torch.normal(0, 1, (2, 10, 2))
values = torch.normal(0, 1, (2, 10, 4))
valid_lens = torch.tensor([2, 6])
attention = DotProductAttention(dropout=0.5)
attention.eval()
print(attention(queries, keys, values, valid_lens))
print(attention.attention_weights.reshape(1, 1, 2, 10))


class AdditiveAttention(nn.Module):
    def __init__(self, num_hiddens, dropout, **kwargs):
        super(AdditiveAttention, self).__init__(**kwargs)
        self.W_k = nn.LazyLinear(num_hiddens, bias=False)
        self.W_q = nn.LazyLinear(num_hiddens, bias=False)
        self.w_v = nn.LazyLinear(1, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        features = queries.unsqueeze(2) + keys.unsqueeze(1)
        features = torch.tanh(features)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


queries = torch.normal(0, 1, (2, 1, 20))
attention = AdditiveAttention(num_hiddens=8, dropout=0.1)
print(attention)
attention.eval()
print(attention(queries, keys, values, valid_lens).shape)
print(attention)
print(attention.attention_weights)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_hiddens, num_heads, dropout, bias=False, **kwargs):
        super().__init__()
        self.num_heads = num_heads
        self.attention = DotProductAttention(dropout)
        self.W_q = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_k = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_v = nn.LazyLinear(num_hiddens, bias=bias)
        self.W_o = nn.LazyLinear(num_hiddens, bias=bias)

    def forward(self, queries, keys, values, valid_lens):
        queries = self.transpose_qkv(self.W_q(queries))
        keys = self.transpose_qkv(self.W_k(keys))
        values = self.transpose_qkv(self.W_v(values))
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        output_concat = self.transpose_output(output)
        return self.W_o(output_concat)

    def transpose_qkv(self, X):
        X = X.reshape(X.shape[0], X.shape[1], self.num_heads, -1)
        X = X.permute(0, 2, 1, 3)
        return X.reshape(-1, X.shape[2], X.shape[3])

    def transpose_output(self, X):
        X = X.reshape(-1, self.num_heads, X.shape[1], X.shape[2])
        X = X.permute(0, 2, 1, 3)
        return X.reshape(X.shape[0], X.shape[1], -1)


num_hiddens, num_heads = 20, 4
attention = MultiHeadAttention(num_hiddens, num_heads, 0.5)
batch_size, num_queries, num_kvpairs = 2, 4, 6
valid_lens = torch.tensor([3, 2])
X = torch.ones((batch_size, num_queries, num_hiddens))
Y = torch.ones((batch_size, num_kvpairs, num_hiddens))
attention.eval()
out = attention(X, Y, Y, valid_lens)
print(out.shape, out[0, 0, :5])
print(attention.attention.attention_weights.shape)

X = torch.randn((batch_size, num_queries, num_hiddens), requires_grad=True)
out = attention(X, X, X, valid_lens)
out.pow(2).mean().backward()
print(out.shape, X.grad[1, 0, :4])
print(attention.W_q.weight.grad.norm())


class PositionalEncoding(nn.Module):
    def __init__(self, num_hiddens, dropout, max_len=1000):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.P = torch.zeros((1, max_len, num_hiddens))
        X = torch.arange(max_len, dtype=torch.float32).reshape(-1, 1) / torch.pow(
            10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
        self.P[:, :, 0::2] = torch.sin(X)
        self.P[:, :, 1::2] = torch.cos(X)

    def forward(self, X):
        X = X + self.P[:, :X.shape[1], :].to(X.device)
        return self.dropout(X)


encoding_dim, num_steps = 32, 60
pos_encoding = PositionalEncoding(encoding_dim, 0)
X = pos_encoding(torch.zeros((1, num_steps, encoding_dim)))
P = pos_encoding.P[:, :X.shape[1], :]
print(P[0, :5, 6:10])
print(P[0, 59, ::8])
for i in range(8):
    print(f'{i} in binary is {i:>03b}')
P = P[0, :, :].unsqueeze(0).unsqueeze(0)
print(P.shape, P.sum())
