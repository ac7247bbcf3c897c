# Corpus program modelled on the Stack Overflow question "What does the parameter retain_graph
# mean in the Variable's backward() method?" (https://stackoverflow.com/questions/46774641) and
# its answers: a graph d = b + c, e = b * c with b = a ** 2 shared by two losses; backward
# through both with retain_graph=True on the first, the error when it is left out, and the
# summed gradients; the accepted answer's multi-loss example (two heads on one trunk).
# Changed: a seed, small sizes; errors are caught and printed. Written for gradsh.
import torch

a = torch.tensor([2.0, 3.0], requires_grad=True)
b = a ** 2
c = b * 2
d = b.mean()
e = c.sum()
d.backward(retain_graph=True)
print(a.grad)
e.backward()
print(a.grad)

a.grad = None
b = a ** 2
c = b * 2
d = b.mean()
e = c.sum()
d.backward()
try:
    e.backward()
except RuntimeError as err:
    print(err)
print(a.grad)

torch.manual_seed(0)
trunk = torch.nn.Linear(3, 4)
head1 = torch.nn.Linear(4, 1)
head2 = torch.nn.Linear(4, 1)
x = torch.randn(5, 3)
h = torch.relu(trunk(x))
loss1 = head1(h).pow(2).mean()
loss2 = head2(h).abs().mean()
loss1.backward(retain_graph=True)
g1 = trunk.weight.grad.clone()
loss2.backward()
print(g1)
print(trunk.weight.grad)
trunk.zero_grad()
h = torch.relu(trunk(x))
(head1(h).pow(2).mean() + head2(h).abs().mean()).backward()
print(trunk.weight.grad)
print(torch.allclose(trunk.weight.grad, g1 + (trunk.weight.grad - g1)))
print(trunk.weight.grad is None, head1.weight.grad.shape)

x = torch.ones(2, requires_grad=True)
y = x.exp()
z = y.sum()
z.backward(retain_graph=True)
z.backward(retain_graph=True)
z.backward()
print(x.grad)
try:
    z.backward()
except RuntimeError as err:
    print(type(err).__name__, str(err)[:90])
