# Corpus program, written for gradsh (no code copied). Modelled on GunhoChoi's
# Kind-PyTorch-Tutorial, 08_Simple_Char_RNN/Simple_Char_RNN.py:
# https://github.com/GunhoChoi/Kind-PyTorch-Tutorial/blob/master/08_Simple_Char_RNN/Simple_Char_RNN.py
# Like the original: "hello pytorch" one-hot encoded with NumPy (np.vstack of int rows with
# start and end markers) and turned into floats with torch.from_numpy(...).type_as(
# torch.FloatTensor()); an RNN module of two Linears over torch.cat((input, hidden), 1);
# MSELoss between each step's output and the next one-hot row, summed into total_loss (a
# Python 0 plus tensors), Adam(lr=0.01), the loss tensor printed every 10 epochs; the test
# loop decoding with torch.Tensor.numpy(...) called on the class and argmax, feeding each
# output back as the next input.
# Differences: a seed; 60 epochs instead of 100; the one-hot matrix's dtype and shape
# printed.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(1)
string = "hello pytorch"
chars = "abcdefghijklmnopqrstuvwxyz 01"
char_list = [i for i in chars]
batch_size = len(char_list)


def string_to_onehot(string):
    start = np.zeros(shape=len(char_list), dtype=int)
    end = np.zeros(shape=len(char_list), dtype=int)
    start[-2] = 1
    end[-1] = 1
    for i in string:
        idx = char_list.index(i)
        zero = np.zeros(shape=batch_size, dtype=int)
        zero[idx] = 1
        start = np.vstack([start, zero])
    output = np.vstack([start, end])
    return output


def onehot_to_word(onehot_1):
    onehot = torch.Tensor.numpy(onehot_1)
    return char_list[onehot.argmax()]


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.i2o(combined)
        return output, hidden

    def init_hidden(self):
        return torch.zeros(1, self.hidden_size)


n_letters = len(char_list)
n_hidden = 100
lr = 0.01
epochs = 60
rnn = RNN(n_letters, n_hidden, n_letters)
raw = torch.from_numpy(string_to_onehot(string))
print(raw.dtype, raw.shape, raw[:3, -4:])
one_hot = raw.type_as(torch.FloatTensor())
print(one_hot.dtype, one_hot.type())
loss_func = nn.MSELoss()
optimizer = torch.optim.Adam(rnn.parameters(), lr=lr)

for i in range(epochs):
    rnn.zero_grad()
    total_loss = 0
    hidden = rnn.init_hidden()
    for j in range(one_hot.size()[0] - 1):
        input = one_hot[j:j + 1, :]
        output, hidden = rnn.forward(input, hidden)
        target = one_hot[j + 1]
        loss = loss_func(output.view(-1), target.view(-1))
        total_loss += loss
        input = output
    total_loss.backward()
    optimizer.step()
    if i % 10 == 0:
        print(total_loss)

hidden = rnn.init_hidden()
input = one_hot[0:1, :]
decoded = []
for i in range(len(string)):
    output, hidden = rnn.forward(input, hidden)
    decoded.append(onehot_to_word(output.data))
    input = output
print(decoded)
print("".join(decoded))
