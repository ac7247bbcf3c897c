# Corpus program, written for gradsh (no code copied). Modelled on the torch.nn.LSTM reference
# page and its docstring example (rnn = nn.LSTM(10, 20, 2); input = torch.randn(5, 3, 10);
# h0 / c0 = torch.randn(2, 3, 20); output, (hn, cn) = rnn(input, (h0, c0))), and on its
# "proj_size > 0" paragraph (LSTM with projections, Sak et al. 2014: h_t's size becomes
# proj_size, a weight_hr_l[k] of shape (proj_size, hidden_size) per layer):
# https://pytorch.org/docs/stable/generated/torch.nn.LSTM.html
# Like the page: the docstring example as written, then the same model with proj_size: the
# module repr, the parameter names and shapes, h0 of (D * num_layers, N, proj_size) and c0 of
# (D * num_layers, N, hidden_size), the output's last dimension D * proj_size; a
# bidirectional and batch_first variant; the shape errors the page's Inputs section implies.
# Differences: a seed; smaller sizes for the projected models; values printed with 4
# decimals; a backward pass through the projections with the weight_hr gradient printed; a
# packed batch through the projected LSTM.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.manual_seed(0)
torch.set_printoptions(precision=4)

rnn = nn.LSTM(10, 20, 2)
input = torch.randn(5, 3, 10)
h0 = torch.randn(2, 3, 20)
c0 = torch.randn(2, 3, 20)
output, (hn, cn) = rnn(input, (h0, c0))
print(output.shape, hn.shape, cn.shape)
print(output[-1, 0, :6])

proj = nn.LSTM(6, 8, num_layers=2, proj_size=3)
print(proj)
for name, p in proj.named_parameters():
    print(name, tuple(p.shape))
x = torch.randn(4, 2, 6)
h0 = torch.randn(2, 2, 3)
c0 = torch.randn(2, 2, 8)
out, (hn, cn) = proj(x, (h0, c0))
print("output", out.shape, out.grad_fn)
print(out)
print("hn", hn)
print("cn", cn)
print(torch.equal(out[-1], hn[-1]))
out.pow(2).sum().backward()
print("weight_hr_l1 grad", proj.weight_hr_l1.grad)
print("weight_hh_l0 grad", proj.weight_hh_l0.grad[:4])

bi = nn.LSTM(5, 6, bidirectional=True, batch_first=True, proj_size=2)
print(bi, [n for n, _ in bi.named_parameters()])
y, (h, c) = bi(torch.randn(3, 4, 5))
print(y.shape, h.shape, c.shape)
print(y[0])
y2, (h2, c2) = bi(torch.randn(4, 5))
print("unbatched", y2.shape, h2.shape, c2.shape)

try:
    proj(x, (torch.randn(2, 2, 8), c0))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    proj(x, (h0, torch.randn(2, 2, 3)))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.LSTM(4, 4, proj_size=4)
except ValueError as e:
    print("ValueError:", e)
try:
    nn.GRU(4, 4, proj_size=2)
except ValueError as e:
    print("ValueError:", e)

seqs = torch.randn(3, 5, 6)
lengths = torch.tensor([5, 3, 2])
packed = pack_padded_sequence(seqs, lengths, batch_first=True)
p_out, (p_h, p_c) = proj(packed)
padded, lens = pad_packed_sequence(p_out, batch_first=True)
print(padded.shape, lens, p_h.shape, p_c.shape)
print(padded[1])
print(proj.double()(x.double())[0][-1])
