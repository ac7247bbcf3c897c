# Corpus program modelled on the Stack Overflow question "What does "unsqueeze" do in
# Pytorch?" (https://stackoverflow.com/questions/57237352) and its answers: unsqueeze(dim)
# inserts a size-1 dimension at any position from -ndim-1 to ndim (the answer's 2x2 example
# at dims 0, 1, 2 and -1), the same with None indexing, view/reshape; squeeze removing them
# again (all, or one dim, or a dim that is not 1); the batch dimension added for a single image
# before a Conv2d; unsqueeze_ in place; the dimension-out-of-range error.
# Changed: the image is synthetic; the error is caught and printed. Written for gradsh.
import torch

x = torch.tensor([[1, 2], [3, 4]])
for d in (0, 1, 2, -1, -2, -3):
    y = x.unsqueeze(d)
    print(d, y.shape, y.stride())
print(x.unsqueeze(0))
print(x.unsqueeze(2))
print(torch.equal(x[None], x.unsqueeze(0)), torch.equal(x[:, None], x.unsqueeze(1)),
      torch.equal(x[..., None], x.unsqueeze(-1)))
print(x.view(2, 1, 2).shape, x.reshape(1, 2, 2, 1).squeeze().shape)
try:
    x.unsqueeze(3)
except IndexError as e:
    print("IndexError:", e)
t = torch.zeros(1, 3, 1, 2)
print(t.squeeze().shape, t.squeeze(0).shape, t.squeeze(1).shape, t.squeeze((0, 2)).shape)
v = torch.arange(4.0)
print(v.unsqueeze(0) * v.unsqueeze(1))
print((v[:, None] - v[None, :]).abs())
torch.manual_seed(0)
img = torch.rand(3, 8, 8)
conv = torch.nn.Conv2d(3, 2, 3)
try:
    out = conv(img.unsqueeze(0).unsqueeze(0))
except RuntimeError as e:
    print("RuntimeError:", e)
print(conv(img).shape, conv(img.unsqueeze(0)).shape)
w = torch.ones(3)
w.unsqueeze_(1)
print(w.shape, w.t())
s = torch.tensor(5.0, requires_grad=True)
u = s.unsqueeze(0).unsqueeze(0)
print(u, u.grad_fn, u.grad_fn.next_functions)
(u * 3).sum().backward()
print(s.grad)
