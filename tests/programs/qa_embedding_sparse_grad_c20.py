# Corpus program modelled on the discuss.pytorch.org answer that sparse gradients "are
# implemented in the Embedding module" (https://discuss.pytorch.org/t/backprop-through-sparse-dense-matmul/1244/2),
# the note "Sparse Embedding Layer" (https://cheesebytes.com/cave/sparse-embedding-layer) and
# torch.optim.SparseAdam's documentation (https://pytorch.org/docs/master/generated/torch.optim.SparseAdam.html):
# nn.Embedding(sparse=True)'s weight gradient is a sparse COO tensor holding only the looked-up
# rows (repeats uncoalesced), SparseAdam updates only those rows, and plain Adam refuses sparse
# gradients. Changed: a tiny vocabulary and a seed; the error texts caught and printed.
import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(6, 3, sparse=True)
print(emb)
idx = torch.tensor([[1, 3], [3, 4]])
out = emb(idx)
out.sum().backward()
g = emb.weight.grad
print(g.is_sparse, g.layout, g.shape)
print(g._indices(), g._values())
gc = g.coalesce()
print(gc.indices(), gc.values())
print(g.to_dense())

dense = nn.Embedding(6, 3)
dense.weight.data.copy_(emb.weight.data)
dense(idx).sum().backward()
print(torch.equal(dense.weight.grad, g.to_dense()))

before = emb.weight.detach().clone()
opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
print(opt)
opt.step()
changed = (emb.weight.detach() != before).any(dim=1)
print(changed)
print(emb.weight)
print(sorted(opt.state[emb.weight].keys()), opt.state[emb.weight]['step'])
print(opt.state[emb.weight]['exp_avg'])

try:
    torch.optim.Adam(emb.parameters(), lr=0.1).step()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.optim.SparseAdam(dense.parameters()).step()
except RuntimeError as e:
    print("RuntimeError:", e)

# a few SparseAdam steps on a tiny objective
target = torch.randn(6, 3)
for step in range(3):
    opt.zero_grad()
    rows = torch.tensor([0, 2, 2, 5])
    loss = (emb(rows) - target[rows]).pow(2).sum()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), emb.weight.grad._nnz())
print(emb.weight)
print(nn.functional.embedding(torch.tensor([1]), emb.weight, sparse=True))
