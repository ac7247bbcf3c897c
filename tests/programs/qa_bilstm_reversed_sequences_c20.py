# Corpus program modelled on the discuss.pytorch.org question "The hidden states of two reverse
# sequence on BiLSTM mismatch" (https://discuss.pytorch.org/t/the-hidden-states-of-two-reverse-sequence-on-bilstm-mismatch/119521):
# feeding [1,2,3,4,5] and [5,4,3,2,1] to one bidirectional LSTM, the asker expected a's
# forward final state to equal b's backward final state. They differ because the two
# directions have their own weights; the answer's check copies the forward weights into the
# reverse direction, after which the states agree. Views of o/h/c by direction as in the post.
# Changed: a seed; the copied-weights check added as the explanation; values printed.
import torch
import torch.nn as nn

torch.manual_seed(0)
batch_size = 1
seq_len = 5
hidden_size = 3
embed_dim = 5
embed_size = 10
num_layers = 1
num_directions = 2
embedding = nn.Embedding(embed_size, embed_dim)
a = torch.tensor([[1, 2, 3, 4, 5]])
b = torch.tensor([[5, 4, 3, 2, 1]])
rnn = nn.LSTM(embed_dim, hidden_size, batch_first=True, bidirectional=True, dropout=0)


def my_rnn(input_seq):
    e = embedding(input_seq)
    o, (h, c) = rnn(e)
    o = o.view(seq_len, batch_size, num_directions, hidden_size)
    h = h.view(num_layers, num_directions, batch_size, hidden_size)
    c = c.view(num_layers, num_directions, batch_size, hidden_size)
    return o, h, c


ao, ah, ac = my_rnn(a)
bo, bh, bc = my_rnn(b)
print(ah[0, 0], bh[0, 1])
print(bh[0, 0], ah[0, 1])
print(torch.allclose(ah[0, 0], bh[0, 1]))

with torch.no_grad():
    for name in ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"):
        getattr(rnn, name + "_reverse").copy_(getattr(rnn, name))
ao, ah, ac = my_rnn(a)
bo, bh, bc = my_rnn(b)
print(ah[0, 0], bh[0, 1])
print(torch.allclose(ah[0, 0], bh[0, 1], atol=1e-6), torch.allclose(ac[0, 0], bc[0, 1], atol=1e-6))
print(ao.shape, ao[:, 0, 0].shape)
print(torch.allclose(ao[:, 0, 0], bo.flip(0)[:, 0, 1], atol=1e-6))
e = embedding(a)
full, _ = rnn(e)
print(torch.equal(full[0, -1, :hidden_size], ah[0, 0, 0]), torch.equal(full[0, 0, hidden_size:], ah[0, 1, 0]))
