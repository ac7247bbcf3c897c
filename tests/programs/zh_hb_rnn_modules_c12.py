# Corpus program, written for gradsh (no code copied). Modelled on zergtant's pytorch-handbook
# (《PyTorch 中文手册》), chapter 2.5 "循环神经网络" (RNN):
# https://github.com/zergtant/pytorch-handbook/blob/master/chapter2/2.5-rnn.ipynb
# Like the chapter: torch.nn.RNN(20, 50, 2) on a (seq, batch, feature) input with h_0; a
# hand-written RNN class (W_xh and W_hh Linear layers, tanh(h1 + w1), its step returning the
# W_hh weight as "hidden" as the chapter's code does) run over the rows of an input;
# torch.nn.LSTM(10, 20, 2) with (h0, c0); torch.nn.GRU(10, 20, 2) called with the LSTM's h0
# (as the chapter does); an Embedding(10, 3) on a LongTensor batch of indices.
# Differences: a manual seed; sequence 12 and batch 4 for the first RNN instead of 100 x 32;
# besides the sizes the chapter prints, values of the outputs and the modules' reprs,
# parameter names and a backward pass through the LSTM are printed.
import torch

torch.manual_seed(25)
rnn = torch.nn.RNN(20, 50, 2)
input = torch.randn(12, 4, 20)
h_0 = torch.randn(2, 4, 50)
output, hn = rnn(input, h_0)
print(output.size(), hn.size())
print(rnn, [name for name, _ in rnn.named_parameters()])
print(output[-1, 0, :6], hn[1, 0, :6])
print(torch.equal(output[-1], hn[-1]))


class RNN(object):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.W_xh = torch.nn.Linear(input_size, hidden_size)
        self.W_hh = torch.nn.Linear(hidden_size, hidden_size)

    def __call__(self, x, hidden):
        return self.step(x, hidden)

    def step(self, x, hidden):
        h1 = self.W_hh(hidden)
        w1 = self.W_xh(x)
        out = torch.tanh(h1 + w1)
        hidden = self.W_hh.weight
        return out, hidden


rnn = RNN(20, 50)
input = torch.randn(32, 20)
h_0 = torch.randn(32, 50)
seq_len = input.shape[0]
for i in range(seq_len):
    output, hn = rnn(input[i, :], h_0)
print(output.size(), h_0.size(), hn.shape)
print(output[:5])

lstm = torch.nn.LSTM(10, 20, 2)
input = torch.randn(5, 3, 10, requires_grad=True)
h0 = torch.randn(2, 3, 20)
c0 = torch.randn(2, 3, 20)
output, hn = lstm(input, (h0, c0))
print(output.size(), hn[0].size(), hn[1].size())
print(output[-1, :, :5])
print(hn[1][0, 0, :5])
output.sum().backward()
print(input.grad[0, 0], lstm.weight_hh_l1.grad.abs().sum())

rnn = torch.nn.GRU(10, 20, 2)
input = torch.randn(5, 3, 10)
h_0 = torch.randn(2, 3, 20)
output, hn = rnn(input, h0)
print(output.size(), hn.size())
print(hn[0, :, :4], output.grad_fn)

embedding = torch.nn.Embedding(10, 3)
input = torch.LongTensor([[1, 2, 4, 5], [4, 3, 2, 9]])
output = embedding(input)
print(output.size())
print(output)
print(embedding)
