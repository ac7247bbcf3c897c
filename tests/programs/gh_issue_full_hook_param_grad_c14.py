# Corpus program modelled on two PyTorch issues about when a module's full backward hook runs
# relative to the parameters' .grad: "there is some confusion of when the parameters of module
# have grad, before execute the function register_full_backward_hook or after it"
# https://github.com/pytorch/pytorch/issues/149938
# and "Understanding register_full_backward_hook method"
# https://github.com/pytorch/pytorch/issues/86051
# Changed: a seed; the hooks also print grad_input/grad_output, and a second backward shows
# the hook then sees the first call's accumulated grad. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
batch = 1
in_features = 4
out_features = 8
device = 'cpu'
factory_kwargs = {'device': device, 'dtype': torch.float32}


def hook_fn(module, grad_input, grad_output):
    params = list(module.parameters())
    for param in params:
        print(f"hook grad: {param.grad}")
    print("grad_input:", grad_input)
    print("grad_output:", grad_output)


class Model(torch.nn.Module):
    def __init__(self):
        super(Model, self).__init__()
        self.fc = torch.nn.Linear(in_features, out_features, bias=False, **factory_kwargs)

    def forward(self, x):
        x = self.fc(x)
        return x


model = Model()
handle = model.register_full_backward_hook(hook_fn)

input = torch.randn(batch, in_features, **factory_kwargs)
output = model(input)
output.backward(torch.randn_like(output))

for param in model.parameters():
    print(f"grad: {param.grad}")
handle.remove()


def bp_hook(module, grad_input, grad_output):
    param_grad = list(module.parameters())[0].grad
    print(f'gradient of the module inside bp_hook: {param_grad}')


net = torch.nn.Linear(4, 1, bias=False)
net.register_full_backward_hook(bp_hook)
data = torch.ones(1, 4)
output = net(data)
output.backward()
print(f'gradient of the module outside bp_hook: {list(net.parameters())[0].grad}')
output = net(data * 2)
output.backward()
print(f'gradient of the module outside bp_hook: {list(net.parameters())[0].grad}')
