# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# "Converting a From-Scratch GPT Architecture to Llama 2" notebook:
# https://github.com/rasbt/LLMs-from-scratch/blob/main/ch05/07_gpt_to_llama/converting-gpt-to-llama2.ipynb
# and the generate() with top-k and temperature of ch05's previous_chapters.py.
# Like the notebook: an RMSNorm whose weight is nn.Parameter(...).float(), checked against
# torch.nn.RMSNorm; SiLU against F.silu; the SwiGLU FeedForward (fc1, fc2, fc3 without bias,
# dtype from the config); RoPE computed with real arithmetic (precompute_rope_params,
# compute_rope with the rotate-half layout); MultiHeadAttention with registered mask/cos/sin
# buffers and masked_fill_(-inf); TransformerBlock and Llama2Model in bfloat16; the parameter
# count and calc_model_memory_size (element_size of float32 and bfloat16); the "assign" weight
# loader with the Meta-to-interleaved permute(); greedy generation (top_k=1, temperature 0)
# and sampled generation (top-k 3, temperature 1.4) with torch.multinomial.
# Differences: a tiny configuration (vocab 64, context 16, 32-dim embeddings, 4 heads, 2
# layers, hidden 48) instead of the 7B model; random token ids instead of a tokenizer and
# Meta's checkpoint (a random "checkpoint" dictionary is loaded instead); seeded.
import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, emb_dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.emb_dim = emb_dim
        self.weight = nn.Parameter(torch.ones(emb_dim)).float()

    def forward(self, x):
        means = x.pow(2).mean(dim=-1, keepdim=True)
        x_normed = x * torch.rsqrt(means + self.eps)
        return (x_normed * self.weight).to(dtype=x.dtype)


torch.manual_seed(123)
example_batch = torch.randn(2, 3, 4)
rms_norm = RMSNorm(emb_dim=example_batch.shape[-1])
rmsnorm_pytorch = torch.nn.RMSNorm(example_batch.shape[-1], eps=1e-5)
print(torch.allclose(rms_norm(example_batch), rmsnorm_pytorch(example_batch)))
print(rms_norm(example_batch)[0])
print(rmsnorm_pytorch, [n for n, _ in rms_norm.named_parameters()], type(rms_norm.weight))


class SiLU(nn.Module):
    def __init__(self):
        super(SiLU, self).__init__()

    def forward(self, x):
        return x * torch.sigmoid(x)


silu = SiLU()
print(torch.allclose(silu(example_batch), torch.nn.functional.silu(example_batch)))
print(torch.equal(silu(example_batch), torch.nn.functional.silu(example_batch)))


class FeedForward(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.fc1 = nn.Linear(cfg["emb_dim"], cfg["hidden_dim"], dtype=cfg["dtype"], bias=False)
        self.fc2 = nn.Linear(cfg["emb_dim"], cfg["hidden_dim"], dtype=cfg["dtype"], bias=False)
        self.fc3 = nn.Linear(cfg["hidden_dim"], cfg["emb_dim"], dtype=cfg["dtype"], bias=False)
        self.silu = SiLU()

    def forward(self, x):
        x_fc1 = self.fc1(x)
        x_fc2 = self.fc2(x)
        x = self.silu(x_fc1) * x_fc2
        return self.fc3(x)


def precompute_rope_params(head_dim, theta_base=10_000, context_length=4096):
    assert head_dim % 2 == 0, "Embedding dimension must be even"
    inv_freq = 1.0 / (theta_base ** (torch.arange(0, head_dim, 2)[: (head_dim // 2)].float() / head_dim))
    positions = torch.arange(context_length)
    angles = positions.unsqueeze(1) * inv_freq.unsqueeze(0)
    angles = torch.cat([angles, angles], dim=1)
    cos = torch.cos(angles)
    sin = torch.sin(angles)
    return cos, sin


def compute_rope(x, cos, sin):
    batch_size, num_heads, seq_len, head_dim = x.shape
    assert head_dim % 2 == 0, "Head dimension must be even"
    x1 = x[..., : head_dim // 2]
    x2 = x[..., head_dim // 2:]
    cos = cos[:seq_len, :].unsqueeze(0).unsqueeze(0)
    sin = sin[:seq_len, :].unsqueeze(0).unsqueeze(0)
    rotated = torch.cat((-x2, x1), dim=-1)
    x_rotated = (x * cos) + (rotated * sin)
    return x_rotated.to(dtype=x.dtype)


batch_size, context_len, num_heads, head_dim = 2, 5, 4, 16
cos, sin = precompute_rope_params(head_dim=head_dim, context_length=context_len)
print(cos.shape, sin[1, :4], cos[4, -3:])
torch.manual_seed(123)
queries = torch.randn(batch_size, num_heads, context_len, head_dim)
keys = torch.randn(batch_size, num_heads, context_len, head_dim)
queries_rot = compute_rope(queries, cos, sin)
keys_rot = compute_rope(keys, cos, sin)
print(queries_rot[0, 0, :2, :6])
print(keys_rot.shape, (queries_rot.norm(dim=-1) - queries.norm(dim=-1)).abs().max() < 1e-5)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, num_heads, dtype=None):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by n_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=False, dtype=dtype)
        self.W_key = nn.Linear(d_in, d_out, bias=False, dtype=dtype)
        self.W_value = nn.Linear(d_in, d_out, bias=False, dtype=dtype)
        self.out_proj = nn.Linear(d_out, d_out, bias=False, dtype=dtype)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))
        cos, sin = precompute_rope_params(head_dim=self.head_dim, context_length=context_length)
        self.register_buffer("cos", cos)
        self.register_buffer("sin", sin)

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
        keys = keys.transpose(1, 2)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)
        keys = compute_rope(keys, self.cos, self.sin)
        queries = compute_rope(queries, self.cos, self.sin)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.reshape(b, num_tokens, self.d_out)
        context_vec = self.out_proj(context_vec)
        return context_vec


torch.manual_seed(123)
example_batch = torch.randn((1, 10, 32))
mha = MultiHeadAttention(d_in=32, d_out=32, context_length=64, num_heads=4)
out = mha(example_batch)
print(out.shape, out.grad_fn, out[0, :2, :5])
print([name for name, _ in mha.named_buffers()], mha.cos.dtype)
del mha


class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.att = MultiHeadAttention(d_in=cfg["emb_dim"], d_out=cfg["emb_dim"],
                                      context_length=cfg["context_length"],
                                      num_heads=cfg["n_heads"], dtype=cfg["dtype"])
        self.ff = FeedForward(cfg)
        self.norm1 = RMSNorm(cfg["emb_dim"])
        self.norm2 = RMSNorm(cfg["emb_dim"])

    def forward(self, x):
        shortcut = x
        x = self.norm1(x)
        x = self.att(x)
        x = x + shortcut
        shortcut = x
        x = self.norm2(x)
        x = self.ff(x)
        x = x + shortcut
        return x


class Llama2Model(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"], dtype=cfg["dtype"])
        self.trf_blocks = nn.Sequential(*[TransformerBlock(cfg) for _ in range(cfg["n_layers"])])
        self.final_norm = RMSNorm(cfg["emb_dim"])
        self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False, dtype=cfg["dtype"])

    def forward(self, in_idx):
        tok_embeds = self.tok_emb(in_idx)
        x = tok_embeds
        x = self.trf_blocks(x)
        x = self.final_norm(x)
        logits = self.out_head(x)
        return logits


LLAMA2_CONFIG_TINY = {
    "vocab_size": 64,
    "context_length": 16,
    "emb_dim": 32,
    "n_heads": 4,
    "n_layers": 2,
    "hidden_dim": 48,
    "dtype": torch.bfloat16,
}
torch.manual_seed(123)
model = Llama2Model(LLAMA2_CONFIG_TINY)
total_params = sum(p.numel() for p in model.parameters())
print(f"Total number of parameters: {total_params:,}")
print(sorted({str(p.dtype) for p in model.parameters()}), model.trf_blocks[0].att.cos.dtype)
print(model.trf_blocks[0])


def calc_model_memory_size(model, input_dtype=torch.float32):
    total_params = 0
    total_grads = 0
    for param in model.parameters():
        param_size = param.numel()
        total_params += param_size
        if param.requires_grad:
            total_grads += param_size
    total_buffers = sum(buf.numel() for buf in model.buffers())
    element_size = torch.tensor(0, dtype=input_dtype).element_size()
    total_memory_bytes = (total_params + total_grads + total_buffers) * element_size
    total_memory_gb = total_memory_bytes / (1024**3)
    return total_memory_gb


print(f"float32 (PyTorch default): {calc_model_memory_size(model, input_dtype=torch.float32):.8f} GB")
print(f"bfloat16: {calc_model_memory_size(model, input_dtype=torch.bfloat16):.8f} GB")


def assign(left, right, tensor_name="unknown"):
    if left.shape != right.shape:
        raise ValueError(f"Shape mismatch in tensor '{tensor_name}'. Left: {left.shape}, Right: {right.shape}")
    with torch.no_grad():
        if isinstance(right, torch.Tensor):
            left.copy_(right)
        else:
            left.copy_(torch.as_tensor(right, dtype=left.dtype, device=left.device))
    return left


def permute(w: torch.Tensor, n_heads, out_dim, in_dim):
    return (w.view(n_heads, out_dim // n_heads // 2, 2, in_dim)
             .transpose(1, 2)
             .reshape(out_dim, in_dim))


print(permute(torch.arange(16.).view(8, 2), 2, 8, 2).view(-1))
try:
    assign(model.out_head.weight, torch.zeros(3, 3), "out_head")
except ValueError as e:
    print("ValueError:", e)

cfg = LLAMA2_CONFIG_TINY
torch.manual_seed(7)
params = {"tok_embeddings.weight": torch.randn(cfg["vocab_size"], cfg["emb_dim"]) * 0.5,
          "norm.weight": 1 + 0.1 * torch.randn(cfg["emb_dim"]),
          "output.weight": torch.randn(cfg["vocab_size"], cfg["emb_dim"]) * 0.2}
for l in range(cfg["n_layers"]):
    for key, shape in [("attention.wq", (32, 32)), ("attention.wk", (32, 32)), ("attention.wv", (32, 32)),
                       ("attention.wo", (32, 32)), ("feed_forward.w1", (48, 32)),
                       ("feed_forward.w2", (32, 48)), ("feed_forward.w3", (48, 32))]:
        params[f"layers.{l}.{key}.weight"] = torch.randn(shape) * shape[1] ** -0.5
    params[f"layers.{l}.attention_norm.weight"] = 1 + 0.1 * torch.randn(32)
    params[f"layers.{l}.ffn_norm.weight"] = 1 + 0.1 * torch.randn(32)

model.tok_emb.weight = assign(model.tok_emb.weight, params["tok_embeddings.weight"])
for l in range(cfg["n_layers"]):
    blk = model.trf_blocks[l]
    blk.att.W_query.weight = assign(blk.att.W_query.weight,
                                    permute(params[f"layers.{l}.attention.wq.weight"], cfg["n_heads"], 32, 32))
    blk.att.W_key.weight = assign(blk.att.W_key.weight,
                                  permute(params[f"layers.{l}.attention.wk.weight"], cfg["n_heads"], 32, 32))
    blk.att.W_value.weight = assign(blk.att.W_value.weight, params[f"layers.{l}.attention.wv.weight"])
    blk.att.out_proj.weight = assign(blk.att.out_proj.weight, params[f"layers.{l}.attention.wo.weight"])
    blk.norm1.weight = assign(blk.norm1.weight, params[f"layers.{l}.attention_norm.weight"])
    blk.ff.fc1.weight = assign(blk.ff.fc1.weight, params[f"layers.{l}.feed_forward.w1.weight"])
    blk.ff.fc2.weight = assign(blk.ff.fc2.weight, params[f"layers.{l}.feed_forward.w3.weight"])
    blk.ff.fc3.weight = assign(blk.ff.fc3.weight, params[f"layers.{l}.feed_forward.w2.weight"])
    blk.norm2.weight = assign(blk.norm2.weight, params[f"layers.{l}.ffn_norm.weight"])
model.final_norm.weight = assign(model.final_norm.weight, params["norm.weight"])
model.out_head.weight = assign(model.out_head.weight, params["output.weight"])
print(model.tok_emb.weight[0, :6], model.final_norm.weight.dtype)


def generate(model, idx, max_new_tokens, context_size, temperature=0.0, top_k=None, eos_id=None):
    for _ in range(max_new_tokens):
        idx_cond = idx[:, -context_size:]
        with torch.no_grad():
            logits = model(idx_cond)
        logits = logits[:, -1, :]
        if top_k is not None:
            top_logits, _ = torch.topk(logits, top_k)
            min_val = top_logits[:, -1]
            logits = torch.where(logits < min_val, torch.tensor(float("-inf")).to(logits.device), logits)
        if temperature > 0.0:
            logits = logits / temperature
            probs = torch.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
        else:
            idx_next = torch.argmax(logits, dim=-1, keepdim=True)
        if idx_next == eos_id:
            break
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


idx = torch.tensor([[5, 17, 42]])
logits = model(idx)
print(logits.dtype, logits.shape, logits[0, -1, :8])
torch.manual_seed(123)
token_ids = generate(model=model, idx=idx, max_new_tokens=10,
                     context_size=cfg["context_length"], top_k=1, temperature=0.)
print("Output ids:", token_ids.squeeze(0).tolist())
torch.manual_seed(123)
token_ids = generate(model=model, idx=idx, max_new_tokens=10,
                     context_size=cfg["context_length"], top_k=3, temperature=1.4)
print("Sampled ids:", token_ids.squeeze(0).tolist())
model32 = Llama2Model(dict(cfg, dtype=torch.float32))
print(model32.load_state_dict(model.state_dict()))
logits32 = model32(idx)
print(logits32.dtype, (logits32[0, -1] - logits[0, -1].float()).abs().max() < 0.5)
