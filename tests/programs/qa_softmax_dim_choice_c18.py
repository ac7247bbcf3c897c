# Corpus program modelled on the Stack Overflow question "PyTorch softmax: What dimension to
# use?" (https://stackoverflow.com/questions/49036993) and its answers: softmax over dim=0
# normalises columns, dim=1 rows; a 3-D tensor with dim=-1; nn.Softmax() without dim (the
# implicit-dim warning, on stderr) picks dim=1 for 2-D and 3-D inputs and dim 0 for 1-D and 4-D;
# log_softmax and the sums that show which axis was normalised.
# Changed: a seed and small sizes. Written for gradsh.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(2, 3)
print(a)
s0 = F.softmax(a, dim=0)
s1 = F.softmax(a, dim=1)
print(s0)
print(s1)
print(s0.sum(dim=0), s1.sum(dim=1))

b = torch.randn(2, 2, 3)
print(F.softmax(b, dim=-1))
print(F.softmax(b, dim=-1).sum(-1))

sm = nn.Softmax()
print(sm)
for shape in [(3,), (2, 3), (2, 3, 2), (1, 2, 2, 2)]:
    t = torch.arange(float(torch.tensor(shape).prod())).reshape(shape) / 4
    y = sm(t)
    for d in range(len(shape)):
        if torch.allclose(y.sum(d), torch.ones(1)):
            print(shape, "normalised over dim", d)
            break
print(nn.Softmax(dim=1), nn.LogSoftmax(dim=-1), nn.Softmax2d())
print(F.log_softmax(a, dim=1))
print(torch.exp(F.log_softmax(a, dim=1)) - s1)
big = torch.tensor([[1000.0, 1001.0, 1002.0]])
print(F.softmax(big, dim=1), torch.exp(big) / torch.exp(big).sum())
print(F.softmax(torch.tensor([1, 2, 3]), dim=0, dtype=torch.float64))
try:
    F.softmax(torch.tensor([1, 2, 3]), dim=0)
except RuntimeError as e:
    print(e)
print(nn.Softmax2d()(torch.randn(1, 3, 2, 2)).sum(1))
