# Probe (issue 17): a grad_fn's attributes: _saved_* (None where PyTorch's class saved nothing),
# name(), hooks, and torch.autograd.graph.Node.
import torch
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
show(lambda: y.grad_fn.name())
show(lambda: y.grad_fn._saved_result)
show(lambda: y.grad_fn._saved_result is y)
show(lambda: y.grad_fn.next_functions[0][0].variable is x)
show(lambda: y.grad_fn.metadata)
z = x * 3
show(lambda: z.grad_fn._saved_other)
show(lambda: z.grad_fn._saved_self)
w = x * x
show(lambda: w.grad_fn._saved_self is x)
show(lambda: (x.pow(2).grad_fn._saved_exponent, x.pow(2).grad_fn._saved_self))
show(lambda: x.sum(0).grad_fn._saved_dim)
show(lambda: x.view(2, 1).grad_fn._saved_self_sym_sizes)
show(lambda: x.max().grad_fn._saved_result)
show(lambda: x.softmax(0).grad_fn._saved_dim)
show(lambda: y.grad_fn.register_hook(lambda gi, go: None).__class__.__name__)
show(lambda: y.grad_fn._raw_saved_result)
y.sum().backward()
show(lambda: y.grad_fn._saved_result)
show(lambda: torch.autograd.graph.Node)
show(lambda: isinstance(y.grad_fn, torch.autograd.graph.Node))
show(lambda: y.grad_fn.next_functions[0][0].name())
show(lambda: x.grad_fn)
show(lambda: str(y.grad_fn).split(" at ")[0])
