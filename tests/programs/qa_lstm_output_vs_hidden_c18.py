# Corpus program modelled on the Stack Overflow question "What's the difference between
# "hidden" and "output" in PyTorch LSTM?" (https://stackoverflow.com/questions/48302810) and its
# answers: output holds the last layer's h_t for every step, h_n the last step of every layer
# (and direction); for a unidirectional LSTM output[-1] == h_n[-1]; for a bidirectional one the
# forward half of output's last step and the backward half of output's first step are h_n's.
# Changed: small sizes, a seed, batch_first shown as well. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
seq_len, batch, inp, hid = 5, 3, 4, 6
x = torch.randn(seq_len, batch, inp)

lstm = nn.LSTM(inp, hid, num_layers=2)
output, (h_n, c_n) = lstm(x)
print(output.shape, h_n.shape, c_n.shape)
print(torch.equal(output[-1], h_n[-1]))
print(h_n[-1])

bi = nn.LSTM(inp, hid, num_layers=1, bidirectional=True)
out, (h, c) = bi(x)
print(out.shape, h.shape)
print(torch.equal(out[-1, :, :hid], h[0]), torch.equal(out[0, :, hid:], h[1]))
print(torch.equal(out[-1, :, hid:], h[1]))
out_v = out.view(seq_len, batch, 2, hid)
print(torch.equal(out_v[0, :, 1], h[1]))

bf = nn.LSTM(inp, hid, batch_first=True)
xb = x.transpose(0, 1)
ob, (hb, cb) = bf(xb)
print(ob.shape, hb.shape, torch.equal(ob[:, -1], hb[0]))
print(ob[:, -1])

gru = nn.GRU(inp, hid, num_layers=2, bidirectional=True)
og, hg = gru(x)
print(og.shape, hg.shape)
hg = hg.view(2, 2, batch, hid)
print(torch.equal(og[-1, :, :hid], hg[-1, 0]), torch.equal(og[0, :, hid:], hg[-1, 1]))
print(lstm)
print(bi)
