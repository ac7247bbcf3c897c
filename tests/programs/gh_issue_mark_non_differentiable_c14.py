# Corpus program modelled on PyTorch issues about a custom Function's non-differentiable
# outputs: the eager test behind "[Dynamo][autograd.Function] Support mark_non_differentiable"
# (a float output marked non-differentiable does not require grad)
# https://github.com/pytorch/pytorch/pull/134087 ; "Warn the user when creating custom Function
# with differentiable Integer output" (integer outputs never require grad)
# https://github.com/pytorch/pytorch/issues/38148 ; and "Give non-differentiable output None
# grad in Python autograd fn" (backward still gets a materialized zero gradient for them)
# https://github.com/pytorch/pytorch/issues/12631
# Changed: one program for the three; a Function that returns one of its inputs as is, marked
# non-differentiable, is added; a seed. Written for gradsh.
import torch


class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        output = x.sin()
        ctx.mark_non_differentiable(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        return (grad_output * 0).to(torch.double)


class ArgMax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, idx = x.max(dim=1)
        ctx.save_for_backward(x, idx)
        return values, idx

    @staticmethod
    def backward(ctx, grad_values, grad_idx):
        x, idx = ctx.saved_tensors
        print("grad for idx:", grad_idx)
        grad = torch.zeros_like(x)
        grad.scatter_(1, idx.unsqueeze(1), grad_values.unsqueeze(1))
        return grad


class WithMask(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, mask):
        ctx.mark_non_differentiable(mask)
        return x * mask, mask

    @staticmethod
    def backward(ctx, grad_out, grad_mask):
        print("grad for mask:", grad_mask)
        return grad_out, None


torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
mask = MyFunction.apply(x)
print(mask.requires_grad, mask.grad_fn, mask.is_leaf)

values, idx = ArgMax.apply(x)
print(values.requires_grad, idx.requires_grad, idx.dtype, values.grad_fn)
values.sum().backward()
print(x.grad)

m = (torch.rand(3, 4) > 0.5).float()
out, m_out = WithMask.apply(x, m)
print(out.requires_grad, m_out.requires_grad, m_out.grad_fn, m_out._base is m)
m_out.mul_(2)
print(m)
x.grad = None
(out * out).sum().backward()
print(x.grad)
try:
    m_out.sum().backward()
except RuntimeError as e:
    print(e)
