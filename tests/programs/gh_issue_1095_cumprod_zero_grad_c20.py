# Corpus program modelled on pytorch/pytorch PR #1439 ("Implements Cumprod function for
# autograd", https://github.com/pytorch/pytorch/pull/1439, for issue #1095): cumprod's gradient
# is easy through a division by the input but needs special care where the input has zeros;
# the PR's tests compare with finite differences for inputs with one zero, several zeros and a
# zero in the first place, and the same for prod. Changed: float64 inputs with a seed;
# torch.autograd.gradcheck and gradgradcheck stand in for the gist's hand-written checks.
import torch

torch.manual_seed(0)
for vals in ([2., 0., 3., 4.], [0., 2., 3., 4.], [2., 3., 4., 0.], [2., 0., 0., 4.], [1., 2., 3., 4.]):
    x = torch.tensor(vals, dtype=torch.float64, requires_grad=True)
    y = torch.cumprod(x, 0)
    y.sum().backward()
    print(vals, y.detach(), x.grad)
    x2 = torch.tensor(vals, requires_grad=True)
    x2.prod().backward()
    print("prod grad", x2.grad)

x = torch.randn(3, 4, dtype=torch.float64)
x[0, 1] = 0
x[1, 0] = 0
x[1, 3] = 0
x[2, 1] = 0
x[2, 2] = 0
x.requires_grad_()
for dim in (0, 1, -1):
    ok = torch.autograd.gradcheck(lambda t: torch.cumprod(t, dim), (x,))
    ok2 = torch.autograd.gradgradcheck(lambda t: torch.cumprod(t, dim), (x,))
    print("dim", dim, ok, ok2)
print(torch.autograd.gradcheck(lambda t: t.prod(1), (x,)))
print(torch.autograd.gradgradcheck(lambda t: t.prod(), (x,)))
g = torch.randn(3, 4, dtype=torch.float64)
y = torch.cumprod(x, 1)
(gx,) = torch.autograd.grad(y, x, g)
print(gx)
print(y.grad_fn.name())
cs = torch.cumsum(x, 0)
(gs,) = torch.autograd.grad(cs, x, g)
print(gs)
print(torch.cumsum(torch.arange(5), 0), torch.cumprod(torch.arange(1, 6), 0).dtype)
print(torch.cumprod(torch.tensor([1, 2, 3], dtype=torch.int32), 0).dtype)
lcs = torch.logcumsumexp(x.detach().requires_grad_(), 1)
lcs.sum().backward()
print(lcs)
v, i = torch.cummax(x.detach(), 1)
print(v, i)
xf = x.detach().float().requires_grad_()
torch.cummin(xf, 0).values.sum().backward()
print(xf.grad)
