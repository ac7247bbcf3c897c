# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# torch.nn.Linear, Conv2d, Embedding, LSTM, BatchNorm1d, Dropout, MSELoss and
# CrossEntropyLoss, BSD-3-Clause: https://github.com/pytorch/pytorch/tree/main/torch/nn/modules
# Like the docs: Linear on a (128, 20) batch and the output size; Conv2d with square and
# non-square kernels, stride, padding and dilation; Embedding lookups of a LongTensor batch,
# with padding_idx, and overwriting the padding row under no_grad; a 2-layer LSTM with
# (h0, c0); BatchNorm1d with and without affine; Dropout(p=0.2); MSELoss and CrossEntropyLoss
# with class indices (target from torch.empty(...).random_(5)) and with class probabilities,
# each followed by backward; the "probabilities not summing to 1" example with
# torch.manual_seed(283).
# Differences: our own code and shapes; shapes and values printed; seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)

fc = nn.Linear(20, 30)
print(fc(torch.randn(128, 20)).size())

conv_a = nn.Conv2d(8, 12, 3, stride=2)
conv_b = nn.Conv2d(8, 12, (3, 5), stride=(2, 1), padding=(4, 2))
conv_c = nn.Conv2d(8, 12, (3, 5), stride=(2, 1), padding=(4, 2), dilation=(3, 1))
img = torch.randn(2, 8, 20, 30)
for conv in (conv_a, conv_b, conv_c):
    print(conv, conv(img).shape)

emb = nn.Embedding(10, 3)
ids = torch.LongTensor([[1, 2, 4, 5], [4, 3, 2, 9]])
print(emb(ids))
emb = nn.Embedding(10, 3, padding_idx=0)
print(emb(torch.LongTensor([[0, 2, 0, 5]])))
emb = nn.Embedding(3, 3, padding_idx=0)
print(emb.weight)
with torch.no_grad():
    emb.weight[0] = torch.ones(3)
print(emb.weight)

rnn = nn.LSTM(10, 20, 2)
seq = torch.randn(5, 3, 10)
h0 = torch.randn(2, 3, 20)
c0 = torch.randn(2, 3, 20)
output, (hn, cn) = rnn(seq, (h0, c0))
print(output.shape, hn.shape, cn.shape)
print(rnn)

bn = nn.BatchNorm1d(6)
bn_plain = nn.BatchNorm1d(6, affine=False)
feats = torch.randn(8, 6)
print(bn(feats).mean(dim=0))
print(bn_plain(feats).std(dim=0, unbiased=False))
print(bn_plain, bn_plain.weight)

drop = nn.Dropout(p=0.2)
print(drop(torch.ones(4, 5)))

mse = nn.MSELoss()
pred = torch.randn(3, 5, requires_grad=True)
goal = torch.randn(3, 5)
loss = mse(pred, goal)
loss.backward()
print(loss, pred.grad.shape)

ce = nn.CrossEntropyLoss()
logits = torch.randn(3, 5, requires_grad=True)
classes = torch.empty(3, dtype=torch.long).random_(5)
print(classes)
loss = ce(logits, classes)
loss.backward()
print(loss, logits.grad)
logits = torch.randn(3, 5, requires_grad=True)
soft = torch.randn(3, 5).softmax(dim=1)
loss = ce(logits, soft)
loss.backward()
print(loss)

torch.manual_seed(283)
logits = torch.randn(3, 5, requires_grad=True)
raw = torch.randn(3, 5)
print(raw)
print(raw.sum(axis=1))
print(ce(logits, raw).item())
probs = raw.softmax(dim=1)
print(probs)
print(probs.sum(axis=1))
print(ce(logits, probs).item())
