# Source article 004: model.zero_grad() vs optimizer.zero_grad(), and why grads must be zeroed.
#
# backward adds into .grad; without zeroing, the second step sees twice the gradient.
# optimizer.zero_grad() (PyTorch 2 default set_to_none=True) makes the grads None; the
# classic loop of the article zeroes them in place with w.grad.zero_().
import torch

w = torch.tensor([1., 2.], requires_grad=True)
x = torch.tensor([3., 4.])
loss = (w * x).sum()
loss.backward()
print(w.grad)
loss = (w * x).sum()
loss.backward()
print(w.grad)
w.grad.zero_()
print(w.grad)
opt = torch.optim.SGD([w], lr=0.1)
loss = (w * x).sum()
loss.backward()
opt.step()
print(w)
opt.zero_grad()
print(w.grad)
