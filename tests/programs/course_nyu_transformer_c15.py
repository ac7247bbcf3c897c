# Corpus program, written for gradsh (no code copied). Modelled on Alfredo Canziani's NYU
# Deep Learning course (DS-GA 1008, Spring 2020), notebook 15 "transformer":
# https://github.com/Atcold/NYU-DLSP20/blob/master/15-transformer.ipynb
# Like the notebook: f.softargmax aliased to F.softmax; a MultiHeadAttention module with
# bias-free W_q/W_k/W_v, split_heads / group_heads through view + transpose (+ contiguous),
# Q / np.sqrt(d_k) and matmul with K.transpose(2, 3); the three print_out checks of
# scaled_dot_product_attention on hand-made K, V and Q tensors (indexing with [None, None]);
# the position-wise "CNN" (two Linears), EncoderLayer with two LayerNorm(eps=1e-6);
# create_sinusoidal_embeddings writing np.sin/np.cos of theta into the position
# embedding's weight (E[:, 0::2] = torch.FloatTensor(...)), Embeddings with
# padding_idx=1, expand_as of the position ids and LayerNorm(eps=1e-12); the Encoder and
# the TransformerClassifier (max over the sequence, then a dense layer) trained with
# AdamW(lr=0.001) and f.cross_entropy, accuracy through (out.argmax(1) == y).numpy().mean().
# Differences: a seed; the IMDB data (torchtext) replaced by synthetic token sequences
# whose label says whether token 7 occurs; vocabulary 50, length 12, batch 16, 3 epochs;
# writing into the embedding weight, a leaf that requires grad, raises a RuntimeError in
# current PyTorch, so the program prints that error and then writes under torch.no_grad().
import torch
from torch import nn
import torch.nn.functional as f
import numpy as np

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
f.softargmax = f.softmax


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, p, d_input=None):
        super().__init__()
        self.num_heads = num_heads
        self.d_model = d_model
        if d_input is None:
            d_xq = d_xk = d_xv = d_model
        else:
            d_xq, d_xk, d_xv = d_input
        assert d_model % self.num_heads == 0
        self.d_k = d_model // self.num_heads
        self.W_q = nn.Linear(d_xq, d_model, bias=False)
        self.W_k = nn.Linear(d_xk, d_model, bias=False)
        self.W_v = nn.Linear(d_xv, d_model, bias=False)
        self.W_h = nn.Linear(d_model, d_model)

    def scaled_dot_product_attention(self, Q, K, V):
        batch_size = Q.size(0)
        k_length = K.size(-2)
        Q = Q / np.sqrt(self.d_k)
        scores = torch.matmul(Q, K.transpose(2, 3))
        A = f.softargmax(scores, dim=-1)
        H = torch.matmul(A, V)
        return H, A

    def split_heads(self, x, batch_size):
        return x.view(batch_size, -1, self.num_heads, self.d_k).transpose(1, 2)

    def group_heads(self, x, batch_size):
        return x.transpose(1, 2).contiguous().view(batch_size, -1, self.num_heads * self.d_k)

    def forward(self, X_q, X_k, X_v):
        batch_size, seq_length, dim = X_q.size()
        Q = self.split_heads(self.W_q(X_q), batch_size)
        K = self.split_heads(self.W_k(X_k), batch_size)
        V = self.split_heads(self.W_v(X_v), batch_size)
        H_cat, A = self.scaled_dot_product_attention(Q, K, V)
        H_cat = self.group_heads(H_cat, batch_size)
        H = self.W_h(H_cat)
        return H, A


temp_mha = MultiHeadAttention(d_model=512, num_heads=8, p=0)


def print_out(Q, K, V):
    temp_out, temp_attn = temp_mha.scaled_dot_product_attention(Q, K, V)
    print('Attention weights are:', temp_attn.squeeze())
    print('Output is:', temp_out.squeeze())


test_K = torch.tensor(
    [[10, 0, 0],
     [0, 10, 0],
     [0, 0, 10],
     [0, 0, 10]]
).float()[None, None]
test_V = torch.tensor(
    [[1, 0, 0],
     [10, 0, 0],
     [100, 5, 0],
     [1000, 6, 0]]
).float()[None, None]
test_Q = torch.tensor([[0, 10, 0]]).float()[None, None]
print_out(test_Q, test_K, test_V)
test_Q = torch.tensor([[0, 0, 10]]).float()[None, None]
print_out(test_Q, test_K, test_V)
test_Q = torch.tensor([[0, 0, 10], [0, 10, 0], [10, 10, 0]]).float()[None, None]
print_out(test_Q, test_K, test_V)


class CNN(nn.Module):
    def __init__(self, d_model, hidden_dim, p):
        super().__init__()
        self.k1convL1 = nn.Linear(d_model, hidden_dim)
        self.k1convL2 = nn.Linear(hidden_dim, d_model)
        self.activation = nn.ReLU()

    def forward(self, x):
        x = self.k1convL1(x)
        x = self.activation(x)
        x = self.k1convL2(x)
        return x


class EncoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, conv_hidden_dim, p=0.1):
        super().__init__()
        self.mha = MultiHeadAttention(d_model, num_heads, p)
        self.cnn = CNN(d_model, conv_hidden_dim, p)
        self.layernorm1 = nn.LayerNorm(normalized_shape=d_model, eps=1e-6)
        self.layernorm2 = nn.LayerNorm(normalized_shape=d_model, eps=1e-6)

    def forward(self, x):
        attn_output, _ = self.mha(x, x, x)
        out1 = self.layernorm1(x + attn_output)
        cnn_output = self.cnn(out1)
        out2 = self.layernorm2(out1 + cnn_output)
        return out2


def create_sinusoidal_embeddings(nb_p, dim, E):
    theta = np.array([
        [p / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)]
        for p in range(nb_p)
    ])
    try:
        E[:, 0::2] = torch.FloatTensor(np.sin(theta[:, 0::2]))
    except RuntimeError as e:
        print("RuntimeError:", e)
    with torch.no_grad():
        E[:, 0::2] = torch.FloatTensor(np.sin(theta[:, 0::2]))
        E[:, 1::2] = torch.FloatTensor(np.cos(theta[:, 1::2]))
    E.requires_grad = False
    E = E.to(device)


class Embeddings(nn.Module):
    def __init__(self, d_model, vocab_size, max_position_embeddings, p):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, d_model, padding_idx=1)
        self.position_embeddings = nn.Embedding(max_position_embeddings, d_model)
        create_sinusoidal_embeddings(
            nb_p=max_position_embeddings,
            dim=d_model,
            E=self.position_embeddings.weight
        )
        self.LayerNorm = nn.LayerNorm(d_model, eps=1e-12)

    def forward(self, input_ids):
        seq_length = input_ids.size(1)
        position_ids = torch.arange(seq_length, dtype=torch.long, device=input_ids.device)
        position_ids = position_ids.unsqueeze(0).expand_as(input_ids)
        word_embeddings = self.word_embeddings(input_ids)
        position_embeddings = self.position_embeddings(position_ids)
        embeddings = word_embeddings + position_embeddings
        embeddings = self.LayerNorm(embeddings)
        return embeddings


class Encoder(nn.Module):
    def __init__(self, num_layers, d_model, num_heads, ff_hidden_dim, input_vocab_size,
                 maximum_position_encoding, p=0.1):
        super().__init__()
        self.d_model = d_model
        self.num_layers = num_layers
        self.embedding = Embeddings(d_model, input_vocab_size, maximum_position_encoding, p)
        self.enc_layers = nn.ModuleList()
        for _ in range(num_layers):
            self.enc_layers.append(EncoderLayer(d_model, num_heads, ff_hidden_dim, p))

    def forward(self, x):
        x = self.embedding(x)
        for i in range(self.num_layers):
            x = self.enc_layers[i](x)
        return x


class TransformerClassifier(nn.Module):
    def __init__(self, num_layers, d_model, num_heads, conv_hidden_dim, input_vocab_size, num_answers):
        super().__init__()
        self.encoder = Encoder(num_layers, d_model, num_heads, conv_hidden_dim, input_vocab_size,
                               maximum_position_encoding=64)
        self.dense = nn.Linear(d_model, num_answers)

    def forward(self, x):
        x = self.encoder(x)
        x, _ = torch.max(x, dim=1)
        x = self.dense(x)
        return x


model = TransformerClassifier(num_layers=1, d_model=32, num_heads=2,
                              conv_hidden_dim=128, input_vocab_size=50, num_answers=2)
model.to(device)
print(model)
print(model.encoder.embedding.position_embeddings.weight[1, :6],
      model.encoder.embedding.position_embeddings.weight.requires_grad)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))

tokens = torch.randint(2, 50, (160, 12))
labels = (tokens == 7).any(1).long()
train_x, train_y = tokens[:128], labels[:128]
valid_x, valid_y = tokens[128:], labels[128:]
train_loader = [(train_x[i:i + 16], train_y[i:i + 16]) for i in range(0, 128, 16)]
valid_loader = [(valid_x[i:i + 16], valid_y[i:i + 16]) for i in range(0, 32, 16)]

optimizer = torch.optim.AdamW(model.parameters(), lr=0.001)
epochs = 3


def evaluate(data_loader):
    nb_batches = len(data_loader)
    model.eval()
    acc = 0
    for x, y in data_loader:
        out = model(x)
        acc += (out.argmax(1) == y).cpu().numpy().mean()
    print(f"Eval accuracy: {acc / nb_batches}")


def train(train_loader, valid_loader):
    for epoch in range(epochs):
        nb_batches_train = len(train_loader)
        train_acc = 0
        model.train()
        losses = 0.0
        for x, y in train_loader:
            out = model(x)
            loss = f.cross_entropy(out, y)
            model.zero_grad()
            loss.backward()
            losses += loss.item()
            optimizer.step()
            train_acc += (out.argmax(1) == y).cpu().numpy().mean()
        print(f"Training loss at epoch {epoch} is {losses / nb_batches_train}")
        print(f"Training accuracy: {train_acc / nb_batches_train}")
        print('Evaluating on validation:')
        evaluate(valid_loader)


train(train_loader, valid_loader)
print(model.encoder.embedding.word_embeddings.weight[1])
