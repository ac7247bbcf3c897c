# Corpus program, written for gradsh (no code copied). Modelled on the NLP tutorial
# "Introduction to PyTorch" (Robert Guthrie), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/nlp/pytorch_tutorial.py
# Like the original: torch.manual_seed(1); 1-D, 2-D and 3-D tensors from nested lists,
# indexing to a 0-d tensor and .item(), randn((3, 4, 5)), addition, torch.cat along rows and
# columns, view with -1, requires_grad tensors and their grad_fn, sum/backward, the
# requires_grad_() / detach() / no_grad walk-through.
# Differences: our own code and data. grad_fn objects print an address (masked by the harness).
import torch

torch.manual_seed(1)

vec = torch.tensor([1., 2., 3.])
mat = torch.tensor([[1., 2., 3.], [4., 5., 6]])
cube = torch.tensor([[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]])
print(vec)
print(mat)
print(cube)
print(vec[0])
print(vec[0].item())
print(mat[0])
print(cube[0])

print(torch.randn((3, 4, 5)))
print(torch.tensor([1., 2., 3.]) + torch.tensor([4., 5., 6.]))

top = torch.randn(2, 5)
bottom = torch.randn(3, 5)
print(torch.cat([top, bottom]))
left = torch.randn(2, 3)
right = torch.randn(2, 5)
print(torch.cat([left, right], 1))

r = torch.randn(2, 3, 4)
print(r)
print(r.view(2, 12))
print(r.view(2, -1))

a = torch.tensor([1., 2., 3], requires_grad=True)
b = torch.tensor([4., 5., 6], requires_grad=True)
s = a + b
print(s)
print(s.grad_fn)
total = s.sum()
print(total)
print(total.grad_fn)
total.backward()
print(a.grad)

p = torch.randn(2, 2)
q = torch.randn(2, 2)
print(p.requires_grad, q.requires_grad)
print((p + q).grad_fn)
p = p.requires_grad_()
q = q.requires_grad_()
pq = p + q
print(pq.grad_fn)
print(pq.requires_grad)
detached = pq.detach()
print(detached.grad_fn)
print(p.requires_grad)
print((p ** 2).requires_grad)
with torch.no_grad():
    print((p ** 2).requires_grad)
