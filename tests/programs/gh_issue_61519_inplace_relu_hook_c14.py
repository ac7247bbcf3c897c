# Corpus program modelled on the PyTorch issue "Inplace ReLU incompatible with backward hook"
# (a Sequential ending in nn.ReLU(inplace=True) with a full backward hook raises in the
# forward) and the maintainer's workaround (a tensor hook registered from a forward hook):
# https://github.com/pytorch/pytorch/issues/61519
# Changed: a seed and a small input; the error is caught and printed; the workaround prints
# gradient sizes and a checksum. Written for gradsh.
import torch
from torch import nn

torch.manual_seed(0)
mod = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1),
                    nn.ReLU(inplace=True))


def hook_g(m, grad_input, grad_output):
    print(type(m).__name__, [g.shape for g in grad_output])


h = mod.register_full_backward_hook(hook_g)
inp = torch.rand((1, 3, 6, 6))
try:
    out = mod(inp)
    print(out.shape)
except RuntimeError as e:
    print(e)
h.remove()

h = mod[3].register_full_backward_hook(hook_g)
try:
    out = mod(inp)
except RuntimeError as e:
    print(e)
h.remove()


# This one will be called during the backward
def tensor_hook(grad):
    print(grad.size(), round(grad.sum().item(), 4))


# This one will be called during the forward
def fw_hook(mod, input, output):
    output.register_hook(tensor_hook)


handle = mod[2].register_forward_hook(fw_hook)
out = mod(inp)
print(out.grad_fn)
(out * out).sum().backward()
print(mod[0].weight.grad.shape, round(mod[0].weight.grad.abs().sum().item(), 3))
handle.remove()
