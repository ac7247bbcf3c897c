# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "(Beta) Implementing High-Performance Transformers with Scaled Dot Product Attention (SDPA)":
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/scaled_dot_product_attention_tutorial.py
# Like the tutorial: F.scaled_dot_product_attention on random query/key/value; explicit
# dispatcher control with torch.nn.attention.sdpa_kernel and SDPBackend (MATH,
# FLASH_ATTENTION, EFFICIENT_ATTENTION, each tried and "not supported" printed where the
# CPU refuses it); the nanoGPT-style CausalSelfAttention module (c_attn chunked into q, k, v,
# is_causal and dropout only in training); the attn_bias subclasses of
# torch.nn.attention.bias (causal_upper_left, causal_lower_right: their type, issubclass of
# torch.Tensor, their materialised masks, SDPA with them, upper-left checked against
# is_causal=True with torch.testing.assert_close, lower-right against the explicit mask).
# Differences: the CPU in float32 (the tutorial's float16 on CUDA) and small sizes; results
# printed instead of timings (no torch.utils.benchmark, torch.compile, profiler or
# NestedTensor parts); the module also run in training mode (where dropout's math path makes
# the tutorial's .view fail, printed) and backpropagated under each backend; seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
query, key, value = torch.randn(2, 3, 8, device=device), torch.randn(2, 3, 8, device=device), torch.randn(2, 3, 8, device=device)
print(F.scaled_dot_product_attention(query, key, value))

batch_size, max_sequence_len, num_heads, embed_dimension = 2, 16, 4, 8
dtype = torch.float32
query = torch.rand(batch_size, num_heads, max_sequence_len, embed_dimension, device=device, dtype=dtype)
key = torch.rand(batch_size, num_heads, max_sequence_len, embed_dimension, device=device, dtype=dtype)
value = torch.rand(batch_size, num_heads, max_sequence_len, embed_dimension, device=device, dtype=dtype)
default = F.scaled_dot_product_attention(query, key, value)
print(f"The default implementation gives {default.sum().item():.4f}")
print(SDPBackend.MATH, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION)

with sdpa_kernel(SDPBackend.MATH):
    math_out = F.scaled_dot_product_attention(query, key, value)
    print(f"The math implementation gives {math_out.sum().item():.4f}")
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    try:
        flash_out = F.scaled_dot_product_attention(query, key, value)
        print(f"The flash attention implementation gives {flash_out.sum().item():.4f}")
    except RuntimeError:
        print("FlashAttention is not supported. See warnings for reasons.")
with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
    try:
        efficient_out = F.scaled_dot_product_attention(query, key, value)
        print(f"The memory efficient implementation gives {efficient_out.sum().item():.4f}")
    except RuntimeError as e:
        print("EfficientAttention is not supported. See warnings for reasons.")
        print(e)
print(torch.allclose(math_out, flash_out, atol=1e-6), (math_out - flash_out).abs().max() < 1e-5)
print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled(),
      torch.backends.cuda.mem_efficient_sdp_enabled())


class CausalSelfAttention(nn.Module):
    def __init__(self, num_heads: int, embed_dimension: int, bias: bool = False, is_causal: bool = False, dropout: float = 0.0):
        super().__init__()
        assert embed_dimension % num_heads == 0
        self.c_attn = nn.Linear(embed_dimension, 3 * embed_dimension, bias=bias)
        self.c_proj = nn.Linear(embed_dimension, embed_dimension, bias=bias)
        self.dropout = dropout
        self.resid_dropout = nn.Dropout(dropout)
        self.num_heads = num_heads
        self.embed_dimension = embed_dimension
        self.is_causal = is_causal

    def forward(self, x):
        query_projected = self.c_attn(x)
        batch_size = query_projected.size(0)
        embed_dim = query_projected.size(2)
        head_dim = embed_dim // (self.num_heads * 3)
        query, key, value = query_projected.chunk(3, -1)
        query = query.view(batch_size, -1, self.num_heads, head_dim).transpose(1, 2)
        key = key.view(batch_size, -1, self.num_heads, head_dim).transpose(1, 2)
        value = value.view(batch_size, -1, self.num_heads, head_dim).transpose(1, 2)
        if self.training:
            dropout = self.dropout
            is_causal = self.is_causal
        else:
            dropout = 0.0
            is_causal = False
        y = F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=dropout, is_causal=is_causal)
        y = y.transpose(1, 2).view(batch_size, -1, self.num_heads * head_dim)
        y = self.resid_dropout(self.c_proj(y))
        return y


num_heads = 4
heads_per_dim = 8
embed_dimension = num_heads * heads_per_dim
model = CausalSelfAttention(num_heads=num_heads, embed_dimension=embed_dimension, bias=False, is_causal=True, dropout=0.1).to(device).eval()
print(model)
x = torch.rand(2, 10, embed_dimension, device=device)
with torch.no_grad():
    y_eval = model(x)
print(y_eval.shape, y_eval[0, :2, :4])
with sdpa_kernel(SDPBackend.MATH):
    with torch.no_grad():
        try:
            print(torch.allclose(model(x), y_eval, atol=1e-6))
        except RuntimeError as e:  # the math path's output is not viewable as the module asks
            print("math backend:", e)
model.train()
torch.manual_seed(1)
try:
    y_train = model(x)
except RuntimeError as e:  # dropout sends SDPA to the math path, whose output .view refuses
    print("train mode:", e)
model.dropout = 0.0
model.resid_dropout.p = 0.0
for backends in ([SDPBackend.FLASH_ATTENTION], [SDPBackend.MATH]):
    model.zero_grad()
    with sdpa_kernel(backends):
        try:
            y_train = model(x)
            y_train.pow(2).mean().backward()
            print(backends, y_train.grad_fn, model.c_attn.weight.grad.norm(), model.c_proj.weight.grad[0, :4])
        except RuntimeError as e:
            print(backends, "RuntimeError:", e)

from torch.nn.attention.bias import causal_lower_right, causal_upper_left

batch_size, sequence_length_q, sequence_length_kv, num_heads, embed_dimension = 2, 2, 10, 4, 8
query = torch.rand(batch_size, num_heads, sequence_length_q, embed_dimension, device=device, dtype=dtype)
key = torch.rand(batch_size, num_heads, sequence_length_kv, embed_dimension, device=device, dtype=dtype)
value = torch.rand(batch_size, num_heads, sequence_length_kv, embed_dimension, device=device, dtype=dtype)
upper_left_bias = causal_upper_left(sequence_length_q, sequence_length_kv)
lower_right_bias = causal_lower_right(sequence_length_q, sequence_length_kv)
print(type(upper_left_bias))
print(type(lower_right_bias))
assert type(upper_left_bias) == type(lower_right_bias)
assert issubclass(type(upper_left_bias), torch.Tensor)
print(upper_left_bias)
print(lower_right_bias)
print(upper_left_bias.variant, lower_right_bias.variant, lower_right_bias.seq_len_q, lower_right_bias.seq_len_kv)

out_upper_left = F.scaled_dot_product_attention(query, key, value, upper_left_bias)
out_lower_right = F.scaled_dot_product_attention(query, key, value, lower_right_bias)
out_is_causal = F.scaled_dot_product_attention(query, key, value, is_causal=True)
torch.testing.assert_close(out_upper_left, out_is_causal)
try:
    torch.testing.assert_close(out_upper_left, out_lower_right)
except AssertionError as e:
    print("upper-left and lower-right differ:", str(e).splitlines()[0])
mask = torch.ones(sequence_length_q, sequence_length_kv, dtype=torch.bool).tril(diagonal=sequence_length_kv - sequence_length_q)
print(torch.equal(out_lower_right, F.scaled_dot_product_attention(query, key, value, attn_mask=mask)))
print(out_lower_right[0, 0], out_upper_left[0, 0])
try:
    F.scaled_dot_product_attention(query, key, value, lower_right_bias, is_causal=True)
except ValueError as e:
    print("ValueError:", e)
q_req = query.clone().requires_grad_()
out = F.scaled_dot_product_attention(q_req, key, value, lower_right_bias)
out.sum().backward()
print(out.grad_fn, q_req.grad[0, 0, :, :4])
