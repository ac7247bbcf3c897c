# Corpus program, written for gradsh (no code copied). Modelled on the docstring examples of
# torch.Tensor.register_hook, torch.Tensor.register_post_accumulate_grad_hook,
# torch.autograd.graph.saved_tensors_hooks and torch.nn.Module.apply, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/_tensor.py
# https://github.com/pytorch/pytorch/blob/main/torch/autograd/graph.py
# https://github.com/pytorch/pytorch/blob/main/torch/nn/modules/module.py
# Like the docs: a gradient-scaling tensor hook and its handle's remove(); a
# post-accumulate-grad hook doing an SGD step in place; pack/unpack hooks that print what is
# saved and unpacked; Module.apply with a @torch.no_grad() init function filling Linear
# weights and printing each module; plus module forward / full backward hooks.
# Differences: our own code and values.
import torch
import torch.nn as nn

v = torch.tensor([1., 1., 1.], requires_grad=True)
handle = v.register_hook(lambda g: g * 3)
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
handle.remove()
v.grad = None
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)

p = torch.tensor([1., 2., 3.], requires_grad=True)
lr = 0.1
h = p.register_post_accumulate_grad_hook(lambda t: t.add_(t.grad, alpha=-lr))
(p * p).sum().backward()
print(p)
h.remove()


def pack(t):
    print("Packing", t)
    return t.detach()


def unpack(t):
    print("Unpacking", t)
    return t


x = torch.ones(4, requires_grad=True)
y = torch.ones(4, requires_grad=True) * 3
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    prod = x * y
prod.sum().backward()
print(x.grad)


@torch.no_grad()
def fill_linear(m):
    print(m)
    if type(m) is nn.Linear:
        m.weight.fill_(0.5)
        m.bias.zero_()
        print(m.weight)


net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(net.apply(fill_linear))


def show_forward(module, inputs, output):
    print("forward", type(module).__name__, tuple(inputs[0].shape), tuple(output.shape))


def show_backward(module, grad_input, grad_output):
    print("backward", type(module).__name__, grad_output[0])


hs = [net[0].register_forward_hook(show_forward), net[2].register_full_backward_hook(show_backward)]
out = net(torch.tensor([[1., 2.]]))
out.sum().backward()
print(net[0].weight.grad)
for hd in hs:
    hd.remove()
net(torch.tensor([[1., 2.]]))
