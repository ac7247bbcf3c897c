# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# torch.autograd.Function and its ctx methods save_for_backward, mark_dirty,
# mark_non_differentiable and set_materialize_grads, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/autograd/function.py
# Like the docs: an exp Function saving its result; a Function mixing tensor and non-tensor
# inputs (a value stored on ctx, None returned for it) under @once_differentiable; a sort
# Function marking its indices non-differentiable and scattering the gradient back with
# index_add_; a two-output Function with set_materialize_grads(False) checking for None
# grads (and its variant relying on materialized zeros); an in-place Function writing
# through .numpy() and ctx.mark_dirty, whose later backward raises.
# Differences: our own code and values; every Function is run forward and backward and the
# results printed; the expected error is caught and printed.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        out = x.exp()
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return g * out


x = torch.tensor([0., 0.5, 1.], requires_grad=True)
e = Exp.apply(x)
print(e)
e.sum().backward()
print(x.grad)


class ScaledProduct(Function):
    @staticmethod
    def forward(ctx, a, b, k: int):
        ctx.save_for_backward(a, b)
        ctx.k = k
        return a * b * k

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b * ctx.k, g * a * ctx.k, None


a = torch.tensor(1.5, requires_grad=True, dtype=torch.double)
b = torch.tensor(-2., requires_grad=True, dtype=torch.double)
r = ScaledProduct.apply(a, b, 3)
print(r)
r.backward()
print(a.grad, b.grad)


class SortWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return values, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, g_values, g_idx):
        x, idx = ctx.saved_tensors
        grad = torch.zeros_like(x)
        grad.index_add_(0, idx, g_values)
        return grad


s = torch.tensor([2., 5., 1., 4.], requires_grad=True)
vals, idx = SortWithIndex.apply(s)
print(vals, idx, vals.requires_grad, idx.requires_grad)
(vals * torch.tensor([1., 2., 3., 4.])).sum().backward()
print(s.grad)


class TwoCopies(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        (x,) = ctx.saved_tensors
        grad = torch.zeros_like(x)
        print("g1 is None:", g1 is None, "g2 is None:", g2 is None)
        if g1 is not None:
            grad += g1
        if g2 is not None:
            grad += g2
        return grad


class TwoCopiesMaterialized(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print("materialized g2:", g2)
        return g1 + g2


t = torch.tensor(2., requires_grad=True)
first, _ = TwoCopies.apply(t)
(first * 5).backward()
print(t.grad)
t2 = torch.tensor(2., requires_grad=True)
first, _ = TwoCopiesMaterialized.apply(t2)
(first * 5).backward()
print(t2.grad)


class AddOneInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        arr = x.numpy()
        arr += 1
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        return g


base = torch.tensor(3., requires_grad=True, dtype=torch.double).clone()
sq = base * base
AddOneInPlace.apply(base)
print(base)
try:
    sq.backward()
except RuntimeError as err:
    print("RuntimeError:", err)
