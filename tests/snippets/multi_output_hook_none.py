# Tensor hooks on an output of a multi-output node (a custom Function's) that the backward does
# not reach run with None, as PyTorch's (issue #11751); returning a tensor there is an error.
import torch
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print("backward", g1, g2)
        return g1 * 2 + g2 * 3
x = torch.ones(2, requires_grad=True)
a, b = Two.apply(x)
a.register_hook(lambda g: print("hook a", g))
b.register_hook(lambda g: print("hook b", g))
b.sum().backward()
print(x.grad)
a, b = Two.apply(x)
a.register_hook(lambda g: torch.ones(2))
try:
    b.sum().backward()
except RuntimeError as e:
    print(e)
