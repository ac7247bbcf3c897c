# Source article 004: gradient accumulation over micro-batches.
#
# Four micro-batches of one sample each, losses divided by 4, one backward per batch and a
# single optimizer step: the accumulated gradient equals the full-batch gradient.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
w = torch.tensor([0.5, -0.5], requires_grad=True)
xs = torch.tensor([[1., 2.], [3., 4.], [5., 6.], [7., 8.]])
ys = torch.tensor([1., 2., 3., 4.])
opt = torch.optim.SGD([w], lr=0.01)
for i in range(4):
    loss = F.mse_loss(xs[i] @ w, ys[i]) / 4
    loss.backward()
print(w.grad)
full = torch.tensor([0.5, -0.5], requires_grad=True)
full_loss = F.mse_loss(xs @ full, ys)
full_loss.backward()
print(full.grad)
assert torch.allclose(w.grad, full.grad)
opt.step()
opt.zero_grad()
print(w)
