# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch documentation
# "Autograd mechanics", section "Backward Hooks execution"
# (https://pytorch.org/docs/stable/notes/autograd.html#backward-hooks-execution: tensor hooks
# run before the grad_fn's pre-hooks, a pre-hook may replace grad_outputs, a hook on the
# grad_fn sees grad_inputs and grad_outputs, hooks are removed with their handle).
# Written for gradsh; the order of the printed lines is the order the hooks ran.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = a * b


def tensor_hook(grad):
    print("tensor hook", grad)
    return grad * 2


def pre_hook(grad_outputs):
    print("pre-hook", grad_outputs)


def post_hook(grad_inputs, grad_outputs):
    print("post-hook", grad_inputs, grad_outputs)


y.register_hook(tensor_hook)
handle_pre = y.grad_fn.register_prehook(pre_hook)
handle_post = y.grad_fn.register_hook(post_hook)
y.sum().backward(retain_graph=True)
print(a.grad, b.grad)

handle_pre.remove()
handle_post.remove()
y.grad_fn.register_prehook(lambda go: (go[0] * 10,))
y.grad_fn.register_hook(lambda gi, go: (gi[0], torch.zeros_like(gi[1])))
a.grad = None
b.grad = None
y.sum().backward()
print(a.grad, b.grad)

leaf_acc = (a * 1).grad_fn.next_functions[0][0]
print(leaf_acc.name(), type(leaf_acc).__name__)
