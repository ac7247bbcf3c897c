# Corpus program, written for gradsh (no code copied). Modelled on Ayoosh Kathuria's
# "Debugging and Visualisation in PyTorch using Hooks" (Paperspace blog, 2019):
# https://blog.paperspace.com/pytorch-hooks-gradient-clipping-debugging/
# Like the post: a small network (Conv2d -> ReLU -> Flatten -> Linear) whose modules get
# forward hooks printing input/output shapes, and (deprecated) register_backward_hook hooks
# printing the grad_input / grad_output tuples they receive -- None entries included -- and
# the names of the modules; a tensor hook on an intermediate result (register_hook) that
# prints and modifies the gradient (doubling it); a backward hook that returns a modified
# grad_input (clipping), its effect on the weight gradients; hooks removed through their
# handles.
# Differences: a seed and tiny shapes; the deprecation warnings go to stderr (not
# compared); the full-hook variant (register_full_backward_hook) added for comparison.
import torch
import torch.nn as nn

torch.manual_seed(0)


class myNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.relu = nn.ReLU()
        self.flatten = lambda x: x.view(-1)
        self.fc1 = nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        x = self.relu(self.conv(x))
        x.register_hook(lambda grad: print("relu output grad sum", grad.sum().item()) or grad * 2)
        return self.fc1(self.flatten(x))


net = myNet()


def hook_fn(m, i, o):
    print(m)
    print("------------Input Grad------------")
    for grad in i:
        try:
            print(grad.shape)
        except AttributeError:
            print("None found for Gradient")
    print("------------Output Grad------------")
    for grad in o:
        try:
            print(grad.shape)
        except AttributeError:
            print("None found for Gradient")
    print("\n")


def fwd_hook(m, i, o):
    print("forward", type(m).__name__, [t.shape for t in i], o.shape)


handles = [net.conv.register_backward_hook(hook_fn), net.fc1.register_backward_hook(hook_fn),
           net.conv.register_forward_hook(fwd_hook), net.fc1.register_forward_hook(fwd_hook)]
inp = torch.randn(1, 3, 6, 6)
out = net(inp)
(1 - out.mean()).backward()
print(net.conv.weight.grad.abs().sum(), net.fc1.bias.grad)

for h in handles:
    h.remove()
net.zero_grad()


def clip_hook(m, grad_input, grad_output):
    return tuple(None if g is None else g.clamp(-0.01, 0.01) for g in grad_input)


h = net.fc1.register_backward_hook(clip_hook)
out = net(inp)
(1 - out.mean()).backward()
print("clipped", net.fc1.bias.grad, net.fc1.weight.grad.abs().max())
h.remove()
net.zero_grad()

try:
    net.fc1.register_full_backward_hook(hook_fn)
except RuntimeError as e:
    print("RuntimeError:", e)
net2 = myNet()
net2.load_state_dict(net.state_dict())
h = net2.fc1.register_full_backward_hook(hook_fn)
out = net2(inp)
(1 - out.mean()).backward()
print(net2.fc1.weight.grad.abs().sum())
h.remove()
print(net.fc1._backward_hooks, net.conv._forward_hooks, net2.fc1._backward_hooks)
