# Corpus program, written for gradsh (no code copied). Modelled on Chapter 8 ("Sequences") of
# "Deep Learning with PyTorch Step-by-Step" (Daniel Voigt Godoy), its notebook:
# https://github.com/dvgodoy/PyTorchStepByStep/blob/master/Chapter08.ipynb
# and its data generator data_generation/square_sequences.py (the corners of squares, drawn
# clockwise or counterclockwise, plus noise).
# Like the chapter: an RNNCell's state_dict, the cell rebuilt from two Linear layers (th, tx,
# tanh) and run step by step; nn.RNN (sequence-first, batch-first, stacked, bidirectional) with
# load_state_dict into per-layer RNNs and the results compared; a GRUCell and an LSTMCell
# split into their gates (Tensor.split, Linear layers loaded from the pieces) and checked
# against the cells; pad_sequence, pack_sequence, PackedSequence reprs, packed RNN outputs,
# pad_packed_sequence and gathering the last real step; pack_padded_sequence; a moving
# average with F.conv1d; Conv1d with and without dilation; the SquareModel classifiers (RNN,
# GRU, LSTM, packed bidirectional LSTM, Conv1d) trained briefly with Adam and
# BCEWithLogitsLoss, printing losses, correct counts and state_dicts.
# Differences: 64 training sequences and 5 epochs (the book: 128 and 100), tuples printed
# with print() where the notebook shows them, no plots.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.nn.utils import rnn as rnn_utils
from torch.utils.data import DataLoader, Dataset, TensorDataset


def generate_sequences(n=128, variable_len=False, seed=13):
    basic_corners = np.array([[-1, -1], [-1, 1], [1, 1], [1, -1]])
    np.random.seed(seed)
    bases = np.random.randint(4, size=n)
    if variable_len:
        lengths = np.random.randint(3, size=n) + 2
    else:
        lengths = [4] * n
    directions = np.random.randint(2, size=n)
    points = [basic_corners[[(b + i) % 4 for i in range(4)]][slice(None, None, d * 2 - 1)][:l]
              + np.random.randn(l, 2) * 0.1
              for b, d, l in zip(bases, directions, lengths)]
    return points, directions


points, directions = generate_sequences(n=64, seed=13)
hidden_state = torch.zeros(2)
print(hidden_state)

n_features = 2
hidden_dim = 2
torch.manual_seed(19)
rnn_cell = nn.RNNCell(input_size=n_features, hidden_size=hidden_dim)
rnn_state = rnn_cell.state_dict()
print(rnn_state)
linear_input = nn.Linear(n_features, hidden_dim)
linear_hidden = nn.Linear(hidden_dim, hidden_dim)
with torch.no_grad():
    linear_input.weight = nn.Parameter(rnn_state['weight_ih'])
    linear_input.bias = nn.Parameter(rnn_state['bias_ih'])
    linear_hidden.weight = nn.Parameter(rnn_state['weight_hh'])
    linear_hidden.bias = nn.Parameter(rnn_state['bias_hh'])
initial_hidden = torch.zeros(1, hidden_dim)
th = linear_hidden(initial_hidden)
print(th)
X = torch.as_tensor(points[0]).float()
print(X)
tx = linear_input(X[0:1])
print(tx)
adding = th + tx
print(adding)
print(torch.tanh(adding))
print(rnn_cell(X[0:1]))
print(rnn_cell(X))  # "WRONG": every row starts from a zero hidden state
hidden = torch.zeros(1, hidden_dim)
for i in range(X.shape[0]):
    out = rnn_cell(X[i:i + 1], hidden)
    print(out)
    hidden = out

torch.manual_seed(19)
rnn = nn.RNN(input_size=n_features, hidden_size=hidden_dim)
print(rnn.state_dict())
batch = torch.as_tensor(np.array(points[:3])).float()
print(batch.shape)
permuted_batch = batch.permute(1, 0, 2)
print(permuted_batch.shape)
torch.manual_seed(19)
rnn = nn.RNN(input_size=n_features, hidden_size=hidden_dim)
out, final_hidden = rnn(permuted_batch)
print(out.shape, final_hidden.shape)
print((out[-1] == final_hidden).all())
batch_hidden = final_hidden.permute(1, 0, 2)
print(batch_hidden.shape)
torch.manual_seed(19)
rnn_batch_first = nn.RNN(input_size=n_features, hidden_size=hidden_dim, batch_first=True)
out, final_hidden = rnn_batch_first(batch)
print(out.shape, final_hidden.shape)

torch.manual_seed(19)
rnn_stacked = nn.RNN(input_size=2, hidden_size=2, num_layers=2, batch_first=True)
state = rnn_stacked.state_dict()
print(state)
rnn_layer0 = nn.RNN(input_size=2, hidden_size=2, batch_first=True)
rnn_layer1 = nn.RNN(input_size=2, hidden_size=2, batch_first=True)
print(rnn_layer0.load_state_dict(dict(list(state.items())[:4])))
print(rnn_layer1.load_state_dict(dict([(k[:-1] + '0', v) for k, v in list(state.items())[4:]])))
x = torch.as_tensor(points[0:1]).float()
out0, h0 = rnn_layer0(x)
out1, h1 = rnn_layer1(out0)
print((out1, torch.cat([h0, h1])))
out, hidden = rnn_stacked(x)
print((out, hidden))
print((out[:, -1] == hidden.permute(1, 0, 2)[:, -1]).all())

torch.manual_seed(19)
rnn_bidirect = nn.RNN(input_size=2, hidden_size=2, bidirectional=True, batch_first=True)
state = rnn_bidirect.state_dict()
print(list(state.keys()))
rnn_forward = nn.RNN(input_size=2, hidden_size=2, batch_first=True)
rnn_reverse = nn.RNN(input_size=2, hidden_size=2, batch_first=True)
print(rnn_forward.load_state_dict(dict(list(state.items())[:4])))
print(rnn_reverse.load_state_dict(dict([(k[:-8], v) for k, v in list(state.items())[4:]])))
x_rev = torch.flip(x, dims=[1])
print(x_rev)
out, h = rnn_forward(x)
out_rev, h_rev = rnn_reverse(x_rev)
out_rev_back = torch.flip(out_rev, dims=[1])
print((torch.cat([out, out_rev_back], dim=2), torch.cat([h, h_rev])))
out, hidden = rnn_bidirect(x)
print((out, hidden))
print(out[:, -1] == hidden.permute(1, 0, 2).view(1, -1))


def linear_layers(Wx, bx, Wh, bh):
    hidden_dim, n_features = Wx.size()
    lin_input = nn.Linear(n_features, hidden_dim)
    lin_input.load_state_dict({'weight': Wx, 'bias': bx})
    lin_hidden = nn.Linear(hidden_dim, hidden_dim)
    lin_hidden.load_state_dict({'weight': Wh, 'bias': bh})
    return lin_hidden, lin_input


torch.manual_seed(17)
gru_cell = nn.GRUCell(input_size=n_features, hidden_size=hidden_dim)
gru_state = gru_cell.state_dict()
print(gru_state)
Wx, bx = gru_state['weight_ih'], gru_state['bias_ih']
Wh, bh = gru_state['weight_hh'], gru_state['bias_hh']
print(Wx.shape, Wh.shape)
print(bx.shape, bh.shape)
Wxr, Wxz, Wxn = Wx.split(hidden_dim, dim=0)
bxr, bxz, bxn = bx.split(hidden_dim, dim=0)
Whr, Whz, Whn = Wh.split(hidden_dim, dim=0)
bhr, bhz, bhn = bh.split(hidden_dim, dim=0)
print((Wxr, bxr))
r_hidden, r_input = linear_layers(Wxr, bxr, Whr, bhr)
z_hidden, z_input = linear_layers(Wxz, bxz, Whz, bhz)
n_hidden, n_input = linear_layers(Wxn, bxn, Whn, bhn)


def reset_gate(h, x):
    return torch.sigmoid(r_hidden(h) + r_input(x))


def update_gate(h, x):
    return torch.sigmoid(z_hidden(h) + z_input(x))


def candidate_n(h, x, r):
    return torch.tanh(r * n_hidden(h) + n_input(x))


initial_hidden = torch.zeros(1, hidden_dim)
X = torch.as_tensor(points[0]).float()
first_corner = X[0:1]
r = reset_gate(initial_hidden, first_corner)
print(r)
n = candidate_n(initial_hidden, first_corner, r)
print(n)
z = update_gate(initial_hidden, first_corner)
print(z)
h_prime = n * (1 - z) + initial_hidden * z
print(h_prime)
print(gru_cell(first_corner))

torch.manual_seed(17)
lstm_cell = nn.LSTMCell(input_size=n_features, hidden_size=hidden_dim)
lstm_state = lstm_cell.state_dict()
print(lstm_state)
Wx, bx = lstm_state['weight_ih'], lstm_state['bias_ih']
Wh, bh = lstm_state['weight_hh'], lstm_state['bias_hh']
Wxi, Wxf, Wxg, Wxo = Wx.split(hidden_dim, dim=0)
bxi, bxf, bxg, bxo = bx.split(hidden_dim, dim=0)
Whi, Whf, Whg, Who = Wh.split(hidden_dim, dim=0)
bhi, bhf, bhg, bho = bh.split(hidden_dim, dim=0)
i_hidden, i_input = linear_layers(Wxi, bxi, Whi, bhi)
f_hidden, f_input = linear_layers(Wxf, bxf, Whf, bhf)
o_hidden, o_input = linear_layers(Wxo, bxo, Who, bho)
g_cell = nn.RNNCell(n_features, hidden_dim)
print(g_cell.load_state_dict({'weight_ih': Wxg, 'bias_ih': bxg, 'weight_hh': Whg, 'bias_hh': bhg}))
initial_cell = torch.zeros(1, hidden_dim)
g = g_cell(first_corner)
i = torch.sigmoid(i_hidden(initial_hidden) + i_input(first_corner))
gated_input = g * i
print(gated_input)
f = torch.sigmoid(f_hidden(initial_hidden) + f_input(first_corner))
gated_cell = initial_cell * f
print(gated_cell)
c_prime = gated_cell + gated_input
print(c_prime)
o = torch.sigmoid(o_hidden(initial_hidden) + o_input(first_corner))
h_prime = o * torch.tanh(c_prime)
print((h_prime, c_prime))
print(lstm_cell(first_corner))

s0 = points[0]
s1 = points[1][2:]
s2 = points[2][1:]
print(s0.shape, s1.shape, s2.shape)
all_seqs = [s0, s1, s2]
try:
    torch.as_tensor(all_seqs)
except ValueError as e:
    print('ValueError:', e)
seq_tensors = [torch.as_tensor(seq).float() for seq in all_seqs]
padded = rnn_utils.pad_sequence(seq_tensors, batch_first=True)
print(padded)
torch.manual_seed(11)
rnn = nn.RNN(2, 2, batch_first=True)
output_padded, hidden_padded = rnn(padded)
print(output_padded)
print(hidden_padded.permute(1, 0, 2))
packed = rnn_utils.pack_sequence(seq_tensors, enforce_sorted=False)
print(packed)
print((packed.data[[0, 3, 6, 8]] == seq_tensors[0]).all())
output_packed, hidden_packed = rnn(packed)
print((output_packed, hidden_packed))
print(hidden_packed == hidden_padded)
print(output_packed.data[[2, 5]])
output_unpacked, seq_sizes = rnn_utils.pad_packed_sequence(output_packed, batch_first=True)
print((output_unpacked, seq_sizes))
print(output_unpacked[:, -1])
seq_idx = torch.arange(seq_sizes.size(0))
print(output_unpacked[seq_idx, seq_sizes - 1])
len_seqs = [len(seq) for seq in all_seqs]
print(len_seqs)
packed = rnn_utils.pack_padded_sequence(padded, len_seqs, enforce_sorted=False, batch_first=True)
print(packed)

temperatures = np.array([5, 11, 15, 6, 5, 3, 3, 0, 0, 3, 4, 2, 1])
size = 5
weight = torch.ones(size) * 0.2
print(F.conv1d(torch.as_tensor(temperatures).float().view(1, 1, -1), weight=weight.view(1, 1, -1)))
seqs = torch.as_tensor(np.array(points)).float()
seqs_length_last = seqs.permute(0, 2, 1)
print(seqs_length_last.shape)
torch.manual_seed(17)
conv_seq = nn.Conv1d(in_channels=2, out_channels=1, kernel_size=2, bias=False)
print((conv_seq.weight, conv_seq.weight.shape))
print(conv_seq(seqs_length_last[0:1]))
torch.manual_seed(17)
conv_dilated = nn.Conv1d(in_channels=2, out_channels=1, kernel_size=2, dilation=2, bias=False)
print(conv_dilated(seqs_length_last[0:1]))


class SquareModel(nn.Module):
    def __init__(self, n_features, hidden_dim, n_outputs, cell=nn.RNN):
        super(SquareModel, self).__init__()
        self.hidden_dim = hidden_dim
        self.n_features = n_features
        self.n_outputs = n_outputs
        self.hidden = None
        self.basic_rnn = cell(self.n_features, self.hidden_dim, batch_first=True)
        self.classifier = nn.Linear(self.hidden_dim, self.n_outputs)

    def forward(self, X):
        batch_first_output, self.hidden = self.basic_rnn(X)
        last_output = batch_first_output[:, -1]
        out = self.classifier(last_output)
        return out.view(-1, self.n_outputs)


class SquareModelPacked(nn.Module):
    def __init__(self, n_features, hidden_dim, n_outputs):
        super(SquareModelPacked, self).__init__()
        self.hidden_dim = hidden_dim
        self.n_features = n_features
        self.n_outputs = n_outputs
        self.hidden = None
        self.cell = None
        self.basic_rnn = nn.LSTM(self.n_features, self.hidden_dim, bidirectional=True)
        self.classifier = nn.Linear(2 * self.hidden_dim, self.n_outputs)

    def forward(self, X):
        rnn_out, (self.hidden, self.cell) = self.basic_rnn(X)
        batch_first_output, seq_sizes = rnn_utils.pad_packed_sequence(rnn_out, batch_first=True)
        seq_idx = torch.arange(seq_sizes.size(0))
        last_output = batch_first_output[seq_idx, seq_sizes - 1]
        out = self.classifier(last_output)
        return out.view(-1, self.n_outputs)


def correct(model, x, y, threshold=.5):
    model.eval()
    yhat = model(x)
    predicted = (torch.sigmoid(yhat) > threshold).long()
    result = []
    for c in range(2):
        n_class = (y == c).sum().item()
        n_correct = (predicted[y == c] == c).sum().item()
        result.append((n_correct, n_class))
    return torch.tensor(result)


def loader_apply(loader, func, reduce='sum'):
    results = [func(x, y) for i, (x, y) in enumerate(loader)]
    results = torch.stack(results, axis=0)
    if reduce == 'sum':
        results = results.sum(axis=0)
    elif reduce == 'mean':
        results = results.float().mean(axis=0)
    return results


def train(model, train_loader, n_epochs, seed=42):
    loss_fn = nn.BCEWithLogitsLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.01)
    torch.manual_seed(seed)
    losses = []
    for epoch in range(n_epochs):
        model.train()
        batch_losses = []
        for x_batch, y_batch in train_loader:
            loss = loss_fn(model(x_batch), y_batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            batch_losses.append(loss.item())
        losses.append(np.mean(batch_losses))
    return losses


test_points, test_directions = generate_sequences(n=32, seed=19)
train_data = TensorDataset(torch.as_tensor(np.array(points)).float(),
                           torch.as_tensor(directions).view(-1, 1).float())
test_data = TensorDataset(torch.as_tensor(np.array(test_points)).float(),
                          torch.as_tensor(test_directions).view(-1, 1).float())
train_loader = DataLoader(train_data, batch_size=16, shuffle=True)
test_loader = DataLoader(test_data, batch_size=16)

for cell in [nn.RNN, nn.GRU, nn.LSTM]:
    torch.manual_seed(21)
    model = SquareModel(n_features=2, hidden_dim=2, n_outputs=1, cell=cell)
    losses = train(model, train_loader, 5)
    print(cell.__name__, np.round(losses, 4))
    print(loader_apply(test_loader, lambda x, y: correct(model, x, y)))
    print(model.basic_rnn.state_dict())
square = torch.tensor([[-1, -1], [-1, 1], [1, 1], [1, -1]]).float().view(1, 4, 2)
model(square)
print(model.hidden)

var_points, var_directions = generate_sequences(n=48, variable_len=True)
print(var_points[:2])


class CustomDataset(Dataset):
    def __init__(self, x, y):
        self.x = [torch.as_tensor(s).float() for s in x]
        self.y = torch.as_tensor(y).float().view(-1, 1)

    def __getitem__(self, index):
        return (self.x[index], self.y[index])

    def __len__(self):
        return len(self.x)


def pack_collate(batch):
    X = [item[0] for item in batch]
    y = [item[1] for item in batch]
    X_pack = rnn_utils.pack_sequence(X, enforce_sorted=False)
    return X_pack, torch.as_tensor(y).view(-1, 1)


train_var_data = CustomDataset(var_points, var_directions)
dummy_x, dummy_y = pack_collate([train_var_data[0], train_var_data[1]])
print(dummy_x)
print(dummy_y)
train_var_loader = DataLoader(train_var_data, batch_size=16, shuffle=True, collate_fn=pack_collate)
torch.manual_seed(21)
model = SquareModelPacked(n_features=2, hidden_dim=2, n_outputs=1)
losses = train(model, train_var_loader, 5)
print(np.round(losses, 4))
print(loader_apply(train_var_loader, lambda x, y: correct(model, x, y)))
print(model.hidden.shape, model.cell.shape)

train_data = TensorDataset(torch.as_tensor(np.array(points)).float().permute(0, 2, 1),
                           torch.as_tensor(directions).view(-1, 1).float())
train_loader = DataLoader(train_data, batch_size=16, shuffle=True)
torch.manual_seed(21)
model = nn.Sequential()
model.add_module('conv1d', nn.Conv1d(2, 1, kernel_size=2))
model.add_module('relu', nn.ReLU())
model.add_module('flatten', nn.Flatten())
model.add_module('output', nn.Linear(3, 1))
losses = train(model, train_loader, 5)
print(np.round(losses, 4))
print(model.conv1d.state_dict())
