# Corpus program modelled on the PyTorch issues about torch.ldexp's gradients: "torch.ldexp
# backward returns zero gradient w.r.t. mantissa for negative integer exponents"
# (https://github.com/pytorch/pytorch/issues/187460, its repro and its table of e = -1, -2,
# -3, 0, 2), "torch.ldexp drops the derivative contribution of a negative exponent"
# (https://github.com/pytorch/pytorch/issues/196680, t = 0.7 stacked with t**2), and the
# torch reference lines of "[Bug Report] invalid ldexp backward result"
# (https://github.com/tenstorrent/tt-metal/issues/6533: input.grad and other.grad for a float
# exponent that requires grad).
# Changed: the table is printed by a loop; torch.func.grad is replaced by autograd.grad; a
# float32 float-exponent case with create_graph is added. Written for gradsh.
import torch

m = torch.tensor([0.5], requires_grad=True)
e = torch.tensor([-1], dtype=torch.int32)
torch.ldexp(m, e).backward()
print(m.grad)

m = torch.tensor([0.5], requires_grad=True)
torch.ldexp(m, torch.tensor([-1.0])).backward()
print(m.grad)

for ev in (-1, -2, -3, 0, 2):
    m = torch.ones(1, requires_grad=True)
    e = torch.tensor([ev], dtype=torch.int32)
    out = torch.ldexp(m, e)
    out.backward()
    print(ev, out.item(), m.grad.item(), 2.0 ** ev)

dtype = torch.float64
t = torch.tensor(0.7, dtype=dtype, requires_grad=True)
x = torch.stack((t, t * t))
e = torch.tensor([1, -2], dtype=torch.int32, device=t.device)
y = torch.ldexp(x, e).sum()
actual, = torch.autograd.grad(y, t)
print("forward:", y)
print("actual:")
print(actual)

input = torch.tensor([1.], device='cpu', requires_grad=True)
other = torch.tensor([0.], device='cpu', requires_grad=True)
output = torch.ldexp(input, other)
output.backward(torch.ones_like(output))
print(input.grad)
print(other.grad)

torch.manual_seed(0)
a = torch.randn(5, requires_grad=True)
b = torch.randn(5, requires_grad=True)
out = torch.ldexp(a, b)
print(out, out.grad_fn)
ga, gb = torch.autograd.grad(out.sum(), (a, b), create_graph=True)
print(ga, gb)
print(torch.autograd.grad((ga * gb).sum(), (a, b)))
