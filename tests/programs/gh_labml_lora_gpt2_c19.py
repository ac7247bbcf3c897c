# Corpus program, written for gradsh (no code copied). Modelled on labml.ai's annotated LoRA
# (MIT licence): labml_nn/lora/__init__.py (Linear and Embedding whose pretrained weight is an
# nn.Parameter(torch.empty(...)) with requires_grad = False, lora_a initialised by
# kaiming_uniform_(a=5 ** 0.5) or normal_, lora_b by zeros_, result += x @ lora_a.T @ lora_b.T *
# scaling, F.embedding(x, lora_a.T)), labml_nn/lora/gpt2.py (a GPT-2 with LoRA layers: qkv
# projection split(d_model, dim=-1), heads by view/permute, F.scaled_dot_product_attention(...,
# is_causal=True), GELU feed-forward, pre-norm blocks) and experiment.py (_load_pretrained_weights:
# a key mapping from Hugging Face names, the Conv1D weights transposed, load_state_dict(...,
# strict=False) with missing keys all LoRA ones; Adam over model.parameters(); next-token
# cross-entropy on inputs[:, :-1] / inputs[:, 1:]):
# https://github.com/labmlai/annotated_deep_learning_paper_implementations/tree/master/labml_nn/lora
# Differences: no download: a small GPT-2-shaped model (d_model 32, 2 layers, 4 heads, 16
# positions, a 20-character vocabulary) whose "pretrained" Hugging Face-style state dict is
# seeded random tensors; a short repeated text as the data; 8 steps; lora_r 4.
import torch
import torch.nn as nn
from torch.optim import Adam
from torch.utils.data import DataLoader, TensorDataset


class Linear(nn.Module):
    def __init__(self, in_features, out_features, bias, r, alpha=None):
        super().__init__()
        if alpha is None:
            alpha = r
        self.weight = nn.Parameter(torch.empty((out_features, in_features)))
        self.weight.requires_grad = False
        if bias:
            self.bias = nn.Parameter(torch.empty(out_features))
            self.bias.requires_grad = False
        else:
            self.bias = None
        self.scaling = alpha / r
        self.lora_a = nn.Parameter(torch.empty((r, in_features)))
        self.lora_b = nn.Parameter(torch.empty((out_features, r)))
        with torch.no_grad():
            nn.init.kaiming_uniform_(self.lora_a, a=5 ** 0.5)
            nn.init.zeros_(self.lora_b)

    def forward(self, x):
        result = nn.functional.linear(x, self.weight, bias=self.bias)
        result += (x @ self.lora_a.T @ self.lora_b.T) * self.scaling
        return result


class Embedding(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, r, alpha=None):
        super().__init__()
        if alpha is None:
            alpha = r
        self.weight = nn.Parameter(torch.empty((num_embeddings, embedding_dim)))
        self.weight.requires_grad = False
        self.scaling = alpha / r
        self.lora_a = nn.Parameter(torch.empty((r, num_embeddings)))
        self.lora_b = nn.Parameter(torch.empty((embedding_dim, r)))
        with torch.no_grad():
            nn.init.normal_(self.lora_a)
            nn.init.zeros_(self.lora_b)

    def forward(self, x):
        result = nn.functional.embedding(x, self.weight)
        result += (nn.functional.embedding(x, self.lora_a.T) @ self.lora_b.T) * self.scaling
        return result


class FFN(nn.Module):
    def __init__(self, d_model, d_ff, r):
        super().__init__()
        self.linear_in = Linear(d_model, d_ff, r=r, bias=True)
        self.linear_out = Linear(d_ff, d_model, r=r, bias=True)
        self.act = nn.GELU()

    def forward(self, x):
        return self.linear_out(self.act(self.linear_in(x)))


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, r):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv_projection = Linear(d_model, d_model * 3, r=r, bias=True)
        self.output_projection = Linear(d_model, d_model, r=r, bias=True)

    def _split_heads(self, x):
        x = x.view(x.shape[:-1] + (self.n_heads, self.d_head))
        return x.permute(0, 2, 1, 3)

    def forward(self, x):
        batch_size, seq_length, _ = x.shape
        q, k, v = self.qkv_projection(x).split(self.d_model, dim=-1)
        q, k, v = self._split_heads(q), self._split_heads(k), self._split_heads(v)
        attn_output = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        attn_output = attn_output.permute(0, 2, 1, 3).reshape(batch_size, seq_length, self.d_model)
        return self.output_projection(attn_output)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, layer_norm_epsilon, r):
        super().__init__()
        self.attn_norm = nn.LayerNorm(d_model, eps=layer_norm_epsilon)
        self.attn = MultiHeadAttention(d_model, n_heads, r)
        self.ffn_norm = nn.LayerNorm(d_model, eps=layer_norm_epsilon)
        self.ffn = FFN(d_model, d_model * 4, r)

    def forward(self, x):
        x = x + self.attn(self.attn_norm(x))
        x = x + self.ffn(self.ffn_norm(x))
        return x


class GPTModel(nn.Module):
    def __init__(self, *, d_model, n_heads, n_layers, n_positions, layer_norm_epsilon, vocab_size, r):
        super().__init__()
        self.token_embedding = Embedding(vocab_size, d_model, r=r)
        self.position_embedding = Embedding(n_positions, d_model, r=r)
        self.blocks = nn.ModuleList([Block(d_model, n_heads, layer_norm_epsilon, r=r)
                                     for _ in range(n_layers)])
        self.final_norm = nn.LayerNorm(d_model, eps=layer_norm_epsilon)
        self.lm_head = Linear(d_model, vocab_size, r=r, bias=False)

    def forward(self, input_ids):
        batch_size, seq_len = input_ids.shape
        token_embeddings = self.token_embedding(input_ids)
        position_ids = torch.arange(seq_len, device=input_ids.device)[None, :]
        position_embeddings = self.position_embedding(position_ids)
        x = token_embeddings + position_embeddings
        for block in self.blocks:
            x = block(x)
        x = self.final_norm(x)
        return self.lm_head(x)


d_model, n_layers, n_heads, n_positions = 32, 2, 4, 16
text = "to be or not to be that is the question whether tis nobler in the mind " * 6
chars = sorted(set(text))
vocab_size = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}

torch.manual_seed(0)
hf_state = {'transformer.wte.weight': torch.randn(vocab_size, d_model) * 0.2,
            'transformer.wpe.weight': torch.randn(n_positions, d_model) * 0.05,
            'transformer.ln_f.weight': torch.ones(d_model), 'transformer.ln_f.bias': torch.zeros(d_model),
            'lm_head.weight': torch.randn(vocab_size, d_model) * 0.2,
            'transformer.h.0.attn.bias': torch.tril(torch.ones(n_positions, n_positions))}
for i in range(n_layers):
    p = f'transformer.h.{i}.'
    hf_state[p + 'ln_1.weight'], hf_state[p + 'ln_1.bias'] = torch.ones(d_model), torch.zeros(d_model)
    hf_state[p + 'ln_2.weight'], hf_state[p + 'ln_2.bias'] = torch.ones(d_model), torch.zeros(d_model)
    hf_state[p + 'attn.c_attn.weight'] = torch.randn(d_model, 3 * d_model) * 0.1
    hf_state[p + 'attn.c_attn.bias'] = torch.zeros(3 * d_model)
    hf_state[p + 'attn.c_proj.weight'] = torch.randn(d_model, d_model) * 0.1
    hf_state[p + 'attn.c_proj.bias'] = torch.zeros(d_model)
    hf_state[p + 'mlp.c_fc.weight'] = torch.randn(d_model, 4 * d_model) * 0.1
    hf_state[p + 'mlp.c_fc.bias'] = torch.zeros(4 * d_model)
    hf_state[p + 'mlp.c_proj.weight'] = torch.randn(4 * d_model, d_model) * 0.1
    hf_state[p + 'mlp.c_proj.bias'] = torch.zeros(d_model)

model = GPTModel(layer_norm_epsilon=1e-5, d_model=d_model, n_layers=n_layers, n_heads=n_heads,
                 n_positions=n_positions, vocab_size=vocab_size, r=4)
mapping = {'transformer.wte.weight': 'token_embedding.weight',
           'transformer.wpe.weight': 'position_embedding.weight',
           'transformer.ln_f.weight': 'final_norm.weight', 'transformer.ln_f.bias': 'final_norm.bias',
           'lm_head.weight': 'lm_head.weight'}
for i in range(n_layers):
    for hf, ours in (('ln_1.weight', 'attn_norm.weight'), ('ln_1.bias', 'attn_norm.bias'),
                     ('attn.c_attn.weight', 'attn.qkv_projection.weight'),
                     ('attn.c_attn.bias', 'attn.qkv_projection.bias'),
                     ('attn.c_proj.weight', 'attn.output_projection.weight'),
                     ('attn.c_proj.bias', 'attn.output_projection.bias'),
                     ('ln_2.weight', 'ffn_norm.weight'), ('ln_2.bias', 'ffn_norm.bias'),
                     ('mlp.c_fc.weight', 'ffn.linear_in.weight'), ('mlp.c_fc.bias', 'ffn.linear_in.bias'),
                     ('mlp.c_proj.weight', 'ffn.linear_out.weight'), ('mlp.c_proj.bias', 'ffn.linear_out.bias')):
        mapping[f'transformer.h.{i}.{hf}'] = f'blocks.{i}.{ours}'
new_state_dict = {}
for old_key, new_key in mapping.items():
    if old_key in hf_state:
        new_state_dict[new_key] = hf_state[old_key]
convo_layers = ([f'blocks.{i}.ffn.linear_in.weight' for i in range(n_layers)] +
                [f'blocks.{i}.ffn.linear_out.weight' for i in range(n_layers)] +
                [f'blocks.{i}.attn.qkv_projection.weight' for i in range(n_layers)] +
                [f'blocks.{i}.attn.output_projection.weight' for i in range(n_layers)])
for layer in convo_layers:
    new_state_dict[layer] = torch.transpose(new_state_dict[layer], 0, 1)
result = model.load_state_dict(new_state_dict, strict=False)
print(result)
missing_keys, unexpected_keys = result
print(all('lora' in key for key in missing_keys), not unexpected_keys, len(missing_keys))
try:
    model.load_state_dict(new_state_dict)
except RuntimeError as e:
    print(str(e)[:160])
print(model.blocks[0].attn)
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
print(len(trainable), trainable[:4])
print(sum(p.numel() for p in model.parameters() if p.requires_grad), sum(p.numel() for p in model.parameters()))

tokens = torch.tensor([stoi[c] for c in text])
context_len = n_positions + 1
num_batches = len(tokens) // (4 * context_len)
input_ids = tokens[:num_batches * 4 * context_len].view(-1, context_len)
print(input_ids.shape, input_ids[0, :10])
data_loader = DataLoader(TensorDataset(input_ids), batch_size=4, shuffle=True)
optimizer = Adam(model.parameters(), lr=1e-2)
loss_func = torch.nn.CrossEntropyLoss()
frozen = model.blocks[1].ffn.linear_in.weight.clone()
step = 0
for epoch in range(4):
    for inputs, in data_loader:
        logits = model(inputs[:, :-1])
        loss = loss_func(logits.reshape(-1, logits.shape[-1]), inputs[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} step {step}: loss {loss.item():.5f}")
        step += 1
print(torch.equal(frozen, model.blocks[1].ffn.linear_in.weight), model.blocks[1].ffn.linear_in.weight.grad)
print(model.lm_head.lora_b.abs().sum(), model.token_embedding.lora_b[:2])
print(len(optimizer.state), optimizer.param_groups[0]['lr'])
