# Corpus program, written for gradsh (no code copied). Modelled on three scripts of hunkim's
# PyTorchZeroToAll: 03_auto_gradient.py, 06_logistic_regression.py and
# 13_1_rnn_classification_basics.py:
# https://github.com/hunkim/PyTorchZeroToAll/blob/master/03_auto_gradient.py
# https://github.com/hunkim/PyTorchZeroToAll/blob/master/06_logistic_regression.py
# https://github.com/hunkim/PyTorchZeroToAll/blob/master/13_1_rnn_classification_basics.py
# Like the sources: w = torch.tensor([1.0], requires_grad=True) trained by hand on x * w with
# the squared error, "\tgrad: " lines with w.grad.item() (full float reprs), w.data
# reassigned to w.data - 0.01 * w.grad.item() and w.grad.data.zero_(); the logistic regression
# with `from torch import tensor, sigmoid`, BCELoss(reduction='mean'), SGD(lr=0.01) and the
# f-string epoch line and predictions for 1 and 7 hours; the GRU name classifier (ASCII codes,
# Embedding, GRU, the last hidden state through Linear, the shape prints inside forward,
# Variable(torch.zeros(...)) hidden state) on single names and on a zero-padded batch.
# Differences: seeded; the logistic regression's epoch line printed every 100th of the 1000
# epochs; the classifier's outputs printed besides their sizes.
import torch
import torch.nn as nn
import torch.optim as optim
from torch import sigmoid, tensor
from torch.autograd import Variable

x_data = [1.0, 2.0, 3.0]
y_data = [2.0, 4.0, 6.0]
w = torch.tensor([1.0], requires_grad=True)


def forward(x):
    return x * w


def loss(y_pred, y_val):
    return (y_pred - y_val) ** 2


print("Prediction (before training)", 4, forward(4).item())
for epoch in range(10):
    for x_val, y_val in zip(x_data, y_data):
        y_pred = forward(x_val)
        l = loss(y_pred, y_val)
        l.backward()
        print("\tgrad: ", x_val, y_val, w.grad.item())
        w.data = w.data - 0.01 * w.grad.item()
        w.grad.data.zero_()
    print(f"Epoch: {epoch} | Loss: {l.item()}")
print("Prediction (after training)", 4, forward(4).item())
print(w, w.grad, w.is_leaf)

torch.manual_seed(0)
x_data = tensor([[1.0], [2.0], [3.0], [4.0]])
y_data = tensor([[0.], [0.], [1.], [1.]])


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()
        self.linear = nn.Linear(1, 1)

    def forward(self, x):
        y_pred = sigmoid(self.linear(x))
        return y_pred


model = Model()
criterion = nn.BCELoss(reduction='mean')
optimizer = optim.SGD(model.parameters(), lr=0.01)
for epoch in range(1000):
    y_pred = model(x_data)
    loss_value = criterion(y_pred, y_data)
    if epoch % 100 == 0:
        print(f'Epoch {epoch + 1}/1000 | Loss: {loss_value.item():.4f}')
    optimizer.zero_grad()
    loss_value.backward()
    optimizer.step()
print(f'\nLet\'s predict the hours need to score above 50%\n{"=" * 50}')
hour_var = model(tensor([[1.0]]))
print(f'Prediction after 1 hour of training: {hour_var.item():.4f} | Above 50%: {hour_var.item() > 0.5}')
hour_var = model(tensor([[7.0]]))
print(f'Prediction after 7 hours of training: {hour_var.item():.4f} | Above 50%: {hour_var.item() > 0.5}')
print(model.linear.weight, model.linear.bias)

HIDDEN_SIZE = 100
N_CHARS = 128
N_CLASSES = 18


class RNNClassifier(nn.Module):
    def __init__(self, input_size, hidden_size, output_size, n_layers=1):
        super(RNNClassifier, self).__init__()
        self.hidden_size = hidden_size
        self.n_layers = n_layers
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, input):
        batch_size = input.size(0)
        input = input.t()
        print("  input", input.size())
        embedded = self.embedding(input)
        print("  embedding", embedded.size())
        hidden = self._init_hidden(batch_size)
        output, hidden = self.gru(embedded, hidden)
        print("  gru hidden output", hidden.size())
        fc_output = self.fc(hidden)
        print("  fc output", fc_output.size())
        return fc_output

    def _init_hidden(self, batch_size):
        hidden = torch.zeros(self.n_layers, batch_size, self.hidden_size)
        return Variable(hidden)


def str2ascii_arr(msg):
    arr = [ord(c) for c in msg]
    return arr, len(arr)


def pad_sequences(vectorized_seqs, seq_lengths):
    seq_tensor = torch.zeros((len(vectorized_seqs), seq_lengths.max())).long()
    for idx, (seq, seq_len) in enumerate(zip(vectorized_seqs, seq_lengths)):
        seq_tensor[idx, :seq_len] = torch.LongTensor(seq)
    return seq_tensor


def make_variables(names):
    sequence_and_length = [str2ascii_arr(name) for name in names]
    vectorized_seqs = [sl[0] for sl in sequence_and_length]
    seq_lengths = torch.LongTensor([sl[1] for sl in sequence_and_length])
    return pad_sequences(vectorized_seqs, seq_lengths)


names = ['adylov', 'solan', 'hard', 'san']
classifier = RNNClassifier(N_CHARS, HIDDEN_SIZE, N_CLASSES)
for name in names:
    arr, _ = str2ascii_arr(name)
    inp = Variable(torch.LongTensor([arr]))
    out = classifier(inp)
    print("in", inp.size(), "out", out.size())
    print(out[0, 0, :4])
inputs = make_variables(names)
print(inputs)
out = classifier(inputs)
print("batch in", inputs.size(), "batch out", out.size())
print(out[0, :, :3], out.grad_fn)
