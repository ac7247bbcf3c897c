# Corpus program modelled on the Stack Overflow question "How does the gather function work in
# PyTorch?" (https://stackoverflow.com/questions/50999977, seen through its mirror
# https://kaijuan.co/qa/50999977) and its answers: gather along dim 0 and dim 1 of a 2x2 tensor,
# the 4x2 "source" example with index rows of any length, and the scores.gather(1, y.view(-1, 1))
# pick-the-label-score idiom.
# Changed: the legacy torch.Tensor / torch.LongTensor constructors are kept alongside
# torch.tensor; the answers' printed outputs become print calls; an out-of-range index and a
# float index are shown raising (caught and printed). Written for gradsh.
import torch

t = torch.Tensor([[1, 2], [3, 4]])
print(torch.gather(t, 0, torch.LongTensor([[0, 0], [1, 0]])))
print(torch.gather(t, 1, torch.LongTensor([[0, 0], [1, 0]])))

t = torch.tensor([[1, 2], [3, 4]])
r = torch.gather(t, 0, torch.tensor([[0, 0], [1, 0]]))
print(r, r.dtype)

source = torch.tensor([[1, 2], [3, 4], [5, 6], [7, 8]])
index = torch.tensor([[0, 0], [1, 1], [0, 1], [1, 0]])
print(source.gather(dim=1, index=index))

source = torch.arange(16).view(4, 4)
index = torch.tensor([[0, 1, 2, 1, 0], [2, 1, 0, 1, 2], [1, 2, 0, 2, 1], [1, 0, 2, 0, 1]])
print(source.gather(dim=1, index=index))

torch.manual_seed(0)
scores = torch.randn(5, 3, requires_grad=True)
print(scores)
y = torch.LongTensor([1, 2, 1, 0, 2])
res = scores.gather(1, y.view(-1, 1)).squeeze()
print(res)
res.sum().backward()
print(scores.grad)

for bad in (torch.tensor([[0, 2], [1, 0]]), torch.tensor([[0.0, 1.0], [1.0, 0.0]])):
    try:
        print(torch.gather(t, 1, bad))
    except RuntimeError as e:
        print(type(e).__name__, e)
