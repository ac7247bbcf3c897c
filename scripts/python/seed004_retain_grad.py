# Source article 004: a = 2, c = a*a*5, d = c*c*b with b = 3, so d = 75 a^4 and
# dd/da = 300 a^3 = 2400.
#
# retain_grad() on c and d keeps their gradients (120 and 1). backward with retain_graph
# keeps the saved tensors, so a second backward is allowed - and the gradients accumulate:
# 2400 -> 4800, 120 -> 240, 1 -> 2.
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c = a * a * 5
d = c * c * b
c.retain_grad()
d.retain_grad()
d.backward(retain_graph=True)
print(a.grad)
print(c.grad)
print(d.grad)
d.backward()
print(a.grad)
print(c.grad)
print(d.grad)
