# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 6 "Transformers and Multi-Head Attention" (MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial6/Transformers_and_MHAttention.ipynb
# Like the original: scaled_dot_product (matmul, / math.sqrt(d_k), masked_fill(mask == 0,
# -9e15), softmax) printed on seeded 3x2 q/k/v; expand_mask; a MultiheadAttention with one
# qkv_proj (xavier_uniform_, bias.data.fill_(0)), reshape/permute/chunk(3); EncoderBlock
# (Dropout, ReLU(inplace=True), two LayerNorms), TransformerEncoder over a ModuleList with
# get_attention_maps; PositionalEncoding with register_buffer(persistent=False); the
# CosineWarmupScheduler subclass of optim.lr_scheduler._LRScheduler overriding get_lr with a
# NumPy cosine factor; the ReverseDataset (torch.flip of random digit sequences), one_hot
# inputs, cross_entropy over preds.view(-1, C), accuracy, gradient clipping at 5.
# Differences: a plain training loop instead of PyTorch Lightning (Adam, the scheduler stepped
# per iteration, clip_grad_norm_), 2048 sequences, 3 epochs, printed losses; seeded with
# torch.manual_seed/np.random.seed/random.seed for pl.seed_everything.
import math
import random
from functools import partial

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import torch.utils.data as data


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def scaled_dot_product(q, k, v, mask=None):
    d_k = q.size()[-1]
    attn_logits = torch.matmul(q, k.transpose(-2, -1))
    attn_logits = attn_logits / math.sqrt(d_k)
    if mask is not None:
        attn_logits = attn_logits.masked_fill(mask == 0, -9e15)
    attention = F.softmax(attn_logits, dim=-1)
    values = torch.matmul(attention, v)
    return values, attention


seq_len, d_k = 3, 2
seed_everything(42)
q = torch.randn(seq_len, d_k)
k = torch.randn(seq_len, d_k)
v = torch.randn(seq_len, d_k)
values, attention = scaled_dot_product(q, k, v)
print("Q\n", q)
print("K\n", k)
print("V\n", v)
print("Values\n", values)
print("Attention\n", attention)
mask = torch.tril(torch.ones(seq_len, seq_len))
print("Masked attention\n", scaled_dot_product(q, k, v, mask=mask)[1])


def expand_mask(mask):
    assert mask.ndim >= 2, "Mask must be at least 2-dimensional with seq_length x seq_length"
    if mask.ndim == 3:
        mask = mask.unsqueeze(1)
    while mask.ndim < 4:
        mask = mask.unsqueeze(0)
    return mask


class MultiheadAttention(nn.Module):
    def __init__(self, input_dim, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0, "Embedding dimension must be 0 modulo number of heads."
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.qkv_proj = nn.Linear(input_dim, 3 * embed_dim)
        self.o_proj = nn.Linear(embed_dim, input_dim)
        self._reset_parameters()

    def _reset_parameters(self):
        nn.init.xavier_uniform_(self.qkv_proj.weight)
        self.qkv_proj.bias.data.fill_(0)
        nn.init.xavier_uniform_(self.o_proj.weight)
        self.o_proj.bias.data.fill_(0)

    def forward(self, x, mask=None, return_attention=False):
        batch_size, seq_length, _ = x.size()
        if mask is not None:
            mask = expand_mask(mask)
        qkv = self.qkv_proj(x)
        qkv = qkv.reshape(batch_size, seq_length, self.num_heads, 3 * self.head_dim)
        qkv = qkv.permute(0, 2, 1, 3)
        q, k, v = qkv.chunk(3, dim=-1)
        values, attention = scaled_dot_product(q, k, v, mask=mask)
        values = values.permute(0, 2, 1, 3)
        values = values.reshape(batch_size, seq_length, self.embed_dim)
        o = self.o_proj(values)
        if return_attention:
            return o, attention
        return o


class EncoderBlock(nn.Module):
    def __init__(self, input_dim, num_heads, dim_feedforward, dropout=0.0):
        super().__init__()
        self.self_attn = MultiheadAttention(input_dim, input_dim, num_heads)
        self.linear_net = nn.Sequential(
            nn.Linear(input_dim, dim_feedforward),
            nn.Dropout(dropout),
            nn.ReLU(inplace=True),
            nn.Linear(dim_feedforward, input_dim)
        )
        self.norm1 = nn.LayerNorm(input_dim)
        self.norm2 = nn.LayerNorm(input_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        attn_out = self.self_attn(x, mask=mask)
        x = x + self.dropout(attn_out)
        x = self.norm1(x)
        linear_out = self.linear_net(x)
        x = x + self.dropout(linear_out)
        x = self.norm2(x)
        return x


class TransformerEncoder(nn.Module):
    def __init__(self, num_layers, **block_args):
        super().__init__()
        self.layers = nn.ModuleList([EncoderBlock(**block_args) for _ in range(num_layers)])

    def forward(self, x, mask=None):
        for l in self.layers:
            x = l(x, mask=mask)
        return x

    def get_attention_maps(self, x, mask=None):
        attention_maps = []
        for l in self.layers:
            _, attn_map = l.self_attn(x, mask=mask, return_attention=True)
            attention_maps.append(attn_map)
            x = l(x)
        return attention_maps


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0)
        self.register_buffer('pe', pe, persistent=False)

    def forward(self, x):
        x = x + self.pe[:, :x.size(1)]
        return x


encod_block = PositionalEncoding(d_model=48, max_len=96)
pe = encod_block.pe.squeeze().T.cpu().numpy()
print(pe.shape, pe[:4, :5])
print(list(encod_block.state_dict().keys()), [name for name, _ in encod_block.named_buffers()])


class CosineWarmupScheduler(optim.lr_scheduler._LRScheduler):
    def __init__(self, optimizer, warmup, max_iters):
        self.warmup = warmup
        self.max_num_iters = max_iters
        super().__init__(optimizer)

    def get_lr(self):
        lr_factor = self.get_lr_factor(epoch=self.last_epoch)
        return [base_lr * lr_factor for base_lr in self.base_lrs]

    def get_lr_factor(self, epoch):
        lr_factor = 0.5 * (1 + np.cos(np.pi * epoch / self.max_num_iters))
        if epoch <= self.warmup:
            lr_factor *= epoch * 1.0 / self.warmup
        return lr_factor


p = nn.Parameter(torch.empty(4, 4))
optimizer = optim.Adam([p], lr=1e-3)
lr_scheduler = CosineWarmupScheduler(optimizer=optimizer, warmup=100, max_iters=2000)
print([lr_scheduler.get_lr_factor(e) for e in (0, 1, 50, 100, 1000, 1999)])


class ReverseDataset(data.Dataset):
    def __init__(self, num_categories, seq_len, size):
        super().__init__()
        self.num_categories = num_categories
        self.seq_len = seq_len
        self.size = size
        self.data = torch.randint(self.num_categories, size=(self.size, self.seq_len))

    def __len__(self):
        return self.size

    def __getitem__(self, idx):
        inp_data = self.data[idx]
        labels = torch.flip(inp_data, dims=(0,))
        return inp_data, labels


dataset = partial(ReverseDataset, 10, 16)
train_loader = data.DataLoader(dataset(2048), batch_size=128, shuffle=True, drop_last=True)
val_loader = data.DataLoader(dataset(256), batch_size=128)
inp_data, labels = train_loader.dataset[0]
print("Input data:", inp_data)
print("Labels:    ", labels)


class ReversePredictor(nn.Module):
    def __init__(self, input_dim, model_dim, num_classes, num_heads, num_layers, dropout=0.0,
                 input_dropout=0.0):
        super().__init__()
        self.num_classes = num_classes
        self.input_net = nn.Sequential(nn.Dropout(input_dropout), nn.Linear(input_dim, model_dim))
        self.positional_encoding = PositionalEncoding(d_model=model_dim)
        self.transformer = TransformerEncoder(num_layers=num_layers, input_dim=model_dim,
                                              dim_feedforward=2 * model_dim, num_heads=num_heads,
                                              dropout=dropout)
        self.output_net = nn.Sequential(
            nn.Linear(model_dim, model_dim), nn.LayerNorm(model_dim), nn.ReLU(inplace=True),
            nn.Dropout(dropout), nn.Linear(model_dim, num_classes))

    def forward(self, x, mask=None, add_positional_encoding=True):
        x = self.input_net(x)
        if add_positional_encoding:
            x = self.positional_encoding(x)
        x = self.transformer(x, mask=mask)
        return self.output_net(x)

    @torch.no_grad()
    def get_attention_maps(self, x, mask=None, add_positional_encoding=True):
        x = self.input_net(x)
        if add_positional_encoding:
            x = self.positional_encoding(x)
        return self.transformer.get_attention_maps(x, mask=mask)

    def calculate_loss(self, batch):
        inp_data, labels = batch
        inp_data = F.one_hot(inp_data, num_classes=self.num_classes).float()
        preds = self.forward(inp_data, add_positional_encoding=True)
        loss = F.cross_entropy(preds.view(-1, preds.size(-1)), labels.view(-1))
        acc = (preds.argmax(dim=-1) == labels).float().mean()
        return loss, acc


seed_everything(42)
model = ReversePredictor(input_dim=10, model_dim=32, num_heads=1, num_classes=10, num_layers=1)
print(model)
max_epochs = 3
optimizer = optim.Adam(model.parameters(), lr=5e-4)
scheduler = CosineWarmupScheduler(optimizer, warmup=10, max_iters=max_epochs * len(train_loader))
step = 0
for epoch in range(max_epochs):
    model.train()
    for batch in train_loader:
        loss, acc = model.calculate_loss(batch)
        optimizer.zero_grad()
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), 5)
        optimizer.step()
        scheduler.step()
        if step % 8 == 0:
            print(f"step {step:3d} loss {loss.item():.6f} acc {acc.item():.4f} "
                  f"grad norm {norm.item():.5f} lr {scheduler.get_last_lr()[0]:.3e}")
        step += 1
    model.eval()
    with torch.no_grad():
        results = [model.calculate_loss(batch) for batch in val_loader]
    print(f"epoch {epoch} val loss {sum(r[0].item() for r in results) / len(results):.6f} "
          f"val acc {sum(r[1].item() for r in results) / len(results):.4f}")
data_input, labels = next(iter(val_loader))
inp_data = F.one_hot(data_input, num_classes=10).float()
attention_maps = model.get_attention_maps(inp_data)
print(attention_maps[0].shape, attention_maps[0][0, 0, :3, :5])
print(type(scheduler.get_last_lr()[0]).__name__, scheduler.state_dict()['last_epoch'])
