# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "Language Modeling with nn.Transformer and torchtext" (beginner/transformer_tutorial), BSD-3:
# https://pytorch.org/tutorials/beginner/transformer_tutorial.html
# Like the original: a PositionalEncoding module (sin/cos table from math.log(10000.0),
# register_buffer, Dropout), nn.Embedding scaled by sqrt(d_model), nn.TransformerEncoderLayer /
# nn.TransformerEncoder, generate_square_subsequent_mask, init_weights with uniform_(-0.1, 0.1),
# CrossEntropyLoss, SGD with StepLR and clip_grad_norm_(0.5), a train loop printing losses and
# an evaluate() under torch.no_grad().
# Differences: a sequence classifier (mean-pooled encoder output -> Linear) on synthetic token
# sequences whose label is whether token 3 occurs, instead of WikiText-2 language modelling;
# batch_first=True, a key padding mask for shorter sequences; 12 steps; d_model 16.
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(1, max_len, d_model)
        pe[0, :, 0::2] = torch.sin(position * div_term)
        pe[0, :, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[:, : x.size(1)]
        return self.dropout(x)


class TransformerClassifier(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, nclass, dropout=0.1):
        super().__init__()
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        layer = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout, batch_first=True)
        self.transformer_encoder = nn.TransformerEncoder(layer, nlayers,
                                                         enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, nclass)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)

    def forward(self, src, padding_mask=None):
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_key_padding_mask=padding_mask)
        if padding_mask is not None:
            keep = (~padding_mask).unsqueeze(-1).float()
            pooled = (output * keep).sum(1) / keep.sum(1)
        else:
            pooled = output.mean(1)
        return self.linear(pooled)


def make_batch(generator, batch_size, seq_len, ntoken):
    tokens = torch.randint(4, ntoken, (batch_size, seq_len), generator=generator)
    lengths = torch.randint(seq_len // 2, seq_len + 1, (batch_size,), generator=generator)
    has_three = torch.rand(batch_size, generator=generator) < 0.5
    where = torch.randint(0, seq_len // 2, (batch_size,), generator=generator)
    tokens[has_three, where[has_three]] = 3
    padding = torch.arange(seq_len).unsqueeze(0) >= lengths.unsqueeze(1)
    tokens = tokens.masked_fill(padding, 0)
    return tokens, padding, has_three.long()


def main():
    torch.manual_seed(0)
    ntoken, d_model, nhead, d_hid, nlayers = 20, 16, 2, 32, 2
    model = TransformerClassifier(ntoken, d_model, nhead, d_hid, nlayers, 2)
    print(model)
    print("parameters:", sum(p.numel() for p in model.parameters()))
    print([name for name, _ in model.named_parameters()][:8])
    mask = nn.Transformer.generate_square_subsequent_mask(4)
    print(mask)

    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.95)
    generator = torch.Generator().manual_seed(42)
    model.train()
    for step in range(12):
        tokens, padding, labels = make_batch(generator, 8, 10, ntoken)
        logits = model(tokens, padding)
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        scheduler.step()
        if step % 3 == 0:
            print(f"| step {step:3d} | lr {scheduler.get_last_lr()[0]:02.3f} | "
                  f"loss {loss.item():5.3f} | grad norm {norm.item():5.3f}")

    model.eval()
    tokens, padding, labels = make_batch(generator, 6, 10, ntoken)
    with torch.no_grad():
        logits = model(tokens, padding)
        probs = logits.softmax(-1)
    print("eval logits grad_fn:", logits.grad_fn)
    print("probabilities:", probs[:, 1].round(decimals=3))
    print("predictions:", probs.argmax(-1).tolist(), "labels:", labels.tolist())
    out = model(tokens[:2])
    print("with grad:", out.grad_fn.name(), tuple(out.shape))


if __name__ == "__main__":
    main()
