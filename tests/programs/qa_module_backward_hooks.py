# Corpus program, written for gradsh (no code copied). Modelled on pytorch/pytorch issue
# #16276 "A registered backward hook of nn.Linear has unexpected order/existence of gradient
# Tensors" (printing the sizes a register_backward_hook sees on Linear, Conv2d, BatchNorm2d
# and ReLU): https://github.com/pytorch/pytorch/issues/16276 , issue #100528 (the order of
# global full backward pre-hooks and hooks over nested Sequentials, with and without an input
# that requires grad): https://github.com/pytorch/pytorch/issues/100528 , and the docstring
# example of torch.autograd.graph.register_multi_grad_hook.
# Differences: a small CNN of our own, one SGD step per case; the deprecated hook's
# FutureWarning goes to stderr (not compared); seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)


def sizes(grads):
    return [None if g is None else tuple(g.shape) for g in grads]


def legacy_hook(module, grad_input, grad_output, name=None):
    print(name, type(module).__name__, "in:", sizes(grad_input), "out:", sizes(grad_output))


def full_hook(module, grad_input, grad_output, name=None):
    print(name, "full", "in:", sizes(grad_input), "out:", sizes(grad_output))


model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(),
                      nn.Linear(8, 3))
handles = []
for name, m in model.named_modules():
    if isinstance(m, (nn.Linear, nn.Conv2d, nn.BatchNorm2d, nn.ReLU)):
        handles.append(m.register_backward_hook(
            lambda mod, gi, go, name=name: legacy_hook(mod, gi, go, name)))
x = torch.randn(2, 1, 4, 4)
model(x).sum().backward()
for h in handles:
    h.remove()
try:  # the module remembers its legacy hooks even once they are removed
    model[4].register_full_backward_hook(full_hook)
except RuntimeError as e:
    print(e)
model = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8, 3))
for name, m in model.named_modules():
    if isinstance(m, (nn.Linear, nn.Conv2d)):
        m.register_full_backward_hook(lambda mod, gi, go, name=name: full_hook(mod, gi, go, name))
model(x.requires_grad_()).sum().backward()

net = nn.Sequential(nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 1)),
                    nn.Sequential(nn.Linear(1, 20), nn.ReLU(), nn.Linear(20, 1)))
h1 = nn.modules.module.register_module_full_backward_pre_hook(
    lambda m, go: print("Push:", type(m).__name__))
h2 = nn.modules.module.register_module_full_backward_hook(
    lambda m, gi, go: print("Pop:", type(m).__name__))
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
for requires_grad in (True, False):
    print(f"--- train_data.requires_grad = {requires_grad} ---")
    data = torch.randn(4, 10, requires_grad=requires_grad)
    optimizer.zero_grad()
    nn.MSELoss()(net(data), torch.randn(4, 1)).backward()
    optimizer.step()
h1.remove()
h2.remove()

a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b
handle = torch.autograd.graph.register_multi_grad_hook(
    (a, b, c, d), lambda grads: print([g is not None for g in grads]))
c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
(c + d).sum().backward()
handle.remove()
print(a.grad)
