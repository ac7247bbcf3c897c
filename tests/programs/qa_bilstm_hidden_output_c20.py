# Corpus program modelled on the discuss.pytorch.org thread "BiLSTM : Output & Hidden State
# Mismatch" (https://discuss.pytorch.org/t/bilstm-output-hidden-state-mismatch/49825) and
# "Concatnation of h(t) of forward and h(0) of backward in Bidirection LSTM output"
# (https://discuss.pytorch.org/t/concatnation-of-h-t-of-forward-and-h-0-of-backward-in-bidirection-lstm-output/10333):
# h_n is (num_layers * num_directions, batch, hidden); h_n.view(num_layers, 2, batch, hidden)
# separates the directions; the forward direction's last step is output[-1, :, :hidden] while
# the backward direction's final state is output[0, :, hidden:]. Also GRU, batch_first and a
# packed batch with different lengths. Changed: tiny sizes, a seed, checks printed.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.manual_seed(0)
seq_len, batch, inp, hidden, layers = 5, 3, 4, 6, 2
lstm = nn.LSTM(inp, hidden, num_layers=layers, bidirectional=True)
print(lstm)
for name, p in lstm.named_parameters():
    print(name, tuple(p.shape))
x = torch.randn(seq_len, batch, inp)
output, (h_n, c_n) = lstm(x)
print(output.shape, h_n.shape, c_n.shape)
h = h_n.view(layers, 2, batch, hidden)
last_fwd, last_bwd = h[-1, 0], h[-1, 1]
print(torch.equal(last_fwd, output[-1, :, :hidden]), torch.equal(last_bwd, output[0, :, hidden:]))
print(torch.equal(h_n[-2], last_fwd), torch.equal(h_n[-1], last_bwd))
final = torch.cat((h_n[-2], h_n[-1]), dim=1)
print(final.shape)
print(final)
print(torch.equal(output[-1], final))

gru = nn.GRU(inp, hidden, batch_first=True, bidirectional=True)
xb = x.transpose(0, 1).contiguous()
out_g, h_g = gru(xb)
print(out_g.shape, h_g.shape)
print(torch.equal(out_g[:, -1, :hidden], h_g[0]), torch.equal(out_g[:, 0, hidden:], h_g[1]))

# with padding: the last *valid* step differs from output[-1]
lengths = torch.tensor([5, 3, 2])
packed = pack_padded_sequence(x, lengths, enforce_sorted=True)
p_out, (p_h, p_c) = lstm(packed)
padded, out_lens = pad_packed_sequence(p_out)
print(padded.shape, out_lens)
print(padded[:, 2, 0])
fwd_last = padded[lengths - 1, torch.arange(batch), :hidden]
print(torch.allclose(fwd_last, p_h[-2]), torch.allclose(padded[0, :, hidden:], p_h[-1]))
print(torch.equal(padded[-1, 1], torch.zeros(2 * hidden)))

loss = final.pow(2).mean()
loss.backward()
print(loss)
print(lstm.weight_hh_l1_reverse.grad[:2, :3])
print(lstm.bias_ih_l0.grad[:6])
h0 = torch.zeros(layers * 2, batch, hidden)
try:
    lstm(x, (torch.zeros(layers, batch, hidden), torch.zeros(layers, batch, hidden)))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    lstm(x, h0)
except Exception as e:
    print(type(e).__name__ + ":", e)
