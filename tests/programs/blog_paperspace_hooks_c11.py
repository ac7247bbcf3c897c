# Corpus program, written for gradsh (no code copied). Modelled on Ayoosh Kathuria's
# "PyTorch 101, Part 5: Understanding Hooks" (Paperspace blog):
# https://blog.paperspace.com/pytorch-hooks-gradient-clipping-debugging/
# Like the post: hooks on tensors (register_hook that prints the gradient and one that
# returns a modified gradient, the hook on a non-leaf, retain_grad), hooks on modules
# (register_forward_hook printing the module's input and output shapes, backward hooks
# printing grad_input and grad_output: the post's register_backward_hook on a module whose
# forward is a single op, and register_full_backward_hook), a "myNet" of a Conv2d, ReLU,
# Flatten and Linear with a forward hook registered on every submodule through
# named_modules() storing activations in a dict, hook handles removed with .remove(), a hook
# that zeroes gradients for a kind of "gradient clipping".
# Differences: a seed, a tiny input, shapes and values printed instead of visualised; the
# full backward hook alongside the legacy one; a forward pre-hook that rescales the input.
import torch
import torch.nn as nn

torch.manual_seed(0)

a = torch.ones(5)
a.requires_grad = True
b = 2 * a
b.retain_grad()
c = b.mean()
c.backward()
print(a.grad, b.grad)

a = torch.ones(5, requires_grad=True)
b = 2 * a
b.retain_grad()
b.register_hook(lambda x: print("hook on b sees", x))
c = b.mean()
c.backward()
print(a.grad, b.grad)

a = torch.ones(5, requires_grad=True)
b = 2 * a
b.retain_grad()
handle = b.register_hook(lambda grad: grad * 3)
c = b.mean()
c.backward()
print("modified:", a.grad, b.grad)
handle.remove()
a.grad = None
(2 * a).mean().backward()
print("after remove:", a.grad)

d = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
d.register_hook(lambda grad: grad.clamp(min=-0.5, max=0.5))
(d ** 3).sum().backward()
print("clamped leaf grad:", d.grad)


class myNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 10, 2, stride=2)
        self.relu = nn.ReLU()
        self.flatten = lambda x: x.view(-1)
        self.fc1 = nn.Linear(160, 5)

    def forward(self, x):
        x = self.relu(self.conv(x))
        return self.fc1(self.flatten(x))


net = myNet()


def hook_fn(m, i, o):
    print(m)
    print("------------ Input Grad ------------")
    for grad in i:
        try:
            print(grad.shape)
        except AttributeError:
            print("None found for Gradient")
    print("------------ Output Grad ------------")
    for grad in o:
        try:
            print(grad.shape)
        except AttributeError:
            print("None found for Gradient")
    print("\n")


legacy = net.conv.register_backward_hook(hook_fn)
full = net.fc1.register_full_backward_hook(hook_fn)
inp = torch.randn(1, 3, 8, 8)
out = net(inp)
(1 - out.mean()).backward()
legacy.remove()
full.remove()

visualisation = {}


def forward_hook(m, i, o):
    visualisation[m] = o


handles = []
for name, layer in net.named_modules():
    if name:
        handles.append(layer.register_forward_hook(forward_hook))
out = net(inp)
for layer, act in visualisation.items():
    print(type(layer).__name__, tuple(act.shape), act.grad_fn.name(), round(act.abs().sum().item(), 4))
for h in handles:
    h.remove()
print(len(net._forward_hooks), len(net.conv._forward_hooks))

pre = net.register_forward_pre_hook(lambda m, args: (args[0] * 0.5,))
print(torch.allclose(net(inp), net.fc1(net.relu(net.conv(inp * 0.5)).view(-1))))
pre.remove()


def zero_negative_grads(module, grad_input, grad_output):
    return tuple(None if g is None else g.clamp(min=0) for g in grad_input)


net.zero_grad()
h = net.relu.register_full_backward_hook(zero_negative_grads)
out = net(inp)
out.sum().backward()
print("conv weight grad min >= 0 after the hook?", net.conv.weight.grad.min().item() >= 0,
      net.conv.bias.grad)
h.remove()
