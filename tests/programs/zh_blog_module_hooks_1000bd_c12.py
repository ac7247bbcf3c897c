# Corpus program, written for gradsh (no code copied). Modelled on the Chinese article on
# PyTorch's four module hooks (https://1000bd.com/Article/Index/1358693):
# register_forward_hook (with prepend and with_kwargs, returning a modified output),
# register_forward_pre_hook (returning modified args), register_full_backward_hook (returning
# a modified grad_input) and register_full_backward_pre_hook, each returning a handle removed
# with handle.remove(); and on the tensor-hook notes of HuangXinzhe/pytorch_note and
# Mrytn/l-PyTorch-Tutorial-2nd (https://github.com/HuangXinzhe/pytorch_note): a.register_hook
# collecting a non-leaf gradient into a list (a.grad stays None), and a hook on the leaf w
# doing grad *= 2 in place (w.grad doubles).
# Differences: a small Linear -> ReLU -> Linear model with a manual seed; each hook prints
# what it receives (shapes, gradients) instead of just storing it; the order of hooks
# registered with prepend=True is shown.
import torch
import torch.nn as nn

torch.manual_seed(5)

w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
a_grad = list()


def grad_hook(grad):
    a_grad.append(grad)


handle = a.register_hook(grad_hook)
y.backward()
print("gradient:", w.grad, x.grad, a.grad, b.grad, y.grad)
print("a_grad[0]: ", a_grad[0])
handle.remove()

w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)


def grad_hook2(grad):
    grad *= 2


handle = w.register_hook(grad_hook2)
y.backward()
print("w.grad: ", w.grad)
handle.remove()

w.grad = None
y = torch.mul(torch.add(w, x), torch.add(w, 1))
h3 = w.register_hook(lambda grad: grad * 3)
y.backward()
print("w.grad (hook returns grad*3): ", w.grad)
h3.remove()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(3, 2)

    def forward(self, x, scale=1.0):
        return self.fc2(self.act(self.fc1(x))) * scale


net = Net()
inp = torch.randn(2, 4, requires_grad=True)


def fwd_hook(module, args, output):
    print('forward_hook', type(module).__name__, [tuple(a.shape) for a in args], output)


def fwd_hook_first(module, args, output):
    print('forward_hook (prepend)', type(module).__name__)


def fwd_hook_kwargs(module, args, kwargs, output):
    print('forward_hook with_kwargs', sorted(kwargs), output.shape)
    return output + 100


def pre_hook(module, args):
    print('forward_pre_hook', type(module).__name__, args[0].shape)
    return (args[0] * 0 + 1,)


def bwd_hook(module, grad_input, grad_output):
    print('full_backward_hook', type(module).__name__)
    print('  grad_input', grad_input)
    print('  grad_output', grad_output)
    return tuple(g * 10 if g is not None else None for g in grad_input)


def bwd_pre_hook(module, grad_output):
    print('full_backward_pre_hook', type(module).__name__, grad_output)


handles = [
    net.fc1.register_forward_hook(fwd_hook),
    net.fc1.register_forward_hook(fwd_hook_first, prepend=True),
    net.register_forward_hook(fwd_hook_kwargs, with_kwargs=True),
    net.fc2.register_forward_pre_hook(pre_hook),
    net.fc2.register_full_backward_hook(bwd_hook),
    net.fc2.register_full_backward_pre_hook(bwd_pre_hook),
]
out = net(inp, scale=2.0)
print(out)
out.sum().backward()
print(inp.grad)
print(net.fc1.weight.grad)
print(net.fc2.weight.grad)
for h in handles:
    h.remove()
print(len(net.fc1._forward_hooks), len(net._forward_hooks), len(net.fc2._backward_hooks))
inp.grad = None
net.zero_grad()
out = net(inp)
out.sum().backward()
print(out)
print(inp.grad)

fmap_block, input_block = [], []


def farward_hook(module, data_input, data_output):
    fmap_block.append(data_output)
    input_block.append(data_input)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.pool1 = nn.MaxPool2d(2, 2)

    def forward(self, x):
        return self.pool1(self.conv1(x))


cnet = ConvNet()
cnet.conv1.weight[0].detach().fill_(1)
cnet.conv1.weight[1].detach().fill_(2)
cnet.conv1.bias.data.zero_()
cnet.conv1.register_forward_hook(farward_hook)
fake_img = torch.ones((1, 1, 4, 4))
output = cnet(fake_img)
print("output shape: {}\noutput value: {}\n".format(output.shape, output))
print("feature maps shape: {}\noutput value: {}\n".format(fmap_block[0].shape, fmap_block[0]))
print("input shape: {}\ninput value: {}".format(input_block[0][0].shape, input_block[0]))
try:
    cnet.conv1.register_forward_hook(lambda m, i, o: None, bogus=True)
except TypeError as err:
    print('TypeError:', err)
