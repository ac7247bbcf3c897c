# Corpus program modelled on two GitHub issues where a custom autograd.Function's backward
# returns fewer gradients than forward had inputs: "RuntimeError: function SignBackward
# returned an incorrect number of gradients" (forward(ctx, input, is_training); the fix is
# `return grad_output, None`) https://github.com/1zb/pytorch-image-comp-rnn/issues/4
# and AdderNet's "function adderBackward returned an incorrect number of gradients (expected
# 2, got 1)" (a backward missing its return statement)
# https://github.com/huawei-noah/AdderNet/issues/21
# Changed: the stochastic binarizer is seeded; errors caught and printed; the fixed versions
# run and print gradients. Written for gradsh.
import torch
from torch.autograd import Function


class Sign(Function):
    """Variable Rate Image Compression with Recurrent Neural Networks: stochastic sign."""

    @staticmethod
    def forward(ctx, input, is_training=True):
        # Apply quantization noise while only training
        if is_training:
            prob = input.new(input.size()).uniform_()
            x = input.clone()
            x[(1 - input) / 2 <= prob] = 1
            x[(1 - input) / 2 > prob] = -1
            return x
        else:
            return input.sign()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class SignFixed(Sign):
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None


class Adder(Function):
    @staticmethod
    def forward(ctx, W_col, X_col):
        ctx.save_for_backward(W_col, X_col)
        return -(W_col.unsqueeze(2) - X_col.unsqueeze(0)).abs().sum(1)

    @staticmethod
    def backward(ctx, grad_output):
        W_col, X_col = ctx.saved_tensors
        grad_W_col = ((X_col.unsqueeze(0) - W_col.unsqueeze(2)) * grad_output.unsqueeze(1)).sum(2)
        grad_X_col = (-(X_col.unsqueeze(0) - W_col.unsqueeze(2)).clamp(-1, 1)
                      * grad_output.unsqueeze(1)).sum(0)


class AdderFixed(Adder):
    @staticmethod
    def backward(ctx, grad_output):
        W_col, X_col = ctx.saved_tensors
        grad_W_col = ((X_col.unsqueeze(0) - W_col.unsqueeze(2)) * grad_output.unsqueeze(1)).sum(2)
        grad_W_col = grad_W_col / grad_W_col.norm(p=2).clamp(min=1e-12) * 0.2
        grad_X_col = (-(X_col.unsqueeze(0) - W_col.unsqueeze(2)).clamp(-1, 1)
                      * grad_output.unsqueeze(1)).sum(0)
        return grad_W_col, grad_X_col


torch.manual_seed(0)
x = torch.tanh(torch.randn(2, 4)).requires_grad_()
for fn in (Sign, SignFixed):
    x.grad = None
    y = fn.apply(x, True)
    print(y)
    try:
        (y * torch.arange(4.)).sum().backward()
        print(x.grad)
    except RuntimeError as e:
        print(e)
print(Sign.apply(x, False))

W = torch.randn(3, 5, requires_grad=True)
X = torch.randn(5, 4, requires_grad=True)
for fn in (Adder, AdderFixed):
    out = fn.apply(W, X)
    print(out.grad_fn)
    try:
        out.sum().backward()
        print(W.grad)
        print(X.grad)
    except RuntimeError as e:
        print(e)
