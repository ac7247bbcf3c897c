# Corpus program, written for gradsh (no code copied). Modelled on the CSDN post
# "关于.sava_for_backward的理解" (https://blog.csdn.net/2301_78324921/article/details/136966925)
# and the Jianshu-style note "torch.autograd.Function" (https://greatytc.com/p/c1d0b7a5a4c7).
# Like the posts: a Function whose forward takes two tensors and an int z, saves x, y, an
# intermediate w and the output with ctx.save_for_backward, keeps z on ctx, and whose
# backward is decorated with @once_differentiable and returns None for z; called with float64
# scalars requiring grad; and the note's Exp (saving its result) and MulConstant (a
# non-tensor constant whose gradient is None) examples.
# Differences: the post's undefined c is 3; the gradients are printed and checked with
# torch.autograd.gradcheck; a double backward through the once_differentiable Function is
# attempted and its error printed; ctx.needs_input_grad, the output's grad_fn name and
# saved_tensors after backward (freed: an error) are printed too.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Func(Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z
        print('needs_input_grad', ctx.needs_input_grad)
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        gx = grad_out * (y + y * z)
        gy = grad_out * (x + z + w)
        gz = None
        return gx, gy, gz


a = torch.tensor(1., requires_grad=True, dtype=torch.double)
b = torch.tensor(2., requires_grad=True, dtype=torch.double)
c = 3
d = Func.apply(a, b, c)
print(d)
print(type(d.grad_fn).__name__)
d.backward()
print(a.grad, b.grad)
try:
    d.grad_fn.saved_tensors
except RuntimeError as err:
    print('RuntimeError:', str(err).split('.')[0])

d = Func.apply(a, b, c)
ga, = torch.autograd.grad(d, a, create_graph=True)
print(ga, ga.requires_grad, type(ga.grad_fn).__name__ if ga.grad_fn else None)
try:
    ga.backward()
except RuntimeError as err:
    print('RuntimeError:', err)

print(torch.autograd.gradcheck(lambda p, q: Func.apply(p, q, c),
                               (torch.randn(4, dtype=torch.double, requires_grad=True),
                                torch.randn(4, dtype=torch.double, requires_grad=True))))


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = Exp.apply(x)
print(y)
y.sum().backward()
print(x.grad, torch.allclose(x.grad, x.exp()))
x.grad = None
z = MulConstant.apply(Exp.apply(x), 2.5)
print(z, type(z.grad_fn).__name__)
z.backward(torch.tensor([1., 0., -1.]))
print(x.grad)
# double backward through Exp (not once_differentiable) works
x.grad = None
g, = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
g.sum().backward()
print(g, x.grad)
print(torch.autograd.gradgradcheck(Exp.apply, (torch.randn(3, dtype=torch.double, requires_grad=True),)))
