# Source article 004: without retain_graph, the second backward fails.
#
# The first backward frees the tensors MulBackward0 saved for the backward pass, so the
# second one has nothing to work with. Compare seed004_retain_grad.grad.
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c = a * a * 5
d = c * c * b
d.backward()
print(a.grad)
d.backward()
