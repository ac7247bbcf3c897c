# Corpus program, written for gradsh (no code copied). Modelled on Sebastian Raschka's
# "LLMs from Scratch" ch02-ch05 main code (Apache-2.0): ch02's GPTDatasetV1 (a sliding window
# over the token ids with max_length and stride, input and target chunks shifted by one) and
# create_dataloader_v1 (shuffle, drop_last); ch03's MultiHeadAttention (a registered triu mask,
# masked_fill_ with -torch.inf, dropout on the weights); ch04's GPTModel (token and position
# embeddings, nn.Sequential of TransformerBlocks with the hand-written LayerNorm, tanh GELU and
# FeedForward, shortcut connections with dropout) and generate_text_simple; ch05's
# gpt_train.py (calc_loss_batch with flatten(0, 1), calc_loss_loader, evaluate_model,
# generate_and_print_sample, train_model_simple printing "Ep 1 (Step 000000): Train loss ...",
# AdamW(lr=0.0004, weight_decay=0.1)) and saving model and optimizer state to a file:
# https://github.com/rasbt/LLMs-from-scratch/blob/main/ch05/01_main-chapter-code/gpt_train.py
# https://github.com/rasbt/LLMs-from-scratch/blob/main/ch04/01_main-chapter-code/previous_chapters.py
# Differences: a character-level tokenizer over a short built-in text instead of tiktoken and
# "The Verdict"; a tiny config (context 16, emb 32, 2 heads, 2 layers); 2 epochs; 12 new tokens
# per sample; the checkpoint goes to an in-memory buffer.
import io

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

TEXT = ("the little engine climbed the hill slowly and the people in the valley watched it. "
        "every morning the engine carried milk and bread to the town, and every evening it "
        "came back empty. one day the hill was covered with snow, and the engine said: i think "
        "i can, i think i can. the snow was deep but the engine kept going, and at the top of "
        "the hill the children cheered. ")


class CharTokenizer:
    def __init__(self, text):
        self.chars = sorted(set(text))
        self.stoi = {c: i for i, c in enumerate(self.chars)}

    def encode(self, text):
        return [self.stoi[c] for c in text]

    def decode(self, ids):
        return "".join(self.chars[i] for i in ids)


class GPTDatasetV1(Dataset):
    def __init__(self, txt, tokenizer, max_length, stride):
        self.input_ids = []
        self.target_ids = []
        token_ids = tokenizer.encode(txt)
        for i in range(0, len(token_ids) - max_length, stride):
            input_chunk = token_ids[i:i + max_length]
            target_chunk = token_ids[i + 1: i + max_length + 1]
            self.input_ids.append(torch.tensor(input_chunk))
            self.target_ids.append(torch.tensor(target_chunk))

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, idx):
        return self.input_ids[idx], self.target_ids[idx]


def create_dataloader_v1(txt, tokenizer, batch_size=4, max_length=256, stride=128,
                         shuffle=True, drop_last=True, num_workers=0):
    dataset = GPTDatasetV1(txt, tokenizer, max_length, stride)
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last,
                      num_workers=num_workers)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer('mask', torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        values = self.W_value(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.reshape(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)


class LayerNorm(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.eps = 1e-5
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        return self.scale * (x - mean) / torch.sqrt(var + self.eps) + self.shift


class GELU(nn.Module):
    def forward(self, x):
        return 0.5 * x * (1 + torch.tanh(torch.sqrt(torch.tensor(2.0 / torch.pi)) *
                                         (x + 0.044715 * torch.pow(x, 3))))


class FeedForward(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(cfg["emb_dim"], 4 * cfg["emb_dim"]), GELU(),
                                    nn.Linear(4 * cfg["emb_dim"], cfg["emb_dim"]))

    def forward(self, x):
        return self.layers(x)


class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.att = MultiHeadAttention(cfg["emb_dim"], cfg["emb_dim"], cfg["context_length"],
                                      cfg["drop_rate"], cfg["n_heads"], cfg["qkv_bias"])
        self.ff = FeedForward(cfg)
        self.norm1 = LayerNorm(cfg["emb_dim"])
        self.norm2 = LayerNorm(cfg["emb_dim"])
        self.drop_shortcut = nn.Dropout(cfg["drop_rate"])

    def forward(self, x):
        shortcut = x
        x = self.drop_shortcut(self.att(self.norm1(x))) + shortcut
        shortcut = x
        return self.drop_shortcut(self.ff(self.norm2(x))) + shortcut


class GPTModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocab_size"], cfg["emb_dim"])
        self.pos_emb = nn.Embedding(cfg["context_length"], cfg["emb_dim"])
        self.drop_emb = nn.Dropout(cfg["drop_rate"])
        self.trf_blocks = nn.Sequential(*[TransformerBlock(cfg) for _ in range(cfg["n_layers"])])
        self.final_norm = LayerNorm(cfg["emb_dim"])
        self.out_head = nn.Linear(cfg["emb_dim"], cfg["vocab_size"], bias=False)

    def forward(self, in_idx):
        batch_size, seq_len = in_idx.shape
        tok_embeds = self.tok_emb(in_idx)
        pos_embeds = self.pos_emb(torch.arange(seq_len, device=in_idx.device))
        x = self.drop_emb(tok_embeds + pos_embeds)
        x = self.trf_blocks(x)
        return self.out_head(self.final_norm(x))


def generate_text_simple(model, idx, max_new_tokens, context_size):
    for _ in range(max_new_tokens):
        idx_cond = idx[:, -context_size:]
        with torch.no_grad():
            logits = model(idx_cond)
        logits = logits[:, -1, :]
        idx_next = torch.argmax(logits, dim=-1, keepdim=True)
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


def text_to_token_ids(text, tokenizer):
    return torch.tensor(tokenizer.encode(text)).unsqueeze(0)


def token_ids_to_text(token_ids, tokenizer):
    return tokenizer.decode(token_ids.squeeze(0).tolist())


def calc_loss_batch(input_batch, target_batch, model, device):
    input_batch, target_batch = input_batch.to(device), target_batch.to(device)
    logits = model(input_batch)
    return torch.nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.flatten())


def calc_loss_loader(data_loader, model, device, num_batches=None):
    total_loss = 0.
    if len(data_loader) == 0:
        return float("nan")
    elif num_batches is None:
        num_batches = len(data_loader)
    else:
        num_batches = min(num_batches, len(data_loader))
    for i, (input_batch, target_batch) in enumerate(data_loader):
        if i < num_batches:
            total_loss += calc_loss_batch(input_batch, target_batch, model, device).item()
        else:
            break
    return total_loss / num_batches


def evaluate_model(model, train_loader, val_loader, device, eval_iter):
    model.eval()
    with torch.no_grad():
        train_loss = calc_loss_loader(train_loader, model, device, num_batches=eval_iter)
        val_loss = calc_loss_loader(val_loader, model, device, num_batches=eval_iter)
    model.train()
    return train_loss, val_loss


def generate_and_print_sample(model, tokenizer, device, start_context):
    model.eval()
    context_size = model.pos_emb.weight.shape[0]
    encoded = text_to_token_ids(start_context, tokenizer).to(device)
    with torch.no_grad():
        token_ids = generate_text_simple(model=model, idx=encoded, max_new_tokens=12,
                                         context_size=context_size)
    print(token_ids_to_text(token_ids, tokenizer).replace("\n", " "))
    model.train()


def train_model_simple(model, train_loader, val_loader, optimizer, device, num_epochs,
                       eval_freq, eval_iter, start_context, tokenizer):
    train_losses, val_losses, track_tokens_seen = [], [], []
    tokens_seen = 0
    global_step = -1
    for epoch in range(num_epochs):
        model.train()
        for input_batch, target_batch in train_loader:
            optimizer.zero_grad()
            loss = calc_loss_batch(input_batch, target_batch, model, device)
            loss.backward()
            optimizer.step()
            tokens_seen += input_batch.numel()
            global_step += 1
            if global_step % eval_freq == 0:
                train_loss, val_loss = evaluate_model(model, train_loader, val_loader, device,
                                                      eval_iter)
                train_losses.append(train_loss)
                val_losses.append(val_loss)
                track_tokens_seen.append(tokens_seen)
                print(f"Ep {epoch+1} (Step {global_step:06d}): "
                      f"Train loss {train_loss:.3f}, Val loss {val_loss:.3f}")
        generate_and_print_sample(model, tokenizer, device, start_context)
    return train_losses, val_losses, track_tokens_seen


torch.manual_seed(123)
device = torch.device("cpu")
tokenizer = CharTokenizer(TEXT)
GPT_CONFIG = {"vocab_size": len(tokenizer.chars), "context_length": 16, "emb_dim": 32,
              "n_heads": 2, "n_layers": 2, "drop_rate": 0.1, "qkv_bias": False}
print("vocab size:", GPT_CONFIG["vocab_size"], "characters:", len(TEXT))

dataloader = create_dataloader_v1(TEXT, tokenizer, batch_size=4, max_length=4, stride=4,
                                  shuffle=False)
first = next(iter(dataloader))
print("Inputs:\n", first[0], "\nTargets:\n", first[1])
token_embedding_layer = torch.nn.Embedding(GPT_CONFIG["vocab_size"], 8)
pos_embedding_layer = torch.nn.Embedding(4, 8)
input_embeddings = token_embedding_layer(first[0]) + pos_embedding_layer(torch.arange(4))
print(input_embeddings.shape)

model = GPTModel(GPT_CONFIG)
model.to(device)
print("Total parameters:", sum(p.numel() for p in model.parameters()))
optimizer = torch.optim.AdamW(model.parameters(), lr=0.0004 * 10, weight_decay=0.1)

train_ratio = 0.85
split_idx = int(train_ratio * len(TEXT))
train_loader = create_dataloader_v1(TEXT[:split_idx], tokenizer, batch_size=4,
                                    max_length=GPT_CONFIG["context_length"],
                                    stride=GPT_CONFIG["context_length"], drop_last=True,
                                    shuffle=True)
val_loader = create_dataloader_v1(TEXT[split_idx:], tokenizer, batch_size=2,
                                  max_length=GPT_CONFIG["context_length"],
                                  stride=GPT_CONFIG["context_length"], drop_last=False,
                                  shuffle=False)
print(len(train_loader), len(val_loader))
train_losses, val_losses, tokens_seen = train_model_simple(
    model, train_loader, val_loader, optimizer, device, num_epochs=2, eval_freq=2,
    eval_iter=1, start_context="the engine", tokenizer=tokenizer)
print("tokens seen:", tokens_seen)

buffer = io.BytesIO()
torch.save({"model_state_dict": model.state_dict(),
            "optimizer_state_dict": optimizer.state_dict()}, buffer)
buffer.seek(0)
checkpoint = torch.load(buffer, weights_only=True)
model2 = GPTModel(GPT_CONFIG)
model2.load_state_dict(checkpoint["model_state_dict"])
optimizer2 = torch.optim.AdamW(model2.parameters(), lr=0.0005, weight_decay=0.1)
optimizer2.load_state_dict(checkpoint["optimizer_state_dict"])
print(sorted(checkpoint["model_state_dict"])[:5], optimizer2.param_groups[0]["lr"])
model2.eval()
model.eval()
x = text_to_token_ids("the hill", tokenizer)
print(torch.equal(model(x), model2(x)))
print(optimizer2.state[next(model2.parameters())]["step"])
