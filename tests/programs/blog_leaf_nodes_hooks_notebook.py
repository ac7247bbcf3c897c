# Corpus program, written for gradsh (no code copied). Modelled on the notebook of
# https://github.com/baihuaxie/dl-initial ("leaf nodes & intermediate nodes", "autograd on a
# tensor", "autograd on the output tensor of a layer", "PyTorch hooks"): two scalar leaves and
# their product (whose .grad is None, with torch's warning), y.backward(y) for a non-scalar
# output, out.backward(out) through an nn.Linear, then tensor hooks and module forward hooks
# with their handles removed.
# Differences: our own code; seeded; the hook examples are our own small ones.
import torch
import torch.nn as nn

torch.manual_seed(0)

a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = a * b
c.backward()
print(c.grad)
print(a.grad)
print(b.grad)
print(a.is_leaf, b.is_leaf, c.is_leaf)

x1 = torch.randn((2, 4), requires_grad=True)
x2 = torch.randn((2, 4), requires_grad=True)
y = x1 + x2
y.backward(y)
print(x1.grad)
print(torch.equal(x1.grad, x2.grad))

model = nn.Sequential(nn.Linear(10, 20))
x = torch.randn((2, 10), requires_grad=True)
out = model(x)
out.backward(out)
print(x.grad.shape)
print(out.grad)
print(out.grad_fn)

# tensor hooks: a hook on an intermediate node sees and may replace its gradient
seen = []
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = a * 2
handle = h.register_hook(lambda g: seen.append(g.clone()))
h2 = h.register_hook(lambda g: g * 10)
(h ** 2).sum().backward()
print(seen)
print(a.grad)
handle.remove()
h2.remove()

# module hooks: forward pre-hook, forward hook, full backward hook
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
log = []


def pre_hook(module, inputs):
    log.append(("pre", type(module).__name__, tuple(inputs[0].shape)))


def fwd_hook(module, inputs, output):
    log.append(("fwd", type(module).__name__, tuple(output.shape)))


def bwd_hook(module, grad_input, grad_output):
    log.append(("bwd", type(module).__name__, tuple(grad_output[0].shape)))


handles = [net[0].register_forward_pre_hook(pre_hook), net[0].register_forward_hook(fwd_hook),
           net[2].register_forward_hook(fwd_hook), net[2].register_full_backward_hook(bwd_hook)]
net(torch.randn(5, 3)).sum().backward()
for entry in log:
    print(entry)
for hd in handles:
    hd.remove()
log.clear()
net(torch.randn(5, 3)).sum().backward()
print(log)
