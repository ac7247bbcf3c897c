# Corpus program, written for gradsh (no code copied). Modelled on TingsongYu's Chinese book
# "PyTorch实用教程（第二版）", chapter 6 section 4 (hook函数) companion notebook, as mirrored in
# https://github.com/huaiyuechusan/pytorch-tutorial-2nd (code/chapter-6/04_hook_func.ipynb and
# code/chapter-4/05_hook.ipynb): Tensor.register_hook collecting a non-leaf's gradient (and
# the None .grad of non-leaves), a hook doubling w's gradient in place, Module forward hooks
# capturing conv1's feature maps and inputs on a ones image with kernels filled with 1 and 2,
# and the book's other Module hooks (forward_pre_hook, full_backward_hook) printing what they
# receive.
# Differences: the notebook's `net.conv1.weight[0].fill_(1)` (no output shown: it raises) is
# run, its error caught and printed, then done under torch.no_grad(); the backward-hook part
# prints the output tensor and its grad_fn as a learner inspecting the hooked module would;
# seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)
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


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.pool1 = nn.MaxPool2d(2, 2)

    def forward(self, x):
        x = self.conv1(x)
        x = self.pool1(x)
        return x


def farward_hook(module, data_input, data_output):
    fmap_block.append(data_output)
    input_block.append(data_input)


net = Net()
try:
    net.conv1.weight[0].fill_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    net.conv1.weight[0].fill_(1)
    net.conv1.weight[1].fill_(2)
net.conv1.bias.data.zero_()
fmap_block = list()
input_block = list()
net.conv1.register_forward_hook(farward_hook)
fake_img = torch.ones((1, 1, 4, 4))
output = net(fake_img)
print("output shape: {}\noutput value: {}\n".format(output.shape, output))
print("feature maps shape: {}\noutput value: {}\n".format(fmap_block[0].shape, fmap_block[0]))
print("input shape: {}\ninput value: {}".format(input_block[0][0].shape, input_block[0]))


def forward_pre_hook(module, data_input):
    print("forward_pre_hook input:{}".format(data_input[0].shape))


def backward_hook(module, grad_input, grad_output):
    print("backward hook input:{}".format([None if g is None else g.shape for g in grad_input]))
    print("backward hook output:{}".format(grad_output))


net = Net()
with torch.no_grad():
    net.conv1.weight[0].fill_(1)
    net.conv1.weight[1].fill_(2)
    net.conv1.bias.zero_()
h1 = net.conv1.register_forward_pre_hook(forward_pre_hook)
h2 = net.conv1.register_full_backward_hook(backward_hook)
fake_img = torch.ones((1, 1, 4, 4), requires_grad=True)
output = net(fake_img)
print(output)
print(net.conv1(fake_img).grad_fn)
loss_fnc = nn.L1Loss()
target = torch.randn_like(output)
loss = loss_fnc(target, output)
loss.backward()
print(fake_img.grad)
print(net.conv1.weight.grad[0])
h1.remove()
h2.remove()
output = net(fake_img)
print(output.grad_fn)
