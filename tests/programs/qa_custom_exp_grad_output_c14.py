# Corpus program modelled on the PyTorch forum thread "Save the gradient of the intermediate
# tensor" (a custom Exp autograd.Function whose backward stores grad_output in a list):
# https://discuss.pytorch.org/t/save-the-gradient-of-the-intermediate-tensor/190094
# Changed: the CUDA cache call is dropped (CPU only); the stored gradients are printed, then a
# second use (a weighted sum, and a tensor hook on the output as the thread's answer suggests)
# shows what the list and the hook receive. Written for gradsh; no data.
import gc

import torch

a = []


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = torch.exp(i)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        a.append(grad_output.detach())
        return grad_output * result


exp = Exp()
x = torch.tensor([3., 4.], requires_grad=True)
y = exp.apply(x)
print(y)
y.sum().backward()
gc.collect()
print(a)
print(x.grad)

# the answer: a hook on the output sees the same gradient without a custom Function
hooked = []
y2 = Exp.apply(x)
h = y2.register_hook(lambda g: hooked.append(g.clone()))
(y2 * torch.tensor([0.5, 2.0])).sum().backward()
print(a[-1], hooked[0])
print(x.grad)
h.remove()
print(type(y2.grad_fn).__name__, y2.grad_fn.next_functions)
