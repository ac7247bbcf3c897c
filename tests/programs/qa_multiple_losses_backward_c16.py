# Corpus program modelled on the PyTorch-forum / Stack Overflow questions on backpropagating
# several losses at once ("loss1.backward(); loss2.backward() vs (loss1 + loss2).backward() vs
# torch.autograd.backward([loss1, loss2])") and on the grad_tensors / grad_outputs argument
# when outputs are not scalars, following the torch.autograd.backward and torch.autograd.grad
# docs (https://pytorch.org/docs/stable/generated/torch.autograd.backward.html): the three
# ways give the same gradients, weights as grad_tensors, a missing gradient's error ("got 2
# tensors and 1 gradients"), extra gradients ignored, None for a scalar output, the
# non-scalar "grad can be implicitly created only for scalar outputs" error, and
# retain_graph when two losses share a trunk.
# Changed: a seeded two-head toy model on random data; each variant printed. Written for gradsh.
import torch
import torch.nn as nn

torch.manual_seed(0)
trunk = nn.Linear(4, 3)
head1 = nn.Linear(3, 1)
head2 = nn.Linear(3, 2)
x = torch.randn(5, 4)
y1 = torch.randn(5, 1)
y2 = torch.randint(0, 2, (5,))


def losses():
    h = torch.relu(trunk(x))
    return (nn.functional.mse_loss(head1(h), y1),
            nn.functional.cross_entropy(head2(h), y2))


def grads():
    out = trunk.weight.grad.clone()
    trunk.zero_grad()
    head1.zero_grad()
    head2.zero_grad()
    return out


loss1, loss2 = losses()
print(loss1.item(), loss2.item())
loss1.backward(retain_graph=True)
loss2.backward()
g_sep = grads()
loss1, loss2 = losses()
(loss1 + loss2).backward()
g_sum = grads()
loss1, loss2 = losses()
torch.autograd.backward([loss1, loss2])
g_list = grads()
print(g_sep)
print(torch.allclose(g_sep, g_sum), torch.allclose(g_sum, g_list), torch.equal(g_sum, g_list))

loss1, loss2 = losses()
torch.autograd.backward([loss1, loss2], [torch.tensor(0.5), torch.tensor(2.0)])
print(grads())
loss1, loss2 = losses()
(0.5 * loss1 + 2.0 * loss2).backward()
print(grads())

loss1, loss2 = losses()
try:
    torch.autograd.backward([loss1, loss2], [torch.tensor(1.0)])
except RuntimeError as e:
    print(e)
try:
    torch.autograd.grad([loss1, loss2], trunk.weight, torch.tensor(1.0))
except RuntimeError as e:
    print(e)
g, = torch.autograd.grad(loss1, trunk.weight, [torch.tensor(1.0), torch.tensor(3.0)],
                         retain_graph=True)
print(g)
g1, g2 = torch.autograd.grad([loss1, loss2], [trunk.weight, trunk.bias], [None, None],
                             retain_graph=True)
print(g1.shape, g2)

h = torch.relu(trunk(x))
out = head2(h)
try:
    out.backward()
except RuntimeError as e:
    print(e)
try:
    torch.autograd.grad([out, loss1], trunk.bias, [None, None])
except RuntimeError as e:
    print(e)
try:
    torch.autograd.grad(out, trunk.bias, torch.ones(3, 2))
except RuntimeError as e:
    print(e)
gb, = torch.autograd.grad(out, trunk.bias, torch.ones_like(out))
print(gb)
