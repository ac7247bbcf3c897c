# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial
# "PyTorch: Defining new autograd functions" (MyReLU), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_autograd/two_layer_net_custom_function.py
# Like the original: a ReLU written as a torch.autograd.Function (forward clamp(min=0),
# backward clone() and masked assignment grad[input < 0] = 0) in the two-layer net, the loss
# printed at every one of the 500 steps. Differences: our own code; seeded.
import torch

torch.manual_seed(0)


class ClampReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_backward(inp)
        return inp.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (inp,) = ctx.saved_tensors
        grad = grad_output.clone()
        grad[inp < 0] = 0
        return grad


x = torch.randn(64, 1000)
y = torch.randn(64, 10)
w1 = torch.randn(1000, 100, requires_grad=True)
w2 = torch.randn(100, 10, requires_grad=True)

relu = ClampReLU.apply
for t in range(500):
    y_pred = relu(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        for w in (w1, w2):
            w -= 1e-6 * w.grad
            w.grad.zero_()
