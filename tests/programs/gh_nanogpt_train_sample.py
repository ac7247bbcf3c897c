# Corpus program, written for gradsh (no code copied). Modelled on karpathy/nanoGPT (MIT):
# https://github.com/karpathy/nanoGPT/blob/master/model.py
# https://github.com/karpathy/nanoGPT/blob/master/train.py
# https://github.com/karpathy/nanoGPT/blob/master/sample.py
# https://github.com/karpathy/nanoGPT/blob/master/data/shakespeare_char/prepare.py
# Like the original: train.py's imports at the top (DistributedDataParallel and
# torch.distributed's init_process_group / destroy_process_group, used only under torchrun:
# `ddp = int(os.environ.get('RANK', -1)) != -1`); a character-level dataset made as prepare.py
# does (sorted chars, stoi / itos, a 90/10 split kept as uint16 arrays); a GPTConfig
# dataclass; a LayerNorm with an optional bias through F.layer_norm; CausalSelfAttention with
# one c_attn projection split into q, k, v, heads by view/transpose and
# F.scaled_dot_product_attention(is_causal=True, dropout_p while training); MLP with GELU;
# Blocks with pre-norm residuals; a GPT with weight tying (wte.weight = lm_head.weight),
# _init_weights (normal std 0.02, zeros for biases) and the scaled init of every
# c_proj.weight, get_num_params without the position embeddings, forward returning (logits,
# loss) with ignore_index=-1 and only the last position's logits at inference, and
# generate() cropping the context, scaling by a temperature, keeping the top_k logits and
# sampling with torch.multinomial; configure_optimizers splitting parameters by p.dim() >= 2
# into decayed and non-decayed groups, printing their counts and whether AdamW takes `fused`
# (inspect.signature); get_batch with torch.randint offsets and torch.from_numpy(...
# .astype(np.int64)) slices stacked; the warmup-then-cosine get_lr; estimate_loss under
# @torch.no_grad() with model.eval() / model.train(); a GradScaler made with
# torch.cuda.amp.GradScaler(enabled=(dtype == 'float16')) and used for scale / unscale_ /
# step / update; clip_grad_norm_; zero_grad(set_to_none=True); gradient accumulation over
# micro-steps; the 'step N: train loss ..., val loss ...' and 'iter N: loss ...' lines; a
# checkpoint dict (model, optimizer, model_args, iter_num, best_val_loss, config) saved with
# torch.save and loaded back as sample.py does, stripping an '_orig_mod.' prefix, then
# samples decoded to text.
# Differences: our own code; a generated text instead of Tiny Shakespeare; tiny sizes
# (2 layers, 2 heads, 32 embedding dims, block 16, batch 4), 20 iterations; the timing and
# MFU fields of the log line are left out (they depend on the machine); the checkpoint goes
# to a temporary folder; seeded.
import inspect
import math
import os
import tempfile
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.distributed import destroy_process_group, init_process_group
from torch.nn import functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

# --- data, as prepare.py makes it
words = ("the king is dead long live the king and all the lords of the land "
         "sing of the queen who rode to war").split()
rng = np.random.RandomState(0)
text = " ".join(words[i] for i in rng.randint(0, len(words), 600)) + "\n"
chars = sorted(list(set(text)))
vocab_size = len(chars)
print("all the unique characters:", "".join(chars).replace("\n", "\\n"))
print(f"vocab size: {vocab_size:,}")
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}


def encode(s):
    return [stoi[c] for c in s]


def decode(ids):
    return "".join([itos[i] for i in ids])


n = len(text)
train_ids = np.array(encode(text[:int(n * 0.9)]), dtype=np.uint16)
val_ids = np.array(encode(text[int(n * 0.9):]), dtype=np.uint16)
print(f"train has {len(train_ids):,} tokens")
print(f"val has {len(val_ids):,} tokens")


# --- the model
class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, input):
        return F.layer_norm(input, self.weight.shape, self.weight, self.bias, 1e-5)


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.attn_dropout = nn.Dropout(config.dropout)
        self.resid_dropout = nn.Dropout(config.dropout)
        self.n_head = config.n_head
        self.n_embd = config.n_embd
        self.dropout = config.dropout
        self.flash = hasattr(torch.nn.functional, "scaled_dot_product_attention")

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None,
                                           dropout_p=self.dropout if self.training else 0,
                                           is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = LayerNorm(config.n_embd, bias=config.bias)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = LayerNorm(config.n_embd, bias=config.bias)
        self.mlp = MLP(config)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


@dataclass
class GPTConfig:
    block_size: int = 1024
    vocab_size: int = 50304
    n_layer: int = 12
    n_head: int = 12
    n_embd: int = 768
    dropout: float = 0.0
    bias: bool = True


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            wpe=nn.Embedding(config.block_size, config.n_embd),
            drop=nn.Dropout(config.dropout),
            h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
            ln_f=LayerNorm(config.n_embd, bias=config.bias),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # weight tying
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * config.n_layer))
        print("number of parameters: %.2fM" % (self.get_num_params() / 1e6,))
        print("exact count:", self.get_num_params(), "with positions:",
              self.get_num_params(non_embedding=False))

    def get_num_params(self, non_embedding=True):
        n_params = sum(p.numel() for p in self.parameters())
        if non_embedding:
            n_params -= self.transformer.wpe.weight.numel()
        return n_params

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        b, t = idx.size()
        assert t <= self.config.block_size, f"sequence of length {t} is too long"
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        x = self.transformer.ln_f(x)
        if targets is not None:
            logits = self.lm_head(x)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1),
                                   ignore_index=-1)
        else:
            logits = self.lm_head(x[:, [-1], :])
            loss = None
        return logits, loss

    def configure_optimizers(self, weight_decay, learning_rate, betas, device_type):
        param_dict = {pn: p for pn, p in self.named_parameters() if p.requires_grad}
        decay_params = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay_params = [p for n, p in param_dict.items() if p.dim() < 2]
        optim_groups = [
            {"params": decay_params, "weight_decay": weight_decay},
            {"params": nodecay_params, "weight_decay": 0.0},
        ]
        num_decay_params = sum(p.numel() for p in decay_params)
        num_nodecay_params = sum(p.numel() for p in nodecay_params)
        print(f"num decayed parameter tensors: {len(decay_params)}, "
              f"with {num_decay_params:,} parameters")
        print(f"num non-decayed parameter tensors: {len(nodecay_params)}, "
              f"with {num_nodecay_params:,} parameters")
        fused_available = "fused" in inspect.signature(torch.optim.AdamW).parameters
        use_fused = fused_available and device_type == "cuda"
        extra_args = dict(fused=True) if use_fused else dict()
        optimizer = torch.optim.AdamW(optim_groups, lr=learning_rate, betas=betas, **extra_args)
        print(f"using fused AdamW: {use_fused}")
        return optimizer

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
        for _ in range(max_new_tokens):
            idx_cond = (idx if idx.size(1) <= self.config.block_size
                        else idx[:, -self.config.block_size:])
            logits, _ = self(idx_cond)
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float("Inf")
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


# --- train.py
out_dir = tempfile.mkdtemp()
eval_interval = 10
log_interval = 5
eval_iters = 4
gradient_accumulation_steps = 2
batch_size = 4
block_size = 16
n_layer, n_head, n_embd, dropout, bias = 2, 2, 32, 0.1, False
learning_rate = 1e-3
max_iters = 20
weight_decay = 1e-1
beta1, beta2 = 0.9, 0.99
grad_clip = 1.0
decay_lr = True
warmup_iters = 5
lr_decay_iters = 20
min_lr = 1e-4
device = "cpu"
dtype = "float32"
config = {k: v for k, v in dict(globals()).items()
          if not k.startswith("_") and isinstance(v, (int, float, bool, str))}

ddp = int(os.environ.get("RANK", -1)) != -1
if ddp:
    init_process_group(backend="nccl")
master_process = True
seed_offset = 0
tokens_per_iter = gradient_accumulation_steps * batch_size * block_size
print(f"tokens per iteration will be: {tokens_per_iter:,}")
torch.manual_seed(1337 + seed_offset)
device_type = "cuda" if "cuda" in device else "cpu"
ctx = nullcontext()


def get_batch(split):
    data = train_ids if split == "train" else val_ids
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy((data[i:i + block_size]).astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy((data[i + 1:i + 1 + block_size]).astype(np.int64))
                     for i in ix])
    return x.to(device), y.to(device)


iter_num = 0
best_val_loss = 1e9
model_args = dict(n_layer=n_layer, n_head=n_head, n_embd=n_embd, block_size=block_size,
                  bias=bias, vocab_size=vocab_size, dropout=dropout)
print("Initializing a new model from scratch")
model = GPT(GPTConfig(**model_args))
model.to(device)
scaler = torch.cuda.amp.GradScaler(enabled=(dtype == "float16"))
optimizer = model.configure_optimizers(weight_decay, learning_rate, (beta1, beta2), device_type)
if ddp:
    model = DDP(model, device_ids=[0])


@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            with ctx:
                logits, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


def get_lr(it):
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    if it > lr_decay_iters:
        return min_lr
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    assert 0 <= decay_ratio <= 1
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return min_lr + coeff * (learning_rate - min_lr)


X, Y = get_batch("train")
raw_model = model.module if ddp else model
while True:
    lr = get_lr(iter_num) if decay_lr else learning_rate
    for param_group in optimizer.param_groups:
        param_group["lr"] = lr
    if iter_num % eval_interval == 0 and master_process:
        losses = estimate_loss()
        print(f"step {iter_num}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")
        if losses["val"] < best_val_loss:
            best_val_loss = losses["val"]
            if iter_num > 0:
                checkpoint = {
                    "model": raw_model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "model_args": model_args,
                    "iter_num": iter_num,
                    "best_val_loss": best_val_loss,
                    "config": config,
                }
                print("saving checkpoint to out_dir")
                torch.save(checkpoint, os.path.join(out_dir, "ckpt.pt"))
    for micro_step in range(gradient_accumulation_steps):
        with ctx:
            logits, loss = model(X, Y)
            loss = loss / gradient_accumulation_steps
        X, Y = get_batch("train")
        scaler.scale(loss).backward()
    if grad_clip != 0.0:
        scaler.unscale_(optimizer)
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    if iter_num % log_interval == 0 and master_process:
        lossf = loss.item() * gradient_accumulation_steps
        print(f"iter {iter_num}: loss {lossf:.4f}, lr {lr:.6f}, grad norm {norm.item():.4f}")
    iter_num += 1
    if iter_num > max_iters:
        break
if ddp:
    destroy_process_group()

# --- sample.py
checkpoint = torch.load(os.path.join(out_dir, "ckpt.pt"), map_location=device)
print("checkpoint keys:", sorted(checkpoint), "iter", checkpoint["iter_num"],
      "best val %.4f" % checkpoint["best_val_loss"])
gptconf = GPTConfig(**checkpoint["model_args"])
model = GPT(gptconf)
state_dict = checkpoint["model"]
unwanted_prefix = "_orig_mod."
for k, v in list(state_dict.items()):
    if k.startswith(unwanted_prefix):
        state_dict[k[len(unwanted_prefix):]] = state_dict.pop(k)
print(model.load_state_dict(state_dict))
model.eval()
torch.manual_seed(1337)
start_ids = encode("the ")
x = torch.tensor(start_ids, dtype=torch.long, device=device)[None, ...]
with torch.no_grad():
    with ctx:
        for k in range(2):
            y = model.generate(x, 30, temperature=0.8, top_k=10)
            print(repr(decode(y[0].tolist())))
            print("---------------")
