# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# "LLMs from Scratch" ch04 bonus "Mixture of Experts" (gpt_with_kv_moe.py) and ch05's
# generate() with temperature and top-k (Apache-2.0):
# https://github.com/rasbt/LLMs-from-scratch/blob/main/ch04/07_moe/gpt_with_kv_moe.py
# https://github.com/rasbt/LLMs-from-scratch/blob/main/ch05/01_main-chapter-code/gpt_generate.py
# Like the originals: MultiHeadAttention with a KV cache (register_buffer(None,
# persistent=False), torch.cat of cached keys, causal mask from arange positions,
# masked_fill_ with -torch.inf); the hand-written LayerNorm (var(unbiased=False)) and tanh
# GELU; MoEFeedForward (a bias-free gate, topk of the scores, softmax of the top-k, unique
# experts, mask.any / nonzero / index_select, silu(fc1) * fc2 -> fc3, argmax of the int mask
# for the slot, gather of the probabilities, index_add_ into a zeros output); GPTModel with a
# ModuleList of blocks; generate_text_simple_cached with and without the cache (greedy,
# in-place writes into an empty long tensor); generate() with top_k (torch.where with -inf)
# and temperature (softmax, multinomial).
# Differences: tiny config (vocab 50, context 16, emb 16, 2 heads, 2 layers, 4 experts, 2 per
# token); token ids instead of tiktoken text; no timing or memory prints; a few AdamW steps on
# a synthetic next-token task to exercise the MoE backward; parameter counts printed.
import torch
import torch.nn as nn

torch.manual_seed(123)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("cache_k", None, persistent=False)
        self.register_buffer("cache_v", None, persistent=False)
        self.ptr_current_pos = 0

    def forward(self, x, use_cache=False):
        b, num_tokens, d_in = x.shape
        keys_new = self.W_key(x).view(b, num_tokens, self.num_heads, self.head_dim)
        values_new = self.W_value(x).view(b, num_tokens, self.num_heads, self.head_dim)
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim)
        if use_cache:
            if self.cache_k is None:
                self.cache_k, self.cache_v = keys_new, values_new
            else:
                self.cache_k = torch.cat([self.cache_k, keys_new], dim=1)
                self.cache_v = torch.cat([self.cache_v, values_new], dim=1)
            keys, values = self.cache_k, self.cache_v
        else:
            keys, values = keys_new, values_new
        keys = keys.transpose(1, 2)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        num_tokens_Q = queries.shape[-2]
        num_tokens_K = keys.shape[-2]
        if use_cache:
            q_positions = torch.arange(self.ptr_current_pos, self.ptr_current_pos + num_tokens_Q,
                                       dtype=torch.long)
            self.ptr_current_pos += num_tokens_Q
        else:
            q_positions = torch.arange(num_tokens_Q, dtype=torch.long)
            self.ptr_current_pos = 0
        k_positions = torch.arange(num_tokens_K, dtype=torch.long)
        mask_bool = q_positions.unsqueeze(-1) < k_positions.unsqueeze(0)
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)

    def reset_cache(self):
        self.cache_k, self.cache_v = None, None
        self.ptr_current_pos = 0


class LayerNorm(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.eps = 1e-5
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        norm_x = (x - mean) / torch.sqrt(var + self.eps)
        return self.scale * norm_x + self.shift


class GELU(nn.Module):
    def forward(self, x):
        return 0.5 * x * (1 + torch.tanh(
            torch.sqrt(torch.tensor(2.0 / torch.pi)) * (x + 0.044715 * torch.pow(x, 3))))


class MoEFeedForward(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.num_experts_per_tok = cfg["num_experts_per_tok"]
        self.num_experts = cfg["num_experts"]
        self.emb_dim = cfg["emb_dim"]
        self.gate = nn.Linear(cfg["emb_dim"], cfg["num_experts"], bias=False)
        self.fc1 = nn.ModuleList([nn.Linear(cfg["emb_dim"], cfg["hidden_dim"], bias=False)
                                  for _ in range(self.num_experts)])
        self.fc2 = nn.ModuleList([nn.Linear(cfg["emb_dim"], cfg["hidden_dim"], bias=False)
                                  for _ in range(self.num_experts)])
        self.fc3 = nn.ModuleList([nn.Linear(cfg["hidden_dim"], cfg["emb_dim"], bias=False)
                                  for _ in range(self.num_experts)])

    def forward(self, x):
        scores = self.gate(x)
        topk_scores, topk_indices = torch.topk(scores, self.num_experts_per_tok, dim=-1)
        topk_probs = torch.softmax(topk_scores, dim=-1)
        batch, seq_len, _ = x.shape
        x_flat = x.reshape(batch * seq_len, -1)
        out_flat = torch.zeros(batch * seq_len, self.emb_dim, device=x.device, dtype=x.dtype)
        topk_indices_flat = topk_indices.reshape(-1, self.num_experts_per_tok)
        topk_probs_flat = topk_probs.reshape(-1, self.num_experts_per_tok)
        unique_experts = torch.unique(topk_indices_flat)
        for expert_id_tensor in unique_experts:
            expert_id = int(expert_id_tensor.item())
            mask = topk_indices_flat == expert_id
            if not mask.any():
                continue
            token_mask = mask.any(dim=-1)
            selected_idx = token_mask.nonzero(as_tuple=False).squeeze(-1)
            if selected_idx.numel() == 0:
                continue
            expert_input = x_flat.index_select(0, selected_idx)
            hidden = torch.nn.functional.silu(self.fc1[expert_id](expert_input)) \
                * self.fc2[expert_id](expert_input)
            expert_out = self.fc3[expert_id](hidden)
            mask_selected = mask[selected_idx]
            slot_indices = mask_selected.int().argmax(dim=-1, keepdim=True)
            selected_probs = torch.gather(topk_probs_flat.index_select(0, selected_idx),
                                          dim=-1, index=slot_indices).squeeze(-1)
            out_flat.index_add_(0, selected_idx, expert_out * selected_probs.unsqueeze(-1))
        return out_flat.reshape(batch, seq_len, self.emb_dim)


class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.att = MultiHeadAttention(cfg["emb_dim"], cfg["emb_dim"], cfg["drop_rate"],
                                      cfg["n_heads"], cfg["qkv_bias"])
        self.ff = MoEFeedForward(cfg)
        self.norm1 = LayerNorm(cfg["emb_dim"])
        self.norm2 = LayerNorm(cfg["emb_dim"])
        self.drop_shortcut = nn.Dropout(cfg["drop_rate"])

    def forward(self, x, use_cache=False):
        shortcut = x
        x = self.drop_shortcut(self.att(self.norm1(x), use_cache=use_cache)) + shortcut
        shortcut = x
        return self.drop_shortcut(self.ff(self.norm2(x))) + shortcut


class GPTModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
        self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
        self.drop_emb = nn.Dropout(cfg["drop_rate"])
        self.trf_blocks = nn.ModuleList([TransformerBlock(cfg) for _ in range(cfg["n_layers"])])
        self.current_pos = 0
        self.final_norm = LayerNorm(cfg["emb_dim"])
        self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)

    def forward(self, in_idx, use_cache=False):
        batch_size, seq_len = in_idx.shape
        tok_embeds = self.tok_emb(in_idx)
        if use_cache:
            pos_ids = torch.arange(self.current_pos, self.current_pos + seq_len, dtype=torch.long)
            self.current_pos += seq_len
        else:
            pos_ids = torch.arange(0, seq_len, dtype=torch.long)
        x = self.drop_emb(tok_embeds + self.pos_emb(pos_ids).unsqueeze(0))
        for blk in self.trf_blocks:
            x = blk(x, use_cache=use_cache)
        return self.out_head(self.final_norm(x))

    def reset_kv_cache(self):
        for blk in self.trf_blocks:
            blk.att.reset_cache()
        self.current_pos = 0


def generate_text_simple_cached(model, idx, max_new_tokens, context_size=None, use_cache=True):
    model.eval()
    ctx_len = context_size or model.pos_emb.num_embeddings
    batch_size, base_len = idx.shape
    generated = torch.empty(batch_size, base_len + max_new_tokens, dtype=idx.dtype)
    generated[:, :base_len] = idx
    cur_len = base_len
    with torch.no_grad():
        if use_cache:
            model.reset_kv_cache()
            logits = model(generated[:, max(0, cur_len - ctx_len):cur_len], use_cache=True)
            for _ in range(max_new_tokens):
                next_idx = logits[:, -1].argmax(dim=-1)
                generated[:, cur_len] = next_idx
                cur_len += 1
                logits = model(generated[:, cur_len - 1:cur_len], use_cache=True)
        else:
            for _ in range(max_new_tokens):
                logits = model(generated[:, max(0, cur_len - ctx_len):cur_len], use_cache=False)
                next_idx = logits[:, -1].argmax(dim=-1)
                generated[:, cur_len] = next_idx
                cur_len += 1
    return generated[:, :cur_len]


def generate(model, idx, max_new_tokens, context_size, temperature=0.0, top_k=None, eos_id=None):
    for _ in range(max_new_tokens):
        idx_cond = idx[:, -context_size:]
        with torch.no_grad():
            logits = model(idx_cond)
        logits = logits[:, -1, :]
        if top_k is not None:
            top_logits, _ = torch.topk(logits, top_k)
            min_val = top_logits[:, -1]
            logits = torch.where(logits < min_val, torch.tensor(float("-inf")).to(logits.device),
                                 logits)
        if temperature > 0.0:
            logits = logits / temperature
            logits = logits - logits.max(dim=-1, keepdim=True).values
            probs = torch.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
        else:
            idx_next = torch.argmax(logits, dim=-1, keepdim=True)
        if idx_next == eos_id:
            break
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


cfg = {"vocab_size": 50, "context_length": 16, "emb_dim": 16, "hidden_dim": 32, "n_heads": 2,
       "n_layers": 2, "drop_rate": 0.0, "qkv_bias": False, "num_experts": 4,
       "num_experts_per_tok": 2}
model = GPTModel(cfg)
model.eval()
print(model.trf_blocks[0].ff)
print("Total parameters:", sum(p.numel() for p in model.parameters()))
print("Buffers:", [name for name, _ in model.named_buffers()], list(model.state_dict())[:4])

start = torch.tensor([[7, 3, 21, 9]])
out_cache = generate_text_simple_cached(model, start, 8, use_cache=True)
out_plain = generate_text_simple_cached(model, start, 8, use_cache=False)
print("cached:  ", out_cache)
print("uncached:", out_plain)
print("equal:", torch.equal(out_cache, out_plain))
print(model.trf_blocks[0].att.cache_k.shape, model.current_pos)

optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=0.1)
data = torch.randint(0, cfg["vocab_size"], (4, 9))
inputs, targets = data[:, :-1], (data[:, :-1] + 1) % cfg["vocab_size"]
model.train()
for step in range(8):
    optimizer.zero_grad()
    logits = model(inputs)
    loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten())
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f} "
          f"gate grad {model.trf_blocks[0].ff.gate.weight.grad.norm():.5f}")

model.eval()
torch.manual_seed(456)
sampled = generate(model, start, 8, cfg["context_length"], temperature=1.4, top_k=5)
print("sampled:", sampled.tolist())
print("greedy:", generate(model, start, 6, cfg["context_length"]).tolist())
print("eos stop:", generate(model, start, 6, cfg["context_length"], eos_id=int(sampled[0, 4])).tolist())
