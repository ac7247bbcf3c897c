# Found by corpus10 (ConvNeXt's layer scale: gamma * x on (N, H, W, C), then permuted back to
# (N, C, H, W)): the incoming gradient is a permuted view, PyTorch's grad * other takes the
# gradient's layout, and the sum down to gamma's shape walks it in that order.
import torch

torch.manual_seed(0)
N, H, W, C = 4, 8, 8, 8
gamma = torch.randn(C, requires_grad=True)
beta = torch.randn(1, 1, W, 1, requires_grad=True)
x = torch.randn(N, H, W, C, requires_grad=True)
g = torch.randn(N, C, H, W)
y = (gamma * x * beta).permute(0, 3, 1, 2)
y.backward(g)
print(gamma.grad.tolist())
print(beta.grad.flatten().tolist())
print(x.grad.stride(), x.grad[0, 0, 0].tolist())
a = torch.randn(16, 32, requires_grad=True)
b = torch.randn(32, requires_grad=True)
(a * b).t().backward(torch.randn(32, 16))
print(b.grad.tolist())
c = torch.randn(1, 24, requires_grad=True)
d = torch.randn(40, 24)
(d * c).t().backward(torch.randn(24, 40))
print(c.grad.tolist())
