# Corpus program, written for gradsh (no code copied). Modelled on the Transformer of
# https://github.com/graykode/nlp-tutorial (5-1.Transformer/Transformer.py): one German-English
# sentence pair padded with 'P', a sinusoid position table built with NumPy and loaded through
# nn.Embedding.from_pretrained(freeze=True), pad masks from seq.data.eq(0) expanded to
# (batch, len_q, len_k), a subsequent mask from np.triu(...).byte() combined with torch.gt,
# scaled dot-product attention with masked_fill_(mask, -1e9) and nn.Softmax(dim=-1), multi-head
# attention whose output goes through nn.LayerNorm(output + residual), a position-wise
# feed-forward net of two nn.Conv1d(kernel_size=1) on the transposed input, an encoder and
# decoder of stacked layers, a projection to the target vocabulary, CrossEntropyLoss and Adam,
# 'Epoch: 0001 cost = ...' lines and a greedy prediction of the target words.
# Differences: our own code; d_model 32, d_ff 64, 2 layers, 2 heads, 12 epochs; seeded; the
# attention maps are printed as rounded numbers instead of plotted.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)

sentences = ["ich mochte ein bier P", "S i want a beer", "i want a beer E"]
src_vocab = {"P": 0, "ich": 1, "mochte": 2, "ein": 3, "bier": 4}
tgt_vocab = {"P": 0, "i": 1, "want": 2, "a": 3, "beer": 4, "S": 5, "E": 6}
number_dict = {i: w for i, w in enumerate(tgt_vocab)}
src_len = tgt_len = 5
d_model, d_ff, d_k, n_layers, n_heads = 32, 64, 16, 2, 2


def make_batch():
    enc = [[src_vocab[n] for n in sentences[0].split()]]
    dec = [[tgt_vocab[n] for n in sentences[1].split()]]
    target = [[tgt_vocab[n] for n in sentences[2].split()]]
    return torch.LongTensor(enc), torch.LongTensor(dec), torch.LongTensor(target)


def sinusoid_table(n_position, d_model):
    def angle(pos, i):
        return pos / np.power(10000, 2 * (i // 2) / d_model)

    table = np.array([[angle(pos, i) for i in range(d_model)] for pos in range(n_position)])
    table[:, 0::2] = np.sin(table[:, 0::2])
    table[:, 1::2] = np.cos(table[:, 1::2])
    return torch.FloatTensor(table)


def pad_mask(seq_q, seq_k):
    batch, len_q = seq_q.size()
    _, len_k = seq_k.size()
    return seq_k.data.eq(0).unsqueeze(1).expand(batch, len_q, len_k)


def subsequent_mask(seq):
    shape = [seq.size(0), seq.size(1), seq.size(1)]
    return torch.from_numpy(np.triu(np.ones(shape), k=1)).byte()


class ScaledDotProductAttention(nn.Module):
    def forward(self, Q, K, V, mask):
        scores = torch.matmul(Q, K.transpose(-1, -2)) / np.sqrt(d_k)
        scores.masked_fill_(mask, -1e9)
        attn = nn.Softmax(dim=-1)(scores)
        return torch.matmul(attn, V), attn


class MultiHeadAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.W_Q = nn.Linear(d_model, d_k * n_heads)
        self.W_K = nn.Linear(d_model, d_k * n_heads)
        self.W_V = nn.Linear(d_model, d_k * n_heads)
        self.linear = nn.Linear(n_heads * d_k, d_model)
        self.layer_norm = nn.LayerNorm(d_model)

    def forward(self, Q, K, V, mask):
        residual, batch = Q, Q.size(0)
        q = self.W_Q(Q).view(batch, -1, n_heads, d_k).transpose(1, 2)
        k = self.W_K(K).view(batch, -1, n_heads, d_k).transpose(1, 2)
        v = self.W_V(V).view(batch, -1, n_heads, d_k).transpose(1, 2)
        mask = mask.unsqueeze(1).repeat(1, n_heads, 1, 1)
        context, attn = ScaledDotProductAttention()(q, k, v, mask)
        context = context.transpose(1, 2).contiguous().view(batch, -1, n_heads * d_k)
        return self.layer_norm(self.linear(context) + residual), attn


class PoswiseFeedForwardNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(d_model, d_ff, kernel_size=1)
        self.conv2 = nn.Conv1d(d_ff, d_model, kernel_size=1)
        self.layer_norm = nn.LayerNorm(d_model)

    def forward(self, inputs):
        out = nn.ReLU()(self.conv1(inputs.transpose(1, 2)))
        out = self.conv2(out).transpose(1, 2)  # not contiguous: the layer norm copies it
        return self.layer_norm(out + inputs)


class EncoderLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.self_attn = MultiHeadAttention()
        self.ffn = PoswiseFeedForwardNet()

    def forward(self, x, mask):
        x, attn = self.self_attn(x, x, x, mask)
        return self.ffn(x), attn


class DecoderLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.self_attn = MultiHeadAttention()
        self.enc_attn = MultiHeadAttention()
        self.ffn = PoswiseFeedForwardNet()

    def forward(self, x, enc_out, self_mask, enc_mask):
        x, self_attn = self.self_attn(x, x, x, self_mask)
        x, enc_attn = self.enc_attn(x, enc_out, enc_out, enc_mask)
        return self.ffn(x), self_attn, enc_attn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(len(src_vocab), d_model)
        self.pos_emb = nn.Embedding.from_pretrained(sinusoid_table(src_len + 1, d_model),
                                                    freeze=True)
        self.layers = nn.ModuleList([EncoderLayer() for _ in range(n_layers)])

    def forward(self, enc_inputs):
        out = self.src_emb(enc_inputs) + self.pos_emb(torch.LongTensor([[1, 2, 3, 4, 0]]))
        mask = pad_mask(enc_inputs, enc_inputs)
        attns = []
        for layer in self.layers:
            out, attn = layer(out, mask)
            attns.append(attn)
        return out, attns


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.tgt_emb = nn.Embedding(len(tgt_vocab), d_model)
        self.pos_emb = nn.Embedding.from_pretrained(sinusoid_table(tgt_len + 1, d_model),
                                                    freeze=True)
        self.layers = nn.ModuleList([DecoderLayer() for _ in range(n_layers)])

    def forward(self, dec_inputs, enc_inputs, enc_out):
        out = self.tgt_emb(dec_inputs) + self.pos_emb(torch.LongTensor([[5, 1, 2, 3, 4]]))
        self_mask = torch.gt(pad_mask(dec_inputs, dec_inputs) + subsequent_mask(dec_inputs), 0)
        enc_mask = pad_mask(dec_inputs, enc_inputs)
        self_attns, enc_attns = [], []
        for layer in self.layers:
            out, self_attn, enc_attn = layer(out, enc_out, self_mask, enc_mask)
            self_attns.append(self_attn)
            enc_attns.append(enc_attn)
        return out, self_attns, enc_attns


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()
        self.projection = nn.Linear(d_model, len(tgt_vocab), bias=False)

    def forward(self, enc_inputs, dec_inputs):
        enc_out, enc_attns = self.encoder(enc_inputs)
        dec_out, dec_self_attns, dec_enc_attns = self.decoder(dec_inputs, enc_inputs, enc_out)
        logits = self.projection(dec_out)
        return logits.view(-1, logits.size(-1)), enc_attns, dec_self_attns, dec_enc_attns


model = Transformer()
print(sum(p.numel() for p in model.parameters() if p.requires_grad), "trainable parameters")
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)
enc_inputs, dec_inputs, target_batch = make_batch()
print(subsequent_mask(dec_inputs)[0])

for epoch in range(12):
    optimizer.zero_grad()
    outputs, enc_attns, dec_self_attns, dec_enc_attns = model(enc_inputs, dec_inputs)
    loss = criterion(outputs, target_batch.contiguous().view(-1))
    print("Epoch:", "%04d" % (epoch + 1), "cost =", "{:.6f}".format(loss), repr(loss.item()))
    loss.backward()
    optimizer.step()

predict, enc_attns, dec_self_attns, dec_enc_attns = model(enc_inputs, dec_inputs)
predict = predict.data.max(1, keepdim=True)[1]
print(sentences[0], "->", [number_dict[n.item()] for n in predict.squeeze()])
print("first head of last state enc_self_attns")
print(enc_attns[-1].squeeze(0)[0].data.numpy().round(3))
print("first head of last state dec_enc_attns")
print(dec_enc_attns[-1].squeeze(0)[0].data.numpy().round(3))
print(model.decoder.layers[0].ffn.conv1.weight.grad.norm().item())
