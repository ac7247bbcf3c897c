# Corpus program modelled on the PyTorch issue "No-op full backward hooks modify the input" (an
# identity module returns its input object unchanged with a legacy backward hook, but a new
# object, a view, once a full backward hook is registered and the input requires grad):
# https://github.com/pytorch/pytorch/issues/61446
# Changed: the asserts become printed booleans; the deprecated hook's warning goes to
# stderr; the gradient through the identity is printed. Written for gradsh.
import torch
from torch import nn

input_without_grad = torch.rand(())
input_with_grad = input_without_grad.clone().requires_grad_(True)


class ModuleWithBackwardHook(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_backward_hook(lambda *args: None)

    def forward(self, input):
        return input


class ModuleWithFullBackwardHook(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_full_backward_hook(lambda m, gi, go: print("hook:", gi, go))

    def forward(self, input):
        return input


module_with_backward_hook = ModuleWithBackwardHook()
print(module_with_backward_hook(input_without_grad) is input_without_grad)
print(module_with_backward_hook(input_with_grad) is input_with_grad)

module_with_full_backward_hook = ModuleWithFullBackwardHook()
print(module_with_full_backward_hook(input_without_grad) is input_without_grad)
out = module_with_full_backward_hook(input_with_grad)
print(out is input_with_grad, out._base is input_with_grad, out.grad_fn)
print(torch.equal(out, input_with_grad))
(out * 3).backward()
print(input_with_grad.grad)
