# Corpus program modelled on the Japanese Q&A article on nn.Embedding's padding_idx
# (https://openillumi.com/?p=38263, after the Stack Overflow question "What does padding_idx do
# in nn.embeddings()", https://stackoverflow.com/questions/61172400, in Japanese at
# https://python.19633.com/ja/Python/1010053740.html): the padding row is zeros and gets no
# gradient, pad_sequence builds the padded batch, pack_padded_sequence skips the pads,
# from_pretrained with freeze and padding_idx, and a mean over the non-padded positions.
# Changed: a tiny vocabulary and a seed; id lists instead of sentences.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence

torch.manual_seed(0)
PAD = 0
emb = nn.Embedding(6, 3, padding_idx=PAD)
print(emb)
print(emb.weight)
seqs = [torch.tensor([3, 1, 4]), torch.tensor([5, 2]), torch.tensor([1])]
batch = pad_sequence(seqs, batch_first=True, padding_value=PAD)
print(batch)
out = emb(batch)
print(out[1])
out.sum().backward()
print(emb.weight.grad)

opt = torch.optim.SGD(emb.parameters(), lr=0.5)
opt.step()
print(emb.weight[PAD], emb.weight[1])

lengths = torch.tensor([len(s) for s in seqs])
mask = batch != PAD
mean = (emb(batch) * mask.unsqueeze(-1)).sum(1) / lengths.unsqueeze(1)
print(mask)
print(mean)

packed = pack_padded_sequence(emb(batch), lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
print(packed.data.shape)
rnn = nn.GRU(3, 2, batch_first=True)
o, h = rnn(packed)
padded, lens = pad_packed_sequence(o, batch_first=True, padding_value=-1.0)
print(padded)
print(lens, h)

vectors = torch.randn(6, 3)
pre = nn.Embedding.from_pretrained(vectors, freeze=True, padding_idx=PAD)
print(pre, pre.weight.requires_grad, torch.equal(pre.weight[PAD], vectors[PAD]))
pre2 = nn.Embedding.from_pretrained(vectors, freeze=False, padding_idx=2)
pre2(torch.tensor([2, 2, 3])).sum().backward()
print(pre2.weight.grad)
print(nn.Embedding(4, 2, padding_idx=-1).weight)
try:
    nn.Embedding(4, 2, padding_idx=4)
except AssertionError as e:
    print("AssertionError:", e)
try:
    emb(torch.tensor([6]))
except IndexError as e:
    print("IndexError:", e)
