# Corpus program, written for gradsh (no code copied). Modelled on Alfredo Canziani's NYU
# Deep Learning course (DS-GA 1008, Spring 2020), extra notebook "b-custom_grads":
# https://github.com/Atcold/NYU-DLSP20/blob/master/extra/b-custom_grads.ipynb
# Like the notebook: four torch.autograd.Function subclasses used through .apply -- MyAdd
# (gradient passed through to both inputs), AddAndAverage (saves both inputs, returns the
# mean, backward spreads grad_output / numel), MySplit (two outputs, backward prints both
# incoming grads and sums them) and MyMax (forward through numpy's max, the argmax mask
# saved, a new tensor returned); each prints its inputs, the result with its grad_fn, and
# the leaves' grads after backward.
# Differences: a seed; the grad_fn reprs' object addresses are masked by the corpus runner.
import torch
import numpy

torch.manual_seed(0)


class MyAdd(torch.autograd.Function):

    @staticmethod
    def forward(ctx, x1, x2):
        return x1 + x2

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output


x1 = torch.randn((3), requires_grad=True)
x2 = torch.randn((3), requires_grad=True)
print(f'x1: {x1}')
print(f'x2: {x2}')
my_add = MyAdd.apply
y = my_add(x1, x2)
z = y.mean()
print(f' z: {z}, z.grad_fn: {z.grad_fn}')
z.backward()
print(f'x1.grad: {x1.grad}')
print(f'x2.grad: {x2.grad}')


class AddAndAverage(torch.autograd.Function):

    @staticmethod
    def forward(ctx, x1, x2):
        ctx.save_for_backward(x1, x2)
        return (x1 + x2).mean()

    @staticmethod
    def backward(ctx, grad_output):
        x1, x2 = ctx.saved_tensors
        grad_x1 = grad_output * torch.ones_like(x1) / x1.numel()
        grad_x2 = grad_output * torch.ones_like(x2) / x2.numel()
        return grad_x1, grad_x2


x1 = torch.randn((3), requires_grad=True)
x2 = torch.randn((3), requires_grad=True)
print(f'x1: {x1}')
print(f'x2: {x2}')
add_and_average = AddAndAverage.apply
z = add_and_average(x1, x2)
print(f' z: {z}, z.grad_fn: {z.grad_fn}')
z.backward()
print(f'x1.grad: {x1.grad}')
print(f'x2.grad: {x2.grad}')


class MySplit(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        x1 = x.clone()
        x2 = x.clone()
        return x1, x2

    @staticmethod
    def backward(ctx, grad_x1, grad_x2):
        x = ctx.saved_tensors[0]
        print(f'grad_x1: {grad_x1}')
        print(f'grad_x2: {grad_x2}')
        return grad_x1 + grad_x2


x = torch.randn((4), requires_grad=True)
print(f' x: {x}')
split = MySplit.apply
x1, x2 = split(x)
print(f'x1: {x1}')
print(f'x2: {x2}')
y = 1 * x1 + 2 * x2
print(f' y: {y}')
z = y.mean()
print(f' z: {z}, z.grad_fn: {z.grad_fn}')
z.backward()
print(f' x.grad: {x.grad}')


class MyMax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        maximum = x.detach().numpy().max()
        argmax = x.detach().eq(maximum).float()
        ctx.save_for_backward(argmax)
        return torch.tensor(maximum)

    @staticmethod
    def backward(ctx, grad_output):
        argmax = ctx.saved_tensors[0]
        return grad_output * argmax


x = torch.randn((5), requires_grad=True)
print(f'x: {x}')
mymax = MyMax.apply
y = mymax(x)
print(f'y: {y}, y.grad_fn: {y.grad_fn}')
y.backward()
print(f'x.grad: {x.grad}')
