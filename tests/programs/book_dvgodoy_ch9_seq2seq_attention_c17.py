# Corpus program, written for gradsh (no code copied). Modelled on Chapter 9 ("Sequence-to-
# Sequence") of "Deep Learning with PyTorch Step-by-Step" (Daniel Voigt Godoy), its notebook:
# https://github.com/dvgodoy/PyTorchStepByStep/blob/master/Chapter09.ipynb
# Like the chapter: a GRU Encoder and Decoder (init_hidden from the encoder's last state,
# hidden states printed with their grad_fn in f-strings), decoding with predictions, with
# teacher forcing and with a random teacher-forcing probability; EncoderDecoder storing
# outputs into a zeros tensor (CopySlices); uniform then dot-product alphas with torch.bmm,
# softmax of scaled products and the variance of random dot products; the Attention module
# (init_keys, score_function, masked_fill of a source mask) and a DecoderAttn; the
# MultiHeadAttention of Attention heads and EncoderSelfAttn; a short training run.
# Differences: 64 sequences from the book's square-corner generator, 4 epochs; seeded.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


def generate_sequences(n=128, variable_len=False, seed=13):
    basic_corners = np.array([[-1, -1], [-1, 1], [1, 1], [1, -1]])
    np.random.seed(seed)
    bases = np.random.randint(4, size=n)
    lengths = np.random.randint(3, size=n) + 2 if variable_len else [4] * n
    directions = np.random.randint(2, size=n)
    points = [basic_corners[[(b + i) % 4 for i in range(4)]][slice(None, None, d * 2 - 1)][:l]
              + np.random.randn(l, 2) * 0.1 for b, d, l in zip(bases, directions, lengths)]
    return points, directions


class Encoder(nn.Module):
    def __init__(self, n_features, hidden_dim):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.n_features = n_features
        self.hidden = None
        self.basic_rnn = nn.GRU(self.n_features, self.hidden_dim, batch_first=True)

    def forward(self, X):
        rnn_out, self.hidden = self.basic_rnn(X)
        return rnn_out


full_seq = torch.tensor([[-1, -1], [-1, 1], [1, 1], [1, -1]]).float().view(1, 4, 2)
source_seq = full_seq[:, :2]
target_seq = full_seq[:, 2:]
torch.manual_seed(21)
encoder = Encoder(n_features=2, hidden_dim=2)
hidden_seq = encoder(source_seq)
hidden_final = hidden_seq[:, -1:]
print(hidden_final)


class Decoder(nn.Module):
    def __init__(self, n_features, hidden_dim):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.n_features = n_features
        self.hidden = None
        self.basic_rnn = nn.GRU(self.n_features, self.hidden_dim, batch_first=True)
        self.regression = nn.Linear(self.hidden_dim, self.n_features)

    def init_hidden(self, hidden_seq):
        hidden_final = hidden_seq[:, -1:]
        self.hidden = hidden_final.permute(1, 0, 2)

    def forward(self, X):
        batch_first_output, self.hidden = self.basic_rnn(X, self.hidden)
        last_output = batch_first_output[:, -1:]
        out = self.regression(last_output)
        return out.view(-1, 1, self.n_features)


torch.manual_seed(21)
decoder = Decoder(n_features=2, hidden_dim=2)
for mode in ["predictions", "teacher forcing", "random"]:
    decoder.init_hidden(hidden_seq)
    inputs = source_seq[:, -1:]
    for i in range(2):
        print(f'Hidden: {decoder.hidden}')
        out = decoder(inputs)
        print(f'Output: {out}\n')
        if mode == "predictions" or (mode == "random" and torch.rand(1) > 0.5):
            inputs = out
        else:
            inputs = target_seq[:, i:i + 1]


class EncoderDecoder(nn.Module):
    def __init__(self, encoder, decoder, input_len, target_len, teacher_forcing_prob=0.5):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.input_len = input_len
        self.target_len = target_len
        self.teacher_forcing_prob = teacher_forcing_prob
        self.outputs = None

    def init_outputs(self, batch_size):
        device = next(self.parameters()).device
        self.outputs = torch.zeros(batch_size, self.target_len, self.encoder.n_features).to(device)

    def store_output(self, i, out):
        self.outputs[:, i:i + 1, :] = out

    def forward(self, X):
        source_seq = X[:, :self.input_len, :]
        target_seq = X[:, self.input_len:, :]
        self.init_outputs(X.shape[0])
        hidden_seq = self.encoder(source_seq)
        self.decoder.init_hidden(hidden_seq)
        dec_inputs = source_seq[:, -1:, :]
        for i in range(self.target_len):
            out = self.decoder(dec_inputs)
            self.store_output(i, out)
            prob = self.teacher_forcing_prob
            if not self.training:
                prob = 0
            if torch.rand(1) <= prob:
                dec_inputs = target_seq[:, i:i + 1, :]
            else:
                dec_inputs = out
        return self.outputs


encdec = EncoderDecoder(encoder, decoder, input_len=2, target_len=2, teacher_forcing_prob=1.0)
encdec.train()
print(encdec(full_seq))
encdec.eval()
print(encdec(source_seq))

values = keys = hidden_seq
torch.manual_seed(21)
decoder = Decoder(n_features=2, hidden_dim=2)
decoder.init_hidden(hidden_seq)
out = decoder(source_seq[:, -1:])
query = decoder.hidden.permute(1, 0, 2)
print(query)
alphas = torch.ones(1, 1, 2).float() * 1 / 2
context_vector = torch.bmm(alphas, values)
print(context_vector, torch.cat([context_vector, query], axis=-1))
products = torch.bmm(query, keys.permute(0, 2, 1))
print(products, F.softmax(products, dim=-1))
q = torch.tensor([.55, .95]).view(1, 1, 2)
k = torch.tensor([[.65, .2], [.85, -.4], [-.95, -.75]]).view(1, 3, 2)
prod = torch.bmm(q, k.permute(0, 2, 1))
scores = F.softmax(prod, dim=-1)
print(prod, scores, torch.bmm(scores, k))
scaled_products = products / np.sqrt(query.size(-1))
print(scaled_products, F.softmax(scaled_products, dim=-1))
dummy_product = torch.tensor([4.0, 1.0])
print((F.softmax(dummy_product, dim=-1), F.softmax(100 * dummy_product, dim=-1)))
torch.manual_seed(0)
n_dims = 10
vector1 = torch.randn(2000, 1, n_dims)
vector2 = torch.randn(2000, 1, n_dims).permute(0, 2, 1)
print(torch.bmm(vector1, vector2).squeeze().var())


class Attention(nn.Module):
    def __init__(self, hidden_dim, input_dim=None, proj_values=False):
        super().__init__()
        self.d_k = hidden_dim
        self.input_dim = hidden_dim if input_dim is None else input_dim
        self.proj_values = proj_values
        self.linear_query = nn.Linear(self.input_dim, hidden_dim)
        self.linear_key = nn.Linear(self.input_dim, hidden_dim)
        self.linear_value = nn.Linear(self.input_dim, hidden_dim)
        self.alphas = None

    def init_keys(self, keys):
        self.keys = keys
        self.proj_keys = self.linear_key(self.keys)
        self.values = self.linear_value(self.keys) if self.proj_values else self.keys

    def score_function(self, query):
        proj_query = self.linear_query(query)
        dot_products = torch.bmm(proj_query, self.proj_keys.permute(0, 2, 1))
        scores = dot_products / np.sqrt(self.d_k)
        return scores

    def forward(self, query, mask=None):
        scores = self.score_function(query)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        alphas = F.softmax(scores, dim=-1)
        self.alphas = alphas.detach()
        context = torch.bmm(alphas, self.values)
        return context


src = torch.tensor([[[-1., 1.], [0., 0.]]])
keys2 = torch.tensor([[[-.38, .44], [.85, -.05]]])
source_mask = (src != 0).all(axis=2).unsqueeze(1)
print(source_mask)
torch.manual_seed(11)
attnh = Attention(2)
attnh.init_keys(keys2)
context = attnh(torch.tensor([[[-1., 1.]]]), mask=source_mask)
print(attnh.alphas, context)


class DecoderAttn(nn.Module):
    def __init__(self, n_features, hidden_dim):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.n_features = n_features
        self.hidden = None
        self.basic_rnn = nn.GRU(self.n_features, self.hidden_dim, batch_first=True)
        self.attn = Attention(self.hidden_dim)
        self.regression = nn.Linear(2 * self.hidden_dim, self.n_features)

    def init_hidden(self, hidden_seq):
        self.attn.init_keys(hidden_seq)
        hidden_final = hidden_seq[:, -1:]
        self.hidden = hidden_final.permute(1, 0, 2)

    def forward(self, X, mask=None):
        batch_first_output, self.hidden = self.basic_rnn(X, self.hidden)
        query = batch_first_output[:, -1:]
        context = self.attn(query, mask=mask)
        concatenated = torch.cat([context, query], axis=-1)
        out = self.regression(concatenated)
        return out.view(-1, 1, self.n_features)


class MultiHeadAttention(nn.Module):
    def __init__(self, n_heads, d_model, input_dim=None, proj_values=True):
        super().__init__()
        self.linear_out = nn.Linear(n_heads * d_model, d_model)
        self.attn_heads = nn.ModuleList([Attention(d_model, input_dim=input_dim, proj_values=proj_values)
                                         for _ in range(n_heads)])

    def init_keys(self, key):
        for attn in self.attn_heads:
            attn.init_keys(key)

    @property
    def alphas(self):
        return torch.stack([attn.alphas for attn in self.attn_heads], dim=0)

    def output_function(self, contexts):
        concatenated = torch.cat(contexts, axis=-1)
        return self.linear_out(concatenated)

    def forward(self, query, mask=None):
        contexts = [attn(query, mask=mask) for attn in self.attn_heads]
        return self.output_function(contexts)


class EncoderSelfAttn(nn.Module):
    def __init__(self, n_heads, d_model, ff_units, n_features=None):
        super().__init__()
        self.n_heads = n_heads
        self.d_model = d_model
        self.ff_units = ff_units
        self.n_features = n_features
        self.self_attn_heads = MultiHeadAttention(n_heads, d_model, input_dim=n_features)
        self.ffn = nn.Sequential(nn.Linear(d_model, ff_units), nn.ReLU(), nn.Linear(ff_units, d_model))

    def forward(self, query, mask=None):
        self.self_attn_heads.init_keys(query)
        att = self.self_attn_heads(query, mask)
        return self.ffn(att)


torch.manual_seed(11)
encself = EncoderSelfAttn(n_heads=3, d_model=2, ff_units=10, n_features=2)
encoder_states = encself(source_seq)
print(encoder_states, encself.self_attn_heads.alphas.shape)

points, directions = generate_sequences(n=64, seed=13)
full_train = torch.as_tensor(np.array(points)).float()
train_loader = DataLoader(TensorDataset(full_train, full_train[:, 2:]), batch_size=16, shuffle=True,
                          generator=torch.Generator())
torch.manual_seed(17)
encoder = Encoder(n_features=2, hidden_dim=2)
decoder_attn = DecoderAttn(n_features=2, hidden_dim=2)
model = EncoderDecoder(encoder, decoder_attn, input_len=2, target_len=2, teacher_forcing_prob=0.5)
loss_fn = nn.MSELoss()
optimizer = optim.Adam(model.parameters(), lr=0.01)
for epoch in range(4):
    model.train()
    losses = []
    for x_batch, y_batch in train_loader:
        loss = loss_fn(model(x_batch), y_batch)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    print(epoch, np.mean(losses))
model.eval()
print(model(full_train[:3, :2]), decoder_attn.attn.alphas)
