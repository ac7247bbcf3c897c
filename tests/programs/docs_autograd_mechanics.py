# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch docs note
# "Autograd mechanics", BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/docs/source/notes/autograd.md
# Like the note: grad_fn._saved_self being the very input tensor for pow while exp's
# _saved_result is an equal but different object; division by zero giving nan gradients
# even for masked-out elements, and masking before dividing; backward in several Python
# threads on independent graphs; registering pack/unpack hooks on a saved tensor through
# grad_fn._raw_saved_self; saved_tensors_hooks with detach making new tensor objects; a
# tensor hook registered after an in-place op; requires_grad_(False) freezing a module.
# Differences: our own code and values; results printed; seeded.
import threading

import torch

torch.manual_seed(0)

a = torch.randn(4, requires_grad=True)
sq = a.pow(2)
print(a.equal(sq.grad_fn._saved_self), a is sq.grad_fn._saved_self)
ex = a.exp()
print(ex.equal(ex.grad_fn._saved_result), ex is ex.grad_fn._saved_result)

num = torch.tensor([2., 3.], requires_grad=True)
den = torch.tensor([0., 4.])
keep = den != 0
(num / den)[keep].sum().backward()
print(num.grad)

num = torch.tensor([2., 3.], requires_grad=True)
safe = torch.zeros_like(num)
safe[keep] = num[keep] / den[keep]
safe.sum().backward()
print(num.grad)

results = [None] * 4


def work(slot):
    t = torch.full((3, 3), float(slot), requires_grad=True)
    ((t + 1) * (t + 2) * 0.5).sum().backward()
    results[slot] = t.grad[0, 0].item()


threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for th in threads:
    th.start()
for th in threads:
    th.join()
print(results)


def pack(t):
    print("pack", t)
    return t.detach()


def unpack(t):
    print("unpack", t)
    return t


v = torch.randn(3, requires_grad=True)
y = v.pow(3)
y.grad_fn._raw_saved_self.register_hooks(pack, unpack)
print(y.grad_fn._saved_self)
y.sum().backward()
print(v.grad)

with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
    q = torch.randn(3, requires_grad=True)
    qq = q * q
print(q is qq.grad_fn._saved_self, q.equal(qq.grad_fn._saved_other))


def show(g):
    print("hook sees", g)


s = torch.tensor(0.5, requires_grad=True).sin()
s.cos_()
s.register_hook(show)
s.backward()

layer = torch.nn.Linear(3, 2)
layer.requires_grad_(False)
print([p.requires_grad for p in layer.parameters()])
out = layer(torch.randn(1, 3, requires_grad=True))
print(out.requires_grad, out.grad_fn is not None)
