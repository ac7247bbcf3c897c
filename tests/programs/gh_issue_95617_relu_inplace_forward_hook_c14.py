# Corpus program modelled on the PyTorch issue "forward_hook doesn't work with
# nn.ReLU(inplace=True)" (the forward hook's input is already ReLUed, since the hook runs after
# forward; a pre-hook sees the original):
# https://github.com/pytorch/pytorch/issues/95617
# Changed: the same with inplace=False next to it; a pre-hook that returns a replaced input,
# and a forward hook that returns a replaced output. Written for gradsh.
import torch
import torch.nn as nn

for inplace in (True, False):
    x = torch.tensor([1.23, -4.56])
    m = nn.ReLU(inplace=inplace)

    def my_hook(m, input, output):
        print('hook', m, input, output)

    def my_pre_hook(m, input):
        print('pre hood', m, input)

    m.register_forward_pre_hook(my_pre_hook)
    m.register_forward_hook(my_hook)

    print(m(x))
    print(x)

lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.fill_(0.5)
    lin.bias.zero_()
h1 = lin.register_forward_pre_hook(lambda m, inp: (inp[0] * 10,))
h2 = lin.register_forward_hook(lambda m, inp, out: out + 1)
print(lin(torch.tensor([[1.0, 2.0]])))
h1.remove()
print(lin(torch.tensor([[1.0, 2.0]])))
h2.remove()
print(lin(torch.tensor([[1.0, 2.0]])))
print(lin._forward_hooks, lin._forward_pre_hooks)
