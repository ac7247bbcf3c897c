# Source: source article 003 (../shared/seeds/003_6834eb29daaed595.txt); ours: what its prose
# says about detach() vs detach_() vs .data, `with torch.set_grad_enabled(False)` vs
# `with torch.no_grad()` vs model.eval(), backward(retain_graph=True) and x.grad.zero_(),
# written as a program (the article has no code for these sections). The hint in its last
# step is the article's: 完成一次反向传播后，需要将叶子节点的grad清零，如x.grad.zero_().
# Changes: none (all of it is ours). Seeds itself; the second backward without retain_graph
# fails, as the article says, and the error is caught and printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

# detach() returns a copy sharing memory, with grad_fn None and requires_grad False;
# y itself is unchanged.
w = torch.tensor([1., 2., 3.], requires_grad=True)
y = w * 2
d = y.detach()
print(d, d.requires_grad, d.grad_fn)
print(y.requires_grad, y.grad_fn is not None)
print(d.data_ptr() == y.data_ptr())

# detach_() changes y itself and returns it
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)

# .data: the same data, untracked; a change through it is not seen by autograd
a = torch.tensor([1., 2., 3.], requires_grad=True)
s = a.sigmoid()
s.data.zero_()
s.sum().backward()
print(a.grad)

# the same change through detach() is seen, and backward refuses
b = torch.tensor([1., 2., 3.], requires_grad=True)
t = b.sigmoid()
t.detach().zero_()
try:
    t.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# with torch.set_grad_enabled(False): and with torch.no_grad(): are the same
w = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    a = w * 2
with torch.set_grad_enabled(False):
    b = w * 2
c = w * 2
print(a.requires_grad, a.grad_fn)
print(b.requires_grad, b.grad_fn)
print(c.requires_grad, c.grad_fn is not None)
print(w.requires_grad, torch.is_grad_enabled())

# model.eval() does not stop autograd: it changes dropout and batch norm
model = nn.Sequential(nn.Linear(4, 3), nn.Dropout(0.5), nn.BatchNorm1d(3))
x = torch.randn(5, 4)
model.train()
out_train = model(x)
model.eval()
out_eval = model(x)
print(out_train.requires_grad, out_eval.requires_grad)
print(out_eval.grad_fn is not None)
with torch.no_grad():
    out_no_grad = model(x)
print(out_no_grad.requires_grad)
print(torch.equal(out_eval, out_no_grad))
print(model[2].running_mean)

# backward twice needs retain_graph=True; the grads accumulate
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 2).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# zero the leaf's grad before the next backward
x.grad.zero_()
z = (x ** 3).sum()
z.backward()
print(x.grad)
