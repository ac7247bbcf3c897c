# Corpus program, written for gradsh (no code copied). Modelled on Andrej Karpathy's "Neural
# Networks: Zero to Hero" micrograd lecture notebook, the cell that checks micrograd's
# neuron with PyTorch (MIT):
# https://github.com/karpathy/nn-zero-to-hero/blob/master/lectures/micrograd/micrograd_lecture_second_half_roughly.ipynb
# Like the notebook: scalar inputs and weights made with torch.Tensor([v]).double() and
# requires_grad set afterwards, n = x1*w1 + x2*w2 + b with b chosen so tanh(n) = 0.7071,
# torch.tanh, o.data.item(), backward and each .grad.item().
# Differences: our own code; a second neuron with exp-based tanh (as the lecture derives it)
# added for comparison.
import torch


def scalar(v):
    t = torch.Tensor([v]).double()
    t.requires_grad = True
    return t


x1, x2 = scalar(2.0), scalar(0.0)
w1, w2 = scalar(-3.0), scalar(1.0)
b = scalar(6.8813735870195432)
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print("---")
for name, t in (("x2", x2), ("w2", w2), ("x1", x1), ("w1", w1)):
    print(name, t.grad.item())

leaves = [scalar(v) for v in (2.0, 0.0, -3.0, 1.0, 6.8813735870195432)]
a1, a2, v1, v2, bias = leaves
n = a1 * v1 + a2 * v2 + bias
e = (2 * n).exp()
o2 = (e - 1) / (e + 1)
print(o2.data.item())
o2.backward()
print([round(t.grad.item(), 6) for t in leaves])
print(o2.grad_fn.name(), o.grad_fn.name())
