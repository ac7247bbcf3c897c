# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's "Build
# a Large Language Model (From Scratch)", chapter 3 "Coding attention mechanisms" (Apache-2.0):
# https://github.com/rasbt/LLMs-from-scratch/blob/main/ch03/01_main-chapter-code/ch03.ipynb
# https://github.com/rasbt/LLMs-from-scratch/blob/main/ch03/03_understanding-buffers/understanding-buffers.ipynb
# Like the chapter: six 3-d token embeddings ("Your journey starts with one step"); the
# attention scores of one query by a loop of torch.dot and by a hand-written dot product;
# weights normalized by the sum, by a naive exp / sum softmax and by torch.softmax; the
# context vector as a weighted sum; all scores by two loops and by inputs @ inputs.T, row sums
# with keepdim; W_query / W_key / W_value as nn.Parameter(torch.rand(d_in, d_out),
# requires_grad=False) scaled by sqrt(d_k); SelfAttention_v1 (Parameters) and
# SelfAttention_v2 (nn.Linear without bias); the causal mask two ways: tril and renormalizing,
# and triu(diagonal=1).bool() filled with -torch.inf before the softmax; nn.Dropout(0.5) on
# a matrix of ones and on the weights; CausalAttention with register_buffer('mask', ...) and
# masked_fill_ on a batch made with torch.stack; MultiHeadAttentionWrapper (ModuleList of
# heads, torch.cat); MultiHeadAttention splitting d_out into heads with view / transpose,
# contiguous().view back and out_proj; the buffer appearing in state_dict and surviving
# torch.save / load_state_dict, while a plain tensor attribute does not.
# Differences: our own code; the state dict goes through an in-memory buffer; seeded.
import io

import torch
import torch.nn as nn

inputs = torch.tensor(
    [[0.43, 0.15, 0.89],  # Your
     [0.55, 0.87, 0.66],  # journey
     [0.57, 0.85, 0.64],  # starts
     [0.22, 0.58, 0.33],  # with
     [0.77, 0.25, 0.10],  # one
     [0.05, 0.80, 0.55]]  # step
)

query = inputs[1]
attn_scores_2 = torch.empty(inputs.shape[0])
for i, x_i in enumerate(inputs):
    attn_scores_2[i] = torch.dot(x_i, query)
print(attn_scores_2)
res = 0.
for idx, element in enumerate(inputs[0]):
    res += inputs[0][idx] * query[idx]
print(res, torch.dot(inputs[0], query))

attn_weights_2_tmp = attn_scores_2 / attn_scores_2.sum()
print("Attention weights:", attn_weights_2_tmp, "Sum:", attn_weights_2_tmp.sum())


def softmax_naive(x):
    return torch.exp(x) / torch.exp(x).sum(dim=0)


attn_weights_2_naive = softmax_naive(attn_scores_2)
print("Naive:", attn_weights_2_naive, "Sum:", attn_weights_2_naive.sum())
attn_weights_2 = torch.softmax(attn_scores_2, dim=0)
print("torch.softmax:", attn_weights_2, "Sum:", attn_weights_2.sum())

context_vec_2 = torch.zeros(query.shape)
for i, x_i in enumerate(inputs):
    context_vec_2 += attn_weights_2[i] * x_i
print(context_vec_2)

attn_scores = torch.empty(6, 6)
for i, x_i in enumerate(inputs):
    for j, x_j in enumerate(inputs):
        attn_scores[i, j] = torch.dot(x_i, x_j)
print(attn_scores)
print(torch.equal(attn_scores, inputs @ inputs.T), (attn_scores - inputs @ inputs.T).abs().max())
attn_weights = torch.softmax(inputs @ inputs.T, dim=-1)
print(attn_weights)
print("All row sums:", attn_weights.sum(dim=-1))
print(attn_weights @ inputs)

# trainable weights
x_2 = inputs[1]
d_in, d_out = inputs.shape[1], 2
torch.manual_seed(123)
W_query = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
W_key = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
W_value = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
query_2 = x_2 @ W_query
keys = inputs @ W_key
values = inputs @ W_value
print(query_2, "keys.shape:", keys.shape, "values.shape:", values.shape)
print(query_2.dot(keys[1]))
attn_scores_2 = query_2 @ keys.T
d_k = keys.shape[1]
attn_weights_2 = torch.softmax(attn_scores_2 / d_k ** 0.5, dim=-1)
print(attn_scores_2, attn_weights_2, attn_weights_2 @ values)


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        keys = x @ self.W_key
        queries = x @ self.W_query
        values = x @ self.W_value
        attn_scores = queries @ keys.T
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        return attn_weights @ values


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        attn_scores = queries @ keys.T
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        return attn_weights @ values


torch.manual_seed(123)
print(SelfAttention_v1(d_in, d_out)(inputs))
torch.manual_seed(789)
sa_v2 = SelfAttention_v2(d_in, d_out)
print(sa_v2(inputs))
sa_v1 = SelfAttention_v1(d_in, d_out)
sa_v1.W_query.data = sa_v2.W_query.weight.T
sa_v1.W_key.data = sa_v2.W_key.weight.T
sa_v1.W_value.data = sa_v2.W_value.weight.T
print("v1 with v2's weights:", sa_v1(inputs))

# causal masks
queries = sa_v2.W_query(inputs)
keys = sa_v2.W_key(inputs)
attn_scores = queries @ keys.T
attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
context_length = attn_scores.shape[0]
mask_simple = torch.tril(torch.ones(context_length, context_length))
masked_simple = attn_weights * mask_simple
masked_simple_norm = masked_simple / masked_simple.sum(dim=-1, keepdim=True)
print(mask_simple, masked_simple_norm)
mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)
masked = attn_scores.masked_fill(mask.bool(), -torch.inf)
print(masked)
attn_weights = torch.softmax(masked / keys.shape[-1] ** 0.5, dim=-1)
print(attn_weights)
print("same as renormalized:", torch.allclose(attn_weights, masked_simple_norm))

torch.manual_seed(123)
dropout = torch.nn.Dropout(0.5)
print(dropout(torch.ones(6, 6)))
torch.manual_seed(123)
print(dropout(attn_weights))


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask",
                             torch.triu(torch.ones(context_length, context_length), diagonal=1))

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


batch = torch.stack((inputs, inputs), dim=0)
print(batch.shape)
torch.manual_seed(123)
ca = CausalAttention(d_in, d_out, batch.shape[1], 0.0)
context_vecs = ca(batch)
print(context_vecs, "context_vecs.shape:", context_vecs.shape)
print(context_vecs.grad_fn.name())


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList([CausalAttention(d_in, d_out, context_length, dropout,
                                                    qkv_bias) for _ in range(num_heads)])

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1)


torch.manual_seed(123)
mha = MultiHeadAttentionWrapper(d_in, d_out, batch.shape[1], 0.0, num_heads=2)
context_vecs = mha(batch)
print(context_vecs, "context_vecs.shape:", context_vecs.shape)


class MultiHeadAttention(nn.Module):
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
        self.register_buffer("mask",
                             torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x).view(b, num_tokens, self.num_heads, self.head_dim)
        values = self.W_value(x).view(b, num_tokens, self.num_heads, self.head_dim)
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim)
        keys, queries, values = keys.transpose(1, 2), queries.transpose(1, 2), values.transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)


torch.manual_seed(123)
mha = MultiHeadAttention(d_in, 4, batch.shape[1], 0.0, num_heads=2)
context_vecs = mha(batch)
print(context_vecs, "context_vecs.shape:", context_vecs.shape)
context_vecs.sum().backward()
print(mha.W_query.weight.grad)
print(mha.mask.requires_grad, [name for name, _ in mha.named_buffers()])

a = torch.tensor([[[[0.2745, 0.6584, 0.2775, 0.8573],
                    [0.8993, 0.0390, 0.9268, 0.7388],
                    [0.7179, 0.7058, 0.9156, 0.4340]],
                   [[0.0772, 0.3565, 0.1479, 0.5331],
                    [0.4066, 0.2318, 0.4545, 0.9737],
                    [0.4606, 0.5159, 0.4220, 0.5786]]]])
print(a @ a.transpose(2, 3))
first_head = a[0, 0, :, :]
print("First head:\n", first_head @ first_head.T)


# buffers: in state_dict and saved; a plain tensor attribute is not
class CausalAttentionWithoutBuffers(CausalAttention):
    def __init__(self, *args):
        super().__init__(*args)
        mask = self.mask
        del self.mask
        self.mask = mask


with_buffer = CausalAttention(d_in, d_out, 6, 0.0)
without_buffer = CausalAttentionWithoutBuffers(d_in, d_out, 6, 0.0)
print(list(with_buffer.state_dict()), list(without_buffer.state_dict()))
with_buffer.mask[with_buffer.mask == 1.] = 2.
buffer = io.BytesIO()
torch.save(with_buffer.state_dict(), buffer)
buffer.seek(0)
restored = CausalAttention(d_in, d_out, 6, 0.0)
print(restored.load_state_dict(torch.load(buffer)))
print(restored.mask)
