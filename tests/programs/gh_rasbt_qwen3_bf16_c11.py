# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# "LLMs from Scratch" ch05 bonus "Qwen3 from scratch" standalone notebook (Apache-2.0):
# https://github.com/rasbt/LLMs-from-scratch/blob/main/ch05/11_qwen3/standalone-qwen3.ipynb
# Like the original: a SwiGLU FeedForward (three bias-free Linears with dtype=cfg["dtype"]);
# RMSNorm that computes in float32 (x.to(torch.float32), pow(2).mean, torch.rsqrt, a float32
# scale) and casts back to the input dtype; compute_rope_params (inverse frequencies, outer
# positions, cat, cos/sin) and apply_rope (halves, cat((-x2, x1)), cast back); a
# GroupedQueryAttention with q/k RMSNorm, RoPE, repeat_interleave of keys/values over the
# groups, masked_fill with -inf of a triu boolean mask; Qwen3Model with register_buffer(cos,
# sin, persistent=False) and the whole model in bfloat16; calc_model_memory_size for float32
# and bfloat16 (element_size of a 0-d tensor); greedy generation.
# Differences: a tiny config (vocab 64, emb 32, 4 heads in 2 KV groups, head_dim 8, 2 layers,
# context 32) with random weights instead of the downloaded checkpoint; token ids instead of
# the tokenizer; logits printed; one backward pass in bfloat16 with a few gradients printed.
import torch
import torch.nn as nn

torch.manual_seed(123)


class FeedForward(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.fc1 = nn.Linear(cfg["emb_dim"], cfg["hidden_dim"], dtype=cfg["dtype"], bias=False)
        self.fc2 = nn.Linear(cfg["emb_dim"], cfg["hidden_dim"], dtype=cfg["dtype"], bias=False)
        self.fc3 = nn.Linear(cfg["hidden_dim"], cfg["emb_dim"], dtype=cfg["dtype"], bias=False)

    def forward(self, x):
        return self.fc3(nn.functional.silu(self.fc1(x)) * self.fc2(x))


class RMSNorm(nn.Module):
    def __init__(self, emb_dim, eps=1e-6, bias=False, qwen3_compatible=True):
        super().__init__()
        self.eps = eps
        self.qwen3_compatible = qwen3_compatible
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim)) if bias else None

    def forward(self, x):
        input_dtype = x.dtype
        if self.qwen3_compatible:
            x = x.to(torch.float32)
        variance = x.pow(2).mean(dim=-1, keepdim=True)
        norm_x = x * torch.rsqrt(variance + self.eps)
        norm_x = norm_x * self.scale
        if self.shift is not None:
            norm_x = norm_x + self.shift
        return norm_x.to(input_dtype)


def compute_rope_params(head_dim, theta_base=10_000, context_length=4096, dtype=torch.float32):
    inv_freq = 1.0 / (theta_base ** (torch.arange(0, head_dim, 2, dtype=dtype)[: (head_dim // 2)].float() / head_dim))
    positions = torch.arange(context_length, dtype=dtype)
    angles = positions.unsqueeze(1) * inv_freq.unsqueeze(0)
    angles = torch.cat([angles, angles], dim=1)
    return torch.cos(angles), torch.sin(angles)


def apply_rope(x, cos, sin):
    batch_size, num_heads, seq_len, head_dim = x.shape
    x1 = x[..., : head_dim // 2]
    x2 = x[..., head_dim // 2:]
    cos = cos[:seq_len, :].unsqueeze(0).unsqueeze(0)
    sin = sin[:seq_len, :].unsqueeze(0).unsqueeze(0)
    rotated = torch.cat((-x2, x1), dim=-1)
    x_rotated = (x * cos) + (rotated * sin)
    return x_rotated.to(dtype=x.dtype)


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_in, num_heads, num_kv_groups, head_dim=None, qk_norm=False, dtype=None):
        super().__init__()
        self.num_heads = num_heads
        self.num_kv_groups = num_kv_groups
        self.group_size = num_heads // num_kv_groups
        if head_dim is None:
            head_dim = d_in // num_heads
        self.head_dim = head_dim
        self.d_out = num_heads * head_dim
        self.W_query = nn.Linear(d_in, self.d_out, bias=False, dtype=dtype)
        self.W_key = nn.Linear(d_in, num_kv_groups * head_dim, bias=False, dtype=dtype)
        self.W_value = nn.Linear(d_in, num_kv_groups * head_dim, bias=False, dtype=dtype)
        self.out_proj = nn.Linear(self.d_out, d_in, bias=False, dtype=dtype)
        if qk_norm:
            self.q_norm = RMSNorm(head_dim, eps=1e-6)
            self.k_norm = RMSNorm(head_dim, eps=1e-6)
        else:
            self.q_norm = self.k_norm = None

    def forward(self, x, mask, cos, sin):
        b, num_tokens, _ = x.shape
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        keys = self.W_key(x).view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, 2)
        values = self.W_value(x).view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, 2)
        if self.q_norm:
            queries = self.q_norm(queries)
        if self.k_norm:
            keys = self.k_norm(keys)
        queries = apply_rope(queries, cos, sin)
        keys = apply_rope(keys, cos, sin)
        keys = keys.repeat_interleave(self.group_size, dim=1)
        values = values.repeat_interleave(self.group_size, dim=1)
        attn_scores = queries @ keys.transpose(2, 3)
        attn_scores = attn_scores.masked_fill(mask, -torch.inf)
        attn_weights = torch.softmax(attn_scores / self.head_dim**0.5, dim=-1)
        context = (attn_weights @ values).transpose(1, 2).reshape(b, num_tokens, self.d_out)
        return self.out_proj(context)


class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.att = GroupedQueryAttention(cfg["emb_dim"], cfg["n_heads"], cfg["n_kv_groups"],
                                         cfg["head_dim"], cfg["qk_norm"], cfg["dtype"])
        self.ff = FeedForward(cfg)
        self.norm1 = RMSNorm(cfg["emb_dim"], eps=1e-6)
        self.norm2 = RMSNorm(cfg["emb_dim"], eps=1e-6)

    def forward(self, x, mask, cos, sin):
        x = self.att(self.norm1(x), mask, cos, sin) + x
        return self.ff(self.norm2(x)) + x


class Qwen3Model(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"], dtype=cfg["dtype"])
        self.trf_blocks = nn.ModuleList([TransformerBlock(cfg) for _ in range(cfg["n_layers"])])
        self.final_norm = RMSNorm(cfg["emb_dim"])
        self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False, dtype=cfg["dtype"])
        cos, sin = compute_rope_params(cfg["head_dim"], cfg["rope_base"], cfg["context_length"])
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        self.cfg = cfg

    def forward(self, in_idx):
        x = self.tok_emb(in_idx)
        num_tokens = x.shape[1]
        mask = torch.triu(torch.ones(num_tokens, num_tokens, dtype=torch.bool), diagonal=1)
        for block in self.trf_blocks:
            x = block(x, mask, self.cos, self.sin)
        x = self.final_norm(x)
        return self.out_head(x.to(self.cfg["dtype"]))


def calc_model_memory_size(model, input_dtype=torch.float32):
    total_params = 0
    total_grads = 0
    for param in model.parameters():
        total_params += param.numel()
        if param.requires_grad:
            total_grads += param.numel()
    total_buffers = sum(buf.numel() for buf in model.buffers())
    element_size = torch.tensor(0, dtype=input_dtype).element_size()
    return (total_params + total_grads + total_buffers) * element_size / (1024**2)


QWEN3_CONFIG = {"vocab_size": 64, "context_length": 32, "emb_dim": 32, "n_heads": 4,
                "n_layers": 2, "hidden_dim": 48, "head_dim": 8, "qk_norm": True,
                "n_kv_groups": 2, "rope_base": 1_000_000.0, "dtype": torch.bfloat16}
model = Qwen3Model(QWEN3_CONFIG)
print(model.trf_blocks[0].att)
total_params = sum(p.numel() for p in model.parameters())
print(f"Total number of parameters: {total_params:,}")
print({str(p.dtype) for p in model.parameters()})
print(f"float32 (PyTorch default): {calc_model_memory_size(model, input_dtype=torch.float32):.4f} MB")
print(f"bfloat16: {calc_model_memory_size(model, input_dtype=torch.bfloat16):.4f} MB")
print(model.cos.shape, model.cos[3, :4], model.sin[5, -4:])

idx = torch.tensor([[1, 5, 9, 12, 40, 3]])
with torch.no_grad():
    logits = model(idx)
print(logits.dtype, logits.shape)
print(logits[0, -1, :12])
print(logits.float().softmax(-1)[0, :, :3])

for _ in range(6):
    with torch.no_grad():
        next_id = model(idx)[:, -1].argmax(dim=-1, keepdim=True)
    idx = torch.cat([idx, next_id], dim=1)
print("generated:", idx.tolist())

out = model(idx[:, :-1])
loss = torch.nn.functional.cross_entropy(out.flatten(0, 1).float(), idx[:, 1:].flatten())
loss.backward()
print("loss", loss)
print(model.out_head.weight.grad.dtype, model.out_head.weight.grad[:2, :6])
print(model.trf_blocks[1].norm2.scale.grad[:6])
print(model.tok_emb.weight.grad.abs().sum(dim=1)[:8])
