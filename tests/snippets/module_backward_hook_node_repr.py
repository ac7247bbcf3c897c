# Found by corpus10: the output of a module with a full backward hook has PyTorch's
# BackwardHookFunctionBackward node, a Python autograd.Function's node, whose repr carries the
# module torch.autograd.function (a C++ node's repr does not).
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
net[2].register_full_backward_hook(lambda m, gi, go: print("hook", [g.shape for g in go]))
x = torch.randn(5, 4, requires_grad=True)
y = net(x)
print(y.grad_fn)
print(y.grad_fn.name(), y.grad_fn.next_functions)
pre = net[0].register_full_backward_pre_hook(lambda m, go: None)
y = net(x)
print(y.grad_fn, y.grad_fn.next_functions[0][0].next_functions)
y.sum().backward()
print(x.grad.shape)
