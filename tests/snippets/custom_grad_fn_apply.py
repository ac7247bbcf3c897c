"""The Chinese pytorch-book (chapter 3, autograd): a notebook shows torch.set_grad_enabled(True),
and calls a custom Function's backward through z.grad_fn.apply(grad)."""
import torch

torch.manual_seed(0)
print(repr(torch.set_grad_enabled(True)), repr(torch.set_grad_enabled(False)))
torch.set_grad_enabled(True)


class MultiplyAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        return w * x + b

    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        return grad_output * x, grad_output * w, grad_output * 1


x = torch.ones(1)
w = torch.rand(1, requires_grad=True)
b = torch.rand(1, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
print(z.grad_fn)
print(z.grad_fn.apply(torch.ones(1)))
with torch.no_grad():
    print(z.grad_fn.apply(torch.full((1,), 2.0)))
z.backward()
print(x.grad, w.grad, b.grad)
