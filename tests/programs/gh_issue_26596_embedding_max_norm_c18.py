# Corpus program modelled on the PyTorch issue "nn.Embedding with max_norm shows unstable
# behavior and causes sometimes runtime error." (https://github.com/pytorch/pytorch/issues/26596)
# and the note its fix added to nn.Embedding's docstring (pull request #45595): with max_norm
# set, the forward renormalises the looked-up rows of weight in place, so a product computed
# from embedding.weight before the lookup (Line a before Line b) fails in backward; swapping the
# lines, or cloning the weight first as the docstring's note shows, works.
# Changed: the error is caught and printed; a seed; the rows' norms are printed.
# Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
n, d, m = 3, 5, 7
embedding = nn.Embedding(n, d, max_norm=True)
W = torch.randn((m, d), requires_grad=True)
optimizer = torch.optim.Adam(list(embedding.parameters()) + [W], lr=1e-3)
print(embedding.weight.norm(dim=1))

optimizer.zero_grad()
idx = torch.tensor([1, 2])
a = embedding.weight @ W.t()  # Line a
b = embedding(idx) @ W.t()    # Line b
print(embedding.weight.norm(dim=1))
print(embedding.weight._version)
out = (a.unsqueeze(0) + b.unsqueeze(1))
loss = out.sigmoid().prod()
try:
    loss.backward()
except RuntimeError as e:
    print(e)

optimizer.zero_grad()
b = embedding(idx) @ W.t()    # Line b
a = embedding.weight @ W.t()  # Line a
out = (a.unsqueeze(0) + b.unsqueeze(1))
loss = out.sigmoid().prod()
loss.backward()
optimizer.step()
print(loss)
print(embedding.weight.grad)
print(W.grad.norm())

embedding = nn.Embedding(n, d, max_norm=1.0)
W = torch.randn((m, d), requires_grad=True)
idx = torch.tensor([1, 2])
a = embedding.weight.clone() @ W.t()
b = embedding(idx) @ W.t()
out = (a.unsqueeze(0) + b.unsqueeze(1))
loss = out.sigmoid().prod()
loss.backward()
print(loss, embedding.weight.grad.abs().sum())
print(embedding.weight.norm(dim=1))
print(embedding)
