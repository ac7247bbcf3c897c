# Corpus program modelled on the Stack Overflow questions about getting the index of the maximum
# along a dimension ("torch.max(x, 1) returns values and indices") and on topk vs argmax, whose
# answers follow the torch.max / torch.topk docs
# (https://pytorch.org/docs/stable/generated/torch.max.html): torch.max / min / topk / sort /
# kthvalue / mode / median with dim, their torch.return_types reprs, unpacking, keepdim, ties,
# and gradients through the values.
# Changed: seeded random scores; each variant printed. Written for gradsh.
import torch

torch.manual_seed(3)
x = torch.randn(4, 5, requires_grad=True)
print(x)
m = torch.max(x, 1)
print(m)
print(type(m).__name__, m.values, m.indices, m[0].grad_fn)
values, indices = torch.max(x, dim=0, keepdim=True)
print(values, indices)
print(torch.argmax(x), torch.argmax(x, dim=1), x.argmax(1, keepdim=True))
print(torch.min(x, -1))
t = torch.topk(x, 2)
print(t)
t2 = x.topk(3, dim=0, largest=False, sorted=True)
print(t2.values, t2.indices)
s = torch.sort(x, dim=1, descending=True)
print(s)
print(x.kthvalue(2, dim=1))
print(torch.median(x, 1))
loss = m.values.sum() + t.values.sum() * 2
loss.backward()
print(x.grad)

ties = torch.tensor([[1, 3, 3, 0], [2, 2, 1, 2]])
print(ties.max(1), ties.argmax(1))
print(torch.mode(ties, 1))
print(torch.sort(ties, stable=True))
print(ties.topk(2))
print(torch.max(ties), torch.max(ties, torch.ones_like(ties) * 2))
b = torch.tensor([[True, False], [False, False]])
print(b.any(1), b.all(0), b.max(), b.float().argmax(1))
print(torch.aminmax(torch.tensor([3.0, -1.0, 7.0])))
print(torch.cummax(torch.tensor([1, 3, 2, 5, 4]), 0))
