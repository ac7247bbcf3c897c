# Corpus program, written for gradsh (no code copied). Modelled on Sung Kim's "PyTorch Zero To
# All" lecture 12 code, 12_1_rnn_basics.py:
# https://github.com/hunkim/PyTorchZeroToAll/blob/master/12_1_rnn_basics.py
# Like the original: one-hot vectors for the letters of "hello"; an nn.RNN(input_size=4,
# hidden_size=2, batch_first=True) fed one letter at a time (view(1, 1, -1)) carrying the
# hidden state, then the whole sequence at once, then a batch of three words; then a
# sequence-first RNN fed the batch transposed with transpose(dim0=0, dim1=1); sizes printed.
# Differences: a seed; torch.Tensor instead of Variable; the outputs and hidden states are
# printed as well as their sizes.
import torch
import torch.nn as nn

torch.manual_seed(0)

h = [1, 0, 0, 0]
e = [0, 1, 0, 0]
l = [0, 0, 1, 0]
o = [0, 0, 0, 1]

cell = nn.RNN(input_size=4, hidden_size=2, batch_first=True)
print(cell)
hidden = torch.randn(1, 1, 2)

inputs = torch.Tensor([h, e, l, l, o])
for one in inputs:
    one = one.view(1, 1, -1)
    out, hidden = cell(one, hidden)
    print("one input size", one.size(), "out size", out.size())
    print(out)

inputs = inputs.view(1, 5, -1)
out, hidden = cell(inputs, hidden)
print("sequence input size", inputs.size(), "out size", out.size())
print(out)
print(hidden)

hidden = torch.randn(1, 3, 2)
inputs = torch.Tensor([[h, e, l, l, o],
                       [e, o, l, l, l],
                       [l, l, e, e, l]])
out, hidden = cell(inputs, hidden)
print("batch input size", inputs.size(), "out size", out.size())
print(out)
print(hidden)

cell = nn.RNN(input_size=4, hidden_size=2)
inputs = inputs.transpose(dim0=0, dim1=1)
out, hidden = cell(inputs, hidden)
print("batch input size", inputs.size(), "out size", out.size())
print(out)
print(hidden)
print(out.grad_fn, hidden.grad_fn)
print(inputs.is_contiguous(), inputs.stride())
