# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch forum thread
# "In the grad_fn, I find a next_functions, but I don't understand the meaning of the attribute"
# (https://discuss.pytorch.org/t/in-the-grad-fn-i-find-a-next-functions-but-i-dont-understand-the-meaning-of-the-attribute/24463:
# b = a*(a+2), next_functions down to AccumulateGrad and its .variable, the output number in
# each pair), extended with a walk over the whole graph as answers suggest.
# Written for gradsh; object addresses are masked by the corpus runner.
import torch

torch.manual_seed(0)
a = torch.randn(1, requires_grad=True)
b = a * (a + 2)
print(b.grad_fn.next_functions)
print(b.grad_fn.next_functions[1][0].next_functions)
print(b.grad_fn.next_functions[0][0].variable is a)


def walk(fn, depth=0):
    """Print the backward graph under fn, one node per line."""
    if fn is None:
        return
    extra = ""
    if hasattr(fn, "variable"):
        extra = f" -> leaf of shape {tuple(fn.variable.shape)}"
    print("  " * depth + fn.name() + extra)
    for child, number in fn.next_functions:
        walk(child, depth + 1)


x = torch.randn(2, 3, requires_grad=True)
w = torch.randn(3, 4, requires_grad=True)
y = torch.tanh(x @ w).sum(dim=1).mean()
walk(y.grad_fn)
print(type(y.grad_fn).__name__, y.grad_fn.name())

# a function with several differentiable outputs: the second number says which output
first, second = torch.ones(4, requires_grad=True).split(2)
z = first.sum() + second.sum()
print([(fn.name(), n) for fn, n in z.grad_fn.next_functions])
print([n for _, n in z.grad_fn.next_functions[0][0].next_functions])
print(y.grad_fn.metadata, y.grad_fn.requires_grad)
