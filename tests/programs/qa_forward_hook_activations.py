# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "How can I extract intermediate layer output from loaded CNN model?"
# (https://discuss.pytorch.org/t/how-can-i-extract-intermediate-layer-output-from-loaded-cnn-model/77301,
# and ptrblck's answer with the activation dict: get_activation(name) returning a hook that
# stores output.detach(), registered with model.fc2.register_forward_hook(...)), and the
# torch.nn.Module docs on forward pre-hooks, forward hooks with kwargs, full backward hooks
# and handle.remove(), BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/nn/modules/module.py
# Differences: our own code and model; what the hooks see is printed; seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)


class MyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.cl1 = nn.Linear(25, 60)
        self.cl2 = nn.Linear(60, 16)
        self.fc1 = nn.Linear(16, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = torch.relu(self.cl1(x))
        x = torch.relu(self.cl2(x))
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return torch.log_softmax(self.fc3(x), dim=1)


activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach()
    return hook


model = MyModel()
h = model.fc2.register_forward_hook(get_activation("fc2"))
x = torch.randn(1, 25)
output = model(x)
print(activation["fc2"].shape, activation["fc2"].requires_grad)
print(activation["fc2"][0, :5])
h.remove()
activation.clear()
model(x)
print(activation)

features = {}
handles = []
for name, module in model.named_modules():
    if isinstance(module, nn.Linear):
        handles.append(module.register_forward_hook(
            lambda m, inp, out, name=name: features.__setitem__(name, (tuple(inp[0].shape), tuple(out.shape)))))
model(torch.randn(3, 25))
print(features)
for handle in handles:
    handle.remove()


def pre_hook(module, args):
    print("pre-hook got", type(args).__name__, len(args), tuple(args[0].shape))
    return (args[0] * 0,)


def fwd_hook(module, args, output):
    print("forward hook sees", output.abs().sum().item() == module.bias.abs().sum().item())
    return output + 1


hp = model.fc3.register_forward_pre_hook(pre_hook)
hf = model.fc3.register_forward_hook(fwd_hook)
out = model.fc3(torch.randn(2, 84))
print(torch.allclose(out, model.fc3.bias + 1))
hp.remove()
hf.remove()


def kw_hook(module, args, kwargs, output):
    print("kwargs:", sorted(kwargs))


class Scale(nn.Module):
    def forward(self, x, factor=1.0):
        return x * factor


s = Scale()
s.register_forward_hook(kw_hook, with_kwargs=True)
print(s(torch.ones(2), factor=3.0))


def bwd_hook(module, grad_input, grad_output):
    print(type(module).__name__, [None if g is None else tuple(g.shape) for g in grad_input],
          [tuple(g.shape) for g in grad_output])


hb = model.fc1.register_full_backward_hook(bwd_hook)
inp = torch.randn(2, 25, requires_grad=True)
model(inp).sum().backward()
hb.remove()
print(inp.grad.shape, len(model._forward_hooks), len(model.fc1._backward_hooks))
