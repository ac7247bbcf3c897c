# register_full_backward_hook on a module with several tensor inputs (attention's q, k, v and a
# bool mask, with k and v the same tensor, as an encoder-decoder layer calls it): the hook gets
# every input's gradient at once, the mask's as False zeros, and each of the shared tensor's
# two places its own.
import torch


class Mix(torch.nn.Module):
    def forward(self, q, k, v, mask):
        return (q * 2 + k * 3 + v * 4).masked_fill(mask, 0.0)


def show(module, grad_input, grad_output):
    print("grad_input:", grad_input)
    print("grad_output:", grad_output)


m = Mix()
m.register_full_backward_hook(show)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
mask = torch.tensor([False, True])
m(a, b, b, mask).sum().backward()
print(a.grad, b.grad)
m(a * 1, b.detach(), b, mask).sum().backward()
print(a.grad, b.grad)
